"""Mines repository tasks (SWE-bench rows) from a project's bug-fix commits (docs/repo-tasks.md "The corpus").

A candidate is a commit with one parent that changes code and adds or changes a test. Its test
changes are the row's `test_patch`, the rest its gold `patch`. The tests the test patch touches run
twice in a sandbox image with the network off: on the parent with the test patch applied, and on the
commit. FAIL_TO_PASS: passing after, not before; PASS_TO_PASS: passing both times. Rows with no
FAIL_TO_PASS are dropped. Each run's raw report is kept (--logs) for the parsers' tests.

    python scripts/mine_repo_tasks.py GITDIR OWNER/NAME python IMAGE --out rows.jsonl --logs DIR
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from sandbox.repo.patch import protected_reason  # noqa: E402
from sandbox.repo.results import PASSED, parse_go_json, parse_junit, parse_pytest_log  # noqa: E402

CODE_EXT = {"python": (".py",), "go": (".go",)}


def git(gitdir: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", gitdir, *args], check=True, capture_output=True, text=True).stdout


def split_diff(gitdir: str, parent: str, commit: str, lang: str) -> tuple[str, str, list[str]] | None:
    """(code patch, test patch, test files) of a commit, or None when it is not a candidate."""
    names = [n for n in git(gitdir, "diff", "--name-only", parent, commit).split("\n") if n]
    tests = [n for n in names if protected_reason(n)]
    code = [n for n in names if n not in tests and n.endswith(CODE_EXT[lang])]
    if not tests or not code or len(names) > 8:
        return None
    other = [n for n in names if n not in tests]
    if lang == "python" and not all(t.endswith(".py") for t in tests):
        return None
    patch = git(gitdir, "diff", parent, commit, "--", *other)
    test_patch = git(gitdir, "diff", parent, commit, "--", *tests)
    if len(patch) > 6000 or len(test_patch) > 12000:
        return None
    return patch, test_patch, tests


def checkout(gitdir: str, rev: str, into: Path) -> None:
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "--git-dir", gitdir, "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def test_command(lang: str, tests: list[str]) -> str:
    if lang == "python":
        files = " ".join(t for t in tests if Path(t).name.startswith("test_") or t.endswith("_test.py"))
        return f"python3 -m pytest -p no:cacheprovider -rA --junitxml=/out/junit.xml {files}"
    pkgs = sorted({"./" + str(Path(t).parent) if str(Path(t).parent) != "." else "." for t in tests if t.endswith(".go")})
    return "go test -json -count=1 " + " ".join(pkgs)


def run_tests(tree: Path, image: str, cmd: str, out: Path) -> str:
    """Runs the test command in the sandbox image, network off; returns stdout (the -json stream, or
    pytest's log). Runs as this user so the files stay removable."""
    out.mkdir(parents=True, exist_ok=True)
    docker = ["docker", "run", "--rm", "--network", "none", "--user", f"{os.getuid()}:{os.getgid()}",
              "-e", "HOME=/tmp", "-e", "GOCACHE=/tmp/gocache", "-e", "GOFLAGS=-mod=mod", "-e", "PYTHONDONTWRITEBYTECODE=1",
              "--tmpfs", "/tmp:exec", "-v", f"{tree}:/repo", "-v", f"{out}:/out", "-w", "/repo",
              "--entrypoint", "sh", image, "-c", f"timeout 120 {cmd}"]
    proc = subprocess.run(docker, capture_output=True, text=True, timeout=300)
    return proc.stdout + proc.stderr


def statuses(lang: str, log: str, out: Path) -> dict[str, str]:
    if lang == "go":
        return parse_go_json(log)
    got = parse_pytest_log(log)
    junit = out / "junit.xml"
    if junit.exists():  # the two reports of one run agree (a check of both parsers on real output)
        from sandbox.repo.results import junit_key
        by_key = parse_junit(junit.read_bytes())
        for node, status in got.items():
            assert by_key.get(junit_key(node)) == status, (node, status, by_key.get(junit_key(node)))
    return got


def mine_one(args: argparse.Namespace, commit: str, parent: str, work: Path) -> dict | None:
    split = split_diff(args.gitdir, parent, commit, args.lang)
    if split is None:
        return None
    patch, test_patch, tests = split
    cmd = test_command(args.lang, tests)
    before, after = work / "before", work / "after"
    checkout(args.gitdir, parent, before)
    checkout(args.gitdir, commit, after)
    if subprocess.run(["git", "apply", "-p1"], cwd=before, input=test_patch, text=True).returncode:
        return None
    short = commit[:12]
    logs = Path(args.logs) / f"{args.repo.replace('/', '__')}-{short}"
    results = {}
    for side, tree in (("before", before), ("after", after)):
        out = work / f"out-{side}"
        log = run_tests(tree, args.image, cmd, out)
        results[side] = statuses(args.lang, log, out)
        logs.mkdir(parents=True, exist_ok=True)
        (logs / f"{side}.log").write_text(log)
        if (out / "junit.xml").exists():
            shutil.copy(out / "junit.xml", logs / f"{side}.junit.xml")
    ok = (PASSED,)  # only PASSED counts (docs/repo-tasks.md "Verdicts"); an XFAIL would need the environment's `expected`
    f2p = sorted(t for t, s in results["after"].items() if s in ok and results["before"].get(t) not in ok)
    p2p = sorted(t for t, s in results["after"].items() if s in ok and results["before"].get(t) in ok)
    if not f2p:
        shutil.rmtree(logs)
        return None
    message = git(args.gitdir, "log", "-1", "--format=%B", commit).strip()
    return {"instance_id": f"{args.repo.replace('/', '__')}-{short}", "repo": args.repo, "base_commit": parent,
            "commit": commit, "patch": patch, "test_patch": test_patch, "FAIL_TO_PASS": f2p, "PASS_TO_PASS": p2p,
            "version": "0", "problem_statement": message, "created_at": git(args.gitdir, "log", "-1", "--format=%cI", commit).strip(),
            "test_cmd": cmd.replace(" --junitxml=/out/junit.xml", ""), "language": args.lang}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("gitdir")
    ap.add_argument("repo")
    ap.add_argument("lang", choices=sorted(CODE_EXT))
    ap.add_argument("image")
    ap.add_argument("--out", required=True)
    ap.add_argument("--logs", required=True)
    ap.add_argument("--scan", type=int, default=200, help="newest commits looked at")
    ap.add_argument("--max", type=int, default=8, help="rows kept")
    ap.add_argument("--skip", default="", help="a JSONL file whose rows' commits are not mined again")
    args = ap.parse_args()
    skip = {json.loads(line)["commit"] for line in open(args.skip)} if args.skip else set()
    kept = 0
    for line in git(args.gitdir, "log", "--no-merges", f"-n{args.scan}", "--format=%H %P", "HEAD").split("\n"):
        parts = line.split()
        if len(parts) != 2 or parts[0] in skip:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            row = mine_one(args, parts[0], parts[1], Path(tmp))
        if row:
            with open(args.out, "a") as f:
                f.write(json.dumps(row) + "\n")
            kept += 1
            print(row["instance_id"], len(row["FAIL_TO_PASS"]), len(row["PASS_TO_PASS"]), flush=True)
            if kept >= args.max:
                break


if __name__ == "__main__":
    main()
