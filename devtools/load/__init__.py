"""Streamlit sessions without a browser, for load tests: the websocket protocol (protocol.py, widgets.py), the
app's pages as actions (pages.py), a class of them (classroom.py) and Locust's timed samples (samples.py).

Used by bench/load/ (Locust's users, the ramp, run.py), bench/soak.py and tests/bench/.
"""
