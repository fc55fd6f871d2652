"""The Inside-a-layer page in a real browser: four charts, both stacks, an edit, no error anywhere."""

from __future__ import annotations

import pytest

from attention_lab.chart import CHARTS
from devtools.harness import exceptions_on, open_page, runs, wait_settled

pytestmark = pytest.mark.browser


def test_inside_a_layer_draws_and_follows_edits(page, app_url):
    open_page(page, app_url)
    before = runs(page)
    page.locator('[data-testid="stSidebarNavLink"]:has(span[label="Inside a layer"])').click()
    wait_settled(page, before)
    charts = page.locator(CHARTS)
    assert charts.count() == 4
    box = page.get_by_role("textbox", name="Input", exact=True)
    box.fill("a small cat sees the dog")
    before = runs(page)
    box.press("Enter")
    wait_settled(page, before)
    ticks = page.locator(CHARTS).first.locator(".xtick text").all_text_contents()
    assert ticks == ["a", "small", "cat", "sees", "the", "dog", "<eos>"]
    before = runs(page)
    page.get_by_text("Decoder (writes the output)").click()
    wait_settled(page, before)
    assert charts.count() == 4
    assert exceptions_on(page) == []
    assert page.console_errors == []
