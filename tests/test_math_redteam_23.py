"""Red team of issue 29's answer grammar, twenty-third pass (rt29y): fx29aq's admissions (b3dcaec's `_CASELESS_COUNT_RE`
read by `_caseless_statement`, c166de9's narrowed `_STRANDED_PAIRS`/`_STRANDED_CHOICE_PAIRS`/`_STRANDED_COUNTED`/
`_STRANDED_RELATIVE` and `_box_names` folding with `to_ascii_math`). Graded by the real grader (`grade_math` through
`tests.helpers.math_verdicts`) in both profiles. About 560 candidates (count lines x hedges, scales, numerals, slots,
lines above and below, anchors in three scripts; stranded sentences x nouns x pairs; conditions x 20 box spellings),
graded on main (a93fdad), on main before the fx29aq merge (441183b, "pre") and on 40e3699 (before fx29ao/fx29ap).
Gold 6.

1. NEW (fx29aq, `grammar._caseless_statement`). It reads the physical line above a caseless line, while the sentence
   that line's break ends may have begun on a line above it: fx29al reads a caseless line that states nothing with
   the next as its lead, so `如果\\n他买了 6 本书` is one sentence, "if he bought 6 books", and its break now ends it as a
   count's. A condition, hedge, scale or negation on the line above the count is dropped and the label below pays:
   `如果\\n他买了 6 本书\\n答案是 6。`, `以千为单位\\n还剩 6 个苹果\\n答案是 6。`, `可能\\n...`, `In thousands\\n他买了 6 本书\\n答案是
   6。`, Thai and Japanese alike (refused on pre; paid on 40e3699, which read any line above as a statement). The same
   words on one line are refused on main (`如果他买了 6 本书\\n答案是 6。`, `以千为单位，他买了 6 本书\\n答案是 6。`). fx29ao's step
   shapes pay so on pre too (`以千为单位\\n小明有 6 个苹果\\n答案是 6。`): old since fx29ao, widened to every count shape.
   Suggested fix: a break ends a statement only where the whole sentence it ends is one: the count line must itself
   open a sentence (`opens_sentence` at its start), else the lines from the last sentence end are read as one.
2. NEW (fx29aq, `_CASELESS_COUNT_RE` through `_CJK_NUMBER`). `[一二两三四五六七八九十]{1,3}` admits juxtaposed numerals,
   Chinese's approximate counts: `五六个` "five or six", `六七本` "six or seven", `三五个` "a few". So `他有五六个苹果\\n答案是
   6。` pays as a statement where `约6个`, `6 个左右`, `5 到 6 个` (the hedge the docstring lists as in no slot) are refused
   (refused on pre and 40e3699; fx29ao's `小明有五六个苹果` paid on pre). Suggested fix: a numeral grammar (one digit; `十`
   with an optional digit on either side; `两`), never two digits side by side.
3. NEW and OLD (c166de9, `_STRANDED_COUNTED` in `_STRANDED_SENTENCE_RE`'s `there are` shape). The counted nouns include
   what a problem's unknowns are counted as, and a result pair after them says the box is one of several, as `cases`,
   `problems`, `parts` (refused): `There are 2 tasks to solve for. \\boxed{6}` (new: refused on pre and 40e3699), `There
   are 3 items to solve for.`, `games`, `lessons`, `pictures`, `trips` (paid on pre since fx29ap's LEXICON count, refused
   on 40e3699). Suggested fix: after a count of things only `_STRANDED_CHOICE_PAIRS` and `account for` end the sentence;
   `solve for`, `look for`, `arrive at` after a count name several unknowns.

Pedantry (fx29aq `_CASELESS_COUNT_RE`, read by `_caseless_statement`): natural count lines outside its slots are read as
the label's lead and the right answer below them is refused; all paid on 40e3699: a connective before a comma (`因此，他有 6
个苹果`: the split leaves `因此` a clause of no shape), a list's mark (`- 他买了 6 本书`, `1. ...`: `_LINE_MARKS_RE` is not
applied), subjects other than a pronoun or `小`-name (`妈妈`, `小王`, `张三`, `树上`, `每个盒子`), classifiers and nouns outside
the lists (`朵`, `支笔`, `辆车`, `斤`, `千米`, `步`), verbs (`分到`, `吃掉了`), `了` at the end, four digits (`1200 本书`, `1000 元`),
two counts in one clause (`2 小时 30 分钟`, `6 本书和 2 支笔`), Thai noun-before-count (`เขามีแอปเปิ้ล 6 ผล`, `ทั้งหมด`, `เงิน`),
Japanese topic-first (`リンゴは6個あります`, `全部で6個です`, `残りは6個です`), plain form (`持っている`) and `さん` names. Suggested
fix: as red team 22's, a grammar of the count clause (subject, adverbs, verb, number, classifier, noun) whose open slots
are any words but a hedge, bound, negation or scale of an allowlist's complement.

Old, not counted as new: a count line with another value than the label pays (`所以还剩 7 个苹果\\n答案是 6。`, as red team
21/22 noted for words); alternatives before a committed label (`是 5 个，还是 6 个\\n答案是 6。`, paid on 40e3699); an earlier
sentence is not read (`以千为单位。\\n答案是 6。`, `In thousands. The answer is 6.`). Borderline, left as a note: a count
line ends an unfinished label above it, so `答案是 7\\n他买了 6 本书\\n答案是 6。` pays (refused on pre; `答案是 7\\n答案是 6。`
refused; `答案是 7。\\n答案是 6。` pays: the last label is read).

Held: scales and hedges in and around the slots (`倍`, `成`, `折`, `万`, `亿`, `打`, `对`, `百`, `十几`, `多`, `来`, `廿`, ranges in
digits `5 到 6`, `5-6`, `5~6`, `5 或 6`, `5、6`, particles `吧`, `呢`, `也许`, `都不是`, `又没有`; Thai `พัน`, `6-7`; Japanese `万`,
`くらい`, `5、6個`); a qualifier and a count on one line (`可能，...`, `In thousands, ...`, `approx. ...`); line separators
other than `\\n` (`\\u2028`, `\\r`, `\\x1c`, `\\x85`) and `\\u3000` between a hedge and a count; qualifiers in the label's
line or after it (`答案大约是 6。`, `以千为单位，答案是 6。`, `答案是 6\\n他有 6 个苹果\\n千`); a count line below the label
(`答案是 6。\\n所以还剩 7 个苹果`); a hedge two lines above a box (`可能\\n他买了 6 本书\\n所以 \\boxed{6}`). Stranded sentences with
a modal, negation, attempt or order (`we'd`, `we'll`, `didn't`, `tried to`, `trying to`, `yet to`, `first`, `wrong`); a
condition on the box's letter in folded and unfolded spellings (`ⅹ`, `ₓ`, `ˣ`, `𝔵`, Cyrillic `х`, `Ｘ`, `𝐗`, `\\hat{x}`,
`x'`, `\\bar x`, `\\mathbf x`, `x^*`, `\\vec{x}`, `\\text{x}`, `\\operatorname{x}`).
"""

from __future__ import annotations

import pytest

from tests.helpers import number_case as n
from tests.helpers import paid_test, refused_test

B = "\\boxed{6}"
ZH, TH, JA = "答案是 6。", "คำตอบคือ 6", "答えは6です。"


# 1. A qualifier on the line above a count line runs into the count's sentence, which its break ends
# (fx29aq `_caseless_statement`, reading the physical line).
QUALIFIED_ABOVE_NEAR = [n(c) for c in [
    f"如果\n他买了 6 本书\n{ZH}", f"如果\n他买了 6 本书\n那么{ZH}", f"假如\n还剩 6 个苹果\n{ZH}", f"假设\n他买了 6 本书\n{ZH}",
    f"以千为单位\n他买了 6 本书\n{ZH}", f"以千为单位\n还剩 6 个苹果\n{ZH}", f"以万为单位\n所以一共需要 6 小时\n{ZH}",
    f"单位：千\n他买了 6 本书\n{ZH}", f"答案以千为单位\n他买了 6 本书\n{ZH}", f"(单位：千)\n他有 6 个苹果\n{ZH}",
    f"可能\n他买了 6 本书\n{ZH}", f"我不确定\n还剩 6 个苹果\n{ZH}", f"不是\n他买了 6 本书\n{ZH}", f"答案不是\n他有 6 个苹果\n{ZH}",
    f"答案大约是\n他买了 6 本书\n{ZH}", f"我们乘以1000\n他买了 6 本书\n{ZH}", f"以千为单位\n\n他买了 6 本书\n{ZH}",
    f"In thousands\n他买了 6 本书\n{ZH}", f"If\n他买了 6 本书\n{ZH}", f"The answer is not\n他买了 6 本书\n{ZH}",
    f"$\\times 1000$\n他买了 6 本书\n{ZH}", f"如果\nดังนั้นเหลือ 6 ชิ้น\n{TH}", f"หน่วยเป็นพัน\nดังนั้นเหลือ 6 ชิ้น\n{TH}",
    f"ไม่ใช่\nดังนั้นเหลือ 6 ชิ้น\n{TH}", f"もし\n彼は6個のリンゴを買いました\n{JA}", f"単位は千\n彼は6個のリンゴを買いました\n{JA}",
    f"たぶん\n彼は6個のリンゴを買いました\n{JA}",
]]
test_a_qualifier_above_a_count_line_is_read = refused_test(
    QUALIFIED_ABOVE_NEAR, """Paid in both profiles on main (refused on 441183b, before fx29aq): `grammar._caseless_statement`
    reads only the line above the label, a count of `_CASELESS_COUNT_RE`, while fx29al reads the line above that one (a
    condition, a scale, a hedge, a negation) with it as its lead; the count's break ends the whole sentence and the label
    pays. On one line (`如果他买了 6 本书`) it is refused. The safe verdict: refused. Refused since fx29ar reverted
    b3dcaec (`_CASELESS_COUNT_RE`).""")

# The same in fx29ao's step shapes (`_CASELESS_STEP_RE`, `_CASELESS_SUM_RE`), paid on 441183b too: refused since fx29ar
# (`grammar._caseless_line_opens`: a statement line's break ends a sentence only where the line itself opens one).
QUALIFIED_ABOVE_STEP_NEAR = [n(c) for c in [
    f"如果\n小明有 6 个苹果\n{ZH}", f"以千为单位\n小明有 6 个苹果\n{ZH}", f"可能\n小明有 6 个苹果\n{ZH}", f"不是\n我们有 6 个\n{ZH}",
    f"以千为单位\n\n小明有 6 个苹果\n{ZH}", f"In thousands\n小明有 6 个苹果\n{ZH}", f"The answer is not\n小明有 6 个苹果\n{ZH}",
    f"可能\n2 + 4 = 6 个\n{ZH}", f"如果\n小明有两个苹果，小红有四个苹果\n{ZH}", f"可能\n小明有两个苹果\n小红有四个苹果\n{ZH}",
    f"以千为单位\n所以小明一共有 6 个苹果\n{ZH}",
]]
test_a_qualifier_above_a_step_line_is_read = refused_test(QUALIFIED_ABOVE_STEP_NEAR)
STEP_LINE_PAID = [n(c) for c in [
    f"小明有 6 个苹果\n{ZH}", f"小明有两个苹果\n小红有四个苹果\n{ZH}", f"我们来算。\n小明有 6 个苹果\n{ZH}", f"2 + 4 = 6 个\n{ZH}",
    f"小明有 2 个苹果，小红有 4 个苹果\n{ZH}", f"So.\n小明有 6 个苹果\n{ZH}", f"所以；\n小明有 6 个苹果\n{ZH}",
]]
test_a_step_line_that_opens_a_sentence_pays = paid_test(STEP_LINE_PAID)
FX29AR_COST = [n(c) for c in [f"解：\n小明有 6 个苹果\n{ZH}", f"Solution:\n小明有 6 个苹果\n{ZH}"]]
test_right_answers_fx29ar_refuses = paid_test(
    FX29AR_COST, """Paid on fx29ar's base, refused in both profiles since fx29ar (chosen): a label's colon ends no
    sentence, so the step line below it is read with it and its break ends no statement (`_caseless_line_opens`).
    Paid since fx29as (`grammar._OPENING_LINE_RE`: a label's line opens the next as the text's start would).""")

QUALIFIED_ONE_LINE_HELD = [n(c) for c in [
    f"如果他买了 6 本书\n{ZH}", f"以千为单位，他买了 6 本书\n{ZH}", f"可能，他买了 6 本书\n{ZH}", f"他买了 6 本书，可能\n{ZH}",
    f"他买了 6 本书，以千为单位\n{ZH}", f"In thousands, 他买了 6 本书\n{ZH}", f"approx. 他买了 6 本书\n{ZH}", f"~他买了 6 本书\n{ZH}",
    f"He bought 6 books, 他买了 6 本书\n{ZH}", f"可能\u2028他买了 6 本书\n{ZH}", f"可能\r他买了 6 本书\n{ZH}",
    f"可能\x1c他买了 6 本书\n{ZH}", f"可能\x85他买了 6 本书\n{ZH}", f"可能\u3000他买了 6 本书\n{ZH}", f"以千为单位\n{ZH}", f"如果\n{ZH}",
    "他买了 6 本书\n答案大约是 6。", "他买了 6 本书\n答案可能是 6。", f"他买了 6 本书\n以千为单位，{ZH}", f"他买了 6 本书\n千，{ZH}",
    "他买了 6 本书\n$\\times 1000$ 答案是 6", f"可能\n他买了 6 本书\n所以 {B}", f"以千为单位\n他买了 6 本书\n所以 {B}",
    f"{ZH}\n所以还剩 7 个苹果", f"{TH}\nดังนั้นเหลือ 7 ชิ้น", f"{JA}\n彼は7個のリンゴを買いました", "答案是 6\n他有 6 个苹果\n千",
    "答案是 6\n他有 6 个苹果\n以千为单位", "答案是 6。\n他买了 6 本书\n可能", "答案是 6\nดังนั้นเหลือ 6 ชิ้น\nพัน",
    "答案是 6\n彼は6個のリンゴを買いました\nたぶん",
]]
test_a_qualifier_on_the_count_or_label_line_stays_refused = refused_test(QUALIFIED_ONE_LINE_HELD)


# 2. Juxtaposed numerals are an approximate count (fx29aq `_CASELESS_COUNT_RE` through `_CJK_NUMBER`).
NUMERAL_RANGE_NEAR = [n(c) for c in [
    f"他有五六个苹果\n{ZH}", f"一共是五六个\n{ZH}", f"还剩五六个\n{ZH}", f"他买了六七本书\n{ZH}", f"是六七个\n{ZH}",
    f"他有三五个苹果\n{ZH}",
]]
NUMERAL_RANGE_STEP_NEAR = [n(c) for c in [f"小明有五六个苹果\n{ZH}"]]  # fx29ao's `_CASELESS_STEP_RE` shape, paid on 441183b
NUMERAL_RANGE_DOC = """Paid in both profiles on main (refused on 441183b and 40e3699, but for fx29ao's `小明有` shape):
    `_CJK_NUMBER` admits one to three of the numerals in any order, and two side by side are Chinese's "five or six", a
    hedge of the count (as `约6个`, `6 个左右`, `5 到 6 个`, refused); the line reads as a statement and the label pays. The
    safe verdict: refused."""
test_a_numeral_range_is_no_count = refused_test(
    NUMERAL_RANGE_NEAR, NUMERAL_RANGE_DOC + " Refused since fx29ar reverted b3dcaec (`_CASELESS_COUNT_RE`).")
test_a_numeral_range_in_a_step_is_no_count = refused_test(
    NUMERAL_RANGE_STEP_NEAR, NUMERAL_RANGE_DOC,
    marks=[pytest.mark.xfail(strict=True, reason="rt29y class 2: _CJK_NUMBER admits 五六, 六七, 三五 (five or six)")])

COUNT_SLOT_HELD = [n(c) for c in [
    f"大概是六七个\n{ZH}", f"他有 5 到 6 个苹果\n{ZH}", f"他有 5-6 个苹果\n{ZH}", f"他有 5~6 个苹果\n{ZH}", f"他有 5 或 6 个苹果\n{ZH}",
    f"他有 5、6 个苹果\n{ZH}", f"他有十几个苹果\n{ZH}", f"他有 6 个多苹果\n{ZH}", f"他有 6 来个苹果\n{ZH}", f"他有廿个苹果\n{ZH}",
    f"他有 6 倍\n{ZH}", f"是 6 倍\n{ZH}", f"是 6 成\n{ZH}", f"打 6 折\n{ZH}", f"是 6 万个\n{ZH}", f"是 6 亿元\n{ZH}", f"是 6 打\n{ZH}",
    f"他有 6 打鸡蛋\n{ZH}", f"是 6 对\n{ZH}", f"是 6 百个\n{ZH}", f"他买了 6 本书吧\n{ZH}", f"他买了 6 本书呢\n{ZH}",
    f"他也许买了 6 本书\n{ZH}", f"他们都不是 6 个\n{ZH}", f"他又没有 6 个苹果\n{ZH}", f"ดังนั้นเหลือ 6 พันชิ้น\n{TH}",
    f"ดังนั้นเหลือ 6-7 ชิ้น\n{TH}", f"彼は5、6個のリンゴを買いました\n{JA}", f"彼は6万個のリンゴを買いました\n{JA}",
    f"彼は6個くらい買いました\n{JA}",
]]
test_a_scale_or_hedge_in_a_count_slot_stays_refused = refused_test(COUNT_SLOT_HELD)


# 3. A count of things to solve for makes the box one of several (c166de9 `_STRANDED_COUNTED`).
COUNTED_UNKNOWNS_NEAR = [n(c) for c in [
    f"There are 2 tasks to solve for. {B}", f"There are two tasks to solve for. {B}", f"There are 2 tasks to look for. {B}",
    f"There are 3 items to solve for. {B}", f"There are 2 games to solve for. {B}", f"There are 2 lessons to solve for. {B}",
    f"There are 2 pictures to solve for. {B}", f"There are 6 trips to arrive at. {B}",
]]
test_a_count_of_things_to_solve_for_is_no_statement = refused_test(
    COUNTED_UNKNOWNS_NEAR, """Paid in both profiles on main (`tasks` refused on 441183b; the others paid there since
    fx29ap's LEXICON count; all refused on 40e3699): `_STRANDED_COUNTED` holds nouns a problem's unknowns are counted as,
    and `_STRANDED_SENTENCE_RE`'s `there are` shape ends at any result pair after them; the box is one of several, as
    after `cases`, `problems`, `parts` (refused). The safe verdict: refused. Refused since fx29ar: after a count of
    things only `choose`/`pick`/`select from` and `account for` end the sentence, and `tasks` left `_STRANDED_COUNTED`.""")

STRANDED_HELD = [n(c) for c in [
    f"There are 2 cases to solve for. {B}", f"There are 2 problems to solve for. {B}", f"There are 2 questions to solve for. {B}",
    f"There are 2 parts to solve for. {B}", f"This is the number we'd arrive at. {B}", f"This is the number we'll arrive at. {B}",
    f"This is the number we didn't arrive at. {B}", f"This is the value we are yet to arrive at. {B}",
    f"This is the first value we arrive at. {B}", f"This is the wrong value we arrive at. {B}",
    f"This is the number we first arrive at. {B}", f"This is the total we tried to arrive at. {B}",
    f"This is the number we are trying to solve for. {B}", f"This is the overcount we need to account for. {B}",
    f"This is what we solve for {B}",
    f"There are 2 tasks to choose from. {B}", f"There are 2 tasks to account for. {B}", f"There are 2 games to look for. {B}",
    f"There are 6 people to arrive at. {B}", f"There are 6 books to end up with. {B}",  # fx29ar's narrowing
]]
CONDITION_HELD = [n(f"So $a = 2$, {cond}, $b = 4$, so ${box} = {B}$.") for cond in ("when $x = 7$", "if $X = 7$") for box in (
    "ⅹ", "ₓ", "ˣ", "𝔵", "х", "Ｘ", "𝐗", "\\hat{x}", "x'", "\\bar x", "\\mathbf x", "x^*", "\\vec{x}", "\\text{x}", "\\operatorname{x}",
    "y = ⅹ - 1", "y = x - 1")]
test_fx29aqs_stranded_narrowing_holds = refused_test(STRANDED_HELD)
test_a_condition_on_a_folded_box_letter_stays_refused = refused_test(CONDITION_HELD)


# Pedantry: natural count lines outside `_CASELESS_COUNT_RE`'s slots (fx29aq), each paid on 40e3699.
CASELESS_PEDANTRY = [n(c) for c in [
    f"因此，他有 6 个苹果\n{ZH}", f"所以，他买了 6 本书\n{ZH}", f"所以，还剩 6 个\n{ZH}", f"- 他买了 6 本书\n{ZH}", f"1. 他买了 6 本书\n{ZH}",
    f"妈妈买了 6 个苹果\n{ZH}", f"小明的妈妈买了 6 个苹果\n{ZH}", f"小王买了 6 本书\n{ZH}", f"张三有 6 个苹果\n{ZH}", f"树上有 6 只鸟\n{ZH}",
    f"每个盒子有 6 个\n{ZH}", f"剩下的苹果有 6 个\n{ZH}", f"她有 6 朵花\n{ZH}", f"他买了 6 支笔\n{ZH}", f"他们需要 6 辆车\n{ZH}",
    f"他买了 6 斤苹果\n{ZH}", f"他跑了 6 千米\n{ZH}", f"他走了 6 步\n{ZH}", f"每人分到 6 个苹果\n{ZH}", f"所以每人分 6 个\n{ZH}",
    f"他吃掉了 2 个苹果\n{ZH}", f"小明有 8 个苹果，吃掉了 2 个\n{ZH}", f"所以他还剩 6 个苹果了\n{ZH}", f"他买了 1200 本书\n{ZH}",
    f"每人 1000 元\n{ZH}", f"他用了 2 小时 30 分钟\n{ZH}", f"他买了 6 本书和 2 支笔\n{ZH}", f"เขามีแอปเปิ้ล 6 ผล\n{TH}",
    f"ดังนั้นมีทั้งหมด 6 คน\n{TH}", f"ดังนั้นเขาเหลือเงิน 6 บาท\n{TH}", f"リンゴは6個あります\n{JA}", f"全部で6個です\n{JA}",
    f"彼は6個のリンゴを持っている\n{JA}", f"残りは6個です\n{JA}", f"花子さんは6個のリンゴを買いました\n{JA}",
]]
test_a_natural_caseless_count_pays = paid_test(
    CASELESS_PEDANTRY, """Refused in both profiles on main (paid on 40e3699): `grammar._caseless_statement` reads a count
    line as a statement only in `_CASELESS_COUNT_RE`'s slots, so a comma after the connective, a list's mark, another
    subject, classifier, noun or verb, four digits or a topic-first order reads it as the label's lead, and the right
    answer states none. The safe verdict for a right answer: paid.""",
    marks=[pytest.mark.xfail(strict=True, reason="rt29y pedantry: _CASELESS_COUNT_RE's slots refuse natural counts")])

# Held right answers: counts in the slots, other digits, and the stranded/condition shapes that pay.
CASELESS_PAID = [n(c) for c in [
    f"他有 ６ 个苹果\n{ZH}", f"是 ๖ 个\n{ZH}", f"ดังนั้นเหลือ ๖ ชิ้น\n{TH}", f"ดังนั้น เหลือ 6 ชิ้น\n{TH}", f"6人います\n{JA}",
    f"还剩 6 块蛋糕\n{ZH}", f"他总共有 6 个苹果\n{ZH}", f"他一共买了 6 本书\n{ZH}", f"因此他剩下 6 个\n{ZH}", f"他们有 6 个人\n{ZH}",
    f"6 个苹果\n{ZH}", f"是 0.6 个\n{ZH}", f"你有 6 个苹果\n{ZH}", f"他买了 6 本书\n\n{ZH}", f"他买了 6 本书\r\n{ZH}",
    f"{ZH}\n他买了 7 本书\n{ZH}",
]]
test_a_count_in_the_slots_of_b3dcaec_pays = paid_test(
    CASELESS_PAID, """Paid on main with b3dcaec's `_CASELESS_COUNT_RE`, refused in both profiles since fx29ar reverted it
    (its counts paid wrong answers, classes 1 and 2): the count line is read as the label's lead again. The safe verdict
    for a right answer: paid.""",
    marks=[pytest.mark.xfail(strict=True, reason="b3dcaec reverted: caseless counts pay wrong answers, red team 23")])
CASELESS_PAID = [n(c) for c in ["他买了 6 本书\nThe answer is 6."]]
STRANDED_PAID = [n(c) for c in [
    f"This is the number the question asks for. {B}", f"That's precisely the total we end up with. {B}",
    f"There are 2 items to choose from. {B}", f"We know what we are looking for. {B}",
    f"So $a = 2$, for $n = 7$, $b = 4$, so $𝔵 = {B}$.", f"So $a = 2$, when $x = 7$, $b = 4$, so $ｎ = {B}$.",
]]
test_a_count_in_the_slots_pays = paid_test(CASELESS_PAID)
test_a_result_pair_or_another_letter_pays = paid_test(STRANDED_PAID)
