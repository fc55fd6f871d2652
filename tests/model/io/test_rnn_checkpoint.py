"""RNN checkpoints and archives round-trip; foreign, mismatched or hostile configs get a CheckpointError."""

from __future__ import annotations

import json

import pytest
import torch

from model import CheckpointError, LoadedModel, RNNConfig, RNNSeq2Seq, get_task, load_checkpoint, save_checkpoint
from model.io.archive import load_archive, pack_archive
from model.io.checkpoint import checkpoint_bytes, load_checkpoint_bytes
from model.io.pretrained import CHECKPOINT_DIR


@pytest.fixture(scope="module")
def rnn():
    torch.manual_seed(0)
    task = get_task("translate")
    config = RNNConfig(len(task.src_vocab), len(task.tgt_vocab), cell="lstm", bidirectional=True, score="general")
    return LoadedModel(RNNSeq2Seq(config), task, name="mine", meta={"steps": 0})


def _same_weights(a, b):
    want = a.model.state_dict()
    return all(torch.equal(t, want[k]) for k, t in b.model.state_dict().items()) and set(want) == set(
        b.model.state_dict()
    )


def test_folder_round_trip(rnn, tmp_path):
    out = save_checkpoint(rnn, tmp_path / "ck")
    config = json.loads((out / "config.json").read_text())
    assert config["architecture"] == "rnn" and config["model"]["cell"] == "lstm"
    again = load_checkpoint(out)
    assert isinstance(again.model, RNNSeq2Seq) and again.config == rnn.config and again.config.arch == "rnn"
    assert _same_weights(rnn, again)
    text = "the big dog sees a cat"
    assert again.predict(text) == rnn.predict(text)


def test_archive_round_trip(rnn):
    loaded = load_archive(pack_archive(rnn), name="zipped")
    assert loaded.name == "zipped" and isinstance(loaded.model, RNNSeq2Seq) and not loaded.model.training
    assert _same_weights(rnn, loaded)


def test_old_checkpoints_without_an_architecture_load_as_transformers():
    for name in ("reverse", "sort", "translate", "copy"):
        config = json.loads((CHECKPOINT_DIR / name / "config.json").read_text())
        assert "architecture" not in config  # written before the RNN family existed; left as they were
        assert load_checkpoint(CHECKPOINT_DIR / name).config.arch == "transformer"


def _transformer_bytes():
    return (CHECKPOINT_DIR / "translate" / "config.json").read_bytes(), (
        CHECKPOINT_DIR / "translate" / "model.safetensors"
    ).read_bytes()


def test_rnn_config_with_transformer_weights(rnn):
    rnn_config, _ = checkpoint_bytes(rnn)
    _, transformer_weights = _transformer_bytes()
    with pytest.raises(CheckpointError, match=r"does not match config\.json's rnn model") as info:
        load_checkpoint_bytes(rnn_config, transformer_weights)
    assert "missing" in str(info.value) and "unexpected" in str(info.value)


def test_transformer_config_with_rnn_weights(rnn):
    _, rnn_weights = checkpoint_bytes(rnn)
    transformer_config, _ = _transformer_bytes()
    with pytest.raises(CheckpointError, match=r"does not match config\.json's transformer model"):
        load_checkpoint_bytes(transformer_config, rnn_weights)


def _edited(rnn, edit) -> bytes:
    config = json.loads(checkpoint_bytes(rnn)[0])
    edit(config)
    return json.dumps(config).encode()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda c: c.update(architecture="mamba"), "unknown architecture 'mamba'"),
        (lambda c: c.update(architecture=["rnn"]), "unknown architecture"),
        (lambda c: c.update(task=["translate"]), "unknown task"),
        (lambda c: c.pop("architecture"), "invalid model config: model config has unknown settings"),
        (lambda c: c["model"].update(cell="tree"), "cell must be one of rnn, gru, lstm"),
        (lambda c: c["model"].update(score="cosine"), "score must be one of"),
        (lambda c: c["model"].update(bidirectional="yes"), "bidirectional must be true or false"),
        (lambda c: c["model"].update(d_hidden=-3), "d_hidden must be a whole number"),
        (lambda c: c["model"].update(bidirectional=False), r"unexpected: encoder\.cells\.1"),
        (
            lambda c: c["model"].update(d_embed=16),
            r"src_embed\.weight has shape \(\d+, 32\), the config needs \(\d+, 16\)",
        ),
        (lambda c: c["model"].update(score="none"), "unexpected: score"),
    ],
)
def test_bad_rnn_configs(rnn, edit, message):
    weights = checkpoint_bytes(rnn)[1]
    with pytest.raises(CheckpointError, match=message):
        load_checkpoint_bytes(_edited(rnn, edit), weights)


def test_a_config_claiming_a_huge_model_is_refused_without_building_it(rnn):
    weights = checkpoint_bytes(rnn)[1]
    huge = _edited(rnn, lambda c: c["model"].update(d_hidden=2**20, d_embed=2**20))  # ~10^13 parameters
    with pytest.raises(CheckpointError, match="does not match"):
        load_checkpoint_bytes(huge, weights)


@pytest.mark.parametrize("which", ["rnn", "transformer"])
def test_a_config_asking_for_an_enormous_max_len_is_refused(rnn, which):
    """A Transformer would build a (max_len, d_model) position table before any weight is read."""
    config, weights = checkpoint_bytes(rnn) if which == "rnn" else _transformer_bytes()
    data = json.loads(config)
    data["model"]["max_len"] = 10**9
    with pytest.raises(CheckpointError, match="max_len 1000000000; models here take at most 4096"):
        load_checkpoint_bytes(json.dumps(data).encode(), weights)
