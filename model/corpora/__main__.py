"""`python -m model.corpora fetch`: download and cache the GPT corpora (idempotent); `... path`: print the cache."""

from __future__ import annotations

import argparse
import sys

from ..errors import LabError
from .cache import ENV_VAR, cache_root
from .registry import fetch_all


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.corpora", description=__doc__.splitlines()[0])
    p.add_argument("command", choices=["fetch", "path"], help=f"fetch the corpora, or print the cache ({ENV_VAR})")
    args = p.parse_args(argv)
    if args.command == "path":
        print(cache_root())
        return 0
    try:
        fetch_all()
    except LabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
