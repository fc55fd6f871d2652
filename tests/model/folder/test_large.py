"""A model over the size bound still opens, with a notice that says why its pages are slower and its input capped at
LARGE_MODEL_TOKENS tokens; one under it has neither."""

from __future__ import annotations

import pytest

import model
from model.bert import LoadedEncoder
from model.gpt import LoadedGPT
from model.io.folder import LARGE, LARGE_MODEL_PARAMS, LARGE_MODEL_TOKENS, inspect_folder

from .folders import ENGLISH, bert_folder, gpt2_folder


def test_the_bound_is_the_measured_one():
    assert (LARGE_MODEL_PARAMS, LARGE_MODEL_TOKENS) == (200_000_000, 64)  # bench/folder_size.py's figures


@pytest.fixture(scope="module")
def gpt_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("large") / "long-gpt2"
    gpt2_folder(path, layers=1, width=8, positions=256)
    return path


def test_a_gpt_over_the_bound_opens_with_a_notice_and_a_capped_input(gpt_path):
    n_params = inspect_folder(gpt_path).n_params
    small = model.load_folder(gpt_path)
    big = model.load_folder(gpt_path, large=n_params - 1)
    assert isinstance(small, LoadedGPT) and isinstance(big, LoadedGPT)
    assert small.notices == () and small.max_words == 256
    (notice,) = big.notices
    assert notice.template == LARGE and notice.params["tokens"] == LARGE_MODEL_TOKENS
    assert "slower" in str(notice) and "long-gpt2" in str(notice)
    assert big.max_words == LARGE_MODEL_TOKENS == big.max_len
    text = ENGLISH * 4
    n = len(small.tokenize(text).ids)
    assert LARGE_MODEL_TOKENS < n <= 256
    prompt = big.tokenize(text)
    assert prompt.ids == small.tokenize(text).ids[-LARGE_MODEL_TOKENS:]  # the last 64 tokens, cut from the left
    cut = prompt.notice()
    assert cut is not None and cut.params == {"n": n, "limit": LARGE_MODEL_TOKENS, "cut": n - LARGE_MODEL_TOKENS}
    assert "tokens" in str(cut)
    assert big.trace(text)["logits"].shape[1] == LARGE_MODEL_TOKENS


def test_a_bert_over_the_bound_reads_at_most_the_cap(tmp_path):
    path = tmp_path / "bert"
    bert_folder(path, layers=1, width=8, positions=128)
    big = model.load_folder(path, large=0)
    assert isinstance(big, LoadedEncoder) and len(big.notices) == 1
    assert big.max_len == LARGE_MODEL_TOKENS
    pieces = big.tokenize(ENGLISH * 4)
    assert len(pieces.ids) == LARGE_MODEL_TOKENS and pieces.cut
