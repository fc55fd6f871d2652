"""The landing page opens in a real browser with no exception and no console error."""

import pytest

from .harness import exceptions_on, open_page

pytestmark = pytest.mark.browser


def test_home_renders(page, app_url):
    open_page(page, app_url)
    assert page.get_by_role("heading", name="Attention Lab").is_visible()
    assert exceptions_on(page) == []
    assert page.console_errors == []
