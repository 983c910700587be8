"""Measures the cost of issue 33's proposed allowlist for repository tasks (docs/repo-tasks.md "Trust model",
the allowlist decided): a patch may change only (a) the files the task's gold patch changes and (b) files no
Python process of the test command loaded (imported, executed or opened) in the gold run; every other tree file the
tests' processes loaded is refused. A right patch touching a loaded file the gold did not is the cost.

Two measurements:

    python scripts/measure_allowlist_cost.py                 # the corpus's Python rows (tests/data/repo_tasks)
    python scripts/measure_allowlist_cost.py --rows R.jsonl --predictions P.jsonl --resolved IDS.json
    python scripts/measure_allowlist_cost.py --redteam       # red team 20's paying layouts

The first checks each Python corpus row out of its bundle, applies its test patch, runs its test command twice
under this interpreter (without and with the gold patch: the failing path and the passing one) with a recorder
(`sitecustomize.py` on PYTHONPATH, an audit hook in EVERY Python process that inherits the environment) and prints,
per row, the tree files the tests' processes loaded that the gold does not change: what the allowlist would freeze.
The second reads SWE-bench-style rows (gold `patch`) and predictions (`model_patch`) of the resolved ids, and
counts the resolved predictions that modify or delete an existing non-test file the gold does not change: an
UPPER bound of the allowlist's cost there (it takes every such file as loaded by the tests, as a package's
modules are in the corpus's projects). The third runs red team 20's paying layouts (tests/test_repo_redteam_20.py)
under their gold and says, per layout, whether the file its forging edit changes is loaded and not the gold's: a
forgery the allowlist refuses. Host-side and offline: a measurement, not a part of grading.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "repo_tasks"
_FILE = re.compile(r"^diff --git a/(\S+) b/(\S+)$", re.M)
_PLUS = re.compile(r"^\+\+\+ b/(\S+)$", re.M)
_MINUS = re.compile(r"^--- a/(\S+)$", re.M)

# The recorder: every path a Python process opens, executes or imports (audit events), and every loaded module's
# file, written at exit as one JSON list per process into $ALLOWLIST_RECORD.
RECORDER = '''import atexit, json, os, sys
_SEEN = set()
def _hook(event, args):
    if event in ("open", "exec", "compile") and args and isinstance(args[0], (str, bytes)):
        _SEEN.add(os.fsdecode(args[0]))
sys.addaudithook(_hook)
def _dump():
    names = set(_SEEN) | {m.__file__ for m in list(sys.modules.values()) if isinstance(getattr(m, "__file__", None), str)}
    with open(os.path.join(os.environ["ALLOWLIST_RECORD"], "%d.json" % os.getpid()), "w") as fh:
        json.dump(sorted(os.path.realpath(n) for n in names if n and n[0] != "<"), fh)
if os.environ.get("ALLOWLIST_RECORD"):
    atexit.register(_dump)
'''


def patch_files(diff: str) -> set[str]:
    """Every path a git diff names (old and new sides)."""
    return {p for m in _FILE.finditer(diff) for p in m.groups()} | set(_PLUS.findall(diff)) | set(_MINUS.findall(diff))


def changed_existing(diff: str) -> set[str]:
    """The existing files a diff modifies or deletes (its `--- a/` sides): a new file was never loaded."""
    return set(_MINUS.findall(diff))


def is_test_path(path: str) -> bool:
    """A test file by the usual layouts (already the dataset's under today's rules)."""
    parts = path.split("/")
    name = parts[-1]
    return any(p in ("test", "tests", "testing") for p in parts[:-1]) or name.startswith("test_") or \
        name.endswith(("_test.py", "conftest.py"))


def _git(*args: str, data: bytes | None = None) -> str:
    return subprocess.run(["git", *args], input=data, capture_output=True, check=True).stdout.decode()


def loaded_files(tree: str, cmd: str, recorder: str) -> set[str]:
    """The tree files the test command's Python processes loaded (relative paths)."""
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, ALLOWLIST_RECORD=out, PYTHONPATH=recorder, PYTHONDONTWRITEBYTECODE="1")
        subprocess.run(["nice", "sh", "-c", cmd.replace("python3 ", f"{sys.executable} ", 1)], cwd=tree, env=env,
                       capture_output=True, timeout=900)
        root = os.path.realpath(tree) + "/"
        found: set[str] = set()
        for record in Path(out).iterdir():
            found |= {n[len(root):] for n in json.loads(record.read_text()) if n.startswith(root)}
    return found


def corpus(recorder: str) -> int:
    rows = [json.loads(line) for line in (DATA / "tasks.jsonl").read_text().splitlines()]
    tasks = frozen_total = 0
    for row in (r for r in rows if r["language"] == "python"):
        tasks += 1
        with tempfile.TemporaryDirectory() as tree:
            _git("clone", "-q", "--no-checkout", str(DATA / "repos" / f"{row['repo'].replace('/', '+')}.bundle"), tree)
            _git("-C", tree, "-c", "advice.detachedHead=false", "checkout", "-q", "--detach", row["base_commit"])
            tracked = set(_git("-C", tree, "ls-files").split())
            _git("-C", tree, "apply", "-", data=row["test_patch"].encode())
            loaded = loaded_files(tree, row["test_cmd"], recorder)  # the failing path
            _git("-C", tree, "apply", "-", data=row["patch"].encode())
            loaded |= loaded_files(tree, row["test_cmd"], recorder)  # the gold's
        gold = patch_files(row["patch"])
        frozen = sorted(f for f in loaded & tracked - gold if not is_test_path(f))
        source = sorted(f for f in tracked if f.endswith(".py") and not is_test_path(f))
        frozen_total += len(frozen)
        print(f"{row['instance_id']}: gold {sorted(gold)}; frozen (loaded, not gold, not tests) {len(frozen)}: "
              f"{frozen}; source .py of the tree {len(source)}, of them loaded {len(set(source) & loaded)}", flush=True)
    print(f"corpus: {tasks} Python tasks, their gold patches all admitted (rule (a)); {frozen_total} loaded non-gold "
          "non-test files frozen in all")
    return 0


def predictions(rows_path: str, preds_path: str, resolved_path: str) -> int:
    rows = {r["instance_id"]: r for r in map(json.loads, Path(rows_path).read_text().splitlines())}
    resolved = set(json.loads(Path(resolved_path).read_text()))
    total = refused = 0
    for pred in map(json.loads, Path(preds_path).read_text().splitlines()):
        row = rows.get(pred.get("instance_id"))
        if row is None or pred["instance_id"] not in resolved or not pred.get("model_patch"):
            continue
        total += 1
        extra = sorted(f for f in changed_existing(pred["model_patch"]) - patch_files(row["patch"]) if not is_test_path(f))
        if extra:
            refused += 1
            print(f"{pred['instance_id']}: touches {extra} beyond the gold's {sorted(patch_files(row['patch']))}")
    print(f"predictions: {total} resolved, {refused} would be refused at most (upper bound)")
    return 0


def redteam(recorder: str) -> int:
    sys.path[:0] = [str(ROOT)]
    from tests.test_repo_redteam_18 import _GOLD
    from tests.test_repo_redteam_20 import _PAYING, _env

    closed = 0
    for name, (files, cmd, _test_id, _forging, forged) in _PAYING.items():
        with tempfile.TemporaryDirectory() as tmp:
            tree = str(_env(Path(tmp) / "env", files))
            _git("init", "-q", tree)
            _git("-C", tree, "apply", "-", data=_GOLD.encode())
            loaded = loaded_files(tree, cmd, recorder)
        refused = forged in loaded and forged not in patch_files(_GOLD)
        closed += refused
        print(f"{name}: forged {forged}: {'refused' if refused else 'ADMITTED'} (loaded: {forged in loaded})")
    print(f"red team 20: {closed} of {len(_PAYING)} forging edits refused by the allowlist")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows")
    parser.add_argument("--predictions")
    parser.add_argument("--resolved")
    parser.add_argument("--redteam", action="store_true")
    args = parser.parse_args()
    if args.predictions:
        return predictions(args.rows, args.predictions, args.resolved)
    with tempfile.TemporaryDirectory() as recorder:
        (Path(recorder) / "sitecustomize.py").write_text(RECORDER)
        return redteam(recorder) if args.redteam else corpus(recorder)


if __name__ == "__main__":
    raise SystemExit(main())
