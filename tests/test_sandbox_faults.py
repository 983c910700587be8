"""Real containers: failures a program causes are the program's verdict, never infra_error (issue 9).

infra_error means "no reward, retry elsewhere": a program that can turn its own failure into one
escapes its 0 and makes the server destroy and resubmit containers. Each case below was infra_error
before; each must now blame the program (or, where the runner undoes the damage, judge its output)."""
from __future__ import annotations

import os
import signal

import docker
import pytest

from sandbox import SandboxConfig
from sandbox.plan import Plan, make_plan
from sandbox.sync import SyncGrader
from tests.helpers import kernel_differs, on_backend

pytestmark = pytest.mark.docker

LANGS = ("python", "c", "cpp", "javascript", "java")
ADD = [{"stdin": "1 2\n", "expected_stdout": "3\n"}, {"stdin": "2 2\n", "expected_stdout": "4\n"}]


# Every test here runs on every backend (tests/conftest.py `any_grader`), a sandbox per language made by
# tests/helpers.py one_sandbox with these settings.
SANDBOX = {"pool_name": "pytest-sandbox-faults", "languages": LANGS}


# Each program reads "a b", prints a+b, and first does something to its own files.
C_MAIN = ("#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n#include <sys/stat.h>\n"
          "int main(){int a,b;%s;if(scanf(\"%%d %%d\",&a,&b)!=2)return 1;printf(\"%%d\\n\",a+b);return 0;}")
JAVA_MAIN = ("import java.nio.file.*;import java.util.*;public class Main{public static void main(String[] x)throws Exception{"
             "%s;Scanner s=new Scanner(System.in);System.out.println(s.nextInt()+s.nextInt());}}")
JS_MAIN = "const fs=require('fs');%s;const [a,b]=fs.readFileSync(0,'utf8').trim().split(/\\s+/).map(Number);console.log(a+b);"
PY_MAIN = "import os, shutil\n%s\na, b = map(int, input().split())\nprint(a + b)"
SELF = {
    "python": (PY_MAIN, {"rm_binary": "os.unlink('prog.py')", "rm_dir": "shutil.rmtree(os.getcwd())",
                         "chmod_dir": "os.chmod('.', 0)", "chmod_work": "os.chmod('/work', 0)"}),
    "c": (C_MAIN, {"rm_binary": "unlink(\"prog\")", "rm_dir": "system(\"rm -rf \\\"$PWD\\\"\")",
                   "chmod_dir": "chmod(\".\",0)", "chmod_work": "chmod(\"/work\",0)"}),
    "javascript": (JS_MAIN, {"rm_binary": "fs.unlinkSync('prog.js')", "rm_dir": "fs.rmSync(process.cwd(),{recursive:true})",
                             "chmod_dir": "fs.chmodSync('.',0)", "chmod_work": "fs.chmodSync('/work',0)"}),
    "java": (JAVA_MAIN, {"rm_binary": "Files.delete(Paths.get(\"Main.class\"))",
                         "rm_dir": "for(String f:new String[]{\"Main.class\",\"Main.java\"})Files.delete(Paths.get(f));"
                                   "Files.delete(Paths.get(System.getProperty(\"user.dir\")))",
                         "chmod_dir": "Files.setPosixFilePermissions(Paths.get(\".\"),Set.of())",
                         "chmod_work": "Files.setPosixFilePermissions(Paths.get(\"/work\"),Set.of())"}),
}
SELF["cpp"] = (C_MAIN.replace("stdio.h", "cstdio").replace("stdlib.h", "cstdlib"), SELF["c"][1])


# A binary the kernel refuses to exec (ENOEXEC): the linker puts this byte after ld's interpreter
# path, leaving .interp without its NUL. It fails before it ever ran, which used to be infra_error.
UNEXECUTABLE = {
    "c": "#include <stdio.h>\nconst char no_nul[1] __attribute__((section(\".interp\"), used)) = {'x'};\n"
         "int main(void) { puts(\"3\"); return 0; }\n",
    "cpp": "#include <cstdio>\nextern const char no_nul[1] __attribute__((section(\".interp\"), used)) = {'x'};\n"
           "int main() { std::puts(\"3\"); return 0; }\n",
}


@pytest.mark.parametrize("lang", sorted(UNEXECUTABLE))
def test_a_compiled_program_the_kernel_refuses_is_its_runtime_error(any_grader, lang):
    r = any_grader.grade({"language": lang, "completion": UNEXECUTABLE[lang], "tests": ADD[:1]})
    assert r["verdict"] == "runtime_error" and not r["retryable"], r
    assert "could not start the program" in r["tests"][0]["detail"] + r["detail"], r
    honest = UNEXECUTABLE[lang].replace("__attribute__((section(\".interp\"), used))", "")
    assert any_grader.grade({"language": lang, "completion": honest, "tests": ADD[:1]})["verdict"] == "accepted"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("attack", ["rm_binary", "rm_dir", "chmod_dir", "chmod_work"])
def test_a_program_breaking_its_own_files_in_test_1_gets_its_own_verdict(any_grader, lang, attack):
    template, attacks = SELF[lang]
    r = any_grader.grade({"language": lang, "completion": template % attacks[attack], "tests": ADD})
    if attack.startswith("chmod"):  # the runner gives the modes back: its output judges it
        assert r["verdict"] == "accepted", r
    else:  # it cannot run again: test 2 is its runtime error, test 1 its own verdict
        assert r["verdict"] == "runtime_error" and not r["retryable"], r
        assert [t["verdict"] for t in r["tests"]] == ["accepted", "runtime_error"], r


CHECKER = ("import sys\nout = open(sys.argv[2]).read().split(); ans = open(sys.argv[3]).read().split()\n"
           "sys.exit(0 if out == ans else 1)\n")


def test_chmod_work_before_a_checker_is_judged_by_the_output(any_grader):
    right = {"language": "python", "completion": PY_MAIN % "os.chmod('/work', 0)", "tests": ADD, "checker": CHECKER}
    assert any_grader.grade(right)["verdict"] == "accepted"
    wrong = dict(right, completion=PY_MAIN.replace("a + b", "a - b") % "os.chmod('/work', 0)")
    r = any_grader.grade(wrong)
    assert r["verdict"] == "wrong_answer" and not r["retryable"], r


def test_invalid_utf8_to_a_text_checker_is_a_wrong_answer(any_grader):
    r = any_grader.grade({"language": "python", "completion": "import sys\nsys.stdout.buffer.write(b'\\xff\\xfe3\\n')",
                      "tests": ADD[:1], "checker": CHECKER})
    assert r["verdict"] == "wrong_answer" and "UTF-8" in r["detail"] and not r["retryable"], r


def test_a_java_class_name_too_long_for_a_file_is_a_compile_error(any_grader):
    code = "public class " + "A" * 300 + "{public static void main(String[] a){System.out.println(3);}}"
    r = any_grader.grade({"language": "java", "completion": code, "tests": ADD[:1]})
    assert r["verdict"] == "compile_error" and not r["retryable"], r
    ok = "public class " + "A" * 200 + "{public static void main(String[] a){System.out.println(3);}}"
    assert any_grader.grade({"language": "java", "completion": ok, "tests": ADD[:1]})["verdict"] == "accepted"


def test_a_program_over_the_size_limit_is_its_own_fault(any_grader):
    big = "x = 1\n" * (100 << 10)  # 600 KiB: over max_code_bytes (256 KiB), under the server's field limit
    r = any_grader.grade({"language": "python", "completion": big + "print(3)", "tests": ADD[:1]})
    assert r["verdict"] == "compile_error" and "bytes" in r["detail"] and not r["retryable"], r


HANG_AFTER_FIRST = ("import os, time\na, b = map(int, input().split())\n"
                    "if a != 1:\n    time.sleep(1000)\nprint(a + b)")
MANY = [{"stdin": "1 2\n", "expected_stdout": "3\n"}] + [{"stdin": "5 5\n", "expected_stdout": "10\n"}] * 20


def test_the_job_budget_scales_with_tests_times_time_limit():
    """21 x 3 s ran past the server's fixed 60 s budget: the default budget now covers every test."""
    config = SandboxConfig()
    plan = make_plan({"language": "python", "completion": HANG_AFTER_FIRST, "tests": MANY, "time_limit_s": 3}, config)
    assert isinstance(plan, Plan) and plan.budget_s(config) > 21 * plan.wall(3, config)


def test_a_job_holds_its_container_at_most_max_job_s():
    """A looping program on 1,000 tests under 'fraction' was owed tests x wall limit (hours) while
    its language's other jobs queued. The budget is capped; the unfinished tests get time_limit."""
    config = SandboxConfig(max_job_s=120.0)
    big = {"language": "python", "completion": HANG_AFTER_FIRST, "scoring": "fraction",
           "tests": [{"stdin": "1 2\n", "expected_stdout": "3\n"}] * 1000, "time_limit_s": 2}
    assert make_plan(big, config).budget_s(config) == 120.0
    config = SandboxConfig(pool_size=1, pool_name="pytest-sandbox-cap", languages=("python",), max_job_s=4.0)
    with SyncGrader(config) as g:
        r = g.grade({"language": "python", "completion": HANG_AFTER_FIRST, "tests": MANY, "time_limit_s": 0.5,
                     "scoring": "fraction"})
    verdicts = [t["verdict"] for t in r["tests"]]
    assert r["verdict"] == "time_limit" and not r["retryable"], r
    assert len(verdicts) == 21 and verdicts[0] == "accepted" and set(verdicts[1:]) == {"time_limit"}, r
    assert "wall-clock budget" in r["tests"][-1]["detail"], r  # the cap ended it, not its own tests


def test_a_hung_program_on_many_tests_gets_time_limit_not_infra_error():
    config = SandboxConfig(pool_size=1, pool_name="pytest-sandbox-hang", languages=("python",), wall_factor=1.0,
                           wall_extra_s=0.3)
    task = {"language": "python", "completion": HANG_AFTER_FIRST, "tests": MANY, "time_limit_s": 0.5}
    with SyncGrader(config) as g:
        frac = dict(task, scoring="fraction")
        r = g.grade(frac)  # no timeout: the budget covers 21 tests at 0.8 s wall each
        assert r["verdict"] == "time_limit" and not r["retryable"], r
        assert [t["verdict"] for t in r["tests"]] == ["accepted"] + ["time_limit"] * 20
        r = g.grade(frac, timeout_s=4.0)  # a caller's deadline shorter than the tests need
        assert r["verdict"] == "time_limit" and not r["retryable"], r
        verdicts = [t["verdict"] for t in r["tests"]]
        assert len(verdicts) == 21 and verdicts[0] == "accepted" and set(verdicts[1:]) == {"time_limit"}, r
        assert abs(r["score"] - 1 / 21) < 1e-9, r
        r = g.grade(task)  # scoring "all": test 2 decides, the other 19 are not run
        assert r["verdict"] == "time_limit" and r["score"] == 0.0 and not r["retryable"], r
        assert [t["verdict"] for t in r["tests"]] == ["accepted", "time_limit"], r
        slow_ok = dict(task, completion="import time\ntime.sleep(0.3)\na, b = map(int, input().split())\nprint(a + b)")
        r = g.grade(slow_ok, timeout_s=4.0)  # "all", deadline out while passing: only the test it was in is charged
        verdicts = [t["verdict"] for t in r["tests"]]
        assert r["verdict"] == "time_limit" and r["score"] == 0.0 and not r["retryable"], r
        assert 2 <= len(verdicts) < 21 and verdicts == ["accepted"] * (len(verdicts) - 1) + ["time_limit"], r


def test_time_waiting_for_a_container_is_never_the_programs():
    """A job's budget counts from when it has its container: a quick program queued behind a slow
    one is accepted (it was infra_error, or time_limit once unfinished tests were charged)."""
    config = SandboxConfig(pool_size=1, max_concurrent_jobs=1, pool_name="pytest-sandbox-queue", languages=("python",),
                           wall_factor=1.0, wall_extra_s=0.3)
    slow = {"language": "python", "completion": "import time\ntime.sleep(100)", "time_limit_s": 8,
            "tests": [{"stdin": "", "expected_stdout": ""}] * 3}
    quick = {"language": "python", "completion": "import time\ntime.sleep(0.3)\nprint(3)", "time_limit_s": 0.5,
             "tests": [{"stdin": "", "expected_stdout": "3\n"}] * 2}
    with SyncGrader(config) as g:
        assert make_plan(quick, config).budget_s(config) < 25  # less than the slow job ahead of it takes
        rs = g.grade_many([slow, quick])
    assert [r["verdict"] for r in rs] == ["time_limit", "accepted"], rs


def test_slow_programs_do_not_starve_innocent_jobs_of_containers():
    """More jobs at once than containers: jobs queued for a container waited at most
    acquire_timeout_s (twice, with the retry) and came back infra_error (retryable, no reward),
    so a program sleeping through its tests denied grading to others. Now they queue for the
    language's containers until their turn; under scoring "all" a slow program also stops at its
    first failing test instead of holding its container for every test."""
    config = SandboxConfig(pool_size=1, max_concurrent_jobs=6, pool_name="pytest-sandbox-starve", languages=("python",),
                           wall_factor=1.0, wall_extra_s=0.3, acquire_timeout_s=3.0)
    sleeper = {"language": "python", "completion": "import time\ntime.sleep(100)", "time_limit_s": 1,
               "tests": [{"stdin": "", "expected_stdout": "1\n"}] * 4, "scoring": "fraction"}  # 4 x 1.3 s each
    sleeper_all = dict(sleeper, tests=sleeper["tests"] * 5, scoring="all")  # 20 tests: 26 s if all were run
    innocent = {"language": "python", "completion": "print(int(input()) * 2)",
                "tests": [{"stdin": "2\n", "expected_stdout": "4\n"}, {"stdin": "5\n", "expected_stdout": "10\n"}]}
    tasks = [sleeper, sleeper, sleeper_all, innocent, sleeper, innocent, sleeper_all, innocent]
    with SyncGrader(config) as g:
        rs = g.grade_many(tasks)
    for task, r in zip(tasks, rs):
        if task is innocent:
            assert r["verdict"] == "accepted" and r["score"] == 1.0, r
        elif task is sleeper:
            assert r["verdict"] == "time_limit" and not r["retryable"], r
            assert [t["verdict"] for t in r["tests"]] == ["time_limit"] * 4, r
        else:  # "all": the first failure decides; the other 19 tests are not run
            assert r["verdict"] == "time_limit" and r["score"] == 0.0 and not r["retryable"], r
            assert [t["verdict"] for t in r["tests"]] == ["time_limit"], r
            assert "stopped after 1 of 20 tests" in r["detail"], r


def test_a_compile_that_fills_work_is_the_programs_fault(any_grader, backend):
    """javac writes one .class file per class: a program of 4,092 empty classes uses every inode of
    /work (the tmpfs's 4,096 less /work, the job dir, Main.java and Main.class), so test 1's input
    file cannot be written. That was infra_error (retried, containers recycled): its build did it.
    gVisor's tmpfs ignores the cap; the runner counts there (docs/sandboxes.md "Sandbox backends")."""
    n = SandboxConfig().tmpfs_inodes - 4
    code = ("public class Main { public static void main(String[] a) { System.out.println(3); } }\n"
            + "".join(f"class A{i} {{}}\n" for i in range(n)))
    t = {"kind": "code", "language": "java", "completion": f"```java\n{code}\n```", "input_file": "input.txt",
         "tests": ADD}
    r = any_grader.grade_many([t])[0]
    slow = on_backend(backend, set(), {"gvisor": ({"compile_error"}, "javac's 4,093 class files under gVisor's ptrace "
                                                  "platform ran past the compile's CPU limit (20 s, 2 shared cores)")})
    if r["verdict"] in slow:
        assert "CPU time limit" in r["detail"] and not r["retryable"], r
        return
    assert r["verdict"] == "runtime_error" and not r["retryable"], r
    assert "input file" in r["tests"][0]["detail"], r


FILL_TO_CAP = """import os
a, b = map(int, open('input.txt').read().split())
print(a + b)
os.unlink('input.txt')
n = 1 + sum(len(d) + len(f) for _, d, f in os.walk('/work'))  # inodes in /work, its root too (tmpfs counts it)
last = os.path.lexists('f1')
for i in range(CAP - (0 if last else 1) - n):  # the first run leaves one inode free, the second none
    os.symlink('x', ('g' if last else 'f') + str(i))  # an inode for one system call
"""


def test_the_input_file_fits_in_the_last_inode_and_not_past_it(any_grader):
    """tmpfs_inodes is exact on every backend: with one inode of /work left, test 2's input file is
    written and it runs; with none left, test 3's is not (the program's files: runtime_error). Under
    gVisor, whose tmpfs ignores the cap, the runner counts (docs/sandboxes.md "Sandbox backends")."""
    code = FILL_TO_CAP.replace("CAP", str(SandboxConfig().tmpfs_inodes))
    tests = [*ADD, {"stdin": "3 4\n", "expected_stdout": "7\n"}]
    t = {"kind": "code", "language": "python", "completion": f"```python\n{code}\n```", "input_file": "input.txt",
         "tests": tests, "time_limit_s": 20}  # 4,000 system calls under gVisor's ptrace platform: seconds of CPU
    r = any_grader.grade_many([t])[0]
    assert r["verdict"] == "runtime_error" and not r["retryable"], r
    assert [x["verdict"] for x in r["tests"]] == ["accepted", "accepted", "runtime_error"], r
    assert "input file" in r["tests"][2]["detail"], r


PAST_THE_CAP = """import os
n = 0
try:
    while n < 20000:
        os.symlink('x', '/tmp/s%d' % n)
        n += 1
except OSError:
    pass
print(3 if n > CAP else n)  # the right answer only for a program that got past the cap
"""


def test_a_program_never_gets_past_the_inode_cap_while_it_runs(any_grader, backend):
    """Where the kernel holds tmpfs_inodes the program's files stop at it (ENOSPC: it prints its
    count, wrong_answer); under gVisor, whose tmpfs ignores it, the runner counts while the program
    runs and stops it past the cap (output_limit): it made 20,000 and was accepted before."""
    r = any_grader.grade_many([{"kind": "code", "language": "python", "tests": ADD[:1], "time_limit_s": 20,
                                "completion": "```python\n" + PAST_THE_CAP.replace("CAP", str(SandboxConfig().tmpfs_inodes))
                                + "\n```"}])[0]
    want = on_backend(backend, "wrong_answer", kernel_differs("output_limit", "gVisor's tmpfs ignores nr_inodes: the runner "
                                                                              "stops the program (harness/runner.py over_inodes)"))
    assert r["verdict"] == want and not r["retryable"], r


@pytest.mark.in_process  # reads the pool's recycle count
def test_a_directory_tree_thousands_deep_is_removed_not_infra_error(any_grader):
    """Test 1 replaces its input file with a directory 2,500 levels deep (paths past PATH_MAX). The
    runner removes it before test 2 writes the input file again; its recursive walk once raised
    RecursionError there (infra_error, retried). Test 2 must run, and the next job must reuse the
    container (the reset removed the tree left under /work and /tmp)."""
    code = ("import os\na, b = map(int, open('input.txt').read().split())\nprint(a + b)\n"
            "for top in ('input.txt', '/tmp/deep') if not os.path.exists('/tmp/deep') else ():\n"
            "    if top == 'input.txt':\n        os.unlink(top)\n"
            "    os.mkdir(top)\n    os.chdir(top)\n    for _ in range(2500):\n        os.mkdir('a')\n        os.chdir('a')\n"
            "    os.chmod('.', 0)")
    t = {"kind": "code", "language": "python", "completion": f"```python\n{code}\n```", "input_file": "input.txt",
         "tests": ADD}
    before = any_grader.grader.stats()["containers_recycled"]
    r = any_grader.grade_many([t])[0]
    assert r["verdict"] == "accepted" and [x["verdict"] for x in r["tests"]] == ["accepted", "accepted"], r
    assert any_grader.grader.stats()["containers_recycled"] == before
    wrong = any_grader.grade_many([dict(t, completion=t["completion"].replace("print(a + b)", "print(a * b)"))])[0]
    assert wrong["verdict"] == "wrong_answer" and not wrong["retryable"], wrong


def test_jobs_queued_for_a_busy_language_leave_the_other_languages_their_slots():
    """The server's code slots (max_concurrent_jobs) were one bound over all languages, held while a
    job waited for a container of its language: python jobs queued behind one sleeping through its
    tests held every slot, and a C job with its container and a CPU slot idle waited for them (a
    program denying grading to others). Slots are per language now: the C job finishes first."""
    import asyncio

    from verifier.config import ServerConfig
    from verifier.engine import Engine

    sandbox = SandboxConfig(pool_size=1, max_concurrent_jobs=2, pool_name="pytest-engine-slots", languages=("python", "c"),
                            wall_factor=1.0, wall_extra_s=0.3)
    sleeper = {"kind": "code", "language": "python", "completion": "import time\ntime.sleep(100)", "time_limit_s": 2,
               "tests": [{"stdin": "", "expected_stdout": "1\n"}] * 3, "scoring": "fraction", "timeout_s": 0}
    c = {"kind": "code", "language": "c", "id": "c", "timeout_s": 0, "tests": ADD,
         "completion": "```c\n#include <stdio.h>\nint main(){int a,b;scanf(\"%d %d\",&a,&b);printf(\"%d\\n\",a+b);}\n```"}
    tasks = [dict(sleeper, id="s1"), dict(sleeper, id="s2"), c]

    async def run() -> list[dict]:
        engine = Engine(ServerConfig(workers=1, sandbox=sandbox))
        engine.start_workers()
        await engine.start()
        try:
            return [r async for r in engine.grade_stream(tasks)]
        finally:
            await engine.close()

    results = asyncio.run(run())
    assert [r["id"] for r in results][0] == "c", results
    assert {r["id"]: r["verdict"] for r in results} == {"c": "accepted", "s1": "time_limit", "s2": "time_limit"}, results


def test_a_job_dir_replaced_by_a_link_is_judged_by_the_output(any_grader):
    """Test 1 renames its job dir and leaves a symlink to it under the old name. Before test 2 the
    runner gives the job dir its mode back, without following links: Python raises
    NotImplementedError for a link (Linux cannot chmod one), which came back infra_error."""
    move = ("import os\nd = os.getcwd()\nif not d.endswith('x'):\n    os.rename(d, d + 'x')\n    os.symlink(d + 'x', d)\n"
            "a, b = map(int, input().split())\nprint(a + b)")
    t = {"kind": "code", "language": "python", "completion": f"```python\n{move}\n```", "tests": ADD}
    r = any_grader.grade_many([t])[0]
    assert r["verdict"] == "accepted" and len(r["tests"]) == 2, r
    near = any_grader.grade_many([dict(t, completion=t["completion"].replace("print(a + b)", "print(a + b + (a == 2))"))])[0]
    assert [x["verdict"] for x in near["tests"]] == ["accepted", "wrong_answer"] and not near["retryable"], near


@pytest.mark.in_process  # kills a box it takes from the pool
def test_a_sandbox_that_dies_mid_job_says_how_in_its_infra_error(any_grader):
    """A sandbox that ends by itself (a crash, the host's OOM killer) is infra_error, and the detail
    says how it ended (Backend.death_note): a CI run once saw "runner channel closed (sandbox gone?)"
    for a program's own failure and nothing more to tell a crash from a kill."""
    from sandbox.gvisor import Sandbox
    from sandbox.job import run_job
    from sandbox.plan import InfraFailure
    from sandbox.userns import Sandbox as UsernsSandbox

    g = any_grader.grader
    pool = g._pool
    box = any_grader.call(pool.acquire("python"))
    try:
        if isinstance(box.container, Sandbox):  # ended from outside the backend: box.dead stays False
            os.killpg(box.container.proc.pid, signal.SIGKILL)
        elif isinstance(box.container, UsernsSandbox):  # its PID 1: the kernel ends the pid namespace
            os.kill(box.container.pid1, signal.SIGKILL)
        else:
            docker.from_env().api.kill(box.container.id)
        plan = make_plan({"language": "python", "completion": "print(3)", "tests": ADD[:1]}, g.config)
        with pytest.raises(InfraFailure) as e:
            run_job(pool, box, plan, g.config)
        assert "exit " in str(e.value) and "the host stopped it" not in str(e.value), e.value
    finally:
        any_grader.call(pool.release(box, False))
    assert any_grader.grade({"language": "python", "completion": "print(3)", "tests": ADD[:1]})["verdict"] == "accepted"
