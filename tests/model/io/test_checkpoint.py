"""Checkpoints round-trip exactly; damaged, foreign or mismatched files give a clear CheckpointError."""

from __future__ import annotations

import json
import pickle
import shutil

import pytest
import torch

from model import CheckpointError, load_checkpoint, load_pretrained, save_checkpoint
from model.io.checkpoint import task_model
from model.io.pretrained import CHECKPOINT_DIR
from tests.toys import toy


@pytest.fixture
def ckpt(tmp_path):
    folder = tmp_path / "ck"
    shutil.copytree(CHECKPOINT_DIR / "reverse", folder)
    return folder


def test_save_and_load_round_trip(tmp_path):
    loaded = toy("reverse")
    out = save_checkpoint(loaded, tmp_path / "again")
    assert sorted(p.name for p in out.iterdir()) == ["config.json", "model.safetensors"]  # no temp files left
    again = task_model(load_checkpoint(out))
    for key, value in loaded.model.state_dict().items():
        assert torch.equal(value, again.model.state_dict()[key])
    assert again.predict("1 2 3") == "3 2 1"
    assert load_checkpoint(out / "config.json").task.name == "reverse"  # the config file's path works too


def test_missing_folder_and_files(tmp_path, ckpt):
    with pytest.raises(CheckpointError, match="No checkpoint folder"):
        load_checkpoint(tmp_path / "nowhere")
    (ckpt / "model.safetensors").unlink()
    with pytest.raises(CheckpointError, match=r"no model\.safetensors"):
        load_checkpoint(ckpt)


def test_truncated_weights(ckpt):
    data = (ckpt / "model.safetensors").read_bytes()
    (ckpt / "model.safetensors").write_bytes(data[: len(data) // 2])
    with pytest.raises(CheckpointError, match="damaged"):
        load_checkpoint(ckpt)


def test_pickle_is_never_loaded(ckpt):
    state = load_pretrained("reverse").model.state_dict()
    (ckpt / "model.safetensors").write_bytes(pickle.dumps(state))
    with pytest.raises(CheckpointError, match="not a safetensors file"):
        load_checkpoint(ckpt)


@pytest.mark.parametrize("content", [b"{not json", b"[1, 2]", b'{"format": "other"}', b"\xff\xfe"])
def test_malformed_config(ckpt, content):
    (ckpt / "config.json").write_bytes(content)
    with pytest.raises(CheckpointError):
        load_checkpoint(ckpt)


def _edit_config(ckpt, edit):
    config = json.loads((ckpt / "config.json").read_text())
    edit(config)
    (ckpt / "config.json").write_text(json.dumps(config))


def test_config_that_does_not_match_the_weights(ckpt):
    _edit_config(ckpt, lambda c: c["model"].update(d_ff=256))
    with pytest.raises(CheckpointError, match=r"shape .* needs"):
        load_checkpoint(ckpt)


def test_config_with_more_layers_than_the_weights(ckpt):
    _edit_config(ckpt, lambda c: c["model"].update(n_encoder_layers=3))
    with pytest.raises(CheckpointError, match="missing"):
        load_checkpoint(ckpt)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda c: c.update(task="chess"), "unknown task"),
        (lambda c: c["model"].update(d_model=63), "invalid model config"),
        (lambda c: c["model"].update(colour="red"), "unknown settings"),
        (lambda c: c.update(src_vocab=["a", "b"]), "not the vocabulary"),
    ],
)
def test_invalid_config_values(ckpt, edit, message):
    _edit_config(ckpt, edit)
    with pytest.raises(CheckpointError, match=message):
        load_checkpoint(ckpt)


def test_non_finite_weights_are_rejected(ckpt):
    from safetensors.torch import load_file, save_file

    tensors = load_file(ckpt / "model.safetensors")
    tensors["generator.bias"][0] = float("nan")
    save_file(tensors, ckpt / "model.safetensors")
    with pytest.raises(CheckpointError, match="non-finite"):
        load_checkpoint(ckpt)
