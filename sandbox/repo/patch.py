"""The model's patch: one reader of a unified diff in a completion, and the protected-path check
(docs/repo-tasks.md "The patch" and "Trust model").

`read_patch` admits only what is known safe: text edits, new files and deletions of regular files
(mode 100644), under relative paths inside the repository. Anything else (binary patches, mode
changes, symlinks, submodules, renames and copies, a path with `..`, an absolute path, two diffs,
a hunk whose counts do not match its lines) is PatchError with a detail naming the problem: the
model's failure, never infra_error. A patch that reads is returned in one canonical form (git
headers, `a/` and `b/` prefixes, LF line ends), so the same edit written fenced or bare, with CRLF,
with or without prefixes, is the same bytes for `git apply -p1`.
"""
from __future__ import annotations

import configparser
import fnmatch
import functools
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

from ..checks import _THINK_END, Fenced, opening_fence, scan_fences, strip_end_tokens
from ..contract import repo_path_problem

PATCH_MAX = 1 << 20  # bytes of diff text read from one completion
DIFF_TAGS = ("diff", "patch", "udiff")
_HEADER = re.compile(r"^(diff --git |--- |\+\+\+ |@@ )")
_BODY = re.compile(r"^[ +\-\\@]")
# Git's extended header lines a text edit may carry; every other one (mode, rename, copy, binary,
# similarity) is refused by name.
_INDEX = re.compile(r"^index [0-9a-f]{4,64}\.\.[0-9a-f]{4,64}( 100644| 100755)?$")  # an edit keeps the mode


class PatchError(ValueError):
    """A completion whose patch cannot be read or is not admitted; the message is the verdict's detail."""


@dataclass(frozen=True)
class FileEdit:
    """One file of a patch: its path in the repository and what happens to it."""
    path: str
    change: str  # "modified", "added" or "deleted"


@dataclass(frozen=True)
class Patch:
    """A read patch: its canonical text (for `git apply -p1`) and the files it touches."""
    text: str
    files: tuple[FileEdit, ...]

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(f.path for f in self.files)


# ----------------------------------------------------------------------------- finding the diff
def _diff_blocks(text: str) -> tuple[list[str], bool]:
    """The bodies of the fenced blocks tagged diff/patch (or untagged and starting like a diff), and
    whether one is unterminated. Fences count in column 0 only (scan_fences' column_0): a context
    line of a Markdown file is a space and a fence, which must not end or start a block."""
    lines = text.split("\n")
    bodies: list[str] = []
    for block in scan_fences(lines, column_0=True):
        if not isinstance(block, Fenced):
            if lines[block].startswith("diff --git ") or (lines[block].startswith("--- ") and lines[block + 1:block + 2] != []
                                                          and lines[block + 1].startswith("+++ ")):
                bodies.append(_BARE)  # a diff outside every fence: counted, so one beside a block is two
            continue
        body = "".join(line + "\n" for line in block.lines)
        if block.tag in DIFF_TAGS or (not block.tag and _HEADER.match(body)):
            if not block.closed:
                return bodies + [body], True
            bodies.append(body)
    return bodies, False


_BARE = "\0bare"  # _diff_blocks' mark of a diff header outside every fence


def _find_diff(completion: str) -> tuple[str, bool]:
    """(diff text, fenced): the one fenced diff block, else the bare diff from its first header line.
    Text before a closing </think> is reasoning, not the answer (as for code: sandbox/checks.py)."""
    text = strip_end_tokens(completion or "").replace("\r\n", "\n")
    if _THINK_END in text:
        text = text.rsplit(_THINK_END, 1)[1]
    found, unterminated = _diff_blocks(text)
    if unterminated:
        raise PatchError("the diff's code fence is not closed (a truncated completion)")
    bodies = [b for b in found if b is not _BARE]
    if bodies and len(bodies) < len(found):
        raise PatchError("the completion has a diff outside its ```diff block too; write one diff with every file's changes")
    if len(bodies) > 1:
        raise PatchError(f"the completion has {len(bodies)} diff blocks; write one diff with every file's changes")
    if bodies:
        return bodies[0], True
    if "```" in text or "~~~" in text:
        # A fence of another language beside a bare diff: which one is the answer is a guess.
        for line in text.split("\n"):
            if opening_fence(line, column_0=True) is not None:
                raise PatchError("no ```diff block found; put the patch in one ```diff fenced block")
    lines = text.split("\n")
    start = next((k for k, line in enumerate(lines) if line.startswith(("diff --git ", "--- "))), None)
    if start is None:
        raise PatchError("no unified diff found in the completion")
    return "\n".join(lines[start:]), False


# ----------------------------------------------------------------------------- reading it
def read_patch(completion: str) -> Patch:
    """The completion's patch, read strictly (module docstring); PatchError says why not."""
    diff, fenced = _find_diff(completion)
    if len(diff.encode()) > PATCH_MAX:
        raise PatchError(f"the patch is over {PATCH_MAX} bytes")
    from unidiff import PatchSet
    from unidiff.errors import UnidiffParseError

    try:
        patch_set = PatchSet(diff)
    except UnidiffParseError as e:
        raise PatchError(f"the diff does not parse: {e}") from None
    except Exception as e:  # noqa: BLE001 (any failure on untrusted text is the model's)
        raise PatchError(f"the diff does not parse: {type(e).__name__}") from None
    if not len(patch_set):
        raise PatchError("the diff has no file headers (--- a/PATH, +++ b/PATH)")
    files = [_file_edit(f) for f in patch_set]
    seen: set[str] = set()
    for edit in files:
        if edit.path in seen:
            raise PatchError(f"{edit.path}: the diff names this file twice; write one diff per file")
        seen.add(edit.path)
    text = "".join(_canonical(f, e) for f, e in zip(patch_set, files))
    _check_nothing_left(diff, str(patch_set), fenced)
    return Patch(text, tuple(files))


_HUNK_HEAD = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def _diff_lines(text: str) -> Counter[str]:
    """The text's non-empty lines, a hunk header with its counts spelled out (`-1 +1` is `-1,1 +1,1`)."""
    lines: Counter[str] = Counter()
    for line in text.split("\n"):
        m = _HUNK_HEAD.match(line)
        if m:
            a, b, c, d = m.groups()
            line = f"@@ -{a},{b or 1} +{c},{d or 1} @@{line[m.end():]}"
        if line:
            lines[line] += 1
    return lines


def _check_nothing_left(diff: str, parsed: str, fenced: bool) -> None:
    """Every line of the diff was read into a hunk or header. unidiff stops a hunk at its counts and
    drops what follows; a line it dropped that looks like a hunk's (a count lower than the hunk's
    lines) is refused. Prose after a bare diff is allowed when none of its lines could be a diff's."""
    left = _diff_lines(diff) - _diff_lines(parsed)
    for line in left:
        if fenced or _BODY.match(line) or _HEADER.match(line):
            raise PatchError(f"a line of the diff is outside every hunk (wrong hunk counts?): {line[:80]!r}")


def _strip_prefixes(source: str, target: str) -> tuple[str, str]:
    """git's `a/` and `b/` prefixes, when both sides have them (or one side is /dev/null)."""
    dev = "/dev/null"
    if (source == dev or source.startswith("a/")) and (target == dev or target.startswith("b/")) and (source, target) != (dev, dev):
        return (source if source == dev else source[2:]), (target if target == dev else target[2:])
    return source, target


def _file_edit(f: object) -> FileEdit:
    """One patched file's path and change, after every check of its headers and paths."""
    source, target = _strip_prefixes(_header_path(f.source_file), _header_path(f.target_file))  # type: ignore[attr-defined]
    _check_extended_headers(f, source, target)
    if source == "/dev/null" and target == "/dev/null":
        raise PatchError("a file diff from /dev/null to /dev/null")
    if source != "/dev/null" and target != "/dev/null" and source != target:
        raise PatchError(f"{source} -> {target}: renames are not admitted; delete the old file and add the new one")
    path = target if source == "/dev/null" else source
    _check_path(path)
    change = "added" if source == "/dev/null" else "deleted" if target == "/dev/null" else "modified"
    if not len(f) and change == "modified":  # type: ignore[arg-type]
        raise PatchError(f"{path}: no hunks (a mode-only or empty file diff is not admitted)")
    for hunk in f:  # type: ignore[attr-defined]
        if not hunk.added and not hunk.removed:  # git apply calls such a patch corrupt
            raise PatchError(f"{path}: a hunk that changes nothing (@@ -{hunk.source_start} +{hunk.target_start} @@)")
    return FileEdit(path, change)


def _header_path(name: str | None) -> str:
    if not name:
        raise PatchError("a file header without a path")
    return name.split("\t", 1)[0]


def _check_extended_headers(f: object, source: str, target: str) -> None:
    """Only `diff --git`, `index` and a regular file's `new/deleted file mode 100644` are admitted;
    what else a header says is refused by name (a mode, a rename, a binary) before the git line's names."""
    if getattr(f, "is_binary_file", False):
        raise PatchError("binary patches are not admitted")
    info = [str(line).rstrip("\n") for line in (getattr(f, "patch_info", None) or [])]
    info = [line for line in info if line and not line.startswith(("--- ", "+++ "))]
    for line in info:
        if line.startswith(("diff --git ", "new file mode 100644", "deleted file mode 100644")) or _INDEX.match(line):
            continue
        if line.startswith(("old mode", "new mode", "new file mode", "deleted file mode")):
            raise PatchError(f"{line!r}: only regular files (mode 100644) are admitted: no mode changes, symlinks or submodules")
        if line.startswith(("Binary files", "GIT binary patch")):
            raise PatchError("binary patches are not admitted")
        if line.startswith(("rename ", "copy ", "similarity ", "dissimilarity ")):
            raise PatchError(f"{line[:120]!r}: renames and copies are not admitted")
        raise PatchError(f"unexpected text between file diffs: {line[:80]!r}")
    names = {f"diff --git a/{p} b/{p}" for p in (source, target) if p != "/dev/null"}
    names |= {f"diff --git {p} {p}" for p in (source, target) if p != "/dev/null"}
    for line in info:
        if line.startswith("diff --git ") and line not in names:
            raise PatchError(f"the header {line[:120]!r} names other files than its --- and +++ lines")


def _check_path(path: str) -> None:
    """A relative path inside the repository: no absolute path, `..`, `.git`, empty part or control byte (the
    contract's `repo_path_problem`, a task's `editable` read by the same rule)."""
    problem = repo_path_problem(path)
    if problem:
        raise PatchError(f"{path[:120]!r}: {problem}")


def _canonical(f: object, edit: FileEdit) -> str:
    """One file's diff in git's form with a/ b/ prefixes: the bytes `git apply -p1` gets."""
    head = [f"diff --git a/{edit.path} b/{edit.path}\n"]
    if edit.change == "added":
        head += ["new file mode 100644\n", "--- /dev/null\n", f"+++ b/{edit.path}\n"]
    elif edit.change == "deleted":
        head += ["deleted file mode 100644\n", f"--- a/{edit.path}\n", "+++ /dev/null\n"]
    else:
        head += [f"--- a/{edit.path}\n", f"+++ b/{edit.path}\n"]
    return "".join(head) + "".join(_hunk_text(h) for h in f)  # type: ignore[attr-defined]


def _hunk_text(hunk: object) -> str:
    """A hunk's header and lines; a blank line unidiff read after a complete hunk is not one of them
    (a blank line inside a hunk is read as an empty context line, and written back as one)."""
    h = hunk
    section = f" {h.section_header}" if h.section_header else ""  # type: ignore[attr-defined]
    head = f"@@ -{h.source_start},{h.source_length} +{h.target_start},{h.target_length} @@{section}\n"  # type: ignore[attr-defined]
    return head + "".join(str(line) for line in h if line.line_type in (" ", "+", "-", "\\"))  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- protected paths
# Files whose change would change how tests run or what they report (docs/repo-tasks.md "Trust
# model"): test files, pytest's and tox's configuration, interpreter start-up hooks. Matched
# against a path's last part; TEST_DIRS against any directory part.
PROTECTED_NAMES = ("conftest.py", "pytest.ini", ".pytest.ini", "tox.ini", "noxfile.py", "sitecustomize.py",
                   "usercustomize.py", "*.pth", "go.work")
TEST_DIRS = ("test", "tests", "testing", "testdata", "__snapshots__")
# Package metadata directories: importlib.metadata finds a `*.dist-info` on sys.path (the repository
# root is on it under `python -m pytest`), and pytest loads every `pytest11` entry point it lists
# as a plugin at start-up: a patch adding one would hook the runner before any test.
METADATA_DIRS = ("*.dist-info", "*.egg-info", "*.egg-link")
# Files protected only in part: the sections that configure pytest.
_SECTIONS = {"pyproject.toml": "tool.pytest", "setup.cfg": "tool:pytest"}


# The test runners' own default names for a test module (pytest's `python_files`, go test's `_test.go`); the
# dataset's configuration adds its own (`discovery_patterns`). `is_test_file` is the one home of "is this a test file".
TEST_FILES = ("test_*.py", "*_test.py", "*_test.go")


class Scoped(NamedTuple):
    """A discovery pattern that counts under one collection root only (rt18 E: pytest's `python_files = *.py` with
    `testpaths = tests` makes tests/'s files test modules, not pkg/'s; unittest's `-p` under its `-s`): `root` "" is
    the whole tree; a root that is a file is itself a test module whatever its name (`pytest pkg/checks.py`, `--pyargs
    pkg.checks`); `pattern` "" names the root alone (a module pytest collected)."""
    root: str
    pattern: str

    def __str__(self) -> str:
        if not self.pattern:
            return f"{self.root}, collected by the test command"
        return f"{self.pattern} under {self.root}/" if self.root else self.pattern


Pattern = str | Scoped  # a name pattern counting in every folder, or one under a root


def _name_matches(low: str, pattern: str) -> bool:
    """A pattern without a `/` matches the file's name, one with a `/` its path's end (pytest's `fnmatch_ex`)."""
    pat = pattern.lower()
    if "/" not in pat:
        return fnmatch.fnmatchcase(low.rsplit("/", 1)[-1], pat)
    return fnmatch.fnmatchcase(low, pat) or fnmatch.fnmatchcase(low, "*/" + pat)


def is_test_file(path: str, patterns: Iterable[Pattern] = TEST_FILES) -> str:
    """The pattern by which the test runner collects `path` as a test module ("" when none does; `_name_matches`),
    a `Scoped` one only under its root. Lower case on both sides: over-inclusive, so a name a case-insensitive file
    system or a pattern's case lets through is still a test."""
    low = path.lower()
    for pattern in patterns:
        if isinstance(pattern, Scoped):
            root = pattern.root.lower()
            if low == root or (pattern.pattern and (not root or low.startswith(root + "/"))
                               and _name_matches(low, pattern.pattern)):
                return str(pattern)
        elif _name_matches(low, pattern):
            return pattern
    return ""


def protected_reason(path: str, extra: Iterable[str] = (), patterns: Iterable[Pattern] = TEST_FILES,
                     sources: Iterable[str] = ()) -> str:
    """Why a path is protected ("" when it is not): a default rule, the task's own list (its test files, the files of
    its listed test ids, the files its test command names), a file the environment's collection found a test's code
    in (`sources`: environment.json's `test_sources`, rt18 A), or a test module by the dataset's test discovery
    (`patterns`: `is_test_file`). Names are matched in lower case: importlib.metadata finds `Evil.Dist-Info` as it
    finds `evil.dist-info`, and a case-insensitive file system opens both."""
    parts = path.lower().split("/")
    if path in set(extra):
        return f"{path} is one of the task's test files or test command's files"
    if path in set(sources):
        return (f"{path} holds a test's code (the test command collected a test defined in it when the environment "
                "was built)")
    if any(d in TEST_DIRS for d in parts[:-1]):
        return f"{path} is under a test directory"
    pattern = is_test_file(path, patterns)
    if pattern:
        return f"{path} is test code (a test module by the test runner's discovery: {pattern})"
    if any(fnmatch.fnmatchcase(p, m) for p in parts for m in METADATA_DIRS):
        return f"{path} is package metadata (entry points load pytest plugins)"
    for pattern in PROTECTED_NAMES:
        if fnmatch.fnmatchcase(parts[-1], pattern):
            return f"{path} is test code or test configuration ({pattern})"
    return ""


# ----------------------------------------------------------------------------- what a patch may touch
# The allowlist (docs/repo-tasks.md "Trust model", "What a patch may touch"): a patch may change only the source
# files of the task's language and documentation; everything else the tests run with (configuration, scripts,
# makefiles, data, tests) is the dataset's and the environment's by construction, however a runner reaches it.
SOURCE_SUFFIXES = {"python": (".py", ".pyi"), "go": (".go",)}
# Files no program in the box reads to run the tests unless the command names them (refused then as its files):
# prose (a doctest of it is Python run in the tests' process, the "Not guaranteed" class as any source file), and
# the root's files that only hosted CI services read. Changed, added or deleted like source files.
DOC_SUFFIXES = (".md", ".rst")
CI_FILES = frozenset({".travis.yml", "appveyor.yml", ".appveyor.yml", ".gitlab-ci.yml", "azure-pipelines.yml"})
# Names (any depth, any letter case) Python, pytest, setuptools or go read by name: configuration and
# start-up hooks, never the patch's even where the suffix is a source file's.
SPECIAL_NAMES = frozenset({"conftest.py", "pytest.py", "sitecustomize.py", "usercustomize.py", "setup.py", "setup.cfg",
                           "pyproject.toml", "tox.ini", "pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml",
                           "noxfile.py", "__main__.py", "go.mod", "go.sum", "go.work", "go.work.sum"})
# Directories the same tools treat specially (pytest's own package name, go's vendored modules).
SPECIAL_DIRS = frozenset({"vendor", "pytest", "_pytest", "__pycache__"})
_GO_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")  # go ignores directories and files starting with . or _
_GO_MOD_LINE = re.compile(r"^(module [A-Za-z0-9][A-Za-z0-9._~/-]*|go \d+\.\d+(\.\d+)?|//.*|)$")

# What the tree has at a path, not following links: "file", "dir" or None (sandbox/repo/apply.py tree_kind).
Kind = Callable[[str], "str | None"]


def check_admitted(patch: Patch, language: str, kind: Kind, extra: Iterable[str] = (),
                   command: CommandFiles | None = None, sources: Iterable[str] = (), editable: Iterable[str] = ()) -> None:
    """PatchError unless every file of the patch is on the allowlist (the comment above it): a source file of the
    language or documentation (`allowed_kind`) that is not protected (`check_protected`: tests, their configuration,
    `extra`, the task's own test files, `sources`, the files the environment's tests are defined in), not a runner the command names nor in a runner's folder (`runner_reason`),
    and, when new, a module nothing imports in place of another (`_check_new_file`); and, where the task names its
    gold's files (`editable`, RepoTask.editable), an existing file only if it is one of them (`check_editable`).
    `command`: the test command's one reading (`command_files`)."""
    extra = tuple(extra)
    patterns = command.test_patterns if command is not None else TEST_FILES
    check_protected(patch, (*extra, *(command.written | command.runners if command else ())), patterns, sources)
    if command is not None:
        known = set(extra)
        folders = command.runner_folders(lambda p: kind(p) == "file" or p in known, lambda p: kind(p) == "dir")
        for edit in patch.files:
            reason = runner_reason(edit.path, command, folders)
            if reason:
                raise PatchError(f"the patch touches a protected path: {reason}")
    added = {e.path for e in patch.files if e.change == "added"}
    roots = command.roots if command is not None else frozenset()
    for edit in patch.files:
        parts = edit.path.lower().split("/")
        if any(p in SPECIAL_DIRS for p in parts[:-1]):
            raise PatchError(f"the patch touches {edit.path}: {'/'.join(parts[:-1])} is a directory python or go "
                             "resolves specially")
        if edit.path == "go.mod" and language == "go" and edit.change == "added":
            _check_new_go_mod(patch, kind, added)
            continue
        what = allowed_kind(edit.path, language, patterns)
        if not what:
            raise PatchError(f"the patch touches a protected path: {edit.path} is not a {language} source file or "
                             "documentation (configuration, scripts, makefiles, data and tests are the dataset's)")
        if edit.change == "added" and what == "source":
            _check_new_file(edit.path, language, kind, added, roots)
    check_editable(patch, kind, editable)


def check_editable(patch: Patch, kind: Kind, editable: Iterable[str]) -> None:
    """The gold's files (docs/repo-tasks.md "Trust model", "The gold's files"; issue 33, h33j's decision): where the
    task names them (`editable`, the dataset's, never the policy's), a patch may change or delete an existing file
    only if the task's reference fix changes it, and may add new files (which the rules of `check_admitted` refuse
    where a runner would load them: a conftest, a test module, a `*.pth`, metadata). An allowlist, so no record of
    where the tests' code lives is needed: a test's code in any other existing file is the dataset's by construction.
    Paths compare as exact strings (one spelling each: `repo_path_problem`); a new file is one where the environment's
    tree has no file or folder (`kind`; a link there is refused as existing when the patch is applied, `apply_patch`).
    Empty `editable`: no list, the other rules alone."""
    allowed = frozenset(editable)
    if not allowed:
        return
    for edit in patch.files:
        if edit.path in allowed or (edit.change == "added" and kind(edit.path) is None):
            continue
        names = ", ".join(sorted(allowed)[:5]) + (f" and {len(allowed) - 5} more" if len(allowed) > 5 else "")
        raise PatchError(f"the patch touches a protected path: {edit.path} is an existing file the task's reference "
                         f"fix does not change (a patch may change only the files it changes: {names}; and add new "
                         "files)")


def allowed_kind(path: str, language: str, patterns: Iterable[Pattern] = TEST_FILES) -> str:
    """"source" or "doc" when the allowlist admits a patch's change to `path` (the comment above it), "" when not: a
    test module by `patterns` (`is_test_file`, the dataset's discovery) is neither."""
    parts = path.lower().split("/")
    name = parts[-1]
    if name in SPECIAL_NAMES or is_test_file(path, patterns):
        return ""
    if name.endswith(SOURCE_SUFFIXES.get(language, ())):
        return "source"
    if name.endswith(DOC_SUFFIXES) or (len(parts) == 1 and name in CI_FILES):
        return "doc"
    return ""


def _check_new_file(path: str, language: str, kind: Kind, added: set[str], roots: frozenset[str] = frozenset()) -> None:
    """A new source file under a name nothing resolves specially. Python: in a package the environment has (its
    directory has an `__init__.py`), or in new directories under one that the patch makes packages too, so the
    module is never top-level: the repository's root is first on sys.path under `python -m pytest`, and a new
    top-level module would shadow pytest's own imports. Nor a new name directly in a folder the command puts on
    sys.path (`roots`: a `cd` target, a PYTHONPATH entry, a script's folder), where it is top-level too (rt16:
    `PYTHONPATH=pkg` and a new pkg/pluggy.py ran in place of pluggy before pytest started)."""
    parts = path.split("/")
    if language == "go":
        if not all(_GO_PART.match(p) for p in parts):
            raise PatchError(f"the patch adds {path}: a name go ignores or treats specially (. or _ first)")
        return
    stem = parts[-1].rsplit(".", 1)[0]
    if not all(p.isascii() and p.isidentifier() for p in [*parts[:-1], stem]):
        raise PatchError(f"the patch adds {path}: every directory and the module must be Python identifiers")
    for k in range(1, len(parts)):
        folder = "/".join(parts[:k])
        if folder in roots and kind(f"{folder}/{parts[k]}") is None:
            raise PatchError(f"the patch adds {path}: {folder} is on sys.path under the test command, where the new "
                             f"{parts[k]!r} would be a top-level module (shadowing what the runner imports)")
    for k in range(len(parts) - 1, 0, -1):  # up from the file's directory to the nearest one the tree has
        directory = "/".join(parts[:k])
        init = f"{directory}/__init__.py"
        if kind(directory) == "dir":
            if kind(init) != "file":
                raise PatchError(f"the patch adds {path} in {directory}, which is not a package (no __init__.py): "
                                 "a new module must be inside one of the repository's packages")
            return
        if init not in added:
            raise PatchError(f"the patch adds {path} in the new directory {directory} without {init}")
    raise PatchError(f"the patch adds {path} at the repository's root: a new top-level module would shadow the imports "
                     "of the test runner; add it inside one of the repository's packages")


def _check_new_go_mod(patch: Patch, kind: Kind, added: set[str]) -> None:
    """A go.mod at the root of an environment that has none (its package did not build as a module): only
    `module` and `go` lines, and nothing else added, so the module path cannot point the tests' imports at
    packages of the patch (no require, replace or new package to resolve them to)."""
    from unidiff import PatchSet

    if kind("go.mod") is not None or added != {"go.mod"}:
        raise PatchError("the patch adds go.mod: admitted only where the environment has none, with no other new file")
    f = next(f for f in PatchSet(patch.text) if f.path == "go.mod")
    lines = [line.value.rstrip("\n").strip() for hunk in f for line in hunk if line.is_added]
    bad = [line for line in lines if not _GO_MOD_LINE.match(line)]
    if bad:
        raise PatchError(f"the patch adds go.mod with {bad[0][:80]!r}: only `module` and `go` lines are admitted")


def check_protected(patch: Patch, extra: Iterable[str] = (), patterns: Iterable[Pattern] = TEST_FILES,
                    sources: Iterable[str] = ()) -> None:
    """PatchError when the patch touches a protected path: tests, their configuration and start-up hooks, `extra`,
    `sources` (the allowlist by kind, `allowed_kind`, refuses the rest of what is not source or documentation)."""
    extra, sources = tuple(extra), frozenset(sources)
    for edit in patch.files:
        reason = protected_reason(edit.path, extra, patterns, sources)
        if reason:
            raise PatchError(f"the patch touches a protected path: {reason}")


# ----------------------------------------------------------------------------- what the test command runs
# The ONE reading of which files a test command runs or reads by name (docs/repo-tasks.md "Trust model", "The
# runner's folder"; rt15, rt16): the copies of sandbox/repo_job.py `copied` (`names`, over-inclusive) and the runners
# a patch may not touch with their folders and the folders it puts on sys.path (`runners`, `roots`, for
# `check_admitted`) are both this reading's. The allowlist already keeps every file that is not source the
# dataset's; this reading keeps the runner's own source and its folder the dataset's too.
# What separates the words of a test command that may name a file: blanks, the shell's operators, quotes, `$`
# and braces (`$PWD/run`, `${X}`), and `=` (`--rootdir=tools`, `X=run.sh`)
_COMMAND_WORD = re.compile(r"[^\s;&|()<>'\"`=${}]+")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
# Words after which the next word is a Python module by name: `python -m`, pytest's `-p` (a plugin), and a
# `-c` program's `import` and `from` (a dotted word is a module wherever it stands): the copies' reading.
_MODULE_BEFORE = ("-m", "-p", "import", "from")
# Test files the command names are test code (protected as test modules: `is_test_file` by the dataset's discovery),
# not runners unless run as a program (`python3 scripts/test_runner.py`): their folder stays the project's (a test
# beside its source, `pytest pkg/test_core.py`).
# A shell command's segments (split at its operators) and what starts one: the program, after `NAME=value` words.
_SEGMENT = re.compile(r"&&|\|\||[;&|()\n`]")
_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_INTERPRETER = re.compile(r"^(python[0-9.]*|pypy[0-9.]*|sh|bash|dash|zsh|ksh|source|\.|exec|env|coverage|nice|timeout)$")
_ENTER = ("cd", "pushd", "-C", "--directory")  # the next word is a folder the rest runs in
_PWD = re.compile(r"(\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`)/")


@dataclass(frozen=True)
class CommandFiles:
    """The files a test command may run or read by name. `names` is over-inclusive by design (a copy of a file no
    runner resolves costs its bytes); `runners` is what a patch may not touch, with its folders: a file the command
    names where it runs (from the root or a folder it enters), never a name matched in any folder (rt16 6b)."""
    written: frozenset[str]  # the words as written from the tree's root (`./` dropped): each exactly that path
    resolved: frozenset[str]  # the regular files the words resolve to through the environment's own links (`_resolved`)
    tails: frozenset[str]  # a path equal to one or ending in `/` + one, from any folder a `cd` enters: each word's last
    # part, and the files of each module the command names (`a/b.py`, `a/b/__init__.py`, `a/b/__main__.py`, `a/__init__.py`)
    runners: frozenset[str] = frozenset()  # the runners by path (`_runners`): what the command runs or reads there
    roots: frozenset[str] = frozenset()  # folders the command puts first on sys.path: `cd` targets, PYTHONPATH entries,
    # the folders of the Python scripts it runs (no new top-level module there: `_check_new_file`)
    program_dirs: frozenset[str] = frozenset()  # the segments' programs by path, from the root and each entered folder
    test_patterns: tuple[Pattern, ...] = TEST_FILES  # the names the command's runners collect as test modules (`discovery_patterns`)
    doctest_modules: bool = False  # pytest runs every collected module's doctests (`--doctest-modules`: `check_doctests`)

    @functools.cached_property
    def _by_last(self) -> dict[str, tuple[str, ...]]:
        """The tails by their last part, so `names` looks at a path's own candidates only (it is asked of every
        file of an environment's tree: `copied`)."""
        index: dict[str, list[str]] = {}
        for tail in sorted(self.tails):
            index.setdefault(tail.rsplit("/", 1)[-1], []).append(tail)
        return {last: tuple(tails) for last, tails in index.items()}

    def names(self, path: str) -> bool:
        """Whether `path` (relative to the tree's root) is a file the command may name (the copies' reading)."""
        if path in self.written or path in self.resolved or path in self.runners:
            return True
        return any(path == t or path.endswith("/" + t) for t in self._by_last.get(path.rsplit("/", 1)[-1], ()))

    def runner_folders(self, exists: Callable[[str], bool], is_dir: Callable[[str], bool]) -> dict[str, str]:
        """The folders (not the root) of the runners that `exists` says the tree has, each to one of its runners, and
        the programs that are folders (`go run ./tools/runner`, `python3 tools/`: their files are the program)."""
        folders = {p: p for p in sorted(self.program_dirs) if is_dir(p)}
        for runner in sorted(self.runners):
            if "/" in runner and (runner in self.resolved or exists(runner)):
                folders.setdefault(runner.rsplit("/", 1)[0], runner)
        return folders


def command_files(test_cmd: str, tree: str = "", discovery: Discovery | None = None) -> CommandFiles:
    """The one reading (the comment above): the command's words (split at `_COMMAND_WORD`'s separators, options
    left out, a pytest node id's `::` cut) as written, resolved from the tree's root through the environment's
    links when `tree` is given (rt33q: `bash ci/run.sh` with `ci -> tools` runs `tools/run.sh`), their last parts
    (a name after a `cd`, a bare word; with `make`, every makefile GNU make reads by name), and the files of the
    Python modules it names (`python3 -m tools.runner`, `-p tools.plugin`, `-mtools.runner`, a dotted word
    anywhere); and the runners and import roots by path (`_runners`). Bounded by the command's size
    (REPO_MAX_CMD_BYTES). `discovery`: the environment's record of pytest's own (`Discovery`), None where none."""
    test_cmd = _PWD.sub("./", test_cmd)
    raw = _COMMAND_WORD.findall(test_cmd)
    words = [w.split("::", 1)[0].removeprefix("./") for w in raw if not w.startswith("-")]
    written = {w.rstrip("/") for w in words if w and not w.startswith("/")} - {"", ".", ".."}
    tails = {w.rstrip("/").rsplit("/", 1)[-1] for w in words} - {"", ".", ".."}
    if tails & {"make", "gmake"}:  # the makefile it reads, in any folder a `-C` or `cd` enters (GNU make's names)
        tails |= set(_MAKEFILES)
    modules = [w for w in raw if "." in w] + [w[2:] for w in raw if w[:2] in ("-m", "-p") and len(w) > 2]
    modules += [b for a, b in zip(raw, raw[1:]) if a in _MODULE_BEFORE]
    for module in modules:
        tails |= _module_files(module.split("::", 1)[0])
    resolved = set()
    if tree:
        resolved = set(filter(None, (_resolved(tree, w) for w in written)))
    texts = _discovery_texts(test_cmd, tree, written)
    patterns = discovery_patterns(test_cmd, tree, written, texts, discovery)
    runners, roots, programs = _runners(test_cmd, tree, patterns)
    doctests = any("--doctest-modules" in text for _, text in texts) or bool(discovery and discovery.doctest_modules)
    return CommandFiles(frozenset(written), frozenset(resolved), frozenset(tails), runners, roots, programs, patterns,
                        doctests)


_MAKEFILES = ("GNUmakefile", "makefile", "Makefile")


class _Segments(NamedTuple):
    """What the command's segments say by place (`_read_segments`)."""
    entered: set[str]  # the folders after `cd`, `pushd`, `-C` (`_ENTER`)
    pythonpath: set[str]  # PYTHONPATH's entries, wherever it is assigned
    programs: set[str]  # each segment's program (`_program`)
    modules: set[str]  # the modules `-m X`, `-mX`, `-p X` run
    make: bool  # a segment runs make


def _read_segments(test_cmd: str) -> _Segments:
    """The command split at the shell's operators (`_SEGMENT`; quotes are not parsed: a `;` inside them splits too,
    which only adds programs) into words, `NAME=value` words apart."""
    read = _Segments(set(), set(), set(), set(), False)
    make = False
    for segment in _SEGMENT.split(test_cmd):
        tokens = [t.strip("'\"") for t in segment.split()]
        read.pythonpath.update(p for t in tokens if t.startswith("PYTHONPATH=") for p in t.split("=", 1)[1].split(":"))
        rest = [t for t in tokens if not _ASSIGN.match(t)]
        read.entered.update(b for a, b in zip(rest, rest[1:]) if a in _ENTER)
        read.entered.update(t.split("=", 1)[1] if t.startswith("--") else t[2:] for t in rest
                            if (t.startswith("-C") and len(t) > 2) or t.startswith("--directory="))
        read.modules.update(b for a, b in zip(rest, rest[1:]) if a in ("-m", "-p"))
        read.modules.update(t[2:] for t in rest if t[:2] in ("-m", "-p") and len(t) > 2)
        program = _program(rest)
        if program:
            read.programs.add(program)
        make = make or bool(rest) and rest[0].rsplit("/", 1)[-1] in ("make", "gmake")
    return read._replace(make=make)


def _program(words: list[str]) -> str:
    """A segment's program: its first word, or the first word after interpreters (`python3 -u x.py`, `env sh x`)
    that is not an option, or the package `go run` builds; "" where `-m` or `-c` says the program is no file."""
    if words[:2] == ["go", "run"]:
        return next((w for w in words[2:] if not w.startswith("-")), "")
    for k, word in enumerate(words):
        if k and word.startswith("-"):
            if word[:2] in ("-m", "-c"):
                return ""
            continue
        if not _INTERPRETER.match(word.rsplit("/", 1)[-1]):
            return word
    return ""


def _runners(test_cmd: str, tree: str, patterns: tuple[Pattern, ...] = TEST_FILES
             ) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(runners, import roots, programs) by path: every file word (`_COMMAND_WORD`, `./` dropped, a node id's `::` cut) from
    the root and from every folder the command enters (`_ENTER`), but a test file that is not a segment's program
    (`pytest tests/test_x.py`: test code, not a runner); the module files of `-m X` and `-p X`; with `make`, its
    makefiles; each through the environment's links too. The roots: the entered folders, PYTHONPATH's entries and
    the folders of the `.py` programs. A module by name is looked up under every import root the command sets: the
    root, the entered folders and PYTHONPATH's entries (rt17 4: `PYTHONPATH=tools python3 -m runner` runs
    tools/runner.py). A dotted word elsewhere (`--cov=pkg.mod`, `-m unittest pkg.tests.x`) names
    no runner (rt16 6): it is a module the tests import, the project's."""
    read = _read_segments(test_cmd)
    named = {w.split("::", 1)[0] for w in _COMMAND_WORD.findall(test_cmd) if not w.startswith("-")}
    named |= set(_MAKEFILES) if read.make else set()
    modules: set[str] = set()
    for module in filter(_MODULE.fullmatch, read.modules):
        path = module.replace(".", "/")
        modules |= {f"{path}.py", f"{path}/__main__.py", f"{path}/__init__.py"}
    named |= modules
    folders = {d for d in map(_inside, read.entered) if d}
    pythonpath = {d for d in map(_inside, read.pythonpath) if d}
    run = {p for p in map(_inside, read.programs) if p}
    runners: set[str] = set()
    for word in named:
        if is_test_file(word.rstrip("/"), patterns) and _inside(word) not in run:
            continue
        where = {"", *folders, *(pythonpath if word in modules else ())}
        for path in filter(None, (_inside(f"{folder}/{word}" if folder else word) for folder in where)):
            runners.add(path)
            real = _resolved(tree, path) if tree else None
            if real:
                runners.add(real)
    roots = folders | pythonpath
    roots |= {p.rsplit("/", 1)[0] for p in run if p.endswith(".py") and "/" in p}
    programs = {p for w in read.programs for p in (_inside(f"{f}/{w}" if f else w) for f in {"", *folders}) if p}
    return frozenset(runners), frozenset(roots), frozenset(programs)


# The dataset's test discovery (rt17 1): pytest's `python_files` in its configuration files (and `-o python_files=`
# on the command), `--doctest-glob` (a text file pytest collects is a test), and unittest's discovery pattern where
# the command runs unittest (`-p`/`--pattern`, default `test*.py`). Read from the environment's files: a patch may
# change none of them (`PROTECTED_NAMES`, `check_config_sections`).
_CONFIGS = {"pytest.ini": "pytest", ".pytest.ini": "pytest", "tox.ini": "pytest", "setup.cfg": "tool:pytest"}
_CONFIG_MAX = 1 << 20  # bytes of one configuration file read
_OPTION_VALUE = r"""\s*[= ]\s*['"]?([^'"\s;&|]+)"""
_DOCTEST_GLOB = re.compile(r"--doctest-glob" + _OPTION_VALUE)
_PYTHON_FILES_OPT = re.compile(r"python_files\s*=\s*['\"]?([^'\"\n;&|]+)")
_UNITTEST_PATTERN = re.compile(r"(?:^|\s)(?:-p|--pattern)" + _OPTION_VALUE)
UNITTEST_FILES = "test*.py"  # unittest discover's default pattern


def _discovery_texts(test_cmd: str, tree: str, written: Iterable[str]) -> list[tuple[str, str]]:
    """(name, text) of the command ("") and of the configuration files at the tree's root and in the folders of the
    command's words and their parents."""
    texts = [("", test_cmd)]
    folders = {""}
    for word in written:
        parts = word.split("/")
        folders |= {"/".join(parts[:k]) for k in range(1, len(parts) + 1)}
    for folder in sorted(folders) if tree else ():
        for name in (*_CONFIGS, "pyproject.toml"):
            text = _read_config(tree, f"{folder}/{name}" if folder else name)
            if text:
                texts.append((name, text))
    return texts


def discovery_patterns(test_cmd: str, tree: str = "", written: Iterable[str] = (),
                       texts: list[tuple[str, str]] | None = None,
                       discovery: Discovery | None = None) -> tuple[Pattern, ...]:
    """The names the dataset's runners collect as test modules (the comment above): the defaults (`TEST_FILES`),
    pytest's (its own record, `discovery`, where that covers the command: `_record_covers`; else what the
    configuration files, `_discovery_texts`, say, over-inclusive: a pattern counts in every folder and a
    configuration pytest would not pick counts too) and unittest's (`unittest_patterns`)."""
    found: list[Pattern] = list(TEST_FILES)
    if discovery is not None and _record_covers(test_cmd, discovery):
        found += discovery.patterns
    else:
        for name, text in texts if texts is not None else _discovery_texts(test_cmd, tree, written):
            found += _DOCTEST_GLOB.findall(text) + (_config_python_files(name, text) if name else [])
        found += [p for v in _PYTHON_FILES_OPT.findall(test_cmd) for p in v.split()]
    found += unittest_patterns(test_cmd)
    # a bare `*` read from text counts nowhere (as before); pytest's own `*` under its roots is every module there
    return tuple(dict.fromkeys(p for p in found if isinstance(p, Scoped) or (p and p not in ("*", "*.*"))))


@dataclass(frozen=True)
class Discovery:
    """What pytest itself resolved of its test discovery at env build, per process of the test command's collection
    (sandbox/repo/sources_plugin.py `discovery`, environment.json `test_discovery`; rt18 D, E; docs/repo-tasks.md
    "Trust model"): each `python_files` and `--doctest-glob` pattern under that process's collection roots, each root
    itself, and every Python test module pytest collected (`patterns`); `processes` the sessions recorded."""
    patterns: tuple[Scoped, ...]
    processes: int
    doctest_modules: bool


def read_discovery_record(value: object) -> Discovery:
    """environment.json's `test_discovery` (sandbox/environments.py `read_discovery` writes it) as a Discovery;
    ValueError where it does not read (the environment's fault)."""
    def words(v: object) -> list[str]:
        if not (isinstance(v, list) and all(isinstance(w, str) for w in v)):
            raise ValueError("not a list of strings")
        return v

    if not isinstance(value, dict) or not isinstance(value.get("processes"), list):
        raise ValueError("not a map with `processes`")
    patterns = [Scoped(m, "") for m in words(value.get("modules"))]
    doctests = False
    for process in value["processes"]:
        if not isinstance(process, dict) or not isinstance(process.get("doctest_modules"), bool):
            raise ValueError("a process is not a map with `doctest_modules`")
        doctests = doctests or process["doctest_modules"]
        names = words(process.get("python_files")) + words(process.get("doctest_glob"))
        for root in words(process.get("roots")):
            patterns += [Scoped(root, ""), *(Scoped(root, n) for n in names)]
    return Discovery(tuple(dict.fromkeys(patterns)), len(value["processes"]), doctests)


# The programs a command may run around pytest with no pytest process of their own unseen (`_record_covers`)
_PLAIN_PROGRAMS = frozenset({"pytest", "py.test", "cd", "pushd", "popd", "export", "true", "echo", ":"})
_RUNS_PYTEST = re.compile(r"(^|[\s/])(py\.test|pytest)(\s|$)|(^|\s)-m\s*pytest(\s|$)")


def _record_covers(test_cmd: str, discovery: Discovery) -> bool:
    """Whether the record speaks for every pytest process of the command (else its text is read too): every
    segment's program is pytest, Python by `-m`/`-c` or a shell builtin (a script may run a pytest the plugin is not
    loaded in), PYTEST_ADDOPTS is not set by it (the collection loads the plugin by it), and there are at least as
    many records as segments running pytest."""
    if "PYTEST_ADDOPTS" in test_cmd or any(p.rsplit("/", 1)[-1] not in _PLAIN_PROGRAMS
                                           for p in _read_segments(test_cmd).programs):
        return False
    runs = sum(1 for segment in _SEGMENT.split(test_cmd) if _RUNS_PYTEST.search(segment.replace("'", " ")
                                                                               .replace('"', " ")))
    return discovery.processes >= runs


def _runs_unittest(segment: str, tokens: list[str]) -> bool:
    """Whether a command's segment runs unittest: `-m unittest`, `-munittest` (rt18 D), or a word `unittest` in a
    segment that runs no pytest (a folder named unittest under pytest is no unittest run: rt18 E)."""
    if any(a == "-m" and (b == "unittest" or b.startswith("unittest.")) for a, b in zip(tokens, tokens[1:])):
        return True
    if any(t.startswith("-munittest") for t in tokens):
        return True
    return not _RUNS_PYTEST.search(" ".join(tokens)) and bool(re.search(r"(^|[\s./])unittest(\s|$)", segment))


_UNITTEST_VALUED = frozenset({"-s", "--start-directory", "-p", "--pattern", "-t", "--top-level-directory", "-k"})


def _unittest_discover(tokens: list[str]) -> tuple[str | None, list[str]]:
    """The folder `unittest discover` starts from (`-s`, `--start-directory`, its first positional word; None where it
    names none: the folder the command runs in) and the pattern its second positional word names."""
    start: str | None = None
    for k, token in enumerate(tokens):
        if token in ("-s", "--start-directory") and k + 1 < len(tokens):
            start = tokens[k + 1]
        elif token.startswith("--start-directory="):
            start = token.split("=", 1)[1]
    positional: list[str] = []
    rest = tokens[tokens.index("discover") + 1:] if "discover" in tokens else []
    k = 0
    while k < len(rest):
        if rest[k] in _UNITTEST_VALUED:
            k += 2
            continue
        if not rest[k].startswith("-"):
            positional.append(rest[k])
        k += 1
    return (start or (positional[0] if positional else None)), positional[1:2]


def unittest_patterns(test_cmd: str) -> list[Pattern]:
    """The names unittest collects as test modules in each segment that runs it (`_runs_unittest`): its default
    `test*.py` and `-p`'s (or its second positional word), under the folder discovery starts from (`-s`, from the
    root and from each folder the command enters), in every folder where it names none or starts from the root or
    outside it (rt18 E: `-s tests -p '*.py'` makes no pkg/ file a test)."""
    entered = {d.rstrip("/") for d in _read_segments(test_cmd).entered}  # an absolute one: every folder
    found: list[Pattern] = []
    for segment in _SEGMENT.split(test_cmd):
        tokens = [t.strip("'\"") for t in segment.split()]
        if not _runs_unittest(segment, tokens):
            continue
        start, named = _unittest_discover(tokens)
        names = [UNITTEST_FILES, *_UNITTEST_PATTERN.findall(segment), *named]
        folders = {os.path.normpath(f"{d}/{start}" if d else start) for d in {"", *entered}} if start else {"."}
        if any(f == "." or f.startswith(("..", "/")) for f in folders):  # from the root, or no start: every folder
            found += names
            continue
        found += [Scoped(f, n) for f in sorted(folders) for n in names]
    return found


def _read_config(tree: str, path: str) -> str:
    """A configuration file's text (bounded), "" where the tree has none or it is not a regular file inside it."""
    real = _resolved(tree, path)
    if real is None:
        return ""
    try:
        with open(os.path.join(tree, real), "rb") as fh:
            return fh.read(_CONFIG_MAX).decode("utf-8", "replace")
    except OSError:
        return ""


def _config_python_files(name: str, text: str) -> list[str]:
    """`python_files` of one configuration file's pytest section; a file that does not parse is read line by line
    (any `python_files =` line counts: over-inclusive)."""
    try:
        if name == "pyproject.toml":
            import tomllib

            tool = tomllib.loads(text).get("tool", {})
            pytest_ = tool.get("pytest", {}) if isinstance(tool, dict) else {}
            values = [pytest_.get("python_files"), (pytest_.get("ini_options") or {}).get("python_files")]
            return [p for v in values for p in (v.split() if isinstance(v, str) else v if isinstance(v, list) else [])
                    if isinstance(p, str)]
        parser = configparser.RawConfigParser(strict=False)
        parser.read_string(text)
        value = parser.get(_CONFIGS[name], "python_files", fallback="")
        return value.split()
    except (ImportError, configparser.Error, ValueError, AttributeError):
        return [p for v in _PYTHON_FILES_OPT.findall(text) for p in v.split()]


def doctest_examples(text: str) -> Counter[tuple[str, str]]:
    """The doctest examples (source, expected output) in a module's string constants, as `doctest.DocTestParser`
    reads them: every docstring and `__test__` value doctest collects is one (over-inclusive: any string counts). A
    text that does not parse, or a string doctest cannot read, is one example of itself, so any change to it counts."""
    import ast
    import doctest

    from ..checks import parse_python

    try:
        strings = [n.value for n in ast.walk(parse_python(text)) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    except (SyntaxError, ValueError, RecursionError):
        return Counter({(text, ""): 1})
    found: Counter[tuple[str, str]] = Counter()
    for string in (s for s in strings if ">>>" in s):
        try:
            found.update((e.source, e.want) for e in doctest.DocTestParser().get_examples(string))
        except ValueError:  # inconsistent indentation in an example
            found[(string, "")] += 1
    return found


def check_doctests(patch: Patch, before: Callable[[str], "bytes | None"], after: Callable[[str], "bytes | None"]) -> None:
    """PatchError when, under `--doctest-modules` (`CommandFiles.doctest_modules`), the patch changed or removed a
    doctest example of an environment's module (rt17 1: a module's docstring is a test there, its expected output the
    dataset's; the file itself is source). New examples are more tests to pass, admitted. `before`/`after`: a
    path's bytes in the environment's and the patched tree (None: absent)."""
    for edit in patch.files:
        if not edit.path.endswith(".py"):
            continue
        old = before(edit.path)
        if old is None:
            continue
        new = after(edit.path)
        lost = doctest_examples(old.decode("utf-8", "replace")) - doctest_examples((new or b"").decode("utf-8", "replace"))
        if lost:
            source = next(iter(lost))[0].strip()
            raise PatchError(f"the patch changes or removes a doctest example of {edit.path} (the test command runs "
                             f"modules' doctests as tests: --doctest-modules): {source[:120]!r}")


def listed_test_files(test_ids: Iterable[str]) -> tuple[str, ...]:
    """The files of the task's listed test ids (rt17 1: a listed test is the dataset's whatever its file's name): a
    pytest node id's path (`pkg/tests.py::test_x`, a text doctest's `README.rst::README.rst`), and a module doctest's
    too (`pkg/util.py::pkg.util.f`, xdoctest's `pkg/util.py::f:0`; rt18 B, C): the module's code makes the doctest
    it runs (it may rebind `f`, set `f.__doc__`, or build the docstring from a template at import), so no reading of
    its text tells the dataset's examples from the patch's, and a listed doctest's module is the dataset's whole
    (a fix in it is refused: docs/repo-tasks.md "Trust model"). Go test names, jest and mocha titles name no file
    (go's tests are `_test.go` files by go's own rule)."""
    files = []
    for test_id in test_ids:
        path, sep, _ = test_id.partition("::")
        if not sep or not path or path.startswith("/"):
            continue
        normal = _inside(path)
        if normal:
            files.append(normal)
    return tuple(dict.fromkeys(files))


_XDOCTEST = re.compile(r"([A-Za-z_][\w.]*):\d+")


def module_doctest(test_id: str, text: str) -> tuple[str, ...] | None:
    """The qualified name a listed module doctest runs the docstring of, as its id names it (`pkg/util.py::pkg.util.
    total`: ("total",); the module's own docstring: (); xdoctest's `pkg/util.py::total:0`), None where the id is no
    module doctest (a test function or class: no `.` outside its parameters). `text`: the id's file (a test function
    named as its module, `test_mod.py::test_mod`, is that function)."""
    path, _, name = test_id.partition("::")
    if not path.endswith(".py") or not name or "::" in name:
        return None
    xdoctest = _XDOCTEST.fullmatch(name)
    if xdoctest:
        return () if xdoctest.group(1) == "__doc__" else tuple(xdoctest.group(1).split("."))
    parts = path[:-3].split("/")
    parts = parts[:-1] if parts[-1] == "__init__" else parts
    for k in range(len(parts)):  # the module's name as pytest imported it: a suffix of its path (rootdir, packages)
        module = ".".join(parts[k:])
        if name.startswith(module + "."):
            return tuple(name[len(module) + 1:].split("."))
        if name == module and f"def {name}(" not in text and f"class {name}" not in text:
            return ()
    return None


def listed_doctest_reason(text: str, qualname: tuple[str, ...]) -> str:
    """Why a listed module doctest (`module_doctest`'s name in its file's `text`) is not graded ("" when it is; red
    team 19 class 7, docs/repo-tasks.md "Trust model"): its docstring must be the literal docstring of its own
    `def` or `class` in its own file (an allowlist), read with `ast`: every name on its path bound by that one
    undecorated `def`/`class` in its body, the docstring its first statement, and no `__doc__` stored anywhere in the
    module. Else the text doctest runs may be another module's (pandas' shared docs: `f.__doc__ = TOTAL`, a decorator
    filling a template, doctest's `__test__` table of another module's function), which that module's code rewrites."""
    import ast

    from ..checks import parse_python

    try:
        tree = parse_python(text)
    except (SyntaxError, ValueError, RecursionError):
        return "its file does not parse"
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr == "__doc__" and isinstance(node.ctx, ast.Store)) or \
                (isinstance(node, ast.Name) and node.id == "__doc__" and isinstance(node.ctx, ast.Store)) or \
                (isinstance(node, ast.Constant) and node.value == "__doc__"):
            return "its module sets a docstring by code (`__doc__`)"
    holder: ast.AST = tree
    for part in qualname:
        body = getattr(holder, "body", [])
        binders = [stmt for stmt in body if part in _bound_names(stmt)]
        if len(binders) != 1 or not isinstance(binders[0], (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return f"{'.'.join(qualname)} is not one `def` or `class` of its file"
        if binders[0].decorator_list:
            return f"{'.'.join(qualname)} is decorated"
        holder = binders[0]
    body = getattr(holder, "body", [])
    if not (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)):
        return "its docstring is not a literal of its own `def`, `class` or module"
    return ""


def _bound_names(stmt: object) -> set[str]:
    """The names a statement of a body binds there: a `def`'s or `class`'s own, and every name stored, imported or
    declared `global` anywhere inside a statement that is neither (its nested bodies included: over-inclusive)."""
    import ast

    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):  # its own name, and its `global`s
        return {stmt.name} | {name for n in ast.walk(stmt) if isinstance(n, ast.Global) for name in n.names}
    names: set[str] = set()
    for node in ast.walk(stmt):  # type: ignore[arg-type]
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Global):
            names.update(node.names)
    return names


def check_listed_doctests(test_ids: Iterable[str], read: Callable[[str], "bytes | None"]) -> None:
    """PatchError (the task's: no listed test of such a doctest is graded) where a listed module doctest's docstring
    is not the literal of its own `def`/`class` (`listed_doctest_reason`); `read`: a path's bytes in the task's tree
    (the environment's with the test patch), None where absent."""
    for test_id in test_ids:
        path = _inside(test_id.partition("::")[0])
        data = read(path) if path else None
        if data is None:
            continue
        text = data.decode("utf-8", "replace")
        qualname = module_doctest(test_id, text)
        reason = listed_doctest_reason(text, qualname) if qualname is not None else ""
        if reason:
            raise PatchError(f"the listed module doctest {test_id} is not graded: {reason} (a listed doctest is graded "
                             "only where its docstring is the literal docstring of its own def or class in its file)")


def _inside(word: str) -> str | None:
    """`word` as a normal path inside the tree (`./` and `a/../` folded), None where it leaves it or is the root."""
    if not word or word.startswith("/"):
        return None
    path = os.path.normpath(word)
    if path in (".", "..") or path.startswith("../"):
        return None
    return path


def _module_files(module: str) -> set[str]:
    """The files Python runs for a module by name (`a.b`): its file or package's, and its parents' `__init__.py`."""
    if not _MODULE.fullmatch(module):
        return set()
    parts = module.split(".")
    path = "/".join(parts)
    return {f"{path}.py", f"{path}/__init__.py", f"{path}/__main__.py",
            *("/".join(parts[:k]) + "/__init__.py" for k in range(1, len(parts)))}


def _resolved(tree: str, word: str) -> str | None:
    """The regular file `word` names under `tree` with the environment's links followed (`ci/run.sh` with `ci ->
    tools`: `tools/run.sh`), relative to the tree; None where it names none, or leaves the tree."""
    real, root = os.path.realpath(os.path.join(tree, word)), os.path.realpath(tree)
    if os.path.commonpath([real, root]) != root or not os.path.isfile(real):
        return None
    return os.path.relpath(real, root)


def runner_reason(path: str, command: CommandFiles, folders: dict[str, str]) -> str:
    """Why the patch may not touch `path` as the test command's runner or a file beside one ("" when it may;
    docs/repo-tasks.md "Trust model", "The runner's folder"). A runner reads and runs what lies beside it (`.
    tools/lib.sh`, a module beside a script on sys.path, a helper it runs by a path of its own), so: a runner the
    command names, and every file in a runner's folder and below where that folder is not the tree's root
    (`folders`: `CommandFiles.runner_folders`). At the root, the allowlist alone: its source files are the project's."""
    if path in command.runners:
        return f"{path} is a file the test command runs or reads"
    parts = path.split("/")
    for k in range(len(parts) - 1, 0, -1):
        runner = folders.get("/".join(parts[:k]))
        if runner:
            return f"{path} is in the folder of {runner}, a runner the test command names"
    return ""


def config_section(name: str, text: str) -> object:
    """The pytest section of pyproject.toml or setup.cfg as data; a file that does not parse is its text
    (so any change to it counts)."""
    key = _SECTIONS[name]
    try:
        if name == "pyproject.toml":
            import tomllib  # Python 3.11+; on 3.10 the ImportError below compares the whole text

            value: object = tomllib.loads(text)
            for part in key.split("."):
                value = value.get(part, {}) if isinstance(value, dict) else {}
            return value
        parser = configparser.RawConfigParser()
        parser.read_string(text)
        return dict(parser.items(key)) if parser.has_section(key) else {}
    except (ImportError, configparser.Error, ValueError):  # TOMLDecodeError is a ValueError
        return text


def check_config_sections(before: dict[str, str], after: dict[str, str]) -> None:
    """PatchError when the patch changed pytest's section of pyproject.toml or setup.cfg (the files'
    texts at the repository root before and after the patch; an absent file is "")."""
    for name in _SECTIONS:
        if config_section(name, before.get(name, "")) != config_section(name, after.get(name, "")):
            raise PatchError(f"the patch changes pytest's configuration in {name} ([{_SECTIONS[name]}])")
