"""Sessions: a persistent interpreter per caller, for multi-turn tool use (docs/sessions.md "Sessions").

A session owns one sandbox of its own, started by the grading pool's backend (sandbox/backend.py
`start_session`: a Docker container, or a runsc sandbox under `--sandbox-backend gvisor`) with the
pool's hardening (no network, read-only root, capped tmpfs, no capabilities, non-root,
pids/memory/CPU limits) and its own PID 1, sandbox/harness/session_box.py, which runs
the interpreter (session_kernel.py) and frames every reply. So a session never shares a process,
a file or memory with another session or with a grading job. When a session ends between cells,
its container is reset as the grading pool resets a container between jobs (every process killed,
/work /tmp /dev/shm wiped, SysV IPC removed, PID 1 checked untampered) and kept, up to `spares`,
for a later session: a container start costs ~0.3 CPU-seconds of the Docker daemon, a reset a few
milliseconds. Ended mid-cell, lost, or not clean, the container is removed. A cell that runs out of time or memory, or kills the interpreter,
ends only its own session: the reply says so, and later cells answer "lost" -- unless the
session was opened with `replay`, in which case a fresh container re-runs the cells that
finished before, and the session goes on (`restored` in the reply).

Blocking Docker and channel calls run in this module's thread pool; nothing here blocks the loop.
"""
from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import docker

from .backend import LABEL_OWNER, LABEL_SESSION, OWNER, Backend, Box, DockerBackend
from . import watchdog
from .channel import ChannelError
from .config import SandboxConfig
from .contract import CELL_STATUSES
from .repo_job import GO_ENV

log = logging.getLogger(__name__)

LANGUAGES = ("python",)  # others later: each needs its own kernel program (docs/sessions.md "Sessions")
# The cells a replay session keeps in the server's memory to re-run: 1,000 cells of 1 MiB each
# were a GiB per session (red-team finding); past this a replay session's cell is refused.
HISTORY_MAX_CHARS = 8 << 20
# A replay (up to max_cells cells in the one call that restores the session) may take twice the
# wall time its cells took the first time plus REPLAY_SLACK_S, at most REPLAY_MAX_S: cells that
# ran fast once but hang when re-run (they read the clock, the network is gone...) must not hold
# the caller for max_cells times a cell's wall limit. Past it the session is lost, and says why.
REPLAY_SLACK_S = 10.0
REPLAY_MAX_S = 300.0
# A shell command's toolchain settings by the environment's language, as a repo job's test command gets
# them (sandbox/repo_job.py `_env`): Go's modules on and nothing fetched (no network), its caches in
# /tmp, its test binaries built in /work (where a program may run; go removes them after).
SHELL_ENV = {"go": GO_ENV | {"GOTMPDIR": "/work"}}
SNAPSHOT_ENTRIES_MAX_BYTES = 8 << 20  # sandbox/harness/session_tools.py ENTRIES_MAX_BYTES
# A walk of a session's tree by its PID 1 (a grade's read, a fork's or snapshot's changes: session_tools.snapshot,
# delta) may take TREE_WALK_S; past it PID 1 stops and answers the session's own refusal naming it (a grade's
# wrong_answer, a fork's RESOURCE_EXHAUSTED), well before the host stops waiting for the answer (TREE_WAIT_S: the
# walk and the reply's transfer, up to 256 MiB of files), past which the session is lost. Red team rt30y: a grade's
# walk of 300,000 empty folders on gVisor ran to the host's 120 s, a raised grade (ungraded), not the session's 0.
TREE_WALK_S = 60.0
TREE_WAIT_S = 2 * TREE_WALK_S


class StateTooLarge(Exception):
    """A fork's or snapshot's changes did not fit the box's /work (session_box.py "start": ENOSPC
    applying them): the session's doing, never retried on another box."""


class StateUnusable(Exception):
    """A fork's or snapshot's changes the box refused to apply (session_box.py "start": apply_delta's
    ValueError on a name or link of the session's tree): the session's doing, never retried on another box."""


@dataclass(frozen=True)
class SessionEnvironment:
    """The repository environment a session was opened on (docs/sessions.md "Sessions on an
    environment"): its name and its build's tree (resolved once, at open: the session's diff is taken
    against this tree; it is bound read-only into the session's box, the lower layer of its /work)."""

    name: str
    tree: str
    language: str = "python"
    tree_mb: int = 0  # the memory its tree takes in a session's /work (0 with layered trees: "The layers")


@dataclass(frozen=True)
class SessionState:
    """A session's files as a fork or a snapshot keeps them (docs/sessions.md "Fork and snapshot"):
    its environment (the read-only tree every box of it shares, never copied) and the changes to that
    tree (session_tools.delta: the changed files only, the upper layer). A box started from it links
    the environment's tree and applies the changes."""

    environment: SessionEnvironment
    entries: bytes  # session_tools.delta's listing (JSON)
    data: bytes  # the changed files' bytes, in the listing's order

    @property
    def size(self) -> int:
        return len(self.entries) + len(self.data)


@dataclass(frozen=True)
class SessionLimits:
    """What one session may use; the registry clamps a caller's values to the server's maxima."""

    time_limit_s: float = 10.0  # CPU seconds per cell (every process of the session)
    memory_limit_mb: int = 512  # the whole session: interpreter, its children, /work
    pids_limit: int = 64  # processes + threads of the session
    max_output_bytes: int = 64 << 10  # stdout and stderr kept per cell, each; more is cut and flagged
    max_value_bytes: int = 64 << 10  # characters of the last expression's repr
    max_cells: int = 1000  # cells per session (bounds the replay history too)

    @property
    def wall_s(self) -> float:
        return self.time_limit_s * 2 + 1.0


# Characters of each field of a cell's error (ename, evalue, traceback) as a reply carries it. The
# interpreter's kernel caps them too (sandbox/harness/session_kernel.py TRACEBACK_MAX), but the kernel
# runs in the program's interpreter, which may rewrite it: the bound that holds is this one.
ERROR_FIELD_MAX = 16 << 10


def _bounded_result(out: dict, lim: SessionLimits) -> dict:
    """A cell's value and error as the program's interpreter sent them, bounded here, where the reply
    is made (docs/sessions.md "Sessions"): the value a string of at most max_value_bytes characters
    (`value_truncated`), the error's fields strings of at most ERROR_FIELD_MAX characters each."""
    value = out.get("value")
    if value is not None:
        value = value if isinstance(value, str) else json.dumps(value)
        if len(value) > lim.max_value_bytes:
            value, out["value_truncated"] = value[:lim.max_value_bytes], True
        out["value"] = value
    if "error" in out:
        error = out["error"] if isinstance(out["error"], dict) else {}
        out["error"] = {k: str(error.get(k, ""))[:ERROR_FIELD_MAX] for k in ("ename", "evalue", "traceback")}
    return out


# A session the memory limit ended: its one wording, a cell's or a tool's.
OVER_MEMORY = "the session went over its memory limit"

class SessionBox:
    """One session's sandbox and its channel (blocking: call from a thread). After its session
    the sandbox is reset and may serve a later one (SessionHost.give_back), never two at once."""

    def __init__(self, backend: Backend, image: str, language: str, limits: SessionLimits, start_timeout_s: float,
                 env: str = "", tree: str = "copy") -> None:
        """`env`: a repository environment's tree, read-only at /srv in the box (its sessions' lower layer);
        `tree`: how it becomes the session's /work, "copy" or "layers" (docs/sessions.md "The layers")."""
        self.backend, self.limits, self.language, self.env, self.tree = backend, limits, language, env, tree
        self.mem_mb, self.sessions = limits.memory_limit_mb, 0
        self.start_timeout_s = start_timeout_s
        self.box: Box = backend.start_session(language, image, limits.memory_limit_mb, limits.pids_limit, env)
        self.box.sentry_mb = backend.sentry_mb(self.box)  # Backend.at_rest compares with it after each session
        self.channel = self.box.channel

    def start(self, limits: SessionLimits, files: dict[str, bytes], state: SessionState | None = None) -> None:
        """Begin a session here: its memory limit, its files (or, in a box of an environment, its tree
        linked into /work, and a fork's or snapshot's changes applied on it), a fresh interpreter.
        Raises on failure."""
        if limits.memory_limit_mb != self.mem_mb:
            self.backend.set_memory(self.box, limits.memory_limit_mb)
            self.mem_mb = limits.memory_limit_mb
        self.limits = limits
        self.sessions += 1
        self.backend.begins(self.box)  # what the box holds now is not the session's (the watchdog, oom_killed)
        blobs = {f"file:{k}": v for k, v in files.items()}
        if state is not None:
            blobs.update(delta_entries=state.entries, delta_data=state.data)
        head, _ = self.channel.request({"op": "start", "files": list(files), "cpu_s": limits.time_limit_s,
                                        "tree": self.tree if self.env else "", "delta": state is not None}, blobs,
                                       timeout_s=self.start_timeout_s + 30.0)
        if head.get("no_space"):
            raise StateTooLarge(str(head.get("error")))
        if head.get("unusable"):
            raise StateUnusable(str(head.get("error")))
        if not head.get("ok"):
            raise ChannelError(f"session start failed: {head.get('error')}")

    def reset(self) -> bool:
        """End the session in place (sandbox/harness/job_protocol.py's reset); True when the container is
        clean and its gVisor kernel kept none of the session's memory (Backend.at_rest), and, in a box
        of an environment, its tree is linked again for the next session (session_box.py "prepare")."""
        try:
            head, _ = self.channel.request({"op": "reset"}, timeout_s=30.0)
            if not head.get("clean") or not self.backend.at_rest(self.box):
                return False
            if self.env:  # its environment's tree linked ahead: the next session's start (a fork) skips it
                head, _ = self.channel.request({"op": "prepare", "tree": self.tree}, timeout_s=60.0)
                return bool(head.get("ok"))
        except ChannelError:
            return False
        return True

    def cell(self, code: str) -> dict:
        """Run one cell; a broken channel (the container died) is the session's loss, not a crash here."""
        lim = self.limits
        head = {"op": "cell", "cpu_s": lim.time_limit_s, "wall_s": lim.wall_s, "out_max": lim.max_output_bytes,
                "err_max": lim.max_output_bytes, "value_max": lim.max_value_bytes}
        try:
            reply, blobs = self.channel.request(head, {"code": code.encode("utf-8", "surrogatepass")},
                                                timeout_s=lim.wall_s + 10.0)
        except ChannelError as e:
            reply, blobs = self._lost(e), {}
        reply = self._named(reply)
        if "error" in reply and "status" not in reply:
            return {"status": "crashed", "detail": f"session supervisor: {reply['error']}", "lost": True,
                    "stdout": "", "stderr": ""}
        out = {k: v for k, v in reply.items() if k != "blobs"}
        for name in ("stdout", "stderr"):
            out[name] = blobs.get(name, b"").decode("utf-8", "replace")
            out[f"{name}_truncated"] = int(reply.get(f"{name}_bytes", 0)) > lim.max_output_bytes
        return _bounded_result(out, lim)

    def read(self, path: str, max_bytes: int) -> dict:
        try:
            reply, blobs = self.channel.request({"op": "read", "path": path, "max": max_bytes}, timeout_s=30.0)
        except ChannelError as e:
            return {"ok": False, "detail": f"the session's container stopped answering ({e})"}
        return {"ok": bool(reply.get("ok")), "detail": str(reply.get("detail") or reply.get("error") or ""),
                "truncated": bool(reply.get("truncated")), "data": blobs.get("data", b""),
                "lost": bool(reply.get("lost"))}

    def tool(self, head: dict, blobs: dict[str, bytes], timeout_s: float = 30.0) -> tuple[dict, dict[str, bytes]]:
        """One tool request of a session on an environment (sandbox/harness/session_tools.py); a
        container that stops answering is the session's loss (`lost`), as for a cell."""
        try:
            reply, out = self.channel.request(head, blobs, timeout_s=timeout_s)
        except ChannelError as e:
            reply, out = self._lost(e), {}
        return self._named(reply), out

    def _lost(self, e: ChannelError) -> dict:
        """A broken channel's reply: the session's loss, a cell's or a tool's alike (red team 19 of issue 30)."""
        if self.backend.oom_killed(self.box):  # under Docker's runsc runtime an OOM kill takes the whole sandbox
            return {"status": "memory_limit", "detail": OVER_MEMORY, "lost": True}
        note = self.backend.death_note(self.box)  # how it ended (Backend.death_note): a runtime's crash, or a kill
        return {"status": "crashed", "lost": True,
                "detail": f"the session's container stopped answering ({e}{'; ' + note if note else ''})"}

    def _named(self, reply: dict) -> dict:
        """A lost session's reply named by the host's watchdog where it killed the box: under gVisor no cgroup
        counts an OOM kill or a thread storm (sandbox/watchdog.py), so the kill is named here."""
        over = self.box.killed or getattr(self.channel, "over", "")
        if reply.get("lost") and over == watchdog.MEMORY:
            return {**reply, "status": "memory_limit", "detail": OVER_MEMORY}
        if reply.get("lost") and over == watchdog.THREADS:
            return {**reply, "status": "crashed",
                    "detail": watchdog.verdict(over, self.backend.config.host_threads_per_sandbox)[1]}
        return reply

    def shell(self, command: str, cpu_s: float, out_max: int) -> dict:
        """One shell command: status ok (exit_code) or time_limit, its output capped and flagged."""
        wall_s = cpu_s * 2 + 1.0
        reply, blobs = self.tool({"op": "shell", "cpu_s": cpu_s, "wall_s": wall_s, "out_max": out_max,
                                  "env": SHELL_ENV.get(self.language, {})},
                                 {"command": command.encode("utf-8", "surrogatepass")}, wall_s + 10.0)
        if "error" in reply and "status" not in reply:
            return {"status": "crashed", "detail": f"session supervisor: {reply['error']}", "lost": True,
                    "stdout": "", "stderr": ""}
        out = dict(reply)
        for name in ("stdout", "stderr"):
            out[name] = blobs.get(name, b"").decode("utf-8", "replace")
            out[f"{name}_truncated"] = int(reply.get(f"{name}_bytes", 0)) > out_max
        return out

    def write(self, path: str, data: bytes) -> dict:
        reply, _ = self.tool({"op": "write", "path": path}, {"data": data})
        return reply

    def listdir(self, path: str, max_entries: int) -> dict:
        reply, _ = self.tool({"op": "list", "path": path, "max": max_entries}, {})
        return reply

    def snapshot(self, max_bytes: int, max_files: int) -> dict:
        """The tree as data (session_tools.snapshot): {"ok", "entries", "data"} or {"ok": False, "detail"}."""
        reply, blobs = self.tool({"op": "snapshot", "max": max_bytes, "max_files": max_files, "walk_s": TREE_WALK_S},
                                 {}, TREE_WAIT_S)
        listing = blobs.get("entries", b"")
        if not reply.get("ok") or len(listing) > SNAPSHOT_ENTRIES_MAX_BYTES:
            return {**reply, "ok": False, "data": b""}
        try:
            entries = json.loads(listing)
        except ValueError as e:
            return {**reply, "ok": False, "detail": f"the tree's listing does not read ({str(e)[:100]})", "data": b""}
        return {**reply, "entries": entries, "data": blobs.get("data", b"")}

    def delta(self, work_bytes: int, max_files: int, max_data: int = 0, mem_bytes: int = 0) -> dict:
        """The tree's changes since the environment was unpacked (session_tools.delta): {"ok",
        "entries", "data"} (the listing as sent, for a fork's start) or {"ok": False, "detail"}
        ("too_large": its files over `work_bytes` written out in /work, its changed files over
        `max_data`, or more than a box of `mem_bytes` can take)."""
        reply, blobs = self.tool({"op": "delta", "max": work_bytes, "max_files": max_files, "max_data": max_data,
                                  "mem": mem_bytes, "walk_s": TREE_WALK_S}, {}, TREE_WAIT_S)
        listing = blobs.get("entries", b"")
        if not reply.get("ok") or len(listing) > SNAPSHOT_ENTRIES_MAX_BYTES:
            return {**reply, "ok": False}
        return {**reply, "entries": listing, "data": blobs.get("data", b"")}

    def memory_bytes(self) -> int:
        """What the sandbox's memory limit counts now, 0 when unknown."""
        return self.backend.memory_bytes(self.box)

    def destroy(self) -> None:
        """Remove the sandbox: every process of the session dies with it."""
        try:
            self.backend.remove(self.box)
        except Exception as e:  # already gone, or the daemon is down: the reap at the next start takes it
            log.warning("session: could not remove %s: %s", self.box.id, e)


class Session:
    """One caller's session: its box, the cells that finished (for replay) and whether it is lost."""

    def __init__(self, host: SessionHost, language: str, limits: SessionLimits, files: dict[str, bytes],
                 replay: bool, environment: SessionEnvironment | None = None) -> None:
        self.host, self.language, self.limits, self.files, self.replay = host, language, limits, files, replay
        self.environment = environment  # a session on a repository environment (docs/sessions.md)
        self.box: SessionBox | None = None
        self.history: list[str] = []  # replay sessions only: the cells that finished, to re-run
        self.history_chars = 0
        self.history_wall_s = 0.0  # what the history's cells took the first time (the replay's budget)
        self.lost = ""
        self.cells = 0
        self.lock = asyncio.Lock()  # one cell at a time: a session is one interpreter

    async def _exclusive(self, work):
        """Run `work()` under the session's lock and to its end even when the caller is cancelled
        (deadline, hang-up): its thread holds the container's channel, so the next call waits for
        it instead of interleaving with it, and a finished cell still counts for replay."""
        await self.lock.acquire()
        task = asyncio.ensure_future(work())
        task.add_done_callback(lambda _t: self.lock.release())
        return await asyncio.shield(task)

    async def run(self, code: str) -> dict:
        """Run a cell; the reply's `status` is one of CELL_STATUSES (docs/sessions.md "Sessions")."""
        return await self._exclusive(lambda: self._run(code))

    async def _run(self, code: str) -> dict:
        box = self.box
        if self.lost or box is None:
            return {"status": "lost", "detail": self.lost or "the session is closed", "lost": True,
                    "stdout": "", "stderr": ""}
        if self.cells >= self.limits.max_cells:
            return {"status": "error", "stdout": "", "stderr": "", "error": {
                "ename": "SessionLimit", "evalue": f"the session ran its {self.limits.max_cells} cells", "traceback": ""}}
        if self.replay and self.history_chars + len(code) > HISTORY_MAX_CHARS:
            return {"status": "error", "stdout": "", "stderr": "", "error": {
                "ename": "SessionLimit", "traceback": "",
                "evalue": f"a replay session keeps at most {HISTORY_MAX_CHARS} characters of cells to re-run"}}
        self.cells += 1
        reply = await self.host.call(box.cell, code)
        if not reply.get("lost"):
            if self.replay:
                self.history.append(code)
                self.history_chars += len(code)
                self.history_wall_s += float(reply.get("wall_s") or 0.0)
            return reply
        await self._drop(box)
        if not self.replay or self.lost:  # closed while the cell ran: nothing to restore
            self.lost = self.lost or f"an earlier cell ended the session ({reply['status']}: {reply.get('detail', '')})"
            return reply
        why = await self._restore()
        return {**reply, "lost": bool(why), "restored": not why,
                "detail": reply.get("detail", "") + (f"; replay failed: {why}" if why else
                                                     f"; restored by replaying its {len(self.history)} cells")}

    async def _drop(self, box: SessionBox) -> None:
        """Remove a box that a cell ended (it may already be gone: closed meanwhile)."""
        if self.box is box:
            self.box = None
        await self.host.call(self.host.destroy, box)

    async def _restore(self) -> str:
        """A fresh box re-runs the finished cells (their output dropped) within the replay budget
        (REPLAY_MAX_S); '' when it worked."""
        try:
            box = await self.host.call(self.host.take_box, self.language, self.limits, self.files)
        except Exception as e:
            self.lost = f"the session could not be restarted for replay: {type(e).__name__}"
            return self.lost
        budget = min(REPLAY_MAX_S, 2 * self.history_wall_s + REPLAY_SLACK_S)
        deadline = time.monotonic() + budget
        for i, code in enumerate(self.history):
            if self.lost:  # closed while replaying: it no longer counts toward admission (red-team finding)
                break
            reply = await self.host.call(box.cell, code)
            if reply.get("lost"):
                await self.host.call(self.host.destroy, box)
                self.lost = f"replaying the session's cells ended it again ({reply['status']} at cell {i + 1})"
                return self.lost
            if time.monotonic() > deadline and i + 1 < len(self.history):
                await self.host.call(self.host.destroy, box)
                self.lost = (f"replaying the session's {len(self.history)} cells took more than {budget:.0f} s "
                             f"(twice their first run plus {REPLAY_SLACK_S:g} s, at most {REPLAY_MAX_S:g} s); "
                             f"stopped after {i + 1}")
                return self.lost
        if self.lost:  # closed while replaying
            await self.host.call(self.host.destroy, box)
            return self.lost
        self.box = box
        return ""

    async def read(self, path: str, max_bytes: int) -> dict:
        async def work() -> dict:
            if self.lost or self.box is None:
                return {"ok": False, "detail": self.lost or "the session is closed", "lost": True}
            box = self.box
            reply = await self.host.call(box.read, path, max_bytes)
            if reply.get("lost"):  # ended by its idle CPU budget (session_box.py Box.alive): lost to every call
                self.lost = self.lost or f"a read call ended the session ({reply.get('detail', '')})"
                await self._drop(box)
            return reply
        return await self._exclusive(work)

    async def tool(self, name: str, *args) -> dict:
        """One tool call of a session on an environment (SessionBox.shell, write, listdir, snapshot),
        in order with the cells; a reply that says the container is gone ends the session."""
        async def work() -> dict:
            box = self.box
            if self.lost or box is None:
                return {"status": "lost", "ok": False, "detail": self.lost or "the session is closed", "lost": True}
            reply = await self.host.call(getattr(box, name), *args)
            if reply.get("lost"):
                self.lost = self.lost or f"a {name} call ended the session ({reply.get('status')}: {reply.get('detail', '')})"
                await self._drop(box)
            return reply
        return await self._exclusive(work)

    async def close(self) -> None:
        """End the session at once. Mid-cell, the container is removed (every process dies with it);
        between cells it is reset (every process killed, every file wiped) and kept for reuse."""
        box, self.box = self.box, None
        self.lost = self.lost or "the session was closed"
        if box is None:
            return
        if self.lock.locked():
            await self.host.call(self.host.destroy, box)
        else:
            await self.host.call(self.host.give_back, box)


class SessionHost:
    """Starts session boxes: the Docker client, the images, and the threads blocking calls run in."""

    def __init__(self, config: SandboxConfig, max_sessions: int, spares: int = 8, backend: Backend | None = None,
                 tree: str = "copy") -> None:
        """`backend`: the grading pool's (sandbox/grader.py CodeGrader.backend), so one server has one
        runsc state folder and one Docker client; a backend of its own when there is none. `tree`: how a
        session on an environment gets its /work (verifier/config.py session_tree; docs/sessions.md
        "The layers")."""
        self.config, self.tree = config, tree
        self.max_spares = max(0, min(spares, max_sessions))
        self._backend = backend
        self._images: dict[str, str] = {}
        self._threads = ThreadPoolExecutor(max_workers=max(4, max_sessions + 4), thread_name_prefix="session")
        self._spares: list[SessionBox] = []  # reset sandboxes of ended sessions, newest last
        self._live: set[SessionBox] = set()  # every box this host started and has not removed
        self._lock = threading.Lock()
        self._closed = False

    @property
    def backend(self) -> Backend:
        if self._backend is None:
            from .grader import make_backend
            self._backend = make_backend(self.config)
        return self._backend

    def _image(self, language: str) -> str:
        """The language's image (Docker) or root filesystem (gVisor), as the pool finds them."""
        if language not in self._images:
            found, _ = self.backend.find_images((language,))
            if language not in found:
                raise RuntimeError(f"no sandbox image for {language}: {self.backend.build_hint()}")
            self._images[language] = found[language]
        return self._images[language]

    async def call(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self._threads, fn, *args)

    def take_box(self, language: str, limits: SessionLimits, files: dict[str, bytes],
                 env: str = "", state: SessionState | None = None) -> SessionBox:
        """A started box: a reset one of an ended session when there is one (a container start costs
        ~0.3 CPU-seconds of the Docker daemon; a reset a few milliseconds), else a new sandbox. `env`:
        the environment's tree bound read-only in the box (a spare serves its own environment only)."""
        while True:
            with self._lock:
                box = next((b for b in reversed(self._spares) if b.language == language and b.env == env), None)
                if box is not None:
                    self._spares.remove(box)
            if box is None:
                break
            try:
                box.start(limits, files, state)
                return box
            except (StateTooLarge, StateUnusable):  # another box would not hold or take them either
                self.destroy(box)
                raise
            except Exception as e:  # a spare that went bad: drop it, try the next
                log.info("session: a spare sandbox failed to start a session (%s)", e)
                self.destroy(box)
        box = SessionBox(self.backend, self._image(language), language, limits, self.config.start_timeout_s, env,
                         self.tree)
        with self._lock:
            self._live.add(box)
        try:
            box.start(limits, files, state)
        except BaseException:
            self.destroy(box)
            raise
        return box

    def destroy(self, box: SessionBox) -> None:
        """Remove a box (its every process dies with it) and forget it."""
        with self._lock:
            self._live.discard(box)
        box.destroy()

    def give_back(self, box: SessionBox) -> None:
        """After a session: keep the container for a later session when it resets clean, has served
        fewer than jobs_per_container sessions and spares are wanted; else remove it."""
        if (not self._closed and box.sessions < self.config.jobs_per_container and len(self._spares) < self.max_spares
                and box.reset()):
            with self._lock:
                if len(self._spares) < self.max_spares and not self._closed:
                    self._spares.append(box)
                    return
        self.destroy(box)

    async def open(self, language: str, limits: SessionLimits, files: dict[str, bytes], replay: bool,
                   environment: SessionEnvironment | None = None, state: SessionState | None = None) -> Session:
        """A started session; raises (docker or channel errors) when its container cannot start. On an
        environment, the box is of the environment's language with its tree read-only at /srv, linked into /work
        (then `state`'s changes applied: a fork or a restored snapshot)."""
        if language not in LANGUAGES and environment is None:
            raise ValueError(f"sessions support {', '.join(LANGUAGES)}, not {language!r}")
        session = Session(self, language, limits, files, replay, environment)
        t0 = time.monotonic()
        env = environment.tree if environment is not None else ""
        session.box = await self.call(self.take_box, language, limits, files, env, state)
        log.debug("session started in %.2f s", time.monotonic() - t0)
        return session

    def remove_all(self) -> None:
        """Remove every session sandbox this server started (shutdown). Under Docker, also any the
        daemon lists with our owner label (a start that raced the shutdown); a crashed server's
        are removed by the pool's reap at the next start: they carry the pool's owner labels."""
        with self._lock:
            live, self._live = list(self._live), set()
        for box in live:
            box.destroy()
        if not isinstance(self._backend, DockerBackend):
            return
        try:
            for c in self._backend.client.containers.list(all=True, filters={"label": [f"{LABEL_OWNER}={OWNER}", LABEL_SESSION]}):
                c.remove(force=True)
        except docker.errors.DockerException as e:
            log.warning("session: listing own containers failed: %s", e)

    async def close(self) -> None:
        self._closed = True
        with self._lock:
            spares, self._spares = self._spares, []
        for box in spares:
            box.channel.close()
        await self.call(self.remove_all)
        self._threads.shutdown(wait=False)


__all__ = ["CELL_STATUSES", "Session", "SessionEnvironment", "SessionHost", "SessionLimits", "SessionState",
           "StateTooLarge", "StateUnusable"]
