"""The host's strict applier of a read patch (sandbox/repo/apply.py; docs/repo-tasks.md "Running a task"),
and the repo task's fields (sandbox/contract.py RepoTask). Pure: no Docker.

Near misses must not apply (a context line off by a character, a hunk at a line whose text is not
there, an added file that exists, a deletion that leaves lines, a path through a link); rewrites of the
same edit must apply to the same bytes (fenced or bare, CRLF, without git's prefixes, a hunk header
off by some lines, as git's offset allows)."""
from __future__ import annotations

import io
import os
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest

from sandbox.contract import REPO_MAX_EDITABLE, REPO_MAX_PATH_BYTES, REPO_MAX_TEST_IDS, TaskError, parse_task
from sandbox.repo.apply import Overrides, apply_patch, config_texts, task_tar, tree_tar, view_listing
from sandbox.repo.patch import PatchError, check_config_sections, read_patch

BASE = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n"
FIX = ("--- a/pkg/calc.py\n+++ b/pkg/calc.py\n@@ -1,3 +1,3 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n \n")
FIXED = BASE.replace("a - b", "a + b")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "calc.py").write_text(BASE)
    (tmp_path / "README").write_text("no newline at the end")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    return tmp_path


def applied(tree: Path, completion: str) -> Overrides:
    overrides: Overrides = {}
    apply_patch(str(tree), read_patch(completion), overrides)
    return overrides


@pytest.mark.parametrize("completion", [
    FIX,
    f"The fix:\n\n```diff\n{FIX}```\n",
    FIX.replace("\n", "\r\n"),
    FIX.replace("a/pkg", "pkg").replace("b/pkg", "pkg"),
    FIX.replace("@@ -1,3 +1,3 @@", "@@ -4,3 +4,3 @@"),  # the header's line is off: git's offset finds the text
])
def test_rewrites_of_one_edit_apply_to_the_same_bytes(tree: Path, completion: str) -> None:
    assert applied(tree, completion) == {"pkg/calc.py": FIXED.encode()}
    assert (tree / "pkg" / "calc.py").read_text() == BASE  # the environment is never written


@pytest.mark.parametrize("completion, why", [
    (FIX.replace(" def add(a, b):", " def add(a, b): "), "does not apply"),  # a trailing space in the context
    (FIX.replace("-    return a - b", "-    return a-b"), "does not apply"),
    (FIX.replace("a/pkg/calc.py", "a/pkg/calc2.py").replace("b/pkg/calc.py", "b/pkg/calc2.py"), "does not exist"),
    ("--- /dev/null\n+++ b/pkg/calc.py\n@@ -0,0 +1 @@\n+x = 1\n", "already exists"),
    ("--- a/pkg/calc.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-def add(a, b):\n-    return a - b\n", "does not remove all"),
    ("--- a/README/x\n+++ b/README/x\n@@ -1 +1 @@\n-a\n+b\n", "not a regular file or directory"),
    ("--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+1\n--- /dev/null\n+++ b/x/y\n@@ -0,0 +1 @@\n+2\n", "a file written before it"),
    ("--- /dev/null\n+++ b/x/y\n@@ -0,0 +1 @@\n+2\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+1\n", "a directory of files"),
])
def test_near_misses_do_not_apply(tree: Path, completion: str, why: str) -> None:
    with pytest.raises(PatchError, match=why):
        applied(tree, completion)


def test_two_hunks_in_order_and_a_new_file_in_a_new_directory(tree: Path) -> None:
    patch = (FIX + "@@ -5,2 +5,2 @@\n def mul(a, b):\n-    return a * b\n+    return b * a\n"
             "--- /dev/null\n+++ b/pkg/sub/new.py\n@@ -0,0 +1,2 @@\n+X = 1\n+Y = 2\n")
    out = applied(tree, patch)
    assert out["pkg/calc.py"] == FIXED.replace("a * b", "b * a").encode()
    assert out["pkg/sub/new.py"] == b"X = 1\nY = 2\n"
    with tarfile.open(fileobj=io.BytesIO(tree_tar(str(tree), out))) as tar:
        names = tar.getnames()
        assert tar.extractfile("repo/pkg/calc.py").read() == out["pkg/calc.py"]  # type: ignore[union-attr]
    assert "repo/pkg/sub" in names and "repo/pkg/sub/new.py" in names and "repo/README" in names
    assert not any(n.startswith("repo/.git") for n in names)


def test_a_task_s_archive_holds_only_its_own_files_and_its_listing_the_rest(tree: Path) -> None:
    """docs/repo-tasks.md "Warm environments": the sandbox links every file of the listing to the
    environment's read-only tree and writes the archive's over them. A patched or deleted file is never in
    the listing (a link to the unpatched file would be graded); the environment's own links are copied,
    not followed; `.git` is left out."""
    (tree / "pkg" / "gone.py").write_text("x = 1\n")
    os.symlink("calc.py", tree / "pkg" / "alias.py")
    deleted = "--- a/pkg/gone.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x = 1\n"
    out = applied(tree, FIX + deleted + "--- /dev/null\n+++ b/pkg/sub/new.py\n@@ -0,0 +1 @@\n+X = 1\n")
    with tarfile.open(fileobj=io.BytesIO(task_tar(out))) as tar:
        assert sorted(tar.getnames()) == ["repo", "repo/pkg", "repo/pkg/calc.py", "repo/pkg/sub", "repo/pkg/sub/new.py"]
        assert tar.extractfile("repo/pkg/calc.py").read() == FIXED.encode()  # type: ignore[union-attr]
    view = view_listing(str(tree), out)
    assert view.dirs == ("pkg",) and view.files == ("README",) and view.links == (("pkg/alias.py", "calc.py"),)
    assert view_listing(str(tree), {}).files == ("README", "pkg/calc.py", "pkg/gone.py")  # the near miss: unpatched


@pytest.mark.parametrize("where", ["pkg/calc.py", "pkg", "."])
def test_an_environment_writable_by_others_is_refused(tree: Path, where: str) -> None:
    """docs/repo-tasks.md "Warm environments": gVisor's read-only bind let a task truncate a file writable by
    others, so only permissions keep an environment's files from a task: a file or folder writable by group
    or others is the environment's fault (OSError, the plan's infra_error), before any box."""
    os.chmod(tree / where, os.stat(tree / where).st_mode | 0o002)
    with pytest.raises(OSError, match="writable by others"):
        view_listing(str(tree), {})
    os.chmod(tree / where, os.stat(tree / where).st_mode & ~0o022)  # the near miss: sealed, listed
    assert view_listing(str(tree), {}).files == ("README", "pkg/calc.py")


def test_a_file_without_its_last_newline_keeps_it_off(tree: Path) -> None:
    patch = ("--- a/README\n+++ b/README\n@@ -1 +1 @@\n-no newline at the end\n\\ No newline at end of file\n"
             "+still none\n\\ No newline at end of file\n")
    assert applied(tree, patch) == {"README": b"still none"}
    with pytest.raises(PatchError, match="does not apply"):  # the old line claimed to end in a newline
        applied(tree, "--- a/README\n+++ b/README\n@@ -1 +1 @@\n-no newline at the end\n+x\n")


def test_a_deletion_and_a_link_in_the_way(tree: Path) -> None:
    out = applied(tree, "--- a/pkg/calc.py\n+++ /dev/null\n@@ -1,6 +0,0 @@\n" + "".join("-" + line + "\n" for line in BASE.splitlines()))
    assert out == {"pkg/calc.py": None}
    with tarfile.open(fileobj=io.BytesIO(tree_tar(str(tree), out))) as tar:
        assert "repo/pkg/calc.py" not in tar.getnames()
    os.symlink("/etc", tree / "etc")
    with pytest.raises(PatchError, match="not a regular file"):
        applied(tree, "--- a/etc/hostname\n+++ b/etc/hostname\n@@ -1 +1 @@\n-a\n+b\n")


def test_pytest_s_section_of_pyproject_is_compared_after_the_patch(tree: Path) -> None:
    (tree / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n')
    other = applied(tree, '--- a/pyproject.toml\n+++ b/pyproject.toml\n@@ -1,2 +1,2 @@\n [project]\n-name = "x"\n+name = "y"\n')
    check_config_sections(*config_texts(str(tree), other))  # another section's edit is allowed
    hooked = applied(tree, '--- a/pyproject.toml\n+++ b/pyproject.toml\n@@ -4,2 +4,2 @@\n [tool.pytest.ini_options]\n'
                           '-addopts = "-q"\n+addopts = "-p evil"\n')
    with pytest.raises(PatchError, match="pytest's configuration"):
        check_config_sections(*config_texts(str(tree), hooked))


TASK = {"id": "t", "kind": "repo", "environment": "toolz-1", "test_cmd": "python3 -m pytest -rA t.py",
        "fail_to_pass": ["t.py::test_a"], "pass_to_pass": ["t.py::test_b"]}


@pytest.mark.parametrize("change, field", [
    ({"environment": "../etc"}, "task.environment"),
    ({"environment": ""}, "task.environment"),
    ({"test_cmd": " "}, "task.test_cmd"),
    ({"test_cmd": "x" * 5000}, "task.test_cmd"),
    ({"fail_to_pass": []}, "task.fail_to_pass"),
    ({"fail_to_pass": ["a", 3]}, "task.fail_to_pass[1]"),
    ({"pass_to_pass": ["t.py::test_a"]}, "task.pass_to_pass[0]"),  # named in both lists
    ({"pass_to_pass": [f"t{i}" for i in range(REPO_MAX_TEST_IDS + 1)]}, "task.pass_to_pass"),
    ({"report": "junit-ish"}, "task.report"),
    ({"time_limit_s": 10_000}, "task.time_limit_s"),
    ({"memory_limit_mb": 1.5}, "task.memory_limit_mb"),
    ({"gold": "x"}, "task"),
    ({"editable": "pkg/calc.py"}, "task.editable"),  # a list, not a path
    ({"editable": ["pkg/calc.py", 3]}, "task.editable[1]"),
    ({"editable": ["/pkg/calc.py"]}, "task.editable[0]"),  # exact repository-relative paths: one spelling each
    ({"editable": ["./pkg/calc.py"]}, "task.editable[0]"),
    ({"editable": ["pkg//calc.py"]}, "task.editable[0]"),
    ({"editable": ["pkg/../pkg/calc.py"]}, "task.editable[0]"),
    ({"editable": ["pkg\\calc.py"]}, "task.editable[0]"),
    ({"editable": ["pkg/calc.py\n"]}, "task.editable[0]"),
    ({"editable": [".git/config"]}, "task.editable[0]"),
    ({"editable": ["pkg/calc.py", "pkg/calc.py"]}, "task.editable[1]"),
    ({"editable": ["p" * (REPO_MAX_PATH_BYTES + 1)]}, "task.editable[0]"),
    ({"editable": [f"pkg/m{i}.py" for i in range(REPO_MAX_EDITABLE + 1)]}, "task.editable"),
])
def test_a_bad_repo_field_is_named(change: dict, field: str) -> None:
    with pytest.raises(TaskError) as e:
        parse_task({**TASK, **change})
    assert e.value.field == field


def test_a_repo_task_round_trips_its_dict() -> None:
    model = parse_task(TASK)
    assert parse_task(model.to_dict()) == model and model.to_dict()["kind"] == "repo"
    listed = parse_task({**TASK, "editable": ["pkg/calc.py", "docs/x.md"]})
    assert parse_task(listed.to_dict()) == listed and listed.editable == ("pkg/calc.py", "docs/x.md")


def test_a_repo_task_s_editable_crosses_the_wire_unchanged() -> None:
    """One schema on every path: `editable` as the proto carries it (gRPC, a session's grade) is the dict's."""
    from verifier.schema import model_from_proto, task_to_proto

    listed = parse_task({**TASK, "editable": ["pkg/calc.py", "pkg/util.py"]})
    assert model_from_proto(task_to_proto(listed)) == listed
    # a session's grade (docs/sessions.md "Grading a session"): the client's request and the server's reading of it
    from verifier.client import _grade_request
    from verifier.session_wire import grade_task_from_proto

    request = _grade_request("s", {"test_cmd": "pytest", "fail_to_pass": ["t"], "editable": ["pkg/calc.py"]})
    assert grade_task_from_proto(request.task)["editable"] == ["pkg/calc.py"]


def test_hunks_far_from_their_headers_run_out_of_search_rather_than_hold_the_host(tmp_path: Path) -> None:
    """Each hunk's header points past the end, its text near the start: the offset search walks the
    file for each; a bounded search refuses the patch (the model's wrong_answer) instead of costing
    hunks x lines comparisons. The same hunks at their lines apply."""
    (tmp_path / "big.txt").write_text("".join(f"l{i}\n" for i in range(20_000)))

    def patch(line_of: Callable[[int], int]) -> str:
        return "--- a/big.txt\n+++ b/big.txt\n" + "".join(
            f"@@ -{line_of(k)},1 +{line_of(k)},1 @@\n-l{k * 10}\n+m{k * 10}\n" for k in range(300))

    assert applied(tmp_path, patch(lambda k: k * 10 + 1))["big.txt"].count(b"m") == 300  # type: ignore[union-attr]
    with pytest.raises(PatchError, match="ran out"):
        applied(tmp_path, patch(lambda k: 30_000))


def plan_of(tree: Path, **change: object) -> object:
    """make_repo_plan over `tree` as the environment `env` (the host's part of a repo task: no container)."""
    from sandbox.config import SandboxConfig
    from sandbox.repo_job import make_repo_plan

    env = tree.parent / "envs" / "env"
    env.mkdir(parents=True, exist_ok=True)
    (env / "environment.json").write_text('{"language": "python"}')
    if not (env / "repo").exists():
        (env / "repo").symlink_to(tree)
    task = parse_task({**TASK, "environment": "env", "completion": FIX, "test_patch": TEST_PATCH, **change})
    return make_repo_plan(task, SandboxConfig(repo_environments=str(tree.parent / "envs")))  # type: ignore[arg-type]


TEST_PATCH = "--- /dev/null\n+++ b/tests/test_calc.py\n@@ -0,0 +1,2 @@\n+def test_a():\n+    assert True\n"


def test_the_host_s_part_of_a_repo_task_decides_what_it_can_before_a_container(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sandbox.plan import InfraFailure
    from sandbox.repo_job import RepoPlan

    plan = plan_of(tree)
    assert isinstance(plan, RepoPlan)
    with tarfile.open(fileobj=io.BytesIO(plan.tree)) as tar:
        assert tar.extractfile("repo/pkg/calc.py").read() == FIXED.encode()  # type: ignore[union-attr]
        assert tar.extractfile("repo/tests/test_calc.py").read() == b"def test_a():\n    assert True\n"  # type: ignore[union-attr]
    # a file where the test patch's directory goes: the model's patch is in the way, its failure
    in_the_way = plan_of(tree, completion="--- /dev/null\n+++ b/tests\n@@ -0,0 +1 @@\n+x\n")
    assert isinstance(in_the_way, dict) and in_the_way["verdict"] == "wrong_answer"
    assert "tests" in in_the_way["detail"]  # refused by the allowlist (not a .py) before it is in the way
    # a non-test file the test patch adds is the task's test file: the model may not write it
    data = "--- /dev/null\n+++ b/pkg/fixture.json\n@@ -0,0 +1 @@\n+{}\n"
    taken = plan_of(tree, completion=data, test_patch=TEST_PATCH + data)
    assert isinstance(taken, dict) and taken["verdict"] == "wrong_answer" and "protected path" in taken["detail"]
    # a test patch that does not apply to the environment at all: the task's error, not the model's grade
    broken = plan_of(tree, test_patch="--- a/pkg/none.py\n+++ b/pkg/none.py\n@@ -1 +1 @@\n-a\n+b\n")
    assert isinstance(broken, dict) and broken["verdict"] == "error"
    nothing = plan_of(tree, completion="I would fix add().")
    assert isinstance(nothing, dict) and nothing["verdict"] == "no_code"
    with pytest.raises(InfraFailure, match="not built") as e:
        plan_of(tree, environment="other")
    assert not e.value.retryable
    from sandbox.config import SandboxConfig
    from sandbox.repo_job import make_repo_plan

    monkeypatch.chdir(tree.parent / "envs" / "env")  # an environment's files in the cwd: a server without
    with pytest.raises(InfraFailure, match="repo tasks are off"):  # environments reads none of them
        make_repo_plan(parse_task({**TASK, "environment": "env"}), SandboxConfig())  # type: ignore[arg-type]


def new_module(path: str) -> str:
    return f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+X = 1\n"


def test_the_patch_s_own_files_past_work_s_inodes_are_the_model_s_failure(tree: Path) -> None:
    """/work holds the task's tree, an inode a file or folder (docs/repo-tasks.md "Warm environments"):
    past `tmpfs_inodes` by the patch's own new files and folders, the model's wrong_answer naming the
    bound (rt33f: it was the environment's infra_error); past it by the environment alone, infra_error.
    Here the environment and the test patch take 6 (pkg, its two files, README, tests/, its test file)."""
    from sandbox.config import SandboxConfig
    from sandbox.plan import InfraFailure
    from sandbox.repo_job import INODES_SPARE, RepoPlan, make_repo_plan

    (tree / "pkg" / "__init__.py").write_text("")
    envs = tree.parent / f"envs-{tree.name}"  # its own: plan_of's folder is every test's
    (envs / "env").mkdir(parents=True)
    (envs / "env" / "environment.json").write_text('{"language": "python"}')
    (envs / "env" / "repo").symlink_to(tree)

    def plan(completion: str, room: int = 10) -> object:
        task = parse_task({**TASK, "environment": "env", "completion": completion, "test_patch": TEST_PATCH})
        config = SandboxConfig(repo_environments=str(envs), tmpfs_inodes=INODES_SPARE + room)
        return make_repo_plan(task, config)  # type: ignore[arg-type]

    four = FIX + "".join(new_module(f"pkg/m{k}.py") for k in range(4))
    assert isinstance(plan(four), RepoPlan)  # 10: fits
    for over in (four + new_module("pkg/m4.py"),  # 11 files and folders
                 FIX + "".join(new_module(f"pkg/sub/{n}.py") for n in ("__init__", "a", "b", "c"))):  # a new folder counts
        refused = plan(over)
        assert isinstance(refused, dict) and refused["verdict"] == "wrong_answer" and refused["score"] == 0, refused
        assert "tmpfs_inodes" in refused["detail"] and "the patch adds 5 files and folders" in refused["detail"], refused
    assert isinstance(plan(FIX + "".join(new_module(f"pkg/sub/{n}.py") for n in ("__init__", "a", "b"))), RepoPlan)
    with pytest.raises(InfraFailure, match="tmpfs_inodes") as e:  # the environment and the tests alone: not the model's
        plan(FIX + new_module("pkg/m0.py"), room=5)
    assert not e.value.retryable


def _own_envs(tree: Path) -> str:
    """A folder of environments whose `env` is `tree` (plan_of's folder is every test's)."""
    envs = tree.parent / f"envs-{tree.name}"
    (envs / "env").mkdir(parents=True)
    (envs / "env" / "environment.json").write_text('{"language": "python"}')
    (envs / "env" / "repo").symlink_to(tree)
    return str(envs)


def test_a_python_task_s_tree_holds_its_sources_and_its_command_s_files_as_copies(tree: Path, tmp_path_factory:
                                                                                   pytest.TempPathFactory) -> None:
    """docs/repo-tasks.md "Warm environments" (h33r): code that resolves its own path through a link lands in the
    read-only environment, and imports or reads the unpatched files beside it there (a linked conftest.py putting its
    resolved root on sys.path refused a right patch: tests/test_repo_redteam_links.py). So a Python task's tree
    holds every `.py` file (but vendor/'s) and the files its test command names as copies, with the environment's
    mode and times; data, vendor/ and other languages' files stay links. Made here by the runner's own code
    (sandbox/harness/repo_tree.py), with its ENV pointed at the environment's folder and its TREE at a folder here."""
    import json
    import subprocess
    import sys

    from sandbox.backend import ENV_MOUNT, TREE_MOUNT
    from sandbox.config import SandboxConfig
    from sandbox.repo_job import RepoPlan, copied, make_repo_plan

    (tree / "tests").mkdir()
    (tree / "tests" / "conftest.py").write_text("import sys\n")
    (tree / "run.sh").write_text("exec python3 -m pytest tests\n")
    os.chmod(tree / "run.sh", 0o755)
    (tree / "pkg" / "data.txt").write_text("2\n")
    (tree / "vendor" / "site-packages" / "dep").mkdir(parents=True)
    (tree / "vendor" / "site-packages" / "dep" / "__init__.py").write_text("X = 1\n")
    os.utime(tree / "tests" / "conftest.py", ns=(10**18, 10**18))
    plan = make_repo_plan(parse_task({**TASK, "environment": "env", "completion": FIX, "test_patch": TEST_PATCH,
                                      "test_cmd": "sh run.sh"}), SandboxConfig(repo_environments=_own_envs(tree)))  # type: ignore[arg-type]
    assert isinstance(plan, RepoPlan)
    dirs, files, links, copies = json.loads(plan.view)
    assert copies == ["run.sh", "tests/conftest.py"]  # pkg/calc.py is the patch's: in the archive
    assert files == ["README", "pkg/data.txt", "vendor/site-packages/dep/__init__.py"] and links == []
    assert plan.copy_bytes == 2 * 4096  # a page each: what they take of /work
    # the near misses: the same files in a go environment, or not named by the command, stay links
    assert [copied("go", "sh run.sh")(p) for p in ("run.sh", "tests/conftest.py")] == [True, False]
    assert [copied("python", "python3 -m pytest")(p) for p in ("run.sh", "pkg/data.txt", "VENDOR/x.py", "a/b.py")] == [
        False, False, False, True]
    # the runner's tree over that view: copies are files with the environment's bytes, mode and times
    job, made = tmp_path_factory.mktemp("job"), tmp_path_factory.mktemp("tree")
    (job / "view.json").write_bytes(plan.view)
    (job / "repo.tar").write_bytes(plan.tree)
    harness = Path(__file__).resolve().parents[1] / "sandbox" / "harness"
    script = (f"import sys; sys.path.insert(0, {str(harness)!r}); import repo_tree; print(repo_tree.ENV, repo_tree.TREE); "
              f"repo_tree.ENV = {str(tree)!r}; repo_tree.TREE = {str(made)!r}; print(repo_tree.make({str(job)!r}, ['run.sh']))")
    out = subprocess.run([sys.executable, "-I", "-c", script], check=True, capture_output=True, text=True).stdout.split("\n")
    repo = made / "repo"
    assert out[0] == f"{ENV_MOUNT} {TREE_MOUNT}"  # the runner's paths are the backends' mounts
    assert out[1] == str(repo) and sorted(os.listdir(job)) == []  # the host's files read and removed
    # not writable by others but what the host lists (go.mod and go.sum in a Go task): here run.sh
    assert oct(os.stat(repo / "run.sh").st_mode & 0o777) == "0o777" and os.stat(repo / "pkg" / "calc.py").st_mode & 0o022 == 0
    assert all(os.stat(d).st_mode & 0o777 == 0o755 for d in (repo, repo / "pkg", repo / "tests"))
    assert not (repo / "tests" / "conftest.py").is_symlink() and (repo / "tests" / "conftest.py").read_text() == "import sys\n"
    assert os.stat(repo / "tests" / "conftest.py").st_mtime_ns == 10**18 and os.access(repo / "run.sh", os.X_OK)
    assert (repo / "tests" / "conftest.py").resolve() == repo / "tests" / "conftest.py"
    assert os.readlink(repo / "pkg" / "data.txt") == str(tree / "pkg" / "data.txt")
    assert (repo / "pkg" / "calc.py").read_text() == FIXED and not (repo / "pkg" / "calc.py").is_symlink()


def test_long_links_count_toward_what_the_tree_holds(tree: Path) -> None:
    """Linux's tmpfs keeps a link's target past 127 bytes in a page of its own (rt33s: 4,600 links `/srv/PATH` at long
    paths filled a 20 MiB tree the copies alone fit, and `tree_full` was charged to the model). So each such link is a
    page of the bound (View.tree_bytes): over the tree's tmpfs with WORK_SPARE left, the environment's infra_error, not
    retryable. Near miss: as many links at short paths take no page, and the same tree fits."""
    from sandbox.config import SandboxConfig
    from sandbox.plan import InfraFailure
    from sandbox.repo_job import RepoPlan, make_repo_plan

    deep = tree / "data" / ("d" * 120)
    deep.mkdir(parents=True)
    for i in range(1100):  # 1,100 pages: 4.3 MiB
        (deep / f"f{i:05d}.txt").write_text("1\n")
    envs = _own_envs(tree)
    task = parse_task({**TASK, "environment": "env", "completion": FIX, "test_patch": TEST_PATCH})
    plan = make_repo_plan(task, SandboxConfig(repo_environments=str(envs), work_tmpfs_mb=21))  # type: ignore[arg-type]
    assert isinstance(plan, RepoPlan) and plan.copy_bytes >= 1100 * 4096, plan
    with pytest.raises(InfraFailure, match="long links") as e:
        make_repo_plan(task, SandboxConfig(repo_environments=str(envs), work_tmpfs_mb=20))  # type: ignore[arg-type]
    assert not e.value.retryable
    deep.rename(tree / "data" / "d")  # the same files, each link's target within its inode
    assert isinstance(make_repo_plan(task, SandboxConfig(repo_environments=str(envs), work_tmpfs_mb=17)), RepoPlan)  # type: ignore[arg-type]


def test_copies_over_what_work_holds_are_the_environment_s_infra_error(tree: Path) -> None:
    """The copies are the environment's (`copied`): over the sandbox's /work with WORK_SPARE left, the environment's
    infra_error, not retryable, never the model's grade. At 17 MiB the copy (1 MiB) fits but the test patch's file
    (a page) does not: the task's infra_error (the next test); at 18 MiB both fit."""
    from sandbox.config import SandboxConfig
    from sandbox.plan import InfraFailure
    from sandbox.repo_job import RepoPlan, make_repo_plan

    (tree / "pkg" / "big.py").write_bytes(b"#" * (1 << 20))
    envs = _own_envs(tree)
    task = parse_task({**TASK, "environment": "env", "completion": FIX, "test_patch": TEST_PATCH})
    assert isinstance(make_repo_plan(task, SandboxConfig(repo_environments=str(envs), work_tmpfs_mb=18)), RepoPlan)  # type: ignore[arg-type]
    for mb, why in ((17, "its own files"), (16, "copies and long links")):
        with pytest.raises(InfraFailure, match=f"{why}.*work_tmpfs_mb") as e:
            make_repo_plan(task, SandboxConfig(repo_environments=str(envs), work_tmpfs_mb=mb))  # type: ignore[arg-type]
        assert not e.value.retryable


def _runners(tree: Path) -> None:
    """Runners of the environment's that find the tree from their own resolved path, and its own links to them."""
    (tree / "tools").mkdir()
    (tree / "runlocal").write_text('cd "$(dirname "$(readlink -f "$0")")"\n')
    (tree / "tools" / "local.sh").write_text('cd "$(dirname "$(readlink -f "$0")")/.."\n')
    (tree / "ci").symlink_to("tools")
    (tree / "golocal").symlink_to("runlocal")
    (tree.parent / "outside.sh").write_text("exit 0\n")
    (tree / "escape.sh").symlink_to("../outside.sh")
    (tree / "tools" / "Makefile").write_text('check:\n\tcd "$(dir $(realpath $(lastword $(MAKEFILE_LIST))))"\n')


@pytest.mark.parametrize("cmd, path", [
    ("bash runlocal", "runlocal"), ("sh ./runlocal -x", "runlocal"), ("bash ci/local.sh", "tools/local.sh"),
    ("bash golocal", "runlocal"), ("cd ci && sh ./local.sh", "tools/local.sh"), ('bash "$PWD/runlocal"', "runlocal"),
    ("bash tools/../runlocal", "runlocal"), ("X=ci/local.sh; sh $X", "tools/local.sh"), ("(cd tools; ./local.sh)", "tools/local.sh"),
    ("make -C tools check", "tools/Makefile"), ("cd ci && make", "tools/Makefile"),
])
def test_the_file_a_test_command_names_is_a_copy_however_it_names_it(tree: Path, cmd: str, path: str) -> None:
    """rt33q: a runner the command named by a bare word or through the environment's folder link was no copy, so its
    `readlink -f "$0"` landed in /srv and ran the unpatched tests (a right patch refused). Every word of the command is
    resolved from the tree's root through the environment's own links, and its last part names a file from any folder
    a `cd` enters (sandbox/repo_job.py `command_files`): that file is a copy in any language, in the listing too.
    Near misses: the other runner, a file named by no word, and a link out of the tree stay links or are left out."""
    from sandbox.repo_job import copied

    _runners(tree)
    copy = copied("go", cmd, str(tree))
    assert copy(path), (cmd, path)
    other = {"runlocal": "tools/local.sh", "tools/local.sh": "runlocal", "tools/Makefile": "runlocal"}[path]
    assert not copy(other) and not copy("README") and not copy("pkg/calc.py")
    view = view_listing(str(tree), {}, copy)
    assert view.copies == (path,) and other in view.files and ("ci", "tools") in view.links


def test_words_that_name_no_file_of_the_tree_copy_nothing(tree: Path) -> None:
    """Near misses of the above: a link out of the tree, `..` out of it, an absolute path, a missing name, a folder's
    name and an option's letters name no file of the tree: nothing is copied (the link out stays a link)."""
    from sandbox.repo_job import command_files, copied

    _runners(tree)
    cmd = "bash escape.sh ../outside.sh /etc/passwd nothere tools -runlocal --x=-golocal"
    command = command_files(cmd, str(tree))
    assert not command.resolved & {"outside.sh", "runlocal", "tools/local.sh"}, command
    view = view_listing(str(tree), {}, copied("go", cmd, str(tree)))
    assert view.copies == () and ("escape.sh", "../outside.sh") in view.links


def test_the_dataset_s_part_of_work_leaves_the_patch_its_spare(tree: Path) -> None:
    """rt33q (RED-TEAM.md class 8): the runner's files op writes the task's archive and the environment's listing into
    /work, and a full /work there was the environment's infra_error whoever's files filled it, a one-line edit of a
    big linked data file among them. So the host bounds the dataset's part (sandbox/repo_job.py `_work_share`: the
    listing and the archive of the dataset's own files, whole pages) to leave WORK_SPARE for the patch, and a full
    /work past it is the patch's own verdict (`_run`; tests/test_repo_redteam_copies.py on Docker and gVisor).
    11,000 linked files at 96-byte paths make a 1.1 MiB listing (their links within their inodes, no copies: the
    tree's bound holds at 17 MiB): at 17 MiB the task's infra_error, not retryable, naming the bound; at 18 MiB it
    plans, and the model's own files, however many, are never the dataset's share."""
    from sandbox.config import SandboxConfig
    from sandbox.plan import InfraFailure
    from sandbox.repo.apply import pages
    from sandbox.repo_job import WORK_SPARE, RepoPlan, make_repo_plan, work_bytes

    deep = tree / "data" / ("d" * 80)
    deep.mkdir(parents=True)
    for i in range(11000):
        (deep / f"f{i:05d}.txt").write_text("1\n")
    (tree / "pkg" / "__init__.py").write_text("")  # a package, so the patch may add modules to it

    envs = _own_envs(tree)

    def plan(mb: int, completion: str = FIX) -> object:
        task = parse_task({**TASK, "environment": "env", "completion": completion, "test_patch": TEST_PATCH})
        return make_repo_plan(task, SandboxConfig(repo_environments=envs, work_tmpfs_mb=mb, tmpfs_inodes=20000))  # type: ignore[arg-type]

    fits = plan(18)
    assert isinstance(fits, RepoPlan) and fits.copy_bytes == 0 and len(fits.view) > 1 << 20, fits
    assert (17 << 20) < work_bytes(b"", fits.view) + WORK_SPARE + pages(1) <= 18 << 20  # over 17 MiB with the test file
    with pytest.raises(InfraFailure, match="listing and the task's own files .* work_tmpfs_mb") as e:
        plan(17)
    assert not e.value.retryable
    mine = plan(18, FIX + "".join(new_module(f"pkg/m{k}.py") for k in range(300)))
    assert isinstance(mine, RepoPlan) and len(mine.tree) > len(fits.tree) + 300 * 512, mine


def data_files(n: int, size: int = 2, prefix: str = "tests/data/f") -> str:
    """A test patch's part adding `n` new files of `size` bytes (a line of "1"s) under `prefix`."""
    return "".join(f"--- /dev/null\n+++ b/{prefix}{i:05d}.txt\n@@ -0,0 +1 @@\n+{'1' * (size - 1)}\n" for i in range(n))


def test_the_dataset_s_own_files_count_toward_what_the_tree_holds(tree: Path) -> None:
    """rt30ae (RED-TEAM.md class 8 turned round): the test patch's files went into the tree's spare uncounted, and 4,400
    one-line data files filled it, the runner's `tree_full` charged to the right patch (wrong_answer). So the dataset's
    own files (test patch, decoys: sandbox/repo/apply.py own_bytes, a 4 KiB page each) join the environment's part in
    the host's bound: past the tree's tmpfs with WORK_SPARE left for the patch, the task's infra_error, not retryable,
    naming the bound. Exact fit plans; one page more (a file, or a byte past a page) does not; the patch's own files
    are never the dataset's (their room is the spare)."""
    from sandbox.config import SandboxConfig
    from sandbox.plan import InfraFailure
    from sandbox.repo.apply import PAGE
    from sandbox.repo_job import WORK_SPARE, RepoPlan, make_repo_plan

    (tree / "pkg" / "big.py").write_bytes(b"#" * (1 << 20))  # a copy: 1 MiB of the environment's part
    (tree / "pkg" / "__init__.py").write_text("")  # a package, so the patch may add modules to it
    config = SandboxConfig(repo_environments=_own_envs(tree), work_tmpfs_mb=18)

    def plan(test_patch: str, completion: str = FIX) -> object:
        task = parse_task({**TASK, "environment": "env", "completion": completion, "test_patch": test_patch})
        return make_repo_plan(task, config)  # type: ignore[arg-type]

    base = plan(TEST_PATCH)
    assert isinstance(base, RepoPlan) and base.copy_bytes == 1 << 20 and base.task_bytes >= PAGE, base
    n = ((config.work_tmpfs_mb << 20) - WORK_SPARE - base.copy_bytes - base.task_bytes) // PAGE
    fits = plan(TEST_PATCH + data_files(n))
    assert isinstance(fits, RepoPlan) and fits.task_bytes == base.task_bytes + n * PAGE, fits
    assert fits.copy_bytes + fits.task_bytes + WORK_SPARE == config.work_tmpfs_mb << 20  # exactly full
    # the model's own files are its spare's, never the dataset's: 200 modules of its own plan beside the full share
    mine = plan(TEST_PATCH + data_files(n), FIX + "".join(new_module(f"pkg/m{k}.py") for k in range(200)))
    assert isinstance(mine, RepoPlan) and mine.task_bytes == fits.task_bytes, mine
    for over in (data_files(n + 1), data_files(n - 1) + data_files(1, PAGE + 1, "tests/data/big")):  # a page more
        with pytest.raises(InfraFailure, match="its own files .* work_tmpfs_mb") as e:
            plan(TEST_PATCH + over)
        assert not e.value.retryable
