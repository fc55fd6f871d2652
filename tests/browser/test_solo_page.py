"""One person's edit reruns the page alone (ui/solo_page.py): the server sends the page again and nothing of the
sidebar, the link still follows what the page shows, a reload opens it, and the sidebar's own controls still rerun
the whole app. In both languages."""

from __future__ import annotations

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from devtools.harness import open_page, runs, wait_settled

pytestmark = pytest.mark.browser

MAIN, SIDEBAR = 0, 1  # Streamlit's root containers: a delta's path starts with one of them
WORDS = {
    "en": {"input": "Input", "model": "Model", "tokens": "Source tokens:"},
    "zh": {"input": "输入", "model": "模型", "tokens": "源序列词元："},
}


def record_frames(page) -> list[bytes]:
    """Every binary websocket frame the page receives from now on (Streamlit's ForwardMsgs)."""
    frames: list[bytes] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f) if isinstance(f, bytes) else 0))
    return frames


def delta_roots(frames: list[bytes]) -> list[int]:
    """The root container of each element or block the frames carry."""
    roots = []
    for frame in frames:
        message = ForwardMsg()
        message.ParseFromString(frame)
        if message.WhichOneof("type") == "delta":
            roots.append(message.metadata.delta_path[0])
    return roots


def type_into(page, label: str, text: str) -> None:
    box = page.get_by_label(label, exact=True)
    before = runs(page)
    box.fill(text)
    box.press("Enter")
    wait_settled(page, before)


def main_text(page) -> str:
    return page.get_by_test_id("stMain").inner_text()


def an_edit_reruns_the_page_alone_and_the_link_follows_it(page, app_url, probes, lang, frames):
    words = WORDS[lang]
    frames.clear()
    open_page(page, f"{app_url}/attention?model=reverse&lang={lang}")
    assert SIDEBAR in delta_roots(frames)  # the first run draws the app: its sidebar too
    frames.clear()

    type_into(page, words["input"], "7 0 2 8 5")
    roots = delta_roots(frames)
    assert len(roots) > 20 and set(roots) == {MAIN}  # the page again, and nothing of the sidebar
    assert "text=7+0+2+8+5" in page.url and "model=reverse" in page.url and f"lang={lang}" in page.url
    assert "`7` `0` `2` `8` `5`" not in main_text(page)  # drawn as token chips, not as markdown source
    tokens_line = page.get_by_test_id("stMarkdown").filter(has_text=words["tokens"]).first.inner_text()
    assert tokens_line.split()[-6:] == ["7", "0", "2", "8", "5", "<eos>"]

    page.reload()
    open_page(page, page.url)
    assert page.get_by_label(words["input"], exact=True).input_value() == "7 0 2 8 5"  # the link holds the edit

    frames.clear()  # a control of the sidebar: the whole app reruns, the sidebar with it
    before = runs(page)
    page.get_by_role("combobox", name=words["model"], exact=True).click()
    page.get_by_role("option", name="translate", exact=False).first.click()
    wait_settled(page, before)
    assert SIDEBAR in delta_roots(frames) and MAIN in delta_roots(frames)
    assert "model=reverse" not in page.url


def test_an_edit_reruns_the_page_alone_and_the_link_follows_it(page, app_url, probes):
    """In English, then in Chinese, in one browser context (a new one costs ~2.5 s of loading Streamlit and plotly
    into a new renderer)."""
    frames = record_frames(page)
    for lang in ("en", "zh"):
        an_edit_reruns_the_page_alone_and_the_link_follows_it(page, app_url, probes, lang, frames)
