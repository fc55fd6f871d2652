"""Servers and browsers for the tests, the benchmarks and scripts/ (never imported by the app).

- harness.py: `streamlit run` the app on a free port, drive it in headless Chromium (Playwright), wait for reruns.
- classroom.py: a class in Chromium: start it, join it, wait for the step a page shows.
- redis_server.py, processes.py: a real redis-server; finding a Debian binary and stopping only our own process.
- load/: a Streamlit client that speaks the app's websocket protocol (no browser), for Locust and bench/soak.py.
- count_runs.py: `streamlit run` that also counts the model's runs (bench/load/run.py follow).

Imported as an installed package (`pip install -e .`, which scripts/test.sh runs); it needs requirements-dev.txt.
"""
