"""The Train page's probe: attention weights of one fixed input, either family, compared with the model's own
forward pass on ids written by hand; the axes' tokens; the sharpest head."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from model import TASKS, get_task
from model.analysis.probe import has_attention, probe_attention, probe_tokens, sharpest_head
from model.architectures import build_model
from model.tasks import BOS_ID, EOS_ID
from model.train import default_model_config

TINY = {"transformer": {"d_model": 32, "n_heads": 2, "d_ff": 64}, "rnn": {"d_embed": 16, "d_hidden": 24}}


def reference(model, task, source: str, target: str) -> dict[str, np.ndarray]:
    """The model's forward pass on the probe's ids built here (no LoadedModel, no probe code): name → weights."""
    src = torch.tensor([[*task.src_vocab.encode(source).ids, EOS_ID]])
    tgt = torch.tensor([[BOS_ID, *task.tgt_vocab.encode(target).ids]])
    model.eval()
    with torch.no_grad():
        _, trace = model(src, tgt, record=True)
    return {n.removesuffix(".weights"): trace[n][0].numpy() for n in trace.names() if n.endswith(".weights")}


@pytest.mark.parametrize("task_name", sorted(TASKS))
def test_transformer_probe_is_every_head_of_every_block(task_name):
    torch.manual_seed(0)
    task = get_task(task_name)
    model = build_model(default_model_config(task, "transformer", n_encoder_layers=2, **TINY["transformer"]))
    source = task.example
    target = task.target_for(source)
    assert target is not None
    got, want = probe_attention(model, task, source, target), reference(model, task, source, target)
    assert set(got) == set(want) == {
        "encoder.0.self_attn", "encoder.1.self_attn", "decoder.0.self_attn", "decoder.0.cross_attn"
    }  # fmt: skip
    src_tokens, tgt_tokens = probe_tokens(task, source, target)
    assert src_tokens == [*task.src_vocab.encode(source).tokens, "<eos>"]
    assert tgt_tokens == ["<bos>", *task.tgt_vocab.encode(target).tokens]
    for name, weights in want.items():
        assert got[name].dtype == np.float32 and got[name].shape[0] == 2
        np.testing.assert_allclose(got[name], weights, atol=1e-6)
    assert got["decoder.0.cross_attn"].shape[1:] == (len(tgt_tokens), len(src_tokens))
    assert got["encoder.0.self_attn"].shape[1:] == (len(src_tokens), len(src_tokens))


@pytest.mark.parametrize("cell", ["gru", "lstm", "rnn"])
def test_rnn_probe_is_one_head_over_the_encoder_states(cell):
    torch.manual_seed(1)
    task = get_task("translate")
    model = build_model(default_model_config(task, "rnn", cell=cell, **TINY["rnn"]))
    source, target = task.example, task.target_for(task.example)
    assert target is not None
    got, want = probe_attention(model, task, source, target), reference(model, task, source, target)
    src_tokens, tgt_tokens = probe_tokens(task, source, target)
    assert set(got) == set(want) == {"rnn.attn"}
    assert got["rnn.attn"].shape == (1, len(tgt_tokens), len(src_tokens)) and got["rnn.attn"].dtype == np.float32
    np.testing.assert_allclose(got["rnn.attn"][0], want["rnn.attn"], atol=1e-6)
    np.testing.assert_allclose(got["rnn.attn"].sum(-1), 1.0, atol=1e-5)
    assert has_attention(model.config)


def test_an_rnn_without_attention_has_nothing_to_probe():
    task = get_task("translate")
    model = build_model(default_model_config(task, "rnn", score="none", **TINY["rnn"]))
    target = task.target_for(task.example)
    assert target is not None
    assert probe_attention(model, task, task.example, target) == {}
    assert not has_attention(model.config)
    assert has_attention(default_model_config(task))


def test_probe_attention_restores_training_mode():
    task = get_task("copy")
    model = build_model(default_model_config(task, "transformer", **TINY["transformer"])).train()
    probe_attention(model, task, "1 2", "1 2")
    assert model.training
    probe_attention(model.eval(), task, "1 2", "1 2")
    assert not model.training


def test_sharpest_head_is_the_one_with_the_most_peaked_rows():
    uniform = np.full((3, 3), 1 / 3)
    peaked = np.eye(3) * 0.9 + 0.1 / 3
    half = np.eye(3) * 0.5 + 0.5 / 3
    assert sharpest_head(np.stack([uniform, peaked, half])) == 1
    assert sharpest_head(np.stack([half, uniform])) == 0
    assert sharpest_head(peaked[None]) == 0
