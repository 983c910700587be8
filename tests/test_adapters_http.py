"""The OpenRLHF and slime adapters against a real server's HTTP/JSON port, loaded as the frameworks load them."""

from __future__ import annotations

import asyncio
import importlib.util
import json
from types import SimpleNamespace

import pytest

import verifier.adapters.openrlhf as openrlhf_adapter
from verifier.adapters import slime as slime_adapter

PROMPT = "Example: 1+1 = \\boxed{2}.\nNow: what is 3-1?\n"


def _load_by_path():
    """As OpenRLHF does for a --remote_rm_url ending in .py."""
    spec = importlib.util.spec_from_file_location("reward_func", openrlhf_adapter.__file__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.reward_func


def test_openrlhf_reward_func_file(verifier_server, monkeypatch):
    monkeypatch.setenv("VERIFIER_HTTP_URL", verifier_server.http_url)
    reward_func = _load_by_path()
    responses = ["So \\boxed{2}.", "So \\boxed{3}.", "No idea.", "So \\boxed{2}."]
    labels = ["2", json.dumps({"solution": "2"}), "2", None]
    out = reward_func([PROMPT + r for r in responses], [PROMPT] * 4, labels)
    torch = pytest.importorskip("torch")
    assert isinstance(out["rewards"], torch.Tensor)
    assert out["rewards"].tolist() == [1.0, 0.0, 0.0, 0.0]  # no_answer: the prompt's \boxed{2} never counts
    assert out["scores"].tolist() == out["rewards"].tolist()
    assert out["extra_logs"]["verifier_ungraded"].tolist() == [0.0, 0.0, 0.0, 1.0]


def test_openrlhf_adapter_sends_the_token_and_gives_up_on_a_bad_one(server_factory, monkeypatch):
    server = server_factory("--workers", "1", "--no-code", "--token", "s3cret")
    monkeypatch.setenv("VERIFIER_HTTP_URL", server.http_url)
    monkeypatch.setenv("VERIFIER_TOKEN", "s3cret")
    assert openrlhf_adapter.reward_func(["\\boxed{1}"], [""], ["1"])["rewards"].tolist() == [1.0]
    monkeypatch.setenv("VERIFIER_TOKEN", "wrong")
    with pytest.raises(RuntimeError, match="HTTP 401"):  # not retried, not zeros
        openrlhf_adapter.reward_func(["\\boxed{1}"], [""], ["1"])


def test_unreachable_service_raises_within_the_budget(monkeypatch):
    monkeypatch.setenv("VERIFIER_HTTP_URL", "http://127.0.0.1:1")
    monkeypatch.setenv("VERIFIER_TIMEOUT_S", "1")
    with pytest.raises(RuntimeError, match="gave up"):
        openrlhf_adapter.reward_func(["\\boxed{1}"], [""], ["1"])


def _sample(response: str, label):
    return SimpleNamespace(prompt=PROMPT, response=response, label=label, metadata={})


def test_slime_reward_per_sample_and_group(verifier_server, monkeypatch):
    monkeypatch.setenv("VERIFIER_HTTP_URL", verifier_server.http_url)
    args = SimpleNamespace()
    assert asyncio.run(slime_adapter.reward(args, _sample("So \\boxed{2}.", "2"))) == 1.0
    assert asyncio.run(slime_adapter.reward(args, _sample("So \\boxed{-2}.", "2"))) == 0.0
    group = [_sample("\\boxed{2}", "2"), _sample("\\boxed{4}", "2"), _sample("\\boxed{2}", ""),
             _sample("\\boxed{2}", json.dumps({"kind": "math", "gold": "2"}))]
    assert asyncio.run(slime_adapter.reward(args, group)) == [1.0, 0.0, 0.0, 1.0]
    assert [s.metadata["verifier_ungraded"] for s in group] == [False, False, True, False]
