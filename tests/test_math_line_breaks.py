"""Line breaks before a line in a script without case (fx29as, issue 29; red team 24 `tests/test_math_redteam_24.py`):
`grammar._caseless_line_opens` reads the lines above a caseless line upwards (docs/math.md "Answer grammar", "Line
breaks in a script without case").

1. A break adds no sentence end: the line above ends a sentence only where the same text joined on one line would
   (`_joined_end`: `。！？!?।` or a sentence's period by `period_ends`' reading); after `；`, `...`, `…`, a colon or an
   abbreviation's period the caseless line is read with the line above, as on one line; `period_ends` reads a period
   before a line of words of any script as joined (`The answer is approx.\nthe answer is 6.`).
2. A line that only opens what follows (`_OPENING_LINE_RE`: a section's label or heading, `解：`, `### Solution`,
   `Step 1:`; a rule; a part's number; a lone concluding connective) opens the next line where it opens one itself, as
   the text's start would: a qualifier on it or above it is still read. Math alone opens no line (fx29au, red team 26):
   a step line under it runs into it, a cost (strict xfails, `MATH_OPENER_COST`).
3. A relation or premise clause on a step line is a well-formed expression (fx29au, red team 26 class 3,
   `grammar._CASELESS_RELATION_RE`, `_CASELESS_PREMISE_RE`): operands, binary operators spaced alike on both sides,
   `=`/`＝` between sides, `XY∥ZW` whole; since fx29av its names are only ones the answer line uses (red team 27
   classes 1-3; tests/test_math_step_names.py), so the rows above an answer line naming none are costs (`NAMES_COST`).

Near misses (a right answer perturbed in each new shape: a wrong value, a hedge, scale or negation on the label line or
above it, a second value) are refused in both profiles; rewrites (right answers in the new shapes) are paid in both.
Graded by the real grader (`tests.helpers.math_verdicts`), gold 6. Pure math: no server, no Docker."""

from __future__ import annotations

import pytest

from tests.helpers import number_case as n
from tests.helpers import paid_test, refused_test

ZH, STEP = "答案是 6。", "小明有 6 个苹果"
OPENERS = ["解：", "解答：", "### 解答", "**解：**", "【解析】", "分析：", "答：", "第一步：", "Step 1:", "### Solution",
           "计算如下：", "由题意得：", "---", "（1）", "解\n", "所以；"]
"""The line shapes fx29as admits above a step line (one of each kind) that fx29au keeps."""
MATH_OPENERS = ["$$2 + 4 = 6$$", "\\[2 + 4 = 6\\]", "2 + 4 = 6"]
"""Math alone, which fx29as admitted above a step line and fx29au does not (red team 26 classes 1, 2 and 4)."""
COST = pytest.mark.xfail(strict=True, reason="cost: math-alone lines open no line (fx29au)")
NAMES_COST = pytest.mark.xfail(strict=True, reason="cost: a step line names only what the answer line names (fx29av)")
"""fx29av (red team 27 classes 1-3): a step line's relation or premise names only what the answer line names."""

# 2. Rewrites: a right answer under each opening line, with one step line, two, a sum or a relation.
UNDER_AN_OPENER_PAID = [n(f"{o}\n{step}\n{ZH}") for o in OPENERS for step in (STEP, "小明有两个苹果\n小红有四个苹果")] + [n(c) for c in [
    f"**Step 1:**\n2 + 4 = 6 个\n{ZH}", f"## 解析\n\n{STEP}\n{ZH}", f"好的。\n解：\n{STEP}\n{ZH}", f"第1步：\n{STEP}\n{ZH}",
    "解：\n所以 x = 6；\n所以，答案是 x = 6。", f"解答：\n{ZH}", f"### Solution\n解：\n{STEP}\n{ZH}",
    f"$$2 + 4 = 6$$\n{ZH}", f"解：\n$$2 + 4 = 6$$\n{ZH}", f"$$2 + 4 = 6$$\n\n{ZH}",
]]
test_a_step_line_under_an_opening_line_pays = paid_test(UNDER_AN_OPENER_PAID)
test_a_step_line_naming_x_under_an_opening_line_pays = paid_test([n("解：\n所以 x = 6；\n所以，答案是 6。")], marks=[NAMES_COST])
MATH_OPENER_COST = [n(f"{o}\n{step}\n{ZH}") for o in MATH_OPENERS for step in (STEP, "小明有两个苹果\n小红有四个苹果")] + [
    n(c) for c in [f"$x = 2 + 4 = 6$\n{STEP}\n{ZH}", f"\\[\n2 + 4 = 6\n\\]\n{STEP}\n{ZH}", f"【解答】\n$$2 + 4 = 6$$\n{STEP}\n{ZH}"]]
test_a_step_line_under_math_alone_pays = paid_test(MATH_OPENER_COST, marks=[COST])

# 2. Near misses: a wrong value under each opening line.
UNDER_AN_OPENER_WRONG = [n(f"{o}\n{STEP}\n答案是 7。") for o in OPENERS + MATH_OPENERS] + [n(c) for c in [
    f"解答：\n{STEP}\n答案是 6 千。", f"### 解答\n{STEP}\n答案是 6 或 7。", f"Step 1:\n{STEP}\n答案大约是 6。",
]]
test_a_wrong_value_under_an_opening_line_is_refused = refused_test(UNDER_AN_OPENER_WRONG)

# 2. Near misses: a qualifier on the label line (the line is then no opening line and runs into the next).
QUALIFIED_LABEL_NEAR = [n(f"{label}\n{STEP}\n{ZH}") for label in [
    "可能解答：", "解答：可能", "### 可能", "**可能：**", "【可能】", "以千为单位：", "约：", "不是：", "Maybe step 1:", "Step 1 maybe:",
    "In thousands:", "### In thousands", "（约）", "解：以千为单位", "答：不是", "第一步：乘以 1000", "$$\\times 1000$$", "$$x \\approx 6$$",
    "2 + 4 = 6000 个；", "所以 x ≈ 6；", "所以 x = 6000；", "以千为单位，所以 x = 6；", "由于可能AB∥CD，所以∠B＝65°；",
    "可能所以；", "所以可能；",
]] + [n(c) for c in ["以千为单位：\n" + ZH, "可能：\n" + ZH, "### 以千为单位\n" + ZH, "所以 x ≈ 6；\n" + ZH]]
test_a_qualifier_on_the_opening_line_is_read = refused_test(QUALIFIED_LABEL_NEAR)

# 2. Near misses: a qualifier above the opening line (it opens the next line only where it opens one itself).
QUALIFIED_ABOVE_NEAR = [n(f"{q}\n{o}\n{STEP}\n{ZH}") for q in ("可能", "以千为单位；", "In thousands", "approx.", "不是...")
                        for o in ("解答：", "### 解答", "Step 1:", "$$2 + 4 = 6$$", "---", "（1）", "所以；")] + [n(c) for c in [
    f"可能\n解：\n{ZH}", f"以千为单位\n\n解答：\n\n{STEP}\n{ZH}", f"可能；\n所以 x = 6；\n所以，{ZH}", f"不是\n解：\n### 解答\n{STEP}\n{ZH}",
    f"I doubt that\nStep 1:\n{STEP}\n{ZH}",
]]
test_a_qualifier_above_an_opening_line_is_read = refused_test(QUALIFIED_ABOVE_NEAR)

# 2. Near misses: a second, different answer in the new shapes.
SECOND_ANSWER_NEAR = [n(c) for c in [
    f"解答：\n{STEP}\n{ZH}\n### 解答\n答案是 7。", f"解：\n{STEP}\n答案是 6 或 7。", f"$$2 + 4 = 6$$\n{STEP}\n答案是 6，也可能是 7。",
    f"Step 1:\n{STEP}\n{ZH}\nStep 2:\n答案是 7。",
]]
test_a_second_answer_in_the_new_shapes_is_refused = refused_test(SECOND_ANSWER_NEAR)


# 1. A break adds no sentence end: near misses beyond red team 24's rows (a blank line, a label, a chain, `…`, `e.g.`,
# a relation after a qualifier), each refused as its one-line form is.
BREAK_NEAR = [n(c) for c in [
    f"以千为单位；\n\n{ZH}", f"可能；\n解：\n{ZH}", f"大约…\n{ZH}", f"The answer is e.g.\n{ZH}", f"以千为单位；\n所以 x = 6；\n所以，{ZH}",
    f"可能,\n{ZH}", f"以千为单位：\n{ZH}", f"The answer is approx. {ZH}", f"approx. {ZH}", f"以千为单位 ca. {ZH}",
    "The answer is approx. the answer is 6.", f"答案约为.\n\n{STEP}\n{ZH}", f"不是；\n\n所以；\n{STEP}\n{ZH}",
    "The answer is approx.\nthe answer is 6.", "The answer is ca.\n- the answer is 6.", f"所以 2 + 4 = 7；\n{ZH}",
    f"所以 6000 = 6；\n{ZH}", f"所以 x = 6 千；\n{ZH}", f"所以 x ≈ 6；\n{ZH}", f"因为可能 x = 6，所以 y = 6；\n{ZH}", f"如果 x = 6，所以 y = 6；\n{ZH}",
    f"所以 x = 6；可能\n{ZH}", f"小明有 6 个苹果...\n{ZH}", f"由于AB∥CD；\n{ZH}", f"所以 x = 7\n{ZH}", f"所以 x = 6 千\n{ZH}",
]]
test_a_break_after_no_sentence_end_is_read_as_one_line = refused_test(BREAK_NEAR)

# 1. Rewrites: a real sentence end before the break, or a step line ending with its clause's mark, pays.
BREAK_PAID = [n(c) for c in [
    f"We add them.\n{ZH}", f"We get 6.\n{ZH}", f"So.\n{ZH}", f"2 + 4 = 6.\n{ZH}", f"小明有 6 个苹果；\n{ZH}", "所以 x = 6；\n所以，答案是 x = 6。",
    f"我们来算。\n{STEP}\n{ZH}", f"所以；\n{ZH}",
    f"好的！\n{STEP}\n{ZH}", "We computed it.\nthe answer is 6.", "The answer is approx.\nThe answer is 6.",
    f"{STEP}.\n{ZH}", f"{STEP}. {ZH}", "所以 y = 6；\n答案是 y = 3x = 6。",
]]
test_a_break_after_a_sentence_end_pays = paid_test(BREAK_PAID)
SUBJECT_COST = pytest.mark.xfail(strict=True, reason="cost: fx29aw knows the answer's one-letter subject only (red team 28)")
BREAK_SUBJECT_COST = [n("因为 x = 2，所以 y = 6；\n答案是 y = 3x = 6。")]
test_a_break_after_a_step_line_naming_the_answers_later_name_pays = paid_test(BREAK_SUBJECT_COST, marks=[SUBJECT_COST])
BREAK_NAMES_COST = [n(c) for c in [
    f"所以 x = 6；\n所以，{ZH}", f"由于AB∥CD，所以∠B＝∠DEC＝65°；\n所以∠DEF＝90°-65°＝25°；\n所以，{ZH}", f"所以∠B = 65°；\n{ZH}",
    f"因为 x = 2，所以 y = 6；\n{ZH}",
]]
test_a_break_after_a_step_line_naming_what_the_answer_does_not_pays = paid_test(BREAK_NAMES_COST, marks=[NAMES_COST])


# fx29at (red team 25 class 1): a relation's or a premise's math on a step line is names and signs only
# (`_CASELESS_NAME`: a single letter, `∠DEB`, `AB∥CD`); a word of any case rides on no step line.
RELATION_WORD_NEAR = [n(f"{line}\n{label}") for line in [
    "所以 about x = 6；", "所以 NOT x = 6；", "所以 x maybe = 6；", "所以 ∠ABOUT = 6；", "由于 NOT AB∥CD，所以 x = 6；",
    "由于 APPROX AB∥CD，所以 x = 6；", "因为 a few x = 2，所以 y = 6；", "所以 if x = 6；", "ดังนั้น about x = 6；", "所以 ab x = 6;", "所以 a b o u t x = 6；", "由于 N O T AB∥CD，所以 x = 6；",
] for label in (ZH, f"所以，{ZH}")]
test_a_word_in_a_relation_clause_is_read = refused_test(RELATION_WORD_NEAR)
RELATION_NAME_PAID = [n(c) for c in [
    "所以 x = 6；\n答案是 x = 6。", "所以 y = 6；\n答案是 y = 2x = 6。", "所以 ∠B = 6；\n答案是 ∠B = 6。",
    "ดังนั้น x = 6；\nคำตอบคือ x = 6",
]]
test_a_relation_of_names_and_signs_pays = paid_test(RELATION_NAME_PAID)
RELATION_SUBJECT_COST = [n(c) for c in ["所以 y = 2x = 6；\n答案是 y = 2x = 6。", "所以 ∠ABC = 6；\n答案是 ∠ABC = 6。"]]
test_a_relation_of_the_answers_later_names_pays = paid_test(RELATION_SUBJECT_COST, marks=[SUBJECT_COST])
RELATION_NAME_COST = [n(c) for c in [
    f"所以 x = 6；\n{ZH}", f"由于AB∥CD，所以∠B＝65°；\n{ZH}", f"又因为BE⊥AF，所以 x = 6；\n{ZH}", f"所以 y = 2x = 6；\n{ZH}",
    "所以∠DEF＝∠DEB-∠DEC＝71°-65°＝6°；\n所以，答案是 6。", f"所以 △ABC = 6；\n{ZH}", f"ดังนั้น x = 6；\n{ZH}",
]]
test_a_relation_of_names_above_an_answer_naming_none_pays = paid_test(RELATION_NAME_COST, marks=[NAMES_COST])

# fx29at (red team 25 class 2): math alone is read from the line its first segment opens on, in the walk and in
# `statement_lines` alike; words before the opener make the lines prose.
DISPLAY_OPENER_WORDS_NEAR = [n(c) for c in [
    f"大概 \\[\n2 + 4 = 6\n\\]\n{STEP}\n{ZH}", f"可能\t$$\n2 + 4 = 6\n$$\n{STEP}\n{ZH}",
    f"$$1 = 1$$ 可能 $$\n2 + 4 = 6\n$$\n{STEP}\n{ZH}", f"Maybe \\(x\n= 6\\)\n{STEP}\n{ZH}",
    f"以千为单位 \\begin{{align*}}\nx &= 6\n\\end{{align*}}\n{STEP}\n{ZH}",
]]
test_words_before_a_displays_opener_are_read = refused_test(DISPLAY_OPENER_WORDS_NEAR)
DISPLAY_LINES_PAID = [n(c) for c in [
    f"\\[\n2 + 4\n= 6\n\\]\n{STEP}\n{ZH}", f"$$2 + 4\n= 6$$\n{STEP}\n{ZH}", f"$$1 = 1$$\n$$\n2 + 4 = 6\n$$\n{STEP}\n{ZH}",
]]
test_a_display_over_lines_pays = paid_test(DISPLAY_LINES_PAID, marks=[COST])

# fx29at (red team 25 class 3): math alone the walk reads is plain (`_plain_math`): no letter of a script without
# case, no text command, no run of two letters, no relation but `=` and `\equiv`.
MATH_WORD_NEAR = [n(f"{m}\n{STEP}\n{ZH}") for m in [
    "$$\\text{大约} 6 = 6$$", "$$\\operatorname{about} = 6$$", "$$\\mbox{maybe} = 6$$", "$$maybe = 6$$", "$$约 = 6$$",
    "$$x \\le 6 = 6$$", "$$x < 7 = 6$$", "$$x \\sim 6 = 6$$", "2 + 4 ≈ 6 = 6", "$x \\approx 6$ = 6", "$$x \\not= 7 = 6$$",
    "$$m a y b e = 6$$", "$$m{a}y = 6$$", "$$x != 7 = 6$$", "$$\\text{cm} = 6$$", "$$\\displaystyle \\mathbf{x} = 6$$",
]]
test_words_or_relations_in_math_alone_are_read = refused_test(MATH_WORD_NEAR)
PLAIN_MATH_PAID = [n(f"{m}\n{STEP}\n{ZH}") for m in [
    "$$\\frac{12}{2} = 6$$", "$$x = 2 \\times 3 = 6$$", "\\[x = \\sqrt{36} = 6\\]", "$x = 6$", "$$2 \\cdot 3 = 6$$",
    "$$x \\equiv 6$$", "$$\\left(2 + 4\\right) = 6$$",
]]
test_plain_math_alone_pays = paid_test(PLAIN_MATH_PAID, marks=[COST])


# fx29au (red team 26 classes 1, 2 and 4): a math-alone line opens no line, so what its math hides (spacing escapes
# between a spelled word's letters, escaped caseless letters) is never read past; under a label or a rule alike.
MATH_ALONE_NEAR = [n(f"{m}\n{tail}") for m in [
    "$$n\\!o\\!t\\ x = 6$$", "$$m\\,a\\,y\\,b\\,e\\ x = 6$$", "$$n\\;o\\;t\\quad x = 6$$", "\\(n\\!o\\!t\\ x = 6\\)",
    "$$\\可\\能\\ x = 6$$", "$$\\อ\\า\\จ\\จ\\ะ\\ x = 6$$", "$$n\\~o\\~t\\ x = 6$$",
] for tail in (f"{STEP}\n{ZH}", f"解：\n{ZH}", f"---\n{ZH}", f"所以 x = 6；\n{ZH}")] + [
    n("$x.\n" + "好$ $x.\n" * 200 + "好$\n" + ZH)]
test_math_alone_opens_no_line = refused_test(MATH_ALONE_NEAR)

# fx29au (red team 26 class 3): near misses for each rule of the relation's and premise's expression.
RELATION_SHAPE_NEAR = [n(f"{line}\n{label}") for line in [
    "所以 n.o.t. x = 6；", "所以 x. = 6；", "所以 x = 6.；", "所以 x' = 6；", "所以 m'a'y x = 6；",  # `.`/`'` after a letter
    "所以 m-a-y-b-e- x = 6；", "所以 n/o/t/ x = 6；", "所以 x - = 6；", "所以 x = 6 - ；", "所以 x -y = 6；",  # trailing, lopsided
    "所以 m-a-y-b-e-x = 6；", "所以 n-o-t-x = 6；", "所以 a + b + c = 6；",  # three letters or more
    "所以 NOT∥x = 6；", "所以 MAY∥BE∥x = 6；", "所以 x = 6 - NOT∥ = 6；", "所以 ∠MAYBE = 6；", "所以 ∠ab = 6；",  # capitals
    "由于 NOT∥AB，所以 x = 6；", "由于 ABC∥CD，所以 x = 6；", "由于 AB∥CD∥EF，所以 x = 6；", "由于 AB∥，所以 x = 6；",
    "由于 AB = AC，所以 ∠B = 65°；", "由于 x，所以 x = 6；", "所以 x = 6 6；", "所以 x (6) = 6；", "所以 x = (6 = 6；",
    "ดังนั้น n.o.t. x = 6;", "所以 x = 6° °；", "所以 x = 1000；",
] for label in (ZH, f"所以，{ZH}")]
test_a_relation_clause_is_a_well_formed_expression = refused_test(RELATION_SHAPE_NEAR)
RELATION_SHAPE_PAID = [n(f"{line}\n{ZH}") for line in [
    "所以∠DEF＝∠DEB-∠DEC＝90°-65°＝25°；", "由于AB∥CD，所以∠B＝65°；", "由于 AB ∥ CD，所以 x = 6；", "又因为BE⊥AF，所以 x = 6；",
    "所以 x = 2.5 + 3.5 = 6；", "所以 x = (2 + 4) = 6；", "所以 x = (2 × (1 + 2)) = 6；", "所以 x + y = 6；", "所以 y = 2x = 6；",
    "所以 x = 12 ÷ 2 = 6；", "所以 x = 12/2 = 6；", "因为 x = 2，所以 y = 3x = 6；", "所以 △ABC = 6；", "所以 x ＝ 6；",
    "ดังนั้น x = 6;",
]]
test_a_well_formed_relation_clause_pays = paid_test(RELATION_SHAPE_PAID, marks=[NAMES_COST])
RELATION_SHAPE_X = ["所以 x = 2.5 + 3.5 = 6；", "所以 x = (2 + 4) = 6；", "所以 x = (2 × (1 + 2)) = 6；", "所以 x = 12 ÷ 2 = 6；",
                    "所以 x = 12/2 = 6；", "所以 x ＝ 6；", "ดังนั้น x = 6;", "所以 x = 6，x = 6；"]
test_a_well_formed_relation_clause_naming_the_answers_name_pays = paid_test(
    [n(f"{line}\n答案是 x = 6。") for line in RELATION_SHAPE_X])
