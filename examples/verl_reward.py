"""verl: `custom_reward_function.path=examples/verl_reward.py` (see verl_reward.yaml).

`compute_score` for verl's per-sample managers (concurrent calls share one RPC),
`compute_score_async` for its reward loop (a whole step shares one RPC), `compute_score_batch`
for its batch manager. VERIFIER_TARGET names the service.
"""

from trainer.verl import compute_score, compute_score_async, compute_score_batch

__all__ = ["compute_score", "compute_score_async", "compute_score_batch"]
