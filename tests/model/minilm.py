"""MiniLM for the tests, loaded once per test session from the installed package (bash scripts/test.sh installs it:
requirements-nodeps.txt). Outside CI a missing package skips with the install line; in CI (CI set) it fails, so a
MiniLM test can never be skipped silently there."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

from model.bert import INSTALL, LoadedEncoder, is_installed, load_minilm
from model.bert.package import model_folder


@functools.cache
def _load() -> LoadedEncoder:
    return load_minilm()


def minilm() -> LoadedEncoder:
    if not is_installed():
        message = f"MiniLM is not installed ({INSTALL})"
        if os.environ.get("CI"):
            pytest.fail(f"MiniLM tests must run in CI: {message}")
        pytest.skip(message)
    return _load()


def minilm_folder() -> Path:
    """The installed package's model/ folder, whose files minilm() loads (model_folder(), checked to be there)."""
    folder = model_folder()
    assert folder is not None, f"MiniLM is not installed ({INSTALL})"
    return folder
