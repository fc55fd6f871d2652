"""The Next-token page in AppTest, in English and Chinese: three tokens written (Most likely, Sample, a candidate),
Back, and the link reopening the same text; the numbers on screen against the model's own logits put through
torch.softmax and the sampling rules written out here; the newest token's attention, the KV cache's shapes, and a
model of another family.

The GPT is a tiny untrained one (tests.toys.tiny_gpt) in the session's own models, so the numbers are the model's
whatever it was trained on."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import torch
from streamlit.testing.v1 import AppTest

from model import load_pretrained
from model.gpt import LoadedGPT
from tests.toys import tiny_gpt

from .test_attention_page import array, figures

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = "pages/next-token.py"
LANGS = pytest.mark.parametrize("lang", ["en", "zh"])
MODELS = {lang: tiny_gpt(lang, seed=3, max_len=24) for lang in ("en", "zh")}  # the context: 24 characters
WORDS = {  # what a reader sees in each language
    "en": {"title": "Next token", "written": "tokens written after the prompt", "needs": "is not a GPT",
           "greedy": "Temperature 0", "unknown": "read as □", "cut": "so the first", "empty": "The prompt is empty"},
    "zh": {"title": "下一个词元", "written": "提示之后已续写", "needs": "不是 GPT", "greedy": "温度为 0",
           "unknown": "读作 □", "cut": "所以前", "empty": "提示是空的"},
}  # fmt: skip


def model_of(lang: str) -> LoadedGPT:
    return MODELS[lang]


def open_next_token(lang: str = "en", model: str | None = None, **params: str) -> AppTest:
    """A fresh session holding both tiny GPTs as its own models, opening /next-token?lang=…&model=…&params."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["user_models"] = {lm.name: lm for lm in MODELS.values()}
    at.query_params.update({"lang": lang, "model": model or model_of(lang).name, **params})
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def logits_of(lm: LoadedGPT, text: str) -> torch.Tensor:
    """The model's own logits (V,) for the token after `text` (its last max_len characters), float64."""
    ids, _unknown = lm.vocab.encode(text)
    with torch.no_grad():
        return lm.model(torch.tensor([ids[-lm.max_len :]]))[0, -1].double()


def seeded_draw(probs: torch.Tensor, seed: int) -> int:
    """Inverse-CDF sampling of one uniform number from torch's generator seeded with `seed` (model.sampling's rule,
    written out): the first id whose cumulative probability exceeds u."""
    u = torch.rand((), generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    return int(torch.nonzero(torch.cumsum(probs, 0) > u)[0, 0])


def bars(at: AppTest) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The candidates chart: the bars before the cut, after it, and the candidates' labels."""
    fig = figures(at)["next-token-candidates"]
    return array(fig["data"][0]["x"]), array(fig["data"][1]["x"]), fig["layout"]["yaxis"]["ticktext"]


def seen(token: str) -> str:
    """How the page writes a character that would print as nothing: a space as ␣, a line break as ↵."""
    return {" ": "␣", "\n": "↵"}.get(token, token)


def written(at: AppTest) -> str:
    return str(at.query_params.get("tokens", ""))


@LANGS
def test_three_tokens_back_and_the_link_reopening_the_same_text(lang):
    lm = model_of(lang)
    at = open_next_token(lang)
    assert at.title[0].value == WORDS[lang]["title"]
    prompt = lm.task.example
    assert at.text_input(key="text").value == prompt
    probs = torch.softmax(logits_of(lm, prompt), 0)  # T = 1, no cut
    before, after, labels = bars(at)
    top = torch.topk(probs, 10)
    np.testing.assert_allclose(before, top.values.numpy(), rtol=1e-5)
    np.testing.assert_allclose(after, top.values.numpy(), rtol=1e-5)  # nothing cut: renormalised = softmax
    assert labels == [f"{rank}. {seen(lm.vocab.itos[i])}" for rank, i in enumerate(top.indices.tolist(), 1)]

    first = int(torch.argmax(probs))  # Most likely
    click(at, "nt_most_likely")
    assert written(at) == str(first)
    text = prompt + lm.vocab.itos[first]
    second = seeded_draw(torch.softmax(logits_of(lm, text), 0), 0 + 1)  # the second token: seed 0 + 1
    click(at, "nt_sample")
    assert written(at) == f"{first}.{second}"
    text += lm.vocab.itos[second]
    third = int(torch.topk(logits_of(lm, text), 3).indices[2])  # the third candidate's button
    click(at, "nt_pick_2")
    assert written(at) == f"{first}.{second}.{third}"
    text += lm.vocab.itos[third]
    shown = next(m.value for m in at.markdown if ":blue-background[" in m.value)
    appended = "".join(lm.vocab.itos[i] for i in (first, second, third))
    unescaped = re.sub(r"\\(.)", r"\1", shown).replace("\u00a0", " ")  # Markdown's escapes, no-break spaces
    assert unescaped.startswith(prompt)
    if "\n" not in appended:  # a line break ends the marked run (shown as ↵)
        assert unescaped.endswith(f":blue-background[{appended}]")
    assert any(WORDS[lang]["written"] in c.value and "3" in c.value for c in at.caption)
    np.testing.assert_allclose(bars(at)[0], torch.topk(torch.softmax(logits_of(lm, text), 0), 10).values, rtol=1e-5)

    click(at, "nt_back")
    assert written(at) == f"{first}.{second}"
    link = dict(at.query_params)
    before_back = bars(at)
    again = AppTest.from_file(APP, default_timeout=120)
    again.session_state["user_models"] = {m.name: m for m in MODELS.values()}
    again.query_params.update(link)
    again.run()
    again.switch_page(PAGE).run()
    assert not again.exception
    assert written(again) == f"{first}.{second}"
    for mine, theirs in zip(bars(again), before_back, strict=True):
        np.testing.assert_array_equal(np.asarray(mine), np.asarray(theirs))
    click(again, "nt_sample")  # the link's seed gives the same third token a Sample gives in the first session
    click(at, "nt_sample")
    assert written(again) == written(at)


def chain_by_hand(logits: torch.Tensor, t: float, k: int, p: float) -> tuple[torch.Tensor, torch.Tensor]:
    """softmax(z / T); top-k; top-p on what top-k kept (renormalised): the smallest most-likely set reaching p;
    renormalised. Returns (probs, renormalised)."""
    probs = torch.softmax(logits / t, 0)
    order = torch.argsort(probs, descending=True)
    kept = torch.zeros_like(probs, dtype=torch.bool)
    kept[order[:k]] = True
    after_k = torch.where(kept, probs, 0.0) / probs[kept].sum()
    total = 0.0
    nucleus = torch.zeros_like(kept)
    for i in order[:k].tolist():
        if total >= p:
            break
        nucleus[i] = True
        total += float(after_k[i])
    final = torch.where(nucleus, probs, 0.0)
    return probs, final / final.sum()


@LANGS
def test_temperature_top_k_and_top_p_redraw_the_bars_and_the_chain(lang):
    lm = model_of(lang)
    at = open_next_token(lang, t="0.7", top_k="5", top_p="0.3")
    logits = logits_of(lm, lm.task.example)
    probs, renormalised = chain_by_hand(logits, 0.7, 5, 0.3)
    order = torch.argsort(probs, descending=True)[:10]
    before, after, _labels = bars(at)
    np.testing.assert_allclose(before, probs[order].numpy(), rtol=1e-5)
    np.testing.assert_allclose(after, renormalised[order].numpy(), rtol=1e-5, atol=1e-7)
    assert after[0] > 0 and (after[5:] == 0).all()  # top-k = 5 cut the rest
    table = at.latex[1].value
    z = float(logits[order[0]])
    assert f"{z:.2f} & {z / 0.7:.2f} & {float(probs[order[0]]):.4f}" in table
    assert table.count(r"\text{—}") == 6 - int((renormalised > 0).sum())  # a cut candidate has no q
    at.slider(key="nt_temperature").set_value(0.0).run()
    assert any(WORDS[lang]["greedy"] in i.value for i in at.info)
    before, after, _labels = bars(at)
    assert before[0] == 1 and after[0] == 1 and (before[1:] == 0).all()  # greedy: all on the largest logit


@LANGS
def test_the_newest_tokens_attention_and_the_kv_cache(lang):
    lm = model_of(lang)
    at = open_next_token(lang, tokens="1.2", kv="true")  # the KV cache's panel open
    text = lm.task.example + lm.vocab.decode([1, 2])
    ids, _unknown = lm.vocab.encode(text)
    trace = lm.trace(text)
    rows = array(figures(at)["next-token-rows"]["data"][0]["z"])
    n_layers, n_heads = lm.config.n_layers, lm.config.n_heads
    for layer in range(n_layers):
        expected = trace[f"decoder.{layer}.self_attn.weights"][0, :, -1].numpy()  # (H, T)
        np.testing.assert_allclose(rows[layer * (n_heads + 1) : layer * (n_heads + 1) + n_heads], expected, rtol=1e-5)
        np.testing.assert_allclose(expected.sum(-1), 1, rtol=1e-5)
    assert at.selectbox(key="nt_layer").value == n_layers - 1  # the head view opens on the last layer
    t = len(ids)
    shapes = next(m.value for m in at.markdown if "d_head" in m.value)
    d = lm.config.d_head
    for shape in ((1, n_heads, t - 1, d), (1, n_heads, 1, d), (1, n_heads, t, d)):
        assert " × ".join(map(str, shape)) in shapes


@LANGS
def test_another_family_says_it_needs_a_gpt_and_switches(lang):
    at = open_next_token(lang, model="translate")
    assert any(WORDS[lang]["needs"] in m.value for m in at.markdown)
    assert "next-token-candidates" not in figures(at)
    click(at, f"nt_switch_{model_of('en').name}")
    assert at.selectbox(key="model").value == model_of("en").name
    assert "next-token-candidates" in figures(at)


@LANGS
def test_the_logit_lens_reads_every_layer_through_ln_f_and_the_tied_head(lang):
    lm = model_of(lang)
    at = open_next_token(lang)
    trace = lm.trace(lm.task.example)
    fig = figures(at)["logit-lens"]
    z, cells = array(fig["data"][0]["z"]), fig["data"][0]["text"]
    names = ["tgt.input"] + [f"decoder.{i}.ffn.resid" for i in range(lm.config.n_layers)]
    ln_f, wte = lm.model.ln_f, lm.model.wte.weight.detach()
    final = None
    for depth, name in reversed(list(enumerate(names))):
        x = trace[name][0, -1].double()
        normed = torch.nn.functional.layer_norm(
            x, (x.shape[0],), ln_f.weight.detach().double(), ln_f.bias.detach().double(), ln_f.eps
        )
        probs = torch.softmax(normed @ wte.double().T, 0)  # (V,)
        top = torch.topk(probs, 5)
        final = int(top.indices[0]) if final is None else final  # the last layer's answer
        np.testing.assert_allclose(z[depth, :5], top.values.numpy(), rtol=1e-4)
        assert cells[depth][:5] == [seen(lm.vocab.itos[i]) for i in top.indices.tolist()]
        np.testing.assert_allclose(z[depth, 5], float(probs[final]), rtol=1e-4)
        rank = int((torch.argsort(probs, descending=True) == final).nonzero()[0, 0]) + 1
        assert cells[depth][5].startswith(seen(lm.vocab.itos[final]))
        assert re.findall(r"[0-9]+", cells[depth][5])[-1] == str(rank)  # "· #3", "· 第 3 名"
    assert final == int(torch.argmax(logits_of(lm, lm.task.example)))


def test_the_shipped_chinese_gpt_shows_its_tokens_as_characters():
    lm = load_pretrained("gpt-zh")
    assert isinstance(lm, LoadedGPT)
    at = open_next_token("zh", model="gpt-zh")
    probs = torch.softmax(logits_of(lm, lm.task.example), 0)
    top = torch.topk(probs, 10)
    before, _after, labels = bars(at)
    np.testing.assert_allclose(before, top.values.numpy(), rtol=1e-5)
    assert labels == [f"{rank}. {seen(lm.vocab.itos[i])}" for rank, i in enumerate(top.indices.tolist(), 1)]
    assert sum(bool(re.search(r"[\u4e00-\u9fff]", label)) for label in labels) >= 5  # characters, never bytes
    assert not any("\ufffd" in label for label in labels)
    first_button = at.button(key="nt_pick_0").label
    assert first_button.startswith(seen(lm.vocab.itos[int(top.indices[0])]))
