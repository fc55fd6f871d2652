"""The Lesson page in a browser: Page Down and → step the slides (and ?slide= follows), a Chinese slide draws
its live view, the shipped lesson downloads and uploads back as the same lesson, a bad file is explained; in the
presenter view on a 1280×720 projector the words are large and the live view's figure or formula is above the fold;
a poem is written live on the Chinese Next-token slide and opened on its page."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlparse

import pytest
import torch

from attention_lab.chart import CHARTS
from devtools.harness import exceptions_on, new_page, open_page, runs, wait_settled
from model import load_pretrained
from model.gpt import LoadedGPT
from services.lessons import parse_lesson, shipped_file, shipped_lessons
from tests.app.test_next_token_page import logits_of

from .figures import real_console_errors, wait_for_figure
from .test_presenter import CHART_JS, FONT_JS, LAYOUT_JS, inside

pytestmark = pytest.mark.browser


def slide_in_url(page) -> str:
    return parse_qs(urlparse(page.url).query).get("slide", ["1"])[0]  # the first slide is the default: not in the link


def press(page, key: str) -> None:
    """A key pressed with the focus on the page's title (out of any select), as after a click on the slide."""
    before = runs(page)
    page.get_by_test_id("stMain").locator("h1").first.click()
    page.keyboard.press(key)
    wait_settled(page, before)


def test_keys_step_the_slides_a_chinese_slide_renders_and_the_lesson_downloads_and_uploads(
    page, probes, app_url, tmp_path
):
    """The keys on a Chinese slide, then the download and uploads, in one browser context (a new one costs ~2.5 s of
    loading Streamlit and plotly into a new renderer)."""
    keys_step_the_slides_and_a_chinese_slide_renders(page, probes, app_url)
    download_then_upload_gives_the_same_lesson_and_a_bad_file_is_explained(page, app_url, tmp_path)


def keys_step_the_slides_and_a_chinese_slide_renders(page, probes, app_url):
    open_page(page, f"{app_url}/lesson?lang=zh&slide=1")
    main = page.get_by_test_id("stMain")
    assert main.get_by_role("heading", name="为什么需要注意力？").is_visible()
    press(page, "PageDown")
    assert slide_in_url(page) == "2"
    assert main.get_by_role("heading", name="查询、键和值").is_visible()
    press(page, "ArrowRight")
    assert slide_in_url(page) == "3"
    press(page, "PageUp")
    assert slide_in_url(page) == "2"
    assert main.locator(".katex").count() > 0  # the step's formula, typeset
    assert page.locator(CHARTS).count() >= 1
    assert exceptions_on(page) == []
    assert real_console_errors(page, probes) == []


def download_then_upload_gives_the_same_lesson_and_a_bad_file_is_explained(page, app_url, tmp_path):
    open_page(page, f"{app_url}/lesson?lang=en&slide=4")
    page.get_by_text("Download, upload").click()
    with page.expect_download() as download:
        page.get_by_role("button", name="Download this lesson (JSON)").click()
    path = tmp_path / "downloaded.json"
    download.value.save_as(path)
    assert path.read_bytes() == shipped_file("attention-basics")

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "attention-lab-lesson/1", "title": {"en": "x", "zh": "x"}, "slides": []}))
    before = runs(page)
    page.locator('input[type="file"][accept*=".json"]').set_input_files(bad)
    wait_settled(page, before)
    error = page.get_by_test_id("stAlertContentError")
    assert "A lesson has 1 to 40 slides; this one has 0." in error.inner_text()
    assert page.get_by_role("heading", name="Scaling by √dₖ").is_visible()  # the lesson on screen stays

    edited = parse_lesson(path.read_bytes()).to_dict()
    edited["title"]["en"] = "My edited lesson"
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(edited, ensure_ascii=False), encoding="utf-8")
    before = runs(page)
    page.locator('input[type="file"][accept*=".json"]').set_input_files(mine)
    wait_settled(page, before)
    # The uploaded lesson opens at its first slide (the default, so `slide` leaves the link). Under a loaded machine
    # the upload's run can settle before the link is written: wait for it (a link left at slide 4 still fails).
    page.wait_for_function("() => !new URLSearchParams(location.search).has('slide')", timeout=15_000)
    assert slide_in_url(page) == "1"
    assert "lesson-" in parse_qs(urlparse(page.url).query)["lesson"][0]
    shown = [box.input_value() for box in page.locator('[data-testid="stSelectbox"] input').all()]
    assert "My edited lesson (uploaded)" in shown
    assert exceptions_on(page) == []


def test_the_presenter_view_on_a_projector_and_a_poem_written_live_on_the_slide(browser, app_url, probes_for):
    """Both on one 1280×720 screen, in one browser context."""
    page = new_page(browser, viewport=(1280, 720))
    probes = probes_for(page)
    try:
        the_presenter_view_on_a_projector(page, app_url, probes)
        a_poem_written_live_on_the_slide_and_opened_on_its_page(page, app_url, probes)
    finally:
        page.context.close()


def the_presenter_view_on_a_projector(page, app_url, probes):
    width, height = 1280, 720
    open_page(page, f"{app_url}/lesson?lang=en&slide=1")
    normal = page.evaluate(FONT_JS, "An RNN encoder")
    open_page(page, f"{app_url}/lesson?lang=en&present=true&slide=1")
    assert page.evaluate(FONT_JS, "An RNN encoder") >= 1.4 * normal
    page.wait_for_function(CHART_JS, arg="bottleneck", timeout=60_000)  # the RNN page's bottleneck curves
    assert inside(page.evaluate(CHART_JS, "bottleneck"), width, height)  # beside the words, not under them
    assert page.evaluate(LAYOUT_JS)["collapsed"] == "true"
    press(page, "PageDown")
    press(page, "ArrowRight")
    assert slide_in_url(page) == "3" and "present=true" in page.url
    assert inside(page.evaluate(LAYOUT_JS)["formula"], width, height)  # step 2's formula
    press(page, "ArrowLeft")
    assert slide_in_url(page) == "2"
    assert exceptions_on(page) == [] and real_console_errors(page, probes) == []


def a_poem_written_live_on_the_slide_and_opened_on_its_page(page, app_url, probes):
    """Slide 17 in Chinese on a 1280×720 screen: Most likely three times appends gpt-zh's argmax each time (the model's
    own logits, computed here), Back takes one off, and Open this view opens /next-token with the same text."""
    lm = load_pretrained("gpt-zh")
    assert isinstance(lm, LoadedGPT)
    slides = shipped_lessons()["attention-basics"].slides
    n = next(n for n, s in enumerate(slides, 1) if s.page == "next-token" and s.state.get("model") == "gpt-zh")
    prompt = str(slides[n - 1].state["input"])
    open_page(page, f"{app_url}/lesson?lang=zh&slide={n}")
    wait_for_figure(page, "next-token-candidates")
    text, ids = prompt, []
    for _ in range(3):
        ids.append(int(torch.argmax(logits_of(lm, text))))
        text += lm.vocab.itos[ids[-1]]
        before = runs(page)
        page.get_by_role("button", name="最可能", exact=True).click()
        wait_settled(page, before)
    box = page.locator(".st-key-nt_slide_written_text")
    assert box.inner_text().replace("↵\n", "\n").startswith(text)
    before = runs(page)
    page.get_by_role("button", name="撤回", exact=True).click()
    wait_settled(page, before)
    assert not box.inner_text().replace("↵\n", "\n").startswith(text)
    before = runs(page)
    page.get_by_role("button", name="打开这个视图 ↗").click()
    wait_settled(page, before)
    page.wait_for_url("**/next-token?**", timeout=60_000)
    wait_for_figure(page, "next-token-candidates")
    assert parse_qs(urlparse(page.url).query)["tokens"][0] == ".".join(str(i) for i in ids[:2])
    page_text = page.locator(".st-key-nt_written_text").inner_text().replace("↵\n", "\n")
    assert page_text.startswith(prompt + lm.vocab.itos[ids[0]] + lm.vocab.itos[ids[1]])
    assert exceptions_on(page) == [] and real_console_errors(page, probes) == []
