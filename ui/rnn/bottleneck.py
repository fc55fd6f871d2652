"""Part 3: exact match against input length for the shipped models of one task, with and without attention
(model.analysis.rnn.accuracy_by_length). It takes seconds, so each curve is measured once per server and kept."""

from __future__ import annotations

import streamlit as st

from model import get_task
from model.analysis.rnn import accuracy_by_length
from model.io.pretrained import PRETRAINED_ARCH
from views.rnn import BOTTLENECK_TASK, PER_LENGTH
from viz.curves import Series, line_figure

from ..charts import show_chart
from ..i18n import N_, _
from .pairs import shipped_toy
from .parts import keep_in

TASK_KEY, PER_LENGTH_KEY = "bottleneck_task", "bottleneck_n"
LENGTHS = tuple(range(1, 25))  # tasks that cannot make a length skip it (translate: 5 to 9 words)
FAMILIES = {  # shipped name suffix → how the curve is named and drawn
    "": (N_("Transformer"), "#1f77b4", "solid", "circle"),
    "-rnn": (N_("RNN + attention"), "#ff7f0e", "solid", "diamond"),
    "-rnn-noattn": (N_("RNN, no attention"), "#7f7f7f", "dash", "x"),
}


def bottleneck_tasks() -> list[str]:
    """Tasks with a shipped RNN (the comparison needs one)."""
    return [name.removesuffix("-rnn") for name in PRETRAINED_ARCH if name.endswith("-rnn")]


@st.cache_data(show_spinner=False, max_entries=64)
def measured(name: str, per_length: int) -> dict[int, float]:
    """accuracy_by_length of a shipped model, once per server for each (model, inputs per length)."""
    return accuracy_by_length(shipped_toy(name), list(LENGTHS), per_length=per_length)


def bottleneck_section() -> None:
    tasks = bottleneck_tasks()
    keep_in(TASK_KEY, tasks, BOTTLENECK_TASK)
    task_col, n_col = st.columns([2, 1])
    task = task_col.radio(_("Task"), tasks, horizontal=True, key=TASK_KEY)
    per_length = n_col.select_slider(
        _("Inputs per length"), PER_LENGTH, key=PER_LENGTH_KEY,
        help=_("More inputs give smoother curves; each new setting is measured once and then kept for everyone."),
    )  # fmt: skip
    bottleneck_view(task, int(per_length))


def bottleneck_view(task: str, per_length: int, explain: bool = True) -> None:
    """What the part shows (unless not `explain`), the exact-match curves of `task`'s shipped models measured on
    `per_length` inputs of each length, and the score at the longest trained length. The page draws it under its
    pickers; a lesson slide draws it for the slide's task, its own words saying what it shows."""
    if explain:
        say_what_it_shows(task)
    names = [(task + suffix, suffix) for suffix in FAMILIES if task + suffix in PRETRAINED_ARCH]
    models = {name: shipped_toy(name) for name, _suffix in names}  # loaded first (with their own spinner)
    with st.spinner(_("Measuring exact match at every length (once, then kept for everyone; about a minute)…")):
        curves = {name: measured(name, int(per_length)) for name, _suffix in names}
    series = []
    for name, suffix in names:
        label, color, dash, symbol = FAMILIES[suffix]
        points = curves[name]
        series.append(Series(f"{name} · {_(label)}", list(points), list(points.values()), color, dash, symbol))
    task_of = models[names[0][0]].task
    band = (task_of.min_src_words, task_of.max_src_words)
    fig = line_figure(
        series, title=_("Exact match by input length: {task}, {n} inputs per length").format(task=task, n=per_length),
        x_title=_("input length (tokens)"), y_title=_("exact match"), percent=True, band=band,
        band_label=_("lengths seen in training"), role="bottleneck",
    )  # fmt: skip
    show_chart(fig, "bottleneck")
    longest = max(n for n in curves[names[0][0]] if n <= band[1])
    parts = [
        _("{label}: {accuracy}").format(label=_(FAMILIES[suffix][0]), accuracy=f"{curves[name][longest]:.1%}")
        for name, suffix in names
    ]
    st.markdown(
        _("At {n} tokens, the longest input in training: {results}.").format(n=longest, results=" · ".join(parts))
    )
    trained = [
        _("{name}: {steps} steps, {accuracy} held-out exact match").format(
            name=name, steps=model.meta.get("steps", "?"), accuracy=_percent(model.meta.get("held_out_accuracy"))
        )
        for name, model in models.items()
    ]
    st.caption(_("How these models were trained: {models}.").format(models=" · ".join(trained)))


def _percent(share) -> str:
    return f"{share:.1%}" if isinstance(share, int | float) else "?"


def say_what_it_shows(task: str) -> None:
    """What the curves are, and why the part opens on reverse (said again, as a notice, when translate is shown)."""
    st.markdown(
        _(
            "Without attention, the encoder must squeeze the whole input into its final state, one vector of "
            "d_hidden numbers, and the decoder sees nothing else: the longer the input, the more of it is lost. "
            "With attention, the decoder reads every encoder state again at every step. The curves are the shipped "
            "models' exact match on fresh inputs of each length; the shaded lengths are the ones seen in training."
        )
    )
    reverse, translate = get_task(BOTTLENECK_TASK), get_task("translate")
    why = _(
        "It opens on *reverse*: its inputs run up to {longest} digits, and the decoder must give back every one in "
        "the opposite order, so without attention the final state alone has to hold them all, and that is where "
        "the curves part. The sentences of *translate* have only {low} to {high} words, few enough for one vector: "
        "there all three curves stay near the top."
    ).format(longest=reverse.max_src_words, low=translate.min_src_words, high=translate.max_src_words)
    (st.info if task != BOTTLENECK_TASK else st.markdown)(why)
