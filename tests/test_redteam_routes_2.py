"""Red team 2 of session routes (issue 30 item 1, docs/sessions.md "Sessions"), on the six calls added
to FORWARDED_CALLS since the first (RunShell, WriteSessionFile, ListSessionDir, GradeSession,
ForkSession, SnapshotSession) and their HTTP routes: two real replicas on loopback (Docker backend,
the calc environment of tests/test_session_env.py), a route secret, each other and a recorder (a
listed peer that is not a replica) in --peers, no token (each bearer string is a tenant).

Held (plain tests):
- forged ids (signed with a key a client can compute), ids whose tag names no peer, and ids of
  another deployment (naming a real replica or the trap) are 404 / NOT_FOUND on every new call and
  port, with no connection at the trap or the recorder;
- a forward carries B's proof and nothing of the caller's (Authorization, Cookie,
  Proxy-Authorization, API keys, X-Forwarded-For, gRPC metadata); the peer's Set-Cookie is not
  relayed; a write over --max-field-bytes and a call marked forwarded make no connection (a forward
  is never forwarded again: no loop);
- tenants: another bearer string's use of a session, its forks and its snapshot is 404 through
  either replica; fork and snapshot ids are minted by the owner with its own tag whichever replica
  the call came through (no client value reaches `_new_id`); a snapshot id is no session id;
- fork, grade and snapshot forwarded while the session is busy and being closed: the owner's 200,
  404 or 410, forks that came back work, nothing left open.
- Also tried (exploration, not kept): CR/LF, tab, space, DEL and high bytes in a forwarded query
  (h11 refuses them at B: 400), '#' (dropped before forwarding); duplicated query keys (B and the owner
  parse alike).

Findings (fixed by fx30z; the tests below now plain, with near misses at each bound):
1. A forward's reply bound was not the owner's, and over it was "session lost" (classes 8, 9). B
   read an HTTP reply up to 4 x --max-field-bytes + 1 MiB and a gRPC reply up to gRPC's default
   4 MiB receive limit. A shell command printing 1 MB of control bytes (JSON writes each as
   \\u0001) through B was 410 "session lost: ... cannot be reached (ValueError)" though the owner
   answered and the session lived; a grade of a tree whose diff was over 4 MiB was gRPC
   RESOURCE_EXHAUSTED through B, 410 over HTTP, after the grade ran to its end on the owner. Fixed:
   one home for a reply's bound (verifier/sessions.py `reply_max_bytes`, the server's own
   --max-request-bytes), held by the owner where each reply is encoded (RESOURCE_EXHAUSTED / 409
   naming it) and used by the relay (its HTTP read, the peer channel's receive limit); a reply over it
   is that named error on both paths, never "session lost".
2. A grade's reply carried the whole diff (class 9): 64 MB of text in /work gave a 68 MB reply,
   diffed in full and rendered as JSON on the event loop. Fixed: the diff is built up to what a grade
   takes (`grade_patch_max`, the patch bound) and stops there: `wrong_answer` naming the bound, the
   reply's patch its start, cut with a marker line. A cell's value and error are bounded by the host
   (the interpreter's own caps are the program's), and large JSON replies are rendered off the loop.
3. PUT /v1/sessions/{id}/files base64-decoded `data` on the event loop before --max-field-bytes was
   checked (class 9). Fixed: the bound is checked on the encoded length (4 * ceil(n / 3) characters)
   before any decoding, and a large decode runs off the loop.

Not tested: a fork whose HTTP caller hangs up (direct or forwarded) still opens its n sessions,
whose ids nobody learns; they hold admission and memory until their idle TTL (bounded, not a
forwarding fault). A snapshot restores only on the replica that made it (documented: NOT_FOUND
elsewhere, since CreateSession is never forwarded).
"""
from __future__ import annotations

import base64
import json
import secrets
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path
from types import SimpleNamespace

import grpc
import pytest

from conftest import ServerProcess
from helpers import SESSION_SERVER_ARGS, read_http_request
from test_repo_service import calc_environments
from test_session_env import GRADE
from verifier.schema import verdict_from_proto
from verifier.sessions import FORWARDED_KEY, Route, replica_tag, route_key, sign
from verifier.v1 import verifier_pb2 as pb
from verifier.v1 import verifier_pb2_grpc as pb_grpc

pytestmark = pytest.mark.docker

FIELD_BYTES = 1 << 20  # --max-field-bytes (the default)
ALICE, MALLORY = (("authorization", "Bearer alice"),), (("authorization", "Bearer mallory"),)
ROUTE_SECRET = "red-team-2's route secret, only the replicas hold it"
NEW_CALLS = ("RunShell", "WriteSessionFile", "ListSessionDir", "GradeSession", "ForkSession", "SnapshotSession")
REPLY = {"RunShell": pb.RunShellResponse(status="ok", stdout="recorded"), "WriteSessionFile": pb.WriteSessionFileResponse(),
         "ListSessionDir": pb.ListSessionDirResponse(), "GradeSession": pb.GradeSessionResponse(patch="recorded"),
         "ForkSession": pb.ForkSessionResponse(), "SnapshotSession": pb.SnapshotSessionResponse(snapshot_id="recorded")}


def _request_type(method: str):
    return getattr(pb, f"{method}Request")


class Recorder:
    """A peer the operator listed that is not a replica: records each forwarded call's HTTP head and
    body and its gRPC metadata, and answers every new call as an owner would."""

    def __init__(self) -> None:
        self.http_heads: list[bytes] = []
        self.http_bodies: list[bytes] = []
        self.grpc_metadata: list[tuple[str, dict]] = []
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.http_port = self.sock.getsockname()[1]
        threading.Thread(target=self._serve_http, daemon=True).start()

        def handler(method: str):
            def answer(request, context):
                self.grpc_metadata.append((method, dict(context.invocation_metadata())))
                return REPLY[method]
            return grpc.unary_unary_rpc_method_handler(answer, request_deserializer=_request_type(method).FromString,
                                                       response_serializer=type(REPLY[method]).SerializeToString)
        generic = grpc.method_handlers_generic_handler("verifier.v1.Verifier", {m: handler(m) for m in NEW_CALLS})
        self.grpc = grpc.server(futures.ThreadPoolExecutor(2), handlers=[generic])
        self.grpc_port = self.grpc.add_insecure_port("127.0.0.1:0")
        self.grpc.start()

    def _serve_http(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                head, body = read_http_request(conn)
                self.http_heads.append(head)
                self.http_bodies.append(body)
                reply = b'{"recorded": true}'
                conn.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nset-cookie: peer=1\r\n"
                             b"content-length: " + str(len(reply)).encode() + b"\r\n\r\n" + reply)

    def close(self) -> None:
        self.sock.close()
        self.grpc.stop(None)


@pytest.fixture(scope="module")
def environments(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return calc_environments(tmp_path_factory)


@pytest.fixture(scope="module")
def deployment(environments: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SimpleNamespace]:
    """Two replicas of one deployment on loopback (Docker backend), with no token: each caller's
    bearer string is its own tenant (sessions are bound to it). Both list each other and a
    recorder (a peer that is not a replica) in --peers, and share a route secret."""
    from verifier.local_server import free_port

    recorder = Recorder()
    ports = [(free_port(), free_port()) for _ in range(2)]
    secret_file = tmp_path_factory.mktemp("secret") / "route-secret"
    secret_file.write_text(ROUTE_SECRET + "\n")
    peers = ",".join([*(f"127.0.0.1:{p}/{h}" for p, h in ports), f"127.0.0.1:{recorder.grpc_port}/{recorder.http_port}"])
    replicas = []
    try:
        for p, h in ports:
            replica = ServerProcess(*SESSION_SERVER_ARGS, "--sandbox-backend", "docker", "--route-secret-file",
                                    str(secret_file), "--peers", peers, "--advertise-address", f"127.0.0.1:{p}",
                                    "--http-port", str(h), "--sandbox-repo-environments", str(environments),
                                    "--session-max-fork", "2", "--max-sessions", "8", port=p)
            replicas.append(replica.__enter__())
            replica.http_port = h
        yield SimpleNamespace(a=replicas[0], b=replicas[1], recorder=recorder)
    finally:
        for replica in replicas:
            replica.__exit__(None, None, None)
        recorder.close()


def _http(srv, method: str, path: str, body: dict | None = None, token: str = "alice",
          headers: dict | None = None) -> tuple[int, dict, dict]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{srv.http_port}{path}", data=data, method=method, headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {token}", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=300) as resp:
            return resp.status, dict(resp.headers), json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            return e.code, dict(e.headers), json.loads(raw)
        except ValueError:
            return e.code, dict(e.headers), {"raw": raw[:300].decode("latin-1")}


def _stub(srv, receive: int = 4 << 20) -> pb_grpc.VerifierStub:
    return pb_grpc.VerifierStub(grpc.insecure_channel(srv.target, options=[("grpc.max_receive_message_length", receive)]))


def _signed(key: bytes, replica: Route) -> str:
    """An id as a replica at `replica` signing with `key` would issue it."""
    rand, tag = secrets.token_urlsafe(24), replica_tag(key, replica)
    return f"{rand}.{tag}.{sign(key, 'id', f'{rand}.{tag}'.encode())}"


def _http_calls(sid: str) -> list[tuple[str, str, dict | None]]:
    """Each new call's HTTP route for `sid`, with a body its owner takes."""
    return [("POST", f"/v1/sessions/{sid}/shell", {"command": "true"}),
            ("PUT", f"/v1/sessions/{sid}/files", {"path": "f", "data": "eA=="}),
            ("GET", f"/v1/sessions/{sid}/dir?path=", None),
            ("POST", f"/v1/sessions/{sid}/grade", {"task": {"test_cmd": "true"}}),
            ("POST", f"/v1/sessions/{sid}/fork", {"n": 1}),
            ("POST", f"/v1/sessions/{sid}/snapshot", {})]


def _grpc_calls(sid: str) -> list[tuple[str, object]]:
    """Each new call's gRPC request for `sid` (the method's name on the stub, the message)."""
    return [("RunShell", pb.RunShellRequest(session_id=sid, command="true")),
            ("WriteSessionFile", pb.WriteSessionFileRequest(session_id=sid, path="f", data=b"x")),
            ("ListSessionDir", pb.ListSessionDirRequest(session_id=sid, path="")),
            ("GradeSession", pb.GradeSessionRequest(session_id=sid, task=pb.RepoTask(test_cmd="true"))),
            ("ForkSession", pb.ForkSessionRequest(session_id=sid, n=1)),
            ("SnapshotSession", pb.SnapshotSessionRequest(session_id=sid))]


def _trap() -> socket.socket:
    """A listener that records any connection attempt (it completes in the kernel's backlog)."""
    trap = socket.socket()
    trap.bind(("127.0.0.1", 0))
    trap.listen(16)
    trap.setblocking(False)
    return trap


def _connected(trap: socket.socket) -> bool:
    try:
        conn, _ = trap.accept()
    except BlockingIOError:
        return False
    conn.close()
    return True


def _env_session(srv, token: str = "alice") -> str:
    status, _, created = _http(srv, "POST", "/v1/sessions", {"environment": "calc"}, token)
    assert status == 200 and created["replica"] == srv.target, created
    return created["session_id"]


def _tag(sid: str) -> str:
    return sid.split(".")[1]


# ---------------------------------------------------------------- held families


def test_routes_no_server_signed_reach_no_one_on_the_new_calls(deployment) -> None:
    """Each of the six new calls, on both ports of replica B, with an id signed under a key a client
    can compute (its bearer string), one signed with the deployment's secret for an address that is
    none of B's peers, and one from another deployment (another route secret) naming a real replica
    (A) and naming the trap: 404 / NOT_FOUND for each, and no connection at the trap or the recorder."""
    a, b, recorder = deployment.a, deployment.b, deployment.recorder
    trap = _trap()
    t = trap.getsockname()[1]
    to_trap, real_a = Route(f"127.0.0.1:{t}", t), Route(a.target, a.http_port)
    key, client_key, other_key = route_key(ROUTE_SECRET), route_key("alice"), route_key("another deployment's secret " * 2)
    heads, calls = len(recorder.http_heads), len(recorder.grpc_metadata)
    plain = _stub(b)
    try:
        for sid, why in ((_signed(client_key, to_trap), "does not check"), (_signed(key, to_trap), "none of this replica's"),
                         (_signed(other_key, real_a), "does not check"), (_signed(other_key, to_trap), "does not check")):
            for method, path, body in _http_calls(sid):
                status, _, reply = _http(b, method, path, body)
                assert status == 404 and why in reply["error"], (path, reply)
            for name, message in _grpc_calls(sid):
                with pytest.raises(grpc.RpcError) as err:
                    getattr(plain, name)(message, metadata=ALICE, timeout=60)
                assert err.value.code() == grpc.StatusCode.NOT_FOUND and why in err.value.details(), name
        assert not _connected(trap)
        assert (len(recorder.http_heads), len(recorder.grpc_metadata)) == (heads, calls)
    finally:
        trap.close()


def test_a_forward_carries_no_caller_credential_and_nothing_its_owner_refuses(deployment) -> None:
    """The new calls forwarded by B to a listed peer (the recorder) carry B's proof and nothing of the
    caller's: no Authorization, Cookie, Proxy-Authorization or API key header, no caller metadata; the
    peer's Set-Cookie is not relayed back. An over-bound WriteSessionFile (one byte past
    --max-field-bytes, on each port) and a call the client marks as already forwarded make no
    connection at all (a marked call is answered by B itself: a forward is never forwarded again)."""
    b, recorder = deployment.b, deployment.recorder
    sid = _signed(route_key(ROUTE_SECRET), Route(f"127.0.0.1:{recorder.grpc_port}", recorder.http_port))
    secret_headers = {"Cookie": "session=alice-cookie", "Proxy-Authorization": "Basic YWxpY2U6cHc=",
                      "X-Api-Key": "alice-api-key", "X-Forwarded-For": "10.9.8.7"}
    heads = len(recorder.http_heads)
    for method, path, body in _http_calls(sid):
        status, headers, reply = _http(b, method, path, body, headers=secret_headers)
        assert status == 200 and reply == {"recorded": True} and "set-cookie" not in {k.lower() for k in headers}, path
    sent = recorder.http_heads[heads:]
    assert len(sent) == len(NEW_CALLS)
    for head in sent:
        lower = head.lower()
        assert FORWARDED_KEY.encode() in lower, head
        for word in (b"authorization", b"cookie", b"x-api-key", b"x-forwarded-for", b"alice", b"10.9.8.7"):
            assert word not in lower, (word, head)
    calls = len(recorder.grpc_metadata)
    caller = (*ALICE, ("cookie", "session=alice-cookie"), ("x-api-key", "alice-api-key"))
    plain = _stub(b)
    for name, message in _grpc_calls(sid):
        getattr(plain, name)(message, metadata=caller, timeout=60)
    got = recorder.grpc_metadata[calls:]
    assert [m for m, _ in got] == list(NEW_CALLS)
    for _, metadata in got:
        assert FORWARDED_KEY in metadata and not {"authorization", "cookie", "x-api-key"} & set(metadata), metadata
        assert "alice" not in repr(metadata), metadata

    # Refused before any connection: a write one byte over the owner's bound, and a call marked forwarded.
    heads, calls = len(recorder.http_heads), len(recorder.grpc_metadata)
    over = b"x" * (FIELD_BYTES + 1)
    status, _, reply = _http(b, "PUT", f"/v1/sessions/{sid}/files", {"path": "f", "data": base64.b64encode(over).decode()})
    assert status == 400 and reply["field"] == "data", reply
    with pytest.raises(grpc.RpcError) as err:
        plain.WriteSessionFile(pb.WriteSessionFileRequest(session_id=sid, path="f", data=over), metadata=ALICE, timeout=60)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "data" in err.value.details()
    marked = {FORWARDED_KEY: "0" * 32 + ".not-a-proof"}
    assert _http(b, "POST", f"/v1/sessions/{sid}/shell", {"command": "true"}, headers=marked)[0] == 404
    with pytest.raises(grpc.RpcError) as err:
        plain.RunShell(pb.RunShellRequest(session_id=sid, command="true"), metadata=(*ALICE, *marked.items()), timeout=60)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    assert (len(recorder.http_heads), len(recorder.grpc_metadata)) == (heads, calls)


def test_tenants_and_fork_and_snapshot_ids_stay_with_their_owner(deployment) -> None:
    """With no token, each bearer string is a tenant. Alice's session on A, used by mallory through
    either replica on each new call, is 404. A fork and a snapshot made through B are minted by A
    (A's tag, whatever replica the call came through) and are alice's: her forks answer through B,
    mallory's use of them and of the snapshot is 404; a snapshot id is no session id; the snapshot
    restores on A (docs/sessions.md: another replica answers NOT_FOUND, with no connection)."""
    a, b = deployment.a, deployment.b
    sid = _env_session(a)
    assert _http(b, "POST", f"/v1/sessions/{sid}/shell", {"command": "echo kept > calc/mine.py"})[0] == 200
    for srv in (a, b):
        for method, path, body in _http_calls(sid):
            assert _http(srv, method, path, body, "mallory")[0] == 404, (srv.target, path)
    for name, message in _grpc_calls(sid):
        with pytest.raises(grpc.RpcError) as err:
            getattr(_stub(b), name)(message, metadata=MALLORY, timeout=60)
        assert err.value.code() == grpc.StatusCode.NOT_FOUND, name

    status, _, forked = _http(b, "POST", f"/v1/sessions/{sid}/fork", {"n": 2})
    assert status == 200, forked
    forks = [s["session_id"] for s in forked["sessions"]]
    assert len(forks) == 2 and {_tag(f) for f in forks} == {_tag(sid)} and {s["replica"] for s in forked["sessions"]} == {a.target}
    for fork in forks:
        status, _, shell = _http(b, "POST", f"/v1/sessions/{fork}/shell", {"command": "cat calc/mine.py"})
        assert status == 200 and shell["stdout"] == "kept\n", shell
        assert _http(b, "POST", f"/v1/sessions/{fork}/shell", {"command": "true"}, "mallory")[0] == 404
        assert _http(a, "DELETE", f"/v1/sessions/{fork}", None, "mallory")[2] == {"closed": False}
    status, _, kept = _http(b, "POST", f"/v1/sessions/{sid}/snapshot", {})
    assert status == 200 and _tag(kept["snapshot_id"]) == _tag(sid), kept
    snap = kept["snapshot_id"]
    assert _http(b, "POST", f"/v1/sessions/{snap}/shell", {"command": "true"})[0] == 404
    assert _http(a, "POST", "/v1/sessions", {"snapshot": snap}, "mallory")[0] == 404
    assert _http(b, "POST", "/v1/sessions", {"snapshot": snap})[0] == 404
    status, _, restored = _http(a, "POST", "/v1/sessions", {"snapshot": snap})
    assert status == 200, restored
    assert _http(b, "POST", f"/v1/sessions/{restored['session_id']}/shell", {"command": "cat calc/mine.py"})[2]["stdout"] == "kept\n"
    for done in (*forks, restored["session_id"], sid):
        assert _http(b, "DELETE", f"/v1/sessions/{done}")[2] == {"closed": True}


def test_a_session_closed_while_forwarded_calls_run_leaves_nothing_behind(deployment) -> None:
    """A fork, a grade and a snapshot sent through B while the session is busy (a shell call holds
    it) and a close through B: each answer is the owner's (200, 404 or 410: never a 5xx, never a
    hang), any fork that came back works and closes, and A holds no session afterwards that nobody
    was told of."""
    a, b = deployment.a, deployment.b
    before = a.metric("verifier_sessions")
    sid = _env_session(a)
    assert _http(a, "POST", f"/v1/sessions/{sid}/shell", {"command": "echo 1 > calc/y.py"})[0] == 200
    with futures.ThreadPoolExecutor(5) as pool:
        busy = pool.submit(_http, a, "POST", f"/v1/sessions/{sid}/shell", {"command": "sleep 2"})
        calls = [pool.submit(_http, b, "POST", f"/v1/sessions/{sid}/{path}", body)
                 for path, body in (("fork", {"n": 2}), ("grade", {"task": GRADE}), ("snapshot", {}))]
        closed = pool.submit(_http, b, "DELETE", f"/v1/sessions/{sid}")
        answers = [busy.result(), *(c.result() for c in calls)]
        assert closed.result()[2] == {"closed": True}
    for status, _, reply in answers:
        assert status in (200, 404, 410), (status, reply)
    fork_status, _, forked = answers[1]
    for made in forked.get("sessions", []) if fork_status == 200 else []:
        assert _http(b, "POST", f"/v1/sessions/{made['session_id']}/shell", {"command": "true"})[0] == 200
        assert _http(b, "DELETE", f"/v1/sessions/{made['session_id']}")[2] == {"closed": True}
    assert _http(b, "POST", f"/v1/sessions/{sid}/shell", {"command": "true"})[0] == 404
    assert a.metric("verifier_sessions") == before


# ---------------------------------------------------------------- findings (fixed: fx30z), with near misses


def test_a_forwarded_call_answers_what_its_owner_answered(deployment) -> None:
    """Finding 1 (classes 8 and 9): B reads an owner's HTTP reply up to 4 x --max-field-bytes + 1 MiB
    and its gRPC reply up to gRPC's default 4 MiB, neither of which is what the owner may send. A
    shell command printing control bytes (JSON writes each as 6 bytes) and a grade of a tree over 4 MiB
    (its reply carries the diff) are answered by A, and through B are HTTP 410 "session lost ...
    cannot be reached (ValueError)" (the session lives on) and gRPC RESOURCE_EXHAUSTED. The grade
    ran to its end on A first, and its result is thrown away."""
    a, b = deployment.a, deployment.b
    sid = _env_session(a)
    loud = {"command": "head -c 1000000 /dev/zero | tr '\\0' '\\1'", "max_output_bytes": FIELD_BYTES}
    try:
        direct = _http(a, "POST", f"/v1/sessions/{sid}/shell", loud)
        assert direct[0] == 200 and len(direct[2]["stdout"]) == 1_000_000
        relayed = _http(b, "POST", f"/v1/sessions/{sid}/shell", loud)
        untimed = [(status, {k: v for k, v in reply.items() if k not in ("cpu_s", "wall_s")}) for status, _, reply in
                   (relayed, direct)]  # each run's own clock: the rest is the same command's same answer
        assert untimed[0] == untimed[1]
        # Bytes that are not UTF-8 come back as U+FFFD, 3 bytes each: about 6 MiB of gRPC reply, past
        # gRPC's default 4 MiB receive limit that the peer channel had.
        wide = pb.RunShellRequest(session_id=sid, command="head -c 1000000 /dev/zero | tr '\\0' '\\377' | tee /dev/stderr",
                                  max_output_bytes=FIELD_BYTES)
        owner_shell = _stub(a, 64 << 20).RunShell(wide, metadata=ALICE, timeout=120)
        relayed_shell = _stub(b, 64 << 20).RunShell(wide, metadata=ALICE, timeout=120)
        assert owner_shell.ByteSize() > 4 << 20 and len(owner_shell.stderr) == 1_000_000
        assert (relayed_shell.stdout, relayed_shell.stderr) == (owner_shell.stdout, owner_shell.stderr)
        big = "head -c 3600000 /dev/urandom | base64 > calc/big.txt"  # its diff: about 4.9 MB
        assert _http(a, "POST", f"/v1/sessions/{sid}/shell", {"command": big})[2]["exit_code"] == 0
        task = pb.GradeSessionRequest(session_id=sid, task=pb.RepoTask(**GRADE))
        owner = _stub(a, 64 << 20).GradeSession(task, metadata=ALICE, timeout=120)
        relayed = _stub(b, 64 << 20).GradeSession(task, metadata=ALICE, timeout=120)
        assert (relayed.result.verdict, len(relayed.patch)) == (owner.result.verdict, len(owner.patch))
        status, _, reply = _http(b, "POST", f"/v1/sessions/{sid}/grade", {"task": GRADE})
        assert status == 200 and len(reply["patch"]) == len(owner.patch), (status, str(reply)[:300])
    finally:
        assert _http(a, "DELETE", f"/v1/sessions/{sid}")[2] == {"closed": True}  # it lived through all of it


def test_a_grade_reply_is_bounded_by_what_a_grade_takes(deployment) -> None:
    """Finding 2 (class 9): a grade refuses a diff over --max-field-bytes ("the patch is over N
    bytes"), yet its reply carries the whole diff: a session that wrote 64 MB of text (its /work
    holds 128 MB) got a 68 MB reply, built by the server (snapshot read back, diffed) and rendered
    as JSON on the event loop (/healthz took 0.58 s meanwhile); over gRPC it is past the 64 MiB
    send limit. Here 2 MB of text: the reply must carry at most what a grade takes."""
    a = deployment.a
    sid = _env_session(a)
    try:
        assert _http(a, "POST", f"/v1/sessions/{sid}/shell",
                     {"command": "head -c 1500000 /dev/urandom | base64 > calc/big.txt"})[2]["exit_code"] == 0
        status, _, reply = _http(a, "POST", f"/v1/sessions/{sid}/grade", {"task": GRADE})
        assert status == 200 and reply["result"]["verdict"] == "wrong_answer", reply["result"]
        assert len(reply["patch"].encode()) <= FIELD_BYTES, len(reply["patch"])
    finally:
        _http(a, "DELETE", f"/v1/sessions/{sid}")


def test_a_writes_bound_is_checked_before_its_data_is_decoded(deployment) -> None:
    """Finding 3 (class 9): PUT /v1/sessions/{id}/files decodes `data` (up to --max-request-bytes,
    64 MiB: 0.33 s here) on the event loop, on the owner and on a replica that forwards, before
    --max-field-bytes is checked. Encoded data longer than the bound's encoding is refused by the
    bound before any decoding; here its last character is no base64, so the answer shows which came
    first ("must be base64" means all of it was decoded)."""
    a, b = deployment.a, deployment.b
    sid = _env_session(a)
    data = base64.b64encode(b"\0" * (4 * FIELD_BYTES)).decode() + "!"
    try:
        for srv in (a, b):
            status, _, reply = _http(srv, "PUT", f"/v1/sessions/{sid}/files", {"path": "f", "data": data})
            assert status == 400 and reply["field"] == "data" and "base64" not in reply["error"], reply
    finally:
        _http(a, "DELETE", f"/v1/sessions/{sid}")


# ---------------------------------------------------------------- near misses at each bound (fx30z)


def _pad(budget: int) -> str:
    """A new file calc/pad.py whose diff is exactly `budget` bytes (its header, its hunk's header and a
    '+' line per line of the file): comment lines of 1,000 bytes, the last cut to fit."""
    head = "diff --git a/calc/pad.py b/calc/pad.py\nnew file mode 100644\n--- /dev/null\n+++ b/calc/pad.py\n"
    n = 1
    while True:
        room = budget - len(head) - len(f"@@ -0,0 +1,{n} @@\n") - (n - 1) * 1001 - 1  # the last line's own bytes
        if 2 <= room <= 1000:
            return "".join(["#" + "a" * 998 + "\n"] * (n - 1) + ["#" + "b" * (room - 2) + "\n"])
        n += 1


def _grade_both(srv, sid: str) -> tuple[dict, pb.GradeSessionResponse]:
    status, _, http = _http(srv, "POST", f"/v1/sessions/{sid}/grade", {"task": GRADE})
    assert status == 200, http
    grpc_reply = _stub(srv, 64 << 20).GradeSession(pb.GradeSessionRequest(session_id=sid, task=pb.RepoTask(**GRADE)),
                                                  metadata=ALICE, timeout=180)
    return http, grpc_reply


def test_a_right_answer_whose_diff_is_at_the_grade_bound_passes_and_one_byte_past_is_named(deployment) -> None:
    """Near miss of finding 2: the right fix plus a new file that brings the session's diff to exactly
    the bytes a grade takes (1 MiB, the patch bound) is graded `accepted` through the replica that
    forwards (HTTP and gRPC), its whole diff in the reply; one byte more in that file and the same
    fix is `wrong_answer` naming the bound (no test ran), its reply's patch cut within the bound and
    marked, the same answer from the owner and through the relay."""
    from test_session_env import FIXED

    a, b = deployment.a, deployment.b
    sid = _env_session(a)
    try:
        assert _http(a, "PUT", f"/v1/sessions/{sid}/files",
                     {"path": "calc/__init__.py", "data": base64.b64encode(FIXED.encode()).decode()})[0] == 200
        fix_only = _http(a, "POST", f"/v1/sessions/{sid}/grade", {"task": GRADE})[2]
        assert fix_only["result"]["verdict"] == "accepted", fix_only["result"]
        pad = _pad(FIELD_BYTES - len(fix_only["patch"].encode()))
        assert _http(a, "PUT", f"/v1/sessions/{sid}/files",
                     {"path": "calc/pad.py", "data": base64.b64encode(pad.encode()).decode()})[0] == 200
        http, grpc_reply = _grade_both(b, sid)
        for verdict, patch in ((http["result"]["verdict"], http["patch"]), (verdict_from_proto(grpc_reply.result.verdict), grpc_reply.patch)):
            assert verdict == "accepted" and len(patch.encode()) == FIELD_BYTES and patch.startswith(fix_only["patch"])
        over = pad[:-1] + "c\n"  # one byte more: the last line one character longer
        assert len(over) == len(pad) + 1
        assert _http(a, "PUT", f"/v1/sessions/{sid}/files",
                     {"path": "calc/pad.py", "data": base64.b64encode(over.encode()).decode()})[0] == 200
        answers = [*_grade_both(a, sid), *_grade_both(b, sid)]
        for http_or_grpc in answers:
            result, patch = ((http_or_grpc["result"], http_or_grpc["patch"]) if isinstance(http_or_grpc, dict)
                             else ({"verdict": verdict_from_proto(http_or_grpc.result.verdict), "detail": http_or_grpc.result.detail,
                                    "tests": list(http_or_grpc.result.tests)}, http_or_grpc.patch))
            assert result["verdict"] == "wrong_answer" and f"over {FIELD_BYTES} bytes" in result["detail"], result
            assert not result["tests"] and len(patch.encode()) <= FIELD_BYTES and patch.startswith(fix_only["patch"])
            assert patch.endswith(f"it is over {FIELD_BYTES} bytes, the most a grade takes]\n"), patch[-200:]
    finally:
        assert _http(a, "DELETE", f"/v1/sessions/{sid}")[2] == {"closed": True}


def test_a_write_at_its_bound_is_taken_and_one_character_past_its_encoding_is_refused_undecoded(deployment) -> None:
    """Near miss of finding 3: data of exactly --max-field-bytes (its base64: 4 * ceil(n / 3)
    characters) is written through either replica; one character more is refused by the bound, by
    name, before any decoding (so not "must be base64", though it no longer is valid base64)."""
    a, b = deployment.a, deployment.b
    sid = _env_session(a)
    at = base64.b64encode(b"\0" * FIELD_BYTES).decode()
    try:
        for srv in (a, b):
            assert _http(srv, "PUT", f"/v1/sessions/{sid}/files", {"path": "f", "data": at})[2] == {"size": FIELD_BYTES}
            status, _, reply = _http(srv, "PUT", f"/v1/sessions/{sid}/files", {"path": "f", "data": at + "A"})
            assert status == 400 and reply["field"] == "data" and f"at most {FIELD_BYTES} bytes" in reply["error"], reply
            assert "base64" not in reply["error"]
    finally:
        _http(a, "DELETE", f"/v1/sessions/{sid}")


# A deployment whose replies are bounded low (--max-request-bytes, the one home of a reply's bound), so
# a reply can be made exactly at it: a file read's reply is its bytes and a few of framing.
SMALL_REPLY = (1 << 20) + 1
HTTP_READ_AT = 786_411  # {"data":"<4 * ceil(n / 3) characters>","truncated":false}: 29 + 1,048,548 = SMALL_REPLY
GRPC_READ_AT = (1 << 20) - 3  # a tag byte, a 3-byte length, the data: SMALL_REPLY


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SimpleNamespace]:
    """Two replicas (each the other's peer, a route secret) with --max-request-bytes SMALL_REPLY."""
    from verifier.local_server import free_port

    ports = [(free_port(), free_port()) for _ in range(2)]
    secret_file = tmp_path_factory.mktemp("small-secret") / "route-secret"
    secret_file.write_text(ROUTE_SECRET + " (small)\n")
    peers = ",".join(f"127.0.0.1:{p}/{h}" for p, h in ports)
    replicas = []
    try:
        for p, h in ports:
            replica = ServerProcess(*SESSION_SERVER_ARGS, "--sandbox-backend", "docker", "--route-secret-file",
                                    str(secret_file), "--peers", peers, "--advertise-address", f"127.0.0.1:{p}",
                                    "--http-port", str(h), "--max-request-bytes", str(SMALL_REPLY), port=p)
            replicas.append(replica.__enter__())
            replica.http_port = h
        yield SimpleNamespace(a=replicas[0], b=replicas[1])
    finally:
        for replica in replicas:
            replica.__exit__(None, None, None)


def test_a_reply_at_the_bound_is_relayed_whole_and_one_past_is_the_same_named_error_on_both_paths(small) -> None:
    """Near miss of finding 1, with a reply's bound (--max-request-bytes) at SMALL_REPLY: a file read
    whose reply is exactly that many bytes (HTTP's JSON, gRPC's message) comes back whole from the
    owner and through the replica that forwards; a file one byte longer is, on both ports and both
    paths, the same named error (HTTP 409 / RESOURCE_EXHAUSTED naming the bound), never "session
    lost", and the session goes on."""
    a, b = small.a, small.b
    status, _, created = _http(a, "POST", "/v1/sessions", {"language": "python"})
    assert status == 200, created
    sid = created["session_id"]

    def make(size: int) -> None:
        status, _, cell = _http(a, "POST", f"/v1/sessions/{sid}/cells", {"code": f"open('f', 'wb').write(b'x' * {size})"})
        assert status == 200 and cell["status"] == "ok", cell

    try:
        make(HTTP_READ_AT)
        for srv in (a, b):
            req = urllib.request.Request(f"http://127.0.0.1:{srv.http_port}/v1/sessions/{sid}/files?path=f",
                                         headers={"Authorization": "Bearer alice"})
            with urllib.request.urlopen(req, timeout=120) as resp:
                raw = resp.read()
            assert len(raw) == SMALL_REPLY and base64.b64decode(json.loads(raw)["data"]) == b"x" * HTTP_READ_AT
        make(HTTP_READ_AT + 1)
        over = [_http(srv, "GET", f"/v1/sessions/{sid}/files?path=f") for srv in (a, b)]
        assert over[0][::2] == over[1][::2] and over[0][0] == 409, over[0]
        assert f"over the {SMALL_REPLY} bytes" in over[0][2]["error"] and "lost" not in over[0][2]["error"]

        make(GRPC_READ_AT)
        read = pb.ReadSessionFileRequest(session_id=sid, path="f", max_bytes=FIELD_BYTES)
        for srv in (a, b):
            got = _stub(srv).ReadSessionFile(read, metadata=ALICE, timeout=120)
            assert got.ByteSize() == SMALL_REPLY and got.data == b"x" * GRPC_READ_AT
        make(GRPC_READ_AT + 1)
        errors = []
        for srv in (a, b):
            with pytest.raises(grpc.RpcError) as err:
                _stub(srv).ReadSessionFile(read, metadata=ALICE, timeout=120)
            errors.append((err.value.code(), err.value.details()))
        assert errors[0] == errors[1] and errors[0][0] == grpc.StatusCode.RESOURCE_EXHAUSTED, errors
        assert f"over the {SMALL_REPLY} bytes" in errors[0][1]
        assert _http(b, "POST", f"/v1/sessions/{sid}/cells", {"code": "1 + 1"})[2]["value"] == "2"  # it lives
    finally:
        assert _http(a, "DELETE", f"/v1/sessions/{sid}")[2] == {"closed": True}


def test_a_listing_of_a_name_that_is_not_utf8_is_answered_on_both_ports(deployment) -> None:
    """A reply field made from the session's own bytes (a file name that is not UTF-8) is encoded on
    both ports and through the relay: its bytes that are not UTF-8 listed as U+FFFD, never a reply
    that fails to encode (found while bounding every reply field, fx30z)."""
    a, b = deployment.a, deployment.b
    sid = _env_session(a)
    try:
        assert _http(a, "POST", f"/v1/sessions/{sid}/shell", {"command": "touch \"calc/n$(printf '\\377')\""})[2]["exit_code"] == 0
        for srv in (a, b):
            status, _, listing = _http(srv, "GET", f"/v1/sessions/{sid}/dir?path=calc")
            assert status == 200 and {"name": "n\ufffd", "kind": "file", "size": 0} in listing["entries"], listing
            got = _stub(srv).ListSessionDir(pb.ListSessionDirRequest(session_id=sid, path="calc"), metadata=ALICE, timeout=60)
            assert "n\ufffd" in [e.name for e in got.entries]
    finally:
        _http(a, "DELETE", f"/v1/sessions/{sid}")
