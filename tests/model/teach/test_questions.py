"""model.teach.questions: the true answers against NumPy recomputed from the trace's own q, k and logits."""

from __future__ import annotations

import numpy as np
import pytest

from model import Ablation, load_pretrained
from model.teach.questions import (
    ATTEND,
    FLATTER,
    NEXT,
    SAME,
    SCALING_OPTIONS,
    SHARPER,
    UNSCALED,
    QuestionError,
    attend_question,
    block_weights,
    entropy,
    next_token_question,
    scaling_question,
    token_label,
    trace_logits,
)


def np_softmax(scores: np.ndarray) -> np.ndarray:
    """Row softmax in float64 with −inf (masked) entries giving 0."""
    top = np.max(scores, axis=-1, keepdims=True)
    e = np.exp(scores - top)
    return e / e.sum(-1, keepdims=True)


def np_weights(trace, name: str, scale: bool) -> np.ndarray:
    """(H, Lq, Lk) weights from the trace's q and k alone, with the causal mask for decoder self-attention."""
    q = trace.numpy(f"{name}.q").astype(np.float64)  # (H, Lq, dk)
    k = trace.numpy(f"{name}.k").astype(np.float64)  # (H, Lk, dk)
    scores = q @ k.transpose(0, 2, 1)
    if scale:
        scores = scores / np.sqrt(q.shape[-1])
    if name.startswith("decoder") and name.endswith("self_attn"):
        lq, lk = scores.shape[1:]
        scores = np.where(np.tril(np.ones((lq, lk), dtype=bool)), scores, -np.inf)
    return np_softmax(scores)


@pytest.fixture(scope="module")
def translate():
    loaded = load_pretrained("translate")
    return loaded, loaded.run("the big dog sees a small cat")


@pytest.mark.parametrize("name", ["encoder.0.self_attn", "decoder.1.self_attn", "decoder.1.cross_attn"])
def test_attend_answer_is_the_argmax_of_numpy_softmax(translate, name):
    _, trace = translate
    reference = np_weights(trace, name, scale=True)  # (H, Lq, Lk)
    keys = trace.tokens("tgt" if name.endswith("self_attn") and name.startswith("decoder") else "src")
    n_heads, n_queries, _ = reference.shape
    checked = 0
    for head in range(n_heads):
        for query in range(n_queries):
            if np.count_nonzero(reference[head, query] > 1e-12) < 2:  # the decoder's first row sees one key
                continue
            q = attend_question(block_weights(trace, name), head, query, keys)
            assert q.kind == ATTEND
            assert q.answer == int(np.argmax(reference[head, query]))
            assert q.options[q.answer] == f"{q.answer} · {keys[q.answer]}"
            assert q.evidence["weight"] == pytest.approx(reference[head, query].max(), abs=1e-5)
            assert q.context == {"head": head, "query": query}
            checked += 1
    assert checked >= n_heads * (n_queries - 1)


def test_next_token_answer_is_the_argmax_of_the_logits(translate):
    loaded, trace = translate
    logits = trace["logits"][0].double().numpy()  # (T, V)
    vocab = loaded.task.tgt_vocab.itos
    for position in range(logits.shape[0]):
        q = next_token_question(trace_logits(trace), position, vocab)
        assert q.kind == NEXT
        assert q.options[q.answer] == vocab[int(np.argmax(logits[position]))]
        top6 = {vocab[i] for i in np.argsort(-logits[position])[:6]}
        assert set(q.options) == top6  # the six likeliest, no other
        assert list(q.options) == sorted(q.options, key=vocab.index)  # vocabulary order hides the ranking
        assert q.evidence["probability"] == pytest.approx(np_softmax(logits[position]).max(), rel=1e-6)
    # the greedy output: position t's answer is the token the model wrote at t + 1
    out = trace.tokens("tgt")[1:]
    for position, token in enumerate(out):
        q = next_token_question(trace_logits(trace), position, vocab)
        assert q.options[q.answer] == token


def test_next_token_with_a_small_vocabulary_and_ties():
    logits = np.array([[0.0, 3.0, 3.0, -1.0]])  # a tie: argmax takes the first
    q = next_token_question(logits, 0, ["a", "b", "c", "d"], n_options=2)
    assert q.options == ("b", "c") and q.options[q.answer] == "b"


def test_scaling_answer_matches_numpy_entropies_on_the_first_encoder_layer():
    """Layer 0 of the encoder sees the same q, k with and without the scaling: NumPy gives both rows."""
    loaded = load_pretrained("reverse")
    text = "1 2 3 4 5 6"
    trace = loaded.run(text)
    unscaled = loaded.run(text, trace.prediction, ablation=Ablation(scale=False))
    name = "encoder.0.self_attn"
    with_scaling, without = np_weights(trace, name, scale=True), np_weights(trace, name, scale=False)
    counts = dict.fromkeys(SCALING_OPTIONS, 0)
    for head in range(with_scaling.shape[0]):
        for query in range(with_scaling.shape[1]):
            q = scaling_question(block_weights(trace, name), block_weights(unscaled, name), head, query)
            change = entropy(without[head, query]) - entropy(with_scaling[head, query])
            expected = SHARPER if change < -0.05 else FLATTER if change > 0.05 else SAME
            assert q.kind == UNSCALED and q.options == SCALING_OPTIONS
            assert q.options[q.answer] == expected
            assert q.evidence["entropy_with"] == pytest.approx(entropy(with_scaling[head, query]), abs=1e-4)
            counts[expected] += 1
    assert counts[SHARPER] > 0  # larger scores: the softmax sharpens (dk = 16 here, so scores grow 4×)


def test_scaling_closed_forms():
    uniform = np.full((1, 1, 4), 0.25)
    peaked = np.array([[[0.97, 0.01, 0.01, 0.01]]])
    assert scaling_question(uniform, peaked, 0, 0).answer == SCALING_OPTIONS.index(SHARPER)
    assert scaling_question(peaked, uniform, 0, 0).answer == SCALING_OPTIONS.index(FLATTER)
    assert scaling_question(uniform, uniform, 0, 0).answer == SCALING_OPTIONS.index(SAME)
    assert entropy(uniform[0, 0]) == pytest.approx(np.log(4))


def test_token_labels_are_numbered_and_short():
    assert token_label(3, "dog") == "3 · dog"
    q = attend_question(np.array([[[0.2, 0.8]]]), 0, 0, ["a", "b"], number_from=1)
    assert q.options == ("1 · a", "2 · b") and q.answer == 1
    assert len(token_label(0, "x" * 500)) <= 64


@pytest.mark.parametrize(
    ("call", "template"),
    [
        (lambda: attend_question(np.zeros((0, 0, 0)), 0, 0, []), QuestionError.EMPTY),
        (lambda: attend_question(np.ones((2, 3, 3)) / 3, 5, 0, "abc"), QuestionError.NO_HEAD),
        (lambda: attend_question(np.ones((2, 3, 3)) / 3, 0, 9, "abc"), QuestionError.NO_QUERY),
        (lambda: attend_question(np.array([[[1.0, 0.0]]]), 0, 0, "ab"), QuestionError.ONE_KEY),
        (lambda: attend_question(np.array([[[1.0]]]), 0, 0, "a"), QuestionError.ONE_KEY),
        (lambda: attend_question(np.array([[[np.nan, 1.0]]]), 0, 0, "ab"), QuestionError.NOT_FINITE),
        (lambda: next_token_question(np.zeros((0, 4)), 0, "abcd"), QuestionError.EMPTY),
        (lambda: next_token_question(np.zeros((2, 4)), 2, "abcd"), QuestionError.NO_POSITION),
        (lambda: scaling_question(np.ones((1, 2, 2)) / 2, np.ones((1, 2, 3)) / 3, 0, 0), QuestionError.SHAPES),
    ],
)
def test_questions_on_empty_or_wrong_views_raise_a_message(call, template):
    with pytest.raises(QuestionError) as caught:
        call()
    assert caught.value.template == template
    assert str(caught.value)  # an English message, filled in
