"""AppTest of the presenter view: ?present=true turns it on, the sidebar switch and Exit turn it off, every page's
controls fold into popovers of one bar, steppers get their keys, charts get the projector's styling and keep
their numbers; in English and in Chinese."""

from __future__ import annotations

import base64
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from model import load_pretrained
from ui.i18n import translations
from ui.presenter.style import BODY_SCALE
from viz.projector import MIN_FONT, WHITE

from .charts import charts_of

APP = str(Path(__file__).resolve().parents[2] / "app.py")
LANGS = pytest.mark.parametrize("lang", ["en", "zh"])
WORDS = {
    "en": {"switch": "Presenter view", "exit": "Exit", "controls": "Controls", "input": "Input",
           "title": "Attention, step by step"},
    "zh": {"switch": "演示模式", "exit": "退出", "controls": "控制项", "input": "输入", "title": "逐步演算注意力"},
}  # fmt: skip
# page → {popover label msgid: widget keys folded into it} (the step-by-step temperature and switches are in its
# lazy "More" fold inside, drawn while that is open: tests/app/test_step_by_step_controls.py)
FOLDED = {
    "pages/step-by-step.py": {"Controls": {"source", "wt_head", "mask", "step", "query"}},
    "pages/attention.py": {
        "Input": {"text", "target"},
        "Attention kind": {"kind"},
        "Layer, head, token": {"layer", "head", "token"},
        "Switch heads off": {"off_all_on", "off_pills_encoder.0.self_attn", "off_pills_decoder.0.cross_attn"},
    },
    "pages/positional-encoding.py": {
        "Input": {"text"},
        "Table size": {"d_model", "length"},
        "Dimensions to plot": {"dims"},
    },
    "pages/inside-a-layer.py": {
        "Input": {"text"},
        "Stack": {"layer_stack"},
        "LayerNorm of": {"layer_ln"},
        "Feed-forward of layer": {"layer_ffn"},
    },
    "pages/train.py": {"Settings": {"train_task", "train_d", "train_steps"}},
    "pages/home.py": {},
}


def open_page(page: str, lang: str = "en", **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(lang=lang, **params)
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def blocks(node, kind: str) -> list:
    """Every block of this type under node (depth first, in page order)."""
    found = []
    for child in getattr(node, "children", {}).values():
        if getattr(child, "type", None) == kind:
            found.append(child)
        found += blocks(child, kind)
    return found


def widget_keys(node) -> set[str]:
    keys = set()
    for child in getattr(node, "children", {}).values():
        if getattr(child, "key", None) and not hasattr(child, "children"):
            keys.add(child.key)
        keys |= widget_keys(child)
    return keys


def popovers(at: AppTest) -> dict[str, set[str]]:
    """Popover label → widget keys inside it."""
    return {p.proto.popover.label: widget_keys(p) for p in blocks(at.main, "popover")}


def presenter_css(at: AppTest) -> bool:
    return any(f"font-size: {BODY_SCALE}rem" in h.proto.body for h in at.get("html"))


def figures(at: AppTest) -> list[dict]:
    return [chart.spec for chart in charts_of(at)]


def translated(lang: str, msgid: str) -> str:
    return translations(lang).gettext(msgid)


def array(value) -> np.ndarray:
    """A plotly JSON array: a plain list or a base64 typed array {dtype, bdata, shape}."""
    if isinstance(value, dict):
        flat = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        return flat.reshape([int(s) for s in str(value.get("shape", len(flat))).split(",")])
    return np.asarray(value, dtype=np.float64)


@LANGS
def test_present_true_turns_the_view_on_and_the_switch_turns_it_off(lang):
    words = WORDS[lang]
    at = open_page("pages/step-by-step.py", lang, present="true")
    switch = at.toggle(key="present")
    assert switch.value is True and switch.label == words["switch"]
    assert presenter_css(at) and BODY_SCALE >= 1.4
    assert at.button(key="presenter_exit").label == words["exit"]
    intro = at.title[0].proto.help  # the page's intro, on the title's ⓘ
    assert at.title[0].value == words["title"] and intro and intro not in [c.value for c in at.caption]
    folded = popovers(at)
    assert set(folded) == {words["controls"]}
    assert FOLDED["pages/step-by-step.py"]["Controls"] <= folded[words["controls"]]
    bar = next(b for b in blocks(at.main, "flex_container") if b.key == "presenter_bar")
    assert {"wt_prev", "wt_next", "wt_left", "wt_right", "presenter_exit"} <= widget_keys(bar)
    shortcuts = {k: at.button(key=k).proto.shortcut for k in ("wt_prev", "wt_next", "wt_left", "wt_right")}
    assert shortcuts == {"wt_prev": "pageup", "wt_next": "pagedown", "wt_left": "left", "wt_right": "right"}
    for key, step in (
        ("wt_next", 2),
        ("wt_right", 3),
        ("wt_right", 4),
        ("wt_left", 3),
        ("wt_prev", 2),
        ("wt_right", 3),
    ):
        at.button(key=key).click().run()  # ← / → step as Page Up / Page Down do
        assert at.radio(key="step").value == step, key

    at.toggle(key="present").set_value(False).run()
    assert not at.exception
    assert at.toggle(key="present").value is False and not presenter_css(at)
    assert popovers(at) == {} and not any(b.key == "presenter_bar" for b in blocks(at.main, "flex_container"))
    assert at.title[0].value == words["title"] and intro in [c.value for c in at.caption] and not at.title[0].proto.help
    assert at.radio(key="step").value == 3  # the view changed, not the state
    assert at.button(key="wt_next").proto.shortcut == "pagedown"  # the clicker works in the normal view too
    assert "wt_right" not in widget_keys(at.main)  # arrows only when presenting (sliders, editors use them)


@LANGS
def test_exit_leaves_the_presenter_view_and_links_read_present_leniently(lang):
    at = open_page("pages/attention.py", lang, present="TRUE")
    assert at.toggle(key="present").value is True
    at.button(key="presenter_exit").click().run()
    assert not at.exception
    assert at.toggle(key="present").value is False and popovers(at) == {}
    for value in ("yes", "", "1", "<script>alert(1)</script>", "true" * 2000, "false"):
        at = open_page("pages/home.py", lang, present=value)
        assert at.toggle(key="present").value is False, value
        assert not presenter_css(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", list(FOLDED))
def test_every_page_folds_its_controls_into_the_bar(page, lang):
    at = open_page(page, lang, present="true")
    assert at.toggle(key="present").value is True and presenter_css(at)
    assert at.button(key="presenter_exit").label == WORDS[lang]["exit"]
    folded = popovers(at)
    expected = {translated(lang, label): keys for label, keys in FOLDED[page].items()}
    assert set(folded) == set(expected)
    for label, keys in expected.items():
        assert keys <= folded[label], (label, folded[label])
    for fig in figures(at):  # every chart restyled for the projector
        assert fig["layout"]["font"]["size"] >= MIN_FONT
        assert all(fig["layout"][a]["tickfont"]["size"] >= MIN_FONT for a in fig["layout"] if a.startswith("xaxis"))


@LANGS
def test_attention_shows_the_focused_head_first_with_its_own_numbers(lang):
    at = open_page("pages/attention.py", lang, present="true", model="reverse", text="3 1 2", kind="encoder", layer="2",
                   head="3")  # fmt: skip
    order = [f["layout"]["meta"] for f in figures(at)]
    assert order.index("attention-head") < order.index("attention-overview")
    focused = next(f for f in figures(at) if f["layout"]["meta"] == "attention-head")
    trace = load_pretrained("reverse").run("3 1 2")
    np.testing.assert_allclose(array(focused["data"][0]["z"]), trace["encoder.1.self_attn.weights"][0, 2].numpy())
    assert focused["layout"]["height"] <= 400  # fits above a 1280×720 projector's fold
    scale = focused["data"][0]["colorscale"]
    assert scale[0] == [0.0, WHITE] and [p for p, _ in scale] == sorted(p for p, _ in scale)
    assert focused["layout"]["xaxis"]["ticktext"] == [f"{i} · {t}" for i, t in enumerate(trace.tokens("src"))]


@LANGS
def test_train_snapshots_step_with_buttons_and_keys(lang):
    at = open_page("pages/train.py", lang, present="true")
    at.selectbox(key="train_task").set_value("translate")
    at.radio(key="train_rule").set_value("after steps")
    at.number_input(key="train_steps").set_value(20)
    at.button(key="train_start").click().run()
    job = at.session_state["train_job"]
    assert job.join(120)
    at.run()
    assert not at.exception
    snaps = job.snapshot_list()
    n = len(snaps)
    assert n >= 3
    shortcuts = {k: at.button(key=k).proto.shortcut for k in ("snap_prev", "snap_next", "snap_left", "snap_right")}
    assert shortcuts == {"snap_prev": "pageup", "snap_next": "pagedown", "snap_left": "left", "snap_right": "right"}
    assert at.button(key="snap_next").disabled  # it opens on the last snapshot
    at.button(key="snap_prev").click().run()
    at.button(key="snap_left").click().run()
    shown = n - 3
    timeline = next(f for f in figures(at) if f["layout"].get("sliders"))
    assert timeline["layout"]["sliders"][0]["active"] == shown
    name, head = at.selectbox(key="snap_attn").value, at.selectbox(key="snap_head").value
    np.testing.assert_allclose(array(timeline["data"][0]["z"]), snaps[shown].weights[name][head])
    caption = translated(lang, "Snapshot {i} of {n} · step {step}").format(i=shown + 1, n=n, step=snaps[shown].step)
    assert caption in [c.value for c in at.caption]
    at.toggle(key="present").set_value(False).run()  # the normal view: buttons, no keys (Page Down scrolls)
    assert at.button(key="snap_next").proto.shortcut == "" and "snap_right" not in widget_keys(at.main)


def join(code: str, lang: str = "en") -> AppTest:
    """A student opening the join link (?room=): the app takes them to the teacher's page."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(lang=lang, room=code)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_class_follows_the_teachers_presenter_view():
    """The presenter view is part of the view a class follows: a student joining and a student already there get
    the teacher's switch, and a student exploring on their own keeps their own."""
    from services.rooms import shared_room_store
    from ui.class_role import ROLE_KEY

    teacher = open_page("pages/step-by-step.py")
    teacher.button(key="_class_start").click().run()
    code = teacher.session_state[ROLE_KEY].code
    already, explorer = join(code), join(code)
    explorer.button(key="_class_explore").click().run()
    assert already.toggle(key="present").value is False
    teacher.toggle(key="present").set_value(True).run()
    assert not teacher.exception and shared_room_store().snapshot(code).state["present"] is True
    joining = join(code, "zh")
    for student in (already.run(), joining, explorer.run()):
        assert not student.exception, [e.value for e in student.exception]
    for student in (already, joining):
        assert student.toggle(key="present").value is True and presenter_css(student)
        assert any(b.key == "presenter_bar" for b in blocks(student.main, "flex_container"))
        assert student.radio(key="step").value == 1  # on the teacher's page
    assert explorer.toggle(key="present").value is False and not presenter_css(explorer)
    teacher.button(key="presenter_exit").click().run()
    assert already.run().toggle(key="present").value is False and not presenter_css(already)
