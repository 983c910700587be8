"""Red team of issue 29's answer grammar and cost guards, twenty-second pass (rt29x): fx29ap's admissions
(`_stranded_sentence`/`_STRANDED_SENTENCE_RE`/`_STRANDED_PAIRS`, the `whole` flag of `box_lead`, `_box_names` with
`_CONDITION_STEP_RE`/`_later_step`), fx29ao's merged with it (`_later_words`, `_TIME_STEP_RE`, `_CASELESS_STEP_RE`,
`_name_key`, `_PART_CLAUSE_RE`) and 95c3256's cost bounds (`_bar_closes` in `_function_scan`, `_plainly_real`). Graded by
the real grader (`grade_math` through `tests.helpers.math_verdicts`) in both profiles. About 7,400 candidates from
templates (every stranded shape x connective x relative x pair, conditions on five letters x 37 box spellings, fx29ao's
later words x 8 first steps x 7 boxes, part labels, name keys, caseless lines), graded on main (849457e) and on the
commit before the fx29ap/fx29ao merge (40e3699). Gold 6.

1. NEW (fx29ap `_STRANDED_PAIRS`, read by `_stranded_sentence`). The listed pairs hold verbs whose object is not the
   value sought: `start with`, `begin with`, `work with` (the value a problem starts from), `choose from`, `pick from`
   (the options), `look at`, `wait for`; each ends its whole sentence, so a bare box after it pays as the answer:
   `This is the number we start with. \\boxed{6}`, `This is what we work with. \\boxed{6}`, `This is what we choose from.
   \\boxed{6}` (all refused on 40e3699). Suggested fix: keep only the pairs whose object is a result (`solve for`, `arrive
   at`, `end up with`, `come up with`, `adds up to`, `asks for`, `look for`), an allowlist of result verbs.
2. NEW (fx29ap `_STRANDED_SENTENCE_RE`'s `there are` shape). Its counted noun may be what the answer is (`answers`,
   `values`, `solutions`, `roots`, `numbers`), so the sentence says the box is one of several: `There are 2 answers to
   choose from. \\boxed{6}`, `There are two values to solve for. \\boxed{6}` (refused on 40e3699); its modal-free auxiliaries
   admit a wish or a plan (`This is the answer I want to arrive at.`, `This is what we will arrive at.`). Suggested fix:
   the `there are` shape's noun is a word problem's counted thing (`apples`, `people`), never a quantity word of the
   answer; `want to`, `will` out of `_STRANDED_RELATIVE`.
3. NEW (fx29ap `_box_names`). It keeps ASCII letters only, while the grader folds mathematical alphanumerics
   (`unicode_math`): `𝑥` is `x`, so a condition on `x` passes beside a box whose math names `𝑥`: `So $a = 2$, when $x = 7$,
   $b = 4$, so $y = 𝑥 - 1 = \\boxed{6}$.` (refused on 40e3699; the ASCII spelling is refused on main). Suggested fix: read
   the letters after `unicode_math.to_ascii_math`, and a non-ASCII letter that folds to none names an unknown too.
4. COST (`guards._function_scan`, `_APPLIED_RE`'s open/close tokens). Brackets the parser reads but the scan does not list
   open no frame, so the calls in them are never counted at the product after them: `\\vert`, `\\left\\vert`, `\\lbrack`,
   `\\lbrace`, `\\lgroup`, `\\lfloor`, `\\lceil` factors read 0 products. Measured in a fresh process each (warmed on another
   answer), against gold 1, load 2.0-2.6 on 2 shared cores: six `\\vert \\sin(a)+1\\vert` factors joined by `\\cdot` 5.1 s
   (strict), `\\left\\vert` 4.1 s, `\\lbrack` 3.7 s, `\\lgroup` 2.4 s, `\\lbrace` 1.8 s, `\\lfloor` 1.7 s; seven `\\vert`
   factors 27.1 s (lenient), seven `\\lbrack` 7.3 s; five `(\\sin(a)+1)` (at the bound) 0.9 s. Eight are refused by the
   expansion bound (256 terms). Suggested fix: scan the text as the parser reads it (the same normalisation, or an
   allowlist of bracket commands: any `\\l...`/`\\r...` delimiter and `\\vert`, `\\left`/`\\right` with any delimiter),
   counting a command it does not know as a bracket.

Pedantry (fx29ao `_caseless_statement`/`_CASELESS_STEP_RE`, merged with fx29ap): a line above an anchor in a script
without case that states a count in digits is a statement only in `_CASELESS_STEP_RE`'s shapes (someone `有`, "has"), so
natural steps (`他买了3本书`, "he bought 3 books"; `还剩 6 个苹果`, "6 apples are left"; `一共是 6 个苹果`, "6 apples in
all"; Thai `ดังนั้นเหลือ 6 ชิ้น`; Japanese `彼は6個のリンゴを買いました`) are read as the anchor's lead and the right answer
after them is refused; all paid on 40e3699. Suggested fix: a line that ends a clause with a number and a classifier or
unit is a statement unless a hedge, bound, negation or scale of an allowlist's complement stands in it (or: read such a
line as its own sentence and refuse only the shapes that qualify the next line).

Old, not counted as new (paid on 40e3699 too): an earlier sentence is not read (`Maybe. This is what we solve for.
\\boxed{6}`, `Not 6. ...`, `The answer is 7! ...`: the sentence rule's design); `So $x = 7$, also, $x = \\boxed{6}$`, `...,
and by symmetry $x = \\boxed{6}$`, `So $x = 6000$ cents, i.e. $\\boxed{6}$` (a step's value is not read); fx29ao's caseless
steps pay a count in words that differs from the label (`小明有七个苹果\\n答案是 6。`, as rt21 noted).

Held: a hedge, scale, negation or bracket in the stranded sentence (`This isn't what we solve for.`, `In thousands, this
is ...`, `This is, roughly, ...`), anything after the box; a scale or unit word as the `there are` noun (`thousands`,
`dozens`, `percent`, `halves`, `pairs`); a condition on the box's letter in every ASCII spelling (`X`, `\\mathrm{x}`,
`\\text{x}`, `x_n`, `\\(x = ...\\)`, `$$x = ...$$`), and a box whose math names no letter (`\\theta`, `\\alpha`, `the
answer is`); a full-width `ｘ` or lone `𝑥` (refused as before); fx29ao's later words, time steps, part labels and name keys
(no new pay). Bars `|`, `\\left|`, `\\lvert`, `\\|`, `\\big|` and `(`-spellings (`\\bigl(`, `\\left[`, `\\{`) count their
products. `_plainly_real`: no call it admits was costly beside five letters (`\\Gamma(\\pi)`, `\\Gamma(e^{\\pi})`, `\\sin(10^{100})`,
`\\cos(\\pi^{\\pi^{\\pi}})`, `\\Gamma(\\frac{1}{3})\\Gamma(\\frac{2}{7})` 0.1-0.3 s), nor powers of non-real numbers it never
sees as calls (`(1+i)^{\\pi}`, `i^{i}`, `(e+i)^{e+i}` 0.2-0.7 s); a call it refuses is refused (`\\Gamma(\\tan(e))`).
"""

from __future__ import annotations

import pytest

from tests.helpers import paid_test, refused_test
from tests.helpers import number_case as n
from verifier.math.guards import MAX_FUNCTION_PRODUCTS, function_products
from verifier.math.parsing import parse_prediction

B = "\\boxed{6}"


# 1. A stranded pair whose object is not the value sought ends the sentence (fx29ap `_STRANDED_PAIRS`).
START_NEAR = [n(c) for c in [
    f"This is the number we start with. {B}", f"This is what we started with. {B}", f"That is the value we began with. {B}",
    f"This is the amount we begin with. {B}", f"This is what we work with. {B}", f"This is the number we have to work with. {B}",
    f"This is what we choose from. {B}", f"That's the total we pick from. {B}", f"This is the one we look at. {B}",
    f"This is the number they started with. {B}", f"It's the amount the problem starts with. {B}",
    f"$x = 7$. This is what we start with. {B}", f"Let's see what we start with. {B}", f"We know what we started with. {B}",
    f"This is the value we want to start with. {B}", f"That is the quantity we need to work with. {B}",
]]
test_a_start_or_an_option_is_no_result = refused_test(
    START_NEAR, """Paid in both profiles on main (refused on 40e3699): `grammar._stranded_sentence` ends a whole sentence at
    any `_STRANDED_PAIRS` pair, and `start with`, `work with`, `choose from`, `look at` name the value a problem starts
    from or its options, not the result; the bare box after it pays. The safe verdict: only a result's pair ends it.""")


# 2. The `there are` shape counts the answers; an auxiliary states a wish (fx29ap `_STRANDED_SENTENCE_RE`).
COUNT_NEAR = [n(c) for c in [
    f"There are 2 answers to choose from. {B}", f"There are two values to solve for. {B}", f"There are 3 roots to look for. {B}",
    f"There are 2 solutions to look for. {B}", f"There are 2 numbers to solve for. {B}", f"There are 6 answers to choose from. {B}",
    f"This is the answer I want to arrive at. {B}", f"This is the answer you want to end up with. {B}",
    f"This is what we will arrive at. {B}",
]]
test_a_count_of_answers_or_a_wish_is_no_statement = refused_test(
    COUNT_NEAR, """Paid in both profiles on main (refused on 40e3699): `_STRANDED_SENTENCE_RE`'s `there are` shape takes
    any counted noun, `answers`, `values`, `roots` too (the box is one of several), and `_STRANDED_RELATIVE` admits `want
    to` and `will` (a target, not a result). The safe verdict: neither ends the sentence before a bare box.""")


# 3. A box's letter written as a mathematical alphanumeric is no name (fx29ap `_box_names`).
UNICODE_NAME_NEAR = [n(c) for c in [
    f"So $a = 2$, when $x = 7$, $b = 4$, so $𝑥 + b - 4 = {B}$.", f"So $a = 2$, when $x = 7$, $b = 4$, so $y = 𝑥 - 1 = {B}$.",
    f"So $a = 2$, when $n = 2$, $b = 4$, so $x_𝑛 = {B}$.", f"So $a = 2$, if $x = 7$, $b = 4$, so $y = 𝒙 - 1 = {B}$.",
]]
test_a_condition_on_a_folded_letter_of_the_box_is_refused = refused_test(
    UNICODE_NAME_NEAR, """Paid in both profiles on main (refused on 40e3699): `grammar._box_names` keeps ASCII letters, and
    the grader folds `𝑥`, `𝒙`, `𝑛` to `x`, `n`, so the condition gives the box's own letter another value unread. The
    safe verdict: the box's letters are read as the grader folds them.""")


# 4. Brackets the function scan does not list (guards `_function_scan`, `_APPLIED_RE`).
_UNLISTED = [("\\vert ", "\\vert "), ("\\left\\vert ", "\\right\\vert "), ("\\lbrack ", "\\rbrack "), ("\\lbrace ", "\\rbrace "),
             ("\\lgroup ", "\\rgroup "), ("\\lfloor ", "\\rfloor "), ("\\lceil ", "\\rceil "), ("\\left\\lbrack ", "\\right\\rbrack ")]
_LISTED = [("(", ")"), ("|", "|"), ("\\left|", "\\right|"), ("\\lvert ", "\\rvert "), ("\\|", "\\|"), ("\\big| ", "\\big| "),
           ("\\bigl(", "\\bigr)"), ("\\left[", "\\right]"), ("\\{", "\\}"), ("\\left\\lvert ", "\\right\\rvert ")]


def _product(opener: str, closer: str, count: int = MAX_FUNCTION_PRODUCTS + 2) -> str:
    """`count` bracketed factors holding a call, joined by `\\cdot` (six: one past the bound)."""
    return " \\cdot ".join(f"{opener}\\sin({v})+1{closer}" for v in "abcdfghk"[:count])


@pytest.mark.parametrize("opener, closer", _UNLISTED)
def test_calls_in_unlisted_brackets_count_as_products(opener: str, closer: str) -> None:
    """Six such factors read 0 products and parse (`Abs`, a bracket, `floor`, `ceiling`), then take 1.7-5.1 s to compare
    against gold 1, seven `\\vert` ones 27 s (the module's docstring, class 4). Closed: `guards._delimiters_read` reads
    delimiter commands as brackets and bars; counted, and refused past the bound before math-verify parses it."""
    latex = _product(opener, closer)
    assert function_products(latex) > MAX_FUNCTION_PRODUCTS
    assert isinstance(parse_prediction(latex), str)


@pytest.mark.parametrize("opener, closer", _LISTED)
def test_calls_in_listed_brackets_count_as_products(opener: str, closer: str) -> None:
    """Held: bars (95c3256's `_bar_closes`), `\\lvert`, `\\|` and the `(`-spellings count each factor's call."""
    latex = _product(opener, closer)
    assert function_products(latex) > MAX_FUNCTION_PRODUCTS
    assert isinstance(parse_prediction(latex), str)


NOT_PLAINLY_REAL = ["\\Gamma(\\tan(e)) + a + b + c + d + f", "\\tan(\\Gamma(\\frac{1}{3})) + a + b + c + d + f"]


@pytest.mark.parametrize("latex", NOT_PLAINLY_REAL)
def test_calls_the_allowlist_does_not_admit_are_refused(latex: str) -> None:
    """Held: `_plainly_real` admits `\\tan`, `\\Gamma` only of a plainly positive argument, and `\\tan(e)`, `\\Gamma(1/3)` are
    none by shape: counted beside five letters and refused."""
    refused = parse_prediction(latex)
    assert isinstance(refused, str) and "calls of numbers not plainly real" in refused


# Pedantry: a caseless line that states a count in digits outside `_CASELESS_STEP_RE`'s shapes (fx29ao).
CASELESS_PAID = [n(c) for c in [
    "他买了3本书\n答案是 6。", "小明买了 6 个苹果\n答案是 6。", "一共是 6 个苹果\n答案是 6。", "每人 6 个苹果\n答案是 6。",
    "小明买了 2 个苹果，又买了 4 个苹果\n答案是 6。", "一共 6 个苹果\n答案是 6。", "他有 6 个苹果\n答案是 6。", "剩下 6 个苹果\n答案是 6。",
    "所以还剩 6 个\n答案是 6。", "因此她剩下 6 美元\n答案是 6。", "所以一共需要 6 小时\n答案是 6。", "他每天跑 6 公里\n答案是 6。",
    "ดังนั้นเหลือ 6 ชิ้น\nคำตอบคือ 6", "ดังนั้นรวมเป็น 6 ชิ้น\nคำตอบคือ 6", "彼は6個のリンゴを買いました\n答えは6です。",
]]
test_a_caseless_step_in_digits_pays = paid_test(
    CASELESS_PAID, """Refused in both profiles on main (paid on 40e3699): fx29ao's `grammar._caseless_statement` reads a
    line in a script without case as a statement only in `_CASELESS_STEP_RE`'s shapes, so these steps are read as the
    anchor's lead and the right answer below them states none. The safe verdict for a right answer: paid.""",
    marks=[pytest.mark.xfail(strict=True, reason="b3dcaec reverted: caseless counts pay wrong answers, red team 23")])


# Held near misses of fx29ap's admissions (each refused on main in both profiles).
STRANDED_HELD = [n(c) for c in [
    f"This isn't what we solve for. {B}", f"This is what we are not looking for. {B}", f"This is what we were never asked for. {B}",
    f"This is exactly what we do not arrive at. {B}", f"In thousands, this is what we solve for. {B}",
    f"This is what we solve for, in thousands. {B}", f"This is, roughly, what we solve for. {B}",
    f"\\text{{Maybe this is what we solve for.}} {B}", f"There are 6 thousands to choose from. {B}",
    f"There are 6 dozens to choose from. {B}", f"There are 6 percent to account for. {B}", f"There are 6 halves to account for. {B}",
    f"There are six pairs to choose from. {B}", f"There are 6 guesses to choose from. {B}",
    f"This is what we solve for. {B} thousand", f"This is what we solve for. About {B}", f"This is what we solve for. ~{B}",
    f"This is what we solve for. $x \\approx {B}$", f"This is what we solve for. \\text{{In thousands: }}{B}",
    f"This is what we solve for. {B}, not 7", f"This is what we solve for. \\boxed{{7}} and {B}",
]]
CONDITION_HELD = [n(c) for c in [
    f"So $a = 2$, when $x = 7$, $b = 4$, so $X = {B}$.", f"So $a = 2$, when $x = 7$, $b = 4$, so $\\mathrm{{x}} = {B}$.",
    f"So $a = 2$, when $x = 7$, $b = 4$, so $\\text{{x}} = {B}$.", f"So $a = 2$, when $x = 7$, $b = 4$, so \\(x = {B}\\).",
    f"So $a = 2$, when $x = 7$, $b = 4$, so $$x = {B}$$.", f"So $a = 2$, when $n = 7$, $b = 4$, so $x_n = {B}$.",
    f"So $a = 2$, when $y = 7$, $b = 4$, so $xy = {B}$.", f"So $a = 2$, when $x = 7$, $b = 4$, so $𝑥 = {B}$.",
    f"So $a = 2$, when $x = 7$, $b = 4$, so $ｘ = {B}$.", f"So $a = 2$, when $x = 7$, $b = 4$, so $\\theta = {B}$.",
    f"So $a = 2$, when $n = 2$, $b = 4$, so the answer is ${B}$.", f"So $a = 2$, when $n = 2$, $b = 4$, so $\\alpha = {B}$.",
]]
test_a_qualified_stranded_sentence_stays_open = refused_test(STRANDED_HELD)
test_a_condition_on_the_boxs_letter_stays_refused = refused_test(CONDITION_HELD)

STRANDED_PAID = [n(c) for c in [
    f"This is what we solve for. {B}", f"Thus, this is the value we were looking for. {B}",
    f"That is what we were asked to solve for. {B}", f"This was the value we had been looking for. {B}",
    f"There are 12 people to account for. {B}", f"- This is what we solve for. {B}",
]]
CONDITION_PAID = [n(c) for c in [
    f"So $a = 2$, when $n = 2$, $b = 4$, so $x = {B}$.", f"So $a = 2$, for $t = 3$, $b = 4$, so $f(x) = {B}$.",
    f"So $a = 2$, if $y = 1$, $b = 4$, so $x = b + 2 = {B}$.", f"So $a = 2$, when $x = 7$, $b = 4$, so $N = {B}$.",
]]
test_a_result_pair_pays = paid_test(STRANDED_PAID)
test_a_condition_on_another_letter_pays = paid_test(CONDITION_PAID)


# fx29aq's narrowings, in variants they were not written for (each refused), and caseless counts one step off (b3dcaec, reverted).
FX29AQ_HELD = [n(c) for c in [
    f"This is the number we started from. {B}", f"This is what we deal with. {B}", f"This is what we select from. {B}",
    f"This is what we aim for. {B}", f"This is what we hope for. {B}", f"This is what we are going to arrive at. {B}",
    f"This is what we would like to solve for. {B}", f"There are 6 integers to choose from. {B}",
    f"There are 6 ways to account for. {B}", f"There are 6 outcomes to look for. {B}", f"There are 2 cases to solve for. {B}",
    f"So $a = 2$, when $h = 7$, $b = 4$, so $ℎ = {B}$.", f"So $a = 2$, when $x = 7$, $b = 4$, so $y = 𝕩 - 1 = {B}$.",
    "他可能买了 6 本书\n答案是 6。", "他买了约 6 本书\n答案是 6。", "他没买 6 本书\n答案是 6。", "他有 6 个左右\n答案是 6。",
    "他有 6 个以上\n答案是 6。", "他有 6 打鸡蛋\n答案是 6。", "还不到 6 个\n答案是 6。", "他有6千个\n答案是 6。", "还有 6 双鞋\n答案是 6。",
    "他有 6 个苹果吗\n答案是 6。", "他会有 6 个苹果\n答案是 6。", "ดังนั้นเหลือประมาณ 6 ชิ้น\nคำตอบคือ 6", "ไม่ได้เหลือ 6 ชิ้น\nคำตอบคือ 6",
    "彼はたぶん6個のリンゴを買いました\n答えは6です。", "彼は6千個のリンゴを買いました\n答えは6です。",
]]
test_fx29aqs_narrowings_hold_in_other_words = refused_test(FX29AQ_HELD)
