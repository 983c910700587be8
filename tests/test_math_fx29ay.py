"""fx29ay (issue 29): a math task's optional `problem` text (MathTask.problem; trusted, the dataset's, never the
policy's). Since fx29av/fx29aw a step line above a caseless answer (`所以 x = 6；\n答案是 6。`) was admitted only when
every name in it was the answer's own subject, which refused right answers whose steps name the problem's quantities
(MathVista pid977). The names the problem uses now join them (verifier/math/grammar.py `problem_names`; docs/math.md
"Answer grammar"): a lone letter or an angle's name as written, and a figure's name made of the points the problem
writes beside `∠`, `△`, `∥` or `⊥`. Nothing else reads the problem.

Rewrites that pay only with their problem; near misses that stay refused with a problem present (red team 27/28's
spelled names, hedges, a second value); the schema's bound and type on every edge; the trainer's prompt."""
from __future__ import annotations

import json
from typing import Any

import pytest

from sandbox.contract import MAX_PROBLEM_BYTES, MathTask, TaskError, default_limits, parse_task, Limits
from verifier.math import extract_answer, grade_math
from verifier.math.grammar import problem_names
from tests.test_reuse_keys import _post

X = "已知 x + 2 = 8，求 x 的值。"
PID977_QUESTION = "如图，已知AB∥CD，AF与CD交于点E，BE⊥AF，∠B＝65°，则∠DEF的度数是（）"  # MathVista testmini, its question
PID977 = ("由于AB∥CD，所以∠B＝∠DEC＝65°；\n又因为BE⊥AF，所以∠DEB＝90°；\n所以∠DEF＝∠DEB-∠DEC＝90°-65°＝25°；\n"
          "所以，答案是D。")
PID977_CHOICES = ["65°", "5°", "15°", "25°"]


def verdict(completion: str, gold: str = "6", problem: str | None = None, **task: Any) -> str:
    return grade_math({"completion": completion, "gold": gold, **({"problem": problem} if problem is not None else {}),
                       **task})["verdict"]


# ----------------------------------------------------------------- rewrites: paid with their problem, not without

REWRITES = [
    ("所以 x = 6；\n答案是 6。", X, "6"),
    ("所以 x = 2 + 4 = 6；\n答案是 6。", X, "6"),
    ("因为 x + 2 = 8，所以 x = 6；\n答案是 6。", X, "6"),
    ("所以 n = 6；\n答案是 6。", "Find n if n + 1 = 7.", "6"),
    ("ดังนั้น x = 6;\nคำตอบคือ 6", "หาค่า x", "6"),
    ("由于AB∥CD，所以∠B = 65°；\n所以，答案是 65°。", "如图，AB∥CD，∠B＝65°，求∠B。", "65°"),
    ("所以∠DEC＝65°；\n所以，答案是 65°。", "如图，AB∥CD，AF与CD交于点E，∠B＝65°，求∠DEC。", "65°"),
    ("所以∠ABD＝30°；\n答案是 30°。", "在△ABC中，点D在BC上，∠A = 50°，求∠ABD。", "30°"),  # D: a lone letter
]


@pytest.mark.parametrize("completion,problem,gold", REWRITES)
def test_a_step_line_naming_the_problems_quantities_pays_with_its_problem(completion, problem, gold):
    assert verdict(completion, gold, problem) == "correct"
    assert verdict(completion, gold) == "no_answer"  # without the problem: fx29av's refusal, unchanged


def test_mathvista_pid977_pays_with_its_question():
    """The peer row (tests/data/peer_outputs/mathvista_gpt4.jsonl): its steps name `∠DEC`, `∠DEB`, which the
    question does not write; their points D, E, C, B are the figure's (`AB∥CD`, `BE⊥AF`, `∠DEF`)."""
    assert verdict(PID977, "25°", PID977_QUESTION, choices=PID977_CHOICES) == "correct"
    assert verdict(PID977, "25°", choices=PID977_CHOICES) == "no_answer"
    assert verdict(PID977, "65°", PID977_QUESTION, choices=PID977_CHOICES) == "incorrect"
    assert verdict(PID977.replace("答案是D", "答案是A"), "25°", PID977_QUESTION, choices=PID977_CHOICES) == "incorrect"


def test_a_wrong_answer_under_its_problem_is_still_wrong():
    assert verdict("所以 x = 7；\n答案是 7。", "6", X) == "incorrect"
    assert verdict("所以 x = 6；\n答案是 7。", "6", X) == "incorrect"


# ----------------------------------------------------------------- near misses: refused with a problem present

NEAR_MISSES = [
    ("所以 ∠NOT = 6；\n答案是 6。", X),  # red team 27: a problem naming x admits no ∠NOT
    ("由于 NO∥TX，所以 x = 6；\n答案是 6。", X),
    ("由于NO∥TX，所以 x = 6；\n答案是 6。", X),
    ("所以 n + o = 6；\n答案是 6。", X),  # red team 28: letters that spell a word
    ("所以 n + o + t = 6；\n答案是 6。", "Find n if n + 1 = 7."),  # one of them is the problem's, not all
    ("所以 ∠NOT = 6；\n答案是 6。", "Which statement is NOT true? Answer YES or NO."),  # capitals in prose: no points
    ("由于NO∥OR，所以 x = 6；\n答案是 6。", "Which is NOT true about x? Answer YES or NO, OR explain."),
    ("所以 ∠NOT = 6；\n答案是 6。", "如图，∠NOP = 30°，求 x。"),  # N and O are the figure's points, T is not
    ("所以 ∠NO = 6；\n答案是 6。", "NO. 3: 如图，∠B = 30°，求 x。"),
    ("所以 x = 6 可能；\n答案是 6。", X),  # a word of its own after the relation
    ("所以 x ≈ 6；\n答案是 6。", X),  # an approximation
    ("所以 x = 6000；\n答案是 6。", X),  # four digits may scale
    ("所以 x = 6\n答案是 6。", X),  # a relation ends a step line only with its mark
    ("可能\n答案是 6。", X),  # hedges: never step lines, whatever the problem
    ("可能\n答案是 6。", "可能 x 是多少？"),
    ("以千为单位\n答案是 6。", "以千为单位，求 x。"),
    ("不是\n答案是 6。", X),
    ("I doubt that\n答案是 6。", X),
]


@pytest.mark.parametrize("completion,problem", NEAR_MISSES)
def test_near_misses_stay_refused_with_a_problem(completion, problem):
    assert verdict(completion, "6", problem) != "correct"


def test_the_spelled_names_need_every_point_from_the_figure():
    """∠NOT pays only where the problem's figure has N, O and T (then it is that figure's angle, not a word)."""
    step = "所以 ∠NOT = 6；\n答案是 6。"
    assert verdict(step, "6", "如图，∠NOP = 30°，OT⊥NP，求∠NOT。") == "correct"
    assert verdict(step, "6", "如图，∠NOP = 30°，OT 与 NP 相交，求 x。") == "no_answer"


def test_the_problem_is_read_only_while_its_task_is():
    """The names are the task's alone: an extraction reads its own problem's (none when it has none), whatever
    surrounds it, and a task after one with a problem reads none."""
    with problem_names(X):
        assert extract_answer("所以 x = 6；\n答案是 6。").text is None
    assert extract_answer("所以 x = 6；\n答案是 6。").text is None
    assert extract_answer("所以 x = 6；\n答案是 6。", problem=X).text == "6"
    assert extract_answer("所以 x = 6；\n答案是 6。", problem="求 y 的值。").text is None


# ----------------------------------------------------------------- the schema: one field, bounded, typed, on every edge

def test_the_problem_is_part_of_the_task_schema():
    task = parse_task({"id": "a", "kind": "math", "completion": "c", "gold": "6", "problem": X})
    assert isinstance(task, MathTask) and task.problem == X and task.to_dict()["problem"] == X
    assert parse_task({"id": "a", "kind": "math", "completion": "c", "gold": "6"}).problem == ""  # type: ignore[union-attr]


@pytest.mark.parametrize("value", [7, ["x"], {"text": "x"}, True])
def test_a_problem_that_is_not_a_string_is_refused_by_name(value):
    with pytest.raises(TaskError, match=r"problem"):
        parse_task({"id": "a", "kind": "math", "completion": "c", "gold": "6", "problem": value})
    assert grade_math({"completion": "c", "gold": "6", "problem": value})["verdict"] == "error"


def test_the_problems_size_is_bounded_on_every_edge():
    from verifier.schema import task_to_proto, validate_tasks
    from verifier.v1 import verifier_pb2 as pb

    limits: Limits = Limits(max_tasks_per_call=10, max_field_bytes=1 << 20, max_math_timeout_s=30,
                            max_code_timeout_s=30, max_choices=26, languages=default_limits())
    at, over = "字" * (MAX_PROBLEM_BYTES // 3), "字" * (MAX_PROBLEM_BYTES // 3) + "xx"  # 3 bytes a character
    assert len(at.encode()) <= MAX_PROBLEM_BYTES < len(over.encode())
    base = {"id": "a", "kind": "math", "completion": "所以 x = 6；\n答案是 6。", "gold": "6"}
    assert parse_task({**base, "problem": at}, limits=limits).problem == at  # type: ignore[union-attr]
    with pytest.raises(TaskError, match=r"problem.*exceeds"):
        parse_task({**base, "problem": over}, limits=limits)
    wire = pb.Task(id="a", math=pb.MathTask(completion="c", gold="6", problem=over))
    with pytest.raises(TaskError, match=r"tasks\[0\]\.math\.problem"):
        validate_tasks([wire], limits)
    model = validate_tasks([task_to_proto({**base, "problem": at})], limits)[0]
    assert isinstance(model, MathTask) and model.problem == at
    result = grade_math({**base, "problem": over})
    assert result["verdict"] == "error" and "problem" in result["detail"]


def test_the_problem_crosses_the_wire_exactly():
    from verifier.schema import model_from_proto, task_to_proto

    for problem in (X, "", "求 x 的值。 ", "e\u0301"):
        model = model_from_proto(task_to_proto({"id": "a", "kind": "math", "completion": "c", "gold": "6",
                                                "problem": problem}))
        assert isinstance(model, MathTask) and model.problem == problem


def test_the_http_edge_refuses_an_oversized_problem_naming_it(server_factory):
    server = server_factory("--workers", "1", "--no-code")
    task = {"id": "a", "kind": "math", "completion": "所以 x = 6；\n答案是 6。", "gold": "6"}
    status, body = _post(server.http_url + "/v1/grade", {"tasks": [{**task, "problem": "x" * (MAX_PROBLEM_BYTES + 1)}]})
    assert status == 400 and "problem" in json.dumps(body), body
    status, body = _post(server.http_url + "/v1/grade", {"tasks": [{**task, "problem": X}, {**task, "id": "b"}]})
    assert status == 200, body
    assert [r["verdict"] for r in body["results"]] == ["correct", "no_answer"]


# ----------------------------------------------------------------- the trainer: the dataset's column, else TRL's prompt

def test_trl_rows_send_the_problem_column_else_the_prompt():
    from trainer.config import RewardConfig
    from trainer.tasks import build_tasks

    completions = ["所以 x = 6；\n答案是 6。"] * 4
    prompts = [X, [{"role": "system", "content": "Think step by step. NOT x."}, {"role": "user", "content": X}],
               "求 y 的值。", X]
    columns = {"solution": ["6"] * 4, "problem": [None, None, None, "求 z 的值。"]}
    tasks = build_tasks(completions, columns, RewardConfig(), prompts)
    assert [t["problem"] for t in tasks if t] == [X, X, "求 y 的值。", "求 z 的值。"]  # the column wins; user turns only
    off = build_tasks(completions, columns, RewardConfig(problem_from_prompt=False), prompts)
    assert [t["problem"] for t in off if t] == ["", "", "", "求 z 的值。"]
    assert [t["problem"] for t in build_tasks(completions, columns, RewardConfig()) if t] == ["", "", "", "求 z 的值。"]


def test_a_long_prompt_is_cut_to_its_tail_within_the_bound():
    from verifier.formats.common import prompt_problem

    long = "字" * MAX_PROBLEM_BYTES + X
    cut = prompt_problem(long)
    assert len(cut.encode()) <= MAX_PROBLEM_BYTES and cut.endswith(X)
    assert prompt_problem(X) == X and prompt_problem(None) == "" and prompt_problem([{"role": "user", "content": 3}]) == ""
