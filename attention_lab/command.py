"""The command line of one app server: `python -m streamlit run app.py …`, run in the app's folder (Streamlit reads
.streamlit/config.toml from its working folder)."""

from __future__ import annotations

import os
import sys

SERVE_OPTIONS = ("--server.headless", "true", "--browser.gatherUsageStats", "false")
# app.py inside st.App, whose lifespan warms the server before it reports healthy (serve.py, ui/warm.py)
SERVED_SCRIPT = "serve.py"
# What each app server runs as `python -m MODULE run app.py …`: streamlit; a benchmark sets devtools.count_runs
# (a `streamlit run` that also counts the model's runs, bench/load/run.py follow).
SERVER_MODULE_ENV = "ATTENTION_LAB_SERVER_MODULE"
# Where the class rooms live when several servers share them (services.rooms reads it; the launcher sets it).
REDIS_URL_ENV = "ATTENTION_LAB_REDIS_URL"


def serve_command(options: list[str]) -> list[str]:
    module = os.environ.get(SERVER_MODULE_ENV) or "streamlit"
    return [sys.executable, "-m", module, "run", SERVED_SCRIPT, *SERVE_OPTIONS, *options]
