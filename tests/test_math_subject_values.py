"""A subject names; it never states a value (fx29s, issue 29; red team 13 classes 1, 3, 5-8; docs/math.md "Answer
grammar", "A subject names").

A box's subject (`The value of $x$ is \\boxed{6}`) and a concluding sentence's (`So, the value of $x$ is 6.`) may hold a
numeral, a number word, or math holding a numeral or an operator only at a `grammar.SUBJECT_VALUE_PLACES` position;
anywhere else the value is a second value beside the answer's (`The value of 1000 $x$` states 1000x = 6). The subject
is read folded (`unicode_math.to_ascii_math`) before any reading, and a condition's math only as `conditions.reads`
reads it whole. Graded by the real grader in both profiles (`tests.helpers.math_verdicts`); gold 6 unless a case says
otherwise. Near misses first (24 of the 37 paid in both profiles on main before fx29s; the others were refused there
already and stay as the rule's near misses), then one or more rewrites per allowlisted position (all paid before and
after), then a fuzz: values inserted at every token position of right-answer subjects (15 of its 246 cases that must
be refused paid before fx29s, e.g. `The number of boxes 1000 that hold 7 apples`, `... such that $x \\ge 1$ $1000$`).
"""

from __future__ import annotations

import random
import re

import pytest

from tests.helpers import MATH_CASE_PARAMS as PARAMS, math_verdicts as verdicts
from tests.helpers import number_case as n, paid_test, refused_test

V = "The value of $x$ such that"
A = "The number of apples"

# Near misses by class (red team 13's numbering); new wordings beside the red team's own.
NEAR = [
    # 1. a value beside math in an object
    n("The value of 1000 $y$ is \\boxed{6}."), n("The perimeter of 3 $ABC$ is \\boxed{6}."),
    n("The value of $10^3$ $x$ is \\boxed{6}."), n("The value of 1000 times $x$ is \\boxed{6}."),
    n("The value of $x$ 1000 is \\boxed{6}."), n("The value of 1000 $a_1$ is \\boxed{6}."),
    n("The value of $\\frac{1}{1000}$ $x$ is \\boxed{6}."), n("So, the perimeter of 3 $ABC$ is 6."),
    n("The value 1000 of $x$ is \\boxed{6}."), n("The value of $x$ in 1000 is \\boxed{6}."),
    # 3. a relation the condition reader does not see (read folded; non-ASCII unread)
    n(f"{V} $x ∈ \\{{7\\}}$ is \\boxed{{6}}."), n(f"{V} $x ≈ 7$ is \\boxed{{6}}."), n(f"{V} $x ⩦ 7$ is \\boxed{{6}}."),
    n(f"{V} $x ＜ 7$ and $x ＞ 7$ is \\boxed{{6}}."), n(f"{V} $x ≥ 7$ and $x ≤ 7$ is \\boxed{{6}}."),
    n(f"{V} $x ≣ 7$ is \\boxed{{6}}."), n("So, the value of $x$ such that $x ≐ 7$ is 6."),
    # 5. a count in a clause after no counting verb
    n(f"{A} that comes to 7 apples is \\boxed{{6}}."), n(f"{A} that gives 7 apples is \\boxed{{6}}."),
    n(f"{A} that adds 7 apples is \\boxed{{6}}."), n(f"{A} that yields 7 apples is \\boxed{{6}}."),
    n(f"{A} that sums 7 apples is \\boxed{{6}}."), n(f"{A} (that sum to seven apples) is \\boxed{{6}}."),
    # 6. a count after an opener inside a copula's span
    n(f"{A} that is which 7 apples is \\boxed{{6}}."), n(f"{A} that are that 7 apples is \\boxed{{6}}."),
    n(f"{A} which is such that seven apples is \\boxed{{6}}."),
    # 7. a count of the subject's own quantity
    n("The number of seven apples is \\boxed{6}."), n("The total of 7 boxes is \\boxed{6}."),
    n("The sum of 3 numbers is \\boxed{6}."), n("The number of the 7 apples is \\boxed{6}."),
    n("The sum of 10 terms is \\boxed{6}."), n("So, the number of 7 apples is 6."),
    # 8. bounds that leave one integer (an integer head's unknown is an integer)
    n("The prime $p$ such that $6 < p < 8$ is \\boxed{6}."),
    n("The natural number $n$ such that $n \\le 0$ is \\boxed{6}."),
    n("The negative integer $n$ such that $n > -2$ is \\boxed{6}."),
    n("The smallest positive integer $n$ such that $n < 2$ is \\boxed{6}."),
    n("The integers $n$ such that $6 < n < 8$ is \\boxed{6}."),
]
test_a_subject_stating_a_value_never_pays = refused_test(
    NEAR, """A value outside `grammar.SUBJECT_VALUE_PLACES`, a condition read unfolded or unread, a count after no
    counting verb, a count of the subject's own quantity, bounds leaving one integer: refused in both profiles.""")


# Rewrites: one or more per allowlisted position (`grammar.SUBJECT_VALUE_PLACES`), which must keep paying.
REWRITES = [
    # the whole `of` object, alone
    n("The value of $\\binom{4}{2}$ is \\boxed{6}."), n("The value of $2^{10}$ is \\boxed{1024}.", "1024"),
    n("The number of multiples of 7 is \\boxed{6}."), n("The number of positive divisors of $12$ is \\boxed{6}."),
    n("So, the value of $\\binom{4}{2}$ is 6."),
    # an own name
    n("The value of $f(3)$ is \\boxed{6}."), n("The value of $a_{2024}$ is \\boxed{6}."),
    n("The value of $x + y$ is \\boxed{6}."), n("The value of $a_1 + a_2$ is \\boxed{6}."),
    # an operand
    n("The coefficient of $x^2$ is \\boxed{6}."), n("The units digit of $3^{2024}$ is \\boxed{6}."),
    # a remainder's division
    n("The remainder when $3^{2024}$ is divided by 7 is \\boxed{6}."),
    n("The remainder when $N$ is divided by $1000$ is \\boxed{6}."),
    # an ordinal count
    n("The sum of the first 10 terms is \\boxed{6}."),
    # a numbered range (no whole numbers: fx29u)
    n("The number of primes between 1 and 15 is \\boxed{6}."),
    # a condition read whole (folded first)
    n("The smallest positive integer $n$ such that $n^2 > 30$ is \\boxed{6}."),
    n(f"{V} $x ≥ 1$ is \\boxed{{6}}."), n(f"{V} $1 \\le x \\le 7$ is \\boxed{{6}}."),
    n("The number of points that lie on the line $y = 2x + 7$ is \\boxed{6}."),
    n("The integer $n$ such that $n = 2k + 1$ is \\boxed{6}."),  # fx29w: `smallest` here has no optimum (refused)
    n("The value of $x$ such that $x \\equiv 106 \\pmod{100}$ is \\boxed{6}."),  # fx29v: `7 \\pmod{100}` excludes the box
    # a counting verb's object
    n("The number of boxes that hold 7 apples is \\boxed{6}."), n(f"{A} that has 7 apples is \\boxed{{6}}."),
    # the infinitive after `ways`: a plain count after a counting verb or `of`
    n("The number of ways to choose 2 of 4 is \\boxed{6}."), n("The number of ways to choose $2$ of $4$ is \\boxed{6}."),
    n("The number of ways to arrange 3 books is \\boxed{6}."), n("So, the number of ways to choose 2 of 4 is 6."),
    # names after a word (fx29u, red team 14 class 2), in every path (class 1)
    n("The number of integers $p$ and $q$ is \\boxed{6}."), n("The sum of $p$'s roots is \\boxed{6}."),
    n("The x-coordinate of $P$ is \\boxed{6}."), n("- The value of $x$ is \\boxed{6}."),
    n("So, the value of $x$ is 6."), n("So, the value of $x + y$ is 6."), n("So, the perimeter of rectangle $ABCD$ is 6."),
    # an angle's name with its digit, in every path (`∠3`: the box's grammar reads it as the prose reader did)
    n("$\\angle 3$ is \\boxed{6}."), n("So, $\\angle 3$ is 6."),
    # a subject before a comma and its link is read (fx29u)
    n("Thus, the value of $x$, is \\boxed{6}."),
    # an ordinal count under a sum
    n("The sum of the first 3 terms is \\boxed{6}."),
]


test_a_subject_with_a_value_in_an_allowlisted_place_still_pays = paid_test(REWRITES)


# fx29u (red team 14): near misses per class closed, beside the red team's own wordings.
NEAR_14 = [
    # 1. one subject reader: lenient's last sentence reads the box's subject grammar
    n("The value of $-y$ is 6."), n("Hence, the area of $-ABC$ is 6."), n("The value of $\\lceil x \\rceil$ is 6."),
    n("Thus, the value of $\\tan x$ is 6."), n("The value of 1000 $x$ is 6."), n("The number of 7 apples is 6."),
    # 2. a token before a name
    n("The value of $\\cdot$ $x$ is \\boxed{6}."), n("The value of $\\div$ $y$ is \\boxed{6}."),
    n("The value of $\\alpha$ $x$ is \\boxed{6}."), n("The value of $\\mathrm{G}$ $x$ is \\boxed{6}."),
    n("The value of | $x$ | is \\boxed{6}."), n("The value of - x is \\boxed{6}."), n("The area of $e$ $ABCD$ is \\boxed{6}."),
    n("The value of $\\mathrm{m}y$ is \\boxed{6}."), n("The value of $x$ $y$ is \\boxed{6}."),
    n("The value of K $x$ is \\boxed{6}."), n("Thus, the value of $\\pi$ $y$ is 6."),
    # a subject split from its link by a comma (found here: its clause was read as `is` alone)
    n("The value of 1000 $x$, is \\boxed{6}."), n("The value of $x$, which is $x^7$, is \\boxed{6}."),
    n("The value of 1000 $x$, therefore, is \\boxed{6}."),
    # 4. a copula through a counted object
    n(f"{A} that becomes the sum of 7 apples is \\boxed{{6}}."), n(f"{A} that is the total of seven apples is \\boxed{{6}}."),
    n(f"{A} which can be written as the sum of 7 apples is \\boxed{{6}}."),
    # 5. the degree's label
    n("The degree of $p(x)$ (which is the polynomial 7) is \\boxed{6}."),
    n("The degree of $f(x)$ (which is a constant polynomial 1) is \\boxed{6}."),
    # 6. an ordinal count under a counting head
    n("The count of the last 7 apples is \\boxed{6}."), n("The total of the first 7 terms is \\boxed{6}."),
    n("The number of terms of the first 7 terms is \\boxed{6}."),
    # 7. a whole-number range, whatever follows
    n("The number of integers between 1 and 7 that are even is \\boxed{6}."),
    n("The number of digits between 1 and 7 such that $d > 0$ is \\boxed{6}."),
    n("The number of numbers between 0 and 7 which are positive is \\boxed{6}."),
    # 8. the ways infinitive
    n("The number of ways to choose 2 of 4 plus 7 is \\boxed{6}."), n("The number of ways to choose 2 of 4 then 7 is \\boxed{6}."),
    n("The number of ways to choose 2 of $4 + 3$ is \\boxed{6}."), n("The number of ways to choose 2 of 4, 7 is \\boxed{6}."),
]
test_a_subject_closed_by_fx29u_never_pays = refused_test(
    NEAR_14, """Red team 14's classes 1, 2, 4-8 closed by shrinking the allowlist: one subject reader, names after a
    word only, no count after a copula, no operand label, no ordinal count under a counting head, no whole-number
    range, and only a plain count after a counting verb or `of` in the `ways` infinitive.""")

# Recall given up by fx29u (each paid before; refused by the smaller grammar, never paid wrong).
GIVEN_UP = [
    # class 7: a whole-number range with a condition
    n("The number of integers $n$ between 1 and 100 such that $n^2 < 40$ is \\boxed{6}."),
    # classes 4 and 7: math-verify's open_thoughts row (tests/data/peers/disagreements.jsonl)
    n("The number of years that can be written as the sum of two positive integers $p$ and $q$ such that $2p = 5q$ "
      "is \\boxed{6}."),
    # class 5: math-verify's degree row
    n("The degree of $p(x)$ (which is the constant polynomial 1) is \\boxed{0}.", "0"),
    # class 2: upright letters in a name, a name after a comma, an adverb between subject and link
    n("The value of $\\angle \\mathrm{ABC}$ is \\boxed{6}."), n("The value of $x$, therefore, is \\boxed{6}."),
]
test_a_subject_fx29u_gives_up_is_refused = refused_test(
    GIVEN_UP, """The rule's recall cost (docs/math.md "Answer grammar", "A subject names"): refused, never paid.""")


# Fuzz: a value inserted at every token position of right-answer subjects never pays, unless the position is
# allowlisted. `allowed`: the insertion positions (token gaps, 0 before the first token) where a value is in an
# allowlisted place (the `ways` infinitive admits its data anywhere after `to`).
SUBJECTS: list[tuple[str, frozenset[int]]] = [
    ("The value of $x$", frozenset()), ("The length of $AB$", frozenset()), ("The area of the trapezoid", frozenset()),
    ("The number of multiples of 7", frozenset()), ("The units digit of $3^{2024}$", frozenset()),
    ("The remainder when $N$ is divided by 7", frozenset()), ("The sum of the first 10 terms", frozenset()),
    ("The number of primes between 1 and 15", frozenset()), ("The number of boxes that hold 7 apples", frozenset()),
    ("The value of $x$ such that $x \\ge 1$", frozenset()), ("The coefficient of $x^2$", frozenset()),
    ("The number of ways to choose 2 of 4", frozenset({6, 8})),
]
INSERTS = ["1000", "7", "seven", "one", "1,000", "0.5", "$1000$", "$2x$", "$2^{10}$", "$x+1$", "$\\frac{1}{2}$", "$7y$"]


def _fuzz_cases() -> list[tuple[str, bool]]:
    rng = random.Random(29)
    cases = []
    for subject, allowed in SUBJECTS:
        words = re.findall(r"\$[^$]*\$|\S+", subject)  # a math segment is one token
        for gap in range(len(words) + 1):
            for value in rng.sample(INSERTS, 3):
                text = " ".join(words[:gap] + [value] + words[gap:])
                cases.append((f"{text} is \\boxed{{6}}.", gap in allowed))
    return cases


FUZZ = _fuzz_cases()


@pytest.mark.parametrize(("completion", "allowed"), FUZZ)
def test_a_value_inserted_into_a_subject_never_pays(completion: str, allowed: bool) -> None:
    got = verdicts(completion, "6")
    if not allowed:
        assert "correct" not in got, got
    else:
        assert got in (["correct", "correct"], ["incorrect", "incorrect"], ["no_answer", "no_answer"]), got


# fx29u: a token that is no word right before a name (red team 14 class 2), and the lenient path (class 1): the
# same subjects as a last sentence with no box, where a value or a token inserted never pays either.
NAMED = ["The value of $x$", "The length of $AB$", "The perimeter of rectangle $ABCD$", "The value of $x$ such that "
         "$x \\ge 1$", "The coefficient of $x^2$", "The number of integers $p$ and $q$"]
BEFORE_NAMES = ["-", "$-$", "$\\pi$", "$e$", "M", "$\\mathrm{k}$", "$\\sqrt{}$", "$\\times$", "|", "$\\infty$", "$7$", "1000"]


def _before_name_cases() -> list[str]:
    rng = random.Random(14)
    cases = []
    for subject in NAMED:
        words = re.findall(r"\$[^$]*\$|\S+", subject)
        for k, word in enumerate(words):
            if word.startswith("$") or len(word) == 1 and word.isupper():
                for token in rng.sample(BEFORE_NAMES, 4):
                    cases.append(" ".join(words[:k] + [token] + words[k:]))
    return cases


BEFORE_NAME_FUZZ = _before_name_cases()


@pytest.mark.parametrize("subject", BEFORE_NAME_FUZZ)
def test_a_token_before_a_name_never_pays(subject: str) -> None:
    assert "correct" not in verdicts(f"{subject} is \\boxed{{6}}.", "6")
    assert "correct" not in verdicts(f"So, {subject[0].lower()}{subject[1:]} is 6.", "6")


LENIENT_FUZZ = [(text.replace(" is \\boxed{6}.", " is 6."), allowed) for text, allowed in FUZZ[::3]]


@pytest.mark.parametrize(("completion", "allowed"), LENIENT_FUZZ)
def test_a_value_inserted_into_a_last_sentence_never_pays(completion: str, allowed: bool) -> None:
    """The fuzz again as a last sentence with no box (lenient's fallback, strict's `no_answer`): one subject reader."""
    got = verdicts(completion, "6")
    if not allowed:
        assert "correct" not in got, got
    else:
        assert got in (["no_answer", "correct"], ["no_answer", "no_answer"], ["no_answer", "incorrect"]), got


@pytest.mark.parametrize(PARAMS, [n(s + " is \\boxed{6}.") for s, _ in SUBJECTS] + [
    n(s + " is \\boxed{6}.") for s in NAMED] + [n(f"So, {s[0].lower()}{s[1:]} is 6.") for s in NAMED])
def test_each_fuzzed_subject_pays_as_written(completion: str, gold: str, choices: list[str] | None) -> None:
    """The fuzz's baseline: every subject pays before a value is inserted, so a refusal is the insertion's."""
    assert verdicts(completion, gold, choices) == ["correct", "correct"]


# fx29w (red team 15 class 4): inside a preposition's object a name stands only after a determiner, a preposition, an
# adjective, `and`, or a labelled object's noun before a label long enough for it (`grammar._LABELLED_BY`): a noun
# right before a name is an operation on it (`square $x$` is x^2).
NOUN_BEFORE_NAME_NEAR = [n(c) for c in [
    "The value of power $x$ is \\boxed{6}.", "The value of the quotient $x$ is \\boxed{6}.",
    "The sum of square $a$ and $b$ is \\boxed{6}.", "The length of side $A$ is \\boxed{6}.",
    "The area of triangle $AB$ is \\boxed{6}.", "The value of the point $x$ is \\boxed{6}.",
    "So, the value of root $y$ is 6.", "The area of square $x$ is \\boxed{6}.",
]]
NOUN_BEFORE_NAME_SAME = [n(c) for c in [
    "The area of square $ABCD$ is \\boxed{6}.", "The area of triangle $ABC$ is \\boxed{6}.",
    "The length of segment $AB$ is \\boxed{6}.", "The distance from point $P$ to line $AB$ is \\boxed{6}.",
    "The area of the triangle $ABC$ is \\boxed{6}.", "The sum of $p$ and $q$ is \\boxed{6}.",
    "The value of the positive $x$ is \\boxed{6}.", "So, the perimeter of rectangle $ABCD$ is 6.",
]]
test_a_noun_before_a_name_in_an_object_never_pays = refused_test(NOUN_BEFORE_NAME_NEAR)
test_a_labelled_object_before_its_label_still_pays = paid_test(NOUN_BEFORE_NAME_SAME)
