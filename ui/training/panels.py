"""Train page glue: the settings form, Start/Stop, the live progress fragment, the trained model.

The job (ui/training_job.py) lives in st.session_state, so it belongs to this browser session only.
"""

from __future__ import annotations

import re
from dataclasses import replace

import streamlit as st

from model import PRETRAINED, TASKS, LoadedModel, get_task
from model.archive import pack_archive
from model.train import TrainConfig, default_model_config
from viz.training import accuracy_figure, loss_figure

from ..models import add_user_model, user_models
from ..navigation import TRAIN
from .job import TrainingJob

JOB_KEY = "train_job"
NOTICE_KEY = "train_notice"  # (kind, message) shown once after a callback
# Progress redraw interval: the issue asks for at least once a second. Each redraw costs the trainer CPU (measured
# on this loaded 2-core machine: reverse took ~28-44 s at 1 s, ~21-26 s at 5 s), so it is not more often.
REFRESH_SECONDS = 1.0
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.\-]{0,39}$")
DEFAULT_STEPS = 2000  # the most steps by default; the cosine schedule spans them (as `python -m model.train`)
LEARNING_RATES = (3e-4, 5e-4, 1e-3, 2e-3, 3e-3, 5e-3, 1e-2)


def current_job() -> TrainingJob | None:
    return st.session_state.get(JOB_KEY)


def stop_training_if_left(page_url_path: str) -> None:
    """Called on every full run of the app: a run of another page means the user left the Train page,
    which stops this session's training (its model is kept, as with Stop)."""
    job = current_job()
    if job is not None and job.running and page_url_path != TRAIN.url_path:
        job.stop("the page was left")


def name_problem(name: str, taken: set[str] | list[str] = ()) -> str | None:
    """Why a model name cannot be used, in words; None when it can."""
    name = name.strip()
    if not name:
        return "Type a name for the model."
    if name in PRETRAINED:
        return f"'{name}' is the name of a shipped model; choose another name."
    if not NAME_PATTERN.match(name):
        return "Use 1 to 40 letters, digits, spaces, '-', '_' or '.', starting with a letter or digit."
    if name in taken:
        return f"You already have a model named '{name}'."
    return None


def unique_name(base: str) -> str:
    """base, or base-2, base-3 … : a name not shipped and not yet used in this session."""
    taken = set(user_models()) | set(PRETRAINED)
    name, k = base, 2
    while name in taken:
        name, k = f"{base}-{k}", k + 1
    return name


def settings_form() -> tuple | None:
    """The settings; returns (task, model_config, train_config) when Start was pressed with valid values."""
    with st.form("train_settings", border=True):
        c1, c2, c3, c4 = st.columns(4)
        task_name = c1.selectbox("Task", list(TASKS), index=list(TASKS).index("reverse"), key="train_task")
        positional = c1.selectbox("Positional encoding", ["sinusoidal", "learned", "none"], key="train_pos")
        enc = c2.number_input("Encoder layers", 1, 6, 1, key="train_enc")
        dec = c2.number_input("Decoder layers", 1, 6, 1, key="train_dec")
        d_model = c3.number_input("d_model", 8, 256, 64, step=8, key="train_d", help="The FFN is 2 × d_model wide.")
        heads = c3.number_input("Heads", 1, 16, 4, key="train_heads", help="d_model must divide evenly by heads.")
        norm = c4.selectbox("LayerNorm", ["post", "pre"], key="train_norm", format_func=lambda n: f"{n}-LN")
        lr = c4.select_slider("Learning rate", LEARNING_RATES, value=2e-3, key="train_lr", format_func="{:g}".format)
        s1, s2, s3 = st.columns([2, 1, 1])
        rule = s1.radio("Stop", ["until accuracy", "after steps"], horizontal=True, key="train_rule",
                        format_func={"until accuracy": "when held-out accuracy reaches…",
                                     "after steps": "after a number of steps"}.get)  # fmt: skip
        goal = s2.number_input("Accuracy goal (%)", 10.0, 100.0, 99.0, step=1.0, key="train_goal")
        steps = s3.number_input("Steps (most)", 10, 20000, DEFAULT_STEPS, step=100, key="train_steps")
        submitted = st.form_submit_button("▶ Start training", type="primary")
    if not submitted:
        return None
    task = get_task(task_name)
    try:
        model_config = default_model_config(
            task, d_model=int(d_model), n_heads=int(heads), d_ff=2 * int(d_model), n_encoder_layers=int(enc),
            n_decoder_layers=int(dec), positional=positional, norm=norm,
        )  # fmt: skip
        until = goal / 100 if rule == "until accuracy" else None
        train_config = TrainConfig(steps=int(steps), until=until, lr=float(lr))
    except ValueError as exc:
        st.error(f"These settings cannot build a model: {exc}")
        return None
    return task, model_config, train_config


def start_job(task, model_config, train_config) -> TrainingJob:
    """Stop this session's previous job (if any) and start a new one."""
    old = current_job()
    if old is not None and old.running:
        old.stop("replaced by a new run")
        old.join(2.0)
    job = TrainingJob(task, model_config, train_config, name=unique_name(f"my-{task.name}"), alive=_session_alive())
    st.session_state[JOB_KEY] = job
    return job.start()


def _session_alive():
    """A thread-safe 'is this browser session still connected?' check, or None outside a server."""
    from streamlit import runtime
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if not runtime.exists() or ctx is None:
        return None
    instance, session_id = runtime.get_instance(), ctx.session_id
    return lambda: instance.is_active_session(session_id)


def stop_button(job: TrainingJob | None) -> None:
    running = job is not None and job.running
    if st.button("■ Stop", disabled=not running, key="train_stop") and running:
        job.stop("stopped by you")
        job.join(2.0)


def _time_left(view) -> str:
    if view.step == 0 or view.finished:
        return ""
    per_step = view.seconds / view.step
    left = per_step * (view.total_steps - view.step)
    return f" · at most {left:.0f} s left" if view.total_steps and view.step < view.total_steps else ""


def progress_panel(job: TrainingJob) -> None:
    """Progress bar, loss and accuracy, redrawn every REFRESH_SECONDS while the job runs.

    Each redraw is also the page's heartbeat, the job's backstop for a page that stopped updating
    (see TrainingJob); leaving the page stops the job at once (stop_training_if_left).
    """

    @st.fragment(run_every=REFRESH_SECONDS if job.running else None)
    def panel() -> None:
        job.heartbeat()
        view = job.view()
        acc = f" · held-out accuracy {view.accuracies[-1][1]:.1%}" if view.accuracies else ""
        st.progress(
            min(1.0, view.step / max(1, view.total_steps)),
            text=f"Step {view.step:,} of at most {view.total_steps:,} · {view.seconds:.1f} s{_time_left(view)}{acc}",
        )
        left, right = st.columns(2)
        steps, losses = zip(*view.losses, strict=True) if view.losses else ((), ())
        left.plotly_chart(
            loss_figure(steps, losses, title="Training loss", x_title="step", y_title="cross-entropy (log)",
                        total_steps=view.total_steps, max_points=200),
            key="train_loss_chart", config={"displayModeBar": False},
        )  # fmt: skip
        a_steps, accs = zip(*view.accuracies, strict=True) if view.accuracies else ((), ())
        right.plotly_chart(
            accuracy_figure(a_steps, accs, title="Held-out exact match", x_title="step", y_title="accuracy",
                            goal=job.train_config.until, total_steps=view.total_steps),
            key="train_acc_chart", config={"displayModeBar": False},
        )  # fmt: skip
        if view.status == "failed":
            st.error(f"Training failed: {view.error}")
        if view.finished and job.registered_as is None and job.result is not None:
            try:
                register(job)
            except ValueError as exc:  # this session's model list is full
                st.error(str(exc))
            else:
                st.rerun(scope="app")  # so the sidebar's model list picks the new model up

    panel()


def register(job: TrainingJob) -> None:
    """Put the trained model in this session's model list under a fresh name."""
    name = unique_name(job.name) if job.name in user_models() else job.name
    add_user_model(name, replace(job.result.loaded, name=name))
    job.registered_as = name


def _rename(job: TrainingJob) -> None:
    """Form callback (runs before the script, so the sidebar selection may still be changed)."""
    old, new = job.registered_as, st.session_state.get(_name_key(job), "").strip()
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
    st.session_state[NOTICE_KEY] = ("success", f"Renamed to '{new}'.")


def _name_key(job: TrainingJob) -> str:
    """One name box per job, so a new run's box starts from the new model's name."""
    return f"train_new_name_{id(job)}"


def _use_in_sidebar(name: str) -> None:
    st.session_state["model"] = name


def result_panel(job: TrainingJob) -> None:
    """Name (editable), how it went, Download, and a button to pick it in the sidebar."""
    name = job.registered_as
    if name is None or name not in user_models():
        return
    loaded = user_models()[name]
    view = job.view()
    verb = "Stopped" if view.status == "stopped" else "Finished"
    why = f" ({view.reason})" if view.status == "stopped" and view.reason else ""
    st.success(
        f"{verb}{why} after {job.result.steps:,} steps in {job.result.seconds:.1f} s; held-out exact match "
        f"{job.result.accuracy:.1%}. **{name}** is now in the sidebar's model list — for you only."
    )
    notice = st.session_state.pop(NOTICE_KEY, None)
    if notice:
        getattr(st, notice[0])(notice[1])
    c1, c2, c3 = st.columns([2, 1, 1], vertical_alignment="bottom")
    with c1.form("rename_model", border=False):
        st.text_input("Model name", value=name, key=_name_key(job), max_chars=40)
        st.form_submit_button("Rename", on_click=_rename, args=(job,))
    c2.button("Use it in the sidebar", on_click=_use_in_sidebar, args=(name,), key="train_use")
    c3.download_button(
        "⬇ Download .zip", data=pack_archive(loaded), file_name=f"{name}.zip", mime="application/zip",
        on_click="ignore", key="train_download",
    )  # fmt: skip
