"""The math pool's backstop counts from when a worker starts an item (verifier/workers.py `MathPool._wait`): a
clean CI run graded right answers `timeout` after both workers were SIGKILLed and restarted slowly under load.
Pure logic on a future this test drives (the item's start and end), no worker process."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time

import pytest

from verifier import workers


def _drive(future: concurrent.futures.Future, start_after_s: float, run_s: float) -> None:
    """Start the item after `start_after_s` (the wait for a worker), finish it `run_s` later."""
    def go() -> None:
        time.sleep(start_after_s)
        future.set_running_or_notify_cancel()
        time.sleep(run_s)
        future.set_result("graded")
    threading.Thread(target=go, daemon=True).start()


@pytest.fixture
def short_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "BACKSTOP_S", 0.05)
    monkeypatch.setattr(workers, "START_WAIT_S", 1.0)


def test_an_item_that_waited_for_a_worker_is_not_charged_the_wait(short_windows: None) -> None:
    """Waiting 0.4 s for a worker, then running 0.1 s of its 0.1 s timeout: its value, never a timeout."""
    future: concurrent.futures.Future = concurrent.futures.Future()
    _drive(future, start_after_s=0.4, run_s=0.1)
    assert asyncio.run(workers.MathPool._wait(future, timeout_s=0.1)) == "graded"


def test_an_item_that_runs_past_its_window_is_a_timeout(short_windows: None) -> None:
    future: concurrent.futures.Future = concurrent.futures.Future()
    _drive(future, start_after_s=0.0, run_s=3.0)
    with pytest.raises(TimeoutError):
        asyncio.run(workers.MathPool._wait(future, timeout_s=0.1))


def test_an_item_no_worker_takes_is_a_crash_to_retry(short_windows: None) -> None:
    future: concurrent.futures.Future = concurrent.futures.Future()
    with pytest.raises(workers._NotStarted):
        asyncio.run(workers.MathPool._wait(future, timeout_s=0.1))
