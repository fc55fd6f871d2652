"""CharVocab: most frequent characters first (ties: first seen), the cap with one unknown mark, round trips."""

from __future__ import annotations

import pytest

from model.errors import LabError
from model.gpt import UNKNOWN_MARK, CharVocab


def test_most_frequent_first_ties_by_first_appearance():
    vocab = CharVocab.from_text("abracadabra!")  # a 5, b 2, r 2, c 1, d 1, ! 1
    assert vocab.to_list() == ["a", "b", "r", "c", "d", "!", UNKNOWN_MARK]
    assert vocab.unk_id == 6 and len(vocab) == 7


def test_the_cap_keeps_the_most_frequent_and_the_rest_read_as_the_mark():
    vocab = CharVocab.from_text("明月明月明光霜霜", max_size=3)  # 明 3, 月 2, 霜 2 (月 first), 光 1
    assert vocab.to_list() == ["明", "月", UNKNOWN_MARK]
    ids, unknown = vocab.encode("明霜月光霜")
    assert ids == [0, 2, 1, 2, 2]
    assert unknown == ["霜", "光"]
    assert vocab.decode(ids) == "明□月□□"


def test_round_trip_and_refusals():
    vocab = CharVocab.from_text("to be or not")
    assert CharVocab.from_list(vocab.to_list()) == vocab
    assert vocab.decode(vocab.encode("not to be")[0]) == "not to be"
    with pytest.raises(ValueError, match="outside the vocabulary"):
        vocab.decode([len(vocab)])
    for bad in ([], "abc", ["ab"], ["a", "a"], [1]):
        with pytest.raises(LabError):
            CharVocab.from_list(bad)
    with pytest.raises(LabError):
        CharVocab.from_text("abc", max_size=1)
