"""Red team of issue 29's answer grammar, sixth pass: wrong answers the grader pays, one family per class, graded by
the real grader (`grade_math` through `tests.helpers.math_verdicts`) in both profiles (docs/math.md "Answer grammar").
It attacks what the fifth pass's fixes added (fx29e, fx29f): `grammar.STATING_CLAUSES` / `strip_stating`,
`_step_subject`, order relations in a box's chain (`_first_side`), words in a chain's middle sides (`_side_words`),
labels read as phrases (`box_label`, `_label_phrase`), `_states_bound`, and the regex audit. Each `*_NEAR` list
asserts the safe behaviour, so every case there fails on main until its class is closed; each `*_SAME` list holds
rewrites main pays and each `*_REFUSED` list near misses main refuses, to guard the fix. Gold 6 unless a case says
otherwise (gold 9 for the `z = 4 for w = 9` family).

1. Only the step verbs' subject is read (`grammar._STEP_VERBS` lists gives/give/yields/yield/produces/produce):
   `_copula_subject` returns True for any other verb that is no copula (`gets`, `got`, `gave`, `finds`, `has`,
   `counts`, `uses`, `needs`, `solves`), `box_lead` admits `yielded` and `giving` (`_BOX_LEAD_WORDS`), and the prose
   `_subject` takes a capitalised gerund as a name before them: `A rough estimate gets \\boxed{6}`, `The error gave
   \\boxed{6}`, `Final Answer: Guessing gets 6.` pay 6 (red team 5 class 1 fixed `gives` alone). Also after a
   label's colon (`box_label`'s statement branch): `A rough estimate gets: \\boxed{6}`.
2. Relations a box's chain does not know: `_first_side` restarts the chain only at `_SIDE_RELATIONS` (a list);
   `\\geqq`, `≥`, `\\gtrsim`, `\\simeq`, `\\doteq`, `\\gt`, `\\lt`, `\\ll`, `\\not=`, `\\nleq`, `≈`, `\\overset{?}{=}`,
   and a listed relation inside braces (`{a + b \\geq 2 \\cdot 3}`) leave one side that `_side_states` admits as an
   expression of two unknowns or a computation without unknowns: `$a + b \\gtrsim 6 = \\boxed{6}$`, `$≈ 6 =
   \\boxed{6}$`, `$\\lesssim 6 = \\boxed{6}$` pay 6, while `$a + b \\geq 2 \\cdot 3 = \\boxed{6}$` is refused.
3. Words in a chain's middle sides are spelled out letter by letter: `_first_side` splits the text with
   `_SIDE_TOKEN_RE` (one token per character but commands) and `_side_words(" ".join(side))` looks for runs of two
   or more ASCII letters, so a word written in math (`$z = 4 for w = \\boxed{9}$`, `$x = 6 or 7 = \\boxed{6}$`,
   `$x = roughly 6 = ...$`), in a font group `_SIDE_TEXT_RE` does not list (`\\textsf`, `\\texttt`, `\\mathit`), or in
   another script (`für`, `約`, `около`) is never seen; nor is an operator that adds a second value or a scale
   (`\\pm`, `\\vee`, `\\lor`, `\\cdot 10^3`, `+ \\epsilon`), and a middle side's value is never compared with the
   last (`$x = 7 = \\boxed{6}$`, `Final Answer: x = 6000 = 6`).
4. A label's math is a name whenever `_side_states` admits it: `box_label` writes a segment as the name `x` when it
   is a computation without unknowns (`$10^3$`, `$\\times 1000$`, `$/1000$`, `$\\pm 1$`, `$\\approx$`, `$\\geq$`),
   and a single letter is a label word (`_label_word`), so a scale or a relation passes `_label_phrase` (no digit,
   no listed word): `Answer (in $10^3$): \\boxed{6}`, `Answer (in k): \\boxed{6}`, `Answer $\\approx$: \\boxed{6}` pay 6.
5. A bound by a superlative in a subject: `_states_bound` reads `at` before `_BOUND_WORDS` (least, most, minimum,
   maximum, best, worst, ...), a list; LEXICON's adjectives `smallest`, `largest`, `greatest` after `at the`/`at its`
   are admitted by the prose subject and the box's `_noun_phrase` (a closed preposition's object): `The value at the
   smallest is \\boxed{6}`, `Final Answer: the total at its largest is 6.` pay 6.
6. A function of several unknowns: `_scaled_whole` refuses listed scale shapes (a digit at the top level, a number
   alone in a `\\frac`, a leading minus, `^{-`); powers, roots, logarithms, exponentials and absolute values of two
   unknowns, and numbers inside brackets, are none of them: `$(a+b)^2 = \\boxed{6}$`, `$\\sqrt{ab} = \\boxed{6}$`,
   `$(a+b)(1000) = \\boxed{6}$`, `$(a+b)/(1000) = \\boxed{6}$` pay 6 while `$x^2$`, `$\\sqrt{x}$`, `$2ab$`,
   `$ab/1000$` are refused.
7. A clause that opens with the box's own math reads none of its words: `_opens` takes the lone `$` token (the
   box's unclosed segment, `_CLAUSE_WORD_RE`) or a single letter as a math name opening the subject, and reads on
   only when `=` is its second token; `_first_side` stops at `\\implies`, `\\Rightarrow`, `\\therefore`, `\\to`,
   `\\quad` (`_SIDE_STOPS`). So words before an arrow inside the box's math, or after a math name, are read by
   nobody: `$\\text{in thousands} \\implies x = \\boxed{6}$`, `$\\text{maybe} \\quad x = \\boxed{6}$`, `n odd \\implies
   x = \\boxed{6}` pay 6, while `$\\text{maybe } x = \\boxed{6}$` and the same in `\\[...\\]` are refused.
8. The owner slot of a step's subject: `_step_subject` admits any word ending in `'s` as a modifier, and any
   capitalised one as the owner (meant for `Vieta's formulas`, `Heron's formula`), so `The estimate's formula gives
   \\boxed{6}`, `Guessing's rule gives \\boxed{6}`, `Final Answer: The error's equation gives 6.` pay 6, while
   `The error gives \\boxed{6}` is refused: the open slot is guarded by nothing.
9. Quadratic backtracking in `grammar.closes`: `_NEXT_TURN_RE` (`<\\|im_start\\|>\\s*(?:user|...)?\\s*$`) is applied
   to the whole rest of the completion before `closes` bounds it by `MAX_CHARS`, and its two `\\s*` around an
   optional group split a run of spaces every way when the text after it is no turn. Measured on main (one
   `grade_math`, `\\boxed{6} <|im_start|>` + N spaces + `x`): N = 1000: 0.003 s, 2000: 0.056 s, 4000: 0.28 s, 8000:
   1.17 s, 16000: 5.7 s, 32000: 21.6 s (four times per doubling); an anchor and the lenient fallback are read in
   the last `tail_chars` (8192) only, so their form costs at most about 0.8 s and 1.1 s; after a box (and a
   multiple-choice box) nothing bounds it: a 100,000-character completion (`MAX_COMPLETION_CHARS`) is about 3.5
   minutes of one worker.
10. The opposite, right answers main refuses (recall): a unit in a middle side (`$x = 6 \\text{ cm} = \\boxed{6}$`:
   `_side_words` checks each letter, `c`, `m`, as a unit), a premise before an arrow after a comma (`$x^2 = 36, x > 0
   \\implies x = \\boxed{6}$`), and two stating clauses before a math subject (`We see that it follows that $x$ is
   \\boxed{6}`: `_stated_tokens` strips one, since `_STATING_PREFIX_RE`'s `^` never matches at a later `pos`), and a
   plural step verb (`Vieta's formulas give \\boxed{6}`: `give` is a `_STEP_VERBS` word but no LEXICON verb, so
   `box_lead` refuses it).
"""

from __future__ import annotations

import pytest

from tests.helpers import choice_case as mc, number_case as n, paid_test, refused_test
from verifier.math import grade_math



# 1. Any verb of action but the step verbs (docs/math.md "Answer grammar", "Red team 5's classes, closed at the class").
ACTION_VERB_NEAR = [
    n("A rough estimate gets \\boxed{6}."), n("My guess finds \\boxed{6}."), n("Guessing gets \\boxed{6}."),
    n("The error gets \\boxed{6}."), n("The upper bound gets \\boxed{6}."), n("A lower bound has \\boxed{6}."),
    n("My guess counts \\boxed{6}."), n("The naive method finds \\boxed{6}."), n("The estimate uses \\boxed{6}."),
    n("A rough estimate solves \\boxed{6}."), n("An incorrect calculation gets \\boxed{6}."),
    n("The wrong approach got \\boxed{6}."), n("The estimate needs \\boxed{6}."), n("A rough estimate gave \\boxed{6}."),
    n("The error gave \\boxed{6}."), n("Guessing gave \\boxed{6}."), n("A rough estimate yielded \\boxed{6}."),
    n("A rough estimate giving \\boxed{6}."), n("A rough estimate gets: \\boxed{6}"), n("Guessing gets: \\boxed{6}"),
    n("Final Answer: Guessing gets 6."), n("Final Answer: Rounding finds 6."), n("Final Answer: Guessing gave 6."),
    n("Final Answer: Halving got 6."), mc("A rough estimate gets \\boxed{B}."), mc("Guessing gave \\boxed{B}."),
]
ACTION_VERB_SAME = [
    n("We get \\boxed{6}."), n("We find \\boxed{6}."), n("Sam has \\boxed{6} apples."), n("Sam got \\boxed{6} apples."),
    n("This gives \\boxed{6}."), n("The quadratic formula gives \\boxed{6}."), n("Final Answer: Sam gets 6 apples."),
    n("Final Answer: Sam has 6 apples."),
]
ACTION_VERB_REFUSED = [
    n("A rough estimate makes \\boxed{6}."), n("The approximation obtains \\boxed{6}."), n("Rounding up gets \\boxed{6}."),
    n("The error becomes \\boxed{6}."), n("Final Answer: A rough estimate gets 6."), n("Final Answer: Guessing gives 6."),
    n("My guess gave us \\boxed{6}."), n("A rough estimate produced \\boxed{6}."),
]


test_the_subject_of_every_action_verb_is_read = refused_test(
    ACTION_VERB_NEAR,
    """Paid on main in both profiles, while `The error gives \\boxed{6}` is refused: `_copula_subject` hands only
    `_STEP_VERBS` to `_step_subject` and returns True for any other verb that is no copula (`gets`, `gave`, `has`),
    `box_lead` admits `yielded`/`giving`, and the prose `_subject` reads `_step_subject` only for `_STEP_VERBS`.""")


# 2. Relations the chain does not list (docs/math.md "Answer grammar", "The subject of a box").
UNLISTED_RELATION_NEAR = [
    n("$x + y \\geqq 2 \\cdot 3 = \\boxed{6}$"), n("$x + y ≥ 2 \\cdot 3 = \\boxed{6}$"),
    n("$a + b \\gtrsim 6 = \\boxed{6}$"), n("$a + b \\simeq 6 = \\boxed{6}$"), n("$a + b \\doteq 6 = \\boxed{6}$"),
    n("$a+b \\gt 2 \\cdot 3 = \\boxed{6}$"), n("$a+b \\lt 12/2 = \\boxed{6}$"), n("$a + b \\ll 2 \\cdot 3 = \\boxed{6}$"),
    n("$a + b \\not= 2 \\cdot 3 = \\boxed{6}$"), n("$a + b \\nleq 2 \\cdot 3 = \\boxed{6}$"),
    n("$x + y ≈ 6 = \\boxed{6}$"), n("$a+b \\overset{?}{=} 2 \\cdot 3 = \\boxed{6}$"),
    n("$a + b \\stackrel{?}{=} 6 = \\boxed{6}$"), n("${a + b \\geq 2 \\cdot 3} = \\boxed{6}$"),
    n("$≈ 6 = \\boxed{6}$"), n("$≥ 6 = \\boxed{6}$"), n("$\\gtrsim 6 = \\boxed{6}$"), n("$\\lesssim 6 = \\boxed{6}$"),
    n("$\\pi \\gtrsim 2 \\cdot 3 = \\boxed{6}$"), n("$约 = \\boxed{6}$"),
]
UNLISTED_RELATION_SAME = [n("$0 < x = \\boxed{6}$"), n("$a + b = 2 \\cdot 3 = \\boxed{6}$"), n("$a + b = \\boxed{6}$"),
                          n("$x = 2 \\cdot 3 = \\boxed{6}$")]
UNLISTED_RELATION_REFUSED = [
    n("$a + b \\geq 2 \\cdot 3 = \\boxed{6}$"), n("$x ≥ 2 \\cdot 3 = \\boxed{6}$"), n("$x \\gtrsim 2 \\cdot 3 = \\boxed{6}$"),
    n("$x \\geqq 2\\cdot 3 = \\boxed{6}$"), n("$x \\mathrel{\\geq} 2 \\cdot 3 = \\boxed{6}$"),
    n("$\\{a+b \\geq 2\\cdot 3\\} = \\boxed{6}$"),
]


test_any_relation_but_equality_in_a_box_chain_states_no_value = refused_test(
    UNLISTED_RELATION_NEAR,
    """Paid on main in both profiles, while `$a + b \\geq 2 \\cdot 3 = \\boxed{6}$` is refused: `_first_side`
    restarts the chain only at `_SIDE_RELATIONS`, so another relation (a Unicode sign, `\\gtrsim`, `\\gt`, `\\not=`, a
    questioned `=`, a listed one inside braces) stays in a side that `_side_states` admits (two unknowns, or none).""")


# 3. Words and second values in a chain's middle sides (docs/math.md "Answer grammar": `z = 4 for w = 9`).
CHAIN_MIDDLE_NEAR = [
    n("$z = 4 for w = \\boxed{9}$", "9"), n("$z = 4 für w = \\boxed{9}$", "9"), n("$z = 4 où w = \\boxed{9}$", "9"),
    n("$z = 4 ∀ w = \\boxed{9}$", "9"), n("$x = roughly 6 = \\boxed{6}$"), n("$x = 6 thousand = \\boxed{6}$"),
    n("$x = 6 or 7 = \\boxed{6}$"), n("$x = \\textsf{roughly } 6 = \\boxed{6}$"), n("$x = \\texttt{about } 6 = \\boxed{6}$"),
    n("$x = \\mathit{ca.} 6 = \\boxed{6}$"), n("$x = 約 6 = \\boxed{6}$"), n("$x = около 6 = \\boxed{6}$"),
    n("$x = \\pm 6 = \\boxed{6}$"), n("$x = 6 \\pm 1 = \\boxed{6}$"), n("$x = 6 \\vee 7 = \\boxed{6}$"),
    n("$x = 6 \\lor x = 7 = \\boxed{6}$"), n("$x = 6 + \\epsilon = \\boxed{6}$"), n("$x = 6 \\cdot 10^3 = \\boxed{6}$"),
    n("$x = 6000 = \\boxed{6}$"), n("$x = 7 = \\boxed{6}$"), n("Final Answer: x = 7 = 6"),
    n("Final Answer: x = 6000 = 6"),
    # the lenient last-expression fallback asks the same (it once read a bare chain's last side alone)
    n("So, $x = 7 = 6$."), n("$x = 7 = 6$"), n("So we get $x = 6000 = 6$."), n("Thus $y = 3+3 = 5 = 6$."),
]
CHAIN_MIDDLE_SAME = [n("$x = 6 \\text{ cm} = \\boxed{6}$"),  # class 10's first case: fixed with class 3 (read whole)
                     n("$x = 2 \\cdot 3 = \\boxed{6}$"), n("$z = 4$ and $w = \\boxed{9}$", "9"),
                     n("$x = 12/2 = \\boxed{6}$"), n("Final Answer: x = 2 * 3 = 6"), n("So, $x = 2 \\cdot 3 = 6$.")]
CHAIN_MIDDLE_REFUSED = [n("$x = \\text{roughly } 6 = \\boxed{6}$"), n("$x = 6\\text{ or } 7 = \\boxed{6}$"),
                        n("$x = \\{6, 7\\} = \\boxed{6}$"), n("Final Answer: x = ±6 = 6")]


test_a_chain_middle_side_is_read_whole = refused_test(
    CHAIN_MIDDLE_NEAR,
    """Paid on main in both profiles, while `$x = \\text{roughly } 6 = \\boxed{6}$` is refused: `_side_words` gets a
    side joined one character per token (`r o u g h l y`), so it sees a word only inside a `_SIDE_TEXT_RE` group;
    an operator that adds a value or a scale is arithmetic, and a middle side's value is never the last side's.""")


# 4. A label's math read as a name (docs/math.md "Answer grammar", "Before a box": `box_label`).
LABEL_MATH_NEAR = [
    n("Answer (in k): \\boxed{6}"), n("Answer (in M): \\boxed{6}"), n("Total (in K): \\boxed{6}"),
    n("Answer in B: \\boxed{6}"), n("Answer (in $10^3$): \\boxed{6}"), n("Answer in $1000$s: \\boxed{6}"),
    n("Answer $\\times 1000$: \\boxed{6}"), n("Answer $\\times 10^3$: \\boxed{6}"), n("Answer ($/1000$): \\boxed{6}"),
    n("Answer (in $k$): \\boxed{6}"), n("Answer, in $10^3$: \\boxed{6}"), n("Answer ($\\times 10^{3}$): \\boxed{6}"),
    n("Answer ($\\pm 1$): \\boxed{6}"), n("Answer $\\approx$: \\boxed{6}"), n("Answer $\\geq$: \\boxed{6}"),
    mc("Answer (in $10^3$): \\boxed{B}"),
]
LABEL_MATH_SAME = [n("Answer: \\boxed{6}"), n("$x$: \\boxed{6}"), n("Answer (part a): \\boxed{6}"),
                   n("Step 3: \\boxed{6}"), n("Total cost: \\boxed{6}")]
LABEL_MATH_REFUSED = [n("Answer (in 1000s): \\boxed{6}"), n("Answer in x 1000: \\boxed{6}"),
                      n("Answer (thousands of $): \\boxed{6}"), n("Cost (in k$): \\boxed{6}")]


test_a_label_holds_no_scale_or_relation_in_math = refused_test(
    LABEL_MATH_NEAR,
    """Paid on main in both profiles, while `Answer (in 1000s): \\boxed{6}` is refused: `box_label` turns a segment
    that `_side_states` admits (a computation without unknowns: `10^3`, `\\times 1000`, `\\approx`) into the name `x`,
    and a lone letter (`k`, `M`, `B`) is a `_label_word`, so `_label_phrase` sees neither a number nor a listed word.""")


# 5. A bound by a superlative after `at` (docs/math.md "Answer grammar", red team 5 class 8).
SUPERLATIVE_BOUND_NEAR = [
    n("The value at the smallest is \\boxed{6}."), n("The total at its largest is \\boxed{6}."),
    n("The total at the greatest is \\boxed{6}."), n("The total at its smallest is \\boxed{6}."),
    n("Final Answer: the total at the largest is 6."), n("Final Answer: the total at its smallest is 6."),
    n("So the total at the smallest is 6."),
]
SUPERLATIVE_BOUND_SAME = [n("The smallest total is \\boxed{6}."), n("The largest value of $n$ is \\boxed{6}."),
                          n("Final Answer: the largest value is 6.")]
SUPERLATIVE_BOUND_REFUSED = [n("The value at the least is \\boxed{6}."), n("The total at least is \\boxed{6}.")]


test_at_a_superlative_bounds_the_subject = refused_test(
    SUPERLATIVE_BOUND_NEAR,
    """Paid on main (both profiles; the unanchored one under lenient), while `The value at the least is \\boxed{6}`
    is refused: `_states_bound` lists `_BOUND_WORDS`, and `smallest`, `largest`, `greatest` are LEXICON adjectives
    that the prose subject's bag and `_noun_phrase`'s closed object admit after `at the` / `at its`.""")


# 6. A function of several unknowns (docs/math.md "Answer grammar", "The subject of a box": a scaled whole).
SEVERAL_UNKNOWNS_NEAR = [
    n("$(a+b)^2 = \\boxed{6}$"), n("$\\sqrt{ab} = \\boxed{6}$"), n("$\\sqrt{a+b} = \\boxed{6}$"),
    n("$(a+b)(1000) = \\boxed{6}$"), n("$(a+b)/(1000) = \\boxed{6}$"), n("$(a+b)\\cdot(1000) = \\boxed{6}$"),
    n("$(x+y)^{0.5} = \\boxed{6}$"), n("$(ab)^2 = \\boxed{6}$"), n("$e^{a+b} = \\boxed{6}$"), n("$\\log(ab) = \\boxed{6}$"),
    n("$xy(1000) = \\boxed{6}$"), n("$|a+b| = \\boxed{6}$"), n("$(a+b)^{(-1)} = \\boxed{6}$"),
    n("$(a+b)\\times(10^{3}) = \\boxed{6}$"),
]
SEVERAL_UNKNOWNS_SAME = [n("$a + b = \\boxed{6}$"), n("$ab = \\boxed{6}$"), n("$x - p = \\boxed{6}$")]
SEVERAL_UNKNOWNS_REFUSED = [n("$2ab = \\boxed{6}$"), n("$\\frac{ab}{1000} = \\boxed{6}$"), n("$ab/1000 = \\boxed{6}$"),
                            n("$(a+b)10^3 = \\boxed{6}$")]


test_a_function_of_several_unknowns_names_no_answer = refused_test(
    SEVERAL_UNKNOWNS_NEAR,
    """Paid on main in both profiles, while `$x^2 = \\boxed{6}$` and `$2ab = \\boxed{6}$` are refused: `_side_states`
    admits two unknowns unless `_scaled_whole` finds a listed scale shape, and a power, root, log, exponential or
    absolute value of the whole, or a number inside brackets (`(1000)`), is none of them.""")


# 7. A clause opening with the box's math (docs/math.md "Answer grammar", "Before a box": `box_clause`).
MATH_OPENED_NEAR = [
    n("$\\text{if } n \\text{ is odd} \\implies x = \\boxed{6}$"), n("$\\text{roughly} \\Rightarrow x = \\boxed{6}$"),
    n("$\\text{in thousands} \\implies x = \\boxed{6}$"), n("$\\text{maybe} \\quad x = \\boxed{6}$"),
    n("$\\text{I doubt it} \\therefore x = \\boxed{6}$"), n("$\\text{at least} \\implies x = \\boxed{6}$"),
    n("$\\text{approximately} \\to x = \\boxed{6}$"), n("$n$ odd $\\implies x = \\boxed{6}$"),
    n("$n \\text{ odd} \\implies x = \\boxed{6}$"), n("n odd \\implies x = \\boxed{6}"),
    n("$n$ is odd $\\Rightarrow x = \\boxed{6}$"), n("$x$ is roughly $\\implies x = \\boxed{6}$"),
]
MATH_OPENED_SAME = [n("$x^2 = 36, x > 0 \\implies x = \\boxed{6}$"),  # class 10's premise: pays with main's h29h
                    n("$2x = 12 \\implies x = \\boxed{6}$"), n("$\\therefore x = \\boxed{6}$"),
                    n("$2x = 12 \\Rightarrow x = \\boxed{6}$"), n("$x + 1 = 7 \\quad x = \\boxed{6}$")]
MATH_OPENED_REFUSED = [n("$\\text{maybe } x = \\boxed{6}$"), n("Maybe $\\implies x = \\boxed{6}$"),
                       n("\\[\\text{if } n \\text{ is odd} \\implies x = \\boxed{6}\\]")]


test_words_before_an_arrow_in_the_box_math_are_read = refused_test(
    MATH_OPENED_NEAR,
    """Paid on main in both profiles, while `$\\text{maybe } x = \\boxed{6}$` and the `\\[...\\]` form are refused:
    `_opens` takes the box's unclosed `$` (or a lone letter) as a math name and reads no further word, and
    `_first_side` stops at the arrow, so the words before it are read by neither.""")


# 8. The owner slot of a step's subject (docs/math.md "Answer grammar", "Red team 5's classes, closed at the class").
STEP_OWNER_NEAR = [
    n("The estimate's formula gives \\boxed{6}."), n("Guessing's rule gives \\boxed{6}."),
    n("The error's equation gives \\boxed{6}."), n("The guess's formula gives \\boxed{6}."),
    n("The approximation's formula gives \\boxed{6}."), n("The estimate's rule yields \\boxed{6}."),
    n("Guessing's equation yields \\boxed{6}."), n("Final Answer: The estimate's formula gives 6."),
    n("Final Answer: Guessing's rule gives 6."), n("Final Answer: The error's equation gives 6."),
    mc("The estimate's formula gives \\boxed{B}."),
]
STEP_OWNER_SAME = [n("Heron's formula gives \\boxed{6}."), n("Final Answer: Heron's formula gives 6."),
                   n("The quadratic formula gives \\boxed{6}.")]
STEP_OWNER_REFUSED = [n("My guess's formula gives \\boxed{6}."), n("Adding these errors gives \\boxed{6}."),
                      n("The error gives \\boxed{6}.")]


test_a_step_subject_owner_names_a_method = refused_test(
    STEP_OWNER_NEAR,
    """Paid on main in both profiles, while `The error gives \\boxed{6}` is refused: `_step_subject` takes a
    capitalised `'s` word as the owner and any `'s` word as a modifier, so a hedge or an error owns the method.""")


# 9. Quadratic backtracking in `closes` (docs/math.md "Answer grammar", "Bounds").
@pytest.mark.timeout(10)  # a hang guard, not a timing assertion: main takes about 35 s at 40,000 spaces (four times
# per doubling: 5.7 s at 16,000, 21.6 s at 32,000); a linear reading answers in milliseconds
@pytest.mark.parametrize("completion", ["\\boxed{6} <|im_start|>{spaces}x", "The answer is \\boxed{6}.\n<|im_start|>{spaces}x"])
def test_spaces_after_a_turn_marker_are_read_in_linear_time(completion: str) -> None:
    """`grammar._NEXT_TURN_RE`'s `\\s*(?:user|assistant|system)?\\s*$` gives a run of spaces every split between its
    two `\\s*` when no turn follows, and `closes` applies it to the whole rest of the completion before its bound."""
    text = completion.replace("{spaces}", " " * 40_000)
    assert grade_math({"completion": text, "gold": "6"})["verdict"] != "correct"


# 10. The opposite: right answers main refuses (recall).
STATED_BUT_REFUSED = [
    n("We see that it follows that $x$ is \\boxed{6}."), n("Vieta's formulas give \\boxed{6}."),
]


test_a_stated_right_answer_pays = paid_test(
    STATED_BUT_REFUSED,
    """Refused on main in both profiles: `_side_words` checks each letter of `\\text{ cm}` alone as a unit, a comma
    in the box's math cuts the premise off from the arrow's statement, and `_stated_tokens` strips one stating clause
    only (`_STATING_PREFIX_RE`'s `^` does not match at a later `pos`), and `box_lead` knows no verb `give`.""",
    marks=[pytest.mark.xfail(strict=True, reason="class 10 (recall) open: refused (no_answer), never paid")])


# Found while closing the classes at the design (fx29g): the same classes in other slots, paid before the fix.
FIX_FOUND_NEAR = [
    n("The answer $\\times 1000$ is \\boxed{6}."), n("The total $10^3$ is \\boxed{6}."),  # class 4 in a subject
    n("The value $\\pm 1$ is \\boxed{6}."), n("Final Answer: The answer in $k$ is 6."),
    n("Final Answer: The answer in k is 6."), n("$\\lfloor a+b \\rfloor = \\boxed{6}$"),  # class 6: a floor's bracket
    n("$x = 6e3 = \\boxed{6}$"),  # class 3: a middle side in scientific notation
]
FIX_FOUND_SAME = [n("$\\frac{a}{b} = \\boxed{6}$"), n("$a/b = \\boxed{6}$"), n("The value of $2^{10}$ is \\boxed{6}."),
                  n("Final Answer: The number of apples in box B is 6."), n("$x = 6e0 = \\boxed{6}$")]


test_the_classes_are_closed_in_every_slot = refused_test(
    FIX_FOUND_NEAR,
    """A computation is no name in a subject's own words (`grammar._math_subject`), a letter after `in` names a scale
    in prose as before a box, a floor bracket holds one term, and a middle side in `6e3` notation is a number.""")


# Guards for the fixes: rewrites main pays (must still pay) and near misses main refuses (must stay refused).
SAME = (ACTION_VERB_SAME + UNLISTED_RELATION_SAME + CHAIN_MIDDLE_SAME + LABEL_MATH_SAME + SUPERLATIVE_BOUND_SAME
        + SEVERAL_UNKNOWNS_SAME + MATH_OPENED_SAME + STEP_OWNER_SAME + FIX_FOUND_SAME)
REFUSED = (ACTION_VERB_REFUSED + UNLISTED_RELATION_REFUSED + CHAIN_MIDDLE_REFUSED + LABEL_MATH_REFUSED
           + SUPERLATIVE_BOUND_REFUSED + SEVERAL_UNKNOWNS_REFUSED + MATH_OPENED_REFUSED + STEP_OWNER_REFUSED)


test_a_right_answer_near_a_class_still_pays = paid_test(SAME)


test_a_near_miss_main_refuses_stays_refused = refused_test(REFUSED)
