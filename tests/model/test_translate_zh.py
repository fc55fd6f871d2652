"""translate-zh: the grammar against hand-written English, segmentation with and without spaces,
unknown characters, and the shipped model (accuracy on unspaced input, crossing cross-attention)."""

from __future__ import annotations

import itertools
import json

import pytest
import torch

from model import TASKS, get_task, load_pretrained
from model.io.pretrained import CHECKPOINT_DIR
from model.tasks import Vocabulary
from model.tasks.segment import longest_match


@pytest.fixture(scope="module")
def task():
    return get_task("translate-zh")


@pytest.fixture(scope="module")
def shipped():
    return load_pretrained("translate-zh")


# Hand-written translations: typed here, not produced by the code under test.
PAIRS = [
    ("老师 今天 在 学校 读 一 本 旧 书", "the teacher reads an old book at school today"),
    ("今天 老师 在 学校 读 一 本 旧 书", "the teacher reads an old book at school today"),
    (
        "学生 的 妈妈 晚上 在 厨房 洗 一 个 红 苹果",
        "the mother of the student washes a red apple in the kitchen in the evening",
    ),
    ("他 每天 在 图书馆 找 她 的 新 书", "he looks for her new book in the library every day"),
    ("她 吃 一 个 鸡蛋", "she eats an egg"),
    ("爸爸 现在 看见 一 只 小 猫", "the father sees a small cat now"),
    ("孩子 在 公园 画 医生 的 狗", "the child draws the dog of the doctor in the park"),
    (
        "朋友 的 孩子 下午 在 家 买 那 辆 旧 自行车",
        "the child of the friend buys that old bicycle at home in the afternoon",
    ),
    ("农民 早上 在 花园 卖 这 朵 白 花", "the farmer sells this white flower in the garden in the morning"),
    ("他 的 老师 有 一 把 雨伞", "his teacher has an umbrella"),
    ("医生 在 商店 带 一 个 橙子", "the doctor brings an orange in the shop"),
    ("妈妈 写 一 封 信", "the mother writes a letter"),
    ("她 喜欢 学生 的 黑 鸟", "she likes the black bird of the student"),
    ("朋友 的 朋友 在 学校 看见 一 条 鱼", "the friend of the friend sees a fish at school"),
]  # fmt: skip


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_grammar_against_hand_written_pairs(task, source, target):
    assert task.target_for(source) == target
    assert task.target_for(source.replace(" ", "")) == target  # typed as people type Chinese


@pytest.mark.parametrize(
    "source",
    [
        "", "   ", "老师", "老师 读", "读 一 本 书 老师",
        "老师 读 书",  # good Chinese, but the task always counts or owns the object
        "老师 读 一 只 书",  # 只 is not the measure word of 书
        "老师 读 一 书",  # no measure word
        "老师 吃 一 本 书",  # 吃 takes food
        "老师 有 一 只 旧 狗",  # 旧 is not for animals
        "老师 在 读 一 本 书",  # 在 with no place
        "今天 老师 今天 读 一 本 书",  # two times
        "学生 的 医生 读 一 本 书",  # 医生 is not somebody's relation in this grammar
        "老师 读 一 本 书 书",  # trailing word
        "老师 喝 一 杯 咖啡",  # unknown words
        "老师读一本书。",  # punctuation is unknown
        "the teacher reads a book",
    ],
)  # fmt: skip
def test_target_for_text_outside_the_task_is_none(task, source):
    assert task.target_for(source) is None


def test_vocabulary_is_large_and_samples_follow_the_grammar(task):
    assert len(task.src_vocab.words) >= 40
    assert all(w.isascii() and w.isalpha() and w == w.lower() for w in task.tgt_vocab.words)
    samples = task.sample(2000, seed=3)
    assert samples == task.sample(2000, seed=3) and samples != task.sample(2000, seed=4)
    used = set()
    for source, target in samples:
        words, english = source.split(), target.split()
        used.update(words)
        assert 5 <= len(words) <= task.max_src_words == 11 and len(english) <= task.max_tgt_words == 19
        assert task.target_for(source) == target
    assert len(used) == len(task.src_vocab.words)  # every word of the vocabulary is used


def test_time_moves_from_before_the_verb_to_the_end(task):
    times = {"今天": ["today"], "现在": ["now"], "每天": ["every", "day"], "早上": ["in", "the", "morning"]}
    moved = 0
    for source, target in task.sample(1000, seed=5):
        words, english = source.split(), target.split()
        for zh, en in times.items():
            if zh in words:
                assert english[-len(en) :] == en  # last in English…
                assert words.index(zh) <= 3  # …and among the first words in Chinese, before the verb
                moved += 1
    assert moved > 300


def test_a_and_an_follow_the_next_english_word(task):
    counts = {"a": 0, "an": 0}
    for _, target in task.sample(2000, seed=6):
        english = target.split()
        for article, following in itertools.pairwise(english):
            if article in counts:
                counts[article] += 1
                assert (article == "an") == (following[0] in "aeiou"), target
    assert counts["a"] > 300 and counts["an"] > 100


EXAMPLE_TOKENS = ["老师", "今天", "在", "学校", "读", "一", "本", "旧", "书"]
EXAMPLE_ENGLISH = ["the", "teacher", "reads", "an", "old", "book", "at", "school", "today"]


@pytest.mark.parametrize(
    "text",
    [
        "老师今天在学校读一本旧书",
        "老师 今天 在 学校 读 一 本 旧 书",
        "老师今天 在学校  读一本旧书",
        "  老师\u3000今天\u3000在\u3000学校\u3000读\u3000一\u3000本\u3000旧\u3000书\u3000",
        "老师\t今天\n在学校读 一本 旧书 ",
    ],
)
def test_segmentation_with_and_without_spaces_gives_the_same_tokens(task, text):
    encoded = task.src_vocab.encode(text)
    assert encoded.tokens == EXAMPLE_TOKENS
    assert encoded.ids == [task.src_vocab.stoi[w] for w in EXAMPLE_TOKENS]
    assert encoded.unknown == []


def test_longest_match_prefers_the_longer_word():
    words = {"花", "花园", "车", "自行车", "在", "现在", "家"}
    assert longest_match("现在在花园", words) == ["现在", "在", "花园"]
    assert longest_match("自行车花", words) == ["自行车", "花"]
    assert longest_match("", words) == [] and longest_match(" \u3000 ", words) == []


def test_every_sample_segments_back_to_its_words_without_spaces(task):
    for source, _ in task.sample(2000, seed=7):
        assert task.src_vocab.split(source.replace(" ", "")) == source.split()


@pytest.mark.parametrize(
    ("text", "tokens", "unknown"),
    [
        ("老师喝咖啡", ["老师", "<unk>"], ["喝咖啡"]),  # a run of unknown characters is one <unk>
        ("老师喝一杯咖啡", ["老师", "<unk>", "一", "<unk>"], ["喝", "杯咖啡"]),
        ("Hello老师", ["<unk>", "老师"], ["hello"]),  # a Latin word is one <unk>, lower-cased
        ("老师读书。", ["老师", "读", "书", "<unk>"], ["。"]),
        ("老师 <eos> 书", ["老师", "<unk>", "书"], ["<eos>"]),  # a typed special token is not a real one
        ("<script>老师</script>", ["<unk>", "老师", "<unk>"], ["<script>", "</script>"]),
    ],
)
def test_unknown_characters_become_unk_and_are_reported(task, text, tokens, unknown):
    encoded = task.src_vocab.encode(text)
    assert encoded.tokens == tokens
    assert encoded.unknown == unknown
    assert encoded.ids == [task.src_vocab.stoi[t] for t in tokens]


def test_other_vocabularies_still_split_on_spaces_only():
    vocab = Vocabulary(["老师", "书", "dog"])
    assert vocab.encode("老师书").tokens == ["<unk>"] and vocab.encode("老师书").unknown == ["老师书"]
    assert vocab.encode("老师 书 DOG").tokens == ["老师", "书", "dog"]
    assert get_task("translate").src_vocab.encode("thebig dog").unknown == ["thebig"]


def test_task_is_registered():
    assert TASKS["translate-zh"] is type(get_task("translate-zh"))


def test_shipped_model_is_accurate_on_unspaced_input(shipped):
    pairs = shipped.task.sample(1000, seed=20261122)
    predictions = shipped.predict_batch([s.replace(" ", "") for s, _ in pairs])
    wrong = [(s, t, p) for (s, t), p in zip(pairs, predictions, strict=True) if p != t]
    assert len(wrong) <= 10, wrong[:5]  # ≥ 99 %


def test_predict_on_unspaced_chinese(shipped):
    assert shipped.predict("老师今天在学校读一本旧书") == "the teacher reads an old book at school today"
    assert shipped.predict("学生的妈妈晚上在厨房洗一个红苹果") == (
        "the mother of the student washes a red apple in the kitchen in the evening"
    )
    # the English is twice the Chinese: decoding must not stop at the source's length
    assert shipped.predict("学生每天带医生的书") == "the student brings the book of the doctor every day"


def test_trace_axes_carry_the_chinese_tokens(shipped):
    trace = shipped.run("老师今天在学校读一本旧书")
    assert trace.tokens("src") == [*EXAMPLE_TOKENS, "<eos>"]
    assert trace.tokens("tgt") == ["<bos>", *EXAMPLE_ENGLISH]
    assert trace["decoder.1.cross_attn.weights"].shape == (1, 4, 10, 10)
    unknown = shipped.run("老师今天喝咖啡")
    assert unknown.tokens("src") == ["老师", "今天", "<unk>", "<eos>"] and unknown.unknown == ["喝咖啡"]


def test_checkpoint_loads_and_its_vocabularies_check(shipped, task):
    config = json.loads((CHECKPOINT_DIR / "translate-zh" / "config.json").read_text(encoding="utf-8"))
    assert config["task"] == "translate-zh"
    assert config["src_vocab"] == task.src_vocab.words and config["tgt_vocab"] == task.tgt_vocab.words
    assert "老师" in (CHECKPOINT_DIR / "translate-zh" / "config.json").read_text(encoding="utf-8")  # readable
    assert shipped.config.src_vocab_size == len(task.src_vocab) == 80
    assert shipped.config.tgt_vocab_size == len(task.tgt_vocab) == 77


def _aligned(trace, output_words: list[str]) -> dict[str, str]:
    """For each output word, the source token the last decoder layer's cross-attention (mean over heads)
    weighs most at the position that produces it (the row of the decoder input just before it)."""
    weights = trace["decoder.1.cross_attn.weights"][0].mean(0)  # (T, S)
    src = trace.tokens("src")
    return {w: src[int(weights[i].argmax())] for i, w in enumerate(output_words)}


def test_cross_attention_crosses_for_the_example(shipped):
    trace = shipped.run("老师今天在学校读一本旧书", target=" ".join(EXAMPLE_ENGLISH))
    aligned = _aligned(trace, EXAMPLE_ENGLISH)
    expected = {"teacher": "老师", "reads": "读", "an": "一", "old": "旧", "book": "书", "at": "在", "today": "今天"}
    assert {w: aligned[w] for w in expected} == expected
    order = [EXAMPLE_TOKENS.index(aligned[w]) for w in ("teacher", "reads", "book", "today")]
    assert order == [0, 4, 8, 1]  # "today" goes back to the second source word: the alignment crosses


def test_cross_attention_finds_the_words_that_moved(shipped):
    """Over many sentences, each person, verb, thing, adjective and time is attended where it is in Chinese."""
    lexicon = {"today": "今天", "now": "现在", "day": "每天", "morning": "早上", "afternoon": "下午", "evening": "晚上"}
    hits = total = 0
    for source, target in shipped.task.sample(200, seed=8):
        words, english = source.split(), target.split()
        aligned = _aligned(shipped.run(source, target=target), english)
        for en, zh in lexicon.items():
            if zh in words and en in aligned:
                total += 1
                hits += aligned[en] == zh
    assert total > 100 and hits / total >= 0.95


def test_tokenize_limit_counts_segmented_words(shipped):
    limit = shipped.max_words
    shipped.tokenize("书" * limit)
    with pytest.raises(ValueError, match=f"at most {limit}"):
        shipped.tokenize("书" * (limit + 1))
    assert torch.equal(
        shipped.task.source_ids(["老师今天在学校读一本旧书"]),
        shipped.task.source_ids(["老师 今天 在 学校 读 一 本 旧 书"]),
    )
