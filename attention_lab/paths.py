"""Where the app's own files are: app.py, pages/, locales/, lessons/, .streamlit/config.toml, bench/results/.

In a checkout (and in an editable install of one, `pip install -e .`) they are the checkout's, beside the packages.
A plain `pip install .` copies them into the wheel as attention_lab/app/ (setup.py), next to this file, so an
installed copy serves the app without a checkout.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_INSTALLED = _PACKAGE / "app"
APP_ROOT = _INSTALLED if (_INSTALLED / "app.py").is_file() else _PACKAGE.parent
