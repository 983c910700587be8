"""Whether a subject's condition fixes the subject's own unknown (docs/math.md "Answer grammar", the subject's
conditions; issue 29, red team 11 class 2, red team 12 class 2, fx29r).

`The value of $x$ such that $x - 7 = 0$ is \\boxed{6}.` states two values of x, 7 and 6: the condition's and the box's.
A reading of shapes (`grammar._sets_own` read the name alone beside a value; fx29q's probe read each side as value, name
or varies) admits whatever shape it does not list: `x - 7 = 0`, `2x = 14`, `x^2 = 49` paid 6. So the rule is an
allowlist over what the relations mean, decided exactly: the condition's relations are read into sympy by a small
allowlisted arithmetic (`_Reader`: numbers, letters, `+ - * /`, `\\frac`, `\\sqrt`, powers of bounded size, `\\sin`
`\\cos` `\\tan` `\\ln` `\\exp`, a function value `f(x)`), and a condition is admitted only when it is known never to set
one of the subject's unknowns to another value than the box's (red team 14 class 3, fx29v: `such that $x > 7$ ...
\\boxed{6}` left x infinitely many values, none of them 6):

- a relation that holds none of the unknowns, nor shares a letter with one that does, says nothing of them;
- every relation on one unknown alone holds at the box's value (`_holds`): a value in a plain form the comparer reads
  as the same rational (`box_number`: one reading of it, red team 15 class 1), put in, and sympy evaluates
  the relation to a definite True (`x < 7`, `x \\ne 7`, `n^{2} > 30`, `x \\equiv 1 \\pmod{5}`, `3 \\mid x`, `x \\in
  \\mathbb{Z}`, and `x^2 = 36`, `x - 6 = 0`: a condition fixing the unknown at the box's value states that value, never
  a second one); false, undecided (`\\sin^2 x + \\cos^2 x = 1`), or a box value in no plain form (`1\\,000`, `2\\frac{1}{2}`,
  `6\\text{ cm}`, `5!`, a percent; none known) refuses;
- in several unknowns: one equation, linear in the unknown, whose solution varies with the other letters (`n = 2k + 1`,
  `f(n) = n`: the solution is another unknown's value, never a number however written, `7 + 0y`, `\\sin^2 y + \\cos^2
  y + 6`, `\\sqrt{y} + \\sqrt{-y}`).

A subject whose head names an integer (`The positive integer $n$ such that ...`, `HEAD_WORDS`) has an integer unknown
with its sign, which the box's value must meet too. The math is read as `unicode_math.to_ascii_math` folds it (the
grammar folds the subject first), and any character left outside ASCII (`≔`, `≡`, `∊`) is unread (red team 13 class 3).

Anything else refuses: an equation or bound the box's value does not meet, an approximation, a membership, a system
(`x + y = 7` and `x - y = 1`; `n = 2k + 1` and `k = 3`), a relation the reader does not read. The subject's own math
that is no single name (`the value of $x + y$`) is an unknown of its own, defined by its expression, so a condition
fixing the expression (`x = 7 - y`) fixes it.

Bounded before sympy computes (red team 14 class 9): a condition is inside a subject of at most `grammar.MAX_CHARS`
characters; powers are at most `MAX_DEGREE` on an unknown and `MAX_CONSTANT_POWER` on a number; every number built or
evaluated has at most `MAX_DIGITS` digits, estimated on the tree first (`_magnitude`); an equation handed to `Poly` has
at most `MAX_EXPANDED_TERMS` expanded terms (`_expanded_terms`). Nothing is solved for the unknown.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterable
from typing import NamedTuple

import sympy

MAX_DEGREE = 8
"""The largest power of a letter the reader admits (`n^{2} > 30`)."""
MAX_CONSTANT_POWER = 64
"""The largest integer power of a number the reader admits (`2^{10}`); a tower of them is bounded by `MAX_DIGITS`."""
_MAX_NUMBER_DIGITS = 40
MAX_DIGITS = 400
"""The most decimal digits (of the value, or of its reciprocal) of any number the reader builds or sympy evaluates,
estimated on the expression before sympy computes it (`_magnitude`: a power's digits are its exponent times its base's,
`\\exp`'s are its argument's value times log10 e). Why: sympy folds a number's power exactly and at once, and evaluates
a function of a number to the precision its size needs (red team 14 class 9: `((((2^{64})^{64})^{64})^{64})^{64}` is one
uninterruptible integer power of 10^9 digits, 37 s; `\\exp(\\exp(\\exp(\\exp(y))))` did not finish in 40 s). Measured on
this machine under load: the square root of a 400-digit integer 0.01 s (its perfect-power test), of a 1000-digit one 1 s;
`\\exp(10^{1000})` compared with 6, 0.8 s; `\\sin(10^{1000})`, 0.03 s. 400 digits is past any number a question states."""
MAX_EXPANDED_TERMS = 100
"""The most terms the numerator and denominator of an equation may have once its products of sums are expanded
(`_expanded_terms`, multiplied), before `_frees_linear` hands it to `sympy.together` and `sympy.Poly`. Why: `Poly`
expands the other letters' coefficients at a cost that grows about as the square of the terms (measured under load: 81
terms 0.16 s, 165 terms 0.5 s, 2025 terms 28 s; red team 14 class 9's `x (a+...+m)^{8} (n+...+w)^{8} = y`, 1.6e8 terms,
did not finish in 40 s)."""
_MAX_EXPONENT_DIGITS = 6
"""The most digits `_magnitude` lets the value of an exponent with a letter or of `\\exp`'s argument have before it
raises 10 to it (a bound on the float it computes; `MAX_DIGITS` refuses far earlier)."""

CONDITION_COMMANDS = frozenset(
    "frac dfrac tfrac sqrt cdot times div pm mp le leq ge geq lt gt ne neq approx equiv pmod bmod mod mid nmid in notin "
    "subset subseteq cup cap left right sin cos tan log ln exp pi infty ldots cdots dots quad qquad prime "
    "alpha beta gamma delta theta lambda mu sigma omega phi varphi epsilon mathbb".split())
"""The commands a condition's math may hold: arithmetic, relations, functions, constants, spacing. An allowlist: any
other (`\\triangleq`, `\\stackrel`, `\\ni`, `\\mapsto`, `\\leftarrow`, `\\text`, `\\mathit`, `\\phantom`) refuses the
condition unread. A command listed here that `_Reader` does not read (`\\pm`, `\\log`, `\\infty`, `\\cup`) refuses
the relation it stands in."""
RELATION_RE = re.compile(
    r"(?<![<>!\\])=|<|>|\\(?:leq?|geq?|lt|gt|neq?|approx|equiv|in|notin|mid|nmid|subseteq|subset)(?![A-Za-z])")
_DEFINE_RE = re.compile(r":=|=:|\\coloneqq|\\eqqcolon")
_MODULUS_RE = re.compile(r"\\[pb]?mod\s*(\{[^{}]*\}|\w+)")
_DOMAIN_RE = re.compile(r"\s*\\mathbb\s*(?:\{\s*([A-Z])\s*\}|([A-Z]))\s*(?:\^\s*(?:\{\s*(\+)\s*\}|(\+)))?\s*")
_INEQUALITIES = {"<": sympy.Lt, "\\lt": sympy.Lt, ">": sympy.Gt, "\\gt": sympy.Gt, "\\le": sympy.Le, "\\leq": sympy.Le,
                 "\\ge": sympy.Ge, "\\geq": sympy.Ge, "\\ne": sympy.Ne, "\\neq": sympy.Ne}
FUNCTION_LETTERS = frozenset("fghpqrFGHPQR")
"""Letters read as a function before a bracket (`f(x)`, `p(n)`, `g(7)`): the value is an unknown of its own, so `f(x) =
7` leaves x free. Any other letter before a bracket multiplies (`a(x - 7) = 0`, `x(x - 7) = 0` are equations in x), and
so does one of these that is the subject's own unknown."""


class Unread(Exception):
    """Math the condition reader does not read: not known to leave the unknown free, so the condition refuses."""


_TOKEN_RE = re.compile(r"\d+(?:\.\d+)?|\\[A-Za-z]+|\\[{}]|[A-Za-z]|\S")
_SPACING_RE = re.compile(r"\\(?:left|right|[,;!: ]|quad|qquad)(?![A-Za-z])|\\(?:left|right)")
_FUNCTIONS = {"\\sin": sympy.sin, "\\cos": sympy.cos, "\\tan": sympy.tan, "\\ln": sympy.log, "\\exp": sympy.exp}
_CLOSING = {"(": ")", "{": "}", "\\{": "\\}", "[": "]"}


def _any_run(run: str) -> bool:
    """Every run of two letters or more is a word (`read_side`'s default)."""
    return True


def symbol(name: str) -> sympy.Symbol:
    """The one symbol of a name (a letter, `x_1`, a function value `f(x)`): real, as the unknowns of a condition are."""
    return sympy.Symbol(name, real=True)


class _Reader:
    """A recursive-descent reader of an allowlisted arithmetic into sympy: numbers, letters with subscripts, `+ - * /`,
    `\\cdot`, `\\times`, `\\div`, `^` (an integer or a small fraction on a letter, at most `MAX_DEGREE`), `\\frac`,
    `\\sqrt`, `\\pi`, `e`, `\\sin` `\\cos` `\\tan` `\\ln` `\\exp`, brackets, a one-element set as its element, and a
    function value (`FUNCTION_LETTERS`); anything else raises `Unread`. `products`: letters that multiply before a
    bracket even when they are function letters (the subject's own unknowns)."""

    def __init__(self, text: str, products: frozenset[str]) -> None:
        self.tokens = _TOKEN_RE.findall(_SPACING_RE.sub(" ", text))
        self.k, self.products = 0, products

    def peek(self) -> str:
        return self.tokens[self.k] if self.k < len(self.tokens) else ""

    def take(self, want: str | None = None) -> str:
        t = self.peek()
        if not t or want is not None and t != want:
            raise Unread(t)
        self.k += 1
        return t

    def whole(self) -> sympy.Expr:
        value = self.expr()
        if self.k != len(self.tokens):
            raise Unread(self.peek())
        return value

    def expr(self) -> sympy.Expr:
        value = self.term()
        while self.peek() in ("+", "-"):
            value = value + self.term() if self.take() == "+" else value - self.term()
        return value

    def term(self) -> sympy.Expr:
        value = self.signed()
        while True:
            t = self.peek()
            if t in ("*", "\\cdot", "\\times"):
                self.take()
                value *= self.signed()
            elif t in ("/", "\\div"):
                self.take()
                value /= self.signed()
            elif t and (t[0].isalnum() or t in ("(", "{", "\\{", "\\frac", "\\dfrac", "\\tfrac", "\\sqrt", "\\pi")
                        or t in _FUNCTIONS):
                value *= self.power()  # `2p`, `nd`, `7y`
            else:
                return value

    def signed(self) -> sympy.Expr:
        if self.peek() in ("+", "-"):
            return -self.signed() if self.take() == "-" else self.signed()
        return self.power()

    def power(self) -> sympy.Expr:
        base = self.atom()
        if self.peek() == "^":
            self.take()
            base = _bounded_power(base, self.group())
        return base

    def group(self) -> sympy.Expr:
        if self.peek() == "{":
            self.take()
            value = self.expr()
            self.take("}")
            return value
        return self.atom()

    def atom(self) -> sympy.Expr:
        t = self.take()
        if t[0].isdigit():
            if len(t) > _MAX_NUMBER_DIGITS:
                raise Unread("a number too long")
            return sympy.Rational(t)
        if t == "e":
            return sympy.E
        if len(t) == 1 and t.isalpha() and t != "i":
            return self.name(t)
        closing = _CLOSING.get(t)
        if closing is not None:
            value = self.expr()
            self.take(closing)
            return value
        if t in ("\\frac", "\\dfrac", "\\tfrac"):
            return self.group() / self.group()
        if t == "\\sqrt" and self.peek() != "[":
            return _bounded_power(self.group(), sympy.Rational(1, 2))
        if t == "\\pi":
            return sympy.pi
        if t in _FUNCTIONS:
            exponent = self.group() if self.peek() == "^" and self.take() else sympy.Integer(1)  # `\sin^{2} y`
            argument = self.power()
            _magnitude(_FUNCTIONS[t](argument, evaluate=False))  # bounded before sympy evaluates it
            return _bounded_power(_FUNCTIONS[t](argument), exponent)
        raise Unread(t)

    def name(self, letter: str) -> sympy.Expr:
        """A letter, its subscript part of its name (`x_1`, `x_{12}`), or a function value (`f(x)`, `f(7)`): an unknown
        of its own, named by its arguments as read."""
        name = letter
        if self.peek() == "_":
            self.take()
            name += "_" + (self.take() if self.peek() != "{" else self._braced())
        if self.peek() == "(" and letter in FUNCTION_LETTERS and name not in self.products:
            self.take()
            args = [self.expr()]
            while self.peek() == ",":
                self.take()
                args.append(self.expr())
            self.take(")")
            return symbol(f"{name}({', '.join(map(str, args))})")
        return symbol(name)

    def _braced(self) -> str:
        self.take("{")
        parts = []
        while self.peek() not in ("}", ""):
            parts.append(self.take())
        self.take("}")
        if not parts:
            raise Unread("an empty subscript")  # `x_{} = 7`: x as written, never a name of its own (red team 13 class 4)
        return "".join(parts)


def _bounded_power(base: sympy.Expr, exponent: sympy.Expr) -> sympy.Expr:
    """`base ** exponent` where sympy folds it in bounded time: an exponent that is a number (a rational of small parts
    on a letter, an integer of at most `MAX_CONSTANT_POWER` on a number) or a letter on a number (`1^{y}`)."""
    if exponent.free_symbols:
        if base.free_symbols:
            raise Unread("a letter to a letter's power")
        return sympy.Pow(base, exponent)
    if not exponent.is_Rational:
        raise Unread("an irrational exponent")
    p, q = exponent.p, exponent.q
    bound = MAX_DEGREE if base.free_symbols else MAX_CONSTANT_POWER
    if abs(p) > bound or q > MAX_DEGREE:
        raise Unread("a power too large to fold")
    _magnitude(sympy.Pow(base, exponent, evaluate=False))  # a tower's digits, estimated before sympy folds it
    return sympy.Pow(base, exponent)


def read_side(text: str, products: frozenset[str] = frozenset(), is_word: Callable[[str], bool] = _any_run) -> sympy.Expr:
    """One side of a relation, read by `_Reader`; `Unread` for anything else (a word, `\\infty`, a set). `is_word`:
    whether a run of letters is a word (`cm`, `seven`), never a product of names (`nd`, `2pq`)."""
    if any(is_word(run) for run in re.findall(r"(?<![A-Za-z\\])[A-Za-z]{2,}", re.sub(r"\\[A-Za-z]+", " ", text))):
        raise Unread("a word")
    try:
        value = _Reader(text, products).whole()
        _magnitude(value)
        return value
    except (ArithmeticError, ValueError, TypeError, RecursionError) as e:
        raise Unread(type(e).__name__) from e


class Relation:
    """One relation of a condition: `left op right`, and for `\\equiv` its modulus."""

    def __init__(self, op: str, left: sympy.Expr, right: sympy.Expr, modulus: sympy.Expr | None = None) -> None:
        self.op, self.left, self.right, self.modulus = op, left, right, modulus
        self.symbols: frozenset[sympy.Symbol] = frozenset(left.free_symbols | right.free_symbols)


Facts = tuple[tuple[str, int], ...]
"""What is known of an unknown besides its condition, as relations on it: (`domain`, 0) an integer, (`prime`, 0) a prime,
(`real`, 0) a real, (op, bound) an inequality (`>`, `<`, `\\ge`, `\\le` against the bound)."""


class HeadWord(NamedTuple):
    facts: Facts
    optimum: str | None
    reason: str


def _head(facts: Facts, reason: str, optimum: str | None = None) -> HeadWord:
    return HeadWord(facts, optimum, reason)


_OPTIMUM = "an optimum of the values the condition leaves, which `_is_optimum` decides the box's value to be"
HEAD_WORDS: dict[str, HeadWord] = {
    "value": _head((), "the quantity itself: `the value of $x$` is x"),
    "number": _head((), "a real number: nothing beyond the unknown's own value (`The number $n$`)"),
    "real": _head((("real", 0),), "a real number: every plain box value is one"),
    "root": _head((), "one value of the unknown that meets its condition (`The root $x$ such that $x^2 = 36$`)"),
    "solution": _head((), "as `root`"),
    "possible": _head((), "selects nothing: `the least possible value` is the least value"),
    "only": _head((), "a claim that one value meets the condition; the box's value must meet it"),
    "integer": _head((("domain", 0),), "an integer"),
    "natural": _head((("domain", 0), ("\\ge", 0)), "a natural number, read as a nonnegative integer (the wider "
                                                   "of its two conventions)"),
    "whole": _head((("domain", 0), ("\\ge", 0)), "a whole number: a nonnegative integer"),
    "prime": _head((("prime", 0),), "a prime, checked by `sympy.isprime` (red team 15 class 3)"),
    "digit": _head((("domain", 0), ("\\ge", 0), ("\\le", 9)), "a digit: an integer from 0 to 9"),
    "probability": _head((("\\ge", 0), ("\\le", 1)), "a probability: from 0 to 1"),
    "positive": _head(((">", 0),), "greater than 0, on any head (`the positive root`, `the positive integer`)"),
    "negative": _head((("<", 0),), "less than 0, on any head"),
    "nonnegative": _head((("\\ge", 0),), "at least 0, on any head"),
    **{w: _head((), _OPTIMUM, "min") for w in "smallest least minimum minimal lowest fewest first".split()},
    **{w: _head((), _OPTIMUM, "max") for w in "largest greatest maximum maximal highest biggest most last".split()},
}
"""The one home of the words a subject's head may hold before a condition on its own unknown (`The smallest positive
integer $n$ such that ...`, `The positive root $x$ ...`, `The value of the positive integer $n$ ...`; red team 16
classes 3, 4 and 6), each with the facts it states of the unknown, which the box's value must meet as it meets the
condition's relations (`_fixes`, `_holds`), and for the optimum words the optimum `_is_optimum` decides. Read by
`grammar._identity_head`: a head in these words, with `value of` and a determiner, ending in the unknown's name, names
the unknown's own value. Any other word (an aggregate: `sum`, `number of`, `product`, `average`, `mean`, `median`,
`total`, `values`; a kind with no listed fact: `odd`, `even`, `rational`, `two-digit`; an ordinal that selects another
member: `second`, `third`, `next`) makes the head no identity, and then a condition on the own unknown refuses: the box
is no value of the unknown, or one whose fact nobody checks."""

OPTIMUM_WORDS = {word: head.optimum for word, head in HEAD_WORDS.items() if head.optimum is not None}
"""Words that make a subject the optimum of the values its condition leaves (`The smallest integer $n$ such that $n >
1$` is 2, not 6; red team 15 class 3: `... is \\boxed{6}` paid, as 6 meets the condition). Under one, a condition on
the subject's own unknown is admitted only when the box's value is decided to be that optimum (`_is_optimum`): the
relations are on the unknown alone, equations and inequalities only (`MAX_OPTIMUM_DEGREE`, `MAX_OPTIMUM_DIGITS`), and no value (no integer, for an integer head)
the condition leaves lies past the box's on the optimum's side, decided by `sympy.solveset` over the reals (the powers
bounded by `MAX_DEGREE`). Anything else refuses: a second letter (`n = 2k + 1`), a congruence, a prime head, a set
with no optimum (`The smallest integer $n$ such that $n^{2} > 30$`: every n <= -6 meets it too)."""


def head_facts(words: Iterable[str]) -> Facts | None:
    """The facts the head words `words` state together (`HEAD_WORDS`), or None when one is not listed."""
    facts: list[tuple[str, int]] = []
    for word in words:
        head = HEAD_WORDS.get(word.lower())
        if head is None:
            return None
        facts += [f for f in head.facts if f not in facts]
    return tuple(facts)


NUMBER_SETS: dict[tuple[str, str], Facts] = {
    ("Z", ""): (("domain", 0),),  # the integers
    ("Z", "+"): (("domain", 0), (">", 0)),  # the positive integers
    ("N", ""): (("domain", 0), ("\\ge", 0)),  # the naturals, read as the nonnegative integers (the wider convention)
    ("N", "+"): (("domain", 0), (">", 0)),  # the positive naturals
    ("Q", ""): (("real", 0),),  # the rationals: every plain box value is one
    ("Q", "+"): (("real", 0), (">", 0)),  # the positive rationals
    ("R", ""): (("real", 0),),  # the reals
    ("R", "+"): (("real", 0), (">", 0)),  # the positive reals
}
"""The one home of the number sets a condition's `\\in` may name (`x \\in \\mathbb{Z}^{+}`), each with its facts, added as
relations on the unknown that `_holds` and `_is_optimum` read (red team 16 class 5: the `^{+}` and N's sign were read
as nothing, so `x \\in \\mathbb{Z}^{+}` with box -6 paid). Any other set or decoration (`\\mathbb{Z}^{-}`,
`\\mathbb{Z}_{\\ge 0}`, `\\mathbb{C}`, `\\mathbb{N}_0`) is unread, and the condition refuses."""


def condition_fixes(maths: Iterable[str], own: Iterable[str], any_name: bool,
                    is_word: Callable[[str], bool] = _any_run, facts: Facts | None = (),
                    value: str | None = None, optimum: str | None = None) -> bool:
    """Whether a subject's condition (the math of its relative clause or `such that` condition) may set one of the
    subject's own unknowns (`own`: the subject's math before its condition, `$x$`, `$f(x)$`, `$x + y$`, and its
    bare letters; every letter when `any_name`: a subject with no name of its own, `The answer such that $x = 7$`) to
    another value than the box's. `value`: the box's value as written (`\\boxed{6}`'s `6`; None when the caller has
    none: then any relation on the unknown alone refuses). `is_word`: the grammar's test of a run of letters
    (`read_side`). `facts`: what the subject's head says of its own unknowns (`head_facts`: `The positive integer $n$
    such that ...`), or None when the head names no value of them (an aggregate, `The sum of the values of $x$`, or a word
    `HEAD_WORDS` does not list): then any relation on an own unknown refuses. `optimum`: `min` or `max` when the subject's words before its
    condition hold an `OPTIMUM_WORDS` word (any other string: words of both kinds, refused), so the box's value must be
    the optimum of what the condition leaves (`_is_optimum`). The module docstring says what is
    admitted; anything the reader does not read refuses."""
    own = [_OVERLINE_RE.sub(r"\1", name) for name in own]  # `$\overline{AB}$` is the length AB (red team 13 class 2)
    if not own and not any_name:
        return False
    if _defines_family(maths, own):
        return True
    products = frozenset(re.sub(r"[{}\s]", "", name) for name in own
                         if re.fullmatch(r"[A-Za-z](?:_\{?\w+\}?)?", name.strip()))
    try:
        relations = _relations(maths, products, is_word)
        if relations is None:
            return True
        targets: set[sympy.Symbol] = set()
        for k, name in enumerate(own):
            targets |= _own_unknowns(name, k, products, relations, is_word)
        own_targets = set(targets)
        if facts is None and any(_on_alone(t, relations) for t in own_targets):
            # no identity head (`The sum of the values of $x$ such that $x^{2} = 36$`): the box is no value of the unknown,
            # so a relation on it alone is checked at no value (red team 16 class 3); one joining it to other letters
            # keeps fx29r's rule, which never reads the box
            return True
        facts = facts or ()
        if any_name:
            targets |= {s for r in relations for s in r.symbols}
        box = functools.cache(lambda: None if value is None else box_number(value))  # read only when a relation needs it
        if any(_fixes(t, relations, box, facts if t in own_targets else ()) for t in targets):
            return True
        # under an optimum word, the box's value (which meets the condition) must be decided its optimum
        return optimum is not None and any(_component(t, relations)[0] and not _is_optimum(t, relations, box(), facts, optimum)
                                           for t in own_targets)
    except Exception:  # noqa: BLE001 - any failure (`Unread`, sympy's `PolynomialError`, ...) is a condition unread
        return True  # refused, never the grader's error (red team 15 class 5)


def _on_alone(target: sympy.Symbol, relations: list[Relation]) -> bool:
    """Whether some relation is on `target` alone (joined to no other letter)."""
    chosen, letters = _component(target, relations)
    return bool(chosen) and letters == {target}


_FAMILY_RE = re.compile(r"\s*([A-Za-z])\s*(?:\(|_)")
"""A function value or an indexed term (`f(6)`, `f(x)`, `a_5`, `a_{n}`): one member of a family named by its letter."""


def _defines_family(maths: Iterable[str], own: Iterable[str]) -> bool:
    """Whether the condition mentions the family of a subject's own function value or indexed term (`The value of
    $f(6)$ such that $f(x) = x + 1$`, `$a_5$ such that $a_n = 7$`): a definition of the family fixes the member, which
    the reader, naming `f(6)` and `f(x)` as two unrelated unknowns, would not see (red team 15 class 2). The simple
    rule: any mention of the family's letter refuses (`f(6)` with `x = 7` still reads)."""
    letters = {m.group(1) for name in own if (m := _FAMILY_RE.match(name))}
    return any(re.search(rf"(?<![A-Za-z\\]){letter}(?![A-Za-z])", text) for letter in letters for text in maths)


_OVERLINE_RE = re.compile(r"\\(?:overline|overrightarrow|overleftrightarrow)\s*\{([A-Za-z]{1,3})\}")


def reads(math: str, is_word: Callable[[str], bool] = _any_run) -> bool:
    """Whether `math` is a condition this reader reads whole: ASCII only (after `unicode_math.to_ascii_math`: a relation
    it leaves, `≔`, `≡`, `∊`, is unread), `CONDITION_COMMANDS` only, at least one relation, and every side read
    (`grammar`'s subject values, red team 13 class 3: a condition's math is admitted only as this reader reads it)."""
    try:
        relations = _relations([math], frozenset(), is_word)
    except Exception:  # noqa: BLE001 - any failure is math unread (red team 15 class 5)
        return False
    return bool(relations)


def _relations(maths: Iterable[str], products: frozenset[str], is_word: Callable[[str], bool]) -> list[Relation] | None:
    """Every relation of the condition's math, in order, chains split into neighbouring pairs; None when a command
    is not `CONDITION_COMMANDS` or a side does not read."""
    relations: list[Relation] = []
    for text in maths:
        if not text.isascii():
            return None  # a relation or mark the folder leaves (`≔`, `≡`, `∊`, `≐`): unread (red team 13 class 3)
        text = _DEFINE_RE.sub("=", text)
        commands = set(re.findall(r"\\([A-Za-z]+)", text))
        if commands - CONDITION_COMMANDS:
            return None
        moduli = _MODULUS_RE.findall(text)
        text = _MODULUS_RE.sub(" ", text)
        ops = RELATION_RE.findall(text)
        if not ops:
            continue
        if len(moduli) > 1 or moduli and ops.count("\\equiv") != 1:
            return None
        modulus = read_side(moduli[0].strip("{}")) if moduli else None
        sides = RELATION_RE.split(text)
        for k, op in enumerate(ops):
            named = _DOMAIN_RE.fullmatch(sides[k + 1]) if op in ("\\in", "\\notin") else None
            if named is not None:
                letter, plain, braced, bare = named.groups()
                facts = NUMBER_SETS.get((letter or plain, braced or bare or ""))
                left = read_side(sides[k], products, is_word)
                if facts is None or not isinstance(left, sympy.Symbol) or op == "\\notin":
                    return None  # a set or decoration `NUMBER_SETS` does not list (`\\mathbb{Z}^{-}`): unread
                relations += [Relation(fact, left, sympy.Integer(bound)) for fact, bound in facts]
                continue
            relations.append(Relation(op, read_side(sides[k], products, is_word), read_side(sides[k + 1], products, is_word),
                                      modulus if op == "\\equiv" else None))
        if any(r.op == "\\equiv" and r.modulus is None for r in relations):
            return None
    return relations


def _own_unknowns(name: str, k: int, products: frozenset[str], relations: list[Relation],
                  is_word: Callable[[str], bool]) -> set[sympy.Symbol]:
    """The unknowns one piece of the subject's own math names: itself when it is one name (`x`, `x_1`, `f(x)`), else
    a symbol of its own defined by its expression (`x + y`: an equation joins it to the condition's relations), else,
    when it does not read, every letter in it."""
    try:
        expr = read_side(name, products, is_word)
    except Unread:
        letters = set(re.findall(r"[A-Za-z]", re.sub(r"\\[A-Za-z]+", " ", name)))
        return {symbol(letter) for letter in letters}
    if isinstance(expr, sympy.Symbol):
        return {expr}
    if not expr.free_symbols:
        return set()
    defined = symbol(f"own {k}")
    relations.append(Relation("=", defined, expr))
    return {defined}


def _component(target: sympy.Symbol, relations: list[Relation]) -> tuple[list[Relation], set[sympy.Symbol]]:
    """The relations joined to `target` through shared letters, and their letters."""
    reached, chosen = {target}, []
    changed = True
    while changed:
        changed = False
        for r in relations:
            if r not in chosen and r.symbols & reached:
                chosen.append(r)
                reached |= r.symbols
                changed = True
    return chosen, reached


def _fixes(target: sympy.Symbol, relations: list[Relation], box: Callable[[], sympy.Expr | None],
           facts: tuple[tuple[str, int], ...] = ()) -> bool:
    """Whether the relations joined to `target` may set it to another value than the box's (the module docstring's
    rules, an allowlist). `box`: the box's value (`box_number`; None: no plain value, or none). `facts`: what the subject's head says
    of the target (`HEAD_WORDS`: `domain`, a sign bound), met by the box's value with the relations on the target
    alone (`n = 2k + 1` leaves an integer n as free as a real one)."""
    chosen, letters = _component(target, relations)
    if not chosen:
        return False
    if letters != {target}:
        return len(chosen) != 1 or not _frees_linear(chosen[0], target)
    value = box()
    if value is None:
        return True
    chosen = chosen + [Relation(op, target, sympy.Integer(bound)) for op, bound in facts]
    return not all(_holds(r, target, value) for r in chosen)


_PLAIN_VALUE_RE = re.compile(r"\s*(-?)\s*(?:(\d{1,40}(?:\.\d{1,40})?)|\\[dt]?frac\s*\{\s*(\d{1,40})\s*\}\s*\{\s*(\d{1,40})\s*\}"
                             r"|(\d{1,40})\s*/\s*(\d{1,40}))\s*")


def box_number(value: str) -> sympy.Expr | None:
    """The box's value when it is written in a plain form whose reading is known to be the comparer's, exactly; else
    None (a condition on the own unknown then refuses). One reading of the value (red team 15 class 1: `_Reader` read
    `1\\,000` as 1·000 = 0 and `2\\frac{1}{2}` as 2·½ = 1 while the comparer pays 1000 and 5/2): an allowlist of forms,
    an integer, a decimal, a fraction of integers (`\\frac{7}{2}`, `7/2`), with an optional minus sign, which
    `parsing.parse_prediction` reads as the same rational. Anything else, a spacing, a mixed number, a thousands comma, a
    unit, a percent, a root, a factorial attached after the box (`\\boxed{5}!`, read with it: `extract._stated_parts`),
    refuses: a recall cost, listed in docs/math.md. Extraction stays cheap: no parse runs here."""
    m = _PLAIN_VALUE_RE.fullmatch(value)
    if m is None:
        return None
    sign, number, numerator, denominator, top, bottom = m.groups()
    if number is not None:
        magnitude = sympy.Rational(number)
    else:
        over = int(denominator or bottom)
        if over == 0:
            return None
        magnitude = sympy.Rational(int(numerator or top), over)
    return -magnitude if sign else magnitude


MAX_OPTIMUM_DEGREE = 2
"""The highest degree in the unknown of a relation `_is_optimum` hands to `sympy.solveset` (`n^{2} > 30`). Why: the real
roots of a degree-8 inequality with a 40-digit constant took 4 s a profile (measured under load, fx29w); a quadratic's
are closed forms, under 0.1 s. A higher degree under an optimum word refuses."""
MAX_OPTIMUM_DIGITS = 20
"""The most digits (`_magnitude`) of the numbers of a relation `_is_optimum` solves: a question's bounds, with room."""


def _is_optimum(target: sympy.Symbol, relations: list[Relation], value: sympy.Expr | None,
                facts: tuple[tuple[str, int], ...], direction: str) -> bool:
    """Whether `value` is decided to be the least (`min`) or greatest (`max`) value of `target` the relations joined to
    it leave (`OPTIMUM_WORDS`): every relation on `target` alone, an equation or an inequality (or an integer or real
    domain), and none of the values the condition and the head's facts leave lies past `value` (no integer past it
    when the head or a domain says integer), by `sympy.solveset` over the reals. Whether `value` itself meets them is
    `_fixes`'s question."""
    chosen, letters = _component(target, relations)
    if direction not in ("min", "max") or letters != {target} or value is None or ("prime", 0) in facts:
        return False
    integer = ("domain", 0) in facts
    region: sympy.Set = sympy.S.Reals
    for r in chosen + [Relation(op, target, sympy.Integer(bound)) for op, bound in facts if op in _INEQUALITIES]:
        if r.op in ("domain", "real"):
            integer = integer or r.op == "domain"
            continue
        if r.op != "=" and r.op not in _INEQUALITIES:
            return False
        difference = r.left - r.right
        if (not difference.is_polynomial(target) or sympy.degree(difference, target) > MAX_OPTIMUM_DEGREE
                or _magnitude(difference) > MAX_OPTIMUM_DIGITS):
            return False  # `solveset`'s real roots of a high degree or huge coefficients cost seconds
        relation = sympy.Eq(r.left, r.right) if r.op == "=" else _INEQUALITIES[r.op](r.left, r.right)
        region = sympy.Intersection(region, sympy.solveset(relation, target, sympy.S.Reals))
    past = sympy.Interval.Ropen(-sympy.oo, value) if direction == "min" else sympy.Interval.Lopen(value, sympy.oo)
    rest = sympy.Intersection(region, past)
    return _holds_no_integer(rest) if integer else rest is sympy.S.EmptySet


def _holds_no_integer(region: sympy.Set) -> bool:
    """Whether a union of intervals and finite sets of reals is known to hold no integer; any other set is not known."""
    for part in region.args if isinstance(region, sympy.Union) else (region,):
        if part is sympy.S.EmptySet:
            continue
        if isinstance(part, sympy.FiniteSet):
            if any(e.is_integer is not False for e in part):
                return False
        elif isinstance(part, sympy.Interval):
            if not (part.start.is_finite and part.end.is_finite):
                return False
            first = sympy.ceiling(part.start) + (1 if part.left_open and part.start.is_integer else 0)
            last = sympy.floor(part.end) - (1 if part.right_open and part.end.is_integer else 0)
            if (first > last) is not sympy.true:
                return False
        else:
            return False
    return True


def _holds(r: Relation, target: sympy.Symbol, box: sympy.Expr) -> bool:
    """Whether relation `r`, on `target` alone, is known to hold when `target` is the box's value: decided exactly by
    sympy to a definite True after the value is put in (its size bounded first, `_magnitude`); false, undecidable (`\\sin^2
    x + \\cos^2 x = 1` stays unevaluated) and any relation but `=`, the inequalities, `\\equiv`, `\\mid`, `\\nmid` and an
    integer or real domain refuse."""
    if box.free_symbols or not box.is_real:
        return False
    for side in (r.left, r.right, *(() if r.modulus is None else (r.modulus,))):
        _magnitude(side, {target: _magnitude(box)})
    left, right = r.left.subs(target, box), r.right.subs(target, box)
    if r.op == "domain":
        return left.is_integer is True
    if r.op == "prime":
        return left.is_Integer is True and bool(sympy.isprime(left))
    if r.op == "real":
        return left.is_real is True
    if r.op == "=":
        return sympy.Eq(left, right) is sympy.true
    if r.op in _INEQUALITIES:
        return _INEQUALITIES[r.op](left, right) is sympy.true
    if r.op == "\\equiv":
        m = r.modulus
        return (m is not None and m.is_Integer and m > 0 and left.is_Integer and right.is_Integer
                and (left - right) % m == 0)
    if r.op in ("\\mid", "\\nmid"):
        if not (left.is_Integer and right.is_Integer and left != 0):
            return False
        return (right % left == 0) == (r.op == "\\mid")
    return False


def _magnitude(expr: sympy.Expr, letters: dict[sympy.Symbol, float] | None = None) -> float:
    """An upper bound on the decimal digits of `expr`'s value and of its reciprocal (so of the precision sympy needs to
    evaluate it), from its tree, before sympy computes anything; `Unread` past `MAX_DIGITS`. `letters`: a bound for each
    letter's value (the box's, a probe's); a letter with none counts as 0 (a side read before any value is put in, whose
    numbers alone are then bounded). A number's digits are its numerator's and denominator's; a product's, its factors'
    summed; a sum's, its largest term's and one; a power's, its exponent times its base's, and with a letter in the
    exponent (`2^{y}`, `\\exp(y)`) ten to the exponent's digits times the base's; `\\sin` and `\\cos` are at most 1,
    `\\tan` is read as its argument (near a pole it is large) and `\\ln` of a bounded number is below 10^4. Anything
    else (`zoo` from a division by zero, `i`) is unread."""
    letters = letters or {}
    if isinstance(expr, sympy.Rational):
        digits = (abs(expr.p).bit_length() + expr.q.bit_length()) * 0.30103
    elif isinstance(expr, sympy.Symbol):
        digits = letters.get(expr, 0.0)
    elif isinstance(expr, sympy.NumberSymbol):
        digits = 1.0
    elif isinstance(expr, sympy.Add):
        digits = max(_magnitude(arg, letters) for arg in expr.args) + 1
    elif isinstance(expr, sympy.Mul):
        digits = sum(_magnitude(arg, letters) for arg in expr.args)
    elif isinstance(expr, (sympy.Pow, sympy.exp)):
        base, exponent = (expr.base, expr.exp) if isinstance(expr, sympy.Pow) else (sympy.E, expr.args[0])
        scale = _magnitude(base, letters)
        if isinstance(exponent, sympy.Rational):
            digits = abs(exponent) * scale
        else:
            size = _magnitude(exponent, letters)
            if size > _MAX_EXPONENT_DIGITS:
                raise Unread("an exponent too large")
            digits = 10 ** size * max(scale, 0.5)
    elif isinstance(expr, (sympy.sin, sympy.cos)):
        _magnitude(expr.args[0], letters)
        digits = 1.0
    elif isinstance(expr, sympy.tan):
        digits = _magnitude(expr.args[0], letters) + 1
    elif isinstance(expr, sympy.log):
        _magnitude(expr.args[0], letters)
        digits = 4.0
    else:
        raise Unread(f"an expression of unknown size: {type(expr).__name__}")
    if digits > MAX_DIGITS:
        raise Unread("a number too large to evaluate")
    return float(digits)


def _expanded_terms(expr: sympy.Expr) -> tuple[int, int]:
    """Upper bounds on the terms of `expr`'s numerator and denominator once `sympy.together` joins its fractions and
    `sympy.Poly` expands its products of sums: a sum's terms over a common denominator, a product's multiplied, a sum
    to the n-th power `C(t + n - 1, n)` (the monomials of degree n in t terms); `Unread` past `MAX_EXPANDED_TERMS`. A
    function's value, a root and a letter's power of a letter are one term (`Poly` keeps them whole)."""
    if isinstance(expr, sympy.Add):
        parts = [_expanded_terms(arg) for arg in expr.args]
        denominator = math.prod(d for _, d in parts)
        numerator = sum(n * denominator // d for n, d in parts)
    elif isinstance(expr, sympy.Mul):
        parts = [_expanded_terms(arg) for arg in expr.args]
        numerator, denominator = math.prod(n for n, _ in parts), math.prod(d for _, d in parts)
    elif isinstance(expr, sympy.Pow) and isinstance(expr.exp, sympy.Integer):
        n, d = _expanded_terms(expr.base)
        power = abs(int(expr.exp))
        if power > MAX_EXPANDED_TERMS and (n > 1 or d > 1):
            raise Unread("a product too large to expand")
        numerator, denominator = math.comb(n + power - 1, power), math.comb(d + power - 1, power)
        if expr.exp < 0:
            numerator, denominator = denominator, numerator
    else:
        return 1, 1
    if numerator * denominator > MAX_EXPANDED_TERMS:
        raise Unread("a product too large to expand")
    return numerator, denominator


def _frees_linear(r: Relation, target: sympy.Symbol) -> bool:
    """One equation in the unknown and other letters that leaves it free: linear in it (`n = 2k + 1`, `f(n) = n`), its
    solution real and different at three points of the other letters (never a number however written: `7 + 0y`,
    `\\sin^{2} y + \\cos^{2} y + 6`, `\\frac{7a}{a}`; never only one real point: `\\sqrt{y} + \\sqrt{-y}`)."""
    if r.op != "=":
        return False
    _expanded_terms(r.left - r.right)  # before `together` and `Poly` expand it
    numerator, denominator = sympy.fraction(sympy.together(r.left - r.right))
    if target in denominator.free_symbols or not numerator.is_polynomial(target):
        return False  # `x + \\sin(x) = y`: no polynomial in x, which `Poly` refuses with an error (red team 15 class 5)
    poly = sympy.Poly(numerator, target)
    if poly.degree() != 1:
        return False
    slope, offset = poly.all_coeffs()
    solution = -offset / slope
    others = sorted(solution.free_symbols | slope.free_symbols, key=str)
    if not solution.free_symbols:
        return False
    bounds = {s: 1.0 for s in others}  # a probe's value is below 10 (`_probe_value`)
    _magnitude(solution, bounds), _magnitude(slope, bounds)  # before `evalf` evaluates them (`\\exp(\\exp(\\exp(y)))`)
    values = []
    for probe in range(3):
        point = {s: _probe_value(str(s), probe) for s in others}
        value, scale = solution.subs(point).evalf(30), slope.subs(point).evalf(30)
        if not (value.is_real and value.is_finite and scale.is_real and scale.is_finite) or abs(scale) < 1e-20:
            return False
        values.append(value)
    return any(abs(v - values[0]) > 1e-20 for v in values[1:])


def _probe_value(name: str, probe: int) -> sympy.Expr:
    """The value a letter takes at a probe: distinct, positive, fixed (a verdict is repeatable)."""
    seed = sum((k + 1) * ord(c) for k, c in enumerate(name))
    return sympy.Rational(1, 2) + sympy.sqrt(2 + seed % 97 + 13 * probe) / 7 + probe
