"""Red team of issue 29's answer grammar, thirtieth pass (rt29af): fx29ay (a task's trusted `problem` text grounds the
names of caseless step lines: `grammar._problem_names`, `_known_name`), fx29az (Thai spaces after sums only,
`grammar.thai_space_ends`; `d.ddd` under decimal-comma anchors, `extract.grouping_ambiguous`; `math_letter`,
`latin_word`) and fx29ax (lenient reads no value after an answer anchor, `extract._anchored_before`), through the real
grader in both profiles on main (55ec3da). About 13,000 generated candidates around gold 6 (12 for the points); each
row below paid a wrong answer (or a right one under a qualifier) in at least one profile.

1. NOT CLOSED (both profiles; fx29ay). The problem's names are read from its prose, not its math: (a) a capital word of
   up to four letters beside `∥`/`⊥` is a figure's points (`Which line is NOT ∥ to CD?` makes N, O, T points, so
   `所以 ∠NOT = 6；\\n答案是 6。` pays); (b) every lone letter is a whole name, so `i.e.`, `e.g.` and a choice list
   `(A) ... (E)` ground `i + f`, `e + g`, `C + A` (`ca.`), and a list of points `N, O, T` grounds `N + O + T`.
   MathVista's 289 problems (tests/data/peer_outputs/mathvista_gpt4.jsonl): `C + A` (`ca.`) grounds in 88, `B + E` in 31,
   `N + O`/`O + N` in 1 (`∠MON`); 14 of them from prose alone (`A, B, C are three points on ⊙O`).
   Fix (the class): a problem's name is one its math writes (a letter in `$...$` or beside `=`, an operator, `∠`/`△`),
   and a point is a capital run beside `∥`/`⊥` only when the other side is a point pair too; never prose.
2. NOT CLOSED (both profiles; fx29az). A Thai space ends a sentence after a sum, and the sum's own sentence may open
   with any Thai lead: `หน่วยเป็นพัน 2 + 4 = 6 คำตอบคือ 6` ("in thousands") pays where `In thousands 2 + 4 = 6 คำตอบคือ 6`
   is refused; `อาจจะ` ("maybe"), `ถ้า` ("if"), `ไม่ใช่` ("not"), `หน่วยล้าน` ("in millions") likewise, and a trivial sum
   (`6 = 6`) suffices. 11,934 of 11,934 generated lead x sum x classifier rows paid. Fix: the space ends a sentence only
   where the sum itself opens one (a line's or text's start, a sentence's end, or `ดังนั้น` that opens one), i.e. the
   sum's lead is read by the lead grammar as an anchor's is.
3. NOT CLOSED (both profiles; fx29az). `d.ddd` is refused only under a decimal-comma anchor's own line: a box on the
   line below (`Die Antwort lautet:\\n\\boxed{12.000}`), a box or `####` after German prose, and lenient's label line
   (`Gesamt: 12.000 Euro`) pay gold 12. Fix: the language is the completion's (its anchors or its prose), not the
   anchor's line: a decimal-comma text reads `d.ddd` as ambiguous wherever the answer stands.
4. NOT CLOSED (lenient; both with `So x = 6.`; fx29ax). `_anchored_before` knows `ANCHORS` only: answer phrases it does
   not list (`Also lautet die Antwort 7.`, `Die Lösung ist 7.`, `Ответ равен 7.`, `Итак, ответ 7.`, `La risposta è 7.`,
   `The answer would be 7.`, `结果是 7。`, `答：7。`) and inverted ones (`7 is the answer.`, `7 ist die Antwort.`, `7是答案。`,
   `7が答えです。`) let the last value after them pay: 235 of 430 and 87 of 175 generated rows. Fix:
   the lenient fallback reads the last value only where no earlier sentence of the tail that the grammar cannot read
   states another value (an unread sentence with a value may be the answer's statement: no answer).
5. OLD (both profiles; paid on 2b42369 too, found in passing). A line of math alone that ends with a value ends a
   statement (`statement_lines`' `_math_alone`), so the hedge, scale or condition on the line above it is never the
   answer's lead: `In thousands\n2 + 4 = 6\n答案是 6。` pays where `In thousands\n2 + 4 = 6 个\n答案是 6。` (the caseless walk)
   is refused; `以千为单位\n6 = 6\n答案是 6。`, `可能\nx = 6\n\\boxed{6}`, `อาจจะ\n$2 + 4 = 6$\nคำตอบคือ 6`: 528 of 528
   generated hedge x math x answer rows paid. Same shape as class 2 on another path. Fix: a statement's break ends a
   sentence only where the statement itself opens one (the rule fx29ar gave the caseless walk), for math alone too.

Held (passing tests below): unlisted decimal-comma languages have no anchor (no answer); multipliers as a sum's
classifier (`6 ล้าน`, `6 หมื่น`); an English lead before a Thai sum; look-alike letters in labels (Cyrillic, full-width,
math italic, small capitals); capitals in a problem's prose away from `∥`/`⊥` (`YES or NO`); LaTeX `\\angle` problems
(no points: a cost, not a pay). The reuse key holds the problem (tests/test_reuse_keys.py `MATH_PAIRS`), not repeated.
By design (fx29ay pins it, not counted): spelled names whose every capital is a figure point (`∠NOT`, `N + O + T`, `∠ON`
under `PT切⊙O于点T，MN∥OT`).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import MATH_PROFILES, paid_test, refused_test
from verifier.math import grade_math


def _rows(rows: list[Any], reason: str) -> list[Any]:
    """Rows (a completion for gold 6, or a (completion, gold) pair) as cases marked a strict xfail with `reason`."""
    pairs = [r if isinstance(r, tuple) else (r, "6") for r in rows]
    return [pytest.param(c, g, None, marks=pytest.mark.xfail(strict=True, reason=reason)) for c, g in pairs]


def _cases(rows: list[Any]) -> list[Any]:
    """Rows as cases with no mark (held near misses, right answers that pay)."""
    return [(r[0], r[1], None) if isinstance(r, tuple) else (r, "6", None) for r in rows]


def problem_verdicts(completion: str, problem: str, gold: str = "6") -> list[str]:
    """The verdict under each profile for a task that carries `problem` (fx29ay's entry, `grade_math`)."""
    return [grade_math({"completion": completion, "gold": gold, "profile": profile, "problem": problem})["verdict"]
            for profile in MATH_PROFILES]


# 1. Names read from a problem's prose ground spelled qualifiers (fx29ay).
NOT_PARALLEL = "Which line is NOT ∥ to CD? (A) AB (B) EF (C) GH (D) MN"
IE = "Let f(x) = 2x + 3, i.e. a line. If f(a) = 15, find a."
EG = "Find x. Note: e.g. x = 2 would be wrong; i.e., x ≠ 2."
CHOICES = "What is 2 + 4? (A) 5 (B) 6 (C) 7 (D) 8 (E) None of these"
LISTED = "Points N, O, T, R, F and I lie on a line. Find x."
_PROBLEM_PAID = [
    ("所以 ∠NOT = 6；\n答案是 6。", NOT_PARALLEL), ("所以 N + O + T = 6；\n答案是 6。", NOT_PARALLEL),
    ("所以∠NOT＝6°；\n答案是 6。", NOT_PARALLEL), ("所以 i + f = 6；\n答案是 6。", IE), ("所以 x = i + f = 6；\n答案是 6。", IE),
    ("所以 e + g = 6；\n答案是 6。", EG), ("所以 C + A = 6；\n答案是 6。", CHOICES), ("所以C×A＝6；\n答案是 6。", CHOICES),
    ("所以 N + O + T = 6；\n答案是 6。", LISTED), ("所以 O + R = 6；\n答案是 6。", LISTED), ("所以 I + F = 6；\n答案是 6。", LISTED),
    ("所以 x = N + O + R = 6；\n答案是 6。", LISTED),
]


@pytest.mark.parametrize(("completion", "problem"), _PROBLEM_PAID)
def test_a_problems_prose_grounds_no_spelled_step_line(completion: str, problem: str) -> None:
    """Was paid in both profiles, closed by fx29bb (a problem's one-letter names from its math only, its points from
    `∠`/`△` names and segment pairs joined by `∥`/`⊥`: grammar._problem_letters, _FIGURE_POINTS_RE): the step line's letters spell a qualifier (`NOT`, `IF`, `OR`,
    `ca`), each a name only because the problem's prose writes it alone or beside `∥`. The safe verdict: refused."""
    assert problem_verdicts(completion, problem) == ["no_answer"] * len(MATH_PROFILES)


_PROBLEM_HELD = [
    ("所以 ∠NOT = 6；\n答案是 6。", "Lines AB and CD: is AB ⊥ CD? Answer YES OR NO."),
    ("所以 ∠NOT = 6；\n答案是 6。", "ANSWER ONLY IF SURE. NOT ALL OF AB ∥ CD OR EF ⊥ GH HOLD. Find x."),
    ("所以 O + R = 6；\n答案是 6。", "ANSWER ONLY IF SURE. NOT ALL OF AB ∥ CD OR EF ⊥ GH HOLD. Find x."),
    ("所以 Y + E + S = 6；\n答案是 6。", "Is AB ⊥ CD? Answer YES or NO."),
    ("所以 ∠BAD = 6；\n答案是 6。", "In $\\triangle ABC$, $\\angle A = 50^\\circ$, $AD \\perp BC$. Find $\\angle BAD$."),
    ("所以 N + O + T = 6；\n答案是 6。", "I have 3 apples and a friend gives me 3 more. Is it NOT 7? Answer YES or NO."),
    ("所以 i + f = 6；\n答案是 6。", "设 x 为实数，且 x + 2 = 8，即 x 的值是多少？"),
]


@pytest.mark.parametrize(("completion", "problem"), _PROBLEM_HELD)
def test_capitals_away_from_the_figure_ground_nothing(completion: str, problem: str) -> None:
    """Capitals in a problem's prose away from `∥`/`⊥`, and LaTeX `\\angle` (no points read), ground no step line."""
    assert "correct" not in problem_verdicts(completion, problem)


# 2. A Thai lead before a sum: the Thai space after the sum drops it (fx29az).
_THAI = [
    'หน่วยเป็นพัน 2 + 4 = 6 คำตอบคือ 6', 'หน่วยล้าน 6 = 6 คำตอบคือ 6', 'อาจจะ 2 + 4 = 6 คำตอบคือ 6', 'ไม่ใช่ 2 + 4 = 6 คำตอบคือ 6',
    'ถ้า 2 + 4 = 7 คำตอบคือ 6', 'ประมาณ 3 × 2 = 6 ชิ้น คำตอบคือ 6', 'คิดเป็นพัน 6 × 1000 = 6000 คำตอบคือ 6', 'หรือ 1 + 5 = 6 คำตอบคือ 6',
    'ไม่แน่ใจ 12 / 2 = 6 คน คำตอบคือ 6', 'อาจจะ ดังนั้น 2 + 4 = 6 คำตอบคือ 6', 'เกือบ 6 = 6 คำตอบ: 6', 'ถ้าหาก x เป็นคู่ 6 = 6 คำตอบคือ 6',
    'อาจจะ\n2 + 4 = 6 คำตอบคือ 6', 'ผิด (2 + 4) = 6 บาท ดังนั้น คำตอบคือ 6',
]
THAI_NEAR = _cases(_THAI)  # closed by fx29bc (grammar.thai_space_ends: the sum itself opens a sentence, _thai_sum_opens)
test_a_thai_lead_before_a_sum_is_read = refused_test(
    THAI_NEAR, """Was paid in both profiles (closed by fx29bc: the space ends a sentence only where the sum, or its
    `ดังนั้น`, opens one, `grammar._thai_sum_opens`): `thai_space_ends` ends the sentence after any sum that follows a Thai space, so
    the words before the sum (`หน่วยเป็นพัน`, "in thousands"; `อาจจะ`, "maybe"; `ถ้า`, "if") are never the anchor's lead.
    `In thousands 2 + 4 = 6 คำตอบคือ 6` is refused. The safe verdict: refused.""")

THAI_HELD = _cases([
    '2 + 4 = 6 ล้าน คำตอบคือ 6', '2 + 4 = 6 หมื่น คำตอบคือ 6', 'Maybe 6 = 6 คำตอบคือ 6', 'In millions 6 = 6 คำตอบคือ 6',
    '2 + 4 = 6 ครั้ง อาจจะ คำตอบคือ 6',
])
test_multipliers_and_other_leads_at_a_thai_sum_are_refused = refused_test(THAI_HELD)

# 3. A thousands point under a German text, off the anchor's line (fx29az).
_POINT = [
    ('Die Antwort lautet:\n\\boxed{12.000}', '12'), ('Die Antwort lautet:\n$$\\boxed{12.000}$$', '12'),
    ('Also kostet es 12.000 Euro.\n\\boxed{12.000}', '12'), ('Insgesamt sind es 12.000 Euro. \\boxed{12.000}', '12'),
    ('Sie verdient 12.000 Euro im Jahr.\n\n**Antwort:**\n\\boxed{12.000}', '12'), ('Sie verdient im Jahr 12.000 Euro.\n#### 12.000', '12'),
    ('Gesamt: 12.000 Euro', '12'),
]
POINT_NEAR = _cases(_POINT)  # closed by fx29bc (extract.grouping_ambiguous reads the whole completion)
test_a_thousands_point_in_a_decimal_comma_text_is_refused = refused_test(
    POINT_NEAR, """Was paid (the label row lenient only; closed by fx29bc: a point before three digits is a decimal point
    only in a text known to write one, `extract._decimal_point_text`, on every path): `grouping_ambiguous` reads a box only on the anchor's own line
    and no number outside an anchor, so German `12.000` ("twelve thousand") pays gold 12. The safe verdict: refused.""")

POINT_HELD = _cases([
    ('A resposta é 6.000.', '6'), ('La risposta è 6.000.', '6'), ('Het antwoord is 6.000.', '6'), ('Odpowiedź: 6.000', '6'),
    ('Cevap: 6.000', '6'), ('Jawabannya adalah 6.000.', '6'), ('Ergebnis: 12.000', '12'), ('Die Antwort lautet $6{.}000$.', '6'),
    ('Die Antwort lautet 6·000.', '6'), ('Die Antwort lautet ６.０００.', '6'), ('Die Antwort ist \\(6.000\\).', '6'),
    ('Die Antwort lautet \\boxed{\\text{6.000}}.', '6'), ('Ответ: $6.000$', '6'), ('Réponse : 6.000', '6'),
])
test_other_languages_and_forms_of_the_point_are_refused = refused_test(POINT_HELD)

# 4. Answer phrases `ANCHORS` does not list: lenient reads the value after them (fx29ax).
_PHRASES = [
    "Also lautet die Antwort 7.", "Vielleicht lautet die Antwort 7.", "Die Lösung ist 7.", "Ответ равен 7.", "Итак, ответ 7.",
    "La risposta è 7.", "A resposta é 7.", "La solución es 7.", "The answer would be 7.", "结果是 7。", "答：7。",
]
_INVERTED = [  # the answer phrase after its value: `ANCHORS` lists `answer is`, never `is the answer`
    "7 is the answer.", "Maybe 7 is the answer.", "7 ist die Antwort.", "7 est la réponse.", "7 es la respuesta.", "7是答案。",
    "7 就是答案。", "7が答えです。", "7 — это ответ.", "ANSWER 7.", "答案\n7。",
]
_AFTER = ([p + " x = 6." for p in _PHRASES + _INVERTED] + [p + "\n6" for p in _PHRASES[:4] + _INVERTED[:4]]
          + [p + " So x = 6." for p in _PHRASES[:4] + ["7 is the answer.", "7 is the final answer.", "7 — это ответ."]])
AFTER_NEAR = _cases(_AFTER)  # its last open rows, `结果是 7。 x = 6.` and `ANSWER 7. x = 6.`, closed by fx29c: an answer
# word states an answer whatever the grammar reads (grammar.answer_phrase)
test_a_value_after_an_unlisted_answer_phrase_is_not_read = refused_test(
    AFTER_NEAR, """Paid lenient (`So x = 6.` in both profiles): `_anchored_before` knows `ANCHORS` only, so after an
    inverted or unlisted answer phrase stating 7 the last value 6 is read. Closed by fx29bc but for two rows (closed by fx29c): a short
    sentence stating one other value that opens with it or that the grammar does not read may be the answer's statement
    (`extract._unread_statement_before`), for the lenient fallback and a concluding sentence alike. The safe verdict:
    refused.""")

AFTER_HELD = _cases([
    "Donc la réponse est 7. x = 6.", "Por lo tanto, la respuesta es 7. x = 6.", "I think the answer is 7. x = 6.",
    "Peut-être que la réponse est 7. x = 6.", "The answer is probably 7. x = 6.", "答案是 7。x = 6。",
])
test_a_value_after_a_listed_answer_phrase_is_not_read = refused_test(AFTER_HELD)

# 5. A hedge line above a line of math alone (OLD).
_MATH_ALONE = [
    'In thousands\n2 + 4 = 6\n答案是 6。', '以千为单位\n6 = 6\n答案是 6。', '可能\nx = 6\n答案是 6。', '不是\n2 + 4 = 7\n答案是 6。',
    '如果\n6 = 6\n答案是 6。', 'Maybe\n$2 + 4 = 6$\n答案是 6。', 'I doubt that\n\\[x = 6\\]\n答案是 6。', '可能\nx = 6\n\\boxed{6}',
    'อาจจะ\n$2 + 4 = 6$\nคำตอบคือ 6', 'たぶん\n6 = 6\n答えは6です。', 'Возможно\n6 × 1000 = 6000\n答案：\\boxed{6}',
]
MATH_ALONE_NEAR = _cases(_MATH_ALONE)  # closed by fx29bc (grammar.line_opens: math alone ends a sentence it opens)
test_a_hedge_above_a_line_of_math_alone_is_read = refused_test(
    MATH_ALONE_NEAR, """Was paid in both profiles (on 2b42369 too; closed by fx29bc: a line of math alone, or a display
    before a caseless anchor, ends a sentence only where it opens one, `grammar.line_opens`, `_math_opens`): `statement_lines` ends a statement after a line of math alone
    whatever leads into it, so the line above (`In thousands`, `以千为单位`, `可能`) is no lead of the answer below. The
    caseless walk refuses the same with a classifier (`In thousands\n2 + 4 = 6 个`). The safe verdict: refused.""")
MATH_ALONE_HELD = _cases(['In thousands\n2 + 4 = 6 个\n答案是 6。', '可能\n2 + 4 = 6 个\n答案是 6。', 'In thousands 2 + 4 = 6\n答案是 6。'])
test_a_hedge_above_a_step_line_is_read = refused_test(MATH_ALONE_HELD)

# Held: look-alike letters are no label's math name (fx29az `math_letter`).
LETTER_HELD = _cases(['ｘ：\\boxed{6}', '𝑥: \\boxed{6}', 'а: \\boxed{6}', 'ο: \\boxed{6}', 'ʟ: \\boxed{6}', 'ᴍaybe 6', 'Ꮇaybe has 6 apples.'])
test_look_alike_letters_name_no_label = refused_test(LETTER_HELD)

# The right answers each fix must keep paying.
RIGHT = _cases([
    'ดังนั้น 2 + 4 = 6 ชิ้น คำตอบคือ 6', '2 + 4 = 6 คำตอบคือ 6', ('Die Antwort lautet 12,5.', '12.5'), ('The answer is 6.000.', '6'),
    'Die Antwort lautet 6.', 'Ответ: 6.',
])
test_the_right_answers_near_these_classes_pay = paid_test(RIGHT)


def test_a_step_line_with_the_problems_own_names_still_pays() -> None:
    """fx29ay's rewrite: the problem's math names ground its step lines (the fix for class 1 must keep this)."""
    assert problem_verdicts("所以 x = 6；\n答案是 6。", "已知 x + 2 = 8，求 x 的值。") == ["correct"] * len(MATH_PROFILES)
