"""Red team of issue 29's answer grammar, second pass: wrong answers the grader paid, one family per class,
graded by the real grader in both profiles (docs/math.md "Answer grammar").

1. What stands before a box. The grammar read what follows a box and what stands around an anchored
   value, but a box was read whatever preceded it: `-\\boxed{12}`, `\\frac{1}{\\boxed{12}}`,
   `x \\neq \\boxed{12}`, `2 + \\boxed{3}`, `not \\boxed{12}`, a box nested in a box all paid the box's
   content. Now the box's lead must pass an allowlist (`grammar.box_lead`).
2. Digits inside `\\text{}` beside a value: the parser drops text as a unit, so `12\\text{000}` and
   `1\\text{2}` paid 12 and 1. Text now holds words only (`grammar.read`).
3. A `!` right after a box: `\\boxed{5}!` paid 5; it is 5 factorial, as `5!` after an anchor is.
"""

from __future__ import annotations

import pytest

from tests.helpers import assert_math_verdict, case_test, paid_test, refused_test
from verifier.math import grade_math

PROFILES = ("strict", "lenient")


BOX_LEAD_NEAR = [
    (r"$-\boxed{12}$", "12"), (r"-\boxed{12}", "12"), (r"$\frac{1}{\boxed{12}}$", "12"),
    (r"$\sqrt{\boxed{12}}$", "12"), (r"$10^{\boxed{12}}$", "12"), (r"minus \boxed{12}", "12"),
    (r"negative \boxed{12}", "12"), (r"The answer is not \boxed{12}.", "12"), (r"Not \boxed{12}.", "12"),
    (r"$x \neq \boxed{12}$", "12"), (r"$x \approx \boxed{12}$", "12"), (r"$x > \boxed{12}$", "12"),
    (r"$x >= \boxed{12}$", "12"), (r"$x = 2 + \boxed{3}$", "3"), (r"The answer is 2 + \boxed{3}.", "3"),
    (r"3.\boxed{4}", "4"), (r"\boxed{3} or \boxed{4}", "4"), (r"half of \boxed{12}", "12"),
    (r"\boxed{12\boxed{3}}", "3"), (r"\boxed{1\boxed{3}}", "3"), (r"\boxed{-\boxed{3}}", "3"),
    (r"\boxed{\frac{1}{\boxed{3}}}", "3"),
    # variants the fix was not written for: words in no list, other languages
    (r"about \boxed{12}", "12"), (r"Es ist nicht \boxed{12}.", "12"), (r"3 por \boxed{4}", "4"),
    (r"$x \lesssim \boxed{12}$", "12"), (r"$\log_{\boxed{12}} 5$", "12"),
]


test_a_box_inside_something_larger_is_never_paid = refused_test(
    BOX_LEAD_NEAR,
    """Paid `correct` in both profiles before `grammar.box_lead`: the box was read whatever stood before it.""",
    argnames=("completion", "gold"))


BOX_LEAD_SAME = [
    (r"\boxed{12}", "12"), (r"The answer is \boxed{12}.", "12"), (r"Thus, \boxed{12}", "12"),
    (r"$x = \boxed{12}$", "12"), (r"Final Answer: $\boxed{12}$", "12"), ("**Final Answer**\n\\boxed{12}", "12"),
    (r"So we get $\boxed{12}$.", "12"), (r"$$\boxed{12}$$", "12"), (r"\[\boxed{12}\]", "12"),
    (r"Die Antwort lautet \boxed{12}.", "12"), (r"答案是 \boxed{12}", "12"), (r"\textbf{Answer:} \boxed{12}", "12"),
    (r"\begin{aligned} x &= \boxed{12} \end{aligned}", "12"), (r"Checking n = 3. \boxed{12}", "12"),
    (r"The answer is: **\boxed{12}**", "12"), (r"Thus the smallest such $n$ is $\boxed{12}$.", "12"),
    (r"which yields \boxed{12}.", "12"), (r"giving \boxed{12}.", "12"),
    (r"$129^{34} \equiv \boxed{6} \pmod{11}$.", "6"),
    (r"The probability is $\frac{1}{2} = \boxed{\frac{1}{2}}$.", r"\frac{1}{2}"),
    (r"\boxed{1}, \boxed{2}", r"\{1, 2\}"), (r"x is \boxed{1}, y is \boxed{2}", "(1, 2)"),
]


test_a_stated_box_still_pays = paid_test(
    BOX_LEAD_SAME,
    """Rewrites: a box that starts a line or sentence, or follows a label, a stating relation or verb.""",
    argnames=("completion", "gold"))


TEXT_DIGIT_NEAR = [
    (r"\boxed{12\text{000}}", "12"), (r"\boxed{12\text{ 000}}", "12"), (r"\boxed{12\text{,000}}", "12"),
    (r"\boxed{1\text{2}}", "1"), (r"\boxed{12\text{.5}}", "12"), (r"\boxed{12\text{ or 13}}", "12"),
    (r"The answer is $12\text{000}$.", "12"),
    # variants: other text-mode commands
    (r"\boxed{12\textbf{000}}", "12"), (r"\boxed{12\mbox{000}}", "12"), (r"\boxed{12\textit{ plus 1}}", "12"),
]


test_digits_inside_text_beside_a_value_are_never_dropped = refused_test(
    TEXT_DIGIT_NEAR,
    """Paid before: the parser drops `\\text{}` as a unit, digits and all.""",
    argnames=("completion", "gold"))


TEXT_WORD_SAME = [
    (r"\boxed{12\text{ cm}}", "12"), (r"\boxed{12\text{th}}", "12"), (r"\boxed{\text{\$}12}", "12"),
    (r"\boxed{12\text{ apples}}", "12"), (r"\boxed{\text{12}}", "12"), (r"\boxed{12 \text{ cm}^2}", "12"),
]


test_words_inside_text_still_pay = paid_test(TEXT_WORD_SAME, argnames=("completion", "gold"))


BANG_AFTER_BOX = [
    (r"\boxed{5}!", "5", "incorrect"), (r"\boxed{5}!", "120", "correct"), (r"\boxed{5}!.", "5", "incorrect"),
    (r"\boxed{5}.", "5", "correct"), (r"\boxed{5} !", "5", "correct"),
]


test_a_bang_right_after_a_box_is_a_factorial = case_test(
    assert_math_verdict, BANG_AFTER_BOX,
    """`\\boxed{5}!` paid 5: a `!` right after a value is a factorial, as after an anchor; spaced, an exclamation.""",
    argnames=("completion", "gold", "verdict"))


BASE_CASES = [
    # near misses: a subscript dropped by the parser paid the digits as a decimal number
    (r"\boxed{12_8}", "12", "incorrect"), (r"\boxed{12_{8}}", "12", "incorrect"), (r"\boxed{1010_2}", "1010", "incorrect"),
    (r"The answer is 12_8.", "12", "incorrect"), (r"The answer is $12_8$.", "12", "incorrect"),
    (r"The answer is 6_500", "6", "incorrect"), (r"\boxed{19_8}", "19", "incorrect"), (r"\boxed{12_{(8)}}", "12", "incorrect"),
    (r"\boxed{10}", "1010_2", "incorrect"),
    # rewrites: the same number in a base, or the gold's digits when the gold names the base
    (r"\boxed{12_8}", "10", "correct"), (r"\boxed{1010_2}", "1010_2", "correct"), (r"\boxed{1010_{2}}", "1010_2", "correct"),
    (r"\boxed{1010}", "1010_2", "correct"), (r"\boxed{4210_7}", "4210_{7}", "correct"), (r"\boxed{x_1}", "x_1", "correct"),
    (r"\boxed{a_{12}}", "a_{12}", "correct"), (r"\boxed{\log_2 8}", "3", "correct"),
]


test_a_number_in_a_base_is_its_value = case_test(
    assert_math_verdict, BASE_CASES,
    """`\\boxed{12_8}` paid gold 12 and `6_500` paid 6: math-verify drops a number's subscript. A base
    subscript is now the number's value (`parsing._base_value`); any other subscript on a number is refused.""",
    argnames=("completion", "gold", "verdict"))


CHOICES = ["3", "5", "7", "9"]
CHOICE_CASES = [
    # near misses: a box that is not stated, several boxed letters, a lenient letter among others
    ("not \\boxed{B}", "B", ["no_answer", "no_answer"]),
    ("\\boxed{B} or \\boxed{C}", "C", ["no_answer", "no_answer"]),
    ("\\boxed{B}, \\boxed{C}", "C", ["no_answer", "no_answer"]),
    ("\\boxed{B}\\boxed{C}", "C", ["no_answer", "no_answer"]),
    ("**B** or **C**", "C", ["no_answer", "no_answer"]),
    ("(A) (B) (C) (D)", "D", ["no_answer", "no_answer"]),
    ("I doubt it is \\boxed{B}.", "B", ["no_answer", "no_answer"]),
    ("Maybe it is \\boxed{B}.", "B", ["no_answer", "no_answer"]),
    ("So the answer is \\boxed{C} and \\boxed{B}.", "B", ["no_answer", "no_answer"]),
    ("Therefore, the final answer is $\\boxed{B}$.", "B", ["correct", "correct"]),
    # rewrites
    ("The answer is \\boxed{B}.", "B", ["correct", "correct"]),
    ("The correct answer is (D).", "D", ["correct", "correct"]),
    ("So the answer is **D**.", "D", ["correct", "correct"]),
    ("(D)", "D", ["no_answer", "correct"]), ("**D**", "D", ["no_answer", "correct"]),
    ("Checking each option.\n(D)", "D", ["no_answer", "correct"]),
]


@pytest.mark.parametrize(("completion", "gold", "expected"), CHOICE_CASES)
def test_a_choice_is_read_only_where_it_is_stated(completion: str, gold: str, expected: list[str]) -> None:
    """`not \\boxed{B}`, `\\boxed{B} or \\boxed{C}`, `\\boxed{B}, \\boxed{C}` paid in both profiles, and the lenient
    letter fallback paid `**B** or **C**` and `(A) (B) (C) (D)`: the box's lead passes the grammar
    (`grammar.box_lead`), and a letter's line names no other letter (`extract._last_marked_letter`)."""
    got = [grade_math({"completion": completion, "gold": gold, "profile": p, "choices": CHOICES})["verdict"]
           for p in PROFILES]
    assert got == expected


EQ_CHAIN_CASES = [
    # near misses: a relation other than `=` written with `=` signs paid its last side
    ("The answer is x =/= 6.", "6", "incorrect"), (r"\boxed{x =/= 6}", "6", "incorrect"),
    ("The answer is $x =/= 6$.", "6", "incorrect"), ("The answer is x =|= 6.", "6", "incorrect"),
    ("The answer is x =\\= 6.", "6", "incorrect"), ("The answer is x =< 6.", "6", "incorrect"),
    ("The answer is x => 6.", "6", "incorrect"),
    # rewrites
    ("The answer is x = 6.", "6", "correct"), ("The answer is x == 6.", "6", "correct"),
    ("The answer is x = -6.", "-6", "correct"), (r"\boxed{x = 6}", "6", "correct"),
]


@pytest.mark.parametrize(("completion", "gold", "verdict"), EQ_CHAIN_CASES)
def test_every_side_of_an_equals_chain_holds_a_value(completion: str, gold: str, verdict: str) -> None:
    """`x =/= 6` (not equal) paid 6: the chain's middle side `/` counted as arithmetic. A side between two
    `=` now holds a value, and only a sign or a bracket may stand between the last `=` and the value."""
    assert grade_math({"completion": completion, "gold": gold, "profile": "strict"})["verdict"] == verdict


APPROXIMATIONS = ["The answer is x ≈ 6.", r"The answer is $x \approx 6$.", r"\boxed{x \approx 6}", "The answer is x ≃ 6.",
                  "The answer is x ≅ 6.", "The answer is x ≒ 6.", "The answer is x ~= 6.", "The answer is x =~ 6.",
                  r"\boxed{x ~= 6}", "The answer is ~6."]


@pytest.mark.parametrize("completion", APPROXIMATIONS)
def test_an_approximation_never_pays(completion: str) -> None:
    """Paid 6 before: math-verify's parser reads `x \\approx 6` (and `~=`) as 6, and `x ≃ 6` as 6 and `x ≒ 6` as
    `x = 6` (symbols it does not know). Unicode math symbols outside `unicode_math`'s table are now refused, as
    is a name stated only by the parser's approximation; a tilde in prose is a mark, not a LaTeX space."""
    assert grade_math({"completion": completion, "gold": "6", "profile": "strict"})["verdict"] != "correct"


@pytest.mark.parametrize(("completion", "gold"), [("The answer is x = 6.", "6"), ("The answer is ∠ABC = 40°.", "40"),
                                                   ("The answer is x ≤ 6.", r"x \le 6"),
                                                   ("The answer is 6 ≠ 7.", r"6 \ne 7"),
                                                   (r"\boxed{\frac{\sqrt{3}}{3} \approx 0.577}", r"\frac{\sqrt{3}}{3}")])
def test_known_relations_still_pay(completion: str, gold: str) -> None:
    assert grade_math({"completion": completion, "gold": gold, "profile": "strict"})["verdict"] == "correct"


@pytest.mark.parametrize(("completion", "gold", "verdict"), [
    ("So we get 6!.", "6", "incorrect"), ("So we get 6!.", "720", "correct"), ("Thus it is 6!", "720", "correct"),
    ("So we get 6.", "6", "correct"),
])
def test_a_bang_right_after_the_last_number_is_a_factorial(completion: str, gold: str, verdict: str) -> None:
    """Lenient: `So we get 6!.` paid 6, while after an anchor `6!` is 720 (a `!` right after a digit)."""
    assert grade_math({"completion": completion, "gold": gold, "profile": "lenient"})["verdict"] == verdict


BOX_CLAUSE_NEAR = [
    (r"I doubt it is \boxed{6}", "6"), (r"I doubt it is $\boxed{6}$.", "6"), (r"We think it is \boxed{6}.", "6"),
    (r"If n is odd, \boxed{6}.", "6"), (r"Maybe it is \boxed{6}.", "6"), (r"Perhaps we get \boxed{6}.", "6"),
    (r"I doubt that $x = \boxed{6}$.", "6"), (r"So I guess it is \boxed{6}.", "6"), (r"Not sure, but we get \boxed{6}.", "6"),
    (r"Suppose the value is \boxed{6}.", "6"), (r"Possibly, \boxed{6}.", "6"), (r"Wait, maybe \boxed{6}.", "6"),
    (r"I doubt the answer is \boxed{6}.", "6"), (r"Ich glaube, es ist \boxed{6}.", "6"),
    (r"The value could be \boxed{6}.", "6"), (r"So $x$ might be $\boxed{6}$.", "6"), (r"It would be \boxed{6}.", "6"),
    (r"The total may be \boxed{6}.", "6"), (r"The total should be \boxed{6}.", "6"), (r"The total may have been \boxed{6}.", "6"),
    (r"Probably, the value is \boxed{6}.", "6"), (r"Hopefully, we get \boxed{6}.", "6"), (r"Alternatively, $x = \boxed{6}$.", "6"),
]


test_a_box_whose_clause_hedges_is_never_paid = refused_test(
    BOX_CLAUSE_NEAR,
    """`I doubt it is \\boxed{6}` paid 6: `box_lead` read only the word right before the box (`is`). The
    clause that leads to the box now opens as a statement does (`grammar.box_clause`).""",
    argnames=("completion", "gold"))


BOX_CLAUSE_SAME = [
    (r"Therefore, the final answer is $\boxed{6}$", "6"), (r"So the answer is \boxed{6}.", "6"), (r"$x = \boxed{6}$", "6"),
    ("We compute.\n\\boxed{6}", "6"), (r"Final Answer: The final answer is $\boxed{6}$. I hope it is correct.", "6"),
    (r"Hence, the angle between the lines is $\boxed{6}.$", "6"), (r"Checking, we find that the only roots are $\boxed{6}.$", "6"),
    (r"Paula's investment is worth $\boxed{6}$.", "6"), (r"Since $a = 2$, we get \boxed{6}.", "6"),
    (r"making for a total loss of $\boxed{6}$.", "6"), (r"Thus, the area is \(\boxed{6}\).", "6"),
    ("We compute: \\[ \\boxed{6} \\]", "6"), (r"By the quadratic formula, $x = \boxed{6}.$", "6"),
    (r"which gives \boxed{6}.", "6"), (r"Sam swam \boxed{6} meters.", "6"), (r"it is \boxed{6}", "6"),
    (r"The answer will be \boxed{6}.", "6"), (r"So $x$ must be \boxed{6}.", "6"), (r"The total has been \boxed{6}.", "6"),
    (r"So, the value is \boxed{6}.", "6"), (r"Now, we get \boxed{6}.", "6"), (r"Hence, $x = \boxed{6}$.", "6"),
]


test_a_box_whose_clause_states_it_still_pays = paid_test(
    BOX_CLAUSE_SAME,
    """Rewrites: the common leads of real completions (tests/data/peers, peer_outputs) keep their box.""",
    argnames=("completion", "gold"))


BOXES_IN_ONE_SENTENCE = [
    # near misses: two boxes one sentence joins state two values; the gold is one of them
    (r"\boxed{4} and \boxed{3}", "3", "incorrect"), (r"\boxed{4} and \boxed{3}", "4", "incorrect"),
    (r"\boxed{4}, \boxed{3}", "3", "incorrect"), (r"$x = \boxed{4}$ and $y = \boxed{3}$.", "3", "incorrect"),
    (r"x is \boxed{4}, y is \boxed{3}", "3", "incorrect"), (r"\boxed{4} \quad \text{and} \quad \boxed{3}", "3", "incorrect"),
    (r"The answer is \boxed{3} and \boxed{3}.", "3", "incorrect"),
    # rewrites: the list answers a list gold; a corrected answer and parts on their own lines read the last box
    (r"\boxed{4} and \boxed{3}", "4, 3", "correct"), (r"The roots are \boxed{4} and \boxed{3}.", r"\{3, 4\}", "correct"),
    (r"x is \boxed{4}, y is \boxed{3}", "(4, 3)", "correct"), ("First \\boxed{4}. Wait, I made an error: \\boxed{3}", "3", "correct"),
    ("(a) \\boxed{4}\n(b) \\boxed{3}", "3", "correct"), ("\\boxed{4}\n\nSo the answer is \\boxed{3}.", "3", "correct"),
]


test_boxes_one_sentence_states_are_one_answer = case_test(
    assert_math_verdict, BOXES_IN_ONE_SENTENCE,
    """`\\boxed{4} and \\boxed{3}` paid gold 3 (the last box alone was read first): boxes that one
    sentence states are now read only together, as a list (`extract.LISTED_BOXES`).""",
    argnames=("completion", "gold", "verdict"))
