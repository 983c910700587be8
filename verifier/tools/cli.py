"""`verifier serve | grade | sandbox ... | train`."""

from __future__ import annotations

import argparse
import os
import sys
from importlib.metadata import entry_points

from verifier.config import ConfigError, FlatField, ServerConfig, flat_fields, parse


# Subcommands of the other parts (`sandbox`, `train`) register here as entry points (pyproject.toml), so
# this CLI imports neither: verifier never imports trainer (docs/architecture.md, Dependency direction).
COMMANDS_GROUP = "verifier.commands"

# Fields of ServerConfig that `verifier grade` offers as client flags (sent to --server), not engine flags.
CLIENT_FIELDS = ("token", "token_file")


# How a value of a structured type is written on the command line or in VERIFIER_* (verifier/config.py parse).
FORMAT_HINTS = {"tuple": " A comma list.", "str | None": " Empty: none.",
                "dict": ' JSON; only the languages and fields named change, e.g. {"python": {"max_time_limit_s": 30}}.'}


def _add_field_flag(parser, f: FlatField) -> None:
    """One flag for one setting; unset, it falls back to VERIFIER_<NAME>, then the default."""
    help_text = f"{f.help}{FORMAT_HINTS.get(f.type.split('[')[0], '')} [env {f.env}]".replace("%", "%%")
    if f.type == "bool":
        parser.add_argument(f.flag, dest=f.name, action=argparse.BooleanOptionalAction, default=None, help=help_text)
    else:
        parser.add_argument(f.flag, dest=f.name, type=_parser_of(f), default=None, help=help_text,
                            metavar=f.name.upper())


def _parser_of(f: FlatField):
    """argparse type for a setting: the shared parser, its ValueError shown as argparse's one-line error."""
    def convert(raw: str):
        try:
            return parse(raw, f.type)
        except ValueError as e:
            raise argparse.ArgumentTypeError(f"not a valid {f.type}: {raw!r}") from e
    return convert


def _add_config_flags(parser: argparse.ArgumentParser, server: bool = True) -> None:
    """Flags of every setting (verifier/config.py `flat_fields`): all of them for `serve`; for `grade`, the
    client's token flags and the engine flags in-process grading uses (no ports, listeners, shutdown or
    server TLS)."""
    if server:
        for f in flat_fields():
            _add_field_flag(parser, f)
        return
    client = parser.add_argument_group("client (with --server)")
    engine = parser.add_argument_group("in-process engine (without --server)")
    for f in flat_fields():
        if f.name in CLIENT_FIELDS:
            _add_field_flag(client, f)
        elif not f.server_only:
            _add_field_flag(engine, f)
    client.add_argument("--tls", action=argparse.BooleanOptionalAction, default=None,
                        help="Connect with TLS (system roots unless --ca-cert); implied by --ca-cert.")
    client.add_argument("--ca-cert", default="", help="PEM file of the CA that signed the server's certificate.")
    client.add_argument("--timeout-s", type=float, default=3600.0,
                        help="Deadline of one batch of the file, retries included (default 3600).")


def _config(args: argparse.Namespace) -> ServerConfig:
    names = {f.name for f in flat_fields()}
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
    from verifier.api.server import serve

    serve(_config(args))
    return 0


def _grade(args: argparse.Namespace) -> int:
    from verifier.tools.grade_file import grade_file

    if args.input != "-" and not os.path.isfile(args.input):
        raise ConfigError(f"input file {args.input!r} does not exist or is not a file")
    if not args.server:
        _require_server("verifier grade without --server (in-process grading)")
    fail_on = _fail_on(args.fail_on)
    fmt = _format(args.format)
    config = _config(args)
    client = None
    if args.server:
        from verifier.client import ClientConfig

        if args.ca_cert and not os.path.isfile(args.ca_cert):
            raise ConfigError(f"CA certificate {args.ca_cert!r} does not exist or is not a file")
        client = ClientConfig(token=config.resolved_token(), tls=bool(args.tls or args.ca_cert), root_cert=args.ca_cert,
                              timeout_s=args.timeout_s)
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
    try:
        return grade_file(args.input, out, args.server, config, client=client, fail_on=fail_on, fmt=fmt)
    finally:
        if out is not sys.stdout:
            out.close()


def _format(name: str) -> str:
    """--format NAME -> the canonical format name (verifier/formats; `task`: our own schema)."""
    from verifier.formats import FormatError, resolve

    try:
        return resolve(name)
    except FormatError as e:
        raise ConfigError(f"--format: {e}") from None


def _fail_on(values: list[str]) -> frozenset[str]:
    """--fail-on a,b --fail-on c -> {a, b, c}, each a verdict the service can answer."""
    from sandbox.contract import VERDICTS

    verdicts = frozenset(v.strip() for value in values for v in value.split(",") if v.strip())
    unknown = sorted(verdicts - set(VERDICTS))
    if unknown:
        raise ConfigError(f"--fail-on: unknown verdict(s) {', '.join(unknown)}; choose from {', '.join(VERDICTS)}")
    return verdicts


def _report(args: argparse.Namespace) -> int:
    from verifier.tools.report import write_report

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
    grade.add_argument("--format", default="task", metavar="NAME",
                       help="how lines are read: task (our schema, default), auto (detect each row's dataset "
                            "format from its columns), or a dataset format: open-r1, codeforces, apps (taco), "
                            "livecodebench, code_contests, deepcoder, verl, kodcode, mbpp, humaneval, bigcodebench, "
                            "swebench (swe-gym, swe-smith: repo tasks, docs/repo-tasks.md)")
    grade.add_argument("--fail-on", action="append", default=[], metavar="VERDICT[,VERDICT...]",
                       help="exit 3 when any item gets one of these verdicts (repeatable), e.g. infra_error")
    _add_config_flags(grade, server=False)
    grade.set_defaults(func=_grade)

    report = sub.add_parser("report", help="graded JSONL -> a static HTML page (verdicts, pass@k, scores, slowest)")
    report.add_argument("input", help="JSONL written by `verifier grade`, or - for stdin")
    report.add_argument("-o", "--output", default="report.html", help="HTML file to write (default: report.html)")
    report.add_argument("--group-by", default="auto",
                        help="column naming the problem, for pass@k (default auto: problem_id, problem, prompt, "
                             "question, else the id up to its last '-')")
    report.set_defaults(func=_report)

    for plugin in entry_points(group=COMMANDS_GROUP):
        try:
            add = plugin.load()
        except ImportError:  # a part that is not installed (a client-only install has no sandbox)
            continue
        add(sub)
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
