"""Resolution of a repository task from its tests' statuses, by SWE-bench's rules
(docs/repo-tasks.md "Verdicts"; swebench 5.0.2 harness/grading.py, `test_passed`,
`test_maintained`, `test_failed`, `get_resolution_status`).

- A FAIL_TO_PASS test passes when its status is PASSED or XFAIL; SKIPPED, FAILED, ERROR, XPASS or
  absent (it never ran, or its id was not reported) is a failure.
- A PASS_TO_PASS test is maintained when PASSED, XFAIL or SKIPPED (a skip is not a regression).
- Resolved: every FAIL_TO_PASS test passes and every PASS_TO_PASS test is maintained. SWE-bench's
  partial resolution scores nothing here: a reward is for the task done.
- A decoy (a real test with one assertion inverted, which no honest patch makes pass) that is
  reported passing marks the run tampered: not resolved, whatever else passed.

SWE-bench keeps a prefix fallback for 676 truncated ids in its Verified split (`_resolve_case`);
ids here are exact, so a test is looked up by its exact id only.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from .results import ERROR, FAILED, PASSED, SKIPPED, XFAIL, junit_key

F2P_PASSING = frozenset({PASSED, XFAIL})
P2P_PASSING = frozenset({PASSED, XFAIL, SKIPPED})
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
        if self.tampered:
            return "tampered: a decoy test that no correct patch passes was reported passing"
        if self.resolved:
            return "resolved: every FAIL_TO_PASS test passes and every PASS_TO_PASS test still passes"
        parts = []
        for name, failed in (("FAIL_TO_PASS", self.f2p_failed), ("PASS_TO_PASS", self.p2p_failed)):
            if failed:
                shown = ", ".join(f"{t} ({self.statuses[t]})" for t in failed[:3])
                more = f" and {len(failed) - 3} more" if len(failed) > 3 else ""
                parts.append(f"{len(failed)} {name} failing: {shown}{more}")
        return "not resolved: " + "; ".join(parts)


def lookup(statuses: Mapping[str, str], key: Callable[[str], str] | None = None) -> Callable[[str], str]:
    """A test id -> its status in a report's map (MISSING when absent); `key` maps an id to the
    report's naming (`results.junit_key` for JUnit XML)."""
    return lambda test_id: statuses.get(key(test_id) if key else test_id, MISSING)


def resolve(status_of: Callable[[str], str], fail_to_pass: Iterable[str], pass_to_pass: Iterable[str],
            decoys: Iterable[str] = ()) -> Resolution:
    """Resolution by the module's rules; `status_of` is `lookup(...)` over the run's report."""
    f2p, p2p, decoy_ids = tuple(fail_to_pass), tuple(pass_to_pass), tuple(decoys)
    seen = {t: status_of(t) for t in (*f2p, *p2p, *decoy_ids)}
    tampered = any(seen[t] in F2P_PASSING for t in decoy_ids)
    f2p_failed = tuple(t for t in f2p if seen[t] not in F2P_PASSING)
    p2p_failed = tuple(t for t in p2p if seen[t] not in P2P_PASSING)
    resolved = not tampered and not f2p_failed and not p2p_failed and bool(f2p)
    return Resolution(resolved, tampered, f2p_failed, p2p_failed, seen)


def resolve_junit(statuses: Mapping[str, str], fail_to_pass: Iterable[str], pass_to_pass: Iterable[str],
                  decoys: Iterable[str] = ()) -> Resolution:
    """`resolve` over a JUnit XML map, whose keys are `junit_key` of the pytest ids the task names."""
    return resolve(lookup(statuses, junit_key), fail_to_pass, pass_to_pass, decoys)


__all__ = ["ERROR", "FAILED", "F2P_PASSING", "MISSING", "P2P_PASSING", "Resolution", "lookup", "resolve", "resolve_junit"]
