"""slime reward function backed by the verifier service.

    --custom-rm-path trainer.slime.reward_func --group-rm

slime awaits `reward_func(args, samples, **kwargs)`: with `--group-rm` `samples` is a list (one
RPC for the group, one float per sample in order); without it, one Sample (one float). Each
sample's `response` is graded against its `label` (a gold answer, a JSON task or a JSON dataset
row) with its `metadata` dict read as extra columns (`choices`, `profile`, `verification_info`).
The address and token come from VERIFIER_* variables (trainer/remote.py). Ungraded items get
VERIFIER_UNGRADED_REWARD (0.0 by default: slime turns rewards into a tensor, None would fail
there) and are counted in a warning per call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from trainer.remote import env_config, floats, grade, label_task, reward_of


async def reward_func(args: Any, samples: Any, **kwargs: Any) -> list[float] | float:
    group = isinstance(samples, Sequence) and not isinstance(samples, (str, bytes))
    batch = list(samples) if group else [samples]
    cfg = env_config()
    tasks = []
    for i, s in enumerate(batch):
        metadata = getattr(s, "metadata", None)
        tasks.append(label_task(str(i), str(getattr(s, "response", "") or ""), getattr(s, "label", None),
                                metadata if isinstance(metadata, Mapping) else None, cfg))
    results = await asyncio.to_thread(grade, tasks, cfg)  # the blocking client stays off slime's loop
    rewards, _ = floats([reward_of(r, t) for r, t in zip(results, tasks)], "slime reward_func")
    return rewards if group else rewards[0]
