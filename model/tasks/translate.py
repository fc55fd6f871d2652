"""A tiny synthetic English → French-like translation where adjectives move after the noun.

"the big red dog sees a cat" → "le chien rouge grand voit un chat": the adjectives follow the
noun in mirror order, so cross-attention has to cross instead of running down the diagonal.
"""

from __future__ import annotations

import random

from .base import N_, Task
from .vocab import Vocabulary

DETERMINERS = {"the": "le", "a": "un"}
ADJECTIVES = {
    "big": "grand", "small": "petit", "red": "rouge", "blue": "bleu", "green": "vert",
    "old": "vieux", "young": "jeune", "happy": "content", "black": "noir", "white": "blanc",
}  # fmt: skip
NOUNS = {
    "dog": "chien", "cat": "chat", "bird": "oiseau", "fish": "poisson", "horse": "cheval",
    "mouse": "souris", "child": "enfant", "teacher": "professeur", "farmer": "fermier",
    "king": "roi", "friend": "ami", "wolf": "loup",
}  # fmt: skip
VERBS = {
    "sees": "voit", "likes": "aime", "follows": "suit", "finds": "trouve",
    "helps": "aide", "watches": "regarde", "calls": "appelle", "chases": "chasse",
}  # fmt: skip
LEXICON = {**DETERMINERS, **ADJECTIVES, **NOUNS, **VERBS}
MAX_ADJECTIVES = 2


class TranslateTask(Task):
    name = "translate"
    title = N_("Toy translation (adjectives after the noun)")
    description = N_("Translate DET ADJ* NOUN VERB DET ADJ* NOUN, moving adjectives after the noun.")
    example = "the big red dog sees a small cat"

    def __init__(self):
        max_words = 2 * (2 + MAX_ADJECTIVES) + 1  # two noun phrases (determiner, adjectives, noun) and a verb
        src, tgt = Vocabulary(list(LEXICON)), Vocabulary(list(dict.fromkeys(LEXICON.values())))
        super().__init__(src, tgt, max_words, max_words, min_src_words=2 * 2 + 1)

    def _noun_phrase(self, rng: random.Random) -> list[str]:
        adjectives = rng.sample(list(ADJECTIVES), rng.randint(0, MAX_ADJECTIVES))
        return [rng.choice(list(DETERMINERS)), *adjectives, rng.choice(list(NOUNS))]

    def generate(self, rng: random.Random) -> tuple[list[str], list[str]]:
        words = [*self._noun_phrase(rng), rng.choice(list(VERBS)), *self._noun_phrase(rng)]
        return words, translate_words(words)

    def target_for(self, source: str) -> str | None:
        words = source.lower().split()
        if not words or any(w not in LEXICON for w in words):
            return None
        return " ".join(translate_words(words))


def translate_words(words: list[str]) -> list[str]:
    """Word-for-word translation; each noun takes the adjectives before it, in mirror order."""
    out, pending = [], []
    for w in words:
        if w in ADJECTIVES:
            pending.append(ADJECTIVES[w])
        elif w in NOUNS:
            out += [NOUNS[w], *reversed(pending)]
            pending = []
        else:
            out += pending + [LEXICON[w]]
            pending = []
    return out + pending
