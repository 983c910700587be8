"""Execute's shapes on the wire, and a tool call's files: what the front ends, the sessions and the client share.

An Execute request's keys and its response's, to and from protobuf (docs/service.md "Execute"), and
the rule for the files of one tool call's working directory (`check_files`, also a session's). The
client decodes these too, and a client-only install has no front ends, so they live here, beside the
engine; turning a request into a task and a result into a response is the front ends' (verifier/api/execute.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sandbox.contract import EXECUTE_MAX_FILE_NAME_BYTES, EXECUTE_MAX_FILES, TaskError
from sandbox.languages import LANGUAGES
from verifier.v1 import verifier_pb2 as pb

# Its limits (files, output heads) and statuses (EXECUTE_STATUSES) are the contract's (sandbox/contract.py):
# an Execute request's files are one tool call's working directory, not a graded task's support files.
REQUEST_KEYS = frozenset(pb.ExecuteRequest.DESCRIPTOR.fields_by_name)
RESPONSE_KEYS = tuple(pb.ExecuteResponse.DESCRIPTOR.fields_by_name)
_RESERVED = {"harness.py"}  # written by the sandbox itself


def request_from_proto(request: pb.ExecuteRequest) -> dict[str, Any]:
    """The wire request as the dict the HTTP port takes (proto defaults are the JSON defaults)."""
    out = {name: getattr(request, name) for name in REQUEST_KEYS}
    out["files"] = dict(request.files)
    return out


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


def response_to_proto(response: Mapping[str, Any]) -> pb.ExecuteResponse:
    return pb.ExecuteResponse(**{k: v for k, v in response.items() if v is not None})


def response_from_proto(message: pb.ExecuteResponse) -> dict[str, Any]:
    out = {name: getattr(message, name) for name in RESPONSE_KEYS}
    out["exit_code"] = message.exit_code if message.HasField("exit_code") else None
    return out
