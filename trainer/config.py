"""Configuration of the trainer-side reward client: one dataclass, every field documented.

Kept free of torch/trl/grpc imports so `verifier` (the CLI) and the reward functions stay light.
The bearer token is never a field: it is read from VERIFIER_TOKEN or `token_file` when a client is
made (`RewardConfig.client_config`), so saved configs cannot leak it.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from sandbox.contract import MAX_COMPLETION_CHARS, MAX_TESTS
from sandbox.contract import DEFAULT_COMPARE, DEFAULT_LANGUAGE, DEFAULT_PROFILE, PROFILES, SCORINGS
from verifier.client_config import ClientConfig

COMPONENTS = ("accuracy", "format", "pass_rate", "compiles")
KINDS = ("auto", "math", "code")


@dataclass
class RewardConfig:
    """How TRL batches become verifier tasks, and what happens when the service misbehaves.

    One `RewardConfig` gives one RPC per batch and several named reward functions (one per entry of
    `components`), so TRL logs `rewards/<name_prefix><component>/mean` for each and `reward_weights`
    applies per component.
    """

    target: str = field(default="127.0.0.1:50051", metadata={
        "help": "Verifier address: 'host:port', 'dns:///svc:port' or 'h1:p1,h2:p2'."})
    components: tuple[str, ...] = field(default=("accuracy", "format"), metadata={
        "help": "Reward functions to expose, in order. accuracy: the task's score in [0, 1] (math 1/0; code "
                "per `code_scoring`). format: 1 if an answer or code block was found where the profile "
                "looks for it. pass_rate: code only, fraction of tests passed. compiles: code only, 1 unless "
                "compile_error/no_code. A component that does not apply to a row gives None for it."})
    name_prefix: str = field(default="verifier_", metadata={
        "help": "Prefix of each reward function's __name__ (TRL's log key is rewards/<name>/mean)."})
    kind: str = field(default="auto", metadata={
        "help": "auto: a row with `verification_info`, `tests` or `test_code` is code, anything else math; "
                "or force 'math' / 'code'."})
    gold_columns: tuple[str, ...] = field(default=("solution", "answer", "ground_truth"), metadata={
        "help": "Dataset columns searched, in order, for the math ground truth (TRL/open-r1 use `solution`)."})
    math_profile: str = field(default=DEFAULT_PROFILE, metadata={
        "help": "'strict' (answer only from the last \\boxed{} or a final-answer anchor) or 'lenient'. "
                "A `profile` column overrides it per row."})
    problem_from_prompt: bool = field(default=True, metadata={
        "help": "Send a math row's prompt (TRL's `prompts`: a string, or the user messages' text) as the task's "
                "`problem` where the dataset has no `problem` column, which wins. The problem is trusted text (the "
                "dataset's, never the policy's): the answer grammar reads the names it uses, so a step line such as "
                "`所以 x = 6；` above `答案是 6。` is read (docs/math.md \"Answer grammar\"). Off: only the column."})
    code_language: str = field(default=DEFAULT_LANGUAGE, metadata={
        "help": "Language of code rows that do not name one."})
    code_scoring: str = field(default="fraction", metadata={
        "help": "'fraction' (score = share of tests passed, like open-r1's code reward) or 'all' (binary)."})
    code_compare: str = field(default=DEFAULT_COMPARE, metadata={
        "help": "Output comparison of code tests: exact | lines | tokens | float."})
    task_timeout_s: float = field(default=0.0, metadata={
        "help": "Per-item grading deadline asked of the server; 0 means the server default."})
    max_completion_chars: int = field(default=MAX_COMPLETION_CHARS, metadata={
        "help": "Completions longer than this are cut to their last N characters (answers sit at the end), "
                "keeping requests under the server's field limit. Never a repo task's: a patch cut is another "
                "patch, so one over the server's field limit is ungraded."})
    max_tests_per_task: int = field(default=MAX_TESTS, metadata={
        "help": "Rows with more tests than this are not sent (reward None) instead of failing the batch."})
    client: ClientConfig = field(default_factory=lambda: ClientConfig(timeout_s=60.0, max_retries=3), metadata={
        "help": "The verifier client's settings (verifier.client.ClientConfig): timeout_s (deadline of one batch, "
                "retries included; keep it well below ddp_timeout, 1800 s: TRL waits on reward functions with no "
                "timeout of its own), max_retries, backoff, tls and root_cert (the CA of the server's certificate). "
                "Put no token here: it comes from VERIFIER_TOKEN or token_file when the client is made."})
    token_file: str = field(default="", metadata={
        "help": "File holding the bearer token (a mounted secret); VERIFIER_TOKEN, when set, wins. Read when "
                "the client is made, so the token never sits in this config or in anything saved from it."})
    breaker_threshold: float = field(default=0.5, metadata={
        "help": "A batch counts as failed when at least this fraction of its items came back ungraded."})
    breaker_patience: int = field(default=3, metadata={
        "help": "Consecutive failed batches after which the reward function raises RewardServiceError "
                "(training stops with a clear message instead of learning from nothing). 0 disables."})
    log_samples: bool = field(default=True, metadata={
        "help": "Send per-sample verdict, extracted answer and grading latency to TRL's log_extra."})

    def __post_init__(self) -> None:
        if isinstance(self.client, Mapping):  # from YAML
            unknown = sorted(set(self.client) - {f.name for f in dataclasses.fields(ClientConfig)})
            if unknown:
                raise ValueError(f"client: unknown key(s) {unknown}")
            self.client = ClientConfig(**self.client)
        if self.client.token:
            raise ValueError("client.token: put the token in VERIFIER_TOKEN or a token_file, not in the config "
                             "(configs are saved with the run)")
        self.components = tuple(self.components)
        self.gold_columns = tuple(self.gold_columns)
        bad = [c for c in self.components if c not in COMPONENTS]
        if bad or not self.components:
            raise ValueError(f"components: unknown {bad or 'empty list'}; choose from {COMPONENTS}")
        if len(set(self.components)) != len(self.components):
            raise ValueError("components: duplicates")
        if self.kind not in KINDS:
            raise ValueError(f"kind: must be one of {KINDS}, got {self.kind!r}")
        if self.math_profile not in PROFILES:
            raise ValueError(f"math_profile: must be 'strict' or 'lenient', got {self.math_profile!r}")
        if self.code_scoring not in SCORINGS:
            raise ValueError(f"code_scoring: must be 'all' or 'fraction', got {self.code_scoring!r}")
        if not 0.0 < self.breaker_threshold <= 1.0:
            raise ValueError("breaker_threshold: must be in (0, 1]")
        if self.client.timeout_s <= 0 or self.max_completion_chars <= 0:
            raise ValueError("client.timeout_s and max_completion_chars: must be positive")

    def client_config(self, environ: Mapping[str, str] | None = None) -> ClientConfig:
        """The client settings with the token (VERIFIER_TOKEN, else token_file, else VERIFIER_TOKEN_FILE) and
        TLS (VERIFIER_CA_CERT / VERIFIER_TLS add to `client`), resolved now, in the process that connects.
        A task the server would refuse answers that row alone (on_invalid="result"): one bad row costs one
        reward, not the batch."""
        env = os.environ if environ is None else environ
        token = env.get("VERIFIER_TOKEN", "").strip()
        token_file = self.token_file or env.get("VERIFIER_TOKEN_FILE", "")
        if not token and token_file:
            try:
                with open(token_file, encoding="utf-8") as fh:
                    token = fh.read().strip()
            except OSError as e:
                raise ValueError(f"token_file {token_file!r} cannot be read ({e.strerror})") from None
        root_cert = self.client.root_cert or env.get("VERIFIER_CA_CERT", "")
        tls = self.client.tls or bool(root_cert) or env.get("VERIFIER_TLS", "").strip().lower() in ("1", "true", "yes", "on")
        return dataclasses.replace(self.client, token=token, tls=tls, root_cert=root_cert, on_invalid="result")
