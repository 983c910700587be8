"""Red team of issue 29's answer grammar, fifth pass: wrong answers the grader pays, one family per class, graded by
the real grader (`grade_math`, as tests/test_math_redteam_4.py) in both profiles (docs/math.md "Answer grammar"). It
attacks what the fourth pass's fixes added: `grammar.box_subject` (`_copula_subject`, `_side_states`, `_first_side`,
`_noun_phrase`), `grammar.STATING_CLAUSES` / `strip_stating`, `grammar.box_label` read whole, `grammar._ordered`, and
`grammar._lead_clause`'s step clause. Each `*_NEAR` list asserts the safe behaviour, so every case there fails on main
until its class is closed; each `*_SAME` list holds rewrites main pays and near misses main refuses, to guard the fix.
Left out as known open (docs/math.md, test_math_redteam_4.py): definitions not tracked, functions of x in words (`The
value of x doubled is`), relative clauses taking any words, a box's sentence starting at a math delimiter.

1. The subject of a verb that is no copula is never read (`_copula_subject` returns True when the link is `gives`,
   `yields`, `gets`): `The error gives \\boxed{6}`, `A rough estimate gives \\boxed{6}`, `Guessing gives \\boxed{6}` pay
   6, while `My first guess is \\boxed{6}` and `The estimate totals \\boxed{6}` are refused.
2. An order relation or an approximation restarts the box's chain, and its bound then reads as a computation without
   unknowns (`_first_side`, `_side_states`): `$x \\geq 2 \\cdot 3 = \\boxed{6}$` (at least 6), `$x \\neq 2 \\cdot 3 =
   \\boxed{6}$`, `$x \\approx 6 = \\boxed{6}$` pay 6.
3. A box's `=` chain is read by its first side only: words in the middle sides, or between two segments when the
   clause opens with math, are never read, so issue 29's own `z = 4 for w = 9` pays gold 9 in a box
   (`$z = 4 \\text{ for } w = \\boxed{9}$`, `z = 4 for w = \\boxed{9}`), and `$x = \\text{roughly } 6 = \\boxed{6}$` pays.
4. A colon's label is a bag of label words (`_label_word`: digits, single letters, counted nouns such as `times`,
   `in`, `of`, brackets): `Answer (in 1000s): \\boxed{6}`, `Answer times 1000: \\boxed{6}` pay 6.
5. `given that` is a stating opener (`STATING_CLAUSES`' `(with|from|given|using) (this|that|...)`), but `Given that`
   also opens a premise or a condition: `Given that $x = \\boxed{6}$.`, `Given that the total is odd we get
   \\boxed{6}.` pay 6.
6. The open slots are guarded by blocklists (`NEVER_NAMES`, `_NOT_OBJECTS`): a scale noun they do not list in an
   `of` object (`The number of lakhs is \\boxed{6}`, `millionths`), and a capitalised gerund as the agent name
   (`Final Answer: Guessing gives 6.`, `Rounding gives 6.`) pay 6.
7. The product guard of `_side_states` (`x(1000)` is a product as much as a function's value) lists the letters x, y,
   z: `$n(1000) = \\boxed{6}$`, `$k(1000) = \\boxed{6}$`, `$x_1(1000) = \\boxed{6}$` pay 6.
8. A bound inside a prose subject: `_ordered` reads only the subject's first word, the rest is a bag of admitted
   words (`at` a preposition, `least` an adjective, `minimum` a noun): `Final Answer: the total at least is 6.`, `The
   value at minimum is \\boxed{6}.` pay 6.
9. `grammar._STEP_CLAUSE_RE` backtracks exponentially: `\\s*(?:,|and)?\\s*` between math segments gives each run of
   spaces every split, so a clause of spaced segments before an anchor's comma (`We get $a$ $a$ ... x, the answer is
   6.`, 86 characters, 15 segments) took 49 s on main (13.7 s at 14 segments; each segment about 2.7 times more).
10. The opposite, right answers main refuses (recall): common statements of MATH and AIME solutions whose subject
    the allowlists do not hold (`The remainder when $N$ is divided by $1000$ is`, `The expected value is`, `The units
    digit of`, `The coefficient of $x^2$ is`, `$a_{2024} =`, `$x^* =`). Closed by allowlist entries, each with near
    misses (`STATED_NEAR`).
"""

from __future__ import annotations

import pytest

from tests.helpers import choice_case as mc, math_verdicts as verdicts, number_case as n, paid_test, refused_test



# 1. The subject of a verb that is no copula (docs/math.md "Answer grammar", "The subject of a box").
ACTION_SUBJECT_NEAR = [
    n("The error gives \\boxed{6}."), n("A rough estimate gives \\boxed{6}."), n("The upper bound gives \\boxed{6}."),
    n("The lower bound gives \\boxed{6}."), n("A common mistake gives \\boxed{6}."), n("My guess gives \\boxed{6}."),
    n("The wrong approach gives \\boxed{6}."), n("An incorrect calculation gives \\boxed{6}."),
    n("The naive method yields \\boxed{6}."), n("The approximation yields \\boxed{6}."), n("Guessing gives \\boxed{6}."),
    n("Estimating gives \\boxed{6}."), n("Rounding gives \\boxed{6}."), n("The error measures \\boxed{6}."),
    mc("A rough estimate gives \\boxed{B}."), mc("My guess gives \\boxed{B}."),
]
ACTION_SUBJECT_SAME = [
    n("The quadratic formula gives \\boxed{6}."), n("This gives \\boxed{6}."), n("The formula gives \\boxed{6}."),
    n("Sam has \\boxed{6} apples."), n("We get \\boxed{6}."), n("From this we get \\boxed{6}."),
]
ACTION_SUBJECT_REFUSED = [n("My first guess is \\boxed{6}."), n("The estimate totals \\boxed{6}."),
                          n("The estimate comes to \\boxed{6}."), n("Final Answer: My guess gives 6."),
                          n("Final Answer: A rough estimate gives 6."), n("Rounding down gives \\boxed{6}.")]


test_the_subject_of_any_verb_is_read = refused_test(
    ACTION_SUBJECT_NEAR,
    """Paid on main in both profiles: `_copula_subject` reads the subject only when the link is a copula (`is`,
    `equals`); before `gives`, `yields`, `measures` it returns True (a verb of action has an agent), and `box_clause`
    reads only the first word (a determiner, or a capitalised unknown word taken for a name: `Guessing`).""")


# 2. An order relation or approximation before the box's chain (docs/math.md "Answer grammar", "The subject of a box").
BOUND_CHAIN_NEAR = [
    n("$x \\geq 2 \\cdot 3 = \\boxed{6}$"), n("$x \\ge 2 + 4 = \\boxed{6}$"), n("$x \\le 2 \\cdot 3 = \\boxed{6}$"),
    n("$x \\neq 2 \\cdot 3 = \\boxed{6}$"), n("$x \\approx 2 \\cdot 3 = \\boxed{6}$"), n("$x < 12 / 2 = \\boxed{6}$"),
    n("$x > 2 \\times 3 = \\boxed{6}$"), n("$x \\approx 6 = \\boxed{6}$"),
]
BOUND_CHAIN_SAME = [n("$0 < x = \\boxed{6}$"), n("$x = 2 \\cdot 3 = \\boxed{6}$"), n("$2x = 12 \\implies x = \\boxed{6}$"),
                    n("Thus, $a + b + c = \\boxed{6}$.")]
BOUND_CHAIN_REFUSED = [n("\\boxed{x \\geq 2 \\cdot 3 = 6}"), n("\\boxed{x \\neq 2 \\cdot 3 = 6}"),
                       n("Therefore $x \\geq \\boxed{6}$"), n("The answer is $x \\neq 2 \\cdot 3 = 6$."),
                       n("Final Answer: $x \\geq 2 \\cdot 3 = 6$")]


test_a_bound_computed_into_a_box_states_no_value = refused_test(
    BOUND_CHAIN_NEAR,
    """Paid on main in both profiles, while the same chain inside the box is refused: `_first_side` restarts the chain
    after an order relation (so `0 < x = \\boxed{6}` states x), and after `\\geq`, `\\neq`, `\\approx` the side that
    remains is the bound's computation (`2 \\cdot 3`), which `_side_states` admits as a computation without unknowns.""")


# 3. Words in a box's `=` chain (docs/math.md "Answer grammar": `z = 4 for w = 9` is not read).
CHAIN_WORDS_NEAR = [
    n("$z = 4 \\text{ for } w = \\boxed{9}$", "9"), n("$z = 4 \\text{ when } w = \\boxed{9}$", "9"),
    n("z = 4 for w = \\boxed{9}", "9"), n("$z = 4$ for $w = \\boxed{9}$", "9"),
    n("$x = \\text{roughly } 6 = \\boxed{6}$"), n("$x = 6\\text{ or } 7 = \\boxed{6}$"),
    n("$x = 6\\text{ thousand} = \\boxed{6}$"),
]
CHAIN_WORDS_SAME = [n("$x = 2 \\cdot 3 = \\boxed{6}$"), n("$z = 4$ and $w = \\boxed{9}$", "9"),
                    n("$x = 6$, so $2 \\cdot 3 = \\boxed{6}$")]
CHAIN_WORDS_REFUSED = [n("$x = 6\\,\\mathrm{k} = \\boxed{6}$"), n("Final Answer: z = 4 for w = 9", "9"),
                       n("\\boxed{z = 4 \\text{ for } w = 9}", "9")]


test_words_in_a_box_chain_are_read = refused_test(
    CHAIN_WORDS_NEAR,
    """Paid on main in both profiles, while `Final Answer: z = 4 for w = 9` is refused (`_read_chain`: a word in a
    middle side): `box_subject` reads only the chain's first side (`z`), and `box_clause` reads no word of a clause
    that opens with math, so a condition, a hedge, a scale or a second value in the chain is never seen.""")


# 4. A colon's label as a bag of label words (docs/math.md "Answer grammar", "Before a box": `box_label`).
LABEL_BAG_NEAR = [
    n("Answer (in 1000s): \\boxed{6}"), n("Answer in 1000s: \\boxed{6}"), n("Answer times 1000: \\boxed{6}"),
    n("Answer (x 1000): \\boxed{6}"), n("Answer of x times 1000: \\boxed{6}"), n("Total (in 1000s): \\boxed{6}"),
    n("Answer, in 1000s: \\boxed{6}"), n("Answer (times 1000): \\boxed{6}"), n("Number of times 1000: \\boxed{6}"),
    mc("Answer (in 1000s): \\boxed{B}"),
]
LABEL_BAG_SAME = [n("Answer: \\boxed{6}"), n("Answer (part a): \\boxed{6}"), n("Total cost: \\boxed{6}"),
                  n("Answer for part (b): \\boxed{6}")]
LABEL_BAG_REFUSED = [n("Answer in units of 1000: \\boxed{6}"), n("Final Answer (in 1000s): 6"),
                     n("The total (in 1000s) is \\boxed{6}"), n("Total (in 1000s) = \\boxed{6}")]


test_a_label_is_a_phrase_not_a_bag = refused_test(
    LABEL_BAG_NEAR,
    """Paid on main in both profiles, while `The total (in 1000s) is \\boxed{6}` is refused: `box_label` admits a
    label whose every token is a `_label_word` (digits, single letters, `in`, `of`, `for`, brackets, counted nouns
    such as `times`), in any order, so a scale (`in 1000s`, `times 1000`) is a label.""")


# 5. `given that` as a stating opener (docs/math.md "Answer grammar", "Stating clauses").
GIVEN_THAT_NEAR = [
    n("Given that $x = \\boxed{6}$."), n("Given that the total is odd we get \\boxed{6}."),
    n("Given that n is odd we get \\boxed{6}."), n("Given that $n$ is odd we get \\boxed{6}."),
    mc("Given that $x = \\boxed{B}$."),
]
GIVEN_THAT_SAME = [n("Given that, the answer is \\boxed{6}."), n("From this we get \\boxed{6}."),
                   n("With this, we get \\boxed{6}.")]
GIVEN_THAT_REFUSED = [n("Using that n is odd it is \\boxed{6}."), n("Given that n is odd, we get \\boxed{6}."),
                      n("If n is odd we get \\boxed{6}.")]


test_given_that_opens_a_premise = refused_test(
    GIVEN_THAT_NEAR,
    """Paid on main in both profiles, while `If n is odd we get \\boxed{6}` is refused: `STATING_CLAUSES` lists
    `given that` (meant as `Given that, we get`), so `strip_stating` drops it before a premise or a condition and the
    clause after it reads as a sentence start.""")


# 6. Open slots guarded by blocklists (docs/math.md "Answer grammar", "Names"; "The subject of a box", objects).
OPEN_SLOT_NEAR = [
    n("The number of lakhs is \\boxed{6}."), n("The number of crores of rupees is \\boxed{6}."),
    n("The number of millionths is \\boxed{6}."),
    n("Final Answer: Guessing gives 6."), n("Final Answer: Rounding gives 6."), n("Final Answer: Halving gives 6."),
    n("Final Answer: Approximating gives 6."), n("Final Answer: Estimating gives 6."),
]
OPEN_SLOT_SAME = [n("The number of crates of apples is \\boxed{6}."), n("Final Answer: Sam has 6 apples."),
                  n("The number of positive divisors of $12$ is $\\boxed{6}$.")]
OPEN_SLOT_REFUSED = [n("The number of thousands is \\boxed{6}."), n("Final Answer: Possibly it is 6."),
                     n("The answer in thousands is \\boxed{6}.")]


test_an_open_slot_holds_no_scale_or_method = refused_test(
    OPEN_SLOT_NEAR,
    """Paid on main in both profiles, while `The number of thousands is \\boxed{6}` and `Possibly it is 6` are refused:
    the object after `of` takes any word but `_NOT_OBJECTS` and `NEVER_NAMES` (`lakhs`, `crores`, `millionths` are not
    there), and the name slot any capitalised unknown word but `NEVER_NAMES` (`Guessing`, `Rounding`, `Halving`).""")


# 7. The product guard's letters (docs/math.md "Answer grammar", "The subject of a box": `x(1000)`).
PRODUCT_GUARD_NEAR = [
    n("$n(1000) = \\boxed{6}$"), n("$k(1000) = \\boxed{6}$"), n("$w(1000) = \\boxed{6}$"),
    n("$x_1(1000) = \\boxed{6}$"), n("$n(1/1000) = \\boxed{6}$"), n("The value of $n(1000)$ is $\\boxed{6}$."),
]
PRODUCT_GUARD_SAME = [n("$f(1000) = \\boxed{6}$"), n("$p(2) = \\boxed{6}$"), n("$f'(2) = \\boxed{6}$")]
PRODUCT_GUARD_REFUSED = [n("$x(1000) = \\boxed{6}$"), n("$y(1000) = \\boxed{6}$"), n("$x\\left(1000\\right) = \\boxed{6}$"),
                         n("$1000x = \\boxed{6}$")]


test_a_letter_times_a_number_is_no_name = refused_test(
    PRODUCT_GUARD_NEAR,
    """Paid on main in both profiles, while `$x(1000) = \\boxed{6}$` is refused: `_side_states` refuses a letter
    followed by a bracketed number only for `x(`, `y(`, `z(` (a blocklist of three letters); every other letter, a
    subscripted one too, passes `_MATH_NAME_RE` as a function's value.""")


# 8. A bound inside a prose subject (docs/math.md "Answer grammar", the subject part; red team 4 class 4).
SUBJECT_BOUND_NEAR = [
    n("Final Answer: the total at least is 6."), n("Final Answer: The total, at least, is 6."),
    n("Final Answer: the total at least is $6$."), n("So the total at least is 6."),
    n("The value at minimum is \\boxed{6}."), n("The value at a minimum is \\boxed{6}."),
]
SUBJECT_BOUND_SAME = [n("Final Answer: the number of apples in the box is 6."), n("The answer in total is \\boxed{6}."),
                      n("Final Answer: The total is 6.")]
SUBJECT_BOUND_REFUSED = [n("The total at least is \\boxed{6}."), n("Final Answer: the total at most is 6."),
                         n("The total, at least, is \\boxed{6}."), n("Final Answer: at least it is 6.")]


test_a_bound_inside_a_subject_is_read = refused_test(
    SUBJECT_BOUND_NEAR,
    """Paid on main (the lenient profile at least), while `The total at least is \\boxed{6}` is refused: the prose
    `_subject` checks the order of the first word only (`_ordered`) and admits any later sequence of prepositions,
    adjectives and nouns, and the box's `_noun_phrase` admits `at minimum` (a noun after a closed preposition).""")


# 9. Exponential backtracking in the step clause (docs/math.md "Answer grammar", "Bounds").
@pytest.mark.timeout(20)  # a hang guard, not a timing assertion: main took 49 s at 15 segments and doubles on
# (about 2.7 times per segment); the bound grammar answers in milliseconds
@pytest.mark.parametrize("spaces", [" ", "  "])
def test_spaced_math_segments_before_a_comma_are_read_in_linear_time(spaces: str) -> None:
    """`grammar._STEP_CLAUSE_RE`'s `§(?:\\s*(?:,|and)?\\s*§)*` gives each run of spaces between two segments every
    split between its two `\\s*`; a clause of such segments that fails at its end (`... x,`) backtracks through all
    of them, from `lead_clauses` before an anchor (and `box_label`'s clauses), in both profiles."""
    segments = spaces.join("$a$" for _ in range(16))
    for completion in (f"We get {segments} x, the answer is 6.", f"Since {segments} x, so the answer is 6."):
        assert verdicts(completion, "6")[0] != "correct"


# 10. The opposite: right answers main refuses (docs/math.md "Answer grammar", "The subject of a box": recall).
STATED_BUT_REFUSED = [
    n("So the remainder when $N$ is divided by $1000$ is $\\boxed{6}$."),
    n("The remainder when $N$ is divided by 7 is $\\boxed{6}$."),
    n("The coefficient of $x^2$ is $\\boxed{6}$."), n("The perimeter of rectangle $ABCD$ is $\\boxed{6}$."),
    n("$a_{2024} = \\boxed{6}$"), n("Thus $F_{2024} = \\boxed{6}$."), n("$x^* = \\boxed{6}$"),
    n("$x_{\\max} = \\boxed{6}$"), n("$\\sum_{k=1}^{3} k = \\boxed{6}$"), n("$N \\bmod 1000 = \\boxed{6}$"),
]


STATED_NOW_READ = [
    n("The expected value is $\\boxed{6}$."), n("The expected number of heads is $\\boxed{6}$."),
    n("The units digit of $3^{2024}$ is $\\boxed{6}$."), n("The constant term is $\\boxed{6}$."),
    n("The fourth term of the sequence is $\\boxed{6}$."), n("The determinant of the matrix is $\\boxed{6}$."),
]


test_a_stated_right_answer_in_the_lexicon_pays = paid_test(
    STATED_NOW_READ,
    """Class 10 in part: `coefficient`, `determinant`, `term`, `digit` are quantity nouns and `expected`, `constant`,
    `units`, `fourth`, `fifth` adjectives of LEXICON (each picks a quantity out; none scales, negates or hedges).""")


test_a_stated_right_answer_pays = paid_test(
    STATED_BUT_REFUSED,
    """Refused on main (`no_answer`) in both profiles, though each states the gold in a form common in MATH and AIME
    solutions; now read by allowlist entries, each with its reason in `grammar`: the division that defines a remainder
    (`_DIVISION_HEADS`), any math in the object of a head taken from an operand (`_OPERAND_HEADS`: `the coefficient of
    $x^2$`), a segment holding one word in an open object (`$ABCD$`), a long braced index and `\\max`/`\\min` as name
    marks (`NAME_MARKS`), `^*` on a real unknown (`OPTIMUM_LETTERS`), a sum's bound index (`_BOUND_VARIABLE_RE`) and a
    name reduced modulo a number (`_RESIDUE_RE`).""")


# Each entry above perturbed: scaled, negated, hedged, or naming another quantity. Refused before the entries, and after.
STATED_NEAR = [
    n("So the remainder when $2N$ is divided by $1000$ is $\\boxed{6}$."),
    n("So the remainder when $N$ is divided by $1000$ is probably $\\boxed{6}$."),
    n("Maybe the remainder when $N$ is divided by 7 is $\\boxed{6}$."),
    n("The remainder when $N$ is divided by 7 is not $\\boxed{6}$."),
    n("The remainder when $N$ is divided by 7, in thousands, is $\\boxed{6}$."),
    n("The remainder when $N$ is divided by 7 times 2 is $\\boxed{6}$."), n("The remainder when $N$ is odd is $\\boxed{6}$."),
    n("The remainder when rounded is $\\boxed{6}$."), n("The quotient when $N$ is divided by 7 is $\\boxed{6}$."),
    n("The value of $x^2$ is $\\boxed{6}$."), n("Twice the coefficient of $x^2$ is $\\boxed{6}$."),
    n("The coefficient of $x^2$ in thousands is $\\boxed{6}$."), n("The coefficient of $x^2 \\text{ thousand}$ is $\\boxed{6}$."),
    n("The coefficient of $x^2$ is about $\\boxed{6}$."), n("The reciprocal of the coefficient of $x^2$ is $\\boxed{6}$."),
    n("The coefficient of $x^2$ divided by 2 is $\\boxed{6}$."), n("The value of $2x$ is $\\boxed{6}$."),
    n("The perimeter of rectangle $ABCD$ in thousands is $\\boxed{6}$."), n("Half the perimeter of rectangle $ABCD$ is $\\boxed{6}$."),
    n("The perimeter of $THOUSAND$ is $\\boxed{6}$."), n("The perimeter of rectangle $ABCD$ times 1000 is $\\boxed{6}$."),
    n("$2a_{2024} = \\boxed{6}$"), n("$a_{2024}^2 = \\boxed{6}$"), n("$a_2024 = \\boxed{6}$"),
    n("$\\frac{a_{2024}}{1000} = \\boxed{6}$"), n("$a_{2024} \\approx \\boxed{6}$"),
    n("$z^* = \\boxed{6}$"), n("$w^{*} = \\boxed{6}$"), n("$A^* = \\boxed{6}$"), n("$2x^* = \\boxed{6}$"),
    n("$(x^*)^2 = \\boxed{6}$"), n("$x^*$ is at least $\\boxed{6}$."),
    n("$x_{\\max}^2 = \\boxed{6}$"), n("$2x_{\\max} = \\boxed{6}$"), n("$\\frac{x_{\\max}}{1000} = \\boxed{6}$"),
    n("$x_{\\max} \\geq 2 \\cdot 3 = \\boxed{6}$"),
    n("$\\sum_{k=1}^{n} k = \\boxed{6}$"), n("$\\sum_{k=1}^{3} x_k = \\boxed{6}$"), n("$\\sum_{k=1}^{3} k x = \\boxed{6}$"),
    n("$2N \\bmod 1000 = \\boxed{6}$"), n("$N^2 \\bmod 1000 = \\boxed{6}$"), n("$2 \\cdot N \\bmod 1000 = \\boxed{6}$"),
    n("$N \\bmod 1000 + 1 = \\boxed{6}$"), n("$\\frac{N}{1000} \\bmod 10 = \\boxed{6}$"),
]


test_a_perturbed_stated_answer_stays_refused = refused_test(
    STATED_NEAR,
    """The class 10 entries admit one shape each: a scale, a negation, a hedge or another quantity around it is not
    that shape (`2N`, `z^*`, a conjugate, `x_{\\max}^2`, `\\sum_{k=1}^{n}`, `2 \\cdot N \\bmod 1000`, `the quotient when`).""")


# Guards for the fixes: rewrites main pays (must still pay) and near misses main refuses (must stay refused).
SAME = (ACTION_SUBJECT_SAME + BOUND_CHAIN_SAME + CHAIN_WORDS_SAME + LABEL_BAG_SAME + GIVEN_THAT_SAME + OPEN_SLOT_SAME
        + PRODUCT_GUARD_SAME + SUBJECT_BOUND_SAME)
REFUSED = (ACTION_SUBJECT_REFUSED + BOUND_CHAIN_REFUSED + CHAIN_WORDS_REFUSED + LABEL_BAG_REFUSED + GIVEN_THAT_REFUSED
           + OPEN_SLOT_REFUSED + PRODUCT_GUARD_REFUSED + SUBJECT_BOUND_REFUSED)


test_a_right_answer_near_a_class_still_pays = paid_test(SAME)


test_a_near_miss_main_refuses_stays_refused = refused_test(REFUSED)
