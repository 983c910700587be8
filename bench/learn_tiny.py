"""A run that learns: a tiny model on a+b, rewarded only by the verifier service, on CPU.

1. Build a tokenizer, a tiny Qwen2 model and the a+b task here (no downloads).
2. SFT warm-up in short chunks, until the model writes \\boxed{N} and is right a little of the time
   (sampled accuracy, graded by the service, reaches --sft-stop; the model stays weak).
3. GRPO (TRL) with the service's math accuracy reward (and format as a second, logged component),
   until --max-steps or --budget-s.
4. Print the mean accuracy reward at the start and the end, and write the reward curve PNG.

    .venv/bin/python bench/learn_tiny.py [--server HOST:PORT] [--out runs/learn_tiny]

Target (issue 4): accuracy from <= 0.3 to >= 0.6 within 10 minutes on a 2-core CPU.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trainer.config import RewardConfig  # noqa: E402
from verifier.local_server import LocalServer  # noqa: E402
from trainer.train import TrainConfig, run_training  # noqa: E402


def sampled_accuracy(model, tok, client, max_operand: int, samples: int = 4) -> float:
    """Mean verifier accuracy of sampled answers over every problem (temperature 1, like GRPO)."""
    import torch

    from trainer import tiny

    problems = tiny.arithmetic_problems(max_operand) * samples
    enc = tok([tiny.prompt_text(a, b) for a, b in problems], return_tensors="pt", padding=True,
              add_special_tokens=False)
    with torch.no_grad():
        out = model.generate(**enc, do_sample=True, temperature=1.0, max_new_tokens=8)
    texts = tok.batch_decode(out[:, enc["input_ids"].shape[1]:], skip_special_tokens=True)
    tasks = [{"id": str(i), "kind": "math", "completion": t, "gold": str(a + b), "profile": "strict"}
             for i, (t, (a, b)) in enumerate(zip(texts, problems))]
    results = client.grade(tasks)
    return sum(r["score"] for r in results) / len(results)


def warm_up(model, tok, client, args) -> float:
    """SFT in chunks until sampled accuracy reaches args.sft_stop; returns that accuracy."""
    from trainer import tiny

    pairs = tiny.noisy_sft_pairs(args.max_operand, n=4000, p_correct=1.0, seed=args.seed)
    acc = sampled_accuracy(model, tok, client, args.max_operand)
    for chunk in range(args.sft_max_chunks):
        if acc >= args.sft_stop:
            break
        tiny.sft_warmup(model, tok, pairs, steps=args.sft_chunk, batch_size=32, seed=args.seed + chunk)
        acc = sampled_accuracy(model, tok, client, args.max_operand)
        print(f"sft chunk {chunk + 1}: sampled accuracy {acc:.3f}", flush=True)
    return acc


def stop_after(budget_s: float):
    """A TrainerCallback that ends training once the wall-clock budget is spent."""
    from transformers import TrainerCallback

    class Budget(TrainerCallback):
        def on_train_begin(self, args, state, control, **kw):
            self.t0 = time.monotonic()

        def on_step_end(self, args, state, control, **kw):
            if time.monotonic() - self.t0 > budget_s:
                control.should_training_stop = True

    return Budget()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--server", help="verifier HOST:PORT (default: start one)")
    ap.add_argument("--out", default="runs/learn_tiny")
    ap.add_argument("--max-operand", type=int, default=5)
    ap.add_argument("--sft-stop", type=float, default=0.15, help="stop SFT at this sampled accuracy")
    ap.add_argument("--sft-chunk", type=int, default=10)
    ap.add_argument("--sft-max-chunks", type=int, default=40)
    ap.add_argument("--max-steps", type=int, default=1500)
    ap.add_argument("--budget-s", type=float, default=450.0, help="GRPO wall-clock budget")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--beta", type=float, default=0.02, help="KL to the warmed-up model: keeps the format")
    ap.add_argument("--format-weight", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    import torch

    from trainer import tiny
    from verifier.client import VerifierClient

    torch.set_num_threads(1)  # fastest for a 100k-parameter model on a busy 2-core machine
    torch.manual_seed(args.seed)
    t0 = time.monotonic()
    with contextlib.ExitStack() as stack:
        target = args.server or stack.enter_context(LocalServer("--workers", "2", "--no-code")).target
        client = stack.enter_context(VerifierClient(target))
        tok = tiny.build_tokenizer(args.max_operand)
        model = tiny.build_model(tok, seed=args.seed)
        sft_acc = warm_up(model, tok, client, args)
        sft_s = time.monotonic() - t0
        cfg = TrainConfig(
            model="tiny", dataset="tiny", tiny_max_operand=args.max_operand, seed=args.seed, output_dir=args.out,
            rewards=RewardConfig(target=target, components=("accuracy", "format")), reward_weights=[1.0, args.format_weight],
            print_logs=False,
            grpo={"max_steps": args.max_steps, "per_device_train_batch_size": 32, "num_generations": 8,
                  "max_completion_length": 8, "learning_rate": args.lr, "logging_steps": 10, "beta": args.beta,
                  "temperature": 1.0, "save_strategy": "no", "gradient_checkpointing": False,
                  "lr_scheduler_type": "constant"})
        result = run_training(cfg, [stop_after(args.budget_s)], model=model, tokenizer=tok)
        final_acc = sampled_accuracy(result.model.eval(), tok, client, args.max_operand)
    total_s = time.monotonic() - t0

    curve = [(r["step"], r["rewards/verifier_accuracy/mean"]) for r in result.log_history
             if "rewards/verifier_accuracy/mean" in r]
    start, end = curve[0][1], sum(v for _, v in curve[-3:]) / len(curve[-3:])
    print(f"sft warm-up: {sft_s:.1f}s, sampled accuracy {sft_acc:.3f}")
    for step, value in curve:
        print(f"  step {step:4d}  accuracy reward {value:.3f}")
    print(f"GRPO accuracy reward: start {start:.3f} -> end {end:.3f} (mean of last 3 logs) over {curve[-1][0]} steps")
    print(f"sampled accuracy after GRPO (all problems x4): {final_acc:.3f}")
    s = result.reward_stats
    print(f"verifier: {s['items']} items graded in {s['batches']} batches, {s['ungraded']} ungraded, "
          f"{s['wait_s']:.1f}s waiting ({(result.reward_wait_share or 0):.0%} of step time)")
    print(f"total wall time {total_s:.0f}s; curve: {result.reward_png}; metrics: {result.metrics_csv}")
    ok = start <= 0.3 and end >= 0.6 and total_s <= 600
    print("TARGET MET" if ok else "TARGET NOT MET", "(start <= 0.3, end >= 0.6, <= 600 s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
