"""services.lessons: the shipped lesson, JSON round trips, and bad lesson files refused with the right message."""

from __future__ import annotations

import copy
import json

import pytest

from model.io.pretrained import PRETRAINED_ARCH
from services.lessons import (
    FORMAT,
    LIMITS,
    PAGES,
    Lesson,
    LessonError,
    LessonLibrary,
    Slide,
    add_slide,
    parse_lesson,
    shipped_file,
    shipped_lessons,
    view_state,
)
from views import AttentionView, HomeView, RnnView, build
from views.base import by_name
from views.controls import Choice

SHIPPED = "attention-basics"
# The order the issue lists: (page, what decides the view) for each of the shipped slides.
SHIPPED_ORDER = [
    ("rnn-vs-transformer", "reverse"), ("step-by-step", 1), ("step-by-step", 2), ("step-by-step", 3),
    ("step-by-step", 5), ("step-by-step", 6), ("step-by-step", 7), ("positional-encoding", None), ("step-by-step", 4),
    ("attention", "decoder"), ("attention", "cross"), ("inside-a-layer", None), ("train", None),
    ("attention", "decoder"), ("next-token", "gpt-en"), ("step-by-step", 4), ("next-token", "gpt-zh"),
    ("train", None), ("attention", "encoder"), ("attention", "encoder"), ("attention", "cross"),
]  # fmt: skip  # the GPT's four (decoder-only, the next token, the causal mask at work, a poem), an induction head
# forming (the Train page), MiniLM's two ("a real model", the head atlas), then the recap
GPT_SLIDES = ("gpt-en", "gpt-en", "gpt-en", "gpt-zh")  # after the encoder–decoder, before the induction slide


def good() -> dict:
    """A small valid lesson document."""
    return {
        "format": FORMAT,
        "title": {"en": "Two slides", "zh": "两张幻灯片"},
        "slides": [
            {"page": "attention", "state": {"model": "reverse", "input": "1 2 3", "kind": "cross", "layer": 1,
                                            "head": 2, "token": None},
             "title": {"en": "Cross", "zh": "交叉"}, "text": {"en": "**Look** here.", "zh": "**看**这里。"}},
            {"page": "step-by-step", "state": {"step": 3, "source": "example", "wt_temperature": 2},
             "title": {"en": "Scaling", "zh": "缩放"}, "text": {"en": "Divide.", "zh": "除以。"}},
        ],
    }  # fmt: skip


def as_bytes(doc: object) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode("utf-8")


def changed(edit) -> bytes:
    doc = copy.deepcopy(good())
    edit(doc)
    return as_bytes(doc)


def test_a_valid_lesson_reads_field_by_field():
    lesson = parse_lesson(as_bytes(good()))
    assert lesson.title == {"en": "Two slides", "zh": "两张幻灯片"}
    assert [s.page for s in lesson.slides] == ["attention", "step-by-step"]
    assert lesson.slides[0].state == {"model": "reverse", "input": "1 2 3", "kind": "cross", "layer": 1, "head": 2,
                                      "token": None}  # fmt: skip
    assert lesson.slides[1].state["wt_temperature"] == 2.0 and isinstance(
        lesson.slides[1].state["wt_temperature"], float
    )
    assert lesson.slides[0].text["zh"] == "**看**这里。"


def test_json_round_trip_gives_the_same_lesson_and_digest():
    lesson = parse_lesson(as_bytes(good()))
    again = parse_lesson(lesson.to_json().encode("utf-8"))
    assert again == lesson and again.digest == lesson.digest
    assert parse_lesson(lesson.to_json()) == lesson  # text as well as bytes
    expected = good()
    expected["slides"][1]["state"]["wt_temperature"] = 2.0  # a number setting is written as a float
    assert json.loads(lesson.to_json()) == expected


@pytest.mark.parametrize(
    ("written", "read"),
    [("encoder self", "encoder"), ("decoder self", "decoder"), ("cross", "cross"), ("encoder", "encoder")],
)
def test_a_file_from_before_the_one_attention_vocabulary_reads_in_it(written, read):
    """Files written before model/naming.py name the walkthrough's block "encoder self" / "decoder self"; they load,
    and are written back with the kind's id (AttentionKind), the same word the Attention page's `kind` uses."""
    lesson = parse_lesson(changed(lambda d: d["slides"][1]["state"].update(source="model", wt_kind=written)))
    assert lesson.slides[1].state["wt_kind"] == read and type(lesson.slides[1].state["wt_kind"]) is str
    assert json.loads(lesson.to_json())["slides"][1]["state"]["wt_kind"] == read


@pytest.mark.parametrize("written", ["encoder self-attention", "Encoder", "rnn", "self", 3])
def test_an_attention_kind_the_pages_do_not_offer_is_refused(written):
    with pytest.raises(LessonError) as caught:
        parse_lesson(changed(lambda d: d["slides"][1]["state"].update(wt_kind=written)))
    assert caught.value.params["options"] == "encoder, decoder, cross"


def test_the_shipped_lesson_is_bilingual_and_in_the_issue_order():
    lesson = shipped_lessons()[SHIPPED]
    models = [slide.state.get("model") for slide in lesson.slides]
    first = models.index("gpt-en")
    assert tuple(models[first : first + len(GPT_SLIDES)]) == GPT_SLIDES
    after = first + len(GPT_SLIDES)
    assert lesson.slides[first - 1].page == "train" and lesson.slides[after].page == "train"
    assert models[after] == "induction" and models[after + 1] == "minilm"
    for slide, (page, view) in zip(lesson.slides, SHIPPED_ORDER, strict=True):
        assert slide.page == page
        if page == "step-by-step":
            assert slide.state["step"] == view
        elif page == "attention":
            assert slide.state["kind"] == view
        elif page == "next-token":  # written on live: the prompt alone to begin with
            assert slide.state["model"] == view and "nt_written" not in slide.state
        elif page == "rnn-vs-transformer":
            assert slide.state == {"rnn_part": 3, "bottleneck_task": view}  # the bottleneck, on a task with RNNs
        for texts in (slide.title, slide.text):
            assert texts["en"].strip() and texts["zh"].strip()
            assert any("\u4e00" <= ch <= "\u9fff" for ch in texts["zh"])
            assert not any("\u4e00" <= ch <= "\u9fff" for ch in texts["en"])
        sentences = slide.text["zh"].count("。")
        assert 2 <= sentences <= 3, slide.title["en"]
    assert parse_lesson(shipped_file(SHIPPED)) == lesson  # the download holds the same lesson


def test_every_page_a_slide_may_show_is_known_and_names_only_shipped_transformers_and_gpts():
    assert set(PAGES) == {
        "step-by-step", "attention", "positional-encoding", "inside-a-layer", "train", "rnn-vs-transformer",
        "next-token",
    }  # fmt: skip
    spec = by_name(RnnView)["bottleneck_task"].control.spec
    assert isinstance(spec, Choice) and spec.options == ("reverse", "translate")
    transformers = {n for n, arch in PRETRAINED_ARCH.items() if arch in ("transformer", "gpt")} | {"minilm"}
    for page in PAGES:
        for name in sorted([*PRETRAINED_ARCH, "minilm"]):
            doc = good()
            doc["slides"][0] = {**doc["slides"][0], "page": page, "state": {"model": name}}
            if name in transformers:
                assert parse_lesson(as_bytes(doc)).slides[0].state == {"model": name}
            else:
                with pytest.raises(LessonError) as caught:
                    parse_lesson(as_bytes(doc))
                assert caught.value.template == LessonError.NOT_CHOICE and caught.value.params["field"] == "state.model"


# name → (file bytes, expected template, expected params (a subset), slide number or None)
BAD: dict[str, tuple[bytes, str, dict[str, object], int | None]] = {
    "empty": (b"  \n", LessonError.EMPTY, {}, None),
    "too big": (b'{"format": "' + b"x" * (LIMITS.max_bytes + 10) + b'"}', LessonError.TOO_LARGE,
                {"limit": 256, "size": 257}, None),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", LessonError.NOT_TEXT, {}, None),
    "nul byte": (b'{"format": "\x00"}', LessonError.NOT_TEXT, {}, None),
    "malformed JSON": (b'{"format": "attention-lab-lesson/1",\n "title": }', LessonError.NOT_JSON,
                       {"line": 2, "column": 11}, None),
    "deep nesting": (b"[" * 5000 + b"]" * 5000, LessonError.TOO_DEEP, {"limit": 4}, None),
    "NaN": (changed(lambda d: d["slides"][1]["state"].update(wt_temperature="__NAN__")).replace(b'"__NAN__"', b"NaN"),
            LessonError.NOT_FINITE, {"value": "NaN"}, None),
    "Infinity": (b'{"format": "attention-lab-lesson/1", "x": -Infinity}', LessonError.NOT_FINITE,
                 {"value": "-Infinity"}, None),
    "float overflow": (b'{"format": "attention-lab-lesson/1", "x": 1e999}', LessonError.NOT_FINITE, {"value": "1e999"},
                       None),
    "huge integer": (b'{"format": "attention-lab-lesson/1", "x": ' + b"9" * 5000 + b"}", LessonError.HUGE_NUMBER,
                     {"digits": 5000}, None),
    "duplicate key": (b'{"format": "attention-lab-lesson/1", "format": "x"}', LessonError.DUPLICATE,
                      {"field": "format"}, None),
    "not an object": (b"[1, 2, 3]", LessonError.NOT_LESSON, {}, None),
    "other format": (changed(lambda d: d.update(format="reveal.js")), LessonError.WRONG_FORMAT,
                     {"found": "reveal.js", "expected": FORMAT}, None),
    "unknown top field": (changed(lambda d: d.update(script="alert(1)")), LessonError.UNKNOWN_FIELD,
                          {"field": "script"}, None),
    "unknown slide field": (changed(lambda d: d["slides"][0].update(onload="x")), LessonError.UNKNOWN_FIELD,
                            {"field": "onload"}, 1),
    "no slides": (changed(lambda d: d.update(slides=[])), LessonError.SLIDE_COUNT, {"count": 0, "limit": 40}, None),
    "too many slides": (changed(lambda d: d.update(slides=d["slides"] * 21)), LessonError.SLIDE_COUNT,
                        {"count": 42, "limit": 40}, None),
    "slides not a list": (changed(lambda d: d.update(slides={"1": {}})), LessonError.NOT_LIST, {}, None),
    "unknown page": (changed(lambda d: d["slides"][1].update(page="../../etc/passwd")), LessonError.UNKNOWN_PAGE,
                     {"page": "../../etc/passwd"}, 2),
    "unknown key": (changed(lambda d: d["slides"][0]["state"].update(__class__="x")), LessonError.UNKNOWN_KEY,
                    {"key": "__class__", "page": "attention"}, 1),
    "key of another page": (changed(lambda d: d["slides"][1]["state"].update(kind="cross")), LessonError.UNKNOWN_KEY,
                            {"key": "kind", "page": "step-by-step"}, 2),
    "layer as text": (changed(lambda d: d["slides"][0]["state"].update(layer="1")), LessonError.NOT_WHOLE,
                      {"field": "state.layer", "low": 0, "high": 15}, 1),
    "layer as bool": (changed(lambda d: d["slides"][0]["state"].update(layer=True)), LessonError.NOT_WHOLE,
                      {"field": "state.layer"}, 1),
    "head out of range": (changed(lambda d: d["slides"][0]["state"].update(head=16)), LessonError.NOT_WHOLE,
                          {"field": "state.head"}, 1),
    "step as float": (changed(lambda d: d["slides"][1]["state"].update(step=2.5)), LessonError.NOT_WHOLE,
                      {"field": "state.step", "low": 1, "high": 8}, 2),
    "temperature too high": (changed(lambda d: d["slides"][1]["state"].update(wt_temperature=50)),
                             LessonError.NOT_NUMBER, {"field": "state.wt_temperature", "high": "5"}, 2),
    "d_model off step": (changed(lambda d: d["slides"].append({**d["slides"][0], "page": "positional-encoding",
                                                                "state": {"d_model": 12}})),
                         LessonError.NOT_STEP, {"field": "state.d_model", "step": 8}, 3),
    "unknown model": (changed(lambda d: d["slides"][0]["state"].update(model="my-secret-model")),
                      LessonError.NOT_CHOICE, {"field": "state.model"}, 1),
    "unknown kind": (changed(lambda d: d["slides"][0]["state"].update(kind="<b>cross</b>")), LessonError.NOT_CHOICE,
                     {"field": "state.kind", "options": "encoder, decoder, cross"}, 1),
    "state a list": (changed(lambda d: d["slides"][0].update(state=[1])), LessonError.NOT_OBJECT,
                     {"field": "state"}, 1),
    "input too long": (changed(lambda d: d["slides"][0]["state"].update(input="a " * 200)), LessonError.TOO_LONG,
                       {"field": "state.input", "length": 400, "limit": 300}, 1),
    "text too long": (changed(lambda d: d["slides"][1]["text"].update(en="x" * 1201)), LessonError.TOO_LONG,
                      {"field": "text.en", "length": 1201, "limit": 1200}, 2),
    "title not text": (changed(lambda d: d["slides"][1]["title"].update(zh=5)), LessonError.NOT_TEXT_FIELD,
                       {"field": "title.zh"}, 2),
    "control characters": (changed(lambda d: d["slides"][0]["text"].update(en="a\x1b[31mred")),
                           LessonError.BAD_CHARACTERS, {"field": "text.en"}, 1),
    "missing Chinese": (changed(lambda d: d["slides"][1]["text"].pop("zh")), LessonError.NO_LANGUAGE,
                        {"field": "text", "language": "zh"}, 2),
    "empty English title": (changed(lambda d: d["title"].update(en="   ")), LessonError.NO_LANGUAGE,
                            {"field": "title", "language": "en"}, None),
    "third language": (changed(lambda d: d["slides"][0]["title"].update(fr="Croix")), LessonError.UNKNOWN_LANGUAGE,
                       {"field": "title", "language": "fr"}, 1),
    "missing page": (changed(lambda d: d["slides"][0].pop("page")), LessonError.MISSING, {"field": "page"}, 1),
    "missing text": (changed(lambda d: d["slides"][0].pop("text")), LessonError.MISSING, {"field": "text"}, 1),
}  # fmt: skip


@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_lesson_file_is_refused_with_its_reason(name):
    data, template, params, slide = BAD[name]
    with pytest.raises(LessonError) as caught:
        parse_lesson(data)
    assert caught.value.template == template
    assert {k: caught.value.params[k] for k in params} == params
    assert caught.value.slide == slide


def test_html_and_script_in_text_are_kept_as_text_not_refused():
    hostile = '<script>alert("x")</script><img src=x onerror=alert(1)> [click](javascript:alert(1))'
    lesson = parse_lesson(changed(lambda d: d["slides"][0]["text"].update(en=hostile)))
    assert lesson.slides[0].text["en"] == hostile  # stored as written; ui/lesson/text.py shows it inert


def test_echoed_values_are_cut_short_and_printable():
    with pytest.raises(LessonError) as caught:
        parse_lesson(changed(lambda d: d["slides"][0].update(page="p\u202e" + "a" * 100)))
    shown = caught.value.params["page"]
    assert len(shown) == 40 and shown.endswith("…") and "\u202e" not in shown


def test_view_state_keeps_what_a_lesson_can_hold_and_differs_from_the_default():
    view = build(AttentionView, {"model": "my-own", "input": "1 2", "kind": "cross", "layer": 0, "head": 1,
                                 "token": None, "present": True, "lang": "zh"})  # fmt: skip
    state = view_state(view)
    assert {k: state[k] for k in ("input", "kind", "layer", "head")} == {"input": "1 2", "kind": "cross", "layer": 0,
                                                                        "head": 1}  # fmt: skip
    assert not {"model", "present", "lang", "token"} & set(state)  # no user model, presenter, language, unset value
    assert "input" not in view_state(build(AttentionView, {"input": "x " * 200}))  # over the lesson's input limit
    assert view_state(build(HomeView, {"model": "reverse"})) == {}  # no slide shows Home


def test_add_slide_stops_at_the_limit():
    slide = Slide("train", {}, {"en": "t", "zh": "训"}, {"en": "x", "zh": "文"})
    lesson = Lesson({"en": "Mine", "zh": "我的"}, ())
    for _ in range(LIMITS.max_slides):
        lesson = add_slide(lesson, slide)
    assert len(lesson.slides) == LIMITS.max_slides
    assert parse_lesson(lesson.to_json()) == lesson
    with pytest.raises(LessonError) as caught:
        add_slide(lesson, slide)
    assert caught.value.template == LessonError.FULL and caught.value.params == {"limit": LIMITS.max_slides}


def test_the_library_keeps_the_most_recent_lessons():
    library = LessonLibrary(max_lessons=2)
    lessons = [Lesson({"en": f"L{i}", "zh": f"课{i}"}, ()) for i in range(3)]
    ids = [library.keep(lesson) for lesson in lessons]
    assert len(set(ids)) == 3 and all(i.startswith("lesson-") for i in ids)
    assert library.get(ids[0]) is None and library.get(ids[2]) == lessons[2] and len(library) == 2
    assert library.keep(lessons[2]) == ids[2]  # the same content keeps the same id
