"""Red team of issue 29's answer grammar, twenty-eighth pass (rt29ad): fx29av (merge 2242572; 60ad878, 9092c88,
686506a), a caseless step line's relation and premise names grounded by the answer line's own sentence
(`grammar._caseless_relation`, `_caseless_names`, `_answer_names`), `last_break`'s -1 for a window's floor and
`tail_window`'s `WINDOW_CUT`. Graded by the real grader (`tests.helpers.math_verdicts`) in both profiles on main
(2242572) and on 8a65080 ("pre", fx29au, before fx29av). About 10,500 candidates (most of them a grid of hedges,
separators and padding around the 200-character lead window); gold 6.

1. NOT CLOSED. The answer's own math writes the letters a step line above it spells a word with: `known` is every run of
   Latin letters in the answer's sentence, and an answer's math holds any number of single letters that still reads 6
   (a subscript `$n_{o t} = 6$`, an implicit product `$n o t = 6$`, a chain `n = o = 6`, spaced units `6 m a y`). So
   `所以 n + o + t = 6；\\n答案是 $n_{o t} = 6$。` ("not"), `所以 p + e + r + h + a + p + s = 6；\\n答案是 $p_{e r h a p s} = 6$。`
   ("perhaps"), `所以 o + r = 7；\\n答案是 $x_{o r} = 6$。` ("or 7"), `因为 i + f = 1，所以 x = 6；\\n答案是 $x_{i f} = 6$。`
   ("if") pay in both profiles, under Thai and Japanese answer lines, in a box, after `所以，` and `最终答案：`. The
   three-letter and longer words are NEW since fx29av (pre's `_caseless_letters <= 2` refused them; fx29av dropped the
   budget for the names check); the two-letter rows (`n + o`, `o + r`, `i + f`) paid on pre too (red team 27 class 2,
   marked closed). Lenient only: full-width or math-italic letters (`所以 ｎ + ｏ = 6；\\n答案是 $ｎ_ｏ = 6$。`), which the
   lenient path's `to_ascii_math` folds to ASCII before the walk (strict reads the raw text: refused). The known row
   (`所以 ∠NOT = 6；\\n答案是 ∠NOT = 6。`, the answer's angle names) is this class's root, pinned below.
   Suggested fix: ground a step line's names by the answer's *value-bearing* names only, not by every letter run of its
   sentence: at most one name (the answer's subject, `x` of `x = 6`, `∠B` of `∠B = 65°`) or the letters of a single
   name token whole (`n_{ot}` grounds `n_{ot}`, never `n`, `o`, `t`), and keep a letter budget (two) besides; letters
   inside a subscript, a product of single letters or units ground nothing.

TIME (OLD, pre has it too, not fx29av's): a 100,000-character completion (the graded maximum) of one long line with its
only caseless letter at its end, 66 short step lines below and a box after a caseless label,
`"2 + " * 24000 + "2 = 6 个\\n" + "合计\\n" * 66 + "答案是 \\\\boxed{6}。"`, grades in ~6 s for both profiles here (machine
load 8-14; 5.5 s on pre), `"x" * 96000` in place of the sum ~2.5 s: `statement_lines` calls `opens_sentence` for each of
the window's ~66 line breaks, each `_caseless_line_opens` walks up to 64 lines and `_caseless_statement` scans every
character of the long line (`any(unicodedata.category(c) == "Lo" ...)`), three times (`_clause_start`), so the work is
lines x line length. Suggested fix: a line above longer than a step line can be (a few hundred characters) is no step
line, checked before any scan, or the walk's result cached per line start. Not pinned here (no timed assertions).

Held (refused on main in both profiles):
- NUL in the completion (`WINDOW_CUT`): before, inside or after a hedge line, at a line start above a step line, after
  the answer (`答案是 6。\\x00不对，答案是 7。`); no NUL admitted anything.
- The 8,192-character tail cut placed at every offset from 2 before to 3 after the boundary between a hedge (`Maybe `,
  `I doubt that `, `可能`, `可能\\n`, `Not `) and its anchor or box, with 8,100 spaces, tabs or line breaks after the
  answer: the anchor then lies within 200 characters of the window's start, `last_break`'s floor is 0 and the lead is
  read from the NUL, which no lead reader takes.
- The 200-character lead window: 5 hedges x 16 separators (`,`, `；`, `:`, `>`, `}`, `$`, `\\)`, `\\]`, `\\r`, `\\u2028`,
  `\\x85`, `\\x0c`, `、`, ...) x 6 answer forms x pads 0-600 before and after the separator: nothing paid but a hedge
  line above a capitalised `The answer is 6.` line, which pays at pad 0 too (by design: `opens_sentence`).
- Odd line breaks between a hedge or a spelled step line and a caseless answer (`\\r`, `\\r\\n`, `\\u2028`, `\\u2029`,
  `\\x0b`, `\\x0c`, `\\x85`, `\\x1c`-`\\x1e`).
- Look-alike, zero-width, combining, full-width, math-italic, circled letters, no-break or thin spaces in a step line's
  names above `答案是 6。` or `答案是 x = 6。`, and premise point pairs or angle names carried by an answer's subscript
  (`$x_{NO TX} = 6$`, `$x_{∠NOT} = 6$`: the answer misread, incorrect).

COST: right answers with an intermediate name the answer line does not restate (`因为 x = 2，所以 y = 3x = 6；\\n答案是 y = 6。`,
`所以 S = 6；\\n答案是 6 cm²。`): paid on pre, refused on main in both profiles.
"""

from __future__ import annotations

import pytest

from tests.helpers import number_case as n
from tests.helpers import paid_test, refused_test


# 1. Letters the answer's math writes ground a spelled word on the step line above it.
_SPELLED = [
    "所以 n + o + t = 6；\n答案是 $n_{o t} = 6$。", "所以 n + o + t = 6；\n答案是 $n o t = 6$。",
    "所以 m + a + y = 6；\n答案是 6 m a y。", "所以 m × a × y = 6；\n答案是 $m a y = 6$。",
    "所以 m + a + y + b + e = 6；\n答案是 $m_{a y b e} = 6$。", "所以 p + e + r + h + a + p + s = 6；\n答案是 $p_{e r h a p s} = 6$。",
    "所以 a + p + p + r + o + x = 6；\n答案是 $a p p r o x = 6$。", "所以 r + o + u + g + h + l + y = 6；\n答案是 $r_{o u g h l y} = 6$。",
    "所以 t + h + o + u + s + a + n + d = 6；\n答案是 $t h o u s a n d = 6$。", "所以 w + r + o + n + g = 6；\n答案是 $w_{r o n g} = 6$。",
    "所以 a + b + o + u + t = 6；\n答案是 $a_{b o u t} = 6$。", "所以 u + n + s + u + r + e = 6；\n答案是 $u_{n s u r e} = 6$。",
    "所以 n + o + t = 6;\n答案是 $n_{o t} = 6$。", "所以 n + o + t = 6；\n所以，答案是 $n_{o t} = 6$。",
    "所以 n + o + t = 6；\n最终答案：$n_{o t} = 6$。", "所以 n + o + t = 6；\n答案是 $\\boxed{n_{o t} = 6}$。",
    "ดังนั้น n + o + t = 6;\nคำตอบคือ $n_{o t} = 6$", "所以 n + o + t = 6；\n答えは $n_{o t} = 6$ です。",
]
SPELLED_NEAR = [n(c) for c in _SPELLED]
test_a_word_spelled_with_the_answers_own_letters_is_read = refused_test(
    SPELLED_NEAR, """Paid in both profiles on main, refused on pre (8a65080: `_caseless_letters` allowed two letters):
    `_answer_names` takes every run of letters in the answer's sentence, and a subscript, an implicit product or spaced
    units write any number of single letters that still read 6, so the step line's `n + o + t` ("not") names only known
    names. The safe verdict: refused (fx29aw: the answer's subject alone, one letter, is known).""")

# 1, two letters: paid on pre too (red team 27 class 2, marked closed by fx29av).
_TWO = [
    "所以 n + o = 6；\n答案是 n = o = 6。", "所以 n + o = 6；\n答案是 $n_o = 6$。", "所以 n - o = 6；\n答案是 $n o = 6$。",
    "所以 n + o = 6；\n答案是 n = 6 o。", "所以 o + r = 7；\n答案是 $o = r = 6$。", "所以 o + r = 7；\n答案是 $x_{o r} = 6$。",
    "所以 x = 6，o + r = 7；\n答案是 $x_o = x_r = 6$。", "所以 x = 6，o + r = 7；\n答案是 \\boxed{x_{o r} = 6}。",
    "因为 i + f = 1，所以 x = 6；\n答案是 $x_{i f} = 6$。", "所以 i + f = 1，x = 6；\n答案是 $x_{i f} = 6$。",
    "ดังนั้น n + o = 6;\nคำตอบคือ n = o = 6", "所以 n + o = 6；\nคำตอบคือ $n_o = 6$",
]
TWO_NEAR = [n(c) for c in _TWO]
test_a_two_letter_word_with_the_answers_own_letters_is_read = refused_test(
    TWO_NEAR, """Paid in both profiles on main and on pre: two single letters the answer's math writes (`n = o = 6`,
    `$n_o = 6$`, `$x_{o r} = 6$`) ground `n + o` ("no"), `o + r = 7` ("or 7"), `i + f` ("if") above it. The safe verdict:
    refused (fx29aw: a chain's later members, subscripts and products ground nothing).""")

# 1, lenient only: `to_ascii_math` folds full-width and math-italic letters before the lenient path's walk.
FOLDED_NEAR = [n(c) for c in [
    "所以 ｎ + ｏ = 6；\n答案是 $ｎ_ｏ = 6$。", "所以 𝑛 + 𝑜 = 6；\n答案是 $𝑛_𝑜 = 6$。", "所以 n\u200b + o = 6；\n答案是 $ｎ_ｏ = 6$。",
    "所以 n\u2009+\u2009o = 6；\n答案是 $𝑛_𝑜 = 6$。",
]]
test_a_folded_spelling_with_the_answers_own_letters_is_read = refused_test(
    FOLDED_NEAR, """Lenient pays on main (`_last_expression` reads `to_ascii_math` of the tail, so the step line's
    full-width, math-italic or zero-width-split letters become `n + o` and the answer's `$n_o = 6$` grounds them);
    strict refuses. The safe verdict: refused (fx29aw: `$n_o = 6$` has no one-letter subject, so nothing is known).""")

# 1's root, known before this pass: the answer's angle names ground the same angle names above it. Closed by fx29aw
# (an angle's subject of three capitals grounds nothing).
KNOWN_NEAR = [n("所以 ∠NOT = 6；\n答案是 ∠NOT = 6。")]
test_a_word_spelled_with_the_answers_angle_names_is_read = refused_test(
    KNOWN_NEAR, """Known when fx29av merged: `∠NOT = 6` is an angle to the answer grammar, so the answer line grounded
    `∠NOT` above it (both profiles). fx29aw: a subject of `∠` and one capital at most is known.""")

# Not the step line's: lenient reads the sentence after the answer's `。` (`∠NOT = 6`) as the last statement whatever
# the line above it is (`abc\n答案是 6。∠NOT = 6。` pays lenient on main too), so the walk's names are not what pays.
AFTER_NEAR = [n("所以 ∠NOT = 6；\n答案是 6。∠NOT = 6。"), n("所以 n + o + t = 6；\n答案是 6。$n_{o t} = 6$。")]
test_a_word_spelled_after_the_answers_sentence_is_read = refused_test(
    AFTER_NEAR, """After the answer's `。` only lenient pays: its last sentence (`∠NOT = 6`, `$n_{o t} = 6$`) is read as
    a statement of its own, with any line above (not fx29av's walk). The safe verdict: refused (fx29ax: the lenient
    fallback reads no value after an answer anchor, `extract._anchored_before`).""")

# Held: NUL characters (`WINDOW_CUT`) in the completion.
NUL_HELD = [n(c) for c in [
    "可能\x00答案是 6。", "可能\x00\n答案是 6。", "可能\n\x00答案是 6。", "可能\n\x00\n答案是 6。", "\x00可能\n答案是 6。",
    "可能\n\x00所以 x = 6；\n答案是 x = 6。", "Maybe\x00the answer is 6.", "Maybe \x00 the answer is 6.", "Maybe\x00\\boxed{6}",
    "可能\n\x00\\boxed{6}", "不是\x007，答案是 6。", "答案是 6\x00或 7。", "答案是 6。\x00不对，答案是 7。", "答案是 6\x00千。",
    "The answer is 6.\x00 Wait, it is 7.",
]]
test_a_nul_in_the_completion_admits_nothing = refused_test(NUL_HELD)


def _at_the_cut(hedge: str, answer: str, shift: int, after: str) -> str:
    """`hedge` + `answer` + `after` spacing, sized so the 8,192-character tail starts `shift` characters after the
    boundary between them (the window's first character, `WINDOW_CUT`, replaces the one there)."""
    return "Hmm. " * 3 + hedge + answer + after * (8192 - shift - len(answer))


CUT_HELD = [n(_at_the_cut(hedge, answer, shift, after)) for hedge, answer in [
    ("Maybe ", "the answer is 6."), ("I doubt that ", "the answer is 6."), ("Not ", "\\boxed{6}"),
    ("可能", "答案是 6。"), ("可能\n", "答案是 6。"), ("Maybe the answer is ", "\\boxed{6}"),
] for shift in (-1, 0, 1) for after in (" ", "\n")]
test_a_hedge_at_the_tail_windows_cut_is_not_lost = refused_test(
    CUT_HELD, """The anchor or box within 200 characters of the tail's start: `last_break`'s floor is the window's
    start (0), read from its `WINDOW_CUT`, which no lead reader admits.""")

# Held: odd line breaks between a hedge or a spelled step line and a caseless answer.
BREAK_HELD = [n(c.replace("{b}", b)) for b in ["\r", "\r\n", "\u2028", "\u2029", "\x0b", "\x0c", "\x85", "\x1e"] for c in [
    "可能{b}答案是 6。", "以千为单位{b}答案是 6。", "Maybe{b}the answer is 6.", "可能{b}\\boxed{6}",
    "可能{b}所以 x = 6；\n答案是 x = 6。", "所以 n + o = 6；{b}答案是 6。", "ดังนั้น ∠NOT = 6;{b}คำตอบคือ 6",
]]
test_an_odd_line_break_admits_no_hedge = refused_test(BREAK_HELD)

# Held: look-alike or hidden letters in a step line's names, and point pairs or angles carried by a subscript.
HIDDEN_HELD = [n(f"{line}\n{answer}") for answer in ("答案是 6。", "答案是 x = 6。") for line in [
    "所以 n\u200b + o = 6；", "所以 ｎ + ｏ = 6；", "所以 ∠NОT = 6；", "所以 n\u0301 + o = 6；", "所以 ∠N\u200bOT = 6；",
    "所以 ν + ο = 6；", "所以 𝑛 + 𝑜 = 6；", "所以 n\\, + o = 6；", "所以 ⓝ + ⓞ = 6；", "所以 n + o = ６；",
]] + [n(c) for c in [
    "由于 NO∥TX，所以 x = 6；\n答案是 $x_{NO TX} = 6$。", "由于 IF∥NO，所以 x = 6；\n答案是 $x_{IF NO} = 6$。",
    "所以 ∠NOT = 6；\n答案是 $x_{∠NOT} = 6$。", "所以 ∠MAY + ∠BE = 6；\n答案是 $x_{∠MAY ∠BE} = 6$。",
    "所以 n + o = 6；\n答案是 6 n·o。", "所以 x = 6，o + r = 7；\n答案是 6 m o r。",
]]
test_hidden_or_carried_names_on_a_step_line_are_refused = refused_test(HIDDEN_HELD)

# COST: right answers with an intermediate name the answer line does not restate (paid on pre, refused on main).
COST = [n(c) for c in [
    "因为 x = 2，所以 y = 3x = 6；\n答案是 y = 6。", "所以 x = 2；\n所以 y = 3x = 6；\n答案是 y = 6。", "所以 S = 6；\n答案是 6 cm²。",
]]
test_a_step_line_with_an_intermediate_name_pays = paid_test(
    COST, """Paid in both profiles on pre, refused on main: the step line names `x` or `S`, which the answer line does
    not write. The safe verdict for a right answer: paid.""",
    marks=[pytest.mark.xfail(strict=True, reason="cost: fx29av grounds no intermediate name the answer line does not restate")])
