"""verl reward functions backed by the verifier service.

verl's reward managers call a `compute_score` named in `custom_reward_function.path/name`:

- naive / prime / dapo managers: one call per sample, `compute_score(data_source, solution_str,
  ground_truth, extra_info=None, **kwargs)`, often from many threads or a process pool. A
  per-process micro-batcher turns concurrent calls into one RPC: the first call waits up to
  `LINGER_S` (or until `MAX_BATCH` calls are queued), then one grade call answers them all.
- verl's reward loop (async managers) awaits a coroutine function directly:
  `compute_score_async`, same arguments, same batcher, so every item of a step shares one RPC.
- batch manager: `compute_score_batch(data_sources, solution_strs, ground_truths, extra_infos)`,
  lists in, list out, one RPC.

The classic naive manager calls `compute_score` one sample at a time from one thread: nothing to
gather there, so each call costs one RPC plus the linger; prefer the batch manager or the reward
loop, or set VERIFIER_LINGER_MS=0.

Both return verl's dict form, `{"score": float, "verifier_ungraded": 0 or 1, "verifier_unreadable":
0 or 1}`: verl reads `score` as the reward and logs the other keys per sample (unreadable: no format
read the row, trainer/tasks.py; it is ungraded too). `ground_truth` is a gold answer, a JSON
task, or a JSON dataset row; `extra_info` columns (`verification_info`, `tests`, `choices`,
`profile`) are read as TRL rows are (trainer/tasks.py). Ungraded items (service down, infra_error,
a malformed row) score VERIFIER_UNGRADED_REWARD (0.0 by default: verl sums rewards into token
scores and a NaN would poison the advantages), and `verifier_ungraded` counts them in verl's logs.
"""

from __future__ import annotations

import asyncio
import os
import queue
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from trainer.config import RewardConfig
from trainer.remote import env_config, grade, label_task, reward_of, ungraded_reward
from verifier.schema import with_id

LINGER_S = float(os.environ.get("VERIFIER_LINGER_MS", "5")) / 1000
MAX_BATCH = int(os.environ.get("VERIFIER_MAX_BATCH", "256"))
MAX_INFLIGHT = 4  # batches graded at once while the next one gathers


def _score(reward: float | None, task: dict[str, Any] | None) -> dict[str, float]:
    return {"score": ungraded_reward() if reward is None else reward, "verifier_ungraded": float(reward is None),
            "verifier_unreadable": float(task is None)}


class MicroBatcher:
    """Gathers tasks submitted from any thread of this process into shared grade calls."""

    def __init__(self, cfg: RewardConfig, linger_s: float = LINGER_S, max_batch: int = MAX_BATCH):
        self.cfg, self.linger_s, self.max_batch = cfg, linger_s, max_batch
        self._queue: queue.SimpleQueue[tuple[dict[str, Any], Future[Any]]] = queue.SimpleQueue()
        self._pool = ThreadPoolExecutor(MAX_INFLIGHT, thread_name_prefix="verifier-batch")
        self._seq = 0
        self._lock = threading.Lock()
        self.calls = 0  # grade calls sent, for tests and logs
        threading.Thread(target=self._gather, name="verifier-batcher", daemon=True).start()

    def submit(self, task: dict[str, Any]) -> Future[Any]:
        """A future of the task's result dict (or None when it was not graded)."""
        with self._lock:  # ids unique within a grade call: the batcher numbers tasks itself
            self._seq += 1
            task = with_id(task, str(self._seq))  # keeps the row's decoded model (verifier/schema.py Parsed)
        future: Future[Any] = Future()
        self._queue.put((task, future))
        return future

    def _gather(self) -> None:
        while True:
            batch = [self._queue.get()]
            deadline = time.monotonic() + self.linger_s
            while len(batch) < self.max_batch:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                try:
                    batch.append(self._queue.get(timeout=left))
                except queue.Empty:
                    break
            self.calls += 1
            self._pool.submit(self._send, batch)

    def _send(self, batch: list[tuple[dict[str, Any], Future[Any]]]) -> None:
        try:
            results = grade([t for t, _ in batch], self.cfg)
        except BaseException as exc:  # noqa: BLE001 -- never leave a caller waiting
            for _, future in batch:
                future.set_exception(exc)
            return
        for (_, future), result in zip(batch, results):
            future.set_result(result)


_BATCHER: tuple[int, MicroBatcher] | None = None
_BATCHER_LOCK = threading.Lock()


def batcher() -> MicroBatcher:
    """This process's batcher (a forked child makes its own: threads do not survive fork)."""
    global _BATCHER
    with _BATCHER_LOCK:
        if _BATCHER is None or _BATCHER[0] != os.getpid():
            _BATCHER = (os.getpid(), MicroBatcher(env_config()))
        return _BATCHER[1]


def _submit(solution_str: str, ground_truth: Any, extra_info: dict[str, Any] | None) -> tuple[dict[str, Any] | None, Future[Any] | None]:
    b = batcher()
    task = label_task("0", solution_str or "", ground_truth, extra_info, b.cfg)
    return task, (b.submit(task) if task is not None else None)


def _wait_s() -> float:
    """How long a caller waits for its batch: the client's own deadline gives up first."""
    return batcher().cfg.client.timeout_s + 30


def compute_score(data_source: str, solution_str: str, ground_truth: Any, extra_info: dict[str, Any] | None = None,
                  **kwargs: Any) -> dict[str, float]:
    """verl's per-sample reward: `{"score", "verifier_ungraded", "verifier_unreadable"}`; concurrent calls
    share one RPC."""
    task, future = _submit(solution_str, ground_truth, extra_info)
    try:
        result = future.result(timeout=_wait_s()) if future is not None else None
    except FutureTimeout:
        result = None
    return _score(reward_of(result, task), task)


async def compute_score_async(data_source: str, solution_str: str, ground_truth: Any,
                              extra_info: dict[str, Any] | None = None, **kwargs: Any) -> dict[str, float]:
    """The same as compute_score, for verl's reward loop, which awaits every item of a step at once."""
    task, future = _submit(solution_str, ground_truth, extra_info)
    try:
        result = await asyncio.wait_for(asyncio.wrap_future(future), _wait_s()) if future is not None else None
    except asyncio.TimeoutError:
        result = None
    return _score(reward_of(result, task), task)


def compute_score_batch(data_sources: Sequence[str], solution_strs: Sequence[str], ground_truths: Sequence[Any],
                        extra_infos: Sequence[dict[str, Any] | None] | None = None, **kwargs: Any) -> list[dict[str, float]]:
    """verl's batch reward manager form: lists in, one `{"score", ...}` per sample out, one RPC."""
    cfg = env_config()
    infos = list(extra_infos) if extra_infos is not None else [None] * len(solution_strs)
    tasks = [label_task(str(i), s or "", g, e, cfg)
             for i, (s, g, e) in enumerate(zip(solution_strs, ground_truths, infos, strict=True))]
    results = grade(tasks, cfg)
    return [_score(reward_of(r, t), t) for r, t in zip(results, tasks)]
