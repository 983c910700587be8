"""`verifier train --config CONFIG.yaml | --tiny`. Imports nothing heavy: torch and trl load only
when the train subcommand actually runs."""

from __future__ import annotations

import argparse
from typing import Any


def add_subcommands(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Register `train` on the `verifier` CLI (called by verifier/tools/cli.py)."""
    p = subparsers.add_parser("train", help="GRPO training with the verifier's rewards (TRL)")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--config", help="YAML file of TrainConfig fields (see trainer/train.py)")
    what.add_argument("--tiny", action="store_true",
                      help="offline demo: tiny model, tokenizer and arithmetic data built here; a few CPU steps")
    p.add_argument("--server", help="verifier HOST:PORT; default: the config's rewards.target, or (--tiny) a "
                                    "server started for this run")
    p.add_argument("--steps", type=int, help="override max_steps")
    p.add_argument("--output-dir", help="override output_dir")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    import dataclasses
    import importlib.util

    from verifier.config import ConfigError

    missing = [m for m in ("torch", "transformers", "trl") if importlib.util.find_spec(m) is None]
    if missing:  # before a local server is started for the run (README "Install")
        raise ConfigError(f"verifier train needs {', '.join(missing)}: pip install 'grpo-verifier[train]'")
    from trainer.train import load_config, run_training, tiny_config

    cfg = tiny_config(target=args.server or "") if args.tiny else load_config(args.config)
    if args.server:
        cfg.rewards = dataclasses.replace(cfg.rewards, target=args.server)
    if args.steps is not None:
        cfg.grpo = {**cfg.grpo, "max_steps": args.steps}
    if args.output_dir:
        cfg.output_dir = args.output_dir
    result = run_training(cfg)
    print(_summary(result))
    return 0


def _summary(result: Any) -> str:  # trainer.train.TrainResult, imported only when training runs
    rows = [r for r in result.log_history if "reward" in r]
    lines = [f"{'step':>5} {'reward':>7}  components"]
    for r in rows:
        parts = " ".join(f"{k.split('/')[1]}={v:.3f}" for k, v in r.items()
                         if k.startswith("rewards/") and k.endswith("/mean"))
        lines.append(f"{r.get('step', '?'):>5} {r['reward']:7.3f}  {parts}")
    s = result.reward_stats
    lines.append(f"verifier: {s['items']} items in {s['batches']} batches, {s['ungraded']} ungraded, "
                 f"{s['retries']} retries, {s['wait_s']:.2f}s waiting"
                 + (f" ({result.reward_wait_share:.0%} of step time)" if result.reward_wait_share else ""))
    lines.append(f"metrics: {result.metrics_csv}" + (f"  curve: {result.reward_png}" if result.reward_png else ""))
    return "\n".join(lines)
