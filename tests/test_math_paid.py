"""Issue 17's wrong answers paid, graded by the real grader: arithmetic on infinities, flattened
nesting, exceptions that escaped as `error`, a magnitude guard that refused an identity, and
verdicts that depended on the hash seed or on what the worker graded before.

Each family has near misses (a wrong answer: never correct) and rewrites (an equivalent answer:
correct). docs/math.md "Math grading rules" states the rules.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.math import grade_math

ROOT = Path(__file__).resolve().parents[1]


def grade(answer: str, gold: str) -> dict:
    return grade_math({"completion": f"The final answer is $\\boxed{{{answer}}}$.", "gold": gold})


INFINITE_ANSWERS = [r"\infty^2", r"\infty^3", r"\infty^{\infty}", r"-\infty^2", r"\infty^{2}+1", r"2\infty^2",
                    r"\infty - \infty", r"0 \cdot \infty", r"\frac{1}{\infty}", r"\infty^{0}", r"5 - \infty^2 + \infty^2",
                    r"\frac{\infty}{\infty}", r"\infty", r"-\infty"]


@pytest.mark.parametrize("answer", INFINITE_ANSWERS)
def test_no_arithmetic_on_infinity_pays_a_finite_gold(answer: str) -> None:
    """37 of 750 such pairs were paid on some server starts (sympy simplified `N - oo**2` to 0
    depending on the hash seed and its cache). Every integer gold from 0 to 40 refuses them."""
    paid = [g for g in range(41) if grade(answer, str(g))["verdict"] == "correct"]
    assert not paid, f"{answer} paid against {paid}"


@pytest.mark.parametrize(("answer", "gold"), [
    (r"\infty^2", r"\infty"), (r"2\infty", r"\infty"), (r"\infty + 1", r"\infty"), (r"-\infty", r"-\infty"),
    (r"-2\infty", r"-\infty"), (r"+\infty", r"\infty"), (r"(3, \infty^2)", r"(3, \infty)"),
    (r"(-\infty, 3]", r"(-\infty, 3]"), (r"\infty", r"+\infty"),
])
def test_the_same_infinity_is_paid(answer: str, gold: str) -> None:
    assert grade(answer, gold)["verdict"] == "correct"


@pytest.mark.parametrize(("answer", "gold"), [
    (r"-\infty", r"\infty"), (r"\infty", r"-\infty"), (r"-\infty^2", r"\infty"), (r"\infty - \infty", r"\infty"),
    (r"0 \cdot \infty", "0"), (r"\frac{1}{\infty}", "0"), (r"x \cdot \infty", r"\infty"), (r"\infty", "x"),
    (r"(3, \infty)", r"(3, 4)"), (r"(3, \infty - \infty)", r"(3, 0)"), (r"\{\infty^2, 1\}", r"\{5, 1\}"),
    (r"\tilde{\infty}", r"\infty"),
])
def test_infinity_near_misses(answer: str, gold: str) -> None:
    assert grade(answer, gold)["verdict"] != "correct"


@pytest.mark.parametrize(("answer", "gold"), [
    ("(-3)!", "0"), ("(-1)!", "1"), ("(-3)!", r"\infty"), (r"\frac{1}{0}", r"\infty"), (r"\Gamma(-2)", "0"),
    (r"\log(0)", r"-\infty"), (r"\tan(\frac{\pi}{2})", r"\infty"), (r"(-2)! + 1", "1"), (r"\frac{5}{0}", "5"),
])
def test_a_pole_is_incorrect_never_error(answer: str, gold: str) -> None:
    """`(-3)!` was `error` ("gamma function pole"): ungraded, reward None instead of 0."""
    r = grade(answer, gold)
    assert r["verdict"] == "incorrect", r


@pytest.mark.parametrize(("answer", "gold"), [
    ("5!", "120"), ("(-1/2)!", r"\sqrt{\pi}"), (r"\binom{5}{2}", "10"), (r"\log_2 8", "3"),
    (r"\tan(\frac{\pi}{4})", "1"), (r"\int_0^\infty e^{-x}\,dx", "1"), (r"\lim_{x\to\infty} \frac{1}{x}", "0"),
])
def test_values_near_poles_and_infinite_bounds_still_pay(answer: str, gold: str) -> None:
    assert grade(answer, gold)["verdict"] == "correct"


@pytest.mark.parametrize("gold", [r"\infty - \infty", "(-3)!", r"\frac{0}{0}"])
def test_a_gold_without_value_is_invalid(gold: str) -> None:
    assert grade("5", gold)["verdict"] == "invalid_gold"


@pytest.mark.parametrize(("answer", "gold"), [
    (r"\{\{1,2\},\{3\}\}", r"\{1,2,3\}"), (r"\{1,2,3\}", r"\{\{1,2\},\{3\}\}"), (r"\{(1,2)\}", "(1,2)"),
    ("(1,2)", r"\{(1,2)\}"), (r"\{\{1\}\}", r"\{1\}"), (r"\{1\}", r"\{\{1\}\}"), (r"\{\{1\}\}", "1"),
    (r"\{\{1\},\{2\}\}", "(1,2)"), (r"\{\{1\},\{2\}\}", r"\{1,2\}"), (r"\{\{1,2\}\}", r"\{(1,2)\}"),
    (r"((1,2),(3,4))", r"(1,2,3,4)"), (r"\{(1,2),(3,4)\}", r"\{1,2,3,4\}"),
])
def test_containers_keep_their_nesting(answer: str, gold: str) -> None:
    assert grade(answer, gold)["verdict"] != "correct"


@pytest.mark.parametrize(("answer", "gold"), [
    (r"1, 2", r"\{1,2\}"), ("5", r"\{5\}"), (r"\{5\}", "5"), (r"(1,2),(3,4)", r"\{(1,2),(3,4)\}"),
    (r"\{(3,4),(1,2)\}", r"\{(1,2),(3,4)\}"), (r"\{\{1,2\},\{3\}\}", r"\{\{3\},\{2,1\}\}"),
    ("(1, 2)", r"\begin{pmatrix} 1 \\ 2 \end{pmatrix}"),
])
def test_nesting_rewrites_pay(answer: str, gold: str) -> None:
    assert grade(answer, gold)["verdict"] == "correct"


@pytest.mark.parametrize("k", [7, 8, 10, 25, 100])
def test_exponential_identity_is_not_too_large(k: int) -> None:
    """`e^{10x}(10x + 1)` vs `10x e^{10x} + e^{10x}` was refused as "too large to evaluate exactly"
    for k >= 8 (issue 17, item 4): the guard bounded e^{10x} by its value at x = 10."""
    gold = f"{k}x e^{{{k}x}} + e^{{{k}x}}"
    assert grade(f"e^{{{k}x}}({k}x + 1)", gold)["verdict"] == "correct"
    for near in (f"e^{{{k}x}}({k}x + 2)", f"e^{{{k + 1}x}}({k + 1}x + 1)", f"e^{{{k}x}}({k}x - 1)",
                 f"e^{{{k}x}}({k + 1}x + 1)", f"{k}x e^{{{k}x}}"):
        assert grade(near, gold)["verdict"] != "correct", near


@pytest.mark.parametrize(("answer", "gold", "verdict"), [
    ("e^{x^2}", "e^{x^{2}}", "correct"), ("e^{x^2}", "e^{x^3}", "incorrect"), ("2^{10x}", "1024^{x}", "correct"),
    ("2^{10x}", "1000^{x}", "incorrect"), ("(x+1)^{5000}", "(x+1)^{5000}+1", "incorrect"),
    ("e^{(x+1)^{5000}}", "e^{(x+1)^{5000}+1}", "incorrect"),
])
def test_symbolic_exponents(answer: str, gold: str, verdict: str) -> None:
    assert grade(answer, gold)["verdict"] == verdict


# Odd answers against simple golds: every comparison ends in a verdict, never `error`.
_ATOMS = ["0", "1", "-3", r"\infty", r"-\infty", "x", r"\pi", "e", "i", r"\frac{1}{0}", "(-2)!", r"\emptyset", "10^{400}"]
_FORMS = ["{a}!", "{a}^{{{b}}}", r"\frac{{{a}}}{{{b}}}", r"\sqrt{{{a}}}", r"\log({a})", r"\Gamma({a})", "({a}, {b})",
          r"\{{{a}, {b}\}}", "[{a}, {b})", r"\binom{{{a}}}{{{b}}}", r"\tan({a})", "{a} - {b}", "{a} \\cdot {b}",
          r"\{{\{{{a}\}}\}}", r"\sin({a})^{{{b}}}", "{a} = {b}", r"\ln|{a}|"]


@st.composite
def odd_answers(draw: st.DrawFn) -> str:
    expr = draw(st.sampled_from(_ATOMS))
    for _ in range(draw(st.integers(1, 3))):
        expr = draw(st.sampled_from(_FORMS)).format(a=expr, b=draw(st.sampled_from(_ATOMS)))
    return expr


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(answer=odd_answers(), gold=st.sampled_from(["0", "1", "-3", r"\frac{1}{2}", r"\infty", "(1, 2)", r"\{1, 2\}", "x + 1"]))
def test_odd_answers_always_get_a_verdict(answer: str, gold: str) -> None:
    r = grade(answer, gold)
    assert r["verdict"] in ("correct", "incorrect"), (answer, gold, r)


# Items graded under several hash seeds and orders (docs/math.md "Math grading rules": determinism).
DETERMINISM_ITEMS = [(a, str(g)) for a in (r"\infty^2", r"\infty^3", r"\infty^{\infty}", r"2\infty^2") for g in (1, 6, 13, 22, 31)]
DETERMINISM_ITEMS += [(r"\infty^2", r"\infty"), (r"-\infty", r"\infty"), (r"\infty - \infty", "0"), ("(-3)!", "0"),
                      (r"\{\{1,2\},\{3\}\}", r"\{1,2,3\}"), (r"\{(1,2)\}", "(1,2)"), (r"\{\{1\}\}", r"\{1\}"),
                      (r"\{(3,4),(1,2)\}", r"\{(1,2),(3,4)\}"), ("e^{10x}(10x+1)", "10x e^{10x} + e^{10x}"),
                      (r"\frac{\sqrt{2}}{2}", r"\frac{1}{\sqrt{2}}"), (r"x^2 - 1", "(x-1)(x+1)"), (r"\{1, 2\}", "1, 2")]
# Graded first in one of the orders, to fill sympy's caches with other expressions of the same kinds.
WARM_ITEMS = [(r"\infty", "5"), (r"x - \infty", "x"), (r"\infty^2 - \infty^2", "0"), ("3!", "6"), (r"\{1\}", "1"),
              (r"(x+1)^2", "x^2+2x+1"), (r"\infty \cdot 2", r"\infty")]
_RUNNER = """
import json, sys
from verifier.math import grade_math
items = json.loads(sys.stdin.read())
out = {}
for answer, gold in items:
    out[answer + " || " + gold] = grade_math({"completion": "\\\\boxed{" + answer + "}", "gold": gold})["verdict"]
print(json.dumps(out))
"""


def _run(seed: str, items: list[tuple[str, str]]) -> dict[str, str]:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", _RUNNER], input=json.dumps(items), env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=600, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.timeout(900)
def test_verdicts_do_not_depend_on_hash_seed_or_order() -> None:
    """The same items under four hash seeds, in file order, shuffled, reversed and after warming
    items: identical verdicts, and no infinity paid against an integer."""
    shuffled = list(DETERMINISM_ITEMS)
    random.Random(17).shuffle(shuffled)
    runs = {
        "seed 0, in order": _run("0", DETERMINISM_ITEMS),
        "seed 1, shuffled": _run("1", shuffled),
        "seed 2, after warm-up": _run("2", WARM_ITEMS + DETERMINISM_ITEMS),
        "seed 3, reversed after warm-up": _run("3", WARM_ITEMS[::-1] + DETERMINISM_ITEMS[::-1]),
    }
    first = runs["seed 0, in order"]
    for name, verdicts in runs.items():
        diff = {k: (first[k], verdicts[k]) for k in first if verdicts[k] != first[k]}
        assert not diff, f"{name} differs from seed 0: {diff}"
    paid = [k for k, v in first.items() if v == "correct" and "infty" in k and k.split(" || ")[1].isdigit()]
    assert not paid, paid
    assert first[r"\infty^2 || \infty"] == "correct" and first["e^{10x}(10x+1) || 10x e^{10x} + e^{10x}"] == "correct"


@pytest.mark.parametrize(("answer", "gold", "verdict"), [
    (r"\dfrac{2k(2k+1)(k-2)}{3}", r"\binom{2k+1}{3} - k(2k+1)", "correct"),
    (r"\dfrac{2k(2k+1)(k-1)}{3}", r"\binom{2k+1}{3} - k(2k+1)", "incorrect"),
    (r"\dbinom{m+n-1}{n-1}^{2}", r"\binom{n+m-1}{m}^{2}", "correct"),
    (r"\dbinom{m+n}{n-1}^{2}", r"\binom{n+m-1}{m}^{2}", "incorrect"),
    (r"\dfrac{n!}{(k!)^{n/k} (n/k)!}", r"\frac{n!}{(n / k)!(k!)^{n / k}}", "correct"),
    (r"\dfrac{n!}{(k!)^{n/k} (n/k+1)!}", r"\frac{n!}{(n / k)!(k!)^{n / k}}", "incorrect"),
    (r"\binom{n}{3000}", r"\binom{n}{3000}+1", "incorrect"),
])
def test_symbolic_factorials_are_not_too_large(answer: str, gold: str, verdict: str) -> None:
    """Omni-MATH rows (tests/data/peer_outputs) refused as "too large to evaluate exactly": the
    guard bounded `\\binom{2k+1}{3}` by its value at k = 10."""
    assert grade(answer, gold)["verdict"] == verdict


def test_a_repeated_answer_is_compared_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A GRPO group repeats its answers: the second completion with the same answer reuses the
    verdict (bench/math_throughput.py, second workload), with the same detail."""
    import verifier.math.grade as grade_module

    calls = []
    real = grade_module.equivalent
    monkeypatch.setattr(grade_module, "equivalent", lambda g, p: calls.append(1) or real(g, p))
    first = grade_math({"completion": r"so \boxed{2\sin(3x)\cos(3x)}", "gold": r"\sin(6x)"})
    again = grade_math({"completion": r"in other words, \boxed{2\sin(3x)\cos(3x)}", "gold": r"\sin(6x)"})
    assert first == again and first["verdict"] == "correct" and len(calls) == 1


@pytest.mark.parametrize(("answer", "gold", "verdict"), [
    (r"2\sin(3x)\cos(3x)", r"\sin(6x)", "correct"), (r"\sin(3x)\cos(3x)", r"\sin(6x)", "incorrect"),
    (r"\frac{x^2 + 5x + 6}{(x - 4)(x + 3)}", r"\frac{x + 2}{x - 4}", "correct"),
    (r"\frac{x^2 + 5x + 6}{(x + 4)(x + 3)}", r"\frac{x + 2}{x - 4}", "incorrect"),
    (r"\sqrt{x^2}", r"|x|", "correct"), (r"\sqrt{x^2}", "x", "incorrect"), (r"\ln(x^2)", r"2\ln(x)", "incorrect"),
    (r"\frac{1}{x}", r"x^{-1}", "correct"), (r"0.5x", r"\frac{x}{2}", "correct"), (r"0.333x", r"\frac{x}{3}", "incorrect"),
    (r"e^{100x}(100x+1)", r"100x e^{100x} + e^{100x}", "correct"), (r"\frac{1}{x-\frac{37}{101}}", r"\frac{1}{x-\frac{37}{101}}+1", "incorrect"),
    (r"\tan(x)", r"\frac{\sin x}{\cos x}", "correct"), (r"x^2 y", r"y x^2", "correct"), (r"x^2 y", r"x y^2", "incorrect"),
    (r"\sum_{k=1}^{n} k", r"\frac{n(n+1)}{2}", "correct"), (r"\int_0^x 2t\,dt", "x^2", "correct"),
    (r"\frac{d}{dx} x^3", "3x^2", "correct"), (r"\sum_{k=1}^{n} k", r"\frac{n(n-1)}{2}", "incorrect"),
])
def test_sample_point_disproof_keeps_verdicts(answer: str, gold: str, verdict: str) -> None:
    """Two expressions that differ at a sample point are not equal without asking simplify; equal
    values decide nothing, so identities still reach math-verify (and domain subtleties such as
    `\\ln(x^2)` against `2\\ln(x)` keep its verdict)."""
    assert grade(answer, gold)["verdict"] == verdict
