"""Grade the corpus's stdin and call-based rows with a peer grader, LiveCodeBench's
lcb_runner/evaluation/testing_util.py (plain Python; fetched separately, never vendored here), and
print one JSON line per row: ours (the corpus's expected verdict) beside the peer's.

    python scripts/formats_peer.py /path/to/dir/holding/testing_util.py > peer.jsonl

Each row runs in its own subprocess (the peer's reliability_guard disables os functions for good)
with the peer's own 6 s timeout. docs/datasets.md "Dataset formats" lists where the two disagree and why.
"""
from __future__ import annotations

import glob
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sandbox.checks import extract_code  # noqa: E402
from verifier.formats import to_task  # noqa: E402

CHILD = r'''
import json, sys
sys.path.insert(0, sys.argv[1])
import testing_util as t
sample, code = json.loads(sys.stdin.read())
res, meta = t.run_test(sample, test=code, timeout=6)
print("RESULT" + json.dumps([r if isinstance(r, (bool, int)) else str(r) for r in res]))
'''
PEER_CODES = {-2: "wrong_answer", -3: "time_limit", -4: "runtime_error", False: "wrong_answer"}


def peer_io(task: dict) -> dict:
    """The task's tests in the peer's input_output form."""
    if task.get("call_tests"):
        return {"inputs": ["\n".join(json.dumps(a) for a in t["args"]) for t in task["call_tests"]],
                "outputs": [json.dumps(t["expected"]) for t in task["call_tests"]], "fn_name": task["entry_point"]}
    return {"inputs": [t["stdin"] for t in task["tests"]], "outputs": [t["expected_stdout"] for t in task["tests"]]}


def peer_verdict(peer_dir: str, io: dict, code: str) -> str:
    p = subprocess.run([sys.executable, "-c", CHILD, peer_dir], input=json.dumps([{"input_output": json.dumps(io)}, code]),
                       capture_output=True, text=True, timeout=300, cwd=peer_dir)
    lines = [line for line in p.stdout.splitlines() if line.startswith("RESULT")]
    if not lines:
        return "peer crashed: " + p.stderr[-200:]
    res = json.loads(lines[-1][len("RESULT"):])
    if len(res) == len(io["inputs"]) and all(r is True for r in res):
        return "accepted"
    bad = [r for r in res if r is not True]
    return PEER_CODES.get(bad[0], str(bad[0])) if bad else "incomplete"


def main(peer_dir: str) -> None:
    for f in sorted(glob.glob(str(ROOT / "tests" / "data" / "formats" / "*.jsonl"))):
        for n, line in enumerate(open(f), start=1):
            row = json.loads(line)
            task = to_task(row)
            if task.get("language") != "python" or task.get("input_file") \
                    or not (task.get("tests") or task.get("call_tests")):
                continue  # the peer runs Python stdin and call-based programs only
            code, _ = extract_code(row["completion"], "python")  # the program as written: the peer adds its own imports
            print(json.dumps({"row": f"{Path(f).stem}:{n}", "case": row["case"], "ours": row["expect"],
                              "peer": peer_verdict(peer_dir, peer_io(task), code),
                              "kind": "call" if task.get("call_tests") else "stdin"}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
