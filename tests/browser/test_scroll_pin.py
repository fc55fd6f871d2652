"""The scroll to a teacher's changed control (ui.classroom.scroll) keeps that control at the top while the page above
it still grows (charts drawing late on a slow phone pushed it off the screen), and lets go as soon as the reader moves
the page. The growth is made by hand here: a spacer above the control, grown after the scroll."""

from __future__ import annotations

import pytest

from devtools.harness import new_page, open_page
from ui.classroom.scroll import PIN_MS, scroll_script

pytestmark = pytest.mark.browser

PHONE = (390, 844)
TARGET = '[data-testid="stMain"] .st-key-layer'
# Safari (every iPhone) has no scroll anchoring, and Chromium's let the picker go in the failure this was written
# for; with it on, Chromium would keep the picker in place by itself here, so it is off, as on an iPhone.
SPACER = """() => { const d = document.createElement('div'); d.id = 'grow'; d.style.height = '0px';
  const main = document.querySelector('[data-testid="stMain"] [data-testid="stMainBlockContainer"]');
  main.prepend(d); document.querySelector('[data-testid="stMain"]').style.overflowAnchor = 'none'; }"""
TOP = f"() => document.querySelector('{TARGET}').getBoundingClientRect().top"
AT_THE_TOP = f"() => {{ const top = ({TOP})(); return top >= 0 && top < 200; }}"


def scrolled_phone(page, app_url):
    """The phone `page` on /attention, scrolled by the script to the layer picker, with a spacer above the picker."""
    open_page(page, f"{app_url}/attention?model=reverse&lang=en")
    page.evaluate(SPACER)
    assert page.evaluate(TOP) > PHONE[1]  # the picker starts below the first screen
    page.evaluate(scroll_script(["layer"], 1))
    page.wait_for_function(AT_THE_TOP, timeout=30_000)
    return page


def grow(page, px: int) -> None:
    page.evaluate(f"() => {{ document.getElementById('grow').style.height = '{px}px'; }}")


def test_the_pin_holds_the_control_while_the_page_grows_and_lets_a_reader_who_scrolls_go(browser, app_url):
    """Both cases on one phone's browser context, each on /attention opened afresh (a new context costs ~2.5 s of
    loading Streamlit and plotly into a new renderer)."""
    page = new_page(browser, viewport=PHONE)
    try:
        the_control_scrolled_to_stays_at_the_top_while_the_page_above_it_grows(scrolled_phone(page, app_url))
        a_reader_who_scrolls_is_left_where_they_scrolled(scrolled_phone(page, app_url))
    finally:
        page.context.close()


def the_control_scrolled_to_stays_at_the_top_while_the_page_above_it_grows(page) -> None:
    grow(page, 1500)  # as a chart drawn late above it would
    assert page.evaluate(TOP) > PHONE[1]  # pushed off the screen for a moment
    page.wait_for_function(AT_THE_TOP, timeout=PIN_MS)  # and put back while the pin holds


def a_reader_who_scrolls_is_left_where_they_scrolled(page) -> None:
    page.mouse.move(200, 400)
    page.mouse.wheel(0, 10)  # the reader moves the page: the pin lets go
    page.wait_for_timeout(300)
    grow(page, 1500)
    page.wait_for_timeout(1500)  # ten of the pin's checks, had it not let go
    assert page.evaluate(TOP) > PHONE[1]
