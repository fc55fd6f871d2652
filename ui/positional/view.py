"""The Positional-encoding page's sections: the sinusoidal table lab, the model's own encoding, and
what breaks when the encoding is taken away at inference."""

from __future__ import annotations

import streamlit as st

from model import Ablation, AnyLoaded, LoadedModel, RNNConfig, Trace, sinusoidal_curve, sinusoidal_table
from model.analysis.attention import attention_layers, attention_tokens, head_mean, position_similarity
from model.naming import AttentionKind, Side, pos_name
from views import PositionalView, Whole
from views.base import spec_of
from viz.matrix import SIGNED_SCALE, matrix_figure
from viz.positional import curves_figure, encoding_figure

from ..attention.view import AXES, HOVER, hover_names, numbered
from ..charts import chart_name, show_chart
from ..choices import shown_as
from ..i18n import N_, _
from ..language import keep_on_language_switch
from ..models import POSITIONAL_NAMES
from ..presenter import controls, presenting, section_fragment
from ..state import implicit, sync_url
from ..tokens import has_source, token_chips
from ..trace_cache import cached_run
from ..widths import chart_share

# The link (views.PositionalView): ?d_model=, ?length= (numbers) and ?no_pe=true, the same in both languages.
NO_POSITIONS = Ablation(positional=False)
RUNS = {"with": N_("With positions"), "without": N_("Without positions")}  # figure role suffix → heading
keep_on_language_switch("dims")
PAGE = PositionalView.PAGE  # also the first word of every chart's file name


D_MODEL, LENGTH = spec_of(PositionalView, "d_model", Whole), spec_of(PositionalView, "length", Whole)  # sliders


def dimension_name(d: int) -> str:
    return _("dim {d} (sin)").format(d=d) if d % 2 == 0 else _("dim {d} (cos)").format(d=d)


@section_fragment
def sinusoidal_lab(default_d_model: int) -> None:
    """The 2017 table for any size: heatmap, chosen dimensions as curves, position·position similarity."""
    row = st.container(horizontal=True) if presenting() else None  # presenter view: both popovers in one row
    with controls(row, _("Table size")):
        size_col, length_col = st.columns(2)
        if st.session_state.get("d_model") is None:  # the view's default: this model's own width
            st.session_state["d_model"] = default_d_model
        implicit("d_model", default_d_model)
        d_model = size_col.slider("d_model", D_MODEL.low, D_MODEL.high, step=D_MODEL.step, key="d_model")
        length = length_col.slider(_("Positions"), LENGTH.low, LENGTH.high, key="length")
    table = pe_table_chart(d_model, length)
    positions, values = sinusoidal_curve(length, d_model)  # the same encoding between the whole positions
    with controls(row, _("Dimensions to plot")):
        dims = st.multiselect(
            _("Dimensions to plot"), range(d_model), default=[d for d in (0, 1, 6, 7, 20) if d < d_model],
            format_func=shown_as({d: dimension_name(d) for d in range(d_model)}), key="dims", max_selections=8,
            placeholder=_("Choose dimensions"),
        )  # fmt: skip
    curves_col, similarity_col = st.columns(2)
    with curves_col, chart_share(0.5):
        fig = curves_figure(
            table, dims, title=_("Low dimensions wave fast, high ones slowly"), position_title=_("Position"),
            value_title=_("Value"), names=[dimension_name(d) for d in dims], curve=(positions.numpy(), values.numpy()),
        )  # fmt: skip
        show_chart(fig, "pe_curves", name=chart_name(PAGE, "sinusoidal-curves", f"d{d_model}", model=""))
        st.caption(_("Each line is the encoding at every point between positions; the dots are the whole positions, "
                     "the values a token at that position gets."))  # fmt: skip
    with similarity_col, chart_share(0.5):
        fig = matrix_figure(
            position_similarity(table), title=_("Dot product PE[i] · PE[j]: near positions look alike"),
            x_title=_("Position j"), y_title=_("Position i"), colorscale=SIGNED_SCALE, zmin=None, zmax=None, zmid=0.0,
            cell_text=False, height=380, role="pe-similarity",
        )  # fmt: skip
        show_chart(fig, "pe_similarity", name=chart_name(PAGE, "sinusoidal-similarity", f"d{d_model}", model=""))
    sync_url(PAGE)


def pe_table_chart(d_model: int, length: int):
    """The sinusoidal table of `length` positions × d_model drawn as a heatmap; returns the table (length, d_model)."""
    table = sinusoidal_table(length, d_model).numpy()  # (length, d_model)
    angle = f"pos / 10000^(2i/{d_model})"
    fig = encoding_figure(
        table, title=f"PE[pos, 2i] = sin({angle})<br>PE[pos, 2i+1] = cos({angle})",
        position_title=_("Position"), dimension_title=_("Dimension"), height=420,
    )  # fmt: skip
    show_chart(fig, "pe_table", name=chart_name(PAGE, "sinusoidal", f"d{d_model}", f"{length}-positions", model=""))
    return table


def model_encoding(loaded: AnyLoaded, trace: Trace) -> None:
    """The encoding the loaded model actually added to this input (trace `src.pos`; a GPT's `tgt.pos`)."""
    config = loaded.config
    assert not isinstance(config, RNNConfig), loaded.name  # the page asks transformer_only; a lesson names no RNN
    if config.positional == "none":
        st.info(_("This model adds no positional encoding: it sees its input as a bag of tokens."))
        return
    side = Side.SRC if has_source(trace) else Side.TGT  # a GPT adds its positions to the prompt, its tgt side
    tokens = trace.tokens(side)
    fig = encoding_figure(
        trace.numpy(pos_name(side)),
        title=_("The {kind} positional encoding this model adds to each input token").format(
            kind=_(POSITIONAL_NAMES[config.positional])
        ),
        position_title=_("Input token"), dimension_title=_("Dimension"), position_labels=numbered(tokens),
        height=max(260, 90 + 26 * len(tokens)), role="model-pe",
    )  # fmt: skip
    show_chart(fig, "model_pe", name=chart_name(PAGE, pos_name(side), model=loaded.name))


def cross_attention_chart(trace: Trace, title: str, key: str, cell_text: bool | None = None) -> None:
    """The last decoder layer's cross-attention, mean over heads (chart key `key`; cell_text=False: no values in
    the cells, for a narrow column)."""
    weights = attention_layers(trace, AttentionKind.CROSS)  # (L, H, T, S)
    queries, keys = attention_tokens(trace, AttentionKind.CROSS)
    query_title, key_title = hover_names(*AXES[AttentionKind.CROSS])
    fig = matrix_figure(
        head_mean(weights[-1]), title=title, x_title=key_title, y_title=query_title,
        x_labels=numbered(keys), y_labels=numbered(queries), hover_names=hover_names(*HOVER), height=480,
        role=f"ablation-{key}", cell_text=cell_text,
    )  # fmt: skip
    show_chart(fig, key, name=chart_name(PAGE, "cross-attention-mean", f"{key}-positions", layer=len(weights) - 1))


def ablation_section(loaded: LoadedModel, text: str, trace: Trace) -> None:
    """Prediction and last-layer cross-attention with the positional encoding, and (toggled) without it."""
    off = st.toggle(
        _("Remove the positional encoding at inference"), key="no_pe",
        help=_("Runs the same trained weights with the positional table replaced by zeros."),
    )  # fmt: skip
    expected = loaded.task.target_for(text)
    if expected is not None:
        st.markdown(_("**Correct output:** {tokens}").format(tokens=token_chips(expected.split())))
    columns = st.columns(2)
    runs = [(columns[0], "with", trace)]
    if off:
        without = cached_run(loaded, text, ablation=NO_POSITIONS)
        if without is not None:
            runs.append((columns[1], "without", without))
    else:
        columns[1].info(_("Turn on the switch above to run the model without its positional encoding."))
    for column, run_id, run in runs:
        with column, chart_share(0.5):
            tokens = token_chips((run.prediction or "").split()) or _("(empty)")
            if expected is None:
                line = _("**{label}:** {tokens}")
            elif run.prediction == expected:
                line = _("**{label}:** {tokens} :green[(correct)]")
            else:
                line = _("**{label}:** {tokens} :red[(wrong)]")
            st.markdown(line.format(label=_(RUNS[run_id]), tokens=tokens))
            cross_attention_chart(run, _(RUNS[run_id]), run_id)
            st.caption(_("Cross-attention of the last decoder layer, mean over heads."))
