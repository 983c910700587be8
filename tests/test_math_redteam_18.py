"""Red team of issue 29's answer grammar, eighteenth pass (rt29t): wrong answers the grader pays and answers that hold
a grading worker for seconds, after fx29ad (`grammar.statement_lines`, `opens_sentence`, `_math_alone`,
`_LINE_MARKS_RE`), fx29ae (`grammar._stated_relation`, `_own_math_clause`, `guards._exp_log_depth`), fx29af
(`grammar.marks_end`, `_unmarked`, `last_break`'s marks, `_math_clause_subject`, `box_label` from `last_break`, the colon
label read in `box_lead_clauses`), fx29ac (`guards.MAX_FUNCTION_PRODUCTS`) and stop 45's `_NUMBERED_LABELS`. Graded by
the real grader (`grade_math` through `tests.helpers.math_verdicts`) in both profiles; every `*_NEAR` case below paid
`correct` in both profiles, and each class is a strict xfail asserting the safe verdict until it is closed; plain tests
hold what held (near misses already refused) and the rewrites a fix must keep paying. Gold 6 unless a case says
otherwise. About 6,000 candidates tried, by family (numbered labels and marks in labels ~2,500, stray math openers ~500,
line starts ~520, the last math's clause and restarted relations ~1,500, abbreviations ~400, cost ~330), one grading
process at a time, warm, main at ff1e141.

Ranked by how bad (a natural wording, how many variants, how far the stated value is from the box's):

1. A math opener left unclosed before a box makes every word before it the box's own math (`grammar._own_math` takes the
   last unclosed `$`, `\\(`, `\\[`, `$$` as the math that holds the box, so `box_lead_clauses` reads nothing before it and
   the colon label is never read): `Maybe$: the answer is \\boxed{6}`, `The answer is not$, so the answer is \\boxed{6}`,
   `I doubt that\\(: the answer is \\boxed{6}`, `In thousands\\[: \\boxed{6}`, `Roughly$$: $x = \\boxed{6}$` (about 215
   cases). Held: the same with no opener, and `Maybe$ the answer is \\boxed{6}` (no clause mark after the opener).
   Suggested fix: the box's own math is a segment that opens in the box's clause and whose opener `_math_spans` pairs;
   a lone opener is a word of the sentence (as fx29aa's `3 $ chacun`), never a math boundary.
2. An abbreviation's period ends the sentence before a box (`_SENTENCE_END_RE` reads any `.` before a space), so a hedge
   written as an abbreviation is read by no one: `The answer is approx. \\boxed{6}`, `Answer: approx. \\boxed{6}`, `The
   answer is ca. \\boxed{6}`, `The sum is not approx. \\boxed{6}`, `It is approx. $x = \\boxed{6}$`, `Maybe $a = 2$, i.e.
   \\boxed{6}`, `In thousands, e.g. \\boxed{6}` (392 of 392 tried). Held: `The answer is approx \\boxed{6}`, `The answer is
   approx. 6` (the anchor path). Suggested fix: a period ends a sentence only before a sentence's opening
   (`opens_sentence`) or a line's end; a lowercase abbreviation before a box or a lowercase word leaves it open.
3. The box's equation in prose at a line's start after a line that ends with a link and a hedge (a sibling of red team
   17's class 1, not caught by its table: there the box starts the line): `The sum is not\\nx = \\boxed{6}`, `The answer
   in thousands is\\nx = \\boxed{6}`, `It is not\\nx + y = \\boxed{6}`, `The sum is roughly\\ns = 2 + 4 = \\boxed{6}`, `x is
   not\\nn = \\boxed{6}`, `It is unlikely that\\nf(2) = \\boxed{6}` (about 200 cases). Held: `The sum is not x =
   \\boxed{6}` (one line), `The sum is not\\n$x = \\boxed{6}$` (delimited), `The answer is not\\nx = \\boxed{6}` (the anchor
   path), `I doubt that\\nx = \\boxed{6}`. Suggested fix: the one reading of a break for the lead and the clause (red team
   17 class 1's): a line that opens with no sentence's opening is read with the line above, the box's clause included.
4. A lone `A` or `I` that names a quantity opens a sentence (`opens_sentence` admits `A`/`I` alone, meant for `A car`,
   `I think`): `I doubt that\\nA = \\boxed{6}`, `Not\\nA + B = \\boxed{6}`, `Maybe\\nI: \\boxed{6}`, `In thousands,\\nA:
   \\boxed{6}`, `It is not true that\\nA_1 = \\boxed{6}` (about 45 cases). Held: `Not\\nB = \\boxed{6}`, `Not\\nAB =
   \\boxed{6}`, `I doubt that A = \\boxed{6}`. Suggested fix: `A`/`I` alone open a sentence only before a word (a lowercase
   letter after the space), never before a relation, a colon or a script.
5. A line in a script without case after a line left unfinished (`opens_sentence`'s `Lo`): `I doubt that\\n答案是 6。`,
   `Not\\nคำตอบคือ 6`, `In thousands,\\n答案：\\boxed{6}`, `Maybe\\n答案是 \\boxed{6}` (about 30 cases), where `I doubt
   that\\nответ: 6` is refused (fx29ad class 4). Held: `I doubt that 答案是 6。` (one line). Suggested fix: a script
   without case opens a sentence after a line that ends a statement or another script's sentence end, as a lowercase
   letter does: the line above is read as the new line's lead (`SCRIPT_LEADS`, `ANCHOR_LEADS`).
6. A sign or relation mark inside a label (`_LEAD_MARKS` are label words anywhere in `box_label`): `Answer (-):
   \\boxed{6}`, `Answer >: \\boxed{6}`, `Final answer -: \\boxed{6}`, `Step 1 (-): \\boxed{6}`, `Attempt 1 -: \\boxed{6}`,
   `Answer |: \\boxed{6}` (about 70 cases, every `_NUMBERED_LABELS` word too). Held: `Answer (−): \\boxed{6}`, `Answer <:
   \\boxed{6}`, `Answer (+): \\boxed{6}`. Suggested fix: a line's marks lead a label only at its line's start (`marks_end`),
   as `- Answer:` and `**Answer**:`; after a word a `-`, `>` or `|` is an operator.
7. A chain before the box's own in its math that `_stated_relation` admits but that states something else:
   `!=` read as `=` (`$n != 3, x = \\boxed{6}$`, where `$n \\neq 3, x =` is refused), and the box's own name given another
   value (`$x = 6000, x = \\boxed{6}$`, `$x = 6 \\cdot 10^3, x = \\boxed{6}$`, `We get $x = -6; x = \\boxed{6}$`, `Thus $x =
   7, x = \\boxed{6}$`, where `$x = 6000 = \\boxed{6}$` is refused by `_middles_compute`), and a `?` (`$x = 6?, x =
   \\boxed{6}$`) (about 60 cases). Suggested fix: `_stated_relation` reads `!`, `?` as no relation's part and a chain that
   names the box's own name as a middle side of its chain (`_middles_compute`: a value in numbers agrees).
8. The clause of the last math read by `_math_clause_subject` only when the math ends it and is its only math: words
   after the math (`The answer in thousands is $a$ here, $x = \\boxed{6}$`), a second math segment (`The answer in
   thousands is $a$ or $b$, $x = \\boxed{6}$`), a `$$` display (`The answer in thousands is $$a$$, $x = \\boxed{6}$`), no
   comma before the box (`The answer could be $a$ so \\boxed{6}`, `The wrong value is $a$ so \\boxed{6}`), a dangling `and`
   (`It is false that $a = 2$ and, $x = \\boxed{6}$`) (about 250 cases). Held: `The answer in thousands is $a$, $x =
   \\boxed{6}$`, `The wrong value is $a$, so \\boxed{6}`. Suggested fix: the clause's subject is read by the one reader
   whatever follows the math in it, each math segment one word (`_masked`), `$$` included.
9. Grading time past `MAX_FUNCTION_PRODUCTS` (cost): `guards.function_products` counts a call only in the spellings it
   lists, so other spellings of the product or the call are unbounded: `\\sin{(a)} · \\sin{(b)} · ...` (U+00B7) ten calls
   30 s, eight 6.9 s; `\\sin[a] · ...` ten 30 s, eight 3.5 s; `×` (U+00D7) eight 2-4 s; `\\cdotp`, `\\mathbin{\\cdot}`,
   `(\\sin(a)) \\div ...`, `\\lvert\\sin(a)\\rvert \\cdot ...`, `\\exp(a) · ...` eight 1-2 s; a gold of eight `\\sin{(a)}
   ·` 5.8 s (strict, warm, each in its own process, load 4-5). `function_products` reads 0 for each. Suggested fix:
   count on math-verify's token stream, or read every product sign (`·`, `×`, `\\cdotp`, `\\mathbin`, `\\ast`) and every
   call's bracket (`{(`, `[`, a bracket or bars around the call) in `_function_scan`. Closed by fx29ai:
   `function_products` reads the text as the parser does (`to_ascii_math`) and counts by an allowlist of what is no
   product after a call's argument (a term's separator after closing brackets and a fraction's next argument, the next
   call juxtaposed); anything else is one. Plain tests, both profiles, answer and gold.

Nothing paid past what held, no error and nothing over 1 s in these families (both profiles):
- numbered labels: `Attempt 1 maybe:`, `... in k:`, `... (×1000):`, `... thousand:`, `... $\\times 10^3$:`, `... failed:`,
  `... (n odd):`, `Attempt one:`, `#1`, `No. 1`, and 70 other judgments, scales and hedges beside twelve `_NUMBERED_LABELS`
  words, with a bare box, an anchor and `$x = \\boxed{6}$` after the colon: refused;
- colons: `The wrong value: so, $x = \\boxed{6}$`, `Guess: thus, the answer is`, `::`, `∶`, `﹕`, `︰`, `꞉`, `—` after the
  colon: refused;
- exponentials: `{e}^{\\sin({e}^{\\sin(...)})}` four deep (0.8 s), `\\tan` alike, `x^{x^{...}}` six deep (1.1 s), `\\ln`
  four deep plus a `{e}` tower four deep (1.3 s, load 5): near 1 s, within the bounds' measured range.

Noted, not counted: a numbered label's letter may be a scale's (`Attempt k:`, `Sample M:`, `Try B:`, `Round k:`, `Round
1000:`, `Attempt 1 of k:` pay; by stop 45's design a letter numbers a section); `The answer is not $6$, $x = \\boxed{6}$`
pays (a rejected value that is the box's, `lead_clauses`' rejection rule); a box after a full sentence's end is read
alone (`Maybe. \\boxed{6}`, `I doubt it. \\boxed{6}` pay: the sentence rule's design, which class 2 rides); bare-box
line-start cases (red team 17 class 1) were not recounted.
"""

from __future__ import annotations

import pytest

from tests.helpers import MATH_PROFILES, math_verdicts, paid_test, refused_test
from tests.helpers import number_case as n
from verifier.math.guards import MAX_FUNCTION_PRODUCTS, function_guard, function_products

OPEN = "open: {} (rt29t)"


def _open(what: str) -> list:
    return [pytest.mark.xfail(strict=True, reason=OPEN.format(what))]


# 1. A math opener left unclosed before a box.
UNCLOSED_NEAR = [n(c) for c in [
    "Maybe$: the answer is \\boxed{6}", "The answer is not$, so the answer is \\boxed{6}", "I doubt that\\(: the answer is \\boxed{6}",
    "In thousands\\[: \\boxed{6}", "Roughly$$: $x = \\boxed{6}$", "Wrong answer$: the final answer is \\boxed{6}",
    "The answer is not\\[, the answer is \\boxed{6}", "Possibly$, thus the answer is $x = \\boxed{6}$",
    # fx29ah: a display's `$$` opener ended the sentence as its end does
    "Maybe, we get $$x = \\boxed{6}$$", "In thousands, $$x = \\boxed{6}$$", "Maybe, we get $$\\boxed{6}$$",
]]
UNCLOSED_HELD = [n(c) for c in [
    "Maybe: the answer is \\boxed{6}", "Maybe, the answer is \\boxed{6}", "Maybe$ the answer is \\boxed{6}", "The answer is not: \\boxed{6}",
]]
UNCLOSED_PAID = [n(c) for c in [
    "Thus: the answer is \\boxed{6}", "We get $a = 2$, so the answer is \\boxed{6}", "Answer: $x = \\boxed{6}$",
    "Thus, $$x = \\boxed{6}$$", "We get $$x = 2 + 4 = \\boxed{6}$$", "The area is $$\\boxed{6}$$", "We get $a = 2$ and $$x = \\boxed{6}$$",
]]
test_an_unclosed_math_opener_before_a_box_is_read = refused_test(
    UNCLOSED_NEAR, """Paid in both profiles: `grammar._own_math` takes the last unclosed opener as the math that holds the
    box, so the words before it are the box's own math and no lead or label reader sees them. The safe verdict: a lone
    opener is a word of the sentence. Closed by fx29ah (`grammar._own_math`
    reads the segment `_math_spans` pairs; `last_break` ends no sentence at a display's opener).""")
test_a_hedge_before_a_box_without_an_opener_stays_refused = refused_test(UNCLOSED_HELD)
test_a_clause_before_a_box_that_leads_pays = paid_test(UNCLOSED_PAID)


# 2. An abbreviation's period ends the sentence before a box.
ABBREVIATION_NEAR = [n(c) for c in [
    "The answer is approx. \\boxed{6}", "Answer: approx. \\boxed{6}", "The answer is ca. \\boxed{6}", "The sum is not approx. \\boxed{6}",
    "It is approx. $x = \\boxed{6}$", "In thousands, e.g. \\boxed{6}",
    # fx29ah
    "The answer is est. \\boxed{6}", "The value is (approx.) \\boxed{6}", "The answer is approx. the value \\boxed{6}",
    "The answer is approx.  $\\boxed{6}$", "The answer is roughly. \\boxed{6}",
]]
ABBREVIATION_OPEN = [n(c) for c in ["Maybe $a = 2$, i.e. \\boxed{6}", "the answer is approx.\n\\boxed{6}"]]
ABBREVIATION_HELD = [n(c) for c in [
    "The answer is approx \\boxed{6}", "The answer is approximately \\boxed{6}", "The answer is approx. 6", "Answer: approx. 6",
]]
ABBREVIATION_PAID = [n(c) for c in [
    "The sum is 2 + 4, i.e. \\boxed{6}", "We get $x = 6$, i.e. \\boxed{6}", "The answer is 6, i.e. \\boxed{6}", "The answer is \\boxed{6}.",
    "So the result follows. \\boxed{6}", "The sum is 2 + 4. \\boxed{6}", "We get $x = 6$. \\boxed{6}", "Thus we are done. \\boxed{6}",
    "(The figure is a rectangle.) Therefore, the area is $$\\boxed{6}$$",
]]
test_an_abbreviations_period_before_a_box_is_read = refused_test(
    ABBREVIATION_NEAR, """Paid in both profiles: `_SENTENCE_END_RE` ends a sentence at any period before a space, so the
    words before `approx.`, `ca.`, `i.e.` are another sentence's and the box is read alone. The safe verdict: a period
    before a lowercase word or a box leaves the sentence open. Closed by fx29ah (`grammar.period_ends`: a period
    ends a sentence after a number, math, `i.e.` or a word the grammar knows, or before a sentence's opening or a line's
    end).""")
test_an_abbreviations_period_at_a_line_end_or_i_e_is_read = refused_test(
    ABBREVIATION_OPEN, """Left open by fx29ah: a period at a line's end ends a sentence whatever word it follows (Omni-MATH's
    right rows end such lines with words no vocabulary holds: `... of his $2n - 1$ friends.\\n\\n\\(\\boxed{n}\\)`), and
    `i.e.` restates after a sentence's end, so the clause before it is not read (`The sum is 2 + 4, i.e. \\boxed{6}` must
    pay, while `The sum is 2 + 4, so \\boxed{6}` is refused: a clause that states a prose value has no reader yet).""",
    marks=_open("class 2, an abbreviation's period at a line's end, and the clause before `i.e.`"))
test_a_hedge_word_before_a_box_stays_refused = refused_test(ABBREVIATION_HELD)
test_a_restatement_after_i_e_pays = paid_test(ABBREVIATION_PAID)
# fx29ag's line-start reader and fx29ah's period allowlist, merged, read a period at a line's end as before a lowercase
# word, so a sentence ended by a word no vocabulary holds no longer ended before a box on a later line (two right
# Omni-MATH rows lost: `... after a finite number of turns.\n\n\boxed{...}`); a line break after the period ends it.
PERIOD_AT_LINE_END_PAID = [n(c) for c in [
    "It is not always possible after a finite number of turns.\n\n\\boxed{6}", "It is foo.\n\\boxed{6}",
    "The values depend on how the students are distributed among the majors.\n\n\\[\n\\boxed{6}\n\\]",
]]
test_a_period_at_a_line_end_before_a_box_ends_its_sentence = paid_test(PERIOD_AT_LINE_END_PAID)


# 3. The box's equation in prose at a line's start after a link and a hedge.
LINE_EQUATION_NEAR = [n(c) for c in [
    "The sum is not\nx = \\boxed{6}", "The answer in thousands is\nx = \\boxed{6}", "It is not\nx + y = \\boxed{6}",
    "The sum is roughly\ns = 2 + 4 = \\boxed{6}", "x is not\nn = \\boxed{6}", "It is unlikely that\nf(2) = \\boxed{6}",
    "The sum is at least\nx = \\boxed{6}.", "The sum is not equal to\nthe sum = \\boxed{6}", "The sum is not\n> x = \\boxed{6}",
    "The sum is not\n1. x = \\boxed{6}",
]]
LINE_EQUATION_HELD = [n(c) for c in [
    "The sum is not x = \\boxed{6}", "The sum is not\n$x = \\boxed{6}$", "The answer is not\nx = \\boxed{6}", "I doubt that\nx = \\boxed{6}",
    "The sum is not\n\\[x = \\boxed{6}\\]", "The sum is not\n\nx = \\boxed{6}", "Maybe\nx = 2 + 4 = \\boxed{6}",
    "The answer in thousands is\n\\(x = \\boxed{6}\\)",
]]
LINE_EQUATION_PAID = [n(c) for c in [
    "The sum is\nx = \\boxed{6}", "We get\nx = \\boxed{6}", "The sum is\n\\[x = \\boxed{6}\\]", "We get $a = 2$.\nx = \\boxed{6}",
    "Thus\nx = 2 + 4 = \\boxed{6}", "The sum is not 7.\nx = \\boxed{6}", "Adding:\n2 + 4 = 6\nx = \\boxed{6}",
    "The sum is\n> x = \\boxed{6}", "We get\n- x = \\boxed{6}",
]]
test_an_equation_at_a_line_start_reads_the_line_above = refused_test(
    LINE_EQUATION_NEAR, """Closed by fx29aj; before it, paid in both profiles: an undelimited `x = \\boxed{6}` that opens a line is read without the line
    above, which ends with a link and a hedge (red team 17 class 1's shape with the box's clause at the line's start).
    The safe verdict: the line above read as on one line.""")
test_an_equation_after_a_hedge_on_one_line_stays_refused = refused_test(LINE_EQUATION_HELD)
test_an_equation_on_its_own_line_after_a_link_pays = paid_test(LINE_EQUATION_PAID)


# 4. A lone `A` or `I` naming a quantity opens a sentence.
LONE_CAPITAL_NEAR = [n(c) for c in [
    "I doubt that\nA = \\boxed{6}", "Not\nA + B = \\boxed{6}", "Maybe\nI: \\boxed{6}", "In thousands,\nA: \\boxed{6}",
    "It is not true that\nA_1 = \\boxed{6}", "Possibly\nA = \\boxed{6}",
]]
LONE_CAPITAL_HELD = [n(c) for c in [
    "Not\nB = \\boxed{6}", "Not\nAB = \\boxed{6}", "I doubt that A = \\boxed{6}", "Not\nI think \\boxed{6}", "Maybe\nA: \\boxed{6}",
    "In thousands,\nA: x = \\boxed{6}", "Maybe\nI = \\boxed{6}", "Not\nA B = \\boxed{6}",
]]
LONE_CAPITAL_PAID = [n(c) for c in [
    "Thus\nA = \\boxed{6}", "Hence\nA = \\boxed{6}", "So\nI get \\boxed{6}", "Maybe\nA: the answer is \\boxed{6}", "Thus A = \\boxed{6}",
    "We check it.\nI get \\boxed{6}", "Therefore\nI get \\boxed{6}",
]]
test_a_lone_capital_name_continues_its_sentence = refused_test(
    LONE_CAPITAL_NEAR, """Closed by fx29aj; before it, paid in both profiles: `grammar.opens_sentence` admits `A` or `I` alone as a sentence's opening,
    also as a quantity's name before `=` or `:`. The safe verdict: the line above read with it.""")
test_a_capital_name_after_a_hedge_stays_refused = refused_test(LONE_CAPITAL_HELD)
test_a_capital_name_after_a_lead_pays = paid_test(LONE_CAPITAL_PAID)


# 5. A line in a script without case after a line left unfinished.
CASELESS_NEAR = [n(c) for c in [
    "I doubt that\n答案是 6。", "Not\nคำตอบคือ 6", "In thousands,\n答案：\\boxed{6}", "Maybe\n答案是 \\boxed{6}",
    "I am not sure that\n答案是 6。",
]]
CASELESS_HELD = [n(c) for c in [
    "I doubt that 答案是 6。", "I doubt that\nответ: 6", "Not\nответ — 6.", "Not คำตอบคือ 6", "I doubt that；\n答案是 6。",
    "In thousands\n\n答案是 6。", "Not\n$x$\n答案是 6。",
]]
CASELESS_PAID = [n(c) for c in [
    "答案是 6。", "So\n答案是 6。", "所以\n答案是 6。", "คำตอบคือ 6", "ดังนั้น\nคำตอบคือ 6", "ดังนั้น คำตอบคือ 6", "2 + 4 = 6。\n答案是 6。",
    "所以 x = 6；\n所以，答案是 x = 6。", "We add them.\n答案是 6。",
]]
CASELESS_NAMES_COST = [n("所以 x = 6；\n所以，答案是 6。")]
test_a_step_line_naming_x_above_a_caseless_answer_pays = paid_test(CASELESS_NAMES_COST, marks=[
    pytest.mark.xfail(strict=True, reason="cost: a step line names only what the answer line names (fx29av)")])
test_a_caseless_line_after_an_unfinished_line_is_read_with_it = refused_test(
    CASELESS_NEAR, """Closed by fx29aj; before it, paid in both profiles: `grammar.opens_sentence` takes any letter of a script without case as a
    sentence's opening, whatever the line above left unfinished; a lowercase Cyrillic line after the same line is
    refused (fx29ad). The safe verdict: the line above read as the new line's lead.""")
test_a_cased_line_after_an_unfinished_line_stays_refused = refused_test(CASELESS_HELD)
test_a_caseless_sentence_pays = paid_test(CASELESS_PAID)


# 6. A sign or relation mark inside a label.
LABEL_MARK_NEAR = [n(c) for c in [
    "Answer (-): \\boxed{6}", "Answer >: \\boxed{6}", "Final answer -: \\boxed{6}", "Step 1 (-): \\boxed{6}", "Attempt 1 -: \\boxed{6}",
    "Answer |: \\boxed{6}", "Answer -: the answer is \\boxed{6}", "Sample 2 >: $x = \\boxed{6}$",
    "Answer ->: \\boxed{6}", "**Answer -**: \\boxed{6}", "Answer|: \\boxed{6}", "Answer>: \\boxed{6}", "Answer -: 6",
]]
LABEL_MARK_HELD = [n(c) for c in [
    "Answer (−): \\boxed{6}", "Answer <: \\boxed{6}", "Answer (+): \\boxed{6}", "Attempt 1 - wrong: \\boxed{6}", "Answer -- \\boxed{6}",
]]
LABEL_MARK_PAID = [n(c) for c in [
    "Answer: \\boxed{6}", "- Answer: \\boxed{6}", "**Answer**: \\boxed{6}", "## Answer: \\boxed{6}", "> Answer: \\boxed{6}",
    "Attempt 1: \\boxed{6}", "- **Answer**: \\boxed{6}", "1. Answer: \\boxed{6}", "Done.\n- Answer: \\boxed{6}",
    "> **Final Answer**: \\boxed{6}", "**Final Answer**: $x = \\boxed{6}$",
]]
test_a_mark_inside_a_label_is_read = refused_test(
    LABEL_MARK_NEAR, """Paid in both profiles: `grammar.box_label` admits `_LEAD_MARKS` anywhere among a label's words, so
    a `-` (the sign), `>` (a bound) or `|` after the label's word is read as markup. The safe verdict: a mark leads a
    label only at its line's start. Closed by fx29ah
    (`grammar._OPERATOR_MARKS`).""")
test_a_unicode_sign_in_a_label_stays_refused = refused_test(LABEL_MARK_HELD)
test_a_marked_label_pays = paid_test(LABEL_MARK_PAID)


# 7. A chain before the box's own that `_stated_relation` admits but that states something else.
RELATION_NEAR = [n(c) for c in [
    "$n != 3, x = \\boxed{6}$", "We get $x != 6, x = \\boxed{6}$", "$x = 6000, x = \\boxed{6}$", "$x = 6 \\cdot 10^3, x = \\boxed{6}$",
    "We get $x = -6; x = \\boxed{6}$", "Thus $x = 7, x = \\boxed{6}$", "$x = 6?, x = \\boxed{6}$", "We get $x = 6 \\times 1000, x = \\boxed{6}$",
    # fx29ah
    "$x = 6!, x = \\boxed{6}$", "$x = 6! = \\boxed{6}$", "$f(2) = 7, f(2) = \\boxed{6}$", "$7 = x, x = \\boxed{6}$",
    "$x = 7, y = x = \\boxed{6}$", "$n ! = 3, x = \\boxed{6}$", "$x=-6,\\ x=\\boxed{6}$", "$x = 6.5, x = \\boxed{6}$",
]]
RELATION_HELD = [n(c) for c in [
    "$n \\neq 3, x = \\boxed{6}$", "$n \\ne 3, x = \\boxed{6}$", "$x \\approx 5, x = \\boxed{6}$", "$x = 6000 = \\boxed{6}$",
    "$x = 7 = \\boxed{6}$",
]]
RELATION_PAID = [n(c) for c in [
    "$a = 2, b = 3, x = \\boxed{6}$", "$x = 2 + 4, x = \\boxed{6}$", "We get $y = 6000, x = \\boxed{6}$", "$n = 3, x = \\boxed{6}$",
    "$x = 3!, x = \\boxed{6}$", "$x = 3! = \\boxed{6}$", "$x = \\frac{12}{2}, x = \\boxed{6}$", "$x = 6, x = \\boxed{6}$",
    "$n = 3!, x = \\boxed{6}$", "We have $x = 10 - 4$, so $x = 2 + 4 = \\boxed{6}$",
]]
test_a_chain_that_states_another_value_before_the_box_is_read = refused_test(
    RELATION_NEAR, """Paid in both profiles: `grammar._stated_relation` reads `!=` as an `=` relation (its `!` is a chain
    character) and admits a chain that gives the box's own name another value, which `_middles_compute` refuses in one
    chain. The safe verdict: `!=` is a condition, and the box's name takes one value. Closed by fx29ah
    (`grammar._stated_relation`, `_agrees_with_box`; `_arithmetic` reads a small factorial).""")
test_a_condition_or_another_value_in_one_chain_stays_refused = refused_test(RELATION_HELD)
test_a_chain_of_stated_relations_pays = paid_test(RELATION_PAID)


# 8. The last math's clause read only when the math ends it and is its only math.
MATH_CLAUSE_NEAR = [n(c) for c in [
    "The answer in thousands is $a$ here, $x = \\boxed{6}$", "The answer in thousands is $a$ or $b$, $x = \\boxed{6}$",
    "The answer in thousands is $$a$$, $x = \\boxed{6}$", "The answer could be $a$ so \\boxed{6}", "The wrong value is $a$ so \\boxed{6}",
    "It is false that $a = 2$ and, $x = \\boxed{6}$", "The answer divided by 1000 is $a$ so \\boxed{6}",
    "The answer in thousands is $a$ now; $x = \\boxed{6}$", "The answer could be $a$ then \\boxed{6}",
    "The answer could be $a$ so the answer is \\boxed{6}",
]]
MATH_CLAUSE_HELD = [n(c) for c in [
    "The answer in thousands is $a$, $x = \\boxed{6}$", "The wrong value is $a$, so \\boxed{6}", "We get $a = 2$ so \\boxed{6}",
    "It is not true that $a = 2$, $x = \\boxed{6}$", "The answer in thousands is \\[a\\], $x = \\boxed{6}$",
    "The answer in thousands is $$a$$; $x = \\boxed{6}$", "The answer could be $a$ and so \\boxed{6}",
    "The answer in thousands is $a$ or $b$ so \\boxed{6}", "It is false that $a = 2$ or $b = 3$, $x = \\boxed{6}$",
]]
MATH_CLAUSE_PAID = [n(c) for c in [
    "The value is $a$ here, $x = \\boxed{6}$", "The value is $a$ or $b$, $x = \\boxed{6}$", "We get $$a = 2$$, so $x = \\boxed{6}$",
    "The value is $a$ so \\boxed{6}", "We get \\[a = 2\\], so $x = \\boxed{6}$", "We get $a = 2$ and $b = 3$, so $x = \\boxed{6}$",
    "The sum of $a$ and $b$ is $6$, so $x = \\boxed{6}$", "Since $a = 2$ and $b = 4$, $x = \\boxed{6}$",
    "The value is $a$ and so \\boxed{6}", "The value of $x$ such that $x^2 = 36$ is \\boxed{6}.",
]]
test_the_last_maths_clause_is_read_whatever_follows_its_math = refused_test(
    MATH_CLAUSE_NEAR, """Closed by fx29aj; before it, paid in both profiles: `grammar._math_clause_subject` returns True when words follow the last
    math in its clause, reads a clause of two math segments from the last only, and `_INLINE_MATH_RE` misses `$$`; with
    no comma the box's clause (`box_clause`) admits the clause as a derivation. The safe verdict: the clause's subject
    read by the one reader.""")
test_the_last_maths_clause_that_ends_with_it_stays_refused = refused_test(MATH_CLAUSE_HELD)
test_a_stated_last_maths_clause_pays = paid_test(MATH_CLAUSE_PAID)
DISPLAY_LEAD_NEAR = [n(c) for c in ["The answer in thousands is $$a$$ so \\boxed{6}", "The answer could be \\[a\\] so \\boxed{6}"]]
test_a_display_before_a_lead_with_no_comma_is_read = refused_test(
    DISPLAY_LEAD_NEAR, """Left by fx29aj (class 8's leftover): a display's end before a lower-case word ends the sentence
    (`_SENTENCE_END_RE`), so the display's clause is read by no one. Read through (a display followed by a comma or a
    semicolon is), math-verify's suite row `In particular, \\[q(8) = ...\\]so \\[p(8) = ... = \\boxed{...}\\]` is
    refused (`In particular` is no lead).""", marks=_open("class 8's leftover, a display before a lead with no comma"))


# 9. Cost: products of calls in spellings `function_products` does not count.
_LETTERS = "abcdef"
PRODUCT_SPELLINGS = [("\\sin{{({v})}}", "·"), ("\\sin[{v}]", "·"), ("\\sin({v})", "×"), ("\\sin({v})", "\\cdotp"),
                     ("\\sin({v})", "\\mathbin{\\cdot}"), ("(\\sin({v}))", "\\div"), ("\\lvert\\sin({v})\\rvert", "\\cdot"),
                     ("\\exp({v})", "·")]


def _product(call: str, sign: str, calls: int = 6) -> str:
    return f" {sign} ".join(call.format(v=v) for v in _LETTERS[:calls])


@pytest.mark.parametrize("profile", MATH_PROFILES)
@pytest.mark.parametrize(("call", "sign"), PRODUCT_SPELLINGS, ids=[f"spelling-{k}" for k in range(len(PRODUCT_SPELLINGS))])
def test_a_product_of_calls_in_any_spelling_is_bounded(call: str, sign: str, profile: str) -> None:
    """Closed by fx29ai: eight calls 1-7 s, ten `\\sin{(a)} ·` or `\\sin[a] ·` 30 s (strict, warm, load 4-5) where
    `guards.function_products` read 0 for these spellings. Six calls are past `MAX_FUNCTION_PRODUCTS` as `\\cdot`
    between `\\sin(a)` is: an answer is refused with the bound's reason (`too costly`), a gold is compared as written
    only (checked without timing)."""
    from verifier.math import grade_math

    product = _product(call, sign)
    assert function_products(product) > MAX_FUNCTION_PRODUCTS
    result = grade_math({"completion": f"\\boxed{{{product}}}", "gold": "1", "profile": profile})
    assert result["verdict"] == "incorrect" and "too costly" in result["detail"], result
    against_gold = grade_math({"completion": "\\boxed{1}", "gold": product, "profile": profile})
    assert against_gold["verdict"] == "incorrect" and "gold not compared" in against_gold["detail"], against_gold
    assert "products after function calls" in against_gold["detail"]
    own = grade_math({"completion": f"\\boxed{{{product}}}", "gold": product, "profile": profile})
    assert own["verdict"] == "correct", own  # the gold's own text, as written


# Past the spellings the red team tried: what stands between two calls is a product unless it is a term's separator
# (fx29ai's allowlist), so a letter, a bar or a bracket between juxtaposed calls, another call of the parser's `func`
# rule (`\\gamma(a)`, eight 7.5 s), a call in a fraction's first part, or a product sign math-verify's lexer reads (`∗`, `⋆`) are bounded alike.
OTHER_PRODUCTS = [_product(*spelling) for spelling in [
    ("(\\sin {v})", ""), ("|\\sin {v}|", ""), ("\\sin({v}) {v}", ""), ("\\gamma({v})", "\\cdot"), ("\\sin({v})", "\\ast"),
    ("\\sin({v})", "∗"), ("\\sin({v})", ":"), ("\\sin({v})", "\\cdot -"), ("\\left|\\sin {v}\\right|", ""),
    ("\\sin \\left({v}\\right)", "\\,\\cdot\\,"), ("\\operatorname{{arcsinh}}({v})", "\\cdot"), ("\\max({v}, 1)", "\\times"),
    ("\\frac{{\\gamma({v})}}{{2}}", "\\cdot"),
]]


@pytest.mark.parametrize("product", OTHER_PRODUCTS)
def test_a_product_of_calls_past_the_listed_spellings_is_bounded(product: str) -> None:
    """The bound's reason for the text, whichever reader refuses the answer first (`∗` is a symbol the grammar does not
    know, `\\operatorname{arcsinh}` chains a second value): a gold is compared as written only, by the bound."""
    assert function_products(product) > MAX_FUNCTION_PRODUCTS
    assert "products after function calls" in (function_guard(product) or "")
    for profile in MATH_PROFILES:
        result = grade_math_task(f"\\boxed{{{product}}}", "1", profile)
        assert result["verdict"] == "incorrect" and "not usable" in result["detail"], result
        against_gold = grade_math_task("\\boxed{1}", product, profile)
        assert against_gold["verdict"] == "incorrect" and "products after function calls" in against_gold["detail"]


@pytest.mark.parametrize("text", [
    "\\sin(a)\\sin(b)\\sin(c)\\sin(d)\\sin(e)\\sin(f)", "\\sin a + \\sin b + \\sin c + \\sin d + \\sin e + \\sin f",
    "|\\sin a| + |\\sin b| + |\\sin c| + |\\sin d| + |\\sin e| + |\\sin f|", "\\sin(a) = \\sin(b), \\sin(c)",
    "\\frac{\\sin(a)}{2} + \\frac{\\sin(b)}{2}", "(\\sin a + 1) + (\\cos a - 1)", "\\sin^{2}(x) - \\cos^{2}(x)",
    "\\frac{\\tan(\\tan(x)) - \\sin(\\sin(x))}{x^{7}}",
])
def test_calls_in_separate_terms_or_juxtaposed_are_no_products(text: str) -> None:
    """The allowlist's other side: a term's separator (`+`, `-`, `=`, `,`; after a fraction's next argument too), or the
    next call right after the argument (juxtaposed calls parse at once) is no product. A bracketed factor a product
    follows counts its calls since fx29an (`(\\sin a + 1)(\\cos a - 1)` is 1: tests/test_math_cost_bounds.py)."""
    assert function_products(text) == 0


def grade_math_task(completion: str, gold: str, profile: str) -> dict:
    from verifier.math import grade_math

    return grade_math({"completion": completion, "gold": gold, "profile": profile})


def test_a_product_of_calls_with_cdot_is_bounded() -> None:
    from verifier.math import grade_math

    answer = _product("\\sin({v})", "\\cdot")
    result = grade_math({"completion": f"\\boxed{{{answer}}}", "gold": "1", "profile": "strict"})
    assert result["verdict"] != "correct" and "too costly" in result["detail"]


@pytest.mark.parametrize(("completion", "gold"), [
    ("\\boxed{2\\sin(x) · \\cos(x)}", "\\sin(2x)"), ("\\boxed{2\\sin(x) × \\cos(x)}", "\\sin(2x)"),
    ("\\boxed{\\sin(a) · \\cos(b)}", "\\sin(a)\\cos(b)"),
])
def test_a_short_product_in_another_spelling_pays(completion: str, gold: str) -> None:
    """Realistic rewrites hold one or two products: a bound in other spellings must keep them read, in both profiles."""
    assert math_verdicts(completion, gold) == ["correct", "correct"]
