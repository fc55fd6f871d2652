"""The Step-by-step page's controls leave the first screen to the step: the source, head and mask stay in view, the
less-used temperature and switches are folded (their fold says what they are set to when a link, class or lesson
changed them), and the eight steps are one row on a 1280 px screen. The browser test
(tests/browser/test_first_screen.py) measures where the formula starts."""

from __future__ import annotations

import pytest

from ui.walkthrough.page import CONTROL_COLUMNS
from ui.walkthrough.state import STEP_PICKER_CSS

from .test_step_by_step import open_page

FOLD = {"en": "More: temperature, switching the scaling or the mask off", "zh": "更多：温度、关闭缩放或掩码"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_temperature_and_the_switches_are_folded(lang):
    at = open_page(lang=lang)
    fold = next(e for e in at.expander if e.label == FOLD[lang])
    assert not fold.proto.expanded
    assert len(fold.children) == 0  # lazy: nothing is drawn in a closed fold
    at.session_state["wt_more"] = True  # the reader opens it (its on_change reruns the page)
    at.run()
    fold = next(e for e in at.expander if e.label == FOLD[lang])
    assert fold.slider(key="wt_temperature").value == 1.0
    assert fold.toggle(key="wt_scale_off").value is False and fold.toggle(key="wt_mask_off").value is False
    assert len(fold.selectbox) == 0 and len(fold.button_group) == 0  # head, mask and source stay in view
    assert at.segmented_control(key="source").value == "example" and at.selectbox(key="mask").value == "none"
    assert len(at.main.divider) == 0  # no rule between the controls and the steps


def test_a_changed_setting_is_named_on_the_fold():
    at = open_page(step=3, wt_temperature=2.0, wt_scale_off=True)
    labels = [e.label for e in at.expander if e.label.startswith(FOLD["en"])]
    assert labels == [FOLD["en"] + " · **τ = 2 · no ÷√dₖ**"]
    at = open_page(step=3, lang="zh", wt_mask_off=True)
    assert [e.label for e in at.expander if e.label.startswith(FOLD["zh"])] == [FOLD["zh"] + " · **掩码已关闭**"]


def test_the_source_has_room_for_its_words_and_the_steps_for_one_row():
    assert CONTROL_COLUMNS[0] / sum(CONTROL_COLUMNS) >= 0.5  # "Worked example | From the model" in ~700 px
    at = open_page()
    assert any(STEP_PICKER_CSS in h.proto.body for h in at.get("html"))
    assert ".st-key-step " in STEP_PICKER_CSS and "column-gap: 0.5rem" in STEP_PICKER_CSS


def test_a_setting_made_in_the_fold_holds_once_it_is_closed():
    """The fold draws its slider and switches only while open; what was set there stays in the view, its link and
    the fold's label after it closes, and through the next step."""
    at = open_page(step=3)
    at.session_state["wt_more"] = True
    at.run()
    at.slider(key="wt_temperature").set_value(2.5).run()
    fold = next(e for e in at.expander if e.label.startswith(FOLD["en"]))
    assert fold.label == FOLD["en"] + " · **τ = 2.5**" and fold.proto.expanded  # a new label, still open
    fold.toggle(key="wt_mask_off").set_value(True).run()
    at.session_state["wt_more"] = False
    at.run()
    assert len(at.slider) == 0  # closed: not drawn
    at.button(key="wt_next").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.radio(key="step").value == 4
    assert (at.query_params["temperature"], at.query_params["mask_off"]) == ("2.5", "true")  # the link holds them
    labels = [e.label for e in at.expander if e.label.startswith(FOLD["en"])]
    assert labels == [FOLD["en"] + " · **τ = 2.5 · mask off**"]
