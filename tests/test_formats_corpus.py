"""The conformance corpus (tests/data/formats/*.jsonl): rows written as each public dataset stores
them, each with a correct, a wrong and an edge completion and the verdict it must get, graded by
`verifier grade --format auto` with real containers; then the graded file is graded again and must
give the same verdicts (the input's own columns are never overwritten)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from verifier.formats import detect

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "formats"
FILES = sorted(CORPUS.glob("*.jsonl"))


def _rows() -> list[dict]:
    return [json.loads(line) for f in FILES for line in f.read_text().splitlines() if line.strip()]


def test_every_corpus_row_is_detected_as_its_file_names_it():
    """auto picks the format each file holds; every format has its three cases."""
    for f in FILES:
        rows = [json.loads(line) for line in f.read_text().splitlines()]
        assert {detect(r) for r in rows} == {f.stem}, f.name
        assert {r["case"] for r in rows} == {"correct", "wrong", "edge"}, f.name
    assert {f.stem for f in FILES} == {"apps", "bigcodebench", "code_contests", "codeforces", "deepcoder", "humaneval",
                                       "kodcode", "livecodebench", "mbpp", "open-r1", "verl"}


def _grade(src: Path, out: Path) -> tuple[subprocess.CompletedProcess, list[dict]]:
    proc = subprocess.run([sys.executable, "-m", "verifier.cli", "grade", str(src), "-o", str(out), "--format", "auto",
                           "--workers", "1", "--sandbox-pool-name", "formats-corpus"],
                          capture_output=True, text=True, cwd=ROOT, timeout=1200)
    return proc, [json.loads(line) for line in out.read_text().splitlines()]


@pytest.mark.docker
def test_corpus_graded_through_format_auto(tmp_path):
    rows = _rows()
    src = tmp_path / "corpus.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    proc, graded = _grade(src, tmp_path / "graded.jsonl")
    assert len(graded) == len(rows), proc.stderr[-3000:]
    got = [(r.get("problem_id") or r.get("task_id") or r.get("id") or r.get("question_title") or r.get("problem", "")[:30],
            r["case"], r["verdict"], r["detail"][:200]) for r in graded]
    bad = [g for g, r in zip(got, graded) if r["verdict"] != r["expect"]]
    assert not bad, "\n".join(f"{g} expected {r['expect']}" for g, r in zip(got, graded) if r["verdict"] != r["expect"])
    for row, out in zip(rows, graded):
        assert {k: out[k] for k in row} == row  # every column passes through untouched
        assert isinstance(out["verifier_tests"], list) and all("verdict" in t for t in out["verifier_tests"])
    # graded again, the output gives the same verdicts
    again = tmp_path / "again.jsonl"
    again.write_text((tmp_path / "graded.jsonl").read_text())
    _, regraded = _grade(again, tmp_path / "regraded.jsonl")
    assert [r["verdict"] for r in regraded] == [r["verdict"] for r in graded]
