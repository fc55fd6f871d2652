"""A random GPT-2 folder opened from the command line, in headless Chromium: the server is started as the README says,
`attention-lab --model-dir FOLDER` (a tiny GPT-2 made by transformers, devtools/hf_folders.py), and /attention and
/next-token open it in English and Chinese. Its name is in the picker; the prompt's tokens are shown as text (no Ġ,
no raw bytes), the most likely next token is the argmax of transformers' own logits, the head view and the
next-token bars are painted with the model's tokens, and there is no exception and no console error."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import torch
import transformers  # test-only (requirements-dev.txt), imported outright: these tests never skip
from tokenizers import Tokenizer

from devtools.harness import exceptions_on, new_page, open_page, streamlit_process
from devtools.hf_folders import write_gpt2_folder
from model import LoadedGPT, load_folder

from .figures import figures, real_console_errors, wait_for_figure

pytestmark = pytest.mark.browser
NAME = "tiny-gpt2"
PROMPT = {"en": "To be, or not to be", "zh": "床前明月光，疑是地上霜"}
WORDS = {"en": {"tokens": "Tokens:", "next": "Most likely next token:", "most": "Most likely"},
         "zh": {"tokens": "词元：", "next": "最可能的下一个词元：", "most": "最可能"}}  # fmt: skip


@pytest.fixture(scope="module")
def served():
    """(the server's URL, the folder) of `attention-lab --model-dir` on a fresh tiny GPT-2 folder."""
    with tempfile.TemporaryDirectory(prefix="folder-browser-") as tmp:
        folder = write_gpt2_folder(Path(tmp) / NAME, seed=11)
        with streamlit_process(120, options=("--model-dir", str(folder)), app_command=True) as (url, _proc):
            yield url, folder


def expected_next(folder: Path, text: str) -> str:
    """transformers' most likely next token after `text` (its id from transformers' logits), as the lab shows a
    token alone: its text, or its loose bytes in hex (model/gpt/bpe.py)."""
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    model = transformers.GPT2LMHeadModel.from_pretrained(folder).eval()
    with torch.no_grad():
        logits = model(torch.tensor([tokenizer.encode(text).ids])).logits[0, -1]
    lm = load_folder(folder)
    assert isinstance(lm, LoadedGPT)
    return lm.vocab.itos[int(logits.argmax())]


def text_of(page) -> str:
    return page.locator('[data-testid="stMain"]').inner_text().replace("\u00a0", " ")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_model_dir_gpt2_on_attention_and_next_token(browser, served, lang, probes_for):
    url, folder = served
    page = new_page(browser)
    probes = probes_for(page)
    try:
        open_page(page, f"{url}/attention?model={NAME}&lang={lang}&text={PROMPT[lang]}", timeout_ms=120_000)
        wait_for_figure(page, "attention-head")
        sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
        assert NAME in sidebar and "(yours)" not in sidebar.split(NAME)[1][:10]
        main = text_of(page)
        assert WORDS[lang]["tokens"] in main and WORDS[lang]["next"] in main
        chips = next(row for row in main.splitlines() if row.startswith(WORDS[lang]["tokens"]))
        assert "Ġ" not in main and "⟨" not in chips and "\ufffd" not in chips  # the prompt's tokens as its text
        line = next(row for row in main.splitlines() if WORDS[lang]["next"] in row)
        assert expected_next(folder, PROMPT[lang]).strip() in line
        ids = Tokenizer.from_file(str(folder / "tokenizer.json")).encode(PROMPT[lang]).ids
        head = figures(page)["attention-head"]
        assert head["rows"] == len(ids)  # a row per BPE token
        open_page(page, f"{url}/next-token?model={NAME}&lang={lang}&text={PROMPT[lang]}", timeout_ms=120_000)
        wait_for_figure(page, "next-token-candidates")
        written = page.locator(".st-key-nt_written_text").inner_text().replace("\u00a0", " ")
        assert PROMPT[lang] in written  # the prompt decoded whole, a Chinese character cut across tokens included
        bars = figures(page)["next-token-candidates"]["y"]
        assert bars and bars[0].startswith("1. ") and not any("Ġ" in label for label in bars)
        assert page.get_by_role("button", name=WORDS[lang]["most"], exact=True).is_visible()
        assert exceptions_on(page) == []
        assert real_console_errors(page, probes) == []
    finally:
        page.context.close()
