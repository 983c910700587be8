"""fx29az: red team 29's classes 1, 3, 4 and 5 closed at the class (tests/test_math_redteam_29.py), through the real
grader in both profiles (`tests.helpers.math_verdicts`): near misses (a right answer perturbed: refused) and rewrites (a
right answer in these scripts: paid).

1. A label's one-letter name is a math letter (`grammar.math_letter`: ASCII Latin or a Greek letter of `_GREEK`).
3. A name is Latin script (`grammar.latin_word`); a two-letter product is two ASCII letters; `bare_expression` counts a
   run of another script's letters as a word.
4. An ASCII space before Thai ends a sentence only after a Thai sum (`grammar.thai_space_ends`); other spacing never.
5. Under a decimal-comma language's anchor, `d.ddd` is ambiguous and refused (`extract.grouping_ambiguous`), in
   prose and in a box in the anchor's sentence.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import paid_test, refused_test
from verifier.math import grade_math


def _cases(rows: list) -> list:
    """Rows (a completion for gold 6, or a (completion, gold) pair) as (completion, gold, choices) cases."""
    return [(r[0], r[1], None) if isinstance(r, tuple) else (r, "6", None) for r in rows]


# 1. One-character words of scripts that are no math letters, in every label shape the red team used and others.
LABEL_NEAR = _cases([
    '多：\\boxed{6}', '少: \\boxed{6}', '近：\\boxed{6}', '약：\\boxed{6}', 'ок：\\boxed{6}', 'и: \\boxed{6}', 'ق: \\boxed{6}', 'ल: \\boxed{6}',
    'ก: \\boxed{6}', 'ς: \\boxed{6}', 'ή: \\boxed{6}', 'Step 千: \\boxed{6}', 'Part 约: \\boxed{6}', 'Value of 约: \\boxed{6}',
    'Answer for 非: \\boxed{6}', '**千**: \\boxed{6}', '约:\n$\\boxed{6}$', 'Step 约: the answer is 6.', 'Attempt 约: \\boxed{6}',
    ('x: \\boxed{7}', '6'), ('α: \\boxed{7}', '6'), ('答：\\boxed{7}', '6'), '答：约 \\boxed{6}',
])
test_one_character_words_of_other_scripts_name_no_label = refused_test(LABEL_NEAR)

LABEL_RIGHT = _cases([
    '答：\\boxed{6}', '答案：6', 'x：\\boxed{6}', 'x: \\boxed{6}', 'α: \\boxed{6}', 'Δ: \\boxed{6}', 'θ：\\boxed{6}', 'Step x: \\boxed{6}',
    'Value of n: \\boxed{6}', 'Step 1: \\boxed{6}', 'Answer: \\boxed{6}', '**x**: \\boxed{6}', '答案：\\boxed{6}', '解：\\boxed{6}',
])
test_math_letters_and_listed_labels_still_label_a_box = paid_test(LABEL_RIGHT)

# 3. Capitalised words of other cased scripts are no names; two letters of other scripts are no product.
NAMES_NEAR = _cases([
    'Вероятно\n答案是 6。', 'Едва\n答案是 6。', 'Πιθανόν\n答案是 6。', 'Όχι\n答案是 6。', 'Ὄχι\n答案是 6。', 'Հավանաբար\n答案是 6。',
    'Вероятно 答案是 6。', 'Не 6', 'ни 6', 'да 答案是 6。', 'αβ 答案是 6。', 'ой 答案是 6。', 'и 答案是 6。', 'ж 6',
    'Иван имеет 6 яблок.', 'Вася has 6 apples.',
])
test_other_scripts_words_are_no_names_or_products = refused_test(NAMES_NEAR)

NAMES_RIGHT = _cases([
    'Ответ: 6.', 'Итак, ответ: 6.', 'Ответ — 6.', ('The answer is $xy$.', 'xy'), ('\\boxed{2α}', '2α'),
    ('The answer is α.', 'α'),
])
test_russian_anchors_products_and_greek_letters_still_pay = paid_test(NAMES_RIGHT)

LENIENT_RIGHT = [('Sam has 6 apples.', '6'), ('José has 6 apples.', '6'), ('Zoë has 6 apples.', '6'), ('6', '6'), ('x = 6', '6'),
                 ('xy', 'xy'), ('x + y', 'x + y'), ('α', 'α'), ('2α', '2α')]


@pytest.mark.parametrize(("completion", "gold"), LENIENT_RIGHT)
def test_latin_names_and_bare_math_still_pay_lenient(completion: str, gold: str) -> None:
    """The lenient profile's last sentence and bare line (strict reads neither): a Latin name (`José`, `Zoë`) is still a
    name, an ASCII product (`xy`) and a Greek letter (`α`) still math. Since fx29be a name is the problem's
    (`grammar.grounded_names`), so the task names them."""
    problem = "Sam, José and Zoë have 2 apples each and get 4 more. How many apples does each have?"
    assert grade_math({"completion": completion, "gold": gold, "profile": "lenient", "problem": problem})["verdict"] == "correct"

# 4. A Thai space ends a sentence only after a Thai sum; any other lead before a Thai anchor is read.
THAI_NEAR = _cases([
    'อาจจะ คำตอบคือ 6', 'ประมาณ คำตอบคือ 6', 'ไม่ใช่ คำตอบคือ 6', 'หน่วยเป็นพัน คำตอบคือ 6', 'It is 7 not 6 คำตอบคือ 6',
    'In thousands 2 + 4 = 6 คำตอบคือ 6', '2 + 4 = 6 อาจจะ คำตอบคือ 6', '2 + 4 = 6 พัน คำตอบคือ 6', '2 + 4 = 6 ชิ้น อาจจะ คำตอบคือ 6',
    'อาจจะ\tคำตอบคือ 6', 'อาจจะ\u2029คำตอบคือ 6', 'อาจจะ\u202fคำตอบคือ 6', 'ดังนั้น 2 + 4 ≈ 6 คำตอบคือ 6', 'ถ้า x = 2 คำตอบคือ 6',
    ('ดังนั้น 5 + 6 = 11 คำตอบคือ 12', '11'), ('ดังนั้น 5 + 6 = 11 คำตอบคือ 11 พัน', '11'),
])
test_a_thai_lead_that_is_no_sum_is_read = refused_test(THAI_NEAR)

THAI_RIGHT = _cases([
    'ดังนั้น คำตอบคือ 6', 'คำตอบคือ 6', 'ดังนั้น\nคำตอบคือ 6', 'สรุป คำตอบคือ 6', '2 + 4 = 6 คำตอบคือ 6', '2 + 4 = 6 ชิ้น คำตอบคือ 6',
    'ดังนั้น 2 + 4 = 6 ชิ้น คำตอบคือ 6', 'มีแอปเปิ้ล 2 ลูก ดังนั้น 2 + 4 = 6 ลูก คำตอบคือ 6', ('ดังนั้น 5 + 6 = 11 คำตอบคือ 11', '11'),
    ('ดังนั้น จะมีรถยนต์รวมกันเป็น 3 + 2 = 5 คัน คำตอบคือ 5', '5'),
])
test_thai_sums_and_leads_still_pay = paid_test(THAI_RIGHT)

_MGSM = Path(__file__).parent / "data" / "peer_outputs" / "mgsm_exemplars.jsonl"
MGSM_THAI = [json.loads(line) for line in _MGSM.read_text(encoding="utf-8").splitlines() if "::th/" in line]
test_mgsm_thai_right_rows_pay = paid_test(
    [(r["prediction"], r["gold"], None) for r in MGSM_THAI if r["label"]],
    "MGSM's Thai exemplars (each step ends with a space before Thai) pay against their gold.")
test_mgsm_thai_rows_against_another_gold_are_refused = refused_test(
    [(r["prediction"], r["gold"], None) for r in MGSM_THAI if not r["label"]])

# 5. Under a decimal-comma language's anchor, a point before exactly three digits is ambiguous.
POINT_NEAR = _cases([
    ('Die Antwort lautet 12.000.', '12000'), ('Die Antwort lautet 12.000.', '12'), ('Antwort: 1.500', '1.5'), ('Antwort: 1.500', '1500'),
    ('La respuesta es 2.500 pesos.', '2.5'), ('La respuesta final es 6.000', '6'), ('La réponse est 6.000.', '6'),
    ('Ответ: 6.000.', '6'), ('Ответ — 1.250', '1.25'), ('Die Antwort lautet $12.000$.', '12'), ('Die Antwort ist 12.000 Euro.', '12'),
    ('Die Antwort lautet 12.5.', '12'), ('Die Antwort lautet 12,6.', '12.5'), ('Die Antwort lautet 12.000.000.', '12'),
    ('Die Antwort lautet \\boxed{6.000}.', '6'), ('Die Antwort lautet \\boxed{6.000}.', '6000'), ('Antwort: $\\boxed{1.250}$', '1.25'),
    ('La respuesta es $\\boxed{12.000}$ pesos.', '12'),
])
test_a_point_before_three_digits_under_a_decimal_comma_anchor_is_refused = refused_test(POINT_NEAR)

POINT_RIGHT = _cases([
    ('Die Antwort lautet 12.', '12'), ('Die Antwort lautet 12,5.', '12.5'), ('La respuesta es 12,5.', '12.5'),
    ('Die Antwort lautet 12.5.', '12.5'), ('Die Antwort lautet 0.125.', '0.125'), ('Die Antwort lautet 1234.567', '1234.567'),
    ('Die Antwort lautet 12000.', '12000'), ('The answer is 6.000.', '6'), ('答案是 1.500。', '1.5'), ('Die Antwort lautet 39.', '39'),
    ('Ответ: 6.', '6'), ('La réponse est 11.', '11'), ('Die Antwort lautet 1.25.', '1.25'), ('Die Antwort lautet \\boxed{12}.', '12'),
    ('Die Antwort lautet \\boxed{12,5}.', '12.5'), ('The answer is \\boxed{6.000}.', '6'), ('\\boxed{1.500}', '1.5'),
])
test_other_numbers_under_these_anchors_and_points_elsewhere_pay = paid_test(POINT_RIGHT)
