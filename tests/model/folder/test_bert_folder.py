"""A BERT folder opened by model.load_folder equals transformers' BertModel on the same folder: every layer's attention
weights and every hidden state within 1e-5, on English and Chinese and on a padded batch, with the folder's tokenizer
read from tokenizer.json or from vocab.txt."""

from __future__ import annotations

import pytest
import torch

import model
from model.bert import LoadedEncoder
from model.naming import Side, Stack, attention_name, ffn_name, input_name

from .folders import CHINESE, ENGLISH, bert_folder, transformers

LAYERS = 2


def close(ours: torch.Tensor, theirs: torch.Tensor) -> None:
    """Equal within 1e-5 (the issue's bound), element by element."""
    torch.testing.assert_close(ours, theirs, atol=1e-5, rtol=0)


@pytest.fixture(scope="module", params=["tokenizer.json", "vocab.txt"])
def opened(request, tmp_path_factory):
    path = tmp_path_factory.mktemp("bert") / "tiny-bert"
    theirs = bert_folder(path, layers=LAYERS, vocab_txt=request.param == "vocab.txt")
    loaded = model.load_folder(path)
    assert isinstance(loaded, LoadedEncoder)
    return loaded, theirs, transformers.AutoTokenizer.from_pretrained(path)  # the folder as transformers reads it


def _hidden_names() -> list[str]:
    """Our names for transformers' hidden_states: the embeddings' output, then each layer's (post-LN)."""
    return [input_name(Side.SRC), *(ffn_name(Stack.ENCODER, i, "norm") for i in range(LAYERS))]


def test_the_folder_opens_as_a_bert_encoder(opened):
    loaded, theirs, _ = opened
    assert loaded.name == "tiny-bert" and loaded.config.arch == "bert" and loaded.notices == ()
    assert (loaded.config.d_model, loaded.config.n_heads, loaded.config.n_encoder_layers) == (16, 2, LAYERS)
    used = sum(p.numel() for name, p in theirs.named_parameters() if not name.startswith("pooler."))
    assert loaded.meta["n_params"] == used  # the pooler is not ours: MiniLM-like encoders pool by the mean


@pytest.mark.parametrize("text", [ENGLISH, CHINESE])
def test_every_attention_and_hidden_state_equals_transformers(opened, text):
    loaded, theirs, reference = opened
    pieces = loaded.tokenize(text)
    assert pieces.ids == reference(text)["input_ids"]  # the same word pieces as transformers reads from the folder
    with torch.no_grad():
        expected = theirs(torch.tensor([pieces.ids]), output_attentions=True, output_hidden_states=True)
    trace = loaded.run(text)
    assert len(expected.attentions) == LAYERS
    for i, weights in enumerate(expected.attentions):
        close(trace[attention_name("encoder", i, "weights")], weights)
    for name, hidden in zip(_hidden_names(), expected.hidden_states, strict=True):
        close(trace[name], hidden)
    close(trace[_hidden_names()[-1]], expected.last_hidden_state)


def test_a_padded_batch_equals_transformers_at_every_real_position(opened):
    loaded, theirs, _ = opened
    trace, pieces = loaded.run_batch([ENGLISH, CHINESE[:7], "the cat"])
    ids, keep = loaded._padded(pieces)
    assert keep.sum() < keep.numel()
    with torch.no_grad():
        expected = theirs(ids, attention_mask=keep.long(), output_attentions=True, output_hidden_states=True)
    for i, weights in enumerate(expected.attentions):
        ours = trace[attention_name("encoder", i, "weights")]  # (B, H, S, S)
        close(ours.transpose(1, 2)[keep], weights.transpose(1, 2)[keep])
        assert bool((ours * ~keep[:, None, None, :]).eq(0).all())  # no query attends a padded key
    for name, hidden in zip(_hidden_names(), expected.hidden_states, strict=True):
        close(trace[name][keep], hidden[keep])


def test_a_masked_lm_folder_opens_its_encoder(tmp_path):
    path = tmp_path / "mlm"
    theirs = bert_folder(path, layers=1, kind="BertForMaskedLM", seed=4)  # cls.predictions.* on top, as bert-base
    loaded = model.load_folder(path)
    assert isinstance(loaded, LoadedEncoder)
    with torch.no_grad():
        expected = theirs.bert(torch.tensor([loaded.tokenize(ENGLISH).ids]), output_hidden_states=True)
    close(loaded.run(ENGLISH)[ffn_name(Stack.ENCODER, 0, "norm")], expected.last_hidden_state)


def test_a_sentence_transformers_limit_is_read(tmp_path):
    path = tmp_path / "st"
    bert_folder(path, layers=1, positions=128)
    (path / "sentence_bert_config.json").write_text('{"max_seq_length": 32}')
    assert model.load_folder(path).max_len == 32
