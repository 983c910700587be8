"""Host-side unit tests of the call-test comparison (sandbox/harness/kinds.py) and of how the host
reads the judge's result lines (sandbox/job.py). No Docker: the same files run here as in the image."""
from __future__ import annotations

import sys

import pytest

from sandbox.build import HARNESS
from sandbox.job import _judge_asserts, _result_lines
from sandbox.plan import static_test_count
from sandbox.languages import LANGUAGES

sys.path.insert(0, str(HARNESS))
import kinds  # noqa: E402

TOL = (1e-6, 1e-6)


@pytest.mark.parametrize("got, expected", [
    ([1, 2], [1, 2]), ((1, 2), [1, 2]), ([(1, [2.0])], [[1, [2]]]), (1.0, 1), (1, 1.0), (None, None),
    ({"a": (1,)}, {"a": [1]}), ("x", "x"), (True, True), (10**30, 10**30), ([], []),
])
def test_rewrites_are_equal(got, expected):
    assert kinds.same(got, expected, None)


@pytest.mark.parametrize("got, expected", [
    (True, 1), (1, True), (0, False), (False, 0), ("1", 1), (1, "1"), ([1, 2], [2, 1]), ([1], [1, 2]),
    ({1, 2}, [1, 2]), ({1: 2}, {"1": 2}), ({"a": 1}, {"a": 1, "b": 2}), (None, 0), (0, None), (2, 1),
    (0.1 + 0.2, 0.3), (b"x", "x"), (1 + 0j, 1), ([True], [1]), ((1,), {"0": 1}), (float("nan"), 1.0),
    (10**400, 1.0),
])
def test_near_misses_are_not_equal(got, expected):
    assert not kinds.same(got, expected, None)


@pytest.mark.parametrize("got, expected, equal", [
    (0.1 + 0.2, 0.3, True), ([0.3000001, {"x": (1e-7,)}], [0.3, {"x": [0.0]}], True), (1.00001, 1.0, False),
    (True, 1.0, False), (1e9 + 1, 1e9, True), (10**400, 1.0, False), (float("inf"), 1.0, False), (2, 2, True),
])
def test_float_tolerance_anywhere_in_nested_values(got, expected, equal):
    assert kinds.same(got, expected, TOL) is equal


def test_details_are_short_even_for_huge_values():
    assert len(kinds.short(list(range(10**5)))) < 110
    assert "bits" in kinds.short(10**5000)


def test_only_lines_with_the_nonce_count():
    data = (b'N {"test": {"verdict": "accepted"}}\n{"done": 1}\nM {"done": 3}\nN not json\n'
            b'ok:N\nN {"done": 1}\nN [1]\n')
    assert _result_lines(data, "N") == [{"test": {"verdict": "accepted"}}, {"done": 1}]


@pytest.mark.parametrize("line, verdict", [
    (b'N {"undefined": "helper"}\n', "infra_error"), (b'N {"unused": true}\n', "infra_error"),
    (b'N {"result": "assert"}\n', "wrong_answer"),
    # without the nonce (the judge's assert path wrote these bare): the failing run's own verdict
    (b"undefined:helper", "runtime_error"), (b"unused", "runtime_error"), (b'M {"undefined": "helper"}\n', "runtime_error"),
])
def test_the_assert_judges_reports_count_only_with_the_nonce(line, verdict):
    """A failed run (exit 1) with each report on the result fd: only the judge's, nonce-tagged, turns
    it into the tests' infra_error (reward None) or a failed assert."""
    plan = type("Plan", (), {"lang": LANGUAGES["python"], "time_limit_s": 1.0})()
    facts = {"exit_code": 1, "stderr_b": b"", "fd3_b": line, "cpu_s": 0.1}
    assert _judge_asserts(plan, facts, "N")["verdict"] == verdict


def test_the_assert_judges_pass_needs_the_nonce():
    plan = type("Plan", (), {"lang": LANGUAGES["python"], "time_limit_s": 1.0})()
    for line, verdict in ((b'N {"result": "ok"}\n', "accepted"), (b'M {"result": "ok"}\n', "wrong_answer"), (b"ok:M", "wrong_answer")):
        assert _judge_asserts(plan, {"exit_code": 0, "stderr_b": b"", "fd3_b": line}, "N")["verdict"] == verdict


@pytest.mark.parametrize("code, n", [
    ("def test_a():\n    pass\nclass TestB:\n    def test_c(self):\n        pass\n", 2),
    ("import unittest\nclass T(unittest.TestCase):\n    def setUp(self):\n        pass\n    def test_x(self):\n        pass\n", 1),
    ("from solution import f\n", 0), ("def test_(:\n", 0),
])
def test_static_test_count(code, n):
    assert static_test_count(code) == n
