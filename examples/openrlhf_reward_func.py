"""OpenRLHF: `--remote_rm_url examples/openrlhf_reward_func.py --label_key answer`.

OpenRLHF loads `reward_func` from this file; it grades on the verifier service named by
VERIFIER_TARGET (default 127.0.0.1:50051). See trainer/openrlhf.py for labels and the ungraded policy.
Alternatively point --remote_rm_url at the service's HTTP route http://HOST:8080/get_reward.
"""

import importlib.util
import os
import sys

if importlib.util.find_spec("trainer") is None:  # a checkout that is not installed
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from trainer.openrlhf import reward_func

__all__ = ["reward_func"]
