"""Size and precision limits of math grading, in one documented dataclass.

Completions are written by a model under optimisation pressure, so every size the grader looks at
is bounded here. The parent process still enforces a hard per-item deadline; these limits exist so
that the ordinary adversarial inputs (1 MB completions, power towers, deep nesting) answer in
milliseconds instead of waiting to be killed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MathLimits:
    """Bounds used by extraction, guards and comparison. Defaults are the service's policy."""

    tail_chars: int = 8192
    """Anchors ("Answer:", "####", ...) and the lenient last-expression fallback are searched only in
    this many trailing characters of the answer region. `\\boxed` is found anywhere (one `rfind`)."""

    max_boxes: int = 8
    """Most trailing `\\boxed{}` read together when the gold has several parts (a tuple or set
    answered one box per part); a one-part gold always reads only the last box."""

    max_answer_chars: int = 2000
    """An extracted answer longer than this is graded `incorrect` without parsing (a 20x20 matrix
    fits; ANTLR parse time grows with length)."""

    max_gold_chars: int = 10000
    """A gold longer than this is `invalid_gold` (datasets are trusted, but not unboundedly)."""

    max_nesting: int = 12
    """Deepest bracket nesting ((, [, {) allowed in an answer before parsing. Measured: ANTLR parse
    time grows steeply with nesting (depth 10 of bare parentheses ~0.9 s, depth 50 never ends)."""

    max_open_run: int = 3
    """Most consecutive opening brackets (`(((`, `{{{`) allowed; redundant bare groups cost ANTLR
    about 0.3 s per level and no real answer needs more than a few."""

    max_operators: int = 300
    """Most operators (`+ - * / ^ = < >`, `\\cdot`, `\\times`, `\\div`) in an answer before parsing: math-verify's ANTLR
    parse grows about quadratically with them (`a+a+...+6` of 1,809 characters took 1.1 s, red team 8 item 5); a
    120-term polynomial has 240 and a 20x20 matrix none. Answers only: a gold is the dataset's."""

    max_functions: int = 24
    """Most function applications (`\\sin`, `\\log`, ...) in an answer before parsing: nested calls cost ANTLR most
    (`\\sin(\\sin(\\sin(6)))+\\cos(x)+...` of 1,629 characters took 1.7 s, red team 8 item 5)."""

    max_complex_calls: int = 0
    """Most calls of a number not plainly real (`\\Gamma(e+i)`, `\\sin(2i)`, `\\Gamma(\\log(-1))`; not `|3+4i|`, `\\arg`,
    `\\operatorname{Re}`, `\\ln 2`, `\\sin(-1)`: guards._plainly_real) an
    answer or a gold of more than four letters may hold (`guards.expansion_guard`). Past the point sampler's four letters
    a wrong answer reaches `simplify`, which works a complex call's value through (fx29an, red team 19 class 9, strict,
    against gold 1, warm, load 4-6): `\\Gamma(e+i)` and five letters 1.3-2.2 s, `\\sin(e+i)` 0.8 s, `\\Gamma(i)` 0.35 s;
    two `\\Gamma` of complex numbers 5.6 s, three 5.1-7.5 s, `\\sin` 2.2 s. With four letters or fewer a wrong answer is
    disproved at a sample point (three `\\Gamma` of complex numbers 0.2 s) and a right one written in another order pays
    at once (0.2 s), so those stay read."""

    max_exact_digits: int = 10000
    """Largest magnitude (in decimal digits, either way: 10^N or 10^-N) that is evaluated exactly.
    Beyond it the answers are only compared structurally (power towers, huge factorials)."""

    max_symbolic_digits: int = 400
    """Same bound for expressions with free symbols, where sympy's simplify would have to expand
    (e.g. `(x+1)^{5000}`); beyond it only a structural comparison is made."""

    max_tree_nodes: int = 5000
    """Most sympy nodes walked by the magnitude guard; a larger tree counts as too large."""

    exact_check_digits: int = 60
    """Working precision (significant digits) when two exact but irrational numbers are compared
    numerically (e.g. `\\sqrt{2}/2` vs `1/\\sqrt{2}`)."""

    exact_match_digits: int = 45
    """Two exact irrational values agreeing to this many significant digits are equal."""

    approx_sig_digits: int = 6
    """A predicted decimal that only approximates an exact gold counts when it states at least this
    many significant digits and is the gold rounded to them: math-verify's precision. `3.141593` and
    `3.14159` for `\\pi` count, `3.14` does not, nor `0.333` for `\\frac{1}{3}`. A decimal exactly
    equal to the gold (`0.5` for `\\frac{1}{2}`) always counts. Lower it to pay coarser roundings."""

    max_choices: int = 26
    """Multiple-choice questions are lettered A..Z; more choices than that is an invalid gold."""


DEFAULT_LIMITS = MathLimits()
