"""`verifier env build --format swebench ROWS --repos DIR`: the environments of SWE-bench-shaped rows
(SWE-bench, SWE-Gym, SWE-smith), and the gold run's statuses recorded in them (docs/repo-tasks.md
"SWE-bench rows").

The rules a row is read by live here, for the builder and for `verifier grade --format swebench`
(verifier/formats/swebench.py) alike: its environment's name (`environment_name`), its test ids
(`test_ids`), its repository in DIR (`find_repo`), its recipe (`row_recipe`: the row's own
`language`, `install`, `test_cmd`, `report`, else a specs file's by repository and version).
The gold run grades each row's gold `patch` once in the sandbox and stores, in the environment's
`expected`, the statuses of listed tests that SWE-bench counts as passing but that are not PASSED
(an XFAIL of FAIL_TO_PASS; a SKIPPED or XFAIL of PASS_TO_PASS), so strict statuses hold for such rows
(docs/repo-tasks.md "Verdicts"). Pure, but for `build_rows` (git, the sandbox).
"""
from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from .config import SandboxConfig
from .contract import ENVIRONMENT_NAME
from .environments import ENV_FILE, Built, Recipe, RecipeError, build_environment, prune, recipe_from
from .keys import reuse_key
from .repo.patch import PatchError, read_patch

# Statuses SWE-bench 5.0.2's rules count as passing besides PASSED, per list: what the gold run may
# record as expected. Any other non-PASSED status of the gold is the row's error (its gold does not resolve).
GOLD_STATUSES = {"FAIL_TO_PASS": ("XFAIL",), "PASS_TO_PASS": ("SKIPPED", "XFAIL")}
SPEC_KEYS = frozenset({"language", "install", "test_cmd", "report", "wheels", "network"})


class RowError(ValueError):
    """A row that cannot be read or built; the message names the column."""


def environment_name(row: Mapping[str, Any]) -> str:
    """The environment a row runs in: its `environment` column, else its `instance_id`. One per
    instance because an environment is the repository at the row's base commit; two instances of
    one commit and recipe share a build (the name is not in the build's key)."""
    column = "environment" if row.get("environment") not in (None, "") else "instance_id"
    name = row.get(column)
    if not isinstance(name, str) or not ENVIRONMENT_NAME.match(name):
        raise RowError(f"{column}: {name!r} is not an environment's name (letters, digits, _ . + -; "
                       "not starting with '.', at most 128)")
    return name


def test_ids(row: Mapping[str, Any], column: str, required: bool) -> list[str]:
    """FAIL_TO_PASS / PASS_TO_PASS: a list of strings, or JSON text of one (SWE-bench's own rows)."""
    value = row.get(column)
    if value is None or value == "":
        if required:
            raise RowError(f"{column}: missing")
        return []
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError as e:
            raise RowError(f"{column}: not a JSON list of test ids ({e})") from None
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise RowError(f"{column}: expected a list of test ids (strings), got {type(value).__name__}")
    return value


def default_report(language: Any) -> str:
    """The report format a language's tests write when nothing says (contract REPO_REPORTS)."""
    return "go-json" if language == "go" else "pytest"


def find_repo(repos: str | Path, repo: Any) -> str:
    """The repository `OWNER/NAME` in the folder `repos`: a git directory (bare or not) or a bundle
    named `OWNER+NAME`, `OWNER/NAME` or `NAME` (`.git` or `.bundle` after it allowed), with a `repo`
    subfolder allowed inside; the first that exists, in that order."""
    if not isinstance(repo, str) or repo.count("/") != 1 or any(p in ("", ".", "..") for p in repo.split("/")):
        raise RowError(f"repo: {repo!r} is not OWNER/NAME")
    owner, name = repo.split("/")
    base = Path(repos)
    for stem in (f"{owner}+{name}", f"{owner}/{name}", name):
        for candidate in (base / stem, base / f"{stem}.git", base / f"{stem}.bundle"):
            if candidate.is_file():
                return str(candidate)
            if candidate.is_dir():
                inner = candidate / "repo"
                return str(inner if inner.is_dir() and not _is_git_dir(candidate) else candidate)
    raise RowError(f"repo: {repo!r} not found in {repos} (as {owner}+{name}, {owner}/{name} or {name}, "
                   "a git directory or a .bundle)")


def _is_git_dir(path: Path) -> bool:
    return (path / ".git").exists() or ((path / "HEAD").is_file() and (path / "objects").is_dir())


def read_specs(path: str | Path | None) -> tuple[dict[str, Any], Path]:
    """A specs file: {"OWNER/NAME": {"VERSION" or "*": {language, install, test_cmd, report, wheels,
    network}}}, the recipe fields a row does not carry, by repository and version."""
    if not path:
        return {}, Path.cwd()
    path = Path(path)
    try:
        specs = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise RecipeError(f"{path}: {type(e).__name__}: {e}") from None
    if not isinstance(specs, dict) or not all(isinstance(v, dict) and all(isinstance(s, dict) for s in v.values())
                                              for v in specs.values()):
        raise RecipeError(f"{path}: specs are {{\"OWNER/NAME\": {{\"VERSION\": {{fields}}}}}}")
    for repo, versions in specs.items():
        for version, spec in versions.items():
            unknown = sorted(set(spec) - SPEC_KEYS)
            if unknown:
                raise RecipeError(f"{path}: {repo} {version}: unknown field {unknown[0]!r} "
                                  f"(fields: {', '.join(sorted(SPEC_KEYS))})")
    return specs, path.parent


def row_recipe(row: Mapping[str, Any], repos: str | Path, specs: Mapping[str, Any] = {},
               specs_dir: Path = Path(".")) -> Recipe:
    """The recipe of a row's environment: the repository at `base_commit` (the commit the patches
    apply to; SWE-bench's `environment_setup_commit` is where it installs dependencies, which here
    the install steps do at the base commit), the row's `language`, `install`, `test_cmd` and
    `report` columns, else its repository's and version's spec."""
    name = environment_name(row)
    repo = row.get("repo")
    versions = specs.get(repo, {}) if isinstance(repo, str) else {}
    spec = versions.get(str(row.get("version", "")), versions.get("*", {}))
    obj: dict[str, Any] = {k: v for k, v in spec.items() if k in SPEC_KEYS}
    for key in ("language", "install", "test_cmd", "report"):
        if row.get(key) not in (None, "", []):
            obj[key] = [row[key]] if key == "install" and isinstance(row[key], str) else row[key]
    obj.setdefault("language", "python")
    obj.setdefault("report", default_report(obj["language"]))
    if "test_cmd" not in obj:
        raise RowError(f"test_cmd: missing (a row's `test_cmd`, or --specs for {repo!r} version {row.get('version')!r})")
    commit = row.get("base_commit")
    if not isinstance(commit, str) or not commit:
        raise RowError("base_commit: missing")
    obj.update(name=name, repo=find_repo(repos, repo), commit=commit)
    try:
        return recipe_from(obj, specs_dir, f"row {row.get('instance_id')!r}")
    except RecipeError as e:
        raise RowError(str(e)) from None


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a JSONL file (blank lines skipped); a line that is not a JSON object is an error naming it."""
    rows = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError as e:
                raise RowError(f"{path} line {number}: not JSON ({e})") from None
            if not isinstance(row, dict):
                raise RowError(f"{path} line {number}: not a JSON object")
            rows.append(row)
    return rows


# ----------------------------------------------------------------------------- the gold's files
def gold_files(row: Mapping[str, Any]) -> list[str]:
    """The existing files a model's patch may change (a repo task's `editable`; docs/repo-tasks.md "Trust model", "The
    gold's files"): the row's `editable` column where it has one (a list of paths, or JSON text of one: a dataset
    without a gold patch names them), else the files its gold `patch` changes. The row's, which is the trainer's, never
    the policy's. A row with neither is refused, naming both columns: with no list a patch could change any existing
    source file, and recording where the tests' code lives instead was beaten by every red team (17 to 20)."""
    listed = row.get("editable")
    if isinstance(listed, str) and listed.strip():
        try:
            listed = json.loads(listed)
        except ValueError as e:
            raise RowError(f"editable: not a JSON list of paths ({e})") from None
    if listed not in (None, "", []):
        if not isinstance(listed, list) or not all(isinstance(p, str) for p in listed):
            raise RowError(f"editable: expected a list of paths (strings), got {type(listed).__name__}")
        return listed
    patch = row.get("patch")
    if not isinstance(patch, str) or not patch.strip():
        raise RowError("patch: missing, and no `editable`: a model's patch may change only the existing files the "
                       "task's reference fix changes; give the gold `patch` or `editable` (those files' paths)")
    try:
        return list(dict.fromkeys(read_patch(patch).paths))
    except PatchError as e:
        raise RowError(f"patch: the gold patch does not read as a unified diff ({e}); give `editable` (the paths "
                       "of the files it changes)") from None


# ----------------------------------------------------------------------------- the gold run
def gold_task(row: Mapping[str, Any], recipe: Recipe, task_id: str) -> dict[str, Any]:
    """The repo task grading the row's gold `patch` in its environment, under its own files (`gold_files`)."""
    patch = row.get("patch")
    if not isinstance(patch, str) or not patch.strip():
        raise RowError("patch: missing (the gold patch, run once to record the gold statuses)")
    return {"id": task_id, "kind": "repo", "environment": recipe.name, "completion": patch,
            "test_patch": row.get("test_patch") or "", "test_cmd": recipe.test_cmd, "report": recipe.report,
            "fail_to_pass": test_ids(row, "FAIL_TO_PASS", True), "pass_to_pass": test_ids(row, "PASS_TO_PASS", False),
            "editable": gold_files(row)}


def gold_digest(task: Mapping[str, Any]) -> str:
    """What the gold run depends on besides the build: the patches, the lists, the command, the files the patch may
    change (exact bytes)."""
    return reuse_key("swebench-gold", {k: task[k] for k in ("completion", "test_patch", "test_cmd", "report",
                                                              "fail_to_pass", "pass_to_pass", "editable")}).hex()[:24]


def gold_expected(result: Mapping[str, Any]) -> dict[str, str]:
    """From a gold run's result: each listed test's status that SWE-bench counts as passing but is not
    PASSED (GOLD_STATUSES). RowError when a listed test has another status under the gold, or when
    the run has no per-test statuses (the patch refused, the tests not run or not reported, the
    sandbox's failure)."""
    if not result.get("tests"):
        raise RowError(f"the gold run gave no test statuses: {result.get('verdict')}: {result.get('detail')}")
    expected, bad = {}, []
    for test in result.get("tests") or []:
        kind, _, status = str(test.get("detail", "")).partition(": ")
        if status == "PASSED":
            continue
        if status in GOLD_STATUSES.get(kind, ()):
            expected[test["name"]] = status
        else:
            bad.append(f"{test['name']} ({kind}: {status})")
    if bad:
        raise RowError(f"the gold patch does not resolve: {', '.join(bad[:3])}{' ...' if len(bad) > 3 else ''}")
    return expected


def store_expected(env_dir: Path, instance: str, expected: Mapping[str, str]) -> None:
    """Merge a row's gold statuses into its environment's `expected`. Two rows of one build
    disagreeing on a test's status is an error, never a choice."""
    meta = _meta(env_dir)
    stored = dict(meta.get("expected", {}))
    for test, status in expected.items():
        if stored.get(test, status) != status:
            raise RowError(f"gold status {status} of {test} differs from another row's {stored[test]} in the "
                           "same build (`expected` is the build's, shared by the names of one commit and recipe)")
        stored[test] = status
    if stored != meta.get("expected", {}):
        _write_meta(env_dir, {**meta, "expected": stored})


def mark_checked(env_dir: Path, instance: str, digest: str) -> None:
    """Note that the row's gold resolves in this build (`gold`: instance -> gold_digest): not run again."""
    meta = _meta(env_dir)
    _write_meta(env_dir, {**meta, "gold": {**meta.get("gold", {}), instance: digest}})


def _meta(env_dir: Path) -> dict[str, Any]:
    meta = json.loads((env_dir / ENV_FILE).read_text(encoding="utf-8"))
    if not isinstance(meta, dict):
        raise RowError(f"{env_dir / ENV_FILE} is not a JSON object")
    return meta


def _write_meta(env_dir: Path, meta: Mapping[str, Any]) -> None:
    """environment.json written whole by a rename: a server planning a task reads the old or the new."""
    path = env_dir / ENV_FILE
    tmp = path.with_name(f".{ENV_FILE}.{os.getpid()}")
    tmp.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def gold_checked(env_dir: Path, instance: str, digest: str) -> bool:
    try:
        meta = json.loads((env_dir / ENV_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(meta.get("gold"), dict) and meta["gold"].get(instance) == digest


@dataclass
class RowOutcome:
    """One row's build and gold run: its environment, and the error that stopped it (None: done)."""

    instance: str
    built: Built | None = None
    expected: dict[str, str] | None = None  # None: the gold run was not needed (found checked) or not asked
    error: str | None = None


def build_rows(paths: list[str], repos: str, root: str, specs: str | None = None, gold: bool = True,
               config: SandboxConfig | None = None, force: bool = False, prune_all: bool = False,
               max_bytes: int | None = None, progress: Callable[[str], None] = print) -> list[RowOutcome]:
    """Build every row's environment, then (with `gold`) run each unchecked row's gold patch in the
    sandbox and store its statuses. A bad row is its outcome's error; the others go on."""
    spec_map, spec_dir = read_specs(specs)
    Path(root).mkdir(parents=True, exist_ok=True)
    outcomes: list[RowOutcome] = []
    todo: list[tuple[RowOutcome, dict[str, Any], dict[str, Any]]] = []
    names: set[str] = set()
    for path in paths:
        for row in read_rows(path):
            out = RowOutcome(str(row.get("instance_id")))
            outcomes.append(out)
            try:
                recipe = row_recipe(row, repos, spec_map, spec_dir)
                if recipe.name in names:
                    raise RowError(f"environment {recipe.name!r} is named by two rows")
                names.add(recipe.name)
                out.built = build_environment(recipe, root, config, force, progress)
                task = gold_task(row, recipe, str(len(todo))) if gold else None
                if task is not None and not gold_checked(Path(root) / recipe.name, out.instance, gold_digest(task)):
                    todo.append((out, row, task))
            except (RowError, RecipeError, RuntimeError) as e:
                out.error = str(e)
    if todo:
        _run_gold(todo, root, config or SandboxConfig(), progress)
    prune(root, max_bytes, prune_all, progress)
    return outcomes


def _run_gold(todo: list[tuple[RowOutcome, dict[str, Any], dict[str, Any]]], root: str, config: SandboxConfig,
              progress: Callable[[str], None]) -> None:
    """Grade the gold patches (one pool per language the rows use), store the statuses, and grade
    again the rows whose statuses changed: their gold must now resolve."""
    from .contract import parse_task
    from .sync import SyncGrader

    languages = tuple(sorted({json.loads((Path(root) / t["environment"] / ENV_FILE).read_text())["language"]
                              for _, _, t in todo}))
    config = replace(config, languages=languages, repo_environments=str(Path(root).resolve()),
                     pool_size=min(config.pool_size, 2), pool_name=f"{config.pool_name}-env-gold")
    with SyncGrader(config, warm=False) as g:
        if not g.grader.available:
            for out, _, _ in todo:
                out.error = f"the sandbox is unavailable for the gold run: {g.grader.unavailable_reason()}"
            return
        async def grade_all(tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
            """At once: the pools bound how many run (their CPU time limits are per task, not wall clock)."""
            return list(await asyncio.gather(*(g.grader.grade_repo(parse_task(t)) for t in tasks)))

        again = []
        for (out, _, task), result in zip(todo, g.call(grade_all([t for _, _, t in todo]))):
            env_dir = Path(root) / task["environment"]
            try:
                out.expected = gold_expected(result)
                store_expected(env_dir, out.instance, out.expected)
            except RowError as e:
                out.error = str(e)
                continue
            progress(f"env build: {out.instance}: gold {result['verdict']}, expected {out.expected}")
            if out.expected:
                again.append((out, task))
            elif result["verdict"] != "accepted":
                out.error = f"the gold patch does not resolve: {result['detail']}"
            else:
                mark_checked(env_dir, out.instance, gold_digest(task))
        for (out, task), result in zip(again, g.call(grade_all([t for _, t in again]))):
            if result["verdict"] != "accepted":
                out.error = f"the gold patch does not resolve with the recorded statuses: {result['detail']}"
            else:
                mark_checked(Path(root) / task["environment"], out.instance, gold_digest(task))
