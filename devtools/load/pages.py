"""What a load-test user does on the app's pages, through the protocol client (shared by Locust and the soak).

Widgets are found by their keys (the app's own `key=` arguments), so these helpers break loudly when a page
changes, rather than measuring a page that no longer does what they think.
"""

from __future__ import annotations

import random

from .protocol import Run, StreamlitSession
from .widgets import UserValue

EXPLORE_MODEL = "reverse"  # digits in, digits reversed out: any random digit string is a valid input
MAX_DIGITS = 12  # the longest input the model was trained on


def open_attention(base_url: str, *, model: str = EXPLORE_MODEL, timeout=120.0) -> tuple[StreamlitSession, Run]:
    """A new session on the Attention page (as a shared link would open it) and its first run."""
    session = StreamlitSession(base_url, "attention", f"model={model}&lang=en", timeout=timeout)
    return session, session.open()


def random_digits(rng: random.Random) -> str:
    return " ".join(rng.choice("0123456789") for _ in range(rng.randint(3, MAX_DIGITS)))


def edit_input(session: StreamlitSession, rng: random.Random) -> Run:
    """Type a new input (Enter): a full rerun that runs the model and draws every chart anew."""
    text = random_digits(rng)
    while text == session.value("text"):
        text = random_digits(rng)
    return session.rerun({"text": text})


def change_focus(session: StreamlitSession, rng: random.Random) -> Run:
    """Pick another layer or head: a rerun of the focus fragment only (the trace is cached in the session)."""
    key = rng.choice(["layer", "head"])
    options = session.widget(key).options
    current = session.value(key)
    return session.rerun({key: rng.choice([o for o in options if o != current] or options)})


def open_train(base_url: str, *, timeout: float = 120.0) -> tuple[StreamlitSession, Run]:
    session = StreamlitSession(base_url, "train", "lang=en", timeout=timeout)
    return session, session.open()


def start_training(session: StreamlitSession, *, task: str = "reverse", steps: int | None = None) -> Run:
    """Submit the Train page's settings form (defaults: until 99 % held-out accuracy, at most 2000 steps; with
    `steps`, exactly that many)."""
    values: dict[str, UserValue] = {"train_task": task}
    if steps is not None:
        values |= {"train_rule": 1, "train_steps": steps}  # option 1: "after a number of steps"
    return session.rerun(values, click="train_start")


def training_finished(session: StreamlitSession) -> bool:
    """The trained model's panel is drawn (its "Use it in the sidebar" button)."""
    return "train_use" in session.widget_keys()


def wait_training(session: StreamlitSession, started: float, timeout: float = 600.0) -> Run:
    """Follow the progress fragment's timer until a run shows the finished job; that run."""
    return session.wait_for_run(lambda run: run.ok and training_finished(session), after=started, timeout=timeout)
