"""fx29bf: red team 32's classes 3, 4, 6 and 7 closed at the class (docs/math.md "Answer grammar", "Red team 32
(fx29bf)"): a box below a line of math reads that line's opening as `grammar.line_opens` does (`_math_line_opens`); a
problem's label (`I-95`, `A/4`) grounds no letter (`grammar._in_label`); the point check reads the answer and the
language's evidence as the comparison folds them (`extract._as_compared`) and the whole completion's language, a
reasoning block's included. Near misses (a perturbed right answer) are refused in both profiles; rewrites (an
equivalent right answer) pay; a hole left is a strict xfail with its reason."""

from __future__ import annotations

import pytest

from tests.helpers import MATH_PROFILES, paid_test, refused_test
from tests.test_math_redteam_30 import _cases, problem_verdicts

# Class 3: a lead line with a colon above a line of math above a box (grammar._math_line_opens).
COLON_NEAR = _cases([
    'Probably:\n\\[x = 6\\]\n\\boxed{6}', 'Guess:\n2 + 4 = 6\n$\\boxed{6}$', '约：\nx = 6\n\\boxed{6}', 'In thousands:\n\n2 + 4 = 6\n\n\\boxed{6}',
    'Wrong answer:\nx = 6\n\\boxed{6}', 'Not:\n$$x = 6$$\n\\boxed{6}', '以千为单位：\n2 + 4 = 6\n\\boxed{6}', 'Maybe:\n2 + 4 = 6\nx = 6\n\\boxed{6}',
    'Maybe:\n- $x = 6$\n\\boxed{6}', 'Maybe:\n- $k = 6$\n- $k = 6$\n\n$\\boxed{6}$',
])
test_a_colon_lead_reaches_the_box_below_its_math = refused_test(COLON_NEAR)
COLON_RIGHT = _cases([
    'Solution:\nx = 6\n\\boxed{6}', 'Answer:\nx = 6\n\\boxed{6}', 'We get:\n\\[x = 6\\]\n\\boxed{6}', '解：\n2 + 4 = 6\n\\boxed{6}',
    '计算如下：\n2 + 4 = 6\n\\boxed{6}', 'Step 1:\n2 + 4 = 6\n\\boxed{6}', 'The total is:\n\\[\n2 + 4 = 6\n\\]\n\\boxed{6}',
    'Therefore:\n$$x = 6$$\n\\boxed{6}', '2 + 4 = 6\n\\boxed{6}', 'He has 2 + 4 = 6 apples.\nx = 6\n\\boxed{6}',
    '**Final Solutions:**\n\\[\nk = 6\n\\]\n\n\\[\\boxed{6}\\]', 'The values are:\n- $k = 6$\n- $k = 6$\n\n$\\boxed{6}$',
])
test_a_label_or_a_statement_above_math_leaves_the_box_standing = paid_test(COLON_RIGHT)
test_an_unlisted_lead_above_math_before_a_box_pays = paid_test(_cases([
    'Finally, calculate $k$:\n\\[\nk = 2 + 4 = 6\n\\]\n\n\\(\\boxed{6}\\)', 'Simplifying the fraction:\n\\[\n\\frac{12}{2} = 6\n\\]\n\n\\[\n\\boxed{6}\n\\]',
]))  # a cost until fx29d: a step's lead (`grammar._step_lead`) is now a label's colon

# Class 4: a problem's labels (a letter glued to a number by a hyphen, minus or slash) ground no letter.
CA, NOT, X, N = "所以 C + A = 6；\n答案是 6。", "所以 N + O + T = 6；\n答案是 6。", "所以 x = 6；\n答案是 6。", "所以 N = 6；\n答案是 6。"
LABEL_NEAR = [
    (CA, "The C-5 and the A-7 are planes. How many are left?"), (CA, "Rooms 3-C and 4-A hold 2 and 4 people. How many?"),
    (CA, "Print on A/3 and C/5 sheets. How many sheets?"), (NOT, "Units N−2, O−3 and T−4 are ready. How many?"),
    (CA, "We flew a C-130. Then an A-10. How many flights?"), (NOT, "Gates N-1; O-2; T-3 are open. How many?"),
]


@pytest.mark.parametrize(("completion", "problem"), LABEL_NEAR)
def test_a_label_in_the_problem_grounds_no_letter(completion: str, problem: str) -> None:
    """A highway's, a plane's, a room's or a paper's label names a thing: its letter is no operand (`_in_label`)."""
    assert "correct" not in problem_verdicts(completion, problem)


LABEL_RIGHT = [
    (X, "Solve x - 2 = 4."), (X, "Solve x-2 = 4."), (N, "If N-2 = 4, find N."), (X, "Simplify 3x-18 = 0."),
    (X, "Evaluate f(x-2) when x = 8."), (X, "Find |x-2| for x = 6."), (CA, "Let C = 2 and A-4 = 0."), (X, "Find x-2y for y = 0."),
]


@pytest.mark.parametrize(("completion", "problem"), LABEL_RIGHT)
def test_a_letter_in_the_problems_math_still_grounds_the_step(completion: str, problem: str) -> None:
    """Math stays math: a spaced operator, an operator or relation beside the glued number, a coefficient, a bracket or
    a bar at its edge."""
    assert problem_verdicts(completion, problem) == ["correct"] * len(MATH_PROFILES)


@pytest.mark.xfail(strict=True, reason="open: a label in brackets (`Room (A-2)`) reads as math, as `f(x-2)` must")
def test_a_bracketed_label_grounds_no_letter() -> None:
    """A label inside brackets is read as math (a bracket at a label's edge is math's: `f(x-2)`, `(x-2)^2`)."""
    assert "correct" not in problem_verdicts(CA, "Room (A-2) and room (C-3) hold 2 and 4 people. How many?")


# Class 6: the point check reads the answer as the comparison folds it (extract._as_compared).
FOLD_NEAR = _cases([
    ('Die Antwort lautet \\boxed{１２．０００}', '12'), ('Die Antwort lautet \\boxed{𝟭𝟮.𝟬𝟬𝟬}', '12'), ('Die Antwort lautet $12.\\!000$', '12'),
    ('Sie hat 12.000 Stifte.\n#### １２.０００', '12'), ('Sie hat 12.0\u200b00 Stifte.\n\\boxed{12.000}', '12'),
    ('Sie hat 12.000 Stifte.\n\\boxed{12.\\,000}', '12'), ('Die Antwort lautet \\boxed{1\u200b2.000}', '12'),
])
test_a_folded_point_is_read_as_compared = refused_test(FOLD_NEAR)
FOLD_RIGHT = _cases([
    ('The answer is \\boxed{１２.０００}', '12'), ('\\boxed{１２．５}', '12.5'), ('Die Antwort lautet \\boxed{１２,５}', '12.5'),
    ('The answer is $12.\\!5$', '12.5'), ('\\boxed{𝟏𝟐}', '12'),
])
test_a_folded_number_with_no_grouping_point_pays = paid_test(FOLD_RIGHT)

# Class 7: the language is the whole completion's, a reasoning block's included.
THINK_NEAR = _cases([
    ('<think>Le prix est 12.000 €.</think>\n\\boxed{12.000}', '12'), ('<think>Es sind 1,5 kg.</think>\n#### 12.000', '12'),
    ('<think>Die Antwort lautet 12.000</think>\n\\boxed{12.000}', '12'), ('<think>Sie hat 12.000 Äpfel.</think>\nThe answer is 12.000.', '12'),
    ('<think>Il a 12.000 pommes.</think>\n$12.000$', '12'),
])
test_a_reasoning_blocks_language_refuses_a_grouping_point = refused_test(THINK_NEAR)
THINK_RIGHT = _cases([
    ('<think>We add 2.5 and 9.5.</think>\n\\boxed{12.000}', '12'), ('<think>Sie hat 12 Äpfel.</think>\n\\boxed{12}', '12'),
    ('<think>The answer is 12.</think>\n\\boxed{12.000}', '12'), ('<think>Es sind 12,5 kg.</think>\n\\boxed{12,5}', '12.5'),
])
test_a_reasoning_block_in_a_decimal_point_text_pays = paid_test(THINK_RIGHT)

# rt37 class 6 (fx29i): a display that is no equation opens the box below only where it states the box's value
# (grammar._math_line: a bare term by `_states_box`, another relation as a name's `\approx` by `_approximates_box`).
test_a_display_that_states_the_boxs_value_opens_it = paid_test(_cases([
    ('Answer:\n\\[k \\approx 6\\]\n\\boxed{6}', '6'), ('Answer:\n\\[x_1 \\approx 6.2\\]\n\\boxed{6.2}', '6.2'),
    ('Answer:\n\\[\\theta \\approx 0.5\\]\n\\boxed{0.5}', '0.5'), ('Answer:\n\\[2 \\times 3\\]\n\\boxed{6}', '6'),
    ('The final answer is:\n\\[k \\approx \\frac{1}{2}\\]\n\\boxed{\\dfrac{1}{2}}', '1/2'),
    ('The total is:\n\\[2 + 4\\]\n\\boxed{6}', '6'), ('We add them:\n\\[\\frac{12}{2}\\]\n\\boxed{6}', '6'),
    ('The total is:\n\\[6\\]\n\\boxed{6}', '6'), ('Therefore:\n\\[\\dfrac{1}{2}\\]\n\\boxed{\\frac{1}{2}}', '1/2'),
    ('So the total is:\n\\[\\boxed{2^{2019} - 1}\\]\n\\(\\boxed{2^{2019}-1}\\)', '2^{2019}-1'),
    ('The total is:\n\\[6 \\times 3^{2007}\\]\n\\boxed{6 \\times 3^{2007}}', '6 \\times 3^{2007}'),
    ('The total is:\n\\[2 + 4\\]\n\\[= 6\\]\n\\boxed{6}', '6'), ('The total is:\n\\[0.1 + 0.2\\]\n\\boxed{0.3}', '0.3'),
]))
test_a_display_of_another_value_or_relation_opens_no_box = refused_test(_cases([
    ('Answer:\n\\[k \\approx 6\\]\n\\boxed{7}', '7'), ('Answer:\n\\[x_1 \\approx 6.2\\]\n\\boxed{6}', '6'),
    'Answer:\n\\[2k \\approx 6\\]\n\\boxed{6}', 'Answer:\n\\[k \\approx 6 + 1\\]\n\\boxed{6}',
    'Answer:\n\\[k \\approx 6 \\approx 7\\]\n\\boxed{6}', 'Answer:\n\\[\\sqrt{k} \\approx 6\\]\n\\boxed{6}',
    'Answer:\n\\[k^2 \\approx 6\\]\n\\boxed{6}', 'Answer:\n\\[k \\approx -6\\]\n\\boxed{6}',
    'Answer:\n\\[k \\le 6\\]\n\\boxed{6}', 'Answer:\n\\[k \\in \\{6\\}\\]\n\\boxed{6}', 'Answer:\n\\[k > 6\\]\n\\[k = 6\\]\n\\boxed{6}',
    'The total is:\n\\[2 + 5\\]\n\\boxed{6}', 'The total is:\n\\[6.0001\\]\n\\boxed{6}', 'The total is:\n\\[\\frac{12}{3}\\]\n\\boxed{6}',
    'The total is:\n\\[6!\\]\n\\boxed{6}', 'The total is:\n\\[6^2\\]\n\\boxed{6}', 'The total is:\n\\[-6\\]\n\\boxed{6}',
    'The total is:\n\\[60\\]\n\\boxed{6}', 'The total is:\n\\[6x\\]\n\\boxed{6}',
    'The total is:\n\\[5.9999999999\\]\n\\boxed{6}', 'The total is:\n\\[5.99999999999999999999\\]\n\\boxed{6}',
    'Answer:\n\\[k \\approx 6.0000000001\\]\n\\boxed{6}',  # exactly the box's value, no tolerance
]))
