"""One repository task (docs/repo-tasks.md "Running a task"): its plan on the host, its run in a
borrowed box of the environment's language, its verdict.

The plan (`make_repo_plan`, before a container is borrowed; in a thread): the environment by name,
the model's patch read and checked against the allowlist (`read_patch`, `check_admitted`), applied to the environment's
tree without copying it (`sandbox/repo/apply.py`), pytest's configuration compared, then the
dataset's test patch applied after it, a decoy planted (sandbox/repo/decoys.py), and the task's own
files as one archive beside a listing of the rest. A patch that is not read, is
refused or does not apply is the model's `wrong_answer` (`no_code` when there is none), and
nothing runs. The run (`run_repo_job`, blocking: in a thread), in a warm box of the environment
(sandbox/pool.py WarmEnvironments: its tree read-only at ENV_MOUNT): the archive and listing written
into the job's directory, the task's tree made of links to the environment's files and its own files
(copy-on-write by file: docs/repo-tasks.md "Warm environments") and the test command run in one process of the runner under the task's CPU
time and memory, the network off as for every job; the report (the structured one first) parsed
and resolved on the host, never in the sandbox.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from . import checks
from .backend import ENV_MOUNT
from .config import SandboxConfig
from .keys import reuse_key
from .environments import DISCOVERY_KEY, ENV_FILE, SOURCES_KEY
from .contract import DETAIL_MAX, EXTRACT_MAX, HOST_FAULTS, RepoTask, code_outcome, test_result
from .languages import LANGUAGES, Language
from .plan import InfraFailure, guarded, new_job_dir
from .repo.apply import (Overrides, View, apply_patch, config_texts, own_bytes, pages, read_current, task_tar, tree_kind,
                         view_listing)
from .repo.decoys import Decoy, Reader, go_decoy, go_pair, pytest_decoy, pytest_pair
from .repo.golang import Targets, defining_dirs, environment_test_files, go_lookup, import_path, package_dir, resolve_packages
from .repo.grading import MISSING, Resolution, lookup, resolve
from .repo.patch import (Discovery, Patch, PatchError, check_admitted, check_config_sections, check_doctests,
                         check_listed_doctests, command_files, listed_test_files, read_discovery_record, read_patch)
from .repo.results import STATUSES, ReportError, junit_key, parse_go_events, parse_pytest, parse_pytest_log, worst

WORK = "/work"  # the runner's job directories (sandbox/harness/pid1.py WORK)
REPORT_FILE = "report.xml"
# The task's tree is made by the runner as the judge's uid from the job's view.json (sandbox/repo/apply.py View) and
# repo.tar (task_tar), then the test command runs in it (sandbox/harness/repo_tree.py; docs/repo-tasks.md "Warm
# environments"): the environment's directories made, each of its files a link to the read-only tree at ENV_MOUNT,
# its own links copied, the files `copied` names copied from ENV_MOUNT with their mode and times (a copy's times keep
# the environment's bytecode valid for it), then the task's own files written over; all of it the judge's, read-only
# to the program. Go's go.mod and go.sum stay writable in place (the go command rewrites them: `_own_module_files`).
WRITABLE = {"go": ("go.mod", "go.sum")}
STDERR_NOTE = 200
INODES_SPARE = 256  # inodes of /work left to the test command's own files beyond the task's tree
WORK_SPARE = 16 << 20  # bytes of the tree's tmpfs and of /work left to the model's patch's files beyond the environment's and dataset's part


def copied(language: str, test_cmd: str, tree: str = "") -> Callable[[str], bool]:
    """Which of the environment's files a task's tree holds as COPIES, not links into the read-only tree
    (docs/repo-tasks.md "Warm environments", "Trust model"): the files code finds its own path from and
    then reads or imports beside it. Through a link that path resolves into ENV_MOUNT (`Path(__file__).resolve()`,
    `os.path.realpath`, `readlink -f "$0"`, pytest < 6's conftest import by real path), and the files beside it
    there are the environment's, never the patch's: a linked conftest.py that put its resolved root first on
    sys.path ran every test on the unpatched code (a right patch refused, h33q's tests/test_repo_redteam_links.py).
    So: Python's sources (every `.py` but those under a `vendor/` folder, the environment's dependencies, which
    a patch may not touch and whose folder holds no patched file) in a Python environment, and in every one the
    files the test command names, however it names them (`command_files`: a bare word, `./x`, a path through the
    environment's own links, a name after a `cd`; rt33q). A copy is what it copies, so nothing else changes: one
    too many costs its bytes of the tree's tmpfs (the environment's bound, `_tree_view`), never a verdict."""
    command = command_files(test_cmd, tree)

    def copy(path: str) -> bool:
        if command.names(path):
            return True
        parts = path.split("/")
        return language == "python" and path.endswith(".py") and "vendor" not in (p.lower() for p in parts[:-1])
    return copy


# Test commands that run only some tests, or stop at the first failure: a decoy there may be left out
# or stop the listed tests, so those get none (a miss costs detection only, never a false pass).
# A word equal to one of these, or starting with one and "=" (pytest's `-kEXPR` too), blocks it.
DECOY_BLOCKERS = ("-k", "-x", "--exitfirst", "--maxfail", "--deselect", "--lf", "--last-failed", "--ff",
                  "--failed-first", "--sw", "--stepwise", "-run", "--run", "-skip", "--skip", "-failfast", "--failfast")


def _selects(word: str) -> bool:
    """Whether a word of a test command selects tests or stops early (DECOY_BLOCKERS; a node id has `::`)."""
    bundled = word[:1] == "-" and word[1:2] != "-" and word[1:].isalpha() and ("x" in word or "k" in word)  # `-vx`
    return ("::" in word or bundled or word.startswith(("-k", "-test.", "--test.")) or word.split("=")[0] in DECOY_BLOCKERS)


@dataclass
class RepoPlan:
    """What a repository job runs, decided on the host before a container is borrowed."""

    task: RepoTask
    lang: Language
    tree: bytes  # the task's own files (task_tar): what its patch, its test patch and the decoys wrote
    patch_text: str
    decoys: tuple[str, ...] = ()
    expected: dict[str, str] = field(default_factory=dict)
    go_targets: Targets = field(default_factory=dict)  # go: each listed id and decoy -> its (package, name) pairs
    renamed: dict[str, str] = field(default_factory=dict)  # a listed id -> the id its test runs under (decoys.Pair)
    env_tree: str = ""  # the environment's tree on the host: its warm boxes have it read-only at ENV_MOUNT
    env: Environment | None = None  # its build: the warm boxes are keyed by its identity (WarmEnvironments)
    view: bytes = b"[[],[],[],[]]"  # the rest of the task's tree, linked to that one (sandbox/repo/apply.py View.json)
    env_bytes: int = 0  # the linked and copied files' sizes (View.size)
    copy_bytes: int = 0  # what the copies and long links take of the tree's tmpfs (View.tree_bytes)
    task_bytes: int = 0  # what the dataset's own files (test patch, decoys, support files) take of it (apply.own_bytes)
    job_dir: str = field(default_factory=new_job_dir)

    def wall(self, config: SandboxConfig) -> float:
        return self.task.cpu_s * config.wall_factor + config.wall_extra_s

    def budget_s(self, config: SandboxConfig) -> float:
        """The job's wall-clock budget: the test command's, plus writing and unpacking the tree."""
        return self.wall(config) + 30.0


class Environment(NamedTuple):
    """One build of an environment: its tree (links resolved), language, directory and identity."""
    tree: str
    lang: Language
    build: str
    identity: bytes = b""  # build_identity: what its warm boxes are keyed by, never the path
    inode: tuple[int, int] = (0, 0)  # its tree folder's (device, inode): the folder its warm boxes have bound


def build_identity(tree_stat: os.stat_result, env_file: bytes) -> bytes:
    """The build's identity (docs/repo-tasks.md "Warm environments"): exact typed bytes of its
    environment.json and of its tree folder's inode (device, number, change time). A build removed and
    made again at the same path, even byte for byte, is another folder: the boxes of the removed one
    have its deleted tree bound, so it must never find them. The pool pins the folder it keys
    (WarmEnvironments holds it open), so its inode number cannot be reused while its boxes live."""
    return reuse_key("repo-environment-build", hashlib.sha256(env_file).digest(), tree_stat.st_dev, tree_stat.st_ino,
                     tree_stat.st_ctime_ns)


def environment_language(root: str, name: str) -> Environment:
    """The environment's build, tree and language; InfraFailure (not retryable) when it is not built
    here. The name (a link `verifier env build` swaps, docs/repo-tasks.md "Building environments") is
    resolved ONCE, to its build directory, and everything of the plan is read under that directory
    (`environment_expected(env.build)`), never through the name again: a plan never mixes one build's
    tree with another's statuses."""
    if not root:
        raise InfraFailure("repo tasks are off on this server: it has no environments (--sandbox-repo-environments)",
                           retryable=False)
    build = os.path.realpath(os.path.join(root, name))  # the operator's links resolved, once
    try:
        with open(os.path.join(build, ENV_FILE), "rb") as fh:
            env_file = fh.read()
        language = json.loads(env_file)["language"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise InfraFailure(f"environment {name!r} is not built on this server ({type(e).__name__})", retryable=False) from None
    tree = os.path.realpath(os.path.join(build, "repo"))
    try:
        tree_stat = os.stat(tree)
    except OSError:
        tree_stat = None
    if language not in LANGUAGES or tree_stat is None or not stat.S_ISDIR(tree_stat.st_mode):
        raise InfraFailure(f"environment {name!r} is broken: language {language!r} or no repo/ directory", retryable=False)
    return Environment(tree, LANGUAGES[language], build, build_identity(tree_stat, env_file),
                       (tree_stat.st_dev, tree_stat.st_ino))


def same_build(env: Environment) -> bool:
    """Whether the build a plan read is still the one at its path (not removed, not made again)."""
    try:
        with open(os.path.join(env.build, ENV_FILE), "rb") as fh:
            return build_identity(os.stat(env.tree), fh.read()) == env.identity
    except OSError:
        return False


def environment_expected(build: str) -> dict[str, str]:
    """The gold run's statuses the build stores (`expected` in environment.json: test id -> status,
    for the ids whose gold status is not PASSED; docs/repo-tasks.md "Environments"). `build` is the
    directory `environment_language` resolved, never the name again; a malformed
    or missing map is the environment's fault, not retryable."""
    try:
        with open(os.path.join(build, ENV_FILE), encoding="utf-8") as fh:
            expected = json.load(fh).get("expected", {})
    except (OSError, ValueError, AttributeError) as e:
        raise InfraFailure(f"environment build {os.path.basename(build)!r} is broken ({type(e).__name__})",
                           retryable=False) from None
    if not (isinstance(expected, dict) and all(isinstance(k, str) and v in STATUSES for k, v in expected.items())):
        raise InfraFailure(f"environment build {os.path.basename(build)!r} is broken: `expected` is not a map of test ids "
                           "to statuses", retryable=False)
    return expected


def environment_sources(build: str) -> frozenset[str]:
    """The files the environment's test collection found a test's code in (`test_sources` in environment.json,
    sandbox/environments.py `read_sources`; rt18 A: a test imported or inherited from a source module): protected
    from the patch (`check_admitted`). A build made before the record, or with no install container, has none (the
    other rules alone); a malformed record is the environment's fault, not retryable."""
    try:
        with open(os.path.join(build, ENV_FILE), encoding="utf-8") as fh:
            sources = json.load(fh).get(SOURCES_KEY, [])
    except (OSError, ValueError, AttributeError) as e:
        raise InfraFailure(f"environment build {os.path.basename(build)!r} is broken ({type(e).__name__})",
                           retryable=False) from None
    if not (isinstance(sources, list) and all(isinstance(p, str) for p in sources)):
        raise InfraFailure(f"environment build {os.path.basename(build)!r} is broken: `{SOURCES_KEY}` is not a list "
                           "of paths", retryable=False)
    return frozenset(sources)


def environment_discovery(build: str) -> Discovery | None:
    """What pytest resolved of its test discovery when the environment was built (`test_discovery` in
    environment.json, sandbox/environments.py `read_discovery`; rt18 D, E): a test module is one it collects under its
    collection roots (`command_files`). None for a build without the record (an old build, a runner other than
    pytest, a pytest that could not say): the configuration's text is read then, over-inclusive. A malformed record
    is the environment's fault, not retryable."""
    try:
        with open(os.path.join(build, ENV_FILE), encoding="utf-8") as fh:
            record = json.load(fh).get(DISCOVERY_KEY)
    except (OSError, ValueError, AttributeError) as e:
        raise InfraFailure(f"environment build {os.path.basename(build)!r} is broken ({type(e).__name__})",
                           retryable=False) from None
    if record is None:
        return None
    try:
        return read_discovery_record(record)
    except ValueError as e:
        raise InfraFailure(f"environment build {os.path.basename(build)!r} is broken: `{DISCOVERY_KEY}` does not read "
                           f"({e})", retryable=False) from None


def make_repo_plan(task: RepoTask, config: SandboxConfig) -> RepoPlan | dict:
    """The plan, or the result when the patch decides it before anything runs (module docstring)."""
    env = environment_language(config.repo_environments, task.environment)
    tree, lang = env.tree, env.lang
    expected = environment_expected(env.build)  # the same build as the tree, whatever the name points at now
    sources = environment_sources(env.build)
    try:
        patch = read_patch(task.completion)
    except PatchError as e:
        verdict = "no_code" if str(e).startswith("no unified diff") else "wrong_answer"
        return code_outcome(verdict, checks.clip(str(e)), task.completion[-EXTRACT_MAX:] if verdict != "no_code" else "",
                            "none", retryable=False)
    try:
        tests = read_patch(task.test_patch) if task.test_patch.strip() else None
    except PatchError as e:
        return _task_fault(patch.text, f"the task's test_patch does not read: {e}")
    overrides: Overrides = {}
    # the allowlist; the task's test files (its test patch's, its listed test ids', its command's) are protected like
    # every test file (rt17 1: a listed test is the dataset's whatever its file is named); where the task names its
    # gold's files (`editable`), no other existing file may change (docs/repo-tasks.md "Trust model", "The gold's files")
    listed = listed_test_files((*task.fail_to_pass, *task.pass_to_pass))
    command = command_files(task.test_cmd, tree, environment_discovery(env.build))
    try:
        check_admitted(patch, lang.name, lambda path: tree_kind(tree, path), (*(tests.paths if tests else ()), *listed),
                       command, sources, task.editable)
        apply_patch(tree, patch, overrides, "the patch")
        check_config_sections(*config_texts(tree, overrides))
        if command.doctest_modules:
            check_doctests(patch, lambda path: read_current(tree, path, {}), lambda path: read_current(tree, path, overrides))
    except PatchError as e:
        return _refused(patch.text, str(e))
    added = _new_entries(tree, overrides)  # the patch's own files and folders in /work: its bound, not the environment's
    model = dict(overrides)  # the patch's own files: what the dataset writes after (a changed or new path) is the dataset's
    if tests is not None:  # the dataset's tests, written over the patched tree: the patch cannot change them
        try:
            apply_patch(tree, tests, overrides, "the task's test_patch")
        except PatchError as e:
            return _test_patch_failed(tree, tests, patch.text, str(e))
    try:  # the listed module doctests, on the dataset's text (the environment's and its test patch's: listed files are
        # protected from the model's patch), red team 19 class 7
        check_listed_doctests((*task.fail_to_pass, *task.pass_to_pass), lambda path: read_current(tree, path, overrides))
    except PatchError as e:
        return _task_fault(patch.text, str(e))
    packages: Targets = {}
    if lang.name == "go":  # before the decoys: from the environment's tree and the test patch only
        packages = _go_packages(task, tree, tests, overrides)
    renamed: dict[str, str] = {}
    decoys = _plant_decoys(task, lang, tree, overrides, expected, packages, renamed)
    if lang.name == "go":
        _own_module_files(tree, overrides)
    ours = [p for p, data in overrides.items() if p not in model or data is not model[p]]  # the dataset's writes
    try:
        dataset_archive = task_tar({p: overrides[p] for p in ours})
    except PatchError as e:  # the dataset's own files alone: the task's fault, whatever the patch (RED-TEAM.md class 8)
        raise InfraFailure(f"task of environment {task.environment!r}: its own files (test patch, decoys, support "
                           f"files): {e}", retryable=False) from None
    try:
        archive = task_tar(overrides)
    except PatchError as e:  # the patch's files do not make an archive: the model's failure, never infra_error
        return _refused(patch.text, str(e))
    dataset = own_bytes(overrides, ours)
    view = _tree_view(task, lang, tree, overrides, config, dataset)
    listing = view.json()
    _work_share(task, dataset_archive, listing, config)
    need, room = view.entries() + len(overrides) + len(_new_dirs(tree, overrides)), config.tmpfs_inodes - INODES_SPARE
    if need > room and need - len(added) <= room:  # the patch's own excess: the model's failure (RED-TEAM.md class 8)
        return _refused(patch.text, f"the patch adds {len(added)} files and folders: the task's tree would have {need}, "
                                    f"over the {room} the sandbox's /work holds for it ({config.tmpfs_inodes} inodes: "
                                    f"tmpfs_inodes, less {INODES_SPARE} for the tests' own files)")
    if need > room:  # its links and folders in /work, without the patch's
        raise InfraFailure(f"environment {task.environment!r} has {view.entries()} files and folders, over what the "
                           f"sandbox's /work holds ({config.tmpfs_inodes} inodes: tmpfs_inodes)", retryable=False)
    return RepoPlan(task, lang, archive, patch.text, tuple(dict.fromkeys(d.test_id for d in decoys)), expected, packages,
                    renamed, env_tree=tree, env=env, view=listing, env_bytes=view.size, copy_bytes=view.tree_bytes(),
                    task_bytes=dataset)


def work_bytes(archive: bytes, listing: bytes) -> int:
    """What the job's files take of the sandbox's /work (a tmpfs: whole pages, `pages`) when `_run` writes them
    there: the task's archive (task_tar) and the environment's listing (View.json), until the runner has made the
    tree of them."""
    return pages(len(archive)) + pages(len(listing))


def _work_share(task: RepoTask, dataset_archive: bytes, listing: bytes, config: SandboxConfig) -> None:
    """InfraFailure, not retryable, where the dataset's part of what `_run` writes into /work (the environment's
    listing and the archive of the dataset's own files: its test patch's, decoys' and support files') leaves less
    than WORK_SPARE of /work for the model's patch's files: the task's fault, whatever the patch. Past this bound
    a full /work at the files op is the patch's own (`_run`; RED-TEAM.md class 8, rt33q: a one-line edit of a linked
    data file bigger than /work put the whole file in the archive, and the full /work was the environment's
    infra_error), as a full tree is past `_tree_view`'s."""
    used, size = work_bytes(dataset_archive, listing), config.work_tmpfs_mb << 20
    if used + WORK_SPARE > size:
        raise InfraFailure(f"task of environment {task.environment!r}: the environment's listing and the task's own "
                           f"files (test patch, decoys, support files) take {used >> 10} KiB of the sandbox's /work, over "
                           f"what it holds with {WORK_SPARE >> 20} MiB spare for the patch ({config.work_tmpfs_mb} MiB: "
                           "work_tmpfs_mb)", retryable=False)


def _tree_view(task: RepoTask, lang: Language, tree: str, overrides: Overrides, config: SandboxConfig,
               dataset: int) -> View:
    """The environment's part of the task's tree (sandbox/repo/apply.py View, its copies `copied`'s); InfraFailure,
    not retryable, where it is unreadable or where its copies and long links (View.tree_bytes) with the `dataset`'s
    own files (apply.own_bytes: the test patch's, the decoys', the support files', a page each) leave less than
    WORK_SPARE of the tree's tmpfs (/work's size) for the model's patch: the task's fault, whatever the patch
    (RED-TEAM.md class 8 turned round: rt30ae's test patch of 4,400 data files filled the tree and the runner's
    `tree_full` made the right patch wrong_answer). Past this bound a full tree is the patch's own (`_run`)."""
    try:
        view = view_listing(tree, overrides, copied(lang.name, task.test_cmd, tree), ENV_MOUNT)
    except OSError as e:
        raise InfraFailure(f"environment {task.environment!r}: {e}", retryable=False) from None
    size = config.work_tmpfs_mb << 20
    if view.tree_bytes() + WORK_SPARE > size:
        raise InfraFailure(f"environment {task.environment!r}: the copies and long links a task's tree holds of its "
                           f"sources take {view.tree_bytes() >> 20} MiB, over what the sandbox's tree holds with "
                           f"{WORK_SPARE >> 20} MiB spare ({config.work_tmpfs_mb} MiB: work_tmpfs_mb)", retryable=False)
    if view.tree_bytes() + dataset + WORK_SPARE > size:
        raise InfraFailure(f"task of environment {task.environment!r}: its own files (test patch, decoys, support files) "
                           f"take {dataset >> 10} KiB of the sandbox's tree (4 KiB a page) beside the environment's "
                           f"{view.tree_bytes() >> 10} KiB, over what it holds with {WORK_SPARE >> 20} MiB spare for the "
                           f"patch ({config.work_tmpfs_mb} MiB: work_tmpfs_mb)", retryable=False)
    return view


def _own_module_files(tree: str, overrides: Overrides) -> None:
    """The module's go.mod and go.sum as the task's own files (written in /work), not links to the environment's
    read-only tree: under GOFLAGS=-mod=mod the go command rewrites them in place (a go.mod with no `go`
    directive gets one, as hashicorp/go-version's had), and a read-only go.mod fails the whole run
    ("go: updating go.mod: permission denied", every test MISSING: a right patch paid 0)."""
    for name in ("go.mod", "go.sum"):
        if name not in overrides:
            data = read_current(tree, name, {})
            if data is not None:
                overrides[name] = data


def _new_dirs(tree: str, overrides: Overrides) -> set[str]:
    """The folders the task's files need that the environment lacks (each one inode of /work)."""
    parents = {"/".join(p.split("/")[:k]) for p, data in overrides.items() if data is not None
               for k in range(1, p.count("/") + 1)}
    return {d for d in parents if tree_kind(tree, d) != "dir"}


def _new_entries(tree: str, overrides: Overrides) -> set[str]:
    """The files and folders the task's files so far add to the environment's tree (docs/repo-tasks.md
    "Warm environments": each one inode of the sandbox's /work)."""
    files = {p for p, data in overrides.items() if data is not None and tree_kind(tree, p) is None}
    return files | _new_dirs(tree, overrides)


def _go_packages(task: RepoTask, tree: str, tests: Patch | None, overrides: Overrides) -> Targets:
    """Each listed Go id -> the import paths of the packages that define it and the command runs
    (sandbox/repo/golang.py): the test files are the environment's and the test patch's, never a
    folder only the model's patch touched (it may add no `_test.go`, sandbox/repo/patch.py)."""
    files = {*environment_test_files(tree), *(p for p in (tests.paths if tests else ()) if p.endswith("_test.go"))}
    read = lambda path: read_current(tree, path, overrides)  # noqa: E731
    return resolve_packages((*task.fail_to_pass, *task.pass_to_pass), sorted(files), task.test_cmd, read)


def _plant_decoys(task: RepoTask, lang: Language, tree: str, overrides: Overrides, expected: dict[str, str],
                  packages: Targets, renamed: dict[str, str]) -> list[Decoy]:
    """Decoys written into the patched tree after the tests (sandbox/repo/decoys.py; docs/repo-tasks.md
    "Trust model"), made of a FAIL_TO_PASS test whose gold status is PASSED; none when none can be made.
    pytest: an indistinguishable pair where one can be made (its original's new id in `renamed`), and a
    copy with its last statement failed of ANOTHER test (a copy of the pair's would show its value).
    Go: a twin where a test resolves to one package (its ids' targets renamed in `packages`), then for another
    test one copy in EACH package it resolves to, each under an id of its own (`packages` gains them)."""
    if any(_selects(w) for w in task.test_cmd.split()):
        return []
    f2p = [t for t in task.fail_to_pass if expected.get(t, "PASSED") == "PASSED"]
    read = lambda path: read_current(tree, path, overrides)  # noqa: E731
    decoys: list[Decoy] = []
    if lang.name == "python" and task.report in ("pytest", "pytest-log"):
        pair = pytest_pair(f2p, read, lambda path: read_current(tree, path, {}))
        if pair is not None:
            overrides[pair.path] = pair.text
            renamed[pair.test_id] = pair.real_id
            decoys.append(Decoy(pair.path, pair.decoy_id, pair.text))
        decoy = pytest_decoy([t for t in f2p if pair is None or t != pair.test_id], read,
                             environment=lambda path: read_current(tree, path, {}))
        decoys += [decoy] if decoy is not None else []
    elif lang.name == "go" and task.report == "go-json":
        decoys, paired = _go_twin(f2p, tree, overrides, packages, read)
        decoys += _go_decoys([t for t in f2p if t.split("/")[0] != paired], tree, overrides, packages, read)
    for decoy in decoys:
        overrides[decoy.path] = decoy.text
    return decoys


def _go_twin(f2p: list[str], tree: str, overrides: Overrides, packages: Targets, read: Reader) -> tuple[list[Decoy], str]:
    """The twins of the first F2P test that resolves to one package and has them (sandbox/repo/decoys.py
    `go_pair`), written into `overrides`; every listed id of that test now read under its new name there.
    ([the decoy], the test's name), or ([], "")."""
    files = tuple(sorted({*environment_test_files(tree), *(p for p, d in overrides.items() if d is not None and p.endswith("_test.go"))}))
    for test_id in f2p:
        base = test_id.split("/")[0]
        wanted = {pkg for pkg, _ in packages.get(test_id, ())}
        dirs = [(d, pkg) for d, pkg in _test_dirs(test_id, files, read) if pkg in wanted]
        if len(dirs) != 1 or len(wanted) != 1 or dirs[0][1] is None:
            continue
        d, pkg = dirs[0]
        go_files = sorted(_go_files(tree, overrides, d))
        package = "".join((read(p) or b"").decode("utf-8", "surrogateescape") for p in go_files)
        for path in (p for p in go_files if p.endswith("_test.go")):
            text = (read(path) or b"").decode("utf-8", "surrogateescape")
            made = go_pair(base, path, text, package, (read_current(tree, path, {}) or b"").decode("utf-8", "replace"))
            if made is None:
                continue
            new_text, real, decoy = made
            overrides[path] = new_text.encode("utf-8", "surrogateescape")
            for listed, targets in packages.items():  # TestX and TestX/sub run as REAL and REAL/sub now
                packages[listed] = tuple((p, real + n[len(base):]) if p == pkg and n.split("/")[0] == base else (p, n)
                                         for p, n in targets)
            packages[f"{decoy}@{pkg}"] = ((pkg, decoy),)
            return [Decoy(path, f"{decoy}@{pkg}", overrides[path] or b"")], base
    return [], ""


def _go_decoys(f2p: list[str], tree: str, overrides: Overrides, packages: Targets, read: Reader) -> list[Decoy]:
    """For the first F2P id a decoy can be made of in every package it resolves to: one there each,
    its id `NAME@IMPORT_PATH` (one target: that package's report must read it FAILED)."""
    files = environment_test_files(tree)
    for test_id in f2p:
        wanted = {pkg for pkg, _ in packages.get(test_id, ())}
        dirs = sorted((d, pkg) for d, pkg in _test_dirs(test_id, files, read) if pkg in wanted)
        made = [(pkg, go_decoy([test_id], _go_files(tree, overrides, d), read)) for d, pkg in dirs]
        if dirs and all(decoy is not None for _, decoy in made):
            out = []
            for pkg, decoy in made:
                assert decoy is not None and pkg is not None
                out.append(Decoy(decoy.path, f"{decoy.test_id}@{pkg}", decoy.text))
                packages[out[-1].test_id] = ((pkg, decoy.test_id),)
            return out
    return []


def _test_dirs(test_id: str, files: tuple[str, ...], read: Reader) -> list[tuple[str, str | None]]:
    """The package directories (and import paths) whose environment test files define the id."""
    dirs = defining_dirs(files, read).get(test_id.split("/")[0], set())
    return [(d, import_path(d, read)) for d in dirs]


def _go_files(tree: str, overrides: Overrides, d: str) -> set[str]:
    """The `.go` files of the patched tree in one package directory."""
    prefix = f"{d}/" if d else ""
    files = {p for p, data in overrides.items() if data is not None and p.endswith(".go") and package_dir(p) == d}
    try:
        names = os.listdir(os.path.join(tree, d)) if not os.path.islink(os.path.join(tree, d)) else []
    except OSError:
        names = []
    files.update(prefix + n for n in names if n.endswith(".go") and overrides.get(prefix + n, b"") is not None)
    return files


def _test_patch_failed(tree: str, tests: Patch, text: str, why: str) -> dict:
    """The test patch did not apply over the model's patch. If it applies to the environment alone,
    the model's patch is in its way (a file where the tests' directory goes): the model's failure.
    Else the task is broken: its `error`, never a grade of the model."""
    try:
        apply_patch(tree, tests, {}, "the task's test_patch")
    except PatchError:
        return _task_fault(text, why)
    return _refused(text, f"the patch is in the way of the task's tests: {why}")


def _task_fault(text: str, why: str) -> dict:
    return code_outcome("error", checks.clip(why), text[:EXTRACT_MAX], "diff", retryable=False)


def _refused(text: str, why: str) -> dict:
    return code_outcome("wrong_answer", checks.clip(why), text[:EXTRACT_MAX], "diff", retryable=False)


def run_repo_job(pool, box, plan: RepoPlan, config: SandboxConfig) -> tuple[dict, bool]:
    """Run the plan in `box`: (result, whether the box may serve again once reset). Raises
    InfraFailure when the sandbox fails (a died box, a runner that cannot write the tree)."""
    return guarded(pool, box, config, lambda: _run(pool, box, plan, config),
                   lambda verdict, detail: _finish(plan, verdict, detail, []))


def _run(pool, box, plan: RepoPlan, config: SandboxConfig) -> tuple[dict, bool]:
    own_mb = ((len(plan.tree) + len(plan.view)) >> 20) + 1
    # /work is a tmpfs counted in the sandbox's memory: the task's files, twice (archive and tree), its links and its
    # copies of the environment's files (`copied`) and the dataset's files' pages (task_bytes) are the job's; so is the environment's tree as the kernel caches
    # what the tests (and the copying) read of it (gVisor's memory file)
    pool.set_memory(box, plan.task.memory_mb + pool.overhead_mb(box, plan.lang.name) + 2 * own_mb + (plan.env_bytes >> 20)
                    + -(-(plan.copy_bytes + plan.task_bytes) >> 20))
    head, _ = box.channel.request({"op": "files", "dir": plan.job_dir, "files": [["repo.tar", 0o600], ["view.json", 0o600]]},
                                  {"repo.tar": plan.tree, "view.json": plan.view}, timeout_s=60)
    if head.get("full"):  # the dataset's part was bounded on the host (`_work_share`): the rest is the patch's
        box.tainted = box.tainted or not head.get("removed", True)  # a half-written job folder the runner left
        return _finish(plan, "wrong_answer", f"the task's files do not fit the sandbox's /work: the patch's files make "
                       f"its archive {len(plan.tree) >> 20} MiB (`work_tmpfs_mb`: {config.work_tmpfs_mb} MiB, "
                       f"{WORK_SPARE >> 20} MiB of it the patch's at least): {head.get('error')}", []), not box.tainted
    if not head.get("ok"):
        raise InfraFailure(f"runner could not write the repository: {head.get('error')}")
    facts = _exec(box, plan, config)
    if facts.get("tree_full"):  # the environment's and dataset's part were bounded on the host (`_tree_view`): the rest is the patch's
        return _finish(plan, "wrong_answer", f"the task's files do not fit the sandbox's tree: {facts['tree_error']}", []), \
            not box.tainted
    if plan.env is not None and not same_build(plan.env):
        # pruned (renamed away, then removed), maybe made again, while the task ran: its links may have pointed at nothing
        raise InfraFailure(f"environment {plan.task.environment!r}: its build was removed while the task ran",
                           retryable=False)
    return _verdict(plan, facts), not box.tainted


# The go command's settings for a test command (sandbox/session.py SHELL_ENV: a session's shell gets the same). What
# one go command of a test command leaves in /tmp (the program's: HOME, the caches) another reads, and a `go generate`
# of the patch's runs before the `go test` (h33w, tests/test_repo_redteam_go.py), so: no go env file (GOENV=off: one
# in $HOME/.config/go/env named a GOROOT whose testing package passed a wrong patch), and the build cache is written
# but never read (gocacheverify=1: a go command builds anew and checks its output against the cache's; an entry made
# to hold the right code's object for the wrong source was linked into the next `go test`, a wrong patch `accepted`).
# Go 1.19's standard library is installed in its GOROOT, not the cache, so a build costs the project's packages alone.
GO_ENV = {"GOCACHE": "/tmp/go-cache", "GOPATH": "/tmp/go", "GOFLAGS": "-mod=mod", "GOPROXY": "off", "CGO_ENABLED": "0",
          "GOMAXPROCS": "1", "GOENV": "off", "GODEBUG": "gocacheverify=1"}


def _env(plan: RepoPlan) -> dict[str, str]:
    job = f"{WORK}/{plan.job_dir}"
    if plan.lang.name == "go":  # modules on, nothing fetched; test binaries built where they may run (/work)
        return GO_ENV | {"GOTMPDIR": job}
    # pytest's cache in /tmp, the program's scratch (the tree is read-only to it); its structured report outside the
    # tree too (PYTEST_ADDOPTS: no command rewriting)
    cache = "-o cache_dir=/tmp/.pytest_cache"
    if plan.task.report == "pytest":
        return {"PYTEST_ADDOPTS": f"--junitxml={job}/{REPORT_FILE} {cache}"}
    return {"PYTEST_ADDOPTS": cache} if plan.lang.name == "python" else {}


def _exec(box, plan: RepoPlan, config: SandboxConfig) -> dict:
    wall = plan.wall(config)
    # The runner keeps stdout and the collected report in its memory, which the sandbox's overhead
    # counts twice the output limit for (SandboxConfig.overhead_mb): both are held to that limit.
    collect = [REPORT_FILE, config.output_limit_bytes] if plan.task.report == "pytest" else None
    head, blobs = box.channel.request(
        {"op": "exec", "argv": ["sh", "-c", plan.task.test_cmd], "cwd": plan.job_dir,
         "cpu_s": plan.task.cpu_s, "wall_s": wall, "stdout_max": config.output_limit_bytes, "stderr_max": config.stderr_limit_bytes,
         "fsize_max": config.file_size_limit_mb << 20, "env": _env(plan), "fd3": False, "fd3_max": 0, "rm_cwd": False,
         "put": [], "fresh": [], "collect": collect, "scrub": False, "judge": False, "warm": False,
         "warm_program": False, "tree": {"writable": list(WRITABLE.get(plan.lang.name, ()))}}, None, timeout_s=wall + 30.0)
    if head.get("tree_error") and not head.get("tree_full"):
        raise InfraFailure(f"runner could not make the task's tree: {head['tree_error']}")
    if head.get("tampered"):
        box.tainted = True
    elif head.get("error"):
        raise InfraFailure(f"runner: {head['error']}")
    head["stdout_b"], head["stderr_b"] = blobs.get("stdout", b""), blobs.get("stderr", b"")
    head["collected_b"] = blobs.get("collected", b"")
    return head


def repo_out_of_budget(plan: RepoPlan) -> dict:
    """The job's wall-clock budget ran out while the host was healthy: the test command's time_limit."""
    return _finish(plan, "time_limit", "the test command did not finish within the job's wall-clock budget", [])


def _verdict(plan: RepoPlan, facts: dict) -> dict:
    """The run's verdict: its limits first, then its report resolved. A test command that exits
    non-zero is normal (tests failed): the report says which."""
    verdict, detail = checks.run_verdict(facts, plan.lang, plan.task.cpu_s)
    if verdict in HOST_FAULTS:
        raise InfraFailure(detail)
    if verdict is not None and verdict != "runtime_error":
        return _finish(plan, verdict, f"the test command: {detail}", [])
    if facts.get("tree_changed"):  # the judge's tree, which the program cannot change but in the Landlock mode's modes
        # and times (sandbox/harness/repo_tree.py stamp): whatever the report says, it may have been read from a changed tree
        return _finish(plan, "wrong_answer", "tampered: the test command changed the task's tree: "
                       + ", ".join(str(p) for p in facts["tree_changed"])[:300], [])
    try:
        resolution = _resolution(plan, facts)
    except ReportError as e:
        note = checks.clip(facts.get("stderr_b", b"").decode("utf-8", "replace").strip()[-STDERR_NOTE:])
        return _finish(plan, "runtime_error", f"the test report does not parse: {e}" + (f"; stderr: {note}" if note else ""), [])
    tests = _tests(plan.task, resolution)
    if resolution.resolved and plan.decoys and facts.get("exit_code") == 0:  # a decoy failed, yet the runner said all passed
        return _finish(plan, "wrong_answer", "tampered: the test command exited 0 although a decoy test failed", tests)
    if resolution.resolved:
        return code_outcome("accepted", resolution.detail[:DETAIL_MAX], plan.patch_text[:EXTRACT_MAX], "diff", 1.0,
                            tests, retryable=False)
    return _finish(plan, "wrong_answer", resolution.detail, tests)


def _resolution(plan: RepoPlan, facts: dict) -> Resolution:
    t = plan.task
    if t.report == "go-json":
        status_of = go_lookup(parse_go_events(facts["stdout_b"]), plan.go_targets, MISSING, worst)  # by (package, name)
        return resolve(status_of, t.fail_to_pass, t.pass_to_pass, plan.decoys, plan.expected)
    if t.report == "pytest-log":
        status_of = lookup(parse_pytest_log(facts["stdout_b"]))
    else:
        if not facts.get("collected_b"):
            why = (facts.get("collected") or {}).get("error") or "no file"
            raise ReportError(f"pytest wrote no JUnit XML report ({why})")
        status_of = lookup(parse_pytest(facts["collected_b"], facts["stdout_b"]), junit_key)
    run_as = plan.renamed  # a test of a decoy pair runs under its new name (sandbox/repo/decoys.py Pair)
    return resolve(lambda test_id: status_of(run_as.get(test_id, test_id)), t.fail_to_pass, t.pass_to_pass, plan.decoys,
                   plan.expected)


def _tests(task: RepoTask, resolution: Resolution) -> list[dict]:
    """One entry per named test: accepted when it counts as passing for its list, its status as the detail."""
    failed = set(resolution.f2p_failed) | set(resolution.p2p_failed)
    f2p = set(task.fail_to_pass)
    out = []
    for test_id in (*task.fail_to_pass, *task.pass_to_pass):
        status = resolution.statuses.get(test_id, "MISSING")
        which = "FAIL_TO_PASS" if test_id in f2p else "PASS_TO_PASS"
        out.append(test_result("wrong_answer" if test_id in failed else "accepted", 0.0, f"{which}: {status}", None,
                               name=test_id))
    return out


def _finish(plan: RepoPlan, verdict: str, detail: str, tests: list[dict]) -> dict:
    return code_outcome(verdict, checks.clip(detail), plan.patch_text[:EXTRACT_MAX], "diff", 0.0, tests, retryable=False)
