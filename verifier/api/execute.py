"""Execute: run one program on one stdin, with files, and return what it printed (docs/service.md "Execute").

For tool-using rollouts. The request becomes an ordinary code task (one test, no expected output)
validated by the same rules as grading (sandbox/contract.py CodeTask: languages, time and memory limits), so it
runs in the same warm, hardened sandboxes under the same admission. Every front end that runs one
program builds its task here and maps its result here: gRPC Execute, HTTP ``POST /v1/execute``, and
verl's ``POST /run_code`` (verifier/api/trainer_routes.py, which translates the request and the
response to SandboxFusion's shapes), so one request means the same thing on each; a bad request
raises TaskError naming the field (``language``, ``files["../x"]``). The engine returns the run's
result; the reply is built here, by the front ends. The wire shapes the client shares are
verifier/execute_wire.py's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sandbox.contract import BY_NAME, EXECUTE_DEFAULT_OUTPUT_BYTES, HOST_FAULTS, CodeTask, Limits, TaskError
from sandbox.languages import LANGUAGES
from verifier.execute_wire import REQUEST_KEYS, check_files


def _string(body: Mapping, key: str, limit: int) -> str:
    value = body.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise TaskError(key, f"must be a string, got {type(value).__name__}")
    try:
        size = len(value.encode("utf-8"))
    except UnicodeEncodeError:
        raise TaskError(key, "is not valid UTF-8 (lone surrogate)") from None
    if size > limit:
        raise TaskError(key, f"exceeds {limit} bytes (--max-field-bytes)")
    return value


def execute_task(body: Any, limits: Limits, max_output_bytes: int | None = None) -> tuple[CodeTask, dict[str, bytes]]:
    """(code task for the sandbox, files) from a request; raises TaskError naming the field. The one
    request builder of a run of one program: gRPC Execute, HTTP /v1/execute and verl's /run_code.

    `limits`: the server's (Engine.limits()): its served languages' maxima, so a time or memory
    limit is checked against the same maxima as a graded task's, and its max_field_bytes. `max_output_bytes`: the largest
    output head a caller may ask for (max_field_bytes unless the front end says otherwise: /run_code
    asks for all of stdout, up to the sandbox's output limit)."""
    if not isinstance(body, Mapping):
        raise TaskError("body", "must be a JSON object")
    languages, max_field_bytes = limits.languages, limits.max_field_bytes
    for key in body:
        if key not in REQUEST_KEYS:
            raise TaskError(str(key), f"unknown field (allowed: {sorted(REQUEST_KEYS)})")
    language = _string(body, "language", 64) or "python"
    if language not in languages or language not in LANGUAGES:
        raise TaskError("language", f"must be one of {sorted(languages)}, got {language!r}")
    code = _string(body, "code", max_field_bytes)
    if not code.strip():
        raise TaskError("code", "must not be empty")
    stdin = _string(body, "stdin", max_field_bytes)
    head, most = body.get("max_output_bytes") or EXECUTE_DEFAULT_OUTPUT_BYTES, max_output_bytes or max_field_bytes
    if isinstance(head, bool) or not isinstance(head, int) or not 0 < head <= most:
        raise TaskError("max_output_bytes", f"must be a whole number in [0, {most}]")
    files = check_files(body.get("files"), language, max_field_bytes)

    raw = {"kind": "code", "language": language, "completion": code, "tests": [{"stdin": stdin, "expected_stdout": None}],
           "time_limit_s": body.get("time_limit_s"), "memory_limit_mb": body.get("memory_limit_mb"),
           "stop_on_first_failure": True, "return_output": True, "output_head_bytes": head, "id": "execute",
           "as_given": True}  # run as sent: fences and </think> in it are the program's (sandbox/contract.py CodeTask.as_given)
    # Prefix "": a field error names the request's own field (`time_limit_s`), not an inner task's.
    return CodeTask.from_dict(raw, "", wire=False, limits=languages), files


def execute_response(result: Mapping[str, Any]) -> dict:
    """A code task's result (sandbox/job.py, with output heads; Engine.execute adds queue_s and exec_s) as
    an Execute response: the one answer mapper of a run of one program (/run_code translates this one)."""
    queue_s, exec_s = float(result.get("queue_s") or 0.0), float(result.get("exec_s") or 0.0)
    out: dict[str, Any] = {"status": "infra_error", "stdout": "", "stderr": "", "stdout_truncated": False,
                           "stderr_truncated": False, "exit_code": None, "signal": 0, "cpu_s": 0.0, "wall_s": 0.0,
                           "peak_memory_kb": 0, "detail": str(result.get("detail") or ""), "queue_s": queue_s,
                           "exec_s": exec_s}
    verdict = result.get("verdict")
    if verdict == "compile_error":  # the compiler's (or Python's syntax check's) words are the program's stderr
        return {**out, "status": "compile_error", "stderr": out["detail"]}
    tests = result.get("tests") or []
    if verdict in HOST_FAULTS or not tests:
        return out
    test = tests[0]
    known = BY_NAME.get(test["verdict"])  # its status: the contract's execute_status column
    return {**out, "status": known.execute_status if known else "runtime_error", "stdout": test.get("stdout", ""),
            "stderr": test.get("stderr", ""), "stdout_truncated": bool(test.get("stdout_truncated")),
            "stderr_truncated": bool(test.get("stderr_truncated")), "exit_code": test.get("exit_code"),
            "signal": int(test.get("signal") or 0), "cpu_s": float(test.get("time_s") or 0.0),
            "wall_s": float(test.get("wall_s") or 0.0), "peak_memory_kb": int(test.get("max_rss_kb") or 0),
            "detail": str(test.get("detail") or "")}
