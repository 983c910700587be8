"""Test reports and resolution (docs/repo-tasks.md "Test results" and "Verdicts"): the parsers on real
reports of real runs (pytest 7 in the sandbox image and this environment's pytest; go test -json of
the corpus' projects; mocha's and jest's JSON of real projects and of every status), and SWE-bench's
resolution rules, near misses included."""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from sandbox.repo.grading import MISSING, lookup, resolve, resolve_junit
from sandbox.repo import results
from sandbox.repo.results import (ERROR, FAILED, PASSED, SKIPPED, XFAIL, XPASS, ReportError, jest_id, junit_key, parse_go_json,
                                  parse_jest_json, parse_junit, parse_mocha_json, parse_pytest, parse_pytest_log)

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


# ----------------------------------------------------------------------------- mocha and jest JSON, real runs
REPORTS = DATA / "reports"
TITLE = "title with spaces, [brackets], \"double\" and 'single' quotes > and a gt"
OUT = "outer suite"
EXPECTED_MOCHA = {  # reports/statuses/mocha/statuses.spec.js, by mocha's full title
    "top level passes": PASSED, f"{OUT} passes": PASSED, f"{OUT} fails": FAILED, f"{OUT} async rejection fails": FAILED,
    f"{OUT} is skipped with it.skip": SKIPPED, f"{OUT} is skipped with xit": SKIPPED, f"{OUT} is pending: no function": SKIPPED,
    f"{OUT} skips itself at run time": SKIPPED, f"{OUT} a skipped describe is skipped by its describe": SKIPPED,
    f"{OUT} {TITLE}": PASSED, f"{OUT} inner [nested] describe passes deep": PASSED,
    f"{OUT} inner [nested] describe third level passes deeper": PASSED,
    # a failed hook: its own entry, and the test it names
    f'{OUT} before each hook fails "before each" hook for "first under the failing hook"': FAILED,
    f"{OUT} before each hook fails first under the failing hook": FAILED,
    f'{OUT} after each hook fails "after each" hook for "passes before its after each hook fails"': FAILED,
    f"{OUT} after each hook fails passes before its after each hook fails": FAILED,  # passed, then its hook failed
    f'{OUT} before all hook fails "before all" hook for "first under the failing before all"': FAILED,
    f"{OUT} before all hook fails first under the failing before all": FAILED,
    "duplicate titles same title": FAILED,  # two tests of one title, one passing: the worse
}
NEVER_RAN_MOCHA = (  # kept from running by a failed hook: in no list of mocha's, so absent
    f"{OUT} before each hook fails second under the failing hook", f"{OUT} after each hook fails never runs after the after each failure",
    f"{OUT} before all hook fails nested under the failing before all deep under the failing before all",
)
EXPECTED_JEST = {  # reports/statuses/jest/*.test.js, by jest_id
    "top level passes": PASSED, f"{OUT} > passes": PASSED, f"{OUT} > fails": FAILED, f"{OUT} > async rejection fails": FAILED,
    f"{OUT} > is skipped with test.skip": SKIPPED, f"{OUT} > is skipped with xit": SKIPPED, f"{OUT} > is a todo": SKIPPED,
    f"{OUT} > {TITLE}": PASSED, f"{OUT} > each row 1 + 1 = 2": PASSED, f"{OUT} > each row 2 + 1 = 3": PASSED,
    f"{OUT} > inner [nested] describe > passes deep": PASSED, f"{OUT} > inner [nested] describe > third level > passes deeper": PASSED,
    f"{OUT} > a skipped describe > is skipped by its describe": SKIPPED,
    f"{OUT} > before each hook fails > first under the failing hook": FAILED,
    f"{OUT} > before each hook fails > second under the failing hook": FAILED,
    f"{OUT} > after each hook fails > passes before its after each hook fails": FAILED,
    f"{OUT} > before all hook fails > first under the failing before all": FAILED,
    f"{OUT} > before all hook fails > nested under the failing before all > deep under the failing before all": FAILED,
    "duplicate titles > same title": FAILED,
    "after all hook fails > passes before the after all hook fails": ERROR,  # passed; then its file's afterAll failed
    "all skipped > skipped in a skipped file": SKIPPED,
}  # broken.test.js (a syntax error) names no test: "never loaded > would pass" is absent


def gz(path: str) -> bytes:
    return gzip.decompress((REPORTS / path).read_bytes())


MOCHA_STATUSES, JEST_STATUSES = "statuses/mocha/statuses.mocha.json.gz", "statuses/jest/statuses.jest.json.gz"
COOKIE, COOKIE_2, COMMANDER = "jshttp__cookie-042073f1d679", "jshttp__cookie-e10042845354", "tj__commander.js-68199e64b318"


def test_a_real_mocha_run_reads_every_status() -> None:
    """mocha 10.1's json reporter over a file of every status: pass, fail, it.skip, xit, a test without a
    function, this.skip(), a skipped describe, failed before each, after each and before all hooks,
    nested describes, a title with spaces, brackets and quotes, two tests of one full title."""
    statuses = parse_mocha_json(gz(MOCHA_STATUSES))
    assert statuses == EXPECTED_MOCHA
    assert all(lookup(statuses)(t) == MISSING for t in NEVER_RAN_MOCHA)
    passing = [t for t, s in EXPECTED_MOCHA.items() if s == PASSED]
    assert resolve(lookup(statuses), passing[:1], passing[1:]).resolved
    for never_ran in NEVER_RAN_MOCHA:  # a test a failed hook kept from running never counts as kept
        assert not resolve(lookup(statuses), passing[:1], [*passing[1:], never_ran]).resolved


def test_a_real_jest_run_reads_every_status() -> None:
    """jest 29.3's --json over files of every status: pass, fail, test.skip, xit, test.todo, test.each, a
    skipped describe and file, failed beforeEach, afterEach, beforeAll and afterAll hooks, nested
    describes, quotes and brackets, and a file that does not parse (its test absent). The counts are
    jest's own, read from the report."""
    report = gz(JEST_STATUSES)
    statuses, stats = parse_jest_json(report), json.loads(report)
    assert statuses == EXPECTED_JEST
    assert lookup(statuses)(jest_id(["never loaded"], "would pass")) == MISSING
    assert stats["numRuntimeErrorTestSuites"] == 2  # the file that did not load and the one whose afterAll failed
    counts = Counter(statuses.values())
    # jest counts the two "outer suite > passes" and the passing and failing "duplicate titles > same
    # title" apart (one id each here, the worse kept); the afterAll file's test is one of its passes
    # (ERROR here); a todo is not pending for jest
    assert counts[SKIPPED] == stats["numPendingTests"] + stats["numTodoTests"]
    assert counts[FAILED] == stats["numFailedTests"] and counts[ERROR] == 1
    assert counts[PASSED] == stats["numPassedTests"] - 2 - counts[ERROR]


@pytest.mark.parametrize("instance, parse, name", [(COOKIE, parse_mocha_json, "mocha"), (COOKIE_2, parse_mocha_json, "mocha"),
                                                   (COMMANDER, parse_jest_json, "jest")])
def test_a_real_project_s_fix_resolves_on_its_after_run_only(instance: str, parse, name: str) -> None:
    """Real projects' real runs (tests/data/repo_tasks/README.md): jshttp/cookie under mocha (its qunit
    and its bdd interface, nested describes), commander.js under jest, on the parent with the fix's
    tests (before) and on the fix (after). Each status's count is the framework's own count in the
    report; FAIL_TO_PASS is every test that failed before (the framework's count), nothing else."""
    runs = {side: gz(f"{instance}/{side}.{name}.json.gz") for side in ("before", "after")}
    maps = {side: parse(report) for side, report in runs.items()}
    for side, report in runs.items():
        doc, counts = json.loads(report), Counter(maps[side].values())
        if name == "mocha":
            stats = doc["stats"]
            assert len(maps[side]) == stats["tests"]  # no two tests of one title here
            assert (counts[PASSED], counts[FAILED], counts[SKIPPED]) == (stats["passes"], stats["failures"], stats["pending"])
        else:
            titles = Counter((tuple(a["ancestorTitles"]), a["title"]) for r in doc["testResults"] for a in r["assertionResults"])
            assert len(maps[side]) == len(titles) and sum(titles.values()) == doc["numTotalTests"]  # same titles in two files: one id
            assert counts[FAILED] == doc["numFailedTests"] and counts[SKIPPED] == doc["numPendingTests"] + doc["numTodoTests"]
            assert counts[PASSED] + counts[FAILED] + counts[SKIPPED] == len(maps[side])
    f2p = sorted(t for t, s in maps["after"].items() if s == PASSED and maps["before"].get(t) != PASSED)
    p2p = sorted(t for t, s in maps["after"].items() if s == PASSED and maps["before"].get(t) == PASSED)
    before = json.loads(runs["before"])
    assert len(f2p) == (before["stats"]["failures"] if name == "mocha" else before["numFailedTests"]) >= 1 and len(p2p) >= 20
    assert resolve(lookup(maps["after"]), f2p, p2p).resolved
    unfixed = resolve(lookup(maps["before"]), f2p, p2p)
    assert not unfixed.resolved and unfixed.f2p_failed == tuple(f2p) and not unfixed.p2p_failed


# ----------------------------------------------------------------------------- mocha and jest JSON near misses
def _cut(report: bytes) -> bytes:
    return report[:len(report) // 2]


@pytest.mark.parametrize("parse, report", [
    (parse_mocha_json, b""),  # mocha stops before writing a report when a file does not load
    (parse_jest_json, b""),
    (parse_mocha_json, _cut(gz(f"{COOKIE}/before.mocha.json.gz"))),  # truncated
    (parse_jest_json, _cut(gz(f"{COMMANDER}/before.jest.json.gz"))),
    (parse_mocha_json, gz(f"{COMMANDER}/after.jest.json.gz")),  # another framework's report
    (parse_jest_json, gz(f"{COOKIE}/after.mocha.json.gz")),
    (parse_mocha_json, gzip.decompress((DATA / "reports" / "hashicorp__go-version-a6043353333f" / "after.log.gz").read_bytes())),
    (parse_jest_json, (STATUSES / "pytest7.junit.xml").read_bytes()),
    (parse_mocha_json, b"null"), (parse_jest_json, b"[]"), (parse_mocha_json, b'{"stats": {}, "passes": "x", "pending": [], "failures": []}'),
    (parse_mocha_json, b'{"stats": {}, "passes": [{"title": "t"}], "pending": [], "failures": []}'),  # no fullTitle
    (parse_mocha_json, b'{"stats": {}, "passes": [3], "pending": [], "failures": []}'),
    (parse_jest_json, b'{"numTotalTests": 1, "testResults": [{"assertionResults": [{"title": "t", "status": "passed"}]}]}'),
    (parse_jest_json, b'{"numTotalTests": 1, "testResults": [{"assertionResults": [{"title": "t", "ancestorTitles": [1], "status": "passed"}]}]}'),
    (parse_jest_json, b'{"numTotalTests": 1, "testResults": [{"assertionResults": [{"title": "t", "ancestorTitles": []}]}]}'),
    (parse_jest_json, b'{"numTotalTests": 1, "testResults": [{}]}'),
    (parse_jest_json, b"[" * 200_000), (parse_mocha_json, b'{"a": ' * 200_000),  # nesting past the parser's recursion
    (parse_mocha_json, b'{"stats": {}, "passes": [{"title": "\xff", "fullTitle": "\xff"}], "pending": [], "failures": []}'),  # not UTF-8
])
def test_a_report_that_is_not_the_frameworks_json_is_a_report_error(parse, report: bytes) -> None:
    with pytest.raises(ReportError):
        parse(report)


@pytest.mark.parametrize("parse, path", [(parse_mocha_json, f"{COOKIE}/after.mocha.json.gz"),
                                         (parse_jest_json, f"{COMMANDER}/after.jest.json.gz")])
def test_an_oversized_report_is_a_report_error(monkeypatch: pytest.MonkeyPatch, parse, path: str) -> None:
    report = gz(path)
    assert parse(report)
    monkeypatch.setattr(results, "REPORT_MAX", len(report) - 1)
    with pytest.raises(ReportError, match="over"):
        parse(report)


def test_a_colliding_title_keeps_the_worse_status() -> None:
    """A second test of one id (a real duplicate, or one the code under test adds to the report) can only
    lose a pass: mocha's passes and jest's results, in either order; jest's ` > ` inside a title collides
    with the same titles nested, and the worse is kept too."""
    doc = json.loads(gz(f"{COOKIE}/before.mocha.json.gz"))
    failing = doc["failures"][0]
    assert parse_mocha_json(json.dumps(doc))[failing["fullTitle"]] == FAILED
    forged = {**doc, "passes": [*doc["passes"], failing], "failures": [failing]}
    assert parse_mocha_json(json.dumps(forged))[failing["fullTitle"]] == FAILED
    jest = json.loads(gz(f"{COMMANDER}/before.jest.json.gz"))
    (bad,) = [a for r in jest["testResults"] for a in r["assertionResults"] if a["status"] == "failed"]
    bad_id = jest_id(bad["ancestorTitles"], bad["title"])
    for order in ([{**bad, "status": "passed"}, bad], [bad, {**bad, "status": "passed"}]):
        jest["testResults"][0]["assertionResults"] = order
        jest["testResults"][0]["status"] = "failed"
        assert parse_jest_json(json.dumps(jest))[bad_id] == FAILED
    nested = {"numTotalTests": 2, "testResults": [{"status": "failed", "message": "", "assertionResults": [
        {"ancestorTitles": ["a"], "title": "b", "status": "passed"}, {"ancestorTitles": [], "title": "a > b", "status": "failed"}]}]}
    assert parse_jest_json(json.dumps(nested)) == {"a > b": FAILED}


def test_jest_statuses_it_does_not_know_never_pass_and_a_broken_file_fails_its_tests() -> None:
    def one(status: str, file_status: str = "passed", message: str = "") -> dict[str, str]:
        return parse_jest_json(json.dumps({"numTotalTests": 1, "testResults": [{"status": file_status, "message": message,
                               "assertionResults": [{"ancestorTitles": ["d"], "title": "t", "status": status}]}]}))
    assert one("passed") == {"d > t": PASSED} and one("todo") == {"d > t": SKIPPED} and one("disabled") == {"d > t": SKIPPED}
    assert one("focused") == {"d > t": FAILED} and one("PASSED") == {"d > t": FAILED}
    assert one("passed", "failed") == {"d > t": ERROR}  # failed with no failed test: outside any test
    assert one("passed", "passed", "  ● Test suite failed to run\n\n    boom") == {"d > t": ERROR}
