"""OpenRLHF: a ``reward_func`` file for ``--remote_rm_url`` (or ``--reward.remote_url``).

    --remote_rm_url "$(python -c 'import verifier.adapters.openrlhf as m; print(m.__file__)')"

OpenRLHF loads this file by path and calls ``reward_func(queries, prompts, labels)`` with the
decoded prompt + response and the dataset's ``--label_key`` column. Each call is one
``POST /get_reward`` (settings: see verifier.adapters._http; a token is sent as a header, so it
never has to sit in the URL). Pointing ``--remote_rm_url`` at ``http://host:8080/get_reward``
directly works too, without this file.

Labels: a gold answer, or a task / dataset row as JSON (README "HTTP/JSON"). Ungraded items (no
label, prompt not in the query, infra_error, error, invalid_gold) get reward 0.0 and
``extra_logs["verifier_ungraded"]`` = 1.0, which OpenRLHF logs as the ungraded fraction. If the
service cannot be reached within VERIFIER_TIMEOUT_S the call raises: a run does not train on
zeros that no grader produced.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Sequence
from typing import Any

if importlib.util.find_spec("verifier") is None:  # loaded by path from a checkout that is not installed
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from verifier.adapters._http import post_json


def reward_func(queries: Sequence[str], prompts: Sequence[str], labels: Sequence[Any], **kwargs: Any) -> dict:
    """{"rewards", "scores", "extra_logs"}; torch tensors when torch is importable (OpenRLHF has it)."""
    body = post_json("/get_reward", {"query": list(queries), "prompts": list(prompts), "labels": list(labels)})
    out = {"rewards": body["rewards"], "scores": body["scores"], "extra_logs": body["extra_logs"]}
    if importlib.util.find_spec("torch") is None:
        return out
    import torch

    return {"rewards": torch.tensor(out["rewards"], dtype=torch.float),
            "scores": torch.tensor(out["scores"], dtype=torch.float),
            "extra_logs": {k: torch.tensor(v, dtype=torch.float) for k, v in out["extra_logs"].items()}}
