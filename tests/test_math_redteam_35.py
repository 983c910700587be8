"""Red team of issue 29's answer reading, thirty-fifth pass (rt35): fx29e (a separator's two readings only in a text
known to write one convention: `extract._decimal_point_text`, `_point_script_letters`, `_english_words`,
`ENGLISH_FUNCTION_WORDS`, `_DECIMAL_OPERAND_RE`), fx29d (`grammar._problem_words`, `_name_place`, `_opening_subject`,
`_in_label`, `_headed`, `STEP_WORDS`, `_step_lead`) and the main changes after them (`extract._stands_alone`,
`_LINK_FOLD_RE`, `_states_another`, `_arithmetic`; `grammar._link_chain`), through the real grader (`grade_math`) in
both profiles, on main (3796648). About 2,100 generated candidates; each was also run against the parents (fx29e's
a788dc8, fx29d's aa3e115, 3796648's da043de: their `verifier/` trees). Each xfail row below paid a wrong answer in at
least one profile (a cost's xfail row: a right answer refused). Known open rows not repeated as classes:
`Hypothetically, Sam and Tom have` (class 7 counts its variants), red team 34's `X = 7`.

FINDINGS
1. NOT CLOSED (both profiles; fx29e). A decimal-comma language's own words are on `ENGLISH_FUNCTION_WORDS`' proof list,
   so a monolingual sentence in it reads as English and its `2,500` (2.5) pays 2500, its `12.000` (12000) pays 12:
   Portuguese `as`/`do` (`Somando as duas partes do total, temos 2,500 kg.`), Italian `all'` (`Quindi all'inizio ci
   sono 2,500 kg.`), Dutch `Let op` (`Let op: het totaal is 2,500 kg.`), French `or`/`but`/`as`/`on` (`Or on a donc
   2,500 kg au total.`, `Tu as donc ...`), Spanish `has`/`once`/`divide`: 66 of 66 rows (11 sentences x `\\boxed{}`,
   `####`, an English anchor x both separators); the same sentences without the word: 0 of 6. (56 of 84 of the wider
   set paid on fx29e's parent too.) Fix: proof of English is a run of English syntax (a determiner before a noun, a
   subject and an auxiliary, `ENGLISH_FUNCTION_WORDS` in sequence), never one word another language spells the same;
   or evidence of a language read from its own function words (`temos`, `sono`, `het`, `donc`) refuses.
2. NOT CLOSED (both profiles; fx29e). `_DECIMAL_OPERAND_RE` reads any `+ * = ×` beside `d.d`/`d.dd` as arithmetic, so
   a section number, a time, a bullet or an emphasis mark in a German text is a decimal point's proof: `**Schritt 1.1**`,
   `* 1.1 Einkauf:`, `+ 1.5` (a list's bullet), `Um 14.30 + 2 Stunden`, `Ab 9.15 = Start`, `Kapitel 3.2 = Teil B`,
   `(Tabelle 2.1 * Zeile 3)`, `(*1.25 Rabatt)`: 32 of 32 rows (8 texts x 2 layouts x both separators). Fix: an operand
   is read only in math (`$...$`, `\\[...\\]`) or between two operands, never beside markup or prose.
3. KNOWN OPEN, counted (both profiles; fx29e's "a mixed text with enough English"): English in a quote (`> Let x be the
   weight ...`), `\\text{(this is the total of all the boxes)}`, an identifier (`total_of_the_boxes = 2,500`), a
   parenthetical note: 20 of 20 rows; a fenced code block's comment and an HTML comment: 0 of 8. The identifier's
   rows CLOSED since fx29h (`extract._english_clause`: words joined by `_` hold no English syntax, 4 of 4 refused).
4. NEW with fx29d (both profiles; 0 on its parent). A step lead's colon (`Calculate \\(k\\):`, `We add them:`,
   `Simplifying the fraction:`, `Let's compute the total:`, `Solving:`) opens the display below it whatever relation it
   states, so the box under `\\[k \\approx 6\\]`, `\\[k \\ge 6\\]`, `\\[k \\neq 6\\]`, `\\[k < 6\\]`, `\\[k \\in \\{6, 7\\}\\]`,
   `\\[k \\sim 6\\]`, `\\[6?\\]`, `\\[6 \\le k \\le 7\\]` pays where the same display and box alone are refused: 14 of 22 such
   displays per lead (70 rows, 5 leads). Old: `Try k:`, `Round k:` (a name's label; `try` and `round` are no step)
   and `We compute:` open them the same way on the parent too. Fix: the lead opens the display only to read it as a
   statement of the value (`=` and the chain's last side), as the box's own line is read.
5. NOT CLOSED but `==` (folded since) (both profiles; 3796648's `_LINK_FOLD_RE`, `_states_another`). The answer's name set to another value in
   an earlier sentence (`... So x = 6.`) is read only through the listed links and value shapes: 56 of 192 forms paid
   (15 more paid by design: a name inside an expression, `x - 1 = 6`, `1x = 7`, `|x| = 7`; `x = 6/1` is right): (a)
   relation signs not folded: `≃ \\simeq \\sim ~ ≅ \\cong \\equiv ≡ == ≒ \\doteq ≐ \\coloneq :\\!= \\gets \\leftarrow ←
   → \\Rightarrow ∈{7}`, `7 == x`: 22 of 33 (`x == 7` NEW with 3796648: refused on its parent); (b) verbs not folded:
   `x was 7`, `becomes`, `will be`, `gets`, `makes`, `totals`, `comes to`: 7 of 18; (c) a value `_states_another` does
   not read: scientific notation (`7e0`, `0.7e1`: a lone `e` is taken for another name), a scale's letter (`7k`, `7M`,
   `7m`), `7i`, `0x7`, `0b111`, Roman and other languages' numerals (`VII`, `Ⅶ`, `⑦`, `七`, `sieben`), and a LaTeX space
   `\\,` that `_CHAIN_END_RE` reads as a comma ending the chain (`x = \\,7`): 17 of about 90; (d) the name in markup
   (`{x}`, `\\mathit{x}`, `\\textit{x}`, `(x)`): 4 of 10; (e) only the chain's last side is read (`x = 7 = 6`, `x = 7
   and y = 6`, `x, y = 7, 6`, `(x, y) = (7, 1)`): 6 of 12. (f) the name after a marker or markup (`a) x = 7`, `(1) x =
   7`, `\\text{so } x = 7`, `=> x = 7`: `_stands_alone`, 415442e): 5 of 26. Fix: read every side of the name's chain
   and every relation the grammar knows (`_RELATION_RE` and more), and the side as the grader parses an answer
   (math-verify's value, not a regex of digits and letters): anything it cannot read as the answer's value refuses.
6. NOT CLOSED (both profiles; `grammar._link_chain`, e8cebc9). A colon line's link is read by its last words only:
   `been` after any `have` and an adverb before the link pass, so modal perfects and negations above a box pay
   (`The answer could have been:`, `would have been:`, `should have been:`, `could not have been:`, `won't have been:`,
   `never turns out to be:`, `hardly turns out to be:`, `never will be:`, `had been:`): 38 of 46 colon rows (23 links x
   2 layouts), where the same links on the box's own line pay 1 of 23 (`had been`). Fix: `_link_chain` reads the whole
   verb group as `box_clause` does (one reading of a link).
7. NOT CLOSED (lenient, with the problem; fx29d's `_opening_subject`, `_name_place`). A sentence's first word followed by
   a lexicon verb is taken for its subject, so a quantifier or adverb grounds itself (`Everyone has 2 apples`, `Nobody
   has 2 apples`, `Some get 2 apples`, `Usually has 2 apples`): 4 of 7 (`Most have`, `Half has`, `Each has` held); an
   unmarked choice list in a sentence (`Answer Yes, No or Cannot tell.`): 1 of 6; the known `Hypothetically, Sam and Tom`
   shape with other openers (`Initially,`, `Originally,`, `Yesterday,`, `Previously,`, `Before,`, `Unfortunately,`,
   `Suppose,`): 7 of 9. Fix: a problem grounds a name only as a name the lexicon does not know in lower case (`nobody`,
   `initially`, `cannot` are words), or as the subject of a list of such names.
8. NOT CLOSED (both profiles; fx29e). `_english_words` skips the English anchor's sentence, cut by
   `_SENTENCE_SPLIT_RE` (`. ! ?` before a space, a line's end), while the grammar also ends a sentence at `。` and `।`:
   German prose joined to the anchor by either is skipped with it (`Sie hat 2,500 kg。The answer is 2,500.`): 9 of 66
   rows (22 cuts x 3 anchors/separators; `！`, `？`, `\\u2029`, `\\r`, `;` and `:` held; 30 of 66 paid on fx29e's parent).
   Fix: one sentence cut for both readers.
9. NOT CLOSED (both profiles; fx29e). Beside any word in lower case, `_english_words` drops every word in capitals
   (meant for geometry's points), so German prose in capitals with one English word is English (`SIE HAT 2,500 KG
   (with).`, `ALSO HAT SIE 2,500 KG, as computed.`): 2 of 8 rows. Fix: drop only capitals a math name reads. `(with)`
   CLOSED since fx29h (one word is no proof of English: `extract._english_clause`); `as computed` still pays (a
   computation's English verb, `ENGLISH_FUNCTION_WORDS`' third group, proves English alone).

10. NOT CLOSED (both profiles; old: paid on 3796648's parent too). `_named_another_value` runs only where the
   answer's sentence names x with `=` (`_SUBJECT_NAME_RE`), so the same answer in words reads no earlier value: `x =
   7.\\nSo x is 6.`, `Therefore x is 6.`, `So the value of x is 6.`, `Hence x equals 6.`, `Thus x must be 6.`, `So $x$
   is 6.`, `Hence, x is equal to 6.`: 40 of 40 rows (8 endings x 5 earlier forms: `x = 7.`, `$x = 7$.`, `\\[x = 7\\]`,
   `x is 7.`, `So x = 7.`); a display or bold `x = 7` above `Hence the value of x is 6.`: 13 of 15 layouts. Fix: the
   answer sentence's name read through the same links (`_LINK_FOLD_RE`) and `the value of x`.
HELD (passing tests below): monolingual decimal-comma prose without a false friend; `Version = 2.0.` (the point after
it), `Faktor x 1.5`; English in a fenced code block or an HTML comment under German prose; 164 of 212 step leads with
a scale, hedge, bound, candidate or condition (`Calculate the thousands:`, `Compute an estimate:`, `Find the wrong
answer:`, `Calculate the total if n is even:`, `Compute the total, maybe:`; the 48 paid are neutral quantities: `Find
the slope:`, `Compute a share:`) and a display's words (`\\text{ thousand}`, `(\\text{maybe})`, `(guess)`); 121 of 192
`_states_another` forms (`x = 6 + 1`, `x = (7)`, `x ≈ 7`, `x = 7.0`, `x = 7\\%`, `x = 49**0.5`, `x = 1/0`, 37-digit
arithmetic, full-width and math-italic forms, `let x = 7`, `x := 7`, `7 = x`, `x is 7, not 6`); 44 of 60 colon links
(`will not be`, `might turn out to be`, `would turn out to be`, `will be roughly`, `is supposed to be`, `used to be`;
of the 16 paid, 10 are right: `will be`, `has been`, `must have been`); hedges a problem writes mid-sentence (`Give an
Estimate`, `Answer Roughly`, `Play Guess Who`, `Answer Yes, No or Maybe`); math in a step lead (`Calculate
\\(6000\\):`, `Calculate $k$ in thousands:`, `Calculate \\(k \\approx 6\\):`: 58 of 62; `\\(k_{\\min}\\)` pays, as `Find the
minimum:` does); an earlier `x = 7` before
the answer's `x = 6` in any relation form (`So x := 6.`, `So 6 = x.`, `Thus \\(x = 6\\).`): 7 of 7.

COSTS (strict xfails, "cost: ..."; right answers refused in both profiles; (b) and (d) closed since but the rows
in _SAME_VALUE_OPEN and the trials with no verb: `_states_another` reads the grammar's number, a spelled value and
LaTeX's arithmetic, and a side with a verb is a clause): (a) new with fx29e: terse English
GSM8K-style steps (labels, units, no function word) with a thousands comma are of no known language: `Total cost: 3 x
500 = 1,500 dollars.`, `Monthly rent = 1,500`, `Area = 30 m x 50 m = 1,500 square meters.`: 10 of 17 English rewrites
(all 17 paid on fx29e's parent). (b) new with 3796648: `_states_another` refuses the answer's own value written another
way (`x = \\frac{12}{2}`, `x = 2 \\cdot 3`, `x = 3!`, `x = \\sqrt{36}`, `x = 6 cm`, `x = six`, `x = 18 ÷ 3`): 25 of 45
rewrites paid on its parent are refused now (9 it refused now pay: `x = 6.0`, `x = 12/2`). (c) old (fx29d's parent
too): step leads `STEP_WORDS` does not list (`Now we solve for k:`, `Combining like terms:`, `Plugging in:`,
`Subtracting 4 from both sides:`): 6 of 21 leads (`Dividing both sides by 2:` holds a number by design, `Solving for
\\(x\\), we get:` is red team 34's cost d). (d) new with 3796648: a trial, case or condition that sets x (`Trying x = 5
gives 10.`, `Plugging in x = 2 gives 4.`, `The case x = 0 gives nothing.`, `Let x = 2 for the first case.`) is read as
the name set to another value before `So x = 6.`: 13 of 18 trial sentences refused, 7 of them paid on 3796648's parent.
(e) 415442e's `_stands_alone`: a product sign or a LaTeX space before x (`3 \\cdot x = 18.`, `2 \\, x = 12.`) ends the
left side, so `So x = 6.` after it is refused: 4 of 19 linear forms (`2 x = 12`, `0.5x = 3`, `\\frac{x}{2} = 3` pay).
The peer outputs as written (tests/data/peer_outputs/*.jsonl, 850 graded rows): no verdict changes from 3796648's
parent; 2 from fx29d's and fx29e's parents, both `no_answer` to `correct` (omni_math_judge lines 9 and 95: the first is
disagreements.jsonl's `\\dfrac{499752}{499753}`, label believed wrong; the second labelled right).
"""

from __future__ import annotations

import pytest

from tests.helpers import paid_test, refused_test
from tests.test_math_redteam_30 import _cases, _rows, problem_verdicts

_LAYOUTS = ("{t}\n\\boxed{{{n}}}", "{t}\n#### {n}", "{t}\nThe answer is {n}.")


def _both_readings(texts: list[str], layouts: tuple[str, ...] = _LAYOUTS) -> list[tuple[str, str]]:
    """Each text (`{n}` its number) in each layout, once with `2,500` (gold 2500) and once with `12.000` (gold 12): the
    English readings a text of a decimal-comma language does not mean."""
    rows = []
    for text in texts:
        for layout in layouts:
            for number, gold in (("2,500", "2500"), ("12.000", "12")):
                rows.append((layout.format(t=text.replace("{n}", number), n=number), gold))
    return rows


# 1. A decimal-comma language's own word on the English proof list.
_FALSE_FRIENDS = [
    "Somando as duas partes do total, temos {n} kg.", "Quindi all'inizio ci sono {n} kg.",
    "Let op: het totaal is {n} kg.", "Or on a donc {n} kg au total.", "Tu as donc {n} kg de farine.",
    "Si has comprado once cajas, tienes {n} kg.",
]
# Closed since (fx29f: a word another language writes is no proof, extract.ENGLISH_FUNCTION_WORDS' second group;
# `he` proves English only before an English verb form, extract._ENGLISH_CLAUSE_RE).
test_a_languages_own_word_is_no_proof_of_english = refused_test(_cases(_both_readings(_FALSE_FRIENDS, _LAYOUTS[:2])))
test_other_false_friends_are_no_proof_of_english = refused_test(_cases(_both_readings([
    "He comprado once cajas, tengo {n} kg.", "Le but est {n} kg.", "Valorile calculate are {n} kg.",
    "Ik heb most {n} kg.", "Je kan just {n} kg.", "Se divide el total: {n} kg.", "Tutte le more: {n} kg.",
    "He visto {n} kg.", "Must on {n} kg.", "Ma quando some {n} kg.", "Aquest any hi ha {n} kg.", "Add meg: {n} kg.",
], _LAYOUTS[:2])))
test_english_syntax_proves_english = paid_test(_cases([
    ("He bought 1,250 bricks.\n#### 1,250", "1250"), ("He has 2,500 kg.\n\\boxed{2,500}", "2500"),
    ("She has 2,500 kg.\n#### 2,500", "2500"), ("He spent 2,500 dollars.\n#### 2,500", "2500"),
    ("The box holds 12.000 kg.\n\\boxed{12.000}", "12"), ("He will pay 2,500 dollars.\n#### 2,500", "2500"),
]))
test_the_same_prose_without_the_word_is_refused = refused_test(_cases([
    ("Somando duas partes, temos 2,500 kg.\n\\boxed{2,500}", "2500"), ("Quindi ci sono 12.000 kg.\n#### 12.000", "12"),
    ("Het totaal is 2,500 kg.\n#### 2,500", "2500"), ("On a donc 12.000 kg au total.\n\\boxed{12.000}", "12"),
    ("Sie hat 2,500 kg.\n\\boxed{2,500}", "2500"), ("Sie hat 12.000 kg.\n\\boxed{12.000}", "12"),
]))

# 2. An operator character beside a section number, time, bullet or emphasis proves a decimal point.
_SMUGGLED = [
    "**Schritt 1.1** Sie hat {n} kg.", "* 1.1 Einkauf: Sie hat {n} kg.", "+ 1.5 Sie hat {n} kg.",
    "Um 14.30 + 2 Stunden hat sie {n} kg.", "Ab 9.15 = Start hat sie {n} kg.", "Sie hat {n} kg; Kapitel 3.2 = Teil B.",
    "Sie hat {n} kg (Tabelle 2.1 * Zeile 3).", "Sie hat {n} kg (*1.25 Rabatt).",
]
# Closed since (fx29f: only a true equation of numbers alone proves a decimal point, extract._decimal_equation).
test_a_section_number_or_time_proves_no_decimal_point = refused_test(_cases(_both_readings(_SMUGGLED, _LAYOUTS[:1])))
test_an_equation_that_is_false_or_part_of_more_proves_nothing = refused_test(_cases(_both_readings([
    "Sie rechnet 2.5 + 3.5 = 7 und hat {n} kg.", "Sie rechnet x + 2.5 + 3.5 = 6 und hat {n} kg.",
    "Sie rechnet 2.5 + 3.5 = 6 - 1 und hat {n} kg.", "Sie hat {n} kg, 1.1 * 2 = 2,2.", "Sie hat {n} kg, 1.5 = 1.5.",
    "Sie hat {n} kg, Abschnitt 2.1 + 3 = Kapitel 5.", "Um 14.30 + 2 = 16.30 Uhr hat sie {n} kg.",
    "Ab 9.15 + 0.45 = 10.00 Uhr hat sie {n} kg.", "Sie hat {n} kg, 2.5 * 2 = 5x.", "Sie hat {n} kg, y = 1.5 * a.",
], _LAYOUTS[:1])))
# Since red team 36 class 2 (fx29g): only numbers that read in both conventions prove one (`2.5 + 3.5 = 6` proves
# neither: tests/test_math_redteam_36.py's date equations).
test_a_true_equation_of_decimals_proves_a_decimal_point = paid_test(_cases([
    ("Kwa hiyo 2.500 + 3.500 = 6. Jumla 2,500.\n\\boxed{2,500}", "2500"),
    ("Jumla 2.500 \\times 4 = 10, 12.000.\n\\boxed{12.000}", "12"),
    ("Jumla = 3 * 500 = 1,500\n#### 1,500", "1500"), ("Jumla $1.250 \\cdot 4 = 5$.\n#### 2,500", "2500"),
]))

# 3. Known open, counted: English beside the prose (a quote, \text{}, an identifier, a note).
_MIXED = [
    "Sie hat {n} kg.\n> Let x be the weight of all the boxes in the shop.",
    "Sie hat {n} kg $\\text{(this is the total of all the boxes)}$.", "Sie hat {n} kg. total_of_the_boxes = {n}",
    "Sie hat {n} kg (Note: the weight is given in kg).",
]
test_english_beside_german_prose_is_no_english_text = refused_test(_rows(_both_readings(
    _MIXED[:2] + _MIXED[3:], _LAYOUTS[:1]), (
    "rt35 class 3 (fx29e's known open: a mixed text with enough English reads as English): a quote, \\text{}, an "
    "identifier's words; fix: the language of the sentence that holds the number, not of the whole text")))
# Closed since fx29h (an identifier's words joined by `_` hold no English syntax: extract._english_clause).
test_an_identifiers_english_beside_german_prose_is_no_english_text = refused_test(_cases(_both_readings(
    _MIXED[2:3], _LAYOUTS[:1])))
test_version_or_factor_code_or_comment_stay_refused = refused_test(_cases(_both_readings([
    "Version = 2.0. Sie hat {n} kg.", "Sie hat {n} kg, Faktor x 1.5.",
    "Sie hat {n} kg.\n```python\n# add the weights of the boxes and print the total\nprint(total)\n```",
    "Sie hat {n} kg.\n<!-- the total of all the boxes is here -->",
], _LAYOUTS[:1])))

# 4. A step lead opens a display of any relation (new with fx29d).
_RELATIONS = ["\\[k \\approx 6\\]", "\\[k \\ge 6\\]", "\\[k \\neq 6\\]", "\\[k < 6\\]", "\\[k \\in \\{6, 7\\}\\]",
              "\\[k \\sim 6\\]", "\\[6?\\]", "\\[6 \\le k \\le 7\\]", "\\[k \\approx 6000\\]", "\\[k \\to 6\\]"]
_STEP_LEADS = ["Calculate \\(k\\):", "We add them:", "Simplifying the fraction:", "Let's compute the total:", "Solving:"]
# Closed since (fx29f; since red team 36, fx29g: a display of another relation opens only under the answer's label, grammar._answer_label).
test_a_step_leads_colon_opens_no_relation = refused_test(_cases(
    [f"{lead}\n{d}\n\\boxed{{6}}" for lead in _STEP_LEADS for d in _RELATIONS[:4]]
    + [f"{_STEP_LEADS[0]}\n{d}\n\\boxed{{6}}" for d in _RELATIONS[4:]]
    + [f"{lead}\n\\[k \\approx 6\\]\n\\boxed{{6}}" for lead in ("Try k:", "Round k:", "We compute:")]))
test_a_step_lead_or_names_label_opens_no_other_relation = refused_test(_cases(
    [f"{lead}\n{d}\n\\boxed{{6}}" for lead in ("Find $k$:", "Compute the total:", "Adding these:", "Round $k$:",
                                                  "Estimate k:", "Let's simplify:")
     for d in ("\\[k > 5\\]", "\\[k \\leq 6\\]", "\\[k \\approx 6.2\\]", "\\[k \\ne 5\\]")]))
test_a_step_lead_opens_an_equation = paid_test(_cases(
    [f"{lead}\n{d}\n\\boxed{{6}}" for lead in ("Calculate \\(k\\):", "We add them:", "Solving:", "Try k:")
     for d in ("\\[k = 6\\]", "\\[k = 2 \\cdot 3 = 6\\]", "\\[2 + 4 = 6\\]")]
    + [f"Answer:\n{d}\n\\boxed{{6}}" for d in ("\\[k = 6\\]", "\\[k \\approx 6\\]")]))
test_the_same_display_and_box_alone_are_refused = refused_test(_cases([f"{d}\n\\boxed{{6}}" for d in _RELATIONS]))
_HELD_LEADS = [
    "Calculate the thousands", "Calculate the total in thousands", "Compute the estimate", "Compute a guess",
    "Find the approximation", "Find the lower bound", "Find the wrong answer", "Compute the first candidate",
    "Compute the total dozens", "Calculate the millions", "Compute the rounded total", "Compute the total, maybe",
    "We add them, roughly", "Calculate the total if n is even", "Find the cost per box", "Solve the wrong equation",
    "Calculate the total, not", "Never compute them", "Compute twice the total", "Estimating roughly", "Guess k",
    "Check",
]
test_a_step_lead_with_a_scale_hedge_or_condition_is_refused = refused_test(_cases(
    [f"{lead}:\n\\[x = 6\\]\n\\boxed{{6}}" for lead in _HELD_LEADS]
    + [f"Calculate \\(k\\):\n{d}\n\\boxed{{6}}" for d in (
        "\\[k = 6 \\text{ (roughly)}\\]", "\\[k = 6 \\text{ thousand}\\]", "\\[k = 6 \\quad (\\text{maybe})\\]",
        "\\[k = 6 \\, \\text{(guess)}\\]", "\\[\\text{maybe } 6\\]")]))

# 5. The answer's name set to another value through a link, value or name `_states_another` does not read.
_LINKS = ["x ≃ 7.", "x \\simeq 7.", "x \\sim 7.", "x ~ 7.", "x ≅ 7.", "x \\equiv 7.", "x ≡ 7.", "x == 7.", "x ≐ 7.",
          "x \\coloneq 7.", "x :\\!= 7.", "x \\gets 7.", "x ← 7.", "x → 7.", "x \\Rightarrow 7.", "x ∈ {7}.", "7 == x."]
_FOLDED = ["x == 7.", "7 == x."]  # closed since: `==` folds to `=` (extract._LINK_FOLD_RE)
test_a_double_equals_of_the_name_is_read = refused_test(_cases([p + " So x = 6." for p in _FOLDED]))
test_another_link_of_the_name_is_read = refused_test(_rows([p + " So x = 6." for p in _LINKS if p not in _FOLDED], (
    "rt35 class 5a (3796648): _LINK_FOLD_RE folds only is/equals/:=/≈, so ≃ ~ ≅ ≡ == ← → ∈ set x unread "
    "(`x == 7` new with 3796648); fix: every relation the grammar knows links the name's chain")))
test_another_verb_of_the_name_is_read = refused_test(_rows([p + " So x = 6." for p in [
    "x was 7.", "x becomes 7.", "x will be 7.", "x gets 7.", "x makes 7.", "x totals 7.", "x comes to 7."]], (
    "rt35 class 5b (3796648): only `is`, `equals`, `is equal to` fold; fix: the grammar's links (LEXICON's verbs of "
    "being and result) set the name as `is` does")))
test_another_values_form_is_read = refused_test(_rows([p + " So x = 6." for p in [
    "x = 7e0.", "x = 0.7e1.", "x = 7k.", "x = 7M.", "x = 7m.", "x = 7i.", "x = 0x7.", "x = VII.", "x = Ⅶ.", "x = ⑦.",
    "x = 七.", "x = sieben.", "x = \\,7.", "x = \\;7."]], (
    "rt35 class 5c (3796648): _states_another reads a lone letter as another name (7e0, 7k, 7i), no numeral but "
    "digits and English words, and `\\,`/`\\;` end the chain as a comma does; fix: the side read as math-verify reads "
    "an answer; what it cannot read as the answer's value refuses")))
test_the_name_in_markup_is_the_name = refused_test(_rows([p + " So x = 6." for p in [
    "{x} = 7.", "\\mathit{x} = 7.", "\\textit{x} = 7.", "(x) = 7."]], (
    "rt35 class 5d (3796648): the name is found only bare (`x =`), not in braces, a font command or brackets; fix: "
    "read the name as the grammar reads a math name (markup dropped)")))
test_every_side_of_the_names_chain_is_read = refused_test(_rows([p + " So x = 6." for p in [
    "x = 7 = 6.", "x = 7 = y.", "x = 7 and y = 6.", "x, y = 7, 6.", "(x, y) = (7, 1)."]], (
    "rt35 class 5e (3796648): only the chain's last side, cut at `,`/`;`, is read; fix: every side, and a tuple's "
    "parts by position")))
test_the_name_after_a_marker_or_markup_stands_alone = refused_test(_rows([p + " So x = 6." for p in [
    "\\text{so } x = 7.", "\\mathrm{so}\\ x = 7.", "a) x = 7.", "(1) x = 7.", "=> x = 7."]], (
    "rt35 class 5f (415442e's _stands_alone): a name after `}`, `)` or `>` is taken for an expression's part, so a "
    "list or equation marker, `\\text{so}` or an arrow hides `x = 7`; fix: the left side read as math (a marker, "
    "prose in \\text{} and an arrow end it)")))
test_the_names_other_values_stay_refused = refused_test(_cases([p + " So x = 6." for p in [
    "x = 6 + 1.", "x = 7/1.", "x = (7).", "x = [7].", "x ≈ 7.", "x \\approx 7.", "x = 7 \\cdot 1.", "x = 14 ÷ 2.",
    "x = 49**0.5.", "x = \\frac{14}{2}.", "x = 7.0.", "x = 7\\%.", "x = 3!.", "x = \\sqrt{49}.", "x = --7.", "x = 6.0001.",
    "x = 6 + 10^{-9}.", "x = 9999999999999999999999999999999999999 - 9999999999999999999999999999999999992.",
    "x = 1/0.", "x = 0/0.", "x = 2*3+1.", "x\u00a0=\u00a07.", "x = ７.", "ｘ = 7.", "𝑥 = 7.", "\\(x\\) = 7.", "x = \\text{7}.",
    "x = \\boxed{7}.", "x = seven.", "x = 7 apples.", "x = 2 + 5 = 7.", "x = y = 7.", "x is 7.", "x is about 7.",
    "x equals 7.", "7 = x.", "6 + 1 = x.", "7 ≈ x.", "x := 7.", "x \\coloneqq 7.", "Let x = 7.", "Let x be 7.",
    "x is 7, not 6.", "x = 7, I think.", "x \\to 7.", "x must be 7.", "+x = 7.", "(x = 7).", "[x = 7].", "\\quad x = 7.",
    "1. x = 7.", "Step 2: x = 7.", "⇒ x = 7.", "\\therefore x = 7.", "i.e. x = 7.", "&x = 7."]]))

# 6. A colon line's link read by its last words: a modal perfect or a negation above a box.
_PERFECTS = ["could have been", "would have been", "should have been", "might have been", "could not have been",
             "won't have been", "never turns out to be", "hardly turns out to be", "never will be", "never has been"]
# Closed since (fx29f: a colon line's `be`/`been` ends a verb group of grammar._LINK_GROUP_RE's allowlist, its subject
# read as with `is`, grammar._link_chain).
test_a_colon_lines_whole_verb_group_is_read = refused_test(_cases(
    [f"The answer {link}:\n\\boxed{{6}}" for link in _PERFECTS]
    + [f"The total {link}:\n\\[x = 6\\]\n\\boxed{{6}}" for link in _PERFECTS[::3]]))
test_other_modal_or_negated_groups_on_a_colon_line_are_refused = refused_test(_cases(
    [f"The answer {link}:\n\\boxed{{6}}" for link in [
        "may have been", "can have been", "would then be", "must not be", "has not been", "has never been",
        "maybe will be", "probably will be", "may be", "could be", "ought to be", "shall not be", "wouldn't be",
        "had to have been", "seems to have been", "will have to be perhaps", "turns out to maybe be"]]
    + [f"The total {link}:\n\\[x = 6\\]\n\\boxed{{6}}" for link in ["might have been", "would be", "never will be"]]))
test_a_colon_lines_allowed_groups_pay = paid_test(_cases(
    [f"{subject} {link}:\n\\boxed{{6}}" for subject in ("The answer", "So the total", "Therefore, the value of \\(k\\)")
     for link in ("will be", "has been", "must have been", "will then be", "turned out to be", "had to be", "is")]
    + [f"It {link}:\n\\boxed{{6}}" for link in ("will be", "is")]
    + [f"We have been told the answer. The total {link}:\n\\[x = 6\\]\n\\boxed{{6}}" for link in (
        "will be", "has been", "will have been")]))
test_the_same_links_on_the_boxs_line_are_refused = refused_test(_cases(
    [f"The answer {link} \\boxed{{6}}." for link in _PERFECTS]))
test_the_links_fx_refuses_stay_refused = refused_test(_cases([f"The answer {link}:\n\\boxed{{6}}" for link in [
    "will not be", "will never be", "might turn out to be", "would turn out to be", "will be roughly", "turns out not to be",
    "is supposed to be", "used to be", "will be in thousands", "will, if n is even, be", "is not going to be"]]))
test_the_links_of_the_links_shape_pay = paid_test(_cases([f"The answer {link}:\n\\boxed{{6}}" for link in [
    "will be", "turns out to be", "has to be", "will then be", "must have been", "has been"]]))

# 7. A problem's quantifier, adverb or unmarked choice grounds itself as a name (lenient).
_GROUNDED = [
    ("Everyone: 6 apples", "Sam and Tom pick apples. Everyone has 2 apples and gets 4 more. How many apples does Sam have?"),
    ("Nobody has 6 apples.", "Nobody has 2 apples. Sam has 2 and gets 4 more. How many?"),
    ("Some: 6 apples", "Some get 2 apples. Sam has 2 apples and gets 4 more. How many apples does Sam have?"),
    ("Usually has 6 apples.", "Usually has 2 apples, Sam gets 4 more. How many?"),
    ("Cannot: 6 apples", "Sam has 2 apples and gets 4 more. Answer Yes, No or Cannot tell. How many?"),
    ("Initially: 6 apples", "Initially, Sam and Tom have 2 apples each and get 4 more. How many does Sam have?"),
    ("Originally has 6 apples.", "Originally, Sam and Tom have 2 apples and get 4 more. How many does Sam have?"),
    ("Previously: 6 apples", "Previously, Sam and Tom had 2 apples. Sam has 2 and gets 4. How many?"),
    ("Suppose: 6 apples", "Suppose, Sam and Tom have 2 apples. Sam gets 4. How many?"),
]


@pytest.mark.xfail(strict=True, reason=(
    "rt35 class 7 (fx29d's _opening_subject, _name_place): a sentence's first word before a lexicon verb is its "
    "subject (`Nobody has`, `Usually has`), an unmarked choice in a sentence grounds, and the known `Hypothetically, "
    "Sam and Tom` shape takes other openers; fix: a name is a capital the lexicon does not know in lower case"))
@pytest.mark.parametrize(("completion", "problem"), _GROUNDED)
def test_a_problems_quantifier_or_opener_is_no_name(completion: str, problem: str) -> None:
    """A quantifier, adverb or choice the problem capitalises names no person: its value is no answer."""
    assert "correct" not in problem_verdicts(completion, problem)


@pytest.mark.parametrize(("completion", "problem"), [
    ("Most have 6 apples.", "Most have 2 apples and get 4 more. How many apples does Sam have?"),
    ("Each has 6 apples.", "Each has 2 apples and gets 4 more. How many apples does Sam have?"),
    ("Estimate: 6 apples", "Sam has 2 apples and gets 4 more. Give an Estimate. How many?"),
    ("Roughly: 6 apples", "Sam has 2 apples and gets 4 more. Answer Roughly or Exactly. How many?"),
    ("Guess: 6 apples", "Sam has 2 apples and gets 4 more. Play Guess Who. How many?"),
    ("Possibly: 6 apples", "Sam has 2 apples and gets 4 more. Answer Yes, No or Possibly. How many?"),
    ("Later has 6 apples.", "Later, Sam and Tom have 2 apples. Sam has 2 and gets 4. How many?"),
])
def test_other_problem_words_stay_ungrounded(completion: str, problem: str) -> None:
    """Held: a hedge the problem writes mid-sentence or in a listed choice, `Most`, `Each`, `Later,` ground nothing."""
    assert "correct" not in problem_verdicts(completion, problem)


# 8. A CJK full stop or a danda ends the grammar's sentence but not `_english_words`' (the anchor's sentence skipped).
_CUTS = ["\u3002 ", "\u3002", "\u0964 "]
test_the_anchors_sentence_is_cut_where_the_grammar_cuts_it = refused_test(_rows(
    [(f"Sie hat 2,500 kg{cut}The answer is 2,500.", "2500") for cut in _CUTS]
    + [(f"Sie hat 12.000 kg{cut}The answer is 12.000.", "12") for cut in _CUTS]
    + [(f"Sie hat 2,500 kg{cut}Final Answer: 2,500", "2500") for cut in _CUTS], (
        "rt35 class 8 (fx29e): _SENTENCE_SPLIT_RE cuts at . ! ? and a line's end, the grammar at 。 and । too, so the "
        "German sentence before the anchor is skipped with it; fix: one sentence cut for both (_SENTENCE_END_RE)")))
test_other_cuts_before_the_anchor_are_read = refused_test(_cases(
    [(f"Sie hat 2,500 kg{cut}The answer is 2,500.", "2500") for cut in (
        "\uff01 ", "\uff1f ", "\u2029", "\u2028", "\r", "\x85", "\uff0e ", ". ", "\n", "; ", ": ", ".\u200b")]
    + [("Sie hat 2,500 kg, also the answer is 2,500.", "2500"), ("Il totale e 2,500 kg, quindi the answer is 2,500.", "2500")]))

# 9. Prose in capitals is not read beside one word in lower case.
# `(with)` closed since fx29h (one word is no proof of English: extract._english_clause).
test_prose_in_capitals_with_one_english_word_is_refused = refused_test(_cases([
    ("SIE HAT 2,500 KG (with).\n#### 2,500", "2500"), ("SIE HAT 12.000 KG (with).\n#### 12.000", "12")]))
test_prose_in_capitals_is_read = refused_test(_rows([
    ("ALSO HAT SIE 2,500 KG, as computed.\n\\boxed{2,500}", "2500"),
], (
    "rt35 class 9 (fx29e): _english_words drops words in capitals (geometry's points) whenever one word is in lower "
    "case, so German prose in capitals with one English word is English; fix: drop only a capitals word a math name "
    "reads (1-3 letters, or the problem's points)")))
test_prose_in_capitals_alone_is_refused = refused_test(_cases([
    ("SIE HAT 2,500 KG.\n#### 2,500", "2500"), ("DIE SUMME IST 2,500 KG; so.\n\\boxed{2,500}", "2500"),
    ("Sie Hat 2,500 Kg.\n#### 2,500", "2500")]))

# Held: math in a step lead is read (a number, a relation, a hedge in \\text{}, an expression: 58 of 62 refused).
test_math_in_a_step_lead_is_read = refused_test(_cases([f"Calculate {m}:\n\\[k = 6\\]\n\\boxed{{6}}" for m in [
    "\\(6000\\)", "\\(k \\approx 6\\)", "\\(6 \\times 1000\\)", "\\(\\text{roughly}\\)", "$k/1000$", "$k$ in thousands",
    "\\(k_{\\text{guess}}\\)", "\\(k + 1\\)", "\\(2k\\)", "\\(k \\pm 1\\)", "\\(\\text{maybe } k\\)"]]))

# 10. The answer's own sentence names x only through `=` (`_SUBJECT_NAME_RE`): `x is 6`, `the value of x is 6` check nothing.
_NAMED_ENDS = ["So x is 6.", "Therefore x is 6.", "So the value of x is 6.", "Hence x equals 6.", "Thus x must be 6.",
               "So $x$ is 6.", "Therefore, the value of $x$ is $6$.", "Hence, x is equal to 6."]
test_the_answers_name_in_words_is_checked = refused_test(_rows(
    [f"x = 7.\n{end}" for end in _NAMED_ENDS] + [f"{p}\n{_NAMED_ENDS[2]}" for p in ("\\[x = 7\\]", "So x = 7.", "x is 7.")], (
        "rt35 class 10 (old: _named_another_value's name is _SUBJECT_NAME_RE's, a letter before `=`): an answer "
        "sentence that names x with `is`, `equals`, `the value of x is` reads no earlier `x = 7`; fix: the answer's "
        "name read through the same links as the earlier sentence's (_LINK_FOLD_RE) and `the value of x`")))
test_the_answers_name_through_a_relation_is_checked = refused_test(_cases([f"x = 7.\n{end}" for end in [
    "So x = 6.", "So, x = 6.", "Thus \\(x = 6\\).", "Therefore, $x=6$.", "So x := 6.", "So 6 = x.", "So x = 6 apples."]]))

# Rewrites that pay (the fixes above must keep them).
RIGHT = _cases([
    ("He bought 3 * 500 = 1,500 bricks.\n#### 1,500", "1500"), ("3 * 500 = 1,500\n#### 1,500", "1500"),
    ("Calculate the total:\n\\[300 \\times 5 = 1{,}500\\]\n\\boxed{1{,}500}", "1500"),
    ("The final answer is $\\boxed{1,500}$.", "1500"), ("答案是 1,500。", "1500"),
    ("Savings after 6 months: 250 * 6 = 1,500\n#### 1,500", "1500"), ("Total = 3 * 500 = 1,500\n#### 1,500", "1500"),
    ("Calculate \\(k\\):\n\\[k = 2 \\cdot 3 = 6\\]\n\\boxed{6}", "6"), ("We add them:\n\\[2 + 4 = 6\\]\n\\boxed{6}", "6"),
    ("Adding these up:\n\\[2 + 4 = 6\\]\n\\boxed{6}", "6"), ("Solve for \\(x\\):\n\\[x = 6\\]\n\\boxed{6}", "6"),
    ("Evaluating the expression:\n\\[2 \\cdot 3 = 6\\]\n\\boxed{6}", "6"),
    ("Finally, we find the value of \\(k\\):\n\\[k = 6\\]\n\\boxed{6}", "6"),
    "x = 6.0. So x = 6.", "x = 12/2. So x = 6.", "x = 6/1. So x = 6.", "x = (6). So x = 6.", "x = 0.6e1. So x = 6.",
    "x \\approx 6. So x = 6.", "x = 1 + 2 + 3. So x = 6.", "x = 3 \\cdot 2 = 6. So x = 6.",
])
test_rewrites_near_these_classes_pay = paid_test(RIGHT)

# Costs: right answers refused in both profiles.
# Closed since (fx29f: an equation of numbers alone that holds only with a thousands comma, extract._decimal_equation).
test_terse_english_steps_with_an_equation_only_commas_hold_pay = paid_test(_cases([
    ("Total cost: 3 x 500 = 1,500 dollars.\n#### 1,500", "1500"),
    ("Population growth: 1,200 + 300 = 1,500 people.\n#### 1,500", "1500"),
    ("Savings: 250 x 6 = 1,500\n#### 1,500", "1500"), ("Sie zahlt 3 x 500 = 1,500 kg.\n#### 1,500", "1500"),
]))
test_an_equation_that_holds_in_both_conventions_proves_neither = refused_test(_cases([
    ("Sie hat 1,500 + 1,500 = 3,000 kg.\n#### 3,000", "3000"), ("Sie hat 1,500 + 1,500 = 3,000 kg.\n#### 3,000", "3"),
    ("Sie hat 12 x 1,500 = 18,000 kg.\n#### 18,000", "18000"), ("Sie hat 2 * 1.500 = 3.000 kg.\n#### 3.000", "3"),
    ("Sie hat 3 x 500 = 1,500 kg.\n#### 1,500", "1.5"), ("Sie zahlt 3 x 500 = 1,500 Euro.\n#### 1,500", "1500"),
    ("Sie hat y x 500 = 1,500 kg.\n#### 1,500", "1500"), ("Sie hat 3 x 500 = 1,501 kg.\n#### 1,500", "1500"),
    ("Sie hat 3 x 500 = 1,500 x y kg.\n#### 1,500", "1500"),
]))
test_terse_english_steps_with_a_thousands_comma_pay = paid_test(_cases([
    ("Price per month: 1,500 dollars.\n#### 1,500", "1500"),
    ("Monthly rent = 1,500\nYearly rent = 12 x 1,500 = 18,000\n#### 18,000", "18000"),
    ("Weekly earnings: 5 days x 300 = 1,500\n#### 1,500", "1500"),
    ("Area = 30 m x 50 m = 1,500 square meters.\n#### 1,500", "1500"), ("Kilometers driven: 1,500 km.\n\\boxed{1,500}", "1500"),
]), marks=[pytest.mark.xfail(strict=True, reason=(
    "cost (rt35 a, new with fx29e: all paid on its parent): GSM8K's terse labelled steps have no English function "
    "word, so their thousands comma is of no known language; fix: with class 1's, English syntax read, not counted"))])
_SAME_VALUE = ["x = \\frac{12}{2}.", "x = 2 \\cdot 3.", "x = 2 \\times 3.", "x = 3!.", "x = \\sqrt{36}.", "x = 6 cm.",
               "x = 6 \\text{ cm}.", "x = 6 apples.", "x = six.", "x = 18 ÷ 3.", "x = 2^2 + 2.", "Then x = \\frac{24}{4}."]
_SAME_VALUE_OPEN = ["x = 3!.", "x = \\sqrt{36}.", "x = 2^2 + 2."]  # math no exact arithmetic reads: refused as unproved
# Closed since (extract._states_another: the grammar's number with its unit, spelled, and LaTeX's arithmetic exactly).
test_the_answers_value_written_another_way_reads = paid_test(_cases(
    [p + " So x = 6." for p in _SAME_VALUE if p not in _SAME_VALUE_OPEN]))
test_the_answers_value_written_another_way_pays = paid_test(_cases([p + " So x = 6." for p in _SAME_VALUE_OPEN]),
    marks=[pytest.mark.xfail(strict=True, reason=(
        "cost (rt35 b, new with 3796648: paid on its parent): _states_another reads only digits and + - * / and "
        "refuses any other form of the same value; fix: compare the side as the grader compares an answer"))])
test_step_leads_the_grammar_does_not_list_pay = paid_test(_cases([
    "Now we solve for k:\n\\[k = 6\\]\n\\boxed{6}", "Combining like terms:\n\\[x = 6\\]\n\\boxed{6}",
    "Plugging in:\n\\[x = 6\\]\n\\boxed{6}", "Subtracting 4 from both sides:\n\\[x = 6\\]\n\\boxed{6}",
]), marks=[pytest.mark.xfail(strict=True, reason=(
    "cost (rt35 c, old: refused on fx29d's parent too): STEP_WORDS lists no `now`, `combining like terms`, `plugging "
    "in` or an operation on both sides; fix: a step lead's grammar read on its clause, not a verb list"))])
_TRIALS = ["Trying x = 5 gives 10.", "Plugging in x = 2 gives 4.", "Let x = 2 for the first case.",
           "Testing x = 4: 16 > 12, too big.", "The case x = 0 gives nothing.", "If x = 5, the sum is 10, which is too small.",
           "When x = 0, y = 3."]
_TRIALS_READ = ["Trying x = 5 gives 10.", "Plugging in x = 2 gives 4.", "The case x = 0 gives nothing."]
# Closed since (extract._states_another: a side with a verb is a clause, no value).
test_a_trial_value_of_the_name_with_a_verb_is_no_statement = paid_test(_cases([p + " So x = 6." for p in _TRIALS_READ]))
test_a_trial_value_of_the_name_is_no_statement = paid_test(_cases([p + " So x = 6." for p in _TRIALS if p not in _TRIALS_READ]),
    marks=[pytest.mark.xfail(strict=True, reason=(
        "cost (rt35 d; the first five new with 3796648, paid on its parent): a trial, case or condition that sets x "
        "(`Trying x = 5`, `If x = 5,`) reads as the name set to another value; fix: a value the clause tries, "
        "supposes or tests is no statement (the grammar's condition and method clauses)"))])
test_a_product_sign_before_the_name_is_a_coefficient = paid_test(_cases([p + " So x = 6." for p in [
    "3 \\cdot x = 18.", "3 \\times x = 18.", "2 \\, x = 12.", "3\\,x = 18."]]), marks=[pytest.mark.xfail(strict=True, reason=(
        "cost (rt35 e, 415442e's _stands_alone): a product sign or a LaTeX space between a coefficient and x ends "
        "the left side, so `3 \\cdot x = 18` reads as x = 18; fix: the left side read as math"))])
