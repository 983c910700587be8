"""Where the engine reads a math answer (verifier/engine.py Engine._read; docs/architecture.md "Process model").

Reading is linear but a 1 MiB completion takes about 0.1 s, and a call may hold 64 of them: read on the event loop,
they stalled health checks and every other call (bench/event_loop_probe.py: 1.6 s worst health latency before, about
0.1 s after). A long completion is therefore read in a thread, a short one on the loop (so it never queues behind long
ones). Real engine, real math workers, real answer reader; the reader is wrapped only to see where it ran and to hold
a long read until the loop has shown that it runs meanwhile (no timing: a read on the loop would never see the event).
"""
from __future__ import annotations

import asyncio
import threading

import pytest

from verifier import math as vmath
from verifier.config import ServerConfig
from verifier.engine import _READ_INLINE_CHARS, Engine

_PROSE = "We add the two parts and check each step again. "
LONG = _PROSE * (_READ_INLINE_CHARS // len(_PROSE) + 2)
_ANSWER = "So \\boxed{6}."
EDGE = _PROSE * ((_READ_INLINE_CHARS - len(_ANSWER)) // len(_PROSE))
EDGE += " " * (_READ_INLINE_CHARS - len(EDGE) - len(_ANSWER)) + _ANSWER  # the longest completion read on the loop


async def _grade(tasks: list[dict]) -> dict[str, str]:
    engine = Engine(ServerConfig(workers=1, code=False))
    engine.start_workers()
    await engine.start()
    try:
        return {r["id"]: r["verdict"] for r in await engine.grade(tasks)}
    finally:
        await engine.close()


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[int, str]], threading.Event]:
    """Each read's (completion length, thread name); a long read first waits for `loop_ran` (set by the loop)."""
    seen: list[tuple[int, str]] = []
    loop_ran = threading.Event()
    real = vmath.extract_answer

    def spy(completion: str, *args: object) -> vmath.Extraction:
        seen.append((len(completion), threading.current_thread().name))
        if len(completion) > _READ_INLINE_CHARS:
            assert loop_ran.wait(60), "the event loop did not run while a long completion was read"
        return real(completion, *args)

    monkeypatch.setattr(vmath, "extract_answer", spy)
    return seen, loop_ran


def test_a_long_completion_is_read_off_the_loop_and_graded(reads: tuple[list, threading.Event]) -> None:
    seen, loop_ran = reads

    async def run() -> dict[str, str]:
        async def mark() -> None:
            await asyncio.sleep(0)
            loop_ran.set()
        marker = asyncio.ensure_future(mark())
        verdicts = await _grade([
            {"id": "right", "kind": "math", "completion": LONG + "So \\boxed{6}.", "gold": "6"},
            {"id": "near-miss", "kind": "math", "completion": LONG + "So \\boxed{7}.", "gold": "6"},
            {"id": "rewrite", "kind": "math", "completion": LONG + "So \\boxed{\\frac{12}{2}}.", "gold": "6"},
        ])
        await marker
        return verdicts

    assert asyncio.run(run()) == {"right": "correct", "near-miss": "incorrect", "rewrite": "correct"}
    assert len(seen) == 3 and all(name.startswith("math-read") for _, name in seen), seen


def test_a_short_completion_is_read_on_the_loop(reads: tuple[list, threading.Event]) -> None:
    seen, _ = reads
    loop_thread = threading.current_thread().name  # asyncio.run runs the loop in this thread
    verdicts = asyncio.run(_grade([
        {"id": "right", "kind": "math", "completion": "So \\boxed{6}.", "gold": "6"},
        {"id": "near-miss", "kind": "math", "completion": "So \\boxed{6.1}.", "gold": "6"},
        {"id": "edge", "kind": "math", "completion": EDGE, "gold": "6"}]))
    assert verdicts == {"right": "correct", "near-miss": "incorrect", "edge": "correct"}
    assert [name for _, name in seen] == [loop_thread] * 3, seen
