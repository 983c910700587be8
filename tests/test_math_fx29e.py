"""fx29e: a separator's two readings admitted only where the text is known to write one convention (issue 29; red team
32 class 2, red team 33 classes 2 and 2b, fx29be's open German-prose row), through the real grader (`grade_math`) in
both profiles.

`d,ddd` (`2,500`: 2.5 or 2500) and `d.ddd` (`12.000`: 12 or 12000) have their English readings (a thousands comma, a
decimal point) only in a text known to write them (`extract._decimal_point_text`), an allowlist: no decimal-comma
anchor, decimal comma or euro; every letter outside ASCII of a decimal-point script (`_point_script_letters`: CJK,
kana, Hangul, Thai, Bengali, Telugu), none spelled in LaTeX; and its ASCII words English (`_english_words`: a word of
`ENGLISH_FUNCTION_WORDS` only English writes and a fifth of them function words, the English anchor's sentence
unread) or none, or arithmetic on a number only a decimal point reads (`_DECIMAL_OPERAND_RE`: `2.5 + 3.5`, never a
section number or a time). Elsewhere neither reading is paid. Unambiguous forms keep their one reading.
"""

from __future__ import annotations

import pytest

from tests.helpers import paid_test, refused_test
from tests.test_math_redteam_30 import _cases, _rows
from verifier.math import grade_math

# Near misses: a text of no known convention, its ambiguous number refused against both readings.
_NO_LANGUAGE = [
    ('Sie hat 2,500 kg.\n#### 2,500', '2500'), ('Sie hat 2,500 kg.\n#### 2,500', '2.5'),
    ('Sie hat 2{,}500 kg.\n\\boxed{2{,}500}', '2.5'), ('Het kost 2,500 gram.\n\\boxed{2,500}', '2500'),
    ('Jumlahnya 2,500 kg.\n#### 2,500', '2500'), ('Hun har 2,500 kroner.\n\\boxed{2,500}', '2500'),
    # only words English shares with another language (Dutch `is`, `was`; German `so`, `also`, `in`; Polish `to`)
    ('Het is 2,500 kg, dat was het.\n#### 2,500', '2500'), ('Es ist so, also hat sie 2,500 kg in der Tasche.\n#### 2,500', '2500'),
    ('To jest 2,500 kg.\n#### 2,500', '2500'), ('We berekenen het. \\boxed{1,000}', '1000'), ('So \\boxed{1,220}', '1220'),
    # an English anchor's sentence is no evidence of the text's language
    ('Er hat 2,500 kg.\nFinal Answer: 2,500', '2500'), ('Sie hat 2,500 kg.\nThe answer is 2,500.', '2500'),
    ('Sie hat 2,500 kg. The answer is 2,500.', '2500'),
]
test_a_separator_in_prose_of_no_known_language_is_refused = refused_test(_cases(_NO_LANGUAGE))
_LETTERS = [
    ('Det är 2,500 kg.\n#### 2,500', '2500'), ('Отже, 2,500 кг.\n\\boxed{2,500}', '2500'),
    ('Celkem 2,500 kg (\\v{s}est).\n\\boxed{2,500}', '2500'), ('Wi\\k{e}c \\l\\k{a}cznie 2,500 kg.\n\\boxed{2,500}', '2500'),
    ('Toplam a\\u{g}\\i rl\\i k 2,500 kg.\n#### 2,500', '2500'), ("Caf\\'e: 2,500 kg.\n#### 2,500", '2500'),
    ('The total is 2,500 kg, q\u0301.\n#### 2,500', '2500'), ('So the total is 2,500 kg. Všechno.\n\\boxed{2,500}', '2500'),
]
test_a_letter_outside_the_decimal_point_scripts_refuses = refused_test(_cases(_LETTERS))
_POINT_EVIDENCE = [
    ('Kapitel 1.2: Sie hat 12.000 Stifte.\n\\boxed{12.000}', '12'), ('Am 1.12. um 9.30 Uhr hat sie 12.000 Stifte.\n#### 12.000', '12'),
    ('Von 14.30 - 16.00 Uhr: 12.000 Stifte.\n\\boxed{12.000}', '12'), ('Von 14.30 - 16.00 Uhr: 12.000 Stifte.\n\\boxed{12.000}', '12000'),
    ('Sie zahlt 2.5 + 3.5 = 6.000 Euro.\n\\boxed{6.000}', '6'), ('Więc 2.5 + 3.5 = 6.000 kg.\n\\boxed{6.000}', '6'),
    ('Version 2.0: Het kost 2,500 dollar.\n#### 2,500', '2500'),
    ('\\[\\begin{pmatrix} 1 \\end{pmatrix}\\]\nZo de som is \\boxed{1,250}.', '1250'),
]
test_a_section_number_or_a_time_is_no_decimal_point = refused_test(_cases(_POINT_EVIDENCE))

# Rewrites: a text known to write English grouping and decimal points, or a separator with one reading.
_KNOWN = [
    ('Natalia sold 48/2 = 24 clips in May.\nNatalia sold 48+24 = 72 clips altogether in April and May.\n#### 1,234', '1234'),
    ('He runs 3 sprints a week, so he runs 1,234 meters.\n#### 1,234', '1234'), ('The answer is 2,500.', '2500'),
    ('Thus $x = \\boxed{1.250}$', '1.25'), ('Final Answer: 12.000', '12'), ('Final Answer: 2,500', '2500'),
    ('So the total is 2,500 kg. The answer is 2,500.', '2500'), ('\\boxed{2,500}', '2500'), ('#### 12.000', '12'),
    ('答案是 2,500。', '2500'), ('คำตอบคือ 2,500', '2500'), ('উত্তর হল 2,500।', '2500'), ('答えは 2,500 です。', '2500'),
    ('정답은 2,500입니다.\n\\boxed{2,500}', '2500'), ('Kwa hiyo 1.500 \\times 4 = 6.\n\\boxed{6.000}', '6'),
    ('The angle α is 1,250 degrees in all.\n\\boxed{1,250}', '1250'), ('The length is 2,500 μm.\n\\boxed{2,500}', '2500'),
    ('In triangle ABC, the side AB is 1,250.\n\\boxed{1,250}', '1250'),
    ('\\[\\begin{pmatrix} 1 \\end{pmatrix}\\]\nSo the sum is \\boxed{1,250}.', '1250'),
    ('We compute. \\boxed{1,000}', '1000'), ('We compute.\n#### 1,000', '1000'), ('So we get \\boxed{1,220}', '1220'),
]
test_a_separator_in_a_known_text_pays = paid_test(_cases(_KNOWN))
_ONE_READING = [
    ('Sie hat 2,500,000 kg.\n#### 2,500,000', '2500000'), ('Sie hat 2,5 kg.\n#### 2,5', '2.5'), ('Sie hat 1.5 kg.\n#### 1.5', '1.5'),
    ('Więc łącznie 2,500.5 kg.\n\\boxed{2,500.5}', '2500.5'), ('Sie hat 2 500 kg.\n#### 2 500', '2500'),
    ('Sie hat 2500 kg.\n#### 2500', '2500'), ('Die Antwort lautet 12.', '12'),
]
test_a_separator_with_one_reading_keeps_it = paid_test(_cases(_ONE_READING))


@pytest.mark.parametrize(("completion", "gold"), [
    ('The answer is 2,500.', '2.5'), ('Final Answer: 12.000', '12000'), ('答案是 2,500。', '2.5'),
    ('Thus $x = \\boxed{1.250}$', '1250'), ('The length is 2,500 μm.\n\\boxed{2,500}', '2501'),
    ('Natalia sold 48/2 = 24 clips in May.\nNatalia sold 48+24 = 72 clips altogether in April and May.\n#### 1,234', '1.234'),
])
def test_a_known_text_pays_only_its_one_reading(completion: str, gold: str) -> None:
    """The other reading of a separator a known text admits is a wrong answer: graded `incorrect`, never paid."""
    assert [grade_math({"completion": completion, "gold": gold, "profile": p})["verdict"] for p in ("strict", "lenient")] == [
        "incorrect", "incorrect"]


# Costs (strict xfails): English the measure does not know, refused in both profiles.
test_english_the_lexicon_does_not_measure_pays = paid_test(_rows([
    ('Natalia sold 48+24 = 72 clips.\n#### 1,234', '1234'), ('Sam bought 1,234 apples. The answer is 1,234.', '1234'),
    ('The café sold 1,234 cups.\n#### 1,234', '1234'),
], "cost (fx29e): a text whose words hold no English function word (`Natalia sold 72 clips.`) or a letter outside ASCII "
   "(`café`) is of no known language, so `d,ddd` is refused; no peer row has one"))


# rt37 classes 4 and 5 (fx29i): the decimal comma's convention shown otherwise than by a decimal comma or the euro
# refuses (`extract._equation_proofs`' continental proof; `_DECIMAL_COMMA_EVIDENCE_RE`: `2.500,50`, `1.500.000`), and a
# decimal-comma language's function word refuses every proof, an equation's too (`_decimal_point_text`).
test_the_continental_conventions_evidence_refuses = refused_test(_cases([
    ('He has 2 x 750 = 1.500 kg. He sold 2,500 kg.\n#### 2,500', '2500'),
    ('He has 750 + 750 = 1.500 kg. He sold 2,500 kg.\n#### 2,500', '2.5'),
    ('The city has 2.500.000 people. He sold 2,500 kg.\n#### 2,500', '2500'),
    ('The city has 2.500.000 people. She has 12.000 kg.\n\\boxed{12.000}', '12'),
    ('It cost 1.250,75 dollars. He sold 2,500 kg.\n#### 2,500', '2500'),
    ('3 x 500 = 1,500 and 750 + 750 = 1.500. He sold 2,500 kg.\n#### 2,500', '2500'),  # both conventions proven
    ('Zij heeft 2,500 kg; 3 x 500 = 1,500.\n#### 2,500', '2500'), ('Han har 12.000 kg. 1.500 x 2 = 3.\n#### 12.000', '12'),
    ('3 x 500 = 1,500. Ich habe 2,500 kg und er hat mehr.\n#### 2,500', '2500'),
]))
test_the_english_conventions_evidence_still_pays = paid_test(_cases([
    ('3 x 500 = 1,500. He sold 2,500 kg.\n#### 2,500', '2500'),
    ('The city has 2,500,000 people. He sold 2,500 kg.\n#### 2,500', '2500'),
    ('It cost 1,250.75 dollars. He sold 2,500 kg.\n#### 2,500', '2500'),
    ('He has 3 x 500 = 1.500 kg.\n#### 1500', '1500'), ('The farm has 1.500.000 hens. They paid 2500 dollars.\n#### 2500', '2500'),
    ('Version 1.2.3 is used. He sold 2,500 kg.\n#### 2,500', '2500'),
    ('3 x 500 = 1,500. She has 2,500 kg and he has more.\n#### 2,500', '2500'),
    ('3 x 500 = 1,500. Kwa hiyo 2,500 kg.\n#### 2,500', '2500'), ('1.500 x 2 = 3. Jumla ni 12.000 kg.\n#### 12.000', '12'),
]))
