"""Red team of JavaScript repository tasks (issue 33; docs/repo-tasks.md "Trust model"): the corpus's jshttp/cookie
task on Docker (tests/test_repo_javascript.py's grader). A patch's code runs in mocha's process, so it can write
mocha's report itself. The host plants a mocha decoy (sandbox/repo/decoys.py `mocha_decoy`: a new file, one test
that fails under every patch), so every blanket forgery is read as tampering: a report with the listed tests
passed (no decoy in it), one rewritten from the titles in the test files, and a runner replaced by one that walks
mocha's loaded suites and reports them all passed. Open (strict xfail): a forgery that walks the suites and spares
the test whose body ends in the decoy's `throw` (detection, not prevention, as for Python's copies)."""
from __future__ import annotations

import json
from typing import Any

import pytest

from test_repo_javascript import COOKIE, INDEX_HEAD, grade, graded  # noqa: F401 (graded: the module's grader fixture)

pytestmark = pytest.mark.docker

_LISTED = [*COOKIE["FAIL_TO_PASS"], *COOKIE["PASS_TO_PASS"]]
_FORGED = json.dumps({"stats": {"tests": len(_LISTED), "passes": len(_LISTED), "pending": 0, "failures": 0},
                      "tests": [], "pending": [], "failures": [],
                      "passes": [{"title": t.split(" ", 1)[1], "fullTitle": t} for t in _LISTED]})
_TAIL = " var decode = decodeURIComponent;\n var encode = encodeURIComponent;\n \n"


def _line(js: str) -> str:
    """A patch adding one line of JavaScript at the top of index.js (loaded by the test files, in mocha's process)."""
    assert "\n" not in js
    return INDEX_HEAD + "+" + js + "\n" + _TAIL


# The listed tests passed, written over mocha's report on exit (the decoy missing from it).
FORGERY = _line("process.on('exit', function (code) { require('fs').writeFileSync(process.env.REPORT, "
                + json.dumps(_FORGED) + "); process.exitCode = 1 })")
_WRITE = ("require('fs').writeFileSync(process.env.REPORT, JSON.stringify({stats: {tests: passes.length, passes: passes.length, "
          "pending: 0, failures: failures.length}, tests: [], pending: [], failures: failures, passes: passes}))")
# Every title in every file of test/ (suite and test calls read by a regular expression), all passed: unknown ones too.
FROM_FILES = _line(
    "process.on('exit', function () { var fs = require('fs'), path = require('path'), d = path.join(process.cwd(), 'test'), "
    "passes = [], failures = []; fs.readdirSync(d).forEach(function (n) { var t = fs.readFileSync(path.join(d, n), 'utf8'), "
    "s = '', re = /\\b(suite|test)\\((['\"])(.*?)\\2/g, m; while ((m = re.exec(t))) { if (m[1] === 'suite') s = m[3]; "
    "else passes.push({title: m[3], fullTitle: s + ' ' + m[3]}) } }); " + _WRITE + "; process.exitCode = 1 })")


def _walk(spare: str) -> str:
    """mocha's Runner (found in require.cache) replaced: no test runs; every test of the loaded suites is
    reported passed, but those `spare` (a JS condition on `t`) reports failed; the run ends with their count."""
    return _line(
        "(function () { var k = Object.keys(require.cache).filter(function (k) { return /mocha[\\\\/]lib[\\\\/]runner\\.js$/.test(k) })[0]; "
        "var R = require.cache[k].exports; R.prototype.run = function (fn) { var passes = [], failures = []; "
        "(function walk(s) { s.tests.forEach(function (t) { (" + spare + " ? failures : passes).push({title: t.title, "
        "fullTitle: t.fullTitle(), err: {message: 'x'}}) }); s.suites.forEach(walk) })(this.suite); " + _WRITE + "; "
        "process.nextTick(function () { fn(failures.length) }); return this } })()")


WALKED = _walk("false")
# The targeted one: the test whose body ends in the decoy's `throw` reported failed, the rest passed.
WALKED_SPARING = _walk("/throw new Error\\([^)]*\\)\\s*}$/.test(String(t.fn))")


def _tampered(result: dict) -> None:
    assert result["tests"], result  # the tests ran and the report was read: the forgery's own effect
    assert (result["verdict"], result["score"]) == ("wrong_answer", 0.0), result
    assert result["detail"].startswith("tampered"), result


@pytest.mark.parametrize("which, diff", [("listed passed", FORGERY), ("titles from the files", FROM_FILES),
                                         ("runner replaced, suites walked", WALKED)])
def test_a_report_forged_by_the_code_under_test_is_never_paid(graded: tuple[Any, Any], which: str, diff: str) -> None:  # noqa: F811
    g, _ = graded
    _tampered(grade(g, which, diff))


@pytest.mark.xfail(strict=True, reason="open (docs/repo-tasks.md \"Trust model\"): a forgery that walks mocha's loaded "
                                       "suites can tell the decoy by its body (it ends in a throw) and report it failed; "
                                       "detection of blanket forgery only, as for Python's text-distinguishable copies")
def test_a_forgery_that_reads_the_decoy_s_body_is_never_paid(graded: tuple[Any, Any]) -> None:  # noqa: F811
    g, _ = graded
    result = grade(g, "walked, sparing", WALKED_SPARING)
    assert result["tests"], result
    assert result["verdict"] != "accepted", result
