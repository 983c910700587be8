"""Decide whether a parsed prediction equals a parsed gold.

Order of checks, first definite answer wins:
1. the same normalised text; two numerals that both state a base (`4210_{7}`, `1477_{10}`) by value;
2. too large to evaluate (power towers, huge factorials): structural equality only;
   then arithmetic on an infinity or at a pole is settled (`numeric.settled`): `\\infty^2` is `oo`,
   `\\infty - \\infty` and `(-3)!` have no value (never equal); an infinity equals only itself;
3. relations: `x = 5` is unwrapped to 5 (one side a name: `x`, `f(x)`, `(p, q)`, `A:B`); two such
   relations compare their values when the names are the same or both single (`f(x) = 2x + 3`
   and `y = 2x + 3`); any other relation (`x + z = 1`) never equals a value;
4. numbers: exactly when both are exact; with a tolerance of half a unit in the last stated
   decimal when one side is a decimal approximation (the gold's precision when the gold is the
   decimal; a predicted decimal that only approximates an exact gold needs `approx_sig_digits`);
   percent signs may be dropped;
5. containers keep their nesting (`same_nesting`); tuples, sets, intervals and matrices of
   numbers: element-wise with rule 4; a vector (n x 1 or 1 x n matrix) equals the list of its
   elements in order (`[0.5, 1]`);
6. everything else (symbolic expressions, equations, relations, mixed containers): math-verify's
   `verify` with its timeout off, unless two expressions differ at a sample point
   (`differs_at_a_point`, a disproof only).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import cast

import sympy
from sympy.core.function import AppliedUndef
from sympy.matrices import MatrixBase
from sympy.matrices.expressions import MatrixExpr

from .grammar import restating_word
from .guards import magnitude_digits
from .limits import DEFAULT_LIMITS, MathLimits
from .numeric import INFINITIES, NON_VALUES, exact_rational, has_float, high_precision, is_numeric, numbers_equal, settled, within
from .parsing import (
    Literal,
    Parsed,
    decimal_comma,
    lone_relation,
    name_order,
    named_items,
    parse_gold,
    parse_prediction,
    read_literal,
)

_TEXT_NOISE_RE = re.compile(r"\s+|\\left|\\right|\\!|\\,|\\;|\\:|\\ |\\displaystyle")
_TEXT_WRAPPER_RE = re.compile(r"^\\(?:text|textbf|textit|mathrm|mbox)\s*\{([^{}]*)\}$")
_WORDS_RE = re.compile(r"^(?=.*[A-Za-z]{3})[A-Za-z][A-Za-z' -]*$")
_CONTAINERS = (sympy.Tuple, sympy.FiniteSet, sympy.Interval)
# A numeral with a base subscript: 4210_7, 10001_{2}, A3_{16} (math-verify drops the subscript).
_BASE_NUMERAL_RE = re.compile(r"^([0-9A-Za-z]*[0-9][0-9A-Za-z]*)_\{?(\d{1,2})\}?$")


def same_text(a: str, b: str) -> bool:
    """Equal after dropping spacing and sizing commands (`\\left`, `\\,`) and `dfrac`/`tfrac`."""
    return _squash(a) == _squash(b)


def _squash(text: str) -> str:
    text = _TEXT_NOISE_RE.sub("", text)
    return text.replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac")


def base_numeral(text: str) -> int | None:
    """The value of a numeral written with its base (`4210_{7}` is 1477), else None.

    math-verify parses `4210_7` as 4210, so `4210_8` would equal it. Only when both sides state a
    base are values compared; a bare `4210` against `4210_{7}` keeps the digit comparison (a model
    that leaves the base off an answer the question asked in base 7).
    """
    m = _BASE_NUMERAL_RE.match(text.strip())
    if not m or not 2 <= int(m.group(2)) <= 36:
        return None
    try:
        return int(m.group(1), int(m.group(2)))
    except ValueError:  # a digit not valid in that base
        return None


def words(text: str) -> str | None:
    """A word answer ("Friday", `\\text{No solution}`) in lower case, or None for math.

    Words are compared as text: as LaTeX they would parse to products of single-letter symbols.
    """
    m = _TEXT_WRAPPER_RE.match(text.strip())
    inner = (m.group(1) if m else text).strip().rstrip(".").strip()
    return " ".join(inner.lower().split()) if _WORDS_RE.match(inner) else None


# A sentence that opens with a bare Yes or No and then restates it (docs/math.md "Math grading rules", the yes/no
# row): an allowlist of restating shapes, read on tokens (words lower-cased, `§` a math segment, `#` a number).
_YES_NO_RE = re.compile(r"^(?:\\text(?:bf|it)?\s*\{\s*)?(yes|no)\s*\.?\s*\}?$", re.IGNORECASE)
_TEXT_WRAPPER_SEGMENT_RE = re.compile(r"\\text(?:bf|it|rm)?\s*\{([^{}]*)\}")
_REASON_TOKEN_RE = re.compile(r"\$[^$]*\$|[A-Za-z]+|\d+|[,.;:]|\S")
# A math segment in a reason: digits, single letters, relations and a few commands; no words, no text inside.
_REASON_MATH_RE = re.compile(r"^(?:\\(?:nmid|mid|neq|ne|leq|le|geq|ge|lt|gt|cdot|times|equiv|pmod|bmod|sqrt|frac|infty|in|notin|pi)(?![A-Za-z])|[A-Za-z](?![A-Za-z])|[0-9\s=<>+\-*/^_{}()|.,])*$")
_NP = r"(?P<np>(?:[a-z]+|§|#)(?: (?:[a-z]+|§|#)){0,9})"
_WHY = r"(?:because|since) § (?:(?:works|holds) )?"
_YES_SHAPES = [re.compile(p) for p in (
    rf"^such {_NP} exists? $", rf"^there (?:is|are|exists?) {_NP} $", r"^it is (?:always )?possible $", rf"^{_WHY}$")]
_NO_SHAPES = [re.compile(p) for p in (
    rf"^no such {_NP} exists? $", rf"^there (?:is|are) no {_NP} $", rf"^there (?:does|do) not exist {_NP} $",
    rf"^such {_NP} (?:does|do) not exist $", r"^it is (?:not (?:always )?possible|impossible) $", rf"^{_WHY}$")]
_SHAPES = _YES_SHAPES + _NO_SHAPES  # either word with either: the question's polarity is unknown (`Yes, it is not always possible`)
# A short tag that echoes the word itself (`Yes, it is.`, `No, there is not.`): only with its own polarity.
_TAG = r"^(?:it|they|there|one) (?:is|are|does|do|can|exists?)"
_TAGS = {"yes": re.compile(_TAG + " $"), "no": re.compile(_TAG + " not $")}
def _math_token(math: str) -> str | None:
    """`§` for a plain math segment of a reason (`n = 6`, `2 \\nmid 7`), None for one holding words or markup."""
    return "§" if _REASON_MATH_RE.match(math) and math.strip() else None


def _reason_tokens(sentence: str) -> list[str] | None:
    """The sentence as tokens: inside `\\text{...}` (or everywhere, with no wrapper) words, numbers and
    punctuation; between wrappers (and in `$...$`) a math segment. None when a part is neither."""
    s = sentence.strip()
    if not s.startswith("\\text"):
        return _text_tokens(s)
    tokens: list[str] = []
    pos = 0
    for m in [*_TEXT_WRAPPER_SEGMENT_RE.finditer(s), None]:
        between = s[pos:m.start() if m else len(s)]
        if between.strip(" ,.;:"):
            math = _math_token(between)
            if math is None:
                return None
            tokens.append(math)
        else:
            tokens += [c for c in between if not c.isspace()]
        if m is None:
            return tokens
        words = _text_tokens(m.group(1))
        if words is None:
            return None
        tokens += words
        pos = m.end()
    return tokens


def _text_tokens(text: str) -> list[str] | None:
    tokens: list[str] = []
    for tok in _REASON_TOKEN_RE.findall(text):
        if tok.startswith("$"):
            math = _math_token(tok[1:-1])
            if math is None:
                return None
            tokens.append(math)
        elif tok.isascii() and (tok.isalpha() or tok.isdigit() or tok in ",.;:"):
            tokens.append("#" if tok.isdigit() else tok.lower())
        else:
            return None  # any other character (a full-width letter, a quote, a bracket) is no restating shape
    return tokens


def _restates(word: str, reason: list[str]) -> bool:
    """Whether the tokens after the opening word are empty or one of the restating shapes, its noun phrase read by a
    closed vocabulary (`grammar.restating_word`: `there are Nope solutions` decides nothing)."""
    if reason and reason[-1] == ".":
        reason = reason[:-1]
    if not reason:
        return True
    text = " ".join(reason) + " "
    if _TAGS[word].match(text):
        return True
    for shape in _SHAPES:
        m = shape.match(text)
        if m and all(w in "§#" or restating_word(w) for w in (m.groupdict().get("np") or "").split()):
            return True
    return False


def yes_or_no(answer: str, sentence: str) -> tuple[bool, str] | None:
    """A bare Yes or No (`\\text{No}`, `yes`) against a sentence that opens with a bare Yes or No and
    then restates it (`\\text{Yes, such n exist.}`, `No, it is not always possible`): the opening decides
    (docs/math.md "Math grading rules"). An allowlist: the reason after the word is empty or one of a few
    restating shapes (`such ... exist`, `there are ...`, `there is no ...`, `because <math> works`, ...);
    any other reason (`Yes, probably.`, `No, wait, actually it exists.`) decides nothing, and `No such n
    exists` has no bare opening word."""
    bare = _YES_NO_RE.match(answer.strip())
    if not bare:
        return None
    tokens = _reason_tokens(sentence)
    if not tokens or tokens[0] not in ("yes", "no") or len(tokens) > 1 and tokens[1] not in ",.:":
        return None
    said = tokens[0]
    if not _restates(said, tokens[2:]):
        return None
    word = bare.group(1).lower()
    return (True, "the same yes/no, then its reason") if said == word else (False, "the other yes/no")


def equivalent(gold: Parsed, pred: Parsed, limits: MathLimits = DEFAULT_LIMITS) -> tuple[bool, str]:
    """(equal, short reason). Never stringifies a sympy object."""
    verdict = _by_text(gold.text, pred.text)
    if verdict is not None:
        return verdict
    gold, pred = decimal_comma_readings(gold, pred)
    by_name = _by_name(gold, pred)
    if by_name is not None:
        return equivalent(gold, by_name, limits) if isinstance(by_name, Parsed) else (False, by_name)
    if gold.named and not _has_relation(pred.expr):
        # `p = -3, q = 1` answered by `-3, 1`: the values in order, unless the answer is a set `\{...\}`
        values = parse_gold(f"\\{{{gold.named}\\}}" if pred.text.startswith("\\{") else f"({gold.named})")
        if not isinstance(values, str):
            return equivalent(values, pred, limits)
    g, p = gold.expr, pred.expr
    if _too_large(gold, limits) or _too_large(pred, limits):
        if g == p or canonical(g, limits) == canonical(p, limits):
            return True, "structurally equal (too large to evaluate)"
        return False, "not structurally equal; too large to evaluate exactly"
    g, p = settled(g), settled(p)
    if g is None or p is None:
        return False, "the " + ("gold" if g is None else "answer") + " has no value (arithmetic on an infinity, or a pole)"
    g, p, why = unwrap_relations(g, p, gold.text, pred.text)
    if why:
        return False, why
    g, p = same_parameter(g, p)
    verdict = compare_infinities(g, p)
    if verdict is not None:
        return verdict
    if not same_nesting(g, p):
        return False, "containers nested differently"
    verdict = compare_numbers(g, gold.literal, p, pred.literal, limits)
    if verdict is not None:
        return verdict
    verdict = compare_containers(g, p, limits)
    if verdict is not None:
        return verdict
    if differs_at_a_point(g, p):
        return False, "differs at a sample point"
    return _math_verify(g, p), "math-verify symbolic comparison"


_TUPLE_NAMES_RE = re.compile(r"^\s*\(([^()=]*)\)\s*=")


def _by_name(gold: Parsed, pred: Parsed) -> Parsed | str | None:
    """An answer that lists named values (`y = 1, x = 2`, in any spelling `parsing.named_items` reads) read by
    name, never by written order (docs/math.md "Math grading rules", "named values"): against a gold that lists
    them too, None (the two sets of relations compare name by name); against `(x, y) = (...)`, the values in the
    gold's order of names; against a bare gold, in the names' conventional order (`parsing.name_order`: `b = 1,
    a = 2` answers `(2, 1)`), and refused when they have none (`b = 2, m = 3`). Relations in a spelling the
    reader does not know are refused against a bare tuple, never read in written order. One name given several
    values (`x = 1, x = 2`) is a set of solutions, never an ordered tuple. A str says why it is never equal."""
    items = named_items(pred.text)
    tuple_names = _TUPLE_NAMES_RE.match(gold.text)
    if items is None:
        if not tuple_names and _several_parts(gold.expr) and len(set(_RELATION_NAME_RE.findall(pred.text))) > 1 and "=" not in gold.text:
            return "several relations in a spelling the named-value reader does not know"
        return None
    if not tuple_names and named_items(gold.text) is not None:
        return None
    names = [name for name, _ in items]
    values = dict(items)
    if len(set(names)) != len(names):
        if _ordered(gold.expr):
            return "one name given several values is a set of solutions, never an ordered tuple"
        return parse_prediction(f"\\{{{', '.join(v for _, v in items)}\\}}")
    if tuple_names:
        wanted = [n.strip() for n in tuple_names.group(1).split(",")]
        if sorted(wanted) != sorted(names):
            return "the answer names other quantities than the gold's tuple"
        return parse_prediction(f"({', '.join(wanted)}) = ({', '.join(values[n] for n in wanted)})")
    ordered = name_order(names)
    if ordered is None:
        return "named values in no known order (`b = 2, m = 3`) against a bare tuple: which comes first is not known"
    return parse_prediction(f"({', '.join(values[n] for n in ordered)})")


_RELATION_NAME_RE = re.compile(r"(?<![\\A-Za-z])(\\?[A-Za-z]+(?:_\{?[A-Za-z0-9]+\}?)?)\s*(?::=|=)")
"""The name on the left of each relation (`y = 1`, `\\beta := 1`): relations giving values to two names or more
pair names with values, and a spelling the reader does not know is refused rather than read in written order."""


def _several_parts(e: object) -> bool:
    """Whether `e` is a tuple or set of several parts (a bare tuple gold that named values could answer)."""
    return _ordered(e) or isinstance(e, sympy.FiniteSet) and len(e) > 1


def _ordered(e: object) -> bool:
    """Whether `e` (or the value a name is given) is an ordered tuple: `(1, 2)` parses as an open interval."""
    unwrapped = lone_variable(e)
    e = unwrapped[1] if unwrapped else e
    return isinstance(e, sympy.Tuple) and len(e) > 1 or isinstance(e, sympy.Interval) and e.left_open and e.right_open


def _by_text(gold: str, pred: str) -> tuple[bool, str] | None:
    """The readings decided on the written text alone (same text, words, yes/no, base numerals),
    before any value is computed; None when the text cannot tell."""
    if same_text(gold, pred):
        return True, "same answer text"
    g_words, p_words = words(gold), words(pred)
    if g_words is not None and p_words is not None:
        return (True, "same words") if g_words == p_words else (False, "different words")
    verdict = yes_or_no(gold, pred) or yes_or_no(pred, gold)
    if verdict is not None:
        return verdict
    g_base, p_base = base_numeral(gold), base_numeral(pred)
    if g_base is not None and p_base is not None:
        return (True, "same number in base notation") if g_base == p_base else (False, "different numbers in base notation")
    return None


def decimal_comma_readings(gold: Parsed, pred: Parsed) -> tuple[Parsed, Parsed]:
    """A lone `1,22` or `0,111` (`parsing.decimal_comma`) read as its decimal, 1.22 or 0.111, when
    the other side is a single number, the same way for gold and answer (docs/math.md "Math grading rules").
    Against anything else it keeps math-verify's reading: `1,22` answers the list `1, 22` or the pair
    `(1, 22)`, the pair never answers the gold 1.22, and `1,5` never equals `1,50` (as lists they
    differ; math-verify reads `0,111`, not `0,5`, as a number)."""
    if decimal_comma(gold.text) is None and decimal_comma(pred.text) is None:
        return gold, pred
    g_number, p_number = is_numeric(gold.expr), is_numeric(pred.expr)
    if p_number:
        gold = _decimal_reading(gold, parse_gold)
    if g_number:
        pred = _decimal_reading(pred, parse_prediction)
    return gold, pred


def _decimal_reading(side: Parsed, parse: Callable[[str], Parsed | str]) -> Parsed:
    """`side` read with its decimal comma as a point, or `side` itself when it has none."""
    written = decimal_comma(side.text)
    reading = parse(written) if written else None
    return reading if isinstance(reading, Parsed) else side


# Sample values for the free symbols (sorted by name): positive, irregular, below 1 so that
# exponentials stay small and principal branches agree.
_SAMPLES = ((sympy.Rational(37, 101), sympy.Rational(59, 97), sympy.Rational(71, 103), sympy.Rational(29, 89)),
            (sympy.Rational(83, 107), sympy.Rational(17, 79), sympy.Rational(43, 61), sympy.Rational(67, 113)))
_SAMPLE_DIGITS = 30


def differs_at_a_point(g: object, p: object) -> bool:
    """Whether two symbolic expressions take clearly different values at a sample point: then no
    simplification can make them equal, and math-verify's simplify, which costs ~0.2 s exactly when
    it fails (bench/math_throughput.py, second workload), is skipped. Only ever a disproof: equal
    values decide nothing. Plain expressions of real symbols only (no bare symbol, which math-verify
    compares by name, no function, sum, integral, limit, matrix, relation or container)."""
    if not (isinstance(g, sympy.Expr) and isinstance(p, sympy.Expr)) or isinstance(g, MatrixExpr) or isinstance(p, MatrixExpr):
        return False
    if isinstance(g, sympy.Symbol) or isinstance(p, sympy.Symbol):
        return False
    names = sorted(g.free_symbols | p.free_symbols, key=lambda s: s.name)
    if not names or len(names) > len(_SAMPLES[0]) or g.has(AppliedUndef, *NON_VALUES) or p.has(AppliedUndef, *NON_VALUES):
        return False  # an unevaluated sum or integral at a non-integer point is no sample of it
    if not all(isinstance(s, sympy.Symbol) and s.is_real for s in names):
        return False
    # A decimal in either side carries only its own ~15 digits: a gap below that decides nothing.
    tolerance = sympy.Rational(1, 10**10) if has_float(g) or has_float(p) else sympy.Rational(1, 10**20)
    for values in _SAMPLES:
        point = dict(zip(names, values))
        try:
            a = high_precision(g.xreplace(point), _SAMPLE_DIGITS)
            b = high_precision(p.xreplace(point), _SAMPLE_DIGITS)
        except (ValueError, TypeError, ZeroDivisionError, ArithmeticError):
            return False
        if a is None or b is None:
            continue  # a pole or no number at this point
        diff = max(abs(a[0] - b[0]), abs(a[1] - b[1]))
        scale = max(abs(a[0]), abs(a[1]), abs(b[0]), abs(b[1]), 1)
        if diff > scale * tolerance:
            return True
    return False


def canonical(e: object, limits: MathLimits) -> object:
    """`e` with every small exact subtree replaced by its value, the rest left unevaluated:
    `(10^{6})!` and `1000000!` both become factorial(1000000). Used only for too-large answers."""
    if not isinstance(e, sympy.Basic) or not e.args:
        return e
    if magnitude_digits(e, limits) <= limits.max_exact_digits:
        value = exact_rational(e)
        if value is not None:
            return sympy.Rational(value.numerator, value.denominator)
    args = [canonical(a, limits) for a in e.args]
    try:
        return e.func(*args, evaluate=False)
    except TypeError:
        return e


def has_no_value(parsed: Parsed, limits: MathLimits = DEFAULT_LIMITS) -> bool:
    """Whether a parsed answer is arithmetic on an infinity or a pole (`numeric.settled`); a
    too-large one is never evaluated, so it is not judged here."""
    return not _too_large(parsed, limits) and settled(parsed.expr) is None


def _too_large(parsed: Parsed, limits: MathLimits) -> bool:
    bound = limits.max_symbolic_digits if parsed.symbolic else limits.max_exact_digits
    return parsed.digits > bound


def lone_variable(e: object) -> tuple[object, object] | None:
    """(name, value) when `e` is `name = value` or `value = name` and the value does not use the
    name; else None. A name is what a question asks for: a variable (`x`), a function (`f(x)`), a
    tuple of variables (`(p, q)`), or a ratio or product of named quantities (`A:B`, `\\frac{NO}{BO}`,
    `|AB|`). A sum (`x + z`), a power (`x^2`) or a multiple (`2x`) is a constraint, not a name."""
    if not isinstance(e, sympy.Eq):
        return None
    for name, value in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
        if not _is_name(name):
            continue
        if isinstance(name, AppliedUndef):
            if not value.has(name.func):
                return name, value
        elif not (getattr(name, "free_symbols", set()) & getattr(value, "free_symbols", set())):
            return name, value
    return None


def _is_name(e: object) -> bool:
    if isinstance(e, (sympy.Symbol, AppliedUndef)):
        return True
    if isinstance(e, sympy.Tuple):
        return len(e) > 0 and all(isinstance(a, sympy.Symbol) for a in e)
    if isinstance(e, sympy.Abs):
        return _named_quantities(e.args[0])  # `|AB|`, never `|x|` (x or -x)
    if isinstance(e, sympy.Mul):
        return _named_quantities(e)
    return False


def _named_quantities(e: object) -> bool:
    """A ratio or product of two or more named quantities (`A:B`, `\\frac{NO}{BO}`, `|AB|`): it names a
    quantity of its own. A function of one unknown (`x^{-1}`, `|x|`) is a constraint on it, never its
    name: `x^{-1} = 6` says x is 1/6 (docs/math.md "Math grading rules")."""
    return _product_of_names(e) and len(getattr(e, "free_symbols", ())) >= 2


def _product_of_names(e: object) -> bool:
    if isinstance(e, (sympy.Symbol, AppliedUndef)):
        return True
    if isinstance(e, sympy.Pow):
        return e.exp == -1 and _product_of_names(e.base)
    return isinstance(e, sympy.Mul) and all(_product_of_names(a) for a in e.args)


def unwrap_relations(g: object, p: object, g_text: str = "", p_text: str = "") -> tuple[object, object, str]:
    """Relations stay relations unless one side is a name (`lone_variable`; docs/math.md "Math grading rules").

    `x = 5` vs `5` compares 5 with 5; `x = 5` vs `x = 5` compares the values; a relation such as
    `x + z = 1` never equals a bare value (its right-hand side `1` is not the answer). Returns the
    two objects to compare and, when they can never be equal, the reason.
    """
    g_var, p_var = lone_variable(g), lone_variable(p)
    if g_var and p_var:
        return (g_var[1], p_var[1], "") if g_var[0] == p_var[0] or _renamed(g_var, p_var) else (g, p, "")
    if g_var and not isinstance(p, sympy.core.relational.Relational):
        return g_var[1], p, ""
    if p_var and not isinstance(g, sympy.core.relational.Relational):
        return g, p_var[1], ""
    g_rel = isinstance(g, sympy.core.relational.Relational)
    p_rel = isinstance(p, sympy.core.relational.Relational)
    if g_rel != p_rel:
        # only a relation written alone (parsing.lone_relation: no qualifier that math-verify dropped)
        alone = lone_relation(g_text if g_rel else p_text)
        g_set, p_set = (half_line(g) if alone else None, p) if g_rel else (g, half_line(p) if alone else None)
        if g_set is not None and p_set is not None and isinstance(g_set if p_rel else p_set, sympy.Interval):
            return g_set, p_set, ""  # `y > 2` against `(2, \infty)`: the same set of values
        return g, p, "a relation and a value are never equal" + (" (gold is a relation)" if g_rel else "")
    return g, p, ""


_ONE_SIDED = (sympy.StrictGreaterThan, sympy.GreaterThan, sympy.StrictLessThan, sympy.LessThan)


def half_line(e: object) -> object | None:
    """`y > 2` as the interval of values it admits, `(2, \\infty)`; None unless `e` is one inequality
    between one variable and a finite real number (docs/math.md "Math grading rules"). Only an
    interval answer is compared this way: a bare value never answers a relation (`2` for `y > 2`)."""
    if not isinstance(e, _ONE_SIDED):
        return None
    sides = (e.lhs, e.rhs)
    names = [side for side in sides if isinstance(side, sympy.Symbol)]
    bounds = [side for side in sides if not isinstance(side, sympy.Symbol)]
    if len(names) != 1 or len(bounds) != 1:
        return None
    bound = bounds[0]
    if not (getattr(bound, "is_number", False) and bound.is_extended_real and bound.is_finite):
        return None
    return e.as_set()


def _renamed(g_var: tuple[object, object], p_var: tuple[object, object]) -> bool:
    """`f(x) = 2x + 3` and `y = 2x + 3`: two single names (a variable or `f(x)`) that name the
    same value, as a bare `2x + 3` answers `f(x) = 2x + 3`. Not for tuples of names (`(q, p) = (1, 2)`
    swaps the values of `(p, q) = (1, 2)`), nor when one name appears in the other's value
    (`x = y` against `y = x` is the same relation, left to the relation comparison)."""
    (g_name, g_value), (p_name, p_value) = g_var, p_var
    if not all(isinstance(n, (sympy.Symbol, AppliedUndef)) for n in (g_name, p_name)):
        return False
    return not (_mentions(g_value, p_name) or _mentions(p_value, g_name))


def _mentions(value: object, name: object) -> bool:
    if not isinstance(value, sympy.Basic):
        return False
    return value.has(name.func) if isinstance(name, AppliedUndef) else value.has(name)


def _has_relation(e: object) -> bool:
    return isinstance(e, sympy.Basic) and bool(e.atoms(sympy.core.relational.Relational))


_PARAMETERS = frozenset({"k", "n", "m"})


def same_parameter(g: object, p: object) -> tuple[object, object]:
    """A general solution's integer parameter may have any name: `\\frac{\\pi}{6} + k\\pi` and
    `\\frac{\\pi}{6} + n\\pi` are one answer (docs/math.md "Math grading rules"). Only for expressions with
    `\\pi` (trigonometric solutions) whose free symbols differ by one of k, n, m on each side; the
    answer's name is replaced by the gold's before any comparison (a sample point would differ)."""
    if not (isinstance(g, sympy.Basic) and isinstance(p, sympy.Basic)):
        return g, p
    only_g, only_p = g.free_symbols - p.free_symbols, p.free_symbols - g.free_symbols
    if len(only_g) != 1 or len(only_p) != 1:
        return g, p
    (a,), (b,) = only_g, only_p
    if {getattr(a, "name", ""), getattr(b, "name", "")} <= _PARAMETERS and g.has(sympy.pi) and p.has(sympy.pi):
        return g, p.xreplace({b: a})
    return g, p
def compare_infinities(g: object, p: object) -> tuple[bool, str] | None:
    """An infinity (settled: `\\infty^2` is `oo`) equals only the same infinity; None when neither
    side is one."""
    if g in INFINITIES or p in INFINITIES:
        return (True, "the same infinity") if g == p else (False, "an infinity equals only the same infinity")
    return None


def shape(e: object) -> str | None:
    """How `e` nests containers, e.g. `set(seq(.,.))` for `\\{(1, 2)\\}`; "." for a value; None
    for what has no fixed nesting (relations, unions and other sets), which is not checked.
    A set's members are sorted, so the shape does not depend on their order."""
    if isinstance(e, MatrixBase) or isinstance(e, sympy.Tuple):
        kind, kids = "seq", list(e)
    elif isinstance(e, sympy.Interval):
        kind, kids = "seq", [e.start, e.end]
    elif isinstance(e, (sympy.FiniteSet, sympy.sets.sets.EmptySet)):
        kind, kids = "set", list(e.args)
    elif isinstance(e, sympy.Expr) and not isinstance(e, MatrixExpr):
        return "."
    else:
        return None  # relations, unions, matrix sums and products: no fixed nesting
    found = [shape(k) for k in kids]
    shapes = [s for s in found if s is not None]
    if len(shapes) < len(found):
        return None
    return f"{kind}({','.join(sorted(shapes) if kind == 'set' else shapes)})"


def same_nesting(g: object, p: object) -> bool:
    """Containers keep their nesting (docs/math.md "Math grading rules"): a set of sets never equals the set of
    their elements, nor a set holding one pair the pair (math-verify wraps a lone value in a set
    at every level, so it flattens them). Only the outer container's kind may differ, as
    math-verify's `(1, 2)` / `1, 2` / `\\{1, 2\\}` readings of a list do, and a lone value equals
    the set of it (`5` and `\\{5\\}`)."""
    sg, sp = shape(g), shape(p)
    if sg is None or sp is None or sg == sp:
        return True
    if "." in (sg, sp):
        return {sg, sp} == {".", "set(.)"}
    return set(_members(sg)) == set(_members(sp))


def _members(s: str) -> list[str]:
    """The shapes of a container shape's members: `seq(.,set(.))` -> [".", "set(.)"]."""
    inner, out, depth, start = s[s.index("(") + 1:-1], [], 0, 0
    for i, c in enumerate(inner):
        depth += c == "("
        depth -= c == ")"
        if c == "," and depth == 0:
            out.append(inner[start:i])
            start = i + 1
    return out + [inner[start:]] if inner else out


def compare_numbers(
    g: object, g_lit: Literal | None, p: object, p_lit: Literal | None, limits: MathLimits
) -> tuple[bool, str] | None:
    """Rule 4 of the module docstring; None when the two are not both numbers (or undecidable)."""
    if not (is_numeric(g) and is_numeric(p)):
        return None
    g_approx = (g_lit is not None and g_lit.is_decimal) or has_float(g)
    p_approx = (p_lit is not None and p_lit.is_decimal) or has_float(p)
    if not g_approx and not p_approx:
        return _exact_numbers(g, g_lit, p, p_lit, limits)
    if g_approx and g_lit is None or p_approx and p_lit is None:
        return None  # a decimal inside an expression: no stated precision to scale to
    if g_approx:
        assert g_lit is not None  # the guard above
        return _against_decimal_gold(g_lit, p, p_lit, limits)
    assert p_lit is not None  # p_approx here, and the guard above
    return _decimal_prediction(g, g_lit, p_lit, limits)


def _exact_numbers(g, g_lit, p, p_lit, limits) -> tuple[bool, str] | None:
    equal = numbers_equal(g, p, limits.exact_check_digits, limits.exact_match_digits)
    if equal is None:
        return None
    if equal:
        return True, "equal exactly"
    variant = _percent_variant(g_lit, p_lit)
    if variant is not None:
        g_num, p_num = variant
        if g_num == p_num:
            return True, "equal up to a percent sign"
    return False, "different numbers (exact comparison)"


def _percent_variant(g_lit: Literal | None, p_lit: Literal | None) -> tuple[Fraction, Fraction] | None:
    """Both literals without their percent signs, when one of them has one."""
    if g_lit is None or p_lit is None or not (g_lit.percent or p_lit.percent):
        return None
    return g_lit.value, p_lit.value


def _scaled(lit: Literal) -> Fraction:
    return lit.value / 100 if lit.percent else lit.value


def _half_unit(lit: Literal, percent_scaled: bool) -> Fraction:
    places = lit.decimals + (2 if percent_scaled and lit.percent else 0)
    return Fraction(1, 2 * 10**places)


def _against_decimal_gold(g_lit: Literal, p, p_lit: Literal | None, limits) -> tuple[bool, str] | None:
    """The gold states a decimal: equal within half a unit of its last decimal."""
    p_value: object = p
    if p_lit is not None:
        p_value = sympy.Rational(_scaled(p_lit).numerator, _scaled(p_lit).denominator)
    ok = within(p_value, _scaled(g_lit), _half_unit(g_lit, True))
    if ok is None:
        return None
    if not ok and p_lit is not None and (g_lit.percent or p_lit.percent):
        ok = abs(p_lit.value - g_lit.value) <= _half_unit(g_lit, False)
    places = g_lit.decimals
    return (True, f"within half a unit of the gold's {places} decimals") if ok else (
        False, f"differs from the gold's {places}-decimal value")


def _decimal_prediction(g, g_lit: Literal | None, p_lit: Literal, limits) -> tuple[bool, str] | None:
    """The prediction is a decimal, the gold exact: equal if the decimal is exact, or if it states
    at least `approx_sig_digits` and is the gold rounded to its decimals."""
    p_value = _scaled(p_lit)
    exact = exact_rational(g)
    if exact is not None and exact == p_value:
        return True, "decimal equals the exact gold"
    if g_lit is not None and (g_lit.percent or p_lit.percent) and g_lit.value == p_lit.value:
        return True, "equal up to a percent sign"
    if p_lit.sig_digits < limits.approx_sig_digits:
        return False, f"decimal with {p_lit.sig_digits} significant digits only approximates the exact gold"
    ok = within(g, p_value, _half_unit(p_lit, True))
    if ok is None:
        return None
    return (True, "decimal is the exact gold rounded") if ok else (False, "decimal differs from the exact gold")


def compare_containers(g: object, p: object, limits: MathLimits) -> tuple[bool, str] | None:
    """Rule 5: same kind of container, all elements numbers; None otherwise."""
    if isinstance(g, MatrixBase) and isinstance(p, MatrixBase):
        if g.shape != p.shape:
            return False, "matrices of different shapes"
        return _elementwise(list(g), list(p), limits, "matrix")
    vector = _vector_and_list(g, p)
    if vector is not None:
        return _vector_elementwise(*vector, limits)
    if type(g) is not type(p) or not isinstance(g, _CONTAINERS):
        return None
    if isinstance(g, sympy.Interval) and isinstance(p, sympy.Interval):  # p: the same type as g
        if (g.left_open, g.right_open) != (p.left_open, p.right_open):
            return False, "intervals differ in openness"
        return _elementwise([g.start, g.end], [p.start, p.end], limits, "interval")
    if isinstance(g, sympy.Tuple) and isinstance(p, sympy.Tuple):
        if len(g) != len(p):
            return False, "tuples of different lengths"
        return _elementwise(list(g), list(p), limits, "tuple")
    return _set_match(list(cast("sympy.FiniteSet", g).args), list(cast("sympy.FiniteSet", p).args), limits)


def _vector_and_list(g: object, p: object) -> tuple[list, list] | None:
    """The elements of a vector (an n x 1 or 1 x n matrix) and of a list answering it, in order,
    or None. `\\begin{pmatrix} 1/2 \\\\ 1 \\end{pmatrix}` and `[0.5, 1]` or `(0.5, 1)` are one vector
    (docs/math.md "Math grading rules"). A two-element list parses as an interval (closed or open at both ends;
    `[1, 2)` is no list); that reading is taken only for a vector gold: an interval gold is an
    interval, never a vector answer."""
    if isinstance(g, MatrixBase) and 1 in g.shape:
        vec, other = g, p
    elif isinstance(p, MatrixBase) and 1 in p.shape and isinstance(g, sympy.Tuple):
        vec, other = p, g
    else:
        return None
    if isinstance(other, sympy.Tuple):
        items = list(other)
    elif isinstance(other, sympy.Interval) and other.left_open == other.right_open and vec is g:
        items = [other.start, other.end]
    else:
        return None
    return (list(vec), items) if vec is g else (items, list(vec))


def _vector_elementwise(gs: list, ps: list, limits: MathLimits) -> tuple[bool, str]:
    """A vector against a list: same length, each pair equal as numbers (rule 4) or by math-verify."""
    if len(gs) != len(ps):
        return False, "vector and list of different lengths"
    for a, b in zip(gs, ps):
        same = _exact_element(a, b, limits)
        if not (_math_verify(a, b) if same is None else same):
            return False, "vector elements differ"
    return True, "vector equal to the list element-wise"


def _exact_element(a: object, b: object, limits: MathLimits) -> bool | None:
    """Two elements compared as lone numbers are (rule 3, decimals included); None: not numbers."""
    if not (is_numeric(a) and is_numeric(b)):
        return None
    if not (has_float(a) or has_float(b)):
        return numbers_equal(a, b, limits.exact_check_digits, limits.exact_match_digits)
    a_lit, b_lit = float_literal(a), float_literal(b)
    if has_float(a) and a_lit is None or has_float(b) and b_lit is None:
        return None
    verdict = compare_numbers(a, a_lit, b, b_lit, limits)
    return None if verdict is None else verdict[0]


def float_literal(e: object) -> Literal | None:
    """The decimal a parsed element states (`0.25`, `-1.5`), read back from its shortest float form.

    Elements of a tuple, interval or matrix have no written text of their own; the shortest repr of
    the parsed float is the decimal as written for up to 15 significant digits.
    """
    sign = 1
    if isinstance(e, sympy.Mul) and len(e.args) == 2 and e.args[0] == -1:
        sign, e = -1, e.args[1]
    if not isinstance(e, sympy.Float):
        return None
    written = repr(sign * float(e))
    return read_literal(written) if "e" not in written and "inf" not in written else None


def _elementwise(gs: list, ps: list, limits: MathLimits, kind: str) -> tuple[bool, str] | None:
    results = [_exact_element(a, b, limits) for a, b in zip(gs, ps)]
    if None in results:
        return None
    return (True, f"{kind} equal element-wise") if all(results) else (False, f"{kind} elements differ")


def _set_match(gs: list, ps: list, limits: MathLimits) -> tuple[bool, str] | None:
    if len(gs) != len(ps):
        return False, "sets of different sizes"
    unused = list(ps)
    for a in gs:
        for i, b in enumerate(unused):
            r = _exact_element(a, b, limits)
            if r is None:
                return None
            if r:
                del unused[i]
                break
        else:
            return False, "set elements differ"
    return True, "sets equal element-wise"


def _math_verify(g: object, p: object) -> bool:
    from math_verify import verify

    return bool(verify([g], [p], timeout_seconds=None, strict=True))
