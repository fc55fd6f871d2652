"""Heads switched off: the run with Ablation.heads_off equals a reference made here with a torch hook that zeroes the
head's slice of the concatenation before Wᴼ; the head's own head_out is zero, its layer's other heads do not change,
later layers do. The ?off= link code parses strictly, and the summaries leave switched-off heads out."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from model import Ablation, InputError, load_pretrained
from model.analysis.attention import attention_layers, attention_rollout, head_mean
from model.analysis.knockout import (
    attention_blocks,
    blank_heads_off,
    every_head,
    file_word,
    format_heads_off,
    parse_heads_off,
    weight_change,
)
from model.tasks import BOS_ID, EOS_ID

TEXT, TARGET = "the big red dog sees a small cat", "le chien rouge grand voit un chat petit"


@pytest.fixture(scope="module")
def translate():
    return load_pretrained("translate")


def ids(loaded, text: str, target: str) -> tuple[torch.Tensor, torch.Tensor]:
    src = torch.tensor([loaded.task.src_vocab.encode(text).ids + [EOS_ID]])
    tgt = torch.tensor([[BOS_ID, *loaded.task.tgt_vocab.encode(target).ids]])
    return src, tgt


def reference_trace(loaded, src, tgt, module, head: int):
    """The intact model run with a pre-hook on `module`.out_proj that zeroes one head's columns of its input."""
    dk = module.d_head

    def zero_head(_, inputs):
        concat = inputs[0].clone()
        concat[..., head * dk : (head + 1) * dk] = 0.0
        return (concat,)

    handle = module.out_proj.register_forward_pre_hook(zero_head)
    try:
        with torch.inference_mode():
            return loaded.model(src, tgt, record=True)[1]
    finally:
        handle.remove()


@pytest.mark.parametrize(
    ("stack", "layer", "attn", "head"), [("encoder", 0, "self_attn", 2), ("decoder", 0, "cross_attn", 1)]
)
def test_a_head_switched_off_changes_exactly_what_it_should(translate, stack, layer, attn, head):
    src, tgt = ids(translate, TEXT, TARGET)
    name = f"{stack}.{layer}.{attn}"
    module = getattr(getattr(translate.model, stack)[layer], attn)
    with torch.inference_mode():
        _, intact = translate.model(src, tgt, record=True)
        _, off = translate.model(src, tgt, record=True, ablation=Ablation(heads_off=frozenset({(name, head)})))
    reference = reference_trace(translate, src, tgt, module, head)
    assert torch.count_nonzero(off[f"{name}.head_out"][:, head]) == 0
    assert torch.count_nonzero(off[f"{name}.concat"][..., head * module.d_head : (head + 1) * module.d_head]) == 0
    others = [h for h in range(module.n_heads) if h != head]
    for part in ("weights", "head_out"):  # the same layer's other heads read the same input: unchanged
        torch.testing.assert_close(
            off[f"{name}.{part}"][:, others], intact[f"{name}.{part}"][:, others], rtol=0, atol=0
        )
    concat = intact[f"{name}.head_out"].clone()
    concat[:, head] = 0.0
    concat = concat.transpose(1, 2).reshape(*concat.shape[:1], concat.shape[2], -1)  # (B, Lq, d)
    expected_out = torch.nn.functional.linear(concat, module.out_proj.weight, module.out_proj.bias)
    torch.testing.assert_close(off[f"{name}.out"], expected_out, rtol=1e-5, atol=1e-6)
    for key in set(intact) - {f"{name}.head_out", f"{name}.concat"}:  # the hook zeroes after these are recorded
        torch.testing.assert_close(off[key], reference[key], rtol=1e-5, atol=1e-5, equal_nan=True)
    later = "decoder.1.cross_attn.weights"  # downstream of both blocks tested: its heads change
    assert (off[later] - intact[later]).abs().max() > 1e-3
    upstream = "decoder.0.self_attn.weights"  # reads only the decoder input: upstream of both
    assert torch.equal(off[upstream], intact[upstream])


def test_link_codes_round_trip_and_name_heads_one_based(translate):
    config = translate.config
    heads_off = parse_heads_off(" c2.4, e1.3 ,E1.3", config)
    assert heads_off == {("encoder.0.self_attn", 2), ("decoder.1.cross_attn", 3)}
    assert format_heads_off(heads_off, config) == "e1.3,c2.4"
    every = frozenset((b.name, h) for b in attention_blocks(config) for h in range(b.n_heads))
    assert len(every) == 3 * 2 * 4 and parse_heads_off(format_heads_off(every, config), config) == every
    assert parse_heads_off("", config) == parse_heads_off(None, config) == frozenset()


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("e1", "“e1” in the link's `off=` is not a head"),
        ("x1.1", "“x1.1” in the link's `off=` is not a head"),
        ("e1.3;c2.1", "is not a head"),
        ("<script>", "“<script>” in the link's `off=` is not a head"),
        ("e1.3,,c2.1", "empty entry between commas"),
        ("e1.3,", "empty entry"),
        ("e0.2", "“e0.2” in the link's `off=` names no head of this model: its heads run from e1.1 to c2.4."),
        ("e1.5", "names no head"),
        ("e3.1", "names no head"),
        ("r1.1", "names no head"),
        ("e1.1" + ",e1.1" * 500, "characters long, more than the 2000"),
        ("e99999999999999.1", "is not a head"),
    ],
)
def test_malformed_codes_are_refused_with_a_message(translate, code, message):
    with pytest.raises(InputError) as caught:
        parse_heads_off(code, translate.config)
    assert message in str(caught.value)


def test_rnn_codes():
    rnn, plain = load_pretrained("translate-rnn"), load_pretrained("translate-rnn-noattn")
    assert parse_heads_off("r1.1", rnn.config) == {("rnn.attn", 0)}
    assert format_heads_off(frozenset({("rnn.attn", 0)}), rnn.config) == "r1.1"
    with pytest.raises(InputError, match=r"its heads run from r1\.1 to r1\.1"):
        parse_heads_off("e1.1", rnn.config)
    with pytest.raises(InputError, match="no attention"):
        parse_heads_off("r1.1", plain.config)
    assert attention_blocks(plain.config) == []


def test_switched_off_heads_are_left_out_of_the_summaries(translate):
    heads_off = frozenset({("encoder.0.self_attn", 2), ("encoder.1.self_attn", 0), ("encoder.1.self_attn", 1),
                           ("encoder.1.self_attn", 2), ("encoder.1.self_attn", 3)})  # fmt: skip
    trace = translate.run(TEXT, TARGET, Ablation(heads_off=heads_off))
    weights = attention_layers(trace, "encoder")  # (2, 4, S, S)
    blanked = blank_heads_off(weights, "encoder", heads_off)
    assert np.isnan(blanked[0, 2]).all() and np.isnan(blanked[1]).all() and not np.isnan(blanked[0, [0, 1, 3]]).any()
    np.testing.assert_allclose(head_mean(blanked)[0], weights[0, [0, 1, 3]].mean(0), rtol=1e-6)
    assert np.isnan(head_mean(blanked)[1]).all()  # every head of layer 2 off
    # rollout: layer 1 = the mean of its three heads still on; layer 2, every head off, passes the residual alone
    eye = np.eye(weights.shape[-1])
    mixed = 0.5 * eye + 0.5 * weights[0, [0, 1, 3]].mean(0)
    mixed /= mixed.sum(-1, keepdims=True)
    np.testing.assert_allclose(attention_rollout(blanked), mixed, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        attention_rollout(weights), attention_rollout(blank_heads_off(weights, "encoder", frozenset()))
    )


def test_weight_change_is_off_minus_on_over_the_same_tokens(translate):
    on = translate.run(TEXT, TARGET)
    off = translate.run(TEXT, TARGET, Ablation(heads_off=frozenset({("encoder.0.self_attn", 0)})))
    change = weight_change(attention_layers(off, "cross"), attention_layers(on, "cross"))
    expected = off["decoder.1.cross_attn.weights"][0].double() - on["decoder.1.cross_attn.weights"][0].double()
    np.testing.assert_allclose(change[1], expected.numpy(), rtol=1e-6, atol=1e-7)
    with pytest.raises(ValueError, match="same tokens"):
        weight_change(np.zeros((2, 4, 3, 3)), np.zeros((2, 4, 4, 3)))


def test_every_head_off_leaves_each_block_only_its_output_bias(translate):
    """With every head off, each attention block's input to Wᴼ is zero, so its output is Wᴼ's bias at every
    position (a closed form); the model still decodes, and its logits stay finite."""
    heads_off = every_head(translate.config)
    assert len(heads_off) == 3 * 2 * 4  # encoder, decoder and cross-attention: 2 layers of 4 heads each
    assert parse_heads_off(format_heads_off(heads_off, translate.config), translate.config) == heads_off
    src, tgt = ids(translate, TEXT, TARGET)
    with torch.inference_mode():
        _, off = translate.model(src, tgt, record=True, ablation=Ablation(heads_off=heads_off))
    for block in attention_blocks(translate.config):
        stack, layer, attn = block.name.split(".")
        bias = getattr(getattr(translate.model, stack)[int(layer)], attn).out_proj.bias
        out = off[f"{block.name}.out"]  # (B, Lq, d)
        assert torch.count_nonzero(off[f"{block.name}.concat"]) == 0
        torch.testing.assert_close(out, bias.expand_as(out), rtol=0, atol=1e-6)
    assert torch.isfinite(off["logits"]).all()
    prediction = translate.predict(TEXT, Ablation(heads_off=heads_off))
    assert isinstance(prediction, str) and prediction != translate.task.target_for(TEXT)


def test_file_words_name_the_heads_off_and_stay_short(translate):
    config = translate.config
    assert file_word(frozenset(), config) == ""
    assert file_word(frozenset({("decoder.1.cross_attn", 3), ("encoder.0.self_attn", 2)}), config) == "off-e1.3,c2.4"
    assert file_word(every_head(config), config) == "off-all"
    eleven = frozenset(sorted(every_head(config))[:11])
    assert file_word(eleven, config) == "off-11-heads"  # "e1.1,…" for 11 heads is 54 characters
    rnn = load_pretrained("translate-rnn").config
    assert file_word(frozenset({("rnn.attn", 0)}), rnn) == "off-all"
