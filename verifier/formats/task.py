"""Our own task schema (docs/tasks.md "Task schema"): a row with `kind` is already a task."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

NAME = "task"


def detect(row: Mapping[str, Any]) -> bool:
    return row.get("kind") is not None


def to_task(row: Mapping[str, Any], completion: str) -> dict:
    return {**row, "completion": completion} if "completion" in row else dict(row)
