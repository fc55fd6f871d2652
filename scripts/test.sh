#!/usr/bin/env bash
# Set up and run every test: Python packages, Chromium for the browser tests, ruff, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
if [ ! -x /usr/bin/chromium ]; then
  echo "Installing Chromium for the browser tests (apt-get)…"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium >/dev/null
fi
ruff check .
ruff format --check .
python -m pytest -q "$@"
