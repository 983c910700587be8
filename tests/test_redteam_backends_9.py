"""Red team rt30ab of h30x (0859339, a173a4c): on docker (runc) and userns a step's memory limit is the step's own plus
what the box's cgroup held at rest when its job began (sandbox/backend.py `Backend.read_rest`, since h30y `rest_now` read in `begins`: usage less the page
cache, settled, less the stash) plus the capture bound (`SandboxConfig.capture_mb`, 33 MB), never more than the fixed
allowance (`SandboxConfig.overhead_mb`, 96 MB for Python). Classes 5, 6 and 8 of /work/shared/RED-TEAM.md, through the
real grader on every backend (tests/conftest.py `any_grader`: one warm one-sandbox pool per backend, reused).

Found (xfail strict, docker and userns, until h30y): **the rest is read as "usage less page cache", and kernel memory a job leaves
charged to the box's cgroup is neither the page cache nor the next job's.** A program that stats hundreds of
thousands of names that do not exist leaves that many negative dentries (and the overlay's lookups of them) in the
dentry slab, charged to the box's memory cgroup (`SLAB_ACCOUNT`) and outliving every process and the reset. The next
job's `read_rest` counts them as the box's rest (measured: 29 MB at rest, 92-105 MB after such a job), so its step gets
the fixed allowance again, and the kernel reclaims the slab as soon as that program presses on it: 80 MB touched under
a 16 MB limit is `accepted` right after such a job, exactly h30x's hole, in the next job of that box, whoever's it is.
The attacker needs no luck with the size: the box's own cgroup files are readable inside it (the runner reads them
through the same read-only binds), so the storm stops when the reading is some 95 MB, under the next step's limit.
The same program gets another verdict after another job (DESIGN.md section 4: a limit holds for the whole sandbox).
Fixed (h30y): a job's rest is never more than the box's rest at its birth (its first job's start: `Box.rest_birth_mb`,
`Backend.begins`), and a box whose rest grew past it by `REST_GROWTH_MB` (16) is replaced after its job
(`Backend.at_rest`).

Held: a storm that leaves more slab than the next step's limit (the kernel cannot lower the limit: runc's update fails
EBUSY) costs an innocent next job nothing, its box is replaced and the job graded (docker) or the limit set (userns);
measured with a 64 MB test and nothing written, the most a program holds before `memory_limit` is limit + 26..35 MB
on docker and userns (90 MB `accepted`, 100 MB `memory_limit`): the capture bound used as the program's own memory,
no more than the fixed allowance allowed before. Noticed, left as a figure: runsc is now the loosest (100 MB
`accepted`, 110 MB `memory_limit`), so 100 MB under 64 MB differs by backend; 120 MB is `memory_limit` everywhere.
Verdicts only, no durations; wall_factor is wide so CPU and memory decide."""
from __future__ import annotations

import pytest

from sandbox.sync import SyncGrader

pytestmark = pytest.mark.docker  # the images (and the root filesystems exported from them)

SANDBOX = {"pool_name": "pytest-redteam-backends-9", "wall_factor": 20.0, "pool_size": 1, "languages": ("python",)}

RIGHT = "a, b = map(int, input().split())\nprint(a + b)"

TOUCH = """b = bytearray(MB << 20)
for i in range(0, len(b), 4096):
    b[i] = 1
print(input())
"""

# Stats names that do not exist until the box's cgroup (read from inside, as the runner does) holds TARGET MB that is no
# page cache, or after CAP names or 8 s of CPU where there is none to read (gVisor's). Prints the right answer.
# What the box's cgroup holds that is no page cache, read from inside a program (tests/test_redteam_backends_10.py too).
HELD_DEF = """def held():
    for d, used, keys in (("/sys/fs/cgroup/memory", "memory.usage_in_bytes", ("total_active_file", "total_inactive_file")),
                          ("/sys/fs/cgroup", "memory.current", ("active_file", "inactive_file"))):
        try:
            u = int(open(os.path.join(d, used)).read())
            st = dict(line.split() for line in open(os.path.join(d, "memory.stat")))
        except (OSError, ValueError):
            continue
        return (u - sum(int(st.get(k, 0)) for k in keys)) >> 20
    return -1
"""
STORM = "import os, time\n" + HELD_DEF + """i = 0
while i < CAP and time.process_time() < 8 and held() < TARGET:
    for _ in range(5000):
        try:
            os.stat("/usr/lib/nx%d" % i)
        except OSError:
            pass
        i += 1
print(input())
"""

def one(source: str, limit: int, time_limit_s: float = 4) -> dict:
    return {"kind": "code", "language": "python", "memory_limit_mb": limit, "time_limit_s": time_limit_s,
            "completion": source, "tests": [{"stdin": "7\n", "expected_stdout": "7\n"}]}


def touching(mb: int, limit: int) -> dict:
    return one(TOUCH.replace("MB", str(mb)), limit)


def storm(target_mb: int, limit: int = 256, cap: int = 600_000) -> dict:
    return one(STORM.replace("TARGET", str(target_mb)).replace("CAP", str(cap)), limit, time_limit_s=20)


# serial: failed on userns in stop 48's timing run at load (the storm's kernel memory)
@pytest.mark.serial
def test_a_stat_storm_does_not_raise_the_next_jobs_limit(any_grader: SyncGrader) -> None:
    """Class 5/6: a job that leaves some 95 MB of dentries charged to its box, then a job touching 80 MB under 16 MB
    in the same box: `memory_limit`, as it is without the storm (the baseline, checked first)."""
    base = any_grader.grade(touching(80, 16))
    assert base["verdict"] == "memory_limit" and not base["retryable"], base
    attack = any_grader.grade(storm(95))
    assert attack["verdict"] != "infra_error", attack
    after = any_grader.grade(touching(80, 16))
    assert after["verdict"] == "memory_limit" and not after["retryable"], after


def test_a_storm_past_the_next_limit_costs_an_innocent_next_job_nothing(any_grader: SyncGrader) -> None:
    """Class 8/6: more slab left than the next step's limit (runc's update of the limit fails EBUSY under docker): the
    next job, a right answer under 16 MB, is `accepted`, never `infra_error`. (A job over its limit after such a storm
    is the finding above: where the storm ends under the next limit, 80 MB under 16 MB was `accepted` here too.)"""
    attack = any_grader.grade(storm(240, limit=320, cap=1_500_000))
    assert attack["verdict"] != "infra_error", attack
    r = any_grader.grade({"kind": "code", "language": "python", "completion": RIGHT, "time_limit_s": 2,
                          "memory_limit_mb": 16, "tests": [{"stdin": "1 2\n", "expected_stdout": "3\n"}]})
    assert r["verdict"] == "accepted", r


def test_the_capture_room_is_not_a_second_limit(any_grader: SyncGrader) -> None:
    """Class 5: a program that writes nothing may hold its limit plus at most the capture bound (33 MB) on the cgroup
    backends: 120 MB touched under 64 MB is `memory_limit` on every backend (measured: 90 MB the last accepted and
    100 MB `memory_limit` on docker and userns; runsc accepts 100 MB and refuses 110 MB); near miss,
    0.9x the limit is `accepted` everywhere."""
    over = any_grader.grade(touching(120, 64))
    assert over["verdict"] == "memory_limit" and not over["retryable"], over
    near = any_grader.grade(touching(57, 64))
    assert near["verdict"] == "accepted", near
