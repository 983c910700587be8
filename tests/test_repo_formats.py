"""SWE-bench rows as repo tasks (docs/repo-tasks.md "SWE-bench rows"): every corpus row maps to a
task the schema accepts, with the fields the row says; FAIL_TO_PASS as JSON text or a list is the
same task; the model's patch is read from `completion` or `model_patch`, never from the gold `patch`;
the test command comes from the row, else from what `env build` recorded in the environment; a bad
row is an error naming the column, one line of `verifier grade`'s output, never a crash. No Docker:
the end-to-end run is tests/test_repo_service.py's `test_swebench_rows_through_verifier_grade`."""
from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import pytest

from sandbox.contract import RepoTask, parse_task
from sandbox.env_rows import (RowError, build_rows, find_repo, gold_checked, gold_expected, mark_checked, read_specs,
                              row_recipe, store_expected)
from sandbox.environments import RecipeError
from sandbox.repo.patch import read_patch
from verifier.tools.cli import main as verifier_cli
from verifier.config import ServerConfig
from verifier.formats import FormatError, detect, to_task
from verifier.formats.rows import RowRules, label_task, row_task
from verifier.formats.swebench import environment_defaults
from verifier.schema import server_limits
from verifier.tools.grade_file import Line, _task_fields, read_lines
from verifier.tools.report import row_kind

DATA = Path(__file__).parent / "data" / "repo_tasks"
ROWS = [json.loads(line) for line in (DATA / "tasks.jsonl").read_text().splitlines()]
PY = next(r for r in ROWS if r["instance_id"] == "pytoolz__toolz-5d95878603e7")
GO = next(r for r in ROWS if r["language"] == "go")
LIMITS = server_limits(ServerConfig(), {})  # a server's, as `verifier grade` reads lines under
# SWE-bench's own columns only (no test_cmd, language of ours), FAIL_TO_PASS as the JSON text it stores.
SWEBENCH_KEYS = ("instance_id", "repo", "base_commit", "patch", "test_patch", "version")


def swebench_row(row: dict, **extra) -> dict:
    return {**{k: row[k] for k in SWEBENCH_KEYS}, "FAIL_TO_PASS": json.dumps(row["FAIL_TO_PASS"]),
            "PASS_TO_PASS": json.dumps(row["PASS_TO_PASS"]), **extra}


@pytest.mark.parametrize("row", ROWS, ids=[r["instance_id"] for r in ROWS])
def test_every_corpus_row_maps_to_the_repo_task_it_says(row: dict) -> None:
    task = parse_task({**to_task({**row, "completion": row["patch"]}, "swebench"), "id": "1"}, "")
    assert isinstance(task, RepoTask)
    assert (task.environment, task.test_cmd, task.test_patch, task.completion) == \
        (row["instance_id"], row["test_cmd"], row["test_patch"], row["patch"])
    assert list(task.fail_to_pass) == row["FAIL_TO_PASS"] and list(task.pass_to_pass) == row["PASS_TO_PASS"]
    assert task.report == ("go-json" if row["language"] == "go" else "pytest")


def test_ids_as_json_text_or_lists_are_the_same_task() -> None:
    listed = to_task({**PY, "completion": "x"}, "swebench")
    text = to_task(swebench_row(PY, test_cmd=PY["test_cmd"], completion="x"), "swebench")
    assert listed == text


@pytest.mark.parametrize("fmt", ["swebench", "auto", "swe-gym", "swe-smith"])
def test_the_model_patch_column_of_prediction_files_is_read(fmt: str) -> None:
    task = to_task({**PY, "model_patch": "the model's diff"}, fmt)
    assert task["kind"] == "repo" and task["completion"] == "the model's diff"
    assert detect(PY) == "swebench"


def test_the_gold_patch_is_never_graded_as_the_models() -> None:
    """A row without a model output is an error naming the columns read, not the gold patch graded."""
    with pytest.raises(FormatError, match="completion or model_patch: missing"):
        to_task(PY, "swebench")


def test_two_different_model_outputs_are_an_error_never_a_choice() -> None:
    with pytest.raises(FormatError, match="completion and model_patch: both filled"):
        to_task({**PY, "completion": "a", "model_patch": "b"}, "swebench")
    assert to_task({**PY, "completion": "a", "model_patch": "a"}, "swebench")["completion"] == "a"


def test_a_swe_smith_row_has_no_test_patch_and_no_version() -> None:
    row = {"instance_id": "oauthlib__oauthlib.1fd52536.combine_file__09vlzwgc", "repo": "swesmith/oauthlib__oauthlib.1fd52536",
           "patch": "--- a/oauthlib/common.py\n+++ b/oauthlib/common.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n",
           "FAIL_TO_PASS": ["tests/t.py::test_a"], "PASS_TO_PASS": ["tests/t.py::test_b"],
           "image_name": "x", "test_cmd": "python3 -m pytest -rA tests/t.py", "model_patch": "the fix"}
    task = parse_task({**to_task(row, "auto"), "id": "1"}, "")
    assert isinstance(task, RepoTask) and task.test_patch == "" and task.environment == row["instance_id"]
    assert task.editable == ("oauthlib/common.py",)  # SWE-smith's patch makes the bug: the fix undoes it, same files


def test_the_gold_patch_s_files_are_the_task_s_editable() -> None:
    """docs/repo-tasks.md "Trust model", "The gold's files": the model's patch may change only the existing files
    the row's gold changes; a row without a gold names them in `editable`; with neither it is an error naming both."""
    task = parse_task({**to_task({**PY, "completion": "x"}, "swebench"), "id": "1"}, "")
    assert isinstance(task, RepoTask) and task.editable == tuple(read_patch(PY["patch"]).paths)
    own = to_task({**PY, "completion": "x", "patch": None, "editable": ["toolz/itertoolz.py"]}, "swebench")
    assert own["editable"] == ["toolz/itertoolz.py"]
    with pytest.raises(FormatError, match="swebench: patch: missing, and no `editable`"):
        to_task({**PY, "completion": "x", "patch": None}, "swebench")


def test_an_environment_column_names_the_environment() -> None:
    assert to_task({**PY, "completion": "x", "environment": "toolz-0.9"}, "swebench")["environment"] == "toolz-0.9"


@pytest.mark.parametrize("change, message", [
    ({"FAIL_TO_PASS": None}, "FAIL_TO_PASS: missing"),
    ({"FAIL_TO_PASS": "['a', 'b']"}, "FAIL_TO_PASS: not a JSON list"),  # Python's repr is not JSON
    ({"PASS_TO_PASS": '{"a": 1}'}, "PASS_TO_PASS: expected a list of test ids"),
    ({"FAIL_TO_PASS": ["a", 3]}, "FAIL_TO_PASS: expected a list of test ids"),
    ({"instance_id": "../etc"}, "instance_id: '../etc' is not an environment's name"),
    ({"instance_id": ".hidden"}, "instance_id: '.hidden' is not an environment's name"),
    ({"environment": "a/b"}, "environment: 'a/b' is not an environment's name"),
    ({"test_patch": ["diff"]}, "test_patch: expected a diff"),
    ({"test_cmd": None}, "test_cmd: missing"),
])
def test_a_bad_row_is_an_error_naming_the_column(change: dict, message: str) -> None:
    with pytest.raises(FormatError, match=f"swebench: {message}"):
        to_task({**PY, "completion": "x", **change}, "swebench")


def test_a_row_whose_ids_the_schema_refuses_is_its_error() -> None:
    """An empty FAIL_TO_PASS maps, and the schema names the field (F2P must not be empty: a task with
    nothing to fix would resolve for any patch)."""
    task = to_task({**PY, "completion": "x", "FAIL_TO_PASS": "[]"}, "swebench")
    with pytest.raises(ValueError, match="fail_to_pass"):
        parse_task({**task, "id": "1"}, "")


def built(root: Path, name: str, meta: dict) -> None:
    (root / name / "repo").mkdir(parents=True)
    (root / name / "environment.json").write_text(json.dumps(meta))


def test_the_test_command_and_report_come_from_the_built_environment(tmp_path: Path) -> None:
    built(tmp_path, GO["instance_id"], {"language": "go", "test_cmd": "go test -json ./...", "report": "go-json"})
    row = {**swebench_row(GO), "model_patch": "x"}
    task = _task_fields(row, "swebench", str(tmp_path))
    assert (task["test_cmd"], task["report"]) == ("go test -json ./...", "go-json")
    own = _task_fields({**row, "test_cmd": "go test -json .", "report": "go-json"}, "swebench", str(tmp_path))
    assert own["test_cmd"] == "go test -json ."  # the row's own outranks the build's
    assert _task_fields(row, "auto", str(tmp_path))["test_cmd"] == "go test -json ./..."
    with pytest.raises(FormatError, match="test_cmd: missing, and the environment"):
        _task_fields(row, "swebench", "")  # through a server: the row must say it
    with pytest.raises(FormatError, match="test_cmd: missing"):
        _task_fields({**row, "instance_id": "not-built"}, "swebench", str(tmp_path))


def test_a_malformed_environment_file_gives_no_defaults(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "environment.json").write_text("[1]")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "environment.json").write_text('{"test_cmd": 3, "report": "pytest"}')
    assert environment_defaults(str(tmp_path), "a") == {} and environment_defaults(str(tmp_path), "b") == {"report": "pytest"}


def test_bad_rows_are_one_error_line_each_and_the_others_are_read() -> None:
    good = {**PY, "model_patch": PY["patch"]}
    lines = [good, {**good, "FAIL_TO_PASS": "not json"}, {**good, "model_patch": None}, good, [1]]
    errors = io.StringIO()
    out = list(read_lines(io.StringIO("".join(json.dumps(x) + "\n" for x in lines)), LIMITS, errors, "swebench"))
    assert [x.number if isinstance(x, Line) else -x for x in out] == [1, -2, -3, 4, -5]
    said = errors.getvalue().splitlines()
    assert said[0].startswith("line 2: swebench: FAIL_TO_PASS: not a JSON list")
    assert said[1] == "line 3: completion or model_patch: missing (the model's output goes in a `completion` column)"
    assert said[2].startswith("line 5:")


def test_a_trainer_row_of_swebench_becomes_a_repo_task() -> None:
    """The trainers' reader (verifier/formats/rows.py) adds no code-only field a repo task refuses."""
    task = row_task("7", PY["patch"], PY, RowRules())
    assert isinstance(task, dict) and isinstance(parse_task(task, ""), RepoTask)


def test_a_trainers_patch_is_never_cut_a_math_answer_is() -> None:
    """A math or code completion keeps its last max_completion_chars; a repo task's patch is graded whole
    (rows.graded_text), as a SWE-bench row's or a `repo` task label's: its head cut off is another patch."""
    long = "```diff\n" + PY["patch"] + "```\n" + "x" * 200
    rules = RowRules(max_completion_chars=100)
    repo = {"kind": "repo", "environment": "e", "test_cmd": "pytest", "fail_to_pass": ["t"]}
    tasks = [row_task("0", long, PY, rules), label_task("0", long, repo, rules)[0], row_task("0", long, {"solution": "2"}, rules)]
    assert [t["completion"] if isinstance(t, dict) else t for t in tasks] == [long, long, long[-100:]]


def test_a_row_in_our_own_repo_columns_is_a_repo_task() -> None:
    """A trainer's row with the `repo` kind's fields as columns (no `kind` needed), its ids lists; a
    missing field is the schema's error naming it."""
    own = {"environment": "e", "test_cmd": "pytest", "fail_to_pass": ["t::a"], "pass_to_pass": ["t::b"],
           "test_patch": "", "report": "pytest-log", "solution": None, "time_limit_s": None}
    task = row_task("3", "x", own, RowRules())
    assert isinstance(task, dict) and task["kind"] == "repo" and task["report"] == "pytest-log"
    assert isinstance(parse_task(task, ""), RepoTask)
    missing = row_task("3", "x", {k: v for k, v in own.items() if k != "test_cmd"}, RowRules())
    with pytest.raises(ValueError, match="test_cmd"):
        parse_task(missing, "")
    assert row_task("3", "x", own, RowRules(kind="math")) == "a repo row, but kind is forced to 'math'"


def test_a_row_with_empty_swebench_columns_is_not_a_swebench_row() -> None:
    """One dataset mixing repository and math rows gives every row every column, None where it has none:
    the math row is read as math, the repository row as a repo task."""
    math_row = {**{k: None for k in (*SWEBENCH_KEYS, "FAIL_TO_PASS", "PASS_TO_PASS")}, "solution": "2"}
    task = row_task("0", "\\boxed{2}", math_row, RowRules())
    assert detect(math_row) is None and isinstance(task, dict) and task["kind"] == "math"
    assert detect({**swebench_row(PY), "solution": None}) == "swebench"
    with pytest.raises(FormatError, match="FAIL_TO_PASS: missing"):  # a SWE-bench row with an empty list is its error
        to_task({**swebench_row(PY), "FAIL_TO_PASS": "", "test_cmd": "pytest"}, completion="x")


# ----------------------------------------------------------------------------- env build from rows
REPOS = DATA / "repos"


def git_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    (path / "a.py").write_text("x = 1\n")
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    subprocess.run(["git", "-C", str(path), "-c", "user.name=t", "-c", "user.email=t@t", "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(path), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a"], check=True)
    return path


def test_a_repository_is_found_under_each_naming(tmp_path: Path) -> None:
    assert find_repo(REPOS, "pytoolz/toolz") == str(REPOS / "pytoolz+toolz.bundle")
    git_repo(tmp_path / "acme" / "calc")
    assert find_repo(tmp_path, "acme/calc") == str(tmp_path / "acme" / "calc")
    git_repo(tmp_path / "tool" / "repo")  # NAME with a repo subfolder inside
    assert find_repo(tmp_path, "someone/tool") == str(tmp_path / "tool" / "repo")
    git_repo(tmp_path / "x+y")
    assert find_repo(tmp_path, "x/y") == str(tmp_path / "x+y")
    with pytest.raises(RowError, match="repo: 'no/such' not found"):
        find_repo(tmp_path, "no/such")
    for bad in ("../etc", "a/../b", "a", None):
        with pytest.raises(RowError, match="is not OWNER/NAME"):
            find_repo(tmp_path, bad)


def test_a_rows_recipe_takes_its_own_columns_then_the_spec_of_its_version(tmp_path: Path) -> None:
    recipe = row_recipe(GO, REPOS)
    assert (recipe.name, recipe.language, recipe.commit, recipe.test_cmd, recipe.report, recipe.install) == \
        (GO["instance_id"], "go", GO["base_commit"], GO["test_cmd"], "go-json", ())
    specs = tmp_path / "specs.json"
    specs.write_text(json.dumps({"pytoolz/toolz": {"0": {"test_cmd": "pytest -rA", "install": ["true"]},
                                                   "*": {"test_cmd": "other"}}}))
    spec_map, spec_dir = read_specs(specs)
    bare = {k: v for k, v in PY.items() if k not in ("test_cmd", "language")}
    recipe = row_recipe(bare, REPOS, spec_map, spec_dir)
    assert (recipe.test_cmd, recipe.install, recipe.language, recipe.report) == ("pytest -rA", ("true",), "python", "pytest")
    assert row_recipe({**bare, "version": "9"}, REPOS, spec_map, spec_dir).test_cmd == "other"
    assert row_recipe({**bare, "install": "make"}, REPOS, spec_map, spec_dir).install == ("make",)  # the row's own first
    with pytest.raises(RowError, match="test_cmd: missing"):
        row_recipe(bare, REPOS)
    with pytest.raises(RowError, match="base_commit: missing"):
        row_recipe({**PY, "base_commit": None}, REPOS)
    with pytest.raises(RowError, match="field 'language'"):
        row_recipe({**PY, "language": "cobol"}, REPOS)
    specs.write_text(json.dumps({"pytoolz/toolz": {"0": {"test_command": "x"}}}))
    with pytest.raises(RecipeError, match="unknown field 'test_command'"):
        read_specs(specs)


def gold_result(verdict: str, *tests: tuple[str, str]) -> dict:
    return {"verdict": verdict, "detail": "d", "tests": [{"name": n, "detail": d} for n, d in tests]}


def test_the_gold_run_records_only_what_swebench_counts_as_passing() -> None:
    result = gold_result("wrong_answer", ("a", "FAIL_TO_PASS: XFAIL"), ("b", "PASS_TO_PASS: SKIPPED"),
                         ("c", "PASS_TO_PASS: XFAIL"), ("d", "PASS_TO_PASS: PASSED"))
    assert gold_expected(result) == {"a": "XFAIL", "b": "SKIPPED", "c": "XFAIL"}
    for status in ("FAIL_TO_PASS: SKIPPED", "FAIL_TO_PASS: FAILED", "PASS_TO_PASS: ERROR", "PASS_TO_PASS: MISSING",
                   "FAIL_TO_PASS: XPASS"):
        with pytest.raises(RowError, match="the gold patch does not resolve"):
            gold_expected(gold_result("wrong_answer", ("a", status)))
    for verdict in ("infra_error", "runtime_error", "wrong_answer"):  # a sandbox's failure, no report, a refused patch
        with pytest.raises(RowError, match=f"gave no test statuses: {verdict}"):
            gold_expected(gold_result(verdict))


def test_expected_statuses_merge_and_two_rows_disagreeing_is_an_error(tmp_path: Path) -> None:
    built(tmp_path, "e", {"language": "python", "test_cmd": "x"})
    store_expected(tmp_path / "e", "i1", {"a": "XFAIL"})
    store_expected(tmp_path / "e", "i2", {"b": "SKIPPED", "a": "XFAIL"})
    assert json.loads((tmp_path / "e" / "environment.json").read_text())["expected"] == {"a": "XFAIL", "b": "SKIPPED"}
    with pytest.raises(RowError, match="differs from another row's XFAIL"):
        store_expected(tmp_path / "e", "i3", {"a": "SKIPPED"})
    assert not gold_checked(tmp_path / "e", "i1", "k")
    mark_checked(tmp_path / "e", "i1", "k")
    assert gold_checked(tmp_path / "e", "i1", "k") and not gold_checked(tmp_path / "e", "i1", "other")


def test_rows_build_without_the_gold_run_and_a_bad_row_is_its_own_error(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text("".join(json.dumps(r) + "\n" for r in (PY, {**GO, "repo": "no/such"}, {**PY, "instance_id": "x"}, PY)))
    out = build_rows([str(rows)], str(REPOS), str(tmp_path / "envs"), gold=False, progress=lambda m: None)
    assert [(o.instance, o.error is None) for o in out] == [(PY["instance_id"], True), (GO["instance_id"], False),
                                                          ("x", True), (PY["instance_id"], False)]
    assert "not found" in str(out[1].error) and "named by two rows" in str(out[3].error)
    assert out[0].built and out[2].built and out[0].built.key == out[2].built.key  # one commit, one build
    meta = json.loads((tmp_path / "envs" / "x" / "environment.json").read_text())
    assert meta["test_cmd"] == PY["test_cmd"] and "expected" not in meta
    assert verifier_cli(["env", "build", "--format", "swebench", str(rows), "--environments", str(tmp_path / "e2")]) == 2


def test_the_report_reads_a_graded_rows_kind_from_its_format() -> None:
    """`verifier report` on `--format` output (no `kind` column): a SWE-bench row is a repo task, other
    formats' rows code; a row no format reads has none (the report's malformed line)."""
    assert row_kind({**PY, "verdict": "accepted", "score": 1.0}) == "repo"
    assert row_kind({"input_output": '{"inputs": [], "outputs": []}', "question": "q", "verdict": "accepted"}) == "code"
    assert row_kind({"kind": "math"}) == "math" and row_kind({"verdict": "accepted", "score": 1.0}) is None
