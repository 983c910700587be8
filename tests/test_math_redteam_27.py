"""Red team of issue 29's answer grammar, twenty-seventh pass (rt29ac): fx29au (merge 9b8ed04), the relation and premise
clauses of caseless step lines parsed as expressions (`_caseless_expression`, `_caseless_operand`, `_CASELESS_NAMED_SIDE`,
`_CASELESS_RELATION_RE`, `_CASELESS_PREMISE_RE`, at most two single letters per clause by `_caseless_letters`), and math
alone no longer opening a line. Graded by the real grader (`tests.helpers.math_verdicts`) in both profiles on main
(9b8ed04), on e60f076 ("pre", before fx29au) and on b7a051a (before fx29as). About 130 candidates; gold 6.

1. CLOSED by fx29av (`_caseless_relation`: a step line's names are the answer line's); was NOT CLOSED (`_caseless_letters` deletes every `[∠△][A-Z]{1,3}` before counting, and `_caseless_operand` takes any one
   to three capitals after `∠`/`△`). A word spelled as angle or triangle names is an uncounted operand, any number of
   them between operators: `所以 ∠NOT = 6；` ("not"), `所以 ∠MAY + ∠BE = 6；` ("maybe"), `所以 ∠APP - ∠ROX = 6；`
   ("approx"), `所以 ∠IN × ∠THO × ∠USA × ∠NDS = 6；` ("in thousands"), `所以 ∠PER + ∠HAP + ∠S = 6；`, `△NOT`, in a second
   relation (`所以 x = 6，∠OR = 7；`: "or 7"), in a premise (`因为 ∠IF = 1，所以 x = 6；`) or in parentheses, above `答案是 6。`
   pay in both profiles, with `；` or ASCII `;`, under Thai `ดังนั้น` and a Thai or Japanese answer line. Paid on pre; the
   `；` rows paid on b7a051a too (any `；` ended a sentence), the `;` rows are new since fx29as.
   Suggested fix: count an angle's or triangle's capitals toward `_caseless_letters`' budget (raised to, say, four
   letters), and at most two names (letters, `∠`/`△` names) per clause: `∠DEF＝∠DEB-∠DEC` keeps paying only if MathVista's
   three-angle row gets its own allowance, e.g. capitals that repeat one shared vertex letter (`∠DEB`, `∠DEC`: `E`).
2. CLOSED by fx29av, as class 1; was NOT CLOSED (`_caseless_letters <= 2`). Two single letters spell a two-letter word: `所以 n + o = 6；` ("no"), `所以 i + f
   = 1，x = 6；` ("if"), `因为 i + f = 1，所以 x = 6；`, `所以 x = 6，o + r = 7；` ("x = 6, or 7"). Paid on pre and b7a051a.
   Suggested fix: at most one single letter on a clause's left side (a name, `x`), or two letters only when they differ
   from the two-letter English function words (`no`, `if`, `or`, `in`, `is`, `to`, `at`, `be`, `so`, `up`, `ok`, `on`,
   `of`), read in order whatever the operators between them.
3. CLOSED by fx29av, as class 1; was NOT CLOSED (`_CASELESS_PREMISE_RE`'s `[A-Z]{2}[∥⊥][A-Z]{2}`). Four capitals read a word across the sign:
   `由于 NO∥TX，所以 x = 6；` ("not x"), `由于 IF∥NO，所以 x = 6；`. Paid on pre and b7a051a. Suggested fix: the four
   capitals distinct (points of two lines; `NO∥TX` passes that, so weak) or the premise only with a geometry figure's
   points named elsewhere on the line; low value, listed for completeness.

4. CLOSED by fx29av (`tail_window`'s `WINDOW_CUT`; `last_break` refuses a start before its 200-character
   floor: the padding paid from ~200 spaces, not only past the tail). OLD, outside fx29au (the tail window, `MathLimits.tail_chars`). Spacing pushes a hedge above a caseless answer line
   out of the last 8,192 characters, and the walk reads the window's start as the text's: `可能` + 8,300 spaces +
   `\n答案是 6。` pays in both profiles (100 spaces: refused), with tabs, ideographic spaces, 8,300 blank lines under
   `以千为单位`, a step line between, a Thai or Japanese answer line. Paid on pre and on b7a051a. Suggested fix: where the
   window cuts the text, its start opens no sentence (the walk's "beyond the bound" safe reading), or the window is
   taken after collapsing runs of spacing.

TIME: nothing over 2 s found. A 2,000-term side failing at its last number (`所以 x = 1 = ... = 1234；`), 400 nested
parentheses groups, 2,000 `+ 1`, 200 step lines of 30 relations, 600 premises and 600 comma clauses each grade in
< 0.1 s for both profiles: the tokens' alternatives exclude each other.

Held (refused on main in both profiles): four capitals after `∠` (`∠NOTX`), lowercase after `∠`, three single letters
(`n + o + t`, also in a second clause), `NO∥T x`, `m-a-y`, `n.o`, `∠N.O.T`, `∠NO T`, `∠NOT∠MAY` (no operator), `x = 6 ∠NOT`,
`NOT∥AB` in a premise, `∠NOT∥x`, `2n + 0t` (a side opens with a name), `x = 6 或 7`, `x = 6 × ∠K` (the last side is a
number), a hedge with its own `；` (`可能；`, `所以 可能；`).

Not filed: a different value on a step line with its mark (`所以 x = 7；\\n答案是 6。`, `所以 x = 6，x = 7；`, `因为 x = 7，
所以 x = 6；`) pays, on b7a051a too: an intermediate value before the answer line is how solutions read, and the answer
line states 6 on its own.
"""

from __future__ import annotations

import pytest

from tests.helpers import number_case as n
from tests.helpers import MathCase, paid_test, refused_test

ZH = "答案是 6。"
_XFAIL = "rt29ac class {}: fx29au's caseless relation admits a spelled word"


def _rows(lines: list[str]) -> list[MathCase]:
    """Each step line with `；` and `;`, above the answer line alone and after a connective."""
    return [n(f"{line}{mark}\n{label}") for line in lines for mark in ("；", ";") for label in (ZH, f"所以，{ZH}")]


# 1. Words spelled as angle or triangle names, uncounted by `_caseless_letters`.
_ANGLE_WORDS = [
    "所以 ∠NOT = 6", "所以 △NOT = 6", "所以 ∠MAY + ∠BE = 6", "所以 ∠APP - ∠ROX = 6", "所以 ∠ABO + ∠UT = 6",
    "所以 ∠IN × ∠THO × ∠USA × ∠NDS = 6", "所以 ∠PER + ∠HAP + ∠S = 6", "所以 x = ∠NOT = 6", "所以 ∠NOT + x = 6",
    "所以 ∠NOT = 6°", "所以 x = (∠MAY + ∠BE) = 6", "所以 ∠NOT = 6 + ∠BE = 6", "所以 x = 6，∠NOT = 6",
    "所以 x = 6，∠OR = 7", "所以 x = 6，∠O + ∠R = 7", "因为 ∠IF = 1，所以 x = 6", "由于 AB∥CD，所以 ∠NOT = 6",
    "所以 ∠NOT + ∠MAY + ∠BE + ∠APP + ∠ROX = 6",
]
ANGLE_NEAR = _rows(_ANGLE_WORDS) + [n(c) for c in [
    "ดังนั้น ∠NOT = 6;\nคำตอบคือ 6", "ดังนั้น ∠MAY + ∠BE = 6;\nคำตอบคือ 6", f"ดังนั้น ∠NOT = 6;\n{ZH}",
    f"ดังนั้น ∠APP - ∠ROX = 6；\n{ZH}", "所以 ∠NOT = 6；\n答えは6です。",
]]
test_a_word_spelled_as_angle_names_rides_on_a_step_line = refused_test(
    ANGLE_NEAR, """Paid in both profiles on main and on pre; the `；` rows paid on b7a051a too, the `;` rows are new since
    fx29as. `_caseless_letters` removes `∠`/`△` names before counting letters and `_caseless_operand` takes any one to
    three capitals after the sign, so `∠NOT`, `∠MAY + ∠BE`, `∠IN × ∠THO × ∠USA × ∠NDS` is math and the label below opens a
    sentence. The safe verdict: refused.""")

# 2. Two single letters spell a two-letter word.
_TWO_LETTERS = ["所以 n + o = 6", "所以 i + f = 1，x = 6", "因为 i + f = 1，所以 x = 6", "所以 x = 6，o + r = 7"]
TWO_LETTERS_NEAR = _rows(_TWO_LETTERS) + [n("ดังนั้น n + o = 6;\nคำตอบคือ 6")]
test_a_two_letter_word_rides_on_a_step_line = refused_test(
    TWO_LETTERS_NEAR, """Paid in both profiles on main, on pre and on b7a051a: two single letters are within
    `_caseless_letters`'s budget, so `n + o` ("no"), `i + f` ("if") and `o + r = 7` ("or 7") read as math. The safe
    verdict: refused.""")

# 3. A premise's point pairs spell a word across the line sign.
PREMISE_NEAR = _rows(["由于 NO∥TX，所以 x = 6", "由于 IF∥NO，所以 x = 6", "又因为 NO∥TX，所以 x = 6"])
test_a_word_spelled_across_a_premise_line_sign_is_read = refused_test(
    PREMISE_NEAR, """Paid in both profiles on main, on pre and on b7a051a: `_CASELESS_PREMISE_RE` takes any two capitals
    on each side of `∥`/`⊥`, so `NO∥TX` reads "not x". The safe verdict: refused.""")

# Held: spellings fx29au refuses (each refused on main in both profiles).
HELD = [n(f"{line}{mark}\n{ZH}") for mark in ("；", ";") for line in [
    "所以 ∠NOTX = 6", "所以 ∠not = 6", "所以 n + o + t = 6", "所以 NO∥T x = 6", "所以 m-a-y = 6", "所以 n.o = 6",
    "所以 ∠N.O.T = 6", "所以 ∠NO T = 6", "所以 ∠NOT∠MAY = 6", "所以 x = 6 ∠NOT", "由于 NOT∥AB，所以 x = 6",
    "所以 ∠NOT∥x = 6", "所以 2n + 0t = 6", "所以 x = 6 或 7", "所以 x = 6 × ∠K", "所以 x = 6，n + o + t = 1", "可能", "所以 可能",
]] + [n("ดังนั้น n + o + t = 6;\nคำตอบคือ 6")]
test_other_spellings_on_a_step_line_are_refused = refused_test(HELD)

# Held: long relations that fail at their last side grade quickly (refused; measured < 0.1 s, asserted by verdict only).
LONG_NEAR = [n(c) for c in [
    "所以 x" + " = 1" * 2000 + f" = 1234；\n{ZH}", "所以 x" + " = (1 + (1 + 1))" * 400 + f" = 1234；\n{ZH}",
    "所以 x" + " + 1" * 2000 + f" = 1234；\n{ZH}", ("所以 x" + " = 1" * 30 + " = 1234；\n") * 200 + ZH,
    "所以 x = 1，" * 600 + f"x = 1234；\n{ZH}",
]]
test_long_relations_failing_at_the_end_are_refused = refused_test(LONG_NEAR)

# The right answers these shapes are for still pay.
RIGHT = [n(c) for c in [
    f"所以 x = 6；\n{ZH}", f"所以∠DEF＝∠DEB-∠DEC＝90°-65°＝25°；\n{ZH}", f"由于AB∥CD，所以 ∠B = 65°；\n{ZH}",
    f"因为 x = 2，所以 y = 3x = 6；\n{ZH}", f"ดังนั้น x = 6;\n{ZH}",
]]
test_the_step_lines_fx29au_reads_still_pay = paid_test(
    RIGHT, """Refused since fx29av: a step line's names (`x`, `∠DEB`, `AB`) must be ones the answer line uses, and
    `答案是 6。` names none (tests/test_math_step_names.py).""",
    marks=[pytest.mark.xfail(strict=True, reason="cost: fx29av admits a step line's names only where the answer line uses them")])

# COST: right answers below a step line that paid on pre (e60f076) and fx29au's expression shape refuses.
COST_PAID = [n(f"{line}\n{ZH}") for line in [
    "所以 x = 2(3) = 6；", "所以 x = -6 + 12 = 6；", "所以 x + y + z = 6；", "所以 S△ABC = 6；", "所以 x = 4 - -2 = 6；",
]]
test_a_step_line_with_implicit_products_signs_or_three_names_pays = paid_test(
    COST_PAID, """Paid in both profiles on pre, refused in both on main: `_caseless_operand` has no implicit product
    (`2(3)`) and no sign before an operand (`-6`), `_caseless_letters` allows two letters (`x + y + z`), and a side opens
    with a name only (`S△ABC`). The safe verdict for a right answer: paid.""",
    marks=[pytest.mark.xfail(strict=True, reason="rt29ac cost: fx29au's expression shape refuses products, signs, three names")])

# 4. Spacing pushes a hedge above a caseless answer line out of the last `tail_chars` characters.
_PAD = 8300
PADDED_NEAR = [n(c) for c in [
    "可能" + " " * _PAD + f"\n{ZH}", "以千为单位\n" + "\n" * _PAD + ZH, "不是" + "\t" * _PAD + f"\n{ZH}",
    "可能" + "\u3000" * _PAD + f"\n{ZH}", "可能" + " " * _PAD + "\nคำตอบคือ 6", "可能" + " " * _PAD + "\n答えは6です。",
    "可能" + " " * _PAD + f"\n小明有 6 个苹果\n{ZH}",
]]
test_a_hedge_padded_out_of_the_tail_is_read = refused_test(
    PADDED_NEAR, """Paid in both profiles on main, on pre and on b7a051a: the caseless walk reads the last `tail_chars`
    (8192) characters and takes their start as the text's, so 8,300 spaces, tabs, ideographic spaces or blank lines
    between `可能` ("maybe") or `以千为单位` ("in thousands") and the answer line drop the hedge and the line opens a
    sentence (refused with 100 spaces). The safe verdict: refused.""")
