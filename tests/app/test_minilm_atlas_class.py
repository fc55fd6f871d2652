"""The head atlas on the Attention page (a toy Transformer and MiniLM, en and zh): its grid's rows and heads, its
hover numbers against model.analysis.atlas run here, the picker opening a head above; and a class following a teacher
on MiniLM."""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

import pytest
from streamlit.testing.v1 import AppTest

from model import load_pretrained
from model.analysis.atlas import ROLES, trace_atlas
from ui.class_role import ROLE_KEY

from .charts import charts_of

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = "pages/attention.py"
LANGS = pytest.mark.parametrize("lang", ["en", "zh"])


class Words(TypedDict):
    rows: list[str]  # the grid's rows, top to bottom
    previous: str
    cls: str
    mirror: str
    layer: str
    head: str


WORDS: dict[str, Words] = {
    "en": {"rows": ["Encoder · Layer 1", "Encoder · Layer 2", "Decoder · Layer 1", "Decoder · Layer 2",
                    "Cross · Layer 1", "Cross · Layer 2"], "previous": "previous token", "cls": "[CLS]",
           "mirror": "mirrored position", "layer": "Layer {n}", "head": "Head {n}"},
    "zh": {"rows": ["编码器 · 第 1 层", "编码器 · 第 2 层", "解码器 · 第 1 层", "解码器 · 第 2 层",
                    "交叉 · 第 1 层", "交叉 · 第 2 层"], "previous": "前一个词元", "cls": "[CLS]",
           "mirror": "镜像位置", "layer": "第 {n} 层", "head": "头 {n}"},
}  # fmt: skip


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def page(lang: str, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update(lang=lang, **params)
    run(at)
    at.switch_page(PAGE)
    return run(at)


def atlas_figure(at: AppTest) -> dict:
    specs = [chart.spec for chart in charts_of(at)]
    return next(spec for spec in specs if spec["layout"].get("meta") == "head-atlas")


@LANGS
def test_the_atlas_of_a_toy_transformer_and_its_picker(lang):
    text = "the big red dog sees a small cat"
    at = page(lang, model="translate", text=text, atlas="true", atlas_over="input")
    fig = atlas_figure(at)
    assert fig["layout"]["yaxis"]["ticktext"] == WORDS[lang]["rows"]
    assert len(fig["layout"]["xaxis"]["ticktext"]) == 4
    legend = fig["data"][0]["colorbar"]["ticktext"]
    assert WORDS[lang]["mirror"] in legend and WORDS[lang]["cls"] not in legend  # no [CLS]/[SEP] in a toy model
    loaded = load_pretrained("translate")
    atlas = trace_atlas(loaded.run(text))
    numbers = atlas.head("cross", 1, 3)
    hover = fig["data"][0]["customdata"][5][3]  # Cross · Layer 2, Head 4
    shown = {line.split(": ")[0]: line.split(": ")[1] for line in hover.split("<br>")[2:]}
    assert shown[WORDS[lang]["previous"]] == f"{numbers['previous']:.2f}"
    # the picker (no click on the grid): Cross · Layer 2, head 4 opens that head above
    at.selectbox(key="atlas_row").set_value(5)
    run(at)
    at.radio(key="atlas_head").set_value(3)
    run(at)
    assert at.session_state["kind"] == "cross" and at.session_state["layer"] == 1 and at.session_state["head"] == 3
    focused = [c.spec for c in charts_of(at)]
    title = next(s["layout"]["title"]["text"] for s in focused if s["layout"].get("meta") == "attention-head")
    assert title == f"{WORDS[lang]['layer'].format(n=2)} · {WORDS[lang]['head'].format(n=4)}"


@LANGS
def test_the_atlas_of_minilm_on_its_input(lang):
    text = "The children were playing football in the park after school."
    at = page(lang, model="minilm", text=text, atlas="true", atlas_over="input")
    fig = atlas_figure(at)
    assert len(fig["layout"]["yaxis"]["ticktext"]) == 6 and len(fig["layout"]["xaxis"]["ticktext"]) == 12
    atlas = trace_atlas(load_pretrained("minilm").run(text))
    for layer, head in ((0, 2), (4, 5)):
        hover = fig["data"][0]["customdata"][layer][head]
        numbers = atlas.head("encoder", layer, head)
        for role, name in (("previous", WORDS[lang]["previous"]), ("cls", WORDS[lang]["cls"])):
            assert f"{name}: {numbers[role]:.2f}" in hover.split("<br>")
    assert ROLES.index("cls") >= 0


def test_the_atlas_over_minilm_s_fixed_sentences_names_them():
    at = page("en", model="minilm", atlas="true")
    assert "averaged over 50 fixed inputs" in atlas_figure(at)["layout"]["title"]["text"]


@LANGS
def test_a_class_follows_a_teacher_on_minilm(lang):
    teacher = page(lang)
    teacher.button(key="_class_start").click()
    run(teacher)
    role = teacher.session_state[ROLE_KEY]
    teacher.selectbox(key="model").set_value("minilm")
    run(teacher)
    teacher.selectbox(key="layer").set_value(0)
    run(teacher)
    teacher.radio(key="head").set_value(2)
    run(teacher)
    student = AppTest.from_file(APP, default_timeout=180)
    student.query_params.update(lang=lang, room=role.code)
    run(student)
    assert student.session_state["model"] == "minilm"
    student.switch_page(PAGE)
    run(student)
    assert student.session_state["kind"] == "encoder"
    assert (student.session_state["layer"], student.session_state["head"]) == (0, 2)
    specs = [c.spec for c in charts_of(student)]
    title = next(s["layout"]["title"]["text"] for s in specs if s["layout"].get("meta") == "attention-head")
    assert title == f"{WORDS[lang]['layer'].format(n=1)} · {WORDS[lang]['head'].format(n=3)}"
