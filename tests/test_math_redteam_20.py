"""Red team of issue 29's answer grammar, twentieth pass (rt29v): wrong answers the grader pays, answers that hold a
grading worker for seconds, and right answers the new rules refuse, after fx29al (`grammar._factorial`/`last_break`,
`_naming_premise` with the letter first, `_reference_clause`, `_SCRIPT_CONNECTIVES`/`_ends_script_connective`,
`_led_script_label`, `_STEP_CLAUSE_RE`'s Chinese steps, `After simplifying,`, `_caseless_statement`, `box_label` through
`anchor_lead`), fx29am (`_derivation_leads` reading every later clause, `_TIME_STEP_RE`, `_PART_CLAUSE_RE` narrowed,
`_agrees_with_box` sides, `_known_words` minus `_OPEN_ENDED`, `_subject_goes_on`, `_sentence_before` through a display
before `:`/`!`, `_first_side` after words) and fx29an (`guards._closed`/`_bare_call`, `\\Gamma` weight,
`MathLimits.max_complex_calls`). Graded by the real grader (`grade_math` through `tests.helpers.math_verdicts`) in both
profiles; every `*_NEAR` case below paid `correct` in both, and each class is a strict xfail asserting the safe verdict
until it is closed; plain tests hold what held (near misses already refused) and the rewrites a fix must keep paying.
Gold 6 unless a case says otherwise. About 2,900 candidates tried (script connectives 1,240, reference names 240,
caseless lines with a number 312, time steps 64, chain names 54, part labels 51, naming premises 159, Chinese steps,
`After`, factorials, relations, displays, labels ~300, 200 right answers in natural shapes, 40 cost shapes), one grading
process at a time, main at 23c7ac8; each paying or refused case was graded again on d1f6f73 (before fx29al) to tell
what the new rules changed.

Ranked by how bad (new or not, a natural wording, how many variants):

1. NEW (fx29al). A caseless script's connective before a box is read alone (`box_lead`'s `_ends_script_connective`
   checks the last run only), so the words before it on its line or the line above are read by no one: `The answer could
   be 所以 \\boxed{6}`, `The answer in thousands is 所以 \\boxed{6}`, `The answer divided by 1000 is ดังนั้น \\boxed{6}`, `It is
   false that 综上所述 \\boxed{6}`, `以1000为单位 所以 \\boxed{6}`, `约 因此 \\boxed{6}`, `The answer minus 1 is\\nสรุป \\boxed{6}` (133
   of 1,240: 31 leads x 10 connectives x 4 separators; 121 refused on d1f6f73, the 12 others with `于是`). Held: `Maybe 所以
   \\boxed{6}`, `I doubt that ดังนั้น \\boxed{6}`, `以千为单位 所以 \\boxed{6}`, any lead before `，`. Suggested fix: the
   connective leads only when what stands before it in its sentence leads too (`anchor_lead`, as `box_label` now reads the
   words before `答案：`).
2. NEW (fx29al). `_reference_clause`'s capitalised-name slot takes any unknown capitalised word, so a method that is a
   hedge reads as a theorem's author: `By Estimation, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$`, `By
   Guesswork, ...`, `Using Intuition, $p = 2$, so $x = \\boxed{6}$`, `Via Approximation, ...`, `By the Conjecture rule, ...`,
   `From Luck's law, ...` (129 of 240: 30 words x 8 forms; 104 refused on d1f6f73; the 25 others are a later clause, `So $a
   = 2$, by Estimation, $b = 4$, ...`, unread then, and `By Inspection`). Held: `By Roughly`, `By Thousands`, `By 1000`,
   `By Rounding`, `By Guessing` (gerunds are no names). Suggested fix: a reference names a result (`Vieta's formulas`, `the
   Law of Cosines`) or a numbered step, never a bare capitalised noun.
3. NEW (fx29al). `_naming_premise` with the letter first reads any noun phrase of LEXICON's nouns, so the letter can name
   a part or a function of the quantity asked for: `If $x$ is the units digit, then $x = 2 + 4$, so $x = \\boxed{6}$`, `...
   the sum of the digits`, `... the root of the answer`, `... the percentage of the answer`, `... the last digit of the
   total`, `... the number of digits`, `Let $x$ denote the ratio of apples` (33 of 159 paid, about 25 of them a part or a
   function; all refused on d1f6f73). Held: `half the number of apples`, `the number of thousands`, `the square of the
   answer`, `the log of the answer`, `my guess`. Suggested fix: the phrase's head noun is the quantity's kind (`number`,
   `cost`, `age`), never a part (`digit`, `root`, `percentage`, `ratio`) of another.
4. OLD (red team 19 class 3, left by fx29al). `_caseless_statement` reads a caseless line above as a statement when it
   holds a digit, whatever it says, so a hedge, a scale or a negation with a number ends there: `可能是6个\\n答案是 6。`
   (maybe 6), `不是6个\\n答案是 6。` (not 6), `以1000为单位\\n答案：\\boxed{6}` (in units of 1000), `约6个\\n答案是 6。`, `乘以1000倍
   \\n答案是 6。`, `ไม่ใช่ 6 ชิ้น\\nคำตอบคือ 6`, `たぶん6個\\n答えは6です。` (312 of 312; all paid on d1f6f73 too). Suggested fix: the
   line above is read as the label's lead unless it ends with a statement's end mark (`。`), as red team 19 suggested.
5. OLD (red team 19 class 2, left by fx29am). `_agrees_with_box` matches a chain's name to the box's as text, so the
   same name written another way gives it another value unread: `$x_{1} = 7, x_1 = \\boxed{6}$`, `$a_n = 6000, a_{n} =
   \\boxed{6}$`, `$\\dfrac{a}{b} = 7, \\frac{a}{b} = \\boxed{6}$`, `$x_{ 1 } = \\sqrt{37}, x_1 = \\boxed{6}$`, `$\\left(x\\right) =
   7, x = \\boxed{6}$`, `${{x}} = 7, x = \\boxed{6}$` (27 of 54; all paid before). Held: `x^{2}`/`x^2`, `f( 2 )`/`f(2)`.
   Suggested fix: compare names as the parser reads them (braces of a script, `\\dfrac`, `\\left`, grouping).
6. OLD (red team 19 class 1, left by fx29am). `_TIME_STEP_RE`'s change in math takes any math, so a scale reads as a
   time's step between a derivation's clauses: `So $a = 2$, after a $\\div 1000$ discount, $b = 4$, $x = \\boxed{6}$`, `...
   after a $\\times 1000$ increase, ...`, `... after the $10^3$ drop, ...`, `... after a $\\approx 6$ gain, ...` (60 of 64;
   all paid before), where `So $a = 2$, after dividing by 1000, $b = 3$, $x = \\boxed{6}$` is refused. Suggested fix: the
   change's math is a percentage or a signed amount (`$20\\%$`, `$\\$5$`), never a factor or a relation.
7. OLD. `_PART_CLAUSE_RE` reads a scale letter as a part's label: `k, $x = \\boxed{6}$`, `(M), $x = \\boxed{6}$`, `So $a =
   2$, 2k, $x = \\boxed{6}$`, `So $a = 2$, (1k), $b = 4$, $x = \\boxed{6}$` (48 of 51; all paid before). Suggested fix: a
   part's label is a letter before `)` or after `part`, never `k`, `m`, `M` or a number with one of them alone.
8. OLD (red team 19 class 9, left by fx29an). Grading time, with `function_products` 0 and under every bound: bars are
   no brackets to `_function_scan`, so calls in sums inside `|...|`, `\\left|...\\right|`, `\\lvert...\\rvert` factors are
   counted by no one (six `|\\sin(a)+1| \\cdot ...` 2.4-2.7 s as an answer, 2.3 s as a gold, seven 7.7 s; six 3.0 s on
   d1f6f73); and `_complex_calls` reads a non-real argument only where sympy writes `I`, so `\\Gamma(\\log(-1))` (parsed
   `log(-1, 10)`), `\\Gamma((-1)^{1/3})` pass: `\\Gamma(\\log(-1)) + \\Gamma(\\log(-2)) + a + b + c + d + f` 4.5 s (4.5 s on
   d1f6f73, 2.4 s as a gold), three such calls over 25 s, `\\Gamma(e + \\log(-1)) + a + ... + f` 2.8 s (strict, each in
   its own process, warm). Suggested fix: bars open a bracket for `_function_scan`; a call's argument is non-real when it
   holds a logarithm or a fractional power of a negative number, or when `is_extended_real` is not True.

Right answers the new rules refuse (pedantry; each paid on d1f6f73 and is refused in both profiles now):
- fx29am's `_OPEN_ENDED` holds LEXICON's prepositions, so a sentence that ends in a stranded preposition no longer ends
  at its period: `There are 6 people to choose from. \\boxed{6}`, `This is what the problem asks for. \\boxed{6}`, `This
  is the number we solve for. \\boxed{6}` (11 of 16);
- fx29am's `_derivation_leads` refuses a later clause of connectives and conditions that natural derivations use:
  `We get $a = 2$, and then, $b = 4$, so $x = \\boxed{6}$.`, `..., that is, ...`, `..., i.e., ...`, `..., moreover, ...`,
  `..., and by symmetry, ...`, `..., when $n = 2$, ...`, `Solving, $a = 2$, plugging back, $b = 4$, ...` (20 of about 55);
- fx29al's `_caseless_statement` reads a caseless line of words with no digit as a lead, so a line of Chinese or Thai
  that states a step in words refuses the label below it: `小明有两个苹果，小红有四个苹果\\n答案是 6。` (numbers written as
  words), `把两个数相加\\n答案是 6。`, `合计\\n答案是 6。`, `ดังนั้นผลรวมคือหก\\nคำตอบคือ 6` (10 of 11);
- fx29am's `_TIME_STEP_RE` lists a time's preposition before a day's name or a time word only, so a word problem's time
  between two steps refuses the derivation: `So $a = 2$, after 3 years, $b = 4$, so the total is $\\boxed{6}$.`, `...
  after two weeks, ...`, `... in the second year, ...`, `... after that, ...`, `... afterwards, ...`, `... later, ...`
  (16 of 21; `Initially $a = 2$, after 3 years, ...` was refused on d1f6f73 too);
- `所以 \\boxed{6}`, `所以\\n\\boxed{6}`, `因此 \\boxed{6}`, the shapes `_SCRIPT_CONNECTIVES`' docstring names, stay refused when the
  connective opens the text (refused on d1f6f73 too; `故 \\boxed{6}`, `ดังนั้น \\boxed{6}` and class 1's `约 因此 \\boxed{6}` pay).

Noted, not counted: a step clause's value is not read (`We get $x = 6000$, so the answer is 6`, `解得 $x \\approx 6$，所以答案是
6。` pay, both on d1f6f73 in English; fx29al's Chinese steps follow the English design); a glued `!` after a display
no longer ends a sentence but `\\[a\\] !`, `\\[a\\]!!`, `\\[a\\]！` do (as `$a$! \\boxed{6}` does, the sentence rule's design); a
lone method participle after `After`/`Upon` pays as it pays alone (`Dividing, the answer is` paid on d1f6f73); marks
before `答案：` (`- 答案：`, `> 答案：`, `! 答案：`) paid on d1f6f73 too; `_subject_goes_on`, `_first_side` after words and
`_led_script_label` held every near miss tried (~90); factorials inside math held (`I doubt that $3! = 6$, so ...`);
`$\\text{Wrong}! \\quad x = \\boxed{6}$` and `$\\text{not 6}! \\\\ \\boxed{6}$` pay, as without `!`, on d1f6f73 too. Natural
answers refused on both commits (not counted as new): `The value of $x$ satisfying the equation is \\boxed{6}.`, `Plugging
in $x = 2$ gives \\boxed{6}.`, `Let $x$ be the number of students in the class, then ...`, `By the binomial theorem, $a =
2$, so ...`, `From (1), $a = 2$, so ...`.
"""

from __future__ import annotations

import pytest

from tests.helpers import paid_test, refused_test
from tests.helpers import number_case as n

OPEN = "open: {} (rt29v)"


def _open(what: str) -> list:
    return [pytest.mark.xfail(strict=True, reason=OPEN.format(what))]


# 1. A caseless connective before a box is read without the words before it.
CONNECTIVE_NEAR = [n(c) for c in [
    "The answer could be 所以 \\boxed{6}", "The answer in thousands is 所以 \\boxed{6}", "The answer divided by 1000 is ดังนั้น \\boxed{6}",
    "It is false that 综上所述 \\boxed{6}", "以1000为单位 所以 \\boxed{6}", "约 因此 \\boxed{6}", "The answer minus 1 is\nสรุป \\boxed{6}",
    "The answer in thousands is\n因此 \\boxed{6}", "The answer could be だから \\boxed{6}", "约\n故 \\boxed{6}", "The wrong answer 故 \\boxed{6}",
    "The answer divided by 1000 is সুতরাং \\boxed{6}",
]]
CONNECTIVE_HELD = [n(c) for c in [
    "Maybe 所以 \\boxed{6}", "I doubt that ดังนั้น \\boxed{6}", "以千为单位 所以 \\boxed{6}", "Not\n所以 \\boxed{6}", "可能 所以 \\boxed{6}",
    "The answer could be，所以 \\boxed{6}", "The answer in thousands is, 因此 \\boxed{6}", "อาจจะ ดังนั้น \\boxed{6}",
]]
CONNECTIVE_PAID = [n(c) for c in ["ดังนั้น \\boxed{6}", "ดังนั้น\n\\boxed{6}", "故 \\boxed{6}", "因此，答案是 \\boxed{6}"]]
CONNECTIVE_ALONE = [n(c) for c in [
    "所以 \\boxed{6}", "因此 \\boxed{6}", "所以\n\\boxed{6}", "因此\n\\boxed{6}", "综上所述 \\boxed{6}", "所以，\\boxed{6}", "所以 $\\boxed{6}$",
]]
test_the_words_before_a_caseless_connective_are_read = refused_test(
    CONNECTIVE_NEAR, """Paid in both profiles since fx29al (121 refused on d1f6f73): `grammar.box_lead` takes a box's
    prefix that ends with one of `_SCRIPT_CONNECTIVES` as a lead (`_ends_script_connective` reads the last run only), so a
    hedge, scale or negation before the connective is read by no one. The safe verdict: the connective leads only when
    what stands before it leads too. Closed by the lead after red team 20: `_ends_script_connective` reads the connective only where it opens its statement.""")
test_a_hedge_before_a_caseless_connective_stays_refused = refused_test(CONNECTIVE_HELD)
test_a_caseless_connective_alone_pays = paid_test(CONNECTIVE_PAID)
test_fx29als_own_connective_shapes_pay = paid_test(
    CONNECTIVE_ALONE, """Refused in both profiles, on d1f6f73 too: `所以 \\boxed{6}` and `所以\\n\\boxed{6}`, the shapes
    `_SCRIPT_CONNECTIVES`' docstring names, are refused when the connective opens the text, while `故 \\boxed{6}` and `约 因此
    \\boxed{6}` (a near miss, class 1) pay.""", marks=_open("a Chinese connective opening the text"))


# 2. A reference clause's name slot takes any capitalised noun.
REFERENCE_NEAR = [n(c) for c in [
    "By Estimation, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.",
    "By Guesswork, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.", "Using Intuition, $p = 2$, so $x = \\boxed{6}$.",
    "Via Approximation, $p = 2$, so $x = \\boxed{6}$.", "By the Conjecture rule, $p = 2$, so $x = \\boxed{6}$.",
    "From Luck's law, $p = 2$, so $x = \\boxed{6}$.", "By Extrapolation, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.",
    "By Speculation, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.", "Using Estimates, $p = 2$, so $x = \\boxed{6}$.",
    "By the Approximation theorem, $p = 2$; hence $p + q = \\boxed{6}$.", "So $a = 2$, by Guesswork, $b = 4$, $x = \\boxed{6}$",
]]
REFERENCE_HELD = [n(c) for c in [
    "By Roughly, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.", "By Thousands, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.",
    "By 1000, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.", "By Rounding, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.",
    "By Guessing, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.",
]]
REFERENCE_PAID = [n(c) for c in [
    "By Vieta, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.", "By Vieta's formulas, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.",
    "From step 1, $a = 2$; from step 2, $b = 4$; so $a + b = \\boxed{6}$.", "Using equation (2), $a = 2$; from step 3, $b = 4$; so $a + b = \\boxed{6}$.",
    "By the Pythagorean theorem, $c = 5$, so $x = \\boxed{6}$.",
]]
test_a_reference_names_a_result_not_a_hedge = refused_test(
    REFERENCE_NEAR, """Paid in both profiles since fx29al (104 of 129 refused on d1f6f73): `grammar._reference_clause`
    takes any capitalised word `_is_name` admits as a result's author, so `By Estimation`, `By Guesswork`, `Using
    Intuition` open a derivation as `By Vieta` does. The safe verdict: a reference names a result or a numbered step. Closed by the lead after red team 20: `_reference_clause` names only `_REFERENCE_NAMES`.""",)
test_a_reference_to_a_scale_or_a_gerund_stays_refused = refused_test(REFERENCE_HELD)
test_a_reference_to_a_result_pays = paid_test(REFERENCE_PAID)


# 3. A naming premise with the letter first names a part or a function of the quantity.
PREMISE_NEAR = [n(c) for c in [
    "If $x$ is the units digit, then $x = 2 + 4$, so $x = \\boxed{6}$.", "If $x$ is the sum of the digits, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "If $x$ is the root of the answer, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "If $x$ is the percentage of the answer, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "If $x$ is the last digit of the total, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "If $x$ is the number of digits, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "Let $x$ denote the ratio of apples, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "If $x$ is the digit sum of the answer, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "If $x$ is the root of the total, then $x = 2 + 4$, so $x = \\boxed{6}$.",
]]
PREMISE_HELD = [n(c) for c in [
    "If $x$ is half the number of apples, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "If $x$ is the number of thousands, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "If $x$ is the square of the answer, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "If $x$ is the log of the answer, then $x = 2 + 4$, so $x = \\boxed{6}$.", "If $x$ is my guess, then $x = 2 + 4$, so $x = \\boxed{6}$.",
]]
PREMISE_PAID = [n(c) for c in [
    "If $x$ is the number of apples, then $x = 2 + 4$, so $x = \\boxed{6}$.", "Let $x$ be the number of apples, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "Suppose $n$ denotes the total cost, then $n = 2 + 4$, so $n = \\boxed{6}$.",
]]
test_a_naming_premise_names_the_quantity_itself = refused_test(
    PREMISE_NEAR, """Paid in both profiles since fx29al (refused on d1f6f73): `grammar._naming_premise`'s letter-first
    form (`_NAMED_PREMISE_RE`) reads any noun phrase of LEXICON's nouns, so the letter names a digit, a root, a
    percentage or a ratio of the quantity asked for, and the box gives that. The safe verdict: the phrase names the
    quantity's kind, never a part or a function of another. Closed by the lead after red team 20: `_named_quantity`'s allowlist of quantity nouns.""")
test_a_naming_premise_of_a_scale_or_a_guess_stays_refused = refused_test(PREMISE_HELD)
test_a_naming_premise_of_the_quantity_pays = paid_test(PREMISE_PAID)


# 4. A caseless line above that holds a digit is a statement whatever it says.
CASELESS_NUMBER_NEAR = [n(c) for c in [
    "可能是6个\n答案是 6。", "不是6个\n答案是 6。", "以1000为单位\n答案：\\boxed{6}", "约6个\n答案是 6。", "乘以1000倍\n答案是 6。",
    "ไม่ใช่ 6 ชิ้น\nคำตอบคือ 6", "たぶん6個\n答えは6です。", "以 1000 为单位\n\n所以答案是 6。", "答案不是 6 个\n答案：\\boxed{6}",
    "除以1000之后\n因此答案为 $\\boxed{6}$。", "也许是6个\n答案是 6。", "至少6个\n答案是 6。",
]]
CASELESS_NUMBER_HELD = [n(c) for c in [
    "以千为单位\n答案是 6。", "可能\n答案是 6。", "不是\n答案：\\boxed{6}", "乘以 1000\n答案是 6。",
]]
CASELESS_NUMBER_PAID = [n(c) for c in [
    "小明一共有 6 个苹果\n所以答案是 6。", "2 + 4 = 6。\n答案是 6。", "小明有 2 个苹果，小红有 4 个苹果\n答案是 6。",
]]
test_a_caseless_line_with_a_number_is_read_with_the_label = refused_test(
    CASELESS_NUMBER_NEAR, """Paid in both profiles, on d1f6f73 too (red team 19 class 3, left by fx29al):
    `grammar._caseless_statement` reads a line above a caseless label as its own statement when it holds a digit, so
    `可能是6个` (maybe 6), `不是6个` (not 6), `以1000为单位` (in units of 1000) end there. The safe verdict: the line above is
    the label's lead unless it ends with a statement's end mark. Closed by fx29ao: a digit makes no statement; the line
    is one when each clause is a step of `_CASELESS_STEP_RE` or a sum (`_CASELESS_SUM_RE`).""")
test_a_caseless_line_of_words_stays_refused = refused_test(CASELESS_NUMBER_HELD)
test_a_caseless_statement_with_a_number_pays = paid_test(CASELESS_NUMBER_PAID)
CASELESS_STEP_NEAR = [n(c) for c in [
    "小明可能有 6 个苹果\n答案是 6。", "约 2 + 4 = 6 个\n答案是 6。", "不是 2 + 4 = 6 个\n答案是 6。", "2 + 4 = 6000 个\n答案是 6。",
    "小明有 6000 个苹果\n答案是 6。",
]]
CASELESS_STEP_PAID = [n(c) for c in [
    "2 + 4 = 6 个\n答案是 6。", "小红有 4 个苹果\n答案是 6。", "因此总共有 6 个\n答案：\\boxed{6}", "2 + 4 = 6 ชิ้น\nคำตอบคือ 6",
]]
test_a_caseless_line_off_the_steps_stays_refused = refused_test(CASELESS_STEP_NEAR)
test_a_caseless_step_or_sum_pays = paid_test(CASELESS_STEP_PAID)
FX29AO_COST = [n(c) for c in [
    "罗杰有 5 个网球\n答案是 6。", "小明有 8 个苹果，吃了 2 个\n答案是 6。", "a, $x = \\boxed{6}$", "So $a = 2$, b, $x = \\boxed{6}$",
]]
test_right_answers_fx29ao_refuses = paid_test(
    FX29AO_COST, """Paid on 67ee4aa, refused in both profiles since fx29ao (chosen): a caseless line with a digit is a
    statement only in `_CASELESS_STEP_RE`'s or `_CASELESS_SUM_RE`'s shapes (a name or noun outside their lists, a clause
    of another verb), and a part's label needs `part` or `)` (red team 20 class 7's suggestion), so a bare letter before
    a comma is read as a word.""", marks=_open("right answers refused by fx29ao's allowlists"))


# 5. A chain's name written another way.
NAME_NEAR = [n(c) for c in [
    "$x_{1} = 7, x_1 = \\boxed{6}$", "$x_1 = 6000, x_{1} = \\boxed{6}$", "$a_n = 6000, a_{n} = \\boxed{6}$", "$a_{n} = \\sqrt{37}, a_n = \\boxed{6}$",
    "$\\dfrac{a}{b} = 7, \\frac{a}{b} = \\boxed{6}$", "$x_{ 1 } = \\sqrt{37}, x_1 = \\boxed{6}$", "$\\left(x\\right) = 7, x = \\boxed{6}$",
    "${{x}} = 7, x = \\boxed{6}$", "$(x) = 6000, x = \\boxed{6}$",
]]
NAME_HELD = [n(c) for c in [
    "$x_1 = 7, x_1 = \\boxed{6}$", "$x = 7, x = \\boxed{6}$", "${x} = 7, x = \\boxed{6}$", "$f( 2 ) = 7, f(2) = \\boxed{6}$",
]]
NAME_PAID = [n(c) for c in [
    "$x_{1} = 2 + 4, x_{1} = \\boxed{6}$", "$a_n = \\sqrt{36}, a_n = \\boxed{6}$", "$x_{1} = 7, x_{2} = \\boxed{6}$",
]]
test_a_chains_name_is_compared_as_read = refused_test(
    NAME_NEAR, """Paid in both profiles, on d1f6f73 too (red team 19 class 2, left by fx29am): `grammar._agrees_with_box`
    matches a chain's sides to the box's as text with spaces stripped, so `x_{1}` and `x_1`, `\\dfrac` and `\\frac`,
    `(x)` and `x` are other names and the chain's other value is unread. The safe verdict: names compared as parsed.
    Closed by fx29ao: `grammar._name_key` reads a side's name as the parser does.""")
test_a_chains_name_in_the_same_spelling_stays_refused = refused_test(NAME_HELD)
test_a_chain_of_the_same_value_or_another_name_pays = paid_test(NAME_PAID)
NAME_KEY_NEAR = [n(c) for c in [
    "$x^{2} = 7, x^2 = \\boxed{6}$", "$\\tfrac{a}{b} = 7, \\frac{a}{b} = \\boxed{6}$", "${(x)} = 7, x = \\boxed{6}$",
]]
NAME_KEY_PAID = [n(c) for c in [
    "$x_{1} = 6, x_1 = \\boxed{6}$", "$(x) = 2 + 4, x = \\boxed{6}$", "$\\dfrac{a}{b} = \\frac{12}{2}, \\frac{a}{b} = \\boxed{6}$",
    "$x_{12} = 7, x_1 = \\boxed{6}$", "$(x)(y) = 7, x = \\boxed{6}$",
]]
test_a_chains_name_in_other_spellings_stays_refused = refused_test(NAME_KEY_NEAR)
test_a_chain_read_by_name_pays = paid_test(NAME_KEY_PAID)


# 6. A time step's change in math carries a scale.
TIME_NEAR = [n(c) for c in [
    "So $a = 2$, after a $\\div 1000$ discount, $b = 4$, $x = \\boxed{6}$", "So $a = 2$, after a $\\times 1000$ increase, $b = 4$, $x = \\boxed{6}$",
    "We get $a = 2$, after the $10^3$ drop, $b = 4$, so $x = \\boxed{6}$", "So $a = 2$, after a $\\approx 6$ gain, $b = 4$, $x = \\boxed{6}$",
    "So $a = 2$, after the $\\times 10^{-3}$ rise, $b = 4$, the answer is $\\boxed{6}$",
    "If its initial value was $x$, after a $1000\\times$ markup, its value is $6$, so $x = \\boxed{6}$",
]]
TIME_HELD = [n(c) for c in [
    "So $a = 2$, after dividing by 1000, $b = 3$, $x = \\boxed{6}$", "So $a = 2$, after a $\\times 1000$ increase, $x = \\boxed{6}$",
    "So $a = 2$, in thousands, $b = 3$, $x = \\boxed{6}$",
]]
TIME_PAID = [n(c) for c in [
    "So $a = 2$, on Monday, $b = 4$, $x = \\boxed{6}$", "We get $a = 2$, after Monday, $b = 4$, so $x = \\boxed{6}$",
    "So $a = 2$, after a $20\\%$ discount, $b = 4$, $x = \\boxed{6}$",
]]
test_a_time_steps_change_is_no_scale = refused_test(
    TIME_NEAR, """Paid in both profiles, on d1f6f73 too (red team 19 class 1, left by fx29am): `grammar._TIME_STEP_RE`
    takes any math before `increase`, `discount`, `drop`, so `after a $\\div 1000$ discount` reads as a time's step where
    `after dividing by 1000` is refused. The safe verdict: the change's math is a percentage or an amount.
    Closed by fx29ao: the change's math is a percentage or a dollar amount alone.""")
test_a_scale_between_steps_stays_refused = refused_test(TIME_HELD)
test_a_time_step_pays = paid_test(TIME_PAID)


# 7. A scale letter read as a part's label.
PART_NEAR = [n(c) for c in [
    "k, $x = \\boxed{6}$", "(M), $x = \\boxed{6}$", "So $a = 2$, 2k, $x = \\boxed{6}$", "So $a = 2$, (1k), $b = 4$, $x = \\boxed{6}$",
    "So $a = 2$, m, $b = 4$, $x = \\boxed{6}$", "for part k, $x = \\boxed{6}$",
]]
PART_HELD = [n(c) for c in [
    "So $a = 2$, not, $x = \\boxed{6}$", "So $a = 2$, and, $x = \\boxed{6}$", "So $a = 2$, mm, $x = \\boxed{6}$",
]]
PART_PAID = [n(c) for c in [
    "So $a = 2$, for part (b), $x = \\boxed{6}$", "(ii), $x = \\boxed{6}$", "For part 3b, $x = \\boxed{6}$",
]]
test_a_parts_label_is_no_scale_letter = refused_test(
    PART_NEAR, """Paid in both profiles, on d1f6f73 too: `grammar._PART_CLAUSE_RE` (narrowed by fx29am) still takes
    any letter or a number and a letter, so `k`, `M`, `2k` read as a part's label before the box's clause. The safe
    verdict: a part's label is never a scale letter alone. Closed by fx29ao: a part's label stands after `part` or
    before `)`, never `k` or `m` alone or after a number.""")
test_a_word_as_a_parts_label_stays_refused = refused_test(PART_HELD)
test_a_parts_label_pays = paid_test(PART_PAID)
PART_LABEL_NEAR = [n(c) for c in [
    "So $a = 2$, (K), $b = 4$, $x = \\boxed{6}$", "So $a = 2$, 3m), $b = 4$, $x = \\boxed{6}$", "So $a = 2$, b, $x = \\boxed{6}$",
    "So $a = 2$, 12, $x = \\boxed{6}$", "For part (k), the answer is \\boxed{6}", "For part km, the answer is \\boxed{6}",
]]
PART_LABEL_PAID = [n(c) for c in [
    "For part (c), $x = \\boxed{6}$", "(a), $x = \\boxed{6}$", "a), $x = \\boxed{6}$", "Part 2, $x = \\boxed{6}$",
    "For part (iii), the answer is \\boxed{6}", "For part 2, the answer is \\boxed{6}",
]]
test_a_bare_or_scale_label_stays_refused = refused_test(PART_LABEL_NEAR)
test_a_parts_label_in_other_shapes_pays = paid_test(PART_LABEL_PAID)


# 8. Cost: calls in bar factors; non-real arguments without `i`.
_LETTERS = "abcdefghij"


def _chain(call: str, sign: str, calls: int) -> str:
    return f" {sign} ".join(call.format(v=v) for v in _LETTERS[:calls])


COSTLY = [
    _chain("|\\sin({v})+1|", "\\cdot", 6), _chain("\\left|\\sin({v})+1\\right|", "\\cdot", 6),
    _chain("\\lvert\\sin({v})+1\\rvert", "\\cdot", 6), _chain("|\\sin({v}) - {v}|", "\\cdot", 6),
    "\\Gamma(\\log(-1)) + \\Gamma(\\log(-2)) + a + b + c + d + f", "\\Gamma(e + \\log(-1)) + a + b + c + d + f",
    "\\sin(\\log(-1)) + \\sin(\\log(-2)) + a + b + c + d + f",
]


@pytest.mark.parametrize("answer", COSTLY)
def test_calls_in_bars_and_non_real_arguments_are_bounded(answer: str) -> None:
    """1.7-7.7 s each as an answer (2.3-2.4 s as a gold; strict, one process, warm), three `\\Gamma(\\log(-k))` over 25 s,
    when `function_products` read 0 (bars opened no bracket in `_function_scan`) and `_complex_calls` counted only
    arguments that hold `I` (`\\log(-1)` parses as `log(-1, 10)`). Closed: a bar brackets its calls (`_bar_closes`), and
    a call of numbers counts unless `_plainly_real`. Refused before comparing, by a count."""
    from verifier.math.parsing import parse_prediction

    assert isinstance(parse_prediction(answer), str)


@pytest.mark.parametrize("answer", [
    _chain("\\left(\\sin({v})+1\\right)", "\\cdot", 6), _chain("((\\sin({v})+1))", "\\cdot", 6), _chain("[\\sin({v})+1]", "\\cdot", 6),
    _chain("\\sqrt{{\\sin({v})+1}}", "\\cdot", 6), _chain("(\\sin({v})+1)", "\\div", 6), _chain("\\Gamma\\left({v}\\right)", "+", 9),
    _chain("Γ({v})", "+", 9), "\\Gamma(e+i) + a + b + c + d + f",
])
def test_calls_in_brackets_and_gamma_spellings_stay_bounded(answer: str) -> None:
    """What fx29an bounds, in other spellings: `\\left(`, doubled and square brackets, `\\sqrt{}`, `\\div` factors;
    `\\Gamma\\left(a\\right)` and `Γ(a)` sums; `\\Gamma(e+i)` among five letters (0.1-0.3 s, refused)."""
    from verifier.math.parsing import parse_prediction

    assert isinstance(parse_prediction(answer), str)


# Right answers the new rules refuse (pedantry): each paid on d1f6f73 (before fx29al); all paid since fx29ao.
PEDANTRY = [n(c) for c in [
    # fx29am's `_OPEN_ENDED`: a sentence that ends in a stranded preposition
    "There are 6 people to choose from. \\boxed{6}", "This is what the problem asks for. \\boxed{6}",
    "This is the number we solve for. \\boxed{6}", "That is exactly what we were asked for. \\boxed{6}",
    "Let's see what we end up with. \\boxed{6}", "Now we know what to look for. \\boxed{6}",
    "Let us figure out what it adds up to. \\boxed{6}", "This is the answer we arrive at. \\boxed{6}",
    "We found what we were looking for. \\boxed{6}", "That's everything we need to account for. \\boxed{6}",
    # fx29am's `_derivation_leads`: a later clause of a connective or a condition
    "We get $a = 2$, and then, $b = 4$, so $x = \\boxed{6}$.", "We get $a = 2$, that is, $b = 4$, so $x = \\boxed{6}$.",
    "We get $a = 2$, i.e., $b = 4$, so $x = \\boxed{6}$.", "We get $a = 2$, moreover, $b = 4$, so $x = \\boxed{6}$.",
    "We get $a = 2$, additionally, $b = 4$, so $x = \\boxed{6}$.", "We get $a = 2$, and by symmetry, $b = 4$, so $x = \\boxed{6}$.",
    "We get $a = 2$, and hence, $b = 4$, so $x = \\boxed{6}$.", "We get $a = 2$, and so, $b = 4$, so $x = \\boxed{6}$.",
    "We get $a = 2$, and from this, $b = 4$, so $x = \\boxed{6}$.", "We get $a = 2$, and in the same way, $b = 4$, so $x = \\boxed{6}$.",
    "We get $a = 2$, when $n = 2$, $b = 4$, so $x = \\boxed{6}$.", "We get $a=2$, for $n = 2$, $b = 4$, so $x = \\boxed{6}$.",
    "We get $a = 2$, and if $n = 2$, $b = 4$, so $x = \\boxed{6}$.", "We get $a = 2$, for the second, $b = 4$, so $x = \\boxed{6}$.",
    "So $a = 2$, and similarly, $b = 4$, hence $x = \\boxed{6}$.", "We have $a = 2$, and, similarly, $b = 4$, so $x = \\boxed{6}$.",
    "Solving, $a = 2$, plugging back, $b = 4$, so $x = \\boxed{6}$.", "Solving, $a = 2$, and substituting back, $b = 4$, so $x = \\boxed{6}$.",
    # fx29am's `_TIME_STEP_RE`: a word problem's time between a derivation's steps, outside its list
    "So $a = 2$, after 3 years, $b = 4$, so the total is $\\boxed{6}$.", "So $a = 2$, after two weeks, $b = 4$, so the total is $\\boxed{6}$.",
    "So $a = 2$, after 2 hours, $b = 4$, so the total is $\\boxed{6}$.", "So $a = 2$, after the first hour, $b = 4$, so the total is $\\boxed{6}$.",
    "So $a = 2$, in the second year, $b = 4$, so the total is $\\boxed{6}$.", "So $a = 2$, after that, $b = 4$, so the total is $\\boxed{6}$.",
    "So $a = 2$, afterwards, $b = 4$, so the total is $\\boxed{6}$.", "So $a = 2$, later, $b = 4$, so the total is $\\boxed{6}$.",
    "So $a = 2$, after the first sale, $b = 4$, so the total is $\\boxed{6}$.", "So $a = 2$, by the end of the week, $b = 4$, so the total is $\\boxed{6}$.",
    # fx29al's `_caseless_statement`: a caseless line of words that states a step
    "小明有两个苹果，小红有四个苹果\n答案是 6。", "所以一共有六个苹果\n答案是 6。", "把两个数相加\n答案是 6。", "计算总数\n答案是 6。",
    "验证一下\n答案是 6。", "合计\n答案是 6。", "我们把所有苹果加起来\n答案是 6。", "ดังนั้นผลรวมคือหก\nคำตอบคือ 6",
    "两数相加得六\n答案：\\boxed{6}", "因此总共有六个\n\n答案：\\boxed{6}",
]]
test_right_answers_the_new_rules_refuse = paid_test(
    PEDANTRY, """Refused in both profiles since fx29al-fx29am, paid on d1f6f73: a period after a stranded preposition
    (`_OPEN_ENDED` holds LEXICON's prepositions), a derivation's later clause of a connective (`and then`, `that is`,
    `moreover`, `and by symmetry`) or a condition (`when $n = 2$`), and a caseless line that states a step in words
    (`_caseless_statement` asks for a digit), a word problem's time outside `_TIME_STEP_RE` (`after 3 years`, `later`).
    A grader that refuses right answers is wrong too. Closed by fx29ao: `_STRANDED_END_RE`'s verb and preposition pairs,
    `_later_words` and `_later_step` (`_LATER_CLAUSE_RE`, `_RESTATING_RE`, `_CONDITION_STEP_RE`), `_TIME_STEP_RE`'s
    counts and ordinals of a time's unit, and `_CASELESS_STEP_RE`.""")
# fx29ao's rules one step off (each refused in both profiles), and its rules in other words (each paid).
STRANDED_HELD = [n(c) for c in [
    "The answer is less than. \\boxed{6}", "The answer is divided by. \\boxed{6}", "The answer is up to. \\boxed{6}",
    "The answer is correct up to. \\boxed{6}", "The answer is what we multiply by. \\boxed{6}",
    "The answer is what we divide by. \\boxed{6}", "The answer is a multiple of. \\boxed{6}", "The answer is at least. \\boxed{6}",
    "The sum is per. $x = \\boxed{6}$",
]]
LATER_CLAUSE_HELD = [n(c) for c in [
    "So $a = 2$, that is, in thousands, $b = 4$, $x = \\boxed{6}$", "So $a = 2$, that is, maybe $b = 4$, $x = \\boxed{6}$",
    "So $a = 2$, that is roughly $b = 4$, $x = \\boxed{6}$", "So $a = 2$, and, maybe, $b = 4$, $x = \\boxed{6}$",
    "So $a = 2$, and roughly, $b = 4$, $x = \\boxed{6}$", "So $a = 2$, and maybe, $b = 4$, $x = \\boxed{6}$",
    "So $a = 2$, and in thousands, $b = 4$, $x = \\boxed{6}$", "So $a = 2$, and, $b = 4$, $x = \\boxed{6}$",
    "So $a = 2$, for $n = 2$, $x = \\boxed{6}$", "So $a = 2$, when $n = 2$, the answer is \\boxed{6}",
    "So $a = 2$, if $n = 1000$, $x = \\boxed{6}$", "So $a = 2$, for $n$ odd, $b = 4$, $x = \\boxed{6}$",
    "So $a = 2$, if $n > 2$, $b = 4$, $x = \\boxed{6}$", "So $a = 2$, when $n \\approx 2$, $b = 4$, $x = \\boxed{6}$",
    "So $a = 2$, for the thousandth, $b = 4$, $x = \\boxed{6}$",
]]
TIME_WORDS_HELD = [n(c) for c in [
    "So $a = 2$, after 3 thousands, $b = 4$, $x = \\boxed{6}$", "So $a = 2$, in 1000s, $b = 4$, $x = \\boxed{6}$",
    "So $a = 2$, in the second, $b = 4$, $x = \\boxed{6}$", "So $a = 2$, after the second, $b = 4$, so the total is $\\boxed{6}$.",
    "So $a = 2$, after a thousand years, $b = 4$, so the total is $\\boxed{6}$.",
    "So $a = 2$, by the end of the thousand, $b = 4$, so the total is $\\boxed{6}$.",
    "So $a = 2$, after 1000, $b = 4$, so the total is $\\boxed{6}$.", "So $a = 2$, later, maybe, $b = 4$, $x = \\boxed{6}$",
    "So $a = 2$, after a $20 \\times 1000$ discount, $b = 4$, $x = \\boxed{6}$",
]]
CASELESS_WORDS_HELD = [n(c) for c in [
    "可能有六个\n答案是 6。", "小明可能有六个苹果\n答案是 6。", "没有六个\n答案是 6。", "小明没有六个苹果\n答案是 6。", "有六千个\n答案是 6。",
    "小明有六千个苹果\n答案是 6。", "把两个数相乘\n答案是 6。", "两数相加得六千\n答案是 6。", "ผลรวมคือหกพัน\nคำตอบคือ 6",
    "ดังนั้นผลรวมคืออาจจะหก\nคำตอบคือ 6", "不是合计\n答案是 6。", "合计约\n答案是 6。", "小明有两个苹果，可能\n答案是 6。",
    "小明有两个苹果，小红有四个苹果，不是\n答案是 6。", "小于有六个\n答案是 6。",
]]
test_a_preposition_after_another_verb_stays_open = refused_test(STRANDED_HELD)
test_a_later_clause_that_hedges_scales_or_conditions_the_box_stays_refused = refused_test(LATER_CLAUSE_HELD)
test_a_time_step_without_a_times_unit_stays_refused = refused_test(TIME_WORDS_HELD)
test_a_caseless_line_of_words_outside_the_steps_stays_refused = refused_test(CASELESS_WORDS_HELD)
REWRITES_PAID = [n(c) for c in [
    "There are 10 books to pick from. \\boxed{6}", "This is what we were searching for. \\boxed{6}",
    "We get $a = 2$, furthermore, $b = 4$, so $x = \\boxed{6}$.", "We get $a = 2$, i.e. $b = 4$, so $x = \\boxed{6}$.",
    "So $a = 2$, after 3 minutes, $b = 4$, so the total is $\\boxed{6}$.", "So $a = 2$, on the next Monday, $b = 4$, so the total is $\\boxed{6}$.",
    "So $a = 2$, after a $\\$5$ discount, $b = 4$, $x = \\boxed{6}$", "So $a = 2$, after a 20% discount, $b = 4$, $x = \\boxed{6}$",
    "小红一共有六个苹果\n答案是 6。", "我们把两个数相加\n答案是 6。",
]]
test_fx29aos_rules_in_other_words_pay = paid_test(REWRITES_PAID)
NATURAL_PAID = [n(c) for c in [
    "So $a = 2$, then $b = 4$, so $x = \\boxed{6}$.", "We get $a = 2$, hence $b = 4$, so $x = \\boxed{6}$.",
    "This is the value we were looking for. The answer is \\boxed{6}.", "小明一共有 6 个苹果\n所以答案是 6。", "所以\n答案是 6。",
    "We have $3! = 6$, so the answer is \\boxed{6}.", "After simplifying, the expression equals\n$$\\boxed{6}$$",
]]
test_right_answers_in_natural_shapes_pay = paid_test(NATURAL_PAID)
