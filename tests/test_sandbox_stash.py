"""Real containers: a task's test set (inputs, support files, the compiled C++ checker; never an answer)
kept in each container's runner once per call (sandbox/job.py _stash; docs/sandboxes.md
"Test sets kept in the container"). Verdicts with the stash cold and warm against no stash at all
(near misses fail, rewrites pass), a program that attacks what a later job relies on, two test sets
in one container, and the stash's bound."""
from __future__ import annotations

import hashlib
import re
import secrets
from pathlib import Path

import pytest

from sandbox import SandboxConfig, job, plan
from sandbox.channel import Channel
from sandbox.sync import SyncGrader

pytestmark = pytest.mark.docker
POOL = "pytest-sandbox-stash"
TESTLIB = (Path(__file__).parent / "data" / "mini_testlib.h").read_text()
# a + b, with the answer checked against the input and the reference: a right sum is the only pass
SUM_CHECKER = """#include "testlib.h"
int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    long long a = inf.readLong(), b = inf.readLong();
    long long got = ouf.readLong();
    quitf(got == a + b && ans.readLong() == a + b ? _ok : _wa, "sum of a and b");
}
"""
# the usual kind: the output against the reference answer
ANSWER_CHECKER = """#include "testlib.h"
int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    quitf(ouf.readLong() == ans.readLong() ? _ok : _wa, "as the answer");
}
"""
PRODUCT_CHECKER = SUM_CHECKER.replace("a + b", "a * b").replace("sum of", "product of")
PAD = 4000  # bytes of padding per input and answer: over job.STASH_MIN, so each is kept
SUM = "a, b = map(int, input().split())\nprint(a + b)"
PRODUCT = "a, b = map(int, input().split())\nprint(a * b)"
SUM_NEAR = "a, b = map(int, input().split())\nprint(a + b + (a == 5))"  # wrong on the test with a = 5
SUM_REWRITE = "import sys\na, b = map(int, sys.stdin.readline().split())\nsys.stdout.write('%+d\\n\\n' % (a + b))"
PAIRS = [(1, 2), (5, -7), (30, 12), (-4, -4)]


def make_tests(pairs=PAIRS, op=lambda a, b: a + b, pad: int = PAD, salt: str = "") -> list[dict]:
    """Inputs and answers of some KB each: the first line is read, the padding after it is not."""
    return [{"stdin": f"{a} {b}\n" + "#" * pad + salt + "\n", "expected_stdout": f"{op(a, b)}\n" + "0" * pad + "\n"}
            for a, b in pairs]


def task(code: str, checker: str = SUM_CHECKER, test_set=None, **kw) -> dict:
    return {"kind": "code", "language": "python", "completion": f"```python\n{code}\n```",
            "tests": test_set or make_tests(), "checker": checker, "checker_language": "cpp",
            "files": {"testlib.h": TESTLIB}, "scoring": "fraction", **kw}


# Every test here runs on every backend (tests/conftest.py `any_grader`): one Python sandbox, made by
# tests/helpers.py one_sandbox with these settings.
SANDBOX = {"pool_name": POOL}


@pytest.fixture
def sent(monkeypatch) -> list[int]:
    """Bytes of blobs sent to runners, one entry per request (every backend's channel is a Channel,
    and every request goes through its _request: the watched channels of gVisor wrap `request`)."""
    log: list[int] = []
    request = Channel._request

    def counting(self, head, blobs, timeout_s):
        log.append(sum(len(v) for v in (blobs or {}).values()))
        return request(self, head, blobs, timeout_s)

    monkeypatch.setattr(Channel, "_request", counting)
    return log


def box_of(g: SyncGrader):
    """The pool's one idle Python box (pool_size 1), once it is back from its reset."""
    g.call(g._warm(30.0))
    boxes = list(g.grader._pool._idle["python"]._boxes)
    assert len(boxes) == 1
    return boxes[0]


def ping(box) -> dict:
    head, _ = box.channel.request({"op": "ping"}, timeout_s=10)
    return head


def verdicts(r: dict) -> list[str]:
    return [t["verdict"] for t in r["tests"]]


EXPECTED = {SUM: ["accepted"] * 4, SUM_REWRITE: ["accepted"] * 4, PRODUCT: ["wrong_answer"] * 4,
            SUM_NEAR: ["accepted", "wrong_answer", "accepted", "accepted"]}


def test_verdicts_with_the_stash_cold_warm_and_off(any_grader, sent):
    """The first job of a set sends it with each run (a set used once is not kept), the second
    puts it in the container, the next ones name it; every verdict is the one a pool without a
    stash gives: near misses fail, rewrites pass."""
    test_set = make_tests(salt=secrets.token_hex(4))  # a set this server has not seen
    size = sum(len(t["stdin"]) + len(t["expected_stdout"]) for t in test_set)
    answers = sum(len(t["expected_stdout"]) for t in test_set)
    got = {}
    for i, code in enumerate([SUM, SUM_NEAR, SUM_REWRITE, PRODUCT, SUM]):
        n = len(sent)
        r = any_grader.grade(task(code, test_set=test_set))
        got.setdefault(code, verdicts(r))
        assert verdicts(r) == EXPECTED[code], (i, r)
        if i == 0:
            assert sum(sent[n:]) > size and not box_of(any_grader).stash  # sent with each run, not kept
        elif i == 1:
            assert size < sum(sent[n:]) < 2 * size  # kept: the set went once (with the checker binary)
        else:
            # warm: the programs, their outputs and the answers, which go with each checker run
            assert answers < sum(sent[n:]) < answers + PAD, (i, sent[n:])
    box = box_of(any_grader)
    head = ping(box)
    assert head["stash"] == len(box.stash) >= len(PAIRS) and head["stash_bytes"] == sum(box.stash.values())
    held = {hashlib.sha256(t["expected_stdout"].encode()).hexdigest() for t in test_set}
    assert held.isdisjoint(box.stash)  # no expected output is in the container while a program runs
    assert {hashlib.sha256(t["stdin"].encode()).hexdigest() for t in test_set} <= set(box.stash)  # the inputs are
    off = SyncGrader(SandboxConfig(pool_size=1, pool_name=POOL + "-off", languages=("python",), call_cache_mb=0))
    try:
        for code, want in got.items():
            assert verdicts(off.grade(task(code, test_set=test_set))) == want
        assert not box_of(off).stash and ping(box_of(off))["stash"] == 0
    finally:
        off.close()


# Job 1 of a call attacks every file it can reach, the runner's memory and fds, plants files where a
# checker might look, and leaves a process behind to go on; it reports what it changed on stderr.
ATTACK = r'''
import os, stat, sys, time
changed, proc1 = [], []
def attack(p):
    if p.endswith(".py"):  # its own source: it attacks again on its next test
        return
    for how in ("chmod", "append", "link", "rename", "symlink", "overwrite"):
        try:
            if how == "chmod":
                os.chmod(p, 0o777)
            elif how == "append":
                open(p, "ab").write(b"\n999\n")
            elif how == "link":
                os.link(p, p + ".h")
            elif how == "rename":
                os.rename(p, p + ".r")
            elif how == "symlink":  # the old name now leads to the moved file, written through the link
                os.symlink(p + ".r", p)
            else:
                open(p, "wb").write(b"#!/bin/sh\nexit 0\n" if os.path.basename(p) == "checker" else b"999\n")
            changed.append(how + " " + p)
        except OSError:
            pass
def sweep():
    for root in ("/work", "/tmp", "/dev/shm", "/dev/mqueue", "/proc/1/cwd", "/proc/1/root/work"):
        for d, _, files in os.walk(root):
            for f in files:
                attack(os.path.join(d, f))
    for p in ["/proc/1/mem", "/proc/1/environ"] + ["/proc/1/fd/%d" % i for i in range(64)]:
        try:
            f = open(p, "r+b")
            if not stat.S_ISCHR(os.fstat(f.fileno()).st_mode):  # gVisor opens PID 1's stderr, a device
                f.write(b"x")
                proc1.append(p)
        except OSError:
            pass
    for d in ("/tmp", "/dev/shm", "/work"):
        for name in ("checker", "answer.txt", "input.txt", "output.txt", "testlib.h"):
            try:
                p = os.path.join(d, name)
                open(p, "w").write("#!/bin/sh\nexit 0\n")
                os.chmod(p, 0o777)
            except OSError:
                pass
sweep()
if os.fork() == 0:
    os.setsid()
    for _ in range(200):
        time.sleep(0.1)
        sweep()
    os._exit(0)
print(999)
sys.stderr.write("CHANGED %d PROC1 %d: %s\n" % (len(changed), len(proc1), " | ".join(changed)[-50:]))
'''


def test_a_program_cannot_change_the_next_jobs_verdict_through_the_stash(any_grader, sent):
    """Job 1 attacks; the later jobs in the same container, with the stash warm, get the verdicts
    of a fresh pool. The attack is real: it changed its own copies (the support file, the input
    file), and the control below shows it flips a verdict where the answers are in its reach."""
    kw = {"input_file": "input.txt", "checker": ANSWER_CHECKER}
    first = any_grader.grade(task(SUM, **kw))  # warms the stash with this task's set
    assert verdicts(first) == EXPECTED[SUM], first
    r = any_grader.grade(task(ATTACK, **kw))
    assert verdicts(r) == ["wrong_answer"] * 4, r
    m = re.search(r"CHANGED (\d+) PROC1 (\d+)", r["tests"][0]["detail"])
    assert m and int(m.group(1)) > 0, r["tests"][0]["detail"]  # it could write what is its own
    assert m.group(2) == "0"  # and nothing of the runner's
    for code in (SUM_NEAR, PRODUCT, SUM, SUM_REWRITE):
        n = len(sent)
        after = any_grader.grade(task(code, **kw))
        assert verdicts(after) == EXPECTED[code], (code, after)
        answers = sum(len(t["expected_stdout"]) for t in make_tests())
        assert sum(sent[n:]) < answers + PAD  # the stash answered: the inputs were not sent again


# serial: the control's attack races the next job's start, a window another worker's load moves
@pytest.mark.serial
def test_the_attack_flips_a_verdict_when_the_cache_is_the_programs(any_grader, monkeypatch):
    """The control: the answers kept on disk where the program can reach them (written once per
    job into /work, the checker given their path), the same attack makes its wrong answers pass.
    The test above would fail so."""
    made: set[str] = set()

    def answers_on_disk(box, plan, config, stdin, output, expected):
        answers = [e for _, e in plan.tests]
        k = "k" + plan.job_dir[1:]
        if k not in made:
            job._files(box, k, {f"a{i}": a for i, a in enumerate(answers)})
            made.add(k)
        d = "c" + secrets.token_hex(8)
        assert job._files(box, d, {"input.txt": stdin, "output.txt": output}, full_ok=True)
        return job._exec(box, ["checker", "input.txt", "output.txt", f"/work/{k}/a{answers.index(expected)}"], plan,
                         config, config.checker_time_limit_s, cwd=d, stdout_max=64 << 10, rm_cwd=True,
                         exe=plan.checker_exe, scrub=True)

    monkeypatch.setattr(job, "_run_checker", answers_on_disk)
    kw = {"input_file": "input.txt", "checker": ANSWER_CHECKER}
    r = any_grader.grade(task(SUM_NEAR, **kw))
    assert verdicts(r) == EXPECTED[SUM_NEAR], r  # the control's checker judges
    r = any_grader.grade(task(ATTACK, **kw))
    assert verdicts(r)[0] == "wrong_answer" and "accepted" in verdicts(r)[1:], r


def test_two_test_sets_in_one_container_do_not_mix(any_grader):
    """Sum and product tasks on the same inputs (shared digests), different checkers and answers,
    interleaved in one container: each job is judged by its own."""
    sums, products = make_tests(), make_tests(op=lambda a, b: a * b)
    for _ in range(2):
        assert verdicts(any_grader.grade(task(SUM, test_set=sums))) == ["accepted"] * 4
        assert verdicts(any_grader.grade(task(SUM, PRODUCT_CHECKER, products))) == ["wrong_answer"] * 4
        assert verdicts(any_grader.grade(task(PRODUCT, PRODUCT_CHECKER, products))) == ["accepted"] * 4
        assert verdicts(any_grader.grade(task(PRODUCT, test_set=sums))) == ["wrong_answer"] * 4
        # the same checker and inputs, other answers (a dataset's typo): the checker sees each job's own
        typo = [dict(t, expected_stdout="1" + t["expected_stdout"]) for t in sums]
        assert verdicts(any_grader.grade(task(SUM, test_set=typo))) != ["accepted"] * 4


def test_the_stash_is_bounded_per_container():
    """call_cache_mb bounds what a container keeps: a set over it is sent per test (and still
    judged), a second set drops the least recently used one."""
    g = SyncGrader(SandboxConfig(pool_size=1, pool_name=POOL + "-small", languages=("python",), call_cache_mb=1))
    try:
        big = make_tests(pad=200_000)  # 4 x 2 x 200 KB: over 1 MB
        assert verdicts(g.grade(task(SUM_NEAR, test_set=big))) == EXPECTED[SUM_NEAR]
        assert not box_of(g).stash  # nothing of that set kept
        first, second = make_tests(pad=70_000), make_tests(pad=80_000)  # 560 KB and 640 KB: not both
        for s in (first, first, second, second, first):  # a set is kept from its second job on
            assert verdicts(g.grade(task(SUM_NEAR, test_set=s))) == EXPECTED[SUM_NEAR]
            box = box_of(g)
            held, head = sum(box.stash.values()), ping(box)
            assert held <= 1 << 20 and head["stash_bytes"] == held and head["stash"] == len(box.stash)
        assert held > 500_000  # the last one kept, the one before dropped
    finally:
        g.close()


def test_a_jobs_tests_keep_their_digests_when_an_equal_tasks_tests_are_gone():
    """The digest memo is weak and keyed by value: its entry goes with the first of equal tests.
    A job's tests carry their own digests (EncodedTests.with_digests), so a job that outlives an
    equal task's tests still names its set (the bench's call sent a third of its tests again)."""
    import gc

    from sandbox.contract import CodeTest

    stdin, expected = "1 2\n" + "#" * 1000, "3\n" + "0" * 1000
    first = plan.EncodedTests([CodeTest(stdin, expected)])
    first.digests()
    second = plan.EncodedTests([CodeTest(stdin, expected)])
    tagged = second.with_digests(second.digests())
    del first
    gc.collect()
    got = tagged[0]
    assert isinstance(got[0], plan.Held) and got[0].digest == plan._sha(stdin.encode())
    assert isinstance(got[1], plan.Held) and got[1].digest == plan._sha(expected.encode())
