#!/usr/bin/env bash
# `make test`'s suite, and its failed tests once more, alone (docs/architecture.md "Gates").
# Two phases: every test not marked `serial`, WORKERS at once (pytest-xdist, a whole file per worker,
# so a module's pools and servers are made once, in one worker), then the `serial` ones alone: those
# that assert on host-wide state another worker changes (Docker containers, runsc processes, reaping)
# or on timing another worker's load breaks (pyproject.toml's marker). PARALLEL=0 runs the whole suite
# serially in one pytest, as before (the way for arguments that hold their own -m). A few tests time
# sandboxes under the load of the servers, containers and pods the suite itself runs, and one of them
# failed in several clean-clone runs, a different one each time, and passed alone. So a run whose
# failures are few (at most MAX_AGAIN, both phases together) runs just those again, alone, and passes
# only if they all pass then; the first run's failures stay in the log, named as such. More failures
# than that, or a leaked sandbox (tests/conftest.py), are a break: no second run. Each phase writes its
# JUnit report (.pytest_cache/junit-phase1.xml, -phase2.xml): every test's time, to order files by.
set -uo pipefail
BIN=${BIN:-.venv/bin}
MAX_AGAIN=${MAX_AGAIN:-5}
PARALLEL=${PARALLEL:-1}
WORKERS=${WORKERS:-2}
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
LASTFAILED=.pytest_cache/v/cache/lastfailed
rm -f "$LASTFAILED"  # this run's failures only: each phase adds its own (pytest's cache keeps the other's)

failed_count() {
    "$BIN/python" - <<'PY'
import json, pathlib
p = pathlib.Path(".pytest_cache/v/cache/lastfailed")
print(len(json.loads(p.read_text())) if p.exists() else 0)
PY
}

broken() {  # a failed run with no failed test (tests/conftest.py's session checks), or too many failures
    echo "make test: pytest exited $1 with $2 failed tests; a run once more is only for 1 to $MAX_AGAIN" >&2
    grep -E "^sandbox containers left running|INTERNALERROR|^ERROR " "$LOG" | head -20 >&2
    exit 1
}
if [ "$PARALLEL" != 0 ] && ! "$BIN/python" -c 'import xdist' 2>/dev/null; then
    echo "make test: pytest-xdist is not installed (the dev extra): one serial run" >&2
    PARALLEL=0
fi
if [ "$PARALLEL" = 0 ]; then
    "$BIN/python" -m pytest -q -rs --durations=40 "$@" 2>&1 | tee "$LOG"
    rc=${PIPESTATUS[0]}
else
    echo "make test: phase 1 of 2, the tests not marked serial, $WORKERS at once" >&2
    "$BIN/python" -m pytest -q -rs --durations=40 -n "$WORKERS" --dist loadfile -m "not serial" \
        --junitxml=.pytest_cache/junit-phase1.xml "$@" 2>&1 | tee "$LOG"
    rc=${PIPESTATUS[0]}
    [ "$rc" -eq 5 ] && rc=0  # the selection held serial tests only
    [ "$rc" -gt 1 ] && { echo "make test: phase 1: pytest exited $rc (interrupted, internal or usage error)" >&2; exit "$rc"; }
    before=$(failed_count)
    { [ "$rc" -ne 0 ] && [ "$before" -eq 0 ]; } || [ "$before" -gt "$MAX_AGAIN" ] && broken "$rc" "$before"
    echo "make test: phase 2 of 2, the tests marked serial, alone" >&2
    "$BIN/python" -m pytest -q -rs --durations=40 -m serial --junitxml=.pytest_cache/junit-phase2.xml "$@" 2>&1 | tee -a "$LOG"
    rc2=${PIPESTATUS[0]}
    [ "$rc2" -eq 5 ] && rc2=0  # the selection held no serial test
    [ "$rc2" -ne 0 ] && [ "$(failed_count)" -eq "$before" ] && broken "$rc2" 0
    [ "$rc" -eq 0 ] && rc=$rc2
fi
[ "$rc" -eq 0 ] && exit 0
failed=$(failed_count)
{ [ "$failed" -eq 0 ] || [ "$failed" -gt "$MAX_AGAIN" ]; } && broken "$rc" "$failed"
# a leak (tests/conftest.py) is the session's, whatever its tests did: not one to run once more
grep -q "^sandbox containers left running" "$LOG" && broken "$rc" "$failed"
echo "make test: the $failed tests that failed above, once more, alone:" >&2
"$BIN/python" -c 'import json; print("\n".join(json.load(open(".pytest_cache/v/cache/lastfailed"))))' >&2
exec "$BIN/python" -m pytest -q -rs --last-failed --last-failed-no-failures none "$@"
