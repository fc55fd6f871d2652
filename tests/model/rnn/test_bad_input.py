"""Bad text given to an RNN model gets the same clear errors as a Transformer's, never a crash."""

from __future__ import annotations

import pytest
import torch

from model import Ablation, InputError, load_pretrained


@pytest.fixture(scope="module")
def translate_rnn():
    return load_pretrained("translate-rnn")


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_empty_input(translate_rnn, text):
    for call in (translate_rnn.run, translate_rnn.predict):
        with pytest.raises(InputError, match="empty"):
            call(text)


def test_unknown_tokens_become_unk_and_are_reported(translate_rnn):
    trace = translate_rnn.run("the zebra sees a <eos> cat")
    assert trace.tokens("src") == ["the", "<unk>", "sees", "a", "<unk>", "cat", "<eos>"]
    assert trace.unknown == ["zebra", "<eos>"]
    weights = trace.numpy("rnn.attn.weights")
    assert weights.shape == (len(trace.tokens("tgt")), 7)
    assert abs(weights.sum(-1) - 1).max() < 1e-5


def test_over_long_input_names_the_limit(translate_rnn):
    limit = translate_rnn.max_words
    translate_rnn.run(" ".join(["dog"] * limit))  # exactly at the limit is fine
    with pytest.raises(InputError, match=f"at most {limit}"):
        translate_rnn.run(" ".join(["dog"] * (limit + 1)))
    with pytest.raises(InputError, match=f"at most {limit}"):
        translate_rnn.predict(" ".join(["dog"] * 10_000))
    with pytest.raises(InputError, match="at most"):
        translate_rnn.run("the dog sees a cat", target=" ".join(["le"] * 500))


def test_forward_refuses_bad_shapes_with_a_message(translate_rnn):
    model = translate_rnn.model
    ok = torch.tensor([[4, 5, 2]])
    for src, tgt, message in (
        (torch.zeros(1, 0, dtype=torch.long), ok, "source is empty"),
        (ok, torch.zeros(1, 0, dtype=torch.long), "target is empty"),
        (ok[0], ok, r"shape \(batch, length\)"),
        (torch.full((1, 200), 4), ok, "limit is 64"),
    ):
        with pytest.raises(ValueError, match=message):
            model(src, tgt)


def test_ablation_fields_that_apply_and_those_ignored(translate_rnn):
    text = "the big red dog sees a small cat"
    plain = translate_rnn.run(text, target="le chien rouge grand voit un chat petit")
    ignored = Ablation(positional=False, scale=False, causal=False)
    same = translate_rnn.run(text, target="le chien rouge grand voit un chat petit", ablation=ignored)
    assert torch.equal(plain["logits"], same["logits"])
    hot = translate_rnn.run(text, target="le chien", ablation=Ablation(temperature=4.0))
    scores = hot["rnn.attn.scores"][0] / 4.0
    torch.testing.assert_close(hot["rnn.attn.weights"][0], torch.softmax(scores, -1), atol=1e-6, rtol=0)
    off = translate_rnn.run(text, target="le chien", ablation=Ablation(heads_off=frozenset({("rnn.attn", 0)})))
    assert torch.count_nonzero(off["rnn.attn.context"]) == 0
    assert translate_rnn.predict(text) == "le chien rouge grand voit un chat petit"
    assert translate_rnn.predict(
        text, ablation=Ablation(heads_off=frozenset({("rnn.attn", 0)}))
    ) != translate_rnn.predict(text)
