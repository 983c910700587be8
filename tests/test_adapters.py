"""Framework adapters (verl, OpenRLHF, slime, TRL sync) against a real server on loopback."""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import inspect
import json
import math
import os
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from trainer import remote, trl_sync, verl
from trainer.remote import env_config
from trainer.rewards import RewardServiceError
from verifier.local_server import free_port

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def target(verifier_server, monkeypatch) -> str:
    monkeypatch.setenv("VERIFIER_TARGET", verifier_server.target)
    monkeypatch.setattr(verl, "_BATCHER", None)
    trl_sync._STATE.clear()  # adapters read VERIFIER_* when first used in a process
    monkeypatch.setattr(remote.BREAKER, "streak", 0)
    return verifier_server.target


@pytest.fixture
def dead_target(monkeypatch) -> str:
    """An address nobody listens on, with a short deadline: every item comes back ungraded."""
    addr = f"127.0.0.1:{free_port()}"
    monkeypatch.setenv("VERIFIER_TARGET", addr)
    monkeypatch.setenv("VERIFIER_TIMEOUT_S", "1")
    monkeypatch.setattr(verl, "_BATCHER", None)
    trl_sync._STATE.clear()
    monkeypatch.setattr(remote.BREAKER, "streak", 0)
    return addr


# ---------------------------------------------------------------- verl


def test_verl_compute_score_right_wrong_rewrite(target):
    assert verl.compute_score("math", "so \\boxed{\\frac{1}{2}}", "0.5")["score"] == 1.0  # rewrite passes
    assert verl.compute_score("math", "so \\boxed{\\frac{1}{3}}", "0.5")["score"] == 0.0  # near miss fails
    out = verl.compute_score("math", "the answer is \\boxed{B}", "B", {"choices": ["1", "2", "3", "4"]})
    assert out == {"score": 1.0, "verifier_ungraded": 0.0, "verifier_unreadable": 0.0}


def test_verl_concurrent_calls_become_one_rpc(target, monkeypatch):
    """16 threads call compute_score at once (as verl's thread pool does): one grade call answers all."""
    b = verl.MicroBatcher(env_config(), linger_s=60.0, max_batch=16)  # closes on size, not on time
    monkeypatch.setattr(verl, "_BATCHER", (os.getpid(), b))
    out: dict[int, dict] = {}

    def call(i: int) -> None:
        answer = i if i % 2 else i + 1  # odd rows right, even rows off by one
        out[i] = verl.compute_score("math", f"\\boxed{{{answer}}}", str(i))

    threads = [threading.Thread(target=call, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert b.calls == 1
    assert [out[i]["score"] for i in range(16)] == [float(i % 2) for i in range(16)]


def test_verl_async_form_gathers_a_step(target, monkeypatch):
    """verl's reward loop awaits every item of a step at once: one grade call for all of them."""
    b = verl.MicroBatcher(env_config(), linger_s=60.0, max_batch=12)
    monkeypatch.setattr(verl, "_BATCHER", (os.getpid(), b))

    async def step() -> list[dict]:
        return await asyncio.gather(*(verl.compute_score_async("math", f"\\boxed{{{i * i}}}", str(i * i if i < 6 else i))
                                      for i in range(12)))

    out = asyncio.run(step())
    assert inspect.iscoroutinefunction(verl.compute_score_async)
    assert b.calls == 1
    assert [o["score"] for o in out] == [1.0] * 6 + [0.0] * 6  # from 6 on the gold is i, not i*i


def test_verl_batch_form(target):
    out = verl.compute_score_batch(
        ["gsm8k"] * 4, ["\\boxed{12}", "\\boxed{13}", "\\boxed{x^2+2x+1}", "\\boxed{1}"],
        ["12", "12", "(x+1)^2", None], [None, {}, {"split": "train"}, None])
    assert [o["score"] for o in out] == [1.0, 0.0, 1.0, 0.0]
    assert [o["verifier_ungraded"] for o in out] == [0.0, 0.0, 0.0, 1.0]  # no ground truth: ungraded, not wrong
    assert [o["verifier_unreadable"] for o in out] == [0.0, 0.0, 0.0, 1.0]  # ... because nothing reads the row


def test_verl_example_file_loads_as_verl_loads_it(target):
    """verl's custom_reward_function.path: spec_from_file_location + getattr(module, name)."""
    spec = importlib.util.spec_from_file_location("custom_module", ROOT / "examples" / "verl_reward.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = module.compute_score_batch(["m"] * 2, ["\\boxed{9}", "\\boxed{-9}"], ["9", "9"], [None, None])
    assert [o["score"] for o in out] == [1.0, 0.0]
    assert inspect.iscoroutinefunction(module.compute_score_async)


def test_verl_ground_truth_as_json_task(target):
    task = '{"kind": "math", "gold": "\\\\frac{2}{4}", "profile": "lenient"}'
    assert verl.compute_score("x", "final answer: 0.5", task)["score"] == 1.0
    assert verl.compute_score("x", "final answer: 0.25", task)["score"] == 0.0


@pytest.mark.docker
def test_verl_code_ground_truth_runs_in_the_sandbox(server_factory, monkeypatch):
    """verl's code rows carry {"inputs", "outputs"}: stdin/stdout tests in the real sandbox; with
    `fn_name`, call-based tests (verifier/formats/verl.py), never stdin tests and never ungraded."""
    server = server_factory("--workers", "1")
    monkeypatch.setenv("VERIFIER_TARGET", server.target)
    monkeypatch.setattr(remote.BREAKER, "streak", 0)
    truth = json.dumps({"inputs": ["2 3\n", "10 -4\n"], "outputs": ["5\n", "6\n"]})
    right = "```python\na, b = map(int, input().split())\nprint(a + b)\n```"
    near = "```python\na, b = map(int, input().split())\nprint(a + b + (a > 5))\n```"  # passes one test of two
    call = json.dumps({"inputs": [[1, 2], [3, 4]], "outputs": [[3], [7]], "fn_name": "f"})
    fn = "```python\ndef f(a, b):\n    return a + b\n```"
    # verl's LiveCodeBench style (issue 18): one JSON argument per line, the output JSON text
    lines = json.dumps({"inputs": ["[1, 2, 3]\n2", "[5]\n1"], "outputs": ["[2, 3]", "[]"], "fn_name": "drop"})
    drop = "```python\nclass Solution:\n    def drop(self, nums: List[int], k: int) -> List[int]:\n        return nums[1:k + 1]\n```"
    near_drop = "```python\nclass Solution:\n    def drop(self, nums, k):\n        return nums[1:k]\n```"
    out = verl.compute_score_batch(["code"] * 6, [right, near, right, fn, drop, near_drop],
                                   [truth, truth, call, call, lines, lines], None)
    assert [o["score"] for o in out] == [1.0, 0.5, 0.0, 1.0, 1.0, 0.5]  # fraction of tests passed (code_scoring)
    assert [o["verifier_ungraded"] for o in out] == [0.0] * 6


def test_verl_server_down_is_ungraded_not_wrong(dead_target, monkeypatch):
    out = verl.compute_score_batch(["m"], ["\\boxed{2}"], ["2"], None)
    assert out == [{"score": 0.0, "verifier_ungraded": 1.0, "verifier_unreadable": 0.0}]
    monkeypatch.setenv("VERIFIER_UNGRADED_REWARD", "nan")
    assert math.isnan(verl.compute_score("m", "\\boxed{2}", "2")["score"])


def test_a_service_that_stays_down_stops_the_run(dead_target):
    """One dead batch gives flagged zeros; three in a row raise instead of training on zeros."""
    for _ in range(2):
        assert verl.compute_score_batch(["m"], ["\\boxed{2}"], ["2"], None)[0]["verifier_ungraded"] == 1.0
    with pytest.raises(RewardServiceError, match="3 batches in a row"):
        verl.compute_score_batch(["m"], ["\\boxed{2}"], ["2"], None)


def test_client_config_tls_from_env(tmp_path):
    cfg = env_config({"VERIFIER_TARGET": "h:1"})
    assert remote.client_config(cfg, {}).tls is False
    conf = remote.client_config(cfg, {"VERIFIER_CA_CERT": str(tmp_path / "ca.pem")})
    assert conf.tls is True and conf.root_cert == str(tmp_path / "ca.pem")
    assert remote.client_config(cfg, {"VERIFIER_TLS": "1"}).tls is True


# ---------------------------------------------------------------- OpenRLHF


def _load_openrlhf_file(path):
    """What OpenRLHF does with --remote_rm_url *.py."""
    spec = importlib.util.spec_from_file_location("reward_func", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.reward_func


@pytest.mark.parametrize("path", ["trainer/openrlhf.py", "examples/openrlhf_reward_func.py"])
def test_openrlhf_reward_func_file(target, path):
    reward_func = _load_openrlhf_file(ROOT / path)
    prompt = "<|user|>Worked example: \\boxed{7}. Now compute 3+4.<|assistant|>"
    queries = [prompt + "It is \\boxed{7}", prompt + "I am not sure.", prompt + "\\boxed{8}", prompt + "\\boxed{0.5}"]
    labels = ["7", "7", "7", '{"kind": "math", "gold": "1/2"}']
    out = reward_func(queries, [prompt] * 4, labels)
    assert out["rewards"].tolist() == [1.0, 0.0, 0.0, 1.0]  # the prompt's \boxed{7} never scores
    assert out["scores"].tolist() == out["rewards"].tolist()
    assert out["extra_logs"]["verifier_ungraded"].tolist() == [0.0] * 4


def test_openrlhf_prompt_not_in_query_is_ungraded(target):
    from trainer.openrlhf import reward_func

    out = reward_func(["<s>Q: \\boxed{7}? A: \\boxed{7}", "Q2 (reworded) \\boxed{7}"],
                      ["Q: \\boxed{7}? A:", "Q2: what is 3+4?"], ["7", "7"])
    assert out["rewards"].tolist() == [1.0, 0.0]  # a BOS before the prompt is fine; a prompt not found is not graded
    assert out["extra_logs"]["verifier_ungraded"].tolist() == [0.0, 1.0]
    assert out["extra_logs"]["verifier_unreadable"].tolist() == [0.0, 0.0]  # the row is read; the query is not


def test_verl_fn_name_inputs_are_json_lines_when_strings():
    """verl reads a string input of a fn_name row as one JSON argument per line and its output as JSON (prime_code's
    testing_util and its sandbox_fusion wrapper, volcengine/verl b178a3cd); a list input stays APPS's argument list."""
    from verifier.formats import to_task

    row = {"reward_model": {"ground_truth": json.dumps(
        {"inputs": ["[1, 2]\n\"ab\"", [3, "c"]], "outputs": ["{\"n\": 3}", ["c3"]], "fn_name": "f"})}}
    task = to_task(row, "verl", completion="def f(a, b):\n    pass")
    assert [(t["args"], t["expected"]) for t in task["call_tests"]] == [([[1, 2], "ab"], {"n": 3}), ([3, "c"], "c3")]
    bad = {"reward_model": {"ground_truth": json.dumps({"inputs": ["not json"], "outputs": ["1"], "fn_name": "f"})}}
    with pytest.raises(ValueError, match="JSON"):  # the row's fault, named: ungraded, never a one-string call
        to_task(bad, "verl", completion="def f(a): pass")


def test_label_forms():
    """Gold answers, JSON tasks, JSON dataset rows (math and code), and labels nothing can grade."""
    cfg = env_config({})
    assert remote.label_task("a", "x", 42, None, cfg)["gold"] == "42"
    assert remote.label_task("a", "x", "7", {"answer": "8"}, cfg)["gold"] == "7"  # the label outranks extra columns
    task = remote.label_task("a", "x", '{"kind": "math", "gold": "1", "completion": "ignored", "id": "z"}', None, cfg)
    assert (task["id"], task["completion"], task["gold"]) == ("a", "x", "1")
    row = remote.label_task("a", "x", {"solution": "3", "choices": ["p", "q"]}, None, cfg)
    assert (row["kind"], row["gold"], row["choices"]) == ("math", "3", ["p", "q"])
    code = remote.label_task("a", "```python\nprint(1)\n```", json.dumps(
        {"verification_info": {"language": "python", "test_cases": [{"input": "", "output": "1\n"}]}}), None, cfg)
    assert code["kind"] == "code" and code["tests"][0]["expected_stdout"] == "1\n"
    assert remote.label_task("a", "x", None, None, cfg) is None
    assert remote.label_task("a", "x", True, None, cfg) is None  # a bool is no gold answer


def test_openrlhf_server_down(dead_target):
    from trainer.openrlhf import reward_func

    out = reward_func(["q \\boxed{1}"], ["q "], ["1"], datasources=["x"])  # newer releases pass extra kwargs
    assert out["rewards"].tolist() == [0.0]
    assert out["extra_logs"]["verifier_ungraded"].tolist() == [1.0]


# ---------------------------------------------------------------- slime


def test_slime_group_and_single(target):
    from trainer.slime import reward_func

    samples = [SimpleNamespace(prompt="p", response="\\boxed{3}", label="3", metadata={}),
               SimpleNamespace(prompt="p", response="\\boxed{4}", label="3", metadata=None),
               SimpleNamespace(prompt="p", response="answer: \\boxed{C}", label="C",
                               metadata={"choices": ["a", "b", "c", "d"]})]
    assert asyncio.run(reward_func(SimpleNamespace(), samples)) == [1.0, 0.0, 1.0]
    assert asyncio.run(reward_func(SimpleNamespace(), samples[1])) == 0.0
    assert inspect.iscoroutinefunction(reward_func)


def test_slime_server_down(dead_target):
    from trainer.slime import reward_func

    sample = SimpleNamespace(prompt="p", response="\\boxed{3}", label="3", metadata={})
    assert asyncio.run(reward_func(SimpleNamespace(), [sample])) == [0.0]


# ---------------------------------------------------------------- TRL (sync, command line)


def test_trl_sync_functions_by_dotted_path(target):
    """Resolved the way TRL's `trl grpo --reward_funcs a.b.c` does (import_module + getattr)."""
    funcs = []
    for name in ("trainer.trl_sync.accuracy", "trainer.trl_sync.format"):
        module_path, func_name = name.rsplit(".", 1)
        funcs.append(getattr(importlib.import_module(module_path), func_name))
    assert not any(inspect.iscoroutinefunction(f) for f in funcs)
    assert [f.__name__ for f in funcs] == ["accuracy", "format"]
    completions = [[{"role": "assistant", "content": "\\boxed{5}"}], [{"role": "assistant", "content": "5"}],
                   [{"role": "assistant", "content": "\\boxed{6}"}]]
    kwargs = {"prompts": ["p"] * 3, "completions": completions, "solution": ["5", "5", "5"]}
    assert funcs[0](**kwargs) == [1.0, 0.0, 0.0]  # strict profile: a bare 5 is not an answer
    assert funcs[1](**kwargs) == [1.0, 0.0, 1.0]


def test_trl_sync_ungraded_is_none(dead_target):
    assert trl_sync.accuracy(prompts=["p"], completions=["\\boxed{1}"], solution=["1"]) == [None]
    trl_sync._STATE.clear()


@pytest.mark.slow
def test_trl_sync_function_in_a_real_grpo_trainer(target, verifier_server, tmp_path):
    """TRL's GRPOTrainer calls trainer.trl_sync.accuracy (loaded by dotted path) with its real
    arguments: it scores exactly what the async verifier_accuracy scores on the same completions."""
    pytest.importorskip("trl")
    from trainer.config import RewardConfig
    from trainer.train import TINY_GRPO, TrainConfig, run_training

    cfg = TrainConfig(model="tiny", dataset="tiny", sft_steps=60, torch_threads=1, print_logs=False,
                      output_dir=str(tmp_path), rewards=RewardConfig(target=target, components=("accuracy",)),
                      local_rewards=["trainer.trl_sync:accuracy"], grpo={**TINY_GRPO, "max_steps": 2})
    before = verifier_server.metric("verifier_items_total", kind="math")
    rows = [r for r in run_training(cfg).log_history if "reward" in r]
    graded = verifier_server.metric("verifier_items_total", kind="math") - before
    assert len(rows) == 2
    assert graded == 2 * 2 * TINY_GRPO["per_device_train_batch_size"]  # each function sent its own items
    for row in rows:
        assert row["rewards/accuracy/mean"] == row["rewards/verifier_accuracy/mean"]
    assert any(row["rewards/accuracy/mean"] > 0 for row in rows)  # the SFT warm-up gets some right
