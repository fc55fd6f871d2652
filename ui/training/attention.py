"""Train page: watch a head's attention form — live while training, then a timeline and before/after.

Either family: the probe's blocks are named as in model/naming.py (attention_name: "decoder.1.cross_attn"; the RNN's
one block "rnn.attn" has one head); an RNN with score 'none' has no attention, which the page says in a sentence.
"""

from __future__ import annotations

import streamlit as st

from model.analysis.probe import has_attention, sharpest_head
from model.naming import AttentionKind, Side, parse_attention_name
from services.training import JobHandle
from viz.training import attention_heatmap_figure, attention_timeline_figure, before_after_figure

from ..charts import chart_name, show_chart
from ..choices import shown_as
from ..i18n import N_, _
from ..language import keep_on_language_switch
from ..presenter import StepLabels, step_buttons
from ..widths import chart_share

# attention kind → its name ({n}: layer), (query axis, key axis) words
KINDS = {
    AttentionKind.ENCODER: (N_("Encoder layer {n} · self-attention"),
                            (N_("input token (query)"), N_("input token (key)"))),
    AttentionKind.DECODER: (N_("Decoder layer {n} · self-attention"),
                            (N_("output so far (query)"), N_("output so far (key)"))),
    AttentionKind.CROSS: (N_("Decoder layer {n} · cross-attention"),
                          (N_("output so far (query)"), N_("input token (key)"))),
    AttentionKind.RNN: (N_("Decoder · attention over the encoder states"),
                        (N_("output so far (query)"), N_("input token (key)"))),
}  # fmt: skip
NO_ATTENTION = N_(
    "This model has no attention (score *none*): its decoder sees only the encoder's final state, so there is no "
    "attention to watch form. Choose another attention score to see where the decoder looks."
)
GPT_HOW_TO_READ = N_(
    "**How to read it.** Each row is a token of the probe asking *which earlier token matters?*; each column a token "
    "at or before it (the upper triangle is masked: a GPT cannot look ahead). At the start every row is a blur; as "
    "the loss falls heads specialise: one looks at the token just before (the diagonal under the main one), and on "
    "the induction task a head in layer 2 looks at the token after the earlier copy of the current one."
)
keep_on_language_switch("snap_attn", "snap_head")
SNAP_KEY, SNAP_JOB_KEY = "snap_index", "_snap_job"  # the snapshot shown, and the job it belongs to


def _kind(name: str) -> tuple[AttentionKind, int]:
    """'decoder.1.cross_attn' → (CROSS, 1); 'rnn.attn' → (RNN, 0)."""
    parsed = parse_attention_name(name)
    assert parsed is not None, name  # the names are the probe's, which records attention blocks only
    return parsed


def attention_label(name: str) -> str:
    kind, layer = _kind(name)
    return _(KINDS[kind][0]).format(n=layer + 1)


def _tokens(job: JobHandle, name: str) -> tuple[list[str], list[str]]:
    """(key tokens, query tokens) of an attention in the probe."""
    sides = dict(zip((Side.SRC, Side.TGT), job.probe_tokens, strict=True))
    kind = _kind(name)[0]
    return sides[kind.key_side], sides[kind.query_side]


def _axes(name: str) -> tuple[str, str]:
    query, key = KINDS[_kind(name)[0]][1]
    return _(query), _(key)


def _which(name: str, head: int, heads: int) -> str:
    """The attention and, when the block has more than one head, the head."""
    if heads == 1:
        return attention_label(name)
    return _("{attention}, head {n}").format(attention=attention_label(name), n=head + 1)


def _default_attention(names: list[str]) -> str:
    """The last decoder layer's cross-attention (a Transformer), else the last block (a GPT's; the RNN's only one)."""
    return max((n for n in names if _kind(n)[0] is AttentionKind.CROSS), default=max(names, key=lambda n: _kind(n)[1]))


def _choose(job: JobHandle, last: dict) -> tuple[str, int]:
    """Which attention and head to show (defaults: the last decoder layer's cross-attention, its sharpest head)."""
    names = list(last)
    c1, c2 = st.columns([3, 1])
    name = c1.selectbox(_("Attention"), names, index=names.index(_default_attention(names)), key="snap_attn",
                        format_func=shown_as({n: attention_label(n) for n in names}))  # fmt: skip
    heads = range(last[name].shape[0])
    if len(heads) == 1:
        return name, 0
    head = c2.selectbox(_("Head"), heads, index=sharpest_head(last[name]), key="snap_head",
                        format_func=shown_as({h: _("Head {n}").format(n=h + 1) for h in heads}))  # fmt: skip
    return name, int(head)


def live_attention(job: JobHandle) -> None:
    """While training: the latest snapshot of the sharpest head (or, for a model without attention, a sentence
    saying so). Drawn by the Train page's live fragment."""
    snaps = job.snapshot_list()
    if not has_attention(job.model_config):
        st.info(_(NO_ATTENTION))
        return
    if not snaps:
        return
    last = snaps[-1].weights
    names = list(last)
    name = st.session_state.get("snap_attn") if st.session_state.get("snap_attn") in names else None
    name = name or _default_attention(names)
    # The sharpest head, re-chosen only every 10 snapshots so the picture does not hop between heads.
    key = (name, len(snaps) // 10)
    if st.session_state.get("_live_head_for") != key:
        st.session_state["_live_head_for"], st.session_state["_live_head"] = key, sharpest_head(last[name])
    head = st.session_state["_live_head"]
    keys, queries = _tokens(job, name)
    y_title, x_title = _axes(name)
    left, right = st.columns([3, 2])
    fig = attention_heatmap_figure(
        last[name][head], keys, queries,
        title=_("Forming now: {attention}").format(attention=_which(name, head, len(last[name]))),
        x_title=x_title, y_title=y_title, weight_name=_("weight"), subtitle=_("step {n}").format(n=snaps[-1].step),
    )  # fmt: skip
    with left, chart_share(3 / 5):
        show_chart(
            fig, "train_live_attn", name=chart_name("train", name, "live", head=head, model=job.name), theme="streamlit"
        )
    right.markdown(probe_words(job))


def probe_words(job: JobHandle) -> str:
    """What the live heatmap shows: the probe, and how to read rows and columns."""
    if job.gpt_run is not None:
        return _(
            "Probe text `{source}`. Each row is a token looking back (a GPT sees only the tokens before it), each "
            "column a token it can look at; dark = where that row looks. Watch the blur turn into a pattern as the "
            "loss falls."
        ).format(source=md_code(job.probe[0]))
    return _(
        "Probe input `{source}`. Each row is an output position, each column an input token; dark = "
        "where that row looks. Watch the blur turn into a sharp pattern as the loss falls."
    ).format(source=job.probe[0])


def md_code(text: str) -> str:
    """Text safe inside a Markdown code span (a backtick would end it)."""
    return text.replace("`", "'").replace("\n", "⏎")


def snapshot_stepper(job: JobHandle, steps: list[int]) -> int:
    """◀ / ▶ through the snapshots (Page Up / Down and ← / → in the presenter view); a new job starts at its last
    snapshot. Returns the index of the snapshot to show."""
    if st.session_state.get(SNAP_JOB_KEY) != id(job) or st.session_state.get(SNAP_KEY) not in range(len(steps)):
        st.session_state[SNAP_JOB_KEY], st.session_state[SNAP_KEY] = id(job), len(steps) - 1
    labels = StepLabels(
        _("◀ Earlier"), _("Later ▶"),
        _("The previous snapshot (Page Up or ← in the presenter view)"),
        _("The next snapshot (Page Down or → in the presenter view)"),
    )  # fmt: skip

    def where_we_are() -> None:
        i = st.session_state[SNAP_KEY]
        st.caption(_("Snapshot {i} of {n} · step {step}").format(i=i + 1, n=len(steps), step=steps[i]))

    step_buttons(SNAP_KEY, range(len(steps)), labels, button_key="snap", middle=where_we_are, clicker_always=False)
    return int(st.session_state[SNAP_KEY])


def snapshot_panel(job: JobHandle) -> None:
    """Timeline (slider + Play, played in the browser) and before/after for the chosen head, once there are two
    snapshots; for a model without attention, a sentence saying so."""
    snaps = job.snapshot_list()
    if not has_attention(job.model_config):
        st.subheader(_("Watch the attention form"))
        st.info(_(NO_ATTENTION))
        return
    if len(snaps) < 2:
        return
    st.subheader(_("Watch the attention form"))

    @st.fragment
    def panel() -> None:
        name, head = _choose(job, snaps[-1].weights)
        keys, queries = _tokens(job, name)
        y_title, x_title = _axes(name)
        every, n = snaps[1].step - snaps[0].step, len(snaps)
        st.caption(
            _(
                "Probe text `{source}`, recorded every {every} steps or so: {n} snapshots. Press ▶ Play, or drag the "
                "slider."
            ).format(source=md_code(job.probe[0]), every=every, n=n)
            if job.gpt_run is not None
            else _(
                "Probe input `{source}` → `{target}` (teacher-forced), recorded every {every} steps or so: "
                "{n} snapshots. Press ▶ Play, or drag the slider."
            ).format(source=job.probe[0], target=job.probe[1], every=every, n=n)
        )
        shown = snapshot_stepper(job, [s.step for s in snaps])
        left, right = st.columns([3, 2])
        fig = attention_timeline_figure(
            [s.weights[name][head] for s in snaps], [s.step for s in snaps], keys, queries,
            title=_which(name, head, len(snaps[-1].weights[name])),
            x_title=x_title, y_title=y_title, weight_name=_("weight"),
            step_label=_("step {n}"), play_label=_("▶ Play"), pause_label=_("❚❚ Pause"), active=shown,
        )  # fmt: skip
        with left, chart_share(3 / 5):
            show_chart(
                fig,
                "train_timeline",
                name=chart_name("train", name, "timeline", head=head, model=job.name),
                theme="streamlit",
            )
        right.markdown(
            _(GPT_HOW_TO_READ)
            if job.gpt_run is not None
            else _(
                "**How to read it.** Each row is an output position asking *where should I look?*; each column is "
                "an input token. Dark = most of the attention. At the start every row is a blur; as the loss falls "
                "one bright cell per row appears: for *reverse* the anti-diagonal (the first output looks at the last "
                "input), for *translate* lines that cross where an adjective moves behind its noun."
            )
        )
        fig = before_after_figure(
            snaps[0].weights[name][head], snaps[-1].weights[name][head], keys, queries,
            before_title=_("Before (step {n})").format(n=snaps[0].step),
            after_title=_("After (step {n})").format(n=snaps[-1].step),
            x_title=x_title, y_title=y_title, weight_name=_("weight"), height=520,
        )  # fmt: skip
        show_chart(
            fig,
            "train_before_after",
            name=chart_name("train", name, "before-after", head=head, model=job.name),
            theme="streamlit",
        )

    panel()
