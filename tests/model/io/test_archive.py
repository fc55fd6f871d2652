"""Model archives: a downloaded zip loads back; anything else gets a clear CheckpointError."""

from __future__ import annotations

import io
import json
import pickle
import zipfile

import pytest
import torch

from model import CheckpointError, load_pretrained
from model.io.archive import MAX_ARCHIVE_BYTES, load_archive, pack_archive, unpack_archive
from model.io.checkpoint import checkpoint_bytes
from tests.toys import toy


@pytest.fixture(scope="module")
def reverse():
    return load_pretrained("reverse")


def make_zip(members: dict[str, bytes], compression=zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buffer.getvalue()


def error_of(data: bytes) -> str:
    with pytest.raises(CheckpointError) as info:
        load_archive(data)
    return str(info.value)


def test_a_packed_archive_loads_back_identically(reverse):
    data = pack_archive(reverse)
    assert set(zipfile.ZipFile(io.BytesIO(data)).namelist()) == {"config.json", "model.safetensors"}
    loaded = load_archive(data, name="mine")
    assert loaded.name == "mine" and loaded.task.name == "reverse" and not loaded.model.training
    want = reverse.model.state_dict()
    for key, tensor in loaded.model.state_dict().items():
        assert torch.equal(tensor, want[key]), key
    assert loaded.predict("1 2 3 4") == reverse.predict("1 2 3 4") == "4 3 2 1"


def test_files_inside_one_folder_are_accepted(reverse):
    config, weights = checkpoint_bytes(reverse)
    data = make_zip({"my-model/": b"", "my-model/config.json": config, "my-model/model.safetensors": weights})
    assert unpack_archive(data) == (config, weights)


def test_a_pickle_member_is_refused_without_unpickling(reverse, monkeypatch):
    config, weights = checkpoint_bytes(reverse)
    monkeypatch.setattr(pickle, "loads", lambda *a, **k: pytest.fail("something was unpickled"))
    message = error_of(make_zip({"config.json": config, "model.safetensors": weights, "model.pkl": b"\x80\x04."}))
    assert "pickle" in message and "model.pkl" in message


def test_torch_save_bytes_named_safetensors_are_refused(reverse):
    config, _ = checkpoint_bytes(reverse)
    buffer = io.BytesIO()
    torch.save(reverse.model.state_dict(), buffer)  # a zip with data.pkl inside
    message = error_of(make_zip({"config.json": config, "model.safetensors": buffer.getvalue()}))
    assert "pickle" in message and "safetensors" in message
    raw_pickle = pickle.dumps({"weights": [1, 2, 3]}, protocol=4)
    assert "pickle" in error_of(make_zip({"config.json": config, "model.safetensors": raw_pickle}))


def test_a_truncated_safetensors_file_is_refused(reverse):
    config, weights = checkpoint_bytes(reverse)
    message = error_of(make_zip({"config.json": config, "model.safetensors": weights[: len(weights) // 2]}))
    assert "damaged or not a safetensors file" in message


def test_a_config_that_does_not_match_the_weights_is_refused(reverse):
    config, weights = checkpoint_bytes(reverse)
    wrong = json.loads(config)
    wrong["model"]["d_ff"] = 256
    message = error_of(make_zip({"config.json": json.dumps(wrong).encode(), "model.safetensors": weights}))
    assert "does not match config.json" in message and "(256, 64)" in message
    translate_config, _ = checkpoint_bytes(toy("translate"))
    assert "does not match" in error_of(make_zip({"config.json": translate_config, "model.safetensors": weights}))


def test_an_oversized_file_is_refused_before_unzipping():
    message = error_of(b"PK" + b"\0" * (MAX_ARCHIVE_BYTES + 1))
    assert "larger than 16 MB" in message


def test_a_zip_bomb_is_refused(reverse):
    config, _ = checkpoint_bytes(reverse)
    bomb = make_zip({"config.json": config, "model.safetensors": b"\0" * (40 * 2**20)})
    assert len(bomb) < MAX_ARCHIVE_BYTES
    assert "refusing" in error_of(bomb)


def test_a_lying_header_cannot_unpack_more_than_the_cap(reverse, monkeypatch):
    import model.io.archive as archive

    config, _ = checkpoint_bytes(reverse)
    data = make_zip({"config.json": config, "model.safetensors": b"\1" * 4096}, compression=zipfile.ZIP_STORED)
    monkeypatch.setattr(archive, "MAX_MEMBER_BYTES", 1000)
    assert "refusing" in error_of(data)


@pytest.mark.parametrize(
    ("members", "words"),
    [
        ({"../config.json": b"{}", "model.safetensors": b""}, "unsafe path"),
        ({"/config.json": b"{}", "model.safetensors": b""}, "unsafe path"),
        ({"a/b/config.json": b"{}", "a/b/model.safetensors": b""}, "nested too deep"),
        ({"config.json": b"{}", "notes.txt": b"hi", "model.safetensors": b""}, "unexpected file"),
        ({"config.json": b"{}"}, "no model.safetensors"),
        ({f"x{i}/": b"" for i in range(20)}, "entries"),
        ({"a/config.json": b"{}", "b/model.safetensors": b""}, "same folder"),
    ],
)
def test_odd_archives_get_a_clear_message(members, words):
    assert words in error_of(make_zip(members))


def test_not_a_zip_and_a_bad_config_get_clear_messages(reverse):
    assert "not a zip file" in error_of(b"hello, this is text")
    _, weights = checkpoint_bytes(reverse)
    assert "not valid JSON" in error_of(make_zip({"config.json": b"{nope", "model.safetensors": weights}))
