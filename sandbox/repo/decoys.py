"""Decoys (docs/repo-tasks.md "Trust model"): a copy of a real FAIL_TO_PASS test, written next to it
by the host after the dataset's test patch, that fails under every right patch. The code under test
runs in the test runner's process and can report any test passing (hook pytest, print test2json's
events); a decoy reported with any status but FAILED marks the run tampered (`grading.resolve`).

A twin first where one can be made (`pytest_pair`): the test replaced by two renamed copies in a random
order, one with one constant of one equality changed, so only the value a right answer gives tells
them apart; never where the environment's own copy of the file (mounted where the code reads it)
shows that line. Elsewhere the copies below are told from their originals by their text:
detection, not prevention: code that reads the test files can tell such a decoy from its original. It
catches every blanket forgery (all tests passed, a report rewritten from the test files' names,
a runner replaced, a value that agrees with every comparison) and makes a targeted one read the tests.

- pytest: the whole test function, its last statement made to fail: an assertion inverted (`assert X`
  -> `assert not (X)`, `self.assertEqual` -> `self.assertNotEqual`, ...), a comparison with a literal
  probed with a fresh `object()` first (`assert (v == object()) or not (v == 3)`: a value equal to
  everything passes it), an assertion helper's call probed the same way where the environment's helper is
  known to fail it (`eq(v, 3)` -> `eq(v, object())`: a no-op helper passes it; `_helper_probe`), or any
  other statement kept and followed by `raise AssertionError`.
- go: the test function copied whole (its extent by Go's lexical rules), then failed at its end with
  its own `*testing.T`.

The original passes under a right patch, so the copy runs to its end and fails there. That holds only
where the copy is KNOWN to replay its original (`_admitted`: an allowlist of shapes, parsed with `ast`);
a test no decoy can be made for safely gets none (the run is graded on its listed tests alone).
"""
from __future__ import annotations

import ast
import random
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..checks import parse_python

Reader = Callable[[str], "bytes | None"]  # a path of the patched tree -> its bytes (None: absent)
_RANDOM = random.SystemRandom()  # a decoy's name is not predictable from the task (a `_2` suffix would be)

# unittest assertions and their inverses (a passing call of one is a failing call of the other)
_PAIRS = (("assertEqual", "assertNotEqual"), ("assertTrue", "assertFalse"), ("assertIs", "assertIsNot"),
          ("assertIn", "assertNotIn"), ("assertIsNone", "assertIsNotNone"), ("assertIsInstance", "assertNotIsInstance"),
          ("assertAlmostEqual", "assertNotAlmostEqual"), ("assertRegex", "assertNotRegex"))
_INVERSE = {**dict(_PAIRS), **{b: a for a, b in _PAIRS}}


@dataclass(frozen=True)
class Decoy:
    """A decoy planted in `path` (its new bytes `text`), reported under `test_id`."""
    path: str
    test_id: str
    text: bytes


def _pytest_sources(fail_to_pass: Sequence[str], read: Reader) -> Iterator[tuple[str, list[str], str, Any]]:
    """Each FAIL_TO_PASS test a pytest decoy may be made of, with its file's text and tree: a plain id
    (`file.py::test` or `file.py::Class::test`, not parametrized) whose file reads, parses, and has no
    hook on its path."""
    for test_id in fail_to_pass:
        parts = test_id.split("::")
        if "[" in test_id or len(parts) not in (2, 3) or not parts[0].endswith(".py"):
            continue
        data = read(parts[0])
        if data is None or _hooks_on_path(parts[0], read):
            continue
        try:
            text = data.decode("utf-8")
            tree = parse_python(text)
        except (UnicodeDecodeError, SyntaxError, ValueError, RecursionError):
            continue
        yield test_id, parts, text, tree


def pytest_decoy(fail_to_pass: Sequence[str], read: Reader, rng: random.Random = _RANDOM, *,
                 environment: Reader | None = None) -> Decoy | None:
    """The first FAIL_TO_PASS test a decoy can be made of (module docstring), or None. `environment` reads the
    environment's own tree (unpatched): the assertion helpers a probe goes through are read there (`_helper_probe`)."""
    for test_id, parts, text, tree in _pytest_sources(fail_to_pass, read):
        made = _pytest_copy(text, tree, parts[1:], rng, environment)
        if made is not None:
            new_text, name = made
            return Decoy(parts[0], "::".join([*parts[:-1], name]), new_text.encode("utf-8"))
    return None


@dataclass(frozen=True)
class Pair:
    """A FAIL_TO_PASS test replaced by two copies under two new names, in a random order (`pytest_pair`):
    one is the original (`real_id`), the other (`decoy_id`) has one literal of an equality changed, so
    it fails under every right patch. `test_id` is the original's listed id."""
    path: str
    test_id: str
    real_id: str
    decoy_id: str
    text: bytes


def pytest_pair(fail_to_pass: Sequence[str], read: Reader, environment: Reader, rng: random.Random = _RANDOM) -> Pair | None:
    """The first FAIL_TO_PASS test an indistinguishable decoy can be made of (docs/repo-tasks.md "Trust
    model"), or None. The two copies differ only in the value one equality expects: telling the decoy
    from the original takes knowing which value a right answer gives. `environment` reads the
    environment's own files (mounted where the code under test can read them): a statement whose
    line is there as it is would show the original's value, so it is never the one changed."""
    for test_id, parts, text, tree in _pytest_sources(fail_to_pass, read):
        shown = (environment(parts[0]) or b"").decode("utf-8", "replace")
        made = _pytest_pair(text, tree, parts[1:], {line.strip() for line in shown.splitlines()}, rng)
        if made is not None:
            new_text, real, decoy = made
            return Pair(parts[0], test_id, "::".join([*parts[:-1], real]), "::".join([*parts[:-1], decoy]),
                        new_text.encode("utf-8"))
    return None


def _pytest_pair(text: str, tree: ast.Module, names: list[str], shown: set[str],
                 rng: random.Random) -> tuple[str, str, str] | None:
    """(new module text, the original's new name, the decoy's name), or None (`pytest_pair`)."""
    scope: list[ast.stmt] = tree.body
    if len(names) == 2:
        classes = [n for n in scope if _binds(n, names[0])]
        if len(classes) != 1 or not isinstance(classes[0], ast.ClassDef) or classes[0].decorator_list:
            return None
        scope = classes[0].body
    bound = [n for n in scope if _binds(n, names[-1])]
    if len(bound) != 1 or not isinstance(bound[0], ast.FunctionDef) or not _admitted(text, tree, scope, bound[0], len(names) == 2):
        return None
    fn = bound[0]
    lines = text.splitlines(keepends=True)
    head = lines[fn.lineno - 1]
    if not re.match(rf"\s*def {re.escape(fn.name)}\(", head) or fn.end_lineno is None:
        return None
    changed = _changed_line(text, lines, fn, shown, rng)
    if changed is None:
        return None
    where, new_line = changed
    neighbours = re.findall(r"\bdef test_(\w+)", text)
    drawn = [_free_name(fn.name, text, neighbours, "_", rng)]
    drawn.append(_free_name(fn.name, f"{text} {drawn[0]} ", neighbours, "_", rng))
    rng.shuffle(drawn)  # drawn as a pair, then dealt: a word or a number says nothing of which is the original
    real, decoy = drawn
    body = lines[fn.lineno - 1:fn.end_lineno]
    body[-1] = body[-1] if body[-1].endswith("\n") else body[-1] + "\n"
    first = [head.replace(f"def {fn.name}(", f"def {real}(", 1), *body[1:]]
    second = [head.replace(f"def {fn.name}(", f"def {decoy}(", 1), *body[1:]]
    second[where - fn.lineno] = new_line
    copies = [first, second]
    rng.shuffle(copies)  # the original is first or second by chance: its place tells nothing
    gap = "\n" * (2 if len(names) == 1 else 1)
    new = "".join([*lines[:fn.lineno - 1], *copies[0], gap, *copies[1], *lines[fn.end_lineno:]])
    try:
        new_tree = parse_python(new)
    except (SyntaxError, ValueError, RecursionError):
        return None
    new_scope = new_tree.body if len(names) == 1 else next(
        n.body for n in new_tree.body if isinstance(n, ast.ClassDef) and n.name == names[0])
    if (any(_binds(n, fn.name) for n in new_scope) or sum(_binds(n, real) for n in new_scope) != 1
            or sum(_binds(n, decoy) for n in new_scope) != 1):
        return None
    return new, real, decoy


def _changed_line(text: str, lines: list[str], fn: ast.FunctionDef, shown: set[str],
                  rng: random.Random) -> tuple[int, str] | None:
    """(line number, its new text): the last statement of the test's own body (it always runs when the
    test passes) that is one line `assert X == LITERAL` (or `LITERAL == X`, `self.assertEqual`) whose
    line the environment does not show, with one constant of the literal changed to another of its
    type and spelling (`_other_constant`)."""
    for k in range(len(fn.body) - 1, -1, -1):
        stmt = fn.body[k]
        if stmt.lineno != stmt.end_lineno or any(o.end_lineno == stmt.lineno for o in fn.body if o is not stmt):
            continue
        line = lines[stmt.lineno - 1]
        if line.strip() in shown or not _is_equality(text, stmt):
            continue
        sides = _compared(text, stmt)
        assert sides is not None
        literal = next(side for side in (sides[0], sides[2]) if _literal(text, side) is not None)
        leaves = [n for n in ast.walk(literal) if isinstance(n, ast.Constant) and n.lineno == stmt.lineno
                  and type(n.value) in (bool, int, float, str, bytes)]
        rng.shuffle(leaves)
        raw = line.encode("utf-8")
        for leaf in leaves:
            assert leaf.end_col_offset is not None
            seg = raw[leaf.col_offset:leaf.end_col_offset].decode("utf-8")
            other = _other_constant(seg, leaf.value, rng)
            if other is not None:
                return stmt.lineno, (raw[:leaf.col_offset] + other.encode("utf-8") + raw[leaf.end_col_offset:]).decode("utf-8")
    return None


def _is_equality(text: str, stmt: ast.stmt) -> bool:
    """`assert A == B` or `self.assertEqual(A, B)` with exactly one side a literal."""
    sides = _compared(text, stmt)
    if sides is None or sides[1] != "==":
        return False
    return (_literal(text, sides[0]) is None) != (_literal(text, sides[2]) is None)


def _other_constant(seg: str, value: object, rng: random.Random) -> str | None:
    """Another constant written the way `seg` writes `value` (a digit for a digit, a letter for a letter
    of its case, `True` for `False`), unequal to it; None where there is none to change."""
    if type(value) is bool:
        return {"True": "False", "False": "True"}.get(seg)
    if type(value) in (int, float):
        spots = [i for i, ch in enumerate(seg) if ch.isdigit() and not (i > 0 and seg[i - 1] in "eE+-" and type(value) is float)]
        if not re.fullmatch(r"[0-9]+|[0-9]*\.[0-9]*(?:[eE][+-]?[0-9]+)?", seg):
            return None
    else:
        m = re.fullmatch(r"([bBuU]?)(['\"])([^'\"\\]*)\2", seg)
        if m is None:
            return None
        spots = [len(m.group(1)) + 1 + i for i, ch in enumerate(m.group(3)) if ch.isascii() and ch.isalnum()]
    rng.shuffle(spots)
    for i in spots:
        ch = seg[i]
        pool = "0123456789" if ch.isdigit() else "abcdefghijklmnopqrstuvwxyz" if ch.islower() else "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        if ch.isdigit() and i == 0 and len(seg) > 1 and seg[1:2].isdigit():
            pool = "123456789"  # no leading zero: `07` is no Python literal
        choices = [c for c in pool if c != ch]
        out = seg[:i] + rng.choice(choices) + seg[i + 1:]
        try:
            if type(ast.literal_eval(out)) is type(value) and ast.literal_eval(out) != value:
                return out
        except (ValueError, SyntaxError):
            continue
    return None


# What a test may take and still be a replay when copied (module docstring, "Admitted shapes"): fixtures
# that depend on nothing of the test's name or order; a method only `self`.
FIXTURES_ADMITTED = frozenset({"tmp_path", "tmpdir", "monkeypatch", "capsys", "capfd", "caplog", "recwarn"})
# Names and attributes through which a test can see its own name, frame or place (so a copy under
# another name would run differently).
_SELF_AWARE = frozenset({"request", "_testMethodName", "id", "_getframe", "currentframe", "stack", "getframeinfo", "f_code",
                         "co_name", "f_back", "node", "PYTEST_CURRENT_TEST", "_outcome", "_pytest"})
# Per-class or per-module hooks that would see the extra test run (a teardown checking what the last
# statement undoes, state set up once and used up by the copy).
_HOOKS = frozenset({"tearDown", "teardown_method", "setUpClass", "tearDownClass", "setup_class", "teardown_class",
                    "setup_module", "teardown_module", "setup_function", "teardown_function", "setUpModule",
                    "tearDownModule", "teardown"})
_COMPARISONS = {ast.Eq: "==", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.In: "in"}
_UNITTEST_COMPARISONS = {"assertEqual": "==", "assertLess": "<", "assertLessEqual": "<=", "assertGreater": ">",
                         "assertGreaterEqual": ">=", "assertIn": "in"}


def _hooks_on_path(path: str, read: Reader) -> bool:
    """Whether a conftest.py from the root to the test's directory has an autouse fixture or a pytest
    hook: either can act on a test by its name or order, which a copy changes."""
    parts = path.split("/")[:-1]
    for k in range(len(parts) + 1):
        data = read("/".join([*parts[:k], "conftest.py"]))
        if data is not None and (b"autouse" in data or b"def pytest_" in data):
            return True
    return False


def _pytest_copy(text: str, tree: ast.Module, names: list[str], rng: random.Random,
                 environment: Reader | None = None) -> tuple[str, str] | None:
    scope: list[ast.stmt] = tree.body
    if len(names) == 2:  # Class::method
        classes = [n for n in scope if _binds(n, names[0])]
        if len(classes) != 1 or not isinstance(classes[0], ast.ClassDef) or classes[0].decorator_list:
            return None
        scope = classes[0].body
    bound = [n for n in scope if _binds(n, names[-1])]
    if len(bound) != 1 or not isinstance(bound[0], ast.FunctionDef):
        return None  # a name defined twice (the first never runs), or not a plain function
    fn = bound[0]
    if not _admitted(text, tree, scope, fn, method=len(names) == 2):
        return None
    stmt = fn.body[-1]  # the copy is the whole test, its LAST statement made to fail or followed by a failure
    if stmt.end_lineno is None or (len(fn.body) > 1 and fn.body[-2].end_lineno == stmt.lineno):
        return None  # shares a line with the statement before it
    lines = text.splitlines(keepends=True)
    indent = lines[stmt.lineno - 1][:stmt.col_offset]
    made = _failing(text, stmt, text)
    if made is None:
        made = _helper_probe(text, tree, stmt, environment)
    if made is not None:
        tail = [f"{indent}{line}\n" for line in made]
    else:  # the statement kept, then a failure: the copy still runs all of its original first
        kept = lines[stmt.lineno - 1:stmt.end_lineno]
        kept[-1] = kept[-1] if kept[-1].endswith("\n") else kept[-1] + "\n"
        tail = [*kept, f'{indent}raise AssertionError("want a different result")\n']
    name = _free_name(names[-1], text, re.findall(r"\bdef test_(\w+)", text), "_", rng)
    head = lines[fn.lineno - 1:fn.body[0].lineno - 1]
    if not re.match(rf"\s*def {re.escape(fn.name)}\(", head[0]):
        return None  # `def test_a ():` and the like: only the plain head is renamed
    head[0] = head[0].replace(f"def {fn.name}(", f"def {name}(", 1)
    decoy = [*head, *lines[fn.body[0].lineno - 1:stmt.lineno - 1], *tail]
    end = fn.end_lineno or fn.lineno
    before, after = lines[:end], lines[end:]
    if before and not before[-1].endswith("\n"):
        before[-1] += "\n"
    new = "".join([*before, "\n" * (2 if len(names) == 1 else 1), *decoy, *after])
    try:  # never a decoy that breaks the test module, or that is not a second, distinct test beside its original
        new_tree = parse_python(new)
    except (SyntaxError, ValueError, RecursionError):
        return None
    new_scope = new_tree.body if len(names) == 1 else next(
        n.body for n in new_tree.body if isinstance(n, ast.ClassDef) and n.name == names[0])
    if sum(_binds(n, fn.name) for n in new_scope) != 1 or sum(_binds(n, name) for n in new_scope) != 1:
        return None
    return new, name


def _binds(node: ast.stmt, name: str) -> bool:
    """Whether a statement of a scope binds `name` (a def, a class, an assignment, an import)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name == name
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return any((a.asname or a.name.split(".")[0]) == name for a in node.names)
    return any(isinstance(t, ast.Name) and t.id == name for n in ast.walk(node) if isinstance(n, (ast.Assign, ast.AnnAssign,
               ast.AugAssign)) for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))


def _admitted(text: str, module: ast.Module, scope: list[ast.stmt], fn: ast.FunctionDef, method: bool) -> bool:
    """The narrow shape a copy is known to replay (docs/repo-tasks.md "Trust model"): no decorators, only
    admitted fixtures, no statement that ends the test early or sees its name, no state of the module
    or class it could change, no hook that sees the extra test, the name written nowhere else."""
    args = fn.args
    wanted = [a.arg for a in (*args.posonlyargs, *args.args)]
    if (fn.decorator_list or fn.body[0].lineno == fn.lineno or args.vararg or args.kwarg or args.kwonlyargs
            or args.defaults or (wanted[:1] != ["self"] or len(wanted) != 1 if method else not set(wanted) <= FIXTURES_ADMITTED)):
        return False
    if re.search(rf"(?<!def )\b{re.escape(fn.name)}\b", text):  # looked up by name: a golden file, a map, a marker
        return False
    if any(_binds(n, hook) for n in (*module.body, *scope) for hook in _HOOKS):
        return False
    if any("autouse" in (ast.get_source_segment(text, d) or "autouse") for n in ast.walk(module)
           if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) for d in n.decorator_list):
        return False
    mutable = _mutable_names(module.body) | (_mutable_names(scope) if method else set())
    for node in _own_nodes(fn):
        if isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal)):
            return False
        if isinstance(node, ast.Name) and (node.id in _SELF_AWARE or node.id in mutable):
            return False
        if isinstance(node, ast.Attribute) and (node.attr in _SELF_AWARE or node.attr in mutable):
            return False
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "PYTEST_CURRENT_TEST" in node.value:
            return False
    return True


def _own_nodes(fn: ast.FunctionDef) -> list[ast.AST]:
    """The nodes of a function's body, nested functions' and lambdas' bodies left out (their `return`
    ends only them)."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = list(fn.body)
    while todo:
        node = todo.pop()
        out.append(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            todo.extend(getattr(node, "decorator_list", []))
            continue
        todo.extend(ast.iter_child_nodes(node))
    return out


def _mutable_names(scope: list[ast.stmt]) -> set[str]:
    """Names a scope binds by assignment to anything but an immutable literal: state a test may change."""
    out: set[str] = set()
    for node in scope:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            value = node.value
            if value is not None and _immutable_literal(value) and not isinstance(node, ast.AugAssign):
                continue
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                out.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return out


def _immutable_literal(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "object" and not node.args:
        return True  # a sentinel
    return isinstance(node, ast.Tuple) and all(_immutable_literal(e) for e in node.elts)


def _literal(text: str, node: ast.expr) -> str | None:
    """A side's source when it is a literal (so the other side is the value under test)."""
    source = ast.get_source_segment(text, node)
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return source


def _failing(text: str, stmt: ast.stmt, taken: str) -> list[str] | None:
    """The lines replacing the test's last statement in its decoy: an assertion every right answer fails,
    or None. Where the statement compares the value under test with a literal (`assert v == 3`,
    `self.assertEqual(v, 3)`), the comparison is made first with a fresh `object()` in the literal's
    place, which a value equal to (less than, containing) everything passes and a right answer fails,
    then inverted: `assert (v == object()) or not (v == 3)`. Else the assertion inverted."""
    sides = _compared(text, stmt)
    if sides is not None:
        left, op, right = sides
        value = next(f"_decoy_value{k}" for k in range(1, 99) if f"_decoy_value{k}" not in taken)
        lit_left = _literal(text, left) is not None
        lit_right = _literal(text, right) is not None
        if lit_left != lit_right:
            code, lit = (right, left) if lit_left else (left, right)
            code_src, lit_src = ast.get_source_segment(text, code), ast.get_source_segment(text, lit)
            if code_src is not None and lit_src is not None and "\n" not in code_src + lit_src:
                if op == "in":
                    probe = f"object() in {value}" if lit_left else f"{value} in (object(),)"
                else:
                    probe = f"object() {op} {value}" if lit_left else f"{value} {op} object()"
                original = f"({lit_src}) {op} {value}" if lit_left else f"{value} {op} ({lit_src})"
                return [f"{value} = ({code_src})", f"assert ({probe}) or not ({original})"]
    inverted = _inverted(text, stmt)
    return None if inverted is None else [inverted]


def _helper_probe(text: str, module: ast.Module, stmt: ast.stmt, environment: Reader | None) -> list[str] | None:
    """The test's last statement through its assertion helper, probed (rt17 class 2: a helper made a no-op passes
    every test asserting through it, and a copy that keeps the call and raises after it tells nothing): `f(v, LIT)`
    made `f(v, object())`, which the environment's `f` fails for every right answer and a no-op `f` passes. Only
    where `f` is KNOWN to fail it (an allowlist of one shape, read in the ENVIRONMENT's tree, which the patch does not
    change): imported at the module's top by `from M import f` (absolute), M's file at its path from the tree's root
    (`M.py` or `M/__init__.py`: the root is first on sys.path under `python -m pytest`), and `def f(a, b)` there, no
    decorator, default or other parameter, whose body (past a docstring) is one `assert a == b` or `assert b == a`,
    a message allowed. Any other helper: None (the copy keeps the call and raises after it)."""
    if environment is None or not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return None
    call = stmt.value
    if (not isinstance(call.func, ast.Name) or call.keywords or len(call.args) != 2
            or any(isinstance(a, ast.Starred) for a in call.args) or _literal(text, call.args[1]) is None):
        return None
    value = ast.get_source_segment(text, call.args[0])
    bound = [n for n in module.body if _binds(n, call.func.id)]
    if value is None or "\n" in value or len(bound) != 1 or not isinstance(bound[0], ast.ImportFrom):
        return None
    found = bound[0]
    names = [a.name for a in found.names if (a.asname or a.name) == call.func.id]
    if found.level or not found.module or len(names) != 1:
        return None
    path = found.module.replace(".", "/")
    data = environment(f"{path}.py") or environment(f"{path}/__init__.py")
    return [f"{call.func.id}({value}, object())"] if data is not None and _compares_its_two(data, names[0]) else None


def _compares_its_two(data: bytes, name: str) -> bool:
    """Whether the module `data` defines `name` once, as `def name(a, b)` whose body is one `assert a == b` (the
    shape `_helper_probe` admits)."""
    try:
        module = parse_python(data.decode("utf-8"))
    except (UnicodeDecodeError, SyntaxError, ValueError, RecursionError):
        return False
    bound = [n for n in module.body if _binds(n, name)]
    if len(bound) != 1 or not isinstance(bound[0], ast.FunctionDef) or bound[0].decorator_list:
        return False
    fn, args = bound[0], bound[0].args
    params = [a.arg for a in (*args.posonlyargs, *args.args)]
    if len(params) != 2 or args.vararg or args.kwarg or args.kwonlyargs or args.defaults:
        return False
    body = fn.body[1:] if (isinstance(fn.body[0], ast.Expr) and isinstance(fn.body[0].value, ast.Constant)
                           and isinstance(fn.body[0].value.value, str)) else fn.body
    if len(body) != 1 or not isinstance(body[0], ast.Assert) or not isinstance(body[0].test, ast.Compare):
        return False
    test = body[0].test
    sides = [test.left, *test.comparators]
    return ([type(op) for op in test.ops] == [ast.Eq] and all(isinstance(x, ast.Name) for x in sides)
            and sorted(x.id for x in sides if isinstance(x, ast.Name)) == sorted(params))


def _compared(text: str, stmt: ast.stmt) -> tuple[ast.expr, str, ast.expr] | None:
    """(left, operator, right) of `assert L op R` or a unittest comparison call of two arguments."""
    if isinstance(stmt, ast.Assert) and stmt.msg is None and isinstance(stmt.test, ast.Compare):
        cmp = stmt.test
        if len(cmp.ops) == 1 and type(cmp.ops[0]) in _COMPARISONS:
            return cmp.left, _COMPARISONS[type(cmp.ops[0])], cmp.comparators[0]
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call, func = stmt.value, stmt.value.func
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"
                and func.attr in _UNITTEST_COMPARISONS and len(call.args) == 2 and not call.keywords
                and not any(isinstance(a, ast.Starred) for a in call.args)):
            return call.args[0], _UNITTEST_COMPARISONS[func.attr], call.args[1]
    return None


def _inverted(text: str, stmt: ast.stmt) -> str | None:
    """The statement's inverse as one line of source, when it is an assertion we can invert."""
    if isinstance(stmt, ast.Assert):
        test = ast.get_source_segment(text, stmt.test)
        return None if test is None else f"assert not ({test})"  # continuation lines keep their place
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return None
    func = stmt.value.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"
            and func.attr in _INVERSE and not stmt.value.keywords):
        return None
    call, head = ast.get_source_segment(text, stmt.value), ast.get_source_segment(text, func)
    if call is None or head is None or not call.startswith(head):
        return None
    return "self." + _INVERSE[func.attr] + call[len(head):]


_GO_TEST = re.compile(r"^func (Test\w+)\((\w+) \*testing\.T\) \{$", re.M)


def go_decoy(fail_to_pass: Sequence[str], candidates: Iterable[str], read: Reader,
             rng: random.Random = _RANDOM) -> Decoy | None:
    """A decoy next to the first FAIL_TO_PASS test found in `candidates` (the `.go` files of the
    patched tree's package directories), or None. Its name is free in the whole package."""
    files = sorted((p for p in candidates if p.endswith(".go")), key=lambda p: (p.count("/"), p))  # the root's package first
    for test_id in fail_to_pass:
        base = test_id.split("/")[0]
        for path in (p for p in files if p.endswith("_test.go")):
            data = read(path)
            if data is None:
                continue
            text = data.decode("utf-8", "surrogateescape")
            package = "".join((read(p) or b"").decode("utf-8", "surrogateescape") for p in files
                              if p.rpartition("/")[0] == path.rpartition("/")[0])
            made = _go_copy(text, base, package, rng)
            if made is not None:
                new_text, name = made
                return Decoy(path, name, new_text.encode("utf-8", "surrogateescape"))
    return None


def _go_copy(text: str, base: str, package: str, rng: random.Random) -> tuple[str, str] | None:
    heads = [m for m in _GO_TEST.finditer(text) if m.group(1) == base]
    if len(heads) != 1 or heads[0].group(2) == "_":
        return None  # `_` cannot be used as a value: the copy's failure call would not compile
    head = heads[0]
    close = _go_block_end(text, head.end() - 1)
    if close is None or text[close - 1:close + 1] != "\n}" or text[close + 1:close + 2] not in ("", "\n"):
        return None  # the body's end, found by Go's lexical rules, is not a gofmt'd closing line
    name, t = _free_name(base, package + text, [m.group(1)[4:] for m in _GO_TEST.finditer(text)], "", rng), head.group(2)
    body = text[head.end():close]
    decoy = f"\nfunc {name}({t} *testing.T) {{{body}\t{t}.Fatalf(\"%s: want a different result\", {t}.Name())\n}}\n"
    end = close + 1
    return text[:end] + "\n" + decoy + text[end:], name


# A top-level check of a gofmt'd test body: `if X != LITERAL {` (or `LITERAL != X`), its block failing the test.
_GO_CHECK = re.compile(r'^\t(if (?:.+ != )?)(-?[0-9]+|"[^"\\`]*"|true|false)((?: != .+)? \{)$')
_GO_EARLY_END = re.compile(r"\b(?:return|goto|Skip|Skipf|SkipNow|Goexit|Exit)\b")


def go_pair(base: str, path: str, text: str, package: str, shown: str, rng: random.Random = _RANDOM) -> tuple[str, str, str] | None:
    """A Go test's twins (the pytest ones' rules, `pytest_pair`): (new file text, the original's new
    name, the decoy's name), or None. The test is `func BASE(t *testing.T) {`, defined once and named
    nowhere else in its package (it is renamed), with no early end (`return`, `Skip`, ...) in its
    body; the changed line is its LAST top-level `if X != LITERAL {` (one `!=`, no `&&` or `||`, no
    `else`) whose block calls `t.Fatal`, `t.Fatalf`, `t.Error`, `t.Errorf`, `t.Fail` or `t.FailNow` at
    its top, and is not in `shown` (the environment's copy of the file)."""
    heads = [m for m in _GO_TEST.finditer(text) if m.group(1) == base]
    if len(heads) != 1 or heads[0].group(2) == "_" or len(re.findall(rf"\b{re.escape(base)}\b", package)) != 1:
        return None
    head, t = heads[0], heads[0].group(2)
    close = _go_block_end(text, head.end() - 1)
    if close is None or text[close - 1:close + 1] != "\n}" or text[close + 1:close + 2] not in ("", "\n"):
        return None
    body = text[head.end():close]
    lines = body.split("\n")
    shown_lines = {line.strip() for line in shown.splitlines()}
    fails = re.compile(rf"^\t\t{re.escape(t)}\.(?:Fatal|Fatalf|Error|Errorf|Fail|FailNow)\(")
    for k in range(len(lines) - 1, -1, -1):
        m = _GO_CHECK.match(lines[k])
        if (m is None or lines[k].strip() in shown_lines or lines[k].count("!=") != 1 or "&&" in lines[k]
                or "||" in lines[k]):
            continue  # one `!=` alone decides the block (with `a && b != 4` the decoy could pass a right answer)
        if _GO_EARLY_END.search("\n".join(lines[:k])):
            return None
        end = next((j for j in range(k + 1, len(lines)) if lines[j].startswith("\t}")), None)
        if end is None or lines[end] != "\t}" or not any(fails.match(line) for line in lines[k + 1:end]):  # no `} else {`
            continue
        literal = m.group(2)
        other = {"true": "false", "false": "true"}.get(literal) or _other_constant(literal, ast.literal_eval(literal), rng)
        if other is None:
            continue
        changed = [*lines[:k], f"\t{m.group(1)}{other}{m.group(3)}", *lines[k + 1:]]
        neighbours = [n.group(1)[4:] for n in _GO_TEST.finditer(text)]
        drawn = [_free_name(base, package + text, neighbours, "", rng)]
        drawn.append(_free_name(base, f"{package}{text} {drawn[0]} ", neighbours, "", rng))
        rng.shuffle(drawn)  # drawn as a pair, then dealt
        real, decoy = drawn
        decoy_body = "\n".join(changed)
        copies = [f"func {real}({t} *testing.T) {{{body}}}\n", f"func {decoy}({t} *testing.T) {{{decoy_body}}}\n"]
        rng.shuffle(copies)
        return text[:head.start()] + copies[0] + "\n" + copies[1] + text[close + 2:], real, decoy
    return None


def _go_block_end(text: str, start: int) -> int | None:
    """The index of the `}` closing the `{` at `start`, by Go's lexical rules (strings, raw strings,
    runes and comments hold braces that are not the code's), or None when it never closes."""
    depth, i, n = 0, start, len(text)
    while i < n:
        ch = text[i]
        if ch == "/" and text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                return None
        elif ch == "/" and text.startswith("/*", i):
            i = text.find("*/", i + 2)
            if i < 0:
                return None
            i += 1
        elif ch == "`":
            i = text.find("`", i + 1)
            if i < 0:
                return None
        elif ch in "\"'":
            i += 1
            while i < n and text[i] != ch:
                if text[i] == "\n":
                    return None
                i += 2 if text[i] == "\\" else 1
            if i >= n:
                return None
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def _free_name(name: str, text: str, neighbours: list[str], joint: str, rng: random.Random) -> str:
    """`name` and a word of its neighbours' names (`test_compose_tuple`, `TestSIBytes`), one that no
    name in `text` has; a number only when every word is taken."""
    split = lambda n: {w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", n) if len(w) > 2}  # noqa: E731
    words = sorted(set().union(*map(split, neighbours)) - split(name))
    rng.shuffle(words)
    tried = [*(f"{name}{joint}{w.lower() if joint else w.capitalize()}" for w in words), *(f"{name}{joint}{k}" for k in range(2, 99))]
    for candidate in tried:
        if not re.search(rf"\b{re.escape(candidate)}\b", text):
            return candidate
    return f"{name}{joint}decoy"  # 97 numbers taken: never in practice


__all__ = ["Decoy", "Pair", "Reader", "go_decoy", "go_pair", "pytest_decoy", "pytest_pair"]
