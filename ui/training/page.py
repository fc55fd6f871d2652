"""The Train page as a function of its view: `render(view)` draws the page (training runs in the server's worker
pool); `render(view, slide=True)` draws cross-attention before training (random weights) beside after (the view's
shipped model), on the same input and decoder input, with no controls."""

from __future__ import annotations

import streamlit as st
import torch

from model import AnyLoaded, LoadedEncoder, LoadedModel
from model.architectures import build_model
from model.gpt import GPTConfig, LoadedGPT
from views import TrainView

from ..attention.page import slide_input
from ..classroom.class_run import class_run_panel
from ..i18n import _
from ..models import get_model
from ..positional.view import cross_attention_chart
from ..presenter import controls, page_header, presenting
from ..tokens import md_escape
from ..trace_cache import cached_run
from ..widths import chart_share
from .attention import snapshot_panel
from .gpt_settings import gpt_settings_form, gpt_task_choice
from .gpt_slide import gpt_slide
from .panels import current_job, live_panel, progress_panel, result_panel, start_job, stop_button
from .settings import architecture_choice, settings_form
from .upload import upload_panel

PAGE = TrainView.PAGE
UNTRAINED_SEED = 0


def render(view: TrainView, *, slide: bool = False) -> None:
    """The page for `view`; with `slide`, the view's model before and after training."""
    if slide:
        render_slide(view)
        return
    bar = page_header(
        _("Train a model"),
        _(
            "Start from random weights and press **Start**: the loss falls, the held-out accuracy climbs, and the "
            "attention turns from noise into the pattern the task needs — the anti-diagonal of *reverse*, the "
            "crossing lines of *translate*. Train a Transformer, or an RNN encoder–decoder with attention to compare. "
            "The defaults train *reverse* in well under a minute on a laptop CPU. Or train a **GPT**: in a minute it "
            "goes from noise to words, and on the *induction* task you watch an induction head form."
        ),
        markdown=True,
    )
    if class_run_panel():  # a student following the class: the teacher's one run, as the room holds it
        return
    pretrained_line(get_model(view.common.model))
    status = st.container()  # Stop and the place in line or the progress bar, then the result: at the top
    with controls(bar, _("Settings")):
        arch = architecture_choice()
        settings = gpt_settings_form(gpt_task_choice()) if arch == "gpt" else settings_form(arch)
    if settings is not None:
        start_job(*settings)
    job = current_job()
    if job is None:
        st.info(_("Choose the settings above and press **▶ Start training**."))
    else:
        with status:
            if job.running:
                stop_button(job)
            progress_panel(job)
            if not job.running:
                result_panel(job)  # where the eye is: the bar has just completed above it
        live_panel(job)
        if not job.running:
            snapshot_panel(job)
    with st.expander(_("Upload a model you trained before")):
        upload_panel()


def pretrained_line(loaded: AnyLoaded) -> None:
    """One clear line when the sidebar's model is not trained on this page: MiniLM (pretrained) or a GPT (the
    shipped ones are trained by the repository's command; the GPT family below trains one here)."""
    if isinstance(loaded, LoadedEncoder):
        st.info(_("**{name}** is a pretrained model (all-MiniLM-L6-v2, trained by sentence-transformers on about a "
                  "billion sentence pairs): it is not trained here. This page trains the toy models.").format(
            name=loaded.name))  # fmt: skip
    elif isinstance(loaded, LoadedGPT):
        st.info(_("**{name}** is a GPT. Choose the model family **GPT (decoder-only)** below to train one of your "
                  "own here: English text, Chinese poems, or the induction task.").format(
            name=md_escape(loaded.name)))  # fmt: skip


@st.cache_resource(show_spinner=False)
def untrained(name: str) -> LoadedModel:
    """The shipped model's architecture with fresh random weights (seeded): what training starts from."""
    loaded = get_model(name)
    assert isinstance(loaded, LoadedModel), name  # a toy model's name: render_slide shows MiniLM's line instead
    torch.manual_seed(UNTRAINED_SEED)
    return LoadedModel(build_model(loaded.config), loaded.task, name=f"{name}-untrained")


def render_slide(view: TrainView) -> None:
    """Cross-attention before training (random weights) and after (the shipped model), on the same input and the
    same decoder input (the correct output, teacher-forced)."""
    if view.arch == GPTConfig.arch:  # "an induction head forms": the circuit, and the run ready to start
        gpt_slide(view)
        return
    loaded = get_model(view.common.model)
    if isinstance(loaded, LoadedEncoder | LoadedGPT):
        pretrained_line(loaded)
        return
    text = slide_input(view, loaded)
    target = loaded.task.target_for(text) or ""  # both decoders read the correct output: the same rows
    columns = st.columns(2)
    runs = [(columns[0], untrained(loaded.name), _("Random weights: before training"), "untrained"),
            (columns[1], loaded, _("Trained: {model}").format(model=loaded.name), "trained")]  # fmt: skip
    for column, model, title, key in runs:
        trace = cached_run(model, text, target)
        if trace is None:
            return
        with column, chart_share(0.5):
            cross_attention_chart(trace, title, key, cell_text=False if presenting() else None)
    st.caption(_("Cross-attention of the last decoder layer, mean over heads; both decoders read the correct output."))
