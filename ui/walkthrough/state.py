"""The walkthrough's controls and shared state: which step, which source, which query token, ablations.

Every control here is one of the page's view (views.StepByStepView), so the link holds it (?step=5&source=model
&query=2, ids and numbers, the same in every language; ui.state writes it, and reads a link written with a label
in either language).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import streamlit as st

from model import Trace
from model.teach.walkthrough import select_head
from views import Number, StepByStepView, key_of
from views.base import spec_of
from views.walkthrough import SOURCE_LABELS

from ..i18n import N_, _, current_language
from ..navigation import ATTENTION
from ..presenter import StepLabels, presenting
from ..presenter import step_buttons as presenter_steps
from ..state import fit
from .links import translated_labels

STEPS = {
    1: N_("Projections"),
    2: N_("Scores QKᵀ"),
    3: N_("Scaling"),
    4: N_("Mask"),
    5: N_("Softmax"),
    6: N_("Weighted sum"),
    7: N_("Multi-head"),
    8: N_("Residual + LayerNorm"),
}
EXAMPLE, MODEL = SOURCE_IDS = tuple(SOURCE_LABELS)  # the source's ids: the same in every language (and the export)
STEP_KEY, SOURCE_KEY, QUERY_KEY, HEAD_KEY, MASK_KIND_KEY = (
    key_of(StepByStepView, name) for name in ("step", "source", "query", "wt_head", "mask")
)
MARKDOWN_SPECIALS = set("\\`*_{}[]()#+-.!|$~<>:")
PAGE = StepByStepView.PAGE


TEMPERATURE = spec_of(StepByStepView, "wt_temperature", Number)  # its slider's range


@dataclass
class Walk:
    """Everything one view of the walkthrough shows: all heads' arrays plus how to label them."""

    full: dict[str, np.ndarray]  # model.teach.walkthrough.worked_example / model.teach.inspect.from_trace layout
    head: int  # 0-based head the single-head steps follow
    q_tokens: list[str]
    k_tokens: list[str]
    source: str
    temperature: float
    scale: bool
    has_bias: bool  # the model's projections have biases; the worked example's do not
    cross: bool = False  # K, V come from the encoder output M
    notes: dict = field(default_factory=dict)  # what the page says about this source (mask, model, …)
    trace: Trace | None = None  # the model source's trace (the whole forward pass), for its download

    @property
    def view(self) -> dict[str, np.ndarray]:
        return select_head(self.full, self.head)

    @property
    def size(self) -> int:
        """Columns printed per matrix in a formula: the model's wide matrices are cut shorter."""
        return 6 if self.source == EXAMPLE else 4

    @property
    def split(self) -> bool | None:
        """Long formulas of the model source go one "= …" per line; the example's wrap when too wide (and always in
        the presenter view, where formulas share the width with the figures)."""
        return True if self.source != EXAMPLE or presenting() else None

    @property
    def narrow(self) -> bool:
        """Formulas laid out for a narrow column: the presenter view's stage, with the example's short matrices
        (stacking the model's 9-row matrices would push them below a projector's fold)."""
        return self.source == EXAMPLE and presenting()

    @property
    def n_heads(self) -> int:
        return self.full["heads"].shape[0]

    @property
    def d_k(self) -> int:
        return self.full["Q"].shape[-1]


STEP_PICKER_CSS = f".st-key-{STEP_KEY} [role='radiogroup'] {{ column-gap: 0.5rem; }}"


def step_picker() -> int:
    """The step selector, bound to ?step=; its eight steps in one row on a 1280 px screen with the sidebar open
    (Streamlit's 1 rem between options wrapped the eighth onto a second row: half of it is enough)."""
    st.html(f"<style>{STEP_PICKER_CSS}</style>")  # a style alone takes no room on the page
    step = st.radio(
        _("Step"),
        list(STEPS),
        format_func=str,
        captions=[_(name) for name in STEPS.values()],
        horizontal=True,
        key=STEP_KEY,
        label_visibility="collapsed",
    )
    return int(step)


def step_buttons(middle: Callable[[], int], bar=None, fold=None) -> int:
    """◀ Previous and Next ▶ (also Page Up / Page Down; ← / → in the presenter view) either side of `middle` (the
    query picker); in the presenter view the buttons go into `bar` and `middle` into `fold` (ui.presenter)."""
    labels = StepLabels(
        _("◀ Previous"), _("Next ▶"),
        _("Previous step (Page Up, or a presenter clicker's back button)"),
        _("Next step (Page Down, or a presenter clicker's forward button)"),
    )  # fmt: skip
    query = presenter_steps(STEP_KEY, list(STEPS), labels, button_key="wt", where=bar, middle=middle, fold=fold)
    assert query is not None  # presenter_steps returns middle()'s value, and middle is given
    return query


def source_picker() -> str:
    """EXAMPLE or MODEL, bound to ?source= (the shown label; see the module docstring)."""
    source = st.segmented_control(
        _("Numbers from"),
        list(SOURCE_LABELS),
        format_func=translated_labels(SOURCE_LABELS).__getitem__,
        key=SOURCE_KEY,
        required=True,
        help=_("A small example you can edit, or one attention block of the model chosen in the sidebar."),
    )
    assert source is not None  # ui.state.settle gave the key the view's default; required=True keeps a choice
    return source


def head_picker(container, n_heads: int) -> int:
    """The head the single-head steps follow (0-based), labelled "head 1", "head 2", … in the session's language."""
    heads = list(range(n_heads))
    fit(PAGE, {"wt_head": n_heads - 1})
    labels = {h: _("head {n}").format(n=h + 1) for h in heads}  # translated now (see links.translated_labels)
    return container.selectbox(_("Head"), heads, format_func=labels.__getitem__, key=HEAD_KEY)


def md_plain(text: str) -> str:
    """User text inside Markdown (captions, explanations) shown exactly as typed."""
    return "".join("\\" + ch if ch in MARKDOWN_SPECIALS else ch for ch in text)


def query_picker(tokens: list[str]) -> int:
    """The query token (row) the softmax and weighted-sum steps follow; 0-based."""
    options = list(range(1, len(tokens) + 1))
    fit(PAGE, {"query": len(tokens)})
    chosen = st.radio(
        _("Query token (row) to follow"),
        options,
        format_func=str,
        captions=[md_plain(t if len(t) <= 12 else t[:11] + "…") for t in tokens],
        horizontal=True,
        key=QUERY_KEY,
        help=_("Steps 5, 6 and 8 work through this token's row in full."),
    )
    return int(chosen) - 1


@dataclass(frozen=True)
class Ablations:
    temperature: float
    scale: bool
    mask: bool


def more_label() -> str:
    """The label of the fold holding the temperature and the switches: what they are, and when one is not at its
    default (a link, a class or a lesson set it), what it is, so a changed setting is never hidden."""
    changes = []
    if float(st.session_state.get("wt_temperature", 1.0)) != 1.0:
        changes.append(_("τ = {tau}").format(tau=f"{float(st.session_state['wt_temperature']):g}"))
    if st.session_state.get("wt_scale_off"):
        changes.append(_("no ÷√dₖ"))
    if st.session_state.get("wt_mask_off"):
        changes.append(_("mask off"))
    label = _("More: temperature, switching the scaling or the mask off")
    return f"{label} · **{' · '.join(changes)}**" if changes else label


def ablation_controls() -> Ablations:
    """Temperature, scaling off, mask off: every number downstream updates."""
    t_col, s_col, m_col = st.columns(3, vertical_alignment="bottom")
    temperature = t_col.slider(
        _("Temperature τ"),
        TEMPERATURE.low,
        TEMPERATURE.high,
        step=0.1,
        key="wt_temperature",
        help=_("Divides the scores once more before the softmax: τ > 1 flattens the weights, τ < 1 sharpens them."),
    )
    scale_off = s_col.toggle(_("Scaling off (no ÷√dₖ)"), key="wt_scale_off")
    mask_off = m_col.toggle(_("Mask off"), key="wt_mask_off", help=_("Let every query see every key."))
    st.page_link(
        ATTENTION.script, label=_("Switch a whole head off on the Attention page"), icon=ATTENTION.icon,
        query_params={"lang": current_language()},
        help=_("See the model's output and its other heads change when heads are switched off."),
    )  # fmt: skip
    return Ablations(float(temperature), not scale_off, not mask_off)
