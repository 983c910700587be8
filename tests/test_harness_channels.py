"""Inside the sandbox a pipe is made for a program's own std stream only (sandbox/harness/pid1.py std_pipe); every
other channel of a trusted process is a socket pair (pid1.channel). gVisor lets a process reopen, through
/proc/<pid>/fd, a pipe made under its effective uid, which the runner's and the warm interpreter's is (docs/sandboxes.md
"Sandbox backends: Docker or gVisor without a daemon"; issue 30). ruff's banned-api (pyproject.toml) holds the harness
to it: these tests show the gate refuses a new os.pipe() or subprocess start there (subprocess reports exec's
failure on a pipe of its own: pid1.start reports on a socket), and that the harness has none today but the one
the runner's exec mode starts while no process of the program lives (job_protocol.py's noqa says why). The sandboxes'
own scan is tests/test_sandbox_security.py `test_no_fd_of_the_runner_or_judge_opens_through_proc`."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUFF = Path(sys.executable).with_name("ruff")
PIPES = ("import os\nr, w = os.pipe()\n", "from os import pipe\nr, w = pipe()\n", "import os\nr, w = os.pipe2(0)\n",
         "import subprocess\nsubprocess.Popen(['true'])\n", "import subprocess\nsubprocess.run(['true'])\n",
         "from subprocess import check_output\ncheck_output(['true'])\n")  # subprocess makes an error pipe per start


def ruff(source: str, filename: str) -> subprocess.CompletedProcess:
    """ruff on `source` as if it were the repository's file `filename` (the project's own configuration)."""
    return subprocess.run([str(RUFF), "check", "--no-cache", "--select", "TID251", "--stdin-filename", filename, "-"],
                          input=source, capture_output=True, text=True, cwd=ROOT, timeout=60)


@pytest.mark.parametrize("source", PIPES)
def test_a_pipe_in_the_harness_is_refused_by_the_gate(source: str) -> None:
    out = ruff(source, "sandbox/harness/new_module.py")
    assert out.returncode == 1 and "TID251" in out.stdout, (out.stdout, out.stderr)


@pytest.mark.parametrize("source", PIPES)
def test_a_pipe_on_the_host_is_the_host_s_own(source: str) -> None:
    """Near miss of the rule's reach: the host's processes share no uid with a program (sandbox/userns.py makes pipes)."""
    out = ruff(source, "sandbox/new_module.py")
    assert out.returncode == 0, (out.stdout, out.stderr)


def test_the_harness_makes_pipes_only_for_a_program_s_own_streams() -> None:
    out = subprocess.run([str(RUFF), "check", "--no-cache", "--select", "TID251", "sandbox/harness"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stdout
    users = [p.name for p in (ROOT / "sandbox" / "harness").glob("*.py") if "std_pipe()" in p.read_text()]
    assert sorted(users) == ["pid1.py", "session_tools.py", "warm_keeper.py"], users
