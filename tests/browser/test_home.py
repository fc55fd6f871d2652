"""The landing page links every page; a shared link opens its page even as a fresh server's first visit."""

from urllib.parse import urlparse

import pytest

from .harness import exceptions_on, new_page, open_page, runs, streamlit_server, wait_settled

pytestmark = pytest.mark.browser

PAGES = {
    "Attention": "Attention",
    "Step by step": "Attention, step by step",
    "Positional encoding": "Positional encoding",
    "Inside a layer": "Inside a layer",
    "Train": "Train",
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
    assert urlparse(page.url).path == "/attention"  # the link also carries lang=
    assert page.get_by_role("heading", name="Attention", exact=True).is_visible()
    assert exceptions_on(page) == []
    assert page.console_errors == []


def test_deep_link_is_a_fresh_servers_first_visit(browser, probes_for):
    """Regression: with the scripts in a folder named pages/, Streamlit ran the first visit after a start as
    an old-style multipage app: a "Page not found" dialog, or the page without app.py's sidebar."""
    with streamlit_server() as url:
        page = new_page(browser)
        probes = probes_for(page)
        open_page(page, f"{url}/step-by-step?step=5")
        assert page.get_by_role("heading", name="Attention, step by step").is_visible()
        assert page.get_by_role("dialog").count() == 0
        assert page.get_by_test_id("stSidebar").get_by_text("Model").first.is_visible()
        assert exceptions_on(page) == []
        assert len(page.console_errors) == len(probes)  # only the frontend's known subpage probes (404)
        assert all("404" in e for e in page.console_errors)
        page.context.close()
