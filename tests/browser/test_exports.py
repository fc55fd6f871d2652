"""Downloads in headless Chromium: plotly's own camera button saves a chart as a 1920×1080 PNG, then (after the
sidebar's format choice) as an SVG of that size, each named after what it shows; the trace button saves an NPZ that
holds the trace of the page's input."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PIL import Image

from attention_lab.chart import CHARTS
from devtools.harness import exceptions_on, open_page, runs, wait_settled
from model import load_pretrained

from .figures import real_console_errors, wait_for_figure

pytestmark = pytest.mark.browser
TEXT = "the big red dog sees a small cat"
SVG_NS = "{http://www.w3.org/2000/svg}"


def camera_download(page, role: str, title: str = "Download plot"):
    """Hover the chart drawn with this layout.meta role, click the modebar's camera button (its tooltip starts with
    `title`), return the download."""
    index = page.evaluate(
        """([chartSelector, role]) => Array.from(document.querySelectorAll(`${chartSelector} .js-plotly-plot`))
             .findIndex((el) => el.layout && el.layout.meta === role)""",
        [CHARTS, role],
    )
    chart = page.locator(f"{CHARTS} .js-plotly-plot").nth(index)
    chart.hover()
    with page.expect_download(timeout=60_000) as info:
        chart.locator(f'.modebar-btn[data-title^="{title}"]').click()
    return info.value


def test_chart_and_trace_downloads(page, app_url, probes):
    open_page(page, f"{app_url}/attention?lang=en&text={TEXT.replace(' ', '+')}&kind=encoder&layer=2&head=3")
    png = camera_download(page, "attention-head")
    assert png.suggested_filename == "attention_translate_encoder_L2_H3.png"
    with Image.open(io.BytesIO(png.path().read_bytes())) as image:
        assert (image.format, image.size) == ("PNG", (1920, 1080))

    before = runs(page)
    page.get_by_test_id("stSidebar").get_by_role("radio", name="SVG", exact=True).click()
    wait_settled(page, before)
    wait_for_figure(page, "attention-head")
    svg = camera_download(page, "attention-head")
    assert svg.suggested_filename == "attention_translate_encoder_L2_H3.svg"
    root = ET.fromstring(svg.path().read_bytes())
    assert root.tag == f"{SVG_NS}svg"
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("1920", "1080", "0 0 960 540")
    texts = {t.text for t in root.iter(f"{SVG_NS}text")}
    assert "Layer 2 · Head 3" in texts and "3 · dog" in texts  # the chart itself, with its title and tokens

    with page.expect_download(timeout=60_000) as info:
        page.get_by_role("button", name="⬇️ Every number (NPZ)").click()
    npz_download = info.value
    assert npz_download.suggested_filename == "trace_attention_translate.npz"
    npz = np.load(io.BytesIO(npz_download.path().read_bytes()))
    trace = load_pretrained("translate").run(TEXT)
    assert set(npz.files) == set(trace) | {"tokens.src", "tokens.tgt"}
    for name in trace:  # the server sums on one torch thread: the last bits may differ from this process's run
        np.testing.assert_allclose(npz[name], trace[name].numpy(), rtol=1e-4, atol=1e-5, err_msg=name)
    assert npz["tokens.tgt"].tolist() == trace.tokens("tgt")
    assert exceptions_on(page) == []
    assert real_console_errors(page, probes) == []
