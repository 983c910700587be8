"""The contract every part shares: the verdict table, the result shape and its builders, every limit and default.

It lives at the bottom of the house, in `sandbox/` (the lowest package, usable without the service),
and imports nothing but the standard library, so the sandbox, the math library, the service, the
client and the trainer all read one table (docs/architecture.md "The contract"). A verdict's
meaning is a column here; the sets the parts use (what passes, what is not graded, what a
trainer gives no reward) are derived from the columns, never listed again elsewhere
(tests/test_contract.py fails on a second list of verdict names outside this module).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypedDict

# ----------------------------------------------------------------------------- verdicts

Kind = Literal["math", "code", "host"]
# Whose fault it is that the answer was not judged (docs/tasks.md "Results and verdicts"):
#   ""     the answer was judged (right or wrong, or the completion had none)
#   "gold" the task's gold is unusable (invalid_gold): the completion was read, its answer not judged
#   "task" the task or the grader itself failed (error): a malformed task, a grader fault
#   "host" the host could not grade (infra_error): retry; never the program's own doing
Fault = Literal["", "gold", "task", "host"]


@dataclass(frozen=True)
class Verdict:
    """One row of the verdict table."""

    name: str
    proto: int  # its number in verifier.v1.Verdict (proto/verifier/v1/verifier.proto)
    kind: Kind  # the grader that gives it: math, code (a job's or one test's), or the host (any item)
    passes: bool = False  # the answer is right: score 1
    wrong: bool = False  # the answer was judged and is wrong (its output compared or checked)
    found: bool = True  # a final answer or a program was found in the completion (the format reward)
    builds: bool = True  # the program was built (the compiles reward; code only)
    over_time: bool = False  # stopped by a time limit or deadline
    fault: Fault = ""
    retryable: bool = False  # the same item sent again may be graded (the default of Result.retryable)
    cacheable: bool = False  # a pure function of (answer, gold, profile, choices): the engine's math cache keeps it
    execute_status: str = "runtime_error"  # a run's status in an Execute response (docs/service.md "Execute")


TABLE: tuple[Verdict, ...] = (
    Verdict("correct", 1, "math", passes=True, cacheable=True),
    Verdict("incorrect", 2, "math", wrong=True, cacheable=True),
    Verdict("no_answer", 3, "math", found=False, cacheable=True),
    Verdict("invalid_gold", 4, "math", fault="gold", cacheable=True),
    Verdict("timeout", 5, "math", over_time=True),  # the math worker's deadline
    # also a code job's verdict when its test file does not parse (sandbox/job.py); never one test's
    Verdict("error", 6, "math", fault="task"),
    Verdict("accepted", 10, "code", passes=True, execute_status="ok"),
    Verdict("wrong_answer", 11, "code", wrong=True),
    Verdict("compile_error", 12, "code", builds=False, execute_status="compile_error"),
    Verdict("runtime_error", 13, "code"),
    Verdict("time_limit", 14, "code", over_time=True, execute_status="time_limit"),
    Verdict("memory_limit", 15, "code", execute_status="memory_limit"),
    Verdict("output_limit", 16, "code", execute_status="output_limit"),
    Verdict("no_code", 17, "code", found=False, builds=False),
    Verdict("infra_error", 20, "host", fault="host", retryable=True, execute_status="infra_error"),
)
BY_NAME: dict[str, Verdict] = {v.name: v for v in TABLE}
BY_PROTO: dict[int, Verdict] = {v.proto: v for v in TABLE}


def names(**columns: Any) -> tuple[str, ...]:
    """The verdicts whose columns have the given values, in table order: names(kind="code")."""
    return tuple(v.name for v in TABLE if all(getattr(v, k) == want for k, want in columns.items()))


MATH_VERDICTS = names(kind="math")
CODE_VERDICTS = names(kind="code")  # a code test's verdicts (a job's too, with error and infra_error)
SANDBOX_VERDICTS = tuple(v.name for v in TABLE if v.kind != "math")  # a code test's, or the host's
VERDICTS = tuple(v.name for v in TABLE)
PASSING = frozenset(names(passes=True))
# Three meanings of "not graded", from narrow to wide (the fault column):
# the host could not grade: retryable, not the model's fault, left out of pass@k (verifier/tools/report.py)
HOST_FAULTS = frozenset(names(fault="host"))
# no judgement of the completion at all (host or task fault): a trainer's reward is None, never 0.0
# (trainer/tasks.py), and `verifier grade` exits "nothing graded" when every item is one (grade_file.py)
UNGRADED = frozenset(v.name for v in TABLE if v.fault in ("host", "task"))
# the answer's correctness is unknown (also a bad gold): no accuracy reward; the HTTP trainer routes
# answer 0.0 and a flag (verifier/api/http.py), a session's final value raises (trainer/sessions.py)
UNJUDGED = frozenset(v.name for v in TABLE if v.fault)
NOT_FOUND = frozenset(names(found=False))  # nothing to grade in the completion: format reward 0
NOT_BUILT = frozenset(names(builds=False))  # the program was not built: compiles reward 0
CACHEABLE = frozenset(names(cacheable=True))
# Execute's statuses (docs/service.md "Execute"); a test verdict maps through the execute_status column
EXECUTE_STATUSES = ("ok", *dict.fromkeys(v.execute_status for v in TABLE if v.kind != "math" and v.execute_status != "ok"))

# A session cell's status (docs/sessions.md "Sessions"): its own vocabulary, not verdicts. ok and error
# leave the session alive; time_limit, memory_limit and crashed end it (then `lost` or `restored`);
# lost: it had ended before this cell.
CELL_STATUSES = ("ok", "error", "time_limit", "memory_limit", "crashed", "lost")


# ----------------------------------------------------------------------------- results

class _TestFacts(TypedDict):
    verdict: str
    time_s: float
    detail: str
    exit_code: int


class TestResult(_TestFacts, total=False):
    """One test of a code result (docs/tasks.md "Results and verdicts")."""

    name: str  # a pytest / unittest test's name; absent for other tests


class Result(TypedDict):
    """One graded item, as every path returns it (docs/tasks.md "Results and verdicts"). Results are
    plain dicts at run time (built on the hot path, typed without a conversion); the builders below
    are the only places that spell out their keys."""

    id: str
    verdict: str
    score: float
    detail: str
    extracted: str
    extracted_from: str
    queue_s: float
    exec_s: float
    tests: list[TestResult]
    retryable: bool


def outcome(verdict: str, detail: str, extracted: str = "", extracted_from: str = "",
            score: float | None = None) -> dict[str, Any]:
    """A math grader's answer (verifier/math, the engine's worker outcomes): verdict, score, detail and
    what was extracted; the engine adds id, timings, tests and retryable. Score: 1 for a passing
    verdict, else 0, unless given. An unknown verdict is a bug here (KeyError), never sent."""
    passes = BY_NAME[verdict].passes
    return {"verdict": verdict, "score": (1.0 if passes else 0.0) if score is None else float(score),
            "detail": detail, "extracted": extracted, "extracted_from": extracted_from}


def code_outcome(verdict: str, detail: str, extracted: str = "", extracted_from: str = "none", score: float = 0.0,
                 tests: list[Any] | None = None, retryable: bool | None = None) -> dict[str, Any]:
    """A code job's result as the sandbox returns it (sandbox/job.py, sandbox/grader.py): no id or
    timings, which the service adds. `retryable` defaults to the verdict's column."""
    return {**outcome(verdict, detail, extracted, extracted_from, score), "tests": [] if tests is None else tests,
            "retryable": BY_NAME[verdict].retryable if retryable is None else retryable}


def sandbox_infra_error(detail: str, retryable: bool = True, extracted: str = "", how: str = "none") -> dict[str, Any]:
    """The sandbox could not grade a job (sandbox/grader.py): retryable unless a retry cannot help."""
    return code_outcome("infra_error", detail[:DETAIL_MAX], extracted[:EXTRACT_MAX], how, retryable=retryable)


def test_result(verdict: str, time_s: float, detail: str, exit_code: int | None, name: str = "") -> dict[str, Any]:
    """One test of a code result (sandbox/job.py): CPU seconds to 0.1 ms; `name` only when it has one."""
    out = {"verdict": verdict, "time_s": round(time_s, 4), "detail": detail, "exit_code": exit_code}
    if name:
        out["name"] = name
    return out


def item_result(task_id: str, verdict: str, detail: str, retryable: bool | None = None) -> Result:
    """A whole Result for an item answered without grading it (nothing extracted, no timings)."""
    return {"id": task_id, "verdict": verdict, "score": 0.0, "detail": detail, "extracted": "",
            "extracted_from": "", "queue_s": 0.0, "exec_s": 0.0, "tests": [],
            "retryable": BY_NAME[verdict].retryable if retryable is None else retryable}


def infra_error(task_id: str, detail: str) -> Result:
    """The result for an item the grader could not grade: retryable, never a wrong answer."""
    return item_result(task_id, "infra_error", detail[:DETAIL_MAX])


def task_error(task_id: str, detail: str) -> Result:
    """A task refused before grading, answered as a result (the client's on_invalid="result"): not retryable."""
    return item_result(task_id, "error", detail[:DETAIL_MAX])


# ----------------------------------------------------------------------------- limits and defaults
# Limits a deployment tunes (queue sizes, per-call counts, byte limits of a request, the languages'
# time and memory limits) are settings: verifier/config.py and sandbox/config.py. These are fixed.

DETAIL_MAX = 300  # characters of a result's or a test's detail
EXTRACT_MAX = 2000  # characters of a code result's extracted program
MATH_SHOWN_CHARS = 200  # characters of a math result's detail and extracted answer

# Task ids and math choices (verifier/schema.py validate_tasks)
MAX_ID_BYTES = 256
MAX_CHOICE_BYTES = 4096

# Math: how an answer is extracted (verifier/math/extract.py; docs/math.md)
PROFILES = ("strict", "lenient")
DEFAULT_PROFILE = "strict"

# Code task defaults and rules (sandbox/spec.py applies them; docs/tasks.md "Task schema")
COMPARATORS = ("exact", "lines", "tokens", "float", "tokens_ci")
DEFAULT_COMPARE = "tokens"
SCORINGS = ("all", "fraction")
DEFAULT_SCORING = "all"
DEFAULT_LANGUAGE = "python"
DEFAULT_CHECKER_LANGUAGE = "python"
# One default tolerance on every path, as common judges use (Codeforces, Kattis: 1e-6).
DEFAULT_FLOAT_TOL = 1e-6
MAX_TOLERANCE = 1e9
MIN_MEMORY_MB = 16  # below this no runtime starts: the program could not fail on its own merits
# Call tests' values are JSON values; the judge's wire (sandbox/harness/wire.py) takes 100 levels
# of nesting, so a value is at most that deep, and at most MAX_CALL_VALUE_BYTES as JSON text.
MAX_CALL_DEPTH = 90
MAX_CALL_VALUE_BYTES = 16 << 20

# Support files come on two edges with different costs, so they have two limits:
# a graded task's `files` (sandbox/spec.py) are sent with every task of a batch and written for the
# program and again for each checker run, under flat names of at most 100 characters;
TASK_MAX_FILES = 16
TASK_MAX_FILES_BYTES = 4 << 20  # all of them together
# an Execute request's `files` (verifier/execute.py, sessions) are one tool call's working directory,
# written once, bounded in all by the request's max_field_bytes.
EXECUTE_MAX_FILES = 64
EXECUTE_MAX_FILE_NAME_BYTES = 255  # a Linux file name
EXECUTE_DEFAULT_OUTPUT_BYTES = 64 << 10  # the head of stdout and stderr an Execute response keeps
