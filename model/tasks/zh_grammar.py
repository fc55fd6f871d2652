"""The toy Chinese sentence: one structure, written out in Chinese order and in English order, and parsed back.

Chinese:  [time] subject [time] [在 place] verb object     老师 今天 在 学校 读 一 本 旧 书
English:  subject verb object [place] [time]              the teacher reads an old book at school today
A phrase "owner 的 thing" becomes "the thing of the owner" (his / her thing for 他 / 她), and the
measure word after 一 / 这 / 那 has no English word.
"""

from __future__ import annotations

from dataclasses import dataclass

from .zh_lexicon import (
    ADJECTIVES,
    AT,
    DETERMINERS,
    MEASURE_WORDS,
    OF,
    PERSONS,
    PLACES,
    PRONOUNS,
    RELATIONS,
    THINGS,
    TIMES,
    VERBS,
)

PEOPLE = {**PERSONS, **PRONOUNS}  # persons and pronouns: the subject, or the owner in 学生 的 书


@dataclass(frozen=True)
class Phrase:
    """A noun phrase: the noun, and either an owner (X 的) or a determiner (一 / 这 / 那), maybe an adjective."""

    noun: str
    owner: str | None = None
    determiner: str | None = None
    adjective: str | None = None


@dataclass(frozen=True)
class Sentence:
    subject: Phrase  # a person or pronoun, maybe owned: 学生 的 妈妈
    verb: str
    object: Phrase  # a thing with a determiner or an owner
    time: str | None = None
    place: str | None = None
    time_first: bool = False  # Chinese may put the time before the subject: 今天 老师 …


def chinese(s: Sentence) -> list[str]:
    """The sentence in Chinese word order, one list item per word."""
    time = [s.time] if s.time else []
    place = [AT, s.place] if s.place else []
    head = [*time, *_chinese_phrase(s.subject)] if s.time_first else [*_chinese_phrase(s.subject), *time]
    return [*head, *place, s.verb, *_chinese_phrase(s.object)]


def _chinese_phrase(p: Phrase) -> list[str]:
    if p.owner:
        before = [p.owner, OF]
    elif p.determiner:
        before = [p.determiner, THINGS[p.noun].measure]
    else:
        before = []
    return [*before, *([p.adjective] if p.adjective else []), p.noun]


def english(s: Sentence) -> list[str]:
    """The sentence in English word order: time and place move to the end, lower-case words."""
    tail = [PLACES[s.place]] if s.place else []
    tail += [TIMES[s.time]] if s.time else []
    return " ".join([*_english_phrase(s.subject), VERBS[s.verb][0], *_english_phrase(s.object), *tail]).split()


def _english_phrase(p: Phrase) -> list[str]:
    if p.noun in PRONOUNS:
        return [PRONOUNS[p.noun][0]]
    words = [*([ADJECTIVES[p.adjective][0]] if p.adjective else []), _english_noun(p.noun)]
    if p.owner in PRONOUNS:
        return [PRONOUNS[p.owner][1], *words]  # his / her …
    if p.owner:
        return ["the", *words, "of", "the", _english_noun(p.owner)]  # owner 的 thing → the thing of the owner
    if p.determiner:
        article = DETERMINERS[p.determiner]
        return [("an" if article == "a" and words[0][0] in "aeiou" else article), *words]
    return ["the", *words]


def _english_noun(noun: str) -> str:
    return PERSONS.get(noun) or THINGS[noun].english


def parse(words: list[str]) -> Sentence | None:
    """The Sentence these Chinese words spell, or None when they are not a sentence of the grammar."""
    r = _Reader(words)
    time = r.take(TIMES)
    time_first = time is not None
    subject = _subject(r)
    if subject is None:
        return None
    time = time or r.take(TIMES)
    place = None
    if r.take({AT}) and (place := r.take(PLACES)) is None:
        return None  # 在 without a place
    verb = r.take(VERBS)
    obj = _object(r)
    if verb is None or obj is None or not r.done:
        return None
    sentence = Sentence(subject, verb, obj, time, place, time_first)
    return sentence if fits(sentence) else None


def fits(s: Sentence) -> bool:
    """The verb and the adjective take the object's kind (读 reads texts, 吃 eats food, 旧 is not for animals)."""
    kind = THINGS[s.object.noun].kind
    return kind in VERBS[s.verb][1] and (s.object.adjective is None or kind in ADJECTIVES[s.object.adjective][1])


def _subject(r: _Reader) -> Phrase | None:
    first = r.take(PEOPLE)
    if first is None or not r.take({OF}):
        return None if first is None else Phrase(first)
    noun = r.take(RELATIONS)
    return Phrase(noun, owner=first) if noun else None


def _object(r: _Reader) -> Phrase | None:
    determiner, measure, owner = r.take(DETERMINERS), None, None
    if determiner and (measure := r.take(MEASURE_WORDS)) is None:
        return None  # 一 / 这 / 那 without a measure word
    if not determiner and ((owner := r.take(PEOPLE)) is None or not r.take({OF})):
        return None  # neither "一 本" nor "owner 的"
    adjective = r.take(ADJECTIVES)
    noun = r.take(THINGS)
    if noun is None or (measure is not None and measure != THINGS[noun].measure):
        return None
    return Phrase(noun, owner=owner, determiner=determiner, adjective=adjective)


class _Reader:
    """Reads words left to right; take() consumes the next word only when it is one of `allowed`."""

    def __init__(self, words: list[str]):
        self.words, self.pos = words, 0

    @property
    def done(self) -> bool:
        return self.pos == len(self.words)

    def take(self, allowed) -> str | None:
        word = self.words[self.pos] if self.pos < len(self.words) else None
        if word is None or word not in allowed:
            return None
        self.pos += 1
        return word
