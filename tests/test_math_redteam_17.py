"""Red team of issue 29's answer grammar, seventeenth pass (rt29s): wrong answers the grader pays and answers that hold
a grading worker for seconds, after fx29y (`grammar.statement_lines`, `grammar._equals_subject`, `conditions.HEAD_WORDS`
and `grammar._identity_head`, `conditions.NUMBER_SETS`), fx29z (`grammar.last_break`; sum-to-product, `Through this
analysis`, `grammar._SETTLED_CLAUSE_RE`), fx29aa (`grammar.anchor_clause`, `grammar._masked`), fx29x
(`guards.function_guard`) and fx29ab (`guards.MAX_TRIG_PRODUCT`). Graded by the real grader (`grade_math` through
`tests.helpers.math_verdicts`) in both profiles; every `*_NEAR` case below paid `correct` in both profiles, and each is
a strict xfail asserting the safe verdict until its class is closed; plain tests hold what held. Gold 6 unless a case
says otherwise. About 700 candidates tried, by family (one grading process at a time, warm, main at 79630dd, beside a
clean-clone CI run).

Ranked by how bad (a natural wording, how many variants, how far the stated value is from the box's):

1. A box at a line's start is led whatever ends the line above, for any subject but "answer" (`grammar.box_lead`
   returns True when the box starts a line, before it reads the word or mark before the box; `box_clause` and
   `box_subject` never read the words after the link, relying on `box_lead` for them; fx29y made the clause cross the
   break, but "the answer is" subjects are refused only by the anchor path): `The sum is not\\n\\boxed{6}`, `The total is
   not\\n\\[\\boxed{6}\\]`, `The result is not\\n$$\\boxed{6}$$`, `The value is not\\n\\boxed{6}`, `The area is not ...`, `Its
   value is not ...`, `x is not\\n\\boxed{6}`, `So the sum is not ...`, `The sum of the roots is not ...`, `The sum is\\nroughly\\n
   \\[\\boxed{6}\\]`, `The sum is\\nin thousands\\n\\boxed{6}`, `The sum is in thousands\\n\\[\\boxed{6}\\]`, `Thus, the inequality is
   proven\\nin thousands\\n\\[\\boxed{6}\\]`, and with a colon for every subject, "answer" too: `The answer is not:\\n\\[\\boxed{6}\\]`,
   `The final answer is not:\\n...`, `The sum is not:\\n...` (about 50 cases). Held: all of them on one line (`The sum is
   not \\boxed{6}`, `The answer is not: \\boxed{6}`), and `The answer is not\\n\\boxed{6}` (the anchor path). Suggested fix:
   one reading of a break for the lead and the clause: `box_lead` admits a box at a line's start only where
   `statement_lines` ends a statement before it (else it reads the last word or mark of the line above, across the
   break and a display's opener, as on one line); a label's colon is read as on one line.
2. A line with no word of two letters is "math alone" (`grammar._math_alone`, fx29z), so it ends a statement before a
   lowercase line and the anchor or box after it is read alone: `≈\\nthe answer is 6.`, `~\\n...`, `≥\\n...`, `≠\\n...`,
   `<\\n...`, `¬\\n...`, `-\\nthe answer is \\boxed{6}.`, `?\\n...`, `×1000\\nthe answer is 6.`, `÷ 1000\\n...`, `(×10³)\\n...`,
   `\\neg\\n...`, `\\approx\\n...`, `\\geq\\n...`, `\\not\\n...`, `\\times 1000\\n...`, `$\\approx$\\n...`, `\\(\\neg\\)\\n...`, `x
   1000\\n...`, `a\\n...`, `1000 ×\\n...`, `≈\\nso the answer is 6.`, and `answer: 6`, `the final answer is $6$`, `#### 6` after
   them (about 110 cases). Held: `≈ \\n\\nthe answer is 6.` (a blank line), `####` after a lone relation. Suggested fix
   (an allowlist of shapes): math alone is a line whose content lies inside closed math segments, or a relation
   whose last side is a value (`2 + 4 = 6`, `x = 6`): a lone operator, relation, negation or command is a fragment
   that joins the next line.
3. A line that ends a statement by fx29y's rule (a number, a segment or a box at its end) before a line that opens
   with a list, quote or emphasis mark and then a lowercase word (`grammar._CONTINUES_RE` admits only `**`/`__`
   before the lowercase letter, `_SENTENCE_OPENS_RE` admits `#`, `>`): `In units of 1000\\n- the answer is 6`,
   `Multiply by 1000\\n> the answer is 6`, `In units of $10^3$\\n*the answer is 6*`, `Multiply by 1000\\n* the answer is
   6`, `Multiply by 1000\\n1. the answer is 6`, `In units of $10^3$\\n- **the answer is 6**`, `I doubt it is 7\\n> the
   answer is \\boxed{6}`; and a line that ends with a box whatever its words (fx29z: "the line above ends with a box"):
   `In units of \\boxed{1000}\\nthe answer is 6.`, `I doubt \\boxed{x}\\nthe answer is 6.`, `I doubt \\boxed{x}\\n$x =
   \\boxed{6}$` (about 45 cases). Held: the same after a line that ends with a word (`Maybe\\n- the answer is 6`), and
   `(`, `"`, `\\textbf{` before the lowercase word. Suggested fix: `_CONTINUES_RE` reads a lowercase word after any
   list, quote or emphasis marker the sentence-opening rule skips (one table of line markers for both); a box ends a
   statement only when its line states it (`box_clause` of that line), as a number does only in a stating line.
4. A lowercase letter of a cased script opens a sentence (`grammar._SENTENCE_OPENS_RE`'s `[^\\W\\d_A-Za-z]`, meant for
   scripts without capitals, matches Cyrillic, Greek and math-alphanumeric lowercase letters): `Возможно\\nответ —
   6.`, `Я не уверен, что\\nответ — \\boxed{6}.`, `Неверно, что\\nокончательный ответ — 6.`, `I doubt that\\nответ: 6`,
   `In thousands\\nответ: \\boxed{6}`, `Unsure whether\\nответ — 6.`, `Possibly\\nитак, ответ: 6`, `Not\\n𝑥 = \\boxed{6}`,
   `I doubt that\\n𝑥 = \\boxed{6}` (about 30 cases). Held: Greek sentences (no Greek anchor), `α = \\boxed{6}`, `ñ =
   \\boxed{6}` (unread names). Suggested fix: a letter opens a sentence only when it is upper case or of a script
   without case (`c.isupper() or c.isalpha() and c.lower() == c.upper()`).
5. A comma, semicolon or relation inside the box's own math restarts its side, and the words before the math are
   then never read (`grammar._equals_subject` returns True for a side with `,`, `;`, `<`, `>`, `\\implies`, ...):
   `Maybe $a, x = \\boxed{6}$.`, `I doubt that $a; x = \\boxed{6}$.`, `The answer in thousands is $a, x = \\boxed{6}$.`,
   `The value of 1000 $a, x = \\boxed{6}$.`, `The wrong value: $n < 3, x = \\boxed{6}$.`, `The answer is not $a, x =
   \\boxed{6}$.`, `It is not true that $a = 2, x = \\boxed{6}$.`, `Perhaps $x > 5, x = \\boxed{6}$`, `The value of $x$ such
   that $x > 7$ $a, x = \\boxed{6}$.`, `I doubt that \\[a, x = \\boxed{6}\\].`; and after a verb the subject before the
   verb is never read (`link.verbed` returns True): `The answer in thousands is $x = \\boxed{6}$.`, `The value of 1000
   $y$ is $x = \\boxed{6}$.`, `The answer in thousands is\\n\\[x = \\boxed{6}\\]` (about 45 cases). Held: `Maybe $x =
   \\boxed{6}$`, `In thousands, $a = 2, x = \\boxed{6}$.`, `The wrong answer is $x = \\boxed{6}$.`, `We guess $x =
   \\boxed{6}$.`. Suggested fix: a restart or a verb chooses the box's side only; the words before the math (and the
   subject before the verb) are still read by the one subject reader (`_copula_subject`, the words as a leading clause
   as `box_lead_clauses` reads the clause of the last math).
6. Grading time past `MAX_FUNCTION_DEPTH` (cost): `guards.function_guard` reads an exponential only as a bare `e^` or
   `\\mathrm{e}^`, so `{e}^{...}` and `\\text{e}^{...}` towers (parsed as Euler's e) are unbounded: six deep, answer
   `\\boxed{{e}^{{e}^{...x}}}` against gold 1 over 120 s, `\\text{e}` six deep over 20 s, gold six deep against
   `\\boxed{1}` over 20 s (strict, warm, each in its own process); five deep is 0.08 s but not refused by the bound.
   Suggested fix: bound the depth on the parsed tree (nested `exp`/`log` in sympy's expression, answers and golds),
   or read every spelling of e (`{e}`, `\\text{e}`, `\\mathrm e`, `\\operatorname{e}`, `\\mathit{e}`) in
   `function_work`.

Nothing paid, no error and nothing over 1 s in these families (held, both profiles):
- number sets: Unicode sets (`x ∈ ℤ⁺`, `ℕ`, `ℝ⁺`, `ℤ^{+}`), `\\setminus`, `\\cap`, finite sets, intervals, `2\\mathbb{Z} + 1`,
  `\\mathbb{Z}_{5}`, `\\mathbf{Z}^{+}`, `\\Bbb{Z}^{+}`, `\\mathbb{Z}^{\\,+}`, a box past the set's sign or kind (refused or right);
- head words: `A`/`An` heads, `non-negative`, `most negative`, `only positive`, `possible negative`, `prime` against
  36, the set and the head disagreeing, a capitalised head word: refused or right;
- settled premises and methods: `the claim is proven false`, `disproven`, `not satisfied`, `only roughly`, `Assuming
  the claim is proven,`, `By symmetry in thousands,`, `Through this analysis of errors,`, `By sum-to-product in
  thousands,`, `Through this analysis, maybe`, across a break too: refused;
- cost: `\\ln|\\ln|...x||` and `\\ln\\left|...\\right|` chains to 7 (the guard reads `|` as no bracket, but math-verify
  parses them cheaply: under 0.35 s), `\\mathrm e^` and `2^{...}` towers of 6, nested factorials and `\\Gamma` of 5,
  `\\ln\\sqrt{...}`/`\\ln\\frac{1}{...}` chains, nine `\\sin|a|` or `\\sin(a+1)` factors, `\\prod_{k=1}^{10}\\sin(kx)`,
  nine `\\csc` (0.83 s), eight `\\sin(\\sin a)`, `\\sin^{x}` products: each under 1 s;
- controls: `We get $a = 2, x = \\boxed{6}$.`, `Thus $y = 5, x = \\boxed{6}$.`, `Hence $a = 2$, $x = \\boxed{6}$.` pay.

Noted, not counted: a bare box, display or number line after a line that ends with a number or a segment
(`Multiply by 1000\\n\\boxed{6}`, `In units of $10^3$\\n$x = \\boxed{6}$`, lenient `Multiply by 1000\\n6`) is fx29aa's
left-open `####` item's root cause (fx29y's statement rule) on the box and lenient paths; `\\sqrt{...}` of eight sines
(at `MAX_TRIG_PRODUCT`) 1.17 s at load 3-4, within the bound's measured range; `\\sin d\\sin f` parses as `\\sin(d
\\sin f)` (a product the trig count then reads as seven factors). Design calls the brief excludes (`x^*`, `$2^{3}$`,
`$-$`, `costs`, a base gold) were not retried.
"""

from __future__ import annotations

import pytest

from tests.helpers import number_case as n
from tests.helpers import paid_test, refused_test


# 1. A box at a line's start is led whatever ends the line above.
LINE_START_NEAR = [n(c) for c in [
    "The sum is not\n\\boxed{6}", "The total is not\n\\[\\boxed{6}\\]", "The result is not\n$$\\boxed{6}$$", "x is not\n\\boxed{6}",
    "The sum is\nroughly\n\\[\\boxed{6}\\]", "The sum is\nin thousands\n\\boxed{6}", "The sum is in thousands\n\\[\\boxed{6}\\]",
    "Thus, the inequality is proven\nin thousands\n\\[\\boxed{6}\\]", "The answer is not:\n\\[\\boxed{6}\\]", "The sum is not:\n\\[\\boxed{6}\\]",
]]
LINE_START_HELD = [n(c) for c in [
    "The sum is not \\boxed{6}", "The sum is in thousands \\[\\boxed{6}\\]", "The answer is not: \\boxed{6}", "The answer is not\n\\boxed{6}",
    "The sum is\nin thousands,\n\\[\\boxed{6}\\]",
]]
LINE_START_PAID = [n(c) for c in ["The sum is\n\\[\\boxed{6}\\]", "The total is:\n\\[\\boxed{6}\\]", "The final answer is\n$$\\boxed{6}$$"]]
test_a_box_at_a_line_start_reads_the_line_above = refused_test(
    LINE_START_NEAR, """Paid in both profiles before fx29ag: `grammar.box_lead` admitted a box that starts a line before
    reading the word before it, and `box_clause`/`box_subject` leave that word to `box_lead`. Now a box at a line's start
    is led only where a statement ends above it (`grammar._line_start_leads`: `statement_lines`, a line of math that
    states a relation or a display a label states, `_math_line`; a label's colon, `_line_label`); else the line above is
    read as on one line.""")
test_a_box_after_a_hedge_on_one_line_stays_refused = refused_test(LINE_START_HELD)
test_a_box_on_its_own_line_after_a_link_pays = paid_test(LINE_START_PAID)
# fx29ag: what ends a statement above a box's line. Near misses: a fragment in a display, a display no label states, a
# hedged or negated label, a mark alone. Rewrites: Omni-MATH's shapes (a display of its own lines with a relation or
# after a label, a list of relations, a long `... is:` subject, a settled premise before a colon).
LINE_START_FX29AG_NEAR = [n(c) for c in [
    "In units of\n\\[1000\\]\n\\boxed{6}", "The answer is:\n\\[\\times 1000\\]\n\\boxed{6}", "The sum is\n\\[7\\]\n\\boxed{6}",
    "Maybe the answer is:\n\\[\\boxed{6}\\]", "I doubt the answer is:\n\n\\[\\boxed{6}\\]", "Wrong:\n\\[\\boxed{6}\\]",
    "Thus, we have not proven the identity:\n\n\\[\\boxed{6}\\]", "The total is not\n\\[\n\\boxed{6}\n\\]",
    "The answer is:\n\\[\\text{in thousands}\\]\n\\boxed{6}", "The sum is not\n\\[\n7 \\approx\n\\]\n\\(\\boxed{6}\\)",
    "If\n\\[n < 3\\]\n\\boxed{6}", "In units of\n$1000$\n\\boxed{6}", "x = 2 +\n\\boxed{6}", "\\times 1000\n\\boxed{6}",
]]
LINE_START_FX29AG_PAID = [n(c) for c in [
    "The sum is:\n\\[\n2 + 4\n\\]\n\n\\(\\boxed{6}\\)", "Thus, the perimeter is:\n\\[\nP = 2 + 4\n\\]\n\n\\[\n\\boxed{6}\n\\]",
    "The solutions are:\n- $x = 6$\n\n\\boxed{6}", "Thus, we have proven the identity:\n\n\\[\\boxed{6}\\]",
    "Thus, the minimum number of people who know everyone else in the party is:\n\n\\(\\boxed{6}\\)",
    "Thus, the inequality is proven, and the final answer is:\n\n\\[\n\\boxed{6}\n\\]", "**Final Answer**\n\\[\\boxed{6}\\]",
    "We get\n\\[\n\\boxed{6}\n\\]", "The total is\n**\\boxed{6}**", "Answer:\n\\[\\boxed{6}\\]",
    "x = 2 + 4\n\\boxed{6}",
]]
test_a_box_after_a_line_that_states_nothing_is_refused = refused_test(LINE_START_FX29AG_NEAR)
test_a_box_after_a_line_that_states_pays = paid_test(LINE_START_FX29AG_PAID)
test_a_box_after_a_condition_above_a_display_pays = paid_test(
    [n("For any convex quadrilateral \\(P\\):\n\\[\n1 < x < 2\n\\]\n\n\\(\\boxed{6}\\)")], marks=[pytest.mark.xfail(
        strict=True, reason="cost (fx29bf, red team 32 class 3): a box below math opens a statement only where the math "
                            "opens a sentence (`line_opens`) or a label's colon is above it; a condition's colon is none")])
# Closed by red team 36 class 5 (fx29g): a finite link's subject that names the answer is read (`grammar._link_chain`,
# `_copula_subject`); any other subject stays unread, since Omni-MATH's long subjects (`the minimum number of mouse
# clicks needed for a \(98 \times 98\) chessboard is:`) are refused by the subject reader on one line too.
test_a_scale_in_a_link_labels_subject_is_read = refused_test(
    [n("The answer in thousands is:\n\\[\\boxed{6}\\]"), n("The answer divided by 1000 is:\n\n\\[\\boxed{6}\\]")],
    """Paid in both profiles before red team 36: `grammar._link_colon` did not read the subject of a link's label at a
    line's end. The safe verdict: the subject read.""")


# 2. A line with no word of two letters is math alone.
MATH_ALONE_NEAR = [n(c) for c in [
    "≈\nthe answer is 6.", "≥\nthe answer is \\boxed{6}.", "¬\nanswer: 6", "×1000\nthe answer is 6.",
    "\\neg\nthe final answer is $6$", "\\approx\nthe answer is 6.", "≈\nso the answer is 6.",
    "The total, in thousands:\n≈\nthe answer is 6.",
]]
MATH_ALONE_PAID = [n(c) for c in [
    "2 + 4 = 6\nthe answer is 6.", "$$x = 2 + 4 = 6$$\nthe answer is 6.", "$x = 6$\nthe answer is 6.",
]]
test_a_lone_operator_line_is_no_statement = refused_test(
    MATH_ALONE_NEAR, """Paid in both profiles: `grammar._math_alone` takes any line with no word of two letters as math
    alone, which ends a statement before a lowercase line. The safe verdict: a lone operator, relation or command joins
    the next line.""")
test_a_line_of_math_with_its_value_pays = paid_test(MATH_ALONE_PAID)
test_a_lone_operator_before_a_blank_line_stays_refused = refused_test([n("≈ \n\nthe answer is 6.")])


# 3. A statement's end before a marked lowercase line; a line that ends with a box.
MARKED_LINE_NEAR = [n(c) for c in [
    "In units of 1000\n- the answer is 6", "Multiply by 1000\n> the answer is 6", "In units of $10^3$\n*the answer is 6*",
    "I doubt it is 7\n> the answer is \\boxed{6}", "In units of \\boxed{1000}\nthe answer is 6.",
    "I doubt \\boxed{x}\nthe answer is 6.", "I doubt \\boxed{x}\n$x = \\boxed{6}$",
]]
MARKED_LINE_HELD = [n(c) for c in [
    "Maybe\n- the answer is 6", "Maybe\n> the answer is 6", "In units of 1000\n(the answer is 6)", "In units of 1000\n\\textbf{the answer is 6}",
]]
test_a_marked_lowercase_line_continues_its_sentence = refused_test(
    MARKED_LINE_NEAR, """Paid in both profiles: `grammar._CONTINUES_RE` reads a lowercase line only after `**`/`__`, and
    a line that ends with a box ends a statement whatever its words. The safe verdict: the line above read with the
    anchor.""")
test_a_marked_line_after_words_stays_refused = refused_test(MARKED_LINE_HELD)


# 4. A lowercase letter of a cased script opens a sentence.
CASED_NEAR = [n(c) for c in [
    "Возможно\nответ — 6.", "Я не уверен, что\nответ — \\boxed{6}.", "I doubt that\nответ: 6",
    "Неверно, что\nокончательный ответ — 6.", "Not\n𝑥 = \\boxed{6}",
]]
CASED_PAID = [n(c) for c in ["Итак\nОтвет — 6.", "Ответ: 6", "Итак, ответ — 6."]]
STILL_OPEN = [n(c) for c in ["-\nthe answer is \\boxed{6}.", "Multiply by 1000\n1. the answer is 6", "In thousands\nответ: \\boxed{6}", "$\\times 1000$\n#### 6"]]
test_a_line_marker_or_label_across_a_break_is_read = refused_test(
    STILL_OPEN, """Paid after fx29ad: a `-` read as a list's bullet in the anchor's lead, a list number's `1.` read as a
    sentence end, a label (`ответ:`) read from its line's start (`box_label`), whatever ends the line above. Closed by
    fx29af: a line's marks are read by the one table (`grammar.marks_end`) only where the line goes on after them, a
    label's sentence starts where `last_break` says, and a line of math alone ends a statement only as `_math_alone`
    reads it.""")
MARKS_PAID = [n(c) for c in ["- The answer is 6", "1. The answer is 6", "So\n- the answer is 6", "Thus\nAnswer: \\boxed{6}",
                             "$2 + 4 = 6$\n#### 6"]]
test_a_marked_line_that_states_pays = paid_test(MARKS_PAID)
# Found by fx29af, open: a lone `>`, `#` or `*` on the line above an anchor is still read as a mark (`>` starts the
# anchor's clause in `extract._SENTENCE_BREAK_RE`, for `<think>`; `#` and `*` are `_ANCHOR_MARKS`, emphasis mid-line).
LONE_MARK_NEAR = [n(c) for c in [">\nthe answer is 6", "#\nthe answer is 6", "*\nthe answer is 6"]]
test_a_lone_mark_above_an_anchor_is_read = refused_test(
    LONE_MARK_NEAR + [n(c) for c in [">\nthe answer is \\boxed{6}", "**\nthe answer is 6", ">\nso the answer is 6", "#\n#### 6"]],
    """Paid in both profiles after fx29af: a mark alone on its line is no line's mark (`marks_end`), but `>` started a
    clause and `#`, `*` were admitted anywhere in an anchor's lead. Closed by fx29ag: `grammar.anchor_lead` refuses a
    line of marks alone in the lead.""")
test_a_marked_line_before_an_anchor_pays = paid_test([n(c) for c in [
    "> the answer is 6", "**Final Answer**\nthe answer is 6", "So\n- the answer is 6", "## Final Answer\nThe answer is 6",
    "*So the answer is 6.*",
]])
test_a_lowercase_line_of_a_cased_script_continues = refused_test(
    CASED_NEAR, """Paid in both profiles: `grammar._SENTENCE_OPENS_RE` takes any non-ASCII letter as a sentence's
    opening, meant for scripts without capitals. The safe verdict: a lowercase letter continues the line above.""")
test_a_cased_script_sentence_pays = paid_test(CASED_PAID)


# 5. A restart inside the box's own math, or a verb before it, leaves the words before unread.
RESTART_NEAR = [n(c) for c in [
    "Maybe $a, x = \\boxed{6}$.", "I doubt that $a; x = \\boxed{6}$.", "The answer in thousands is $a, x = \\boxed{6}$.",
    "The value of 1000 $a, x = \\boxed{6}$.", "The wrong value: $n < 3, x = \\boxed{6}$.", "It is not true that $a = 2, x = \\boxed{6}$.",
    "I doubt that \\[a, x = \\boxed{6}\\].", "The answer in thousands is $x = \\boxed{6}$.", "The value of 1000 $y$ is $x = \\boxed{6}$.",
    "The answer in thousands is\n\\[x = \\boxed{6}\\]",
]]
RESTART_HELD = [n(c) for c in [
    "Maybe $x = \\boxed{6}$.", "In thousands, $a = 2, x = \\boxed{6}$.", "The wrong answer is $x = \\boxed{6}$.", "We guess $x = \\boxed{6}$.",
]]
RESTART_PAID = [n(c) for c in [
    "We get $a = 2, x = \\boxed{6}$.", "Thus $y = 5, x = \\boxed{6}$.", "Hence $a = 2$, $x = \\boxed{6}$.", "$a = 2, x = \\boxed{6}$",
]]
# fx29ae: variants the fix was not written for (closed: a restart or a verb only chooses the box's side)
RESTART_VARIANTS = [n(c) for c in [
    "Perhaps $x > 5, x = \\boxed{6}$", "The value of $x$ such that $x > 7$ $a, x = \\boxed{6}$.", "The answer is not $a, x = \\boxed{6}$.",
    "I think $a = 2; x = \\boxed{6}$", "The answer in thousands is $$a = 2, x = \\boxed{6}$$", "The value of 1000 $a = 2, x = \\boxed{6}$.",
    "The answer divided by 1000 is $x = \\boxed{6}$.", "My guess is \\(x = \\boxed{6}\\).", "We get $x \\approx 5, x = \\boxed{6}$.",
    "We get $x \\neq 5, x = \\boxed{6}$.", "We get $n \\text{ odd}, x = \\boxed{6}$.",
]]
RESTART_REWRITES = [n(c) for c in [
    "So we have $a = 2, b = 3, x = \\boxed{6}$.", "We find $f(1, 2) = 3, x = \\boxed{6}$.", "Solving, we get $a = 2; x = \\boxed{6}$.",
    "The final answer is \\[a = 2, x = \\boxed{6}\\]", "The answer is $x = \\boxed{6}$.", "Therefore, the area is $A = \\boxed{6}$.",
    "The sum of the roots is $x_1 + x_2 = \\boxed{6}$.", "Hence $x = 5$ and $y = \\boxed{6}$.", "Thus, $x = \\boxed{6}$.",
]]
test_words_before_a_restarted_side_are_read = refused_test(
    RESTART_NEAR + RESTART_VARIANTS, """Paid in both profiles before fx29ae: `grammar._equals_subject` returned True when
    the box's own math restarts its side (`,`, `;`, a relation) or follows a verb, and the words before the math were
    never read. Now the words before the math are read by the one subject reader, and each chain before the restart is
    an `=` relation.""")
test_a_hedged_equals_stays_refused = refused_test(RESTART_HELD)
# Found by fx29ae, open: a label before a colon is read by nothing, and a comma outside math between the last closed
# math and the box hides the clauses before it (`box_lead_clauses` reads that clause only for how it opens).
OUTSIDE_COMMA_NEAR = [n(c) for c in [
    "The wrong value: $x = \\boxed{6}$.", "The answer in thousands is $a$, $x = \\boxed{6}$.",
    "It is not true that $a = 2$, $x = \\boxed{6}$.",
]]
test_a_label_or_clauses_before_an_outside_comma_are_read = refused_test(
    OUTSIDE_COMMA_NEAR, """Paid in both profiles after fx29ae: class 5's shapes with the comma outside the math, and a
    label before a colon. Closed by fx29af: a colon that starts the box's clause has its label read by `box_label`, and
    the clause of the last math before the box is read by the one subject reader as if its value were a box
    (`grammar._math_clause_subject`).""")
test_a_clause_before_the_last_maths_clause_is_read = refused_test(
    [n(c) for c in ["In thousands, $a = 2$, $x = \\boxed{6}$.", "Maybe, $y = 1$, $a = 2$, $x = \\boxed{6}$.",
                    "If $n$ is odd, $a = 2$, $x = \\boxed{6}$.", "If its value was $7$, $a = 2$, $x = \\boxed{6}$.",
                    "In thousands, $a = 2$, so $x = \\boxed{6}$."]],
    """Paid in both profiles before fx29ag: `box_lead_clauses` left the clauses before the last math's clause unread,
    for a derivation's (math-verify's suite: `If its initial value was $x$, after Monday, its value is $.9x$, ...`).
    Now a derivation starts at the first clause that holds math, which opens as a lead, a box's clause or a premise
    naming the unknown (`grammar._derivation_leads`), and every clause before it leads.""")
test_a_derivation_before_the_last_maths_clause_pays = paid_test(
    [n(c) for c in ["So, $a = 2$, $x = \\boxed{6}$.", "Since $a = 2$, $b = 4$, $x = \\boxed{6}$.",
                    "We have $a = 2$, $b = 4$, so $x = \\boxed{6}$.", "Let the price be $p$, then $p = 2$, $x = \\boxed{6}$.",
                    "If its initial value was $x$, after Monday, its value is $.9x$, and after a further loss, its value "
                    "becomes $.8x$, making for a total of $\\boxed{6}$"]])
OUTSIDE_COMMA_PAID = [n(c) for c in ["Answer: $x = \\boxed{6}$.", "The value is $a$, $x = \\boxed{6}$.",
                                     "We get $a = 2$, so $x = \\boxed{6}$."]]
test_a_label_or_a_stated_clause_before_a_box_pays = paid_test(OUTSIDE_COMMA_PAID)
# fx29af read a label before the colon for every box, so a transcript's numbered section (`attempt 0: so the answer is`,
# the service's own dedup test) was refused; a number makes `Attempt`, `Sample`, `Try` a label (`_NUMBERED_LABELS`),
# alone they stay a guess's.
NUMBERED_LABEL_PAID = [n(c) for c in [
    "attempt 0: so the answer is \\boxed{6}", "Attempt 1: the answer is \\boxed{6}", "Attempt 1: \\boxed{6}",
    "Sample 2: \\boxed{6}", "Exercise 3: \\boxed{6}", "Try 2: \\boxed{6}", "Example 1: the answer is \\boxed{6}",
    "Step 1: the answer is \\boxed{6}",
]]
NUMBERED_LABEL_NEAR = [n(c) for c in [
    "Attempt: \\boxed{6}", "Attempt: the answer is \\boxed{6}", "Wrong attempt: the answer is \\boxed{6}",
    "Failed attempt 1: \\boxed{6}", "Attempt 1 wrong: \\boxed{6}", "Attempt 1 in thousands: \\boxed{6}",
    "Attempt 1 rounded: \\boxed{6}", "Sample answer: \\boxed{6}", "Try: \\boxed{6}", "Attempt 1 (incorrect): \\boxed{6}",
    "Attempt 1, wrong: \\boxed{6}", "Attempt 1 is wrong: \\boxed{6}", "Attempt 1.5: \\boxed{6}",
]]
test_a_numbered_sections_label_pays = paid_test(NUMBERED_LABEL_PAID)
test_a_label_word_without_its_number_or_with_a_judgment_is_refused = refused_test(NUMBERED_LABEL_NEAR)
# fx29ag: a numbered section's label before an anchor leads to it as before a box (`grammar._numbered_label`); they were
# `no_answer` (pedantry), while `Step 1: the answer is \boxed{6}` and `Answer: the answer is 6` paid.
NUMBERED_ANCHOR_PAID = [n(c) for c in [
    "Step 1: the answer is 6", "Attempt 1: the answer is 6", "Step 1: So the answer is 6.", "**Step 2:** the final answer is $6$",
    "attempt 0: so the answer is 6", "Sample 2: the answer is 6.",
]]
NUMBERED_ANCHOR_NEAR = [n(c) for c in [
    "Wrong step 1: the answer is 6", "Attempt: the answer is 6", "Attempt 1.5: the answer is 6", "Step 1 wrong: the answer is 6",
    "Step 1: maybe the answer is 6", "Attempt 1 in thousands: the answer is 6", "Failed attempt 1: the answer is 6",
]]
test_a_numbered_sections_label_before_an_anchor_pays = paid_test(NUMBERED_ANCHOR_PAID)
test_a_numbered_label_near_miss_before_an_anchor_is_refused = refused_test(NUMBERED_ANCHOR_NEAR)

test_a_chain_restarted_after_a_stating_verb_pays = paid_test(RESTART_PAID + RESTART_REWRITES)


# 6. Cost: `{e}^` and `\text{e}^` towers past `MAX_FUNCTION_DEPTH`.
def _tower(e: str, depth: int) -> str:
    text = "x"
    for _ in range(depth):
        text = f"{e}^{{{text}}}"
    return text


E_SPELLINGS = ("{e}", "\\text{e}", "{{e}}", "\\textrm{e}", "\\mathit{e}", "\\exponentialE")  # Euler's e to math-verify
TOWERS = [(f"\\boxed{{{_tower(e, 5)}}}", "1") for e in E_SPELLINGS] + [("\\boxed{1}", _tower(e, 5)) for e in ("{e}", "\\text{e}")]


@pytest.mark.parametrize(("completion", "gold"), TOWERS, ids=[f"answer-{k}" for k in range(len(E_SPELLINGS))] + ["gold-{e}", "gold-text-e"])
def test_an_exponential_tower_in_any_spelling_is_bounded(completion: str, gold: str) -> None:
    """Six deep: over 120 s (`{e}`), over 20 s (`\\text{e}`, and a gold), strict, warm: `guards.function_guard` reads
    only a bare `e^` or `\\mathrm{e}^` as the exponential. Five deep is cheap (0.08 s) but past the bound, so the safe
    verdict, checked here without timing, is the bound's refusal (`too costly`), as `e^{e^{...}}` five deep gets."""
    from verifier.math import grade_math

    result = grade_math({"completion": completion, "gold": gold, "profile": "strict"})
    assert result["verdict"] != "correct" and "too costly" in result["detail"]


@pytest.mark.parametrize("e", E_SPELLINGS)
def test_an_exponential_tower_at_the_bound_is_read(e: str) -> None:
    """Four deep, in every spelling: within `MAX_FUNCTION_DEPTH`, compared (a wrong answer differs at a point)."""
    from verifier.math import grade_math

    result = grade_math({"completion": f"\\boxed{{{_tower(e, 4)}}}", "gold": "1", "profile": "strict"})
    assert result["verdict"] == "incorrect" and "too costly" not in result["detail"]


@pytest.mark.parametrize(("completion", "gold"), [
    ("\\boxed{{e}^{x} \\ln({e}^{2})}", "2e^x"), ("\\boxed{\\text{e}^{2x}}", "e^{2x}"), (f"\\boxed{{{_tower('{e}', 5)}}}", _tower("{e}", 5)),
])
def test_an_exponential_in_another_spelling_pays(completion: str, gold: str) -> None:
    """A right answer with `{e}` or `\\text{e}` pays; a gold past the bound pays an answer written as it (fx29x's rule)."""
    from verifier.math import grade_math

    assert grade_math({"completion": completion, "gold": gold, "profile": "strict"})["verdict"] == "correct"


def test_a_bare_exponential_tower_is_bounded() -> None:
    from verifier.math import grade_math

    result = grade_math({"completion": f"\\boxed{{{_tower('e', 5)}}}", "gold": "1", "profile": "strict"})
    assert result["verdict"] == "incorrect" and "too costly" in result["detail"]


# Held: number sets, head words, settled premises and methods.
V = "The value of $x$ such that"
CONDITIONS_HELD = [
    n(f"{V} $x ∈ ℤ⁺$ is \\boxed{{-6}}.", "-6"), n(f"{V} $x \\in \\mathbb{{Z}}^{{+}} \\setminus \\{{6\\}}$ is \\boxed{{6}}."),
    n(f"{V} $x \\in (7, 10)$ is \\boxed{{6}}."), n(f"{V} $x \\in 2\\mathbb{{Z}} + 1$ is \\boxed{{6}}."),
    n(f"{V} $x \\in \\mathbf{{Z}}^{{+}}$ is \\boxed{{-6}}.", "-6"), n(f"{V} $x \\in \\mathbb{{Z}}$ is \\boxed{{6.5}}.", "6.5"),
    n("The non-negative root $x$ such that $x^{2} = 36$ is \\boxed{-6}.", "-6"),
    n("The most negative root $x$ such that $x^{2} = 36$ is \\boxed{6}."),
    n("The positive root $x$ such that $x^{2} = 36$ and $x \\in \\mathbb{Z}^{-}$ is \\boxed{6}."),
    n("A positive root $x$ such that $x^{2} = 36$ is \\boxed{-6}.", "-6"),
]
LEADS_HELD = [n(c) for c in [
    "Thus, the claim is proven false, and the answer is 6.", "Thus, the inequality is disproven, and the answer is 6.",
    "Assuming the claim is proven, the answer is 6.", "By symmetry in thousands, the answer is 6.",
    "Through this analysis of errors,\n\\[\\boxed{6}\\]", "By sum-to-product in thousands,\n\\[\\boxed{6}\\]",
    "Through this analysis, maybe the answer is 6.", "Thus, the condition is not satisfied, and\n\\[\\boxed{6}\\]",
]]
test_a_condition_the_readers_do_not_list_stays_refused = refused_test(CONDITIONS_HELD)
test_a_lead_near_the_admitted_methods_stays_refused = refused_test(LEADS_HELD)
