"""Every page's shared link works as a fresh server's very first visit (pages/ sits beside app.py, which
makes Streamlit start in its old multipage mode: see ui/navigation.py), in both languages, on a server started as
the README's app command starts it (attention-lab) and on a bare `streamlit run app.py`.

What differs from page to page on a first visit is only the page script's guard (`require_entry()` as its first
statement, and a file named after its URL path): the guard's detour through app.py is the same code for every page.
So every page's script is checked for its guard (test_every_page_script_starts_with_its_guard), and four fresh
servers, one per launcher and language, prove the detour in Chromium: the home page (the default page, no path) and
a deep link to a page, each on both launchers and in both languages. One fresh server per page (nine) proved the same
detour nine times, at ~7 s a server."""

from __future__ import annotations

import ast

import pytest

from attention_lab.paths import APP_ROOT
from devtools.harness import exceptions_on, new_page, open_page, streamlit_server
from ui.navigation import PAGES, page_spec

from .figures import real_console_errors

pytestmark = pytest.mark.browser

SIDEBAR_MODEL_LABEL = {"en": "Model", "zh": "模型"}
# (page, language, through the app command): each launcher serves home and a deep link, each in both languages.
FIRST_VISITS = [("home", "zh", True), ("step-by-step", "en", True), ("train", "zh", False), ("next-token", "en", False)]


@pytest.mark.parametrize("spec", PAGES, ids=lambda spec: spec.url_path)
def test_every_page_script_starts_with_its_guard(spec):
    """The first statement after the imports of each page script is `require_entry()`, which sends a bare run of it
    (a fresh server's first visit) through app.py; and its file is named after its URL path."""
    script = APP_ROOT / spec.script
    assert script.name == f"{spec.url_path}.py"
    body = [node for node in ast.parse(script.read_text()).body if not isinstance(node, ast.Import | ast.ImportFrom)]
    body = [node for node in body if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))]
    first = body[0]
    assert isinstance(first, ast.Expr) and isinstance(first.value, ast.Call), ast.dump(first)
    assert ast.unparse(first.value) == "require_entry()", ast.unparse(first)


@pytest.mark.parametrize(("path", "lang", "app_command"), FIRST_VISITS, ids=[visit[0] for visit in FIRST_VISITS])
def test_first_visit_of_a_fresh_server_opens_the_linked_page(browser, probes_for, path, lang, app_command):
    assert page_spec(path) is not None, path
    with streamlit_server(app_command=app_command) as url:
        page = new_page(browser)
        probes = probes_for(page)
        path = "" if path == "home" else path
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
