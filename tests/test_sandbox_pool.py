"""Pool.acquire's queue, without Docker: containers are fakes, the waiting logic is the real one.

A job waiting for a busy container must wait its turn (in arrival order) until its caller's
deadline, never a fixed time after which it becomes infra_error; a job waiting for a pool that
cannot start containers (daemon down, image gone) must be answered promptly, never hang."""
from __future__ import annotations

import asyncio
import threading
import time

import pytest

from sandbox import SandboxConfig
from sandbox.pool import Box, Pool


class FakePool(Pool):
    """Pool whose containers are plain objects; `fail` makes every start raise."""

    def __init__(self, config: SandboxConfig, fail: bool = False) -> None:
        super().__init__(config, backend=None, images={"python": "fake"})
        self.fail = fail

    def create(self, language: str) -> Box:
        if self.fail:
            raise ConnectionError("no daemon here")
        self.created += 1
        return Box(language=language, container=object(), channel=None, mem_mb=0)

    def destroy(self, box: Box) -> None:
        box.dead = True

    def _remove_own(self) -> None:
        pass


async def _filled(pool: FakePool) -> FakePool:
    pool.fill()
    while pool._alive["python"] < pool.config.pool_size:
        await asyncio.sleep(0.01)
    return pool


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 30))  # a hang fails the test instead of stalling the suite


def test_waiters_get_a_busy_container_in_arrival_order_past_acquire_timeout():
    async def main() -> list[int]:
        pool = await _filled(FakePool(SandboxConfig(pool_size=1, acquire_timeout_s=0.2)))
        box = await pool.acquire("python")
        order: list[int] = []

        async def waiter(i: int) -> None:
            b = await pool.acquire("python")  # no deadline: wait for the turn
            order.append(i)
            await asyncio.sleep(0.05)
            await pool.release(b, True)

        waiters = [asyncio.ensure_future(waiter(i)) for i in range(4)]
        await asyncio.sleep(1.0)  # held five times longer than acquire_timeout_s
        assert order == []
        await pool.release(box, True)
        await asyncio.gather(*waiters)
        await pool.close()
        return order

    assert run(main()) == [0, 1, 2, 3]


def test_the_callers_deadline_ends_the_wait_and_the_container_stays_in_the_pool():
    async def main() -> None:
        pool = await _filled(FakePool(SandboxConfig(pool_size=1)))
        box = await pool.acquire("python")
        with pytest.raises(TimeoutError, match="deadline"):
            await pool.acquire("python", time.monotonic() + 0.3)
        await pool.release(box, True)
        assert await pool.acquire("python", time.monotonic() + 1) is box  # no waiter kept it
        await pool.close()

    run(main())


def test_a_cancelled_waiter_does_not_swallow_a_container():
    async def main() -> None:
        pool = await _filled(FakePool(SandboxConfig(pool_size=1)))
        box = await pool.acquire("python")
        gone = asyncio.ensure_future(pool.acquire("python"))
        await asyncio.sleep(0.1)
        gone.cancel()
        await pool.release(box, True)
        assert await pool.acquire("python", time.monotonic() + 1) is box
        await pool.close()

    run(main())


def test_a_pool_that_cannot_start_containers_answers_at_once():
    async def main() -> None:
        pool = FakePool(SandboxConfig(pool_size=1, acquire_timeout_s=600), fail=True)
        pool.fill()
        with pytest.raises(TimeoutError, match="no daemon here"):
            await pool.acquire("python")  # no deadline, a long acquire_timeout_s: the failure ends it
        await pool.close()

    run(main())


def test_a_daemon_found_down_ends_the_wait_for_a_busy_container():
    async def main() -> None:
        pool = await _filled(FakePool(SandboxConfig(pool_size=1, acquire_timeout_s=600)))
        box = await pool.acquire("python")
        up = [True]
        waiter = asyncio.ensure_future(pool.acquire("python", ok=lambda: up[0]))
        await asyncio.sleep(0.3)
        assert not waiter.done()
        up[0] = False
        with pytest.raises(TimeoutError):
            await waiter
        await pool.release(box, True)
        await pool.close()

    run(main())


def test_a_replaced_container_serves_the_queue():
    """A container that died (recycled) is replaced in the background; waiters get the new one."""
    async def main() -> None:
        pool = await _filled(FakePool(SandboxConfig(pool_size=1, acquire_timeout_s=5)))
        box = await pool.acquire("python")
        waiter = asyncio.ensure_future(pool.acquire("python"))
        await pool.release(box, False)
        new = await waiter
        await asyncio.gather(*pool._removing)  # the removal runs in the background: let it end
        assert new is not box and box.dead and not new.dead and pool.created == 2
        await pool.release(new, True)
        await pool.close()

    run(main())


def test_closing_the_pool_ends_the_wait():
    async def main() -> None:
        pool = await _filled(FakePool(SandboxConfig(pool_size=1, acquire_timeout_s=600)))
        await pool.acquire("python")
        waiter = asyncio.ensure_future(pool.acquire("python"))
        await asyncio.sleep(0.1)
        await pool.close()
        with pytest.raises(TimeoutError, match="closing"):
            await waiter

    run(main())


class SlowRemovePool(FakePool):
    """Removal blocks until the test lets it go (a Docker remove takes 0.2-1 s)."""

    def __init__(self, config: SandboxConfig) -> None:
        super().__init__(config)
        self.go = threading.Event()
        self.removed: list[Box] = []

    def destroy(self, box: Box) -> None:
        self.go.wait(20)
        box.dead = True
        self.removed.append(box)


def test_a_recycle_does_not_wait_for_the_old_container_to_be_removed():
    """Issue 20's p99 stall: release awaited the Docker removal of a retired container before the
    job's answer went out. It returns with the removal still under way (a release that waited
    would hang here until the 30 s guard)."""
    async def main() -> None:
        pool = await _filled(SlowRemovePool(SandboxConfig(pool_size=1)))
        box = await pool.acquire("python")
        await pool.release(box, False)
        assert pool.removed == [] and pool.recycled == 1
        pool.go.set()
        new = await pool.acquire("python", time.monotonic() + 10)
        assert new is not box
        while not pool.removed:
            await asyncio.sleep(0.01)
        assert pool.removed == [box]
        await pool.release(new, True)
        await pool.close()

    run(main())


def test_a_retiring_container_has_its_successor_started_ahead_and_held_in_standby():
    """The replacement of a box near jobs_per_container starts before the box retires and waits in
    standby (never more than pool_size boxes take jobs); at retirement it takes over at once, so
    no job waits for a container start."""
    async def main() -> None:
        pool = await _filled(FakePool(SandboxConfig(pool_size=1, jobs_per_container=10)))
        assert pool.prewarm_at() == 5
        box = await pool.acquire("python")
        box.jobs = 4
        await pool.release(box, True)
        assert pool.created == 1  # not yet
        box = await pool.acquire("python")
        box.jobs = 5
        await pool.release(box, True)
        while not pool._standby["python"]:
            await asyncio.sleep(0.01)
        assert pool.created == 2 and pool._idle["python"].qsize() == 1  # the successor waits aside
        assert await pool.acquire("python") is box
        box.jobs = 9
        await pool.release(box, True)  # once only: no second successor
        box = await pool.acquire("python")
        box.jobs = 10
        await pool.release(box, True)  # retires
        assert pool._idle["python"].qsize() == 1 and not pool._standby["python"]
        successor = await pool.acquire("python")
        assert successor is not box and not successor.dead and pool.created == 2
        await pool.release(successor, True)
        await asyncio.sleep(0.05)
        assert pool.created == 2 and pool._count["python"] == 1 and pool._alive["python"] == 1
        await pool.close()

    run(main())


def test_a_successor_still_starting_at_retirement_goes_straight_to_work():
    async def main() -> None:
        pool = await _filled(FakePool(SandboxConfig(pool_size=1, jobs_per_container=5)))
        box = await pool.acquire("python")
        box.jobs = 3
        await pool.release(box, True)  # successor spawned; not started yet (no await in between)
        box = await pool.acquire("python")
        box.jobs = 5
        await pool.release(box, False)
        successor = await pool.acquire("python", time.monotonic() + 10)
        assert successor is not box and pool.created == 2 and not pool._standby["python"]
        await pool.release(successor, True)
        await pool.close()

    run(main())


def test_within_a_call_the_longest_job_gets_a_box_first_and_calls_keep_their_order():
    """Issue 20 item 3: a batch is done when its slowest item is, so within a call the job owed the
    most time starts first (key (call, -budget)); an earlier call still goes before a later one,
    and jobs without a key keep arrival order."""
    async def main() -> list[str]:
        pool = await _filled(FakePool(SandboxConfig(pool_size=1)))
        box = await pool.acquire("python")
        order: list[str] = []

        async def waiter(name: str, key: tuple) -> None:
            b = await pool.acquire("python", key=key)
            order.append(name)
            await pool.release(b, True)

        keys = {"a-short": (1, -2.0), "a-long": (1, -60.0), "a-mid": (1, -10.0), "b-longest": (2, -600.0),
                "z-earlier-call": (0, -1.0)}
        waiters = []
        for name, key in keys.items():
            waiters.append(asyncio.ensure_future(waiter(name, key)))
            await asyncio.sleep(0.01)  # arrival order: the dict's
        await pool.release(box, True)
        await asyncio.gather(*waiters)
        await pool.close()
        return order

    assert run(main()) == ["z-earlier-call", "a-long", "a-mid", "a-short", "b-longest"]


def test_a_waiter_that_gave_up_is_skipped_and_loses_no_box():
    async def main() -> None:
        pool = await _filled(FakePool(SandboxConfig(pool_size=1)))
        box = await pool.acquire("python")
        first = asyncio.ensure_future(pool.acquire("python", key=(0, -5.0)))
        second = asyncio.ensure_future(pool.acquire("python", key=(0, -1.0)))
        await asyncio.sleep(0.05)
        first.cancel()
        await pool.release(box, True)
        assert await second is box
        await pool.release(box, True)
        assert pool._idle["python"].qsize() == 1
        await pool.close()

    run(main())
