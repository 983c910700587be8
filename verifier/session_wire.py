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
