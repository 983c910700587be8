"""Validates every corpus task three ways in the sandbox images (docs/repo-tasks.md "The corpus"): the
gold patch is resolved, an empty patch is not, a plausible wrong patch is not. Uses the driver of
tests/test_repo_corpus.py (the service's task kind will replace both).

    python scripts/validate_repo_tasks.py            # every row of tests/data/repo_tasks/tasks.jsonl
    python scripts/validate_repo_tasks.py ID...      # those rows only
"""
from __future__ import annotations

import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
from test_repo_corpus import ROWS, run_task  # noqa: E402

from sandbox.repo.patch import PatchError  # noqa: E402

NOOP = "--- /dev/null\n+++ b/NOTES.txt\n@@ -0,0 +1 @@\n+no change\n"
_HEAD = re.compile(r"^@@ -(\d+),?(\d*) \+(\d+),?(\d*) @@(.*)$")


def _hunks(gold: str) -> list[tuple[str, str, list[str]]]:
    """(file, hunk header, body lines) of a git diff, in order."""
    out, path, lines, i = [], "", gold.split("\n"), 0
    while i < len(lines):
        if lines[i].startswith("+++ b/"):
            path = lines[i][6:]
        if _HEAD.match(lines[i]):
            j = i + 1
            while j < len(lines) and lines[j][:1] in (" ", "+", "-", "\\"):
                j += 1
            out.append((path, lines[i], lines[i + 1:j]))
            i = j
            continue
        i += 1
    return out


def _diff(hunks: list[tuple[str, str, list[str]]]) -> str:
    text, last = [], None
    for path, head, body in hunks:
        if path != last:
            text += [f"--- a/{path}", f"+++ b/{path}"]
            last = path
        text += [head, *body]
    return "\n".join(text) + "\n"


def wrong_patch(gold: str) -> str:
    """A partial fix, the most common wrong answer: with two or more hunks in code, the gold patch less
    its last code hunk; with one, that hunk with the second half of its non-blank added lines dropped
    (Go) or made `pass` (Python), its deletions kept; a one-line addition commented out."""
    hunks = [h for h in _hunks(gold) if h[0].endswith((".py", ".go"))]
    if len(hunks) > 1:
        return _diff(hunks[:-1])
    path, head, body = hunks[0]
    added = [k for k, line in enumerate(body) if line.startswith("+") and line[1:].strip()]
    if len(added) < 2:  # a one-line addition: the line commented out instead
        k = added[0]
        indent = len(body[k][1:]) - len(body[k][1:].lstrip())
        comment = "# " if path.endswith(".py") else "// "
        return _diff([(path, head, [*body[:k], "+" + body[k][1:1 + indent] + comment + body[k][1 + indent:], *body[k + 1:]])])
    drop = added[(len(added) + 1) // 2:]
    if path.endswith(".py"):  # the dropped lines become `pass` (the code still compiles: a wrong fix, not a syntax error)
        kept = [("+" + line[1:1 + len(line[1:]) - len(line[1:].lstrip())] + "pass") if k in drop else line for k, line in enumerate(body)]
        return _diff([(path, head, kept)])
    m = _HEAD.match(head)
    assert m
    kept = [line for k, line in enumerate(body) if k not in drop]
    return _diff([(path, f"@@ -{m.group(1)},{m.group(2) or 1} +{m.group(3)},{int(m.group(4) or 1) - len(drop)} @@{m.group(5)}", kept)])

def main() -> int:
    bad, only = 0, set(sys.argv[1:])
    rows = [r for r in ROWS if not only or r["instance_id"] in only]
    for row in rows:
        verdicts = []
        for name, completion, want in (("gold", row["patch"], True), ("empty", NOOP, False),
                                       ("wrong", wrong_patch(row["patch"]), False)):
            start = time.monotonic()
            with tempfile.TemporaryDirectory() as tmp:
                try:
                    got = run_task(row, completion, Path(tmp)).resolved
                except (AssertionError, PatchError) as e:  # refused or not applied: the model's failure
                    got, name = False, f"{name}(refused: {str(e)[:60]})"
            verdicts.append(f"{name}={'resolved' if got else 'not'} ({time.monotonic() - start:.1f}s)")
            bad += got != want
        print(row["instance_id"], *verdicts, flush=True)
    print(f"{len(rows)} tasks, {bad} wrong verdicts")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
