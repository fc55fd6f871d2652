"""A class in the load test: one teacher steps through the walkthrough (/step-by-step), N students follow.

The teacher presses the sidebar's "Start a class" (the URL then carries ?room=CODE&key=...), then Next every few
seconds (from the last step, back to step 1). A student opens /step-by-step?room=CODE and leaves it alone: the
app's follow fragment (run_every) hears that the room moved and reruns the student's app, which applies the
teacher's view. Follow latency = from the teacher's click being sent to the end of the student's first full run
that shows the new step, both on this process's monotonic clock.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qs

from .protocol import Run, StreamlitSession

PAGE = "step-by-step"
STEP_KEY = "step"  # the walkthrough's step radio (options "1" … "8")


@dataclass
class Room:
    """What the teacher shares with the students of this Locust process: the code and the click times."""

    code: str = ""
    opened: threading.Event = field(default_factory=threading.Event)
    clicks: list[tuple[float, str]] = field(default_factory=list)  # (monotonic time sent, step it moves to)

    def click_for(self, step: str, finished: float) -> float | None:
        """When the latest click that moved the class to `step` was sent (before `finished`)."""
        times = [sent for sent, target in self.clicks if target == step and sent <= finished]
        return times[-1] if times else None


def open_page(base_url: str, query: str, timeout: float = 120.0) -> tuple[StreamlitSession, Run]:
    session = StreamlitSession(base_url, PAGE, query, timeout=timeout)
    return session, session.open()


def start_class(session: StreamlitSession) -> tuple[str, Run]:
    """Press "Start a class"; the room code the server wrote into the URL."""
    run = session.rerun(click="_class_start")
    codes = parse_qs(session.query).get("room")
    if not codes:
        raise RuntimeError(f"no room in the URL after Start a class: {session.query}")
    return codes[0], run


def next_step(session: StreamlitSession, room: Room) -> Run:
    """Next ▶ (or, on the last step, back to step 1), remembering when the click was sent and where it goes."""
    options = session.widget(STEP_KEY).options
    current = str(session.value(STEP_KEY))
    if current == options[-1]:
        room.clicks.append((time.monotonic(), options[0]))
        return session.rerun({STEP_KEY: options[0]})
    room.clicks.append((time.monotonic(), options[options.index(current) + 1]))
    return session.rerun(click="wt_next")


class Follower:
    """Watches a student's runs; `on_follow(seconds)` for each new step shown after a teacher's click."""

    def __init__(self, session: StreamlitSession, room: Room, on_follow):
        self.session, self.room, self.on_follow = session, room, on_follow
        self.shown = str(session.value(STEP_KEY))
        session.run_listeners.append(self._run_finished)

    def _run_finished(self, run: Run) -> None:
        if not run.ok or run.fragment_ids:
            return
        try:
            step = str(self.session.value(STEP_KEY))
        except KeyError:  # a run that did not draw the walkthrough
            return
        if step == self.shown:
            return
        self.shown = step
        sent = self.room.click_for(step, run.finished)
        if sent is not None:
            self.on_follow(run.finished - sent, run)
