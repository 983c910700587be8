"""deploy/grafana/verifier-dashboard.json and deploy/prometheus/alerts.yaml against a real server.

Every metric name a panel, template variable or alert rule uses must be one a running `verifier
serve` exports (scraped after grading a few items), so a renamed metric cannot leave a dashboard
silently empty or an alert that never fires. With `promtool` (Debian's prometheus package) the
expressions are also parsed, and the alert rules are unit-tested on synthetic series.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
import yaml

from verifier.client import VerifierClient

ROOT = Path(__file__).resolve().parent.parent
DASHBOARD = ROOT / "deploy" / "grafana" / "verifier-dashboard.json"
ALERTS = ROOT / "deploy" / "prometheus" / "alerts.yaml"
PROMTOOL = shutil.which("promtool") or shutil.which("promtool", path=str(Path(sys.executable).parent))
PROMETHEUS_OWN = {"up"}  # series Prometheus itself writes for each target
SUFFIXES = {"counter": ("_total", "_created"), "histogram": ("_bucket", "_sum", "_count", "_created"),
            "summary": ("_sum", "_count", "_created"), "gauge": ("",), "info": ("_info",)}
KEYWORDS = {"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring", "group_left",
            "group_right", "inf", "nan"}
# What the dashboard must show (docs/service.md "The service"): one panel at least per family.
REQUIRED = ["verifier_items_total", "verifier_item_queue_seconds_bucket", "verifier_item_exec_seconds_bucket",
            "verifier_queue_items", "verifier_inflight_items", "verifier_worker_restarts_total",
            "verifier_rejections_total", "verifier_rpcs_total", "up"]


def promql_metric_names(expr: str) -> set[str]:
    """Metric names in a PromQL expression: identifiers that are not functions, keywords, labels or variables."""
    s = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)  # string literals (label values, regexes)
    s = re.sub(r"\{[^}]*\}", "", s)  # label matchers
    s = re.sub(r"\[[^\]]*\]", "", s)  # range selectors, $__rate_interval
    s = re.sub(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", s)  # label lists
    names = set()
    for m in re.finditer(r"(?<![\w$.])([a-zA-Z_:][\w:]*)(\s*\()?", s):
        if not m.group(2) and m.group(1).lower() not in KEYWORDS:
            names.add(m.group(1))
    return names


def test_promql_metric_names():
    expr = ('histogram_quantile(0.99, sum by (le, kind) (rate(verifier_x_bucket{job=~"$job", a="b{c}"}[$__rate_interval])))'
            ' / clamp_min(sum without (kind) (verifier_y_total offset 5m), 1e-9) > bool 0 and on (job) up == 0')
    assert promql_metric_names(expr) == {"verifier_x_bucket", "verifier_y_total", "up"}
    assert promql_metric_names("label_values(verifier_build_info, job)") == {"verifier_build_info", "job"}


def exported_names(text: str) -> set[str]:
    """Every series name a /metrics page can carry: its samples, and each family's suffixed names."""
    names = set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, family, kind = line.split(None, 3)
            if kind == "counter":
                family = family.removesuffix("_total")  # the text format names counters with the suffix
            names.update(family + suffix for suffix in SUFFIXES.get(kind, ("",)))
        elif line and not line.startswith("#"):
            names.add(re.match(r"[a-zA-Z_:][\w:]*", line).group(0))
    return names


@pytest.fixture(scope="module")
def exported(verifier_server) -> set[str]:
    tasks = [{"id": "1", "kind": "math", "completion": "\\boxed{2}", "gold": "2"},
             {"id": "2", "kind": "math", "completion": "\\boxed{3}", "gold": "2"},
             {"id": "3", "kind": "math", "completion": "no answer here", "gold": "2"}]
    with VerifierClient(verifier_server.target) as client:
        assert [r["verdict"] for r in client.grade(tasks)] == ["correct", "incorrect", "no_answer"]
    text = urllib.request.urlopen(verifier_server.metrics_url, timeout=10).read().decode()
    names = exported_names(text)
    assert "verifier_items_total" in names and "verifier_item_queue_seconds_bucket" in names
    return names


def _dashboard() -> dict:
    return json.loads(DASHBOARD.read_text())


def _panels(dashboard: dict) -> list[dict]:
    out = []
    for panel in dashboard["panels"]:
        out += [panel, *panel.get("panels", [])]  # collapsed rows keep their panels inside
    return [p for p in out if p.get("type") != "row"]


def _alert_rules() -> list[dict]:
    return [rule for group in yaml.safe_load(ALERTS.read_text())["groups"] for rule in group["rules"]]


def test_every_dashboard_metric_is_exported(exported):
    used: set[str] = set()
    for panel in _panels(_dashboard()):
        assert panel.get("targets"), f"panel {panel['title']!r} has no query"
        for target in panel["targets"]:
            names = promql_metric_names(target["expr"])
            assert names, f"panel {panel['title']!r}: no metric in {target['expr']!r}"
            assert names <= exported | PROMETHEUS_OWN, f"panel {panel['title']!r}: {names - exported} not exported"
            used |= names
    for var in _dashboard()["templating"]["list"]:
        if var["type"] == "query":
            names = promql_metric_names(var["definition"]) - {"job", "instance"}
            assert names and names <= exported, var["name"]
    assert set(REQUIRED) <= used


def test_every_alert_metric_is_exported(exported):
    used = set()
    for rule in _alert_rules():
        names = promql_metric_names(rule["expr"])
        assert names and names <= exported | PROMETHEUS_OWN, f"{rule['alert']}: {names - exported - PROMETHEUS_OWN}"
        used |= names
    assert {"up", "verifier_items_total", "verifier_item_queue_seconds_bucket", "verifier_worker_restarts_total",
            "verifier_rejections_total"} <= used


def test_a_renamed_metric_would_be_caught(exported):
    """The check above is not vacuous: a name one letter off is not in the scrape."""
    assert "verifier_item_total" not in exported and "verifier_items" not in exported
    assert "verifier_item_queue_seconds" not in exported  # a histogram is queried through its suffixes


def test_dashboard_structure():
    dashboard = _dashboard()
    assert dashboard["uid"] and dashboard["title"] and dashboard["schemaVersion"] >= 30
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    variables = {v["name"] for v in dashboard["templating"]["list"]}
    assert {"datasource", "job", "instance"} <= variables
    cells: Counter = Counter()
    for panel in dashboard["panels"]:
        g = panel["gridPos"]
        assert 0 <= g["x"] and g["x"] + g["w"] <= 24, panel["title"]
        cells.update((x, y) for x in range(g["x"], g["x"] + g["w"]) for y in range(g["y"], g["y"] + g["h"]))
    assert max(cells.values()) == 1, "panels overlap"
    for panel in _panels(dashboard):
        assert panel["datasource"]["uid"] == "${datasource}", panel["title"]
        refs = [t["refId"] for t in panel["targets"]]
        assert len(refs) == len(set(refs)), panel["title"]
        for target in panel["targets"]:
            for var in re.findall(r"\$(\w+)", target["expr"]):
                assert var in variables or var.startswith("__"), f"{panel['title']}: unknown ${var}"


def test_alert_rules_structure():
    groups = yaml.safe_load(ALERTS.read_text())["groups"]
    assert groups and all(g["name"] and g["rules"] for g in groups)
    rules = _alert_rules()
    names = [r["alert"] for r in rules]
    assert len(names) == len(set(names))
    assert {"VerifierTargetDown", "VerifierNoTargetUp", "VerifierHighInfraErrorShare", "VerifierQueueWaitP99High", "VerifierWorkerRestarts",
            "VerifierRejections"} <= set(names)
    for rule in rules:
        assert set(rule) <= {"alert", "expr", "for", "labels", "annotations", "keep_firing_for"}, rule["alert"]
        assert re.fullmatch(r"(\d+[smhd])+", rule["for"]), rule["alert"]
        assert rule["labels"]["severity"] in ("warning", "critical"), rule["alert"]
        assert rule["annotations"]["summary"] and rule["annotations"]["description"], rule["alert"]
        expr = rule["expr"].strip()
        assert re.search(r"[<>=]=?\s*[\d.]+$", expr) or expr.startswith("absent("), f"{rule['alert']}: no threshold"


def test_prometheus_config_loads_the_rules():
    """The compose `monitoring` profile's Prometheus mounts alerts.yaml where its config looks for it."""
    config = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text())
    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    mounts = {target: source for source, target in
              (v.rsplit(":", 1)[0].split(":", 1) for v in compose["services"]["prometheus"]["volumes"])}
    assert config["rule_files"] and all(path in mounts for path in config["rule_files"])
    assert {(ROOT / "deploy" / mounts[path]).resolve() for path in config["rule_files"]} == {ALERTS.resolve()}


needs_promtool = pytest.mark.skipif(PROMTOOL is None, reason="no promtool: run scripts/ensure_promtool.sh (make test does)")


@needs_promtool
def test_promtool_parses_the_rules_and_every_panel_query(tmp_path):
    proc = subprocess.run([PROMTOOL, "check", "rules", str(ALERTS)], check=False, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # panel queries as recording rules, Grafana's variables replaced by what they expand to
    exprs = [t["expr"] for p in _panels(_dashboard()) for t in p["targets"]]
    subst = {"$__rate_interval": "1m", "$__range": "1h", "$job": ".*", "$instance": ".*"}
    records = []
    for i, expr in enumerate(exprs):
        for var, value in subst.items():
            expr = expr.replace(var, value)
        records.append({"record": f"panel:query_{i}", "expr": expr})
    path = tmp_path / "panels.yaml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "panels", "rules": records}]}))
    proc = subprocess.run([PROMTOOL, "check", "rules", str(path)], check=False, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _series(name: str, values: str, **labels: str) -> dict:
    labels = {"job": "grpo-verifier", "instance": "a:9090", **labels}
    return {"series": name + "{" + ",".join(f'{k}="{v}"' for k, v in labels.items()) + "}", "values": values}


def _buckets(kind: str, per_minute: dict[str, int]) -> list[dict]:
    """Histogram buckets growing by the given cumulative counts per minute."""
    return [_series("verifier_item_queue_seconds_bucket", f"0+{n}x30", kind=kind, le=le) for le, n in per_minute.items()]


@needs_promtool
def test_alerts_fire_on_trouble_and_not_on_near_misses(tmp_path):
    """Each rule's expression on synthetic series: it selects the troubled series and not the one just under."""
    series = [
        # code: 10% infra_error (fires); math: 1% (does not)
        _series("verifier_items_total", "0+10x30", kind="code", verdict="infra_error"),
        _series("verifier_items_total", "0+90x30", kind="code", verdict="accepted"),
        _series("verifier_items_total", "0+1x30", kind="math", verdict="infra_error"),
        _series("verifier_items_total", "0+99x30", kind="math", verdict="correct"),
        # math waits 20-60 s (p99 over 10 s: fires); code waits under a second
        *_buckets("math", {"1": 0, "10": 0, "60": 100, "+Inf": 100}),
        *_buckets("code", {"1": 100, "10": 100, "60": 100, "+Inf": 100}),
        # one restart a minute for deadlines (fires), one in the window for crashes (does not)
        _series("verifier_worker_restarts_total", "0+1x30", reason="deadline"),
        _series("verifier_worker_restarts_total", "0x15 1x15", reason="crash"),
        # a full queue refusing 1 call/s (fires); an invalid call every 10 s (does not)
        _series("verifier_rejections_total", "0+60x30", reason="queue_full"),
        _series("verifier_rejections_total", "0+6x30", reason="invalid"),
        _series("up", "0x30"),
        _series("up", "1x30", instance="b:9090"),
    ]
    expect = {"VerifierHighInfraErrorShare": ("kind", ["code"]), "VerifierQueueWaitP99High": ("kind", ["math"]),
              "VerifierWorkerRestarts": ("reason", ["deadline"]), "VerifierRejections": ("reason", ["queue_full"]),
              "VerifierTargetDown": ("instance", ["a:9090"])}
    rules = {r["alert"]: r["expr"] for r in _alert_rules()}
    tests = [{"expr": f"count by ({label}) ({rules[alert]})", "eval_time": "25m",
              "exp_samples": [{"labels": f'{{{label}="{v}"}}', "value": 1} for v in values]}
             for alert, (label, values) in expect.items()]
    # one replica up: not "no target up"; none up: it is
    tests.append({"expr": rules["VerifierNoTargetUp"], "eval_time": "25m", "exp_samples": []})
    all_down = {"expr": rules["VerifierNoTargetUp"], "eval_time": "25m", "exp_samples": [{"labels": "{}", "value": 1}]}
    path = tmp_path / "alerts_test.yaml"
    path.write_text(yaml.safe_dump({"rule_files": [str(ALERTS)], "evaluation_interval": "1m", "tests": [
        {"interval": "1m", "input_series": series, "promql_expr_test": tests},
        {"interval": "1m", "input_series": [_series("up", "0x30")], "promql_expr_test": [all_down]}]}))
    proc = subprocess.run([PROMTOOL, "test", "rules", str(path)], check=False, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
