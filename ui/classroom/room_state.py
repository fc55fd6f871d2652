"""The view a class follows, as room state: the teacher's page and that page's view (views/), by control name.

A room state is {"page": the page's URL path, …every room control of that page's view}: option ids, numbers and
flags, never a translated label, so a teacher in Chinese and a student in English see the same view. Applying
writes only the controls of the named page's view into their session keys, so a room can set nothing else.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, MutableMapping

from services.rooms.schema import PAGE
from views import ViewError, build, check_mapping, fields, to_mapping, view_class

from ..state.session import IMPLICIT_KEY, read, write

MODEL = "model"  # the control a student may not have (a model trained in the teacher's session, say)


def collect(session: Mapping, page: str) -> dict:
    """The room state of this session's view of `page` (a page without a view: the page alone)."""
    cls = view_class(page)
    if cls is None:
        return {PAGE: page}
    return {PAGE: page, **to_mapping(read(cls, session), "room")}


def held(session: Mapping, page: str) -> dict:
    """{session key: value} of every control of `page`'s view the session holds: the widget values as the browser
    sends them back, before read() turns them into a view (a value equal to the default the page computed reads as
    None there, so a stale one would not show as stale in the view)."""
    cls = view_class(page)
    if cls is None:
        return {}
    keys = {f.control.key for f in fields(cls)}
    return {key: session[key] for key in keys if key in session}


def collect_held(values: Mapping, session: Mapping, page: str) -> dict:
    """The room state of the view `values` (held()'s, perhaps with stale ones put back) hold, with the defaults the
    session's page computed."""
    return collect({**values, IMPLICIT_KEY: session.get(IMPLICIT_KEY, {})}, page)


def apply(state: Mapping, session: MutableMapping, models: Collection[str]) -> list[str]:
    """Write a room state's view into session state (before any widget is drawn); returns the keys set.

    A state the view cannot hold changes nothing; a model this session cannot use is skipped, so the picker
    keeps its choice."""
    page = state.get(PAGE)
    cls = view_class(page) if isinstance(page, str) else None
    if cls is None:
        return []
    try:
        settings = check_mapping(cls, {name: value for name, value in state.items() if name != PAGE}, "room")
    except ViewError:
        return []
    names = {f.name for f in fields(cls) if f.control.room}
    if MODEL in settings and settings[MODEL] not in models:
        del settings[MODEL]
    if MODEL not in settings:
        names.discard(MODEL)  # the picker keeps its choice
    return write(build(cls, settings), session, names)


def moved(earlier: list[Mapping], after: Mapping) -> dict:
    """{setting: (its earlier values, its value now)} for each setting a full run set to a value other than one it
    had in the `earlier` views (the last full run's, the last fragment run's); None stands for absent."""
    changed = {}
    for name in set(after).union(*earlier):
        was: list = []  # by ==, not a set: a matrix's value is a list
        for old in earlier:
            value = old.get(name)
            if value != after.get(name) and value not in was:
                was.append(value)
        if was:
            changed[name] = (tuple(was), after.get(name))
    return changed


def undo_stale(state: Mapping, pending: dict) -> dict:
    """`state` with each setting still pending (moved by a full run, not yet seen back from the browser) that reads
    an earlier value put back to its new one; `pending` loses the settings the browser has caught up on (or moved
    on from).

    Why: a run_every fragment's timer in the browser sends every widget's value with each rerun it asks for.
    After a full run changed a value in code (the Next button's callback moving the step), the browser keeps
    sending the old value until it has drawn that run, which takes seconds on a busy machine; each of those
    fragment runs sees the old value. Publishing it would pull the class back (step 2, 1, 2)."""
    now = dict(state)
    for name, (was, became) in list(pending.items()):
        value = now.get(name)
        if value in was:
            if became is None:
                now.pop(name, None)
            else:
                now[name] = became
        else:
            del pending[name]  # the browser shows the new value (or a newer one the teacher chose)
    return now
