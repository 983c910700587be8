"""Red team of issue 29's answer grammar, eighth pass (rt29h): wrong answers the grader pays, one family per class,
graded by the real grader (`grade_math` through `tests.helpers.math_verdicts`) in both profiles (docs/math.md "Answer
grammar"), and one class through a real server on loopback (HTTP and gRPC). Each `*_NEAR` case asserts the safe
behaviour and is a strict xfail until its class is closed; plain tests hold what held. Gold 6 unless a case says
otherwise. Left out: an unknown word after an `of ...` object (another helper is closing it).

Classes 1 to 3 share one root: `grammar.read` has three readings that are neither "refused" nor a reading
of the words (`Reading("words", ...)` from `_tokens` returning None, and `Reading("math", ...)` for a long text), and
`parsing.answer_refusal` refuses only `kind == "refused"`, so what the grammar did not read is admitted and handed to
math-verify, which reads a value out of it. An allowlist must refuse what it did not read.

1. A lone `\\text{}` group is a word answer read as written (`grammar._tokens`: `text.startswith("\\text")` and one
   `{` returns None, `read` answers "words"), but math-verify reads the `$...$` math inside the group and drops the
   words: `\\boxed{\\text{$6$ million}}`, `\\boxed{\\text{not $6$}}`, `\\boxed{\\text{about $6$}}`, `\\boxed{\\text{at
   least $6$}}`, `\\boxed{\\text{$6$ is wrong}}`, `\\boxed{\\textbf{$6$ thousand}}` (any `\\text...` command),
   `\\fbox{...}`, `Final Answer: \\text{$6$ million}`, `The answer is $\\text{$6$ million}$.` pay 6 in both profiles
   (16 cases below). Multiple choice held (`\\boxed{\\text{not $5$}}` against B is incorrect).
2. An answer without a digit is never read (`grammar._tokens`: `if not any(c.isdigit() ...)`: return None, "words"),
   so every symbolic gold without a digit (`\\pi`, `e`, `\\infty`, `x`, `a+b`, `\\sqrt{x}`) pays with any words
   beside it: `\\boxed{\\pi \\text{ thousand}}`, `\\boxed{\\pi \\text{ million}}`, `\\boxed{\\pi\\,\\mathrm{k}}`,
   `\\boxed{e\\text{?}}`, `\\boxed{\\infty \\text{ is wrong}}`, `\\boxed{\\sqrt{x} \\text{ is wrong}}`, `\\boxed{a+b
   \\text{ (approx.)}}`, `\\boxed{\\pi}\\text{ thousand}` (the words after a box are joined to its content,
   `extract._with_what_follows`, then not read), `Final Answer: \\pi \\text{ million}`, `The answer is $\\pi
   \\text{ thousand}$.`, and under lenient the last expression (`it is $\\pi \\text{ million}$.`) (14 cases
   below; through the real server too). `\\boxed{\\frac{\\pi}{2} \\text{ thousand}}` (a digit) is refused.
3. An answer longer than `grammar.MAX_CHARS` (400) is read as math, unread (`grammar.read`'s first lines:
   `if len(text) > MAX_CHARS: return Reading("math", text)`), while a box may hold `max_answer_chars` (2,000):
   400 spaces inside the text group, an empty `\\phantom{}` of 400 letters or 200 `{}` after it make
   `\\boxed{6\\text{ thousand ...}}`, `\\boxed{6\\text{ or 7 ...}}`, `\\boxed{6\\text{, maybe ...}}`, `\\boxed{6
   \\mathrm{thousand ...}}` pay 6, and the same after an anchor (`Final Answer: 6 \\text{ thousand ...}`, `#### ...`,
   `The answer is $6\\text{ thousand ...}$.`) and in a concluding sentence (`So, the total is $6\\text{ thousand
   ...}$.`), and under lenient the last expression (`so it is $6\\text{ thousand ...}$`) (12 cases below).
   Trailing spaces outside the group are stripped first and held; `I think it is $6\\text{ thousand ...}$.` is
   refused by its lead.
4. NFKC folds a character with a number's meaning into a unit's letter: `unicode_math.to_ascii_math` ends with
   `unicodedata.normalize("NFKC", ...)` over the whole window, so the small Roman numerals `ⅿ` (1000), `ⅾ` (500),
   `ⅽ` (100), `ⅼ`/`Ⅼ` (50) become `m`, `d`, `c`, `l`, which the unit allowlist reads as metre, day, cent(i), litre,
   and the modifier letter `ᵐ` (a superscript m: `6ᵐ` is 6 to the m) becomes `m`: `The answer is 6 ⅿ.`, `\\boxed{6ⅿ}`,
   `\\boxed{6\\text{ ⅿ}}`, `\\boxed{6} ⅿ`, `So, the total is 6 ⅿ.`, `\\boxed{6ⅾ}`, `The answer is 6 ⅽ.`, `\\boxed{6ᵐ}`
   pay 6 (8 cases below). Held: `ⅱ`, `ⅲ`, `Ⅽ`, `ℳ`, bold `𝐤`, full-width `ｋ`, `ᵏ`, `ⁿ`, `ⁱ`, `ˣ` are refused
   (they fold to no unit). NFKC is a list of folds nobody chose; the folds the reader needs (full-width digits,
   spaces) are few.
5. Grading time (no test: the suite has no timed assertions). One `grade_math` (strict, warm process) of a box under
   `max_answer_chars`: `\\boxed{1.1.1. ... }` (1,808 characters) 3.3 s (800 repeats 2.1 s, 400 0.8 s),
   `\\boxed{\\sin(\\sin(\\sin(6)))+\\cos(x)+...+6}` (1,629) 1.7 s, `\\boxed{a+a+...+6}` (1,809) 1.1 s, all in
   math-verify's `latex2sympy` parse (ANTLR; `convert_set_elements` for the dotted run), so about quadratic. The worker's
   parent bounds each item by its deadline; each such answer still costs one worker seconds (a GRPO group of 16 of
   them, a minute). Under 1 s: `\\boxed{6\\,...}`, `\\quad`, `{}`, `\\!`, `\\;`, spaces (2,000 characters), an `=` chain of
   600 sides in a box, an anchor or a concluding sentence, nested `\\sqrt`, `\\frac` sums, `x^x^...`, `1/1/...`, matrices.

Held (nothing paid that is a wrong answer): `\\fbox{6}` / `\\boxed {6}` / `\\boxed{{6}}` pay (right answers); several
boxes (`\\boxed{6}\\boxed{7}`, `\\boxed{7} \\boxed{6}`, `\\boxed{6} or \\boxed{7}`) are refused; a box inside `\\text{}`
(`\\text{\\boxed{6}}`, `The answer is \\text{\\boxed{6} thousand}.`) is no answer; scales written with a zero-width
space, word joiner, BOM, soft hyphen, CGJ or Mongolian vowel separator between digits (`6\\u200b000`), thin, narrow and
non-breaking spaces, `6'000`, `6’000`, `6\\u066c000`, `6_000` read as one larger number or are refused; RTL and bidi
marks around a number are refused; Arabic-Indic and Devanagari digits are refused (a recall gap, not a hole);
full-width and mathematical-bold digits pay as the digit (NFKC); the concluding reader refuses any line after its
sentence (a code fence, a list item, a heading, `**Note:** this is wrong.`, `Actually, 7.`, `$$7$$`, `| 7 |`,
`<answer>7</answer>`) and reads markdown around its own sentence (`- `, `1. `, `> `, `**...**`) as markup; struck-out
values (`~~6~~`, `<s>6</s>`, `<del>6</del>`) and HTML comments after a value are refused; a chain across words or
sentences in an anchor (`Final Answer: z = 4. w = 9`, `z = 4 if w = \\boxed{9}`, `So, z = 4 when w = 9.`) is refused;
`\\boxed{9}` followed by `\\cdot 10^3`, `e3`, `\\mathrm{k}`, `K`, `M`, `bn`, `mn`, `lakh`, `thou`, `Tsd.`, `mln`,
`тыс.`, `млн`, `万`, `萬`, `천`, `만`, `ألف`, `אלף`, `हज़ार`, `triệu`, `juta`, `ribu`, `milyon`, `kUSD`, `k€`, `kilo`,
`megs` is refused (units with SI prefixes pay: `km`, `Mm`, `ks`, `kWh`, `kB`); a number base subscript is its
value (`\\boxed{12_8}` is incorrect against 12); after the non-English anchors, scales, hedges and negations are
refused (`答案是6千`, `答案是6万。`, `答えは約6です。`, `答案是6左右。`, `答案不是6。`, `Die Antwort lautet 6 Tausend.`, `6 Mio.`,
`La réponse est 6 mille.`, `environ 6`, `n'est pas 6`, `La respuesta es 6 mil.`, `Ответ: 6 тыс.`, `около 6`, `Jibu ni 6
elfu.`, `উত্তর হল 6 হাজার।`, `సమాధానం 6 వేలు.`, `คำตอบคือ 6 พัน`), counted nouns and currencies pay (`答案是6个。`, `答えは6円です。`);
noticed and left alone: `La réponse est 6 cents.` pays 6 (the English unit `cents`; French `six cents` is 600). Reuse keys: `sandbox/keys.py` `reuse_key` writes every value typed;
the engine's math key (`verifier/engine.py` `_math_key`: gold, choices, extraction text and source, deadline) and the
worker's compared-verdict key (`grade.py` `_grade_text`: parsed gold text, answer) hold every field the verdict reads
after extraction (the profile only through the extraction); two tasks differing only in the order of their choices
get their own verdicts on gRPC and HTTP (test below). Not found: a collision.

Recall gaps (refused, never paid; not holes): `Hence, the answer is $6$ cm$^2$.` (a unit's power in its own math
segment), `The total is therefore 6.` (a connective after the copula), `The answer is 6 (six).` and `Therefore, the
answer is $\\boxed{6}$ (six).` (the number spelled out beside it), `Also ist die Antwort 6.` (German inverted order:
the anchor is `Antwort ist`), `So, the answer is six.`, Arabic-Indic digits (`The answer is ٦.`).
"""

from __future__ import annotations

import pytest

from tests.helpers import choice_case as mc, math_task, number_case as n, paid_test, refused_test
from tests.helpers import server_pair_test, server_refused_test

PAD = " " * 400  # past grammar.MAX_CHARS (400), inside a box's max_answer_chars (2,000)


# 1. Math inside a lone `\text{}` group (docs/math.md "Answer grammar": `\text{}` inside a box goes through the grammar).
TEXT_GROUP_NEAR = [
    n("\\boxed{\\text{$6$ million}}"), n("\\boxed{\\text{not $6$}}"), n("\\boxed{\\text{maybe $6$}}"),
    n("\\boxed{\\text{about $6$}}"), n("\\boxed{\\text{at least $6$}}"), n("\\boxed{\\text{$6$ (wrong)}}"),
    n("\\boxed{\\text{$6$ is wrong}}"), n("\\boxed{\\text{$6$ squared}}"), n("\\boxed{\\text{the answer is $6$ thousand}}"),
    n("\\boxed{\\textbf{$6$ thousand}}"), n("\\boxed{\\textit{$6$ thousand}}"), n("\\boxed{\\texttt{not $6$}}"),
    n("\\fbox{\\text{$6$ million}}"), n("The answer is \\boxed{\\text{$6$ thousand}}."),
    n("Final Answer: \\text{$6$ million}"), n("The answer is $\\text{$6$ million}$."),
]
TEXT_GROUP_SAME = [n("\\boxed{\\text{$6$}}"), n("\\boxed{\\text{$6$ apples}}"), n("\\boxed{\\text{6}}")]
TEXT_GROUP_REFUSED = [n("\\boxed{\\text{6 thousand}}"), n("\\boxed{\\mbox{$6$ thousand}}"),
                      n("\\boxed{\\text{\\(6\\) thousand}}"), n("\\boxed{\\text{$6$}\\text{ thousand}}"),
                      n("\\boxed{\\text{$6$ or $7$}}"), mc("\\boxed{\\text{not $5$}}"), mc("\\boxed{\\text{$5$ thousand}}")]


test_math_inside_a_lone_text_group_is_read_with_its_words = refused_test(
    TEXT_GROUP_NEAR,
    """Paid in both profiles: `grammar._tokens` returns None for one `\\text...{}` group (a word answer, read as
    written), `read` answers "words", `parsing.answer_refusal` refuses only "refused", and math-verify reads the
    `$6$` inside the group, dropping `million`, `not`, `at least`.""")


# 2. An answer without a digit skips the grammar (docs/math.md "Answer grammar").
NO_DIGIT_NEAR = [
    n("\\boxed{\\pi \\text{ thousand}}", "\\pi"), n("\\boxed{\\pi \\text{ million}}", "\\pi"),
    n("\\boxed{\\pi\\,\\mathrm{k}}", "\\pi"), n("\\boxed{\\pi\\text{ (approx.)}}", "\\pi"),
    n("\\boxed{\\pi}\\text{ thousand}", "\\pi"), n("\\boxed{e\\text{?}}", "e"), n("\\boxed{e \\text{ million}}", "e"),
    n("\\boxed{\\infty \\text{ is wrong}}", "\\infty"), n("\\boxed{\\sqrt{x} \\text{ is wrong}}", "\\sqrt{x}"),
    n("\\boxed{a+b \\text{ (approx.)}}", "a+b"), n("\\boxed{\\text{$\\pi$ million}}", "\\pi"),
    n("Final Answer: \\pi \\text{ million}", "\\pi"), n("The answer is $\\pi \\text{ thousand}$.", "\\pi"),
    n("it is $\\pi \\text{ million}$.", "\\pi"),  # lenient's last expression (strict: no answer)
]
NO_DIGIT_SAME = [n("\\boxed{\\pi}", "\\pi"), n("\\boxed{\\pi \\text{ cm}}", "\\pi"), n("So, the area is $\\pi$.", "\\pi")]
NO_DIGIT_REFUSED = [n("\\boxed{\\frac{\\pi}{2} \\text{ thousand}}", "\\frac{\\pi}{2}"), n("\\boxed{\\text{not } \\pi}", "\\pi"),
                    n("So, the area is $\\pi$ thousand.", "\\pi"), n("\\boxed{-\\pi}", "\\pi")]


test_an_answer_without_a_digit_is_read_by_the_grammar = refused_test(
    NO_DIGIT_NEAR,
    """Paid in both profiles: `grammar._tokens` returns None when the text holds no digit, so `read` answers "words"
    and `answer_refusal` admits it; math-verify reads `\\pi \\text{ thousand}` as pi.""")


# 3. An answer's text past grammar.MAX_CHARS is read as math, unread (docs/math.md "Answer grammar").
LONG_TEXT_NEAR = [
    n("\\boxed{6\\text{ thousand" + PAD + "}}"), n("\\boxed{6\\text{ or 7" + PAD + "}}"),
    n("\\boxed{6\\text{, maybe" + PAD + "}}"), n("\\boxed{6 \\mathrm{thousand" + PAD + "}}"),
    n("\\boxed{6\\text{ thousand}\\phantom{" + "x" * 400 + "}}"), n("\\boxed{6\\text{ million}" + "{}" * 200 + "}"),
    n("The answer is $\\boxed{6\\text{ thousand" + PAD + "}}$."),
    # the same reading serves the anchors and the concluding sentence
    n("The answer is $6\\text{ thousand" + PAD + "}$."), n("Final Answer: 6 \\text{ thousand" + PAD + "}"),
    n("#### 6 \\text{ thousand" + PAD + "}"), n("So, the total is $6\\text{ thousand" + PAD + "}$."),
    n("so it is $6\\text{ thousand" + PAD + "}$"),  # lenient's last expression (strict: no answer)
]
LONG_TEXT_REFUSED = [n("\\boxed{6\\text{ thousand}" + PAD + "}"), n("\\boxed{6" + PAD + "000}"),
                    n("\\boxed{\\text{not}" + PAD + "6}"), n("The answer is 6 thousand" + PAD + ".")]


test_a_long_answer_is_still_read_by_the_grammar = refused_test(
    LONG_TEXT_NEAR,
    """Paid in both profiles: `grammar.read` returns `Reading("math", text)` for any text over `MAX_CHARS` (400)
    before tokenising, while a box or an anchored answer may hold 2,000 characters (`MathLimits.max_answer_chars`).""")


# 4. NFKC folds a Roman numeral or a modifier letter into a unit (docs/math.md "Answer grammar").
NFKC_NEAR = [n("The answer is 6 ⅿ."), n("\\boxed{6ⅿ}"), n("\\boxed{6\\text{ ⅿ}}"), n("\\boxed{6} ⅿ"), n("So, the total is 6 ⅿ."),
             n("\\boxed{6ⅾ}"), n("The answer is 6 ⅽ."), n("\\boxed{6ᵐ}")]
NFKC_SAME = [n("The answer is 6 ㎞."), n("The answer is ６."), n("The answer is 6 ℃.")]
NFKC_REFUSED = [n("The answer is 6 Ⅽ."), n("\\boxed{6ⅱ}"), n("\\boxed{6 𝐤}"), n("\\boxed{6 ｋ}"), n("\\boxed{6ᵏ}"),
                n("The answer is 6ⁿ.")]


test_a_folded_numeral_is_no_unit = refused_test(
    NFKC_NEAR,
    """Paid in both profiles: `to_ascii_math`'s NFKC makes `ⅿ` (one thousand) the letter `m`, a unit.""")


# The fixes' own rewrites and near misses (fx29i): a yes/no sentence against a bare Yes is decided on its text; a
# constant's domain is a general solution's phrase; full-width letters still fold; a number with two decimal points
# (`1.2.3`: math-verify read 1.2 x 0.3 and paid 0.36) and answers past the complexity bound are refused.
FIX_SAME = [n("\\boxed{\\text{Yes, there are 3 of them.}}", "\\text{Yes}"),
            n("\\boxed{f(n) = c\\,n \\text{ for some constant } c \\in \\mathbb{R}}", "f(n) = cn"),
            n("\\boxed{6\\text{ ｃｍ}}"), n("\\boxed{\\text{No solution}}", "\\text{No solution}"),
            n("\\boxed{" + " + ".join(f"{i}x^{{{i}}}" for i in range(1, 25)) + "}", "+".join(f"{i}x^{{{i}}}" for i in range(1, 25)))]
FIX_REFUSED = [n("\\boxed{\\text{Yes, there are 3 of them.}}", "\\text{No}"), n("\\boxed{\\text{No, there are $3$ thousand.}}", "3"),
               n("\\boxed{6 \\text{ for some constant } c \\text{ thousand}}"), n("\\boxed{1.2.3}", "0.36"),
               n("The answer is 1.2.3.", "0.36"), n("\\boxed{" + "a+" * 400 + "6}", "400a+6"),
               n("\\boxed{" + "+".join(["\\sin(\\sin(\\sin(6)))", "\\cos(x)"] * 10) + "+6-" + "-".join(["\\sin(\\sin(\\sin(6)))", "\\cos(x)"] * 10) + "}")]


test_a_rewrite_near_the_fixes_pays = paid_test(FIX_SAME)


test_a_near_miss_of_the_fixes_is_refused = refused_test(FIX_REFUSED)


# Guards for the fixes: rewrites main pays (must still pay) and near misses main refuses (must stay refused).
SAME = TEXT_GROUP_SAME + NO_DIGIT_SAME + NFKC_SAME + [n("\\fbox {6}"), n("\\boxed{{6}}"), n("The answer is \\boxed{６}."),
                                          n("- So, the answer is 6."), n("**So, the answer is 6.**")]
REFUSED = TEXT_GROUP_REFUSED + NO_DIGIT_REFUSED + LONG_TEXT_REFUSED + NFKC_REFUSED + [
    n("\\boxed{6} or \\boxed{7}"), n("\\text{\\boxed{6}}"), n("The answer is 6\u200b000."), n("The answer is 6\u00ad000."),
    n("The answer is \u200f6."), n("So, the answer is 6.\n\n```\n7\n```"), n("So, the answer is 6.\n- 7"),
    n("So, the answer is 6.\n\n**Note:** this is wrong."), n("So, the answer is ~~6~~."), n("The answer is <del>6</del>."),
    n("Final Answer: z = 4. w = 9", "9"), n("z = 4 if w = \\boxed{9}", "9"), n("So, z = 4 when w = 9.", "9"),
    n("$\\boxed{9}$ Tsd.", "9"), n("$\\boxed{9}$ тыс.", "9"), n("$\\boxed{9}$ 만", "9"), n("$\\boxed{9}$ mln", "9"),
    n("\\boxed{12_8}", "12"),
]


test_a_right_answer_near_a_class_still_pays = paid_test(SAME)


test_a_near_miss_main_refuses_stays_refused = refused_test(REFUSED)


# Through the real server (class 2), and a reuse-key pair that must not share a verdict (docs/service.md "Reuse keys").
SERVER_NEAR = [math_task("pi-thousand", "\\boxed{\\pi \\text{ thousand}}", "\\pi"),
               math_task("pi-after", "The answer is $\\boxed{\\pi}$\\text{ million}.", "\\pi")]
CHOICE_ORDER_PAIR = [math_task("b-is-5", "So \\boxed{5}.", "B", choices=["3", "5", "7", "9"]),
                     math_task("a-is-5", "So \\boxed{5}.", "B", choices=["5", "3", "7", "9"])]


test_the_server_refuses_words_beside_a_digit_free_answer = server_refused_test(SERVER_NEAR)


test_tasks_differing_only_in_choice_order_keep_their_verdicts = server_pair_test(
    CHOICE_ORDER_PAIR, ["correct", "incorrect"],
    """One request, the same completion and gold, the choices in another order: the dedup and verdict keys hold the
    choices as a typed ordered list, so `5` is B in one and A in the other.""")


# Recall given up (refused, never paid): rewrites a model writes that the grammar does not read.
RECALL = [n("Hence, the answer is $6$ cm$^2$."), n("The total is therefore 6."), n("The answer is 6 (six)."),
          n("Also ist die Antwort 6.")]


test_common_rewrites_pay = paid_test(RECALL, marks=[pytest.mark.xfail(strict=False, reason="recall: rewrites the grammar refuses (rt29h)")])
