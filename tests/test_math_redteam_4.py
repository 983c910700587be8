"""Red team of issue 29's answer grammar, fourth pass: wrong answers the grader pays, one family per class,
graded by the real grader (`grade_math`, as tests/test_math_redteam_3.py) in both profiles (docs/math.md
"Answer grammar"). It attacks the rules the third pass added: `grammar.box_clause`, `boxed:list`,
`grammar.lead_clauses`, `grammar.box_label`, named values read by name (`parsing.named_items`,
`compare._by_name`), `grammar._closing_clause`, `grammar._text_symbol`, `grammar._goes_on`. Each `*_NEAR`
list asserts the safe behaviour, so every case there fails on main until its class is closed; each
`*_SAME` list holds rewrites main pays and near misses main refuses, to guard the fix. Class 8 of the
third pass (the subject before a box's `is`/`=`) is left out: another helper is closing it.

1. Anchors outside Latin script are read with no lead: `####`, `答案是`, `Ответ —`, `答えは`, `উত্তর হল`,
   `సమాధానం` skip `grammar.anchor_lead` (`extract.last_anchor_span` checks ASCII-letter anchors only), so
   `I doubt #### 6`, `错误的答案是6。` ("the wrong answer is 6"), `Неправильный ответ — 6.` pay 6.
2. A colon's label that ends with a verb, or follows a math segment, admits any words before it
   (`grammar.box_label`'s verb shortcut; `$` starts a label): `I doubt the answer is: \\boxed{6}`, `Not equal:
   \\boxed{6}`, `Maybe $x$: \\boxed{6}`, `$x \\neq$: \\boxed{6}` pay 6.
3. A box's clause that opens with a preposition is not read past it (`grammar.box_clause` admits any `det`
   or `prep` first word): `At least it is \\boxed{6}`, `For odd n it is \\boxed{6}`, `In thousands we get
   \\boxed{6}` pay 6.
4. The prose subject is a bag of admitted words, not a phrase: `at` (prep) and `least` (adj) make
   `Final Answer: at least it is 6.` a subject and pay 6 (lenient too: `At least it is 6.`).
5. A closing clause after a box is a bag of afterwords: `above` is one, so `\\boxed{6} and above is
   correct.` (six and above) pays 6 (`grammar._closing_clause`).
6. Digits inside a math-font group beside a value are dropped: `_TEXT_DIGIT_RE` omits `\\mathrm`,
   `\\mathbf`, `\\mathit`, so `\\boxed{6\\mathrm{000}}` pays 6 and `\\boxed{1\\mathrm{2}}` pays 1.
7. An ellipsis inside a text group goes on unread: `.` is a text mark and `_goes_on` looks for the
   ellipsis right after the number, so `\\boxed{3.14\\text{...}}` pays 3.14 and `\\boxed{0.33\\text{…}}` 0.33.
8. Named values in a spelling `parsing.named_items` does not know are read in written order:
   `y is \\boxed{1}, x is \\boxed{2}`, `\\boxed{(y, x) = (1, 2)}`, `\\boxed{y = 1 \\text{ and } x = 2}`,
   `\\boxed{y = 1; x = 2}`, `\\boxed{\\beta = 1, \\alpha = 2}` pay gold `(1, 2)`.
9. Named values against a bare tuple are put in alphabetical order, which is not the question's order
   when it is `(m, b)` or `(m, c)`: `\\boxed{b = 2, m = 3}` pays `(2, 3)`.
10. A numeral as the object of a comparison: `than one` is admitted (`grammar._tail`), so `The answer
    is 6 more than one.` (7) pays 6, after an anchor and after a box.
11. A tilde after a space before a box is passed over as a LaTeX tie (`grammar._BOX_OPENERS`), so
    `The answer is ~ \\boxed{6}.` ("about 6") pays, while `The answer is ~6.` is refused.
12. `error` is an admitted quantity noun: `Error: \\boxed{6}`, `An error of \\boxed{6}`, `Final Answer: The
    error is 6.` state the error, and pay 6.
13. `grammar.lead_clauses` starts the sentence after a `$`, `}` or `>`: a hedge or scale in markup before
    an anchor's comma is not read, so `\\textbf{Maybe}, the answer is 6.`, `<b>Maybe</b>, the answer is 6.`,
    `Maybe for $n=3$, the answer is 6.` pay 6 (plain `Maybe, the answer is 6.` is refused).
14. A box's clause that opens with a pronoun is read only to its verb (`grammar.box_clause` checks two
    words), so `It is likely that x is \\boxed{6}`, `It is not true that x is \\boxed{6}`, `There is no way it
    is \\boxed{6}`, `We get a contradiction if x is \\boxed{6}` pay 6.
15. The opposite, right answers refused: `It follows that x is \\boxed{6}`, `This gives us \\boxed{6}`,
    `\\boxed{\\textcolor{red}{6}}` (class 9's `\\boxed{m = 2, b = 3}` is left out: against a bare `(2, 3)` it is
    ambiguous, and refusing it is safe).

Closed here (issue 29's fourth fix): classes 1, 6, 7, 8, 9, 10, 11, 12, 13, and three of class 15's seven
(`\\textcolor`, `With this,`, `Which means`); then classes 14 and most of 3 (`grammar.box_subject`), and class 15's
other four and class 3's last four (`grammar.STATING_CLAUSES`: a stating main clause is read past, and a
preposition's phrase opens a box's clause only as one of its openers), and class 2 (`grammar.box_label` reads
the whole label), class 4 (`grammar._ordered`: the prose subject's order) and class 5 (`grammar._CLOSING_SUBJECT`: a closing
clause's subject before its verb). Class 13's box variant is closed by `grammar.box_lead_clauses` (the clause
that holds the last math before a box is read whole).
"""

from __future__ import annotations


from tests.helpers import choice_case as mc, number_case as n, paid_test, refused_test



# 1. Anchors outside Latin script read with no lead (docs/math.md "Answer grammar", "Before an anchor").
ANCHOR_SCRIPT_NEAR = [
    n("I doubt #### 6"), n("Maybe, #### 6"), n("Not #### 6"), n("Wrong answer #### 6"), n("Wrong #### 6"),
    n("错误的答案是6。"), n("错误答案是 6。"), n("我猜答案是6。"), n("也许答案是6。"),
    n("Неправильный ответ — 6."), n("Возможно, ответ — 6."), n("間違った答えは6です。"), n("たぶん答えは6です。"),
    n("ভুল উত্তর হল 6।"), n("తప్పు సమాధానం 6."),
    n("错误的答案是\\boxed{6}"), n("错误的答案是 $\\boxed{6}$。"), n("我猜答案是\\boxed{6}"),
    mc("I doubt #### B"), mc("错误的答案是 B。"), mc("Неправильный ответ — B."),
]
ANCHOR_SCRIPT_SAME = [
    n("#### 6"), n("The total is 6.\n#### 6"), n("所以，答案是6。"), n("答案是6。"), n("Ответ — 6."), n("答えは6です。"),
    n("উত্তর হল 6।"), n("సమాధానం 6."), n("Die Antwort lautet 6."),
]
ANCHOR_SCRIPT_REFUSED = [n("答案不是6。"), n("大约，答案是6。"), n("I doubt the answer is 6."), n("错误答案：\\boxed{6}"),
                         n("Неправильный ответ — $\\boxed{6}$."), n("I doubt #### \\boxed{6}")]


test_an_anchor_in_any_script_is_read_with_its_lead = refused_test(
    ANCHOR_SCRIPT_NEAR,
    """Paid on main in both profiles: `last_anchor_span` (and `extract._first_clause`, for a box after the
    anchor) reads the lead of an anchor whose first character is an ASCII letter only, while
    `extract._anchor_led` already refuses `错误答案：\\boxed{6}` and `Неправильный ответ — $\\boxed{6}$`.""")


# 2. A colon's label ending with a verb or after a math segment (docs/math.md "Answer grammar", "Before a box").
COLON_LABEL_NEAR = [
    n("I doubt the answer is: \\boxed{6}"), n("Maybe it is: \\boxed{6}"), n("It could be: \\boxed{6}"),
    n("The wrong answer is: \\boxed{6}"), n("Not equal: \\boxed{6}"), n("Greater than or equal: \\boxed{6}"),
    n("$x \\neq$: \\boxed{6}"), n("$x > $: \\boxed{6}"), n("Maybe $x$: \\boxed{6}"), n("I doubt $x$: \\boxed{6}"),
    n("In thousands, $x$: \\boxed{6}"), n("Not $x$: \\boxed{6}"),
    mc("I doubt the answer is: \\boxed{B}"), mc("Maybe $x$: \\boxed{B}"),
]
COLON_LABEL_SAME = [
    n("Answer: \\boxed{6}"), n("The values of $k$ are: \\boxed{6}"), n("$x$: \\boxed{6}"), n("We compute: \\boxed{6}"),
    n("Total cost: \\boxed{6}"), n("So the answer is: \\boxed{6}"), n("First \\boxed{4}. Wait, I made an error: \\boxed{6}"),
]
# Variants the class 2 fix was not written for: near misses (another hedge, relation, scale) and rewrites.
COLON_LABEL_VARIANT_NEAR = [
    n("Possibly the total is: \\boxed{6}"), n("$x \\geq$: \\boxed{6}"), n("Roughly, $x$: \\boxed{6}"),
    n("We guess it is: \\boxed{6}"), n("The answer in thousands is: \\boxed{6}"), n("For $n = 3$: \\boxed{6}"),
    n("Perhaps \\(x\\): \\boxed{6}"), mc("Possibly the answer is: \\boxed{B}"),
]
COLON_LABEL_VARIANT_SAME = [
    n("Thus, the values of $k$ for which the quadratic has real roots are: \\boxed{6}"),
    n("Thus, the integers \\( n \\) such that \\( f(n) = n \\) are: \\[ \\boxed{6} \\]"),
    n("Hence, the answer is: \\boxed{6}"), n("So, $n$: \\boxed{6}"), n("We see that the total is: \\boxed{6}"),
]
COLON_LABEL_REFUSED = [n("Wrong answer: \\boxed{6}"), n("Not equal: 6"), n("Maybe $x$: 6"), n("I doubt it is: 6")]


test_a_colon_label_is_read_whole = refused_test(
    COLON_LABEL_NEAR,
    """Paid on main in both profiles: a label that ends with a verb returns True whatever precedes it, and a
    `$` starts a label (`_LABEL_START_RE`) and a sentence (`_SENTENCE_START_RE`), so nothing before it is read.""")


# 3. A box's clause opening with a preposition (docs/math.md "Answer grammar", "Before a box": `box_clause`).
BOX_CLAUSE_PREP_NEAR = [
    n("At least it is \\boxed{6}."), n("At most it is \\boxed{6}."), n("For odd n it is \\boxed{6}."),
    n("For odd $n$ we get \\boxed{6}."), n("In thousands we get \\boxed{6}."), n("In thousands it is \\boxed{6}."),
    n("To the nearest thousand it is \\boxed{6}."), n("By my guess it is \\boxed{6}."),
    n("In the worst case it is \\boxed{6}."), n("At best we get \\boxed{6}."), n("So at least we get \\boxed{6}."),
    n("Hence at most it is \\boxed{6}."), n("Next, at least it is \\boxed{6}."),
    n("Correct to the nearest thousand it is \\boxed{6}."), n("With a margin of error of \\boxed{6}."),
    mc("At least it is \\boxed{B}."), mc("For odd n it is \\boxed{B}."),
]
BOX_CLAUSE_PREP_SAME = [
    n("In total we get \\boxed{6}."), n("In the end we get \\boxed{6}."), n("For part (a) we get \\boxed{6}."),
    n("From this we get \\boxed{6}."), n("By substitution we get \\boxed{6}."), n("Thus, $x = \\boxed{6}$."),
]
BOX_CLAUSE_PREP_REFUSED = [
    n("Without rounding it is \\boxed{6}."), n("Under the wrong assumption we get \\boxed{6}."),
    n("Now if n is odd we get \\boxed{6}."), n("Rounded to the nearest thousand we get \\boxed{6}."),
    n("Of course not \\boxed{6}."),
]


test_a_box_clause_opened_by_a_preposition_is_read = refused_test(
    BOX_CLAUSE_PREP_NEAR,
    """Paid on main in both profiles: `box_clause` returns True when the first word is a determiner or a
    preposition, so an inequality (`At least`), a condition (`For odd n`) or a scale (`In thousands`) before
    a pronoun and its verb is never read.""")


# 4. The prose subject as a bag of words (docs/math.md "Answer grammar", the subject part).
SUBJECT_BAG_NEAR = [
    n("Final Answer: at least it is 6."), n("Final Answer: At least the value is 6."),
    n("The answer is: at least the total is 6."), n("Final Answer: At the least it is 6."),
    n("At least it is 6."), n("At least the total is $6$."),  # lenient: the last-number fallback
]
SUBJECT_BAG_SAME = [
    n("Final Answer: the least common multiple is 6."), n("Final Answer: the least value is 6."),
    n("Final Answer: The total is 6."),
]
# Variants the class 4 fix was not written for.
SUBJECT_BAG_VARIANT_NEAR = [
    n("Final Answer: at most the total is 6."), n("Final Answer: under the assumption the total is 6."),
    n("Final Answer: the total it is 6."), n("Final Answer: we see that at least it is 6."), n("At best it is 6."),
]
SUBJECT_BAG_VARIANT_SAME = [n("Final Answer: we see that the total is 6."), n("Final Answer: in total it is 6."),
                            n("The answer is: the number of apples that we have is 6.")]
SUBJECT_BAG_REFUSED = [n("Final Answer: 6 at most."), n("Final Answer: in the worst case the total is 6.")]


test_at_least_before_the_value_is_no_subject = refused_test(
    SUBJECT_BAG_NEAR,
    """Paid on main in both profiles: `_subject` admits any sequence of prepositions, adjectives, pronouns
    and nouns, so `at least it is` (an inequality) passes as a noun phrase like `the least value is`.""")


# 5. A closing clause after a box as a bag of afterwords (docs/math.md "Answer grammar", "After a box").
CLOSING_CLAUSE_NEAR = [
    n("\\boxed{6} and above is the correct answer."), n("\\boxed{6} and above is correct."),
    n("\\boxed{6} and above is the answer."), n("\\boxed{6} and above is the final answer."),
]
CLOSING_CLAUSE_SAME = [
    n("\\boxed{6} which is the answer above."), n("\\boxed{6} and we are done."), n("\\boxed{6} and this is correct."),
    n("\\boxed{6} is the final answer."),
]
# Variants the class 5 fix was not written for.
CLOSING_CLAUSE_VARIANT_NEAR = [n("\\boxed{6} and the above is correct."), n("\\boxed{6} and as required is the answer."),
                               mc("\\boxed{B} and above is the answer.")]
CLOSING_CLAUSE_VARIANT_SAME = [n("\\boxed{6} and our answer is correct."), n("\\boxed{6} and I hope it is correct."),
                               n("\\boxed{6} which is as required.")]
CLOSING_CLAUSE_REFUSED = [n("\\boxed{6} and above."), n("\\boxed{6 and above is the correct answer}"), mc("\\boxed{B} and above is correct.")]


test_a_closing_clause_never_modifies_the_value = refused_test(
    CLOSING_CLAUSE_NEAR,
    """Paid on main in both profiles: `_closing_clause` needs a verb and afterwords only, and `above` is an
    afterword (`the answer above`), so `6 and above` (an inequality) is read as a closing clause.""")


# 6. Digits in a math-font group beside a value (docs/math.md "Answer grammar", "Text holds words").
FONT_DIGIT_NEAR = [
    n("\\boxed{6\\mathrm{000}}"), n("\\boxed{1\\mathrm{2}}", "1"), n("\\boxed{6\\mathbf{000}}"), n("\\boxed{6\\mathit{000}}"),
    n("\\boxed{6\\mathrm{,000}}"), n("\\boxed{6\\mathbf{.5}}"), n("\\boxed{6\\mathrm{\\times 10^3}}"),
    n("The answer is $6\\mathrm{000}$."), n("So we get $6\\mathrm{000}$."),  # lenient
]
FONT_DIGIT_SAME = [
    n("\\boxed{6\\,\\mathrm{cm}}"), n("\\boxed{\\mathbf{6}}"), n("\\boxed{\\mathrm{6}}"), n("\\boxed{6\\,\\mathrm{kg}}"),
]
FONT_DIGIT_REFUSED = [n("\\boxed{6\\text{000}}"), n("\\boxed{6\\textsf{000}}"), n("\\boxed{6\\operatorname{000}}"),
                      n("\\boxed{6\\mathrm{!}}")]


test_digits_in_a_math_font_group_are_never_dropped = refused_test(
    FONT_DIGIT_NEAR,
    """Paid on main in both profiles: `\\text{000}` and `\\textsf{000}` are refused, but `_TEXT_DIGIT_RE`
    leaves out `\\mathrm`, `\\mathbf`, `\\mathit`, and the parser drops those groups too.""")


# 7. An ellipsis inside a text group (docs/math.md "Answer grammar", "A number that goes on").
TEXT_ELLIPSIS_NEAR = [
    n("\\boxed{3.14\\text{...}}", "3.14"), n("\\boxed{0.33\\text{…}}", "0.33"), n("\\boxed{3.14\\text{ ...}}", "3.14"),
    n("\\boxed{0.33\\mathrm{...}}", "0.33"), n("The answer is $3.14\\text{...}$", "3.14"),
    n("So we get $3.14\\text{...}$", "3.14"),  # lenient
]
TEXT_ELLIPSIS_SAME = [n("\\boxed{6\\text{ cm.}}"), n("\\boxed{1, 2, 3, \\ldots}", "1, 2, 3, \\ldots")]
TEXT_ELLIPSIS_REFUSED = [n("\\boxed{3.14\\ldots}", "3.14"), n("\\boxed{3.14\\dotsb}", "3.14"), n("\\boxed{3.14⋯}", "3.14"),
                         n("\\boxed{3.14\\cdot\\cdot\\cdot}", "3.14"), n("\\boxed{3.14\\text{ etc}}", "3.14")]


test_an_ellipsis_in_a_text_group_goes_on = refused_test(
    TEXT_ELLIPSIS_NEAR,
    """Paid on main in both profiles: `.` and `…`'s NFKC `...` are text marks (`_TEXT_MODE_MARKS`), and
    `_goes_on` looks for the ellipsis right after the number, not behind a text command.""")


# 8. Named values in a spelling `named_items` does not know (docs/math.md "Math grading rules", named values).
NAMED_SPELLING_NEAR = [
    n("y is \\boxed{1}, x is \\boxed{2}", "(1, 2)"), n("$y$ is \\boxed{1} and $x$ is \\boxed{2}.", "(1, 2)"),
    n("The value of $y$ is \\boxed{1} and the value of $x$ is \\boxed{2}.", "(1, 2)"),
    n("\\boxed{(y, x) = (1, 2)}", "(1, 2)"), n("\\boxed{y = 1 \\text{ and } x = 2}", "(1, 2)"),
    n("\\boxed{y = 1; x = 2}", "(1, 2)"), n("\\boxed{y = 1,\\ x = 2}", "(1, 2)"), n("\\boxed{(y = 1, x = 2)}", "(1, 2)"),
    n("\\boxed{\\{y = 1, x = 2\\}}", "(1, 2)"), n("\\boxed{[y = 1, x = 2]}", "(1, 2)"),
    n("\\boxed{\\beta = 1, \\alpha = 2}", "(1, 2)"), n("$\\beta = \\boxed{1}$, $\\alpha = \\boxed{2}$", "(1, 2)"),
    n("$y$ = \\boxed{1}, $x$ = \\boxed{2}", "(1, 2)"), n("For y: \\boxed{1}, for x: \\boxed{2}", "(1, 2)"),
    n("Thus $\\beta = 1, \\alpha = 2$.", "(1, 2)"),  # lenient
]
NAMED_SPELLING_SAME = [
    n("x is \\boxed{1}, y is \\boxed{2}", "(1, 2)"), n("\\boxed{(x, y) = (1, 2)}", "(1, 2)"),
    n("\\boxed{x = 1 \\text{ and } y = 2}", "(1, 2)"), n("\\boxed{x = 1; y = 2}", "(1, 2)"),
    n("\\boxed{\\alpha = 1, \\beta = 2}", "(1, 2)"), n("$\\alpha = \\boxed{1}$, $\\beta = \\boxed{2}$", "(1, 2)"),
    n("\\boxed{x = 1, y = 2}", "(1, 2)"), n("\\boxed{y = 2, x = 1}", "(1, 2)"),
]
NAMED_SPELLING_REFUSED = [
    n("x is \\boxed{2}, y is \\boxed{1}", "(1, 2)"), n("\\boxed{\\alpha = 2, \\beta = 1}", "(1, 2)"),
    n("\\boxed{(y, x) = (1, 2)}", "(x, y) = (1, 2)"), n("\\boxed{y = 1 \\text{ and } x = 2}", "x = 1, y = 2"),
    n("\\boxed{y = 1, x = 2}", "(1, 2)"), n("y=\\boxed{1}; x=\\boxed{2}", "(1, 2)"),
    n("$y = \\boxed{1}$ \\quad $x = \\boxed{2}$", "(1, 2)"),
]


test_named_values_are_read_by_name_in_every_spelling = refused_test(
    NAMED_SPELLING_NEAR,
    """Paid on main in both profiles, while the same statements written in the other order (`x is \\boxed{2},
    y is \\boxed{1}`, `\\boxed{\\alpha = 2, \\beta = 1}`) are refused: one of each pair of verdicts is wrong.
    Names given by `is`, a tuple of names, `\\text{ and }`, `;`, brackets or a LaTeX command (`\\beta`) are
    outside `_VALUE_NAME_RE`/`named_items`, and such lists fall back to the written order.""")


# 9. Named values against a bare tuple in alphabetical order (docs/math.md "Math grading rules", named values).
NAME_ORDER_NEAR = [
    n("\\boxed{b = 2, m = 3}", "(2, 3)"), n("\\boxed{c = 2, m = 3}", "(2, 3)"),
    n("\\boxed{\\theta = 3, r = \\frac{\\pi}{2}}", "(3, \\frac{\\pi}{2})"),
]
NAME_ORDER_SAME = [
    n("\\boxed{x = 1, y = 2}", "(1, 2)"), n("\\boxed{a = 1, b = 2}", "(1, 2)"), n("\\boxed{x_1 = 1, x_{10} = 2}", "(1, 2)"),
    n("\\boxed{m = 2, b = 3}", "(m, b) = (2, 3)"), n("\\boxed{b = 3, m = 2}", "(m, b) = (2, 3)"),
    n("\\boxed{r = 3, \\theta = \\frac{\\pi}{2}}", "(3, \\frac{\\pi}{2})"),
]


test_named_values_against_a_bare_tuple_are_not_guessed_into_order = refused_test(
    NAME_ORDER_NEAR,
    """Paid on main in both profiles: `b = 2, m = 3` says m is 3, yet pays the slope-intercept pair
    `(m, b) = (2, 3)` written bare as `(2, 3)` (`compare._by_name` sorts names alphabetically), while the
    right `m = 2, b = 3` is refused. `\\theta = 3, r = \\frac{\\pi}{2}` pays the polar `(r, \\theta)`.""")


# 10. A numeral as the object of a comparison (docs/math.md "Answer grammar", the comparative part).
THAN_NUMERAL_NEAR = [
    n("The answer is 6 more than one."), n("The answer is 6 less than one."), n("The answer is 6 fewer than one."),
    n("The answer is 6 times more than one."), n("\\boxed{6} more than one."),
]
THAN_NUMERAL_SAME = [
    n("The answer is 6 more than Lee."), n("The answer is 30 meters farther than Lee.", "30"),
    n("The answer is 6 more than the other one."), n("The answer is 3 fewer.", "3"),
]
THAN_NUMERAL_REFUSED = [n("The answer is 6 more than 1."), n("The answer is 6 more than two.")]


test_a_numeral_after_than_is_a_second_value = refused_test(
    THAN_NUMERAL_NEAR,
    """Paid on main in both profiles: `_tail` admits `one` (and `first`, `second`) as the object of `than`,
    so `6 more than one` (7) reads 6, while `6 more than 1` and `6 more than two` are refused.""")


# 11. A spaced tilde before a box (docs/math.md "Answer grammar", "Relations": in prose a tilde is a mark).
TILDE_NEAR = [
    n("The answer is ~ \\boxed{6}."), n("The answer is ~\\boxed{6}."), n("Thus x is ~ \\boxed{6}."),
    mc("The answer is ~ \\boxed{B}."),
]
TILDE_SAME = [n("So we get~\\boxed{6}."), n("$x =~ \\boxed{6}$")]
TILDE_REFUSED = [n("The answer is ~6."), n("about~\\boxed{6}"), n("The answer is \\sim\\boxed{6}"), n("The answer is ≈\\boxed{6}")]


test_a_spaced_tilde_before_a_box_is_about = refused_test(
    TILDE_NEAR,
    """Paid on main in both profiles: `box_lead` passes over `~` as a LaTeX tie (`_BOX_OPENERS`) wherever it
    stands, while the anchored `The answer is ~6.` is refused (a prose tilde says "about").""")


# 12. `error` as an admitted quantity noun (docs/math.md "Answer grammar", "Before a box" and the subject part).
ERROR_NOUN_NEAR = [
    n("Error: \\boxed{6}"), n("Measurement error: \\boxed{6}"), n("An error of \\boxed{6}."),
    n("With an error of \\boxed{6}."), n("Final Answer: The error is 6."),
]
ERROR_NOUN_SAME = [n("A total of \\boxed{6}"), n("Total cost: \\boxed{6}"), n("Final Answer: The total is 6.")]


test_an_error_is_never_the_answer = refused_test(
    ERROR_NOUN_NEAR,
    """Paid on main in both profiles: `error` is in LEXICON's quantity nouns, so it passes as a colon label
    (`box_label`), as a noun's `of` before a box (`box_lead`) and as an anchored subject: the box states the
    error of a value, not the value.""")


# 13. Lead clauses cut at markup (docs/math.md "Answer grammar", "Before an anchor": `lead_clauses`).
LEAD_MARKUP_NEAR = [
    n("\\textbf{Maybe}, the answer is 6."), n("\\emph{Maybe}, the answer is 6."), n("<b>Maybe</b>, the answer is 6."),
    n("\\textbf{In thousands}, the answer is 6."), n("Maybe for $n=3$, the answer is 6."),
    n("In thousands of $\\$$, the answer is 6."), n("Maybe {so}, the answer is 6."),
]
LEAD_MARKUP_SAME = [n("\\textbf{Thus}, the answer is 6."), n("**So**, the answer is 6."),
                    n("\\textbf{Final Answer:} The answer is 6.")]
LEAD_MARKUP_REFUSED = [n("Maybe, the answer is 6."), n("If $n$ is odd, the answer is 6."), n("**Maybe**, the answer is 6."),
                       n("\\textbf{Maybe}, \\boxed{6}."), n("<i>Perhaps</i>, \\boxed{6}")]


test_a_lead_clause_in_markup_is_read = refused_test(
    LEAD_MARKUP_NEAR,
    """Paid on main in both profiles, while `Maybe, the answer is 6.` and `**Maybe**, the answer is 6.` are
    refused: `lead_clauses` starts the sentence after the last `$`, `}` or `>` (`_SENTENCE_START_RE`), so the
    clause inside `\\textbf{}`, `<b>`, or before a math segment is never read for an anchor.""")


# 14. A pronoun's clause read to its verb only (docs/math.md "Answer grammar", "Before a box": `box_clause`).
PRONOUN_CLAUSE_NEAR = [
    n("It is likely that x is \\boxed{6}."), n("It is unlikely that x is \\boxed{6}."), n("It is false that x is \\boxed{6}."),
    n("It is not true that x is \\boxed{6}."), n("It is not the case that x is \\boxed{6}."),
    n("It is wrong to say it is \\boxed{6}."), n("It is impossible for x to be \\boxed{6}."),
    n("It is impossible that x is \\boxed{6}."), n("There is no way it is \\boxed{6}."),
    n("We get a contradiction if x is \\boxed{6}."), n("We get that maybe x is \\boxed{6}."),
    n("We know that in thousands it is \\boxed{6}."), n("We see that if n is odd then x is \\boxed{6}."),
    mc("It is not true that x is \\boxed{B}."),
]
PRONOUN_CLAUSE_SAME = [
    n("We see that x is \\boxed{6}."), n("We found that x is \\boxed{6}."), n("I found that x is \\boxed{6}."),
    n("We have x is \\boxed{6}."), n("it is \\boxed{6}"), n("there are \\boxed{6} apples."),
]
PRONOUN_CLAUSE_REFUSED = [
    n("It is likely that the answer is 6."), n("It is likely that the answer is \\boxed{6}."),
    n("We see that if n is odd, x is \\boxed{6}."), n("We get x is not \\boxed{6}."), n("We think it is \\boxed{6}."),
]


test_a_pronoun_clause_is_read_past_its_verb = refused_test(
    PRONOUN_CLAUSE_NEAR,
    """Paid on main in both profiles, while the anchored `It is likely that the answer is 6.` is refused:
    `box_clause` admits a pronoun followed by a stating verb and reads no further, so what the main clause
    says of the box's clause (`likely`, `not true`, `impossible`, `a contradiction if`) is never read.""")


# 15. The opposite: right answers main refuses (docs/math.md "Answer grammar", "Before a box"): a stating
#     clause or a presentation macro outside the allowlists. Not wrong pays; listed so a fix can widen the
#     allowlists at the class (a stating verb after `it follows that`, `this gives`), not case by case.
STATED_BUT_REFUSED = [
    n("It follows that x is \\boxed{6}."), n("With this, we get \\boxed{6}."), n("It is also \\boxed{6}."),
    n("Putting these together gives \\boxed{6}."), n("This gives us \\boxed{6}."), n("Which means the answer is \\boxed{6}."),
    n("\\boxed{\\textcolor{red}{6}}"),
]


test_a_stated_right_answer_pays = paid_test(
    STATED_BUT_REFUSED,
    """Refused on main (`no_answer` or `incorrect`) in both profiles, though each states the gold.""")


# Variants the fixes were not written for (as the red-team brief asks): one near miss or rewrite per closed class,
# in another command, script, word or name set. Nine of the near misses paid on main (`\\mathrm{\\pm}`, `y = 3 \\text{ and }
# x = 2`, `y = 2, m = 3`, `than first`, `~\\boxed`, and classes 1 and 13's five); three of the rewrites were refused.
VARIANT_NEAR = [
    n("\\boxed{6\\mathsf{000}}"), n("\\boxed{6\\boldsymbol{000}}"), n("\\boxed{6\\mathrm{\\pm}}"),  # 6
    n("\\boxed{3.14\\textbf{\\ldots}}", "3.14"), n("\\boxed{3.14\\mathsf{...}}", "3.14"),  # 7
    n("\\boxed{k = 3, h = 2}", "(3, 2)"), n("\\boxed{y = 3 \\text{ and } x = 2}", "(3, 2)"),  # 8, 9
    n("\\boxed{y = 2, m = 3}", "(3, 2)"),
    n("The answer is 6 more than first."),  # 10
    n("Thus x is ~\\boxed{6}."),  # 11
    n("Tolerance: \\boxed{6}"),  # 12
    n("Возможно, ответ — 6."), n("大概答案是6。"), n("Well #### 6"),  # 1
    n("In millions for $n=3$, the answer is 6."), n("<i>Roughly</i>, the answer is 6."),  # 13
]
VARIANT_SAME = [
    n("\\boxed{\\textcolor{blue}{6}}"), n("Итак, ответ — 6."), n("From this, the answer is 6."),
    n("\\boxed{n = 2, m = 3}", "(3, 2)"), n("\\boxed{k = 2, h = 3}", "(3, 2)"), n("\\boxed{\\left(y = 2, x = 3\\right)}", "(3, 2)"),
    n("y equals \\boxed{2}, x equals \\boxed{3}", "(3, 2)"), n("ดังนั้นคำตอบคือ 6"),
]


VARIANT_OPEN = [n("Maybe for $n=3$, we get \\boxed{6}."),  # closed by `grammar.box_lead_clauses` (the clause of the last math)
                n("In thousands, $x = \\boxed{6}$.")]  # closed by class 3's fix: `In thousands` opens the box's clause


# Class 13's box variant at the class (`grammar.box_lead_clauses`): a hedge, a scale or a condition in the clause that holds
# the math before a box's clause, or before the box's own math, in a stating clause's sentence or a subject's.
BOX_MATH_CLAUSE_NEAR = [
    n("Maybe for $n=3$, the answer is \\boxed{6}."), n("Perhaps for $n = 3$, we find \\boxed{6}."),
    n("Probably with $x = 2$, this gives \\boxed{6}."), n("If $n$ is odd, we get \\boxed{6}."),
    n("Assuming $n > 2$, we get \\boxed{6}."), n("In thousands of $\\$$, we get \\boxed{6}."),
    n("Maybe for $n=3$, $x = \\boxed{6}$."), n("Maybe, the answer is $\\boxed{6}$."), n("Maybe, $\\boxed{6}$."),
    n("Perhaps, we get $x = \\boxed{6}$."), n("Roughly, \\( x = \\boxed{6} \\)."),
    n("We guess $x = 2$, so we get \\boxed{6}."), n("Maybe $x = 2$, and the answer is \\boxed{6}."),
    mc("Maybe for $n=3$, we get \\boxed{B}."),
]
BOX_MATH_CLAUSE_SAME = [
    n("Since $a = 2$, we get \\boxed{6}."), n("We get $x = 3$, so the answer is $\\boxed{6}$."),
    n("Its value is $.9x$, its value becomes $2x$, making for a total of $\\boxed{6}$."),
    n("Substituting $x = 2$, we get \\boxed{6}."), n("Thus, $x = \\boxed{6}$."), n("Hence, the answer is $\\boxed{6}$."),
    n("The total is $2 + 4$, so $\\boxed{6}$."), mc("Since $a = 2$, we get \\boxed{B}."),
]


test_a_hedge_in_the_last_math_clause_before_a_box_is_read = refused_test(
    BOX_MATH_CLAUSE_NEAR,
    """Paid on main in both profiles (`Maybe, the answer is $\\boxed{6}$` too): a box's sentence started at the last math
    delimiter before it, the box's own `$` among them, so the words before it were never read.""")


test_a_stated_step_in_math_before_a_box_still_pays = paid_test(BOX_MATH_CLAUSE_SAME)


test_a_variant_of_a_closed_class_is_refused = refused_test(VARIANT_NEAR + VARIANT_OPEN)


test_a_variant_rewrite_of_a_closed_class_pays = paid_test(VARIANT_SAME)


# Guards for the fixes: rewrites main pays (must still pay) and near misses main refuses (must stay refused).
SAME = (ANCHOR_SCRIPT_SAME + COLON_LABEL_SAME + COLON_LABEL_VARIANT_SAME + SUBJECT_BAG_VARIANT_SAME
        + CLOSING_CLAUSE_VARIANT_SAME + BOX_CLAUSE_PREP_SAME + SUBJECT_BAG_SAME + CLOSING_CLAUSE_SAME
        + FONT_DIGIT_SAME + TEXT_ELLIPSIS_SAME + NAMED_SPELLING_SAME + NAME_ORDER_SAME + THAN_NUMERAL_SAME + TILDE_SAME
        + ERROR_NOUN_SAME + LEAD_MARKUP_SAME + PRONOUN_CLAUSE_SAME)
REFUSED = (ANCHOR_SCRIPT_REFUSED + COLON_LABEL_REFUSED + COLON_LABEL_VARIANT_NEAR + SUBJECT_BAG_VARIANT_NEAR
           + CLOSING_CLAUSE_VARIANT_NEAR + BOX_CLAUSE_PREP_REFUSED + SUBJECT_BAG_REFUSED
           + CLOSING_CLAUSE_REFUSED + FONT_DIGIT_REFUSED + TEXT_ELLIPSIS_REFUSED + NAMED_SPELLING_REFUSED
           + THAN_NUMERAL_REFUSED + TILDE_REFUSED + LEAD_MARKUP_REFUSED + PRONOUN_CLAUSE_REFUSED)


test_a_right_answer_near_a_class_still_pays = paid_test(SAME)


test_a_near_miss_main_refuses_stays_refused = refused_test(REFUSED)
