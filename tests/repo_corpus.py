"""The corpus of repository tasks as the service grades them (docs/repo-tasks.md "The corpus"): each row's
recipe for `verifier env build`, its task, and its three checks (the gold patch, an empty patch, a partial
fix). The one home of these for tests/test_repo_service.py and scripts/validate_repo_tasks.py."""
from __future__ import annotations

import json
import re
from pathlib import Path

DATA = Path(__file__).parent / "data" / "repo_tasks"
ROWS = {r["instance_id"]: r for r in map(json.loads, (DATA / "tasks.jsonl").read_text().splitlines())}
_HEAD = re.compile(r"^@@ -(\d+),?(\d*) \+(\d+),?(\d*) @@(.*)$")
_CODE = (".py", ".go")


def report(row: dict) -> str:
    return "go-json" if row["language"] == "go" else "pytest"


def recipe(row: dict, folder: Path) -> str:
    """A corpus row's recipe for `verifier env build`: its project's bundle at its base commit."""
    path = folder / f"{row['instance_id']}.json"
    path.write_text(json.dumps({"name": row["instance_id"], "language": row["language"], "commit": row["base_commit"],
                                "repo": str(DATA / "repos" / f"{row['repo'].replace('/', '+')}.bundle"),
                                "test_cmd": row["test_cmd"], "report": report(row)}))
    return str(path)


def task(row: dict, task_id: str, completion: str, **kw) -> dict:
    """The row as a `repo` task (docs/repo-tasks.md "The task schema") with `completion` as the model's answer, its
    `editable` the gold patch's files (sandbox/env_rows.py `gold_files`, the SWE-bench reader's rule)."""
    from sandbox.env_rows import gold_files

    return {"id": task_id, "kind": "repo", "environment": row["instance_id"], "completion": completion,
            "test_patch": row["test_patch"], "test_cmd": row["test_cmd"], "fail_to_pass": row["FAIL_TO_PASS"],
            "pass_to_pass": row["PASS_TO_PASS"], "report": report(row), "editable": gold_files(row), **kw}


def _code_files(gold: str) -> list[str]:
    return [p for p in re.findall(r"^\+\+\+ b/(\S+)", gold, re.M) if p.endswith(_CODE)]


def empty_patch(row: dict, environments: Path) -> str:
    """A patch that applies and changes no code: a new source file (on the allowlist, docs/repo-tasks.md
    "Trust model") beside the gold's first code file; Go's carries that file's package clause, read from
    the built environment's tree."""
    first = _code_files(row["patch"])[0]
    folder = f"{first.rsplit('/', 1)[0]}/" if "/" in first else ""
    if first.endswith(".py"):
        return f"--- /dev/null\n+++ b/{folder}notes.py\n@@ -0,0 +1 @@\n+# no change\n"
    source = (environments / row["instance_id"] / "repo" / first).read_text()
    package = next(line for line in source.splitlines() if line.startswith("package "))
    return f"--- /dev/null\n+++ b/{folder}notes.go\n@@ -0,0 +1 @@\n+{package}\n"


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
    text: list[str] = []
    last = None
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
    hunks = [h for h in _hunks(gold) if h[0].endswith(_CODE)]
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
        kept = [("+" + line[1:1 + len(line[1:]) - len(line[1:].lstrip())] + "pass") if k in drop else line
                for k, line in enumerate(body)]
        return _diff([(path, head, kept)])
    m = _HEAD.match(head)
    assert m
    kept = [line for k, line in enumerate(body) if k not in drop]
    return _diff([(path, f"@@ -{m.group(1)},{m.group(2) or 1} +{m.group(3)},{int(m.group(4) or 1) - len(drop)} @@{m.group(5)}", kept)])


def checks(row: dict, environments: Path) -> list[tuple[str, dict, bool]]:
    """(name, task, resolves) of the row's three checks: the gold resolves; an empty patch and a partial
    fix do not. Task ids are `INSTANCE/gold`, `INSTANCE/empty`, `INSTANCE/wrong`."""
    rid = row["instance_id"]
    return [("gold", task(row, f"{rid}/gold", row["patch"]), True),
            ("empty", task(row, f"{rid}/empty", empty_patch(row, environments)), False),
            ("wrong", task(row, f"{rid}/wrong", wrong_patch(row["patch"])), False)]
