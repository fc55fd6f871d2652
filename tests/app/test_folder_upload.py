"""The sidebar's "Open your own model": a zip of a GPT-2 folder (made by transformers, zipped here with its top folder)
opens for that session only and is picked, its head equal to transformers' own; hostile zips (a path out of the folder,
a symbolic link, a zip bomb, a pickle instead of safetensors) are refused with a message in English and Chinese and
change nothing; a session holds at most MAX_SESSION_FOLDERS of them."""

from __future__ import annotations

import io
import shutil
import stat
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch
import transformers  # test-only (requirements-dev.txt), imported outright: these tests never skip
from streamlit.testing.v1 import AppTest
from tokenizers import Tokenizer

from devtools.hf_folders import write_gpt2_folder
from ui.folder_upload import MAX_SESSION_FOLDERS, UPLOAD_KEY

from .charts import charts_of
from .training import heatmap_z

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TEXT = "To be, or not to be"
CANNOT = {"en": "This zip cannot be opened:", "zh": "这个 zip 压缩包无法打开："}


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return write_gpt2_folder(tmp_path_factory.mktemp("upload") / "my-gpt2", seed=5)


def zipped(folder: Path, top: str = "my-gpt2", extra: dict[str, bytes] | None = None, skip: str = "") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in sorted(folder.iterdir()):
            if file.name != skip:
                archive.write(file, f"{top}/{file.name}")
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return buffer.getvalue()


def with_link(folder: Path) -> bytes:
    buffer = io.BytesIO(zipped(folder))
    with zipfile.ZipFile(buffer, "a") as archive:
        link = zipfile.ZipInfo("my-gpt2/tokenizer-link.json")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, "/etc/passwd")
    return buffer.getvalue()


def bomb() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("my-gpt2/config.json", "{}")
        archive.writestr("my-gpt2/model.safetensors", b"\0" * (64 * 2**20))  # 64 MB of zeros: ~64 kB packed
    return buffer.getvalue()


def opened(lang: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update(lang=lang, model="reverse", text=TEXT)
    at.switch_page("pages/attention.py").run()
    assert not at.exception
    return at


def upload(at: AppTest, data: bytes, name: str = "my-gpt2.zip") -> AppTest:
    at.sidebar.get("file_uploader")  # the uploader lives in the sidebar's expander
    at.file_uploader(key=UPLOAD_KEY).set_value((name, data, "application/zip"))
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_an_uploaded_folder_opens_for_this_session_and_is_transformers(folder):
    at = upload(opened("en"), zipped(folder))
    assert at.selectbox(key="model").value == "my-gpt2"
    assert "my-gpt2 (yours)" in at.selectbox(key="model").options
    assert any("Opened **my-gpt2**" in s.value for s in at.success)
    ids = Tokenizer.from_file(str(folder / "tokenizer.json")).encode(TEXT).ids
    reference = transformers.GPT2LMHeadModel.from_pretrained(folder, attn_implementation="eager").eval()
    with torch.no_grad():
        attentions = reference(torch.tensor([ids]), output_attentions=True).attentions
    layer, head = at.selectbox(key="layer").value, at.radio(key="head").value
    spec = next(c.spec for c in charts_of(at) if c.spec["layout"].get("meta") == "attention-head")
    np.testing.assert_allclose(heatmap_z(spec["data"][0]), attentions[layer][0, head].numpy(), atol=1e-5)
    other = opened("en")  # another session of the same server: not there
    assert "my-gpt2 (yours)" not in other.selectbox(key="model").options and "my-gpt2" not in other.selectbox(
        key="model").options  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    ("case", "says"),
    [
        ("traversal", "../evil.txt"),
        ("link", "tokenizer-link.json"),
        ("bomb", "model.safetensors"),
        ("pickle", "pytorch_model.bin"),
        ("not a zip", "zip"),
    ],
)
def test_a_hostile_zip_is_refused_with_a_message_and_changes_nothing(folder, tmp_path, lang, case, says):
    pickled = tmp_path / "pickled"
    shutil.copytree(folder, pickled)
    (pickled / "model.safetensors").rename(pickled / "pytorch_model.bin")
    data = {
        "traversal": lambda: zipped(folder, extra={"../evil.txt": b"x"}),
        "link": lambda: with_link(folder),
        "bomb": bomb,
        "pickle": lambda: zipped(pickled),
        "not a zip": lambda: b"this is not a zip file",
    }[case]()
    at = opened(lang)
    before = list(at.selectbox(key="model").options)
    upload(at, data, "evil.zip")
    errors = " ".join(e.value for e in at.error)
    assert CANNOT[lang] in errors and says in errors, errors
    assert list(at.selectbox(key="model").options) == before and at.selectbox(key="model").value == "reverse"
    assert not (tmp_path.parent / "evil.txt").exists()


def test_a_session_holds_at_most_a_few_opened_folders(folder):
    at = opened("en")
    for i in range(MAX_SESSION_FOLDERS):
        upload(at, zipped(folder), f"model-{i}.zip")
        assert at.selectbox(key="model").value == f"model-{i}"
    upload(at, zipped(folder), "one-more.zip")
    assert any("the most it keeps" in e.value for e in at.error)
    assert "one-more (yours)" not in at.selectbox(key="model").options
