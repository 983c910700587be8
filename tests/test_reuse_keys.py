"""Reuse keys are exact typed bytes (issue 29 item 3; docs/service.md "Reuse keys"; DESIGN's rule "A key
that reuses work is exact bytes"): pairs of tasks that differ in one field or one type (1/True,
7/7.0, 0.0/-0.0, NaN, dict order, str/bytes, a trailing space, NFC/NFD) never share a run, a parked
answer or a cached verdict; identical pairs still do.

Pure tests on `sandbox.keys.reuse_key` and on every key built with it, then the gRPC and the HTTP
paths through a real server on loopback with real containers (docker). On main (fb42a03) the
`1`/`True`, `7`/`7.0`, `0.0`/`-0.0` and dict-order pairs shared one run (`Plan.share_key` compared
with `==`), math tasks with no choices and one empty choice shared a verdict (the dedup key joined
the choices with NUL), and the trainer's batch fingerprint sorted dict keys."""
from __future__ import annotations

import asyncio
import copy
import enum
import json
import math
import random
import struct
import unicodedata
import urllib.error
import urllib.request
from typing import Any

import pytest

from sandbox import SandboxConfig
from sandbox.contract import MathTask
from sandbox.plan import make_plan
from sandbox.keys import canonical, reuse_key
from verifier import math as vmath

NAN_OTHER = struct.unpack(">d", bytes.fromhex("7ff8000000000001"))[0]  # a NaN with another payload
NFC, NFD = unicodedata.normalize("NFC", "café"), unicodedata.normalize("NFD", "café")

# (a, b): values Python's == (or a sorted JSON) takes as one, which a program or a grader can tell apart
NEAR_PAIRS = [
    (1, True), (0, False), (1, 1.0), (7, 7.0), (0.0, -0.0), (0, 0.0), (math.nan, NAN_OTHER),
    ({"a": 1, "b": 2}, {"b": 2, "a": 1}), ("x", b"x"), ("", b""), ((1, 2), [1, 2]), ((), []),
    (None, ""), (None, 0), ("1", 1), ("7 ", "7"), ("7\n", "7"), (NFC, NFD), ([1, [True]], [1, [1]]),
    ({"k": 1.0}, {"k": 1}), (2**70, float(2**70)), (-(2**70), -(2**70) + 1), (b"\x00", b""),
    (("ab", "c"), ("a", "bc")), (["a\0b"], ["a", "b"]), (("",), ()), ([""], [None]),
]


@pytest.mark.parametrize("a,b", NEAR_PAIRS, ids=[f"{a!r}-vs-{b!r}" for a, b in NEAR_PAIRS])
def test_values_equal_under_python_or_json_have_different_keys(a, b):
    assert canonical(a) != canonical(b)
    assert reuse_key("k", a) != reuse_key("k", b)
    assert reuse_key("k", [a]) != reuse_key("k", [b]) and reuse_key("k", {"x": a}) != reuse_key("k", {"x": b})


@pytest.mark.parametrize("value", [1, True, 7.0, -0.0, math.nan, {"b": 2, "a": [1, (2, "x")]}, NFD, b"\xff", None,
                                   2**200, -1, "", [], {}])
def test_equal_copies_share_a_key(value):
    """Identical pairs still share: a deep copy, or a NaN made again (the same bits), is the same key."""
    assert reuse_key("k", value) == reuse_key("k", copy.deepcopy(value))
    assert reuse_key("k", float("nan")) == reuse_key("k", math.nan)  # both the quiet NaN's bits


def test_the_cache_name_is_part_of_the_key():
    assert reuse_key("math", "3") != reuse_key("math-compared", "3")
    assert len(reuse_key("x")) == 32


class _Color(enum.IntEnum):
    RED = 1


class _Text(str):
    pass


@pytest.mark.parametrize("value", [{1, 2}, frozenset(), object(), _Color.RED, _Text("x"), 1j, bytearray(b"x")])
def test_a_value_with_no_exact_form_is_refused_not_guessed(value):
    """Admit only what is known to be written exactly: a set (no order), a subclass that may compare
    as its base (IntEnum is an int that is == 1), anything else: TypeError."""
    with pytest.raises(TypeError, match="reuse-key"):
        reuse_key("k", value)


# ----------------------------------------------------------------- differential: generated near pairs

def _value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.randrange(-5, 6)
    if kind == 2:
        return rng.choice([0.0, -0.0, 1.5, 7.0, -2.0, 1e300])
    if kind in (3, 4):
        return rng.choice(["", "a", "7", "x y", NFC, "tab\t"])
    if kind == 5:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 6:
        return tuple(_value(rng, depth + 1) for _ in range(rng.randrange(4)))
    return {k: _value(rng, depth + 1) for k in rng.sample("abcd", rng.randrange(4))}


def _mutations(v: Any) -> list[Any]:
    """Values that differ from v in exactly one type or one detail that `==` (or sorted JSON) ignores."""
    out: list[Any] = []
    if type(v) is bool:
        out.append(int(v))
    elif type(v) is int:
        out.append(float(v))
        if v in (0, 1):
            out.append(bool(v))
    elif type(v) is float:
        if v == 0.0:
            out.append(-v)
        if v.is_integer() and abs(v) < 1e18:
            out.append(int(v))
    elif type(v) is str:
        out += [v + " ", v + "\n", v.encode(), unicodedata.normalize("NFD", v) if v == NFC else v + "\u200b"]
    elif type(v) in (list, tuple):
        out.append(list(v) if type(v) is tuple else tuple(v))
        for i, item in enumerate(v):
            out += [type(v)([*v[:i], m, *v[i + 1:]]) for m in _mutations(item)]
    elif type(v) is dict:
        if len(v) > 1:
            out.append(dict(reversed(list(v.items()))))
        for k, item in v.items():
            out += [{**v, k: m} for m in _mutations(item)]
    return out


def test_generated_near_pairs_never_share_a_key_and_copies_always_do():
    rng = random.Random(29)
    pairs = 0
    for _ in range(400):
        v = _value(rng)
        key = reuse_key("call", v)
        assert reuse_key("call", copy.deepcopy(v)) == key
        for m in _mutations(v):
            assert reuse_key("call", m) != key, (v, m)
            pairs += 1
    assert pairs > 1000


# ----------------------------------------------------------------- every key that reuses work, pure

def _plan(**task):
    plan = make_plan({"language": "python", "completion": "```python\ndef f(x):\n    return repr(x)\n```",
                      "entry_point": "f", **task}, SandboxConfig())
    assert not isinstance(plan, dict), plan
    return plan


def _calls(*args: Any, expected: Any = "1", kwargs: dict | None = None) -> list[dict]:
    return [{"args": list(args), "kwargs": kwargs or {}, "expected": expected}]


CALL_PAIRS = [  # (task change a, task change b): one type or one detail apart
    ({"call_tests": _calls(1)}, {"call_tests": _calls(True)}),
    ({"call_tests": _calls(0)}, {"call_tests": _calls(False)}),
    ({"call_tests": _calls(7)}, {"call_tests": _calls(7.0)}),
    ({"call_tests": _calls(0.0)}, {"call_tests": _calls(-0.0)}),
    ({"call_tests": _calls({"a": 1, "b": 2})}, {"call_tests": _calls({"b": 2, "a": 1})}),
    ({"call_tests": _calls(kwargs={"x": 1, "y": 2})}, {"call_tests": _calls(kwargs={"y": 2, "x": 1})}),
    ({"call_tests": _calls([1, 2])}, {"call_tests": _calls([1, 2.0])}),
    ({"call_tests": _calls(1, expected=7)}, {"call_tests": _calls(1, expected=7.0)}),
    ({"call_tests": _calls(1, expected=True)}, {"call_tests": _calls(1, expected=1)}),
    ({"call_tests": _calls("a")}, {"call_tests": _calls("a ")}),
    ({"call_tests": _calls(NFC)}, {"call_tests": _calls(NFD)}),
    ({"time_limit_s": 2}, {"time_limit_s": 2.5}),
    ({"float_abs_tol": 0.0, "compare": "float"}, {"float_abs_tol": 0.5, "compare": "float"}),
]
STDIN_PAIRS = [
    ({"stdin": "1 2\n"}, {"stdin": "1 2 \n"}),  # a trailing space the comparator ignores, the program sees
    ({"stdin": NFC}, {"stdin": NFD}),
    ({"expected_stdout": "3\n"}, {"expected_stdout": "3 \n"}),
    ({"expected_stdout": "3\n"}, {"expected_stdout": "3.0\n"}),
]


@pytest.mark.parametrize("a,b", CALL_PAIRS)
def test_call_test_tasks_one_type_apart_never_share_a_run(a, b):
    """Plan.share_key (identical programs of a call run once): on main it compared with ==, so these
    pairs shared one run and one verdict."""
    assert _plan(**a).share_key() != _plan(**b).share_key()
    assert _plan(**a).share_key() == _plan(**copy.deepcopy(a)).share_key()


@pytest.mark.parametrize("a,b", STDIN_PAIRS)
def test_stdin_tests_one_detail_apart_never_share_a_run_or_a_stash(a, b):
    base = {"stdin": "1 2\n", "expected_stdout": "3\n"}
    pa, pb = _plan(tests=[{**base, **a}]), _plan(tests=[{**base, **b}])
    assert pa.share_key() != pb.share_key()
    assert pa.share_key() == _plan(tests=[{**base, **a}]).share_key()
    if "stdin" in a:  # the stash holds inputs by digest (sandbox/job.py _stash)
        assert pa.tests.digests()[0][1] != pb.tests.digests()[0][1]


def test_a_test_that_compares_nothing_is_not_one_that_expects_empty_output():
    none = _plan(tests=[{"stdin": "", "expected_stdout": None}])
    empty = _plan(tests=[{"stdin": "", "expected_stdout": ""}])
    assert none.share_key() != empty.share_key()


def test_one_call_shares_runs_only_under_one_key():
    from sandbox.grader import SharedRuns

    async def run() -> tuple[int, int]:
        shared, started = SharedRuns(), []

        async def start() -> dict:
            started.append(1)
            return {}

        keys = [_plan(**CALL_PAIRS[0][0]).share_key(), _plan(**CALL_PAIRS[0][1]).share_key(),
                _plan(**CALL_PAIRS[0][0]).share_key()]
        futures = [shared.run(k, None, start) for k in keys] + [shared.run(keys[0], 5.0, start)]
        await asyncio.gather(*futures)
        return len(started), shared.hits

    assert asyncio.run(run()) == (3, 1)  # 1, True and the shorter deadline run; the identical copy joins


MATH_PAIRS = [  # (task a, task b) fields of MathTask: one detail apart
    ({"gold": "3"}, {"gold": "3", "choices": ("",)}),  # main: "\0".join(()) == "\0".join(("",))
    ({"gold": "3", "choices": ("a\0b",)}, {"gold": "3", "choices": ("a", "b")}),
    ({"gold": "3\x01"}, {"gold": "3", "choices": ("\x01",)}),
    ({"gold": "3"}, {"gold": "3 "}),
    ({"gold": NFC}, {"gold": NFD}),
    ({"gold": "3", "timeout_s": 0.0}, {"gold": "3", "timeout_s": 5.0}),
    ({"gold": "3"}, {"gold": "3", "problem": "x"}),  # fx29ay: the problem's names decide what the grammar reads
    ({"gold": "3", "problem": "x"}, {"gold": "3", "problem": "x "}),
    ({"gold": "3", "problem": NFC}, {"gold": "3", "problem": NFD}),
    ({"gold": "3", "problem": "x"}, {"gold": "3", "choices": ("x",)}),
]


@pytest.mark.parametrize("a,b", MATH_PAIRS)
def test_math_tasks_one_detail_apart_never_share_a_verdict(a, b):
    from verifier.engine import _math_key

    ta, tb = MathTask(id="a", completion="so \\boxed{3}", **a), MathTask(id="b", completion="so \\boxed{3}", **b)
    ea = vmath.extract_answer(ta.completion, ta.profile, list(ta.choices) or None, ta.problem)
    eb = vmath.extract_answer(tb.completion, tb.profile, list(tb.choices) or None, tb.problem)
    assert _math_key(ta, ea) != _math_key(tb, eb)
    assert _math_key(ta, ea) == _math_key(MathTask(id="c", completion="other prose \\boxed{3}", **a), ea)


def test_no_answer_is_not_an_empty_answer():
    from verifier.engine import _math_key

    task = MathTask(id="a", gold="3")
    assert _math_key(task, vmath.Extraction(None, "boxed")) != _math_key(task, vmath.Extraction("", "boxed"))
    assert _math_key(task, vmath.Extraction(None, "boxed")) != _math_key(task, vmath.Extraction("\0none", "boxed"))


def test_the_worker_verdict_cache_keeps_answers_apart():
    """verifier/math/grade.py _COMPARED (the full path's verdicts by gold and answer): each answer its
    own verdict, the same pair reused."""
    from verifier.math import grade

    gold = "\\sqrt{2}\\pi"
    verdicts = [grade.grade_math({"completion": f"\\boxed{{{a}}}", "gold": gold})["verdict"]
                for a in ("\\pi\\sqrt{2}", "\\pi\\sqrt{3}", "\\pi \\sqrt{2}", "\\pi\\sqrt{2}")]
    assert verdicts == ["correct", "incorrect", "correct", "correct"]
    assert len(grade._COMPARED) >= 2


def test_the_trainer_batch_key_keeps_order_and_types():
    """trainer/rewards.py _fingerprint shares one RPC's results between reward components: main wrote
    the batch as JSON with sorted keys, so call tests in another dict order were one batch."""
    from trainer.rewards import _fingerprint

    def batch(args: Any) -> list[dict | None]:
        return [{"kind": "code", "completion": "x", "call_tests": _calls(args), "tests": [{"stdin": "1"}]}, None]

    for a, b in [({"a": 1, "b": 2}, {"b": 2, "a": 1}), (1, True), (7, 7.0), (0.0, -0.0)]:
        assert _fingerprint(batch(a)) != _fingerprint(batch(b)), (a, b)
    assert _fingerprint(batch(1)) == _fingerprint(batch(1))
    same = [{"kind": "code", "tests": [{"stdin": "1", "expected_stdout": "2"}]}]
    swapped = [{"kind": "code", "tests": [{"expected_stdout": "2", "stdin": "1"}]}]
    assert _fingerprint(same + same) != _fingerprint(same + swapped)


def test_client_test_sets_are_named_by_their_exact_tests():
    from sandbox.contract import parse_task
    from verifier.schema import protos_with_test_sets

    def task(i: int, stdin: str) -> Any:
        return parse_task({"id": str(i), "kind": "code", "completion": "x", "tests": [{"stdin": stdin, "expected_stdout": "1"}]})

    protos, sets = protos_with_test_sets([task(0, "1"), task(1, "1"), task(2, "1 "), task(3, "1 "), task(4, NFC), task(5, NFD)])
    names = [p.code.test_set for p in protos]
    assert names[0] == names[1] != names[2] == names[3] and names[4] == names[5] == "" and len(sets) == 2  # NFC, NFD: inline
    assert [t.stdin for t in sets[names[2]].tests] == ["1 "]


def test_parking_keys_are_the_route_query_and_body_bytes():
    from verifier.api.transport import _digest_and_parse

    body = json.dumps({"a": 1}).encode()
    key, parsed = _digest_and_parse("/run_code", "", body)
    assert parsed == {"a": 1} and key == _digest_and_parse("/run_code", "", body)[0]
    for other in [("/run_code", "", b'{"a": true}'), ("/run_code", "", b'{"a": 1.0}'), ("/run_code", "", b'{"a": 1} '),
                  ("/run_code", "x=1", body), ("/slime/remote_rm", "", body), ("/run_code?", "", body)]:
        assert _digest_and_parse(*other)[0] != key, other


# ----------------------------------------------------------------- the gRPC and HTTP paths, real containers

PROGRAM = "```python\ndef f(x):\n    return repr(x)\n```"


def _call_task(task_id: str, arg: Any, expected: str) -> dict:
    return {"id": task_id, "kind": "code", "language": "python", "completion": PROGRAM, "entry_point": "f",
            "call_tests": [{"args": [arg], "expected": expected}]}


def _call_pairs() -> tuple[list[dict], dict[str, str]]:
    """Tasks in pairs one type apart with the same expected value (the first's repr): the first is right,
    the second wrong. Sharing a run would pay the second or fail the first. Plus an identical pair."""
    tasks, want = [], {}
    for i, (a, b) in enumerate([(1, True), (0, False), (7, 7.0), (0.0, -0.0), ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
                                ("a", "a "), (NFC, NFD)]):
        tasks += [_call_task(f"p{i}-right", a, repr(a)), _call_task(f"p{i}-wrong", b, repr(a))]
        want.update({f"p{i}-right": "accepted", f"p{i}-wrong": "wrong_answer"})
    for i, (a, b) in enumerate([("ab\n", "ab \n"), (NFC + "\n", NFD + "\n")]):  # stdin tests: what the program sees
        tasks += [_stdin_task(f"s{i}-right", a, len(a) - 1), _stdin_task(f"s{i}-wrong", b, len(a) - 1)]
        want.update({f"s{i}-right": "accepted", f"s{i}-wrong": "wrong_answer"})
    tasks += [_call_task("same-1", 3, "3"), _call_task("same-2", 3, "3")]
    want.update({"same-1": "accepted", "same-2": "accepted"})
    return tasks, want


def _stdin_task(task_id: str, stdin: str, length: int) -> dict:
    return {"id": task_id, "kind": "code", "language": "python", "completion": "```python\nprint(len(input()))\n```",
            "tests": [{"stdin": stdin, "expected_stdout": f"{length}\n"}]}


@pytest.mark.docker
def test_grpc_call_tests_one_type_apart_each_get_their_own_run(server_factory):
    from verifier.client import VerifierClient

    server = server_factory("--workers", "1", "--sandbox-languages", "python")
    tasks, want = _call_pairs()
    hits = server.metric("verifier_dedup_hits_total", kind="code")
    with VerifierClient(server.target) as client:
        got = {r["id"]: r["verdict"] for r in client.grade(tasks, timeout_s=300)}
    assert got == want
    assert server.metric("verifier_dedup_hits_total", kind="code") == hits + 1  # only the identical pair


@pytest.mark.docker
def test_http_call_tests_and_math_one_detail_apart_each_get_their_own_verdict(server_factory):
    server = server_factory("--workers", "1", "--sandbox-languages", "python")
    tasks, want = _call_pairs()
    math = [{"id": "m-none", "kind": "math", "completion": "so \\boxed{3}", "gold": "3"},
            {"id": "m-empty", "kind": "math", "completion": "so \\boxed{3}", "gold": "3", "choices": [""]}]
    hits = server.metric("verifier_dedup_hits_total", kind="code")
    status, body = _post(server.http_url + "/v1/grade", {"tasks": tasks + math})
    assert status == 200, body
    got = {r["id"]: r["verdict"] for r in body["results"]}
    assert got == {**want, "m-none": "correct", "m-empty": "invalid_gold"}
    assert server.metric("verifier_dedup_hits_total", kind="code") == hits + 1
    # across calls (the engine's verdict cache): the cached "correct" is not the empty choice's answer
    status, body = _post(server.http_url + "/v1/grade", {"tasks": math[1:]})
    assert [r["verdict"] for r in body["results"]] == ["invalid_gold"]


# Math tasks one problem text apart (fx29ay: MathTask.problem): the same answer read, so only the dedup metric tells
# a shared verdict; each pair must not share, the identical pair must. The caseless step line pays only with its problem.
STEP = "所以 x = 6；\n答案是 6。"
PROBLEM_TASKS = [("p-none", ""), ("p-x", "求 x 的值。"), ("p-x-space", "求 x 的值。 "), ("p-nfc", NFC), ("p-nfd", NFD),
                 ("same-1", "求 y。"), ("same-2", "求 y。")]


def _problem_tasks() -> tuple[list[dict], dict[str, str]]:
    tasks = [{"id": i, "kind": "math", "completion": "so \\boxed{6}", "gold": "6", **({"problem": p} if p else {})}
             for i, p in PROBLEM_TASKS]
    tasks += [{"id": "step-none", "kind": "math", "completion": STEP, "gold": "6"},
              {"id": "step-x", "kind": "math", "completion": STEP, "gold": "6", "problem": "求 x 的值。"}]
    return tasks, {**{i: "correct" for i, _ in PROBLEM_TASKS}, "step-none": "no_answer", "step-x": "correct"}


def test_grpc_and_http_math_tasks_one_problem_apart_each_get_their_own_verdict(server_factory):
    """engine._math_key holds the problem's exact bytes: on each path the pairs one problem apart (none vs one, a
    trailing space, NFC vs NFD) are graded apart, and only the identical pair shares (one dedup hit per call)."""
    from verifier.client import VerifierClient

    server = server_factory("--workers", "1", "--no-code")
    tasks, want = _problem_tasks()
    hits = server.metric("verifier_dedup_hits_total", kind="math")
    with VerifierClient(server.target) as client:
        got = {r["id"]: r["verdict"] for r in client.grade(tasks, timeout_s=120)}
    assert got == want
    assert server.metric("verifier_dedup_hits_total", kind="math") == hits + 1  # only the identical pair
    fresh = [{**t, "gold": "6.0"} for t in tasks]  # another gold: the first call's cached verdicts do not apply
    status, body = _post(server.http_url + "/v1/grade", {"tasks": fresh})
    assert status == 200, body
    assert {r["id"]: r["verdict"] for r in body["results"]} == want
    assert server.metric("verifier_dedup_hits_total", kind="math") == hits + 2


@pytest.mark.docker
def test_http_parked_answers_go_only_to_their_own_request(server_factory):
    """Two slime requests past their deadline (504, parked) whose labels differ only in 1 vs True: each
    retry collects its own answer (right 1.0, wrong 0.0), never the other's, and each program ran once."""
    server = server_factory("--workers", "1", "--sandbox-languages", "python", "--sandbox-pool-size", "1",
                            "--sandbox-max-concurrent-jobs", "1")
    url = server.http_url + "/slime/remote_rm?client_timeout_s=3"
    slow = {"prompt": "p", "response": "```python\nimport time\ndef f(x):\n    time.sleep(2)\n    return repr(x)\n```",
            "label": json.dumps({"kind": "code", "language": "python", "entry_point": "f", "time_limit_s": 5,
                                 "call_tests": [{"args": [0], "expected": "0"}]})}

    def body(arg: Any) -> dict:
        return {"prompt": "p", "response": "```python\nimport time\ndef f(x):\n    time.sleep(2)\n    return repr(x)\n```",
                "label": json.dumps({"kind": "code", "language": "python", "entry_point": "f", "time_limit_s": 5,
                                     "call_tests": [{"args": [arg], "expected": "1"}]})}

    async def until_answered(payload: dict) -> tuple[float, int]:
        """Post, retrying each 504 as slime does; (the reward, how many 504s it took)."""
        timeouts = 0
        for _ in range(30):
            status, answer = await asyncio.to_thread(_post, url, payload)
            if status != 504:
                assert status == 200, answer
                return answer, timeouts
            timeouts += 1
        raise AssertionError("never answered")

    async def run() -> list:
        first = asyncio.ensure_future(until_answered(slow))  # holds the only container
        await asyncio.sleep(0.5)
        return await asyncio.gather(first, until_answered(body(1)), until_answered(body(True)))

    (_, _), (right, right_504s), (wrong, wrong_504s) = asyncio.run(run())
    assert (right, wrong) == (1.0, 0.0)
    assert right_504s + wrong_504s >= 1  # at least one was parked and collected on a retry
    assert server.metric("verifier_items_total", kind="code") == 3  # each program ran once: retries joined


def _post(url: str, body: dict) -> tuple[int, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=120) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())

