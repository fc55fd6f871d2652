"""The Next token page's class question, "what will the model write next?", on hand-made distributions: the
candidates and the typed-answer options in vocabulary order, the answer the most likely token, the probabilities
beside them (OTHER the rest), a typed character counted as its option or as OTHER, and bad distributions refused."""

from __future__ import annotations

import numpy as np
import pytest

from model.teach.questions import OTHER, WRITE, QuestionError, write_choice, write_question

VOCAB = list("abcdefghij")
#               a     b     c     d     e     f     g     h     i     j
PROBS = np.array([0.02, 0.30, 0.05, 0.01, 0.20, 0.00, 0.25, 0.04, 0.10, 0.03])


def test_candidates_then_the_next_likeliest_then_other_each_in_vocabulary_order():
    q = write_question(PROBS, VOCAB, "the text so far", shown=3, n_options=6)
    assert q.kind == WRITE
    # the 3 likeliest are b (.30), g (.25), e (.20); the next 3: i (.10), c (.05), h (.04)
    assert q.options == ("b", "e", "g", "c", "h", "i", OTHER)
    assert q.options[q.answer] == "b" and q.evidence["probability"] == pytest.approx(0.30)
    np.testing.assert_allclose(q.evidence["probabilities"], [0.30, 0.20, 0.25, 0.05, 0.04, 0.10, 0.06])  # a d f j
    assert q.context == {"shown": 3, "token": "the text so far"}


def test_the_quoted_text_is_its_end_and_ties_keep_the_first_token():
    flat = np.full(10, 0.1)
    q = write_question(flat, VOCAB, "x" * 30 + "床前明月光，", shown=2, n_options=4)
    assert q.options == ("a", "b", "c", "d", OTHER) and q.answer == 0  # ties: the first in vocabulary order
    assert q.context["token"] == ("x" * 30 + "床前明月光，")[-24:]
    assert q.evidence["probabilities"][-1] == pytest.approx(0.6)


def test_a_typed_character_counts_as_its_option_or_as_other():
    options = ("b", "e", "g", "c", OTHER)
    assert write_choice("g", options) == 2
    assert write_choice("z", options) == 4  # not listed: OTHER
    assert write_choice("<other>", options) is None and write_choice("", options) is None  # one character only
    assert write_choice("ge", options) is None


@pytest.mark.parametrize(
    "probs",
    [np.array([0.5, 0.6] + [0.0] * 8), np.array([np.nan] + [0.1] * 9), np.array([-0.1, 1.1] + [0.0] * 8),
     np.ones((2, 5)) / 10],
)  # fmt: skip
def test_what_is_not_a_distribution_is_refused(probs):
    with pytest.raises(QuestionError):
        write_question(probs, VOCAB, "text")
