"""Greedy decoding and the traced teacher-forced pass over its output agree with each other."""

from __future__ import annotations

import pytest
import torch

from model import load_pretrained
from model.tasks import EOS_ID
from tests.toys import toy


def test_trace_logits_reproduce_the_greedy_output():
    loaded = toy("reverse")
    trace = loaded.run("1 2 3 4 5")
    assert trace.prediction == "5 4 3 2 1"
    predicted = trace["logits"][0].argmax(-1).tolist()  # (T,)
    out_ids = [loaded.task.tgt_vocab.stoi[t] for t in trace.tokens("tgt")[1:]]
    assert predicted == [*out_ids, EOS_ID]  # each position predicts the next token, the last one <eos>


def test_teacher_forcing_on_a_given_target():
    loaded = load_pretrained("translate")
    trace = loaded.run("the dog sees a cat", target="le chien voit un chat")
    assert trace.tokens("tgt") == ["<bos>", "le", "chien", "voit", "un", "chat"]
    assert trace.tokens("src") == ["the", "dog", "sees", "a", "cat", "<eos>"]
    assert trace["decoder.0.cross_attn.weights"].shape == (1, 4, 6, 6)
    assert trace.prediction is None


def test_batch_predictions_equal_single_predictions():
    loaded = toy("sort")
    texts = ["3 1 2", "9 8 7 6 5 4 3 2 1 0", "5"]
    assert loaded.predict_batch(texts) == [loaded.predict(t) for t in texts]


def test_ablation_without_positions_changes_the_prediction():
    loaded = toy("reverse")
    from model import Ablation

    text = "1 2 3 4 5 6 7 8"
    assert loaded.predict(text) == "8 7 6 5 4 3 2 1"
    broken = loaded.predict(text, ablation=Ablation(positional=False))
    assert broken != "8 7 6 5 4 3 2 1"
    trace = loaded.run(text, ablation=Ablation(positional=False))
    assert torch.count_nonzero(trace["src.pos"]) == 0


def test_traces_are_only_captured_in_eval_mode():
    from model import ModelConfig, Seq2SeqTransformer

    model = Seq2SeqTransformer(ModelConfig(src_vocab_size=8, tgt_vocab_size=8, d_model=16, n_heads=2, dropout=0.5))
    src, tgt = torch.tensor([[4, 5, 6, 2]]), torch.tensor([[1, 4, 5]])
    model.train()
    with pytest.raises(RuntimeError, match="eval mode"):
        model(src, tgt, record=True)
    model.eval()
    _, first = model(src, tgt, record=True)
    _, second = model(src, tgt, record=True)
    for name in first:  # no dropout: two captures are identical
        assert torch.equal(first[name], second[name])
