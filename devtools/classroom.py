"""A class in Chromium, for the classroom browser tests and bench/classroom.py: start it, join it, wait for a step.

A page in a class runs a small fragment every half second, so "the page is settled" (harness.wait_settled)
rarely holds there: these helpers wait for what the page shows instead.
"""

from __future__ import annotations

import io
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

from .harness import new_page, streamlit_server
from .redis_server import redis_server

if TYPE_CHECKING:  # playwright is imported where a browser is driven, not by every user of this module
    from playwright.sync_api import Page

STEP_HEADING = '[data-testid="stHeadingWithActionElements"]'


def room_of(page) -> tuple[str, str | None]:
    """(room code, key) from a page's URL."""
    query = parse_qs(urlsplit(page.url).query)
    return query["room"][0], query.get("key", [None])[0]


def start_class(page, app_url: str, lang: str = "en") -> tuple[str, str]:
    """Open the app, click Start a class, wait for the join dialog; returns (code, key)."""
    page.goto(f"{app_url}/?lang={lang}", timeout=120_000)
    # a fresh server's first page imports the model stack: ~5 s on a quiet machine, 64 s measured at load average 20
    page.get_by_role("button", name="Start a class" if lang == "en" else "开始上课").click(timeout=120_000)
    page.get_by_role("dialog").wait_for(timeout=60_000)
    page.wait_for_function("() => new URL(location.href).searchParams.has('key')", timeout=30_000)
    code, key = room_of(page)
    if key is None:  # the wait above saw it in the URL
        raise RuntimeError(f"no key in the URL after Start a class: {page.url}")
    return code, key


def close_dialog(page) -> None:
    page.keyboard.press("Escape")
    page.get_by_role("dialog").wait_for(state="detached", timeout=10_000)


def join(page, app_url: str, code: str, lang: str = "en", key: str | None = None) -> None:
    """Open the join link (optionally with a key, as a guessing student would) and wait for the class panel."""
    extra = f"&key={key}" if key else ""
    page.goto(f"{app_url}/?room={code}&lang={lang}{extra}", timeout=120_000)
    page.get_by_role("button", name="Explore on my own" if lang == "en" else "自己探索").wait_for(timeout=60_000)


def go_to(page, link_name: str, heading: str) -> None:
    """Click a page in the sidebar's navigation, wait for its title, and click the title: a key pressed in a
    page that has no focus yet (a presenter's clicker sends PageDown) can be lost or come late."""
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=link_name).click()
    title = page.get_by_role("heading", name=heading, exact=True).first
    title.wait_for(timeout=60_000)
    title.click()


def step_shown(page, step: int):
    return page.locator(STEP_HEADING, has_text=f"Step {step} of 8")


def press_next(page, step: int, timeout_s: float = 60.0, tries: int = 3) -> None:
    """Press Page Down (a presenter's clicker: Next) on a walkthrough page showing step `step` − 1, until it shows
    `step`. The press is Streamlit's button shortcut: it is lost when it comes before the Next button is drawn (on a
    loaded machine a page's title comes well before its buttons), so the button is awaited first; and pressed again
    only while the page still shows the step before (a press that came late but not lost must not step twice)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.locator("button", has_text="▶").first.wait_for(timeout=timeout_s * 1000)  # ▶ in every language and view
    for _ in range(tries):
        page.keyboard.press("PageDown")
        try:
            step_shown(page, step).wait_for(timeout=timeout_s * 1000 / tries)
            return
        except PlaywrightTimeout:
            if not step_shown(page, step - 1).is_visible():
                raise
    raise AssertionError(f"Page Down did not move the page to step {step} in {tries} presses")


def wait_for_step(page, step: int, timeout_s: float = 30.0) -> float:
    """Wait until the page's walkthrough heading reads step `step`; returns the seconds it took."""
    start = time.monotonic()
    step_shown(page, step).wait_for(timeout=timeout_s * 1000)
    return time.monotonic() - start


def qr_text(page) -> list[str]:
    """The text of the QR code in the teacher's join dialog, read back with zxing-cpp."""
    import zxingcpp
    from PIL import Image

    src = page.get_by_role("dialog").get_by_role("img").first.get_attribute("src")
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(page.url))
    data = page.request.get(src if src.startswith("http") else origin + src).body()
    return [result.text for result in zxingcpp.read_barcodes(Image.open(io.BytesIO(data)))]


@contextmanager
def class_across_two_servers(browser, folder: Path) -> Iterator[tuple[Page, Page, str, str]]:
    """A real redis-server and two app servers on it; a teacher's page on the first, a student's on the second (each
    in its own browser context, 1280×720): yields (teacher, student, server A's URL, server B's URL)."""
    with redis_server(folder) as redis:
        env = {"ATTENTION_LAB_REDIS_URL": redis.url}
        with streamlit_server(env=env) as server_a, streamlit_server(env=env) as server_b:
            teacher, student = new_page(browser, (1280, 720)), new_page(browser, (1280, 720))
            try:
                yield teacher, student, server_a, server_b
            finally:
                teacher.context.close()
                student.context.close()


def ask_the_class(teacher, tries: int = 3) -> None:
    """Open the teacher's "❓ Ask the class" panel and ask, until the teacher's page shows the question open (its
    "Close the question" button). A click that lands while a fragment redraws the panel is lost in the browser, and
    asking the open question again changes nothing in the room, so the click is tried again; a question that reached
    the teacher's page but no student is then the app's fault, not the click's."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(tries):
        expander = teacher.get_by_test_id("stExpander").filter(has_text="❓ Ask the class").first
        if expander.locator("details").get_attribute("open") is None:
            expander.locator("summary").click()
        try:
            teacher.get_by_role("button", name="Ask the class").click(timeout=10_000)
            teacher.get_by_role("button", name="Close the question").wait_for(timeout=15_000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError("the teacher's question did not open")
