#!/usr/bin/env bash
# Set up and run the app: install the Python packages, then serve it on http://localhost:8501.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet --disable-pip-version-check -r requirements.txt
exec python -m streamlit run app.py --server.headless true --browser.gatherUsageStats false "$@"
