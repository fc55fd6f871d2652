"""The landing page links every page (a fresh server's first visit: tests/browser/test_fresh_server.py)."""

from urllib.parse import urlparse

import pytest

from devtools.harness import exceptions_on, open_page, runs, wait_settled

pytestmark = pytest.mark.browser

PAGES = {
    "Attention": "Attention",
    "Step by step": "Attention, step by step",
    "Positional encoding": "Positional encoding",
    "Inside a layer": "Inside a layer",
    "Train": "Train",
    "Lesson": "Lesson",
}


def test_home_renders_and_links_every_page(page, app_url):
    open_page(page, app_url)
    assert page.get_by_role("heading", name="Attention Lab").is_visible()
    main = page.get_by_test_id("stMain")
    for link in PAGES:
        assert main.get_by_role("link", name=link, exact=True).is_visible(), link
    before = runs(page)
    main.get_by_role("link", name="Attention", exact=True).click()
    wait_settled(page, before)
    assert urlparse(page.url).path.endswith("/attention")  # and ?lang=en: every link carries its language
    assert page.get_by_role("heading", name="Attention", exact=True).is_visible()
    assert exceptions_on(page) == []
    assert page.console_errors == []
