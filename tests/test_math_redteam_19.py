"""Red team of issue 29's answer grammar, nineteenth pass (rt29u): wrong answers the grader pays, answers that hold a
grading worker for seconds, and right answers the new rules refuse, after fx29ag (`grammar._line_start_leads`,
`_line_label`, `_link_colon`, `_derivation_leads`, `_numbered_label`), fx29ah (`_own_math` pairing, `period_ends` and
`_known_words`, `_OPERATOR_MARKS`, `_stated_relation`/`_agrees_with_box`, `n!`), fx29ai (`guards._function_scan`,
`_product_follows`), fx29aj (`box_subject`'s joined lines, `opens_sentence`'s lone A/I and caseless scripts,
`_math_clause_subject` at every segment, `_RESTART_RE`, `_sentence_before` through a display before a comma) and stop
45's period before a line break in `box_lead`. Graded by the real grader (`grade_math` through `tests.helpers.math_verdicts`)
in both profiles; every `*_NEAR` case below paid `correct` in at least one profile (all in both), and each class is a
strict xfail asserting the safe verdict until it is closed; plain tests hold what held (near misses already refused) and
the rewrites a fix must keep paying. Gold 6 unless a case says otherwise. About 12,700 candidates tried (11,711 by family:
line starts ~630, link colons ~730, proven labels 42, derivations 1,800, numbered labels 156, known-word periods 810,
relations 410, caseless lines 1,680, restarts and displays 4,900, lone capitals 176, order relations 384; then 212 probes,
778 right answers in natural shapes, ~70 cost shapes), one grading process at a time, main at c176013; each paying or
refused case was graded again on 3b34c66 (before fx29ag) to tell what the new rules changed.

Ranked by how bad (a natural wording, how many variants, how far the stated value is from the box's):

1. A derivation's later clauses are read by no one (`grammar._derivation_leads`: a derivation runs from its first clause
   that holds math, "its later clauses are steps, not read"), so a hedge or scale between two math clauses is skipped:
   `So $a = 2$, in thousands, $b = 3$, $x = \\boxed{6}$`, `We get $a = 2$, roughly, $b = 3$, so $x = \\boxed{6}$`, `So $a
   = 2$, not, $x = \\boxed{6}$` (748 of 1,800; all paid before fx29ag too). Held: `So $a = 2$, in thousands, $x =
   \\boxed{6}$` (the box's own clause follows), `In thousands, $a = 2$, $b = 3$, $x = \\boxed{6}$` (fx29ag). Suggested fix:
   every clause of a derivation is a lead, a math step or the box's clause (`_lead_clause` or math alone), never skipped.
2. `_agrees_with_box` reads a chain's side as a value only when it is a plain number, so any other spelling of another
   value passes: `$x = \\sqrt{36000}, x = \\boxed{6}$`, `$x = 6\\pi, x = ...`, `$x = 20!, ...` (past `_arithmetic`'s 19),
   `$x = 3!!, ...`, `$x = 6{,}000; ...`, `$x = 6'000, ...`, `$x = 6k, ...`, `$x = 6\\%, ...`, `$x = 6i, ...`, `$x := 7,
   ...`, `${x} = 7, ...` (117 of 328). Held: `$x = 6000, ...`, `$x = 7, ...`, `$x = 6 \\cdot 10^3, ...`, `$x = 6^{2}, ...`.
   Suggested fix: a side that is not read as a number agrees with the box only when it is the box's own text (or parses
   to the same value), and `:=`, a braced name, read as the box's name.
3. A caseless line opens a sentence after a line that ends in a letter of a caseless script, whatever it says
   (`opens_sentence`, fx29aj's `ดังนั้น\\nคำตอบคือ` rule): `可能\\n答案是 6。` (maybe), `以千为单位\\n答案是 6。` (in thousands),
   `至少\\n答案是 \\boxed{6}` (at least), `负\\n答案：\\boxed{6}`, `อาจจะ\\nคำตอบคือ 6`, `たぶん\\n答えは6です。`, `大约\\n\\n答案是 6。`
   (628 of 840 line-break cases; fx29aj noted `不是\\n答案是 6。`), where `I doubt that\\n答案是 6。` and `In thousands\\n\\n答案是
   6。` are refused. Suggested fix: the line above leads to the caseless line (`SCRIPT_LEADS`, `ANCHOR_LEADS`) unless it ends
   with a sentence's end mark, as for the Latin script.
4. A caseless label after a space is read without the words before it on its line (`box_label`): `I doubt that
   答案：\\boxed{6}`, `Maybe 答案：\\boxed{6}`, `可能 答案：\\boxed{6}`, `乘以 1000 答案：\\boxed{6}`, `In thousands 答案：\\boxed{6}`
   (32 of 35), where `In thousands, 答案：\\boxed{6}`, `Maybe ответ: \\boxed{6}` and `I doubt that 答案是 6。` are refused.
   Suggested fix: a space before a caseless letter ends nothing (fx29aj's Thai rule, for every script), so the label's
   line is read as one.
5. A period after any word of `_known_words` ends a sentence, and that vocabulary holds function words and abbreviations
   (`than`, `of`, `the`, `per`, `least`, `max`, `min`): `The answer is less than. \\boxed{6}`, `The answer is max.
   \\boxed{6}`, `The answer is at least. \\boxed{6}`, `Answer: max. \\boxed{6}`, `The sum is per. $x = \\boxed{6}$` (729 of
   810). Held: `The answer is approx. \\boxed{6}` (fx29ah), `The answer is not. \\boxed{6}`, `The answer is a. \\boxed{6}`.
   Suggested fix: a period ends a sentence after a word that can end one (nouns, units, verbs, `_SENTENCE_FINAL`), never a
   determiner, preposition, comparative or `max`/`min`.
6. A concluding connective outside `_RESTART_RE` after the last math with no comma leaves its clause unread:
   `The answer in thousands is $a$ consequently \\boxed{6}`, `... accordingly`, `... finally`, `... overall`, `...
   altogether`, `The wrong value is $a$ consequently \\boxed{6}` (70 of 196), where `... $a$ so \\boxed{6}` and `... $a$,
   consequently \\boxed{6}` are refused (fx29aj). Suggested fix: the clause of the last math is read whatever word follows
   it (a restart or not), as with a comma.
7. A display's end before a colon or `!` ends the sentence, so the display's clause is read by no one
   (`_sentence_before` reads through a display before a comma or semicolon only): `The answer in thousands is \\[a\\]:
   \\boxed{6}`, `The answer could be $$a$$: \\boxed{6}`, `I doubt that \\[a\\]: \\boxed{6}`, `The answer in thousands is
   \\[a\\]! \\boxed{6}` (42 of 98), where `... $a$: \\boxed{6}` and `... \\[a\\], \\boxed{6}` are refused. A sibling of red
   team 18 class 8's open leftover (a display before a lead with no comma). Suggested fix: a display's end ends a
   sentence only as the same mark after inline math would.
8. An order or approximation relation restarts the box's side, the prose before it unread (fx29aj noticed, not closed;
   `\\ne`, `\\approx`, `\\sim` and a line break too): `The answer in thousands is \\approx x = \\boxed{6}`, `The sum is not >
   x = \\boxed{6}`, `It is false that\\n\\ne x = \\boxed{6}`, `The answer divided by 1000 is \\ge x = \\boxed{6}` (68 of 384).
   Held: `The sum is not\\n> x = \\boxed{6}` (fx29aj), `Maybe \\approx x = \\boxed{6}`. Suggested fix: a relation mark right
   after prose is a word of the prose's clause, read by the side's reader (`_joined_lines` on one line too).
9. Grading time (cost), answer and gold alike, with `function_products` at 0 and under every bound: calls inside sums
   that are factors, `(\\sin(a)+1) \\cdot (\\sin(b)+1) \\cdot ...` six 1.9 s, seven 6.2 s, eight over 40 s as an answer and
   34 s as a gold (a call before `+` is no product by `_product_follows`' allowlist; `(1+\\sin(a))` is counted); `(\\sin(a)
   - a) \\cdot ...` six 3.7 s; juxtaposed `(\\sin a + 1)(\\sin b + 1)...` six 2.2 s; juxtaposed `\\Gamma(a)\\Gamma(b)...` twelve
   6.1 s / gold 11.6 s (`\\Gamma` is read as a call and as a letter, so juxtaposed calls do not parse at once), `\\gamma`
   ten 2.5 s / 5.1 s; a plain sum `\\Gamma(a) + ... + \\Gamma(i)` (nine symbols, `e` and `i` among them) 25.6 s / 24.9 s,
   ten over 45 s (strict, each in its own process, warm, load 2-4). Suggested fix: count the calls in a product's
   factors however bracketed (the factor's calls after a closing bracket a product follows), read juxtaposed `\\Gamma`
   as a product, and bound `\\Gamma` calls past the point sampler. Closed by fx29an: `function_products` counts the calls
   in a bracketed factor a product follows (no call's argument) and reads a call before a juxtaposed `\\Gamma`/`\\gamma`
   as a product; a bracketed `\\Gamma` weighs 4 in `function_work`; `expansion_guard` refuses a call of a non-real number
   (`\\Gamma(i)`, `\\sin(e+i)`) among more than four letters (`MathLimits.max_complex_calls`). Plain tests.

Right answers the new rules refuse (pedantry; each paid on 3b34c66, before fx29ag, and is refused in both profiles now):
- fx29ah's `!` rule reads a factorial before `=` as `!=`: `We have $3! = 6$, so the answer is \\boxed{6}.`, `Since $3! = 6$,
  the answer is \\boxed{6}.`, `We know $4! = 24$, so $x = \\boxed{6}$.`;
- fx29ag's `_derivation_leads` refuses a premise or a reference that opens a derivation: `If $x$ is the number of
  apples, then $x = 2 + 4$, so $x = \\boxed{6}$.`, `From step 1, $a = 2$; from step 2, $b = 4$; so $a + b = \\boxed{6}$.`,
  `By Vieta, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.`;
- fx29ag's line-start box after a caseless lead or label: `ดังนั้น\\n\\boxed{6}`, `ดังนั้น\\n\\[\\boxed{6}\\]`, `所以答案为：\\n$$\\boxed{6}$$`,
  `所以答案是：\\n$$\\boxed{6}$$`, `所以答案为：\\n\\[\\boxed{6}\\]`, and a Chinese clause ended by `，` at a line's end:
  `由此可得 $x = 6$，\\n故答案为 $\\boxed{6}$。`, `解得 $x = 6$，\\n所以答案是 6。`;
- `After simplifying, the expression equals\\n$$\\boxed{6}$$` (with `\\[...\\]` it was refused before too).

Noted, not counted (the sentence rule's design, or known): a line that ends in a number or math ends a statement, so a
box on the next line is read alone (`Multiply by 1000\\n\\boxed{6}`, `In units of $1000$\\n\\boxed{6}`, `The answer is not
6\\n\\boxed{6}`: 293 paid, as `In units of 1000. \\boxed{6}` does, while `In units of\\n\\[1000\\]\\n\\boxed{6}` is refused);
a capitalised line opens a sentence (`In thousands,\\nI get \\boxed{6}`, `Maybe\\nA total of \\boxed{6}`); `The answer in
thousands is:\\n\\[\\boxed{6}\\]` and its variants (red team 17's open xfail, 105 of 125); the clause before `i.e.` and a
display before `so` (red team 18's open xfails); a Thai space ends a sentence (`อาจจะ คำตอบคือ 6`); numbered labels paid
only with a section's number (`Step 1000:`, `No 1:`). Nothing else over 1 s among ~70 cost shapes: `\\mathrm{sin}`,
`\\mathit{sin}`, `\\sqrt{}`, `\\exp` chains of twelve under 0.6 s; `\\norm`, `\\rank`, `\\arg`, `\\operatorname*`, `\\lfloor`
are not parsed; `\\binom`, `\\sin^{2}` products and `\\frac{1}{\\sin a}` juxtaposed are bounded.
"""

from __future__ import annotations

import pytest

from tests.helpers import paid_test, refused_test
from tests.helpers import number_case as n
from verifier.math.guards import MAX_FUNCTION_PRODUCTS, function_products

OPEN = "open: {} (rt29u)"


def _open(what: str) -> list:
    return [pytest.mark.xfail(strict=True, reason=OPEN.format(what))]


# 1. A derivation's later clauses are read by no one.
DERIVATION_NEAR = [n(c) for c in [
    "So $a = 2$, in thousands, $b = 3$, $x = \\boxed{6}$", "We get $a = 2$, roughly, $b = 3$, so $x = \\boxed{6}$",
    "Thus $a = 2$, I doubt, $b = 3$, the answer is $\\boxed{6}$", "Let the answer be $x$, in units of 1000, $b = 3$, $x = \\boxed{6}$",
    "Since $a = 2$, times 1000, $b = 3$, $x = \\boxed{6}$", "So $a = 2$, not, $x = \\boxed{6}$", "Hence $a = 2$, maybe, $b = 3$, so $x = \\boxed{6}$",
    "We get $a = 2$, but not really, $b = 3$, so $x = \\boxed{6}$", "If its value was $x$, negated, $b = 3$, $x = \\boxed{6}$",
    # fx29am's near misses: a hedge or scale as a later clause, with math or not, a word read as a part's label
    "We get $a = 2$, in units of $1000$, $b = 4$, so $x = \\boxed{6}$", "So $a = 2$, maybe $b = 4$, $x = \\boxed{6}$",
    "So $a = 2$, and, $x = \\boxed{6}$", "So $a = 2$, after dividing by 1000, $b = 3$, $x = \\boxed{6}$",
]]
DERIVATION_HELD = [n(c) for c in [
    "So $a = 2$, in thousands, $x = \\boxed{6}$", "In thousands, $a = 2$, $b = 3$, $x = \\boxed{6}$", "So $a = 2$, roughly, $x = \\boxed{6}$",
]]
DERIVATION_PAID = [n(c) for c in [
    "So $a = 2$, $b = 4$, $x = \\boxed{6}$", "We get $a = 2$, then $b = 4$, so $x = \\boxed{6}$", "Since $a = 2$ and $b = 4$, $x = \\boxed{6}$",
    "So $a = 2$, hence $b = 4$, $x = \\boxed{6}$",
    "We get $a = 2$, after Monday, $b = 4$, so $x = \\boxed{6}$", "So $a = 2$, for part (b), $x = \\boxed{6}$", "(ii), $x = \\boxed{6}$",
]]
test_a_derivations_later_clause_is_read = refused_test(
    DERIVATION_NEAR, """Paid in both profiles before fx29am (closed there): `grammar._derivation_leads` reads the clauses before a derivation's first math
    clause, and its later clauses are steps no one reads, so a hedge or scale between two math clauses is skipped. The safe
    verdict: every clause of a derivation is a lead, a math step or the box's clause.""")
test_a_hedge_before_the_boxs_clause_or_the_first_math_stays_refused = refused_test(DERIVATION_HELD)
test_a_derivation_of_math_steps_pays = paid_test(DERIVATION_PAID)


# 2. `_agrees_with_box` reads a side as a value only when it is a plain number.
AGREES_NEAR = [n(c) for c in [
    "$x = \\sqrt{36000}, x = \\boxed{6}$", "$x = 6\\pi, x = \\boxed{6}$", "$x = 20!, x = \\boxed{6}$", "$x = 3!!, x = \\boxed{6}$",
    "$x = 6{,}000; x = \\boxed{6}$", "$x = 6'000, x = \\boxed{6}$", "$x = 6k, x = \\boxed{6}$", "$x = 6\\%, x = \\boxed{6}$",
    "$x = 6i, x = \\boxed{6}$", "$x := 7, x = \\boxed{6}$", "${x} = 7, x = \\boxed{6}$", "$x = 3!^{3!}, x = \\boxed{6}$",
    "$x = 6\\tfrac12, x = \\boxed{6}$", "Thus $x = \\sqrt{37}, x = \\boxed{6}$", "$x = 6 \\sqrt{2}, x = \\boxed{6}$", "$x = 6x, x = \\boxed{6}$",
    "$x = \\sqrt{35}, x = \\boxed{6}$", "$x := 6000, x = \\boxed{6}$", "${x} = 6000; x = \\boxed{6}$", "$x = y^2, x = \\boxed{6}$",
]]
AGREES_HELD = [n(c) for c in [
    "$x = 6000, x = \\boxed{6}$", "$x = 7, x = \\boxed{6}$", "$x = 6 \\cdot 10^3, x = \\boxed{6}$", "$x = 6.5, x = \\boxed{6}$",
    "$x = 6^{2}, x = \\boxed{6}$", "$x = \\frac{6}{7}, x = \\boxed{6}$", "$x = 2^{10}, x = \\boxed{6}$",
]]
AGREES_PAID = [n(c) for c in [
    "$x = 3!, x = \\boxed{6}$", "$x = \\frac{12}{2}, x = \\boxed{6}$", "$x = 6.0, x = \\boxed{6}$", "$x = \\sqrt{36}, x = \\boxed{6}$",
    "$x = 2 \\cdot 3, x = \\boxed{6}$", "$x = 6, x = \\boxed{6}$", "$x := 6, x = \\boxed{6}$", "${x} = 2 + 4, x = \\boxed{6}$",
    "$x = \\frac{18}{3}, x = \\boxed{6}$", "$a = 7, x = \\boxed{6}$",
]] + [n("$x = 2\\pi, x = \\boxed{2\\pi}$", "2\\pi"), n("$x = \\sqrt{8}, x = \\boxed{2\\sqrt{2}}$", "2\\sqrt{2}")]
test_a_chain_giving_the_boxs_name_another_value_in_any_spelling_is_read = refused_test(
    AGREES_NEAR, """Paid in both profiles before fx29am (closed there): `grammar._agrees_with_box` (fx29ah) checks a shared side's values only where it
    reads them as numbers, so a radical, `\\pi`, a factorial past 19, a double factorial, a thousands group, a scale
    letter, a percent, `i`, `:=` or a braced name gives the box's name another value unread. The safe verdict: a side not
    read as a number agrees only when it parses to the box's value.""")
test_a_chain_giving_the_boxs_name_another_number_stays_refused = refused_test(AGREES_HELD)
test_a_chain_restating_the_boxs_value_pays = paid_test(AGREES_PAID)


# 3. A caseless line opens a sentence after a caseless line, whatever it says.
CASELESS_NEAR = [n(c) for c in [
    "可能\n答案是 6。", "以千为单位\n答案是 6。", "至少\n答案是 \\boxed{6}", "大约\n\n答案是 6。", "อาจจะ\nคำตอบคือ 6", "ประมาณ\nคำตอบคือ 6",
    "たぶん\n答えは6です。", "负\n答案：\\boxed{6}", "不是\n答案是 6。", "我不确定\n所以答案是 6。",
]]
CASELESS_HELD = [n(c) for c in [
    "I doubt that\n答案是 6。", "可能答案是 6。", "In thousands\n\n答案是 6。", "Maybe\n答案是 6。", "아마\n답은 6입니다.",
]]
CASELESS_PAID = [n(c) for c in [
    "所以\n答案是 6。", "ดังนั้น\nคำตอบคือ 6", "2 + 4 = 6。\n答案是 6。", "小明有 6 个苹果\n答案是 6。",
]]
test_a_caseless_line_after_a_caseless_hedge_is_read_with_it = refused_test(
    CASELESS_NEAR, """Paid in both profiles: `grammar.opens_sentence` (fx29aj) opens a sentence at a caseless line after a
    line that ends in a caseless letter, whatever that line says (maybe, in thousands, at least, negative, not), where the
    same hedge in English is read. The safe verdict: the line above leads to the new line unless it ends a sentence.
    Closed (fx29al): a caseless line's break ends the line above only when that line holds a number
    (`grammar._caseless_statement`); else it is read as the new line's lead.""")
test_a_caseless_line_after_a_latin_hedge_stays_refused = refused_test(CASELESS_HELD)
test_a_caseless_line_after_a_lead_or_a_statement_pays = paid_test(CASELESS_PAID)


# 4. A caseless label after a space is read without the words before it.
CASELESS_LABEL_NEAR = [n(c) for c in [
    "I doubt that 答案：\\boxed{6}", "Maybe 答案：\\boxed{6}", "可能 答案：\\boxed{6}", "乘以 1000 答案：\\boxed{6}", "×1000 答案：\\boxed{6}",
    "ไม่ใช่ 答案：\\boxed{6}", "Not 答案：$\\boxed{6}$", "In thousands 答案：\\boxed{6}", "I doubt that 答案: \\boxed{6}",
]]
CASELESS_LABEL_HELD = [n(c) for c in [
    "In thousands, 答案：\\boxed{6}", "Maybe ответ: \\boxed{6}", "可能答案：\\boxed{6}", "I doubt that 答案是 6。", "Maybe 答案：6",
    "Maybe 最终答案：\\boxed{6}",
]]
CASELESS_LABEL_PAID = [n(c) for c in [
    "答案：\\boxed{6}", "So 答案：\\boxed{6}", "最终答案：\\boxed{6}", "2 + 4 = 6。答案：\\boxed{6}", "所以 答案：\\boxed{6}",
]]
test_a_caseless_label_after_a_space_is_read_with_its_line = refused_test(
    CASELESS_LABEL_NEAR, """Paid in both profiles: a space before a caseless label (`答案：`) starts the box's label, so the
    words before it on its line are read by no one; the anchor (`I doubt that 答案是 6。`) and a Cyrillic label are refused.
    The safe verdict: the label's line read as one. Closed (fx29al): the words before a caseless label or subject in
    `box_label` are read as before an anchor (`anchor_lead`).""")
test_a_caseless_label_after_a_comma_or_glued_stays_refused = refused_test(CASELESS_LABEL_HELD)
test_a_caseless_label_after_a_lead_pays = paid_test(CASELESS_LABEL_PAID)
CASELESS_FIX_NEAR = [n(c) for c in [
    "可能\n所以答案是 6。", "不是\n\n答案：\\boxed{6}", "อาจจะ\n\nคำตอบคือ 6", "约为\n答案是 6。", "以千为单位\n所以 答案：\\boxed{6}",
    "可能\n\n**答案：** \\boxed{6}", "Maybe 所以 答案：\\boxed{6}", "乘以 1000\n答案是 6。", "负\n答案：\\boxed{6}",
]]
CASELESS_FIX_PAID = [n(c) for c in [
    "因此\n答案是 6。", "สรุป\nคำตอบคือ 6", "所以\n\n答案：\\boxed{6}", "所以 答案为：\\boxed{6}", "2 + 4 = 6。\n所以 答案：\\boxed{6}",
    "**答案：** \\boxed{6}", "Therefore 答案：\\boxed{6}", "小明有 2 个苹果，小红有 4 个苹果\n答案是 6。", "小明一共有 6 个苹果\n所以答案是 6。",
]]
test_fx29als_caseless_near_misses_stay_refused = refused_test(CASELESS_FIX_NEAR)
test_fx29als_caseless_rewrites_pay = paid_test(CASELESS_FIX_PAID)


# 5. A period after any known word ends a sentence.
KNOWN_PERIOD_NEAR = [n(c) for c in [
    "The answer is less than. \\boxed{6}", "The answer is max. \\boxed{6}", "The answer is min. \\boxed{6}", "The answer is at least. \\boxed{6}",
    "The answer is no more than. \\boxed{6}", "It is the. \\boxed{6}", "Answer: max. \\boxed{6}", "The sum is per. $x = \\boxed{6}$",
    "The answer is fewer than. \\boxed{6}", "The answer is of. \\boxed{6}", "The answer is more than. \\boxed{6}", "It is an. \\boxed{6}",
    "The answer is in. \\boxed{6}", "The answer is greater. \\boxed{6}",
]]
KNOWN_PERIOD_HELD = [n(c) for c in [
    "The answer is approx. \\boxed{6}", "The answer is not. \\boxed{6}", "The answer is a. \\boxed{6}", "The answer is max \\boxed{6}",
    "The answer is less than \\boxed{6}", "The answer is maximally. \\boxed{6}",
]]
KNOWN_PERIOD_PAID = [n(c) for c in [
    "So the result follows. \\boxed{6}", "We compute. \\boxed{6}", "The answer is 6 cm. \\boxed{6}", "It has 6 legs. \\boxed{6}",
    "We verify this. \\boxed{6}", "The claim holds. \\boxed{6}", "Each box has 6 apples. \\boxed{6}",
]]
test_a_period_after_a_function_word_or_abbreviation_leaves_the_sentence_open = refused_test(
    KNOWN_PERIOD_NEAR, """Paid in both profiles before fx29am (closed there): `grammar.period_ends` (fx29ah) ends a sentence at a period after any word of
    `_known_words`, which holds determiners, prepositions, comparatives and `max`/`min`, so the box after `less than.` or
    `max.` is read alone. The safe verdict: a period ends a sentence only after a word that can end one.""")
test_a_period_after_an_unknown_abbreviation_stays_refused = refused_test(KNOWN_PERIOD_HELD)
test_a_period_after_a_finished_sentence_pays = paid_test(KNOWN_PERIOD_PAID)


# 6. A concluding connective outside `_RESTART_RE` after the last math.
CONNECTIVE_NEAR = [n(c) for c in [
    "The answer in thousands is $a$ consequently \\boxed{6}", "The answer could be $a$ accordingly \\boxed{6}",
    "The answer in thousands is $a$ finally \\boxed{6}", "The answer could be $a$ overall \\boxed{6}",
    "The answer in thousands is $a$ altogether \\boxed{6}", "The wrong value is $a$ consequently \\boxed{6}",
    "The answer in thousands is $a$ now \\boxed{6}", "The answer could be $a$ clearly \\boxed{6}",
    "The answer in thousands is $a$ indeed \\boxed{6}",
]]
CONNECTIVE_HELD = [n(c) for c in [
    "The answer in thousands is $a$ so \\boxed{6}", "The answer in thousands is $a$, consequently \\boxed{6}",
    "The answer could be $a$ giving \\boxed{6}", "The answer could be $a$ thereby \\boxed{6}", "We get $a = 2$ consequently \\boxed{6}",
]]
CONNECTIVE_PAID = [n(c) for c in [
    "The value is $a$ consequently \\boxed{6}", "The value is $a$ accordingly \\boxed{6}", "The sum of $a$ and $b$ is \\boxed{6}",
    "The value of $x$ such that $x^2 = 36$ is \\boxed{6}",
]]
test_the_last_maths_clause_before_any_connective_is_read = refused_test(
    CONNECTIVE_NEAR, """Paid in both profiles before fx29am (closed there): fx29aj reads the last math's clause with no comma only before `_RESTART_RE`'s
    connectives (`so`, `thus`, `therefore`, `hence`, `then`), so `consequently`, `accordingly`, `finally`, `overall`,
    `altogether` leave it unread. The safe verdict: the clause read whatever word follows its math.""")
test_the_last_maths_clause_before_a_listed_connective_stays_refused = refused_test(CONNECTIVE_HELD)
test_a_stated_clause_before_a_connective_pays = paid_test(CONNECTIVE_PAID)


# 7. A display's end before a colon or `!` ends the sentence.
DISPLAY_COLON_NEAR = [n(c) for c in [
    "The answer in thousands is \\[a\\]: \\boxed{6}", "The answer could be $$a$$: \\boxed{6}", "The wrong value is \\[a = 2\\]: $x = \\boxed{6}$",
    "I doubt that \\[a\\]: \\boxed{6}", "The answer divided by 1000 is \\[a\\]: the answer is \\boxed{6}",
    "The answer in thousands is \\[a\\] : \\boxed{6}", "The answer in thousands is \\[a\\]! \\boxed{6}", "Maybe \\[a\\]: \\boxed{6}",
    "The answer in thousands is $$a$$! \\boxed{6}", "The answer in thousands is \\[a\\]：\\boxed{6}",
]]
DISPLAY_COLON_HELD = [n(c) for c in [
    "The answer in thousands is $a$: \\boxed{6}", "The answer in thousands is \\[a\\], \\boxed{6}", "The answer in thousands is \\[a\\]; \\boxed{6}",
    "The answer in thousands is \\[a\\]) \\boxed{6}",
]]
DISPLAY_COLON_PAID = [n(c) for c in [
    "We get \\[a = 2\\]: \\boxed{6}", "The value is \\[a\\]: \\boxed{6}", "The sum is \\[2 + 4\\]: \\boxed{6}",
    "We have \\[2 + 4 = 6\\]: \\boxed{6}", "Thus \\[x = 6\\]! \\boxed{6}", "The total is \\[2 + 4\\]: $x = \\boxed{6}$",
]]
test_a_displays_clause_before_a_colon_is_read = refused_test(
    DISPLAY_COLON_NEAR, """Paid in both profiles before fx29am (closed there): `grammar._sentence_before` (fx29aj) reads through a display only before a
    comma or semicolon; before a colon or `!` the display's end ends the sentence and its clause is read by no one (inline
    math there is read). The safe verdict: a display's end ends a sentence as the same mark after inline math does.""")
test_inline_math_or_a_display_before_a_comma_stays_refused = refused_test(DISPLAY_COLON_HELD)
test_a_stated_display_before_a_colon_pays = paid_test(DISPLAY_COLON_PAID)


# 8. An order or approximation relation restarts the box's side.
ORDER_NEAR = [n(c) for c in [
    "The answer in thousands is \\approx x = \\boxed{6}", "The sum is not > x = \\boxed{6}", "It is false that\n\\ne x = \\boxed{6}",
    "The answer divided by 1000 is \\ge x = \\boxed{6}", "The sum is not \\sim x = \\boxed{6}", "The answer in thousands is\n< x = \\boxed{6}",
    "The answer in thousands is \\le x = \\boxed{6}", "The sum is not \\geq x = \\boxed{6}",
]]
ORDER_HELD = [n(c) for c in [
    "The sum is not\n> x = \\boxed{6}", "Maybe \\approx x = \\boxed{6}", "I doubt that \\le x = \\boxed{6}", "The sum is not = x = \\boxed{6}",
    "The answer in thousands is x = \\boxed{6}",
]]
ORDER_PAID = [n(c) for c in [
    "We get $x \\ge 6$ and $x \\le 6$, so $x = \\boxed{6}$", "The sum is\n> x = \\boxed{6}", "$0 < x = \\boxed{6}$", "Since $5 < x$, $x = \\boxed{6}$",
    "We know $5 < x < 7$, so $x = \\boxed{6}$",
]]
test_a_relation_mark_after_prose_is_read_with_it = refused_test(
    ORDER_NEAR, """Paid in both profiles before fx29am (closed there): an order or approximation mark after prose restarts the box's side's chain, so
    the prose before it is read by no one (noticed by fx29aj for `>`; `\\ne`, `\\approx`, `\\sim`, a line break too). The safe
    verdict: the mark is a word of the prose's clause.""")
test_a_relation_mark_after_a_hedge_on_its_line_stays_refused = refused_test(ORDER_HELD)
test_a_relation_after_a_link_pays = paid_test(ORDER_PAID)


# 9. Cost: calls in factors, juxtaposed `\Gamma`, `\Gamma` sums past the point sampler.
_LETTERS = "abcdefghij"


def _chain(call: str, sign: str, calls: int) -> str:
    return f" {sign} ".join(call.format(v=v) for v in _LETTERS[:calls])


COSTLY = [
    _chain("(\\sin({v})+1)", "\\cdot", 6), _chain("(\\sin({v}) - {v})", "\\cdot", 6), _chain("(\\sin {v} + 1)", "", 6),
    _chain("\\Gamma({v})", "", 8), "\\Gamma(i) + \\Gamma(a) + \\Gamma(b) + \\Gamma(c) + \\Gamma(d) + \\Gamma(f)",
]


@pytest.mark.parametrize("answer", COSTLY)
def test_calls_in_factors_and_gamma_calls_are_bounded(answer: str) -> None:
    """1.6-3.7 s each here (strict, one process, load 2-4), eight `(\\sin(a)+1)` factors over 40 s (a gold 34 s), nine
    `\\Gamma` terms 25 s: `function_products` read 0 and no other bound refused them. The safe verdict: refused as too costly
    to compare, quickly (closed by fx29an: 0.00-0.15 s), as an answer and as a gold."""
    from verifier.math import grade_math

    result = grade_math({"completion": f"\\boxed{{{answer}}}", "gold": "1", "profile": "strict"})
    assert result["verdict"] == "incorrect" and "too costly" in result["detail"], result
    as_gold = grade_math({"completion": "\\boxed{1}", "gold": answer, "profile": "strict"})
    assert as_gold["verdict"] == "incorrect" and "too costly" in as_gold["detail"], as_gold


@pytest.mark.parametrize("answer", [
    _chain("(1+\\sin({v}))", "\\cdot", 6), _chain("\\sin({v})!", "", 6), _chain("\\frac{{1}}{{\\sin({v})}}", "", 6),
    _chain("\\sin({v})", "\\circ", 6), _chain("\\sin\\!({v})", "\\cdot", 6),
])
def test_products_after_a_calls_argument_stay_bounded(answer: str) -> None:
    """What fx29ai counts: a product after a call's argument past closing brackets (`(1+\\sin a) \\cdot`), `!`, a fraction's
    next argument, `\\circ`, a spacing command."""
    assert function_products(answer) > MAX_FUNCTION_PRODUCTS


# Right answers the new rules refuse (pedantry): each paid on 3b34c66 (before fx29ag).
PEDANTRY = [n(c) for c in [
    "We have $3! = 6$, so the answer is \\boxed{6}.", "Since $3! = 6$, the answer is \\boxed{6}.", "$3! = 6$, so the answer is \\boxed{6}.",
    "We know $4! = 24$, so $x = \\boxed{6}$.",
    "If $x$ is the number of apples, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "If $n$ is the number of cars, then $n = 2 + 4$, so $n = \\boxed{6}$.",
    "From step 1, $a = 2$; from step 2, $b = 4$; so $a + b = \\boxed{6}$.",
    "By Vieta, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.",
    "ดังนั้น\n\\boxed{6}", "ดังนั้น\n\\[\\boxed{6}\\]", "ดังนั้น\n$$\\boxed{6}$$", "所以答案为：\n$$\\boxed{6}$$", "所以答案是：\n$$\\boxed{6}$$",
    "所以答案为：\n\\[\\boxed{6}\\]", "由此可得 $x = 6$，\n故答案为 $\\boxed{6}$。", "解得 $x = 6$，\n所以答案是 6。",
    "After simplifying, the expression equals\n$$\\boxed{6}$$",
]]
test_right_answers_the_new_rules_refuse = paid_test(
    PEDANTRY, """Refused in both profiles since fx29ag-fx29aj, paid before: a factorial before `=` read as `!=` (fx29ah), a
    premise or reference opening a derivation (`_derivation_leads`, fx29ag), a box or display on the line after a Thai
    lead or a Chinese label (`_line_start_leads`, fx29ag), a Chinese clause ended by `，` at a line's end, and a `$$` display
    after a line-final `equals`. A grader that refuses right answers is wrong too. Paid again (fx29al): a `!` glued to a
    digit, letter or closing bracket inside math with more math after it is a factorial (`grammar._factorial`), a premise
    naming its letter first (`If $x$ is the number of apples`) and a reference (`By Vieta`, `From step 1`) open a
    derivation, a caseless script's connective leads to a box (`_SCRIPT_CONNECTIVES`) and its leads to a label in one run
    (`_led_script_label`), `解得`, `由此可得` state a step, `After simplifying,` is a method's clause.""")
NATURAL_PAID = [n(c) for c in [
    "Note $3! = 6$. The answer is \\boxed{6}.", "$x = 3!, x = \\boxed{6}$", "Therefore, the value is\n$$\\boxed{6}$$",
    "因此，答案为：\n$$\\boxed{6}$$", "答案：\n$$\\boxed{6}$$", "Step 1: 2 + 4 = 6.\nStep 2: The answer is\n$$\\boxed{6}$$",
    "**Step 2:** So the total is\n$$\n\\boxed{6}\n$$", "The answer is\n$$\\boxed{6}$$", "Thus the number of ways is\n$$\\boxed{6}$$",
]]
test_right_answers_in_natural_shapes_pay = paid_test(NATURAL_PAID)

# fx29al's near misses and rewrites of the pedantry fixes: what each fix reads must still refuse a hedge, a scale, a
# negation or another value, and the fix's own shapes in other words must pay.
PEDANTRY_NEAR = [n(c) for c in [
    "I doubt that $3! = 6$, so the answer is \\boxed{6}.", "The answer in thousands is $3! = 6$, so \\boxed{6}",
    "Maybe $3! = 6$, the answer is \\boxed{6}.", "Since $3! = 6$, the answer is not \\boxed{6}.",
    "We have $3! = 6$, so the answer in thousands is \\boxed{6}.", "The answer could be $3! = 7$, so \\boxed{6}",
    "If $x$ is the answer in thousands, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "If $x$ is the number of thousands, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "If $x$ is not the number of apples, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "If $x$ is half the number of apples, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "Let $x$ be the number of apples minus one, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "If $x$ is the number of apples in thousands, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "If $x$ is the wrong answer, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "By 1000, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.",
    "By Roughly, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.",
    "By Thousands, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.",
    "By Vieta, roughly, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.",
    "Maybe by Vieta, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.",
    "From step 1000, $a = 2$; from step 2, $b = 4$; so $a + b = \\boxed{6}$.", "By Vieta in thousands, $p = 2$; hence $p + q = \\boxed{6}$.",
    "可能\n\\boxed{6}", "ไม่\n\\boxed{6}", "อาจจะ\n\\boxed{6}", "ไม่ใช่ ดังนั้น\n\\boxed{6}", "อาจจะ ดังนั้น \\boxed{6}", "约\n\\boxed{6}",
    "可能答案为：\n$$\\boxed{6}$$", "错误答案为：\n$$\\boxed{6}$$", "所以不是：\n$$\\boxed{6}$$", "所以答案不是：\n$$\\boxed{6}$$",
    "所以答案约为：\n$$\\boxed{6}$$", "可能 $x = 6$，\n故答案为 $\\boxed{6}$。", "由此可得约 $x = 6$，\n故答案为 $\\boxed{6}$。",
    "不可得 $x = 6$，\n故答案为 $\\boxed{6}$。", "可能 $x = 6$，\n所以答案是 6。",
    "After roughly simplifying, the expression equals\n$$\\boxed{6}$$", "After dividing by 1000, the expression equals\n$$\\boxed{6}$$",
    "After maybe, the expression equals\n$$\\boxed{6}$$", "After simplifying, the expression in thousands equals\n$$\\boxed{6}$$",
    "After simplifying, the expression is not\n$$\\boxed{6}$$",
]]
test_near_misses_of_the_pedantry_fixes_stay_refused = refused_test(PEDANTRY_NEAR)
PEDANTRY_REWRITES = [n(c) for c in [
    "We have $(1+2)! = 6$, so the answer is \\boxed{6}.", "Note $3!$ = 6! The answer is \\boxed{6}.",
    "Let $x$ be the number of apples, then $x = 2 + 4$, so $x = \\boxed{6}$.",
    "Suppose $n$ denotes the total cost, then $n = 2 + 4$, so $n = \\boxed{6}$.",
    "By Vieta's formulas, $p = 2$; by symmetry, $q = 4$; hence $p + q = \\boxed{6}$.",
    "Using equation (2), $a = 2$; from step 3, $b = 4$; so $a + b = \\boxed{6}$.",
    "ดังนั้น \\boxed{6}", "所以最终答案是：\n$$\\boxed{6}$$", "所以答案是：$\\boxed{6}$", "因此答案为：\\boxed{6}",
    "解得$x=6$，\n所以答案是 6。", "我们得到 $x = 6$，因此答案是 $\\boxed{6}$。", "Upon simplifying, the expression equals $\\boxed{6}$",
    "After rounding, the expression equals\n$$\\boxed{6}$$",
]]
test_rewrites_of_the_pedantry_fixes_pay = paid_test(PEDANTRY_REWRITES)
