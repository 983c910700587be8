"""slime: a custom reward function, per sample or for a whole group.

    --custom-rm-path verifier.adapters.slime.reward            # one sample per call
    --custom-rm-path verifier.adapters.slime.reward --group-rm # the group in one call

slime calls ``reward(args, sample)`` (or ``reward(args, samples)`` with ``--group-rm``); either way
the samples go to the service in one ``POST /get_reward`` (settings: see
verifier.adapters._http). ``sample.response`` is graded against ``sample.label`` (a gold answer,
or a task / dataset row as JSON, README "HTTP/JSON"); the prompt is not sent, so it is never
graded. ``--rm-type remote_rm --rm-url http://host:8080/slime/remote_rm`` works without this
module, one HTTP call per sample.

Ungraded items (no label, infra_error, error, invalid_gold) get reward 0.0, and
``sample.metadata["verifier_ungraded"]`` is set to True so they can be counted or filtered. If the
service cannot be reached within VERIFIER_TIMEOUT_S the call raises.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from verifier.adapters._http import post_json


async def reward(args: Any, samples: Any, **kwargs: Any) -> float | list[float]:
    """The reward of one sample, or the list of rewards of a group (in order)."""
    group = isinstance(samples, Sequence)
    batch = list(samples) if group else [samples]
    body = {"query": [s.response for s in batch], "labels": [s.label for s in batch]}
    answer = await asyncio.to_thread(post_json, "/get_reward", body)
    for sample, ungraded in zip(batch, answer["extra_logs"]["verifier_ungraded"]):
        if isinstance(getattr(sample, "metadata", None), dict):
            sample.metadata["verifier_ungraded"] = bool(ungraded)
    return answer["rewards"] if group else answer["rewards"][0]
