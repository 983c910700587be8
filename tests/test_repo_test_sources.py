"""Where a test's code lives (docs/repo-tasks.md "Trust model"; rt18 class A, tests/test_repo_redteam_18.py): env
build collects the test command's tests once with sandbox/repo/sources_plugin.py in the language's image and stores
the files that hold a collected test's code (`test_sources` in environment.json); admission refuses a patch that
touches one. Host side: the record's reading (`read_sources`) and the environment's (`environment_sources`), bounded,
never silently empty where it does not read. Docker: a real `verifier env build` with install steps records a test
imported from a source module, and a real grade on Docker refuses the patch that rewrites it and resolves the gold."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from sandbox.environments import (DISCOVERY_KEY, ENV_FILE, SOURCES_FILE, SOURCES_KEY, read_discovery, read_sources,
                                  sources_line)

_SUITE = "from pkg.mod import add\n\n\ndef test_sum():\n    assert add(1, 2) == 3\n\n\ndef test_zero():\n    assert add(0, 5) == 5\n"
_FILES = {"pkg/__init__.py": "\n", "pkg/mod.py": "def add(a, b):\n    return a - b\n", "pkg/conformance.py": _SUITE,
          "tests/__init__.py": "\n", "tests/test_mod.py": "from pkg.conformance import test_sum, test_zero  # noqa: F401\n"}
_CMD = "PYTHONPATH=. python3 -m pytest -p no:cacheprovider -rA tests"  # its own PYTHONPATH: the plugin found on the user site
_GOLD = "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"
_WRONG = _GOLD.replace("a + b", "a * b")  # add(1, 2) == 2, add(0, 5) == 0
_FORGED = _WRONG + ("--- a/pkg/conformance.py\n+++ b/pkg/conformance.py\n@@ -4,2 +4,2 @@\n def test_sum():\n"
                    "-    assert add(1, 2) == 3\n+    assert add(1, 2) == 2\n@@ -8,2 +8,2 @@\n def test_zero():\n"
                    "-    assert add(0, 5) == 5\n+    assert add(0, 5) == 0\n")


def _lines(path: Path, *records: Any) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_the_record_keeps_the_tree_s_files_only(tmp_path: Path) -> None:
    """Files outside the tree (the standard library, site-packages, `/env/repo2`) are not the patch's: dropped; two
    sessions' lines are one union, sorted; a session that collected nothing is an empty record."""
    path = _lines(tmp_path / SOURCES_FILE, {"files": ["/env/repo/tests/t.py", "/usr/lib/python3/unittest/case.py"]},
                  {"files": ["/env/repo2/x.py", "/env/repo/pkg/c.py", "/env/repo/tests/t.py", "rel.py"], "items": 3})
    assert read_sources(path, "/env/repo") == ["pkg/c.py", "tests/t.py"]
    assert read_sources(_lines(tmp_path / "none.jsonl", {"files": [], "items": 0}), "/env/repo") == []


def test_no_record_fails_the_build_showing_the_collection_s_output(tmp_path: Path) -> None:
    """No record (pytest did not start, or did not load the plugin) is never read as "no test's code anywhere"."""
    (tmp_path / f"{SOURCES_FILE}.log").write_text("ERROR: Error importing plugin \"verifier_test_sources\"\n")
    with pytest.raises(RuntimeError, match="recorded nothing(.|\n)*Error importing plugin"):
        read_sources(tmp_path / SOURCES_FILE, "/env/repo")


@pytest.mark.parametrize("text", ["not json\n", '{"items": 1}\n', '{"files": "a.py"}\n', '{"files": [1]}\n', "[]\n"])
def test_a_record_that_does_not_read_fails_the_build(text: str, tmp_path: Path) -> None:
    """Never a silently unprotected environment: a malformed line is the build's error."""
    (tmp_path / SOURCES_FILE).write_text(text)
    with pytest.raises(RuntimeError, match="does not read"):
        read_sources(tmp_path / SOURCES_FILE, "/env/repo")


def test_a_record_past_its_bound_fails_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sandbox.environments as environments

    monkeypatch.setattr(environments, "SOURCES_MAX_BYTES", 64)
    path = _lines(tmp_path / SOURCES_FILE, {"files": [f"/env/repo/t{i}.py" for i in range(10)]})
    with pytest.raises(RuntimeError, match="over"):
        read_sources(path, "/env/repo")


_DISCOVERED = {"rootdir": "/env/repo", "roots": ["/env/repo/tests", "/env/repo", "/env", "/usr/lib/python3/x"],
               "python_files": ["*.py"], "doctest_glob": ["test*.txt"], "doctest_modules": False}


def test_the_discovery_record_keeps_roots_in_the_tree(tmp_path: Path) -> None:
    """pytest's resolved discovery (rt18 D, E): a root holding the whole tree is "", one outside it dropped; the
    collected modules outside it too; two sessions are two processes. A session that could not say (`null`) makes no
    record (admission reads the text, over-inclusive); a record of the wrong shape fails the build."""
    path = _lines(tmp_path / SOURCES_FILE, {"files": [], "items": 0, "discovery": _DISCOVERED},
                  {"files": [], "items": 1, "modules": ["/env/repo/tests/t.py", "/site-packages/x.py"]},
                  {"files": [], "items": 0, "discovery": {**_DISCOVERED, "roots": ["/env/repo/pkg/c.py"]}})
    found = read_discovery(path, "/env/repo")
    assert found == {"modules": ["tests/t.py"], "processes": [
        {"roots": ["", "tests"], "python_files": ["*.py"], "doctest_glob": ["test*.txt"], "doctest_modules": False,
         "rootdir": ""}, {"roots": ["pkg/c.py"], "python_files": ["*.py"], "doctest_glob": ["test*.txt"],
                          "doctest_modules": False, "rootdir": ""}]}
    assert read_discovery(_lines(tmp_path / "old.jsonl", {"files": [], "items": 0}), "/env/repo") == {
        "processes": [], "modules": []}  # no session said anything: nothing scoped (the text's reading stays)
    assert read_discovery(_lines(tmp_path / "null.jsonl", {"files": [], "discovery": _DISCOVERED},
                                 {"files": [], "discovery": None}), "/env/repo") is None
    for bad in ({**_DISCOVERED, "roots": "/env/repo"}, {**_DISCOVERED, "doctest_modules": 1}, [],
                {**_DISCOVERED, "python_files": ["x"] * 1001}):
        with pytest.raises(RuntimeError, match="discovery"):
            read_discovery(_lines(tmp_path / "bad.jsonl", {"files": [], "discovery": bad}), "/env/repo")


@pytest.mark.parametrize("value", [[], {"processes": {}}, {"processes": [{"roots": []}], "modules": []},
                                   {"processes": [], "modules": None},
                                   {"processes": [{"roots": [1], "python_files": [], "doctest_glob": [],
                                                   "doctest_modules": False}], "modules": []}])
def test_a_malformed_discovery_record_is_the_environment_s_fault(value: object, tmp_path: Path) -> None:
    from sandbox.plan import InfraFailure
    from sandbox.repo_job import environment_discovery

    (tmp_path / ENV_FILE).write_text(json.dumps({"language": "python", DISCOVERY_KEY: value}))
    with pytest.raises(InfraFailure, match=DISCOVERY_KEY) as e:
        environment_discovery(str(tmp_path))
    assert not e.value.retryable


def test_a_build_without_a_discovery_record_reads_the_text(tmp_path: Path) -> None:
    """No record (an old build, a runner other than pytest): None, and the configuration's text decides (over-inclusive:
    `python_files = *.py` counts in every folder)."""
    from sandbox.repo.patch import command_files, is_test_file
    from sandbox.repo_job import environment_discovery

    (tmp_path / ENV_FILE).write_text(json.dumps({"language": "python"}))
    assert environment_discovery(str(tmp_path)) is None
    (tmp_path / "pytest.ini").write_text("[pytest]\ntestpaths = tests\npython_files = *.py\n")
    assert is_test_file("pkg/mod.py", command_files("python3 -m pytest", str(tmp_path)).test_patterns) == "*.py"


@pytest.mark.parametrize("value", [{"a.py": 1}, "a.py", [1], ["a.py", None]])
def test_a_malformed_environment_record_is_the_environment_s_fault(value: object, tmp_path: Path) -> None:
    from sandbox.plan import InfraFailure
    from sandbox.repo_job import environment_sources

    (tmp_path / ENV_FILE).write_text(json.dumps({"language": "python", SOURCES_KEY: value}))
    with pytest.raises(InfraFailure, match=SOURCES_KEY) as e:
        environment_sources(str(tmp_path))
    assert not e.value.retryable


def test_a_build_without_a_record_protects_nothing_more(tmp_path: Path) -> None:
    from sandbox.repo_job import environment_sources

    (tmp_path / ENV_FILE).write_text(json.dumps({"language": "python"}))
    assert environment_sources(str(tmp_path)) == frozenset()


def test_the_collection_line_runs_a_command_with_quotes_and_no_test(tmp_path: Path) -> None:
    """`sources_line` quotes the test command whole (a `-k 'a or b'` stays one word) and runs no test: a test that
    would write a file at run time writes none."""
    import shutil
    import sys

    from sandbox.environments import PLUGIN, PLUGIN_MODULE

    tree = tmp_path / "tree"
    (tree / "tests").mkdir(parents=True)
    (tree / "tests" / "test_a.py").write_text("def test_a():\n    open('ran', 'w').close()\n\n\ndef test_b():\n    pass\n")
    rec = tmp_path / "rec"
    rec.mkdir()
    shutil.copyfile(PLUGIN, rec / f"{PLUGIN_MODULE}.py")
    line = sources_line(f"{sys.executable} -m pytest -k 'test_a or test_b' tests", str(rec / SOURCES_FILE), str(rec))
    subprocess.run(line, shell=True, cwd=tree, check=True, timeout=300)
    assert read_sources(rec / SOURCES_FILE, str(tree.resolve())) == ["tests/test_a.py"]
    assert [json.loads(line)["items"] for line in (rec / SOURCES_FILE).read_text().splitlines()] == [0, 2]  # loaded, collected
    assert not (tree / "ran").exists() and not list(tree.rglob("__pycache__"))


def test_a_command_naming_a_file_only_the_test_patch_adds_records_nothing(tmp_path: Path) -> None:
    """pytest stops before collecting (the file the command names is the test patch's, absent at env build): the
    plugin was loaded, so the record is empty, not missing (the build goes on; the other rules alone)."""
    import shutil
    import sys

    from sandbox.environments import PLUGIN, PLUGIN_MODULE

    tree = tmp_path / "tree"
    (tree / "tests").mkdir(parents=True)
    (tree / "tests" / "test_a.py").write_text("def test_a():\n    pass\n")
    rec = tmp_path / "rec"
    rec.mkdir()
    shutil.copyfile(PLUGIN, rec / f"{PLUGIN_MODULE}.py")
    line = sources_line(f"{sys.executable} -m pytest tests/test_new.py", str(rec / SOURCES_FILE), str(rec))
    subprocess.run(line, shell=True, cwd=tree, check=True, timeout=300)
    assert "not found" in (rec / f"{SOURCES_FILE}.log").read_text()
    assert read_sources(rec / SOURCES_FILE, str(tree.resolve())) == []


@pytest.mark.docker
def test_env_build_records_a_test_imported_from_a_source_module(tmp_path: Path) -> None:
    """A real `verifier env build` (install steps: the language's image) records pkg/conformance.py, where the listed
    tests' code is; graded on Docker, the forgery of its assertions is refused (wrong_answer, before anything runs),
    the wrong add alone fails, and the gold resolves."""
    from helpers import grade_pytest_task, sandbox_config
    from sandbox.sync import SyncGrader
    from verifier.tools.cli import main as verifier_cli

    src, root = tmp_path / "src", tmp_path / "envs"
    for name, text in _FILES.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    git = ["git", "-C", str(src), "-c", "user.name=t", "-c", "user.email=t@t"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "suite"]):
        subprocess.run([*git, *args], check=True, capture_output=True)
    recipe = tmp_path / "suite.json"
    recipe.write_text(json.dumps({"name": "suite", "language": "python", "repo": str(src), "commit": "HEAD",
                                  "test_cmd": _CMD, "report": "pytest", "install": ["true"]}))
    assert verifier_cli(["env", "build", str(recipe), "--environments", str(root)]) == 0
    meta = json.loads((root / "suite" / ENV_FILE).read_text())
    assert meta[SOURCES_KEY] == ["pkg/conformance.py", "tests/test_mod.py"]  # the module holding the imported tests too
    found = meta[DISCOVERY_KEY]  # the image's pytest's own discovery: one session, collecting from tests/ (rt18 D, E)
    assert [p["roots"] for p in found["processes"]] == [["tests"]] and found["modules"] == ["tests/test_mod.py"]
    assert "test_*.py" in found["processes"][0]["python_files"]
    assert not list((root / "suite" / "repo").rglob("__pycache__"))  # the collection wrote no bytecode into the tree
    g: Any = SyncGrader(sandbox_config("docker", languages=("python",), pool_size=1, pool_name="test-sources-docker",
                                       repo_environments=str(root), repo_pool_size=1))
    try:
        forged = grade_pytest_task(g, "suite", _FORGED, "", _CMD, "suite")
        assert forged["verdict"] == "wrong_answer" and "pkg/conformance.py holds a test's code" in forged["detail"]
        assert grade_pytest_task(g, "suite", _WRONG, "", _CMD, "suite")["verdict"] == "wrong_answer"
        assert grade_pytest_task(g, "suite", _GOLD, "", _CMD, "suite")["verdict"] == "accepted"
    finally:
        g.close()
