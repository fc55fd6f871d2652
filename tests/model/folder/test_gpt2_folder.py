"""A GPT-2 folder opened by model.load_folder equals transformers' GPT2LMHeadModel on the same folder: every layer's
attention weights, every hidden state and the logits within 1e-5, on English and Chinese and on padded batches; the
next-token distribution is softmax of transformers' logits, and greedy generation is transformers' generate."""

from __future__ import annotations

import pytest
import torch

import model
from model.errors import CheckpointError
from model.gpt import LoadedGPT
from model.gpt.bpe import ByteLevelBPE
from model.io.checkpoint import save_checkpoint
from model.naming import LOGITS, Side, Stack, attention_name, ffn_name, final_norm_name, input_name
from model.sampling import SamplingSettings

from .folders import CHINESE, ENGLISH, gpt2_folder, transformers


def close(ours: torch.Tensor, theirs: torch.Tensor) -> None:
    """Equal within 1e-5 (the issue's bound), element by element."""
    torch.testing.assert_close(ours, theirs, atol=1e-5, rtol=0)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("gpt2") / "tiny-gpt2"
    theirs = gpt2_folder(path, layers=3, heads=2, width=16, positions=128)
    return path, theirs


@pytest.fixture(scope="module")
def lm(folder) -> LoadedGPT:
    loaded = model.load_folder(folder[0])
    assert isinstance(loaded, LoadedGPT)
    return loaded


def _hidden_names(n_layers: int) -> list[str]:
    """Our names for transformers' hidden_states: the embedding sum, each block's output but the last, then ln_f of
    the last (GPT-2 appends the final LayerNorm's output in place of the last block's)."""
    blocks = [ffn_name(Stack.DECODER, i, "resid") for i in range(n_layers - 1)]
    return [input_name(Side.TGT), *blocks, final_norm_name(Stack.DECODER)]


def test_the_folder_opens_as_a_gpt_named_after_its_folder(lm, folder):
    assert lm.name == "tiny-gpt2" and lm.config.arch == "gpt"
    assert (lm.config.d_model, lm.config.n_heads, lm.config.n_layers, lm.config.max_len) == (16, 2, 3, 128)
    assert isinstance(lm.vocab, ByteLevelBPE) and len(lm.vocabulary) == folder[1].config.vocab_size
    assert lm.meta["n_params"] == sum(p.numel() for p in folder[1].transformer.parameters())
    assert lm.notices == ()


@pytest.mark.parametrize("text", [ENGLISH, CHINESE])
def test_every_attention_hidden_state_and_logit_equals_transformers(lm, folder, text):
    theirs = folder[1]
    reference = transformers.PreTrainedTokenizerFast(tokenizer_file=str(folder[0] / "tokenizer.json"))
    ids = lm.tokenize(text).ids
    assert ids == reference(text)["input_ids"]  # the same tokens as transformers reads from the folder
    with torch.no_grad():
        expected = theirs(torch.tensor([ids]), output_attentions=True, output_hidden_states=True)
    trace = lm.trace(text)
    assert len(expected.attentions) == 3
    for i, weights in enumerate(expected.attentions):
        close(trace[attention_name("decoder", i, "weights")], weights)
    for name, hidden in zip(_hidden_names(3), expected.hidden_states, strict=True):
        close(trace[name], hidden)
    close(trace[LOGITS], expected.logits)


@pytest.mark.parametrize("side", ["right", "left"])
def test_a_padded_batch_equals_transformers_at_every_real_position(lm, folder, side):
    theirs = folder[1]
    rows = [lm.tokenize(text).ids for text in (ENGLISH, CHINESE[:9], "The cat")]
    width = max(map(len, rows))
    ids = torch.zeros(len(rows), width, dtype=torch.long)  # (B, T), padded with token 0
    keep = torch.zeros(len(rows), width, dtype=torch.bool)  # (B, T)
    for b, row in enumerate(rows):
        span = slice(0, len(row)) if side == "right" else slice(width - len(row), width)
        ids[b, span], keep[b, span] = torch.tensor(row), True
    with torch.no_grad():
        expected = theirs(ids, attention_mask=keep.long(), output_attentions=True, output_hidden_states=True)
        logits, trace = lm.model(ids, keep=keep, record=True)
        fused = lm.model(ids, keep=keep)  # the untraced path (torch's fused kernel) masks the same way
    assert keep.sum() < keep.numel()
    for i, weights in enumerate(expected.attentions):
        ours = trace[attention_name("decoder", i, "weights")]  # (B, H, T, T)
        close(ours.transpose(1, 2)[keep], weights.transpose(1, 2)[keep])
    for name, hidden in zip(_hidden_names(3), expected.hidden_states, strict=True):
        close(trace[name][keep], hidden[keep])
    close(logits[keep], expected.logits[keep])
    close(fused[keep], expected.logits[keep])


@pytest.mark.parametrize("text", [ENGLISH, CHINESE])
def test_the_next_token_distribution_is_softmax_of_transformers_logits(lm, folder, text):
    with torch.no_grad():
        logits = folder[1](torch.tensor([lm.tokenize(text).ids])).logits[0, -1]
    dist = lm.next_token(text)
    torch.testing.assert_close(dist.chain.probs, torch.softmax(logits.double(), dim=-1), atol=1e-6, rtol=0)
    assert dist.ids[0] == int(logits.argmax()) and abs(sum(dist.probs) - 1) < 1e-6


@pytest.mark.parametrize("text", [ENGLISH[:20], CHINESE[:6]])
def test_greedy_generation_equals_transformers_generate(lm, folder, text):
    ids = lm.tokenize(text).ids
    prompt = torch.tensor([ids])
    with torch.no_grad():
        out = folder[1].generate(
            prompt, attention_mask=torch.ones_like(prompt), max_new_tokens=20, min_new_tokens=20, do_sample=False,
            pad_token_id=0,
        )  # fmt: skip
    expected = out[0, len(ids) :].tolist()
    assert len(expected) == 20
    assert lm.generate_ids(ids, 20, SamplingSettings(temperature=0)) == expected
    assert lm.generate(text, n=20, temperature=0) == lm.vocab.decode(expected)


def test_a_sharded_folder_with_vocab_json_and_merges_txt_equals_transformers(tmp_path):
    path = tmp_path / "sharded"
    theirs = gpt2_folder(path, layers=2, width=16, positions=128, vocab_files=True, shard="20KB", seed=3)
    assert (path / "model.safetensors.index.json").is_file() and not (path / "model.safetensors").exists()
    assert not (path / "tokenizer.json").exists()
    lm = model.load_folder(path, name="mine")
    assert isinstance(lm, LoadedGPT) and lm.name == "mine"
    assert len(lm.meta["files"]) > 5  # config.json, the index, its shards, vocab.json, merges.txt
    reference = transformers.AutoTokenizer.from_pretrained(path)  # GPT2Tokenizer over vocab.json + merges.txt
    for text in (ENGLISH, CHINESE):
        ids = lm.tokenize(text).ids
        assert ids == reference(text)["input_ids"]
        assert lm.vocab.decode(ids) == text == reference.decode(ids)
        with torch.no_grad():
            close(lm.trace(text)[LOGITS], theirs(torch.tensor([ids])).logits)


def test_tokens_as_vocabulary_strings_and_a_checkpoint_refused(lm, tmp_path):
    ids = lm.tokenize(CHINESE[:4]).ids
    tokens = [lm.vocabulary[i] for i in ids]  # alone, a piece of a character reads as its bytes: ⟨e5 ba⟩
    assert not any("Ġ" in t for t in lm.vocabulary)
    trace = lm.trace(tokens)
    assert trace.tokens("tgt") == lm.tokenize(CHINESE[:4]).tokens  # in the text: 床…, …床, as tokenize shows them
    close(trace[LOGITS], lm.trace(CHINESE[:4])[LOGITS])
    with pytest.raises(CheckpointError, match="byte-level BPE"):
        save_checkpoint(lm, tmp_path / "ckpt")  # a checkpoint of ours holds a character vocabulary


def test_a_hugging_face_cache_entry_opens_its_snapshot(folder, tmp_path):
    entry = tmp_path / "models--someone--tiny-gpt2"  # the cache's layout: refs/main names a snapshot of links
    (entry / "refs").mkdir(parents=True)
    for commit in ("0123abc", "4567def"):
        snapshot = entry / "snapshots" / commit
        snapshot.mkdir(parents=True)
        for file in folder[0].iterdir():
            (snapshot / file.name).symlink_to(file)
    (entry / "refs" / "main").write_text("4567def\n")
    for path in (entry, entry / "snapshots" / "0123abc"):
        opened = model.load_folder(path)
        assert isinstance(opened, LoadedGPT) and opened.name == "tiny-gpt2" and opened.config.n_layers == 3
    assert model.load_folder(entry).meta["folder"] == str(entry / "snapshots" / "4567def")


def test_an_untied_head_is_a_weight_of_its_own(tmp_path):
    theirs = gpt2_folder(tmp_path / "untied", layers=1, width=16, positions=128, tie_word_embeddings=False, seed=5)
    lm = model.load_folder(tmp_path / "untied")
    assert isinstance(lm, LoadedGPT) and not lm.config.tied
    assert lm.model.lm_head is not None and not torch.equal(lm.model.lm_head.weight, lm.model.wte.weight)
    ids = lm.tokenize(ENGLISH).ids
    with torch.no_grad():
        close(lm.trace(ENGLISH)[LOGITS], theirs(torch.tensor([ids])).logits)
