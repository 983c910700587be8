"""fx29d: red team 33's classes 3, 4 and 6 and fx29bf's class-3 cost closed at the class (docs/math.md "Answer grammar",
"fx29d"): a problem grounds a name only where its capital is a name's (`grammar._problem_words`, `_name_place`: never a
choice's first word, a sentence's first word only as its subject); a problem's label is read on its whole glued token,
math only in an allowlist of shapes (`grammar._in_label`); lenient's subject is a noun phrase with a head
(`grammar._headed`); a math step's lead before a colon (`grammar._step_lead`, `STEP_WORDS`) is a label's, so a box below
its math pays. Near misses (a perturbed right answer, or the same shape with a hedge, scale or choice) are refused;
rewrites (an equivalent right answer) pay; a hole left is a strict xfail with its reason."""

from __future__ import annotations

import pytest

from tests.helpers import MATH_PROFILES, paid_test, refused_test
from tests.test_math_redteam_30 import _cases, problem_verdicts

LENIENT_ONLY = ["no_answer", "correct"]
"""Strict reads no last value without an anchor; lenient reads it (`extract._last_expression`)."""

# Red team 33 class 3: where a problem's capital grounds a name (`grammar._name_place`).
GROUNDED_NEAR = [
    ("Cannot: 6 apples", "How many? A) 6 B) 7 C) Cannot be determined"), ("Neither: 6 apples", "How many? [A] 5 [B] 7 [C] Neither"),
    ("Impossible: 6 apples", "How many?\nA. 5\nB. 7\nC. Impossible to tell"),
    ("Unsure has 6 apples.", "Unsure students may skip. Sam has 2 apples and gets 4. How many?"),
    ("Hypothetically: 6 apples", "Hypothetically, Sam has 2 apples and gets 4. How many?"),
    ("Suppose has 6 apples.", "Suppose Sam has 2 apples and gets 4. How many?"),
    ("Sam has 7 apples.", "Suppose Sam has 2 apples and gets 4. How many?"),
    ("Janet has 7 eggs.", "Janet's ducks lay 2 eggs and then 4 more. How many eggs?"),
]


@pytest.mark.parametrize(("completion", "problem"), GROUNDED_NEAR)
def test_a_choice_or_an_opening_that_is_no_subject_grounds_no_name(completion: str, problem: str) -> None:
    """A choice's first word never grounds a name; a sentence's first word only as its subject; a wrong value never
    pays under a grounded name."""
    assert "correct" not in problem_verdicts(completion, problem)


GROUNDED_RIGHT = [
    ("Janet has 6 eggs.", "Janet's ducks lay 2 eggs and then 4 more. How many eggs?"),
    ("Lee has 6 apples.", "Sam and Lee have 2 apples and get 4. How many?"),
    ("Sam has 6 apples.", "Suppose Sam has 2 apples and gets 4. How many?"),
    ("Tom bought 6 apples.", "Tom bought 2 apples and 4 pears. How many fruits?"),
    ("Renée has 6 apples.", "Sam, Renée and Zoë get 2 apples and then 4. How many?"),
]


@pytest.mark.parametrize(("completion", "problem"), GROUNDED_RIGHT)
def test_a_subject_or_a_name_inside_a_sentence_still_grounds(completion: str, problem: str) -> None:
    """GSM8K's names: a sentence's subject (`Tom bought`, `Janet's ducks`, a list of names before its verb) or a name
    inside a sentence (`Suppose Sam has`)."""
    assert problem_verdicts(completion, problem) == LENIENT_ONLY


@pytest.mark.parametrize(("completion", "problem"), [
    ("Hypothetically: 6 apples", "Hypothetically, Sam and Tom have 2 apples and get 4. How many?")])
@pytest.mark.xfail(strict=True, reason="hole left: a list of names before a verb (`Sam, Renée and Zoë get`) grounds its "
                                       "first word, and a hedge opening a sentence before `Sam and Tom have` has that "
                                       "shape; fix: read the hedge's word (an adverb) as no name")
def test_a_hedge_before_a_list_of_names_grounds_no_name(completion: str, problem: str) -> None:
    """A hedge before a comma and two names is no list member."""
    assert "correct" not in problem_verdicts(completion, problem)


# Red team 33 class 4: a label's whole glued token (`grammar._in_label`).
CA, X = "所以 C + A = 6；\n答案是 6。", "所以 x = 6；\n答案是 6。"
LABEL_NEAR = [
    (CA, "Jets A-10A and C-17B fly. How many?"), (CA, "Sizes C-2.5/A-3.5 are sold. How many?"),
    (CA, "Rooms C-3b and A-4b hold 2 and 4. How many?"), (CA, "Jets C-5s, A-10s fly. How many?"),
    ("所以 x = 7；\n答案是 7。", "Find x-2y when y = 0."),
]


@pytest.mark.parametrize(("completion", "problem"), LABEL_NEAR)
def test_a_glued_label_token_grounds_no_letter(completion: str, problem: str) -> None:
    """A label in any glued shape names a thing; a wrong value under a grounded letter stays refused."""
    assert "correct" not in problem_verdicts(completion, problem)


LABEL_RIGHT = [
    (X, "If 2x-4 = 8, find x."), (X, "Solve x/2 = 3."), (X, "Find x-2y when y = 0."), (CA, "Let C = 2 and A-4 = 0."),
    (X, "Evaluate \\sqrt{x-2} at x = 6."), (X, "Find |x-2| for x = 6."),
]


@pytest.mark.parametrize(("completion", "problem"), LABEL_RIGHT)
def test_a_glued_token_in_maths_shape_still_grounds(completion: str, problem: str) -> None:
    """Math stays math: a relation beside the token, a command or bar at its edge, algebra's own shape (`x-2y`)."""
    assert problem_verdicts(completion, problem) == ["correct"] * len(MATH_PROFILES)


# Red team 33 class 6: a subject is a noun phrase with a head (`grammar._headed`).
test_a_headless_subject_is_refused = refused_test(_cases([
    "Possible value: 6", "Expected: 6", "Other: 6 apples", "The first is 6.", "The possible answer is 6.",
    ("The largest possible value is 7.", "6"), ("Total: 7", "6"),
]))


@pytest.mark.parametrize("completion", ["The largest possible value is 6.", "The smallest possible value is 6.",
                                        "The expected value is 6.", "The total is 6.", "Total: 6", "Sam has 2 and 4.\nTotal: 6"])
def test_a_headed_subject_still_labels_lenients_last_value(completion: str) -> None:
    """A head noun (`value`, `total`) and `possible` after a superlative (the bound asked for)."""
    assert problem_verdicts(completion, "") == LENIENT_ONLY


# fx29bf's class-3 cost: a math step's lead before a colon (`grammar._step_lead`, `STEP_WORDS`).
D = "\n\\[x = 6\\]\n\\boxed{6}"
test_a_colon_lead_that_is_no_step_stays_refused = refused_test(_cases([
    "Maybe we add them:" + D, "Multiply by 1000:" + D, "Round to the nearest ten:" + D, "If we add them:" + D,
    "Estimating the total:" + D, "Converting to thousands:" + D, "We don't add them:" + D, "Calculating roughly:" + D,
    "Compute the possible value:" + D, "Add 1000:" + D, "Calculate the error:" + D, "We guess:" + D, "Check:" + D,
    "Check: \\boxed{6}", "Using: \\boxed{6}", "Verifying:" + D,
    "Maybe:\nx = 6\n\\boxed{6}", "单位：千\nx = 6\n\\boxed{6}", "We add them:\n2 + 4 = 6\n\\boxed{7}",
    "Solve for $x$:\n\\[x = 6\\]\n\\boxed{7}", "Simplifying the fraction:\n\\[\n\\frac{12}{2} = 7\n\\]\n\n\\[\n\\boxed{7}\n\\]",
]))
test_a_steps_colon_above_math_leaves_the_box_standing = paid_test(_cases([
    "Let's compute the sum:\n\\[2 + 4 = 6\\]\n\\boxed{6}", "Adding these:\n2 + 4 = 6\n\\boxed{6}", "Solve for $x$:" + D,
    "We add them up:" + D, "Simplifying the expression:" + D, "Let us evaluate the sum of $a$ and $b$:" + D,
    "Finally, calculate \\( k \\):\n\\[\nk = 2 + 4 = 6\n\\]\n\n\\(\\boxed{6}\\)", "We add them:\n2 + 4 = 6\n\\boxed{6}",
    "Calculate $k$: \\boxed{6}",
]))
