"""The Positional-encoding page in headless Chromium: a new input redraws the model's encoding with its
tokens, and the switch that removes the encoding shows the ablated run; no exception, no console error."""

from __future__ import annotations

import pytest

from devtools.harness import exceptions_on, open_page

from .figures import figures, numbered, real_console_errors, type_input, wait_for_figure

pytestmark = pytest.mark.browser


def test_typing_a_new_input_redraws_the_models_encoding(page, app_url, probes):
    open_page(page, f"{app_url}/positional-encoding")
    assert "pe-table" in figures(page)
    type_input(page, "a young horse finds the black mouse")
    figs = figures(page)
    tokens = ["a", "young", "horse", "finds", "the", "black", "mouse", "<eos>"]
    assert figs["model-pe"]["y"] == numbered(tokens)
    assert figs["ablation-with"]["x"] == numbered(tokens)
    page.get_by_text("Remove the positional encoding at inference").click()
    wait_for_figure(page, "ablation-without")
    figs = figures(page)
    assert figs["ablation-without"]["x"] == numbered(tokens)
    assert "no_pe=true" in page.url
    assert exceptions_on(page) == []
    assert real_console_errors(page, probes) == []
