"""The fast path (verifier/math/fast.py) against the full path (math-verify's parser + compare.py).

The fast path must give the full path's verdict on every pair it decides, and must decide the
simple pairs it exists for. Pairs are generated (seeded): a value written in several ways, against
the same value written another way or a near miss (sign, +-1, another denominator, a rounded or
padded decimal, thousands commas, percent, brackets, element order).
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from helpers import SLOW_COMPLETION, SLOW_GOLD, math_task, request, stub
from verifier.math import Extraction, grade_extracted
from verifier.math.fast import decide, read_simple
from verifier.math.grade import _grade_extracted
from verifier.v1 import verifier_pb2 as pb


def full_path(gold: str, answer: str) -> bool:
    """The verdict without the fast path (the private function grade_extracted wraps)."""
    return _grade_extracted(gold, Extraction(answer, "boxed"), None)["verdict"] == "correct"


def _int_forms(n: int) -> list[str]:
    forms = [str(n), f"{n}.0", f"{n}.00", f"+{n}" if n >= 0 else str(n), f"{n:,}", f"{n:,}.0", f"{n}\\%", f"{n}%",
             f"{n:,}\\%"]
    return forms + [f"\\frac{{{2 * n}}}{{2}}" if n >= 0 else f"-\\frac{{{-2 * n}}}{{2}}"]


def _frac_forms(v: Fraction) -> list[str]:
    a, b = abs(v.numerator), v.denominator
    sign = "-" if v < 0 else ""
    forms = [f"{sign}\\frac{{{a}}}{{{b}}}", f"{sign}\\dfrac{{{a}}}{{{b}}}", f"{sign}{a}/{b}",
             f"{sign}\\frac{{{3 * a}}}{{{3 * b}}}", f"{sign}\\tfrac{{{a}}}{{{b}}}"]
    for places in (1, 2, 3, 4, 6):
        forms.append(f"{float(v):.{places}f}")  # exact when v terminates, else a rounding
    forms.append(f"{float(v) * 100:.2f}\\%")
    return forms


def _number_forms(v: Fraction) -> list[str]:
    return _int_forms(int(v)) if v.denominator == 1 else _frac_forms(v)


def _near(v: Fraction, rng: random.Random) -> Fraction:
    return rng.choice([v + 1, v - 1, -v, v + Fraction(1, 10**rng.randint(1, 6)), v * 10, v / 10,
                       Fraction(v.numerator, v.denominator + 1), Fraction(v.numerator + 1, v.denominator)])


def _element(v: Fraction) -> str:
    if v.denominator == 1:
        return str(v.numerator)
    return ("-" if v < 0 else "") + f"\\frac{{{abs(v.numerator)}}}{{{v.denominator}}}"


def _container_forms(values: list[Fraction], rng: random.Random) -> list[str]:
    els = [_element(v) for v in values]
    out = [f"({', '.join(els)})", f"({','.join(els)})", f"\\{{{', '.join(els)}\\}}",
           f"\\{{{', '.join(reversed(els))}\\}}", f"[{', '.join(els)}]"]
    if len(els) == 2:
        out += [f"({els[0]}, {els[1]}]", f"[{els[0]}, {els[1]})", f"({els[1]}, {els[0]})", f"[{els[1]}, {els[0]}]"]
    return out


def _value(rng: random.Random) -> Fraction:
    if rng.random() < 0.5:
        return Fraction(rng.choice([0, 1, 2, 7, 12, 100, 1000, 12345, 1000000]) * rng.choice([1, -1]) + rng.randint(0, 3))
    return Fraction(rng.randint(-40, 40), rng.choice([2, 3, 4, 5, 7, 8, 16, 25, 40]))


def generated_pairs(seed: int, count: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    pairs = []
    while len(pairs) < count:
        if rng.random() < 0.7:
            v = _value(rng)
            other = v if rng.random() < 0.5 else _near(v, rng)
            pairs.append((rng.choice(_number_forms(v)), rng.choice(_number_forms(other))))
        else:
            values = [_value(rng) for _ in range(rng.choice([2, 2, 3]))]
            other = list(values)
            if rng.random() < 0.5:
                i = rng.randrange(len(other))
                other[i] = _near(other[i], rng)
            pairs.append((rng.choice(_container_forms(values, rng)), rng.choice(_container_forms(other, rng))))
    return pairs


def _poly_forms(a: int, b: int, var: str) -> list[str]:
    """x^2 + (a+b)x + ab written expanded and factored, and its near misses."""
    def signed(k: int) -> str:
        return f"+ {k}" if k >= 0 else f"- {-k}"

    return [f"{var}^2 {signed(a + b)}{var} {signed(a * b)}", f"({var}{signed(a)})({var}{signed(b)})",
            f"({var}{signed(b)})\\cdot({var}{signed(a)})", f"{var}^{{2}}{signed(a * b)}{signed(a + b)}{var}",
            f"({var}{signed(a)})^2", f"{var}^2 {signed(a * b)}", f"2({var}{signed(a)})({var}{signed(b)})",
            f"{a * b} + {var}({var} {signed(a + b)})", f"-({var}{signed(-a)})({var}{signed(b)})"]


def generated_polynomial_pairs(seed: int, count: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    pairs = []
    while len(pairs) < count:
        a, b = rng.randint(-9, 9), rng.randint(-9, 9)
        forms = _poly_forms(a, b, "x")
        other = rng.choice([forms, forms, _poly_forms(a, b + rng.choice([-1, 1]), "x"), _poly_forms(a, b, "y")])
        pairs.append((rng.choice(forms), rng.choice(other)))
    return pairs


def _surd_forms(a: int, b: int) -> list[str]:
    """a*sqrt(b) written several ways (an integer when b is a square)."""
    forms = [f"{a}\\sqrt{{{b}}}", f"{a} \\sqrt{{{b}}}", f"\\sqrt{{{a * a * b}}}" if a >= 0 else f"-\\sqrt{{{a * a * b}}}"]
    root = int(b**0.5)
    return forms + ([str(a * root)] if root * root == b else [])


def generated_surd_pairs(seed: int, count: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    pairs = []
    while len(pairs) < count:
        a, b = rng.randint(-12, 40), rng.choice([2, 3, 4, 5, 8, 9, 12, 18])
        near = rng.choice([(a, b), (a, b), (a + 1, b), (-a, b), (a, b + 1), (a, 2 * b), (2 * a, b)])
        pairs.append((rng.choice(_surd_forms(a, b)), rng.choice(_surd_forms(*near))))
    return pairs


NEAR_MISSES = [  # (gold, answer, full path's verdict is correct)
    ("\\frac{1}{2}", "\\frac{1}{3}", False), ("0.5", "0.50001", None), ("12", "12.0", True),
    ("-3", "3", False), ("1,000", "1000", True), ("1000", "1,000", True), ("1,000", "1001", False),
    ("\\frac{1}{2}", "0.5", True), ("\\frac{1}{3}", "0.333", None), ("\\frac{1}{3}", "0.33", False),
    ("50\\%", "0.5", None), ("50\\%", "50", None), ("(1, 2)", "(2, 1)", None), ("[1, 2]", "(1, 2)", False),
    ("\\{1, 2\\}", "\\{2, 1\\}", True), ("(1, 2, 3)", "(1, 2, 4)", False), ("[3, 1]", "(3, 1)", None),
    ("1/2", "\\dfrac{2}{4}", True), ("-\\frac{3}{4}", "\\frac{-3}{4}", None), ("7", "\\frac{14}{2}", True),
    ("(3, 7)", "(7, 3)", False), ("[3, 7]", "[7, 3]", False), ("x^2 + 13x + 36", "(x+4)(x+9)", True),
    ("x^2 + 13x + 36", "(x+4)(x-9)", False), ("x^2 + 13x + 36", "x^2 + 36", False), ("x+1", "y+1", False),
    ("1,000\\%", "1000", False), ("1,000\\%", "10", False), ("1,000.5", "1000.5", True), ("-1,000", "-1000", True),
    ("x", "x(x+1) - x^2", None), ("10m", "10", None), ("2x", "x + x", True), ("x + 1", "5", False), ("39\\sqrt{2}", "\\sqrt{3042}", True), ("39\\sqrt{2}", "\\sqrt{3041}", False),
    ("2\\sqrt{2}", "-2\\sqrt{2}", False), ("\\sqrt{9}", "3", True), ("2\\sqrt{3}", "3\\sqrt{2}", False), ("x^2 + 1", "x^{2}+1", True), ("x - 1", "1 - x", False),
]


@pytest.mark.parametrize("gold,answer,expected", NEAR_MISSES)
def test_fast_path_agrees_on_named_near_misses(gold: str, answer: str, expected: bool | None) -> None:
    full = full_path(gold, answer)
    if expected is not None:
        assert full is expected, "the full path's verdict changed: update the expectation"
    fast = decide(gold, answer)
    if fast is not None:
        assert fast[0] is full


@pytest.mark.parametrize("generate,count", [(generated_pairs, 300), (generated_polynomial_pairs, 80),
                                            (generated_surd_pairs, 80)])
def test_fast_path_agrees_with_full_path_on_generated_pairs(generate, count) -> None:
    pairs = generate(seed=8, count=count)
    decided = 0
    for gold, answer in pairs:
        fast = decide(gold, answer)
        if fast is None:
            continue
        decided += 1
        assert fast[0] is full_path(gold, answer), (gold, answer, fast)
    assert decided >= 0.6 * len(pairs)  # the fast path must actually take the simple pairs


@pytest.mark.parametrize("text", ["x", "2x", "\\sqrt{2}", "1, 2", "1,00", "(1)", "5..", "007", "\\frac{1}{0}", "1/0",
                                  "\\frac1x", "(1, 2", "[5, 5]", "(5, 5]", "2^{10}", "\\pi", "3\\frac{1}{2}",
                                  "1" * 40, "(" + ", ".join(["1"] * 9) + ")", "\\boxed{1}, \\boxed{2}", "20:34"])
def test_fast_path_leaves_other_answers_to_the_full_path(text: str) -> None:
    assert read_simple(text) is None


@pytest.mark.parametrize("text, gold", [("5.", "5"), ("\\frac12", "\\frac{1}{2}"), ("\u2212\u00bd", "-\\frac{1}{2}"),
                                        ("\uff11\uff12", "12")])
def test_fast_path_reads_normalised_forms_as_the_full_path(text: str, gold: str) -> None:
    """Normalisation (a trailing period, `\\frac12` braced, Unicode as ASCII) runs before the fast
    path reads: the normalised form is simple, and both paths agree on it."""
    assert read_simple(text) is not None
    assert decide(gold, text)[0] is full_path(gold, text) is True


def test_grade_extracted_uses_the_fast_path_with_the_same_result_shape() -> None:
    r = grade_extracted("$\\frac{1}{2}$", Extraction("0.5", "boxed"))
    assert r["verdict"] == "correct" and r["score"] == 1.0 and r["extracted"] == "0.5"
    assert set(r) == {"verdict", "score", "detail", "extracted", "extracted_from"}
    assert grade_extracted("$\\frac{1}{2}$", Extraction("0.6", "boxed"))["verdict"] == "incorrect"


@pytest.mark.parametrize("gold", ["$12$", "\\frac{1}{2}", "(1, 2)"])
def test_no_answer_with_a_simple_gold_matches_the_full_path(gold: str) -> None:
    none = Extraction(None, "none")
    fast = grade_extracted(gold, none)
    assert fast["verdict"] == "no_answer"
    assert fast == _grade_extracted(gold, none, None)


def test_server_answers_simple_items_without_waiting_for_a_worker(server_factory):
    """One worker, busy with a sympy item that runs into its deadline: the simple item behind it is
    answered first, by the server itself (through a worker it would come second)."""
    server = server_factory("--workers", "1", "--no-code")
    slow = math_task("slow", SLOW_COMPLETION, SLOW_GOLD, timeout_s=3)
    simple = math_task("simple", "so \\boxed{\\frac{2}{4}}", "0.5")
    stream = stub(server.target).GradeStream(request([slow, simple]), timeout=60)
    first = next(stream)
    assert (first.id, first.verdict) == ("simple", pb.VERDICT_CORRECT)
    assert [r.id for r in stream] == ["slow"]
