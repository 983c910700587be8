"""What the framework adapters (trainer/verl.py, openrlhf.py, slime.py, trl_sync.py) share.

Frameworks load our reward functions by module path or file path and call them with no config
object of ours, so settings come from the environment (docs/training.md "Framework adapters"):

    VERIFIER_TARGET            host:port of the service (default 127.0.0.1:50051; 'h1:p1,h2:p2' spreads)
    VERIFIER_TOKEN / _FILE     bearer token, or a file holding it
    VERIFIER_CA_CERT           PEM of the CA that signed the server's certificate (turns TLS on)
    VERIFIER_TLS               1: TLS with the system's roots
    VERIFIER_TIMEOUT_S         deadline of one batch, retries included (default 60)
    VERIFIER_UNGRADED_REWARD   the float an ungraded item gets where the framework needs one (default 0.0;
                               'nan' where the framework masks NaN)

Ungraded items get a float where the framework needs one, but a service that stays down does not
train a run on zeros: after `breaker_patience` (3) batches in a row with at least half their items
ungraded, the adapter raises RewardServiceError, as the TRL functions do (trainer/rewards.py).

Only `verifier.client` is imported (lazily): adapters work on a client-only install.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from sandbox.contract import HOST_FAULTS
from trainer.config import RewardConfig
from verifier.client_config import ClientConfig
from trainer.rewards import Breaker
from trainer.tasks import checked, completion_text, component_value
from verifier.formats import rows

log = logging.getLogger(__name__)

# The adapters' VERIFIER_* variables (module docstring; trainer/verl.py adds the micro-batcher's two).
ENVIRONMENT = ("VERIFIER_TARGET", "VERIFIER_TOKEN", "VERIFIER_TOKEN_FILE", "VERIFIER_CA_CERT", "VERIFIER_TLS",
               "VERIFIER_TIMEOUT_S", "VERIFIER_UNGRADED_REWARD", "VERIFIER_LINGER_MS", "VERIFIER_MAX_BATCH")

GOLD_COLUMNS = rows.LABEL_GOLD_COLUMNS  # ground_truth first: verl and OpenRLHF hand the label separately


def env_config(environ: Mapping[str, str] | None = None, **overrides: Any) -> RewardConfig:
    """A RewardConfig from VERIFIER_* variables (see the module docstring), then overrides. The token and
    TLS settings are read when the client is made (RewardConfig.client_config), not stored here."""
    env = os.environ if environ is None else environ
    values: dict[str, Any] = {"target": env.get("VERIFIER_TARGET") or "127.0.0.1:50051", "gold_columns": GOLD_COLUMNS}
    if env.get("VERIFIER_TIMEOUT_S"):
        values["client"] = ClientConfig(timeout_s=float(env["VERIFIER_TIMEOUT_S"]), max_retries=3)
    values.update(overrides)
    return RewardConfig(**values)


def ungraded_reward(environ: Mapping[str, str] | None = None) -> float:
    """The float that stands in for an ungraded item (VERIFIER_UNGRADED_REWARD, default 0.0)."""
    raw = (os.environ if environ is None else environ).get("VERIFIER_UNGRADED_REWARD", "0")
    try:
        return float(raw)
    except ValueError:
        raise ValueError(f"VERIFIER_UNGRADED_REWARD={raw!r} is not a float (use e.g. 0, -1 or nan)") from None


def label_task(task_id: str, completion: str, label: Any, extra: Mapping[str, Any] | None,
               cfg: RewardConfig) -> dict[str, Any] | None:
    """One task from a framework's (completion, label, extra columns), or None when nothing can grade it.

    Read by the one label reader the HTTP dialects use too (verifier/formats/rows.py label_task): a
    gold answer, a whole JSON task (`kind`), verl's code ground truth (`{"inputs", "outputs",
    "fn_name"?}` or `{"assert_case"}`), or a dataset row's columns. A row nothing reads is None,
    counted and logged once (trainer/tasks.py UNREADABLE).
    """
    task, row = rows.label_task(task_id, completion_text(completion), label, cfg, extra)  # cut there (graded_text)
    return checked(task_id, task, row)


def reward_of(result: Mapping[str, Any] | None, task: Mapping[str, Any] | None) -> float | None:
    """The accuracy reward of one item; None when it was not graded (see trainer/tasks.py)."""
    return component_value("accuracy", result, task.get("kind") if task else None)


def client_config(cfg: RewardConfig, environ: Mapping[str, str] | None = None) -> Any:
    """The ClientConfig for cfg: token from VERIFIER_TOKEN / VERIFIER_TOKEN_FILE, TLS from VERIFIER_CA_CERT /
    VERIFIER_TLS (RewardConfig.client_config)."""
    return cfg.client_config(environ)


def async_client(cfg: RewardConfig) -> Any:
    """A client factory for VerifierRewards (picklable: a module-level function)."""
    from verifier.client import AsyncVerifierClient

    return AsyncVerifierClient(cfg.target, client_config(cfg))


class _Client:
    """One VerifierClient per process (re-made after a fork), shared by every adapter call."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid = -1
        self._config: Any = None
        self._client: Any = None

    def get(self, cfg: RewardConfig) -> Any:
        from verifier.client import VerifierClient

        config = client_config(cfg)
        with self._lock:
            if self._client is None or self._pid != os.getpid() or self._config != (cfg.target, config):
                self._client = VerifierClient(cfg.target, config)
                self._pid, self._config = os.getpid(), (cfg.target, config)
            return self._client


_CLIENT = _Client()
BREAKER = Breaker()  # one per process: the adapters' module-level functions share it


def grade(tasks: Sequence[dict[str, Any] | None], cfg: RewardConfig) -> list[dict[str, Any] | None]:
    """Results aligned with tasks (None where the task is None or nothing came back). A batch the
    service could not grade is all None, logged; repeated ones raise RewardServiceError (BREAKER)."""
    sendable = [t for t in tasks if t is not None]
    if not sendable:
        return [None] * len(tasks)
    try:
        results = _CLIENT.get(cfg).grade(sendable)
    except Exception as exc:  # noqa: BLE001 -- a refused call: ungraded, never wrong
        log.warning("verifier batch of %d items not graded: %s: %s", len(sendable), type(exc).__name__, exc)
        results = []
    by_id = {str(r.get("id")): r for r in results}
    out = [by_id.get(str(t["id"])) if t is not None else None for t in tasks]
    ungraded = sum(1 for t, r in zip(tasks, out) if t is not None and (r is None or r.get("verdict") in HOST_FAULTS))
    BREAKER.record(len(sendable), ungraded, cfg)
    return out


def floats(rewards: Sequence[float | None], where: str) -> tuple[list[float], int]:
    """Rewards with ungraded items (None) replaced by VERIFIER_UNGRADED_REWARD, and how many there were."""
    fill = ungraded_reward()
    missing = sum(r is None for r in rewards)
    if missing:
        log.warning("%s: %d of %d items ungraded, given reward %s", where, missing, len(rewards), fill)
    return [fill if r is None else float(r) for r in rewards], missing
