"""Red team rt30ae of issue 30's and 33's newest sandbox changes, through real session boxes and graders (tests/conftest.py
`any_grader`, red team 8's `session_host`) on docker, gvisor and userns, and a repository grader on docker and gvisor:

1. h30ab (session_box.ResultLine, accounting.Capture): a cell's result channel (the fd in argv[2]).
2. h30ac (job_protocol.reset reaps before it reads `procs`; zygote.ended): what a job leaves for the next reset.
3. h30ad (session_tools.list_dir, LIST_READ_MAX) and the other tools' bounds.
4. h33v (sandbox/repo/apply.py View.tree_bytes, INLINE_LINK): whose fault a full task tree is.

Classes 3, 5, 6, 8 and 9 of /work/shared/RED-TEAM.md. Verdicts only, no durations.

FINDINGS, all fixed since: a listing of 1,000 names of 255 non-UTF-8 bytes overflowed the channel's 1 MiB header and
lost the session (3; h30af: the names stop at LIST_BYTES_MAX of JSON, truncated); a `write` through a path of thousands
of parts made every folder in PID 1 outside any clock (3; h30af: over DEPTH_MAX parts refused, host and box). Fixed (h33x): a test patch whose files filled the tree made the right patch wrong_answer (4: the host counted the
environment's part only; now the dataset's files too, the task's infra_error past the bound).
HELD: a result line nested past the JSON decoder (RecursionError, not ValueError, leaves run_cell: the host's
"session supervisor" crash, lost; no cpu_s in that reply, and PID 1 leaves the interpreter to the host's destroy), a
result forged with the cell's own nonce (read from the kernel's frame: the cell's own value, by design), a result
written in pieces, results a background process writes into the next cell, a closed or redirected channel (1);
zombies, a setsid daemon and a fork chain left by a job or a session (2); long UTF-8 names listed whole (3); the
model's own full tree is its 0, an environment's own long links its infra_error (4). Measured, not tests (docker,
load 4-5): 40 cells each writing 1.3 MB of junk under the result cap were charged 0.028 s while the box's cgroup rose
0.111 s (plain cells: 0.003 vs 0.015), about 2 ms of PID 1 a cell; a writer left between cells costs PID 1's drain
about 1 ms a cell; a gVisor folder of 70,000 names lists in 0.1 s (LIST_READ_MAX); a job renicing the warm mother
recycles its box on every backend (documented: docs/sandboxes.md "The warm interpreter"), the zygote alone only
the zygote."""
from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest

from sandbox.build import HARNESS
from sandbox.session import SessionHost, SessionLimits
from sandbox.sync import SyncGrader
from tests import test_redteam_backends_8 as red_team_8

session_host = red_team_8.session_host  # the module's fixture: a SessionHost on any_grader's backend

pytestmark = pytest.mark.docker  # the images (and the root filesystems exported from them)

SANDBOX = {"pool_name": "pytest-redteam-backends-12", "pool_size": 1, "languages": ("python",)}
BACKENDS_CUT = {"runsc": "the same Sentry as gvisor (Docker's runsc runtime): the brief's backends are docker, gvisor, userns"}


def one(source: str, time_limit_s: float = 4) -> dict:
    return {"kind": "code", "language": "python", "memory_limit_mb": 64, "time_limit_s": time_limit_s,
            "completion": source, "tests": [{"stdin": "7\n", "expected_stdout": "7\n"}]}


def cells(host: SessionHost, codes: list[str], limits: SessionLimits | None = None) -> list[dict]:
    """Each cell's reply in one fresh session box, destroyed after."""
    box = host.take_box("python", limits or SessionLimits(time_limit_s=1), {})
    try:
        return [box.cell(c) for c in codes]
    finally:
        host.destroy(box)


def brief(r: dict) -> tuple:
    return r.get("status"), r.get("lost"), str(r.get("detail"))[:200], r.get("value")


# ----------------------------------------------------------------- 1. the result channel (h30ab)
# The cell learns its own nonce from the interpreter's frames (session_kernel.main's `request`: the cell runs two frames
# below it) and writes a line carrying it that is JSON nested past the decoder's recursion limit: ResultLine's
# json.loads raises RecursionError (no ValueError), which leaves run_cell through session_box.serve's `except
# Exception` as {"error": ...}; SessionBox.cell makes that `crashed`, lost ("session supervisor: RecursionError").
# Held: the cell's own crash, never `ok`, `error` nor infra (the registry drops a lost session's box).
NONCE = "import sys\nN = sys._getframe(2).f_locals['request']['nonce']\n"
DEEP = NONCE + ("import os\nos.write(int(sys.argv[2]), ('{\"nonce\": \"%s\", \"ok\": true, \"value\": ' % N).encode()"
                " + b'[' * 100000 + b']' * 100000 + b'}\\n')\n'done'")
# A result forged with the cell's own nonce is the cell's own value (docs/sessions.md "Sessions": a session's values
# are the policy's own, never a trusted check's): `ok`, that value.
FORGED = NONCE + ("import os\nos.write(int(sys.argv[2]), ('{\"nonce\": \"%s\", \"ok\": true, \"value\": \"7\"}\\n' % N)"
                  ".encode())\nimport time\ntime.sleep(0.3)\n'done'")


def test_a_result_line_nested_past_the_decoder_is_the_cells_own_crash(session_host: SessionHost) -> None:
    first, = cells(session_host, [DEEP])
    assert first["status"] == "crashed" and first.get("lost") is True, brief(first)


def test_a_result_forged_with_the_cells_own_nonce_is_only_its_own_value(session_host: SessionHost) -> None:
    forged, after = cells(session_host, [FORGED, "6 * 7"])
    assert (forged["status"], forged["value"]) == ("ok", "7"), brief(forged)
    # the interpreter's own line for that cell is still in the channel: dropped before the next cell starts
    assert (after["status"], after["value"]) == ("ok", "42"), brief(after)


# The cell's own result line written in pieces, the nonce itself cut across two writes, with pauses between them:
# ResultLine's scan resumes where it stopped (a nonce split across reads is still found) and the line counts once
# whole. Held: `ok`, the forged value (the cell's own).
SPLIT = NONCE + ("import os, time\nfd = int(sys.argv[2])\nline = ('{\"nonce\": \"%s\", \"ok\": true, \"value\": \"8\"}\\n' % N)"
                 ".encode()\ncut = line.index(N.encode()) + 16\nfor part in (line[:cut], line[cut:cut + 20], line[cut + 20:]):\n"
                 "    os.write(fd, part)\n    time.sleep(0.1)\ntime.sleep(0.2)\n'done'")


def test_a_result_line_written_in_pieces_counts_once_whole(session_host: SessionHost) -> None:
    split, after = cells(session_host, [SPLIT, "6 * 7"])
    assert (split["status"], split["value"]) == ("ok", "8"), brief(split)
    assert (after["status"], after["value"]) == ("ok", "42"), brief(after)


# A background process of cell 1 (forked, the result fd inherited) writes result lines with cell 1's nonce, and a
# forged `ok` line, while cell 2 runs: lines without cell 2's nonce are dropped unparsed; cell 2's own value comes back.
LATE = NONCE + ("import os, time\nfd = int(sys.argv[2])\nif os.fork() == 0:\n    time.sleep(0.3)\n"
                "    for _ in range(50):\n        os.write(fd, ('{\"nonce\": \"%s\", \"ok\": true, \"value\": \"1\"}\\n' % N).encode())\n"
                "        os.write(fd, b'{\"ok\": true, \"value\": \"1\"}\\n')\n        time.sleep(0.01)\n    os._exit(0)\n'first'")
SECOND = "import time\ntime.sleep(1.2)\n'second'"


def test_result_lines_a_background_process_writes_into_the_next_cell_are_dropped(session_host: SessionHost) -> None:
    first, second = cells(session_host, [LATE, SECOND], SessionLimits(time_limit_s=2))
    assert (first["status"], first["value"]) == ("ok", "'first'"), brief(first)
    assert (second["status"], second["value"]) == ("ok", "'second'"), brief(second)


# The cell closes its result channel (the interpreter's write fails: it exits) or points it at /dev/null (no result
# ever comes: the wall limit): the cell's own crash or time_limit, lost, never `ok` nor a reply without a status.
CLOSED = "import os, sys\nos.close(int(sys.argv[2]))\n'x'"
NULLED = "import os, sys\nos.dup2(os.open('/dev/null', os.O_WRONLY), int(sys.argv[2]))\n'x'"


@pytest.mark.parametrize("code,want", [(CLOSED, "crashed"), (NULLED, "time_limit")], ids=["closed", "nulled"])
def test_a_cell_that_closes_or_redirects_its_result_channel_gets_its_own_verdict(session_host: SessionHost, code: str,
                                                                                 want: str) -> None:
    r, = cells(session_host, [code], SessionLimits(time_limit_s=0.25))
    assert r["status"] == want and r.get("lost") is True, brief(r)


# ----------------------------------------------------------------- 2. what a job leaves for the next reset (h30ac)
# A job leaves zombies (children it never waits for, their parent alive until the kill), a setsid double-forked
# daemon, and a fork chain whose every link forks its successor and exits (a process that keeps dying and reappearing
# at a new pid: killed by pid alone, as kill_sparing does where one uid runs everything, it is always one fork ahead),
# each marked `rt30ae-left` in its command line. The next job, the right answer, is wrong while any of them is alive.
LEAVE = """import os, subprocess, sys, time
CHAIN = "import os\\nwhile True:\\n    if os.fork():\\n        os._exit(0)\\n    os.setsid() if os.getpid() % 2 else None\\n"
for _ in range(3):
    if os.fork() == 0:
        os._exit(0)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        subprocess.Popen([sys.executable, '-c', 'import time  # rt30ae-left\\nwhile True: time.sleep(0.01)'])
        subprocess.Popen([sys.executable, '-c', CHAIN + '# rt30ae-left'])
    os._exit(0)
time.sleep(0.5)
print(input())
"""
PROBE = """import os
def left():
    for p in os.listdir('/proc'):
        try:
            if p.isdigit() and int(p) != os.getpid() and b'rt30ae-left' in open(f'/proc/{p}/cmdline', 'rb').read():
                return True
        except OSError:
            pass
    return False
print(int(input()) + (1 if left() else 0))
"""


def test_nothing_a_job_leaves_zombies_orphans_or_a_fork_chain_outlives_its_reset(any_grader: SyncGrader) -> None:
    """Class 6: the next job sees none of the last job's processes, whatever they did to dodge the kill."""
    r = any_grader.grade(one(LEAVE))
    assert r["verdict"] == "accepted", r
    for _ in range(2):
        got = any_grader.grade(one(PROBE))
        assert got["verdict"] == "accepted" and not got["retryable"], got


# The same in a session box (session_box.py "reset": job_protocol.reset, then the box kept as a spare): a cell leaves
# the zombies, the daemon and the fork chain; the next session, in the same box, finds none of them.
LEAVE_CELL = LEAVE.replace("print(input())\n", "'left'\n")
PROBE_CELL = PROBE.replace("print(int(input()) + (1 if left() else 0))\n", "left()\n")


def test_nothing_a_session_leaves_outlives_its_reset(any_grader: SyncGrader) -> None:
    """Class 6 for sessions: a spare reset clean serves the next session with none of the last one's processes."""
    host = SessionHost(any_grader.grader.config, max_sessions=2, spares=1, backend=any_grader.grader.backend)
    try:
        box = host.take_box("python", SessionLimits(time_limit_s=2), {})
        first = box.box.id
        left = box.cell(LEAVE_CELL)
        assert (left["status"], left["value"]) == ("ok", "'left'"), brief(left)
        alive = box.cell(PROBE_CELL)  # the probe sees them while the session lives
        assert (alive["status"], alive["value"]) == ("ok", "True"), brief(alive)
        host.give_back(box)
        box = host.take_box("python", SessionLimits(time_limit_s=2), {})
        try:
            assert box.box.id == first, "the spare was not kept: its reset was not clean"
            probe = box.cell(PROBE_CELL)
        finally:
            host.destroy(box)
        assert (probe["status"], probe["value"]) == ("ok", "False"), brief(probe)
    finally:
        host.remove_all()


# ----------------------------------------------------------------- 3. listings (h30ad)
# Names of 255 bytes: 255 non-UTF-8 bytes are 1,530 bytes of JSON each (surrogateescape, then ensure_ascii's \\udcXX),
# ASCII ones about 270. The listing is bounded in names (LIST_READ_MAX, max) but not in bytes, and its reply is one
# header of the channel, at most 1 MiB (sandbox/channel.py MAX_HEADER).
def names(n: int, non_utf8: bool) -> str:
    """A cell making `n` files of 255-byte names in /work; its value is how many /work holds."""
    tail = "b'\\xff' * 251" if non_utf8 else "b'a' * 251"
    return (f"import os\nos.chdir('/work')\nfor i in range({n}):\n    open(b'%04d' % i + {tail}, 'wb').close()\n"
            "len(os.listdir(b'.'))")


def _listing(host: SessionHost, make: str, max_entries: int) -> tuple[dict, dict]:
    box = host.take_box("python", SessionLimits(time_limit_s=5), {})
    try:
        made = box.cell(make)
        return made, box.listdir(".", max_entries)
    finally:
        host.destroy(box)


def test_a_listing_of_many_long_utf8_names_is_answered(session_host: SessionHost) -> None:
    """Held: 1,000 names of 255 ASCII bytes (about 280 KB of JSON) are listed whole."""
    made, listed = _listing(session_host, names(1000, False), 1000)
    assert made["status"] == "ok" and int(made["value"]) >= 1000, brief(made)
    assert listed.get("ok") is True and len(listed["entries"]) == 1000 and not listed["truncated"], \
        {k: v for k, v in listed.items() if k != "entries"}


# Was a hole (class 8/9): ~1.5 MB of JSON past the channel's 1 MiB header lost the session; closed by h30af
# (session_tools.LIST_BYTES_MAX: the names stop at 512 KiB of JSON, truncated).
def test_a_listing_of_many_long_non_utf8_names_is_answered_not_lost(session_host: SessionHost) -> None:
    """(4,000 ASCII names, ~1.1 MB, were answered: the host checks its 1 MiB only between reads, and one read took
    them whole; the byte bound is the channel's chunking, not the listing's.)"""
    made, listed = _listing(session_host, names(1000, True), 1000)
    assert made["status"] == "ok" and int(made["value"]) >= 1000, brief(made)
    assert listed.get("ok") is True and not listed.get("lost"), {k: v for k, v in listed.items() if k != "entries"}
    assert listed["truncated"] and 0 < len(listed["entries"]) < 1000, len(listed["entries"])


# The other tools: `read` and `list` are bounded by max (and the host's max_field_bytes), shell output by its Capture,
# the grade's snapshot by _Listing (names' bytes, entries, time) and DEPTH_MAX. A tool's PATH is not: `write` makes
# every folder its path names (session_tools._walk_to, create=True), one mkdir and open per part, in PID 1, outside
# any cell's clock. Measured: a 40 KB path made 20,000 nested folders in 9.5 s on gVisor (5,000 in 1.7 s; no inode
# cap there); docker stopped at its inode cap (4,095 folders, then "cannot open the directory").
DEPTH = 3000
COUNT_DEPTH = "import os\nd = 0\nos.chdir('/work')\nwhile os.path.isdir('a'):\n    os.chdir('a')\n    d += 1\nd"


# Was a hole (class 5/9), closed by h30af: a tool's path of over DEPTH_MAX parts is refused in the box
# (session_tools.tool_parts) and first on the host (verifier/sessions.py PATH_PARTS_MAX).
def test_a_write_through_a_path_of_thousands_of_folders_is_refused(session_host: SessionHost) -> None:
    sys.path.insert(0, str(HARNESS))  # the harness's modules import each other by name (tests/test_session_list_bound.py)
    import session_tools

    box = session_host.take_box("python", SessionLimits(time_limit_s=2), {})
    try:
        wrote = box.write("a/" * DEPTH + "f", b"x")
        depth = box.cell(COUNT_DEPTH)
        near = box.write("a/" * (session_tools.DEPTH_MAX - 1) + "f", b"x")  # DEPTH_MAX parts: written
    finally:
        session_host.destroy(box)
    assert wrote.get("ok") is False and f"at most {session_tools.DEPTH_MAX} parts" in wrote.get("detail", ""), wrote
    assert depth["status"] == "ok" and int(depth["value"]) == 0, (wrote, brief(depth))
    assert near.get("ok") is True, near


# ----------------------------------------------------------------- 4. whose fault a full task tree is (h33v)
# A python environment (tests/test_repo_redteam_tree.py's `plain`: a 3 MiB copy, pkg/big.py) graded with a 20 MiB
# /work and tree (/mnt) of 8192 inodes, so the host's bound leaves the tree WORK_SPARE (16 MiB) past the environment's
# copies and long links. The task's own files (its overrides: the test patch's, the decoys', the model's patch's) were
# extracted into that spare, and the host counted nothing of them in bytes (repo_job._tree_view: the environment's part
# alone), so a runner's `tree_full` was charged to the model (repo_job.py: "the task's files do not fit", wrong_answer)
# whoever's files filled it. Fixed (h33x): the dataset's files count with the environment's (apply.own_bytes), the
# spare is the model's patch's alone.
_DATA = 4400  # new one-line files, a 4 KiB page each on either tmpfs: 17 MiB, over the 16.98 MiB the copies leave


_OWN_LINKS = 4600  # links of the environment's own with 208-byte targets: 4,600 pages (18 MiB) on Linux's tmpfs


def _new_files(prefix: str, n: int, suffix: str = ".txt") -> str:
    return "".join(f"--- /dev/null\n+++ b/{prefix}{i:05d}{suffix}\n@@ -0,0 +1 @@\n+1\n" for i in range(n))


@pytest.fixture(scope="module", params=["docker", "gvisor"])
def tree(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A grader of the `plain` environment (and `ownlinks`: the same with _OWN_LINKS long links of its own) with a 20 MiB /work (and /mnt) of 8192 inodes, on docker and gvisor."""
    from sandbox.sync import SyncGrader
    from tests.helpers import sandbox_config
    from tests.test_repo_redteam_tree import WORK_MB, _env

    root, recipes = tmp_path_factory.mktemp("rt30ae-envs"), tmp_path_factory.mktemp("rt30ae-recipes")
    _env(root, tmp_path_factory.mktemp("rt30ae-plain"), recipes, "plain")
    own = tmp_path_factory.mktemp("rt30ae-ownlinks")
    (own / "links").mkdir()
    for i in range(_OWN_LINKS):  # the environment's own links (committed as links), each target past INLINE_LINK
        (own / "links" / f"l{i:05d}").symlink_to("../" + "t" * 200 + f"{i:05d}")
    _env(root, own, recipes, "ownlinks")
    g: Any = SyncGrader(sandbox_config(request.param, languages=("python",), pool_size=1,
                                       pool_name=f"test-rt30ae-tree-{request.param}", repo_environments=str(root),
                                       repo_pool_size=1, work_tmpfs_mb=WORK_MB, tmpfs_inodes=8192))
    assert g.grader.available, g.grader.unavailable_reason()
    try:
        yield g
    finally:
        g.close()


def _grade(g: Any, completion: str, tests: str, environment: str = "plain") -> dict:
    from tests.helpers import grade_pytest_task
    from tests.test_repo_redteam_tree import _CMD

    return grade_pytest_task(g, environment, completion, tests, _CMD, "rt30ae")


def test_an_environment_of_long_links_of_its_own_is_its_own_infra_error(tree: Any) -> None:
    """Held (h33v, the `links` branch of view_listing; rt33s tested the files' links): 4,600 links the environment
    holds itself, targets of 208 bytes, and its 3 MiB copy are over the 20 MiB tree with 16 MiB spare: the
    environment's infra_error, not retryable, never the right patch's 0."""
    from tests.test_repo_redteam_tree import _GOLD, _TESTS

    result = _grade(tree, _GOLD, _TESTS, "ownlinks")
    assert result["verdict"] == "infra_error" and "long links" in result["detail"] and not result["retryable"], result


def test_the_right_patch_is_accepted_with_a_few_data_files(tree: Any) -> None:
    """Near miss of the finding below: 100 data files in the test patch fit the spare; the right patch pays."""
    from tests.test_repo_redteam_tree import _GOLD, _TESTS

    result = _grade(tree, _GOLD, _TESTS + _new_files("tests/data/f", 100))
    assert (result["verdict"], result["score"]) == ("accepted", 1.0), result


def test_a_model_patch_that_fills_the_tree_is_its_own_zero_never_infra(tree: Any) -> None:
    """Held (class 8): the right change plus 4,400 modules of its own (a patch adds only .py files) fill the tree: the model's 0, never infra_error."""
    from tests.test_repo_redteam_tree import _GOLD, _TESTS

    result = _grade(tree, _GOLD + _new_files("pkg/f", _DATA, ".py"), _TESTS)
    assert result["verdict"] != "infra_error" and result["score"] == 0.0, result
    assert "do not fit the sandbox's tree" in result["detail"], result  # the runner's tree_full, not a refusal


def test_a_test_patch_that_fills_the_tree_never_makes_the_right_patch_wrong(tree: Any) -> None:
    """Fixed (h33x; was a strict xfail: the RIGHT patch got wrong_answer, "the task's files do not fit the sandbox's
    tree"): the dataset's own files count, a page each, with the environment's part (repo_job._tree_view,
    apply.own_bytes); 4,400 data files leave the patch less than WORK_SPARE: the task's infra_error, not retryable,
    naming the bound, before any container."""
    from tests.test_repo_redteam_tree import _GOLD, _TESTS

    result = _grade(tree, _GOLD, _TESTS + _new_files("tests/data/f", _DATA))
    assert result["verdict"] == "infra_error" and not result["retryable"], result
    assert "its own files" in result["detail"] and "work_tmpfs_mb" in result["detail"], result


def _fitting(g: Any) -> int:
    """How many one-line data files a test patch may add so that the environment's part, the dataset's and WORK_SPARE
    fill the tree exactly (the host's own plan of the same task, as tests/helpers.py grade_pytest_task makes it)."""
    from sandbox.contract import parse_task
    from sandbox.repo.apply import PAGE
    from sandbox.repo_job import WORK_SPARE, RepoPlan, make_repo_plan
    from tests.test_repo_redteam_tree import _CMD, _GOLD, _TESTS

    task = parse_task({"id": "rt30ae", "kind": "repo", "environment": "plain", "completion": _GOLD, "test_patch": _TESTS,
                       "test_cmd": _CMD, "fail_to_pass": ["tests/test_mod.py::test_sum"],
                       "pass_to_pass": ["tests/test_mod.py::test_zero"], "report": "pytest"})
    plan = make_repo_plan(task, g.grader.config)
    assert isinstance(plan, RepoPlan), plan
    return ((g.grader.config.work_tmpfs_mb << 20) - WORK_SPARE - plan.copy_bytes - plan.task_bytes) // PAGE


def test_a_test_patch_that_fits_exactly_pays_the_right_patch_and_one_file_more_is_the_task_s(tree: Any) -> None:
    """The bound's edge: the test patch's data files filling the tree to WORK_SPARE exactly, the right patch is
    accepted (1.0; the runner makes that tree on docker and gvisor); one data file more is the task's infra_error,
    not retryable, never the right patch's 0."""
    from tests.test_repo_redteam_tree import _GOLD, _TESTS

    n = _fitting(tree)
    assert 0 < n < _DATA, n
    result = _grade(tree, _GOLD, _TESTS + _new_files("tests/data/f", n))
    assert (result["verdict"], result["score"]) == ("accepted", 1.0), result
    result = _grade(tree, _GOLD, _TESTS + _new_files("tests/data/f", n + 1))
    assert result["verdict"] == "infra_error" and not result["retryable"] and "its own files" in result["detail"], result


def test_a_model_patch_that_fills_the_spare_beside_a_full_test_patch_is_its_own_zero(tree: Any) -> None:
    """Held with the dataset's share full: the right change plus 4,400 modules of its own (17 MiB, over the 16 MiB
    WORK_SPARE) fill the tree made with the exactly fitting test patch: the model's wrong_answer, never infra_error."""
    from tests.test_repo_redteam_tree import _GOLD, _TESTS

    result = _grade(tree, _GOLD + _new_files("pkg/f", _DATA, ".py"), _TESTS + _new_files("tests/data/f", _fitting(tree)))
    assert (result["verdict"], result["score"]) == ("wrong_answer", 0.0) and not result["retryable"], result
    assert "do not fit the sandbox's tree" in result["detail"], result
