"""The contract (sandbox/contract.py) is the one home of verdict names, the result builders and limits.

The first test reads every module of the three packages and fails on a second list of verdict
names outside the contract: the "ungraded" set once had four variants with different members
(issue 21), and tests/test_same_verdict_paths.py exists because such copies diverge.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sandbox import contract
from sandbox.contract import BY_NAME, TABLE, VERDICTS
from verifier.schema import result_from_proto, result_to_proto, verdict_from_proto, verdict_to_proto
from verifier.v1 import verifier_pb2 as pb

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("verifier", "sandbox", "trainer")
HOME = Path("sandbox/contract.py")


def verdict_lists(root: Path) -> list[str]:
    """Every tuple, list, set or dict literal (a `v in (...)` test included) that holds two or more
    verdict names as strings, in the packages' modules other than the contract: `path:line [names]`."""
    names = set(VERDICTS)
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root)
            if rel == HOME or rel.parts[:2] == ("verifier", "v1"):  # v1: generated from the proto
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(rel))):
                if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
                    items = node.elts
                elif isinstance(node, ast.Dict):
                    items = [k for k in node.keys if k is not None] + node.values
                else:
                    continue
                hit = sorted({x.value for x in items if isinstance(x, ast.Constant) and x.value in names})
                if len(hit) >= 2:
                    found.append(f"{rel}:{node.lineno} {hit}")
    return sorted(found)


def test_no_second_list_of_verdict_names_outside_the_contract():
    assert verdict_lists(ROOT) == []


def test_the_scan_finds_a_second_list(tmp_path):
    """The scan itself can fail: a copy of the old report's set is flagged, the contract is not."""
    for package in PACKAGES:
        (tmp_path / package).mkdir()
    (tmp_path / "verifier" / "report.py").write_text('UNGRADED = {"infra_error"}\nPASS = frozenset({"correct", "accepted"})\n'
                                                     'ok = v in ("time_limit", "output")\n'
                                                     'COLORS = {"timeout": "#d17a00", "no_code": "#c9a227"}\n')
    (tmp_path / "sandbox" / "contract.py").write_text('X = ("correct", "incorrect")\n')
    assert verdict_lists(tmp_path) == ["verifier/report.py:2 ['accepted', 'correct']",
                                       "verifier/report.py:4 ['no_code', 'timeout']"]


def test_the_table_is_the_protos_enum():
    """Every row's number is its name's in verifier.v1.Verdict, and every enum value but UNSPECIFIED has a row."""
    wire = {v.name.removeprefix("VERDICT_").lower(): v.number for v in pb.Verdict.DESCRIPTOR.values}
    wire.pop("unspecified")
    assert {v.name: v.proto for v in TABLE} == wire
    for v in TABLE:
        assert verdict_from_proto(verdict_to_proto(v.name)) == v.name
    with pytest.raises(ValueError):
        verdict_to_proto("almost_correct")


def test_the_three_meanings_of_not_graded():
    """Narrow to wide: the host could not grade (report: out of pass@k; retryable) < no judgement at all
    (trainer: reward None; `verifier grade`: nothing graded) < the answer was not judged (HTTP trainer
    routes: 0.0 and a flag; a bad gold too). None of them ever passes or counts as a wrong answer."""
    assert contract.HOST_FAULTS == {"infra_error"}
    assert contract.UNGRADED == {"infra_error", "error"}
    assert contract.UNJUDGED == {"infra_error", "error", "invalid_gold"}
    assert contract.HOST_FAULTS == {v.name for v in TABLE if v.retryable}
    for name in contract.UNJUDGED:
        assert not BY_NAME[name].passes and not BY_NAME[name].wrong
    assert contract.PASSING == {"correct", "accepted"}
    assert contract.CACHEABLE == {"correct", "incorrect", "no_answer", "invalid_gold"}
    assert contract.NOT_FOUND == {"no_answer", "no_code"} and contract.NOT_BUILT == {"compile_error", "no_code"}


def test_verdict_lists_keep_their_members_and_order():
    """The lists the CLI, the sandbox's public API and the math library name, as before the table."""
    assert contract.MATH_VERDICTS == ("correct", "incorrect", "no_answer", "invalid_gold", "timeout", "error")
    assert contract.CODE_VERDICTS == ("accepted", "wrong_answer", "compile_error", "runtime_error", "time_limit",
                                      "memory_limit", "output_limit", "no_code")
    assert VERDICTS == contract.MATH_VERDICTS + contract.CODE_VERDICTS + ("infra_error",)
    import sandbox
    from verifier.math import grade
    assert sandbox.VERDICTS == (*contract.CODE_VERDICTS, "infra_error")
    assert grade.VERDICTS == ("correct", "incorrect", "no_answer", "invalid_gold", "error")


def test_execute_statuses_map_as_before():
    """A test's verdict as an Execute status: accepted is ok, a verdict Execute names is itself, any
    other failure of the program (wrong_answer when an expected output was given, no_code) runtime_error."""
    from verifier.api.execute import execute_response
    assert set(contract.EXECUTE_STATUSES) == {"ok", "compile_error", "runtime_error", "time_limit", "memory_limit",
                                              "output_limit", "infra_error"}
    for name in contract.SANDBOX_VERDICTS:
        result = {"verdict": name, "tests": [{"verdict": name, "detail": ""}], "detail": ""}
        want = "ok" if name == "accepted" else name if name in contract.EXECUTE_STATUSES else "runtime_error"
        assert execute_response(result)["status"] == want, name


def test_report_colours_come_from_the_table():
    from verifier.tools.report import COLORS, DEFAULT_COLOR
    assert COLORS == {"correct": "#2e8540", "accepted": "#2e8540", "infra_error": "#8a8f98", "timeout": "#d17a00",
                      "time_limit": "#d17a00", "no_answer": "#c9a227", "no_code": "#c9a227"}
    assert DEFAULT_COLOR not in COLORS.values()


def test_builders_make_whole_results_that_survive_the_wire():
    infra = contract.infra_error("t1", "x" * 1000)
    assert set(infra) == set(contract.Result.__annotations__)
    assert infra["retryable"] is True and infra["score"] == 0.0 and len(infra["detail"]) == contract.DETAIL_MAX
    refused = contract.task_error("t2", "tasks[3].gold: must be a string")
    assert refused["verdict"] == "error" and refused["retryable"] is False
    for r in (infra, refused):
        assert result_from_proto(result_to_proto(r)) == r
    # a math outcome scores 1 only for a passing verdict; a code outcome keeps the score it is given
    assert contract.outcome("correct", "")["score"] == 1.0
    assert contract.outcome("incorrect", "")["score"] == 0.0
    assert contract.code_outcome("wrong_answer", "", score=0.5, tests=[])["score"] == 0.5
    assert contract.sandbox_infra_error("gone", extracted="p" * 5000)["extracted"] == "p" * contract.EXTRACT_MAX
    with pytest.raises(KeyError):
        contract.outcome("almost_correct", "")


def test_support_file_limits_differ_by_edge():
    """A graded task's files travel with every task of a batch and are written again for each checker
    run; an Execute request's are one tool call's directory: two edges, two limits, one home."""
    from sandbox.contract import CodeTask, TaskError
    from verifier.execute_wire import check_files

    many = {f"f{i}.txt": "x" for i in range(contract.TASK_MAX_FILES + 1)}
    with pytest.raises(TaskError, match="files"):
        CodeTask.from_dict({"language": "python", "completion": "x", "files": many}, "task")
    assert len(check_files(many, "python", 1 << 20)) == len(many)
    with pytest.raises(TaskError, match=str(contract.EXECUTE_MAX_FILES)):
        check_files({f"f{i}": "x" for i in range(contract.EXECUTE_MAX_FILES + 1)}, "python", 1 << 20)


def test_a_cpp_checker_needs_an_image_with_gxx():
    """The contract lists the images that have g++ (CPP_CHECKER_LANGUAGES); a language outside it is
    refused naming the field: JavaScript, or a language an operator gave limits but that has no such
    image (before the list moved here, the latter was a KeyError out of the languages table)."""
    from sandbox.contract import CodeTask, LanguageLimits, TaskError

    base = {"completion": "x", "tests": [{"stdin": "", "expected_stdout": ""}], "checker": "int main() {}",
            "checker_language": "cpp"}
    assert CodeTask.from_dict({**base, "language": "rust"}, "task").checker_language == "cpp"
    for language, limits in (("javascript", None), ("ruby", {"ruby": LanguageLimits()})):
        with pytest.raises(TaskError, match=r"needs g\+\+") as refused:
            CodeTask.from_dict({**base, "language": language}, "task", limits=limits)
        assert refused.value.field == "task.checker_language"
