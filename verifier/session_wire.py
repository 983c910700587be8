"""A session cell's reply on the wire (docs/sessions.md "Sessions"): one shape for gRPC, HTTP and the client.

Kept apart from verifier/sessions.py, which needs the sandbox (Docker), so the client imports it
without the server's extras.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from verifier.v1 import verifier_pb2 as pb

CREATE_KEYS = frozenset(pb.CreateSessionRequest.DESCRIPTOR.fields_by_name)

def cell_json(reply: Mapping[str, Any]) -> dict[str, Any]:
    """A cell's reply as both front ends send it (the RunCellResponse fields; JSON null for no value/error)."""
    error = reply.get("error") or None
    return {"status": reply["status"], "stdout": reply.get("stdout", ""), "stderr": reply.get("stderr", ""),
            "stdout_truncated": bool(reply.get("stdout_truncated")), "stderr_truncated": bool(reply.get("stderr_truncated")),
            "value": reply.get("value"), "value_truncated": bool(reply.get("value_truncated")),
            "error": {k: str(error.get(k, "")) for k in ("ename", "evalue", "traceback")} if error else None,
            "session_lost": bool(reply.get("lost")), "restored": bool(reply.get("restored")),
            "detail": str(reply.get("detail") or ""), "cpu_s": float(reply.get("cpu_s") or 0.0),
            "wall_s": float(reply.get("wall_s") or 0.0)}


def cell_to_proto(reply: Mapping[str, Any]) -> pb.RunCellResponse:
    out = cell_json(reply)
    error = out.pop("error")
    message = pb.RunCellResponse(**{k: v for k, v in out.items() if v is not None})
    if error:
        message.error.CopyFrom(pb.CellError(**error))
    return message


def cell_from_proto(message: pb.RunCellResponse) -> dict[str, Any]:
    """The JSON shape of a RunCellResponse (the client's CellResult reads it)."""
    out = {name: getattr(message, name) for name in ("status", "stdout", "stderr", "stdout_truncated", "stderr_truncated",
                                                     "value_truncated", "session_lost", "restored", "detail", "cpu_s", "wall_s")}
    out["value"] = message.value if message.HasField("value") else None
    out["error"] = ({"ename": message.error.ename, "evalue": message.error.evalue, "traceback": message.error.traceback}
                    if message.HasField("error") else None)
    return out


def shell_json(reply: Mapping[str, Any]) -> dict[str, Any]:
    """A shell command's reply as both front ends send it (the RunShellResponse fields; exit_code null
    unless the command exited)."""
    code = reply.get("exit_code")
    return {"status": str(reply.get("status", "")), "exit_code": None if code is None else int(code),
            "stdout": reply.get("stdout", ""), "stderr": reply.get("stderr", ""),
            "stdout_truncated": bool(reply.get("stdout_truncated")), "stderr_truncated": bool(reply.get("stderr_truncated")),
            "session_lost": bool(reply.get("lost")), "detail": str(reply.get("detail") or reply.get("error") or ""),
            "cpu_s": float(reply.get("cpu_s") or 0.0), "wall_s": float(reply.get("wall_s") or 0.0)}


def shell_to_proto(reply: Mapping[str, Any]) -> pb.RunShellResponse:
    return pb.RunShellResponse(**{k: v for k, v in shell_json(reply).items() if v is not None})


def shell_from_proto(message: pb.RunShellResponse) -> dict[str, Any]:
    out = {name: getattr(message, name) for name in ("status", "stdout", "stderr", "stdout_truncated", "stderr_truncated",
                                                     "session_lost", "detail", "cpu_s", "wall_s")}
    out["exit_code"] = message.exit_code if message.HasField("exit_code") else None
    return out


def grade_task_from_proto(task: pb.RepoTask) -> dict[str, Any]:
    """A GradeSession's task as the HTTP route's JSON: the fields the caller set (a proto3 default is unset)."""
    out: dict[str, Any] = {}
    for field, value in task.ListFields():
        out[field.name] = value if isinstance(value, (str, bytes, int, float)) else list(value)  # a repeated field
    return out
