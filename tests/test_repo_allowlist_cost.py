"""scripts/measure_allowlist_cost.py, issue 33's measurement of the proposed allowlist (docs/repo-tasks.md "Trust
model", the allowlist decided): its recorder sees what the tests' processes load (run-time imports,
data files, a Python subprocess), not what they never load; its predictions mode counts only resolved predictions that
change an existing non-test file the gold does not."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "measure_allowlist_cost.py"


def _script():
    spec = importlib.util.spec_from_file_location("measure_allowlist_cost", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


_TEST = ("import json, pathlib, subprocess, sys\n\n\ndef test_add():\n    from pkg.late import want  # only while it runs\n"
         "    data = json.loads(pathlib.Path('pkg/cases.json').read_text())\n"
         "    subprocess.run([sys.executable, '-c', 'import pkg.child'], check=True)\n"
         "    assert data['want'] == want()\n")


def test_the_recorder_sees_what_the_tests_processes_load_and_nothing_else(tmp_path: Path) -> None:
    """A module imported only inside the test, a data file it reads and a module a Python subprocess imports are
    loaded (so the allowlist would refuse a patch to them); a module nothing imports is not (a patch may change it)."""
    script = _script()
    tree, recorder = tmp_path / "tree", tmp_path / "recorder"
    _write(tree, {"pkg/__init__.py": "", "pkg/late.py": "def want():\n    return 3\n", "pkg/child.py": "",
                  "pkg/cases.json": '{"want": 3}', "pkg/never.py": "", "tests/test_x.py": _TEST})
    _write(recorder, {"sitecustomize.py": script.RECORDER})
    loaded = script.loaded_files(str(tree), f"{sys.executable} -m pytest -q -p no:cacheprovider tests", str(recorder))
    assert {"pkg/late.py", "pkg/cases.json", "pkg/child.py", "pkg/__init__.py", "tests/test_x.py"} <= loaded, loaded
    assert "pkg/never.py" not in loaded


def _diff(path: str, new: bool = False) -> str:
    old = "/dev/null" if new else f"a/{path}"
    head = "@@ -0,0 +1 @@\n+x = 1\n" if new else "@@ -1 +1 @@\n-x = 0\n+x = 1\n"
    return f"diff --git a/{path} b/{path}\n--- {old}\n+++ b/{path}\n{head}"


def test_predictions_count_only_resolved_edits_of_existing_non_test_files_beyond_the_gold(tmp_path: Path) -> None:
    """Upper bound of the cost: a resolved prediction editing the gold's file, adding a new file or editing a test is
    not counted; one also editing another existing source file is; an unresolved one is not read."""
    rows = [{"instance_id": f"r{k}", "patch": _diff("pkg/mod.py")} for k in range(5)]
    preds = [{"instance_id": "r0", "model_patch": _diff("pkg/mod.py")},
             {"instance_id": "r1", "model_patch": _diff("pkg/mod.py") + _diff("pkg/utils.py")},
             {"instance_id": "r2", "model_patch": _diff("pkg/mod.py") + _diff("pkg/new.py", new=True)},
             {"instance_id": "r3", "model_patch": _diff("pkg/mod.py") + _diff("tests/test_mod.py")},
             {"instance_id": "r4", "model_patch": _diff("pkg/utils.py")}]
    for name, items in (("rows.jsonl", rows), ("preds.jsonl", preds)):
        (tmp_path / name).write_text("".join(json.dumps(x) + "\n" for x in items))
    (tmp_path / "resolved.json").write_text(json.dumps(["r0", "r1", "r2", "r3"]))
    out = subprocess.run([sys.executable, str(SCRIPT), "--rows", str(tmp_path / "rows.jsonl"), "--predictions",
                          str(tmp_path / "preds.jsonl"), "--resolved", str(tmp_path / "resolved.json")],
                         capture_output=True, text=True, check=True).stdout
    assert "r1: touches ['pkg/utils.py']" in out
    assert "predictions: 4 resolved, 1 would be refused at most (upper bound)" in out, out
