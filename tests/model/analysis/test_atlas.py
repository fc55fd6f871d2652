"""The head atlas on attention matrices built by hand, whose role shares and entropies are counted here on paper:
a pure previous-token head, a pure [CLS] head, a uniform head (entropy = log n), a pure self head, a causal uniform
head, a reversing cross-attention head; then the atlas of real traces (toy models and MiniLM) against the same
arithmetic done directly on their weights."""

from __future__ import annotations

import math

import numpy as np
import pytest

from model import load_pretrained
from model.analysis.atlas import (
    BROAD,
    DOMINANT,
    MIXED,
    ROLES,
    Atlas,
    atlas_texts,
    corpus_atlas,
    dominant_role,
    head_roles,
    is_punctuation,
    mean_atlas,
    trace_atlas,
)
from model.bert.sentences import atlas_sentences
from model.naming import AttentionKind, Side, attention_name

from ..minilm import minilm

TOKENS = ["[CLS]", "the", "dog", ",", "barks", "[SEP]"]  # n = 6: a comma at 3, [CLS] at 0, [SEP] at 5
N = len(TOKENS)


def share(roles, role: str) -> float:
    return float(roles.scores[0, ROLES.index(role)])


def one_head(matrix) -> np.ndarray:
    m = np.asarray(matrix, dtype=np.float64)
    assert np.allclose(m.sum(-1), 1.0)
    return m[None]  # (1, n, n)


def test_a_pure_previous_token_head():
    w = np.zeros((N, N))
    w[0, 0] = 1.0  # the first token has no previous one: it looks at itself
    for i in range(1, N):
        w[i, i - 1] = 1.0
    roles = head_roles(one_head(w), TOKENS, TOKENS)
    assert share(roles, "previous") == 1.0  # rows 1…5 all on i − 1 (row 0 has no previous token)
    assert share(roles, "next") == 0.0
    assert share(roles, "self") == pytest.approx(1 / 6)  # row 0 only
    assert share(roles, "cls") == pytest.approx(2 / 6)  # rows 0 and 1 look at [CLS]
    assert share(roles, "sep") == 0.0
    assert share(roles, "punctuation") == pytest.approx(1 / 6)  # row 4 looks at the comma
    assert math.isnan(share(roles, "mirror"))  # self-attention has no mirror role
    assert roles.entropy[0] == 0.0 and roles.entropy_norm[0] == 0.0
    assert roles.dominant() == ["previous"]


def test_a_pure_cls_head():
    w = np.zeros((N, N))
    w[:, 0] = 1.0
    roles = head_roles(one_head(w), TOKENS, TOKENS)
    assert share(roles, "cls") == 1.0
    assert share(roles, "previous") == pytest.approx(1 / 5)  # of rows 1…5, only row 1's previous token is [CLS]
    assert share(roles, "self") == pytest.approx(1 / 6) and share(roles, "next") == 0.0
    assert share(roles, "sep") == share(roles, "punctuation") == 0.0
    assert roles.dominant() == ["cls"]


def test_a_uniform_head_has_entropy_log_n_and_is_broad():
    roles = head_roles(one_head(np.full((N, N), 1 / N)), TOKENS, TOKENS)
    assert roles.entropy[0] == pytest.approx(math.log(6))
    assert roles.entropy_norm[0] == pytest.approx(1.0)
    for role in ("previous", "next", "self", "cls", "sep", "punctuation"):  # one key of six, whatever the role
        assert share(roles, role) == pytest.approx(1 / 6)
    assert roles.dominant() == [BROAD]


def test_a_pure_self_head():
    roles = head_roles(one_head(np.eye(N)), TOKENS, TOKENS)
    assert share(roles, "self") == 1.0
    assert share(roles, "previous") == share(roles, "next") == 0.0
    assert share(roles, "cls") == share(roles, "sep") == share(roles, "punctuation") == pytest.approx(1 / 6)
    assert roles.dominant() == ["self"]


def test_several_heads_at_once_and_a_head_switched_off():
    w = np.stack([np.eye(N), np.full((N, N), 1 / N), np.full((N, N), np.nan)])  # (3, n, n)
    roles = head_roles(w, TOKENS, TOKENS)
    assert roles.scores.shape == (3, len(ROLES))
    assert roles.scores[0, ROLES.index("self")] == 1.0 and roles.entropy[1] == pytest.approx(math.log(6))
    assert np.isnan(roles.scores[2, :6]).all() and np.isnan(roles.entropy[2])


def test_a_causal_uniform_head_is_normalised_by_what_each_row_may_see():
    n = 5
    w = np.tril(np.ones((n, n)))
    w /= w.sum(-1, keepdims=True)  # row i: 1/(i+1) on keys 0…i
    tokens = ["<bos>", "a", "b", "c", "d"]
    roles = head_roles(w[None], tokens, tokens, AttentionKind.DECODER)
    assert roles.entropy[0] == pytest.approx(sum(math.log(k) for k in range(1, n + 1)) / n)
    assert roles.entropy_norm[0] == pytest.approx(1.0)  # each row uniform over what it may see (row 0 left out)
    assert share(roles, "next") == 0.0
    assert share(roles, "previous") == pytest.approx(np.mean([1 / 2, 1 / 3, 1 / 4, 1 / 5]))
    assert math.isnan(share(roles, "cls")) and math.isnan(share(roles, "punctuation"))  # no such token here


def test_a_cross_attention_head_that_reads_the_source_backwards_is_a_mirror_head():
    src = ["1", "2", "3", "<eos>"]  # reverse: the output 3 2 1 <eos>
    tgt = ["<bos>", "3", "2", "1"]
    w = np.zeros((4, 4))
    w[0, 2] = w[1, 1] = w[2, 0] = 1.0  # <bos> → "3", "3" → "2", "2" → "1": key Lk − 2 − i
    w[3, 3] = 1.0  # then <eos>
    roles = head_roles(w[None], tgt, src, AttentionKind.CROSS)
    assert share(roles, "mirror") == 1.0  # rows 0…2 (row 3 has no mirrored key)
    assert share(roles, "self") == pytest.approx(2 / 4)  # rows 1 and 3 happen to sit on the diagonal
    assert roles.dominant() == ["mirror"]


def test_dominance_needs_a_large_share_otherwise_broad_or_mixed():
    scores = np.array([0.39, 0.1, 0.1, np.nan, np.nan, 0.0, np.nan])
    assert dominant_role(scores, 0.9) == BROAD
    assert dominant_role(scores, 0.2) == MIXED
    assert dominant_role(np.where(np.arange(7) == 1, 0.4, scores), 0.9) == "next"
    assert dominant_role(np.full(7, np.nan), float("nan")) == MIXED
    assert set(DOMINANT) == {*ROLES, BROAD, MIXED}


@pytest.mark.parametrize(
    ("token", "punctuation"),
    [(",", True), ("。", True), ("“", True), ("...", True), ("##.", True), ("!?", True), ("$", False),
     ("a", False), ("[SEP]", False), ("<eos>", False), ("1", False), ("", False)],
)  # fmt: skip
def test_punctuation_is_every_character_a_unicode_punctuation_mark(token, punctuation):
    assert is_punctuation(token) is punctuation


def _atlas(scores, entropy, n_inputs) -> Atlas:
    block = (attention_name(AttentionKind.ENCODER, 0),)
    entropy = np.array(entropy)
    return Atlas(block, (AttentionKind.ENCODER,), (0,), np.array(scores), entropy, entropy, n_inputs)


def test_the_mean_of_atlases_weighs_each_input_and_skips_a_role_an_input_lacks():
    a = _atlas([[[1.0, np.nan]]], [[1.0]], 1)
    b = _atlas([[[0.0, 0.5]]], [[3.0]], 3)
    mean = mean_atlas([a, b])
    assert mean.n_inputs == 4
    np.testing.assert_allclose(mean.scores, [[[0.25, 0.5]]])  # (1·1 + 3·0) / 4; only b has the second role
    np.testing.assert_allclose(mean.entropy, [[2.5]])


def test_the_atlas_of_a_toy_transformer_trace_is_the_arithmetic_on_its_weights():
    loaded = load_pretrained("reverse")
    trace = loaded.run("1 2 3 4 5 6")
    atlas = trace_atlas(trace)
    blocks = [attention_name(k, layer) for k in (AttentionKind.ENCODER,) for layer in (0, 1)]
    assert set(blocks) <= set(atlas.blocks) and len(atlas.blocks) == 6 and atlas.n_heads == 4
    b = atlas.blocks.index(attention_name(AttentionKind.CROSS, 1))
    w = trace.numpy(attention_name(AttentionKind.CROSS, 1, "weights"))  # (H, T, S)
    T, S = w.shape[1:]
    mirror = [np.mean([w[h, i, S - 2 - i] for i in range(T) if S - 2 - i >= 0]) for h in range(4)]
    previous = [np.mean([w[h, i, i - 1] for i in range(1, T)]) for h in range(4)]
    np.testing.assert_allclose(atlas.scores[b, :, ROLES.index("mirror")], mirror, atol=1e-6)
    np.testing.assert_allclose(atlas.scores[b, :, ROLES.index("previous")], previous, atol=1e-6)
    entropy = -(w * np.log(np.where(w > 0, w, 1))).sum(-1).mean(-1)
    np.testing.assert_allclose(atlas.entropy[b], entropy, atol=1e-6)
    assert np.isnan(atlas.scores[:, :, ROLES.index("cls")]).all()  # no [CLS] or [SEP] in a toy model
    d = atlas.blocks.index(attention_name(AttentionKind.DECODER, 0))
    assert (atlas.scores[d, :, ROLES.index("next")] == 0).all()  # the decoder may not look ahead
    assert atlas.kind_rows(AttentionKind.CROSS) == [atlas.blocks.index(attention_name(AttentionKind.CROSS, i))
                                                      for i in (0, 1)]  # fmt: skip
    hover = atlas.head(AttentionKind.CROSS, 1, 2)
    assert hover["mirror"] == pytest.approx(mirror[2]) and hover["dominant"] in DOMINANT


def test_the_reverse_model_s_last_cross_attention_reads_the_source_backwards_over_its_fixed_inputs():
    loaded = load_pretrained("reverse")
    texts = atlas_texts(loaded)
    assert len(texts) == 50 and texts == atlas_texts(loaded)  # fixed
    atlas = corpus_atlas(loaded, texts[:12])  # 12 of them keep the test short
    assert atlas.n_inputs == 12
    last = atlas.kind_rows(AttentionKind.CROSS)[-1]
    assert list(atlas.dominant()[last]) == ["mirror"] * 4
    assert (atlas.scores[last, :, ROLES.index("mirror")] > 0.5).all()


def test_the_rnn_s_one_head_has_an_atlas_too():
    atlas = trace_atlas(load_pretrained("reverse-rnn").run("1 2 3 4"))
    assert atlas.blocks == (attention_name(AttentionKind.RNN),) and atlas.scores.shape == (1, 1, len(ROLES))
    assert np.isfinite(atlas.scores[0, 0, ROLES.index("mirror")]) and np.isfinite(atlas.entropy_norm[0, 0])


def test_minilm_s_atlas_on_one_sentence_and_over_batches_equals_one_by_one():
    loaded = minilm()
    trace = loaded.run("The cat sat on the mat, and it purred.")
    atlas = trace_atlas(trace)
    assert atlas.scores.shape == (6, 12, len(ROLES)) and atlas.kinds == (AttentionKind.ENCODER,) * 6
    tokens = trace.tokens(Side.SRC)
    w = trace.numpy(attention_name(AttentionKind.ENCODER, 2, "weights"))  # (12, S, S)
    cls_share = w[:, :, tokens.index("[CLS]")].mean(-1)
    sep_share = w[:, :, tokens.index("[SEP]")].mean(-1)
    np.testing.assert_allclose(atlas.scores[2, :, ROLES.index("cls")], cls_share, atol=1e-6)
    np.testing.assert_allclose(atlas.scores[2, :, ROLES.index("sep")], sep_share, atol=1e-6)
    assert np.isnan(atlas.scores[:, :, ROLES.index("mirror")]).all()
    texts = atlas_sentences()[20:30]  # English and Chinese, of different lengths
    batched = corpus_atlas(loaded, texts, batch_size=4)
    alone = mean_atlas([trace_atlas(loaded.run(text)) for text in texts])
    np.testing.assert_allclose(batched.scores, alone.scores, atol=1e-6)
    np.testing.assert_allclose(batched.entropy_norm, alone.entropy_norm, atol=1e-6)


def test_the_shipped_sentences_are_25_english_and_25_chinese():
    en, zh = atlas_sentences("en"), atlas_sentences("zh")
    assert len(en) == len(zh) == 25 and atlas_sentences() == en + zh and len(set(en + zh)) == 50
    assert all(s.isascii() for s in en) and all(any("\u4e00" <= c <= "\u9fff" for c in s) for s in zh)
    assert all(any(is_punctuation(c) for c in s) for s in en + zh)
    with pytest.raises(ValueError):
        atlas_sentences("fr")
