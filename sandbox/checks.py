"""Pure grading logic: code extraction, output comparators, per-test verdicts, scoring.

No Docker here: everything takes the runner's measured facts (exit status, CPU time, OOM record,
captured bytes) and decides. Output is untrusted bytes and is compared as bytes, so invalid
UTF-8 can neither crash a comparison nor be "fixed up" into a match.
"""
from __future__ import annotations

import ast
import math
import re
import signal
import threading
from collections.abc import Iterator
from typing import NamedTuple

from .languages import Language, alias_map
from .contract import DEFAULT_COMPARE, DEFAULT_FLOAT_TOL, DETAIL_MAX, PASSING
from .contract import SANDBOX_VERDICTS as VERDICTS  # noqa: F401  (sandbox.VERDICTS, the package's public name)

# CPython 3.11's ast module keeps its recursion depth in state shared by every thread: two threads in
# ast.parse at once (the grader's two planning threads: a repo task's decoys, a code task's test count)
# raised "SystemError: AST constructor recursion depth mismatch" out of the plan, seen under load by
# scripts/validate_repo_tasks.py. The host side parses through this one lock.
_AST_LOCK = threading.Lock()


def parse_python(source: str) -> ast.Module:
    """ast.parse, one thread at a time (_AST_LOCK); raises what ast.parse raises."""
    with _AST_LOCK:
        return ast.parse(source)

TAMPERED = "the program changed the sandbox supervisor's limits, CPU affinity or priority"

_THINK_END = "</think>"

# End-of-turn, end-of-text and padding tokens of the chat templates trainers decode with special tokens
# kept (OpenRLHF: skip_special_tokens=False): ChatML / Qwen / Phi-4 / OLMo (<|im_end|>, <|endoftext|>),
# Llama 3 and 4 (<|eot_id|>, <|eom_id|>, <|end_of_text|>, <|eot|>, <|finetune_right_pad_id|>),
# Llama 2 / Mistral (</s>), Gemma (<end_of_turn>, <eos>, <pad>), Phi-3 (<|end|>), gpt-oss (<|return|>),
# DeepSeek V2/V3/R1 (<｜end▁of▁sentence｜>, fullwidth bars), DeepSeek-Coder (<|EOT|>), pad tokens.
END_TOKENS = ("<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|eom_id|>", "<|end_of_text|>", "<|eot|>",
              "<|finetune_right_pad_id|>", "</s>", "<end_of_turn>", "<eos>", "<pad>", "<|end|>", "<|return|>",
              "<\uff5cend\u2581of\u2581sentence\uff5c>", "<|EOT|>", "<|pad|>", "[PAD]")
_END_TOKEN_SET = frozenset(END_TOKENS)
_END_TOKEN_MAX = max(map(len, END_TOKENS))


# ----------------------------------------------------------------------------- extraction
def strip_end_tokens(completion: str) -> str:
    """The completion without the end and padding tokens (END_TOKENS) that trail it, repeated, with the
    whitespace between them. One home for every reader of a completion (code here, math in
    verifier/math/extract.py): a token anywhere but the very end is text and stays, so it cannot
    change what an answer says, only stop a closing fence or a boxed answer from being read.
    Linear, and C-level string work per step (the server reads math answers on its event loop):
    each step moves one index back past one token and the whitespace before it."""
    end = len(completion.rstrip())
    stripped = False
    while True:
        window = max(0, end - _END_TOKEN_MAX)
        start = max(completion.rfind("<", window, end), completion.rfind("[", window, end))
        if start < 0 or completion[start:end] not in _END_TOKEN_SET:
            return completion[:end] if stripped else completion
        end = start
        while end and completion[end - 1].isspace():  # whitespace between tokens: short in practice
            end -= 1
        stripped = True


def extract_code(completion: str, language: str) -> tuple[str, str]:
    """Pick the program out of a model's text. Returns (code, how) where how is
    'fenced:<language>' (last block tagged with the language or an alias), 'fenced' (last block
    of any tag), 'raw' (no fence: the whole text) or 'none' (nothing but whitespace).

    Text before a closing </think> is ignored: draft code in the reasoning is not the answer.
    End-of-turn tokens after the answer (strip_end_tokens) are not part of it.
    An unterminated last fence (a truncated generation) counts as a block up to the end.
    """
    text = strip_end_tokens(completion or "")
    if _THINK_END in text:
        text = text.rsplit(_THINK_END, 1)[1]
    blocks = fenced_blocks(text)
    aliases = alias_map()
    tagged = [code for tag, code in blocks if aliases.get(tag) == language]
    if tagged:
        code, how = tagged[-1], f"fenced:{language}"
    elif blocks:
        code, how = blocks[-1][1], "fenced"
    else:
        code, how = text, "raw"
    if not code.strip():
        return "", "none"
    return code, how


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """[(tag, body)] for each ``` or ~~~ fenced block, in order; an unterminated last one (a truncated
    generation) runs to the end, without a final newline."""
    blocks = []
    for block in scan_fences(text.split("\n")):
        if isinstance(block, Fenced):
            body = "\n".join(block.lines)
            blocks.append((block.tag, body + "\n" if block.closed and block.lines else body))
    return blocks


class Fenced(NamedTuple):
    """One fenced block of scan_fences."""
    tag: str  # the info string's first word, lowercased, without braces or dots ("" when none)
    lines: list[str]  # the body's lines, without their newlines
    closed: bool  # False: the text ended inside the block (a truncated generation)


def scan_fences(lines: list[str], column_0: bool = False) -> Iterator[int | Fenced]:
    """The text's lines in order: each line outside every fence as its index, each fenced block as a
    Fenced. The one fence reader for code (fenced_blocks) and for a repository task's diff
    (sandbox/repo/patch.py, column_0=True: a fence opens and closes in column 0 only, since a context
    line of a Markdown file in a hunk is a space and a fence, which must not end or start a block).

    Line by line, no regex: each line is looked at at most twice, so the time is linear in the text.
    (A regex here took 11 minutes on a 256 KB line of spaces between fences, holding the GIL.)
    """
    i = 0
    while i < len(lines):
        opening = opening_fence(lines[i], column_0)
        if opening is None:
            yield i
            i += 1
            continue
        fence, info = opening
        tag = info.split()[0].strip("{}.").lower() if info else ""
        j = i + 1
        while j < len(lines) and not _closes(lines[j], fence, column_0):
            j += 1
        yield Fenced(tag, lines[i + 1:j], j < len(lines))
        i = j + 1


def opening_fence(line: str, column_0: bool = False) -> tuple[str, str] | None:
    """(fence, info string) when the line opens a fence: 3+ backticks or tildes (indented by spaces
    or tabs, unless column_0), then an info string without backticks."""
    stripped = line if column_0 else line.lstrip(" \t")
    char = stripped[:1]
    if char not in ("`", "~"):
        return None
    n = len(stripped) - len(stripped.lstrip(char))
    rest = stripped[n:]
    if n < 3 or "`" in rest:
        return None
    return stripped[:n], rest.strip()


def _closes(line: str, fence: str, column_0: bool) -> bool:
    """A closing fence: the same character, at least as many, nothing else but spaces or tabs (only
    after it, when column_0)."""
    stripped = line.rstrip(" \t") if column_0 else line.strip(" \t")
    return len(stripped) >= len(fence) and stripped == fence[0] * len(stripped)


# ----------------------------------------------------------------------------- comparators
def compare(output: bytes, expected: bytes, how: str = DEFAULT_COMPARE, abs_tol: float = DEFAULT_FLOAT_TOL,
            rel_tol: float = DEFAULT_FLOAT_TOL) -> tuple[bool, str]:
    """Compare program output with the expected output. Lengths always count: a missing line or
    token is a difference. 'tokens_ci' folds ASCII letters only (YES = yes; bytes.lower() leaves
    every other byte as it is, so no locale or Unicode folding can make two answers equal).
    Returns (equal, short reason)."""
    if how == "exact":
        return (True, "") if output == expected else (False, _first_diff(output, expected))
    if how == "lines":
        a, b = _lines(output), _lines(expected)
        if len(a) != len(b):
            return False, f"{len(a)} lines, expected {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return False, f"line {i + 1}: got {_show(x)}, expected {_show(y)}"
        return True, ""
    a, b = output.split(), expected.split()
    if len(a) != len(b):
        return False, f"{len(a)} tokens, expected {len(b)}"
    for i, (x, y) in enumerate(zip(a, b)):
        if x == y:
            continue
        if how == "float" and _floats_close(x, y, abs_tol, rel_tol):
            continue
        if how == "tokens_ci" and x.lower() == y.lower():
            continue
        return False, f"token {i + 1}: got {_show(x)}, expected {_show(y)}"
    return True, ""


def _lines(data: bytes) -> list[bytes]:
    lines = [ln.rstrip() for ln in data.replace(b"\r\n", b"\n").split(b"\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


_INT = re.compile(rb"[+-]?\d+\Z")


def _floats_close(x: bytes, y: bytes, abs_tol: float, rel_tol: float) -> bool:
    """Tolerance applies only when the expected token is a non-integer number: an integer answer
    needs an integer token of the same value ('3.0' is not '3', '1000000000.0' not 1000000007)."""
    if _INT.match(y):
        return bool(_INT.match(x)) and _int_digits(x) == _int_digits(y)
    try:
        a, b = float(x), float(y)
    except ValueError:
        return False
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    d = abs(a - b)
    return d <= abs_tol or d <= rel_tol * abs(b)


def non_finite(data: bytes) -> bytes | None:
    """The first token that parses as a number but not a finite one (nan, -NaN, +inf, Infinity,
    1e999: any case, any sign), or None. A checker's usual test `abs(a - b) > eps` is False for
    nan, so it would accept one; the sandbox refuses such a token before asking the checker when
    the expected output has none (docs/sandboxes.md "Code sandboxes"). Linear: only tokens holding an
    n or an e (every spelling of nan, inf and an exponent does) are parsed."""
    for t in data.split():
        if not (b"n" in t or b"N" in t or b"e" in t or b"E" in t):
            continue
        try:
            x = float(t)
        except ValueError:
            continue
        if not math.isfinite(x):
            return t
    return None


def _int_digits(t: bytes) -> tuple[bool, bytes]:
    """(negative, digits without leading zeros) of an integer token; no int(): a 5000-digit token
    would raise ValueError (the interpreter's int-string limit)."""
    digits = t.lstrip(b"+-").lstrip(b"0") or b"0"
    return t.startswith(b"-") and digits != b"0", digits


def _first_diff(a: bytes, b: bytes) -> str:
    n = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"differs at byte {n} (got {len(a)} bytes, expected {len(b)})"


def _show(b: bytes, n: int = 40) -> str:
    s = b[:n].decode("utf-8", "replace")
    return repr(s + ("..." if len(b) > n else ""))


# ----------------------------------------------------------------------------- verdicts
def run_verdict(facts: dict, lang: Language, time_limit_s: float) -> tuple[str | None, str]:
    """Verdict of one process run from the runner's facts, before any output comparison.
    None means it ran to a clean exit 0 within limits (compare its output next)."""
    if facts.get("tampered"):
        return "runtime_error", TAMPERED
    if facts.get("spawn_error"):
        return "infra_error", f"could not start the program: {facts['spawn_error']}"
    stderr = facts.get("stderr_b", b"")
    stop = facts.get("stop")
    sig = facts.get("signal")
    if stop == "stdout" or sig == signal.SIGXFSZ:  # stderr is drained, never a stop (docs/sandboxes.md "Code sandboxes")
        what = "file size" if sig == signal.SIGXFSZ and stop is None else stop
        return "output_limit", f"{what} over its limit"
    if stop == "files":  # more than tmpfs_inodes where the runner counts them (gVisor: harness/inode_cap.py inodes_cap)
        return "output_limit", "files over the sandbox's inode limit (tmpfs_inodes)"
    if facts.get("host_threads"):  # the host's watchdog killed it (sandbox/watchdog.py): its detail says why
        return "runtime_error", str(facts["host_threads"])
    if facts.get("oom") or any(m in stderr for m in lang.oom_markers):
        return "memory_limit", "memory limit exceeded"
    if stop in ("cpu", "wall") or sig == signal.SIGXCPU or facts.get("cpu_s", 0) > time_limit_s:
        kind = "wall-clock" if stop == "wall" else "CPU"
        return "time_limit", f"{kind} time limit exceeded ({facts.get('cpu_s', 0):.2f}s CPU, {facts.get('wall_s', 0):.2f}s wall)"
    if sig:
        return "runtime_error", f"killed by {_signame(sig)}" + _tail(stderr)
    if facts.get("exit_code") not in (0, None):
        return "runtime_error", f"exit code {facts['exit_code']}" + _tail(stderr)
    if facts.get("exit_code") is None:
        return "infra_error", "the program's exit status was lost"
    return None, ""


def _signame(sig: int) -> str:
    try:
        return signal.Signals(sig).name
    except ValueError:
        return f"signal {sig}"


def _tail(stderr: bytes, n: int = 200) -> str:
    text = stderr.decode("utf-8", "replace").strip()
    if not text:
        return ""
    # The exception line, not the stack under it: last unindented line that is not a banner, or the
    # panic line of Go ("panic: ...", above its goroutine dump) and Rust ("thread 'main' panicked").
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln[0].isspace() and not ln.startswith(_BANNERS)]
    panic = next((ln for ln in lines if ln.startswith(_PANICS)), None)
    return ": " + (panic or (lines[-1] if lines else text.splitlines()[-1]))[-n:]


_BANNERS = ("Node.js v", "note: run with `RUST_BACKTRACE=1`")
_PANICS = ("panic: ", "fatal error: ", "thread 'main' panicked")


def compile_detail(facts: dict) -> str:
    """Compiler output, first lines: what a human needs to see a compile error."""
    out = (facts.get("stderr_b", b"") or facts.get("stdout_b", b"")).decode("utf-8", "replace")
    lines = [ln for ln in out.strip().splitlines()
             if not ln.startswith(("Traceback (most recent call last)", '  File "<string>"'))]
    return clip("\n".join(lines) or f"compiler exit code {facts.get('exit_code')}")


def clip(text: str, n: int = DETAIL_MAX) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def score(verdicts: list[str], total: int, scoring: str) -> float:
    """'all': 1.0 only when every test passed; 'fraction': passed / total (unrun tests fail)."""
    passed = sum(v in PASSING for v in verdicts)
    if total <= 0:
        return 0.0
    if scoring == "fraction":
        return passed / total
    return 1.0 if passed == total and len(verdicts) == total else 0.0


def overall(verdicts: list[str]) -> str:
    """The task's verdict: accepted when all passed, else the first failing test's verdict."""
    return next((v for v in verdicts if v not in PASSING), "accepted") if verdicts else "accepted"
