"""Answer extraction: find the one string a completion offers as its final answer.

Pure string work, no sympy, linear time: the server may call it in its event loop on a 1 MB
completion. Every scan is either a C-level `str.find`/`rfind` over the text or a regex over a
bounded window (`MathLimits.tail_chars`, `max_answer_chars`); no regex here can backtrack
catastrophically (no nested quantifiers).
"""

from __future__ import annotations

import ast
import re
from fractions import Fraction
from typing import NamedTuple, Sequence

from sandbox.checks import strip_end_tokens

from sandbox.contract import PROFILES

from .choices import read_choice
from .grammar import MAX_CHARS as GRAMMAR_MAX_CHARS
from .grammar import (
    after_value,
    anchor_clause,
    answer_phrase,
    anchor_lead,
    attached_phrase,
    box_clause,
    chain_agrees,
    box_lead,
    box_lead_clauses,
    box_subject,
    period_ends,
    closes,
    bare_link,
    statement_lines,
    concludes,
    last_break,
    marks_end,
    math_letter,
    LEXICON,
    NUMBER_WORDS,
    problem_names,
    grounded_names,
    lead_clauses,
    line_opens,
    read_sentence,
    has_verb,
    step_sentence,
    tail_window,
)
from .grammar import read as read_stated
from .limits import DEFAULT_LIMITS, MathLimits
from .unicode_math import to_ascii_math

THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"
_BOX_COMMANDS = ("\\boxed", "\\fbox")
_MAX_BOX_SKIPS = 16  # `\boxedx`-like commands skipped before giving up (keeps the scan linear)


class Extraction(NamedTuple):
    """What a completion offers as its answer, and where it was found."""

    text: str | None
    """The raw answer string (LaTeX or plain); for multiple choice the choice letter; for several
    boxes `\\boxed{a}, \\boxed{b}` (see `box_parts`). None: no answer."""
    source: str
    """"boxed" | "boxed:several" | "boxed:list" | "anchor" | "concluding" (a last sentence that concludes, `_concluding`) |
    "last" | "choice" (a multiple-choice letter) | "none"."""


NO_ANSWER = Extraction(None, "none")
SEVERAL_BOXES = "boxed:several"
LISTED_BOXES = "boxed:list"
"""Several boxes that one sentence states (`\\boxed{4} and \\boxed{3}`): one answer, their list, never
one of them (docs/math.md "Answer grammar", several boxes)."""

ANCHORS: tuple[tuple[str, str], ...] = (
    (r"####|\b(?:final\s+answer|answer(?:\*\*)?\s*:|answer\s+is\b)",
     "English: `####`, `Final Answer`, `answer:`, `answer**:`, `answer is`"),
    (r"答案(?:是|为|[:：])", "Chinese `答案是` / `答案为` / `答案：` (\"the answer is\"; MGSM's `答案是 11。`, MathVista's `所以，答案是 (D) 70°。`)"),
    (r"\b(?:antwort\s+(?:lautet|ist)\b|antwort\s*:)", "German `Die Antwort lautet` / `ist` / `Antwort:` (MGSM's `Die Antwort lautet 39.`)"),
    (r"\b(?:réponse(?:\s+finale)?\s+est\b|réponse(?:\s+finale)?\s*:)", "French `La réponse est` / `réponse finale est` / `Réponse :` (MGSM)"),
    (r"\b(?:respuesta(?:\s+final)?\s+es\b|respuesta(?:\s+final)?\s*:)", "Spanish `La respuesta es` / `respuesta final es` / `Respuesta:` (MGSM)"),
    (r"\bответ\s*[—–:]", "Russian `Ответ —` / `Ответ:` (MGSM's `Ответ — 11.`; a hyphen is left out: `Ответ -5` could be a sign)"),
    (r"答えは|答え[:：]", "Japanese `答えは` / `答え：` (MGSM's `答えは11です。`)"),
    (r"คำตอบคือ|คำตอบ\s*:", "Thai `คำตอบคือ` / `คำตอบ:` (MGSM's `คำตอบคือ 11`)"),
    (r"\b(?:jibu\s+ni\b|jibu\s*:)", "Swahili `Jibu ni` / `Jibu:` (MGSM's `Jibu ni 11.`)"),
    (r"উত্তর\s+(?:হল|হলো)|উত্তর\s*:", "Bengali `উত্তর হল` / `হলো` / `উত্তর:` (MGSM's `উত্তর হল 11।`)"),
    (r"సమాధానం\s*:?", "Telugu `సమాధానం` (\"answer\") / `సమాధానం:` (MGSM's `సమాధానం 11.`)"),
)
"""Final-answer anchors, one pattern per language, each with its reason (docs/math.md "Answer grammar").
An anchor only says where the answer starts: what follows it must still fit the answer grammar
(`grammar.read`), so a hedge, a scale word or a second value after any anchor is refused."""
# Case-insensitive, no nested quantifiers.
_ANCHOR_RE = re.compile("|".join(f"(?:{pattern})" for pattern, _ in ANCHORS), re.IGNORECASE)
_DECIMAL_COMMA_LANGUAGES = ("German", "French", "Spanish", "Russian")
"""The `ANCHORS` languages (named first in each reason) that write a decimal comma and group thousands with a point or a
space (`12.000` is twelve thousand in German and Spanish, `12,5` is 12.5): under their anchors a point before three
digits is no known decimal point (red team 29 class 5: `Die Antwort lautet 12.000 Euro.` paid gold 12)."""
_DECIMAL_COMMA_ANCHOR_RE = re.compile(
    "|".join(f"(?:{pattern})" for pattern, why in ANCHORS if why.split()[0] in _DECIMAL_COMMA_LANGUAGES), re.IGNORECASE)
_POINT_GROUPING_RE = re.compile(r"(?<![\d.,])[1-9]\d{0,2}\.\d{3}(?![\d.,])")
"""A number a point may group (`12.000`, `1.250`, `6.000`): one to three digits, not led by 0, one point and exactly
three digits after it; two points (`6.000.000`) are refused as any number with two points is (`parsing`)."""
_COMMA_GROUPING_RE = re.compile(r"(?<![\d.,(\[])[1-9]\d{0,2},\d{3}(?![\d.,)\]])")
"""A number a comma may mark as a decimal (`2,500`: 2.5 in German): as `_POINT_GROUPING_RE` with a comma. Two commas
(`2,500,000`) and both marks (`2.500,5`, `2,500.5`) have one reading, and so has a comma that closes or opens a bracket's
pair (`(12,102)`, math-verify's interval: a list, never one number)."""
_EQUATION_NUMBER = r"\d{1,12}(?:,\d{3}){0,4}(?:\.\d{1,12})?"
_EQUATION_OPERATOR = r"(?:[ \t]*(?:[+*×]|\\(?:times|cdot)(?![A-Za-z]))[ \t]*|[ \t]+x[ \t]+)"
_EQUATION_SIDE = rf"{_EQUATION_NUMBER}(?:{_EQUATION_OPERATOR}{_EQUATION_NUMBER}){{0,8}}"
_DECIMAL_OPERAND_RE = re.compile(
    rf"(?<![\w.,]){_EQUATION_SIDE}(?:[ \t]*=[ \t]*{_EQUATION_SIDE}){{1,4}}(?!\w|[.,]\d|[ \t]*(?:[-+*×=/^]|\\(?:times|cdot)|x[ \t]))")
"""An equation of numbers alone (`2.5 + 3.5 = 6`, `1.25 * 1,200 = 1,500`, `2 \\cdot 0.5 = 1`, GSM8K's `3 x 500 = 1,500`):
the only arithmetic read as a convention's evidence (`_equation_proofs`), never an operator beside a word,
markup or a bullet (`**Schritt 1.1**`, `+ 1.5 Sie`, `Um 14.30 + 2 Stunden`, `Kapitel 3.2 = Teil B`: red team 35 class 2). A hyphen is no operator here
(`14.30 - 16.00 Uhr` is a range of times); sizes bounded (12 digits, 9 terms a side, 5 sides)."""
_EQUATION_TERM_RE = re.compile(rf"({_EQUATION_NUMBER})|(=)|[+*×x]|\\(?:times|cdot)")


def _equation_proofs(region: str) -> tuple[bool, bool]:
    """Which conventions `region`'s equations of numbers alone (`_DECIMAL_OPERAND_RE`) prove, as (English, continental):
    an equation proves one where every number of it reads in both conventions (`_english`, `_continental`: a whole
    number, `1,500`, `1.250`) and it holds read one way and not the other (`3 x 500 = 1,500`, `1.500 x 2 = 3` prove
    English; `3 x 500 = 1.500`, `1,250 x 4 = 5` the decimal comma's, which refuses: rt37 class 4). A number with no
    reading in the other convention is evidence for neither (red team 36 class 2: a date's, a time's, a section's or a
    grade's point is no decimal point, `24.12 + 7 = 31.12`, `14.30 + 2 = 16.30`, `Note 1.3 + 0.4 = 1.7`; an allowlist
    of readings, never a list of what a point may mean), and so is an equation that holds either way (`1,500 + 1,500 =
    3,000`) or is part of more (red team 35 class 2: a section number or a time beside an operator)."""
    english_proof = continental_proof = False
    for match in _DECIMAL_OPERAND_RE.finditer(region):
        if _continues(region, match.start()):
            continue  # a part of a longer expression (`x + 2.5 + 3.5 = 6`, `5 - 2.5 = 2.5`): not numbers alone
        numbers = _EQUATION_NUMBER_TOKEN_RE.findall(match.group())
        english = [_english(n) for n in numbers]
        continental = [_continental(n) for n in numbers]
        if None in english or None in continental:
            continue  # `24.12`, `2.5`, `1,500.5`, `0.125`: a number of one reading proves neither convention
        holds = _equation_holds(match.group(), english)
        if holds != _equation_holds(match.group(), continental):
            english_proof, continental_proof = english_proof or holds, continental_proof or not holds
    return english_proof, continental_proof


_ENGLISH_NUMBER_RE = re.compile(r"[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
"""A number the English convention reads (`_english`): thousands grouped in threes by commas, led by no 0 (`1,500`,
`12,000.5`), or none grouped (`2.5`, `1250`)."""
_CONTINENTAL_NUMBER_RE = re.compile(r"[1-9]\d{0,2}\.\d{3}|\d+(?:,\d+)?")
"""A number a decimal comma's convention reads (`_continental`): one group of three after a point, led by no 0
(`12.000`), or a whole number with at most a decimal comma (`1,500`, `0,5`); the operand grammar holds one point or
comma group at most of the first kind."""


def _english(number: str) -> Fraction | None:
    """`number`'s reading with a decimal point and a grouping comma (`1,500` is 1500, `1.250` is 1.25), None where it
    has none (`1234,500`, `0,125`: no grouping in threes)."""
    return Fraction(number.replace(",", "")) if _ENGLISH_NUMBER_RE.fullmatch(number) else None


def _continental(number: str) -> Fraction | None:
    """`number`'s reading with a decimal comma and a grouping point (`1,500` is 1.5, `12.000` is 12000), None where it
    has none (`2.5`, `24.12`, `0.125`, `1,500,000`, `1,500.5`)."""
    if not _CONTINENTAL_NUMBER_RE.fullmatch(number):
        return None
    return Fraction(number.replace(".", "").replace(",", "."))


def _equation_holds(equation: str, values: Sequence[Fraction | None]) -> bool:
    """Whether `equation` (numbers, `+`, products and `=` alone) has an operator and every side equal, its numbers
    read as `values` in order: products first, then sums (`2 + 0.5 * 4` is 4)."""
    sides: list[list[Fraction]] = [[]]
    ops: list[list[str]] = [[]]
    numbers = iter(values)
    for term in _EQUATION_TERM_RE.finditer(equation):
        if term.group(1):
            sides[-1].append(next(numbers) or Fraction(0))
        elif term.group(2):
            sides.append([])
            ops.append([])
        else:
            ops[-1].append("+" if term.group() == "+" else "*")
    return any(ops) and len({_sum_of_products(side, side_ops) for side, side_ops in zip(sides, ops)}) == 1


_EQUATION_NUMBER_TOKEN_RE = re.compile(_EQUATION_NUMBER)
_EQUATION_CONTINUES_RE = re.compile(r"(?:[-+*×/^]|\\(?:times|cdot)|(?<![A-Za-z])x)[ \t]*\Z")
"""An operator just before an equation's first number: the equation is a part of a longer expression (an `=` is not:
`Total = 1.25 * 1,200 = 1,500` names the equation's value)."""


def _continues(region: str, start: int) -> bool:
    """Whether an operator stands just before `start` (`_EQUATION_CONTINUES_RE`), read from the blanks before it back
    and a few characters more, never from the text's start: once per equation, a search from 0 made the check
    quadratic in a completion's size (red team 36: 240 KB of equations, 86 s of CPU)."""
    end = start
    while end and region[end - 1] in " \t":
        end -= 1
    return bool(_EQUATION_CONTINUES_RE.search(region, max(0, end - 8), end))


def _sum_of_products(numbers: list[Fraction], operators: list[str]) -> Fraction:
    """One side of an equation of numbers: products first, then sums (`2 + 0.5 * 4` is 4)."""
    total, term = Fraction(0), numbers[0]
    for operator, number in zip(operators, numbers[1:]):
        if operator == "*":
            term *= number
        else:
            total, term = total + term, number
    return total + term


ENGLISH_FUNCTION_WORDS: tuple[tuple[str, str], ...] = (
    ("the and with from that this these those than then there their they them she his him its it our us you your "
     "were have does did would could should shall been being which what who whom whose when where why how each "
     "every many much both either neither other another such only very not yes if because "
     "since into onto out up about after before between through during within without again here get "
     "gets got may might thus hence therefore",
     "English function words: the closed classes (pronouns, determiners, auxiliaries, prepositions, conjunctions) "
     "every English sentence is made of, so English prose shows some; they count toward the share of English words, "
     "and none proves English alone, since other languages spell some of them in ASCII (red team 36 class 1: "
     "Norwegian `and`, German `Not`, Swedish `get`, Vietnamese without marks `them`, `the`, `may`): English syntax "
     "does (`_english_clause`)"),
    ("is was in an at on am be do of we had so also to by for per her over under once as or but all let has he are "
     "more most some just must can divide divides calculate any add",
     "English words that other languages write too (Dutch `is`, `was`, `we`, `had`, `of`, `over`, `let op`, `most`; "
     "German `in`, `an`, `am`, `so`, `also`, `just`; Danish `at`, `for`, `her`, `under`; French `on`, `or`, `as`, `but`; "
     "Polish and Czech `to`, `do`, `by`, `let`; Italian `per`, `all'`, `more`; Spanish `once`, `has`, `he`, `divide`; "
     "Portuguese `as`, `some`, `divides`; Romanian `are`, `calculate`; Swedish `all`, `just`; Turkish `can`; Estonian "
     "`must`; Catalan `any`; Hungarian `add`): they count toward the share of English words, never as its proof (red team 35 class 1: `Or on a donc "
     "2,500 kg`, `Si has comprado once cajas`)"),
    ("compute computes computed computing calculates calculated calculating solve solves solved solving "
     "simplify simplifies simplified simplifying substitute substitutes substituted substituting equals yields gives "
     "adds added adding subtract subtracts subtracted subtracting multiply multiplies multiplied multiplying "
     "divided dividing",
     "English verbs of a computation, spelled so in no decimal-comma language (`berechnen`, `berekenen`, `calculer`, "
     "`calcular`): a worked solution's prose (`We compute.`, `y equals 1,000`) is English by them"),
)
"""The closed lexicon that measures whether a text is English (`_english_words`), one group per reason: the one home
of what counts as an English word in the separator check (docs/math.md "Answer grammar", a separator's two readings)."""
_ENGLISH_WORDS = frozenset(w for words, _ in ENGLISH_FUNCTION_WORDS for w in words.split())
_COMPUTATION_VERBS = frozenset(ENGLISH_FUNCTION_WORDS[2][0].split())
_IRREGULAR_PASTS = frozenset(
    "arose awoke bore beat became began bent bet bit bled blew broke brought built burnt bought caught chose clung "
    "came cost crept cut dealt dug drew drank drove ate fell fed felt fought found fled flung flew forbade forgot "
    "forgave froze got gave went grew hung heard hid hit held hurt kept knelt knew laid led leapt lent lay lit lost "
    "made meant met paid put quit read rode rang rose ran said saw sought sold sent set shook shone shot shrank shut "
    "sang sank sat slept slid spoke sped spent spun split spread sprang stood stole stuck stung struck swore swept "
    "swam swung took taught tore told thought threw trod understood woke wore won wound wrote withdrew "
    "been done gone given taken eaten seen written known grown shown driven ridden thrown drawn flown worn torn "
    "broken chosen spoken stolen frozen forgotten hidden bitten beaten fallen risen shaken begun sung swum drunk "
    "become".split())
"""English's irregular pasts and participles, a closed class (the strong verbs and their kin): a finite verb after an
English subject (`_english_clause`: `He drove`, `Sam sold`), or a participle after a name's auxiliary (`Mark has
driven`), where the regular form is a listed verb's `-ed` (`_VERB_FORMS`; red team 36 cost e)."""
_ENGLISH_PERSONS = {
    "he": "singular", "she": "singular", "it": "singular", "this": "singular", "that": "singular",
    "i": "plural", "you": "plural", "we": "plural", "they": "plural", "there": "plural"}
"""English's subject pronouns (`I` only in capitals), each with the verb forms it takes (`_SUBJECT_VERBS`)."""
_SUBJECT_VERBS = {
    "singular": frozenset("is was has had does did can could will would shall should must might may".split()),
    "plural": frozenset("am are is was were have had do did can could will would shall should must might may".split()),
    "noun": frozenset("is are was were has have had does did can could will would should must might".split()),
    "article": frozenset("is was has had does did can could will would should must might".split()),
    "name": frozenset("has have were does did can could would should must might".split()),
}
"""The auxiliaries, modals and copulas each English subject takes (`_english_clause`; after `a` or `an`, which
French, Spanish, Italian and Portuguese write too, one of these alone): a name never takes `is`, `was`, `had`, `are`,
`will` or `may`, which Dutch (`Piet was`, `Jan is`, `Anna had`), German (`Frau will`), Romanian (`Ion
are`, "has") and Vietnamese (`may`) write after a noun too; a name proves English with `has`, a modal, a past or an
`-s` form instead (`Mark has`, `Tom can lift`, `Sam sold all`)."""
_MODALS = frozenset("can could will would shall should must might may".split())
_DO_SUPPORT = frozenset("do does did".split())
"""English's `do`: an auxiliary only before `not` or a bare verb (`_finite_verb`)."""
"""English's modals: after a name, one proves English only before a bare verb (`Tom can lift`; Turkish `Ayse can`)."""
_BARE_VERBS = frozenset(
    "add afford apply ask assume bake be borrow bring build buy call carry catch change charge check choose clean "
    "collect compare conclude consider contain continue cook cost count cover cut decide deliver deposit drink drive "
    "earn eat express feed fill find finish fit fix fly get give grow have help hire hold invest jog keep knit know "
    "learn lift like make measure need note order own pack paint pay pick plant play pour practice print produce prove "
    "put raise reach read receive remove rent repair return rewrite ride run save say score see sell send serve sew "
    "share ship shop show sleep spend split start study swim take teach tell think throw travel try use verify visit "
    "wait walk want wash watch wear weigh win work write "
    "arrange attend bike borrow brew burn chop climb close complete craft cycle dance design dig donate download drop "
    "dry edit enter fold gain gather guess hand harvest hike hunt iron join jump kick knock land lend lose mail mark "
    "melt mix mop mow move offer open park pass peel place plan plow post prepare press pump purchase push race rake "
    "record recycle reduce refill repeat replace reserve roll sail scan scoop shovel sign slice sort spray stack stamp "
    "stir stock store sweep tape taste test tie toss trade train trim type unload vote water weave wrap".split()) | (
    _COMPUTATION_VERBS)
"""English verbs in their bare form (an allowlist): after a plural subject (`I`, `you`, `we`, `they`, `A duck and a
goose`: `We add them`, `They get`) and after a modal (`Tom can lift`, `The answer can be`), since Dutch writes `we`
before its own words (`we dus`) and Vietnamese without its marks writes a name, `can` ("needs") and its own verb
(`Nam can ban 2,500 kg`, bán, "sell"; `lay`, lấy, "take", is left out; so are `do`, Slavic `I do`, "and to", and
`come`, Spanish `comes`, "you eat", Italian `come`, "how"). Their `-s` and `-ed` forms (`_VERB_FORMS`) are the only
regular finite verbs that prove English: a word's shape is none (red team 37 class 1: `Anna keres`, `Hoje tens`,
`Akkor veszed` paid)."""


def _forms(verb: str) -> tuple[str, ...]:
    """A regular English verb's third person and past (`sells`, `fixes`, `tries`; `added`, `baked`, `tried`,
    `shipped`), spelled by English's rules."""
    stem = verb[:-1] + "i" if verb.endswith("y") and verb[-2:-1] not in "aeiou" else verb
    third = stem + "es" if stem != verb or verb.endswith(("s", "x", "z", "ch", "sh", "o")) else verb + "s"
    past = stem + "ed" if stem != verb else verb + "d" if verb.endswith("e") else verb + "ed"
    double = (verb + verb[-1] + "ed",) if len(verb) <= 4 and verb[-1] in "bdgmnprt" and verb[-2:-1] in "aeiou" and (
        verb[-3:-2] not in "aeiou") else ()
    return third, past, *double


_VERB_FORMS = frozenset(f for v in _BARE_VERBS for f in _forms(v))
"""The `-s` and `-ed` forms of `_BARE_VERBS`, the regular finite verbs that prove English (`_finite_verb`)."""
_MODAL_ADVERBS = frozenset("not also only then now still just already never more less".split())
"""Adverbs between a modal and its bare verb (`can also be`, `will then pay`) or after a name's auxiliary (`Mark has
only`)."""
_DETERMINERS = frozenset("the this that those each every both your our their its".split())
"""English determiners that open a subject (`The total is`) or a phrase (`of the students`): none is another
language's article (French and Portuguese `a`, Danish `her`, Turkish `his` and `her`, Swedish `all`, as in `for all
mjolk`, Polish, Czech and Afrikaans `my`, "we", as in `My vrag was`, are left out); `the` before a lone noun proves nothing (French `Le the vert`, Vietnamese `Nhu the la`), only
with its verb or its preposition."""
_OBJECT_OPENERS = frozenset(
    "the a an this that these those each every his her its their our my your all both them him it us some half "
    "twice to".split())
"""What an English verb's object opens with besides a number (`_english_clause`'s follow: `Sam sold all 1,500`)."""
_PREPOSITIONS = frozenset("of in to for with from on at by into onto than about after before between through "
                          "during within without over under per".split())
"""English prepositions that open a phrase before an English determiner (`_phrase_of`)."""
_CONTRACTION_RE = re.compile(
    r"(?<![A-Za-z])(?:it|he|she|that|there|what|let|I|you|we|they)'(?:s|re|ll|ve|d|m)(?![A-Za-z])|[a-z]n't(?![A-Za-z])",
    re.IGNORECASE)
"""English's contractions (`it's`, `there's`, `I'm`, `we've`, `doesn't`): a pronoun's clitic or a negation, written
so in no other language (French `l'`, `qu'`, Italian `all'` clip the word before)."""
_MATH_CONNECTIVES = frozenset("and thus hence therefore where then if".split())
"""Words that join math and say nothing of a language (`\\boxed{1} and \\boxed{2}`, `$21, 36, and 82$`): a text of
one or two of them and math alone is math alone (`_english_words`). Not `or`: French `Or:` ("gold", red team 37)."""
_CONNECTIVES = frozenset("thus hence therefore".split())
"""English connectives that open a sentence (`Thus $x = 6$`, `Hence,`): in that place, no other language's word."""
_IMPERATIVE_VERBS = frozenset("add subtract multiply divide calculate compute find solve simplify sum count".split())
"""A computation's imperative at a sentence's start (`Add all:`, `Divide 3,000 by 2:`), English only with its object in
English order (`_english_imperative`)."""
_IMPERATIVE_LINKS = frozenset("by to from and with".split())
_IMPERATIVE_OBJECTS = frozenset("the all each every both them these those this half twice".split())
"""What an imperative's object opens with in words (`Add all:`, `Divide the total`): no article or `to`, which other
languages write after a word spelled as the imperative (red team 37: `Divide a`, `Add a`, `Find to`)."""
"""What links an imperative's two numbers in English order (`Divide 3,000 by 2`; Spanish `entre`, French `par`)."""
_CLAUSE_TOKEN_RE = re.compile(r"[A-Za-z]+|\\?\$|\d+(?:[.,]\d+)*|[^\sA-Za-z\d$\\]+|\\")
"""A clause's tokens: a word, a dollar sign, a number, a run of other marks (a clause's words stand with blanks only
between them, so a mark parts them: `total_of_the_boxes` holds no phrase)."""
OTHER_LANGUAGES_FUNCTION_WORDS: tuple[tuple[str, str], ...] = (
    ("der und ist sie nicht ein eine einen einem mit auf sind wir ich auch noch oder aber dem des vom zum zur wird "
     "werden hier sich nach wie", "German"),
    ("het een zijn heeft niet ook voor wij ik zij naar maar dus nog bij uit deze wordt hebben", "Dutch"),
    ("og och er har det ett til till av af som jeg jag ikke inte hver hvor fra hun han hon ham vil skal med en",
     "Norwegian, Danish and Swedish"),
    ("le les une des est et il elle pour avec dans sur que qui pas sont nous vous ils au aux ce cette ses donc mais",
     "French"),
    ("el los las una del es en con por para tiene tienen pero entonces cada entre ahora hoy muy cuando donde "
     "tambien porque tu tienes vendes debes puedes quieres haces pones sabes bebes vives", "Spanish (its second "
     "person's `-es`, `tienes`, `vendes`, is an English third person's shape)"),
    ("il lo gli della che sono anche quindi ogni", "Italian"),
    ("os um uma com tem sao nao entao hoje voce muito quando porque tambem ainda depois", "Portuguese"),
    ("ja ovat ei ne etta kuin jos taas myos oli olivat mutta niin joka kun siis", "Finnish"),
    ("ve bir bu ile icin yok cok ama gibi kadar daha", "Turkish"),
    ("dan yang di ke dari ini itu ada dengan untuk punya adalah jadi tidak kita saya mereka akan sudah",
     "Indonesian and Malay"),
    ("la cua va mua nhu cho voi khong duoc nay toi nhieu bao mot cac nhung cung thi roi lai anh ong ban",
     "Vietnamese written without its marks"),
)
"""Function words of decimal-comma languages written in ASCII that English does not write in lower case, one group
per language: one of them in lower case refuses the proof of English (`_english_words`), only ever refusing, over the
allowlist that proves English (`_english_clause`): Vietnamese `Toi can mua 2,500 kg.` has the clause shape of `Tom
can lift 1,500 kg.`, and only its words tell them apart (red team 36 class 1). English words (`die`, `van`, `hat`,
`hay`, `var`, `dia`, `on`, `per`) and a differential's (`da`, `di`) are left out; a clitic after an apostrophe (`we've`)
is none (`_FOREIGN_WORD_RE`)."""
_FOREIGN_WORD_RE = re.compile(r"(?<![\\A-Za-z'\u2019])[a-z]{2,}(?![A-Za-z])")
"""A word in lower case that is no LaTeX command's name and no clitic after an apostrophe (`we've`, `it’s`)."""
_OTHER_LANGUAGES_WORDS = frozenset(w for words, _ in OTHER_LANGUAGES_FUNCTION_WORDS for w in words.split())
_ENGLISH_SHARE = 0.2
"""The least share of a text's ASCII words (units aside) that are `ENGLISH_FUNCTION_WORDS`: English prose runs near
half (`The answer is 2,500.` 2 of 3), GSM8K's terse steps a fifth or more; another language's prose with an English word
or two in it stays below."""
_NEUTRAL_WORDS = frozenset(
    w.lower() for e in LEXICON if e.role in ("unit", "currency", "percent") for w in e.words) - _ENGLISH_WORDS
"""Units, currencies and percent (grammar.LEXICON's `unit`, `currency`, `percent` entries: `kg`, `μm`, `USD`) name what
a number counts in any language: no word of one (but `in`, `am`, English words too)."""
_ENGLISH_ANCHOR_RE = re.compile(ANCHORS[0][0], re.IGNORECASE)
"""The English anchor (`ANCHORS`' first): its sentence is the answer's, no evidence of the text's language, so it is
not read (`_english_words`): alone it leaves math alone (`Final Answer: 12.000`, `The answer is 2,500.` pay), and under
another language's prose it makes it no English (`Er hat 12.000 im Jahr.\\nFinal Answer: 12.000`, `Sie hat 2,500
kg.\\nThe answer is 2,500.`)."""
_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?])\s+|\n")
"""Where `_english_words` cuts a text into sentences: a line's end, or a sentence's mark before a space."""
_ASCII_WORD_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}(?![A-Za-z])")
"""An ASCII word of prose: two Latin letters or more, not a LaTeX command's name (`\\frac`, `\\texteuro`)."""
_LETTERS_RE = re.compile(r"[^\W\d_]+")
"""A run of letters of any script (`_point_script_letters` reads each run outside the decimal-point scripts)."""
_POINT_SCRIPT_RE = re.compile(r"[\u0980-\u09ff\u0c00-\u0c7f\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+")
"""Letters of scripts whose languages write a decimal point and group with a comma (Bengali, Telugu, Thai, Japanese
kana, Chinese and Japanese Han, Korean Hangul: MGSM's and MathVista's `答案是`, `คำตอบคือ`, `উত্তর হল`, `సమాధానం`). Any
other letter outside ASCII (`ä`, `ł`, `ğ`, `ã`, `ậ`, Greek, Cyrillic) but one Greek math letter alone
(`grammar.math_letter`: `α`) is of a language not known to (red team 33 class 2: Polish, Czech, Turkish, Portuguese,
Greek, Vietnamese, Lithuanian `2,500` paid 35 of 40)."""
_COMBINING_RE = re.compile(r"[\u0300-\u036f]")
"""A combining accent (`q\u0301`, one the fold does not compose): a letter outside ASCII as a composed `ó` is."""
_LATEX_LETTER_RE = re.compile(
    r"\\[\"'`^~=.][ \t]*\{?[A-Za-z]|\\[uvHckrdb]\{[A-Za-z]\}|\\(?:ss|ae|AE|oe|OE|aa|AA|o|O|l|L|i|j)(?![A-Za-z])")
"""A letter outside ASCII spelled in LaTeX: a text accent (`\\"o`, `\\'e`, `\\v{s}`, `\\c{c}`) or a letter command
(`\\ss`, `\\o`, `\\l`, `\\ae`): a letter of no known language as one written in Unicode is (red team 33 class 2b:
`Gr\\"o\\ss e`)."""


_DECIMAL_COMMA_EVIDENCE_RE = re.compile(
    r"(?<![\d.,])\d+,\d{1,2}(?![\d,])|(?<![\d.,])[1-9]\d{0,2}(?:\.\d{3})+,\d+(?!\d|[.,]\d)"
    r"|(?<![\d.,])[1-9]\d{0,2}(?:\.\d{3}){2,}(?!\d|[.,]\d)|€|\bEUR\b|\beuros?\b|\\texteuro(?![A-Za-z])", re.IGNORECASE)
"""What shows a text of a decimal-comma language besides its anchor (`_decimal_comma_text`): a decimal comma (`12,5`),
a number grouped by points before a decimal comma (`2.500,50`) or grouped twice by points (`1.500.000`: rt37 class 4,
neither has an English reading) or the euro (`€`, `EUR`, `euro`, LaTeX's `\\euro` and `\\texteuro`: red team 33
class 2b). Evidence only ever refuses, over the allowlist; the letters English does not write are no longer listed
here (fx29e): `_point_script_letters` admits only the letters of decimal-point scripts."""


def grouping_ambiguous(completion: str, answer: str) -> bool:
    """Whether `answer`, found in `completion` (all of it, a reasoning block's text too: red team 32 class 7), holds a
    number whose one separator may group thousands or mark the decimal, so it is refused against both readings
    (docs/math.md "Answer grammar", a separator's two readings). Both are read as compared (`_as_compared`: red team
    32 class 6). The language is the completion's, never the answer's line (red team 30 class 3: `Die Antwort
    lautet:\\n\\boxed{12.000}` paid 12). A point before three digits (`_POINT_GROUPING_RE`: `12.000`, 12 or 12000) and
    a comma before three digits (`_COMMA_GROUPING_RE`: `2,500`, 2.5 or 2500) have their English readings (a decimal
    point, a thousands comma: `parsing.decimal_comma`'s `1,220` is 1220) only in a text known to write them, an
    allowlist (`_decimal_point_text`); elsewhere neither reading is paid (fx29e: `Sie hat 2,500 kg.\\n#### 2,500`,
    `Schritt 1.1: Sie hat 12.000 Stifte.\\n\\boxed{12.000}` paid 2500 and 12). One test of the language for both."""
    answer = _as_compared(answer)
    if not (_POINT_GROUPING_RE.search(answer) or _COMMA_GROUPING_RE.search(answer)):
        return False
    return not _decimal_point_text(_as_compared(completion))


def _decimal_comma_text(region: str) -> bool:
    """Whether `region` shows a language that writes a decimal comma: one of its anchors anywhere
    (`_DECIMAL_COMMA_ANCHOR_RE`) or its evidence (`_DECIMAL_COMMA_EVIDENCE_RE`: a decimal comma, the euro). Evidence
    only ever refuses, over the allowlist (`_decimal_point_text`)."""
    return bool(_DECIMAL_COMMA_ANCHOR_RE.search(region) or _DECIMAL_COMMA_EVIDENCE_RE.search(region))


def _decimal_point_text(region: str) -> bool:
    """Whether `region` (as compared) is known to write a decimal point and group thousands with a comma: no evidence
    of a decimal-comma language (`_decimal_comma_text`, an equation that holds only with a decimal comma:
    `_equation_proofs`), every letter of a script known to (`_point_script_letters`), no other language's function
    word (`OTHER_LANGUAGES_FUNCTION_WORDS`, which refuse every proof below: rt37 class 5, `3 x 500 = 1,500. Sie hat
    12.000 kg.`), and either its words are English or none (`_english_words`) or it does arithmetic that holds only in
    that convention (`_equation_proofs`: `2.5 + 3.5 = 6`, `3 x 500 = 1,500`). Any other text (`Also kostet es 12.000.`,
    `A resposta é 6.000.`, `Więc łącznie 2,500 kg.`) is of no known convention, and a separator that may be either is
    paid under neither."""
    if _decimal_comma_text(region) or not _point_script_letters(region):
        return False
    english, continental = _equation_proofs(region)
    if continental:
        return False
    sentences = _prose_sentences(region)
    if _other_languages_word("\n".join(sentences)):
        return False
    return english or _english_words(sentences)


def _point_script_letters(region: str) -> bool:
    """Whether every letter of `region` outside ASCII is of a script whose languages write a decimal point
    (`_POINT_SCRIPT_RE`), a Greek math letter alone (`grammar.math_letter`: `α`) or a unit's (`μm`), and none is
    spelled in LaTeX (`_LATEX_LETTER_RE`): an allowlist of scripts (red team 33 class 2: `Więc łącznie 2,500 kg.`)."""
    if _LATEX_LETTER_RE.search(region) or _COMBINING_RE.search(region):
        return False
    others = _POINT_SCRIPT_RE.sub(" ", region)
    return all(run.isascii() or math_letter(run) or run.lower() in _NEUTRAL_WORDS for run in _LETTERS_RE.findall(others))


def _prose_sentences(region: str) -> list[str]:
    """`region`'s sentences as its language is read (`_SENTENCE_SPLIT_RE`), with the letters of decimal-point scripts,
    environments' names and the sentence of an English anchor (`_ENGLISH_ANCHOR_RE`) left out."""
    return [s for s in _SENTENCE_SPLIT_RE.split(_ENVIRONMENT_RE.sub(" ", _POINT_SCRIPT_RE.sub(" ", region)))
            if not _ENGLISH_ANCHOR_RE.search(s)]


def _other_languages_word(prose: str) -> bool:
    """Whether `prose` holds a function word of a decimal-comma language in lower case (`OTHER_LANGUAGES_FUNCTION_WORDS`):
    only ever refusing, over every proof of the English convention (`_decimal_point_text`)."""
    return any(w in _OTHER_LANGUAGES_WORDS for w in _FOREIGN_WORD_RE.findall(prose))


def _english_words(sentences: list[str]) -> bool:
    """Whether the ASCII words of `sentences` (`_prose_sentences`: the English anchor's sentence, an environment's name
    left out), units aside (`_NEUTRAL_WORDS`), are none (math alone, `\\boxed{2,500}`, `答案是 2,500。`) or English: a
    run of English syntax (`_english_clause`: `Mark has 1,500`, `He drove`, `The total is`) or a computation's English
    verb (`ENGLISH_FUNCTION_WORDS`' third group: `We compute.`), and a share of `ENGLISH_FUNCTION_WORDS` of at least
    `_ENGLISH_SHARE` (another language's function word refuses before, `_decimal_point_text`). One word is no proof
    (red team 36 class 1: Norwegian `En and veier`, Swedish `En get vager`, Vietnamese `Me mua them` paid 784 of 800
    rows). Beside words in lower case, a word in capitals (`ABC`, `BAC`: geometry's points, MathVista) is not read.
    German, Dutch or Indonesian prose without a mark (`Sie hat 2,500 kg.`, fx29be's open row) is of no known language,
    and so is an English anchor under it (`Er hat 12.000 im Jahr.\\nFinal Answer: 12.000`)."""
    prose = "\n".join(sentences)
    found = [w for w in _ASCII_WORD_RE.findall(prose) if w.lower() not in _NEUTRAL_WORDS]
    words = [w.lower() for w in found if not w.isupper()] or [w.lower() for w in found]
    if not words or len(words) <= 2 and all(w in _MATH_CONNECTIVES for w in words):
        return True
    if sum(w in _ENGLISH_WORDS for w in words) < _ENGLISH_SHARE * len(words):
        return False
    return any(w in _COMPUTATION_VERBS for w in words) or any(_english_clause(s) for s in sentences)


def _english_clause(sentence: str) -> bool:
    """Whether `sentence` holds a run of English syntax (red team 36 class 1: one word other languages spell the same
    proves nothing): a subject (`_subjects`) followed, with blanks only between, by a finite verb it takes
    (`_finite_verb`), an English connective at its start (`_CONNECTIVES`), or a computation's imperative with its object in English order (`_english_imperative`)."""
    if _CONTRACTION_RE.search(sentence):
        return True
    tokens = _CLAUSE_TOKEN_RE.findall(sentence)
    if tokens and tokens[0].lower() in _CONNECTIVES:
        return True
    if any(_phrase_of(tokens, i) for i in range(len(tokens) - 2)):
        return True
    return any(_finite_verb(tokens, at, kind) for i in range(len(tokens)) for kind, at in _subjects(tokens, i)) or (
        _english_imperative(tokens))


def _phrase_of(tokens: list[str], i: int) -> bool:
    """Whether `tokens[i:i + 3]` is an English prepositional phrase: a preposition of `_PREPOSITIONS`, a determiner of
    `_DETERMINERS` and a word in lower case (`of the students`, `in each box`; Vietnamese `Nhu the la` has none)."""
    return tokens[i].lower() in _PREPOSITIONS and tokens[i + 1].lower() in _DETERMINERS and (
        tokens[i + 2].isalpha() and tokens[i + 2].islower())


def _subjects(tokens: list[str], i: int) -> list[tuple[str, int]]:
    """The subjects that `tokens[i]` opens, each as (its kind, the index of its verb): an English pronoun (`I` only in
    capitals), a determiner of `_DETERMINERS` (or an article, `a`, `an`) and one to three words in lower case (`The
    total`, `the alternate interior angles`), or a capitalised name of three
    letters or more that is no English function word (`Mark`, `Tom`), or a second noun after `and` (`A duck and a goose
    weigh`, a plural's)."""
    token, found = tokens[i], []
    lower = token.lower()
    if token == "I" or (lower in _ENGLISH_PERSONS and lower != "i"):
        found.append((_ENGLISH_PERSONS[lower], i + 1))
        if i + 1 < len(tokens) and tokens[i + 1] in _MODAL_ADVERBS:  # `She also bought` (red team 37 cost a)
            found.append((_ENGLISH_PERSONS[lower], i + 2))
    if lower in _DETERMINERS or lower in ("a", "an"):
        at, kind = i + 1, "noun" if lower in _DETERMINERS else "article"
        while at < len(tokens) and at <= i + 3 and tokens[at].isalpha() and tokens[at].islower():
            at += 1
            found.append((kind, _after_label(tokens, at)))
    if len(token) >= 3 and token.isalpha() and token[0].isupper() and token[1:].islower() and (
            lower not in _ENGLISH_WORDS):
        found.append(("name", i + 1))
    if token == "and":
        at = i + 2 if i + 1 < len(tokens) and tokens[i + 1].lower() in ("a", "an", *_DETERMINERS) else i + 1
        if at < len(tokens) and tokens[at].isalpha() and tokens[at][1:].islower():
            found.append(("plural", at + 1))
    return found


def _after_label(tokens: list[str], at: int) -> int:
    """The index after a math name that labels a noun (`the side AB is`, `the angle α is`, `the point $P$ is`): one
    to three capitals, one letter outside ASCII, or either in dollars; `at` where none stands."""
    def label(token: str) -> bool:
        return (token.isascii() and token.isalpha() and token.isupper() and len(token) <= 3) or (
            len(token) == 1 and not token.isascii() and token.isalpha())
    if at < len(tokens) and label(tokens[at]):
        return at + 1
    if at + 2 < len(tokens) and tokens[at] == "$" == tokens[at + 2] and label(tokens[at + 1]):
        return at + 3
    return at


def _finite_verb(tokens: list[str], at: int, kind: str) -> bool:
    """Whether `tokens[at]` is a finite verb an English subject of `kind` takes: an auxiliary, modal or copula of
    `_SUBJECT_VERBS`, a past (`_IRREGULAR_PASTS`, a listed verb's `-ed`), a listed verb's `-s` (`_VERB_FORMS`) after a
    singular subject, or a bare verb of `_BARE_VERBS` after `I`, `you`, `we`, `they`. After a name or a noun, the
    verb's object follows in English order (`_object_follows`), so a capitalised noun before a word in `-s`
    (German `Haus des Mannes`) is none; a name's modal comes before a bare verb (`Tom can lift`), and a name's verb is
    none of `ENGLISH_FUNCTION_WORDS` but `_SUBJECT_VERBS`' (Vietnamese without marks: `Lan got 2,500 kg tao`, gọt;
    `Nam can do 2,500 kg`, cần đo, "needs to measure"), and a name's auxiliary comes before its object, an adverb or a
    past (`Mark has 1,500`, `Mark has only`, `Mark has bought`; Spanish `Ahora has comprado` is none)."""
    if at >= len(tokens) or not (tokens[at].isalpha() and tokens[at].islower()):
        return False
    verb, follow = tokens[at], tokens[at + 1] if at + 1 < len(tokens) else ""
    if verb in _MODALS:
        after = tokens[at + 2] if follow in _MODAL_ADVERBS and at + 2 < len(tokens) else follow
        return verb in _SUBJECT_VERBS[kind] and after in _BARE_VERBS and (kind != "name" or after not in _ENGLISH_WORDS)
    if verb in _DO_SUPPORT:  # `I do not`, `They did buy`; Slavic `I do`, "and to", is none (red team 37)
        return verb in _SUBJECT_VERBS[kind] and (follow in ("not", "n't") or follow in _BARE_VERBS)
    if verb in _SUBJECT_VERBS[kind]:  # after a name or an article, before an English word (Polish `A dla was jest`)
        return kind not in ("name", "article") or _object_follows(follow) or follow in _MODAL_ADVERBS or (
            _past_form(follow) or (kind == "article" and follow in _ENGLISH_WORDS))
    if kind == "name" and verb in _ENGLISH_WORDS:
        return False
    past = _past_form(verb) and not (kind == "name" and verb in _BARE_VERBS)  # Croatian `Svaki put`: `put` a past?
    if kind == "article":
        return False
    if kind == "plural":
        return past or verb in _BARE_VERBS
    if not (past or (verb in _VERB_FORMS and verb.endswith("s"))):
        return False
    if kind == "noun":
        return _object_follows(follow) or (follow.isalpha() and follow.islower())
    return kind == "singular" or _object_follows(follow) or follow.lower() in _PREPOSITIONS


def _past_form(token: str) -> bool:
    """Whether `token` is an English past or participle of a listed verb: a regular one's (`_VERB_FORMS`: `added`,
    `baked`) or one of `_IRREGULAR_PASTS` (`drove`, `driven`; Spanish `comprado`, Hungarian `veszed` are none)."""
    return token in _IRREGULAR_PASTS or (token.endswith("ed") and token in _VERB_FORMS)


def _object_follows(token: str) -> bool:
    """Whether `token` opens an English verb's object: a number, a dollar sign or a word of `_OBJECT_OPENERS`."""
    return token[:1].isdigit() or token in ("$", "\\$") or token.lower() in _OBJECT_OPENERS


def _english_imperative(tokens: list[str]) -> bool:
    """Whether `tokens` open with a computation's imperative (`_IMPERATIVE_VERBS`) and its object in English order: an
    object opener (`Add all:`, `Divide the total`) or a number linked to another by an English preposition (`Divide
    3,000 by 2`; Spanish `Divide 3,000 entre 2` is none)."""
    if len(tokens) < 2 or tokens[0].lower() not in _IMPERATIVE_VERBS:
        return False
    if tokens[1].isalpha():
        return tokens[1].lower() in _IMPERATIVE_OBJECTS
    rest = tokens[1:6]
    return _object_follows(tokens[1]) and any(t in _IMPERATIVE_LINKS for t in rest)


_LATEX_SPACING_RE = re.compile(r"\\[!,;: ]")
"""LaTeX's spacing commands (`\\!`, `\\,`, `\\;`, `\\:`, `\\ `), which the comparison's parser reads as nothing (`12.\\!000`
is 12.000 to it): the separator check drops them all (red team 32 class 6), only ever refusing more."""


_BRACED_SEPARATOR_RE = re.compile(r"\{([,.])\}")
"""A separator in braces, `{,}` and `{.}`: how German, French and Russian LaTeX write a decimal comma (`2{,}5`), which
the comparison's parser reads as the bare separator's number (`2{,}500` is 2500 to it): the separator check reads it
as the separator (red team 33 class 1: `Die Antwort lautet \\boxed{2{,}500}.`, "2.5", paid 2500)."""


def _as_compared(answer: str) -> str:
    """`answer` (or the completion, the language's evidence) as the comparison reads its digits and separators: the one
    Unicode fold (`unicode_math.to_ascii_math`: full-width `１２．０００`, bold `𝟏𝟐`, zero-width characters dropped) with
    LaTeX's spacing commands dropped, so the separator check reads the number the comparison reads, never the raw text
    (red team 32 class 6), and `12.0\u200b00` is no decimal point's evidence (`_DECIMAL_OPERAND_RE`)."""
    return _BRACED_SEPARATOR_RE.sub(r"\1", _LATEX_SPACING_RE.sub("", to_ascii_math(answer)))


# What may sit between an anchor and the answer: spaces, bold markers, colon, "is".
_ANCHOR_LEAD_RE = re.compile(r"[\s*:_#]*(?:is\b[\s*:_]*)?", re.IGNORECASE)
# End of a sentence: a period (not a decimal point, not an ellipsis), `?`, or `!` not after a digit
# (`5!` is a factorial), then whitespace or the end; a CJK full stop or `！`, a danda `।` (Bengali, Hindi).
_SENTENCE_END_RE = re.compile(r"(?<!\.)\.(?!\.)(?=\s|$)|\?(?=\s|$)|(?<!\d)!(?=\s|$)|[。！।]")
_BRACE_RE = re.compile(r"\\[{}]|[{}]")
# Lenient fallbacks: the last math segment and the last number, never digits inside a word
# (`AZYUK2A`); a plain fraction `2/3` is one number.
_NUMBER_RE = re.compile(
    r"(?<![\w.^,])-?(?:\d+,(?!\d{3}(?![\d,]))|0,)\d+(?![\w,]|\.\d)"  # a decimal comma, `2,74` (parsing.decimal_comma)
    r"|(?<![\w.^])(?:-?\d+(?:,\d{3})*(?:\.\d+)?(?:[eE][-+]?\d+)?(?:\s*/\s*\d+(?!\d|\.\d))?(?:\s*\\?%)?|-?\.\d+)"
)
_MATH_DELIMS = (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"))
# A plain word (`\sqrt`, `\frac` are commands, not words): a bare expression has at most one.
_WORD_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}|[^\W\d_]*[^\W\d_A-Za-z][^\W\d_]*")
"""A word in `bare_expression`'s line: two ASCII letters or more, or any run of letters holding a letter of another script
(`не`, `δε`, `答案是`); of those, only a Greek math letter alone (`grammar.math_letter`: `α`) is a symbol (red team 29
class 3b: `не 答案是 6。` was read whole as math, `не` a product of two symbols)."""
# An anchor after the last box overrides it only when what follows looks like math, not prose
# ("So \boxed{12}. Checking: the answer is consistent." keeps 12).
_MATHY_RE = re.compile(r"[\d\\^=+*/()\[\]{}-]")
_BARE_MAX_CHARS = 200
_ENVIRONMENT_RE = re.compile(r"\\(?:begin|end)\{[A-Za-z*]+\}")  # `\begin{pmatrix}` holds no words
_FUNCTION_WORDS = frozenset(
    {"sqrt", "sin", "cos", "tan", "cot", "sec", "csc", "log", "ln", "exp", "pi", "infty", "inf", "oo", "arcsin", "arccos", "arctan"}
)
# Prose answers (`_prose_answer`): a dollar sign before an amount is a currency sign, `$4,500`, `-$5`.
_DOLLAR_AMOUNT_RE = re.compile(r"\\?\$(?=\s?-?\d)")


def extract_answer(
    completion: str, profile: str = "strict", choices: Sequence[str] | None = None, problem: str = ""
) -> Extraction:
    """Find the final answer of `completion` under `profile`; see the package docstring for the rules.
    `problem`: the task's problem text (MathTask.problem), whose names a step line above a caseless answer may use
    (`grammar.problem_names`); nothing else reads it.

    The parent uses (gold, profile, tuple(choices), extraction.text) as a dedup key for a GRPO group,
    so equal answers must come out as equal strings (hence stripping of `$`, bold and periods).
    """
    return extract_with_limits(completion, profile, choices, DEFAULT_LIMITS, problem)


def extract_with_limits(
    completion: str, profile: str, choices: Sequence[str] | None, limits: MathLimits, problem: str = ""
) -> Extraction:
    """`extract_answer` with explicit limits (tests use small ones)."""
    with problem_names(problem):
        return _extract(completion, profile, choices, limits)


def _extract(completion: str, profile: str, choices: Sequence[str] | None, limits: MathLimits) -> Extraction:
    """`extract_with_limits` under the problem's names."""
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}")
    completion = strip_end_tokens(completion)  # trailing <|im_end|> etc. (sandbox/checks.py)
    region = answer_region(completion, profile)
    if region is None:
        return NO_ANSWER
    if choices:
        return _extract_choice(region, profile, choices, limits)
    found = _extract_value(region, profile, limits)
    if found.text is not None and grouping_ambiguous(completion, found.text):
        # `Die Antwort lautet:\n\\boxed{12.000}`, `2,500`: one reading of a separator for every path (red team 30); the
        # language is the whole completion's, a reasoning block's included (red team 32 class 7), the answer the region's
        return NO_ANSWER
    return found


def _extract_value(region: str, profile: str, limits: MathLimits) -> Extraction:
    """The answer of `region` with no choices (`_extract`): after the last anchor, in the last boxes, a concluding
    sentence, or (lenient) the last value."""
    boxes = last_boxes(region, limits)
    anchor_at, anchored, after_anchor = last_anchor_span(region, limits)
    if anchored and (not boxes or anchor_at > boxes[0][0] and _MATHY_RE.search(anchored)):
        # a math answer stated after the last box wins, unless what follows retracts it or its point may group
        return Extraction(anchored, "anchor") if closes(after_anchor) and chain_agrees(anchored) else NO_ANSWER
    if boxes and boxes[0][1] is None:
        return NO_ANSWER if profile == "strict" else _last_expression(region, limits)
    stated = _stated_parts(region, boxes, limits) if boxes else []
    if stated is None:
        return NO_ANSWER  # `-\\boxed{6}`, `not \\boxed{6}`, `I doubt it is \\boxed{6}` (grammar.box_lead, box_clause)
    listed = len(stated) > 1
    parts = [content for _, content in stated] if listed else _joinable([content for _, content in boxes if content], limits)
    last = boxes[0][1] if boxes else None
    if parts and last and len(last) <= limits.max_answer_chars:
        read = _with_what_follows(region, boxes[0][0], parts[-1], limits)
        if read is None:
            return NO_ANSWER  # `\\boxed{6}. Wait, that's wrong.` (grammar.closes)
        parts[-1] = read
    if len(parts) > 1:
        starts = [start for start, _ in stated] if listed else [start for start, content in boxes if content][::-1]
        parts = _named_parts(region, starts[-len(parts):], parts)
        return Extraction(", ".join(f"\\boxed{{{part}}}" for part in parts), LISTED_BOXES if listed else SEVERAL_BOXES)
    if parts:
        return Extraction(parts[0], "boxed")
    if boxes:
        return NO_ANSWER if profile == "strict" else _last_expression(region, limits)
    concluded = _concluding(region, limits)  # read alike in both profiles, before the lenient fallback
    return concluded if concluded.text is not None or profile == "strict" else _last_expression(region, limits)


def _with_what_follows(region: str, start: int, part: str, limits: MathLimits) -> str | None:
    """`part`, the content of the box at `start`, read with the words attached after it (`\\boxed{6} thousand` is
    `6 thousand`, which the parser refuses; `\\boxed{12}!` is 12 factorial; `\\boxed{6} apples` is 6), or None when
    what follows its sentence does not close it (`\\boxed{6}. Wait, that's wrong.`: `grammar.closes`)."""
    attached = _attached_after_box(region, start, limits)
    if not closes(_after_box(region, start, attached, limits)):
        return None
    if attached == "!":
        return f"({part})!"
    return f"{part} {attached}" if attached and not after_value(attached) else part


def _concluding(region: str, limits: MathLimits) -> Extraction:
    """The value of a response's last sentence when it concludes with a named quantity and no box or anchor
    stands in the response (docs/math.md "Answer grammar", "A concluding sentence"): `So, the perimeter of ABCD is 2(6
    + 3) = 18.` is 18. The sentence opens with a concluding connective and names what its value is
    (`grammar.concludes`), and everything else in it and after it is read as a box in the value's place would be
    (`_stated_parts`, `_with_what_follows`: one reading), so a hedge, a scale, a second value, a subject naming another
    quantity or a retraction after it leaves no answer, in both profiles. The value is the last number or math segment
    of the tail (as `_last_expression` finds it; in a segment, the last side of its `=` chain)."""
    tail = to_ascii_math(tail_window(region, limits.tail_chars))
    value = _last_value(tail)
    if value is None:
        return NO_ANSWER
    start, end, text = value
    opened = _sentence_open(tail, start)
    if opened is None and (start > GRAMMAR_MAX_CHARS or len(region) > len(tail)):
        return NO_ANSWER  # the sentence's start is out of sight: no connective is known to open it
    first = opened or 0
    if not concludes(tail[first:start], text) or _unread_statement_before(tail, start, text):
        return NO_ANSWER
    stated = tail[:start] + "\\boxed{" + text + "}" + tail[end:]
    boxes = last_boxes(stated, limits)
    if len(boxes) != 1 or boxes[0][0] != start or boxes[0][1] != text:
        return NO_ANSWER  # braces in the value that the box would not close as written
    if _stated_parts(stated, boxes, limits) is None:
        return NO_ANSWER
    if not _ENDED_RE.match(_after_box(stated, start, _attached_after_box(stated, start, limits), limits)):
        return NO_ANSWER  # `So, the sum is 12` cut off (`120`): only a finished sentence concludes
    read = _with_what_follows(stated, start, text, limits)
    return Extraction(read, "concluding") if read else NO_ANSWER


_ENDED_RE = re.compile(r"[\s*_$]*(?:\\[)\]][\s*_$]*)?[.!。！।]")
"""The end mark of a concluding sentence, after its value and the words attached to it (closing math and bold may stand
between): a sentence cut off in the middle of its value (a truncated trace) concludes nothing."""


def _last_value(tail: str) -> tuple[int, int, str] | None:
    """(start, end, text) of the last value of `tail`: the later of the last math segment's content (its last side when
    it holds an `=` chain: `$x = 2 + 4 = 6$` -> `6`) and the last number (`_last_expression`'s choice); None if none."""
    seg = last_math_span(tail)
    num = None
    for num in _NUMBER_RE.finditer(tail):
        pass
    if seg is not None and (num is None or seg[1] >= num.end()):
        opener = next(o for o, _ in _MATH_DELIMS if tail.startswith(o, seg[0]))
        close = dict(_MATH_DELIMS)[opener]
        begin, stop = seg[0] + len(opener), seg[1] - len(close)
        eq = _last_equals(tail[begin:stop])
        if eq >= 0:
            begin += eq + 1
        while begin < stop and tail[begin].isspace():
            begin += 1
        while stop > begin and tail[stop - 1].isspace():
            stop -= 1
        return (begin, stop, tail[begin:stop]) if begin < stop else None
    if num is None:
        return None
    text = num.group()
    return num.start(), num.start() + len(text.rstrip()), text.strip()


def _last_equals(math: str) -> int:
    """Where the last `=` of `math` outside brackets stands (not `\\leq`, `<=`, `>=`, `!=`); -1 if none."""
    depth, found = 0, -1
    for k, c in enumerate(math):
        depth += 1 if c in "({[" else -1 if c in ")}]" else 0
        if c == "=" and depth == 0 and (k == 0 or math[k - 1] not in "<>!"):
            found = k
    return found


_GROUP_SEPARATOR_RE = re.compile(
    r"(?:,|;|\\text\s*\{[^{}]{0,40}\band\s*\}|\band)?(?:\s|\$|\\q?quad\b|\\[,;])*$")
"""What may join a list of boxes (`\\boxed{1}, \\boxed{2}`, `\\boxed{1} \\quad \\text{and} \\quad \\boxed{2}`)."""
_ANCHOR_END_RE = re.compile(r"[\s*:$]*$")


def _stated_group(region: str, boxes: list[tuple[int, str | None]], limits: MathLimits) -> int | None:
    """Where the list of boxes the last box ends starts (the last box's own start when it ends none),
    when it stands as a stated answer, not inside something larger; else None (`grammar.box_lead`,
    docs/math.md "Answer grammar"): its lead, or the lead of the first box of a list of boxes it ends
    (`\\boxed{1}, \\boxed{2}`), passes the grammar, or an answer anchor ends right before it."""
    ends = {}
    for start, content in boxes:
        if content is not None:
            cmd = next(c for c in _BOX_COMMANDS if region.startswith(c, start))
            ends[_box_span(region, start + len(cmd), limits)[1]] = start
    start = boxes[0][0]
    for _ in range(len(boxes)):
        before = region[max(start - 200, 0): start]
        sep = _GROUP_SEPARATOR_RE.search(before)
        if sep is None:
            break
        end = start - len(before) + len(_GROUP_SEPARATOR_RE.sub("", before[: sep.start()]).rstrip(" $"))
        if end not in ends:
            break
        start = ends[end]
    prefix = region[max(start - 200, 0): start]
    content = next((c for at, c in boxes if at == start), None)  # what a display above must state (grammar._math_line)
    return start if box_lead(prefix, content) or _anchor_ends_at(prefix) else None


_BOX_CLAUSE_BREAK_RE = re.compile(r"(?<!\.)[.!?](?=\s)|[。！？：；]|[,，;:](?!\d)")
"""Where a box's clause starts besides the text's start: after a sentence end, a comma, semicolon or colon (a label's,
which `grammar.box_label` reads), or a line break after a statement (`grammar.statement_lines`): as for an anchor, a clause
before a comma is not read, but a box alone after a comma is read with the clause before it (`If n is odd,
\\boxed{6}`). A line break and a display's delimiters (`\\[`, `$$`, `\\begin{align*}`, a row's `\\\\`) are spacing inside
a sentence (red team 16 class 1: `The answer is not\\n\\boxed{6}`, `The value of $x$ such that $$x > 7$$ is \\boxed{6}`
started the box's clause after the break or the display, so the words before it were never read)."""
_BOX_SENTENCE_BREAK_RE = re.compile(
    r"\n|(?<!\.)[.!?](?=\s)|[。！？]|\\\]|\$\$|\\(?:begin|end)\s*\{[A-Za-z*]+\}|\\\\")
"""Where a box's sentence starts: after a line break, a sentence end, or a display's end or row
(`\\]`, `$$`, `\\end{align*}`, `\\\\`). Every box of the last box's sentence is part of one answer."""
_BOX_JOINER_RE = re.compile(r"(?:\s|\$|\\q?quad\b|\\[,;]|[,;]|\\text\s*\{\s*and\s*\}|\band\b)*")


def _stated_parts(
    region: str, boxes: list[tuple[int, str | None]], limits: MathLimits
) -> list[tuple[int, str]] | None:
    """The starts and contents of the boxes the last box's sentence states, in order (one, or a list), or None
    when that sentence states no answer (docs/math.md "Answer grammar", before a box): the mark or
    word right before each box passes `grammar.box_lead`, and the words of its sentence that lead to
    it pass `grammar.box_clause` (the first box's back to the sentence start or an anchor's end; a
    later box's back to the box before it, after a joiner: `x is \\boxed{1}, y is \\boxed{2}`)."""
    first = _stated_group(region, boxes, limits)
    if first is None:
        return None
    cmd = next(c for c in _BOX_COMMANDS if region.startswith(c, boxes[0][0]))
    last_end = _box_span(region, boxes[0][0] + len(cmd), limits)[1]
    begin = _box_sentence_start(region, first)
    spans = [(begin + a, begin + b, content) for a, b, content in box_spans(region[begin: boxes[0][0]])]
    spans.append((boxes[0][0], last_end, boxes[0][1] or ""))
    # the values the subjects stand beside, as the comparer reads them: the last box with the words attached after it
    # (`\\boxed{12}!` is 12!, `_with_what_follows`), so a condition is checked at the value compared (red team 15 class 1)
    values = [content for _, _, content in spans]
    values[-1] = _with_what_follows(region, boxes[0][0], values[-1], limits) or values[-1]
    clause_at = _clause_start(region, spans[0][0])
    if not _first_clause(region, clause_at, spans[0][0], values[0]) or not _box_clauses_lead(region, spans[0][0]):
        return None  # `Probably, the value is \\boxed{6}`, `In thousands, \\boxed{6}`: the clauses before must lead
    for (_, end, _), (start, _, _), content in zip(spans, spans[1:], values[1:]):
        between = region[end:start]
        if _GROUP_SEPARATOR_RE.fullmatch(between.lstrip(" \t$")):
            continue  # `\\boxed{1}, \\boxed{2}`, `\\quad \\text{and} \\quad`: one list
        clause = between[_BOX_JOINER_RE.match(between).end():]  # type: ignore[union-attr]
        if clause.strip() and not (box_lead(region[max(start - 200, 0): start], content) and box_clause(clause)
                                   and box_subject(clause, region[max(start - GRAMMAR_MAX_CHARS, 0): start], content)):
            return None  # a joiner alone (`, `, ` and `) leaves nothing to read
    return [(start, content) for start, _, content in spans]


_MATH_CONTENT_RE = re.compile(r"\s|(?<!\\)\$|\\[\[(]|\\displaystyle|\*|_|\\begin\s*\{[A-Za-z*]+\}")
"""What stands between a comma and a box that is no content of its own (a box alone: `If n is odd, $\\boxed{6}$`)."""


def _clause_start(region: str, start: int) -> int:
    """Where the clause of the box at `start` starts (`_BOX_CLAUSE_BREAK_RE`, `grammar.statement_lines`): when only markup
    stands between a comma and the box, the clause before the comma."""
    floor = max(start - GRAMMAR_MAX_CHARS, 0)
    found = [(m.group(), m.end()) for m in _BOX_CLAUSE_BREAK_RE.finditer(_boxes_masked(region, floor, start))
             if m.group() != "." or period_ends(region, floor + m.start())]  # not `approx.` (fx29ah)
    found += [("\n", at - floor) for at in statement_lines(region, floor, start)]
    breaks = sorted(found, key=lambda b: b[1])
    if not breaks:
        return floor
    last = breaks[-1]
    if last[0] in ",，" and not _PROSE_RE.search(region[floor + last[1]:start]) and not _MATH_CONTENT_RE.sub(
            "", region[floor + last[1]:start]):
        return floor + breaks[-2][1] if len(breaks) > 1 else floor  # `If n is odd, \\boxed{6}`: that clause's value
    k = len(breaks)
    while k > 0 and breaks[k - 1][0] in ",，" and bare_link(region[floor + breaks[k - 1][1]:start]):
        k -= 1  # `The value of 1000 $x$, (therefore,) is \\boxed{6}`: a link alone after a comma has its subject before
        # the comma, which `box_subject` reads (red team 14 class 5's `, which is the polynomial $x^7$, is`)
    if k < len(breaks):
        return floor + breaks[k - 1][1] if k > 0 else floor
    return floor + last[1]


def _box_sentence_start(region: str, start: int) -> int:
    """Where the sentence of the box at `start` starts (`_BOX_SENTENCE_BREAK_RE`)."""
    floor = max(start - GRAMMAR_MAX_CHARS, 0)
    brk = None
    for m in _BOX_SENTENCE_BREAK_RE.finditer(_boxes_masked(region, floor, start)):
        if m.group() != "." or period_ends(region, floor + m.start()):
            brk = m  # an abbreviation's period ends no sentence (`approx. \\boxed{6}`, fx29ah)
    return floor + brk.end() if brk else floor


def _boxes_masked(region: str, floor: int, start: int) -> str:
    """`region[floor:start]` with its boxes blanked out: a comma or period inside an earlier box is no
    break. Bounded by the window, whatever the completion's length."""
    window = region[floor:start]
    for a, b, _ in box_spans(window):
        window = window[:a] + "x" * (b - a) + window[b:]
    return window


_PROSE_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}|\\text")


def _first_clause(region: str, begin: int, start: int, value: str | None = None) -> bool:
    """Whether the words from the sentence start `begin` to the box at `start` state it: with an
    answer anchor among them, the words before the anchor lead to it (`grammar.anchor_lead`, as for
    an anchored answer) and those after it pass `grammar.box_clause`; else all of them do."""
    if not box_lead(region[max(start - 200, 0): start], value) and not _anchor_ends_at(region[max(start - 200, 0): start]):
        return False
    clause = region[begin:start]
    anchor = None
    for anchor in _ANCHOR_RE.finditer(clause):
        pass
    prefix = region[max(start - GRAMMAR_MAX_CHARS, 0): start]
    if anchor is None:
        return box_clause(clause) and box_subject(clause, prefix, value)
    if not _anchor_led(clause, anchor):
        return False
    rest = clause[anchor.end():]
    lead = _ANCHOR_LEAD_RE.match(rest)
    rest = rest[lead.end() if lead else 0:]
    return box_clause(rest) and box_subject(rest, prefix, value)


def _anchor_ends_at(prefix: str) -> bool:
    """Whether an answer anchor ends right before a box (`The answer is: **\\boxed{6}**`)."""
    tail = prefix[: _ANCHOR_END_RE.search(prefix).start()]  # type: ignore[union-attr]
    return any(m.end() == len(tail) and _anchor_led(tail[-60:], m) for m in _ANCHOR_RE.finditer(tail[-60:]))


def _anchor_led(text: str, anchor: re.Match[str]) -> bool:
    """Whether what stands before an anchor in its clause only leads to it, in every script: `grammar.anchor_lead`
    with its script's allowlist (`错误答案：`, `Неправильный ответ —`, `I doubt the answer is` are no anchor), and
    `####` only at a line's start, read with the line before when that line states nothing (`I doubt that\\n#### 6`)."""
    if anchor.group() == "####" and text[text.rfind("\n", 0, anchor.start()) + 1: anchor.start()].strip(" \t"):
        return False  # GSM8K's mark opens its line (`I doubt #### 6` is no anchor), and a line it continues is read
    # the words after the clause's last break, and its whole clause read through inline math and markup (fx29aa)
    start = _sentence_start(text, anchor.start())
    return start >= 0 and anchor_lead(text[start: anchor.start()]) and anchor_clause(text, anchor.start())


def _box_clauses_lead(region: str, start: int) -> bool:
    """Whether the clauses before the box's own clause in its sentence only lead to it
    (`grammar.lead_clauses`): `Maybe, \\boxed{6}`, `Perhaps, the final answer is \\boxed{6}` state none."""
    return box_lead_clauses(region, start)


def _attached_after_box(region: str, start: int, limits: MathLimits) -> str:
    """The words directly attached after the box that starts at `start` (`grammar.attached_phrase`):
    a box is read with them, as an anchored segment is (docs/math.md "Answer grammar")."""
    cmd = next(c for c in _BOX_COMMANDS if region.startswith(c, start))
    _, end = _box_span(region, start + len(cmd), limits)
    if region.startswith("!", end) and not region.startswith("!=", end):
        return "!"  # `\\boxed{12}!` is 12 factorial, as `12!` after an anchor is (a `!` right after a value)
    return attached_phrase(region[end: end + 2 * limits.max_answer_chars])


def _after_box(region: str, start: int, attached: str, limits: MathLimits) -> str:
    """What follows the box that starts at `start` and the words attached to it: the text
    `grammar.closes` must find to leave the boxed answer standing."""
    cmd = next(c for c in _BOX_COMMANDS if region.startswith(c, start))
    _, end = _box_span(region, start + len(cmd), limits)
    rest = region[end:]
    if attached:
        at = rest.find(attached)
        rest = rest[at + len(attached):] if at >= 0 else rest
    return rest


_NAME = (r"\$?\s*(?P<name>[A-Za-z](?:_\{?[A-Za-z0-9]{1,3}\}?)?|\\(?:alpha|beta|gamma|delta|theta|lambda|mu|phi|"
         r"psi|omega|rho|sigma|tau)(?![A-Za-z]))\s*\$?")
_BOX_NAME_LEAD_RE = re.compile(
    r"(?:^|(?<=[\s,;:(]))(?:(?i:for)\s+" + _NAME + r"\s*:|(?:(?i:the\s+value\s+of)\s+)?" + _NAME.replace("name", "name2")
    + r"\s*(?:=|(?i:is|equals))(?:\s*\\[,;: ])*)$")
"""The spellings that give a box a name (`y = \\boxed{1}`, `$y$ = `, `y is`, `the value of $y$ is`, `For y:`,
`$\\beta = `): read by `parsing.named_items` once joined, never in the order written (docs/math.md "Math
grading rules", named values)."""


def _named_parts(region: str, starts: list[int], parts: list[str]) -> list[str]:
    """Several boxes (starting at `starts`, in order) with the name each one is given (`y is \\boxed{1}, x =
    \\boxed{2}` -> `y = 1`, `x = 2`): values are matched by name, never by the order written (docs/math.md
    "Math grading rules"). What a box's name is read from: the text since the box before it."""
    named = []
    ends = [0] + [region.find("}", s) for s in starts[:-1]]  # a lower bound: the box before ends after it opens
    for start, end, part in zip(starts, ends, parts):
        window = region[max(start - 40, end): start].rstrip(" $")
        lead = _BOX_NAME_LEAD_RE.search(window)
        name = lead.group("name") or lead.group("name2") if lead else None
        named.append(f"{name} = {part}" if name and "=" not in part else part)
    return named


def _joinable(parts_last_first: list[str], limits: MathLimits) -> list[str]:
    """The trailing box contents, in order, that fit in `max_answer_chars` together (at least one)."""
    kept: list[str] = []
    total = 0
    for part in parts_last_first:
        total += len(part) + 10
        if kept and total > limits.max_answer_chars:
            break
        kept.append(part)
    return kept[::-1]


def answer_region(completion: str, profile: str) -> str | None:
    """The part of the completion that may hold the answer: after the last `</think>` if any.

    An opened but never closed `<think>` is a truncated reasoning trace: no answer in strict.
    """
    end = completion.rfind(THINK_CLOSE)
    if end >= 0:
        return completion[end + len(THINK_CLOSE):]
    if profile == "strict" and THINK_OPEN in completion:
        return None
    return completion


def last_box(text: str, limits: MathLimits) -> str | None:
    """Content of the last `\\boxed{...}` / `\\fbox{...}`: "" when there is none, None when the last
    one is never closed (a truncated trace; earlier boxes were not the final answer).

    A box whose content exceeds `max_answer_chars` returns its first `max_answer_chars + 1`
    characters so the grader can say "too long" instead of "no answer".
    """
    boxes = last_boxes(text, limits, 1)
    return boxes[0][1] if boxes else ""


def last_boxes(text: str, limits: MathLimits, most: int | None = None) -> list[tuple[int, str | None]]:
    """(start, content) of the last `most` (default `max_boxes`) boxes, the last first; content is
    None for a box never closed, and the scan stops there. `rfind` walks disjoint stretches
    backwards, and each content scan is bounded by `max_answer_chars`: linear in len(text)."""
    most = limits.max_boxes if most is None else most
    found = {cmd: text.rfind(cmd) for cmd in _BOX_COMMANDS}
    boxes: list[tuple[int, str | None]] = []
    skips = 0
    while len(boxes) < most and skips < _MAX_BOX_SKIPS:
        cmd = max(found, key=found.__getitem__)
        start = found[cmd]
        if start < 0:
            break
        found[cmd] = text.rfind(cmd, 0, start) if start > 0 else -1
        pos = start + len(cmd)
        if pos < len(text) and text[pos].isalpha():  # \boxedfoo is another command
            skips += 1
            continue
        content = _box_content(text, pos, limits)
        boxes.append((start, content))
        if content is None:
            break
    return boxes


def box_parts(text: str) -> list[str]:
    """The contents of the boxes in `text`, in order of appearance (a `boxed:several` extraction,
    or a gold written as several boxes); stops at a box never closed. Bounded scans, linear."""
    return [content for _, _, content in box_spans(text)]


def box_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, content) of each non-empty closed box in `text`, in order; see `box_parts`."""
    spans: list[tuple[int, int, str]] = []
    pos = 0
    ahead = {cmd: text.find(cmd) for cmd in _BOX_COMMANDS}
    while True:
        for cmd, at in ahead.items():  # refresh only positions we have passed: each scan is new text
            if 0 <= at < pos:
                ahead[cmd] = text.find(cmd, pos)
        found = [(at, cmd) for cmd, at in ahead.items() if at >= 0]
        if not found:
            return spans
        start, cmd = min(found)
        pos = start + len(cmd)
        if pos < len(text) and text[pos].isalpha():  # \boxedfoo is another command
            continue
        content, pos = _box_span(text, pos, DEFAULT_LIMITS)
        if content is None:
            return spans
        if content:
            spans.append((start, pos, content))


def _box_content(text: str, pos: int, limits: MathLimits) -> str | None:
    """Balanced-brace scan after a box command, bounded by `max_answer_chars`."""
    return _box_span(text, pos, limits)[0]


def _box_span(text: str, pos: int, limits: MathLimits) -> tuple[str | None, int]:
    """(content, end) of the box whose command ends at `pos`; content None when never closed."""
    spaces = text[pos: pos + 16]
    pos += len(spaces) - len(spaces.lstrip(" "))
    if pos >= len(text):
        return None, pos
    if text[pos] != "{":  # `\boxed 5`: one token
        end = pos
        while end < len(text) and end - pos <= limits.max_answer_chars and not text[end].isspace() and text[end] != "$":
            end += 1
        return text[pos:end].strip(), end
    window = text[pos + 1: pos + 2 + limits.max_answer_chars]
    depth = 1
    for m in _BRACE_RE.finditer(window):
        tok = m.group()
        if len(tok) == 2:  # escaped \{ or \}
            continue
        depth += 1 if tok == "{" else -1
        if depth == 0:
            return window[: m.start()].strip(), pos + 1 + m.end()
    if len(window) > limits.max_answer_chars:
        return window, pos + 1 + len(window)  # overlong, not truncated
    return None, len(text)


def last_anchor(text: str, limits: MathLimits) -> str:
    """The answer after the last final-answer anchor in the tail window, or ""."""
    return last_anchor_at(text, limits)[1]


def last_anchor_at(text: str, limits: MathLimits) -> tuple[int, str]:
    """(position in `text`, answer) of the last final-answer anchor in the tail window; (-1, "")."""
    at, answer, _ = last_anchor_span(text, limits)
    return at, answer


def last_anchor_span(text: str, limits: MathLimits) -> tuple[int, str, str]:
    """(position, answer, what follows the answer's sentence) of the last anchor; (-1, "", "")."""
    offset = max(len(text) - limits.tail_chars, 0)
    tail = tail_window(text, limits.tail_chars)
    last = None
    for last in _ANCHOR_RE.finditer(tail):
        pass
    if last is None:
        return -1, "", ""
    if not _anchor_led(tail, last):
        return -1, "", ""  # `I doubt the answer is 6`, `错误的答案是6`: the sentence states no answer (grammar.ANCHOR_LEADS)
    if not lead_clauses(tail, last.start()):
        return -1, "", ""  # `Maybe, the answer is 6`: a clause before the comma that does not lead to it
    return (offset + last.start(), *anchored_span(tail, last.end(), limits))


_SENTENCE_BREAK_RE = re.compile(r"\n|[.!?。！？।](?=\s)|[。！？।,，;>$}]|(?<=[\u0e00-\u0e7f\d]) +(?=[\u0e00-\u0e7f])|\\[\])]")
"""A clause's start before an anchor: a Thai sentence ends at a space before a Thai word (the script writes
words without spaces), a Bengali one at a danda `।`."""
_LEAD_CHARS = 200  # an anchor's sentence is read back this far at most (bounded, linear)


def _sentence_start(text: str, pos: int) -> int:
    """Where the clause holding `pos` starts: after the last line break, sentence end, comma,
    semicolon, math delimiter, `>` (`<think>`) or closing brace before it (a box: `\\boxed{6}
    **Final Answer**`). A clause before a comma is not read (`It is not B, the answer is D`). -1 when it starts out of
    sight (`grammar.last_break`)."""
    return last_break(_SENTENCE_BREAK_RE, text, max(pos - _LEAD_CHARS, 0), pos)


def anchored_text(text: str, pos: int, limits: MathLimits) -> str:
    """The answer that starts at `pos`: a math segment, or the rest of the sentence on that line."""
    return anchored_span(text, pos, limits)[0]


def anchored_span(text: str, pos: int, limits: MathLimits) -> tuple[str, str]:
    """(answer, what follows its sentence) for the answer that starts at `pos` (`anchored_text`)."""
    lead = _ANCHOR_LEAD_RE.match(text, pos)
    pos = lead.end() if lead else pos
    window = pos + 2 * limits.max_answer_chars + 8
    rest = to_ascii_math(text[pos: window])
    beyond = text[window:]
    for open_, close in _MATH_DELIMS:
        if rest.startswith(open_):
            end = rest.find(close, len(open_))
            closes_amount = close == "$" and rest[end + 1: end + 2].isdigit()  # `$y = $90`
            if end > len(open_) and not closes_amount:
                after = rest[end + len(close):]
                stated, ends = _segment_answer(rest[len(open_): end], after)
                return stated, after[ends:] + beyond
    line = rest.split("\n", 1)[0]
    stop = _SENTENCE_END_RE.search(line)
    if stop and line[stop.start()] != "?":  # `6? Wrong.`: a question is read with what follows it
        return clean_answer(_prose_answer(line[: stop.start()])), rest[stop.end():] + beyond
    return clean_answer(_prose_answer(line)), rest[len(line):] + beyond


def _segment_answer(segment: str, after: str) -> tuple[str, int]:
    """A math segment after an anchor: its content, unless words follow it in the same sentence
    (`$7$ billion`): then the sentence goes through the answer grammar like any prose. Also where
    the sentence ends in `after`."""
    line = after.split("\n", 1)[0]
    stop = _SENTENCE_END_RE.search(line)
    ends = len(line)
    if stop and line[stop.start()] != "?":
        line, ends = line[: stop.start()], stop.end()
    if not line.strip(" *.,;:!"):
        return clean_answer(segment), ends
    reading = read_stated(f"${segment}$ {line}", prose=True)
    return clean_answer(reading.text if reading.kind == "number" else f"{segment} {line.strip()}"), ends


def _prose_answer(line: str) -> str:
    """The value an anchored sentence states, when the answer grammar admits every word around it
    (`verifier/math/grammar.py`; docs/math.md "Answer grammar"); else the sentence as written.

    "Maria's savings were $4,500" -> 4,500; "350 MB" -> 350; "y equals 7" -> 7; the last side of an
    `=` chain after a name, "Total = ($3.25 * 4) + ... = $31" -> 31. A sentence the grammar refuses
    (a hedge, a second value, a word that scales or negates) is returned whole: the parser refuses
    it again (`parsing.parse_prediction`), so it is never paid.
    """
    text = _DOLLAR_AMOUNT_RE.sub("\u00a4", line.strip().strip("*"))
    if text.count("$") == 1 and text.startswith("$"):
        text = text[1:]  # `$y = $90`: the opening `$` of a segment the amount closed
    reading = read_stated(text, prose=True)
    return reading.text if reading.kind == "number" else line


def clean_answer(text: str) -> str:
    """Strip what is not the answer: whitespace, `$`, markdown bold, a trailing period."""
    text = text.strip()
    prev = None
    while text != prev:
        prev = text
        text = text.strip().strip("*").strip()
        if text.startswith("\\(") and text.endswith("\\)") or text.startswith("\\[") and text.endswith("\\]"):
            text = text[2:-2]
        text = text.strip("$").strip()
        if text.endswith(".") and not text.endswith(".."):
            text = text[:-1]
    return text


def _last_expression(region: str, limits: MathLimits) -> Extraction:
    """Lenient fallback: a completion that is one bare expression is read whole (`2^{10}`,
    `sqrt(3)/3`, `Friday`); else the later of the last math segment and the last number in the tail,
    only when the words around it in its sentence pass the answer grammar (`_read_last_sentence`). A person's name in
    that sentence is only a name the task's problem uses (`grammar.grounded_names`; red team 31 class 3a: `Unsure: 6
    apples` paid), so with no problem text no sentence with a name states the answer here. The sentences before it are
    steps or statements (`_unread_statement_before`), read as before: a name there states no answer this reads."""
    bare = bare_expression(region)
    if bare:
        return Extraction(bare, "last") if chain_agrees(bare) else NO_ANSWER
    tail = to_ascii_math(tail_window(region, limits.tail_chars))  # `−5` is -5 here too
    seg = last_math_span(tail)
    num = None
    for num in _NUMBER_RE.finditer(tail):
        pass
    if seg is not None and (num is None or seg[1] >= num.end()):
        start, end, text = seg[0], seg[1], clean_answer(seg[2])
    elif num is not None:
        start, end, text = num.start(), num.end(), num.group().strip()
        if tail.startswith("!", end) and text[-1:].isdigit():
            end, text = end + 1, text + "!"  # `So we get 6!.` is 720: a `!` right after a number is a factorial
    else:
        return NO_ANSWER
    if _anchored_before(tail, start):
        return NO_ANSWER  # `可能\n答案是 7。x = 6。`: the anchor's sentence states the answer (or none), never the one after
    if _unread_statement_before(tail, start, text):
        return NO_ANSWER  # `7 is the answer. x = 6.`: an unread sentence may state the answer (red team 30 class 4)
    with grounded_names():  # the answer's own sentence: a name in it is the problem's (red team 31 class 3a)
        answer = _read_last_sentence(tail, start, end, text) if text else None
    if answer and not chain_agrees(answer):
        return NO_ANSWER  # `So, $x = 7 = 6$.` states 7 and 6: a second value, as after an anchor (red team 6 class 3)
    return Extraction(answer[: limits.max_answer_chars + 1], "last") if answer else NO_ANSWER


def _anchored_before(tail: str, start: int) -> bool:
    """Whether an answer anchor (`ANCHORS`) stands in `tail` before the value at `start`. The anchor is the answer's
    statement, read as strict reads it (`last_anchor_span`): paid when its sentence is admitted, else no answer (a hedge
    above it, `可能\n答案是 7。`). The lenient fallback adds only a reading where no such statement stands, so a sentence
    after it (`x = 6。`, `∠NOT = 6。`) never replaces it (docs/math.md "Answer grammar"; red team 28's lenient `AFTER_NEAR`,
    a different value paid after a refused anchor). Only a box or a concluding sentence after it, read alike in both
    profiles before this fallback, may still state the answer."""
    return _ANCHOR_RE.search(tail, 0, start) is not None


_STATEMENT_END_RE = re.compile(r"(?<!\.)\.(?!\.)(?=\s)|[?!](?=\s)|[。！？।]|\n")
"""Where a sentence before the last value ends (`_unread_statement_before`): a sentence's mark or a line break."""


def _unread_statement_before(tail: str, start: int, value: str) -> bool:
    """Whether a sentence before the sentence of the value at `tail[start]` (the last value, read by the lenient fallback
    or a concluding sentence) may be the answer's own statement, so the value after it is no answer (red team 30 class
    4: `Also lautet die Antwort 7. x = 6.`, `7 is the answer. So x = 6.`, `答：7。`). Each sentence is read whole, at any
    length (fx29c, red team 32 class 1: fx29bc's bound of five words let `The answer would be 7 or 8.`, `The answer would
    be 6 thousand.` and a quote's `> The answer would be 7.` pass, and refused short steps). A sentence in the grammar's
    answer words or anchors (`grammar.answer_phrase`, `ANCHORS`) states an answer unless each of its values is `value`
    and the grammar reads it (`_answer_restated`). Any other sentence (its line's marks aside: a quote's `>` is no
    relation) states one when it holds exactly one value other than `value` and no relation, and the grammar reads
    neither its words with the value (`read_sentence`: `Sam has 3 apples`) nor a step (`grammar.step_sentence`: `A week
    has 7 days`, `Add 4`), or several values and no verb (`grammar.has_verb`: `Perhaps 7 or 8`): `7 is the answer`,
    `7。`, `Perhaps 7`, `It would be 7` are statements; sentences with no value, several values and a verb, and
    computations (`3 + 4 = 7`, `we get $x=2$`) are steps."""
    opened = _sentence_open(tail, start)
    end = opened if opened is not None else max(start - GRAMMAR_MAX_CHARS, 0)
    subject = _SUBJECT_NAME_RE.search(tail, end, start) or _SUBJECT_NAME_RE.match(value)  # lenient's `$x = 6$` too
    k = 0
    for brk in [*_STATEMENT_END_RE.finditer(tail, 0, end), None]:
        piece = tail[k: brk.start() if brk else end]
        k = brk.end() if brk else end
        piece = piece[marks_end(piece, len(piece) - len(piece.lstrip())):]  # `> 7 is the answer`: a quote's line
        if subject and _named_another_value(piece, subject.group(1), value.split("=")[-1].strip()):
            return True  # `x = 7. So x = 6.`: the answer's own name given another value
        if answer_phrase(piece) or _ANCHOR_RE.search(piece):
            if not _answer_restated(piece, value):
                return True  # `The answer would be 7 or 8`, `The answer would be 6 thousand`, `Die Lösung ist x = 7`
            continue
        found = list(_NUMBER_RE.finditer(piece))
        if len(found) > 1 and not _RELATION_RE.search(piece) and not has_verb(piece):
            return True  # `Perhaps 7 or 8`, `7, 8 or 9`: values listed with no verb, a statement of them
        if len(found) != 1 or clean_answer(found[0].group()) == clean_answer(value) or _RELATION_RE.search(piece):
            continue  # no value, several in a clause with a verb, the value restated, or a relation (`we get $x=2$`)
        number = found[0]
        before = piece[: number.start()].strip(_EDGE_MARKS)
        if before and (_read_last_sentence(piece, number.start(), number.end(), number.group().strip()) is not None
                       or step_sentence(before, piece[number.end():])):
            continue  # `Sam has 3 apples`, `A week has 7 days`, `Add 4`: a step
        return True  # `7 is the answer`, `7。`, `Perhaps 7`, `Die Lösung ist 7`, `It would be 7`
    return False


_SUBJECT_NAME_RE = re.compile(r"(?<![A-Za-z\\])([A-Za-z])[\s$]*=")
"""The name the answer's sentence sets (`So x = 6.`, `Thus $x = 6$.`): the first letter alone before an `=` in it."""
_CHAIN_END_RE = re.compile(r"[,;]|$")


def _named_another_value(piece: str, name: str, value: str) -> bool:
    """Whether a sentence before the answer's sets the answer's own name (`_SUBJECT_NAME_RE`) to another value at the
    end of its chain (`x = 7`, `x = 3 + 4 = 7`, `x is 7`, `\\(x := 7\\)`, `7 = x`, `x = 7 cm`): an earlier statement of
    the answer under the same subject (fx29c, red team 32 class 1's `x =` subjects; red team 34 class 5b: its links
    and sides read as the grader reads them, `_LINK_FOLD_RE`, `_states_another`). A side that is an expression in
    another name (`x = 2y`) or words that are no value (`x is even`) states no value."""
    text = _LINK_FOLD_RE.sub(" = ", _MATH_WRAP_RE.sub(" ", piece))
    for m in re.finditer(r"(?<![A-Za-z\\])" + re.escape(name) + r"\s*=(?!=)", text):
        if not _stands_alone(text[:m.start()]):  # `2x = 12`, `y + x = 7`: the left side is an expression, not the name
            continue
        chain = text[m.end(): _CHAIN_END_RE.search(text, m.end()).start()]  # type: ignore[union-attr]
        if _states_another(chain.split("=")[-1], value):
            return True
    for m in re.finditer(r"(?<![=<>!])=\s*" + re.escape(name) + r"\s*(?:[.!?。]\s*)?$", text):  # `7 = x`
        start = max(text.rfind(",", 0, m.start()), text.rfind(";", 0, m.start())) + 1
        if _states_another(text[start:m.start()].split("=")[-1], value):
            return True
    return False


_MATH_WRAP_RE = re.compile(r"\\[()\[\]]|\$")
_LINK_FOLD_RE = re.compile(r"\s*(?::=|≔|==|\\coloneqq|\\approx|≈)\s*|\s+(?:is\s+equal\s+to|equals|is)\s+")
"""The links that set a name as `=` does (red team 34 class 5b: `x is 7`, `x equals 7`, `x := 7`, `x \\approx 7`)."""
_ARITHMETIC_RE = re.compile(r"[\d\s.+\-*/()]{1,80}")


def _states_another(side: str, value: str) -> bool:
    """Whether `side`, the last side of a chain that sets the answer's name, is a value other than `value`: a number
    with its unit read as the grammar reads an answer (`read_stated`: `7 cm`; `6 cm` is the value), a value with words
    it refuses and no verb (`7 thousand`), a spelled one (`seven`; `six` is the value), arithmetic on numbers whose
    exact value is not `value` (`3 + 4`, `\\frac{14}{2}`; `12/2`, `2 \\cdot 3` are 6), or any other math, which is
    not proved the value (`\\sqrt{49}`, `7 or 8`). Never an expression in another name (`2y`), words alone (`even`)
    nor a clause with a verb (`5 gives 10`: a trial, red team 35's cost (d))."""
    side = side.strip(" \t*.?。:")  # a `!` is a factorial's (`3!`) where a statement's end has not split it off
    if not side or clean_answer(side) == clean_answer(value):
        return False
    words = re.findall(r"[^\W\d_]+", re.sub(r"\\[A-Za-z]+", " ", side))  # prose words, LaTeX's commands aside
    if not re.search(r"\d", side):
        low = [w.lower() for w in words]
        if len(low) == 1 and low[0] in _SPELLED:
            return str(_SPELLED[low[0]]) != _arithmetic(clean_answer(value))
        return any(w in NUMBER_WORDS for w in low)
    if any(len(w) == 1 for w in words):
        return False  # an expression in another name: `2y`, `3 + a`
    plain = _LATEX_ARITHMETIC_RE.sub(lambda m: _LATEX_ARITHMETIC[m.group(1)] if m.group(1) else f"(({m.group(2)})/({m.group(3)}))",
                                     side)
    if _ARITHMETIC_RE.fullmatch(plain):  # `12/2`, `3 + 3`, `\\frac{12}{2}`, `2 \\cdot 3` are 6; `3 + 4` is not
        got, want = _arithmetic(plain), _arithmetic(clean_answer(value))
        return got is None or want is None or got != want
    reading = read_stated(side, prose=True)
    if reading.kind == "number":
        return clean_answer(reading.text) != clean_answer(value)
    if reading.kind == "refused":
        return not has_verb(side)
    return reading.kind == "math"  # other math (`\\sqrt{49}`, `3!`, `[7]`) is not proved the value: it states another


_LATEX_ARITHMETIC = {"\\cdot": "*", "\\times": "*", "×": "*", "·": "*", "\\div": "/", "÷": "/"}
_LATEX_ARITHMETIC_RE = re.compile(r"(\\cdot|\\times|×|·|\\div|÷)|\\[dt]?frac\{(\d{1,18})\}\{(\d{1,18})\}")


_SPELLED = {w: k for k, w in enumerate("zero one two three four five six seven eight nine ten".split())}


def _arithmetic(side: str) -> str | None:
    """The value of `side`, arithmetic on numbers of at most 80 characters (`_ARITHMETIC_RE`), as `clean_answer`
    writes a whole number or a fraction; None where it is no arithmetic Python's parser reads or divides by zero."""
    try:
        tree = ast.parse(side.strip(), mode="eval")
    except SyntaxError:
        return None
    try:
        got = _evaluate(tree.body)
    except (ValueError, ZeroDivisionError):
        return None
    return str(got.numerator) if got.denominator == 1 else f"{got.numerator}/{got.denominator}"


def _evaluate(node: ast.expr) -> Fraction:
    """+, -, * and / on numbers, exactly; anything else (a power, a name, a call) is a ValueError."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return Fraction(str(node.value))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        inner = _evaluate(node.operand)
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        return left * right if isinstance(node.op, ast.Mult) else left / right
    raise ValueError("no arithmetic on numbers")


def _stands_alone(before: str) -> bool:
    """Whether a name after `before` is the whole left side of its `=`: what precedes it (spaces, `$` and `\\(`
    aside) ends in prose, a clause's mark or nothing, never in a coefficient, an operator, a bracket or a relation."""
    tail = before.rstrip(" \t$").removesuffix("\\(").rstrip(" \t$")
    if tail[-1:] in ("-", "−"):  # binary after an operand (`y - x = 7`); a unary minus (`-x = 7`) still names x
        operand = tail[:-1].rstrip(" \t$")[-1:]
        return not (operand.isalnum() or operand in ")]}")
    return not tail or not (tail[-1].isdigit() or tail[-1] in "+*/^_)]}=<>·×÷\\")


def _answer_restated(piece: str, value: str) -> bool:
    """Whether a sentence in answer words before the answer's (`_unread_statement_before`) restates `value`: it holds
    values, each is `value`, and the grammar reads the sentence with its last one (`_read_last_sentence`); a spelled
    value (`The answer would be seven.`), a scale (`6 thousand`) or a second value states another."""
    found = list(_NUMBER_RE.finditer(piece))
    if not found or any(clean_answer(m.group()) != clean_answer(value) for m in found):
        return False
    last = found[-1]
    return _read_last_sentence(piece, last.start(), last.end(), last.group().strip()) is not None


_RELATION_RE = re.compile(r"[=<>≤≥≠]|\\(?:le|ge|neq?|approx)\b")
_EDGE_MARKS = " \t*_$:：,，-—–"


# Where the sentence around the last value starts: after a line break or a sentence end.
# A capitalised concluding connective starts a sentence whose period was lost (`P = 2/3 Therefore, ...`).
_SENTENCE_OPEN_RE = re.compile(r"(?<!\.)\.(?!\.)\s|\?\s|(?<!\d)!\s|[。！।]|\s(?=(?:Therefore|Thus|Hence|So)\b)")


def _sentence_open(text: str, start: int) -> int | None:
    """Where the sentence around the value at `start` opens (`_SENTENCE_OPEN_RE`, a period only where `period_ends`
    reads a sentence's end, or a line break after a statement,
    `grammar.statement_lines`: a line break alone is spacing, red team 16 class 1's lenient `The wrong answer is\\n6.`); None
    when no opening is in sight."""
    floor = max(start - GRAMMAR_MAX_CHARS, 0)
    opened = None
    for m in _SENTENCE_OPEN_RE.finditer(text, floor, start):
        if m.start() < marks_end(text, text.rfind("\n", 0, m.start()) + 1):
            continue  # a list number's `1.` is its line's mark, no sentence's end (fx29af)
        if m.group()[:1] != "." or period_ends(text, m.start()):
            opened = m  # an abbreviation's period ends no sentence, as on the other paths (`approx.\n答案是 6。`; fx29as)
    at = opened.end() if opened else None
    lines = statement_lines(text, floor, start)
    labelled = text.rfind("\n", floor, start)
    if labelled >= 0 and _LINE_LABEL_RE.match(text, labelled + 1, start) and line_opens(text, labelled + 1):
        lines.append(labelled + 1)  # `A: 26`: a line its label opens, whose words `read_sentence` reads, where the line
        # opens a sentence as any line does (red team 29 class 2: `Maybe\ntotal: 6`, `Not\nA: 6` read whole)
    return max(at or 0, *lines) if lines else at


_LINE_LABEL_RE = re.compile(r"[^\W\d_][\w ]{0,30}:")
"""A line that opens with a label and its colon (`A:`, `Answer:`, `Final answer:`): a statement of its own."""
_ORDINAL_SUFFIX_RE = re.compile(r"^(?:(?:st|nd|rd|th)\b|\^\s*(?:\{\s*)?\\(?:text|mathrm|rm)\s*\{\s*(?:st|nd|rd|th)\s*\}\s*\}?)")
_ONLY_MARKS_RE = re.compile(r"[\s.!。！।*$]*")


def _read_last_sentence(tail: str, start: int, end: int, text: str) -> str | None:
    """The value `text` at `tail[start:end]` when its sentence passes the answer grammar with the
    value in place (`grammar.read_sentence`: the same reader as after an anchor), else None: under
    lenient, `6 or 7`, `so it is 6 thousand`, `not 6` state no answer (docs/math.md "Answer grammar").
    A sentence of math without words (`40 + 2 = 42`) is read as a bare expression."""
    opened = _sentence_open(tail, start)
    first = opened if opened is not None else max(start - GRAMMAR_MAX_CHARS, 0)
    line_end = tail.find("\n", end)
    line = tail[end: line_end if line_end >= 0 else len(tail)]
    stop = _SENTENCE_END_RE.search(line)
    last = end + (stop.end() if stop else len(line))
    if not closes(tail[last:]):
        return None  # `So it is 6. Wait, that's wrong.`
    before, after = tail[first:start], tail[end:last]
    after = _ORDINAL_SUFFIX_RE.sub("", after, count=1)  # `4th`, `4^{\\text{th}}`: an ordinal is its number
    percent = re.match(r"\s*\\?%", after)
    if percent and not text.endswith("%"):  # `$28$ %`: the sign is the value's (the percent rules decide)
        text, after = text + "%", after[percent.end():]
    reading = read_sentence(f"{before}0{after}", text)  # `0`: one value in the value's place, whatever its notation
    if reading.kind in ("number", "math") and not box_subject(before, before, text):
        return None  # one subject reader for every path: the box's (red team 14 class 1: `The value of $-x$ is 6.`)
    if reading.kind == "number":  # `1.000.000`: the grammar read more than the number found, refused
        return None if reading.text not in ("0", "0%") else text + ("%" if reading.text == "0%" and "%" not in text else "")
    if reading.kind != "math":
        return None  # a hedge, a second value, a scale word, a question: no answer
    if not _ONLY_MARKS_RE.fullmatch(reading.text.replace("0", "", 1)):  # what `read` saw, leads passed over
        return bare_expression(tail[first:last]) if "$" not in tail[first:last] else None
    return text


def bare_expression(region: str) -> str | None:
    """The whole completion when it is one short line of math (no `$`; plain words only function
    names such as `sqrt`, unless the completion is one word):
    `2^{10}`, `1 - \\sqrt{2}`, `Friday`. A chain of equalities without variables (`6 * 7 = 42`)
    is read as its last side."""
    text = region.replace(THINK_OPEN, " ").strip()
    if not text or len(text) > _BARE_MAX_CHARS or "\n" in text or "$" in text or "\\(" in text or "\\[" in text:
        return None
    words = [w for w in _WORD_RE.findall(_ENVIRONMENT_RE.sub(" ", text)) if not math_letter(w)]
    if words and text != words[0] and not set(words) <= _FUNCTION_WORDS:
        return None  # prose around math ("so 1/2"): the number fallbacks read it
    first, eq, _ = text.partition("=")
    if eq and not words and not any(c.isalpha() for c in first):
        text = text.rsplit("=", 1)[1]
    return clean_answer(text) or None


def _rfind_dollar(text: str, end: int) -> int:
    """Position of the last `$` before `end` that is not an escaped `\\$` (a currency sign); -1."""
    pos = text.rfind("$", 0, end)
    while pos > 0 and text[pos - 1] == "\\":
        pos = text.rfind("$", 0, pos - 1)
    return pos


def last_math_segment(text: str) -> tuple[int, str] | None:
    """(end, content) of the last `$...$`, `$$...$$`, `\\(...\\)` or `\\[...\\]`; `rfind` only.
    An escaped `\\$` is a currency sign, not a delimiter."""
    span = last_math_span(text)
    return (span[1], span[2]) if span else None


def last_math_span(text: str) -> tuple[int, int, str] | None:
    """(start, end, content) of the last math segment (`last_math_segment`), delimiters included."""
    best: tuple[int, int, str] | None = None
    end = _rfind_dollar(text, len(text))
    if end > 0 and text[end - 1] == "$":
        start = text.rfind("$$", 0, end - 1)
        if start >= 0:
            best = (start, end + 1, text[start + 2: end - 1])
    elif end > 0:
        start = _rfind_dollar(text, end)
        if start >= 0:
            best = (start, end + 1, text[start + 1: end])
    for open_, close in (("\\(", "\\)"), ("\\[", "\\]")):
        end = text.rfind(close)
        start = text.rfind(open_, 0, end) if end > 0 else -1
        if start >= 0 and (best is None or end + 2 > best[1]):
            best = (start, end + 2, text[start + 2: end])
    return best


def _extract_choice(region: str, profile: str, choices: Sequence[str], limits: MathLimits) -> Extraction:
    """Multiple choice: the box, then the last anchor, then (lenient) a completion that is one bare
    answer (`7`, `\\text{B}`) or the last marked letter.

    The answer is read as a letter (A, B, ... in choice order) or as the full text of a choice; the
    last anchor wins, which is what makes "It is not B, the answer is D" read D.
    """
    found = last_box(region, limits)
    if found is None and profile == "strict":
        return NO_ANSWER
    _, anchored, after_anchor = last_anchor_span(region, limits)
    if found:
        start = last_boxes(region, limits, most=1)[0][0]
        attached = _attached_after_box(region, start, limits)
        stated = f"{found} {attached}" if attached else found
        letter = _boxed_letter(found, attached, choices)
        parts = _stated_parts(region, last_boxes(region, limits, most=1), limits) if letter is not None else None
        if letter is not None and (parts is None or len(parts) > 1 or not _chain_has_choice(region, start, letter, choices)):
            return NO_ANSWER  # `not \\boxed{B}`, `\\boxed{B} or \\boxed{C}`, `\\boxed{B}, \\boxed{C}`, `I doubt it is \\boxed{B}`
        if letter is None:  # `\\boxed{\\text{...}}. Answer: C`: the anchor's sentence is the last
            letter = _letter_after_box(region, choices, limits)
            return (Extraction(letter, "choice") if letter else Extraction(stated, "boxed")) if closes(
                after_anchor if letter else _after_box(region, start, attached, limits)) else NO_ANSWER
        return Extraction(letter, "choice") if closes(_after_box(region, start, attached, limits)) else NO_ANSWER
    if anchored:
        if not closes(after_anchor):
            return NO_ANSWER  # `Answer: C. Wait, no.` (grammar.closes)
        letter = _read_choice(anchored, choices)
        return Extraction(letter, "choice") if letter else Extraction(anchored, "anchor")
    if profile == "strict":
        return NO_ANSWER
    bare = bare_expression(region)
    letter = _read_choice(bare, choices) if bare else None
    if letter is None:
        letter = _last_marked_letter(tail_window(region, limits.tail_chars), len(choices))
    return Extraction(letter, "choice") if letter else NO_ANSWER


def _chain_has_choice(region: str, start: int, letter: str, choices: Sequence[str]) -> bool:
    """Whether a letter's box after an `=` chain has, in every side written in numbers alone, the value of the choice
    it names (red team 7 class 1: `$7 = \\boxed{B}$` with choice B `5` states 7 and 5), as a number's box does
    (`grammar.box_subject`); a box after no relation is read by `_stated_parts` alone."""
    before = region[max(start - GRAMMAR_MAX_CHARS, 0): start]
    if not re.search(r"(?:=|\\equiv|\\in)(?:\s|\$|\\[(\[]|\\displaystyle|\\[,;: !]|\\q?quad)*$", before):
        return True
    return box_subject("", before, choices[ord(letter) - ord("A")])


def _boxed_letter(found: str, attached: str, choices: Sequence[str]) -> str | None:
    """The choice the last box names, read with the words attached after it (`\\boxed{C} is wrong`,
    `\\boxed{C} or B` name none), as a number in a box is (docs/math.md "Answer grammar")."""
    letter = _read_choice(found, choices)
    if letter is None or not attached:
        return letter
    return letter if _read_choice(f"{letter} {attached}", choices) == letter else None


def _read_choice(answer: str, choices: Sequence[str]) -> str | None:
    """`read_choice`, also against the choices as ASCII math: an anchored answer is read as ASCII
    math (`(B) 20\\sqrt{2}`), a choice may be written in Unicode (`20√{2}`)."""
    return read_choice(answer, choices) or read_choice(answer, [to_ascii_math(c) for c in choices])


def _letter_after_box(region: str, choices: Sequence[str], limits: MathLimits) -> str | None:
    """The choice an answer anchor after the last box names, when the box names none: `\\boxed{\\text{the
    slopes are equal}} ... Answer: C` is C (docs/math.md "Math grading rules"). The anchor is read by
    `read_choice`, so a hedge (`Answer: C or D`) or a negation names nothing; an anchor before the
    box's end is not used."""
    boxes = last_boxes(region, limits, most=1)
    anchor_at, anchored = last_anchor_at(region, limits)
    if not boxes or boxes[0][1] is None or not anchored or anchor_at < boxes[0][0] + len(boxes[0][1]):
        return None  # no box, or the anchor is before the box's end (inside it or earlier)
    return _read_choice(anchored, choices)


_MARKED_LETTER_RE = re.compile(r"\(([A-Z])\)|\*\*([A-Z])\*\*|^[ \t]*([A-Z])[.)]?[ \t]*$", re.MULTILINE)


def _last_marked_letter(tail: str, n_choices: int) -> str | None:
    """Lenient MCQ fallback: the last `(X)`, `**X**` or a line that is just `X` with X a valid letter, when
    no other marked letter stands before it on its line."""
    letter = last = None
    for m in _MARKED_LETTER_RE.finditer(tail):
        cand = next(g for g in m.groups() if g)
        if ord(cand) - ord("A") < n_choices:
            letter, last = cand, m
    if last is None or _anchored_before(tail, last.start()):
        return None  # `Maybe the answer is (A).\n(B)`: the anchor decides, as for a number (`_anchored_before`)
    line_start = tail.rfind("\n", 0, last.start()) + 1
    if _MARKED_LETTER_RE.search(tail[line_start: last.start()]):
        return None  # `**B** or **C**`, `(A) (B) (C) (D)`: the letter's line names several
    return letter
