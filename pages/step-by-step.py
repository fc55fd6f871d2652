"""Step by step: scaled dot-product and multi-head attention with the real numbers in the formulas."""

import streamlit as st

from ui.classroom.ask import walk_question_panel
from ui.i18n import _
from ui.models import selected_model
from ui.navigation import require_entry
from ui.presenter import controls, page_header
from ui.rnn.notice import transformer_only
from ui.walkthrough import state as nav
from ui.walkthrough.example import MASK_KIND_KEY, MASK_LABELS, N_HEADS, example_inputs, example_walk, mask_controls
from ui.walkthrough.export import export_section
from ui.walkthrough.links import accept_any_language
from ui.walkthrough.model import model_controls, model_walk
from ui.walkthrough.show import example_mask_note, model_mask_note, show_step

require_entry()
accept_any_language({nav.SOURCE_KEY: nav.SOURCE_LABELS, MASK_KIND_KEY: MASK_LABELS})  # a link in any language

bar = page_header(
    _("Attention, step by step"),
    _(
        "Softmax(Q Kᵀ / √dₖ) V, one step at a time, with every symbol replaced by the number the computation "
        "produced. Change any input and every number updates."
    ),
)

with controls(bar) as folded:
    source_col, head_col, mask_col = st.columns([2, 1, 2], vertical_alignment="bottom")
    with source_col:
        source = nav.source_picker()
    ablations = nav.ablation_controls()

    if source == nav.EXAMPLE:
        values = example_inputs()
        n_heads = N_HEADS
    else:
        loaded = selected_model()
        if not transformer_only(loaded):
            st.stop()
        text, kind, layer = model_controls(loaded)
        n_heads = loaded.config.n_heads
    head = nav.head_picker(head_col, n_heads)

    if source == nav.EXAMPLE:
        with mask_col:
            mask = mask_controls(values["tokens"], ablations.mask)
        walk = example_walk(ablations, head, mask, values)
        mask_note = example_mask_note(st.session_state.get(MASK_KIND_KEY, "none"), ablations.mask)
    else:
        mask_col.caption(_("Model **{name}** · the sidebar picks another.").format(name=nav.md_plain(loaded.name)))
        walk = model_walk(loaded, text, kind, layer, head, ablations)
        if walk is None:
            st.stop()
        mask_note = model_mask_note()

    st.divider()
    step = nav.step_picker()
query = nav.step_buttons(lambda: nav.query_picker(walk.q_tokens), bar=bar, fold=folded)

show_step(step, walk, query, mask_note)

export_section(walk)
walk_question_panel(walk, query)
