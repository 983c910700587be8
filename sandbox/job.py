"""One job: one completion against all its tests, in one borrowed container.

`run_job` drives the runner through a plan (sandbox/plan.py make_plan: what to run, decided before a
container is borrowed), blocking: call it in a thread. Compile once, then each test in its own process under its
limits; per-test verdicts come from sandbox.checks. Expected outputs never enter the container
while a program runs: a special checker's answer file is sent and written only after the program
is dead, never kept in the runner's memory (the stash holds inputs, support files and the compiled
checker: bytes whose reading would win a program nothing).
"""
from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable

from . import checks
from .config import SandboxConfig
from .contract import BY_NAME, CODE_VERDICTS, EXTRACT_MAX, HOST_FAULTS, PASSING, CodeTest, code_outcome, test_result
from .keys import reuse_key
from .languages import LANGUAGES
from .plan import (CHECKER_COMPILE_S, EncodedTests, Held, InfraFailure, Plan, guarded, encoded_test, held, static_test_count,
                   utf8_len)

COMPILE_CAP = 64 << 10
# Container-side programs: sandbox/harness/*.py, copied read-only into every image (sandbox/build.py).
HARNESS_DIR = "/opt/sandbox/harness"
# How assert-style tests (test_code) run (docs/sandboxes.md "How assert-style tests are judged"): the tests
# in a judge process, the program's functions called over the typed data channel (wire.py).
JUDGE = f"{HARNESS_DIR}/judge.py"
JUDGE_START_S = 5.0  # CPU for the judge itself (interpreter, pytest import) on top of the tests' limits
RESULTS_MAX = 4 << 20  # the judge's result lines, one per test
# C++ checkers (docs/sandboxes.md "Code sandboxes"): compiled with the support files beside them, as the
# testlib convention expects (`#include "testlib.h"`), then run from memory on each test.
CHECKER_COMPILE = ["g++", "-O2", "-std=gnu++17", "-pipe", "-s", "-o", "checker", "checker.cpp"]  # -s: a smaller stash
MAX_CHECKER_BYTES = 32 << 20
CHECKER_ARGS = ["input.txt", "output.txt", "answer.txt"]


def merge_parts(plan: Plan, results: list[dict]) -> dict:
    """One result from the results of split_plan's parts, as the whole plan in one container would
    have given it: the tests in order, the first failing one's verdict and detail, the fraction
    score over all tests. A part that did not run its tests (the program did not parse, the
    sandbox failed) answers for the whole."""
    for r in results:
        if r["verdict"] in HOST_FAULTS or not r["tests"]:
            return r
    tests = [t for r in results for t in r["tests"]]
    total = len(plan.tests)
    verdicts = [t["verdict"] for t in tests]
    failed = next((i for i, v in enumerate(verdicts) if v not in PASSING), None)
    detail = f"{len(tests)} of {total} tests passed" if failed is None else f"test {failed + 1}: {tests[failed]['detail']}"
    return _finish(plan, checks.overall(verdicts), checks.score(verdicts, total, plan.scoring), detail, tests)


def out_of_budget(plan: Plan) -> dict:
    """The job's wall-clock budget ran out while the host was healthy: the tests the program did not
    finish get time_limit, the finished ones keep their verdicts. A job that stops at its first
    failure lists only the test it was in (the later ones would not have run)."""
    total = len(plan.tests) + plan.judged_tests()
    tests = list(plan.done[:total])
    if plan.stop_first and any(t["verdict"] not in PASSING for t in tests):
        missing = 0
    else:
        missing = min(1, total - len(tests)) if plan.stop_first else total - len(tests)
    tests += [_test_entry("time_limit", None, "not finished within the job's wall-clock budget")] * missing
    verdicts = [t["verdict"] for t in tests]
    failed = next((i for i, v in enumerate(verdicts) if v not in PASSING), None)
    detail = f"{total} of {total} tests passed" if failed is None else f"test {failed + 1}: {tests[failed]['detail']}"
    if failed is not None and len(tests) < total:
        detail += f" (stopped after {len(tests)} of {total} tests)"
    return _finish(plan, checks.overall(verdicts), checks.score(verdicts, total, plan.scoring), detail, tests)


def run_job(pool, box, plan: Plan, config: SandboxConfig) -> tuple[dict, bool]:
    """Run the plan in `box`. Returns (result, reusable): reusable when the box may serve again once
    `reset_box` finds it clean (the caller resets it after the answer is out: issue 20, a reset on
    the request's path cost up to 30-130 ms at p99). Raises InfraFailure if the sandbox fails."""
    return guarded(pool, box, config, lambda: _run_job(pool, box, plan, config),
                   lambda verdict, detail: _killed_by_watch(plan, verdict, detail))


def _killed_by_watch(plan: Plan, verdict: str, detail: str) -> dict:
    """The result of a job whose sandbox the host's watchdog killed whole (Box.killed): the compile's
    compile_error, or the step's test gets the verdict (memory_limit; runtime_error for host
    threads) after the tests done so far."""
    if plan.building:
        return _finish(plan, "compile_error", 0.0, f"compiler: {detail}", [])
    plan.ended = True
    tests = [*plan.done, _test_entry(verdict, None, detail)]
    return _summary(plan, tests, len(plan.tests) + plan.judged_tests())


def _exec(box, argv, plan: Plan, config: SandboxConfig, cpu_s: float, stdin: bytes = b"",
          cwd: str | None = None, stdout_max: int | None = None, env: dict | None = None,
          fd3: bool = False, rm_cwd: bool = False, fd3_max: int = 4096, put: dict[str, bytes] | None = None,
          fresh: list[str] | None = None, collect: tuple[str, int] | None = None, exe: bytes | None = None,
          scrub: bool = False, judge: bool = False) -> dict:
    """One run in the runner (its protocol: sandbox/harness/job_protocol.py); the facts, with the kept bytes as *_b.
    judge: argv is harness/judge.py, which keeps the judge's uid (the program's process it starts
    takes the program's)."""
    wall = plan.wall(cpu_s, config)
    blobs = {"stdin": stdin} if stdin else {}
    if exe is not None:
        blobs["exe"] = exe
    blobs.update({f"put:{name}": data for name, data in (put or {}).items()})
    refs, blobs = _by_ref(box, blobs)
    head, blobs = box.channel.request(
        {"op": "exec", "refs": refs, "argv": argv, "cwd": cwd or plan.job_dir, "cpu_s": cpu_s, "wall_s": wall,
         "stdout_max": stdout_max or config.output_limit_bytes, "stderr_max": config.stderr_limit_bytes,
         "fsize_max": config.file_size_limit_mb << 20, "env": env or {}, "fd3": fd3, "fd3_max": fd3_max, "rm_cwd": rm_cwd,
         "put": list(put or ()), "fresh": fresh or [], "collect": list(collect) if collect else None,
         "scrub": scrub, "judge": judge, "warm": config.warm(plan.lang.name, judge),
         "warm_program": judge and config.warm(plan.lang.name)},
        blobs or None, timeout_s=wall + 10.0)
    if head.get("tampered"):  # the program's fault, not the sandbox's: its verdict, then recycle
        box.tainted = True
    elif head.get("error"):
        raise InfraFailure(f"runner: {head['error']}")
    head["stdout_b"], head["stderr_b"], head["fd3_b"] = blobs.get("stdout", b""), blobs.get("stderr", b""), blobs.get("fd3", b"")
    head["collected_b"] = blobs.get("collected", b"")
    return head


def _files(box, name: str, files: dict[str, bytes], full_ok: bool = False, readonly=(), plan: Plan | None = None) -> bool:
    """Write files into /work/name. With full_ok (after the program ran), a full /work is reported
    (False): what filled it is the program's leftovers, its verdict and not the sandbox's fault.
    The runner removes a half-written dir; if it could not, the container is not reused.
    plan (a Python job's own files): the runner checks its syntax in the same round trip, into
    plan.syntax (_build reads it; docs/benchmarks.md "Where a trivial /run_code request's time goes")."""
    modes = [[k, 0o400 if k in readonly else 0o600] for k in files]
    req: dict[str, object] = {"op": "files", "dir": name, "files": modes}
    if plan is not None and plan.lang.name == "python":
        req["pycheck"] = plan.lang.source
    refs, files = _by_ref(box, files)
    if refs:
        req["refs"] = refs
    head, _ = box.channel.request(req, files, timeout_s=30)
    if plan is not None:
        plan.syntax = head.get("pycheck")
    if head.get("full") and not head.get("removed", True):
        box.tainted = True
    if head.get("full") and full_ok:
        return False
    if not head.get("ok"):
        raise InfraFailure(f"runner could not write files: {head.get('error')}")
    return True


def _test_entry(verdict: str, facts: dict | None, detail: str) -> dict:
    facts = facts or {}
    return test_result(verdict, float(facts.get("cpu_s") or 0.0), checks.clip(detail), facts.get("exit_code"))


def _task_fault(facts: dict | None, detail: str) -> dict:
    """A test the task's own data could not judge (its checker failed on the reference answer too, its
    tests reach no function of the program): infra_error, not retried, whose fault is the task's (the
    contract's fault column: "task"). The entry never reaches a result: _summary raises on it."""
    return {**_test_entry("infra_error", facts, detail), "fault": "task"}


def _run_job(pool, box, plan: Plan, config: SandboxConfig) -> tuple[dict, bool]:
    """Run one job in its box: files, checker, syntax check or compile, the stdin tests, then the
    judged tests; (result, whether the box may serve again)."""
    plan.ran, plan.done, plan.ended = False, [], False
    if plan.checker and plan.checker_language == "cpp" and plan.checker_exe is None:
        plan.checker_exe = _compiled_checker(pool, box, plan, config, pool.overhead_mb(box, plan.lang.name) + _stash_mb(box))
    _stash(pool, box, plan, config)
    overhead = pool.overhead_mb(box, plan.lang.name) + _stash_mb(box)  # the stash is the runner's memory
    # The job's own limit before its files: a Python program's syntax check runs with them, and under
    # the previous job's limit a right answer's parse was OOM-killed after a 16 MB job (a
    # compile_error: tests/test_sandbox_checker_attacks.py). The check needs no more than the run.
    pool.set_memory(box, plan.memory_mb + overhead)
    _files(box, plan.job_dir, {**plan.support, **plan.files}, readonly=plan.support, plan=plan)
    failed_build = _build(pool, box, plan, config, overhead)
    if failed_build is not None:
        return failed_build, True
    pool.set_memory(box, plan.memory_mb + overhead)  # after a compile's own limit (_build)
    tests = plan.done
    _stdin_tests(pool, box, plan, config, tests)
    total = len(plan.tests) + plan.judged_tests()
    if not box.tainted and (plan.test_code or plan.call_tests) and not (
            plan.stop_first and tests and tests[-1]["verdict"] not in PASSING):
        if not plan.uses_kinds():
            tests.append(_assert_test(box, plan, config))
        else:
            judged = _judged_tests(box, plan, config)
            if judged is None:  # a test file that defines no test: the task's error, never a pass
                return _finish(plan, "error", 0.0, "the test file defines no test (test_framework "
                               f"{plan.test_framework}): nothing to run", list(tests)), True
            tests.extend(judged)
            # call tests not run (stopped at a failure) count as failed; a file has the tests it ran
            total = len(plan.tests) + (len(plan.call_tests) if plan.call_tests else len(judged))
    return _summary(plan, tests, total), not box.tainted


STASH_MIN = 512  # bytes: a smaller blob costs about what its reference does


def _stash(pool, box, plan: Plan, config: SandboxConfig) -> None:
    """Put the task's test set into the box's runner once (issue 20: a GRPO call's 8-64 jobs of one
    problem share it): the inputs, the support files and the compiled C++
    checker, keyed by sha256. Later runs in this box name them (_by_ref) instead of sending them,
    in this job and in every later job with the same bytes, until the box is recycled. Held in
    PID 1's memory, out of the program's reach; what a program or checker sees on disk is written
    per run as before (docs/sandboxes.md "Test sets kept in the container"). At most
    call_cache_mb per box, least recently used dropped first; a set over it, or seen for the
    first time (_seen_before), is sent with each run."""
    cap, stash = config.call_cache_mb << 20, getattr(box, "stash", None)
    if not cap or stash is None:
        return
    sizes, data, digests = _test_set(plan)
    if not sizes or sum(sizes.values()) > cap or not _seen_before(sizes):
        return
    for d in sizes:
        if d in stash:
            stash.move_to_end(d)
    missing = [d for d in sizes if d not in stash]
    if digests and isinstance(plan.tests, EncodedTests):
        plan.tests = plan.tests.with_digests(digests)
    if not missing:
        return
    new = sum(sizes[d] for d in missing)
    used, drop = sum(stash.values()), []
    for d in list(stash):  # least recently used first; this job's own are at the end
        if used + new <= cap or d in sizes:
            break
        used -= stash.pop(d)
        drop.append(d)
    pool.set_memory(box, box.mem_mb + _mb(new))  # the runner grows before the next step's limit counts it
    sent = {d: _bytes_of(data[d]) for d in missing}
    head, _ = box.channel.request({"op": "stash", "drop": drop}, sent, timeout_s=30 + new / (4 << 20))
    if head.get("ok"):
        stash.update((d, sizes[d]) for d in missing)


_SEEN: OrderedDict[bytes, None] = OrderedDict()  # test sets (their digests' digest) this server has run
_SEEN_MAX = 4096
_SEEN_LOCK = threading.Lock()


def _seen_before(sizes: dict[str, int]) -> bool:
    """Whether a job of this test set ran before (else it is noted now). A set's first job sends it
    with each run as before: a set used once (an evaluation, /run_code) would pay the stash's
    round trip and memory-limit update for nothing; a GRPO call's second job on finds it seen."""
    key = reuse_key("test-set-seen", sorted(sizes))  # digests: a set of blobs, whatever their order
    with _SEEN_LOCK:
        if key in _SEEN:
            _SEEN.move_to_end(key)
            return True
        _SEEN[key] = None
        while len(_SEEN) > _SEEN_MAX:
            _SEEN.popitem(last=False)
    return False


_Source = bytes | tuple[CodeTest, int]  # a blob, or a test and 0 (its input) or 1 (its answer)


def _bytes_of(src: _Source) -> bytes:
    if isinstance(src, bytes):
        return src
    stdin, expected = encoded_test(src[0])
    return stdin if src[1] == 0 else expected or b""


def _test_set(plan: Plan) -> tuple[dict[str, int], dict[str, _Source], list[tuple[CodeTest, str, str | None]]]:
    """What of the plan's task goes into the stash: digest -> size, digest -> its bytes or (a
    CodeTest, 0 for its input or 1 for its answer) to encode only if sent, and the tests' digests.
    The support files are tagged with theirs (Held) on the way."""
    plan.support = {k: held(v) if len(v) >= STASH_MIN else v for k, v in plan.support.items()}
    blobs: list[tuple[str, int, _Source]] = [(v.digest, len(v), v) for v in plan.support.values() if isinstance(v, Held)]
    if isinstance(plan.checker_exe, Held):
        blobs.append((plan.checker_exe.digest, len(plan.checker_exe), plan.checker_exe))
    digests = plan.tests.digests() if isinstance(plan.tests, EncodedTests) else []
    for t, din, dans in digests:
        blobs.append((din, utf8_len(t.stdin), (t, 0)))  # never an answer: module docstring
    big = [(d, n, src) for d, n, src in blobs if n >= STASH_MIN]
    return {d: n for d, n, _ in big}, {d: src for d, _, src in big}, digests


def _mb(n: int) -> int:
    return -(-n // (1 << 20))


def _stash_mb(box) -> int:
    """What the box's runner holds of test sets, in MB (counted in each step's memory limit)."""
    return _mb(sum(getattr(box, "stash", {}).values()))


def _by_ref(box, blobs: dict[str, bytes]) -> tuple[dict[str, str], dict[str, bytes]]:
    """(references, the blobs still to send): a blob the box's runner holds goes by its digest."""
    stash = getattr(box, "stash", None) or {}
    refs = {k: v.digest for k, v in blobs.items() if isinstance(v, Held) and v.digest in stash}
    return refs, {k: v for k, v in blobs.items() if k not in refs}


def _build(pool, box, plan: Plan, config: SandboxConfig, overhead: int) -> dict | None:
    """Python's syntax check (inside the runner: no extra interpreter start) or the compile; the
    job's compile_error result when it fails, None when the program may run."""
    if plan.lang.name == "python":  # checked with the files (_files): one round trip fewer
        head = plan.syntax or {"error": "no syntax check came back with the files"}
        if head.get("error"):
            raise InfraFailure(f"runner: {head['error']}")
        if not head.get("ok"):
            return _finish(plan, "compile_error", 0.0, checks.clip(head.get("error_text", "").strip()), [])
    if plan.compile_argv:
        pool.set_memory(box, plan.compile_memory_mb + overhead)
        plan.building = True
        try:
            facts = _exec(box, plan.compile_argv, plan, config, plan.compile_time_s, stdout_max=COMPILE_CAP, env=plan.env)
        finally:
            plan.building = False
        v, d = checks.run_verdict(facts, plan.lang, plan.compile_time_s)
        if v in HOST_FAULTS:
            raise InfraFailure(d)
        if v is not None:
            detail = checks.compile_detail(facts) if v == "runtime_error" else f"compiler: {d}"
            return _finish(plan, "compile_error", 0.0, detail, [])
    return None


def _stdin_tests(pool, box, plan: Plan, config: SandboxConfig, tests: list[dict]) -> None:
    """Run the stdin/stdout tests in order into `tests` (plan.done), stopping where `all` scoring or a
    broken box says so. A sandbox OOM-killed mid-test ends the job in plan.guarded (its memory_limit)."""
    for stdin, expected in plan.tests:
        entry = _one_test(pool, box, plan, config, stdin, expected)
        tests.append(entry)
        if box.tainted or (plan.stop_first and entry["verdict"] not in PASSING):
            break


def _summary(plan: Plan, tests: list[dict], total: int) -> dict:
    """The job's result from its tests: the first infra_error is the host's (raised, retried unless
    the dataset's), else the overall verdict, score and a detail naming the first failure."""
    verdicts = [t["verdict"] for t in tests]
    if any(v in HOST_FAULTS for v in verdicts):
        bad = tests[verdicts.index("infra_error")]
        raise InfraFailure(bad["detail"], retryable=bad.get("fault") != "task")
    verdict = checks.overall(verdicts) if len(tests) == total else next(v for v in verdicts if v not in PASSING)
    score = checks.score(verdicts, total, plan.scoring)
    failed = next((i for i, t in enumerate(tests) if t["verdict"] not in PASSING), None)
    if failed is None:
        detail = f"{len(tests)} of {total} tests passed"
    else:
        detail = f"test {failed + 1}: {tests[failed]['detail']}"
        if len(tests) < total:
            detail += f" (stopped after {len(tests)} of {total} tests)"
    return _finish(plan, verdict, score, detail, tests)


_CHECKERS: OrderedDict[bytes, bytes] = OrderedDict()  # reuse_key of checker + support files -> binary
_CHECKERS_MAX = 32
_CHECKERS_LOCK = threading.Lock()


def _compiled_checker(pool, box, plan: Plan, config: SandboxConfig, overhead: int) -> bytes:
    """The task's C++ checker, compiled before the program runs (nothing of the program can touch the
    build) and kept on the host: every test runs this binary from memory. A group of completions of
    one problem shares it (a small cache keyed by the checker and its files). A checker that does
    not compile is the dataset's: infra_error, not retried, as for a Python checker that fails on the
    reference answer."""
    key = reuse_key("cpp-checker", plan.checker, plan.support)
    with _CHECKERS_LOCK:
        if key in _CHECKERS:
            _CHECKERS.move_to_end(key)
            return _CHECKERS[key]
    d = "k" + secrets.token_hex(8)
    _files(box, d, {**plan.support, "checker.cpp": (plan.checker or "").encode("utf-8", "surrogatepass")})
    pool.set_memory(box, config.limits_for("cpp").compile_memory_mb + overhead)
    facts = _exec(box, CHECKER_COMPILE, plan, config, CHECKER_COMPILE_S, cwd=d, stdout_max=COMPILE_CAP,
                  rm_cwd=True, collect=("checker", MAX_CHECKER_BYTES))
    v, why = checks.run_verdict(facts, LANGUAGES["cpp"], CHECKER_COMPILE_S)
    if v in HOST_FAULTS:
        raise InfraFailure(f"compiling the checker: {why}")
    got = facts.get("collected") or {}
    if v is not None or got.get("error") or not facts["collected_b"] or got.get("bytes", 0) > MAX_CHECKER_BYTES:
        detail = checks.compile_detail(facts) if v == "runtime_error" else why or got.get("error") or "no binary"
        raise InfraFailure(checks.clip(f"checker failed to compile: {detail}"), retryable=False)
    exe = held(facts["collected_b"])  # hashed once: the stash's key for it
    with _CHECKERS_LOCK:
        _CHECKERS[key] = exe
        while len(_CHECKERS) > _CHECKERS_MAX:
            _CHECKERS.popitem(last=False)
    return exe


def _one_test(pool, box, plan: Plan, config: SandboxConfig, stdin: bytes, expected: bytes | None) -> dict:
    """Run the program on one test: stdin piped (and written to input_file), its answer from stdout
    or output_file (removed before the run: a file left by an earlier test is not this run's answer)."""
    facts = _exec(box, plan.run_argv, plan, config, plan.time_limit_s, stdin=stdin, env=plan.env,
                  put={plan.input_file: stdin} if plan.input_file else None,
                  fresh=[plan.output_file] if plan.output_file else None,
                  collect=(plan.output_file, config.output_limit_bytes) if plan.output_file else None)
    if facts.get("put_error"):
        # Nothing of the program has touched this job dir yet: the sandbox failed. Its compile has:
        # what the compiler wrote from its source (javac: a .class file per class) fills /work too.
        if not plan.ran and not plan.compile_argv:
            raise InfraFailure(f"runner could not write the input file: {facts['put_error']}")
        return _test_entry("runtime_error", None, "could not write the input file where the program's build or "
                                                  f"earlier runs left their files: {facts['put_error']}")
    facts = _blame_spawn(plan, facts, lambda: _own_binary_unrunnable(box, plan, config))
    return _with_output(plan, _judge_test(pool, box, plan, config, stdin, expected, facts), facts)


def _blame_spawn(plan: Plan, facts: dict, own_binary_unrunnable=lambda: False) -> dict:
    """A program that cannot start is its own runtime_error, not the sandbox's infra_error, when
    it already ran once (it removed or changed its own files: binary, job dir; the runner gives
    /work and the job dir their modes back before each run, so chmod alone does not get here), or
    when what failed to start is its own compiled output and the container still starts programs
    (a binary the kernel refuses, e.g. a forged .interp section: ENOEXEC)."""
    if facts.get("spawn_error") and (plan.ran or own_binary_unrunnable()):
        facts = dict(facts, spawn_error=None, exit_code=127,
                     stderr_b=b"could not start the program (its own binary or files): "
                     + facts["spawn_error"].encode())
    plan.ran = True
    return facts


def _own_binary_unrunnable(box, plan: Plan, config: SandboxConfig) -> bool:
    """The program's first run failed to spawn: is that its compiled output's fault? Only for a
    binary in its job dir, and only once a probe shows the container still starts programs."""
    if not plan.run_argv or not plan.run_argv[0].startswith("./"):
        return False  # an interpreter from the read-only image: the sandbox's fault
    probe = _exec(box, ["/bin/true"], plan, config, 1.0)
    return not probe.get("spawn_error") and probe.get("exit_code") == 0


def _with_output(plan: Plan, entry: dict, facts: dict) -> dict:
    if plan.return_output:
        entry["stdout"] = facts["stdout_b"][:plan.output_head_bytes].decode("utf-8", "replace")
        entry["stderr"] = facts["stderr_b"][:plan.output_head_bytes].decode("utf-8", "replace")
        for name in ("stdout", "stderr"):  # the runner counts every byte written, beyond what it keeps
            written = max(len(facts[f"{name}_b"]), facts.get(f"{name}_bytes") or 0)
            entry[f"{name}_truncated"] = written > plan.output_head_bytes
        entry.update(signal=facts.get("signal"), wall_s=facts.get("wall_s"), max_rss_kb=facts.get("maxrss_kb"))
    return entry


def _judge_test(pool, box, plan: Plan, config: SandboxConfig, stdin: bytes, expected: bytes | None, facts: dict) -> dict:
    v, d = checks.run_verdict(facts, plan.lang, plan.time_limit_s)
    if v is not None:
        return _test_entry(v, facts, d)
    output = facts["stdout_b"]
    if plan.output_file and expected is not None:
        got = facts.get("collected") or {}
        if not got.get("exists"):
            return _test_entry("wrong_answer", facts, f"the program did not write its output file {plan.output_file}")
        if got.get("error"):
            return _test_entry("wrong_answer", facts, f"output file {plan.output_file}: {got['error']}")
        if got.get("bytes", 0) > config.output_limit_bytes:
            return _test_entry("output_limit", facts, f"output file {plan.output_file} over its limit")
        output = facts["collected_b"]
    bad = checks.non_finite(output) if plan.checker and checks.non_finite(expected or b"") is None else None
    if bad is not None:  # a checker's `abs(a - b) > eps` passes nan: never asked (docs/sandboxes.md "Code sandboxes")
        entry = _test_entry("wrong_answer", facts, f"output token {checks._show(bad)} is not a finite number "
                                                   "and the expected output has none")
    elif plan.checker:
        entry = _checked(pool, box, plan, config, stdin, output, facts, expected or b"")
    elif expected is None:
        entry = _test_entry("accepted", facts, "ran cleanly")
    else:
        ok, why = checks.compare(output, expected, plan.compare, plan.abs_tol, plan.rel_tol)
        entry = _test_entry("accepted" if ok else "wrong_answer", facts, "" if ok else why)
    if BY_NAME[entry["verdict"]].passes or BY_NAME[entry["verdict"]].wrong:  # its output was judged
        entry["detail"] = checks.clip((entry["detail"] + _stderr_note(facts)).strip())
    return entry


def _stderr_note(facts: dict, n: int = 120) -> str:
    """The end of what the program wrote to stderr, for a human reading the result: stderr never
    decides a verdict (docs/sandboxes.md "Code sandboxes")."""
    err = facts.get("stderr_b") or b""
    if not err.strip():
        return ""
    text = err.decode("utf-8", "replace").strip()
    return f" [stderr, {facts.get('stderr_bytes') or len(err)} bytes, ends: {text[-n:]!r}]"


def _checked(pool, box, plan: Plan, config: SandboxConfig, stdin: bytes, output: bytes, facts: dict,
             expected: bytes) -> dict:
    """Run the task's checker (checker input output answer) in a fresh directory, after the
    program's processes are gone: exit 0 accepts, 1 rejects (a C++ checker's 2, testlib's
    presentation error, too). A checker that fails otherwise (an uncaught Python exception included,
    via sandbox/harness/checker_wrap.py) is run once more on the reference answer as the output: if
    it accepts that, the program's output made it fail (wrong_answer); if it fails there too, it is
    the dataset's checker (infra_error, not retried). The re-run must not be starved by what the
    program left (_with_room); nor the first run where a step past its limit ends the sandbox, which
    would make a checker's need the program's memory_limit (Backend.over_limit_ends_sandbox)."""
    def check() -> dict | None:
        return _run_checker(box, plan, config, stdin, output, expected)

    cf = _with_room(pool, box, check) if pool.over_limit_ends_sandbox else check()
    if cf is not None and _starved(cf, plan, config):  # gVisor frees a gone program's pages lazily: the same room
        cf = _with_room(pool, box, check)  # as the reference
    if cf is None:
        return _test_entry("output_limit", facts, "the program's files filled the sandbox: no room left for the checker")
    msg = (cf["stdout_b"] or cf["stderr_b"]).decode("utf-8", "replace").strip()
    if cf.get("exit_code") == 0 and not cf.get("stop"):
        return _test_entry("accepted", facts, msg)
    rejects = (1, 2) if plan.checker_language == "cpp" else (1,)
    if cf.get("exit_code") in rejects and not cf.get("stop"):
        return _test_entry("wrong_answer", facts, f"checker: {msg}" if msg else "checker rejected the output")
    if not _is_utf8(output):  # a checker reading text fails on it: the program's output is at fault
        return _test_entry("wrong_answer", facts, "output is not valid UTF-8 text (the checker failed on it)")
    _, why = checks.run_verdict(cf, LANGUAGES[plan.checker_language], config.checker_time_limit_s)
    ref = _with_room(pool, box, lambda: _run_checker(box, plan, config, stdin, expected, expected))
    if ref is None:  # the reference fit where the program's output did: its leftover files took the room
        return _test_entry("wrong_answer", facts, "the checker failed on this output and the program's files "
                                                  "left no room to check the reference answer")
    if ref.get("exit_code") == 0 and not ref.get("stop"):
        return _test_entry("wrong_answer", facts, checks.clip(f"the checker failed on this output ({why or msg}) "
                                                             "and accepts the reference answer"))
    return _task_fault(facts, f"checker failed: {why or msg}")


def _starved(cf: dict, plan: Plan, config: SandboxConfig) -> bool:
    """Whether a checker run ended at the memory limit: what the program left may have starved it."""
    return checks.run_verdict(cf, LANGUAGES[plan.checker_language], config.checker_time_limit_s)[0] == "memory_limit"


def _with_room(pool, box, run: Callable[[], dict | None]) -> dict | None:
    """A checker run with memory the program cannot have taken: what it left behind in /work (a tmpfs
    kept for its next tests) is charged to the container and was allocated under the current limit,
    and gVisor returns a gone program's pages to the host only after a while (under load, after the
    checker started: CI's pod run), so doubling the limit for this run gives the checker at least a
    whole limit. The checker on the program's output gets it too when it ran out of memory first, so
    the output and the reference answer are judged with the same room (docs/sandboxes.md). The room is the box's
    under the fixed allowance (SandboxConfig.overhead_mb), doubled, where the backend gave the program less of it
    (Backend.overhead_mb, userns): a checker is no program, and needs the same room on every backend."""
    mb = box.mem_mb
    pool.set_memory(box, 2 * (mb + pool.config.overhead_mb(box.language) - pool.overhead_mb(box, box.language)))
    try:
        return run()
    finally:
        pool.set_memory(box, mb)


def _run_checker(box, plan: Plan, config: SandboxConfig, stdin: bytes, output: bytes, expected: bytes) -> dict | None:
    """One checker run on `output` in a fresh directory removed afterwards; None if /work is full."""
    d = "c" + secrets.token_hex(8)
    files = {**plan.support, "input.txt": stdin, "output.txt": output, "answer.txt": expected}
    if plan.checker_language == "python":
        files["checker.py"] = (plan.checker or "").encode("utf-8", "surrogatepass")
    if not _files(box, d, files, full_ok=True, readonly=plan.support):
        return None
    if plan.checker_language == "cpp":
        return _exec(box, ["checker", *CHECKER_ARGS], plan, config, config.checker_time_limit_s, cwd=d,
                     stdout_max=64 << 10, rm_cwd=True, exe=plan.checker_exe, scrub=True)
    return _exec(box, ["python3", "-I", f"{HARNESS_DIR}/checker_wrap.py", "checker.py", *CHECKER_ARGS],
                 plan, config, config.checker_time_limit_s, cwd=d, stdout_max=64 << 10, rm_cwd=True, scrub=True)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def _assert_test(box, plan: Plan, config: SandboxConfig) -> dict:
    nonce = secrets.token_hex(16)
    stdin = nonce.encode() + b"\n" + str(plan.test_code).encode("utf-8", "surrogatepass")
    facts = _exec(box, ["python3", "-I", JUDGE], plan, config, plan.time_limit_s, stdin=stdin, fd3=True,
                  judge=True)
    facts = _blame_spawn(plan, facts)
    return _with_output(plan, _judge_asserts(plan, facts, nonce), facts)


def _judged_tests(box, plan: Plan, config: SandboxConfig) -> list[dict] | None:
    """Call tests, a test file, or asserts with entry_point, in the judge (docs/sandboxes.md "How assert-style
    tests are judged"): one entry per test from its result lines; None for a test file that
    defines and collects no test."""
    kind = "call" if plan.call_tests else plan.test_framework if plan.test_framework != "assert" else "assert"
    nonce = secrets.token_hex(16)
    spec = {"entry_point": plan.entry_point, "calls": plan.call_tests, "compare": plan.compare,
            "abs_tol": plan.abs_tol, "rel_tol": plan.rel_tol, "time_limit_s": plan.time_limit_s,
            "call_wall_s": plan.wall(plan.time_limit_s, config), "stop_first": plan.stop_first}
    stdin = (nonce + "\n" + json.dumps(spec, separators=(",", ":")) + "\n").encode() + \
        (plan.test_code or "").encode("utf-8", "surrogatepass")
    expected = plan.judged_tests()
    cpu = plan.time_limit_s * expected + JUDGE_START_S
    facts = _exec(box, ["python3", "-I", JUDGE, kind], plan, config, cpu, stdin=stdin, fd3=True,
                  fd3_max=RESULTS_MAX, judge=True)
    facts = _blame_spawn(plan, facts)
    lines = _result_lines(facts.get("fd3_b", b""), nonce)
    entries = [_judged_entry(x["test"]) for x in lines if type(x.get("test")) is dict]
    done = any("done" in x for x in lines)
    load = next((x for x in lines if "load_error" in x), None)
    undefined = next((x["undefined"] for x in lines if "undefined" in x), None)
    if undefined is not None:
        return [_task_fault(facts, f"test references undefined name {str(undefined)[:200]} (the "
                            "task's tests must define their helpers; docs/sandboxes.md \"How assert-style tests are judged\")")]
    if any(x.get("unused") is True for x in lines):
        return [_task_fault(facts, "test references no function of the program: any program "
                            "would pass them (docs/sandboxes.md \"How assert-style tests are judged\")")]
    v, d = checks.run_verdict(facts, LANGUAGES["python"], cpu)
    if load is not None:  # the program failed before any test ran (or the test file could not load)
        why = "time_limit" if load.get("time_limit") else "runtime_error"
        n = 1 if plan.stop_first else max(1, len(plan.call_tests))
        entries = [_test_entry(why, None, f"before the tests: {load['load_error']}")] * n
    elif not done or v is not None:  # the judge stopped early: unfinished tests get its verdict
        why, d = (v, d) if v is not None else ("runtime_error", "the judge stopped before its tests ended")
        # call tests: each unfinished one; a test file: one more entry, as its remaining tests are
        # unknown; at least one either way (a run that ended badly, tampering included, never passes)
        left = len(plan.call_tests) - len(entries) if plan.call_tests and not plan.stop_first else 1
        entries += [_test_entry(why, facts, d)] * max(1, left)
    elif not entries and not plan.call_tests:
        if static_test_count(plan.test_code or "") == 0:
            return None
        entries = [_test_entry("runtime_error", facts, "the framework ran none of the tests the file defines")]
    return [_with_output(plan, dict(e), facts) for e in entries]


def _result_lines(data: bytes, nonce: str) -> list[dict]:
    """The judge's result lines: only those carrying the nonce, each a JSON object."""
    out, prefix = [], nonce.encode() + b" "
    for line in data.split(b"\n"):
        if not line.startswith(prefix):
            continue
        try:
            obj = json.loads(line[len(prefix):])
        except ValueError:
            continue
        if type(obj) is dict:
            out.append(obj)
    return out


def _judged_entry(t: dict) -> dict:
    verdict = str(t["verdict"]) if t.get("verdict") in CODE_VERDICTS else "runtime_error"
    return test_result(verdict, float(t.get("time_s") or 0.0), checks.clip(str(t.get("detail") or "")), None,
                       str(t.get("name") or "")[:200])


def _judge_asserts(plan: Plan, facts: dict, nonce: str) -> dict:
    v, d = checks.run_verdict(facts, plan.lang, plan.time_limit_s)
    # The judge's lines, on an fd the program's process never holds, count only with the nonce
    # (_result_lines): a line without it turned a failing program's run into infra_error.
    lines = _result_lines(facts.get("fd3_b", b""), nonce)
    result = next((x["result"] for x in lines if "result" in x), None)
    undefined = next((x["undefined"] for x in lines if "undefined" in x), None)
    if v == "runtime_error" and result == "assert":
        return _test_entry("wrong_answer", facts, "assertion failed" + checks._tail(facts["stderr_b"]))
    if v == "runtime_error" and undefined is not None:
        return _task_fault(facts, f"test references undefined name {str(undefined)[:200]} (the task's "
                                                 "tests must define their helpers; docs/sandboxes.md \"How assert-style tests are judged\")")
    if v == "runtime_error" and any(x.get("unused") is True for x in lines):
        return _task_fault(facts, "test references no function of the program: any program "
                                                 "would pass them (docs/sandboxes.md \"How assert-style tests are judged\")")
    if v is not None:
        return _test_entry(v, facts, d)
    if result == "ok":
        return _test_entry("accepted", facts, "asserts passed")
    return _test_entry("wrong_answer", facts, "the program exited before its tests ran")


def reset_box(box) -> bool:
    """Kill and wipe what the job left; False (recycle the container) if anything remains. Blocking:
    call it in a thread, after the job's answer (CodeGrader._run)."""
    box.jobs += 1
    head, _ = box.channel.request({"op": "reset"}, timeout_s=15)
    return bool(head.get("clean"))


def _finish(plan: Plan, verdict: str, score: float, detail: str, tests: list[dict]) -> dict:
    return code_outcome(verdict, checks.clip(detail), plan.code[:EXTRACT_MAX], plan.extracted_from, score, tests,
                        retryable=False)
