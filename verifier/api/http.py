"""The HTTP/JSON front end: the same engine, admission, limits, token and TLS as the gRPC port.

Its route groups over one transport (verifier/api/transport.py: the app, auth, JSON bodies, admission,
parking, health). Routes (docs/service.md "HTTP/JSON"):

- ``POST /v1/grade``: ``{"tasks": [...]}`` -> ``{"results": [...]}``, in order (here).
- ``POST /v1/execute``: run one program with stdin and files (here; docs/service.md "Execute").
- ``POST /get_reward``, ``POST /slime/remote_rm``, ``POST /run_code``: OpenRLHF's, slime's and verl's
  dialects (verifier/api/trainer_routes.py).
- ``POST /v1/sessions``, ``POST /v1/sessions/{id}/cells``, ``GET /v1/sessions/{id}/files?path=``,
  ``DELETE /v1/sessions/{id}``: sessions, forwarded to their owner (verifier/api/session_routes.py).
- ``GET /healthz``, ``GET /readyz``: the gRPC health statuses, as HTTP codes (the transport).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from sandbox.contract import TaskError
from verifier.api.execute import execute_response, execute_task
from verifier.api.session_routes import SessionRoutes
from verifier.api.trainer_routes import TrainerRoutes
from verifier.api.transport import HttpError, HttpTransport
from verifier.config import ServerConfig
from verifier.engine import Engine

class HttpFrontEnd(HttpTransport):
    """The HTTP/JSON port: the /v1 routes, the trainer dialects and the session routes over one transport."""

    def __init__(self, engine: Engine, config: ServerConfig, token: str = ""):
        super().__init__(engine, config, token)
        self.trainer_routes = TrainerRoutes(self)
        self.session_routes = SessionRoutes(self)
        self.serve([("/v1/grade", "POST", self.grade, True), *self.trainer_routes.routes(),
                    ("/v1/execute", "POST", self.execute, True), *self.health_routes(),
                    *self.session_routes.routes()])

    async def grade(self, request: Request) -> Response:
        """``{"tasks": [...]}`` -> ``{"results": [...]}``; a missing task id defaults to its index."""
        self.check_serving()
        body = await self.read_json(request)
        if not isinstance(body, dict) or not isinstance(body.get("tasks"), list):
            raise HttpError(400, 'body must be a JSON object {"tasks": [...]}', "tasks")
        for key in body:
            if key != "tasks":
                raise HttpError(400, "unknown field", key)
        tasks = [{"id": str(i), **t} if isinstance(t, dict) and "id" not in t else t for i, t in enumerate(body["tasks"])]
        try:
            models = self.task_models(tasks)
        except TaskError as e:
            raise self.invalid(e) from None
        return JSONResponse({"results": await self.grade_tasks(request, models)})

    async def execute(self, request: Request) -> Response:
        """docs/service.md "Execute": one program, stdin and files -> stdout, stderr, exit status, time, memory.
        The gRPC Execute's request and response as JSON (verifier/api/execute.py), on the same admission."""
        self.check_serving()
        body = await self.read_json(request)
        try:
            task, files = execute_task(body, self.engine.limits())
        except TaskError as e:
            raise self.invalid(e) from None
        return JSONResponse(execute_response(await self.run_program(request, task, files)))
