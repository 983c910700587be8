"""Red team of issue 29's answer grammar, twenty-first pass (rt29w): wrong answers fx29ao's new admissions pay
(`_STRANDED_END_RE`, `_later_words`/`_later_step` with `_CONDITION_STEP_RE` and `_RESTATING_RE`, `_TIME_STEP_RE`'s
counts, events and `later`, `_CASELESS_STEP_RE`/`_CASELESS_SUM_RE`, `_name_key`, `_PART_CLAUSE_RE`). Graded by the real
grader (`grade_math` through `tests.helpers.math_verdicts`) in both profiles, one process at a time; every `*_NEAR`
case below paid `correct` in both on fx29ao (1f2bbc6) and was refused in both on main (67ee4aa), and each class is a
strict xfail asserting the safe verdict until it is closed (both closed by fx29ap, below); plain tests hold what held (near misses fx29ao refuses) and
the rewrites a fix must keep paying. Gold 6. About 170 candidates tried.

Ranked by how bad:

1. NEW (fx29ao `_STRANDED_END_RE`). `period_ends` ends a sentence at a period after any listed verb and preposition
   pair, whatever the sentence says, so a hedge, a scale, a negation or an operation before the pair is read by no one
   and a bare box after it pays: `The answer in thousands is what we end up with. \\boxed{6}`, `The answer divided by 1000
   is what we solve for. \\boxed{6}`, `The answer is not the number we arrive at. \\boxed{6}`, `Maybe this is what we arrive
   at. \\boxed{6}`, `A thousand times what we come up with. \\boxed{6}` (20 of 20 tried; all refused on 67ee4aa). Held: a
   preposition outside the pairs (`... what we divide by.`, `... multiply by.`, `... round to.`, `The answer is up to.`).
   The same sentence before a line break paid on 67ee4aa too (`The answer in thousands is what the problem asks
   for.\\n\\boxed{6}`), as does a sentence ending in a known word (`Maybe the answer is this. \\boxed{6}`): the sentence
   rule's design, which the pairs now extend to every such sentence. Suggested fix: the pair ends a sentence only when
   the sentence before it leads (`anchor_lead` of its words), or only when its subject names the value sought and no
   hedge, scale or negation stands before it.
2. NEW (fx29ao `_CONDITION_STEP_RE`). The condition's letter can be the box's own, so a derivation states the answer
   under a hypothesis that gives it another value: `So $a = 2$, when $x = 7$, $b = 4$, so $x = \\boxed{6}$`, `We get $a =
   2$, if $x = 12$, $a = 4$, hence $x = \\boxed{6}$`, `... for $x = -1$, ...`, `... and if $x = 5$, ...` (6 of 7; `when $x =
   6000$` refused; all refused on 67ee4aa). A step that gives the box's letter another value paid on 67ee4aa (`So $a =
   2$, $x = 7$, $b = 4$, so $x = \\boxed{6}$`: a step's value is not read), so this is the same design through a new slot.
   Suggested fix: the condition's letter is none of the box's chain's sides (`_name_key`).

Old, not counted as new (paid on 67ee4aa too): `_PART_CLAUSE_RE` still reads any letter but `k`/`m` before `)` (`So $a =
2$, (x), $x = \\boxed{6}$`, `(t), ...`, `(g), ...`, `(h), ...`, `(1b), ...`, `For part (x), ...`: a roman `x` and the scale
letters `t`, `b`, `g` are labels); `_name_key` leaves `${x}_{1} = 7, x_1 = \\boxed{6}$`, `$x_{\\text{1}} = 7, x_1 =
\\boxed{6}$` and `$[x] = 7, x = \\boxed{6}$` unmerged; a caseless sum with a digit pays whatever its value (`2 + 4 = 7
个\\n答案是 6。`, `6 × 1000 = 600 个\\n答案是 6。`). fx29ao's new caseless shapes pay a count in words that differs from the
label (`所以一共有七个苹果\\n答案是 6。`, `ดังนั้นผลรวมคือเจ็ด\\nคำตอบคือ 6`), as the English `So the total is 7 apples.\\nThe
answer is 6.` paid on 67ee4aa: a step's value is not read (noted, not counted). `_TIME_STEP_RE`'s new counts and events
(`after 999 years`, `after a $\\$99999$ loss`, `later`) pay only between steps, as `then` did on 67ee4aa; its scales in
math and `after 1000 years` are refused. No hedge fits `_CASELESS_STEP_RE` (`可能有`, `至少有`, `大约有`, `六千`, `六万`,
`相乘` held), nor `_RESTATING_RE`/`_LATER_CLAUSE_RE` (`that is, roughly`, `i.e., roughly`, `moreover, $x \\approx ...$`,
`and by Estimation` held).
"""

from __future__ import annotations

from tests.helpers import paid_test, refused_test
from tests.helpers import number_case as n

B = "\\boxed{6}"

# 1. A stranded preposition's pair ends any sentence, so the words before it are read by no one.
STRANDED_NEAR = [n(c) for c in [
    f"I am not sure what this adds up to. {B}", f"The answer in thousands is what we end up with. {B}",
    f"Divide by 1000 the number we solve for. {B}", f"We need 6000, which is what we solve for. {B}",
    f"This is only a guess to start with. {B}", f"The answer is not the number we arrive at. {B}",
    f"The answer is 7, the number we solve for. {B}", f"Roughly the number we solve for. {B}",
    f"The answer, in thousands, is what we look for. {B}", f"It is less than what we end up with. {B}",
    f"Half of what we choose from. {B}", f"The square root of what we solve for. {B}", f"Not what the problem asks for. {B}",
    f"The answer is at most what it adds up to. {B}", f"In thousands, this is what we end up with. {B}",
    f"Maybe this is what we arrive at. {B}", f"The answer divided by 1000 is what we solve for. {B}",
    f"The answer could be what we arrive at. {B}", f"It is false that this is what we end up with. {B}",
    f"A thousand times what we come up with. {B}", f"The answer minus 1 is what it adds up to. {B}",
    f"Perhaps that is what we are looking for. {B}",
]]
STRANDED_HELD = [n(c) for c in [
    f"The answer divided by. {B}", f"The answer is less than. {B}", f"The answer is up to. {B}",
    f"The answer in thousands is what we divide by. {B}", f"The answer is what we multiply by. {B}",
    f"The answer is what we round to. {B}", f"The answer in thousands is what we want. {B}",
]]
STRANDED_PAID = [n(c) for c in [f"There are 6 people to choose from. {B}", f"This is what the problem asks for. {B}"]]
test_a_stranded_preposition_ends_only_a_sentence_that_leads = refused_test(
    STRANDED_NEAR, """Paid in both profiles since fx29ao (refused on 67ee4aa): `grammar.period_ends` ends a sentence at
    a period after any of `_STRANDED_END_RE`'s verb and preposition pairs, so the sentence before a bare box is closed
    and its hedge, scale, negation or operation is read by no one. The safe verdict: the pair ends a sentence only when
    the words before it lead to the value sought. Closed by fx29ap: the pair ends only a whole sentence of
    `grammar._STRANDED_SENTENCE_RE`'s shapes (`_stranded_sentence`).""")
test_a_preposition_outside_the_pairs_stays_open = refused_test(STRANDED_HELD)
test_a_stranded_preposition_after_a_statement_pays = paid_test(STRANDED_PAID)


# 2. A case's condition gives the box's own letter another value.
CONDITION_NEAR = [n(c) for c in [
    f"So $a = 2$, when $x = 7$, $b = 4$, so $x = {B}$.", f"We get $a = 2$, if $x = 12$, $a = 4$, hence $x = {B}$.",
    f"So $a = 2$, for $x = -1$, $b = 4$, so $x = {B}$.", f"So $a = 2$, when $x = 7$, $x = 4$, so $x = {B}$.",
    f"So $a = 2$, if $x = 0$, $b = 4$, so $x = {B}$.", f"We get $a = 2$, and if $x = 5$, $b = 4$, so $x = {B}$.",
    f"So $a = 2$, when $x = 7$, $b = 4$, $x = {B}$",
]]
CONDITION_HELD = [n(c) for c in [
    f"So $a = 2$, for $n = 2$, $x = {B}$", f"So $x = 7$, when $n = 2$, $x = {B}$.", f"So $a = 2$, i.e., when $n = 2$, $x = {B}$.",
    f"So $a = 2$, if $x = 1000$, $b = 4$, so $x = {B}$.", f"So $a = 2$, when $x = 6000$, $b = 4$, so $x = {B}$.",
]]
CONDITION_PAID = [n(c) for c in [
    f"We get $a = 2$, when $n = 2$, $b = 4$, so $x = {B}$.", f"So $a = 2$, for $k = 3$, $b = 4$, so $x = {B}$.",
    f"So $a = 2$, and when $n = 0$, $b = 4$, so $x = {B}$.",
]]
test_a_condition_does_not_set_the_boxs_letter = refused_test(
    CONDITION_NEAR, """Paid in both profiles since fx29ao (refused on 67ee4aa): `grammar._CONDITION_STEP_RE` reads any
    letter set to an integer as a case before a step, the box's own letter too, so the box is the answer under a
    hypothesis that gives it another value. The safe verdict: the condition's letter is none of the box's chain's
    sides. Closed by fx29ap: a condition needs a box whose own math names a letter, and its letter is none of that
    math's nor of the box's clause's math (`grammar._box_names`).""")
test_a_condition_before_the_box_or_a_scale_stays_refused = refused_test(CONDITION_HELD)
test_a_condition_on_another_letter_pays = paid_test(CONDITION_PAID)


# Held near misses of the other new slots (each refused on fx29ao in both profiles).
LATER_HELD = [n(c) for c in [
    f"So $a = 2$, that is, roughly, $b = 4$, so $x = {B}$.", f"So $a = 2$, i.e., roughly $b = 4$, so $x = {B}$.",
    f"So $x = 6000$, that is, in thousands, $x = {B}$.", f"So $x = 6000$, i.e., $x = {B}$ thousand.",
    f"So $a = 2$, and then, roughly, $x = {B}$.", f"So $a = 2$, moreover, $x \\approx {B}$.",
    f"So $a = 2$, and by Estimation, $b = 4$, so $x = {B}$.", f"So $a = 2$, and by guessing, $b = 4$, so $x = {B}$.",
    f"So $a = 2$, and, $x = {B}$", f"So $a = 2$, plugging back, $x \\approx {B}$.",
]]
TIME_HELD = [n(c) for c in [
    f"So $a = 2$, after dividing by 1000, $b = 3$, $x = {B}$", f"So $a = 2$, after a $\\div 1000$ discount, $b = 4$, $x = {B}$",
    f"So $a = 2$, after a $\\times 1000$ increase, $b = 4$, $x = {B}$", f"So $a = 2$, after 1000 years, $b = 4$, so $x = {B}$.",
    f"So $a = 2$, in thousands, $b = 4$, so $x = {B}$.", f"So $a = 2$, after 999 years, $x = {B}$.",
    f"So $x = 7$, later, $x = {B}$.",
]]
CASELESS_HELD = [n(c) for c in [
    "可能有六个苹果\n答案是 6。", "至少有六个苹果\n答案是 6。", "大约有六个苹果\n答案是 6。", "有六千个苹果\n答案是 6。",
    "不是有六个苹果\n答案是 6。", "小明有六万个苹果\n答案是 6。", "把两个数相乘\n答案是 6。", "ผลรวมคือหกพัน\nคำตอบคือ 6",
    "所以 2 + 4 = 7\n答案是 6。", "小明有两个苹果，小红有四个苹果\n答案是 6000。",
]]
NAME_HELD = [n(c) for c in [
    f"$\\displaystyle x = 7, x = {B}$", f"$\\mathrm{{x}} = 7, x = {B}$", f"$\\cfrac{{a}}{{b}} = 7, \\frac{{a}}{{b}} = {B}$",
    f"$x^{{\\prime}} = 7, x' = {B}$", f"$\\frac12 = 7, \\frac{{1}}{{2}} = {B}$", f"$(x)(y) = 7, xy = {B}$",
    f"${{x}}{{y}} = 7, xy = {B}$", f"$(-x) = 7, -x = {B}$",
]]
NEW_PAID = [n(c) for c in [
    f"We get $a = 2$, and then, $b = 4$, so $x = {B}$.", f"So $a = 2$, i.e., $b = 4$, so $x = {B}$.",
    f"So $a = 2$, after 3 years, $b = 4$, so the total is ${B}$.", "小明有两个苹果，小红有四个苹果\n答案是 6。",
    "把两个数相加\n答案是 6。",
]]
test_a_hedge_or_scale_in_a_later_clause_stays_refused = refused_test(LATER_HELD)
test_a_scale_as_a_time_step_stays_refused = refused_test(TIME_HELD)
test_a_hedge_or_scale_on_a_caseless_line_stays_refused = refused_test(CASELESS_HELD)
test_a_name_written_otherwise_with_another_value_stays_refused = refused_test(NAME_HELD)
test_fx29aos_admissions_pay = paid_test(NEW_PAID)


# fx29ap: the two classes closed by narrowing what is admitted; variants the fix was not written for must stay refused,
# and the right answers fx29ao admitted, written otherwise, must still pay.
STRANDED_SHAPES_NEAR = [n(c) for c in [
    f"This is what we might arrive at. {B}", f"This is not what we solve for. {B}", f"This is half of what we solve for. {B}",
    f"This is what we could come up with. {B}", f"This is the number we roughly arrive at. {B}",
    f"This, in thousands, is what we solve for. {B}", f"Probably, this is what we solve for. {B}",
    f"I guess this is what we arrive at. {B}", f"There are 6 thousand to choose from. {B}",
    f"There are 6000 dollars to choose from. {B}", f"There are about 6 people to choose from. {B}",
    f"Let's guess what we end up with. {B}", f"We doubt what we arrive at. {B}",
    f"The answer is approx. this is what we solve for. {B}", f"I doubt that\nthis is what we solve for. {B}",
    f"In thousands: this is what we solve for. {B}", f"This is what we solve for, not. {B}",
]]
STRANDED_SHAPES_PAID = [n(c) for c in [
    f"So this is what we solve for. {B}", f"Thus, this is the value we were looking for. {B}",
    f"It's exactly what the question asks for. {B}", f"This was the number that we arrived at. {B}",
    f"Let us see what it adds up to. {B}", f"We now know what we are looking for. {B}",
    f"There are six cards to pick from. {B}", f"So $x = 6$. This is what we solve for. {B}",
    f"We compute it.\nThis is what we solve for.\n\n{B}", f"- This is the final answer we arrive at. {B}",
]]
test_a_stranded_preposition_after_another_shape_stays_open = refused_test(STRANDED_SHAPES_NEAR)
test_a_stranded_preposition_in_a_listed_shape_pays = paid_test(STRANDED_SHAPES_PAID)

CONDITION_NAMES_NEAR = [n(c) for c in [
    f"So $a = 2$, when $X = 7$, $b = 4$, so $x = {B}$.", f"So $a = 2$, when $x = 7$, $b = 4$, so $x = b + 2 = {B}$.",
    f"So $a = 2$, when $x = 7$, $b = 4$, so $y = x - 1 = {B}$.", f"So $a = 2$, when $n = 2$, $b = 4$, so $x_n = {B}$.",
    f"So $a = 2$, when $n = 2$, $b = 4$, so $f(n) = {B}$.", f"So $a = 2$, when $x = 7$, $b = 4$, so the answer is ${B}$.",
    f"So $a = 2$, when $x = 7$, $b = 4$, so ${B}$.", f"So $a = 2$, when $x = 7$, $b = 4$, so $\\mathrm{{x}} = {B}$.",
    f"So $a = 2$, that is, when $x = 7$, $b = 4$, so $x = {B}$.", f"So $a = 2$, when $ x = 7 $, $b = 4$, so $x = {B}$.",
]]
CONDITION_NAMES_PAID = [n(c) for c in [
    f"We get $a = 2$, if $m = 3$, $b = 4$, so $y = {B}$.", f"So $a=2$, for $k=1$, $b=4$, hence $x=b+2={B}$.",
    f"We get $a = 2$, and when $t = 0$, $b = 4$, so $N = {B}$.", f"So $a = 2$, when $n = 2$, $b = 4$, so $\\mathrm{{x}} = {B}$.",
]]
test_a_condition_on_a_letter_of_the_boxs_math_stays_refused = refused_test(CONDITION_NAMES_NEAR)
test_a_condition_on_another_letter_in_other_words_pays = paid_test(CONDITION_NAMES_PAID)
