"""Pure grading rules of the sandbox: extraction, comparators, verdict mapping, scoring, plans."""
from __future__ import annotations

import signal

import pytest

from sandbox.checks import compare, extract_code, non_finite, overall, run_verdict, score
from sandbox.config import SandboxConfig
from sandbox.plan import InfraFailure, Plan, make_plan
from sandbox.contract import TaskError
from sandbox.languages import LANGUAGES, java_main_class

PY = LANGUAGES["python"]


# ---------------------------------------------------------------- extraction
def test_extract_prefers_last_block_tagged_with_language():
    text = "```python\nA\n```\ntext\n```cpp\nB\n```\n```py\nC\n```\n```js\nD\n```"
    assert extract_code(text, "python") == ("C\n", "fenced:python")
    assert extract_code(text, "cpp") == ("B\n", "fenced:cpp")
    assert extract_code(text, "javascript") == ("D\n", "fenced:javascript")


def test_extract_aliases_and_untagged_fallback():
    assert extract_code("```c++\nint main(){}\n```", "cpp")[1] == "fenced:cpp"
    assert extract_code("```python3\nx=1\n```", "python")[1] == "fenced:python"
    assert extract_code("```\nfirst\n```\n```\nlast\n```", "java") == ("last\n", "fenced")
    assert extract_code("```rust\nfn main(){}\n```", "c") == ("fn main(){}\n", "fenced")


def test_extract_raw_none_unterminated_and_think():
    assert extract_code("print(1)", "python") == ("print(1)", "raw")
    assert extract_code("   \n\t", "python") == ("", "none")
    assert extract_code("```python\n\n```", "python") == ("", "none")
    assert extract_code("intro\n```python\nprint(2)\n", "python") == ("print(2)\n", "fenced:python")
    draft = "<think>```python\nprint('draft')\n```</think>\n```python\nprint('final')\n```"
    assert extract_code(draft, "python") == ("print('final')\n", "fenced:python")
    assert extract_code("<think>```python\nx\n```</think>", "python") == ("", "none")


def test_java_main_class():
    assert java_main_class("public class Solution { }") == "Solution"
    assert java_main_class("class A {}\nclass B { public static void main(String[] a){} }") == "B"
    assert java_main_class("interface X {}") == "Main"
    assert java_main_class("public final class Sol<T> extends B implements C { }") == "Sol"
    assert java_main_class("public interface Shape {}\nclass Main { public static void main(String[] a){} }") == "Shape"


@pytest.mark.parametrize("code, name", [
    # comments, strings, text blocks and char literals are not code
    ("/* public class Solution {} */ class Main { public static void main(String[] a){} }", "Main"),
    ("// public class Solution\nclass Main { public static void main(String[] a){} }", "Main"),
    ('class A { String s = "public class X {"; public static void main(String[] a){} }', "A"),
    ('class A { String s = """\n  public class X {\n  """; static public void main(String[] a){} }', "A"),
    ("class A { char c = '{'; public static void main(String[] a){} }", "A"),
    ('class A { String s = "\\"public class X"; public static void main(String[] a){} }', "A"),
    # Foo.class is an expression, main in a later class, nested classes, an unterminated comment
    ("class A { Object o = String.class; }\nclass B { public static void main(String[] a){} }", "B"),
    ("class Outer { static class In { } public static void main(String[] a){} }", "Outer"),
    ("class A { void main() {} }\nclass B { public static void main(String... a){} }", "B"),
    ("class A { public static void main(String[] a){} } /* public class Z {", "A"),
    ("public class " + "X" * 300 + " {}", "Main"),  # too long for a file name: javac says so (compile_error)
])
def test_java_main_class_reads_code_not_comments_or_strings(code, name):
    assert java_main_class(code) == name


def test_extract_code_is_linear_on_adversarial_text():
    """A fence, 256 KB of spaces and a backtick made the fence regex quadratic: 11 minutes holding
    the GIL (so the whole server). A hang guard, not a timing: the fix takes milliseconds."""
    import subprocess
    import sys
    code = ("from sandbox.checks import extract_code as f\n"
            "print(f('```' + ' ' * 262144 + '`', 'python')[1], f(('```' + ' ' * 2000 + '`\\n') * 128, 'java')[1])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["raw", "raw"], out.stderr


# ---------------------------------------------------------------- comparators
def test_exact_and_lines():
    assert compare(b"1\n2\n", b"1\n2\n", "exact")[0]
    assert not compare(b"1\n2", b"1\n2\n", "exact")[0]
    assert compare(b"a  \nb\n\n\n", b"a\nb", "lines")[0]
    assert compare(b"a\r\nb\r\n", b"a\nb\n", "lines")[0]
    assert not compare(b" a\nb", b"a\nb", "lines")[0]  # leading whitespace counts
    ok, why = compare(b"1\n", b"1\n2\n", "lines")
    assert not ok and "1 lines, expected 2" in why  # a missing line is a wrong answer


def test_tokens_lengths_always_compared():
    assert compare(b"1  2\n3", b"1 2 3\n", "tokens")[0]
    assert not compare(b"1 2", b"1 2 3", "tokens")[0]
    assert not compare(b"1 2 3 4", b"1 2 3", "tokens")[0]
    assert not compare(b"", b"0", "tokens")[0]


@pytest.mark.parametrize("output", [b"YES\n", b"yes", b"Yes\n", b"yEs \n"])
def test_tokens_ci_accepts_any_ascii_case(output):
    assert compare(output, b"YES\n", "tokens_ci")[0]
    assert compare(b"Yes 3 nO", b"YES 3 NO", "tokens_ci")[0]


@pytest.mark.parametrize("output, expected", [
    (b"NO", b"YES"), (b"yes!", b"yes"), (b"yes", b"yes yes"), (b"YES YES", b"YES"), (b"ye s", b"yes"),
    (b"", b"yes"), (b"\xc3\x89T\xc3\x89", b"\xc3\xa9t\xc3\xa9"),  # ASCII only: no Unicode folding
    (b"yes", b"YES\nNO"),
])
def test_tokens_ci_near_misses_fail(output, expected):
    assert not compare(output, expected, "tokens_ci")[0]
    assert not compare(output, expected, "tokens")[0]  # case-sensitive tokens stay strict


def test_float_tolerance_abs_or_rel_and_integers_exact():
    assert compare(b"0.3333333", b"0.333333333", "float", abs_tol=1e-6, rel_tol=0)[0]
    assert not compare(b"0.33", b"0.333333333", "float", abs_tol=1e-6, rel_tol=1e-6)[0]
    assert compare(b"1000000.5", b"1000000.0", "float", abs_tol=0, rel_tol=1e-6)[0]
    assert not compare(b"3", b"4", "float", abs_tol=10, rel_tol=10)[0]  # integers compare exactly
    assert compare(b"nan inf", b"nan inf", "float")[0]
    assert not compare(b"inf", b"1e308", "float", abs_tol=1e-6, rel_tol=1e-6)[0]
    assert not compare(b"abc", b"1.0", "float")[0]


def test_invalid_utf8_is_compared_safely():
    ok, why = compare(b"\xff\xfe\n", b"ok\n", "lines")
    assert not ok and "\ufffd" in why
    assert compare(b"\xff \x80", b"\xff \x80", "tokens")[0]


# ---------------------------------------------------------------- verdicts
@pytest.mark.parametrize("facts,verdict", [
    ({"exit_code": 0, "cpu_s": 0.1}, None),
    ({"exit_code": 3, "cpu_s": 0.1}, "runtime_error"),
    ({"signal": signal.SIGSEGV, "cpu_s": 0.1}, "runtime_error"),
    ({"signal": signal.SIGKILL, "oom": True, "cpu_s": 0.1}, "memory_limit"),
    ({"exit_code": 1, "stderr_b": b"Traceback\n...\nMemoryError\n"}, "memory_limit"),
    ({"signal": signal.SIGKILL, "stop": "cpu", "cpu_s": 2.01}, "time_limit"),
    ({"signal": signal.SIGKILL, "stop": "wall", "cpu_s": 0.0}, "time_limit"),
    ({"signal": signal.SIGXCPU, "cpu_s": 3.0}, "time_limit"),
    ({"exit_code": 0, "cpu_s": 2.5}, "time_limit"),
    ({"signal": signal.SIGKILL, "stop": "stdout"}, "output_limit"),
    ({"signal": signal.SIGXFSZ}, "output_limit"),
    ({"spawn_error": "ENOENT"}, "infra_error"),
])
def test_run_verdict(facts, verdict):
    assert run_verdict(facts, PY, time_limit_s=2.0)[0] == verdict


def test_output_limit_wins_over_time_limit():
    assert run_verdict({"signal": 9, "stop": "stdout", "cpu_s": 5}, PY, 2.0)[0] == "output_limit"


def test_scoring_and_overall():
    assert score(["accepted"] * 3, 3, "all") == 1.0
    assert score(["accepted", "wrong_answer", "accepted"], 3, "all") == 0.0
    assert score(["accepted", "wrong_answer", "accepted"], 3, "fraction") == pytest.approx(2 / 3)
    assert score(["accepted", "wrong_answer"], 4, "fraction") == 0.25  # unrun tests count as failed
    assert score(["accepted"], 2, "all") == 0.0
    assert overall(["accepted", "time_limit", "wrong_answer"]) == "time_limit"
    assert overall(["accepted", "accepted"]) == "accepted"


# ---------------------------------------------------------------- plans (bad input answers, never crashes)
def test_plan_no_code_and_bad_inputs():
    cfg = SandboxConfig()
    r = make_plan({"language": "python", "completion": "```python\n```"}, cfg)
    assert isinstance(r, dict) and r["verdict"] == "no_code" and r["extracted_from"] == "none"
    with pytest.raises(TaskError, match="task.language: must be one of"):
        make_plan({"language": "cobol", "completion": "x"}, cfg)
    with pytest.raises(InfraFailure, match="not served"):
        make_plan({"language": "c", "completion": "x"}, SandboxConfig(languages=("python",)))
    with pytest.raises(TaskError, match="task.test_code: needs language"):
        make_plan({"language": "c", "completion": "int main(){}", "test_code": "assert 1"}, cfg)
    with pytest.raises(TaskError, match="task.judge: must be one of"):
        make_plan({"language": "python", "completion": "x", "test_code": "assert 1", "judge": "other"}, cfg)
    with pytest.raises(TaskError, match="task.compare"):
        make_plan({"language": "python", "completion": "x", "compare": "set"}, cfg)
    for key, value in (("time_limit_s", 999), ("memory_limit_mb", 99999)):  # refused, not silently clamped
        with pytest.raises(TaskError, match=f"task.{key}: must be in"):
            make_plan({"language": "java", "completion": "class A {}", key: value}, cfg)


def test_oversized_program_is_the_programs_fault():
    """Over max_code_bytes is a verdict that blames the program (score 0), as an oversized math answer
    gets 0: not infra_error (which the trainer maps to no reward) and not a whole-request error."""
    cfg = SandboxConfig()
    r = make_plan({"language": "python", "completion": "x" * (cfg.max_code_bytes + 1)}, cfg)
    assert isinstance(r, dict) and r["verdict"] == "compile_error" and r["score"] == 0.0
    assert f"over the {cfg.max_code_bytes}-byte limit" in r["detail"] and r["retryable"] is False
    assert isinstance(make_plan({"language": "python", "completion": "x" * cfg.max_code_bytes}, cfg), Plan)


def test_plan_fills_limits_and_commands():
    cfg = SandboxConfig()
    lim = cfg.limits_for("java")
    p = make_plan({"language": "java", "completion": "public class Foo { public static void main(String[] a){} }",
                   "time_limit_s": lim.max_time_limit_s, "memory_limit_mb": lim.max_memory_limit_mb}, cfg)
    assert p.time_limit_s == lim.max_time_limit_s and p.memory_mb == lim.max_memory_limit_mb
    assert "Foo.java" in p.files and p.run_argv[-1] == "Foo" and f"-Xmx{p.memory_mb}m" in p.run_argv
    assert p.tests == [(b"", None)]  # no tests: one clean run on empty input


def test_java_main_class_is_linear_on_adversarial_code():
    """F7: 'class a ' repeated (no '{') made the main-class regex quadratic (11 s for 256 KB, on the
    server's event loop). A hang guard, not a timing: 1 MiB took minutes before the fix."""
    import subprocess
    import sys
    code = "from sandbox.languages import java_main_class as f\nprint(f('class a ' * 131072), f('public ' + 'final ' * 170000))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["Main", "Main"], out.stderr


@pytest.mark.parametrize("got", [b"nan", b"NaN", b"-nan", b"+NAN", b"inf", b"-Inf", b"Infinity", b"-INFINITY",
                                 b"1e999", b"-1E400"])
def test_float_compare_never_takes_a_non_finite_token_for_a_finite_answer(got):
    """Our `compare: "float"` (issue 16): nan or inf, in any spelling, is no finite expected value."""
    for expected in (b"0.5", b"1.0", b"1e308", b"-1e308", b"0", b"3"):
        assert not compare(got, expected, "float", abs_tol=1e9, rel_tol=1e9)[0], (got, expected)


@pytest.mark.parametrize("data, token", [
    (b"nan", b"nan"), (b"1.5 -NaN\n", b"-NaN"), (b"0.1\n+inf", b"+inf"), (b"Infinity", b"Infinity"),
    (b"1 2 1e999", b"1e999"), (b"iNfInItY 3", b"iNfInItY"),
    (b"0.5 1e308 -2.5e-7", None), (b"YES banana none inf1 e5 nano", None), (b"", None), (b"1_0 3e2", None),
])
def test_non_finite_finds_every_spelling_of_nan_and_inf(data, token):
    assert non_finite(data) == token


def test_float_tolerance_never_applies_to_an_integer_answer():
    """F5: '1000000000.0' was within rel_tol 1e-6 of 1000000007 and accepted."""
    assert not compare(b"1000000000.0", b"1000000007", "float")[0]
    assert not compare(b"3.0", b"3", "float")[0]
    assert not compare(b"1000000006", b"1000000007", "float")[0]
    assert compare(b"+7", b"7", "float")[0] and compare(b"-0", b"0", "float")[0] and compare(b"007", b"7", "float")[0]
    assert compare(b"1000000000", b"1000000000.0000001", "float")[0]  # a non-integer answer keeps its tolerance


def test_float_comparator_survives_huge_integer_tokens():
    """F8b: int('1' * 5000) raised ValueError (int-string limit), an infra_error for a wrong answer."""
    assert not compare(b"1" * 5000, b"3", "float")[0]
    assert compare(b"1" * 5000, b"1" * 5000 + b" ", "float")[0]
    assert not compare(b"1" * 5000, b"0.5", "float")[0]


def test_plans_of_a_group_share_its_test_set_instead_of_copying_it():
    """The server queues every code job of a call at once (per-language queues), each with its plan:
    plans that held their own bytes copy of the tests held tasks x set size while they waited (a
    GRPO group of 64 on a 10 MB set: 640 MB; a 64 MB request of 1,024 tasks on one 32 MB set: 32 GB).
    Plans now encode each test when it runs: 40 plans of one 4 MB set hold less than one copy more."""
    import tracemalloc

    stdin, expected = "1 2\n" + "7 " * (1 << 20), "3\n" + "0 " * (1 << 20)  # 2 MB each, shared by every task
    tests = [{"stdin": stdin, "expected_stdout": expected}]
    config = SandboxConfig(languages=("python",))
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        plans = [make_plan({"language": "python", "completion": f"print({i})", "tests": tests}, config) for i in range(40)]
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < (4 << 20), f"{held} bytes held by 40 plans of one 4 MB test set"
    assert plans[7].tests[0] == (stdin.encode(), expected.encode()) and len(plans[7].tests) == 1
    assert [t for t in plans[0].tests] == [(stdin.encode(), expected.encode())]


def test_the_host_side_parses_python_through_one_lock() -> None:
    """sandbox/checks.py `parse_python`: CPython 3.11's ast module shares its recursion depth between threads,
    and two planning threads in ast.parse at once raised SystemError out of a repo task's plan. Every host-side
    module of sandbox/ parses through it (the harness runs in the sandbox, one job a process)."""
    import ast
    from pathlib import Path

    from sandbox.checks import parse_python

    root = Path(__file__).resolve().parents[1] / "sandbox"
    direct = [str(p.relative_to(root)) for p in root.rglob("*.py")
              if "harness" not in p.relative_to(root).parts and p.name != "checks.py" and "ast.parse(" in p.read_text()]
    assert direct == [], direct
    source = "def test_a():\n    assert f(1) == 2\n"
    assert ast.dump(parse_python(source)) == ast.dump(ast.parse(source))
