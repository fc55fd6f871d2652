"""Train page glue: Start/Stop, the progress fragment (place in line, then the bar), the live fragment (curves and
the attention forming), the trained model.

Training runs in the server's worker pool (services.training), never in this process. The job's handle lives in
st.session_state, so it belongs to this browser session only; the session's own id owns it (one job a session).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Collection
from dataclasses import replace

import streamlit as st

from model import PRETRAINED, LoadedModel, Task
from model.architectures import AnyConfig
from model.gpt import GPTConfig, GPTTask, LoadedGPT
from model.gpt.train import GPTTrainConfig
from model.io.archive import pack_archive
from model.train import TrainConfig
from services.training import JobHandle, TrainingError, get_pool
from services.training.gpt_job import GPTRun
from viz.training import accuracy_figure, loss_figure

from ..charts import chart_name, show_chart
from ..i18n import N_, _, current_language, explain
from ..models import SHIPPED_NAME, add_user_model, user_models
from ..navigation import ATTENTION, NEXT_TOKEN, RNN_VS_TRANSFORMER, TRAIN
from ..streamlit_private import session_alive_check
from ..widths import chart_share
from .attention import live_attention
from .gpt_live import gpt_live
from .gpt_text import gpt_ended_text, gpt_outcome, gpt_progress_text
from .queue import about, waiting_panel

JOB_KEY = "train_job"
OWNER_KEY = "train_owner"  # this browser session's id as the pool's job owner
NOTICE_KEY = "train_notice"  # (kind, message) shown once after a callback
KEPT_KEY = "train_kept"  # id of the last job whose model was put in (or refused by) the session's list
# Progress redraw interval: the issue asks for at least once a second. It draws only the place in line or the progress
# bar; the curves and the forming attention, whose plotly figures cost most of a redraw, follow every LIVE_SECONDS.
REFRESH_SECONDS = 1.0
LIVE_SECONDS = 3.0
MAX_NAME_CHARS = 40  # a model name's length at most (the pattern and its message read it)
NAME_PATTERN = re.compile(rf"^[A-Za-z0-9][A-Za-z0-9 _.\-]{{0,{MAX_NAME_CHARS - 1}}}$")


def current_job() -> JobHandle | None:
    return st.session_state.get(JOB_KEY)


def session_owner() -> str:
    """A stable id of this browser session, the owner of its training jobs in the pool."""
    return st.session_state.setdefault(OWNER_KEY, uuid.uuid4().hex)


def stop_training_if_left(page_url_path: str) -> None:
    """Called on every full run of the app: a run of another page means the user left the Train page,
    which stops this session's training (its model is kept, as with Stop)."""
    job = current_job()
    if job is not None and job.running and page_url_path != TRAIN.url_path:
        job.stop(N_("the page was left"))


def name_problem(name: str, taken: Collection[str] = ()) -> str | None:
    """Why a model name cannot be used, in the reader's language; None when it can."""
    name = name.strip()
    if not name:
        return _("Type a name for the model.")
    if name in PRETRAINED:
        return _(SHIPPED_NAME).format(name=name)
    if not NAME_PATTERN.match(name):
        return _("Use 1 to {limit} letters, digits, spaces, '-', '_' or '.', starting with a letter or digit.").format(
            limit=MAX_NAME_CHARS
        )
    if name in taken:
        return _("You already have a model named '{name}'.").format(name=name)
    return None


def unique_name(base: str) -> str:
    """base, or base-2, base-3 … : a name not shipped and not yet used in this session."""
    taken = set(user_models()) | set(PRETRAINED)
    name, k = base, 2
    while name in taken:
        name, k = f"{base}-{k}", k + 1
    return name


def start_job(
    task: Task | GPTTask,
    model_config: AnyConfig | GPTConfig,
    train_config: TrainConfig | GPTTrainConfig,
    gpt: GPTRun | None = None,
) -> JobHandle | None:
    """Queue a run in the worker pool for this session, or say which limit was reached (nothing starts then). A GPT
    run (`gpt` given) trains on a GPTTask with a GPTTrainConfig."""
    old = current_job()
    if old is not None and old.stop_requested_at is not None:
        old.join(5.0)  # stopped but still handing its model back: wait for it rather than lose it
    if old is not None and old.finished:
        keep_model(old)  # it finished since the progress fragment last looked: its model is not lost
    arch = "-rnn" if model_config.arch == "rnn" else ""
    try:
        job = get_pool().submit(
            session_owner(), task, model_config, train_config, name=unique_name(f"my-{task.name}{arch}"),
            alive=session_alive_check(), gpt=gpt,
        )  # fmt: skip
    except TrainingError as exc:  # one job a session, a full line, too many steps, a server shutting down
        st.error(explain(exc))
        return None
    st.session_state[JOB_KEY] = job
    return job


def stop_button(job: JobHandle | None) -> None:
    running = job is not None and job.running
    if st.button(_("■ Stop"), disabled=not running, key="train_stop") and running and job is not None:
        job.stop(N_("stopped by you"))
        job.join(2.0)


def progress_text(view) -> str:
    """The progress line (step, time, time left, accuracy) in the reader's language; once the run has ended, how it
    ended (done, with the accuracy goal reached before the last step; stopped) instead of the step count."""
    if view.gpt is not None:
        return gpt_ended_text(view) if view.finished else gpt_progress_text(view)
    if view.finished:
        return ended_text(view)
    parts = [
        _("Step {step} of at most {total} · {seconds} s").format(
            step=f"{view.step:,}", total=f"{view.total_steps:,}", seconds=f"{view.seconds:.1f}"
        )
    ]
    if 0 < view.step < view.total_steps and not view.finished:
        left = view.seconds / view.step * (view.total_steps - view.step)
        parts.append(_("at most {time} left").format(time=about(left)))
    if view.accuracies:
        parts.append(_("held-out accuracy {accuracy}").format(accuracy=f"{view.accuracies[-1][1]:.1%}"))
    return " · ".join(parts)


def ended_text(view) -> str:
    """The line under the completed bar: how the run ended, after how many steps and seconds, at what accuracy."""
    words = {"step": f"{view.step:,}", "total": f"{view.total_steps:,}", "seconds": f"{view.seconds:.1f}",
             "accuracy": f"{view.accuracies[-1][1]:.1%}" if view.accuracies else "–"}  # fmt: skip
    if view.status == "stopped":
        return _("Stopped at step {step} of at most {total} · {seconds} s · held-out accuracy {accuracy}").format(
            **words
        )
    if view.step < view.total_steps:
        return _("Done: the accuracy goal was reached at step {step} (of at most {total}) · {seconds} s · held-out "
                 "accuracy {accuracy}").format(**words)  # fmt: skip
    return _("Done: all {total} steps · {seconds} s · held-out accuracy {accuracy}").format(**words)


def progress_share(view) -> float:
    """How full the bar is: the share of the most steps while it trains; full once it is done, whether it used every
    step or reached the accuracy goal sooner (a bar left at 65 % beside a greyed Stop looks stuck)."""
    if view.finished and view.status != "stopped":
        return 1.0
    return min(1.0, view.step / max(1, view.total_steps))


def progress_panel(job: JobHandle) -> None:
    """The place in line while the job waits, then the progress bar, redrawn every REFRESH_SECONDS until the job
    ends; then the whole page is drawn again once, with the result.

    Each redraw is also the page's heartbeat, the pool's backstop for a page that stopped updating;
    leaving the page stops the job at once (stop_training_if_left).
    """
    watching = job.running

    @st.fragment(run_every=REFRESH_SECONDS if watching else None)
    def panel() -> None:
        job.heartbeat()
        view = job.view()
        if view.status == "queued":
            waiting_panel(view)
            return
        if view.finished and (keep_model(job) or watching):
            st.rerun(scope="app")  # the result below the curves, and the sidebar's model list picks it up
        if view.losses:  # else it ended before its first step: the result panel says why
            st.progress(progress_share(view), text=progress_text(view))

    panel()


def live_panel(job: JobHandle) -> None:
    """Loss and accuracy curves and, while it trains, the attention forming: redrawn every LIVE_SECONDS while the
    job runs, drawn once when it has ended."""
    if job.running:
        st.fragment(_live, run_every=LIVE_SECONDS)(job)
    else:
        _live(job)


def _live(job: JobHandle) -> None:
    view = job.view()
    if not view.losses:  # waiting in line, or ended before its first step
        return
    if view.gpt is not None:
        gpt_live(view, name=job.name)
        if not view.finished:
            live_attention(job)
        return
    left, right = st.columns(2)
    steps, losses = zip(*view.losses, strict=True)
    fig = loss_figure(
        steps, losses, title=_("Training loss"), x_title=_("step"), y_title=_("cross-entropy (log)"),
        hover_names=(_("step"), _("loss")), total_steps=view.total_steps, max_points=200,
    )  # fmt: skip
    with left, chart_share(0.5):
        show_chart(fig, "train_loss_chart", name=chart_name("train", "loss", model=job.name), theme="streamlit")
    a_steps, accs = zip(*view.accuracies, strict=True) if view.accuracies else ((), ())
    fig = accuracy_figure(
        a_steps, accs, title=_("Held-out exact match"), x_title=_("step"), y_title=_("accuracy"),
        step_name=_("step"), goal=getattr(job.train_config, "until", None), total_steps=view.total_steps,
    )  # fmt: skip
    with right, chart_share(0.5):
        show_chart(fig, "train_acc_chart", name=chart_name("train", "accuracy", model=job.name), theme="streamlit")
    if not view.finished:
        live_attention(job)


def keep_model(job: JobHandle) -> bool:
    """Register a finished job's model, once; when the session's list is full, say so (result_panel shows it).
    True the first time it is called for the job."""
    if st.session_state.get(KEPT_KEY) == job.id:
        return False
    st.session_state[KEPT_KEY] = job.id
    if job.result is not None:
        try:
            register(job)
        except ValueError as exc:  # this session's model list is full
            st.session_state[NOTICE_KEY] = ("error", explain(exc))
    return True


def register(job: JobHandle) -> None:
    """Put the trained model in this session's model list under a fresh name."""
    result = job.result
    assert result is not None  # keep_model registers only a job that handed its model back
    name = unique_name(job.name) if job.name in user_models() else job.name
    add_user_model(name, replace(result.loaded, name=name))
    job.registered_as = name


def _rename(job: JobHandle) -> None:
    """Form callback (runs before the script, so the sidebar selection may still be changed)."""
    old, new = job.registered_as, st.session_state.get(_name_key(job), "").strip()
    assert old is not None  # result_panel draws the rename form only for a registered model
    if new == old:
        return
    problem = name_problem(new, set(user_models()))
    if problem:
        st.session_state[NOTICE_KEY] = ("error", problem)
        return
    models = user_models()
    loaded: LoadedModel = models.pop(old)
    add_user_model(new, replace(loaded, name=new))
    job.registered_as = new
    if st.session_state.get("model") == old:
        st.session_state["model"] = new
    st.session_state[NOTICE_KEY] = ("success", _("Renamed to '{name}'.").format(name=new))


def _name_key(job: JobHandle) -> str:
    """One name box per job, so a new run's box starts from the new model's name."""
    return f"train_new_name_{job.id}"


def _use_in_sidebar(name: str) -> None:
    st.session_state["model"] = name


def result_panel(job: JobHandle) -> None:
    """How the run ended: why it failed or left no model; else name (editable), Download, and a button to pick it
    in the sidebar."""
    view, notice = job.view(), st.session_state.pop(NOTICE_KEY, None)
    if view.status == "failed":
        st.error(explain(view.failure) if view.failure else _("Training failed: {error}").format(error=view.error))
    elif job.result is None:  # stopped while it waited in line, or its worker did not hand the model back
        reason = _(view.reason or N_("stopped"))
        if view.step == 0:
            st.warning(_("Stopped ({reason}) before it started: nothing was trained, so there is no model.").format(
                reason=reason))  # fmt: skip
        else:
            st.warning(_("Stopped ({reason}) after {steps} steps, but its worker did not hand the model back, so "
                         "there is no model.").format(reason=reason, steps=f"{view.step:,}"))  # fmt: skip
    name = job.registered_as
    if name is None or name not in user_models():
        if notice:
            getattr(st, notice[0])(notice[1])
        return
    loaded = user_models()[name]
    st.success(gpt_outcome(view, job.result, name) if view.gpt is not None else outcome(view, job.result, name))
    if notice:
        getattr(st, notice[0])(notice[1])
    open_it(name, loaded)
    c1, c2, c3 = st.columns([2, 1, 1], vertical_alignment="bottom")
    with c1.form("rename_model", border=False):
        st.text_input(_("Model name"), value=name, key=_name_key(job), max_chars=40)
        st.form_submit_button(_("Rename"), on_click=_rename, args=(job,), key="train_rename")
    c2.button(_("Use it in the sidebar"), on_click=_use_in_sidebar, args=(name,), key="train_use")
    c3.download_button(
        _("⬇ Download .zip"), data=pack_archive(loaded), file_name=f"{name}.zip", mime="application/zip",
        on_click="ignore", key="train_download",
    )  # fmt: skip


def open_it(name: str, loaded: LoadedModel | LoadedGPT) -> None:
    """A link to the page that shows what the new model learned, with the model chosen there: Attention for a
    Transformer, RNN vs Transformer (its alignment) for an RNN, Next token and Attention for a GPT."""
    if isinstance(loaded, LoadedGPT):
        params = {"model": name, "lang": current_language()}
        c1, c2 = st.columns(2)
        c1.page_link(NEXT_TOKEN.script, label=_("Open it on Next token"), icon=NEXT_TOKEN.icon, query_params=params)
        c2.page_link(ATTENTION.script, label=_("Open it on Attention"), icon=ATTENTION.icon, query_params=params)
        return
    rnn = getattr(loaded.config, "arch", "transformer") == "rnn"
    page, label = (
        (RNN_VS_TRANSFORMER, _("Open it on RNN vs Transformer")) if rnn else (ATTENTION, _("Open it on Attention"))
    )
    st.page_link(page.script, label=label, icon=page.icon,
                 query_params={"model": name, "lang": current_language()})  # fmt: skip


def outcome(view, result, name: str) -> str:
    """How the run ended, in the reader's language: finished or stopped (and why), steps, time, accuracy."""
    if view.status != "stopped":
        template = _(
            "Finished after {steps} steps in {seconds} s; held-out exact match {accuracy}. "
            "**{name}** is now in the sidebar's model list — for you only."
        )
    elif view.reason:
        template = _(
            "Stopped ({reason}) after {steps} steps in {seconds} s; held-out exact match {accuracy}. "
            "**{name}** is now in the sidebar's model list — for you only."
        )
    else:
        template = _(
            "Stopped after {steps} steps in {seconds} s; held-out exact match {accuracy}. "
            "**{name}** is now in the sidebar's model list — for you only."
        )
    return template.format(
        reason=_(view.reason), steps=f"{result.steps:,}", seconds=f"{result.seconds:.1f}",
        accuracy=f"{result.accuracy:.1%}", name=name,
    )  # fmt: skip
