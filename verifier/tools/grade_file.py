"""`verifier grade`: grade a JSONL file of tasks, in-process or through a server.

Output lines are the input objects plus `verdict`, `score`, `detail`, `extracted`, `queue_s`, `exec_s`
(and `verifier_tests`, the per-test results, for code and repo tasks), in input order; the input's own columns are
never overwritten, so a graded file graded again gives the same verdicts (RESULT_KEYS are dropped
from an input line before it is read). With `--format task` (the default) a line is a task (docs/tasks.md
"Task schema") plus, optionally, PASS_THROUGH keys carried to the output; any other unknown key is an
error naming it. With a dataset format (`--format apps`, `--format auto`; docs/datasets.md "Dataset formats") a
line is a dataset row plus `completion`: verifier/formats makes the task, every column passes through.
A malformed line is reported with its line number and skipped; the run still writes every other
result and exits non-zero.

Exit status (docs/datasets.md "CLI"): 0 every line graded; 1 some lines malformed; 3 an item got a verdict named
by --fail-on; 4 nothing could be graded (every item infra_error or error: a dead sandbox, an engine
failure), so a script never mistakes an outage for a run.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING

from tqdm import tqdm

from sandbox.contract import UNGRADED, Limits, MathTask, RepoTask, Task, TaskError, parse_task
from verifier import formats
from verifier.formats import swebench
from verifier.config import ServerConfig
from verifier.tools.report import GROUP_CANDIDATES
from verifier.schema import limits_from_info

if TYPE_CHECKING:
    from verifier.client import ClientConfig

CHUNK = 256
EXIT_MALFORMED, EXIT_FAIL_ON, EXIT_NOTHING_GRADED = 1, 3, 4
# Verdicts that say the item was not graded (the engine or the sandbox failed), not how good it was.
# What a line may carry besides the task, copied to its output line untouched: "meta" (anything) and
# the problem columns `verifier report` groups by. Any other unknown key is a line error naming it.
PASS_THROUGH = frozenset(("meta", *GROUP_CANDIDATES))
# What this command adds to a line: dropped from an input line, so its own output can be graded again.
RESULT_KEYS = frozenset(("verdict", "score", "detail", "extracted", "queue_s", "exec_s", "verifier_tests"))


class Unreachable(Exception):
    """The server did not answer GetServerInfo: nothing was sent, nothing graded."""


@dataclass
class Line:
    number: int
    obj: dict
    model: Task  # the line's task, decoded once (read_lines): graded in-process, or sent by the client

    @property
    def kind(self) -> str:
        return "math" if isinstance(self.model, MathTask) else "repo" if isinstance(self.model, RepoTask) else "code"


@dataclass
class Summary:
    """Verdict counts and scores by kind, printed at the end."""

    counts: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    scores: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    bad_lines: int = 0

    def add(self, kind: str, result: dict) -> None:
        self.counts[kind][result["verdict"]] += 1
        self.scores[kind].append(result["score"])

    def render(self) -> str:
        rows = [f"{'kind':<6} {'verdict':<14} {'count':>7}"]
        for kind in sorted(self.counts):
            for verdict, n in self.counts[kind].most_common():
                rows.append(f"{kind:<6} {verdict:<14} {n:>7}")
            scores = self.scores[kind]
            rows.append(f"{kind:<6} {'mean score':<14} {sum(scores) / len(scores):>7.3f}  ({len(scores)} items)")
        if self.bad_lines:
            rows.append(f"malformed lines: {self.bad_lines} (see messages above)")
        return "\n".join(rows)

    def verdicts(self) -> Counter:
        """Verdict counts over all kinds."""
        return sum(self.counts.values(), Counter())

    def exit_status(self, fail_on: frozenset[str]) -> tuple[int, str]:
        """The run's exit status and, when not 0, the reason (module docstring)."""
        verdicts = self.verdicts()
        if verdicts and set(verdicts) <= UNGRADED:
            return EXIT_NOTHING_GRADED, f"nothing could be graded: all {sum(verdicts.values())} items are infra_error or error"
        hit = sorted(v for v in fail_on if verdicts[v])
        if hit:
            return EXIT_FAIL_ON, "--fail-on: " + ", ".join(f"{verdicts[v]} {v}" for v in hit)
        if self.bad_lines:
            return EXIT_MALFORMED, ""
        return 0, ""


def _task_fields(obj: dict, fmt: str = "task", environments: str = "") -> dict:
    """The task a line asks for: the line itself less PASS_THROUGH and RESULT_KEYS (our schema), or
    what the dataset format makes of the row (--format; a row with `kind` under auto is our schema).
    A SWE-bench row gets the test command and report its environment recorded under `environments`
    (the in-process engine's; docs/repo-tasks.md "SWE-bench rows") below its own columns."""
    row = {k: v for k, v in obj.items() if k not in RESULT_KEYS}
    if fmt == "task" or (fmt == "auto" and row.get("kind") is not None):
        return {k: v for k, v in row.items() if k not in PASS_THROUGH}
    if fmt == "swebench" or (fmt == "auto" and formats.detect(row) == "swebench"):
        row = dict(swebench.with_environment_defaults(row, environments))
    return formats.to_task(row, fmt)


def read_lines(stream: IO[str], limits: Limits, errors: IO[str], fmt: str = "task",
               environments: str = "") -> Iterator[Line | int]:
    """Yields a Line per good line, or the line number of a bad one (after reporting it). A line is the
    task itself, so its field errors name fields bare (prefix "": `line 4: profile: ...`); each is decoded
    and held to the server's `limits` in one pass (sandbox/contract.py parse_task). `environments`: the
    folder of built repo environments, when grading in-process (_task_fields)."""
    for number, raw in enumerate(stream, start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
            if not isinstance(obj, dict):
                raise TaskError("line", "must be a JSON object")
            # ids are line numbers inside; PASS_THROUGH keys go to the output, never graded
            model = parse_task({**_task_fields(obj, fmt, environments), "id": str(number)}, "", limits)
        except (ValueError, OverflowError, TypeError) as exc:  # JSON, TaskError, FormatError
            print(f"line {number}: {exc}", file=errors)
            yield number
            continue
        yield Line(number, obj, model)


def _chunks(lines: Iterator[Line | int], summary: Summary) -> Iterator[list[Line]]:
    chunk: list[Line] = []
    for item in lines:
        if isinstance(item, int):
            summary.bad_lines += 1
            continue
        chunk.append(item)
        if len(chunk) >= CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _output(line: Line, result: dict) -> dict:
    out = {**line.obj, "verdict": result["verdict"], "score": result["score"],
           "detail": result["detail"], "extracted": result["extracted"],
           "queue_s": result.get("queue_s", 0.0), "exec_s": result.get("exec_s", 0.0)}
    if line.kind != "math":  # code: each test case; repo: each listed test's status
        out["verifier_tests"] = result["tests"]
    return out


async def _grade_chunks(chunks, grade_chunk, out: IO[str], summary: Summary, bar: tqdm) -> None:
    for chunk in chunks:
        results = await grade_chunk(chunk, bar)
        for line, result in zip(chunk, results):
            summary.add(line.kind, result)
            out.write(json.dumps(_output(line, result), ensure_ascii=False) + "\n")
        out.flush()


def grade_file(path: str, out: IO[str], server: str | None, config: ServerConfig,
               client: ClientConfig | None = None, fail_on: frozenset[str] = frozenset(),
               errors: IO[str] = sys.stderr, fmt: str = "task") -> int:
    """Grade `path` into `out` (through `server` with `client` settings, else in-process with `config`),
    reading lines in format `fmt` (module docstring); returns the exit status (module docstring)."""
    summary = Summary()
    stream = sys.stdin if path == "-" else open(path, encoding="utf-8")
    bar = tqdm(desc="grading", unit="item", file=sys.stderr, dynamic_ncols=True)
    try:
        if server:
            asyncio.run(_via_server(server, client, stream, out, summary, bar, errors, fmt))
        else:
            _in_process(config, stream, out, summary, bar, errors, fmt)
    except Unreachable as e:
        bar.close()
        print(f"exit {EXIT_NOTHING_GRADED}: nothing could be graded: {e}", file=errors)
        return EXIT_NOTHING_GRADED
    finally:
        bar.close()
        if stream is not sys.stdin:
            stream.close()
    print(summary.render(), file=errors)
    status, reason = summary.exit_status(fail_on)
    if reason:
        print(f"exit {status}: {reason}", file=errors)
    return status


def _in_process(config: ServerConfig, stream, out, summary: Summary, bar: tqdm, errors, fmt: str) -> None:
    from verifier.engine import Engine

    engine = Engine(config)
    engine.start_workers()

    async def run() -> None:
        await engine.start()
        async def grade_chunk(chunk: list[Line], bar: tqdm) -> list[dict]:
            by_id = {}
            async for r in engine.grade_stream([line.model for line in chunk]):
                by_id[r["id"]] = r
                bar.update(1)
            return [by_id[line.model.id] for line in chunk]

        try:
            lines = read_lines(stream, engine.limits(), errors, fmt, config.sandbox.repo_environments)
            await _grade_chunks(_chunks(lines, summary), grade_chunk, out, summary, bar)
        finally:
            await engine.close()

    asyncio.run(run())


async def _via_server(server: str, settings: ClientConfig | None, stream, out, summary: Summary, bar: tqdm,
                      errors, fmt: str) -> None:
    from verifier.client import AsyncVerifierClient, ClientConfig

    import grpc

    settings = settings or ClientConfig(timeout_s=3600)
    client = AsyncVerifierClient(server, settings)
    try:
        info = await client.server_info(timeout_s=min(10.0, settings.timeout_s))
    except grpc.aio.AioRpcError as e:
        await client.close()
        raise Unreachable(f"cannot reach {server}: {e.code().name} {e.details() or ''}".strip()) from None

    async def grade_chunk(chunk: list[Line], bar: tqdm) -> list[dict]:
        results = await client.grade([line.model for line in chunk])
        bar.update(len(chunk))
        return results

    try:
        lines = read_lines(stream, limits_from_info(info), errors, fmt)
        await _grade_chunks(_chunks(lines, summary), grade_chunk, out, summary, bar)
    finally:
        await client.close()
