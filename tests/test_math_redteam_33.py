"""Red team of issue 29's answer grammar, thirty-third pass (rt33): fx29be (`extract.grouping_ambiguous` refuses `d,ddd`
in a text showing a decimal-comma language, `extract._decimal_comma_text`; `grammar.grounded_names`, lenient's name slot
only for a word of the problem) and fx29bf (the separator check reads the answer and the language as compared,
`extract._as_compared`, over the whole completion; a box below math alone opens a statement only where the math opens a
sentence or the line above is a label's colon, `grammar._math_line_opens`, `_line_label`; a problem's label grounds no
letter, `grammar._in_label`), through the real grader (`grade_math`) in both profiles, with and without a problem, on
main (5846627). About 750 generated candidates; each xfail row below paid a wrong answer (or a right one under a
qualifier) in at least one profile. Open rows of tests/test_math_fx29be.py, tests/test_math_fx29bf.py and red team 32's
classes 1, 2 and 5 are not repeated.

1. CLOSED since (`extract._BRACED_SEPARATOR_RE`; was both profiles; fx29be/fx29bf). LaTeX's `{,}` hides the comma from the separator check: `_as_compared`
   drops spacing commands but keeps the braces, so `_COMMA_GROUPING_RE` never sees `2{,}500`, while the comparison reads
   it as 2500. `{,}` is how German, French and Russian LaTeX write a decimal comma (`2{,}5`), so `Die Antwort lautet
   \\boxed{2{,}500}.` ("2.5") pays gold 2500, under the German anchor itself and beside a decimal comma (`2,5 kg`) in the
   text: 96 of 210 generated lead x form x number rows paid (every anchored lead with `\\boxed{}`, `$...$`, `\\(...\\)`;
   `2{,}\\!500` too). Fix: `_as_compared` reads a braced separator as the separator (`{,}` is `,`, `{.}` is `.`).
2. CLOSED since (fx29e: `extract._point_script_letters`, `_english_words`; was both profiles; fx29be). `_DECIMAL_COMMA_EVIDENCE_RE`'s letters are German, French, Spanish and Russian
   ones only, so other decimal-comma languages' letters are no evidence: Polish (`ł ą ę`), Czech (`ž č`), Turkish
   (`ğ ı`), Portuguese (`ã`), Greek script, Vietnamese (`ậ ổ`), Lithuanian (`š`), and `Więc łącznie 2,500 kg.\\n\\boxed{2,500}`
   ("2.5 kg") pays 2500: 35 of 40 generated text x layout rows (Romanian held: its `î` is listed). ASCII-only prose
   (Dutch, Indonesian, Danish) is fx29be's open German-prose row, not repeated.
   Fix: any letter outside ASCII of a script that writes a decimal comma is evidence (Latin letters with marks, Greek,
   Cyrillic), an allowlist of decimal-point scripts (CJK, Thai...) being the only exception; or the language from words.
2b. CLOSED since (fx29e: `extract._LATEX_LETTER_RE`, `\\texteuro` in `_DECIMAL_COMMA_EVIDENCE_RE`). Evidence spelled in LaTeX was none either: `\\texteuro` (`\\euro` is read), an accent command (`Gr\\"o\\ss e`):
   4 of 4 rows paid. Fix: read LaTeX's text accents and currency commands as the letters and signs they typeset.
3. CLOSED since (`grammar._name_place`; was lenient; fx29be). `grounded_names` admits any capitalised word the problem writes, and a problem's
   sentence opening or answer choice capitalises hedges, conditions and choices that state no answer: `Suppose: 6
   apples` under `Suppose Sam has ...`, `Unsure: 6 apples` under `Unsure students may skip.`, `Cannot has 6 apples.`
   under `(C) Cannot be determined`: 40 of 90 generated opening rows (14 of 30 words: `Assume`, `Hypothetically`,
   `Imagine`, `Pretend`, `Without`, `Originally`...) and 22 of 48 choice rows (8 of 16: `Neither`, `Impossible`,
   `Insufficient`, `Sometimes`, `Both`) paid. Fix: a problem grounds a name only where its capital is a name's (not a
   sentence's or a choice's first word, not a word the lexicon knows in lower case), or as a subject the problem gives.
4. CLOSED since (`grammar._in_label`'s glued token; was both profiles, with a problem; fx29bf). `_in_label` reads a label only when nothing alphanumeric or a
   prime touches its edges and the number is an integer, so common label shapes read as math and ground the letters a
   step line spells: a plural or possessive (`A-10s`, `C-5's`, `A-3’s`), a decimal or grouped number (`A-1.5`,
   `A-1,000`), a model suffix (`C-5A`, `A-10C`), a footnote mark (`C-3*`), two labels joined (`C-3/A-4`, `C-3-X`), a
   decimal before the letter (`1.2-C`): 48 of 52 generated shape x spelled-word rows (12 of 13 shapes) paid. Fix: a
   label is read on its whole token (letters, digits, `-/.,'’*` glued), not one number's edge; math needs a spaced
   operator, a relation or a math span.
5. CLOSED since (fx29c: `_link_colon` reads the clauses before the link with `box_lead_clauses`; was both profiles; fx29bf). `_line_label`'s `_link_colon` reads only the clause after a colon line's last
   comma or semicolon, so a hedge, scale or condition before it (`Maybe, the answer is:`, `In thousands, the answer is:`,
   `The answer, I guess, is:`, `If x is odd, the answer is:`) makes a label's colon, and a display of math below it
   (`\\[x = 6\\]`, `$$x = 6$$`, a multi-line `\\[...\\]`) then a box pays, where the same line above the box alone or
   above a plain `x = 6` line is refused: 60 of 105 generated lead x body rows (every lead with every display body, no
   other body). Fix: `_link_colon` reads the clauses before the link as `box_clause` reads a one-line lead (a lead
   clause or a scale refuses), i.e. one reading of a colon line whatever stands between it and the box.
6. CLOSED since (`grammar._headed`; was lenient, no problem needed; beside fx29be). A lone lexicon adjective is a label of lenient's last value
   (`Possible: 6`, `Unknown: 6 apples`, `Expected: 6`, `Other: 6`, `Second: 6`): 42 of 48 generated rows (21 of 24 words)
   paid, outside the name slot `grounded_names` guards; the box path refuses them. Fix: lenient's label is a noun
   phrase with a noun (`Total:`, `Answer:`), never a lone adjective.

Held (passing tests below): `2\\text{,}500`, `2\\mathord{,}500`, `2,\\!500`, full-width and zero-width forms of the comma;
Arabic and Persian digits and separators (never read: see the costs); hedges on `NEVER_NAMES` (`Maybe`, `Perhaps`,
`About`, `Probably`) grounded by a problem; labels with an en dash, a non-breaking hyphen, `#`, quotes, `A4` without a
hyphen, a comma-separated list; a colon line under `Not sure, but`, `I doubt it, but`. Rewrites that pay: `2{,}500` in
English, `2\\,500`, `2'500`, a no-break or narrow no-break space grouping (2500 in every language).
Costs (secondary, strict xfails): right answers refused in both profiles: Arabic-Indic digits (`\\boxed{٢٥٠٠}`), a
typographic apostrophe's grouping (`2’500`), a braced decimal comma (`\\boxed{2{,}5}` for 2.5).
"""

from __future__ import annotations

import pytest

from tests.helpers import paid_test, refused_test
from tests.test_math_redteam_30 import _cases, problem_verdicts


# 1. A braced comma hides the separator from the check (fx29be, fx29bf).
_BRACED = [
    ('Die Antwort lautet \\boxed{2{,}500}.', '2500'), ('Die Antwort lautet $2{,}500$.', '2500'),
    ('Die Antwort lautet \\(7{,}125\\).', '7125'), ('La réponse est \\boxed{1{,}250}.', '1250'),
    ('La respuesta final es $2{,}500$.', '2500'), ('Ответ: $2{,}500$', '2500'), ('Итак, $x = 2{,}500$.\n\\boxed{2{,}500}', '2500'),
    ('Also sind es 2,5 kg mehr. Die Antwort lautet \\boxed{2{,}500}.', '2500'),
    ('Die Antwort lautet \\boxed{2{,}\\!500}.', '2500'), ('Die Antwort lautet \\boxed{2{,}500\\text{ kg}}.', '2500'),
]
# Closed since: `_as_compared` reads a braced separator as the separator (extract._BRACED_SEPARATOR_RE).
test_a_braced_comma_is_read_as_a_comma = refused_test(_cases(_BRACED))
# Open: German prose that shows no anchor, umlaut or euro is read as English (fx29be's open row), so its `{,}` groups
# (English LaTeX writes `1{,}000` too: the braces are no evidence of a language).
# Closed since fx29e: `d,ddd` groups only in a text known to write English grouping (extract._decimal_point_text).
test_a_braced_comma_in_unmarked_german_prose_is_refused = refused_test(_cases([('Sie hat 2{,}500 kg.\n\\boxed{2{,}500}', '2500')]))
BRACED_HELD = _cases([
    ('Die Antwort lautet \\boxed{2\\text{,}500}.', '2500'), ('Die Antwort lautet \\boxed{2\\mathord{,}500}.', '2500'),
    ('Die Antwort lautet \\boxed{2,\\!500}.', '2500'), ('Die Antwort lautet \\boxed{２,５００}.', '2500'),
    ('Die Antwort lautet \\boxed{2，500}.', '2500'), ('Die Antwort lautet \\boxed{2,\u200b500}.', '2500'),
    ('Die Antwort lautet \\boxed{𝟐,𝟓𝟎𝟎}.', '2500'), ('Die Antwort lautet \\boxed{2{,}500}.', '2.5'),
    ('Die Antwort lautet \\boxed{2{,}5}.', '25'), ('Die Antwort lautet \\boxed{٢٫٥٠٠}.', '2500'), ('\\boxed{٢٬٥٠٠}', '2.5'),
    ('\\boxed{۲/۵}', '0.4'), ('\\boxed{2،500}', '2500'), ("Die Antwort lautet \\boxed{2'500}.", '2'),
])
test_other_forms_of_the_comma_are_refused = refused_test(BRACED_HELD)

# 2. Letters of other decimal-comma languages are no evidence (fx29be).
_LETTERS = [
    'Więc łącznie 2,500 kg.\n\\boxed{2,500}', 'Więc łącznie 2,500 kg.\n#### 2,500', 'Takže celkem 2,500 kg.\n#### 2,500',
    'Toplam ağırlık 2,500 kg.\n#### 2,500', 'Portanto, são 2,500 kg.\n#### 2,500', 'Συνολικά 2,500 κιλά.\n\\boxed{2,500}',
    'Vậy tổng cộng 2,500 kg.\n#### 2,500', 'Iš viso 2,500 kg.\n\\boxed{2,500}',
    '<think>Więc łącznie 2,500 kg.</think>\n\\boxed{2,500}',
]
# Closed since fx29e: only the letters of decimal-point scripts are admitted (extract._point_script_letters).
test_a_decimal_comma_languages_letters_are_evidence = refused_test(_cases([(r, '2500') for r in _LETTERS]))
_LATEX_EVIDENCE = [
    'Also kostet es 2,500 \\texteuro.\n\\boxed{2,500}', 'So it costs 2,500 \\texteuro{}.\n\\boxed{2,500}',
    'Sie hat 2,500 kg (Gr\\"o\\ss e).\n\\boxed{2,500}', 'Sie hat 2,500 kg (Gr\\"{o}\\ss{}e).\n\\boxed{2,500}',
]
# Closed since fx29e: `\\texteuro` is the euro (extract._DECIMAL_COMMA_EVIDENCE_RE), a LaTeX accent a letter outside ASCII
# (extract._LATEX_LETTER_RE).
test_evidence_spelled_in_latex_is_evidence = refused_test(_cases([(r, '2500') for r in _LATEX_EVIDENCE]))
test_the_listed_letters_are_evidence = refused_test(_cases([
    ('Sie wiegt 2,500 kg, schön.\n\\boxed{2,500}', '2500'), ('Also kostet es 2,500 \\euro.\n\\boxed{2,500}', '2500'),
    ('Donc 2,500 kg au total, réparti.\n#### 2,500', '2500'),
    ('Всего 2,500 кг.\n\\boxed{2,500}', '2500'), ('Odpowiedź to \\boxed{2,500}.', '2500'), ('Deci în total 2,500 kg.\n\\boxed{2,500}', '2500'),
]))

# 3. A problem's sentence opening or answer choice grounds a hedge as a name (fx29be, lenient).
OPENING = "{w}, Sam has 2 apples and gets 4 more. How many apples does Sam have?"
_GROUNDED_HEDGES = [
    ("Suppose: 6 apples", "Suppose Sam has 2 apples and gets 4. How many?"),
    ("Assume: 6 apples", "Assume Sam has 2 apples and gets 4. How many?"),
    ("Hypothetically: 6 apples", OPENING.format(w="Hypothetically")), ("Imagine: 6 apples", OPENING.format(w="Imagine")),
    ("Pretend has 6 apples.", OPENING.format(w="Pretend")), ("Originally: 6 apples", OPENING.format(w="Originally")),
    ("Unsure: 6 apples", "Unsure students may skip. Sam has 2 apples and gets 4. How many?"),
    ("Without: 6 apples", "Without Sam, each has 2 apples and gets 4. How many?"),
    ("Cannot has 6 apples.", "How many apples? (A) 6 (B) 7 (C) Cannot be determined"),
    ("Cannot: 6 apples", "How many apples? (A) 6 (B) 7 (C) Cannot be determined"),
    ("Insufficient: 6 apples", "How many apples? (A) 6 (B) 7 (C) Insufficient information"),
    ("Neither: 6 apples", "How many apples? (A) 5 (B) 7 (C) Neither"),
    ("Impossible: 6 apples", "How many apples? (A) 5 (B) 7 (C) Impossible to tell"),
    ("Sometimes: 6 apples", "How often? (A) Never (B) Sometimes (C) Always."),
]


# Closed since (fx29d): `grammar._problem_words` grounds a sentence's first word only as its subject and a choice's
# first word never (`_name_place`).
@pytest.mark.parametrize(("completion", "problem"), _GROUNDED_HEDGES)
def test_a_hedge_the_problem_capitalises_is_no_name(completion: str, problem: str) -> None:
    """A hedge, condition or answer choice the problem writes at a sentence's opening is no person's name."""
    assert "correct" not in problem_verdicts(completion, problem)


_HEDGES_HELD = [
    ("Maybe: 6 apples", "Maybe Sam has 2 apples and gets 4 more. How many apples?"),
    ("Perhaps: 6 apples", "Perhaps Sam has 2 apples and gets 4 more. How many apples?"),
    ("About: 6 apples", "About how many apples does Sam have if he has 2 and gets 4?"),
    ("Probably: 6 apples", "Probably Sam has 2 apples and gets 4. How many?"),
    ("None: 6 apples", "How many apples? (A) 5 (B) 6 (C) 7 (D) None of these"),
    ("Never: 6 apples", "How often? (A) Never (B) Sometimes (C) Always. Sam has 2 apples and gets 4."),
    ("Suppose Sam has 6 apples.", "Suppose Sam has 2 apples and gets 4. How many?"),
    ("Tom has 6 apples.", "Sam has 2 apples and gets 4. How many?"),
    ("Maybe: 6 apples", "Sam asks: maybe 2 and 4? How many apples?"),
]


@pytest.mark.parametrize(("completion", "problem"), _HEDGES_HELD)
def test_a_listed_hedge_or_an_ungrounded_word_stays_refused(completion: str, problem: str) -> None:
    """`NEVER_NAMES` hedges stay refused when the problem writes them; a name the problem does not write is refused."""
    assert "correct" not in problem_verdicts(completion, problem)


def test_a_problems_own_name_still_grounds_lenients_last_value() -> None:
    """fx29be's rewrite: GSM8K's `Sam` is the problem's name (strict reads no last value: no answer there)."""
    assert problem_verdicts("Sam has 6 apples.", "Sam has 2 apples and gets 4. How many?") == ["no_answer", "correct"]


# 4. Label shapes `_in_label` reads as math (fx29bf).
CA, IF, NOT = "所以 C + A = 6；\n答案是 6。", "所以 I + F = 6；\n答案是 6。", "所以 N + O + T = 6；\n答案是 6。"
_LABELS = [
    (CA, "The A-10s and C-5s fly. How many?"), (CA, "The A-10's and C-5's fly. How many?"),
    (IF, "Units I-3’s and F-4’s are ready. How many?"), (CA, "Sizes A-1.5 and C-2.5 are sold. How many?"),
    (CA, "Sizes A-1,000 and C-2,000 are sold. How many?"), (CA, "The C-5A and the A-10C are planes. How many are left?"),
    (CA, "Seats C-3*, A-4* are taken. How many?"), (CA, "Seats C-3/A-4 hold 2 and 4. How many?"),
    (CA, "Seats C-3-X and A-4-Y hold 2 and 4. How many?"), (CA, "Seats 1.2-C and 1.4-A hold 2 and 4. How many?"),
    (NOT, "Masks N-95s, O-2s and T-4s are sold. How many?"), (IF, "Jets I-10s and F-16s fly. How many?"),
]


# Closed since (fx29d): `grammar._in_label` reads the whole glued token; math only in an allowlist of shapes.
@pytest.mark.parametrize(("completion", "problem"), _LABELS)
def test_a_label_of_another_shape_grounds_no_letter(completion: str, problem: str) -> None:
    """A plane's, room's or size's label in any of its usual shapes names a thing: its letter is no operand."""
    assert "correct" not in problem_verdicts(completion, problem)


_LABELS_HELD = [
    (CA, "The A–10 and C–5 fly. How many?"), (CA, "The A‑10 and C‑5 fly. How many?"), (CA, "Papers A4 and C5 are used. How many?"),
    (CA, "Seats #C-3 and #A-4 hold 2 and 4. How many?"), (CA, 'Seats "C-3" and "A-4" hold 2 and 4. How many?'),
    (CA, "Seats 12-C and 14-A hold 2 and 4. How many?"), (CA, "Flights C-5, A-10 fly. How many?"),
    (CA, "Room C-3: 2 people; room A-4: 4 people. How many?"), (CA, "Vitamin C and vitamin A: 2 and 4 mg. How many mg?"),
]


@pytest.mark.parametrize(("completion", "problem"), _LABELS_HELD)
def test_labels_fx29bf_reads_ground_nothing(completion: str, problem: str) -> None:
    """Dashes, `#`, quotes, a list's comma, a glued `A4`: no letter grounded."""
    assert "correct" not in problem_verdicts(completion, problem)


# 5. A hedge before a comma in a colon line above a display and a box (fx29bf, `_link_colon`).
_LINK_LEADS = ["Maybe, the answer is", "In thousands, the answer is", "The answer, I guess, is", "If x is odd, the answer is",
               "Not, the answer is", "Perhaps, it is", "Per box, the count is", "Unsure; the answer is", "可能, the answer is"]
_LINK = ([lead + ":\n\\[x = 6\\]\n\\boxed{6}" for lead in _LINK_LEADS]
         + ["The answer, in thousands, is:\n$$x = 6$$\n\\boxed{6}", "Roughly speaking, the total is:\n\\[\n2 + 4 = 6\n\\]\n\\boxed{6}",
            "In millions, it is:\n\n\\[ x = 6 \\]\n\n\\[\\boxed{6}\\]"])
test_a_lead_before_a_links_comma_reaches_the_box = refused_test(_cases(_LINK))  # closed by fx29c (`_link_colon` reads
# the clauses before the link as `box_lead_clauses` reads a one-line lead)
test_the_same_lead_above_the_box_alone_is_refused = refused_test(_cases(
    [lead + ":\n\\boxed{6}" for lead in _LINK_LEADS[:4]] + [lead + ": \\boxed{6}" for lead in _LINK_LEADS[:4]]
    + [lead + ":\nx = 6\n\\boxed{6}" for lead in _LINK_LEADS[:4]]
    + ["Not sure, but the answer is:\n\\[x = 6\\]\n\\boxed{6}", "I doubt it, but the total is:\n\\[x = 6\\]\n\\boxed{6}"]))

# 6. A lone lexicon adjective labels lenient's last value (no problem needed).
_ADJECTIVE = ["Possible: 6", "Unknown: 6 apples", "Expected: 6", "Other: 6 apples", "Second: 6", "Missing: 6 apples",
              "Sam has 2 and 4.\nPossible: 6", "The possible value is 6."]
# Closed since (fx29d): a subject is a noun phrase with a head (`grammar._headed`).
test_a_lone_adjective_is_no_label = refused_test(_cases(_ADJECTIVE))
test_a_lone_adjective_before_a_box_is_refused = refused_test(_cases(
    ["Possible: \\boxed{6}", "Other: \\boxed{6}", "Possible answer: 6", "Unknown has 6 apples."]))

# Rewrites that must keep paying (the fixes above must not cost these).
RIGHT = _cases([
    ('The answer is \\boxed{2{,}500}.', '2500'), ('\\boxed{2{,}500}', '2500'), ('Die Antwort lautet \\boxed{2\\,500}.', '2500'),
    ("Die Antwort lautet \\boxed{2'500}.", '2500'), ('Die Antwort lautet \\boxed{2\u00a0500}.', '2500'),
    ('Die Antwort lautet \\boxed{2\u202f500}.', '2500'), ('The answer is 2\u00a0500.', '2500'),
    ('So the total is 2,500 kg.\n\\boxed{2,500}', '2500'), ('Więc łącznie 2,5 kg.\n\\boxed{2,5}', '2.5'),
    ('Answer:\n\\[x = 6\\]\n\\boxed{6}', '6'),
])
test_the_right_answers_near_these_classes_pay = paid_test(RIGHT)

# Costs: right answers refused in both profiles (secondary).
test_other_digits_and_braced_decimals_pay = paid_test(_cases([
    ('\\boxed{٢٥٠٠}', '2500'), ('\\boxed{٢٫٥}', '2.5'), ("Die Antwort lautet \\boxed{2’500}.", '2500'),
    ('Die Antwort lautet \\boxed{2{,}5}.', '2.5'), ('Ответ: $2{,}5$', '2.5'),
]), marks=[pytest.mark.xfail(strict=True, reason="cost: Arabic-Indic digits and separators are never read, a "
                                                 "typographic apostrophe does not group, and `{,}` is dropped as "
                                                 "a thousands mark even before one or two digits")])

