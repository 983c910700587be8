"""Cheap checks that keep adversarial answers away from the expensive parts (ANTLR, sympy).

Two kinds: text guards run before parsing (length, bracket nesting), and a magnitude estimate
runs on the parsed, unevaluated sympy tree before anything is evaluated (power towers, huge
factorials). Neither evaluates or stringifies a sympy object, so neither can hang.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import sympy
from sympy import Basic
from sympy.matrices import MatrixBase

from .limits import MathLimits
from .numeric import NON_VALUES, exact_rational, is_numeric
from .unicode_math import to_ascii_math

_BRACKET_RE = re.compile(r"[(\[{]+|[)\]}]")
INFINITE = math.inf


def text_guard(text: str, limits: MathLimits) -> str | None:
    """Why `text` must not be parsed, or None when it may. Linear in len(text)."""
    if len(text) > limits.max_answer_chars:
        return f"answer longer than {limits.max_answer_chars} chars"
    depth = 0
    deepest = 0
    for m in _BRACKET_RE.finditer(text):
        tok = m.group()
        if tok[0] in ")]}":
            depth = max(depth - 1, 0)
            continue
        if len(tok) > limits.max_open_run:
            return f"{len(tok)} consecutive opening brackets (max {limits.max_open_run})"
        depth += len(tok)
        deepest = max(deepest, depth)
    if deepest > limits.max_nesting:
        return f"brackets nested {deepest} deep (max {limits.max_nesting})"
    return None


_OPERATOR_RE = re.compile(r"(?<!\\)[-+*/^=<>]|\\(?:cdot|times|div)(?![A-Za-z])")
_FUNCTION_RE = re.compile(r"\\(?:a?r?c?(?:sin|cos|tan|cot|sec|csc)h?|log|ln|lg|exp|operatorname)(?![A-Za-z])")
_DOTTED_RE = re.compile(r"(?<![\d.])\d*\.\d+\.\d")


def complexity_guard(text: str, limits: MathLimits) -> str | None:
    """Why an answer is too complex to parse within a second, or None (answers only; linear in len(text)):
    math-verify's parse grows about quadratically with operators and function calls (red team 8 item 5,
    docs/math.md "Answer grammar"). A number written with two decimal points (`1.2.3`, `1.000.000`) is no number:
    math-verify read `1.2.3` as 1.2 x 0.3 (paid 0.36) and a run of them took seconds."""
    if _DOTTED_RE.search(text):
        return "a number with two decimal points (`1.2.3`): no number, math-verify reads a product"
    operators = sum(1 for _ in _OPERATOR_RE.finditer(text))
    if operators > limits.max_operators:
        return f"{operators} operators (max {limits.max_operators}): too complex to parse"
    functions = sum(1 for _ in _FUNCTION_RE.finditer(text))
    if functions > limits.max_functions:
        return f"{functions} function applications (max {limits.max_functions}): too complex to parse"
    return function_guard(text) or matrix_guard(text)


MAX_FUNCTION_DEPTH = 4
"""Deepest nesting of function applications (`\\ln(\\ln(\\ln(\\ln(x))))` is 4) in an answer or a gold (`function_guard`).
The point sampler (`compare.differs_at_a_point`) evaluates a nested logarithm or exponential at its points through
sympy's `evalf`, whose work grows about threefold a level (complex intermediate values; a tower). Measured in a warm
process each, strict, against gold 1, on 2 shared cores at load 2-3 (fx29x, docs/math.md "Answer grammar"): `\\log`
chains of 4 0.23 s, 5 0.82 s, 6 11 s; `\\log_{2}` 4 0.39 s, 5 0.85 s, 6 6.4 s; `\\ln` 5 0.26 s, 6 0.74 s, 7 2.1 s, 8
17.5 s, 10 over 60 s; `\\exp` or `e^{...}` 5 0.19 s, 6 over 30 s; `\\sin`, `\\tan`, `\\arcsin`, `\\arctan` chains of
10 0.5 s (their parse, `MAX_FUNCTION_WORK`)."""
MAX_FUNCTION_WORK = 18
"""Most function work an answer or a gold may hold (`function_guard`): the sum over its function applications of their
depth (1 outside any other function) times the function's weight: 1, 2 for a ratio (`\\tan`, `\\cot`, `\\sec`,
`\\csc`), 4 for a hyperbolic function (`\\sinh`, `\\tanh`, ...). Two costs grow with it: math-verify's ANTLR parse of
nested calls (about the sum of depths: red team 15's two 11-deep chains 1.0 s at load 0.7, 2.3 s at load 3-4; a chain
of 8 0.4 s), and `simplify` of a sum of functions of more letters than the point sampler's four, per application and
more for a ratio or a hyperbolic one. Measured as `MAX_FUNCTION_DEPTH` (fx29x, docs/math.md "Answer grammar"), the
answer wrong against gold 1, the gold against answer 1, or a right answer written in another order: where 1 s is
crossed, at load 2, 24 `\\sin` of letters (24) 1.07 s, 24 `\\tan` (48) 1.1-1.6 s, 16 `\\cot` (32) 1.6 s, 16 `\\sec` (32)
2.0 s, 24 `\\sec` 9.9 s, 8 `\\tanh` (32) 1.1 s, 16 over 30 s, 8 `\\sinh` (32) 1.07 s, 12 5.1 s, twelve `\\tan(\\tan(a))`
(72) 1.5 s; at the bound, load 3.5-4, 18 `\\sin` 0.51-0.74 s, 9 `\\tan`, `\\sec` or `\\cot` 0.26-0.77 s, 4 `\\tanh` and a
`\\sec` 0.23-0.91 s, a 4-deep `\\log` chain and 8 `\\log` 0.8 s, 2 `\\sinh` and 5 `\\tan` 0.34-1.37 s, red team 13's
`\\lim_{x \\to 0}` of `\\tan(\\tan(\\tan(x))) - \\sin(\\sin(\\sin(x)))` over `x^{7}` (18) 0.7-1.4 s; at 16, load 2,
0.1-0.6 s each. A gold past either bound is never parsed: only an answer written as it pays (`grade`). The factors of
a product are not nested (`\\sin a \\cos b` is 2): a product of many `\\sin`/`\\cos` costs `simplify`'s product-to-sum
expansion, a bound of its own (`MAX_TRIG_PRODUCT`, fx29ab)."""
MAX_FUNCTION_PRODUCTS = 4
"""Most explicit products after function calls an answer or a gold may hold (`function_guard`, `function_products`):
the sum of the depths of the calls (every call of the parser's `func` rule) whose argument a product follows: by an
allowlist since fx29ai (red team 18 class 9: `·`, `\\cdotp`, `\\mathbin{\\cdot}`, `(\\sin a) \\div`, `\\lvert\\sin
a\\rvert \\cdot` read 0, ten calls 30 s), anything but a term's separator or the next call right after it.
math-verify's ANTLR parse (latex2sympy) cannot tell `\\sin(a) \\cdot ...` from `\\sin` of a bare argument `(a) \\cdot
...` until the product ends, so each such call's prediction reads ahead through the rest of it (full-context LL, in
`func`): the cost grows faster than the square of the chain, in a fresh worker and a warm one alike (math-verify caches
only the same text). Juxtaposed calls (`\\sin(a)\\sin(b)`, 12 0.1 s), `+` between them, `e^{...}` and `\\operatorname`
calls (counted all the same since fx29ai), or a product of letters after one call (20 0.13 s) parse at once. Measured in a fresh process each, the parser
warmed on another answer, at load 3-4.8 on 2 shared cores (fx29ac, docs/math.md "Answer grammar"): a chain of 5
`\\cdot`-joined calls (4, at the bound) 0.28-0.80 s (`\\sin`, `\\sin^{2}`, `\\log_{2}`, `\\tan`, `\\sinh`,
`\\sin(a+1)`, `\\ln` with `\\times`, `= 0` after); 6 (5) 0.49-0.81 s; 7 (6) 0.64-1.98 s; 8 (7) 0.9-1.76 s; 10 2.1 s;
12 2.9 s (`\\cdot`), 3.1-3.8 s cold at load 7 (`\\ln`, `\\times`); `/` and `\\div` as `\\cdot`; 7 calls beside
`\\sqrt{}` factors 1.7 s; nested, `\\sin(\\sin(a) \\cdot \\sin(b) \\cdot \\sin(c)) \\cdot \\sin(\\sin(f) \\cdot
\\sin(g))` (7, inner calls count their depth) 1.3 s. Realistic rewrites hold 1-2 (`2\\sin(x)\\cdot\\cos(x)`,
`\\sin(a)\\cdot\\cos(b)+\\cos(a)\\cdot\\sin(b)`, `\\ln(2)\\cdot\\ln(3)`); no extracted answer or gold of
tests/data/peers or peer_outputs holds 2. Since fx29an (red team 19 class 9) a bracketed factor a product follows counts
the calls in it no product counted (`(\\sin(a)+1) \\cdot (\\sin(b)+1) \\cdot ...`, six 1.9 s, eight over 40 s; five, at the
bound, 1.1-1.5 s at load 1.5-6), and a call before a juxtaposed `\\Gamma` is a product (twelve `\\Gamma(a)\\Gamma(b)...`
6.1 s; three, at the bound, 0.2-0.4 s)."""
_CALLS = (r"a?r?c?(?:sin|cos|tan|cot|sec|csc)h?|log|ln|lg|exp")
# The parser's other calls (latex2sympy's `func` rule: `\\Gamma`/`\\gamma`, `\\det`, `\\max`, ...): counted for
# `function_products` only (a chain of eight `\\gamma(a) \\cdot` 7.5 s; `\\Gamma`, `\\gamma` twice), never for
# `function_work`.
_PLAIN_CALLS = r"det|floor|ceil|gcd|lcm|max|min"
_OTHER_CALLS = rf"Gamma|gamma|{_PLAIN_CALLS}"
_APPLIED_RE = re.compile(
    rf"\\(?P<name>{_CALLS})(?![A-Za-z])"
    r"|\\operatorname\s*\{\s*(?P<op>[^{}]*)\}"
    rf"|\\(?P<call>{_OTHER_CALLS})(?![A-Za-z])"
    r"|(?<![A-Za-z\\])(?P<e>e|\\mathrm\s*\{\s*e\s*\})\s*\^"
    r"|(?P<open>[(\[{]|\\lvert(?![A-Za-z]))|(?P<close>[)\]}]|\\rvert(?![A-Za-z]))|(?P<bar>\|)"
    r"|(?P<end>(?<!\\)[-+=,;<>&]|\\(?:pm|mp|leq?|geq?|neq?|lt|gt)(?![A-Za-z]))"
)
# What may stand between a function and its argument: spacing and scripts (`\\log_{2}`, `\\sin^{2}`); then a bracket.
_SCRIPTS_RE = re.compile(r"(?:\s|\\[,;:! ]|[_^]\s*(?:\{[^{}]*\}|\\?[A-Za-z0-9]))*")
_BRACKET_AFTER_RE = re.compile(r"(?:\\left\s*)?\\?(?=[(\[{])")
_RATIOS = frozenset({"tan", "cot", "sec", "csc"})
_GAMMA_WEIGHT = 4  # `MAX_FUNCTION_WORK`: a bracketed `\\Gamma`/`\\gamma` call weighs as a hyperbolic function
# `function_products`' allowlist of what is no product after a call's argument. First what is skipped: spacing, scripts
# (`\\sin(a)^{2}`), closing brackets (`(\\sin a)`, `\\lvert\\sin a\\rvert`, `\\right)`) and a command's next argument,
# braces in it one deep (`\\frac{\\sin a}{x^{7}}`: what follows the fraction decides); then the next token decides: the
# end (of the math too: `$`, `\\)`, `\\]`), a term's separator (`+`, `-`, a relation, `,`, `;`, `&`, a row's `\\\\`) or
# the next call right away (juxtaposed: `\\sin a \\cos b`, 12 0.1 s) is no product; anything else is one (`\\cdot`, `·`,
# `\\cdotp`, `\\mathbin{\\cdot}`, `\\div`, `:`, an opening bracket or bar, a letter, a number: each a product the parser
# reads ahead through). A bar closes an absolute value only before the end or a separator (`|\\sin a| + ...`).
_AFTER_ARGUMENT_RE = re.compile(
    r"(?>(?:\s|\\[,;:! ]|\\q?quad(?![A-Za-z])|[_^]\s*(?:\{[^{}]*\}|\\?[A-Za-z0-9])|\}\s*\{(?:[^{}]|\{[^{}]*\})*\}|[)\]}]|\\\}"
    r"|\\right\s*(?:\\[A-Za-z]+|\\?[^A-Za-z\s])|\\(?:rvert|rVert|rangle|rfloor|rceil|rbrace|rbrack|rgroup)(?![A-Za-z]))*)"
)
_NO_PRODUCT_RE = re.compile(
    r"\Z|[-+=,;<>&$]|\\[\\)\]]|\\(?:pm|mp|leq?|geq?|neq?|lt|gt|approx|equiv|leqslant|geqslant)(?![A-Za-z])"
    rf"|\\(?:{_CALLS}|{_PLAIN_CALLS}|operatorname)(?![A-Za-z])"
)
_CALL_RE = re.compile(rf"\\(?:{_CALLS}|{_OTHER_CALLS}|operatorname)(?![A-Za-z])")
# A bare argument (`\\sin a`, `\\sin 2x`, `\\sin \\theta`, with scripts): letters, numbers and a few symbols only.
_BARE_ARGUMENT_RE = re.compile(
    r"(?>(?:\s*(?:\d+(?:\.\d+)?|[A-Za-z]|\\(?:(?:var)?(?:alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda"
    r"|mu|nu|xi|pi|rho|sigma|tau|upsilon|phi|chi|psi|omega)|infty|ell|partial)(?![A-Za-z]))(?:\s*[_^]\s*(?:\{[^{}]*\}"
    r"|\\?[A-Za-z0-9]))*)*)"
)


def _product_follows(text: str, at: int) -> bool:
    """Whether a product follows a call's argument that ends at `at` (`_AFTER_ARGUMENT_RE`'s allowlist)."""
    end = _AFTER_ARGUMENT_RE.match(text, at).end()  # type: ignore[union-attr]  # matches the empty string
    if text.startswith("|", end):  # a bar closes an absolute value only before a term's end; else it opens one
        bars = _AFTER_ARGUMENT_RE.match(text, end + 1).end()  # type: ignore[union-attr]
        return not (_NO_PRODUCT_RE.match(text, bars) and not _CALL_RE.match(text, bars))
    return not _NO_PRODUCT_RE.match(text, end)


def function_guard(text: str) -> str | None:
    """Why the functions written in `text` cost too much to parse and compare, or None (answers and golds alike; linear
    in len(text), on the text before parsing): past `MAX_FUNCTION_PRODUCTS` (`function_products`), `MAX_FUNCTION_DEPTH` or
    `MAX_FUNCTION_WORK` (`function_work`)."""
    work, deepest, products = _function_scan(text)
    if products > MAX_FUNCTION_PRODUCTS:
        return (f"{products} explicit products after function calls (max {MAX_FUNCTION_PRODUCTS}, `\\cdot` after"
                " `\\sin(a)`): too costly to compare")
    if deepest > MAX_FUNCTION_DEPTH:
        return f"functions nested {deepest} deep (max {MAX_FUNCTION_DEPTH}): too costly to compare"
    if work > MAX_FUNCTION_WORK:
        return f"function work {work} (max {MAX_FUNCTION_WORK}, depth times weight): too costly to compare"
    return None


def function_work(text: str) -> tuple[int, int]:
    """(work, deepest nesting) of the functions written in `text` (`MAX_FUNCTION_WORK`, `MAX_FUNCTION_DEPTH`). A
    function's argument is the bracket right after it (past scripts and `\\left`); one with no bracket takes the function
    right after it (`\\ln \\ln x` is a chain), else what follows up to the next function, `+`, `-`, `,` or relation of
    its own bracket level, or that bracket's end (`\\ln \\frac{1}{\\ln x}` is a chain, `\\sin 2x \\cos x` two factors:
    math-verify's reading). `e^{...}` is the exponential."""
    work, deepest, _products = _function_scan(text)
    return work, deepest


def function_products(text: str) -> int:
    """The products after function calls in `text` (`MAX_FUNCTION_PRODUCTS`), read as the parser reads the text
    (`to_ascii_math`): the sum of the depths (`function_work`'s) of the calls of the parser's `func` rule (`\\sin`, ...,
    `\\exp`, `\\ln`, `\\operatorname{...}`, `\\Gamma`, `\\max`, ...) whose argument (a bracket, past `\\left`; else
    letters, numbers and Greek letters: `\\sin 2x`) a product follows, by `_product_follows`' allowlist of what is none:
    past spacing, scripts, closing brackets and a fraction's next argument, the end, a term's separator (`+`, `-`, a
    relation, `,`, `;`, `&`) or the next call juxtaposed. `e^{...}` is no call of that rule (a chain parses at
    once)."""
    return _function_scan(text)[2]


def _closed(frame: list[int], outer: list[int], text: str, m: re.Match[str]) -> int:
    """The products counted at a closing bracket `m` of `frame` (`_function_scan`), passing to `outer` the depths of the
    calls in it no product counted: a call's argument counts the call when a product follows it; a bracketed factor
    (fx29an) counts the calls in it when a product follows it, read from the bracket (`\\frac{...}{2} \\cdot`)."""
    if frame[2]:
        counted = _product_follows(text, m.end())
        outer[3] += frame[3] + (0 if counted else frame[2])
        return frame[2] if counted else 0
    if frame[3] and _product_follows(text, m.start()):
        return frame[3]
    outer[3] += frame[3]
    return 0


def _bare_call(text: str, after: int, called: int, frame: list[int]) -> int:
    """The products counted at a call of a bare argument starting at `after`: its depth when a product follows the
    argument; else the depth is left to `frame`, the bracket around it (`_closed`)."""
    if _product_follows(text, _BARE_ARGUMENT_RE.match(text, after).end()):  # type: ignore[union-attr]
        return called
    frame[3] += called
    return 0


# What a bar that opens an absolute value follows (`_bar_closes`): `\\left`, an opening bracket or bar, an operator or a
# relation, or nothing; after anything else (a letter, a number, a closing bracket) a bar closes the innermost bar's.
_BAR_OPENS_RE = re.compile(r"(?:\\left|[(\[{|+\-*/=,;<>&:]|\\(?:cdot|times|div|pm|mp|[a-z]*eq|lt|gt|lvert)|^)\s*$")


def _bar_closes(text: str, at: int) -> bool:
    """Whether the bar at `at` closes an absolute value that a bar opened (`_function_scan`), as the parser pairs them:
    `\\right|` always; `||a| - |b||` opens twice, closes, opens, closes twice (red team 20 class 8: calls in bars)."""
    return not _BAR_OPENS_RE.search(text[max(0, at - 12):at])


# Delimiter commands as the brackets and bars `_APPLIED_RE` reads (`_function_scan`): each brackets its calls as `(`
# does (red team 22 class 4: six `\\vert`-bracketed factors holding a call read 0 products, seven took 27 s). Any other
# `\\l...`/`\\r...` delimiter command is read as a bracket too (`_DELIMITER_RE`), so a spelling no list names opens one.
_DELIMITERS = {"vert": "|", "Vert": "|", "|": "|", "lVert": "\\lvert", "rVert": "\\rvert", "lbrack": "[", "rbrack": "]",
               "lbrace": "(", "rbrace": ")", "{": "(", "}": ")"}
_DELIMITER_RE = re.compile(r"(?<!\\)\\((?:vert|Vert|lVert|rVert|lbrack|rbrack|lbrace|rbrace)(?![A-Za-z])|[|{}])"
                           r"|(?<!\\)\\(?:(l)(?:group|floor|ceil|angle|moustache)|(r)(?:group|floor|ceil|angle|moustache))(?![A-Za-z])")


def _delimiters_read(text: str) -> str:
    """`text` with its delimiter commands as the brackets and bars `_APPLIED_RE` reads (`_DELIMITERS`)."""
    return _DELIMITER_RE.sub(lambda m: _DELIMITERS[m[1]] if m[1] else "(" if m[2] else ")", text)


def _function_scan(text: str) -> tuple[int, int, int]:
    """(work, deepest nesting, explicit products after calls): `function_work` and `function_products` in one pass, on
    the text as the parser reads it (`unicode_math.to_ascii_math`: `·`, `×`, `÷`, `⋅` are `\\cdot`, `\\times`, `\\div`;
    delimiter commands as brackets and bars: `_delimiters_read`)."""
    if not text.isascii():
        text = to_ascii_math(text)
    text = _delimiters_read(text)
    frames: list[list[int]] = [[0, 0, 0, 0, 0]]  # per open bracket: [1 if a function's argument, bare functions open in
    # it, the depth of the call whose argument it is, else 0, the depths of the calls in it no product counted yet, 1 if
    # opened by a bar (`|...|` brackets its calls as `(...)` does: red team 20 class 8)]
    scopes = work = deepest = products = 0  # scopes: the function arguments around the current position
    argument_at = chained_at = -1  # where the last function's bracketed argument opens; where its bare one starts
    argument_depth = 0  # the depth of that call (`function_products`)
    argument_scope = 0  # 1 when that call is a function `function_work` counts (its argument is a scope)
    for m in _APPLIED_RE.finditer(text):
        kind = m.lastgroup
        if kind == "bar":
            kind = "close" if len(frames) > 1 and frames[-1][4] and _bar_closes(text, m.start()) else "open"
        if kind == "open":
            at_argument = m.start() == argument_at
            frames.append([int(at_argument) * argument_scope, 0, argument_depth if at_argument else 0, 0,
                           int(m.group() == "|")])
            scopes += frames[-1][0]
        elif kind == "close":
            if len(frames) > 1:
                frame = frames.pop()
                scopes -= frame[0] + frame[1]
                products += _closed(frame, frames[-1], text, m)
        elif kind == "end" or m.start() != chained_at:  # a term's end, or a function that is no bare argument: a factor
            scopes -= frames[-1][1]
            frames[-1][1] = 0
        if kind in ("open", "close", "end"):
            continue
        after = _SCRIPTS_RE.match(text, m.end()).end()  # type: ignore[union-attr]  # matches the empty string
        argument = _BRACKET_AFTER_RE.match(text, after)
        depth = scopes + 1
        called = depth if kind in ("name", "op", "call") else 0  # a call of the parser's `func` rule; not `e^{...}`
        if kind == "call":  # counted for products only, and `\\Gamma(...)` for work
            if m.group("call").lower() == "gamma":  # read by the parser as a call and as a letter (`atom`): twice
                called *= 2
                if argument:  # `\\Gamma(a)`: `simplify` of a sum of them (fx29an); a bare `\\gamma` is an angle too
                    work += _GAMMA_WEIGHT * depth
            if argument:
                argument_at, argument_depth, argument_scope = argument.end(), called, 0
            else:
                products += _bare_call(text, after, called, frames[-1])
            continue
        name = (m.group("name") or m.group("op") or "exp").strip().lower()
        weight = 4 if name.endswith("h") and len(name) > 2 else 2 if name in _RATIOS else 1
        work += weight * depth
        deepest = max(deepest, depth)
        if argument:
            argument_at, argument_depth, argument_scope = argument.end(), called, 1
        else:  # a bare argument: the functions up to its end are inside it
            products += _bare_call(text, after, called, frames[-1]) if called else 0
            frames[-1][1] += 1
            scopes += 1
            chained_at = after
    return work, deepest, products


MAX_EXPANDED_TERMS = 200
"""Most terms any part of an answer can expand to (`expansion_guard`). Past the point sampler (`compare.
differs_at_a_point`: at most four symbols in gold and answer together, no function, sum, limit or derivative around
them) math-verify's `simplify` expands every power and product. Measured on 2 busy cores: `(x+y+z+w)^{10}` (286 terms)
1.0 s, `(x+y+z)^{20}` (231) 0.9 s, `(x+1)^{400}` (401) 0.01 s; `(a+b+c+d+f)^{10}` (1001) 6.1 s, a ten-symbol sum to
the 5th (2002) 3-26 s however bracketed (`|...|`, `[...]`, `\\{...\\}`, `((...)^{2})^{3}`, five factors), and
`\\sum_{k=1}^{2} (x+y+z+w)^{20}` (1771) over 40 s (red teams 10 and 11)."""


def expansion_guard(expr: Basic | MatrixBase, limits: MathLimits) -> str | None:
    """Why a parsed answer would cost the symbolic path too much, or None (answers only, `parsing.parse_prediction`;
    docs/math.md "Answer grammar"). An allowlist of cheap shapes, read on the unevaluated sympy tree, so every way of
    writing a part is one case: (1) polynomial size: a sum has its terms' count, a product their product, an integer
    power `n` of `t` terms the `C(t+n-1, n)` monomials it can have, a container (tuple, set, interval, relation) the
    sum of its parts, a function its largest argument; at most `MAX_EXPANDED_TERMS` for any part; (2) functions of a
    sum: `MAX_ANGLE_TERMS` for each, `MAX_ANGLE_WEIGHT` for the whole answer (`_angle_weight`); (3) closed forms: a
    symbolic sum, product or integral by `_closed_form`, a limit by `_limit_cost`; (4) products of sines and cosines:
    `MAX_TRIG_PRODUCT` for the whole answer (`_trig_product`); (5) exponentials and logarithms nested at most
    `MAX_FUNCTION_DEPTH` deep (`_exp_log_depth`); (6) no call of a non-real number past the point sampler's four letters
    (`MathLimits.max_complex_calls`, `_complex_calls`). Refused, never paid. Walks at most
    `max_tree_nodes` nodes, evaluating nothing."""
    budget = [limits.max_tree_nodes, 0]  # [nodes left to walk, angle weight spent so far in the whole answer]
    try:
        cells = list(expr) if isinstance(expr, MatrixBase) else [expr]
        for cell in cells:
            _terms(cell, budget, limits)
        budget[0] = limits.max_tree_nodes
        deepest = max(_exp_log_depth(cell, budget) for cell in cells) if cells else 0
        if deepest > MAX_FUNCTION_DEPTH:
            raise _TooCostly(f"exponentials and logarithms nested {deepest} deep (max {MAX_FUNCTION_DEPTH})")
        budget[0] = limits.max_tree_nodes
        complex_calls = sum(_complex_calls(cell, budget) for cell in cells)
        if complex_calls > limits.max_complex_calls and len(_free_symbols(cells)) > _SAMPLED_LETTERS:
            raise _TooCostly(f"{complex_calls} calls of numbers not plainly real among more than {_SAMPLED_LETTERS} letters "
                             f"(max {limits.max_complex_calls})")
        budget[0] = limits.max_tree_nodes
        products = sum(_trig_terms(cell, budget, limits) for cell in cells)
        if products > MAX_TRIG_PRODUCT:
            raise _TooCostly(f"products of sines and cosines expanding to {products if products < 10 ** 9 else 'over 10^9'} "
                             f"terms (max {MAX_TRIG_PRODUCT}, the product of (power+1) over their arguments)")
    except _TooCostly as e:
        return f"{e}: too costly to compare"
    except RecursionError:
        return "a tree too deep to bound: too costly to compare"
    return None  # within budget, or past it: `magnitude_digits` then bounds the tree as INFINITE


_SAMPLED_LETTERS = 4  # the point sampler's reach (`compare.differs_at_a_point`)
_CHEAP_COMPLEX = (sympy.Abs, sympy.arg, sympy.re, sympy.im, sympy.conjugate, sympy.sign)


def _free_symbols(cells: list[object]) -> set[Basic]:
    return set().union(*(c.free_symbols for c in cells if isinstance(c, Basic)))


def _complex_calls(expr: object, budget: list[int]) -> int:
    """How many calls of numbers not plainly real (`gamma(E + I)`, `sin(2*I)`, `gamma(log(-1, 10))`) a parsed tree holds
    (`MathLimits.max_complex_calls`; fx29an): a function, not `Abs`, `arg`, `re`, `im`, `conjugate` or `sign`, whose
    arguments hold no symbol, unless `_plainly_real` (an allowlist: red team 20 class 8 found `\\log(-1)`, which holds no
    `I`). Walks at most the nodes left in `budget[0]`, iteratively."""
    count = 0
    stack = [expr]
    while stack:
        node = stack.pop()
        budget[0] -= 1
        if budget[0] < 0:
            break
        if not isinstance(node, Basic):
            continue
        if (isinstance(node, sympy.Function) and not isinstance(node, _CHEAP_COMPLEX) and node.args
                and not node.free_symbols and not _plainly_real(node, budget)):
            count += 1
        stack.extend(node.args)
    return count


# Functions real at every real argument, and those real at every positive one (`_plainly_real`); any other call (`asin`,
# `acosh`, ...) is never plainly real. Plainly positive: `exp` and `cosh` of a real argument.
_REAL_ON_REALS = (sympy.sin, sympy.cos, sympy.atan, sympy.exp, sympy.sinh, sympy.cosh, sympy.tanh, sympy.asinh)
_REAL_ON_POSITIVES = (sympy.log, sympy.gamma, sympy.tan, sympy.sec, sympy.cot, sympy.csc)
_POSITIVE_ON_REALS = (sympy.exp, sympy.cosh)


def _plainly_real(expr: Basic, budget: list[int]) -> bool:
    """Whether a tree of numbers is real by its shape alone (`_complex_calls`): real numbers, `pi` and `E`, sums and
    products of real ones, an integer power of a real one or a real power of a positive one, a function of
    `_REAL_ON_REALS` of real arguments or of `_REAL_ON_POSITIVES` of positive ones. Evaluates nothing."""
    return _plainly(expr, budget, positive=False)


def _plainly(expr: Basic, budget: list[int], positive: bool) -> bool:
    budget[0] -= 1
    if budget[0] < 0:
        return False
    if isinstance(expr, (sympy.Integer, sympy.Rational, sympy.Float)):
        return bool(expr > 0) if positive else True
    if expr in (sympy.pi, sympy.E):
        return True
    if isinstance(expr, (sympy.Add, sympy.Mul)):
        return all(_plainly(a, budget, positive) for a in expr.args)
    if isinstance(expr, sympy.Pow):
        base, exp = expr.args
        if isinstance(exp, sympy.Integer) and not positive:
            return _plainly(base, budget, False)
        return _plainly(base, budget, True) and _plainly(exp, budget, False)
    if isinstance(expr, sympy.Function) and expr.args:
        if positive and not isinstance(expr, _POSITIVE_ON_REALS):
            return False
        if not isinstance(expr, (*_REAL_ON_REALS, *_REAL_ON_POSITIVES)):
            return False
        inner = not isinstance(expr, _REAL_ON_REALS)
        return all(_plainly(a, budget, inner) for a in expr.args)
    return False


def _exp_log_depth(expr: object, budget: list[int]) -> int:
    """The deepest nesting of exponentials and logarithms in a parsed tree, other nodes between them not counted
    (`MAX_FUNCTION_DEPTH`; fx29ae, red team 17 class 6). `function_guard` reads the text, where math-verify reads Euler's
    e in spellings no list holds (`{e}^`, `{{e}}^`, `\\text{e}^`, `\\textrm{e}^`, `\\mathit{e}^`, `\\exponentialE^`: each is
    `exp` in the tree, a six-deep tower over 120 s to sample); the tree is one reading of all of them. Walks at most the
    nodes left in `budget[0]`, iteratively."""
    deepest = 0
    stack = [(expr, 0)]
    while stack:
        node, depth = stack.pop()
        budget[0] -= 1
        if budget[0] < 0:
            break
        if not isinstance(node, Basic):
            continue
        if isinstance(node, (sympy.exp, sympy.log)) or isinstance(node, sympy.Pow) and node.base is sympy.E:
            depth += 1
            deepest = max(deepest, depth)
        stack.extend((arg, depth) for arg in node.args)
    return deepest


def _power(exp: Basic, budget: list[int], limits: MathLimits) -> int:
    """The integer power an exponent can expand its base to: `|n|` rounded up for a number written any way
    (`4\\cdot 5`, `-20`, `5/2`, `5.0`), none for a symbolic one (`n`) or an irrational one; past `max_exact_digits`
    (a tower) a power too large to expand (the base is refused unless it is one term)."""
    _terms(exp, budget, limits)
    if exp.free_symbols:
        return 1
    if magnitude_digits(exp, limits) > limits.max_exact_digits:
        return 10 ** 6
    value = exact_rational(exp) if not isinstance(exp, sympy.Float) else Fraction(float(exp))
    return 1 if value is None else min(math.ceil(abs(value)), 10 ** 6)


class _TooCostly(Exception):
    """A part of the tree is past the allowlist (`expansion_guard`); the message says which bound."""


def _terms(e: object, budget: list[int], limits: MathLimits) -> int:
    """How many terms `e` can expand to, 0 for a constant (it folds into one term; `1+1+...+1` is one number); raises
    `_TooCostly` past a bound (see `expansion_guard`)."""
    budget[0] -= 1
    if budget[0] < 0 or not isinstance(e, Basic):
        return 1
    if not e.args:
        return 1 if isinstance(e, sympy.Symbol) else 0
    if isinstance(e, sympy.Pow):
        base, n = _terms(e.base, budget, limits), _power(e.exp, budget, limits)
        count = math.comb(base + n - 1, n) if base > 1 and n > 1 else base
    else:
        parts = [_terms(a, budget, limits) for a in e.args]
        symbolic = [p for p in parts if p]
        if isinstance(e, sympy.Add):
            count = sum(symbolic) + (len(symbolic) < len(parts)) if symbolic else 0
            count = max(count, _together(e, parts, budget, limits))
        elif isinstance(e, sympy.Mul):
            count = math.prod(symbolic) if symbolic else 0
        elif isinstance(e, sympy.binomial) and parts[0]:
            base, n = parts[0] + 1, _power(e.args[1], budget, limits)  # n (n-1) ... (n-k+1) / k!: k factors
            count = math.comb(base + n - 1, n) if n > 1 else base
        elif isinstance(e, (sympy.Integral, sympy.Sum, sympy.Product)) and _symbolic_bound(e):
            count = max(max(parts), _closed_form(e, budget))
        elif isinstance(e, sympy.Limit):
            _limit_cost(e, budget)
            count = max(parts)
        elif isinstance(e, sympy.Function) or isinstance(e, NON_VALUES):
            # a function or relation is as large as its largest argument: simplify unwraps `|s|^{5}` into `s^{4}|s|`
            if isinstance(e, _ANGLE_FUNCTIONS) and parts[0] > 1:
                _angle_weight(e, parts[0], budget)
            count = max(parts)
        else:  # a container or relation (tuple, set, interval, `=`): compared part by part, so the sum of its parts
            count = sum(parts)
    if count > MAX_EXPANDED_TERMS:
        raise _TooCostly(f"a part that expands to more than {MAX_EXPANDED_TERMS} terms "
                         f"({count if count < 10 ** 9 else 'over 10^9'} terms)")
    return count


_ANGLE_FUNCTIONS = (sympy.sin, sympy.cos, sympy.tan, sympy.cot, sympy.sec, sympy.csc,
                    sympy.sinh, sympy.cosh, sympy.tanh, sympy.coth, sympy.sech, sympy.csch)
_CHEAP_ANGLES = (sympy.sin, sympy.cos)
MAX_ANGLE_TERMS = 4
"""Most terms the argument of one function with an addition theorem (trig, hyperbolic) may have (`_angle_weight`):
`simplify` expands such a function of a sum term by term, seconds per term past four (red teams 12 and 13, load 7-8:
`\\cos` of 7 terms 11.8 s, of 5 terms 1.9 s, `\\tan`/`\\sec` of 5 terms ~3 s, `\\sinh` of 5 terms 17.8 s, `\\tanh` 9.6
s). Four is also the point sampler's reach (`compare.differs_at_a_point`: a wrong answer of at most four symbols is
disproved before `simplify`). Measured on 2 shared cores at load 1.7, each in its own process: `\\cos(ab+cd+fg+hk)`
0.63 s, `\\tan(ab+cd+fg+hk)` 0.87 s, `\\sinh` of it 1.45 s, `\\tanh` 1.68 s, `\\sinh(ab+cd+fg)` 0.40 s, `\\tanh` 0.64 s.
`exp`, `log` and the inverse functions have no addition theorem `simplify` applies: `e^{a+...+k}` (8 terms) 0.16 s,
`\\log` of 5 terms 0.18 s, `\\arctan` of 5 terms 0.25 s; they count as their argument's terms only."""
MAX_ANGLE_WEIGHT = 6
"""Most angle weight a whole answer may hold, summed over every function of a sum in it (a sum, product, tuple or
nesting of several: each is expanded): an argument's terms for `\\sin`/`\\cos`, twice that for a ratio (`\\tan`,
`\\sec`, ...) or a hyperbolic function (a quotient over one denominator, or exponentials), an addend with a coefficient
other than 1 (`2a`, `a/2`: a multiple-angle formula) counted twice. Measured as `MAX_ANGLE_TERMS`: three `\\cos` of two
terms (6) 0.37 s, `\\tan(a+b)+\\tan(c+d)+f` (8) 0.47 s, three `\\tan` of two terms (12) 0.95 s, four (16) 3.2 s,
`\\tan(2a+3b+5c+7d)+f` (16) 1.0 s, `\\cos(2a+3b+5c+7d)+f` (8) 0.36 s, `\\sin(a+b)\\cos(c+d)+f` (4) 0.20 s; red team 13:
`\\cos` of 7 terms plus `\\tan` of 4 over 30 s, a tuple of two 7-term functions 13.9 s."""


def _angle_weight(e: Basic, terms: int, budget: list[int]) -> None:
    """Spend the angle weight of a function with an addition theorem applied to an argument of `terms` terms (more
    than one): refuses an argument past `MAX_ANGLE_TERMS` and an answer past `MAX_ANGLE_WEIGHT`."""
    arg = e.args[0]
    addends = arg.args if isinstance(arg, sympy.Add) else (arg,)
    scaled = sum(1 for a in addends if isinstance(a, sympy.Mul) and any(not f.free_symbols and f not in (1, -1)
                                                                        for f in a.args))
    if terms > MAX_ANGLE_TERMS:
        raise _TooCostly(f"{type(e).__name__} of {terms} terms (max {MAX_ANGLE_TERMS})")
    weight = (terms + scaled) * (1 if isinstance(e, _CHEAP_ANGLES) else 2)
    budget[1] += weight
    if budget[1] > MAX_ANGLE_WEIGHT:
        raise _TooCostly(f"functions of sums of angle weight {budget[1]} (max {MAX_ANGLE_WEIGHT})")



MAX_TRIG_PRODUCT = 256
"""Most terms the products of `\\sin`/`\\cos` factors in an answer or a gold may expand to (`_trig_product`), summed
over the whole tree: a factor `\\sin^{p}` or `\\cos^{p}` (any argument) counts p+1, a product the product of its factors'
counts (the powers of one argument added first), a sum the sum of its terms'; a product of one argument's sines and
cosines 1 (`_trig_terms`). `simplify`'s product-to-sum expansion (`TR8`) of factors of different letters
grows so, past the point sampler's four letters (fx29x: left open; fx29ab). Measured in a warm process each (the
answer parsed once before timing, so the figure is the comparison's), strict, against gold 1, on 2 shared cores at
load 4.1-4.4: 6 `\\sin` of letters (64) 0.19 s, 7 (128) 0.34 s, 8 (256, red team 13's held case) 0.22-0.62 s,
8 alternating `\\sin`/`\\cos` 0.39-0.60 s, `\\sin^{2}` of 4 letters times `\\sin f` (162) 0.48 s, of 5 letters (243)
0.61 s; past it 9 `\\sin` (512) 2.75 s, 10 (1024) 3.48 s, 12 (4096) 3.1 s, `\\sin^{2}` of 6 letters (729) 1.59 s,
`\\sin^{3}` of 5 (1024) 2.6 s (red team 15 and fx29x at other loads: 9 2.9 s, 10 3.2-8.2 s, 12 5.5-25 s, 6 `\\sin^{3}`
21 s, 8 `\\sin^{2}` 27 s), an answer of 8 against a gold of 8 other letters (256 + 256) 1.54 s. Sums of products cost
their sum (two products of 4, 32: 0.14 s; four, 64: 0.40 s). `\\tan`, `\\sec`, `\\tanh`, `\\ln` products are no
product-to-sum and cheap (8 under 0.8 s; `MAX_FUNCTION_WORK` bounds them). A gold past it is compared as written only
(`grade._compare_text`, fx29r's gold rule)."""
_TRIG_FACTORS = (sympy.sin, sympy.cos)


def _trig_product(e: object, power: int, budget: list[int], limits: MathLimits) -> int:
    """The terms `e` to the `power` can expand to by product-to-sum (`MAX_TRIG_PRODUCT`): `\\sin^{p}` is p+1, a
    product the product of its factors', a power (`|n|` rounded up, written any way, `_power`; a symbolic one 1)
    multiplies the power, a sum the sum of its terms' that hold a sine or cosine (to a power: plus 1 for the others,
    all to the power), anything else (a function, a container, a relation) the sum of its parts' that hold one; 1 when
    none does. Never evaluates anything."""
    budget[0] -= 1
    if budget[0] < 0 or not isinstance(e, Basic) or not e.args:
        return 1
    cap = 10 ** 9
    if isinstance(e, _TRIG_FACTORS):
        return min(power, cap) + 1
    if isinstance(e, sympy.Pow):
        return _trig_product(e.base, min(power * _power(e.exp, budget, limits), cap), budget, limits)
    if isinstance(e, sympy.Mul):  # the powers of one argument add up (`\\sin^{20} x \\cos^{20} x` is 41)
        count, powers = 1, dict[Basic, int]()
        for a in e.args:
            base, n = (a.base, _power(a.exp, budget, limits)) if isinstance(a, sympy.Pow) else (a, 1)
            if isinstance(base, _TRIG_FACTORS):
                powers[base.args[0]] = min(powers.get(base.args[0], 0) + n * power, cap)
            else:
                count = min(count * _trig_product(a, power, budget, limits), cap)
        for p in powers.values():
            count = min(count * (p + 1), cap)
        return count
    parts = [_trig_product(a, 1, budget, limits) for a in e.args]
    trig = [p for p in parts if p > 1]
    if not trig:
        return 1
    if not isinstance(e, sympy.Add) or power == 1:
        return min(sum(trig), cap)
    return min((sum(trig) + (len(trig) < len(parts))) ** min(power, 64), cap)


def _trig_terms(e: Basic, budget: list[int], limits: MathLimits) -> int:
    """`MAX_TRIG_PRODUCT`'s count of a whole answer: a sum, container, relation or function the sum of its parts'; a
    product or power `_trig_product`'s, or 1 when its sines and cosines all share one argument (`\\sin^{200} x`: power
    reduction, a term per power, which the point sampler covers; red team 10 holds `\\sin(x)^{200}+\\cos(x)^{200}`
    read)."""
    if isinstance(e, (sympy.Mul, sympy.Pow)) or isinstance(e, _TRIG_FACTORS):
        if len({f.args[0] for f in e.atoms(*_TRIG_FACTORS)}) < 2:
            return 1
        return _trig_product(e, 1, budget, limits)
    budget[0] -= 1
    if budget[0] < 0 or not isinstance(e, Basic) or not e.args:
        return 1
    parts = [_trig_terms(a, budget, limits) for a in e.args]
    return sum(p for p in parts if p > 1) or 1



def _together(e: Basic, parts: list[int], budget: list[int], limits: MathLimits) -> int:
    """The terms a sum holding fractions has over one denominator (`simplify` brings it there and cancels: a gcd of
    numerator and denominator): numerator terms (each addend's numerator times the other denominators) times the
    denominator's (the product of the denominators); 0 when no addend has a denominator of two terms or more. Five
    fractions of two-term denominators: 80 x 32; a continued fraction grows by one level's product."""
    dens = [_denominator(a, budget, limits) for a in e.args]
    if max(dens, default=1) < 2:
        return 0
    den = math.prod(dens)
    numerator = sum(max(1, p // d) * (den // d) for p, d in zip(parts, dens, strict=True))
    return numerator * den


def _denominator(e: Basic, budget: list[int], limits: MathLimits) -> int:
    """The terms of an addend's denominator: a power with a negative exponent counts as its base to that power."""
    if isinstance(e, sympy.Mul):
        return math.prod(_denominator(a, budget, limits) for a in e.args)
    if isinstance(e, sympy.Pow) and e.exp.is_number and e.exp.is_negative:
        base, n = _terms(e.base, budget, limits), _power(e.exp, budget, limits)
        return max(1, math.comb(base + n - 1, n) if base > 1 and n > 1 else base)
    return 1


def _symbolic_bound(e: Basic) -> bool:
    """An integral with no bounds, or an integral, sum or product with a bound holding a letter (`\\int f dx`,
    `\\sum_{k=1}^{n}`): `simplify` computes its antiderivative or closed form, far larger than its body."""
    return any(len(limit) < 3 or any(b.free_symbols for b in limit[1:]) for limit in e.limits)


MAX_POLYNOMIAL_CLOSED_FORM = 200
"""A symbolic sum or integral of a polynomial (no other factor holding its variable) is counted (d+1)^2 terms for its
degree d, so at most degree 13 (red team 12: cheap, but kept as it was: no measured need to widen)."""
MAX_CLOSED_FORM_WORK = {sympy.Integral: 4, sympy.Sum: 4, sympy.Product: 4}
"""Most `(d+1) f` a symbolic antiderivative or closed form may cost, for the degree d of its polynomial factor in its
variable and the f factors holding the variable otherwise (an exponent, a function): by parts, each power of the
variable meets each such factor. 4: each admitted shape measured under 1 s (the 5-6 ones took 0.7-1.5 s, run to run).
Measured on 2 shared cores at load 1-1.7, each in its own process (gold 6, strict):
`\\int x^{d} e^{x}\\sin x\\,dx` d=2 (6) 0.83-1.49 s, d=3 (8) 1.22 s, d=4 2.07 s (red team 13 under load: d=5 11 s, d=6 14.6
s); `\\int x^{d}\\sin x\\,dx` d=3 (4) 0.51 s, d=5 (6) 0.71 s, d=7 (8) 1.26 s, d=9 2.25 s; `\\int e^{x}\\sin x
\\cos x\\,dx` (3) 0.64-0.82 s, with `x` (6) 0.81 s, `x^{2}` (9) 1.40 s; `\\int x^{5} e^{x} dx` (6) 0.37-0.46 s (`x^{9}` 0.39 s here, 2.5 s under load); `\\sum_{k=1}^{n}
k^{d} x^{k}` d=3 (4) 0.62 s, d=4 (5) 0.74-1.28 s, d=5 (6) 1.37 s (red team 13 under load: d=6 3.3 s, d=7 8.4 s, d=9 over 30 s)."""


def _closed_form(e: Basic, budget: list[int]) -> int:
    """The terms a symbolic antiderivative or closed form is counted: a polynomial one (d+1)^2 for its degree d; one
    with f > 0 other factors holding the variable is refused past `MAX_CLOSED_FORM_WORK`, else counted as its body."""
    variable = e.limits[0][0]
    degree, factors = _degree_factors(e.function, variable, budget)
    if not factors:
        return (min(degree, 10 ** 3) + 1) ** 2
    work, most = (min(degree, 10 ** 3) + 1) * min(factors, 10 ** 3), MAX_CLOSED_FORM_WORK[type(e)]
    if work > most:
        raise _TooCostly(f"{'an' if isinstance(e, sympy.Integral) else 'a'} {type(e).__name__.lower()} of degree {degree} with {factors} other factors "
                         f"((d+1) f = {work}, max {most})")
    return 1


MAX_LIMIT_SERIES = 400
"""Most `n^depth` a limit may cost, for the highest integer power n of its variable written in it (the series order
`gruntz` may need) and the deepest nesting of functions around the variable (each nested function's series is
composed to that order). Measured on 2 shared cores at load 1.7 (`\\lim_{x\\to0}` of `\\tan` nested `depth` deep minus
`\\sin` nested as deep, over `x^{n}`): depth 3 n=7 (343) 0.62 s, depth 2 n=15 (225) 0.44 s, depth 1 n=30 0.30 s, depth 4
n=5 (625) 0.90 s; red team 13: depth 3 n=9 (729) 5.7 s."""


def _limit_cost(e: Basic, budget: list[int]) -> None:
    """Refuses a limit past `MAX_LIMIT_SERIES`."""
    variable = e.args[1]
    order, depth = _series_order(e.args[0], variable, budget)
    cost = min(order, 10 ** 3) ** min(depth, 10)
    if cost > MAX_LIMIT_SERIES:
        raise _TooCostly(f"a limit of series order {order} through {depth} nested functions "
                         f"(n^depth = {cost}, max {MAX_LIMIT_SERIES})")


def _series_order(e: Basic, var: Basic, budget: list[int]) -> tuple[int, int]:
    """The highest integer power of `var` written in `e` (at least 1) and the deepest nesting of functions over it."""
    budget[0] -= 1
    if budget[0] < 0 or not isinstance(e, Basic) or var not in e.free_symbols:
        return 1, 0
    found = [_series_order(a, var, budget) for a in e.args]
    order = max((o for o, _ in found), default=1)
    depth = max((d for _, d in found), default=0)
    if isinstance(e, sympy.Pow) and e.exp.is_Integer:
        order = max(order, int(min(abs(e.exp), 10 ** 3)) * order)
    if isinstance(e, sympy.Function):
        depth += 1
    return order, depth


def _degree_factors(e: Basic, var: Basic, budget: list[int]) -> tuple[int, int]:
    """The polynomial degree of `e` in `var` and how many factors hold `var` otherwise (an exponent, a function)."""
    budget[0] -= 1
    if budget[0] < 0 or not isinstance(e, Basic) or var not in e.free_symbols:
        return 0, 0
    if e == var:
        return 1, 0
    if isinstance(e, sympy.Pow) and e.exp.is_Integer and e.exp > 0:
        degree, factors = _degree_factors(e.base, var, budget)
        return degree * int(min(e.exp, 10 ** 3)), factors
    if isinstance(e, (sympy.Add, sympy.Mul)):
        found = [_degree_factors(a, var, budget) for a in e.args]
        degrees = [d for d, _ in found]
        return (sum(degrees) if isinstance(e, sympy.Mul) else max(degrees)), sum(f for _, f in found)
    return 0, 1


# A power after the matrix, its brackets a `\\right`, a plain `)`/`]` or a group's `}` (red team 10 class 4: `{M}^{-1}`,
# `(M)^{-1}` escaped the bound as no operand).
_MATRIX_RE = re.compile(r"\\begin\s*\{\s*([A-Za-z]*matrix\*?|array)\s*\}(.*?)\\end\s*\{\s*\1\s*\}(\s*(?:\\right\s*[)\]|.]?\s*|[)\]}]\s*)?\^)?", re.S)
_ARRAY_SPEC_RE = re.compile(r"^\s*\{[^{}]*\}")
_NUMERIC_CELLS_RE = re.compile(r"(?:[\d\s.,+\-*/()\[\]{}&]|\\\\|\\(?:[dt]?frac|cdot|times|left|right|quad|qquad|[,;:! ])(?![A-Za-z]))*")
_MATRIX_OP_RE = re.compile(r"det|\\operatorname|[vV]matrix")
_SMALL_EXPONENT_RE = re.compile(r"\^\s*(?:\{\s*(?:-?\s*[0-3]|T|\\top|\\intercal)\s*\}|[0-3](?!\d)|T(?![A-Za-z])|\\top|\\intercal)")
MAX_SYMBOLIC_CELLS = 36
"""Most cells of a matrix holding a letter or a command (`a^{2}`, `\\sqrt{2}`) written as a value: compared cell by
cell, a 6x6 one costs 0.3 s against a near gold, a 12x12 one 1 s (docs/math.md "Answer grammar", matrices)."""
MAX_SYMBOLIC_OPERAND_CELLS = 4
"""Most cells of a matrix holding a letter that is computed on (a determinant, `\\det` or `vmatrix`; a power; an
inverse; a product; an `\\operatorname`): sympy expands a symbolic determinant into n! terms (3x3 1.1 s, 4x4 3.7 s,
6x6 and the 12x12 of tests/helpers.py over 40 s), a 4x4 inverse past 45 s, a 2x2 matrix to the 30th 3.9 s; 2x2
(with an exponent of at most 3 in size, or `T`) stays under 0.5 s. A numeric matrix is bounded by the answer's length
and `magnitude_digits` (a 20x20 determinant 0.8 s, a 12x12 inverse 0.2 s)."""


def matrix_guard(text: str) -> str | None:
    """Why the matrices in an answer cost too much to read, or None (an allowlist, linear in len(text)): numeric cells
    are free; a matrix with any other cell has at most `MAX_SYMBOLIC_CELLS`, and at most `MAX_SYMBOLIC_OPERAND_CELLS`
    when anything is computed on it (another matrix beside it, a determinant, an operator name, a power other than a
    small one or `T`). Answers only (`parsing.parse_prediction`); never paid: `incorrect` with the reason."""
    matrices = list(_MATRIX_RE.finditer(text))
    if not matrices:
        return None
    computed = len(matrices) > 1 or bool(_MATRIX_OP_RE.search(text))
    for m in matrices:
        body = _ARRAY_SPEC_RE.sub("", m.group(2), count=1) if m.group(1) == "array" else m.group(2)
        if _NUMERIC_CELLS_RE.fullmatch(body):
            continue
        cells = sum(row.count("&") + 1 for row in body.split("\\\\") if row.strip())
        powered = bool(m.group(3)) and not _SMALL_EXPONENT_RE.match(text, m.end() - 1)
        most = MAX_SYMBOLIC_OPERAND_CELLS if computed or m.group(3) else MAX_SYMBOLIC_CELLS
        if cells > most or powered:
            return (f"a symbolic matrix of {cells} cells (max {most}{' computed on' if most < MAX_SYMBOLIC_CELLS else ''})"
                    f"{' to a large power' if powered else ''}: too costly to compare")
    return None


def magnitude_digits(expr: Basic | MatrixBase, limits: MathLimits) -> float:
    """Upper bound on how many decimal digits (10^N or 10^-N) any value inside `expr` can have.

    Unevaluated trees are walked, never evaluated; the walk stops at `max_tree_nodes`. Returns
    `INFINITE` for anything too large to bound (a tower's exponent, a factorial of a huge number).
    """
    budget = [limits.max_tree_nodes]
    try:
        if isinstance(expr, MatrixBase):  # not a Basic: walk its elements
            return max((_digits(x, budget) for x in expr), default=0.0)
        return _digits(expr, budget)
    except OverflowError:
        return INFINITE


def _digits(e: Basic, budget: list[int]) -> float:
    budget[0] -= 1
    if budget[0] < 0:
        return INFINITE
    if isinstance(e, sympy.Integer):
        return _int_digits(int(e.p))
    if isinstance(e, sympy.Rational):
        return _int_digits(int(e.p)) + _int_digits(int(e.q))
    if isinstance(e, sympy.Float):
        _sign, man, exp, bc = e._mpf_ if len(e._mpf_) == 4 else (0, 0, 0, 0)
        return abs(exp + bc) * 0.30103 + 1 if man else 1.0
    if not isinstance(e, Basic) or not e.args:
        return 1.0  # symbols, pi, E, I, oo, EmptySet, ...
    if isinstance(e, sympy.Pow):
        return _pow_digits(e, budget)
    if isinstance(e, (sympy.factorial, sympy.factorial2, sympy.gamma, sympy.binomial, sympy.RisingFactorial, sympy.FallingFactorial)):
        if e.free_symbols:
            return _symbolic_factorial_digits(e, budget)
        value = max(_bound(a, budget) for a in e.args)
        if value > 1e8:
            return INFINITE
        return math.lgamma(value + 1) / math.log(10) + 1
    if isinstance(e, (sympy.Sum, sympy.Product)):
        return _series_digits(e, budget)
    if isinstance(e, sympy.Integral):
        return _integral_digits(e, budget)
    if isinstance(e, sympy.exp):
        if e.args[0].free_symbols:
            return _digits(e.args[0], budget) + 1  # see _pow_digits
        n = _digits(e.args[0], budget)
        return INFINITE if n > 300 else 0.4343 * 10.0 ** n + 1
    parts = [_digits(a, budget) for a in e.args]
    if isinstance(e, sympy.Mul):
        return sum(parts)
    return max(parts) + 1


MAX_SERIES_TERMS = 100
"""The most terms a `\\sum` or `\\prod` with numeric bounds may have (red team 9 item 5: sympy evaluated
`\\prod_{k=1}^{10^{6}} k` term by term, 35 s warm; fx29m: with 1,000 terms `\\sum 2^{k} k^{5}` took 9.3 s,
`\\sum i^{1000}` 8.9 s, `\\sum k!` over 45 s; with 100 terms each stays under 0.4 s)."""
MAX_SERIES_DEGREE = 20
"""The highest power of its own variable a series' term may hold (`\\sum_{i=1}^{100} i^{20}`): sympy sums a
polynomial term in closed form, with a cost that grows with the degree (`\\sum_{i=1}^{1000} i^{50}` 1.3 s, `\\sum_{k=1}^{n} k^{50}` 0.9 s)."""


_TERM_FUNCTIONS = (sympy.exp, sympy.sin, sympy.cos, sympy.tan, sympy.log)
"""The functions a summed term may apply (`\\sum_{k=1}^{100} \\sin(k)^{20}`, under 1 s); any other (`\\binom`, `k!`,
`\\Gamma`, a special function) makes the sum never evaluated, compared as written (red team 10 class 4:
`\\sum_{k=1}^{100} \\binom{100}{k}^{2}` 9.8 s, `^{20}` over 30 s)."""


def _series_digits(e: Basic, budget: list[int]) -> float:
    """A sum or product (docs/math.md "Answer grammar", red team 9 item 5, fx29m): an allowlist. Evaluated only when
    its term holds no other series (a nested one is summed symbolically in the outer variables: `\\sum_{i=1}^{5}
    \\sum_{j=1}^{5}\\sum_{k=1}^{4} (i+j+k)^{10}` took 2.8 s with 100 terms), no power of its variable above
    `MAX_SERIES_DEGREE`, and numeric bounds give at most `MAX_SERIES_TERMS` terms; else `INFINITE`: never evaluated.
    The term's digits are read at the upper bound (`k!` up to 1000 has 2,568), a sum's digits its term's plus the
    count's, a product's its term's times the count; a symbolic bound (`\\sum_{k=1}^{n} k`) costs what its parts
    cost."""
    term = e.args[0]
    if len(e.args) > 2 or term.has(sympy.Sum, sympy.Product):
        return INFINITE  # nested: `\\sum_{i}\\sum_{j}` is one Sum of two limits, or a Sum in the term
    if isinstance(e, sympy.Sum) and term.atoms(sympy.Function) - term.atoms(*_TERM_FUNCTIONS):
        return INFINITE  # `\\sum \\binom{100}{k}^{2}`: `Sum.doit` seeks a hypergeometric closed form first (10 s)
    count = 1.0
    at_bound = term
    for limit in e.args[1:]:
        if len(limit) != 3:
            return INFINITE  # an indefinite sum or product: nothing bounds it
        var, low, high = limit
        if _degree_in(term, var) > MAX_SERIES_DEGREE:
            return INFINITE
        if low.free_symbols or high.free_symbols:
            continue
        lo, hi = exact_rational(low), exact_rational(high)
        if lo is None or hi is None or _digits(low, budget) > 18 or _digits(high, budget) > 18:
            return INFINITE
        count *= max(float(hi - lo) + 1, 1.0)
        if count > MAX_SERIES_TERMS:
            return INFINITE
        with sympy.evaluate(False):
            at_bound = at_bound.xreplace({var: sympy.Integer(int(max(abs(lo), abs(hi))) + 1)})
    digits = _digits(at_bound, budget)
    for limit in e.args[1:]:
        if limit[1].free_symbols or limit[2].free_symbols:
            digits += _digits(limit[1], budget) + _digits(limit[2], budget)
    return digits * count + 1 if isinstance(e, sympy.Product) else digits + math.log10(count) + 1


def _degree_in(e: Basic, var: Basic) -> float:
    """The highest integer power of `var` written in `e` (`(i+j)^{10}` is 10 in i), `INFINITE` for a power of it that
    is not a small integer, never expanding anything."""
    most = 1.0
    for p in sympy.preorder_traversal(e):
        if isinstance(p, sympy.Pow) and p.args[0].has(var):
            x = p.args[1]
            if p.args[1].has(var) or not x.is_Integer or abs(int(x)) > 10**6:
                return INFINITE
            most = max(most, float(abs(int(x))) * _degree_in(p.args[0], var))
    return most


def _integral_digits(e: Basic, budget: list[int]) -> float:
    """An integral (red team 9 item 5: `\\int_0^1 e^{x^2}\\sin(x^x)dx` held sympy over 40 s): an allowlist, only a
    polynomial integrand in its variables with bounds of few digits is evaluated; any other is `INFINITE`, never
    evaluated (compared as written, `compare.canonical`)."""
    integrand, limits = e.args[0], e.args[1:]
    variables = [limit[0] for limit in limits]
    if not _elementary(integrand, variables):
        return INFINITE
    digits = _digits(integrand, budget)
    for limit in limits:
        for bound in limit[1:]:
            digits += _digits(bound, budget)
    return INFINITE if digits > 18 else digits + 1


def _elementary(e: Basic, variables: list[Basic]) -> bool:
    """Whether an integrand is one sympy integrates at once: numbers and symbols under `+`, `*` and nonnegative integer
    powers of its variables (a negative one is a rational integrand: `\\frac{1}{x^{8}+1}` 5 s, red team 10 class 4),
    with `exp`, `sin`, `cos` of a linear argument (`e^{-x}`, `x^2 \\sin(2x)`); `e^{x^2}`, `x^x` are not."""
    if not e.args:
        return True
    if isinstance(e, (sympy.Add, sympy.Mul)):
        return all(_elementary(a, variables) for a in e.args)
    if isinstance(e, sympy.Pow):  # `\\frac{1}{x^{8}+1}`: sympy integrates a rational function by its complex roots (5 s)
        exponent = e.args[1]
        negative = bool(exponent.is_negative) and e.args[0].has(*variables)
        return bool(exponent.is_Integer) and not negative and _elementary(e.args[0], variables)
    if isinstance(e, (sympy.exp, sympy.sin, sympy.cos)):
        try:
            return all(sympy.degree(e.args[0], v) <= 1 for v in variables) and e.args[0].is_polynomial(*variables)
        except (sympy.PolynomialError, TypeError, ValueError):
            return False
    return False


def _symbolic_factorial_digits(e: Basic, budget: list[int]) -> float:
    """`\\binom{2k+1}{3}`, `(n/k)!`: never evaluated; simplify may expand one into a product of as
    many factors as its numeric argument (`\\binom{n}{3}` has 3), so it costs like a power of that
    degree: the symbolic arguments' digits times the largest numeric argument. Bounding it by its
    value at `k = 10` refused `\\binom{2k+1}{3} - k(2k+1)` against `\\frac{2k(2k+1)(k-2)}{3}`."""
    symbolic = [_digits(a, budget) for a in e.args if a.free_symbols]
    degree = max((_bound(a, budget) for a in e.args if not a.free_symbols), default=1.0)
    return INFINITE if degree == INFINITE else sum(symbolic) * max(degree, 1.0) + 1


def _pow_digits(e: Basic, budget: list[int]) -> float:
    """A power with a symbol in its exponent (`e^{10x}`, `2^{x^2}`) is never evaluated nor expanded:
    it costs what its parts cost. Bounding it by its value at `x = 10` refused `e^{10x}(10x + 1)`
    against `10x e^{10x} + e^{10x}` (and `e^{x^2}`) as too large, an identity math-verify proves."""
    base, exp = e.args
    b = _digits(base, budget)
    if exp.free_symbols:
        return b + _digits(exp, budget) + 1
    x = _bound(exp, budget)
    return INFINITE if x == INFINITE else b * x + 1


def _bound(e: Basic, budget: list[int]) -> float:
    """Upper bound on |value of e|: its value when e is a small number (rational or not, so that
    `2^{\\sqrt{2}}` is not "too large"), else 10^digits."""
    d = _digits(e, budget)
    if d <= 18:
        v = exact_rational(e)
        if v is not None:
            return float(abs(v))
        small = _small_value(e)
        if small is not None:
            return small
    return INFINITE if d > 300 else 10.0 ** d


def _small_value(e: Basic) -> float | None:
    """|e| to 15 digits for a number whose digit estimate is small (so evaluating it is cheap)."""
    if not is_numeric(e):  # no symbols, integrals, sums or limits (evaluating those is not cheap)
        return None
    value = e.evalf(15)
    if not isinstance(value, sympy.Float):
        re_part, im_part = value.as_real_imag()
        if not (isinstance(re_part, sympy.Number) and isinstance(im_part, sympy.Number)):
            return None
        return float(abs(complex(re_part, im_part))) + 1.0
    return abs(float(value))


def _int_digits(n: int) -> float:
    return n.bit_length() * 0.30103 + 1
