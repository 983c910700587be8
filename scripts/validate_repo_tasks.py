"""Validates every corpus task three ways on the service's own path (docs/repo-tasks.md "The corpus"):
the environments built by `verifier env build` from the corpus's bundles, then each task graded as a
`repo` task by the in-process grader (CodeGrader.grade_repo, as a server runs it) on each backend. The
gold patch must be accepted; an empty patch and a partial fix (tests/repo_corpus.py `wrong_patch`)
must be wrong_answer with the tests run (refused before running checks nothing: a wrong verdict too).
One line per task (the three verdicts, each with its seconds), then a summary per backend; exit 1 on
any wrong verdict.

    python scripts/validate_repo_tasks.py                      # every row, on docker then gvisor
    python scripts/validate_repo_tasks.py --backend gvisor ID  # that row only, on gVisor
    python scripts/validate_repo_tasks.py --environments DIR   # builds kept in DIR (cached by content hash)
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
from repo_corpus import ROWS, checks, recipe  # noqa: E402

from sandbox import SandboxConfig  # noqa: E402
from sandbox.build import build_images  # noqa: E402
from sandbox.contract import parse_task  # noqa: E402
from sandbox.environments import build_all  # noqa: E402
from sandbox.sync import SyncGrader  # noqa: E402


def build(rows: list[dict], environments: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.monotonic()
        build_all([recipe(r, Path(tmp)) for r in rows], str(environments), progress=lambda _m: None)
    print(f"env build: {len(rows)} environments in {time.monotonic() - t0:.1f} s", flush=True)


def judged(name: str, result: dict, resolves: bool) -> tuple[str, bool]:
    """(the verdict as printed, whether it is right): refused or unrun patches are named with their detail."""
    verdict = result["verdict"]
    ran = bool(result.get("tests"))
    right = verdict == "accepted" if resolves else verdict == "wrong_answer" and ran
    text = verdict if ran else f"{verdict}(not run: {result.get('detail', '')[:70]})"
    return f"{name}={text}", right


async def one_row(grader, row: dict, environments: Path, jobs: asyncio.Semaphore) -> tuple[str, int]:
    async def timed(name: str, task: dict, resolves: bool) -> tuple[str, bool]:
        t0 = time.monotonic()
        result = await grader.grade_repo(parse_task(task))
        text, right = judged(name, result, resolves)
        return f"{text} ({time.monotonic() - t0:.1f}s)", right

    async with jobs:
        done = await asyncio.gather(*(timed(*c) for c in checks(row, environments)))
    wrong = sum(not right for _, right in done)
    line = " ".join([row["instance_id"], *(text for text, _ in done)]) + (" WRONG" if wrong else "")
    return line, wrong


def on_backend(backend: str, rows: list[dict], environments: Path, jobs: int) -> int:
    config = SandboxConfig(backend=backend, languages=("python", "go"), pool_size=1, repo_environments=str(environments),
                           pool_name=f"validate-repo-{backend}", repo_pool_size=3, repo_warm_environments=max(1, jobs))
    if backend == "gvisor":  # the languages' root filesystems (`make rootfs`): instant when they exist
        build_images(config.languages, config=config, rootfs_dir=config.rootfs_dir, progress=lambda _m: None)
    t0 = time.monotonic()
    with SyncGrader(config) as g:
        if not g.grader.available:
            print(f"[{backend}] sandbox unavailable: {g.grader.unavailable_reason()}", flush=True)
            return len(rows)

        async def all_rows() -> int:
            gate, bad = asyncio.Semaphore(jobs), 0
            for next_done in asyncio.as_completed([one_row(g.grader, r, environments, gate) for r in rows]):
                line, wrong = await next_done
                print(f"[{backend}] {line}", flush=True)
                bad += wrong
            await g.grader.settled()
            return bad

        bad = g.call(all_rows())
    print(f"[{backend}] {len(rows)} tasks, {bad} wrong verdicts, {time.monotonic() - t0:.0f} s", flush=True)
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ids", nargs="*", help="instance ids (default: every row of tests/data/repo_tasks/tasks.jsonl)")
    ap.add_argument("--backend", choices=("docker", "gvisor", "both"), default="both")
    ap.add_argument("--environments", type=Path, help="where the builds go (default: a temporary folder)")
    ap.add_argument("--jobs", type=int, default=2, help="tasks graded at once (their three checks run together)")
    args = ap.parse_args(argv)
    unknown = [i for i in args.ids if i not in ROWS]
    if unknown:
        ap.error(f"no such task: {', '.join(unknown)}")
    rows = [ROWS[i] for i in args.ids] if args.ids else list(ROWS.values())
    backends = ("docker", "gvisor") if args.backend == "both" else (args.backend,)
    with tempfile.TemporaryDirectory() as tmp:
        environments = args.environments or Path(tmp)
        build(rows, environments)
        bad = sum(on_backend(b, rows, environments, args.jobs) for b in backends)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
