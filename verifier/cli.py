"""`verifier serve | grade | sandbox ... | train`."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys

from verifier.config import ConfigError, ServerConfig


def _add_config_flags(parser: argparse.ArgumentParser) -> None:
    """One flag per ServerConfig field; unset flags fall back to VERIFIER_* variables, then defaults."""
    for f in dataclasses.fields(ServerConfig):
        flag = "--" + f.name.replace("_", "-")
        help_text = f.metadata.get("help", "") + f" [env VERIFIER_{f.name.upper()}]"
        if f.type == "bool":
            parser.add_argument(flag, dest=f.name, action=argparse.BooleanOptionalAction, default=None, help=help_text)
        else:
            parser.add_argument(flag, dest=f.name, type={"int": int, "float": float}.get(f.type, str),
                                default=None, help=help_text)


def _config(args: argparse.Namespace) -> ServerConfig:
    names = {f.name for f in dataclasses.fields(ServerConfig)}
    return ServerConfig.from_env(**{k: v for k, v in vars(args).items() if k in names})


# Top-level modules of the `server` extra (pyproject.toml): a client-only install lacks them.
SERVER_MODULES = ("math_verify", "sympy", "pebble", "prometheus_client", "grpc_health", "grpc_reflection", "docker",
                  "starlette", "uvicorn")
SERVER_HINT = "pip install 'grpo-verifier[server]'"
TRAIN_MODULES = ("torch", "transformers", "trl", "peft", "datasets", "matplotlib")
TRAIN_HINT = "pip install 'grpo-verifier[train]'"


def _require_server(what: str) -> None:
    """Fail in one line, before starting anything, when the grading engine's packages are missing."""
    import importlib.util

    missing = [m for m in SERVER_MODULES if importlib.util.find_spec(m) is None]
    if missing:
        raise ConfigError(f"{what} needs the grading engine ({', '.join(missing)} not installed): {SERVER_HINT}")


def _serve(args: argparse.Namespace) -> int:
    _require_server("verifier serve")
    from verifier.server import serve

    serve(_config(args))
    return 0


def _grade(args: argparse.Namespace) -> int:
    from verifier.grade_file import grade_file

    if args.input != "-" and not os.path.isfile(args.input):
        raise ConfigError(f"input file {args.input!r} does not exist or is not a file")
    if not args.server:
        _require_server("verifier grade without --server (in-process grading)")
    config = _config(args)
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
    try:
        return grade_file(args.input, out, args.server, config, token=config.resolved_token())
    finally:
        if out is not sys.stdout:
            out.close()


def _report(args: argparse.Namespace) -> int:
    from verifier.report import write_report

    if args.input != "-" and not os.path.isfile(args.input):
        raise ConfigError(f"input file {args.input!r} does not exist or is not a file")
    try:
        stats = write_report(args.input, args.output, args.group_by)
    except OSError as e:  # unreadable input, output directory missing or read-only
        where = args.input if e.filename == args.input else args.output
        raise ConfigError(f"cannot {'read' if where == args.input else 'write'} {where}: {e.strerror or e}") from None
    print(f"report: {stats.rows} graded rows, {stats.bad} malformed lines -> {args.output}", file=sys.stderr)
    return 0


def _version() -> str:
    """The installed distribution's version (what `pip show grpo-verifier` says)."""
    import importlib.metadata

    try:
        return importlib.metadata.version("grpo-verifier")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="verifier", description="Verifiable rewards for GRPO: math and sandboxed code.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the gRPC grading service")
    _add_config_flags(serve)
    serve.set_defaults(func=_serve)

    grade = sub.add_parser("grade", help="grade a JSONL file of tasks (in-process, or via --server)")
    grade.add_argument("input", help="JSONL file of tasks, or - for stdin")
    grade.add_argument("-o", "--output", help="JSONL file to write (default: stdout)")
    grade.add_argument("--server", help="HOST:PORT of a running service; grades in-process when absent")
    _add_config_flags(grade)
    grade.set_defaults(func=_grade)

    report = sub.add_parser("report", help="graded JSONL -> a static HTML page (verdicts, pass@k, scores, slowest)")
    report.add_argument("input", help="JSONL written by `verifier grade`, or - for stdin")
    report.add_argument("-o", "--output", default="report.html", help="HTML file to write (default: report.html)")
    report.add_argument("--group-by", default="auto",
                        help="column naming the problem, for pass@k (default auto: problem_id, problem, prompt, "
                             "question, else the id up to its last '-')")
    report.set_defaults(func=_report)

    try:
        from sandbox.cli import add_subcommands as add_sandbox
    except ImportError:
        pass
    else:
        add_sandbox(sub)
    try:
        from trainer.cli import add_subcommands as add_train
    except ImportError:
        pass
    else:
        add_train(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args) or 0
    except ConfigError as e:
        parser.exit(2, f"verifier: error: {e}\n")
    except ModuleNotFoundError as e:  # a server or training command on a client-only install
        root = (e.name or "").split(".")[0]
        hint = SERVER_HINT if root in SERVER_MODULES else TRAIN_HINT if root in TRAIN_MODULES else None
        if hint is None:
            raise
        parser.exit(2, f"verifier: error: `verifier {args.command}` needs {root}, which is not installed: {hint}\n")


if __name__ == "__main__":
    sys.exit(main())
