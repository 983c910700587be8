"""Test results, structured first (docs/repo-tasks.md "Test results").

Each parser turns one framework's report into a status map: test id -> one of STATUSES. The reports
are written by code the patch controls, so they are untrusted bytes: a parser never raises on them
(a report that does not parse is ReportError, which the caller answers as the program's failure),
and two results for one id keep the worse one, so a duplicate can only lose a pass, never add one.

Ids are SWE-bench's: a pytest node id (`tests/test_x.py::TestC::test_y[a b]`) and a go test name
(`TestX/sub_case`). JUnit XML names a test by dotted class name and name, so its map is keyed by
`junit_key` of the node id; `junit_key` is also how an expected id is looked up in it.
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
