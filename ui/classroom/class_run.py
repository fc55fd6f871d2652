"""The training run a class watches: the teacher's ONE run (in the server's worker pool, started on the projector)
reaches every student as the room's run record, and each student's Train page draws it as the teacher's page does.

- Teacher: the publish tick (teacher.py) calls share_run every PUBLISH_EVERY s. It sends the current GPT job's view
  as a record (services.training.record) at most every RUN_EVERY s while it trains, and at once when it ends or its
  head forms; a question "which head will copy?" still open is revealed then, from the run's own scores.
- Room: RoomStore.publish_run keeps the record in the room's document and moves its version, so followers on this
  server and (with Redis) on every other one wake, as for a new view; their page fragment reruns and draws it.
- Teacher: class_run_panel, at the top of the Train page, draws the question panel (copy_ask.py).
- Student: class_run_panel, at the top of the Train page, draws the record's run (progress, loss, samples, head
  scores, the moment the head formed, the circuit) with the Train page's own functions, instead of their own
  settings. Nothing trains for them.
"""

from __future__ import annotations

import secrets
import time

import streamlit as st

from services.rooms import RoomError, RoomStore
from services.training.record import run_record, view_of_record

from ..class_role import ClassRole, current_role, room_store
from ..i18n import _
from ..streamlit_private import fragment_run
from ..tokens import md_escape
from ..training.gpt_live import gpt_live
from ..training.panels import current_job, progress_share, progress_text
from .copy_ask import copy_question_panel, reveal_copy

RUN_EVERY = 2.0  # s between the records of a run in training (each wakes every follower, like a new view)
CHART_PREFIX = "class_"  # the keys of a student's charts of the teacher's run
SENT_KEY = "_class_run_sent"  # teacher: {"job": the pool's job id, "id": the run's id, "marker", "step", "at"}


# ---- the teacher ---------------------------------------------------------------------------------------------


def share_run(store: RoomStore, role: ClassRole) -> None:
    """Send the class this teacher's GPT run when it moved: every RUN_EVERY s while it trains, at once when it
    starts, ends or its head forms (and then reveal "which head will copy?"). RoomError propagates to the tick."""
    job = current_job()
    if job is None:
        return
    view = job.view()
    sent = st.session_state.get(SENT_KEY) or {}
    if view.gpt is None:  # a toy model's run stays on the teacher's page: an earlier GPT run's record comes down
        if sent.get("job") != job.id:
            store.publish_run(role.code, role.teacher_key, None)
            st.session_state[SENT_KEY] = {"job": job.id, "id": "", "marker": None, "step": -1, "at": 0.0}
        return
    if sent.get("job") != job.id:
        sent = {"job": job.id, "id": secrets.token_hex(6), "marker": None, "step": -1, "at": 0.0}
    marker = (view.status, view.gpt.formed is not None)
    now = time.monotonic()
    moved = marker != sent["marker"] or (view.step != sent["step"] and now - sent["at"] >= RUN_EVERY)
    if moved:
        record = run_record(sent["id"], job.name, view)
        store.publish_run(role.code, role.teacher_key, record)
        sent |= {"marker": marker, "step": view.step, "at": now}
        st.session_state[SENT_KEY] = sent
    if reveal_copy(store, role, view, job.id) and fragment_run():
        st.rerun(scope="app")  # the teacher's question panel, above the page, shows the answer now


# ---- a student -------------------------------------------------------------------------------------------------


def class_run_panel() -> bool:
    """The class on the Train page, at its top: the teacher's question panel ("which head will copy?", drawn here,
    after the link's view is settled, so a teacher opening /train?arch=gpt&task=induction can ask at once); a following
    student's page, the teacher's run as the room holds it. True when it drew the run (the page then shows nothing
    of its own); False outside a class, for the teacher, or while exploring alone."""
    role = current_role()
    if role is not None and role.is_teacher:
        copy_question_panel(role)
        return False
    if role is None or not role.following:
        return False
    try:
        record = room_store().snapshot(role.code).run
    except RoomError:
        return False
    if record is None:
        st.info(_("🎓 When the teacher presses **Start**, their training run appears here, live."))
        return True
    try:
        view, name = view_of_record(record), str(record["name"])
    except (KeyError, TypeError, ValueError, IndexError):
        st.warning(_("The teacher's training run cannot be shown on this page."))
        return True
    st.markdown(_("#### 🎓 The teacher's run: **{name}**").format(name=md_escape(name)))
    if view.status == "queued":
        st.info(_("The teacher's run is waiting for a free worker."))
    elif view.losses:
        st.progress(progress_share(view), text=progress_text(view))
        gpt_live(view, key=CHART_PREFIX, name=name)
    return True
