"""A presenter's clicker pressed twice in quick succession moves two steps, however fast the page draws: the second
press, sent before the browser has drawn the first, carried the step picker's old value (ui/presenter/keys.py); the
class across two servers once stopped on step 2 for it (tests/browser/test_classroom.py's Redis test)."""

from __future__ import annotations

import pytest

from devtools.classroom import step_shown
from devtools.harness import exceptions_on, open_page, runs

pytestmark = pytest.mark.browser
# The first press's run has started on the server (or already finished): the second press is a request of its own,
# not merged into the first's while it waits (Streamlit keeps one trigger per button of requests it merges).
STARTED = """(before) => document.querySelector('[data-testid="stApp"]')?.dataset.testScriptState === 'running'
  || window.__lab.finished > before"""


def test_two_quick_page_downs_move_two_steps(page, app_url):
    open_page(page, f"{app_url}/step-by-step?lang=en")
    page.get_by_role("heading", name="Attention, step by step", exact=True).first.click()
    before = runs(page)["finished"]
    page.keyboard.press("PageDown")
    page.wait_for_function(STARTED, arg=before, timeout=60_000)
    page.keyboard.press("PageDown")  # at once: the page has not drawn step 2 yet, unless its run was very quick
    step_shown(page, 3).wait_for(timeout=60_000)
    page.wait_for_timeout(1500)  # no late run takes it back
    assert step_shown(page, 3).is_visible() and not step_shown(page, 2).is_visible()
    assert exceptions_on(page) == []
