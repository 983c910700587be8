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
    """Every corpus row, tagged `corpus_row` = file:line (a column that passes through)."""
    return [{**json.loads(line), "corpus_row": f"{f.stem}:{n}"}
            for f in FILES for n, line in enumerate(f.read_text().splitlines(), start=1) if line.strip()]


def test_every_corpus_row_is_detected_as_its_file_names_it():
    """auto picks the format each file holds; every format has its three cases."""
    for f in FILES:
        rows = [json.loads(line) for line in f.read_text().splitlines()]
        assert {detect(r) for r in rows} == {f.stem}, f.name
        assert {r["case"] for r in rows} == {"correct", "wrong", "edge"}, f.name
    assert {f.stem for f in FILES} == {"apps", "bigcodebench", "code_contests", "codeforces", "deepcoder", "humaneval",
                                       "kodcode", "livecodebench", "mbpp", "open-r1", "verl"}


def _grade(src: Path, out: Path) -> tuple[subprocess.CompletedProcess, list[dict]]:
    proc = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "grade", str(src), "-o", str(out), "--format", "auto",
                           "--workers", "1", "--sandbox-pool-name", "formats-corpus"],
                          capture_output=True, text=True, cwd=ROOT, timeout=1200)
    return proc, [json.loads(line) for line in out.read_text().splitlines()]


@pytest.mark.docker
def test_corpus_graded_through_format_auto(tmp_path):
    rows = _rows()
    src = tmp_path / "corpus.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    proc, graded = _grade(src, tmp_path / "graded.jsonl")
    by_row = {r["corpus_row"]: r for r in graded}
    wrong = [f"{r['corpus_row']} ({r['case']}): expected {r['expect']}, got {by_row[r['corpus_row']]['verdict']}: "
             f"{by_row[r['corpus_row']]['detail'][:150]}" for r in rows
             if r["corpus_row"] in by_row and by_row[r["corpus_row"]]["verdict"] != r["expect"]]
    refused = [line for line in proc.stderr.splitlines() if line.startswith("line ")]
    assert not wrong and not refused, "\n".join(wrong + refused)
    for row, out in zip(rows, graded):
        assert {k: out[k] for k in row} == row  # every column passes through untouched
        assert isinstance(out["verifier_tests"], list) and all("verdict" in t for t in out["verifier_tests"])
    # graded again, the output gives the same verdicts
    again = tmp_path / "again.jsonl"
    again.write_text((tmp_path / "graded.jsonl").read_text())
    _, regraded = _grade(again, tmp_path / "regraded.jsonl")
    assert [r["verdict"] for r in regraded] == [r["verdict"] for r in graded]


@pytest.mark.docker
def test_formats_through_a_server(tmp_path, server_factory):
    """--format with --server sends the tasks the formats made (stdin, call and pytest kinds)."""
    rows = [r for r in _rows() if r["corpus_row"].split(":")[0] in ("apps", "livecodebench", "kodcode")
            and r["case"] != "edge"]
    server = server_factory("--workers", "1", "--sandbox-pool-size", "1", "--sandbox-pool-name", "formats-server")
    src, out = tmp_path / "rows.jsonl", tmp_path / "out.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    proc = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "grade", str(src), "-o", str(out), "--format", "auto",
                           "--server", server.target], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    graded = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["corpus_row"], r["verdict"]) for r in graded] == [(r["corpus_row"], r["expect"]) for r in rows]


@pytest.mark.docker
def test_trl_reward_function_on_dataset_rows(server_factory):
    """The trainer's reward function reads the rows through the same formats: a correct completion
    scores 1, a wrong one 0, none is None (TRL columns, conversational completions)."""
    import asyncio

    from trainer.config import RewardConfig
    from trainer.rewards import VerifierRewards
    from verifier.client import ClientConfig

    rows = [r for r in _rows() if r["corpus_row"].split(":")[0] in ("open-r1", "humaneval", "mbpp", "verl", "deepcoder")
            and r["case"] != "edge"]
    server = server_factory("--workers", "1", "--sandbox-pool-size", "1", "--sandbox-pool-name", "formats-trl")
    names = {k for r in rows for k in r if k not in ("completion", "expect", "case")}
    columns = {k: [r.get(k) for r in rows] for k in names}
    group = VerifierRewards(RewardConfig(target=server.target, components=("accuracy",), code_scoring="all",
                                         client=ClientConfig(timeout_s=300, max_retries=3)))
    [accuracy] = group.reward_funcs()

    async def run():
        try:
            return await accuracy(prompts=[""] * len(rows), completion_ids=[[0]] * len(rows),
                                  completions=[[{"role": "assistant", "content": r["completion"]}] for r in rows],
                                  **columns)
        finally:
            await group.aclose()

    rewards = asyncio.run(run())
    assert rewards == [1.0 if r["expect"] == "accepted" else 0.0 for r in rows]
