"""Settings of the Python client, in a module that imports nothing heavy (no grpc), so configs that
hold one (the trainer's RewardConfig) load anywhere. `verifier.client` re-exports it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ClientConfig:
    """Settings of VerifierClient / AsyncVerifierClient."""

    timeout_s: float = field(default=120.0, metadata={"help": "Deadline of one grade() call, retries included. "
                             "It is also the retry budget: a server that cannot be reached (down, restarting, a "
                             "stream cut mid-call) is retried with backoff until it passes."})
    max_retries: int = field(default=5, metadata={"help": "Times items the server answered infra_error (retryable) "
                             "are resubmitted, within timeout_s. Transport failures are not counted: they are "
                             "retried until the deadline."})
    backoff_initial_s: float = field(default=0.2, metadata={"help": "First retry delay; doubles each round, with jitter."})
    backoff_max_s: float = field(default=5.0, metadata={"help": "Cap of one retry delay."})
    max_inflight_calls: int = field(default=8, metadata={"help": "Sub-batches in flight at once per grade() call."})
    token: str = field(default="", metadata={"help": "Bearer token sent as `authorization` metadata."})
    tls: bool = field(default=False, metadata={"help": "Use TLS (system roots unless root_cert is given)."})
    root_cert: str = field(default="", metadata={"help": "PEM file of the CA that signed the server's certificate."})
    max_message_bytes: int = field(default=64 << 20, metadata={"help": "Largest message the channel sends or receives."})
    on_invalid: str = field(default="raise", metadata={"help": "A task the server would refuse (bad field, over a limit): 'raise' "
                            "VerifierError for the call, or 'result': answer that task alone with verdict 'error' naming the "
                            "field and grade the rest (what a trainer wants: one bad row must not cost a batch)."})
