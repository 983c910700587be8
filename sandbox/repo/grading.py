"""Resolution of a repository task from its tests' statuses (docs/repo-tasks.md "Verdicts"):
stricter than SWE-bench's rules (swebench 5.0.2 harness/grading.py), which count an XFAIL as a
FAIL_TO_PASS pass and a SKIPPED or XFAIL as a PASS_TO_PASS kept. Those statuses are chosen by the
code under test (`pytest.xfail()` or `pytest.skip()` called from the library), so here:

- a listed test counts only when its status EQUALS its expected status: PASSED, unless the
  environment stores the gold run's status for that id (`expected`, docs/repo-tasks.md
  "Environments"); any other status, or absent, is a failure;
- resolved: every FAIL_TO_PASS and every PASS_TO_PASS test counts, and every decoy is reported
  FAILED. Partial resolution scores nothing: a reward is for the task done;
- a decoy (a real test with one assertion inverted, which fails under every right patch) reported
  with any other status (passed, skipped, missing) marks the run tampered: not resolved.

SWE-bench keeps a prefix fallback for 676 truncated ids in its Verified split (`_resolve_case`);
ids here are exact, so a test is looked up by its exact id only.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from .results import ERROR, FAILED, PASSED, junit_key

MISSING = "MISSING"  # a test id no report named


@dataclass(frozen=True)
class Resolution:
    """The outcome of one run: resolved or not, why, and each named test's status."""
    resolved: bool
    tampered: bool
    f2p_failed: tuple[str, ...]
    p2p_failed: tuple[str, ...]
    statuses: dict[str, str] = field(default_factory=dict)

    @property
    def detail(self) -> str:
        """One line for a result's detail: the first failures of each list."""
        if self.resolved:
            return "resolved: every FAIL_TO_PASS test passes and every PASS_TO_PASS test still passes"
        parts = []
        for name, failed in (("FAIL_TO_PASS", self.f2p_failed), ("PASS_TO_PASS", self.p2p_failed)):
            if failed:
                shown = ", ".join(f"{t} ({self.statuses[t]})" for t in failed[:3])
                more = f" and {len(failed) - 3} more" if len(failed) > 3 else ""
                parts.append(f"{len(failed)} {name} failing: {shown}{more}")
        if not parts and self.tampered:  # the listed tests' failures first: an honest wrong patch is not called tampering
            return "tampered: a decoy test that every correct patch fails was not reported failing"
        return "not resolved: " + "; ".join(parts)


def lookup(statuses: Mapping[str, str], key: Callable[[str], str] | None = None) -> Callable[[str], str]:
    """A test id -> its status in a report's map (MISSING when absent); `key` maps an id to the
    report's naming (`results.junit_key` for JUnit XML)."""
    return lambda test_id: statuses.get(key(test_id) if key else test_id, MISSING)


def resolve(status_of: Callable[[str], str], fail_to_pass: Iterable[str], pass_to_pass: Iterable[str],
            decoys: Iterable[str] = (), expected: Mapping[str, str] | None = None) -> Resolution:
    """Resolution by the module's rules; `status_of` is `lookup(...)` over the run's report and
    `expected` the gold run's statuses where they are not PASSED (an id it lacks expects PASSED)."""
    f2p, p2p, decoy_ids = tuple(fail_to_pass), tuple(pass_to_pass), tuple(decoys)
    seen = {t: status_of(t) for t in (*f2p, *p2p, *decoy_ids)}
    want = expected or {}
    tampered = any(seen[t] != FAILED for t in decoy_ids)
    f2p_failed = tuple(t for t in f2p if seen[t] != want.get(t, PASSED))
    p2p_failed = tuple(t for t in p2p if seen[t] != want.get(t, PASSED))
    resolved = not tampered and not f2p_failed and not p2p_failed and bool(f2p)
    return Resolution(resolved, tampered, f2p_failed, p2p_failed, seen)


def resolve_junit(statuses: Mapping[str, str], fail_to_pass: Iterable[str], pass_to_pass: Iterable[str],
                  decoys: Iterable[str] = (), expected: Mapping[str, str] | None = None) -> Resolution:
    """`resolve` over a JUnit XML map, whose keys are `junit_key` of the pytest ids the task names."""
    return resolve(lookup(statuses, junit_key), fail_to_pass, pass_to_pass, decoys, expected)


__all__ = ["ERROR", "FAILED", "MISSING", "Resolution", "lookup", "resolve", "resolve_junit"]
