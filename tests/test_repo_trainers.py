"""Repository tasks through the trainers' shapes (docs/repo-tasks.md "Trainers"; docs/training.md
"Framework adapters"): the HTTP dialects of OpenRLHF and slime and the adapters of verl, OpenRLHF, slime
and TRL, against one real server on loopback with Docker sandboxes and one environment built by `verifier
env build` from the corpus (tests/data/repo_tasks). A label is a SWE-bench row as stored (FAIL_TO_PASS as
JSON text) or a whole `repo` task, and the completion is the model's diff: in each dialect's shape the gold
scores 1 and an empty or perturbed patch 0, a bad row is ungraded naming its field (one bad row costs one
reward, never the batch), and TRL's reward functions grade a batch mixing a repository row with a math row
(one dataset: every row has every column, None where it has none)."""
from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from conftest import ServerProcess
from helpers import http_call
from test_repo_service import NOOP, PY, recipe
from trainer import remote, verl
from trainer.config import RewardConfig
from trainer.rewards import VerifierRewards
from verifier.tools.cli import main as verifier_cli

pytestmark = pytest.mark.docker

GOLD = PY["patch"]
WRONG = GOLD.replace("instanceproperty(attrgetter('first'))", "property(attrgetter('first'))")  # F2P fails
PROMPT = "Fix the issue in toolz.\n"
# The row as SWE-bench stores it, plus the test command (a trainer's row carries it: docs/repo-tasks.md "Trainers").
ROW = {**{k: PY[k] for k in ("instance_id", "repo", "base_commit", "patch", "test_patch", "version", "test_cmd")},
       "FAIL_TO_PASS": json.dumps(PY["FAIL_TO_PASS"]), "PASS_TO_PASS": json.dumps(PY["PASS_TO_PASS"])}
TASK = {"kind": "repo", "environment": PY["instance_id"], "test_patch": PY["test_patch"], "test_cmd": PY["test_cmd"],
        "fail_to_pass": PY["FAIL_TO_PASS"], "pass_to_pass": PY["PASS_TO_PASS"]}
STORED = {k: v for k, v in ROW.items() if k != "test_cmd"}  # as SWE-bench stores it: no test command
BAD_IDS = {**ROW, "FAIL_TO_PASS": str(PY["FAIL_TO_PASS"])}  # Python's repr, not JSON: the row's error
BAD_CMD = {**TASK, "test_cmd": "x" * 5000}  # over the gRPC port's bound (4096 bytes)


def fenced(patch: str, after: str = "") -> str:
    return f"Here is the fix.\n\n```diff\n{patch}```\n{after}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Math workers and a Docker pool of one box over one built environment (toolz: about a second a run)."""
    root = tmp_path_factory.mktemp("environments")
    assert verifier_cli(["env", "build", recipe(PY, tmp_path_factory.mktemp("recipes")), "--environments", str(root)]) == 0
    with ServerProcess("--workers", "1", "--sandbox-backend", "docker", "--sandbox-languages", "python",
                       "--sandbox-pool-size", "1", "--sandbox-repo-environments", str(root)) as s:
        yield s


@pytest.fixture
def target(server: ServerProcess, monkeypatch: pytest.MonkeyPatch) -> str:
    """The adapters read VERIFIER_* when first used in a process (tests/test_adapters.py)."""
    monkeypatch.setenv("VERIFIER_TARGET", server.target)
    monkeypatch.setenv("VERIFIER_TIMEOUT_S", "120")
    monkeypatch.setattr(verl, "_BATCHER", None)
    monkeypatch.setattr(remote.BREAKER, "streak", 0)
    return server.target


def test_openrlhf_get_reward(server: ServerProcess) -> None:
    """OpenRLHF's `/get_reward`: queries are prompt + response, labels JSON text of a row (with its test
    command, or as stored: the server's environment recorded it); a bad row is 0.0, flagged, and named;
    the math item of the same batch is graded as ever."""
    responses = [fenced(GOLD), GOLD, fenced(WRONG), fenced(GOLD), fenced(GOLD), "So \\boxed{2}."]
    # the second as stored, with the ids as lists: the server lays its environment's recorded test command under it
    labels = [json.dumps(ROW), json.dumps({**STORED, "FAIL_TO_PASS": PY["FAIL_TO_PASS"]}), json.dumps(ROW),
              json.dumps(BAD_IDS), json.dumps({**BAD_CMD, "kind": "repo"}), "2"]
    status, _, body = http_call(server, "POST", "/get_reward", {"query": [PROMPT + r for r in responses],
                                                                 "prompts": [PROMPT] * 6, "labels": labels})
    assert status == 200, body
    assert body["rewards"] == [1.0, 1.0, 0.0, 0.0, 0.0, 1.0], body["details"]
    assert body["verdicts"][:3] == ["accepted", "accepted", "wrong_answer"], body["details"]
    assert body["extra_logs"]["verifier_ungraded"] == [0.0, 0.0, 0.0, 1.0, 1.0, 0.0]
    assert "FAIL_TO_PASS failing" in body["details"][2]
    assert body["details"][3].startswith("labels[3]: swebench: FAIL_TO_PASS: not a JSON list"), body["details"][3]
    assert body["details"][4].startswith("labels[4].test_cmd:"), body["details"][4]


def test_slime_remote_rm(server: ServerProcess) -> None:
    """slime's `/slime/remote_rm`: a bare number; a whole `repo` task as the label. The gold is followed by
    more prose than a math answer keeps (100,000 characters): a patch is graded whole, never its tail."""
    long_gold = fenced(GOLD, "Why it works. " * 8000)
    assert len(long_gold) > 100_000
    url = "/slime/remote_rm"
    assert http_call(server, "POST", url, {"prompt": PROMPT, "response": long_gold, "label": TASK})[2] == 1.0
    status, _, body = http_call(server, "POST", url + "?detail=1", {"prompt": PROMPT, "response": NOOP, "label": TASK})
    assert status == 200 and (body["reward"], body["verdict"], body["ungraded"]) == (0.0, "wrong_answer", False), body
    status, _, body = http_call(server, "POST", url + "?detail=1",
                                {"prompt": PROMPT, "response": GOLD, "label": {**TASK, "environment": "../x"}})
    assert status == 200 and body["ungraded"] and body["detail"].startswith("label.environment:"), body
    status, _, body = http_call(server, "POST", url, {"prompt": PROMPT, "response": 7, "label": TASK})
    assert status == 400 and body["field"] == "response", body


def test_verl_adapter(target: str) -> None:
    """verl's batch form: the row as `ground_truth` (JSON text) or as `extra_info` columns. A row without
    its test command is unreadable here: the trainer's side does not see the server's environments."""
    out = verl.compute_score_batch(["swe"] * 5, [fenced(GOLD), NOOP, GOLD, GOLD, GOLD],
                                   [json.dumps(ROW), json.dumps(ROW), None, json.dumps(BAD_IDS), json.dumps(STORED)],
                                   [None, None, ROW, None, None])
    assert [o["score"] for o in out] == [1.0, 0.0, 1.0, 0.0, 0.0]
    assert [o["verifier_ungraded"] for o in out] == [0.0, 0.0, 0.0, 1.0, 1.0]
    assert [o["verifier_unreadable"] for o in out] == [0.0, 0.0, 0.0, 1.0, 1.0]


def test_openrlhf_and_slime_adapters(target: str) -> None:
    from trainer.openrlhf import reward_func as openrlhf_reward
    from trainer.slime import reward_func as slime_reward

    out = openrlhf_reward([PROMPT + fenced(GOLD), PROMPT + fenced(WRONG)], [PROMPT, PROMPT], [json.dumps(ROW)] * 2)
    assert list(map(float, out["rewards"])) == [1.0, 0.0]
    assert list(map(float, out["extra_logs"]["verifier_ungraded"])) == [0.0, 0.0]
    samples = [SimpleNamespace(prompt=PROMPT, response=GOLD, label=TASK, metadata={}),
               SimpleNamespace(prompt=PROMPT, response=NOOP, label=None, metadata=ROW)]
    assert asyncio.run(slime_reward(SimpleNamespace(), samples)) == [1.0, 0.0]


def test_trl_batch_mixing_a_repo_row_and_a_math_row(target: str) -> None:
    """TRL hands one list per column: one dataset of SWE-bench rows, rows in our own `repo` columns and math
    rows gives each row every column, None where it has none. accuracy and format per row; pass_rate is the
    code tasks' alone (a repository task pays only when resolved: its per-test statuses are the program's
    own word, docs/repo-tasks.md "Trust model")."""
    own = {k: v for k, v in TASK.items() if k != "kind"}  # no `kind` column: `environment` and `fail_to_pass` say it
    blank = {**{k: None for k in (*ROW, *own)}, "solution": None}
    rows = [{**blank, **ROW}, {**blank, "solution": "2"}, {**blank, **own}, {**blank, **BAD_IDS}]
    columns = {k: [r[k] for r in rows] for k in blank}
    completions = [[{"role": "assistant", "content": c}] for c in (fenced(GOLD), "So \\boxed{2}.", fenced(WRONG), fenced(GOLD))]
    funcs = VerifierRewards(RewardConfig(target=target, components=("accuracy", "format", "pass_rate"))).reward_funcs()

    async def batch() -> list[list[float | None]]:
        return list(await asyncio.gather(*(f(prompts=[PROMPT] * 4, completions=completions, **columns) for f in funcs)))

    accuracy, fmt, pass_rate = asyncio.run(batch())
    assert accuracy == [1.0, 1.0, 0.0, None]
    assert fmt == [1.0, 1.0, 1.0, None]
    assert pass_rate == [None, None, None, None]
