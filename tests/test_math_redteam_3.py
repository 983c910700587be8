"""Red team of issue 29's answer grammar, third pass: wrong answers the grader pays, one family per class,
graded by the real grader (`grade_math`, the function the service's math path and tests/test_math_redteam_2.py
use) in both profiles (docs/math.md "Answer grammar"). Each near-miss test asserts the safe behaviour, so every
case here fails on main until its class is closed; each family has rewrites that must still pay.

1. Symbols inside `\\text{}` beside a value. "Text holds words": a digit there is refused, but any other
   symbol is dropped with the text, so `6\\text{!}` (a factorial), `6\\text{½}`, `6\\text{⁻¹}`, `6\\text{√}`,
   `6\\text{∞}`, `6\\,\\text{‰}` and the text-mode macros `\\textperthousand`, `\\textonehalf`,
   `\\textsuperscript{3}` pay 6.
2. A trailing `\\ldots` after a number is dropped: `3.14\\ldots` (a non-terminating decimal) pays gold 3.14 and
   `0.33\\ldots` (1/3) pays 0.33, while `\\dots`, `\\cdots` and `…` are refused.
3. A subject that names another quantity through a decoration of its name: `x^{-1} = 6` (x is 1/6), `x⁻¹ = 6`,
   `(x)^{-1} = 6`, `|x| = 6` pay 6, while `x^2 = 6`, `x^{-2} = 6`, `-x = 6` are refused.
4. A hedge, a scale or a condition in the clause before a comma (semicolon, ellipsis) ahead of an anchor or a
   box: `Maybe, the answer is 6.`, `In thousands, the answer is 6.`, `If n is odd, the answer is 6.`,
   `Maybe, \\boxed{6}` pay 6 ("A clause before a comma is not read"), while `Maybe the answer is 6.` is refused.
5. A label before a colon says what the box is not: `Wrong answer: \\boxed{6}`, `Guess: \\boxed{6}`,
   `In thousands: \\boxed{6}`, `Reciprocal: \\boxed{6}` pay 6 (a colon is a box lead whatever precedes it),
   while the anchored `Wrong answer: 6` is refused; and a quantity noun's `of` admits a function of the box:
   `The square root of \\boxed{36}` pays gold 36.
6. Variants of the open hedge-lead-before-a-box finding (`I doubt it is \\boxed{6}`, being fixed elsewhere):
   modals and negated modals before a box (`It could be \\boxed{6}`, `It can't be \\boxed{6}`).
7. Values matched by written order, not by name: `y = \\boxed{1}, x = \\boxed{2}` pays gold `x = 1, y = 2`,
   `\\boxed{y = 1, x = 2}` pays `(x, y) = (1, 2)`, and `\\boxed{x = 1, x = 2}` (one unknown, two values) pays (1, 2).
8. The subject of a box's `is` or `=` is never read: `The wrong answer is \\boxed{6}`, `$2x = \\boxed{6}$`,
   `The answer in thousands is \\boxed{6}` pay 6, while `The wrong answer is 6` and `\\boxed{2x = 6}` are refused.
9. A conjunction after a box ends its reading: `\\boxed{6} and a half`, `\\boxed{6} and above`, `\\boxed{6} then 7`,
   `\\boxed{6} and that is wrong`, `\\boxed{6} because I am not sure` pay 6 (`grammar.after_value`'s `_NEW_CLAUSE`).

Issue 29's fixes close every class (class 6 by the box-clause reading, `grammar._AUXILIARIES`; class 8 by the
subject reading, `grammar.box_subject`).
"""

from __future__ import annotations

import pytest

from tests.helpers import math_verdicts as verdicts, paid_test, refused_test

CHOICES = ["3", "5", "7", "9"]


# 1. Symbols inside `\text{}` beside a value (docs/math.md "Answer grammar", bullet "Text holds words").
TEXT_SYMBOL_NEAR = [
    (r"\boxed{6\text{!}}", "6"), (r"\boxed{6\text{ !}}", "6"), (r"\boxed{6\text{½}}", "6"), (r"\boxed{6\text{⅓}}", "6"),
    (r"\boxed{6\text{⁻¹}}", "6"), (r"\boxed{6\text{√}}", "6"), (r"\boxed{6\text{∞}}", "6"), (r"\boxed{6\text{+}}", "6"),
    (r"\boxed{6\text{−}}", "6"), (r"\boxed{6\,\text{‰}}", "6"), (r"\boxed{6\text{‰}}", "6"),
    (r"\boxed{6\,\mathrm{‰}}", "6"), (r"\boxed{6\,\text{‱}}", "6"), (r"\boxed{6\text{ \textperthousand}}", "6"),
    (r"\boxed{6\text{ \textpertenthousand}}", "6"), (r"\boxed{6\text{ \textonehalf}}", "6"),
    (r"\boxed{6\text{\textsuperscript{3}}}", "6"), (r"\boxed{6\text{ \^{}3}}", "6"), (r"\boxed{6\text{ \xmark}}", "6"),
    (r"The answer is $6\text{½}$.", "6"), (r"The answer is $6\text{⁻¹}$.", "6"), (r"The answer is $6\text{!}$.", "6"),
    (r"Final Answer: $6\text{√}$", "6"), (r"The answer is $6\,\text{‰}$.", "6"),
]


test_symbols_inside_text_beside_a_value_are_never_dropped = refused_test(
    TEXT_SYMBOL_NEAR,
    """Paid `correct` in both profiles on main: the grammar scans a `\\text{}`'s symbols as marks it skips, and
    the parser drops the text as a unit; `6\\text{½}` is 6.5, `6\\text{!}` 720, `6\\,\\text{‰}` 0.006.""",
    argnames=("completion", "gold"))


LENIENT_TEXT_SYMBOL_NEAR = [(r"So we get $6\text{!}$.", "6"), (r"So we get $6\text{½}$ apples.", "6")]


test_symbols_inside_text_never_pay_the_lenient_fallback = refused_test(
    LENIENT_TEXT_SYMBOL_NEAR,
    """Paid in the lenient profile (strict finds no anchor): the fallback reads the same grammar.""",
    argnames=("completion", "gold"))


TEXT_SYMBOL_SAME = [
    (r"\boxed{6\text{ apples}}", "6"), (r"\boxed{6\,\text{cm}}", "6"), (r"\boxed{6\text{ m/s}}", "6"),
    (r"\boxed{6^\circ}", "6"), (r"\boxed{6\%}", "6"), (r"\boxed{6\text{th}}", "6"), (r"\boxed{6\,\text{cm}^2}", "6"),
]


test_units_beside_a_value_still_pay = paid_test(
    TEXT_SYMBOL_SAME,
    """Rewrites: a unit, an angle, a percent sign, an ordinal suffix.""",
    argnames=("completion", "gold"))


# 2. A trailing `\ldots` after a number (docs/math.md "Answer grammar", bullet "Structure, not words").
ELLIPSIS_NEAR = [
    (r"\boxed{3.14\ldots}", "3.14"), (r"\boxed{0.33\ldots}", "0.33"), (r"\boxed{2.7182\ldots}", "2.7182"),
    (r"\boxed{1.41\ldots}", "1.41"), (r"The answer is $3.14\ldots$.", "3.14"), (r"\boxed{6\ldots}", "6"),
    (r"\boxed{6 \ldots}", "6"), (r"The answer is $6\ldots$.", "6"),
]


test_a_number_that_goes_on_is_not_its_prefix = refused_test(
    ELLIPSIS_NEAR,
    """Paid on main: math-verify drops `\\ldots`, so `3.14\\ldots` (a decimal that goes on: pi's, not 3.14)
    pays 3.14 and `0.33\\ldots` (1/3) pays 0.33, while `3.14\\dots`, `3.14\\cdots` and `3.14…` are refused.""",
    argnames=("completion", "gold"))


ELLIPSIS_SAME = [(r"\boxed{3.14}", "3.14"), (r"The answer is $3.14$.", "3.14"), (r"\boxed{0.33}", "0.33")]


test_a_terminating_decimal_still_pays = paid_test(ELLIPSIS_SAME, argnames=("completion", "gold"))


# 3. A subject naming another quantity through a decoration of its name (docs/math.md "Answer grammar",
#    subject: "a subject naming another quantity (`2x = 6`)" is refused).
DECORATED_SUBJECT_NEAR = [
    (r"The answer is $x^{-1} = 6$.", "6"), (r"\boxed{x^{-1} = 6}", "6"), (r"\boxed{x^{-1}= 6}", "6"),
    (r"\boxed{x^{ -1 } = 6}", "6"), (r"\boxed{{x}^{-1} = 6}", "6"), (r"\boxed{(x)^{-1} = 6}", "6"),
    (r"\boxed{x⁻¹ = 6}", "6"), (r"\boxed{n^{-1} = 6}", "6"), (r"\boxed{x^{-1}_{0} = 6}", "6"),
    (r"\boxed{|x| = 6}", "6"), (r"The answer is $|x| = 6$.", "6"),
]


test_a_subject_that_is_a_function_of_the_unknown_is_never_paid = refused_test(
    DECORATED_SUBJECT_NEAR,
    """Paid on main: `x^{-1} = 6` says x is 1/6 and `|x| = 6` that x is 6 or -6, yet both pay 6, while
    `x^2 = 6`, `x^{-2} = 6`, `-x = 6` and `2x = 6` are refused.""",
    argnames=("completion", "gold"))


DECORATED_SUBJECT_SAME = [
    (r"The answer is $x = 6$.", "6"), (r"\boxed{x = 6}", "6"), (r"\boxed{x_0 = 6}", "6"), (r"\boxed{f(3) = 6}", "6"),
    (r"\boxed{\angle ABC = 6^\circ}", "6"),
]


test_a_named_value_still_pays = paid_test(
    DECORATED_SUBJECT_SAME,
    """Rewrites: a name, a subscripted name, a function's value, an angle.""",
    argnames=("completion", "gold"))


# 4. A hedge, a scale or a condition in the clause before a comma ahead of an anchor or a box (docs/math.md
#    "Answer grammar", bullet "Before an anchor": "A clause before a comma is not read").
COMMA_CLAUSE_NEAR = [
    "Maybe, the answer is 6.", "Perhaps, the answer is 6.", "Probably, the answer is 6.", "Possibly, \\boxed{6}",
    "Hypothetically, the answer is 6.", "Incorrectly, the answer is 6.", "Approximately, the answer is 6.",
    "In thousands, the answer is 6.", "In millions, the answer is 6.", "Per thousand, the answer is 6.",
    "If n is odd, the answer is 6.", "If I am wrong, the answer is 6.", "Rounded to the nearest ten, the answer is 6.",
    "Thus, approximately, the answer is 6.", "So, in thousands, the answer is 6.", "Hmm, maybe, the answer is 6.",
    "Perhaps, the final answer is \\boxed{6}.", "So, perhaps, the final answer is \\boxed{6}.",
    "Maybe; the answer is 6.", "Unsure; the answer is 6.", "Maybe... the answer is 6.", "Maybe, \\boxed{6}",
    "Vielleicht, die Antwort ist 6.", "Peut-être, la réponse est 6.", "大约，答案是6。",
]


test_a_hedge_or_scale_before_a_comma_states_no_answer = refused_test(
    COMMA_CLAUSE_NEAR,
    """Paid 6 on main in both profiles, while `Maybe the answer is 6.` and `I doubt the answer is 6` are
    refused: the words before an anchor are read back to a comma, so a hedge, a scale (`In thousands,`) or
    a condition (`If n is odd,`) put before one is never read. A clause before a comma must lead to the
    answer too, or be a known safe shape (a part label, a step done), never anything.""",
    argnames="completion", gold="6")


COMMA_CLAUSE_SAME = [
    ("Thus, the answer is 6.", "6", None), ("So, the final answer is \\boxed{6}.", "6", None),
    ("Therefore, \\boxed{6}", "6", None), ("For part (a), the answer is 6.", "6", None),
    ("It is not B, the answer is D.", "D", CHOICES), ("Hence, the answer is 6.", "6", None),
]


test_a_concluding_clause_before_a_comma_still_pays = paid_test(COMMA_CLAUSE_SAME)


# 5. A label before a colon, or a function's `of`, as a box's lead (docs/math.md "Answer grammar",
#    bullet "Before a box": a box's lead is an allowlist).
BOX_LABEL_NEAR = [
    ("Wrong answer: \\boxed{6}", "6"), ("Incorrect: \\boxed{6}", "6"), ("Not: \\boxed{6}", "6"),
    ("Guess: \\boxed{6}", "6"), ("Estimate: \\boxed{6}", "6"), ("Lower bound: \\boxed{6}", "6"),
    ("Upper bound: \\boxed{6}", "6"), ("In thousands: \\boxed{6}", "6"), ("Thousands: \\boxed{6}", "6"),
    ("Reciprocal: \\boxed{6}", "6"), ("Negative: \\boxed{6}", "6"), ("Minus: \\boxed{6}", "6"),
    ("Rejected: \\boxed{6}", "6"), ("Counterexample: \\boxed{6}", "6"), ("Previous answer: \\boxed{6}", "6"),
    ("**Wrong:** \\boxed{6}", "6"), ("\\textbf{Incorrect Answer:} \\boxed{6}", "6"), ("\\text{Not:} \\boxed{6}", "6"),
    ("Falsch: \\boxed{6}", "6"), ("Faux : \\boxed{6}", "6"), ("错误答案：\\boxed{6}", "6"),
    ("x (in thousands) = \\boxed{6}", "6"),
    ("The square root of \\boxed{36}", "36"), ("Square root of \\boxed{36}", "36"), ("The root of \\boxed{36}", "36"),
]


test_a_label_that_says_what_the_box_is_not_is_never_paid = refused_test(
    BOX_LABEL_NEAR,
    """Paid on main in both profiles: a colon is a box lead whatever the label before it says, while the
    anchored `Wrong answer: 6` and `Previous answer: 6` are refused; and a quantity noun's `of` admits a
    function's (`The square root of \\boxed{36}` is 6, paid gold 36, as `\\sqrt{\\boxed{36}}` no longer is).""",
    argnames=("completion", "gold"))


BOX_LABEL_SAME = [
    "Answer: \\boxed{6}", "**Final Answer:** \\boxed{6}", "Final answer: \\boxed{6}", "Result: \\boxed{6}",
    "答案：\\boxed{6}", "Antwort: \\boxed{6}", "(a) \\boxed{6}", "The sum of the roots is \\boxed{6}.",
    "The value of $x$ is \\boxed{6}.", "It is \\boxed{6}",
]


test_a_stated_label_still_pays = paid_test(BOX_LABEL_SAME, argnames="completion", gold="6")


# 6. Variants of the open hedge-lead-before-a-box finding (`I doubt it is \boxed{6}`, fixed by another helper):
#    modal and negated-modal leads the fix must cover too.
MODAL_BOX_LEAD_NEAR = ["It could be \\boxed{6}", "It might be \\boxed{6}", "It can't be \\boxed{6}",
                       "It seems to be \\boxed{6}"]


test_a_modal_before_a_box_states_no_answer = refused_test(
    MODAL_BOX_LEAD_NEAR,
    """Paid 6 on main, while `It is not \\boxed{6}` and `It is never \\boxed{6}` are refused.""",
    argnames="completion", gold="6")


# 7. Values read in written order whatever they are named (docs/math.md "Math grading rules", several boxes and
#    named values: `parsing.named_values` reads "the values in order").
NAMED_ORDER_NEAR = [
    ("y = \\boxed{1}, x = \\boxed{2}", "x = 1, y = 2"), ("$y = \\boxed{1}$ and $x = \\boxed{2}$", "x = 1, y = 2"),
    ("\\boxed{y = 1, x = 2}", "(x, y) = (1, 2)"), ("\\boxed{y = 1, x = 2}", "(1, 2)"),
    ("\\boxed{y = 1}, \\boxed{x = 2}", "(1, 2)"), ("\\boxed{b = 1, a = 2}", "(1, 2)"),
    ("\\boxed{x_2 = 1, x_1 = 2}", "(1, 2)"), ("The answer is $y = 1, x = 2$.", "(1, 2)"),
    ("\\boxed{x = 1, x = 2}", "(1, 2)"), ("\\boxed{a = 1, a = 2}", "(1, 2)"), ("\\boxed{x = 1}, \\boxed{x = 2}", "(1, 2)"),
]


test_values_are_matched_by_their_names_not_their_order = refused_test(
    NAMED_ORDER_NEAR,
    """Paid on main in both profiles. `y = \\boxed{1}, x = \\boxed{2}` says x is 2, yet pays gold
    `x = 1, y = 2`; `\\boxed{y = 1, x = 2}` pays `(x, y) = (1, 2)` while the same statement written
    `\\boxed{x = 2, y = 1}` is refused (one of the two verdicts is wrong); `\\boxed{x = 1, x = 2}` gives one
    unknown two values and pays the pair (1, 2).""",
    argnames=("completion", "gold"))


NAMED_ORDER_SAME = [
    ("\\boxed{x = 1, y = 2}", "(1, 2)"), ("\\boxed{y = 2, x = 1}", "x = 1, y = 2"),
    ("x = \\boxed{1}, y = \\boxed{2}", "x = 1, y = 2"), ("y = \\boxed{2}, x = \\boxed{1}", "x = 1, y = 2"),
    ("\\boxed{(x, y) = (1, 2)}", "(1, 2)"), ("\\boxed{x = 1, y = 2}", "(x, y) = (1, 2)"),
    ("x = \\boxed{1}, y = \\boxed{2}", "(1, 2)"), ("\\boxed{x_1 = 1, x_2 = 2}", "(1, 2)"), ("\\boxed{(1, 2)}", "(1, 2)"),
]


test_named_values_in_any_order_still_pay = paid_test(NAMED_ORDER_SAME, argnames=("completion", "gold"))


# 8. The subject of a box's stating verb or relation is never read (docs/math.md "Answer grammar", bullet
#    "Before a box": `grammar.box_lead` reads the last word or mark, `is` or `=`, and admits the box whatever it states).
BOX_SUBJECT_NEAR = [
    "The wrong answer is \\boxed{6}.",
    "The incorrect answer is \\boxed{6}.",
    "My first guess is \\boxed{6}.",
    "Not the answer is \\boxed{6}.",
    "A wrong value is \\boxed{6}.",
    "The error is \\boxed{6}.",
    "Twice the answer is \\boxed{6}.",
    "The reciprocal of x is \\boxed{6}.",
    "The negative of x is \\boxed{6}.",
    "Its square is \\boxed{6}.",
    "2x is \\boxed{6}.",
    "$2x$ is \\boxed{6}.",
    "$x^2$ is \\boxed{6}.",
    "The answer in thousands is \\boxed{6}.",
    "The answer in millions is \\boxed{6}.",
    "The answer divided by 1000 is \\boxed{6}.",
    "The answer (in thousands) is \\boxed{6}.",
    "The final answer (maybe) is \\boxed{6}.",
    "The final answer (approx.) is \\boxed{6}.",
    "The final answer squared is \\boxed{6}.",
    "The answer rounded to the nearest thousand is \\boxed{6}.",
    "$2x = \\boxed{6}$",
    "$x^2 = \\boxed{6}$",
    "$x^{-1} = \\boxed{6}$",
    "$\\frac{x}{1000} = \\boxed{6}$",
    "$-x = \\boxed{6}$",
    "$\\sqrt{x} = \\boxed{6}$",
    "$10^x = \\boxed{6}$",
    "$x + 1 = \\boxed{6}$",
    "$x \\cdot 10^{-3} = \\boxed{6}$",
    "$x \\text{ (in thousands)} = \\boxed{6}$",
    "$\\text{wrong} = \\boxed{6}$",
    # variants the subject reading (`grammar.box_subject`) must refuse too: a chain's first side, an aligned
    # row that continues one, a scaled whole of several unknowns, a subject after an anchor or a stating verb,
    # an object that operates on the quantity, a relative clause that scales or hedges it
    "$2x = 12/2 = \\boxed{6}$", "\\begin{align*} 2x &= 12 \\\\ &= \\boxed{6} \\end{align*}", "$0 < 2x = \\boxed{6}$",
    "x/1000 = \\boxed{6}", "$|x| = \\boxed{6}$", "$\\frac{ab}{1000} = \\boxed{6}$", "$2ab = \\boxed{6}$",
    "$-(a+b) = \\boxed{6}$", "$\\text{Answer (in thousands)} = \\boxed{6}$", "x (in thousands) equals \\boxed{6}.",
    "The answer is $2x = \\boxed{6}$.", "We see that the error is \\boxed{6}.", "The error value is \\boxed{6}.",
    "The value of $2x$ is \\boxed{6}.", "The value of x times 1000 is \\boxed{6}.", "The number of thousands is \\boxed{6}.",
    "The value of x (which is in thousands) is \\boxed{6}.", "The value of x (which is rounded) is \\boxed{6}.",
    "The answer that I guess is \\boxed{6}.", "The answer to the nearest ten is \\boxed{6}.",
    "The estimated value is \\boxed{6}.", "The answer in thousands will be \\boxed{6}.", "The answer in thousands equals \\boxed{6}.",
    "The answer in k is \\boxed{6}.", "The answer in $K$ is \\boxed{6}.", "The answer in units of 1000 is \\boxed{6}.",
    "The value of my first try is \\boxed{6}.", "The result of the approximation is \\boxed{6}.",
    "The value of the error is \\boxed{6}.", "$e^x = \\boxed{6}$", "$x! = \\boxed{6}$", "$\\overline{x} = \\boxed{6}$",
    "$\\hat{x} = \\boxed{6}$", "$x' = \\boxed{6}$", "$x(1000) = \\boxed{6}$", "$3ix = \\boxed{6}$",
]


test_a_box_stated_of_another_quantity_is_never_paid = refused_test(
    BOX_SUBJECT_NEAR,
    """Paid 6 on main in both profiles, while the same sentences with a bare value (`The wrong answer is 6`,
    `The answer is: 2x = 6`, `\\boxed{2x = 6}`) are refused: the subject before a box's `is` or `=` goes
    through no grammar. It must pass the same subject grammar an anchored value's does.""",
    argnames="completion", gold="6")


BOX_SUBJECT_SAME = [
    "The answer is \\boxed{6}.", "$x = \\boxed{6}$", "The number of apples is \\boxed{6}.",
    "Maria's savings were \\boxed{6}.", "$\\angle ABC = \\boxed{6}$", "$f(3) = \\boxed{6}$", "$x_0 = \\boxed{6}$",
    "Thus the smallest such $n$ is $\\boxed{6}$.", "The final answer is \\boxed{6}.", "The total is \\boxed{6}.",
    # rewrites the subject reading admits: a name, a chain or aligned rows from a name, a computation without
    # unknowns, an identity's target of several unknowns, a noun phrase with an object or a relative clause
    "x = \\boxed{6}", "So x = \\boxed{6}", "we get $x = \\boxed{6}$", "$a + b = \\boxed{6}$", "$x - p = \\boxed{6}$",
    "$x_1 + x_2 = \\boxed{6}$", "$xy = \\boxed{6}$", "$\\theta = \\boxed{6}$", "$AB = \\boxed{6}$", "$P(A) = \\boxed{6}$",
    "$f'(2) = \\boxed{6}$", "$\\frac{1}{2} \\times 3 \\times 4 = \\boxed{6}$", "$f(-2)+f(-1)+f(0) = 2 + 4 = \\boxed{6}$",
    "\\begin{align*} x &= 2 + 4 \\\\ &= \\boxed{6} \\end{align*}", "So the total is 5 + 1 = \\boxed{6}.",
    "the angle between the lines is $\\boxed{6}$", "The area of the trapezoid is \\boxed{6}.",
    "The answer to the question is \\boxed{6}.", "The answer for part (a) is \\boxed{6}.", "The length in cm is \\boxed{6}.",
    "The probability that Alice wins is \\boxed{6}.", "Paula's investment is worth \\boxed{6}.",
    "The number of ways to choose 2 of 4 is \\boxed{6}.", "The smallest possible value of $N$ is \\boxed{6}.",
    "The value of $a+b$ is \\boxed{6}.",  # the degree's label: refused since fx29u (red team 14 class 5)
    "We find that the only integer roots are \\boxed{6}.", "The polar coordinates are \\boxed{6}.",
    "The number of multiples of 7 between 2002 and 2996 is \\boxed{6}.", "The number of apples in box B is \\boxed{6}.",
    "$5 \\text{ cm} + 1 \\text{ cm} = \\boxed{6}$", "$\\text{Area} = \\boxed{6}$", "$x \\in \\boxed{6}$",
    "$\\overline{AB} = \\boxed{6}$", "$3! = \\boxed{6}$", "$h(t) = \\boxed{6}$",
]


test_a_box_stated_of_a_known_subject_still_pays = paid_test(BOX_SUBJECT_SAME, argnames="completion", gold="6")


# Class 8 as a family: each right statement, perturbed by an operation on its subject, must stop paying.
STATED_SUBJECTS = ["the answer", "the value of $x$", "the area of the trapezoid", "the number of apples"]
SUBJECT_PERTURBATIONS = ["{s} in thousands", "{s} (in thousands)", "{s} divided by 1000", "{s} times 1000",
                         "{s} rounded to the nearest thousand", "the reciprocal of {s}", "the negative of {s}",
                         "my guess for {s}", "an estimate of {s}", "the error in {s}", "half of {s}"]
STATED_SIDES = ["x", "n", "a_1", "\\theta", "f(3)"]
SIDE_PERTURBATIONS = ["2{v}", "{v}^2", "{v}^{{-1}}", "\\frac{{{v}}}{{1000}}", "-{v}", "{v} + 1", "\\sqrt{{{v}}}",
                      "{v} \\cdot 10^{{3}}", "10^{{{v}}}", "|{v}|", "{v} \\text{{ (in thousands)}}"]


@pytest.mark.parametrize("subject", STATED_SUBJECTS)
def test_a_subject_perturbed_by_an_operation_is_never_paid(subject: str) -> None:
    """Near misses built from a right statement (`The answer is \\boxed{6}`, which must pay): each operation on
    its subject (a scale, an inverse, a hedge, an error) makes the box another quantity's value."""
    assert verdicts(f"{subject.capitalize()} is \\boxed{{6}}.", "6") == ["correct", "correct"]
    paid = [p for p in SUBJECT_PERTURBATIONS
            if "correct" in verdicts(f"{p.format(s=subject)[0].upper()}{p.format(s=subject)[1:]} is \\boxed{{6}}.", "6")]
    assert not paid


@pytest.mark.parametrize("side", STATED_SIDES)
def test_a_side_perturbed_by_an_operation_is_never_paid(side: str) -> None:
    """Near misses built from `$x = \\boxed{6}$` (which must pay): a function of the one unknown on the left
    of `=` states the value of that function, not of the unknown."""
    assert verdicts(f"${side} = \\boxed{{6}}$", "6") == ["correct", "correct"]
    paid = [p for p in SIDE_PERTURBATIONS if "correct" in verdicts(f"${p.format(v=side)} = \\boxed{{6}}$", "6")]
    assert not paid


# 9. A conjunction after a box ends its reading (docs/math.md "Answer grammar", bullet "After a box":
#    `grammar.after_value` returns at a word of `_NEW_CLAUSE` and reads nothing after it).
BOX_CONJUNCTION_NEAR = [
    "\\boxed{6} and a half.", "\\boxed{6} And a half.", "\\boxed{6} \\text{ and a half}", "\\boxed{6} and 1/2.",
    "\\boxed{6} and three quarters.", "\\boxed{6} and change.", "\\boxed{6} and 7.", "\\boxed{6} and 7 apples.",
    "\\boxed{6} AND 7.", "\\boxed{6} and/or 7.", "\\boxed{6} as well as 7.", "\\boxed{6} then 7.", "\\boxed{6} hence 7.",
    "\\boxed{6} and maybe 7.", "\\boxed{6} and its negative.", "\\boxed{6} and 1/6.",
    "\\boxed{6} and above.", "\\boxed{6} and up.", "\\boxed{6} and higher.", "\\boxed{6} and more.",
    "\\boxed{6} and thousands more.", "\\boxed{6} and million.", "\\boxed{6} and also 7 thousand.",
    "\\boxed{6} and not 6.", "\\boxed{6} and that is wrong.", "\\boxed{6} and it is wrong.", "\\boxed{6} and I doubt it.",
    "\\boxed{6} because I am not sure.", "\\boxed{6} since I doubt it.", "\\boxed{6} so it is 7.",
    "\\boxed{6} and the answer is 7.", "\\boxed{6} and then it is 7.",
]


test_what_follows_a_conjunction_after_a_box_is_read = refused_test(
    BOX_CONJUNCTION_NEAR,
    """Paid 6 on main in both profiles, while `The answer is 6 and a half.`, `\\boxed{6} or 7`,
    `\\boxed{6} but that is wrong`, `\\boxed{6} unless n is odd` are refused: after `and`, `then`, `so`,
    `because`, `since`, `hence` (and `as well as`, `and/or`) the words after a box are not read, so a
    second value, a fraction (6.5), an inequality (`and above`), a scale, a hedge or a retraction pays.""",
    argnames="completion", gold="6")


BOX_CONJUNCTION_SAME = [
    "\\boxed{6} apples.", "\\boxed{6} is the final answer.", "\\boxed{6} cm.", "\\boxed{6} years ago.",
    "\\boxed{6} and we are done.",
]


test_a_box_with_its_unit_or_a_closing_clause_still_pays = paid_test(BOX_CONJUNCTION_SAME, argnames="completion", gold="6")


# Classes 2, 3 and 7 through the lenient profile's last-segment fallback (docs/math.md "Answer grammar",
# bullet "Lenient"): strict finds no anchor, lenient pays.
LENIENT_NEAR = [
    ("So we get $6\\ldots$", "6"), ("So we get $3.14\\ldots$.", "3.14"), ("Thus $x^{-1} = 6$.", "6"),
    ("Thus $y = 1, x = 2$.", "(1, 2)"),
]


test_the_lenient_fallback_reads_the_same_classes = refused_test(
    LENIENT_NEAR,
    """Paid `correct` by the lenient profile on main (`no_answer` in strict).""",
    argnames=("completion", "gold"))
