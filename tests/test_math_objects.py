"""The object of a subject's `of` (and `between`, `among`) and its relative clause read from a closed vocabulary
(docs/math.md "Answer grammar", "Before a box"; `grammar.OBJECT_WORDS`, `grammar.CLAUSE_WORDS`): issue 29's last
allowlist exception, where an unknown noun-shaped word after the object was admitted (`The perimeter of ABCD taken
is \\boxed{6}`, `The area of the figure shrunk is \\boxed{6}` paid 6).

Near misses (an unknown word, an operation's participle, a hedge after the object, in a box's subject, a concluding
sentence, a math segment, a capitalised word, a relative clause, a closed preposition's object) must not pay;
rewrites (the phrasings the labelled sources use) must still pay; a seeded fuzz puts English words after `of X` and
asserts that only the vocabulary's words pay (before a link and before a verb of action). Graded by the real grader in both profiles (`math_verdicts`); no server.
"""

from __future__ import annotations

import random

import pytest

from tests.helpers import MATH_CASE_PARAMS as PARAMS, choice_case as mc, math_verdicts as verdicts, number_case as n
from verifier.math import grammar
from verifier.math.grammar import CLAUSE_WORDS, NEVER_NAMES, OBJECT_WORDS

OPERATIONS = "halved doubled taken shrunk rounded misread tripled negated inverted squared scaled truncated".split()
HEDGES = "wrongly probably roughly approximately carelessly possibly apparently surely presumably".split()
UNKNOWN = "widget sprocket gizmo taxed thing whatever".split()

NEAR = [
    *(n(f"The perimeter of ABCD {w} is \\boxed{{6}}.") for w in OPERATIONS + HEDGES + UNKNOWN),
    *(n(f"The area of the figure {w} is \\boxed{{6}}.") for w in ("shrunk", "halved", "misread", "enlarged")),
    *(n(f"So, the perimeter of ABCD {w} is 6.") for w in ("taken", "halved", "rounded", "wrongly")),
    *(n(f"The number of apples {w} is \\boxed{{6}}.") for w in ("doubled", "misread", "probably", "miscounted")),
    n("The perimeter of ABCD Halved is \\boxed{6}."), n("The perimeter of ABCD Taken is \\boxed{6}."),
    n("The perimeter of $halved$ is \\boxed{6}."), n("The perimeter of rectangle $doubled$ is \\boxed{6}."),
    n("Final Answer: the perimeter of $halved$ is 6."), n("The age of Halved is \\boxed{6}."),
    n("The number of apples that Sam halved is \\boxed{6}."), n("The perimeter of ABCD that was halved is \\boxed{6}."),
    n("The number of ways to halve it is \\boxed{6}."), n("The answer in Halves is \\boxed{6}."),
    n("The answer for Doubled is \\boxed{6}."), n("The number of apples taken by Sam is \\boxed{6}."),
    mc("The perimeter of ABCD taken is \\boxed{B}."), mc("The area of the figure shrunk is \\boxed{B}."),
    # a verb never vanishes into the link (`grammar._clause_verbs`; the fuzz below found the first two)
    n("The area of the figure find is \\boxed{6}."), n("The number of apples increased is \\boxed{6}."),
    n("The area of the figure find gets \\boxed{6}."), n("The farm increased sold \\boxed{6}."),
    n("The angle between the lines be is \\boxed{6}."), n("The angle between the lines have is \\boxed{6}."),
    n("The perimeter give is \\boxed{6}."), n("The perimeter given is \\boxed{6}."), n("Sam have has \\boxed{6}."),
    # the prose subject after an anchor (`grammar._subject`): the same link, a name only before its clause's verb and
    # one name per slot
    n("Final Answer: the number of apples increased is 6."), n("Final Answer: the number of apples that Halved is 6."),
    n("Final Answer: the number of apples that Wrongly is 6."), n("The answer: Wrongly Sam has 6 apples."),
    n("Final Answer: Sam Halved has 6 apples."),
]
"""Near misses: each must not pay in either profile."""

BOX_NEAR = [c for c in NEAR if "\\boxed" in c[0]]

SAME = [
    n("The perimeter of ABCD is \\boxed{6}."), n("The perimeter of $ABCD$ is \\boxed{6}."),
    n("The perimeter of rectangle $ABCD$ is \\boxed{6}."), n("The area of the trapezoid is \\boxed{6}."),
    n("The angle between the lines is \\boxed{6}."), n("The area of the shaded region is \\boxed{6}."),
    n("The volume of pyramid $ABCH$ is \\boxed{6}."), n("The sum of the roots of the polynomial is \\boxed{6}."),
    n("The number of apples remaining is \\boxed{6}."), n("The number of crates of apples is \\boxed{6}."),
    n("The expected number of heads is $\\boxed{6}$."), n("The probability that Alice wins is \\boxed{6}."),
    n("The probability that Alice wins the game is \\boxed{6}."), n("The number of ways to choose 2 of 4 is \\boxed{6}."),
    n("Thus, the values of $k$ for which the quadratic has real roots are: \\boxed{6}"),
    n("So, the number of apples eaten by Sam is 6."), n("The value of $xy$ is \\boxed{6}."),
    n("So, the perimeter of ABCD is 2(6 + 3) = 18.", "18"), n("So, the perimeter of ABCD is 6."),
    # the source's whole phrasing (`The number of years between 2000 and 3000 inclusive that can be written as ...`) is
    # refused since fx29u (red team 14 classes 4, 7; tests/test_math_subject_values.py GIVEN_UP)
    n("The number of apples Sam ate is \\boxed{6}."),
    n("Final Answer: the perimeter of $ABCD$ is 6."),
    mc("The perimeter of ABCD is \\boxed{B}."), n("The farm sold \\boxed{6}."), n("Sam has sold \\boxed{6}."),
    n("The total turns out to be \\boxed{6}."), n("The answer has been \\boxed{6}."), n("The answer will be \\boxed{6}."),
    n("Final Answer: the probability that Alice wins is 6."), n("Final Answer: Sam has 6 apples."),
    n("Final Answer: Maria's savings were 6 dollars."), n("Final Answer: the answer has been 6."),
    n("Final Answer: the total is equal to 6."),
]
"""Rewrites in the labelled sources' phrasings (tests/data/peer_outputs/, tests/data/peers/): each must pay."""


@pytest.mark.parametrize(PARAMS, NEAR)
def test_a_word_outside_the_object_vocabulary_never_pays(completion: str, gold: str, choices: list[str] | None) -> None:
    assert "correct" not in verdicts(completion, gold, choices)


@pytest.mark.parametrize(PARAMS, BOX_NEAR)
def test_a_box_whose_subject_has_an_unknown_object_word_is_no_answer(completion: str, gold: str,
                                                                     choices: list[str] | None) -> None:
    assert verdicts(completion, gold, choices) == ["no_answer", "no_answer"]


@pytest.mark.parametrize(PARAMS, SAME)
def test_an_object_in_the_sources_phrasing_still_pays(completion: str, gold: str, choices: list[str] | None) -> None:
    assert verdicts(completion, gold, choices) == ["correct", "correct"]


def test_every_vocabulary_group_has_a_reason_and_no_refused_word() -> None:
    """One home per group, each with its reason; no group lists a word the grammar refuses everywhere (a hedge, a
    scale, an operation on the value) or a participle of the near misses."""
    for entry in OBJECT_WORDS + CLAUSE_WORDS:
        assert entry.words and len(entry.reason) > 20
        assert not entry.words & (NEVER_NAMES | grammar._NOT_OBJECTS | set(OPERATIONS) | set(HEDGES))


ENGLISH = (
    "time year people way day man thing woman life child world school state family student group country problem "
    "hand part place case week company system program question work government number night point home water room "
    "mother area money story fact month lot right study book eye job word business issue side kind head house "
    "service friend father power hour game line end member law car city community name president team minute idea "
    "kid body information back parent face others level office door health person art war history party result "
    "change morning reason research girl guy moment air teacher force education be have do say go can get make know "
    "think take see come want look use find give tell work call try ask need feel become leave put mean keep let "
    "begin seem help talk turn start show hear play run move like live believe hold bring happen write provide sit "
    "stand lose pay meet include continue set learn lead understand watch follow stop create speak read allow add "
    "spend grow open walk win offer remember love consider appear buy wait serve die send expect build stay fall "
    "cut reach kill remain suggest raise pass sell require report decide pull halved doubled tripled quartered "
    "taken shrunk rounded misread miscounted misprinted reduced increased decreased enlarged reversed flipped "
    "rotated reflected truncated estimated guessed assumed computed given sold bought eaten left combined "
    "wrongly roughly probably possibly nearly almost maybe perhaps surely certainly clearly likely apparently "
    "carelessly quickly slowly exactly precisely about around over under above below again still just only also "
    "very too quite rather somewhat new good high old great big small large long little own other young important "
    "few public bad same able first last late hard major better best early free full whole sure real best-guess "
    "red blue green purple happy sad strange funny weird odd even prime shaded circle triangle trapezoid lines "
    "heads tails polynomial sequence function region figure shape part crates apples students"
).split()
"""A fixed list of common English words (nouns, verbs, participles, adverbs, adjectives) and a few of the
vocabulary's own: the fuzz's draw, seeded, so every run sees the same cases."""
FUZZ_SEED = 2929
FUZZ_CASES = 300
TEMPLATES = ("The perimeter of ABCD {} is \\boxed{{6}}.", "The area of the figure {} is \\boxed{{6}}.",
             "So, the perimeter of ABCD {} is 6.", "The number of apples {} is \\boxed{{6}}.",
             "The angle between the lines {} is \\boxed{{6}}.", "The area of the figure {} gets \\boxed{{6}}.")


def _fuzz_cases() -> list[tuple[str, str]]:
    rng = random.Random(FUZZ_SEED)
    cases = []
    for _ in range(FUZZ_CASES):
        word = rng.choice(ENGLISH)
        word = word.capitalize() if rng.random() < 0.2 else word
        cases.append((rng.choice(TEMPLATES).format(word), word))
    return cases


def test_english_words_after_an_object_never_pay_unless_in_the_vocabulary() -> None:
    """A random English word after `of X` (or `between X`) pays only when the object's vocabulary admits it
    (`grammar._object_word`: `OBJECT_WORDS`, LEXICON's `OBJECT_ROLES`, a point label); both kinds are drawn."""
    paid_outside, admitted = [], 0
    for completion, word in _fuzz_cases():
        if grammar._object_word(word):
            admitted += 1
            continue
        if "correct" in verdicts(completion, "6"):
            paid_outside.append(completion)
    assert not paid_outside, "\n".join(paid_outside[:20])
    assert FUZZ_CASES // 20 < admitted < FUZZ_CASES // 2
