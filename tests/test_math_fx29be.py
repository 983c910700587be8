"""fx29be: red team 31's open classes 4 and 3a closed (tests/test_math_redteam_31.py), through the real grader
(`grade_math`) in both profiles.

4. A comma before three digits (`2,500`) reads 2.5 in a language that writes a decimal comma and 2500 in one that
   writes a decimal point. `extract.grouping_ambiguous` reads both separators with one test of the language
   (`extract._decimal_comma_text`: a decimal-comma anchor anywhere, a decimal comma, the euro, a letter English does not
   write): there `d,ddd` is refused against both readings, as `d.ddd` is outside a known decimal-point text; elsewhere
   the comma groups thousands as before. Two commas, both marks, a decimal comma `2,5`, a space grouping and a bracket's
   pair (`(12,102)`) keep their one reading.
3a. Lenient's name slot held any capitalised word `NEVER_NAMES` (a list of bad cases) did not hold, so `Unsure: 6
   apples` paid. Now the lenient fallback reads under `grammar.grounded_names`: a name is a word of the task's problem
   text (MathTask.problem; TRL's `problem_from_prompt`), compared on its NFKD fold, case kept; with no problem text the
   slot holds nothing. Open (both profiles, xfail below): the box, anchor and concluding paths still read names from
   `NEVER_NAMES` alone (`So Unsure has \\boxed{6} apples.`), as the lead's decision scoped the allowlist to lenient.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import MATH_PROFILES, paid_test, refused_test
from tests.test_math_redteam_30 import _cases, problem_verdicts
from verifier.formats.common import prompt_problem
from verifier.math import grade_math

# 4. Near misses: each pays neither reading of `d,ddd` outside a text known to write decimal points.
_COMMA_NEAR = [
    ('Die Antwort lautet 2,500 kg.', '2500'), ('Die Antwort lautet 2,500 kg.', '2.5'), ('Antwort: 7,125', '7125'),
    ('Antwort: 7,125', '7.125'), ('La réponse est 1,250 €.', '1250'), ('La respuesta final es $2,500$.', '2500'),
    ('Ответ — 2,500 км.', '2500'), ('Die Antwort lautet \\boxed{2,500}.', '2.5'), ('Sie hat 2,500 kg.\n#### 2.500 kg', '2500'),
    ('Het antwoord is 2,500.', '2500'), ('A resposta é 2,500.', '2500'),
    ('Gesamt: 2,500 Euro', '2500'), ('So the total is 2,500 euros.', '2500'), ('The answer is 2,500 €.', '2500'),
    ('The answer is 2,500. Das ist schön.', '2500'),
]
test_a_comma_before_three_digits_in_a_decimal_comma_text_is_refused = refused_test(
    _cases(_COMMA_NEAR), """`d,ddd` is 2.5 or 2500 by language: in a text that shows a decimal-comma language (its
    anchor anywhere, the euro, a letter English does not write) neither reading pays; nor in one of no language the
    grammar reads (Dutch, Portuguese).""")

# 4, closed since (fx29e, tests/test_math_fx29e.py): German prose with no anchor, euro or letter English does not write is
# of no known language (`extract._english_words`), so `d,ddd` is refused there.
_COMMA_OPEN = _cases([('Sie hat 2,500 kg.\n#### 2,500', '2500'), ('Also sind es 2,500 kg.\n\\boxed{2,500}', '2500')])
test_a_comma_in_german_prose_without_its_marks_is_refused = refused_test(_COMMA_OPEN)

# 4. Rewrites: one reading, or a text that shows no decimal-comma language (the comma groups thousands, as before).
_COMMA_RIGHT = [
    ('The answer is 2,500.', '2500'), ('The answer is 2,500 kg.', '2500'), ('\\boxed{2,500}', '2500'), ('#### 2,500', '2500'),
    ('答案是 2,500。', '2500'), ('Die Antwort lautet 2500 kg.', '2500'), ('Die Antwort lautet 2,5 kg.', '2.5'),
    ('Die Antwort lautet 2,500,000.', '2500000'), ('Die Antwort lautet 2 500 kg.', '2500'), ('The answer is 2,500.5.', '2500.5'),
    ('Die Antwort lautet \\boxed{(12,102)}.', '(12,102)'), ('The answer is 1.5, so 2,500 in all.\n\\boxed{2,500}', '2500'),
    ('So the total is 2,500 dollars.', '2500'),
    ('Natalia sold 48/2 = 24 clips in May.\nNatalia sold 48+24 = 72 clips altogether in April and May.\n#### 1,234', '1234'),
]
test_a_comma_with_one_reading_pays = paid_test(_cases(_COMMA_RIGHT))


def test_math_verifys_interval_keeps_its_reading() -> None:
    """The peer row the first cut lost (math-verify's extraction case 25): `(12,102)` is an interval's pair, and the
    text's `(2,12)` looks like a decimal comma, so a comma that opens or closes a bracket's pair is not one number."""
    completion, gold = "Thus, the answer is $x \\in \\boxed{(2,12) \\cup (12,102)}$", "(2, 12) \\cup (12, 102)"
    assert [grade_math({"completion": completion, "gold": gold, "profile": p})["verdict"] for p in MATH_PROFILES] == [
        "correct"] * len(MATH_PROFILES)


# 3a. Near misses: lenient's name slot holds only a word of the task's problem.
SAM = "Sam has 2 apples and gets 4 more. How many apples does Sam have?"
_NAME_NEAR = [
    ("Unsure: 6 apples", SAM), ("Doubtful has 6 apples.", SAM), ("Speculative: 6 apples", SAM), ("Hmm: 6 apples", SAM),
    ("Ballpark: 6 apples", SAM), ("Tom has 6 apples.", SAM), ("Sam: 6 apples", ""), ("Sam has 6 apples.", ""),
    ("José has 6 apples.", ""), ("Unsure: 6 apples", "The unsure student has 2 apples and gets 4. How many?"),
    ("Sаm has 6 apples.", SAM), ("Sam's guess: 6 apples", SAM), ("Sam has 6 apples. Tom has 7 apples.", SAM),
    ("Conjecture has 6 apples.", prompt_problem([{"role": "system", "content": "Conjecture freely."},
                                                 {"role": "user", "content": "How many apples?"}])),
]


@pytest.mark.parametrize(("completion", "problem"), _NAME_NEAR)
def test_an_ungrounded_word_is_no_name(completion: str, problem: str) -> None:
    """Refused in both profiles: a capitalised word the problem does not use (`Unsure`, `Tom` beside a problem of Sam's),
    a name with no problem at all, one the problem writes only in lower case (`unsure`), a Cyrillic look-alike (`Sаm`),
    and a word only a message list's system turn holds (`prompt_problem` keeps the user's turns)."""
    assert "correct" not in problem_verdicts(completion, problem)


# 3a. Rewrites: a name the problem uses pays lenient, as before.
_NAME_RIGHT = [
    ("Sam has 6 apples.", SAM), ("Sam: 6 apples", SAM), ("Sam's total is 6 apples.", SAM), ("So Sam has 6 apples.", SAM),
    ("José has 6 apples.", "Jose has 2 apples and gets 4."), ("Zoë: 6 apples", "Zoe has 2 apples and gets 4."),
    ("Sam has 2 apples.\nSam has 6 apples.", SAM), ("She has 6 apples.", ""), ("Therefore, she has 6 apples.", ""),
    ("Tom has 2 apples. So x = 6.", ""),
    ("Sam has 6 apples.", prompt_problem([{"role": "user", "content": SAM}])), ("Sam has 6 apples.", prompt_problem(SAM)),
]


@pytest.mark.parametrize(("completion", "problem"), _NAME_RIGHT)
def test_a_grounded_name_pays_lenient(completion: str, problem: str) -> None:
    """Paid lenient: the problem's own names (on the NFKD fold: `Zoë` is the problem's `Zoe`), through the task's field
    and TRL's prompt (a string or a message list); a pronoun needs no problem."""
    assert problem_verdicts(completion, problem)[MATH_PROFILES.index("lenient")] == "correct"


def test_a_name_in_a_step_before_the_last_value_is_read_as_before() -> None:
    """The grounding reads the answer's own sentence only: a step above it with a name the task does not give (GSM8K line
    7, 175b_verification: `Seattle has 20 sheep` above `A: 260`, no problem in the peer row) is still a step, not an
    unread statement of another value (`_unread_statement_before`), so the row pays with and without its question (a
    first cut grounded those steps too and lost it)."""
    rows = Path(__file__).parent / "data" / "peer_outputs" / "gsm8k_gpt3.jsonl"
    case = next(c for c in map(json.loads, rows.read_text().splitlines()) if c["source"].endswith("line7/175b_verification"))
    question = ("Toulouse has twice as many sheep as Charleston. Charleston has 4 times as many sheep as Seattle. How many "
                "sheep do Toulouse, Charleston, and Seattle have together if Seattle has 20 sheep?")
    task = {"completion": case["prediction"], "gold": case["gold"], "profile": "lenient"}
    assert [grade_math({**task, "problem": p})["verdict"] for p in (question, "")] == ["correct", "correct"]


def test_math_verifys_unnamed_alice_is_the_cost() -> None:
    """The one peer row lost (math-verify's extraction edge case 0, listed as our policy): the answer's sentence names
    `Alice` (`Therefore, the probability that Alice wins the game is 2/3.`, read by the lenient fallback), and the case
    carries no problem; with a problem that names her it pays."""
    rows = Path(__file__).parent / "data" / "peers" / "math_verify.jsonl"
    case = next(c for c in map(json.loads, rows.read_text().splitlines()) if c["source"].endswith("edge_cases[0]"))
    task = {"completion": case["prediction"], "gold": case["gold"], "profile": "lenient"}
    problem = "Alice and Bob flip a coin in turn. What is the probability that Alice wins the game?"
    assert [grade_math({**task, "problem": p})["verdict"] for p in ("", problem)] == ["no_answer", "correct"]


# 3a, open: the box, anchor and concluding paths read names from `NEVER_NAMES` alone (both profiles).
_OPEN = ["So Unsure has \\boxed{6} apples.", "The answer is Unsure has 6 apples.", "So, Unsure's total is 6 apples."]


@pytest.mark.parametrize("completion", [pytest.param(c, marks=pytest.mark.xfail(
    strict=True, reason="fx29be: only lenient's fallback reads names under grammar.grounded_names")) for c in _OPEN])
def test_an_ungrounded_name_before_a_box_or_after_an_anchor_is_no_name(completion: str) -> None:
    """Paid in both profiles: grounding every path (`grounded_names` around all of extraction) closes these and costs
    math-verify's `Paula's investment is worth $\\boxed{...}$` (edge case 12, no problem text) besides lenient's
    costs. The safe verdict: refused."""
    assert "correct" not in problem_verdicts(completion, SAM)
