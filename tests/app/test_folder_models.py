"""Models from folders the server was started with ($ATTENTION_LAB_EXTRA_MODELS, what `attention-lab --model-dir`
writes): a random GPT-2 and a random BERT made by transformers (devtools/hf_folders.py), in every session's picker
under their folder's name, on every page in English and Chinese. The numbers are checked against transformers' own
run of the same folder on the same token ids (its tokenizer read by the `tokenizers` library): the Attention page's
head, /next-token's most likely tokens, BERT's head; the other pages draw with the model's own learned positions."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
import torch
import transformers  # test-only (requirements-dev.txt), imported outright: these tests never skip
from streamlit.testing.v1 import AppTest
from tokenizers import Tokenizer

from attention_lab.model_dirs import EXTRA_MODELS_ENV
from devtools.hf_folders import write_bert_folder, write_gpt2_folder
from ui.classroom.ask import QUESTION_KEY

from .charts import charts_of
from .test_attention_page import array
from .training import heatmap_z

APP = str(Path(__file__).resolve().parents[2] / "app.py")
LANGS = pytest.mark.parametrize("lang", ["en", "zh"])
TEXTS = {"en": "To be, or not to be, that is the question", "zh": "床前明月光，疑是地上霜。"}
WORDS = {"en": {"tokens": "**Tokens:**", "next": "**Most likely next token:**", "context": "context 64 tokens"},
         "zh": {"tokens": "**词元：**", "next": "**最可能的下一个词元：**", "context": "上下文 64 个词元"}}  # fmt: skip


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("server-folders")
    return {"gpt2": write_gpt2_folder(root / "tiny-gpt2", seed=3),
            "bert": write_bert_folder(root / "tiny-bert", seed=4)}  # fmt: skip


@pytest.fixture
def served(folders, monkeypatch) -> dict[str, Path]:
    monkeypatch.setenv(EXTRA_MODELS_ENV, os.pathsep.join(str(f) for f in folders.values()))
    return folders


def opened(page: str, lang: str, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update(lang=lang, **params)
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def figures(at: AppTest) -> dict[str, dict]:
    return {c.spec["layout"].get("meta"): c.spec for c in charts_of(at)}


def lines(at: AppTest) -> list[str]:
    return [m.value for m in [*at.markdown, *at.caption, *at.info, *at.warning]]


def reference(folder: Path, text: str, model_class):
    """transformers' run of the folder on the text's ids (the folder's tokenizer.json), eager attention."""
    ids = Tokenizer.from_file(str(folder / "tokenizer.json")).encode(text).ids
    model = model_class.from_pretrained(folder, attn_implementation="eager").eval()
    with torch.no_grad():
        return ids, model(torch.tensor([ids]), output_attentions=True)


@LANGS
def test_a_folder_gpt2_is_every_session_s_by_its_name_and_its_head_is_transformers(served, lang):
    text = TEXTS[lang]
    at = opened("attention", lang, model="tiny-gpt2", text=text)
    options = list(at.selectbox(key="model").options)
    assert "tiny-gpt2" in options and "tiny-bert" in options  # the folder's name alone: no "(yours)"
    assert at.selectbox(key="model").value == "tiny-gpt2"
    assert WORDS[lang]["context"] in at.sidebar.caption[0].value
    ids, out = reference(served["gpt2"], text, transformers.GPT2LMHeadModel)
    chips = next(v for v in lines(at) if v.startswith(WORDS[lang]["tokens"]))
    assert chips.count("`") == 2 * len(ids) and "Ġ" not in chips  # one chip per BPE token, shown as text
    best = Tokenizer.from_file(str(served["gpt2"] / "tokenizer.json")).decode([int(out.logits[0, -1].argmax())])
    assert any(v.startswith(WORDS[lang]["next"]) and best.strip() in v for v in lines(at))
    layer, head = at.selectbox(key="layer").value, at.radio(key="head").value
    z = heatmap_z(figures(at)["attention-head"]["data"][0])
    np.testing.assert_allclose(z, out.attentions[layer][0, head].numpy(), atol=1e-5)


@LANGS
def test_next_token_ranks_the_tokens_as_transformers_logits_do(served, lang):
    text = TEXTS[lang]
    at = opened("next-token", lang, model="tiny-gpt2", text=text)
    _, out = reference(served["gpt2"], text, transformers.GPT2LMHeadModel)
    probs = torch.softmax(out.logits[0, -1].double(), -1)
    fig = figures(at)["next-token-candidates"]
    shown = array(fig["data"][0]["x"])  # the bars before the cut
    top = torch.sort(probs, descending=True).values[: len(shown)].numpy()
    np.testing.assert_allclose(np.sort(shown)[::-1], top, rtol=1e-4, atol=1e-6)  # T 1, no cut: softmax of the logits
    assert any(m.value.replace("\u00a0", " ").strip() == text for m in at.markdown)  # the prompt decoded whole


def merging_join(tokenizer: Tokenizer, text: str) -> tuple[str, int]:
    """A prefix of `text` and a token id whose text, appended, re-encodes with the prompt as other tokens than the
    prompt's followed by that id (BPE merges across the join): a word-character token, so the page shows it as is."""
    for end in range(len(text), 0, -1):
        prompt = text[:end]
        ids = tokenizer.encode(prompt).ids
        for token in range(tokenizer.get_vocab_size()):
            piece = tokenizer.decode([token])
            if piece.isalnum() and tokenizer.encode(prompt + piece).ids != [*ids, token]:
                return prompt, token
    raise AssertionError(f"no prompt of {text!r} and token merge across the join")


def written_box(at: AppTest) -> str:
    return next(m.value for m in at.markdown if ":blue-background[" in m.value).replace("\u00a0", " ")


@LANGS
def test_next_token_reads_the_prompt_s_tokens_then_exactly_the_appended_id(served, lang):
    """/next-token?tokens=<id> on a BPE: the model reads the prompt's own tokens and then that id, never the joined
    text re-encoded (which merges them); bars, attention rows, logit lens and KV cache all on exactly those ids."""
    tokenizer = Tokenizer.from_file(str(served["gpt2"] / "tokenizer.json"))
    prompt, token = merging_join(tokenizer, TEXTS[lang])
    ids = [*tokenizer.encode(prompt).ids, token]
    at = opened("next-token", lang, model="tiny-gpt2", text=prompt, tokens=str(token), kv="true")
    assert str(at.query_params.get("tokens")) == str(token)  # the link's format: the id as it was
    model = transformers.GPT2LMHeadModel.from_pretrained(served["gpt2"], attn_implementation="eager").eval()
    with torch.no_grad():
        out = model(torch.tensor([ids]), output_attentions=True)
    probs = torch.softmax(out.logits[0, -1].double(), -1)
    fig = figures(at)
    shown = array(fig["next-token-candidates"]["data"][0]["x"])
    top = torch.sort(probs, descending=True).values[: len(shown)].numpy()
    np.testing.assert_allclose(np.sort(shown)[::-1], top, rtol=1e-4, atol=1e-6)
    rows = array(fig["next-token-rows"]["data"][0]["z"])  # L·H rows and a blank one per layer, a column per token
    n_heads = model.config.n_head
    for layer, weights in enumerate(out.attentions):
        got = rows[layer * (n_heads + 1) : layer * (n_heads + 1) + n_heads]
        np.testing.assert_allclose(got, weights[0, :, -1].numpy(), atol=1e-5)  # (H, T): T = the prompt's + 1
    assert f"{len(ids) - 1} · {tokenizer.decode([token])}" in fig["next-token-rows"]["data"][0]["text"][0][-1]
    lens = array(fig["logit-lens"]["data"][0]["z"])
    np.testing.assert_allclose(lens[-1, :5], torch.topk(probs, 5).values.numpy(), rtol=1e-4)
    shapes = next(m.value for m in at.markdown if "d_head" in m.value)
    d_head = model.config.n_embd // n_heads
    assert f"1 × {n_heads} × {len(ids) - 1} × {d_head}" in shapes and f"1 × {n_heads} × {len(ids)} × {d_head}" in shapes
    assert written_box(at) == f"{prompt}:blue-background[{tokenizer.decode([token])}]"  # the appended token marked


@LANGS
def test_the_class_s_what_comes_next_question_reads_the_same_ids(served, lang):
    """The teacher's "what will the model write next?" on that page: its answer and probability are transformers' on
    the prompt's tokens then the appended id (T 1, no cut: the softmax of the logits)."""
    tokenizer = Tokenizer.from_file(str(served["gpt2"] / "tokenizer.json"))
    prompt, token = merging_join(tokenizer, TEXTS[lang])
    ids = [*tokenizer.encode(prompt).ids, token]
    at = opened("next-token", lang, model="tiny-gpt2", text=prompt, tokens=str(token))
    at.button(key="_class_start").click().run()
    at.button(key="_q_ask_write").click().run()
    assert not at.exception, [e.value for e in at.exception]
    question = at.session_state[QUESTION_KEY]
    model = transformers.GPT2LMHeadModel.from_pretrained(served["gpt2"], attn_implementation="eager").eval()
    with torch.no_grad():
        probs = torch.softmax(model(torch.tensor([ids])).logits[0, -1].double(), -1)
    assert question["evidence"]["probability"] == pytest.approx(float(probs.max()), abs=1e-6)
    listed = question["evidence"]["probabilities"][:-1]  # the options' (the likeliest tokens'), then the rest's
    top = torch.sort(probs, descending=True).values[: len(listed)].numpy()
    np.testing.assert_allclose(np.sort(listed)[::-1], top, rtol=1e-5, atol=1e-9)


@LANGS
def test_a_folder_bert_reads_word_pieces_and_its_head_is_transformers(served, lang):
    text = TEXTS[lang]
    at = opened("attention", lang, model="tiny-bert", text=text)
    ids, out = reference(served["bert"], text, transformers.BertModel)
    kind, layer, head = at.radio(key="kind").value, at.selectbox(key="layer").value, at.radio(key="head").value
    assert kind == "encoder"
    z = heatmap_z(figures(at)["attention-head"]["data"][0])
    np.testing.assert_allclose(z, out.attentions[layer][0, head].numpy(), atol=1e-5)
    assert z.shape == (len(ids), len(ids))


@LANGS
@pytest.mark.parametrize("model", ["tiny-gpt2", "tiny-bert"])
def test_the_other_pages_draw_a_folder_model(served, lang, model):
    text = TEXTS[lang]
    at = opened("positional-encoding", lang, model=model, text=text)
    assert "position-cosine-learned" in figures(at)  # the model's own learned positions
    for page, params in (("step-by-step", {"source": "model", "step": "4"}), ("inside-a-layer", {})):
        at = opened(page, lang, model=model, text=text, **params)
        assert figures(at), page
    at = opened("attention", lang, model=model, text=text, atlas="true", atlas_over="input")
    assert "head-atlas" in figures(at)


def test_the_server_s_warm_up_loads_its_folders_before_the_first_visitor(served):
    from ui import loading, warm

    took = warm.warm()
    assert {"imports", "model", "trace", "folders"} <= set(took), took
    for folder in served.values():
        assert ("_load", str(folder)) in loading._LOADED  # ui.extra_models._load's, in the server's cache now


@LANGS
def test_a_model_over_the_size_bound_says_why_it_is_slower_and_reads_a_capped_input(tmp_path, monkeypatch, lang):
    from functools import partial

    from model.io import folder as folder_io
    from model.io import model_dir

    monkeypatch.setattr(model_dir, "load_folder", partial(folder_io.load_folder, large=1_000))  # tiny counts as big
    monkeypatch.setattr(folder_io, "LARGE_MODEL_TOKENS", 8)
    big = write_gpt2_folder(tmp_path / f"big-gpt2-{lang}", seed=6)
    monkeypatch.setenv(EXTRA_MODELS_ENV, str(big))
    at = opened("attention", lang, model=big.name, text=TEXTS["en"])
    slower = {"en": "pages are slower, and its input is capped at 8 tokens", "zh": "输入也限制在 8 个词元以内"}
    assert any(slower[lang] in i.value for i in at.sidebar.info), [i.value for i in at.sidebar.info]
    z = heatmap_z(figures(at)["attention-head"]["data"][0])
    ids = Tokenizer.from_file(str(big / "tokenizer.json")).encode(TEXTS["en"]).ids
    assert len(ids) > 8 and z.shape == (8, 8)  # the last 8 tokens
    assert any("8" in w.value for w in at.warning)  # the cut is said
