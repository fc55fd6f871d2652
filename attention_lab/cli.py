"""`attention-lab`: serve the app (what `bash scripts/app.sh` runs), or train a model.

One server, and training, replace this process (os.execv) with the command they stand for, so its pid, signals and
exit code are the server's or the training run's own. `--servers N` (N ≥ 2) keeps this process as the launcher of
N servers behind HAProxy with rooms in Redis (attention_lab.cluster).
"""

from __future__ import annotations

import os
import sys

from .command import serve_command
from .folder_check import offer_model_dirs
from .paths import APP_ROOT

USAGE = """\
usage: attention-lab [--servers N] [--model-dir PATH ...] [STREAMLIT_RUN_OPTION ...]
       attention-lab train [TRAIN_OPTION ...]

  attention-lab          serve the app on http://localhost:8501: python -m streamlit run serve.py
                         --server.headless true --browser.gatherUsageStats false [options], in the app's folder;
                         any `streamlit run` option passes through (e.g. --server.port 8502)
  attention-lab --servers N
                         serve it from N server processes (2 to {most}) behind HAProxy, class rooms in Redis:
                         a lecture hall of 100 or more students (docs/capacity.md); needs the Debian packages
                         redis-server and haproxy; --server.port and --server.address are HAProxy's
  attention-lab --model-dir PATH
                         also offer the model in the folder PATH (a GPT-2 or BERT folder as save_pretrained writes
                         it, or a Hugging Face cache snapshot) to every session, under the folder's name; repeat it
                         for more; with --servers N every server offers them; a folder that cannot be opened stops
                         the command with the reason before any server starts
  attention-lab train    train a model: python -m model.train [options] (see `attention-lab train --help`)
  attention-lab --help   this help

The app's folder: {root}
"""


def usage() -> str:
    from .cluster.launch import MAX_SERVERS

    return USAGE.format(root=APP_ROOT, most=MAX_SERVERS)


def train_command(options: list[str]) -> list[str]:
    return [sys.executable, "-m", "model.train", *options]


def split_servers(args: list[str]) -> tuple[int, list[str]]:
    """(N of `--servers N` or `--servers=N`, 1 without it; the other arguments). SystemExit with a message for a
    count that is not a whole number from 1 to MAX_SERVERS."""
    from .cluster.launch import MAX_SERVERS
    from .cluster.options import take_options

    try:
        found, rest = take_options(args, {"--servers"})
    except ValueError:
        found, rest = {"--servers": ""}, []
    count = found.get("--servers", "1")
    if not count.isdigit() or not 1 <= int(count) <= MAX_SERVERS:
        sys.exit(f"attention-lab: --servers takes a whole number from 1 to {MAX_SERVERS}, not {count!r}")
    return int(count), rest


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] in (["-h"], ["--help"]):
        print(usage(), end="")
        return
    if args[:1] == ["train"]:
        command = train_command(args[1:])  # in the caller's folder: --out paths are theirs
    elif args and not args[0].startswith("-"):
        sys.exit(f"attention-lab: unknown command {args[0]!r}\n\n" + usage())
    else:
        servers, options = split_servers(offer_model_dirs(args))
        if servers > 1:
            from .cluster.launch import serve

            sys.exit(serve(servers, options))
        os.chdir(APP_ROOT)
        command = serve_command(options)
    sys.stdout.flush()
    os.execv(sys.executable, command)
