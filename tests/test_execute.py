"""Execute (gRPC) and POST /v1/execute (HTTP): a real server on loopback, real Docker sandboxes."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import grpc
import pytest

from helpers import stub
from test_http import call
from verifier.client import VerifierClient, VerifierError
from verifier.local_server import LocalServer
from verifier.v1 import verifier_pb2 as pb

pytestmark = pytest.mark.docker

GREET = "name = input()\nprint('hello ' + name)\n"


@pytest.fixture(scope="module")
def server() -> Iterator[LocalServer]:
    with LocalServer("--workers", "1") as s:
        yield s


@pytest.fixture(scope="module")
def client(server) -> Iterator[VerifierClient]:
    with VerifierClient(server.target) as c:
        yield c


def http(server, body: dict) -> tuple[int, dict]:
    status, _, answer = call(server.http_url + "/v1/execute", body)
    return status, answer


def both(server, client, **request) -> list[dict]:
    """The same request over gRPC (the client) and HTTP: both answers, for the same checks."""
    status, answer = http(server, request)
    assert status == 200, answer
    return [client.execute(**request), answer]


def test_python_hello_with_stdin(server, client):
    for out in both(server, client, code=GREET, stdin="world\n"):
        assert out["status"] == "ok" and out["stdout"] == "hello world\n" and out["stderr"] == ""
        assert out["exit_code"] == 0 and out["signal"] == 0
        assert not out["stdout_truncated"] and not out["stderr_truncated"]
        assert out["peak_memory_kb"] > 1000 and out["wall_s"] > 0  # a python3 process, measured
    # a different stdin gives a different answer: stdin really is the program's
    assert client.execute(GREET, stdin="there\n")["stdout"] == "hello there\n"


def test_files_are_in_the_working_directory(server, client):
    code = "print(int(open('data.txt').read()) + int(open('more.txt').read()))"
    for out in both(server, client, code=code, files={"data.txt": "40\n", "more.txt": "2"}):
        assert out["status"] == "ok" and out["stdout"] == "42\n"
    missing = client.execute(code, files={"data.txt": "40\n"})  # near miss: one file left out
    assert missing["status"] == "runtime_error" and missing["exit_code"] == 1
    assert "FileNotFoundError" in missing["stderr"]
    c_code = '#include <stdio.h>\nint main(void){int x; FILE*f=fopen("n.txt","r"); fscanf(f,"%d",&x); printf("%d\\n",x*2);}'
    assert client.execute(c_code, language="c", files={"n.txt": "21"})["stdout"] == "42\n"


def test_c_compile_error(server, client):
    for out in both(server, client, code="int main( { return 0; }", language="c"):
        assert out["status"] == "compile_error" and "error" in out["stderr"]
        assert out["exit_code"] is None and out["stdout"] == ""
    ok = client.execute('#include <stdio.h>\nint main(void){puts("fine");return 0;}', language="c")
    assert ok["status"] == "ok" and ok["stdout"] == "fine\n"


def test_runtime_error_exit_code_and_signal(server, client):
    code = "import sys\nprint('partial')\nprint('bad', file=sys.stderr)\nsys.exit(3)"
    for out in both(server, client, code=code):
        assert out["status"] == "runtime_error" and out["exit_code"] == 3 and out["signal"] == 0
        assert out["stdout"] == "partial\n" and out["stderr"] == "bad\n"
    killed = client.execute("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)")
    assert killed["status"] == "runtime_error" and killed["signal"] == 11 and killed["exit_code"] is None


# serial: it asserts the CPU a spin gets within its wall limit, which another worker's load takes
@pytest.mark.serial
def test_time_limit(server, client):
    for out in both(server, client, code="while True:\n    pass", time_limit_s=1):
        assert out["status"] == "time_limit" and out["cpu_s"] >= 0.9


def test_memory_limit(server, client):
    out = client.execute("x = bytearray(400 << 20)\nprint(len(x))", memory_limit_mb=64)
    assert out["status"] == "memory_limit"
    fits = client.execute("x = bytearray(16 << 20)\nprint(len(x))", memory_limit_mb=256)
    assert fits["status"] == "ok" and fits["stdout"] == f"{16 << 20}\n"
    big = client.execute("x = b'x' * (100 << 20)\nprint(len(x))", memory_limit_mb=512)  # pages written: resident
    small = client.execute("print(1)")
    assert big["status"] == "ok" and big["peak_memory_kb"] > 100 << 10 > small["peak_memory_kb"]


def test_code_is_run_as_given(server, client):
    """Tool calls send the policy's code verbatim: a fence or </think> in a string literal is the program's
    (issue 18), not a completion to pick a block out of."""
    code = 'print("```python")\nprint("x = 1")\nprint("```")\nprint("</think>done")\n'
    for out in both(server, client, code=code):
        assert out["status"] == "ok" and out["stdout"] == "```python\nx = 1\n```\n</think>done\n", out
    fenced = client.execute("```python\nprint(1)\n```")  # near miss: a fenced text is not a program
    assert fenced["status"] == "compile_error"


def test_output_cap_sets_truncated(server, client):
    code = "import sys\nprint('x' * 100000)\nsys.stderr.write('e' * 5000)"
    for out in both(server, client, code=code, max_output_bytes=1000):
        assert out["status"] == "ok" and out["stdout"] == "x" * 1000 and out["stdout_truncated"]
        assert out["stderr"] == "e" * 1000 and out["stderr_truncated"]
    whole = client.execute(code, max_output_bytes=200000)  # near miss: under the cap nothing is cut
    assert whole["stdout"] == "x" * 100000 + "\n" and not whole["stdout_truncated"]
    flood = client.execute("import sys\nwhile True:\n    sys.stdout.write('y' * 65536)", time_limit_s=5)
    assert flood["status"] == "output_limit" and flood["stdout_truncated"]


@pytest.mark.parametrize("request_, field", [
    ({"code": "print(1)", "language": "cobol"}, "language"),
    ({"code": "print(1)", "language": 3}, "language"),
    ({"code": "   "}, "code"),
    ({"code": "print(1)", "time_limit_s": 10_000}, "time_limit_s"),
    ({"code": "print(1)", "time_limit_s": -1}, "time_limit_s"),
    ({"code": "print(1)", "memory_limit_mb": 1}, "memory_limit_mb"),
    ({"code": "print(1)", "max_output_bytes": -5}, "max_output_bytes"),
    ({"code": "print(1)", "stdin": 7}, "stdin"),
    ({"code": "print(1)", "stdn": "typo"}, "stdn"),
])
def test_bad_request_is_400_and_invalid_argument_naming_the_field(server, request_, field):
    status, answer = http(server, request_)
    assert status == 400 and answer["field"] == field
    try:
        message = pb.ExecuteRequest(**request_)
    except (TypeError, ValueError):
        return  # not expressible over gRPC (a typo'd field, a number for a string)
    with pytest.raises(grpc.RpcError) as err:
        stub(server.target).Execute(message, timeout=30)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and err.value.details().startswith(field)


@pytest.mark.parametrize("name", ["../escape.txt", "/etc/passwd", "sub/dir.txt", "..", ".", "a\\b", "prog.py",
                                  "harness.py", ""])
def test_path_traversal_and_reserved_names_in_files_are_refused(server, client, name):
    request_ = {"code": "print(open('ok.txt').read())", "files": {"ok.txt": "fine", name: "x"}}
    status, answer = http(server, request_)
    assert status == 400 and answer["field"] == f"files[{name!r}]"
    with pytest.raises(VerifierError) as err:
        client.execute(**request_)
    assert err.value.code == grpc.StatusCode.INVALID_ARGUMENT and err.value.message.startswith(f"files[{name!r}]")
    # near miss: the same request without the bad name runs
    assert client.execute(request_["code"], files={"ok.txt": "fine"})["stdout"] == "fine\n"


def test_compiled_languages_keep_their_own_file_names(server):
    for language, name in (("c", "prog"), ("c", "prog.c"), ("cpp", "prog.cpp"), ("java", "Main.java"), ("rust", "prog"),
                           ("rust", "prog.rs"), ("go", "prog"), ("go", "prog.go")):
        status, answer = http(server, {"code": "x", "language": language, "files": {name: "x"}})
        assert status == 400 and answer["field"] == f"files[{name!r}]"
    assert http(server, {"code": "int main(){return 0;}", "language": "c", "files": {"prog.txt": "x"}})[1]["status"] == "ok"


def test_files_are_bounded(server):
    status, answer = http(server, {"code": "print(1)", "files": {f"f{i}": "" for i in range(65)}})
    assert status == 400 and answer["field"] == "files"
    status, answer = http(server, {"code": "print(1)", "files": {"a": 3}})
    assert status == 400 and answer["field"] == "files['a']"


def test_full_server_is_429_and_resource_exhausted(server_factory):
    full = server_factory("--workers", "1", "--max-queued-items", "1", "--max-tasks-per-call", "1")
    slow = threading.Thread(target=http, args=(full, {"code": "import time\ntime.sleep(4)", "time_limit_s": 10}))
    slow.start()
    try:
        while full.metric("verifier_inflight_items", kind="code") + full.metric("verifier_queue_items", kind="code") < 1:
            time.sleep(0.05)
        status, _, answer = call(full.http_url + "/v1/execute", {"code": "print(1)"})
        assert status == 429 and "capacity" in answer["error"]
        with pytest.raises(grpc.RpcError) as err:
            stub(full.target).Execute(pb.ExecuteRequest(code="print(1)"), timeout=30)
        assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    finally:
        slow.join()
    assert http(full, {"code": "print(1)"})[1]["stdout"] == "1\n"  # admitted again once the slow one is done


def test_draining_is_503_and_unavailable(server_factory):
    import signal

    server = server_factory("--workers", "1", "--no-code", "--drain-delay-s", "60", "--grace-s", "5")
    assert http(server, {"code": "print(1)"})[0] == 200  # serving (and its signal handlers installed)
    server.proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 30
    while call(server.http_url + "/healthz")[0] != 503 and time.monotonic() < deadline:
        time.sleep(0.1)
    status, _, _ = call(server.http_url + "/v1/execute", {"code": "print(1)"})
    assert status == 503
    with pytest.raises(grpc.RpcError) as err:
        stub(server.target).Execute(pb.ExecuteRequest(code="print(1)"), timeout=30)
    assert err.value.code() == grpc.StatusCode.UNAVAILABLE


def test_no_sandbox_is_infra_error(server_factory):
    server = server_factory("--workers", "1", "--no-code")
    status, answer = http(server, {"code": "print(1)"})
    assert status == 200 and answer["status"] == "infra_error" and "disabled" in answer["detail"]


def test_a_fault_inside_an_execute_run_is_its_infra_error_not_a_crash():
    """Engine.execute answers a bug inside code grading as graded items do (verifier/engine.py
    `_answered`): infra_error naming the exception, the slot released, never a raised error that the
    HTTP routes (/run_code, /v1/execute) turned into a 500. The sandbox is replaced by one whose
    grade raises: pure engine logic, no container."""
    import asyncio

    from sandbox.contract import CodeTask
    from verifier.config import ServerConfig
    from verifier.engine import Engine

    class Broken:
        available = True

        async def grade(self, *args, **kwargs):
            raise RuntimeError("a bug in code grading")

    async def run() -> tuple[dict, int]:
        engine = Engine(ServerConfig(workers=1, code=False))
        engine.code = Broken()
        task = CodeTask.from_dict({"id": "x", "language": "python", "completion": "print(1)", "tests": []}, "", wire=False)
        result = await engine.execute(task, {})
        return result, engine._pending

    result, in_flight = asyncio.run(run())
    assert result["verdict"] == "infra_error" and result["detail"] == "internal error: RuntimeError", result
    assert in_flight == 0  # the admitted item was given back
