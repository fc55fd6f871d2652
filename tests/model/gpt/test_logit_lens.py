"""The logit lens: at the last layer it is the model's own final distribution; every depth is ln_f and the tied head
applied by hand (torch.nn.functional.layer_norm, @ wteᵀ) to the stream the trace holds."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from model import InputError
from model.analysis.logit_lens import logit_lens, stream_names
from tests.toys import tiny_gpt

TEXT = "To be, or not to be"


@pytest.fixture(scope="module")
def lm():
    loaded = tiny_gpt("en", n_layers=3)
    with torch.no_grad():  # a sharper model than a fresh one, so the ranks below mean something
        for p in loaded.model.parameters():
            if p.dim() > 1:
                p.mul_(8.0)
    return loaded


def test_the_last_row_is_the_model_s_own_distribution(lm):
    trace = lm.trace(TEXT)
    lens = logit_lens(lm.model, trace, lm.vocabulary, k=len(lm.vocabulary))
    final = torch.softmax(trace["logits"][0, -1].double(), dim=-1)
    last = lens.rows[-1]
    assert last.name == "decoder.2.ffn.resid" and last.depth == 3 and len(lens.rows) == 4
    assert last.ids == [int(i) for i in torch.sort(final, descending=True, stable=True).indices]
    torch.testing.assert_close(torch.tensor(last.probs, dtype=torch.float64), final[last.ids], atol=1e-12, rtol=0)
    assert lens.answer_id == int(final.argmax()) == last.ids[0] and last.answer_rank == 1
    assert lens.answer == lm.vocabulary[lens.answer_id] == trace.prediction
    assert abs(sum(last.probs) - 1) < 1e-12


@pytest.mark.parametrize("position", [0, 5, -1, -3])
def test_every_depth_is_the_final_norm_and_the_tied_head_by_hand(lm, position):
    trace = lm.trace(TEXT)
    lens = logit_lens(lm.model, trace, lm.vocabulary, position=position, k=4)
    at = position % len(TEXT)
    assert lens.position == at
    ln, wte = lm.model.ln_f, lm.model.wte.weight
    answer = int(trace["logits"][0, at].argmax())
    for row, name in zip(lens.rows, ["tgt.input", "decoder.0.ffn.resid", "decoder.1.ffn.resid",
                                     "decoder.2.ffn.resid"], strict=True):  # fmt: skip
        x = trace[name][0, at]
        with torch.no_grad():
            probs = torch.softmax((F.layer_norm(x, (x.shape[-1],), ln.weight, ln.bias, ln.eps) @ wte.T).double(), -1)
        expected = torch.topk(probs, 4)
        assert row.name == name and row.ids == expected.indices.tolist()
        torch.testing.assert_close(torch.tensor(row.probs, dtype=torch.float64), expected.values, atol=1e-6, rtol=0)
        assert row.answer_rank == int((probs > probs[answer]).sum()) + 1
        assert abs(row.answer_prob - float(probs[answer])) < 1e-6


def test_stream_names_and_bad_positions(lm):
    assert stream_names(2) == ["tgt.input", "decoder.0.ffn.resid", "decoder.1.ffn.resid"]
    trace = lm.trace("To be")
    bad_positions: tuple = (5, -6, 1.5, True)
    for bad in bad_positions:
        with pytest.raises(InputError, match="position"):
            logit_lens(lm.model, trace, lm.vocabulary, position=bad)
    with pytest.raises(InputError):
        logit_lens(lm.model, trace, lm.vocabulary, k=0)


def test_the_top_k_are_a_stable_sort_s_first_k_without_sorting_the_vocabulary():
    """logit_lens's _stable_top against torch's stable descending sort, on a GPT-2-sized row set with ties."""
    from model.analysis.logit_lens import _stable_top

    g = torch.Generator().manual_seed(0)
    probs = torch.softmax(torch.randn(13, 50257, generator=g, dtype=torch.float64), -1)
    probs[3, 10] = probs[3, 20] = probs[3, 7] = probs[3].max() + 0.01  # a three-way tie at the top
    probs[5, 100:110] = probs[5].max() + 0.02  # ten tied: the first k of them by id
    for k in (1, 2, 5, 10):
        expected = torch.sort(probs, dim=-1, descending=True, stable=True).indices[:, :k]
        assert torch.equal(_stable_top(probs, k), expected)
