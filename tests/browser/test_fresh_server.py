"""Every page's shared link works as a fresh server's very first visit (pages/ sits beside app.py, which
makes Streamlit start in its old multipage mode: see ui/navigation.py), in both languages, on a server started as
the README's app command starts it (attention-lab) and on a bare `streamlit run app.py`."""

from __future__ import annotations

import pytest

from devtools.harness import exceptions_on, new_page, open_page, streamlit_server
from ui.navigation import PAGES

from .figures import real_console_errors

pytestmark = pytest.mark.browser

SIDEBAR_MODEL_LABEL = {"en": "Model", "zh": "模型"}


@pytest.mark.parametrize("spec", PAGES, ids=lambda spec: spec.url_path)
def test_first_visit_of_a_fresh_server_opens_the_linked_page(browser, probes_for, spec):
    lang = "zh" if spec.url_path in ("attention", "train", "home") else "en"  # both languages, one server each
    app_command = spec.url_path in ("attention", "step-by-step", "home", "lesson")  # both launchers, both languages
    with streamlit_server(app_command=app_command) as url:
        page = new_page(browser)
        probes = probes_for(page)
        path = "" if spec.url_path == "home" else spec.url_path
        open_page(page, f"{url}/{path}?lang={lang}")
        assert page.url.split("?")[0].rstrip("/") == f"{url}/{path}".rstrip("/")
        assert page.get_by_role("dialog").count() == 0  # no "Page not found"
        sidebar = page.get_by_test_id("stSidebar")
        assert sidebar.get_by_text(SIDEBAR_MODEL_LABEL[lang], exact=True).first.is_visible()  # app.py's sidebar
        nav = page.get_by_test_id("stSidebarNav")
        assert nav.get_by_text("step-by-step", exact=True).count() == 0  # not the old file-name navigation
        selected = nav.locator('a[aria-current="page"]')
        assert selected.count() == 1 and selected.get_attribute("href").rstrip("/").endswith(path)
        assert exceptions_on(page) == []
        assert real_console_errors(page, probes) == []
        page.context.close()
