"""Red team of issue 29's answer grammar, twenty-fifth pass (rt29aa): fx29as (merge f69ca93), the caseless line walk
`grammar._caseless_line_opens` (`_joined_end`, `_OPENING_LINE_RE`, `_math_alone` in the walk, 64 lines), the wider step
lines of `_caseless_statement` (`_CASELESS_RELATION_RE`, `_CASELESS_PREMISE_RE`, one `；`/`;`/`.` at the end), `them`/`him`
in `_SENTENCE_FINAL`, `period_ends` reading a line break as joined text and the lenient `extract._sentence_open`. Graded by
the real grader (`grade_math` through `tests.helpers.math_verdicts`) in both profiles. About 1,300 candidates (hedges,
scales, negations and conditions x relation, premise and step-line shapes x `；`/`;`/`.`; words before a display's
opener x 5 display spellings x 3 tails; math-alone spellings; 17 opening lines x 7 qualifiers x 3 placements; second
answers under opening lines; `them`/`him` sentences; full-width forms; six other scripts' anchors (ja, bn, te, hi, ko,
th) under opening lines; 200 natural Chinese and English step lines, labels and sentences for cost; the 64-line edge;
walk-cost texts up to the 8,192-character tail), graded on main (f69ca93) and on its first parent (b7a051a, "pre").
Gold 6.

1. NOT CLOSED (fx29as `_CASELESS_RELATION_RE`, `_CASELESS_PREMISE_RE`: `_CASELESS_MATH` holds every ASCII letter and the
   space). A relation or premise clause of a step line takes any English words as its "math", so a hedge, scale,
   negation or condition rides on the step line whose break ends the sentence, and the label below pays:
   `所以 in thousands x = 6；\\n答案是 6。` ("so in thousands x = 6; the answer is 6"), `所以 maybe x = 6；`, `所以 not x = 6；`,
   `因为 maybe x = 2，所以 y = 6；`, `由于 roughly AB∥CD，所以∠B＝65°；`, `小明有 6 个苹果，perhaps x = 6；`, Thai `ดังนั้น maybe x = 6；`
   (paid on pre through `；`). fx29as lists the Chinese forms as near misses and refuses them (`以千为单位，所以 x = 6；`,
   `因为可能 x = 6，所以 y = 6；`, `所以 x ≈ 6；`), and the one-line forms are refused (`所以 in thousands x = 6；答案是 6。`),
   so rule 1 ("a line break adds no sentence end") does not hold for them. NEW with an ASCII `;` (`所以 maybe x = 6;\\n答案是
   6。`, refused on pre). 96 rows, 16 of them new (80 paid on pre). Suggested fix: the relation's and premise's math
   is a math grammar's tokens, not a character class: single-letter names (with digits, primes, subscripts),
   operators, angle and line signs, digits; a run of two or more ASCII letters only where it is a known function or
   unit token (`sin`, `cm`), and never a word of a hedge, scale or negation (an allowlist, so unknown words fail).
2. NEW (fx29as `_math_alone` in the walk: `start = text.rfind("\\n", 0, first) + 1`). A display that spans lines is read
   from its last line, and the walk then jumps above the line where the display opens, so the words before `$$`, `\\[`
   or an inline `$` on that line are never read: `可能 $$\\n2 + 4 = 6\\n$$\\n小明有 6 个苹果\\n答案是 6。` ("maybe ..."),
   `以千为单位 \\[\\n...\\]`, `In thousands $x\\n= 6$`, `我不确定， $$2 + 4\\n= 6$$` above a step line pay (refused on pre; the
   one-line display `可能 $$2 + 4 = 6$$\\n小明有 6 个苹果\\n答案是 6。` is refused), and under other scripts' labels alike
   (`たぶん $$...\\n答えは6です。`, Bengali, Telugu, Thai). 40 rows. `_math_alone` reads
   `_prose_line` on the last line only, so `statement_lines` has the same blind spot (old: `可能 $$\\n2 + 4 = 6\\n$$\\n答案是 6。`
   and `Maybe $x\\n= 6$\\nthe answer is 6.` paid on pre too; not counted as new). Suggested fix: `_math_alone` reads
   every line a display spans, from the line of its opener, and the words before the opener make the line prose.
3. KNOWN CLASS, wider than pinned (fx29as: `$$\\text{可能} = 6$$` above a step line pays). Math alone admits words and
   relations of any kind inside its segments, so variants pay alike above a step line: `$$可能 = 6$$` (no `\\text`),
   `$可能$ = 6`, `\\(可能 = 6\\)`, `$$\\textbf{约} x = 6$$`, `$$\\mathrm{maybe}\\ x = 6$$`, `$$x \\approx 6 = 6$$`, `$$x \\neq 6 = 6$$`
   (10 rows, refused on pre). Suggested fix: a math-alone line that opens the next holds no letter run of two or more
   outside a known command and no text command, and its relations are `=`/`\\equiv` only.
4. TIME (fx29as: `_caseless_line_opens` computes `_math_spans(text[:end])` per walk and `_math_alone` per math line, each
   O(segments of the whole prefix), for each caseless line `statement_lines` and `period_ends` ask about). 64 math lines,
   64 step lines ending with `.` (`合计.`) under a prefix of ~1,900 `$a$` segments (8,131 characters, inside the 8,192
   tail): 7.8 s strict, 8.2 s lenient (right answer `The answer is 6.`, paid), 0.04 s on pre; without the periods 4.3 s
   per profile (load 1.5-4.5 on 2 shared cores). The grade makes 21,744 `_math_alone` and 876 `_math_spans` calls for
   129 lines (pre: 0 and 12; 384 and 12 without the periods). Suggested fix: compute the spans once per text (pass them
   down, or cache by text), look segments up by bisection, and memoise the walk's verdict per line start so each line
   is read once per grade.

COST 1 (right answers refused that paid on pre). fx29as closes `；` after a caseless line as a sentence end, and the
relation allowlist that replaces it is narrow, so natural step lines ending with `；` no longer end their sentence:
`所以 $x = 6$；`, `所以 \\(x = 6\\)；`, `所以 ∠1 = 65°；`, `所以 x = 1/2；`, `所以 x = 1000；`, `所以 x = -6；`, `所以 x = 6 cm；`,
`所以 x = 2√3；`, `解得 x = 6；`, `即 x = 6；`, `则 x = 6；`, `所以，x = 6；`, `所以 a_1 = 6；`, `所以 x^2 = 36；`, `所以 |x| = 6；`,
`由勾股定理得 AB = 6；`, `根据题意，x = 6；`, `计算得 x = 6；`, `所以 $2 + 4 = 6$；` above `答案是 6。` (29 lines, 58 rows
with two label forms found, 19 lines and 38 rows pinned; paid on pre, refused now). Not in the peer sets:
`tests/test_math_peers.py` gives the same figures on main and pre. Suggested fix: read math segments as the
relation's math (`$...$`, `\\(...\\)`), and a relation's last side as any value the answer grammar reads (fractions,
signs, radicals, a unit), with a wider connective list (`解得`, `即`, `则`, `故`, `所以，`).

COST 2 (`_joined_end`, `period_ends` reading a break as joined text): a period before a line break ends a sentence
only after a number, math or a word of the grammar's vocabularies, so a period after a Chinese or Thai word (`好的.`,
"OK."; `计算完成.`; `所以他一共买了六本书.`) or an everyday English word the vocabularies lack (`Good.`, `This completes the
proof.`, `Substitute back.`, `Let us add them up.`) runs into the label below, caseless or lower-case (`the answer is
6.`): 27 rows, paid on pre. `答案约为。\\n答案是 6。` pays where `答案约为.\\n答案是 6。` is refused. Suggested fix: a period after a
letter of a script without case reads as that script's full stop (no abbreviation is written so); for English, a
general word list (an allowlist of dictionary words less abbreviations) where `_known_words` is the grammar's vocabulary.

Old or design, not counted as new: a second answer after a sentence's end pays (`答案是 7。\\n答案是 6。` on pre), and the
new opening lines carry it (`答案是 7。\\n解：\\n答案是 6。`, `...\\n---\\n...`, `### 解答`, `第一步：`, `> 解：`: 10 rows refused on pre
only because the label was read as the next line's lead; the class fx29as lists as known, `（1）...（2）`); `them.`/`him.`
end a sentence as `it.` does on pre (`Maybe them. \\boxed{6}`, `In thousands of them. \\boxed{6}`, `Give it to him. \\boxed{6}`
pay as `Maybe it. \\boxed{6}`, `In thousands of it. \\boxed{6}` paid on pre: an earlier sentence is not read); a step
line's own other value (`所以 x = 7；\\n答案是 6。`); a math line directly above the label (`可能\\nx = 1\\n答案是 6。`, old
`statement_lines` rule); `Maybe\\nStep 1:\\n答案是 6。` (a capital opens the line, pre alike).

Held: a qualifier above any opening line (`可能\\n答\\n...`, `Maybe\\n---\\n...`, `以千为单位\\n（1）\\n...`), on it (`可能（1）`,
`答可能`) or inside a sentence a label word ends (`我不知道怎么\\n答\\n...`); words after the relation's number (`所以 x = 6 in
thousands；`), an English label above a relation (`In thousands:\\n所以 x = 6；`); one-line forms of class 1; a stray `$`
(a currency sign) above math lines; full-width Latin words in a relation (`ｉｎ ｔｈｏｕｓａｎｄｓ`, refused in strict); a
qualifier more than 64 lines up (`可能\\n合计 x 64\\n答案是 6。`). The 64-line edge refuses a chain of 64 step lines under a
sentence's end (63 pay), a cost fx29as names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from tests.helpers import MATH_PROFILES, math_verdicts, paid_test, refused_test
from tests.helpers import number_case as n
from verifier.math import grade_math, grammar

ZH, STEP = "答案是 6。", "小明有 6 个苹果"


# 1. English words in a relation's or premise's "math" (`_CASELESS_MATH` holds every ASCII letter and the space).
_WORDS = ["in thousands", "maybe", "approximately", "not", "perhaps", "in units of k", "if n is odd then", "roughly"]
RELATION_WORDS_NEAR = [n(f"{shape}\n{label}") for q in _WORDS for shape in [
    f"所以 {q} x = 6；", f"{STEP}，{q} x = 6；", f"因为 {q} x = 2，所以 y = 6；", f"ดังนั้น {q} x = 6；", f"由于 {q} AB∥CD，所以∠B＝65°；",
    f"所以 {q} x = 6;"] for label in (ZH, f"所以，{ZH}")]
test_words_in_a_relation_clause_ride_on_a_step_line = refused_test(
    RELATION_WORDS_NEAR, """Paid in both profiles on main; the `；` rows paid on pre too (any `；` after a caseless line
    ended a sentence), the `;` rows are new (refused on pre). fx29as's relation and premise shapes take any ASCII
    letters and spaces as math, so a hedge, scale, negation or condition on the step line is dropped with it, where
    fx29as refuses the same words in Chinese and every one-line form. The safe verdict: refused (closed by fx29at).""")
RELATION_WORDS_HELD = [n(c) for c in [
    f"所以 in thousands x = 6；{ZH}", f"所以 maybe x = 6；{ZH}", f"所以 in thousands x = 6;{ZH}", f"所以 in thousands x = 6\n{ZH}",
    f"所以 x = 6 in thousands；\n{ZH}", f"In thousands:\n所以 x = 6；\n{ZH}", f"所以 ｉｎ ｔｈｏｕｓａｎｄｓ x = 6；\n{ZH}",
    f"所以 x = 6；\n可能\n{ZH}", f"所以 x ≈ 6；\n{ZH}", f"以千为单位，所以 x = 6；\n{ZH}",
]]
test_words_outside_the_relation_shape_are_read = refused_test(
    [c for c in RELATION_WORDS_HELD if "ｉｎ" not in c[0]])


@pytest.mark.parametrize("completion", [c[0] for c in RELATION_WORDS_HELD if "ｉｎ" in c[0]])
def test_full_width_words_in_a_relation_are_refused_in_strict(completion: str) -> None:
    """Strict refuses full-width Latin words in a relation (the lenient profile pays this row on pre and main alike)."""
    assert math_verdicts(completion, "6")[0] != "correct"


# 2. Words before a display's opener on the display's first line are never read by the walk.
_DISPLAYS = ["$$\n2 + 4 = 6\n$$", "\\[\n2 + 4 = 6\n\\]", "$x\n= 6$", "$$2 + 4\n= 6$$"]
_BEFORE = ["可能", "以千为单位", "我不确定，", "In thousands", "Maybe", "不是", "大约", "答案可能是 7，", "I doubt that"]
DISPLAY_OPENER_NEAR = [n(f"{q} {d}\n{STEP}\n{ZH}") for q in _BEFORE for d in _DISPLAYS] + [n(c) for c in [
    f"たぶん $$\n2 + 4 = 6\n$$\n{STEP}\n答えは6です。", f"সম্ভবত $$\n2 + 4 = 6\n$$\n{STEP}\nউত্তর হল 6।",
    f"బహుశా $$\n2 + 4 = 6\n$$\n{STEP}\nసమాధానం 6.", f"อาจจะ $$\n2 + 4 = 6\n$$\n{STEP}\nคำตอบคือ 6",
]]
test_words_before_a_displays_opener_are_read = refused_test(
    DISPLAY_OPENER_NEAR, """Paid in both profiles on main, refused on pre: the walk reads a display from its last line and
    jumps above the line its opener stands on, so `可能 $$` ("maybe") is never read and the step line below opens a
    sentence. The one-line display (`可能 $$2 + 4 = 6$$`) is refused. The safe verdict: refused (closed by fx29at).""")
DISPLAY_HELD = [n(c) for c in [
    *(f"{q} $$2 + 4 = 6$$\n{STEP}\n{ZH}" for q in ("可能", "以千为单位", "In thousands", "Maybe", "不是")),
    *(f"{q}\n$$\n2 + 4 = 6\n$$\n{STEP}\n{ZH}" for q in ("可能", "以千为单位", "In thousands")),
    f"大约 $5\n= 6\n{STEP}\n{ZH}", f"可能 $5 千\nx = 6\n{STEP}\n{ZH}", f"以千为单位 $\n2 + 4 = 6\n{STEP}\n{ZH}",
]]
test_a_qualified_one_line_display_is_read = refused_test(DISPLAY_HELD)

# 3. The known class (`$$\text{可能} = 6$$` above a step line), in spellings beyond `\text`.
MATH_WORDS_NEAR = [n(f"{m}\n{STEP}\n{ZH}") for m in [
    "$$\\text{可能} = 6$$", "$$可能 = 6$$", "$可能$ = 6", "\\(可能 = 6\\)", "$$\\textbf{约} x = 6$$", "$$\\mathrm{maybe}\\ x = 6$$",
    "$$x \\approx 6 = 6$$", "$$x \\neq 6 = 6$$", "$$\\text{in thousands: } x = 6$$", "$\\text{不是}$ 6 = 6",
]]
test_words_inside_math_alone_are_read = refused_test(
    MATH_WORDS_NEAR, """Paid in both profiles on main, refused on pre: math alone that opens the next line takes any words
    and relations inside its segments; fx29as names the `\\text{}` row as known. The safe verdict: refused (closed by fx29at).""")


# 4. Time: the walk reads the spans of the whole prefix per caseless line and per math line.
def _walk_text(segments: int) -> str:
    """64 math lines and 64 step lines with a period (`period_ends` walks from each) under `segments` inline segments."""
    return "$a$ " * segments + "好。\n" + "1=1\n" * 64 + "合计.\n" * 64 + "The answer is 6."


def _counting(monkeypatch: pytest.MonkeyPatch, names: tuple[str, ...]) -> Counter[str]:
    calls: Counter[str] = Counter()
    for name in names:
        real: Callable[..., Any] = getattr(grammar, name)

        def counted(*args: Any, _real: Callable[..., Any] = real, _name: str = name, **kwargs: Any) -> Any:
            calls[_name] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(grammar, name, counted)
    return calls


def test_the_caseless_walk_reads_each_line_a_bounded_number_of_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ~1,900 segments before them these lines took 7.8 s (strict) and 8.2 s (lenient) on main (0.04 s on pre), each
    call below costing O(segments); measured by calls, never by time: both profiles make 21,744 `_math_alone` and 876
    `_math_spans` calls for 129 lines on main (0 and 12 on pre). A fix may bound the work another way (spans computed once
    and bisected, the walk memoised per line); this bound is linear in the lines."""
    calls = _counting(monkeypatch, ("_math_alone", "_math_spans"))
    text = _walk_text(0)
    verdicts = [grade_math({"completion": text, "gold": "6", "profile": p})["verdict"] for p in MATH_PROFILES]
    assert verdicts == ["correct"] * len(MATH_PROFILES)
    lines = text.count("\n") + 1
    assert calls["_math_alone"] <= 4 * lines and calls["_math_spans"] <= 32, dict(calls)


# COST: natural step lines ending with `；` outside the relation shape, paid on pre.
COST_LINES = [
    "所以 $x = 6$；", "所以 \\(x = 6\\)；", "所以 ∠1 = 65°；", "所以 x = 1/2；", "所以 x = 1000；", "所以 x = -6；", "所以 x = 6 cm；",
    "所以 x = 2√3；", "解得 x = 6；", "即 x = 6；", "则 x = 6；", "所以，x = 6；", "所以 a_1 = 6；", "所以 x^2 = 36；", "所以 |x| = 6；",
    "由勾股定理得 AB = 6；", "根据题意，x = 6；", "计算得 x = 6；", "所以 $2 + 4 = 6$；",
]
COST_PAID = [n(f"{line}\n{label}") for line in COST_LINES for label in (ZH, f"所以，{ZH}")]
test_a_natural_step_line_ending_with_a_clause_mark_pays = paid_test(
    COST_PAID, """Paid in both profiles on pre, refused in both on main: fx29as ends a caseless sentence at a `；` line break
    only after a step line of `_CASELESS_RELATION_RE`'s shape (a letter name, ASCII math, a one-to-three-digit number),
    so inline math, an angle's number, a fraction, a sign, a radical, a unit, four digits or another connective make the
    line run into the label. The safe verdict for a right answer: paid.""",
    marks=[pytest.mark.xfail(strict=True, reason="rt29aa cost: fx29as's relation shape is narrower than natural steps")])


# COST: a period before a line break after a word the grammar does not know, or after a caseless word, ends no sentence
# now (`_joined_end`, `period_ends` reading the break as joined), paid on pre.
PERIOD_COST_PAID = [n(c) for c in [
    *(f"{line}\n{ZH}" for line in [
        "所以他一共买了六本书.", "因此小明剩下六个苹果.", "所以总数是六.", "这就是最终结果.", "计算完成.", "我们得到结果为六.", "总共六个.",
        "所以他一共买了 6 本书.", "好的.", "解题完毕.", "ดังนั้นเขาซื้อหนังสือหกเล่ม."]),
    *(f"{line}\n{label}" for line in [
        "Let us add them up.", "The pattern repeats every cycle.", "Substitute back.", "This completes the proof.", "Let me recompute.",
        "The remaining books go to Tom.", "Solve for x.", "Good."] for label in (ZH, "the answer is 6.")),
]]
test_a_sentence_ended_by_a_period_before_a_break_pays = paid_test(
    PERIOD_COST_PAID, """Paid in both profiles on pre, refused in both on main: a period before a line break ends a sentence
    only where `_period_word_ends` reads one (a number, math, a word of the grammar's vocabularies), so a period after a
    Chinese or Thai word (`好的.`, "OK.") or an everyday English word the vocabularies do not hold (`Good.`, `This
    completes the proof.`) leaves the label below read with the line above; `答案约为。\n答案是 6。` pays where
    `答案约为.\n答案是 6。` is refused. The safe verdict for a right answer: paid.""",
    marks=[pytest.mark.xfail(strict=True, reason="rt29aa cost: a period after an unlisted word ends no sentence before a break")])


# Held: qualifiers above, on or around the new opening lines (each refused on main in both profiles).
_OPENERS = ["答", "解", "思路：", "分析：", "步骤：", "（1）", "(1)", "### Solution", "> 解：", "**答：**", "---", "***", "___", "所以；",
            "综上：", "ดังนั้น："]
_QUALIFIERS = ["可能", "我不确定", "答案不是", "以千为单位", "Maybe", "in thousands", "如果"]
OPENER_HELD = [n(c) for c in [
    *(f"{q}\n{o}\n{ZH}" for q in _QUALIFIERS for o in _OPENERS if not (q == "Maybe" and o == "### Solution")),
    *(f"{q}{o}\n{ZH}" for q in ("可能", "以千为单位", "如果") for o in _OPENERS),
    *(f"{o}{q}\n{ZH}" for q in ("可能", "以千为单位") for o in ("答", "解", "（1）", "---", "所以；")),
    "我不知道怎么\n答\n" + ZH, "这道题很难\n解\n" + ZH, "我们不会\n解：\n" + ZH, "不是第\n（1）\n" + ZH, "可能的\n解答：\n" + ZH,
    "如果\n---\n" + ZH, "可能\n\n\n答：\n\n" + ZH, "可能\n" + "合计\n" * 64 + ZH, f"可能\n（１）\n{ZH}", f"以千为单位\n＃＃＃ 解答\n{ZH}",
]]
test_a_qualifier_around_an_opening_line_is_read = refused_test(OPENER_HELD)

# Rewrites in fx29as's shapes still pay.
WALK_PAID = [n(c) for c in [
    f"解：\n{STEP}\n{ZH}", "所以 x = 6；\n答案是 x = 6。",
    "**Step 1:**\n所以 x = 6；\n答案是 x = 6。", f"We add them.\n{ZH}", f"（1）\n{ZH}", "好。\n" + "合计\n" * 63 + ZH,
    "所以 x ＝ ６；\n答案是 x = 6。",
]]
test_a_right_answer_in_fx29as_shapes_pays = paid_test(WALK_PAID)
test_a_display_after_a_caseless_lead_pays = paid_test([n(f"我们得到 $$\n2 + 4 = 6\n$$\n{ZH}")], marks=[pytest.mark.xfail(
    strict=True, reason="cost (fx29bc, red team 30 class 5): a display opened after words (`我们得到`, 'we get') opens no "
                        "sentence, so a caseless answer below it is read with them, as after `可能 $$` ('maybe')")])
WALK_NAMES_COST = [n(c) for c in [
    f"所以 x = 6；\n{ZH}", f"所以 x = 6，y = 6；\n{ZH}", f"**Step 1:**\n所以 x = 6；\n{ZH}", f"所以 x ＝ ６；\n{ZH}",
]]
test_a_right_answer_under_a_step_line_naming_x_pays = paid_test(WALK_NAMES_COST, marks=[
    pytest.mark.xfail(strict=True, reason="cost: a step line names only what the answer line names (fx29av)")])
WALK_MATH_COST = [n(f"{m}\n{STEP}\n{ZH}") for m in ("$$\n2 + 4 = 6\n$$", "\\[\n2 + 4 = 6\n\\]")]
test_a_right_answer_under_math_alone_pays = paid_test(
    WALK_MATH_COST, marks=[pytest.mark.xfail(strict=True, reason="cost: math-alone lines open no line (fx29au)")])
