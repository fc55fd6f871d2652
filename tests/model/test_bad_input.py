"""Bad text gives a clear error or a reported <unk>, never a crash."""

from __future__ import annotations

import pytest

from model import InputError, load_pretrained


@pytest.fixture(scope="module")
def translate():
    return load_pretrained("translate")


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_empty_input_is_a_clear_error(translate, text):
    with pytest.raises(InputError, match="empty"):
        translate.run(text)
    with pytest.raises(InputError, match="empty"):
        translate.predict(text)


def test_unknown_tokens_become_unk_and_are_reported(translate):
    trace = translate.run("the zebra sees a <eos> cat")
    assert trace.tokens("src") == ["the", "<unk>", "sees", "a", "<unk>", "cat", "<eos>"]
    assert trace.unknown == ["zebra", "<eos>"]  # a typed special token is unknown, not a real <eos>
    assert translate.tokenize("the zebra").unknown == ["zebra"]


def test_markup_is_just_unknown_words(translate):
    trace = translate.run("<script>alert(1)</script> dog")
    assert trace.unknown == ["<script>alert(1)</script>"]
    assert trace.tokens("src") == ["<unk>", "dog", "<eos>"]


def test_input_is_case_insensitive(translate):
    assert translate.predict("The Dog sees A Cat") == translate.predict("the dog sees a cat")


def test_input_longer_than_max_len_names_the_limit(translate):
    limit = translate.config.max_len - 1
    translate.run(" ".join(["dog"] * limit))  # exactly at the limit is fine
    with pytest.raises(InputError, match=f"at most {limit}"):
        translate.run(" ".join(["dog"] * (limit + 1)))
    with pytest.raises(ValueError, match=str(limit)):  # InputError is a ValueError
        translate.predict(" ".join(["dog"] * 10_000))


def test_target_longer_than_max_len_names_the_limit(translate):
    with pytest.raises(InputError, match="at most"):
        translate.run("the dog sees a cat", target=" ".join(["le"] * 500))


def test_non_positive_temperature_is_rejected():
    from model import Ablation

    for bad in (0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="temperature"):
            Ablation(temperature=bad)
