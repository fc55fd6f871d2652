"""The step-by-step page in a real browser: Next through every step, KaTeX renders (Chinese inside \\text{}
too), no errors anywhere; links reopen a view in either language."""

import json
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from devtools.harness import exceptions_on, open_page, runs, wait_settled

pytestmark = pytest.mark.browser


def open_walkthrough(page, app_url):
    """Open the app and go to the page through the sidebar, as a user does."""
    open_page(page, app_url)
    before = runs(page)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Step by step").click()
    wait_settled(page, before)
    assert page.get_by_role("heading", name="Attention, step by step").is_visible()


def click(page, locator):
    before = runs(page)
    locator.click()
    wait_settled(page, before)


def assert_formulas_render(page, step: int):
    assert page.locator('[data-testid="stHeadingWithActionElements"]', has_text=f"Step {step} of 8").count() == 1
    assert page.locator(".katex").count() > 0, f"no KaTeX formula on step {step}"
    errors = page.locator(".katex-error")
    assert errors.count() == 0, [errors.nth(i).get_attribute("title") for i in range(errors.count())]
    assert exceptions_on(page) == []


def test_next_through_every_step(page, app_url):
    """Both sources in turn, in one browser context (a new one costs ~2.5 s of loading Streamlit and plotly into a new
    renderer)."""
    for source, label in (("example", "Worked example"), ("model", "From the model")):
        next_through_every_step(page, app_url, source, label)
    assert page.console_errors == []


def next_through_every_step(page, app_url, source, label):
    open_walkthrough(page, app_url)
    if source != "example":
        click(page, page.get_by_role("radio", name=label))
        assert page.get_by_label("Attention", exact=True).count() >= 1
    for step in range(1, 9):
        assert_formulas_render(page, step)
        if step < 8:
            click(page, page.get_by_role("button", name="Next ▶"))
    assert page.get_by_role("button", name="Next ▶").is_disabled()
    assert "step=8" in page.url
    with page.expect_download() as download:
        page.get_by_role("button", name="This example as JSON").click()
    data = json.loads(Path(download.value.path()).read_text(), parse_constant=refuse)
    assert data["source"] == source  # the id, the same in every language
    assert {"X", "W_Q", "W_K", "W_V", "Q", "K", "V", "scores", "scaled", "masked", "weights", "Z"} <= set(data)
    assert {"W_O", "heads", "out"} <= set(data)
    before = runs(page)
    page.keyboard.press("PageUp")  # a presenter's clicker: back one step
    wait_settled(page, before)
    assert_formulas_render(page, 7)


def refuse(name):
    raise ValueError(f"invalid JSON constant {name}")


def test_links_reopen_the_view_in_either_language_and_the_sidebar_keeps_chinese(page, app_url):
    """The three checks below in turn, in one browser context."""
    a_link_reopens_step_source_and_query(page, app_url)
    a_chinese_link_reopens_the_view_and_formulas_speak_chinese(page, app_url)
    chinese_stays_chinese_when_the_sidebar_opens_the_page(page, app_url)


def a_link_reopens_step_source_and_query(page, app_url):
    """?step=5&source=...&query=3 opens that view. (Opening a deep link makes Streamlit's frontend probe
    /step-by-step/_stcore/health, a 404 in the console on any multipage app, so console errors are not checked.)"""
    open_page(page, app_url)  # a first session, so the server knows its pages before the deep link
    open_page(page, f"{app_url}/step-by-step?step=5&source=From+the+model&query=3")
    assert_formulas_render(page, 5)
    assert page.get_by_role("radio", name="From the model").get_attribute("aria-checked") == "true"
    assert page.locator(".katex", has_text="i=3").count() >= 1  # the softmax follows query token 3


def a_chinese_link_reopens_the_view_and_formulas_speak_chinese(page, app_url):
    """?lang=zh with the source's id: the Chinese label is chosen and written back into the URL; the mask rule's
    Chinese words render in KaTeX (no error box, the glyphs laid out with a width)."""
    open_page(page, app_url)
    open_page(page, f"{app_url}/step-by-step?lang=zh&step=5&source=model&query=3")
    assert page.locator('[data-testid="stHeadingWithActionElements"]', has_text="第 5 步（共 8 步）").count() == 1
    assert page.get_by_role("radio", name="来自模型").get_attribute("aria-checked") == "true"
    assert parse_qs(urlparse(page.url).query)["source"] == ["model"]  # the id, the same in every language
    assert page.locator(".katex", has_text="i=3").count() >= 1
    assert page.locator(".katex", has_text="每一项").count() == 1
    open_page(page, f"{app_url}/step-by-step?lang=zh&step=4&mask=causal")
    assert parse_qs(urlparse(page.url).query)["mask"] == ["causal"]
    rule = page.locator(".katex", has_text="若")
    assert rule.count() == 1 and "可以关注" in rule.inner_text() and "其他情况" in rule.inner_text()
    errors = page.locator(".katex-error")
    assert errors.count() == 0, [errors.nth(i).get_attribute("title") for i in range(errors.count())]
    word = rule.locator(".text", has_text="其他情况").first  # KaTeX's \text{} box: laid out, not zero width
    assert word.bounding_box()["width"] > 30
    assert exceptions_on(page) == []


def chinese_stays_chinese_when_the_sidebar_opens_the_page(page, app_url):
    """Regression: following a link to another page forgot the language (the sidebar switched back to English
    and ?lang= left the URL)."""
    open_page(page, f"{app_url}/?lang=zh")
    before = runs(page)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="逐步演算").click()
    wait_settled(page, before)
    assert page.get_by_role("heading", name="逐步演算注意力").is_visible()
    assert parse_qs(urlparse(page.url).query)["lang"] == ["zh"]
    click(page, page.get_by_role("button", name="下一步 ▶"))
    assert page.locator('[data-testid="stHeadingWithActionElements"]', has_text="第 2 步（共 8 步）").count() == 1
    assert parse_qs(urlparse(page.url).query)["lang"] == ["zh"]
