"""The Next-token page as a function of its view: with a GPT picked, the prompt and what was written after it, the
distribution of the next token under the sampling controls, the buttons that write one token at a time, what the
newest token looked at, each layer's guess (the logit lens) and the KV cache; `render(view, slide=True)` draws a
lesson slide's part: the text, the writing buttons, the bars and the chain."""

from __future__ import annotations

import streamlit as st

from model.errors import InputError
from model.gpt import LoadedGPT
from model.sampling import greedy, sample
from views import NextTokenView
from views.next_token import MAX_WRITTEN

from ..i18n import _, explain
from ..models import get_model
from ..presenter import controls, page_header
from ..state import sync_url
from ..tokens import quoted_list
from .distribution import SHOWN, candidates_chart, chain_formulas, distribution_section
from .gpt_only import needs_gpt
from .kv_cache import kv_cache_panel
from .lens import lens_section
from .looked_at import attention_weights, looked_at_section
from .prompt import prompt_box
from .run import next_token, run_written
from .settings import fit_top_k, sampling_controls, sampling_settings, seed
from .slide import render_slide
from .writing import candidate_buttons, current_ids, write_buttons, written_section

PAGE = NextTokenView.PAGE


def render(view: NextTokenView, *, slide: bool = False) -> None:
    """The page for `view`; with `slide`, a lesson slide's part of it (ui.next_token.slide)."""
    if slide:
        render_slide(view)
        return
    bar = page_header(
        _("Next token"),
        _("A GPT writes one token at a time: it reads the text so far and gives every token of its vocabulary a "
          "probability of coming next. Change how the next one is chosen, write a few, and see what the newest token "
          "looked at."),
    )  # fmt: skip
    loaded = get_model(view.common.model)
    if needs_gpt(loaded):
        return
    assert isinstance(loaded, LoadedGPT)
    vocab_size = len(loaded.vocab)
    with controls(bar, _("Prompt")):
        prompt = prompt_box(loaded)
    ids = current_ids(loaded)
    try:
        run = run_written(loaded, prompt, ids)
    except InputError as exc:
        st.info(explain(exc), icon="✍️")
        sync_url(PAGE)
        return
    if run.prompt.unknown:
        st.warning(_("Characters this model's vocabulary lacks, read as □: {chars}").format(
            chars=quoted_list(run.prompt.unknown)), icon="❓")  # fmt: skip
    notice = run.prompt.notice()
    if notice is not None:
        st.warning(explain(notice), icon="✂️")
    written = st.container()  # above the controls, drawn once the controls have given the settings
    fit_top_k(vocab_size)
    with controls(bar, _("Sampling")):
        sampling_controls(vocab_size)
    settings = sampling_settings(vocab_size)
    dist = next_token(loaded, run, settings)
    step_seed = seed() + len(ids)  # the n-th written token is drawn with seed + n
    sampled, most_likely = sample(dist.chain, step_seed), greedy(dist.chain)
    with written:
        written_section(loaded, run.read, run.prompt.cut, ids)
        write_buttons(ids, most_likely, sampled, step_seed)
    bars, formulas = distribution_section()
    with bars:
        candidates_chart(dist, sampled, step_seed, loaded.name)
        candidate_buttons(dist.candidates(SHOWN), disabled=len(ids) >= MAX_WRITTEN)
    with formulas:
        chain_formulas(dist)
    looked_at_section(attention_weights(run.trace), run.prompt.tokens, loaded.name)
    lens_section(loaded, run.trace)
    kv_cache_panel(loaded, run.prompt.ids)
    sync_url(PAGE)
