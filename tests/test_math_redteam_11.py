"""Red team of issue 29's answer grammar, eleventh pass (rt29m): wrong answers the grader pays, and answers that hold a
grading worker for seconds, after fx29n (`grammar.restating_word` reads only `RESTATING_WORDS`; `grammar.
_clause_values_named`; `grammar.OPERATION_WORDS`; `guards.power_guard`, bracketed matrix powers, rational integrands,
special-function sums). Graded by the real grader (`grade_math` through `tests.helpers.math_verdicts`) in both
profiles (docs/math.md "Answer grammar"), and class 1 through a real server on loopback (HTTP and gRPC). Each `*_NEAR`
case asserts the safe behaviour and is a strict xfail until its class is closed; plain tests hold what held. Gold 6
unless a case says otherwise.

1. A relative clause states a value through an apposition head after its copula (`grammar._clause_values_named`
   admits any value right after a word of `_APPOSITION_HEADS`, and `_clause_states_value` sees a number only right
   after a copula, so `is the integer 7` passes both): `The number of apples that is the integer 7 is \\boxed{6}.`,
   `... which is the integer $7$ ...`, `... that is the prime 7 ...`, `... that equals the integer 7 ...`, `... that is
   the expression 7 ...`, `... that is the fraction 7 ...`, `... that is the polynomial 7 ...`, `... which is the point
   7 ...`, `... that is the integer 5 and 7 ...` (the `and` chain), `The number of apples (which is the integer 7) is
   \\boxed{6}.` (the clause's own brackets), `The area of the square that is the square 7 is \\boxed{6}.`, `So, the
   number of apples that is the integer 7 is 6.` pay 6 (12 cases; through the real server too). `_APPOSITION_HEADS`'s
   docstring says `the number 7` states a value; `the integer 7` after `is` states it the same way. Held: `that is
   twelve`, `that is a dozen`, `that is a couple`, `that is double`, `that is 7 apples`, `that are all 7 apples`,
   `(the integer 7)` with no clause. FIXED at the class (fx29p): a label after an apposition head is a name, math
   holding a letter (`grammar._names_object`), never a number, whatever verb or words come before it (`which
   becomes the integer 7`, `that is the sum of the integers 3 and 4` were paid too); a copula states a value through
   any words up to a verb, preposition or opener (`that is the 7 apples`); a number labels only an `_OPERAND_OBJECTS`
   word after an operand head's math (`the degree of $p(x)$ (which is the constant polynomial 1)`). Not reported (accepted, a counted noun: "which has 6000 apples"): `The price of
   the apple which costs 7 dollars is \\boxed{6}.`, `The weight of the box which weighs 7 pounds ...`, `The length of
   the rope that measures 7 meters ...`, `The number of apples that totals 7 apples ...`, `... that made 7 apples ...`.
2. A `such that` condition restates the subject's own unknown as another value (`grammar._noun_phrase` calls
   `_relative_clause(..., defining=True)`, which skips `_clause_values_named`, and the copula rule reads words only):
   `The value of $x$ such that $x = 7$ is \\boxed{6}.`, `... such that $x=7$ ...`, `... such that $7 = x$ ...`, `The
   number $n$ such that $n = 7$ is \\boxed{6}.`, `The value of the integer $x$ such that $x = 7$ is \\boxed{6}.`, `So,
   the value of $x$ such that $x = 7$ is 6.` pay 6 (6 cases). Held: `such that $x$ equals 7`, `such that $x$ is $7$`,
   `such that the answer is 7`, `such that there are 7 apples`. Left alone (a condition that picks the unknown out):
   `such that $f(x) = 7$`, `such that $x < 7$`, `such that $x - 7 = 0$`, `such that $x \\approx 7$`. FIXED at the
   class (fx29p): no math in a subject's clause or condition sets one of the subject's own names alone on a side of
   `=` (or `:=`) to a value, a side without letters (`grammar._sets_own`).
3. Operation words past `grammar.OPERATION_WORDS` (`_operation_at` reads a word before `of` only): (a) the possessive
   puts the operation after its operand, where no `of` follows: `The value of $x$'s cube is \\boxed{6}.`, `... $x$'s
   square ...`, `... $x$'s floor ...`, `... $x$'s root ...`, `... $x$'s integer part ...`, `... $x$'s third ...`,
   `... $x$'s remainder ...`, `So, the value of $x$'s cube is 6.`, `Final Answer: The value of $x$'s floor is 6.` pay 6
   (cube, square, floor, root, part are `OPERATION_WORDS` themselves); (b) operation nouns and ordinals the list does
   not hold, the kin of its `half`, `floor`, `part`: `The value of the third of $x$ ...`, `... a third of $x$ ...`,
   `... the fifth of $x$ ...`, `... the fourth of $x$ ...`, `... the remainder of $x$ ...`, `... the quotient of $x$
   ...`, `... the last digit of $x$ ...`, `... the fraction of $x$ ...`, `So, the value of the third of $x$ is 6.` pay 6
   (18 cases). The list is a blocklist inside the object allowlist: any operation noun it misses is an object. Held:
   `$x$'s square root`, `$x$'s half`, `$x$'s double`, `$x$'s inverse`, `$x$'s power`, `$x$'s derivative`, `$x$'s log`,
   `$x$'s factorial`, `$x$'s negative`, `$x$'s ceiling`, `the tenth of`, `the quarter of`, `one third of`, `two thirds
   of`, `the opposite of`, `the reciprocal of`, `the percentage of`, `the Cube of`, `the CUBE of`, `the cube (of $x$)`,
   `the square-root of`, `Sam's cube`. Not reported (a quantity a question asks for): `the sum/product/difference/
   average/mean/median/coefficient/determinant/slope/maximum of $x$`, `the root $x$`. FIXED at the class (fx29p):
   `OPERATION_WORDS` is gone; a word of an object that takes `of` or an owner's `'s` is admitted only from
   `grammar.TAKEN_QUANTITIES` (an allowlist of quantities a question asks for and figure parts), or as a plural
   counted noun under a count or total (`the number of divisors of $n$`), in a box's subject and a prose subject.
4. Grading time past `guards.power_guard` (one `grade_math` per answer, strict, warm process, each in its own process
   killed at the limit, on a 2-core machine under load from two other jobs (load average 5): times are high, but each
   is far above 1 s). (a) A base in other brackets (`_INTEGER_POWER_RE` and `_bracketed_base` read `)` only):
   `[a+b+c+d+f]^{20}` more than 30 s, `\\{a+b+c+d+f\\}^{20}` 24.8 s, `|a+b+c+d+f|^{20}` 18.5 s, `{a+b+c+d+f}^{20}`
   13.3 s (a group's braces), `\\left|a+b+c+d+f\\right|^{10}` 2.4 s, `\\left[a+b+c+d+f\\right]^{10}` 1.2 s; (b) an
   exponent that is no plain literal (`_INTEGER_POWER_RE` reads `{digits}` or one digit): `(a+b+c+d+f)^{4\\cdot 5}`
   more than 25 s, `^{+20}` more than 25 s, `^{-20}` more than 25 s, `^{2^{4}}` 20.2 s, `^{5+5}` 1.2 s, `^{2\\cdot 5}`
   1.2 s; (c) the power split into allowed ones (each exponent at most `MAX_EXPANDED_POWER`): `((a+b+c+d+f)^{4})^{4}`
   14.9 s, `(a+b+c+d+f)^{4}` four times multiplied 23.0 s (three times 4.2 s); (d) the point sampler skipped by the
   rest of the answer, not the base (`power_guard` counts the base's symbols, but `compare.differs_at_a_point` gives up
   on more than 4 symbols in the whole answer, an applied function anywhere, or a `NON_VALUES` operator around it):
   `(a+b+c+d)^{40}+f` 29.0 s, `(a+b+c+d)^{10}(f+g+h+i)^{10}` more than 20 s, `(x+y+z+w)^{20}+f(1)` 8.4 s,
   `(x+y+z+w)^{20}\\cdot v` 3.6 s, `(x+y)^{20}(z+w)^{20}v` 3.1 s, `\\sum_{k=1}^{2} (x+y+z+w)^{20}` more than 40 s (and
   SIGALRM did not interrupt it: one C call), `\\sum_{k=1}^{1} (x+y+z+w)^{10}` more than 25 s, `\\sum_{k=1}^{2}
   (x+y+z)^{20}` 19.4 s, `\\lim_{n \\to 1} (x+y+z+w)^{20}` 17.2 s, `\\frac{d}{dx} (x+y+z+w)^{20}` 15.2 s; the same
   power alone, `(x+y+z+w)^{20}`, 0.36 s. Each is 15-60 characters. FIXED at the class: `guards.expansion_guard`
   bounds the expansion on the parsed tree (any bracket, exponent, nesting or context; 200 terms), replacing
   `power_guard`; the tests assert the decision (the answer is refused), never a time. Held (under 1 s):
   `(a+b+c+d+f)^{10.0}`, `\\sqrt{(a+b+c+d+f)^{20}}`, `((a+b)^{4})^{4}+c+d+f`, `u=(x+y+z+w)^{20}`, `(x+y+z+w)^{20} > 1`,
   `\\int_0^1 (x+y+z+w)^{20} dx`, a fourfold integral of it, `\\prod_{k=1}^{100} (x+k)`, `\\prod_{k=1}^{100} (x+y+k)`,
   `\\int_0^{\\pi} \\sin(x)^{60} dx`, `\\int_0^1 \\sin(x)^{30}\\cos(x)^{30} dx`, `\\int_0^1 (x+1)^{100} e^{x} dx`, a product
   of eight sines integrated, `\\int_0^1 x^{20} e^{3x} \\sin(5x)\\cos(7x) dx`; `\\sum_{k=1}^{100} (x+k)^{20}` 1.1 s; a 6x6 letter matrix between `\\left|`/`\\right|` or `|`
   (0.3 s), times `(x+y)^{5}` (0.4 s); its norm `\\left\\|M\\right\\|` 1.3 s (borderline, under load).

Held (rule 1 of fx29n, the Yes/No reason's noun phrase): `\\text{Yes, there is one in a thousand.}`, `... a solution
with some doubt.`, `... $?$.`, `... such a set of them that do not exist.`, `... one, or none.`, `Yes: no.`, `\\text{Yes,
} \\text{no}`, `\\text{Yes} \\text{No}`, `Yes, there is $n$ or $m$` are refused. Paid and left alone (the opening word
decides; nothing a policy gains, each pays under one gold only): `Yes, there is one in three.`, `Yes, there is less
than one.`, `Yes, there are $\\leq 1$ solutions`, `Yes, there is a solution for some n.`, `Yes, there are n o
solutions.`

Recall gaps (refused, never paid; not holes): `The value of $x$ for which $f(x) = 7$ is \\boxed{6}.` (`such that` pays),
`The number of primes that are less than 15 is \\boxed{6}.`, `The number of integers that are divisible by 7 is
\\boxed{6}.`, `The number of integers $n$ with $1 \\le n \\le 7$ is \\boxed{6}.`
"""

from __future__ import annotations

import pytest

from tests.helpers import math_task, number_case as n, paid_test, refused_test, server_refused_test

OPEN = "open: {} (rt29m)"


# 1. An apposition head after a clause's copula (docs/math.md "Answer grammar", "Before a box").
A = "The number of apples"
APPOSITION_NEAR = [
    n(f"{A} that is the integer 7 is \\boxed{{6}}."), n(f"{A} which is the integer $7$ is \\boxed{{6}}."),
    n(f"{A} that is the prime 7 is \\boxed{{6}}."), n(f"{A} that equals the integer 7 is \\boxed{{6}}."),
    n(f"{A} that is the expression 7 is \\boxed{{6}}."), n(f"{A} that is the fraction 7 is \\boxed{{6}}."),
    n(f"{A} that is the polynomial 7 is \\boxed{{6}}."), n(f"{A} which is the point 7 is \\boxed{{6}}."),
    n(f"{A} that is the integer 5 and 7 is \\boxed{{6}}."), n(f"{A} (which is the integer 7) is \\boxed{{6}}."),
    n("The area of the square that is the square 7 is \\boxed{6}."), n("So, the number of apples that is the integer 7 is 6."),
]
APPOSITION_REFUSED = [
    n(f"{A} that is twelve is \\boxed{{6}}."), n(f"{A} that is a dozen is \\boxed{{6}}."),
    n(f"{A} that is a couple is \\boxed{{6}}."), n(f"{A} that is double is \\boxed{{6}}."),
    n(f"{A} that is 7 apples is \\boxed{{6}}."), n(f"{A} that are all 7 apples is \\boxed{{6}}."),
    n(f"{A} (the integer 7) is \\boxed{{6}}."), n(f"{A} that is the integer 7 is \\boxed{{6}}.", "7"),
]


test_a_clause_naming_a_value_by_apposition_never_pays = refused_test(
    APPOSITION_NEAR,
    """Paid in both profiles: `_clause_values_named` admits a number right after an `_APPOSITION_HEADS` word wherever it
    stands, and `_clause_states_value` sees only a number right after the copula, so `that is the integer 7` states 7
    beside the box's 6 as `that is the number 7` would.""")


# fx29p's near misses beyond the report: other verbs and words before a numeric label, an operand head's label.
APPOSITION_MORE_NEAR = [
    n(f"{A} which becomes the integer 7 is \\boxed{{6}}."), n(f"{A} that makes the integer 7 is \\boxed{{6}}."),
    n(f"{A} that is the sum of the integers 3 and 4 is \\boxed{{6}}."),
    n(f"{A} that is the integer $n = 7$ is \\boxed{{6}}."), n(f"{A} that is the integer seven is \\boxed{{6}}."),
    n(f"{A} that is the 7 apples is \\boxed{{6}}."), n(f"{A} which is equal to the integer 7 is \\boxed{{6}}."),
    n("The coefficient of $x^2$ (which is the integer 7) is \\boxed{6}."),
    n("So, the number of apples which becomes the integer 7 is 6."),
    n(f"{A} which becomes the integer $7+0x$ is \\boxed{{6}}."), n(f"{A} which becomes the integer $7_a$ is \\boxed{{6}}."),
    n("The coefficient of $x^2$ (which is the polynomial 7) is \\boxed{6}."),
    n("The degree of $p(x)$ (which is the integer 7) is \\boxed{6}."),
]
APPOSITION_REWRITES = [
    n("The number of points that lie on the line $y = 2x + 7$ is \\boxed{6}."),
    n("The number of points that lie on the circle $x^2+y^2=7$ is \\boxed{6}."),
    n("The number of points that lie on the line $y = 7$ is \\boxed{6}."),
    n("The number of points that lie on the circle \\( x^2 + y^2 = 7 \\) is \\boxed{6}."),
    n("The number of boxes that hold 7 apples is \\boxed{6}."),
    # refused since fx29u (red team 14 classes 4, 5, 7): tests/test_math_subject_values.py GIVEN_UP
]


test_a_clause_labelling_by_a_number_never_pays = refused_test(
    APPOSITION_MORE_NEAR,
    """The class's other members (fx29p): a numeric label after any verb, a count after a copula's article, an integer
    label after an operand head; each paid 6 before `grammar._names_object` and the copula's span.""")


test_a_clause_naming_or_counting_objects_still_pays = paid_test(
    APPOSITION_REWRITES,
    """The rule's other side: a label with a letter, a count, a copula whose complement ends at a preposition.""")


# 2. A `such that` condition that sets the subject's unknown (docs/math.md "Answer grammar", "Before a box").
SUCH_THAT_NEAR = [
    n("The value of $x$ such that $x = 7$ is \\boxed{6}."), n("The value of $x$ such that $x=7$ is \\boxed{6}."),
    n("The value of $x$ such that $7 = x$ is \\boxed{6}."), n("The number $n$ such that $n = 7$ is \\boxed{6}."),
    n("The value of the integer $x$ such that $x = 7$ is \\boxed{6}."), n("So, the value of $x$ such that $x = 7$ is 6."),
]
SUCH_THAT_REFUSED = [
    n("The value of $x$ such that $x$ equals 7 is \\boxed{6}."), n("The value of $x$ such that $x$ is $7$ is \\boxed{6}."),
    n("The value of $x$ such that the answer is 7 is \\boxed{6}."), n(f"{A} such that there are 7 apples is \\boxed{{6}}."),
]


test_a_condition_setting_the_unknown_never_pays = refused_test(
    SUCH_THAT_NEAR,
    """Paid in both profiles: a `such that` clause is `defining`, its math free, so `$x = 7$` about the subject's own
    `$x$` states a second value; the copula rule reads words, never the relation inside a math segment.""")


SUCH_THAT_MORE_NEAR = [
    n("The value of $x$ such that $x = \\frac{14}{2}$ is \\boxed{6}."), n("The value of $x_1$ such that $x_1 = 7$ is \\boxed{6}."),
    n("The value of $x$ such that $x := 7$ is \\boxed{6}."), n("The value of $x$ such that $f(x) = 7 = x$ is \\boxed{6}."),
    n("The value of $y$ such that $y = 7.0$ is \\boxed{6}."), n("The value of $x$ such that $x = \\sqrt{49}$ is \\boxed{6}."),
    n("So, the number $n$ such that $7 = n$ is 6."), n("The value of $x$ such that $x \\in \\{7\\}$ is \\boxed{6}."),
    n("The value of \\(x\\) such that \\(x = 7\\) is \\boxed{6}."), n("Final Answer: The value of $x$ such that $x = 7$ is 6."),
]
SUCH_THAT_REWRITES = [
    n("The value of $x$ such that $x < 7$ is \\boxed{6}."),
    n("The value of $f(x)$ such that $x = 7$ is \\boxed{6}."), n("The integer $n$ such that $n = 2k + 1$ is \\boxed{6}."),  # fx29w: `smallest` over all odd n has no optimum (refused)
    # fx29v: the condition holds at the box's value (conditions._holds), so it states the box's value, never a second
    n("The value of $x$ such that $x^2 = 36$ is \\boxed{6}."),
]
# Refused by the rule (fx29r, conditions.condition_fixes; since fx29v: it must hold at the box's value).
SUCH_THAT_FIXES_AGREEING = [
    n("The value of $x$ such that $x - 7 = 0$ is \\boxed{6}."),  # an equation in the unknown: x = 7, a second value
]


test_a_condition_setting_the_unknown_in_any_spelling_never_pays = refused_test(
    SUCH_THAT_MORE_NEAR,
    """fx29p: the value written otherwise (a fraction, a root, `7.0`), a subscripted name, `:=`, a chain.""")


test_a_condition_that_fixes_the_unknown_is_refused_even_when_it_agrees = refused_test(
    SUCH_THAT_FIXES_AGREEING, """fx29v's rule (conditions.py module docstring): an equation in the unknown the box's
    value does not satisfy is a second value (fx29r refused `x^2 = 36` too; it holds at 6 and pays now).""")


test_a_condition_that_picks_the_unknown_out_still_pays = paid_test(
    SUCH_THAT_REWRITES,
    """The rule's other side (module docstring, "Left alone"): the name inside an expression, another relation, a
    condition on another name, a side with another name.""")


# 3. Operation words the object vocabulary still admits (docs/math.md "Answer grammar", the subject's objects).
POSSESSIVE_NEAR = [
    n("The value of $x$'s cube is \\boxed{6}."), n("The value of $x$'s square is \\boxed{6}."),
    n("The value of $x$'s floor is \\boxed{6}."), n("The value of $x$'s root is \\boxed{6}."),
    n("The value of $x$'s integer part is \\boxed{6}."), n("The value of $x$'s third is \\boxed{6}."),
    n("The value of $x$'s remainder is \\boxed{6}."), n("So, the value of $x$'s cube is 6."),
    n("Final Answer: The value of $x$'s floor is 6."),
]
OPERATION_NOUN_NEAR = [
    n("The value of the third of $x$ is \\boxed{6}."), n("The value of a third of $x$ is \\boxed{6}."),
    n("The value of the fifth of $x$ is \\boxed{6}."), n("The value of the fourth of $x$ is \\boxed{6}."),
    n("The value of the remainder of $x$ is \\boxed{6}."), n("The value of the quotient of $x$ is \\boxed{6}."),
    n("The value of the last digit of $x$ is \\boxed{6}."), n("The value of the fraction of $x$ is \\boxed{6}."),
    n("So, the value of the third of $x$ is 6."),
]
OPERATION_REFUSED = [
    n("The value of $x$'s square root is \\boxed{6}."), n("The value of $x$'s half is \\boxed{6}."),
    n("The value of $x$'s inverse is \\boxed{6}."), n("The value of $x$'s ceiling is \\boxed{6}."),
    n("The value of the tenth of $x$ is \\boxed{6}."), n("The value of two thirds of $x$ is \\boxed{6}."),
    n("The value of the reciprocal of $x$ is \\boxed{6}."), n("The value of the Cube of $x$ is \\boxed{6}."),
    n("The value of the cube (of $x$) is \\boxed{6}."), n("The value of the square-root of $x$ is \\boxed{6}."),
]


test_a_possessive_operation_on_the_unknown_never_pays = refused_test(
    POSSESSIVE_NEAR,
    """Paid in both profiles: `_operation_at` reads an operation word only before `of`, so `$x$'s cube` (x cubed, the
    word itself in `OPERATION_WORDS`) reads as the value of an object.""")


test_an_unlisted_operation_on_the_unknown_never_pays = refused_test(
    OPERATION_NOUN_NEAR,
    """Paid in both profiles: `OPERATION_WORDS` holds `half`, `floor`, `part`, but not their kin `third`, `fifth`,
    `remainder`, `quotient`, `digit`, `fraction`, which LEXICON admits as objects.""")


OPERATION_MORE_NEAR = [
    n("The value of the sixth of $x$ is \\boxed{6}."), n("The value of the roots of $x$ is \\boxed{6}."),
    n("The value of $x$'s double is \\boxed{6}."), n("The value of the modulus of $x$ is \\boxed{6}."),
    n("The value of the successor of $x$ is \\boxed{6}."), n("So, the value of the successor of $x$ is 6."),
    n("Final Answer: The value of the quotient of $x$ is 6."), n("The sum of the cubes of $x$ is \\boxed{6}."),
    n("The value of the sum of the squares of $x$ is \\boxed{6}."), n("The value of $x$'s successor is \\boxed{6}."),
    n("The value of the ninth part of $x$ is \\boxed{6}."),
    # LEXICON's own nouns that name another quantity of the value (paid 6 before fx29p, as object words)
    n("The value of the change of $x$ is \\boxed{6}."), n("The value of the share of $x$ is \\boxed{6}."),
    n("The value of the output of $x$ is \\boxed{6}."), n("The value of the gain of $x$ is \\boxed{6}."),
    n("So, the value of the change of $x$ is 6."), n("The value of $x$'s share is \\boxed{6}."),
    n("Final Answer: The value of the third of $x$ is 6."), n("Final Answer: The value of x's cube is 6."),
    n("Final Answer: The value of the remainder of $x$ is 6."), n("Final Answer: The value of the last digit of $x$ is 6."),
    n("Final Answer: The value of the change of x is 6."),
]
OPERATION_REWRITES = [
    n("The sum of the digits of $N$ is \\boxed{6}."), n("The length of the side of the square is \\boxed{6}."),
    n("The product of the roots of the polynomial is \\boxed{6}."), n("The sum of $p$'s roots is \\boxed{6}."),
    n("The area of the base of the prism is \\boxed{6}."), n("So, the sum of the digits of $N$ is 6."),
    n("The value of the sum of the first 10 terms of the sequence is \\boxed{6}."),
    n("Final Answer: The number of Sam's apples is 6."), n("Final Answer: The sum of the digits of N is 6."),
]


test_any_noun_outside_the_taken_allowlist_never_pays = refused_test(
    OPERATION_MORE_NEAR,
    """fx29p: operation nouns no list named (`successor`, `modulus`, `sixth`), a plural under `value`, in a box's
    subject and a prose subject (`grammar.TAKEN_QUANTITIES`).""")


test_a_quantity_a_question_asks_for_still_pays = paid_test(
    OPERATION_REWRITES,
    """The allowlist's other side: sums, products, lengths, areas, figure parts, counted plurals under a total.""")


# 4. Grading time past `guards.power_guard` (docs/math.md "Answer grammar"): the guard's decision, never a time.
OTHER_BRACKETS = ["[a+b+c+d+f]^{20}", "\\{a+b+c+d+f\\}^{20}", "|a+b+c+d+f|^{20}", "{a+b+c+d+f}^{20}",
                  "\\left|a+b+c+d+f\\right|^{10}", "\\left[a+b+c+d+f\\right]^{10}"]
WRITTEN_EXPONENTS = ["(a+b+c+d+f)^{4\\cdot 5}", "(a+b+c+d+f)^{+20}", "(a+b+c+d+f)^{-20}", "(a+b+c+d+f)^{2^{4}}",
                     "(a+b+c+d+f)^{5+5}"]
SPLIT_POWERS = ["((a+b+c+d+f)^{4})^{4}", "(a+b+c+d+f)^{4}(a+b+c+d+f)^{4}(a+b+c+d+f)^{4}(a+b+c+d+f)^{4}"]
UNSAMPLED = ["(a+b+c+d)^{40}+f", "(a+b+c+d)^{10}(f+g+h+i)^{10}", "(x+y+z+w)^{20}+f(1)", "(x+y)^{20}(z+w)^{20}v",
             "\\sum_{k=1}^{2} (x+y+z+w)^{20}", "\\sum_{k=1}^{2} (x+y+z)^{20}", "\\lim_{n \\to 1} (x+y+z+w)^{20}",
             "\\frac{d}{dx} (x+y+z+w)^{20}"]


def _refused(latex: str) -> bool:
    """Whether the answer is refused before comparing (`guards.expansion_guard` since the fix)."""
    from verifier.math.parsing import parse_prediction

    return isinstance(parse_prediction(latex), str)


@pytest.mark.parametrize("latex", OTHER_BRACKETS)
def test_a_power_of_a_base_in_any_bracket_is_refused(latex: str) -> None:
    """1.2 s to more than 30 s each (module docstring, item 4a): `_INTEGER_POWER_RE` reads a base closed by `)`."""
    assert _refused(latex)


@pytest.mark.parametrize("latex", WRITTEN_EXPONENTS)
def test_a_power_whose_exponent_is_written_otherwise_is_refused(latex: str) -> None:
    """1.2 s to more than 25 s each (module docstring, item 4b): `^{4\\cdot 5}`, `^{+20}`, `^{-20}`, `^{2^{4}}`."""
    assert _refused(latex)


@pytest.mark.parametrize("latex", SPLIT_POWERS)
def test_a_power_split_into_small_ones_is_refused(latex: str) -> None:
    """14.9 s and 23.0 s (module docstring, item 4c): each exponent is at most `MAX_EXPANDED_POWER`, their product 16."""
    assert _refused(latex)


@pytest.mark.parametrize("latex", UNSAMPLED)
def test_a_power_the_sampler_cannot_reach_is_refused(latex: str) -> None:
    """3 s to more than 40 s each (module docstring, item 4d): the base has at most 4 symbols, but the answer has
    more, or an applied function, or a sum, limit or derivative around it, so `differs_at_a_point` gives up and
    math-verify's `simplify` expands the power."""
    assert _refused(latex)


@pytest.mark.parametrize("latex", ["((a+b)^{4})^{4}+c+d+f", "[x+1]^{20}", "\\prod_{k=1}^{100} (x+k)", "(x+y+z)^{10}"])
def test_a_power_the_sampler_covers_is_still_read(latex: str) -> None:
    """The bound's other side: under 1 s each (item 4, held), and within `MAX_EXPANDED_TERMS`."""
    assert not _refused(latex)


@pytest.mark.parametrize("latex", ["(x+y+z+w)^{20}", "(a+b+c+d+f)^{10.0}", "\\int_0^1 (x+y+z+w)^{20} dx"])
def test_a_large_expansion_the_sampler_happens_to_cover_is_refused_too(latex: str) -> None:
    """The fix's cost, by choice (docs/math.md "Answer grammar", expansions): under 1 s when the sampler covers the
    pair, but whether it does depends on the gold's symbols too; one bound on the answer alone holds for every gold."""
    assert _refused(latex)


# Guards for the fixes: rewrites that pay (must still pay) and near misses that are refused (must stay refused).
SAME = [
    # refused since fx29u (red team 14 classes 4, 5, 7): tests/test_math_subject_values.py GIVEN_UP
    n("The number of apples (which is an integer) is \\boxed{6}."),
    n("The number of points that lie on the circle $x^2+y^2=7$ is \\boxed{6}."),
    n("The value of $x$ such that $f(x) = 7$ is \\boxed{6}."),
    n("The value of the sum of the roots of the quadratic is \\boxed{6}."), n("The value of the third side of the triangle is \\boxed{6}."),
    n("The remainder when $n$ is divided by 7 is \\boxed{6}."),
    ("\\boxed{\\text{Yes, there is a solution.}}", "Yes", None), ("\\boxed{\\text{No, there is no such integer.}}", "No", None),
]
REFUSED = APPOSITION_REFUSED + SUCH_THAT_REFUSED + OPERATION_REFUSED + [
    # moved from SAME by fx29y (red team 16 class 3): an aggregate head's condition on its unknown alone refuses
    n("The number of integers $n$ such that $n^2 < 40$ is \\boxed{6}."),
    ("\\boxed{\\text{Yes, there is one in a thousand.}}", "Yes", None),
    ("\\boxed{\\text{Yes, there is a solution with some doubt.}}", "Yes", None),
    ("\\boxed{\\text{Yes, there is one, or none.}}", "Yes", None), ("\\boxed{\\text{Yes, } \\text{no}}", "Yes", None),
    ("\\boxed{\\text{Yes, there is $n$ or $m$}}", "Yes", None),
]


test_a_right_answer_near_a_class_still_pays = paid_test(SAME)


test_a_near_miss_main_refuses_stays_refused = refused_test(REFUSED)


# Through the real server (class 1; docs/service.md "Reuse keys": one request, the shared pool).
SERVER_NEAR = [math_task("apposition", "The number of apples that is the integer 7 is \\boxed{6}.", "6"),
               math_task("apposition-so", "So, the number of apples which is the prime 7 is 6.", "6")]


test_the_server_refuses_a_clause_naming_a_value = server_refused_test(SERVER_NEAR)


# Recall given up (refused, never paid): rewrites a model writes that the grammar does not read.
RECALL = [n("The value of $x$ for which $f(x) = 7$ is \\boxed{6}."), n("The number of primes that are less than 15 is \\boxed{6}."),
          n("The number of integers that are divisible by 7 is \\boxed{6}.")]


test_common_rewrites_pay = paid_test(RECALL, marks=[pytest.mark.xfail(strict=False, reason="recall: rewrites the grammar refuses (rt29m)")])
