#!/usr/bin/env bash
# TRL's command line: reward functions by dotted path (plain sync functions, any TRL release).
export VERIFIER_TARGET=${VERIFIER_TARGET:-127.0.0.1:50051}
trl grpo --model_name_or_path "$MODEL" --dataset_name "$DATASET" --output_dir out \
  --reward_funcs trainer.trl_sync.accuracy trainer.trl_sync.format --reward_weights 1.0 0.2
