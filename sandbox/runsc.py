"""Which runsc the gVisor backend runs, and on which of gVisor's platforms (docs/sandboxes.md "gVisor's platform").

The platform is how gVisor's kernel (the Sentry) catches a program's system calls: `ptrace` (every one a
round trip through the host's ptrace, the only one of Debian bookworm's runsc 20221219 that starts in a VM),
`systrap` (seccomp traps caught in the program's own address space, newer runsc only) or `kvm` (a virtual
machine, where /dev/kvm works; nested virtualisation can hang it at boot). scripts/ensure_gvisor.sh installs
a pinned newer runsc (PINNED) beside Debian's; it is preferred where present.
"""
from __future__ import annotations

import functools
import json
import logging
import os
import shutil
import signal
import subprocess
import tempfile
import time
import zlib
from pathlib import Path

log = logging.getLogger(__name__)

# scripts/ensure_gvisor.sh RUNSC_VERSION: Debian trixie's runsc, a static binary, unpacked here by exact version
PINNED_VERSION = "0.0~20240729.0"
PINNED = Path("/usr/local/lib/grpo-verifier/runsc") / PINNED_VERSION / "runsc"
PROBE_S = 5.0  # a probe sandbox on systrap or ptrace starts in ~0.2 s; kvm that hangs at boot never does
AUTO_ORDER = ("kvm", "systrap")  # auto's preference, each taken where its probe sandbox runs; else ptrace


def find_runsc() -> str:
    """The pinned runsc where installed, else the one on PATH (Debian's), else ''."""
    return str(PINNED) if os.access(PINNED, os.X_OK) else (shutil.which("runsc") or "")


@functools.cache
def supported(runsc: str) -> tuple[str, ...]:
    """The platforms this runsc was built with (`runsc help platforms`: one a line)."""
    out = subprocess.run([runsc, "help", "platforms"], capture_output=True, text=True, timeout=30)
    return tuple(line.strip() for line in out.stdout.splitlines() if line.strip().isalpha())


def probe(runsc: str, platform: str, timeout_s: float | None = None) -> str:
    """'' when a rootless sandbox on `platform` runs /bin/true, else why not. Its own process group,
    killed whole on time-out (a kvm sandbox that hangs at boot leaves its sandbox and gofer behind)."""
    timeout_s = timeout_s or PROBE_S
    with tempfile.TemporaryDirectory(prefix="grpo-runsc-probe-") as root:
        t0 = time.monotonic()
        proc = subprocess.Popen([runsc, "--rootless", "--network=none", "--ignore-cgroups", f"--platform={platform}",
                                 f"--root={root}", "do", "/bin/true"], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True, cwd=root)
        try:
            _, err = proc.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return f"its probe sandbox did not run /bin/true in {timeout_s:.0f} s"
        if proc.returncode:
            said = err.decode(errors="replace").strip().splitlines()[-1:] or ["nothing"]
            return f"its probe sandbox exited {proc.returncode}: {said[0][:200]}"
        log.debug("runsc probe: %s ran /bin/true in %.2f s", platform, time.monotonic() - t0)
        return ""


@functools.cache
def choose(runsc: str, wanted: str) -> tuple[str, str]:
    """(platform, why) for SandboxConfig.gvisor_platform `wanted`, once per process and runsc. A platform
    asked by name must be one this runsc has (else RuntimeError: the backend is down, saying so); `auto`
    takes kvm where /dev/kvm opens and a probe sandbox runs, else systrap where this runsc has it and its
    probe runs, else ptrace. auto's answer is kept for this boot of the host (_cached): a kvm that hangs
    costs PROBE_S, once, not at every server's start."""
    have = supported(runsc)
    if wanted != "auto":
        if wanted not in have:
            raise RuntimeError(f"gvisor_platform {wanted!r}: {runsc} has only {', '.join(have) or 'none'}")
        return wanted, "asked for by name (gvisor_platform)"
    key = _cache_key(runsc)
    path = Path(tempfile.gettempdir()) / f"grpo-verifier-runsc-platform-{os.getuid()}-{zlib.crc32(key.encode()):08x}.json"
    if (kept := _cached(path, key)) is not None:
        return kept
    platform, why = _auto(runsc, have)
    try:
        tmp = path.with_suffix(f".{os.getpid()}")
        tmp.write_text(json.dumps({"key": key, "platform": platform, "why": why}))
        tmp.replace(path)
    except OSError:
        pass
    return platform, why


def _cache_key(runsc: str) -> str:
    """This boot of the host and this runsc binary (path, size, mtime): what auto's answer depends on."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        st = os.stat(runsc)
    except OSError:
        return ""
    return f"{boot} {os.path.realpath(runsc)} {st.st_size} {st.st_mtime_ns}"


def _cached(path: Path, key: str) -> tuple[str, str] | None:
    """auto's kept answer, if this user's file holds one for `key`."""
    try:
        if not key or path.lstat().st_uid != os.getuid():
            return None
        kept = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(kept, dict) or kept.get("key") != key or kept.get("platform") not in ("kvm", "systrap", "ptrace"):
        return None
    return kept["platform"], f"kept from this boot's probe: {kept.get('why', '')}"


def _auto(runsc: str, have: tuple[str, ...]) -> tuple[str, str]:
    skipped = []
    for platform in AUTO_ORDER:
        if platform not in have:
            skipped.append(f"{platform}: not in this runsc")
        elif platform == "kvm" and not os.access("/dev/kvm", os.R_OK | os.W_OK):
            skipped.append("kvm: /dev/kvm missing or not this user's to open")
        elif why := probe(runsc, platform):
            skipped.append(f"{platform}: {why}")
        else:
            return platform, "; ".join([*skipped, f"{platform}: a probe sandbox ran"])
    return "ptrace", "; ".join(skipped)


_LOGGED: set[tuple[str, str]] = set()


def platform_for(runsc: str, wanted: str) -> str:
    """The platform the backend runs, logged with why once per process (the backend's probe runs at
    every health check)."""
    platform, why = choose(runsc, wanted)
    if (runsc, wanted) not in _LOGGED:
        _LOGGED.add((runsc, wanted))
        log.info("gVisor platform %s (gvisor_platform=%s, %s): %s", platform, wanted, runsc, why)
    return platform


if __name__ == "__main__":  # scripts/ensure_gvisor.sh: the platform `auto` takes, for Docker's runsc runtime
    import sys

    print(choose(sys.argv[1] if len(sys.argv) > 1 else find_runsc(), sys.argv[2] if len(sys.argv) > 2 else "auto")[0])
