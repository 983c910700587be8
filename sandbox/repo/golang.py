"""Go test ids resolved to packages (docs/repo-tasks.md "Test results", "Trust model").

A Go test id (`TestParse`, `TestParse/case`) names no package, and `go test ./...` runs every package:
two packages may each have a `TestParse`, and a report keyed by name alone lets one package's pass
stand for another's build failure. So each listed id resolves, on the host, to the packages whose test
files define its top-level function: from the environment's tree and the dataset's test patch (never
from where the model's patch points: it may add no `_test.go` file, `check_admitted`), restricted to
the packages the test command runs. The report's statuses are keyed by (import path, name), and an id
counts only when every one of its packages reports it.

What the command runs is read only from a plain `go test [flags] [patterns]` (patterns `.`, `./dir`,
`./...`, `./dir/...`; none is `.`, as go's default); any other command (a shell list, a `cd`) runs, as
far as we know, every package that defines the test.
"""
from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache

Reader = Callable[[str], "bytes | None"]
_TEST_FUNC = re.compile(rb"^func\s+((?:Test|Fuzz|Example)\w*)\s*\(", re.M)
_MODULE = re.compile(rb"^\s*module\s+\"?([^\s\"]+)\"?\s*$", re.M)
_SKIP_DIRS = ("vendor", "testdata")  # go ignores these, and directories starting with `.` or `_`


def environment_test_files(tree: str) -> tuple[str, ...]:
    """The `_test.go` files of an environment's tree: cached by path for a build of `verifier env build`
    (`.builds/KEY`, content-addressed and never changed in place), walked every time in a folder the
    operator may edit (docs/repo-tasks.md "Building environments")."""
    return _built_test_files(tree) if "/.builds/" in tree else _walk_test_files(tree)


@lru_cache(maxsize=64)
def _built_test_files(tree: str) -> tuple[str, ...]:
    return _walk_test_files(tree)


def _walk_test_files(tree: str) -> tuple[str, ...]:
    found = []
    for top, dirs, files in os.walk(tree):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith((".", "_")))
        rel = os.path.relpath(top, tree)
        found += [n if rel == "." else f"{rel}/{n}" for n in sorted(files)
                  if n.endswith("_test.go") and not n.startswith((".", "_"))]
    return tuple(found)


def package_dir(path: str) -> str:
    return path.rpartition("/")[0]


def defining_dirs(test_files: Iterable[str], read: Reader) -> dict[str, set[str]]:
    """Test function name -> the package directories whose test files define it."""
    out: dict[str, set[str]] = {}
    for path in test_files:
        data = read(path)
        for m in _TEST_FUNC.finditer(data or b""):
            out.setdefault(m.group(1).decode(), set()).add(package_dir(path))
    return out


def command_selects(test_cmd: str) -> Callable[[str], bool]:
    """Whether the test command runs the package in a directory (module docstring)."""
    try:
        words = shlex.split(test_cmd)
    except ValueError:
        words = []
    if words[:2] != ["go", "test"] or any(w in (";", "&&", "||", "|", "cd") or w[:1] in ";&|" for w in words):
        return lambda d: True
    patterns = [w for w in words[2:] if w == "." or w.startswith("./")] or ["."]

    def selects(d: str) -> bool:
        for p in patterns:
            p = p[2:] if p.startswith("./") else ""
            if p.endswith("..."):
                base = p[:-3].rstrip("/")
                if not base or d == base or d.startswith(base + "/"):
                    return True
            elif p.rstrip("/") == d:
                return True
        return False
    return selects


def import_path(d: str, read: Reader) -> str | None:
    """The import path `go test -json` names a package directory by: its nearest go.mod's module and the
    rest of the path; None when no go.mod holds it (then no package of it runs in module mode)."""
    parts = d.split("/") if d else []
    for k in range(len(parts), -1, -1):
        m = _MODULE.search(read("/".join([*parts[:k], "go.mod"])) or b"")
        if m:
            return "/".join([m.group(1).decode("utf-8", "replace"), *parts[k:]])
    return None


Targets = dict[str, tuple[tuple[str, str], ...]]  # an id -> the (import path, test name) pairs that must report it


def resolve_packages(ids: Iterable[str], test_files: Iterable[str], test_cmd: str, read: Reader) -> Targets:
    """Each id -> (import path, id) for the packages it must be reported in (none: no package the command
    runs defines it, so it is MISSING)."""
    defined, selects = defining_dirs(test_files, read), command_selects(test_cmd)
    out = {}
    for test_id in ids:
        dirs = sorted(d for d in defined.get(test_id.split("/")[0], ()) if selects(d))
        out[test_id] = tuple((p, test_id) for p in sorted({p for p in (import_path(d, read) for d in dirs) if p is not None}))
    return out


def go_lookup(statuses: Mapping[tuple[str, str], str], targets: Targets,
              missing: str, worst: Callable[[Iterable[str]], str]) -> Callable[[str], str]:
    """An id -> its status: the worst over its targets, MISSING where one reports none. A decoy is one
    target (one package) under an id of its own, so each package's decoy must read FAILED."""
    def status_of(test_id: str) -> str:
        found = targets.get(test_id, ())
        return worst(statuses.get(t, missing) for t in found) if found else missing
    return status_of


__all__ = ["Targets", "command_selects", "defining_dirs", "environment_test_files", "go_lookup", "import_path", "resolve_packages"]
