"""One task, one verdict, whichever way it is sent: the sandbox's (and math's) direct API, in-process
`verifier grade`, gRPC through the client, and the trainer's reward function.

Each path used to carry its own defaults (a float comparator without tolerances got 0 tolerance
through the server, CLI and trainer but 1e-6 through the sandbox) and its own validation; the
schema (sandbox/contract.py) now decides for all of them. The tasks cover right and
wrong answers and several verdicts of each kind, with near misses next to their right answers.
"""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox import SandboxConfig
from sandbox.sync import SyncGrader
from trainer.config import RewardConfig
from trainer.rewards import VerifierRewards
from verifier.client import ClientConfig, VerifierClient
from verifier.math.grade import grade_math
from sandbox.contract import parse_task

pytestmark = pytest.mark.docker
ROOT = Path(__file__).resolve().parent.parent
POOL = "pytest-same-verdict"

ADD = "a, b = map(int, input().split())\nprint(a + b)"
ADD_TESTS = [{"stdin": "1 2\n", "expected_stdout": "3\n"}, {"stdin": "5 -7\n", "expected_stdout": "-2\n"}]
THIRD = [{"stdin": "", "expected_stdout": "0.33333333\n"}]
CALLS = [{"args": [1, 2], "expected": [3, 1]}, {"args": [2, 5], "kwargs": {}, "expected": [7, 2]}]
PYTEST = ("import pytest\nfrom solution import inc\n\n@pytest.mark.parametrize('x', [1, 5])\n"
          "def test_inc(x):\n    assert inc(x) == x + 1\n")
UNITTEST = ("import unittest\n\nclass T(unittest.TestCase):\n    def test_one(self):\n"
            "        self.assertEqual(task_func(1), 2)\n")
FILE_IO = {"input_file": "input.txt", "output_file": "output.txt", "files": {"scale.txt": "1\n"}}
IO_ADD = ("a, b = map(int, open('input.txt').read().split())\nk = int(open('scale.txt').read())\n"
          "open('output.txt', 'w').write(str(k * (a + b)OFF))")
CPP_CHECKER = {"checker_language": "cpp", "checker": "#include <fstream>\nint main(int c, char** v) {\n"
               "  std::ifstream in(v[1]), out(v[2]); long long a, b, x;\n  in >> a >> b;\n"
               "  if (!(out >> x)) return 1;\n  return x == a + b ? 0 : 1;\n}\n"}
YES = [{"stdin": "", "expected_stdout": "YES\n"}]
RUST_ADD = ("use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap();\n"
            "  let v: Vec<i64> = s.split_whitespace().map(|x| x.parse().unwrap()).collect(); println!(\"{}\", v[0] + v[1]OFF); }")
GO_ADD = "package main\nimport \"fmt\"\nfunc main() { var a, b int\n fmt.Scan(&a, &b)\n fmt.Println(a + bOFF) }"


def _math(task_id: str, completion: str, gold: str, **kw) -> dict:
    return {"id": task_id, "kind": "math", "completion": completion, "gold": gold, **kw}


def _code(task_id: str, program: str, tests=ADD_TESTS, language: str = "python", **kw) -> dict:
    return {"id": task_id, "kind": "code", "language": language, "completion": f"```{language}\n{program}\n```",
            "tests": tests, **kw}


# (task, the verdict it must get on every path)
CASES = [
    (_math("m-right", "so the answer is \\boxed{\\frac{1}{2}}", "0.5"), "correct"),
    (_math("m-near", "so the answer is \\boxed{\\frac{1}{3}}", "0.5"), "incorrect"),
    (_math("m-none", "it is one half, probably", "0.5"), "no_answer"),
    (_math("m-choice", "Answer: (C)", "C", choices=["1", "2", "3", "4"]), "correct"),
    (_code("c-right", ADD), "accepted"),
    (_code("c-near", "a, b = map(int, input().split())\nprint(a + b + (a == 5))"), "wrong_answer"),
    (_code("c-crash", "raise SystemExit(3)"), "runtime_error"),
    (_code("c-syntax", "def f(:\n    pass"), "compile_error"),
    (_code("c-empty", ""), "no_code"),
    (_code("c-slow", "while True:\n    pass", time_limit_s=1.0), "time_limit"),
    # the float comparator's one default tolerance (1e-6): 0.3333333 passes, 0.3334 does not
    (_code("c-float", "print('0.3333333')", THIRD, compare="float"), "accepted"),
    (_code("c-float-far", "print('0.3334')", THIRD, compare="float"), "wrong_answer"),
    (_code("c-asserts", "def add(a, b):\n    return a + b", [], test_code="assert add(1, 2) == 3"), "accepted"),
    (_code("c-asserts-wrong", "def add(a, b):\n    return a - b", [], test_code="assert add(1, 2) == 3"),
     "wrong_answer"),
    # call-based tests (docs/tasks.md "Task schema"): a tuple for a list and a LeetCode Solution class are
    # rewrites, True for 1 and a wrong element near misses; a pytest file per collected test
    (_code("k-call", "def f(a, b):\n    return (a + b, a)", [], entry_point="f", call_tests=CALLS), "accepted"),
    (_code("k-call-solution", "class Solution:\n    def f(self, a, b):\n        return [a + b, a]", [],
           entry_point="f", call_tests=CALLS), "accepted"),
    (_code("k-call-near", "def f(a, b):\n    return [a + b, a + (a == 2)]", [], entry_point="f", call_tests=CALLS),
     "wrong_answer"),
    (_code("k-call-bool", "def f(a, b):\n    return [a + b, a == 1 or a]", [], entry_point="f", call_tests=CALLS),
     "wrong_answer"),
    (_code("k-pytest", "def inc(x):\n    return x + 1", [], test_framework="pytest", test_code=PYTEST), "accepted"),
    (_code("k-pytest-near", "def inc(x):\n    return x + (x < 5)", [], test_framework="pytest", test_code=PYTEST),
     "wrong_answer"),
    (_code("k-unittest", "def task_func(x):\n    return x + 1", [], test_framework="unittest",
           test_code=UNITTEST), "accepted"),
    (_code("k-no-tests", "def inc(x):\n    return x + 1", [], test_framework="pytest", test_code="import os\n"), "error"),
    # a program over the sandbox's 256 KiB limit (the field allows 1 MiB) is its own fault: 0, not infra_error
    (_code("c-huge", ADD + "\n#" + "x" * (300 << 10)), "compile_error"),
    # support files and file I/O (input.txt / output.txt), a C++ checker, tokens_ci, Rust and Go
    (_code("c-files-io", IO_ADD.replace("OFF", ""), **FILE_IO), "accepted"),
    (_code("c-files-io-near", IO_ADD.replace("OFF", " + (a == 5)"), **FILE_IO), "wrong_answer"),
    (_code("c-files-stdout", ADD, **FILE_IO), "wrong_answer"),  # the answer must be in output.txt
    (_code("c-cpp-checker", "a, b = map(int, input().split())\nprint('%+d' % (a + b))", **CPP_CHECKER), "accepted"),
    (_code("c-cpp-checker-near", "a, b = map(int, input().split())\nprint(a + b + (a == 5))", **CPP_CHECKER),
     "wrong_answer"),
    (_code("c-ci", "print('yes')", YES, compare="tokens_ci"), "accepted"),
    (_code("c-ci-near", "print('yes!')", YES, compare="tokens_ci"), "wrong_answer"),
    (_code("c-rust", RUST_ADD.replace("OFF", ""), language="rust"), "accepted"),
    (_code("c-go-near", GO_ADD.replace("OFF", " + a/5"), language="go"), "wrong_answer"),
]
TASKS = [task for task, _ in CASES]


def _verdicts(results: list[dict]) -> dict[str, tuple[str, float, tuple[str, ...]]]:
    """Verdict, score and the per-test names (pytest / unittest tests) of each result."""
    return {r["id"]: (r["verdict"], r["score"], tuple(t.get("name", "") for t in r.get("tests") or ()))
            for r in results}


@pytest.fixture(scope="module")
def direct() -> dict[str, tuple[str, float]]:
    """The libraries called directly: sandbox.CodeGrader for code, verifier.math for math."""
    grader = SyncGrader(SandboxConfig(pool_size=1, pool_name=POOL, languages=("python", "rust", "go")))
    assert grader.grader.available, grader.grader.unavailable_reason()
    try:
        code = [t for t in TASKS if t["kind"] == "code"]
        results = [{**r, "id": t["id"]} for t, r in zip(code, grader.grade_many(code))]
    finally:
        grader.close()
    results += [{**grade_math(parse_task(t).to_dict()), "id": t["id"]} for t in TASKS if t["kind"] == "math"]
    return _verdicts(results)


def test_expected_verdicts_directly(direct):
    assert {k: v[:2] for k, v in direct.items()} == {t["id"]: (v, 1.0 if v in ("correct", "accepted") else 0.0)
                                                     for t, v in CASES}
    assert direct["k-pytest"][2] == ("test_inc[1]", "test_inc[5]")
    assert direct["k-unittest"][2] == ("T.test_one",)


def test_in_process_cli_gives_the_same_verdicts(direct, tmp_path):
    src = tmp_path / "tasks.jsonl"
    src.write_text("".join(json.dumps(t) + "\n" for t in TASKS))
    proc = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "grade", str(src), "--workers", "1",
                           "--sandbox-pool-size", "1", "--sandbox-pool-name", POOL + "-cli"],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    # verifier grade keeps the input's `tests` and writes the per-test results as `verifier_tests`
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert _verdicts([{**r, "tests": r.get("verifier_tests")} for r in rows]) == direct


@pytest.fixture(scope="module")
def code_server():
    from conftest import ServerProcess

    server = ServerProcess("--workers", "1", "--sandbox-pool-size", "1", "--sandbox-pool-name", POOL + "-grpc")
    yield server
    server.kill()


def test_grpc_gives_the_same_verdicts(direct, code_server):
    with VerifierClient(code_server.target) as client:
        assert _verdicts(client.grade(TASKS)) == direct


def test_trainer_reward_function_gives_the_same_verdicts(direct, code_server):
    """The trainer builds its tasks from dataset columns; the columns here hold the same tasks."""
    logged: dict[str, list] = {}
    cols: dict[str, list] = {name: [t.get(name) for t in TASKS]
                             for name in ("tests", "test_code", "language", "compare", "time_limit_s", "profile", "choices",
                                          "entry_point", "call_tests", "test_framework", "judge",
                                          "checker", "checker_language", "files", "input_file", "output_file")}
    cols["solution"] = [t.get("gold") for t in TASKS]
    cols["tests"] = [t.get("tests") or None for t in TASKS]
    group = VerifierRewards(RewardConfig(target=code_server.target, components=("accuracy",), code_scoring="all",
                                         max_completion_chars=1 << 20,
                                         client=ClientConfig(timeout_s=300, max_retries=3)))
    [accuracy] = group.reward_funcs()

    async def run():
        try:
            return await accuracy(prompts=[""] * len(TASKS), completions=[t["completion"] for t in TASKS],
                                  completion_ids=[[0]] * len(TASKS), log_extra=logged.__setitem__, **cols)
        finally:
            await group.aclose()

    rewards = asyncio.run(run())
    got = {t["id"]: (v, r) for t, v, r in zip(TASKS, logged["verifier_verdict"], rewards)}
    # the trainer gives no reward (None) for what could not be graded, as for infra_error
    assert got == {k: (v, None if v == "error" else score) for k, (v, score, _) in direct.items()}
