"""A Yes/No reason's noun phrase is a closed vocabulary (issue 29; verifier/math/compare.py `yes_or_no`,
verifier/math/grammar.py `restating_word`; docs/math.md "Answer grammar", the Yes/No shapes): the restating shapes
were an allowlist, but their slot took any ten plain words not on a hedge list, so `\\text{Yes, there are Nope
solutions}` paid Yes. Near misses (an unknown word, a negation, a second yes/no, a hedge, a condition, a retraction
in the slot) are refused; rewrites keep paying; a seeded fuzz puts random words from the labelled solution prose
(tests/data/, about 3,300 distinct words) and random tokens in the slot: never paid unless every word is in the
vocabulary. Real grader (`math_verdicts`: both profiles), gold Yes or No.
"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path

import pytest

from helpers import math_verdicts
from verifier.math.grammar import CLAUSE_WORDS, OBJECT_WORDS, RESTATING_WORDS, restating_word

DATA = Path(__file__).parent / "data"
FUZZ_SEED = 2911
FUZZ_CASES = 240
SHAPES = ("Yes, there are {} solutions.", "Yes, such {} exist.", "No, there is no {}.", "No, there are no {} of them.",
          "Yes, there exist {}.", "No, such {} do not exist.")

NEAR = [  # (sentence in the box, gold)
    ("Yes, there are Nope solutions", "Yes"), ("Yes, there are nope solutions.", "Yes"),
    ("Yes, there are not solutions.", "Yes"), ("Yes, there are never solutions.", "Yes"),
    ("Yes, there are none such integers.", "Yes"), ("Yes, such nobody exists.", "Yes"),
    ("Yes, there are no yes solutions.", "Yes"), ("Yes, such yes n exist.", "Yes"), ("No, there is no no integer.", "No"),
    ("Yes, there are probably solutions.", "Yes"), ("Yes, there are maybe solutions.", "Yes"),
    ("Yes, there are solutions if n is odd.", "Yes"), ("Yes, there are solutions unless n is odd.", "Yes"),
    ("Yes, there are solutions when n is odd.", "Yes"), ("Yes, there are solutions wait actually none.", "Yes"),
    ("Yes, there are nein solutions.", "Yes"), ("Yes, there are widget solutions.", "Yes"),
    ("Yes, there are zero solutions.", "Yes"), ("Yes, there are only other solutions.", "Yes"),
    ("Yes, there are false solutions.", "Yes"), ("Yes, it is not.", "Yes"), ("No, it is.", "No"),
    ("Yes, such integers exist.", "No"), ("No, there is no such integer.", "Yes"),
]
SAME = [
    ("\\text{Yes}", "Yes"), ("\\textbf{No}", "No"), ("\\text{Yes.}", "Yes"), ("\\text{Yes, it is.}", "Yes"),
    ("\\text{No, it is not.}", "No"), ("\\text{No, there is no such integer.}", "No"),
    ("\\text{Yes, there are 3 solutions.}", "Yes"), ("\\text{Yes, there are 3 of them.}", "Yes"),
    ("\\text{Yes, such integers }n\\text{ greater than one exist.}", "Yes"),
    ("\\text{Yes, there are infinitely many real solutions.}", "Yes"), ("\\text{No, such a triangle does not exist.}", "No"),
    ("\\text{Yes, because } n = 6 \\text{ works.}", "Yes"),
]


@pytest.mark.parametrize("sentence, gold", NEAR)
def test_a_reason_with_a_word_outside_the_vocabulary_decides_nothing(sentence: str, gold: str) -> None:
    assert "correct" not in math_verdicts(f"So \\boxed{{\\text{{{sentence}}}}}", f"\\text{{{gold}}}")


@pytest.mark.parametrize("answer, gold", SAME)
def test_a_restating_reason_still_pays(answer: str, gold: str) -> None:
    assert math_verdicts(f"So \\boxed{{{answer}}}", f"\\text{{{gold}}}") == ["correct", "correct"]


def test_a_plain_yes_still_pays() -> None:
    assert math_verdicts("The answer is Yes.", "\\text{Yes}") == ["correct", "correct"]
    assert math_verdicts("The answer is Yes.", "\\text{No}") == ["incorrect", "incorrect"]


@cache
def _prose_words() -> tuple[str, ...]:
    """Distinct words of the labelled solution prose (tests/data/peer_outputs/, tests/data/peers/): a large English word
    list of the register a model writes in, with no download."""
    words: set[str] = set()
    for path in sorted([*DATA.glob("peer_outputs/*.jsonl"), *DATA.glob("peers/*.jsonl")]):
        for line in path.read_text(encoding="utf-8").splitlines():
            for value in json.loads(line).values():
                if isinstance(value, str):
                    words |= {w.lower() for w in re.findall(r"(?<![\\A-Za-z])[A-Za-z]{2,}(?![A-Za-z])", value)}
    return tuple(sorted(words))


INSIDE = sorted({w for group in (RESTATING_WORDS, CLAUSE_WORDS, OBJECT_WORDS) for e in group for w in e.words
                 if restating_word(w)})


def _slot(rng: random.Random) -> list[str]:
    """One to three words: from the prose list, from the vocabulary, or a random token."""
    def word() -> str:
        pick = rng.random()
        if pick < 0.45:
            return rng.choice(_prose_words())
        if pick < 0.85:
            return rng.choice(INSIDE)
        return "".join(rng.choice("abcdefghijklmnopqrstuvwxyzNY") for _ in range(rng.randint(2, 7)))
    return [word() for _ in range(rng.randint(1, 3))]


@pytest.mark.timeout(180)
def test_random_words_in_the_slot_never_pay_unless_all_are_in_the_vocabulary() -> None:
    rng = random.Random(FUZZ_SEED)
    paid_outside, inside = [], 0
    for _ in range(FUZZ_CASES):
        words, shape = _slot(rng), rng.choice(SHAPES)
        gold = shape.split(",")[0]
        completion = f"So \\boxed{{\\text{{{shape.format(' '.join(words))}}}}}"
        if all(restating_word(w.lower()) and w.islower() for w in words):
            inside += 1
            continue
        if "correct" in math_verdicts(completion, f"\\text{{{gold}}}"):
            paid_outside.append(completion)
    assert not paid_outside, "\n".join(paid_outside[:20])
    assert FUZZ_CASES // 10 < inside < FUZZ_CASES // 2  # both kinds are drawn


def test_the_prose_list_is_large_and_mostly_outside() -> None:
    """The fuzz draws from thousands of words, most of them outside the vocabulary (else it would test little)."""
    words = _prose_words()
    assert len(words) > 2000
    assert sum(map(restating_word, words)) < len(words) // 4
