"""Execute: run one program on one stdin, with files, and return what it printed (docs/service.md "Execute").

For tool-using rollouts. The request becomes an ordinary code task (one test, no expected output)
validated by the same rules as grading (sandbox/contract.py CodeTask: languages, time and memory limits), so it
runs in the same warm, hardened sandboxes under the same admission. Both front ends (gRPC Execute,
HTTP ``POST /v1/execute``) and the client share this module, so one request means the same thing
on each; a bad request raises TaskError naming the field (``language``, ``files["../x"]``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sandbox.contract import (BY_NAME, EXECUTE_DEFAULT_OUTPUT_BYTES, EXECUTE_MAX_FILE_NAME_BYTES, EXECUTE_MAX_FILES,
                              CodeTask, TaskError)
from sandbox.languages import LANGUAGES
from verifier.schema import _language_limits
from verifier.v1 import verifier_pb2 as pb

# Its limits (files, output heads) and statuses (EXECUTE_STATUSES) are the contract's (sandbox/contract.py):
# an Execute request's files are one tool call's working directory, not a graded task's support files.
REQUEST_KEYS = frozenset(pb.ExecuteRequest.DESCRIPTOR.fields_by_name)
RESPONSE_KEYS = tuple(pb.ExecuteResponse.DESCRIPTOR.fields_by_name)
_RESERVED = {"harness.py"}  # written by the sandbox itself


def request_from_proto(request: pb.ExecuteRequest) -> dict:
    """The wire request as the dict the HTTP port takes (proto defaults are the JSON defaults)."""
    out = {name: getattr(request, name) for name in REQUEST_KEYS}
    out["files"] = dict(request.files)
    return out


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


def check_files(files: Any, language: str, max_bytes: int) -> dict[str, bytes]:
    """Plain names in the job's working directory, bounded in count and total bytes. Subdirectories are
    refused, not created: the sandbox's runner writes one flat, fresh directory without following links."""
    if files is None:
        return {}
    if not isinstance(files, Mapping):
        raise TaskError("files", f"must be an object of name -> content, got {type(files).__name__}")
    if len(files) > EXECUTE_MAX_FILES:
        raise TaskError("files", f"{len(files)} files exceed the limit of {EXECUTE_MAX_FILES}")
    source = LANGUAGES[language].source
    out: dict[str, bytes] = {}
    total = 0
    for name, content in files.items():
        where = f"files[{name!r}]"
        if not isinstance(name, str) or not name or name in (".", "..") or any(c in name for c in "/\\\0"):
            raise TaskError(where, "must be a plain file name: relative, no directories, not '.' or '..'")
        if len(name.encode("utf-8", "surrogatepass")) > EXECUTE_MAX_FILE_NAME_BYTES:
            raise TaskError(where, f"name exceeds {EXECUTE_MAX_FILE_NAME_BYTES} bytes")
        compiled = LANGUAGES[language].run == ("./prog",) and name == "prog"  # the compiler's output (c, cpp, rust, go)
        if name in _RESERVED or name == source or compiled or (language == "java" and name.endswith(".java")):
            raise TaskError(where, "is the program's own file name; pick another")
        if not isinstance(content, str):
            raise TaskError(where, f"content must be a string, got {type(content).__name__}")
        try:
            out[name] = content.encode("utf-8")
        except UnicodeEncodeError:
            raise TaskError(where, "is not valid UTF-8 (lone surrogate)") from None
        total += len(out[name])
        if total > max_bytes:
            raise TaskError("files", f"files exceed {max_bytes} bytes in all (--max-field-bytes)")
    return out


def execute_task(body: Any, languages: Mapping[str, Any], max_field_bytes: int) -> tuple[CodeTask, dict[str, bytes]]:
    """(code task for the sandbox, files) from a request; raises TaskError naming the field.

    `languages`: the served languages with their limits (Engine.languages()), so a time or memory
    limit is checked against the same maxima as a graded task's."""
    if not isinstance(body, Mapping):
        raise TaskError("body", "must be a JSON object")
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
    head = body.get("max_output_bytes") or EXECUTE_DEFAULT_OUTPUT_BYTES
    if isinstance(head, bool) or not isinstance(head, int) or not 0 < head <= max_field_bytes:
        raise TaskError("max_output_bytes", f"must be a whole number in [0, {max_field_bytes}]")
    files = check_files(body.get("files"), language, max_field_bytes)

    raw = {"kind": "code", "language": language, "completion": code, "tests": [{"stdin": stdin, "expected_stdout": None}],
           "time_limit_s": body.get("time_limit_s"), "memory_limit_mb": body.get("memory_limit_mb"),
           "stop_on_first_failure": True, "return_output": True, "output_head_bytes": head, "id": "execute",
           "as_given": True}  # run as sent: fences and </think> in it are the program's (sandbox/contract.py CodeTask.as_given)
    # Prefix "": a field error names the request's own field (`time_limit_s`), not an inner task's.
    return CodeTask.from_dict(raw, "", wire=False, limits=_language_limits(languages)), files


def execute_response(result: Mapping[str, Any], queue_s: float = 0.0, exec_s: float = 0.0) -> dict:
    """A code task's result (sandbox/job.py, with output heads) as an Execute response."""
    out: dict[str, Any] = {"status": "infra_error", "stdout": "", "stderr": "", "stdout_truncated": False,
                           "stderr_truncated": False, "exit_code": None, "signal": 0, "cpu_s": 0.0, "wall_s": 0.0,
                           "peak_memory_kb": 0, "detail": str(result.get("detail") or ""), "queue_s": queue_s,
                           "exec_s": exec_s}
    verdict = result.get("verdict")
    if verdict == "compile_error":  # the compiler's (or Python's syntax check's) words are the program's stderr
        return {**out, "status": "compile_error", "stderr": out["detail"]}
    tests = result.get("tests") or []
    if verdict == "infra_error" or not tests:
        return out
    test = tests[0]
    known = BY_NAME.get(test["verdict"])  # its status: the contract's execute_status column
    return {**out, "status": known.execute_status if known else "runtime_error", "stdout": test.get("stdout", ""),
            "stderr": test.get("stderr", ""), "stdout_truncated": bool(test.get("stdout_truncated")),
            "stderr_truncated": bool(test.get("stderr_truncated")), "exit_code": test.get("exit_code"),
            "signal": int(test.get("signal") or 0), "cpu_s": float(test.get("time_s") or 0.0),
            "wall_s": float(test.get("wall_s") or 0.0), "peak_memory_kb": int(test.get("max_rss_kb") or 0),
            "detail": str(test.get("detail") or "")}


def response_to_proto(response: Mapping[str, Any]) -> pb.ExecuteResponse:
    return pb.ExecuteResponse(**{k: v for k, v in response.items() if v is not None})


def response_from_proto(message: pb.ExecuteResponse) -> dict:
    out = {name: getattr(message, name) for name in RESPONSE_KEYS}
    out["exit_code"] = message.exit_code if message.HasField("exit_code") else None
    return out
