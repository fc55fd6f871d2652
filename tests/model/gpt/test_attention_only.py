"""An attention-only GPT (GPTConfig.mlp False): no ln_2 and no MLP weights, no decoder.{i}.ffn.* in its trace, its
parameters the closed-form count, and a checkpoint round trip that keeps it attention-only; its trace also takes a
list of token strings (lm.trace(["a", "b"]) equals lm.trace("ab"))."""

from __future__ import annotations

import pytest
import torch

from model import InputError, load_checkpoint, save_checkpoint
from model.gpt import GPT, CharVocab, GPTConfig, LoadedGPT
from model.gpt.induction import induction_vocab
from model.gpt.runner import GPT_TASKS
from model.naming import Stack, ffn_name

CONFIG = GPTConfig(vocab_size=32, d_model=32, n_heads=2, n_layers=2, d_ff=128, max_len=32, mlp=False)


@pytest.fixture(scope="module")
def lm() -> LoadedGPT:
    torch.manual_seed(0)
    return LoadedGPT(GPT(CONFIG), CharVocab(induction_vocab()), name="induction", task=GPT_TASKS["induction"])


def test_no_mlp_weights_and_the_closed_form_count(lm):
    V, T, d, L = 32, 32, 32, 2
    per_block = (3 * d * d + 3 * d) + (d * d + d) + 2 * d  # in_proj, out_proj, ln_1
    assert sum(p.numel() for p in lm.model.parameters()) == V * d + T * d + L * per_block + 2 * d == 10688
    assert not any("ffn" in name for name in lm.model.state_dict())
    with_mlp = GPT(GPTConfig(**(CONFIG.to_dict() | {"mlp": True})))
    assert sum(p.numel() for p in with_mlp.parameters()) - 10688 == L * (d * 128 + 128 + 128 * d + d + 2 * d)


def test_the_trace_has_no_ffn_rows(lm):
    trace = lm.trace("abcabc")
    assert not [name for name in trace if ".ffn." in name]
    assert ffn_name(Stack.DECODER, 0, "resid") not in trace and "decoder.1.self_attn.resid" in trace
    with torch.inference_mode():
        torch.testing.assert_close(lm.model.unembed(trace["decoder.1.self_attn.resid"]), trace["logits"])


def test_a_checkpoint_round_trip_keeps_it_attention_only(lm, tmp_path):
    again = load_checkpoint(save_checkpoint(lm, tmp_path / "induction"))
    assert isinstance(again, LoadedGPT) and again.config == CONFIG and not again.config.mlp
    assert again.task.name == "induction" and again.vocabulary == induction_vocab()
    torch.testing.assert_close(again.trace("abcdabcd")["logits"], lm.trace("abcdabcd")["logits"], rtol=0, atol=0)


def test_a_config_without_the_setting_has_the_mlp():
    data = CONFIG.to_dict()
    del data["mlp"]
    assert GPTConfig.from_dict(data).mlp is True
    with pytest.raises(ValueError, match="mlp"):
        GPTConfig.from_dict(CONFIG.to_dict() | {"mlp": "no"})


def test_a_list_of_token_strings_traces_as_the_text(lm):
    tokens = list("kqz3kqz3")
    by_tokens, by_text = lm.trace(tokens), lm.trace("kqz3kqz3")
    assert by_tokens.tokens("tgt") == tokens
    torch.testing.assert_close(by_tokens["logits"], by_text["logits"], rtol=0, atol=0)
    ids = [lm.vocabulary.index(t) for t in tokens]
    torch.testing.assert_close(lm.trace(ids)["logits"], by_text["logits"], rtol=0, atol=0)


@pytest.mark.parametrize("tokens", [["ab"], ["a", "!"], ["a", 3]])
def test_a_token_outside_the_vocabulary_is_an_input_error(lm, tokens):
    with pytest.raises(InputError):
        lm.trace(tokens)


def test_an_untied_head_is_its_own_weight_and_round_trips(tmp_path):
    torch.manual_seed(1)
    config = GPTConfig(**(CONFIG.to_dict() | {"tied": False}))
    model = GPT(config).eval()
    assert model.lm_head is not None and model.head_weight is model.lm_head.weight
    assert sum(p.numel() for p in model.parameters()) == 10688 + 32 * 32  # (V, d), no bias
    ids = torch.tensor([[1, 2, 3, 1, 2, 3]])
    with torch.no_grad():
        logits, trace = model(ids, record=True)
        final = trace["decoder.final_norm"]  # (1, T, d)
        torch.testing.assert_close(logits, final @ model.lm_head.weight.T)
        assert not torch.allclose(logits, final @ model.wte.weight.T)
    lm = LoadedGPT(model, CharVocab(induction_vocab()), name="untied", task=GPT_TASKS["induction"])
    again = load_checkpoint(save_checkpoint(lm, tmp_path / "untied"))
    assert isinstance(again, LoadedGPT) and not again.config.tied
    torch.testing.assert_close(again.trace("abcabc")["logits"], lm.trace("abcabc")["logits"], rtol=0, atol=0)


def test_the_logit_lens_and_inside_a_layer_read_an_attention_only_model(lm):
    from model.analysis.layers import analyse_layers
    from model.analysis.logit_lens import logit_lens, stream_names

    trace = lm.trace("abcabc")
    lens = logit_lens(lm.model, trace, lm.vocabulary)
    assert [row.name for row in lens.rows] == stream_names(2, mlp=False)
    assert stream_names(2, mlp=False) == ["tgt.input", "decoder.0.self_attn.resid", "decoder.1.self_attn.resid"]
    assert lens.answer == trace.prediction and lens.rows[-1].answer_rank == 1
    analysis = analyse_layers(trace, "decoder", "pre")
    assert analysis.sublayers == ["decoder.0.self_attn", "decoder.1.self_attn"] and analysis.n_layers == 0
    assert analysis.ffn_active.shape == (0, 6)
    resid = trace["decoder.1.self_attn.resid"][0]
    torch.testing.assert_close(torch.from_numpy(analysis.stream_norms[-1]), resid.norm(dim=-1), rtol=1e-5, atol=1e-6)


def test_the_walkthrough_reads_layer_2_from_layer_1s_attention_sum(lm):
    from model.teach.inspect import attention_inputs

    trace = lm.trace("abcabcab")
    inputs = attention_inputs(trace, lm.model, "decoder", 1)
    assert (inputs["R"] == trace.numpy("decoder.0.self_attn.resid").astype("float64")).all()  # what block 2 adds to
    assert (inputs["X"] == trace.numpy("decoder.1.self_attn.norm").astype("float64")).all()  # its LN₁
