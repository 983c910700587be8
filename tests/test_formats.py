"""verifier/formats: dataset rows -> tasks (pure: no Docker). The graded corpus is test_formats_corpus.py."""
from __future__ import annotations

import base64
import json
import pickle
import subprocess
import sys
import zlib

import pytest

from sandbox.checks import compare
from trainer.config import RewardConfig
from trainer.tasks import build_tasks
from verifier.formats import FormatError, detect, to_task
from verifier.formats.codeforces import CHECKER_WRAPPER
from verifier.formats.common import MAX_INFLATED_BYTES, lcb_private_tests
from sandbox.contract import parse_task


def _valid(task: dict) -> dict:
    """The task as the schema reads it (it must be valid)."""
    return parse_task({**task, "id": "t"}).to_dict(wire=True)


def test_a_row_no_format_reads_names_its_columns():
    with pytest.raises(FormatError, match=r"no dataset format reads this row \(columns: answer, question\)"):
        to_task({"question": "1+1?", "answer": "2"})
    with pytest.raises(FormatError, match="completion: missing"):
        to_task({"input_output": json.dumps({"inputs": ["1"], "outputs": ["1"]})})
    with pytest.raises(FormatError, match="unknown format 'appz'"):
        to_task({"input_output": "{}"}, format="appz")


def test_kodcode_row_is_code_never_math():
    """KodCode's `solution` is reference code: the row is a pytest task, whatever else it has."""
    row = {"question": "q", "solution": "def f():\n    return 1\n", "test": "from solution import f\n\ndef test_f():\n    assert f() == 1\n",
           "test_info": [{"function_name": "f"}], "answer": "1"}
    assert detect(row) == "kodcode"
    task = _valid(to_task(row, completion="```python\ndef f():\n    return 1\n```"))
    assert task["test_framework"] == "pytest" and task["test_code"] == row["test"] and task["kind"] == "code"


def test_apps_stdin_and_call_based():
    stdin = {"input_output": json.dumps({"inputs": ["1 2\n", ["3", "4"]], "outputs": ["3\n", ["7"]]})}
    task = _valid(to_task(stdin, "taco", completion="print(3)"))
    assert task["tests"] == [{"stdin": "1 2\n", "expected_stdout": "3\n"}, {"stdin": "3\n4", "expected_stdout": "7"}]
    assert task["compare"] == "float"
    call = {"input_output": json.dumps({"fn_name": "f", "inputs": [[1, 2], 5], "outputs": [[3], [[1, 2]]]})}
    task = _valid(to_task(call, completion="def f(a, b=0):\n    return a + b\n"))
    # APPS wraps each output in a one-element list: unwrapped; a bare argument becomes a one-argument call
    assert task["entry_point"] == "f" and [t["args"] for t in task["call_tests"]] == [[1, 2], [5]]
    assert [t["expected"] for t in task["call_tests"]] == [3, [1, 2]]
    assert task["completion"].startswith("from typing import *")  # raw stays raw, with the graders' imports
    with pytest.raises(FormatError, match="apps: input_output: 2 inputs but 1 outputs"):
        to_task({"input_output": json.dumps({"inputs": ["1", "2"], "outputs": ["1"]})}, completion="x")
    with pytest.raises(FormatError, match="apps: input_output: not valid JSON"):
        to_task({"input_output": "{inputs"}, completion="x")


def test_livecodebench_public_and_compressed_private_tests():
    private = [{"input": "[1, 2]\n3", "output": "[4, 5]", "testtype": "functional"}]
    row = {"public_test_cases": json.dumps([{"input": "[]\n0", "output": "[]", "testtype": "functional"}]),
           "private_test_cases": base64.b64encode(zlib.compress(pickle.dumps(json.dumps(private)))).decode(),
           "metadata": json.dumps({"func_name": "addAll"}), "starter_code": "class Solution:\n    def addAll(self, a, k):\n"}
    task = _valid(to_task(row, completion="```python\nclass Solution:\n    def addAll(self, a, k):\n        return [x + k for x in a]\n```"))
    assert task["entry_point"] == "addAll"
    assert [(t["args"], t["expected"]) for t in task["call_tests"]] == [([[], 0], []), ([[1, 2], 3], [4, 5])]
    assert task["completion"].startswith("```python\nfrom typing import *")
    stdin = {"public_test_cases": json.dumps([{"input": "1\n", "output": "2\n", "testtype": "stdin"}]),
             "private_test_cases": json.dumps([{"input": "2\n", "output": "3\n", "testtype": "stdin"}]), "metadata": "{}"}
    assert len(_valid(to_task(stdin, completion="print(int(input()) + 1)"))["tests"]) == 2
    with pytest.raises(FormatError, match="functional tests need metadata.func_name"):
        to_task({**row, "metadata": "{}"}, completion="x")


class _Boom:
    def __reduce__(self):
        return (print, ("unpickled code ran",))


def test_lcb_private_tests_never_unpickle_objects(capsys):
    """Only plain data comes out of the pickle: an object (here a call to print) is refused, not run."""
    evil = base64.b64encode(zlib.compress(pickle.dumps([_Boom()]))).decode()
    with pytest.raises(FormatError, match="refused: builtins.print"):
        lcb_private_tests(evil, "private_test_cases")
    assert "unpickled code ran" not in capsys.readouterr().out
    with pytest.raises(FormatError, match="not JSON and not base64"):
        lcb_private_tests("not base64 !!", "private_test_cases")
    bomb = base64.b64encode(zlib.compress(b"\0" * (MAX_INFLATED_BYTES + 1), 9)).decode()
    with pytest.raises(FormatError, match="decompresses to more than 256 MB"):
        lcb_private_tests(bomb, "private_test_cases")
    plain = base64.b64encode(zlib.compress(pickle.dumps(json.dumps([{"input": "1", "output": "1"}])))).decode()
    assert lcb_private_tests(plain, "p") == [{"input": "1", "output": "1"}]


def test_codeforces_limits_file_mode_and_checker():
    row = {"official_tests": [{"input": "5\n", "output": "1 4\n"}], "time_limit": 2.0, "memory_limit": 256.0,
           "input_mode": "file", "generated_checker": "print(1)"}
    task = to_task(row, completion="```cpp\nint main(){}\n```")
    assert (task["language"], task["time_limit_s"], task["memory_limit_mb"]) == ("cpp", 2.0, 256)
    assert (task["input_file"], task["output_file"]) == ("input.txt", "output.txt")
    assert "SOURCE = 'print(1)'" in task["checker"]
    with pytest.raises(FormatError, match="interactive"):
        to_task({**row, "interaction_format": "Interact with the jury."}, completion="x")


@pytest.mark.parametrize(("outputs", "compare"), [
    (["YES\n", "NO\n"], "tokens_ci"), (["Yes\nno\nYES\n"], "tokens_ci"), (["yes"], "tokens_ci"),
    (["YES\n", "3\n"], None), (["YES 3\n"], None), (["YESS\n"], None), (["\n"], None), (["Y\n"], None),
    (["ＹＥＳ\n"], None),
])
def test_codeforces_yes_no_rows_compare_in_any_case(outputs, compare):
    """testlib's yes/no checker reads YES/NO in any case; only rows whose every expected token is
    yes or no get it (docs/datasets.md "Dataset formats")."""
    row = {"official_tests": [{"input": "1\n", "output": o} for o in outputs]}
    task = to_task(row, completion="```python\nprint('YES')\n```")
    assert task.get("compare") == compare
    assert "compare" not in to_task({**row, "generated_checker": "print(1)"}, completion="```python\nx\n```")
    _valid(task)


@pytest.mark.parametrize(("got", "expected", "equal"), [
    (b"Yes\n", b"YES\n", True), (b"yEs nO\n", b"YES\nNO\n", True), (b"No\n", b"YES\n", False),
    (b"YES NO\n", b"yes yes\n", False), (b"YES YES\n", b"YES\n", False), (b"YES\n", b"YES NO\n", False),
    (b"YESS\n", b"YES\n", False), (b"Y\n", b"YES\n", False),
])
def test_yes_no_near_misses_stay_wrong(got, expected, equal):
    assert compare(got, expected, "tokens_ci")[0] is equal


@pytest.mark.parametrize(("printed", "exit_code", "accepted"), [("1", 0, True), ("0", 0, False), ("1", 3, False),
                                                                 ("1.0", 0, False), ("", 0, False)])
def test_codeforces_checker_wrapper_follows_open_r1(tmp_path, printed, exit_code, accepted):
    """open-r1's checker gets (input, correct output, solution output) and prints 1 to accept; ours gets
    (input, output, answer) and exits 0 to accept. The generated checker sees open-r1's order."""
    source = ("import sys\nargs = [open(p).read().strip() for p in sys.argv[1:4]]\n"
              "assert args == ['in', 'correct', 'program'], args\n"
              f"print({printed!r})\nsys.exit({exit_code})\n")
    for name, text in (("input.txt", "in"), ("output.txt", "program"), ("answer.txt", "correct")):
        (tmp_path / name).write_text(text)
    (tmp_path / "checker.py").write_text(CHECKER_WRAPPER.format(source=source))
    proc = subprocess.run([sys.executable, "checker.py", "input.txt", "output.txt", "answer.txt"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=30)
    assert (proc.returncode == 0) is accepted, proc.stdout + proc.stderr


def test_code_contests_limits_and_all_test_sets():
    row = {"public_tests": {"input": ["1\n"], "output": ["1\n"]}, "private_tests": {"input": ["2\n"], "output": ["4\n"]},
           "generated_tests": {"input": [], "output": []}, "time_limit": {"seconds": 1, "nanos": 500000000},
           "memory_limit_bytes": 64 << 20}
    task = _valid(to_task(row, completion="print(1)"))
    assert len(task["tests"]) == 2 and task["time_limit_s"] == 1.5 and task["memory_limit_mb"] == 64


def test_deepcoder_shapes():
    lcb = {"tests": json.dumps([{"input": "1\n", "output": "1\n", "testtype": "stdin"}])}
    assert _valid(to_task(lcb, completion="print(1)"))["tests"] == [{"stdin": "1\n", "expected_stdout": "1\n"}]
    prime = {"tests": json.dumps([{"input": [1], "output": [2], "type": "function_call", "fn_name": "g"}])}
    assert _valid(to_task(prime, completion="def g(x):\n    return 2 * x\n"))["entry_point"] == "g"
    taco = {"tests": json.dumps({"inputs": ["1\n"], "outputs": ["2\n"]})}
    assert detect(taco) == "deepcoder" and _valid(to_task(taco, completion="x"))["tests"][0]["stdin"] == "1\n"
    assert detect({"kind": "code", "tests": [{"stdin": "", "expected_stdout": ""}]}) == "task"
    # our own tests column, decoded or as JSON text (the trainer reads those itself), is not DeepCoder's
    assert detect({"tests": [{"stdin": "", "expected_stdout": ""}]}) is None
    assert detect({"tests": json.dumps([{"stdin": "", "expected_stdout": ""}])}) is None


def test_verl_ground_truths():
    row = {"reward_model": {"ground_truth": json.dumps({"inputs": ["1\n"], "outputs": ["1\n"]})}}
    assert detect(row) == "verl" and _valid(to_task(row, completion="print(1)"))["tests"]
    asserts = {"ground_truth": {"fn_name": "f", "assert_case": ["assert f(1) == 2", "assert f(2) == 3"]}}
    task = _valid(to_task(asserts, completion="def f(x):\n    return x + 1\n"))
    assert task["test_code"] == "assert f(1) == 2\nassert f(2) == 3\n" and task["entry_point"] == "f"
    assert detect({"ground_truth": "42"}) is None  # a math answer is not a code ground truth


def test_mbpp_setup_and_imports():
    row = {"test_list": ["assert f() == 1"], "test_setup_code": "X = 1", "test_imports": ["import math"]}
    task = to_task(row, completion="x")
    assert task["test_code"] == "import math\nX = 1\nassert f() == 1\n" and "judge" not in task  # the process judge


def test_humaneval_body_only_completion_continues_the_prompt():
    row = {"prompt": "import math\n\ndef helper(x):\n    return x\n\ndef f(x):\n    \"\"\"doc\"\"\"\n",
           "test": "def check(candidate):\n    assert candidate(4) == 2\n", "entry_point": "f"}
    body = "    return int(math.sqrt(x))\n"
    task = _valid(to_task(row, completion=body))
    assert task["completion"] == row["prompt"] + body and task["entry_point"] == "f"
    assert "def helper" in task["test_code"] and "def f" not in task["test_code"]  # the prompt's helpers, trusted
    # a whole function gets the prompt's imports and helpers before it (HumanEval runs prompt + completion)
    whole = "```python\ndef f(x):\n    return helper(int(math.sqrt(x)))\n```"
    program = to_task(row, completion=whole)["completion"]
    assert program.startswith("```python\nimport math\n\ndef helper(x):") and "def f(x):\n    return helper(int(math.sqrt(x)))\n" in program
    no_helpers = {**row, "prompt": "def f(x):\n    \"\"\"doc\"\"\"\n"}
    assert to_task(no_helpers, completion=whole)["completion"] == whole  # nothing to add: graded as written
    fenced_body = f"```python\n{body}```"
    assert to_task(row, completion=fenced_body)["completion"] == f"```python\n{row['prompt']}{body}\n```\n"


def test_bigcodebench_is_unittest_in_the_process_judge_after_the_prompts_prelude():
    row = {"test": "import unittest\nclass TestCases(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(task_func(), 1)\n",
           "entry_point": "task_func", "complete_prompt": "def task_func():\n    \"\"\"One.\"\"\"\n", "instruct_prompt": "Write it."}
    row["complete_prompt"] = "import os\n\n" + row["complete_prompt"]
    task = _valid(to_task(row, completion="    return 1\n"))
    assert (task["test_framework"], task.get("judge", "process"), task["entry_point"]) == ("unittest", "process", "task_func")
    assert task["test_code"] == "import os\n" + row["test"]  # the prompt's imports and constants, never the program's
    # the test's imports run after the program, as in BigCodeBench's shared module
    assert task["completion"] == row["complete_prompt"] + "    return 1\n\nimport unittest\n"
    whole = to_task(row, completion="```python\ndef task_func():\n    return len(os.sep)\n```")["completion"]
    assert whole.startswith("```python\nimport os\n\ndef task_func():")  # the prompt's imports, as BigCodeBench runs it
    assert whole.endswith("return len(os.sep)\n\nimport unittest\n\n```\n")


def test_open_r1_verification_info_both_kinds():
    stdin = {"verification_info": json.dumps({"language": "python", "test_cases": [
        {"type": "stdin_stdout", "input": "1\n", "output": "1\n"}]})}
    assert _valid(to_task(stdin, completion="print(1)"))["tests"]
    calls = {"verification_info": {"language": "python", "test_cases": [
        {"type": "function_call", "fn_name": "f", "input": [1], "output": [1]}]}}
    task = _valid(to_task(calls, "primeintellect", completion="def f(x):\n    return x\n"))
    assert task["entry_point"] == "f" and task["call_tests"][0]["args"] == [1]
    assert detect({"verification_info": {"tests": [], "language": "python"}}) is None  # ours: the trainer's columns


def test_trainer_reads_every_corpus_row():
    """The trainer's column detection uses the formats: every corpus row (TRL columns, conversational
    completions) becomes a code task, none is None and none is math."""
    from test_formats_corpus import _rows

    rows = _rows()
    names = {k for r in rows for k in r if k not in ("completion", "expect", "case")}
    columns = {k: [r.get(k) for r in rows] for k in names}
    completions = [[{"role": "assistant", "content": r["completion"]}] for r in rows]
    tasks = build_tasks(completions, columns, RewardConfig())
    missing = [r["corpus_row"] for r, t in zip(rows, tasks) if t is None]
    assert not missing
    assert {t["kind"] for t in tasks} == {"code"}


def test_preamble_goes_after_docstring_and_future_imports():
    """The graders' imports go before the program, but after what must come first in a module."""
    from verifier.formats.common import PREAMBLE, with_preamble

    code = '"""doc"""\nfrom __future__ import annotations\nprint(Counter("aab")["a"])\n'
    program = with_preamble(code)
    assert program == '"""doc"""\nfrom __future__ import annotations\n' + PREAMBLE + 'print(Counter("aab")["a"])\n'
    compile(program, "prog.py", "exec")  # still a valid module
    assert with_preamble("print(1)") == PREAMBLE + "print(1)"
    assert with_preamble("   ") == "   "  # no code: as is (no_code, not a preamble graded as the program)
