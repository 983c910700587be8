"""The math pool charges an item only the time a worker ran it (verifier/workers.py `MathPool._wait`): a clean CI run
graded right answers `timeout` after both workers were SIGKILLed and restarted slowly under load, and a worker killed
while pebble's loop waited on a restart had its item reported `timeout` late. Pure logic on a future this test drives
(the item's start and end, as pebble reports them), no worker process; tests/test_server.py has the real one."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time

import pytest

from verifier import workers

# serial (make test's phase 2): windows of 0.2-0.5 s of wall time between threads and real workers, which another
# worker's load can stretch
pytestmark = pytest.mark.serial


def _drive(future: concurrent.futures.Future, start_after_s: float, run_s: float, timed_out: bool = False) -> None:
    """Start the item after `start_after_s` (the wait for a worker), finish it `run_s` later: with its value, or
    with pebble's report that it overran (`timed_out`)."""
    def go() -> None:
        time.sleep(start_after_s)
        future.set_running_or_notify_cancel()
        time.sleep(run_s)
        if timed_out:
            future.set_exception(TimeoutError("Task timeout"))
        else:
            future.set_result("graded")
    threading.Thread(target=go, daemon=True).start()


@pytest.fixture
def short_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "BACKSTOP_S", 0.5)
    monkeypatch.setattr(workers, "LATE_S", 0.3)
    monkeypatch.setattr(workers, "START_POLL_S", 0.02)
    monkeypatch.setattr(workers, "START_WAIT_S", 1.0)


def test_an_item_that_waited_for_a_worker_is_not_charged_the_wait(short_windows: None) -> None:
    """Waiting 0.9 s for a worker (past its timeout plus the backstop, counted from scheduling), then running 0.1 s
    of its 0.2 s timeout: its value, never a timeout."""
    future: concurrent.futures.Future = concurrent.futures.Future()
    _drive(future, start_after_s=0.9, run_s=0.1)
    assert asyncio.run(workers.MathPool._wait(future, timeout_s=0.2)) == "graded"


def test_an_overrun_pebble_reports_in_time_is_the_items_timeout(short_windows: None) -> None:
    future: concurrent.futures.Future = concurrent.futures.Future()
    _drive(future, start_after_s=0.3, run_s=0.2, timed_out=True)
    with pytest.raises(TimeoutError):
        asyncio.run(workers.MathPool._wait(future, timeout_s=0.2))


def test_an_overrun_pebble_reports_late_is_a_stall_to_retry(short_windows: None) -> None:
    """Reported 0.8 s past a 0.2 s timeout (LATE_S 0.3): pebble's loop was stalled, so the item's worker may have
    died unseen; the engine retries it rather than charge the answer."""
    future: concurrent.futures.Future = concurrent.futures.Future()
    _drive(future, start_after_s=0.0, run_s=1.0, timed_out=True)
    with pytest.raises(workers._Stalled):
        asyncio.run(workers.MathPool._wait(future, timeout_s=0.2))


def test_an_item_pebble_never_reports_is_a_stall_to_retry(short_windows: None) -> None:
    future: concurrent.futures.Future = concurrent.futures.Future()
    _drive(future, start_after_s=0.0, run_s=3.0)
    with pytest.raises(workers._Stalled):
        asyncio.run(workers.MathPool._wait(future, timeout_s=0.2))


def test_an_item_no_worker_takes_is_a_crash_to_retry(short_windows: None) -> None:
    future: concurrent.futures.Future = concurrent.futures.Future()
    with pytest.raises(workers._NotStarted):
        asyncio.run(workers.MathPool._wait(future, timeout_s=0.1))


def _outcomes(pool: workers.MathPool, *outcomes: workers.Outcome) -> list[int]:
    """Make the pool's attempts end as `outcomes`, in turn; returns the list its attempts are counted in."""
    calls: list[int] = []

    async def run(fn: object, args: tuple, timeout_s: float) -> workers.Outcome:
        calls.append(1)
        return outcomes[len(calls) - 1]
    pool.run = run  # type: ignore[method-assign]
    return calls


STALL = workers.Outcome("crash", detail="late", overran=True)
DIED = workers.Outcome("crash", detail="worker died")
BROKE = workers.Outcome("crash", detail="worker pool broke", broken=True)
GRADED = workers.Outcome("ok", value="graded")


@pytest.mark.parametrize(("attempts", "verdict", "tries"), [
    ((STALL, workers.Outcome("ok", value="graded")), "ok", 2),
    ((STALL, STALL), "timeout", 2),
    ((DIED, STALL, STALL), "timeout", 3),
    ((STALL, workers.Outcome("timeout")), "timeout", 2),
    ((DIED, DIED, DIED), "crash", 3),
    ((STALL, DIED, DIED), "crash", 3),
    ((BROKE, BROKE, BROKE, GRADED), "ok", 4),
    ((BROKE, DIED, BROKE, DIED, BROKE, GRADED), "ok", 6),
    ((BROKE, BROKE, BROKE, BROKE, DIED, DIED), "crash", 6),
], ids=["stall-then-graded", "two-overruns", "died-then-two-overruns", "stall-then-timeout", "three-deaths",
        "one-overrun-then-deaths", "three-pool-breaks-then-graded", "breaks-between-deaths", "breaks-past-the-bound"])
def test_an_item_seen_overrunning_on_two_workers_is_its_own_timeout(
        attempts: tuple[workers.Outcome, ...], verdict: str, tries: int) -> None:
    """A late report once may be a dead worker's (retried); twice is the answer's own overrun, never infra_error
    (`MathPool.grade`); crashes alone stay crashes after `retries` + 2 attempts; a broken pool's aborts are retried
    apart, POOL_BREAKS_MAX times at most (the item is not its cause)."""
    pool = workers.MathPool(workers=1)
    calls = _outcomes(pool, *attempts)
    outcome = asyncio.run(pool.grade(time.sleep, (0,), timeout_s=1.0, retries=1))
    assert (outcome.status, len(calls)) == (verdict, tries)


def test_a_real_overrun_reported_late_every_time_is_a_timeout_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    """Real workers: with LATE_S below zero every report of an overrun counts as late (the start is seen up to
    START_POLL_S after it), as on a server too starved to hear pebble in time; an item that sleeps past its deadline
    on every worker is still its own `timeout`."""
    monkeypatch.setattr(workers, "LATE_S", -1.0)
    pool = workers.MathPool(workers=1)
    pool.start()
    try:
        outcome = asyncio.run(pool.grade(time.sleep, (5.0,), timeout_s=0.5, retries=1))
    finally:
        pool.close()
    assert outcome.status == "timeout" and "on two workers" in outcome.detail, outcome
