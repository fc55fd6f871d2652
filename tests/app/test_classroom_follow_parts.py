"""A following student's pure parts: what the teacher's apply changed (to scroll to it), and which differences
of the session's view are the student's own touches (not the browser sending back what an apply replaced)."""

from __future__ import annotations

from ui.class_role import ClassRole
from ui.classroom import following
from ui.classroom.scroll import SCRIPT, changed_keys


def test_the_changed_controls_are_named_by_their_widgets_keys_in_the_views_order():
    before = {"page": "step-by-step", "step": 2, "wt_layer": 0, "wt_head": 1, "input": "a b"}
    after = {**before, "step": 3, "wt_head": 0, "input": "a b c"}
    assert changed_keys("step-by-step", before, after) == ["text", "step", "wt_head"]
    assert changed_keys("step-by-step", before, before) == []
    assert changed_keys("home", {"page": "home"}, {"page": "home", "model": "reverse"}) == ["model"]
    assert changed_keys("no such page", before, after) == [] and changed_keys(None, before, after) == []


def test_the_scroll_script_waits_for_the_run_and_skips_a_widget_not_on_the_page():
    assert "notRunning" in SCRIPT and "offsetParent" in SCRIPT and "CSS.escape" in SCRIPT


def test_a_touch_is_a_change_since_the_last_full_run_and_not_a_value_an_apply_replaced(monkeypatch):
    role = ClassRole("ABCDEF", student_id="s" * 20)
    session = {"kind": "encoder", "layer": 1, "head": 0}
    monkeypatch.setattr(following.st, "session_state", session)
    assert following.touched(role, "attention") == []  # no full run yet
    role.followed_page, role.followed_view = "attention", following._view("attention")
    assert following.touched(role, "attention") == [] and following.touched(role, "step-by-step") == []
    session["kind"] = "cross"
    assert following.touched(role, "attention") == ["kind"]
    session["kind"] = "encoder"
    following.before_apply(role, "attention")  # the teacher's apply moves the layer from 1 to 2 …
    session["layer"] = 2
    role.followed_view = following._view("attention")
    session["layer"] = 1  # … and the browser sends the old layer once more: not the student's
    assert following.touched(role, "attention") == []
    session["layer"] = 3  # a layer no apply replaced: the student's
    assert following.touched(role, "attention") == ["layer"]
    role.stale_until = 0.0  # long after the apply, the old value is the student's too
    session["layer"] = 1
    assert following.touched(role, "attention") == ["layer"]
    role.following = False
    assert following.touched(role, "attention") == []  # an explorer has nothing to leave


def test_a_value_the_browser_sent_back_before_an_apply_does_not_hide_the_one_it_replaced(monkeypatch):
    """Steps 3 → 4 while the browser is a step behind: at the apply the session holds a stale 2 from the browser, so
    the 3 it replaces is known only from the view last applied; a 3 sent back afterwards is not the student's."""
    role = ClassRole("ABCDEF", student_id="s" * 20)
    session = {"step": 3}
    monkeypatch.setattr(following.st, "session_state", session)
    role.followed_page, role.followed_view = "step-by-step", following._view("step-by-step")
    session["step"] = 2  # sent back by the browser, from before the apply of 3
    following.before_apply(role, "step-by-step")  # the teacher's 4
    session["step"] = 4
    role.followed_view = following._view("step-by-step")
    for stale in (2, 3):
        session["step"] = stale
        assert following.touched(role, "step-by-step") == []


def test_a_slow_browser_sending_old_values_long_after_an_apply_does_not_send_the_student_exploring(monkeypatch):
    """The flaky follow test's cause: a browser that draws slowly sent its first run after an apply 13.7 s later (a
    10 s window had passed), with the old step. An old value counts as the student's once the browser has sent the
    applied value of that setting back (it has drawn it), or after STALE_FOR."""
    role = ClassRole("ABCDEF", student_id="s" * 20)
    session = {"step": 2}
    clock = [1000.0]
    monkeypatch.setattr(following.st, "session_state", session)
    monkeypatch.setattr(following.time, "monotonic", lambda: clock[0])
    role.followed_page, role.followed_view = "step-by-step", following._view("step-by-step")
    following.before_apply(role, "step-by-step")  # the teacher's 3
    session["step"] = 3
    role.followed_view = following._view("step-by-step")
    clock[0] += 13.7
    session["step"] = 2  # the slow browser's first run since the apply
    assert following.touched(role, "step-by-step") == []
    session["step"] = 3  # it has drawn the apply: the step caught up
    assert following.touched(role, "step-by-step") == []
    session["step"] = 2  # the student picks step 2 themselves
    assert following.touched(role, "step-by-step") == ["step"]
    following.before_apply(role, "step-by-step")  # the teacher's 4; the browser never catches up …
    session["step"] = 4
    role.followed_view = following._view("step-by-step")
    session["step"] = 2
    assert following.touched(role, "step-by-step") == []
    clock[0] += following.STALE_FOR + 1  # … then, long after, an old value is the student's again
    assert following.touched(role, "step-by-step") == ["step"]


def test_a_fragments_look_for_a_touch_leaves_the_stale_values_as_they_were(monkeypatch):
    """The check after a fragment's run (and after the full run's last sync) must not count the browser as caught up:
    that made the next stale value the browser sent (the old step) the student's own, and sent them exploring."""
    role = ClassRole("ABCDEF", student_id="s" * 20)
    session = {"step": 2}
    monkeypatch.setattr(following.st, "session_state", session)
    monkeypatch.setattr(following.time, "monotonic", lambda: 1000.0)
    role.followed_page, role.followed_view = "step-by-step", following._view("step-by-step")
    following.before_apply(role, "step-by-step")  # the teacher's 3 replaces 2
    session["step"] = 3
    role.followed_view = following._view("step-by-step")
    assert following.touched(role, "step-by-step", catch_up=False) == []
    session["step"] = 2  # the browser's old value, after the look
    assert following.touched(role, "step-by-step", catch_up=False) == []
    assert following.touched(role, "step-by-step") == []
    session["step"] = 3
    assert following.touched(role, "step-by-step") == []  # a full run's look: caught up
    session["step"] = 2
    assert following.touched(role, "step-by-step") == ["step"]
