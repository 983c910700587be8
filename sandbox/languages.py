"""How each language is compiled and run inside its image: the one place that knows.

Command lines are templates: {mem} is the test's memory limit in MB (runtimes with their own heap
cap get it, so they fail with their own out-of-memory error instead of an opaque kill), {main} the
Java class name. Fence-tag aliases live here too, for code extraction.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    """One language: file name, compile and run commands, aliases, and out-of-memory markers."""

    name: str
    source: str  # program file name in the job directory
    run: tuple[str, ...]
    compile: tuple[str, ...] | None = None
    aliases: tuple[str, ...] = ()
    oom_markers: tuple[bytes, ...] = ()  # stderr text meaning the runtime's own heap cap was hit
    compile_memory: bool = True  # the compile step needs more memory than a test (a real compiler)
    exec_work: bool = False  # the program is a binary in /work; elsewhere /work is noexec (no native code of its own)


LANGUAGES: dict[str, Language] = {
    "python": Language(
        name="python", source="prog.py", run=("python3", "-I", "prog.py"),
        aliases=("python", "py", "python3", "py3", "python3.11"),
        oom_markers=(b"\nMemoryError",),
    ),
    "c": Language(
        name="c", source="prog.c",
        compile=("gcc", "-O2", "-std=gnu17", "-pipe", "-o", "prog", "prog.c", "-lm"),
        run=("./prog",), aliases=("c", "h", "gcc", "c17", "c11"), exec_work=True,
    ),
    "cpp": Language(
        name="cpp", source="prog.cpp",
        compile=("g++", "-O2", "-std=gnu++17", "-pipe", "-o", "prog", "prog.cpp"),
        run=("./prog",), aliases=("cpp", "c++", "cxx", "cc", "hpp", "g++", "cpp17", "c++17"), exec_work=True,
    ),
    "javascript": Language(
        name="javascript", source="prog.js",
        compile=("node", "--check", "prog.js"), compile_memory=False,
        run=("node", "--max-old-space-size={mem}", "--stack-size=65500", "prog.js"),
        aliases=("javascript", "js", "node", "nodejs", "mjs", "cjs"),
        oom_markers=(b"heap out of memory",),
    ),
    "java": Language(
        name="java", source="{main}.java",
        compile=("javac", "-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1", "-J-Xshare:auto",
                 "-J-Xss16m", "-encoding", "UTF-8", "-d", ".", "{main}.java"),
        run=("java", "-Xmx{mem}m", "-Xss64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
             "-Xshare:auto", "-cp", ".", "{main}"),
        aliases=("java", "java17"),
        oom_markers=(b"java.lang.OutOfMemoryError",),
    ),
}

_JAVA_PUBLIC_CLASS = re.compile(r"public\s+(?:final\s+|abstract\s+)*class\s+([A-Za-z_$][A-Za-z0-9_$]*)")
# The header between a class name and its "{" is bounded: unbounded, "class a class a ..." without
# a brace made every "class" scan to the end (quadratic; seconds for 256 KB).
_JAVA_MAIN_CLASS = re.compile(
    r"class\s+([A-Za-z_$][A-Za-z0-9_$]*)[^{]{0,1000}\{(?:(?!\bclass\b).)*?public\s+static\s+void\s+main\s*\(",
    re.S)


def java_main_class(code: str) -> str:
    """The class javac wants the file named after: the public class, else the one with main()."""
    m = _JAVA_PUBLIC_CLASS.search(code) or _JAVA_MAIN_CLASS.search(code)
    return m.group(1) if m else "Main"


def alias_map() -> dict[str, str]:
    """Fence tag (lowercase) -> canonical language name."""
    return {a: lang.name for lang in LANGUAGES.values() for a in lang.aliases}


def fill(argv: tuple[str, ...], **values: object) -> list[str]:
    """Substitute {mem}/{main} in a command template."""
    return [a.format(**values) if "{" in a else a for a in argv]
