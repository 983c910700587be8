"""Test results, structured first (docs/repo-tasks.md "Test results").

Each parser turns one framework's report into a status map: test id -> one of STATUSES. The reports
are written by code the patch controls, so they are untrusted bytes: a parser never raises on them
(a report that does not parse is ReportError, which the caller answers as the program's failure),
and two results for one id keep the worse one, so a duplicate can only lose a pass, never add one.

Ids are SWE-bench's: a pytest node id (`tests/test_x.py::TestC::test_y[a b]`), a go test name
(`TestX/sub_case`), a jest test's describe titles and title joined by ` > ` (`outer > inner > it
works`, SWE-bench's JEST_JSON_JQ_TRANSFORM) and a mocha test's full title as mocha writes it (its
suites' titles and its own joined by spaces: what `--grep` matches and its reporters print). JUnit
XML names a test by dotted class name and name, so its map is keyed by `junit_key` of the node id;
`junit_key` is also how an expected id is looked up in it.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable

PASSED, FAILED, SKIPPED, ERROR, XFAIL, XPASS = "PASSED", "FAILED", "SKIPPED", "ERROR", "XFAIL", "XPASS"
STATUSES = (PASSED, FAILED, SKIPPED, ERROR, XFAIL, XPASS)
# Worst first: a second report of one id keeps the worse status (the module docstring says why).
_RANK = {ERROR: 0, FAILED: 1, XPASS: 2, SKIPPED: 3, XFAIL: 4, PASSED: 5}
REPORT_MAX = 64 << 20  # bytes of one report read; more is the program's failure, not a parse


class ReportError(ValueError):
    """A report that is not the framework's format (or is too large): the run is not judged a pass."""


def _put(statuses: dict[str, str], test_id: str, status: str) -> None:
    """Records one result, keeping the worse of two for the same id."""
    old = statuses.get(test_id)
    if old is None or _RANK[status] < _RANK[old]:
        statuses[test_id] = status


def _check_size(report: bytes | str) -> None:
    if len(report) > REPORT_MAX:
        raise ReportError(f"the test report is {len(report)} bytes, over {REPORT_MAX}")


# ----------------------------------------------------------------------------- JUnit XML
def junit_key(node_id: str) -> str:
    """A pytest node id as JUnit XML names it: `a/b/test_c.py::T::test_d[x]` -> `a.b.test_c.T::test_d[x]`
    (pytest's junitxml `mangle_test_address`: parameters are cut off first, so a `::` or `/` inside
    them stays; the path's `/` become dots and `.py` goes; classname is the module and classes)."""
    head, bracket, params = node_id.partition("[")
    names = head.split("::")
    names[0] = names[0].replace("/", ".")
    if names[0].endswith(".py"):
        names[0] = names[0][:-3]
    names[-1] += bracket + params
    return f"{'.'.join(names[:-1])}::{names[-1]}" if len(names) > 1 else names[0]


def _junit_status(case: object) -> str:
    """One <testcase>'s status from its child elements, as pytest writes them (skipped with
    type pytest.xfail is an XFAIL; an XPASS under strict xfail is a failure and reads FAILED)."""
    from junitparser import Error, Failure, Skipped

    results = list(getattr(case, "result", []) or [])
    if not results:
        return PASSED
    worst = PASSED
    for r in results:
        if isinstance(r, Error):
            status = ERROR
        elif isinstance(r, Failure):
            status = FAILED
        elif isinstance(r, Skipped):
            status = XFAIL if (r.type or "") == "pytest.xfail" else SKIPPED
        else:
            continue
        if _RANK[status] < _RANK[worst]:
            worst = status
    return worst


def _cases(node: object, depth: int = 0) -> list[object]:
    """The <testcase> elements under a <testsuites> or <testsuite>, nested suites included (some
    JUnit writers nest them; the depth is bounded)."""
    from junitparser import TestCase

    if depth > 8:
        raise ReportError("the JUnit XML report nests test suites more than 8 deep")
    found: list[object] = []
    for child in node:  # type: ignore[attr-defined]
        found.extend([child] if isinstance(child, TestCase) else _cases(child, depth + 1))
    return found


_XML_DECL = re.compile(r"^\ufeff?\s*<\?xml[^>]*\?>")
_DTD = re.compile(r"<!(?:DOCTYPE|ENTITY)", re.I)


def _plain_xml(report: bytes | str) -> bytes:
    """The report as UTF-8 XML with no declaration and no DTD: the host parses bytes the program wrote,
    and an entity (lxml resolves external ones by default, expat expands internal ones) could read a
    host file into a test name or blow up memory. A declared encoding is dropped with the declaration,
    so what was checked here is what the parser reads."""
    try:
        text = report.decode("utf-8") if isinstance(report, bytes) else report
    except UnicodeDecodeError:
        raise ReportError("the JUnit XML report is not UTF-8") from None
    if "\x00" in text or _DTD.search(text):
        raise ReportError("the JUnit XML report has a DTD, an entity or a NUL byte")
    return _XML_DECL.sub("", text, count=1).encode()


def parse_junit(report: bytes | str) -> dict[str, str]:
    """JUnit XML (pytest --junitxml, and other frameworks' JUnit reporters) -> {junit_key: status}.
    Parsed with junitparser (over lxml where installed, else the standard library's parser) after
    `_plain_xml`; a document that is not JUnit XML is ReportError."""
    from junitparser import JUnitXml

    _check_size(report)
    try:
        statuses: dict[str, str] = {}
        for case in _cases(JUnitXml.fromstring(_plain_xml(report))):
            name, classname = getattr(case, "name", None), getattr(case, "classname", None) or ""
            if not name:
                raise ReportError("a <testcase> without a name")
            _put(statuses, f"{classname}::{name}" if classname else name, _junit_status(case))
    except ReportError:
        raise
    except Exception as e:  # noqa: BLE001 (any parser failure of untrusted bytes is one answer)
        raise ReportError(f"the JUnit XML report does not parse: {type(e).__name__}: {str(e)[:200]}") from None
    return statuses


# ----------------------------------------------------------------------------- go test -json
_GO_ACTIONS = {"pass": PASSED, "fail": FAILED, "skip": SKIPPED}


def parse_go_events(report: bytes | str) -> dict[tuple[str, str], str]:
    """`go test -json` (test2json's events, one JSON object a line) -> {(package, test name): status}.
    Only a test's final event counts (pass, fail, skip with a Test field); package events and
    output lines carry no test's status. Lines that are not JSON objects (a build failure's text,
    which go prints outside the stream) are skipped: a test that never ran is absent, so it fails.
    Keyed by package too: a Go id names no package, and two packages may share a test's name
    (sandbox/repo/golang.py resolves an id to its packages)."""
    _check_size(report)
    text = report.decode("utf-8", "replace") if isinstance(report, bytes) else report
    statuses: dict[tuple[str, str], str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if not isinstance(event, dict):
            continue
        test, action, package = event.get("Test"), event.get("Action"), event.get("Package")
        if isinstance(test, str) and test and action in _GO_ACTIONS:
            old = statuses.get(key := (package if isinstance(package, str) else "", test))
            if old is None or _RANK[_GO_ACTIONS[action]] < _RANK[old]:
                statuses[key] = _GO_ACTIONS[action]
    return statuses


def parse_go_json(report: bytes | str) -> dict[str, str]:
    """`parse_go_events` by test name alone, the worst status over packages: for mining and the
    corpus' single-package reports; grading resolves ids to packages (sandbox/repo/golang.py)."""
    statuses: dict[str, str] = {}
    for (_, test), status in parse_go_events(report).items():
        _put(statuses, test, status)
    return statuses


def worst(statuses: Iterable[str]) -> str:
    """The worst of some statuses (MISSING, an unknown one, worst of all); MISSING for none."""
    return min(statuses, key=lambda s: _RANK.get(s, -1), default="MISSING")


# ----------------------------------------------------------------------------- pytest's summary
_PYTEST_LINE = re.compile(r"^(PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS) (\S.*)$")


def _node_id(rest: str) -> str:
    """The node id at the start of a summary line's rest: it ends at the first space outside brackets
    (a node id has spaces only in its parameters: `test_x[a - b] - assert 1`; pytest 7 writes an
    XPASS's reason after a plain space). Brackets that never balance (a parameter `a[`): up to the
    first ` - `, else the whole rest."""
    depth = 0
    for i, ch in enumerate(rest):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == " " and depth == 0:
            return rest[:i]
    if depth == 0:
        return rest
    return rest.split(" - ", 1)[0]


def parse_pytest_log(report: bytes | str) -> dict[str, str]:
    """pytest's short test summary (`-rA`: `PASSED tests/t.py::test_x[a b]`, `FAILED id - message`)
    -> {node id: status}. The fallback where no JUnit XML exists; SWE-bench's parse_log_pytest reads
    the same lines but splits the id at its first space, losing ids with spaces in parameters
    (`_node_id` keeps them). `SKIPPED [n] file:line: reason` lines name no test."""
    _check_size(report)
    text = report.decode("utf-8", "replace") if isinstance(report, bytes) else report
    statuses: dict[str, str] = {}
    for line in text.splitlines():
        m = _PYTEST_LINE.match(line.rstrip("\r"))
        if not m:
            continue
        status, rest = m.groups()
        if status == SKIPPED and rest.startswith("["):
            continue
        node = _node_id(rest.rstrip())
        if "::" in node or node.endswith(".py"):
            _put(statuses, node, status)
    return statuses


def parse_pytest(junit: bytes | str, log: bytes | str = "") -> dict[str, str]:
    """A pytest run's statuses keyed by `junit_key`: its JUnit XML, with its `-rA` summary laid over
    it. Pytest writes a non-strict XPASS into JUnit XML as a plain pass, and SWE-bench counts an
    XPASS as no pass (it records no status for it: an absent test fails), so the summary's XPASS
    lines are needed. The summary is stdout, which the code under test writes too (a `PASSED id`
    line printed at import): it may only lower the status of an id the XML names, never add an id
    or raise a status, so laying it over the XML can only lose a pass."""
    statuses = parse_junit(junit)
    for node, status in parse_pytest_log(log).items():
        key = junit_key(node)
        if key in statuses:
            _put(statuses, key, status)
    return statuses


# ----------------------------------------------------------------------------- JavaScript: mocha and jest JSON
def _json_report(report: bytes | str, what: str) -> object:
    """One JSON document (the whole report: a reporter's file, nothing printed around it)."""
    _check_size(report)
    try:
        return json.loads(report.decode("utf-8") if isinstance(report, bytes) else report)
    except (ValueError, RecursionError) as e:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise ReportError(f"the {what} report does not parse: {type(e).__name__}: {str(e)[:200]}") from None


def _text(obj: dict, key: str, what: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise ReportError(f"a test of the {what} report without a string {key!r}")
    return value


_MOCHA_LISTS = (("passes", PASSED), ("pending", SKIPPED), ("failures", FAILED))
# A failed hook's title as mocha writes it: `"before each" hook for "its test"` (`"before each" hook: name
# for "its test"` when the hook is named); `... hook in "suite"` when no test is current.
_MOCHA_HOOK = re.compile(r'"(?:before|after) (?:each|all)" hook(?:: .*?)? for "(.*)"\Z', re.S)


def parse_mocha_json(report: bytes | str) -> dict[str, str]:
    """mocha's json reporter (`--reporter json`, `--reporter-option output=FILE`) -> {full title: status}.
    Its `passes` are PASSED, `pending` (it.skip, xit, a test without a function, this.skip(), a
    skipped describe) SKIPPED, `failures` FAILED. A failed hook is in `failures` under its own title
    (`suite "before each" hook for "t"`): that id is FAILED, and so is the test it names, in the
    hook's suite (a `before each` hook's test never ran; an `after each` hook's had passed). The
    other tests a failed hook kept from running are in no list: absent, so they fail. A file that
    does not load stops mocha before any report is written: no report, ReportError."""
    doc = _json_report(report, "mocha JSON")
    if not isinstance(doc, dict) or not isinstance(doc.get("stats"), dict) or \
            any(not isinstance(doc.get(key), list) for key, _ in _MOCHA_LISTS):
        raise ReportError("the report is not mocha's json reporter's: no stats, passes, pending and failures")
    statuses: dict[str, str] = {}
    for key, status in _MOCHA_LISTS:
        for test in doc[key]:
            if not isinstance(test, dict):
                raise ReportError(f"the mocha JSON report's {key} holds a {type(test).__name__}, not a test")
            title, full = _text(test, "title", "mocha JSON"), _text(test, "fullTitle", "mocha JSON")
            _put(statuses, full, status)
            hook = _MOCHA_HOOK.match(title) if status == FAILED else None
            if hook and full.endswith(title):  # the suite's full title and a space, or "" at the root
                _put(statuses, full[:len(full) - len(title)] + hook.group(1), FAILED)
    return statuses


def jest_id(ancestor_titles: Iterable[str], title: str) -> str:
    """A jest test's id: its describe blocks' titles and its own, joined by ` > ` (SWE-bench's)."""
    return " > ".join((*ancestor_titles, title))


_JEST_STATUSES = {"passed": PASSED, "failed": FAILED, "pending": SKIPPED, "skipped": SKIPPED, "todo": SKIPPED,
                  "disabled": SKIPPED}
_JEST_SUITE_ERROR = "Test suite failed to run"  # jest's header of an error outside any test (a hook, the file)


def parse_jest_json(report: bytes | str) -> dict[str, str]:
    """`jest --json --outputFile=FILE` -> {jest_id: status}. An assertion result's status: passed is
    PASSED, failed FAILED, pending, skipped, todo and disabled SKIPPED, any other FAILED. A failed
    beforeEach, afterEach or beforeAll hook fails its tests (jest says so itself). A file whose run
    failed outside its tests (a failed afterAll hook after its tests passed: status failed with no
    failed test, or jest's "Test suite failed to run") has every test of it ERROR; a file that did not
    load has no tests in the report: absent, so they fail. Ids name no file: the same titles in two
    files are one id, the worse status kept."""
    doc = _json_report(report, "jest JSON")
    if not isinstance(doc, dict) or not isinstance(results := doc.get("testResults"), list) or \
            not isinstance(doc.get("numTotalTests"), int):
        raise ReportError("the report is not jest's --json: no testResults and numTotalTests")
    statuses: dict[str, str] = {}
    for file in results:
        tests = file.get("assertionResults") if isinstance(file, dict) else None
        if not isinstance(tests, list) or not all(isinstance(t, dict) for t in tests):
            raise ReportError("a test file of the jest JSON report without its assertionResults")
        broken = file.get("status") == "failed" and not any(t.get("status") == "failed" for t in tests) or \
            _JEST_SUITE_ERROR in str(file.get("message") or "")
        for test in tests:
            ancestors = test.get("ancestorTitles")
            if not isinstance(ancestors, list) or not all(isinstance(a, str) for a in ancestors):
                raise ReportError("a test of the jest JSON report without its ancestorTitles")
            status = ERROR if broken else _JEST_STATUSES.get(_text(test, "status", "jest JSON"), FAILED)
            _put(statuses, jest_id(ancestors, _text(test, "title", "jest JSON")), status)
    return statuses
