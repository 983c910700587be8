"""`verifier report` rendered in a real headless browser (Debian's chromium; `make test` installs it
with scripts/ensure_chromium.sh): the DOM holds the counts of the graded file, nothing a completion
carries runs or becomes markup, and the screenshot has content."""

from __future__ import annotations

import json
import math
import os
import shutil
import struct
import subprocess
import sys
import zlib
from collections import Counter, defaultdict
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
EVIL = "</td></tr></table><script>document.title='pwned'</script><img src=x onerror=\"document.title='img'\">"

pytestmark = pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK),
                                reason="no chromium: run scripts/ensure_chromium.sh (make test does)")


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    # --no-sandbox: containers (and root) cannot use chromium's own sandbox; the page is ours and has a
    # CSP that forbids scripts. A profile of its own keeps runs independent.
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
           f"--user-data-dir={tmp_path / 'profile'}", *args]
    return subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=120)


def _tasks() -> list[dict]:
    """12 problems x 4 samples: problem p passes its first p % 5 samples; p0 sample 0 carries markup."""
    tasks = []
    for p in range(12):
        for s in range(4):
            right = s < p % 5
            completion = f"so the answer is \\boxed{{{p + 10 if right else p + 11}}}"
            if p == 0 and s == 0:
                completion = EVIL + "\nSo the answer is \\boxed{99}"  # markup, then a sentence the grammar reads (fx29aa:
                # markup the grammar does not list leaves its line unfinished, and `... so the answer is` is then no lead)
            tasks.append({"id": f"q{p}-{s}", "kind": "math", "completion": completion, "gold": str(p + 10)})
    return tasks


def _code_rows() -> list[dict]:
    """Code rows as `verifier grade` writes them (synthetic: no sandbox needed to test the page)."""
    verdicts = ["accepted", "wrong_answer", "accepted", "infra_error", "time_limit", "accepted"]
    return [{"id": f"c{i // 3}-{i % 3}", "kind": "code", "language": "python", "completion": EVIL,
             "verdict": v, "score": 1.0 if v == "accepted" else 0.0, "detail": EVIL, "extracted": "",
             "queue_s": 0.5, "exec_s": 10.0 + i, "tests": []} for i, v in enumerate(verdicts)]


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> tuple[Path, list[dict]]:
    """Math graded for real by `verifier grade` (in-process), code rows appended, then two bad lines."""
    tmp = tmp_path_factory.mktemp("report")
    src, out = tmp / "tasks.jsonl", tmp / "graded.jsonl"
    src.write_text("".join(json.dumps(t) + "\n" for t in _tasks()))
    proc = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "grade", str(src), "-o", str(out), "--workers", "1",
                           "--no-code"], check=False, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()] + _code_rows()
    out.write_text("".join(json.dumps(r) + "\n" for r in rows) + "{truncated\n[]\n")
    return out, rows


@pytest.fixture(scope="module")
def page(graded, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("page") / "report.html"
    proc = subprocess.run([sys.executable, "-m", "verifier.tools.cli", "report", str(graded[0]), "-o", str(out)],
                          check=False, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return out


class Dom(HTMLParser):
    """What the test reads back from chromium's serialized DOM: table rows, element ids, tags, title."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, list[dict]] = defaultdict(list)
        self.text_by_id: dict[str, str] = {}
        self.tags: Counter = Counter()
        self.title = ""
        self._table = ""
        self._open_id: str | None = None
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags[tag] += 1
        if tag == "table":
            self._table = attrs.get("id", "")
        elif tag == "tr" and any(k.startswith("data-") for k in attrs):
            self.rows[self._table].append({k[5:]: v for k, v in attrs.items() if k.startswith("data-")})
        if attrs.get("id") and tag != "table":
            self._open_id = attrs["id"]
            self.text_by_id[self._open_id] = ""
        self._in_title = tag == "title" and not self.tags["body"]  # the page's, not an SVG tooltip

    def handle_endtag(self, tag):
        self._open_id = None if tag in ("span", "code", "p") else self._open_id
        self._in_title = False

    def handle_data(self, data):
        if self._open_id:
            self.text_by_id[self._open_id] += data
        if self._in_title:
            self.title += data


@pytest.fixture(scope="module")
def dom(page, tmp_path_factory) -> Dom:
    proc = _chromium(tmp_path_factory.mktemp("chromium"), "--dump-dom", page.as_uri())
    assert proc.returncode == 0 and "<body" in proc.stdout, proc.stderr[-2000:]
    parsed = Dom()
    parsed.feed(proc.stdout)
    return parsed


def test_dom_has_the_verdict_counts_of_the_file(graded, dom):
    _, rows = graded
    expected = Counter((r["kind"], r["verdict"]) for r in rows)
    # the math verdicts are the ones the tasks were built to get (a grading change would show here too)
    design = Counter(("math", "correct" if s < p % 5 else "incorrect") for p in range(12) for s in range(4))
    assert {key: n for key, n in expected.items() if key[0] == "math"} == design
    got = {(r["kind"], r["verdict"]): int(r["count"]) for r in dom.rows["verdicts"] if "count" in r}
    assert got == dict(expected)
    assert dom.text_by_id["row-count"] == str(len(rows)) and dom.text_by_id["malformed-count"] == "2"
    assert [r["line"] for r in dom.rows["malformed"]] == [str(len(rows) + 1), str(len(rows) + 2)]


def _reference_pass_at_k(rows: list[dict], kind: str) -> dict[int, float]:
    groups: dict[str, list[bool]] = defaultdict(list)
    for r in rows:
        if r["kind"] == kind and r["verdict"] != "infra_error":
            groups[r["id"].rsplit("-", 1)[0]].append(r["verdict"] in ("correct", "accepted"))
    out = {}
    for k in (1, 2, 4):
        vals = [1 - math.comb(len(g) - sum(g), k) / math.comb(len(g), k) for g in groups.values() if len(g) >= k]
        if vals:
            out[k] = sum(vals) / len(vals)
    return out


def test_dom_has_pass_at_k_by_problem(graded, dom):
    _, rows = graded
    assert dom.text_by_id["group-by"] == "id-prefix" and dom.text_by_id["group-count"] == "14"
    for kind in ("math", "code"):
        got = {int(r["k"]): float(r["value"]) for r in dom.rows["pass-at-k"] if r["kind"] == kind}
        assert got == pytest.approx(_reference_pass_at_k(rows, kind), abs=1e-6), kind
    groups = {r["group"]: (int(r["n"]), int(r["c"])) for r in dom.rows["groups"]}
    assert groups["q3"] == (4, 3) and groups["q5"] == (4, 0)
    assert groups["c1"] == (2, 1)  # its infra_error sample is not counted as a failure


def test_dom_lists_the_slowest_items(dom):
    lines = [r["line"] for r in dom.rows["slowest"]]
    assert len(lines) == 20 and len(set(lines)) == 20
    assert lines[0] == str(48 + 6)  # the last code row has the largest exec_s


def test_completions_do_not_become_markup_or_run(dom):
    assert dom.title == "grpo-verifier report"  # no script changed it
    assert dom.tags["script"] == 0 and dom.tags["img"] == 0
    assert dom.tags["table"] == 6  # malformed, verdicts, pass-at-k, groups, latency, slowest: none broken out of


def _png_pixels(path: Path) -> tuple[int, int, list[bytes]]:
    """Decode an 8-bit RGB/RGBA PNG with the standard library: (width, height, rows of pixels)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        header = chunk if ctype == b"IHDR" else header
        idat += chunk if ctype == b"IDAT" else b""
        pos += 12 + length
    width, height, depth, color = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and color in (2, 6)
    bpp = 3 if color == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        ftype, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, [bytes(r[i:i + 3]) for r in rows for i in range(0, stride, bpp)]


def _near(colors: Counter, rgb: tuple[int, int, int], tolerance: int = 8) -> int:
    """Pixels within `tolerance` of a colour per channel (colour management may shift it a little)."""
    return sum(n for px, n in colors.items() if all(abs(a - b) <= tolerance for a, b in zip(px, rgb)))


def test_screenshot_is_not_blank(page, tmp_path):
    shot = tmp_path / "report.png"
    proc = _chromium(tmp_path, "--window-size=1000,1400", f"--screenshot={shot}", page.as_uri())
    assert proc.returncode == 0 and shot.exists(), proc.stderr[-2000:]
    width, height, pixels = _png_pixels(shot)
    assert (width, height) == (1000, 1400)
    colors = Counter(pixels)
    white = colors[b"\xff\xff\xff"] / len(pixels)
    assert 0.5 < white < 0.98  # a page of text and charts on white, not an empty or error page
    assert _near(colors, (0x2E, 0x85, 0x40)) > 500  # the green bars of passing verdicts are drawn
    assert _near(colors, (0xC0, 0x39, 0x2B)) > 500  # and the red ones of failing verdicts
    assert len(colors) > 50  # anti-aliased text
