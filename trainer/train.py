"""GRPO entry point: TRL's GRPOTrainer with the verifier's rewards, from one YAML config.

`verifier train --config run.yaml` for real runs (HF model, dataset, LoRA, vLLM on GPU);
`verifier train --tiny` for the whole loop offline on CPU in well under a minute. torch and trl
are imported inside the functions so that importing this module stays cheap.
"""

from __future__ import annotations

import asyncio
import csv
import dataclasses
import importlib
import json
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trainer.config import RewardConfig
from trainer.rewards import VerifierRewards
from trainer.tiny import ModelSize

log = logging.getLogger(__name__)

TINY_GRPO = {  # a few quick steps on CPU: 2 prompts x 4 completions of <= 8 tokens per step
    "max_steps": 4, "per_device_train_batch_size": 8, "num_generations": 4, "max_completion_length": 8,
    "learning_rate": 1e-3, "logging_steps": 1, "save_strategy": "no", "report_to": "none",
    "gradient_checkpointing": False, "temperature": 1.0, "beta": 0.0,
}


@dataclass
class TrainConfig:
    """One GRPO run. Loaded from YAML; unknown keys are an error naming the key."""

    model: str = field(default="tiny", metadata={
        "help": "HF model id or local path, or 'tiny': a Qwen2-style model built from `model_size`, no download."})
    model_size: dict[str, Any] = field(default_factory=dict, metadata={
        "help": "ModelSize fields for model='tiny' (e.g. hidden_size 896, 24 layers ~ Qwen2-0.5B's shape)."})
    tokenizer: str | None = field(default=None, metadata={
        "help": "Tokenizer id/path (default: the model's); model='tiny' trains one on the spot."})
    dataset: str = field(default="tiny", metadata={
        "help": "'tiny' (built-in a+b arithmetic), a .jsonl/.json file, or a `datasets` name."})
    dataset_config: str | None = field(default=None, metadata={"help": "`datasets` config name."})
    dataset_split: str = field(default="train", metadata={"help": "Split to train on."})
    max_samples: int | None = field(default=None, metadata={"help": "Use at most this many rows."})
    prompt_column: str = field(default="prompt", metadata={"help": "Column holding the prompt (renamed to 'prompt')."})
    system_prompt: str | None = field(default=None, metadata={
        "help": "When set, string prompts become conversational [system, user] message lists."})
    conversational: bool = field(default=False, metadata={"help": "dataset='tiny': chat-format prompts."})
    tiny_max_operand: int = field(default=5, metadata={"help": "dataset='tiny': operands 0..N."})
    sft_steps: int = field(default=0, metadata={
        "help": "model='tiny': SFT warm-up steps on the task before GRPO, so rewards start above zero."})
    rewards: RewardConfig = field(default_factory=RewardConfig, metadata={
        "help": "Verifier reward functions (RewardConfig fields); target '' or 'local' starts a local server."})
    local_rewards: list[str] = field(default_factory=list, metadata={
        "help": "Extra local reward functions as 'module:function', e.g. 'trl.rewards:think_format_reward'."})
    reward_weights: list[float] | None = field(default=None, metadata={
        "help": "One weight per reward: verifier components first, then local_rewards."})
    grpo: dict[str, Any] = field(default_factory=dict, metadata={
        "help": "GRPOConfig fields, passed through (use_vllm, vllm_mode, num_generations, save_steps, ...)."})
    lora: dict[str, Any] | None = field(default=None, metadata={"help": "peft LoraConfig fields; enables LoRA when set."})
    server_workers: int = field(default=2, metadata={"help": "Math workers of a server started for this run."})
    output_dir: str = field(default="runs/grpo", metadata={"help": "Checkpoints, metrics.csv, reward_curve.png."})
    plot: bool = field(default=True, metadata={"help": "Write reward_curve.png at the end."})
    seed: int = field(default=0, metadata={"help": "Seed for model init, data order and sampling."})
    print_logs: bool = field(default=True, metadata={
        "help": "Print each log dict (transformers' PrinterCallback/progress bar); False keeps the console quiet."})
    torch_threads: int = field(default=0, metadata={
        "help": "torch intra-op threads; 0 leaves torch's default (1 is fastest for tiny models on busy CPUs)."})

    def __post_init__(self) -> None:
        if isinstance(self.rewards, dict):
            self.rewards = RewardConfig(**self.rewards)


@dataclass
class TrainResult:
    """What a run produced, for scripts and tests."""

    log_history: list[dict[str, Any]]
    output_dir: str
    metrics_csv: str
    reward_png: str | None
    reward_stats: dict[str, Any]
    reward_wait_share: float | None
    model: Any = None  # the trained model (TRL's copy when it loaded one by path)


def load_config(path: str | os.PathLike[str]) -> TrainConfig:
    """A TrainConfig from YAML; unknown keys raise ValueError naming them."""
    import yaml

    data = yaml.safe_load(Path(path).read_text()) or {}
    return config_from_dict(data)


def config_from_dict(data: dict[str, Any]) -> TrainConfig:
    if not isinstance(data, dict):
        raise ValueError("config: must be a mapping")
    _check_keys("config", data, TrainConfig)
    if isinstance(data.get("rewards"), dict):
        _check_moved(data["rewards"])
        _check_keys("rewards", data["rewards"], RewardConfig)
    if isinstance(data.get("model_size"), dict):
        _check_keys("model_size", data["model_size"], ModelSize)
    return TrainConfig(**data)


def _check_moved(rewards: dict[str, Any]) -> None:
    """Keys of older configs that now live in rewards.client, or nowhere (the token): say where."""
    if "token" in rewards:
        raise ValueError("rewards.token: set VERIFIER_TOKEN or rewards.token_file instead (configs are saved with the run)")
    moved = sorted(set(rewards) & {"timeout_s", "max_retries", "backoff_initial_s", "backoff_max_s"})
    if moved:
        raise ValueError(f"rewards: {moved} moved to rewards.client (e.g. rewards.client.{moved[0]})")


def _check_keys(where: str, data: dict[str, Any], cls: type) -> None:
    unknown = sorted(set(data) - {f.name for f in dataclasses.fields(cls)})
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {unknown}")


def tiny_config(steps: int = 4, target: str = "", output_dir: str = "runs/tiny") -> TrainConfig:
    """The `--tiny` run: built-in model, tokenizer and data; a short SFT warm-up; a few GRPO steps."""
    return TrainConfig(model="tiny", dataset="tiny", sft_steps=60, torch_threads=1, output_dir=output_dir,
                       rewards=RewardConfig(target=target, components=("accuracy", "format")),
                       grpo={**TINY_GRPO, "max_steps": steps})


# ---------------------------------------------------------------------------------------- pieces

def _load_model_and_tokenizer(cfg: TrainConfig) -> tuple[Any, Any]:
    from trainer import tiny

    if cfg.model == "tiny":
        tok = tiny.build_tokenizer(cfg.tiny_max_operand)
        model = tiny.build_model(tok, ModelSize(**cfg.model_size), seed=cfg.seed)
        if cfg.sft_steps:
            pairs = tiny.noisy_sft_pairs(cfg.tiny_max_operand, n=2000, p_correct=1.0, seed=cfg.seed)
            tiny.sft_warmup(model, tok, pairs, steps=cfg.sft_steps, batch_size=32,
                            conversational=cfg.conversational, seed=cfg.seed)
        return model, tok
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(cfg.tokenizer or cfg.model)
    return AutoModelForCausalLM.from_pretrained(cfg.model, dtype="auto"), tok


def _load_dataset(cfg: TrainConfig) -> Any:
    from trainer import tiny

    if cfg.dataset == "tiny":
        ds = tiny.arithmetic_dataset(cfg.tiny_max_operand, conversational=cfg.conversational, repeat=20, seed=cfg.seed)
    elif cfg.dataset.endswith((".jsonl", ".json")):
        from datasets import load_dataset

        ds = load_dataset("json", data_files=cfg.dataset, split="train")
    else:
        from datasets import load_dataset

        ds = load_dataset(cfg.dataset, cfg.dataset_config, split=cfg.dataset_split)
    if cfg.prompt_column != "prompt":
        if "prompt" in ds.column_names:
            ds = ds.remove_columns("prompt")
        ds = ds.rename_column(cfg.prompt_column, "prompt")
    if "prompt" not in ds.column_names:
        raise ValueError(f"dataset: no prompt column {cfg.prompt_column!r} in {ds.column_names}")
    if cfg.max_samples:
        ds = ds.select(range(min(cfg.max_samples, len(ds))))
    if cfg.system_prompt:
        system = cfg.system_prompt
        ds = ds.map(lambda row: {"prompt": [{"role": "system", "content": system}, {"role": "user", "content": row["prompt"]}]
                                 if isinstance(row["prompt"], str) else row["prompt"]})
    return ds


def _local_reward(spec: str) -> Any:
    module, _, name = spec.partition(":")
    if not module or not name:
        raise ValueError(f"local_rewards: {spec!r} must be 'module:function'")
    return getattr(importlib.import_module(module), name)


def _grpo_args(cfg: TrainConfig) -> Any:
    import torch
    from trl import GRPOConfig

    on_gpu = torch.cuda.is_available()
    values: dict[str, Any] = {"output_dir": cfg.output_dir, "seed": cfg.seed, "report_to": "none",
                              "logging_steps": 1, "bf16": on_gpu}
    if not on_gpu:
        values["use_cpu"] = True
    values.update(cfg.grpo)
    if cfg.reward_weights is not None:
        values["reward_weights"] = list(cfg.reward_weights)
    return GRPOConfig(**values)


def _callbacks(group: VerifierRewards) -> list[Any]:
    from transformers import TrainerCallback

    class RewardWaitCallback(TrainerCallback):
        """Share of step time spent waiting for the verifier, logged as verifier/wait_share."""

        def __init__(self) -> None:
            self.step_s = 0.0
            self._t0 = 0.0

        def on_step_begin(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
            self._t0 = time.monotonic()

        def on_step_end(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
            self.step_s += time.monotonic() - self._t0

        def share(self) -> float | None:
            return group.stats.wait_s / self.step_s if self.step_s else None

        def on_log(self, args: Any, state: Any, control: Any, logs: dict[str, Any] | None = None, **kw: Any) -> None:
            share = self.share()
            if logs is not None and share is not None:
                logs["verifier/wait_share"] = round(share, 4)

    return [RewardWaitCallback()]


def write_metrics_csv(history: list[dict[str, Any]], path: Path) -> None:
    """Every logged key as a column, one row per log event (TRL's log_history)."""
    keys = sorted({k for row in history for k in row})
    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=keys)
        writer.writeheader()
        writer.writerows(history)


def plot_rewards(history: list[dict[str, Any]], path: Path, title: str = "GRPO reward") -> Path | None:
    """reward and every rewards/<name>/mean against the step, as a PNG (matplotlib, Agg)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = ["reward"] + sorted({k for row in history for k in row if k.startswith("rewards/") and k.endswith("/mean")})
    fig, ax = plt.subplots(figsize=(7, 4))
    drawn = False
    for key in keys:
        points = [(row["step"], row[key]) for row in history if key in row and "step" in row]
        if points:
            ax.plot(*zip(*points), label=key, marker="." if len(points) < 50 else None)
            drawn = True
    if not drawn:
        plt.close(fig)
        return None
    ax.set_xlabel("step")
    ax.set_ylabel("mean reward")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


# ---------------------------------------------------------------------------------------- run

def run_training(cfg: TrainConfig, extra_callbacks: list[Any] | None = None,
                 model: Any = None, tokenizer: Any = None) -> TrainResult:
    """Build everything from cfg (or use the given model and tokenizer), start a local server if
    asked, train, write metrics and the PNG."""
    from verifier.local_server import LocalServer

    if cfg.rewards.target in ("", "local"):
        with LocalServer("--workers", str(cfg.server_workers), "--no-code") as server:
            print(f"started verifier server at {server.target} (metrics {server.metrics_url})", flush=True)
            return _train(dataclasses.replace(cfg, rewards=dataclasses.replace(cfg.rewards, target=server.target)),
                          extra_callbacks, model, tokenizer)
    return _train(cfg, extra_callbacks, model, tokenizer)


def _train(cfg: TrainConfig, extra_callbacks: list[Any] | None, model: Any, tok: Any) -> TrainResult:
    import torch
    from trl import GRPOTrainer

    if cfg.torch_threads:
        torch.set_num_threads(cfg.torch_threads)
    torch.manual_seed(cfg.seed)
    out = Path(cfg.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    if model is None or tok is None:
        model, tok = _load_model_and_tokenizer(cfg)
    if not isinstance(model, str) and float(cfg.grpo.get("beta", 0.0)) > 0:
        # With a KL term TRL loads the reference model by path: hand it one.
        init_dir = out / "init_model"
        model.save_pretrained(init_dir)
        tok.save_pretrained(init_dir)
        model = str(init_dir)
    group = VerifierRewards(cfg.rewards)
    reward_funcs = group.reward_funcs() + [_local_reward(s) for s in cfg.local_rewards]
    peft_config = None
    if cfg.lora is not None:
        from peft import LoraConfig

        peft_config = LoraConfig(**{"task_type": "CAUSAL_LM", **cfg.lora})
    callbacks = _callbacks(group)
    trainer = GRPOTrainer(model=model, reward_funcs=reward_funcs, args=_grpo_args(cfg),
                          train_dataset=_load_dataset(cfg), processing_class=tok, peft_config=peft_config,
                          callbacks=callbacks + list(extra_callbacks or []))
    if not cfg.print_logs:
        from transformers import PrinterCallback, ProgressCallback

        trainer.remove_callback(PrinterCallback)
        trainer.remove_callback(ProgressCallback)
    try:
        trainer.train()
    finally:
        _close_clients(trainer, group)
    history = trainer.state.log_history
    csv_path = out / "metrics.csv"
    write_metrics_csv(history, csv_path)
    (out / "train_config.json").write_text(json.dumps(dataclasses.asdict(cfg), indent=2, default=str))
    png = plot_rewards(history, out / "reward_curve.png") if cfg.plot else None
    return TrainResult(history, str(out), str(csv_path), str(png) if png else None,
                       dataclasses.asdict(group.stats), callbacks[0].share(), trainer.model)


def _close_clients(trainer: Any, group: VerifierRewards) -> None:
    """Close the gRPC channel on TRL's reward loop, where it was created."""
    loop = getattr(trainer, "async_loop", None)
    if loop is not None and loop.is_running():
        try:
            asyncio.run_coroutine_threadsafe(group.aclose(), loop).result(5)
        except Exception as exc:  # closing is best effort; the process is about to move on
            log.debug("closing verifier client: %s", exc)
