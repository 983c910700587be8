"""A pytest plugin run once at env build, in the environment's own interpreter, on the environment's own tree
(trusted: no patch is applied yet): it records the files that hold the code of every test the test command collects
(docs/repo-tasks.md "Trust model", "Where a test's code lives"; rt18 class A).

A test's id names the module it is collected from, but its code may be defined elsewhere: imported
(`from pkg.conformance import test_add_small`) or inherited (`class TestAdd(AddChecks)`) from a module that is source
by every rule of the allowlist by kind. The files holding the function that runs as the test (every function on its
`__wrapped__` chain), its class's and its item's class's MRO, every fixture a module of the dataset registered (a test
module or class, a conftest, a module their `pytest_plugins` name: not the project's entry-point plugin), and the
modules whose namespace holds an imported test, class or fixture (a re-exporting `__init__.py`) are what the run used; the
environment stores them and admission refuses a patch that touches one (sandbox/repo_job.py `environment_sources`).
Derived from the collection itself, not from spellings of imports. Not recorded: expected values a test takes from a
source module's data (`parametrize('case', CASES)`: rt18 A's open xfail), helpers the test calls, what a pytest
session without this plugin or a test only the task's test patch adds uses (red team 19 classes 8, 9), and red team
20's open classes (tests/test_repo_redteam_20.py; docs/repo-tasks.md "Trust model": the allowlist decided). A
source decorator inside `@pytest.fixture` is recorded: its wrapper is on the fixture's `__wrapped__` chain.

It records too what pytest itself resolved of its test discovery in each process (`discovery`, rt18 classes D and
E): `python_files` and `--doctest-glob` as pytest reads them (every configuration file it picks, `-c`, pytest.toml,
addopts' `-o`), the collection roots (`config.args`: the command's paths, testpaths where it named none, `--pyargs`
modules resolved to their files), `--doctest-modules`, the rootdir; and the files of the Python test modules it
collected (`modules`). Admission counts a discovery pattern only under a root (sandbox/repo/patch.py `Discovery`),
so pytest's own reading replaces the host's reading of configuration text.

Loaded by name (`-p verifier_test_sources`, the file mounted under that name), with `--collect-only`: no test runs.
Stdlib only, and plain enough for any Python the environment's pytest runs on. Writes JSON lines per pytest
session to $VERIFIER_SOURCES_OUT: at configure {"files": [], "items": 0, "discovery": {...} or null (this pytest
could not say)}, at the collection's end {"files": [absolute paths], "items": n, "modules": [absolute paths]}; the
host keeps those inside the tree (sandbox/environments.py `read_sources`, `read_discovery`).
"""
import json
import os
import sys
import sysconfig
from types import ModuleType

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
    (class_files). Its fixtures are the registry's (fixture_files), the modules it is imported through
    holding_files'."""
    names = code_files(getattr(item, "obj", None)) + class_files(type(item))
    names += class_files(getattr(item, "cls", None))
    return [n for n in names if n]


# ------------------------------------------------------------------ fixtures: by who registered them
# A fixture is the tests' code when a module of the dataset registered it: a test module or class (whatever module
# defines the function: `from pkg.conformance import small_sum`), a conftest, a module a conftest's or test module's
# `pytest_plugins` names, a `-p` plugin of the command. The project's own entry-point plugin (`pytest11`) and the
# modules only it names are the patch's: the project's code where the project is a pytest plugin (red team 19 class 1
# and its cost C1). pytest keeps no registrar (a root conftest's and a plugin's fixtures both get baseid ""), so the
# plugin watches `FixtureManager.parsefactories`, the one place pytest 7 to 9 make fixtures of a holder, and tags each
# FixtureDef made with the holder being read. Every fixture the dataset registered is recorded, used or not: a test
# may ask for any by name at run time (`request.getfixturevalue`, class 5).
# The holders parsefactories is reading now (innermost last); each FixtureDef made with its holder (None where pytest
# made it outside parsefactories: its own code).
_READING = []  # type: list[object]
_MADE = []  # type: list[tuple[object, object]]


def _holder(args, kwargs):
    """The object parsefactories reads, as pytest takes it: `holder=` (pytest 9), `(obj, nodeid)`, or a node's obj."""
    if "holder" in kwargs:
        return kwargs["holder"]
    node = args[0] if args else kwargs.get("node_or_obj")
    if len(args) > 1 or "nodeid" in kwargs:
        return node
    return getattr(node, "obj", node)


def _watch():
    """Wrap parsefactories and FixtureDef's constructor (both pytest's own, unchanged in what they do); False where
    this pytest has neither (fixture_files then records every fixture: refusing more, never less)."""
    try:
        from _pytest import fixtures

        manager, fixturedef = fixtures.FixtureManager, fixtures.FixtureDef
        parse, init = manager.parsefactories, fixturedef.__init__
    except (ImportError, AttributeError):
        return False

    def parsefactories(self, *args, **kwargs):
        _READING.append(_holder(args, kwargs))
        try:
            return parse(self, *args, **kwargs)
        finally:
            _READING.pop()

    def made(self, *args, **kwargs):
        init(self, *args, **kwargs)
        _MADE.append((self, _READING[-1] if _READING else None))

    manager.parsefactories, fixturedef.__init__ = parsefactories, made
    return True


WATCHING = _watch()  # at import: `-p` loads this plugin before any conftest, entry point or session


def _named(module):
    """The modules `module`'s `pytest_plugins` names (a string, comma-separated, or a sequence of strings)."""
    spec = getattr(module, "pytest_plugins", ())
    names = spec.split(",") if isinstance(spec, str) else spec if isinstance(spec, (list, tuple)) else ()
    found = (sys.modules.get(n.strip()) for n in names if isinstance(n, str))
    return [m for m in found if m is not None]


def _closure(modules):
    """`modules` and every module their `pytest_plugins` name, transitively: {id: module}."""
    seen, todo = {}, list(modules)
    while todo:
        module = todo.pop()
        if id(module) not in seen:
            seen[id(module)] = module
            todo.extend(_named(module))
    return seen


def project_modules(session):
    """The ids of the modules the project's entry-point plugins registered (`pytest11`) and those only they name by
    `pytest_plugins`; every other module holder (conftests, test modules, the modules they name, `-p` plugins) is
    the dataset's."""
    manager = session.config.pluginmanager
    project = _closure(p for p, _ in manager.list_plugin_distinfo())
    roots = [p for p in manager.get_plugins() if isinstance(p, ModuleType) and id(p) not in project]
    roots += [m for m in (getattr(i, "module", None) for i in session.items) if isinstance(m, ModuleType)]
    dataset = _closure(roots)
    return {k for k in project if k not in dataset}


def dataset_fixtures(session):
    """Every FixtureDef the dataset registered (the comment above); where pytest could not be watched, every one
    pytest holds."""
    if WATCHING:
        project = project_modules(session)
        return [d for d, holder in _MADE if not (isinstance(holder, ModuleType) and id(holder) in project)]
    registry = getattr(getattr(session, "_fixturemanager", None), "_arg2fixturedefs", {})
    return [d for ds in registry.values() for d in ds]


def fixture_files(defs):
    """The files of the fixtures `defs`' functions, with their `__wrapped__` chains."""
    return [n for d in defs for n in code_files(getattr(d, "func", None))]


def _fixture_function(value):
    """The function a `@pytest.fixture` object wraps (pytest 7: `__pytest_wrapped__.obj`; 8.4 on: a
    FixtureFunctionDefinition's `_fixture_function`), None for any other value (read on plain functions and pytest's
    own type only: no module's `__getattr__` runs)."""
    kind = type(value).__name__
    if kind == "FixtureFunctionDefinition":
        return getattr(value, "_fixture_function", None)
    if kind == "function":
        return getattr(getattr(value, "__pytest_wrapped__", None), "obj", None)
    return None


# ------------------------------------------------------------------ the modules a test is imported through
def _not_the_tree(name):
    """Whether `name` is the standard library's or an installed package's (its classes, `unittest.TestCase`, are held
    by many modules, and are no test's own code)."""
    return name.startswith(_OUTSIDE) or "/site-packages/" in name or "/dist-packages/" in name


_OUTSIDE = tuple({os.path.realpath(sysconfig.get_paths()[k]) + os.sep for k in ("stdlib", "platstdlib")})


def _defined_in(obj):
    """The file defining a test function or class (None where it has none)."""
    if isinstance(obj, type):
        return getattr(sys.modules.get(getattr(obj, "__module__", "") or ""), "__file__", None)
    names = code_files(obj)
    return names[0] if names else None


def imported_objects(item):
    """A test's function, class and its MRO's classes that are not defined in its id's own file (red team 19 class
    4: a test class imported through a package re-exporting it): {id: object}."""
    own = os.path.realpath(str(getattr(item, "path", None) or getattr(item, "fspath", "")))
    cls = getattr(item, "cls", None)
    found = {}
    for obj in (getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None)),
                *getattr(cls, "__mro__", ())):
        name = _defined_in(obj) if obj is not None else None
        if isinstance(name, str) and not _not_the_tree(os.path.realpath(name)) and os.path.realpath(name) != own:
            found[id(obj)] = obj
    return found


def holding_files(objects, fixtures):
    """The files of every loaded tree module whose namespace holds one of `objects` (by id), or a fixture object
    wrapping one of the functions `fixtures` (by id), at the collection's end: the modules a test or a fixture is
    imported through (`pkg/suite/__init__.py` re-exporting `pkg/suite/_conformance.py`'s class), which could rebind
    the name to one of their own (red team 19 class 4)."""
    files = []
    if not objects and not fixtures:
        return files
    for module in list(sys.modules.values()):
        name = getattr(module, "__file__", None)
        if not isinstance(name, str) or _not_the_tree(os.path.realpath(name)):
            continue
        try:
            values = list(vars(module).values())
        except TypeError:
            continue
        if any((id(v) in objects and objects[id(v)] is v) or id(_fixture_function(v)) in fixtures for v in values):
            files.append(name)
    return files


# ------------------------------------------------------------------ what pytest resolved of its discovery
def _arg_paths(arg, here, pyargs):
    """The absolute paths a collection argument names (`pkg/t.py::T::test_x`: its file; `--pyargs pkg.checks`: the
    module's file or the package's folders, as pytest resolves it, else the path)."""
    word = arg.split("::", 1)[0]
    if pyargs and word and not os.path.isabs(word):
        try:
            import importlib.util

            spec = importlib.util.find_spec(word)
        except Exception:  # not a module: pytest takes it as a path
            spec = None
        if spec is not None:
            folders = list(spec.submodule_search_locations or ())
            if folders:
                return [os.path.realpath(f) for f in folders]
            if spec.origin and os.path.isfile(spec.origin):
                return [os.path.realpath(spec.origin)]
    return [os.path.realpath(os.path.join(here, word))]


def _strings(value):
    """An ini or option value as a list of strings (a line list, a string of words, None)."""
    if isinstance(value, str):
        return value.split()
    return [v for v in (value or ()) if isinstance(v, str)]


def discovery(config):
    """What this pytest resolved of its test discovery (the module docstring); None where it cannot say (an old
    pytest without these attributes): the host then reads the configuration's text, over-inclusive."""
    try:
        here = str(config.invocation_params.dir)
        pyargs = bool(config.getoption("pyargs", False))
        roots = [p for arg in config.args for p in _arg_paths(str(arg), here, pyargs)]
        globs = _strings(config.getoption("doctestglob", None))  # an option only (addopts may set it)
        rootdir = getattr(config, "rootpath", None) or config.rootdir
        return {"rootdir": os.path.realpath(str(rootdir)), "roots": roots,
                "python_files": _strings(config.getini("python_files")),
                "doctest_glob": globs or ["test*.txt"],  # pytest's default where neither names one
                "doctest_modules": bool(config.getoption("doctestmodules", False))}
    except Exception:
        return None


_MODULES = []  # type: list[str]


def pytest_collectstart(collector):
    """Every Python test module pytest collects (module doctests, text doctests and packages are not: a source
    module under --doctest-modules is the project's, check_doctests' part)."""
    kind = type(collector).__name__
    if kind in ("DoctestModule", "DoctestTextfile", "Package"):
        return
    try:
        if any((k.__module__, k.__name__) == ("_pytest.python", "Module") for k in type(collector).__mro__):
            _MODULES.append(str(getattr(collector, "path", None) or collector.fspath))
    except Exception:  # an attribute that raises: the module is not recorded (the patterns still cover it)
        pass


def _write(record):
    with open(os.environ[OUT], "a") as fh:
        fh.write(json.dumps(record) + "\n")


def pytest_configure(config):
    """A line without files first: the plugin was loaded (a collection that then stops, a test file the command names
    that only the task's test patch adds, records no file, which the host tells from a plugin never loaded), with
    what pytest resolved of its discovery (known at configure: the arguments and the configuration are read)."""
    if os.environ.get(OUT):
        _write({"files": [], "items": 0, "discovery": discovery(config)})


def pytest_collection_finish(session):
    """Record every collected test's code files, the fixtures the dataset registered and the modules holding an
    imported test (module doctests are check_doctests' part: skipped)."""
    out = os.environ.get(OUT)
    if not out:
        return
    names, objects = [], {}
    for item in session.items:
        if type(item).__name__ == "DoctestItem":
            continue
        try:
            names += item_code_files(item)
            objects.update(imported_objects(item))
        except Exception:  # an attribute that raises: the item records nothing, the collection goes on
            pass
    try:
        defs = dataset_fixtures(session)
    except Exception:  # every fixture pytest made, then: refusing more, never less
        defs = [d for d, _ in _MADE]
    names += fixture_files(defs)
    funcs = (getattr(d, "func", None) for d in defs)
    fixtures = {id(getattr(f, "__func__", f)) for f in funcs if f is not None}
    names += holding_files(objects, fixtures)
    files = {os.path.realpath(n) for n in names if n}
    modules = sorted({os.path.realpath(n) for n in _MODULES})
    _write({"files": sorted(files), "items": len(session.items), "modules": modules})
