"""fx29c (issue 29): the sentences before a concluding sentence or lenient's last value are read whole, at any length,
and a colon line above a display and a box is read whole.

1. Red team 32 class 1. fx29bc's bound (an earlier sentence of at most five words with one other value may be an
   answer's statement) let longer answer phrases, two values, a relation, a quote's `>`, a scale or a spelled value
   pass, and refused short steps (`A week has 7 days.`). Now (`extract._unread_statement_before`): a sentence in the
   grammar's answer words or anchors (`grammar.answer_phrase`, `extract.ANCHORS`) states an answer unless each of its
   values is the answer's and the grammar reads it; a sentence that sets the answer's own name to another number (`x =
   7`) states one; values listed with no verb (`Perhaps 7 or 8`) state them; any other sentence with one other value
   states it unless the grammar reads it or reads it as a step (`grammar.step_sentence`: an operation's imperative, a
   value with a unit after a verb of action or a link whose clause opens as a statement does).
2. Red team 33 class 5. A colon line above a display and a box was read from its last clause (`_link_colon`), so a
   hedge, scale or condition before a comma led to the box; now the clauses before it are read as before a box on
   the colon's own line (`box_lead_clauses`).
"""

from __future__ import annotations

from tests.helpers import MATH_PROFILES, paid_test, refused_test
from tests.test_math_redteam_30 import _cases, problem_verdicts

# 1. Near misses: an earlier sentence that may state another answer, at any length and in any shape.
STATEMENT_NEAR = _cases([
    'After all of this work I am fairly confident that the answer would be 7. So x = 6.',
    'The answer, I think, would be 7, or maybe 8, or even 9 in some readings. So x = 6.',
    '> Die Lösung ist 7.\nSo x = 6.', '- The answer would be 7.\nSo x = 6.', '> Perhaps 7.\nSo x = 6.',
    'The result could be 6 thousand. So the total is 6.', 'The answer would be 6 million. So x = 6.',
    'La solución es 7. So x = 6.', '结果是 7。So x = 6.', 'Ответ равен 7. So x = 6.',
    'Perhaps 7 thousand. So x = 6.', 'It would be 7 thousand. So x = 6.', 'Perhaps 7 apples. So x = 6.',
    'Round to 7. So x = 6.', 'Add 4 thousand. So x = 6.', 'Perhaps 7 or 8. So x = 6.', 'There are 4 quarters. So x = 6.',
    'x = 7. So x = 6.', 'We get x = 3 + 4 = 7. So x = 6.', 'Then $x = 7$.\nSo $x = 6$.', '> x = 7\nSo x = 6.',
    'The answer would be 7 or 8. The total is 6.\n6', 'Let us find the answer. So x = 6.',
    '**The answer would be 7.**\nSo x = 6.', '> The answer\n> would be 7.\nSo x = 6.', 'Final answer 7. So x = 6.',
    'My guess: 7. So x = 6.', "I'd go with 7. So x = 6.", 'We could get 7. So x = 6.', 'Maybe the value is 7. So x = 6.',
    'The value is probably 7. So x = 6.', 'Probably 7 apples in all. So x = 6.',
    'To find the answer, we compute 2 + 4. So x = 6.',  # a cost: an answer word with no value read refuses
])
test_an_earlier_statement_of_another_answer_is_read_at_any_length = refused_test(STATEMENT_NEAR)

# 1. Rewrites: steps before the answer, short or long, and the answer restated.
STEPS_RIGHT = _cases([
    'A week has 7 days. So x = 6.', 'Add 4. Thus the total is 6.', 'Then divide by 2. So x = 6.',
    'Multiply by 3. So the total is 6.', 'Subtract 1. So the total is 6.', 'A pack holds 12 pens. So x = 6.',
    'In one foot, there are 12 inches. So x = 6.', 'She is 9 years old. So x = 6.', 'Sam buys 3 pens. So x = 6.',
    'Each of the 7 days he reads a book, and his sister reads 2 more on the weekend. So x = 6.',
    'We get $y = 7$. So x = 6.', 'Let a = 2 and b = 4. So x = 6.', 'First, 7 - 1 = 6. So x = 6.',
    'Polly could throw the javelin for a distance of 400 feet. So the total is 6.',
    'The width of the rectangle is the same as the side of the square, which is 3. So the perimeter is 6.',
])
test_steps_before_the_answer_pay = paid_test(STEPS_RIGHT)


def test_a_step_before_lenients_own_sentence_pays_lenient() -> None:
    """`So he has 6 apples.` concludes nothing in strict (a verb of action: `grammar.concludes`); lenient reads it, and
    the short steps before it no longer refuse it (red team 32's costs)."""
    for completion in ('Divide by 2. So he has 6 apples.', 'Ann is 10 years old. So he has 6 apples.'):
        assert problem_verdicts(completion, "") == ["no_answer", "correct"]


def test_a_wrong_answer_after_steps_is_incorrect() -> None:
    """The steps are read, not skipped: the concluding value is still compared (gold 6, the answer 5)."""
    assert problem_verdicts('A week has 7 days. So x = 5.', "") == ["incorrect"] * len(MATH_PROFILES)


# 2. Near misses: a hedge, scale or condition before a colon line's comma, above a display and a box.
_LEADS = ["Probably, the total is", "In hundreds, the answer is", "The value, roughly, is", "If n is even, the sum is",
          "Maybe; the answer is", "At least, the answer is"]
COLON_NEAR = _cases([lead + ":\n\\[x = 6\\]\n\\boxed{6}" for lead in _LEADS]
                    + [lead + ":\n$$2 + 4 = 6$$\n\\boxed{6}" for lead in _LEADS[:3]])
test_a_colon_lines_earlier_clauses_are_read_above_a_display = refused_test(COLON_NEAR)

# 2. Rewrites: leads before the comma, or none.
COLON_RIGHT = _cases([
    "So, the answer is:\n\\[x = 6\\]\n\\boxed{6}", "Therefore, the total is:\n\\[2 + 4 = 6\\]\n\\boxed{6}",
    "Thus the answer is:\n\\[x = 6\\]\n\\boxed{6}", "Answer:\n\\[x = 6\\]\n\\boxed{6}", "Hence, it is:\n$$x = 6$$\n\\boxed{6}",
])
test_a_colon_line_that_leads_pays = paid_test(COLON_RIGHT)

# The German and Spanish answer words `answer_phrase` reads are box labels too, as `Solution:` is.
LABEL_RIGHT = _cases(["Lösung: \\boxed{6}", "Solución: \\boxed{6}"])
test_the_added_answer_words_label_a_box = paid_test(LABEL_RIGHT)
LABEL_NEAR = _cases(["Die falsche Lösung: \\boxed{6}", "Lösung: \\boxed{7}", "Lösung in Tausend: \\boxed{6}"])
test_a_qualified_label_or_another_value_is_refused = refused_test(LABEL_NEAR)
