"""fx29bd (issue 29; red team 31 classes 1 and 2, tests/test_math_redteam_31.py): admit only what is known safe.

Class 1: a problem's one-letter names are where a letter is an operand of its math (`grammar._problem_letters`): inside
a math span that holds math (a price's `$` opens nothing, a `\\text{}` holds wording), or with an operand on the far
side of an operator beside it; prose punctuation (a hyphen or slash glued into a word, a grade's plus, Markdown, HTML,
a code list's `=`) grounds nothing. Class 2: a font group holds words (`grammar._scan`): a function word spelled as
text is not the function, so the grammar reads `6\\text{ pi}` as the comparison does (6 and a word) and refuses it;
`\\operatorname{}` alone names an operator. Class 3b (lenient's name slot): a name is read on its NFKD fold, and
a letter that folds to no ASCII letter makes no name (`Maŷbe`, `Mᴀʏʙᴇ`, `Thousanđs` are not persons). Near misses must be
refused, rewrites must pay (docs/math.md)."""
from __future__ import annotations

import pytest

from tests.helpers import MATH_PROFILES
from verifier.math import grade_math

ANSWER = "答案是 6。"


def verdicts(completion: str, gold: str = "6", problem: str | None = None) -> list[str]:
    """The verdict in each profile, with the task's problem text when given."""
    task = {"completion": completion, "gold": gold, **({"problem": problem} if problem is not None else {})}
    return [grade_math({**task, "profile": p})["verdict"] for p in MATH_PROFILES]


# ----------------------------------------------------------------- class 1: near misses (prose grounds no letter)

PROSE_NEAR = [
    ("所以 C + A = 6；", "An X-ray and a U-turn; answer A/C or B/W. How many?"),     # glued hyphens and slashes
    ("所以 N + O = 6；", "Answer N/O. Y/N? How many?"),
    ("所以 C + A = 6；", "It costs $5 (A) 5 (B) 6 (C) 7 (D) $8"),                     # two prices, choices between
    ("所以 C + A = 6；", "It costs $5. Pick A or C, then $x$."),                      # a price before a real span
    ("所以 C + A = 6；", "Compute $2 + 4$. $\\mbox{Choose A or C}$"),                 # wording in a math span
    ("所以 C + A = 6；", "Compute $2 + 4 = \\textbf{A or C}$."),
    ("所以 C + A = 6；", "Answer <b>A</b> or <b>C</b>: how many?"),                  # HTML markup
    ("所以 C + A = 6；", "Use A -> C. How many?"),                                    # an arrow between letters
    ("所以 C + A = 6；", "Code: A=agree, C=disagree."),                               # a code list, glued
    ("所以 C + A = 6；", "Grades: A+, C-. How many?"),                                # grades
    ("所以 C + A = 6；", "Write A - the first - and C."),                             # dashes in prose
    ("所以 C + A = 6；", "Tom had $12 and spent $6 on (A) pens or (C) caps."),       # a price pair's wording
]


@pytest.mark.parametrize(("step", "problem"), PROSE_NEAR)
def test_a_problems_prose_punctuation_grounds_no_name(step: str, problem: str) -> None:
    assert verdicts(f"{step}\n{ANSWER}", problem=problem) == ["no_answer"] * len(MATH_PROFILES)


# ----------------------------------------------------------------- class 1: rewrites (a problem's math grounds them)

MATH_REWRITES = [
    ("所以 x = 6；", "If x + 2 = 8, find x."),                                        # an operand each side
    ("所以 a = 6；", "If a/b = 3 and b = 2, find a."),                                # a lower-case quotient
    ("所以 a = 6；", "What is a if 5*a^2 = 180?"),
    ("所以 x = 6；", "If AE = x and AB = 12, find AE."),                              # a segment's capitals
    ("所以 x = 6；", "Find x if x-y = 0 and y = 6."),
    ("所以 y = 6；", "Let y = 2 \\times 3. Find y."),
    ("所以 p = 6；", "A pen costs $2 and a book $4. If $p$ is the total, find $p$."),  # prices before real spans
    ("所以 x = 6；", "Solve $3x = 18$, then $y$."),                                   # a span opening on a digit
    ("所以 x = 6；", "Find $x$ if it costs $5."),                                     # a lone price after a span
]


@pytest.mark.parametrize(("step", "problem"), MATH_REWRITES)
def test_a_problems_math_still_grounds_its_names(step: str, problem: str) -> None:
    assert verdicts(f"{step}\n{ANSWER}", problem=problem) == ["correct"] * len(MATH_PROFILES)
    assert verdicts(f"{step}\n答案是 7。", gold="6", problem=problem) == ["incorrect"] * len(MATH_PROFILES)
    assert verdicts(f"{step}\n{ANSWER}", problem="") == ["no_answer"] * len(MATH_PROFILES)  # the problem grounds it


# ----------------------------------------------------------------- class 2: a font group holds words

FONT_NEAR = [
    ("\\boxed{6\\text{ sqrt}}", "6"), ("\\boxed{6\\textrm{ gcd}}", "6"), ("\\boxed{6\\textit{ log}}", "6"),
    ("\\boxed{6\\mbox{ lcm}}", "6"), ("\\boxed{6\\text{ cos}}", "6"), ("\\boxed{6\\mathrm{ max}}", "6"),
    ("\\boxed{6\\textbf{ pi}}", "6"), ("\\boxed{6\\text{ det}}", "6"), ("\\boxed{6\\text{ ln}}", "6"),
    ("\\boxed{6\\operatorname{pi}}", "6"), ("\\boxed{6\\text{ pi}}", "6\\pi"), ("\\boxed{6\\mathrm{pi}}", "6\\pi"),
    ("The answer is $6\\textrm{ pi}$.", "6"), ("\\boxed{\\text{max}}", "6"),
]


@pytest.mark.parametrize(("completion", "gold"), FONT_NEAR)
def test_a_function_word_spelled_as_text_is_no_function(completion: str, gold: str) -> None:
    assert "correct" not in verdicts(completion, gold)


FONT_REWRITES = [  # (right answer, gold, the same answer perturbed)
    ("\\boxed{6\\pi}", "6\\pi", "\\boxed{7\\pi}"), ("\\boxed{6 \\pi}", "6\\pi", "\\boxed{6}"),
    ("The answer is $6\\pi$.", "6\\pi", "The answer is $6$."),
    ("\\boxed{\\operatorname{lcm}(2,3)}", "6", "\\boxed{\\operatorname{lcm}(2,4)}"),
    ("\\boxed{\\operatorname{gcd}(12, 18)}", "6", "\\boxed{\\operatorname{gcd}(12, 16)}"),
    ("\\boxed{\\max(2,6)}", "6", "\\boxed{\\min(2,6)}"),
    ("\\boxed{6\\text{ cm}}", "6", "\\boxed{7\\text{ cm}}"), ("\\boxed{6\\,\\text{cm}}", "6", "\\boxed{6\\,\\text{thousand}}"),
    ("\\boxed{6\\text{ apples}}", "6", "\\boxed{6\\text{ pi apples}}"),
]


@pytest.mark.parametrize(("completion", "gold", "perturbed"), FONT_REWRITES)
def test_math_and_units_beside_a_font_group_still_pay(completion: str, gold: str, perturbed: str) -> None:
    assert verdicts(completion, gold) == ["correct"] * len(MATH_PROFILES)
    assert "correct" not in verdicts(perturbed, gold)


# ----------------------------------------------------------------- class 3b: a look-alike hedge is no name (lenient)

LOOK_ALIKE_NEAR = ["Nót has 6 apples.", "Perhāps: 6 apples", "Mayʙe has 6 apples.", "Pᴇrhaps has 6 apples.", "Thousańds has 6 apples.",
                   "Ǹot: 6 apples", "Maybe\u0301 has 6 apples.", "Ｍaybe has 6 apples."]


@pytest.mark.parametrize("completion", LOOK_ALIKE_NEAR)
def test_a_look_alike_hedge_is_no_name(completion: str) -> None:
    assert "correct" not in verdicts(completion)


@pytest.mark.parametrize("completion", ["Sam has 6 apples.", "Renée has 6 apples.", "Chloé's box has 6 apples.", "Zoë: 6 apples",
                                        "Sam’s basket has 6 apples."])
def test_an_accented_name_still_pays_lenient(completion: str) -> None:
    """Since fx29be a name is the problem's (`grammar.grounded_names`), so the task names them."""
    task = {"gold": "6", "profile": "lenient", "problem": "Sam, Renée, Chloé and Zoë get 2 apples and then 4. How many?"}
    assert grade_math({**task, "completion": completion})["verdict"] == "correct"
    assert grade_math({**task, "completion": completion.replace("6", "7")})["verdict"] == "incorrect"
