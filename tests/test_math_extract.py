"""Unit tests of answer extraction (pure string work, no sympy)."""

from __future__ import annotations

import pytest

from verifier.math import Extraction, extract_answer
from verifier.math.choices import read_choice
from verifier.math.extract import clean_answer, extract_with_limits, last_box, last_math_segment
from verifier.math.limits import MathLimits
from verifier.math.unicode_math import to_ascii_math

SMALL = MathLimits(tail_chars=64, max_answer_chars=10)


def test_extraction_is_a_named_tuple():
    e = extract_answer(r"\boxed{5}")
    assert e == Extraction("5", "boxed")
    assert (e.text, e.source) == ("5", "boxed")


def test_default_profile_is_strict():
    assert extract_answer("we get 42") == Extraction(None, "none")
    assert extract_answer("we get 42", "lenient") == Extraction("42", "last")


def test_unknown_profile_raises():
    with pytest.raises(ValueError, match="profile"):
        extract_answer("x", "greedy")


@pytest.mark.parametrize(
    "text, content",
    [
        (r"\boxed{a{b}c}", "a{b}c"),
        (r"\boxed{\{1,2\}}", r"\{1,2\}"),
        (r"\boxed{\left\{ x \right.}", r"\left\{ x \right."),
        (r"\boxed {3}", "3"),
        (r"\fbox{1} \boxed{2}", "2"),
        (r"\boxed{1} \fbox{2}", "2"),
        (r"\boxedfoo{1} \boxed{2} \boxedbar{3}", "2"),
        ("no box here", ""),
        (r"\boxed{1} \boxed{2", None),
    ],
)
def test_last_box(text, content):
    assert last_box(text, MathLimits()) == content


def test_overlong_box_is_reported_not_dropped():
    e = extract_with_limits(r"\boxed{" + "1" * 50 + "}", "strict", None, SMALL)
    assert e.source == "boxed" and len(e.text) == SMALL.max_answer_chars + 1


def test_anchor_outside_tail_window_is_ignored():
    text = "Answer: 5\n" + " " * 100  # what follows the answer closes it (grammar.closes); only the window matters
    assert extract_with_limits(text, "strict", None, SMALL) == Extraction(None, "none")
    assert extract_with_limits(text[:20], "strict", None, SMALL) == Extraction("5", "anchor")


@pytest.mark.parametrize(
    "raw, clean",
    [("$5$.", "5"), ("**42**", "42"), (r"\(x+1\)", "x+1"), ("  7. ", "7"), ("3.5", "3.5"), ("$$\\pi$$", r"\pi")],
)
def test_clean_answer(raw, clean):
    assert clean_answer(raw) == clean


@pytest.mark.parametrize(
    "completion, text",
    [
        ("Final Answer: The final answer is $6$. I hope it is correct.", "6"),
        ("**Final Answer**: 12", "12"),
        ("The answer is: $x^2$", "x^2"),
        ("the answer is 3.5. Done", "3.5"),
        ("Answer:\n\n$\\frac{1}{2}$", r"\frac{1}{2}"),
        ("#### 72", "72"),
        ("The answer is \\(\\sqrt{2}\\)", r"\sqrt{2}"),
    ],
)
def test_anchor_forms(completion, text):
    assert extract_answer(completion) == Extraction(text, "anchor")


def test_equal_answers_give_equal_dedup_keys():
    forms = ["The answer is $42$.", "Answer: **42**", "Final Answer: 42", "#### 42", "The answer is 42."]
    assert {extract_answer(f).text for f in forms} == {"42"}


def test_think_close_wins_over_reasoning():
    text = r"<think>\boxed{1}</think> so \boxed{2} <think>"
    assert extract_answer(text) == Extraction("2", "boxed")


def test_unclosed_think_strict_vs_lenient():
    assert extract_answer("<think>the answer is 3") == Extraction(None, "none")
    assert extract_answer("<think>the answer is 3", "lenient") == Extraction("3", "anchor")


def test_last_math_segment_picks_the_latest():
    assert last_math_segment(r"$a$ then \(b\) then $$c$$") == (25, "c")
    assert last_math_segment(r"$a$ then \[b\]") == (14, "b")
    assert last_math_segment("none") is None


def test_lenient_prefers_later_of_number_and_segment():
    assert extract_answer("we get $x=2$. So 3 apples", "lenient") == Extraction("3", "last")
    assert extract_answer("We get 3 apples. So $x=2$", "lenient") == Extraction("x=2", "last")
    # Two values in the last sentence: no answer (docs/math.md "Answer grammar"; both were read before).
    assert extract_answer("we get $x=2$ so 3 apples", "lenient") == Extraction(None, "none")
    assert extract_answer("so 3 gives $x=2$", "lenient") == Extraction(None, "none")


@pytest.mark.parametrize(
    "answer, letter",
    [
        ("B", "B"), ("(b)", "B"), ("B.", "B"), ("option C", "C"), ("Choice (D)", "D"),
        ("D, not B", "D"), ("(A) 12", "A"), (r"\text{C}", "C"), ("**A**", "A"),
        ("none of the above.", "D"), ("42", "B"),
        ("a number", None), ("E", None), ("the first one", None),
        ("A or B", None), ("A, B, C, D", None), ("D, not B or C", "D"), ("C rather than A", "C"),
        # a leading letter with a value that is not its choice's text names none (MathVista's
        # `答案是 A (6)。` for A = 5 was paid); the same value in another spelling still names it
        ("B (42)", "B"), ("B (42).", "B"), ("(B) 42", "B"), ("B ($42$)", "B"), ("B (12)", None), ("A 42", None),
        ("B (421)", None), ("B (4.2)", None), ("C (7 cm)", None),
    ],
)
def test_read_choice(answer, letter):
    assert read_choice(answer, ["12", "42", "7", "None of the above"]) == letter


def test_choice_extraction_returns_the_letter():
    choices = ["1", "2", "3"]
    assert extract_answer(r"\boxed{(c)}", choices=choices) == Extraction("C", "choice")
    assert extract_answer("Answer: 2", choices=choices) == Extraction("B", "choice")
    assert extract_answer("Answer: seven", choices=choices) == Extraction("seven", "anchor")
    assert extract_answer("maybe (B)", choices=choices) == Extraction(None, "none")
    assert extract_answer("maybe (B)", "lenient", choices) == Extraction("B", "choice")


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "name, completion",
    [
        ("plain", "x" * 1_000_000),
        ("open braces", "\\boxed{" + "{" * 1_000_000),
        ("many boxes", "\\boxed{1}" * 110_000),
        ("many anchors", "Answer: 5\n" * 100_000),
        ("dollars", "$" * 1_000_000),
        ("math openers", "\\(" * 500_000),
        ("box-like commands", "\\boxedx" * 140_000),
        ("spaces after box", "\\boxed" + " " * 1_000_000),
        ("digits", "1" * 1_000_000),
    ],
)
def test_megabyte_completions_extract(name, completion):
    """Shapes that made earlier drafts quadratic; a hang guard, not a speed assertion (see bench/)."""
    for profile in ("strict", "lenient"):
        for choices in (None, ["a", "b", "c"]):
            e = extract_answer(completion, profile, choices)
            assert e.source in ("boxed", "boxed:several", "anchor", "last", "choice", "none")
            assert e.text is None or len(e.text) <= 2 * MathLimits().max_answer_chars + 8


@pytest.mark.parametrize("text, ascii_form", [
    ("\u221212", "-12"), ("x\u00b2 + y\u00b9\u00b2", "x^2 + y^{12}"), ("1\u00bd", "1\\frac{1}{2}"), ("\u221a2", "\\sqrt{2}"),
    ("\u221a(x+1)", "\\sqrt(x+1)"), ("45\u00b0", "45^{\\circ}"), ("45\u00b0C", "45^{\\circ}"), ("\uff11\uff12", "12"),
    ("1\u00a0000", "1 000"), ("1\u2009000", "1 000"), ("2\u03c0r", "2\\pi r"), ("3\u20135", "3\u20135"),
    ("(-\u221e, 3) \u222a (4, \u221e)", "(-\\infty , 3)  \\cup  (4, \\infty )"), ("a\u00b7b", "a \\cdot b"), ("42", "42"),
])
def test_unicode_math_reads_as_ascii_latex(text: str, ascii_form: str) -> None:
    """One mapping for gold, answer and prose (docs/math.md "Math grading rules"); the en dash stays a dash."""
    assert to_ascii_math(text) == ascii_form


@pytest.mark.parametrize("completion, answer", [
    ("The answer is Maria's savings were $4,500.", "4,500"),
    ("The answer is y equals 7.", "7"),
    ("The answer is 350 MB.", "350"),
    ("The answer is 42 apples!", "42"),
    ("The answer is: Total = ($3.25 * 4) + ... = $31.", "31"),
    ("The answer is $y = $90.", "90"),
    ("The answer is \u221212 degrees Celsius.", "-12"),
    ("The answer is the 9th day.", "9"),
    ("The answer is either 3 or 4.", "either 3 or 4"),
    ("The answer is not 5 but 6.", "not 5 but 6"),
    ("The answer is x = 5, y = 6.", "x = 5, y = 6"),
    ("The answer is 4 thousand.", "4 thousand"),
    ("The answer is 5!", "5!"),
])
def test_anchored_prose_states_one_number_or_stays_prose(completion: str, answer: str) -> None:
    assert extract_answer(completion) == Extraction(answer, "anchor")
