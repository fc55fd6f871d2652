"""model.teach.questions' "which head will copy?": every head an option, the answer the run's induction head (the
highest induction score after the first layer, never a first-layer head however high), the evidence its score and the
previous-token head it reads from, all on hand-built scores; a one-layer model and too many heads are told why."""

from __future__ import annotations

import numpy as np
import pytest

from model.analysis.induction import HeadScores
from model.teach.questions import (
    COPY,
    QuestionError,
    copy_options,
    copy_question,
    head_id,
    parse_head_id,
)


def scores(induction, previous) -> HeadScores:
    return HeadScores(np.asarray(induction, np.float32), np.asarray(previous, np.float32), -2.1, 1.3)


def test_every_head_is_an_option_layer_by_layer():
    assert copy_options(2, 3) == ("0.0", "0.1", "0.2", "1.0", "1.1", "1.2")
    assert [parse_head_id(o) for o in copy_options(3, 2)] == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
    assert head_id(1, 11) == "1.11" and parse_head_id("1.11") == (1, 11)
    assert [parse_head_id(o) for o in ("", "1", "a.b", "1.", ".2", "-1.2", "<other>")] == [None] * 7


def test_the_answer_is_the_induction_head_after_the_first_layer():
    induction = [[0.05, 0.9, 0.02, 0.01], [0.1, 0.07, 0.62, 0.3]]  # layer 1's 0.9 cannot be an induction head
    previous = [[0.2, 0.1, 0.05, 0.88], [0.3, 0.02, 0.01, 0.4]]  # the one to read from: layer 1, head 4
    asked = copy_question(scores(induction, previous), step=740)
    assert asked.kind == COPY and asked.options == copy_options(2, 4)
    assert asked.options[asked.answer] == "1.2"  # layer 2, head 3
    assert asked.context == {"layers": 2, "heads": 4}
    assert asked.evidence.pop("head") == "1.2"
    assert asked.evidence == pytest.approx(
        {"step": 740, "induction": 0.62, "previous_layer": 0, "previous_head": 3, "previous": 0.88}
    )


def test_a_third_layer_reads_from_either_earlier_one():
    induction = [[0.0, 0.0], [0.1, 0.2], [0.7, 0.1]]
    previous = [[0.1, 0.2], [0.9, 0.3], [0.99, 0.0]]  # layer 3's own 0.99 is no earlier head
    asked = copy_question(scores(induction, previous), step=10)
    assert asked.options[asked.answer] == "2.0"
    assert (asked.evidence["previous_layer"], asked.evidence["previous_head"]) == (1, 0)


def test_a_one_layer_model_or_too_many_heads_is_told_why():
    with pytest.raises(QuestionError) as caught:
        copy_options(1, 4)
    assert str(caught.value) == (
        "An induction head needs a head before it to read from: train a model of at least 2 layers (this one has 1)."
    )
    with pytest.raises(QuestionError) as caught:
        copy_question(scores([[0.5, 0.1]], [[0.1, 0.2]]), step=1)
    assert caught.value.params == {"layers": 1}
    with pytest.raises(QuestionError) as caught:
        copy_options(17, 16)
    assert str(caught.value) == "This model has 272 heads, more than a question can offer (256)."
