"""A tiny, download-free GRPO setup: arithmetic dataset, tokenizer trained on the spot, Qwen2 model
built from a config, and a seconds-long SFT warm-up.

Used by `verifier train --tiny`, the tests and bench/learn_tiny.py. The same builders make a
realistically sized untrained model (pass a bigger `ModelSize`) for GPU timing runs on machines
with no model hub.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

SPECIAL_TOKENS = ["<unk>", "<pad>", "<|im_start|>", "<|im_end|>"]
CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


@dataclass
class ModelSize:
    """Shape of the Qwen2-style model built from a config (defaults: tiny, trains on CPU in seconds)."""

    hidden_size: int = field(default=64, metadata={"help": "Width; 896 with 24 layers is Qwen2-0.5B's shape."})
    intermediate_size: int = field(default=128, metadata={"help": "MLP width."})
    num_hidden_layers: int = field(default=2, metadata={"help": "Decoder layers."})
    num_attention_heads: int = field(default=4, metadata={"help": "Query heads."})
    num_key_value_heads: int = field(default=2, metadata={"help": "Key/value heads (grouped-query attention)."})
    max_position_embeddings: int = field(default=256, metadata={"help": "Longest sequence (prompt + completion)."})


def arithmetic_problems(max_operand: int = 9) -> list[tuple[int, int]]:
    """Every a+b with 0 <= a, b <= max_operand: small enough to memorise, big enough to be learned."""
    return [(a, b) for a in range(max_operand + 1) for b in range(max_operand + 1)]


def prompt_text(a: int, b: int) -> str:
    return f"{a}+{b}="


def answer_text(value: int) -> str:
    """The completion format the strict profile grades: the answer in the last \\boxed{}."""
    return f"\\boxed{{{value}}}"


def arithmetic_dataset(max_operand: int = 9, conversational: bool = False, repeat: int = 1, seed: int = 0) -> Any:
    """A `datasets.Dataset` with `prompt` and `solution` columns (TRL/open-r1's ground-truth column)."""
    from datasets import Dataset

    rows = arithmetic_problems(max_operand) * repeat
    random.Random(seed).shuffle(rows)
    prompts: list[Any] = [prompt_text(a, b) for a, b in rows]
    if conversational:
        prompts = [[{"role": "user", "content": p}] for p in prompts]
    return Dataset.from_dict({"prompt": prompts, "solution": [str(a + b) for a, b in rows]})


def build_tokenizer(max_operand: int = 9, extra_texts: list[str] | None = None, vocab_size: int = 300) -> Any:
    """A byte-level BPE trained on the task's strings, with a chat template; no download."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    corpus = [prompt_text(a, b) + answer_text(a + b) for a, b in arithmetic_problems(max_operand)]
    corpus += [answer_text(n) for n in range(2 * max_operand + 1)] + ["user\n", "assistant\n", "system\n"]
    corpus += extra_texts or []
    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(corpus * 4, trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    fast = PreTrainedTokenizerFast(  # type: ignore[no-untyped-call]  # transformers' __init__ is untyped
        tokenizer_object=tok, unk_token="<unk>", pad_token="<pad>", eos_token="<|im_end|>", bos_token=None)
    fast.chat_template = CHAT_TEMPLATE
    fast.padding_side = "left"
    return fast


def build_model(tokenizer: Any, size: ModelSize | None = None, seed: int = 0) -> Any:
    """A randomly initialised Qwen2ForCausalLM sized by `size`, ids matched to the tokenizer."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(seed)
    s = size or ModelSize()
    cfg = Qwen2Config(vocab_size=len(tokenizer), hidden_size=s.hidden_size, intermediate_size=s.intermediate_size,
                      num_hidden_layers=s.num_hidden_layers, num_attention_heads=s.num_attention_heads,
                      num_key_value_heads=s.num_key_value_heads, max_position_embeddings=s.max_position_embeddings,
                      tie_word_embeddings=True, pad_token_id=tokenizer.pad_token_id,
                      eos_token_id=tokenizer.eos_token_id, bos_token_id=tokenizer.eos_token_id)
    model = Qwen2ForCausalLM(cfg)
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.generation_config.bos_token_id = tokenizer.eos_token_id
    return model


def noisy_sft_pairs(max_operand: int = 9, n: int = 2000, p_correct: float = 0.2, seed: int = 0) -> list[tuple[str, str]]:
    """(prompt, completion) pairs: the right answer with probability p_correct, else a random one.

    Trained on these, the model learns the answer format and a weak preference for the right sum:
    a starting accuracy near p_correct that GRPO then has to raise.
    """
    rng = random.Random(seed)
    problems = arithmetic_problems(max_operand)
    pairs = []
    for _ in range(n):
        a, b = rng.choice(problems)
        value = a + b if rng.random() < p_correct else rng.randint(0, 2 * max_operand)
        pairs.append((prompt_text(a, b), answer_text(value)))
    return pairs


def _prompt_ids(tokenizer: Any, prompt: str | list[dict[str, Any]], conversational: bool, tools: list[Callable[..., Any]] | None = None) -> list[int]:
    """A prompt as generation sees it: a string, or (conversational) a user turn or a whole message list."""
    if conversational or isinstance(prompt, list):
        messages = prompt if isinstance(prompt, list) else [{"role": "user", "content": prompt}]
        return list(tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=True, tokenize=True,
                                                  return_dict=True)["input_ids"])
    ids: list[int] = tokenizer(prompt, add_special_tokens=False)["input_ids"]
    return ids


def sft_warmup(model: Any, tokenizer: Any, pairs: list[tuple[Any, str]], steps: int = 300, batch_size: int = 64,
               lr: float = 3e-3, conversational: bool = False, seed: int = 0, tools: list[Callable[..., Any]] | None = None) -> float:
    """A plain causal-LM loop on the completion tokens only; returns the last loss.

    Prompt and completion are tokenised separately, as GRPO generation sees them (the prompt alone,
    then sampled completion tokens, then EOS).
    """
    import torch

    rng = random.Random(seed)
    eos = tokenizer.eos_token_id
    encoded = [(_prompt_ids(tokenizer, p, conversational, tools),
                tokenizer(c, add_special_tokens=False)["input_ids"] + [eos]) for p, c in pairs]
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    model.train()
    loss_value = float("nan")
    for _ in range(steps):
        batch = [encoded[rng.randrange(len(encoded))] for _ in range(batch_size)]
        width = max(len(p) + len(c) for p, c in batch)
        ids = torch.full((batch_size, width), tokenizer.pad_token_id)
        labels = torch.full((batch_size, width), -100)
        mask = torch.zeros((batch_size, width), dtype=torch.long)
        for i, (p, c) in enumerate(batch):
            seq = p + c
            ids[i, :len(seq)] = torch.tensor(seq)
            labels[i, len(p):len(seq)] = torch.tensor(c)
            mask[i, :len(seq)] = 1
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        loss_value = loss.detach().item()
    model.eval()
    return loss_value


# ------------------------------------------------------------------ a tool-calling policy (docs/training.md)
# A chat template that renders tools and tool calls the way Qwen does (<tool_call>{json}</tool_call>),
# and the response template transformers' parse_response reads them back with (TRL's own for Qwen3,
# trl/chat_template_utils.py, as TRL sets for the templates it knows).
TOOL_CHAT_TEMPLATE = (
    "{% if tools %}<|im_start|>system\ntools:{% for t in tools %} {{ t['function']['name'] }}{% endfor %}"
    "<|im_end|>\n{% endif %}"
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{% if m['content'] is string %}{{ m['content'] }}{% endif %}"
    "{% for c in m.get('tool_calls') or [] %}<tool_call>"
    "{{ {'name': c['function']['name'], 'arguments': c['function']['arguments']} | tojson }}</tool_call>{% endfor %}"
    "<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
TOOL_RESPONSE_TEMPLATE = {
    "defaults": {"role": "assistant"},
    "start_anchor": "<|im_start|>assistant\n",
    "fields": {
        "tool_calls": {"open": "<tool_call>", "close_pattern": r"</tool_call>\s*", "repeats": True, "content": "json",
                       "transform": {"type": "function", "function": "{content}"}},
        "content": {"close_pattern": r"<\|im_end\|>\s*", "content": "text"},
    },
}


def tool_call_text(name: str, arguments: dict[str, Any]) -> str:
    """An assistant tool call exactly as TOOL_CHAT_TEMPLATE renders it (so SFT and rollouts agree)."""
    import json

    return f"<tool_call>{json.dumps({'name': name, 'arguments': arguments})}</tool_call>"


def product_problems(low: int = 3, high: int = 7) -> list[tuple[int, int]]:
    """Every a*b with low <= a, b <= high: the tool-calling task (the policy computes it with a cell)."""
    return [(a, b) for a in range(low, high + 1) for b in range(low, high + 1)]


def tool_policy_pairs(tool: str, p_correct: float = 0.5, n: int = 400, seed: int = 0) -> list[tuple[list[dict[str, Any]], str]]:
    """(messages, completion) pairs for a scripted tool-calling policy, two turns per problem:
    1. the user asks "a*b"; the assistant calls `tool` with code `a*b` (right) or `a+b` (a near miss,
       with probability 1 - p_correct: GRPO then sees rewards that differ within a group);
    2. after the tool's answer, the assistant ends its turn (empty content)."""
    rng = random.Random(seed)
    pairs: list[tuple[list[dict[str, Any]], str]] = []
    for _ in range(n):
        a, b = rng.choice(product_problems())
        code = f"{a}*{b}" if rng.random() < p_correct else f"{a}+{b}"
        user = [{"role": "user", "content": f"{a}*{b}"}]
        call = {"type": "function", "function": {"name": tool, "arguments": {"code": code}}}
        pairs.append((user, tool_call_text(tool, {"code": code})))
        pairs.append((user + [{"role": "assistant", "content": "", "tool_calls": [call]},
                              {"role": "tool", "name": tool, "content": str(eval(code))}], ""))  # noqa: S307 - digits
    return pairs


def product_dataset(repeat: int = 1) -> Any:
    """A `datasets.Dataset` of the tool task: a conversational `prompt` and its `solution`."""
    from datasets import Dataset

    rows = product_problems() * repeat
    return Dataset.from_dict({"prompt": [[{"role": "user", "content": f"{a}*{b}"}] for a, b in rows],
                              "solution": [str(a * b) for a, b in rows]})


def build_tool_policy(tools: list[Callable[..., Any]], steps: int = 150, seed: int = 0) -> tuple[Any, Any]:
    """(model, tokenizer): a tiny Qwen2 overfit in seconds to call the first of `tools` with a cell
    whose last expression is the answer (tool_policy_pairs), with a tool-calling chat template and
    the response template TRL's GRPOTrainer parses tool calls with."""
    name = tools[0].__name__
    pairs = tool_policy_pairs(name, seed=seed)
    tok = build_tokenizer(extra_texts=[c for _, c in pairs], vocab_size=400)
    tok.chat_template = TOOL_CHAT_TEMPLATE
    tok.response_template = TOOL_RESPONSE_TEMPLATE
    model = build_model(tok, seed=seed)
    sft_warmup(model, tok, pairs, steps=steps, batch_size=32, conversational=True, seed=seed, tools=tools)
    return model, tok
