"""OpenRLHF: `--remote_rm_url examples/openrlhf_reward_func.py --label_key answer`.

OpenRLHF loads `reward_func` from this file; it grades on the verifier service named by
VERIFIER_TARGET (default 127.0.0.1:50051). See trainer/openrlhf.py for labels and the ungraded policy.
Alternatively point --remote_rm_url at the service's HTTP route http://HOST:8080/get_reward.
"""

from trainer.openrlhf import reward_func

__all__ = ["reward_func"]
