"""A room flood through the app: a teacher who presses Start a class on a server already at its class limit, and a
student joining a class already at its student limit, each get the limit's message; their page keeps working alone,
and the classes already running are untouched.

The store's own limits are tested in tests/services/test_rooms_contract.py (in process and on Redis); here the
flood is made through the same server-wide store the app uses, and the message is read on the page.
"""

from __future__ import annotations

import pytest

from services.rooms import RoomError, shared_room_store
from tests.app.charts import charts_of
from ui.class_role import ROLE_KEY

from .apptest import Says, open_page, run

SERVER_FULL = Says("classes, its limit. Try again when one has ended.", "个课堂，达到上限。请等某个课堂结束后再试。")
ROOM_FULL = Says("is full: it already has", "已满：已经有")


@pytest.fixture
def flood():
    """Rooms created on the app's store until it refuses one; all closed afterwards (the store is the process's)."""
    store, tickets = shared_room_store(), []

    def fill() -> list:
        while True:
            try:
                tickets.append(store.create_room())
            except RoomError:
                return tickets

    yield fill
    for ticket in tickets:
        store.close(ticket.code, ticket.key)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_start_a_class_beyond_the_servers_room_limit(flood, lang):
    at = open_page("step-by-step", lang, {"step": "3"})
    rooms = flood()
    at.button(key="_class_start").click()
    run(at)
    errors = " ".join(e.value for e in at.error)
    limit = shared_room_store().limits.max_rooms  # other tests in this process may have left classes running
    assert len(rooms) <= limit and SERVER_FULL[lang] in errors and str(limit) in errors, errors
    assert ROLE_KEY not in at.session_state or at.session_state[ROLE_KEY] is None
    assert "room" not in at.query_params and at.session_state["step"] == 3
    assert shared_room_store().snapshot(rooms[0].code).version >= 1  # the running classes are untouched


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_student_beyond_the_rooms_student_limit(lang):
    store = shared_room_store()
    ticket = store.create_room()
    try:
        joined = 0
        while True:
            try:
                store.join(ticket.code)
                joined += 1
            except RoomError:
                break
        at = open_page("attention", lang, {"room": ticket.code, "layer": "2"})
        errors = " ".join(e.value for e in at.error)
        assert ROOM_FULL[lang] in errors and str(joined) in errors, errors
        assert ROLE_KEY not in at.session_state and "room" not in at.query_params
        assert at.session_state["layer"] == 1 and charts_of(at), "the page works alone"
        assert store.snapshot(ticket.code).student_count == joined
    finally:
        store.close(ticket.code, ticket.key)
