"""`verifier report`: the pass@k estimator, grouping, bounds and escaping (no browser; see test_report_browser.py)."""

from __future__ import annotations

import io
import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

from verifier.tools import report
from verifier.tools.report import LogHistogram, choose_group_by, collect, id_prefix, ks_for, pass_at_k, render

ROOT = Path(__file__).resolve().parent.parent


def _comb_pass_at_k(n: int, c: int, k: int) -> float:
    """The estimator written as in its paper: 1 - C(n-c, k) / C(n, k), with exact integers."""
    return 1 - math.comb(n - c, k) / math.comb(n, k)


def test_pass_at_k_matches_the_binomial_form():
    rng = random.Random(0)
    for _ in range(500):
        n = rng.randint(1, 200)
        c, k = rng.randint(0, n), rng.randint(1, n)
        assert pass_at_k(n, c, k) == pytest.approx(_comb_pass_at_k(n, c, k), abs=1e-9), (n, c, k)


def test_pass_at_k_known_values():
    assert pass_at_k(10, 3, 1) == pytest.approx(0.3)  # pass@1 is the pass rate
    assert pass_at_k(2, 1, 2) == 1.0
    assert pass_at_k(4, 1, 2) == pytest.approx(0.5)  # 1 - C(3,2)/C(4,2) = 1 - 3/6
    assert pass_at_k(8, 0, 8) == 0.0  # nothing passed: no k makes it pass
    assert pass_at_k(8, 8, 1) == 1.0
    assert pass_at_k(1000, 1, 1) == pytest.approx(0.001)
    # one extra failure lowers it, one extra pass raises it (near misses of the same problem)
    assert pass_at_k(9, 3, 4) < pass_at_k(8, 3, 4) < pass_at_k(9, 4, 4)


def test_pass_at_k_grows_with_k():
    values = [pass_at_k(16, 2, k) for k in ks_for(16)]
    assert values == sorted(values) and values[0] == pytest.approx(2 / 16) and values[-1] == 1.0


@pytest.mark.parametrize("n, c, k", [(4, 5, 1), (4, -1, 1), (4, 1, 0), (4, 1, 5)])
def test_pass_at_k_rejects_impossible_counts(n, c, k):
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)


def test_ks_are_one_and_powers_of_two_up_to_the_group_size():
    assert ks_for(0) == []
    assert ks_for(1) == [1]
    assert ks_for(12) == [1, 2, 4, 8]
    assert ks_for(16) == [1, 2, 4, 8, 16]


def test_id_prefix():
    assert id_prefix("q17-3") == "q17"
    assert id_prefix("gsm8k/train/12:0") == "gsm8k/train/12"
    assert id_prefix("a_b-c_7") == "a_b-c"  # split at the last separator of any kind
    assert id_prefix("-7") is None  # nothing before it
    assert id_prefix("plain") is None and id_prefix(None) is None and id_prefix(True) is None


def test_auto_grouping_prefers_a_problem_column():
    assert choose_group_by({"problem_id": "p", "prompt": "x", "id": "a-1"}) == "problem_id"
    assert choose_group_by({"prompt": "x", "id": "a-1"}) == "prompt"
    assert choose_group_by({"id": "a-1"}) == "id-prefix"
    assert choose_group_by({"id": "a1"}) == "line"


def _rows(*rows: dict) -> io.BytesIO:
    return io.BytesIO("".join(json.dumps(r) + "\n" for r in rows).encode())


def _row(group: str, verdict: str, kind: str = "math", **extra) -> dict:
    score = 1.0 if verdict in ("correct", "accepted") else 0.0
    return {"kind": kind, "verdict": verdict, "score": score, "problem_id": group, **extra}


def test_grouping_counts_passes_and_leaves_infra_errors_out():
    stats = collect(_rows(_row("p1", "correct"), _row("p1", "incorrect"), _row("p1", "infra_error"),
                          _row("p2", "no_answer"), _row("p1", "accepted", kind="code"),
                          {"kind": "math", "verdict": "correct", "score": 1.0}), progress=False)
    assert stats.group_by == "problem_id"
    groups = {(g.label, g.kind): (g.n, g.c, g.ungraded) for g in stats.groups.values()}
    # the same problem id under another kind is another group; a row without the column is counted apart
    assert groups == {("p1", "math"): (2, 1, 1), ("p2", "math"): (1, 0, 0), ("p1", "code"): (1, 1, 0)}
    assert stats.ungrouped == 1
    summary = report.pass_at_k_summary(stats)
    assert summary["math"] == [(1, pytest.approx(0.25), 2), (2, pytest.approx(1.0), 1)]


def test_group_by_a_chosen_column():
    stats = collect(_rows(_row("p1", "correct", dataset="a"), _row("p2", "incorrect", dataset="a"),
                          _row("p3", "incorrect", dataset="b")), group_by="dataset", progress=False)
    assert sorted((g.label, g.n, g.c) for g in stats.groups.values()) == [("a", 2, 1), ("b", 1, 0)]


def test_malformed_lines_are_counted_not_fatal():
    data = (json.dumps(_row("p", "correct")) + "\n{not json\n[1]\n\n"
            + json.dumps({"kind": "math", "score": 1}) + "\n"
            + json.dumps({"kind": "math", "verdict": "correct", "score": "1"}) + "\n"
            + json.dumps({"kind": "math", "verdict": "correct", "score": float("nan")}) + "\n"
            + json.dumps({"kind": "math", "verdict": "correct", "score": 1e308}) + "\n"
            + json.dumps({"kind": "math", "verdict": "incorrect", "score": -0.5}) + "\n"
            + '{"kind": "math", "verdict": "correct", "score": 1, "id": ' + "[" * 100_000 + "]" * 100_000 + "}\n"
            + json.dumps(_row("p", "incorrect")) + "\n")
    stats = collect(io.BytesIO(data.encode()), progress=False)
    assert stats.rows == 2 and stats.blank == 1 and stats.bad == 8
    assert [line for line, _ in stats.bad_examples] == [2, 3, 5, 6, 7, 8, 9, 10]


def test_stdin(tmp_path):
    out = tmp_path / "r.html"
    proc = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "report", "-", "-o", str(out)],
                          input=json.dumps(_row("p", "correct")) + "\n", check=False, capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert '<span id="row-count">1</span>' in out.read_text()


def test_an_enormous_line_is_skipped_in_bounded_memory(monkeypatch):
    monkeypatch.setattr(report, "MAX_LINE_BYTES", 1000)
    huge = json.dumps(_row("p", "correct", completion="x" * 50_000))
    data = json.dumps(_row("p", "incorrect")) + "\n" + huge + "\n" + json.dumps(_row("p", "correct")) + "\n"
    stats = collect(io.BytesIO(data.encode()), progress=False)
    assert stats.rows == 2 and stats.bad == 1 and "longer than 1000 bytes" in stats.bad_examples[0][1]
    assert stats.bad_examples[0][0] == 2  # the line after it is read as its own line


def test_slowest_items_are_the_top_by_total_time():
    rows = [_row(f"p{i}", "correct", id=f"p{i}-0", queue_s=0.0, exec_s=float(i)) for i in range(50)]
    stats = collect(_rows(*rows), progress=False)
    assert sorted(item["exec_s"] for _, _, item in stats.slowest) == [float(i) for i in range(30, 50)]


def test_strings_are_escaped_and_truncated():
    evil = "<script>alert(1)</script><img src=x onerror=alert(2)>" + "A" * 5000
    stats = collect(_rows(_row(evil, "incorrect", id=evil, completion=evil, detail=evil, exec_s=9.0, queue_s=0.0),
                          {"kind": "<b>k</b>", "verdict": '"><script>', "score": 0.0}), progress=False)
    page = render(stats, "<script>src</script>")
    assert "<script" not in page and "<img" not in page and "<b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "A" * 200 not in page  # long strings cut
    assert "default-src 'none'" in page  # and no script could run even if one slipped through


def test_cli_writes_the_page_and_reports_counts(tmp_path):
    src = tmp_path / "graded.jsonl"
    src.write_text(json.dumps(_row("p", "correct")) + "\nnope\n")
    out = tmp_path / "r.html"
    proc = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "report", str(src), "-o", str(out)],
                          check=False, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "1 graded rows, 1 malformed lines" in proc.stderr
    assert '<span id="row-count">1</span>' in out.read_text()


def test_cli_missing_input_is_one_line(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "report", str(tmp_path / "absent.jsonl"),
                           "-o", str(tmp_path / "r.html")], check=False, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2 and "does not exist" in proc.stderr and "Traceback" not in proc.stderr


def test_cli_unwritable_output_is_one_line(tmp_path):
    src = tmp_path / "graded.jsonl"
    src.write_text(json.dumps(_row("p", "correct")) + "\n")
    proc = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "report", str(src), "-o",
                           str(tmp_path / "no" / "such" / "dir" / "r.html")],
                          check=False, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2 and "No such file or directory" in proc.stderr and "Traceback" not in proc.stderr


def test_empty_input_says_so():
    page = render(collect(io.BytesIO(b""), progress=False), "empty.jsonl")
    assert 'id="empty"' in page and '<span id="row-count">0</span>' in page


def test_latency_quantiles_are_close_to_exact_in_fixed_memory():
    rng = random.Random(1)
    values = [rng.lognormvariate(-3, 2) for _ in range(20_000)] + [0.0] * 50
    hist = LogHistogram()
    for v in values:
        hist.add(v)
    ordered = sorted(values)
    for q in (0.5, 0.9, 0.99):
        exact = ordered[math.ceil(q * len(ordered)) - 1]
        assert exact <= hist.quantile(q) <= exact * 1.07, q  # the bin's upper edge: never below the truth
    assert hist.max == max(values) and hist.n == len(values) and len(hist.counts) == LogHistogram.BINS + 2
    assert LogHistogram().quantile(0.5) is None
