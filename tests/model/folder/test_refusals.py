"""Folders model.load_folder refuses, each with a FolderError naming what it found and what it supports: another
model_type, a pickle with no safetensors (never unpickled), missing files, tensors that do not fit config.json, GPT-2
options our code does not compute, damaged or non-finite weights."""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file, save_file

import model
from model.errors import FolderError

from .folders import assert_translated, bert_folder, gpt2_folder


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("source") / "gpt2"
    gpt2_folder(path, layers=1, width=8, positions=16)
    return path


@pytest.fixture
def folder(source, tmp_path) -> Path:
    """A fresh copy of a good GPT-2 folder, for one test to damage."""
    return Path(shutil.copytree(source, tmp_path / "gpt2"))


def edit_config(folder: Path, **changes) -> None:
    path = folder / "config.json"
    path.write_text(json.dumps(json.loads(path.read_text()) | changes))


def refused(folder: Path, *words: str) -> FolderError:
    with pytest.raises(FolderError) as caught:
        model.load_folder(folder)
    for word in words:
        assert word in str(caught.value), (word, str(caught.value))
    assert_translated(caught.value)
    return caught.value


def test_a_good_copy_opens(folder):
    assert model.load_folder(folder).config.arch == "gpt"


def test_not_a_folder_and_no_config(tmp_path):
    refused(tmp_path / "nowhere", "No model folder")
    (tmp_path / "empty").mkdir()
    refused(tmp_path / "empty", "config.json")


def test_another_model_type_is_named_with_the_supported_ones(folder):
    edit_config(folder, model_type="llama")
    error = refused(folder, "'llama'", "gpt2", "bert")
    assert error.params["found"] == "'llama'"


def test_a_pickle_without_safetensors_is_never_unpickled(folder, tmp_path):
    marker = tmp_path / "unpickled"

    class Bomb:
        def __reduce__(self):
            return (Path.touch, (marker,))  # what unpickling this file would do

    (folder / "model.safetensors").unlink()
    (folder / "pytorch_model.bin").write_bytes(pickle.dumps(Bomb()))
    refused(folder, "pytorch_model.bin", "pickle", "safetensors")
    assert not marker.exists()


def test_a_pickle_beside_safetensors_is_left_alone(folder, tmp_path):
    marker = tmp_path / "unpickled"

    class Bomb:
        def __reduce__(self):
            return (Path.touch, (marker,))

    (folder / "pytorch_model.bin").write_bytes(pickle.dumps(Bomb()))
    assert "pytorch_model.bin" not in model.load_folder(folder).meta["files"]
    assert not marker.exists()


def test_missing_weights_or_tokenizer(folder):
    (folder / "tokenizer.json").unlink()
    refused(folder, "tokenizer.json", "vocab.json", "merges.txt")
    (folder / "model.safetensors").unlink()
    refused(folder, "model.safetensors")


def test_a_shard_the_index_names_must_be_in_the_folder(folder):
    weights = load_file(folder / "model.safetensors")
    (folder / "model.safetensors").unlink()
    names = sorted(weights)
    half = {name: weights[name] for name in names[: len(names) // 2]}
    save_file(half, folder / "model-00001-of-00002.safetensors")
    index = {"metadata": {}, "weight_map": {name: "model-00001-of-00002.safetensors" for name in half}}
    index["weight_map"] |= {name: "model-00002-of-00002.safetensors" for name in names[len(names) // 2 :]}
    (folder / "model.safetensors.index.json").write_text(json.dumps(index))
    refused(folder, "model-00002-of-00002.safetensors")
    index["weight_map"][names[-1]] = "../outside.safetensors"
    (folder / "model.safetensors.index.json").write_text(json.dumps(index))
    refused(folder, "../outside.safetensors")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"n_embd": 16}, ["wte.weight", "(320, 8)", "(320, 16)"]),
        ({"n_layer": 2}, ["missing", "decoder.1."]),
        ({"n_positions": 32}, ["wpe.weight", "(16, 8)", "(32, 8)"]),
        ({"vocab_size": 300}, ["tokenizer.json", "320", "300"]),
    ],
)
def test_tensor_shapes_or_names_that_do_not_fit_the_config(folder, change, words):
    edit_config(folder, **change)
    refused(folder, *words)


def test_a_tensor_gpt2_has_no_place_for_and_a_missing_one(folder):
    weights = load_file(folder / "model.safetensors")
    save_file(weights | {"transformer.h.0.attn.rotary.weight": torch.zeros(2)}, folder / "model.safetensors")
    refused(folder, "transformer.h.0.attn.rotary.weight")
    del weights["transformer.h.0.ln_2.bias"]
    save_file(weights, folder / "model.safetensors")
    refused(folder, "missing", "decoder.0.ffn_block.norm.bias")


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("activation_function", "relu"),
        ("scale_attn_by_inverse_layer_idx", True),
        ("reorder_and_upcast_attn", True),
        ("scale_attn_weights", False),
        ("add_cross_attention", True),
    ],
)
def test_gpt2_options_our_code_does_not_compute_are_refused_by_name(folder, option, value):
    edit_config(folder, **{option: value})
    refused(folder, option, repr(value))


def test_damaged_or_non_finite_weights(folder):
    weights = load_file(folder / "model.safetensors")
    weights["transformer.ln_f.bias"][0] = float("nan")
    save_file(weights, folder / "model.safetensors")
    refused(folder, "ln_f.bias", "non-finite")
    data = (folder / "model.safetensors").read_bytes()
    (folder / "model.safetensors").write_bytes(data[:-100])  # cut short
    refused(folder, "model.safetensors", "damaged")
    (folder / "model.safetensors").write_bytes(b"\x08\x00\x00\x00\x00\x00\x00\x00{not json")
    refused(folder, "model.safetensors", "damaged")


def test_a_bert_folder_with_another_activation_pooling_or_no_tokenizer(tmp_path):
    path = tmp_path / "bert"
    bert_folder(path, layers=1, width=8, positions=16)
    edit_config(path, hidden_act="relu")
    refused(path, "hidden_act", "'relu'", "'gelu'")
    edit_config(path, hidden_act="gelu", is_decoder=True)  # a causal BERT: every token would see only the ones before
    refused(path, "is_decoder", "True", "False")
    edit_config(path, is_decoder=False)
    (path / "1_Pooling").mkdir()
    cls_pooling = {"pooling_mode_cls_token": True, "pooling_mode_mean_tokens": False}  # a sentence-transformers file
    (path / "1_Pooling" / "config.json").write_text(json.dumps(cls_pooling))
    refused(path, "1_Pooling/config.json", "mean")
    (path / "1_Pooling" / "config.json").unlink()
    (path / "tokenizer.json").unlink()
    refused(path, "tokenizer.json", "vocab.txt")
