"""SWE-bench rows as repo tasks (docs/repo-tasks.md "SWE-bench rows"): every corpus row maps to a
task the schema accepts, with the fields the row says; FAIL_TO_PASS as JSON text or a list is the
same task; the model's patch is read from `completion` or `model_patch`, never from the gold `patch`;
the test command comes from the row, else from what `env build` recorded in the environment; a bad
row is an error naming the column, one line of `verifier grade`'s output, never a crash. No Docker:
the end-to-end run is tests/test_repo_service.py's `test_swebench_rows_through_verifier_grade`."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from sandbox.contract import RepoTask, parse_task
from verifier.config import ServerConfig
from verifier.formats import FormatError, detect, to_task
from verifier.formats.rows import RowRules, row_task
from verifier.formats.swebench import environment_defaults
from verifier.schema import server_limits
from verifier.tools.grade_file import Line, _task_fields, read_lines

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
           "patch": "the bug", "FAIL_TO_PASS": ["tests/t.py::test_a"], "PASS_TO_PASS": ["tests/t.py::test_b"],
           "image_name": "x", "test_cmd": "python3 -m pytest -rA tests/t.py", "model_patch": "the fix"}
    task = parse_task({**to_task(row, "auto"), "id": "1"}, "")
    assert isinstance(task, RepoTask) and task.test_patch == "" and task.environment == row["instance_id"]


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
