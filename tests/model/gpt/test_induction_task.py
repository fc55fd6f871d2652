"""The induction task's data: a random segment repeated once at a length and a start that vary per sequence, drawn
from the vocabulary's characters (□ never drawn); the vocabulary is single characters, so a sequence is also text."""

from __future__ import annotations

import pytest
import torch

from model.errors import LabError
from model.gpt import UNKNOWN_MARK, CharVocab
from model.gpt.induction import InductionSettings, induction_vocab, repeated_batch, repeated_sequence

SETTINGS = InductionSettings()


def test_the_vocabulary_is_32_single_characters_ending_with_the_unknown_mark():
    vocab = induction_vocab()
    assert len(vocab) == SETTINGS.vocab_size == 32 and len(set(vocab)) == 32
    assert all(isinstance(t, str) and len(t) == 1 for t in vocab) and vocab[-1] == UNKNOWN_MARK
    assert len(CharVocab(vocab)) == 32  # □ is already there: the model's vocabulary is exactly these
    assert induction_vocab(InductionSettings(vocab_size=5)) == ["a", "b", "c", "d", UNKNOWN_MARK]


def test_each_sequence_holds_its_segment_twice_in_a_row():
    batch = repeated_batch(SETTINGS, 300, torch.Generator().manual_seed(0))
    assert batch.ids.shape == (300, SETTINGS.context) and batch.ids.dtype == torch.long and len(batch) == 300
    assert int(batch.ids.min()) >= 0 and int(batch.ids.max()) <= SETTINGS.vocab_size - 2  # □ (id 31) never drawn
    for ids, s, a in zip(batch.ids.tolist(), batch.segment.tolist(), batch.start.tolist(), strict=True):
        assert SETTINGS.min_segment <= s <= SETTINGS.max_segment and a >= 0 and a + 2 * s <= SETTINGS.context
        assert ids[a : a + s] == ids[a + s : a + 2 * s]


def test_lengths_and_starts_vary_over_their_whole_range():
    batch = repeated_batch(SETTINGS, 2000, torch.Generator().manual_seed(1))
    assert set(batch.segment.tolist()) == set(range(SETTINGS.min_segment, SETTINGS.max_segment + 1))
    assert set(batch.start[batch.segment == 6].tolist()) == set(range(0, SETTINGS.context - 12 + 1))
    assert set(batch.start[batch.segment == 16].tolist()) == {0}  # 16 + 16 fill the 32 tokens
    counts = torch.bincount(batch.ids.flatten(), minlength=31)[:31].float()
    assert float(counts.min() / counts.max()) > 0.8  # every drawn token about as often


def test_the_same_generator_state_gives_the_same_batch():
    a = repeated_batch(SETTINGS, 8, torch.Generator().manual_seed(5))
    b = repeated_batch(SETTINGS, 8, torch.Generator().manual_seed(5))
    c = repeated_batch(SETTINGS, 8, torch.Generator().manual_seed(6))
    assert torch.equal(a.ids, b.ids) and torch.equal(a.segment, b.segment) and torch.equal(a.start, b.start)
    assert not torch.equal(a.ids, c.ids)


def test_one_sequence_for_a_page():
    ids = repeated_sequence(SETTINGS, torch.Generator().manual_seed(3))
    assert ids == repeated_batch(SETTINGS, 1, torch.Generator().manual_seed(3)).ids[0].tolist()
    assert len(ids) == 32 and all(0 <= i < 31 for i in ids)
    assert len({tuple(repeated_sequence()) for _ in range(5)}) > 1  # no generator: a fresh one each call


@pytest.mark.parametrize(
    "settings",
    [dict(vocab_size=2), dict(vocab_size=100), dict(min_segment=1), dict(min_segment=8, max_segment=6),
     dict(context=31), dict(context=True)],
)  # fmt: skip
def test_bad_settings_are_refused(settings):
    with pytest.raises(LabError):
        InductionSettings(**settings)


@pytest.mark.parametrize("batch", [0, -3, 10**9, 2.5])
def test_a_bad_batch_size_is_refused(batch):
    with pytest.raises(LabError):
        repeated_batch(SETTINGS, batch, torch.Generator())
