"""`verifier sandbox build [LANG...] [--force] [--prune] [--rootfs [DIR]]`, `verifier sandbox run --language L FILE`
and `verifier env build RECIPE... --environments DIR` (docs/repo-tasks.md "Building environments").

`add_subcommands(subparsers)` plugs these into any argparse CLI (verifier/tools/cli.py does); run this
module directly (`python -m sandbox.cli ...`) for the same commands standalone.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys

from .config import SandboxConfig
from .languages import LANGUAGES
from .contract import COMPARATORS, DEFAULT_COMPARE, PASSING


def add_subcommands(subparsers) -> argparse.ArgumentParser:
    """Add `sandbox {build,run}` to an argparse subparsers object; returns the `sandbox` parser."""
    sp = subparsers.add_parser("sandbox", help="build sandbox images, run a program in a sandbox")
    sub = sp.add_subparsers(dest="sandbox_cmd", required=True)
    b = sub.add_parser("build", help="build the per-language images (offline from Debian where no registry)")
    b.add_argument("languages", nargs="*", metavar="LANG",
                   help=f"languages to build (default: all of {', '.join(LANGUAGES)})")
    b.add_argument("--force", action="store_true", help="rebuild even when the recipe's tag exists")
    b.add_argument("--prune", action="store_true",
                   help="also remove older images of the same repositories (other recipe tags created before "
                        "the current ones and used by no container) and, with --rootfs, older root filesystems "
                        "of the same languages that no server on this host holds. Off by default: checkouts "
                        "with different recipes on one Docker daemon need each other's images")
    b.add_argument("--rootfs", nargs="?", const=SandboxConfig().rootfs_dir, default=None, metavar="DIR",
                   help="also export each image's filesystem into DIR/<image>-<hash> for the gVisor and userns backends "
                        "(`--sandbox-backend gvisor --sandbox-rootfs-dir DIR`; copy DIR to hosts without Docker). "
                        f"DIR defaults to {SandboxConfig().rootfs_dir}")
    b.set_defaults(func=cmd_build)
    r = sub.add_parser("run", help="run one program in a sandbox and print the verdict (debugging)")
    r.add_argument("file", help="program source (or a model completion with a fenced block)")
    r.add_argument("--language", "-l", required=True, choices=list(LANGUAGES))
    r.add_argument("--stdin", help="file fed to the program's stdin")
    r.add_argument("--expected", help="file with the expected stdout (compared with --compare)")
    r.add_argument("--compare", default=DEFAULT_COMPARE, choices=list(COMPARATORS))
    r.add_argument("--file", action="append", default=[], metavar="NAME=PATH", dest="files",
                   help="a support file beside the program (repeatable), e.g. --file testlib.h=./testlib.h")
    r.add_argument("--input-file", default="", help="also write stdin to this file in the program's dir")
    r.add_argument("--output-file", default="", help="read the answer from this file instead of stdout")
    r.add_argument("--time-limit", type=float, default=None, help="CPU seconds")
    r.add_argument("--memory-limit", type=int, default=None, help="MB")
    r.set_defaults(func=cmd_run)
    add_env_subcommands(subparsers)
    return sp


def add_env_subcommands(subparsers) -> argparse.ArgumentParser:
    """Add `env build`: repository environments from recipes (sandbox/environments.py)."""
    ep = subparsers.add_parser("env", help="build repository environments for repo tasks")
    sub = ep.add_subparsers(dest="env_cmd", required=True)
    b = sub.add_parser("build", help="build (or find, by content hash) each recipe's environment under --environments")
    b.add_argument("recipes", nargs="+", metavar="RECIPE",
                   help='a recipe file (JSON; docs/repo-tasks.md "Building environments"), or with --format swebench '
                        'a JSONL file of SWE-bench rows')
    b.add_argument("--format", default="recipe", choices=("recipe", "swebench"),
                   help='what the files are: recipes (default), or SWE-bench/SWE-Gym/SWE-smith rows, one environment '
                        'a row, named by its instance_id (docs/repo-tasks.md "SWE-bench rows")')
    b.add_argument("--repos", metavar="DIR", help="with --format swebench: the folder of the rows' repositories, "
                                                  "a git directory or bundle named OWNER+NAME, OWNER/NAME or NAME")
    b.add_argument("--specs", metavar="FILE", help='with --format swebench: JSON {"OWNER/NAME": {"VERSION" or "*": '
                                                   '{language, install, test_cmd, report, wheels, network}}} for '
                                                   "what a row does not carry")
    b.add_argument("--no-gold", dest="gold", action="store_false",
                   help="with --format swebench: skip the gold run that records the gold statuses (`expected`)")
    b.add_argument("--backend", default=None, help="the sandbox backend of the gold run (default: docker)")
    b.add_argument("--environments", required=True, metavar="DIR",
                   help="the folder of built environments, the server's --sandbox-repo-environments")
    b.add_argument("--force", action="store_true", help="rebuild even when the recipe's build exists")
    b.add_argument("--prune", action="store_true", help="remove every older build no environment's name points to")
    b.add_argument("--max-disk-mb", type=int, default=None, metavar="MB",
                   help="bound the builds' disk: older builds no name points to go, oldest first, until under it; "
                        "exit 1 when the builds in use alone are over it")
    b.set_defaults(func=cmd_env_build)
    return ep


def cmd_env_build(args: argparse.Namespace) -> int:
    from .environments import RecipeError, build_all

    if args.format == "swebench":
        return _env_build_rows(args)

    try:
        built = build_all(args.recipes, args.environments, force=args.force, prune_all=args.prune,
                          max_bytes=None if args.max_disk_mb is None else args.max_disk_mb << 20, progress=lambda m: print(m, file=sys.stderr, flush=True))
    except RecipeError as e:
        print(f"env build: bad recipe: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # say what failed, exit non-zero
        print(f"env build failed: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    for b in built:
        print(f"{b.name}\t{b.key}\t{'cached' if b.cached else 'built'}")
    return 0


def _env_build_rows(args: argparse.Namespace) -> int:
    """`env build --format swebench`: each row's environment and gold statuses; a bad row is named on
    stderr and makes the exit 1, the others are built."""
    from .config import SandboxConfig
    from .env_rows import RowError, build_rows
    from .environments import RecipeError

    if not args.repos:
        print("env build: --format swebench needs --repos DIR", file=sys.stderr)
        return 2
    config = SandboxConfig(backend=args.backend) if args.backend else SandboxConfig()
    try:
        outcomes = build_rows(args.recipes, args.repos, args.environments, specs=args.specs, gold=args.gold,
                              config=config, force=args.force, prune_all=args.prune,
                              max_bytes=None if args.max_disk_mb is None else args.max_disk_mb << 20,
                              progress=lambda m: print(m, file=sys.stderr, flush=True))
    except (RowError, RecipeError, OSError) as e:
        print(f"env build: bad rows: {e}", file=sys.stderr)
        return 2
    for o in outcomes:
        if o.error:
            print(f"env build: {o.instance}: {o.error}", file=sys.stderr)
        elif o.built:
            print(f"{o.built.name}\t{o.built.key}\t{'cached' if o.built.cached else 'built'}")
    return 1 if any(o.error for o in outcomes) else 0


def cmd_build(args: argparse.Namespace) -> int:
    from .build import build_images

    if args.rootfs in LANGUAGES and not os.path.isdir(args.rootfs):
        # `--rootfs [DIR]` takes the next word: `--rootfs python` would export every language into ./python
        print(f"sandbox build: --rootfs took {args.rootfs!r} as its DIR, and that is a language: write "
              f"`verifier sandbox build {args.rootfs} --rootfs` (or `--rootfs ./{args.rootfs}` for that folder)",
              file=sys.stderr)
        return 2
    try:
        tags = build_images(args.languages or None, force=args.force, prune=args.prune, rootfs_dir=args.rootfs,
                            progress=lambda m: print(m, file=sys.stderr, flush=True))
    except Exception as e:  # say what failed, exit non-zero: make stops here
        print(f"sandbox build failed: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    for lang, tag in tags.items():
        print(f"{lang}\t{tag}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from .grader import CodeGrader

    def read(path: str | None) -> str | None:
        if path is None:
            return None
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return f.read()

    task = {"kind": "code", "language": args.language, "completion": read(args.file),
            "tests": [{"stdin": read(args.stdin) or "", "expected_stdout": read(args.expected)}],
            "compare": args.compare, "time_limit_s": args.time_limit, "memory_limit_mb": args.memory_limit,
            "return_output": True, "input_file": args.input_file, "output_file": args.output_file,
            "files": {name: read(path) for name, _, path in (f.partition("=") for f in args.files)}}

    async def go() -> dict:
        g = CodeGrader(SandboxConfig(languages=(args.language,), pool_size=1))
        await g.start()
        try:
            return await g.grade(task)
        finally:
            await g.close()

    result = asyncio.run(go())
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 0 if result["verdict"] in PASSING else 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sandbox")
    subs = parser.add_subparsers(dest="cmd", required=True)
    add_subcommands(subs)
    args = parser.parse_args(["sandbox", *(argv if argv is not None else sys.argv[1:])])
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
