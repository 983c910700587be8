"""A concluding last sentence (`grammar.concludes`, `extract._concluding`; docs/math.md "Answer grammar", "A concluding
sentence"): with no box and no anchor in the response, its last sentence is its answer when it opens with a concluding
connective (`So,`, `Thus,`, `Therefore,`, `Hence,`), names a quantity and links it to one value (`So, the perimeter
of ABCD is 2(6 + 3) = 18.`, MathVista's pid602), in both profiles, graded by the real grader (`grade_math`). Everything
else in that sentence and after it is read as a box in the value's place would be, so each admitted shape has near
misses, the same shape with a hedge, a scale, a negation, a second value, a subject that names another quantity or a
retraction after it, which must never pay."""

from __future__ import annotations

import pytest

from tests.helpers import math_verdicts as verdicts
from verifier.math import extract_answer

# Each was `no_answer` in both profiles before concluding sentences were read (MathVista's pid602 among them).
REWRITES = [
    "So, the perimeter of ABCD is 2(6 + 3) = 18.", "So the perimeter of ABCD is 18.", "Thus, the total cost is $18.",
    "Therefore, the area of the rectangle is 18 square units.", "Hence, the number of students is 18.",
    "So, $x = 18$.", "Thus $x = 2 \\cdot 9 = 18$.", "Therefore, the answer to part (a) is $18$.",
    "So, the total number of apples is 18.", "Thus, the perimeter = 18 cm.", "So, $P = 2(6 + 3) = 18$.",
    "We add the sides.\n\nSo, the perimeter of rectangle ABCD is 18 cm.", "Therefore, x is 18.",
    "So, the length of $AB$ is $18$.", "Thus, the perimeter of $ABCD$ is $2(6 + 3) = 18$.",
    "So, the perimeter is 18. I hope it is correct.", "**So, the perimeter is 18.**",
]

NEAR_MISSES = [
    # a hedge or a modal
    "So, the answer would be 18.", "So, the perimeter is probably 18.", "So, maybe the perimeter is 18.",
    "So, the perimeter could be 18.", "So, the perimeter is about 18.", "So, I think the perimeter is 18.",
    "So, the perimeter is approximately 18.", "So, if n is odd, the perimeter is 18.",
    # a scale or an operation
    "So, the perimeter is 18 thousand.", "So, the perimeter in thousands is 18.", "So, half the perimeter is 18.",
    "So, twice the perimeter is 18.", "So, the reciprocal of x is 18.", "So, $2x = 18$.", "So, $x^2 = 18$.",
    "So, $\\frac{x}{1000} = 18$.", "So, the perimeter divided by 1000 is 18.",
    # a negation, a bound or a second value
    "So, the perimeter is not 18.", "So, the perimeter is at least 18.", "So, the perimeter is 18 or 19.",
    "So, the perimeter is between 17 and 18.", "So, the area is 6 and the perimeter is 18.", "So, the perimeter is -18.",
    # not the last sentence, or questioned
    "Maybe the perimeter is 18.", "So, the perimeter is 18. Wait, that's wrong.", "So, the perimeter is 18. No, it is 20.", "So, the perimeter is 18?",
    "So, the perimeter is 18. Let me recheck.",
    # a subject that names no quantity
    "So, the error is 18.", "So, my first guess is 18.", "So, the wrong answer is 18.",
]


# Right values in sentences that are no conclusion: no named quantity (a pronoun, a step, an agent, a computation alone)
# or no concluding connective. The strict profile does not read them (`no_answer`); the lenient profile's last-number
# fallback reads some of them, as before (docs/math.md "Answer grammar", "Lenient").
NOT_CONCLUDING = [
    "So, it is 18.", "So, there are 18.", "So, we get 18.", "So, Sam has 18.", "So, this gives 18.", "So, 2 + 16 = 18.",
    "So, 18.", "The perimeter is 18.", "Finally, the perimeter is 18.", "Then the perimeter is 18.",
    "Since the sides are 6 and 3, the perimeter is 18.", "So, since $a = 6$, the perimeter is 18.",
]


@pytest.mark.parametrize("completion", NOT_CONCLUDING)
def test_a_sentence_that_is_no_conclusion_is_not_read_by_strict(completion: str) -> None:
    assert verdicts(completion, "18")[0] == "no_answer"


@pytest.mark.parametrize("completion", REWRITES)
def test_a_concluding_sentence_pays(completion: str) -> None:
    assert verdicts(completion, "18") == ["correct", "correct"]


@pytest.mark.parametrize("completion", NEAR_MISSES)
def test_a_concluding_sentence_never_admits_a_near_miss(completion: str) -> None:
    assert "correct" not in verdicts(completion, "18")


def test_a_concluding_sentence_is_read_only_without_a_box_or_an_anchor() -> None:
    """A box or an anchor is the answer as before, and a concluding sentence after it is what follows it: it must close
    the answer (`grammar.closes`), so a second value there leaves no answer; the source says which reading was used."""
    assert extract_answer("So, the perimeter is 18.").source == "concluding"
    assert extract_answer("So, the perimeter is 18.", "lenient").text == "18"
    assert verdicts("\\boxed{20}. So, the perimeter is 18.", "18") == ["no_answer", "no_answer"]
    assert verdicts("The answer is 20. So, the perimeter is 18.", "18") == ["no_answer", "no_answer"]
    assert "correct" not in verdicts("So, the perimeter is 18.", "20")


def test_an_unfinished_sentence_concludes_nothing() -> None:
    """A truncated trace may stop inside its value (`So, the sum is 12` of `120`): strict reads a concluding sentence
    only with its end mark (the lenient profile's last-number fallback reads unfinished sentences, as before)."""
    assert extract_answer("So, the perimeter is 18").source == "none"
    assert extract_answer("So, the perimeter is $18$").source == "none"
    assert extract_answer("So, the perimeter is 18 cm.").text == "18"
    assert extract_answer("So, the perimeter is $18$.**").text == "18"
