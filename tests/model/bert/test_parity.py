"""Our BertEncoder against transformers' BertModel with the same weights (MiniLM from the installed package).

The reference is built from the package's config.json with eager attention (so it hands back its attention weights)
and given the file's tensors under its own names, strict: nothing of ours is involved but the ids. For each sentence
(English, Chinese characters, punctuation, a long one cut at 256 tokens) every layer's attention weights and every
hidden state must agree within 1e-5; a padded batch must give each sentence the numbers it gets alone; the sentence
embedding must equal one pooled by hand from the reference's last hidden state; and the tokenizer must split text as
transformers' pure-Python WordPiece does.
"""

from __future__ import annotations

import functools
import json

import pytest
import torch
import torch.nn.functional as F
from safetensors.torch import load_file

from model.naming import AttentionKind, Side, Stack, attention_name, ffn_name, input_name

from ..minilm import minilm, minilm_folder

transformers = pytest.importorskip("transformers")  # requirements-dev.txt pins it; the app never imports it

TOL = 1e-5
LONG = " ".join(
    ["Attention lets every token look at every other token, weigh what it finds, and mix the values it keeps;"] * 30
)  # about 700 tokens: run() cuts it to 256
SENTENCES = {
    "english": "The quick brown fox jumps over the lazy dog near the riverbank.",
    "chinese": "我喜欢在公园里散步，今天的天气很好。東京是日本的首都。",
    "punctuation": "Wait... what?! (Yes -- really.) #1, $2.50; 'quoted' & [bracketed] {braces}: done.",
    "long": LONG,
}


@functools.cache
def reference():
    """transformers' BertModel holding the package's weights under its own names (eager attention, eval mode)."""
    folder = minilm_folder()
    config = transformers.BertConfig.from_dict(json.loads((folder / "config.json").read_text()))
    config._attn_implementation = "eager"
    model = transformers.BertModel(config, add_pooling_layer=True)
    tensors = load_file(str(folder / "model.safetensors"))
    tensors = {k: v for k, v in tensors.items() if k in model.state_dict()}  # position_ids is a buffer it makes
    missing, unexpected = model.load_state_dict(tensors, strict=False)
    assert missing == [] and unexpected == [], (missing, unexpected)
    return model.eval()


def reference_run(ids: torch.Tensor, mask: torch.Tensor | None = None):
    with torch.inference_mode():
        return reference()(
            input_ids=ids, attention_mask=mask, output_attentions=True, output_hidden_states=True, return_dict=True
        )


@pytest.mark.parametrize("label", SENTENCES)
def test_every_attention_weight_and_hidden_state_matches_transformers(label):
    loaded = minilm()
    trace = loaded.run(SENTENCES[label])
    ids = torch.tensor([loaded.tokenize(SENTENCES[label]).ids])
    out = reference_run(ids)
    n = loaded.config.n_encoder_layers
    assert len(out.attentions) == n == 6 and len(out.hidden_states) == n + 1
    assert ids.shape[1] == len(trace.tokens(Side.SRC)) == (256 if label == "long" else ids.shape[1])
    torch.testing.assert_close(trace[input_name(Side.SRC)], out.hidden_states[0], atol=TOL, rtol=0)
    for i in range(n):
        ours = trace[attention_name(AttentionKind.ENCODER, i, "weights")]
        assert ours.shape == out.attentions[i].shape == (1, 12, ids.shape[1], ids.shape[1])
        torch.testing.assert_close(ours, out.attentions[i], atol=TOL, rtol=0)
        hidden = trace[ffn_name(Stack.ENCODER, i, "norm")]
        torch.testing.assert_close(hidden, out.hidden_states[i + 1], atol=TOL, rtol=0)


def test_a_padded_batch_gives_each_sentence_its_own_numbers():
    loaded = minilm()
    texts = [SENTENCES["english"], SENTENCES["punctuation"], "Short one."]
    trace, pieces = loaded.run_batch(texts)
    width = max(len(p.ids) for p in pieces)
    ids = torch.zeros(len(texts), width, dtype=torch.long)
    mask = torch.zeros(len(texts), width, dtype=torch.long)
    for row, p in enumerate(pieces):
        ids[row, : len(p.ids)], mask[row, : len(p.ids)] = torch.tensor(p.ids), 1
    out = reference_run(ids, mask)
    last = ffn_name(Stack.ENCODER, 5, "norm")
    for row, p in enumerate(pieces):
        n = len(p.ids)
        torch.testing.assert_close(trace[last][row, :n], out.last_hidden_state[row, :n], atol=TOL, rtol=0)
        for i in range(6):
            weights = trace[attention_name(AttentionKind.ENCODER, i, "weights")][row, :, :n]  # (H, n, width)
            torch.testing.assert_close(weights, out.attentions[i][row, :, :n], atol=TOL, rtol=0)
            assert int(torch.count_nonzero(weights[..., n:])) == 0  # padding gets no attention at all
        alone = loaded.run(texts[row])
        torch.testing.assert_close(trace[last][row : row + 1, :n], alone[last], atol=TOL, rtol=0)


def test_the_sentence_embedding_is_the_reference_s_last_state_mean_pooled_and_normalised():
    loaded = minilm()
    texts = [SENTENCES["english"], SENTENCES["chinese"], "A man is eating food."]
    ours = loaded.embed(texts)
    assert ours.shape == (3, 384)
    for row, text in enumerate(texts):
        ids = torch.tensor([loaded.tokenize(text).ids])
        hidden = reference_run(ids, torch.ones_like(ids)).last_hidden_state  # (1, S, d)
        expected = F.normalize(hidden.mean(dim=1), dim=-1)[0]  # the model card: mean over tokens, then L2
        torch.testing.assert_close(torch.from_numpy(ours[row]), expected, atol=TOL, rtol=0)
        torch.testing.assert_close(torch.from_numpy(loaded.embed(text)), expected, atol=TOL, rtol=0)


def test_a_paraphrase_is_closer_than_an_unrelated_sentence():
    loaded = minilm()
    paraphrase = loaded.similarity("A man is eating food.", "A man is eating a piece of bread.")
    unrelated = loaded.similarity("A man is eating food.", "The new movie is awesome.")
    assert paraphrase > 0.6 > 0.2 > unrelated
    assert loaded.similarity("Same words here.", "Same words here.") == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize("label", SENTENCES)
def test_the_tokenizer_splits_text_as_transformers_pure_python_wordpiece(label):
    legacy = pytest.importorskip("transformers.models.bert.tokenization_bert_legacy")
    reference_tokenizer = legacy.BertTokenizerLegacy(vocab_file=str(minilm_folder() / "vocab.txt"), do_lower_case=True)
    text = SENTENCES[label]
    expected = ["[CLS]", *reference_tokenizer.tokenize(text), "[SEP]"]
    got = minilm().tokenize(text)
    if label == "long":
        assert got.n_before_cut == len(expected) > 256 and got.tokens == [*expected[:255], "[SEP]"]
    else:
        assert got.tokens == expected and got.n_before_cut == len(expected)
    assert got.ids == reference_tokenizer.convert_tokens_to_ids(got.tokens)
