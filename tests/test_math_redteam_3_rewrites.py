"""Rewrites that the fixes for red team 3 (tests/test_math_redteam_3.py) could over-refuse, graded by the real
grader in both profiles (docs/math.md "Answer grammar"): each is a right answer and must still pay. One list
per class the fixes closed; the near misses are the red team's file."""

from __future__ import annotations

from tests.helpers import paid_test

REWRITES = [
    # 1. Text beside a value holds words and their punctuation ("Text holds words").
    (r"\boxed{6\text{ cm}}", "6"), (r"\boxed{6\text{ apples}}", "6"), (r"\boxed{6\,\mathrm{kg}}", "6"),
    (r"\boxed{6\text{°C}}", "6"), (r"\boxed{6\text{ \textdegree}}", "6"), (r"\boxed{6\text{ \%}}", "6"),
    (r"The answer is $6\text{ m/s}$.", "6"),
    # 2. An ellipsis as a list's item ("A number that goes on").
    (r"\boxed{1, 2, 3, \ldots}", r"1, 2, 3, \ldots"), (r"\boxed{1, 3, 5, \ldots, 2n-1}", r"1, 3, 5, \ldots, 2n-1"),
    # 3. A name of two or more named quantities (`compare._is_name`).
    (r"\boxed{\frac{1}{\sqrt{6}}}", r"\frac{NO}{BO}=\frac{1}{\sqrt{6}}"), (r"\boxed{x = 6}", "6"),
    # 7. Named values read by name.
    (r"\boxed{x = 1, y = 2}", "x = 1, y = 2"), (r"\boxed{y = 2, x = 1}", "(x, y) = (1, 2)"),
    (r"\boxed{a = 2, b = 3, c = 1}", "(2, 3, 1)"), (r"\boxed{x = 1, x = 2}", r"\{1, 2\}"),
    (r"$x = \boxed{1}$ and $y = \boxed{2}$", "(1, 2)"),
    # 9. A closing clause after a box.
    (r"\boxed{6}.", "6"), (r"\boxed{6} and we are done.", "6"), (r"\boxed{6} which is the answer.", "6"),
    (r"\boxed{6} as required.", "6"),
    # 4. Concluding clauses before an anchor or a box.
    ("Okay, so the answer is 6.", "6"), ("In summary, the answer is 6.", "6"),
    ("Putting it all together, the answer is 6.", "6"), ("所以，答案是6。", "6"), ("So, \\boxed{6}", "6"),
    ("Step-by-Step Answer: He had 2, got 4 more. 2 + 4 = 6. The answer is 6.", "6"),
    ("逐步解答：一开始有 2 辆车，又来了 4 辆。答案是 6。", "6"),
    # 5. Labels that say the box is the answer.
    ("Total cost: \\boxed{6}", "6"), ("Step 3: \\boxed{6}", "6"), ("The values of $k$ are: \\boxed{6}", "6"),
    ("$x$: \\boxed{6}", "6"), ("最终答案：\\boxed{6}", "6"), ("A total of \\boxed{6}", "6"),
]


test_a_right_answer_still_pays = paid_test(REWRITES, argnames=("completion", "gold"))
