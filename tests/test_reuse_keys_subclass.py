"""Red team of issue 29's reuse keys: a str subclass (numpy.str_, a dataset library's string type) in a
task dict from the Python API. The contract's decoders took it as it was, and `reuse_key` refuses a
subclass (sandbox/keys.py: it may compare as its base), so every such item became `infra_error`
("internal error: TypeError"), ungraded: a math gold or choice, a code task's test_code, entry point
or checker. On main before the keys change the old hashes read the text and graded it.

The decoders (sandbox/contract.py get_str, get_files) now hand a model the plain text a subclass
holds: a model's strings are exact `str`, what every key and every program sees (docs/service.md
"Reuse keys"). Real math workers (the engine in this process) and real plans; no Docker."""
from __future__ import annotations

import asyncio

from sandbox import SandboxConfig
from sandbox.contract import parse_task
from sandbox.plan import make_plan


class Text(str):
    """A str subclass, as numpy.str_ is."""


def test_math_fields_of_a_str_subclass_are_graded_not_infra_error():
    from verifier.config import ServerConfig
    from verifier.engine import Engine

    async def run() -> dict[str, str]:
        engine = Engine(ServerConfig(workers=1, code=False))
        engine.start_workers()
        await engine.start()
        try:
            out = await engine.grade([
                {"id": "gold", "kind": "math", "completion": "so \\boxed{3}", "gold": Text("3")},
                {"id": "wrong", "kind": "math", "completion": "so \\boxed{4}", "gold": Text("3")},
                {"id": "completion", "kind": "math", "completion": Text("so \\boxed{\\sqrt{2}\\pi}"), "gold": "\\pi\\sqrt{2}"},
                {"id": "choice", "kind": "math", "completion": "Answer: B", "gold": Text("B"),
                 "choices": [Text("red"), Text("blue")], "profile": Text("strict")},
            ])
        finally:
            await engine.close()
        return {r["id"]: r["verdict"] for r in out}

    assert asyncio.run(run()) == {"gold": "correct", "wrong": "incorrect", "completion": "correct", "choice": "correct"}


def _code(**fields) -> dict:
    return {"id": "t", "kind": "code", "language": "python", "completion": "```python\ndef f(x):\n    return x\n```", **fields}


def test_code_fields_of_a_str_subclass_key_as_their_text():
    """The plan of a task whose strings are a subclass keys as the plan of the same plain text (one
    program, one run), never a TypeError (which the grader answered infra_error)."""
    config = SandboxConfig()
    for fields in ({"test_code": "assert f(1) == 1", "entry_point": "f"},
                   {"tests": [{"stdin": "1\n", "expected_stdout": "1\n"}], "checker": "def check(i, o, a):\n    return True"},
                   {"tests": [{"stdin": "1\n", "expected_stdout": "1\n"}], "files": {"data.txt": "7"}}):
        plain = make_plan(parse_task(_code(**fields)), config)
        sub = {k: (Text(v) if isinstance(v, str) else v) for k, v in fields.items()}
        if "files" in sub:
            sub["files"] = {Text(k): Text(v) for k, v in fields["files"].items()}
        if "tests" in sub:
            sub["tests"] = [{k: Text(v) for k, v in t.items()} for t in fields["tests"]]
        task = parse_task(_code(**sub))
        assert all(type(getattr(task, k)) is not Text for k in ("test_code", "entry_point", "checker"))
        assert make_plan(task, config).share_key() == plain.share_key(), fields
