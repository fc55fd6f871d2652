"""Train page: the model family, then the settings form (only the options of that family), read into configs."""

from __future__ import annotations

import streamlit as st

from model import TASKS, get_task
from model.train import TrainConfig, default_model_config

from ..choices import translated_options
from ..i18n import N_, _, explain
from ..models import CELL_NAMES, NORM_NAMES, POSITIONAL_NAMES, SCORE_NAMES

ARCHITECTURES = {"transformer": N_("Transformer"), "rnn": N_("RNN + attention"), "gpt": N_("GPT (decoder-only)")}
DEFAULT_STEPS = 2000  # the most steps by default; the cosine schedule spans them (as `python -m model.train`)
LEARNING_RATES = (3e-4, 5e-4, 1e-3, 2e-3, 3e-3, 5e-3, 1e-2)
FFN_FACTOR = 2  # a trained Transformer's feed-forward width ÷ d_model (the help says it)
TASK_LABELS = {name: task.title for name, task in TASKS.items()}  # id → English msgid
RULES = {"until accuracy": N_("at the accuracy goal"), "after steps": N_("after a number of steps")}


def architecture_choice() -> str:
    """Transformer, RNN + attention or GPT, outside the form so the form shows only the options that apply."""
    return st.radio(_("Model family"), list(ARCHITECTURES), horizontal=True, key="train_arch",
                    format_func=translated_options("train_arch", ARCHITECTURES))  # fmt: skip


def _transformer_options(c1, c2, c3, c4) -> tuple[dict, dict]:
    """The Transformer's widgets → (model config fields, train config fields)."""
    positional = c1.selectbox(_("Positional encoding"), list(POSITIONAL_NAMES), key="train_pos",
                              format_func=translated_options("train_pos", POSITIONAL_NAMES))  # fmt: skip
    enc = c2.number_input(_("Encoder layers"), 1, 6, 1, key="train_enc")
    dec = c2.number_input(_("Decoder layers"), 1, 6, 1, key="train_dec")
    d_model = c3.number_input(
        "d_model", 8, 256, 64, step=8, key="train_d", help=_("The FFN is {n} × d_model wide.").format(n=FFN_FACTOR)
    )
    heads = c3.number_input(_("Heads"), 1, 16, 4, key="train_heads", help=_("d_model must divide evenly by heads."))
    norm = c4.selectbox("LayerNorm", list(NORM_NAMES), key="train_norm",
                        format_func=translated_options("train_norm", NORM_NAMES))  # fmt: skip
    model = {
        "d_model": int(d_model), "n_heads": int(heads), "d_ff": FFN_FACTOR * int(d_model), "n_encoder_layers": int(enc),
        "n_decoder_layers": int(dec), "positional": positional, "norm": norm,
    }  # fmt: skip
    return model, {}


# The RNN's options, explained where they are chosen.
SCORE_HELP = N_("none: the classic encoder–decoder, whose decoder sees only the final encoder state.")
BIDIRECTIONAL_HELP = N_("Read the input both ways; each encoder state is then twice as wide.")
HIDDEN_HELP = N_("Width of the recurrent state (of each direction when bidirectional).")
FORCING_HELP = N_(
    "How often the decoder is fed the true previous token while it trains (1 = always); otherwise it is fed its "
    "own guess."
)


def _rnn_options(c1, c2, c3, c4) -> tuple[dict, dict]:
    """The RNN's widgets → (model config fields, train config fields)."""
    cell = c1.selectbox(_("Cell"), list(CELL_NAMES), key="train_cell",
                        format_func=translated_options("train_cell", CELL_NAMES))  # fmt: skip
    score = c2.selectbox(_("Attention score"), list(SCORE_NAMES), key="train_score", help=_(SCORE_HELP),
                         format_func=translated_options("train_score", SCORE_NAMES))  # fmt: skip
    bidirectional = c2.checkbox(_("Bidirectional encoder"), key="train_bidir", help=_(BIDIRECTIONAL_HELP))
    hidden = c3.number_input(_("Hidden size"), 8, 256, 64, step=8, key="train_hidden", help=_(HIDDEN_HELP))
    forcing = c3.slider(_("Teacher forcing ratio"), 0.0, 1.0, 1.0, step=0.05, key="train_forcing",
                        help=_(FORCING_HELP))  # fmt: skip
    model = {"cell": cell, "score": score, "bidirectional": bool(bidirectional), "d_hidden": int(hidden)}
    return model, {"teacher_forcing": float(forcing)}


FAMILY_OPTIONS = {"transformer": _transformer_options, "rnn": _rnn_options}


def settings_form(arch: str) -> tuple | None:
    """The settings of a model of family `arch`; (task, model_config, train_config) when Start was pressed with
    valid values, else None (a message says what is wrong)."""
    with st.form("train_settings", border=True):
        c1, c2, c3, c4 = st.columns(4)
        task_name = c1.selectbox(_("Task"), list(TASKS), index=list(TASKS).index("reverse"), key="train_task",
                                 format_func=translated_options("train_task", TASK_LABELS))  # fmt: skip
        model_fields, train_fields = FAMILY_OPTIONS[arch](c1, c2, c3, c4)
        lr = c4.select_slider(_("Learning rate"), LEARNING_RATES, value=2e-3, key="train_lr", format_func="{:g}".format)
        s1, s2, s3 = st.columns([2, 1, 1])
        rule = s1.radio(_("Stop"), list(RULES), horizontal=True, key="train_rule",
                        format_func=translated_options("train_rule", RULES))  # fmt: skip
        goal = s2.number_input(
            _("Accuracy goal (%)"), 10.0, 100.0, 99.0, step=1.0, key="train_goal",
            help=_("Held-out accuracy: the share of {n} examples the model never trains on that it gets exactly right, "
                   "checked as it trains.").format(n=TrainConfig().eval_size),
        )  # fmt: skip
        steps = s3.number_input(_("Steps (most)"), 10, 20000, DEFAULT_STEPS, step=100, key="train_steps")
        submitted = st.form_submit_button(_("▶ Start training"), type="primary", key="train_start")
    if not submitted:
        return None
    task = get_task(task_name)
    try:
        model_config = default_model_config(task, arch, **model_fields)
        until = goal / 100 if rule == "until accuracy" else None
        train_config = TrainConfig(steps=int(steps), until=until, lr=float(lr), **train_fields)
    except ValueError as exc:
        st.error(_("These settings cannot build a model: {reason}").format(reason=explain(exc)))
        return None
    return task, model_config, train_config
