"""Red team of issue 29's answer reading, thirty-seventh pass (rt37): this morning's two merges into verifier/math/,
fx29h (`extract._english_words` / `_english_clause`: English proven by a subject and the finite verb it takes, a
preposition's phrase, a contraction, `Thus`/`Hence`/`Therefore`, an imperative and its object;
`OTHER_LANGUAGES_FUNCTION_WORDS` refusing) and fx29g (`extract._decimal_equation`'s two readings; grammar
`_math_line`/`_plain_term`/`_answer_label`, `_unmarked_label`, `_lone_possible`/`_answer_led`, `_link_chain`'s
`is:` subject, `comes out to be`), through the real grader (`grade_math`) in both profiles on main (9e651c2). About
15,400 generated rows (9,600 attacks, 5,800 for costs; scripts kept out of the tree; each class says what was
generated), each also run against the merges' parent (5a5a704's `verifier/` tree): NEW where the parent refused, OLD
where it paid too. Each xfail row below paid a wrong answer in both profiles (a cost's xfail row: a right answer
refused, paid on the parent).

FINDINGS
1. CLOSED (lead, after the red team: `extract._VERB_FORMS`, the `-s` and `-ed` forms of `_BARE_VERBS`, grown to about
   280 verbs, are the only regular finite verbs that prove English, a shape none; a name's past is none that is also a
   bare form (`put`); `do` proves English only before `not` or a bare verb; `my` is no determiner; an article's
   subject's copula needs an English word after it; an imperative's object opens with `_IMPERATIVE_OBJECTS`, never `a`
   or `to`; `or` is no math connective: every row below is refused, each test a plain refusal).
   NEW with fx29h (both profiles; the parent refused every row). Other decimal-comma languages written in ASCII, none of
   whose words `OTHER_LANGUAGES_FUNCTION_WORDS` lists, write sentences `_english_clause` reads as English syntax, so
   their `2,500` and `12.000` are read as English (2500 and 12 where the text means 2.5 and 12000): 4,432 of 4,568
   generated rows (4 per sentence: `2,500`/`12.000` x box/`####`), 0 on the parent.
   (a) a Slavic `my` ("we": Polish, Czech, Slovak) or Afrikaans `my` is an English determiner: a preposition's phrase
   (`To my mamy 2,500 kg.`, "it's we who have"; `In my tuin is`), or a noun subject before `was` (Polish `was`, "you";
   `My dla was mamy`, `A dla was jest`; Afrikaans `My vrag was 12.000 kg.`): 564 of 564.
   (b) any capitalised word is a name (`_subjects`), and any word in `-es`, a consonant's `-s` or `-ed` is an English
   third person or past (`_THIRD_PERSON_RE`, `_past_form`), so a sentence's first word and the word after it make a
   clause: Portuguese, Spanish and Catalan second persons the list leaves out (`Hoje tens`, `Agora recebes`, `Ahora
   recibes`, `Ara compres`; `vendes`, `tienes` are listed), Hungarian `keres` ("earns") and `veszed` ("you take it",
   an `-ed`), Croatian `put` ("time") and `sat` ("hour"), two irregular pasts' spelling (`Svaki put 2,500 kg`, "each
   time"), Czech `chces`, `budes`, Polish `pies` ("dog": `Ten pies to 12.000 kg`), Latin `habes`: 3,600 of 3,732 (8
   languages; fx29h's known open row `Amanha comes` is one of them). A shared word makes the share (`do`, `as`, `per`,
   `is`, `to`, `in`, `once`, `has`).
   (c) the Slavic conjunction `I` ("and", "also") before `do` ("to", "into") is English `I do` (`I do skladu sme dali
   2,500 kg.`): 224 of 224.
   (d) a computation imperative spelled in another language before an object opener it also spells: Portuguese
   `Divide a heranca` ("divides the inheritance"), Hungarian `Add a` ("give the"), Danish `Find to` ("find two"),
   Romanian `Calculate a`: 36 of 40.
   (e) a text whose only words are one or two of `_MATH_CONNECTIVES` is math alone, and French `Or` ("gold") is one:
   `Or: 12.000 kg.`, `Or, 2,500 kg.`: 8 of 8 (`If:`, `And`, `Then` paid on the parent too, as proof words).
   Each row is one short sentence, so the words both languages share reach `_ENGLISH_SHARE`; three-sentence texts of
   the same languages fall below it (1 of 8 pays: Afrikaans `My vrag was 3 sakke van 500 kg. My vrag was 2,500 kg.`),
   unless an English sentence is added (class 2).
   Fix (allowlist): English is proven by words an English lexicon holds, never by a shape: the verb after a subject is a
   form of a listed English verb (`_BARE_VERBS` and its `-s`, `-ed` and irregular forms), not any `-es`/`-s`/`-ed`
   word; a name is one the problem's prose or another clause names, never a capital alone (fx29h's own note); `my` and
   `I` prove nothing before a word no English lexicon holds; an imperative's object is English words (`the`, `all`), not
   `a`. Or: a sentence is English only where nearly all its words (not a fifth) are on an English lexicon.
2. OLD (both profiles; paid on the parent in part or whole). English spliced into a foreign text makes the whole text
   English, the foreign sentence that holds the number included: an English sentence after it (`Kupila 2,500 kg
   jablek. We add them all.`: 168 of 196 rows, 196 on the parent), `Thus`/`Hence`/`Therefore` before foreign prose
   (`Thus Maria ha comprato 12.000 kg.`: 20 of 20, 20 on the parent), a contraction in a quoted title (`Vendeu 2,500
   copias do livro I'm Here.`), a computation verb in a remark (`Ha comprato 2,500 kg (gives 2,500).`: 12 and 16 of
   20, all on the parent). Fix: the convention is read for the sentence that holds each number of both readings, not
   the text's share.
3. OLD (both profiles; the same on the parent). The English anchor's sentence is not read (`_ENGLISH_ANCHOR_RE`), so
   foreign prose in that sentence, with its own function words, is unseen and the text is math alone: `Sie hat 12.000
   kg und der Korb ist voll, so the answer is 12.000.\\n#### 12.000` pays 12 (German, Dutch, French, Spanish, Italian,
   Swedish, Indonesian, Vietnamese x 7 joins: `, so the answer is`, `; answer:`, `, final answer:`, `, ####`): 192
   of 224 rows with a box or `####` below (the `(final answer ...)` join held), 192 on the parent; an English opener
   before it pays too (`Let's see.`, `We add.`, `This is easy.`: 12 of 12; on the parent `This is easy.` alone, its
   `this` a proof word). Fix: the anchor's sentence is read with the anchor's own words left out, not the whole
   sentence.
4. CLOSED (fx29i: `extract._equation_proofs` returns each convention an equation proves, and the decimal comma's
   refuses; `_DECIMAL_COMMA_EVIDENCE_RE` reads `2.500,50` and `1.500.000`; every row below refused).
   OLD (both profiles; the same on the parent). English prose that shows the other convention otherwise than by a
   decimal comma or the euro reads `12.000` as 12: an equation that holds only with a grouping point (`He has 3 x 500
   = 1.500 kg.`, `1,250 x 4 = 5.`), a number grouped twice (`1.500.000 hens`), both marks (`2.500,50`, which
   `_DECIMAL_COMMA_EVIDENCE_RE` reads after no point): 140 of 200 rows (7 evidences x 5 English sentences x 4), 140 on
   the parent. Fix: `_decimal_equation`'s proof of the continental convention (it already returns False for it) and a
   grouping of that convention are evidence that refuses, as a decimal comma is.
5. CLOSED (fx29i: `_decimal_point_text` reads another language's function words before every proof, the
   equation's too; every row below refused).
   OLD (both profiles). An equation that holds only in the English convention proves it over a decimal-comma
   language's own function words (`OTHER_LANGUAGES_FUNCTION_WORDS` refuse `_english_words` only): `3 x 500 = 1,500. Sie
   hat 12.000 kg und er hat mehr.` pays 12, in German, Dutch, French, Spanish, Italian and Swedish prose: 192 of 192 (8
   equations x 6 sentences x 4), 192 on the parent. Fix: a language's own words refuse the whole allowlist
   (`_decimal_point_text`), the equation's branch too.
6. CLOSED (fx29i, grammar._math_line: a bare term opens the box below only where it states the box's value,
   `_states_box`: the same term or arithmetic of its value; another relation only as a lone name's `\\approx` of it
   under the answer's label, `_approximates_box`; every row below refused; rt36's `\\in \\{6, 7\\}` and `\\ge 6` under
   `Answer:`, paid by design there, now refused too).
   OLD (both profiles; fx29g kept it under the answer's label). (a) Under the answer's own label (`_answer_label`:
   `Answer:`, `Answers:`, `答案：`, `Antwort:`, `The answer is:`, `# Answer:`) a display that says the value is not the
   box's opens the box below: `Answer:\\n\\[k \\ne 6\\]\\n\\boxed{6}`, `k > 6`, `6 < k`, `k \\notin \\{6\\}`, `k \\in (5,
   7)`, `\\frac{k}{1000} \\approx 6`, `k \\approx 6 \\times 10^{3}`, `6?`: 189 of 189 rows (21 labels x 9 such displays;
   `\\ge 6`, `\\approx 6.2`, which rt36 pays by design, and `\\to`, `\\sim` not counted), all paid on the parent.
   (b) the same for a bare term (`_plain_term`) under any label `_line_label` reads: a term of another value opens the
   box below, `We add them:\\n\\[6 \\times 1000\\]\\n\\boxed{6}`, `The total is:` above `6 \\cdot 10^3`, `\\frac{6}{1000}`,
   `6\\%`, `6 \\text{ or } 7`: 41 of 200 rows (8 labels x 25 terms; a term's words in `\\text{}`, `6 \\text{ thousand}`,
   `\\text{about } 6`, held), 36 on the parent (NEW under `We add them:` and `Calculate the total:`, which fx29g's
   `_plain_term` opened: rt36 cost b).
   Fix: under the answer's label a display opens the box only where it states the box's value: its relation is `=` or
   `\\approx` and its last side is the box's term (an allowlist of relation and side); a bare term only where its value
   is the box's (`2 + 4` above `6`).
7. CLOSED in part (fx29i, grammar._answer_subject: a subject or label that holds `answer` has the anchor's leads
   before it and after it only a unit after `in`, a part's label or the problem, in every reader; open: the row
   whose colon line stands above an equation's display, `The answer for n = 5 is:\\n\\[x = 6\\]`).
   OLD (both profiles; fx29g closed most of its kind, 5a5a704 paid more). A subject that names an answer other than the
   problem's, or the answer of a step or a part of the quantity, pays on a colon line and on the box's own line (one
   reader, `_copula_subject`): `The answer to the first step is:\\n\\boxed{6}`, `The answer for each child is
   \\boxed{6}.`, `The answer of the friend was:`, `Her answer is:`, `The answer the book gives is:`, `The answer for n = 5
   is:\\n\\[x = 6\\]\\n\\boxed{6}`: 51 of 99 rows (11 subjects x 9 links; of 65 subjects tried, 6 that name the asked
   answer pay as they should, `The answer in cm`, and 48 are held: `The answer of my classmate`, `Tom's answer`, `The
   answer per box`). Fix: an answer's subject admits only the anchor's leads (`_answer_led`) and the listed scale and
   unit phrases after `answer`, nothing else (`to the first step`, `for each child`, `of the friend`, `Her`).
8. CLOSED in part (fx29i: `_answer_subject` admits no `can be` after `answer`; open: `So the total [can be]:`).
   OLD (both profiles). Square brackets are no markup `_unmarked_label` drops, and `can` is a counted noun, so `The
   answer [can be]:\\n\\boxed{6}` is a label: 3 of 1,224 rows (12 refused groups x 34 markups x 3 subjects), all paid on
   the parent. Fix: the label's words read with every mark dropped (an allowlist of what a label's word is), not a list
   of markup.
9. CLOSED in part (fx29i, grammar._LABEL_DETERMINERS: `Each:`, `Each box:`, `Every box:` refused; `_LABEL_HEADS`: a
   label's `result` read as `answer` is, so `Step 1 result:`, `Result of step 1:`, `Case 1 result:` refused; open: a
   verb's label, `Each person gets:`, `Each bag holds:`, `Verify:`).
   OLD (both profiles; box_label, not this morning's merges). A label that names a part's quantity or a step's result
   is read as the answer's label above or before a box, where its near spellings are refused: `Each box:\\n\\boxed{6}`,
   `Each:`, `Every box:`, `Each person gets:`, `Each bag holds:` (24 of 51 rows, 17 labels x 3 layouts; `Per box:`,
   `Each one:`, `Apiece:`, `Each day:` held), `Step 1 result:`, `Result of step 1:`, `Case 1 result:`, `Verify:` (18 of
   42; `Intermediate result:`, `Partial result:`, `After step 1:`, `Check:` held; bare `Step 1:`, `Case 1:` not
   counted), all paid on the parent. Fix: a label states the answer only with words of an answer's lexicon (`Answer`,
   `Total`, `Result`), never a part's (`each`, `every`) or a step's (`step`, `case`, `verify`).
COSTS (strict xfails, "cost: ..."; right answers refused in both profiles, paid on the parent):
(a) CLOSED (an adverb of `_MODAL_ADVERBS` after a pronoun subject, `_subjects`). NEW with fx29h: an adverb between an English subject and its verb (`She also bought 1,500 eggs.`, `He then sold`,
   `She still needs`, `He only paid`): 336 of 480 generated rows (5 pronouns x 8 adverbs x 6 verbs x 2 layouts) paid on
   the parent, 0 now; `_MODAL_ADVERBS` are read only after a modal or a name's auxiliary.
(b) NEW with fx29h: `His` is no determiner (`_DETERMINERS` leaves out `his`, `her` for Turkish and Danish): `His farm
   has 1,500 cows.`, `His son earns`: 36 of 72 rows (`Her` ones were refused on the parent too).
(c) CLOSED for its rows (`_BARE_VERBS` grown; the list is still closed). NEW with fx29h: a modal before a bare verb that `_BARE_VERBS` does not list (`The candle will burn for 1,500
   minutes.`): 14 of 112 rows (`burn`; `hold`, `bake`, `sell` are listed).
(d) NEW with fx29h and fx29g, measured: single sentences of the peer outputs (tests/data/peer_outputs: GSM8K, MathVista,
   Omni-MATH, ASCII, no separator of their own) with `#### 2,500` after: 479 of 2,246 rows paid on the parent are
   refused (19 of 390 GSM8K, 47 of 509 MathVista, 413 of 1,347 Omni-MATH; 43 gained): `Her overtime pay is`, `Raymond
   was born`, `Let x be`, `Please provide`, `Since D is the midpoint of AC, then AD = DC.`, `a solution cannot be
   provided`. Whole completions with their answer lines cut: 3 of 325 (GSM8K, MathVista) refused, 4 gained.
(e) NEW with fx29h (time, a constant per byte, linear): `_english_words` reads `an an an ...` at 1.3 to 1.7 s a MiB
   of process time (parent 0.22 s), `the the ...` 1.25 to 1.5 s (parent 0.16 s; load average 4 to 6 on 2 cores), 2.6
   to 3.5 times the 0.5 s a MiB that 7fc3a2c sized the engine's on-loop read by (16 KiB: 20 to 27 ms, not 8). An article or determiner opens up to three
   subjects (`_subjects`), each tested as a finite verb: three `_finite_verb` calls a word, counted (the test times
   nothing). Fix: each token tested as a verb once, for the kinds of the subjects that end before it.
(f) NEW with fx29g (b6e3dba: a colon line's `is:` reads a subject that names the answer by `_copula_subject`, and
   `_answer_led` admits only the anchor's leads before `answer`): plain subjects that name the problem's answer are
   refused above a box: `The numerical answer is:\\n\\boxed{6}`, `The only answer is:`, `The unique answer was:`, `The
   answer in simplest form is:`, `The answer as a fraction is:`, `The answer (in dollars) is:`, `The answer we seek
   is:`, `The maximum possible answer is:`: 100 of 290 colon rows (20 of 58 subjects x 5 links: `is:`, `was:`, `are:`,
   a display or a displayed box below) paid on the parent, 0 gained. Fix: `_answer_led`'s leads grown by the
   adjectives and phrases that name the asked answer (an allowlist: `numerical`, `unique`, `only`, `in simplest form`,
   `as a fraction`, a unit in brackets), one reading for both lines.
HELD (passing tests below): the same sentences with the homograph swapped for a word of the same language (`To wy
macie`, `Ons vrag was`, `Ara tinc`, `Anna kap`, `Svaki dan`, `A do tego`, `Divida a`): 20 of 20 refused; hedged and
scaled answer labels (`Answer (approx.):`, `Answer in thousands:`, `Answer before rounding:`, `Answer, roughly:`,
`Rough answer:`, `Final answer times 1000:`) above a relation or a bare box; subjects that apply an operation to the
answer (`The answer's square is:`, `The answer minus one is:`, paid on the parent), 48 qualified subjects and 71
hedging ones (`The answer, possibly,`, `The provisional answer`: 2 of 426 rows pay, `The test answer is:`; 166 on the
parent); 1,197
markup variants of modal, negated and perfect be-groups (`<b>could be</b>`, `~~might be~~`, `\\textcolor{red}{can
be}`, `\\emph{won't be}`); the English reader's work is linear in the completion's size (counted).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import MATH_PROFILES, paid_test, refused_test
from tests.test_math_redteam_30 import _cases, _rows
from tests.test_math_redteam_35 import _LAYOUTS, _both_readings
from verifier.math import extract, grade_math

_SLAVIC_AND_AFRIKAANS_MY = [
    "To my mamy {n} kg.", "Czy to my mamy {n} kg?", "Wiec to my mamy razem {n} kg.", "To my jsme koupili {n} kg.",
    "To my sme kupili {n} kg.", "My dla was mamy {n} kg.", "A dla was jest {n} kg.", "My vrag was {n} kg.",
    "In my tuin is {n} kg appels.", "By my huis is {n} kg.",
]
_CAPITAL_AND_A_SHAPE = [
    "Hoje tens {n} kg do arroz.", "Agora recebes {n} kg do trigo.", "Ahora recibes {n} kg y has ganado once.",
    "Ara compres {n} kg per casa.", "Anna keres {n} forintot, Bela is.", "Akkor veszed a {n} kg lisztet is.",
    "Svaki put {n} kg do kraja.", "Prvi put {n} kg, a to je sve.", "Tak chces {n} kg, to je vse.", "Ten pies to {n} kg.",
    "Nunc habes {n} libras in arca.", "Pak budes {n} kg, a to je vse.",
]
_SLAVIC_I_DO = ["I do skladu sme dali {n} kg.", "I do Prahy jsme dovezli {n} kg.", "I do tego {n} kg.",
                "I do kraja je {n} km."]
_FOREIGN_IMPERATIVES = ["Divide a heranca de {n} em tres.", "Add a {n} kg lisztet Annanak.", "Find to kasser paa {n} kg.",
                        "Calculate a {n} kg?"]
# 1. Other decimal-comma languages' sentences shaped as `_english_clause`'s English syntax (new with fx29h).
test_a_slavic_or_afrikaans_my_is_no_english_determiner = refused_test(_cases(
    _both_readings(_SLAVIC_AND_AFRIKAANS_MY, _LAYOUTS[:2])))
test_a_capitalised_word_and_a_shaped_word_are_no_english_clause = refused_test(_cases(
    _both_readings(_CAPITAL_AND_A_SHAPE, _LAYOUTS[:2])))
test_the_slavic_i_do_is_no_english_clause = refused_test(_cases(
    _both_readings(_SLAVIC_I_DO, _LAYOUTS[:2])))
test_a_foreign_imperative_homograph_is_no_english_imperative = refused_test(_cases(
    _both_readings(_FOREIGN_IMPERATIVES, _LAYOUTS[:2])))
# Near misses of the fix: the same sentences with the homograph swapped for another word of their language.
test_the_same_sentences_without_their_homograph_are_refused = refused_test(_cases(_both_readings([
    "To wy macie {n} kg.", "To oni maja {n} kg.", "Wy dla nas macie {n} kg.", "Ons vrag was {n} kg.",
    "In ons tuin is {n} kg appels.", "Ara tinc {n} kg per vendre.", "Hoje tenho {n} kg do arroz.",
    "Ahora recibo {n} kg y has ganado once.", "Anna kap {n} forintot, Bela is.", "Akkor veszi a {n} kg lisztet is.",
    "Svaki dan {n} kg do kraja.", "Tak chce {n} kg, to je vse.", "Ten kot to {n} kg.", "Nunc habet {n} libras in arca.",
    "A do tego {n} kg.", "Ale do tego {n} kg.", "Divida a heranca de {n} em tres.", "Adj a {n} kg lisztet Annanak.",
    "Find tre kasser paa {n} kg.",
], _LAYOUTS[:2])))

# 1e. A French `Or` ("gold") alone is one of the math connectives that leave a text math alone (new with fx29h).
test_a_foreign_connective_homograph_is_no_math_alone = refused_test(_cases(
    _both_readings(["Or: {n} kg.", "Or, {n} kg."], _LAYOUTS[:2])))

# 2. English spliced into a foreign text makes the whole text English (old; the anchor sentence's part new).
_SPLICED = [
    "Kupila {n} kg jablek. We add them all.", "Comprou {n} kg de arroz. This is the total.",
    "Kupio je {n} kg brasna. That's it.", "Thus Maria ha comprato {n} kg.", "Hence, Ion a cumparat {n} kg.",
    "Vendeu {n} copias do livro I'm Here.", "Ha comprato {n} kg (gives {n}).", "Kupila {n} kg, equals {n}.",
]
test_english_spliced_into_foreign_text_proves_nothing_of_its_numbers = refused_test(_rows(
    _both_readings(_SPLICED, _LAYOUTS[:2]), (
        "rt37 class 2, old: an English sentence, connective, title or remark anywhere makes the whole text English, "
        "the foreign sentence holding the number too; fix: the convention read for each number's own sentence")))
test_the_foreign_text_alone_is_refused = refused_test(_cases(_both_readings([
    "Kupila {n} kg jablek.", "Comprou {n} kg de arroz.", "Maria ha comprato {n} kg.", "Vendeu {n} copias do livro.",
], _LAYOUTS[:2])))

# 3. The English anchor's sentence is not read, so foreign prose inside it is unseen (old).
_IN_THE_ANCHORS_SENTENCE = [
    "Sie hat {n} kg und der Korb ist voll, so the answer is {n}.", "Zij heeft {n} kg en het is klaar; answer: {n}",
    "Elle a {n} kg et il est content, final answer: {n}", "Dia punya {n} kg dan itu cukup, #### {n}",
    "Let's see. Sie hat {n} kg und der Korb ist voll, so the answer is {n}.",
    "This is easy. Ella tiene {n} kg y es mucho - the answer is {n}."]
test_the_anchors_sentence_hides_no_foreign_prose = refused_test(_rows(
    _both_readings(_IN_THE_ANCHORS_SENTENCE, _LAYOUTS[:2]), (
        "rt37 class 3, old: `_english_words` drops the English anchor's whole sentence, so another language's prose "
        "and function words in it are unread and the text is math alone; fix: only the anchor's own words left out")))
test_the_same_prose_before_the_anchors_sentence_is_refused = refused_test(_cases(_both_readings([
    "Sie hat {n} kg und der Korb ist voll. So the answer is {n}.", "Zij heeft {n} kg en het is klaar.\nAnswer: {n}",
    "Elle a {n} kg et il est content (final answer {n})"], _LAYOUTS[:2])))

# 4. English prose with the other convention's evidence, not a decimal comma or the euro (old).
_CONTINENTAL_EVIDENCE = ["He has 3 x 500 = 1.500 kg. He sold {n} kg.", "1,250 x 4 = 5. She has {n} apples.",
                         "The farm has 1.500.000 hens. They paid {n} dollars.", "The price was 2.500,50. The total is {n} kg.",
                         "They had 1.200 + 300 = 1.500 kg. We add them: {n} g."]
test_english_with_the_continental_conventions_evidence_is_refused = refused_test(_cases(
    _both_readings(_CONTINENTAL_EVIDENCE, _LAYOUTS[:2])))  # closed: extract._equation_proofs, _DECIMAL_COMMA_EVIDENCE_RE
test_english_with_a_decimal_comma_is_refused = refused_test(_cases(_both_readings([
    "It costs 2 x 1,25 = 2,5. He sold {n} kg.", "Each box holds 0,5 kg. She has {n} apples.",
    "3 x 2,5 = 7,5 kg. The total is {n} kg."], _LAYOUTS[:2])))

# 5. An English-only equation proves the convention over a language's own function words (old).
_EQUATION_OVER_WORDS = ["3 x 500 = 1,500. Sie hat {n} kg und er hat mehr.", "1.500 x 2 = 3. Zij heeft {n} kg en het is klaar.",
                        "4 x 250 = 1,000. Elle a {n} kg et il est content.", "1.250 x 4 = 5. Ella tiene {n} kg y es mucho.",
                        "6 x 250 = 1,500. Hon har {n} kg och det ar bra."]
test_an_english_equation_does_not_outweigh_a_languages_words = refused_test(_cases(
    _both_readings(_EQUATION_OVER_WORDS, _LAYOUTS[:2])))  # closed: extract._decimal_point_text reads the words first
test_the_same_prose_with_an_equation_of_both_readings_is_refused = refused_test(_cases(_both_readings([
    "1,500 + 1,500 = 3,000. Sie hat {n} kg und er hat mehr.", "2 x 6.000 = 12.000. Zij heeft {n} kg en het is klaar.",
], _LAYOUTS[:2])))

# 6. Under the answer's own label, a display that says the value is not the box's opens the box (old).
_NOT_THE_BOX = ["\\[k \\ne 6\\]", "\\[k > 6\\]", "\\[6 < k\\]", "\\[k \\notin \\{6\\}\\]", "\\[k \\in (5, 7)\\]",
                "\\[\\frac{k}{1000} \\approx 6\\]", "\\[k \\approx 6 \\times 10^{3}\\]", "\\[6?\\]"]
# Closed (grammar._math_line: a bare term opens the box only where it states the box's value, `_states_box`; another
# relation only as a name's `\\approx` of it under the answer's label, `_approximates_box`).
test_the_answers_label_opens_no_display_against_the_box = refused_test(_cases(
    [f"{lead}\n{d}\n\\boxed{{6}}" for lead in ("Answer:", "The answer is:", "答案：") for d in _NOT_THE_BOX]))
test_a_bare_term_of_another_value_opens_no_box = refused_test(_cases(
    [f"{lead}\n\\[{d}\\]\n\\boxed{{6}}" for lead in ("The total is:", "We add them:", "Therefore:")
     for d in ("6 \\times 1000", "6 \\cdot 10^3", "\\frac{6}{1000}", "6\\%", "6 \\text{ or } 7")]))
test_a_bare_term_with_words_opens_no_box = refused_test(_cases(
    [f"We add them:\n\\[{d}\\]\n\\boxed{{6}}" for d in (
        "6 \\text{ thousand}", "\\text{about } 6", "6 \\text{ or more}", "6 \\text{ per box}", "\\text{not } 6")]))
test_hedged_or_scaled_answer_labels_open_nothing = refused_test(_cases(
    [f"{lead}\n{d}\n\\boxed{{6}}" for lead in (
        "Answer (approx.):", "Answer in thousands:", "Answer before rounding:", "Final answer (rounded):",
        "**Final answer** (estimate):", "Answer, roughly:", "Approximate answer:", "Answer for n=2:")
     for d in ("\\[k \\approx 6.2\\]", "\\[k \\ge 6\\]")]
    + [f"{lead}\n\\boxed{{6}}" for lead in (
        "Answer before rounding:", "Answer (approx.):", "Answer in thousands:", "Rough answer:", "Partial answer:",
        "Final answer times 1000:", "Final answer / 1000:", "Not the answer:")]))

# 7. A subject naming another's answer, a step's or a part's (old; one reader for both lines).
_OTHER_ANSWERS = ["The answer to the first step", "The answer for each child", "The answer of the friend"]
# Closed in part (grammar._answer_subject: after `answer` only a unit, a part's label or the problem; before it the
# anchor's leads, in every reader of a subject and a colon line's label).
test_a_subject_naming_another_answer_is_refused = refused_test(_cases(
    [f"{s} {link}" for s in _OTHER_ANSWERS for link in ("is:\n\\boxed{6}", "was:\n\\boxed{6}", "is \\boxed{6}.")]
    + [f"{s} is:\n\\boxed{{6}}" for s in ("Her answer", "His answer", "Their answer", "The answer the book gives")]))
test_a_subject_naming_another_answer_above_an_equation_is_refused = refused_test(_rows(
    ["The answer for n = 5 is:\n\\[x = 6\\]\n\\boxed{6}"], (
        "rt37 class 7, old: an equation's display below a colon line opens the box whatever the line's subject "
        "(`_math_line_opens`), so `The answer for n = 5 is:` is not read; fix: the colon line's subject read as "
        "`_answer_subject` reads it")))
# Class 7's near misses (a step's, a part's or someone's answer: refused; paid on main) and rewrites (the problem's
# answer with a unit, a part's label, the unknown's letter or a link group: paid), grammar._answer_subject.
test_a_step_or_a_persons_answer_is_refused = refused_test(_cases([
    "The answer to the second step is:\n\\boxed{6}", "The answer for each box is \\boxed{6}.", "Answer for each child:\n\\boxed{6}",
    "Her final answer:\n\\boxed{6}", "Your answer is:\n\\boxed{6}", "The answer to step 1 is \\boxed{6}.",
    "The answer without the tax is:\n\\boxed{6}", "The answer for the case k = 1 is \\boxed{6}."]))
test_the_problems_answer_with_a_listed_tail_pays = paid_test(_cases([
    "The answer to part (a) is:\n\\boxed{6}", "The answer to the problem is \\boxed{6}.", "The answer in dollars is:\n\\boxed{6}",
    "The answer for n is:\n\\boxed{6}", "The answer to this question is \\boxed{6}.", "Our answer is \\boxed{6}.",
    "The answers are:\n\\boxed{6}", "Answer (part a): \\boxed{6}", "The answer in total is \\boxed{6}.",
    "The answer will be:\n\\boxed{6}", "Answer for \\(k\\):\n\\boxed{6}"]))
test_a_parts_answer_named_by_its_ordinal_pays = paid_test(_rows(
    ["The answer to the first part is:\n\\boxed{6}"], (
        "cost (fx29i, rt37 class 7's fix): `_answer_subject` admits a part by its label (`part (a)`), not by an "
        "ordinal; paid on main")))
test_a_subject_that_operates_on_the_answer_is_refused = refused_test(_cases([
    "The answer's square is:\n\\boxed{6}", "The answer squared is:\n\\boxed{6}", "The square of the answer is:\n\\boxed{6}",
    "The answer minus one is:\n\\boxed{6}", "The answer's double is:\n\\boxed{6}", "Twice the answer is:\n\\boxed{6}",
    "The answer of my classmate is:\n\\boxed{6}", "Tom's answer is:\n\\boxed{6}", "The answer per box is:\n\\boxed{6}",
    "The answer before the discount is \\boxed{6}.", "The answer from the other method was:\n\\boxed{6}"]))
test_a_subject_naming_the_problems_answer_pays = paid_test(_cases([
    "The answer for part (b) is:\n\\boxed{6}", "The exact answer is \\boxed{6}.", "The answer in cm is:\n\\boxed{6}",
    "The final answer comes out to be:\n\\boxed{6}"]))

# 8. Square brackets are no markup the label reader drops (old).
test_a_bracketed_modal_group_is_no_label = refused_test(_cases(
    [f"{s} [can be]:\n\\boxed{{6}}" for s in ("The answer", "The final answer")]))  # closed: grammar._answer_subject
test_a_bracketed_modal_group_after_another_subject_is_no_label = refused_test(_rows(
    ["So the total [can be]:\n\\boxed{6}"], (
        "rt37 class 8, old: `_LABEL_MARKUP_RE` lists no `[`, and `can` is a counted noun, so `[can be]` is a label; "
        "fix: the label's words read with every mark dropped")))
test_marked_up_modal_groups_are_refused = refused_test(_cases(
    [f"The answer {m}:\n\\boxed{{6}}" for m in (
        "<b>could be</b>", "~~might be~~", "\\textcolor{red}{can be}", "\\emph{won't be}", "`would be`", "\\underline{may be}",
        "$\\text{could have been}$", "\"can be\"", "\\textsf{will not be}", "***might have been***")]))

test_a_hedging_subject_before_a_colons_link_is_refused = refused_test(_cases([f"{s} {link}" for s in (
    "The answer, possibly,", "The answer probably", "The answer, if correct,", "The answer (I think)", "The answer at most",
    "The likely answer", "The provisional answer", "The penultimate answer", "The not final answer", "The guessed answer")
    for link in ("is:\n\\boxed{6}", "will be:\n\\boxed{6}", "comes out to be:\n\\boxed{6}")]))

# 9. A label naming a part's quantity or a step's result opens the box (old; box_label).
# Closed in part (grammar._LABEL_DETERMINERS: a label's determiner is an article, a demonstrative or an owner's, never
# a distributive `each`, `every`); open: a verb's label (`Each person gets:`, `Verify:`) and a step's result.
test_a_parts_label_states_no_answer = refused_test(_cases(
    [f"{label}\n\\boxed{{6}}" for label in ("Each:", "Each box:", "Every box:")] + ["Each box: \\boxed{6}"]))
# Closed (grammar._LABEL_HEADS: a label's `result` is read as its `answer` is, `_answer_subject`).
test_a_steps_result_states_no_answer = refused_test(_cases(
    [f"{label}\n\\boxed{{6}}" for label in ("Step 1 result:", "Result of step 1:", "Case 1 result:")]
    + ["Step 2 result:\n\\[x = 6\\]\n\\boxed{6}", "Result for each child:\n\\boxed{6}", "Partial result:\n\\boxed{6}",
       "Her result:\n\\boxed{6}", "Result of case 2:\n\\boxed{6}"]))
test_the_problems_result_pays = paid_test(_cases([f"{label}\n\\boxed{{6}}" for label in (
    "Final result:", "Result:", "Our result:", "Result for part (a):", "Final Results:", "Step 1:", "Case 1:")]))
test_a_parts_or_a_steps_label_states_no_answer = refused_test(_rows(
    [f"{label}\n\\boxed{{6}}" for label in (
        "Each person gets:", "Each bag holds:", "Verify:")], (
        "rt37 class 9, old: box_label reads `Each person gets:` (a verb's label, `box_subject`), `Step 1 result:`, "
        "`Verify:` as the answer's label where `Per box:`, `Intermediate result:`, `Check:` are refused; fix: a label "
        "states the answer only with an answer's words")))
# Near misses of the determiner rule (a part's label: refused; paid on main) and rewrites (a whole's: paid).
test_a_distributive_label_is_refused = refused_test(_cases([
    "Each child:\n\\boxed{6}", "Every bag:\n\\boxed{6}", "Each part:\n\\boxed{6}", "**Each box:** \\boxed{6}",
    "Each box total:\n\\boxed{6}"]))
test_a_wholes_label_pays = paid_test(_cases([
    "The total:\n\\boxed{6}", "Our result:\n\\boxed{6}", "This total:\n\\boxed{6}", "Total boxes:\n\\boxed{6}",
    "Answer:\n\\boxed{6}"]))
test_a_parts_or_a_steps_near_spellings_are_refused = refused_test(_cases([f"{label}\n\\boxed{{6}}" for label in (
    "Per box:", "Each one:", "Apiece:", "Each day:", "Intermediate result:", "Partial result:", "After step 1:", "Check:")]))

# Costs: right answers refused in both profiles, paid on the parent.
test_an_adverb_between_subject_and_verb_pays = paid_test(_cases([(f"{s}\n#### 1,500", "1500") for s in (
    "She also bought 1,500 eggs.", "He then sold 1,500 eggs.", "She still needs 1,500 dollars.", "He only paid 1,500 dollars.",
    "They also made 1,500 cookies.", "We then bought 1,500 eggs.")]))
test_his_subject_pays = paid_test(_cases([(f"{s}\n#### 1,500", "1500") for s in (
    "His farm has 1,500 cows.", "His son earns 1,500 dollars.", "His class sold 1,500 eggs.")]), marks=[
    pytest.mark.xfail(strict=True, reason=(
        "cost (rt37 b, new with fx29h): `_DETERMINERS` leaves out `his` (Turkish `his`, a feeling), so `His farm has` "
        "is no subject; fix: `his` before a word an English lexicon holds"))])
test_a_modal_before_an_unlisted_bare_verb_pays = paid_test(_cases([(f"{s}\n#### 1,500", "1500") for s in (
    "The candle will burn for 1,500 minutes.", "The pump will burn for 1,500 minutes.")]))  # closed: `burn` is a listed verb now (extract._BARE_VERBS)
test_peer_output_sentences_pay = paid_test(_cases([(f"{s}\n#### 2,500", "2500") for s in (
    "Her overtime pay is 1.2 x $400 = $<<1.2*400=480.0>>480.", "If Samantha is now 31, then Raymond was born 31-6 = 25 "
    "years ago.", "Let x be the number of silver coins.", "Please provide the complete problem.",
    "Since D is the midpoint of AC, then AD = DC.", "Without specific numbers provided, a solution cannot be given.")]),
    marks=[pytest.mark.xfail(strict=True, reason=(
        "cost (rt37 d, new with fx29h): 479 of 2,246 peer sentences paid on the parent are refused (19 GSM8K, 47 "
        "MathVista, 413 Omni-MATH): a name's `is`/`was`, `Let`, `Please`, `then` after a clause, `cannot`; fix: the "
        "English lexicon's share alone for a text with no other language's word or letter"))])
test_a_subject_naming_the_asked_answer_pays_above_a_box = paid_test(_cases([f"{s} {link}" for s in (
    "The numerical answer", "The only answer", "The unique answer", "The answer in simplest form", "The answer as a fraction",
    "The answer (in dollars)", "The answer we seek", "The maximum possible answer")
    for link in ("is:\n\\boxed{6}", "was:\n\\[x = 6\\]\n\\boxed{6}")]), marks=[pytest.mark.xfail(strict=True, reason=(
        "cost (rt37 f, new with fx29g): a colon line's `is:` reads an answer-naming subject by `_copula_subject`, whose "
        "`_answer_led` admits only the anchor's leads (`numerical`, `unique`, `only`, `in simplest form` are none); fix: "
        "those leads an allowlist grows, for both lines"))])
test_the_same_english_with_a_clause_pays = paid_test(_cases([(f"{s}\n#### 1,500", "1500") for s in (
    "She bought 1,500 eggs.", "The farm has 1,500 cows.", "The pool will hold 1,500 liters.", "Each box holds 1,500 pens.",
    "Tom and Ann earned 1,500 dollars.", "Without the discount, she pays 1,500 dollars.")]))


def _counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """`extract.<name>` wrapped so each call is counted (the work of the English reader, counted, not timed: no test
    asserts a time, common rules); the count is the list's one item."""
    calls, original = [0], getattr(extract, name)

    def counted(*args: Any) -> Any:
        calls[0] += 1
        return original(*args)
    monkeypatch.setattr(extract, name, counted)
    return calls


def _verb_tests(monkeypatch: pytest.MonkeyPatch, words: int, unit: str = "an ") -> int:
    """The `_finite_verb` calls that grading `unit` x `words` before an ambiguous `#### 2,500` makes in both profiles
    (a text of no English clause: refused)."""
    calls = _counting(monkeypatch, "_finite_verb")
    completion = unit * words + ".\n\n#### 2,500"
    verdicts = [grade_math({"completion": completion, "gold": "2500", "profile": p})["verdict"] for p in MATH_PROFILES]
    assert "correct" not in verdicts
    return calls[0]


@pytest.mark.xfail(strict=True, reason=(
    "cost (rt37 e, new with fx29h): an article or determiner opens up to three subjects, each tested as a finite verb: "
    "three `_finite_verb` calls a word, 1.3 to 1.7 s a MiB of CPU (parent 0.22 s), 2.6 to 3.5 times what 7fc3a2c "
    "sized the engine's on-loop read by; fix: each token tested as a verb once"))
def test_the_english_reader_tests_each_word_as_a_verb_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A constant per byte (red team class 9, the service stalled): the English reader asks of each word at most once
    whether it is a finite verb, however many subjects end before it."""
    words = 2000
    assert _verb_tests(monkeypatch, words) <= len(MATH_PROFILES) * words


def test_the_english_reader_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    """Untrusted text is parsed in linear time (docs DESIGN section 4): twice the words, twice the verb tests (held)."""
    small = _verb_tests(monkeypatch, 1000)
    large = _verb_tests(monkeypatch, 2000)
    assert 0 < small < large <= 2 * small + 16, (small, large)
