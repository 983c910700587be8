"""Plain synchronous TRL reward functions, for TRL releases that predate async reward functions
and for TRL's command line, which imports reward functions by dotted path:

    VERIFIER_TARGET=host:50051 trl grpo ... --reward_funcs trainer.trl_sync.accuracy trainer.trl_sync.format

Each is a module-level `def` (picklable by reference, `__name__` is the component) over the same
`VerifierRewards` group as `verifier_rewards(...)` (trainer/rewards.py): the functions of one step
share one RPC, rows become tasks by the same rules, TRL's `log_extra`/`log_metric` get the same
columns, and the circuit breaker stops training after repeated failed batches. Settings come from
VERIFIER_* variables (trainer/remote.py). Ungraded items return None, as the async functions do:
TRL turns None into NaN and skips it in the weighted sum and the logged means.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Sequence
from typing import Any

from trainer.config import COMPONENTS
from trainer.remote import async_client, env_config
from trainer.rewards import VerifierRewards

_STATE: dict[str, Any] = {}
_LOCK = threading.Lock()


def _group_and_loop() -> tuple[VerifierRewards, asyncio.AbstractEventLoop]:
    """This process's reward group and the event-loop thread its gRPC channel lives on."""
    with _LOCK:
        if _STATE.get("pid") != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="verifier-trl-sync", daemon=True).start()
            cfg = env_config(components=COMPONENTS, gold_columns=("solution", "answer", "ground_truth"))
            group = VerifierRewards(cfg, client_factory=async_client)  # async_client adds VERIFIER_CA_CERT's TLS
            _STATE.update(pid=os.getpid(), loop=loop, group=group)
        return _STATE["group"], _STATE["loop"]


def _rewards(component: str, completions: Sequence[Any] | None, kwargs: dict[str, Any]) -> list[float | None]:
    if not completions:
        return []
    group, loop = _group_and_loop()
    future = asyncio.run_coroutine_threadsafe(group.rewards(component, completions, kwargs), loop)
    return future.result()


def accuracy(prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None,
             **kwargs: Any) -> list[float | None]:
    """The task's score in [0, 1] (math 1/0, code per RewardConfig.code_scoring); None if ungraded."""
    return _rewards("accuracy", completions, {**kwargs, "prompts": prompts})


def format(prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None,
           **kwargs: Any) -> list[float | None]:
    """1.0 when an answer or code block was found where the profile looks for it."""
    return _rewards("format", completions, {**kwargs, "prompts": prompts})


def pass_rate(prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None,
              **kwargs: Any) -> list[float | None]:
    """Code rows: fraction of tests passed; None for math rows."""
    return _rewards("pass_rate", completions, kwargs)


def compiles(prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None,
             **kwargs: Any) -> list[float | None]:
    """Code rows: 1.0 unless compile_error/no_code; None for math rows."""
    return _rewards("compiles", completions, kwargs)
