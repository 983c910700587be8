"""Plan.share_key: identical programs of one call run once (issue 20), keyed on what decides the
verdict (language, extracted code, tests, limits, comparison, scoring ...), never on the raw
completion. Pure: make_plan needs no Docker. Through the server with real containers:
tests/test_server_code.py::test_identical_programs_of_a_call_run_once_and_near_misses_do_not."""
from __future__ import annotations

import pytest

from sandbox import SandboxConfig
from sandbox.plan import make_plan

CODE = "a, b = map(int, input().split())\nprint(a + b)\n"
TESTS = [{"stdin": "1 2\n", "expected_stdout": "3\n"}, {"stdin": "5 5\n", "expected_stdout": "10\n"}]
BASE = {"language": "python", "completion": f"Here:\n```python\n{CODE}```", "tests": TESTS}


def key(**change) -> bytes:
    plan = make_plan({**BASE, **change}, SandboxConfig())
    assert not isinstance(plan, dict), plan
    return plan.share_key()


def test_the_same_code_in_other_prose_shares_a_key():
    rewrites = [f"Let me think.\n\nSo:\n```python\n{CODE}```\nThat's it.",
                f"<think>sum</think>```py\n{CODE}```",
                f"```python\n{CODE}```"]
    for completion in rewrites:
        assert key(completion=completion) == key(), completion


@pytest.mark.parametrize("change", [
    {"completion": f"```python\n{CODE.replace('a + b', 'a - b')}```"},  # one character
    {"completion": f"```python\n{CODE.replace('a + b', 'a +b')}```"},  # one space: another program
    {"tests": [TESTS[0], {"stdin": "5 5\n", "expected_stdout": "11\n"}]},
    {"tests": [TESTS[0], {"stdin": "5 6\n", "expected_stdout": "10\n"}]},
    {"tests": TESTS[:1]},
    {"time_limit_s": 2.0},
    {"memory_limit_mb": 128},
    {"compare": "exact"},
    {"compare": "float", "float_abs_tol": 0.5},
    {"scoring": "fraction"},
    {"stop_on_first_failure": True, "scoring": "fraction"},
    {"language": "cpp", "completion": f"```cpp\n{CODE}```"},
    {"checker": "import sys\nsys.exit(0)\n"},
    {"files": {"data.txt": "1"}},
])
def test_anything_that_can_change_the_verdict_changes_the_key(change):
    assert key(**change) != key()


def test_where_the_code_came_from_stays_per_item():
    fenced = make_plan(BASE, SandboxConfig())
    raw = make_plan({**BASE, "completion": CODE}, SandboxConfig())
    assert fenced.share_key() == raw.share_key()
    assert fenced.extracted_from != raw.extracted_from  # per item: the grader keeps each its own


@pytest.mark.docker
def test_the_answer_does_not_wait_for_the_reset_and_the_box_waits_for_it(monkeypatch):
    """Issue 20's p99 hunt: the reset (kill and wipe what the job left) ran on the request's path.
    The answer now leaves first; the box takes no job until its reset is done. Here the reset is
    held: the grade returns anyway (a reset on the path would hang until the 60 s guard), the only
    box stays out of the pool, and comes back once the reset is let go."""
    import asyncio
    import threading

    from sandbox import grader as grader_mod
    from sandbox.grader import CodeGrader

    held, go = threading.Event(), threading.Event()
    real = grader_mod.reset_box

    def slow_reset(box) -> bool:
        held.set()
        go.wait(30)
        return real(box)

    monkeypatch.setattr(grader_mod, "reset_box", slow_reset)

    async def main() -> None:
        g = CodeGrader(SandboxConfig(pool_size=1, languages=("python",), pool_name="pytest-share-reset"))
        await g.start()
        try:
            r = await g.grade({**BASE, "completion": f"```python\n{CODE}```"})
            assert r["verdict"] == "accepted", r
            assert await asyncio.to_thread(held.wait, 20)  # the reset started after the answer
            assert g._pool._idle["python"].qsize() == 0  # in its reset, not lent
            waiter = asyncio.ensure_future(g.grade({**BASE, "completion": f"```python\n{CODE}# 2\n```"}))
            await asyncio.sleep(0.5)
            assert not waiter.done()  # no box until the reset is done
            go.set()
            assert (await waiter)["verdict"] == "accepted"
            await g.settled()
            assert g._pool._idle["python"].qsize() == 1 and g.stats()["containers_recycled"] == 0
        finally:
            go.set()
            await g.close()

    asyncio.run(asyncio.wait_for(main(), 60))


# ---------------------------------------------------------------- a "fraction" job in parts (split_plan)
SIX = [{"stdin": f"{i} {i}\n", "expected_stdout": f"{2 * i}\n"} for i in range(6)]


def test_only_fraction_stdin_jobs_of_interpreted_programs_are_split():
    from sandbox.plan import split_plan

    def parts(**change) -> list:
        return split_plan(make_plan({**BASE, "tests": SIX, "scoring": "fraction", **change}, SandboxConfig()), 2)
    two = parts()
    assert [len(p.tests) for p in two] == [3, 3] and two[0].job_dir != two[1].job_dir
    assert [p.tests[0] for p in two] == [(b"0 0\n", b"0\n"), (b"3 3\n", b"6\n")]
    assert len(parts(scoring="all")) == 1  # stops at the first failure: the rest may never run
    assert len(parts(stop_on_first_failure=True)) == 1
    assert len(parts(tests=SIX[:3])) == 1
    assert len(parts(language="cpp", completion=f"```cpp\n{CODE}```")) == 1  # a compile is done once
    assert len(parts(test_code="assert True")) == 1


def test_a_job_in_parts_scores_as_it_would_in_one_container():
    """Failures in both parts: the merged result lists every test in order, takes the first failing
    test's verdict and detail, and scores the fraction over all six (a near miss of the right one)."""
    from sandbox.sync import SyncGrader

    code = ("a, b = map(int, input().split())\nif a == 1:\n    print(0)\nelif a == 4:\n    while True:\n        pass\n"
            "else:\n    print(a + b)\n")
    task = {**BASE, "tests": SIX, "scoring": "fraction", "time_limit_s": 1, "completion": f"```python\n{code}```"}
    with SyncGrader(SandboxConfig(pool_size=2, languages=("python",), pool_name="pytest-share-split")) as g:
        r = g.grade(task)
        right = g.grade({**task, "completion": f"```python\n{CODE}```"})
    assert [t["verdict"] for t in r["tests"]] == ["accepted", "wrong_answer", "accepted", "accepted", "time_limit",
                                                  "accepted"], r
    assert r["verdict"] == "wrong_answer" and r["detail"].startswith("test 2:") and r["score"] == 4 / 6
    assert right["verdict"] == "accepted" and right["score"] == 1.0 and len(right["tests"]) == 6
