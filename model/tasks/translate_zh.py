"""A toy Chinese → English translation whose cross-attention has to cross.

"老师今天在学校读一本旧书" → "the teacher reads an old book at school today": Chinese puts when
and where before the verb and the owner before the thing (学生 的 书 → the book of the student);
English puts them after, and the measure word (本, 只, 个 …) has no English word. Source text may
be typed with or without spaces: it is segmented by longest match over the task's words.
"""

from __future__ import annotations

import random

from .base import N_, Task
from .segment import SegmentingVocabulary
from .vocab import Vocabulary
from .zh_grammar import Phrase, Sentence, chinese, english, parse
from .zh_lexicon import (
    ADJECTIVES,
    DETERMINERS,
    PERSONS,
    PLACES,
    PRONOUNS,
    RELATIONS,
    SOURCE_WORDS,
    TARGET_WORDS,
    THINGS,
    TIMES,
    VERBS,
)

MAX_SOURCE_WORDS = 11  # [time] owner 的 subject 在 place verb det measure adjective thing
MAX_TARGET_WORDS = 19  # the mother of the student looks for the old book of the teacher in the park in the morning


class TranslateZhTask(Task):
    name = "translate-zh"
    title = N_("Toy translation into Chinese")
    description = N_(
        "Translate Chinese to English: time and place move after the verb, 'X 的 Y' becomes 'the Y of the X', "
        "measure words vanish."
    )
    example = "老师今天在学校读一本旧书"

    def __init__(self):
        super().__init__(
            SegmentingVocabulary(SOURCE_WORDS), Vocabulary(TARGET_WORDS), MAX_SOURCE_WORDS, MAX_TARGET_WORDS
        )

    def max_new_tokens(self, source_len: int) -> int:
        """English runs longer than the Chinese (学生 的 书 → the book of the student): room for the longest answer."""
        return max(super().max_new_tokens(source_len), self.max_tgt_words + 1)

    def generate(self, rng: random.Random) -> tuple[list[str], list[str]]:
        sentence = random_sentence(rng)
        return chinese(sentence), english(sentence)

    def target_for(self, source: str) -> str | None:
        """English for a sentence of the grammar, typed with or without spaces; None for anything else."""
        sentence = parse(self.src_vocab.split(source))
        return None if sentence is None else " ".join(english(sentence))


def random_sentence(rng: random.Random) -> Sentence:
    """A random sentence of the grammar: every part is drawn so that the verb and adjective fit the object."""
    verb = rng.choice(list(VERBS))
    noun = rng.choice([n for n, thing in THINGS.items() if thing.kind in VERBS[verb][1]])
    adjectives = [a for a, (_, kinds) in ADJECTIVES.items() if THINGS[noun].kind in kinds]
    adjective = rng.choice(adjectives) if rng.random() < 0.5 else None
    if rng.random() < 0.65:
        obj = Phrase(noun, determiner=rng.choice([*DETERMINERS, "一"]), adjective=adjective)  # 一 twice as often
    else:
        obj = Phrase(noun, owner=_person(rng), adjective=adjective)
    time = rng.choice(list(TIMES)) if rng.random() < 0.7 else None
    place = rng.choice(list(PLACES)) if rng.random() < 0.7 else None
    return Sentence(_subject(rng), verb, obj, time, place, time_first=time is not None and rng.random() < 0.3)


def _subject(rng: random.Random) -> Phrase:
    roll = rng.random()
    if roll < 0.2:
        return Phrase(rng.choice(list(PRONOUNS)))
    if roll < 0.45:
        return Phrase(rng.choice(RELATIONS), owner=_person(rng))
    return Phrase(rng.choice(list(PERSONS)))


def _person(rng: random.Random) -> str:
    return rng.choice([*PERSONS, *PRONOUNS])
