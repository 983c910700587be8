"""What to run for one code task, decided before a container is borrowed (pure): `make_plan` turns a
task (a CodeTask, or a dict it decodes) into a Plan, or into a finished result when the program is
to blame before it runs; its tests stay strings until each runs (EncodedTests) and its reuse key is
exact typed bytes (Plan.share_key). `split_plan` cuts a plan into parts for several containers.
Running a plan is sandbox/job.py's.
"""
from __future__ import annotations

import ast
import hashlib
import operator
import secrets
import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace

from . import checks, watchdog
from .channel import ChannelError
from .config import SandboxConfig
from .contract import EXTRACT_MAX, CodeTask, CodeTest, code_outcome
from .keys import reuse_key
from .languages import LANGUAGES, Language, fill, java_main_class

NAME_MAX = 255  # longest file name on Linux file systems
CHECKER_COMPILE_S = 30.0  # CPU seconds for a C++ checker's compile (sandbox/job.py): testlib.h alone takes several at -O2


class InfraFailure(Exception):
    """The sandbox failed (not the program): retry elsewhere, then report infra_error."""

    def __init__(self, detail: str, retryable: bool = True) -> None:
        super().__init__(detail)
        self.retryable = retryable


def guarded(pool, box, config: SandboxConfig, run: Callable[[], tuple[dict, bool]],
            killed: Callable[[str, str], dict]) -> tuple[dict, bool]:
    """Run a job in `box` with one reading of how it failed, for code and repo jobs alike: a channel
    that broke because the host's watchdog ended the sandbox (sandbox/watchdog.py) is the program's
    verdict, `killed(verdict, detail)`, and the box is not reused; so is one that broke because the
    sandbox was OOM-killed (under Docker's runsc runtime a program over its memory limit takes the whole
    sandbox: in a stdin test, a judged test or a compile alike); any other failure of the sandbox is
    InfraFailure (retried elsewhere, then infra_error), never the program's 0."""
    try:
        pool.mark_start(box)
        return run()
    except ChannelError as e:
        if box.killed:
            verdict, detail = watchdog.verdict(box.killed, config.host_threads_per_sandbox)
            return killed(verdict, f"{detail} (the host's watchdog ended the sandbox)"), False
        if pool.oom_killed(box):
            return killed("memory_limit", "memory limit exceeded (the sandbox was OOM-killed)"), False
        note = pool.death_note(box)
        raise InfraFailure(f"{e} ({note})" if note else str(e)) from e
    except InfraFailure:
        raise
    except Exception as e:  # docker API errors and the like: the sandbox, not the program
        raise InfraFailure(f"sandbox failure: {type(e).__name__}: {e}") from e


def new_job_dir() -> str:
    """A fresh, unguessable name for one job's directory in its container (a retry or a split part gets its own)."""
    return "j" + secrets.token_hex(8)


@dataclass
class Plan:
    """Everything a job needs, decided before a container is borrowed."""

    lang: Language
    code: str
    extracted_from: str
    files: dict[str, bytes]
    compile_argv: list[str] | None
    run_argv: list[str]
    tests: Sequence[tuple[bytes, bytes | None]]
    test_code: str | None
    judge: str
    checker: str | None
    compare: str
    abs_tol: float
    rel_tol: float
    scoring: str
    stop_first: bool  # stop at the first failing test: asked for, or implied by scoring "all" (make_plan)
    time_limit_s: float
    memory_mb: int
    compile_time_s: float
    compile_memory_mb: int
    entry_point: str = ""
    call_tests: list[dict] = field(default_factory=list)
    test_framework: str = "assert"
    support: dict[str, bytes] = field(default_factory=dict)  # the task's files: read-only for the program
    input_file: str = ""
    output_file: str = ""
    checker_language: str = "python"
    env: dict[str, str] = field(default_factory=dict)  # the language's own settings, compile and run
    checker_exe: bytes | None = None  # the compiled C++ checker of this job
    return_output: bool = False  # debugging (`verifier sandbox run`): heads of stdout/stderr per test
    output_head_bytes: int = 4096  # how much of each the heads keep (the HTTP port's /run_code: all of stdout)
    job_dir: str = field(default_factory=new_job_dir)
    ran: bool = False  # the program has run in this attempt: a later spawn failure is its doing
    building: bool = False  # its compile runs (a watchdog kill then is the compile's: sandbox/watchdog.py)
    done: list[dict] = field(default_factory=list)  # per-test entries so far (kept if the budget runs out)
    syntax: dict | None = None  # a Python program's syntax check, answered with its files (_files)
    ended: bool = False  # the sandbox ended in its last test (a limit past which a backend ends the box, the host's
    #                      watchdog): its later tests run in a fresh one (CodeGrader._rest)

    def wall(self, cpu_s: float, config: SandboxConfig) -> float:
        return cpu_s * config.wall_factor + config.wall_extra_s

    def budget_s(self, config: SandboxConfig) -> float:
        """Outer wall-clock budget for the whole job, from its own limits (plus slack), at most
        `config.max_job_s`: one job must not hold its container for hours."""
        n = len(self.tests) + self.judged_tests()
        per_test = self.wall(self.time_limit_s, config) + 0.5
        if self.checker:
            per_test += self.wall(config.checker_time_limit_s, config)
        compile_s = self.wall(self.compile_time_s, config) + 5 if self.compile_argv else 2.0
        if self.checker and self.checker_language == "cpp":
            compile_s += self.wall(CHECKER_COMPILE_S, config) + 5
        return min(compile_s + n * per_test + 15.0, config.max_job_s)


    def share_key(self) -> bytes:
        """What decides this job's verdict, as a reuse key (sandbox/keys.py: exact typed bytes, never
        `==`): every field but the per-attempt and per-item ones (where the code came from in the
        completion, the job dir, run state). Two plans with one key run the same program on the same
        tests under the same limits, so one run answers both (issue 20: identical programs in a call
        run once); call tests that differ only in `1` and `True`, `7` and `7.0` or a dict's order do
        not (issue 29). The tests count by their digests (EncodedTests.__reuse_key__), hashed once
        per server: call it off the event loop (CodeGrader.grade does, with make_plan)."""
        return reuse_key("code-run", _KEY_FIELDS(self))

    def judged_tests(self) -> int:
        """How many tests the judge runs: each call test, each test function of a test file (as
        written: parametrized ones count once), or the asserts as one."""
        if self.call_tests:
            return len(self.call_tests)
        if self.test_framework != "assert":
            return max(1, static_test_count(self.test_code or ""))
        return 1 if self.test_code else 0

    def uses_kinds(self) -> bool:
        """Tests the judge runs with per-test results (kinds.py in the harness)."""
        return bool(self.call_tests) or self.test_framework != "assert" or (
            bool(self.entry_point) and bool(self.test_code))


# Plan fields that do not change a verdict: where the code was found in the completion (kept per item),
# the attempt's job dir and run state, the C++ checker compiled from `checker` (which is in the key).
_PER_ITEM = frozenset(("extracted_from", "job_dir", "ran", "building", "done", "syntax", "checker_exe", "ended"))
_KEY_FIELDS = operator.attrgetter(*(f.name for f in fields(Plan) if f.name not in _PER_ITEM))  # every other field


def static_test_count(test_code: str) -> int:
    """Test functions and methods the file defines (`test*`), read from its syntax on the host: a
    framework that collects none where some are defined is the program's doing, not the task's."""
    try:
        tree = checks.parse_python(test_code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return 0
    return sum(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test")
               for n in ast.walk(tree))


def _parses(source: str) -> bool:
    try:
        checks.parse_python(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def make_plan(task: dict | CodeTask, config: SandboxConfig) -> Plan | dict:
    """Plan for a task, or a finished result dict when the program is to blame before it runs (no
    code, too large). A CodeTask (what the service's front ends decoded) is taken as it is; a dict
    (the sandbox's own API) is decoded here, once. Raises TaskError naming the field when the task
    itself is invalid: the rules are the contract's (sandbox/contract.py CodeTask), the same on every path."""
    if not isinstance(task, CodeTask):
        task = CodeTask.from_dict(task, limits=config.limits)
    lang_name = task.language
    lang = LANGUAGES[lang_name]
    if lang_name not in config.languages:
        raise InfraFailure(f"language {lang_name!r} is not served (served: {', '.join(config.languages)})", retryable=False)
    if task.as_given:  # Execute / /run_code: the program is the code sent (sandbox/contract.py CodeTask.as_given)
        code, how = task.completion, ("raw" if task.completion.strip() else "none")
    else:
        code, how = checks.extract_code(task.completion, lang_name)
    if how == "none":
        return code_outcome("no_code", "no code found in the completion")
    code_b = code.encode("utf-8", "surrogatepass")
    if len(code_b) > config.max_code_bytes:  # the program's fault, like an oversized math answer: it scores 0
        return _refused(code, how, f"program is {len(code_b)} bytes, over the {config.max_code_bytes}-byte limit")
    limits = config.limits_for(lang_name)
    time_limit = task.time_limit_s or limits.default_time_limit_s
    memory = task.memory_limit_mb or limits.default_memory_limit_mb
    main = java_main_class(code) if lang_name == "java" else ""
    source = lang.source.format(main=main)
    if len(source.encode()) > NAME_MAX:  # javac wants the file named after the class
        return _refused(code, how, f"class name of {len(main)} characters is too long for a file name")
    files = {source: code_b}
    tests: Sequence[tuple[bytes, bytes | None]] = EncodedTests(task.tests)
    if len(tests) > config.max_tests or len(task.call_tests) > config.max_tests:
        raise InfraFailure(f"{len(tests)} tests, over max_tests={config.max_tests}", retryable=False)
    if any(utf8_len(t.stdin) > config.max_stdin_bytes for t in task.tests):
        raise InfraFailure(f"a test's stdin is over max_stdin_bytes={config.max_stdin_bytes}", retryable=False)
    if any(e is not None and utf8_len(e) > config.output_limit_bytes for e in (t.expected_stdout for t in task.tests)):
        raise InfraFailure(f"a test's expected output is over output_limit_bytes={config.output_limit_bytes}",
                           retryable=False)  # no program could match it
    if task.test_framework != "assert" and not _parses(task.test_code or ""):
        return code_outcome("error", "test_code (the test file) is not valid Python", code[:EXTRACT_MAX], how)
    if not tests and task.test_code is None and not task.call_tests:
        tests = [(b"", None)]  # no tests: the program must run cleanly on empty input
    compile_argv = fill(lang.compile, main=main, mem=memory) if lang.compile else None
    return Plan(
        lang=lang, code=code, extracted_from=how, files=files, compile_argv=compile_argv,
        run_argv=fill(lang.run, main=main, mem=memory), tests=tests, test_code=task.test_code, judge=task.judge,
        checker=task.checker, compare=task.compare, abs_tol=task.float_abs_tol, rel_tol=task.float_rel_tol,
        # Under "all" the first failure already decides the score (0) and the verdict (its own), so
        # the rest is not run: a program that hangs on every test holds its container one test's
        # wall clock, not tests x wall clock, while other jobs wait for it (docs/sandboxes.md "Code sandboxes").
        scoring=task.scoring, stop_first=task.stop_on_first_failure or task.scoring == "all",
        time_limit_s=time_limit, memory_mb=memory,
        compile_time_s=limits.compile_time_limit_s,
        compile_memory_mb=max(limits.compile_memory_mb, memory) if lang.compile and lang.compile_memory else memory,
        entry_point=task.entry_point, call_tests=[t.to_dict() for t in task.call_tests],
        test_framework=task.test_framework, return_output=task.return_output,
        output_head_bytes=min(task.output_head_bytes, config.output_limit_bytes),
        support={k: v.encode("utf-8", "surrogatepass") for k, v in task.files.items()},
        input_file=task.input_file, output_file=task.output_file, checker_language=task.checker_language,
        env=dict(lang.env),
    )


class EncodedTests(Sequence):
    """A task's tests as bytes, each encoded when its test runs. The server queues every code job of
    a call at once (per-language queues, docs/sandboxes.md "Code sandboxes") and the tasks of a GRPO group share
    one test set's strings: bytes copied per plan held tasks x set size (64 x 10 MB) while queued."""

    def __init__(self, tests: Sequence[CodeTest], digests: Sequence[tuple[str, str | None]] = ()) -> None:
        self._tests = tests
        self._digests = digests  # per test (with_digests): its bytes then carry them (Held)

    def __len__(self) -> int:
        return len(self._tests)

    def part(self, start: int, stop: int) -> EncodedTests:
        """Tests start..stop, still encoded only when each runs (split_plan)."""
        return EncodedTests(self._tests[start:stop], self._digests[start:stop])

    def __reuse_key__(self) -> list[tuple[str, str | None]]:
        """What a reuse key (Plan.share_key) reads of these tests: each test's input and answer
        digests in order (an answer of None, compare nothing, is not an empty answer)."""
        return [(din, dans) for _, din, dans in self.digests()]

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        t = self._tests[i]
        stdin, expected = encoded_test(t)
        if not self._digests:
            return stdin, expected
        din, dans = self._digests[i]
        return held(stdin, din), None if expected is None else held(expected, dans)

    def with_digests(self, digests: Sequence[tuple[CodeTest, str, str | None]]) -> EncodedTests:
        """These tests, their bytes tagged with their digests (what _stash put in the container)."""
        return EncodedTests(self._tests, [(din, dans) for _, din, dans in digests])

    def digests(self) -> list[tuple[CodeTest, str, str | None]]:
        """Each test with the sha256 of its input and expected output (remembered per test object:
        a GRPO group's jobs share them, so a test set is hashed once per server, not per job)."""
        out = []
        for t in self._tests:
            exact = _exact(t)
            d = _DIGESTS.get(t) if exact else None
            if d is None:
                stdin, expected = encoded_test(t)
                d = (_sha(stdin), None if expected is None else _sha(expected))
                if exact:
                    with _DIGESTS_LOCK:
                        _DIGESTS[t] = d
            out.append((t, *d))
        return out


def _exact(t: CodeTest) -> bool:
    """Whether the memo may find `t` by equality: a CodeTest of plain str (or None) fields, whose
    `==` is equality of their code points, exact as a reuse key must be (docs/service.md "Reuse
    keys"); anything else (a str subclass from the sandbox's Python API) is hashed on its own."""
    return type(t) is CodeTest and type(t.stdin) is str and (t.expected_stdout is None or type(t.expected_stdout) is str)


# A memo, not a store: an entry lives as long as the first of equal tests it was made for
_DIGESTS: weakref.WeakKeyDictionary[CodeTest, tuple[str, str | None]] = weakref.WeakKeyDictionary()
_DIGESTS_LOCK = threading.Lock()


def encoded_test(t: CodeTest) -> tuple[bytes, bytes | None]:
    return (t.stdin.encode("utf-8", "surrogatepass"),
            None if t.expected_stdout is None else t.expected_stdout.encode("utf-8", "surrogatepass"))


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Held(bytes):
    """Bytes of a task's test set with their sha256: a container whose runner holds them (Box.stash)
    gets the digest instead of the bytes (_by_ref)."""

    digest: str


def held(data: bytes, digest: str | None = None) -> Held:
    h = Held(data)
    h.digest = digest or _sha(data)
    return h


def utf8_len(text: str) -> int:
    """Bytes of text in UTF-8 without keeping a copy (ASCII, the usual case, needs none at all)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def _refused(code: str, how: str, detail: str) -> dict:
    """A program the sandbox will not build: compile_error, its own fault (never infra_error)."""
    return code_outcome("compile_error", detail, code[:EXTRACT_MAX], how)


SPLIT_MIN_TESTS = 4  # fewer: a second container's job setup (files, syntax check, reset) costs more than it saves


def split_plan(plan: Plan, parts: int) -> list[Plan]:
    """The plan as up to `parts` plans of consecutive tests, to run in as many containers at once
    (issue 20: under "fraction" every test runs, so a program that runs into the time limit on each
    holds one container tests x wall clock; split, the batch's tail shrinks by the parts). Only
    stdin tests of an interpreted program scored "fraction" without stopping at a failure: nothing
    else in the job (a compile, a judge, a C++ checker's compile) is done once for all its tests.
    [plan] when it does not qualify. merge_parts puts the results back together."""
    n = len(plan.tests)
    if (parts < 2 or n < SPLIT_MIN_TESTS or plan.scoring != "fraction" or plan.stop_first or plan.compile_argv
            or plan.test_code is not None or plan.call_tests or not isinstance(plan.tests, EncodedTests)
            or (plan.checker and plan.checker_language == "cpp")):
        return [plan]
    parts = min(parts, n // 2)
    bounds = [n * i // parts for i in range(parts + 1)]
    return [replace(plan, tests=plan.tests.part(a, b), job_dir=new_job_dir(), done=[])
            for a, b in zip(bounds, bounds[1:])]
