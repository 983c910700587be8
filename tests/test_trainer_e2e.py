"""The trainer against a real `verifier serve` subprocess: a real tiny GRPOTrainer on CPU, real
math grading, and injected failures (server down, restarted, frozen past the deadline, code items
answered infra_error by a server without Docker)."""

from __future__ import annotations

import asyncio
import csv
import dataclasses
import math
import os
import pickle
import signal
import subprocess
import sys
import threading
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import pytest

from trainer.config import RewardConfig
from trainer.rewards import RewardServiceError, VerifierRewards
from trainer.train import TINY_GRPO, TrainConfig, run_training
from verifier.client_config import ClientConfig
from verifier.local_server import free_port

ROOT = Path(__file__).resolve().parent.parent
BATCH_PER_STEP = TINY_GRPO["per_device_train_batch_size"]  # completions graded per step




CLIENT_KEYS = {f.name for f in dataclasses.fields(ClientConfig)}


def reward_cfg(target: str, **kw) -> RewardConfig:
    """A RewardConfig; client settings (timeout_s, max_retries, backoff_*) go into its ClientConfig."""
    client = {k: kw.pop(k) for k in list(kw) if k in CLIENT_KEYS}
    return RewardConfig(target=target, client=ClientConfig(**{"max_retries": 3, **client}), **kw)


def tiny_cfg(target: str, out: Path, steps: int = 2, **reward_kw) -> TrainConfig:
    return TrainConfig(model="tiny", dataset="tiny", conversational=True, torch_threads=1, print_logs=False,
                       output_dir=str(out), rewards=reward_cfg(target, **reward_kw),
                       grpo={**TINY_GRPO, "max_steps": steps})


def step_logs(result) -> list[dict]:
    return [r for r in result.log_history if "reward" in r]


def call_all(funcs, **kwargs):
    """What TRL does with async reward functions: gather them on one event loop."""
    async def run():
        return await asyncio.gather(*(f(**kwargs) for f in funcs))
    return asyncio.run(run())


MATH_BATCH = {"prompts": ["q"] * 4, "completions": ["\\boxed{2}", "\\boxed{3}", "so it is \\boxed{4}", "4"],
              "completion_ids": [[0]] * 4, "solution": ["2", "2", "4", "4"]}


def test_grpo_rewards_come_from_the_server(verifier_server, tmp_path):
    before = verifier_server.metric("verifier_items_total", kind="math")
    result = run_training(tiny_cfg(verifier_server.target, tmp_path, components=("accuracy", "format")))
    graded = verifier_server.metric("verifier_items_total", kind="math") - before
    assert graded == 2 * BATCH_PER_STEP == result.reward_stats["items"]
    logs = step_logs(result)
    assert [r["step"] for r in logs] == [1, 2]
    for row in logs:
        for name in ("verifier_accuracy", "verifier_format"):
            assert 0.0 <= row[f"rewards/{name}/mean"] <= 1.0  # graded: a number, not NaN
        assert row["verifier/ungraded"] == 0 and row["verifier/rpc_s"] > 0
    header = next(csv.reader(open(result.metrics_csv)))
    assert "rewards/verifier_accuracy/mean" in header and "rewards/verifier_format/mean" in header
    assert Path(result.reward_png).stat().st_size > 1000


def test_server_not_running_gives_none_and_training_goes_on(tmp_path):
    cfg = tiny_cfg(f"127.0.0.1:{free_port()}", tmp_path, timeout_s=1.0, max_retries=2, backoff_initial_s=0.05,
                   breaker_patience=0)
    result = run_training(cfg)
    logs = step_logs(result)
    assert [r["step"] for r in logs] == [1, 2]
    for row in logs:
        value = row["rewards/verifier_accuracy/mean"]
        assert value is None or math.isnan(value)  # every reward None (logged as NaN/None), never a fake 0.0
        assert row["verifier/ungraded_frac"] == 1.0 and row["verifier/ungraded"] == BATCH_PER_STEP
    assert result.reward_stats["ungraded"] == 2 * BATCH_PER_STEP
    assert result.reward_stats["retries"] >= 2  # each step's call retried before giving up


def test_circuit_breaker_stops_training_with_a_clear_error(tmp_path):
    target = f"127.0.0.1:{free_port()}"
    cfg = tiny_cfg(target, tmp_path, steps=6, timeout_s=0.5, max_retries=1, breaker_patience=2)
    with pytest.raises(RewardServiceError, match=rf"{target}: 8/8 items ungraded.*2 batches in a row"):
        run_training(cfg)


def test_server_restarted_mid_run(server_factory, tmp_path):
    from transformers import TrainerCallback

    server = server_factory("--workers", "1", "--no-code")
    restarter: list[threading.Thread] = []

    class RestartAfterFirstStep(TrainerCallback):
        def on_step_end(self, args, state, control, **kw):
            if state.global_step == 1:
                server.stop()  # down now; back in the background while step 2 calls for rewards
                restarter.append(threading.Thread(target=server.start))
                restarter[0].start()

    cfg = tiny_cfg(server.target, tmp_path, steps=3, timeout_s=90.0, max_retries=60, backoff_initial_s=0.1,
                   backoff_max_s=1.0)
    result = run_training(cfg, [RestartAfterFirstStep()])
    restarter[0].join(60)
    assert [r["step"] for r in step_logs(result)] == [1, 2, 3]
    assert result.reward_stats["ungraded"] == 0 and result.reward_stats["retries"] >= 1
    # the restarted process (fresh counters) graded the batches of steps 2 and 3
    assert server.metric("verifier_items_total", kind="math") == 2 * BATCH_PER_STEP


# serial: its server must answer inside a deadline window another worker's load stretches
@pytest.mark.serial
def test_server_slower_than_the_deadline(server_factory):
    server = server_factory("--workers", "1", "--no-code")
    group = VerifierRewards(reward_cfg(server.target, timeout_s=1.0, max_retries=1, breaker_patience=0))
    funcs = group.reward_funcs()
    os.kill(server.proc.pid, signal.SIGSTOP)  # frozen: accepts connections, answers nothing
    try:
        assert call_all(funcs, **MATH_BATCH) == [[None] * 4, [None] * 4]
        assert group.stats.ungraded == 4
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)
    acc, fmt = call_all(funcs, **MATH_BATCH)
    assert acc == [1.0, 0.0, 1.0, 0.0] and fmt == [1.0, 1.0, 1.0, 0.0]


def test_infra_error_items_are_none_and_math_still_graded(verifier_server):
    info = {"language": "python", "test_cases": [{"input": "1\n", "output": "1\n"}]}
    funcs = VerifierRewards(RewardConfig(target=verifier_server.target, breaker_patience=0,
                                         components=("accuracy", "format", "pass_rate", "compiles"))).reward_funcs()
    extra, metrics = {}, {}
    acc, fmt, rate, comp = call_all(
        funcs, prompts=["q"] * 4, completion_ids=[[0]] * 4,
        completions=["\\boxed{2}", "```python\nprint(input())\n```", "\\boxed{5}", "```python\nx\n```"],
        solution=["2", None, "4", None], verification_info=[None, info, None, info],
        log_extra=lambda c, v: extra.__setitem__(c, v), log_metric=lambda n, v: metrics.__setitem__(n, v))
    assert acc == [1.0, None, 0.0, None] and fmt == [1.0, None, 1.0, None]
    assert rate == [None] * 4 and comp == [None] * 4  # math rows: n/a; code rows: not graded (no sandbox)
    assert extra["verifier_verdict"] == ["correct", "infra_error", "incorrect", "infra_error"]
    assert extra["verifier_extracted"][0] == "2" and metrics["verifier/ungraded_frac"] == 0.5


def _grade_in_child(blob: bytes) -> list:
    funcs = pickle.loads(blob)
    return call_all(funcs, **MATH_BATCH)


def test_pickled_rewards_work_in_a_spawned_process(verifier_server):
    """AsyncGRPOTrainer pickles reward functions into a spawned process; the channel is made there."""
    funcs = VerifierRewards(RewardConfig(target=verifier_server.target)).reward_funcs()
    call_all(funcs, **MATH_BATCH)  # used here first: live clients must not travel
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        acc, fmt = pool.submit(_grade_in_child, pickle.dumps(funcs)).result(timeout=120)
    assert acc == [1.0, 0.0, 1.0, 0.0] and fmt == [1.0, 1.0, 1.0, 0.0]


def test_verifier_cli_does_not_import_torch_or_trl():
    code = ("import sys, verifier.tools.cli; verifier.tools.cli.build_parser();"
            "print(sorted(m for m in ('torch', 'trl', 'transformers') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "[]", out.stderr


def test_cli_train_tiny_starts_its_own_server(tmp_path):
    out = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "train", "--tiny", "--steps", "2",
                          "--output-dir", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "started verifier server at 127.0.0.1:" in out.stdout
    assert "verifier_accuracy=" in out.stdout and "verifier_format=" in out.stdout
    assert "16 items in 2 batches, 0 ungraded" in out.stdout
    assert (tmp_path / "reward_curve.png").exists() and (tmp_path / "metrics.csv").exists()


def test_train_on_gpu(verifier_server, tmp_path):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU: runs the training entry point on the device with bf16")
    result = run_training(tiny_cfg(verifier_server.target, tmp_path))
    assert [r["step"] for r in step_logs(result)] == [1, 2] and result.reward_stats["ungraded"] == 0


def test_lora_run_trains_adapters(verifier_server, tmp_path):
    cfg = tiny_cfg(verifier_server.target, tmp_path, steps=1)
    cfg.lora = {"r": 4, "lora_alpha": 8, "target_modules": ["q_proj", "v_proj"]}
    result = run_training(cfg)
    assert type(result.model).__name__.startswith("Peft")
    assert [r["step"] for r in step_logs(result)] == [1] and result.reward_stats["ungraded"] == 0


def test_token_and_tls_from_env_never_saved(server_factory, tmp_path, monkeypatch):
    """A run against a server that wants a token and TLS: the token comes from VERIFIER_TOKEN, the CA from
    the client config, and nothing the run writes (config dump, TRL's checkpoint and training args) holds it."""
    secret = "tok-5f3a9c1e-never-on-disk"
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    server = server_factory("--workers", "1", "--no-code", "--token", secret, "--tls-cert", str(cert),
                            "--tls-key", str(key))
    monkeypatch.setenv("VERIFIER_TOKEN", secret)
    out = tmp_path / "run"
    cfg = tiny_cfg(server.target, out, steps=1, root_cert=str(cert))
    cfg.grpo.update(save_strategy="steps", save_steps=1)
    result = run_training(cfg)
    assert result.reward_stats["ungraded"] == 0 and result.reward_stats["items"] == BATCH_PER_STEP  # authorised
    saved = [p for p in out.rglob("*") if p.is_file()]
    assert any(p.name == "training_args.bin" for p in saved) and (out / "train_config.json").is_file()
    assert [str(p) for p in saved if secret.encode() in p.read_bytes()] == []
    # the same run without the token is refused by the server: every item ungraded
    monkeypatch.delenv("VERIFIER_TOKEN")
    cfg = tiny_cfg(server.target, tmp_path / "anon", steps=1, root_cert=str(cert), timeout_s=5.0, max_retries=1,
                   breaker_patience=0)
    assert run_training(cfg).reward_stats["ungraded"] == BATCH_PER_STEP
