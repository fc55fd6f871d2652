"""`attention-lab`: serve the app (what `bash scripts/app.sh` runs), or train a model.

Both replace this process (os.execv) with the command they stand for, so its pid, signals and exit code are the
server's or the training run's own.
"""

from __future__ import annotations

import os
import sys

from .paths import APP_ROOT

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


def serve_command(options: list[str]) -> list[str]:
    """The server's command line, run in APP_ROOT (Streamlit reads .streamlit/config.toml from its working folder)."""
    return [sys.executable, "-m", "streamlit", "run", "app.py", *SERVE_OPTIONS, *options]


def train_command(options: list[str]) -> list[str]:
    return [sys.executable, "-m", "model.train", *options]


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] in (["-h"], ["--help"]):
        print(USAGE.format(root=APP_ROOT), end="")
        return
    if args[:1] == ["train"]:
        command = train_command(args[1:])  # in the caller's folder: --out paths are theirs
    elif args and not args[0].startswith("-"):
        sys.exit(f"attention-lab: unknown command {args[0]!r}\n\n" + USAGE.format(root=APP_ROOT))
    else:
        os.chdir(APP_ROOT)
        command = serve_command(args)
    sys.stdout.flush()
    os.execv(sys.executable, command)
