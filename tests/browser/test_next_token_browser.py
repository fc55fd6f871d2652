"""/next-token in headless Chromium, in English (gpt-en) and Chinese (gpt-zh): Most likely, Sample and a candidate each
append the token the model's own logits say, Back takes one off, the link reopens the same text; Chinese tokens show as
characters; no exception, no console error."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
import torch

from devtools.harness import exceptions_on, new_page, open_page, runs, wait_settled
from model import load_pretrained
from model.gpt import LoadedGPT
from tests.app.test_next_token_page import logits_of, seeded_draw, seen

from .figures import figures, real_console_errors, wait_for_figure

pytestmark = pytest.mark.browser
WORDS = {"en": ("Most likely", "Sample", "Back"), "zh": ("最可能", "采样", "撤回")}
REPLACEMENT = "\ufffd"  # "�": a byte token shown as a character it is not


def shipped(lang: str) -> LoadedGPT:
    loaded = load_pretrained(f"gpt-{lang}")
    assert isinstance(loaded, LoadedGPT)
    return loaded


def tokens_in(url: str) -> str:
    return parse_qs(urlparse(url).query).get("tokens", [""])[0]


def act(page, locator) -> None:
    before = runs(page)
    locator.click()
    wait_settled(page, before)
    wait_for_figure(page, "next-token-candidates")


def test_three_tokens_back_and_the_link(browser, app_url, probes_for):
    """In English, then in Chinese: the writer's page in one browser context and each reopened link in another (a new
    context per language and page cost ~2.5 s each of loading Streamlit and plotly into a new renderer)."""
    page, again = new_page(browser), new_page(browser)
    probes = probes_for(page)
    try:
        for lang in ("en", "zh"):
            three_tokens_back_and_the_link(page, again, app_url, lang, probes)
    finally:
        page.context.close()
        again.context.close()


def three_tokens_back_and_the_link(page, again, app_url: str, lang: str, probes) -> None:
    """Most likely, Sample and the third candidate on `page`, Back, then the link opened on `again`."""
    lm = shipped(lang)
    open_page(page, f"{app_url}/next-token?model={lm.name}&lang={lang}")
    wait_for_figure(page, "next-token-candidates")
    most_likely, sample, back = WORDS[lang]
    prompt = lm.task.example
    probs = torch.softmax(logits_of(lm, prompt), 0)
    labels = figures(page)["next-token-candidates"]["y"]
    assert labels == [f"{r}. {seen(lm.vocab.itos[i])}" for r, i in enumerate(torch.topk(probs, 10).indices.tolist(), 1)]
    assert not any(REPLACEMENT in label for label in labels)

    first = int(torch.argmax(probs))
    act(page, page.get_by_role("button", name=most_likely, exact=True))
    assert tokens_in(page.url) == str(first)
    text = prompt + lm.vocab.itos[first]
    second = seeded_draw(torch.softmax(logits_of(lm, text), 0), 1)
    act(page, page.get_by_role("button", name=sample, exact=True))
    assert tokens_in(page.url) == f"{first}.{second}"
    text += lm.vocab.itos[second]
    third = int(torch.topk(logits_of(lm, text), 3).indices[2])
    act(page, page.locator(".st-key-nt_pick_2 button"))
    assert tokens_in(page.url) == f"{first}.{second}.{third}"
    written = page.locator(".st-key-nt_written_text").inner_text()
    assert written.replace("\u00a0", " ").replace("↵\n", "\n").startswith(prompt)
    assert REPLACEMENT not in written
    act(page, page.get_by_role("button", name=back, exact=True))
    assert tokens_in(page.url) == f"{first}.{second}"
    shown = figures(page)
    assert exceptions_on(page) == []
    assert real_console_errors(page, probes) == []

    open_page(again, page.url)
    wait_for_figure(again, "next-token-candidates")
    reopened = figures(again)
    for role in ("next-token-candidates", "next-token-rows", "logit-lens"):
        assert (reopened[role]["title"], reopened[role]["y"]) == (shown[role]["title"], shown[role]["y"]), role
    assert again.locator(".st-key-nt_written_text").inner_text() == page.locator(".st-key-nt_written_text").inner_text()
    assert exceptions_on(again) == []
