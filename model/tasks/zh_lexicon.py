"""The words of the toy Chinese → English task, with what the grammar needs to know about each."""

from __future__ import annotations

from typing import NamedTuple


class Thing(NamedTuple):
    """An object noun: its English word, the measure word Chinese counts it with, and its kind."""

    english: str
    measure: str
    kind: str  # text, food, object or animal: verbs and adjectives say which kinds they take


TEXT, FOOD, OBJECT, ANIMAL = "text", "food", "object", "animal"
ANY_KIND = frozenset({TEXT, FOOD, OBJECT, ANIMAL})

PERSONS = {
    "老师": "teacher", "学生": "student", "医生": "doctor", "农民": "farmer",
    "孩子": "child", "朋友": "friend", "妈妈": "mother", "爸爸": "father",
}  # fmt: skip
RELATIONS = ("老师", "孩子", "朋友", "妈妈", "爸爸")  # persons that can be somebody's: 学生 的 妈妈
PRONOUNS = {"他": ("he", "his"), "她": ("she", "her")}  # (subject, owner)
THINGS = {
    "书": Thing("book", "本", TEXT), "信": Thing("letter", "封", TEXT), "报纸": Thing("newspaper", "份", TEXT),
    "苹果": Thing("apple", "个", FOOD), "鸡蛋": Thing("egg", "个", FOOD), "橙子": Thing("orange", "个", FOOD),
    "杯子": Thing("cup", "个", OBJECT), "雨伞": Thing("umbrella", "把", OBJECT), "椅子": Thing("chair", "把", OBJECT),
    "车": Thing("car", "辆", OBJECT), "自行车": Thing("bicycle", "辆", OBJECT), "桌子": Thing("table", "张", OBJECT),
    "照片": Thing("photo", "张", OBJECT), "花": Thing("flower", "朵", OBJECT),
    "猫": Thing("cat", "只", ANIMAL), "狗": Thing("dog", "只", ANIMAL), "鸟": Thing("bird", "只", ANIMAL),
    "鱼": Thing("fish", "条", ANIMAL),
}  # fmt: skip
MEASURE_WORDS = tuple(dict.fromkeys(t.measure for t in THINGS.values()))  # 本 封 份 个 把 辆 张 朵 只 条
DETERMINERS = {"一": "a", "这": "this", "那": "that"}  # "a" becomes "an" before a vowel
ADJECTIVES = {
    "大": ("big", ANY_KIND), "小": ("small", ANY_KIND), "红": ("red", ANY_KIND), "白": ("white", ANY_KIND),
    "黑": ("black", ANY_KIND), "绿": ("green", frozenset({FOOD, OBJECT})),
    "新": ("new", frozenset({TEXT, OBJECT})), "旧": ("old", frozenset({TEXT, OBJECT})),
}  # fmt: skip
VERBS = {
    "读": ("reads", frozenset({TEXT})), "写": ("writes", frozenset({TEXT})), "吃": ("eats", frozenset({FOOD})),
    "洗": ("washes", frozenset({FOOD, OBJECT, ANIMAL})), "画": ("draws", frozenset({FOOD, OBJECT, ANIMAL})),
    "买": ("buys", ANY_KIND), "卖": ("sells", ANY_KIND), "找": ("looks for", ANY_KIND),
    "喜欢": ("likes", ANY_KIND), "看见": ("sees", ANY_KIND), "带": ("brings", ANY_KIND), "有": ("has", ANY_KIND),
}  # fmt: skip
TIMES = {
    "今天": "today", "现在": "now", "每天": "every day",
    "早上": "in the morning", "下午": "in the afternoon", "晚上": "in the evening",
}  # fmt: skip
PLACES = {
    "学校": "at school", "家": "at home", "公园": "in the park", "图书馆": "in the library",
    "商店": "in the shop", "厨房": "in the kitchen", "花园": "in the garden",
}  # fmt: skip
AT, OF = "在", "的"  # 在 + place; owner + 的 + thing

SOURCE_WORDS = [
    *PERSONS, *PRONOUNS, *THINGS, *MEASURE_WORDS, *DETERMINERS, *ADJECTIVES, *VERBS, *TIMES, *PLACES, AT, OF,
]  # fmt: skip
_TARGET_PHRASES = [
    "the an of", *DETERMINERS.values(), *PERSONS.values(), *(w for pair in PRONOUNS.values() for w in pair),
    *(t.english for t in THINGS.values()), *(a for a, _ in ADJECTIVES.values()), *(v for v, _ in VERBS.values()),
    *TIMES.values(), *PLACES.values(),
]  # fmt: skip
TARGET_WORDS = list(dict.fromkeys(word for phrase in _TARGET_PHRASES for word in phrase.split()))
