"""Attention Lab entry point: page config, the language, navigation over pages/, the shared sidebar."""

import sys

import streamlit as st
import torch

from services.allocator import keep_freed_memory_once, release_when_quiet_once
from services.collector import freeze_imports_once
from ui.classroom.follow import follow_room
from ui.classroom.following import remember_view
from ui.classroom.holdback import hold_back
from ui.classroom.page_fragment import run_followed_page
from ui.classroom.sidebar import classroom_sidebar
from ui.classroom.teacher import teacher_run_ends
from ui.classroom.wake import release_wakes
from ui.language import language_switch
from ui.lesson.add import add_view_button
from ui.navigation import app_pages, page_path
from ui.phone import phone_style
from ui.presenter import presenter_view
from ui.sidebar import model_choices, render_sidebar
from ui.state import settle, sync_url
from ui.streamlit_private import coalesce_server_wakes_once, read_options_without_lock_once
from ui.training.panels import stop_training_if_left

# One intra-op thread per forward pass. Our models are tiny, and the browser, the server and other sessions
# share two cores: with torch's default of two threads the Attention page's model run took ~26 ms p50 while
# Chromium painted, with one ~10 ms (bench/ui_latency.py's default edit went from ~420 to ~340 ms).
# set_num_threads also sets the count every later thread starts with, so Streamlit's script threads get it.
torch.set_num_threads(1)
# A script thread hands the GIL over after every message it sends (a write to the event loop's pipe), then waits for
# it back: up to the switch interval (5 ms by default) while another thread computes. A page sends ~100 messages, so
# with a class rerunning, runs took ~35× their CPU time (docs/capacity.md); 0.5 ms keeps that wait short.
sys.setswitchinterval(0.0005)
keep_freed_memory_once()  # traces hold many MB at once: see services/allocator.py
release_when_quiet_once()  # ... and what dropped sessions held goes back to the OS once the server is quiet: ditto
coalesce_server_wakes_once()  # one wake of the event loop per burst of messages: ui/streamlit_private/loop_wakes.py
read_options_without_lock_once()  # every message a run sends reads an option: ui/streamlit_private/config.py
freeze_imports_once()  # full GCs no longer walk the ~375 000 objects of the imports: see services/collector.py

st.set_page_config(page_title="Attention Lab", page_icon="🔎", layout="wide")
language_switch()
navigation = st.navigation(app_pages())
follow_room(navigation)  # a class: before any widget, so a student's view can be set to the teacher's
settle(page_path(navigation), model_choices())  # the link's view (views/), before any widget draws it
presenter_view()  # after follow_room: a class follows the teacher's presenter view too
phone_style()  # formulas and chart titles that read on a phone
stop_training_if_left(navigation.url_path)
render_sidebar()
classroom_sidebar(navigation)
add_view_button(navigation.url_path)
sync_url(page_path(navigation))
try:
    if not hold_back(navigation, page_path(navigation)):  # a student's page waits for the reveal of the question
        run_followed_page(navigation)  # a following student's page: in a fragment the room's moves rerun alone
finally:
    remember_view(page_path(navigation))  # a following student's view, to tell their own touches by
    teacher_run_ends(page_path(navigation))  # a teacher's: the view the page ended on goes to the class
    release_wakes()  # a teacher's run: its students rerun now, after the teacher's page
sync_url(page_path(navigation))  # what the page's own widgets moved in this run
