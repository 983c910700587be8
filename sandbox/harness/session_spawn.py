"""A session's shell launcher (docs/sessions.md "Sessions on an environment", Shell). Standard library only.

Why it exists: PID 1 (session_box.py) is a Python process of about 18 MB; a `subprocess.Popen` with a
`preexec_fn` forks it whole, runs Python in the child (copy-on-write faults) and unmaps the copy at exec.
That fork was about 4.5 of the 6.5 ms of the box's CPU per trivial shell command (issue 34; perf in
docs/benchmarks.md "Agentic sessions on a repository environment"). This launcher is started once per
session the same way as the session's interpreter (session_box.Kernel: the program's uid for all three,
its rlimits, OOM victim first, default signals: program_limits.apply), and then starts each command with posix_spawn (vfork: no copy), so every
command inherits exactly those limits, plus its own session (setsid) and default signal dispositions.

It is the program's own process (its uid), trusted with nothing: PID 1 makes the command's output pipes
and reads them, keeps its own clocks and limits, and kills the command's process group itself. What this
launcher says (the pid, the exit status) is the policy's own command's, as a shell's `$?` would be; a
launcher that is killed or lies loses only its own command's status (session_tools.Launcher).

Requests (from PID 1, on a stream socket: never a pipe, which gVisor lets a same-uid process reopen
through /proc): a 4-byte big-endian length, then NUL-separated argv, an empty field, NUL-separated
KEY=VALUE environment; two fds (the command's stdout and stderr) ride with the first bytes. Replies, one
line each: "ready" once at the start; "pid N" when started (or "error ERRNO" when posix_spawn failed), then "exit N CODE" when it
ended (CODE as Popen.returncode: negative for a signal).
"""
import os
import signal
import socket
import sys

MSG_MAX = 8 << 20  # a request's bytes at most (a command is at most --max-field-bytes, refused by exec past 128 KiB)
SIGNALS = frozenset(signal.valid_signals()) - {signal.SIGKILL, signal.SIGSTOP}


def read_request(sock: socket.socket) -> tuple[bytes, list[int]] | None:
    """One request's payload and its fds; None at EOF (PID 1 closed its end)."""
    data, fds, _flags, _addr = socket.recv_fds(sock, 1 << 16, 2, socket.MSG_CMSG_CLOEXEC)
    if not data:
        return None
    while len(data) < 4:
        more = sock.recv(4 - len(data))
        if not more:
            return None
        data += more
    n = int.from_bytes(data[:4], "big")
    if n > MSG_MAX:
        raise ValueError("request too large")
    body = bytearray(data[4:])
    while len(body) < n:
        more = sock.recv(min(1 << 16, n - len(body)))
        if not more:
            return None
        body += more
    return bytes(body), fds


def main() -> None:
    sock = socket.socket(fileno=int(sys.argv[1]))
    sock.set_inheritable(False)
    sock.sendall(b"ready\n")  # PID 1 waits for it: our start is not the session's idle CPU (session_tools.Launcher)
    while (req := read_request(sock)) is not None:
        body, fds = req
        argv_part, _, env_part = body.partition(b"\0\0")
        argv = argv_part.split(b"\0")
        env = dict(kv.split(b"=", 1) for kv in env_part.split(b"\0") if b"=" in kv)
        try:
            if len(fds) != 2:
                raise OSError(22, "two fds expected")
            pid = os.posix_spawn(argv[0], argv, env, setsid=True, setsigdef=SIGNALS, file_actions=[
                (os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
                (os.POSIX_SPAWN_DUP2, fds[0], 1), (os.POSIX_SPAWN_DUP2, fds[1], 2)])
        except OSError as e:
            sock.sendall(f"error {e.errno or 0}\n".encode())
            continue
        finally:
            for fd in fds:
                os.close(fd)
        sock.sendall(f"pid {pid}\n".encode())
        _pid, status = os.waitpid(pid, 0)
        sock.sendall(f"exit {pid} {os.waitstatus_to_exitcode(status)}\n".encode())


if __name__ == "__main__":
    main()
