"""What AppTest cannot see, in Chromium on one shared server: HTML, <script> and Markdown links typed as tokens stay
inert text (no injected element, no script run, no alert), and the upload widget itself turns away a file over
its size cap and a file that is not a .zip before the server reads it."""

from __future__ import annotations

import os
from urllib.parse import quote

import pytest

from devtools.harness import exceptions_on, open_page

pytestmark = pytest.mark.browser
PAYLOAD = (
    "<script>window.__xss=1;alert(1)</script> <img src=x onerror=window.__xss=2;alert(2)> "
    "**bold** [link](javascript:window.__xss=3) <svg/onload=alert(4)>"
)
INJECTED_JS = """() => ({
  scripts: Array.from(document.querySelectorAll('script')).filter((s) => s.textContent.includes('__xss')).length,
  images: document.querySelectorAll('img[src="x"]').length,
  svgs: Array.from(document.querySelectorAll('svg')).filter((s) => s.getAttribute('onload')).length,
  links: document.querySelectorAll('a[href^="javascript"]').length,
  bold: Array.from(document.querySelectorAll('[data-testid="stAlert"] strong')).filter((b) => b.textContent === 'bold')
    .length,
  xss: window.__xss ?? 0,
})"""


def test_html_script_and_markdown_tokens_stay_inert_text(page, app_url):
    """On /attention, then on /positional-encoding, in one browser context (a new one costs ~2.5 s of loading
    Streamlit and plotly into a new renderer)."""
    dialogs = []

    def dismiss(dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    for path in ("attention", "positional-encoding"):
        open_page(page, f"{app_url}/{path}?text={quote(PAYLOAD)}")
        alerts = " ".join(page.get_by_test_id("stAlert").all_inner_texts())
        assert "“<script>window.__xss=1;alert(1)…”" in alerts and "“**bold**”" in alerts, (path, alerts)
        injected = page.evaluate(INJECTED_JS)
        assert injected == {"scripts": 0, "images": 0, "svgs": 0, "links": 0, "bold": 0, "xss": 0}, (path, injected)
        assert dialogs == [] and exceptions_on(page) == [], path


def test_the_upload_widget_turns_away_an_oversized_file_and_a_non_zip(page, app_url):
    open_page(page, f"{app_url}/train")
    page.get_by_text("Upload a model you trained before").click()
    # the Train page's own uploader (the sidebar has one too, for a model folder's zip)
    chooser = page.locator('[data-testid="stMainBlockContainer"] [data-testid="stFileUploaderDropzoneInput"]')
    chooser.set_input_files({"name": "big.zip", "mimeType": "application/zip", "buffer": os.urandom(17 * 2**20)})
    page.get_by_text("File must be 16.0MB or smaller.").wait_for(timeout=30_000)
    pickle = {"name": "model.safetensors", "mimeType": "application/octet-stream", "buffer": b"\x80\x04N."}
    chooser.set_input_files(pickle)
    page.get_by_text("not allowed").first.wait_for(timeout=30_000)
    assert "This file cannot be used" not in page.inner_text("body")  # neither file reached the server's loader
    assert exceptions_on(page) == []
