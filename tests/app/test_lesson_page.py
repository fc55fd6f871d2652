"""The Lesson page (AppTest): every shipped slide in both languages, a slide's view is its own settings' trace,
"open this view", upload round trip, bad and hostile files, "add this view", a class following the slide, the keys
and the presenter view."""

from __future__ import annotations

import json
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Block

from model.analysis.rnn import accuracy_by_length
from services.lessons import LIBRARY, LessonError, shipped_file, shipped_lessons
from tests.app.test_attention_page import array
from tests.app.test_presenter import blocks, popovers, presenter_css, widget_keys
from tests.toys import toy
from ui.classroom.room_state import apply, collect
from ui.i18n import translations
from ui.lesson.links import SCRIPTS
from ui.lesson.text import inert_markdown
from ui.lesson.views import RENDERS
from views import SLIDE_PAGES, RnnView, build
from viz.projector import MIN_FONT

from .charts import charts_of

PER_LESSON = build(RnnView).bottleneck_n  # a slide's inputs per length: the page's default

APP = str(Path(__file__).resolve().parents[2] / "app.py")
SHIPPED = shipped_lessons()["attention-basics"]


def open_lesson(lang: str, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update(lang=lang, **params)
    at.run()
    at.switch_page("pages/lesson.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def chart_specs(at: AppTest) -> list[dict]:
    return [chart.spec for chart in charts_of(at)]


def upload(at: AppTest, data: bytes, name: str = "lesson.json") -> None:
    at.file_uploader(key="lesson_upload").set_value((name, data, "application/json")).run()
    assert not at.exception, [e.value for e in at.exception]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_shipped_slide_opens_without_error(lang):
    at = open_lesson(lang, slide="1")
    for n, slide in enumerate(SHIPPED.slides, 1):
        if n > 1:
            at.button(key="lesson_next").click().run()
        assert not at.exception, (n, [e.value for e in at.exception])
        assert not at.error, (n, [e.value for e in at.error])
        assert at.query_params.get("slide", "1") == str(n)  # the first slide is the view's default: not in the link
        assert at.header[0].value == inert_markdown(slide.title[lang])
        assert inert_markdown(slide.text[lang]) in [m.value for m in at.markdown]
        drawn = len(charts_of(at)) + len(at.latex)
        assert drawn >= 1, n
    assert at.button(key="lesson_next").disabled


def test_a_slide_draws_the_trace_of_its_own_model_input_and_settings():
    at = open_lesson("en", slide="11")  # cross-attention, layer 1, head 3 of translate
    state = SHIPPED.slides[10].state
    model, text = state["model"], state["input"]
    assert isinstance(model, str) and isinstance(text, str)
    trace = toy(model).run(text)
    expected = trace.numpy(f"decoder.{state['layer']}.cross_attn.weights")[state["head"]]  # (T, S)
    focused = chart_specs(at)[0]
    assert focused["layout"]["title"]["text"] == "Layer 2 · Head 4"
    np.testing.assert_allclose(array(focused["data"][0]["z"]), expected, atol=1e-6)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_open_this_view_carries_the_slide_to_its_page(lang):
    at = open_lesson(lang, slide="11")
    at.button(key="lesson_open").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == translations(lang).gettext("Attention")
    assert (at.session_state["kind"], at.session_state["layer"], at.session_state["head"]) == ("cross", 1, 3)
    assert at.query_params["lang"] == lang
    # cross-attention is the page's default kind, and layer 2, head 4 its sharpest head here: the link may leave
    # them out (a link computes the same default), and says nothing else
    shown = (at.query_params.get("kind", "cross"), at.query_params.get("layer", "2"), at.query_params.get("head", "4"))
    assert shown == ("cross", "2", "4")


def test_open_this_view_of_a_walkthrough_step():
    at = open_lesson("en", slide="5")  # softmax, query 2
    at.button(key="lesson_open").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert (at.query_params["step"], at.query_params["query"]) == ("5", "2")
    assert at.session_state["source"] == "example"


def test_an_uploaded_download_is_the_same_lesson():
    at = open_lesson("en", slide="6")
    upload(at, shipped_file("attention-basics"))  # the bytes the Download button gives
    lesson_id = at.session_state["lesson"]
    assert lesson_id.startswith("lesson-") and at.query_params["lesson"] == lesson_id
    assert LIBRARY.get(lesson_id) == SHIPPED
    assert at.session_state["lesson_slide"] == 1 and at.header[0].value == SHIPPED.slides[0].title["en"]
    edited = SHIPPED.to_dict()
    edited["title"]["zh"] = "我改过的课程"
    upload(at, json.dumps(edited, ensure_ascii=False).encode("utf-8"))
    lesson = LIBRARY.get(at.session_state["lesson"])
    assert lesson is not None and lesson.title["zh"] == "我改过的课程"


BAD_UPLOADS: list[tuple[bytes, str, dict[str, object], int | None]] = [  # (file bytes, template, params, slide)
    (b"{not json", LessonError.NOT_JSON, {"line": 1, "column": 2}, None),
    (b"\xff\xd8\xff\xe0 a JPEG", LessonError.NOT_TEXT, {}, None),
    (json.dumps({**SHIPPED.to_dict(), "slides": SHIPPED.to_dict()["slides"] * 3}).encode(), LessonError.SLIDE_COUNT,
     {"limit": 40, "count": 3 * len(SHIPPED.slides)}, None),
    (json.dumps({**SHIPPED.to_dict(), "slides": [{**SHIPPED.to_dict()["slides"][0], "page": "admin"}]}).encode(),
     LessonError.UNKNOWN_PAGE, {"page": "admin", "pages": ", ".join(SLIDE_PAGES)}, 1),
]  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bad_upload_is_explained_and_the_lesson_on_screen_stays(lang):
    at = open_lesson(lang, slide="4")
    words = translations(lang)
    for data, template, params, slide in BAD_UPLOADS:
        upload(at, data)
        reason = words.gettext(template).format(**params)
        if slide is not None:
            reason = words.gettext("Slide {n}: {reason}").format(n=slide, reason=reason)
        message = words.gettext("This lesson file was not loaded. {reason} The lesson on screen stays open.")
        assert [e.value for e in at.error] == [message.format(reason=reason)]
        assert at.session_state["lesson"] == "attention-basics" and at.session_state["lesson_slide"] == 4
        assert at.header[0].value == inert_markdown(SHIPPED.slides[3].title[lang])


def test_html_and_script_in_a_lesson_are_shown_as_text():
    hostile = SHIPPED.to_dict()
    hostile["slides"] = hostile["slides"][:1]
    hostile["slides"][0]["title"]["en"] = "<script>alert(1)</script>"
    hostile["slides"][0]["text"]["en"] = (
        '<img src=x onerror="alert(2)"> [click](javascript:alert(3)) ![](http://x/y.png)'
    )
    at = open_lesson("en")
    upload(at, json.dumps(hostile).encode())
    assert at.header[0].value == r"\<script\>alert(1)\</script\>"
    assert r'\<img src=x onerror="alert(2)"\> \[click\](javascript:alert(3)) \!\[\](http://x/y.png)' in [
        m.value for m in at.markdown
    ]
    assert not at.get("html") or all("alert" not in h.proto.body for h in at.get("html"))


def test_inert_markdown_escapes_what_could_become_html_a_link_or_an_image():
    assert inert_markdown("**bold** `code` 中文 <b>&amp;") == r"**bold** `code` 中文 \<b\>\&amp;"
    assert inert_markdown("[a](b) ![c](d)") == r"\[a\](b) \!\[c\](d)"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_add_this_view_builds_my_lesson(lang):
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update(lang=lang)
    at.run()
    at.switch_page("pages/attention.py").run()
    at.radio(key="kind").set_value("decoder").run()
    at.selectbox(key="layer").set_value(1).run()
    at.radio(key="head").set_value(2).run()
    at.button(key="lesson_add_view").click().run()
    added = translations(lang).ngettext(
        "Added: your lesson has {n} slide now.", "Added: your lesson has {n} slides now.", 1
    )
    assert added.format(n=1) in [c.value for c in at.sidebar.caption]
    mine = at.session_state["_lesson_mine_id"]
    at.switch_page("pages/lesson.py").run()
    at.selectbox(key="lesson").set_value(mine).run()
    assert not at.exception, [e.value for e in at.exception]
    lesson = LIBRARY.get(mine)
    assert lesson is not None
    slide = lesson.slides[0]
    assert slide.page == "attention"
    assert {k: slide.state[k] for k in ("model", "kind", "layer", "head")} == {
        "model": "translate", "kind": "decoder", "layer": 1, "head": 2,
    }  # fmt: skip
    assert slide.title == {"en": "Attention", "zh": "注意力"}
    assert at.header[0].value == slide.title[lang]
    assert chart_specs(at)[0]["layout"]["title"]["text"].startswith(translations(lang).gettext("Layer {n}").format(n=2))


def test_a_student_follows_the_teachers_slide():
    teacher = open_lesson("zh", slide="1")
    teacher.button(key="lesson_next").click().run()
    teacher.button(key="lesson_next").click().run()
    room_state = collect(cast(Mapping[str, Any], teacher.session_state), "lesson")  # AppTest's, dict-like
    assert (room_state["lesson"], room_state["slide"]) == ("attention-basics", 3)
    student = AppTest.from_file(APP, default_timeout=180)
    student.query_params.update(lang="en")
    assert "lesson_slide" in apply(room_state, cast(MutableMapping[str, Any], student.session_state), ["translate"])
    student.run()
    student.switch_page("pages/lesson.py").run()
    assert student.header[0].value == inert_markdown(SHIPPED.slides[2].title["en"])
    assert student.query_params["slide"] == "3"


def test_every_page_a_slide_shows_has_a_render_and_a_script():
    assert set(RENDERS) == set(SLIDE_PAGES)
    for page in SLIDE_PAGES:
        assert SCRIPTS[page] == f"pages/{page}.py"


STEPPER = ("lesson_prev", "lesson_next", "lesson_left", "lesson_right")
SHORTCUTS = dict(zip(STEPPER, ("pageup", "pagedown", "left", "right"), strict=True))


def column_of(at: AppTest, node) -> Block | None:
    """The innermost column holding `node` (an element of at.main's tree), or None."""
    for column in reversed(blocks(at.main, "column")):
        if any(child is node for child in column):
            return column
    return None


def test_keys_step_the_slides_in_the_normal_view_too():
    at = open_lesson("en", slide="1")
    assert {k: at.button(key=k).proto.shortcut for k in STEPPER} == SHORTCUTS  # the lesson has no slider
    for key, slide in (("lesson_right", 2), ("lesson_next", 3), ("lesson_left", 2), ("lesson_prev", 1)):
        at.button(key=key).click().run()
        assert at.query_params.get("slide", "1") == str(slide), key
    assert at.button(key="lesson_prev").disabled and at.button(key="lesson_left").disabled
    assert popovers(at) == {translations("en").gettext("Download, upload"): {"lesson_download", "lesson_upload"}}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_presenter_view_folds_the_pickers_and_sets_the_words_beside_the_live_view(lang):
    at = open_lesson(lang, slide="1", present="true")
    assert at.toggle(key="present").value is True and presenter_css(at)
    bar = next(b for b in blocks(at.main, "flex_container") if b.key == "presenter_bar")
    assert {*STEPPER, "presenter_exit"} <= widget_keys(bar)
    assert {k: at.button(key=k).proto.shortcut for k in STEPPER} == SHORTCUTS
    pickers = {"lesson", "lesson_slide", "lesson_download", "lesson_upload"}
    assert popovers(at) == {f"1 / {len(SHIPPED.slides)}": pickers}
    for key, slide in (("lesson_right", 2), ("lesson_next", 3), ("lesson_left", 2), ("lesson_right", 3)):
        at.button(key=key).click().run()
        assert not at.exception, [e.value for e in at.exception]
        assert at.query_params["slide"] == str(slide), key
        assert at.header[0].value == inert_markdown(SHIPPED.slides[slide - 1].title[lang])
    assert set(popovers(at)) == {f"3 / {len(SHIPPED.slides)}"}

    at = open_lesson(lang, slide="11", present="true")  # cross-attention: the words in one column, the view in another
    words, view = column_of(at, at.header[0]), column_of(at, charts_of(at)[0].element)
    assert words is not None and view is not None and words is not view
    assert inert_markdown(SHIPPED.slides[10].text[lang]) in [m.value for m in words.markdown]
    focused = chart_specs(at)[0]
    state = SHIPPED.slides[10].state
    model, text = state["model"], state["input"]
    assert isinstance(model, str) and isinstance(text, str)
    expected = toy(model).run(text)
    expected = expected.numpy(f"decoder.{state['layer']}.cross_attn.weights")[state["head"]]  # (T, S)
    np.testing.assert_allclose(array(focused["data"][0]["z"]), expected, atol=1e-6)
    assert "texttemplate" not in focused["data"][0]  # a narrow column: the values are left to the hover
    assert focused["layout"]["font"]["size"] >= MIN_FONT and focused["layout"]["height"] <= 400


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_first_slide_is_the_rnn_pages_bottleneck_and_opens_there(lang):
    at = open_lesson(lang, slide="1")
    curves = {trace["name"].split(" · ")[0]: trace for trace in chart_specs(at)[0]["data"] if trace.get("name")}
    assert set(curves) == {"reverse", "reverse-rnn", "reverse-rnn-noattn"}
    lengths = [int(x) for x in array(curves["reverse-rnn-noattn"]["x"])]
    measured = accuracy_by_length(toy("reverse-rnn-noattn"), lengths, per_length=PER_LESSON)
    np.testing.assert_allclose(array(curves["reverse-rnn-noattn"]["y"]), [measured[n] for n in lengths])
    at.button(key="lesson_open").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert (at.session_state["rnn_part"], at.session_state["bottleneck_task"]) == (3, "reverse")
    assert (at.query_params["rnn_part"], at.query_params.get("bottleneck_task", "reverse")) == ("3", "reverse")


def slide_range(lang: str, high: int) -> str:
    """The page's words for a link's slide the open lesson cannot show (written out here, not read from the app)."""
    words = {"en": f"“slide” must be a whole number from 1 to {high}.", "zh": f"“slide”必须是 1 到 {high} 之间的整数。"}
    return words[lang]


def assert_on_first_slide_saying(at: AppTest, lesson_slides: int, lang: str) -> None:
    warnings = " ".join(w.value for w in at.warning)
    assert slide_range(lang, lesson_slides) in warnings, warnings
    assert at.session_state["lesson_slide"] == 1 and "slide" not in at.query_params
    assert at.header[0].value == inert_markdown(SHIPPED.slides[0].title[lang])


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("asked", [len(SHIPPED.slides) + 1, 999])
def test_a_link_past_the_lessons_last_slide_opens_the_first_and_says_the_lessons_range(lang, asked):
    at = open_lesson(lang, slide=str(asked))  # 17 is within the format's 40, 999 is not: both are said alike
    assert_on_first_slide_saying(at, len(SHIPPED.slides), lang)
    assert "40" not in " ".join(w.value for w in at.warning)


def test_a_link_to_a_slide_of_a_shorter_lesson_says_that_lessons_range():
    at = open_lesson("en", slide="3")
    short = {**SHIPPED.to_dict(), "slides": SHIPPED.to_dict()["slides"][:3]}
    upload(at, json.dumps(short, ensure_ascii=False).encode("utf-8"))
    at.query_params["slide"] = "5"  # a shared link of that lesson, edited
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert slide_range("en", 3) in " ".join(w.value for w in at.warning)
    assert at.session_state["lesson_slide"] == 1 and at.header[0].value == SHIPPED.slides[0].title["en"]
    at.query_params["slide"] = "3"  # its last slide opens
    at.run()
    assert at.session_state["lesson_slide"] == 3 and not at.warning
