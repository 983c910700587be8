"""Red team of JavaScript repository tasks (issue 33; docs/repo-tasks.md "Trust model", "Built and left"): the
corpus's jshttp/cookie task on Docker (tests/test_repo_javascript.py's grader). A patch's code runs in mocha's
process, so it can write mocha's report itself: on exit it overwrites `$REPORT` with every listed test passed,
leaving the bug unfixed. Python and Go tasks catch this blanket forgery with a decoy (a listed test's copy that
must be reported FAILED); a JavaScript task gets none yet, so it is paid (open: a strict xfail until mocha
decoys exist)."""
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
FORGERY = INDEX_HEAD + ("+process.on('exit', function (code) { require('fs').writeFileSync(process.env.REPORT, "
                        + json.dumps(_FORGED) + "); process.exitCode = 1 })\n"
                        " var decode = decodeURIComponent;\n var encode = encodeURIComponent;\n \n")


@pytest.mark.xfail(strict=True, reason="open: no decoys for mocha tasks (docs/repo-tasks.md \"Built and left\"): a report "
                                       "forged on exit with every listed test passed is paid 1.0")
def test_a_report_forged_by_the_code_under_test_is_never_paid(graded: tuple[Any, Any]) -> None:  # noqa: F811
    g, _ = graded
    result = grade(g, "forged", FORGERY)
    assert result["tests"], result  # the tests ran and the report was read: the forgery's own effect
    assert result["verdict"] != "accepted", result
