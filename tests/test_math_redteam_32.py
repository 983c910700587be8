"""Red team of issue 29's answer grammar, thirty-second pass (rt32): fx29bc (one reading of a line's opening,
`grammar.line_opens`; a point's language from the whole completion, `extract._decimal_point_text`; a short unread
statement before the last value, `extract._unread_statement_before`) and fx29bd (a problem's letters only as operands,
`grammar._problem_letters`; font groups hold words, `\\operatorname{}` alone names an operator; names on their NFKD
fold), through the real grader (`grade_math`) in both profiles, with and without a problem, on main (a09200d). About
9,500 generated candidates (openings x hedges x languages x folds x layouts) around gold 6 (12 for the points); each
xfail row below paid a wrong answer in at least one profile. Red team 31's classes 3a and 4 (fixed elsewhere) and the
open rows of red teams 30-31 and tests/test_math_fx29bc.py are not repeated.

1. CLOSED since (fx29c: `grammar.answer_phrase`, `step_sentence`, `extract._named_another_value`; was both profiles; fx29bc). `_unread_statement_before` reads a sentence as a possible answer's statement
   only when it has at most five words, exactly one value, no relation sign and a value other than the last one, so
   an unlisted answer phrase passes when it is longer (`Also lautet die endgültige Antwort hier wohl 7.`), states two
   values (`The answer would be 7 or 8.`, `7, not 6`), holds a relation sign (`Die Lösung ist x = 7.`; a Markdown
   quote's `>`: `> The answer would be 7.`), restates the value with a scale (`The answer would be 6 thousand.`, `6k`,
   `Die Lösung ist 6 Millionen.`) or spells it (`seven`, `VII`, `结果是七.`): the concluding `So x = 6.` (strict too)
   or the lenient last value pays 6. 154 of 246 generated statement x continuation rows, and 44 of 260 separator and
   markup rows, paid. Fix (the class): the sentences before a concluding sentence are read by the grammar, not
   counted: any sentence before it that the grammar does not read as a step and that states (or names with a scale, or
   spells) a value is a possible answer statement, whatever its length or number of values.
2. CLOSED since (fx29e: `extract._DECIMAL_OPERAND_RE`, `_english_words`; was both profiles; lenient for a label; fx29bc). `_decimal_point_text` takes any number with a point and
   one, two or four digits (`_DECIMAL_POINT_RE`) as proof that the text writes decimal points, so a section number, a
   time, a date or a version (`Schritt 1.1:`, `Um 14.30 Uhr`, `Teil 2.3)`, `Version 2.0:`) makes German, Dutch,
   Portuguese, Italian or Indonesian `12.000` ("twelve thousand") a decimal 12 in a box or after `####`: 264 of 360
   generated rows paid gold 12 (0 of 40 without the number). Fix: the evidence is a decimal point in a value the grammar
   reads as a quantity (a step's operand or result), not any `d.dd` token; or the text's language, read from its words.
3. NOT CLOSED (both profiles; fx29bc). A line of math alone under a lead line that ends in a colon (`Maybe:`,
   `可能：`, `单位：千` "unit: thousand", `In thousands:`, `Not:`) opens a sentence before a box, so the lead is read
   with nothing: `Maybe:\\nx = 6\\n\\boxed{6}` pays where `Maybe\\nx = 6\\n\\boxed{6}` (fx29bc) and `Maybe:\\nx = 6\\n答案是
   6。` (the caseless anchor, fx29bc's colon cost) are refused. 160 of 200 generated colon-lead x math x box rows paid
   (837 of 966 lead x math x answer rows before fx29bc, 226 now). Fix: a colon line's opening is the one reading
   `line_opens` gives the caseless anchor: a line under `W:` is read with it on the box's path too.
4. NOT CLOSED (both profiles, with a problem; fx29bd). `_has_operand` takes a hyphen or slash glued between a capital
   and digits as an operator with an operand (only letter-letter is `_glued_into_word`), so prose labels ground the
   letters a step line spells: highways, models, rooms and paper (`I-95`, `N-95`, `F-16`, `A-10`, `room C-2`, `A/4
   paper`, `C−95`) ground `I + F`, `N + O + T`, `C + A`: 42 of 42 generated rows (6 shapes x 7 spelled words) paid;
   without the problem each is refused. Fix: a hyphen or slash with no space between a capital and a number is a
   label's (`_glued_into_word` for letter-digit too); a letter is an operand only beside a spaced operator or in math.
5. OPEN (both profiles; same rule as tests/test_math_fx29bc.py's open `In thousands 2 + 4 = 6\\nA: 6`, reached on
   the strict paths). A step line that opens a sentence ends it at its break whatever its own lead, so a second line of
   math (or a box) below it opens its own: `In thousands 2 + 4 = 6\\n\\boxed{6}`, `可能 6 = 6\\n6 = 6\\n答案是 6。`,
   `以千为单位 6 = 6\\n6 = 6\\n答案是 6。`; Thai's `ดังนั้น` after a step's number and classifier likewise
   (`หน่วยเป็นพัน มี 2 ลูก ดังนั้น 2 + 4 = 6 คำตอบคือ 6`: 270 of 1,008 generated rows with a step before the
   connective). Whether a lead scopes past its
   own step is the open question; the rows are pinned for the fix of that row.

6. NOT CLOSED (both profiles; fx29bc). `point_grouping_ambiguous` (now `grouping_ambiguous`) matches `_POINT_GROUPING_RE` on the answer's raw
   text, while the comparison folds it: full-width digits or point (`１２.０００`, `12．000`), math bold digits
   (`𝟏𝟐.𝟎𝟎𝟎`), a zero-width space, word joiner or BOM beside the point or a digit (`12.\u200b000`) and LaTeX's
   negative thin space (`12.\\!000`) hide the point from the check, so `Die Antwort lautet \\boxed{１２.０００}` pays
   gold 12 under the German anchor itself: 28 of 225 generated form x text x layout rows paid (all in a box). Fix: the
   check reads the answer the comparison reads (the same NFKC fold and stripping), or the box's number after parsing.
7. NOT CLOSED (both profiles; fx29bc). The language is read from the graded region, which starts after a reasoning
   block's `</think>`, so German, French, Spanish or Russian reasoning (`<think>Sie hat 12.000 Äpfel.</think>`) leaves a
   tail of math alone (`\\boxed{12.000}`, `#### 12.000`), a decimal-point text: 120 of 120 generated rows paid gold 12
   (bare `12.000` lenient only). Fix: `_decimal_point_text` reads the whole completion, the reasoning block included
   (evidence only ever refuses).

Rewrites lost (secondary; right answers that paid on fx29bc's parent and are refused now, both profiles): a short step
sentence the grammar does not read before a concluding sentence (`A week has 7 days. So x = 6.`, `Add 4. Thus the
total is 6.`, `Ann is 10 years old. So he has 6 apples.`): 33 of 60 generated rows (fx29bc class 4's bound; closed by fx29c but for `There are 4 quarters`, read as a statement, and strict's `So he has`, no conclusion); a Thai
intro line with no mark above math alone (`ทำได้ดังนี้\\n2 + 4 = 6\\nคำตอบคือ 6`, "do it as follows"). fx29bd lost none
of the rows tried (`\\mathrm{lcm}(2,3)`, `\\mathrm{sin}`, `\\mathit{x} = 6` were refused before it too).

Held (passing tests below): a function or scale word in every font command (`\\texttt`, `\\mathsf`, `\\emph`,
`\\mathcal`, `{\\rm pi}`, `\\operatorname{pi}`, `\\operatorname{max}`, 50 of 50 refused); look-alike hedges in the name
slot (full-width, Cyrillic, combining marks, Roman numeral `Ⅿ`); Thai leads before a sum through NBSP, ideographic space
and a zero-width space in `ดังนั้น` (1,296 of 1,296 refused without an earlier step); `12.000` in a text with no other
point; problem labels with an en dash, a non-breaking hyphen, `A4`, `(A) 1`, `Option A: 5`.
"""

from __future__ import annotations

import pytest

from tests.helpers import MATH_PROFILES, paid_test, refused_test
from tests.test_math_redteam_30 import _cases, _rows, problem_verdicts

# 1. Sentences `_unread_statement_before` does not count: long, two values, a relation, the value restated or spelled.
_STATEMENTS = [
    'Also lautet die endgültige Antwort hier wohl 7. So x = 6.', 'I would say the answer could be 7. Therefore, x = 6.',
    'The answer would be 7 or 8. So x = 6.', 'The answer would be 7, not 6. Thus $x = 6$.', 'La solución sería 7 u 8. So x = 6.',
    'Die Lösung ist x = 7. So x = 6.', '> The answer would be 7.\nSo x = 6.', '> 7 is the answer.\nSo x = 6.',
    'The answer would be 6 thousand. So x = 6.', 'Die Lösung ist 6 Millionen. Thus $x = 6$.', 'The answer would be 6k. So x = 6.',
    'Ответ равен 6 тысячам. So x = 6.', 'The answer would be seven. So x = 6.', 'The answer would be VII.\nSo the total is 6.',
    '结果是七. So x = 6.', 'The answer would be 7 or 8.\n6', 'Die Lösung ist 6 Tausend.\n6',
]
STATEMENT_NEAR = _cases(_STATEMENTS)  # closed by fx29c (grammar.answer_phrase, step_sentence: no bound)
test_an_unread_statement_before_a_concluding_sentence_is_read = refused_test(
    STATEMENT_NEAR, """Paid in both profiles (the lenient `\\n6` rows lenient only): an unlisted answer phrase stating 7
    (or 6 thousand, or `seven`) is skipped by `_unread_statement_before` when it is longer than five words, has two
    values, a relation sign (a Markdown quote's `>` too), the value restated with a scale, or no digits, so the
    concluding `So x = 6.` pays. The safe verdict: refused.""")

STATEMENT_HELD = _cases([
    'The answer would be 7. So x = 6.', 'Die Lösung ist 7.\nSo x = 6.', '7 is the answer. Therefore, x = 6.', 'The answer would be $7$. So x = 6.',
    'The answer would be \\(7\\). So x = 6.', 'The answer would be **7**. So x = 6.', 'Perhaps 7. So x = 6.', 'It would be 7. So x = 6.',
])
test_a_short_unread_statement_is_still_read = refused_test(STATEMENT_HELD)

# 2. A section number, a time or a version proves a decimal point (`_DECIMAL_POINT_RE`).
_EVIDENCE = [
    ('Schritt 1.1: Sie hat 12.000 Stifte.\n\\boxed{12.000}', '12'), ('Um 14.30 Uhr: Er verdient 12.000 im Jahr.\n#### 12.000', '12'),
    ('Version 2.0: Het kost 12.000 dollar.\n$$\\boxed{12.000}$$', '12'), ('Teil 2.3) Ela tem 12.000 canetas.\n\\boxed{12.000}', '12'),
    ('Abschnitt 4.2: Lei ha 12.000 penne.\n#### 12.000', '12'), ('Tabelle 3.1: Jumlahnya 12.000 rupiah.\n\\boxed{12.000}', '12'),
    ('Um 14.30 Uhr Hun har 12.000 kroner.\n\\boxed{12.000}', '12'),
]
# Refused since fx29c for another reason too (values listed with no verb the lexicon knows state them, before
# lenient's label); class 2's rows above pin the evidence.
test_a_section_number_before_a_label_is_refused = refused_test(_cases([('Schritt 1.1: Sie hat 12.000 Stifte.\nTotal: 12.000', '12')]))
EVIDENCE_NEAR = _cases(_EVIDENCE)  # closed by fx29e (extract._DECIMAL_OPERAND_RE, extract._english_words)
test_a_section_number_proves_no_decimal_point = refused_test(
    EVIDENCE_NEAR, """Paid gold 12 in both profiles (the label lenient only): `_DECIMAL_POINT_RE` finds `1.1`, `14.30`,
    `2.0` and reads the text as one that writes decimal points, so German `12.000` ("twelve thousand") is 12. The safe
    verdict: refused against both readings.""")
EVIDENCE_HELD = _cases([
    ('Sie hat 12.000 Stifte.\n\\boxed{12.000}', '12'), ('Het kost 12.000 dollar.\n#### 12.000', '12'), ('Ela tem 12.000 canetas.\n\\boxed{12.000}', '12'),
    ('Schritt 1.1: Sie hat 12.000 Stifte.\n\\boxed{12.000}', '12000'), ('Um 14.30 Uhr: Er verdient 12.000 im Jahr.\n#### 12.000', '12000'),
])
test_a_point_with_no_other_point_stays_ambiguous = refused_test(EVIDENCE_HELD)

# 3. A colon lead above a line of math alone above a box.
_COLON = [
    'Maybe:\nx = 6\n\\boxed{6}', '可能：\n2 + 4 = 6\n\\boxed{6}', '单位：千\nx = 6\n\\boxed{6}', 'In thousands:\n$x = 6$\n$\\boxed{6}$',
    'Not:\n6 = 6\n\\boxed{6}', '猜测：\n\\[x = 6\\]\n\\boxed{6}', 'Answer in thousands:\n2 + 4 = 6\n\\boxed{6}', '错误：\nx = 6\n$\\boxed{6}$',
]
COLON_NEAR = _cases(_COLON)  # closed by fx29bf (grammar._math_line_opens)
test_a_colon_lead_above_math_is_read_before_a_box = refused_test(
    COLON_NEAR, """Paid in both profiles: the box's path reads a line of math alone under a colon line as opening its
    own sentence, so the colon line's hedge or scale (`Maybe:`, `单位：千`) leads nothing; the same lines before `答案是
    6。` and without the colon are refused. The safe verdict: refused.""")
COLON_HELD = _cases([
    'Maybe:\nx = 6\n答案是 6。', '单位：千\nx = 6\n答案是 6。', 'Maybe\nx = 6\n\\boxed{6}', '可能\n2 + 4 = 6\n\\boxed{6}', 'Maybe:\n\\boxed{6}',
    'Unit: thousands\nx = 6\n\\boxed{6}', 'Note: in thousands\n2 + 4 = 6\n\\boxed{6}',
])
test_a_lead_above_math_is_read_elsewhere = refused_test(COLON_HELD)

# 4. A problem's hyphenated or slashed labels ground letters (fx29bd's operand rule).
CA, NOT, IF = "所以 C + A = 6；\n答案是 6。", "所以 N + O + T = 6；\n答案是 6。", "所以 I + F = 6；\n答案是 6。"
_LABELS = [
    (IF, "The I-95 highway and the F-16 jet: how many apples are left?"),
    (NOT, "An N-95 mask, an O-2 visa and a T-10 rocket are in a box. How many items are there?"),
    (CA, "Room A-2 and room C-3 hold 2 and 4 people. How many people in all?"),
    (CA, "We saw the C-10 jet and the A-10 jet. How many apples are left?"),
    (CA, "Buy C/4 paper and A/4 paper. How many sheets?"),
    (CA, "We saw C−95 and A−95. How many apples are left?"),
    (NOT, "Models N-2, O-2 and T-2 cost 2 dollars each. How much for three?"),
]


@pytest.mark.parametrize(("completion", "problem"), _LABELS)  # closed by fx29bf (grammar._in_label)
def test_a_problems_hyphenated_labels_ground_no_name(completion: str, problem: str) -> None:
    """Paid in both profiles with the problem (refused without it): `I-95`, `N-95`, `room C-3`, `A/4` are labels in the
    problem's prose, but a hyphen or slash before digits is an operator with an operand (`_has_operand`), so the
    letters are the problem's names and the step line's spelled `IF`, `NOT`, `ca` is admitted. The safe verdict:
    refused."""
    assert "correct" not in problem_verdicts(completion, problem)


_LABELS_HELD = [
    (CA, "We saw C–95 and A–95 (an en dash). How many apples are left?"), (CA, "We saw C\u201195 and A\u201195. How many apples are left?"),
    (CA, "A4 paper and C5 envelopes. How many sheets?"), (CA, "Rate each from A (1) to C (3). How many?"), (CA, "Option A: 5\nOption C: 6"),
    (NOT, "N, O and T are letters. How many apples are left?"),
]


@pytest.mark.parametrize(("completion", "problem"), _LABELS_HELD)
def test_labels_beside_no_operator_ground_nothing(completion: str, problem: str) -> None:
    """Held: a dash that is no ASCII hyphen or minus, a letter glued to a digit, a parenthesised number and a label's
    colon ground no step line."""
    assert "correct" not in problem_verdicts(completion, problem)


@pytest.mark.parametrize("completion", [CA, NOT, IF])
def test_the_spelled_step_lines_are_refused_without_a_problem(completion: str) -> None:
    """Class 4's rows are refused with no problem: what pays them is the problem's grounding alone."""
    assert problem_verdicts(completion, "") == ["no_answer"] * len(MATH_PROFILES)


# 5. A lead inside a step line that opens a sentence (open, as tests/test_math_fx29bc.py's label row).
_STEP_LEAD = [
    'In thousands 2 + 4 = 6\n\\boxed{6}', 'In thousands 2 + 4 = 6\nx = 6\n\\boxed{6}', '可能 6 = 6\n6 = 6\n答案是 6。', '以千为单位 6 = 6\n6 = 6\n答案是 6。',
    'อาจจะ 6 = 6\n6 = 6\nคำตอบคือ 6', 'たぶん 6 = 6\n6 = 6\n答えは6です。', 'หน่วยเป็นพัน มี 2 ลูก ดังนั้น 2 + 4 = 6 คำตอบคือ 6',
    'อาจจะ มี 2 ลูก ดังนั้น 6 = 6 คำตอบคือ 6',
]
STEP_LEAD_NEAR = _rows(_STEP_LEAD, "rt32 class 5 (open, as test_math_fx29bc's `In thousands 2 + 4 = 6\\nA: 6`): a step "
                                   "line that opens a sentence ends it at its break whatever its own lead")
test_a_lead_inside_a_step_line_above_the_answer_is_read = refused_test(
    STEP_LEAD_NEAR, """Paid in both profiles: `line_opens` opens the line below a step line that opens a sentence and
    states a relation, and `_thai_sum_opens` a sum after `ดังนั้น` that follows a step's number and classifier, so the
    step's own lead (`In thousands`, `可能`, `หน่วยเป็นพัน`) leads nothing after it. The safe verdict: refused.""")
STEP_LEAD_HELD = _cases([
    'In thousands 2 + 4 = 6\n答案是 6。', '可能 6 = 6\n答案是 6。', 'หน่วยเป็นพัน 2 + 4 = 6 คำตอบคือ 6', 'อาจจะ\u00a02 + 4 = 6 คำตอบคือ 6',
    'อาจจะ\u30002 + 4 = 6 คำตอบคือ 6', 'อาจจะ ดังนั้น\u200b2 + 4 = 6 คำตอบคือ 6', 'ถ้า ดังนั้นจะได้ 2 + 4 = 6 ลูก คำตอบคือ 6',
])
test_a_lead_before_a_sum_of_its_own_is_read = refused_test(STEP_LEAD_HELD)

# 6. The point check reads the answer's raw text, the comparison its fold.
_FORMS = [
    ('Die Antwort lautet \\boxed{１２.０００}', '12'), ('Die Antwort lautet \\boxed{12．000}', '12'), ('Sie hat 12.000 Stifte.\n\\boxed{𝟏𝟐.𝟎𝟎𝟎}', '12'),
    ('Die Antwort lautet \\boxed{12.\u200b000}', '12'), ('Sie hat 12.000 Stifte.\n\\boxed{12\u200b.000}', '12'),
    ('Sie hat 12.000 Stifte.\n\\boxed{12.\u2060000}', '12'), ('Die Antwort lautet \\boxed{12.\ufeff000}', '12'),
    ('Sie hat 12.000 Stifte.\n#### 12.0\u200b00', '12'), ('Die Antwort lautet 12.\\!000', '12'),
]
FORMS_NEAR = _cases(_FORMS)  # closed by fx29bf (extract._as_compared)
test_a_folded_point_under_a_decimal_comma_text_is_ambiguous = refused_test(
    FORMS_NEAR, """Paid gold 12 in both profiles: a full-width or bold digit or point, a zero-width character or `\\!`
    hides `12.000` from `_POINT_GROUPING_RE`, and the comparison folds it to `12.000`, a decimal 12, under the German
    anchor. The safe verdict: refused against both readings.""")
FORMS_HELD = _cases([('Die Antwort lautet ６.０００.', '12'), ('Sie hat 12.000 Stifte.\n\\boxed{12.000\u2009}', '12'),
                     ('Die Antwort lautet \\boxed{12{.}000}', '12'), ('Die Antwort lautet \\boxed{12·000}', '12')])
test_other_forms_of_the_point_are_refused = refused_test(FORMS_HELD)

# 7. A reasoning block hides the completion's language from the point check.
_THINK = [
    ('<think>Sie hat 12.000 Äpfel.</think>\n\\boxed{12.000}', '12'), ('<think>\nEr verdient 12.000 Euro im Jahr.\n</think>\n\n#### 12.000', '12'),
    ('Elle gagne 12.000 € par an.\n</think>\n$\\boxed{12.000}$', '12'), ('<think>У неё 12.000 яблок.</think>\\[\\boxed{12.000}\\]', '12'),
    ('<think>Ella tiene 12.000 pesos, o sea 12,5 mil.</think>\n\\boxed{12.000}', '12'), ('<think>Sie hat 12.000 Stifte.</think>\n12.000', '12'),
]
THINK_NEAR = _cases(_THINK)  # closed by fx29bf (the whole completion's language)
test_a_reasoning_blocks_language_reaches_the_point_check = refused_test(
    THINK_NEAR, """Paid gold 12 in both profiles (the bare value lenient only): the reasoning is German, French, Spanish
    or Russian, but the graded region after `</think>` is a box alone, which writes decimal points. The safe verdict:
    refused against both readings.""")
THINK_HELD = _cases([('<think>Sie hat 12.000 Äpfel.</think>\nDie Antwort lautet \\boxed{12.000}', '12'),
                     ('Sie hat 12.000 Äpfel.\n\\boxed{12.000}', '12'), ('<think>Er verdient 12.000 Euro.</think>\n\\boxed{12.000}', '12000')])
test_a_point_after_decimal_comma_words_in_the_answer_is_refused = refused_test(THINK_HELD)

# Held: fx29bd's font groups and NFKD fold.
FONT_HELD = _cases([
    '\\boxed{6\\operatorname{pi}}', '\\boxed{6 \\operatorname{max}}', '\\boxed{6\\operatorname{inf}}', '\\boxed{6\\texttt{ pi}}', '\\boxed{6\\mathsf{pi}}',
    '\\boxed{6\\emph{ pi}}', '\\boxed{6\\mathtt{max}}', '\\boxed{6\\textsc{ thousand}}', '\\boxed{6\\mathcal{pi}}', '\\boxed{6{\\rm pi}}',
    '\\boxed{6\\text{ π}}', '\\boxed{6\\text{ ｐｉ}}', '\\boxed{6\\textsl{ pi}}', '\\boxed{6\\boldsymbol{pi}}', '\\boxed{6\\operatorname{thousand}}',
    '#### 6 \\operatorname{max}', '\\boxed{6\\operatorname*{pi}}', '\\boxed{6\\mathop{max}}', '\\boxed{6\\hbox{ pi}}', '\\boxed{6{\\it inf}}',
    '\\boxed{6\\text{\\textbf{ pi}}}', 'The answer is $6\\mathrm pi$.', '\\boxed{6\\mathfrak{max}}', 'The answer is $6\\operatorname{pi}$.', '\\boxed{6\\operatorname{or} 7}', '\\boxed{6\\mathrm{\\pi}}',
])
test_function_and_scale_words_in_any_font_group_are_refused = refused_test(FONT_HELD)
FOLD_HELD = _cases(['Ｍaybe has 6 apples.', 'Maybе has 6 apples.', 'Ǹot has 6 apples.', 'Perhaps\u0301 has 6 apples.', 'Ⅿaybe has 6 apples.',
                    'Mayｂe has 6 apples.', 'Ａpprox: 6 apples', 'ＮＯＴ has 6 apples.'])
test_look_alike_hedges_in_the_name_slot_are_refused = refused_test(FOLD_HELD)

# Rewrites fx29bc lost (secondary): right answers refused.
test_a_short_step_before_the_answer_pays = paid_test(_cases(['A week has 7 days. So x = 6.', 'Add 4. Thus the total is 6.']))
# closed by fx29c (grammar.step_sentence); the rows below stay costs
_LOST = [
    'Divide by 2. So he has 6 apples.', 'There are 4 quarters. So x = 6.', 'Ann is 10 years old. So he has 6 apples.',
    'ทำได้ดังนี้\n2 + 4 = 6\nคำตอบคือ 6',
]
test_a_short_step_or_a_thai_intro_before_the_answer_pays = paid_test(_cases(_LOST), marks=[pytest.mark.xfail(
    strict=True, reason="rt32 rewrites: `So he has 6 apples.` concludes nothing in strict (`grammar.concludes`: a verb "
                        "of action; lenient pays since fx29c); `4 quarters` after a link is unread, a statement (a "
                        "quarter may be a fourth: `grammar.step_sentence`'s safe reading); a Thai intro line has no "
                        "mark to end it (`line_opens`)")])

# The right answers near these classes that each fix must keep paying.
RIGHT = _cases([
    'Each box holds 4 pens. So x = 6.', 'He runs 3 miles. Thus the total is 6.', 'First, 7 - 1 = 6. So x = 6.', '计算如下\n2 + 4 = 6\n答案是 6。',
    ('The result is 3.5 + 8.5.\n\\boxed{12.000}', '12'), ('\\boxed{12.000}', '12'), '\\boxed{\\operatorname{lcm}(2,3)}', '\\boxed{6\\,\\mathrm{cm}}',
    'Solution\n2 + 4 = 6\n\\boxed{6}', '解答\n2 + 4 = 6\n答案是 6。',
])
test_the_right_answers_near_these_classes_pay = paid_test(RIGHT)


def test_a_step_line_with_a_problems_operand_still_pays() -> None:
    """The rewrite class 4's fix must keep: a letter in the problem's math (`2x + 4 = 16`) grounds the step line."""
    assert problem_verdicts("所以 x = 6；\n答案是 6。", "Solve for x in 2x + 4 = 16.") == ["correct"] * len(MATH_PROFILES)
