"""A class in the load test: one teacher changes the view every few seconds, N students follow.

Four kinds of class (`PAGES`): on /step-by-step the teacher clicks Next (from the last step, back to step 1), on
/lesson Next slide (from the last, back to the first); on /attention?model=reverse the teacher types a new input
each time, so every follower needs the trace of an input it has never seen (what the server-wide trace cache is
for); on /next-token?model=gpt-en (or $ATTENTION_LAB_LOAD_GPT) the teacher writes the most likely token each time,
a longer text for every follower to run, and a follower shows how many tokens are written. The teacher presses the
sidebar's "Start a class" (the URL then carries ?room=CODE&key=...). A student opens the same page with ?room=CODE
and leaves it alone: the server reruns the student's app when the room moves, and
that run applies the teacher's view. Follow latency = from the teacher's change being sent to the end of the
student's first run that shows it (the app's, or the page fragment's that a follower's page runs in), both on this
process's monotonic clock.
"""

from __future__ import annotations

import os
import re
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qs

from .pages import EXPLORE_MODEL, random_digits
from .protocol import Run, StreamlitSession

GPT_ENV = "ATTENTION_LAB_LOAD_GPT"  # the GPT a class on /next-token uses (default gpt-en; a folder name of
# $ATTENTION_LAB_EXTRA_MODELS when the shipped one is not here)

STEP_KEY = "step"  # the walkthrough's step radio (options "1" … "8")
SLIDE_KEY = "lesson_slide"  # the lesson's slide picker
TEXT_KEY = "text"  # the shared input box


@dataclass(frozen=True)
class ClassPage:
    """Where a class meets: the page, its query string, the widget whose value is the teacher's view, the button
    that moves it on (none: the teacher types a new input), and where a follower whose page does not draw that widget
    shows the view: a pattern of the page's headings, its group the widget's value."""

    path: str
    query: str
    key: str  # "": no widget holds the view (it is read from the page's text alone)
    next_button: str = ""
    heading: str = ""
    heading_kind: str = "heading"  # the kind of element `heading` is matched on ("markdown" for a caption)

    def shown(self, session: StreamlitSession) -> str:
        """The view the session's page shows now (KeyError: the page shows none: another page, or not drawn yet)."""
        if self.key:
            try:
                return str(session.value(self.key))
            except KeyError:
                if not self.heading:
                    raise
        for heading in session.elements(self.heading_kind):
            found = re.match(self.heading, getattr(heading, "body", ""))
            if found:
                return found.group(1) or "0"
        raise KeyError(self.key or self.heading)


PAGES = {
    # a follower's Step by step folds its widgets and draws them only when opened: its step is in its heading
    "step-by-step": ClassPage("step-by-step", "lang=en", STEP_KEY, "wt_next", r"Step (\d+) of \d+"),
    "attention": ClassPage("attention", f"model={EXPLORE_MODEL}&lang=en", TEXT_KEY),
    "lesson": ClassPage("lesson", "lang=en", SLIDE_KEY, "lesson_next"),
    # the written count, from the caption under the text ("3 tokens written after the prompt", or nothing yet: 0)
    "next-token": ClassPage(
        "next-token",
        f"model={os.environ.get(GPT_ENV, 'gpt-en')}&lang=en",
        "",
        "nt_most_likely",
        r"(?:(\d+) tokens? written after the prompt|Nothing written yet)",
        "markdown",
    ),
}


@dataclass
class Room:
    """What the teacher shares with the students of this Locust process: the code and the click times."""

    code: str = ""
    opened: threading.Event = field(default_factory=threading.Event)
    page: ClassPage = PAGES["step-by-step"]
    clicks: list[tuple[float, str]] = field(default_factory=list)  # (monotonic time sent, view it moves to)
    followers: list[Follower] = field(default_factory=list)  # every student's follower, kept after it closed

    def click_for(self, view: str, finished: float) -> float | None:
        """When the latest change that moved the class to `view` was sent (before `finished`)."""
        times = [sent for sent, target in self.clicks if target == view and sent <= finished]
        return times[-1] if times else None

    @property
    def target(self) -> str | None:
        """The view the teacher's latest change moved the class to."""
        return self.clicks[-1][1] if self.clicks else None


def open_page(base_url: str, page: ClassPage, query: str = "", timeout: float = 120.0) -> tuple[StreamlitSession, Run]:
    """A session on the class's page; `query` goes before the page's own query string."""
    session = StreamlitSession(base_url, page.path, "&".join(q for q in (query, page.query) if q), timeout=timeout)
    return session, session.open()


def start_class(session: StreamlitSession) -> tuple[str, Run]:
    """Press "Start a class"; the room code the server wrote into the URL."""
    run = session.rerun(click="_class_start")
    codes = parse_qs(session.query).get("room")
    if not codes:
        raise RuntimeError(f"no room in the URL after Start a class: {session.query}")
    return codes[0], run


def change_view(session: StreamlitSession, room: Room, rng) -> Run:
    """The teacher's next change: Next on /step-by-step and /lesson, a new input on /attention."""
    if room.page.next_button and not room.page.key:  # /next-token: one more token written
        room.clicks.append((time.monotonic(), str(int(room.page.shown(session)) + 1)))
        return session.rerun(click=room.page.next_button)
    if room.page.next_button:
        return next_step(session, room)
    text = random_digits(rng)
    while text == session.value(TEXT_KEY):
        text = random_digits(rng)
    room.clicks.append((time.monotonic(), text))
    return session.rerun({TEXT_KEY: text})


def next_step(session: StreamlitSession, room: Room) -> Run:
    """Next ▶ (or, on the last step or slide, back to the first), remembering when the click was sent and where it
    goes."""
    key = room.page.key
    options = session.widget(key).options
    current = str(session.value(key))
    if current == options[-1]:
        room.clicks.append((time.monotonic(), options[0]))
        return session.rerun({key: options[0]})
    room.clicks.append((time.monotonic(), options[options.index(current) + 1]))
    return session.rerun(click=room.page.next_button)


class Follower:
    """Watches a student's runs; `on_follow(seconds)` for each new view shown after a teacher's change."""

    def __init__(self, session: StreamlitSession, room: Room, on_follow):
        self.session, self.room, self.on_follow = session, room, on_follow
        self.shown = room.page.shown(session)
        session.run_listeners.append(self._run_finished)

    def _run_finished(self, run: Run) -> None:
        if not run.ok:  # a full run, or the run of a following student's page fragment (ui/classroom/page_fragment.py)
            return
        try:
            view = self.room.page.shown(self.session)
        except KeyError:  # a run that did not draw the class's page
            return
        if view == self.shown:
            return
        self.shown = view
        finished = run.finished
        assert finished is not None  # a run that ended ok has finished (Run.status and .finished are set together)
        sent = self.room.click_for(view, finished)
        if sent is not None:
            self.on_follow(finished - sent, run)
