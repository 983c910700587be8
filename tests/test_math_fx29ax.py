"""fx29ax (issue 29, red team 28): the lenient fallback reads no value after an answer anchor, and a caseless walk reads
no line longer than a step line.

1. WRONG ANSWER PAID. When the tail's answer anchor was refused (a hedge above or before it: `可能\\n答案是 7。`, `Maybe
   the answer is 7.`, `The wrong answer is 7.`), the lenient profile fell back to the last value and read the sentence
   after the anchor's as a statement of its own, so `可能\\n答案是 7。x = 6。` paid gold 6 (strict: no answer). The anchor
   is the answer's statement, as strict reads it (`extract.last_anchor_span`): paid when admitted, else no answer; the
   lenient fallback (`extract._last_expression`) adds a reading only where no anchor stands before the value
   (`extract._anchored_before`), and so does its multiple-choice fallback (`extract._last_marked_letter`: `Maybe the
   answer is (A).\n(B)` paid B). A box or a concluding sentence after it is read alike in both profiles, as before.
2. COST. A 100,000-character completion of one long sum line over 66 short step lines and a caseless answer graded in
   ~6 s: each line break of the lead window walked up to the long line and scanned it. A line longer than
   `grammar._CASELESS_LINE_CHARS` is no step line, decided before it is read (the safe reading: it runs into the line
   below, so the caseless answer under it opens no sentence). No timed assertion: the verdicts are pinned.
"""

from __future__ import annotations

import pytest

from tests.helpers import choice_case, math_verdicts, paid_test, refused_test
from tests.helpers import number_case as n
from verifier.math import grade_math
from verifier.math.grammar import _CASELESS_LINE_CHARS

# 1. A value after a refused anchor: each paid lenient on main (2b42369), refused by strict.
AFTER_REFUSED_NEAR = [n(c) for c in [
    "可能\n答案是 7。x = 6。", "可能\n答案是 7。\nx = 6。", "可能\n答案是 7。\n\nx = 6", "可能\n答案是 7。6",
    "可能\n答案是 7。$x = 6$。", "可能\n答案是 7 cm。x = 6 cm。", "不是\n答案是 7。x = 6。", "abc\n答案是 7。x = 6。",
    "可能\n答えは 7 です。x = 6。", "Maybe the answer is 7. x = 6.", "Maybe\nthe answer is 7. x = 6.",
    "I doubt the answer is 7. x = 6.", "I doubt the answer is 7.\n\n$x = 6$", "The wrong answer is 7. x = 6.",
    "Not\nthe answer is 7. 2 + 4 = 6", "The answer is \\boxed{7. x = 6",
    # the value agrees, but the anchor's sentence states none (a hedge, a scale, a word spelled above it)
    "abc\n答案是 6。∠NOT = 6。", "以千为单位\n答案是 6。x = 6。", "可能\n答案是 6。x = 6。", "Maybe the answer is 6. x = 6.",
    "可能\n答案是 $n_{o t} = 6$。6",
]]
test_a_value_after_a_refused_anchor_is_not_read = refused_test(
    AFTER_REFUSED_NEAR, """Lenient paid each on main: the fallback read the sentence after a refused anchor's. The anchor
    decides (`extract._anchored_before`): refused in both profiles.""")

# 1. An admitted anchor and a trailing statement that disagree: refused on main too (what follows does not close the
# anchor's sentence, `grammar.closes`); pinned, since the fallback now never reads after an anchor either.
DISAGREE_NEAR = [n(c) for c in [
    "答案是 7。x = 6。", "The answer is 7. So x = 6.", "答案是 7。所以 x = 6。", "Answer: 7.\n\nx = 6",
    "The answer is 7.\n$x = 6$", "Die Antwort lautet 7. x = 6.", "Ответ: 7. x = 6.", "答えは 7 です。x = 6。",
]] + [n(c, "7") for c in ["答案是 7。x = 6。", "The answer is 7. So x = 6."]]
test_a_statement_after_the_answer_never_replaces_it = refused_test(
    DISAGREE_NEAR, """An explicit answer and a later statement of another value: neither is paid (no answer), in
    either profile, whichever the gold is.""")

# 1, multiple choice: lenient's last marked letter after a refused anchor (choice B is `5`); paid lenient on main.
CHOICE_NEAR = [choice_case(c) for c in [
    "Maybe the answer is (A).\n(B)", "可能\n答案是 A。\n(B)", "I doubt the answer is A.\n**B**", "The wrong answer is (A).\nB",
    "可能\n答案是 A。**B**", "Maybe the answer is (B).", "可能\n答案是 (B)。",
]]
test_a_letter_after_a_refused_anchor_is_not_read = refused_test(
    CHOICE_NEAR, """Lenient read the last marked letter after (or in) a refused anchor's sentence: the anchor decides.""")
CHOICE_PAID = [choice_case(c) for c in [
    "The answer is (B).", "答案是 B。", "Maybe the answer is (A).\n\nSo the answer is (B).", "\\boxed{B}",
]]
test_a_stated_letter_is_still_paid = paid_test(CHOICE_PAID, """Right letters stated by an anchor or a box: paid.""")


def test_a_marked_letter_with_no_anchor_is_still_read_lenient() -> None:
    """Lenient's marked-letter fallback reads where no anchor stands (strict: no answer)."""
    assert math_verdicts("(B)", "B", ["3", "5", "7", "9"]) == ["no_answer", "correct"]
    assert math_verdicts("We check each option.\n**B**", "B", ["3", "5", "7", "9"]) == ["no_answer", "correct"]


# Rewrites: the explicit answer, with units, in other languages, after a step line, or a box after a refused anchor.
STATED_PAID = [n(c) for c in [
    "答案是 6。", "The answer is 6.", "The answer is 6. I hope it is correct.", "答案是 6 cm。", "The answer is 6 cm.",
    "The answer is $6$ cm.", "Answer: 6 apples.", "Die Antwort lautet 6.", "Ответ: 6.", "所以 x = 6；\n答案是 x = 6。",
    "小明有 6 个苹果\n答案是 6。", "2 + 4 = 6 个\n答案是 \\boxed{6}。", "I doubt the answer is 7. \\boxed{6}",
    "So the total is 6 apples.", "So, the perimeter is 2(1 + 2) = 6.",
]]
test_an_explicit_answer_is_still_paid = paid_test(
    STATED_PAID, """Right answers stated by an anchor, a box or a concluding sentence: paid in both profiles.""")

LENIENT_PAID = ["x = 2 + 4 = 6", "2 + 4 = 6.", "We get x = 6", "So we get 2 + 4 = 6.", "The total is 6."]


@pytest.mark.parametrize("completion", LENIENT_PAID)
def test_the_lenient_fallback_still_reads_where_no_anchor_stands(completion: str) -> None:
    """Lenient's last value is still read where no anchor stands before it (strict: no answer)."""
    assert math_verdicts(completion, "6") == ["no_answer", "correct"]


# 2. Cost: a step line is `_CASELESS_LINE_CHARS` characters at most.
def _sum_line(chars: int) -> str:
    """A caseless sum step line (`grammar._CASELESS_SUM_RE`) exactly `chars` characters long: `2 + 2 + ... 2 = 6 个`."""
    body = "2 = 6 个"
    line = "2 + " * ((chars - len(body)) // 4) + body
    return " " * (chars - len(line)) + line


@pytest.mark.parametrize("below", ["", "合计\n", "合计\n" * 66])
@pytest.mark.parametrize("above", ["", "解：\n"])
def test_a_step_line_is_read_up_to_its_bound(above: str, below: str) -> None:
    """A sum line of `_CASELESS_LINE_CHARS` characters is a step line: the caseless answer under it (and under any short
    step lines) opens a sentence and is paid; one character more and it runs into the answer's line: no answer."""
    for chars, verdicts in ((_CASELESS_LINE_CHARS, ["correct"] * 2), (_CASELESS_LINE_CHARS + 1, ["no_answer"] * 2)):
        completion = above + _sum_line(chars) + "\n" + below + "答案是 \\boxed{6}。"
        assert math_verdicts(completion, "6") == verdicts, (chars, above, below)


@pytest.mark.parametrize("long_line", ["2 + " * 24000 + "2 = 6 个", "x" * 96000 + " 个"])
def test_a_long_completions_verdict_is_the_bounds(long_line: str) -> None:
    """Red team 28's TIME completion (100,000 characters at most, the graded maximum): one long line over 66 step lines
    and a box after a caseless anchor. Its long line is no step line, so the anchor's line opens no sentence: no answer
    in both profiles (main paid the sum in ~6 s; no timed assertion here, the verdict is what is pinned)."""
    completion = (long_line + "\n" + "合计\n" * 66 + "答案是 \\boxed{6}。")[-100_000:]
    assert math_verdicts(completion, "6") == ["no_answer", "no_answer"]
    short = "2 + 2 + 2 = 6 个\n" + "合计\n" * 66 + "答案是 \\boxed{6}。"
    assert grade_math({"completion": short, "gold": "6"})["verdict"] == "correct"  # the same shape, a step line
