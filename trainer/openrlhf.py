"""OpenRLHF reward function backed by the verifier service: pass this file to `--remote_rm_url`.

    --remote_rm_url "$(python -c 'import trainer.openrlhf as m; print(m.__file__)')" --label_key answer

OpenRLHF loads `reward_func` from a `.py` path and calls `reward_func(queries, prompts, labels)`
(newer releases add keyword arguments, accepted and ignored). `queries` are prompt + response as
templated; the prompt is cut off before grading, so an answer inside the prompt never scores (a
query that does not contain its prompt is ungraded).
Labels are gold answers, JSON tasks, or JSON dataset rows (trainer/remote.py). One RPC per call.

Returns OpenRLHF's dict: `rewards` (for the advantage), `scores` (for dynamic filtering) and
`extra_logs` (`verifier_ungraded` per sample, and `verifier_unreadable`: a label no format reads,
trainer/tasks.py), as torch tensors when torch is installed. Ungraded
items get VERIFIER_UNGRADED_REWARD (0.0 by default) in both and are counted in `extra_logs`.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Sequence
from typing import Any

if importlib.util.find_spec("trainer") is None:  # loaded by path from a checkout that is not installed
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from trainer.remote import env_config, floats, grade, label_task, reward_of


def response_of(query: str, prompt: str) -> str | None:
    """The response part of a templated query: what follows the prompt (its last occurrence, when
    the decode added a prefix such as a BOS). None when the prompt is not in the query: grading the
    whole query could score an answer the prompt itself contains, so such an item is ungraded."""
    if not prompt:
        return query
    if query.startswith(prompt):
        return query[len(prompt):]
    at = query.rfind(prompt)
    return query[at + len(prompt):] if at >= 0 else None


def reward_func(queries: Sequence[str], prompts: Sequence[str], labels: Sequence[Any] | None = None,
                **kwargs: Any) -> dict[str, Any]:
    cfg = env_config()
    labels = list(labels) if labels is not None else [None] * len(queries)
    responses = [response_of(q, p) for q, p in zip(queries, prompts, strict=True)]
    tasks = [label_task(str(i), r, label, None, cfg) if r is not None else None
             for i, (r, label) in enumerate(zip(responses, labels, strict=True))]
    results = grade(tasks, cfg)
    rewards, _ = floats([reward_of(r, t) for r, t in zip(results, tasks)], "openrlhf reward_func")
    ungraded = [float(reward_of(r, t) is None) for r, t in zip(results, tasks)]
    unreadable = [float(r is not None and t is None) for r, t in zip(responses, tasks)]
    return {"rewards": _tensor(rewards), "scores": _tensor(rewards),
            "extra_logs": {"verifier_ungraded": _tensor(ungraded), "verifier_unreadable": _tensor(unreadable)}}


def _tensor(values: list[float]) -> Any:
    try:
        import torch
    except ImportError:  # a client-only environment: plain lists
        return values
    return torch.tensor(values, dtype=torch.float32)
