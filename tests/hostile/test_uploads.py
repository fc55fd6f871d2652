"""Hostile files given to the Train page's upload: a pickle named model.safetensors, a zip bomb, `../` paths, a
truncated archive, files over 10 MB, wrong configs (bad JSON, an unknown architecture, absurd sizes). Each gets
"This file cannot be used: <why>" on the page, nothing is unpickled or unpacked past the caps, the model list
and the chosen model are unchanged, and a good archive uploaded next still loads.

The archive checks themselves are unit-tested in tests/model/io/test_archive.py and test_checkpoint.py; here each
file goes through the page, in English and Chinese for a few.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import tomllib
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
import torch

from model.io.archive import MAX_ARCHIVE_BYTES, pack_archive
from model.io.checkpoint import checkpoint_bytes
from tests.toys import toy

from .apptest import Says, open_page, run

CANNOT = Says("This file cannot be used:", "这个文件无法使用：")
MB = 2**20
BOTH = ("en", "zh")


def zipped(members: dict[str, bytes], compression=zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@cache
def good() -> tuple[bytes, bytes]:
    """(config.json, model.safetensors) of the shipped reverse model."""
    return checkpoint_bytes(toy("reverse"))


def with_config(edit) -> bytes:
    config = json.loads(good()[0])
    edit(config)
    return zipped({"config.json": json.dumps(config).encode(), "model.safetensors": good()[1]})


def with_weights(weights: bytes, compression=zipfile.ZIP_DEFLATED) -> bytes:
    return zipped({"config.json": good()[0], "model.safetensors": weights}, compression)


def torch_saved() -> bytes:
    buffer = io.BytesIO()
    torch.save(toy("reverse").model.state_dict(), buffer)
    return zipped({"config.json": good()[0], "model.safetensors": buffer.getvalue()})


@dataclass(frozen=True)
class UploadCase:
    id: str
    file: Callable[[], bytes]
    says: Says  # after "This file cannot be used:"
    langs: tuple[str, ...] = ("en",)


PICKLE = Says("is a pickle (torch.save) file", "是 pickle（torch.save）文件")
BOMB = Says("compressed suspiciously well (a zip bomb?)", "压缩率高得可疑（zip 炸弹？）")
UNSAFE = Says("has an unsafe path", "路径不安全")
NOT_ZIP = Says("This is not a zip file", "这不是 zip 文件")
DAMAGED = Says("model.safetensors is damaged or not a safetensors file", "model.safetensors 已损坏")
TOO_BIG = Says("archives larger than 16 MB are refused", "超过 16 MB 的压缩包一律拒收")
BAD_JSON = Says("config.json is not valid JSON", "config.json 不是有效的 JSON")
CASES = [
    UploadCase("pickle-named-safetensors", lambda: with_weights(pickle.dumps({"w": [1]}, protocol=4)), PICKLE, BOTH),
    UploadCase("torch-save-named-safetensors", torch_saved, PICKLE),
    UploadCase("zip-bomb", lambda: with_weights(bytes(30 * MB)), BOMB, BOTH),
    UploadCase("dot-dot-path", lambda: zipped({"../config.json": good()[0], "model.safetensors": good()[1]}), UNSAFE),
    UploadCase(
        "absolute-path", lambda: zipped({"/etc/config.json": good()[0], "model.safetensors": good()[1]}), UNSAFE
    ),
    UploadCase("truncated-zip", lambda: pack_archive(toy("reverse"))[:5000], NOT_ZIP, BOTH),
    UploadCase("truncated-weights", lambda: with_weights(good()[1][:999]), DAMAGED),
    UploadCase("11MB-random", lambda: with_weights(os.urandom(11 * MB), zipfile.ZIP_STORED), DAMAGED),
    UploadCase("17MB-over-the-cap", lambda: os.urandom(17 * MB), TOO_BIG, BOTH),
    UploadCase("empty-file", lambda: b"", NOT_ZIP),
    UploadCase(
        "config-bad-json", lambda: zipped({"config.json": b"{not json", "model.safetensors": good()[1]}), BAD_JSON
    ),
    UploadCase(
        "config-wrong-arch",
        lambda: with_config(lambda c: c.update(architecture="lstm")),
        Says("names an unknown architecture 'lstm'", "未知的架构 'lstm'"),
    ),
    UploadCase(
        "config-absurd-sizes",
        lambda: with_config(lambda c: c["model"].update(d_model=2**20, d_ff=2**30)),
        Says("does not match config.json", "不匹配"),
    ),
    UploadCase(
        "config-absurd-max-len",
        lambda: with_config(lambda c: c["model"].update(max_len=10**9)),
        Says("max_len", "max_len"),
    ),
]


def loaded_upload(at, data: bytes, name: str = "upload.zip"):
    at.file_uploader(key="upload_zip").set_value((name, data, "application/zip"))
    return run(at)


@pytest.mark.parametrize(
    ("case", "lang"), [pytest.param(c, lang, id=f"{c.id}-{lang}") for c in CASES for lang in c.langs]
)
def test_hostile_upload(case: UploadCase, lang: str):
    at = open_page("train", lang, {"model": "reverse"})
    names = list(at.selectbox(key="model").options)
    loaded_upload(at, case.file(), "evil.zip")
    errors = " ".join(e.value for e in at.error)
    assert CANNOT[lang] in errors and case.says[lang] in errors, errors
    assert len(errors) < 1000
    assert list(at.selectbox(key="model").options) == names and at.selectbox(key="model").value == "reverse"


def test_a_good_archive_then_a_bad_one_keeps_the_good_model():
    at = open_page("train", "en")
    loaded_upload(at, pack_archive(toy("copy")), "mine.zip")
    assert "mine (yours)" in at.selectbox(key="model").options
    at.selectbox(key="model").set_value("mine")
    run(at)
    loaded_upload(at, CASES[0].file(), "evil.zip")
    assert "is a pickle" in " ".join(e.value for e in at.error)
    assert at.selectbox(key="model").value == "mine" and "evil (yours)" not in at.selectbox(key="model").options


def test_the_server_accepts_every_upload_the_pages_allow():
    """Streamlit answers 413 to a body over server.maxUploadSize, whatever the widget allows: the server's limit is
    the largest uploader's (the sidebar's model folder zip), no more."""
    from model.io.folder_zip import MAX_ZIP_BYTES

    config = tomllib.loads((Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml").read_text())
    assert config["server"]["maxUploadSize"] * 2**20 == max(MAX_ARCHIVE_BYTES, MAX_ZIP_BYTES)
