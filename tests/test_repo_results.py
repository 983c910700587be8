"""Test reports and resolution (docs/repo-tasks.md "Test results" and "Verdicts"): the parsers on real
reports of real runs (pytest 7 in the sandbox image and this environment's pytest; go test -json of
the corpus' projects), and SWE-bench's resolution rules, near misses included."""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.repo.grading import MISSING, lookup, resolve, resolve_junit
from sandbox.repo.results import (ERROR, FAILED, PASSED, SKIPPED, XFAIL, XPASS, ReportError, junit_key, parse_go_json,
                                  parse_junit, parse_pytest, parse_pytest_log)

DATA = Path(__file__).parent / "data" / "repo_tasks"
STATUSES = DATA / "reports" / "statuses"
F = "statuses_cases.py::"
EXPECTED = {  # what statuses_cases.py's tests are, by pytest's node id
    F + "test_pass": PASSED, F + "test_fail": FAILED, F + "test_skip": SKIPPED, F + "test_xfail": XFAIL,
    F + "test_xpass": XPASS, F + "test_xpass_strict": FAILED, F + "test_error": ERROR,
    F + "test_params[a b]": PASSED, F + "test_params[x [y] z]": PASSED, F + "test_params[p::q]": PASSED,
    F + "test_params[m - n]": FAILED, F + "test_params[\\xfcn\\xef]": PASSED,
    F + "TestGroup::test_method": PASSED, F + "TestGroup::test_method_params[1]": PASSED,
    F + "TestGroup::test_method_params[2]": FAILED,
}


# ----------------------------------------------------------------------------- pytest, real runs
@pytest.mark.parametrize("run", ["pytest7", "pytest-venv"])
def test_a_real_pytest_run_reads_every_status(run: str) -> None:
    """pytest 7.2 (the sandbox image's) and this environment's pytest: JUnit XML with the summary laid
    over it gives every status; the summary alone gives all but SKIPPED (pytest names no skipped test
    there); JUnit XML alone reads a non-strict XPASS as a pass (why parse_pytest lays the log over it)."""
    junit, log = (STATUSES / f"{run}.junit.xml").read_bytes(), (STATUSES / f"{run}.log").read_text()
    assert parse_pytest(junit, log) == {junit_key(k): v for k, v in EXPECTED.items()}
    assert parse_pytest_log(log) == {k: v for k, v in EXPECTED.items() if v != SKIPPED}
    assert parse_junit(junit) == {junit_key(k): (PASSED if v == XPASS else v) for k, v in EXPECTED.items()}


def test_this_pytest_still_reports_as_the_stored_run(tmp_path: Path) -> None:
    """The stored pytest-venv reports are what this environment's pytest writes now (a pytest upgrade
    that changes its reports fails here, not in a graded run)."""
    (tmp_path / "statuses_cases.py").write_bytes((STATUSES / "statuses_cases.py").read_bytes())
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", "--junitxml=out.xml",
                           "-c", "/dev/null", "--rootdir", ".", "statuses_cases.py"], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})  # fast: no third-party plugin
    assert proc.returncode == 1, proc.stdout[-2000:]
    assert parse_pytest((tmp_path / "out.xml").read_bytes(), proc.stdout) == {junit_key(k): v for k, v in EXPECTED.items()}


@pytest.mark.parametrize("node, key", [
    ("tests/test_more.py::ChunkedTests::test_even", "tests.test_more.ChunkedTests::test_even"),
    ("test_x.py::test_y", "test_x::test_y"),
    ("a/b/test_c.py::T::U::test_d[p::q/r.py]", "a.b.test_c.T.U::test_d[p::q/r.py]"),
    ("t.py::test[a [b] c]", "t::test[a [b] c]"),
])
def test_junit_key_is_pytest_s_mangling(node: str, key: str) -> None:
    assert junit_key(node) == key


# ----------------------------------------------------------------------------- JUnit XML near misses
CASE = '<testsuite name="s"><testcase classname="m" name="t">{}</testcase></testsuite>'


def test_junit_statuses_and_duplicates_keep_the_worse() -> None:
    assert parse_junit(CASE.format("")) == {"m::t": PASSED}
    assert parse_junit(CASE.format('<skipped type="pytest.xfail" message="x"/>')) == {"m::t": XFAIL}
    assert parse_junit(CASE.format('<skipped type="pytest.skip"/>')) == {"m::t": SKIPPED}
    assert parse_junit(CASE.format("<failure/>")) == {"m::t": FAILED}
    assert parse_junit(CASE.format("<error/>")) == {"m::t": ERROR}
    # A second report of one id (a rerun, a forged duplicate) can only lose the pass.
    two = '<testsuites><testsuite><testcase classname="m" name="t"><failure/></testcase></testsuite>' \
          '<testsuite><testcase classname="m" name="t"/></testsuite></testsuites>'
    assert parse_junit(two) == {"m::t": FAILED}
    nested = '<testsuites><testsuite><testsuite><testcase classname="m" name="t"/></testsuite></testsuite></testsuites>'
    assert parse_junit(nested) == {"m::t": PASSED}


@pytest.mark.parametrize("report", [
    "", "not xml", "<testsuite><testcase classname='m'/></testsuite>", CASE.format("")[:-5],
    '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/hostname">]>'
    '<testsuite><testcase classname="m" name="&x;"/></testsuite>',
    '<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><testsuite><testcase classname="m" name="&b;"/></testsuite>',
    '<?xml version="1.0" encoding="UTF-16"?>'.encode() + "<!DOCTYPE x>".encode("utf-16-le"),
    b"\xff\xfe<\x00t\x00",
])
def test_a_report_that_is_not_plain_junit_xml_is_a_report_error(report: str | bytes) -> None:
    with pytest.raises(ReportError):
        parse_junit(report)


# ----------------------------------------------------------------------------- go test -json
def test_go_json_statuses_subtests_and_noise() -> None:
    events = [
        {"Action": "run", "Test": "TestA"}, {"Action": "output", "Test": "TestA", "Output": "--- PASS: TestB (0.00s)\n"},
        {"Action": "pass", "Test": "TestA"}, {"Action": "fail", "Test": "TestC/case_one"}, {"Action": "skip", "Test": "TestD"},
        {"Action": "pass", "Package": "p"}, {"Action": "fail", "Test": "TestA"},  # a second report: the worse is kept
        {"Action": "pass", "Test": ""}, {"Action": "pass", "Test": 3}, ["pass"],
    ]
    lines = [json.dumps(e) for e in events] + ["# p [build failed]", "{not json", "", "ok  p 0.1s"]
    assert parse_go_json("\n".join(lines)) == {"TestA": FAILED, "TestC/case_one": FAILED, "TestD": SKIPPED}


# ----------------------------------------------------------------------------- resolution
def status_map(**kv: str) -> dict[str, str]:
    return {k: v for k, v in kv.items()}


def test_a_listed_test_counts_only_when_passed() -> None:
    """Stricter than SWE-bench (docs/repo-tasks.md "Verdicts"): an XFAIL or SKIPPED is a status the code
    under test can choose (`pytest.xfail()` from the library), so it never counts unless expected."""
    f2p, p2p = ["a", "b"], ["c", "d"]
    ok = status_map(a=PASSED, b=PASSED, c=PASSED, d=PASSED)
    assert resolve(lookup(ok), f2p, p2p).resolved
    for test in "abcd":  # near misses: every other status, and absent, in either list
        for status in (FAILED, ERROR, XPASS, XFAIL, SKIPPED):
            r = resolve(lookup({**ok, test: status}), f2p, p2p)
            assert not r.resolved and test in (*r.f2p_failed, *r.p2p_failed), (test, status)
            assert f"{test} ({status})" in r.detail
        missing = {k: v for k, v in ok.items() if k != test}
        r = resolve(lookup(missing), f2p, p2p)
        assert not r.resolved and r.statuses[test] == MISSING
    assert not resolve(lookup(ok), [], p2p).resolved  # no FAIL_TO_PASS: nothing to resolve


def test_a_listed_test_counts_when_its_status_is_the_gold_runs() -> None:
    """The environment's stored gold statuses (`expected`): a test the gold run skips or xfails counts
    only with exactly that status; PASSED in its place is not it either (the rewrite and the near miss)."""
    f2p, p2p = ["a", "b"], ["c", "d"]
    expected = {"b": XFAIL, "d": SKIPPED}
    gold = status_map(a=PASSED, b=XFAIL, c=PASSED, d=SKIPPED)
    assert resolve(lookup(gold), f2p, p2p, expected=expected).resolved
    assert not resolve(lookup(gold), f2p, p2p).resolved  # without the stored statuses: PASSED expected
    for test, status in [("b", PASSED), ("b", SKIPPED), ("d", PASSED), ("d", XFAIL), ("c", SKIPPED), ("a", XFAIL)]:
        assert not resolve(lookup({**gold, test: status}), f2p, p2p, expected=expected).resolved, (test, status)


def test_a_decoy_not_reported_failing_marks_the_run_tampered() -> None:
    ok = status_map(a=PASSED, c=PASSED, z=FAILED)
    assert resolve(lookup(ok), ["a"], ["c"], decoys=["z"]).resolved
    for status in (PASSED, XFAIL, SKIPPED, ERROR, XPASS):  # only FAILED is the decoy's honest status
        r = resolve(lookup({**ok, "z": status}), ["a"], ["c"], decoys=["z"])
        assert r.tampered and not r.resolved and "tampered" in r.detail
    r = resolve(lookup({k: v for k, v in ok.items() if k != "z"}), ["a"], ["c"], decoys=["z"])
    assert r.tampered and not r.resolved  # dropped from the report
    r = resolve(lookup({**ok, "a": FAILED, "z": PASSED}), ["a"], ["c"], decoys=["z"])
    assert not r.resolved and "tampered" not in r.detail and "a (FAILED)" in r.detail  # an honest wrong patch


def test_ids_are_matched_exactly() -> None:
    """No prefix match (SWE-bench keeps one for truncated ids of its Verified split): a passing
    `t[ab]` does not answer for `t[a`, nor `test_x` for `test_x2`."""
    assert not resolve(lookup({"t[ab]": PASSED}), ["t[a"], []).resolved
    assert not resolve(lookup({"test_x": PASSED}), ["test_x2"], []).resolved


# ----------------------------------------------------------------------------- the corpus' real reports
def corpus_rows() -> list[dict]:
    return [json.loads(line) for line in (DATA / "tasks.jsonl").read_text().splitlines()]


def read_report(row: dict, side: str) -> dict[str, str]:
    base = DATA / "reports" / row["instance_id"]
    log = gzip.decompress((base / f"{side}.log.gz").read_bytes())
    if row["language"] == "go":
        return parse_go_json(log)
    return parse_pytest_log(log)


def test_every_corpus_row_resolves_on_its_after_run_and_not_on_its_before_run() -> None:
    """The real reports of the corpus' runs (the commit, and its parent with the test patch): the gold
    run resolves, the unfixed run does not, and pytest's JUnit XML of each run agrees with its summary."""
    rows = corpus_rows()
    assert len(rows) >= 10 and {r["language"] for r in rows} == {"go", "python"}
    for row in rows:
        f2p, p2p = row["FAIL_TO_PASS"], row["PASS_TO_PASS"]
        after, before = read_report(row, "after"), read_report(row, "before")
        assert resolve(lookup(after), f2p, p2p).resolved, row["instance_id"]
        unfixed = resolve(lookup(before), f2p, p2p)
        assert not unfixed.resolved and set(unfixed.f2p_failed) == set(f2p) and not unfixed.p2p_failed
        if row["language"] == "python":
            base = DATA / "reports" / row["instance_id"]
            for side, statuses in (("after", after), ("before", before)):
                junit = parse_junit(gzip.decompress((base / f"{side}.junit.xml.gz").read_bytes()))
                assert {junit_key(k): v for k, v in statuses.items()}.items() <= junit.items()
                assert resolve_junit(junit, f2p, p2p).resolved == (side == "after")
