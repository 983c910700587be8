"""Red team of issue 29's answer reading, thirty-eighth pass (rt38): fx29i's merge into verifier/math/ (7e79aa5:
`extract._equation_proofs`, `_DECIMAL_COMMA_EVIDENCE_RE`, `_decimal_point_text`'s other-language words before every
proof; `grammar.box_lead(prefix, box)`, `_states_box`, `_exact_arithmetic`, `_approximates_box`; `_answer_subject`,
`_LABEL_DETERMINERS`, `_LABEL_HEADS`), through the real grader (`grade_math`) in both profiles on main. COUNTS are of
generated rows (generators kept out of the tree; each class says what was generated), each also run against the
merge's parent (63006b2's `verifier/` tree): NEW where the parent refused, OLD where it paid too. Each xfail row below
pays a wrong answer in both profiles (a cost's xfail row: a right answer refused, paid on the parent).

FINDINGS
1. OLD (both profiles; the parent opened any bare term, so these paid there too): `_states_box` is fooled by arithmetic
   that `_exact_arithmetic` evaluates otherwise than LaTeX renders it, so a display that states another value than the
   box opens it (rt37 class 6b's fix, bypassed): a brace group is a product by juxtaposition (`2(6 + 3)`'s rule
   applied to `{`: `6{1}` renders 61, evaluates 6; `6{1}{1}{1}` renders 6111; `6{0}` renders 60, evaluates 0); a
   factorial after a space (`1 0!` renders 10!, evaluates 1 x 0! = 1); a float that underflows (`6 + 1e-330`: the
   literal is read as the float 0.0, so the term is exactly 6; `_DECIMAL_LITERAL_RE` bounds digits, not exponents); a
   superscript of one token (`2^10` renders 2 to the 1, then 0; evaluates 1024); a fraction with a third group
   (`\\frac{6}{1}{2}`: 12); `2e3` (renders 2 e 3; not in the tests). Under the answer's label the same terms pass
   `_approximates_box` (`Answer:\\n\\[k \\approx 6{1}\\]\\n\\boxed{6}`). 90 of 90 generated rows (5 labels x 10 terms, 4
   answer labels x the same 10 after `k \\approx`), all paid on the parent.
   Fix (allowlist): `_exact_arithmetic` reads a number only as a whole token of ASCII digits with an optional point and
   no exponent beyond the float's range (or exactly, `Fraction(text)`), an operator between every two operands (no
   juxtaposition of braces or after a space), a power's exponent in braces, a fraction of exactly two groups.
2. OLD (both profiles): `_same_term` drops every spacing command, so a quad's or a thick space between two values makes
   them one number: `The total is:\\n\\[6 \\quad 1\\]\\n\\boxed{61}` (`\\qquad`, `\\;`, `\\:`, `\\ `): 25 of 25 rows (5 labels
   x 5 spacings), all on the parent. Fix: only the grouping spaces (`\\,`, `\\!`, `{,}` between groups of
   three digits) are dropped; any other spacing separates two terms, which state no one value.
3. OLD (both profiles): only a display's last row is read (`_math_line`'s `row`), so a first row that states another
   value or a relation is unread: `Answer:\\n\\[k \\ne 6 \\\\ 6\\]\\n\\boxed{6}`, `\\[k > 7 \\\\ k \\approx 6\\]`, `\\[7 \\\\ 6\\]`,
   `\\[7 \\\\ 2 + 4\\]`: 19 of 36 rows (4 labels x 6 shapes, 4 answer labels x 3; `aligned` and `gathered`
   environments, `\\\\[2pt]`, `\\cr` and `**Final Answer:**` above `k \\ne 6 \\\\ 6` held), all on the parent. Fix: every row of the display states the box's
   value, or the display opens nothing.
4. OLD (both profiles; `_math_line`'s equation branch, untouched by fx29i): a display that is an equation opens the box
   below whatever its value, under any label: `The answer is:\\n\\[x = 7\\]\\n\\boxed{6}`, `\\[x = 6000\\]`, `\\[k = 6 \\times
   1000\\]`, `\\[x = \\frac{6}{1000}\\]`, `\\[6 = 7\\]`, `\\[x = 6 \\text{ or } 7\\]`, `\\[x = 6\\%\\]`, `\\[x = 5 + 1 = 7\\]`: 45
   of 50 rows (5 labels x 10 equations; `n = 6 \\text{ thousand}` held), all on the parent; of the peers' labelled
   wrong pairs (mario_eval, nemo_skills, hendrycks_math), 3 of 24 pay with the wrong equation displayed above the
   gold's box (`\\[x + y - z + 2 = 0\\]` above `\\boxed{5x - 7y + 11z + 4 = 0}`); every math line's shape does the
   same (`Answer:\\n$x = 7$\\n\\boxed{6}`, a bare `x = 7`, `$$`, `\\(`, a list's item, a quote, `equation` and `align`
   environments, `\\tag{1}`, a trailing `,`/`.`: 48 of 104 rows, 4 labels x 26 shapes, the 56 held are bare terms and
   other relations), all on the parent. This is rt37 class 6's own class: the
   completion states two answers and the box's is paid. Fix: an equation's last side states the box's value
   (`_states_box`), as a bare term must.
5. OLD (both profiles): `_answer_subject` reads only the heads `answer`/`answers` (and a label's `result`), so every
   other head names another quantity's value with the tails it refuses after `answer`: `The total in thousands
   is:\\n\\boxed{6}`, `The result for each child is:`, `The value per box is:`, `The number of the friend is:`, `The sum
   to the first step is:`, `The count for case 2 is:`: 205 of 384 rows (24 heads x 8 tails x 2 links; the box's own
   line refused more than the colon line), all on the parent. Fix: the tails' allowlist read after every subject's
   head, not after `answer` alone.
6. OLD (both profiles): a label's `total` is not read as its `answer` and `result` are (`_LABEL_HEADS`), so a step's or
   a case's total states the answer: `Step 1 total:\\n\\boxed{6}`, `Total of step 1:`, `Total for step 1:`, `Case 1
   total:` (8 of 8 rows, 2 layouts); and `_LABEL_DETERMINERS`' owners name someone's part: `Her share:`, `Her part:`,
   `His cost:`, `Her total:`, `Their total:`, `Your total:` (16 of 16 rows, 8 labels x 2 layouts), all on the parent, where `Her answer:` and `Her result:` are refused. Fix: a label's head from an answer's lexicon
   only, every head read by `_answer_subject`'s tails; an owner's determiner only before an answer's head.
7. OLD (both profiles): `_decimal_point_text` refuses a proof only over a LISTED language's words
   (`OTHER_LANGUAGES_FUNCTION_WORDS`), so an equation that holds only in the point's convention proves it over prose of
   any other decimal-comma language: `1.000 x 1 = 1. Comprou 12.000 kg de arroz.\\n#### 12.000` pays 12 (Portuguese
   12000), `2 x 1.500 = 3. Kupila 2,500 kg jablek.` pays 2500 (Czech 2.5): 70 of 140 rows (7 texts x 10 equations x 2
   readings; the paying equations hold in the point's reading by a factor of 1000 alone: `1.000 x 1 = 1`, `1.000 +
   1.000 = 2`), all on the parent. rt37 class 5's fix is a list of bad words. Fix: an equation proves the convention
   only for a text whose words are English (`_english_words`) or none, never over words of no known language.
8. OLD (both profiles; the anchor's `=` chain, which `_arithmetic_tree` serves since fx29i): a middle side over
   `_MIDDLE_NUMBER_RE`'s 60 characters has no value and agrees (`Final Answer: x = 1+1+...+1 = 6`, 31 ones; a power's
   side of 400 terms), and `Final Answer: x = 7 \\cdot 2^{1} = 6` pays 6 though `chain_agrees` itself refuses it
   (`_arithmetic` gives 14; the reader that pays it not traced: `x = 7 \\cdot 2 = 6` is refused). Fix: a middle side that
   cannot be read leaves the chain unread (refused), never agreeing.
9. CLOSED (lead: `_powers_of_small_integers`, the 60-character bound on every arithmetic side). NEW with fx29i on the box's path, OLD on the anchor's (both profiles; class 8 of RED-TEAM.md): `_walk` and
   `_exact_walk` recurse once per operator, `_arithmetic_tree` bounds no operator count where a power is written, and
   neither catches `RecursionError`, so a 2 KiB term is verdict `error` ("internal error: RecursionError"), not the
   program's 0: `The total is:\\n\\[2 + 4\\]\\n\\boxed{2^{2} + 1 + ... + 1}` (990 ones; `_states_box` evaluates the box
   once the display has a value; the parent: `incorrect`, 991 operators over the parser's 300), and `Final Answer: x =
   2^{2} + 1 + ... + 1 = 6` (1,000 ones; `error` on the parent too). Fix: the operator bound (300) before any walk.
10. CLOSED (lead: `_powers_of_small_integers`, a split and two flat patterns). NEW with fx29i on the box's path, OLD on the anchor's (class 9 of RED-TEAM.md, the service stalled):
   `_arithmetic_tree`'s power check (`[0-9.+\\-*/() ]*(?:\\*\\*...[0-9.+\\-*/() ]*)+`, the parent's `_power`) backtracks
   exponentially where it fails, 4 times more per two more `^2`, and it runs in `extract_answer`, which the engine
   runs on its event loop for a completion up to 16 KiB (engine `_read`, `_READ_INLINE_CHARS`; no deadline, the
   worker's is for grading). `_states_box` now evaluates the display: `The total is:\\n\\[2^2^...^2 x\\]\\n\\boxed{6}`
   is read in 0.9 s of CPU at 75 bytes (22 carets), 3.1 s at 79, 13.1 s at 83 (measured; load average 2 to 4), so
   about a minute at 87 bytes and hours at 100 (extrapolated; the parent: 0.001 s, it evaluated no display). The anchor's chain (`chain_agrees`) does the same on both trees:
   `Final Answer: x = 2^2^...^2 x = 6` is read in 1.1 s at 69 bytes (parent 0.9 s). Fix: a check with no nested
   quantifier over the same characters (count the `**` tokens by a scan), or the parse alone.
COSTS (strict xfails, "cost: ..."; right answers refused in both profiles, paid on the parent):
(a) NEW with fx29i: a display that states the box's value in another spelling no longer opens it (`_states_box` admits
   the same term or exact arithmetic in numbers alone): `Answer:\\n\\[\\frac12\\]\\n\\boxed{\\frac{1}{2}}`, `\\[1,000\\]` above
   `\\boxed{1000}`, `\\sqrt{36}`, `50\\%` above `0.5`, `\\$6`, `6^\\circ`, `2^{31}` (exponent over 30), `20!` (factorial over
   19), `\\frac{\\sqrt{3}}{2}` above `\\frac{\\sqrt3}{2}`: 126 of 444 rows (6 labels x 74 pairs) paid on the parent are
   refused; of the peers' labelled equivalent pairs (mario_eval, nemo_skills, hendrycks_math: 110 one-line pairs, each
   way), 146 of 220 rows paid on the parent are refused, 0 gained. Fix: the display's and the box's values compared as
   the grader compares answers (math-verify), where both parse, not only as exact arithmetic.
(b) NEW with fx29i: English prose with a word `OTHER_LANGUAGES_FUNCTION_WORDS` lists as another language's (`ban`, `et
   al.`, `nay`, `med`, `til`, `la`, `con`, `pas`) lost its equation's proof (`3 x 500 = 1,500`), which the parent read
   past them: 20 of 42 rows (21 sentences x 2 orders). Fix: the listed words refuse only where no English clause holds
   them (`_english_clause`), or an English sentence's words outweigh them.
(c) NEW with fx29i (`_answer_subject`'s tails): subjects that name the problem's answer by a tail or a lead the
   allowlist lacks are refused on a colon line and the box's own line: `The answer to the original problem is:\\n\\boxed{6}`,
   `The answer in square units is:` (`square` before a unit), `The required answer is:`, `The total answer is:`, `The
   answer found is:`: 19 of 295 rows (59 subjects x 5 links) paid on the parent are refused, 0 gained; 162 more were
   refused on the parent too (rt37 cost f, open: `The numerical answer is:`). Fix: the tails' allowlist grown by a
   problem's adjectives (`original`, `given`) and a unit's phrase (`square units`, `km/h`); the leads by `required`.
NOTE on classes 1 to 4: a later statement supersedes an earlier one on both trees by design (docs/math.md: the later of
the last box and the last anchor wins), so `Answer: 7\\n\\boxed{6}`, `The answer is 7.\\n\\boxed{6}` and `Answer:
$x = 7$\\n\\boxed{6}` pay 6, while `Answer:\\n\\[7\\]\\n\\boxed{6}` is refused (rt37 class 6's fix). A display that states
another value than the box below is then no worse than a line of prose that does; either the rule reaches the prose
line too, or cost (a) buys nothing. The lead's call; the xfails below follow fx29i's stated rule.
Peer corpora (tests/test_math_peers.py's data): 0 of 1,125 completions moved; 0 of 5,062 one-sentence rows
(GSM8K, MathVista, Omni-MATH, MGSM, `#### 2,500` after) moved.
HELD (no test added unless named): `_answer_subject`'s tails after `answer`: `in <word>`, 144 of 170 rows of scale and
unit words refused (the 26 that pay are units: `in kilograms`, `in km`, `in yen`, `in units`); 285 rows of link groups
and doubled tails (`The answer will be for each child:`, `The answer is for each child`) pay only where the tail is
allowed (`for x`, `of part (b)`, `to the problem`, doubled links `is is`); 54 punctuated tails (commas, dashes,
markup, no-break and zero-width spaces, `\\text{}`) pay 4, two by design (`Answer for $n$:`) and two part labels that
are words (`The answer for part each is`, `Answer (part 1000):`); `_states_box`'s same-term and exact arithmetic for
plain terms, `\\frac`, decimals over 15 digits, powers over 30, `\\%`, units; `_approximates_box`'s lone name
(`\\pi`, `\\infty`, `\\log`, `\\approxeq`, a scaled name refused); `_exact_arithmetic`'s work per grade is constant
(4 calls per profile at 380 B and at 380 KB, counted below; 1 MiB of display-and-box pairs grades in 0.3 to 0.4 s of
CPU, as on the parent); the twins of each class below.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import MATH_PROFILES, paid_test, refused_test
from tests.test_math_redteam_30 import _cases, _rows
from verifier.math import grade_math, grammar

_LABELS = ("The total is:", "We add them:", "Answer:", "The answer is:", "Therefore:")
_ANSWER_LABELS = ("Answer:", "The answer is:", "**Final Answer:**", "答案：")


def _display(label: str, term: str, box: str) -> tuple[str, str]:
    """A label, a display of `term` and the box below, gold the box's content (the box is right)."""
    return (f"{label}\n\\[{term}\\]\n\\boxed{{{box}}}", box)


# 1. `_states_box` fooled by arithmetic that evaluates otherwise than it renders (old).
_MISREAD_TERMS = [("6{1}", "6"), ("6{1}{1}{1}", "6"), ("6{0}", "0"), ("1 0!", "1"), ("2 0!", "2"), ("6 + 1e-330", "6"),
                  ("6 \\cdot 1e-400 + 6", "6"), ("2^10", "1024"), ("\\frac{6}{1}{2}", "12")]
test_a_term_that_renders_another_value_opens_no_box = refused_test(_rows(
    [_display(label, t, b) for label in _LABELS for t, b in _MISREAD_TERMS]
    + [_display(label, f"k \\approx {t}", b) for label in _ANSWER_LABELS for t, b in _MISREAD_TERMS], (
        "rt38 class 1, old: `_exact_arithmetic` reads a brace group or a space as a product (`6{1}` renders 61), a "
        "float that underflows as 0 (`1e-330`), `2^10` as 2**10; fix: numbers as whole ASCII tokens read exactly, an "
        "operator between every two operands")))
# Class 1's twins: the same display written as it is read pays; a term that renders another value is refused.
test_the_same_arithmetic_written_out_pays = paid_test(_cases(
    [_display(label, t, b) for label in ("The total is:", "Answer:", "Therefore:") for t, b in (
        ("6 \\cdot 1", "6"), ("1 \\cdot 0!", "1"), ("2^{10}", "1024"), ("\\frac{6}{1} \\cdot 2", "12"),
        ("2 \\times 10^3", "2000"), ("6 + 0", "6"))]))
test_a_term_of_another_value_is_refused = refused_test(_cases(
    [_display(label, t, b) for label in ("The total is:", "Answer:", "Therefore:") for t, b in (
        ("61", "6"), ("6111", "6"), ("10!", "1"), ("6 + 10^{-30}", "6"), ("6 + 1e-30", "6"), ("20", "1024"),
        ("6{1}", "7"), ("60", "0"), ("6 \\cdot 1", "7"))]))

# 2. A quad's or thick space between two values collapsed into one number (old).
test_two_spaced_values_state_no_one_box = refused_test(_rows(
    [_display(label, f"6 {space} 1", "61") for label in _LABELS for space in ("\\quad", "\\qquad", "\\;", "\\:")], (
        "rt38 class 2, old: `_same_term` drops every spacing command, so `6 \\quad 1` is the box's 61; fix: only "
        "grouping spaces between groups of three digits are dropped")))
test_a_grouping_space_pays = paid_test(_cases(
    [_display(label, t, "6000") for label in ("The total is:", "Answer:", "Therefore:") for t in ("6\\,000", "6\\!000")]
    + [_display("Answer:", "6 1", "61")]))
test_two_spaced_values_of_another_box_are_refused = refused_test(_cases(
    [_display(label, "6 \\quad 1", "7") for label in ("The total is:", "Answer:", "Therefore:")]))

# 3. Only a display's last row is read (old).
test_a_displays_earlier_rows_are_read = refused_test(_rows(
    [_display(label, t, "6") for label in ("The total is:", "We add them:", "Answer:", "Therefore:")
     for t in ("7 \\\\ 6", "7 \\\\ 2 + 4")]
    + [_display(label, t, "6") for label in _ANSWER_LABELS
       for t in ("k \\approx 7 \\\\ k \\approx 6", "k > 7 \\\\ k \\approx 6")]
    + [_display(label, "k \\ne 6 \\\\ 6", "6") for label in _ANSWER_LABELS[:2] + _ANSWER_LABELS[3:]], (
        "rt38 class 3, old: `_math_line` reads the display's last row alone, so `7 \\\\ 6` or `k \\ne 6 \\\\ 6` "
        "above `\\boxed{6}` states 6; fix: every row states the box's value")))
test_rows_that_all_state_the_box_pay = paid_test(_cases(
    [_display(label, t, "6") for label in ("The total is:", "Answer:", "Therefore:") for t in ("2 + 4 \\\\ 6", "6 \\\\ 6")]))
test_rows_of_another_value_are_refused = refused_test(_cases(
    [_display(label, t, "6") for label in ("The total is:", "Answer:", "Therefore:")
     for t in ("7 \\\\ 5", "\\begin{aligned} 7 \\\\ 6 \\end{aligned}")]))

# 4. An equation display of any value opens the box below (old; the equation branch fx29i left alone).
_OTHER_EQUATIONS = ["x = 7", "k = 6 \\times 1000", "x = 6000", "x = \\frac{6}{1000}", "6 = 7", "x = 6 \\text{ or } 7",
                    "x = 7 \\approx 6", "x = 6\\%", "x = 5 + 1 = 7"]
test_an_equation_of_another_value_opens_no_box = refused_test(_rows(
    [_display(label, e, "6") for label in _LABELS for e in _OTHER_EQUATIONS]
    + [("The answer is:\n\\[x + y - z + 2 = 0\\]\n\\boxed{5x - 7y + 11z + 4 = 0}", "5x - 7y + 11z + 4 = 0"),
       ("The answer is:\n\\[\\cos(x)=\\frac{42}{59}\\]\n\\boxed{\\sin(x)=\\frac{42}{59}}", "\\sin(x)=\\frac{42}{59}")], (
        "rt38 class 4, old: `_math_line` opens the box under any equation's display, whatever its last side "
        "(`\\[x = 7\\]` above `\\boxed{6}`): two answers stated; fix: the equation's last side states the box's value")))
test_an_equation_of_the_boxs_value_pays = paid_test(_cases(
    [_display(label, e, "6") for label in ("The total is:", "Answer:", "Therefore:") for e in ("x = 6", "x = 2 + 4")]))

# 5. `_answer_subject` reads `answer` alone: another head with another quantity's tail pays (old).
_HEADS = ["result", "value", "total", "number", "sum", "amount", "count", "solution", "final result", "final total"]
_OTHER_TAILS = ["for each child", "to the first step", "of the friend", "in thousands", "per box", "for case 2"]
test_another_head_naming_another_quantity_is_refused = refused_test(_rows(
    [f"The {h} {t} is:\n\\boxed{{6}}" for h in _HEADS for t in _OTHER_TAILS], (
        "rt38 class 5, old: `_answer_subject` reads the tails after `answer` only, so `The total in thousands is:`, "
        "`The result for each child is:` state the box; fix: the tails' allowlist after every subject's head")))
test_a_head_naming_the_whole_pays = paid_test(_cases([f"{s}\n\\boxed{{6}}" for s in (
    "The total is:", "The result is:", "The value is:", "The total in cm is:", "The total for part (b) is:")]))
test_the_answer_naming_another_quantity_is_refused = refused_test(_cases(
    [f"The answer {t} is:\n\\boxed{{6}}" for t in _OTHER_TAILS]))

# 6. A label's step or case total, an owner's part (old).
test_a_steps_total_or_someones_part_is_no_answers_label = refused_test(_rows(
    [f"{label}{sep}\\boxed{{6}}" for label in (
        "Step 1 total:", "Total of step 1:", "Total for step 1:", "Case 1 total:", "Her share:", "Her part:", "His cost:")
     for sep in ("\n", " ")], (
        "rt38 class 6, old: `_LABEL_HEADS` reads `answer`/`result` alone, so a step's or case's `total` states the "
        "answer; `_LABEL_DETERMINERS`' owners name someone's part; fix: an answer's head and its tails for every label")))
test_the_wholes_total_pays = paid_test(_cases(["Total:\n\\boxed{6}", "Final total:\n\\boxed{6}", "Step 1:\n\\boxed{6}"]))
test_a_steps_result_or_someones_answer_is_refused = refused_test(_cases(
    ["Step 1 result:\n\\boxed{6}", "Her answer:\n\\boxed{6}", "Her result:\n\\boxed{6}", "Each box:\n\\boxed{6}"]))

# 7. An equation proves the point's convention over a language the list does not name (old).
_UNLISTED = ["Kupila {n} kg jablek.", "Comprou {n} kg de arroz.", "Vendeu {n} copias do livro.", "Tak chce {n} kg, to je vse."]
_POINT_PROOFS = ["1.000 x 1 = 1.", "1 x 1.000 = 1.", "2 x 1.500 = 3.", "1.000 + 1.000 = 2.", "3 x 500 = 1,500."]


def _proved(texts: list[str], equations: list[str]) -> list[tuple[str, str]]:
    """Each equation before each text (`{n}` its number) over `####`, with `2,500` (gold 2500) and `12.000` (gold 12):
    the point's readings a text of a decimal-comma language does not mean."""
    return [(f"{e} {t.replace('{n}', n)}\n#### {n}", g) for t in texts for e in equations
            for n, g in (("2,500", "2500"), ("12.000", "12"))]


test_an_equation_proves_nothing_over_an_unlisted_language = refused_test(_rows(_proved(_UNLISTED, _POINT_PROOFS), (
    "rt38 class 7, old: `_decimal_point_text` refuses a proof only over `OTHER_LANGUAGES_FUNCTION_WORDS`, so `1.000 x "
    "1 = 1.` proves the point's convention over Portuguese or Czech prose; fix: a proof only for English words or none")))
test_an_equation_of_no_proof_over_it_is_refused = refused_test(_cases(
    _proved(_UNLISTED, ["1 + 1 = 2.", "1,000 x 1 = 1,000."]) + _proved(["Sie hat {n} kg und er hat mehr."], _POINT_PROOFS)))
test_an_equation_over_english_pays = paid_test(_cases(_proved(["She bought {n} kg of rice."], ["3 x 500 = 1,500."])))

# 8. An `=` chain's middle side that `_arithmetic` cannot read agrees with any last side (old).
test_an_unread_middle_side_is_refused = refused_test(_rows([
    "Final Answer: x = 7 \\cdot 2^{1} = 6", "Final Answer: x = 2^{1} \\cdot 7 = 6",
    "Final Answer: x = " + "+".join(["1"] * 31) + " = 6", "Final Answer: x = 2^{2} + " + "+".join(["1"] * 400) + " = 6"], (
        "rt38 class 8, old: chain_agrees counts a middle side it cannot read (`7 \\cdot 2^{1}`, over 60 characters) "
        "as agreeing; fix: an unread middle side refuses")))
test_a_read_middle_side_decides = refused_test(_cases(
    ["Final Answer: x = 7 \\cdot 2 = 6", "Final Answer: x = 1+1+1+1+1+1+1 = 6"]))
test_a_middle_side_of_the_value_pays = paid_test(_cases(
    ["Final Answer: x = 3 \\cdot 2^{1} = 6", "Final Answer: x = 1+1+1+1+1+1 = 6"]))


# 9. A long term is an internal error (new on the box's path, old on the anchor's).
@pytest.mark.parametrize("completion", [
    "Final Answer: x = 2^{2} + " + "+".join(["1"] * 1000) + " = 6",
    "The total is:\n\\[2 + 4\\]\n\\boxed{2^{2} + " + "+".join(["1"] * 990) + "}"])
def test_a_long_term_is_the_programs_refusal(completion: str) -> None:
    """A program's input never turns into the grader's internal error (RED-TEAM.md class 8): it gets its 0."""
    verdicts = [grade_math({"completion": completion, "gold": "6", "profile": p})["verdict"] for p in MATH_PROFILES]
    assert "error" not in verdicts, verdicts


# Costs: right answers refused in both profiles, paid on the parent.
test_a_display_of_the_boxs_value_in_another_spelling_pays = paid_test(_cases(
    [_display(label, t, b) for label in ("Answer:", "The total is:") for t, b in (
        ("\\frac12", "\\frac{1}{2}"), ("1,000", "1000"), ("\\sqrt{36}", "6"), ("50\\%", "0.5"), ("\\$6", "6"),
        ("6^\\circ", "6"), ("2^{31}", "2147483648"), ("20!", "2432902008176640000"),
        ("\\frac{\\sqrt{3}}{2}", "\\frac{\\sqrt3}{2}"), ("(r+5)(r+5)", "(r+5)^2"))]), marks=[
    pytest.mark.xfail(strict=True, reason=(
        "cost (rt38 a, new with fx29i): `_states_box` admits the same term or exact arithmetic alone, so `\\frac12` "
        "above `\\boxed{\\frac{1}{2}}`, `1,000` above `1000` open nothing: 126 of 444 rows and 146 of 220 peer "
        "pairs paid on the parent; fix: compare the values as the grader does where both parse"))])
test_a_display_of_the_same_value_pays = paid_test(_cases(
    [_display(label, t, b) for label in ("Answer:", "The total is:") for t, b in (
        ("\\frac{1}{2}", "\\frac{1}{2}"), ("\\dfrac{1}{2}", "\\frac{1}{2}"), ("0.5", "\\frac{1}{2}"), ("2^{10}", "1024"))]))
_HOMOGRAPHS = ["The town will ban cars on Sunday.", "Smith et al. counted the birds.", "The vote was yea or nay.",
               "She went to med school.", "He waited til noon."]
_EQUATION = "He packs 3 x 500 = 1,500 eggs."
test_english_with_a_listed_homograph_and_an_equation_pays = paid_test(_cases(
    [(f"{s} {_EQUATION} He sold 2,500 eggs.\n#### 2,500", "2500") for s in _HOMOGRAPHS]), marks=[
    pytest.mark.xfail(strict=True, reason=(
        "cost (rt38 b, new with fx29i): `_decimal_point_text` reads `OTHER_LANGUAGES_FUNCTION_WORDS` before every "
        "proof, so English `ban`, `et`, `nay`, `med`, `til` refuse the equation's proof: 20 of 42 rows; fix: the "
        "listed words refuse only outside an English clause"))])
test_the_same_english_without_the_homograph_pays = paid_test(_cases(
    [(f"The town has many cars. {_EQUATION} He sold 2,500 eggs.\n#### 2,500", "2500"),
     (f"{_EQUATION} He sold 2,500 eggs.\n#### 2,500", "2500")]))


test_a_subject_naming_the_problems_answer_otherwise_pays = paid_test(_cases(
    [f"{s} {link}" for s in ("The answer to the original problem", "The answer in square units", "The required answer",
                             "The total answer", "The answer found") for link in ("is:\n\\boxed{6}", "was:\n\\boxed{6}")]), marks=[
    pytest.mark.xfail(strict=True, reason=(
        "cost (rt38 c, new with fx29i): `_answer_subject` admits after `answer` only its listed tails and before it "
        "the anchor's leads, so `to the original problem`, `in square units`, `required`, `total`, `found` refuse: "
        "19 of 295 rows paid on the parent; fix: grow the allowlists by a problem's adjectives and unit phrases"))])
test_a_subject_naming_the_problems_answer_by_a_listed_tail_pays = paid_test(_cases(
    [f"{s} is:\n\\boxed{{6}}" for s in ("The answer to the problem", "The answer in cm", "The final answer")]))


def _bounded_run(code: str, cpu_seconds: int) -> int:
    """The exit status of `code` run by this interpreter in a child limited to `cpu_seconds` of CPU (a bound, not a
    timed assertion: a linear reader needs a thousandth of it)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))
    root = str(Path(__file__).resolve().parent.parent)
    return subprocess.run([sys.executable, "-c", code], cwd=root, preexec_fn=limit, env={"PYTHONPATH": root},
                          capture_output=True, timeout=cpu_seconds * 20).returncode


@pytest.mark.parametrize("completion", [
    "The total is:\n\\[2" + "^2" * 32 + " x\\]\n\\boxed{6}", "Final Answer: x = 2" + "^2" * 32 + " x = 6"])
def test_a_power_chain_is_read_in_bounded_work(completion: str) -> None:
    """Untrusted text is parsed in linear time (docs DESIGN section 4): a 100-byte completion is read within 3 s of
    CPU (the import takes 0.6 s, 10 carets 1 ms), where the exponential check needs about 4**5 times 0.9 s."""
    code = f"from verifier import math; math.extract_answer({completion!r}, 'strict', None, None)"
    assert _bounded_run(code, 3) == 0


def test_the_display_reader_is_constant_per_grade(monkeypatch: pytest.MonkeyPatch) -> None:
    """A constant per completion (red team class 9, the service stalled): `_exact_arithmetic` reads the last box's
    display alone, however many displays and boxes the completion holds (counted, not timed)."""
    calls, original = [0], grammar._exact_arithmetic

    def counted(*args: Any) -> Any:
        calls[0] += 1
        return original(*args)
    monkeypatch.setattr(grammar, "_exact_arithmetic", counted)
    counts = []
    for repeats in (10, 10000):
        calls[0] = 0
        completion = "We add them:\n\\[2^{2} + 2\\]\n\\boxed{6}\n\n" * repeats
        assert grade_math({"completion": completion, "gold": "6", "profile": "strict"})["verdict"] == "correct"
        counts.append(calls[0])
    assert 0 < counts[0] == counts[1], counts
