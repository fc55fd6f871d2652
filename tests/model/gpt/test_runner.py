"""LoadedGPT, the pages' interface: prompts (empty, over the context, unknown characters), run/trace, next_token and
generate (cached steps equal to re-reading the text, seeds), checked against the model's own forward pass."""

from __future__ import annotations

import pytest
import torch

from model import Ablation, InputError
from model.gpt import GPT, UNKNOWN_MARK, GPTConfig, LoadedGPT
from model.sampling import SamplingSettings, chain, sample
from tests.toys import tiny_gpt

from .test_bpe import hand_built


@pytest.fixture(scope="module")
def lm() -> LoadedGPT:
    return tiny_gpt("en", max_len=16)


def test_what_it_says_about_itself(lm):
    assert lm.config.arch == "gpt" and lm.max_words == lm.max_len == 16
    assert lm.vocabulary == list(lm.vocab.itos) and lm.vocabulary[-1] == UNKNOWN_MARK
    assert lm.task.example and lm.task.description and lm.task.language == "en"


@pytest.mark.parametrize("bad", ["", None, 3])
def test_an_empty_prompt_is_an_input_error(lm, bad):
    with pytest.raises(InputError, match="empty"):
        lm.tokenize(bad)
    with pytest.raises(InputError, match="empty"):
        lm.next_token([])


def test_a_long_prompt_is_cut_from_the_left_with_a_notice(lm):
    text = "To be, or not to be, that is the question"  # 41 characters, the context is 16
    trace = lm.trace(text)
    assert "".join(trace.tokens("tgt")) == text[-16:]
    (notice,) = trace.notices
    assert notice.params == {"n": 41, "limit": 16, "cut": 25}
    assert "left out" in str(notice)
    assert lm.trace(text[-16:]).notices == ()
    torch.testing.assert_close(trace["logits"], lm.trace(text[-16:])["logits"])
    huge = lm.tokenize("é" * 10**6 + text)  # a huge paste: only the last 16 characters are read
    assert huge.cut == 10**6 + 25 and huge.unknown == [] and "".join(huge.tokens) == text[-16:]


def test_ids_over_the_context_are_cut_from_the_left_too(lm):
    ids = list(range(len(lm.vocabulary))) * 2  # 2 V ids, more than the context of 16
    prompt = lm.prompt_of_ids(ids)
    assert prompt.ids == ids[-16:] and prompt.cut == len(ids) - 16
    notice = prompt.notice()
    assert notice is not None and notice.params == {"n": len(ids), "limit": 16, "cut": len(ids) - 16}
    torch.testing.assert_close(lm.next_token(ids).chain.logits, lm.next_token(ids[-16:]).chain.logits)


def test_unknown_characters_read_as_the_mark(lm):
    trace = lm.trace("To bé?")
    assert trace.tokens("tgt") == ["T", "o", " ", "b", UNKNOWN_MARK, UNKNOWN_MARK]
    assert trace.unknown == ["é", "?"]
    with pytest.raises(ValueError, match="no src tokens"):
        trace.tokens("src")


def test_run_takes_no_target_and_predicts_the_most_likely_next_token(lm):
    with pytest.raises(InputError, match="decoder-only"):
        lm.run("To be", "or not")
    trace = lm.run("To be", "  ")
    logits = lm.model(torch.tensor([lm.tokenize("To be").ids]))[0, -1]
    assert trace.prediction == lm.vocabulary[int(logits.argmax())]


def test_ids_outside_the_vocabulary_are_an_input_error(lm):
    for bad in ([len(lm.vocabulary)], [-1], [1, "2"]):
        with pytest.raises(InputError, match="vocabulary"):
            lm.next_token(bad)


def test_next_token_is_the_chain_of_the_model_s_last_logits(lm):
    dist = lm.next_token("To be, or not to", temperature=0.7, top_k=6)
    logits = lm.model(torch.tensor([lm.tokenize("To be, or not to").ids]))[0, -1]
    expected = chain(logits, SamplingSettings(0.7, 6))
    torch.testing.assert_close(dist.chain.renormalised, expected.renormalised)
    assert len(dist.tokens) == 6 and abs(sum(dist.probs) - 1) < 1e-12
    assert dist.probs == sorted(dist.probs, reverse=True)
    assert dist.tokens == [lm.vocabulary[i] for i in dist.ids]
    assert dist.ids == [int(i) for i in torch.topk(logits, 6).indices]
    top = dist.candidates(8)
    assert [c[3] for c in top] == [True] * 6 + [False] * 2 and top[6][4] == 0.0


def test_generate_with_the_cache_equals_re_reading_the_text(lm):
    settings = SamplingSettings(temperature=0.9, top_k=8, seed=11)
    written = lm.generate_ids("To be", 30, settings)  # 5 + 30 > 16: the context fills, then it slides
    generator = torch.Generator().manual_seed(11)
    ids = lm.tokenize("To be").ids
    for token in written:  # by hand: every step re-reads the last 16 tokens in full
        logits = lm.model(torch.tensor([ids[-16:]]))[0, -1]
        assert sample(chain(logits, settings), generator) == token
        ids.append(token)


def test_without_the_causal_mask_generation_re_reads_the_text(lm):
    """Earlier positions then see later ones, so a cache would be stale: each step must equal a full re-read."""
    sharp = tiny_gpt("en", seed=1, max_len=16)
    with torch.no_grad():  # large weights: a stale cache would change the sampled tokens
        for p in sharp.model.parameters():
            p.mul_(6.0)
    off, settings = Ablation(causal=False), SamplingSettings(temperature=1.0, seed=4)
    written = sharp.generate_ids("To be", 12, settings, off)
    ids, generator = sharp.tokenize("To be").ids, torch.Generator().manual_seed(4)
    for token in written:
        logits = sharp.model(torch.tensor([ids[-16:]]), ablation=off)[0, -1]
        assert sample(chain(logits, settings), generator) == token
        ids.append(token)


def test_the_same_seed_writes_the_same_text(lm):
    a = lm.generate("To be", n=40, temperature=0.8, top_k=10, top_p=0.95, seed=1)
    assert a == lm.generate("To be", n=40, temperature=0.8, top_k=10, top_p=0.95, seed=1)
    assert len(a) == 40
    assert {lm.generate("To be", n=40, seed=s) for s in range(4)} != {a}
    greedy = lm.generate("To be", n=10, temperature=0)
    ids = lm.tokenize("To be").ids
    for _ in greedy:
        ids.append(int(lm.model(torch.tensor([ids[-16:]]))[0, -1].argmax()))
    assert lm.vocab.decode(ids[5:]) == greedy


@pytest.mark.parametrize(
    "settings",
    [dict(temperature=-1.0), dict(temperature=float("nan")), dict(temperature=1e9), dict(top_k=0),
     dict(top_k=10_000), dict(top_p=0.0), dict(top_p=1.5), dict(seed=-3), dict(n=10**6), dict(n=-1)],
)  # fmt: skip
def test_bad_settings_are_input_errors(lm, settings):
    with pytest.raises(InputError):
        lm.generate("To be", **settings)


def test_a_prompt_continued_by_ids_reads_the_prompt_s_tokens_then_exactly_those_ids():
    """A BPE merges " " + "t" into one token (257) when the joined text is re-encoded; continued keeps the prompt's
    token and the appended one apart, and cuts from the left at max_len as any ids do. A character-level GPT joins
    the text, unchanged."""
    bpe = hand_built()
    space, t = 0x20, ord("t")  # the hand-built vocabulary's ids 0-255 are the bytes themselves
    assert bpe.encode(" t")[0] == [257]  # the join the page must not re-encode
    with torch.random.fork_rng():
        torch.manual_seed(0)
        model = GPT(GPTConfig(vocab_size=len(bpe), d_model=16, n_heads=2, n_layers=1, d_ff=32, max_len=4))
    gpt2 = LoadedGPT(model, bpe, name="tiny-bpe")
    assert gpt2.continued(" ", [t]) == [space, t]
    assert gpt2.continued("", [t, t]) == [t, t]
    with torch.inference_mode():
        own = model(torch.tensor([[space, t]]))[0, -1]
    torch.testing.assert_close(gpt2.next_logits(gpt2.trace(gpt2.continued(" ", [t]))), own)
    read = gpt2.read(gpt2.continued("abc", [t, t, t]))  # 6 ids, a context of 4
    assert read.ids == [ord("c"), t, t, t] and read.cut == 2 and read.by_token
    with pytest.raises(InputError, match="empty"):
        gpt2.read(gpt2.continued("", []))
    chars = tiny_gpt("en", max_len=16)
    assert chars.continued("To b", chars.vocab.encode("e!")[0]) == "To be" + UNKNOWN_MARK
