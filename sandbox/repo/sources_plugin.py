"""A pytest plugin run once at env build, in the environment's own interpreter, on the environment's own tree
(trusted: no patch is applied yet): it records the files that hold the code of every test the test command collects
(docs/repo-tasks.md "Trust model", "Where a test's code lives"; rt18 class A).

A test's id names the module it is collected from, but its code may be defined elsewhere: imported
(`from pkg.conformance import test_add_small`) or inherited (`class TestAdd(AddChecks)`) from a module that is source
by every rule of the allowlist by kind. The files holding the function that runs as the test (every function on its
`__wrapped__` chain), its class's and its item's class's MRO, and the fixtures its module or class brings in are what the run used; the
environment stores them and admission refuses a patch that touches one (sandbox/repo_job.py `environment_sources`).
Derived from the collection itself, not from spellings of imports. Not recorded: expected values a test takes from a
source module's data (`parametrize('case', CASES)`), a `pytest_plugins` module's fixtures, helpers the test calls, the
modules a test imports its class through (red team 19 classes 1, 4, 5, 7-9: tests/test_repo_redteam_19.py).

Loaded by name (`-p verifier_test_sources`, the file mounted under that name), with `--collect-only`: no test runs.
Stdlib only, and plain enough for any Python the environment's pytest runs on. Writes one JSON line per pytest
session to $VERIFIER_SOURCES_OUT: {"files": [absolute paths], "items": n}; the host keeps those inside the tree
(sandbox/environments.py `read_sources`).
"""
import json
import os
import sys

OUT = "VERIFIER_SOURCES_OUT"
MAX_UNWRAP = 100  # a `__wrapped__` chain longer than this is cut (a loop of wrappers)


def code_files(obj):
    """The files of the code that runs as the test `obj` (a function, a bound method, a wrapped function): every
    function on its `__wrapped__` chain, the wrappers that run it as much as its own body (red team 19 class 2:
    `functools.wraps` in a source module, the wrapper changed to skip the body)."""
    files = []
    for _ in range(MAX_UNWRAP):
        obj = getattr(obj, "__func__", obj)
        name = getattr(getattr(obj, "__code__", None), "co_filename", None)
        if isinstance(name, str):
            files.append(name)
        inner = getattr(obj, "__wrapped__", None)
        if inner is None or inner is obj:
            break
        obj = inner
    return files


def class_files(cls):
    """The files of the modules defining `cls` and every class of its MRO: a test class's inherited setup and data
    (`setup_method`, unittest's `setUp`, `want = 3`) and a custom item's `runtest` (red team 19 classes 3 and 6).
    Pytest's own and installed packages' classes are outside the tree: the host keeps only the tree's files."""
    files = []
    for klass in getattr(cls, "__mro__", ()):
        module = sys.modules.get(getattr(klass, "__module__", "") or "")
        name = getattr(module, "__file__", None)
        if isinstance(name, str):
            files.append(name)
    return files


def item_code_files(item):
    """The files of a collected test's own code: its function's (code_files), its class's and its item's class's MRO
    (class_files), and that of each fixture it uses that the tests themselves make visible (found in a test module or
    class, whatever module defines it: `from pkg.conformance import small_sum`; a conftest's is the conftest's). A
    plugin's fixture (pytest's, an installed plugin's, a `pytest_plugins` module's: baseid "") is the project's code
    when the project is a plugin, not recorded."""
    names = code_files(getattr(item, "obj", None)) + class_files(type(item))
    names += class_files(getattr(item, "cls", None))
    info = getattr(item, "_fixtureinfo", None)
    for defs in getattr(info, "name2fixturedefs", {}).values():
        for fixture in defs:
            if getattr(fixture, "baseid", ""):
                names += code_files(getattr(fixture, "func", None))
    return [n for n in names if n]


def _write(record):
    with open(os.environ[OUT], "a") as fh:
        fh.write(json.dumps(record) + "\n")


def pytest_configure(config):
    """An empty line first: the plugin was loaded (a collection that then stops, a test file the command names that
    only the task's test patch adds, records no file, which the host tells from a plugin never loaded)."""
    if os.environ.get(OUT):
        _write({"files": [], "items": 0})


def pytest_collection_finish(session):
    """Record every collected test's code files (module doctests are check_doctests' part: skipped)."""
    out = os.environ.get(OUT)
    if not out:
        return
    files = set()
    for item in session.items:
        if type(item).__name__ == "DoctestItem":
            continue
        try:
            names = item_code_files(item)
        except Exception:  # an attribute that raises: the item records nothing, the collection goes on
            names = []
        files.update(os.path.realpath(n) for n in names)
    _write({"files": sorted(files), "items": len(session.items)})
