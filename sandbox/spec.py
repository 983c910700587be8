"""The code task model: every validation rule of a code task, in one place (its defaults and limits
are sandbox/contract.py's, the contract every part shares).

The sandbox is the lowest layer that needs them, so they live here, and verifier/schema.py (server,
client, CLI, trainer) imports them: a rule changed here changes on every path at once.

Why dataclasses and hand-written checks rather than pydantic v2: no new dependency for a package
the trainer also imports, errors that name the exact field path (`tasks[3].code.tests[0]: unknown
keys ['input', 'output']`) in the same words on every path, and no silent coercion: pydantic's lax
mode would turn "1" into 1 or a float 2.0 into an int, where we want a wrong type to be an error.

Nothing here imports Docker: the trainer and the client import it without a daemon.
"""
from __future__ import annotations

import dataclasses
import json
import keyword
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .config import LanguageLimits, default_limits
from .contract import (COMPARATORS, DEFAULT_CHECKER_LANGUAGE, DEFAULT_COMPARE, DEFAULT_FLOAT_TOL,
                       DEFAULT_LANGUAGE, DEFAULT_SCORING, MAX_CALL_DEPTH, MAX_CALL_VALUE_BYTES, MAX_TOLERANCE,
                       MIN_MEMORY_MB, SCORINGS, TASK_MAX_FILES, TASK_MAX_FILES_BYTES)
from .languages import LANGUAGES

LANGUAGE_NAMES: tuple[str, ...] = tuple(LANGUAGES)
# Every image has python3, and the assert harness is Python. A C++ checker needs g++ in the
# program's image (sandbox/languages.py, `cpp_checker`).
CHECKER_LANGUAGES = ("python", "cpp")
TEST_CODE_LANGUAGES = ("python",)
# How test_code runs (docs/sandboxes.md "How assert-style tests are judged"): in a judge process apart from
# the program's, always. "shared" (program and tests in one interpreter) was removed (issue 16):
# no patch made it safe, so a task naming it is refused rather than graded another way.
JUDGE_MODES = ("process",)
# What test_code is (docs/tasks.md "Task schema"): top-level asserts / check(), or a test file that a
# framework collects and runs, the program importable as the module `solution`.
TEST_FRAMEWORKS = ("assert", "pytest", "unittest")
CALL_TEST_LANGUAGES = ("python",)
# Support files (docs/tasks.md "Task schema"): flat names, so nothing can point outside the job's dir;
# their count and bytes are bounded by contract.TASK_MAX_FILES and TASK_MAX_FILES_BYTES.
FILE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]{0,99}\Z")
# Names the sandbox itself writes: the program's source and binary (prog, prog.<ext>, Java's
# <Class>.java/.class) and the checker's dir (checker source, input/output/answer files).
CHECKER_FILES = frozenset(("checker.py", "checker.cpp", "checker", "input.txt", "output.txt", "answer.txt"))


class TaskError(ValueError):
    """A task that cannot be graded as given; `field` names the offending field.

    Readers name fields as `f"{where}.{key}"` under the prefix their edge passes (`tasks[3]` on the
    HTTP port, `tasks[3].code` on the wire). A JSONL line is the task itself, so its prefix is ""
    and its paths start bare (`tests[0].stdin`, not `.tests[0].stdin`); an empty path is the whole
    task, and the message is then the reason alone."""

    def __init__(self, field: str, message: str):
        field = field.removeprefix(".")
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field


def check_keys(obj: Mapping, allowed: frozenset[str] | set[str], where: str) -> None:
    """Unknown keys are an error naming them: a misspelt field must not be silently ignored."""
    unknown = sorted(str(k) for k in obj if k not in allowed)
    if unknown:
        raise TaskError(where, f"unknown keys {unknown} (allowed: {sorted(allowed)})")


def get_str(obj: Mapping, key: str, where: str, default: str = "") -> str:
    value = obj.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise TaskError(f"{where}.{key}", f"must be a string, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise TaskError(f"{where}.{key}", "is not valid UTF-8 (lone surrogate)") from None
    return value


def get_num(obj: Mapping, key: str, where: str) -> float | None:
    """A finite number of sensible size, or None when absent."""
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TaskError(f"{where}.{key}", f"must be a number, got {type(value).__name__}")
    if not math.isfinite(value) or abs(value) > 1e9:
        raise TaskError(f"{where}.{key}", f"must be a finite number of sensible size, got {value!r}")
    return value


def get_bool(obj: Mapping, key: str, where: str) -> bool:
    value = obj.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise TaskError(f"{where}.{key}", f"must be true or false, got {type(value).__name__}")
    return value


def one_of(value: str, choices: tuple[str, ...], where: str) -> str:
    if value not in choices:
        raise TaskError(where, f"must be one of {list(choices)}, got {value!r}")
    return value


@dataclass(frozen=True)
class CodeTest:
    """One stdin/stdout test; a missing expected_stdout means the program must print nothing.
    None (the sandbox's own API only, e.g. the HTTP port's /run_code): run it, compare nothing."""

    stdin: str = ""
    expected_stdout: str | None = ""

    @classmethod
    def from_dict(cls, obj: Any, where: str, wire: bool = True) -> CodeTest:
        if isinstance(obj, CodeTest):  # already checked: a server's shared test set (verifier/schema.py)
            return obj
        if not isinstance(obj, Mapping):
            raise TaskError(where, "must be an object with stdin and expected_stdout")
        # {"input", "output"} (APPS, open-r1 style) would otherwise run with empty stdin and expect nothing
        check_keys(obj, {"stdin", "expected_stdout"}, where)
        if not wire and "expected_stdout" in obj and obj["expected_stdout"] is None:
            return cls(stdin=get_str(obj, "stdin", where), expected_stdout=None)
        return cls(stdin=get_str(obj, "stdin", where), expected_stdout=get_str(obj, "expected_stdout", where))


def json_value(value: Any, where: str, depth: int = 0) -> Any:
    """A JSON value (None, bool, int, float, str, list, dict with string keys), tuples read as lists;
    anything else is an error naming the field. Floats must be finite (JSON has no NaN)."""
    if depth > MAX_CALL_DEPTH:
        raise TaskError(where, f"nested deeper than {MAX_CALL_DEPTH} levels")
    if value is None or type(value) in (bool, str):
        return value
    if type(value) is int:
        return value
    if type(value) is float:
        if not math.isfinite(value):
            raise TaskError(where, f"must be a finite number (JSON has no {value!r})")
        return value
    if type(value) in (list, tuple):
        return [json_value(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value)]
    if type(value) is dict:
        out = {}
        for k, v in value.items():
            if type(k) is not str:
                raise TaskError(where, f"object keys must be strings, got {type(k).__name__}")
            out[k] = json_value(v, f"{where}.{k}", depth + 1)
        return out
    raise TaskError(where, f"must be a JSON value, got {type(value).__name__}")


def json_size(value: Any, where: str) -> int:
    """Bytes of the value as JSON text; an error naming the field when it is over the bound (or an
    int too long to write as text)."""
    try:
        n = len(json.dumps(value, allow_nan=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError) as e:
        raise TaskError(where, f"cannot be written as JSON: {e}") from None
    if n > MAX_CALL_VALUE_BYTES:
        raise TaskError(where, f"is {n} bytes as JSON, over {MAX_CALL_VALUE_BYTES}")
    return n


def load_json(text: str, where: str) -> Any:
    """A JSON text from the wire as a value (NaN, Infinity and over-deep nesting refused)."""
    def refuse(name: str) -> None:
        raise TaskError(where, f"{name} is not a JSON value")
    if len(text) > MAX_CALL_VALUE_BYTES:
        raise TaskError(where, f"is over {MAX_CALL_VALUE_BYTES} bytes")
    try:
        value = json.loads(text, parse_constant=refuse)
    except (ValueError, RecursionError) as e:
        raise TaskError(where, f"is not valid JSON: {str(e)[:200]}") from None
    return json_value(value, where)


@dataclass(frozen=True)
class CallTest:
    """One call-based test: `entry_point(*args, **kwargs)` must equal `expected` (docs/tasks.md "Task
    schema": tuples equal lists, ints equal floats of the same value, bools are not numbers)."""

    args: tuple = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    expected: Any = None

    @classmethod
    def from_dict(cls, obj: Any, where: str) -> CallTest:
        if not isinstance(obj, Mapping):
            raise TaskError(where, "must be an object with args, kwargs (optional) and expected")
        check_keys(obj, {"args", "kwargs", "expected"}, where)
        if "expected" not in obj:
            raise TaskError(f"{where}.expected", "is missing (use null for a function that returns None)")
        args = obj.get("args")
        args = [] if args is None else args
        if type(args) not in (list, tuple):
            raise TaskError(f"{where}.args", f"must be a list of arguments, got {type(args).__name__}")
        kwargs = obj.get("kwargs")
        kwargs = {} if kwargs is None else kwargs
        if type(kwargs) is not dict:
            raise TaskError(f"{where}.kwargs", f"must be an object, got {type(kwargs).__name__}")
        for k in kwargs:
            if type(k) is not str or not k.isidentifier():
                raise TaskError(f"{where}.kwargs", f"keys must be argument names, got {k!r}")
        return cls(args=tuple(json_value(list(args), f"{where}.args")),
                   kwargs=json_value(kwargs, f"{where}.kwargs"),
                   expected=json_value(obj["expected"], f"{where}.expected"))

    def validate(self, where: str) -> None:
        """Values built without from_dict (the wire) get the same checks."""
        json_value(list(self.args), f"{where}.args")
        json_value(dict(self.kwargs), f"{where}.kwargs")
        json_value(self.expected, f"{where}.expected")
        json_size([list(self.args), dict(self.kwargs), self.expected], where)

    def to_dict(self) -> dict:
        return {"args": list(self.args), "kwargs": dict(self.kwargs), "expected": self.expected}


@dataclass(frozen=True)
class CodeTask:
    """A code task with every default filled in; `from_dict` is the only way in from untrusted data.

    `time_limit_s` / `memory_limit_mb` None mean the language's default (sandbox/config.py).
    """

    language: str
    completion: str = ""
    tests: tuple[CodeTest, ...] = ()
    test_code: str | None = None
    checker: str | None = None
    checker_language: str = DEFAULT_CHECKER_LANGUAGE
    compare: str = DEFAULT_COMPARE
    float_abs_tol: float = DEFAULT_FLOAT_TOL
    float_rel_tol: float = DEFAULT_FLOAT_TOL
    scoring: str = DEFAULT_SCORING
    stop_on_first_failure: bool = False
    time_limit_s: float | None = None
    memory_limit_mb: int | None = None
    id: str = ""
    timeout_s: float = 0.0  # wall-clock budget of the whole job; 0: the server's default
    entry_point: str = ""  # the function under test (call_tests; with test_code: the only name taken)
    call_tests: tuple[CallTest, ...] = ()
    test_framework: str = "assert"
    judge: str = "process"  # docs/sandboxes.md "How assert-style tests are judged"
    files: Mapping[str, str] = field(default_factory=dict)  # support files: name -> text, read-only
    input_file: str = ""  # each test's stdin is also written to this file in the program's dir
    output_file: str = ""  # the answer is read from this file instead of stdout
    # sandbox-only options, not on the wire: heads of stdout/stderr per test (`verifier sandbox run`,
    # the HTTP port's /run_code) and how many bytes of each the heads keep
    return_output: bool = field(default=False, metadata={"wire": False})
    output_head_bytes: int = field(default=4096, metadata={"wire": False})
    # Execute and /run_code run `completion` as the program it is (fences or </think> inside string
    # literals are common in tool calls); only a graded completion has its program picked out of it.
    as_given: bool = field(default=False, metadata={"wire": False})

    @classmethod
    def keys(cls, wire: bool = True) -> frozenset[str]:
        """Allowed dict keys ('kind' included); wire=True leaves out sandbox-only debug options."""
        names = {f.name for f in dataclasses.fields(cls) if not wire or f.metadata.get("wire", True)}
        return frozenset(names | {"kind"})

    @classmethod
    def from_dict(cls, obj: Any, where: str = "task", wire: bool = False,
                  limits: Mapping[str, LanguageLimits] | None = None) -> CodeTask:
        """Parse and validate a task dict; raises TaskError naming the first bad field."""
        if not isinstance(obj, Mapping):
            raise TaskError(where, f"must be an object, got {type(obj).__name__}")
        check_keys(obj, cls.keys(wire), where)
        if obj.get("kind", "code") != "code":
            raise TaskError(f"{where}.kind", f"must be 'code', got {obj.get('kind')!r}")
        raw_tests = _list(obj, "tests", where)
        raw_calls = _list(obj, "call_tests", where)
        abs_tol, rel_tol = get_num(obj, "float_abs_tol", where), get_num(obj, "float_rel_tol", where)
        memory = get_num(obj, "memory_limit_mb", where)
        if memory is not None and memory != int(memory):
            raise TaskError(f"{where}.memory_limit_mb", f"must be a whole number, got {memory!r}")
        task_id = obj.get("id", "")
        if isinstance(task_id, int) and not isinstance(task_id, bool):
            task_id = str(task_id)
        if not isinstance(task_id, str):
            raise TaskError(f"{where}.id", "must be a string")
        task = cls(
            language=get_str(obj, "language", where, DEFAULT_LANGUAGE), completion=get_str(obj, "completion", where),
            tests=tuple(CodeTest.from_dict(t, f"{where}.tests[{i}]", wire) for i, t in enumerate(raw_tests)),
            test_code=get_str(obj, "test_code", where) or None, checker=get_str(obj, "checker", where) or None,
            checker_language=get_str(obj, "checker_language", where) or DEFAULT_CHECKER_LANGUAGE,
            compare=get_str(obj, "compare", where) or DEFAULT_COMPARE,
            float_abs_tol=DEFAULT_FLOAT_TOL if abs_tol is None else abs_tol,
            float_rel_tol=DEFAULT_FLOAT_TOL if rel_tol is None else rel_tol,
            scoring=get_str(obj, "scoring", where) or DEFAULT_SCORING,
            stop_on_first_failure=get_bool(obj, "stop_on_first_failure", where),
            time_limit_s=get_num(obj, "time_limit_s", where) or None,
            memory_limit_mb=int(memory) if memory else None, id=task_id,
            timeout_s=get_num(obj, "timeout_s", where) or 0.0,
            entry_point=get_str(obj, "entry_point", where),
            call_tests=tuple(CallTest.from_dict(t, f"{where}.call_tests[{i}]") for i, t in enumerate(raw_calls)),
            test_framework=get_str(obj, "test_framework", where) or "assert",
            judge=get_str(obj, "judge", where) or "process",
            files=get_files(obj, where), input_file=get_str(obj, "input_file", where),
            output_file=get_str(obj, "output_file", where),
            return_output=get_bool(obj, "return_output", where) if not wire else False,
            output_head_bytes=int(get_num(obj, "output_head_bytes", where) or 4096) if not wire else 4096,
            as_given=get_bool(obj, "as_given", where) if not wire else False)
        task.validate(where, limits)
        return task

    def validate(self, where: str, limits: Mapping[str, LanguageLimits] | None = None) -> None:
        """The value rules: what the sandbox can honour. `limits`: per-language maxima."""
        limits = default_limits() if limits is None else limits
        one_of(self.language, tuple(limits), f"{where}.language")
        one_of(self.compare, COMPARATORS, f"{where}.compare")
        one_of(self.scoring, SCORINGS, f"{where}.scoring")
        if self.judge == "shared":
            raise TaskError(f"{where}.judge", "'shared' was removed: tests never run in the program's interpreter "
                                              "(docs/sandboxes.md \"How assert-style tests are judged\"); use 'process'")
        one_of(self.judge, JUDGE_MODES, f"{where}.judge")
        if self.checker:
            one_of(self.checker_language, CHECKER_LANGUAGES, f"{where}.checker_language")
        elif self.checker_language not in CHECKER_LANGUAGES:
            raise TaskError(f"{where}.checker_language", f"must be one of {list(CHECKER_LANGUAGES)}")
        if self.test_code and self.language not in TEST_CODE_LANGUAGES:
            raise TaskError(f"{where}.test_code", f"needs language one of {list(TEST_CODE_LANGUAGES)}, "
                                                  f"got {self.language!r}")
        self._validate_kinds(where)
        for name in ("float_abs_tol", "float_rel_tol"):
            value = getattr(self, name)
            if not (math.isfinite(value) and 0 <= value <= MAX_TOLERANCE):
                raise TaskError(f"{where}.{name}", f"must be a finite number >= 0, got {value!r}")
        lim = limits[self.language]
        if self.time_limit_s is not None and not 0 < self.time_limit_s <= lim.max_time_limit_s:
            raise TaskError(f"{where}.time_limit_s", f"must be in (0, {lim.max_time_limit_s}] for {self.language}")
        if self.memory_limit_mb is not None and not MIN_MEMORY_MB <= self.memory_limit_mb <= lim.max_memory_limit_mb:
            raise TaskError(f"{where}.memory_limit_mb",
                            f"must be in [{MIN_MEMORY_MB}, {lim.max_memory_limit_mb}] for {self.language}")
        if self.timeout_s < 0:
            raise TaskError(f"{where}.timeout_s", "must not be negative")
        if self.checker_language == "cpp" and not LANGUAGES[self.language].cpp_checker:
            ok = [n for n, lang in LANGUAGES.items() if lang.cpp_checker]
            raise TaskError(f"{where}.checker_language", f"'cpp' needs g++ in the program's image: language one "
                                                         f"of {ok}, got {self.language!r}")
        self.validate_files(where)

    def validate_files(self, where: str) -> None:
        """Support files and file I/O names: flat, bounded, and never a file the sandbox writes itself."""
        if len(self.files) > TASK_MAX_FILES:
            raise TaskError(f"{where}.files", f"more than {TASK_MAX_FILES} files")
        total = sum(len(v.encode("utf-8", "surrogatepass")) for v in self.files.values())
        if total > TASK_MAX_FILES_BYTES:
            raise TaskError(f"{where}.files", f"{total} bytes, over the {TASK_MAX_FILES_BYTES}-byte limit")
        for name in self.files:
            self._check_name(name, f"{where}.files[{name!r}]")
            if name in CHECKER_FILES:
                raise TaskError(f"{where}.files[{name!r}]", f"is a name the checker's dir uses ({sorted(CHECKER_FILES)})")
            if name in (self.input_file, self.output_file):
                raise TaskError(f"{where}.files[{name!r}]", "is also the input_file or output_file")
        for key in ("input_file", "output_file"):
            name = getattr(self, key)
            if name:
                self._check_name(name, f"{where}.{key}")
                if not self.tests:
                    raise TaskError(f"{where}.{key}", "needs stdin tests (`tests`)")
        if self.input_file and self.input_file == self.output_file:
            raise TaskError(f"{where}.output_file", "must differ from input_file")

    def _check_name(self, name: str, where: str) -> None:
        if not FILE_NAME.match(name) or name in (".", ".."):
            raise TaskError(where, "must be a plain file name (letters, digits, _ . + -; no '/', "
                                   "not starting with '.', at most 100 characters)")
        stem, _, ext = name.partition(".")
        if stem == "prog" or (self.language == "java" and ext.rpartition(".")[2] in ("java", "class")):
            raise TaskError(where, "clashes with the program's own source or binary (prog, prog.*, *.java, *.class)")

    def _validate_kinds(self, where: str) -> None:
        """Which test kinds go together (docs/tasks.md "Task schema"): stdin tests (with test_code
        too), or call_tests alone; a framework needs its test file; entry_point is a name."""
        one_of(self.test_framework, TEST_FRAMEWORKS, f"{where}.test_framework")
        if self.entry_point and not (self.entry_point.isidentifier() and not keyword.iskeyword(self.entry_point)):
            raise TaskError(f"{where}.entry_point", f"must be a Python identifier, got {self.entry_point[:100]!r}")
        if self.test_framework != "assert" and not self.test_code:
            raise TaskError(f"{where}.test_framework", f"{self.test_framework!r} needs test_code (the test file)")
        if not self.call_tests:
            return
        if self.language not in CALL_TEST_LANGUAGES:
            raise TaskError(f"{where}.call_tests", f"needs language one of {list(CALL_TEST_LANGUAGES)}, "
                                                   f"got {self.language!r}")
        if not self.entry_point:
            raise TaskError(f"{where}.entry_point", "is needed with call_tests (the function to call)")
        if self.tests or self.test_code:
            raise TaskError(f"{where}.call_tests", "cannot be combined with stdin tests or test_code")
        if self.checker:
            raise TaskError(f"{where}.checker", "does not apply to call_tests (they compare return values)")
        for i, t in enumerate(self.call_tests):
            t.validate(f"{where}.call_tests[{i}]")

    def to_dict(self, wire: bool = False) -> dict:
        """The plain dict the graders take (every default filled in); wire=True: only wire keys."""
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name in self.keys(wire)}
        d["kind"] = "code"
        d["tests"] = [dataclasses.asdict(t) for t in self.tests]
        d["call_tests"] = [t.to_dict() for t in self.call_tests]
        if "files" in d:
            d["files"] = dict(self.files)
        return d


def _list(obj: Mapping, key: str, where: str) -> list | tuple:
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise TaskError(f"{where}.{key}", f"must be a list, got {type(value).__name__}")
    return value


def get_files(obj: Mapping, where: str) -> dict[str, str]:
    """`files`: an object of name -> text (validated by CodeTask.validate_files)."""
    value = obj.get("files")
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise TaskError(f"{where}.files", f"must be an object of file name -> text, got {type(value).__name__}")
    for name, text in value.items():
        if not isinstance(name, str):
            raise TaskError(f"{where}.files", f"file names must be strings, got {type(name).__name__}")
        if not isinstance(text, str):
            raise TaskError(f"{where}.files[{name!r}]", f"must be a string, got {type(text).__name__}")
        try:
            (name + text).encode("utf-8")
        except UnicodeEncodeError:
            raise TaskError(f"{where}.files[{name!r}]", "is not valid UTF-8 (lone surrogate)") from None
    return dict(value)
