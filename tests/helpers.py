"""Task builders shared by the integration tests."""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import grpc

from verifier.schema import task_to_proto
from verifier.v1 import verifier_pb2 as pb
from verifier.v1 import verifier_pb2_grpc as pb_grpc

# A math item that keeps a worker busy past any test's deadline: its gold is the determinant of a 12 x 12 matrix of
# powers of letters, which sympy expands for over 40 s. An answer can no longer be slow within the bounds (guards.py:
# a symbolic matrix computed on has at most 4 cells, series at most 100 terms and no nesting; docs/math.md "Answer
# grammar"), but a gold is the dataset's and is not bounded that way, so the deadline still has a real slow path.
_SLOW_ROWS = [" & ".join(f"{chr(97 + (i * 12 + j) % 26)}^{{{(i * j) % 5 + 1}}}" for j in range(12)) for i in range(12)]
SLOW_GOLD = "\\det\\begin{pmatrix}" + " \\\\ ".join(_SLOW_ROWS) + "\\end{pmatrix}"
SLOW_COMPLETION = "\\boxed{1 + x}"


def math_task(task_id: str, completion: str, gold: str, **kw) -> dict:
    return {"id": task_id, "kind": "math", "completion": completion, "gold": gold, **kw}


def unique_batch(n: int, prefix: str = "u") -> list[dict]:
    """n distinct, correct math items: each needs its own sympy work in a worker (no dedup, no cache,
    and \\pi keeps them off the in-process fast path)."""
    return [math_task(f"{prefix}{i}", f"Some reasoning. So the answer is $\\boxed{{\\frac{{{2 * i + 2}}}{{{4 * i + 6}}}\\pi}}$",
                      f"\\frac{{{i + 1}}}{{{2 * i + 3}}}\\pi") for i in range(n)]


def stub(target: str) -> pb_grpc.VerifierStub:
    return pb_grpc.VerifierStub(grpc.insecure_channel(target))


def request(tasks: list[dict]) -> pb.GradeRequest:
    return pb.GradeRequest(tasks=[task_to_proto(t) for t in tasks])


# The sandbox backends every verdict, limit, fault, security and cross-job test runs on (issue 30 "One suite, every
# backend"; docs/sandboxes.md "Sandbox backends"): conftest.py's `backend` fixture takes each, and each test module's
# `SANDBOX` settings make its grader on it (one_sandbox). "runsc" is the Docker backend with gVisor's runtime. Adding
# a backend is one entry here (and one branch in one_sandbox, when it is made another way).
BACKENDS = ("docker", "gvisor", "runsc", "userns")
# The backends whose programs run on gVisor's kernel (the Sentry), not the host's: what a program sees of its kernel
# (/proc, IPC namespaces, fds) differs there from Linux, and tests key those differences on this.
GVISOR_KERNEL = frozenset({"gvisor", "runsc"})


def on_backend(backend: str, default: Any, differs: dict[str, tuple[Any, str]]) -> Any:
    """What a test expects on `backend`: `default`, unless `differs` maps the backend to (value, why it differs).
    A test that must differ per backend says so here, with its reason, instead of being skipped there."""
    value, why = differs.get(backend, (default, ""))
    assert backend not in differs or why, f"no reason given for {backend}'s difference"
    return value


def known_bug(request: Any, backend: str, bugs: dict[str, str]) -> None:
    """Marks this run of a backend-parametrized test xfail(strict) where `bugs` names its backend, the reason naming
    the bug: a test that fails on one backend is a finding, listed, never skipped (and strict: a fix makes it fail
    until the mark goes)."""
    import pytest

    if backend in bugs:
        request.applymarker(pytest.mark.xfail(strict=True, reason=bugs[backend]))


def backend_of(config: Any) -> str:
    """A SandboxConfig's backend as BACKENDS names it (the Docker backend with gVisor's runtime is "runsc")."""
    return "runsc" if config.backend == "docker" and config.runtime == "runsc" else config.backend


def program_uids(backend: str) -> range:
    """The uids a program may run as on `backend`: config.user's (65534), or under Docker with runc one of the
    host's of its own per container (sandbox/backend.py PROGRAM_UID_BASE: the kernel's per-user counts)."""
    from sandbox.backend import PROGRAM_UID_BASE, PROGRAM_UIDS

    return range(PROGRAM_UID_BASE, PROGRAM_UID_BASE + PROGRAM_UIDS) if backend == "docker" else range(65534, 65535)


def kernel_differs(value: Any, why: str) -> dict[str, tuple[Any, str]]:
    """on_backend's `differs` for a difference of gVisor's kernel: `value`, for `why`, on every GVISOR_KERNEL backend."""
    return {b: (value, why) for b in GVISOR_KERNEL}


# The userns backend's mode for every suite of a run (SandboxConfig.userns_mode): `landlock` runs the suites in the
# mode of a server without CAP_SETUID (docs/sandboxes.md "Sandbox backends"); unset, each test's own choice (auto).
USERNS_MODE_ENV = "VERIFIER_TEST_USERNS_MODE"


# The warm fork for every gVisor suite built through sandbox_config or one_sandbox (SandboxConfig.warm_fork): `on` runs gVisor's
# programs as forks of the warm interpreter, which `auto` leaves to judges there (docs/sandboxes.md "The warm
# interpreter"); unset, each test's own choice.
WARM_FORK_ENV = "VERIFIER_TEST_WARM_FORK"


def userns_mode() -> str:
    """The userns backend's mode this run's suites force (USERNS_MODE_ENV), or "auto"."""
    return os.environ.get(USERNS_MODE_ENV) or "auto"


# Python source for a program's probe: `ours(p)`, whether process `p` is of the program's own kind: the same real uid,
# and where PID 1 has that uid too (one uid for the sandbox, the userns backend's Landlock mode) at least the seccomp
# filters the program has (a program's processes have one more than the runner's: sandbox/harness/confine.py);
# OSError once it is gone. The runner, its syntax checker and the warm interpreter's mother and zygote are never ours.
PROGRAM_KIND = r'''
import os
def status(p):
    return dict(l.split(":", 1) for l in open(f"/proc/{p}/status").read().splitlines() if ":" in l)
def ours(p, me=status("self"), one_uid=status(1)["Uid"].split()[0] == status("self")["Uid"].split()[0]):
    st = status(p)
    return (int(st["Uid"].split()[0]) == int(me["Uid"].split()[0])
            and (not one_uid or int(st.get("Seccomp_filters", 0)) >= int(me.get("Seccomp_filters", 0))))
'''


def userns_flags() -> tuple[str, ...]:
    """`verifier serve` flags for the userns mode this run forces (USERNS_MODE_ENV), for a test that starts a server
    with `--sandbox-backend userns`: none when unset (the server's own auto)."""
    mode = os.environ.get(USERNS_MODE_ENV)
    return ("--sandbox-userns-mode", mode) if mode else ()


def sandbox_config(backend: str = "docker", **kw):
    """A SandboxConfig for `backend`. For gvisor and userns the languages' root filesystems are
    exported from their images first (`verifier sandbox build --rootfs`: instant when they exist)."""
    from sandbox import SandboxConfig
    from sandbox.build import build_images

    if backend == "userns" and os.environ.get(USERNS_MODE_ENV):
        kw.setdefault("userns_mode", os.environ[USERNS_MODE_ENV])
    if backend == "gvisor" and os.environ.get(WARM_FORK_ENV):
        kw.setdefault("warm_fork", os.environ[WARM_FORK_ENV])
    config = SandboxConfig(backend=backend, **kw)
    if backend in ("gvisor", "userns"):
        build_images(config.languages, config=config, rootfs_dir=config.rootfs_dir, progress=lambda _m: None)
    return config


RUNSC_MISSING = "gVisor's runsc is not registered with dockerd: run scripts/ensure_gvisor.sh (make test does)"


def runsc_registered() -> bool:
    """Whether dockerd offers gVisor's runsc runtime (make test registers it)."""
    out = subprocess.run(["docker", "info", "--format", "{{json .Runtimes}}"], capture_output=True, text=True)
    return out.returncode == 0 and '"runsc"' in out.stdout


def grade_pytest_task(g: Any, environment: str, completion: str, test_patch: str, test_cmd: str,
                      task_id: str = "repo") -> dict:
    """One pytest repository task of the repo red-team files' shape (tests/test_mod.py: test_sum must turn to pass,
    test_zero must still pass) graded on a SyncGrader, its box settled before the next."""
    from sandbox.contract import parse_task

    result = g.call(g.grader.grade_repo(parse_task({"id": task_id, "kind": "repo", "environment": environment,
                                                    "completion": completion, "test_patch": test_patch,
                                                    "test_cmd": test_cmd, "fail_to_pass": ["tests/test_mod.py::test_sum"],
                                                    "pass_to_pass": ["tests/test_mod.py::test_zero"], "report": "pytest"})))
    g.call(g.grader.settled())
    return result


@contextlib.contextmanager
def one_sandbox(backend: str, pool_name: str, **kw) -> Iterator[Any]:
    """A SyncGrader over a one-sandbox Python pool: backend "docker", "gvisor", "userns", or "runsc" (Docker
    with gVisor's runtime; the test is skipped, saying why, where dockerd lacks it). kw overrides."""
    import pytest

    from sandbox import SandboxConfig
    from sandbox.sync import SyncGrader

    kw = {"languages": ("python",), "pool_size": 1, "pool_name": pool_name, **kw}
    if backend in GVISOR_KERNEL and os.environ.get(WARM_FORK_ENV):
        kw.setdefault("warm_fork", os.environ[WARM_FORK_ENV])
    if backend == "runsc":
        if not runsc_registered():
            pytest.skip(RUNSC_MISSING)
        g = SyncGrader(SandboxConfig(runtime="runsc", **kw))
    else:
        g = SyncGrader(sandbox_config(backend, **kw))
        assert g.grader.available, g.grader.unavailable_reason()
    try:
        yield g
    finally:
        g.close()


def build_environment(src: Path, recipes: Path, root: Path, name: str, test_cmd: str, language: str = "python",
                      **recipe: Any) -> None:
    """The project written in `src` committed, bundled and built (`verifier env build`) as environment `name` in
    `root`, the way the repo red-team files make their small real projects; `recipe` adds recipe fields
    (`install`, `report`: pytest by default)."""
    from verifier.tools.cli import main as verifier_cli

    git = ["git", "-C", str(src), "-c", "user.name=t", "-c", "user.email=t@t"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", name], ["bundle", "create", "-q", "r.bundle", "HEAD"]):
        subprocess.run([*git, *args], check=True, capture_output=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    (recipes / f"{name}.json").write_text(json.dumps({"name": name, "language": language, "commit": commit,
                                                      "repo": str(src / "r.bundle"), "test_cmd": test_cmd,
                                                      "report": "pytest", **recipe}))
    assert verifier_cli(["env", "build", str(recipes / f"{name}.json"), "--environments", str(root)]) == 0


def write_files(root: Path, files: dict[str, str]) -> None:
    """Each `path: text` of `files` written under `root`, folders made."""
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)


@contextlib.contextmanager
def repo_grader(backend: str, pool_name: str, environments: Path, language: str = "python", **kw) -> Iterator[Any]:
    """A SyncGrader with one box of `language` and one warm box per environment of `environments` (one_sandbox)."""
    with one_sandbox(backend, pool_name, languages=(language,), repo_environments=str(environments), repo_pool_size=1,
                     **kw) as g:
        yield g


class RemoteGrader:
    """SyncGrader's `grade`/`grade_many`, through a running server's gRPC port instead of an in-process pool: the
    backend-parametrized suites run against a deployed server with it (tests/conftest.py VERIFIER_TEST_SERVER;
    tests/test_sandbox_pod.py). A task is sent as the test wrote it, given an id (and kind "code", which an
    in-process grader assumes); `grade_many` is one request."""

    def __init__(self, target: str, token: str = "", backend: str = "gvisor") -> None:
        import types

        from sandbox import SandboxConfig
        from verifier.client import ClientConfig, VerifierClient

        self.client = VerifierClient(target, ClientConfig(token=token, timeout_s=600, on_invalid="result"))
        # what tests read of an in-process grader's settings: the server's (its backend, the defaults otherwise)
        self.grader = types.SimpleNamespace(config=SandboxConfig(backend=backend))
        self._n = 0

    def _ids(self, tasks: list[dict]) -> list[dict]:
        out = []
        for t in tasks:
            self._n += 1
            out.append({"id": f"t{self._n}", "kind": "code", **t})  # an in-process grader's tasks are all code
        return out

    def grade(self, task: dict, timeout_s: float | None = None) -> dict:
        return self.grade_many([task])[0]

    def grade_many(self, tasks) -> list[dict]:
        return self.client.grade(self._ids(list(tasks)))

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> RemoteGrader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ---------------------------------------------------------------- sessions (tests/test_sessions*.py)

SESSION_SERVER_ARGS = ("--workers", "1", "--sandbox-languages", "python", "--sandbox-pool-size", "1")


def session_fixtures(token: str, max_sessions: int, timeout_s: float) -> tuple[Any, Any]:
    """The module-scoped `server` (a session server wanting `token`, at most `max_sessions`) and
    `client` (a VerifierClient with that token) fixtures of a session test module:
    `server, client = session_fixtures(TOKEN, 8, 60)`."""
    import pytest

    from conftest import ServerProcess
    from verifier.client import ClientConfig, VerifierClient

    @pytest.fixture(scope="module")
    def server() -> Iterator[ServerProcess]:
        with ServerProcess(*SESSION_SERVER_ARGS, "--token", token, "--max-sessions", str(max_sessions)) as s:
            yield s

    @pytest.fixture(scope="module")
    def client(server: ServerProcess) -> Iterator[VerifierClient]:
        with VerifierClient(server.target, ClientConfig(token=token, timeout_s=timeout_s)) as c:
            yield c

    return server, client


def http_call(server, method: str, path: str, body: dict | None = None, token: str = "") -> tuple[int, dict, dict]:
    """(status, headers, JSON body) of one HTTP call; error answers are answers, not exceptions."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server.http_url + path, data=data, method=method,
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(req, timeout=120) as resp:
            return resp.status, dict(resp.headers), json.loads(resp.read())
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), json.loads(e.read())


def host_pids_with(marker: str) -> list[int]:
    """PIDs on this host whose command line holds marker (a session's processes are host processes too)."""
    out = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if marker.encode() in cmdline.read_bytes():
                out.append(int(cmdline.parent.name))
        except OSError:
            pass
    return [p for p in out if p != os.getpid()]


def session_containers(server) -> list[str]:
    """Ids of a server's session containers (the low-level list: no inspect of one being removed)."""
    import docker

    mine = {"label": ["grpo-verifier.session", f"grpo-verifier.owner={os.uname().nodename}:{server.proc.pid}"]}
    return [c["Id"][:12] for c in docker.from_env().api.containers(all=True, filters=mine)]


def wait_until(check, timeout_s: float = 60.0) -> bool:
    """Poll `check` until true or the bound passes (a bounded wait, never a timing assertion)."""
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


# A right program and a near miss (right on the first test, off by one on the second: a+b+(a==5))
# per language the images serve, reading "a b" and printing a+b: what every documented deployment
# must grade (tests/test_deploy_compose.py, tests/test_sandbox_pod.py, tests/test_sandbox_hpc.py).
ADD_TESTS = [{"stdin": "1 2\n", "expected_stdout": "3\n"}, {"stdin": "5 -7\n", "expected_stdout": "-2\n"}]
ADD_PROGRAMS: dict[str, tuple[str, str]] = {
    "python": ("a, b = map(int, input().split())\nprint(a + b)",
               "a, b = map(int, input().split())\nprint(a + b + (a == 5))"),
    "c": ('#include <stdio.h>\nint main(void) { long a, b; scanf("%ld %ld", &a, &b); printf("%ld\\n", a + b); return 0; }',
          '#include <stdio.h>\nint main(void) { long a, b; scanf("%ld %ld", &a, &b); printf("%ld\\n", a + b + (a == 5)); return 0; }'),
    "cpp": ('#include <iostream>\nint main() { long a, b; std::cin >> a >> b; std::cout << a + b << "\\n"; }',
            '#include <iostream>\nint main() { long a, b; std::cin >> a >> b; std::cout << a + b + (a == 5) << "\\n"; }'),
    "javascript": ("const [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/).map(Number);\nconsole.log(a + b);",
                   "const [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/).map(Number);\n"
                   "console.log(a + b + (a === 5 ? 1 : 0));"),
    "java": ("import java.util.Scanner;\npublic class Main { public static void main(String[] x) {\n"
             "  Scanner s = new Scanner(System.in); long a = s.nextLong(), b = s.nextLong(); System.out.println(a + b); } }",
             "import java.util.Scanner;\npublic class Main { public static void main(String[] x) {\n"
             "  Scanner s = new Scanner(System.in); long a = s.nextLong(), b = s.nextLong();\n"
             "  System.out.println(a + b + (a == 5 ? 1 : 0)); } }"),
    "rust": ("use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap();\n"
             "  let v: Vec<i64> = s.split_whitespace().map(|x| x.parse().unwrap()).collect(); println!(\"{}\", v[0] + v[1]); }",
             "use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap();\n"
             "  let v: Vec<i64> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();\n"
             "  println!(\"{}\", v[0] + v[1] + (v[0] == 5) as i64); }"),
    "go": ("package main\nimport \"fmt\"\nfunc main() { var a, b int\n fmt.Scan(&a, &b)\n fmt.Println(a + b) }",
           "package main\nimport \"fmt\"\nfunc main() { var a, b int\n fmt.Scan(&a, &b)\n if a == 5 { b++ }\n fmt.Println(a + b) }"),
}


def every_language_tasks(languages: tuple[str, ...] | None = None) -> list[tuple[dict, str]]:
    """(task, the verdict it must get): a right program and a near miss in each language (default:
    every language the images serve, SandboxConfig's), a right and a near-miss math answer."""
    from sandbox import SandboxConfig

    langs = languages or SandboxConfig().languages
    assert set(langs) <= set(ADD_PROGRAMS), f"no programs for {set(langs) - set(ADD_PROGRAMS)}"
    out = [(math_task("math-right", "so \\boxed{\\frac{1}{2}}", "0.5"), "correct"),
           (math_task("math-wrong", "so \\boxed{\\frac{1}{3}}", "0.5"), "incorrect")]
    for lang in langs:
        for tid, program, verdict in (("right", ADD_PROGRAMS[lang][0], "accepted"), ("wrong", ADD_PROGRAMS[lang][1], "wrong_answer")):
            out.append(({"id": f"{lang}-{tid}", "kind": "code", "language": lang, "completion": f"```{lang}\n{program}\n```",
                         "tests": ADD_TESTS}, verdict))
    return out


def verdicts_off(tasks: list[tuple[dict, str]], results: list[dict]) -> dict[str, str]:
    """The tasks whose result is not the verdict they must get: id -> what came back (verdict: detail)."""
    got = {r["id"]: r for r in results}
    return {t["id"]: f"{got[t['id']]['verdict']}: {got[t['id']].get('detail', '')[:200]}" if t["id"] in got else "no result"
            for t, want in tasks if t["id"] not in got or got[t["id"]]["verdict"] != want}


MATH_PROFILES = ("strict", "lenient")


def math_verdicts(completion: str, gold: str, choices: list[str] | None = None) -> list[str]:
    """The in-process grader's verdict under each profile: the math red teams' one reading, since a wrong answer
    must be refused by both (docs/math.md "Answer grammar")."""
    from verifier.math import grade_math

    tasks = [{"completion": completion, "gold": gold, "profile": p} for p in MATH_PROFILES]
    return [grade_math({**t, "choices": choices} if choices else t)["verdict"] for t in tasks]


# The math red teams' cases (tests/test_math_redteam_4.py to _6.py): (completion, gold, choices), one shape.
RED_TEAM_CHOICES = ["3", "5", "7", "9"]
MathCase = tuple[str, str, "list[str] | None"]
MATH_CASE_PARAMS = ("completion", "gold", "choices")


def number_case(completion: str, gold: str = "6") -> MathCase:
    """A case with a number gold."""
    return (completion, gold, None)


def choice_case(completion: str, gold: str = "B") -> MathCase:
    """A multiple-choice case (choice B is `5`)."""
    return (completion, gold, RED_TEAM_CHOICES)


# ---------------------------------------------------------------- the math red teams' tests (tests/test_math_redteam_*.py)
#
# A red team's file is its docstring (the classes it found) and its case tables; each test is one line here, e.g.
# `test_a_label_is_read_whole = refused_test(LABEL_NEAR, """why main paid them""")`. The verdicts asserted are the
# red teams' one reading: a wrong answer is paid by no profile, a right one by every profile.

TestFunction = Callable[..., None]


def assert_math_verdict(completion: str, gold: str, verdict: str, choices: list[str] | None = None) -> None:
    """Every profile gives `verdict`: what a case whose verdict is not just paid or refused pins (a factorial, a base)."""
    got = math_verdicts(completion, gold, choices)
    assert got == [verdict] * len(MATH_PROFILES), f"want {verdict} in every profile of {MATH_PROFILES}, got {got}"


def assert_math_paid(completion: str, gold: str, choices: list[str] | None = None) -> None:
    """A right answer as models write it is paid in every profile: a fix that closes a class must not cost this recall."""
    assert_math_verdict(completion, gold, "correct", choices)


def assert_math_refused(completion: str, gold: str, choices: list[str] | None = None) -> None:
    """A wrong answer (a near miss) is paid by no profile, whichever refusal it gets (`incorrect`, `no_answer`): one
    profile that pays it is a reward a policy learns to collect."""
    got = math_verdicts(completion, gold, choices)
    assert "correct" not in got, f"paid in {[p for p, v in zip(MATH_PROFILES, got) if v == 'correct']}: {got}"


def _argnames(argnames: str | Sequence[str]) -> list[str]:
    """The names of `pytest.mark.parametrize`'s argnames, given as it takes them: "a, b" or ("a", "b")."""
    return [a.strip() for a in argnames.split(",")] if isinstance(argnames, str) else list(argnames)


def case_test(check: Callable[..., None], cases: Sequence[Any], doc: str | None = None,
              argnames: str | Sequence[str] = MATH_CASE_PARAMS, marks: Sequence[Any] = (), **fixed: Any) -> TestFunction:
    """A test of each case of `cases` (a red team's table), parametrized by `argnames` as a written-out
    `@pytest.mark.parametrize(argnames, cases)` test is: each case, with the `fixed` arguments (a table of completions
    alone fixes its `gold`), passes `check`. Bound to a module's `test_...` name it is collected under that name, with the
    ids a written-out test has; `doc`, its docstring, says why the table's cases were paid or refused; `marks` go on it
    as decorators would (a known hole's `pytest.mark.xfail(strict=True, reason=...)`)."""
    import pytest

    def test(**case: Any) -> None:
        check(**fixed, **case)

    # pytest reads a test's arguments off its signature: the table's names, so that parametrize fills them
    test.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY) for name in _argnames(argnames)])
    test.__doc__ = doc
    test = pytest.mark.parametrize(argnames, cases)(test)
    for mark in marks:
        test = mark(test)
    return test


def refused_test(cases: Sequence[Any], doc: str | None = None, argnames: str | Sequence[str] = MATH_CASE_PARAMS,
                 marks: Sequence[Any] = (), **fixed: Any) -> TestFunction:
    """A test that each case of a table of near misses is refused in every profile (assert_math_refused; case_test)."""
    return case_test(assert_math_refused, cases, doc, argnames, marks, **fixed)


def paid_test(cases: Sequence[Any], doc: str | None = None, argnames: str | Sequence[str] = MATH_CASE_PARAMS,
              marks: Sequence[Any] = (), **fixed: Any) -> TestFunction:
    """A test that each case of a table of right answers is paid in every profile (assert_math_paid; case_test)."""
    return case_test(assert_math_paid, cases, doc, argnames, marks, **fixed)


def grpc_verdicts(server: Any, tasks: list[dict]) -> list[str]:
    """The verdicts of one gRPC Grade request holding `tasks`, named as the HTTP API names them."""
    reply = stub(server.target).Grade(request(tasks), timeout=60)
    return [pb.Verdict.Name(r.verdict).removeprefix("VERDICT_").lower() for r in reply.results]


def http_verdicts(server: Any, tasks: list[dict]) -> list[str]:
    """The verdicts of one HTTP /v1/grade request holding `tasks`."""
    status, _, body = http_call(server, "POST", "/v1/grade", {"tasks": tasks})
    assert status == 200, body
    return [r["verdict"] for r in body["results"]]


def _through_the_server(test: Callable[[Any, Callable[[Any, list[dict]], list[str]]], None]) -> TestFunction:
    """`test(verifier_server, path)` once per API (`path`: grpc_verdicts, http_verdicts): a red team's cases through
    the real server too, whose dedup, reuse keys and shared pool the in-process grader does not have."""
    import pytest

    return pytest.mark.parametrize("path", [grpc_verdicts, http_verdicts], ids=["grpc", "http"])(test)


def server_refused_test(tasks: list[dict], doc: str | None = None) -> TestFunction:
    """A test that no task of `tasks` (math_task's), sent in one request, is paid through the server on either API."""

    def test(verifier_server: Any, path: Callable[[Any, list[dict]], list[str]]) -> None:
        got = path(verifier_server, tasks)
        assert "correct" not in got, got

    test.__doc__ = doc
    return _through_the_server(test)


def server_pair_test(pair: list[dict], verdicts: list[str], doc: str | None = None) -> TestFunction:
    """A test that two tasks differing in one field (a reuse-key pair) keep their own `verdicts` through the server on
    either API, sent in one request in either order: a key that missed the field would give both one verdict."""

    def test(verifier_server: Any, path: Callable[[Any, list[dict]], list[str]]) -> None:
        for tasks, want in ((pair, verdicts), (pair[::-1], verdicts[::-1])):
            got = path(verifier_server, tasks)
            assert got == want, f"{[t['id'] for t in tasks]}: want {want}, got {got}"

    test.__doc__ = doc
    return _through_the_server(test)


def read_http_request(conn: socket.socket) -> tuple[bytes, bytes]:
    """One HTTP/1.1 request off `conn`, as a recording peer sees it: (its head, its body by content-length)."""
    head = b""
    while b"\r\n\r\n" not in head and (chunk := conn.recv(65536)):
        head += chunk
    head, _, body = head.partition(b"\r\n\r\n")
    length = next((int(line.partition(b":")[2]) for line in head.lower().split(b"\r\n")
                   if line.startswith(b"content-length:")), 0)
    while len(body) < length and (chunk := conn.recv(65536)):
        body += chunk
    return head, body
