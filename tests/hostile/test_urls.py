"""Malformed links on every page: an unknown model, out-of-range or non-numeric layer, head, step and sliders,
unknown labels, repeated parameters, 10 KB values, unicode, a garbage class code, a key without a room.

A model the link names but this session does not have gets a message. A value a control cannot take (layer=999,
step=1e9, head=abc, a layer past this model's last) opens that control on its default with a message naming the
parameter and what it may hold, and leaves the URL, so the next link shared is clean; the page draws in full either
way, and the values the link got right are kept.

Covered elsewhere, not repeated here: unknown lang= values (tests/app/test_language.py), room=ZZZZZZ and
room=not a code! on the Attention page (tests/app/test_classroom.py), unknown source= and mask= labels
(tests/app/test_step_by_step.py), every control's range (tests/views).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from model import load_pretrained, transformer_of
from services.lessons import DEFAULT_LESSON, shipped_lessons

from .apptest import PAGES, Says, assert_page_drawn, assert_says, open_page

UNKNOWN_MODEL = Says("This link asks for the model “", "这个链接要的模型“")
NOT_A_CODE = Says("That is not a class code", "这不是课堂代码")
SLIDERS = {"d_model": "abc", "length": "1e9", "no_pe": "maybe"}
KB10 = "9" * 10_240


def whole(param: str, high: int) -> Says:
    """The message for a whole number `param` that may go from 1 to `high`."""
    return Says(f"“{param}” must be a whole number from 1 to {high}.", f"“{param}”必须是 1 到 {high} 之间的整数。")


# A layer, head or token's range is the model's (views.Control.fitted), read here from the shipped weights' configs;
# the Attention page opens on cross-attention (the decoder's layers), Step by step on the encoder's self-attention.
CONFIGS = {name: transformer_of(load_pretrained(name)).config for name in ("translate", "reverse")}
DECODER_LAYERS = {name: whole("layer", config.n_decoder_layers) for name, config in CONFIGS.items()}
HEADS = whole("head", CONFIGS["translate"].n_heads)
ENCODER_LAYERS = CONFIGS["translate"].n_encoder_layers  # Step by step and Inside a layer open on the encoder
SLIDES = len(shipped_lessons()[DEFAULT_LESSON].slides)  # a slide's range is the open lesson's, not the format's 40
TOO_LONG = Says("characters, at most 2000. The page opens with its default instead.", "最多 2000 个。")


@dataclass(frozen=True)
class UrlCase:
    id: str
    page: str
    params: dict
    says: Says | None = None
    dropped: tuple[str, ...] = ()  # parameters the page must drop from the URL (a value it could not use)
    kept: dict = field(default_factory=dict)  # session values the link set correctly and the page keeps
    langs: tuple[str, ...] = ("en",)


BOTH = ("en", "zh")
CASES = [
    *[
        UrlCase(
            f"unknown-model-{page}", page, {"model": "mine (yours)"}, UNKNOWN_MODEL, langs=BOTH[: len(page) % 2 + 1]
        )
        for page in PAGES
    ],  # some pages in both languages
    UrlCase("model-10KB", "positional-encoding", {"model": KB10}, UNKNOWN_MODEL),
    UrlCase("model-script", "attention", {"model": "<script>alert(1)</script>"}, UNKNOWN_MODEL),
    UrlCase(
        "layer=-1",
        "attention",
        {"layer": "-1", "model": "reverse"},
        DECODER_LAYERS["reverse"],
        ("layer",),
        {"model": "reverse"},
    ),
    UrlCase(  # past every model's layers: said with this model's range, not the control's 1 to 16
        "layer=999",
        "attention",
        {"layer": "999", "head": "2"},
        DECODER_LAYERS["translate"],
        ("layer",),
        {"head": 1},
        BOTH,
    ),
    UrlCase(
        "step-layer=999-head=abc",
        "step-by-step",
        {"source": "model", "layer": "999", "head": "abc", "step": "3"},
        whole("layer", ENCODER_LAYERS),
        ("layer", "head"),
        {"step": 3},
        BOTH,
    ),
    UrlCase("step-head=99", "step-by-step", {"source": "model", "head": "99"}, HEADS, ("head",), langs=BOTH),
    UrlCase("inside-ffn=999", "inside-a-layer", {"ffn": "999"}, whole("ffn", ENCODER_LAYERS), ("ffn",), langs=BOTH),
    UrlCase("head=abc", "attention", {"head": "abc", "layer": "2"}, HEADS, ("head",), {"layer": 1}),
    UrlCase("kind-more-unknown", "attention", {"kind": "z", "more": "x", "summaries": "x"}, dropped=("kind",)),
    UrlCase("off-not-a-head", "attention", {"off": "<b>zz9</b>"}, Says("is not a head", "不是一个头"), langs=BOTH),
    UrlCase("off-no-such-head", "attention", {"off": "e1.1,e9.9"}, Says("names no head of this", "不是这个模型的头")),
    UrlCase(
        "off-10KB",
        "attention",
        {"off": "e1.1," * 2048},
        Says("“off” is too long: 10240 characters, at most 10000.", "最多 10000 个。"),
        ("off",),
    ),
    UrlCase("layer-repeated", "attention", {"layer": ["2", "1", "2"]}, None),
    UrlCase("text-10KB", "attention", {"text": KB10}, TOO_LONG, ("text",), langs=BOTH),
    UrlCase("text-unicode", "inside-a-layer", {"text": "\u202e😀 中文 ü \U0001f9ea"}),
    UrlCase(
        "step=1e9",
        "step-by-step",
        {"step": "1e9", "query": "2"},
        Says("“step” must be a whole number from 1 to 8.", "“step”必须是 1 到 8 之间的整数。"),
        ("step",),
        {"query": 2},
        BOTH,
    ),
    UrlCase(  # one past the lesson's last slide: the first slide, said with the lesson's range
        "lesson-slide-past-the-last",
        "lesson",
        {"slide": str(SLIDES + 1)},
        whole("slide", SLIDES),
        ("slide",),
        {"lesson_slide": 1},
        BOTH,
    ),
    UrlCase(
        "lesson-slide=999", "lesson", {"slide": "999"}, whole("slide", SLIDES), ("slide",), {"lesson_slide": 1}, BOTH
    ),
    UrlCase("lesson-slide=abc", "lesson", {"slide": "abc"}, whole("slide", SLIDES), ("slide",), {"lesson_slide": 1}),
    UrlCase("lesson-slide-last", "lesson", {"slide": str(SLIDES)}, None, kept={"lesson_slide": SLIDES}),
    UrlCase("step=-5-query=abc", "step-by-step", {"step": "-5", "query": "abc"}, None, ("step", "query")),
    UrlCase("step-repeated", "step-by-step", {"step": ["3", "4"]}, None),
    UrlCase("step-10KB", "step-by-step", {"step": KB10, "lang": "xx"}, None, ("step",)),
    UrlCase("sliders-nonsense", "positional-encoding", SLIDERS, None, tuple(SLIDERS)),
    UrlCase("slider-unicode", "positional-encoding", {"length": "５０"}, None, ("length",)),
    UrlCase("train-junk", "train", {"steps": "-1", "task": "<b>x</b>", "layer": "999"}, None),
    UrlCase("room-10KB-garbage", "train", {"room": "%00" + KB10}, NOT_A_CODE, ("room",), langs=BOTH),
    UrlCase("room-unicode", "positional-encoding", {"room": "班级１２３"}, NOT_A_CODE, ("room",)),
    UrlCase("room-repeated", "home", {"room": ["ZZZZZZ", "YYYYYY"]}, Says("There is no class", "没有代码为")),
    UrlCase("key-without-room", "step-by-step", {"key": "A" * 43}, None),
]


@pytest.mark.parametrize(
    ("case", "lang"), [pytest.param(c, lang, id=f"{c.id}-{lang}") for c in CASES for lang in c.langs]
)
def test_malformed_link(case: UrlCase, lang: str):
    at = open_page(case.page, lang, case.params)
    assert_says(at, case.says, lang)
    assert_page_drawn(at, case.page, lang)
    assert not at.error or case.says is not None, [e.value for e in at.error]
    assert len(" ".join(e.value for e in [*at.error, *at.warning])) < 1000, "a message repeats the whole value"
    for name in case.dropped:
        assert name not in at.query_params, (name, at.query_params[name])
    for key, value in case.kept.items():
        assert at.session_state[key] == value, key
    assert "role" not in str(at.session_state) or "room" in case.params
    if case.says is UNKNOWN_MODEL:
        assert at.selectbox(key="model").value == "translate"
        assert "<script>" not in " ".join(w.value for w in at.warning)
