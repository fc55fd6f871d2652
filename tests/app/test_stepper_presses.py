"""Next pressed again before the browser has drawn the first press (a presenter's clicker pressed twice) moves two
steps: the browser then still sends the picker's old value with the press (ui/presenter/keys.py). A step picked by
hand is still a step picked."""

from __future__ import annotations

from .test_classroom import STEP_PAGE, run, session


def test_a_second_next_sent_with_the_pickers_old_value_still_moves_on():
    at = session(page=STEP_PAGE)
    assert at.session_state["step"] == 1
    run(at.button(key="wt_next").click())
    assert at.session_state["step"] == 2
    at.radio(key="step").set_value(1)  # what the browser shows until it has drawn the run of the first press
    run(at.button(key="wt_next").click())
    assert at.session_state["step"] == 3
    at.radio(key="step").set_value(1)  # a third press, the browser still on step 1
    run(at.button(key="wt_next").click())
    assert at.session_state["step"] == 4
    run(at.button(key="wt_prev").click())  # the browser has caught up: a press from step 4
    assert at.session_state["step"] == 3


def test_a_step_picked_by_hand_is_where_next_starts_from():
    at = session(page=STEP_PAGE)
    run(at.button(key="wt_next").click())
    run(at.button(key="wt_next").click())
    assert at.session_state["step"] == 3
    run(at.radio(key="step").set_value(1))  # picked by hand, though it was the value before the presses
    assert at.session_state["step"] == 1
    run(at.button(key="wt_next").click())
    assert at.session_state["step"] == 2
