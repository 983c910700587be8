"""Red team of issue 29's answer grammar, sixteenth pass (rt29r): wrong answers the grader pays, after fx29w (one reading
of the box's value, `conditions.box_number`; a family's definition refused, `conditions._defines_family`; an optimum
decided, `conditions._is_optimum`, `MAX_OPTIMUM_DEGREE`, `MAX_OPTIMUM_DIGITS`; `prime` in `conditions.INTEGER_KINDS`;
the name-after-noun allowlist, `grammar._before_object_name`, `_LABELLED_BY`, `_NAMED_KINDS`; any sympy exception
refuses). Graded by the real grader (`grade_math` through `tests.helpers.math_verdicts`) in both profiles; every `*_NEAR`
case below paid `correct` in both profiles unless its class says lenient, and each is a strict xfail asserting the safe
verdict until its class is closed; plain tests hold what held. Gold 6 unless a case says otherwise. About 550 candidates
tried, by family (one grading process at a time, warm, main at 3a1df71).

Ranked by how bad (a natural wording, how many variants, how far the stated value is from the box's):

1. A line break or a display between a subject and its box drops the subject (`grammar.box_clause` starts the box's
   clause at a line break or a display's start, and a box whose clause is empty is read as standing alone): `The
   answer is not\\n\\boxed{6}`, `I doubt the answer is\\n\\boxed{6}`, `The wrong answer is\\n\\boxed{6}`, `The answer is at
   least\\n\\boxed{6}`, `The answer is approximately\\n\\boxed{6}`, `The answer is 1000 times\\n\\boxed{6}`, `The answer in
   thousands is\\n$\\boxed{6}$`, `The answer is definitely not\\n$$\\boxed{6}$$`, `The answer is not:\\n\\boxed{6}`, `Nobody
   knows if the answer is\\n\\boxed{6}`, `The value of 1000 $x$ is \\[\\boxed{6}\\]` (one line), `The value of square $x$
   is\\n\\boxed{6}`, `The value of $-x$ is\\n\\boxed{6}`, `The value of $x$ such that $x > 7$ is\\n\\boxed{6}`; a condition in
   a display: `The value of $x$ such that $$x > 7$$ is \\boxed{6}`, `\\[x > 7\\]`, `\\begin{equation}x > 7\\end{equation}`,
   `The smallest integer $n$ such that $$n > 1$$ is \\boxed{6}`, `The value of $$1000x$$ is \\boxed{6}`; a clause of a
   link alone: `is \\boxed{6}.`, `$$x > 7$$ is \\boxed{6}`; lenient only: `The wrong answer is\\n6.`, `The value of 1000 $x$
   is\\n6.` (about 30 cases). Every subject rule of red teams 3-15 is undone by one newline, and models put the box on
   its own line or in a display as often as not. Held: the same on one line with `\\[`/`\\(`/`$` (`The answer is not
   \\[\\boxed{6}\\]`), `... is: \\boxed{6}` on one line, `The answer is not\\n6.` (lenient). Suggested fix (an allowlist of
   clause starts): a line break and a display's delimiters are spacing inside a sentence; the box's clause starts only
   at a sentence end (`.`, `!`, `?`), a label's colon after a label the grammar lists (`**Final Answer**`), or the
   text's start, so the words before the break are read as the box's subject; a clause that opens with a link (`is`,
   `=`) and no subject states nothing (refused).
2. Both profiles: words before a math `=` chain are not its subject (`box_subject` reads after `=` only
   `_first_side`, which stops at a math delimiter, so the words and the math before `$ =` are never read): `The value
   of 1000 $x$ = \\boxed{6}`, `The value of square $x$ = ...`, `twice $x$`, `minus $x$`, `half of $x$`, `1000 $x$ =`,
   `$1000$ $x$ =`, `$2x$ = \\boxed{6}` (`$2x = \\boxed{6}$` is refused), `The value of $2x$ =`, `The value of $-x$ =`,
   `The answer in thousands, $x$ =`, `The value of $x$ such that $x > 7$ = \\boxed{6}`, `$x ≔ 7$ =`, `The smallest integer
   $n$ such that $n > 1$ =`, `The value of $f(6)$ such that $f(x) = x + 1$ =`, `$x$ such that $x > 7$ = \\boxed{6}`
   (about 20 cases: red team 13 class 1, 14 class 1, 15 classes 2-4 again, by one `=`). Held: `The value of 1000 x =`,
   `The number of 7 apples =`, `The wrong answer =`, `The answer in thousands =` (no math before the `=`). Suggested
   fix: one subject reader for `is` and `=`: a first side that starts at a math delimiter is read with the words of its
   clause before it (`The value of $x$ =` as `The value of $x$ is`, `_noun_phrase` and its conditions), and a side
   that is empty after a closing `$` reads the closed segment as the side.
3. Both profiles: an aggregate head's condition is checked as if the box were the unknown's value (`condition_fixes`
   checks every relation on the own unknown at the box's value whatever the head; fx29v gave up recall for it, `The
   number of integers $n$ such that $n^2 < 40$ is \\boxed{13}`, but where the box's value happens to meet the condition
   the aggregate is paid): `The sum of the values of $x$ such that $x^{2} = 36$ is \\boxed{6}.` (0), `The number of
   values of $x$ ...` (2), `The product of the values of $x$ ...` (-36), `The average of the values of $x$ ...`, `The
   average value of $x$ ...`, `The mean value of $x$ ...`, `The median value of $x$ ...`, `The total value of $x$ ...`,
   `The difference of the values of $x$ ...`, `The count of $x$ ...`, `The expected value of $x$ ...`, `The sum of the
   integers $n$ such that $n \\le 6$ and $n \\ge 1$` (21), `The product of the integers $n$ such that $n < 7$ and $n >
   0$` (720), `So, the sum of the values of $x$ such that $x^{2} = 36$ is 6.` (about 25 cases). Suggested fix (an
   allowlist of heads): the box's value is the own unknown's only under an identity head (`the value of $x$`, `the
   integer $n$`, `$x$`, an optimum head), with modifiers from a listed set that selects nothing (`possible`, `required`);
   under any other head or modifier a condition on the own unknown alone refuses (or the aggregate is computed, bounded).
4. Both profiles: a head's fact the box's value is not checked against (`grammar._integer_kind` reads a sign only
   beside `integer`/`natural`/`prime`, and `integer=None` after an object; `whole`, `digit`, `probability` say a range
   nobody checks): `The positive root $x$ such that $x^{2} = 36$ is \\boxed{-6}.` (gold -6; the positive root is 6),
   `The positive value of $x$ ...`, `The positive number $x$ ...`, `The positive solution $x$ ...`, `The positive real
   $x$ ...`, `The value of positive $x$ ...`, `The value of the positive integer $n$ such that $n^{2} = 36$ is
   \\boxed{-6}.`, `So, the positive root ... is $-6$.`; `The whole number $x$ such that $x > 1$ is \\boxed{\\frac{13}{2}}.`,
   `The digit $x$ ...`, `The probability $x$ ...` (13/2; and -6 with `x^{2} = 36`) (about 20 cases). Held: `negative`
   heads, `odd`/`even`/`rational`/`perfect square`/`two-digit` (refused, words the grammar does not read). Suggested fix:
   every word before a conditioned head comes from one allowlist, each with the fact it says (`positive`: > 0 on any
   head, `whole`: a nonnegative integer, `digit`: 0-9, `probability`: [0, 1]), checked by `_holds` on the box's value
   wherever it stands (before the head or inside its object); a word with no listed fact refuses the condition.
5. Both profiles: a number set's sign is dropped (`conditions._DOMAIN_RE` reads `\\mathbb{Z}^{+}`, `\\mathbb{N}` as
   integer and `\\mathbb{Q}^{+}`, `\\mathbb{R}^+` as real, reading the `^{+}` and N's sign as nothing): `The value of $x$
   such that $x \\in \\mathbb{Z}^{+}$ is \\boxed{-6}.` (gold -6), `\\mathbb{N}`, `\\mathbb{Q}^{+}`, `\\mathbb{R}^+`, and under
   an optimum `The smallest $x$ such that $x \\in \\mathbb{Z}^{+}$ and $x > -5$ is \\boxed{-4}.` (1), `So, ... is $-6$.`
   (6 cases). Held: `\\mathbb{Z}^{-}` (unread). Suggested fix: each set a domain may name is a listed entry with its
   facts (`N`: integer >= 0, `Z^+`: integer > 0, `Q^+`/`R^+`: > 0), added as relations `_holds` and `_is_optimum` read;
   any other decoration refuses.
6. Both profiles: an ordinal head that selects another member than the optimum (`conditions.OPTIMUM_WORDS` lists
   `first` and `last`, not `second`, `third`, `next`: LEXICON adjectives the head admits): `The second integer $n$ such
   that $n > 1$ is \\boxed{6}.` (3), `The third positive integer $n$ ...` (4), `The next integer $n$ ...` (2), `So, the
   second integer $n$ such that $n > 1$ is 6.` (4 cases). Held: `second smallest` (refused: `smallest` is read).
   Suggested fix: class 4's allowlist, with each ordinal a selection `_is_optimum` decides (the k-th integer from the
   optimum's side, bounded) or refuses.

Nothing paid in these families (held, both profiles):
- the optimum's work (`_is_optimum`): eleven quadratics with 19-digit constants, irrational and transcendental
  coefficients (`\\sqrt{2}`, `\\sin(1)`, `\\ln(3)`, `\\pi`, `e`, `\\sin(10^{399})`, `\\exp(\\exp(3))`), nested radicals,
  products of root pairs, rational inequalities: each under 0.3 s, refused or decided; optimum synonyms (`lowest`,
  `minimal`, `biggest`, `highest`, `fewest`, `earliest`, `latest`, `supremum`, `infimum`, `min of`, `max of`,
  `smaller`, `larger`, `closest`) refused;
- a relative clause or participle for the condition (`that satisfies`, `satisfying`, `for which`, `where`, `with`):
  refused; a family's own name spelled otherwise (`f\\left(6\\right)`, `f\\,(6)`, `{f}(6)`, `{a}_5`, `(f(6))`): refused;
- box values near the gold (`6.9999999999999999999` against 7 under `x < 7`, `7.000000000000001` under `x > 7`,
  `-0` under `x \\ne 0`, `06`, `+6`, `6.0`): incorrect or refused; what follows a box (`\\boxed{6}0`, `\\boxed{6}\\%`) and
  inside it (`{6}`, `(6)`, `\\text{6}`, `x = 6`): refused under a condition;
- reuse keys: fifteen (completion, gold) pairs differing in `6`/`6.0`/`06`/`-0`/`6\\%`/`0.06`/`110_2` graded in one
  process in both orders give the same verdicts (`grade._COMPARED` keys the parsed gold's text and the answer;
  `engine._math_key` the gold, choices, answer and source, as red team 13 found).

Noted, not counted: `The only integer $n$ such that $n > 1$ is \\boxed{6}` (a uniqueness claim, no second value);
`The value of average $x$`, `maximum $x$`, `expected $x$`, `the cubic $x$` (an adjective or kind before a name in an
object: a name's own value for a scalar); `The value of $x$ such that $x < 5$ is \\boxed{4}. Final answer: \\boxed{6}.`
(the last box is the answer, a design call); design calls the brief excludes (`x^*`, `$2^{3}$`, `$-$`, `costs`).

Closed by fx29y (the xfails flipped; variants and rewrites at the end of the file): class 1 by
`extract._statement_lines` (a line break starts a clause only after a line that ends a statement; a display's delimiters
are spacing) and a link with no subject (`grammar._copula_subject`); class 2 by `grammar._equals_subject`; classes 3, 4
and 6 by `grammar._identity_head` over `conditions.HEAD_WORDS`; class 5 by `conditions.NUMBER_SETS`.
"""

from __future__ import annotations


from tests.helpers import number_case as n
from tests.helpers import paid_test, refused_test

V = "The value of $x$ such that"


# 1. A line break or a display between a subject and its box drops the subject.
BREAK_NEAR = [n(c) for c in [
    "The answer is not\n\\boxed{6}", "I doubt the answer is\n\\boxed{6}", "The wrong answer is\n\\boxed{6}",
    "The answer is at least\n\\boxed{6}", "The answer in thousands is\n$\\boxed{6}$",
    "The answer is definitely not\n$$\\boxed{6}$$", "The value of 1000 $x$ is \\[\\boxed{6}\\]",
    f"{V} $x > 7$ is\n\\boxed{{6}}.", f"{V} $$x > 7$$ is \\boxed{{6}}.", "is \\boxed{6}.",
    "The wrong answer is\n6.",  # lenient only: the last sentence
]]
BREAK_HELD = [n(c) for c in [
    "The answer is not \\[\\boxed{6}\\]", "The answer in thousands is $\\boxed{6}$.", "The answer is not: \\boxed{6}",
    "The answer is not\n6.",
]]
BREAK_PAID = [n(c) for c in [
    "The final answer is\n\\[\\boxed{6}\\]", "Thus, the answer is\n$$\\boxed{6}$$", "**Final Answer**\n\\boxed{6}",
    "We compute.\n\\boxed{6}", "The smallest positive integer $n$ such that $n^{2} > 30$ is\n\\boxed{6}.",
]]
test_a_line_break_never_drops_the_subject = refused_test(
    BREAK_NEAR, """Paid (both profiles; the last, lenient only): `grammar.box_clause` starts the box's clause at a line
    break or a display's start, so the subject before it, its negation, hedge, scale or condition, is never read, and a
    clause of a link alone (`is \\boxed{6}`) stands as a bare box. The safe verdict: the words before the break read as
    the box's subject.""")
test_a_subject_on_one_line_stays_refused = refused_test(BREAK_HELD)
test_a_box_on_its_own_line_after_a_stating_subject_pays = paid_test(BREAK_PAID)


# 2. Words before a math `=` chain are not its subject.
EQUALS_NEAR = [n(c) for c in [
    "The value of 1000 $x$ = \\boxed{6}.", "The value of square $x$ = \\boxed{6}.", "The value of half of $x$ = \\boxed{6}.",
    "$2x$ = \\boxed{6}.", "The value of $-x$ = \\boxed{6}.", f"{V} $x > 7$ = \\boxed{{6}}.",
    "The smallest integer $n$ such that $n > 1$ = \\boxed{6}.", "The value of $f(6)$ such that $f(x) = x + 1$ = \\boxed{6}.",
]]
EQUALS_HELD = [n(c) for c in [
    "The value of 1000 x = \\boxed{6}.", "The number of 7 apples = \\boxed{6}.", "The answer in thousands = \\boxed{6}.",
    "$2x = \\boxed{6}$.",
]]
test_words_before_an_equals_are_its_subject = refused_test(
    EQUALS_NEAR, """Paid in both profiles: after `=`, `box_subject` reads only `_first_side`, which stops at a math
    delimiter, so the words and math before `$ =` (a scale, an operation, a condition) are never read. The safe
    verdict: the clause before the `=` read as a subject, as before `is`.""")
test_an_equals_without_math_before_it_stays_refused = refused_test(EQUALS_HELD)


# 3. An aggregate head's condition checked as if the box were the unknown's value.
AGGREGATE_NEAR = [n(c) for c in [
    "The sum of the values of $x$ such that $x^{2} = 36$ is \\boxed{6}.",
    "The number of values of $x$ such that $x^{2} = 36$ is \\boxed{6}.",
    "The product of the values of $x$ such that $x^{2} = 36$ is \\boxed{6}.",
    "The average value of $x$ such that $x^{2} = 36$ is \\boxed{6}.",
    "The sum of the integers $n$ such that $n \\le 6$ and $n \\ge 1$ is \\boxed{6}.",
    "So, the sum of the values of $x$ such that $x^{2} = 36$ is 6.",
]]
test_an_aggregate_of_the_conditions_solutions_never_pays_a_member = refused_test(
    AGGREGATE_NEAR, """Paid in both profiles: `condition_fixes` checks the condition at the box's value whatever the
    head, so a sum, count, product or average of the values the condition leaves is paid when the box is one of those
    values (0, 2, -36, 0, 21 here). The safe verdict: only an identity head's box is a value of the unknown.""")
test_a_value_head_with_its_own_root_pays = paid_test([n(f"{V} $x^{{2}} = 36$ is \\boxed{{6}}.")])


# 4. A head's fact the box's value is not checked against.
FACT_NEAR = [
    n("The positive root $x$ such that $x^{2} = 36$ is \\boxed{-6}.", "-6"),
    n("The positive value of $x$ such that $x^{2} = 36$ is \\boxed{-6}.", "-6"),
    n("The value of positive $x$ such that $x^{2} = 36$ is \\boxed{-6}.", "-6"),
    n("The value of the positive integer $n$ such that $n^{2} = 36$ is \\boxed{-6}.", "-6"),
    n("So, the positive root $x$ such that $x^{2} = 36$ is $-6$.", "-6"),
    n("The whole number $x$ such that $x > 1$ is \\boxed{\\frac{13}{2}}.", "13/2"),
    n("The digit $x$ such that $x > 1$ is \\boxed{\\frac{13}{2}}.", "13/2"),
    n("The probability $x$ such that $x > 1$ is \\boxed{\\frac{13}{2}}.", "13/2"),
]
FACT_HELD = [
    n("The positive integer $n$ such that $n^{2} = 36$ is \\boxed{-6}.", "-6"),
    n("The negative solution $x$ such that $x^{2} = 36$ is \\boxed{6}."),
    n("The odd integer $x$ such that $x^{2} = 36$ is \\boxed{-6}.", "-6"),
    n("The two-digit number $x$ such that $x > 1$ is \\boxed{\\frac{13}{2}}.", "13/2"),
]
test_a_heads_fact_holds_at_the_box = refused_test(
    FACT_NEAR, """Paid in both profiles: `grammar._integer_kind` reads a sign only beside `integer`, `natural` or
    `prime`, and drops the kind after an object (`integer=None`); `whole`, `digit` and `probability` say a range no
    rule checks. The safe verdict: every fact a head's words say is checked at the box's value, or the condition
    refuses.""")
test_a_heads_fact_the_grammar_reads_stays_refused = refused_test(FACT_HELD)


# 5. A number set's sign dropped.
DOMAIN_NEAR = [
    n(f"{V} $x \\in \\mathbb{{Z}}^{{+}}$ is \\boxed{{-6}}.", "-6"), n(f"{V} $x \\in \\mathbb{{N}}$ is \\boxed{{-6}}.", "-6"),
    n(f"{V} $x \\in \\mathbb{{Q}}^{{+}}$ is \\boxed{{-6}}.", "-6"),
    n("The smallest $x$ such that $x \\in \\mathbb{Z}^{+}$ and $x > -5$ is \\boxed{-4}.", "-4"),
    n("So, the value of $x$ such that $x \\in \\mathbb{Z}^{+}$ is $-6$.", "-6"),
]
test_a_number_sets_sign_holds_at_the_box = refused_test(
    DOMAIN_NEAR, """Paid in both profiles: `conditions._DOMAIN_RE` reads `\\mathbb{Z}^{+}` and `\\mathbb{N}` as "an
    integer" and `\\mathbb{Q}^{+}` as "real", so the set's sign is never checked, by `_holds` or by `_is_optimum`. The
    safe verdict: the set's facts held at the box's value.""")
test_a_number_set_the_reader_does_not_list_stays_refused = refused_test(
    [n(f"{V} $x \\in \\mathbb{{Z}}^{{-}}$ is \\boxed{{6}}.")])


# 6. An ordinal head that selects another member than the optimum.
ORDINAL_NEAR = [n(c) for c in [
    "The second integer $n$ such that $n > 1$ is \\boxed{6}.", "The third positive integer $n$ such that $n > 1$ is \\boxed{6}.",
    "The next integer $n$ such that $n > 1$ is \\boxed{6}.", "So, the second integer $n$ such that $n > 1$ is 6.",
]]
test_an_ordinal_head_is_decided_or_refused = refused_test(
    ORDINAL_NEAR, """Paid in both profiles: `conditions.OPTIMUM_WORDS` holds `first` and `last` but not `second`,
    `third` or `next`, which LEXICON admits before a head, so the condition is only checked to hold at the box (the
    second integer above 1 is 3). The safe verdict: an ordinal's member decided, or the condition refused.""")
test_an_ordinal_beside_an_optimum_stays_refused = refused_test(
    [n("The second smallest integer $n$ such that $n > 1$ is \\boxed{6}.")])


# Held: optimum synonyms the grammar does not read, and the optimum's work (each under 0.3 s, warm).
OPTIMUM_HELD = [n(c) for c in [
    "The lowest value of $x$ such that $x > 1$ is \\boxed{6}.", "The biggest integer $n$ such that $n < 100$ is \\boxed{6}.",
    "The supremum of $x$ such that $x < 7$ is \\boxed{6}.", "The smallest integer $n$ that satisfies $n > 1$ is \\boxed{6}.",
    "The smallest integer $n$ such that $\\pi n^{2} - e n > \\sqrt{2} + \\sqrt{3} + \\sqrt{5} + \\sqrt{7}$ and $n > 0$ is "
    "\\boxed{6}.",
    "The smallest integer $n$ such that $n^{2} - \\sin(10^{399})n - \\ln(3) > 0$ and $n > 0$ is \\boxed{6}.",
]]
test_an_optimum_the_grammar_does_not_decide_stays_refused = refused_test(OPTIMUM_HELD)

# Held: a family's own name spelled otherwise, and box values near the gold under a condition.
SPELLINGS_HELD = [
    n("The value of $f\\left(6\\right)$ such that $f(x) = x + 1$ is \\boxed{6}."),
    n("The value of $f\\,(6)$ such that $f(x) = x + 1$ is \\boxed{6}."),
    n("The value of ${a}_5$ such that $a_n = 7$ is \\boxed{6}."),
    n(f"{V} $x < 7$ is \\boxed{{6.9999999999999999999}}.", "7"), n(f"{V} $x > 7$ is \\boxed{{7.000000000000001}}.", "7"),
    n(f"{V} $x \\ne 0$ is \\boxed{{-0}}.", "0"), n(f"{V} $x > 6$ is \\boxed{{6}}0.", "60"),
]
test_a_family_spelling_or_a_near_value_stays_refused = refused_test(SPELLINGS_HELD)


# fx29y: each class closed by its grammar (`extract._statement_lines`, `grammar._equals_subject`, `grammar._identity_head`,
# `conditions.HEAD_WORDS`, `conditions.NUMBER_SETS`), shown with variants the fix was not written for, and the rewrites
# that must keep paying.
BREAK_VARIANTS_NEAR = [n(c) for c in [
    "The answer is roughly\n\\boxed{6}", "The answer, I think, is\n\\boxed{6}", "Perhaps the answer is\n\\[\n\\boxed{6}\n\\]",
    "The answer in hundreds is\n\\begin{equation}\\boxed{6}\\end{equation}", f"{V}\n\\[x > 7\\]\nis \\boxed{{6}}.",
    "The answer is not\n\n\\boxed{6}", "The answer is not\n\\begin{align*}\nx &= 2 + 4 \\\\\n&= \\boxed{6}\n\\end{align*}",
    "The value of 1000 $x$\n= \\boxed{6}.", f"{V} $x > 7$\nis \\boxed{{6}}.",
]]
# Left open by fx29y, closed by fx29z: an anchor's lead (`extract._sentence_start`) and the clauses before an anchor or a
# box (`grammar._sentence_before`) started at any line break. Now both start where `grammar.last_break` says: a line break
# only after a line that ends a statement or before a line that opens a sentence (`grammar.statement_lines`), so the
# words of an unfinished line above are read with the anchor; the clause shapes that fx29y's trial refused in the peers'
# data are leads of the one allowlist (`By sum-to-product,`, `Through this analysis,`, `the inequality is proven,`).
ANCHOR_BREAK_NEAR = [n(c) for c in [
    "I doubt that\nthe answer is \\boxed{6}.", "Maybe,\nthe answer is \\boxed{6}.", "In thousands,\nthe answer is \\boxed{6}.",
    "I doubt that\nthe answer is 6.", "It is not true that\nthe answer is 6.",
]]
test_an_anchors_lead_is_read_across_a_line_break = refused_test(
    ANCHOR_BREAK_NEAR, """Paid in both profiles before fx29z: the anchor's lead and the clauses before it were read back to
    a line break only, so a hedge or scale on the line before was unread.""")
# fx29z: variants the fix was not written for: a hedge, a negation, a scale or a condition on the line above, with or
# without its punctuation, across a blank line, through markup, before a display's box, before `Answer:` and `####`.
ANCHOR_BREAK_VARIANTS_NEAR = [n(c) for c in [
    "Not\nthe answer is 6.", "I think not;\nthe answer is 6.", "In thousands\nthe answer is 6.",
    "In thousands\nthe answer is \\boxed{6}.", "Possibly\nthe answer is \\boxed{6}", "If n is odd,\nthe answer is 6.",
    "Maybe\n\nthe answer is 6.", "Perhaps\n**the answer is** $\\boxed{6}$", "Wrong\nanswer: 6", "Perhaps\nanswer: 6",
    "My guess:\nthe answer is 6", "Not sure, but\nthe answer is 6.", "The answer is 7, not 6. Roughly\nthe answer is 6.",
    "I doubt\nthat the answer is 6.", "We cannot say\nthe answer is \\boxed{6}", "Approximately\n$x = \\boxed{6}$",
    "Maybe\n\\[x = \\boxed{6}\\]", "In thousands,\n\\[\n\\boxed{6}\n\\]", "Perhaps,\n$$\\boxed{6}$$", "I doubt that\n#### 6",
    # near the admitted method and premise clauses: an unlisted method, a hedge in its place, a negated premise
    "By my guess,\n\\[x = \\boxed{6}\\]", "By a rough estimate,\nthe answer is 6.", "Through this guess,\nthe answer is 6.",
    "Thus, the inequality is not proven, and\nthe answer is 6.", "Thus, the guess is verified, and\nthe answer is 6.",
    "By sum-to-product roughly,\n\\[x = \\boxed{6}\\]",
    # a line above that ends with a number or math but is no statement (the box's rule since fx29y took any such line
    # as one): a lowercase line continues it unless it is math alone or ends with a box
    "In units of 1000\nthe answer is 6.", "Multiply by 1000\nthe answer is 6.",
    "In units of 1000\nthe answer is \\boxed{6}.", "Divide by $10^3$\nand the answer is 6.",
]]
ANCHOR_BREAK_VARIANTS_PAID = [n(c) for c in [
    # a method's or a premise's clause on the line above (the peers' shapes: math-verify's suite, Omni-MATH's outputs)
    "By sum-to-product,\n\\[x = \\boxed{6}.\\]", "By the quadratic formula,\nthe answer is 6.", "Thus,\nthe answer is \\boxed{6}.",
    "Through this analysis, the only value is:\n\\[\n\\boxed{6}\n\\]",
    "Thus, the inequality is proven, and the final answer is:\n\n\\[\n\\boxed{6}\n\\]", "So\nthe answer is 6.",
    "Therefore,\n\\[\nx = \\boxed{6}\n\\]", "We get $x = 6$, so\nthe answer is 6.",
    # a heading or a finished line, then a sentence of its own
    "**Final Answer**\nThe answer is 6.", "## Step 3: Conclude\nThe answer is \\boxed{6}.", "Let me add these up\nSo the answer is 6.",
    "2 + 4 = 6\nthe answer is 6.", "$$x = 2 + 4 = 6$$\nthe answer is 6.", "The total is 6.\n#### 6",
    "She makes 2 * 3 = <<2*3=6>>6\n#### 6",
]]
test_an_anchor_break_variant_is_read_whole = refused_test(ANCHOR_BREAK_VARIANTS_NEAR)
# Found by fx29z, closed by fx29aa: an anchor's clause started after any math delimiter (`extract._SENTENCE_BREAK_RE`),
# and `lead_clauses` reads only the clauses before a comma, so words before an inline segment with no comma were unread,
# on one line as across a break. Now `grammar.anchor_clause` reads the anchor's own clause through math and markup, each
# math segment a word no lead is; a statement ends in it only at a display's or a box's end before a sentence's opening.
ANCHOR_AFTER_MATH_NEAR = [n(c) for c in [
    "In units of $1000$ the answer is 6.", "Maybe for $n=3$ the answer is 6.", "I doubt $x$ the answer is 6.",
    "In units of $1000$\nthe answer is 6.",
]]
test_words_before_math_before_an_anchor_are_read = refused_test(
    ANCHOR_AFTER_MATH_NEAR, """Paid in both profiles before fx29aa: the anchor's lead started after the segment's closing
    `$`.""")
# fx29aa: variants the fix was not written for: scales, hedges and conditions with math in the lead, in `\(`, a display
# or markup, without and with a comma, before a box, `Answer:`, after a concluding connective, across a break.
ANCHOR_AFTER_MATH_VARIANTS_NEAR = [n(c) for c in [
    "Dividing by $1000$ the answer is 6.", "In units of \\(10^3\\) the final answer is 6", "When $n = 3$ the answer is 6.",
    "For $n \\ge 3$ the answer is 6.", "Approximately $x \\approx$ the answer is 6.", "Perhaps $x$ answer: 6",
    "Thus, maybe $x$ the answer is 6.", "Maybe for $n=3$ the final answer is $\\boxed{6}$",
    "I doubt $x$ the answer is \\boxed{6}.", "Maybe for \\[n=3\\] the answer is 6.", "Maybe $$x$$ the answer is 6.",
    "\\textbf{Maybe} the answer is 6.", "<b>Maybe</b> the answer is 6.", "\\emph{Roughly} the answer is 6.",
    "\\textbf{\\neg} the answer is 6.", "I doubt $x$\nthe answer is 6.", "Maybe for $$n=3$$\nthe answer is 6.",
    "Maybe $6$ is not the answer. Perhaps for $n=3$ the answer is 6.", "I doubt \\boxed{x} the answer is 6.",
    "Maybe $ the answer is 6.", "\\neg, the answer is 6.", "\\textbf{\\neg}, the answer is 6.",  # a command not listed
    # with a comma, as before (`lead_clauses`)
    "In units of $1000$, the answer is 6.", "Therefore, with $x = 2$, the answer is 6.", "Maybe for $n=3$, the answer is 6.",
    # math before the anchor in its own clause, with no comma: not a shape of the peers' data (recall given up; fx29z
    # paid the last, as `The total is 2 + 4 = 6\nthe answer is 6` was refused)
    "$x = 6$ so the answer is 6.", "Hence $x = 6$ and the answer is 6.", "The sum is $2 + 4$\nthe answer is 6.",
]]
ANCHOR_AFTER_MATH_VARIANTS_PAID = [n(c) for c in [
    # a premise or a step in math in a clause of its own before a comma; a statement that ends with a display or a box
    # before a sentence's opening (math-verify's suite: `\end{align*} Final Answer: The final answer is`)
    "We get $x=6$, so the answer is 6.", "Substituting $x=2$, the answer is 6.", "Since $a = 2$, the answer is 6.",
    "\\begin{align*}x&=6\\end{align*} Final Answer: The final answer is $6$. I hope it is correct.",
    "$$x = 2 + 4$$ Final Answer: The final answer is $6$.", "\\boxed{6} **Final Answer** the answer is 6",
    "**Final Answer** $\\boxed{6}$ The answer is 6", "We get $x = 2 + 4$. The answer is 6.", "$$x = 6$$\nthe answer is 6.",
    "\\textbf{Final Answer:} The final answer is 6.", "<b>Final Answer:</b> The answer is 6.", "\\textbf{Thus} the answer is 6.",
    "The total is $x = 2 + 4 = 6. $ Final Answer: The final answer is 6.",
]]
test_an_anchor_after_math_variant_is_read_whole = refused_test(ANCHOR_AFTER_MATH_VARIANTS_NEAR)
test_an_anchor_after_a_stated_step_pays = paid_test(ANCHOR_AFTER_MATH_VARIANTS_PAID)
test_a_leading_line_that_states_or_ends_pays = paid_test(ANCHOR_BREAK_VARIANTS_PAID)
BREAK_VARIANTS_PAID = [n(c) for c in [
    "So the answer is\n\\boxed{6}", "Thus, the total is\n$$\\boxed{6}$$", "The value of $x$ is\n\\boxed{6}.",
    "Step 3: Add them\n2 + 4 = 6\n\nSo the answer is \\boxed{6}.", "Simplifying:\n\\[\nx = 6\n\\]\nThus the answer is \\boxed{6}.",
    "$$\nx = 2 + 4\n$$\nThus the answer is \\boxed{6}.", "x &= 2 + 4 \\\\\n&= \\boxed{6}", "Therefore\n\\[\n\\boxed{6}\n\\]",
    # a line that opens a sentence of its own (`grammar._SENTENCE_OPENS_RE`), after a line with no end punctuation
    "Step 2: Simplify\nThe sum is \\boxed{6}", "**Step 2: Simplify**\nThe sum is \\boxed{6}", "Let me add these up\nThe answer is 6.",
    "We add them up\nSo the answer is \\boxed{6}.", "Add them up\n\nSo the answer is \\boxed{6}.",
    "**Final Answer**\nThe final answer is $\\boxed{6}$", "(a) \\boxed{5}\n(b) \\boxed{6}",
]]
test_a_line_break_variant_never_drops_the_subject = refused_test(BREAK_VARIANTS_NEAR)
test_a_box_after_a_line_break_with_its_statement_pays = paid_test(BREAK_VARIANTS_PAID)

EQUALS_VARIANTS_NEAR = [n(c) for c in [
    "The value of thrice $x$ = \\boxed{6}.", "The value of $x$ in thousands = \\boxed{6}.", "The value of $x^2$ = \\boxed{6}.",
    "The largest integer $n$ such that $n < 100$ = \\boxed{6}.", "The value of 1000 $x = \\boxed{6}$.",
]]
EQUALS_VARIANTS_PAID = [n(c) for c in [
    "$x$ = \\boxed{6}", "The value of $x$ = \\boxed{6}.", "The largest integer $n$ such that $n < 7$ = \\boxed{6}.",
    "We get $x = \\boxed{6}$.", "Thus, $x = \\boxed{6}$.", "Hence $x = 5$ and $y = \\boxed{6}$.", "The answer is $x = \\boxed{6}$.",
    "So $x = 2 + 4 = \\boxed{6}$.", "The total is $2 + 4 = \\boxed{6}$.",
]]
test_an_equals_variant_reads_its_subject = refused_test(EQUALS_VARIANTS_NEAR)
test_a_named_equals_pays = paid_test(EQUALS_VARIANTS_PAID)

AGGREGATE_VARIANTS_NEAR = [n(c) for c in [
    "The total of the values of $x$ such that $x^{2} = 36$ is \\boxed{6}.", "The values of $x$ such that $x^{2} = 36$ are \\boxed{6}.",
    "The mode of $x$ such that $x^{2} = 36$ is \\boxed{6}.", "The value of the sum $x$ such that $x^{2} = 36$ is \\boxed{6}.",
    "The number of integers $n$ such that $n^2 < 40$ is \\boxed{6}.",  # fx29v's recall case: a count, 13
]]
AGGREGATE_VARIANTS_PAID = [
    n("The number $x$ such that $x^{2} = 36$ is \\boxed{6}."), n("The largest value of $x$ such that $x^{2} = 36$ is \\boxed{6}."),
    n("The smallest possible value of $x$ such that $x^{2} = 36$ is \\boxed{-6}.", "-6"),
    n("The number of integers $n$ such that $f(n) = n$ is \\boxed{6}."),  # joined to another letter: fx29r's rule
]
test_an_aggregate_variant_never_pays_a_member = refused_test(AGGREGATE_VARIANTS_NEAR)
test_an_identity_head_with_its_value_pays = paid_test(AGGREGATE_VARIANTS_PAID)

FACT_VARIANTS_NEAR = [
    n("The nonnegative root $x$ such that $x^{2} = 36$ is \\boxed{-6}.", "-6"),
    n("The natural number $n$ such that $n^{2} = 36$ is \\boxed{-6}.", "-6"),
    n("The whole number $x$ such that $x^{2} = 36$ is \\boxed{-6}.", "-6"), n("The digit $d$ such that $d > 1$ is \\boxed{12}.", "12"),
    n("The probability $p$ such that $p > 0$ is \\boxed{2}.", "2"), n("The even integer $n$ such that $n^2 = 36$ is \\boxed{6}."),
]
FACT_VARIANTS_PAID = [
    n("The positive real $x$ such that $x^{2} = 36$ is \\boxed{6}."), n("The positive root $x$ such that $x^{2} = 36$ is \\boxed{6}."),
    n("The digit $d$ such that $d > 1$ is \\boxed{6}."), n("The probability $p$ such that $p > 0$ is \\boxed{\\frac{1}{2}}.", "1/2"),
    n("The value of the positive integer $n$ such that $n^{2} = 36$ is \\boxed{6}."),
]
test_a_heads_fact_variant_holds_at_the_box = refused_test(FACT_VARIANTS_NEAR)
test_a_heads_fact_met_by_the_box_pays = paid_test(FACT_VARIANTS_PAID)

DOMAIN_VARIANTS_NEAR = [
    n(f"{V} $x \\in \\mathbb{{R}}^{{+}}$ is \\boxed{{-6}}.", "-6"), n(f"{V} $x \\in \\mathbb N$ is \\boxed{{-6}}.", "-6"),
    n(f"{V} $x \\in \\mathbb{{Z}}_{{>0}}$ is \\boxed{{-6}}.", "-6"), n(f"{V} $x \\in \\mathbb{{Z}}^*$ is \\boxed{{-6}}.", "-6"),
    n(f"{V} $x \\in \\mathbb{{N}}^{{+}}$ is \\boxed{{0}}.", "0"),
]
DOMAIN_VARIANTS_PAID = [
    n(f"{V} $x \\in \\mathbb{{Z}}^{{+}}$ is \\boxed{{6}}."),
    n("The smallest $x$ such that $x \\in \\mathbb{Z}^{+}$ and $x > -5$ is \\boxed{1}.", "1"),
]
test_a_number_set_variant_holds_at_the_box = refused_test(DOMAIN_VARIANTS_NEAR)
test_a_number_set_met_by_the_box_pays = paid_test(DOMAIN_VARIANTS_PAID)

ORDINAL_VARIANTS_NEAR = [n(c) for c in [
    "The fourth integer $n$ such that $n > 1$ is \\boxed{6}.", "The previous integer $n$ such that $n < 7$ is \\boxed{6}.",
    "The penultimate integer $n$ such that $n < 8$ is \\boxed{6}.", "The other integer $n$ such that $n > 1$ is \\boxed{6}.",
]]
test_an_ordinal_variant_is_refused = refused_test(ORDINAL_VARIANTS_NEAR)
test_the_first_member_decided_pays = paid_test([n("The first integer $n$ such that $n > 5$ is \\boxed{6}.")])
