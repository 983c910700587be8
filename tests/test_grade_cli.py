"""`verifier grade`: a JSONL file graded in-process and through a server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

LINES = [
    json.dumps({"id": "a", "kind": "math", "completion": "so \\boxed{\\frac{1}{2}}", "gold": "0.5", "problem": "p1",
                "meta": {"source": "s1"}}),
    json.dumps({"kind": "math", "completion": "The answer is 7.", "gold": 8}),
    "{not json",
    json.dumps({"id": "c", "kind": "math", "completion": "\\boxed{1}", "gold": "1", "profile": "loose"}),
    "",
    json.dumps({"id": "d", "kind": "math", "completion": "\\boxed{1}", "gold": "1", "expected_answer": "1"}),
    json.dumps({"id": "a", "kind": "math", "completion": "Answer: (C)", "gold": "C", "choices": ["1", "2", "3", "4"]}),
]


def _run(tmp_path: Path, *extra: str) -> tuple[subprocess.CompletedProcess, list[dict]]:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text("\n".join(LINES) + "\n")
    proc = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "grade", str(src), "-o", str(out), *extra],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    return proc, [json.loads(line) for line in out.read_text().splitlines()]


def _check(proc: subprocess.CompletedProcess, rows: list[dict]) -> None:
    assert proc.returncode == 1  # malformed lines make the run fail ...
    assert "line 3:" in proc.stderr and "line 4: profile" in proc.stderr
    assert "line 6: unknown keys ['expected_answer']" in proc.stderr  # a misspelt or extra key is never ignored
    # ... without losing the other results, which keep their input fields, in input order
    assert [(r.get("id"), r["verdict"]) for r in rows] == [("a", "correct"), (None, "incorrect"), ("a", "correct")]
    assert rows[0]["problem"] == "p1" and rows[0]["meta"] == {"source": "s1"} and rows[0]["score"] == 1.0 and rows[0]["extracted"] == "\\frac{1}{2}"
    assert rows[1]["detail"] and rows[1]["extracted"] == "7"
    assert "mean score" in proc.stderr and "malformed lines: 3" in proc.stderr
    assert "grading" in proc.stderr  # the progress bar


def test_grade_in_process(tmp_path):
    proc, rows = _run(tmp_path, "--workers", "1", "--no-code")
    _check(proc, rows)


def test_grade_through_server(tmp_path, verifier_server):
    before = verifier_server.metric("verifier_items_total", kind="math")
    proc, rows = _run(tmp_path, "--server", verifier_server.target)
    _check(proc, rows)
    assert verifier_server.metric("verifier_items_total", kind="math") == before + 3


def test_clean_file_exits_zero(tmp_path):
    src = tmp_path / "ok.jsonl"
    src.write_text(LINES[0] + "\n")
    proc = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "grade", str(src), "--workers", "1", "--no-code"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["verdict"] == "correct"


@pytest.mark.docker
def test_grade_code_in_process(tmp_path):
    src = tmp_path / "code.jsonl"
    src.write_text(json.dumps({"id": "c1", "kind": "code", "language": "python",
                               "completion": "```python\nprint(int(input()) * 2)\n```",
                               "tests": [{"stdin": "4\n", "expected_stdout": "8\n"}, {"stdin": "5\n", "expected_stdout": "11\n"}],
                               "scoring": "fraction"}) + "\n")
    proc = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "grade", str(src), "--workers", "1",
                           "--sandbox-pool-name", "grade-cli-test"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    row = json.loads(proc.stdout)
    assert row["verdict"] == "wrong_answer" and row["score"] == 0.5
    assert [t["verdict"] for t in row["verifier_tests"]] == ["accepted", "wrong_answer"]
    assert row["tests"][1] == {"stdin": "5\n", "expected_stdout": "11\n"}  # the input's own tests, untouched
    # the graded file graded again gives the same verdicts (results never overwrite the task)
    again = tmp_path / "again.jsonl"
    again.write_text(proc.stdout)
    proc2 = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "grade", str(again), "--workers", "1",
                            "--sandbox-pool-name", "grade-cli-test"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc2.returncode == 0, proc2.stderr
    row2 = json.loads(proc2.stdout)
    assert (row2["verdict"], row2["score"], [t["verdict"] for t in row2["verifier_tests"]]) == \
        ("wrong_answer", 0.5, ["accepted", "wrong_answer"])


def test_format_flag_reads_dataset_rows_and_names_unread_columns(tmp_path):
    """--format auto: a row no format reads is a line error naming its columns; --format NAME must exist."""
    src = tmp_path / "rows.jsonl"
    src.write_text(json.dumps({"question": "q", "answer": "2", "completion": "x"}) + "\n"
                   + json.dumps({"input_output": "{bad json", "completion": "x"}) + "\n")
    proc = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "grade", str(src), "--format", "auto", "--workers", "1",
                           "--no-code"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 1 and proc.stdout == ""
    assert "line 1: no dataset format reads this row (columns: answer, completion, question)" in proc.stderr
    assert "line 2: apps: input_output: not valid JSON" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "grade", str(src), "--format", "appz"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 2 and "--format: unknown format 'appz'" in proc.stderr
