"""End-of-turn tokens left in a completion by a decode that keeps special tokens (OpenRLHF decodes with
skip_special_tokens=False; issue 18): one reader (sandbox.checks.strip_end_tokens) for code and math.
Rewrites (a right answer followed by tokens) pass; near misses (a token anywhere else) never turn a wrong
answer into a right one."""

from __future__ import annotations

import pytest

from sandbox.checks import END_TOKENS, extract_code, strip_end_tokens
from verifier.math import grade_math

FENCED = "Here it is:\n```python\nprint(int(input()) * 2)\n```"


@pytest.mark.parametrize("token", END_TOKENS)
def test_each_template_token_after_a_closing_fence_is_not_code(token):
    code, how = extract_code(FENCED + token, "python")
    assert (code, how) == ("print(int(input()) * 2)\n", "fenced:python")


@pytest.mark.parametrize("tail", ["<|im_end|>", "<|im_end|>\n", "\n<|eot_id|>", "<|im_end|><|endoftext|><|endoftext|>",
                                  " </s> \n </s>", "<｜end▁of▁sentence｜>", "<end_of_turn>\n<eos>"])
def test_repeated_tokens_and_whitespace_at_the_end(tail):
    assert extract_code(FENCED + tail, "python") == ("print(int(input()) * 2)\n", "fenced:python")
    assert extract_code("print(1)" + tail, "python") == ("print(1)", "raw")  # an unfenced program too
    assert strip_end_tokens("\\boxed{2}" + tail) == "\\boxed{2}"


def test_only_trailing_tokens_go():
    assert strip_end_tokens("a<|im_end|>b") == "a<|im_end|>b"
    assert strip_end_tokens("text \n") == "text \n"  # nothing to strip: untouched
    assert strip_end_tokens("<|im_end|>") == ""
    assert strip_end_tokens("x<|im_end") == "x<|im_end"  # not a whole token
    code, how = extract_code("```python\nprint(1)\n```<|im_end|>print(2)", "python")
    assert code != "print(1)\n" and "print(2)" in code  # a token in the middle is text: no closing fence there


@pytest.mark.parametrize("completion,gold,verdict", [
    ("\\boxed{2}<|im_end|>", "2", "correct"),                      # rewrite: the token is not the answer
    ("The answer is 2<|eot_id|><|end_of_text|>", "2", "correct"),
    ("so \\boxed{\\frac{1}{2}}\n</s>", "0.5", "correct"),
    ("\\boxed{5}<|im_end|>6", "56", "incorrect"),                  # near miss: the token does not join 5 and 6
    ("\\boxed{5<|im_end|>}", "5", "incorrect"),                    # a token inside the box is part of it
    ("\\boxed{3}<|im_end|>", "2", "incorrect"),
    ("\\boxed{2}<|im_end|>\\boxed{3}", "2", "incorrect"),          # the answer after the token is the last one
    ("The answer is 2<|im_end|>1", "2", "incorrect"),
])
def test_math_reads_through_trailing_tokens_only(completion, gold, verdict):
    for profile in ("strict", "lenient"):
        got = grade_math({"completion": completion, "gold": gold, "profile": profile})["verdict"]
        assert got == verdict or (verdict == "incorrect" and got == "no_answer"), (completion, profile, got)
