"""A class on a model from a folder. Sessions of one process share the room store, as the servers of `--servers N`
share Redis; each server reads the folders it was started with from $ATTENTION_LAB_EXTRA_MODELS, so a student on a
server started with the same --model-dir follows the teacher onto the folder's GPT-2 (the same head, checked against
transformers), and a student on a server without it, or whose teacher opened the folder in their own browser, is told
so in their language and goes on with another model, with no traceback."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch
import transformers  # test-only (requirements-dev.txt), imported outright: these tests never skip
from streamlit.testing.v1 import AppTest
from tokenizers import Tokenizer

from attention_lab.model_dirs import EXTRA_MODELS_ENV
from devtools.hf_folders import write_gpt2_folder
from ui.class_role import ROLE_KEY
from ui.folder_upload import UPLOAD_KEY

from .charts import charts_of
from .training import heatmap_z

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TEXT = "To be, or not to be"
MISSING = {"en": "The teacher is using **tiny\\-gpt2**, which this server does not have",
           "zh": "老师正在使用 **tiny\\-gpt2**，这台服务器上没有这个模型"}  # fmt: skip


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return write_gpt2_folder(tmp_path_factory.mktemp("class-folder") / "tiny-gpt2", seed=21)


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def session(lang: str, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update({"lang": lang, **params})
    at.switch_page("pages/attention.py")
    return run(at)


def teacher_on(model: str, lang: str = "en") -> tuple[AppTest, str]:
    teacher = session(lang, model=model, text=TEXT)
    teacher.button(key="_class_start").click()
    return run(teacher), teacher.session_state[ROLE_KEY].code


def head(at: AppTest) -> np.ndarray:
    spec = next(c.spec for c in charts_of(at) if c.spec["layout"].get("meta") == "attention-head")
    return heatmap_z(spec["data"][0])


def warnings(at: AppTest) -> str:
    return " ".join(w.value for w in at.warning)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_student_on_a_server_with_the_same_model_dir_follows_onto_the_folder(folder, monkeypatch, lang):
    monkeypatch.setenv(EXTRA_MODELS_ENV, str(folder))
    teacher, code = teacher_on("tiny-gpt2")
    student = session(lang, room=code)
    assert student.selectbox(key="model").value == "tiny-gpt2"
    ids = Tokenizer.from_file(str(folder / "tokenizer.json")).encode(TEXT).ids
    model = transformers.GPT2LMHeadModel.from_pretrained(folder, attn_implementation="eager").eval()
    with torch.no_grad():
        attentions = model(torch.tensor([ids]), output_attentions=True).attentions
    layer, h = int(student.session_state["layer"]), int(student.session_state["head"])  # the teacher's (no controls)
    np.testing.assert_allclose(head(student), attentions[layer][0, h].numpy(), atol=1e-5)
    np.testing.assert_array_equal(head(student), head(teacher))
    assert MISSING[lang] not in warnings(student)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_student_on_a_server_without_it_is_told(folder, monkeypatch, lang):
    monkeypatch.setenv(EXTRA_MODELS_ENV, str(folder))
    _, code = teacher_on("tiny-gpt2")
    monkeypatch.delenv(EXTRA_MODELS_ENV)  # the student's server was started without --model-dir
    student = session(lang, room=code)
    assert MISSING[lang] in warnings(student)
    assert student.selectbox(key="model").value != "tiny-gpt2" and head(student).size  # the page works on


def test_a_folder_the_teacher_opened_in_the_browser_is_not_sent_to_the_room(folder, monkeypatch):
    monkeypatch.delenv(EXTRA_MODELS_ENV, raising=False)
    teacher, code = teacher_on("reverse")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for file in folder.iterdir():
            archive.write(file, f"tiny-gpt2/{file.name}")
    teacher.file_uploader(key=UPLOAD_KEY).set_value(("tiny-gpt2.zip", buffer.getvalue(), "application/zip"))
    run(teacher)
    assert teacher.selectbox(key="model").value == "tiny-gpt2"
    run(teacher)  # the teacher's next run publishes the view (and shares no folder model)
    student = session("en", room=code)
    assert MISSING["en"] in warnings(student)
    assert "tiny-gpt2 (shared by the teacher)" not in student.selectbox(key="model").options
