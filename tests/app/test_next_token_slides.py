"""The lesson's two Next-token slides (the next token and sampling on gpt-en, a poem written live on gpt-zh) in English
and Chinese: the bars are softmax(z / T) of the model's own logits for the slide's prompt (and their renormalised
share after the slide's top-k), Most likely appends the argmax of those logits, Back takes it away, and "Open this
view" opens /next-token with the same prompt and the written token."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from streamlit.testing.v1 import AppTest

from model import load_pretrained
from model.gpt import LoadedGPT
from services.lessons import shipped_lessons

from .test_attention_page import array, figures
from .test_gpt_lesson import slide

SLIDES = shipped_lessons()["attention-basics"].slides
NEXT_TOKEN = [n for n, slide in enumerate(SLIDES, 1) if slide.page == "next-token"]
SHOWN = 10  # bars on the slide
CASES = [pytest.param(lang, n, id=f"{lang}-slide-{n}") for n in NEXT_TOKEN for lang in ("en", "zh")]


def click(at: AppTest, key: str) -> None:
    at.button(key=key).click().run()
    assert not at.exception, [e.value for e in at.exception]


def gpt(name: str) -> LoadedGPT:
    lm = load_pretrained(name)
    assert isinstance(lm, LoadedGPT)
    return lm


def logits_of(lm: LoadedGPT, text: str) -> torch.Tensor:
    """The module's own logits for the token after `text` (not the page's code), float64."""
    with torch.no_grad():
        return lm.model(torch.tensor([lm.vocab.encode(text)[0]]))[0, -1].double()


def expected_bars(logits: torch.Tensor, temperature: float, top_k: int | None) -> tuple[np.ndarray, np.ndarray]:
    """softmax(z / T) of the 10 likeliest, and what top-k keeps of them renormalised over the kept set (0 if cut)."""
    probs = torch.softmax(logits / temperature, 0)
    top = torch.topk(probs, SHOWN).values
    kept = torch.topk(probs, top_k).values.sum() if top_k is not None else torch.tensor(1.0, dtype=torch.float64)
    after = top / kept
    if top_k is not None:
        after[top_k:] = 0.0
    return top.numpy(), after.numpy()


def assert_bars(at: AppTest, lm: LoadedGPT, text: str, temperature: float, top_k: int | None) -> None:
    fig = figures(at)["next-token-candidates"]
    before, after = expected_bars(logits_of(lm, text), temperature, top_k)
    np.testing.assert_allclose(array(fig["data"][0]["x"]), before, rtol=1e-5, atol=1e-9)
    np.testing.assert_allclose(array(fig["data"][1]["x"]), after, rtol=1e-5, atol=1e-9)


def test_two_next_token_slides_one_on_each_gpt():
    assert [SLIDES[n - 1].state["model"] for n in NEXT_TOKEN] == ["gpt-en", "gpt-zh"]
    assert [SLIDES[n - 1].title["en"] for n in NEXT_TOKEN] == ["The next token and sampling", "A poem written live"]


@pytest.mark.parametrize(("lang", "n"), CASES)
def test_the_slide_writes_the_most_likely_token_takes_it_back_and_opens_the_page_with_it(lang, n):
    state = SLIDES[n - 1].state
    lm, prompt = gpt(str(state["model"])), str(state["input"])
    temperature = float(str(state.get("nt_temperature", 1.0)))
    top_k = state.get("nt_top_k")
    assert top_k is None or isinstance(top_k, int)
    at = slide(lang, n)
    assert_bars(at, lm, prompt, temperature, top_k)

    first = int(torch.argmax(logits_of(lm, prompt)))  # Most likely: the argmax, whatever T and the cut
    click(at, "nt_slide_most_likely")
    assert_bars(at, lm, prompt + lm.vocab.itos[first], temperature, top_k)
    box = next(m.value for m in at.markdown if ":blue-background[" in m.value)
    assert box.endswith(f":blue-background[{lm.vocab.itos[first].replace(' ', chr(0xA0))}]")

    click(at, "nt_slide_back")
    assert_bars(at, lm, prompt, temperature, top_k)
    assert not any(":blue-background[" in m.value for m in at.markdown)

    click(at, "nt_slide_most_likely")
    click(at, "lesson_open")  # the callback asks for the page; the next run opens it
    assert at.title[0].value == {"en": "Next token", "zh": "下一个词元"}[lang]  # /next-token, in the same state:
    assert str(at.query_params["tokens"]) == str(first) and at.text_input(key="text").value == prompt
    assert_bars(at, lm, prompt + lm.vocab.itos[first], temperature, top_k)
