"""slime's custom-generate hook for agentic rollouts in a repository (docs/sessions.md "Trainers on an
environment"):

    --custom-generate-function-path trainer.slime_agent.generate
    --custom-rm-path trainer.slime_agent.reward_func      # only with --group-rm (see below)

slime awaits `generate(args, sample, sampling_params)` for each sample (slime/rollout/sglang_rollout.py
generate_and_rm) and trains on what it returns: `tokens` (prompt + response), `response_length`,
`response`, `loss_mask` (1 for the policy's tokens, 0 for the tools' output), `rollout_log_probs`,
`status`. This hook drives one session per sample on the environment of the sample's task
(trainer/env_sessions.py row_task, read from `sample.metadata`): it generates with slime's router
(`/generate`, token ids in, `output_token_logprobs` out), runs each `<tool_call>{"name", "arguments"}
</tool_call>` the policy writes (`shell`, `read_file`, `write_file`, `list_dir`; `submit` ends the
rollout) and appends the tool's output as a `tool` message rendered by the tokenizer's chat template,
until the policy stops calling tools, submits, or runs out of turns (`VERIFIER_MAX_TURNS`, default
16) or tokens. Then the tree is graded with the task's hidden tests (`session.grade`), the session
closed, and `sample.reward` set: slime's generate_and_rm then skips its reward model. With
`--group-rm` slime calls the reward model anyway: `reward_func` hands back the rewards set here.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

from trainer.env_sessions import MAX_RESPONSE_CHARS, SESSION_OPTIONS, call_tool, grade_session, row_task
from trainer.remote import ungraded_reward
from trainer.sessions import session_client

TOOL_CALL = re.compile(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", re.DOTALL)
RESULT_KEY = "verifier_session"  # sample.metadata: the grade's verdict and the graded patch


def parse_tool_call(text: str) -> tuple[str, dict[str, Any]] | None:
    """The first `<tool_call>{"name": ..., "arguments": {...}}</tool_call>` of a turn (the Hermes format
    Qwen's templates use); None when the turn calls no tool. A malformed call is a call to `""`, so
    the policy reads that it was not understood."""
    match = TOOL_CALL.search(text)
    if match is None:
        return None
    try:
        call = json.loads(match.group(1))
    except ValueError:
        return "", {}
    if not isinstance(call, dict) or not isinstance(call.get("name"), str):
        return "", {}
    arguments = call.get("arguments")
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            arguments = None
    return call["name"], arguments if isinstance(arguments, dict) else {}


def observation_ids(tokenizer: Any, text: str) -> list[int]:
    """A tool message's tokens as the chat template renders them after the policy's turn, with the
    next assistant turn opened (verl's way: the template's render of no message is cut off the front)."""
    empty = tokenizer.apply_chat_template([{}], add_generation_prompt=False, tokenize=True)
    ids = tokenizer.apply_chat_template([{"role": "tool", "content": text}], add_generation_prompt=True, tokenize=True)
    return list(ids[len(empty):])


class _Rollout:
    """One sample's turns: the response's tokens, their loss mask and log-probs, its text."""

    def __init__(self, prompt_ids: list[int]) -> None:
        self.prompt_ids = prompt_ids
        self.ids: list[int] = []
        self.mask: list[int] = []
        self.log_probs: list[float] = []
        self.text = ""

    def add(self, ids: Sequence[int], text: str, trainable: bool, log_probs: Sequence[float] | None = None) -> None:
        self.ids += list(ids)
        self.mask += [int(trainable)] * len(ids)
        self.log_probs += list(log_probs) if log_probs is not None else [0.0] * len(ids)
        self.text += text


async def _turn(args: Any, post: Any, rollout: _Rollout, sampling_params: dict[str, Any],
                budget: int) -> tuple[str, str]:
    """One generation by slime's router: (its text, its finish reason: `length` when cut)."""
    url = f"http://{args.sglang_router_ip}:{args.sglang_router_port}/generate"
    output = await post(url, {"input_ids": rollout.prompt_ids + rollout.ids, "return_logprob": True,
                              "sampling_params": {**sampling_params, "max_new_tokens": budget}})
    pairs = output["meta_info"].get("output_token_logprobs") or []
    rollout.add([p[1] for p in pairs], output["text"], True, [p[0] for p in pairs])
    reason = output["meta_info"].get("finish_reason")
    return output["text"], str(reason.get("type", "") if isinstance(reason, Mapping) else reason or "")


async def generate(args: Any, sample: Any, sampling_params: dict[str, Any], evaluation: bool = False) -> Any:
    """slime's custom generate (module docstring): one repository session per sample, graded at the end."""
    from slime.rollout.sglang_rollout import GenerateState
    from slime.utils.http_utils import post
    from slime.utils.types import Sample

    tokenizer = GenerateState(args).tokenizer
    environment, task = row_task(sample.metadata or {})
    max_turns = int(os.environ.get("VERIFIER_MAX_TURNS", "16"))
    max_tokens = int(sampling_params["max_new_tokens"])
    rollout = _Rollout(list(tokenizer.encode(sample.prompt, add_special_tokens=False)))
    client = session_client({})
    options = _session_options(os.environ)
    session = None
    status = Sample.Status.COMPLETED
    try:
        for _ in range(max_turns):
            if len(rollout.ids) >= max_tokens:
                status = Sample.Status.TRUNCATED
                break
            text, reason = await _turn(args, post, rollout, sampling_params, max_tokens - len(rollout.ids))
            if reason == "length":
                status = Sample.Status.TRUNCATED
                break
            call = parse_tool_call(text)
            if call is None or call[0] == "submit":
                break
            if session is None:
                session = await client.session(environment=environment, **options)
            ids = observation_ids(tokenizer, await call_tool(session, call[0], call[1], MAX_RESPONSE_CHARS))
            ids = ids[:max_tokens - len(rollout.ids)]  # the response stays within max_new_tokens
            rollout.add(ids, tokenizer.decode(ids), False)
        reward, result = await grade_session(session, task)
    finally:
        if session is not None:
            await session.close()
        await client.close()
    sample.tokens = rollout.prompt_ids + rollout.ids
    sample.response_length = len(rollout.ids)
    sample.response = rollout.text
    sample.loss_mask = rollout.mask
    sample.rollout_log_probs = rollout.log_probs
    sample.status = status
    verdict = result["verdict"] if result else "ungraded" if reward is None else "wrong_answer"
    sample.metadata[RESULT_KEY] = {"verdict": verdict,
                                   "patch": result["patch"] if result else "", "ungraded": reward is None}
    sample.reward = ungraded_reward() if reward is None else reward
    return sample


def _session_options(environ: Mapping[str, str]) -> dict[str, Any]:
    """VERIFIER_SESSION_TIME_LIMIT_S, _MEMORY_LIMIT_MB, _IDLE_TTL_S: the sessions' limits (slime passes no
    config of ours)."""
    options: dict[str, Any] = {}
    for key in SESSION_OPTIONS:
        raw = environ.get(f"VERIFIER_SESSION_{key.upper()}")
        if raw:
            options[key] = int(raw) if key == "memory_limit_mb" else float(raw)
    return options


async def reward_func(args: Any, samples: Any, **kwargs: Any) -> list[float] | float:
    """slime's reward model for `--group-rm` with this hook: the rewards `generate` set (slime calls the
    reward model on the whole group even when they are set)."""
    group = isinstance(samples, Sequence) and not isinstance(samples, (str, bytes))
    rewards = [float(s.reward) for s in (samples if group else [samples])]
    return rewards if group else rewards[0]
