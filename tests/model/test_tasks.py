"""The toy tasks: correct targets, a ≥ 30-word translation grammar with crossing order, tokenizers."""

from __future__ import annotations

import pytest

from model import TASKS, get_task
from model.tasks import BOS_ID, EOS_ID, PAD_ID, SPECIALS


def test_special_tokens_come_first():
    for name in TASKS:
        task = get_task(name)
        assert task.src_vocab.itos[:4] == list(SPECIALS) == ["<pad>", "<bos>", "<eos>", "<unk>"]


@pytest.mark.parametrize(
    ("name", "source", "target"),
    [("copy", "3 1 2", "3 1 2"), ("reverse", "3 1 2", "2 1 3"), ("sort", "3 1 2 1", "1 1 2 3")],
)
def test_digit_tasks(name, source, target):
    task = get_task(name)
    assert task.target_for(source) == target
    for src, tgt in task.sample(200, seed=1):
        assert task.target_for(src) == tgt
        assert 1 <= len(src.split()) <= 12
        assert all(w in "0123456789" for w in src.split())


def test_translate_moves_adjectives_after_the_noun():
    from model.tasks.translate import NOUNS

    task = get_task("translate")
    assert task.target_for("the big red dog sees a cat") == "le chien rouge grand voit un chat"
    assert len(task.src_vocab.words) >= 30 and len(task.tgt_vocab.words) >= 30
    crossing = 0
    for src, tgt in task.sample(300, seed=2):
        s, t = src.split(), tgt.split()
        assert len(s) == len(t) and task.target_for(src) == tgt
        src_nouns = [i for i, w in enumerate(s) if w in NOUNS]
        tgt_nouns = [i for i, w in enumerate(t) if w in NOUNS.values()]
        crossing += src_nouns != tgt_nouns  # a noun moved forward past its adjectives
    assert crossing > 150  # most sentences need a non-diagonal alignment


def test_sampling_is_deterministic_per_seed():
    task = get_task("reverse")
    assert task.sample(50, seed=7) == task.sample(50, seed=7)
    assert task.sample(50, seed=7) != task.sample(50, seed=8)


def test_accuracy_is_exact_match():
    task = get_task("copy")
    assert task.accuracy(["1 2", "3", "4 5"], ["1 2", "3 3", "4  5"]) == pytest.approx(2 / 3)


def test_batch_is_padded_teacher_forcing():
    task = get_task("reverse")
    src, tgt_in, tgt_out = task.batch([("1 2 3", "3 2 1"), ("4", "4")])
    one, two, three, four = (task.src_vocab.stoi[d] for d in "1234")
    assert src.tolist() == [[one, two, three, EOS_ID], [four, EOS_ID, PAD_ID, PAD_ID]]
    assert tgt_in.tolist() == [[BOS_ID, three, two, one], [BOS_ID, four, PAD_ID, PAD_ID]]
    assert tgt_out.tolist() == [[three, two, one, EOS_ID], [four, EOS_ID, PAD_ID, PAD_ID]]


def test_unknown_task_name():
    with pytest.raises(ValueError, match="choose one of"):
        get_task("chess")
