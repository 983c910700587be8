"""verl: `custom_reward_function.path=examples/verl_reward.py` (see verl_reward.yaml).

`compute_score` for verl's per-sample managers (concurrent calls share one RPC),
`compute_score_async` for its reward loop (a whole step shares one RPC), `compute_score_batch`
for its batch manager. VERIFIER_TARGET names the service.
"""

import importlib.util
import os
import sys

if importlib.util.find_spec("trainer") is None:  # a checkout that is not installed
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from trainer.verl import compute_score, compute_score_async, compute_score_batch

__all__ = ["compute_score", "compute_score_async", "compute_score_batch"]
