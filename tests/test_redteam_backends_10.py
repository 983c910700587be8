"""Red team rt30ac of h30y (71e378d): on docker (runc) and userns a step's memory limit is its own plus the box's rest
(its cgroup's usage less the page cache, less the stash, settled, read where its job or session begins:
sandbox/backend.py `Backend.begins`, `rest_now`) plus the capture room (33 MB), never more than the fixed allowance;
since h30y the rest is never counted above the box's birth rest (`Box.rest_birth_mb`, read when its first job or
session began), and a box whose rest grew past its birth by `REST_GROWTH_MB` (16) is replaced after its job
(`Backend.at_rest`). Sessions go through `begins` too. Classes 5, 6 and 8 of /work/shared/RED-TEAM.md, through the
real grader on every backend (tests/conftest.py `any_grader`: one warm one-sandbox pool per backend, reused).

Held (measured on docker, runc, 2 loaded cores):
- The margin: a program that reads its box's cgroup from inside (as rt30ab's storm does) and stops its stat storm at
  12-14 MB over what it read at its start leaves the box under REST_GROWTH_MB, so the box serves again holding that
  slab (rest 42 against a birth of 28); the next job's rest is still counted at 28, and the slab is reclaimed under
  the next program's pressure, so it gives nothing: touching 44 MB under a 16 MB limit is `accepted` before and after
  such a job (the capture room), 48 and 52 MB `memory_limit` before and after. A second such job takes the box past
  16 MB over its birth (55 against 26) and it is replaced. An innocent job in a box holding those 12-14 MB of slab
  (0.8x its limit touched) is `accepted`: reclaimable slab never makes an innocent job `memory_limit`.
- Sessions: a session's limit is the box's (SessionBox.start sets it; no rest is added), so a rest read high gives a
  session nothing; a session that leaves 30 MB of slab has its box replaced, never a spare (docker), and a later
  session's near-limit cell is `ok` where an earlier session left 12 MB.
- The birth reading itself: nothing of a program runs in a box before its first job's `begins` (pool boxes, standby
  successors, sessions' first `start`, a repository environment's tree made in the job), and `begins` only ever
  lowers a later job's rest (min with the birth), so no program can make a birth reading high; every way of raising
  one's room is bounded by what of the rest the kernel can reclaim.

Fixed (h30aa), noticed here as figures: a box's first job could begin before its runner's warm processes had
settled (the zygote imported while the runner served: harness/warm_keeper.py Warm.spawn); then the birth was read low:
`begins` called right after `Pool.create` read 19-26 MB where the same box held 28-29 MB 0.3 s later (anonymous
memory: the zygote's imports; docker and userns, 2 loaded cores), and since h30y that low reading capped every later
job of the box (2-7 MB less of its 33 MB capture room; the box replaced once innocent growth passed 9-14 MB instead of
16). The runner now answers the start's ping and each reset once its warm interpreter has imported
(`test_a_boxs_birth_rest_is_its_settled_rest`).
Verdicts only, no durations; wall_factor is wide so CPU and memory decide."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from sandbox.session import SessionHost, SessionLimits
from sandbox.sync import SyncGrader
from tests.test_redteam_backends_9 import HELD_DEF, TOUCH

pytestmark = pytest.mark.docker  # the images (and the root filesystems exported from them)

SANDBOX = {"pool_name": "pytest-redteam-backends-10", "wall_factor": 20.0, "pool_size": 1, "languages": ("python",)}

# What the box's cgroup holds that is no page cache, read from inside (the runner's own read-only binds), as
# tests/test_redteam_backends_9.py's storm; -1 where there is none (gVisor's).
HELD = "import os, time\n" + HELD_DEF + """"""

# Stats names that do not exist until the box holds GROW MB more than at the program's start (just under the margin
# when GROW < REST_GROWTH_MB), or after CAP names or 6 s of CPU; none where there is nothing to read (gVisor's kernel
# holds its dentries in its own heap, watched as SENTRY_REST_MB: tests/test_gvisor_attacks.py). Prints the right answer.
STORM = HELD + """start = held()
target = start + GROW
i = 0
while start >= 0 and i < CAP and time.process_time() < 6 and held() < target:
    for _ in range(2000):
        try:
            os.stat("/usr/lib/nyPREFIX%d" % i)
        except OSError:
            pass
        i += 1
print(input())
"""

# a 16 MB test: over it by this much is memory_limit before any storm on each backend (measured on docker: 44 MB
# accepted, the capture room, 48 and 52 MB memory_limit; runsc is the loosest, limit + 36..46 MB: rt30ab)
OVER = {"docker": 52, "userns": 52}
OVER_GVISOR = 72


def one(source: str, limit: int, time_limit_s: float = 4) -> dict:
    return {"kind": "code", "language": "python", "memory_limit_mb": limit, "time_limit_s": time_limit_s,
            "completion": source, "tests": [{"stdin": "7\n", "expected_stdout": "7\n"}]}


def touching(mb: int, limit: int) -> dict:
    return one(TOUCH.replace("MB", str(mb)), limit)


def storm(grow_mb: int, prefix: str, cap: int = 120_000) -> dict:
    return one(STORM.replace("GROW", str(grow_mb)).replace("CAP", str(cap)).replace("PREFIX", prefix), 256,
               time_limit_s=20)


def test_storms_under_the_margin_give_no_program_room_and_cost_no_innocent_job(any_grader: SyncGrader,
                                                                               backend: str) -> None:
    """Class 5/6 (goal a and b): a job that leaves 12 MB of slab (under REST_GROWTH_MB: its box serves again), then a
    job over its 16 MB limit by OVER: `memory_limit`, as before the storm (baseline first); after a second such storm
    an innocent job touching 0.8x its 64 MB limit in the box holding the slab is `accepted`; a third storm takes the box
    past the margin (replaced on docker) and the over-limit job is `memory_limit` again. No step is infra_error."""
    over = OVER.get(backend, OVER_GVISOR)
    base = any_grader.grade(touching(over, 16))
    assert base["verdict"] == "memory_limit" and not base["retryable"], base
    for n, then in enumerate((touching(over, 16), touching(51, 64), touching(over, 16))):
        left = any_grader.grade(storm(12, f"{n}x"))
        assert left["verdict"] == "accepted", left
        r = any_grader.grade(then)
        want = "accepted" if n == 1 else "memory_limit"
        assert r["verdict"] == want and not r["retryable"], (n, r)


# ----------------------------------------------------------------- sessions (SessionBox.start goes through begins)
SESSION_STORM = STORM.replace("print(input())\n", "held() - target + GROW\n")
CELL_TOUCH = "b = bytearray(MB << 20)\nfor i in range(0, len(b), 4096):\n    b[i] = 1\nn = len(b) >> 20\ndel b\nn"  # let go: the storm after it


@pytest.fixture(scope="module")
def spare_host(any_grader: SyncGrader) -> Iterator[SessionHost]:
    host = SessionHost(any_grader.grader.config, max_sessions=2, spares=1, backend=any_grader.grader.backend)
    try:
        yield host
    finally:
        host.remove_all()


def test_a_session_box_keeps_no_room_from_slab_and_a_big_leftover_is_no_spare(spare_host: SessionHost,
                                                                              backend: str) -> None:
    """Class 6 (goal b) in sessions: a session whose cell leaves 12 MB of slab is reset into a spare; the next session
    there touches 0.8x its 128 MB limit in a cell: `ok`. A session that leaves 30 MB (past REST_GROWTH_MB) is not kept
    as a spare on docker (its rest is read where it began, begins, and at its reset, at_rest)."""
    limits = SessionLimits(time_limit_s=10, memory_limit_mb=128)
    code = SESSION_STORM.replace("CAP", "120000")
    first = spare_host.take_box("python", limits, {})
    r = first.cell(code.replace("GROW", "12").replace("PREFIX", "s1x"))
    assert r["status"] == "ok", r
    spare_host.give_back(first)
    again = spare_host.take_box("python", limits, {})
    r = again.cell(CELL_TOUCH.replace("MB", "100"))
    assert r["status"] == "ok", r
    r = again.cell(code.replace("GROW", "30").replace("PREFIX", "s2x").replace("120000", "300000"))
    assert r["status"] == "ok", r
    spare_host.give_back(again)
    last = spare_host.take_box("python", limits, {})
    try:
        if backend == "docker":  # its rest 30 MB over its birth: replaced, never a spare
            assert last is not again
        r = last.cell(CELL_TOUCH.replace("MB", "100"))
        assert r["status"] == "ok", r
    finally:
        spare_host.destroy(last)


# ----------------------------------------------------------------- the birth reading (h30aa)
# How far a box's birth rest may be from what the same box holds settled later, its runner idle (MB: one reading's
# rounding either way). Before h30aa the birth was read while the warm interpreter still imported: 2-11 MB low.
BIRTH_MB = 2
NO_CGROUP = "gVisor's kernel holds the box's memory in its own heap: no cgroup rest is read (sentry_mb, gvisor_rest_mb)"


def test_a_boxs_birth_rest_is_its_settled_rest(any_grader: SyncGrader, backend: str) -> None:
    """A fresh box's birth rest (Backend.begins where its first job begins, as Pool.mark_start calls it right after
    Pool.create) is what the box holds once its warm interpreter has imported, as read after a reset (what follows
    every job), not a reading taken while it imports, which capped every later job's room low (rt30ac: a right
    answer near a large limit was memory_limit at load). Two boxes, each read at once, as the pool does."""
    from sandbox import watchdog
    from tests.helpers import kernel_differs, on_backend

    pool = any_grader.grader._pool
    backend_ = pool._backend()
    for _ in range(2):
        box = pool.create("python")
        try:
            pool.mark_start(box)
            head, _ = box.channel.request({"op": "reset"}, timeout_s=30)  # its cleanness is not read here: a
            assert head.get("ok"), head  # fresh gVisor box's reset can report a channel stall at load (stalls: 1)
            later = watchdog.settled(lambda box=box: backend_.rest_now(box))
            want = on_backend(backend, later, kernel_differs(-1, NO_CGROUP))
            assert later == want and abs(box.rest_birth_mb - want) <= BIRTH_MB, (box.rest_birth_mb, later)
            assert want == -1 or want > BIRTH_MB  # a rest was read: the runner, the warm interpreter
        finally:
            pool.destroy(box)
