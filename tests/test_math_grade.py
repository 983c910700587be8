"""The public grading API: result shape, never raising, caching, and no reliance on signal.alarm."""

from __future__ import annotations

import signal
import threading

import pytest

import verifier.math as vm
from verifier.math import Extraction, extract_answer, grade_extracted, grade_math, warm_up
from verifier.math.parsing import parse_gold, unescape_gold

KEYS = {"verdict", "score", "detail", "extracted", "extracted_from"}


def test_public_api_is_exported():
    assert set(vm.__all__) == {"Extraction", "extract_answer", "grade_extracted", "grade_math", "grade_simple", "warm_up"}


def test_docstring_names_the_default_profile():
    assert "Default profile: **strict**" in vm.__doc__


def test_result_shape_correct():
    r = grade_math({"completion": r"so \boxed{\frac{1}{2}}", "gold": "0.5"})
    assert set(r) == KEYS
    assert r["verdict"] == "correct" and r["score"] == 1.0
    assert r["extracted"] == r"\frac{1}{2}" and r["extracted_from"] == "boxed"
    assert 0 < len(r["detail"]) <= 200


def test_extracted_is_truncated_to_200_chars():
    answer = "+".join(["1"] * 300)
    r = grade_math({"completion": f"\\boxed{{{answer}}}", "gold": "300"})
    assert r["verdict"] == "correct"
    assert r["extracted"] == answer[:200]


def test_no_answer_has_empty_extracted():
    r = grade_math({"completion": "I give up", "gold": "1"})
    assert (r["verdict"], r["extracted"], r["extracted_from"], r["score"]) == ("no_answer", "", "none", 0.0)


def test_grade_extracted_matches_grade_math():
    task = {"completion": "Answer: (C)", "gold": "7", "choices": ["12", "42", "7"]}
    e = extract_answer(task["completion"], "strict", task["choices"])
    assert grade_extracted(task["gold"], e, task["choices"]) == grade_math(task)


def test_grade_extracted_accepts_raw_choice_text():
    assert grade_extracted("B", Extraction("(b)", "anchor"), ["x", "y"])["verdict"] == "correct"


@pytest.mark.parametrize(
    "task, field",
    [
        ("not a dict", "dict"),
        ({"gold": "1"}, "completion"),
        ({"completion": "x", "gold": 1}, "gold"),
        ({"completion": "x", "gold": "1", "profile": "greedy"}, "profile"),
        ({"completion": "x", "gold": "1", "choices": "ABCD"}, "choices"),
        ({"completion": "x", "gold": "1", "choices": [1, 2]}, "choices"),
    ],
)
def test_bad_fields_are_errors_naming_the_field(task, field):
    r = grade_math(task)
    assert r["verdict"] == "error" and field in r["detail"]
    assert set(r) == KEYS


def test_comparison_exception_is_the_answers_fault(monkeypatch):
    """Issue 17: `error` is ungraded (reward None), a way out of a zero; a comparison that raises
    on a gold that parsed is the answer's fault."""
    def boom(*args, **kwargs):
        raise ZeroDivisionError("kaboom")

    monkeypatch.setattr("verifier.math.grade.equivalent", boom)
    monkeypatch.setattr("verifier.math.fast.equivalent", boom)  # the fast path then leaves it to the full path
    r = grade_math({"completion": r"\boxed{1}", "gold": "2"})
    assert r["verdict"] == "incorrect" and "ZeroDivisionError: kaboom" in r["detail"]
    assert r["extracted"] == "1"


def test_grade_extracted_never_raises(monkeypatch):
    def boom(*args, **kwargs):
        raise RecursionError("too deep")

    monkeypatch.setattr("verifier.math.grade.equivalent", boom)
    monkeypatch.setattr("verifier.math.fast.equivalent", boom)
    r = grade_extracted("2", Extraction("1", "boxed"))
    assert (r["verdict"], r["extracted_from"]) == ("incorrect", "boxed")
    assert "RecursionError" in r["detail"]


def test_error_detail_never_stringifies_non_string_args(monkeypatch):
    class Loud:
        def __str__(self):
            raise AssertionError("str() was called")

    def boom(*args, **kwargs):
        raise ValueError(Loud())

    monkeypatch.setattr("verifier.math.grade.equivalent", boom)
    monkeypatch.setattr("verifier.math.fast.equivalent", boom)  # the fast path then leaves it to the full path
    r = grade_math({"completion": r"\boxed{1}", "gold": "2"})
    assert r["detail"] == "comparison failed on the answer: ValueError"


def test_gold_is_parsed_once_and_cached():
    gold = r"\frac{7}{13}+\sqrt{5}"
    before = parse_gold.cache_info()
    for completion in [r"\boxed{1}", r"\boxed{2}", r"\boxed{\sqrt{5}+\frac{7}{13}}"]:
        grade_math({"completion": completion, "gold": gold})
    after = parse_gold.cache_info()
    assert after.misses - before.misses == 1
    assert after.hits - before.hits == 2


def test_invalid_gold_is_loud_for_every_answer():
    for completion in [r"\boxed{1}", "nothing", r"\boxed{\frac{}"]:
        assert grade_math({"completion": completion, "gold": r"\sqrt{"})["verdict"] == "invalid_gold"


def test_never_uses_signal_alarm(monkeypatch):
    """Workers are killed by their parent; an alarm would fire into the wrong place (or raise)."""

    def forbidden(*args):
        raise AssertionError("signal.alarm used")

    monkeypatch.setattr(signal, "alarm", forbidden)
    monkeypatch.setattr(signal, "signal", forbidden)
    r = grade_math({"completion": r"\boxed{x^2 - 1}", "gold": "(x-1)(x+1)"})
    assert r["verdict"] == "correct"


def test_grades_off_the_main_thread():
    """math-verify with its timeouts on raises ValueError in a thread; ours must just grade."""
    results = []
    t = threading.Thread(target=lambda: results.append(grade_math({"completion": r"\boxed{\frac{2}{4}}", "gold": "1/2"})))
    t.start()
    t.join(30)
    assert results and results[0]["verdict"] == "correct"


def test_warm_up_runs():
    warm_up()
    assert grade_math({"completion": "#### 3", "gold": "3"})["verdict"] == "correct"


def test_answer_written_like_the_gold_is_correct_without_parsing():
    from verifier.math import Extraction, grade_extracted

    r = grade_extracted("$(3,5)$", Extraction("( 3, 5 )", "boxed"))
    assert r["verdict"] == "correct" and r["detail"] == "identical to the gold"
    # spacing between word characters matters: "3 5" is not "35" by text, it is parsed
    assert grade_extracted("35", Extraction("3 5", "boxed"))["detail"] != "identical to the gold"
    # a copy of an unusable gold is still loud
    assert grade_extracted("\\frac{", Extraction("\\frac{", "boxed"))["verdict"] == "invalid_gold"


@pytest.mark.parametrize(
    ("gold", "repaired"),
    [
        ("\\\\begin{matrix} 1 \\\\\\\\ 2 \\\\end{matrix}", "\\begin{matrix} 1 \\\\ 2 \\end{matrix}"),
        ("\\\\frac{3}{4}", "\\frac{3}{4}"),
        ("\\begin{matrix} 1 \\\\ 2 \\end{matrix}", None),  # single-escaped: a command behind one backslash
        ("1 \\\\ 2", None),  # no command behind a doubled backslash
        ("\\\\\\frac{3}{4}", None),  # an odd run
        ("42", None),
    ],
)
def test_unescape_gold(gold: str, repaired: str | None) -> None:
    """The data repair halves backslash runs only in text that is doubly escaped throughout."""
    assert unescape_gold(gold) == repaired


def test_escaped_gold_is_repaired_only_when_unparseable() -> None:
    """A doubly escaped gold parses as its repair; a wrong answer against it still fails."""
    gold = "\\\\begin{matrix} x \\\\\\\\ \\\\frac12 \\\\end{matrix}"
    assert parse_gold(gold).text == "\\begin{matrix} x \\\\ \\frac{1}{2} \\end{matrix}"
    assert grade_extracted(gold, Extraction("\\begin{matrix} x \\\\ 0.5 \\end{matrix}", "boxed"))["verdict"] == "correct"
    assert grade_extracted(gold, Extraction("\\begin{matrix} x \\\\ 0.4 \\end{matrix}", "boxed"))["verdict"] == "incorrect"
