"""Part 4: what textbooks claim about RNNs and Transformers, as bench/rnn_vs_transformer.py measured it on this
machine (bench/results/rnn_vs_transformer.json): time per training step and inference time by length, exact match
by length past the training lengths, steps to 99 %; the command that re-creates them; where the Transformer lost."""

from __future__ import annotations

import streamlit as st

from model.errors import LabError
from services.bench_results import RnnBench, compare, load_rnn_bench
from viz.curves import Series, bars_figure, line_figure
from viz.legend import HALF_ROW_EM

from ..charts import show_chart
from ..i18n import N_, _, explain, pgettext
from ..widths import chart_share
from .bottleneck import FAMILIES as STYLES

FAMILY_SUFFIX = {"transformer": "", "rnn": "-rnn", "rnn-noattn": "-rnn-noattn"}  # the JSON's names → curve styles


def _style(family: str) -> tuple[str, str, str, str]:
    label, color, dash, symbol = STYLES[FAMILY_SUFFIX[family]]
    return _(label), color, dash, symbol


def _series(family: str, x, y, dash: str | None = None, name: str | None = None) -> Series:
    label, color, own_dash, symbol = _style(family)
    return Series(name or label, x, y, color, dash or own_dash, symbol)


@st.cache_data(show_spinner=False)
def _load() -> RnnBench:
    return load_rnn_bench()


def claims_section() -> None:
    try:
        bench = _load()
    except LabError as exc:
        st.error(explain(exc))
        st.code("nice -n 10 python bench/rnn_vs_transformer.py", language="bash")
        return
    setup(bench)
    speed(bench)
    generalisation(bench)
    steps(bench)
    losses(bench)


def setup(bench: RnnBench) -> None:
    m = bench.machine
    sizes = {family: f"{n:,}" for family, n in bench.parameters.items()}
    st.markdown(
        _(
            "Textbooks say that an RNN struggles with long-range dependencies and cannot be parallelised over time, "
            "and that the Transformer fixes both. Here is what we measured, at equal size: "
            "the Transformer with {tf} parameters, a GRU with additive attention (d_hidden {d}) with {rnn}, and the "
            "same GRU without attention with {noattn}."
        ).format(tf=sizes["transformer"], rnn=sizes["rnn"], noattn=sizes["rnn-noattn"], d=bench.d_hidden)
    )
    facts = {k: m.get(k, "?") for k in ("cpu", "cores", "torch_threads", "torch")}
    st.caption(
        _("Measured {date} on {cpu}, {cores} cores, {torch_threads} torch thread(s), torch {torch}.").format(
            date=bench.date[:10], **facts
        )
    )
    with st.expander(_("Measure it again on your own computer")):
        st.code(bench.command, language="bash")


def speed(bench: RnnBench) -> None:
    left, right = st.columns(2)
    with left, chart_share(0.5):
        series = [_series(f, bench.lengths, bench.train_ms[f]) for f in ("transformer", "rnn")]
        fig = line_figure(
            series, title=_("One training step, batch {b}").format(b=bench.batch_train),
            x_title=_("sequence length L (tokens)"), y_title=_("milliseconds"), log_x=True, log_y=True,
            role="bench-train", legend_row_em=HALF_ROW_EM,
        )  # fmt: skip
        show_chart(fig, "bench_train")
    with right, chart_share(0.5):
        series = []
        for family in ("transformer", "rnn"):
            label = _style(family)[0]
            forward = _("{family}: one forward pass").format(family=label)
            generate = _("{family}: generate L tokens").format(family=label)
            series.append(_series(family, bench.lengths, bench.forward_ms[family], "solid", forward))
            series.append(_series(family, bench.lengths, bench.generate_ms[family], "dot", generate))
        fig = line_figure(
            series, title=_("Inference, batch 1"), x_title=_("sequence length L (tokens)"), y_title=_("milliseconds"),
            log_x=True, log_y=True, role="bench-inference", legend_row_em=HALF_ROW_EM,
        )  # fmt: skip
        show_chart(fig, "bench_inference")
    st.caption(
        _(
            "Medians of interleaved runs on random weights and tokens, on a shared machine: read the ratios, not the "
            "single numbers. Training and the teacher-forced forward pass see all L positions at once; generating "
            "takes L steps in turn in both families (the Transformer here re-reads its prefix at every step, with no "
            "key/value cache)."
        )
    )


def generalisation(bench: RnnBench) -> None:
    series = [_series(f, bench.test_lengths, bench.accuracy[f]) for f in ("transformer", "rnn", "rnn-noattn")]
    low, high = bench.trained_lengths
    fig = line_figure(
        series,
        title=_("Exact match by input length on {task}, trained on {low}–{high} tokens").format(
            task=bench.by_length_task, low=low, high=high
        ),
        x_title=_("input length (tokens)"), y_title=_("exact match"), percent=True, band=(low, high),
        band_label=_("lengths seen in training"), role="bench-length",
    )  # fmt: skip
    show_chart(fig, "bench_length")


def steps(bench: RnnBench) -> None:
    tasks = list(bench.steps)
    series = []
    for family in ("transformer", "rnn", "rnn-noattn"):
        label, color, _dash, _symbol = _style(family)
        values, texts = [], []
        for task in tasks:
            result = bench.steps[task][family]
            values.append(result.median)
            texts.append(f"{result.median:g}" if all(result.reached) else f"> {bench.max_steps:g}")
        series.append((label, values, texts, color))
    fig = bars_figure(
        tasks, series,
        title=_("Training steps to 99 % held-out exact match (median of {n} runs)").format(n=len(bench.seeds)),
        y_title=_("steps"), role="bench-steps",
    )  # fmt: skip
    show_chart(fig, "bench_steps")


# Each said only when the numbers show it.
GENERATES_FASTER = N_(
    "**Generating** L tokens one at a time, the RNN was faster at L = {lengths}: it takes one cell step per "
    "token, while this Transformer re-reads everything it has written so far."
)
FEWER_STEPS = N_("**Training to 99 %**, RNN + attention needed fewer steps on {tasks}.")
LONGER_INPUTS = N_(
    "**Past the training lengths**, RNN + attention kept more inputs right at {lengths} tokens; neither family "
    "generalises far."
)


def losses(bench: RnnBench) -> None:
    """Where the measured numbers favour the RNN, said plainly (the textbooks do not say it), then where they do
    not."""
    found = compare(bench)
    comma = pgettext("list separator", ", ")
    lines = []
    if found.rnn_generates_faster:
        lines.append(_(GENERATES_FASTER).format(lengths=comma.join(map(str, found.rnn_generates_faster))))
    if found.rnn_fewer_steps:
        detail = [
            _("{task} ({rnn} vs {tf} steps)").format(
                task=task, rnn=f"{bench.steps[task]['rnn'].median:g}", tf=f"{bench.steps[task]['transformer'].median:g}"
            )
            for task in found.rnn_fewer_steps
        ]
        lines.append(_(FEWER_STEPS).format(tasks=comma.join(detail)))
    if found.rnn_longer_inputs:
        lines.append(_(LONGER_INPUTS).format(lengths=comma.join(map(str, found.rnn_longer_inputs))))
    st.subheader(_("Where the Transformer does not win"), anchor=False)
    st.markdown("\n".join(f"- {line}" for line in lines) if lines else _("In this run the Transformer won everywhere."))
    if min(found.train_ratio) > 1:
        first, last = found.train_ratio[0], found.train_ratio[-1]
        st.markdown(
            _(
                "Where it wins, it wins by a lot: a training step took the RNN {first}× the Transformer's time at "
                "L = {short} and {last}× at L = {long}. The RNN's steps must run one after another; the Transformer "
                "handles every position at once."
            ).format(first=f"{first:.1f}", last=f"{last:.1f}", short=bench.lengths[0], long=bench.lengths[-1])
        )
