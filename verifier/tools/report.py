"""`verifier report`: graded JSONL (what `verifier grade` writes) -> one static HTML page.

The page is self-contained (inline CSS and SVG, no scripts, no external assets) so it can be
attached to a run or opened offline. Its inputs are model completions, which are adversarial: every
string is truncated and HTML-escaped, and a Content-Security-Policy forbids scripts outright.
Memory is bounded: the file is streamed, over-long lines are skipped, groups are keyed by a hash,
latencies go into fixed log-spaced bins, and only the slowest items are kept.
"""

from __future__ import annotations

import hashlib
import heapq
import html
import json
import math
import os
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from tqdm import tqdm

from sandbox.contract import HOST_FAULTS, PASSING, TABLE, Verdict
from verifier.formats import detect

MAX_LINE_BYTES = 16 << 20  # a longer line is reported as malformed, never held in memory whole
MAX_TEXT = 160  # characters of any string shown on the page
SLOWEST = 20
MAX_GROUP_ROWS = 100  # per-problem rows shown (hardest first); the summary covers all groups
MAX_BAD_SHOWN = 20
GROUP_CANDIDATES = ("problem_id", "problem", "prompt", "question", "instance_id")
KINDS = ("math", "code")


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k (Chen et al. 2021, "Evaluating Large Language Models Trained on Code").

    1 - C(n-c, k) / C(n, k), computed as a product to stay exact for large n; needs k <= n.
    """
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n, got n={n} c={c} k={k}")
    if n - c < k:
        return 1.0
    prod = 1.0
    for i in range(n - c + 1, n + 1):
        prod *= 1.0 - k / i
    return 1.0 - prod


def ks_for(max_n: int) -> list[int]:
    """k = 1 and the powers of two up to the largest group."""
    ks, k = [], 1
    while k <= max_n:
        ks.append(k)
        k *= 2
    return ks


def id_prefix(row_id: Any) -> str | None:
    """`q17-3` -> `q17`, `gsm8k/12:0` -> `gsm8k/12`: the convention of one id per sample, `<problem>-<sample>` (docs/tasks.md "Task schema")."""
    if not isinstance(row_id, (str, int)) or isinstance(row_id, bool):
        return None
    text = str(row_id)
    cut = max(text.rfind(sep) for sep in "-_/:")  # the sample number is the last component
    return text[:cut] if cut > 0 else None


def row_kind(row: dict) -> Any:
    """The row's `kind`; a dataset row graded with `--format` has none, and is the kind its format
    makes (verifier/formats: SWE-bench rows are repo tasks, the others code)."""
    if "kind" in row:
        return row["kind"]
    name = detect(row)
    return None if name is None else "repo" if name == "swebench" else "code"


def choose_group_by(row: dict) -> str:
    """The grouping for `--group-by auto`: the first problem-like column present, else the id prefix."""
    for name in GROUP_CANDIDATES:
        if row.get(name) not in (None, ""):
            return name
    return "id-prefix" if id_prefix(row.get("id")) is not None else "line"


def group_value(row: dict, group_by: str, line: int) -> str | None:
    """The group of one row as text, or None when the row lacks the column."""
    if group_by == "id-prefix":
        return id_prefix(row.get("id"))
    if group_by == "line":
        return f"line {line}"
    value = row.get(group_by)
    if value is None or value == "":
        return None
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=False)


def short(value: Any, limit: int = MAX_TEXT) -> str:
    """A display string: at most `limit` characters, control characters made visible."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    text = text.replace("\r", "\\r").replace("\n", "\\n").replace("\t", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


class LogHistogram:
    """Seconds in log-spaced bins (about 6% wide): quantiles in fixed memory, however many rows."""

    LOW, HIGH, BINS = 1e-6, 1e5, 400

    def __init__(self) -> None:
        self.counts = [0] * (self.BINS + 2)  # [under LOW] + bins + [over HIGH]
        self.n = 0
        self.max = 0.0

    def add(self, value: float) -> None:
        if value < self.LOW:
            i = 0
        elif value >= self.HIGH:
            i = self.BINS + 1
        else:
            i = 1 + int(math.log(value / self.LOW) / math.log(self.HIGH / self.LOW) * self.BINS)
        self.counts[min(i, self.BINS)] += 1
        self.n += 1
        self.max = max(self.max, value)

    def quantile(self, q: float) -> float | None:
        """The upper edge of the bin holding the q-quantile (never above the largest value seen)."""
        if not self.n:
            return None
        rank, seen = q * self.n, 0
        for i, count in enumerate(self.counts):
            seen += count
            if seen >= rank and count:
                edge = self.LOW * (self.HIGH / self.LOW) ** (i / self.BINS) if i else self.LOW
                return min(edge, self.max)
        return self.max


@dataclass
class Group:
    label: str
    kind: str
    n: int = 0  # graded samples (infra_error left out)
    c: int = 0  # passing samples
    ungraded: int = 0


@dataclass
class Stats:
    """Everything the page shows, accumulated one row at a time in bounded memory."""

    group_by: str
    rows: int = 0
    blank: int = 0
    bad: int = 0
    bad_examples: list[tuple[int, str]] = field(default_factory=list)
    verdicts: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    score_bins: dict[str, list[int]] = field(default_factory=dict)
    score_sum: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    groups: dict[bytes, Group] = field(default_factory=dict)
    ungrouped: int = 0
    exec_s: dict[str, LogHistogram] = field(default_factory=lambda: defaultdict(LogHistogram))
    queue_s: dict[str, LogHistogram] = field(default_factory=lambda: defaultdict(LogHistogram))
    slowest: list[tuple[float, int, dict]] = field(default_factory=list)  # min-heap of the top SLOWEST

    def malformed(self, line: int, why: str) -> None:
        self.bad += 1
        if len(self.bad_examples) < MAX_BAD_SHOWN:
            self.bad_examples.append((line, why))

    def add(self, line: int, row: dict) -> None:
        kind, verdict, score = row_kind(row), row.get("verdict"), row.get("score")
        if not isinstance(kind, str) or not kind:
            return self.malformed(line, "no kind")
        if not isinstance(verdict, str) or not verdict:
            return self.malformed(line, "no verdict (not a graded row?)")
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0.0 <= score <= 1.0:
            return self.malformed(line, "score is not a number in [0, 1]")
        kind, verdict = short(kind, 40), short(verdict, 40)
        self.rows += 1
        self.verdicts[kind][verdict] += 1
        bins = self.score_bins.setdefault(kind, [0] * 10)
        bins[min(9, max(0, int(score * 10)))] += 1
        self.score_sum[kind] += score
        self._add_group(line, row, kind, verdict)
        self._add_timing(line, row, kind, verdict)

    def _add_group(self, line: int, row: dict, kind: str, verdict: str) -> None:
        if self.group_by == "auto":
            self.group_by = choose_group_by(row)
        value = group_value(row, self.group_by, line)
        if value is None:
            self.ungrouped += 1
            return
        key = hashlib.blake2b(f"{kind}\0{value}".encode("utf-8", "replace"), digest_size=16).digest()
        group = self.groups.get(key)
        if group is None:
            group = self.groups[key] = Group(short(value, 80), kind)
        if verdict in HOST_FAULTS:  # the host could not grade, not the model's fault: left out of pass@k
            group.ungraded += 1
        else:
            group.n += 1
            group.c += verdict in PASSING

    def _add_timing(self, line: int, row: dict, kind: str, verdict: str) -> None:
        exec_s, queue_s = _seconds(row.get("exec_s")), _seconds(row.get("queue_s"))
        if exec_s is None and queue_s is None:
            return
        if exec_s is not None:
            self.exec_s[kind].add(exec_s)
        if queue_s is not None:
            self.queue_s[kind].add(queue_s)
        total = (exec_s or 0.0) + (queue_s or 0.0)
        if len(self.slowest) == SLOWEST and total <= self.slowest[0][0]:
            return
        shown = {"line": line, "id": short(row.get("id", ""), 60), "kind": kind, "verdict": verdict,
                 "queue_s": queue_s, "exec_s": exec_s, "detail": short(row.get("detail", ""), 100),
                 "completion": short(row.get("completion", ""), 100)}
        item = (total, -line, shown)
        if len(self.slowest) < SLOWEST:
            heapq.heappush(self.slowest, item)
        else:
            heapq.heapreplace(self.slowest, item)


def _seconds(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        return None
    return float(value)


def read_rows(stream: IO[bytes], stats: Stats) -> Iterator[tuple[int, dict]]:
    """Yields (line number, object) per good line; bad lines are counted in `stats`.

    Lines are read with a length cap, so one enormous line costs MAX_LINE_BYTES of memory, not its size.
    """
    number = 0
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            while (rest := stream.readline(1 << 20)) and not rest.endswith(b"\n"):
                pass
            stats.malformed(number, f"longer than {MAX_LINE_BYTES} bytes")
            continue
        if not raw.strip():
            stats.blank += 1
            continue
        try:
            obj = json.loads(raw)
        except (ValueError, RecursionError) as exc:
            stats.malformed(number, f"not JSON ({short(str(exc), 80)})")
            continue
        if not isinstance(obj, dict):
            stats.malformed(number, "not a JSON object")
            continue
        yield number, obj


def collect(stream: IO[bytes], group_by: str = "auto", total_bytes: int | None = None,
            progress: bool = True) -> Stats:
    """Stream graded rows into Stats, with a progress bar (in bytes) on stderr."""
    stats = Stats(group_by=group_by)
    bar = tqdm(total=total_bytes, desc="report", unit="B", unit_scale=True, file=sys.stderr,
               disable=not progress, dynamic_ncols=True)
    try:
        last = 0
        for number, row in read_rows(stream, stats):
            stats.add(number, row)
            if number % 4096 == 0 and total_bytes:
                pos = stream.tell()
                bar.update(pos - last)
                last = pos
        if total_bytes:
            bar.update(total_bytes - last)
    finally:
        bar.close()
    return stats


# ---- rendering -------------------------------------------------------------------------------

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"DejaVu Sans",sans-serif;margin:24px auto;max-width:1100px;
color:#1d2430;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d8dde6;
padding-bottom:4px}
.meta{color:#5b6575}.warn{color:#a34000}
table{border-collapse:collapse;margin:6px 0 10px;font-size:13px}
th,td{border:1px solid #d8dde6;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#eef1f5}td.num{text-align:right;font-variant-numeric:tabular-nums}
td.text{font-family:"DejaVu Sans Mono",monospace;font-size:12px;max-width:360px;overflow-wrap:anywhere}
.charts{display:flex;flex-wrap:wrap;gap:18px}
svg text{font-size:11px;fill:#1d2430}
"""

DEFAULT_COLOR = "#c0392b"


def _color(v: Verdict) -> str:
    """A verdict's bar colour, from its columns in the contract's table: passed green, the host's
    fault grey, out of time orange, nothing found yellow, any other failure red."""
    if v.passes:
        return "#2e8540"
    if v.fault == "host":
        return "#8a8f98"
    if v.over_time:
        return "#d17a00"
    return DEFAULT_COLOR if v.found else "#c9a227"


COLORS = {v.name: _color(v) for v in TABLE if _color(v) != DEFAULT_COLOR}


def esc(value: Any) -> str:
    return html.escape(value if isinstance(value, str) else str(value), quote=True)


def _num(value: float | None, digits: int = 3) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def _table(table_id: str, header: list[str], rows: list[tuple[dict, list[tuple[str, str]]]]) -> str:
    """rows: (data attributes, [(cell text, css class)]); every string is escaped here."""
    out = [f'<table id="{esc(table_id)}"><thead><tr>', *(f"<th>{esc(h)}</th>" for h in header), "</tr></thead><tbody>"]
    for attrs, cells in rows:
        data = "".join(f' data-{esc(k)}="{esc(v)}"' for k, v in attrs.items())
        out.append(f"<tr{data}>" + "".join(f'<td class="{cls}">{esc(text)}</td>' for text, cls in cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def bar_chart(title: str, bars: Sequence[tuple[str, float, str]], width: int = 480, fmt: str = "{:g}") -> str:
    """Horizontal bars: (label, value, colour). Inline SVG, labels escaped."""
    row_h, label_w, pad = 22, 150, 60
    height = 28 + row_h * max(1, len(bars))
    top = max((v for _, v, _ in bars), default=0) or 1
    parts = [(f'<svg role="img" aria-label="{esc(title)}" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">'),
             f'<text x="0" y="14" font-weight="bold">{esc(title)}</text>']
    for i, (label, value, color) in enumerate(bars):
        y = 24 + i * row_h
        w = (width - label_w - pad) * value / top
        parts.append(f'<text x="{label_w - 6}" y="{y + 14}" text-anchor="end">{esc(short(label, 22))}</text>'
                     f'<rect x="{label_w}" y="{y + 3}" width="{w:.1f}" height="{row_h - 6}" fill="{esc(color)}"/>'
                     f'<text x="{label_w + w + 4:.1f}" y="{y + 14}">{esc(fmt.format(value))}</text>')
    parts.append("</svg>")
    return "".join(parts)


def column_chart(title: str, labels: list[str], values: list[int], end_label: str = "", width: int = 480,
                 height: int = 200) -> str:
    """Vertical columns (a histogram): one per bin, `labels` at their left edges, `end_label` at the right."""
    left, bottom, top_pad = 40, 34, 24
    plot_w, plot_h = width - left - 10, height - bottom - top_pad
    top = max(values, default=0) or 1
    col_w = plot_w / max(1, len(values))
    parts = [(f'<svg role="img" aria-label="{esc(title)}" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">'),
             f'<text x="0" y="14" font-weight="bold">{esc(title)}</text>',
             f'<line x1="{left}" y1="{top_pad + plot_h}" x2="{width - 10}" y2="{top_pad + plot_h}" stroke="#5b6575"/>',
             f'<text x="{left - 4}" y="{top_pad + 10}" text-anchor="end">{top}</text>']
    for i, (label, value) in enumerate(zip(labels, values)):
        h = plot_h * value / top
        x = left + i * col_w
        parts.append(f'<rect x="{x + 1:.1f}" y="{top_pad + plot_h - h:.1f}" width="{col_w - 2:.1f}" height="{h:.1f}" '
                     f'fill="#3b6ea8"><title>{esc(label)}: {value}</title></rect>')
        if i % 2 == 0 or len(values) <= 6:  # labels sit on the bins' left edges
            parts.append(f'<text x="{x:.1f}" y="{height - bottom + 14}" text-anchor="middle">{esc(label)}</text>')
    if end_label:
        parts.append(f'<text x="{left + plot_w:.1f}" y="{height - bottom + 14}" text-anchor="middle">{esc(end_label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def pass_at_k_summary(stats: Stats) -> dict[str, list[tuple[int, float, int]]]:
    """Per kind: (k, mean pass@k over groups with n >= k, how many groups) for each k."""
    out: dict[str, list[tuple[int, float, int]]] = {}
    for kind in sorted({g.kind for g in stats.groups.values()}):
        groups = [g for g in stats.groups.values() if g.kind == kind and g.n > 0]
        rows = []
        for k in ks_for(max((g.n for g in groups), default=0)):
            eligible = [g for g in groups if g.n >= k]
            rows.append((k, sum(pass_at_k(g.n, g.c, k) for g in eligible) / len(eligible), len(eligible)))
        out[kind] = rows
    return out


def _section_overview(stats: Stats, source: str) -> str:
    parts = [(f'<p class="meta">Source: <code>{esc(short(source, 200))}</code> · '
             f'<span id="row-count">{stats.rows}</span> graded rows · '
             f'<span id="malformed-count">{stats.bad}</span> malformed lines · {stats.blank} blank lines</p>')]
    if stats.bad_examples:
        rows = [({"line": line}, [(str(line), "num"), (why, "text")]) for line, why in stats.bad_examples]
        more = f" (first {MAX_BAD_SHOWN} shown)" if stats.bad > MAX_BAD_SHOWN else ""
        parts.append(f'<p class="warn">Malformed lines{more}:</p>' + _table("malformed", ["line", "why"], rows))
    return "".join(parts)


def _section_verdicts(stats: Stats) -> str:
    rows, charts = [], []
    for kind in sorted(stats.verdicts):
        counts = stats.verdicts[kind]
        total = sum(counts.values())
        for verdict, n in counts.most_common():
            rows.append(({"kind": kind, "verdict": verdict, "count": n},
                         [(kind, ""), (verdict, ""), (str(n), "num"), (f"{100 * n / total:.1f}%", "num")]))
        rows.append(({"kind": kind, "verdict": "(mean score)"},
                     [(kind, ""), ("mean score", ""), (f"{stats.score_sum[kind] / total:.3f}", "num"), ("", "num")]))
        bars = [(v, n, COLORS.get(v, DEFAULT_COLOR)) for v, n in counts.most_common()]
        charts.append(bar_chart(f"{kind}: verdicts ({total} items)", bars))
    return ("<h2>Verdicts by kind</h2>" + _table("verdicts", ["kind", "verdict", "count", "share"], rows)
            + f'<div class="charts">{"".join(charts)}</div>')


def _section_scores(stats: Stats) -> str:
    labels = [f"{i / 10:.1f}" for i in range(10)]
    charts = [column_chart(f"{kind}: score histogram (bins of 0.1; 1.0 in the last)", labels, stats.score_bins[kind], "1.0")
              for kind in sorted(stats.score_bins)]
    return f'<h2>Scores</h2><div class="charts">{"".join(charts)}</div>'


def _section_pass_at_k(stats: Stats) -> str:
    parts = [f'<h2>pass@k by problem</h2><p class="meta">Grouped by <code id="group-by">{esc(stats.group_by)}</code>; '
             f'<span id="group-count">{len(stats.groups)}</span> groups; a sample passes when its verdict is '
             f'correct or accepted; infra_error samples are left out (not the model\'s fault); unbiased estimator '
             f'of Chen et al. (2021), averaged over groups with at least k graded samples.'
             + (f' <span class="warn">{stats.ungrouped} rows had no {esc(stats.group_by)} and are not grouped.</span>'
                if stats.ungrouped else "") + "</p>"]
    summary = pass_at_k_summary(stats)
    rows, charts = [], []
    for kind, per_k in summary.items():
        for k, value, groups in per_k:
            rows.append(({"kind": kind, "k": k, "value": f"{value:.6f}"},
                         [(kind, ""), (str(k), "num"), (f"{value:.3f}", "num"), (str(groups), "num")]))
        charts.append(bar_chart(f"{kind}: pass@k", [(f"k={k}", v, "#3b6ea8") for k, v, _ in per_k], fmt="{:.3f}"))
    parts.append(_table("pass-at-k", ["kind", "k", "pass@k", "groups"], rows))
    parts.append(f'<div class="charts">{"".join(charts)}</div>')
    ks = ks_for(max((g.n for g in stats.groups.values()), default=0))[:6]
    hardest = sorted(stats.groups.values(), key=lambda g: (g.c / g.n if g.n else 2.0, -g.n, g.label))[:MAX_GROUP_ROWS]
    group_rows = []
    for g in hardest:
        cells = [(g.label, "text"), (g.kind, ""), (str(g.n), "num"), (str(g.c), "num"), (str(g.ungraded), "num")]
        cells += [(f"{pass_at_k(g.n, g.c, k):.3f}" if g.n >= k else "", "num") for k in ks]
        group_rows.append(({"group": g.label, "n": g.n, "c": g.c}, cells))
    shown = f"the {len(group_rows)} hardest of {len(stats.groups)}" if len(stats.groups) > len(group_rows) else "all"
    parts.append(f'<p class="meta">Per group ({shown}, lowest pass rate first):</p>')
    parts.append(_table("groups", [stats.group_by, "kind", "n", "passed", "infra_error", *(f"pass@{k}" for k in ks)],
                        group_rows))
    return "".join(parts)


def _section_timing(stats: Stats) -> str:
    if not stats.slowest:
        return '<h2>Slowest items</h2><p class="meta">No queue_s/exec_s fields in the input.</p>'
    rows = []
    for kind in sorted(set(stats.exec_s) | set(stats.queue_s)):
        for name, hist in (("exec_s", stats.exec_s[kind]), ("queue_s", stats.queue_s[kind])):
            if hist.n:
                cells = [(kind, ""), (name, ""), (str(hist.n), "num")]
                cells += [(_num(hist.quantile(q)), "num") for q in (0.5, 0.9, 0.99)] + [(_num(hist.max), "num")]
                rows.append(({"kind": kind, "field": name}, cells))
    slow_rows = []
    for total, _neg_line, item in sorted(stats.slowest, key=lambda t: (-t[0], -t[1])):
        slow_rows.append(({"line": item["line"]}, [
            (str(item["line"]), "num"), (item["id"], "text"), (item["kind"], ""), (item["verdict"], ""),
            (_num(item["queue_s"]), "num"), (_num(item["exec_s"]), "num"), (_num(total), "num"),
            (item["detail"], "text"), (item["completion"], "text")]))
    return ('<h2>Latency</h2><p class="meta">Quantiles from log-spaced bins (within about 7%).</p>'
            + _table("latency", ["kind", "field", "items", "p50", "p90", "p99", "max"], rows)
            + f"<h2>Slowest items (top {SLOWEST} by queue_s + exec_s)</h2>"
            + _table("slowest", ["line", "id", "kind", "verdict", "queue_s", "exec_s", "total", "detail", "completion"],
                     slow_rows))


def render(stats: Stats, source: str) -> str:
    """The whole page. No script runs: the CSP allows inline styles and nothing else."""
    body = [_section_overview(stats, source)]
    if stats.rows:
        body += [_section_verdicts(stats), _section_scores(stats), _section_pass_at_k(stats), _section_timing(stats)]
    else:
        body.append('<p class="warn" id="empty">No graded rows.</p>')
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>grpo-verifier report</title><style>{CSS}</style></head><body>"
            "<h1>grpo-verifier report</h1>" + "".join(body) + "</body></html>\n")


def write_report(path: str, out_path: str, group_by: str = "auto", progress: bool = True) -> Stats:
    """Read graded JSONL at `path` (or - for stdin) and write the page to `out_path`."""
    if path == "-":
        stats = collect(sys.stdin.buffer, group_by, None, progress)
    else:
        with open(path, "rb") as stream:
            stats = collect(stream, group_by, os.path.getsize(path), progress)
    page = render(stats, path)
    tmp = out_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as out:
        out.write(page)
    os.replace(tmp, out_path)
    return stats
