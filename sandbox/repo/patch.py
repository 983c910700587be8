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

from ..checks import _THINK_END, Fenced, opening_fence, scan_fences, strip_end_tokens

PATCH_MAX = 1 << 20  # bytes of diff text read from one completion
DIFF_TAGS = ("diff", "patch", "udiff")
_HEADER = re.compile(r"^(diff --git |--- |\+\+\+ |@@ )")
_BODY = re.compile(r"^[ +\-\\@]")
# Git's extended header lines a text edit may carry; every other one (mode, rename, copy, binary,
# similarity) is refused by name.
_INDEX = re.compile(r"^index [0-9a-f]{4,64}\.\.[0-9a-f]{4,64}( 100644| 100755)?$")  # an edit keeps the mode
_PATH_BAD = re.compile(r"[\x00-\x1f\x7f\\]")


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
    """A relative path inside the repository: no absolute path, `..`, `.git`, empty part or control byte."""
    if not path or path.startswith("/") or _PATH_BAD.search(path):
        raise PatchError(f"{path[:120]!r}: a file path must be relative and printable")
    parts = path.split("/")
    if any(p in ("", ".", "..") for p in parts):
        raise PatchError(f"{path[:120]!r}: a file path may not have empty, . or .. parts")
    if ".git" in parts:
        raise PatchError(f"{path[:120]!r}: the patch may not touch .git")


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
                   "usercustomize.py", "*.pth", "test_*.py", "*_test.py", "*_test.go", "go.work")
TEST_DIRS = ("test", "tests", "testing", "testdata", "__snapshots__")
# Package metadata directories: importlib.metadata finds a `*.dist-info` on sys.path (the repository
# root is on it under `python -m pytest`), and pytest loads every `pytest11` entry point it lists
# as a plugin at start-up: a patch adding one would hook the runner before any test.
METADATA_DIRS = ("*.dist-info", "*.egg-info", "*.egg-link")
# Files protected only in part: the sections that configure pytest.
_SECTIONS = {"pyproject.toml": "tool.pytest", "setup.cfg": "tool:pytest"}


def protected_reason(path: str, extra: Iterable[str] = ()) -> str:
    """Why a path is protected ("" when it is not): a default rule, or the task's own list (its
    test files, the files its test command names). Names are matched in lower case: importlib.metadata
    finds `Evil.Dist-Info` as it finds `evil.dist-info`, and a case-insensitive file system opens both."""
    parts = path.lower().split("/")
    if path in set(extra):
        return f"{path} is one of the task's test files or test command's files"
    if any(d in TEST_DIRS for d in parts[:-1]):
        return f"{path} is under a test directory"
    if any(fnmatch.fnmatchcase(p, m) for p in parts for m in METADATA_DIRS):
        return f"{path} is package metadata (entry points load pytest plugins)"
    for pattern in PROTECTED_NAMES:
        if fnmatch.fnmatchcase(parts[-1], pattern):
            return f"{path} is test code or test configuration ({pattern})"
    return ""


# ----------------------------------------------------------------------------- what a patch may touch
# The allowlist (docs/repo-tasks.md "Trust model", "What a patch may touch"): a patch may change files
# the environment has, except the protected ones and the files below; it may add only source files
# of the task's language, under names nothing resolves specially. Everything else is refused.
SOURCE_SUFFIXES = {"python": (".py",), "go": (".go",)}
# Names (any depth, any letter case) Python, pytest, setuptools or go read by name: configuration and
# start-up hooks. Never added; changed only where ROOT_CONFIG says (compared by section).
SPECIAL_NAMES = frozenset({"conftest.py", "pytest.py", "sitecustomize.py", "usercustomize.py", "setup.py", "setup.cfg",
                           "pyproject.toml", "tox.ini", "pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml",
                           "noxfile.py", "__main__.py", "go.mod", "go.sum", "go.work", "go.work.sum"})
# Directories the same tools treat specially (pytest's own package name, go's vendored modules).
SPECIAL_DIRS = frozenset({"vendor", "pytest", "_pytest", "__pycache__"})
ROOT_CONFIG = ("pyproject.toml", "setup.cfg")  # changed at the root only: check_config_sections compares them
_GO_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")  # go ignores directories and files starting with . or _
_GO_MOD_LINE = re.compile(r"^(module [A-Za-z0-9][A-Za-z0-9._~/-]*|go \d+\.\d+(\.\d+)?|//.*|)$")

# What the tree has at a path, not following links: "file", "dir" or None (sandbox/repo/apply.py tree_kind).
Kind = Callable[[str], "str | None"]


def check_admitted(patch: Patch, language: str, kind: Kind, extra: Iterable[str] = (),
                   command: CommandFiles | None = None) -> None:
    """PatchError unless every file of the patch is on the allowlist (the comment above it): a change
    to a file that is not protected or special, or a new source file (`_check_new_file`). `extra`: the task's
    own test files (its test patch's); `command`: what its test command runs (`command_files`), whose runners,
    found in the tree (`kind`) or among `extra`, are protected with their folder (`runner_reason`)."""
    extra = tuple(extra)
    check_protected(patch, (*extra, *(command.written if command else ())))
    if command is not None:
        known = set(extra)

        @functools.cache
        def runner_in(folder: str) -> str:
            return command.runner_in(folder, lambda p: kind(p) == "file" or p in known)
        for edit in patch.files:
            reason = runner_reason(edit.path, command, language, runner_in)
            if reason:
                raise PatchError(f"the patch touches a protected path: {reason}")
    added = {e.path for e in patch.files if e.change == "added"}
    for edit in patch.files:
        parts = edit.path.lower().split("/")
        if any(p in SPECIAL_DIRS for p in parts[:-1]):
            raise PatchError(f"the patch touches {edit.path}: {'/'.join(parts[:-1])} is a directory python or go "
                             "resolves specially")
        if edit.change != "added":
            if parts[-1] in SPECIAL_NAMES and not (edit.path in ROOT_CONFIG and edit.change == "modified"):
                raise PatchError(f"the patch changes {edit.path}: test or build configuration is not the patch's to change")
            continue
        if edit.path == "go.mod" and language == "go":
            _check_new_go_mod(patch, kind, added)
            continue
        _check_new_file(edit.path, language, kind, added)


def _check_new_file(path: str, language: str, kind: Kind, added: set[str]) -> None:
    """A new file: a source file of the language, under a name nothing resolves specially. Python: in a
    package the environment has (its directory has an `__init__.py`), or in new directories under one
    that the patch makes packages too, so the module is never top-level: the repository's root is first
    on sys.path under `python -m pytest`, and a new top-level module would shadow pytest's own imports."""
    parts = path.split("/")
    name = parts[-1].lower()
    suffixes = SOURCE_SUFFIXES.get(language, ())
    if not name.endswith(suffixes) or name.endswith("_test.go") or name in SPECIAL_NAMES:
        raise PatchError(f"the patch adds {path}: a patch may add only {language} source files "
                         f"({', '.join(suffixes) or 'none'}; not tests or configuration)")
    if language == "go":
        if not all(_GO_PART.match(p) for p in parts):
            raise PatchError(f"the patch adds {path}: a name go ignores or treats specially (. or _ first)")
        return
    stem = name[:-len(".py")]
    if not all(p.isascii() and p.isidentifier() for p in [*parts[:-1], stem]):
        raise PatchError(f"the patch adds {path}: every directory and the module must be Python identifiers")
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


def check_protected(patch: Patch, extra: Iterable[str] = ()) -> None:
    """PatchError when the patch touches a protected path (pyproject.toml and setup.cfg are checked
    by section, after the patch is applied: `check_config_sections`)."""
    extra = tuple(extra)
    for edit in patch.files:
        reason = protected_reason(edit.path, extra)
        if reason:
            raise PatchError(f"the patch touches a protected path: {reason}")


# ----------------------------------------------------------------------------- what the test command runs
# The ONE reading of which files a test command runs or reads by name (docs/repo-tasks.md "Trust model", "The
# runner's folder"; rt15): the copies of sandbox/repo_job.py `copied` and the files a patch may not touch
# (`check_admitted`) are both this reading's, so no spelling of a runner can be a copy the patch may rewrite.
# What separates the words of a test command that may name a file: blanks, the shell's operators, quotes, `$`
# and braces (`$PWD/run`, `${X}`), and `=` (`--rootdir=tools`, `X=run.sh`)
_COMMAND_WORD = re.compile(r"[^\s;&|()<>'\"`=${}]+")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
# Words after which the next word is a Python module by name: `python -m`, pytest's `-p` (a plugin), and a
# `-c` program's `import` and `from` (a dotted word is a module wherever it stands).
_MODULE_BEFORE = ("-m", "-p", "import", "from")
# Test files the command names are test code (protected by PROTECTED_NAMES), not runners: their folder stays the
# project's (a test beside its source, `pytest pkg/test_core.py`).
_TEST_FILES = ("test_*.py", "*_test.py", "*_test.go")


@dataclass(frozen=True)
class CommandFiles:
    """The files a test command may run or read by name. Over-inclusive by design: a copy of a file no runner
    resolves costs its bytes and a file wrongly thought a runner refuses a patch that touches it (a false negative,
    never a false pass); a runner missed is a file the patch may rewrite (a wrong reward, rt15)."""
    written: frozenset[str]  # the words as written from the tree's root (`./` dropped): each exactly that path
    resolved: frozenset[str]  # the regular files the words resolve to through the environment's own links (`_resolved`)
    tails: frozenset[str]  # a path equal to one or ending in `/` + one, from any folder a `cd` enters: each word's last
    # part, and the files of each module the command names (`a/b.py`, `a/b/__init__.py`, `a/b/__main__.py`, `a/__init__.py`)

    @functools.cached_property
    def _by_last(self) -> dict[str, tuple[str, ...]]:
        """The tails by their last part, so `names` looks at a path's own candidates only (it is asked of every
        file of an environment's tree: `copied`)."""
        index: dict[str, list[str]] = {}
        for tail in sorted(self.tails):
            index.setdefault(tail.rsplit("/", 1)[-1], []).append(tail)
        return {last: tuple(tails) for last, tails in index.items()}

    def names(self, path: str) -> bool:
        """Whether `path` (relative to the tree's root) is a file the command names."""
        if path in self.written or path in self.resolved:
            return True
        return any(path == t or path.endswith("/" + t) for t in self._by_last.get(path.rsplit("/", 1)[-1], ()))

    def runner_in(self, folder: str, exists: Callable[[str], bool]) -> str:
        """A runner the command names that lies directly in `folder` ("" for the root) and `exists` there (a test
        file it names is not one: _TEST_FILES); "" when none."""
        prefix = folder + "/" if folder else ""
        for last in sorted({*self._by_last, *(p.rsplit("/", 1)[-1] for p in self.written | self.resolved)}):
            path = prefix + last
            if (self.names(path) and (path in self.resolved or exists(path))
                    and not any(fnmatch.fnmatchcase(last.lower(), m) for m in _TEST_FILES)):
                return path
        return ""


def command_files(test_cmd: str, tree: str = "") -> CommandFiles:
    """The one reading (the comment above): the command's words (split at `_COMMAND_WORD`'s separators, options
    left out, a pytest node id's `::` cut) as written, resolved from the tree's root through the environment's
    links when `tree` is given (rt33q: `bash ci/run.sh` with `ci -> tools` runs `tools/run.sh`), their last parts
    (a name after a `cd`, a bare word; with `make`, every makefile GNU make reads by name), and the files of the
    Python modules it names (`python3 -m tools.runner`, `-p tools.plugin`, `-mtools.runner`, a dotted word
    anywhere). Bounded by the command's size (REPO_MAX_CMD_BYTES)."""
    raw = _COMMAND_WORD.findall(test_cmd)
    words = [w.split("::", 1)[0].removeprefix("./") for w in raw if not w.startswith("-")]
    written = {w.rstrip("/") for w in words if w and not w.startswith("/")} - {"", ".", ".."}
    tails = {w.rstrip("/").rsplit("/", 1)[-1] for w in words} - {"", ".", ".."}
    if tails & {"make", "gmake"}:  # the makefile it reads, in any folder a `-C` or `cd` enters (GNU make's names)
        tails |= {"GNUmakefile", "makefile", "Makefile"}
    modules = [w for w in raw if "." in w] + [w[2:] for w in raw if w[:2] in ("-m", "-p") and len(w) > 2]
    modules += [b for a, b in zip(raw, raw[1:]) if a in _MODULE_BEFORE]
    for module in modules:
        tails |= _module_files(module.split("::", 1)[0])
    resolved = set()
    if tree:
        resolved = set(filter(None, (_resolved(tree, w) for w in written)))
    return CommandFiles(frozenset(written), frozenset(resolved), frozenset(tails))


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


def runner_reason(path: str, command: CommandFiles, language: str, runner_in: Callable[[str], str]) -> str:
    """Why the patch may not touch `path` as the test command's runner or a file beside one ("" when it may;
    docs/repo-tasks.md "Trust model", its runner's folder). A runner reads what lies beside it (`. tools/lib.sh`, a module
    beside a script on sys.path, a makefile's `include`), which no reading of the command sees, so: the file the
    command names; every file in a runner's folder and below, where that folder is not the tree's root; at the
    root, a runner's siblings that are not source files of the task's language (the root's source files and
    subfolders are the project's). `runner_in(folder)`: `CommandFiles.runner_in` over the tree (memoized by the caller:
    a patch's files share their folders)."""
    if command.names(path):
        return f"{path} is a file the test command runs or reads"
    parts = path.split("/")
    for k in range(len(parts) - 1, 0, -1):
        runner = runner_in("/".join(parts[:k]))
        if runner:
            return f"{path} is in the folder of {runner}, a runner the test command names"
    if len(parts) == 1 and not path.lower().endswith(SOURCE_SUFFIXES.get(language, ())):
        runner = runner_in("")
        if runner:
            return f"{path} is beside {runner}, a runner the test command names, and not a {language} source file"
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
