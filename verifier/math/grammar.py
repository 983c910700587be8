"""The answer grammar: the only words that may stand around the value an answer states.

A list of bad words is never complete, so the reader admits instead of refusing: after an anchor
or inside a box, a value is read only when every word around it has a place in this closed
grammar (docs/math.md "Answer grammar"):

    [subject link] [det] VALUE [unit] [relative [than object]] [tail] [end]

- VALUE: one number (sign, currency sign or code, thousands or decimal comma, ordinal suffix,
  percent), or in LaTeX one math chunk (`5\\sqrt{2}`), or the last side of an `=` chain whose
  first side is a name and whose middle sides are arithmetic.
- subject: a noun phrase of allowlisted words, capitalised names and math names, then a linking
  verb (`x =`, `the answer is`, `Maria's savings were`, `∠3 is`, `y 的值是`).
- unit: one unit from `UNITS` (SI prefixes and powers, `m/s`, `per day`), a currency, an angle,
  a percent, or a counted noun with no scaling meaning ("times", "apples").
- relative: one comparative after the value ("3 fewer", "30 meters farther than Lee").

Anything else (a word that scales, negates, hedges or retracts, a second value, an inequality, a
`?`) is no reading: `read` says "refused" and the answer is never paid. Every allowlisted word
lives in `LEXICON`, each group with its reason: that table is the one home of what is admitted.

Linear: one regex tokenizer pass (an answer is at most `MathLimits.max_answer_chars`), then list walks; past
`MAX_CHARS` only math without words is read.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import inspect
import math
import re
import unicodedata
from fractions import Fraction
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any, NamedTuple, TypeVar

from .conditions import HEAD_WORDS, Facts, condition_fixes, head_facts, reads
from .unicode_math import to_ascii_math

MAX_CHARS = 400

_BOX_VALUE: ContextVar[str | None] = ContextVar("_BOX_VALUE", default=None)
"""The value the subject being read stands beside (`\\boxed{6}`'s `6`, a concluding or last sentence's value), set by
the readers that have it (`_beside_value`: `box_subject`, `concludes`, `read`) and read by `_relative_clause`, which
hands it to `conditions.condition_fixes`: a subject's condition on its own unknown must hold at it (red team 14 class
3). None where no value is known: such a condition then refuses."""
_F = TypeVar("_F", bound=Callable[..., Any])


def _beside_value(reader: _F) -> _F:
    """`reader` with its `value` argument set as `_BOX_VALUE` while it runs (its subject's conditions read it)."""
    signature = inspect.signature(reader)

    @functools.wraps(reader)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        token = _BOX_VALUE.set(signature.bind(*args, **kwargs).arguments.get("value"))
        try:
            return reader(*args, **kwargs)
        finally:
            _BOX_VALUE.reset(token)

    return wrapped  # type: ignore[return-value]
"""Longer texts are not read as a stated value (an answer sentence is short; bounds the work)."""


class Entry(NamedTuple):
    """A group of allowlisted words with one role and the reason they are safe there."""

    role: str
    words: frozenset[str]
    reason: str


def _entry(role: str, words: str, reason: str) -> Entry:
    return Entry(role, frozenset(words.split()), reason)


_SI_PREFIXES = ("", "k", "c", "m", "M", "G", "T", "n", "u", "μ", "µ", "d", "h", "p")
_SI_BASES = ("m", "g", "s", "L", "l", "Hz", "N", "J", "W", "Pa", "V", "mol", "B", "b", "cal", "eV", "Wh")
# Prefixed symbols that read as a scale word on their own, never as a unit: `3 k`, `3 M`, `3 G`,
# `3 B` (billion), `3 b`, `3 d`, `3 h` is kept (hour).
_NOT_UNITS = frozenset({"k", "M", "G", "T", "B", "b", "u", "d", "p", "c", "n", "Mb", "mb", "Ml"})
_SI = " ".join(sorted({p + b for p in _SI_PREFIXES for b in _SI_BASES} - _NOT_UNITS))

LEXICON: tuple[Entry, ...] = (
    _entry("unit", _SI, "SI symbols with a prefix name a unit, never a scale of the number "
           "(`3 k`, `3 M`, `3 B` are left out: alone they read as thousand, million, billion)"),
    _entry("unit", "min mins sec secs hr hrs yr yrs ft in yd mi oz lb lbs mph kph kmh km/h sq cu ha ac gal qt pt "
           "tsp tbsp rpm bpm dB kWh am pm a.m. p.m.",
           "customary unit symbols: the question fixes the unit, units are not converted"),
    _entry("unit", "meter meters metre metres centimeter centimeters centimetre centimetres millimeter millimeters "
           "kilometer kilometers kilometre kilometres inch inches foot feet yard yards mile miles gram grams "
           "kilogram kilograms milligram milligrams ton tons tonne tonnes ounce ounces pound pounds liter liters "
           "litre litres milliliter milliliters millilitre millilitres gallon gallons quart quarts pint pints "
           "cup cups teaspoon teaspoons tablespoon tablespoons second seconds minute minutes hour hours day days "
           "week weeks month months year years decade decades century centuries hectare hectares acre acres "
           "byte bytes bit bits kilobyte kilobytes megabyte megabytes gigabyte gigabytes watt watts volt volts "
           "newton newtons joule joules calorie calories kelvin celsius fahrenheit mph unit units "
           "square cubic sq. cu.",
           "units of measure by name: they say what the number counts, never scale it"),
    _entry("unit", "degree degrees deg ° radian radians rad",
           "angle units: a degree mark may be dropped (docs/math.md \"Math grading rules\"), radians are not converted"),
    _entry("percent", "% percent per-cent pct percentage",
           "a percent sign: kept on the value, so the percent rules (drop or apply) decide"),
    _entry("currency", "$ € £ ¥ ₹ ₩ ₽ ₺ ₦ ₱ ฿ ₫ ₪ ₴ ¢ USD EUR GBP JPY INR CNY RMB CHF CAD AUD NZD HKD SGD "
           "KRW RUB BRL MXN ZAR SEK NOK DKK PLN TRY Rs Rs.",
           "currency signs and ISO codes name the money, never its amount"),
    _entry("unit", "dollar dollars euro euros pence penny pennies yen yuan rupee rupees peso pesos "
           "franc francs ruble rubles won",
           "currency names: what the amount is counted in (not `cent`/`cents`: French and Catalan for hundred(s), "
           "so `La réponse est 6 cents.` is 600, red team 8; `¢` names the English coin)"),
    _entry("count", "times apple apples orange oranges banana bananas egg eggs student students people person persons "
           "child children kid kids boy boys girl girls man men woman women adult adults friend friends "
           "book books page pages pencil pencils pen pens marble marbles card cards sticker stickers toy toys "
           "ball balls car cars bike bikes bicycle bicycles tree trees flower flowers plant plants seed seeds "
           "cookie cookies cake cakes cupcake cupcakes muffin muffins pie pies slice slices candy candies "
           "chocolate chocolates sandwich sandwiches pizza pizzas bottle bottles glass glasses box boxes "
           "bag bags basket baskets bucket buckets jar jars can cans packet packets pack packs crate crates "
           "item items object objects piece pieces point points step steps way ways game games match matches "
           "ticket tickets coin coins bill bills stamp stamps shell shells rock rocks stone stones "
           "animal animals dog dogs cat cats bird birds fish chicken chickens cow cows horse horses sheep "
           "pig pigs duck ducks goat goats legs leg wheel wheels house houses room rooms floor floors "
           "shirt shirts sock socks shoe shoes hat hats dress dresses chair chairs table tables "
           "photo photos picture pictures song songs movie movies episode episodes letter letters word words "
           "question questions problem problems test tests lap laps mile-long trip trips visit visits "
           "cupful bowl bowls plate plates lesson lessons class classes hour-long player players team teams "
           "member members worker workers employee employees customer customers guest guests "
           "vote votes goal goals run runs home-runs bead beads button buttons block blocks brick bricks "
           "tile tiles square-feet gift gifts present presents envelope envelopes balloon balloons "
           "crayon crayons paper papers sheet sheets notebook notebooks dollar-bills nickel nickels dime dimes "
           "quarter-coins loaf loaves bread rolls roll sandwich-es sticks stick cans-of "
           "integer integers number numbers digit digits solution solutions triangle triangles "
           "side sides edge edges face faces vertex vertices diagonal diagonals term terms root roots "
           "outcome outcomes arrangement arrangements combination combinations permutation permutations "
           "possibility possibilities element elements subset subsets factor factors divisor divisors "
           "multiple multiples prime primes path paths value values answers",
           "counted nouns: they name what is counted and carry no number of their own (`18 times` is 18 "
           "times, not 18 multiplied by something; `dozen`, `score`, `pair`, `gross` are numerals and left out)"),
    _entry("relative", "fewer more less farther further longer shorter taller older younger higher lower faster "
           "slower heavier lighter bigger smaller larger greater later earlier cheaper wider narrower deeper "
           "thicker thinner warmer colder hotter closer nearer richer sooner",
           "a comparative after the one value answers a \"how much more\" question: the value is the "
           "difference asked for (before the value, `more than 3` is an inequality and is not admitted)"),
    _entry("than", "than", "the object of a comparison after a comparative"),
    _entry("tail", "ago left remaining each apiece old long tall wide high deep away apart altogether overall "
           "combined total in all per of for",
           "after a unit: where or whose the counted things are (`3 hours ago`, `students in total`, "
           "`5 years old`, `cups of flour`, `per day`); none scales the value"),
    _entry("verb", "is are was were be been will equals equal equaled equalled makes made has have had gets got "
           "costs cost weighs weighed measures measured needs needed swam swims ran runs walked walks drove "
           "drives rode rides flew flies traveled travelled travels sold sells bought buys paid pays spent "
           "spends earned earns saved saves ate eats read reads wrote writes collected collects scored scores "
           "baked bakes picked picks received receives gave gives took takes owns owned owes owed contains "
           "contained holds held uses used totals totaled totalled comes came amounts amounted becomes became "
           "remains remained gives lasts lasted takes jumped jumps climbed climbs planted plants grew grows "
           "found finds counted counts needs sees saw watched watches started starts began begins finished "
           "finishes waited waits worked works studied studies practiced practices slept sleeps stayed stays "
           "lived lives lost loses won wins invested invests borrowed borrows lent lends charged charges "
           "get find obtain solve solves solved increases increased decreases decreased",
           "verbs that link a subject to the value it states (none hedges: `would`, `might`, `could`, "
           "`doubt`, `guess` are left out)"),
    _entry("lead", "so thus therefore hence finally consequently then altogether overall adding combining summing "
           "multiplying dividing subtracting simplifying solving computing calculating substituting answer here",
           "what may open a sentence that the lenient profile reads without an anchor (`So it is 6`, `Adding, we "
           "get 42`): a connective that concludes or a step that says how the value was found; none hedges or "
           "scales (`maybe`, `roughly`, `if` are left out)"),
    Entry("closing", frozenset({"in the end", "at the end", "finally", "in conclusion"}),
          "phrases after the value that say the statement is the last one (`$x = \\frac{1}{2}$ in the end`, "
          "docs/math.md \"Math grading rules\"); none scales, negates or hedges it"),
    _entry("afterword", "i hope it this that is are was the answer final correct consistent checking check checked "
           "verified verify done helps help solution result our my so thus therefore hence indeed above boxed "
           "as required desired we have found obtained got which matches match with figure diagram",
           "what may follow the answer's sentence (`I hope it is correct.`, `Checking: the answer is consistent.`, "
           "`Done.`): words that confirm the answer; a retraction, a doubt or a second value (`Wait, that's "
           "wrong.`, `No, it is 7.`) has a word or a digit outside them, and the answer is not read"),
    _entry("det", "the a an this that these those his her its their our my your each every", "determiners"),
    _entry("pronoun", "it he she they we you there which", "pronouns as the subject"),
    _entry("prep", "of in on for from at with by to", "prepositions inside a subject (`the number of apples "
           "in the box is`); before the value only `to` after a verb (`is equal to`) and `of` (`a total of`)"),
    _entry("adj", "largest smallest greatest least total final new original remaining common maximum minimum max "
           "min average mean median whole entire first second third last next other same correct required "
           "missing possible unknown measure value exact positive real identity zero special ordered expected constant units "
           "fourth fifth",
           "adjectives in a subject (`the least common multiple is`): before the value they are not admitted "
           "(`at least 3` is an inequality)"),
    _entry("noun", "answer answers result total sum difference product quotient value values number amount cost "
           "price loss gain area perimeter volume length width height depth distance speed rate time age weight mass "
           "radius diameter circumference angle measure probability ratio percentage score savings profit "
           "balance change remainder count slope intercept coordinate minimum maximum average mean median "
           "temperature class school family group team store farm garden bakery shop money salary income "
           "bill budget population capacity total-cost share output solution expression side base "
           "flour sugar water milk rice juice paint sand soil oil butter cheese meat beef coffee tea gas fuel "
           "fabric wood rope wire ribbon yarn candy fruit food grain honey salt matrix matrices vector pair fractions "
           "system measurement position degree set sets investment investments earnings deposit payment "
           "coefficient determinant term digit",
           "quantity nouns that name what a subject states: each names a quantity a question asks for (`error`, "
           "`uncertainty`, `tolerance` are left out: they name how far a value is from the answer, and `Error: "
           "\\boxed{6}`, `an error of \\boxed{6}`, `The error is 6` state no answer)"),
    _entry("cjk_subject", "答案是 答案为 答案 是 为 等于 的值是 的值为 的值等于 值是 值为 结果是 结果为",
           "Chinese subjects: \"the answer is\", \"the value of y is\", \"equals\""),
    _entry("unit", "厘米 米 千米 公里 毫米 克 千克 公斤 秒 分钟 分 小时 天 年 元 角 个 度 人 本 只 条 张 块 次 岁",
           "Chinese units and measure words (never 十 百 千 万 亿, which scale, nor 倍, a multiple)"),
    _entry("unit", "個 台 枚 匹 冊 本 人 回 歳 円 ドル",
           "Japanese counters and currencies (MGSM's `答えは39個。`): they say what is counted (never 十 百 千 万 "
           "億, which scale, nor 倍, a multiple, nor 約, about)"),
    _entry("copula", "です",
           "Japanese sentence-final copula (\"is\", MGSM's `答えは11です。`): it only ends the statement; "
           "`でしょう` (probably) and `かもしれません` (may be) hedge and are left out"),
)

ANCHOR_LEADS = frozenset(
    "so thus therefore hence finally overall consequently accordingly altogether then in conclusion summary short "
    "sum the this my our final correct right complete exact full answer answers is "
    # the Latin-script anchors of extract.ANCHORS in other languages: their determiners and concluding words
    "die also somit daher endgültige richtige "  # German (`Die Antwort lautet 39.`)
    "la le donc ainsi finale bonne "  # French (`La réponse est 11.`)
    "el entonces así por lo tanto correcta "  # Spanish (`La respuesta es 11.`)
    "kwa hiyo hivyo".split()  # Swahili (`Jibu ni 11.`)
)
"""What may stand before an English answer anchor in its sentence (`Thus, the answer is`, `So the
final answer is`, `Final Answer: The final answer is`): connectives that conclude, determiners, and
adjectives that say the answer is the final one, and the same in the other Latin-script anchor
languages. Not words around a value (`admitted` does not
hold them): `The wrong answer is 6`, `I doubt the answer is 6`, `If n is odd, the answer is 6`
state no answer (docs/math.md "Answer grammar")."""
_LEAD_TOKEN_RE = re.compile(r"[^\W\d_]+|[^\s\w]|\d+")
_LEAD_MARKS = frozenset("*#:,-_>|")
_ANCHOR_MARKS = _LEAD_MARKS - {"-"}
"""The marks an anchor's lead may hold (`anchor_lead`): a `-` before an anchor is a list's bullet only at its line's
start, where `last_break` reads it with the one table of line marks (`_LINE_MARKS_RE`); elsewhere it is a minus or a
dash, no lead (fx29af, red team 17: `-\nthe answer is \boxed{6}`)."""


SCRIPT_LEADS: dict[str, tuple[str, ...]] = {
    "Han": ("所以", "因此", "因而", "故", "综上所述", "综上", "总之", "最终", "最后", "于是", "那么", "即", "正确", "的"),
    "Japanese": ("よって", "したがって", "だから", "つまり", "ゆえに", "なので", "結局", "最終的な", "最終的に", "正しい"),
    "Cyrillic": ("итак", "таким", "образом", "следовательно", "поэтому", "значит", "окончательный", "правильный",
                 "итоговый", "в", "итоге"),
    "Bengali": ("সুতরাং", "অতএব", "তাই", "অর্থাৎ", "চূড়ান্ত", "সঠিক"),
    "Telugu": ("కాబట్టి", "అందువల్ల", "అంటే", "చివరి", "సరైన", "దశలవారీగా"),
    "Thai": ("ดังนั้น", "สรุป", "สรุปแล้ว", "ในที่สุด", "ท้ายที่สุด"),
}
"""What may stand before an answer anchor of another script in its sentence, one allowlist per script (the
Latin script's is `ANCHOR_LEADS`): connectives that conclude (\"so\", \"therefore\", \"thus\") and adjectives that
say the answer is the final or correct one (MGSM's `所以，答案是`, MathVista's `所以，正确答案是`). A hedge, a
negation or a judgement is none of them: `错误的答案是6` (\"the wrong answer\"), `我猜答案是6` (\"I guess\"),
`Неправильный ответ — 6`, `ভুল উত্তর হল 6` state no answer (all paid before red team 4). Scripts written
without spaces (Han, Japanese, Thai) read a run as a sequence of these words."""
_SCRIPT_WORDS = frozenset(w for words in SCRIPT_LEADS.values() for w in words)
_SCRIPT_CONNECTIVES = frozenset(
    "所以 因此 因而 故 综上所述 综上 总之 于是 よって したがって だから ゆえに ดังนั้น สรุป สรุปแล้ว সুতরাং অতএব কাজেই "
    "కాబట్టి అందువల్ల".split())
"""The `SCRIPT_LEADS` words of scripts without case that conclude ("so", "therefore"), each alone a box's lead as
LEXICON's `lead` words are (`box_lead`: `ดังนั้น\n\\boxed{6}`, red team 19's pedantry); never an adjective (`正确`,
`最终的`), `的` or `即`, which read only before an anchor."""
_LEAD_WORD_OR_DIGIT_RE = re.compile(r"\w")


def _numbered_label(head: str) -> bool:
    """Whether `head`, the words before an anchor's lead's colon, is a transcript's numbered section (`Step 1`,
    `Attempt 2`, `**Sample 3**`): `_NUMBERED_LABELS` words with their number or letter, read by `_label_phrase` as a
    box's label is (`Attempt:`, `Wrong step 1`, `Attempt 1 wrong` are none)."""
    words = [w for w in _LEAD_TOKEN_RE.findall(head) if w not in "*#_"]
    return any(w.lower() in _NUMBERED_LABELS for w in words) and all(
        w.lower() in _NUMBERED_LABELS or w.isdigit() or math_letter(w) or w in "()" for w in words
    ) and _label_phrase(words)


_SCRIPT_TOKEN_RE = re.compile(r"[^\s!-/:-@\[-`{-~，。、：；！？—–]+|[!-/:-@\[-`{-~，、：—–]")


def _ends_script_connective(text: str, whole: bool = True) -> bool:
    """Whether `text` ends with one of `_SCRIPT_CONNECTIVES` as a whole run that opens its statement (`box_lead`): at
    the text's start or after a sentence's end mark, so nothing before it goes unread (red team 20 class 1: `The answer
    could be 所以 \\boxed{6}`, `约 因此 \\boxed{6}`, `The answer minus 1 is\nสรุป \\boxed{6}` paid)."""
    runs = _SCRIPT_TOKEN_RE.findall(text[-40:])
    if not runs or runs[-1] not in _SCRIPT_CONNECTIVES or not text.endswith(runs[-1]):
        return False
    before = text[: -len(runs[-1])].rstrip()
    return not before or before[-1] in "。！？!?" or before[-1] == "." and period_ends(before + " x", len(before) - 1, whole)


def anchor_lead(prefix: str) -> bool:
    """Whether `prefix`, the words before an answer anchor in its sentence, only lead to it: each word is
    one of its script's leads (`ANCHOR_LEADS`, `SCRIPT_LEADS`) or a mark (docs/math.md "Answer grammar",
    "Before an anchor")."""
    if any(line.strip() and not _LEAD_WORD_OR_DIGIT_RE.search(line) for line in prefix.split("\n")[:-1]):
        return False  # a mark alone on its line (`>`, `#`, `*`): no line's mark (`marks_end`), an operator (fx29ag)
    prefix = _unmarked(prefix)
    colon = prefix.find(":")
    if colon >= 0 and _numbered_label(prefix[:colon]):
        prefix = prefix[colon + 1:]  # `Step 1: the answer is`, as before a box (`box_label`; fx29ag)
    prefix = strip_stating(_LEAD_PHRASE_RE.sub(" ", prefix))  # `We see that the answer is`
    return all(tok in _ANCHOR_MARKS or tok.lower() in ANCHOR_LEADS or _script_leads(tok)
               for tok in _SCRIPT_TOKEN_RE.findall(prefix))


_STEP_CLAUSE_RE = re.compile(
    r"\s*(?i:(?:we|i)\s+(?:get|got|have|had|find|found|obtain|obtained|see|know|compute|computed|calculate|calculated)"
    r"(?:\s+that)?|since|as|because|given|substituting|plugging\s+in|using|from)\s+§(?:\s*(?:(?:,|and)\s*)?§)*\s*"
    r"|\s*(?:由此可得|由此得|可得|解得|得到|我们得到|求得)\s*§\s*")
"""A clause that states an earlier step or premise in math alone (`We get $x = 6$, so the answer is 6`, `Since $a =
2$,`): math segments after a pronoun and a stating verb, or after a word that gives a premise; no word of its own. Chinese
"hence we get", "solving gives" (`由此可得 $x = 6$`, `解得 $x = 6$`) are such verbs (red team 19's pedantry)."""
STATING_CLAUSES: tuple[tuple[str, str], ...] = (
    (r"(?:we|i)\s+(?:can\s+)?(?:see|find|found|get|got|conclude|concluded|know|have|obtain|obtained)(?:\s+that)?",
     "a speaker's finding (`we see that`, `we conclude that`, `I found that`); `think`, `guess`, `doubt`, `believe` "
     "and modals are not findings and are left out"),
    (r"it\s+follows\s+that|it\s+is\s+(?:now\s+)?(?:clear|evident|obvious|easy\s+to\s+see)\s+that",
     "an impersonal conclusion (`it follows that`, `it is clear that`); `it is likely that`, `it is not true "
     "that`, `it is possible that` judge the clause and are left out"),
    (r"(?:which|this|that)\s+(?:means|shows|gives|implies)(?:\s+us)?(?:\s+that)?",
     "a conclusion from the step before (`this means`, `which shows that`, `this gives us`)"),
    (r"putting\s+(?:these|this|them|it|everything)\s+(?:all\s+)?together\s+(?:gives|yields)(?:\s+us)?"
     r"|(?:combining|adding)\s+(?:these|them|both|everything)",
     "a conclusion from the steps before (`Putting these together gives`, `Combining these, we get`)"),
    (r"in\s+total|in\s+all|altogether|overall|in\s+the\s+end|in\s+conclusion|in\s+summary|in\s+short"
     r"|(?:with|from)\s+(?:this|that|these|here)|through\s+(?:this|these)\s+(?:analysis|reasoning|argument|steps)"
     r"|using\s+(?:this|these|here)|(?:given|using)\s+that(?=\s*(?:,|$))"
     r"|by\s+substitution|for\s+part\s+\(?\s*(?:(?![km])[a-z]\d?|\d{1,2}(?:(?![km])[a-z])?|[ivx]{1,4})\s*\)?",
     "openers that sum up or say which part is answered (`In total it is`, `From this we get`, `Through this analysis,` "
     "(Omni-MATH's outputs), `For part (a) we get`); a preposition's phrase outside them (`In thousands`, `At least`, "
     "`For odd n`) scales, bounds or conditions the value, as a scale's letter for a part "
     "does (`for part k`: fx29ao, red team 20 class 7); `given that` and `using that` only right before a comma "
     "(`Given that, we get`), since before a clause they open a premise or a condition (`Given that n is odd we get`, red team 5 class 5)"),
    (r"in\s+other\s+words|at\s+(?:last|the\s+end)|by\s+(?:the\s+)?(?:quadratic\s+formula|pythagorean\s+theorem"
     r"|law\s+of\s+(?:cosines|sines)|vieta'?s\s+formulas?|symmetry|inspection|induction|am-?\s*gm|remainder\s+theorem"
     r"|sum-to-product|product-to-sum)",
     "openers that restate or name how the value was found (`In other words, \\boxed{6}`, `By the quadratic formula, "
     "$x = \\boxed{6}$`, `By sum-to-product,` of math-verify's suite): a closed list of methods, since `by my guess`, "
     "`by a rough estimate` hedge"),
)
"""Main clauses that state the clause after them (docs/math.md "Answer grammar", "Stating clauses"), each with its
reason: an allowlist, matched whole at a clause's start after concluding connectives (`so`, `thus`, `hence`,
`therefore`), and never the end of the reading: the clause after it is read by the same grammar as a sentence
start (`box_clause`, `box_subject`, `anchor_lead`), so `we see that maybe x is`, `it is clear that x is not`, `we
know that in thousands it is` state no answer."""
_STATING_RE = re.compile(r"(?:" + "|".join(p for p, _ in STATING_CLAUSES) + r")", re.IGNORECASE)
_STATING_PREFIX_RE = re.compile(
    r"^\s*(?P<leads>(?:(?:so|thus|hence|therefore|then|now|and|finally)\b\s*(?:,\s*)?)*)(?:" + _STATING_RE.pattern
    + r")(?=[\s,]|$)\s*(?:,\s*)?", re.IGNORECASE)
"""Each run of spaces has one place in the match (no two adjacent `\\s*`), so a failed match backtracks linearly
(docs/math.md "Answer grammar", "Bounds"): `so  so  so ...` with the spaces split between two quantifiers took
exponential time."""


def strip_stating(text: str) -> str:
    """`text` without the stating main clauses it opens with (`STATING_CLAUSES`), its concluding connectives kept:
    what is left is read as a sentence start (`Thus we see that the answer is` -> `Thus the answer is`)."""
    for _ in range(4):  # `Thus we see that it follows that ...`: bounded
        m = _STATING_PREFIX_RE.match(text)
        if m is None:
            break
        text = m.group("leads") + " " + text[m.end():]
    return text


def _stated_tokens(tokens: list[str]) -> list[str]:
    """`tokens` (words, math segments) after their opening connectives and stating main clauses (`strip_stating`);
    `tokens` unchanged when they open with none."""
    joined = " ".join(tokens)
    cut = 0
    for _ in range(4):  # as `strip_stating`
        m = _STATING_PREFIX_RE.match(joined, cut)
        if m is None:
            break
        cut = m.end()
    if not cut:
        return tokens
    starts = [0]
    for t in tokens[:-1]:
        starts.append(starts[-1] + len(t) + 1)
    return [t for t, a in zip(tokens, starts) if a >= cut]


_STATING_END_RE = re.compile(r"(?:^|\s)(?:" + _STATING_RE.pattern + r")$", re.IGNORECASE)
_LEAD_PHRASE_RE = re.compile(
    r"^\s*(?i:" + _STATING_RE.pattern + r")\s*(?=,|\s|$)")
"""Phrases that conclude from what came before (`Which means the answer is`, `With this,`, `From this,`): matched
whole at a clause's start, never as loose words (`this`, `with` alone are no lead: docs/math.md "Answer grammar",
"Before an anchor")."""


def _script_leads(run: str) -> bool:
    """Whether `run` (a word, or a run of a script written without spaces) is one or more of `SCRIPT_LEADS`'s
    words end to end. Linear in practice: a run is short, each step tries each lead once."""
    run = run.lower()
    ends = {0}
    for i in range(len(run)):
        if i in ends:
            ends |= {i + len(w) for w in _SCRIPT_WORDS if run.startswith(w, i)}
    return bool(run) and len(run) in ends



# Class "before the comma" (red team 3, class 4): the clauses of the anchor's (or box's) sentence
# before the clause that holds it. Kept apart from `anchor_lead` and `box_lead` on purpose.
_DISCOURSE = frozenset("okay ok alright yes now well wait actually putting it together all everything combining overall "
                       "other words".split())
"""Openers that hold no claim about the value (`Okay,`, `Wait,` or `Actually,` before a corrected answer, `Putting it
all together,`, `In other words,`); besides them, `_CLAUSE_OPENERS` (`Checking,`, `Next,`) say how it was found."""
_CJK_LEADS = ("所以", "因此", "因而", "故", "综上所述", "综上", "总之", "最终", "最后", "于是", "那么", "即")
_CLAUSE_SPLIT_RE = re.compile(r"[,，;；、]|\.\.\.|…")
_PART_LABEL = r"(?:(?![km])[a-z]\d?|\d{1,2}(?:(?![km])[a-z])?|[ivx]{1,4})"
_PART_CLAUSE_RE = re.compile(
    r"^\s*(?:for\s+)?(?:part\s+\(?" + _PART_LABEL + r"\)?|\(?" + _PART_LABEL + r"\))\s*$", re.IGNORECASE)
"""A part's label as a clause (`_lead_clause`: `For part (a)`, `(ii)`, `3b)`): a letter, a number or a roman numeral
after `part` or before `)`, never a word (`not`, `and`: fx29am, red team 19 class 1's `So $a = 2$, not, $x =
\\boxed{6}$`), a bare letter or number, nor a scale's letter `k` or `m` alone or after a number (fx29ao, red team 20 class
7: `k, $x = \\boxed{6}$`, `(M)`, `2k`, `(1k)`, `for part k`)."""
_REJECTION_CLAUSE_RE = re.compile(r"^\s*(?i:it\s+is\s+|it's\s+)?(?i:not)\s+(?:\(?[A-Z]\)?|-?\d+(?:\.\d+)?)\s*$")
_SETTLED_CLAUSE_RE = re.compile(
    r"^\s*(?:and\s+)?(?:the|this|that|these|each|every|all)\s+"
    r"(?:inequality|inequalities|identity|identities|equation|equations|claim|statement|condition|conditions)\s+"
    r"(?:is|are|has\s+been|have\s+been)\s+(?:now\s+)?(?:proven|proved|verified|established|satisfied|confirmed|shown)\s*$", re.IGNORECASE)
"""A clause that says a premise is settled (`Thus, the inequality is proven, and the final answer is:`, Omni-MATH's
outputs): a determiner, a statement's noun, a link and a participle that settles it, each from a closed list; no value,
no hedge, no negation (`the inequality is not proven` is none)."""
_SENTENCE_START_RE = re.compile(r"\n|(?<!\.\.)[.!?](?=\s)|[。！？।]|[$}>]|\\[\])]")
_SENTENCE_END_RE = re.compile(r"\n|(?<!\.\.)[.!?](?:(?<!\\)\$|\))?(?=\s)|[。！？।]|(?<=[\u0e00-\u0e7f\d]) +(?=[\u0e00-\u0e7f])|\\\]|(?<!\\)\$\$(?!\$)")
"""Where a sentence starts for `lead_clauses` and `box_lead_clauses`: a sentence end (a period that closes a math segment
too, `= 0.$ By the quadratic formula`, or a parenthesis, `(... a rectangle.) Therefore`) or a line break (a display's end is one); never markup (`\\textbf{Maybe}, the
answer is`, `<b>Maybe</b>,`, `Maybe for $n=3$,` are read through)."""
_INLINE_MATH_RE = re.compile(r"(?<!\\)\$(?:[^$\\]|\\.){0,200}\$|\\\([^\n]{0,200}?\\\)")
_MATH_OPENERS_RE = re.compile(r"(?<!\\)\$|\\[(\[)\]]")


_MATH_DELIMITER_RE = re.compile(
    r"(?<!\\)\$\$|(?<!\\)\$|\\[()\[\]]|\\(?:begin|end)\s*\{(?:equation|align|gather|multline|eqnarray|flalign|alignat|displaymath)\*?\}")
_CLOSER = {"$$": "$$", "$": "$", "\\(": "\\)", "\\[": "\\]"}


def _math_spans(text: str, closed: bool = False) -> list[tuple[int, int]]:
    """The math segments of `text` (inline, display, a display environment), as (start, end) pairs in order; one left
    open runs to the end (left out when `closed`: `3 $ chacun`, a currency sign). Read from the text's start, so a `$$`
    is an opener or a closer by what precedes it."""
    spans, opened, want = [], -1, ""
    for m in _MATH_DELIMITER_RE.finditer(text):
        token = re.sub(r"\s+", "", m.group())
        if opened < 0:
            if token.startswith("\\end") or token in ("\\)", "\\]"):
                continue  # a stray closer opens nothing
            opened, want = m.start(), _CLOSER.get(token, token.replace("\\begin", "\\end"))
        elif token == want:
            spans.append((opened, m.end()))
            opened = -1
    if opened >= 0 and not closed:
        spans.append((opened, len(text)))
    return spans


_BLOCK_END_RE = re.compile(r"\s*\[/asy\]")
"""A line that closes a block of its own (an Asymptote figure's `[/asy]`): no sentence runs through it. A code fence is not
listed: its opening and closing lines are alike."""


_LINE_MARKS_RE = re.compile(r"[ \t]*(?:(?:\*\*|__|[*_]|#+|>|[-+•]|\d{1,3}[.)](?=[ \t]))[ \t]*)*")
"""The marks a line may open with before its first word, one table for a sentence's opening and a continuation (fx29ad,
red team 17 class 3): bold or emphasis, a heading, a quote, a list's bullet or number (`- the answer is 6`, `> `,
`*the answer is 6*`, `1. `)."""


def _line_letter(text: str, at: int) -> tuple[str, str]:
    """The first letter of the line at `at` after its marks (`_LINE_MARKS_RE`) and the character after it; ("", "")
    when the line opens with no letter (math, a box, a number, `#### 6`)."""
    k = _LINE_MARKS_RE.match(text, at).end()  # type: ignore[union-attr]
    first = text[k: k + 1]
    return (first, text[k + 1: k + 2]) if first.isalpha() else ("", "")


def opens_sentence(text: str, at: int, ended: bool = False) -> bool:
    """Whether the line at `at` opens a sentence of its own: a capitalised word (an upper-case letter before a
    lower-case one, or `A`/`I` alone before a word) or a letter of a script without case where what ends the line above
    ends a sentence, after its marks (`So the answer is`, `**Final Answer**`, `Ответ: 6`, `答案是`); as after a sentence
    end, what the line before left unfinished is a fragment, never the new sentence's words (`In thousands. The answer
    is 6` reads alike). A lower-case letter of any cased script continues (fx29ad, red team 17 class 4: `Возможно\nответ
    — 6.`, `Not\n𝑥 = \boxed{6}`); read by `unicodedata`, an allowlist of categories. `A`/`I` alone open one only
    before a word (`_LONE_CAPITAL_GAP_RE`: `A car`, `I think`, `I'm`, a transcript's `A: the answer is`): before a
    relation, a colon and a value, a subscript or a script they name a quantity (fx29aj, red team 18 class 4: `I doubt that\nA = \boxed{6}`,
    `Maybe\nI: \boxed{6}`). A script without case shows no capital, so the line above decides (fx29aj, red team 18
    class 5): its line opens a sentence only where `_caseless_line_opens` reads one opening (after a sentence's end as
    the same text on one line reads it, at the text's start, under a step line, a label, a heading or math that opens
    one) or after a statement that ends at a display's or a box's end (`ended`, `_ends_statement`); after anything else
    the line above is read with it as its lead (`So\n答案是 6。` as `So 答案是 6。`; `I doubt that\n答案是 6。`, `Not\nคำตอบคือ 6`,
    `以千为单位；\n答案是 6。` state none)."""
    first, after = _line_letter(text, at)
    if not first:
        return False
    kind = unicodedata.category(first)
    if kind == "Lo":  # a script without case (`答案是`, `ดังนั้น`, `সুতরাং`)
        return ended or _caseless_line_opens(text, at)
    if kind not in ("Lu", "Lt"):
        return False
    if bool(after) and unicodedata.category(after) == "Ll":
        return True
    if first not in "AI":
        return False
    gap = _LONE_CAPITAL_GAP_RE.match(text, _LINE_MARKS_RE.match(text, at).end() + 1)  # type: ignore[union-attr]
    word = text[gap.end(): gap.end() + 2] if gap is not None else ""
    return bool(word) and unicodedata.category(word[0]) == "Ll" and (
        gap.group() in ("'", "’") or len(word) == 2 and word[1].isalpha())  # type: ignore[union-attr]


def _caseless_line_opens(text: str, start: int) -> bool:
    """Whether the caseless line at `start` opens a sentence (`opens_sentence`; fx29ar, red team 23 class 1; fx29as, red
    team 24), read upwards line by line, an allowlist of three kinds of line above (docs/math.md "Answer grammar", "Line
    breaks in a script without case"):
    - a line whose end ends a sentence as the same text joined on one line would (`_joined_end`: `。！？!?।`, or a
      sentence's period as `period_ends` reads a period before a lower-case word), or the text's start: it opens one.
      A line break adds no sentence end: after `；` (a clause's end), `...`, `…` or an abbreviation's period
      (`approx.`, `ca.`) the line below is read with the line above as on one line (`以千为单位；\n答案是 6。` as
      `以千为单位；答案是 6。`; red team 24 class 1);
    - a step line (`_caseless_statement`: `小明有 6 个苹果`, `所以∠DEF＝90°-65°＝25°；`), whose break ends a sentence
      only where the line opens one itself (`如果\n小明有 6 个苹果\n答案是 6。` is one sentence);
    - a line that only opens what follows (`_OPENING_LINE_RE`: a section's label or heading, `解：`, `### Solution`,
      `Step 1:`; a rule; a part's number; a concluding connective alone, `所以；`): the line below opens a sentence
      where this line does, as at the text's start.
    Any other line above (`可能`, `以千为单位`, `In thousands`, `I doubt that；`) runs into the line below, and a blank
    line ends nothing (`以千为单位\n\n小明有 6 个苹果`). Math alone (`$$2 + 4 = 6$$`) opens no line either (fx29au, red
    team 26 classes 1, 2 and 4: spacing escapes and escaped letters hid words in what fx29as/fx29at read as plain
    math, and its first-line climb was cubic): a step line below it runs into it, a cost taken. Bounded: at most
    `_CASELESS_WALK_LINES` lines of `_CASELESS_LINE_CHARS` characters are read (beyond them or above a longer line, no
    sentence opens; fx29ax, red team 28's TIME), and a window's cut (`WINDOW_CUT`) is no
    text's start: a walk that reaches it reads no further, as beyond the bound (fx29av, red team 27 class 4).
    A step line's relation or premise names only what the line at `start` (the answer's line) names
    (`_caseless_relation`; fx29av, red team 27 classes 1-3) or the task's problem text uses (`problem_names`, fx29ay):
    any other name is free text."""
    problem = _PROBLEM.get()
    known = _answer_names(text, start) | (_problem_names(problem) if problem else frozenset())
    for _ in range(_CASELESS_WALK_LINES):
        end = start
        while end > 0 and text[end - 1].isspace():
            end -= 1
        if end == 0 or _joined_end(text, end):
            return True
        floor = end - _CASELESS_LINE_CHARS - 1  # a line break here or later: the line is this long at most
        line_start = text.rfind("\n", max(floor, 0), end) + 1
        if not line_start and floor >= 0:
            return False  # longer than a step line or a label: no line of the allowlist, decided before it is read
        if text.startswith(WINDOW_CUT, line_start):
            return False  # the window's cut: what stands above it is unread (`tail_window`)
        whole = "\n" in text[end:start]  # a whole line above, not the words before `start` on its own line
        line = text[line_start:end]
        if _caseless_statement(line, known) or whole and _OPENING_LINE_RE.fullmatch(line.strip()):
            start = line_start
            continue
        return False  # any other line, math alone included (fx29au), runs into the line below
    return False


_CASELESS_WALK_LINES = 64
"""How many lines above a caseless line `_caseless_line_opens` reads: far beyond any chain of step lines and labels
a solution writes before a caseless answer; beyond it the line opens no sentence (the safe reading)."""
_CASELESS_LINE_CHARS = 300
"""The longest line above a caseless line that `_caseless_line_opens` reads as a step line or an opening label: far
beyond a worked solution's step (`所以∠DEF＝∠DEB-∠DEC＝90°-65°＝25°；`, `小明有 6 个苹果，小红有 4 个苹果`); a longer line runs
into the line below (the safe reading), decided before it is read. Red team 28's TIME: every line break of the lead
window walked up to a 96,000-character sum line and scanned it, so a 100,000-character completion graded in ~6 s
(line breaks x line length); now each walk reads at most `_CASELESS_WALK_LINES` x this many characters."""

WINDOW_CUT = "\x00"
"""The first character of a window that cuts its text (`tail_window`), in place of the character cut: no reader takes
it for a sentence's start or end, a letter, spacing or a step, so a walk that reaches it (`_caseless_line_opens`)
stops there as beyond its bound, never as at the text's start (fx29av, red team 27 class 4: `可能` + 8,300 spaces +
`\\n答案是 6。` paid, the window's start read as the text's). A NUL the completion writes reads the same: refused."""


def tail_window(text: str, chars: int) -> str:
    """The last `chars` characters of `text`, the window extraction reads prose in (`MathLimits.tail_chars`), its first
    character `WINDOW_CUT` where the window cuts the text; a position in it is the text's less `len(text) - chars`, as in
    a plain slice. What lies before the cut is unread, so the cut opens nothing."""
    if len(text) <= chars:
        return text
    return WINDOW_CUT + text[len(text) - chars + 1:]


def _joined_end(text: str, end: int) -> bool:
    """Whether `text[:end]` ends with a sentence's end as the same text joined on one line reads it (`_caseless_line_opens`):
    `。！？!?।`, or a period that ends a sentence by its own reading (`period_ends` before a lower-case word: after a
    number, math, `i.e.` or a word the grammar knows; never `...`, nor an abbreviation's or an unknown word's
    period, `approx.`, `ca.`, `答案约为.`). A clause's mark (`；`, `，`), an ellipsis (`...`, `…`) or a colon ends no
    sentence on one line, so its line break ends none (red team 24 class 1)."""
    mark = text[end - 1]
    if mark in "。！？!?।":
        return True
    return mark == "." and text[end - 2: end - 1] != "." and _period_word_ends(text, end - 1, plain=True)


_OPENING_LABEL = (
    r"(?:解|解答|解析|分析|答|详解|思路|解题思路|解题过程|计算过程|计算如下|由题意得|步骤|第[ \t]?(?:\d{1,2}|[一二三四五六七八九十]{1,2})[ \t]?步"
    r"|(?i:solution|analysis|explanation|step[ \t]?\d{1,2}))")
_OPENING_MARKS = r"(?:[*_#>][ \t]*)*"
_OPENING_TAIL = r"(?:[ \t]*[*_:：])*"
_OPENING_LINE_RE = re.compile(
    _OPENING_MARKS + r"(?:【[ \t]?" + _OPENING_LABEL + r"[ \t]?】|" + _OPENING_LABEL + r"|[（(][ \t]?\d{1,2}[ \t]?[）)])"
    + _OPENING_TAIL + r"|(?:所以|因此|因而|于是|综上所述|综上|ดังนั้น)[ \t]*[，,；;：:]?|-{3,}|\*{3,}|_{3,}")
"""A line that only opens what follows (`_caseless_line_opens`; fx29as, red team 24's pedantry), matched whole on the
line without its edge spacing (each run of spaces and marks has one place in the match: a failed match backtracks
linearly): after a heading's, bold or quote marks, a section's label of a worked solution with an optional colon (`解：`, `解答：`, `**解：**`,
`【解析】`, `分析：`, `答：`, `第一步：`, `Step 1:`, `### Solution`, `计算如下：`, `由题意得：`, `解` alone), a part's number
(`（1）`), a concluding connective alone with its mark (`所以；`), or a rule (`---`). An allowlist of labels: a label that
qualifies (`可能：`, `约：`, `以千为单位：`, `Answer in thousands:`) or any word after the label (`解：可能`) makes the line
none of these, and it runs into the next line."""


def _caseless_statement(line: str, known: frozenset[str]) -> bool:
    """Whether `line`, a line above a caseless line (`_caseless_line_opens`), states a step of its own so that its break
    ends it: each of its clauses (split at commas; one `；`, `;` or `.` may end the line, never `...`) is a step of `_CASELESS_STEP_RE`
    (`小明有 6 个苹果`, `小明有两个苹果，小红有四个苹果`, `把两个数相加`; fx29ao, red team 20's pedantry), a sum
    (`_CASELESS_SUM_RE`: `2 + 4 = 6 个`) or a relation of math alone whose last side is a number (`_CASELESS_RELATION_RE`:
    `所以∠DEF＝∠DEB-∠DEC＝90°-65°＝25°`, `所以 x = 6`, MathVista's), a premise of math alone only before another clause
    (`_CASELESS_PREMISE_RE`: `由于AB∥CD，`); the line holds a letter of a script without case and ends with one, or with a
    relation's number and its mark (`所以 x = 6；`). Any other line (`可能`, "maybe"; `以千为单位`, "in thousands"; `不是`, "not"; `อาจจะ`) is read
    with the line below as its lead (fx29al, red team 19 class 3), so `所以\n答案是 6。` pays and `可能\n答案是 6。`
    states none; a digit makes no statement (fx29ao, red team 20 class 4: `可能是6个`, "maybe 6"; `不是6个`, "not 6";
    `以1000为单位`, "in units of 1000", were read as statements before fx29ao). A relation's or premise's names are
    `known`'s only (`_caseless_relation`)."""
    body = line.rstrip(" \t")
    marked = body[-1:] in ("；", ";", ".")
    body = (body[:-1] if marked else body).rstrip(" \t")
    if not body or not any(unicodedata.category(c) == "Lo" for c in body):
        return False
    clauses = [c.strip() for c in re.split(r"[，,]", body)]  # without edge spacing: each match backtracks linearly
    if not (unicodedata.category(body[-1]) == "Lo" or marked and _caseless_relation(clauses[-1], known)):
        return False  # a relation ends a step line only with its mark (`所以 x = 6；`; `所以 x = 7\n答案是 6。` is one sentence)
    return all(_CASELESS_STEP_RE.fullmatch(c) or _CASELESS_SUM_RE.fullmatch(c) or _caseless_relation(c, known)
               or k < len(clauses) - 1 and _caseless_relation(c, known, premise=True) for k, c in enumerate(clauses))


def _caseless_relation(clause: str, known: frozenset[str], premise: bool = False) -> bool:
    """Whether `clause` is a caseless line's relation (`_CASELESS_RELATION_RE`) or, with `premise`, its premise
    (`_CASELESS_PREMISE_RE`), naming only `known` names (`_caseless_names`: the answer's line's). fx29av, red team 27
    classes 1-3: every budget of letters or names spelled words (`∠NOT`, `n + o`, `NO∥TX`), so a step line above a
    caseless answer states nothing that could qualify it: numbers alone, or names the answer itself uses or the task's
    problem text does (`problem_names`, fx29ay; a task without a problem, only the answer's)."""
    shape = _CASELESS_PREMISE_RE if premise else _CASELESS_RELATION_RE
    return bool(shape.fullmatch(clause)) and all(_known_name(name, known) for name in _caseless_names(clause))


def _known_name(name: str, known: frozenset[str]) -> bool:
    """Whether `known` holds `name` whole, or `name` is a figure's name (one to three capitals, bare or after `∠`/`△`)
    whose every capital `known` holds as a point of the problem's figure (`_problem_names`' `POINT` entries)."""
    return name in known or bool(_FIGURE_NAME_RE.fullmatch(name)) and all(POINT + c in known for c in name.lstrip("∠△"))


def _caseless_expression(depth: int) -> str:
    """A side of a caseless line's relation (`_CASELESS_RELATION_RE`; fx29au, red team 26 class 3): operands
    (`_caseless_operand`) with a binary operator between each two, spaced alike on both sides (`90°-65°`, `x + y`; never
    `e- x`, a spelled word's trailing operator)."""
    operand = _caseless_operand(depth)
    return operand + r"(?:(?:[ \t]+[+\-−×÷*/][ \t]+|[+\-−×÷*/])" + operand + r")*"


def _caseless_operand(depth: int) -> str:
    """An operand of a caseless line's relation (fx29au): a number with an optional decimal part, a degree sign or one
    letter after it (`65°`, `2.5`, `2x`), a single letter that no letter, `.` or `'` follows (`x`; never `n.o.t.`,
    `m'a'y`), an angle's or a triangle's name of one to three capitals (`∠DEB`, `△ABC`), or, `depth` levels deep, a
    parenthesised side (`(x + 1)`)."""
    letter = r"(?<![A-Za-z])[A-Za-z](?![A-Za-z.'’])"
    shapes = [r"\d+(?:\.\d+)?(?:[ \t]*°|" + letter + r")?", letter, r"[∠△][A-Z]{1,3}(?![A-Za-z.'’])"]
    if depth:
        shapes.append(r"\([ \t]*" + _caseless_expression(depth - 1) + r"[ \t]*\)")
    return "(?:" + "|".join(shapes) + ")"


_CASELESS_SIDE = _caseless_expression(2)
_CASELESS_NAMED_SIDE = (r"(?:(?<![A-Za-z])[A-Za-z](?![A-Za-z.'’])|[∠△][A-Z]{1,3}(?![A-Za-z.'’]))(?:(?:[ \t]+[+\-−×÷*/][ \t]+"
                        r"|[+\-−×÷*/])" + _caseless_operand(2) + r")*")
_CASELESS_EQUALS = r"[ \t]*[=＝][ \t]*"
_CASELESS_RELATION_RE = re.compile(
    r"(?:所以|因此|因而|于是|那么|故|ดังนั้น)?[ \t]?" + _CASELESS_NAMED_SIDE + r"(?:" + _CASELESS_EQUALS + _CASELESS_SIDE + r")*"
    + _CASELESS_EQUALS + r"\d{1,3}(?:\.\d{1,3})?(?:[ \t]*°)?")
"""A caseless line's clause that states a relation in math alone (`_caseless_statement`; fx29as, MathVista's
`所以∠DEF＝∠DEB-∠DEC＝90°-65°＝25°；`, red team 18's `所以 x = 6；`), parsed as a well-formed expression (fx29au, red team
26 class 3: `n.o.t.`, `m-a-y-b-e- x`, `NOT∥x` were read as names and signs): after an optional concluding connective,
sides (`_caseless_expression`) parted by `=`/`＝`, the first opening with a name (`x`, `∠B`, `∠DEB`), the last a number
of one to three digits with an optional degree sign; names the answer's line uses only (`_caseless_relation`). Numbers alone are a
sum, read only with its classifier (`_CASELESS_SUM_RE`: `所以 2 + 4 = 7` is none, red team 21). No word of its own in any
case or script (`所以 maybe x = 6；`), no approximation, bound or scale (`≈`, `<`, `千`, `%`, four digits fit none), no
trailing operator, no `.` outside a decimal. Each token's alternatives exclude each other, so a failed match
backtracks linearly."""
_CASELESS_PREMISE_RE = re.compile(
    r"又?(?:因为|由于)[ \t]?(?:(?<![A-Za-z])[A-Z]{2}[ \t]*[∥⊥][ \t]*[A-Z]{2}(?![A-Za-z.'’])"
    r"|" + _CASELESS_NAMED_SIDE + r"(?:" + _CASELESS_EQUALS + _CASELESS_SIDE + r")+)")
"""A caseless line's premise in math alone, read only before another clause of the line (`_caseless_statement`): a
line's relation of two point pairs, whole (`由于AB∥CD`, `又因为BE⊥AF`: "since", MathVista's; fx29au: never capitals
beside `∥`/`⊥` alone, `NOT∥AB`), or an equation of `_CASELESS_RELATION_RE`'s sides (`因为 x = 2`)."""


_CASELESS_NAME_RE = re.compile(r"[∠△]?[A-Za-z]+")
_ANSWER_SENTENCE_END_RE = re.compile(r"[\n。！？!?]")
_ANSWER_SUBJECT_RE = re.compile(
    r"[^\x00-\x7f]*?[ \t]*(?:\$|\\\(|\\boxed\{|\$\\boxed\{)?[ \t]*((?<![A-Za-z])[A-Za-z]|[∠△][A-Z])[ \t]*[=＝]")
"""The answer's subject (`_answer_names`): after the answer line's own words (no ASCII character among them: a
caseless label, `答案是 `, `最终答案：`, `คำตอบคือ `) and an optional `$`, `\\(` or `\\boxed{`, a single Latin letter or
`∠`/`△` and one capital, then `=`: `x` of `答案是 x = 6`, `∠B` of `答案是 ∠B = 65°`, `y` of `答案是 y = 3x = 6`."""


def _answer_names(text: str, start: int) -> frozenset[str]:
    """The one name the caseless line at `start` gives its value in its first sentence, the answer's subject
    (`_ANSWER_SUBJECT_RE`: `x` of `答案是 x = 6。`), or none. fx29aw, red team 28 class 1: fx29av took every run of letters in
    the answer's sentence, and the answer's own math writes any number of single letters that still read 6 (a subscript
    `$n_{o t} = 6$`, a product `$n o t = 6$`, a chain `n = o = 6`, units `6 m a y`), so the step line above spelled
    any word with them (`所以 n + o + t = 6；`); angle names of two or three capitals spelled one too (`∠NOT`). Known
    names are few and whole: one name of one letter (with `∠`/`△`, one capital), so the step lines above name at most
    that one, and a single letter spells no qualifier. Nothing from a subscript, a product, a chain's later members or
    units; the lenient path's folded letters (`to_ascii_math`: `ｎ`, `𝑛`) fold to one letter at most. What follows the
    sentence on the line (`答案是 6。∠NOT`) grounds no name: its reading is `closes`', which this does not rely on."""
    end = _ANSWER_SENTENCE_END_RE.search(text, start)
    subject = _ANSWER_SUBJECT_RE.match(text, start, end.start() if end else len(text))
    return frozenset([subject.group(1)]) if subject else frozenset()


def _caseless_names(text: str) -> frozenset[str]:
    """The names `text` writes (`_caseless_relation`): each run of Latin letters with its angle's or triangle's sign
    (`x`, `AB`, `∠DEB`, `△ABC`; `3x` names `x`, `S△ABC` names `S` and `△ABC`), compared whole: `∠NOT` is not `NOT`,
    `n + o` names `n` and `o`, never `no`."""
    return frozenset(_CASELESS_NAME_RE.findall(text))


_PROBLEM: ContextVar[str] = ContextVar("_PROBLEM", default="")
"""The task's problem text, set while its completion is read (`problem_names`, around extraction:
verifier/math/extract.py); its names (`_problem_names`) are read only when a caseless walk needs them
(`_caseless_line_opens`), so a completion that reaches none costs nothing for its problem."""


@contextlib.contextmanager
def problem_names(problem: str) -> Iterator[None]:
    """While it runs, step lines above a caseless answer may name what `problem` names (`_problem_names`): the task's
    problem text (MathTask.problem; trusted, the dataset's, never the policy's). Nothing else in the grammar reads it."""
    token = _PROBLEM.set(problem)
    try:
        yield
    finally:
        _PROBLEM.reset(token)


_GROUNDED: ContextVar[bool] = ContextVar("_GROUNDED", default=False)
"""Whether the name slot admits only a word the task's problem text uses (`grounded_names`)."""


@contextlib.contextmanager
def grounded_names() -> Iterator[None]:
    """While it runs, the name slot (`_is_name`) admits a capitalised word only when the task's problem text
    (`_PROBLEM`, trusted: the dataset's, never the policy's) uses it as a word, compared on the NFKD fold
    (`_problem_words`); with no problem text it admits none. Lenient's reading of a last value without an anchor, a box
    or a concluding sentence runs under it (extract._last_expression; red team 31 class 3a: `Unsure: 6 apples`,
    `Conjecture has 6 apples.` paid as persons' names, since `NEVER_NAMES` is a list of bad cases and the next hedge is
    not on it). An allowlist: GSM8K's `Janet`, `Sam` are the problem's own names."""
    token = _GROUNDED.set(True)
    try:
        yield
    finally:
        _GROUNDED.reset(token)


_LETTER_RUN_RE = re.compile(r"[^\W\d_]+")


@functools.lru_cache(maxsize=16)
def _problem_words(problem: str) -> frozenset[str]:
    """The capitalised words a problem text grounds as names (runs of letters: `Sam's` is `Sam`) on their NFKD fold
    without marks (`_ascii_fold`: `José` is `Jose`), case kept: what `grounded_names` admits. An allowlist of where a
    capital is a name's (red team 33 class 3: a sentence's or a choice's first word is capitalised whatever it is, so
    `Suppose Sam has`, `Unsure students may skip.`, `(C) Cannot be determined` grounded a hedge): a word inside a
    sentence (`_name_place`), or a sentence's first word that is a subject the problem gives (`_opening_subject`: `Sam
    has`, `Janet's ducks`). Cached as `_problem_names` is (a GRPO group's completions share one problem, at most
    `MAX_PROBLEM_BYTES`)."""
    return frozenset(f for m in _LETTER_RUN_RE.finditer(problem) if m.group()[:1].isupper() and _name_place(problem, m)
                     and (f := _ascii_fold(m.group())))


_OPENING_BEFORE_RE = re.compile(r"(?:^|[.!?:;…。！？：；\n])[\s\"'“‘*_#>(\[-]*$")
"""Before a sentence's first word: the text's start or a sentence's end, a colon or a line break, then spaces, quotes,
emphasis, a list's dash or an opening bracket (`_name_place`)."""
_CHOICE_BEFORE_RE = re.compile(r"(?:^|[\s(\[])(?:\(?[A-Za-z0-9]{1,2}[).:]|\[[A-Za-z0-9]{1,2}\])[\s*_]*$")
"""Before an answer choice's first word: its mark (`(C) `, `C) `, `C. `, `C: `, `[C] `, `(3) `)."""
_SUBJECT_AFTER_RE = re.compile(
    r"['’]s(?![A-Za-z])|(?:[ \t]*,[ \t]*[A-Z][^\W\d_]*)*,?[ \t]+(?:and|or)[ \t]+[A-Z][^\W\d_]*(?![\w'’-])"
    r"|[ \t]+([^\W\d_]+)")
"""After a sentence's first word: a possessive (`Janet's`), a list of names that ends with `and` or `or` and a name
(`Sam, Renée, Chloé and Zoë get`, `Alice and Sam play`), or the next word (`Sam has`: a verb of the lexicon)."""


def _name_place(problem: str, m: re.Match[str]) -> bool:
    """Whether the capitalised word `m` of `problem` stands where a capital is a name's: never as an answer choice's
    first word (`_CHOICE_BEFORE_RE`: `(C) Cannot be determined`, `(B) Sometimes`); as a sentence's first word
    (`_OPENING_BEFORE_RE`) only as its subject (`_opening_subject`); anywhere else, yes (`Suppose Sam has`: `Sam`)."""
    window = max(0, m.start() - 12), m.start()  # `^` matches only at the problem's real start (`re.Pattern.search`)
    if _CHOICE_BEFORE_RE.search(problem, *window):
        return False
    return _OPENING_BEFORE_RE.search(problem, *window) is None or _opening_subject(problem, m.end())


def _opening_subject(problem: str, end: int) -> bool:
    """Whether a sentence's first word ending at `end` is that sentence's subject: an owner (`Janet's ducks lay`), a
    list of names' first (`Alice and Sam play`), or the subject of a verb of the lexicon ("verb": `Sam has`, `Lee
    bought`); a hedge, a condition or an adverb opening a sentence is followed by a name, a comma or a noun (`Suppose
    Sam`, `Hypothetically,`, `Unsure students`). Open: a hedge before a comma and a list (`Hypothetically, Sam and Tom
    have`) has the list's shape."""
    after = _SUBJECT_AFTER_RE.match(problem, end)
    return after is not None and (after.group(1) is None or after.group(1).islower() and _has("verb", after.group(1)))


def _grounded(base: str) -> bool:
    """Whether the name slot may hold `base` (a folded, capitalised word): always outside `grounded_names`, else only a
    word of the problem's (`_problem_words`)."""
    return not _GROUNDED.get() or base in _problem_words(_PROBLEM.get())


@functools.lru_cache(maxsize=16)
def _problem_names(problem: str) -> frozenset[str]:
    """The names a problem text uses (fx29ay, issue 29: `所以 x = 6；` above `答案是 6。` under a problem naming `x`;
    MathVista pid977's `AB∥CD`, `∠B`, `∠DEC`), in two kinds, each an allowlist:
    - a letter standing alone (`x`, `n`, `E`), or an angle's or triangle's name as written (`∠DEF`, `△ABC`), read as
      `_caseless_names` reads a step line's;
    - the points of the problem's figure (`POINT` + a capital): the capitals of a name written with `∠`/`△` or beside
      `∥`/`⊥` (`_FIGURE_POINTS_RE`: `∠DEF`, `AB∥CD`, `BE⊥AF`). A step line's name of one to three of them, bare or
      with its sign, is the figure's (`_known_name`: pid977's steps name `∠DEC`, `∠DEB`, which its question does not
      write). A word in capitals is no point and no name (`Which is NOT true? Answer YES or NO.`: no sign beside it),
      so `NO∥TX` and `∠NOT` stay refused unless the figure has those points (red team 27).
    Cached: a GRPO group's completions share one problem (at most `MAX_PROBLEM_BYTES`, sandbox/contract.py)."""
    names = {n for n in _caseless_names(problem) if _PROBLEM_ANGLE_RE.fullmatch(n)}
    names.update(_problem_letters(problem))
    names.update(POINT + c for m in _FIGURE_POINTS_RE.finditer(problem) for c in m.group() if "A" <= c <= "Z")
    return frozenset(names)


def _problem_letters(problem: str) -> set[str]:
    """The one-letter names a problem's math uses, an allowlist of where a letter is an operand (fx29bd, red team 31
    class 1; red team 30 class 1 before it: `i.e. a line`, a choice list's `(A) ... (C)`): a letter inside a math span
    that holds math (`_math_span_letters`: `$x$`, `$2x = 12$`; never a price pair, never a `\\text{}`'s wording), a
    letter with an operand on the far side of an operator or a relation beside it (`_has_operand`: `x + 2 = 8`, `5*a^2`,
    `AE = x`), or one in the wording of a script without case (`求 x`). Prose punctuation beside a letter grounds
    nothing: a hyphen or slash glued into a word (`T-shirt`, `N/A`, `I/O`), a grade's plus (`A+ and`), Markdown
    (`**A**`, `- A. 5`, `<b>A</b>`), a code list (`A = agree`), a lone or paired price `$` (`costs $5, ... (A) 5`)."""
    problem = _MARKUP_RE.sub(lambda m: " " * len(m.group()), problem)  # `<b>A</b>`: a tag's `<`, `>` are no relations
    inside = _math_span_letters(problem)
    prose = [(a, b) for m in _PROSE_GROUP_RE.finditer(problem) for a, b in [m.span()]]
    return {m.group() for m in _PROBLEM_LETTER_RE.finditer(problem)
            if m.start() in inside or not any(a <= m.start() < b for a, b in prose) and _has_operand(problem, m.start(), m.end())}


def _math_span_letters(problem: str) -> set[int]:
    """Where the letters of the problem's math spans stand: each closed span (`_math_spans(closed=True)`: an unmatched
    `$`, a currency sign, opens nothing) that `_holds_math`, outside its font groups of wording (`\\text{Answer with A,
    B}`)."""
    at: set[int] = set()
    for a, b in _math_spans(_unpriced(problem), closed=True):
        body = _PROSE_GROUP_RE.sub(lambda m: " " * len(m.group()), problem[a:b])
        if _holds_math(problem[a:b], body):
            at.update(a + m.start() for m in _PROBLEM_LETTER_RE.finditer(body) if body[m.start() - 1: m.start()] != "\\")
    return at


def _unpriced(problem: str) -> str:
    """`problem` with each price's `$` blanked (positions kept): a `$` before a digit whose text up to the next `$` holds
    no math (`_holds_math`: `A shirt costs $12. Half of it is $x$`, `$12 and spent $6`), so it pairs with nothing and
    the spans after it keep their own pairs; `$2x = 12$` stays a span."""
    out = problem
    for m in _PRICE_RE.finditer(problem):
        close = problem.find("$", m.end())
        text = problem[m.start(): close + 1] if close >= 0 else ""
        if not text or not _holds_math(text, _PROSE_GROUP_RE.sub(lambda g: " " * len(g.group()), text)):
            out = out[:m.start()] + " " + out[m.end():]
    return out


def _holds_math(span: str, body: str) -> bool:
    """Whether a closed span (its text `span`, its wording's font groups blanked in `body`) is math: every run of letters
    outside a command is one letter or a figure's capitals (`x`, `ABDC`, `W X J`), and a span opened by `$` before a
    digit holds an operator or a command (`$2x = 12$`, `$3 \\times 4$`): else it is two prices and the wording between
    them (`$12 and spent $`, `$5 (A) 5 (B) 6 $`), as `\\$` is a price in docs/math.md."""
    runs = [m.group() for m in _SPAN_RUN_RE.finditer(body)]
    if not all(len(r) == 1 or r.isupper() for r in runs):
        return False
    return not re.match(r"\$\s*\d", span) or any(c in _PROBLEM_OPERATORS or c == "\\" for c in body)


def _has_operand(text: str, start: int, end: int) -> bool:
    """Whether the letter at `text[start:end]` is an operand: an operator or relation beside it (spaces aside) with an
    operand on its far side (`_OPERAND_AFTER_RE`, `_OPERAND_BEFORE_RE`: a number, a lone letter, a figure's capitals, a
    bracket or a command), and not glued into a word (a hyphen or slash with a letter on each side and no space, one of
    them a capital: `T-shirt`, `N/A`, `Y/N`, `I/O`; `a/b` stays math); or a letter of a script without case beside it
    (`求 x`, `หาค่า x`: a Latin letter in Chinese or Thai wording is a name)."""
    before, after = text[max(0, start - 8):start].rstrip(" \t")[-1:], text[end:end + 8].lstrip(" \t")[:1]
    if any(c and unicodedata.category(c) == "Lo" for c in (before, after)):
        return True
    if _glued_into_word(text, start, end) or _in_label(text, start, end):
        return False
    head, tail = text[max(0, start - 40):start], text[end:end + 40]
    return bool(_OPERAND_AFTER_RE.match(tail) or _OPERAND_BEFORE_RE.search(head))


_PROBLEM_OPERATORS = "=＝+＋-−*×÷/^<>≤≥≠"
_PROBLEM_LETTER_RE = re.compile(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])")
_PROSE_GROUP_RE = re.compile(r"\\(?:text(?:rm|bf|it|sf|tt|sc|up|md|sl|normal)?|mbox)\s*\{[^{}]*\}")
"""A font group of wording (`\\text{Answer with A, B, C or D.}`): its letters are prose, in a math span or out of one."""
_MARKUP_RE = re.compile(r"</?[a-z]{1,10}>")
"""An HTML tag in a problem (`<b>`, `</b>`): markup, blanked before its letters are read (`_problem_letters`)."""
_PRICE_RE = re.compile(r"(?<![\\$])\$(?=\d)")
"""A `$` before a digit: a price unless the text up to the next `$` holds math (`_unpriced`)."""
_SPAN_RUN_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]+")
_OPS = "[" + re.escape(_PROBLEM_OPERATORS) + "]"
_OPERAND = r"(?:\d|[A-Za-z](?![A-Za-z])|[A-Z]{2,5}(?![A-Za-z])|[(\\√|{∠△])"
_OPERAND_AFTER_RE = re.compile(r"[ \t]*" + _OPS + r"[ \t]*[-−]?" + _OPERAND)
_OPERAND_BEFORE_RE = re.compile(r"(?:[\d)}|°]|(?<![A-Za-z])[A-Za-z]|(?<![A-Za-z])[A-Z]{2,5})[ \t]*" + _OPS + r"[ \t]*$")
"""An operand on the far side of an operator (`_has_operand`): a number, a lone letter, a figure's capitals (`AE = x`),
an opening bracket, a command or a root, a bar, a sign (`∠`, `△`); a word is none (`A = agree`, `A+ and`, `T-shirt`)."""


def _glued_into_word(text: str, start: int, end: int) -> bool:
    """Whether the letter at `text[start:end]` is glued by a hyphen or slash to a letter, with no space, one of the two
    a capital (`T-shirt`, `N/A`, `Y/N`, `I/O`, `A-frame`): a word's mark, never an operator (`a/b`, `x-y` stay math)."""
    pairs = (text[max(0, start - 2):end], text[start:end + 2])
    return any(len(p) == 3 and p[0].isalpha() and p[1] in "-/" and p[2].isalpha() and (p[0].isupper() or p[2].isupper())
               for p in pairs)


_LABEL_AFTER_RE = re.compile(r"[-−/]\d")
_LABEL_BEFORE_RE = re.compile(r"\d[-−/]$")
_LABEL_TOKEN = "A-Za-z0-9\\-−/.,'’*"
_LABEL_LEFT_RE = re.compile(r"[" + _LABEL_TOKEN + r"]*$")
_LABEL_RIGHT_RE = re.compile(r"[" + _LABEL_TOKEN + r"]*")
_LABEL_MATH_EDGES = frozenset("\\()[]{}|^_!")
"""A bracket, a bar, a command's backslash, a superscript's or subscript's mark or a factorial at a glued token's edge:
the token is math's (`f(x-2)`, `|x-2|`, `\\sqrt{x-2}`)."""
_ALGEBRA_TOKEN_RE = re.compile(r"(?:\d*[a-z]|\d+)(?:[-−/*](?:\d*[a-z]|\d+))+")
"""A glued token in algebra's shape: lower-case letters, each with an optional integer coefficient, and integers, joined
by `-`, `−`, `/` or `*` (`x-2y`, `3x-18`, `a/2`): math though nothing stands beside it (`Find x-2y for y = 0.`)."""


def _in_label(text: str, start: int, end: int) -> bool:
    """Whether the letter at `text[start:end]` is a label's (fx29bf, red team 32 class 4; red team 33 class 4): glued to
    a number by a hyphen, a minus or a slash with no space, on either side (`I-95`, `F-16`, `room C-3`, `A/4 paper`,
    `C−95`, `3-C`). The label is read on its whole glued token (letters, digits and `-−/.,'’*`: `A-10s`, `C-5's`,
    `A-1.5`, `C-5A`, `C-3*`, `C-3/A-4`, `1.2-C`), and the token is math only in an allowlist of shapes: an operator or a
    relation beside it, spaces aside (`_PROBLEM_OPERATORS`: `N-2 = 5`, `x + A-2`), a bracket, bar, command or mark at
    its edge (`_LABEL_MATH_EDGES`: `f(x-2)`, `|x-2|`), or algebra's own shape (`_ALGEBRA_TOKEN_RE`: `x-2y`, `3x-18`).
    Any other shape names a thing (a highway, a jet, a room, a paper size), so its letter is no operand."""
    if not (_LABEL_AFTER_RE.match(text, end) or _LABEL_BEFORE_RE.search(text, max(0, start - 2), start)):
        return False
    lo = start - len(_LABEL_LEFT_RE.search(text, max(0, start - 40), start).group())  # type: ignore[union-attr]
    hi = end + len(_LABEL_RIGHT_RE.match(text, end, end + 40).group())  # type: ignore[union-attr]
    token = text[lo:hi].rstrip(".,'’")
    hi = lo + len(token)
    if _ALGEBRA_TOKEN_RE.fullmatch(token.lstrip(".,'’")):
        return False
    edges = text[lo - 1: lo] if lo else "", text[hi: hi + 1]
    if any(c in _LABEL_MATH_EDGES for c in edges if c):
        return False
    left, right = text[max(0, lo - 8): lo].rstrip(" \t")[-1:], text[hi: hi + 8].lstrip(" \t.,'’")[:1]
    return not any(c and c in _PROBLEM_OPERATORS for c in (left, right))


_PROBLEM_ANGLE_RE = re.compile(r"[∠△][A-Z]{1,3}")


POINT = "point:"
"""What marks a point of the problem's figure among known names (`_problem_names`): no name holds a colon."""
_FIGURE_NAME_RE = re.compile(r"[∠△]?[A-Z]{1,3}")
_FIGURE_POINTS_RE = re.compile(r"[∠△][A-Z]{1,4}(?![A-Za-z])|(?<![A-Za-z])[A-Z]{2}[ \t]*[∥⊥][ \t]*[A-Z]{2}(?![A-Za-z])")
"""A problem's figure's points (`_problem_names`): the capitals of a name written with an angle's or triangle's sign
(`∠DEF`, `△ABC`, at most four), or of two segments a parallel's or perpendicular's sign joins (`AB∥CD`, `BE ⊥ AF`:
two capitals each side; red team 30 class 1: `Which line is NOT ∥ to CD?` made N, O, T points)."""


_CASELESS_SUM_RE = re.compile(
    r"\s*(?:所以|因此|因而|于是|那么|ดังนั้น)?[\s(]*\d[\d\s+\-*/×÷().]*[=＝]\s*\d{1,3}(?:\.\d{1,3})?\s*"
    r"(?:个|只|本|支|张|块|颗|辆|名|条|件|元|ชิ้น|個)?\s*")
"""A caseless line's clause that is a sum with its classifier (`_caseless_statement`: `2 + 4 = 6 个`): numbers and
operators, `=` and a number of one to three digits (`2 + 4 = 6000 个` may scale); no word of its own. Each run of
spaces and digits has one place in the match, so a failed match backtracks linearly."""


_CJK_NUMBER = r"(?:\d{1,3}|[一二两三四五六七八九十]{1,3})"
_CASELESS_STEP_RE = re.compile(
    r"\s*(?:所以|因此|因而|于是|那么|ดังนั้น)?\s*(?:"
    r"(?:我们|我|小[明红华丽刚强军芳亮东兰林伟])?(?:一共|总共|共)?有\s*" + _CJK_NUMBER + r"\s*(?:个|只|本|支|张|块|颗|辆|名|条|件)"
    r"(?:苹果|橘子|梨|香蕉|桃子|糖果|糖|书|球|学生|同学|朋友|鸡蛋|铅笔|花|鸟|猫|狗)?"
    r"|(?:我们|我)?把(?:两个数|这两个数|所有(?:苹果|橘子|数|的数)|它们)(?:相加|加起来|加在一起)"
    r"|(?:两数|两个数)相加得" + _CJK_NUMBER + r"|(?:计算|验证|检查)(?:总数|一下|结果)?|合计|总计"
    r"|(?:ผลรวม|ผลบวก)คือ(?:หนึ่ง|สอง|สาม|สี่|ห้า|หก|เจ็ด|แปด|เก้า|สิบ))\s*")
"""A line of words in a script without case that states a step (`_caseless_statement`; fx29ao, red team 20's pedantry):
a count of things someone has (`小明有两个苹果`, `所以一共有六个苹果`: a pronoun or a name of `小` and one of a few letters, a count of
one to three digits or of the numerals up to ten, never `千`, `万`, a classifier and one of a word problem's nouns),
adding the numbers (`把两个数相加`, `两数相加得六`), a check or a total (`验证一下`, `计算总数`, `合计`) or Thai "the sum is"
a numeral (`ดังนั้นผลรวมคือหก`), after a concluding connective. An allowlist: a hedge, a negation, a bound or a scale
(`可能`, `不是`, `至少`, `以千为单位`, `乘以`) is in none of its shapes."""


_LONE_CAPITAL_GAP_RE = re.compile(r":?[ \t]+|['’]")
"""What stands between a lone `A` or `I` and the word it opens a sentence before (`opens_sentence`): a space (`A car`,
`I think`), a label's colon (`A: the answer is`, a question-and-answer transcript's) or an apostrophe (`I'm`, `I’ll`);
the word opens with a lower-case letter, and after a space or a colon it is a word of two letters or more (`A: x =`
names a quantity)."""
_LINE_SPACING_RE = re.compile(r"[ \t]*")
_SENTENCE_FINAL = frozenset("follows holds exists exist applies works them him".split())
"""Verbs that end a statement with no object (`So the result follows.`, `The claim holds.`) and object pronouns (`We
add them.`, before a caseless line that shows no capital, `_joined_end`): words a sentence's period may follow besides
the grammar's vocabularies (`period_ends`); none is an abbreviation."""
_RESTATING_END_RE = re.compile(r"(?<![\w.])i\.e$", re.IGNORECASE)
"""`i.e.` (that is): a restatement opens after it as after a sentence's end (`The sum is 2 + 4, i.e. \\boxed{6}`)."""


def period_ends(text: str, at: int, whole: bool = True, plain: bool = False) -> bool:
    """Whether the period at `text[at]` ends a sentence, by allowlist (fx29ah, red team 18 class 2): before a line's or
    the text's end or a sentence's opening (`opens_sentence`: `approx. The answer is 6`); after a number, math or a
    closing bracket (`2 + 4 = 6. \\boxed{6}`, `$x$. Then`); after `i.e.`, whose restatement opens anew; after a word of
    two or more letters the grammar knows (`_known_words`: `I doubt it. \\boxed{6}`, `We compute. \\boxed{6}`, `So the
    result follows. \\boxed{6}`). After anything else, an abbreviation (`approx.`, `ca.`, `e.g.`, `est.`) or a word
    the grammar does not know, the sentence goes on and its words are read: `The answer is approx. \\boxed{6}` states no
    answer. A verb's stranded preposition ends only a whole sentence of `_STRANDED_SENTENCE_RE`'s shapes
    (`_stranded_sentence`; `whole`: `text` starts where its completion does, `plain`: that reading left out)."""
    after = at + 1 + (text[at + 1: at + 2] in ("$", ")"))  # `cm.$ Since`, `(... a rectangle.) Therefore`
    rest = _LINE_SPACING_RE.match(text, after).end()  # type: ignore[union-attr]
    if rest < len(text) and text[rest] in "\r\n":
        below = _SPACING_RE.match(text, rest).end()  # type: ignore[union-attr]
        if _line_letter(text, below)[0]:  # a line of words below: the break adds no end, read as joined (fx29as)
            return opens_sentence(text, below) or _period_word_ends(text, at, whole, plain)
    if rest >= len(text) or text[rest] in "\r\n" or opens_sentence(text, after):
        return True
    return _period_word_ends(text, at, whole, plain)


def _period_word_ends(text: str, at: int, whole: bool = True, plain: bool = False) -> bool:
    """Whether the period at `text[at]` ends a sentence by the word before it (`period_ends` before a lower-case word)."""
    k = at
    while k > 0 and text[k - 1].isalpha():
        k -= 1
    word = text[k:at]
    if not word:
        return True  # `6.`, `$x$.`, `(a).`: no word's period
    if _RESTATING_END_RE.search(text, max(at - 4, 0), at):
        return True
    if k > 0 and text[k - 1] == ".":
        return False  # `e.g.`, `a.m.`: a word's inner period makes an abbreviation
    if len(word) >= 2 and word.lower() in _known_words():
        return True
    return not plain and _stranded_sentence(text, at, whole)


@functools.cache
def _known_words() -> frozenset[str]:
    """Every word the grammar's vocabularies hold, lower-cased (`period_ends`): LEXICON's, `ANCHOR_LEADS`, the stating
    verbs and clause openers, `_DISCOURSE`, `METHOD_OBJECTS`, `_LABEL_WORDS`, `OBJECT_WORDS`, `CLAUSE_WORDS` and
    `_SENTENCE_FINAL`. None is an abbreviation: each group lists whole words, with its reason."""
    groups = [*(e.words for e in LEXICON), *(e.words for e in OBJECT_WORDS), *(e.words for e in CLAUSE_WORDS), ANCHOR_LEADS,
              _STATING_VERBS, _CLAUSE_OPENERS, _DISCOURSE, METHOD_OBJECTS, _LABEL_WORDS, _SENTENCE_FINAL]
    open_ended = _OPEN_ENDED | _LOWER_ROLES["prep"] | _LOWER_ROLES["than"] | _LOWER_ROLES["relative"]
    return frozenset(w.lower() for group in groups for w in group) - open_ended


_STRANDED_PAIRS = (
    r"(?:(?:ask|asks|asked|asking|look|looks|looked|looking|solve|solves|solved|solving|search|searching|account|accounts"
    r"|accounted)\s+for|(?:arrive|arrives|arrived|arriving)\s+at|(?:end|ends|ended|ending|come|comes|came|coming)\s+up"
    r"\s+with|(?:add|adds|added|adding|sum|sums|summed|summing)\s+up\s+to)")
"""A verb and its stranded preposition whose object is the result sought (`_STRANDED_SENTENCE_RE`; fx29ao, red team 20's
pedantry; narrowed by fx29aq, red team 22 class 1): `asks for`, `solve for`, `look for`, `search for`, `account for`,
`arrive at`, `end up with`, `come up with`, `adds up to`. An allowlist of result verbs: a pair whose object is where a
problem starts or its options (`start with`, `work with`, `choose from`, `look at`, `wait for`) ends no sentence, and a
preposition after anything else stays open (`_OPEN_ENDED`: `The answer is less than.`, `... divided by.`, `... is up
to.`, `... is per.`, `... what we divide by.`)."""
_STRANDED_CHOICE_PAIRS = r"(?:(?:choose|pick|select)\s+from|account\s+for)"
"""The only pairs a `there are` count of things ends (`There are 6 people to choose from.`, `There are 12 people to
account for.`): their object is the counted things (`_STRANDED_COUNTED`), never the box (fx29aq, red team 22 class 1).
`solve for`, `look for`, `arrive at` after a count name several unknowns, the box one of them (`There are 2 games to
solve for.`; fx29ar, red team 23 class 3)."""
_STRANDED_COUNTED = frozenset(
    "people persons students children kids boys girls men women adults friends players members guests customers workers "
    "employees teams books cards balls apples oranges bananas cookies candies marbles pencils pens coins toys cars bikes "
    "bicycles flowers trees animals dogs cats birds horses cows pigs goats chickens ducks fish sheep shirts socks shoes "
    "hats dresses tickets boxes bags baskets stickers stamps eggs cakes cupcakes muffins pies pizzas sandwiches "
    "chocolates seeds shells stones rocks blocks bottles jars cans cups plates bowls chairs tables rooms houses "
    "buttons beads balloons gifts presents photos pictures songs movies games lessons trips items".split())
"""The things a `there are` sentence of `_STRANDED_SENTENCE_RE` counts (`There are 6 people to choose from.`, `There are
12 people to account for.`): a word problem's people and objects, an allowlist (fx29aq, red team 22 class 2). A
quantity the answer may be (`answers`, `values`, `roots`, `solutions`, `numbers`, `ways`, `outcomes`) is none: the box
would be one of several; nor a scale or a unit (`thousands`, `dozens`, `percent`, `halves`, `pairs`); nor `tasks`, what a
problem's unknowns are counted as (fx29ar, red team 23 class 3)."""
_STRANDED_GAP = r"[ \t]{1,3}"
_STRANDED_RELATIVE = (
    r"(?:(?:(?:that|which)" + _STRANDED_GAP + r")?(?:we|i|you|they|it|the" + _STRANDED_GAP + r"(?:problem|question|task))"
    r"(?:" + _STRANDED_GAP + r"(?:are|were|was|is|have|had|have" + _STRANDED_GAP + r"been|had" + _STRANDED_GAP
    + r"been|need" + _STRANDED_GAP + r"to|have" + _STRANDED_GAP + r"to|had" + _STRANDED_GAP + r"to|(?:are|were)"
    + _STRANDED_GAP + r"asked" + _STRANDED_GAP + r"to))?|to)")
_STRANDED_SENTENCE_RE = re.compile(
    r"(?i:(?:(?:so|thus|hence|therefore|now|and|finally)" + _STRANDED_GAP.replace("{1,3}", "{0,3}") + r",?"
    + _STRANDED_GAP + r")?"
    r"(?:(?:this|that|it)(?:" + _STRANDED_GAP + r"(?:is|was)|['’]s)(?:" + _STRANDED_GAP + r"(?:exactly|precisely))?"
    + _STRANDED_GAP + r"(?:what|everything|the" + _STRANDED_GAP + r"(?:final" + _STRANDED_GAP
    + r")?(?:number|value|answer|quantity|result|one|sum|total|amount))" + _STRANDED_GAP + _STRANDED_RELATIVE
    + r"|(?:let['’]s|let" + _STRANDED_GAP + r"us)" + _STRANDED_GAP + r"(?:see|find|figure" + _STRANDED_GAP
    + r"out|work" + _STRANDED_GAP + r"out|check)" + _STRANDED_GAP + r"what" + _STRANDED_GAP + _STRANDED_RELATIVE
    + r"|(?:we|i)" + _STRANDED_GAP + r"(?:now" + _STRANDED_GAP + r")?(?:know|knew|found|find|see|saw|have"
    + _STRANDED_GAP + r"found|got)" + _STRANDED_GAP + r"(?:exactly" + _STRANDED_GAP + r")?what" + _STRANDED_GAP
    + _STRANDED_RELATIVE + r"|there" + _STRANDED_GAP + r"(?:is|are|was|were)" + _STRANDED_GAP
    + r"(?:\d{1,6}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)" + _STRANDED_GAP
    + r"([^\W\d_]{2,20})" + _STRANDED_GAP + r"to" + _STRANDED_GAP + _STRANDED_CHOICE_PAIRS
    + r")(?(1)|" + _STRANDED_GAP + _STRANDED_PAIRS + r"))")
"""The whole sentences a verb's stranded preposition ends at its period (`_stranded_sentence`; fx29ap, red team 21
class 1): after an optional concluding connective, `this is` (`that is`, `it's`, `exactly`) `what` (`everything`, `the
number`, `the answer`, ...) and a relative clause (`we`, `it`, `the problem`, an auxiliary that is no modal nor a wish, `want to`, `will`, or `to`)
before a `_STRANDED_PAIRS` pair (`This is what the problem asks for.`, `That is exactly what we were asked for.`, `This
is the answer we arrive at.`, `That's everything we need to account for.`); `Let's see` (`let us figure out`) `what`
(`Let's see what we end up with.`); `we know` (`found`, `now know`) `what` (`Now we know what to look for.`, `We found
what we were looking for.`); `There are` a count and a thing of `_STRANDED_COUNTED` `to` (`There are 6 people to choose
from.`), which only `_STRANDED_CHOICE_PAIRS` end (fx29ar). An allowlist of shapes, read whole from the sentence's start: a hedge, a scale, a negation, a bound, an
operation or a modal before the pair (`Maybe this is what we arrive at.`, `The answer in thousands is what we end up
with.`, `The answer is not the number we arrive at.`, `Half of what we choose from.`, `The answer could be what we
arrive at.`, `This is what we might arrive at.`) is in none, and the sentence goes on."""
_STRANDED_BREAK_RE = re.compile(r"[.!?。！？](?=\s)|\n")
_STRANDED_CHARS = 160
"""How far back `_stranded_sentence` looks for its sentence's start: beyond any sentence `_STRANDED_SENTENCE_RE`
admits (its gaps are at most three spaces)."""


def _stranded_sentence(text: str, at: int, whole: bool) -> bool:
    """Whether the period at `text[at]`, after a word the grammar does not know, ends a whole sentence of
    `_STRANDED_SENTENCE_RE`'s (`period_ends`; fx29ap, red team 21 class 1): the sentence starts at a sentence's end
    (a period that ends one without this reading, `!`, `?`, a line break after a sentence's end, a blank line or before
    a line that opens a sentence, `opens_sentence`) or at the text's start when `text` is its completion's whole
    start (`whole`: `box_lead` reads only the last `_LEAD_CHARS_BOX` characters), no further than `_STRANDED_CHARS`
    back; its line's marks (`- `, `**`) are read as a line's."""
    floor = max(at - _STRANDED_CHARS, 0)
    brk = None
    for brk in _STRANDED_BREAK_RE.finditer(text, floor, at):
        pass
    if brk is None:
        if floor > 0 or not whole:
            return False
        start = marks_end(text, 0)
    elif brk.group() == "\n":
        above = text[: brk.start()].rstrip(" \t\r")
        if not (not above.strip() or above.endswith("\n") or opens_sentence(text, brk.end()) or above[-1] in "!?。！？"
                or above[-1] == "." and period_ends(above + "\n", len(above) - 1, plain=True)):
            return False  # `I doubt that\nthis is what we solve for.`: the line above goes on into this one
        start = marks_end(text, brk.end())
    else:
        if brk.group() == "." and not period_ends(text, brk.start(), plain=True):
            return False  # `approx. this is what we solve for.`: no sentence ends before it
        start = brk.end()
    shape = _STRANDED_SENTENCE_RE.fullmatch(text[start:at].strip())
    return shape is not None and (shape.group(1) is None or shape.group(1).lower() in _STRANDED_COUNTED)


_OPEN_ENDED = frozenset("a an the every my our their your its per of into onto as such where which whose whom and or "
                        "max min least".split())
"""Known words no sentence ends with (`_known_words`; fx29am, red team 19 class 5): LEXICON's prepositions, `than` and
comparatives (`less`, `fewer`), and these articles, possessives, prepositions, relatives, joiners and bounds: after
them a period is an abbreviation's or a cut sentence's (`The answer is less than. \\boxed{6}`, `The answer is max.
\\boxed{6}`, `It is the. \\boxed{6}`, `The sum is per. $x = \\boxed{6}$` state no answer)."""


_BOX_COMMAND_RE = re.compile(r"\\(?:boxed|fbox)\s*\{")


def statement_lines(region: str, floor: int, start: int) -> list[int]:
    """Where a line break ends a statement before the box at `start` (positions after the break, from `floor`): the
    break is in prose, outside the box's own math, and the line after it opens a sentence (`opens_sentence`), or the
    line before it is math alone (`_math_alone`: `2 + 4 = 6`, `$x = \\boxed{6}$`, a display's last line `\\]` of
    `\\[x = 6\\]`) that opens a sentence itself (`line_opens`; red team 30 class 5) or closes a block (`_BLOCK_END_RE`).
    An allowlist (fx29ad, red team 17): a line that ends with a
    word, a link, an opener, a lone operator, or words before a number, a segment or a box (`The answer is not`, `such
    that`, `≈`, `Multiply by 1000`, `In units of $10^3$`, `I doubt \\boxed{x}`) leads into the next line, which is
    read with it as on one line."""
    spans = [(a, b) for a, b in _math_spans(region[:start]) if b > floor]  # bounded by the window

    def in_math(at: int) -> bool:
        return any(a <= at < b for a, b in spans)

    found: list[int] = []
    for m in re.finditer(r"\n", region[floor:start]):
        at = floor + m.start()
        line_start = region.rfind("\n", 0, at) + 1
        end = line_start + len(region[line_start:at].rstrip(" \t\r"))
        if in_math(at):
            continue
        if opens_sentence(region, at + 1):
            found.append(at + 1)
            continue
        if end <= line_start:
            continue
        if _BLOCK_END_RE.fullmatch(region, line_start, end) or _math_alone(region, line_start, end, spans) and (
                line_opens(region, _math_first_line(region, line_start, end, spans), found)):
            found.append(at + 1)
        elif not _line_letter(region, at + 1)[0] and _prose_line(region, line_start, end, spans) and (
                any(b == end for _, b in spans) or region[end - 1].isdigit() and not in_math(end - 1)):
            found.append(at + 1)  # fx29y's rule kept before a line of no word (`... = <<2*3=6>>6\n#### 6`) after words;
            # a line of math alone ends one only as `_math_alone` reads it (fx29af: `$\\times 1000$\n#### 6`)
    return found


_LINE_WORD_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}|[^\W\d_A-Za-z]")
_VALUE_END_RE = re.compile(
    r"(?:=|\\equiv)\s*[-−]?\s*(?:\d+(?:[.,]\d+)*|\\[dt]?frac\s*\{\s*\d+\s*\}\s*\{\s*\d+\s*\}"
    r"|\\(?:boxed|fbox)\s*\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})(?:\s*\\?%)?(?:\s|[.,;]|\\\\)*$")
"""A relation whose last side is a value, at a line's end (`_math_alone`): `= 6`, `= -2.5`, `= \\frac{1}{2}`, `=
\\boxed{6}`, `\\equiv 3`."""


def _math_alone(region: str, line_start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    """Whether the line `region[line_start:end]` is math alone that states a value: no word outside its math segments,
    and, read with the segments that close on it whole (a display's last line `\\]` with its rows), a relation whose
    last side is a value (`_VALUE_END_RE`: `2 + 4 = 6`, `$x = 6$`, `\\[x = \\boxed{6}\\]`). An allowlist (fx29ad,
    red team 17 class 2): a lone operator, relation, negation or command (`≈`, `\\neg`, `×1000`, `$\\times 1000$`) or a
    bare value is a fragment that joins the next line."""
    first = _math_first_line(region, line_start, end, spans)
    if _prose_line(region, first, end, spans):
        return False  # every line its math spans, from the opener's (fx29at, red team 25 class 2: `可能 $$\n2 + 4 = 6\n$$`)
    return bool(_VALUE_END_RE.search(_MATH_DELIMITER_RE.sub(" ", region[first:end])))


def line_opens(text: str, at: int, found: list[int] | None = None) -> bool:
    """Whether the line at `at` opens a sentence: the one reading of a line's opening for every path (red team 30 class
    5, red team 29 class 2; a line of math alone, a display before an anchor, a label line under lenient). At the text's
    start (blank lines passed over); after a break `statement_lines` finds (`found`, read from a bounded window when not
    given: the line above ended a statement, `2 + 4 = 6\nx = 6`, or this line opens one by `opens_sentence`); or where
    the caseless walk reads the lines above as opening it (`_caseless_line_opens`: after a sentence's end, step lines or
    an opening label, `解：`); or below a step line, one that opens a sentence by itself (the text's start or
    `opens_sentence`, read without `statement_lines`: no walk within a walk) and states a relation with a number
    (`_STEP_RELATION_RE`: GSM8K's `So he runs 9*60=<<9*60=540>>540 meters per week\nA: 540`; `Maybe x = 6\nA: 6` reads as
    `Maybe x = 6. A: 6.` does). After any other line (`In thousands`, `可能`, `Maybe`, `Not`) this line is read with it as
    its words: `In thousands\n2 + 4 = 6\n答案是 6。` reads as `In thousands 2 + 4 = 6 个\n答案是 6。` does, and
    `Maybe\ntotal: 6` as `Maybe total: 6`."""
    end = len(text[:at].rstrip())
    if end == 0:
        return True
    if found is None:
        found = statement_lines(text, max(at - _LEAD_CHARS_BOX, 0), at)
    if text.find("\n", end) + 1 in found[-1:] or _caseless_line_opens(text, at):
        return True
    above = text.rfind("\n", 0, end) + 1
    return bool(_STEP_RELATION_RE.search(text, above, end)) and (not text[:above].strip() or opens_sentence(text, above))


_STEP_RELATION_RE = re.compile(r"[=＝][ \t$]*(?:<<[^\n<>]{0,80}>>)?[ \t$]*[-−]?\d")
"""A step's relation on a line (`line_opens`): `=` before a number, through GSM8K's calculator note (`2 * 9 =
$<<2*9=18>>18 per day`, `3 + 4 = 7 duck eggs`)."""


def _math_opens(text: str, at: int) -> bool:
    """Whether the math that opens at `text[at]` (a display before an anchor, `anchor_clause`) opens a sentence, so that
    its end may end a statement (red team 30 class 5: `I doubt that\n\\[x = 6\\]\n答案是 6。`): nothing but spacing
    before it on its line, and that line opens one (`line_opens`); or a sentence's end right before it on its line
    (`_joined_end`)."""
    line_start = text.rfind("\n", 0, at) + 1
    before = len(text[:at].rstrip())
    return _joined_end(text, before) if before > line_start else line_opens(text, line_start)


def _math_first_line(region: str, line_start: int, end: int, spans: list[tuple[int, int]]) -> int:
    """Where the first line of the math on the line `region[line_start:end]` starts: the line its earliest segment that
    reaches the line opens on, followed up through segments that reach each such line (`_math_alone`)."""
    first = line_start
    while True:
        opened = min([first] + [a for a, b in spans if b > first and a < end])
        if opened >= first:
            return first
        first = region.rfind("\n", 0, opened) + 1


def _prose_line(region: str, line_start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    """Whether the line `region[line_start:end]` holds a word outside its math segments (`_LINE_WORD_RE`)."""
    line = list(region[line_start:end])
    for a, b in spans:
        for k in range(max(a, line_start), min(b, end)):
            line[k - line_start] = " "
    return bool(_LINE_WORD_RE.search("".join(line)))


def lead_clauses(text: str, pos: int) -> bool:
    """Whether the clauses before the one that holds `pos` (an anchor) in its sentence (back to a line break or a sentence
    end, through math and markup; split at commas, semicolons and ellipses) only lead to it (docs/math.md "Answer
    grammar", "Before an anchor"): each is empty, a concluding connective (`ANCHOR_LEADS`, LEXICON's
    "lead", `Okay`, `Putting it all together`), a part's label (`For part (a)`), a rejected letter or number (`It
    is not B`, `It is not 5`) or a Chinese concluding word (`所以`). An allowlist: `Maybe, the answer is 6`,
    `In thousands, the answer is 6`, `If n is odd, the answer is 6`, `大约，答案是6` state no answer."""
    sentence = _sentence_before(text, pos)
    if sentence is None:
        return False  # its start is out of sight (`last_break`)
    clauses = _CLAUSE_SPLIT_RE.split(_masked(sentence))
    return all(_lead_clause(clause) for clause in clauses[:-1])  # the last is its own


_CLAUSE_START_RE = re.compile(r"\n|(?<!\.\.)[.!?](?:(?<!\\)\$)?(?=\s)|[。！？।]|(?<=[\u0e00-\u0e7f\d]) +(?=[\u0e00-\u0e7f])")
"""Where an anchor's sentence starts for `anchor_clause`: `_SENTENCE_END_RE` less a display's end, which ends a
statement only before a sentence's opening (`_ends_statement`)."""
_LEAD_MARKUP_RE = re.compile(r"\\(?:textbf|textit|text|emph|underline)\s*\{|</?(?:b|i|em|strong|u|think)>|\}")
"""Markup an anchor's own clause is read through (`anchor_clause`), its words read as words: a listed text command's
opening and any closing brace, a listed inline tag or a reasoning block's (`<think>the answer is 3`, lenient). Any other
command or tag is a token no lead is (`\\neg the answer is`)."""
_SPACING_RE = re.compile(r"\s*")


def anchor_clause(text: str, pos: int) -> bool:
    """Whether the anchor at `pos` opens its own clause with leads only, read through math and markup (fx29aa, red team
    16): from its sentence's start (`_CLAUSE_START_RE`, a line break where `last_break` keeps one), after the last
    comma, semicolon or ellipsis outside math and after the last statement that ends before a sentence's opening
    (`_ends_statement`: `\\end{align*} Final Answer:`, `\\boxed{6} **Final Answer**`, math-verify's suite), each
    math segment one word, which no lead is, and a listed text command's words as words (`anchor_lead`). So `In units
    of $1000$ the answer is 6`, `Maybe for $n=3$ the answer is 6`, `Maybe for \\[n=3\\] the answer is 6`,
    `\\textbf{Maybe} the answer is 6` state no answer; math before an anchor leads only in a clause of its own before a
    comma (`lead_clauses`: `Since $a = 2$,`), the one shape the peers' data has."""
    start = last_break(_CLAUSE_START_RE, text, max(pos - _LEAD_CHARS_BOX, 0), pos)
    if start < 0:
        return False  # its start is out of sight (`last_break`)
    spans = [(a, b) for a, b in _math_spans(text[:pos], closed=True) if b > start]
    cut = start
    for a, b in spans:
        closer = a < start and not _MATH_DELIMITER_RE.sub("", text[start:b]).strip()  # `$13 }. $ Final Answer:`
        if (closer or a >= start and _is_display(text, a)) and _ends_statement(text, b) and (
                _opens_unended(text, b) or _math_opens(text, a)):
            cut = max(cut, b)
    for end in _box_ends(text, start, pos):
        end = next((b for a, b in spans if a < end < b and not _MATH_DELIMITER_RE.sub("", text[end:b]).strip()), end)
        if _ends_statement(text, end):
            cut = max(cut, end)  # `$\\boxed{6}$ The answer is`
    aligned = list(text[cut:pos])
    for a, b in spans:
        aligned[max(a, cut) - cut: max(b, cut) - cut] = "§" * (max(b, cut) - max(a, cut))  # math masked, positions kept
    for brk in _CLAUSE_SPLIT_RE.finditer("".join(aligned)):
        cut = pos - len(aligned) + brk.end()
    own, k = [], cut
    for a, b in spans:
        if b > k:
            own += [text[k: max(a, k)], " § "]
            k = b
    own.append(text[k:pos])
    return anchor_lead(_LEAD_MARKUP_RE.sub(" ", "".join(own)))


def _is_display(text: str, at: int) -> bool:
    """Whether the math segment at `at` is a display (`$$`, `\\[`, a display environment)."""
    return text.startswith(("$$", "\\[", "\\begin"), at)


def _ends_statement(text: str, at: int) -> bool:
    """Whether a sentence opens at `at` after spacing (`opens_sentence`: `**Final Answer**`, `The answer is`)."""
    return opens_sentence(text, _SPACING_RE.match(text, at).end(), ended=True)  # type: ignore[union-attr]


def _opens_unended(text: str, at: int) -> bool:
    """Whether a sentence opens at `at` after spacing without the display before it ending one (`opens_sentence`, not
    `ended`): a capital (`\\end{align*} Final Answer:`). A caseless line opens after a display only where the display
    opens a sentence itself (`_math_opens`; red team 30 class 5)."""
    return opens_sentence(text, _SPACING_RE.match(text, at).end())  # type: ignore[union-attr]


def _box_ends(text: str, start: int, pos: int) -> list[int]:
    """The ends (after the closing brace) of the boxes that close in `text[start:pos]`, read from a bounded window."""
    ends = []
    for opened in _BOX_COMMAND_RE.finditer(text, max(start - _LEAD_CHARS_BOX, 0), pos):
        depth = 1
        for k in range(opened.end(), pos):
            depth += {"{": 1, "}": -1}.get(text[k], 0) if text[k - 1] != "\\" else 0
            if depth == 0:
                if k + 1 > start:
                    ends.append(k + 1)
                break
    return ends


def box_lead_clauses(text: str, pos: int) -> bool:
    """Whether the clauses before the one that holds the box at `pos` in its sentence only lead to it (docs/math.md
    "Answer grammar", "Before a box"): as `lead_clauses`, except that a solution's derivation may run in math before
    it (math-verify's suite's `If its initial value was $x$, after Monday, its value is $.9x$, ..., its value becomes
    $.8\\cdot .9x = .72x$, making for a total loss of $\\boxed{28\\%}$`): the clauses before the one that holds the last
    math segment are not read, and that clause is read whole, as a leading clause or as a box's clause opens
    (`box_clause`: `its value becomes $.72x$`, `The roots of $P(x)$ are $-2$ and ...`, `$x = 3$`, `Since $a = 2$`). So
    a hedge or a condition in the clause of the last math (`Maybe for $n=3$, we get \\boxed{6}`, red team 4 class 13)
    or before the box's own math (`Maybe, the answer is $\\boxed{6}$`) leaves no answer; the box's own clause is
    `box_clause`'s."""
    sentence = _sentence_before(text, pos)
    if sentence is None:
        return False  # its start is out of sight (`last_break`)
    before = sentence[: _own_math(sentence, text, pos)]  # `$x = \\boxed{6}$`: the box's own math is its clause's
    aligned = _math_masked(before)
    opened = None
    for opened in _BOX_CLAUSE_START_RE.finditer(aligned):
        pass
    if opened is not None and opened.group() in (":", "：") and not re.search(
            r"\n|\\\[|\$\$|\\begin", text[pos - len(sentence) + opened.end(): pos]) and not box_label(
            before[: opened.start()]):
        return False  # `The wrong value: $x = \\boxed{6}$`: a label before its clause's colon on one line, read as
        # before a box's (fx29af); across a break or a display, the box's line start is `box_lead`'s (class 1, open)
    last = aligned.rfind("§")
    if last < 0:
        return all(_lead_clause(clause) for clause in _CLAUSE_SPLIT_RE.split(_masked(before))[:-1])
    cut = 0
    for brk in _CLAUSE_SPLIT_RE.finditer(aligned, 0, last):
        cut = brk.end()
    after = _CLAUSE_SPLIT_RE.search(aligned, last)
    later: list[str] = []
    if after is None and opened is not None and opened.start() > last and not before[last + 1: opened.start()].strip() and (
            before[: last + 1].endswith(("\\]", "$$"))):
        clause = before[cut: opened.start()]  # `I doubt that \\[a\\]: \\boxed{6}`: a mark after the last math
        # starts the box's clause, the math's clause read as before a comma (fx29am, red team 19 class 7)
    elif after is None:
        if not _RESTART_RE.match(before, last + 1) and _subject_goes_on(before[last + 1:]):
            return True  # the last math is in the box's own clause (`The sum of $a$ and $b$ is`, `The value of $x$ such
            # that ... is`, `... for a \\(98 \\times 98\\) chessboard is:`): `box_clause` and `box_subject` read it
        # any other word after it ends the math's clause as `_RESTART_RE`'s `so` or a comma does (fx29am, red team 19
        # class 6: `The answer in thousands is $a$ consequently \\boxed{6}`, `... $a$ finally`, `... $a$ overall`)
        clause = before[cut: last + 1]  # `The answer could be $a$ (and) so \\boxed{6}`: a lead after the
        # math restarts the box's clause with no comma (fx29aj, red team 18 class 8), the math's clause read as before one
    else:
        clause = before[cut: after.start()]
        later = _CLAUSE_SPLIT_RE.split(_masked(before[after.end():]))[:-1]
    return (_lead_clause(_masked(clause)) or box_clause(clause) and _math_clause_subject(clause)) and all(
        _lead_clause(c) for c in later) and _derivation_leads(before[:cut], aligned[:cut], _box_names(
            sentence[len(before):], "".join(c for c, a in zip(before[cut:], aligned[cut:]) if a == "§")))


_MATH_COMMAND_RE = re.compile(r"\\(?:[A-Za-z]+|.)")


def _box_names(own: str, clause_math: str) -> frozenset[str] | None:
    """The letters, lower-cased, of the box's own math up to the box (`own`: `$x =`, `$f(n) =`) and of the math in the
    box's clause before it (`clause_math`), commands dropped (`\\mathrm{x}` is `x`), read as the grader folds them
    (`unicode_math.to_ascii_math`: `𝑥`, `𝒙` are `x`; fx29aq, red team 22 class 3); None when its own math holds no
    letter (`so $\\boxed{6}$`, `the answer is \\boxed{6}`) or either holds a letter that folds to no ASCII one: a box that
    names no unknown a condition is told from (`_later_step`'s conditions)."""
    own, clause_math = _MATH_COMMAND_RE.sub(" ", to_ascii_math(own)), _MATH_COMMAND_RE.sub(" ", to_ascii_math(clause_math))
    if any(c.isalpha() and not c.isascii() for c in own + clause_math):
        return None  # a letter the grader does not fold (`ℎ`, `θ`): an unknown no condition's ASCII letter is told from
    mine = {c.lower() for c in own if c.isalpha()}
    if not mine:
        return None
    return frozenset(mine | {c.lower() for c in clause_math if c.isalpha()})


_WORD_AFTER_RE = re.compile(r"[ \t]*([^\W\d_]+)")


def _subject_goes_on(rest: str) -> bool:
    """Whether the last math before a box is in the box's own clause (`box_lead_clauses`; `rest`: the text after it): no
    word follows it on its line (`... are:\n- \\((p, q) = (7, 3)\\)\n\n\\(\\boxed{...}`), the word after it goes on
    with a subject (a link or verb, `and`, `or`, a preposition, a relative, a noun or unit, a clause word: `$a$ and $b$
    is`, `$x$ such that`, `$6$ apples cost`), or a link or verb follows among the words after it (`\\(98 \\times 98\\)
    chessboard is:`: the subject's reader reads them). Any other word, a connective or an adverb listed or not, ends the
    math's clause as `_RESTART_RE`'s `so` or a comma does (fx29am, red team 19 class 6: `The answer in thousands is $a$
    consequently \\boxed{6}`, `... $a$ finally`, `... $a$ overall`)."""
    word = _WORD_AFTER_RE.match(rest)
    if word is None:
        return True
    w = word.group(1).lower()
    if (w in _BOX_COPULAS or w in _JOINERS or w in _RELATIVE_OPENERS or w in _OPEN_PREPS or w in _CLOSED_PREPS
            or w in _STATING_VERBS or any(_has(role, w) for role in ("verb", "prep", "noun", "count", "unit", "than"))
            or any(w in e.words for e in CLAUSE_WORDS)):  # `$n$ odd`, `$x$ can`, `$k$ as`
        return True
    return any(v.lower() in _BOX_COPULAS or _has("verb", v) for v in _PROSE_WORD_RE.findall(rest))


_RESTART_RE = re.compile(r"\s*(?:(?i:and)\s+)?(?i:so|thus|therefore|hence|then)(?![\w'’])")
"""A concluding connective right after a math segment that starts the box's clause with no comma (`box_lead_clauses`:
`The answer could be $a$ so \\boxed{6}`, `... $a$ and thus the answer is`): `CONCLUDING_OPENERS` and `then`, an `and`
before it."""


def _math_masked(text: str) -> str:
    """`text` with each closed math segment (inline or display, `_math_spans`) as `§`, positions kept."""
    out = list(text)
    for a, b in _math_spans(text, closed=True):
        out[a:b] = "§" * (b - a)
    return "".join(out)


def _derivation_leads(before: str, aligned: str, names: frozenset[str] | None = None) -> bool:
    """Whether the clauses before the last math's clause (`box_lead_clauses`; `aligned`: `before` with its math masked
    as `§`) lead to it: a derivation runs from the first clause that holds math, which opens as a leading clause, a box's
    clause (`box_clause`: `its value is $.9x$`) or a premise that names the unknown (`_NAMING_PREMISE_RE`: math-verify's
    `If its initial value was $x$, after Monday, its value is $.9x$, ...`). Every clause before it leads (`_lead_clause`,
    or a reference: `_reference_clause`, `By Vieta`): `In thousands, $a = 2$, $x = \\boxed{6}$`, `Maybe, $y = 1$, $a = 2$,
    ...` state none (fx29ag). Every later clause is read too (fx29am, red team 19 class 1): a step in math that opens as
    a lead or a box's clause whose math's subject reads (`_math_clause_subject`), a lead or reference without math, or a
    time's step (`_TIME_STEP_RE`); `So $a = 2$, in thousands, $b = 3$, $x = \\boxed{6}$` states none."""
    clauses, k = [], 0
    for brk in list(_CLAUSE_SPLIT_RE.finditer(aligned)) + [None]:
        end = brk.start() if brk is not None else len(aligned)
        if brk is not None or before[k:end].strip():
            clauses.append((before[k:end], "§" in aligned[k:end]))
        k = brk.end() if brk is not None else end
    first = True
    for at, (clause, has_math) in enumerate(clauses):
        following = clauses[at + 1][1] if at + 1 < len(clauses) else True  # the last math's clause follows `before`
        if has_math:
            if not (first and (_lead_clause(_masked(clause)) or box_clause(clause) or _naming_premise(clause))
                    or not first and _later_step(clause, following, names)):
                return False  # a later step is read as the first (fx29am, red team 19 class 1)
            first = False
        elif not (_lead_clause(_masked(clause)) or _reference_clause(clause)
                  or not first and _later_words(clause, following)):
            return False  # before the first math or between steps (`So $a = 2$, in thousands, $b = 3$, ...`)
    return True


_AND_RE = re.compile(r"\s*(?i:and)(?:\s+|$)")
_RESTATING_RE = re.compile(r"\s*(?:(?i:and)\s+)?(?i:that\s+is|i\.e\.?)(?=\s|$)")
_LATER_CLAUSE_RE = re.compile(
    r"\s*(?i:moreover|additionally|furthermore|also|likewise|in\s+the\s+same\s+way|in\s+a\s+similar\s+way"
    r"|(?:plugging|substituting)\s+(?:it\s+|this\s+|these\s+|them\s+)?back(?:\s+in)?"
    r"|for\s+the\s+(?:first|second|third|fourth|other|last|next)(?:\s+one)?)\s*")
"""Words of a derivation's later clause without math that lead to the next step (`_later_words`; fx29ao, red team 20's
pedantry): an additive connective (`moreover`, `additionally`, `in the same way`), a substitution back (`plugging
back`), or which case comes next (`for the second`). A closed list: none hedges, scales, bounds or negates."""
_CONDITION_STEP_RE = re.compile(
    r"\s*(?:(?i:and)\s+)?(?i:when|for|if)\s+\$\s*([A-Za-z])\s*=\s*-?\d{1,3}\s*\$\s*")
"""A later clause that states which case the next step is of (`_later_step`: `We get $a = 2$, when $n = 2$, $b = 4$,
so ...`): a condition word and a letter set to an integer, alone in its clause, and a step in math after it (never the
last clause before the box's own, which it would condition: `So $a = 2$, for $n = 2$, $x = \\boxed{6}$` states none)."""


def _later_step(clause: str, following: bool, names: frozenset[str] | None) -> bool:
    """A later clause with math of a derivation (`_derivation_leads`): a lead, a box's clause whose math's subject reads
    (`_math_clause_subject`), a time's step (`_TIME_STEP_RE`), a case before a step (`_CONDITION_STEP_RE`), or a
    restatement (`that is`, `i.e.`, fx29ao) of a clause that is one of these: a restatement is read, never skipped."""
    restated = _RESTATING_RE.match(clause)
    if restated is not None and clause[restated.end():].strip():
        return _later_step(clause[restated.end():], following, names)
    if _lead_clause(_masked(clause)) or box_clause(clause) and _math_clause_subject(clause) or _TIME_STEP_RE.fullmatch(clause):
        return True
    case = _CONDITION_STEP_RE.fullmatch(clause)
    return following and case is not None and names is not None and case.group(1).lower() not in names


def _later_words(clause: str, following: bool) -> bool:
    """A later clause without math of a derivation (`_derivation_leads`): after an optional `and`, a lead or a reference
    (`and then`, `and by symmetry`, `and from this`), a time's step (`_TIME_STEP_RE`), a restatement's opener (`that is`,
    `i.e.`: the clause after it is read as any step), or `_LATER_CLAUSE_RE`'s words (fx29ao, red team 20's pedantry); a
    bare `and` only before another clause without math (`and, similarly,`), never before a step or the box's clause
    (`So $a = 2$, and, $x = \\boxed{6}$` states none)."""
    if _TIME_STEP_RE.fullmatch(clause) or _RESTATING_RE.fullmatch(clause.rstrip()):
        return True
    joined = _AND_RE.match(clause)
    if joined is None:
        return bool(_LATER_CLAUSE_RE.fullmatch(clause))
    rest = clause[joined.end():]
    if not rest.strip():
        return not following
    return bool(_lead_clause(_masked(rest)) or _reference_clause(rest) or _LATER_CLAUSE_RE.fullmatch(rest))


_TIME_UNIT = r"(?i:second|minute|hour|day|week|month|year|decade|morning|afternoon|evening|night)s?"
_TIME_ORDINAL = r"(?i:first|second|third|fourth|fifth|next|last|further|following|same|final)"
_TIME_STEP_RE = re.compile(
    r"\s*(?:(?i:and)\s+)?(?:(?i:after|before|on|during|until|in|within)\s+(?:(?i:the|a|an|another)\s+)?"
    r"(?:(?:" + _TIME_ORDINAL + r"\s+)?(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
    r"|(?i:day|week|month|year|morning|afternoon|evening)(?:\s+\d{1,3})?|(?i:sale|purchase|trip|round|game|visit|payment|deposit)"
    r"|(?:\$\s*(?:\d{1,3}(?:\.\d{1,2})?\s*\\?%|\\\$\s*\d{1,5}(?:\.\d{1,2})?)\s*\$\s+|\d{1,3}(?:\.\d{1,2})?%\s+)?"
    r"(?i:loss|gain|increase|decrease|discount|drop|rise|markup))"
    r"|(?:\d{1,3}|(?i:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)|" + _TIME_ORDINAL + r")\s+"
    + _TIME_UNIT + r")"
    r"|(?i:by|at)\s+(?i:the)\s+(?i:end)\s+(?i:of)\s+(?i:the)\s+(?:" + _TIME_ORDINAL + r"\s+)?" + _TIME_UNIT
    + r"|(?i:after\s+that|afterwards?|later(?:\s+on)?|thereafter))\s*")
"""A later step's clause that says when the next step happens (`_derivation_leads`): a time's preposition before a
day's name, a time word, a count of a time's unit (`after 3 years`, `after two weeks`), an ordinal one (`in the second
year`), an event of a word problem (`after the first sale`) or a change (math-verify's `If its initial value was $x$,
after Monday, its value is $.9x$, and after a further $20\\%$ loss, its value becomes ...`); `by the end of the week`;
`after that`, `afterwards`, `later` (fx29ao, red team 20's pedantry). A change's math is a percentage or a dollar amount
alone (fx29ao, red team 20 class 6: `after a $\\div 1000$ discount`, `after the $10^3$ drop` are scales), and a scale
(`after dividing by 1000`, `in thousands`) is none."""
_NAMING_PREMISE_RE = re.compile(
    r"\s*(?i:if|let|suppose|assume)\s+((?:[^\W\d_]+(?:'s|’s)?\s+){1,4})(?i:is|was|be|are|were)\s+\$\s*([A-Za-z])\s*\$\s*")
_PREMISE_ADJECTIVES = frozenset("initial original starting".split())


def _naming_premise(clause: str) -> bool:
    """A premise that gives the unknown a name (`If its initial value was $x$`, `Let the price be $p$`, `If $x$ is the
    number of apples`, `Let $n$ be the number of cars`): a premise word, a noun phrase of LEXICON's determiners,
    adjectives and nouns (or `_PREMISE_ADJECTIVES`; after the letter, one `of` between nouns: `the number of apples`),
    a link and a single letter in math. A condition (`If $n$ is odd`, `If n is odd`), a value (`If its value was $7$`)
    or a scale (`If $x$ is the answer in thousands`, `... the number of thousands`: neither word is a noun) is none."""
    m = _NAMING_PREMISE_RE.fullmatch(clause)
    if m is None:
        m = _NAMED_PREMISE_RE.fullmatch(clause)
        return m is not None and _named_quantity(m.group(1).split(), (m.group(2) or "").split())
    return _phrase_words(m.group(1).split())


_QUANTITY_NOUNS = frozenset(
    "number count amount total cost price age length width height area perimeter volume distance speed time weight "
    "mass income profit salary score".split())
_COUNTED_NOUNS = frozenset("number count amount".split())
_NOT_COUNTED = frozenset("digit digits thousand thousands hundred hundreds million millions answer answers result "
                         "total totals".split())


def _named_quantity(words: list[str], counted: list[str]) -> bool:
    """A letter-first naming premise's phrase (`If $x$ is the number of apples`, `Let $n$ be the total cost`): `the`,
    at most one of `_PREMISE_ADJECTIVES` or `total`, and a quantity's noun (`_QUANTITY_NOUNS`); with `of`, a counting
    noun (`number`, `count`, `amount`) of things (`_phrase_words`), never of digits, a scale or the answer. An allowlist
    (red team 20 class 3: the letter named a part or a function of the quantity, `the units digit`, `the sum of the
    digits`, `the root of the answer`, `the ratio of apples`, and the box gave that)."""
    if not words or words[0].lower() != "the" or words[-1].lower() not in _QUANTITY_NOUNS or len(words) > 3:
        return False
    if len(words) == 3 and words[1].lower() not in _PREMISE_ADJECTIVES | {"total"}:
        return False
    if not counted:
        return True
    return (words[-1].lower() in _COUNTED_NOUNS and _phrase_words(counted)
            and not any(w.lower() in _NOT_COUNTED for w in counted))


def _phrase_words(words: list[str]) -> bool:
    """Whether `words` are a naming premise's noun phrase (`_naming_premise`)."""
    return all(w.lower() in _PREMISE_ADJECTIVES or _is_owner(w) or any(_has(r, w) for r in ("det", "adj", "noun", "count"))
               for w in words)


_NAMED_PREMISE_RE = re.compile(
    r"\s*(?i:if|let|suppose|assume)\s+\$\s*[A-Za-z]\s*\$\s+(?i:is|be|denotes?|represents?)\s+"
    r"((?:(?!(?i:of)\s)[^\W\d_]+(?:'s|’s)?\s+){0,3}[^\W\d_]+)(?:\s+of\s+((?:[^\W\d_]+\s+){0,2}[^\W\d_]+))?\s*")
_REFERENCE_CLAUSE_RE = re.compile(
    r"\s*(?i:by|from|using|via|applying)\s+(?:(?i:step|equation)\s+\(?\d{1,2}\)?|(?i:symmetry)|(?i:the\s+)?"
    r"([A-Z][a-z]+)(?:['’]s)?(?:\s+(?i:formulas?|theorem|rule|inequality|identity|lemma|law))?)\s*")
_REFERENCE_NAMES = frozenset(
    "Vieta Pythagoras Pythagorean Euler Fermat Cauchy Bezout Heron Ptolemy Stewart Menelaus Ceva Legendre Wilson "
    "Lagrange Newton Descartes Pascal Brahmagupta Pick Burnside Lucas Bayes Chebyshev Jensen Holder Minkowski Schur "
    "Muirhead Stirling Taylor Euclid Euclidean Binomial Remainder Factor Apollonius Viviani Routh Shoelace Sylvester "
    "Kummer Hensel Zsigmondy Dirichlet Rolle Gauss Vandermonde".split())
"""The results a reference clause may name (`_reference_clause`): an allowlist of theorems' and methods' authors and
kinds, since a capitalised word there may be a hedge written as a name (red team 20 class 2: `By Estimation`, `Using
Intuition`, `From Luck's law` paid)."""


def _reference_clause(clause: str) -> bool:
    """A clause before a derivation's math that names where its step comes from (`_derivation_leads`): `By Vieta`,
    `From step 1`, `by symmetry`, `Using equation (2)`, `By Vieta's formulas`: a reference word, then a step's or an
    equation's number (of one or two digits), `symmetry` or a result's name of `_REFERENCE_NAMES` (not `By Roughly`,
    `By Estimation`) with an optional kind of result. A number alone (`By 1000`, `From 7`) is none: it scales or
    states."""
    m = _REFERENCE_CLAUSE_RE.fullmatch(clause)
    return m is not None and (m.group(1) is None or m.group(1) in _REFERENCE_NAMES)


def _math_clause_subject(clause: str) -> bool:
    """Whether the clause of the last math before a box (`box_lead_clauses`) says what its math is of, read by the one
    subject reader (`_copula_subject`, `_equals_subject` up to the math's first `=`) as the words before a box's math
    are, at each math segment of the clause that words lead to (inline or display, `$$` included; the segments before
    it are words of its subject), whatever follows the math (fx29aj, red team 18 class 8): `The answer in thousands is
    $a$`, `... is $a$ here`, `... is $a$ or $b$`, `... is $$a$$`, `It is not true that $a = 2$` state nothing; `its value
    becomes $.72x$`, `$x = 3$`, `The sum of $a$ and $b$ is $7$` do (a clause that opens with a lead, `Since $a = 2$`, is
    `_lead_clause`'s)."""
    for a, b in _math_spans(clause, closed=True):
        words = clause[:a]
        if not _PROSE_WORD_RE.search(words):
            continue  # `$x = 3$`: math before any word
        eq = clause.find("=", a, b)
        if not (_equals_subject(clause[: eq + 1], clause[: eq + 1]) if eq >= 0 else _copula_subject(words)):
            return False
    return True


def _sentence_before(text: str, pos: int) -> str | None:
    """The text of the sentence that holds `pos`, from its start (a sentence end, a display's end among them unless a
    clause mark follows it, or a line break that `last_break` keeps; never markup or inline math) to `pos`; None when
    its start is out of sight (`last_break`)."""
    floor, end = max(pos - _LEAD_CHARS_BOX, 0), pos
    while True:
        start = last_break(_SENTENCE_END_RE, text, floor, end)
        if start < 0:
            return None
        close = start - 1 if text[start - 1: start] == "!" and text[:start - 1].endswith(("\\]", "$$")) else start
        display = next((a for a, b in _math_spans(text[floor:close], closed=True) if b == close - floor), None)
        if display is None or not text[:close].endswith(("\\]", "$$")) or close == start and not (
                _CLAUSE_MARK_AFTER_RE.match(text, start)):
            return text[start:pos]
        end = floor + display  # a display followed by a clause's mark or a glued `!` is a word of its clause, read
        # through as `anchor_clause` reads it (fx29aj, red team 18 class 8: `The answer in thousands is $$a$$, $x =
        # \\boxed{6}$`; fx29am, red team 19 class 7: `I doubt that \\[a\\]: \\boxed{6}`, `... is \\[a\\]! \\boxed{6}`)


_CLAUSE_MARK_AFTER_RE = re.compile(r"[ \t]*[,;:，；：]")


_THAI_CLASSIFIERS = ("ชิ้น ลูก เครื่อง ดอลลาร์ แท่ง คัน อัน คน ตัว ใบ เล่ม บาท ผล แผ่น กล่อง ขวด วัน ชั่วโมง นาที ปี "
                     "ครั้ง").split()
"""Thai classifiers and units a sum's number may carry before a Thai space (`thai_space_ends`: MGSM's `9 + 20 = 29
เครื่อง`, `23 - 15 = 8 ดอลลาร์`): what is counted, never a scale (`พัน`), a bound or a hedge (`อาจจะ`)."""
_THAI_COUNTED = r"(?: (?:" + "|".join(_THAI_CLASSIFIERS) + r"))"
_THAI_SUM_END_RE = re.compile(
    r"(?:(?P<led>ดังนั้น) ?(?P<words>[\u0e00-\u0e7f]{1,80} )?)?\(?\d[\d +\-*/×÷().]{0,80}[=＝] ?\d{1,12}(?:\.\d{1,12})?"
    r"(?P<counted>" + _THAI_COUNTED + r")?$")
"""A Thai step's sum at a space's left (`thai_space_ends`), with its concluding `ดังนั้น` ("therefore") and the one run of
words after it when it has them (MGSM's `ดังนั้น ตอนนี้จะมีคอมพิวเตอร์อยู่ 9 + 20 = 29 เครื่อง`)."""
_THAI_STEP_END_RE = re.compile(r"\d" + _THAI_COUNTED + r"?$")
"""The end of a Thai step before a space and `ดังนั้น` (MGSM's `6 ลูก ดังนั้น`, `$23 ดังนั้น`): a number with an optional
classifier, as a sum's last side ends (`_thai_sum_opens`)."""


def thai_space_ends(text: str, at: int) -> bool:
    """Whether the ASCII space at `text[at]`, after a Thai letter or a digit and before a Thai letter, ends a sentence
    (`last_break`; red team 29 class 4, red team 30 class 2). Thai writes no sentence mark, and MGSM's Thai rows end a
    step with a space (`... ดังนั้น 5 + 6 = 11 คำตอบคือ 11`), but a space ends a sentence only after such a step: a sum of
    numbers alone whose last side is a number with an optional classifier (`_THAI_SUM_END_RE`, `_THAI_CLASSIFIERS`), as
    `_CASELESS_SUM_RE` reads a line above a caseless answer, where the sum itself opens a sentence (`_thai_sum_opens`:
    `หน่วยเป็นพัน 2 + 4 = 6 คำตอบคือ 6`, "in thousands", is one sentence whose lead is read). Words may stand between
    `ดังนั้น` and its sum only before a classifier (the words say what is counted). After anything else (`The answer in
    units of 1000`, `It is not 6`, `I doubt that ดังนั้น`, `ถ้า n เป็นคู่`, `ถ้าหน่วยเป็นพัน`) the sentence goes on and its lead
    is read (`anchor_lead`: `ดังนั้น คำตอบคือ 6` pays); any other spacing before Thai (NBSP, a tab, `\u2028`) ends none, and
    a line break is the line walk's (`statement_lines`)."""
    m = _THAI_SUM_END_RE.search(text, max(at - 200, 0), at)
    if m is None or m.group("words") and not m.group("counted"):
        return False
    return _thai_sum_opens(text, m.start(), bool(m.group("led")))


def _thai_sum_opens(text: str, start: int, led: bool) -> bool:
    """Whether the Thai sum (or its `ดังนั้น`) at `start` opens a sentence (`thai_space_ends`): at the text's start, at a
    line's start that opens one (`line_opens`: `อาจจะ\n2 + 4 = 6` runs on), after a sentence's end (`_joined_end`), or,
    for `ดังนั้น` only, after a step's end and a space (`_THAI_STEP_END_RE`: `6 ลูก ดังนั้น 5 + 6 = 11`; `อาจจะ ดังนั้น` runs
    on). One reading of a sentence's opening with the other paths (red team 30 class 2)."""
    k = start
    while k > 0 and text[k - 1] in " \t":
        k -= 1
    if k == 0:
        return True
    if text[k - 1] == "\n":
        return line_opens(text, k)
    return _joined_end(text, k) or led and k < start and bool(_THAI_STEP_END_RE.search(text, max(k - 40, 0), k))


def last_break(pattern: re.Pattern[str], text: str, floor: int, pos: int) -> int:
    """Where the sentence or clause that holds `pos` starts: after the last match of `pattern` in `text[floor:pos]`, a
    line break among them only where `statement_lines` says a statement ends there (fx29z: a line that opens lowercase
    after a line with no statement's end continues its sentence, so `I doubt that\\nthe answer is 6` and `Maybe,\\nthe
    answer is 6` are read whole, red team 16 class 1's anchor path); `floor` when none and `floor` is the text's start,
    -1 when none and `floor` cuts the text: the clause starts out of sight, and a window's cut is never read as the
    text's start (fx29av, red team 27 class 4: `可能` or `Maybe` and 300 spaces before `答案是 6。` or `the answer is 6.`
    paid, the lead read from the floor being spaces alone); its reader refuses."""
    found = floor
    lines = None
    opens: set[int] = set()
    spans: list[tuple[int, int]] | None = None
    for m in pattern.finditer(text, floor, min(pos + 1, len(text))):
        if m.end() > pos:
            continue  # a sentence end's lookahead reads the character at `pos`
        if m.group() == "\n":
            lines = set(statement_lines(text, floor, pos)) if lines is None else lines
            if m.end() not in lines:
                continue
        elif m.group()[:1] == " " and not thai_space_ends(text, m.start()):
            continue  # a space before Thai ends a sentence only after a sum (red team 29 class 4)
        elif m.start() < marks_end(text, text.rfind("\n", 0, m.start()) + 1):
            continue  # a list number's `1.` is a line's mark, no sentence's end (fx29af)
        elif m.group()[:1] == "." and not period_ends(text, m.start()):
            continue  # `approx.`, `e.g.`: an abbreviation's period ends no sentence (fx29ah)
        elif m.group() == "!" and _factorial(text, m.start(), spans := (
                spans if spans is not None else _math_spans(text[:pos], closed=True))):
            continue  # `$3! = 6$`: a factorial inside math ends no sentence (red team 19's pedantry)
        elif m.group() in ("$$", "\\[") and m.start() in (opens := opens or {a for a, _ in _math_spans(text[:pos])}):
            continue  # a display's opener ends no sentence, its end does (fx29ah: `Maybe, we get $$x = \\boxed{6}$$`)
        found = m.end()
    if found == floor > 0:
        return -1  # the window's cut (`tail_window` reads alike)
    if found == 0 or text[found - 1: found] == "\n":
        found = min(marks_end(text, found), pos)  # `- The answer is`, `1. The answer is`: the line's marks lead
    return found


_FACTORIAL_RE = re.compile(r"(?<=[0-9A-Za-z)\]}])!")


def _factorial(text: str, at: int, spans: list[tuple[int, int]]) -> bool:
    """Whether the `!` at `at` is a factorial (`last_break`): glued to a digit, a letter or a closing bracket, inside a
    closed math segment (`_math_spans`, read from the text's start) with more math after it before its closer (`$3! =
    6$`, `$(n+1)! = 24$`). A `!` right before the closer (`$x = 6!$ Then`), after a space, or in prose (`6! Then`, `3 $!
    Puis`, a currency sign opens no segment that closes) ends a sentence as before."""
    return bool(_FACTORIAL_RE.match(text, at)) and any(
        a < at < b and _MATH_DELIMITER_RE.sub("", text[at + 1: b]).strip() for a, b in spans)


def _unmarked(text: str) -> str:
    """`text` with the marks each of its lines opens with (`_marks_end`) as spaces: `So\n- the answer is`."""
    out, k = [], 0
    for at in [0] + [m.end() for m in re.finditer(r"\n", text)]:
        end = marks_end(text, at)
        out += [text[k:at], " " * (end - at)]
        k = end
    return "".join(out) + text[k:]


def marks_end(text: str, at: int) -> int:
    """Where the marks the line at `at` opens with end (`_LINE_MARKS_RE`: `- `, `1. `, `> `, `**`), when the line goes on
    after them; `at` when nothing follows them on the line: a lone `-` or `>` is no list's bullet or quote but an
    operator, read as a word of the sentence (fx29af, red team 17: `-\nthe answer is \boxed{6}`)."""
    end = _LINE_MARKS_RE.match(text, at).end()  # type: ignore[union-attr]
    return end if end > at and text[end: end + 1] not in ("", "\n", "\r") else at


def _masked(before: str) -> str:
    """`before` with each closed math segment one word (`§`, no lead's; inline or display, `_math_spans`), and a listed
    text command's or tag's words as words
    (`_LEAD_MARKUP_RE`; fx29aa: any other command is a token no lead is, `\\neg, the answer is 6`)."""
    out, k = [], 0
    for a, b in _math_spans(before, closed=True):
        out += [before[k:a], " § "]
        k = b
    return _LEAD_MARKUP_RE.sub(" ", "".join(out) + before[k:])


def _own_math(before: str, text: str, pos: int) -> int:
    """Where the math that holds the box at `pos` opens in `before` (the box's sentence up to the box, which ends
    `text[:pos]`): a segment `_math_spans` pairs, read from the text's start, that opens in the sentence and closes
    after the box; len(before) when the box stands in prose. An opener left unclosed holds nothing: it is a word of the
    sentence (`3 $ chacun`), never a math boundary (fx29ah, red team 18 class 1: `Maybe$: the answer is \\boxed{6}`,
    `The answer is not$, so the answer is \\boxed{6}` made every word before the lone `$` the box's own math)."""
    start = pos - len(before)
    for a, b in _math_spans(text, closed=True):
        if a < pos < b:
            return a - start if a >= start else len(before)
        if a >= pos:
            break
    # read from the text's start a lone opener pairs with the box's own (`Possibly$, thus the answer is $x =
    # \\boxed{6}$`): the box's math is then the last opener before it whose closer is the next delimiter after it
    opener = None
    for opener in _MATH_DELIMITER_RE.finditer(before):
        pass
    after = _MATH_DELIMITER_RE.search(text, pos)
    if opener is None or after is None:
        return len(before)
    token = re.sub(r"\s+", "", opener.group())
    return opener.start() if token in _CLOSER and re.sub(r"\s+", "", after.group()) == _CLOSER[token] else len(before)


def _lead_clause(clause: str) -> bool:
    """One clause before the answer's own: see `lead_clauses`."""
    if (_PART_CLAUSE_RE.match(clause) or _REJECTION_CLAUSE_RE.match(clause) or _LEAD_PHRASE_RE.fullmatch(clause.strip())
            or _STEP_CLAUSE_RE.fullmatch(clause) or _SETTLED_CLAUSE_RE.match(clause)):
        return True
    stated = strip_stating(clause)
    if stated != clause:
        return _lead_clause(stated)  # `So in total,`: connectives and a stating clause's opener
    words = _SCRIPT_TOKEN_RE.findall(clause)
    if _method_clause(words):
        return True  # `Then solving the system of equations,`, `Rounded to the nearest cent,`
    return all(w.lower() in ANCHOR_LEADS or w.lower() in _DISCOURSE or _has("lead", w) or w in _LEAD_MARKS
               or w in "()" or w in _CJK_LEADS or w.lower() in _CLAUSE_OPENERS or _script_leads(w) for w in words)


METHOD_PARTICIPLES = frozenset(
    "solving substituting plugging using applying evaluating simplifying computing calculating adding combining "
    "summing multiplying dividing subtracting checking rounding rounded converting expanding factoring".split())
"""Participles that open a clause saying how the value was found, with an object (`Solving the system of equations,`,
`Plugging these values into the formula,`, `Rounded to the nearest cent,`: math-verify's suite), a clause before a
box's or an anchor's own (`_method_clause`)."""


_PRECISION_WORDS = frozenset({"cent"})
"""Words no unit (never around a value) that name a precision after `rounded to the nearest`: `cent` is French and
Catalan for hundred, so it is no currency name (LEXICON), but `Rounded to the nearest cent,` (math-verify's suite)
asks for hundredths of a currency unit and says nothing of the value's size."""


def _method_clause(words: list[str]) -> bool:
    """A method's clause (`_lead_clause`): leads (`Then`), a `METHOD_PARTICIPLES` word, then words only, none a hedge,
    a scale, a negation, a bound or an estimate (`_not_object`: `Rounded to the nearest thousand`, `Solving roughly`,
    `Using an approximation`), and no number or math (`Dividing by 1000,` scales what follows, `Multiplying by 2,`).
    After a rounding participle `nearest` before a unit names the precision asked for (`Rounded to the nearest cent`,
    `to the nearest integer`); before a numeral it scales (`Rounded to the nearest ten`, red team 3). `After` or `upon`
    before the participle says when, not how much (`After simplifying,`)."""
    rest = [w.lower() for w in words if w not in _LEAD_MARKS]
    while rest and (rest[0] in ANCHOR_LEADS or _has("lead", rest[0])) and rest[0] not in METHOD_PARTICIPLES:
        rest = rest[1:]
    if len(rest) > 1 and rest[0] in ("after", "upon") and rest[1] in METHOD_PARTICIPLES:
        rest = rest[1:]  # `After simplifying,` as `Simplifying,` (red team 19's pedantry)
        if len(rest) == 1:
            return True
    rounding = bool(rest) and rest[0] in ("rounding", "rounded")

    def precision(k: int) -> bool:
        return rounding and rest[k] == "nearest" and k + 1 < len(rest) and (
            _is_unit(rest[k + 1]) or rest[k + 1] in _PRECISION_WORDS)

    return len(rest) > 1 and rest[0] in METHOD_PARTICIPLES and all(
        w.isalpha() and w.isascii() and (precision(k) or k > 1 and precision(k - 1) or not _not_object(w)
                                         and _method_word(w)) for k, w in enumerate(rest) if k)


METHOD_OBJECTS = frozenset(
    "equation equations formula formulas formulae theorem theorems identity identities rule rules law laws system "
    "systems substitution substitutions recursion recurrence relation relations condition conditions definition "
    "definitions property properties method methods expression expressions values results information fact facts "
    "terms constraint constraints inequality inequalities steps data and into onto both".split())
"""The words a method's clause may hold after its participle besides LEXICON's determiners, prepositions and
adjectives (`_method_word`): what a method applies or uses (`the system of equations`, `these values into the
formula`). An allowlist (red team 7 class 3): a number word (`Dividing by two`), a hedge (`Using a flawed formula`,
`Checking carelessly`) or an operation on the answer (`Computing the square root of the answer`) is no method."""


STEP_WORDS: tuple[Entry, ...] = (
    _entry("imperative", "calculate compute add sum simplify solve evaluate find substitute multiply combine expand "
           "factor subtract divide",
           "a math step's verb in its base form (`Finally, calculate k:`, `We add them:`, `Let's simplify:`): an "
           "operation whose result is the value on the lines below (Omni-MATH's outputs); none estimates, rounds, "
           "converts or scales (`round`, `estimate`, `convert`, `approximate`), and none checks or uses a value that "
           "may be a candidate (`check`, `verify`, `try`, `use`, `apply`, `plug`: `Check: \\boxed{7}`)"),
    _entry("gerund", "calculating computing adding summing simplifying solving evaluating finding substituting "
           "multiplying combining expanding factoring subtracting dividing",
           "the same steps as a gerund (`Simplifying the fraction:`, `Adding these:`)"),
    _entry("step_subject", "we i let us s", "who takes the step (`We add them:`, `I compute:`, `Let's simplify:`, "
           "`Let us solve:`); a hedge (`maybe`, `perhaps`) or a condition (`if`) is no subject"),
    _entry("step_object", "them it these those both all each up together of for into the a an this that our its their "
           "total final remaining whole entire common average mean median new original exact",
           "what a step's object holds besides LEXICON's nouns and counted nouns, the objects' vocabulary "
           "(`OBJECT_WORDS`), `METHOD_OBJECTS` and math names (`the value of k`, `them up`, `the sum of the fractions`): "
           "determiners, pronouns and adjectives that pick which quantity; no number, scale, bound or hedge (`by "
           "1000`, `in thousands`, `roughly`, `possible` are not among them)"),
)
"""The closed grammar of a step's lead before a colon that leads to math and a box (`_step_lead`, issue 29: fx29bf's
cost rows); its own home, outside LEXICON (`admitted`) since these words stand only before a colon."""
_STEP_ROLES = {e.role: e.words for e in STEP_WORDS}


def _step_lead(words: list[str]) -> bool:
    """Whether a label's words (`box_label`, past its line's marks, a math name read as `x`) are a math step's lead
    (`STEP_WORDS`): [a subject] a verb (a base form after a subject or alone, a gerund alone), then an object of
    nouns, counted nouns, objects' and methods' words, math names and `step_object` words (`Calculate \\(k\\)`,
    `We add them`, `Simplifying the fraction`, `Let's compute the sum of $a$ and $b$`). An allowlist: a hedge, a
    condition, a negation, a number or a scale anywhere (`Maybe we add them`, `If we add them`, `Multiply by 1000`,
    `Guess`) is no step's lead."""
    rest = [w.lower() for w in words if w not in _LEAD_MARKS and w not in ("'", "’")]  # `Let's`: `let`, `s`
    subject = 0
    while subject < len(rest) and rest[subject] in _STEP_ROLES["step_subject"]:
        subject += 1
    if subject >= len(rest) or subject > 2:
        return False
    verb = rest[subject]
    if not (verb in _STEP_ROLES["imperative"] or not subject and verb in _STEP_ROLES["gerund"]):
        return False
    return all(w in _STEP_ROLES["step_object"] or w in METHOD_OBJECTS or w in _OBJECT_VOCABULARY or w == "x"
               or w.isalpha() and (_has("noun", w) or _has("count", w)) and not _not_object(w)
               for w in rest[subject + 1:])


def _method_word(word: str) -> bool:
    """A word of a method's clause after its participle (`_method_clause`): `METHOD_OBJECTS`, or LEXICON's
    determiners (`the`, `these`, not `a` alone before a hedge: the hedge refuses), prepositions and adjectives."""
    return word in METHOD_OBJECTS or any(_has(role, word) for role in ("det", "prep", "adj"))


_BOX_OPENERS = ("$", "\\[", "\\(", "*", "#", "&", "\\displaystyle", "\\quad", "\\qquad", "\\,", "\\;", "\\:", "\\ ", "~",
                "\\")
"""Markup that may open the box's math or emphasis (`$\\boxed{6}$`, `**\\boxed{6}**`, `&= \\boxed{6}`):
passed over before the box's lead is read."""
_TIE_GLUE_RE = re.compile(r"[^\W_]~$")
_MATH_OPEN_RE = re.compile(r"(?<!\\)\$|\\[\[\]()]")


def _tie(text: str, whole: bool) -> bool:
    """Whether the `~` that ends `text` is a LaTeX tie (a space), not the prose tilde that says "about"
    (docs/math.md "Answer grammar", "Relations"): glued to the word before it (`we get~\\boxed{6}`), or
    inside math (`$x =~ \\boxed{6}$`), known only when `whole` (the prefix was not cut)."""
    if _TIE_GLUE_RE.search(text):
        return True
    delimiters = _MATH_OPEN_RE.findall(text)
    dollars = delimiters.count("$")
    opened = next((d for d in reversed(delimiters) if d != "$"), "")
    return whole and (dollars % 2 == 1 or opened in ("\\[", "\\("))


_BOX_LEAD_MARKS = frozenset({"=", ":", "：", "!", "?", "。", "！", "।", "\\Rightarrow", "\\implies", "\\therefore",
                             "\\Longrightarrow", "\\iff", "\\equiv", "\\in"})
"""Marks after which a box starts a statement: a relation that states it (`x = \\boxed{6}`), a label's colon,
a sentence end (a `.` or `,` only after a word: `3.\\boxed{4}` is 3.4, `1,\\boxed{000}` is a thousand)."""
_BOX_LEAD_TEXT_RE = re.compile(r"\\(?:text|textbf|textit|textrm|mathrm|mathbf|mbox)\s*\{([^{}]{0,80})\}$")


def box_lead(prefix: str, box: str | None = None) -> bool:
    """Whether `prefix`, the text before a box, leaves the box a stated answer (docs/math.md "Answer
    grammar"): the box starts the completion, a line or a sentence, or follows an answer label, a
    stating relation (`=`, `\\Rightarrow`) or a word that states or concludes (LEXICON's "verb" and "lead",
    `ANCHOR_LEADS`: `is \\boxed{6}`, `Thus \\boxed{6}`). Anything else makes the box a part of
    something larger: `-\\boxed{6}`, `\\frac{1}{\\boxed{6}}`, `2 + \\boxed{6}`, `x \\neq \\boxed{6}`,
    `not \\boxed{6}`, `3 or \\boxed{6}`, `half of \\boxed{6}`. An allowlist: an unknown word before a
    box is not a lead. Bounded: the last `_LEAD_CHARS_BOX` characters are read. `box`, the box's content, is what a
    display on the line above must state to open it where it is no equation (`_math_line`); None opens no such display."""
    text = prefix[-_LEAD_CHARS_BOX:]
    gap = False  # a space between the box and the mark before it: `3. \\boxed{4}` ends a sentence
    broke = False  # a line break there: a period before it is at its line's end (`period_ends`)
    while True:
        stripped = text.rstrip(" \t\r\n")
        if stripped != text and "\n" in text[len(stripped):] and _line_start_leads(text, len(stripped), box):
            return True  # the box starts a statement's line
        gap = gap or stripped != text
        broke = broke or "\n" in text[len(stripped):]
        text = stripped
        opener = next((o for o in _BOX_OPENERS if text.endswith(o)), None)
        if opener == "~" and not _tie(text, len(prefix) < _LEAD_CHARS_BOX):
            return False  # `The answer is ~ \\boxed{6}`: a spaced tilde in prose says "about"
        if opener is not None:
            text = text[: -len(opener)]
            continue
        inner = _BOX_LEAD_TEXT_RE.search(text)
        if inner is not None:  # `\\text{Answer: }\\boxed{6}`: the label's words are read as prose
            text = text[: inner.start()] + " " + inner.group(1)
            continue
        break
    whole = len(prefix) < _LEAD_CHARS_BOX  # `text` starts where the completion does (`period_ends`)
    if not text or _part_label(text) or _ends_script_connective(text, whole):
        return True  # `ดังนั้น \\boxed{6}`, `所以\n\\boxed{6}`: a caseless script's "therefore", as `Therefore \\boxed{6}`
    mark = next((m for m in _BOX_LEAD_MARKS if text.endswith(m)), None)
    if mark in (":", "："):
        return box_label(text[: -len(mark)])
    if mark is not None:
        return not (mark == "=" and text[-2:-1] in ("<", ">", "!", "~"))  # `>=`, `!=` are no statement
    if text[-1] in ".,，" and (len(text) == 1 or text[-2].isalpha() or text[-1] == "." and gap) and (
            text[-1] != "." or period_ends(text + ("\n" if broke else " x"), len(text) - 1, whole)):
        return True  # a sentence or clause ended by a word (`Therefore, \\boxed{6}`); never a decimal point or a list,
        # nor an abbreviation's period (`approx. \\boxed{6}`, `period_ends`, read as before a lowercase word unless a
        # line break follows it: `... a finite number of turns.\n\n\\boxed{...}`, Omni-MATH's rows)
    words = _LEAD_TOKEN_RE.findall(text[-40:])
    last = words[-1] if words else ""
    if not last.isalpha():
        return False
    word = last.lower()
    if word == "of" and len(words) > 1 and words[-2].isalpha():
        return _has("noun", words[-2]) and not _has("count", words[-2])  # `a quotient of \\boxed{204_5}`; not `half of`,
        # nor a counted noun that is a function of the box (`The square root of \\boxed{36}`, `a multiple of`)
    if word in _AUXILIARIES:  # `will be`, `must be`, `has been`; not `could be`, `might be`, `may have been`
        chain = [w.lower() for w in words[-3:-1]]
        return bool(chain) and chain[-1] in _AUXILIARIES[word] and (
            chain[-1] != "have" or len(chain) > 1 and chain[0] in _BEFORE_HAVE_BEEN)
    if word in _LINK_ADVERBS and len(words) > 1 and words[-2].lower() in _BOX_COPULAS:
        return True  # `It is also \\boxed{6}`, `x is just \\boxed{6}`: an adverb that says nothing of the value
    if _STATING_END_RE.search(" ".join(words)):
        return True  # `This gives us \\boxed{6}`, `we see that \\boxed{6}`: a stating main clause (`STATING_CLAUSES`)
    return (_has("verb", word) or _has("lead", word) or word in _BOX_LEAD_WORDS
            or any(last.endswith(w) for w in _BY_ROLE["cjk_subject"]))


def _line_start_leads(text: str, end: int, box: str | None) -> bool:
    """Whether a box that starts a line after `text[:end]` (spacing and a display's opener after it) starts a statement:
    nothing stands before it, or a line break in the spacing ends a statement (`statement_lines`: the line above is math
    alone, closes a block, or ends words with a number or segment). Else the line above is read as on one line with the
    box (red team 17 class 1: `The sum is not\\n\\boxed{6}`, `The answer is not:\\n\\[\\boxed{6}\\]`)."""
    if not text[:end].strip():
        return True
    ends = set(statement_lines(text, 0, len(text)))
    if any(at + 1 in ends for at in range(end, len(text)) if text[at] == "\n") or _math_line(text, end, box) and (
            _math_line_opens(text, end, box)):
        return True
    return _line_label(text[:end])


def _math_line_opens(text: str, end: int, box: str | None) -> bool:
    """Whether the math whose last line ends at `end` (`_math_line`) opens a sentence, so that its break ends a statement
    before a box (red team 32 class 3: `Maybe:\nx = 6\n\\boxed{6}`, `单位：千\nx = 6\n\\boxed{6}` paid, the colon line
    unread): read up through a run of such math lines (at most `_MATH_RUN_LINES`), one of them opens a sentence as
    `line_opens` reads any line (the one reading: `statement_lines` reads math alone so, the caseless anchor's path the
    same lines), or the line above the run ends with a label's colon that would lead to a box (`_line_label`, its list
    mark and closing bold marks aside: `Answer:`, `We get:`, `**Final Solutions:**`, Omni-MATH's `The valid solutions
    found are:` above a list of `\\( ... \\)` lines). Else the line above is read with the math and the box (`Maybe:`,
    `Not:`, `Answer in thousands:` lead none)."""
    spans = _math_spans(text[:end], closed=True)
    for _ in range(_MATH_RUN_LINES):
        first = _math_first_line(text, text.rfind("\n", 0, end) + 1, end, spans)
        if line_opens(text, first):
            return True
        end = len(text[:first].rstrip())
        above = text.rfind("\n", 0, end) + 1
        if not _math_line(text, end, box) or above == first:
            label = _CLOSING_BOLD_RE.sub("", text[marks_end(text, above): end])
            return _line_label(label)
    return False


_MATH_RUN_LINES = 16
"""How many lines of math alone `_math_line_opens` reads up through: a display's rows and a short list of equations
(Omni-MATH's three `- \\( (p, q, r) = ... \\)` lines); above a longer run the box opens no statement (the safe reading)."""
_CLOSING_BOLD_RE = re.compile(r"(?:\*\*|__)$")


def _line_label(line: str) -> bool:
    """Whether `line`, the text up to a line's end, ends with a label's colon that leads to a box on a later line: read
    as on one line (`box_label`), or, as before fx29ag, a statement's finite link (`is:`, `are:`) whose clause opens as
    a box's clause does (`_link_colon`)."""
    return line.endswith((":", "：")) and (box_label(line[:-1]) or _link_colon(line[:-1]))


def _link_colon(label: str) -> bool:
    """Whether the clause that ends `label` (after its last comma or semicolon outside math, back to its sentence's
    start; a joining `and` passed over) ends with a finite link (`is`, `are`, `was`, `were`, `equals`) and opens as a
    box's clause does (`box_clause`: `I doubt the answer is:`, `Maybe it is:` state none), and the clauses before it
    lead to it as they must before a box on the colon's own line (`box_lead_clauses`: one reading of the colon line
    whatever stands between it and the box; fx29c, red team 33 class 5: `Maybe, the answer is:`, `The answer, I guess,
    is:`, `In thousands, the answer is:` above a display and a box paid, where the same line before the box alone was
    refused). Its subject is not read: Omni-MATH's outputs state their answer on a display's line after a long subject
    (`... the minimum number of mouse clicks needed for a \\(98 \\times 98\\) chessboard is:\\n\\n\\[\\boxed{98}\\]`)
    that the subject reader (`_noun_phrase`) refuses, also on one line. Left open (a strict xfail in
    tests/test_math_redteam_17.py): a scale in that subject (`The answer in thousands is:\\n\\[\\boxed{6}\\]`), as
    before."""
    sentence = label[last_break(_LABEL_START_RE, label, 0, len(label)):]
    aligned = _INLINE_MATH_RE.sub(lambda m: "§" * len(m.group()), sentence)
    cut = 0
    for brk in _CLAUSE_SPLIT_RE.finditer(aligned):
        cut = brk.end()
    clause = re.sub(r"^\s*(?i:and)\s+", "", sentence[cut:])
    words = _LINK_WORD_RE.findall(_INLINE_MATH_RE.sub(" ", clause))
    return (bool(words) and words[-1].lower() in _FINITE_LINKS and _link_chain(words, clause) and box_clause(clause)
            and box_lead_clauses(label, len(label)))


def _link_chain(words: list[str], clause: str) -> bool:
    """Whether a colon line's last words are a link of the link's own shape: a finite link (`is:`, `are:`), or `be` and
    `been` only in a verb group of `_LINK_GROUP_RE`'s allowlist (`will be:`, `has been:`, `must have been:`, `turns out
    to be:`) whose subject reads as the same clause's with `is` (`_copula_subject`: `The answer never will be:` is `The
    answer never is`, refused as on the box's own line). A modal, a negation or a hedge before the group (`would be:`,
    `could have been:`, `never turns out to be:`, `can't be:`) states no answer (red team 34 class 6, red team 35
    class 6: the last words alone let a modal perfect pay)."""
    if words[-1].lower() not in ("be", "been"):
        # `is:`, `are:`: a subject that names the answer read as the box's own line reads it (red team 36 class 5, in
        # part: `The wrong answer is:`, `The answer I doubt is:`); any other left unread, since `_copula_subject`
        # refuses Omni-MATH's long subjects (`the total number of colorings is:`, 10 of its paid rows)
        return not any(w.lower() in ("answer", "answers") for w in words[:-1]) or _copula_subject(clause)
    group = _LINK_GROUP_RE.search(clause)
    return group is not None and _copula_subject(clause[:group.start()] + " is ")


_LINK_GROUP_ADVERB = r"(?:[ \t]+(?:then|therefore|thus|hence|also|clearly|indeed|simply|exactly|precisely|finally))?"
_LINK_GROUP_RE = re.compile(
    rf"(?<![A-Za-z'’])(?:(?:will|must|shall){_LINK_GROUP_ADVERB}[ \t]+be|(?:has|had){_LINK_GROUP_ADVERB}[ \t]+been"
    r"|(?:(?<=we[ \t])|(?<=they[ \t])|(?<=you[ \t]))have[ \t]+been"
    r"|(?:must|will)[ \t]+have[ \t]+been|(?:turn(?:s|ed)|c(?:omes|ame))[ \t]+out[ \t]+to[ \t]+be|(?:has|have|had)[ \t]+to[ \t]+be)"
    r"[\s*_]*$", re.IGNORECASE)
"""The verb groups a colon line's `be` or `been` may end (`_link_chain`), an allowlist of shapes: a future or a necessity
(`will be`, `must be`, `will then be`), a perfect (`has been`, `had been`, `we have been`: `_BEFORE_HAVE_BEEN`'s
reading), a necessity's perfect (`must have been`),
`turns out to be`, `comes out to be` (as the box's own line reads it: red team 36 cost f) and `has to be`. No modal
of a counterfactual or a possibility (`would`, `could`, `should`, `might`, `may`, `can`) and no negation (`won't`,
`never`, `not`) is one."""


_DISPLAY_RELATION_RE = re.compile(r"(?<![<>!:\\])=|\\(?:approx|equiv|le|leq|ge|geq|ne|neq|lt|gt|Rightarrow|implies|iff)(?![A-Za-z])"
                                  r"|(?<!\\)[<>]")
_DISPLAY_TERM_EDGE_RE = re.compile(r"^(?:[+*/,;:=<>^_&]|\\(?:times|cdot|div|pm|mp|approx|sim|to)(?![A-Za-z]))"
                                   r"|(?:[-+*/,;:=<>^_&]|\\(?:times|cdot|div|pm|mp|approx|sim|to|neg|not|left|right))$")


def _math_line(text: str, end: int, box: str | None) -> bool:
    """Whether the line that ends at `end` closes math that opens its line (after its marks: `- \\(...\\)`) and states
    something, so a box on the next line starts a statement, as after a sentence's end (fx29ag, Omni-MATH's outputs):
    its last row's last side is a term (`_display_term`), and it is an equation (`=`, `\\equiv`: `\\[P = 48 + 12\\sqrt{14}
    \\]`, a list's `- \\((p, q, r) = (7, 3, 2)\\)`), or a bare term that a label states (`_plain_term`: `... is:\\n\\[\\n6
    \\times 3^{2007}\\n\\]\\n\\n\\(\\boxed{...}\\)`, `_line_label`), or a name's `\\approx` of the box's value under the answer's
    own label alone (`_answer_label`: `Answer:\\n\\[k \\approx 6\\]`; red team 36 class 4: `Therefore:`, `Step
    1:`, a condition's colon, `... for any convex quadrilateral \\(P\\):\\n\\[1 < x < 2\\]`, open none). A fragment (`\\[\\times 1000\\]`, `\\[\\approx\\]`,
    `\\[\\text{in thousands}\\]`) or a bare term after words (`In units of\\n\\[1000\\]`) leads into the box's line, read
    as on one line. A line of math alone with no delimiters states as an equation does (`x = 2 + 4`). A bare term or
    another relation opens the box only where it states the box's value (`_states_box`; rt37 class 6: `Answer:\\n\\[k
    > 6\\]\\n\\boxed{6}`, `We add them:\\n\\[6 \\times 1000\\]\\n\\boxed{6}` state two answers)."""
    spans = _math_spans(text[:end], closed=True)
    span = next(((a, b) for a, b in spans if b == end), None)
    if span is None:
        line_start = text.rfind("\n", 0, end) + 1
        line = text[marks_end(text, line_start): end]
        return not _prose_line(text, line_start, end, spans) and not any(a < end and b > line_start for a, b in spans) and (
            any(r in ("=", "\\equiv") for r in _DISPLAY_RELATION_RE.findall(line)) and _display_term(line))  # `x = 2 + 4`
    line_start = text.rfind("\n", 0, span[0]) + 1
    if span[0] != marks_end(text, line_start) and text[line_start: span[0]].strip(" \t"):
        return False  # words before the math on its line: `statement_lines`' reading
    inner = _MATH_DELIMITER_RE.sub(" ", text[span[0]: span[1]])
    row = re.split(r"\\\\", inner.strip().rstrip(".,; ").strip())[-1]
    if not _display_term(row):
        return False
    relations = _DISPLAY_RELATION_RE.findall(row)
    if any(r in ("=", "\\equiv") for r in relations):
        return True  # `\\[P = 48 + 12\\sqrt{14}\\]`, `- \\((p, q) = (7, 3)\\)`: an equation stated, as `_math_alone`'s
    above = text[: line_start].rstrip(" \t\r\n")
    if not _is_display(text, span[0]):
        return False
    if _plain_term(row):
        return _states_box(row, box) and _line_label(above)  # a bare term of the box's value after a label that states
        # it (`The total is:\\n\\[2 + 4\\]\\n\\boxed{6}`; not `\\[6 \\times 1000\\]`, rt37 class 6b)
    return _approximates_box(row, box) and _answer_label(above)  # `k \\approx 6` above `\\boxed{6}`: only under the answer's
    # own label (red team 36 class 4: `Therefore:`, `Step 1:` opened any relation), never `\\ge`, `\\in`, `\\ne`, `6?` or a
    # scaled name (rt37 class 6a: `\\frac{k}{1000} \\approx 6`, `k \\approx 6 \\times 10^{3}`)


_TERM_SPACING_RE = re.compile(r"\\(?:q?quad|[,;:! ]|left|right|displaystyle)(?![A-Za-z])|\s")


def _same_term(term: str) -> str:
    """`term` as `_states_box` compares it: spacing, `\\left`/`\\right` and a whole box around it dropped, `\\dfrac` and
    `\\tfrac` read as `\\frac` (Omni-MATH's `\\[\\boxed{2^{2019} - 1}\\]` above `\\(\\boxed{2^{2019}-1}\\)`)."""
    text = _TERM_SPACING_RE.sub("", term).rstrip(".,;")
    boxed = re.fullmatch(r"\\boxed\{(.*)\}", text)
    text = boxed.group(1) if boxed else text
    return re.sub(r"\\[dt]frac(?![A-Za-z])", r"\\frac", text)


def _states_box(term: str, box: str | None) -> bool:
    """Whether a display's bare term states the value of the box below it: the same term (`_same_term`), or arithmetic
    in numbers alone of exactly the box's value (`_exact_arithmetic`: `2 + 4` above `6`, `2 \\times 3`; `5.9999999999`
    is no 6). An allowlist: any other term (`6 \\times 1000`, `\\frac{6}{1000}`, `6\\%`, `6 \\text{ or } 7`) states another
    answer than the box (rt37 class 6b), and with no box known (None) none is stated."""
    if box is None:
        return False
    if _same_term(term) == _same_term(box):
        return True
    got = _exact_arithmetic(term)
    return got is not None and got == _exact_arithmetic(box)


_APPROXIMATED_NAME_RE = re.compile(r"(?:[A-Za-z]|\\[A-Za-z]+)(?:_\{?[A-Za-z0-9]{1,3}\}?)?'*")


def _approximates_box(row: str, box: str | None) -> bool:
    """Whether a display's row is a name approximately equal to the box's value: two sides, a lone name (a letter or a
    Greek letter's command, a subscript: `k`, `x_1`, `\\theta`) and a term that states the box (`_states_box`), with
    `\\approx` between. An allowlist of one relation and one shape of side: an order, a membership, a negation, a
    question or a scaled name says another answer than the box (rt37 class 6a: `k > 6`, `k \\in (5, 7)`, `k \\ne 6`,
    `\\frac{k}{1000} \\approx 6`)."""
    sides = re.split(r"\\approx(?![A-Za-z])", row)
    if len(sides) != 2 or _DISPLAY_RELATION_RE.search(sides[0]) or _DISPLAY_RELATION_RE.search(sides[1]):
        return False
    name = _TERM_SPACING_RE.sub("", sides[0])
    if not _APPROXIMATED_NAME_RE.fullmatch(name) or name.startswith("\\") and name[1:].split("_")[0] not in _GREEK:
        return False
    return _states_box(sides[1], box)


def _plain_term(row: str) -> bool:
    """Whether a display's row is a term alone (`_TERM_COMMANDS`, `_TERM_CHARS`; words only in a font group, which
    `_display_term` reads): a value or a computation that states nothing but itself, so a label that states it opens it
    (`_line_label`). An allowlist: `k \\approx 6`, `k \\in \\{6, 7\\}`, `k \\to 6`, `6?` are none."""
    return _chain_tokens(_SIDE_TOKEN_RE.findall(row), _TERM_COMMANDS, _TERM_CHARS)


_ANSWER_HEADS = frozenset("answer answers antwort réponse respuesta jibu ответ 答案 最终答案 最后答案 答え".split())
"""The words that name the answer in a label (`_LABEL_WORDS`' answer words, `_CJK_LABELS`' answer labels)."""


def _answer_label(above: str) -> bool:
    """Whether the colon line `above` (the text up to a display's line) is the answer's own label (`Answer:`, `**Final
    answer:**`, `The answer is:`, `答案：`): its last words, markup dropped, are an answer word (`_ANSWER_HEADS`) with
    only an answer anchor's leads before it (`_answer_led`: `The final answer`) and at most a link after it (`is`),
    read as a label before a box is (`_line_label`). Only such a label opens a display of a relation other than `=`
    (red team 36 class 4), and only a name's `\\approx` of the box's value (`_approximates_box`, rt37 class 6a)."""
    line = above[above.rfind("\n") + 1:]
    line = _CLOSING_BOLD_RE.sub("", line[marks_end(line, 0):])
    if not line.endswith((":", "：")) or not _line_label(line):
        return False
    words = [w for w in _LEAD_TOKEN_RE.findall(_unmarked_label(line[:-1])) if w.isalpha()]
    if len(words) > 1 and words[-1].lower() in ("is", "are"):
        words = words[:-1]
    return bool(words) and words[-1].lower() in _ANSWER_HEADS and _answer_led(words)


_LABEL_MARKUP_RE = re.compile(r"\\(?:text(?:bf|it)?|emph|textsc|underline|mathbf)\s*\{|[*_{}()#]")
"""The markup a colon line's label may wrap its words in (`**...**`, `*...*`, `\\textbf{...}`, `(...)`): dropped before its
words are read (red team 36 class 3b: `The answer can be**:**`, `The answer (can be):` hid `be` from the check)."""


def _unmarked_label(label: str) -> str:
    """`label` with its markup dropped (`_LABEL_MARKUP_RE`), its words kept in place."""
    return _LABEL_MARKUP_RE.sub(" ", label)


def _display_term(row: str) -> bool:
    """A display row's last side after its last relation (`_DISPLAY_RELATION_RE`) is a term: math that opens and ends
    with no operator, relation or comma, with no words but `and`/`or` between parts (`6 \\times 3^{2007}`, `(11, 7)
    \\quad \\text{and} \\quad (7, 11)`), holding a digit or a letter outside text groups."""
    row = re.sub(r"\\(?:q?quad|[,;:! ])|\\(?:left|right)(?![A-Za-z])|\\displaystyle", " ", row).strip().rstrip(".,; ").strip()
    sides = _DISPLAY_RELATION_RE.split(row)
    side = sides[-1].strip()
    if not side or _DISPLAY_TERM_EDGE_RE.search(side):
        return False
    words = [w for group in _SIDE_TEXT_RE.findall(side) for w in group.split()]
    if any(w.lower() not in _JOINERS for w in words):
        return False
    bare = _SIDE_TEXT_RE.sub(" ", side)
    return bool(re.search(r"[0-9A-Za-z]", re.sub(r"\\[A-Za-z]+", " ", bare)) or re.search(r"\\(?:pi|infty|sqrt|frac|dfrac)", bare))


_AUXILIARIES = {"be": frozenset({"will", "to", "must", "shall"}), "been": frozenset({"has", "have", "had"})}
_BEFORE_HAVE_BEEN = frozenset({"we", "they", "you", "will", "must"})
"""What may stand before a bare `be` or `been` that leads to a box (`x will be \\boxed{6}`, `must be`, `turns
out to be`, `has been`): auxiliaries that state; a modal that hedges (`could`, `might`, `may`, `would`,
`should`) is none of them, so `the value could be \\boxed{6}` states no answer; a `have` before `been`
follows a subject or a stating auxiliary (`we have been`, `will have been`), never a modal (`may have been`)."""


# Class "a label before a colon" (red team 3, class 5): kept apart from `box_lead`'s other marks on purpose.
_LABEL_WORDS = frozenset("answer answers final correct exact required result results solution solutions step case "
                         "part question problem antwort réponse respuesta jibu ответ lösung solución".split())
_CJK_LABELS = frozenset({"答案", "最终答案", "最后答案", "答え", "结果", "解", "解答", "答"})
"""Chinese and Japanese labels of an answer or solution (`答案：`, `解：`, `答：`, a worked solution's answer line): whole words,
listed, since a one-character word of these scripts is no math name (`math_letter`: `约：` "about" is none)."""
_LABEL_START_RE = re.compile(r"\n|(?<!\.\.)[.!?](?=\s)|[。！？]|\\[\[\]]|(?<!\\)\$\$")  # its clauses before a comma lead (`_lead_clause`)


def box_label(text: str) -> bool:
    """Whether `text`, what stands before a colon that leads to a box back to its line or sentence start,
    is a label that says the box is the answer (docs/math.md "Answer grammar", "Before a box"): answer
    words (`Answer`, `Final Answer`, `答案`, `Antwort`), a quantity noun or counted noun of the
    lexicon (`Total cost`, `Area`, `Apples`), concluding words (`Therefore`), a part's or step's label
    (`(a)`, `Step 3`), a math name (`x`), pronouns and verbs (`I made an error:`), and bold or heading
    marks; or a statement ending with its link
    verb (`the integers n such that f(n) = n are:`), read as a box after that verb is. An allowlist: `Wrong answer:`,
    `Guess:`, `In thousands:`, `Reciprocal:`, `Lower bound:`, `错误答案：` are no answer label."""
    sentence = text[last_break(_LABEL_START_RE, text, 0, len(text)):]  # a break only after a statement (fx29af)
    if len(_UNESCAPED_DOLLAR_RE.findall(sentence)) % 2:
        return False  # the colon inside math (`$x \\neq$` cut open, `$a:b$`): no label
    segments: list[str] = []

    def keep(m: re.Match[str]) -> str:
        segments.append(m.group(1) if m.group(1) is not None else m.group(2))
        return f" §{len(segments) - 1} "

    clauses = _CLAUSE_SPLIT_RE.split(_LABEL_MATH_RE.sub(keep, sentence))
    if not all(_lead_clause(re.sub(r"§\d+", "§", clause)) for clause in clauses[:-1]):
        return False  # `In thousands, $x$:`, `Maybe, answer:`: the clauses before it must lead (`lead_clauses`)
    label = clauses[-1]
    named = re.sub(r"§(\d+)", lambda m: "x" if _label_name(segments[int(m.group(1))]) else "§", label)
    words = _LEAD_TOKEN_RE.findall(named)
    if any(w in _OPERATOR_MARKS for w in words):
        return False  # `Answer (-):`, `Answer >:`, `Attempt 1 -:`: past its line's marks a sign or a bound (fx29ah)
    unmarked = _unmarked_label(label)  # `The answer can be**`, `The answer (can be)`: the group with markup dropped
    bare = [w for w in _LEAD_TOKEN_RE.findall(unmarked) if w != "§"]
    if bare and bare[-1].lower() in ("be", "been") and not _link_chain(
            bare, re.sub(r"§(\d+)", lambda m: "$" + segments[int(m.group(1))] + "$", unmarked)):
        return False  # one reading of a `be`/`been` group for both colon readers (red team 35 class 6: `The answer can
        # have been:`, all label words, paid as a label)
    if _step_lead(words):
        return True  # `Finally, calculate $k$:`, `We add them:`, `Simplifying the fraction:` (fx29bf's cost rows)
    if all(_label_word(w) for w in words) and _label_phrase(words) and _answer_subject(
            _LEAD_TOKEN_RE.findall(_unmarked_label(named)), _LABEL_HEADS):
        return True  # `Answer:`, `Total cost:`, `Step 3:`, `$x$:`; not `$x \\neq$:`, `$x > $:` (a relation), nor `Her answer
        # is:`, `The answer for each child is:` (rt37 class 7)
    if len(words) == 1 and _led_script_label(words[0]):
        return True  # `所以答案为：`, `因此答案是：`: a caseless run of leads before a label, as `因此，答案为：` (red team 19)
    if words and words[-1].isalpha() and (_has("verb", words[-1]) or words[-1].lower() in _BY_ROLE["cjk_subject"]):
        # `the values of k for which ... are:`: a statement's link before its colon, read as without one (`box_clause`,
        # `box_subject`): `I doubt the answer is:`, `Maybe it is:`, `Not equal:` state none (red team 4 class 2)
        stated = re.sub(r"§(\d+)", lambda m: "$" + segments[int(m.group(1))] + "$", label)
        if words[-1].lower() in _BY_ROLE["cjk_subject"]:
            return anchor_lead(named[: named.rfind(words[-1])])  # `So 答案：`, `所以 答案：`; `Maybe 答案：`, `I doubt
            # that 答案：`, `可能 答案：`, `负\n答案：` lead with no lead's words (fx29al, red team 19 classes 3 and 4)
        return box_clause(stated) and box_subject(stated, stated)
    phrase = " ".join(words)
    return bool(_CORRECTION_LABEL_RE.match(phrase) or _PROVEN_LABEL_RE.match(phrase))  # `Wait, I made an error:`


def _led_script_label(run: str) -> bool:
    """Whether `run`, one run of a script written without spaces, is `SCRIPT_LEADS` words end to end and then an answer
    label (`_CJK_LABELS`) or a Chinese subject (LEXICON's `cjk_subject`): `所以答案为`, `因此答案是`, `故答案`;
    `可能答案为`, `错误答案为` hold a word that is no lead."""
    return any(_script_leads(run[:k]) and (run[k:] in _CJK_LABELS or run[k:] in _BY_ROLE["cjk_subject"])
               for k in range(1, len(run)))


_OPERATOR_MARKS = frozenset("->|")
"""The `_LEAD_MARKS` that are also a sign or a relation (a minus, a bound, a divisor or an absolute value's bar): a label
holds them only among the marks its line opens with (`- Answer:`, `> Answer:`, `marks_end`, which `last_break` reads
off before `box_label`), never after a word (fx29ah, red team 18 class 6: `Answer (-): \\boxed{6}`, `Answer >:`,
`Attempt 1 -:` paid 6); the emphasis and heading marks (`**Answer**:`, `__Answer__:`) stay label marks anywhere."""
_LABEL_MATH_RE = re.compile(r"(?<!\\)\$((?:[^$\\]|\\.){0,200})\$|\\\((.{0,200}?)\\\)")
"""A math segment in a label (`$x$:`, `The values of $k$ are:`): one math name when its content names a quantity
(`_side_states`), else no label."""


_PROVEN_LABEL_RE = re.compile(
    r"(?i:we|i) (?i:have )?(?i:proven|proved|shown|established|verified) (?i:the|this) (?i:"
    r"identity|inequality|equation|claim|statement|equality|formula)$")
"""A speaker's settled premise before a colon (`Thus, we have proven the identity:\\n\\n\\[\\boxed{...}\\]`, Omni-MATH's
outputs, fx29ag): the nouns and participles of `_SETTLED_CLAUSE_RE` said by a speaker, each from a closed list; the box
restates what was proven. No value, hedge or negation fits (`we have not proven the identity:` is none)."""
_CORRECTION_LABEL_RE = re.compile(r"(?i:i|we) (?i:made|make|have made) (?i:an error|a mistake)$")
"""A speaker's correction before a colon (`I made an error: \\boxed{5}`): the one place `error` and `mistake`
stand before an answer; alone (`Error:`, `Measurement error:`) they name how far a value is off, never the answer."""


_NUMBERED_LABELS = frozenset("step part question problem case exercise q no attempt sample example trial round try "
                              "response output".split())
"""Words a number labels (`Step 3`, `Attempt 1`, `Sample 2`); those not also `_LABEL_WORDS` are a label only with their
number (`_label_phrase`): `Attempt:` alone is a guess's label, `Attempt 1:` one of a transcript's answers."""


def _label_name(segment: str) -> bool:
    """A label's math segment is a name only in a name's shape (`$x$`, `$f(3)$`, `$(q, r)$`, `$\\angle ABC$`): a
    computation (`$10^3$`, `$\\times 1000$`, `$/1000$`, `$\\pm 1$`) or a relation (`$\\approx$`) says how the value is
    scaled or bounded (red team 6 class 4: any segment `_side_states` admitted was the name `x`)."""
    compact = re.sub(r"\\(?:left|right)(?![A-Za-z])|\s", "", segment)
    return bool(_MATH_NAME_RE.match(compact) or _SIDE_NAME_RE.match(compact) or _names_tuple(compact))


_LETTER_AFTER = frozenset({"of", "for"})
"""What a single letter may follow in a label besides `_NUMBERED_LABELS` (`Value of x:`, `Answer for n:`); after `in`
(`Answer (in k):`, `in B`, `in $k$`) a letter names a scale (thousand, million, billion), and alone among other words
it is no label word (red team 6 class 4)."""


def _label_phrase(words: list[str]) -> bool:
    """A label's words as a phrase, not a bag (red team 5 class 4: `Answer (in 1000s):`, `Answer times 1000:` were
    labels): a number only numbers a step or part (`Step 3`, `Part (2)`), and no word operates on or scales the value
    (`_not_object`: `times`, `thousands`, `rounded`)."""
    for k, w in enumerate(words):
        low = w.lower()
        if low in _NUMBERED_LABELS and low not in _LABEL_WORDS:
            after = [x for x in words[k + 1:] if x not in "()[]{}.#"]
            if not after or not (after[0].isdigit() or math_letter(after[0])):
                return False  # `Attempt:`, `Sample answer:`: only a number makes it a label
            continue  # `Attempt 1`: a transcript's section, though `attempt` alone hedges (`_NOT_OBJECTS`)
        if w.isdigit():
            before = [x.lower() for x in words[:k] if x not in "()[]{}"]
            if not before or before[-1] not in _NUMBERED_LABELS:
                return False
        elif w.isalpha() and _not_object(low) and low not in ANCHOR_LEADS:
            return False
        elif math_letter(w) and w not in ("A", "I", "a"):
            before = [x.lower() for x in words[:k] if x not in "()[]{}"]
            named = [x for x in words if x.isalnum()]
            if not (len(named) == 1 or before and (before[-1] in _NUMBERED_LABELS or before[-1] in _LETTER_AFTER)):
                return False
    return True


def _label_word(w: str) -> bool:
    """Whether `w` may stand in a label before its colon: a mark, a number, a math letter (`math_letter`: `x:`, `α:`;
    never `约：`, "about"), a lead, a label's or a stating word, or a noun phrase's word of LEXICON."""
    low = w.lower()
    return (w in _LEAD_MARKS or w in "()[]{}\\" or w.isdigit() or math_letter(w) or low in ANCHOR_LEADS
            or low in _LABEL_WORDS or low in _NUMBERED_LABELS or w in _CJK_LABELS or low in ("textbf", "text", "mathbf", "textit", "of", "in", "for")
            or low in _STATING_VERBS  # `We compute:`
            or low in _LABEL_DETERMINERS
            or any(_has(role, w) for role in ("noun", "count", "pronoun", "verb")))  # `I made an error:`


_LABEL_DETERMINERS = frozenset("a an the this these that those its my our her his their your".split())
"""The determiners a label's words may hold (`_label_word`): an article, a demonstrative or an owner's, which name the
whole quantity (`The total:`, `Our result:`). Not LEXICON's distributive `each`, `every`: a label with one names a
part's quantity (rt37 class 9: `Each box:\\n\\boxed{6}`, `Every box:`, `Each person gets:` paid the part's value as
the answer)."""


_BOX_LEAD_WORDS = frozenset("accordingly conclusion summary short yields yielded yielding giving getting obtaining "
                            "worth".split())
_PART_LABEL_RE = re.compile(r"\(?[a-z]{1,4}\)$")


def _part_label(text: str) -> bool:
    """Whether `text` ends with a part's label that opens its line (`(b) \\boxed{\\text{Yes}}`)."""
    label = _PART_LABEL_RE.search(text[-8:])
    if label is None:
        return False
    line = text[: len(text) - 8 + label.start()] if len(text) > 8 else text[: label.start()]
    return not line.strip(" \t*") or line.rstrip(" \t*").endswith("\n")
"""Concluding words of `ANCHOR_LEADS` and stating participles (`giving \\boxed{6}`) that may stand right before a box; the
other languages' anchors are matched whole (extract.ANCHORS), never their determiners (`por`: times)."""


_LEAD_CHARS_BOX = 200


NEVER_NAMES = frozenset(
    "possibly about approximately roughly nearly almost maybe perhaps probably likely doubt guess think believe "
    "not no never none negative minus plus thousand thousands million millions billion billions trillion hundred "
    "hundreds dozen dozens score gross lakh lac crore thou bn mn half twice double triple quarter tenths ish squared "
    "cubed or "
    "and between least most over under above below exceed exceeds unless except but wrong incorrect false estimate "
    "around circa so could might would should may if when while until whether etwa ungefähr nicht tausend "
    "millionen milliarden mille cent cents environ pas cerca mil millones approx approximate approximately est estimated "
    "presumably unlikely supposedly apparently seemingly arguably allegedly ca".split()
)
"""Words the grammar never admits (hedges, scales, negations, inequalities, in several languages). Not
what refuses them (the allowlist does: an unknown word has no place), only what keeps a capitalised
one (`Possibly it is 6`) from passing for a name in the one open slot, the subject's name."""

_SENTENCE_ONLY = frozenset({"lead", "afterword"})
"""Roles whose words have a place only at the start of a sentence read without an anchor
(`read_sentence`) or after the answer's sentence (`closes`), never around a value: `admitted`
leaves them out (`6 or so` is no answer)."""
_BY_ROLE: dict[str, frozenset[str]] = {}
for _e in LEXICON:
    _BY_ROLE[_e.role] = _BY_ROLE.get(_e.role, frozenset()) | _e.words
_ALL_WORDS = frozenset().union(*(words for role, words in _BY_ROLE.items() if role not in _SENTENCE_ONLY))
_LOWER_ROLES = {role: frozenset(w.lower() for w in words) for role, words in _BY_ROLE.items()}
_CASE_SENSITIVE = frozenset({"unit", "currency"})  # `mm` and `Mm`, `ms` and `Ms` differ


def admitted(word: str) -> bool:
    """Whether `word` has any place in the grammar (the fuzz test's oracle; names aside)."""
    return word in _ALL_WORDS or any(_has(role, word) for role in _BY_ROLE if role not in _SENTENCE_ONLY)



def _has(role: str, word: str) -> bool:
    if role in _CASE_SENSITIVE:
        words = _BY_ROLE.get(role, frozenset())
        # a named unit at the start of a title or sentence (`9th Day`, `Meters`): case matters only for symbols
        return word in words or len(word) >= 3 and word.istitle() and word.lower() in words
    return word.lower() in _LOWER_ROLES.get(role, frozenset())


def _is_unit(word: str) -> bool:
    return _has("unit", word) or _has("count", word)


_ANSWER_WORDS = frozenset(w for w in _LABEL_WORDS - _NUMBERED_LABELS if not _has("adj", w))
"""The answer label words (`_LABEL_WORDS`) that name the answer itself: no numbered section's (`Step`, `Part`) and no
adjective (`final`, `correct`): `answer`, `result`, `solution`, `Antwort`, `réponse`, `respuesta`, `ответ`, `Lösung`."""
_CJK_ANSWER_LABELS = tuple(w for w in _CJK_LABELS if len(w) > 1)
"""`_CJK_LABELS` of two characters or more (`答案`, `结果`, `答え`): a one-character `解` or `答` is also a word's part
(`解得`, "solving gives"), read as a label only before its colon (`box_label`)."""
_ANSWER_TOKEN_RE = re.compile(r"[^\W\d_]+")


def answer_phrase(sentence: str) -> bool:
    """Whether `sentence` names the answer in the grammar's own answer words (`_ANSWER_WORDS`, `_CJK_ANSWER_LABELS`;
    the anchors themselves are `extract.ANCHORS`): a sentence before the answer's that does is a statement of an answer
    whatever its length or shape (fx29c, red team 32 class 1: `The answer would be 7 or 8.`, `Die Lösung ist x = 7.`,
    `> 7 is the answer.`, `结果是七.`), read by `extract._unread_statement_before`."""
    return any(w.lower() in _ANSWER_WORDS for w in _ANSWER_TOKEN_RE.findall(sentence)) or any(
        label in sentence for label in _CJK_ANSWER_LABELS)


_OPERATIONS = frozenset("add subtract multiply divide".split())
"""The four operations as a step's imperative (`Add 4.`, `Divide by 2.`: `step_sentence`); an allowlist, so `Round to
7.` or `Guess 7.` is none."""


def has_verb(sentence: str) -> bool:
    """Whether `sentence` holds a verb of the lexicon (`extract._unread_statement_before`: values listed with none,
    `Perhaps 7 or 8`, state them)."""
    return any(_has("verb", w) for w in _ANSWER_TOKEN_RE.findall(sentence))


def step_sentence(before: str, after: str) -> bool:
    """Whether a sentence before the answer's that holds one value, with `before` and `after` the words around it, is a
    step of the work, never a statement of an answer (`extract._unread_statement_before`, at any length; fx29c, red team
    32 class 1 and its costs). An allowlist of a step's shapes: an operation's imperative on the value (`Add 4.`, `Then
    divide by 2.`: `_OPERATIONS` and prepositions); a value the grammar reads with the words after it (a unit or a
    counted noun, or a factor before a bracket) in a clause with a verb of action (`A week has 7 days`, `Five pies were
    baked, cut into 8 pieces`), a link whose clause opens as a statement does (`box_clause`: `There are 12 inches`, `Ann
    is 10 years old`, `The perimeter is 2(l + w)`), or after a preposition (`for a distance of 400 feet`); unread words
    after it (a scale: `Sam has 7 thousand`) only with a verb of action; a last value only after a verb of action whose
    clause opens as a statement does (`Sam buys 3`) or in a relative clause (`..., which is 3`). So a hedge (`Perhaps 7`,
    `Perhaps 7 apples`), a modal (`It would be 7`), a scale after a link (`It is 7 thousand`) or words the grammar does
    not read after one (`There are 4 quarters`: a quarter may be a fourth, the safe reading) are none."""
    clause = _CLAUSE_SPLIT_RE.split(before)[-1]
    words = _ANSWER_TOKEN_RE.findall(before)
    while words and _has("lead", words[0]):
        words = words[1:]
    rest = after.strip(" \t*_$.!。")
    if words and words[0].lower() in _OPERATIONS and all(_has("prep", w) for w in words[1:]):
        return not rest  # `Add 4.`, `Divide by 2.`
    acts = any(_has("verb", w) and w.lower() not in _BOX_COPULAS for w in words)
    stated = box_clause(clause) and any(_has("verb", w) for w in _ANSWER_TOKEN_RE.findall(clause))
    if not rest:
        return acts and stated or bool(_RELATIVE_LINK_RE.fullmatch(clause))
    if rest.startswith("(") or read(f"0 {rest}", prose=True) == Reading("number", "0"):
        return acts or stated or bool(words) and _has("prep", words[-1])
    return acts


_RELATIVE_LINK_RE = re.compile(r"\s*(?i:which)\s+(?i:is|are|was|were)\s*")
"""A relative clause that links a value to the noun before its comma (`The width is the side of the square, which is
3`): a step that gives a named quantity's value (`step_sentence`)."""


def is_name(word: str) -> bool:
    """The grammar's one open slot: a capitalised word it does not know (`Sam`, `Maria's`),
    admitted only as the subject before a verb or as the object after `than`."""
    return _is_name(word)


class Reading(NamedTuple):
    """What `read` found: kind "math" (no words: read as written), "words" (a word answer: words and their
    punctuation only, no math), "number" (admitted: `text` is the value), or "refused" (`text` says why). Total:
    nothing the grammar did not read is anything but "refused" (red team 8, docs/math.md "Answer grammar")."""

    kind: str
    text: str


# Tokens. Order matters: a text command's words, a math segment, a number, a name, words, marks.
_TOKEN_RE = re.compile(
    r"(?P<text>\\(?:text|textrm|textbf|textit|textnormal|textsf|mathrm|mathbf|mathit|mbox|operatorname)\s*\{(?P<inner>[^{}]*)\})"
    r"|(?P<deg>\^\s*(?:\{\s*)?\\circ\s*\}?|\\text(?:circ|degree)\b|°)"
    r"|(?P<pow>\^\s*\{\s*[23]\s*\}|\^\s*[23](?!\d))"
    r"|(?P<seg>\$[^$]{1,80}\$)"
    r"|(?P<cur>\\\$|[$€£¥₹₩₽₺₦₱฿₫₪₴¤])"
    r"|(?P<num>[-+]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?|\.\d+)(?:st|nd|rd|th)?(?![\d]))"
    r"|(?P<angle>(?:m\s*)?(?:∠|\\angle|\\measuredangle)\s*(?:[A-Z]{1,3}|\d{1,2})(?![A-Za-z]))"
    r"|(?P<cmd>\\(?:begin|end)\s*\{[A-Za-z*]+\}|\\[A-Za-z]+|\\[,;:! ]|\\%)"
    r"|(?P<word>[^\W\d_]+(?:'s|’s|\.(?=[a-z]\.))?(?:[a-z]\.)?)"
    r"|(?P<space>\s+)"
    r"|(?P<mark>.)",
    re.DOTALL,
)
_FUNCTION_WORDS = frozenset(
    {"sqrt", "sin", "cos", "tan", "cot", "sec", "csc", "log", "ln", "exp", "pi", "infty", "inf", "oo", "arcsin",
     "arccos", "arctan", "mod", "gcd", "lcm", "det", "max", "min", "lim"}
)
_FONT_CMD = r"(?:text(?:rm|bf|it|sf|tt|sc|up|md|sl|normal)?|math(?:rm|bf|it|sf|tt|normal)|mbox|operatorname|boldsymbol|bm|emph)"
"""Every command that sets its group in a font (text or math mode): one rule for all of them (docs/math.md
"Answer grammar", "Text holds words"): beside a value the group holds letters and word marks only."""
_TEXT_DIGIT_RE = re.compile(r"\\" + _FONT_CMD + r"\s*\{[^{}]*\d")
"""A font group holding a digit, in an answer that is more than that group: the parser drops such a group
as a unit (`12\\text{000}`, `6\\mathrm{000}`, `1\\mathbf{2}` read as 12, 6, 1), so only words may stand in it
(its words go through the grammar), whatever the command."""
_TEXT_OPEN_RE = re.compile(r"\\(?P<cmd>" + _FONT_CMD + r")\s*\{")
_TEXT_UNWRAP_RE = re.compile(r"\\" + _FONT_CMD + r"\s*\{([^{}]*)\}")
"""A font group with no group inside, for reading what it holds in place (`3.14\\text{...}` is `3.14 ...`)."""
_TEXT_MODE_MARKS = frozenset(" \t.'’,:;()%°$€£¥₹¢~")
"""The marks a text group may hold beside its letters (`\\text{ m/s}`, `\\text{p.m.}`, `\\text{ (cm)}`,
`\\text{°C}`, `\\text{ \\%}`): punctuation that is no number and no operator; `-` and `/` only between
letters (`cm-long`, `km/h`), never alone (`6\\text{−}`). Every other symbol is
refused, not dropped: the parser drops a text group as a unit, so `6\\text{½}` would read 6, not 6.5, and
`6\\text{!}`, `6\\text{⁻¹}`, `6\\,\\text{‰}` would read 6 (docs/math.md "Answer grammar", "Text holds words")."""
_TEXT_ESCAPES_RE = re.compile(r"(?<=[^\W\d_])[-/](?=[^\W\d_])|\\[%$,;: ]|\\text(?:degree|circ)(?![a-z])|\^\s*(?:\{\s*)?\\circ\s*\}?")  # `\\text{^{\\circ}C}`: `°C` as `to_ascii_math` writes it
_LETTER_MARKUP_RE = re.compile(
    r"\\(?:hat|widehat|vec|bar|overline|underline|tilde|widetilde|check|acute|grave|breve|dot|ddot|mathbf|mathrm|mathit|"
    r"boldsymbol|bm)(?![A-Za-z])\s*(?:\{\s*)?(?=[^\W\d_]\s*\}?)|(?<=[^\W\d_])\s*\}")
"""Math-mode markup on a letter inside a font group (`\\mathbf{\\hat{i}}`, `\\operatorname{proj}`): an accent or a
font around one letter leaves a letter; any other command (`\\times`, `\\pm`, `\\ldots`) stays and is refused."""
_TEXT_MACRO_RE = re.compile(r"\\text(?!(?:rm|bf|it|tt|sc|up|md|sl|normal|sf|style|circ|degree)?(?![a-z]))[a-z]+")
"""A text-mode symbol macro (`\\textperthousand`, `\\textonehalf`, `\\textsuperscript`): a symbol, never a word."""


_NUMBER_ELLIPSIS_RE = re.compile(
    r"(?<![\w.])[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:\s|\\[,;: !]|~)*(?:\\[lc]?dots[co]?(?![A-Za-z])|\.\.\.|…)"
    r"(?P<after>(?:\s|\\[,;: !]|~)*,?)"
)


def _goes_on(text: str) -> bool:
    """Whether a number is followed by an ellipsis outside a list (`3.14\\ldots`, `0.33\\ldots`, `6\\ldots`):
    a decimal that goes on is not its prefix. An ellipsis is admitted only as a list's item (`1, 2, 3,
    \\ldots`, `1, 2, \\ldots, n`, docs/math.md "Math grading rules"): a comma before the number or after
    the ellipsis."""
    text = _TEXT_UNWRAP_RE.sub(lambda g: " " + g.group(1) + " ", text)  # `3.14\\text{...}`: an ellipsis in a group is one
    for m in _NUMBER_ELLIPSIS_RE.finditer(text):
        listed = text[: m.start()].rstrip(" \t~").endswith(",") or m.group("after").endswith(",")
        if not listed:
            return True
    return False


def _text_symbol(text: str) -> str:
    """The first character inside a text group (`\\text{...}`, `\\mathrm{...}`) that is neither a
    letter nor one of `_TEXT_MODE_MARKS`, or a text-mode symbol macro anywhere; "" when none. An
    allowlist: a text group beside a value holds words and their punctuation only."""
    macro = _TEXT_MACRO_RE.search(text)
    if macro:
        return macro.group()
    for m in _TEXT_OPEN_RE.finditer(text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        inner = _TEXT_ESCAPES_RE.sub(" ", text[m.end(): i - 1])
        inner = _LETTER_MARKUP_RE.sub(" ", inner)  # `\\mathbf{\\hat{i}}`: an accent or font on a letter is a letter
        bad = next((c for c in inner if not c.isalpha() and c not in _TEXT_MODE_MARKS and not c.isdigit()), "")
        if bad:
            return bad
    return ""


_CJK_RE = re.compile(r"[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]")
_SPACES = frozenset({"\\,", "\\;", "\\:", "\\!", "\\ ", "\\quad", "\\qquad", "~"})
_JOINERS = frozenset({"or", "and"})
"""Words that join parts of one math answer (a union, a list): the parser reads them, as a set or
union, never as one of the parts."""
_END = frozenset({".", "!", "。", "！", "।"})  # `।`: the danda, a Bengali or Hindi full stop
_ARITHMETIC = frozenset("+-*/()[]{}.,^ ") | {"\\cdot", "\\times", "\\div", "\\frac", "\\dfrac", "\\tfrac", "\\left", "\\right"}
# A general solution's integer parameter, `\\text{ for integer } k`, or real constant, `\\text{ for some constant } c \\in
# \\mathbb{R}` (parsing reads it; docs/math.md "Math grading rules").
_DOMAIN_RE = re.compile(r"\\text\s*\{\s*(?:for|where)\s+(?:any\s+|all\s+|some\s+)?integers?\s*\}\s*[kmn]\s*$"
                        r"|\\text\s*\{\s*(?:for|where)\s+(?:any\s+|all\s+|some\s+)?(?:real\s+)?constants?\s*\}(?:\s|\\[,;: ])*[a-zA-Z]"
                        r"(?:(?:\s|\\[,;: ])*\\in(?:\s|\\[,;: ])*\\mathbb\s*\{\s*R\s*\})?(?:\s|\\[,;: ])*$")
_CLOCK_RE = re.compile(r"^\d{1,2}:\d{2}(?::\d{2})?\s*(?:\\(?:text|mathrm)\s*\{\s*)?(?:[ap]\.?\s*m\.?)?\s*\}?$", re.I)
_ORDINAL_TEXT_RE = re.compile(r"(\d)\s*(?:\^\s*(?:\{\s*)?)?\\(?:mathrm|text|textrm|rm)\s*\{\s*(st|nd|rd|th)\s*\}\s*\}?")
FUNCTION_LETTERS = frozenset("fghpqFGHPQ")
"""The letters that name a function by convention (`f(3)`, `p(2)`, `Q(1)`): only they are a function's value when
applied to a number; any other letter before a bracketed number (`x(1000)`, `n(1000)`, `x_1(1000)`) is a product with
the unknown as much as a value, so it is no name (docs/math.md "Answer grammar", "The subject of a box"; red team 5
class 7). An allowlist: a letter applied to letters only (`n(t)`) stays a name."""
NAME_MARKS: tuple[tuple[str, str], ...] = (
    (r"_\{?[A-Za-z0-9]{1,3}\}?", "an index (`x_0`, `a_n`, `x_{12}`): which of several quantities, never a scale of one"),
    (r"_\{[0-9]{4,6}\}", "a long braced index (`a_{2024}`, `F_{2024}`: MATH's and AIME's sequence terms); braced only, "
     "since `a_2024` is `a_2` times 024 in LaTeX"),
    (r"_\{?\s*(?:\\(?:max|min)|\\(?:text|mathrm|rm|operatorname)\s*\{\s*(?:max|min)\s*\})\s*\}?",
     "the extreme named (`x_{\\max}`, `T_{\\text{min}}`): the greatest or least value of a quantity a question asks for, "
     "as `\\max` in a gold's subscript is a name already (docs/math.md \"Math grading rules\")"),
)
"""The marks that make a letter another quantity's name (docs/math.md "Answer grammar", "The subject of a box"), each
with its reason: an allowlist, so a mark that transforms the letter's value (`x^2`, `x^{-1}`, `\\hat{x}`, `\\bar{x}`,
`x'`) is no name mark, and `_side_states` reads such a side as a function of the unknown (refused)."""
OPTIMUM_LETTERS = "abcdefghijklmnopqrstuvxy"
"""The letters on which `^*` marks the optimum (`x^*`, `t^*`, `n^*`: the argmax or argmin a question asks for): a name of its
own. Never on `z`, `w` (complex unknowns by convention, where `z^*` is the conjugate, a function of `z`) nor on a
capital (`A^*`, a matrix's adjoint)."""
_NAME_MARK = "(?:" + "|".join(p for p, _ in NAME_MARKS) + ")"
_MATH_NAME_RE = re.compile(
    r"^(?:[A-Za-z]" + _NAME_MARK + r"?(?:\([A-Za-z, ]{1,12}\))?"
    r"|[" + OPTIMUM_LETTERS + r"]" + _NAME_MARK + r"?\^\s*(?:\{\s*(?:\*|\\ast|\\star)\s*\}|\*|\\ast(?![A-Za-z])|\\star(?![A-Za-z]))"
    r"|[" + "".join(sorted(FUNCTION_LETTERS)) + r"](?:_\{?[A-Za-z0-9]{1,3}\}?)?\([^()=]{1,12}\)|[A-Z]{2,3}|\|[A-Z]{2}\||(?:m\s*)?(?:∠|\\angle|\\measuredangle)\s*(?:[A-Z]{1,3}|\d{1,2}))$"
)


class _Token(NamedTuple):
    kind: str  # word, name, num, cur, unit (deg/pow), seg, cmd, mark, math
    text: str


@_beside_value
def read(text: str, prose: bool = False, value: str | None = None) -> Reading:
    """Read `text` (a box's content, or an anchored sentence when `prose`) with the grammar. `value`: what stands in
    the value's place when `text` holds a placeholder there (`read_sentence`'s lenient reading)."""
    stripped = _DOMAIN_RE.sub("", text).strip()
    if _CLOCK_RE.match(stripped):
        return Reading("math", text)
    tokens = _scan(_ORDINAL_TEXT_RE.sub(r"\1\2", stripped), prose)
    if len(text) > MAX_CHARS and any(t.kind in ("word", "name", "cur") for t in tokens):
        return Reading("refused", f"words in a text longer than {MAX_CHARS} characters: the grammar reads no longer sentence")
    whole = _TEXT_UNWRAP_RE.fullmatch(stripped)  # `\\mathbf{6}`: the group is the value, not beside it
    if _TEXT_DIGIT_RE.search(whole.group(1) if whole else stripped):  # `12\\text{000}`, `6\\mathrm{000}`, `1\\mathbf{2}`
        return Reading("refused", "a digit inside `\\text{}` beside the value: text holds words, never digits")
    if _goes_on(stripped):  # `3.14\\ldots` is not 3.14 (math-verify drops `\\ldots`)
        return Reading("refused", "an ellipsis after a number: a decimal that goes on is not its prefix")
    symbol = _text_symbol(stripped)
    if symbol:  # `6\\text{!}`, `6\\text{½}`, `6\\,\\text{‰}`, `6\\text{ \\textonehalf}`
        return Reading("refused", f"a symbol inside `\\text{{}}` beside the value ({symbol!r}): text holds words")
    has_words = any(t.kind in ("word", "name", "cur") for t in tokens)  # `£3,20`: a currency is read too
    if "?" in (t.text for t in tokens if t.kind == "mark"):
        return Reading("refused", "a question mark: the value is questioned")
    if _word_answer(stripped, tokens):
        return Reading("words", text)  # `Friday`, `\\text{No solution}`: words only, read as written
    words = [t.text.lower() for t in tokens if t.kind in ("word", "name")]
    if any(_joiner(t) == "or" for t in tokens) and len({names for names in _part_names(tokens) if names}) > 1:
        return Reading("refused", "alternatives joined by `or` name different quantities")  # `x = 2 \\text{ or } y = 3`
    if words and all(w in _JOINERS for w in words) and _joins_parts(tokens):
        return Reading("math", text)  # `3 \\text{ or } 4`, `f(x) = 0 \\text{ or } f(x) = x^2`: the parser reads a set
    eq = [i for i, t in enumerate(tokens) if t.text == "="]
    if eq:
        reading = _read_chain(tokens, eq, has_words, prose, text, value)
        return Reading("math", text) if reading.kind == "math" else reading
    if not has_words:
        return Reading("math", text)
    reading = _read_value(tokens, prose)
    return Reading("math", text) if reading.kind == "math" else reading


# Markup after an answer: a reasoning tag, `\\end{align*}`, a modulus the answer is stated in (`\\boxed{9} \\pmod{11}`),
# closing math delimiters, punctuation, bold.
_AFTER_MARKUP_RE = re.compile(r"</?think>|\\end\s*\{[A-Za-z*]+\}|\\pmod\s*\{\s*\d+\s*\}|\\[\])]|\$|[\s.!。！।:;,*_#>}\])'’\"-]")
_NEXT_TURN = "<|im_start|>"
_TURN_ROLES = frozenset({"", "user", "assistant", "system"})
_AFTER_WORD_RE = re.compile(r"[^\W\d_]+|\S")


def closes(rest: str) -> bool:
    """Whether `rest`, what follows the answer's sentence to the end of the completion, leaves the
    answer standing (docs/math.md "Answer grammar"): only markup (closing math delimiters, `\\end{...}`,
    punctuation, bold) and sentences of LEXICON's "afterword" words (`I hope it is correct.`), and a
    chat template's next turn at the very end (`<|im_start|>user`). Anything else, a retraction
    (`Wait, that's wrong.`, `? Wrong.`, `No, actually it is not 6.`), a doubt or a second value, is
    a fact about the answer the grammar does not know: the answer is not read. Bounded: a longer
    text than `MAX_CHARS` is not an afterword."""
    rest = rest.strip()
    turn = rest.rfind(_NEXT_TURN)  # string scans, no regex: red team 6 class 9 (`\s*(?:user)?\s*$` backtracked)
    if turn >= 0 and rest[turn + len(_NEXT_TURN):].strip() in _TURN_ROLES:
        rest = rest[:turn]
    if len(rest) > MAX_CHARS:
        return False
    words = _AFTER_WORD_RE.findall(_AFTER_MARKUP_RE.sub(" ", rest))
    return all(w.isalpha() and w.lower() in _LOWER_ROLES["afterword"] for w in words)


_LEAD_WORD_RE = re.compile(r"\s*([^\W\d_]+)\s*,?")


def read_sentence(sentence: str, value: str | None = None) -> Reading:
    """A sentence the lenient profile reads without an anchor (docs/math.md "Answer grammar"): its
    opening words that only lead to a statement (LEXICON's "lead" and "closing": `So,`, `Adding,`,
    `In the end,`) are passed over, then the rest is `read` as prose, the same grammar as after an anchor."""
    pos = 0
    while True:
        m = _LEAD_WORD_RE.match(sentence, pos)
        if m is None:
            break
        word = m.group(1).lower()
        if _has("lead", word):
            pos = m.end()
            if word == "here":  # `Here is a zero matrix: ...`: the label that follows is the subject
                pos = _LEAD_WORD_RE.match(sentence, pos).end() if re.match(r"\s*(?:is|are)\b", sentence[pos:]) else pos  # type: ignore[union-attr]
            continue
        phrase = [w.lower() for w in _LEAD_TOKEN_RE.findall(sentence[pos: pos + 40]) if w.isalpha()]
        closing = next((c for c in _CLOSINGS if len(c) > 1 and tuple(phrase[: len(c)]) == c), None)
        if closing is None:
            break
        for _ in closing:
            pos = _LEAD_WORD_RE.match(sentence, pos).end()  # type: ignore[union-attr]
    return read(sentence[pos:], prose=True, value=value)


def _joins_parts(tokens: list[_Token]) -> bool:
    """Whether every joiner stands between two parts (`3 or 4`, never a dangling `6 or`)."""
    for i, t in enumerate(tokens):
        if t.kind in ("word", "name") and (i == 0 or i == len(tokens) - 1
                                            or tokens[i - 1].kind in ("word", "name", "mark") and tokens[i - 1].text not in ",)]}"
                                            or tokens[i + 1].kind in ("word", "name")):
            return False
    return True


def _joiner(t: _Token) -> str:
    """`or` or `and` when `t` is that joiner, in prose or in LaTeX (where `or` scans as letters), else ""."""
    return t.text.lower() if t.kind in ("word", "name", "math") and t.text.lower() in _JOINERS else ""


def _part_names(tokens: list[_Token]) -> list[tuple[str, ...]]:
    """The names each part between joiners gives values to, in order (`x = 1, y = 2` -> (x, y);
    `3` -> ()). Parts joined by `or` are alternatives for one quantity: `x = 2 \\text{ or } y = 3`
    says which of two different unknowns holds, never both (math-verify read it as the pair)."""
    parts: list[tuple[str, ...]] = []
    names: list[str] = []
    side: list[str] = []
    in_value = False
    for t in [*tokens, _Token("word", "or")]:
        if _joiner(t):
            parts.append(tuple(names))
            names, side, in_value = [], [], False
        elif t.text == ",":
            side, in_value = [], False
        elif t.text == "=" and not in_value:
            names.append("".join(side))
            in_value = True
        elif not in_value:
            side.append(t.text)
    return parts


_WORD_ANSWER_MARKS = frozenset(".,;:'’()!-\"")


def _word_answer(text: str, tokens: list[_Token]) -> bool:
    """Whether the text is a word answer (`Friday`, `\\text{No solution}`, `\\text{(A)}`): words and their
    punctuation only, no number, no math symbol, no math segment (docs/math.md "Answer grammar", "Structure, not
    words"). A positive reading: a text holding math beside its words (`\\pi \\text{ thousand}`, `\\text{$6$
    million}`) is no word answer and goes through the grammar like any value."""
    if _MATH_OPENERS_RE.search(text):
        return False  # `\\text{$x$ thousand}`: a math segment is math, whatever it holds
    return any(t.kind in ("word", "name") for t in tokens) and all(
        t.kind == "word" or t.kind == "name" and _letters(t.text) or t.kind == "mark" and t.text in _WORD_ANSWER_MARKS
        for t in tokens)


def _letters(word: str) -> bool:
    """A name written in letters (`Friday`, `Maria's`), not a math name (`∠ABC`)."""
    return word.removesuffix("'s").removesuffix("’s").isalpha()


def _scan(text: str, prose: bool) -> list[_Token]:
    out: list[_Token] = []
    for m in _TOKEN_RE.finditer(text):
        kind = m.lastgroup or "mark"
        tok = m.group()
        if kind == "space":
            continue
        if kind == "text":
            inner = m.group("inner").strip()
            if len(inner) == 1 and inner in "ei":
                out.append(_Token("math", tok))  # `\\mathrm{e}`, `\\text{i}`: Euler's number, the imaginary unit
            else:  # words in a box go through the same grammar as prose; a letter there is a word (`\\text{k}`)
                operator = tok.startswith("\\operatorname")
                out.extend(_Token("word", t.text) if t.kind == "math" and t.text.isalpha() and not (
                    operator and t.text.lower() in _FUNCTION_WORDS) else t for t in _scan(inner, True))
        elif kind == "deg":
            out.append(_Token("unit", "°"))
        elif kind in ("pow", "cur", "num"):
            out.append(_Token(kind, tok))
        elif kind == "seg":
            out.append(_segment(tok[1:-1]))
        elif kind == "angle":
            out.append(_Token("name", tok))
        elif kind == "cmd":
            if tok not in _SPACES:
                out.append(_Token("unit", "%") if tok == "\\%" else _Token("math", tok))
        elif kind == "word":
            out.extend(_word(part, prose) for part in _split_copula(tok))
        else:
            if tok != "~" or prose:  # a LaTeX space; in prose a tilde says "about" (`x ~= 6`, `~6`)
                out.append(_Token("unit", "%") if tok == "%" else _Token("mark", tok))
    return out


def _split_copula(word: str) -> list[str]:
    """A CJK run with a sentence-final copula glued on (`個です`: no space in Japanese) as the word and
    the copula, so each is looked up on its own."""
    for copula in _BY_ROLE["copula"]:
        if word.endswith(copula) and len(word) > len(copula) and _CJK_RE.search(word):
            return [word[: -len(copula)], copula]
    return [word]


def _segment(inner: str) -> _Token:
    """A `$...$` segment in prose: a math name (`$n$`) or a math value."""
    inner = inner.strip()
    if _MATH_NAME_RE.match(inner) or not any(c.isdigit() for c in inner):  # `$n$`, `$ABCDEFGH$`
        return _Token("name", inner)
    return _Token("seg", inner)


def _word(word: str, prose: bool) -> _Token:
    """A letter run: a word of the lexicon, a function name or variable (math), a name, or unknown."""
    if _CJK_RE.search(word):
        return _Token("word", word)
    if word.lower() in _FUNCTION_WORDS:
        return _Token("math", word)
    if admitted(word) and (prose or len(word) > 1):
        return _Token("word", word)
    if len(word) == 1 and math_letter(word):
        return _Token("math" if not prose or word not in "aAI" else "word", word)
    if not prose and len(word) == 2 and word.islower() and word.isascii():
        return _Token("math", word)  # `xy` in LaTeX is a product of two symbols; `не`, `δε` are words (`math_letter`)
    if prose and _is_name(word):
        return _Token("name", word)
    return _Token("word", word)


def _is_name(word: str) -> bool:
    """A capitalised name (`Sam`, `Maria's`, `José`): the one open slot, allowed only as a subject, and in Latin script
    only (`latin_word`), where `NEVER_NAMES` and the lexicon read its words: a capitalised word of another cased script
    (`Возможно` "maybe", `Μάλλον` "probably", `Не` "not") is an unknown word (red team 29 class 3a). Under
    `grounded_names` (lenient's last value) it is also a word of the task's problem (`_grounded`)."""
    base = _ascii_fold(word[:-2] if word.endswith(("'s", "’s")) else word)
    return (len(base) >= 2 and base[0].isupper() and base[1:].islower() and latin_word(base) and not admitted(base)
            and base.lower() not in NEVER_NAMES and not _gerund(base) and _grounded(base))


def _ascii_fold(word: str) -> str:
    """`word` read on its NFKD fold without combining marks (`José` is `Jose`, `Maŷbe` is `Maybe`, `Perhapſ` is
    `Perhaps`), or "" when a letter does not fold to ASCII (`Thousanđs`, `Mᴀʏʙᴇ`): the name slot reads only letters
    whose fold `NEVER_NAMES` and the lexicon can read (fx29bd, red team 31 class 3b: a mark or a small capital made a
    listed hedge a person's name). Cost: a name with `Ł`, `Ø`, `Đ`, `Æ` is no name (lenient only)."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))
    return folded if folded.isascii() else ""


def latin_word(word: str) -> bool:
    """Whether `word` is letters of the Latin script only (`Sam`, `José`, `Zoë`): ASCII letters or a Unicode letter
    named LATIN. An allowlist: `isalpha` holds for any script's letters."""
    return word.isalpha() and all(c.isascii() or unicodedata.name(c, "").startswith("LATIN ") for c in word)


def _gerund(word: str) -> bool:
    """A capitalised `-ing` word opens a sentence as a gerund (`Guessing`, `Rounding`, `Halving`): a method, never a
    person, so it is no name (red team 6 class 1: `Guessing gets 6` paid). Short names (`Ming`, `King`) stay names."""
    return len(word) > 4 and word.lower().endswith("ing")


_CLAUSE_AFTER = frozenset(
    "is was be will it that the a our my this final correct required desired exact answer result value solution to problem question "
    "ordered pair".split()
)
# The words directly attached after a box: letters, digits, spaces, a text command, a degree, percent
# or power mark, `/`, `'`, a `?` (it questions the value), a LaTeX space; the phrase ends at anything else (`.`, `,`, `$`, `\\`, `\\end`).
_NEW_CLAUSE = frozenset("and so then which because since as where hence thus therefore".split())
"""Conjunctions that may start a closing clause after a box (`_closing_clause`: what follows them is read,
never skipped; `but`, `or`, `if`, `unless` are not among them: they hedge or add a value)."""
_ATTACHED_RE = re.compile(
    r"(?:[^\W_]|[ \t'/%°?]|\\(?:text|mathrm|textrm|textbf|mbox)\s*\{[^{}\n]{0,80}\}|\\%|\\[,; ]|\$[^$\n]{1,80}\$"
    r"|\^\s*(?:\{\s*)?(?:\\circ|[23])\s*\}?|\\text(?:circ|degree)\b)*"
)


def attached_phrase(text: str) -> str:
    """The words directly attached at the start of `text` (what follows a box), up to the first
    punctuation, newline or math delimiter; a closing `$`, `\\)` or `\\]` is skipped first
    (`$\\boxed{6}$ million`)."""
    text = text[:MAX_CHARS].lstrip(" $").removeprefix("\\)").removeprefix("\\]").lstrip(" $")
    attached = _ATTACHED_RE.match(text)
    return attached.group().strip() if attached else ""


_CLOSING_VERBS = frozenset("is are was have hope found obtained got matches match helps checked verified done required desired".split())


def _closing_clause(tokens: list[_Token]) -> bool:
    """The clause a conjunction after a box starts (`\\boxed{6} and we are done`, `\\boxed{6} which is the
    answer`): admitted only when every token is a word that confirms the answer (LEXICON's "afterword",
    as `closes` reads a closing sentence). A second value (`and 7`, `then 7`), a fraction (`and a half`),
    an inequality (`and above`), a scale or a doubt (`because I am not sure`) has a token outside it. A
    clause, not a modifier of the value: it holds one of `_CLOSING_VERBS` (`and above` holds none), after a subject
    (`_CLOSING_SUBJECT`)."""
    verb = next((k for k, t in enumerate(tokens) if t.text.lower() in _CLOSING_VERBS), None)
    if verb is None or not all(t.text.lower() in _CLOSING_SUBJECT for t in tokens[:verb]):
        return False  # ordered (red team 4 class 5): `and above is correct` has `above` where its subject stands
    return all(t.kind == "word" and (_has("afterword", t.text) or t.text.lower() in _CLAUSE_AFTER) for t in tokens)


_CLOSING_SUBJECT = frozenset("i we it this that the a our my final correct answer result value solution".split())
"""What may stand before a closing clause's verb (`and we are done`, `and this is correct`, `and our answer is`): a
pronoun or a noun phrase naming the answer; its other afterwords (`above`, `as`, `required`) stand after the verb
(`which is the answer above`), never as its subject (`\\boxed{6} and above is correct` is six and above)."""


def after_value(phrase: str) -> bool:
    """Whether the words attached after a box (`attached_phrase`) leave its value alone: a unit,
    comparative or tail (`\\boxed{6} apples`), a clause it is the subject of (`\\boxed{6} is the
    final answer`) or a closing clause a conjunction starts (`_closing_clause`); `\\boxed{6} thousand`,
    `\\boxed{6} is wrong`, `\\boxed{6} and a half` do not."""
    tokens = _scan(phrase, True)
    if not tokens:
        return True
    if tokens[0].kind == "word" and tokens[0].text.lower() in _NEW_CLAUSE:
        return _closing_clause(tokens[1:])
    if tokens[0].kind == "word" and _has("verb", tokens[0].text):
        return all(t.kind == "word" and t.text.lower() in _CLAUSE_AFTER for t in tokens)
    return _tail(tokens) is not None


def _read_chain(tokens: list[_Token], eq: list[int], has_words: bool, prose: bool, text: str,
                value: str | None = None) -> Reading:
    """`x = 5`, `∠PQR = 40°`, `Total = ($3 * 4) + $6 = $18`: the last side is the value when the
    first side names it (a name or a subject) and every middle side is arithmetic."""
    first, last = eq[0], eq[-1]
    middle = tokens[first + 1: last]
    if any(t.kind in ("word", "name", "seg") or t.kind == "math" and t.text not in _ARITHMETIC for t in middle):
        return Reading("refused" if has_words else "math", "a side of the `=` chain is not arithmetic")
    if any(b > a + 1 and not any(t.kind in ("num", "seg") for t in tokens[a + 1: b]) for a, b in zip(eq, eq[1:])):
        return Reading("refused", "a side of the `=` chain holds no value")  # `x =/= 6`: a relation written with `=`
    subject = tokens[:first]
    named = _math_name(subject) or _subject(subject + [_Token("word", "is")]) or _stated_arithmetic(subject)
    post = tokens[last + 1:]
    if post and post[0].kind == "mark" and post[0].text not in ("(", "[", "{", "-", "+", "."):
        return Reading("refused", "a mark between `=` and the value")  # `x =~ 6`, `x => 6`: another relation
    if not named:
        return Reading("refused" if has_words else "math", "the `=` does not follow a name")
    value = value if value is not None else next((t.text for t in post if t.kind == "num"), None)
    words = [k for k, t in enumerate(subject) if t.kind == "word"]
    computed = " ".join(t.text for t in subject[words[-1] + 1 if words else 0:])  # `the total is 2 + 3 =`: a side too
    if (has_words or prose) and value is not None and not _middle_values_agree(
            [computed] + [" ".join(t.text for t in tokens[a + 1: b]) for a, b in zip(eq, eq[1:])], value):
        return Reading("refused", "a side of the `=` chain has another value")  # `x = 6000 = 6` (red team 6, 7 class 3, 1)
    if not has_words and not prose and not any(t.kind == "name" for t in subject) and not middle:
        return Reading("math", text)  # `x = 5`, `f(x) = 2x + 3`: the relation rules read it
    return _read_value(post, prose)


_OPERATORS = frozenset("+-*/") | {"\\cdot", "\\times", "\\div", "\\frac", "\\dfrac", "\\tfrac"}


def _stated_arithmetic(subject: list[_Token]) -> bool:
    """A subject and its link, then arithmetic (`we get 40 + 2 = 42`, `the total is 3 * 4 = 12`):
    the chain's last side is what the subject states, as in `Total = 3 * 4 = 12`."""
    k = len(subject)
    while k > 0 and (subject[k - 1].kind == "num" or subject[k - 1].text in _ARITHMETIC):
        k -= 1
    head, arithmetic = subject[:k], subject[k:]
    operated = any(t.text in _OPERATORS for t in arithmetic)  # `we get 2 = 6` states a false relation, no value
    return 0 < k < len(subject) and operated and any(t.kind == "num" for t in arithmetic) and head[-1].kind == "word" and (
        _has("verb", head[-1].text)) and _subject(head)


def _math_name(subject: list[_Token]) -> bool:
    """A lone math name: `x`, `∠ABC`, `f(3)`, `x_1`, `AB` (not `2x`: that names another quantity)."""
    if len(subject) == 1 and subject[0].kind == "name":
        return True
    written = "".join(t.text for t in subject)
    return bool(subject) and all(t.kind in ("math", "mark", "num") for t in subject) and bool(_MATH_NAME_RE.match(written))


def _read_value(tokens: list[_Token], prose: bool) -> Reading:
    """Exactly one value, a subject before it and a unit and tail after it, all admitted."""
    spans = _value_spans(tokens, prose)
    if len(spans) > 1 and _units_of_parts(tokens, spans):
        return Reading("math", "")  # `{35 cm, 4}`: a list whose parts carry units, the parser reads it
    if len(spans) != 1:
        return Reading("refused", "no single value" if not spans else "a second value")
    start, end = spans[0]
    before, value, after = tokens[:start], tokens[start:end], tokens[end:]
    while after and (after[-1].kind == "mark" and after[-1].text in _END | {",", ";", ":", "*", '"', "'", ")"}
                     or after[-1].kind == "word" and _has("copula", after[-1].text)):
        after = after[:-1]  # end punctuation, and a copula that ends the statement (`11です。`)
    if not _subject(before, bool(after) and _unit(after, 0)[0] > 0):
        return Reading("refused", "words before the value are not a known subject")
    percent = _tail(after)
    if percent is None:
        return Reading("refused", "words after the value are not a unit, a comparison or a known tail")
    return Reading("number", _value_text(value) + ("%" if percent and "%" not in _value_text(value) else ""))


def _units_of_parts(tokens: list[_Token], spans: list[tuple[int, int]]) -> bool:
    """Whether every word is a unit right after one of several values (`35 cm, 4`)."""
    ends = {end for _, end in spans}
    for i, t in enumerate(tokens):
        if t.kind not in ("word", "name"):
            continue
        after = tokens[i + 1].text if i + 1 < len(tokens) else ","
        if not (i in ends and _is_unit(t.text) and after in (",", ";", "\\}", ")", "]")):
            return False
    return True


def _value_spans(tokens: list[_Token], prose: bool) -> list[tuple[int, int]]:
    """(start, end) of each value: in prose a number or a math segment (with a currency sign before
    it); in LaTeX a run of math holding a digit, or, in a text with no number at all, a run holding a math symbol
    (`\\pi`, `e^x`, `\\sqrt{x}`: a symbolic value is read by the same grammar, docs/math.md "Answer grammar")."""
    spans: list[tuple[int, int]] = []
    symbolic = not any(t.kind in ("num", "seg") for t in tokens)
    i = 0
    while i < len(tokens):
        if prose:
            if tokens[i].kind in ("num", "seg"):
                start = i - 1 if i > 0 and tokens[i - 1].kind == "cur" else i
                spans.append((start, i + 1))
            i += 1
            continue
        if not _mathy(tokens[i]):
            i += 1
            continue
        j = i + 1
        while j < len(tokens) and _mathy(tokens[j]):
            j += 1
        if any(tok.kind in ("num", "seg") or symbolic and tok.kind == "math" for tok in tokens[i:j]):
            spans.append((i, j))
        i = j
    return spans


def _mathy(t: _Token) -> bool:
    """A token that belongs to a LaTeX value."""
    return t.kind in ("num", "seg", "math", "pow", "cur") or t.kind == "mark" and t.text not in _END | {",", ";", "?", "=", ":", "'", '"'}


def _value_text(value: list[_Token]) -> str:
    """The value as the parser reads it: currency signs and an ordinal suffix dropped."""
    out = ""
    for t in value:
        if t.kind == "cur":
            continue
        if out and out[-1].isalnum() and t.text[:1].isalnum():
            out += " "
        out += t.text
    return re.sub(r"(?<=\d)(?:st|nd|rd|th)$", "", out)


def _subject(before: list[_Token], measured: bool = False) -> bool:
    """Nothing, or a noun phrase then a link (`the answer is`, `Sam swam`, `y 的值是`), then an
    optional `the`/`a`; or a lone Chinese subject. `measured`: a unit follows the value."""
    words = list(before)
    if words and words[-1].kind == "word" and _has("det", words[-1].text) and words[-1].text.lower() in ("the", "a", "an"):
        words = words[:-1]
    if words and words[-1].kind == "word" and words[-1].text.lower() == "of" and len(words) >= 2 and _has("noun", words[-2].text):
        words = words[:-1] + [_Token("word", "is")]  # `a total of 30`
    if words and words[-1].kind == "word" and words[-1].text.lower() == "that" and len(words) >= 2 and _has("verb", words[-2].text):
        words = words[:-1]  # `we find that 5`
    if words and words[-1].kind == "word" and words[-1].text.lower() == "by" and len(words) >= 2 and words[-2].text.lower() in _CHANGES:
        words = words[:-1]  # `increases by 100%`: the change asked for, as a relative phrase is (`3 fewer`)
    if words and words[-1].kind == "word" and words[-1].text.lower() == "to" and len(words) >= 2 and words[-2].text.lower() in ("equal", "equals", "amounts", "comes", "came", "amounted"):
        words = words[:-1]  # `is equal to 5`
    if not words:
        return True
    if words[-1].kind == "mark" and words[-1].text in ":":  # `the answer is:`, or a label: `Total cost:`, `A:`
        return len(words) == 1 or _subject(words[:-1], measured) or _subject([*words[:-1], _Token("word", "is")], measured)
    link = words[-1]
    if link.kind != "word" or not (_has("verb", link.text) or _has("cjk_subject", link.text)):
        return False
    phrase = words[:-1]
    chain: list[_Token] = []
    while phrase and phrase[-1].kind == "word" and _has("verb", phrase[-1].text):
        chain.insert(0, phrase[-1])
        phrase = phrase[:-1]  # `will be`, `has been`
    phrase += chain[: len(_clause_verbs([t.text for t in chain] + [link.text]))]  # `that Alice wins | is`
    if _has("cjk_subject", link.text):
        return all(t.kind == "name" or t.kind == "math" or t.kind == "word" and _has("cjk_subject", t.text) for t in phrase)
    if not phrase:
        return True  # after an anchor: "is 5", "equals 5"
    stated = _stated_tokens([t.text for t in phrase])  # `we see that the total is`: the subject after it
    phrase = phrase[len(phrase) - len(stated):]
    if not phrase:
        return True
    if not _ordered(phrase) or not _headed(phrase) or _scale_letter(phrase) or not _objects_taken([t.text for t in phrase]):
        return False  # `_headed`: `Possible: 6`, `Unknown: 6 apples`, `The possible value is 6.` (red team 33 class 6)
    if link.text.lower() in _STEP_VERBS:  # `Guessing gives 6`: the same method-or-step subject as a box's
        return _step_subject([t.text for t in phrase])
    changes = link.text.lower() in _CHANGES  # `the error ... increases by 100%`: the change is what is asked
    return all(_in_phrase(t) or _in_relative_clause(phrase, k) or changes and t.kind == "word" and t.text.lower() in _DEVIATIONS
               for k, t in enumerate(phrase)) and _names_placed(phrase, link.text, measured)


_RELATIVES = frozenset({"that", "which", "who"})
_HEADS = ("noun", "count", "pronoun")
"""The lexicon's roles that head a subject's noun phrase (`_headed`); an adjective or determiner alone heads none."""
_SUPERLATIVES = frozenset("largest smallest greatest least highest lowest maximum minimum max min fewest most".split())
"""What `possible` follows in a subject (`the largest possible value`): the bound it reaches, so the value is the one
asked for; alone (`The possible value is 6.`) it names one of several candidates."""


def _headed(phrase: list[_Token]) -> bool:
    """Whether a subject is a noun phrase with a head (red team 33 class 6: a lone lexicon adjective, `Possible: 6`,
    `Unknown: 6 apples`, `Second: 6`, labelled lenient's last value): a noun, a counted noun or a pronoun of the lexicon
    (`_HEADS`), a name or math; and `possible` only after a superlative (`_SUPERLATIVES`: `the smallest possible
    value`). An allowlist: the lexicon's adjectives describe a head, none states an answer alone."""
    if _lone_possible([t.text if t.kind == "word" else "" for t in phrase]):
        return False
    return any(t.kind in ("name", "math") or t.kind == "word" and any(_has(r, t.text) for r in _HEADS) for t in phrase)


def _lone_possible(words: list[str]) -> bool:
    """Whether a subject's words hold `possible` after no superlative (`_SUPERLATIVES`): `The possible value`, `A
    possible answer` name one of several candidates; `the largest possible value` the one asked for. One rule for the
    prose subject (`_headed`) and a box's or colon line's (`_noun_phrase`; red team 36 class 3a)."""
    low = [w.lower() for w in words]
    return any(w == "possible" and (k == 0 or low[k - 1] not in _SUPERLATIVES) for k, w in enumerate(low))


def _answer_led(tokens: list[str]) -> bool:
    """Whether a subject that ends with `answer` (`The final answer`, `Our answer`) has only an answer anchor's leads
    before it (`anchor_lead`, `ANCHOR_LEADS`), as the anchor `answer is` on a box's own line reads it (red team 36 class
    3a: `The possible answer will be:`, `The original answer has been \\boxed{6}`, `The expected answer must be:` paid
    where `The possible answer is \\boxed{6}` was refused); True for any other subject. One reader for every link."""
    if not tokens or tokens[-1].lower() not in ("answer", "answers"):
        return True
    return anchor_lead(" ".join(tokens[:-1]))


def _answer_named(tokens: list[str]) -> bool:
    """Whether a box's or colon line's subject names no candidate (`_lone_possible`: `The possible total`) and, headed by
    `answer`, is led as the anchor is (`_answer_led`: not `The expected answer`; red team 36 class 3a) and names the
    problem's answer (`_answer_subject`: not `The answer to the first step`; rt37 class 7)."""
    return not _lone_possible(tokens) and _answer_led(tokens) and _answer_subject(tokens)


_ANSWER_LINKS = frozenset("is are was were".split())
_LABEL_HEADS = frozenset("answer answers result results".split())
"""The heads a label's words are read by as an answer's (`_answer_subject`, `box_label`): a step's or case's result
(`Step 1 result:`, `Case 1 result:`) is a step's value, as its answer is (rt37 class 9)."""
_ANSWER_WHOLES = frozenset("problem question exercise".split())


def _answer_subject(words: list[str], heads: frozenset[str] = frozenset({"answer", "answers"})) -> bool:
    """Whether a subject (or a colon line's label, its link after it) that holds `answer` names the problem's answer: the
    words before `answer` lead as the anchor's do (`_answer_led`: `The final answer`, `Our answer`; not `Her answer`,
    `Tom's answer`), and after it stands nothing, a unit or currency after `in` (`The answer in cm`, `The answer (in
    dollars)`), the unknown's letter (`The answer for k`, `Answer for \\(k\\)`), a part's label (`The answer for part
    (b)`, `The answer to part 2`) or the problem itself (`The answer to the problem`), then at most a finite link. An allowlist of tails (rt37 class 7): a step's, a part's or someone's
    answer (`The answer to the first step`, `The answer for each child`, `The answer of the friend`, `The answer the book
    gives`, `The answer for n = 5`) is another quantity than the problem's. True for a subject with no `answer`. A
    label reads `result` so too (`_LABEL_HEADS`: `Final result:`; not `Step 1 result:`, `Result of step 1:`, rt37 class
    9), a prose subject not (`The result of the division is`)."""
    kept = [w for w in words if w not in ("(", ")", "[", "]", "**", "*", "_")]
    low = [w.lower() for w in kept]
    at = next((k for k, w in enumerate(low) if w in heads), None)
    if at is None:
        return True
    if not anchor_lead(" ".join(kept[:at])):  # `_answer_led`'s reading, for each of `heads`
        return False
    tail = low[at + 1:]
    group = _LINK_GROUP_RE.search(" ".join(tail))  # `will be`, `has been`, `comes out to be` (`_link_chain` reads them)
    tail = " ".join(tail)[: group.start()].split() if group else tail
    while tail and tail[-1] in _ANSWER_LINKS:
        tail = tail[:-1]
    if not tail:
        return True
    if tail[0] == "part":
        tail = ["for", *tail]  # `Answer (part a)`
    if len(tail) == 2 and tail[0] == "in":
        return tail[1] in ("total", "all") or _has("unit", tail[1]) or _has("currency", tail[1])
    if len(tail) == 2 and tail[0] in ("for", "of") and len(tail[1]) == 1 and tail[1] not in "ai":
        return math_letter(kept[at + 2])  # `The answer for k`: the unknown's own letter
    if len(tail) == 3 and tail[0] in ("for", "to", "of") and tail[1] == "part":
        return len(tail[2]) <= 4 and tail[2].isalnum()
    return len(tail) == 3 and tail[0] in ("for", "to", "of") and tail[1] in ("the", "this") and tail[2] in _ANSWER_WHOLES


def _scale_letter(phrase: list[_Token]) -> bool:
    """A lone letter after `in` in a prose subject (`the answer in $k$ is`, `the total in M is`): it names a scale, as
    it does before a box (`_object_end`) and in a label (`_LETTER_AFTER`; red team 6 class 4)."""
    return any(t.kind in ("math", "name") and len(t.text.strip("$")) == 1 and k > 0 and phrase[k - 1].text.lower() == "in"
               for k, t in enumerate(phrase))


_BOUND_WORDS = frozenset("least most minimum maximum best worst minimal maximal fewest".split())


def _states_bound(words: list[str]) -> bool:
    """Whether a subject's words hold `at` (then optionally `a`/`the`/`its`) before a bound (`_BOUND_WORDS`): `the total
    at least`, `the value at a minimum` bound the value wherever they stand (red team 5 class 8: `_ordered` read only
    the first word); one rule for the prose subject and the box's (`_noun_phrase`)."""
    for k, w in enumerate(words):
        if w == "at":
            rest = [x for x in words[k + 1:k + 3] if x not in (",", "(", ")")]
            rest = rest[1:] if rest and rest[0] in ("a", "the", "its", "their") else rest
            if rest and not _at_place(rest[0]):
                return True
    return False


_AT_PLACES = frozenset("end start beginning point time moment rate price cost speed".split())


def _at_place(word: str) -> bool:
    """What `at` may name in a subject (`the value at $x = 2$`, `at the end`, `at point P`, `at time 3`): a math name or number, a quantity or counted noun, or `_AT_PLACES`. An allowlist: anything else
    after `at` (`least`, `most`, `the smallest`, `its largest`) bounds the value (red team 6 class 5: a list of bound
    words missed the superlatives)."""
    return (word.startswith("$") or len(word) == 1 and word.isalpha() or word.replace(".", "").isdigit()
            or word in _AT_PLACES or _head(word)) and word not in _BOUND_WORDS


def _objects_taken(words: list[str]) -> bool:
    """Whether every word of a prose subject's objects that takes an object of its own (`_taking`: `of` follows, or an
    owner's `'s` precedes) is one `_taken_from` admits, as in a box's subject (`_object_end`; red team 11 class 3:
    `Final Answer: The value of $x$'s floor is 6.`, `So, the value of the third of $x$ is 6.` paid 6 in lenient).
    The head before the first preposition keeps its own rules (`The total cost of the apples is`)."""
    start, governor = -1, ""
    for k, word in enumerate(words):
        low = word.lower()
        if low in _OPEN_PREPS or low in _CLOSED_PREPS:
            start, governor = k + 1, words[k - 1].lower() if k else ""
        elif start >= 0 and _taking(words, k) and not _taken_from(words, start, k, governor):
            return False
    return True


def _ordered(phrase: list[_Token]) -> bool:
    """The order of a prose subject (red team 4 class 4: it was a bag of admitted words): a preposition never
    opens it (`at least it is 6`, `At the least the value is`, `in the worst case the total is`: a bound or a
    condition; the openers that sum up are `STATING_CLAUSES`', read past before this), and a pronoun is the whole
    subject (`it is`, `there are`) or stands inside a relative clause (`the number of apples that we have is`)."""
    first = phrase[0]
    if first.kind == "word" and _has("prep", first.text) and not _has("det", first.text):
        return False
    if _states_bound([t.text.lower() for t in phrase if t.kind == "word"]):
        return False
    return all(not (t.kind == "word" and _has("pronoun", t.text) and t.text.lower() not in _RELATIVES) or k == 0
               and len(phrase) == 1 or any(p.kind == "word" and p.text.lower() in _RELATIVES for p in phrase[:k])
               for k, t in enumerate(phrase))


def _in_relative_clause(phrase: list[_Token], k: int) -> bool:
    """A verb inside a subject after `that`, `which` or `who` (`the probability that Alice wins is`):
    it says which quantity is meant, never what the value is."""
    t = phrase[k]
    return t.kind == "word" and _has("verb", t.text) and any(
        p.kind == "word" and p.text.lower() in _RELATIVES for p in phrase[:k])


_CHANGES = frozenset("increases increased decreases decreased".split())
_DEVIATIONS = frozenset("error errors uncertainty".split())
"""Nouns of how far a value is off: no quantity noun (`Error: \\boxed{6}`, `The error is 6` state no answer), but the
subject of a verb of change (`the minimum error in the measurement of the position increases by 100%`, math-verify's
suite), whose value is the change a question asks for."""
"""Verbs of change whose `by` states the difference, not a value (`increases by 100%`)."""

_COPULAS = frozenset("is are was were be been will equals equal equaled equalled makes made becomes became remains "
                     "remained comes came amounts amounted totals totaled totalled".split())
"""Verbs of the lexicon's "verb" group that state what the subject is, not what it did."""


def _names_placed(phrase: list[_Token], link: str, measured: bool) -> bool:
    """The open name slot holds an agent or an owner, never the quantity itself: a capitalised
    word the grammar does not know is admitted before a verb of action (`Sam swam`, `Lee has`), as
    an owner before a listed noun (`Maria's savings were`), or before `is` when a unit says what is
    measured (`Sam is 6 years old`); not as the whole subject of `is` (`Opposite is 6`,
    `Reciprocal is 6`, `Kilo is 6`: there it would say what the value is, and an unknown word may
    say anything)."""
    for k, t in enumerate(phrase):
        if t.kind != "name" or not _is_name(t.text):
            continue  # a math name (`x`, `$n$`, `∠3`) names the quantity by its symbol
        if any(p.kind == "word" and p.text.lower() in _RELATIVES for p in phrase[:k]):
            # an agent inside a relative clause, before the clause's own verb (`the probability that Alice wins`;
            # `the number of apples that Halved is` has none)
            if k + 1 < len(phrase) and phrase[k + 1].kind == "word" and _has("verb", phrase[k + 1].text):
                continue
            return False
        if k + 1 < len(phrase) and phrase[k + 1].kind == "name" and _is_name(phrase[k + 1].text):
            return False  # one name per slot: `Wrongly Sam has`, `Sam Halved has` put an unknown word beside it
        owned = phrase[k + 1] if k + 1 < len(phrase) else None
        if t.text.endswith(("'s", "’s")) and owned is not None and owned.kind == "word" and any(
                _has(role, owned.text) for role in ("noun", "count", "adj")):
            continue
        if link.lower() in _COPULAS and not measured:
            return False
    return True


def _in_phrase(t: _Token) -> bool:
    """A token a subject's noun phrase may hold."""
    if t.kind == "name":
        return _named_in_phrase(t.text)
    if t.kind == "math":
        return len(t.text) == 1
    if t.kind == "mark":
        return t.text in (",", "'")
    if t.kind != "word":
        return False
    return any(_has(role, t.text) for role in ("det", "pronoun", "prep", "adj", "noun", "count"))


def _named_in_phrase(name: str) -> bool:
    """A name token in a prose subject: a capitalised name (`_is_name`: `Sam's`), math that is no word (`$f(3)$`,
    `$xy$`), a point label or an object's word (`$ABCD$`, `_object_word`); a math segment holding another word
    (`the perimeter of $halved$ is`) names no quantity (issue 29, the object's closed vocabulary)."""
    text = name.strip()
    return (not text.isalpha() or len(text) <= 2 and text.islower() or _is_name(text) or _object_word(text)
            or bool(_MATH_NAME_RE.match(text)))


def _tail(after: list[_Token]) -> bool | None:
    """After the value: [unit] [relative [than object]] [tail words]; True when a percent is among
    them, False when admitted without one, None when not admitted."""
    i, n = 0, len(after)
    percent = False
    unit_seen = False
    while i < n and after[i].kind in ("unit", "pow", "word", "cur", "mark", "math") and not unit_seen and not _closing_at(after, i):
        consumed, is_percent = _unit(after, i)
        if not consumed:
            break
        percent = percent or is_percent
        unit_seen = True
        i += consumed
    if i < n and after[i].kind == "word" and _has("relative", after[i].text):
        i += 1
        if i < n and after[i].kind == "word" and _is_unit(after[i].text) and not unit_seen:
            i += 1  # `3 more apples`
        if i < n and after[i].kind == "word" and _has("than", after[i].text):
            i += 1
            start = i
            while i < n and (after[i].kind == "name" or after[i].kind == "word" and (
                    _has("det", after[i].text) or _has("pronoun", after[i].text) or _has("noun", after[i].text)
                    or after[i].text.lower() in ("him", "her", "them", "me", "us", "before", "yesterday", "last", "first", "second", "other", "one"))):
                i += 1
            if i == start or after[start].text.lower() in _NUMERAL_WORDS:
                return None  # `6 more than one` is 7: the object is a noun phrase (`the other one`), never a numeral
    while i < n and after[i].kind == "word" and (_has("tail", after[i].text) or after[i].text.lower() in _TIME_PREPS):
        closing = _closing_at(after, i)
        if closing:
            i += closing
            continue
        word = after[i].text.lower()
        i += 1
        if word in _TIME_PREPS and i + 1 < n and after[i].kind == "num" and after[i + 1].text.lower() in _TIME_UNITS:
            i += 2  # `$16386.17 after 5 years`: when, not how much
            continue
        if word in ("of", "per", "for"):  # `cups of flour`, `per day`, `for $B$`: a noun, unit or name follows
            while i < n and after[i].kind == "word" and _has("det", after[i].text):
                i += 1
            if i == n or not (after[i].kind == "name" or after[i].kind == "word" and (
                    _is_unit(after[i].text) or _has("noun", after[i].text))):
                return None
            i += 1
    i += _closing_at(after, i)
    if 0 < n - i and after[i].kind == "word" and _has("verb", after[i].text) and all(
            t.kind == "word" and t.text.lower() in _CLAUSE_AFTER for t in after[i:]):
        i = n  # `5 is the solution`: a clause the value is the subject of (as after a box, `after_value`)
    return percent if i == n else None


_NUMERAL_WORDS = frozenset("one first second".split())
"""The object words of `than` that are numerals or ordinals on their own (`6 more than one` is 7): admitted only
after a determiner or an adjective (`than the other one`, `than the first one`), where they stand for a thing."""


_CLOSINGS = tuple(tuple(phrase.split()) for phrase in sorted(_BY_ROLE["closing"]))


def _closing_at(after: list[_Token], i: int) -> int:
    """Tokens of a closing phrase (`in the end`, `finally`: LEXICON's "closing") at `after[i]`; 0 if none."""
    for phrase in _CLOSINGS:
        words = after[i: i + len(phrase)]
        if len(words) == len(phrase) and all(t.kind == "word" and t.text.lower() == w for t, w in zip(words, phrase)):
            return len(phrase)
    return 0


_TIME_PREPS = frozenset({"in", "all", "after", "within"})
_TIME_UNITS = frozenset("second seconds minute minutes hour hours day days week weeks month months year years".split())
_COUNT_ADJECTIVES = frozenset(
    "distinct different possible real positive unique whole prime odd even complete full equal separate such "
    "red blue green yellow white black new old big small large".split()
)
"""Adjectives before a counted noun (`2 distinct possible values`, `3 red apples`): none scales it."""


def _unit(after: list[_Token], i: int) -> tuple[int, bool]:
    """(tokens consumed, whether it is a percent) for one unit at `after[i]`; (0, False) if none."""
    t = after[i]
    if t.kind == "unit" or t.kind == "word" and _has("percent", t.text):
        percent = t.text == "%" or _has("percent", t.text)
        j = i + 1
        if t.text == "°" and j < len(after) and after[j].text in ("C", "F", "Celsius", "Fahrenheit", "celsius", "fahrenheit"):
            j += 1
        return j - i, percent
    if t.kind == "cur" or t.kind == "word" and _has("currency", t.text):
        return 1, False
    if t.kind not in ("word", "math"):
        return 0, False
    j = i
    while j + 1 < len(after) and after[j].kind == "word" and after[j].text.lower() in _COUNT_ADJECTIVES:
        j += 1
    if j > i and not _has("count", after[j].text):
        return 0, False
    if after[j].text.lower() in ("square", "cubic", "sq", "cu", "sq.", "cu.") and j + 1 < len(after):
        j += 1
    if not _is_unit(after[j].text):
        return 0, False
    j += 1
    if j < len(after) and after[j].kind == "pow":
        j += 1
    if j + 1 < len(after) and after[j].text in ("/", "per") and _is_unit(after[j + 1].text):
        j += 2
        if j < len(after) and after[j].kind == "pow":
            j += 1
    if j < len(after) and after[j].text.lower() in ("celsius", "fahrenheit", "kelvin"):
        j += 1
    return j - i, False


_DISPLAY_ENVIRONMENTS = r"(?:equation|align|gather|multline|eqnarray|flalign|alignat|displaymath)\*?"
_SEGMENT_OPEN_RE = re.compile(r"\\[\[(]|\\begin\s*\{" + _DISPLAY_ENVIRONMENTS + r"\}")
_SEGMENT_CLOSE_RE = re.compile(r"\\[\])]|\$\$|\\end\s*\{" + _DISPLAY_ENVIRONMENTS + r"\}")
"""A display's delimiters, read as a math segment's `$` by the readers of a clause (`box_clause`, `_split_link`): a
display inside a sentence is math in it (red team 16 class 1)."""
_CLAUSE_MARKUP_RE = re.compile(r"\*\*|__|(?<![\\\w])#+|\\(?:displaystyle|quad|qquad|[,;: !])"
                               r"|\\(?:begin|end)\s*\{(?!" + _DISPLAY_ENVIRONMENTS + r"\})[A-Za-z*]{1,20}\}")
"""Markup a clause's words are read through; an environment that is no display (`aligned`, `cases`, `pmatrix`) names
no word."""
_TEXT_GROUP_RE = re.compile(r"\\(?:text|textbf|textit|textrm|mathrm|mbox)\s*\{([^{}]{0,80})\}")
_PROSE_WORD_RE = re.compile(r"(?<![\\A-Za-z])(?:[^\W\d_]{2,}|[IA])(?![A-Za-z])")
_UNESCAPED_DOLLAR_RE = re.compile(r"(?<!\\)\$")


_CLAUSE_OPENERS = frozenset(
    "checking making giving yielding leaving getting obtaining using applying plugging evaluating rounding "
    "rounded expressed written converting now next again similarly clearly indeed".split())
"""Participles that may open a box's clause besides LEXICON's "lead" group (`making for a total loss of
\\boxed{28\\%}`, `Rounding, we get`), and adverbs that order the steps (`Now,`, `Next,`, `Clearly,`):
each says how the value was found or stated, none hedges."""
_STATING_VERBS = frozenset("see conclude compute calculate deduce derive arrive write know determine verify confirm yields yield "
                           "evaluate simplify express".split())
"""Verbs after a pronoun that open a box's clause besides LEXICON's "verb" group (`we see that`, `we
conclude that`): each states a finding; `think`, `guess`, `doubt`, `believe`, modals are not among them."""
_CLAUSE_WORD_RE = re.compile(r"\$[^$]*\$|[^\W\d_]+(?:'s|’s)?|\S")


def box_clause(clause: str) -> bool:
    """Whether `clause`, the words of a box's clause that lead to it (back to the clause start, or to
    the end of an answer anchor), open as a statement does (docs/math.md "Answer grammar", before a
    box): after LEXICON's "lead" words (`So,`, `Hence`), the first word opens a subject (a determiner,
    a preposition, a math name or segment, a name that owns or acts (`Paula's`, `Sam swam`), a participle
    that states, an anchor's lead such as `Final`), or is a pronoun followed by a verb that states (LEXICON's "verb" group or
    `_STATING_VERBS`: `we get`, `it is`, `there are`, `we see that`). `grammar.box_lead` reads the mark
    or word right before the box; this reads how its clause opens: `I doubt it is \\boxed{6}`, `We
    think it is \\boxed{6}`, `If n is odd, \\boxed{6}`, `Maybe \\boxed{6}` state no answer. The noun
    phrase after a determiner (`the angle between the lines is`) names the question's quantity in
    open-class words and is not read word by word. A clause of math alone (`x = `, `\\therefore`,
    `&=`) has no words to read: `box_lead` decided it. Bounded: a clause over `MAX_CHARS` is refused."""
    arrows = list(_CLAUSE_ARROW_RE.finditer(clause[-MAX_CHARS:]))
    if arrows and not _premise(clause[-MAX_CHARS:][: arrows[-1].start()], arrows[-1].group()):
        return False  # `$\\text{maybe} \\quad x = \\boxed{6}$`, `n odd \\implies x =` (red team 6 class 7)
    flat = _CLAUSE_MARKUP_RE.sub(" ", clause)
    flat = _SEGMENT_CLOSE_RE.sub("$", _SEGMENT_OPEN_RE.sub("$", flat))
    texts = " ".join(_TEXT_GROUP_RE.findall(flat))  # words in a `\\text{}`, in math or not
    # the prose between math segments; the box's own open segment (`$x = \\boxed{6}$`) is math
    outside = _UNESCAPED_DOLLAR_RE.split(_TEXT_GROUP_RE.sub(" ", flat))[::2]
    words = re.sub(r"\\[A-Za-z]+", " ", " ".join(outside) + " " + texts)
    if not _PROSE_WORD_RE.search(words):
        return True
    if len(flat) > MAX_CHARS:
        return False
    tokens = [t for t in _CLAUSE_WORD_RE.findall(_TEXT_GROUP_RE.sub(lambda m: " " + m.group(1) + " ", flat))
              if t not in _LEAD_MARKS and t != "~"]  # a tie is `box_lead`'s (`we get~\\boxed{6}`)
    return _opens(tokens)


_CLAUSE_ARROW_RE = re.compile(r"\\(?:implies|Rightarrow|Longrightarrow|therefore|to|rightarrow|iff|q?quad)(?![A-Za-z])|[⟹⇒∴→]")
_SEGMENT_START_RE = re.compile(r"(?<!\\)\$|\\[(\[]")


def _premise(text: str, arrow: str) -> bool:
    """What stands before an arrow (`\\implies`, `\\Rightarrow`, `\\therefore`, `\\to`, `\\quad`) in a box's clause: a
    clause of its own, which must itself be admitted (docs/math.md "Answer grammar", "Before a box"): an arrow that
    opens the math (`$\\therefore x =`) has only the words before the math, a space (`Answer: $\\quad`) none; else the premise is math without words
    (`$2x = 12 \\implies`), after an opening the grammar knows (a lead, a stating clause, `we have`, an anchor's
    words). Words in the premise's math or after it (`\\text{maybe}`, `$n$ odd`, `n odd`) condition, hedge or scale
    what the arrow states (red team 6 class 7: they were read by nobody)."""
    starts = list(_SEGMENT_START_RE.finditer(text))
    math = text[starts[-1].end():] if starts else text
    if not math.strip() and arrow in ("\\quad", "\\qquad"):
        return True  # `Answer: $\\quad \\boxed{6}$`: a space, no clause
    flat = _SEGMENT_CLOSE_RE.sub("$", _SEGMENT_OPEN_RE.sub("$", text))
    if any(_PROSE_WORD_RE.search(t) for t in _TEXT_GROUP_RE.findall(flat)):
        return False
    outside = _UNESCAPED_DOLLAR_RE.split(_TEXT_GROUP_RE.sub(" ", flat))[::2]
    words = _PROSE_WORD_RE.findall(re.sub(r"\\[A-Za-z]+", " ", " ".join(outside)))
    if not starts and words:
        return False  # `n odd \\implies`: words inside the premise's own math
    while words and _has("lead", words[0]):
        words = words[1:]
    words = _stated_tokens(words)
    while words and _has("lead", words[0]):
        words = words[1:]
    if len(words) == 2 and (_has("pronoun", words[0]) or words[0] == "I") and (
            _has("verb", words[1]) or words[1].lower() in _STATING_VERBS):
        return True  # `We have $2x = 12 \\implies`
    return all(w.lower() in ANCHOR_LEADS or w.lower() in _LABEL_WORDS for w in words)


def _opens(tokens: list[str]) -> bool:
    """How a box's clause opens (`box_clause`), read again after a stating main clause (`STATING_CLAUSES`: `we see
    that x is`, `In total it is`), so its clause is read as a sentence start: `we see that maybe x is` is none."""
    while tokens and _has("lead", tokens[0]):
        tokens = tokens[1:]  # `So,`, `Hence`, `Adding,`
    stated = _stated_tokens(tokens)
    if stated is not tokens:
        return not stated or _opens(stated)  # `This gives us \boxed{6}`; `It follows that x is`
    if not tokens or tokens[0].startswith("$") or len(tokens[0]) == 1 and tokens[0].isalpha() and tokens[0] not in "IiAa":
        # a math name or segment opens the subject (`$x$ is`, `n =`, `$f(3) =`); after a stated relation (`$z = 4$`,
        # `z = 4`) only `and` joins the next one: `z = 4 for w = \boxed{9}` states w under a condition (red team 5
        # class 3)
        related = bool(tokens) and ("=" in tokens[0] and tokens[0].endswith("$") and len(tokens[0]) > 1
                                    or len(tokens) > 1 and tokens[1] == "=")
        return not related or all(t.lower() == "and" for t in tokens if t.isalpha() and len(t) > 1)
    word = tokens[0].lower()
    if _has("pronoun", word) or tokens[0] == "I":  # `we get`, `it is`, `there are`; not `we doubt`, `I think`
        return len(tokens) > 1 and (_has("verb", tokens[1]) or tokens[1].lower() in _STATING_VERBS)
    if _is_name(tokens[0]):  # an owner (`Paula's investment is`) or an agent (`Sam swam`); not `Suppose the`
        return tokens[0].endswith(("'s", "’s")) or len(tokens) > 1 and _has("verb", tokens[1])
    if _has("prep", word) and not _has("det", word):
        # a preposition's phrase outside STATING_CLAUSES' openers scales, bounds or conditions what follows (`In
        # thousands we get`, `At least we get`, `For odd $n$ we get`, red team 4 class 3); before a link it is no noun
        # phrase either (`box_subject`)
        return False
    return word in ANCHOR_LEADS or word in _CLAUSE_OPENERS or _has("det", word)


# Class "the subject of a box" (red team 3, class 8): what a box's `is` or `=` states the box of. Kept apart
# from `box_clause` (how the clause opens) and `box_lead` (the word or mark right before the box) on purpose.
_BOX_COPULAS = _COPULAS | frozenset({"be", "been", "worth"})
"""Links that say what the subject is (`is`, `equals`, `will be`, `is worth`): the box is then the value of
the subject, so the subject is read. A verb of action (`Sam swam`, `we get`) has an agent, not a quantity."""
_VERB_CHAIN = frozenset("will must shall to has have had turns turned out by given worth equal".split())
_LINK_ADVERBS = frozenset("then therefore thus hence so also clearly indeed simply just exactly precisely actually "
                          "finally now".split())
"""What may stand between a link and its box (`is therefore \\boxed{6}`): none says what is stated."""
_OPEN_PREPS = frozenset({"of", "between", "among"})
"""Prepositions whose object says whose or which the quantity is (`the area of the trapezoid`, `the angle
between the lines`): the object's words are open-class (the question's own), guarded by `_NOT_OBJECTS`."""
_CLOSED_PREPS = frozenset({"in", "to", "for", "on", "at", "with", "from", "after"})
"""Prepositions whose object may say how the value is expressed (`in thousands`, `to the nearest ten`): the
object is read word by word with the lexicon (`in cm`, `in the box`, `to the question`, `for part (a)`)."""
_RELATIVE_OPENERS = frozenset({"that", "which", "where", "whose", "who", "such"})
_NOT_OBJECTS = NEVER_NAMES | frozenset(
    "times divided multiplied reciprocal inverse opposite rounded nearest percent percentage tens tenths hundredths "
    "thousandths scaled expressed converted attempt attempts try tries guesses estimates estimation approximation "
    "approximations error errors mistake mistakes bound bounds rounding".split())
"""What the open object slot never holds: the words that keep a name out of the name slot (`NEVER_NAMES`),
and those that make the object an operation on the quantity (`the value of x times 1000`, `the answer of x
rounded to`, `expressed in`), or a value that is not the answer (`the value of my first try`, `the result of
the approximation`): an open slot is guarded, as the name slot is."""


def _not_object(word: str) -> bool:
    """Whether `word` is `_NOT_OBJECTS` in any inflection: a plural or an `-th` fraction of a listed scale or hedge
    (`lakhs`, `crores`, `millionths` are `lakh`, `crore`, `million`: red team 5 class 6), so a scale's forms are one
    entry, not one per spelling."""
    stems = {word, word.removesuffix("s"), word.removesuffix("es"), word.removesuffix("s").removesuffix("th")}
    return bool(stems & _NOT_OBJECTS)


_SUBJECT_ADJECTIVES = frozenset("such only polar rectangular cartesian integer distinct sought desired asked".split())
"""Adjectives before a subject's head besides LEXICON's "adj" group (`the smallest such $n$`, `the polar
coordinates`, `the only integer roots`): each picks the quantity out, none scales, negates or hedges it."""
_SUBJECT_TOKEN_RE = re.compile(r"\$[^$]*\$|[^\W\d_]+(?:'s|’s)?|\d+(?:[.,]\d+)*|\S")


@_beside_value
def box_subject(clause: str, before: str, value: str | None = None) -> bool:
    """Whether what a box's `is` or `=` states it of is the answer or a quantity named as one (docs/math.md
    "Answer grammar", "Before a box"). `before`: the text before the box (its math); `clause`: the words of
    the box's clause (as `box_clause` reads them). After `=` (`\\equiv`, `\\in`) the first side of its chain
    passes `_side_states`: `$2x = \\boxed{6}$`, `$\\frac{x}{1000} = \\boxed{6}$`, `x (in thousands) =
    \\boxed{6}` state no answer. After a link verb (`is`, `equals`, `will be`) the subject passes
    `_noun_phrase`: `My first guess is`, `The error is`, `The answer in thousands is`, `$2x$ is` state none.
    Anything else (a verb of action, a label's colon, no link) is `box_lead`'s and `box_clause`'s. Both texts are
    read folded (`unicode_math.to_ascii_math`), as a concluding sentence's are (`extract`): `≤` is `\\le` to every
    reader of the subject, its conditions' too (red team 13 class 3)."""
    clause, before = to_ascii_math(clause), to_ascii_math(before)
    text = before[-MAX_CHARS:]
    stripped = re.sub(r"(?:\s|\$|\\[(\[]|\\displaystyle|\\[,;: !]|\\q?quad)+$", "", text)
    mark = next((m for m in ("\\equiv", "\\in", "=") if stripped.endswith(m)), None)
    if mark is not None:
        if mark == "=" and stripped[-2:-1] == ":":
            stripped = stripped[:-2] + "="  # `x := \\boxed{6}`
        # a line break before the relation is spacing: the side is on the line before (red team 16 class 1)
        stripped = re.sub(r"\s*\n\s*(?=(?:\\equiv|\\in|=)$)", " ", stripped)
        if mark == "=" and not _equals_subject(clause, stripped):
            return False
        side = _first_side(_joined_lines(stripped), value)
        # every side in numbers alone has the box's value, the first one too (red team 7 class 1: `$7 = \\boxed{6}$`)
        return side is not None and _side_states(side) and (value is None or _middle_values_agree(
            [side, _COPULA_SPLIT_RE.split(side)[-1]], value))  # `The answer is 7 = \\boxed{6}`: `7` is a side too
    return _copula_subject(clause)


def _joined_lines(text: str) -> str:
    """`text` with each line break in prose that ends no statement (`statement_lines`) read as a space, so the first side
    of the relation that ends it is read with the line above as on one line (fx29aj, red team 18 class 3: `The sum is
    not\nx =`, `It is unlikely that\nf(2) =` are `The sum is not x =`'s side, no name's); a break after a statement
    (`We get $a = 2$.\nx =`, a line of math alone, a sentence's opening) and a break inside math stay the side's stop."""
    ends = set(statement_lines(text, 0, len(text)))
    spans = _math_spans(text)
    out = list(text)
    for m in re.finditer(r"\n", text):
        if m.end() not in ends and not any(a <= m.start() < b for a, b in spans):
            out[m.start(): marks_end(text, m.end())] = " " * (marks_end(text, m.end()) - m.start())  # its line's marks
            # too: `The sum is not\n> x =`, `... not\n1. x =` are `The sum is not x =`, no order relation or list number
    return "".join(out)


def _equals_subject(clause: str, before: str) -> bool:
    """Whether the words and math before a box's `=` (`clause`: the box's clause; `before`: the text before the box,
    ending with the `=`) name what the box is the value of, read as
    the subject of `is` is (one subject reader for `is` and `=`, red team 16 class 2): when the `=` follows a closed math
    segment (`The value of 1000 $x$ =`, `$2x$ =`, `The smallest integer $n$ such that $n > 1$ =`), the clause up to it
    is the subject, `_copula_subject` of it with `is`; when the side opens its own math right after words with no verb
    (`The value of 1000 $x =`), those words and the side are. A side in math after a verb, a link or a connective
    (`We get $x =`, `Thus, $x =`) or with no math (`x =`, `Total =`) is `_first_side`'s alone, but the subject before a
    link is read (`The answer in thousands is $x =`). A comma or semicolon inside the box's own math only chooses its side
    (fx29ae, red team 17 class 5): the words before the math are read as without it (`Maybe $a, x =`, `The answer in
    thousands is $a, x =`), and each side before the restart is a relation stated (`_stated_relation`: `$a = 2, x =`;
    not `$n < 3, x =`, `$a, x =`)."""
    flat = _SEGMENT_CLOSE_RE.sub("$", _SEGMENT_OPEN_RE.sub("$", _CLAUSE_MARKUP_RE.sub(" ", to_ascii_math(clause))))
    flat = re.sub(r"(?:\s|\\[,;: !])*(?<!\\)\$?\s*$", "", flat) if flat.count("$") % 2 else flat  # the box's own open math
    flat = re.sub(r"\s*:?=\s*(?<!\\)\$?\s*$", "", flat)  # `We have $y = $\\boxed{2}$`: a segment closed after its `=`
    if not flat.strip():
        # a clause of a bare `=` (its line starts with it): the side is on the line before (`x = 2 + 4\n= \\boxed{6}`)
        flat = _SEGMENT_CLOSE_RE.sub("$", _SEGMENT_OPEN_RE.sub("$", before[:-1]))
        clause = _BOX_CLAUSE_START_RE.split(flat)[-1]
    else:
        clause = flat
    dollars = [m.start() for m in _UNESCAPED_DOLLAR_RE.finditer(clause)]
    if not dollars:
        clause = _own_math_clause(before) or clause  # the clause started at a restart inside the box's math
        dollars = [m.start() for m in _UNESCAPED_DOLLAR_RE.finditer(clause)]
    if not dollars:
        return True
    if len(dollars) % 2 == 0:
        if clause[dollars[-1] + 1:].strip():
            return True  # `$x$ + 1 =`, `$x$ and y =`: the side after the math, `_first_side`'s
        return _copula_subject(clause[: dollars[-1] + 1] + " is")
    words, side = clause[: dollars[-1]], clause[dollars[-1] + 1:]
    parts = _restarts(side)
    if not all(_stated_relation(part) and _agrees_with_box(part, parts[-1]) for part in parts[:-1]):
        return False  # `$n < 3, x =`, `$a, x =`: a condition or a bare name before the box's side; `$x = 7, x =`:
        # the box's own name given another value (fx29ah, red team 18 class 7)
    link = _split_link(words)
    if link is None:
        return False
    subject = [t for t in link.subject if t not in _LEAD_MARKS]
    if not subject:
        return True  # `Thus, $x =`, `$a = 2, x =`
    if link.verbed:
        return _copula_subject(words)  # `We get $x =`, `The answer is $x =`; not `The answer in thousands is $x =`
    if all(t.lower() == "and" or "=" in t and t.startswith("$") for t in subject):
        return True  # `Hence $x = 5$ and $y =`: relations joined by `and` (`box_clause`)
    return _copula_subject(words + " $" + parts[0].split("=")[0] + "$ is")


def _own_math_clause(before: str) -> str | None:
    """The box's clause read from the words before its own math when that math holds a comma or semicolon (the box's
    clause then starts inside it: `Maybe $a, x =` -> `Maybe $a, x`), back to a clause's start outside math
    (`_BOX_CLAUSE_START_RE`); None when the box stands in no math of its own or its math holds no restart."""
    flat = _SEGMENT_CLOSE_RE.sub("$", _SEGMENT_OPEN_RE.sub("$", _CLAUSE_MARKUP_RE.sub(" ", to_ascii_math(before))))
    dollars = [m.start() for m in _UNESCAPED_DOLLAR_RE.finditer(flat)]
    if len(dollars) % 2 == 0:
        return None
    math = re.sub(r"\s*:?=\s*$", "", flat[dollars[-1] + 1:])
    if len(_restarts(math)) < 2:
        return None
    words = flat[: dollars[-1]]
    masked = _INLINE_MATH_RE.sub(lambda m: "§" * len(m.group()), words)  # a comma in earlier math starts no clause
    starts = [m.end() for m in _BOX_CLAUSE_START_RE.finditer(masked)]
    return words[starts[-1] if starts else 0:] + "$" + math


def _restarts(side: str) -> list[str]:
    """`side` split at each comma or semicolon outside brackets: the chains a box's math holds, the box's last."""
    parts, depth, last = [], 0, 0
    for m in re.finditer(r"\\[{}]|[,;{}()\[\]]", side):
        t = m.group()
        if t in ("(", "[", "{", "\\{"):
            depth += 1
        elif t in (")", "]", "}", "\\}"):
            depth = max(depth - 1, 0)
        elif depth == 0 and not (t == "," and _LIST_COMMA_RE.match(side, m.start()) is None):
            parts.append(side[last: m.start()])
            last = m.end()
    return parts + [side[last:]]


def _stated_relation(part: str) -> bool:
    """A chain before the box's own in its math (`_equals_subject`): `=` relations of names and computations only (`a =
    2`, `y = 2 + 3`), each side on `_chain_tokens`' allowlist with no order relation, arrow or word (`n < 3`, `x > 5`,
    `a` alone, `n \\text{ odd}` state a condition or nothing). A `?` is no relation's part, and a `!` only a factorial's,
    glued to what it follows and not to an `=` (fx29ah, red team 18 class 7: `n != 3` is `n \\ne 3`, `x = 6?` asks)."""
    tokens = _SIDE_TOKEN_RE.findall(part)
    return "=" in tokens and _chain_tokens(tokens) and not _side_words(part) and not any(
        t in _SIDE_RELATIONS and t != "=" or t in _SIDE_STOPS and t not in ",;" or t in ("<", ">", "?") or t == "!" and (
            k == 0 or tokens[k - 1].isspace() or "".join(tokens[k + 1:]).lstrip().startswith("="))
        for k, t in enumerate(tokens))


def _name_key(side: str) -> str:
    """A chain's side as the parser reads its name (`_agrees_with_box`): no spacing, `\\left`/`\\right` or spacing
    command; `\\dfrac`/`\\tfrac` as `\\frac`; a script's braces around one letter or digit dropped (`x_{1}` is `x_1`);
    braces or parentheses around the whole side dropped (`{x}`, `{{x}}`, `(x)`, `\\left(x\\right)` are `x`; fx29ao, red team
    20 class 5: `$x_{1} = 7, x_1 = \\boxed{6}$` gave the name another value unread)."""
    side = re.sub(r"\\(?:left|right)(?![A-Za-z])|\\[,;:! ]|\s", "", side)
    side = re.sub(r"\\[dt]frac(?![A-Za-z])", r"\\frac", side)
    side = re.sub(r"([_^])\{([A-Za-z0-9])\}", r"\1\2", side)
    for _ in range(8):  # bounded: each pass drops one pair
        if len(side) > 1 and side[0] + side[-1] in ("{}", "()") and _wraps(side):
            side = side[1:-1]
        else:
            break
    return side


def _wraps(side: str) -> bool:
    """Whether `side`'s first bracket closes at its last character (`(x)`, `{x}`; not `(a)(b)`, `{a}{b}`)."""
    depth = 0
    for k, c in enumerate(side):
        depth += 1 if c in "({" else -1 if c in ")}" else 0
        if depth == 0 and k < len(side) - 1:
            return False
    return depth == 0


def _agrees_with_box(part: str, own: str) -> bool:
    """Whether a chain before the box's own in its math (`part`) gives no side of the box's chain (`own`, up to the box:
    `x` of `x =`, `x` and `2 + 4` of `x = 2 + 4 =`) another value: a chain that shares a side with the box's holds the
    box's value on every side (fx29ah, red team 18 class 7). An allowlist (fx29am, red team 19 class 2): each of its
    sides is a side of the box's chain, the box's own text, or a value read in numbers (`_approximated`: `_arithmetic`'s,
    with `\\sqrt` and `\\pi`) equal to the box's (`$x = 2 + 4, x =`, `$x = \\sqrt{36}, x =`, `$x = 3!, x =` are;
    `$x = 7, x =`, `$x = 6000, x =`, `$x = \\sqrt{36000}, x =`, `$x = 20!, x =`, `$x = 6k, x =`, `$x = 6\\%, x =` are
    not). `:=` is `=`, and names are compared as the parser reads them (`_name_key`: `${x} = 7, x =`, `$x_{1} = 7, x_1 =`,
    `$(x) = 7, x =`)."""
    def sides(chain: str) -> list[str]:
        return [_name_key(side) for side in re.sub(r":\s*=", "=", chain).split("=")]

    value = _BOX_VALUE.get()
    mine, theirs = sides(part), {s for s in sides(own) if s}
    if not set(mine) & theirs:
        return True  # `$a = 2, x =`: another name's chain
    if value is None:
        return False
    text = sides(value)[0] if "=" not in value else None
    final = _approximated(value)
    tolerance = 1e-9 * max(1.0, abs(final)) if final is not None else 0.0
    decimals = re.fullmatch(r"\s*-?\d*\.(\d+)\s*", value)  # `10/3 = 3.33`: the value rounded to its own digits
    if decimals:
        tolerance = 0.5 * 10 ** -len(decimals.group(1))

    def agrees(side: str) -> bool:
        if side in theirs or side == text:
            return True
        read = _approximated(side) if final is not None else None
        return read is not None and final is not None and abs(read - final) <= tolerance

    return all(agrees(side) for side in mine)


_BOX_CLAUSE_START_RE = re.compile(r"(?<!\.)[.!?](?=\s)|[。！？：；]|[,，;:](?!\d)")


_COPULA_SPLIT_RE = re.compile(r"(?<![\\\w])(?:is|are|was|were|be|equals|equal)(?!\w)")
"""A copula inside a chain's first side written in prose (`The answer is 7 =`): what follows it is the side's value."""


_SIDE_TOKEN_RE = re.compile(r"\\\\|\\begin\s*\{[^{}]*\}|\\end\s*\{[^{}]*\}|\\[A-Za-z]+|\\.|\s+|.", re.DOTALL)
_SIDE_STOPS = frozenset({"$", "\\(", "\\[", "\\)", "\\]", ",", ";", "\n", "\\Rightarrow", "\\implies", "\\iff",
                         "\\therefore", "\\Longrightarrow", "\\quad", "\\qquad", "\\rightarrow", "\\to"})
_SIDE_RELATIONS = frozenset({"=", "\\equiv", "\\in", "<", ">", "\\le", "\\leq", "\\ge", "\\geq", "\\ne", "\\neq",
                             "\\approx", "\\sim", "\\cong", "\\leqslant", "\\geqslant"})
_OPEN = {"(": ")", "[": "]", "{": "}"}
_OPENERS = frozenset(_OPEN) | {"\\{"}
_CLOSERS = frozenset(_OPEN.values()) | {"\\}"}
"""Brackets a chain's sides nest in: a set's `\\{ \\}` too, so its comma is inside a side, not a clause's end."""
_LIST_COMMA_RE = re.compile(r",(?!(?<=\d,)\d{3}(?!\d))")
"""A comma that separates values (`6, 7`), not a thousands separator (`1,000`)."""


def _middles_compute(middles: list[list[str]], value: str | None) -> bool:
    """Whether a chain's middle sides compute the box's value: no word but a unit in any of them (`z = 4 \\text{ for }
    w =`, `x = \\text{roughly } 6 =`: red team 5 class 3), each read whole (`z = 4 for w =`: red team 6 class 3 read it
    letter by letter), no small quantity (`6 + \\epsilon`), and one in numbers alone has the box's value (`x = 7 =
    \\boxed{6}`, `x = 6 \\cdot 10^3 = \\boxed{6}`)."""
    if any(_side_words("".join(side)) or _SMALL_QUANTITIES & set(side) or _LIST_COMMA_RE.search("".join(side))
           for side in middles):
        return False  # `x = \\{6, 7\\} =`, `x = (6, 7) =`: a middle side of several values
    return value is None or _middle_values_agree(["".join(side) for side in middles], value)


_CHAIN_CHARS = frozenset("+-*/^_()[]{}.,'|!&:=<>?;") | frozenset("∠°π′·×÷−")
_CHAIN_COMMANDS = frozenset(
    "cdot times div frac dfrac tfrac sqrt left right bigl bigr Bigl Bigr big Big displaystyle quad qquad pi infty "
    "sin cos tan cot sec csc log ln exp arcsin arccos arctan sinh cosh tanh angle measuredangle triangle overline "
    "overrightarrow vec hat bar circ degree prime binom dbinom tbinom choose lfloor rfloor lceil rceil lvert rvert vert "
    "mid ldots cdots dots dotsm dotsb max min gcd lcm lim sum prod int det mod bmod pmod mathbb cong sim equiv in le leq "
    "ge geq ne neq approx leqslant geqslant Rightarrow implies iff therefore Longrightarrow rightarrow to begin end "
    "operatorname".split())
"""What a box's relation chain may hold outside a font group (`\\text{}`): ASCII letters and digits, arithmetic,
brackets, the relations `_SIDE_RELATIONS` reads, names' commands and functions. An allowlist (red team 6 class 2: a
relation the chain did not list, `\\gtrsim`, `≥`, `\\not=`, `\\overset{?}{=}`, `约`, stayed in a side that read as a
name or a computation; class 3: `\\pm`, `\\vee`, `\\lor`, `für`, `около` in a middle side): anything else, no reading."""
_SMALL_QUANTITIES = frozenset({"\\epsilon", "\\varepsilon", "\\delta"})
"""Greek letters that name a small quantity: `6 + \\epsilon` is near the value, not it."""
_FONT_GROUP_RE = re.compile(r"\\" + _FONT_CMD + r"$")


def _chain_tokens(tokens: list[str], commands: frozenset[str] = _CHAIN_COMMANDS,
                  chars: frozenset[str] = _CHAIN_CHARS) -> bool:
    """Whether every token of a chain (`_first_side`'s, from the math's start to the box) is on `chars` / `commands`
    (`_CHAIN_CHARS`, `_CHAIN_COMMANDS`; a display's term: `_plain_term`'s), or stands inside a font group, whose words
    `_side_words` and `_side_states` read."""
    font, depth = -1, 0  # the depth a font group opened at, or -1
    for k, t in enumerate(tokens):
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
            font = -1 if depth == font else font
            continue
        if font >= 0 or t.isspace() or t == "\\\\" or t.isascii() and t.isalnum() or t in chars:
            continue
        if _FONT_GROUP_RE.match(t) and k + 1 < len(tokens) and tokens[k + 1] == "{":
            font = depth + 1
            continue
        if t.startswith("\\") and (t[1:] in commands or t[1:] in _GREEK or len(t) == 2 and not t[1].isalpha() and t[1] not in "#&"):
            continue  # `\\,`, `\\{`, `\\%`
        return False
    return True


_RELATION_COMMANDS = frozenset(
    "cong sim equiv in le leq ge geq ne neq approx leqslant geqslant Rightarrow implies iff therefore Longrightarrow "
    "rightarrow to mid".split())
_TERM_COMMANDS = (_CHAIN_COMMANDS - _RELATION_COMMANDS - {"begin", "end"}) | {"boxed"}
_TERM_CHARS = _CHAIN_CHARS - frozenset("=<>?;:")
"""What a bare term in a display may hold (`_plain_term`): the chain's allowlist (`_CHAIN_COMMANDS`, `_CHAIN_CHARS`) less
its relations, arrows and a question's mark: arithmetic, brackets, names and functions (`2 \\times 3`, `\\frac{12}{2}`,
`6 \\times 3^{2007}`, `(11, 7)`), and a box of such a term (Omni-MATH's `\\[\\boxed{2^{2019} - 1}\\]` above its inline box)."""


_MIDDLE_NUMBER_RE = re.compile(r"[0-9.+\-*/() E]{1,60}")
_Value = TypeVar("_Value", float, Fraction)


def _arithmetic(side: str) -> float | None:
    """The value of a middle side written in numbers and `+ - \\cdot \\times / ^ \\frac` only, else None."""
    return _evaluated(side, _walk)


_DECIMAL_LITERAL_RE = re.compile(r"\d*\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+")


def _exact_arithmetic(side: str) -> Fraction | None:
    """`_arithmetic`'s value read exactly, each number as written (`0.1 + 0.2` is 3/10, `5.9999999999` is no 6): where a
    value must be the box's own (`_states_box`), no tolerance. A decimal of more than 15 digits, which a float does not
    hold (`5.99999999999999999999` reads as 6.0), has no exact value here."""
    if any(len(re.sub(r"\D", "", d).lstrip("0")) > 15 for d in _DECIMAL_LITERAL_RE.findall(side)):
        return None
    return _evaluated(side, _exact_walk)


def _evaluated(side: str, walk: Callable[[ast.expr], _Value | None]) -> _Value | None:
    """A side's value by `walk` (a float's or an exact one) over `_arithmetic_tree`, None where it is no arithmetic
    or its value is undefined (a division by zero, an overflow)."""
    tree = _arithmetic_tree(side)
    if tree is None:
        return None
    try:
        return walk(tree)
    except (ArithmeticError, ValueError, TypeError):
        return None


_POWER_SIDE_RE = re.compile(r"[0-9.+\-*/() ]{1,60}")
_EXPONENT_RE = re.compile(r"\(?-?\d{1,2}\)?")


def _powers_of_small_integers(text: str) -> bool:
    """A side with powers, read by a split and two flat patterns: at most 60 characters of numbers and operators, at
    most two `**`, each followed by a small integer. The one regex it replaces nested its quantifiers over the same
    characters and backtracked exponentially (red team 38 class 10: 13 s of CPU at 83 bytes, on the event loop); the
    bound on characters is `_MIDDLE_NUMBER_RE`'s, so no walk of the tree recurses past Python's limit (class 9)."""
    parts = text.split("**")
    return (len(parts) <= 3 and _POWER_SIDE_RE.fullmatch(text) is not None
            and all(_EXPONENT_RE.match(part) for part in parts[1:]))


def _arithmetic_tree(side: str) -> ast.expr | None:
    """The parsed expression of a side written in numbers and `+ - \\cdot \\times / ^ \\frac` only, else None: at most
    two powers, each of small integers (bounded work)."""
    text = re.sub(r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}", r"((\1)/(\2))", side)
    text = re.sub(r"\\(?:cdot|times)", "*", text).replace("\\div", "/").replace("{", "(").replace("}", ")")
    text = re.sub(r"\\(?:left|right|[,;:! ])", " ", text).replace("^", "**")
    text = re.sub(r"(?<![\w.])(1?\d)\s*!", lambda m: f"({math.factorial(int(m.group(1)))})", text)  # `6!`: 720 (fx29ah)
    text = re.sub(r"(?<=\d)[eE](?=[+-]?\d)", "E", text)  # `6e3`: a number in scientific notation
    text = re.sub(r"(?<=[\d)])\s*(?=\()", "*", text)  # `2(6 + 3)`: a product written by juxtaposition
    if "**" in text:  # `6 \\cdot 10^3`: at most two powers, each of small integers
        if not _powers_of_small_integers(text.strip()):
            return None
    elif not _MIDDLE_NUMBER_RE.fullmatch(text.strip() or "x"):
        return None
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError):
        return None
    return None if sum(isinstance(node, ast.Pow) for node in ast.walk(tree)) > 2 else tree.body


_BINARY = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.Div: lambda a, b: a / b}


def _walk(node: ast.expr) -> float | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _walk(node.operand)
        return None if inner is None else -inner if isinstance(node.op, ast.USub) else inner
    if not isinstance(node, ast.BinOp):
        return None
    left, right = _walk(node.left), _walk(node.right)
    if left is None or right is None:
        return None
    if isinstance(node.op, ast.Pow):
        return float(left ** right) if abs(right) <= 30 and right == int(right) else None
    op = _BINARY.get(type(node.op))
    return None if op is None else float(op(left, right))


def _exact_walk(node: ast.expr) -> Fraction | None:
    """`_walk` in exact fractions: a number is the decimal it is written as (`repr` of a float literal of up to 15
    digits gives them back), a power's exponent a whole number of at most 30."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return Fraction(repr(node.value)) if isinstance(node.value, float) else Fraction(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _exact_walk(node.operand)
        return None if inner is None else -inner if isinstance(node.op, ast.USub) else inner
    if not isinstance(node, ast.BinOp):
        return None
    left, right = _exact_walk(node.left), _exact_walk(node.right)
    if left is None or right is None:
        return None
    if isinstance(node.op, ast.Pow):
        return left ** int(right) if abs(right) <= 30 and right.denominator == 1 else None
    op = _BINARY.get(type(node.op))
    return None if op is None else Fraction(op(left, right))


def chain_agrees(answer: str) -> bool:
    """Whether an anchored answer that is an `=` chain (`x = 2 \\cdot 3 = 6`) has, in every middle side written in
    numbers alone, its last side's value (red team 6 class 3: `Final Answer: x = 7 = 6`, `x = 6000 = 6` paid 6). The
    lenient last-expression fallback asks it too: `So, $x = 7 = 6$.` states two values in either profile."""
    text = answer.strip().strip("$").strip().rstrip(".").strip()
    sides = text.split("=")
    if len(text) > MAX_CHARS or len(sides) < 3:
        return True
    return _middle_values_agree(sides[:-1], sides[-1])  # the first side too (red team 7 class 1: `7 = 6`)


_APPROXIMATION_RE = re.compile(r"\\(?:approx|approxeq|thickapprox|simeq|sim|thicksim|doteq|doteqdot)(?![A-Za-z])|≈|≃|~=")
_ROUNDED_RE = re.compile(r"-?\d+(?:\.(\d+))?")


def approximation_agrees(answer: str) -> bool:
    """Whether every side after an approximation (`\\approx`, `\\simeq`, `\\sim`, `\\doteq`, `≈`) is a decimal that
    the side before the first one rounds to at the digits written (`\\frac{1}{3} \\approx 0.333`); True with no
    approximation. An allowlist: a first side not in numbers (`x`, `\\pi`), or a later one that is no plain decimal
    (`6\\,000`, `6 \\times 10^3`, `6000 \\text{ apples}`), refuses (red team 9 class 4: `\\boxed{6 \\approx 7}`
    paid 6, the parser reads the first side and no one compared the second; docs/math.md "Answer grammar")."""
    sides = _APPROXIMATION_RE.split(answer)
    if len(sides) < 2:
        return True
    first = _approximated(sides[0].split("=")[-1].strip().strip("$"))
    if first is None:
        return False
    for side in sides[1:]:
        written = side.strip().strip("$").strip().rstrip(".").strip()
        m = _ROUNDED_RE.fullmatch(written)
        if not m or abs(float(written) - first) > 0.5 * 10 ** -len(m.group(1) or ""):
            return False
    return True


def _approximated(side: str) -> float | None:
    """The value of an approximation's first side: `_arithmetic`'s numbers with `\\sqrt{...}` of numbers and `\\pi`
    (`\\frac{\\sqrt{3}}{3} \\approx 0.577`, `2\\pi \\approx 6.28`), else None."""
    def root(m: re.Match[str]) -> str:
        inner = _arithmetic(m.group(1))
        return f"({inner ** 0.5!r})" if inner is not None and inner >= 0 else "x"

    text = re.sub(r"\\sqrt\s*\{([^{}]*)\}", root, side)
    text = re.sub(r"\\pi(?![A-Za-z])", f"({math.pi!r})", text)
    return _arithmetic(text)


def _middle_values_agree(middles: list[str], value: str) -> bool:
    """Whether every middle side written in numbers alone has the box's value (red team 6 class 3: `x = 7 =
    \\boxed{6}`, `x = 6000 = \\boxed{6}` paid 6): a side that is not arithmetic, or a value not arithmetic, is
    left to the other rules."""
    final = _arithmetic(value)
    if final is None:
        return True
    decimals = re.fullmatch(r"\s*-?\d*\.(\d+)\s*", value)  # `10/3 = 3.33`: the value rounded to its own digits
    tolerance = 0.5 * 10 ** -len(decimals.group(1)) if decimals else 1e-9 * max(1.0, abs(final))
    for side in middles:
        middle = _arithmetic(side)
        if middle is not None and abs(middle - final) > tolerance:
            return False
    return True


def _first_side(text: str, value: str | None = None) -> str | None:
    """The first side of the relation chain that `text` ends with its relation (`p(8) = \\frac{q(8)+8}{63} =` -> `p(8)`), back to
    the math's start, a comma, an arrow or a line; an aligned row that opens with its relation (`&= 50 + 40`)
    continues the row before it. Depth-aware: `(q, r)` and `f(x = 1)` are one side. None when an order relation or an
    approximation restarts the chain and the side right after it is no name (`x \\geq 2 \\cdot 3 =`, `x \\approx 6 =`:
    the box is the bound's value, red team 5 class 2), while `0 < x =` states x."""
    tokens = _SIDE_TOKEN_RE.findall(text)
    depth, i = 0, len(tokens)
    while i > 0:
        t = tokens[i - 1]
        if t in _CLOSERS:
            depth += 1
        elif t in _OPENERS:
            if depth == 0:
                break  # an unclosed bracket: the box is inside it
            depth -= 1
        elif depth == 0 and (t in _SIDE_STOPS or t.startswith(("\\begin", "\\end")) or t == ":" and (
                i >= len(tokens) or tokens[i] != "=") or t in ".?" and (i >= len(tokens) or tokens[i].isspace())):
            break  # the math's start, a clause's or a sentence's end
        elif depth == 0 and t == "\\\\":
            row = "".join(tokens[i:]).replace("&", "").lstrip()
            if not any(row.startswith(r) for r in _SIDE_RELATIONS):
                break  # a new row states its own chain
        i -= 1
    if not _chain_tokens(tokens[i:]):
        return None  # a relation, an operator or a script the chain's allowlist does not know (red team 6 class 2)
    sides: list[list[str]] = [[]]
    depth, bounded = 0, False
    for t in tokens[i:]:
        depth += 1 if t in _OPENERS else -1 if t in _CLOSERS else 0
        if t in _SIDE_RELATIONS and t != "=" and (depth > 0 or t not in ("\\equiv", "\\in") and _side_words(
                "".join(sides[-1]))):
            return None  # `{a + b \geq 2 \cdot 3} =`: an order relation inside a group bounds it all; `The answer in
            # thousands is \\approx x =`, `The sum is not > x =`: one after prose is a word of its clause, which states
            # no name's value (fx29am, red team 19 class 8)
        if depth == 0 and t in _SIDE_RELATIONS:
            # an order relation restarts the chain (`0 < x = \\boxed{3}` states x): only `=`, `\\equiv`
            # and `\\in` carry the first side's name to the box
            bounded = bounded or t not in ("=", "\\equiv", "\\in")
            sides = [[]] if t not in ("=", "\\equiv", "\\in") else [*sides, []]
        elif t not in ("&", "\\\\"):
            sides[-1].append(t)
    if not _middles_compute(sides[1:], value):
        return None
    first = "".join(sides[0]).strip()
    compact = re.sub(r"\\(?:left|right)(?![A-Za-z])|\s", "", first)
    if bounded and not (_MATH_NAME_RE.match(compact) or _SIDE_NAME_RE.match(compact) or _names_tuple(compact)):
        return None
    return first


_GREEK = frozenset("alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi rho "
                   "sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Sigma Phi Psi Omega".split())
_GREEK_UNICODE_NAMES = {"varepsilon": "GREEK LUNATE EPSILON SYMBOL", "vartheta": "GREEK THETA SYMBOL",
                        "varphi": "GREEK PHI SYMBOL"}


def _greek_character(name: str) -> str:
    """The Unicode character of `_GREEK`'s `name` (`alpha` -> `α`, `Delta` -> `Δ`; Unicode spells lambda `LAMDA`)."""
    case = "CAPITAL" if name[0].isupper() else "SMALL"
    spelled = name.upper().replace("LAMBDA", "LAMDA")
    return unicodedata.lookup(_GREEK_UNICODE_NAMES.get(name, f"GREEK {case} LETTER {spelled}"))


_GREEK_LETTERS = frozenset(_greek_character(n) for n in _GREEK)
"""`_GREEK`'s letters as written in Unicode (`α`, `Δ`, `ϕ`): the Greek letters math uses as symbols, the one list
(`math_letter`). `π` is `\\pi` already (`to_ascii_math`), a constant, and no name."""


def math_letter(w: str) -> bool:
    """Whether `w` is one math letter: ASCII Latin (the alphabet `_MATH_NAME_RE` names) or one of `_GREEK_LETTERS`. An
    allowlist: `isalpha` holds for any script's character, and a one-character word of another script is a word, not a
    symbol (red team 29 class 1: `约：\\boxed{6}` ("about"), `千：`, `非：`, `Step 约:` paid as a label's math name)."""
    return len(w) == 1 and (w.isascii() and w.isalpha() or w in _GREEK_LETTERS)
_SIDE_NAME_RE = re.compile(
    r"(?:[A-Za-z](?:'{1,3}|\^\{-1\})\([^()=]{1,12}\)|\\(?:overline|overrightarrow)\s*\{[A-Z]{2,3}\}|\\vec\s*\{?[A-Za-z]\}?|m?\s*(?:\\angle|∠|\\measuredangle)\s*"
    r"[A-Za-z0-9]{1,3}|\\(?:" + "|".join(sorted(_GREEK)) + r")(?![A-Za-z])(?:_\{?[A-Za-z0-9]{1,3}\}?)?)$")
_SIDE_VARIABLE_RE = re.compile(
    r"(?:[A-Za-z]|\\(?:" + "|".join(sorted(_GREEK)) + r")(?![A-Za-z]))(?:_\{[^{}]{1,6}\}|_[A-Za-z0-9])?"
    r"(?:\([^()A-Za-z]{0,12}\))?")
_SIDE_TEXT_RE = re.compile(r"\\" + _FONT_CMD + r"\s*\{([^{}]*)\}")
_SIDE_COMMAND_RE = re.compile(r"\\[A-Za-z]+")


def _side_states(side: str) -> bool:
    """Whether the first side of a box's `=` chain names what the box is the value of (docs/math.md "Answer
    grammar", "Before a box"). Admitted: nothing (a continued line), a name (`x`, `x_0`, `f(3)`, `(q, r)`,
    `\\angle ABC`, `\\theta`, `AB`), a computation without unknowns (`\\frac{1}{2} \\times 3 \\times 10`,
    `f(-2)+f(-1)+f(0)`), an expression of two or more unknowns that does not scale, negate or invert the
    whole (`x - p`, `\\sin(a+b) - \\sin(a-b)`: an identity's target), and a noun phrase in words (`Total`,
    `\\text{Area}`). Refused: a function of one unknown (`2x`, `x^2`, `x^{-1}`, `-x`, `\\frac{x}{1000}`,
    `\\sqrt{x}`, `10^x`, `x + 1`, `x \\cdot 10^{-3}`: the box is not the unknown's value), a scaled whole
    (`2ab`, `\\frac{ab}{1000}`, `-(a+b)`), and words outside the noun phrase (`x (in thousands)`,
    `\\text{wrong}`). An allowlist: what is not one of these shapes states no answer."""
    side = re.sub(r"\\(?:left|right|displaystyle|[,;:! ]|q?quad)(?![A-Za-z])|\\bigl|\\bigr|[&\s]", " ", side).strip()
    if not side:
        return True
    words = re.findall(r"[^\W\d_]+", " ".join(_SIDE_TEXT_RE.findall(side)))
    words += [r for r in re.findall(r"(?<![A-Za-z])[A-Za-z]{2,}(?![A-Za-z])", _SIDE_COMMAND_RE.sub(" ", _SIDE_TEXT_RE.sub(
        " ", side))) if _prose_run(r)]
    if words and all(_is_unit(w) or _has("currency", w) for w in words):
        side = _SIDE_TEXT_RE.sub(" ", side)  # `5 \\text{ cm} + 1 \\text{ cm}`: units on a computation's numbers
        side = re.sub(r"(?<![A-Za-z\\])[A-Za-z]{2,}(?![A-Za-z])", lambda m: " " if _prose_run(m.group()) else m.group(), side)
        side = side.strip()
        if not side:
            return False
    elif words:
        return _prose_side(_SIDE_TEXT_RE.sub(lambda m: " " + m.group(1) + " ", side))
    compact = side.replace(" ", "")
    applied = re.match(r"([A-Za-z])(?:_\{?[A-Za-z0-9]{1,3}\}?)?\((.*)\)$", compact)
    if applied and applied.group(1) not in FUNCTION_LETTERS and not applied.group(2).replace(",", "").isalpha():
        return False  # `x(1000)`, `n(1000)`: a product with the unknown as much as a function's value (`FUNCTION_LETTERS`)
    if _MATH_NAME_RE.match(compact) or _SIDE_NAME_RE.match(compact) or _names_tuple(compact) or _RESIDUE_RE.match(compact):
        return True
    unknowns = {m.group().replace(" ", "") for m in _SIDE_VARIABLE_RE.finditer(_SIDE_COMMAND_NOT_GREEK_RE.sub(" ", side))}
    unknowns -= {"e", "i"}  # Euler's number and the imaginary unit are constants: `e^x` is a function of x alone
    unknowns -= set(_BOUND_VARIABLE_RE.findall(compact))  # `\\sum_{k=1}^{3} k`: a sum's index is no unknown
    if not unknowns:
        return True  # a computation: the box is its value
    if len(unknowns) < 2:
        return False
    if _top_terms(compact) > 1:
        return not _scaled_whole(compact)  # `x - p`, `2a + 3b`: an identity's target
    return bool(_NAMES_PRODUCT_RE.fullmatch(compact))  # one term: a product of names (`ab`, `xy`, `a \cdot b`) only


_NAME_FACTOR = r"(?:[A-Za-z]|\\(?:" + "|".join(sorted(_GREEK)) + r")(?![A-Za-z]))(?:_\{?[A-Za-z0-9]{1,3}\}?)?"
_NAMES_PRODUCT = _NAME_FACTOR + r"(?:(?:\\cdot|\\times|\*)?" + _NAME_FACTOR + r")*"
_NAMES_PRODUCT_RE = re.compile(_NAME_FACTOR + r"(?:(?:\\cdot|\\times|\*)?" + _NAME_FACTOR + r")+|\\[dt]?frac\{"
                               + _NAMES_PRODUCT + r"\}\{" + _NAMES_PRODUCT + r"\}|" + _NAMES_PRODUCT + "/" + _NAMES_PRODUCT)
"""One term of several unknowns that names a quantity: names multiplied (`ab`, `xy`, `a\\cdot b`, `x_1x_2`) or divided
(`\\frac{a}{b}`, `x/y`). An
allowlist (red team 6 class 6: a list of scale shapes missed `(a+b)^2`, `\\sqrt{ab}`, `|a+b|`, `(a+b)(1000)`,
`\\log(ab)`): a power, root, absolute value, function or number of the whole is no name of the answer."""


def _top_terms(side: str) -> int:
    """How many terms `side` sums at its top level (a `+` or `-` outside brackets and bars, not a sign)."""
    side = re.sub(r"\\(?:lfloor|lceil|lvert|langle|left\|)", "(", side)
    side = re.sub(r"\\(?:rfloor|rceil|rvert|rangle|right\|)", ")", side)
    depth, terms, bar = 0, 1, False
    for k, c in enumerate(side):
        if c == "|":  # `|a+b|`: bars bracket what they hold
            bar = not bar
            depth += 1 if bar else -1
        depth += 1 if c in "({[" else -1 if c in ")}]" else 0
        if depth == 0 and c in "+-" and k > 0 and side[k - 1] not in "^_({[=":
            terms += 1
    return terms


_RESIDUE_RE = re.compile(r"(?:[A-Za-z]" + _NAME_MARK + r"?|\\(?:" + "|".join(sorted(_GREEK)) + r"))\\(?:bmod|mod)(?![A-Za-z])\{?\d{1,12}\}?$")
"""A name reduced modulo a number (`N \\bmod 1000`, `a_{2024} \\mod 7`): the remainder a question asks for, as `the
remainder when $N$ is divided by $1000$` in words (`_DIVISION_HEADS`); a function of the name, as `the units digit of
$N$` is (docs/math.md "Answer grammar", "The subject of a box", class 10). Only a name and a number: `2N \\bmod 1000`,
`N^2 \\bmod 1000`, `N \\bmod k`, `N \\bmod 1000 + 1` are no residue of the name and stay refused."""
_BOUND_VARIABLE_RE = re.compile(r"\\(?:sum|prod)_\{([A-Za-z])=")
"""The index a sum or product binds (`\\sum_{k=1}^{3} k`): it takes every value in its range and names no unknown, so a
sum with number bounds is a computation without unknowns (class 10); `\\sum_{k=1}^{n} k` still holds the unknown `n`."""
_SIDE_COMMAND_NOT_GREEK_RE = re.compile(r"\\(?!(?:" + "|".join(sorted(_GREEK)) + r")(?![A-Za-z]))[A-Za-z]+")


def _side_words(side: str) -> bool:
    """Whether a middle side of a box's chain holds a word other than a unit or a currency (`\\text{ for }`, `or`,
    `thousand`): the chain is then no computation of one value, and the box is not read (red team 5 class 3)."""
    words = re.findall(r"[^\W\d_]+", " ".join(_SIDE_TEXT_RE.findall(side)))
    words += [r for r in re.findall(r"(?<![A-Za-z\\])[A-Za-z]{2,}(?![A-Za-z])", _SIDE_TEXT_RE.sub(" ", side)) if _prose_run(r)]
    return any(not (_is_unit(w) or _has("currency", w)) for w in words)


def _names_tuple(side: str) -> bool:
    """`(x, y)`, `(q,r)`: a tuple of names."""
    if not (side.startswith("(") and side.endswith(")")):
        return False
    parts = side[1:-1].split(",")
    return len(parts) >= 2 and all(_MATH_NAME_RE.match(p) or _SIDE_NAME_RE.match(p) for p in parts)


def _scaled_whole(side: str) -> bool:
    """Whether an expression of several unknowns is one term that scales, negates or inverts the whole:
    a leading minus, a digit as a factor (`2ab`, `ab\\cdot10^{-3}`), a fraction with a number alone above or
    below (`\\frac{ab}{1000}`, `\\frac{1}{2}ab`), a negative or fractional power (`(ab)^{-1}`). A sum of
    terms (`x - p`, `2a + 3b`) is an identity's target, not a scale."""
    depth, terms = 0, 1
    for k, c in enumerate(side):
        depth += 1 if c in "({[" else -1 if c in ")}]" else 0
        if depth == 0 and c in "+-" and k > 0 and side[k - 1] not in "^_({[=":
            terms += 1
    if terms > 1:
        return False
    if side.startswith("-"):
        return True
    top = re.sub(r"[_^]\{[^{}]*\}|[_^]\w", "", side)  # powers and subscripts: `a^2b` is no factor
    flat = top
    while True:
        inner = re.sub(r"\{[^{}]*\}|\([^()]*\)", "", flat)
        if inner == flat:
            break
        flat = inner
    fracs = re.findall(r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}", side)
    return bool(re.search(r"\d", flat)) or any(not re.search(r"[A-Za-z]", re.sub(r"\\[A-Za-z]+", "", p))
                                               for f in fracs for p in f) or bool(re.search(r"\^\{?-", side))


def _prose_run(run: str) -> bool:
    """A run of letters in math that is a word, not a product of names (`xy`) or a segment (`AB`, `ABC`)."""
    if run.isupper() and len(run) <= 3:
        return False
    return len(run) >= 3 or admitted(run) or run.lower() in NEVER_NAMES


def _prose_side(side: str) -> bool:
    """A first side in words (`Total`, `\\text{Area of } ABC`, `the total is 5 + 1`): a noun phrase, or a
    subject, a link and a computation."""
    links = [m for m in re.finditer(r"[^\W\d_]+", side) if _has("verb", m.group()) or m.group().lower() in _STATING_VERBS]
    if links:  # the last link: what stands after it is the side, what stands before it its subject
        return _copula_subject(side[: links[-1].end()]) and _side_states(side[links[-1].end():])
    tokens = _SUBJECT_TOKEN_RE.findall(_SIDE_COMMAND_RE.sub(" ", side))
    while tokens and (_has("lead", tokens[0]) or tokens[0].lower() in ANCHOR_LEADS and not _has("det", tokens[0])):
        tokens = tokens[1:]  # `So x =`, `Thus Total =`
    if len(tokens) == 1 and tokens[0] in ("A", "I"):
        return True  # `Thus A =`: a capital letter alone names a quantity as `B` does, no article or pronoun (fx29aj)
    return not tokens or _noun_phrase(tokens)


_STEP_VERBS = frozenset("gives give yields yield yielded yielding produces produce produced giving".split())
"""Verbs whose subject is the method or step that found the value (`This gives`, `The quadratic formula yields`), never
a quantity: their subject is read by `_step_subject` (red team 5 class 1: `The error gives`, `A rough estimate
gives`, `Guessing gives \\boxed{6}` paid 6). `measures` takes a quantity (`The angle measures`) and is read as a link."""
_STEP_DETERMINERS = frozenset("the this that these those our a an".split())
_STEP_MODIFIERS = frozenset(
    "quadratic pythagorean binomial cubic general above previous last first second third same final remainder "
    "factor double angle half sum product difference cosine sine".split())
_STEP_HEADS = frozenset(
    "formula formulas theorem identity identities rule equation equations system substitution step steps "
    "expansion factorization relation relations law".split())


def _step_subject(tokens: list[str]) -> bool:
    """Whether the subject of a step verb (`_STEP_VERBS`) names a method or a step: nothing (after an anchor or a lead
    such as `Adding`), a pronoun or `this`/`which`, or a closed noun phrase: a determiner or a name's `'s`, closed
    modifiers and a method head (`the quadratic formula`, `Vieta's formulas`, `the above equation`). An allowlist:
    `the error`, `a rough estimate`, `Guessing`, `Rounding down` name no method."""
    while tokens and _has("lead", tokens[0]):
        tokens = tokens[1:]
    stated = _stated_tokens(tokens)
    while stated and _has("lead", stated[0]):
        stated = stated[1:]
    words = [t.lower() for t in stated]
    if not words:
        return True
    if len(words) == 1 and (words[0] in ("this", "that", "which", "it", "these", "everything") or _has("pronoun", words[0])):
        return True
    if words[0] in ("putting", "combining", "adding") and set(words[1:]) <= {"these", "this", "them", "it", "all", "both",
                                                                          "everything", "together"}:
        return True  # `Putting these together gives`: STATING_CLAUSES' conclusion from the steps before
    owned = stated[0].endswith(("'s", "’s")) and _is_name(stated[0])
    if words[0] in _STEP_DETERMINERS or owned:
        stated, words = stated[1:], words[1:]
    # an owner is itself a name (`Vieta's`, `Heron's`), never any word before `'s` (red team 6 class 8: `The estimate's
    # formula`, `Guessing's rule` gave the open slot to a hedge)
    return bool(words) and words[-1] in _STEP_HEADS and all(w in _STEP_MODIFIERS or t.endswith(("'s", "’s")) and _is_name(t)
                                                             for t, w in zip(stated[:-1], words[:-1]))


def _agent(tokens: list[str]) -> bool:
    """Whether the subject of a verb of action (`we get`, `Sam has`, `The farm sold`) is one the grammar knows: nothing
    (after an anchor or a lead), a pronoun, a name (`Sam`, `Maria's`), or a noun phrase that names a quantity or what
    holds one (`_noun_phrase`). An allowlist (red team 6 class 1: every verb but the step verbs admitted any subject,
    so `A rough estimate gets`, `The error gave`, `Guessing finds` stated the box)."""
    while tokens and _has("lead", tokens[0]):
        tokens = tokens[1:]
    stated = _stated_tokens(tokens)
    while stated and _has("lead", stated[0]):
        stated = stated[1:]
    if not stated:
        return True
    if len(stated) == 1 and (_has("pronoun", stated[0]) or stated[0] == "I" or _is_name(stated[0])):
        return True
    if _is_name(stated[0]) and stated[0].endswith(("'s", "’s")):
        return _noun_phrase(stated[1:])
    return _noun_phrase(stated)


_SIGN_MARKS = frozenset("-|")
"""Lead marks that are a sign or a bar when a name follows them (`The value of - $x$`, `of |x|`): kept in a subject's
tokens, where they stand before a name and so state a value (`_names_stand_alone`; red team 14 class 2); anywhere else
(`- The value`, `x-coordinate`) dropped as markup."""
_COMPLETE_MATH_RE = re.compile(r"(\$[^$]*\$)")
_ANGLE_NAME_RE = re.compile(r"(?<![$\\])(?:∠|\\angle(?![A-Za-z]))\s*([A-Z]{1,3}|\d{1,2})(?![\w$])")


def _unwrap_text(flat: str) -> str:
    """`flat` with its font groups' words read as words (`\\text{the area} is`), except inside a complete math segment:
    there a font group is a unit or a scale written upright (`$\\mathrm{k}x$`, `$\\text{k}x$`), never a name's part,
    and stays in the segment, where `_subject_value` reads it as a value (red team 14 class 2)."""
    parts = _COMPLETE_MATH_RE.split(flat)
    return "".join(part if k % 2 else _TEXT_GROUP_RE.sub(lambda m: " " + m.group(1) + " ", part)
                   for k, part in enumerate(parts))


def _subject_tokens(flat: str) -> list[str]:
    """A subject's tokens (`_SUBJECT_TOKEN_RE`), lead marks dropped, but a sign or a bar before a name kept
    (`_SIGN_MARKS`)."""
    found = _SUBJECT_TOKEN_RE.findall(flat)
    return [t for k, t in enumerate(found) if t not in _LEAD_MARKS or t in _SIGN_MARKS and k + 1 < len(found)
            and _name_token(found[k + 1])]


def _name_token(token: str) -> bool:
    """A token that names by a symbol: a math segment, or a lone letter (`x`, `M`; never the article `a`, `A`)."""
    return token.startswith("$") and token.endswith("$") and len(token) > 1 or (
        len(token) == 1 and token.isalpha() and token not in "aA")


def _names_stand_alone(tokens: list[str]) -> bool:
    """Whether every name of a subject (`_name_token`) stands first or right after a word (a determiner, an adjective,
    a noun, a preposition: `the value of $x$`, `the integer $n$`, `integers $p$ and $q$`), a bracket that opens (`for
    part (b)`) or an owner's `'s`. An allowlist (red team 14 class 2): whatever else stands right before a name, a sign
    (`- $x$`, `$-$ $x$`), an operator (`$\\times$ $x$`, `$\\sqrt{}$ $x$`), a constant (`$\\pi$ $x$`, `$e$ $x$`), a scale
    letter (`M $x$`, `$\\mathrm{k}$ $x$`) or any other math, makes the subject name a multiple or a function of the name:
    a second value beside the box's. Inside a preposition's object, before any relative clause, the word is one of
    `_before_object_name`, a labelled object's noun before its label (`_labels`), a named kind before one letter
    (`_names_kind`), or in a closed preposition's object a counted noun before one capital (`in box B`): red team 15
    class 4, `the value of square $x$`, `of cube root $x$`, `of floor $x$` name an operation on the name, x^2 beside
    the box."""
    place = "head"  # the head's words, then a preposition's object, then a relative clause (read by `_relative_clause`)
    for k, t in enumerate(tokens):
        low = t.lower()
        if low in _RELATIVE_OPENERS or low == "to" and k + 1 < len(tokens) and _infinitive(tokens[k + 1]):
            place = "clause"  # `such that`, `which`, the infinitive after `ways` (`to choose $2$ of $4$`)
        elif place != "clause" and low in _CLOSED_PREPS:
            place = "closed"  # a closed preposition's object: `in box B`
        elif place == "head" and low in _OPEN_PREPS:
            place = "object"
        if k == 0 or not _name_token(t):
            continue
        prev = tokens[k - 1]
        if t == "s" and prev in ("'", "’"):
            continue  # `$p$'s roots`
        if not (prev.isalpha() and (len(prev) > 1 or prev in "aA") or prev == "(" or prev.endswith(_POSSESSIVE)):
            return False
        if place in ("object", "closed") and prev.isalpha() and not (
                _before_object_name(prev) or _labels(prev, t) or _names_kind(prev, t)
                or place == "closed" and _has("count", prev) and re.fullmatch(r"[A-Z]", _compact(_math_content(t) or t))):
            return False
    return True


def _before_object_name(word: str) -> bool:
    """A word after which a name stands alone in an object: a determiner, a preposition, an adjective (LEXICON's, or
    `_SUBJECT_ADJECTIVES`), `and` (`of $p$ and $q$`)."""
    return (_has("det", word) or _has("prep", word) or _has("adj", word) or word.lower() in _SUBJECT_ADJECTIVES
            or word.lower() == "and")


def _names_kind(noun: str, name: str) -> bool:
    """`name` is one letter (a subscript allowed) right after a `_NAMED_KINDS` noun."""
    return noun.lower() in _NAMED_KINDS and bool(_PLAIN_NAME_RE.fullmatch(_compact(_math_content(name) or name)))


def _labels(noun: str, name: str) -> bool:
    """`name` is the capitals label of the labelled object `noun` names (`_LABELLED_BY`; a plural too: `triangles`)."""
    low = noun.lower()
    fewest = _LABELLED_BY.get(low, _LABELLED_BY.get(low.removesuffix("s"), _LABELLED_BY.get(low.removesuffix("es"))))
    label = _compact(_math_content(name) or name)
    return fewest is not None and _point_label(label) and len(label) >= fewest


class _Link(NamedTuple):
    """A clause that ends with a link, split (`_split_link`): the words of its subject, and how it links."""

    subject: list[str]
    """The tokens before the link, after opening connectives and stating main clauses (`So`, `we see that`)."""
    linked: bool
    """A copula (`is`, `equals`, `will be`, `measures`): the subject is the quantity the value is."""
    step: bool
    """A step verb (`gives`, `yields`): the subject is the method or step that found the value."""
    before: list[str]
    """The tokens before the link, connectives and stating clauses kept (a step's subject is read from them)."""
    verbed: bool
    """Any verb at all before the value: with no copula and no step verb, a verb of action (`gets`, `has`), whose
    subject `_agent` reads (red team 6 class 1)."""


def _split_link(clause: str) -> _Link | None:
    """`clause` (what leads to a value: `So, the area of the trapezoid is`, `we find that the only integer roots are`)
    as its subject and its link; None when it is over `MAX_CHARS`. One reader for `_copula_subject` (a box's subject) and
    `concludes` (a concluding sentence's)."""
    flat = _CLAUSE_MARKUP_RE.sub(" ", clause)
    flat = _SEGMENT_CLOSE_RE.sub("$", _SEGMENT_OPEN_RE.sub("$", flat))
    flat = _ANGLE_NAME_RE.sub(lambda m: f"$\\angle {m.group(1)}$", _unwrap_text(flat))  # `∠3 is`: one math name
    if len(flat) > MAX_CHARS:
        return None
    tokens = _subject_tokens(flat)
    while tokens and tokens[-1] in ("$", "(", "\\"):
        tokens.pop()  # the box's own open math
    while tokens and tokens[-1].lower() in _LINK_ADVERBS:
        tokens.pop()
    if len(tokens) > 1 and tokens[-1].lower() in ("us", "me") and tokens[-2].lower() in _STEP_VERBS:
        tokens.pop()  # `this gives us`
    linked, step, verbed = False, False, False
    popped: list[str] = []
    while tokens and (tokens[-1].lower() in _VERB_CHAIN or _has("verb", tokens[-1]) or tokens[-1].lower() in _STEP_VERBS):
        linked = linked or tokens[-1].lower() in _BOX_COPULAS or tokens[-1].lower() in ("measures", "measure")
        step = step or tokens[-1].lower() in _STEP_VERBS
        verbed = True
        popped.append(tokens.pop())
    tokens += _clause_verbs(popped[::-1])
    before = list(tokens)
    while tokens and _has("lead", tokens[0]):
        tokens = tokens[1:]  # `So`, `Hence`, `Adding`
    stated = _stated_tokens(tokens)
    while stated and _has("lead", stated[0]):
        stated = stated[1:]
    return _Link(stated, linked, step, before, verbed)  # `we see that the answer is`: the clause after it has the subject


_FINITE_LINKS = frozenset("is are was were be been equals".split())
_LINK_AUXILIARIES = frozenset("will must shall has have had".split())
_LINK_LEADS = frozenset("turns turned out to".split())  # `turns out to be`


def _clause_verbs(verbs: list[str]) -> list[str]:
    """The verbs `_split_link` took off the end (`verbs`, in text order) that belong to the subject, not to its link.
    The link is its head verb (the last one, past a tail of `to`, `by`, `given`, `equal`, `worth`: `is equal to`, `is
    given by`) with only auxiliaries and copulas before it (`has been`, `will be`, `turns out to be`, `has sold`).
    Any other verb before the head goes back to the subject with all before it (`The probability that Alice wins |
    is`: the clause's own verb, read by `_relative_clause`; `The area of the figure find | gets`, `The farm increased
    | sold`, `The perimeter give | is`: no subject's word), and a link of no link's shape (two finite links: `the
    lines be is`; an auxiliary before no `be`, `been` or `to`: `the lines have is`, `Sam have has`) gives back all
    before its head. An allowlist of the link's shape: no word vanishes into it (the fuzz of
    tests/test_math_objects.py found `The area of the figure find is` paid 6). One reader for a box's subject
    (`_split_link`) and a prose subject (`_subject`)."""
    low = [w.lower() for w in verbs]
    head = len(low) - 1
    while head > 0 and low[head] in _VERB_CHAIN and low[head] not in _LINK_AUXILIARIES:
        head -= 1
    plain = [k for k in range(head) if low[k] not in _BOX_COPULAS and low[k] not in _LINK_AUXILIARIES
             and low[k] not in _LINK_LEADS]
    give = plain[-1] + 1 if plain else 0
    rest = low[give:]
    finite = [k for k, w in enumerate(rest) if w in _FINITE_LINKS]
    loose = any(w in _LINK_AUXILIARIES and (k + 1 == len(rest) or rest[k + 1] in _LINK_AUXILIARIES
                                             or rest[k + 1] in _FINITE_LINKS - {"be", "been"}) for k, w in enumerate(rest))
    if len(finite) > 1 or loose:
        give = head
    return verbs[:give]


def bare_link(text: str) -> bool:
    """Whether `text` (what stands between a comma and a box) is a link and nothing else (`is`, `will be`, `is
    therefore`, `equals`): the subject it links is before the comma, and is read there (`extract._clause_start`)."""
    words = [w.strip("*_$,，") for w in text.split()]
    words = [w for w in words if w and w not in ("\\(", "\\[")]
    return bool(words) and all(w.lower() in _BOX_COPULAS or w.lower() in _VERB_CHAIN or w.lower() in _LINK_ADVERBS
                               or _has("lead", w) for w in words) and any(w.lower() in _BOX_COPULAS for w in words)


def _copula_subject(clause: str) -> bool:
    """Whether the subject of a clause that ends with a link (`the area of the trapezoid is`, `we find that
    the only integer roots are`, `Paula's investment is worth`) is a noun phrase that names a quantity;
    True when the clause ends with no link (a verb of action, a label)."""
    link = _split_link(clause)
    if link is None:
        return False
    if link.step and not link.linked:
        return _step_subject(link.before)
    if not link.linked:
        return not link.verbed or _agent(link.before)
    tokens = link.subject
    if not tokens:
        return False  # `is \\boxed{6}.`, `$$x > 7$$ is`: a link with no subject states nothing (red team 16 class 1)
    first = tokens[0].lower()
    if _has("pronoun", first) or tokens[0] == "I":
        if len(tokens) == 1:
            return True  # `it is`, `there are`
        if _has("verb", tokens[1]) or tokens[1].lower() in _STATING_VERBS:
            rest = tokens[2:]
            rest = rest[1:] if rest and rest[0].lower() == "that" else rest
            return not rest or _noun_phrase(rest)  # `we find that the only integer roots are`
        return False
    return _noun_phrase(tokens)


CONCLUDING_OPENERS = frozenset("so thus therefore hence".split())
"""The connectives that open a concluding sentence (docs/math.md "Answer grammar", "A concluding sentence"): each says
the sentence states what the steps before it found. `Then`, `Now`, `Next` order steps, `Finally` may open a last step,
and `So far` or `If so` are no conclusion: left out."""
_CONCLUDING_RE = re.compile(r"^[\s*_#>]*(?i:so|thus|therefore|hence)(?![\w'’])(?:[\s*_]*,)?")
_VALUE_OPEN_RE = re.compile(r"(?:\s|(?<!\\)\$|\\[(\[]|\\displaystyle(?![A-Za-z]))+$")


@_beside_value
def concludes(before: str, value: str | None = None) -> bool:
    """Whether `before`, the words of a response's last sentence up to its value, conclude with a named quantity
    (docs/math.md "Answer grammar", "A concluding sentence"): a concluding connective (`CONCLUDING_OPENERS`), then a
    subject that names a quantity and a copula (`So, the perimeter of ABCD is`, `Thus the total cost was`), then at
    most a computation and its `=` (`So, the perimeter of ABCD is 2(6 + 3) =`); or an `=` chain whose first side names
    one (`Thus, $x =`, `So, the perimeter =`). What else the sentence says is read as a box in the value's place would
    be (`extract`); this is what makes it a conclusion. An allowlist: a pronoun (`So, it is`, `So, there are`) names no
    quantity, a verb of action or a step (`So, we get`, `So, Sam has`, `This gives`) states none, a hedge or a modal
    (`So, the answer would be`) is no copula, and a computation alone (`So, 2 + 4 =`) or a function of the unknown
    (`So, $2x =`) names none. `value`: the sentence's value, which each side of that computation in numbers alone has
    (red team 7 class 1: `So, the total is 2 + 3 = 6.` states two values)."""
    opener = _CONCLUDING_RE.match(before)
    if opener is None or len(before) > MAX_CHARS:
        return False
    rest = _VALUE_OPEN_RE.sub("", before[opener.end():])
    links = [m for m in _LINK_WORD_RE.finditer(rest) if m.group().lower() in _BOX_COPULAS]
    if links:  # the subject and its copula, then the value or a computation of it (`is 2(6 + 3) =`)
        after = rest[links[-1].end():]
        if all(w.lower() in _VERB_CHAIN or w.lower() in _LINK_ADVERBS for w in after.split()):
            return _named_subject(rest)  # `is`, `is equal to`, `is therefore`
        return after.endswith("=") and not _PROSE_WORD_RE.search(_TEXT_GROUP_RE.sub(" x ", after)) and (
            value is None or _middle_values_agree(re.sub(r"\$|\\[()\[\]]", " ", after).split("=")[:-1], value)
        ) and _named_subject(rest[: links[-1].end()])
    side = _first_side(rest) if rest.endswith("=") else None
    return side is not None and _named_side(side)


_LINK_WORD_RE = re.compile(r"(?<![\\\w])[^\W\d_]+")


def _named_subject(clause: str) -> bool:
    """A clause that ends with a copula, whose subject is a noun phrase naming a quantity (`_noun_phrase`), never a
    pronoun or nothing (`concludes`)."""
    link = _split_link(clause)
    if link is None or not link.linked or not link.subject:
        return False
    first = link.subject[0]
    return not (_has("pronoun", first) or first == "I") and _noun_phrase(link.subject)


def _named_side(side: str) -> bool:
    """The first side of a concluding `=` chain with no copula before it (`concludes`): a math name (`x`, `f(3)`,
    `∠ABC`, `(q, r)`) or a noun phrase in words (`the perimeter`, `Total cost`); a computation names nothing."""
    compact = re.sub(r"\\(?:left|right)(?![A-Za-z])|\s|\$", "", side)
    if _MATH_NAME_RE.match(compact) or _SIDE_NAME_RE.match(compact) or _names_tuple(compact):
        return True
    words = _SIDE_TEXT_RE.sub(lambda m: " " + m.group(1) + " ", side)
    tokens = [t for t in _SUBJECT_TOKEN_RE.findall(_SIDE_COMMAND_RE.sub(" ", words)) if t not in _LEAD_MARKS]
    return bool(tokens) and tokens[0].isalpha() and len(tokens[0]) > 1 and _noun_phrase(tokens)


def _noun_phrase(tokens: list[str]) -> bool:
    """Whether `tokens` are a subject that names a quantity (docs/math.md "Answer grammar", "Before a box"):

        [det | owner's] modifier* head (of|between|among OBJECT | in|to|for|... LISTED | RELATIVE)*

    modifier: LEXICON's adjectives, quantity and counted nouns, `_SUBJECT_ADJECTIVES`; head: a quantity or
    counted noun (a plural too: `coordinates`) or a math name (`$n$`, `x`); after `of`, `between`, `among`
    the object's words are open-class but never `_NOT_OBJECTS` (`the area of the trapezoid`, `the angle
    between the lines`); after any other preposition they are LEXICON's (`in cm`, `for part (a)`); a relative
    clause (`that can be written as ...`, `(which is ...)`) follows an object, never the head alone (`the
    probability that Alice wins` aside). Refused: a head that is no quantity (`My first guess`, `The error`,
    `Its square`, `The reciprocal of x`), a modifier that qualifies it (`A wrong value`), a scale or an
    operation after it (`The answer in thousands`, `The answer (in thousands)`, `The answer divided by
    1000`, `The answer rounded to the nearest thousand`). A value in it only at a `SUBJECT_VALUE_PLACES` position
    (`_values_placed`; fx29s: a subject names, it never states a value)."""
    if _states_bound([t.lower() for t in tokens]) or not _names_stand_alone(tokens) or not _answer_named(tokens):
        return False
    i, n = 0, len(tokens)
    if i < n and (_has("det", tokens[i]) and tokens[i].lower() not in ("that", "which") or _is_owner(tokens[i])):
        i += 1
    start = i
    while i < n and (_modifier(tokens[i]) or _math_subject(tokens[i], False)) and not _such_that(tokens, i):
        i += 1
    if i == start or not (_head(tokens[i - 1]) or _math_subject(tokens[i - 1], False)):
        return False
    head = tokens[i - 1].lower()
    after_object = head in ("probability", "chance", "likelihood", "odds")
    closed = False  # after a closed preposition's object every later object is closed too (`in units of 1000`)
    while i < n:
        word = tokens[i].lower()
        if word == "to" and after_object and i + 1 < n and tokens[i + 1].isalpha() and _infinitive(tokens[i + 1]):
            kind = "ways" if tokens[i - 1].lower() == "ways" else "infinitive"  # `the number of ways to choose 2 of 4`
            return _relative_clause(tokens[i:], defining=True, own=_own_names(tokens[:i]),
                                    head=_identity_head(tokens[:i])) and _values_placed(tokens, i, kind)
        if after_object and word in _CLOSED_PREPS and i + 1 < n and tokens[i + 1].lower() in ("which", "whom"):
            return (_relative_clause(tokens[i + 2:], own=_own_names(tokens[:i]), head=_identity_head(tokens[:i]))
                    and _values_placed(tokens, i, "clause"))  # `the values of $k$ for which the quadratic has real roots`
        if word == "when" and not after_object and head in _DIVISION_HEADS:
            j = _division_end(tokens, i)  # `the remainder when $N$ is divided by $1000$`
            if j == i:
                return False
            i, after_object = j, True
        elif word in _OPEN_PREPS or word in _CLOSED_PREPS:
            operand = word == "of" and not after_object and head in _OPERAND_HEADS
            closed = closed or word in _CLOSED_PREPS
            j = _object_end(tokens, i + 1, not closed, operand, governor=tokens[i - 1].lower())
            if j == i + 1:
                return False
            i, after_object = j, True
        elif _such_that(tokens, i):
            # `the integers $n$ such that $f(n) = n$`: a condition, which never sets `$n$` itself (`conditions.condition_fixes`)
            return (_relative_clause(tokens[i:], defining=True, own=_own_names(tokens[:i]), head=_identity_head(tokens[:i]))
                    and _values_placed(tokens, i, "clause"))
        elif after_object and i + 1 < n and _is_name(tokens[i]) and _has("verb", tokens[i + 1]):
            return (_relative_clause(tokens[i:], own=_own_names(tokens[:i]), head=_identity_head(tokens[:i]))
                    and _values_placed(tokens, i, "clause"))  # `the number of apples Sam ate`: a clause with no `that`
        elif after_object and (word in _RELATIVE_OPENERS or tokens[i] == "(" and i + 1 < n
                               and tokens[i + 1].lower() in _RELATIVE_OPENERS):
            return _relative_clause(tokens[i:], own=_own_names(tokens[:i]), head=_identity_head(tokens[:i])) and _values_placed(
                tokens, i, "clause")
        else:
            return False
    return _values_placed(tokens, n, "")


_IDENTITY_DETERMINERS = frozenset("the a an".split())


def _identity_head(tokens: list[str]) -> tuple[Facts, str | None] | None:
    """What a subject's words before its condition (`tokens`) say of its own unknown when they name its own value
    (red team 16 classes 3, 4, 6): `[det] WORD* NAME` or `[det] WORD* value of [det] WORD* NAME`, every WORD from
    `conditions.HEAD_WORDS` (`The smallest positive integer $n$`, `The positive root $x$`, `The value of the positive
    integer $n$`, `$x$`), NAME the subject's one math name: the facts its words state, and the optimum its optimum words
    say (`min`, `max`, `both` for words of both kinds). None for any other head (`The sum of the values of $x$`, `The
    number of values of $x$`, `The average value of $x$`, `The second integer $n$`, `The odd integer $n$`): the box is
    then no value of the unknown the condition speaks of, or one whose fact no rule checks, and a condition on the
    unknown refuses (`conditions.condition_fixes`)."""
    words: list[str] = []
    k, n = 0, len(tokens)
    for part in range(2):
        if k < n and tokens[k].lower() in _IDENTITY_DETERMINERS:
            k += 1
        while k < n and tokens[k].lower() in HEAD_WORDS:
            words.append(tokens[k])
            k += 1
        if part == 0 and k + 1 < n and tokens[k].lower() == "of" and words and words[-1].lower() == "value":
            k += 1  # `the value of`, `the positive value of`
            continue
        break
    if k != n - 1 or not _math_subject(tokens[k], False):
        return None
    facts = head_facts(words)
    if facts is None:
        return None
    kinds = {HEAD_WORDS[w.lower()].optimum for w in words} - {None}
    return facts, (kinds.pop() if len(kinds) == 1 else "both") if kinds else None


_MATH_OPERATOR_RE = re.compile(r"[-+*/^!]|\\(?:cdot|times|div|[dt]?frac|sqrt|binom|d?binom|pm|mp|sum|prod|int|ast)(?![A-Za-z])")
_NAME_SUBSCRIPT_RE = re.compile(r"_\s*(?:\{[^{}]*\}|[A-Za-z0-9])")
_ORDINAL_SELECTIONS = frozenset("first last next".split())
_OBJECT_BOUNDARIES = _OPEN_PREPS | _CLOSED_PREPS | frozenset({"when"})  # a bracket opens a clause (`clause`) or a part label, `of 1000 (x)`


def _subject_value(token: str) -> bool:
    """Whether a subject's token may state a value (docs/math.md "Answer grammar", "A subject names"; red team 13): a
    numeral, a number word (`_CLAUSE_NUMBER_WORDS`: any other is no word of a subject's vocabulary), or a math segment holding a numeral outside a name's index
    (`x_1` is a name) or an operator (`+`, `^`, `\\frac`, ...)."""
    math = _math_content(token)
    if math is None:
        return any(c.isdigit() for c in token) or token.lower() in _CLAUSE_NUMBER_WORDS
    return bool(re.search(r"\d", _NAME_SUBSCRIPT_RE.sub(" ", math)) or _MATH_OPERATOR_RE.search(math)
                or _FONT_IN_MATH_RE.search(math))  # `$\\mathrm{k}x$`: an upright unit or scale (red team 14 class 2)


_FONT_IN_MATH_RE = re.compile(r"\\" + _FONT_CMD + r"(?![A-Za-z])")


def _next_bounds(tokens: list[str], k: int, clause: int) -> bool:
    """Whether the object at `tokens[k]` ends right after it: the subject's end, its clause, or a preposition."""
    return k + 1 >= min(clause, len(tokens)) or tokens[k + 1].lower() in _OBJECT_BOUNDARIES


def _whole_of_object(tokens: list[str], k: int, clause: int, kind: str) -> bool:
    """`the value of $2^{10}$`, `the number of multiples of 7`, `the number of positive divisors of $12$`."""
    math = _math_content(tokens[k])
    closed = _value_side(math) if math is not None else _object_value(tokens[k])
    return (0 < k < clause and tokens[k - 1].lower() == "of" and closed and _next_bounds(tokens, k, clause)
            and not (k + 1 < len(tokens) and tokens[k + 1].lower() == "and"))


def _own_math_name(tokens: list[str], k: int, clause: int, kind: str) -> bool:
    """`$f(3)$`, `$a_{2024}$`, `$\\angle 1$`, `$x + y$`, `$a_1 + a_2$`."""
    math = _math_content(tokens[k])
    if math is None or _FONT_IN_MATH_RE.search(math):
        return False  # never a font group (`$\\mathrm{k}x$`: red team 14 class 2)
    compact = _compact(math)
    if _MATH_NAME_RE.match(compact) or _SIDE_NAME_RE.match(compact) or _names_tuple(compact):
        return True
    if not re.search(r"[A-Za-z]", _SIDE_COMMAND_NOT_GREEK_RE.sub(" ", math)):
        return False  # names hold a letter (`$-$`, `$\\sqrt{}$`: red team 14 class 2)
    return not re.search(r"\d", _NAME_SUBSCRIPT_RE.sub(" ", math)) and _side_states(math)


def _operand_object(tokens: list[str], k: int, clause: int, kind: str) -> bool:
    """`the coefficient of $x^2$`, `the units digit of $3^{2024}$`."""
    return (1 < k < clause and tokens[k - 1].lower() == "of" and tokens[k - 2].lower() in _OPERAND_HEADS
            and _operand_math(tokens[k]) and _next_bounds(tokens, k, clause))


def _division_operand(tokens: list[str], k: int, clause: int, kind: str) -> bool:
    """`the remainder when $3^{2024}$ is divided by 7`."""
    return k < clause and any(w >= 1 and tokens[w].lower() == "when" and tokens[w - 1].lower() in _DIVISION_HEADS
                              and _division_end(tokens, w) == w + 6 for w in (k - 1, k - 5))


def _ordinal_count(tokens: list[str], k: int, clause: int, kind: str) -> bool:
    """`the sum of the first 10 terms`, `the last 3 digits`; never under a counting head (`_COUNTING_HEADS`)."""
    return (0 < k < clause - 1 and tokens[k - 1].lower() in _ORDINAL_SELECTIONS and _math_content(tokens[k]) is None
            and tokens[k + 1].isalpha() and _object_word(tokens[k + 1])
            and not any(t.lower() in _COUNTING_HEADS for t in tokens[:k]))


_COUNTING_HEADS = frozenset("number numbers count counts total totals amount".split())
"""Heads whose value is how many members a set has (red team 14 class 6): under one, an ordinal count (`the number of
the first 7 apples`, `the count of the first 7 terms`, `the number of apples of the first 7 apples`) states that very
count, so `_ordinal_count` admits none wherever such a head stands before it (`the sum of the first 10 terms` keeps
it: a sum is no count of its terms). `total` and `amount` count as well as sum (`the total of 7 boxes`, red team 13
class 7): refused with them."""


def _range_bound(tokens: list[str], k: int, clause: int, kind: str) -> bool:
    """`the number of primes between 1 and 100`, `the number of integers between 1 and 100 such that ...`."""
    if k >= clause:
        return False
    at = k - 1 if k >= 1 and tokens[k - 1].lower() == "between" else k - 3
    return at >= 0 and tokens[at].lower() == "between" and (at == k - 1 or tokens[k - 1].lower() == "and") and (
        _numbered_range(tokens, at + 1))


def _read_condition(tokens: list[str], k: int, clause: int, kind: str) -> bool:
    """`such that $2p = 5q$`, `that lie on the circle $x^2+y^2=7$`."""
    math = _math_content(tokens[k])
    return k >= clause and math is not None and reads(math, _prose_run)


def _counting_verb_object(tokens: list[str], k: int, clause: int, kind: str) -> bool:
    """`that hold 7 apples`, `that has 7 apples`."""
    return k > clause and _math_content(tokens[k]) is None and tokens[k - 1].lower() in _COUNTING_VERBS


def _ways_infinitive(tokens: list[str], k: int, clause: int, kind: str) -> bool:
    """`the number of ways to choose 2 of 4`, `to arrange 5 books`: a plain count (a numeral, a number word, `$4$`)
    right after a `_COUNTING_VERBS` word or `of` (red team 14 class 8: `and 7`, `in 1000`, `(7)`, `$\\times 1000$`
    after the data state a second value)."""
    math = _math_content(tokens[k])
    plain = tokens[k].isdigit() or tokens[k].lower() in _CLAUSE_NUMBER_WORDS or math is not None and math.strip().isdigit()
    return k > clause and kind == "ways" and plain and tokens[k - 1].lower() in _COUNTING_VERBS | {"of"}


SUBJECT_VALUE_PLACES: tuple[tuple[Callable[[list[str], int, int, str], bool], str], ...] = (
    (_whole_of_object, "the whole `of` object, standing alone, a closed computation or a number: which operand the "
     "quantity is taken of (`the value of $2^{10}$`, `$\\binom{8}{4}$`, `the number of multiples of 7`); a value beside "
     "anything else in it is a second value (`the value of 1000 $x$` states 1000x, `the number of 7 apples` a count)"),
    (_own_math_name, "a name (`_MATH_NAME_RE`, `_SIDE_NAME_RE`: `$f(3)$`, `$a_{2024}$`, `$\\angle 1$`), or names joined "
     "by operators with no numeral (`$x + y$`, `$a_1 + a_2$`, as `_side_states` reads them): which quantity, its index "
     "no value"),
    (_operand_object, "the `of` object of an `_OPERAND_HEADS` head, alone (`the coefficient of $x^2$`): which operand"),
    (_division_operand, "the dividend and divisor of a remainder's `when E is divided by N` (`_division_end`)"),
    (_ordinal_count, "a count after an ordinal that selects (`the first 10 terms`): which members, never their value"),
    (_range_bound, "a bound of `between N and N` after a numbered noun that is no whole number (`_numbered_range`: "
     "`the number of primes between 1 and 100`; never `integers`, `years`, `digits`: red team 14 class 7)"),
    (_read_condition, "a relative clause's or condition's math that `conditions.reads` reads whole (relations, ASCII "
     "only), whose effect on the subject's own unknown `conditions.condition_fixes` decides"),
    (_counting_verb_object, "in a clause, a count right after a `_COUNTING_VERBS` word (`that hold 7 apples`): what the "
     "object holds, never what it is (`that sums to 7 apples`, `that is that 7 apples` state a value)"),
    (_ways_infinitive, "in the defining infinitive after `ways`, a plain count right after a `_COUNTING_VERBS` word or "
     "`of` (`the number of ways to choose 2 of 4`): the data of the choice, whose count of ways is another number"),
)
"""Where a subject (of a box, of a concluding sentence) may hold a value (`_subject_value`), each position with its
reason: "a subject names; it never states a value" (docs/math.md "Answer grammar", red team 13 classes 1, 5-7). An
allowlist: a value anywhere else is a second value beside the answer's, refused (`_values_placed`)."""


def _values_placed(tokens: list[str], clause: int, kind: str) -> bool:
    """Whether every value of a subject stands in a `SUBJECT_VALUE_PLACES` position. `clause`: where the subject's
    relative clause or condition opens (`len(tokens)` when none); `kind`: `ways` for the infinitive after `ways`."""
    return all(not _subject_value(t) or any(place(tokens, k, clause, kind) for place, _ in SUBJECT_VALUE_PLACES)
               for k, t in enumerate(tokens))


def _such_that(tokens: list[str], i: int) -> bool:
    """`such that` at `tokens[i]`: a defining condition, not the adjective `such` (`the smallest such $n$`)."""
    return tokens[i].lower() == "such" and i + 1 < len(tokens) and tokens[i + 1].lower() == "that"


def _infinitive(word: str) -> bool:
    """A verb after `to` (`ways to choose`): a lowercase word that is no determiner and no word LEXICON lists as a
    noun, unit or adjective (`to the nearest ten`, `to cm` are a preposition's objects)."""
    return word.islower() and not any(_has(role, word) for role in ("det", "noun", "count", "unit", "adj", "prep"))


def _is_owner(token: str) -> bool:
    return token.endswith(("'s", "’s")) and (_is_name(token) or _has("noun", token[:-2]) or _has("count", token[:-2]))


def _modifier(token: str) -> bool:
    low = token.lower()
    return low not in _NOT_HEADS and (_has("adj", token) or _has("noun", token) or _has("count", token) or low in _SUBJECT_ADJECTIVES
            or _head(token))


_NOT_HEADS = frozenset({"error", "errors"})
"""Quantity nouns that never head a box's subject: an error is how far a value is from the answer, so `The
error is \\boxed{6}` states what the answer is not (the prose grammar keeps the noun: `the minimum error in
the measurement of the position increases by 100%` answers a question about an error, math-verify's suite)."""


def _head(token: str) -> bool:
    """A quantity or counted noun, singular or plural (`coordinates`, `investments`); never `_NOT_HEADS`."""
    if not token.isalpha() or token.lower() in _NOT_HEADS:
        return False
    forms = {token, token[:-1] if token.endswith("s") else token, token[:-2] if token.endswith("es") else token}
    return any(_has("noun", f) or _has("count", f) for f in forms)


def _math_subject(token: str, computed: bool = True) -> bool:
    """A math name in a subject: a math segment whose content names a quantity (`$n$`, `$p(x)$`, `$a+b$`,
    not `$2x$`), or a lone letter (`x is`). `computed`: a computation without unknowns names one too (an object:
    `the value of $2^{10}$`); in the subject's own words it never does (red team 6 class 4, in a subject: `The
    answer $\\times 1000$ is`, `The total $10^3$ is`, `The value $\\pm 1$ is` scale or bound the value)."""
    if token.startswith("$") and token.endswith("$") and len(token) > 1:
        content = token[1:-1]
        return _side_states(content) and (computed or bool(re.search(r"[A-Za-z]", _SIDE_COMMAND_NOT_GREEK_RE.sub(
            " ", content))) or bool(_MATH_NAME_RE.match(_compact(content))))  # `$\\angle 3$`: a name, its digit no value
    return len(token) == 1 and token.isalpha() and token not in "aAI"


def _object_end(tokens: list[str], i: int, open_class: bool, operand: bool = False, governor: str = "") -> int:
    """Where the object of a preposition at `tokens[i - 1]` ends: open-class words guarded by `_NOT_OBJECTS`,
    numbers and math after `of`, `between`, `among` (a math segment holding one word is that word: `of rectangle
    $ABCD$`); LEXICON's words, math names and a part's label after the others. `operand`: the object of an
    `_OPERAND_HEADS` head's `of`, where any math holding no words names which one (`the coefficient of $x^2$`).
    `governor`: the word the preposition hangs on (`sum` in `the sum of the roots`), which `_taken_from` reads: a
    word that takes an `of` object or an owner's `'s` ends the object unless that allowlist admits it."""
    n, start = len(tokens), i
    while i < n:
        t, low = tokens[i], tokens[i].lower()
        if low in _OPEN_PREPS or low in _CLOSED_PREPS or low in _RELATIVE_OPENERS or t == "(" and not _part_label_at(tokens, i):
            break
        if t == "(":
            i += 3
            continue
        if _taking(tokens, i) and not _taken_from(tokens, start, i, governor):
            break  # `the value of the cube of $x$`, `... of $x$'s cube`: x cubed, never x (red team 11 class 3)
        if open_class and _agent_at(tokens, i):
            i += 2  # `eaten by Sam`
            continue
        if _math_subject(t) and not open_class and i == start:
            break  # `in k`, `in $K$`: a letter right after a closed preposition may name a scale; `in box B` names a place
        if _object_value(t) and not _value_role(tokens, start, i):
            break  # `the number of apples and 7`, `the sum of $x$ and $1$`, `between 7 and 8` (red team 12 class 3)
        if _has("det", t) or _math_subject(t) or low == "and" or t in ("'", "’") or operand and _operand_math(t) or (
                open_class and _word_segment(t)):
            i += 1
        elif open_class and (t.replace(",", "").replace(".", "").isdigit() or _object_word(t)):
            i += 1
        elif not open_class and (_has("noun", t) or _has("count", t) or _is_unit(t) or _has("adj", t) or _head(t)
                                 or low in _LABEL_WORDS or _point_label(t)) and not _not_object(low):
            i += 1
        else:
            break
    return i


def _object_value(token: str) -> bool:
    """A token of a subject's object that is a value: a number, a number word, or math that is a value (`$7$`,
    `$2^{10}$`: `_value_side`, no letter but `e` and `i`)."""
    math = _math_content(token)
    if math is not None:
        return _value_side(math)
    return token.replace(",", "").replace(".", "").isdigit() or token.lower() in _CLAUSE_NUMBER_WORDS


_NUMBERED_NOUNS = frozenset("integer integers number numbers multiple multiples year years prime primes divisor "
                             "divisors factor factors digit digits square squares cube cubes".split())
"""Counted things that are numbers themselves, so a range picks which are counted (`the number of years between 2000
and 3000 inclusive`, `the number of multiples of 7 between 2002 and 2996`: math-verify's and MATH's wording); `apples
between 7 and 8` holds a second value (red team 12 class 3)."""


_WHOLE_RANGE_NOUNS = frozenset("integer integers number numbers year years digit digits".split())
"""Numbered nouns whose members in a range are every whole number in it: their count is the range's own size (`the
number of integers between 7 and 8` is 0, or 2 inclusive), so a range of them alone states a second value beside the
box (`... is \\boxed{6}`, fx29r; issue 29's `between 3 and 9`). Never admitted, a condition after it or not (red team
14 class 7): a condition may pick every member or none (`such that $n \\ge 1$`, `that are integers`, `that are
positive`, a condition on another letter), and then the count is the range's size again; which conditions pick all is
no question a grammar can decide, so the range of whole numbers is refused whatever follows it (`the number of years
between 2000 and 3000 inclusive that can be written as ...`, math-verify's wording, is given up). The other `_NUMBERED_NOUNS`
(`primes`, `multiples`, `divisors`, `squares`) count what the question asks to find among them (`the number of primes
between 1 and 100`): the bounds are the question's data, and the count is no arithmetic on them."""


def _numbered_range(tokens: list[str], start: int) -> bool:
    """`between V and V` opening at `tokens[start]` (after `between`), whose nearest word before it is
    `_NUMBERED_NOUNS`: a range of the numbers counted; never of `_WHOLE_RANGE_NOUNS` (red team 14 class 7)."""
    words = [t.lower() for t in tokens[: start - 1] if t.isalpha() and t.lower() not in _OPEN_PREPS]
    shape = tokens[start: start + 3]
    if not (bool(words) and words[-1] in _NUMBERED_NOUNS and len(shape) == 3 and shape[1].lower() == "and"
            and _object_value(shape[0]) and _object_value(shape[2])):
        return False
    return words[-1] not in _WHOLE_RANGE_NOUNS


def _value_role(tokens: list[str], start: int, i: int) -> bool:
    """Whether the value at `tokens[i]`, in the object that opens at `start`, has one of the two roles an object's value
    may have (docs/math.md "Answer grammar", the subject's objects; red team 12 class 3): the whole object of `of`
    (`the number of multiples of 7`, `the value of $2^{10}$`, `the units digit of $3^{2024}$`: which operand), or a
    count before a counted noun that no `and` joins (`the sum of the first 10 terms`). An allowlist: anywhere else a
    value is a second value beside the answer's (`the number of apples and 7`, `the sum of $x$ and $1$`, x + 1 as
    `the value of $x + 1$` is, `the number of apples between 7 and 8`, `... among 7`, `... and 7 apples`)."""
    prep = tokens[start - 1].lower() if start else ""
    if prep == "between" and i in (start, start + 2) and _numbered_range(tokens, start):
        return True
    joined = i > start and tokens[i - 1].lower() == "and" or i + 1 < len(tokens) and tokens[i + 1].lower() == "and"
    if joined or prep in ("between", "among"):
        return False
    if i == start and prep == "of" and (i + 1 == len(tokens) or not tokens[i + 1].isalnum()
                                         or not _object_word(tokens[i + 1])):
        return True
    return _counts_objects(tokens, i)


OBJECT_ROLES = ("noun", "count", "unit", "adj", "det")
"""LEXICON's groups an object's word may come from: quantity and counted nouns, units, adjectives, determiners (`of
the apples`, `of the remaining money`, `of the first $n$ terms`): words already reasoned safe where they stand."""
OBJECT_WORDS: tuple[Entry, ...] = (
    _entry("object", "figure shape region part polygon triangle quadrilateral rectangle "
           "square rhombus parallelogram trapezoid trapezium kite diamond pentagon hexagon octagon circle semicircle "
           "sector arc chord segment line ray prism pyramid cube cuboid cylinder cone sphere hemisphere tetrahedron "
           "shaded unshaded",
           "figures and their parts that a geometry question names (`the area of the trapezoid`, `the perimeter of "
           "rectangle $ABCD$`, `the area of the shaded region`, `the angle between the lines`: MathVista's and "
           "math-verify's wording): each says which figure, none says what is done to its quantity"),
    _entry("object", "function polynomial sequence series equation expression graph curve "
           "parabola interval fraction inequality list variable coordinate quadratic cubic plane "
           "inclusive exclusive",
           "math objects a question names (`the roots of the polynomial`, `the sum of the series`, `the sum of the "
           "integers from 1 to 10 inclusive`): which object, never an operation on the value"),
    _entry("object", "heads tails",
           "the outcomes a probability question counts (`the expected number of heads`)"),
    _entry("object", "eaten sold bought given received",
           "participles that pick which counted things are meant, with `by` and their agent's name (`the number of "
           "apples eaten by Sam`, `_agent_at`); an operation on the quantity (`halved`, `doubled`, `taken`, "
           "`rounded`, `misread`) is not one of them"),
)
"""The closed vocabulary of an open object (after `of`, `between`, `among`; `_object_word`) besides `OBJECT_ROLES` and
a name of a known shape (`_point_label`): each group with the reason it is safe there. Derived from what the labelled
sources' subjects name (tests/data/peer_outputs/, tests/data/peers/: `trapezoid`, `lines`, `ABCD`, `inclusive`) and
the quantity questions' own figures; an unknown word refuses, however noun-shaped (issue 29: `The perimeter of ABCD
taken is`, `The area of the figure shrunk is` paid 6), so an operation's participle (`halved`, `doubled`,
`rounded`, `misread`) or a hedge after the object names no quantity."""
_OBJECT_VOCABULARY = frozenset().union(*(e.words for e in OBJECT_WORDS))
_LABELLED_BY = {**{w: 3 for w in OBJECT_WORDS[0].words}, **{w: 2 for w in "segment line ray chord arc side".split()},
                **{w: 1 for w in "point vertex".split()}}
"""The labelled objects of an object (`the perimeter of rectangle $ABCD$`, `the length of segment $AB$`, `the distance
from point $P$`) and the fewest capitals of their label: a figure is named by three vertices or more, a segment, line,
ray, chord, arc or side by its two ends, a point by one letter. A shorter label or any other name after the noun is an
operation on the name (`the length of square $AB$` is AB squared, `cube $x$`: red team 15 class 4)."""
_NAMED_KINDS = OBJECT_WORDS[1].words | frozenset("integer integers prime primes number numbers".split())
"""Kinds of math object a question names by a letter (`the number of integers $p$ and $q$`, `the roots of the polynomial
$p$`): the object is the name's value, no operation on it (red team 15 class 4)."""
_PLAIN_NAME_RE = re.compile(r"[A-Za-z](?:_\{?[A-Za-z0-9]{1,3}\}?)?")

_POSSESSIVE = ("'s", "’s")
TAKEN_QUANTITIES: tuple[Entry, ...] = (
    _entry("taken", "value values number numbers sum sums product products difference differences average averages "
           "mean means median total amount area areas perimeter perimeters volume volumes length lengths width "
           "height radius diameter circumference measure measures coefficient coefficients determinant slope maximum "
           "minimum degree count ratio probability measurement measurements",
           "quantities whose value is what a question asks for (`the value of the sum of the roots`, `the area of "
           "the base of the prism`): the value of one of them is that quantity, never an operation on a value"),
    _entry("taken", "side sides edge edges base bases diagonal diagonals",
           "a figure's parts, which a geometry question measures (`the value of the third side of the triangle`, "
           "`the length of the side of the square`): each is a length the question asks for"),
)
"""The one home of the words that may take an `of` object or an owner's `'s` inside a subject's object (`_taken_from`;
docs/math.md "Answer grammar", the subject's objects), each group with its reason. An allowlist (red team 11 class 3):
the list of operation words it replaces (`OPERATION_WORDS`: `square`, `root`, `part`, `half`, `floor`, ...) was a
blocklist inside the object allowlist, and `the third of $x$`, `the remainder of $x$`, `the last digit of $x$`,
`$x$'s cube`, `$x$'s floor` named operations it did not list (all paid 6). Any other word there refuses, however
harmless (`the fraction of $x$`, `the root of $x$`, `the square roots of $x$`), and so does a word before it in its
object that is no determiner, number or `_TAKEN_MODIFIERS` (`the integer part of`, `the square roots of`). A plural
counted noun (`roots`, `digits`, `divisors`, `apples`) is admitted under an `_AGGREGATES` governor only (`the sum of
the roots of the polynomial`, `the number of multiples of 7`): a count or total over a set, never one operation on a
value (`the value of the roots of $x$` is refused)."""
_TAKEN_VOCABULARY = frozenset().union(*(e.words for e in TAKEN_QUANTITIES))
_AGGREGATES = frozenset("number numbers sum product average mean median count total maximum minimum difference".split())
"""Heads that count, total or compare the members of a set (`_taken_from`): under them a plural counted noun takes its
own `of` object (`the number of divisors of $n$`, `the sum of the digits of $N$`)."""
def _taking(tokens: list[str], i: int) -> bool:
    """Whether `tokens[i]` takes an object of its own: `of` follows it (`the sum of`), or an owner's `'s` stands right
    before it (`$x$'s cube`, `Sam's apples`)."""
    following = tokens[i + 1].lower() if i + 1 < len(tokens) else ""
    owned = i >= 1 and tokens[i - 1].endswith(_POSSESSIVE) or i >= 2 and tokens[i - 2] in ("'", "’") and tokens[
        i - 1] == "s"
    return following == "of" or owned


def _taken_from(tokens: list[str], start: int, i: int, governor: str) -> bool:
    """Whether `tokens[i]`, which takes an object (`_taking`), may stand there (`TAKEN_QUANTITIES`, its reasons): a
    listed quantity or figure part, or a plural counted noun under an `_AGGREGATES` governor; and every word before it
    in its object (from `start`, past an owner) a determiner, a number or a `_TAKEN_MODIFIERS` word."""
    low = tokens[i].lower()
    plural_counted = low.endswith("s") and _has("count", low) and governor in _AGGREGATES
    if low not in _TAKEN_VOCABULARY and not plural_counted:
        return False
    before = tokens[start:i]
    if len(before) >= 3 and before[-2] in ("'", "’") and before[-1] == "s":
        before = before[:-3]  # `the sum of $p$'s roots`: the owner names which one
    elif before and before[-1].endswith(_POSSESSIVE):
        before = before[:-1]
    return all(_has("det", t) or t.isdigit() or t.lower() in _TAKEN_MODIFIERS for t in before)


_POINT_LABEL_RE = re.compile(r"[A-Z]{1,8}")


def _point_label(word: str) -> bool:
    """A name of a known shape in an object: a figure's vertex labels or one point (`ABCD`, `ABCDEFGH`, `P`),
    capitals only. A capitalised word (`Sam`, `Halved`) is no label: a person's name has its one slot as a subject."""
    return bool(_POINT_LABEL_RE.fullmatch(word))


_SELECTING = OBJECT_WORDS[-1].words


def _agent_at(tokens: list[str], i: int) -> bool:
    """`by NAME` at `tokens[i]` right after a selecting participle (`OBJECT_WORDS`' last group: `the apples eaten by
    Sam`): the one place an object holds a person's name (`_is_name`), as the participle's agent."""
    return (0 < i < len(tokens) - 1 and tokens[i].lower() == "by" and tokens[i - 1].lower() in _SELECTING
            and _is_name(tokens[i + 1]))


def _object_word(token: str) -> bool:
    """A word of an open object (`_object_end`: `the area of the trapezoid`, `the number of apples remaining`):
    a word of `OBJECT_ROLES` (a plural of a noun too: `_head`) or `OBJECT_WORDS`, or a point label
    (`_point_label`), an owner's `'s` allowed; any other word refuses, however noun-shaped (issue 29: `The
    perimeter of ABCD taken is`, `... halved`, `... misread`, `The area of the figure shrunk is`)."""
    word = token.removesuffix(_POSSESSIVE[0]).removesuffix(_POSSESSIVE[1])
    if not word.isalpha() or not word.isascii() or _not_object(word.lower()):
        return False
    low = word.lower()
    plural = {low, low.removesuffix("s"), low.removesuffix("es")}  # `the lines`, `the prisms`
    return (any(_has(role, word) for role in OBJECT_ROLES) or _head(word) or bool(plural & _OBJECT_VOCABULARY)
            or _point_label(word))


_OPERAND_HEADS = frozenset("coefficient coefficients degree digit digits determinant".split())
"""Heads whose `of` object is the operand the quantity is taken from, never the quantity itself (class 10: `the
coefficient of $x^2$`, `the degree of $p(x)$`, `the units digit of $3^{2024}$`): any math there says which one, so a
function of the unknown (`$x^2$`) is admitted in that object. An allowlist: after `value`, `answer`, `result`,
`number` the object is the quantity (`the value of $2x$` names 2x), and a function of the unknown there stays refused."""
_DIVISION_HEADS = frozenset("remainder remainders residue".split())
"""Heads defined by a division (class 10: `the remainder when $N$ is divided by $1000$`, MATH's and AIME's wording):
after them `when` opens that division, read whole by `_division_end`; `divided` is otherwise an operation on the
object (`_NOT_OBJECTS`: `the value of x divided by 1000`)."""


def _division_end(tokens: list[str], i: int) -> int:
    """Where the division `when X is divided by Y` at `tokens[i]` (`when`) ends; `i` when it is not one. X: a math name
    or a computation (`$N$`, `$3^{2024}$`, `$2^{100}$`, not `$2N$`) or a number; Y the same (`$1000$`, `7`, `$n$`). An
    allowlist of the one idiom: any other word after `when` (`when rounded`, `when n is odd`) is refused."""
    words = [t.lower() for t in tokens[i: i + 6]]
    if len(words) < 6 or words[0] != "when" or words[2:5] != ["is", "divided", "by"]:
        return i
    operands = (tokens[i + 1], tokens[i + 5])
    return i + 6 if all(_math_subject(t) or t.isdigit() for t in operands) else i


def _operand_math(token: str) -> bool:
    """A math segment holding no words (`$x^2$`, `$p(x)$`, `$3x^2 + 2x$`): no font group and no run of letters that
    is a word (`$x^2 \\text{ thousand}$`, `$x \\cdot thousand$` are refused)."""
    if not (token.startswith("$") and token.endswith("$") and len(token) > 2):
        return False
    inner = token[1:-1]
    runs = re.findall(r"(?<![A-Za-z\\])[A-Za-z]{2,}(?![A-Za-z])", _SIDE_COMMAND_RE.sub(" ", inner))
    return not _SIDE_TEXT_RE.search(inner) and not any(_prose_run(r) for r in runs)


def _word_segment(token: str) -> bool:
    """A math segment holding one word (`$ABCD$`, a figure named by its vertices): that word, in an open object, read
    as a word there is (`_object_word`: `$halved$` is no label)."""
    inner = token[1:-1].strip() if token.startswith("$") and token.endswith("$") else ""
    return bool(inner) and _object_word(inner)


def _part_label_at(tokens: list[str], i: int) -> bool:
    """`(a)`, `(2)` at `tokens[i]`: a part's label (`for part (a)`)."""
    return i + 2 < len(tokens) and tokens[i + 2] == ")" and len(tokens[i + 1]) <= 2 and tokens[i + 1].isalnum()


CLAUSE_WORDS: tuple[Entry, ...] = (
    _entry("clause", "that which where whose who whom such as",
           "what opens or joins a relative clause (`that can be written as`, `for which`, `such that`)"),
    _entry("clause", "can be been being is are was were has have satisfies satisfy satisfying hold holds lie lies "
           "win wins choose chosen select selected arrange arranged form formed written",
           "the verbs a defining clause uses (`the probability that Alice wins the game`, `the values of $k$ for "
           "which the quadratic has real roots`, `ways to choose`, `can be written as the sum of`: MATH's, "
           "math-verify's wording); an operation on the value (`halved`, `rounded`, `misread`) is none of them"),
    _entry("clause", "positive nonnegative odd even real distinct one two three",
           "what a defining clause says of the objects it counts (`the sum of two positive integers`, `real roots`):"
           " it picks the objects out, the answer's value is not in the clause"),
)
"""The closed vocabulary of a relative clause after an object (`_relative_clause`) besides an object's
(`_object_word`) and LEXICON's verbs, prepositions and pronouns: each group with its reason (issue 29: `The number of
apples that Sam halved is`, `The perimeter of ABCD that was halved is` paid 6 while the clause's words were read by
shape). Derived from the labelled sources' clauses (tests/data/peers/math_verify.jsonl)."""
_CLAUSE_VOCABULARY = frozenset().union(*(e.words for e in CLAUSE_WORDS))
_TAKEN_MODIFIERS = (_BY_ROLE.get("adj", frozenset()) | CLAUSE_WORDS[2].words | _SUBJECT_ADJECTIVES
                    | frozenset("prime complex rational".split()))
"""What may stand before a `_taken_from` word in its object besides determiners and numbers (`the third side of`, `the
two real roots of`, `the distinct prime factors of`): LEXICON's adjectives and the words that pick objects out."""
_CLAUSE_ROLES = ("verb", "prep", "pronoun")


def _clause_word(tokens: list[str], k: int) -> bool:
    """A word of a relative clause (`_relative_clause`): `CLAUSE_WORDS`, an object's word, LEXICON's verbs,
    prepositions and pronouns, or a name right before such a verb (its subject: `that Alice wins`), never
    `_not_object`'s (`that is roughly`, `that is not`)."""
    t = tokens[k]
    low = t.lower()
    if not t.isalpha() or _not_object(low):
        return False
    if low in _CLAUSE_VOCABULARY or any(_has(role, t) for role in _CLAUSE_ROLES) or _object_word(t):
        return True
    following = tokens[k + 1] if k + 1 < len(tokens) else ""
    return _is_name(t) and (_has("verb", following) or following.lower() in _CLAUSE_VOCABULARY)


def _relative_clause(tokens: list[str], defining: bool = False, own: frozenset[str] = frozenset(),
                     head: tuple[Facts, str | None] | None = None) -> bool:
    """A relative clause after an object (`that can be written as the sum of positive integers \\\\( p \\\\)
    and \\\\( q \\\\) such that \\\\( 2p = 5q \\\\)`, `(which is a polynomial)`): it says which object
    is meant; its words are a closed vocabulary (`_clause_word`), and a value in it only where `_clause_values_named`
    admits one. `defining`: an infinitive or `such that` condition (`ways to choose 2 of 4`, `such that $f(n) = n$`),
    whose math and numbers pick the objects out; the copula rule still holds there, and so does the rule that no
    math in a clause sets the subject's own unknown (`own`, `conditions.condition_fixes`: `the value of $x$ such that $x = 7$`, red
    team 11 class 2). `head`:
    what the subject's head says of its own unknowns and the optimum it names (`_identity_head`,
    `conditions.HEAD_WORDS`), None when it names no value of them."""
    if not defining and not _clause_values_named(tokens):
        return False
    maths = [math for math in map(_math_content, tokens) if math is not None]
    value = _BOX_VALUE.get()  # the box's value, which a condition on the subject's own unknown must hold at
    facts, optimum = head if head is not None else (None, None)
    if condition_fixes(maths, own, defining and not own, _prose_run, facts, value, optimum):
        return False
    return not _clause_states_value(tokens) and all(
        t.startswith("$") or t in "()'’" or t.replace(",", "").replace(".", "").isdigit() or t.lower() == "and"
        or _clause_word(tokens, k) for k, t in enumerate(tokens))


def _math_content(token: str) -> str | None:
    """The inside of a math token (`$x = 7$` is `x = 7`), or None for any other token."""
    return token[1:-1] if token.startswith("$") and token.endswith("$") and len(token) > 1 else None


_FONT_TEXT_RE = re.compile(r"\\(?:text|mathrm|mbox|textbf|textit|operatorname)\s*\{[^{}]*\}")


def _compact(math: str) -> str:
    """Math without spaces, braces and `$` (`x_{1}` and `x_1` are one name)."""
    return re.sub(r"[\s{}$]|\\[,;!: ]", "", math)


def _value_side(side: str) -> bool:
    """A side of an equation that is a value: something written, holding no letter but the constants `e` and `i` once
    font groups and commands are dropped (`7`, `\\frac{7}{2}`, `\\sqrt{49}`, `-7`, `\\pi`, `e^2`); a side with any
    other letter names something (`2k + 1`)."""
    bare = _SIDE_COMMAND_RE.sub(" ", _FONT_TEXT_RE.sub(" ", side))
    return bool(side.strip()) and not re.search(r"[A-DF-HJ-Za-df-hj-z]", bare)


def _own_names(tokens: list[str]) -> frozenset[str]:
    """The math a subject's own words hold before its condition (`The value of $x$`, `The number $n$`, `the integer
    x`, `the value of $x + y$`): the unknowns whose value the subject names, as written (`conditions.condition_fixes`
    reads them)."""
    names = {c.strip() for c in (_math_content(t) for t in tokens) if c is not None}
    names |= {t for t in tokens if len(t) == 1 and t.isalpha()}
    return frozenset(name for name in names if name)




_CLAUSE_COPULAS = frozenset("is are was were be been being as equal equals to".split())
"""The words that say what a clause's object is (`that is`, `which was`, `can be written as`): a number or math right
after one states a value beside the answer's (red team 9 class 2: `The number of apples that is 6000 is \\boxed{6}`)."""
_CLAUSE_NUMBER_WORDS = frozenset("zero one two three four five six seven eight nine ten hundred thousand million".split())
NUMBER_WORDS = _CLAUSE_NUMBER_WORDS  # spelled values (`x = seven`: extract._states_another)


_APPOSITION_HEADS = OBJECT_WORDS[0].words | OBJECT_WORDS[1].words | frozenset(
    "integer integers prime primes point points vertex vertices".split())
"""Objects a clause may name by a label right after them (`two positive integers $p$ and $q$`, `the circle
$x^2+y^2=7$`): figures, math objects, integers and points, whose label says which object; never a quantity word (`the
value 7`, `the answer 7`, `the number 7` state a value). The label is a name (`_names_object`), never a number: `that
is the integer 7` states 7 as `that is the number 7` does (red team 11 class 1), and so does a polynomial's number
(`(which is the constant polynomial 1)` fixes a degree: red team 14 class 5)."""
_CLAUSE_VALUE_NOUNS = frozenset("value values answer answers result results".split())
"""Quantity words that make a clause holding a number talk of a value (`which has 6000 apples as its value`)."""


def _value_like(token: str) -> bool:
    """A token that can state a value in a clause: a digit, math, a number word, a bracket or a quote."""
    return (token.startswith("$") or any(c.isdigit() for c in token) or token.lower() in _CLAUSE_NUMBER_WORDS
            or token in ("(", ")", "'", "’", '"', "“", "”", "[", "]"))


def _counts_objects(tokens: list[str], k: int) -> bool:
    """Whether the number at `tokens[k]` counts the objects after it (`that hold 7 apples`, `two positive integers`):
    a whole number or number word, then adjectives, then a counted noun that is no quantity word."""
    t = tokens[k]
    if not (t.isdigit() or t.lower() in _CLAUSE_NUMBER_WORDS):
        return False
    j = k + 1
    while j < len(tokens) and (_has("adj", tokens[j]) or tokens[j].lower() in CLAUSE_WORDS[2].words):
        j += 1
    noun = tokens[j].lower() if j < len(tokens) else ""
    return noun.isalpha() and noun not in _CLAUSE_VALUE_NOUNS and _object_word(noun)


def _clause_values_named(tokens: list[str]) -> bool:
    """Whether every value-like token of a relative clause (that, which, who, whose, where, a clause with no opener;
    docs/math.md "Answer grammar", "Before a box") names or counts an object (an allowlist, red team 10 class 2: `that
    has the value 7`, `that is (7)`, `that is '7'`, `that is and 7` paid 6 past the copula rule): a name right after
    an object (`_APPOSITION_HEADS`, then `and` another: `integers $p$ and $q$`, `the circle $x^2+y^2=7$`), which is
    math holding a letter (`_names_object`; red team 11 class 1: a number there is a value, `that is the integer 7`,
    `which becomes the integer 7`, `that is the sum of the integers 3 and 4` paid 6), a count before one
    (`_counts_objects`), the clause's own brackets (`(which is ...)`), or anything after `such that` (a defining
    condition). A clause holding any value never holds a quantity word (`_CLAUSE_VALUE_NOUNS`). No number labels an
    operand any more (red team 14 class 5: `the degree of $p(x)$ (which is the constant polynomial 1)` states the
    degree through the polynomial it names)."""
    n, labelled, valued, head = len(tokens), False, False, ""
    for k, t in enumerate(tokens):
        if _such_that(tokens, k):
            break
        if not _value_like(t):
            labelled = labelled and t.lower() == "and"
            continue
        valued = True
        prev = tokens[k - 1].lower() if k else ""
        if t == "(" and k == 0 or t == ")" and k == n - 1 and tokens[0] == "(":
            continue
        if t not in "()'’\"“”[]" and (prev in _APPOSITION_HEADS or labelled and prev == "and"):
            head = prev if prev in _APPOSITION_HEADS else head
            if not _names_object(t, head):
                return False
            labelled = True
            continue
        if _counts_objects(tokens, k):
            continue
        return False
    return not (valued and any(t.lower() in _CLAUSE_VALUE_NOUNS for t in tokens))


def _names_object(token: str, head: str) -> bool:
    """A label that names the object `head` names (`integers $p$`, `the polynomial $p(x)$`, `the circle $x^2+y^2=7$`):
    a math name (`_MATH_NAME_RE`), or after a curve (`_CURVE_HEADS`) its equation, holding a letter. Never a number or
    any other math (`7`, `$7$`, `$7 + 0x$`, `$7_a$`), nor an equation after any other head (`the integer $n = 7$`
    states 7 as `the integer 7` does)."""
    math = _math_content(token)
    if math is None:
        return False
    if _MATH_NAME_RE.match(_compact(math)):
        return True
    letters = re.search(r"[A-Za-z]", _SIDE_COMMAND_RE.sub(" ", _FONT_TEXT_RE.sub(" ", math)))
    return head in _CURVE_HEADS and "=" in math and bool(letters)


_CURVE_HEADS = frozenset("line lines circle circles curve curves parabola parabolas graph graphs plane planes "
                         "hyperbola ellipse".split())
"""Objects named by their equation (`the points that lie on the circle $x^2+y^2=7$`, `the line $y = 7$`): the
equation says which curve, never what a value is."""
_COUNTING_VERBS = frozenset(
    "has have had hold holds held contain contains contained cost costs satisfies satisfy satisfying lie lies win wins "
    "choose chosen select selected arrange arranged form formed".split())
"""The verbs of a relative clause that may take a count as their object (`that has 7 apples`, `that hold 7 apples`,
`ways to choose 2 of 4`, `that satisfy $1 \\le n \\le 7$`): each says what the object holds, picks or satisfies, never
what it is. An allowlist (red team 12 class 1: `becomes`, `remains`, `stays`, `gives` state the object's count as `is`
does): every other verb of a clause is read as a copula (`_clause_copula`)."""
_CLAUSE_ENDS = CLAUSE_WORDS[0].words - {"as"}
"""Where a copula's span ends (`_clause_states_value`): a new clause opener (`that`, `which`, `such that`), whose own
copula is read in turn, and whose condition is `conditions.condition_fixes`'s."""


def _clause_copula(word: str) -> bool:
    """Whether a clause's word says what its object is: `_CLAUSE_COPULAS`, or any verb (LEXICON's, `CLAUSE_WORDS`')
    that is not `_COUNTING_VERBS` (docs/math.md "Answer grammar", "Before a box")."""
    low = word.lower()
    verb = _has("verb", word) or low in CLAUSE_WORDS[1].words
    return low != "to" and (low in _CLAUSE_COPULAS or verb and low not in _COUNTING_VERBS)


def _clause_states_value(tokens: list[str]) -> bool:
    """Whether a relative clause says its object is a value (docs/math.md "Answer grammar", "Before a box"): a copula
    (`_clause_copula`: `is`, `equals`, `becomes`, `remains`, any verb but `_COUNTING_VERBS`; `to` only in the span of
    one, `equal to`) followed by a number, a
    number word or a math segment anywhere before the clause ends (`_CLAUSE_ENDS`): `that is 6000`, `for which $x$ is
    7`, `that can be written as 7`, `which is $6000$`, `that is the integer 7`, and since red team 12 class 1 through
    a preposition (`that is in total 7 apples`, `that is by count 7 apples`, `that becomes 7 square meters`). No value
    after a copula is exempt (red team 14 class 4: a count in a quantity's `of` object, `that is the sum of 7 apples`,
    states the head's count as `that is 7 apples` does; `that can be written as the sum of two positive integers` is
    refused with it). A clause that picks objects out (`that are positive`, `that has 7 apples`, `ways to choose 2 of
    4`) says nothing of the answer's value."""
    for k, word in enumerate(tokens):
        if not _clause_copula(word):
            continue
        crossed = False  # a preposition since the copula: math there is a value only when it is one (`_value_side`)
        for j in range(k + 1, len(tokens)):
            t, low = tokens[j], tokens[j].lower()
            if low in _CLAUSE_ENDS:
                break
            crossed = crossed or low in _OPEN_PREPS or low in _CLOSED_PREPS or low == "by"
            math = _math_content(t)
            if math is not None and crossed and not _value_side(math):
                continue  # `as the sum of two positive integers $p$ and $q$`: names the objects
            if t.startswith("$") or t.replace(",", "").replace(".", "").isdigit() or low in _CLAUSE_NUMBER_WORDS:
                return True
    return False


RESTATING_WORDS: tuple[Entry, ...] = (
    _entry("restating", "there it they them this that these those such a an any some one two three many several "
           "infinitely finitely",
           "what a Yes/No reason restates its claim with (`Yes, there are such integers.`, `No, there is no such "
           "integer.`, `Yes, there are 3 of them.`, `Yes, infinitely many exist.`): a pronoun, a determiner, a count "
           "of the objects; none negates, hedges or conditions the claim"),
    _entry("restating", "is are exist exists existing does do be",
           "the verbs of existence a restating shape is built on (`there exists`, `such n do exist`)"),
    _entry("restating", "solution solutions root roots integer integers number numbers natural naturals rational "
           "rationals real reals complex whole prime primes value values pair pairs triple triples function functions "
           "polynomial polynomials matrix matrices set sets sequence sequences way ways triangle triangles "
           "digit digits example examples",
           "the objects a yes/no math question asks about (`Is there a real solution?`, `Do such integers exist?`, "
           "`Is there a way to ...?`, `Does such a triangle exist?`): each names what exists, none what is done to "
           "it, and none hedges or retracts (never LEXICON's whole noun list: `Yes, there is a possibility.`, `... a "
           "problem.`, `... are lies.` paid Yes through it, red team 10 class 1)"),
    _entry("restating", "positive nonnegative odd even distinct",
           "what picks the objects out (`Yes, there are infinitely many positive even solutions.`): a property of "
           "the objects, never of the claim"),
    _entry("restating", "greater less larger smaller bigger than",
           "a bound that picks the objects out (`Yes, such integers n greater than one exist.`, MATH's wording): "
           "it narrows which objects exist, it states no second claim"),
    _entry("restating", "of in for with",
           "prepositions that tie the objects to the question's own (`Yes, there are 3 of them.`, `No, there is no "
           "solution in integers.`, `No, there is no such pair with this sum.`)"),
)
"""The closed vocabulary of a Yes/No reason's noun phrase, its one home (`restating_word`; docs/math.md "Answer
grammar", the Yes/No shapes): each group with its reason. An allowlist (issue 29: `\\text{Yes, there are Nope
solutions}` paid Yes while the slot took any plain word not on a hedge list; red team 10: `Yes, there is a
possibility.` paid while it took LEXICON's object groups): any other word, however harmless it looks, makes the reason
decide nothing. A single letter (`such n exist`) and a number or math segment (`§`, `#`: `compare._restates`) are
the slot's other tokens."""
_RESTATING_VOCABULARY = frozenset().union(*(e.words for e in RESTATING_WORDS))


def restating_word(word: str) -> bool:
    """Whether a lower-cased word may stand in a Yes/No reason's noun phrase (`compare.yes_or_no`): a single letter (a
    variable, `such n exist`) or a word of `RESTATING_WORDS`; nothing else (no noun, adjective or verb of LEXICON,
    `OBJECT_WORDS` or `CLAUSE_WORDS`: `possibility`, `problem`, `lies` hedge or retract the claim)."""
    return word.isascii() and word.isalpha() and word.islower() and (len(word) == 1 or word in _RESTATING_VOCABULARY)
