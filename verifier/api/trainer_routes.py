"""The trainer dialects of the HTTP/JSON port: OpenRLHF, slime and verl (docs/service.md "HTTP/JSON").

- ``POST /get_reward``: OpenRLHF's ``--remote_rm_url`` shape.
- ``POST /slime/remote_rm``: slime's ``--rm-type remote_rm`` shape.
- ``POST /run_code``: the subset of SandboxFusion's API that verl's ``sandbox_fusion`` reward uses:
  one program through Execute's one model (verifier/api/execute.py builds the task and maps the
  result; this module translates verl's request into an Execute request and the Execute response
  into SandboxFusion's shape).

Trainer-facing reward routes need one float per item, so an item that cannot be graded (no usable
label, ``infra_error``, ``error``, ``invalid_gold``) gets reward 0.0 and is flagged
(``verifier_ungraded`` = 1.0 in OpenRLHF's ``extra_logs``), never dropped: one bad row costs one reward,
not the batch (a 400 would fail every item of the request, and OpenRLHF v0.8 stops training on it). Why
an item was not graded is in the answer, naming the field (``labels[2].FAIL_TO_PASS: ...``: OpenRLHF's
``details``, slime's ``?detail=1``). Labels are read by the one row reader (verifier/formats/rows.py):
math, code, and repository tasks alike (a SWE-bench row, or a ``repo`` task; docs/repo-tasks.md
"Trainers"), each checked by the one task parser against the gRPC port's bounds. Each route answers
before its client's own deadline (README "Plug it into your trainer", its table): a 504 it
retries, the work parked for the retry (verifier/api/transport.py `HttpTransport.admitted`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from sandbox.contract import PROFILES, UNJUDGED, Task, TaskError, parse_task
from verifier.api.execute import execute_response, execute_task
from verifier.api.transport import HttpError, HttpTransport, RouteSpec, check_task_keys, client_deadline_s
from verifier.formats import swebench
from verifier.formats.rows import RowRules, as_mapping, label_task

log = logging.getLogger("verifier.api.http")

# The trainer clients' own deadlines per request (README "Plug it into your trainer", its table): OpenRLHF's aiohttp and requests
# clients (total=180; OpenRLHF/OpenRLHF 3c3be623 openrlhf/utils/agent.py, v0.8.0 remote_rm_utils.py),
# slime's shared session (total=120; THUDM/slime 624b824a slime/rollout/rm_hub/__init__.py), verl: 2 x timeout + 10.
OPENRLHF_DEADLINE_S = 180.0
SLIME_DEADLINE_S = 120.0
VERL_API_TIMEOUT_S = 10.0
# SandboxFusion language names (as verl sends them) -> ours.
RUN_CODE_LANGUAGES = {"python": "python", "python3": "python", "cpp": "cpp", "c": "c", "nodejs": "javascript",
                      "javascript": "javascript", "java": "java", "rust": "rust", "go": "go"}


class Graded(NamedTuple):
    """One item's answer on a trainer route: its reward, whether it was not graded (0.0 then, flagged),
    the verdict (`error` when no task was made), and the detail (the result's, or why no task was made)."""

    reward: float
    ungraded: bool
    verdict: str
    detail: str


class TrainerRoutes:
    """OpenRLHF's, slime's and verl's routes over the transport."""

    def __init__(self, http: HttpTransport):
        self.http = http

    def routes(self) -> list[RouteSpec]:
        return [("/get_reward", "POST", self.get_reward, True), ("/slime/remote_rm", "POST", self.slime_remote_rm, True),
                ("/run_code", "POST", self.run_code, True)]

    async def get_reward(self, request: Request) -> Response:
        """OpenRLHF: ``{"query", "prompts", "labels"}`` -> ``{"rewards", "scores", "extra_logs"}``."""
        self.http.check_serving()
        body = await self.http.read_json(request)
        if not isinstance(body, dict) or not isinstance(body.get("query"), list):
            raise HttpError(400, 'body must be a JSON object with "query": [...] (and "prompts", "labels")', "query")
        queries = body["query"]
        columns = {}
        for key in ("prompts", "labels"):
            column = body.get(key)
            if column is None:
                column = [None] * len(queries)
            if not isinstance(column, list) or len(column) != len(queries):
                raise HttpError(400, f"must be a list as long as query ({len(queries)})", key)
            columns[key] = column
        for i, query in enumerate(queries):
            if not isinstance(query, str):
                raise HttpError(400, f"must be a string, got {type(query).__name__}", f"query[{i}]")
        responses = [strip_prompt(q, p) for q, p in zip(queries, columns["prompts"])]
        graded = await self._grade_labels(request, responses, columns["labels"], "labels",
                                          client_deadline_s(request, OPENRLHF_DEADLINE_S))
        rewards = [g.reward for g in graded]
        return JSONResponse({
            "rewards": rewards, "scores": rewards,
            # per-sample values: OpenRLHF concatenates extra_logs per sample and logs their mean
            "extra_logs": {"verifier_ungraded": [1.0 if g.ungraded else 0.0 for g in graded]},
            "verdicts": [g.verdict for g in graded], "details": [g.detail for g in graded],
        })

    async def slime_remote_rm(self, request: Request) -> Response:
        """slime: ``{"prompt", "response", "label"}`` -> the reward as a bare JSON number (what
        ``sample.reward`` becomes), or with ``?detail=1`` an object for ``--reward-key reward``."""
        self.http.check_serving()
        body = await self.http.read_json(request)
        if not isinstance(body, dict) or not isinstance(body.get("response"), str):
            raise HttpError(400, 'body must be a JSON object with "response": "..." (and "label")', "response")
        graded, = await self._grade_labels(request, [body["response"]], [body.get("label")], "label",
                                           client_deadline_s(request, SLIME_DEADLINE_S), single=True)
        if request.query_params.get("detail") in ("1", "true"):
            return JSONResponse({"reward": graded.reward, "verdict": graded.verdict, "ungraded": graded.ungraded,
                                 "detail": graded.detail})
        return JSONResponse(graded.reward)

    async def _grade_labels(self, request: Request, responses: Sequence[str | None], labels: Sequence[Any],
                            field: str, deadline_s: float | None, single: bool = False) -> list[Graded]:
        """One Graded per item; an item that cannot become a valid task is ungraded, not an error, its
        reason naming the label's field (`labels[3].FAIL_TO_PASS`, or `label.` when `single`).
        As many items as the client sends in one body (bounded by --max-request-bytes, not by a count the
        client cannot know: OpenRLHF v0.8 posts a whole rollout batch); chunked through admission (_grade)."""
        profile = request.query_params.get("profile", "strict")
        if profile not in PROFILES:
            raise HttpError(400, f"must be one of {PROFILES}, got {profile!r}", "profile")
        rules = RowRules(math_profile=profile)  # the trainer adapters' defaults (verifier/formats/rows.py)
        out = [Graded(0.0, True, "error", "")] * len(responses)
        tasks: list[Task] = []
        slots, skipped = [], []
        limits = self.http.engine.limits()
        for i, (response, label) in enumerate(zip(responses, labels)):
            where = field if single else f"{field}[{i}]"
            # the whole response: the row reader cuts all but a repo task's patch (rows.graded_text)
            task = label_task(str(i), response, self._with_environment(label), rules)[0] if response is not None \
                else f"query[{i}]: the prompt is not in the query"
            if isinstance(task, dict):
                try:
                    check_task_keys(task, where)
                    tasks.append(parse_task(task, where, limits))  # the one decode of this item, the gRPC port's bounds
                    slots.append(i)
                    continue
                except ValueError as e:  # TaskError names the field under `where`
                    task = str(e) if isinstance(e, TaskError) else f"{where}: {e}"
            elif response is not None:
                task = f"{where}: {task}"
            out[i] = Graded(0.0, True, "error", task)
            skipped.append(task)
        if skipped:  # one line per request, not per item: a dataset without labels would flood the log
            log.warning("%d of %d items not graded (reward 0.0), first: %s", len(skipped), len(responses), skipped[0])
        if tasks:
            for i, result in zip(slots, await self.http.grade_tasks(request, tasks, deadline_s=deadline_s)):
                ungraded = result["verdict"] in UNJUDGED  # not judged, not wrong: 0.0 and a flag
                out[i] = Graded(0.0 if ungraded else float(result["score"]), ungraded, result["verdict"],
                                str(result.get("detail") or ""))
        return out

    def _with_environment(self, label: Any) -> Any:
        """A SWE-bench row as stored (no `test_cmd`) gets the test command and report its environment
        recorded on this server (`--sandbox-repo-environments`), as `verifier grade` in-process does
        (docs/repo-tasks.md "Trainers"); any other label as it is."""
        mapping = as_mapping(label)
        if mapping is None or "kind" in mapping or not swebench.detect(mapping):
            return label
        return swebench.with_environment_defaults(mapping, self.http.config.sandbox.repo_environments)

    async def run_code(self, request: Request) -> Response:
        """SandboxFusion ``/run_code`` as verl's sandbox_fusion reward calls it (one program, one stdin) -> its
        ``status`` / ``compile_result`` / ``run_result`` shape. An Execute run (verifier/api/execute.py): the
        same hardened sandboxes and admission as code grading; run_timeout and memory_limit_MB are capped at
        the language's limits (GetServerInfo)."""
        http = self.http
        http.check_serving()
        body = await http.read_json(request)
        if not isinstance(body, dict):
            raise HttpError(400, "body must be a JSON object", "body")
        try:
            task, files = execute_task(self._execute_request(body), http.engine.limits(), http.config.sandbox.output_limit_bytes)
        except TaskError as e:  # a value the sandbox cannot honour (memory_limit_MB under its minimum)
            return JSONResponse(sandbox_fusion_answer(execute_response({"verdict": "infra_error",
                                                                        "detail": f"bad task: TaskError: {e}"})))
        result = await http.run_program(request, task, files, client_deadline_s(request, verl_deadline_s(body)))
        return JSONResponse(sandbox_fusion_answer(execute_response(result)))

    def _execute_request(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """verl's request as an Execute request (its keys: verifier/execute_wire.py REQUEST_KEYS); raises
        HttpError for a malformed field. A value the sandbox refuses is execute_task's TaskError."""
        code, stdin = body.get("code"), body.get("stdin") or ""
        if not isinstance(code, str) or not code.strip():
            raise HttpError(400, "must be a non-empty string", "code")
        if not isinstance(stdin, str):
            raise HttpError(400, "must be a string", "stdin")
        for name, value in (("code", code), ("stdin", stdin)):
            if len(value.encode("utf-8", "surrogatepass")) > self.http.config.max_field_bytes:
                raise HttpError(413, f"exceeds {self.http.config.max_field_bytes} bytes (--max-field-bytes)", name)
        if body.get("files") or body.get("fetch_files"):
            raise HttpError(400, "files are not supported", "files")
        language = RUN_CODE_LANGUAGES.get(str(body.get("language") or "python"))
        limits = self.http.engine.languages().get(language or "")
        if limits is None:
            raise HttpError(400, f"must be one of {sorted(RUN_CODE_LANGUAGES)}", "language")
        numbers: dict[str, float] = {}
        for name in ("run_timeout", "memory_limit_MB"):
            number = body.get(name) or 0
            if isinstance(number, bool) or not isinstance(number, (int, float)) or not 0 <= number < 1e6:
                raise HttpError(400, "must be a non-negative number", name)
            numbers[name] = number
        return {"language": language, "code": code, "stdin": stdin,
                "time_limit_s": min(float(numbers["run_timeout"]), limits["max_time_limit_s"]) or None,
                "memory_limit_mb": int(min(numbers["memory_limit_MB"], limits["max_memory_limit_mb"])) or None,
                # all of stdout, up to the sandbox's output limit (more is output_limit): verl compares it whole,
                # so a 1 MiB head (SandboxFusion's) would score a right program wrong (docs/service.md "HTTP/JSON")
                "max_output_bytes": self.http.config.sandbox.output_limit_bytes}


def strip_prompt(query: str, prompt: Any) -> str | None:
    """The response part of an OpenRLHF query (prompt + response), or None when the prompt is not in it.

    The prompt is never graded: a few-shot prompt's own ``\\boxed{}`` answers would otherwise be
    extracted from a response that has none. A prefix (BOS) that the tokenizer's decode adds before
    the prompt is tolerated by taking the text after the prompt's first occurrence.
    """
    if prompt is None:
        return query
    if not isinstance(prompt, str):
        return None
    if query.startswith(prompt):
        return query[len(prompt):]
    at = query.find(prompt) if prompt else 0
    return None if at < 0 else query[at + len(prompt):]


def verl_deadline_s(body: Mapping[str, Any]) -> float | None:
    """How long verl's call_sandbox_api waits for one /run_code answer: compile_timeout + run_timeout + 10 s
    (its API_TIMEOUT; volcengine/verl b178a3cd verl/utils/reward_score/sandbox_fusion/utils.py). It retries a
    504 (3 attempts, 1 s then 2 s apart) and nothing else. None when the body names neither timeout."""
    values = [body.get(k) for k in ("compile_timeout", "run_timeout")]
    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v < 1e6]
    return sum(numbers) + VERL_API_TIMEOUT_S if numbers else None


def sandbox_fusion_answer(response: Mapping[str, Any]) -> dict:
    """An Execute response (verifier/api/execute.py execute_response) in SandboxFusion's shape: verl reads
    ``status`` (Success / Failed / SandboxError), then ``compile_result`` or ``run_result`` (``status``
    Finished / TimeLimitExceeded, ``return_code``, ...)."""
    answer: dict[str, Any] = {"status": "Failed", "message": "", "compile_result": None, "run_result": None,
                              "executor_pod_name": None, "files": {}}
    status = response["status"]
    if status == "infra_error":
        return {**answer, "status": "SandboxError", "message": str(response["detail"] or status)}
    if status == "compile_error":
        answer["compile_result"] = {"status": "Finished", "execution_time": response["exec_s"], "return_code": 1,
                                    "stdout": "", "stderr": response["stderr"]}
        return answer
    exit_code = response["exit_code"]
    if status != "ok" and not exit_code:
        exit_code = 1  # killed for memory or output: not a clean exit, whatever the kernel reported
    answer["run_result"] = {"status": "TimeLimitExceeded" if status == "time_limit" else "Finished",
                            "execution_time": response["cpu_s"], "return_code": exit_code or 0,
                            "stdout": response["stdout"], "stderr": response["stderr"]}
    answer["status"] = "Success" if status == "ok" else "Failed"
    return answer
