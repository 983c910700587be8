"""Red team of issue 29's answer grammar, thirty-first pass (rt29ag): fx29bb (a problem's names from its math only:
`grammar._problem_letters`, `_beside_operator`, `_FIGURE_POINTS_RE`), fx29az (`math_letter`, `latin_word`, lenient label
lines) and the box/anchor paths, through the real grader (`grade_math`) in both profiles on main (11ff5e5). About
52,000 generated candidates around gold 6; each xfail row below paid a wrong or qualified answer in at least one
profile. Red team 30's classes 2-5 are being closed elsewhere and are not repeated here.

1. CLOSED by fx29bd (tests/test_math_fx29bd.py; both profiles; fx29bb). A problem's prose still grounds one-letter names: `_beside_operator` takes any
   `=+-*/^<>×` beside a lone letter for math, and `_math_spans` reads a currency `$` as a math delimiter (an unmatched one
   runs to the problem's end). So prose punctuation and currency ground the letters of words the step line then spells:
   a hyphenated word (`T-shirt`, `O-ring`, `N-type`, `A-frame`), `N/A`, `Y/N`, `I/O`, a grade (`A+`, `C+`), Markdown
   (`**A**`, a bullet list `- A. 5`), a code list (`A = agree`), a `\\text{}` of prose inside `$...$`, and a GSM8K-style
   price (`A pen costs $5, ... (A) 5 ... (E)`: every choice letter after the lone `$` is "math"). TRL's
   `problem_from_prompt` reads a string prompt whole, so a chat template's system text (`Reply N/A if unsure.`) reaches
   the same rule (a message list's user turns only: held). Under those problems `所以 C + A = 6；\\n答案是 6。` ("ca."),
   `N + O + T`, `N + O`, `i + e` pay; without the problem each is refused. 666 of 6,120 generated rows (17 prose
   problem shapes x 15 spelled words x 24 step/answer forms) paid. Real data: MathVista's problems ground only real
   names (9 ground `C` and `A`, all figure or square labels: by design). Fix (the class): a letter is a problem's name
   only where it is an operand of math: inside a math span that holds math (a `$` before a digit opens a price, as
   `\\$` is one in docs/math.md; no unmatched `$` runs to the end: `_math_spans(closed=True)`), or with an operand on
   the far side of the operator (`x + 2`, `2x`, `a/b`), never an operator glued to a word (`T-shirt`, `N/A`, `A+`,
   `**A**`); `\\text{}` contents are prose.
2. CLOSED by fx29bd (both profiles; old). A function word (`grammar._FUNCTION_WORDS`: `pi`, `max`, `inf`, `sqrt`, `log`, `mod`,
   `lim`, ...) in a font group beside the value is kept as math by `_scan` (`t.text.lower() not in _FUNCTION_WORDS`), so
   the grammar admits `6\\text{ pi}` as `6π` would be admitted, but the comparison drops the `\\text{}` group as a unit and
   reads 6: `\\boxed{6\\text{ pi}}` and `The answer is $6 \\text{ pi}$ radians.` pay gold 6 (the box is refused for
   gold `6\\pi`); `\\boxed{6\\text{ max}}` ("at most 6"), `\\boxed{6\\text{ inf}}`, `#### 6 \\text{sqrt}`,
   `The answer is $6\\mathrm{log}$.` pay. 132 of 176 generated rows (22 words x 8 wrappers; `sec` and `min` are units
   and not counted). Prose `The answer is 6 pi.` is refused. Fix: a
   font group holds words only (`_scan` makes every letter run in it a word, or the comparison reads the group as the
   grammar did: one reading for both).
3. (b) CLOSED by fx29bd (the NFKD fold); (a) CLOSED by fx29be (lenient: `grammar.grounded_names`, a name is a word of the
   task's problem; tests/test_math_fx29be.py) (lenient; red team 5 class 6's list, reopened). The name slot (`grammar._is_name`) takes any capitalised
   Latin word that `NEVER_NAMES` (a list of bad cases) does not hold, so (a) hedges and verdicts it does not list are
   persons (`Unsure: 6 apples`, `Invalid: 6 apples`, `Mistake: 6 apples`, `Conjecture has 6 apples.`, `Draft: 6 apples`,
   `Error has 6 apples.`), and (b) fx29az's `latin_word` admits every letter Unicode names LATIN, so a listed hedge with a
   mark or a small capital is no longer the listed word (`Maŷbe has 6 apples.`, `Nöt has 6 apples.`, `Perhapſ has 6
   apples.`, `Thousanđs has 6 apples.`, `Mᴀʏʙᴇ has 6 apples.`): 742 of 1,529 generated look-alike rows paid, and 163 of
   186 rows of 93 unlisted hedge, verdict and scale words (`Tentatively`, `Reportedly`, `Untrue`, `Kilo`, `Lakhs`) in
   `W: 6 apples` / `W has 6 apples.`. Fix (the class): the slot is an allowlist, not `NEVER_NAMES`: a name is a
   capitalised word the task's problem text uses (`MathTask.problem`, fx29ay's trusted text: GSM8K's `Janet`, `Sam`),
   or, without a problem, one the completion uses as a subject elsewhere; look-alikes read on their NFKD fold.
4. CLOSED by fx29be (`extract.grouping_ambiguous`: `d,ddd` is a grouping only in a text known to write decimal points;
   tests/test_math_fx29be.py). POLICY (both profiles; fx29az's mirror). Under the anchor of a language that writes a decimal comma, `d,ddd` is
   still a thousands grouping (docs/math.md: `1,220` is 1220): `Die Antwort lautet 2,500 kg.` ("2.5 kg"), `La respuesta
   es 2,500.`, `Ответ: 2,500`, `Réponse : 2,500 kg` pay gold 2500 and are refused for 2.5, where fx29az refuses `12.000`
   against both readings: 36 of 520 generated separator rows paid, 4 of them this shape (the rest right: `6'000`, and
   `6,000` in English), and 5 of 5 hand rows with `2,500`. Suggested: under a decimal-comma anchor, `d,ddd` is
   ambiguous and refused against both readings, as the point is (`extract.grouping_ambiguous`'s rule).

Held (passing tests below): the look-alike hedges everywhere but the name slot (`Maŷbe x = 6.`, `Maŷbe: \\boxed{6}`,
`The answer is Maŷbe 6.`); scale, alternative, hedge and bound words in a box's `\\text{}` (`thousand`, `or 7`, `maybe`,
`at least`) and after it; `\\text{e}` (Euler's number, refused for 6); label lines whose word `NEVER_NAMES` holds
(`Guess:`, `Wrong:`, `Estimate:`); prose problems whose letters stand beside no sign (`i.e.`, `N, O, T` in words, a
`\\(f\\)` span beside them) and price pairs with no letter between (`$12 and spent $6`).
Not counted (by design): a capitalised line opens a sentence (`Maybe\\nThe answer is 6.`, red team 29's note); letters in
a caseless script's wording are names (`AさんとCさん`, `正方形A、B ... 正方形C`, `นาย A`: 204 of 2,520 such rows paid,
all the problem's own labels); units and comparatives in a box (`6\\text{ km}`, `6\\text{ sq}`, `6\\text{ more}`).
"""

from __future__ import annotations


import pytest

from tests.helpers import MATH_PROFILES, paid_test, refused_test
from tests.test_math_redteam_30 import _cases, problem_verdicts
from verifier.formats.common import prompt_problem
from verifier.math import grade_math


def lenient_verdict(completion: str, gold: str = "6", problem: str = "") -> str:
    """The lenient profile's verdict (class 3's name slot is lenient's), for a task that carries `problem`."""
    return grade_math({"completion": completion, "gold": gold, "profile": "lenient", "problem": problem})["verdict"]


# 1. A problem's prose punctuation and prices ground the letters a step line spells (fx29bb).
CA, NOT, NO = "所以 C + A = 6；\n答案是 6。", "所以 N + O + T = 6；\n答案是 6。", "所以 N + O = 6；\n答案是 6。"
PRICE = "A pen costs $5, i.e. a little. What is left? (A) 5 (B) 6 (C) 7 (D) 8 (E) none of these"
BULLETS = "How many apples are left?\n- A. 5\n- B. 6\n- C. 7\n- D. 8"
HYPHENS = "A T-shirt and an O-ring cost 2 dollars; an N-type chip costs 4. How much in total?"
FRAMES = "A C-clamp and an A-frame cost 2 and 4 dollars. How much in total?"
SLASHES = "Write N/A if there is no answer; answer Y/N or I/O. How many apples are left?"
GRADES = "Students with grades A+ and C+ get 2 and 4 stickers. How many in all?"
BOLD = "Answer **C** or **A**: how many apples are left?"
TEXT = "Compute $2 + 4$. $\\text{Answer with A, B, C or D.}$"
CODES = "Use the code A = agree, C = disagree. How many agree?"
_PROSE_PAID = [
    (CA, PRICE), ("所以 i + e = 6；\n答案是 6。", PRICE), (CA, BULLETS), (NOT, HYPHENS), (NO, HYPHENS), (CA, FRAMES), (NO, SLASHES),
    ("所以 N + A = 6；\n答案是 6。", SLASHES), (CA, GRADES), (CA, BOLD), (CA, TEXT), (CA, CODES), ("所以 C × A = 6；\n答案是 6。", BOLD),
]
_PROSE_REASON = ("rt29ag class 1: _beside_operator reads prose punctuation (-, /, +, *, =) and _math_spans a price's $ "
                 "as math, so the problem's wording grounds the letters the step line spells")


@pytest.mark.parametrize(("completion", "problem"), _PROSE_PAID)
def test_a_problems_punctuation_and_prices_ground_no_name(completion: str, problem: str) -> None:
    """Paid in both profiles (refused without the problem): the letters stand in the problem's wording only, beside a
    hyphen, slash, grade's plus, Markdown mark or code's `=`, or after a price's `$`, which `_beside_operator` and
    `_math_spans` read as math. The safe verdict: refused."""
    assert "correct" not in problem_verdicts(completion, problem)


@pytest.mark.parametrize("completion", [CA, NOT, NO, "所以 i + e = 6；\n答案是 6。"])
def test_the_spelled_step_lines_are_refused_without_a_problem(completion: str) -> None:
    """Class 1's rows are refused with no problem: what pays them is the problem's grounding alone."""
    assert problem_verdicts(completion, "") == ["no_answer"] * len(MATH_PROFILES)


_PROSE_HELD = [
    (NOT, "Let \\(f\\) be given, i.e. a rule. If ever N, O, T, C, A are letters."),
    ("所以 i + e = 6；\n答案是 6。", "Tom had $12 and spent $6, i.e. half. Or was it? (A) 5 (B) 6 (C) 7"),
    (CA, "Which is it, A or C? Answer YES or NO."),
]


@pytest.mark.parametrize(("completion", "problem"), _PROSE_HELD)
def test_letters_beside_no_sign_ground_nothing(completion: str, problem: str) -> None:
    """Held: lone letters in wording beside no sign, outside a math span (a `\\(f\\)` span beside them, a price pair
    closed before them) ground no step line."""
    assert "correct" not in problem_verdicts(completion, problem)


CHAT = ("<|im_start|>system\nYou are a helpful assistant. Reply N/A if unsure.<|im_end|>\n<|im_start|>user\n"
        "How many apples are left if Sam has 2 and gets 4?<|im_end|>\n<|im_start|>assistant\n")
MESSAGES = [{"role": "system", "content": "Reply N/A if unsure."},
            {"role": "user", "content": "How many apples are left if Sam has 2 and gets 4?"}]


def test_a_templated_prompts_system_text_grounds_no_name() -> None:
    """Paid in both profiles: TRL's `problem_from_prompt` reads a string prompt whole (`prompt_problem`), so a chat
    template's system text (`Reply N/A if unsure.`) reaches class 1's rule and grounds `N + A`. The safe verdict: refused."""
    assert "correct" not in problem_verdicts("所以 N + A = 6；\n答案是 6。", prompt_problem(CHAT))


def test_a_message_lists_system_text_is_no_problem() -> None:
    """Held: from a message list only the user's turns are the problem, so the system turn's `N/A` grounds nothing."""
    assert "correct" not in problem_verdicts("所以 N + A = 6；\n答案是 6。", prompt_problem(MESSAGES))


def test_a_step_line_with_a_priced_problems_math_name_still_pays() -> None:
    """The rewrite class 1's fix must keep: a price and a real math name in one problem (`$x$`)."""
    problem = "A shirt costs $12. Half of it is $x$ dollars. Find x."
    assert problem_verdicts("所以 x = 6；\n答案是 6。", problem) == ["correct"] * len(MATH_PROFILES)


# 2. A function word in a font group: the grammar reads math, the comparison drops the group as a unit.
_FUNCTION = [
    '\\boxed{6\\text{ pi}}', '\\boxed{6 \\text{pi}}', '\\boxed{6\\text{ Pi}}', '\\boxed{6}\\text{ pi}', '\\boxed{6\\mathrm{pi}}', '\\boxed{6\\text{ max}}',
    '\\boxed{6\\text{ inf}}', '\\boxed{6\\text{ infty}}', '\\boxed{6\\text{ oo}}', '#### 6 \\text{sqrt}', 'The answer is $6\\text{ log}$.',
    'Answer: $6\\text{ exp}$', '\\boxed{6\\text{ mod}}', '\\boxed{6\\textbf{lim}}', '\\fbox{6\\text{ arctan}}',
    'The answer is $6 \\text{ pi}$ radians.', '\\boxed{6\\mbox{ pi}}', '\\boxed{6\\text{ INF}}', '\\boxed{6\\text{ sin}^2}',
]
FUNCTION_NEAR = _cases(_FUNCTION)
test_a_function_word_in_a_font_group_is_read = refused_test(
    FUNCTION_NEAR, """Paid in both profiles: `_scan` keeps a `_FUNCTION_WORDS` word inside a font group as math (so
    `6\\text{ pi}` is admitted as `6\\pi` would be), while the comparison drops the `\\text{}` group as a unit and reads 6;
    gold `6\\pi` refuses the same box. The safe verdict: refused.""")

FUNCTION_HELD = _cases([
    '\\boxed{6\\text{ thousand}}', '\\boxed{6}\\text{ thousand}', '\\boxed{6\\text{ or } 7}', '\\boxed{6\\text{ maybe}}', '\\boxed{6\\text{ at least}}',
    '\\boxed{6\\text{ e}}', 'The answer is 6 pi.', 'The answer is 6 Pi.', '\\boxed{6\\text{ pi radians}}', '\\boxed{6\\text{ sqrt 2}}',
])
test_scale_and_hedge_words_in_a_font_group_are_refused = refused_test(FUNCTION_HELD)


def test_a_box_of_six_pi_pays_six_pi() -> None:
    """The rewrite class 2's fix must keep: `6\\pi` in math pays gold `6\\pi`."""
    assert [grade_math({"completion": "\\boxed{6\\pi}", "gold": "6\\pi", "profile": p})["verdict"]
            for p in MATH_PROFILES] == ["correct"] * len(MATH_PROFILES)


# 3. Lenient's name slot: unlisted hedges and verdicts, and look-alikes of listed ones, are persons.
_NAMES = [
    'Unsure: 6 apples', 'Invalid: 6 apples', 'Mistake: 6 apples', 'Typo: 6 apples', 'Draft: 6 apples', 'Error: 6 apples', 'Erroneous: 6 apples',
    'Conjecture has 6 apples.', 'Hypothesis: 6 apples', 'Error has 6 apples.', 'Rejected: 6 apples', 'Rounded: 6 apples',
    'Tentatively: 6 apples', 'Reportedly has 6 apples.', 'Uncertain: 6 apples', 'Untrue: 6 apples', 'Kilo: 6 apples', 'Lakhs: 6 apples',
    'Crores has 6 apples.', 'Inexact: 6 apples',
]
_LOOK_ALIKES = [
    'Maŷbe has 6 apples.', 'Mãybe has 6 apples.', 'Maybé has 6 apples.', 'Nöt has 6 apples.', 'Perhapſ has 6 apples.', 'Thousanđs has 6 apples.',
    'Aboųt has 6 apples.', 'Mᴀʏʙᴇ has 6 apples.', 'Maŷbe: 6 apples',
]


@pytest.mark.parametrize("completion", _NAMES + _LOOK_ALIKES)
def test_a_hedge_is_no_name(completion: str) -> None:
    """Was paid lenient (strict refuses; closed by fx29be: lenient's name slot holds only a word of the task's problem,
    `grammar.grounded_names`, and none without one): `_is_name` admits a capitalised Latin word `NEVER_NAMES` does not hold, and
    `latin_word` any letter Unicode names LATIN, so an unlisted verdict (`Unsure`, `Invalid`, `Mistake`) or a listed
    hedge with a mark or small capitals (`Maŷbe`, `Nöt`, `Mᴀʏʙᴇ`) is a person's name. The safe verdict: refused."""
    assert lenient_verdict(completion) != "correct"


NAME_HELD = _cases([
    'Maŷbe x = 6.', 'Maŷbe 6', 'The answer is Maŷbe 6.', 'Maŷbe: \\boxed{6}', 'Maŷbe, the answer is 6.', 'Guess: 6 apples', 'Wrong: 6 apples',
    'Estimate: 6 apples', 'Maybe has 6 apples.', 'Perhaps has 6 apples.', 'Not has 6 apples.', 'Thousands has 6 apples.',
])
test_hedges_outside_the_name_slot_are_refused = refused_test(NAME_HELD)


@pytest.mark.parametrize("completion", ["Sam has 6 apples.", "José has 6 apples.", "Zoë: 6 apples"])
def test_a_persons_name_still_pays_lenient(completion: str) -> None:
    """The rewrite class 3's fix must keep: a real (accented) name in the slot pays lenient, where the task's problem
    names the person (fx29be: the slot's allowlist, `grammar.grounded_names`)."""
    assert lenient_verdict(completion, problem="Sam has 2 apples, José 3 and Zoë 1. How many after 4 more?") == "correct"


# 4. A comma before three digits under a decimal-comma anchor groups thousands (policy).
_COMMA = [('Die Antwort lautet 2,500 kg.', '2500'), ('La respuesta es 2,500.', '2500'), ('Ответ: 2,500', '2500'),
          ('Réponse : 2,500 kg', '2500'), ('Die Antwort lautet \\boxed{2,500}.', '2500')]
COMMA_NEAR = _cases(_COMMA)  # closed by fx29be (extract.grouping_ambiguous)
test_a_comma_before_three_digits_in_a_decimal_comma_text_is_ambiguous = refused_test(
    COMMA_NEAR, """Was paid in both profiles (closed by fx29be: `d,ddd` is a thousands grouping only in a text known to
    write decimal points, `extract._decimal_point_text`, as `d.ddd` is a decimal point only there): `d,ddd` groups thousands under every anchor, so German `2,500 kg` ("2.5 kg")
    pays 2500 and is refused for 2.5, where fx29az reads `12.000` under the same anchor as ambiguous. Suggested: refused
    against both readings.""")
COMMA_HELD = _cases([('Die Antwort lautet 2,500 kg.', '2.5'), ('Ответ: 2,500', '2.5')])
test_a_comma_grouping_is_no_decimal = refused_test(COMMA_HELD)

# The right answers near these classes that each fix must keep paying.
RIGHT = _cases(['\\boxed{6\\text{ cm}}', '\\boxed{6 \\text{ cm}}', 'The answer is 6.', '\\boxed{6}', ('The answer is 2,500.', '2500'),
                ('Die Antwort lautet 2,5 kg.', '2.5'), ("\\boxed{6'000}", '6000')])
test_the_right_answers_near_these_classes_pay = paid_test(RIGHT)
