"""A GPT checkpoint: model.safetensors + config.json (arch "gpt", config, vocabulary, meta), never pickle. A round trip
gives the same logits; a config that does not match its tensors, or a vocabulary that does not match the config, is
refused with a message that says so."""

from __future__ import annotations

import json

import pytest
import torch

from model import CheckpointError, load_checkpoint, load_checkpoint_bytes, save_checkpoint
from model.gpt import LoadedGPT
from model.io.archive import load_any_archive, load_archive, pack_archive
from model.io.checkpoint import checkpoint_bytes, task_model
from tests.toys import tiny_gpt

META = {"steps": 3, "seconds": 0.5, "corpus": "tang-jueju", "split": "held-out 5 %", "losses": [4.1, 3.9],
        "command": "python -m model.train --task gpt-zh"}  # fmt: skip


@pytest.fixture
def lm() -> LoadedGPT:
    loaded = tiny_gpt("zh", seed=3)
    loaded.meta.update(META)
    return loaded


def _logits(loaded: LoadedGPT, text: str) -> torch.Tensor:
    return loaded.model(torch.tensor([loaded.tokenize(text).ids]))


def test_save_and_load_give_the_same_model(lm, tmp_path):
    out = save_checkpoint(lm, tmp_path / "gpt")
    assert sorted(p.name for p in out.iterdir()) == ["config.json", "model.safetensors"]
    config = json.loads((out / "config.json").read_text(encoding="utf-8"))
    assert config["architecture"] == "gpt" and config["task"] == "tang-poems"
    assert config["vocabulary"][:3] == ["明", "月", "，"]  # readable characters, not escapes
    assert "明" in (out / "config.json").read_text(encoding="utf-8")
    again = load_checkpoint(out)
    assert isinstance(again, LoadedGPT)
    assert again.vocab == lm.vocab and again.config == lm.config and again.meta == META
    assert again.task == lm.task and again.name == "gpt"
    torch.testing.assert_close(_logits(again, "床前明月光，疑是"), _logits(lm, "床前明月光，疑是"), atol=0, rtol=0)
    assert again.generate("床前", n=10, seed=5) == lm.generate("床前", n=10, seed=5)
    assert load_checkpoint(out, name="gpt-zh").name == "gpt-zh"


def test_bytes_and_archives(lm):
    config_bytes, weights_bytes = checkpoint_bytes(lm)
    assert not weights_bytes.startswith(b"\x80")  # safetensors, not a pickle
    again = load_checkpoint_bytes(config_bytes, weights_bytes, name="shared")
    assert isinstance(again, LoadedGPT) and again.name == "shared"
    torch.testing.assert_close(_logits(again, "举头"), _logits(lm, "举头"), atol=0, rtol=0)
    unpacked = load_any_archive(pack_archive(lm))
    assert isinstance(unpacked, LoadedGPT) and unpacked.vocab == lm.vocab
    with pytest.raises(CheckpointError, match="GPT language model"):
        load_archive(pack_archive(lm))  # the Train page's upload takes toy task models only
    with pytest.raises(CheckpointError, match="GPT language model"):
        task_model(again)


def _edit(folder, change) -> None:
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    change(config)
    (folder / "config.json").write_text(json.dumps(config, ensure_ascii=False), encoding="utf-8")


@pytest.mark.parametrize("shipped", [False, True])
@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda c: c["model"].update(n_layers=c["model"]["n_layers"] + 1), r"does not match.*missing: decoder\.2\."),
        (lambda c: c["model"].update(n_layers=1), r"does not match.*unexpected: decoder\.1\."),
        (lambda c: c["model"].update(d_ff=64), r"decoder\.0\.ffn\.linear1\.weight has shape \(128, 32\)"),
        (lambda c: c["model"].update(max_len=40), r"wpe\.weight has shape \(32, 32\), the config needs \(40, 32\)"),
        (lambda c: c.update(vocabulary=c["vocabulary"][2:]), r"vocabulary has 19 tokens but the model config says 21"),
        (lambda c: c.update(vocabulary=["明", "明"]), "vocabulary is not usable"),
        (lambda c: c.update(vocabulary="明月"), "vocabulary is not usable"),
        (lambda c: c.update(task="limericks"), "unknown task 'limericks'"),
        (lambda c: c["model"].update(n_heads=5), "divisible"),
        (lambda c: c["model"].update(vocab_size=-1), "vocab_size"),
        (lambda c: c["model"].update(max_len=10**5), "max_len"),
        (lambda c: c.update(architecture="gpt-5"), "unknown architecture 'gpt-5'"),
    ],
)  # fmt: skip
def test_a_checkpoint_that_does_not_fit_is_refused_with_a_message(lm, tmp_path, change, message, shipped):
    folder = save_checkpoint(lm, tmp_path / "gpt")
    _edit(folder, change)
    with pytest.raises(CheckpointError, match=message):
        load_checkpoint(folder, shipped=shipped)


def test_damaged_weights_are_refused(lm, tmp_path):
    folder = save_checkpoint(lm, tmp_path / "gpt")
    (folder / "model.safetensors").write_bytes(b"not safetensors at all")
    with pytest.raises(CheckpointError, match="damaged"):
        load_checkpoint(folder)
