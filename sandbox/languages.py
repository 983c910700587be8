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
    env: tuple[tuple[str, str], ...] = ()  # set for compile and run (toolchains that need writable dirs)

    def __reuse_key__(self) -> str:
        """A reuse key (sandbox/keys.py) reads a language as its name: one Language per name, the
        table below (code, not data), so the name stands for every field in this process."""
        return self.name


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
    "rust": Language(
        name="rust", source="prog.rs",
        # one codegen unit: rustc's 16 codegen threads cost 21 s of CPU under gVisor's ptrace platform
        # (2.2 s under runc; 4 s with one unit), past the 20 s compile limit: a right answer failed
        compile=("rustc", "-O", "--edition", "2021", "-C", "debuginfo=0", "-C", "codegen-units=1", "-o", "prog", "prog.rs"),
        run=("./prog",), aliases=("rust", "rs", "rustc"), exec_work=True,
        # the global allocator's message before it aborts
        oom_markers=(b"memory allocation of ",),
    ),
    "go": Language(
        name="go", source="prog.go",
        compile=("go", "build", "-o", "prog", "prog.go"),
        run=("./prog",), aliases=("go", "golang"), exec_work=True,
        oom_markers=(b"runtime: out of memory",),
        # The root is read-only: the build cache and temp files go to /tmp (wiped after every job);
        # GOPATH mode and no proxy, as there is no network and only the standard library. No
        # -trimpath: it makes the image's precompiled standard library stale (8 s, not 0.3 s, a build).
        env=(("GOCACHE", "/tmp/go-cache"), ("GOTMPDIR", "/tmp"), ("GOPATH", "/tmp/go"),
             ("GO111MODULE", "off"), ("GOPROXY", "off"), ("CGO_ENABLED", "0"),
             ("GOMAXPROCS", "1")),  # one core per container: CPU time is not the GC's threads racing
    ),
}

# One pass over Java source: comments, string, text-block and char literals are matched whole (and
# skipped), so "public class Solution" inside them is not code. Every alternative either matches or
# fails on its first character, and unterminated comments or literals run to the end (of the text
# or the line) instead of failing after a scan: linear time on any input.
_JAVA_TOKEN = re.compile(
    r'//[^\n]*|/\*[\s\S]*?(?:\*/|\Z)|"""[\s\S]*?(?:"""|\Z)|"(?:[^"\\\n]|\\.)*"?|\'(?:[^\'\\\n]|\\.)*\'?'
    r"|([A-Za-z_$][A-Za-z0-9_$]*)|([{}();.])")
_JAVA_TYPES = frozenset(("class", "interface", "enum"))
_MODIFIERS = frozenset(("public", "static", "void"))
_MAIN_HEAD = frozenset(("static", "void"))
MAX_CLASS_NAME = 200  # file names are at most 255 bytes; a longer name is the program's compile error


def java_main_class(code: str) -> str:
    """The class javac wants the file named after: the public top-level type, else the class whose
    body holds `static void main(`, else "Main" (javac then reports what is wrong)."""
    depth = 0
    classes: list[tuple[str, int]] = []  # enclosing classes: (name, depth of their body)
    head: set[str] = set()  # modifier words since the last { } or ; (of the declaration at hand)
    prev = ""  # the previous token
    naming = False  # the last word was class/interface/enum: the next word is a type name
    pending = ""  # a type named, its body not yet opened
    with_main = ""
    for m in _JAVA_TOKEN.finditer(code):
        word, punct = m.group(1), m.group(2)
        if word:
            if naming:
                naming = False
                if depth == 0 and "public" in head and len(word) <= MAX_CLASS_NAME:
                    return word
                pending = word
            elif word in _JAVA_TYPES and prev != ".":  # Foo.class is an expression
                naming = True
            elif word in _MODIFIERS:
                head.add(word)
            prev = word
            continue
        if not punct:  # a comment or a literal
            continue
        naming = False
        if punct == "(" and prev == "main" and not with_main and classes and _MAIN_HEAD <= head:
            with_main = classes[-1][0]
        elif punct == "{":
            depth += 1
            if pending:
                classes.append((pending, depth))
                pending = ""
            head = set()
        elif punct == "}":
            if classes and classes[-1][1] == depth:
                classes.pop()
            depth = max(0, depth - 1)
            head = set()
        elif punct == ";":
            pending, head = "", set()
        prev = punct
    return with_main if with_main and len(with_main) <= MAX_CLASS_NAME else "Main"


def alias_map() -> dict[str, str]:
    """Fence tag (lowercase) -> canonical language name."""
    return {a: lang.name for lang in LANGUAGES.values() for a in lang.aliases}


def fill(argv: tuple[str, ...], **values: object) -> list[str]:
    """Substitute {mem}/{main} in a command template."""
    return [a.format(**values) if "{" in a else a for a in argv]
