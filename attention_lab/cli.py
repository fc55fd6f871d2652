"""`attention-lab`: serve the app (what `bash scripts/app.sh` runs), or train a model.

Serving runs `streamlit run app.py` in this process, with the imports the first page needs (torch, plotly, the
model) started in a thread at once, so they overlap Streamlit's own start and the browser loading the page instead
of waiting for the first script run (docs/capacity.md, "Cold start"). Training replaces this process (os.execv)
with `python -m model.train`. Either way the pid, signals and exit code are the server's or the training run's own.
"""

from __future__ import annotations

import os
import sys

from .paths import APP_ROOT
from .warm import warm_in_background

USAGE = """\
usage: attention-lab [STREAMLIT_RUN_OPTION ...]
       attention-lab train [TRAIN_OPTION ...]

  attention-lab          serve the app on http://localhost:8501: python -m streamlit run app.py
                         --server.headless true --browser.gatherUsageStats false [options], in the app's folder;
                         any `streamlit run` option passes through (e.g. --server.port 8502)
  attention-lab train    train a model: python -m model.train [options] (see `attention-lab train --help`)
  attention-lab --help   this help

The app's folder: {root}
"""
SERVE_OPTIONS = ("--server.headless", "true", "--browser.gatherUsageStats", "false")


def serve_arguments(options: list[str]) -> list[str]:
    """`streamlit`'s arguments, run in APP_ROOT (Streamlit reads .streamlit/config.toml from its working folder)."""
    return ["run", "app.py", *SERVE_OPTIONS, *options]


def serve(options: list[str]) -> None:
    """`python -m streamlit run app.py …` in this process, the first page's imports warming meanwhile."""
    os.chdir(APP_ROOT)
    warm_in_background()
    from streamlit.web.cli import main as streamlit_main  # what `python -m streamlit` calls

    streamlit_main(args=serve_arguments(options), prog_name="streamlit")


def train_command(options: list[str]) -> list[str]:
    return [sys.executable, "-m", "model.train", *options]


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] in (["-h"], ["--help"]):
        print(USAGE.format(root=APP_ROOT), end="")
        return
    if args and args[0] != "train" and not args[0].startswith("-"):
        sys.exit(f"attention-lab: unknown command {args[0]!r}\n\n" + USAGE.format(root=APP_ROOT))
    if args[:1] != ["train"]:
        serve(args)
        return
    sys.stdout.flush()
    os.execv(sys.executable, train_command(args[1:]))  # in the caller's folder: --out paths are theirs
