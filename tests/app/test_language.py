"""The language: ?lang= picks it and stays in the URL, an unknown value reads as English, and switching
keeps the page, the model, the input and the step."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_app(page: str | None = None, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(params)
    at.run()
    if page:
        at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_lang_zh_shows_chinese_and_stays_in_the_url():
    at = open_app(lang="zh")
    assert at.session_state["lang"] == "zh"
    assert at.query_params["lang"] == "zh"
    assert at.selectbox(key="model").label == "模型"
    assert at.markdown[0].value.startswith("看清一个小型 Transformer")


def test_an_unknown_lang_reads_as_english_without_an_error():
    for value in ("fr", "", "<script>", "zh" * 500):
        at = open_app(lang=value)
        assert at.session_state["lang"] == "en"
        assert at.query_params["lang"] == "en"
        assert at.selectbox(key="model").label == "Model"


def test_no_lang_and_no_browser_language_reads_as_english():
    at = open_app()
    assert at.session_state["lang"] == "en" and at.query_params["lang"] == "en"


def test_switching_language_keeps_page_model_input_and_step():
    at = open_app("pages/step-by-step.py", model="reverse", step="5", source="From the model", text="1 2 3")
    assert at.radio(key="step").value == 5
    at.button_group(key="lang").set_value("zh").run()
    assert not at.exception
    assert at.session_state["lang"] == "zh" and at.query_params["lang"] == "zh"
    assert at.selectbox(key="model").value == "reverse"
    assert at.text_input(key="text").value == "1 2 3"
    assert at.radio(key="step").value == 5
    assert at.selectbox(key="model").label == "模型"
    at.button_group(key="lang").set_value("en").run()
    assert at.radio(key="step").value == 5 and at.selectbox(key="model").label == "Model"


def test_the_sidebar_names_the_models_task_in_the_pages_language():
    """The sidebar's line on the model's task says what it is in the page's words, not the task's id: the toy tasks
    and the GPT's corpora alike (the ids stay in links and file names)."""
    cases = {
        ("reverse", "en"): "**Reverse the digits** — Write the digits backwards",
        ("reverse", "zh"): "**倒序数字** — ",
        ("gpt-zh", "en"): "**Chinese poems (Tang)** — Writes classical Chinese poems",
        ("gpt-zh", "zh"): "**中文诗（唐诗）** — ",
        ("gpt-en", "zh"): "**英文文本（莎士比亚）** — ",
        ("minilm", "en"): "**Pretrained sentence encoder** — Sentence embeddings",
        ("minilm", "zh"): "**预训练句子编码器** — ",
    }
    for (model, lang), start in cases.items():
        at = open_app(model=model, lang=lang)
        captions = [c.value.replace("\\", "") for c in at.sidebar.caption]  # Markdown's escapes left out
        assert any(c.startswith(start) for c in captions), (model, lang, captions)
        ids = ("**reverse**", "**tang-poems**", "**shakespeare**", "**sentence-embedding**")
        assert not any(c.startswith(ids) for c in captions)
