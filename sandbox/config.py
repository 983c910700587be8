"""Configuration of the code sandbox: one dataclass, every field documented (TRL-style)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from .contract import MAX_TESTS, LanguageLimits, default_limits

BACKENDS = ("docker", "gvisor", "userns")  # sandbox/backend.py, sandbox/gvisor.py and sandbox/userns.py
NATIVE_KERNEL = ("docker", "userns")  # programs run on the host's kernel: its fork of the warm interpreter is the fast start


CALL_CACHE_MAX_MB = 256  # the runner's own bound on what it keeps (sandbox/harness/job_protocol.py STASH_MAX)
WARM_FORK = ("auto", "on", "off")
GVISOR_PLATFORMS = ("auto", "systrap", "ptrace", "kvm")  # sandbox/runsc.py choose
USERNS_MODES = ("auto", "uids", "landlock")  # sandbox/userns.py choose_mode
HOST_THREADS = 1024  # host_threads_per_sandbox: 14 sandboxes (2 per language) x 1024 under a pid_max of 32768 (docs/sandboxes.md "Sandbox backends")
WARM_MB = 32  # the warm interpreter's mother and zygote: 24 MB more in a container at rest (measured)


@dataclass
class SandboxConfig:
    """Settings of the code grader (`CodeGrader`): pool, hardening, limits. A task's own defaults
    (comparator, tolerances) and the per-language limits' type and defaults are the contract's
    (sandbox/contract.py).

    Defaults suit a 2-core machine. Every size, time and count is bounded here because completions
    are adversarial: a model under optimisation pressure will find any limit that is missing.
    """

    backend: str = field(default="docker", metadata={"help": "Sandbox backend, one of: docker | gvisor | userns. 'docker': hardened containers of a Docker daemon. 'gvisor': rootless gVisor (runsc) sandboxes the server starts itself, from root filesystems in rootfs_dir: no daemon, no root, no privileges (unprivileged Kubernetes pods, HPC nodes), a second kernel between the program and the host's. 'userns': the same root filesystems in Linux namespaces on the host's kernel (bubblewrap), Docker's class of isolation and cost without a daemon; it needs a cgroup the server may make the sandboxes' in (docs/sandboxes.md \"Sandbox backends\") and refuses to start without one; with CAP_SETUID/CAP_SETGID it maps the runner's uids, without any privilege it confines programs with Landlock (Linux 6.12+: userns_mode; docs/sandboxes.md \"Sandbox backends\")."})
    rootfs_dir: str = field(default_factory=lambda: os.path.expanduser("~/.cache/grpo-verifier/rootfs"), metadata={"help": "Backends gvisor and userns: the folder of the sandboxes' root filesystems, one '<prefix>-<language>-<recipe hash>' folder per language, made by `verifier sandbox build --rootfs DIR` (ship that folder to hosts without Docker)."})
    docker_url: str | None = field(default=None, metadata={"help": "Docker Engine URL (e.g. unix:///var/run/docker.sock); None: docker.from_env(), which honours DOCKER_HOST."})
    languages: tuple[str, ...] = field(default=("python", "c", "cpp", "javascript", "java", "rust", "go"), metadata={"help": "Languages served. Each needs its image (`verifier sandbox build`)."})
    pool_size: int = field(default=2, metadata={"help": "Warm containers per language. Also the most jobs of one language running at once; more queue for a container (calls in arrival order; within a call the longest job first), until the caller's deadline (none: they wait their turn)."})
    max_concurrent_jobs: int = field(default_factory=lambda: os.cpu_count() or 2, metadata={"help": "Jobs running at once over all languages; more would oversubscribe CPUs and cause false time limits."})
    jobs_per_container: int = field(default=500, metadata={"help": "Recycle a container after this many jobs (also after any anomaly: the reset after each job kills every process, wipes every writable dir and checks PID 1, so the recycle is defence in depth; every 50 jobs a container start per 0.8 s at 60 jobs/s cost the p99 of /run_code, docs/benchmarks.md)."})
    runtime: str | None = field(default=None, metadata={"help": "OCI runtime for sandbox containers, e.g. 'runsc' (gVisor) for a stronger boundary; None: the daemon's default (runc)."})
    pool_name: str = field(default="default", metadata={"help": "Label value shared by this server's containers. Containers with this label left by a dead server are removed at start; servers sharing one daemon need distinct names."})
    image_prefix: str = field(default="grpo-sandbox", metadata={"help": "Image repository prefix: `verifier sandbox build` tags images '<prefix>-<language>:<recipe hash>' (and the gVisor backend's folders are named so); the Docker backend serves the image of the current recipe by its labels, this name first (sandbox/images/README.md)."})
    userns_mode: str = field(default="auto", metadata={"help": "Backend userns: how a program is kept from the runner, the judge and the warm interpreter (docs/sandboxes.md \"Sandbox backends\"): auto | uids | landlock. 'uids': each sandbox maps a uid range and they run as uids apart from the program's (needs CAP_SETUID and CAP_SETGID: root, or a pod granted them). 'landlock': one uid for all (no privilege at all: unprivileged pods, Slurm), each program in a Landlock domain of its own with scoped signals (Linux 6.12) and a seccomp filter that lets prlimit, setpriority, sched_set* and ioprio_set act on itself only. 'auto' takes uids where the capabilities are there, else landlock, and logs which and why; neither possible: the backend refuses to start, naming why."})
    user: str = field(default="65534:65534", metadata={"help": "uid:gid the program runs as (never root); the runner's effective uid too, so it owns the program's files. Under Docker with runc each container's program has a host uid and gid of its own instead (sandbox/backend.py PROGRAM_UID_BASE: the kernel's per-user counts are not shared between sandboxes)."})
    judge_uid: int = field(default=65533, metadata={"help": "Real uid of the runner and of the judge of call and test-file tests (never root, never the program's): the program cannot signal, prlimit or ptrace a process of another uid (docs/architecture.md, Trust boundaries)."})
    container_cpus: float = field(default=1.0, metadata={"help": "CPU quota per container (cores)."})
    pids_limit: int = field(default=128, metadata={"help": "Processes+threads per container (fork bombs stop here; the JVM needs ~30)."})
    gvisor_platform: str = field(default="ptrace", metadata={"help": "Backend gvisor: gVisor's platform, how its kernel catches a program's system calls, one of: auto | systrap | ptrace | kvm. 'ptrace' (the default) is Debian's runsc's; 'auto' probes once per boot of the host (a sandbox that runs /bin/true): kvm where /dev/kvm opens and works, else systrap where the runsc has it (the pinned newer runsc of `make gvisor`; not Debian bookworm's), else ptrace; the server logs its choice and why. Docker's runsc runtime takes the platform scripts/ensure_gvisor.sh registered (its `auto`), not this (docs/sandboxes.md \"gVisor's platform\")."})
    host_threads_per_sandbox: int = field(default=HOST_THREADS, metadata={"help": "Under gVisor (backend gvisor, or runtime runsc): most host threads one sandbox's gVisor kernel may run (its Go threads and, under the ptrace platform, a thread per process per Sentry thread that ran it: 75 at rest, 470 for 32 busy processes, 5.4k for 128). The host's watchdog (sandbox/watchdog.py) kills the sandbox past it (the job's runtime_error, naming it; never infra_error), and a runsc container's pids cgroup is this plus RUNSC_HOST_PIDS_MARGIN as a backstop; every sandbox of the host (pool_size x languages, plus sessions) times this must stay under the host's kernel.pid_max (docs/sandboxes.md \"Sandbox backends\")."})
    nofile_limit: int = field(default=256, metadata={"help": "Open files per process."})
    work_tmpfs_mb: int = field(default=128, metadata={"help": "Size of /work (job files, compiled programs), a tmpfs counted in the memory limit."})
    tmp_tmpfs_mb: int = field(default=64, metadata={"help": "Size of /tmp (noexec tmpfs)."})
    tmpfs_inodes: int = field(default=4096, metadata={"help": "Inodes per tmpfs (file-count bombs stop here)."})
    warm_fork: str = field(default="auto", metadata={"help": "Start Python programs and judges as forks of a warm interpreter in each container (docs/sandboxes.md, \"The warm interpreter\"): on | off | auto (on with Docker and userns; with gVisor, judges only: with runsc 20240729 a fork measured 0.46-0.81x the wall time of a program's own interpreter, but a fork bomb after it failed the next job in CI, so programs fork there only when on)."})
    memory_overhead_mb: int = field(default=48, metadata={"help": "Added to a test's memory limit for the runner and its capture buffers (plus twice the stdout cap)."})
    file_size_limit_mb: int = field(default=64, metadata={"help": "Largest file a program may write (RLIMIT_FSIZE)."})
    output_limit_bytes: int = field(default=8 << 20, metadata={"help": "stdout kept per test; more gives output_limit (a 5 MB answer is fine)."})
    stderr_limit_bytes: int = field(default=64 << 10, metadata={"help": "stderr kept per run (its head and tail, half each). The rest is read and dropped as the program writes: stderr is never a verdict by itself, and the runner's reading is charged to the container's CPU quota."})
    wall_factor: float = field(default=2.0, metadata={"help": "Wall-clock backstop = time limit * wall_factor + wall_extra_s (stops sleeping programs)."})
    wall_extra_s: float = field(default=1.0, metadata={"help": "See wall_factor."})
    call_cache_mb: int = field(default=64, metadata={"help": "Bytes of tasks' test sets (inputs, a checker's answers, support files, the compiled C++ checker) each container keeps in its runner's memory, so the jobs of a GRPO call send them once per container, not per test (docs/sandboxes.md \"Test sets kept in the container\"); counted in the memory limit. 0: send them with each test."})
    checker_time_limit_s: float = field(default=5.0, metadata={"help": "CPU seconds for a special checker per test."})
    max_tests: int = field(default=MAX_TESTS, metadata={"help": "Most tests in one code task, the one limit on every path: the server refuses more with INVALID_ARGUMENT naming the field; the sandbox's own API answers infra_error (retryable=False)."})
    repo_environments: str = field(default="", metadata={"help": "Directory of built environments for repo tasks (docs/repo-tasks.md \"Environments\"): one directory per environment, named as tasks name it, holding environment.json ({\"language\": ...}) and repo/ (the repository at its base commit, set up). Empty: repo tasks are answered infra_error."})
    repo_warm_environments: int = field(default=4, metadata={"help": "Repository environments kept warm at once (docs/repo-tasks.md \"Warm environments\"): each has boxes of its own with its tree read-only inside; a task on another one retires the least recently used that no job holds or waits for, or waits while every one is busy."})
    repo_pool_size: int = field(default=2, metadata={"help": "Warm boxes per warm repository environment: the most tasks of one environment running at once."})
    max_code_bytes: int = field(default=256 << 10, metadata={"help": "Largest extracted program."})
    max_stdin_bytes: int = field(default=16 << 20, metadata={"help": "Largest stdin of one test."})
    max_job_s: float = field(default=600.0, metadata={"help": "Most wall-clock seconds one job may hold its container, whatever its tests x time limit come to: a program looping on 1,000 tests under scoring 'fraction' would hold it for hours while the language's other jobs queue. Tests not finished by then get time_limit."})
    acquire_timeout_s: float = field(default=60.0, metadata={"help": "How long a job waits while NO container of its language is alive (all starting, starts hanging) before infra_error. Waiting behind busy containers is never cut short by this (only by the caller's deadline); a start that fails with none alive, or a daemon found down, ends the wait at once."})
    start_timeout_s: float = field(default=30.0, metadata={"help": "Time for a new container to start and answer its first ping."})
    health_interval_s: float = field(default=10.0, metadata={"help": "How often the daemon is pinged to keep `available` current."})
    limits: dict[str, LanguageLimits] = field(default_factory=default_limits, metadata={"help": "Per-language time and memory limits."})

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ValueError(f"sandbox backend {self.backend!r}: expected one of {', '.join(BACKENDS)}")
        if not 0 <= self.call_cache_mb <= CALL_CACHE_MAX_MB:
            raise ValueError(f"sandbox call_cache_mb {self.call_cache_mb}: expected 0..{CALL_CACHE_MAX_MB}")
        if self.host_threads_per_sandbox < 128:
            raise ValueError(f"sandbox host_threads_per_sandbox {self.host_threads_per_sandbox}: expected at least 128 (gVisor at rest uses ~75)")
        if self.gvisor_platform not in GVISOR_PLATFORMS:
            raise ValueError(f"sandbox gvisor_platform {self.gvisor_platform!r}: expected one of {', '.join(GVISOR_PLATFORMS)}")
        if self.userns_mode not in USERNS_MODES:
            raise ValueError(f"sandbox userns_mode {self.userns_mode!r}: expected one of {', '.join(USERNS_MODES)}")
        for name in ("repo_warm_environments", "repo_pool_size"):
            if getattr(self, name) < 1:
                raise ValueError(f"sandbox {name} {getattr(self, name)}: expected at least 1")
        if self.warm_fork not in WARM_FORK:
            raise ValueError(f"sandbox warm_fork {self.warm_fork!r}: expected one of {', '.join(WARM_FORK)}")

    def warm_container(self, language: str) -> bool:
        """Whether the language's containers run the warm interpreter (warm_fork; Python only)."""
        return language == "python" and self.warm_fork != "off"

    def warm(self, language: str, judge: bool = False) -> bool:
        """Whether a run starts as a fork of it: a judge wherever it runs (else the judge is a fork of
        the runner, whose memory holds earlier jobs' data), a program with Docker or userns, or when on.
        Under gVisor a program's fork wins on time (docs/benchmarks.md "Where a gVisor test's time goes")
        but is opt-in until a fork bomb after it keeps the next job right (issue 32)."""
        return self.warm_container(language) and (judge or self.warm_fork == "on" or self.backend in NATIVE_KERNEL)

    def overhead_mb(self, language: str) -> int:
        """What a container holds beside a test's memory: the runner and its capture buffers, and
        the warm interpreter's two processes (measured 24 MB: WARM_MB)."""
        return self.memory_overhead_mb + 2 * (self.output_limit_bytes >> 20) + (WARM_MB if self.warm_container(language) else 0)

    def capture_mb(self) -> int:
        """What a run adds to the runner while it lasts, at most: the program's stdin it writes (max_stdin_bytes),
        the stdout it keeps (twice the cap: its bytes and their copy in the answer) and the stderr it keeps. The
        part of overhead_mb that is not at rest, where a backend measures the rest (Backend.overhead_mb)."""
        return -(-self.max_stdin_bytes >> 20) + 2 * -(-self.output_limit_bytes >> 20) + -(-self.stderr_limit_bytes >> 20)

    def limits_for(self, language: str) -> LanguageLimits:
        return self.limits.get(language) or LanguageLimits()
