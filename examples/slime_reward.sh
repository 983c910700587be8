#!/usr/bin/env bash
# slime: group-mode reward on the verifier service (one RPC per group of samples).
export VERIFIER_TARGET=${VERIFIER_TARGET:-127.0.0.1:50051}
python train.py "$@" \
  --custom-rm-path trainer.slime.reward_func \
  --group-rm
