"""The answer grammar (verifier/math/grammar.py; docs/math.md "Answer grammar"): its readings, and a
seeded fuzz that puts random words around a right number: it must never be paid unless every word
is one the grammar admits.

The fuzz draws from a wide vocabulary: the grammar's own words, English words it does not list
(hedges, scalers, negations, inequalities, plain nouns and verbs), and words of other languages and
scripts. Bounded (`FUZZ_CASES`), seeded, real grader: it runs in seconds and sees the same cases
every run.
"""

from __future__ import annotations

import random

import pytest

from verifier.math import extract_answer, grade_math
from verifier.math.grammar import LEXICON, MAX_CHARS, admitted, is_name, read

FUZZ_SEED = 29
FUZZ_CASES = 600
OUTSIDE = (
    "possibly about approximately roughly nearly almost maybe perhaps probably likely doubt guess think believe "
    "not no never none negative minus plus thousand thousands million millions billion hundred dozen gross "
    "lakh lac crore thou bn mn Mio. Mrd. k K M B squared cubed half twice double triple quarter tenths "
    "ten-thousandths or and between most over under above below exceed exceeds unless except but wrong "
    "incorrect false estimate around circa ish so could might would should may if when while until whether "
    "banana-ish widget sprocket gizmo quantum purple running jumped-over elephantine fantastic "
    "etwa ungefähr nicht tausend Millionen Milliarden mille cent cents environ pas millions cerca mil millones "
    "около тысяч миллион не 約 万 千 亿 百 十 大约 不是 或 倍 약 만 억 लगभग हज़ार लाख करोड़"
).split()
INSIDE = sorted(w for entry in LEXICON for w in entry.words if entry.role not in ("cjk_subject",) and " " not in w)


def _words(rng: random.Random) -> tuple[list[str], list[str]]:
    """Random words to put before and after the number (at least one)."""
    pool = OUTSIDE if rng.random() < 0.5 else INSIDE
    before = [_cased(rng, rng.choice(pool if rng.random() < 0.7 else INSIDE)) for _ in range(rng.randint(0, 3))]
    after = [_cased(rng, rng.choice(pool if rng.random() < 0.7 else INSIDE)) for _ in range(rng.randint(0, 3))]
    if not before and not after:
        after = [rng.choice(OUTSIDE)]
    return before, after


def _cased(rng: random.Random, word: str) -> str:
    """The word as drawn, or capitalised (a capitalised hedge must not pass for a name)."""
    return word.capitalize() if rng.random() < 0.2 else word


def _fuzz_cases() -> list[tuple[str, str, list[str]]]:
    """(completion, gold, words): the words around a right number in prose, in a box's text, and
    around a math segment after an anchor."""
    rng = random.Random(FUZZ_SEED)
    cases = []
    for i in range(FUZZ_CASES):
        n = rng.randint(2, 999)
        before, after = _words(rng)
        pre, post = " ".join(before), " ".join(after)
        if i % 3 == 0:
            completion = f"The answer is {pre} {n} {post}."
        elif i % 3 == 1:
            completion = f"So \\boxed{{\\text{{{pre} }} {n} \\text{{ {post}}}}}"
        else:
            completion = f"Final Answer: {pre} ${n}$ {post}"
        cases.append((completion, str(n), before + after))
    return cases


def _all_admitted(words: list[str]) -> bool:
    """The oracle: every word is in the lexicon, or has a name's shape (`Widget`: the grammar's one
    open slot, admitted only as a subject before a verb or after `than`)."""
    return all(admitted(w) or is_name(w) for w in words)


@pytest.mark.timeout(120)
def test_random_words_around_a_right_number_never_pay_unless_admitted() -> None:
    """Every word outside the grammar makes a right number unpaid, in prose, in a box and after a
    math segment (the oracle is `admitted`: the lexicon, names aside; the fuzz draws no names)."""
    paid_outside = []
    admitted_cases = 0
    for completion, gold, words in _fuzz_cases():
        verdict = grade_math({"completion": completion, "gold": gold})["verdict"]
        if _all_admitted(words):
            admitted_cases += 1
            continue
        if verdict == "correct":
            paid_outside.append(completion)
    assert not paid_outside, "\n".join(paid_outside[:20])
    assert FUZZ_CASES // 10 < admitted_cases < FUZZ_CASES  # both kinds are drawn


def test_the_fuzz_vocabulary_is_outside_the_grammar() -> None:
    """The words drawn as outside are really not admitted (else the fuzz would test nothing)."""
    assert not [w for w in OUTSIDE if admitted(w) or is_name(w)]
    hedges = OUTSIDE[: OUTSIDE.index("banana-ish")]
    assert not [w for w in hedges if is_name(w.capitalize())]  # `Possibly it is 6`: never a name


@pytest.mark.parametrize("completion, gold", [
    ("The answer is 18 times.", "18"),
    ("The answer is \u2220PQR = 40\u00b0.", "40"),
    ("The answer is \u22203 is 75 degrees", "75"),
    ("The answer is y \u7684\u503c\u662f 9 cm", "9"),
    ("\u7b54\u6848\u662f 9", "9"),
    ("The answer is 2,5 m.", "2.5"),
    ("The answer is \u00a33,20.", "3.2"),
    ("The answer is \u00a5800.", "800"),
    ("The answer is \u20b9450.", "450"),
    ("The answer is 12 cm\u00b3.", "12"),
    ("The answer is 9 m/s.", "9"),
    ("The answer is Sam swam 30 meters farther than Lee.", "30"),
    ("The answer is 3 fewer.", "3"),
    ("The answer is 50 percent.", "50"),
    ("The answer is 50 percent.", "0.5"),
    ("So \\boxed{12 \\text{ cm}}", "12"),
    ("So \\boxed{5\\sqrt{2} \\text{ cm}}", "5\\sqrt{2}"),
    ("So \\boxed{\\angle PQR = 40^\\circ}", "40"),
    ("The answer is the least common multiple is 12.", "12"),
    ("The answer is Maria's savings were $4,500.", "4500"),
    ("So \\boxed{6} apples.", "6"),
    ("So \\boxed{6} is the final answer.", "6"),
    ("So $\\boxed{6}$. I hope it is correct.", "6"),
    ("The answer is 6 cups of flour.", "6"),
])
def test_right_answers_the_grammar_admits(completion: str, gold: str) -> None:
    assert grade_math({"completion": completion, "gold": gold})["verdict"] == "correct"


@pytest.mark.parametrize("completion, gold", [
    ("So \\boxed{3 \\text{ hundred}}", "3"),
    ("So \\boxed{3 \\text{ million}}", "3"),
    ("So \\boxed{3 \\text{ Mrd.}}", "3"),
    ("So \\boxed{3 \\text{ negative}}", "3"),
    ("So \\boxed{3 \\text{ ten-thousandths}}", "3"),
    ("Final Answer: $7$ billion", "7"),
    ("The answer is 4 Mio.", "4"),
    ("The answer is 4 lac.", "4"),
    ("The answer is 4 thou.", "4"),
    ("\u7b54\u6848\u662f 4 \u5343", "4"),
    ("The answer is possibly 6.", "6"),
    ("The answer is about 6.", "6"),
    ("The answer is I doubt it is 6.", "6"),
    ("The answer is 6? Wrong.", "6"),
    ("The answer is 6 unless n is odd.", "6"),
    ("The answer is z = 4 for w = 9.", "9"),
    ("The answer is 3 or 4.", "3"),
    ("The answer is between 3 and 9.", "3"),
    ("The answer is at least 3.", "3"),
    ("The answer is 7 dozen.", "7"),
    ("The answer is 7 dozen.", "84"),
    ("The answer is 2x = 6.", "6"),
    ("So \\boxed{6 maybe}", "6"),
    ("So \\boxed{z = 4 \\text{ for } w = 9}", "9"),
    ("So \\boxed{6} thousand", "6"),
    ("So the answer is $\\boxed{6}$ million dollars.", "6"),
    ("So \\boxed{6} is wrong.", "6"),
    ("So \\boxed{6 \\mathrm{M}}", "6"),
    ("So \\boxed{6\\,\\text{k}}", "6"),
    ("The answer is 6 per thousand.", "6"),
    ("The answer is 6 \\text{ thousand}.", "6"),
    ("So \\boxed{6 \\text{ or}}", "6"),
    ("The answer is Approx is 6.", "6"),
])
def test_words_outside_the_grammar_are_never_paid(completion: str, gold: str) -> None:
    """Strict and lenient alike: after an anchor or in a box one grammar serves both profiles."""
    for profile in ("strict", "lenient"):
        assert grade_math({"completion": completion, "gold": gold, "profile": profile})["verdict"] != "correct"


@pytest.mark.parametrize("completion, gold", [
    ("5 + 6 = 11. Die Antwort ist 11.", "11"),
    ("9 + 20 = 29 Computer. Die Antwort lautet 29.", "29"),
    ("5 + 6 = 11. La réponse est 11.", "11"),
    ("5 + 6 = 11. La respuesta es 11.", "11"),
    ("5 + 6 = 11. Ответ — 11.", "11"),
    ("5 + 6 = 11。答案是 11。", "11"),
    ("5+6=11。答えは11です。", "11"),
    ("74-35=39個のチョコレートが残っている。答えは39個。", "39"),
    ("7+2=9個のおもちゃがあります。答えは9個です。", "9"),
    ("ดังนั้น 5 + 6 = 11 คำตอบคือ 11", "11"),
    ("5 + 6 = 11. Jibu ni 11.", "11"),
    ("5 + 6 = 11। উত্তর হল 11।", "11"),
    ("5+6=11. సమాధానం 11.", "11"),
])
def test_mgsm_anchors_read_the_right_answer(completion: str, gold: str) -> None:
    """MGSM's final-answer sentences in ten languages (tests/data/peer_outputs/README.md) are read
    under the strict profile; before these anchors each was `no_answer`."""
    assert grade_math({"completion": completion, "gold": gold})["verdict"] == "correct"


@pytest.mark.parametrize("completion, gold", [
    ("Die Antwort lautet 39 Tausend.", "39"), ("Die Antwort lautet 39 Tausend.", "39000"),
    ("Die Antwort ist etwa 11.", "11"), ("Die Antwort ist 11 oder 12.", "11"), ("Die Antwort ist nicht 11.", "11"),
    ("La réponse est 11 mille.", "11"), ("La réponse est environ 11.", "11"), ("La réponse est 11 ou 12.", "12"),
    ("La réponse est 6 cents.", "6"), ("The answer is 6 cents.", "6"), ("\\boxed{6 \\text{ cents}}", "6"),
    ("La respuesta es 11 mil.", "11"), ("La respuesta es aproximadamente 11.", "11"), ("La respuesta es 11 o 12.", "11"),
    ("Ответ — 11 тысяч.", "11"), ("Ответ — примерно 11.", "11"), ("Ответ — 11 или 12.", "11"), ("Ответ — не 11.", "11"),
    ("答案是 11千。", "11"), ("答案是 11 万。", "11"), ("答案是 大约 11。", "11"), ("答案是 11 或 12。", "11"),
    ("答えは11万です。", "11"), ("答えは11千です。", "11"), ("答えは約11です。", "11"), ("答えは11でしょう。", "11"),
    ("答えは11か12です。", "11"), ("答えは11ではありません。", "11"),
    ("คำตอบคือ 11 พัน", "11"), ("คำตอบคือ ประมาณ 11", "11"), ("คำตอบคือ 11 หรือ 12", "11"),
    ("Jibu ni 11 elfu.", "11"), ("Jibu ni takriban 11.", "11"), ("Jibu ni 11 au 12.", "11"),
    ("উত্তর হল 11 হাজার।", "11"), ("উত্তর হল প্রায় 11।", "11"), ("উত্তর হল 11 বা 12।", "11"),
    ("సమాధానం 11 వేల.", "11"), ("సమాధానం సుమారు 11.", "11"), ("సమాధానం 11 లేదా 12.", "11"),
    ("సమాధానం 9.బొమ్మలున్నాయి.", "9"),
])
def test_non_english_anchors_admit_no_other_word(completion: str, gold: str) -> None:
    """After each new anchor a scale word, a hedge, a negation or a second value is no answer, in
    both profiles (docs/math.md "Answer grammar")."""
    for profile in ("strict", "lenient"):
        assert grade_math({"completion": completion, "gold": gold, "profile": profile})["verdict"] != "correct", profile


@pytest.mark.parametrize("text, kind", [
    ("2x + 3", "math"), ("Friday", "words"), ("\\text{Yes, there are 3 of them}", "refused"), ("\\text{No solution}", "words"),
    ("1 < t \\le 3 \\text{ or } 5 \\le t < 9", "math"), ("8:34\\text{ p.m.}", "math"),
    ("\\frac{\\pi}{6} + k\\pi \\text{ for integer } k", "math"), ("10 \\text{ cm}", "number"),
    ("3 \\text{ hundred}", "refused"), ("\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "math"),
])
def test_what_the_grammar_reads(text: str, kind: str) -> None:
    """Math without words is read as written; a word answer stays words; structure words (`or`, a
    clock's `p.m.`, a general solution's `for integer k`) are the parser's."""
    assert read(text).kind == kind


def test_long_texts_are_not_read_and_reading_is_linear() -> None:
    """Past `MAX_CHARS` no words are read (refused, never admitted unread: red team 8 class 3); math without words is
    read as written at any length; a megabyte completion extracts."""
    assert read("1 " + "apples " * MAX_CHARS).kind == "refused"
    assert read("1" + " + x" * MAX_CHARS).kind == "math"
    completion = "x" * 1_000_000 + ". The answer is " + "apples " * 500 + "6."  # `x...x The answer` leads with a word
    assert extract_answer(completion).source == "anchor"


# Red team of the grammar (issue 29 items 1-2): each finding below paid gold before its fix, through
# the real grader. Every group holds the input found and variants the fix was not written for.
CHOICES = ["red", "blue", "green", "60\u00b0"]


@pytest.mark.parametrize("completion, gold", [
    ("So \\boxed{x = 2 \\text{ or } y = 3}", "x = 2, y = 3"),  # found by the keys red team
    ("The answer is x = 2 or y = 3.", "x = 2, y = 3"),
    ("So \\boxed{x=2 \\text{ or } y=3}", "(2, 3)"),
    ("So \\boxed{a = 1 \\quad\\text{or}\\quad b = 5}", "a = 1, b = 5"),
    ("So \\boxed{p = 1, q = 2 \\text{ or } r = 3}", "p = 1, q = 2, r = 3"),
    ("So \\boxed{x = 2 \\text{ or } y = 3}", "x = 2 \\text{ and } y = 3"),
])
def test_alternatives_naming_different_quantities_never_pay(completion: str, gold: str) -> None:
    """`or` offers alternatives for one quantity; `x = 2 or y = 3` says one of two unknowns holds,
    never both (math-verify read `or` as a comma: the pair was paid)."""
    assert grade_math({"completion": completion, "gold": gold})["verdict"] != "correct"


@pytest.mark.parametrize("completion, gold", [
    ("So \\boxed{x = 2 \\text{ or } x = 3}", "2, 3"),
    ("So \\boxed{x = 1, y = 2 \\text{ or } x = 3, y = 4}", "x = 1, y = 2; x = 3, y = 4"),
    ("So \\boxed{2 \\text{ or } 3}", "2, 3"),
    ("So \\boxed{x = 2 \\text{ and } y = 3}", "x = 2, y = 3"),
])
def test_alternatives_for_one_quantity_still_pay(completion: str, gold: str) -> None:
    assert grade_math({"completion": completion, "gold": gold})["verdict"] == "correct"


@pytest.mark.parametrize("completion", [
    "Answer: C is wrong", "Answer: C thousand", "Answer: C unless n is odd", "Answer: C probably",
    "Answer: Option C is incorrect", "Answer: C (green) is wrong", "Answer: C if n is even",
    "So \\boxed{C} is wrong.", "So \\boxed{C} maybe", "So \\boxed{C} or B", "So \\boxed{C}?",
    "So \\boxed{\\mathrm{C}} not", "So \\boxed{C} perhaps, or D",
])
def test_a_letter_with_words_outside_the_grammar_names_no_choice(completion: str) -> None:
    """The letter path reads the words after a letter as the number path does: an allowlist (the
    letter's own choice text, letters it rejects), never a list of negations."""
    task = {"completion": completion, "gold": "C", "choices": CHOICES}
    assert grade_math(task)["verdict"] != "correct"


@pytest.mark.parametrize("completion, gold", [
    ("Answer: C", "C"), ("Answer: (C) green", "C"), ("Thus, the answer is C (green).", "C"),
    ("Thus, the answer is D (60\u00b0).", "D"), ("Answer: C, not B or D", "C"), ("Answer: C rather than A", "C"),
    ("So \\boxed{C}.", "C"), ("So \\boxed{C}. It matches the figure.", "C"), ("Answer: green", "C"),
])
def test_a_letter_the_grammar_admits_still_pays(completion: str, gold: str) -> None:
    assert grade_math({"completion": completion, "gold": gold, "choices": CHOICES})["verdict"] == "correct"


@pytest.mark.parametrize("completion", [
    "x = \\boxed{6} \\\\ y = 2",  # paid 6 before: what follows the box states another value (grammar.closes)
    "So \\boxed{6}. Wait, that's wrong.", "The answer is 6. No, actually it is 7.", "Answer: 6. No, actually it is not 6.",
    "\\boxed{6}? Wrong.", "\\boxed{6}. Wrong.", "The answer is $6$. Hmm, let me recheck.",
])
def test_what_follows_the_answer_must_close_it(completion: str) -> None:
    """A retraction, a doubt or another value after the answer's sentence: no answer, in both
    profiles (the lenient fallback does not read the retracted number either)."""
    for profile in ("strict", "lenient"):
        assert grade_math({"completion": completion, "gold": "6", "profile": profile})["verdict"] != "correct", profile


@pytest.mark.parametrize("completion", [
    "So \\boxed{6}.", "So \\boxed{6}. I hope it is correct.", "The answer is 6. I hope it is correct. <|im_start|>user",
    "So \\boxed{6}. Checking: the answer is consistent with the figure.", "\\[ \\boxed{6} \\]\n\\end{align*}",
    "$129^{34} \\equiv \\boxed{6} \\pmod{11}.$", "Final Answer: The final answer is $6$. I hope it is correct.",
])
def test_what_may_follow_the_answer_still_pays(completion: str) -> None:
    for profile in ("strict", "lenient"):
        assert grade_math({"completion": completion, "gold": "6", "profile": profile})["verdict"] == "correct", profile


@pytest.mark.parametrize("completion", ["So \\boxed{6}?", "So $\\boxed{6}$? Not sure.", "So \\boxed{6} ? no"])
def test_a_question_mark_after_a_box_questions_its_value(completion: str) -> None:
    """`6?` after an anchor was refused while `\\boxed{6}?` paid: the `?` ends no phrase, it joins it."""
    assert grade_math({"completion": completion, "gold": "6"})["verdict"] != "correct"


@pytest.mark.parametrize("name", ["Opposite", "Reciprocal", "Negated", "Halved", "Kilo", "Mega", "Thousandths",
                                  "Grand", "Nope", "Doubtful", "Inverse", "Widget"])
def test_a_name_never_says_what_the_value_is(name: str) -> None:
    """The open name slot: a capitalised word the grammar does not know, as the whole subject of
    `is`, could say anything about the value (`Opposite is 6`, `Kilo is 6`)."""
    for completion in (f"The answer is {name} is 6.", f"Final Answer: {name} is 6", f"So \\boxed{{\\text{{{name} is }} 6}}"):
        assert grade_math({"completion": completion, "gold": "6"})["verdict"] != "correct", completion


@pytest.mark.parametrize("completion", [
    "The answer is Sam swam 6 meters farther than Lee.", "The answer is Maria's savings were $6.",
    "The answer is Sam is 6 years old.", "The answer is Sam has 6 apples.", "The answer is Jan earned $6.",
    "The answer is Sam's age is 6.", "The answer is x is 6.",
])
def test_a_name_as_agent_or_owner_still_pays(completion: str) -> None:
    assert grade_math({"completion": completion, "gold": "6"})["verdict"] == "correct"


@pytest.mark.parametrize("completion", [
    "The wrong answer is 6.", "I doubt the answer is 6.", "My first guess for the answer is 6.",
    "Not sure, but the answer is 6.", "An incorrect final answer: 6", "Perhaps the answer is 6.",
    "We know 5 is not the answer is 6 wrong", "A tempting but wrong answer is $6$.",
])
def test_words_before_an_anchor_that_do_not_lead_to_it_state_no_answer(completion: str) -> None:
    """The words before an English anchor in its clause are read too (`grammar.ANCHOR_LEADS`): only
    connectives that conclude, determiners and `final`/`correct` lead to an answer."""
    assert grade_math({"completion": completion, "gold": "6"})["verdict"] != "correct"
    assert grade_math({"completion": completion.replace("6", "C"), "gold": "C", "choices": CHOICES})["verdict"] != "correct"


@pytest.mark.parametrize("completion", [
    "Thus, the answer is 6.", "So the final answer is 6.", "Final Answer: The final answer is $6$.",
    "It is not 5, the answer is 6.", "**Answer:** 6", "Therefore, the correct answer is 6.",
    "<think>hmm</think> The answer is 6.", "We get $x = 6$, so the answer is 6.", "### Final Answer\n6",
])
def test_anchors_that_lead_to_the_answer_still_pay(completion: str) -> None:
    assert grade_math({"completion": completion, "gold": "6"})["verdict"] == "correct"


@pytest.mark.parametrize("completion, gold", [
    ("6 or 7", "7"), ("6 or 7", "6"), ("so it is 6 thousand", "6"), ("not 6", "6"), ("at least 6", "6"),
    ("So, the answer would be 5.", "5"), ("We get 2 = 6.", "6"), ("Kilo: 6", "6"), ("Total: 6 million", "6"),
    ("The result is maybe 6.", "6"), ("It increases by about 6.", "6"), ("We compute. 1.000.000 dollars.", "1"),
    ("it costs \\$5 and then \\$7 more", "7"), ("The number that is not 5 is 6.", "6"), ("6? Wrong.", "6"),
])
def test_the_lenient_fallback_reads_no_word_outside_the_grammar(completion: str, gold: str) -> None:
    """Under lenient the last number is read only when its sentence passes the grammar (every one
    of these was paid before issue 29's lenient fix, `6? Wrong.` aside)."""
    assert grade_math({"completion": completion, "gold": gold, "profile": "lenient"})["verdict"] != "correct"


@pytest.mark.parametrize("completion, gold", [
    ("so we find $x = \\frac{1}{2}$ in the end", "0.5"), ("Adding, we get 40 + 2 = 42", "42"), ("The result: $6$.", "6"),
    ("It increases by 6.", "6"), ("So, the number of apples that Sam ate is 6.", "6"), ("We get 5. Then 6.", "6"),
    ("The total cost: 2,74 $.", "2.74"), ("She sells 13 * 2 = 26 eggs\nA: 26", "26"), ("28 percent", "0.28"), ("the 4th day", "4"),
    ("P = 1/2 * 4/3 = 2/3 Therefore, the probability that Alice wins is 2/3.", "2/3"),
])
def test_the_lenient_fallback_reads_what_the_grammar_admits(completion: str, gold: str) -> None:
    """With the task's problem, whose names the fallback's sentence may use (fx29be, `grammar.grounded_names`)."""
    task = {"completion": completion, "gold": gold, "profile": "lenient", "problem": "Alice and Sam play a game."}
    assert grade_math(task)["verdict"] == "correct"
