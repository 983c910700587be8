"""Red team of issue 29's answer grammar, twenty-sixth pass (rt29ab): fx29at (merge 2c03960), the narrowing of fx29as's
caseless line walk after red team 25: `_plain_math` (`_PLAIN_MATH_COMMANDS`, `_PLAIN_MATH_RE`, no two adjacent letters
read without spacing and braces, `=`/`\\equiv` only, five environments) on the math-alone lines the walk reads,
`_CASELESS_NAME` (single letters not next to another, one to three capitals after `∠`/`△`, two or three beside `∥`/`⊥`)
in the relation and premise clauses of step lines, `_math_alone` read from its opener's line (`_math_first_line`), and
the per-text `_text_math` cache and per-line memo. Graded by the real grader (`tests.helpers.math_verdicts`) in both
profiles, on main (2c03960), on its first parent 36a6a53 ("pre": fx29as) and on b7a051a (before fx29as). About 400
candidates; gold 6.

1. NOT CLOSED (`_plain_math`: `bare = re.sub(r"\\\\[A-Za-z]+|\\\\.", "\\x00", math)`). A spacing escape or an allowed
   command parts letters, so a word spelled letter by letter with `\\!` (negative thin space: typeset as the word),
   `\\,`, `\\;`, `\\ `, `\\quad` or `\\cdot` between them is "single letters": `$$n\\!o\\!t\\ x = 6$$`, `$$m\\!a\\!y\\!b\\!e\\ x = 6$$`,
   `$$a\\!p\\!p\\!r\\!o\\!x\\ x = 6$$`, `$$i\\!n\\ t\\!h\\!o\\!u\\!s\\!a\\!n\\!d\\!s\\, x = 6$$`, `$$i\\!f\\ n = 1, x = 6$$` above a step
   line, a label (`解：`) or a rule pay in both profiles (the walk reads the line as plain math), as inline `$...$`,
   `\\(...\\)`, `\\[...\\]`, and under Japanese and Thai labels; `n\\ o\\ t`, `m'a'y'b'e`, `n.o.t.` and
   `n\\cdot o\\cdot t` alike. 44 rows; paid on pre, refused on b7a051a (the class fx29as opened, red team 25 class 3).
   Suggested fix: read letters on a math-alone line after deleting every spacing escape and
   spacing command (`\\!`, `\\,`, `\\;`, `\\:`, `\\ `, `\\quad`, `\\qquad`, `~`) and every operator between single letters
   (`\\cdot`, `.`, `'`): two letters in a row are a word; or, simpler, no letter run of two or more once spacing is gone
   AND at most one or two distinct names per line (an allowlist of what a value's line is: digits, operators, one name).
2. NEW in fx29at's shape (`_plain_math`: `\\\\.` is any escape, a letter of any script included). A backslash before each
   letter of a script without case turns it into an escape, read as a separator, so a Chinese, Thai or Japanese hedge,
   scale or negation passes as plain math: `$$\\可\\能\\ x = 6$$` ("maybe"), `$$\\以\\千\\为\\单\\位\\ x = 6$$` ("in
   thousands"), `\\(\\不\\是\\ x = 6\\)` ("not"), `$$\\大\\约\\ x = 6$$`, `$$\\อ\\า\\จ\\จ\\ะ\\ x = 6$$`, `$$\\た\\ぶ\\ん\\ x = 6$$`,
   even inside an allowed environment (`\\begin{aligned} \\可\\能\\ x &= 6 \\end{aligned}`). 27 rows; paid on pre, refused
   on b7a051a. Suggested fix: an escape is `\\\\[^A-Za-z]` of an ASCII punctuation allowlist only (`\\,` `\\!` `\\{` `\\}` `\\%`
   `\\\\`), and any other character after a backslash fails `_PLAIN_MATH_RE`.
3. NOT CLOSED (`_CASELESS_NAME`: single letters parted by any operator of `_CASELESS_MATH`, and two or three capitals
   beside `∥`/`⊥`). A word spelled with periods, hyphens, slashes or stars after each letter, or cut into capitals beside a
   line sign, is names and operators: `所以 n.o.t. x = 6；`, `所以 m-a-y-b-e- x = 6；`, `所以 n/o/t/ x = 6；`, `所以
   a.p.p.r.o.x. x = 6；`, `所以 i.n. t.h.o.u.s.a.n.d.s. x = 6；`, `所以 NOT∥x = 6；`, `所以 MAY∥BE∥x = 6；`, `由于 NOT∥AB，所以 x = 6；`
   above `答案是 6。` pay in both profiles, and Thai `ดังนั้น n.o.t. x = 6;`. 54 rows; the `；` rows paid on b7a051a too
   (any `；` ended a sentence), the `;` rows are new since fx29as (refused on b7a051a). Suggested fix: a relation's names are single letters that stand as
   operands (a letter next to `=`, an operator with an operand on both sides, a bracket), never a letter followed by `.`
   or a trailing operator, and the capitals beside `∥`/`⊥` form a relation `XY∥ZW` of two names of two letters each
   (`[A-Z]{2}[∥⊥][A-Z]{2}` whole), never a name alone beside the sign.
4. TIME, NEW (fx29at `_math_first_line`: each call climbs a chain of segments line by line and rescans every segment of
   the prefix per line climbed; memoised per line, but a chain of segments each crossing one line break makes each
   miss O(lines x segments)). `"$x.\\n" + "好$ $x.\\n" * 1150 + "好$\\n答案是 6。"` (8,063 characters, inside the 8,192 tail):
   4.95 s in the first profile graded (0.03 s in the second: `_text_math` hit), 17 s under cProfile, 130,444 scans of
   ~1,150 segments from 119 misses; `...\\nThe answer is 6.` (paid) 2.39 s; pre 0.5 s per profile, b7a051a 0.02 s.
   Cubic in the lines of the chain. Suggested fix: compute each line's first line once per text (a sweep over the segments
   merging the line ranges they span into blocks, then a bisection), held with the spans in `_text_math`.

COST (right answers refused that paid on pre, 36a6a53; the math lines were refused on b7a051a too, a cost against
fx29as's gain only; the step lines paid there):
a math-alone line above a step line with a function or a two-letter name is not plain: `$$\\log_2 64 = 6$$`,
`$$\\binom{4}{2} = 6$$`, `$$\\gcd(12, 18) = 6$$`, `$$\\max(3, 6) = 6$$`, `$$\\lfloor 6.5 \\rfloor = 6$$`, `$$\\sum_{i=1}^{3} i = 6$$`,
`$$AB = 6$$`, `$$xy = 6$$`, `$$\\overline{AB} = 6$$`, `$$\\triangle ABC = 6$$`, `$$\\therefore x = 6$$`, `$$2x = 12 \\Rightarrow
x = 6$$`, `$$x \\ge 0, y = 6$$`, `$$\\displaystyle x = 6$$`, `$$\\hat{x} = 6$$`, `$$\\operatorname{lcm}(2,3) = 6$$`, and
`$$3! = 6$$` (read as `!=` once spaces are gone); a segment's name on a step line, `所以 AB = 6；`, `所以 AB + BC = 6；`,
`因为 AB = AC，所以 ∠B = 65°；` (two capitals not beside `∥`: geometry's commonest step; these paid on b7a051a too). 22 rows.

Held: Unicode look-alikes (full-width `ｍａｙｂｅ`, math italic `𝑚𝑎𝑦𝑏𝑒`, combining accents), a literal NUL between
letters, `\\epsilon` (not in the command list), `m\\:a\\>y`, `m\\{a\\}y`, `m\\&a`, a `%` comment's words, a second value in
`cases` (`_VALUE_END_RE` fails after `\\end{cases}`), `x = \\pm 6`, `所以 NO∥T x = 6；`, `所以 (m)(a)(y)(b)(e) x = 6；`, `所以
maybe x = 6;`, a hedge on the line above an escaped math line. The cache: `_text_math` is keyed by the whole text, so a
near miss graded after a right answer with the same lines at the same offsets gets its own spans and memo (held). Time
of red team 25's shape (~1,900 `$a$` and 128 walked lines): 0.49 s for both profiles.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.helpers import MATH_PROFILES, math_verdicts, paid_test, refused_test
from tests.helpers import number_case as n
from verifier.math import grade_math, grammar

ZH, STEP = "答案是 6。", "小明有 6 个苹果"
_TAILS = [f"{STEP}\n{ZH}", f"解：\n{ZH}", f"---\n{ZH}"]

# 1. Words spelled letter by letter, the letters parted by a spacing escape or an allowed command.
_SPELLED = [
    r"$$n\!o\!t\ x = 6$$", r"$$m\!a\!y\!b\!e\ x = 6$$", r"$$m\,a\,y\,b\,e\ x = 6$$", r"$$a\!p\!p\!r\!o\!x\ x = 6$$",
    r"$$p\!e\!r\!h\!a\!p\!s\ x = 6$$", r"$$i\!n\ t\!h\!o\!u\!s\!a\!n\!d\!s\, x = 6$$", r"$$i\!f\ n = 1, x = 6$$",
    r"$$x = 6 \quad i\!f\ n = 1$$", r"$$m\;a\;y\;b\;e\quad x = 6$$", r"$m\!a\!y\!b\!e\ x = 6$", r"\(n\!o\!t\ x = 6\)",
    r"\[n\!o\!t\ x = 6\]", r"$$n\ o\ t\ x = 6$$", r"$$m'a'y'b'e\ x = 6$$", r"$$n.o.t.\ x = 6$$", r"$$n\cdot o\cdot t\ x = 6$$",
]
SPELLED_NEAR = [n(f"{m}\n{tail}") for m in _SPELLED for tail in _TAILS[:2]] + [n(c) for c in [
    *(f"{m}\n---\n{ZH}" for m in _SPELLED[:4]),
    *(f"{m}\n{STEP}\n答えは6です。" for m in _SPELLED[:4]),
    *(f"{m}\n{STEP}\nคำตอบคือ 6" for m in _SPELLED[:4]),
]]
test_a_word_spelled_with_spacing_escapes_is_read = refused_test(
    SPELLED_NEAR, """Paid in both profiles on main and on pre, refused on b7a051a: `_plain_math` replaces every command and
    escape with a separator, so `n\\!o\\!t` (typeset as `not`), `m\\,a\\,y\\,b\\,e` or `i\\!f\\ n = 1` is single letters, the
    math-alone line is plain and the walk reads through it to the label. The safe verdict: refused.""")

# 2. A backslash before each letter of a script without case makes it an escape.
_ESCAPED = [
    r"$$\可\能\ x = 6$$", r"$$\以\千\为\单\位\ x = 6$$", r"$\可\能$ 6 = 6", r"\(\不\是\ x = 6\)", r"$$\大\约\ x = 6$$",
    r"$$\อ\า\จ\จ\ะ\ x = 6$$", r"$$\た\ぶ\ん\ x = 6$$", r"$$\約\ x = 6$$", r"$$\begin{aligned} \可\能\ x &= 6 \end{aligned} = 6$$",
]
ESCAPED_NEAR = [n(f"{m}\n{tail}") for m in _ESCAPED for tail in _TAILS]
test_an_escaped_caseless_letter_is_read = refused_test(
    ESCAPED_NEAR, """Paid in both profiles on main and on pre, refused on b7a051a: `_plain_math`'s `\\\\.` takes a backslash
    and any one character as an escape, so `\\可\\能` ("maybe"), `\\以\\千\\为\\单\\位` ("in thousands") or `\\不\\是` ("not")
    leaves no letter of a script without case and the line is plain. The safe verdict: refused.""")

# 3. Words spelled as single-letter names parted by operators, or as capitals beside a line sign, on a step line.
_NAMED = [
    "所以 n.o.t. x = 6", "所以 m-a-y-b-e- x = 6", "所以 n/o/t/ x = 6", "所以 m*a*y*b*e* x = 6", "所以 a.p.p.r.o.x. x = 6",
    "所以 i.n. t.h.o.u.s.a.n.d.s. x = 6", "所以 NOT∥x = 6", "所以 NOT⊥x = 6", "所以 MAY∥BE∥x = 6", "由于 MAY∥BE，所以 x = 6",
    "由于 NOT∥AB，所以 x = 6", "所以 x = 6 - NOT∥ = 6", "所以 x = 6∥ IN∥K = 6",
]
NAMED_NEAR = [n(f"{line}{mark}\n{label}") for line in _NAMED for mark in ("；", ";") for label in (ZH, f"所以，{ZH}")] + [
    n(f"ดังนั้น n.o.t. x = 6；\n{ZH}"), n("ดังนั้น n.o.t. x = 6;\nคำตอบคือ 6")]
test_a_word_spelled_as_names_rides_on_a_step_line = refused_test(
    NAMED_NEAR, """Paid in both profiles on main and on pre; the `；` rows paid on b7a051a too, the `;` rows are new since
    fx29as. `_CASELESS_NAME` admits a letter followed by any operator of `_CASELESS_MATH` (`n.o.t.`, `m-a-y-b-e-`) and two
    or three capitals beside `∥`/`⊥` alone (`NOT∥x`, `MAY∥BE∥x`), so a negation, hedge or scale on the step line is read
    as math and the label below opens a sentence. The safe verdict: refused.""")


# 4. Time: a chain of segments, each crossing one line break, climbed per line.
def _chain_text(lines: int) -> str:
    """`lines` lines, each closing the segment the line above opened and opening one into the line below, each with a
    period before a caseless line (`period_ends` walks from each)."""
    return "$x.\n" + "好$ $x.\n" * lines + "好$\n" + ZH


def test_the_first_line_search_reads_each_segment_a_bounded_number_of_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """At 1,150 lines (8,063 characters) the first profile graded took 4.95 s on main (0.5 s on pre, 0.02 s on
    b7a051a): `_math_first_line` rescans every segment of the prefix for each line it climbs, and a miss climbs the
    whole chain. Measured by work, never by time: the segments each call scans, summed (one scan per line climbed:
    8.7 million for 300 lines on main). A fix may drop `_math_first_line` (then nothing is counted) or bound it another
    way; this bound is linear in the lines and segments."""
    if not hasattr(grammar, "_math_first_line"):
        return
    real: Callable[..., Any] = grammar._math_first_line
    scanned = [0]

    def counted(region: str, line_start: int, end: int, spans: list[tuple[int, int]]) -> int:
        first: int = real(region, line_start, end, spans)
        scanned[0] += (region.count("\n", first, line_start) + 1) * len(spans)
        return first

    monkeypatch.setattr(grammar, "_math_first_line", counted)
    text = _chain_text(300)
    for profile in MATH_PROFILES:
        assert grade_math({"completion": text, "gold": "6", "profile": profile})["verdict"] != "correct"
    assert scanned[0] <= 64 * 2 * (text.count("\n") + 1), scanned[0]


# COST: a math-alone line with a function or a two-letter name, or a step line with two capitals, paid on pre.
_COST_MATH = [
    r"$$\log_2 64 = 6$$", r"$$\binom{4}{2} = 6$$", r"$$\gcd(12, 18) = 6$$", r"$$\max(3, 6) = 6$$", r"$$\lfloor 6.5 \rfloor = 6$$",
    r"$$\sum_{i=1}^{3} i = 6$$", r"$$AB = 6$$", r"$$xy = 6$$", r"$$\overline{AB} = 6$$", r"$$\triangle ABC = 6$$",
    r"$$\therefore x = 6$$", r"$$2x = 12 \Rightarrow x = 6$$", r"$$x \ge 0, y = 6$$", r"$$\displaystyle x = 6$$",
    r"$$\hat{x} = 6$$", r"$$\operatorname{lcm}(2,3) = 6$$", r"$$3! = 6$$",
]
COST_PAID = [n(f"{line}\n{ZH}") for line in [
    "所以 AB = 6；", "所以 BC = 6；", "所以 OA = 6；", "所以 AB + BC = 6；", "因为 AB = AC，所以 ∠B = 65°；"]]
test_a_math_line_with_a_function_or_a_long_name_pays = paid_test(
    COST_PAID, """Paid in both profiles on pre (36a6a53), refused in both on main (and on b7a051a): `_plain_math` admits
    no command outside its list (`\\log`, `\\binom`, `\\gcd`, `\\Rightarrow`, `\\ge`, `\\hat`) and no two adjacent letters
    (`AB`, `xy`, `\\max`'s braces aside), and reads `3! = 6` without spaces as `!=`; `_CASELESS_NAME` takes two capitals only
    beside `∥`/`⊥`. The safe verdict for a right answer: paid.""",
    marks=[pytest.mark.xfail(strict=True, reason="rt29ab cost: fx29at's plain math refuses functions and long names")])
COST_MATH_PAID = [n(f"{m}\n{STEP}\n{ZH}") for m in _COST_MATH]
test_a_math_line_with_a_function_or_a_long_name_above_a_step_line_pays = paid_test(
    COST_MATH_PAID, """The math rows of the cost above: since fx29au no math-alone line opens the line below, whatever its
    math (red team 26 classes 1, 2 and 4).""",
    marks=[pytest.mark.xfail(strict=True, reason="cost: math-alone lines open no line (fx29au)")])


# Held: look-alikes and spellings `_plain_math` and `_CASELESS_NAME` refuse (each refused on main in both profiles).
HELD = [n(c) for c in [
    *(f"{m}\n{STEP}\n{ZH}" for m in [
        "$$ｍａｙｂｅ x = 6$$", "$$𝑚𝑎𝑦𝑏𝑒 x = 6$$", "$$m\u0301a\u0301y x = 6$$", "$$m\x00a\x00y\x00b\x00e x = 6$$",
        r"$$\mu\alpha\gamma\beta\epsilon = 6$$", r"$$m\:a\>y x = 6$$", r"$$m\{a\}y x = 6$$", r"$$m\&a\&y x = 6$$",
        r"$$x = 6 % maybe$$", r"$$x = \begin{cases} 7 & n = 1 \\ 6 & n = 2 \end{cases}$$",
        r"$$\begin{cases} x = 7 \\ x = 6 \end{cases}$$", r"$$x = \pm 6$$", r"$$m{a}y{b}e x = 6$$", r"$$\text{maybe}\ x = 6$$",
        r"$$\mathrm{n}\mathrm{o}\mathrm{t}\ x = 6$$", "m\\!a\\!y x = 6"]),
    *(f"{line}\n{ZH}" for line in [
        "所以 NO∥T x = 6；", "所以 (m)(a)(y)(b)(e) x = 6；", "所以 maybe x = 6;", "所以 x = 6 ∥ NOT = 6；", "所以 x = NOT∥ 6；",
        "所以 x=6 或 7；"]),
    f"可能\n$$\\以\\千\\为\\单\\位\\ x = 6$$\n{STEP}\n{ZH}", f"可能\n$$n\\!o\\!t\\ x = 6$$\n{STEP}\n{ZH}",
]]
test_look_alikes_and_other_spellings_are_read = refused_test(HELD)

# Rewrites in fx29at's plain shapes: the relation rows still pay; since fx29au a math-alone line opens no line, so a
# step line or a label under one runs into it (a cost).
PLAIN_PAID = [n(c) for c in ["所以 x = 6；\n答案是 x = 6。", "所以 ∠B = 6；\n答案是 ∠B = 6。"]]
test_plain_math_above_a_step_line_pays = paid_test(PLAIN_PAID)
PLAIN_SUBJECT_COST = [n("所以 ∠ABC = 6；\n答案是 ∠ABC = 6。")]
test_plain_math_above_a_step_line_naming_the_answers_angle_pays = paid_test(PLAIN_SUBJECT_COST, marks=[
    pytest.mark.xfail(strict=True, reason="cost: fx29aw knows the answer's one-letter subject only (red team 28)")])
PLAIN_NAMES_COST = [n(c) for c in [f"所以 x = 6；\n{ZH}", f"所以 ∠ABC = 65°；\n{ZH}", f"由于 AB∥CD，所以 x = 6；\n{ZH}"]]
test_plain_math_above_a_step_line_naming_what_the_answer_does_not_pays = paid_test(PLAIN_NAMES_COST, marks=[
    pytest.mark.xfail(strict=True, reason="cost: a step line names only what the answer line names (fx29av)")])
PLAIN_MATH_COST = [n(f"{m}\n{tail}") for m in [
    r"$$2 \cdot 3 = 6$$", r"$$\dfrac{12}{2} = 6$$", r"$$a_{n} = 6$$", r"$$|{-6}| = 6$$", r"$$\left(1+2\right) \times 2 = 6$$",
    r"$$\sqrt[3]{216} = 6$$", r"$$P(A) = 6$$", "$$2 + 4 = 6$$"] for tail in _TAILS[:2]] + [n(f"合计\n$$2 + 4 = 6$$\n{STEP}\n{ZH}")]
test_plain_math_above_a_step_line_pays_cost = paid_test(
    PLAIN_MATH_COST, marks=[pytest.mark.xfail(strict=True, reason="cost: math-alone lines open no line (fx29au)")])


def test_a_near_miss_after_a_right_answer_with_the_same_lines_is_read_anew() -> None:
    """A near miss whose lines stand at the same offsets as a right answer's graded just before (`可能`, "maybe", where
    the right answer has the step word `合计`, "total") is refused, in either order. fx29at's per-text `_text_math` cache
    went with fx29au's walk, which reads no math-alone line (the right answer is a cost row, `PLAIN_MATH_COST`)."""
    tail = f"\n$$2 + 4 = 6$$\n{STEP}\n{ZH}"
    right, near = "合计" + tail, "可能" + tail
    assert len(right) == len(near)
    for _ in range(2):
        assert len(math_verdicts(right, "6")) == len(MATH_PROFILES)
        assert "correct" not in math_verdicts(near, "6")
