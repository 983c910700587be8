"""A program's limits: the one home of what every process the runner or a session's supervisor
starts for a program or a judge gets, whether exec'd (job_protocol.py run_exec, fork_judge), forked from the
warm interpreter (zygote.py become) or a session's interpreter (session_box.py). Standard library only;
imported by the warm interpreter too, so it holds no state and imports no other harness module but
confine.py, the mechanics of the one-uid mode's confinement (itself importing none), which `apply`
must run on the same paths as the rest of the limits.

The limits are plain data (`spec`), made once by the runner and sent as JSON to the zygote, and
applied by one function (`apply`): the two paths cannot set different limits
(tests/test_harness_limits.py)."""
from __future__ import annotations

import math
import os
import resource
import signal

import confine

HANDLED_SIGNALS = (signal.SIGINT, signal.SIGPIPE)  # every signal Python would handle or PID 1 ignores (pid1.harden)


def cpu_hard_s(cpu_s: float) -> int:
    """The RLIMIT_CPU soft limit for a run of cpu_s: a kernel-side backstop one second past it."""
    return int(math.ceil(cpu_s)) + 1


def spec(apart: bool, judge: bool, cpu_s: float | None, fsize: int, tree: list[str] | None = None) -> dict:
    """The limits of one process, as JSON-able data: every uid the program's unless it is a judge
    (which keeps its real and saved uid: pid1.py) or PID 1 holds one uid (not apart); where PID 1
    confines its programs instead of a second uid (confine.ON, set by confine.separate), a program's
    own Landlock domain and filter (`confine`: never a judge's); the CPU rlimit as a kernel-side
    backstop one second past cpu_s (none for a session's interpreter, cpu_s None, which runs many
    cells: its supervisor clocks each); files at most fsize bytes. `tree`: a repository task's ([TREE, writable
    file...]), read-only to a confined program (confine.scope_self; with two uids its owner keeps it so)."""
    program = bool(apart and not judge)
    return {"all_uids": program, "confine": program and confine.ON[0],
            "cpu_hard": None if cpu_s is None else cpu_hard_s(cpu_s), "fsize": int(fsize), "tree": tree}


def apply(lim: dict) -> None:
    """In a child about to become a program or a judge (module docstring): the `spec` limits, no core
    dumps, OOM victim first, the signals PID 1 ignores back to their default; last, a program's
    confinement (confine.confine), which raises where it fails: a program never runs unconfined."""
    if lim["all_uids"]:
        uid = os.geteuid()
        os.setresuid(uid, uid, uid)
    if lim["cpu_hard"] is not None:
        cpu_hard = int(lim["cpu_hard"])
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_hard, cpu_hard + 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    fsize = int(lim["fsize"])
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("1000")
    except OSError:
        pass
    for sig in HANDLED_SIGNALS:  # ignored by PID 1, default for the program
        signal.signal(sig, signal.SIG_DFL)
    if lim["confine"]:  # one uid for all: the program's own domain and filter (harness/confine.py)
        confine.confine(lim.get("tree"))
