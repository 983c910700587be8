"""Issue 29, fx29av: a step line above a caseless answer line names only what the answer line names, and a window's cut
is no text's start (docs/math.md "Answer grammar", "Line breaks in a script without case").

`grammar._caseless_relation` admits a step line's relation or premise (`所以 x = 6；`, `由于AB∥CD，`) only when its names
(`grammar._caseless_names`: `x`, `AB`, `∠DEB`, compared whole) are ones the answer's line uses, or none (`2 + 4 = 6 个`):
every budget of letters or names before it spelled words (red team 27 classes 1-3: `∠NOT`, `∠MAY + ∠BE`, `n + o`,
`NO∥TX`). The grader is given no problem text, so a name the answer line does not use is refused. And a window that cuts
the text (`grammar.tail_window`'s `WINDOW_CUT`, `grammar.last_break`'s floor) opens no sentence: the lead before an
anchor or a box read from the floor of its 200-character window, so 300 spaces hid `可能` ("maybe"), `Maybe` or `I
doubt that` (red team 27 class 4, which paid from ~200 spaces, not only past the 8,192-character tail)."""

from __future__ import annotations

import pytest

from tests.helpers import number_case as n
from tests.helpers import paid_test, refused_test

ZH = "答案是 6。"

# A step line's names that the answer line does not use (each paid on main, b997aa2, in both profiles, but `NO`/`N`
# and the two rows with words after the answer's sentence, refused there too).
NAMES_NEAR = [n(c) for c in [
    f"所以 ∠NOT = 6；\n{ZH}",
    "所以 ∠NOT = 6；\n答案是 x = 6。",  # the answer names x, not ∠NOT
    "所以 n + o = 6；\n答案是 n = 6。",  # o unnamed
    "由于 NO∥TX，所以 x = 6；\n答案是 x = 6。",  # the premise's point pairs unnamed
    "所以 ∠NO + ∠T = 6；\n答案是 ∠NOT = 6。",  # names compared whole
    "所以 NO = 6；\n答案是 N = 6。",
    "所以 X = 6；\n答案是 x = 6。",  # case differs
    "所以 x = 6，∠OR = 7；\n答案是 x = 6。",  # a second relation's name
    "因为 ∠IF = 1，所以 x = 6；\n答案是 x = 6。",  # a premise's name
    f"所以 ∠NOT = 6；\n{ZH}∠NOT",  # a name after the answer's sentence qualifies it too: refused by what follows
    f"所以 x = 6；\n{ZH}x",
    "ดังนั้น n + o = 6;\nคำตอบคือ n = 6",
]]
test_a_step_line_naming_what_the_answer_does_not_is_refused = refused_test(NAMES_NEAR)

# A window's cut read as the text's start (paid on main in both profiles).
CUT_NEAR = [n(c) for c in [
    "可能" + " " * 300 + ZH, "可能，" + " " * 300 + ZH, "可能" + "\u3000" * 300 + ZH, "Maybe" + " " * 300 + "the answer is 6.",
    "I doubt that" + " " * 300 + "the answer is 6.", "I doubt that" + "\t" * 300 + "the answer is 6.",
    "Maybe" + " " * 300 + "\n\nthe answer is 6.", "Maybe" + " " * 500 + "\\boxed{6}", "Maybe," + " " * 500 + "$x = \\boxed{6}$",
    "可能\n小明有 6 个苹果" + " " * 8300 + f"\n{ZH}", "可能" + " " * 8300 + f"\n{ZH}",
]]
test_a_hedge_cut_off_by_a_window_is_not_lost = refused_test(CUT_NEAR)

# Right answers: names the answer line uses, or numbers alone.
RIGHT = [n(c) for c in [
    "所以 x = 6；\n答案是 x = 6。", "所以 ∠B = 6；\n答案是 ∠B = 6。", "所以 y = 6；\n答案是 $y = 6$。",
    "所以 x = 6；\n答案是 \\boxed{x = 6}。", "所以 x = 6；\n答案：\\(x = 6\\)",
    f"所以 2 + 4 = 6 个；\n{ZH}", f"小明有 2 个苹果，小红有 4 个苹果；\n{ZH}", "ดังนั้น x = 6;\nคำตอบคือ x = 6",
    "Step 1: add. " * 700 + "The answer is 6.", "我们把两个数相加。" * 1000 + ZH, "x" * 9000 + f"。\n{ZH}",
]]
test_a_step_line_naming_what_the_answer_names_pays = paid_test(RIGHT)

# COST: right answers fx29av refuses (paid on main in both profiles).
COST_NAMES = [n(c) for c in [
    f"所以 x = 6；\n{ZH}", f"由于AB∥CD，所以 ∠B = 65°；\n{ZH}",
    f"所以∠DEF＝∠DEB-∠DEC＝90°-65°＝25°；\n{ZH}", f"ดังนั้น x = 6;\n{ZH}",
]]
test_a_step_line_naming_what_the_problem_names_pays = paid_test(
    COST_NAMES, """A step line's names the problem's text would ground (`x`, `AB`, `∠DEB`) above an answer line naming
    none: the grader is given no problem text, so they are refused (MathVista's pid977 among them).""",
    marks=[pytest.mark.xfail(strict=True, reason="cost: fx29av admits a step line's names only where the answer line uses them")])

# COST since fx29aw (red team 28 class 1): the answer's subject alone is known, never a chain's later member.
COST_SUBJECT = [n(c) for c in [
    "因为 x = 2，所以 y = 3x = 6；\n答案是 y = 3x = 6。", "所以 ∠ABC = 6；\n答案是 ∠ABC = 6。",
]] + [n("所以 ∠DEF = 25°；\n答案是 ∠DEF = 25°。", "25")]
test_a_step_line_naming_what_the_answer_restates_pays = paid_test(
    COST_SUBJECT, """A step line's names the answer line writes but not as its one-letter subject (`x` of `y = 3x`, an angle
    of two or three capitals): the answer's math writes any letters that still read 6 (red team 28 class 1:
    `$n_{o t} = 6$`, `n = o = 6`, `∠NOT = 6`), so only its subject of one letter is known.""",
    marks=[pytest.mark.xfail(strict=True, reason="cost: fx29aw knows the answer's one-letter subject only")])

COST_CUT = [n(c) for c in [
    "The sum is 6." + " " * 300 + "The answer is 6.", "The sum is 6.\n" + " " * 300 + "The answer is 6.",
    "2 + 4 = 6。" + " " * 300 + ZH, "Thus" + " " * 300 + "the answer is 6.", " " * 9000 + "The answer is 6.",
]]
test_a_sentence_after_long_spacing_pays = paid_test(
    COST_CUT, """Over 200 characters of spacing between an answer's sentence start and its anchor or box: the lead window
    (`_LEAD_CHARS`, `_LEAD_CHARS_BOX`) cuts it, and its cut is no start (strict refuses; lenient pays the first four).""",
    marks=[pytest.mark.xfail(strict=True, reason="cost: fx29av reads no window's cut as a start")])
