"""Train page, GPT family: the task (English text, Chinese poems, induction) and its settings form, read into configs.

Each task keeps its own defaults (the widgets' keys carry the task), measured so that a run from Start shows what
it should within a class's minute: English text under 2.2 nats per character within 90 s, the induction head formed
within 60 s (bench/train_pool.py prints both). Steps and the batch size take any number: a wrong one gets a message.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from model.errors import InputError, LabError
from model.gpt import GPT_TASKS, GPTConfig, GPTTask
from model.gpt.induction import InductionSettings
from model.gpt.induction_train import InductionRun
from model.gpt.train import GPTTrainConfig
from services.training import get_pool
from services.training.gpt_job import GPT_TASK_NAMES, INDUCTION, GPTRun, check_run_size, corpus_missing

from ..choices import translated_options
from ..i18n import N_, _, explain
from .settings import LEARNING_RATES

TASK_LABELS = {name: GPT_TASKS[name].title for name in GPT_TASK_NAMES}  # id → English msgid
GPT_RULES = {"formed": N_("when the head has formed"), "after steps": N_("after the steps or minutes")}
MAX_MINUTES = 30.0  # the pool's time limit for one job is 30 minutes
INDUCTION_MINUTES = 3.0


@dataclass(frozen=True)
class Defaults:
    """A task's starting settings (the widgets of that task start here)."""

    n_layers: int
    d_model: int
    n_heads: int
    context: int
    mlp: bool
    lr: float
    steps: int
    batch: int
    minutes: float
    warmup: int = 100
    tied: bool = True  # the LM head is the token embedding (GPT-2's layout)
    weight_decay: float = 0.1


def induction_defaults(run: InductionRun | None = None) -> Defaults:
    """The induction run's own settings (model/gpt/induction_train.py, as `python -m model.train --task induction`:
    an LM head of its own, no weight decay, no warmup), with a budget of INDUCTION_MINUTES (the cosine schedule spans
    it, so the rate stays near its peak until the head forms; the run stops soon after)."""
    run = run or InductionRun()
    m, t = run.model_config, run.train
    return Defaults(n_layers=m.n_layers, d_model=m.d_model, n_heads=m.n_heads, context=m.max_len, mlp=m.mlp, lr=t.lr,
                    steps=t.steps, batch=t.batch_size, minutes=INDUCTION_MINUTES, warmup=t.warmup, tied=m.tied,
                    weight_decay=t.weight_decay)  # fmt: skip


DEFAULTS = {
    "shakespeare": Defaults(n_layers=2, d_model=64, n_heads=4, context=64, mlp=True, lr=3e-3, steps=3000, batch=32,
                            minutes=1.5),
    "tang-poems": Defaults(n_layers=2, d_model=64, n_heads=4, context=64, mlp=True, lr=3e-3, steps=3000, batch=32,
                           minutes=1.5),
    INDUCTION: induction_defaults(),
}  # fmt: skip
SAMPLE_CHARS = {"shakespeare": 160, "tang-poems": 42}  # a few lines; a whole poem after the example's first line


def gpt_task_choice() -> str:
    """Which GPT task, outside the form so the form starts from that task's defaults."""
    return st.selectbox(_("Task"), list(GPT_TASK_NAMES), key="train_gpt_task",
                        format_func=translated_options("train_gpt_task", TASK_LABELS))  # fmt: skip


def _key(name: str, task: str) -> str:
    return f"train_gpt_{name}_{task}"


def gpt_settings_form(task: str) -> tuple[GPTTask, GPTConfig, GPTTrainConfig, GPTRun] | None:
    """The settings of a GPT on `task`; (task, model config, train config, run) when Start was pressed with valid
    values, else None (a message says what is wrong)."""
    d = DEFAULTS[task]
    st.caption(_(GPT_TASKS[task].description))
    with st.form(f"train_gpt_settings_{task}", border=True):
        c1, c2, c3, c4 = st.columns(4)
        layers = c1.number_input(_("Layers"), 1, 8, d.n_layers, key=_key("layers", task))
        mlp = c1.checkbox(_("MLP in each block"), d.mlp, key=_key("mlp", task),
                          help=_("Off: attention-only blocks, as in the papers on induction heads."))  # fmt: skip
        tied = c3.checkbox(_("Output tied to the embedding"), d.tied, key=_key("tied", task),
                           help=_("GPT-2 reads its logits through the token embedding. Off: an output layer of its "
                                  "own; the small induction model needs it to learn to copy."))  # fmt: skip
        d_model = c2.number_input("d_model", 8, 256, d.d_model, step=8, key=_key("d", task))
        heads = c2.number_input(_("Heads"), 1, 16, d.n_heads, key=_key("heads", task),
                                help=_("d_model must divide evenly by heads."))  # fmt: skip
        context = c3.number_input(_("Context (tokens)"), 8, 256, d.context, step=8, key=_key("context", task),
                                  help=_("How many tokens the model reads at once."))  # fmt: skip
        lr = c4.select_slider(_("Learning rate"), LEARNING_RATES, value=d.lr, key=_key("lr", task),
                              format_func="{:g}".format)  # fmt: skip
        s1, s2, s3, s4 = st.columns(4)
        steps = s1.number_input(_("Steps (most)"), value=d.steps, step=100, key=_key("steps", task))
        batch = s2.number_input(_("Batch size"), value=d.batch, step=8, key=_key("batch", task))
        minutes = s3.number_input(
            _("Minutes (most)"), 0.1, MAX_MINUTES, d.minutes, step=0.5, key=_key("minutes", task),
            help=_("Training ends at the steps or at these minutes, whichever comes first."),
        )  # fmt: skip
        seed = s4.number_input(_("Seed"), 0, 2**31 - 1, 0, key=_key("seed", task),
                               help=_("The same seed and settings train the same model."))  # fmt: skip
        rule = "after steps"
        if task == INDUCTION:
            rule = s4.radio(_("Stop"), list(GPT_RULES), key=_key("rule", task),
                            format_func=translated_options(_key("rule", task), GPT_RULES))  # fmt: skip
        submitted = st.form_submit_button(_("▶ Start training"), type="primary", key="train_start")
    if not submitted:
        return None
    problem = corpus_missing(task)
    if problem is not None:
        st.error(explain(problem))
        return None
    try:
        steps_n, batch_n = check_run_size(steps, batch, get_pool().settings.max_steps)
    except InputError as exc:
        st.error(explain(exc))
        return None
    chosen = Defaults(int(layers), int(d_model), int(heads), int(context), bool(mlp), float(lr), steps_n, batch_n,
                      float(minutes), d.warmup, bool(tied), d.weight_decay)  # fmt: skip
    try:
        return configs_of(task, chosen, int(seed), until_formed=rule == "formed")
    except LabError as exc:
        st.error(_("These settings cannot build a model: {reason}").format(reason=explain(exc)))
        return None


def configs_of(
    task: str, chosen: Defaults, seed: int = 0, *, until_formed: bool = True
) -> tuple[GPTTask, GPTConfig, GPTTrainConfig, GPTRun]:
    """What a Start with these settings submits to the pool (the benchmarks submit the defaults the same way);
    LabError when they cannot build a model."""
    if task == INDUCTION:  # the segment and its copy must fit the context
        InductionSettings(context=chosen.context)
    model_config = GPTConfig(
        vocab_size=1, d_model=chosen.d_model, n_heads=chosen.n_heads, n_layers=chosen.n_layers,
        d_ff=4 * chosen.d_model, max_len=chosen.context, mlp=chosen.mlp, tied=chosen.tied,
    )  # fmt: skip  # vocab_size: the worker sets it from the task's vocabulary
    train_config = GPTTrainConfig(
        steps=chosen.steps, batch_size=chosen.batch, lr=chosen.lr, warmup=min(chosen.warmup, chosen.steps // 10),
        minutes=chosen.minutes, eval_every=100, seed=seed, weight_decay=chosen.weight_decay,
    )  # fmt: skip
    run = GPTRun(task, sample_chars=SAMPLE_CHARS.get(task, 0), until_formed=until_formed and task == INDUCTION)
    return GPT_TASKS[task], model_config, train_config, run
