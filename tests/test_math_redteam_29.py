"""Red team of issue 29's answer grammar, twenty-ninth pass (rt29ae): the answer admission after fx29av (caseless step
lines grounded by the answer's names) and fx29aw (`grammar._answer_names`: at most one name, the answer's one-letter
subject), through the real grader (`tests.helpers.math_verdicts`) in both profiles on main (2b42369) and on 9b8ed04
(fx29au, before fx29av). About 150,000 generated candidates around right answers (gold 6): hedges, negations and scale
words in Japanese, Korean, Russian, Arabic, Hindi, Thai, Bengali, Chinese and English before every anchor and box, with
52 separators (line-break kinds, zero-width, bidi and variation marks, other scripts' commas and stops); 110 multipliers
and qualifiers after the number, after a box, inside `\\boxed{}` and `\\text{}`; 50 retractions after the answer; second
and retracted boxes; 22 step lines under 16 answer lines with a subject (`x`, `∠B`, `k`, `a`, `I`, `△A`) with hedges
above, in and after them.

fx29aw's own rule HELD: no step line above a caseless answer carried a hedge through its one known name (every
`所以 ... ；` row with a hedge above, inside or after the relation was refused in both profiles). What pays lies around it,
and every class below paid on 9b8ed04 too: OLD, not fx29av's or fx29aw's.

1. NOT CLOSED (both profiles). A one-character word of any script is a label's math name before a box: `grammar._label_word`
   and `_label_phrase` take `len(w) == 1 and w.isalpha()` for `x:`, and `isalpha` holds for `约` ("about"), `千`
   ("thousand"), `非`/`不` ("not"), `错` ("wrong"), `猜` ("guess"), `或` ("or"), Hangul `약`, Cyrillic `и`. So `约：\\boxed{6}`,
   `千：\\boxed{6}`, `Step 约: \\boxed{6}`, `Value of 千: \\boxed{6}`, `(约)：\\boxed{6}`, `千:\\n\\[\\boxed{6}\\]` pay. 26 rows
   below (24 of 44,083 generated box rows). Fix (the class): a label's single letter is a math letter, ASCII Latin or
   Greek (the alphabet `_MATH_NAME_RE` names), never any `isalpha` character.
2. NOT CLOSED (lenient). `extract._sentence_open` opens a sentence at any line that starts with `_LINE_LABEL_RE`
   (`[^\\W\\d_][\\w ]{0,30}:`, matched on `to_ascii_math`'s text, so `答案：` is `答案:`) whatever the line above is, so the
   caseless walk (`_caseless_line_opens`, fx29as) and the capital rule (`opens_sentence`) are skipped: `可能\\n答案：6`,
   `以千为单位\\n答案：6`, `Maybe\\n答案：6`, `I doubt that\\n答案：6`, `Maybe\\ntotal: 6`, `Not\\nA: 6` pay lenient (strict
   refuses; `可能\\n答案是 6。` is refused in both). ~150 generated rows. Fix: a label line opens a sentence only where
   `opens_sentence` says its line does (the one line-opening rule for every path).
3. NOT CLOSED (lenient). Words of other cased scripts read as names: (a) `grammar._is_name` takes any capitalised word
   (`base[0].isupper()`), and `NEVER_NAMES` (a list) holds Latin words only, so after the anchor path refuses
   `Возможно\\n答案是 6。` ("maybe"), the lenient last sentence reads `Возможно` as a name before the subject `答案是`:
   `Примерно\\n答案：6`, `Μάλλον\\n答案是 6。`, `Хм.\\nНе 答案是 6。` pay; (b) `extract.bare_expression`'s `_WORD_RE` is
   ASCII-only, so a one-line `не 答案是 6。` ("not") is a bare expression, and `grammar._word` reads a two-letter lower-case
   word of any script as a product of two symbols (`xy`): `ни`, `ли`, `δε`, `μήπως` (split by `π`). Fix: a name and a
   product of letters are Latin-script (Greek single letters aside); a word of another script is a word.
4. NOT CLOSED, WIDER THAN NOTED (both profiles). Any whitespace before a Thai letter after a Thai letter or a DIGIT ends a
   sentence (`_SENTENCE_END_RE`/`_CLAUSE_START_RE`'s `(?<=[\\u0e00-\\u0e7f\\d])\\s+(?=[\\u0e00-\\u0e7f])`), so an anchor's lead
   is never read past it: an English scale or negation ending in a number (`The answer in units of 1000 คำตอบคือ 6`,
   `It is not 6 คำตอบคือ 6`, `x ≠ 6 คำตอบคือ 6`), any text before `ดังนั้น ` (`I doubt that ดังนั้น คำตอบคือ 6`, `The answer in
   thousands is ดังนั้น ...`, `可能ดังนั้น ...`), a condition (`ถ้า n เป็นคู่ คำตอบคือ 6`, "if n is even"), and line breaks
   the caseless walk refuses as `\\n` (`อาจจะ\\r\\nคำตอบคือ 6`, `\\u2028`, `\\x85`, `\\x0b`, NBSP, ideographic space, tab) pay.
   Red team 19 noted `อาจจะ คำตอบคือ 6` as the design; ~3,200 generated lead rows pay through it. Fix: the Thai space ends
   a sentence only as `_ends_script_connective` does for a box: ASCII space between two Thai runs, where the run before
   is no lead word and the clause back to a real sentence end holds Thai script only (MGSM's `... = 11 คำตอบคือ 11`
   keeps paying); other whitespace is a line break and goes through the walk.
5. POLICY QUESTION (both profiles). A point before three digits is a decimal point under every anchor (docs/math.md:
   "`1.000` and `1000` are never confused"), but under the German and Spanish anchors it groups thousands:
   `Die Antwort lautet 12.000 Euro.` pays gold 12, `La respuesta es 6.000.` pays 6, `Die Antwort lautet 1.250 Euro.` pays
   1.25 (gold 6000 against `6.000` is refused, so the reading is one-sided). Suggested: under an anchor of a language that
   groups with `.` (de, es), `d.ddd` is ambiguous and refused against both readings, as `1,220` is read for the comma.

Held (refused in both profiles, passing tests below): multipliers and qualifiers after the number in 16 languages, also
after or inside a box and in `\\text{}` (`千`, `万`, `тысяч`, `천`, `ألف`, `हजार`, `พัน`, `লাখ`, `くらい`, `左右`, `~7`,
`или 7`, `×1000`), with NBSP, NNBSP, ZWSP or WJ between; 50 retractions after the answer in 10 languages, after any
separator; hedges and negations directly before a box; second and retracted boxes; look-alike and struck-through digits
(`६`, `٦`, `6\\u0338`, `\\cancel{6}`, `\\sout{6}`, bidi overrides; `６`, `𝟔` fold to 6 by design); every fx29aw step line
with a hedge above, inside or after it (`；`/`;` rows).

Not counted (by design): a sentence ended by `.`, `।` or `۔` before the answer (`可能\\n所以 x = 6.\\n答案是 x = 6。`,
`लगभग।\\n答案是 6。`: `Maybe. The answer is 6.` pays the same); a capitalised line (`大约\\nDie Antwort lautet 6.`,
`可能\\nОтвет: 6`). Not repeated: fx29ax's `。`-then-sentence lenient hole and the 100k walk cost.

COST (strict xfails, "cost: ..."): right answers in these languages refused in both profiles: Russian units and counted
nouns (`Ответ: 6 штук.`, `6 рублей`, `6 см`), Thai classifiers and units (`คำตอบคือ 6 ชิ้น`, `6 บาท`), Bengali `6টি`,
Japanese `よって、答えは6です。` (with `よって` and no comma it pays), Chinese `答案是：6`, `答案是 6 个苹果。`, `6 平方厘米`,
`6块钱`, a corrected box (`\\boxed{7}\\n不对，应该是 \\boxed{6}`, `исправление:`), a step line whose side opens with a
coefficient (`所以 6x = 36；\\n答案是 x = 6。`), boxed `\\text{6개}`, and no Korean, Arabic or Hindi anchor at
all (`답은 6입니다.`, `الإجابة هي 6`, `उत्तर: 6।`).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import paid_test, refused_test


def _cases(rows: list[Any]) -> list[Any]:
    """Rows as cases with no mark (held near misses, right answers that pay)."""
    return [(r[0], r[1], None) if isinstance(r, tuple) else (r, "6", None) for r in rows]


# 1. A one-character word of any script is a label's math name before a box.
_SINGLE = [
    '约：\\boxed{6}', '约: \\boxed{6}', '約：\\boxed{6}', '약:\\boxed{6}', '千：\\boxed{6}', '万：\\boxed{6}', '非：\\boxed{6}', '不：\\boxed{6}',
    '错：\\boxed{6}', '猜：\\boxed{6}', '估：\\boxed{6}', '或：\\boxed{6}', '千：\\boxed{6}。', '约：$\\boxed{6}$', '约：\\[\\boxed{6}\\]',
    'Step 约: \\boxed{6}', 'Attempt 千: \\boxed{6}', 'Value of 千: \\boxed{6}', 'Answer for 千: \\boxed{6}', '**约**：\\boxed{6}',
    '### 约：\\boxed{6}', '(约)：\\boxed{6}', '约:\n\\boxed{6}', '千:\n\\[\\boxed{6}\\]', 'The total is 7.\n千：\\boxed{6}', 'и：\\boxed{6}',
]
SINGLE_NEAR = _cases(_SINGLE)  # closed by fx29az (`grammar.math_letter`)
test_a_one_character_word_is_no_math_name_label = refused_test(
    SINGLE_NEAR, """Paid in both profiles: `_label_word`/`_label_phrase` admit `len(w) == 1 and w.isalpha()` as a math
    name (`x:`), and a CJK, Hangul or Cyrillic character is alphabetic. The safe verdict: refused.""")

SINGLE_HELD = _cases([
    '不是：\\boxed{6}', '大约：\\boxed{6}', '可能：\\boxed{6}', '（约）：\\boxed{6}', '所以 约：\\boxed{6}', '答案约：\\boxed{6}', 'Answer 约: \\boxed{6}',
    '约 = \\boxed{6}', '约\\boxed{6}', '千元：\\boxed{6}', '≈：\\boxed{6}', 'ไม่：\\boxed{6}', '不是：6', '约，\\boxed{6}', '千，\\boxed{6}',
    'Value of x in 千: \\boxed{6}', '约 x：\\boxed{6}',
])
test_longer_words_and_other_marks_before_a_box_are_refused = refused_test(SINGLE_HELD)

# 2. Lenient: a label line opens a sentence whatever the line above it is.
_LABEL = [
    '可能\n答案：6', '可能\n答案: 6', '不是\n答案：6', '以千为单位\n答案：6', 'Maybe\n答案：6', 'I doubt that\n答案：6', 'In thousands\n答案：6', '可能\n答案：6。',
    '可能\n答案：$6$', '不是\n答案: $6$', '可能\n\n答案：6', '我不确定\n答案：6', '以千为单位，\n答案：6', 'Maybe\ntotal: 6', 'Not\nA: 6', '可能\nA: 6', 'ربما\n答案：6',
    'возможно\n答案：6', 'शायद\n答案：6', 'たぶん\n答案：6',
]
# closed by fx29ax (lenient reads no value after a refused answer phrase: extract._anchored_before), the rest open
LABEL_NEAR = _cases(_LABEL)  # the label rows that are no answer phrase closed by fx29bc (grammar.line_opens)
test_a_label_line_under_a_hedge_is_read_with_it = refused_test(
    LABEL_NEAR, """Paid lenient (closed by fx29ax, and the label rows that are no answer phrase by fx29bc: a label line opens a sentence only where
    `grammar.line_opens` says any line does): `extract._sentence_open` opens a sentence at any line `_LINE_LABEL_RE` matches
    (`答案:` after `to_ascii_math`, `total:`, `A:`), so the hedge line above is never read, where the caseless walk and the
    capital rule read it on the other paths. The safe verdict: refused.""")

LABEL_HELD = _cases([
    '可能\n答案是 6。', '可能\n答案为 6', '可能\n答案：\\boxed{6}', '可能\n合计：6', '可能\n答え: 6', 'Maybe\nI: 6', 'In thousands\nx: 6', 'Maybe\nanswer: 6',
    '可能\nคำตอบ: 6', '不是 答案：6', '不是答案：6',
])
test_other_lines_under_a_hedge_are_read_with_it = refused_test(LABEL_HELD)

# 3. Lenient: capitalised words of other cased scripts are names; two-letter words of any script are products.
_NAMES = [
    'Возможно\n答案是 6。', 'Примерно\n答案：6', 'Наверное\n答案是 6。', 'Около\n答案是 6。', 'Нет\n答案是 6。', 'Не\n答案是 6。', 'Может\n答案是 6。',
    'Μάλλον\n答案是 6。', 'Ίσως\n答案是 6。', 'Περίπου\n答案：6', 'Хм.\nВозможно 答案是 6。', 'Хм.\nНе 答案是 6。', 'We compute 2 + 4.\nНаверное 答案是 6。',
    'We compute 2 + 4.\nΜάλλον\n答案：6',
]
NAMES_NEAR = _cases(_NAMES)  # closed by fx29ax (no value read again after a refused answer phrase) and fx29az (latin_word)
test_a_capitalised_hedge_of_another_script_is_no_name = refused_test(
    NAMES_NEAR, """Was paid lenient (closed by fx29ax, and at the class by fx29az: `_is_name` takes Latin words only): after the anchor path refuses the lead, the last sentence is read by `read_sentence`, where
    `_is_name` admits any capitalised word (`NEVER_NAMES` lists Latin hedges only), so `Возможно` ("maybe"), `Примерно`
    ("about"), `Не` ("not"), `Μάλλον` ("probably") are names before the subject `答案是`. The safe verdict: refused.""")

_TWO_LETTERS = [
    'не 答案是 6。', 'ни 答案是 6。', 'ли 答案是 6。', 'μήπως 答案是 6。', 'δε 答案是 6。', 'не 答案是 6', 'не\u2028答案是 6。', 'не\xa0答案是 6。', 'не·答案：6',
]
TWO_LETTERS_NEAR = _cases(_TWO_LETTERS)  # closed by fx29az (`extract._WORD_RE`, `grammar.math_letter`)
test_a_two_letter_word_of_another_script_is_no_product = refused_test(
    TWO_LETTERS_NEAR, """Paid lenient: `bare_expression`'s `_WORD_RE` counts ASCII words only, so the one line is read whole,
    in math mode, where `_word` reads a lower-case two-letter word (`не`, "not"; `ли`; `δε`) as a product of two symbols.
    The safe verdict: refused.""")

NAMES_HELD = _cases([
    'возможно\n答案是 6。', 'Возможно 答案是 6。', 'нет 答案是 6。', 'неверный 答案是 6。', 'not 答案是 6。', 'не 6', 'Возможно, ответ: 6.',
    'Возможно\nответ: 6.', 'не ответ: 6.',
])
test_other_words_of_other_scripts_are_refused = refused_test(NAMES_HELD)

# 4. Whitespace before a Thai letter ends a sentence after a Thai letter or a digit, whatever precedes.
_THAI = [
    'Multiply by 1000 คำตอบคือ 6', 'The answer in units of 1000 คำตอบคือ 6', 'It is not 6 คำตอบคือ 6', 'x ≠ 6 คำตอบคือ 6',
    '单位：1000 คำตอบคือ 6', 'Maybe 2 + 4 = 6 คำตอบคือ 6', 'I doubt that ดังนั้น คำตอบคือ 6',
    'The answer in thousands is ดังนั้น คำตอบคือ 6', '可能ดังนั้น คำตอบคือ 6', 'ربما ، ดังนั้น คำตอบคือ 6',
    'Maybe\u180eดังนั้น คำตอบคือ 6', 'อาจจะ\r\nคำตอบคือ 6', 'อาจจะ\u2028คำตอบคือ 6', 'อาจจะ\u2029คำตอบคือ 6', 'ผิด\x85คำตอบคือ 6',
    'หน่วยพัน\x0bคำตอบคือ 6', 'อาจจะ\xa0คำตอบคือ 6', 'ไม่ใช่\u3000คำตอบคือ 6', 'อาจจะ\tคำตอบคือ 6', 'ถ้า n เป็นคู่ คำตอบคือ 6',
    'ถ้าหน่วยเป็นพัน คำตอบคือ 6', 'หน่วยพัน\r\nคำตอบคือ 6',
]
THAI_NEAR = _cases(_THAI)  # closed by fx29az (`grammar.thai_space_ends`)
test_a_thai_space_does_not_drop_the_lead = refused_test(
    THAI_NEAR, """Paid in both profiles: `(?<=[\\u0e00-\\u0e7f\\d])\\s+(?=[\\u0e00-\\u0e7f])` ends a sentence after any digit
    or Thai letter and for any whitespace (`\\r\\n`, `\\u2028`, NBSP), so a lead in any script (`The answer in units of
    1000`, `I doubt that ดังนั้น`, `ถ้า n เป็นคู่`) and the caseless walk are skipped. The safe verdict: refused.""")

THAI_HELD = _cases([
    'อาจจะ\nคำตอบคือ 6', 'อาจจะ\u200bคำตอบคือ 6', '$10^3$ คำตอบคือ 6', 'อาจจะ\r\n\\boxed{6}', 'อาจจะ สรุป \\boxed{6}',
    'อาจจะ\u2028\\boxed{6}', '以1000为单位 คำตอบคือ 6', '可能\r\nคำตอบคือ 6', 'Maybe\r\nคำตอบคือ 6', 'I doubt that\u2028คำตอบคือ 6',
    'คำตอบคือ 6 ไม่ใช่', 'คำตอบคือ 6 อาจจะ', 'คำตอบคือ 6 พัน', 'คำตอบคือ 6 หรือ 7', 'คำตอบคือ 6 ถ้า n เป็นคู่',
])
test_thai_leads_the_walk_reads_are_refused = refused_test(THAI_HELD)

# 5. Policy question: a thousands point under a German or Spanish anchor is read as a decimal point.
DOTTED_NEAR = _cases([
    ('Die Antwort lautet 12.000 Euro.', '12'), ('Die Antwort lautet 6.000.', '6'), ('La respuesta es 6.000.', '6'),
    ('La respuesta es 12.000 pesos.', '12'), ('Die Antwort lautet 1.250 Euro.', '1.25'),
])  # closed by fx29az (`extract.grouping_ambiguous`)
test_a_thousands_point_under_a_grouping_language_is_refused = refused_test(
    DOTTED_NEAR, """Paid in both profiles by documented policy (a point is a decimal point): `Die Antwort lautet 12.000
    Euro.` is twelve thousand euros in German, paid against gold 12. The safe verdict: refused (ambiguous).""")

DOTTED_HELD = _cases([
    ('Die Antwort lautet 6.000.000.', '6'), ('Die Antwort lautet 6.000.', '6000'), ('La réponse est 6 000.', '6'),
    ('Ответ: 6 000.', '6'), ('Ответ — 6,000.', '6'), ('答案是 6,000。', '6'), ("The answer is 6'000.", '6'), ('The answer is 6٬000.', '6'),
])
test_other_groupings_are_not_read_as_decimals = refused_test(DOTTED_HELD)

# Held: multipliers and qualifiers after the number, after or in a box, in `\text{}` (a sample of ~44,000).
MULT_HELD = _cases([
    '答案是 $6$\u200bили больше。', 'Final answer: 6\\times 10^3.', 'উত্তর হল 6\xa0来.', '答案是 6\xa0тыс..', '答案是 6\xa0만 원。',
    'Ответ: 6\u200b×1000', 'Final answer: 6\xa0程度.', '答えは6\u2060以上', 'উত্তর হল 6\xa0仟.', 'คำตอบคือ 6 लाख。', 'คำตอบคือ 6กว่า',
    'Die Antwort lautet 6\xa0か7。', '$\\boxed{6}$ 十', '$\\boxed{6}$हजार रुपये。', '\\boxed{6}\u202f前後.', '$\\boxed{6}$\u2060万円。',
    '\\boxed{6}\xa0억.', '$\\boxed{6}$\xa0強.', '\\boxed{6}\u2060정도.', '\\boxed{6}\xa0ประมาณ', '\\boxed{6}\u202f·10³。',
    '$\\boxed{6}$\u2060dozen.', '\\boxed{6}\u202f多', '$\\boxed{6}$\u202fहजार रुपये', '$\\boxed{6\u2060\\text{k}}$',
    '\\boxed{6\u202f\\text{Tsd.}}。', '\\boxed{6\u200b\\text{లక్ష}}', '$\\boxed{6\u202f\\text{–7}}$', '\\boxed{6\u200b\\text{千人}}.',
    '\\boxed{6 \\text{또는 7}}。', '\\boxed{6 \\text{ప్రకారం}}。', '\\boxed{6\u2060\\text{拾}}。', '$\\boxed{6\u2060\\text{laki}}$.',
    '\\boxed{6\u200b\\text{ล้านบาท}}.', '\\boxed{6\u202f\\text{억}}', '\\boxed{6\u2060\\text{억}}', '$\\boxed{\\text{6\u200b千個}}$.',
    '\\boxed{\\text{6millones}}.', '\\boxed{\\text{6 백}}', '\\boxed{\\text{6\u2060या 7}}', '\\boxed{\\text{6\u200b上下}}。',
    '$\\boxed{\\text{6ألف دولار}}$。', '\\boxed{\\text{6ล้าน}}。', '$\\boxed{\\text{6\u200b仟}}$。', '\\boxed{\\text{6 mil}}',
    '$\\boxed{\\text{6\u200b백}}$.', '\\boxed{\\text{6\xa0几}}', '$\\boxed{\\text{6\xa0వేలు}}$',
])
test_multipliers_in_other_languages_are_refused = refused_test(MULT_HELD)

# Held: retractions after the answer, second and retracted boxes.
AFTER_HELD = _cases([
    'คำตอบคือ 6.ผิด', 'Ответ: 6.。と思います', '\\boxed{6}۔ หรือไม่', 'উত্তর হল 6।\n$7$', '答えは6です。\nผิด', '答えは6です。.शायद', 'উত্তর হল 6।\r嗎',
    'উত্তর হল 6।۔ или нет', '\\boxed{6}。。\\boxed{7}', '答えは6です。\n\nнаверное', '答えは6です。7', '\\boxed{6}؟ربما',
    '\\boxed{6}\nいいえ、\\boxed{7}', '\\boxed{7}不是 \\boxed{6}', '\\boxed{6}\nไม่ใช่ \\boxed{7}', '\\boxed{7}\u2028而不是 \\boxed{6}',
    '\\boxed{6}\u2028修正：\\boxed{7}', '\\boxed{6} لا، \\boxed{7}', '\\boxed{6}\nWait, \\boxed{7}', '\\boxed{7}\u2028ではなく\\boxed{6}',
    '\\boxed{7}\n이 아니라 \\boxed{6}', '\\boxed{6}\n不对，\\boxed{7}', '\\boxed{6}\nनहीं, \\boxed{7}', '\\boxed{7}\n而不是 \\boxed{6}',
])
test_retractions_and_second_boxes_are_refused = refused_test(AFTER_HELD)

# Held: hedges and negations directly before a box or value.
LEADBOX_HELD = _cases([
    '≥ :\\[\\boxed{6}\\]', 'না \u2028$6$', 'ไม่ใช่ \r$6$', '\\ge \r6', '\\ge \u2028\\boxed{6}。', '也许$6$', '可能是\\boxed{6}。',
    'ربما :$\\boxed{6}$', '并非\n\\boxed{6}。', 'ليس \\boxed{6}。', '≈ \n$6$', '\\approx 、6',
])
test_hedges_before_a_box_are_refused = refused_test(LEADBOX_HELD)

# Held: fx29aw's step lines with a hedge above, inside or after the relation.
STEP_HELD = _cases([
    'Maybe\n所以 x - 1 = 5；\nคำตอบคือ x = 6', 'возможно，所以 a = 6000 ÷ 1000 = 6；\n答案是 a = 6。', 'อาจจะ\nดังนั้น a = 6;\n答案是 a = 6。',
    '以千为单位\n所以 x = 2 + 4 = 6；\n答案是 x = 6。', '不是\n所以 x = 6°；\n答案是 $x = 6$。', 'อาจจะ所以 ∠B × ∠B = 36；\n答案是 ∠B = 6°。',
    'Maybe，所以 k = 6000 ÷ 1000 = 6；\n答案是 k = 6。', 'Maybe\n所以x＝6；\nคำตอบคือ x = 6', 'อาจจะ\n所以 x = 6000 ÷ 1000 = 6；\n答案是 $x=6$。',
    'อาจจะ，所以 x × x = 36；\n最终答案：x = 6。', '以千为单位，所以 a = 6 × 1 = 6；\n答案是 a = 6。', 'Maybe\n所以 x = 6；\n答案是 $x = 6$。',
    '所以Maybe  k = 6;\n答案是 k = 6。', '所以Maybe  x × x = 36；\n答えは x = 6 です。', '所以Maybe  2 + 4 = 6 个；\n答案是 \\(x = 6\\)。',
    '所以可能  k = 6;\n答案是 k = 6。', '所以Maybe  x = 6 × 1 = 6；\n答案是 x = 6。', '所以아마  k = 6000 ÷ 1000 = 6；\n答案是 k = 6。',
    'ดังนั้น不是  x = 6;\n答案是 x=6。', '所以以千为单位  x / x = 1，x = 6；\n所以，答案是 x = 6。', '所以可能  x = 6000 ÷ 1000 = 6；\n答えは x = 6 です。',
    '所以อาจจะ  x = 6;\n最终答案：x = 6。', '所以아마  x = 2 + 4 = 6；\n答案是 $x=6$。', '所以возможно  a = 6°；\n答案是 a = 6。',
])
test_hedged_step_lines_above_a_subject_are_refused = refused_test(STEP_HELD)

# Held: look-alike and struck-through digits.
DIGITS_HELD = _cases([f"{a}{d}{b}" for d in ["६", "٦", "๖", "৬", "⑥", "Ⅵ", "六", "6\u0338", "\\cancel{6}", "\\sout{6}", "\\not 6",
                                             "\u202e96\u202c", "6\u200b0", "2⁶", "6²", "6\u20e3"]
                      for a, b in [("The answer is ", "."), ("\\boxed{", "}")]])
test_look_alike_and_struck_digits_are_refused = refused_test(DIGITS_HELD)

# COST: right answers in these languages refused in both profiles.
COST = [pytest.param(c, "6", None, marks=pytest.mark.xfail(strict=True, reason="cost: a unit, classifier, label form or language "
                                                           "the answer grammar does not admit")) for c in [
    'Ответ: 6 штук.', 'Ответ: 6 рублей.', 'Ответ: 6 см.', 'Ответ: 6 градусов.', 'Ответ: 6 человек.', 'คำตอบคือ 6 ชิ้น',
    'คำตอบคือ 6 บาท', 'คำตอบคือ 6 องศา', 'উত্তর হল 6টি।', 'よって、答えは6です。', '答案是：6', '答案是 6 个苹果。', '答案是 6 平方厘米。', '答案是6块钱。',
    '所以 6x = 36；\n答案是 x = 6。', 'Jibu ni shilingi 6.', 'La respuesta es 6 manzanas.', '\\boxed{\\text{6개}}', '\\boxed{\\text{6 штук}}',
    '답은 6입니다.', 'الإجابة هي 6', 'उत्तर: 6।', '\\boxed{7}\n不对，应该是 \\boxed{6}', '\\boxed{7}\nисправление: \\boxed{6}',
]]
test_right_answers_in_other_languages_pay = paid_test(
    COST, """Refused in both profiles: Russian units and counted nouns, Thai and Bengali classifiers, `よって、`, `答案是：`,
    Chinese counted nouns, a coefficient before a step line's name, and no Korean, Arabic or Hindi anchor. The safe verdict
    for a right answer: paid.""")

# The right answers each class's fix must keep paying.
RIGHT = _cases([
    '答：\\boxed{6}', 'x: \\boxed{6}', 'ดังนั้น คำตอบคือ 6', 'Die Antwort lautet 6.', 'Ответ: 6.', '答えは6個です。', '所以 x = 6；\n答案是 x = 6。',
    '答案：6', '\\boxed{\\text{6 个}}', 'Итак, ответ: 6.', 'คำตอบคือ 6', '所以答案是 6。',
])
test_the_right_answers_near_these_classes_pay = paid_test(RIGHT)
