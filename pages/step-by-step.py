"""Step by step: scaled dot-product and multi-head attention with the real numbers in the formulas."""

import streamlit as st

from ui.classroom.ask import walk_question_panel
from ui.models import selected_model
from ui.navigation import require_entry
from ui.walkthrough import state as nav
from ui.walkthrough.example import MASK_LABELS, N_HEADS, example_inputs, example_walk, mask_controls
from ui.walkthrough.export import export_section
from ui.walkthrough.model import model_controls, model_walk
from ui.walkthrough.steps import header, step_mask, step_projections, step_scaling, step_scores
from ui.walkthrough.steps_late import step_multi_head, step_residual_norm, step_softmax, step_weighted_sum

require_entry()

st.title("Attention, step by step")
st.caption(
    "Softmax(Q Kᵀ / √dₖ) V, one step at a time, with every symbol replaced by the number the computation produced. "
    "Change any input and every number updates."
)

source_col, head_col, mask_col = st.columns([2, 1, 2], vertical_alignment="bottom")
with source_col:
    source = nav.source_picker()
ablations = nav.ablation_controls()

if source == nav.EXAMPLE:
    values = example_inputs()
    n_heads = N_HEADS
else:
    loaded = selected_model()
    text, kind, layer = model_controls(loaded)
    n_heads = loaded.config.n_heads
head = head_col.selectbox("Head", list(range(n_heads)), format_func=lambda h: f"head {h + 1}", key="wt_head")

if source == nav.EXAMPLE:
    with mask_col:
        mask = mask_controls(values["tokens"], ablations.mask)
    walk = example_walk(ablations, head, mask, values)
    kind_of_mask = st.session_state.get("wt_mask_kind", "none")
    mask_note = f"Mask in use: **{MASK_LABELS[kind_of_mask] if ablations.mask else 'none (mask off)'}**."
else:
    mask_col.caption(f"Model **{nav.md_plain(loaded.name)}** · the sidebar picks another.")
    walk = model_walk(loaded, text, kind, layer, head, ablations)
    if walk is None:
        st.stop()
    mask_note = (
        "This block uses the model's own mask: causal in the decoder's self-attention (unless switched off), "
        "none elsewhere (a single input has no padding)."
    )

st.divider()
step = nav.step_picker()
query = nav.step_buttons(lambda: nav.query_picker(walk.q_tokens))

with st.container(border=True):
    header(step, walk)
    if step == 4:
        step_mask(walk, query, mask_note)
    else:
        renderers = {1: step_projections, 2: step_scores, 3: step_scaling, 5: step_softmax,
                     6: step_weighted_sum, 7: step_multi_head, 8: step_residual_norm}  # fmt: skip
        renderers[step](walk, query)

export_section(walk)
walk_question_panel(walk, query)
