"""fx29bc: red team 30's classes 2-5 and red team 29's class 2 remainder, closed at the class (docs/math.md "Answer
grammar", "Red team 30 (fx29bc)"): one reading of a line's opening (`grammar.line_opens`) for a line of math alone, a
display before a caseless anchor, a Thai sum and a lenient label line; a point's language read from the whole completion
(`extract.grouping_ambiguous`); and a short unread statement of another value before the last value
(`extract._unread_statement_before`). Near misses (a perturbed right answer) are refused in both profiles; rewrites (an
equivalent right answer) pay; the costs and the holes left are strict xfails with their reasons."""

from __future__ import annotations

import pytest

from tests.helpers import paid_test, refused_test
from verifier.math import grade_math


def _cases(rows: list[tuple[str, str]]) -> list[tuple[str, str, None]]:
    """(completion, gold) rows as (completion, gold, choices) cases."""
    return [(c, g, None) for c, g in rows]


def lenient_verdict(completion: str, gold: str) -> str:
    """The lenient profile's verdict (the label line and the last value are lenient's fallback)."""
    return grade_math({"completion": completion, "gold": gold, "profile": "lenient"})["verdict"]


# Class 2: a Thai space ends a sentence only after a sum that opens one (grammar.thai_space_ends, _thai_sum_opens).
THAI_NEAR = _cases([
    ('ดังนั้น หน่วยเป็นพัน 2 + 4 = 6 คำตอบคือ 6', '6'), ('อาจจะ 6 = 6 คำตอบคือ 6', '6'), ('อาจจะ ดังนั้น 5 + 6 = 11 คำตอบคือ 11', '11'),
    ('ไม่ใช่\n2 + 4 = 6 คำตอบคือ 6', '6'), ('หน่วยเป็นพัน 2 + 4 = 6 ชิ้น คำตอบคือ 6', '6'),
])
test_a_thai_lead_before_a_sum_is_read_with_the_answer = refused_test(THAI_NEAR)
THAI_RIGHT = _cases([
    ('ดังนั้น 2 + 4 = 6 ชิ้น คำตอบคือ 6', '6'), ('2 + 4 = 6 คำตอบคือ 6', '6'), ('มีแอปเปิ้ล 2 ลูก ดังนั้น 2 + 4 = 6 ลูก คำตอบคือ 6', '6'),
    ('x = 2.\n2 + 4 = 6 คำตอบคือ 6', '6'),
    ('แรกเริ่มมีรถยนต์อยู่ 3 คัน ขับมาถึงที่จอดรถอีก 2 คัน ดังนั้น จะมีรถยนต์รวมกันเป็น 3 + 2 = 5 คัน คำตอบคือ 5', '5'),
])
test_a_thai_sum_that_opens_its_sentence_pays = paid_test(THAI_RIGHT)
test_a_thai_sum_after_unread_words_pays = paid_test(_cases([('เขามีเงิน 23 - 15 = 8 ดอลลาร์ คำตอบคือ 8', '8')]), marks=[
    pytest.mark.xfail(strict=True, reason="cost: Thai words before a sum with no `ดังนั้น` are its sentence's unread lead "
                                          "(`เขามีเงิน`, 'he has money', reads as `หน่วยเป็นพัน`, 'in thousands')")])
test_words_between_a_connective_and_a_counted_sum_are_read = refused_test(
    _cases([('ดังนั้น หน่วยเป็นพัน 2 + 4 = 6 ชิ้น คำตอบคือ 6', '6')]), marks=[pytest.mark.xfail(
        strict=True, reason="open: one run of words between `ดังนั้น` and a sum with a classifier is MGSM's shape "
                            "(`ดังนั้น จะมีรถยนต์รวมกันเป็น 3 + 2 = 5 คัน`) and stays unread")])

# Class 3: the language of a point before three digits is the whole completion's (extract._decimal_point_text).
POINT_NEAR = _cases([
    ('Die Antwort lautet 7.\n\\boxed{6.000}', '6'), ('Sie hat 6.000 Äpfel.\n\\boxed{6.000}', '6'), ('Er verdient 12.000.\n#### 12.000', '12'),
    ('Total: 12.000 €', '12'), ('It costs 6.000 euros. \\boxed{6.000}', '6'), ('La respuesta es 7.\n\\boxed{12.000}', '12'),
    ('Es sind 1,5 kg.\nThe answer is 6.000.', '6'), ('Er hat 12.000.\nFinal Answer: 12.000', '12000'),
])
test_a_point_before_three_digits_in_a_text_of_no_known_decimal_point_is_refused = refused_test(POINT_NEAR)
POINT_RIGHT = _cases([
    ('The answer is 6.000.', '6'), ('答案是 1.500。', '1.5'), ('\\boxed{1.500}', '1.5'), ('The answer is \\boxed{6.000}.', '6'),
    ('Die Antwort lautet 12,5.', '12.5'), ('We get 2.5 + 3.5.\n\\boxed{6.000}', '6'),
])
test_a_point_in_a_decimal_point_text_pays = paid_test(POINT_RIGHT)
# Closed since fx29e: `Thus` is an English word (extract.ENGLISH_FUNCTION_WORDS), so the text writes decimal points.
test_a_point_in_english_prose_with_no_anchor_pays = paid_test(_cases([('Thus $x = \\boxed{1.250}$', '1.25')]))
# Closed since fx29e: an English anchor is no word of the text's language (extract._english_words), German prose is none.
test_an_english_anchor_under_german_prose_is_read = refused_test(_cases([('Er hat 12.000 im Jahr.\nFinal Answer: 12.000', '12')]))

# Class 4: a short unread statement of another value before the last value (extract._unread_statement_before).
STATED_NEAR = _cases([
    ('Die Lösung ist 7.\nSo x = 6.', '6'), ('7 is the answer. Thus $x = 6$.', '6'), ('7。\nx = 6', '6'), ('The answer would be 7. x = 6.', '6'),
    ('Maybe 7 is the answer.\nSo, the total is 6.', '6'),
])
test_a_value_after_a_short_unread_statement_is_no_answer = refused_test(STATED_NEAR)
STATED_RIGHT = [
    ('Sam has 3 apples. He buys 3 more. So he has 6 apples.', '6'), ('6 is the answer. So x = 6.', '6'),
    ('In one foot, there are 12 inches.\nSo x = 6.', '6'), ('We add 2 and 4 to get 6. So x = 6.', '6'),
]


@pytest.mark.parametrize(("completion", "gold"), STATED_RIGHT)
def test_steps_and_restatements_before_the_last_value_pay_lenient(completion: str, gold: str) -> None:
    """A sentence the grammar reads with its value inside, a longer step, a computation or the value restated leaves
    the lenient fallback's last value standing."""
    assert lenient_verdict(completion, gold) == "correct"


# Class 5: a line of math alone, or a display before a caseless anchor, ends a sentence only where it opens one.
MATH_NEAR = _cases([
    ('Maybe\n2 + 4 = 6\n答案是 6。', '6'), ('In millions\n$$x = 6$$\n答案是 6。', '6'), ('可能\n\n2 + 4 = 6\n答案是 6。', '6'),
    ('I doubt that\n\\[x = 6\\]\n\\boxed{6}', '6'), ('以千为单位\n2 + 4 = 6\nx = 6\n答案是 6。', '6'), ('可能 $$\n2 + 4 = 6\n$$\n答案是 6。', '6'),
])
test_a_lead_above_math_alone_is_read_with_the_answer = refused_test(MATH_NEAR)
MATH_RIGHT = _cases([
    ('2 + 4 = 6\n答案是 6。', '6'), ('小明有 2 个苹果。\n2 + 4 = 6\n答案是 6。', '6'), ('解：\n2 + 4 = 6\n答案是 6。', '6'),
    ('We add the numbers.\n$$2 + 4 = 6$$\n答案是 6。', '6'), ('x = 2\ny = 6\n答案是 6。', '6'), ('\\[x = 6\\]\n答案是 6。', '6'),
    ('2 + 4 = 6\n\nx = 6\n\\boxed{6}', '6'), ('We add them:\n\\[x = 6\\]\nThe answer is 6.', '6'),
])
test_math_alone_that_opens_its_sentence_pays = paid_test(MATH_RIGHT)
test_math_after_an_unfinished_english_line_pays = paid_test(
    _cases([('We add.\n$$2 + 4 = 6$$\n答案是 6。', '6'), ('We add them:\n2 + 4 = 6\n答案是 6。', '6')]), marks=[pytest.mark.xfail(
        strict=True, reason="cost: an unknown word's period (`add.`) or a colon ends no sentence (`_joined_end`), so "
                            "the math below it opens none and the caseless anchor is read with the line above")])
# Closed since (fx29d): a step's lead before a colon (`grammar._step_lead`) is a label's, so the box below its math pays.
test_a_box_below_math_after_a_steps_colon_pays = paid_test(_cases([('We add them:\n2 + 4 = 6\n\\boxed{6}', '6')]))

# Red team 29 class 2: a lenient label line opens a sentence only where any line does (grammar.line_opens).
LABEL_NEAR = [('In thousands\nA: 6', '6'), ('Not\nx: 6', '6'), ('可能\ntotal: 6', '6'), ('In thousands\n2 + 4 = 6\nA: 6', '6')]
LABEL_RIGHT = [('She sells 13 * 2 = 26 eggs\nA: 26', '26'), ('He has 6 apples.\nA: 6', '6'), ('So x = 6\nA: 6', '6'), ('Total: 6', '6')]


@pytest.mark.parametrize(("completion", "gold"), LABEL_NEAR)
def test_a_label_line_under_a_lead_is_read_with_it(completion: str, gold: str) -> None:
    """The line above a label line that opens no sentence is read with it (`Maybe\\ntotal: 6` as `Maybe total: 6`)."""
    assert lenient_verdict(completion, gold) != "correct"


@pytest.mark.parametrize(("completion", "gold"), LABEL_RIGHT)
def test_a_label_line_under_a_step_or_a_sentence_pays(completion: str, gold: str) -> None:
    """Below a step line (one that opens a sentence and states a relation, GSM8K's) or a finished sentence, a label
    line opens its own sentence."""
    assert lenient_verdict(completion, gold) == "correct"


@pytest.mark.xfail(strict=True, reason="open: a step line that opens a sentence ends it at its break whatever its own "
                                       "words (`In thousands 2 + 4 = 6\\nA: 6` reads as `In thousands 2 + 4 = 6. A: 6.`)")
def test_a_lead_inside_a_step_line_above_a_label_is_read() -> None:
    """The lead inside the step line above a label (`In thousands`) is no lead of the label's value: paid lenient, as
    the same two sentences joined by a period are."""
    assert lenient_verdict("In thousands 2 + 4 = 6\nA: 6", "6") != "correct"


test_a_long_run_of_math_alone_lines_pays = paid_test(_cases([("x = 1\n" * 40 + "答案是 6。", "6")]), marks=[pytest.mark.xfail(
    strict=True, reason="cost: a run of math-alone lines longer than the lead window (200 characters) opens no sentence "
                        "at the window's first line, read as out of sight (never as the text's start)")])
