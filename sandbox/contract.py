"""The contract every part shares: the verdict table, the result shape and its builders, every limit
and default, the field readers and the error that names a field, and the task models (math and code).

It lives at the bottom of the house, in `sandbox/` (the lowest package, usable without the service),
and imports nothing but the standard library, so the sandbox, the math library, the service, the
client and the trainer all read one table and decode into one pair of models (docs/architecture.md
"The contract"). A verdict's meaning is a column here; the sets the parts use (what passes, what is
not graded, what a trainer gives no reward) are derived from the columns, never listed again
elsewhere (tests/test_contract.py fails on a second list of verdict names outside this module).
A rule about what a valid task is lives here too, and so do a server's limits (`Limits`, a plain
value) with every check against them; only the wire's own encoding and the conversion of limits to
and from protobuf are verifier/schema.py's.
"""
from __future__ import annotations

import dataclasses
import json
import keyword
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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
# answer 0.0 and a flag (verifier/api/trainer_routes.py), a session's final value raises (trainer/sessions.py)
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
# Limits a deployment tunes (queue sizes, per-call counts, byte limits of a request) are settings:
# verifier/config.py and sandbox/config.py. These are fixed, but for the languages' time and memory
# limits, whose type and defaults are here (the code task model validates against them) and whose
# values a deployment sets in SandboxConfig.limits.

DETAIL_MAX = 300  # characters of a result's or a test's detail
EXTRACT_MAX = 2000  # characters of a code result's extracted program
MATH_SHOWN_CHARS = 200  # characters of a math result's detail and extracted answer

# The tail of a completion the trainer's reward functions and HTTP trainer routes keep (answers sit at
# the end; trainer/config.py RewardConfig.max_completion_chars, verifier/api/trainer_routes.py): it keeps a
# request under the server's field limit.
MAX_COMPLETION_CHARS = 100_000

# Task ids and math choices (Limits.check below)
MAX_ID_BYTES = 256
MAX_CHOICE_BYTES = 4096
# A math task's problem text (MathTask.problem): far above any dataset's problem statement (MATH's
# longest is about 4 KB), and it bounds what the answer grammar reads from it per task.
MAX_PROBLEM_BYTES = 65536

# Math: how an answer is extracted (verifier/math/extract.py; docs/math.md), a MathTask's profile
PROFILES = ("strict", "lenient")
DEFAULT_PROFILE = "strict"

# Code task defaults and rules (CodeTask below applies them; docs/tasks.md "Task schema")
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

# Most tests in one code task (CodeContests-size problems): the default of SandboxConfig.max_tests,
# which the server advertises (Limits.max_tests_per_task); the trainer skips rows over it.
MAX_TESTS = 1000

# Support files come on two edges with different costs, so they have two limits:
# a graded task's `files` (CodeTask below) are sent with every task of a batch and written for the
# program and again for each checker run, under flat names of at most 100 characters;
TASK_MAX_FILES = 16
TASK_MAX_FILES_BYTES = 4 << 20  # all of them together
# an Execute request's `files` (verifier/execute_wire.py, sessions) are one tool call's working directory,
# written once, bounded in all by the request's max_field_bytes.
EXECUTE_MAX_FILES = 64
EXECUTE_MAX_FILE_NAME_BYTES = 255  # a Linux file name
EXECUTE_DEFAULT_OUTPUT_BYTES = 64 << 10  # the head of stdout and stderr an Execute response keeps


@dataclass
class LanguageLimits:
    """Per-language limits (a setting: SandboxConfig.limits). A task's own limits are clamped to the max_* values."""

    default_time_limit_s: float = field(default=2.0, metadata={"help": "CPU seconds per test when the task gives none."})
    max_time_limit_s: float = field(default=10.0, metadata={"help": "Largest CPU time per test a task may ask for."})
    default_memory_limit_mb: int = field(default=256, metadata={"help": "Memory per test (cgroup, no swap) when the task gives none."})
    max_memory_limit_mb: int = field(default=1024, metadata={"help": "Largest memory limit a task may ask for."})
    compile_time_limit_s: float = field(default=10.0, metadata={"help": "CPU seconds for the compile step (compiled languages)."})
    compile_memory_mb: int = field(default=768, metadata={"help": "Memory for the compile step; the container's limit is raised to it while compiling."})


def default_limits() -> dict[str, LanguageLimits]:
    """Interpreted and JIT languages start slower and need more memory than C: give them room."""
    return {
        "python": LanguageLimits(default_time_limit_s=4.0, max_time_limit_s=20.0),
        "c": LanguageLimits(),
        "cpp": LanguageLimits(),
        "javascript": LanguageLimits(default_time_limit_s=4.0, max_time_limit_s=20.0, default_memory_limit_mb=512, max_memory_limit_mb=2048),
        "java": LanguageLimits(default_time_limit_s=4.0, max_time_limit_s=20.0, default_memory_limit_mb=512,
                               max_memory_limit_mb=2048, compile_time_limit_s=20.0, compile_memory_mb=1024),
        # rustc -O and the Go toolchain need time and memory to compile; the programs are native
        "rust": LanguageLimits(compile_time_limit_s=20.0, compile_memory_mb=1024),
        "go": LanguageLimits(compile_time_limit_s=20.0, compile_memory_mb=1024),
    }


# Every image has python3, and the assert harness is Python. A C++ checker needs g++ in the
# program's image (sandbox/images/*.Dockerfile): these languages' images have it.
CHECKER_LANGUAGES = ("python", "cpp")
CPP_CHECKER_LANGUAGES = ("python", "c", "cpp", "rust", "go")
TEST_CODE_LANGUAGES = ("python",)
# How test_code runs (docs/sandboxes.md "How assert-style tests are judged"): in a judge process apart from
# the program's, always. "shared" (program and tests in one interpreter) was removed (issue 16):
# no patch made it safe, so a task naming it is refused rather than graded another way.
JUDGE_MODES = ("process",)
# What test_code is (docs/tasks.md "Task schema"): top-level asserts / check(), or a test file that a
# framework collects and runs, the program importable as the module `solution`.
TEST_FRAMEWORKS = ("assert", "pytest", "unittest")
CALL_TEST_LANGUAGES = ("python",)
# Support files (docs/tasks.md "Task schema"): flat names, so nothing can point outside the job's dir;
# their count and bytes are bounded by TASK_MAX_FILES and TASK_MAX_FILES_BYTES.
FILE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]{0,99}\Z")
# Names the sandbox itself writes: the program's source and binary (prog, prog.<ext>, Java's
# <Class>.java/.class) and the checker's dir (checker source, input/output/answer files).
CHECKER_FILES = frozenset(("checker.py", "checker.cpp", "checker", "input.txt", "output.txt", "answer.txt"))


# Repository tasks (docs/repo-tasks.md "The task schema"): an environment by name, the test command,
# the test ids, bounded in count and bytes; the model's patch and the dataset's test patch are held to
# the server's max_field_bytes like any completion.
ENVIRONMENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,127}\Z")  # a directory name: no '/', no '..'
REPO_REPORTS = ("pytest", "pytest-log", "go-json")  # how the test command's results are read
DEFAULT_REPO_REPORT = "pytest"
REPO_MAX_TEST_IDS = 10_000  # FAIL_TO_PASS and PASS_TO_PASS together (SWE-bench's largest P2P lists: ~5k)
REPO_MAX_TEST_ID_BYTES = 1024
REPO_MAX_CMD_BYTES = 4096
REPO_DEFAULT_TIME_S = 300.0  # CPU seconds of the whole test command (all its processes; more-itertools: ~100 s under gVisor)
REPO_MAX_TIME_S = 600.0
REPO_DEFAULT_MEMORY_MB = 1024
REPO_MAX_MEMORY_MB = 4096
# `editable` (docs/repo-tasks.md "Trust model", "The gold's files"): the existing files the task's reference fix
# changes, the only ones a patch may change. SWE-bench Verified's gold patches change 1 to 21 files.
REPO_MAX_EDITABLE = 1000
REPO_MAX_PATH_BYTES = 1024
_REPO_PATH_BAD = re.compile(r"[\x00-\x1f\x7f\\]")


def repo_path_problem(path: str) -> str:
    """Why `path` is not a file's path inside a repository as a patch names it ("" when it is): relative, printable,
    normalized (no empty, `.` or `..` part: one spelling per file) and not inside `.git`. One home for the patch
    reader (sandbox/repo/patch.py `_check_path`) and a repo task's `editable`, so the two compare as exact strings."""
    if not path or path.startswith("/") or _REPO_PATH_BAD.search(path):
        return "a file path must be relative and printable"
    parts = path.split("/")
    if any(p in ("", ".", "..") for p in parts):
        return "a file path may not have empty, . or .. parts"
    if ".git" in parts:
        return "a file path may not be inside .git"
    return ""


# ----------------------------------------------------------------------------- field readers
# Why hand-written readers over dataclasses rather than pydantic v2: no new dependency for a package
# the trainer also imports, errors that name the exact field path (`tasks[3].code.tests[0]: unknown
# keys ['input', 'output']`) in the same words on every path, and no silent coercion: pydantic's lax
# mode would turn "1" into 1 or a float 2.0 into an int, where we want a wrong type to be an error.

class TaskError(ValueError):
    """A task that cannot be graded as given; `field` names the offending field.

    Readers name fields as `f"{where}.{key}"` under the prefix their edge passes (`tasks[3]` on the
    HTTP port, `tasks[3].code` on the wire). A JSONL line is the task itself, so its prefix is ""
    and its paths start bare (`tests[0].stdin`, not `.tests[0].stdin`); an empty path is the whole
    task, and the message is then the reason alone."""

    def __init__(self, field: str, message: str):
        field = field.removeprefix(".")
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field


def check_keys(obj: Mapping[Any, Any], allowed: frozenset[str] | set[str], where: str) -> None:
    """Unknown keys are an error naming them: a misspelt field must not be silently ignored."""
    unknown = sorted(str(k) for k in obj if k not in allowed)
    if unknown:
        raise TaskError(where, f"unknown keys {unknown} (allowed: {sorted(allowed)})")


def get_str(obj: Mapping[Any, Any], key: str, where: str, default: str = "") -> str:
    """A string that can be written as UTF-8, or `default` when absent (None). A subclass (numpy.str_)
    is the plain text it holds: a model's strings are exact `str`, which every reuse key reads
    exactly (sandbox/keys.py refuses a subclass; docs/service.md "Reuse keys")."""
    value = obj.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise TaskError(f"{where}.{key}", f"must be a string, got {type(value).__name__}")
    value = plain_str(value)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise TaskError(f"{where}.{key}", "is not valid UTF-8 (lone surrogate)") from None
    return value


def get_num(obj: Mapping[Any, Any], key: str, where: str) -> float | None:
    """A finite number of sensible size, or None when absent (an int stays an int)."""
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TaskError(f"{where}.{key}", f"must be a number, got {type(value).__name__}")
    if not math.isfinite(value) or abs(value) > 1e9:
        raise TaskError(f"{where}.{key}", f"must be a finite number of sensible size, got {value!r}")
    number: float = value
    return number


def get_bool(obj: Mapping[Any, Any], key: str, where: str) -> bool:
    """true or false; absent (None) is false."""
    value = obj.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise TaskError(f"{where}.{key}", f"must be true or false, got {type(value).__name__}")
    return value


def one_of(value: str, choices: tuple[str, ...], where: str) -> str:
    """`value` if it is one of `choices`; else an error naming the field and the choices."""
    if value not in choices:
        raise TaskError(where, f"must be one of {list(choices)}, got {value!r}")
    return value


def get_list(obj: Mapping[Any, Any], key: str, where: str) -> Sequence[Any]:
    """A list (or tuple), or [] when absent."""
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise TaskError(f"{where}.{key}", f"must be a list, got {type(value).__name__}")
    return value


def get_files(obj: Mapping[Any, Any], where: str) -> dict[str, str]:
    """`files`: an object of name -> text (validated by CodeTask.validate_files)."""
    value = obj.get("files")
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise TaskError(f"{where}.files", f"must be an object of file name -> text, got {type(value).__name__}")
    for name, text in value.items():
        if not isinstance(name, str):
            raise TaskError(f"{where}.files", f"file names must be strings, got {type(name).__name__}")
        if not isinstance(text, str):
            raise TaskError(f"{where}.files[{name!r}]", f"must be a string, got {type(text).__name__}")
        try:
            (name + text).encode("utf-8")
        except UnicodeEncodeError:
            raise TaskError(f"{where}.files[{name!r}]", "is not valid UTF-8 (lone surrogate)") from None
    return {plain_str(name): plain_str(text) for name, text in value.items()}  # exact str, as get_str


def plain_str(value: str) -> str:
    """`value` as an exact `str` of the same code points (a subclass's own methods are not called)."""
    return value if type(value) is str else str.__str__(value)


def json_value(value: Any, where: str, depth: int = 0) -> Any:
    """A JSON value (None, bool, int, float, str, list, dict with string keys), tuples read as lists;
    anything else is an error naming the field. Floats must be finite (JSON has no NaN)."""
    if depth > MAX_CALL_DEPTH:
        raise TaskError(where, f"nested deeper than {MAX_CALL_DEPTH} levels")
    if value is None or type(value) in (bool, str):
        return value
    if type(value) is int:
        return value
    if type(value) is float:
        if not math.isfinite(value):
            raise TaskError(where, f"must be a finite number (JSON has no {value!r})")
        return value
    if type(value) in (list, tuple):
        return [json_value(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value)]
    if type(value) is dict:
        out = {}
        for k, v in value.items():
            if type(k) is not str:
                raise TaskError(where, f"object keys must be strings, got {type(k).__name__}")
            out[k] = json_value(v, f"{where}.{k}", depth + 1)
        return out
    raise TaskError(where, f"must be a JSON value, got {type(value).__name__}")


def json_size(value: Any, where: str) -> int:
    """Bytes of the value as JSON text; an error naming the field when it is over the bound (or an
    int too long to write as text)."""
    try:
        n = len(json.dumps(value, allow_nan=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError) as e:
        raise TaskError(where, f"cannot be written as JSON: {e}") from None
    if n > MAX_CALL_VALUE_BYTES:
        raise TaskError(where, f"is {n} bytes as JSON, over {MAX_CALL_VALUE_BYTES}")
    return n


def load_json(text: str, where: str) -> Any:
    """A JSON text from the wire as a value (NaN, Infinity and over-deep nesting refused)."""
    def refuse(name: str) -> None:
        raise TaskError(where, f"{name} is not a JSON value")
    if len(text) > MAX_CALL_VALUE_BYTES:
        raise TaskError(where, f"is over {MAX_CALL_VALUE_BYTES} bytes")
    try:
        value = json.loads(text, parse_constant=refuse)
    except (ValueError, RecursionError) as e:
        raise TaskError(where, f"is not valid JSON: {str(e)[:200]}") from None
    return json_value(value, where)


# ----------------------------------------------------------------------------- task models
# One frozen dataclass per kind, every default filled in; `from_dict` is the way in from untrusted
# data, `parse_task` the one decoder of a JSON task of either kind (docs/architecture.md "One schema").

@dataclass(frozen=True)
class MathTask:
    """A math task with defaults filled in; `from_dict` is the way in from untrusted data."""

    id: str
    completion: str = ""
    gold: str = ""
    profile: str = DEFAULT_PROFILE
    choices: tuple[str, ...] = ()
    timeout_s: float = 0.0  # 0: the server's default_math_timeout_s
    # The problem's text, from the dataset (trusted, never the policy's): the answer grammar reads the names it
    # uses (verifier/math/grammar.py `problem_names`; docs/math.md "Answer grammar"). "" when not given.
    problem: str = ""

    KEYS = frozenset({"id", "kind", "completion", "gold", "profile", "choices", "timeout_s", "problem"})

    @classmethod
    def from_dict(cls, obj: Mapping[Any, Any], where: str, task_id: str) -> MathTask:
        """Parse and validate a math task dict under id `task_id`; raises TaskError naming the first bad field."""
        check_keys(obj, cls.KEYS, where)
        choices = obj.get("choices")
        choices = [] if choices is None else choices
        if not isinstance(choices, (list, tuple)) or not all(isinstance(c, str) for c in choices):
            raise TaskError(f"{where}.choices", "must be a list of strings")
        gold = obj.get("gold")
        if isinstance(gold, (int, float)) and not isinstance(gold, bool):
            gold = str(gold)  # datasets often store numeric golds as numbers
        task = cls(id=task_id, completion=get_str(obj, "completion", where), gold=get_str({"gold": gold}, "gold", where),
                   profile=get_str(obj, "profile", where) or DEFAULT_PROFILE,
                   choices=tuple(get_str({"choices": c}, "choices", where) for c in choices),
                   timeout_s=get_num(obj, "timeout_s", where) or 0.0, problem=get_str(obj, "problem", where))
        task.validate(where)
        return task

    def validate(self, where: str) -> None:
        """The value rules (a model built without from_dict, from the wire, gets them too)."""
        one_of(self.profile, PROFILES, f"{where}.profile")
        if self.timeout_s < 0:
            raise TaskError(f"{where}.timeout_s", "must not be negative")

    def to_dict(self, wire: bool = False) -> dict[str, Any]:
        """The plain dict of the task schema (every default filled in)."""
        return {"id": self.id, "kind": "math", "completion": self.completion, "gold": self.gold,
                "profile": self.profile, "choices": list(self.choices), "timeout_s": self.timeout_s,
                "problem": self.problem}


@dataclass(frozen=True)
class CodeTest:
    """One stdin/stdout test; a missing expected_stdout means the program must print nothing.
    None (the sandbox's own API only, e.g. the HTTP port's /run_code): run it, compare nothing."""

    stdin: str = ""
    expected_stdout: str | None = ""

    @classmethod
    def from_dict(cls, obj: Any, where: str, wire: bool = True) -> CodeTest:
        """A test dict as a model (a model as it is: a server's shared test set, verifier/schema.py WireTestSets)."""
        if isinstance(obj, CodeTest):
            return obj
        if not isinstance(obj, Mapping):
            raise TaskError(where, "must be an object with stdin and expected_stdout")
        # {"input", "output"} (APPS, open-r1 style) would otherwise run with empty stdin and expect nothing
        check_keys(obj, {"stdin", "expected_stdout"}, where)
        if not wire and "expected_stdout" in obj and obj["expected_stdout"] is None:
            return cls(stdin=get_str(obj, "stdin", where), expected_stdout=None)
        return cls(stdin=get_str(obj, "stdin", where), expected_stdout=get_str(obj, "expected_stdout", where))


CALL_TEST_KEYS = frozenset({"args", "kwargs", "expected"})  # a call test's keys (CallTest.from_dict)


@dataclass(frozen=True)
class CallTest:
    """One call-based test: `entry_point(*args, **kwargs)` must equal `expected` (docs/tasks.md "Task
    schema": tuples equal lists, ints equal floats of the same value, bools are not numbers)."""

    args: tuple[Any, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    expected: Any = None

    @classmethod
    def from_dict(cls, obj: Any, where: str) -> CallTest:
        """A call test dict as a model: its values must be JSON values (the judge's wire carries them)."""
        if not isinstance(obj, Mapping):
            raise TaskError(where, "must be an object with args, kwargs (optional) and expected")
        check_keys(obj, CALL_TEST_KEYS, where)
        if "expected" not in obj:
            raise TaskError(f"{where}.expected", "is missing (use null for a function that returns None)")
        args = obj.get("args")
        args = [] if args is None else args
        if type(args) not in (list, tuple):
            raise TaskError(f"{where}.args", f"must be a list of arguments, got {type(args).__name__}")
        kwargs = obj.get("kwargs")
        kwargs = {} if kwargs is None else kwargs
        if type(kwargs) is not dict:
            raise TaskError(f"{where}.kwargs", f"must be an object, got {type(kwargs).__name__}")
        for k in kwargs:
            if type(k) is not str or not k.isidentifier():
                raise TaskError(f"{where}.kwargs", f"keys must be argument names, got {k!r}")
        return cls(args=tuple(json_value(list(args), f"{where}.args")),
                   kwargs=json_value(kwargs, f"{where}.kwargs"),
                   expected=json_value(obj["expected"], f"{where}.expected"))

    def validate(self, where: str) -> None:
        """Values built without from_dict (the wire) get the same checks."""
        json_value(list(self.args), f"{where}.args")
        json_value(dict(self.kwargs), f"{where}.kwargs")
        json_value(self.expected, f"{where}.expected")
        json_size([list(self.args), dict(self.kwargs), self.expected], where)

    def to_dict(self) -> dict[str, Any]:
        """The plain dict of the task schema."""
        return {"args": list(self.args), "kwargs": dict(self.kwargs), "expected": self.expected}


@dataclass(frozen=True)
class CodeTask:
    """A code task with every default filled in; `from_dict` is the only way in from untrusted data.

    `time_limit_s` / `memory_limit_mb` None mean the language's default (LanguageLimits).
    """

    language: str
    completion: str = ""
    tests: tuple[CodeTest, ...] = ()
    test_code: str | None = None
    checker: str | None = None
    checker_language: str = DEFAULT_CHECKER_LANGUAGE
    compare: str = DEFAULT_COMPARE
    float_abs_tol: float = DEFAULT_FLOAT_TOL
    float_rel_tol: float = DEFAULT_FLOAT_TOL
    scoring: str = DEFAULT_SCORING
    stop_on_first_failure: bool = False
    time_limit_s: float | None = None
    memory_limit_mb: int | None = None
    id: str = ""
    timeout_s: float = 0.0  # wall-clock budget of the whole job; 0: the server's default
    entry_point: str = ""  # the function under test (call_tests; with test_code: the only name taken)
    call_tests: tuple[CallTest, ...] = ()
    test_framework: str = "assert"
    judge: str = "process"  # docs/sandboxes.md "How assert-style tests are judged"
    files: Mapping[str, str] = field(default_factory=dict)  # support files: name -> text, read-only
    input_file: str = ""  # each test's stdin is also written to this file in the program's dir
    output_file: str = ""  # the answer is read from this file instead of stdout
    # sandbox-only options, not on the wire: heads of stdout/stderr per test (`verifier sandbox run`,
    # the HTTP port's /run_code) and how many bytes of each the heads keep
    return_output: bool = field(default=False, metadata={"wire": False})
    output_head_bytes: int = field(default=4096, metadata={"wire": False})
    # Execute and /run_code run `completion` as the program it is (fences or </think> inside string
    # literals are common in tool calls); only a graded completion has its program picked out of it.
    as_given: bool = field(default=False, metadata={"wire": False})

    @classmethod
    def keys(cls, wire: bool = True) -> frozenset[str]:
        """Allowed dict keys ('kind' included); wire=True leaves out sandbox-only debug options."""
        names = {f.name for f in dataclasses.fields(cls) if not wire or f.metadata.get("wire", True)}
        return frozenset(names | {"kind"})

    @classmethod
    def from_dict(cls, obj: Any, where: str = "task", wire: bool = False,
                  limits: Mapping[str, LanguageLimits] | None = None) -> CodeTask:
        """Parse and validate a task dict; raises TaskError naming the first bad field."""
        if not isinstance(obj, Mapping):
            raise TaskError(where, f"must be an object, got {type(obj).__name__}")
        check_keys(obj, cls.keys(wire), where)
        if obj.get("kind", "code") != "code":
            raise TaskError(f"{where}.kind", f"must be 'code', got {obj.get('kind')!r}")
        raw_tests = get_list(obj, "tests", where)
        raw_calls = get_list(obj, "call_tests", where)
        abs_tol, rel_tol = get_num(obj, "float_abs_tol", where), get_num(obj, "float_rel_tol", where)
        memory = get_num(obj, "memory_limit_mb", where)
        if memory is not None and memory != int(memory):
            raise TaskError(f"{where}.memory_limit_mb", f"must be a whole number, got {memory!r}")
        task_id = obj.get("id", "")
        if isinstance(task_id, int) and not isinstance(task_id, bool):
            task_id = str(task_id)
        if not isinstance(task_id, str):
            raise TaskError(f"{where}.id", "must be a string")
        task = cls(
            language=get_str(obj, "language", where, DEFAULT_LANGUAGE), completion=get_str(obj, "completion", where),
            tests=tuple(CodeTest.from_dict(t, f"{where}.tests[{i}]", wire) for i, t in enumerate(raw_tests)),
            test_code=get_str(obj, "test_code", where) or None, checker=get_str(obj, "checker", where) or None,
            checker_language=get_str(obj, "checker_language", where) or DEFAULT_CHECKER_LANGUAGE,
            compare=get_str(obj, "compare", where) or DEFAULT_COMPARE,
            float_abs_tol=DEFAULT_FLOAT_TOL if abs_tol is None else abs_tol,
            float_rel_tol=DEFAULT_FLOAT_TOL if rel_tol is None else rel_tol,
            scoring=get_str(obj, "scoring", where) or DEFAULT_SCORING,
            stop_on_first_failure=get_bool(obj, "stop_on_first_failure", where),
            time_limit_s=get_num(obj, "time_limit_s", where) or None,
            memory_limit_mb=int(memory) if memory else None, id=task_id,
            timeout_s=get_num(obj, "timeout_s", where) or 0.0,
            entry_point=get_str(obj, "entry_point", where),
            call_tests=tuple(CallTest.from_dict(t, f"{where}.call_tests[{i}]") for i, t in enumerate(raw_calls)),
            test_framework=get_str(obj, "test_framework", where) or "assert",
            judge=get_str(obj, "judge", where) or "process",
            files=get_files(obj, where), input_file=get_str(obj, "input_file", where),
            output_file=get_str(obj, "output_file", where),
            return_output=get_bool(obj, "return_output", where) if not wire else False,
            output_head_bytes=int(get_num(obj, "output_head_bytes", where) or 4096) if not wire else 4096,
            as_given=get_bool(obj, "as_given", where) if not wire else False)
        task.validate(where, limits)
        return task

    def validate(self, where: str, limits: Mapping[str, LanguageLimits] | None = None) -> None:
        """The value rules: what the sandbox can honour. `limits`: per-language maxima (default: default_limits())."""
        limits = default_limits() if limits is None else limits
        one_of(self.language, tuple(limits), f"{where}.language")
        one_of(self.compare, COMPARATORS, f"{where}.compare")
        one_of(self.scoring, SCORINGS, f"{where}.scoring")
        if self.judge == "shared":
            raise TaskError(f"{where}.judge", "'shared' was removed: tests never run in the program's interpreter "
                                              "(docs/sandboxes.md \"How assert-style tests are judged\"); use 'process'")
        one_of(self.judge, JUDGE_MODES, f"{where}.judge")
        if self.checker:
            one_of(self.checker_language, CHECKER_LANGUAGES, f"{where}.checker_language")
        elif self.checker_language not in CHECKER_LANGUAGES:
            raise TaskError(f"{where}.checker_language", f"must be one of {list(CHECKER_LANGUAGES)}")
        if self.test_code and self.language not in TEST_CODE_LANGUAGES:
            raise TaskError(f"{where}.test_code", f"needs language one of {list(TEST_CODE_LANGUAGES)}, "
                                                  f"got {self.language!r}")
        self._validate_kinds(where)
        for name in ("float_abs_tol", "float_rel_tol"):
            value = getattr(self, name)
            if not (math.isfinite(value) and 0 <= value <= MAX_TOLERANCE):
                raise TaskError(f"{where}.{name}", f"must be a finite number >= 0, got {value!r}")
        lim = limits[self.language]
        if self.time_limit_s is not None and not 0 < self.time_limit_s <= lim.max_time_limit_s:
            raise TaskError(f"{where}.time_limit_s", f"must be in (0, {lim.max_time_limit_s}] for {self.language}")
        if self.memory_limit_mb is not None and not MIN_MEMORY_MB <= self.memory_limit_mb <= lim.max_memory_limit_mb:
            raise TaskError(f"{where}.memory_limit_mb",
                            f"must be in [{MIN_MEMORY_MB}, {lim.max_memory_limit_mb}] for {self.language}")
        if self.timeout_s < 0:
            raise TaskError(f"{where}.timeout_s", "must not be negative")
        if self.checker_language == "cpp" and self.language not in CPP_CHECKER_LANGUAGES:
            raise TaskError(f"{where}.checker_language", f"'cpp' needs g++ in the program's image: language one "
                                                         f"of {list(CPP_CHECKER_LANGUAGES)}, got {self.language!r}")
        self.validate_files(where)

    def validate_files(self, where: str) -> None:
        """Support files and file I/O names: flat, bounded, and never a file the sandbox writes itself."""
        if len(self.files) > TASK_MAX_FILES:
            raise TaskError(f"{where}.files", f"more than {TASK_MAX_FILES} files")
        total = sum(len(v.encode("utf-8", "surrogatepass")) for v in self.files.values())
        if total > TASK_MAX_FILES_BYTES:
            raise TaskError(f"{where}.files", f"{total} bytes, over the {TASK_MAX_FILES_BYTES}-byte limit")
        for name in self.files:
            self._check_name(name, f"{where}.files[{name!r}]")
            if name in CHECKER_FILES:
                raise TaskError(f"{where}.files[{name!r}]", f"is a name the checker's dir uses ({sorted(CHECKER_FILES)})")
            if name in (self.input_file, self.output_file):
                raise TaskError(f"{where}.files[{name!r}]", "is also the input_file or output_file")
        for key in ("input_file", "output_file"):
            name = getattr(self, key)
            if name:
                self._check_name(name, f"{where}.{key}")
                if not self.tests:
                    raise TaskError(f"{where}.{key}", "needs stdin tests (`tests`)")
        if self.input_file and self.input_file == self.output_file:
            raise TaskError(f"{where}.output_file", "must differ from input_file")

    def _check_name(self, name: str, where: str) -> None:
        if not FILE_NAME.match(name) or name in (".", ".."):
            raise TaskError(where, "must be a plain file name (letters, digits, _ . + -; no '/', "
                                   "not starting with '.', at most 100 characters)")
        stem, _, ext = name.partition(".")
        if stem == "prog" or (self.language == "java" and ext.rpartition(".")[2] in ("java", "class")):
            raise TaskError(where, "clashes with the program's own source or binary (prog, prog.*, *.java, *.class)")

    def _validate_kinds(self, where: str) -> None:
        """Which test kinds go together (docs/tasks.md "Task schema"): stdin tests (with test_code
        too), or call_tests alone; a framework needs its test file; entry_point is a name."""
        one_of(self.test_framework, TEST_FRAMEWORKS, f"{where}.test_framework")
        if self.entry_point and not (self.entry_point.isidentifier() and not keyword.iskeyword(self.entry_point)):
            raise TaskError(f"{where}.entry_point", f"must be a Python identifier, got {self.entry_point[:100]!r}")
        if self.test_framework != "assert" and not self.test_code:
            raise TaskError(f"{where}.test_framework", f"{self.test_framework!r} needs test_code (the test file)")
        if not self.call_tests:
            return
        if self.language not in CALL_TEST_LANGUAGES:
            raise TaskError(f"{where}.call_tests", f"needs language one of {list(CALL_TEST_LANGUAGES)}, "
                                                   f"got {self.language!r}")
        if not self.entry_point:
            raise TaskError(f"{where}.entry_point", "is needed with call_tests (the function to call)")
        if self.tests or self.test_code:
            raise TaskError(f"{where}.call_tests", "cannot be combined with stdin tests or test_code")
        if self.checker:
            raise TaskError(f"{where}.checker", "does not apply to call_tests (they compare return values)")
        for i, t in enumerate(self.call_tests):
            t.validate(f"{where}.call_tests[{i}]")

    def to_dict(self, wire: bool = False) -> dict[str, Any]:
        """The plain dict the graders take (every default filled in); wire=True: only wire keys."""
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name in self.keys(wire)}
        d["kind"] = "code"
        d["tests"] = [dataclasses.asdict(t) for t in self.tests]
        d["call_tests"] = [t.to_dict() for t in self.call_tests]
        if "files" in d:
            d["files"] = dict(self.files)
        return d


@dataclass(frozen=True)
class RepoTask:
    """A repository task (docs/repo-tasks.md "The task schema"): the model's patch (in `completion`)
    against a built environment's tests. `time_limit_s` / `memory_limit_mb` 0 mean the defaults."""

    id: str
    environment: str
    test_cmd: str
    fail_to_pass: tuple[str, ...]
    pass_to_pass: tuple[str, ...] = ()
    completion: str = ""
    test_patch: str = ""
    report: str = DEFAULT_REPO_REPORT
    time_limit_s: float = 0.0
    memory_limit_mb: int = 0
    timeout_s: float = 0.0  # wall-clock budget of the whole job; 0: the server's default
    # The existing files the patch may change: the task's gold patch's files (docs/repo-tasks.md "Trust model", "The
    # gold's files"); the dataset's, like the tests, never the policy's. Empty: no list (the rules by kind alone).
    editable: tuple[str, ...] = ()

    KEYS = frozenset({"id", "kind", "environment", "test_cmd", "fail_to_pass", "pass_to_pass", "completion",
                      "test_patch", "report", "time_limit_s", "memory_limit_mb", "timeout_s", "editable"})

    @classmethod
    def from_dict(cls, obj: Mapping[Any, Any], where: str, task_id: str) -> RepoTask:
        """Parse and validate a repo task dict; raises TaskError naming the first bad field."""
        check_keys(obj, cls.KEYS, where)
        memory = get_num(obj, "memory_limit_mb", where)
        if memory is not None and memory != int(memory):
            raise TaskError(f"{where}.memory_limit_mb", f"must be a whole number, got {memory!r}")
        task = cls(id=task_id, environment=get_str(obj, "environment", where), test_cmd=get_str(obj, "test_cmd", where),
                   fail_to_pass=_test_ids(obj, "fail_to_pass", where), pass_to_pass=_test_ids(obj, "pass_to_pass", where),
                   completion=get_str(obj, "completion", where), test_patch=get_str(obj, "test_patch", where),
                   report=get_str(obj, "report", where) or DEFAULT_REPO_REPORT,
                   time_limit_s=get_num(obj, "time_limit_s", where) or 0.0, memory_limit_mb=int(memory or 0),
                   timeout_s=get_num(obj, "timeout_s", where) or 0.0, editable=_editable(obj, where))
        task.validate(where)
        return task

    def validate(self, where: str) -> None:
        """The value rules (a model from the wire gets them too): names, counts and bytes bounded."""
        if not ENVIRONMENT_NAME.match(self.environment):
            raise TaskError(f"{where}.environment", "must be an environment's name (letters, digits, _ . + -; "
                                                    "not starting with '.', at most 128 characters)")
        if not self.test_cmd.strip() or "\0" in self.test_cmd:
            raise TaskError(f"{where}.test_cmd", "must be a non-empty shell command")
        check_bytes(self.test_cmd, f"{where}.test_cmd", REPO_MAX_CMD_BYTES)
        one_of(self.report, REPO_REPORTS, f"{where}.report")
        if not self.fail_to_pass:
            raise TaskError(f"{where}.fail_to_pass", "must name at least one test (a task with none resolves nothing)")
        if len(self.fail_to_pass) + len(self.pass_to_pass) > REPO_MAX_TEST_IDS:
            raise TaskError(f"{where}.pass_to_pass", f"more than {REPO_MAX_TEST_IDS} test ids in all")
        seen: set[str] = set()
        for name in ("fail_to_pass", "pass_to_pass"):
            for j, test_id in enumerate(getattr(self, name)):
                if not test_id or "\0" in test_id:
                    raise TaskError(f"{where}.{name}[{j}]", "must be a non-empty test id")
                check_bytes(test_id, f"{where}.{name}[{j}]", REPO_MAX_TEST_ID_BYTES)
                if test_id in seen:
                    raise TaskError(f"{where}.{name}[{j}]", f"test id {test_id[:100]!r} is named twice")
                seen.add(test_id)
        self._validate_editable(where)
        if not 0 <= self.time_limit_s <= REPO_MAX_TIME_S or not math.isfinite(self.time_limit_s):
            raise TaskError(f"{where}.time_limit_s", f"must be in (0, {REPO_MAX_TIME_S}] (0: {REPO_DEFAULT_TIME_S})")
        if self.memory_limit_mb and not MIN_MEMORY_MB <= self.memory_limit_mb <= REPO_MAX_MEMORY_MB:
            raise TaskError(f"{where}.memory_limit_mb", f"must be in [{MIN_MEMORY_MB}, {REPO_MAX_MEMORY_MB}]")
        if self.timeout_s < 0:
            raise TaskError(f"{where}.timeout_s", "must not be negative")

    def _validate_editable(self, where: str) -> None:
        """`editable`: at most REPO_MAX_EDITABLE paths, each a repository path in its one spelling
        (`repo_path_problem`), at most REPO_MAX_PATH_BYTES, none twice: compared as exact strings with the patch's."""
        if len(self.editable) > REPO_MAX_EDITABLE:
            raise TaskError(f"{where}.editable", f"more than {REPO_MAX_EDITABLE} paths")
        seen: set[str] = set()
        for j, path in enumerate(self.editable):
            check_bytes(path, f"{where}.editable[{j}]", REPO_MAX_PATH_BYTES)
            problem = repo_path_problem(path)
            if problem:
                raise TaskError(f"{where}.editable[{j}]", f"{path[:120]!r}: {problem} (exact repository-relative paths)")
            if path in seen:
                raise TaskError(f"{where}.editable[{j}]", f"{path[:120]!r} is named twice")
            seen.add(path)

    @property
    def cpu_s(self) -> float:
        return self.time_limit_s or REPO_DEFAULT_TIME_S

    @property
    def memory_mb(self) -> int:
        return self.memory_limit_mb or REPO_DEFAULT_MEMORY_MB

    def to_dict(self, wire: bool = False) -> dict[str, Any]:
        """The plain dict of the task schema (every default filled in)."""
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        d.update(kind="repo", fail_to_pass=list(self.fail_to_pass), pass_to_pass=list(self.pass_to_pass),
                 editable=list(self.editable))
        return d


def _editable(obj: Mapping[Any, Any], where: str) -> tuple[str, ...]:
    """`editable`: a list of strings, bounded in count before any is read (RepoTask._validate_editable checks them)."""
    paths = get_list(obj, "editable", where)
    if len(paths) > REPO_MAX_EDITABLE:
        raise TaskError(f"{where}.editable", f"more than {REPO_MAX_EDITABLE} paths")
    return tuple(get_str({f"editable[{j}]": v}, f"editable[{j}]", where) for j, v in enumerate(paths))


def _test_ids(obj: Mapping[Any, Any], key: str, where: str) -> tuple[str, ...]:
    """A list of test ids (strings), bounded in count before any is read."""
    ids = get_list(obj, key, where)
    if len(ids) > REPO_MAX_TEST_IDS:
        raise TaskError(f"{where}.{key}", f"more than {REPO_MAX_TEST_IDS} test ids")
    return tuple(get_str({f"{key}[{j}]": v}, f"{key}[{j}]", where) for j, v in enumerate(ids))


# ----------------------------------------------------------------------------- a server's limits

def check_bytes(value: str, where: str, limit: int) -> None:
    """A string field's size in UTF-8 bytes (surrogates counted as sent), refused past `limit`."""
    if len(value) > limit or (not value.isascii() and len(value.encode("utf-8", "surrogatepass")) > limit):
        raise TaskError(where, f"exceeds {limit} bytes")


@dataclass(frozen=True, kw_only=True)
class Limits:
    """The limits a server advertises and enforces, as a plain value: verifier.v1.Limits on the wire
    (verifier/schema.py converts), with the served languages' maxima (ServerInfo.languages). Every
    check of a task against a server's limits is a method here, so a JSON task is decoded and held
    to them in one pass (parse_task) and the wire adds only its own encoding (verifier/schema.py
    validate_tasks). Zero in the two test-byte fields means what it means on the wire: no total
    bound (a server that predates test sets), and a test's fields bounded as any other field."""

    max_tasks_per_call: int
    max_field_bytes: int
    max_math_timeout_s: float
    max_code_timeout_s: float
    max_choices: int
    max_tests_per_task: int = MAX_TESTS
    max_test_set_bytes: int = 0
    max_test_field_bytes: int = 0
    max_request_bytes: int = 0  # advertised for the client's batching; not a per-task rule
    default_math_timeout_s: float = 0.0
    max_queued_items: int = 0
    languages: Mapping[str, LanguageLimits] = field(default_factory=default_limits)

    def check_count(self, n: int, where: str = "tasks") -> None:
        """A call's number of tasks: none, or more than a call may carry, is refused naming the list."""
        if not n:
            raise TaskError(where, "must not be empty")
        if n > self.max_tasks_per_call:
            raise TaskError(where, f"{n} tasks exceed the limit of {self.max_tasks_per_call} per call")

    def check(self, model: Task, where: str, wire: bool = False, tests_checked: bool = False,
              revalidate: bool = False) -> None:
        """The size, count and time limits on a decoded model (the client's check before sending, the
        JSON edges' in parse_task). `wire`: name fields as the proto does (`tasks[3].code.gold`).
        `revalidate`: hold the model's values to these languages too (a model decoded under other
        limits: the client's). `tests_checked`: its tests were checked once as a shared test set."""
        self.check_id(model.id, where)
        math_task = isinstance(model, MathTask)
        self.check_timeout(model.timeout_s, math_task, where)
        payload = f"{where}.{'math' if math_task else 'repo' if isinstance(model, RepoTask) else 'code'}" if wire else where
        if isinstance(model, MathTask):
            self.check_math(model, payload)
            return
        if isinstance(model, RepoTask):
            self.check_repo(model, payload)
            return
        self._check_call_json(model.call_tests, payload, wire)
        if revalidate:
            model.validate(payload, self.languages)
        self.check_code(model, payload, tests_checked)

    def check_id(self, task_id: str, where: str) -> None:
        if len(task_id.encode("utf-8", "surrogatepass")) > MAX_ID_BYTES:
            raise TaskError(f"{where}.id", f"exceeds {MAX_ID_BYTES} bytes")

    def check_timeout(self, timeout_s: float, math_task: bool, where: str) -> None:
        max_timeout = self.max_math_timeout_s if math_task else self.max_code_timeout_s
        if not 0 <= timeout_s <= max_timeout:
            raise TaskError(f"{where}.timeout_s", f"must be in [0, {max_timeout}]")

    def check_math(self, m: MathTask, where: str) -> None:
        check_bytes(m.completion, f"{where}.completion", self.max_field_bytes)
        check_bytes(m.gold, f"{where}.gold", self.max_field_bytes)
        m.validate(where)
        if len(m.choices) > self.max_choices:
            raise TaskError(f"{where}.choices", f"more than {self.max_choices} choices")
        for j, choice in enumerate(m.choices):
            check_bytes(choice, f"{where}.choices[{j}]", MAX_CHOICE_BYTES)
        check_bytes(m.problem, f"{where}.problem", MAX_PROBLEM_BYTES)

    def check_repo(self, r: RepoTask, where: str) -> None:
        """A repo model's sizes: its completion and test patch as any field (RepoTask.validate bounds the rest)."""
        check_bytes(r.completion, f"{where}.completion", self.max_field_bytes)
        check_bytes(r.test_patch, f"{where}.test_patch", self.max_field_bytes)
        r.validate(where)

    def check_code(self, c: CodeTask, where: str, tests_checked: bool = False) -> None:
        """The sizes of a code model whose values were validated (CodeTask.validate)."""
        for name in ("completion", "test_code", "checker", "entry_point"):
            check_bytes(getattr(c, name) or "", f"{where}.{name}", self.max_field_bytes)
        if len(c.call_tests) > self.max_tests_per_task:
            raise TaskError(f"{where}.call_tests", f"more than {self.max_tests_per_task} tests")
        if not c.tests and not c.test_code and not c.call_tests:
            raise TaskError(f"{where}.tests", "a code task needs tests, call_tests or test_code")
        for name, text in c.files.items():
            check_bytes(text, f"{where}.files[{name!r}]", self.max_field_bytes)
        if not tests_checked:
            self.check_tests(c.tests, f"{where}.tests")

    def check_tests(self, tests: Sequence[CodeTest], where: str) -> None:
        """Count (sandbox.max_tests, the one limit), bytes per field and bytes of them all: a task's
        own tests, or a shared test set's once (verifier/schema.py WireTestSets)."""
        if len(tests) > self.max_tests_per_task:
            raise TaskError(where, f"{len(tests)} tests, more than {self.max_tests_per_task}")
        total = 0
        for j, t in enumerate(tests):
            for name in ("stdin", "expected_stdout"):
                value = getattr(t, name) or ""
                check_bytes(value, f"{where}[{j}].{name}", self.max_test_field_bytes or self.max_field_bytes)
                total += len(value) if value.isascii() else len(value.encode("utf-8", "surrogatepass"))
        if self.max_test_set_bytes and total > self.max_test_set_bytes:
            raise TaskError(where, f"{total} bytes of tests exceed the limit of {self.max_test_set_bytes}")

    def _check_call_json(self, calls: Sequence[CallTest], where: str, wire: bool) -> None:
        """Call tests are bounded as the JSON text the wire carries them in (verifier/schema.py
        _call_to_proto), as the wire's own check bounds them before parsing."""
        if len(calls) > self.max_tests_per_task:
            raise TaskError(f"{where}.call_tests", f"more than {self.max_tests_per_task} tests")
        suffix = "_json" if wire else ""
        for j, t in enumerate(calls):
            for name, value in (("args", list(t.args)), ("expected", t.expected), ("kwargs", dict(t.kwargs))):
                if name != "kwargs" or t.kwargs:
                    text = json.dumps(value, allow_nan=False, separators=(",", ":"))
                    check_bytes(text, f"{where}.call_tests[{j}].{name}{suffix}", self.max_field_bytes)


Task = MathTask | CodeTask | RepoTask


def _task_id(obj: Mapping[Any, Any], where: str) -> str:
    task_id = obj.get("id")
    if isinstance(task_id, int) and not isinstance(task_id, bool):
        task_id = str(task_id)
    if not isinstance(task_id, str) or not task_id:
        raise TaskError(f"{where}.id", "must be a non-empty string")
    return task_id


def parse_task(obj: Any, where: str = "task", limits: Limits | None = None) -> Task:
    """A task dict (a `verifier grade` line, an HTTP task, a client item, a trainer row) as a validated
    model: the one decoder of JSON tasks. Raises TaskError naming the field under the prefix `where`:
    wrong types, unknown keys, values the graders cannot honour. `limits`: a server's (its languages,
    sizes, counts and time maxima), held in the same pass; None: the default languages' rules only
    (a client or trainer decoding before it knows a server)."""
    if not isinstance(obj, Mapping):
        raise TaskError(where, f"must be an object, got {type(obj).__name__}")
    task_id = _task_id(obj, where)
    kind = obj.get("kind")
    model: Task
    if kind == "math":
        model = MathTask.from_dict(obj, where, task_id)
    elif kind == "code":
        model = CodeTask.from_dict({**obj, "id": task_id}, where, wire=True,
                                   limits=None if limits is None else limits.languages)
    elif kind == "repo":
        model = RepoTask.from_dict(obj, where, task_id)
    else:
        raise TaskError(f"{where}.kind", f"must be 'math', 'code' or 'repo', got {kind!r}")
    if limits is not None:
        limits.check(model, where)
    return model


def parse_tasks(objs: Sequence[Any], limits: Limits, where: str = "tasks") -> list[Task]:
    """A call's JSON tasks (the HTTP port's `tasks`) as models that fit a server's limits: the count
    first (before decoding a huge list), each task once (parse_task), no id twice. Field errors are
    in JSON terms (`tasks[3].completion`, where the wire says `tasks[3].code.completion`)."""
    limits.check_count(len(objs), where)
    seen: set[str] = set()
    models: list[Task] = []
    for i, obj in enumerate(objs):
        model = parse_task(obj, f"{where}[{i}]", limits)
        if model.id in seen:
            raise TaskError(f"{where}[{i}].id", f"duplicate id {model.id!r}")
        seen.add(model.id)
        models.append(model)
    return models
