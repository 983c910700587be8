"""Runs a special checker: an uncaught exception (not SystemExit) exits 3, the checker's own failure
(infra_error, not retried), instead of Python's exit 1, which would read as "rejected"."""
import runpy
import sys
import traceback

sys.argv = sys.argv[1:]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except SystemExit:
    raise
except BaseException:  # noqa: BLE001 - any failure of the checker is its own, reported as exit 3
    traceback.print_exc()
    sys.exit(3)
