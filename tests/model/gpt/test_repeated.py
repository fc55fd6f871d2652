"""A random repeated sequence in a model's own vocabulary, and finding where a sequence repeats itself: every token
drawn is visible and the model's own, the sequence holds the task's repeat (a segment of 6–16 tokens, copied at once),
a seed gives the same sequence, a short context fits; find_repeat against a brute-force search over every start and
length."""

from __future__ import annotations

import random

import pytest
import torch

from model.analysis.gpt_texts import GPT_TEXTS
from model.errors import LabError
from model.gpt.induction import induction_vocab
from model.gpt.repeated import Repeat, drawable, find_repeat, repeated_tokens, settings_for
from model.gpt.vocab import UNKNOWN_MARK, CharVocab


def brute_repeat(tokens: list[str], shortest: int = 4) -> Repeat | None:
    """Every length from the longest down, every start from the left: the first adjacent copy found."""
    for segment in range(len(tokens) // 2, shortest - 1, -1):
        for start in range(len(tokens) - 2 * segment + 1):
            if all(tokens[start + j] == tokens[start + segment + j] for j in range(segment)):
                return Repeat(start, segment)
    return None


@pytest.mark.parametrize(
    ("vocabulary", "context"),
    [(induction_vocab(), 32), (CharVocab.from_text("".join(GPT_TEXTS["en"])).to_list(), 128),
     (CharVocab.from_text("".join(GPT_TEXTS["zh"])).to_list(), 64)],
)  # fmt: skip
def test_a_sequence_is_the_models_own_tokens_with_one_segment_repeated(vocabulary, context):
    for seed in range(20):
        tokens = repeated_tokens(vocabulary, context, torch.Generator().manual_seed(seed))
        assert len(tokens) == 32 and set(tokens) <= set(vocabulary)
        assert UNKNOWN_MARK not in tokens and all(t.strip() and t.isprintable() for t in tokens)
        found = brute_repeat(tokens)
        assert found is not None and 6 <= found.segment <= 16, (seed, tokens)
    assert (
        len(
            {t for seed in range(20) for t in repeated_tokens(vocabulary, context, torch.Generator().manual_seed(seed))}
        )
        > 20
    )


def test_a_seed_gives_the_same_sequence_and_none_gives_fresh_ones():
    vocabulary = induction_vocab()
    first = repeated_tokens(vocabulary, 32, torch.Generator().manual_seed(5))
    assert first == repeated_tokens(vocabulary, 32, torch.Generator().manual_seed(5))
    assert len({"".join(repeated_tokens(vocabulary, 32)) for _ in range(5)}) == 5


def test_a_short_context_and_a_small_vocabulary_still_fit():
    settings = settings_for(context=10, tokens=4)
    assert (settings.context, settings.max_segment, settings.min_segment, settings.vocab_size) == (10, 5, 5, 5)
    tokens = repeated_tokens(["a", "b", "c", "d", " ", "\n", UNKNOWN_MARK], 10, torch.Generator().manual_seed(1))
    assert len(tokens) == 10 and set(tokens) <= {"a", "b", "c", "d"}
    found = brute_repeat(tokens)
    assert found is not None and found.segment == 5


@pytest.mark.parametrize(("vocabulary", "context"), [(["a", "b", " ", UNKNOWN_MARK], 32), (list("abcdef"), 3)])
def test_a_model_too_small_for_a_repeat_is_told_why(vocabulary, context):
    with pytest.raises(LabError) as caught:
        repeated_tokens(vocabulary, context)
    visible = sum(map(drawable, vocabulary))
    assert str(caught.value) == (
        "A repeated sequence needs a model that reads at least 4 tokens and has at least 3 visible tokens to draw; "
        f"this one reads {context} and has {visible}."
    )


def test_find_repeat_agrees_with_a_brute_force_search():
    rng = random.Random(0)
    for trial in range(300):
        alphabet = "ab" if trial % 3 == 0 else "abcdef"
        tokens = [rng.choice(alphabet) for _ in range(rng.randint(0, 40))]
        if trial % 2:  # plant a repeat
            segment = [rng.choice(alphabet) for _ in range(rng.randint(4, 10))]
            at = rng.randint(0, len(tokens))
            tokens[at:at] = segment + segment
        assert find_repeat(tokens) == brute_repeat(tokens), tokens


def test_find_repeat_on_text_and_the_stripes_keys():
    assert find_repeat(list("To be, or not to be, that is the question")) is None
    repeat = find_repeat(list("xxabcdeabcdeyy"))
    assert repeat == Repeat(2, 5)
    assert list(repeat.second) == [7, 8, 9, 10, 11]
    assert [repeat.target(q) for q in repeat.second] == [3, 4, 5, 6, 7]  # the token after each earlier occurrence
    assert find_repeat(["the", " cat", " sat", " on", "the", " cat", " sat", " on"]) == Repeat(0, 4)
