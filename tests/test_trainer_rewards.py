"""Unit tests of the trainer's pure logic: TRL batch -> tasks, results -> rewards, the shared RPC,
the failure policy and TRL's contract. A fake client stands in for the service here only; the
real server is exercised in test_trainer_e2e.py."""

from __future__ import annotations

import asyncio
import json
import pickle
from types import SimpleNamespace

import pytest

from trainer.config import RewardConfig
from trainer.rewards import RewardComponent, RewardServiceError, VerifierRewards, verifier_rewards
from trainer.tasks import UNREADABLE, build_tasks, completion_text, component_value
from trainer.train import config_from_dict


class FakeClient:
    """Grades math by substring, code as accepted; `mode` injects failures. Counts calls per class."""

    calls: list[list[dict]] = []
    mode = "ok"

    def __init__(self, cfg: RewardConfig):
        self.loop = asyncio.get_running_loop()

    async def grade_detailed(self, tasks):
        FakeClient.calls.append(list(tasks))
        await asyncio.sleep(0.01)
        if FakeClient.mode == "raise":
            raise ConnectionError("boom")
        results = []
        for t in tasks:
            if FakeClient.mode == "infra":
                verdict, score = "infra_error", 0.0
            elif t["kind"] == "code":
                verdict, score = "accepted", 1.0
            else:
                ok = f"\\boxed{{{t['gold']}}}" in t["completion"]
                verdict, score = ("correct", 1.0) if ok else ("incorrect", 0.0)
            results.append({"id": t["id"], "verdict": verdict, "score": score, "extracted": "x",
                            "extracted_from": "boxed", "queue_s": 0.0, "exec_s": 0.01, "tests": []})
        return SimpleNamespace(results=results, retries=1, rpc_s=0.01,
                               ungraded=sum(r["verdict"] == "infra_error" for r in results))


@pytest.fixture(autouse=True)
def reset_fake():
    FakeClient.calls, FakeClient.mode = [], "ok"
    yield


def group(**kw) -> VerifierRewards:
    return VerifierRewards(RewardConfig(**kw), client_factory=FakeClient)


def call_all(funcs, **kwargs):
    """What TRL does with async reward functions: gather them on one loop."""
    async def run():
        return await asyncio.gather(*(f(**kwargs) for f in funcs))
    return asyncio.run(run())


BATCH = {"prompts": ["1+1=", "1+1=", "2+2=", "2+2="],
         "completions": ["\\boxed{2}", "\\boxed{3}", "\\boxed{4}", "no idea"],
         "completion_ids": [[1], [2], [3], [4]], "solution": ["2", "2", "4", "4"]}


# ------------------------------------------------------------------ batch -> tasks

def test_completion_text_standard_and_conversational():
    assert completion_text("abc") == "abc"
    assert completion_text([{"role": "assistant", "content": "x"}]) == "x"
    multi = [{"role": "assistant", "content": "call"}, {"role": "tool", "content": "42"},
             {"role": "assistant", "content": [{"type": "text", "text": "\\boxed{"}, {"type": "text", "text": "42}"}]}]
    assert completion_text(multi) == "\\boxed{42}"
    assert completion_text(None) == "" and completion_text([1, 2]) == "" and completion_text({"content": 5}) == ""


def test_math_gold_columns_profile_choices_and_missing_gold():
    cfg = RewardConfig(math_profile="lenient")
    tasks = build_tasks(["a", "b", "c", "d", "e"], {
        "solution": [None, "", "x", 3, None], "answer": ["7", None, "y", None, None],
        "ground_truth": [None, "9", None, None, None],
        "profile": [None, "strict", "bogus", None, None], "choices": [None, None, ["A", "B"], None, None]}, cfg)
    assert [t and t["gold"] for t in tasks] == ["7", "9", "x", "3", None]
    assert [t and t["profile"] for t in tasks][:4] == ["lenient", "strict", "lenient", "lenient"]
    assert tasks[2]["choices"] == ["A", "B"] and tasks[0]["choices"] == []
    assert [t and t["id"] for t in tasks][:4] == ["0", "1", "2", "3"]


def test_code_rows_from_open_r1_and_our_schema():
    cfg = RewardConfig(max_tests_per_task=2)
    info = {"language": "cpp", "test_cases": [{"input": "1\n", "output": "2\n", "type": "stdin_stdout"}]}
    tasks = build_tasks(["```cpp\nx\n```", "c2", "c3", "c4"], {
        "verification_info": [info, json.dumps(info), None, None],
        "tests": [None, None, [{"stdin": "a", "expected_stdout": "b"}], [{"stdin": "", "expected_stdout": ""}] * 3],
    }, cfg)
    assert tasks[0]["kind"] == "code" and tasks[0]["language"] == "cpp"
    assert tasks[0]["tests"] == [{"stdin": "1\n", "expected_stdout": "2\n"}] and tasks[0]["scoring"] == "fraction"
    assert tasks[1]["tests"] == tasks[0]["tests"]
    assert tasks[2]["language"] == "python" and tasks[2]["tests"] == [{"stdin": "a", "expected_stdout": "b"}]
    assert tasks[3] is None  # more tests than allowed: not sent, reward None


def test_malformed_code_rows_are_none_not_run_empty(caplog):
    """A `tests` column in DeepCoder style ({"input", "output"}) used to become tests with empty stdin
    and empty expected output (a program printing nothing was accepted); now it is read as DeepCoder's
    (verifier/formats), and one with no output is refused naming the columns: no reward, counted.
    Values the sandbox cannot honour likewise."""
    rows = {"tests": [[{"input": "1\n", "output": "2\n"}], [{"stdin": "1\n", "expected_stdout": "2\n"}],
                      [{"stdin": "1\n", "expected_stdout": "2\n"}], [{"input": "1\n"}]],
            "memory_limit_mb": [None, None, 8, None], "malformed_rows_test": [0, 0, 0, 0]}
    before = UNREADABLE.total
    with caplog.at_level("WARNING"):
        tasks = build_tasks(["```python\n```", "```python\nprint(2)\n```", "x", "x"], rows, RewardConfig(kind="code"))
    assert tasks[0]["tests"] == [{"stdin": "1\n", "expected_stdout": "2\n"}]  # never empty stdin / output
    assert tasks[1]["tests"] == [{"stdin": "1\n", "expected_stdout": "2\n"}]
    assert tasks[1]["float_abs_tol"] == 1e-6 and tasks[1]["compare"] == "tokens"  # the schema's defaults
    assert tasks[2] is None and tasks[3] is None and UNREADABLE.total == before + 2
    # logged once for this set of columns, naming them; the second is only counted
    assert "memory_limit_mb: must be in [16" in caplog.text and "deepcoder" not in caplog.text
    assert caplog.text.count("(columns: malformed_rows_test, memory_limit_mb, tests)") == 1
    with caplog.at_level("WARNING"):
        assert build_tasks(["x"], {"tests": [[{"input": "1\n"}]], "other_rows_test": [0]}, RewardConfig()) == [None]
    assert "deepcoder: tests.outputs[0]" in caplog.text and "(columns: other_rows_test, tests)" in caplog.text


def test_long_completion_keeps_its_tail():
    tasks = build_tasks(["x" * 1000 + "\\boxed{1}"], {"solution": ["1"]}, RewardConfig(max_completion_chars=20))
    assert tasks[0]["completion"].endswith("\\boxed{1}") and len(tasks[0]["completion"]) == 20


def test_component_values():
    r = {"verdict": "incorrect", "score": 0.0, "extracted_from": "last"}
    assert component_value("accuracy", r, "math") == 0.0
    assert component_value("format", r, "math") == 0.0
    assert component_value("accuracy", {"verdict": "correct", "score": 1, "extracted_from": "boxed"}, "math") == 1.0
    assert component_value("format", {"verdict": "correct", "score": 1, "extracted_from": "boxed"}, "math") == 1.0
    assert component_value("accuracy", {"verdict": "infra_error", "score": 0}, "math") is None
    assert component_value("accuracy", {"verdict": "invalid_gold", "score": 0}, "math") is None
    assert component_value("accuracy", None, None) is None
    assert component_value("compiles", {"verdict": "correct"}, "math") is None
    code = {"verdict": "wrong_answer", "score": 0.5, "extracted_from": "fenced:python",
            "tests": [{"verdict": "accepted"}, {"verdict": "wrong_answer"}]}
    assert component_value("pass_rate", code, "code") == 0.5
    # scoring "all" stops at the first failure: the tests not run count as failed, not as absent
    task = {"kind": "code", "tests": [{"stdin": "", "expected_stdout": ""}] * 4, "scoring": "all"}
    assert component_value("pass_rate", code, "code", task) == 0.25
    assert component_value("pass_rate", dict(code, tests=code["tests"] * 3), "code", task) == 0.5  # more listed: theirs
    assert component_value("compiles", code, "code") == 1.0 and component_value("format", code, "code") == 1.0
    assert component_value("compiles", {"verdict": "compile_error"}, "code") == 0.0
    assert component_value("accuracy", {"verdict": "accepted", "score": 7}, "code") == 1.0  # clipped to [0, 1]


# ------------------------------------------------------------------ TRL contract

def test_trl_sees_async_named_callables():
    from trl.trainer.utils import get_callable_name, is_async_callable

    funcs = verifier_rewards("h:1", components=("accuracy", "format"))
    assert [get_callable_name(f) for f in funcs] == ["verifier_accuracy", "verifier_format"]
    assert all(is_async_callable(f) for f in funcs)


def test_components_share_one_rpc_and_return_one_value_per_completion():
    funcs = group().reward_funcs()
    acc, fmt = call_all(funcs, **BATCH)
    assert len(FakeClient.calls) == 1 and len(FakeClient.calls[0]) == 4
    assert acc == [1.0, 0.0, 1.0, 0.0] and fmt == [1.0, 1.0, 1.0, 1.0]
    # the next step (same or different data) is a new RPC: consumed batches are not reused
    call_all(funcs, **BATCH)
    assert len(FakeClient.calls) == 2


def test_components_called_one_after_another_still_share():
    g = group()
    funcs = g.reward_funcs()

    async def sequential():
        return [await f(**BATCH) for f in funcs]

    assert asyncio.run(sequential())[0] == [1.0, 0.0, 1.0, 0.0]
    assert len(FakeClient.calls) == 1 and not g._pending


def test_rows_without_gold_are_none_and_not_sent():
    out = call_all(group(components=("accuracy",)).reward_funcs(), **{**BATCH, "solution": ["2", None, "4", ""]})
    assert out[0] == [1.0, None, 1.0, None] and len(FakeClient.calls[0]) == 2


def test_empty_batch_and_trl_kwargs_are_not_columns():
    funcs = group().reward_funcs()
    assert call_all(funcs, prompts=[], completions=[], completion_ids=[]) == [[], []]
    logged = {}
    kwargs = {**BATCH, "trainer_state": object(), "log_extra": lambda c, v: logged.setdefault(c, v),
              "log_metric": lambda n, v: logged.setdefault(n, v)}
    call_all(funcs, **kwargs)
    assert set(FakeClient.calls[0][0]) == {"id", "kind", "completion", "gold", "profile", "choices", "timeout_s", "problem"}
    assert [t["problem"] for t in FakeClient.calls[0]] == BATCH["prompts"]  # TRL's prompt is the problem (fx29ay), no column
    assert logged["verifier_verdict"] == ["correct", "incorrect", "correct", "incorrect"]
    assert len(logged["verifier_extracted"]) == 4 and logged["verifier/retries"] == 1.0


def test_logging_hooks_called_once_per_batch_with_aligned_lengths():
    extra, metrics = [], []
    call_all(group().reward_funcs(), **BATCH, log_extra=lambda c, v: extra.append((c, len(v))),
             log_metric=lambda n, v: metrics.append(n))
    assert sorted(extra) == [("verifier_extracted", 4), ("verifier_grade_s", 4), ("verifier_verdict", 4)]
    assert sorted(metrics) == ["verifier/retries", "verifier/rpc_s", "verifier/ungraded", "verifier/ungraded_frac",
                              "verifier/unreadable"]


def test_infra_error_is_none_never_zero():
    FakeClient.mode = "infra"
    acc, fmt = call_all(group(breaker_patience=0).reward_funcs(), **BATCH)
    assert acc == [None] * 4 and fmt == [None] * 4


def test_client_exception_becomes_none_then_breaker_raises():
    FakeClient.mode = "raise"
    g = group(breaker_patience=3, target="10.0.0.1:9")
    funcs = g.reward_funcs()
    for _ in range(2):
        assert call_all(funcs, **BATCH) == [[None] * 4, [None] * 4]
    with pytest.raises(RewardServiceError, match=r"10\.0\.0\.1:9.*ConnectionError: boom"):
        call_all(funcs, **BATCH)
    assert g.stats.ungraded == 12 and g.stats.batches == 3


def test_breaker_streak_resets_on_a_good_batch():
    g = group(breaker_patience=2)
    funcs = g.reward_funcs()
    FakeClient.mode = "infra"
    call_all(funcs, **BATCH)
    FakeClient.mode = "ok"
    call_all(funcs, **BATCH)
    FakeClient.mode = "infra"
    call_all(funcs, **BATCH)  # streak 1 again, not 2: no raise
    with pytest.raises(RewardServiceError):
        call_all(funcs, **BATCH)


def test_client_per_event_loop_and_pickle_round_trip():
    g = group()
    funcs = g.reward_funcs()
    call_all(funcs, **BATCH)
    call_all(funcs, **BATCH)  # asyncio.run makes a new loop: a new client for it
    assert len({id(c) for _, c in g._clients.values()}) == 2
    clone = pickle.loads(pickle.dumps(funcs))
    assert [f.__name__ for f in clone] == ["verifier_accuracy", "verifier_format"]
    assert clone[0].group is clone[1].group and not clone[0].group._clients
    assert call_all(clone, **BATCH)[0] == [1.0, 0.0, 1.0, 0.0]
    assert isinstance(clone[0], RewardComponent)


# ------------------------------------------------------------------ configs

def test_config_errors_name_the_field():
    with pytest.raises(ValueError, match="components"):
        RewardConfig(components=("accuracy", "speed"))
    with pytest.raises(ValueError, match="math_profile"):
        RewardConfig(math_profile="loose")
    with pytest.raises(ValueError, match=r"config: unknown key\(s\) \['modle'\]"):
        config_from_dict({"modle": "x"})
    with pytest.raises(ValueError, match="rewards: unknown"):
        config_from_dict({"rewards": {"taget": "x"}})
    cfg = config_from_dict({"rewards": {"target": "h:1", "components": ["accuracy"]}, "grpo": {"max_steps": 3}})
    assert cfg.rewards.components == ("accuracy",) and cfg.grpo["max_steps"] == 3


@pytest.mark.parametrize("name", ["train_tiny.yaml", "gpu_0p5b_from_config.yaml", "qwen_math_vllm.yaml"])
def test_example_configs_load(name):
    from pathlib import Path

    from trainer.train import load_config

    cfg = load_config(Path(__file__).resolve().parent.parent / "examples" / name)
    assert cfg.rewards.components == ("accuracy", "format") and cfg.grpo["max_completion_length"] > 0
