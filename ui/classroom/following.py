"""Following the teacher or exploring alone: the slim bar at the top of a student's page, and the switch to
exploring when a following student changes the view themselves.

Why a touch must switch: a following student who changed the attention kind saw another view than the
teacher's while the page still said "following". Every control of a page's view (views/) has a session key,
so a touch shows as a difference between the view the session holds now and the one it held at the end of its
last full run (`remember_view`, from app.py). Two kinds of difference are not the student's:
- a value the browser sends back from before an apply: a fragment's timer sends every widget's value with the
  run it asks for, and until the browser has drawn the run that applied the teacher's view it sends the old
  ones (see room_state.undo_stale for the teacher's side). The values an apply replaced do not count until the
  browser sends the applied value of that setting back (it has drawn it), or STALE_FOR seconds have passed.
  A wall-clock window alone was the flaky follow test's cause: a slow browser (a loaded machine, a phone)
  started the follow fragment's new timer 13.7 s after an apply, before drawing the page, and its first run sent
  the old step, which then counted as the student's own change and sent them exploring (reproduced with
  Chromium's CPU throttled 25×);
- another page: a student who opens another page while following goes exploring there (follow.py checks it).
"""

from __future__ import annotations

import time

import streamlit as st

from ..class_role import ClassRole, current_role
from ..i18n import _
from ..presenter.layout import FOLD_WHEN
from ..state import ON_SYNC
from ..streamlit_private import fragment_run
from . import room_state

STALE_FOR = 120.0  # s after an apply during which a value it replaced may still come back from a slow browser


def following() -> bool:
    """This session is a student following the teacher: the page folds its controls (ui.presenter.layout)."""
    role = current_role()
    return role is not None and not role.is_teacher and role.following


if following not in FOLD_WHEN:
    FOLD_WHEN.append(following)


def explore(role: ClassRole) -> None:
    role.following = False


def follow(role: ClassRole) -> None:
    role.following = True
    role.touched = False
    role.applied_version = -1  # apply the teacher's view now


def follow_bar(role: ClassRole) -> None:
    """The slim bar in the main area: "Following the teacher · Explore on my own", or the reverse."""
    with st.container(horizontal=True, vertical_alignment="center", gap="small", key="class_follow_bar"):
        if role.following:
            st.markdown(_("🎓 **Following the teacher**"), width="content")
            st.button(_("Explore on my own"), on_click=explore, args=(role,), key="_class_explore")
        else:
            words = (
                _("🧭 **Exploring on my own**: you changed the view")
                if role.touched
                else _("🧭 **Exploring on my own**")
            )
            st.markdown(words, width="content")
            st.button(_("Follow the teacher"), on_click=follow, args=(role,), type="primary", key="_class_follow")


def _view(page: str) -> dict:
    return room_state.collect(st.session_state, page)


def full_run_started() -> None:
    """At the start of a full run (follow_room): the page's fragment is not drawn until this run draws it."""
    role = current_role()
    if role is not None:
        role.follow_fragment = ""  # until this run draws a following student's page in its fragment again


def remember_view(page: str) -> None:
    """At the end of a full run: the view a following student's session holds, to tell their own touches by."""
    role = current_role()
    if role is not None and not role.is_teacher and role.following:
        role.followed_page, role.followed_view = page, _view(page)


def before_apply(role: ClassRole, page: str, held: dict | None = None) -> None:
    """Just before the teacher's view is applied: remember the values it replaces, those the session holds and
    those of the view last applied or drawn (the session may already hold an older one the browser sent back): the
    browser may send any of them once more, see the module's docstring."""
    now = time.monotonic()
    if now > role.stale_until:
        role.stale_values = {}
    for view in (_view(page) if held is None else held, role.followed_view):  # the session's (`held`, when known)
        # and the last applied: the session may hold a stale value already, so take both
        for name, value in view.items():
            seen = role.stale_values.setdefault(name, [])
            if value not in seen:
                seen.append(value)
    role.stale_until = now + STALE_FOR


def touched(role: ClassRole, page: str, catch_up: bool = True) -> list[str]:
    """The settings of `page`'s view this following student changed since their last full run (stale browser values
    left out); [] before a first full run on this page. A setting the browser sends as applied has caught up: its
    earlier values count as the student's from then on (unless `catch_up` is False: a look that changes nothing,
    for a fragment's run, whose values may not be the whole page's)."""
    if role.is_teacher or not role.following or role.followed_page != page or not role.followed_view:
        return []
    stale: dict[str, list] = role.stale_values if time.monotonic() <= role.stale_until else {}
    now, seen = _view(page), role.followed_view
    changed = []
    for name in set(now) | set(seen):
        if now.get(name) == seen.get(name):
            if catch_up:
                stale.pop(name, None)
        elif now.get(name) not in stale.get(name, []):
            changed.append(name)
    return sorted(changed)


def touched_in_fragment(page: str) -> None:
    """After a fragment's run (ui.state's ON_SYNC): a following student who changed a control there (the kind, a
    layer: a fragment reruns alone, and a follower's page has no full run until the room moves) explores on their
    own from now, and the whole page reruns so the bar says so at once."""
    if not fragment_run():
        return  # a full run: follow_room checked at the run's start
    role = current_role()
    if role is None or role.is_teacher or not role.following or not touched(role, page, catch_up=False):
        return
    go_exploring(role)
    st.rerun(scope="app")


if touched_in_fragment not in ON_SYNC:
    ON_SYNC.append(touched_in_fragment)


def go_exploring(role: ClassRole) -> None:
    """The student changed the view: they explore on their own from here, and the bar says why."""
    role.following = False
    role.touched = True
