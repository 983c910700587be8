"""The supervisor that runs INSIDE a grading sandbox, as its PID 1 (every image's CMD). Standard
library only. This module only starts it: it takes the two uids and the hardening of pid1.py, starts
the warm interpreter (warm_keeper.py) and the syntax checker (syntax_check.py) before reading any request,
then serves the job protocol (job_protocol.py) over the host channel (framing.py) until the channel ends.
The harness's rooms and their layers: docs/architecture.md "Layout".
"""
from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # the harness's modules (-I leaves the script's dir out); taken off again below
import accounting  # noqa: E402
import framing  # noqa: E402
import job_protocol  # noqa: E402
import pid1  # noqa: E402
import syntax_check  # noqa: E402
import warm_keeper  # noqa: E402

sys.path.remove(HERE)  # the warm interpreter's mother is forked from this process: its sys.path is a program's


def main() -> None:
    accounting.mount_cpu_clock()  # as root, before the uids: gVisor's CPU clock (docs/sandboxes.md "CPU time without a cgroup")
    pid1.harden()
    # The warm interpreter's mother: forked before the first request is read (it must never hold a
    # job's data), after the uids, dumpability, seccomp filter and signals every process inherits
    if pid1.APART and os.environ.get(warm_keeper.WARM_ENV) == "1" and os.path.isfile(os.path.join(warm_keeper.HARNESS_DIR, "zygote.py")):
        try:
            warm_keeper.WARM.start()
        except Exception as e:  # noqa: BLE001 - no warm interpreter: every run an exec, as before it
            warm_keeper.WARM.lose_mother()
            warm_keeper.WARM.broken, warm_keeper.WARM.error = False, f"{type(e).__name__}: {e}"[:300]
    if pid1.APART:  # the syntax checker, also before the first request (syntax_check.Checker)
        syntax_check.CHECKER.start()
    job_protocol.note_start()
    inp, outp = framing.INBOX, sys.stdout.buffer
    while True:
        msg = framing.read_message(inp)
        if msg is None:
            return
        try:
            head, blobs = job_protocol.handle(*msg)
        except BaseException as e:  # report, keep serving: the host decides to recycle
            head, blobs = {"error": f"{type(e).__name__}: {e}"[:300], "tampered": job_protocol.tampered()}, {}
        framing.write_message(outp, head, blobs)


if __name__ == "__main__":
    main()
