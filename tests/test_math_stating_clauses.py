"""Stating main clauses before a box or an anchor (`grammar.STATING_CLAUSES`, docs/math.md "Answer grammar",
"Stating clauses"): `We see that the answer is \\boxed{6}`, `It follows that $x = \\boxed{6}$`, `In total it is
\\boxed{6}` state the gold and pay, in both profiles, graded by the real grader (`grade_math`). The clause after
the stating one is read by the same grammar as a sentence start, so each admitted shape has near misses, the same
shape with a hedge, a scale, a negation, a second value or a judging main clause, which must never pay."""

from __future__ import annotations

import pytest

from verifier.math import grade_math

PROFILES = ("strict", "lenient")


def verdicts(completion: str, gold: str = "6") -> list[str]:
    return [grade_math({"completion": completion, "gold": gold, "profile": p})["verdict"] for p in PROFILES]


# Each refused (`no_answer` in both profiles) before the stating clauses were admitted, but `This means the answer
# is \\boxed{6}.`, which paid already and is kept as a guard.
REWRITES = [
    "We see that the answer is \\boxed{6}.", "We conclude that the answer is \\boxed{6}.",
    "Thus we see that the answer is $\\boxed{6}$.", "This means the answer is \\boxed{6}.",
    "It is clear that x is \\boxed{6}.", "It follows that $x = \\boxed{6}$.", "In total it is \\boxed{6}.",
    "In total, there are \\boxed{6} apples.", "It follows that x is \\boxed{6}.", "It is also \\boxed{6}.",
    "Putting these together gives \\boxed{6}.", "This gives us \\boxed{6}.",
    "We see that the answer is 6.", "We conclude that the answer is 6.", "So we find that the answer is 6.",
    "Hence we know that the total is \\boxed{6}.", "We obtain that $n = \\boxed{6}$.",
    "It is evident that the value is \\boxed{6}.", "It is easy to see that the answer is \\boxed{6}.",
    "Therefore, it follows that the answer is $6$.", "Which shows that the number of apples is \\boxed{6}.",
    "This gives us that $x = \\boxed{6}$.", "Altogether it is \\boxed{6}.", "In all, there are \\boxed{6} apples.",
    "Putting it all together gives us \\boxed{6}.", "In total we get \\boxed{6}.", "x is just \\boxed{6}.",
    "Combining these, we get \\boxed{6}.", "So in total, Sam has \\boxed{6} apples.", "We can see that the answer is $\\boxed{6}$.",
    "Thus, it is clear that the answer is 6.", "By symmetry, the answer is \\boxed{6}.",
    "By Vieta's formulas, the sum of the roots is \\boxed{6}.",
]

NEAR_MISSES = [
    # a hedge after the stating clause
    "We see that maybe the answer is \\boxed{6}.", "We see that maybe x is \\boxed{6}.",
    "We see that maybe the answer is 6.", "It is clear that the answer is probably 6.",
    "This gives us maybe \\boxed{6}.", "This gives us about \\boxed{6}.", "It is also about \\boxed{6}.",
    "Putting these together gives roughly \\boxed{6}.", "Altogether it is roughly \\boxed{6}.",
    "In all, the answer would be \\boxed{6}.", "We see that the answer could be \\boxed{6}.",
    "We can see that x might be \\boxed{6}.", "In total, maybe there are \\boxed{6} apples.",
    # a scale
    "We know that in thousands it is \\boxed{6}.", "Thus we see that in thousands the answer is $\\boxed{6}$.",
    "We see that the answer in thousands is \\boxed{6}.", "In total, there are \\boxed{6} thousand apples.",
    "We see that the answer is 6 thousand.", "In total we get \\boxed{6} thousand.", "It follows that $2x = \\boxed{6}$.",
    "We see that the reciprocal of x is \\boxed{6}.",
    # a negation or a bound
    "It is clear that x is not \\boxed{6}.", "We conclude that the answer is not 6.", "In total it is not \\boxed{6}.",
    "It is also not \\boxed{6}.", "This gives us -\\boxed{6}.", "It follows that x is at least \\boxed{6}.",
    "This means x is at most \\boxed{6}.", "It is clear that x is \\boxed{6} or less.", "It is easy to see that x is -\\boxed{6}.",
    # a second value
    "We see that the answer is 6 or 7.", "We see that the answer is \\boxed{6} or \\boxed{7}.",
    "We see that x is \\boxed{6} and y is \\boxed{7}.",
    # a main clause that judges, conditions or doubts: none is a stating clause
    "It is likely that x is \\boxed{6}.", "It is likely that the answer is \\boxed{6}.", "It is possibly \\boxed{6}.",
    "We think that the answer is \\boxed{6}.", "We guess that the answer is \\boxed{6}.",
    "It is possible that the answer is \\boxed{6}.", "It is not clear that x is \\boxed{6}.",
    "We do not see that x is \\boxed{6}.", "We don't know that x is \\boxed{6}.",
    "It is clear that if n is odd, x is \\boxed{6}.", "We see that if n is odd then x is \\boxed{6}.",
    "We conclude that the wrong answer is \\boxed{6}.", "It follows that the error is \\boxed{6}.",
    "We see that the answer is \\boxed{6}? Wrong.", "So in total maybe, the answer is \\boxed{6}.",
    "Combining these incorrectly, we get \\boxed{6}.", "So in thousands, the answer is \\boxed{6}.",
    "So in total, maybe the answer is 6.", "By my guess, the answer is \\boxed{6}.", "By a rough estimate, it is \\boxed{6}.",
    # a preposition's phrase that is no opener of STATING_CLAUSES (red team 4 class 3)
    "In thousands we get \\boxed{6}.", "At best we get \\boxed{6}.", "In thousands $x = \\boxed{6}$.",
    "Under the assumption we get \\boxed{6}.", "By rounding we get \\boxed{6}.",
]


CHOICES = ["3", "5", "7", "9"]
LETTER_REWRITES = ["We see that the answer is \\boxed{B}.", "It follows that the answer is B.", "This gives us \\boxed{B}."]
LETTER_NEAR_MISSES = ["We see that maybe the answer is \\boxed{B}.", "It is likely that the answer is B.",
                      "In thousands we get \\boxed{B}.", "We conclude that the answer is not B."]


def letter_verdicts(completion: str) -> list[str]:
    return [grade_math({"completion": completion, "gold": "B", "choices": CHOICES, "profile": p})["verdict"]
            for p in PROFILES]


@pytest.mark.parametrize("completion", LETTER_REWRITES)
def test_a_stating_clause_before_a_letter_pays(completion: str) -> None:
    assert letter_verdicts(completion) == ["correct", "correct"]


@pytest.mark.parametrize("completion", LETTER_NEAR_MISSES)
def test_a_stating_clause_never_admits_a_hedged_letter(completion: str) -> None:
    assert "correct" not in letter_verdicts(completion)


@pytest.mark.parametrize("completion", REWRITES)
def test_a_stating_clause_before_a_right_answer_pays(completion: str) -> None:
    assert verdicts(completion) == ["correct", "correct"]


@pytest.mark.parametrize("completion", NEAR_MISSES)
def test_a_stating_clause_never_admits_what_follows_it(completion: str) -> None:
    assert "correct" not in verdicts(completion)


@pytest.mark.timeout(60)  # a hang guard, not a timing assertion: the first pattern backtracked exponentially
@pytest.mark.parametrize("lead", ["so  ", "so , ", "thus \t", "and  "])
def test_runs_of_connectives_are_read_in_linear_time(lead: str) -> None:
    """Runs of spaced connectives before a refused clause (docs/math.md "Answer grammar", "Bounds"): with two
    adjacent `\\s*` in `grammar._STATING_PREFIX_RE` a failed match split each run of spaces every way."""
    for completion in (lead * 50 + "maybe the answer is 6.", lead * 50 + "we see that maybe x is \\boxed{6}."):
        assert "correct" not in verdicts(completion)
