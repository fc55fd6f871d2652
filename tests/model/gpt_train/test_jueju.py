"""The 五言绝句 form check, on poems and near misses written by hand."""

from __future__ import annotations

import pytest

from model.corpora.jueju import first_poem, is_han, is_jueju

GOOD = "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"


@pytest.mark.parametrize(
    "text",
    [
        GOOD,
        "鸣筝金粟柱，素手玉房前。欲得周郎顾，时时误拂弦。",
        "为底胡姬酒，长来白鼻䯄。摘莲抛水上，郎意在浮花。",  # 䯄: Extension A
        "谁能惊𫛳鸟，作赋为沙鸥。江草何多思，冬青尚满洲。",  # 𫛳: Extension E, outside the BMP
    ],
)
def test_well_formed(text):
    assert is_jueju(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        GOOD[:-1],  # the last 。 missing
        GOOD + "\n",  # anything after the poem
        "白日依山尽。黄河入海流，欲穷千里目，更上一层楼。",  # 。 and ，swapped
        "白日依山尽,黄河入海流.欲穷千里目,更上一层楼.",  # ASCII marks
        "何处秋风至？萧萧送雁群。朝来入庭树，孤客最先闻。",  # a question mark
        "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。白日依山尽，黄河入海流。",  # six lines
        "白日依山，黄河入海流流。欲穷千里目，更上一层楼。",  # four then six characters
        "白日依山尽，黄河入海流。欲穷千里目，更上一层 。",  # a space
        "白日依Ab尽，黄河入海流。欲穷千里目，更上一层楼。",  # Latin letters
        "白日依山尽，黄河入海流。欲穷千里目，更上一□楼。",  # the unknown mark, not counted unless asked
    ],
)
def test_not_well_formed(text):
    assert not is_jueju(text)


def test_the_unknown_mark_counts_as_a_character_only_when_named():
    text = "白日依山尽，黄河入海流。欲穷千里目，更上一□楼。"
    assert is_jueju(text, unknown="□") and not is_jueju(text)
    assert not is_jueju(text.replace("□", "?"), unknown="□")


def test_is_han():
    assert all(is_han(c) for c in "中国一丁䯄𫛳豈")  # 豈 U+8C48; also compatibility U+F900 below
    assert is_han("\uf900") and not any(is_han(c) for c in "，。a1 □\n々") and not is_han("中国")


def test_first_poem_is_the_text_before_the_first_newline():
    assert first_poem(GOOD + "\n春眠") == GOOD
    assert first_poem("春眠不觉晓") == "春眠不觉晓"
    assert first_poem("\n" + GOOD) == ""
