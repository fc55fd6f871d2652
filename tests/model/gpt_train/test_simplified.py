"""OpenCC's t2s conversion, on characters whose Simplified forms are known."""

from __future__ import annotations

from model.corpora.simplified import to_simplified


def test_known_characters():
    pairs = {"門": "门", "書": "书", "國": "国", "學": "学", "鳥": "鸟", "飛": "飞", "歸": "归", "龍": "龙", "愛": "爱"}
    assert to_simplified("".join(pairs)) == "".join(pairs.values())


def test_simplified_and_punctuation_pass_through():
    assert to_simplified("床前明月光，疑是地上霜。\n") == "床前明月光，疑是地上霜。\n"


def test_a_poem():
    poem = "白日依山盡，黃河入海流。欲窮千里目，更上一層樓。"
    assert to_simplified(poem) == "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"
