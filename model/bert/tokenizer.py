"""WordPiece through the `tokenizers` library, from the model's own tokenizer.json: [CLS] pieces [SEP].

We do not tokenise ourselves: the library reads the same file the model was trained with (BERT's normaliser lower-
cases and splits every Chinese character apart; unknown words become [UNK]; a word is cut into pieces, the later ones
marked ##: "playing" stays one piece, "unbelievably" is "un ##bel ##ie ##va ##bly"). The file asks for truncation and
padding to 128; both are switched off here, because the app cuts at its own limit and says so.

A [CLS], [SEP] or [MASK] typed in the text is read as that special token, as the library does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import N_, CheckpointError, InputError, LabError

if TYPE_CHECKING:  # imported where a file is read, so `import model` works before the tokenizers pin is installed
    from tokenizers import Tokenizer

CLS, SEP, UNK, PAD = "[CLS]", "[SEP]", "[UNK]", "[PAD]"
EMPTY = N_("The input is empty: type a sentence, e.g. '{example}'.")
NOTHING_READABLE = N_("The input has nothing this model can read (only spaces or control characters): type a "
                      "sentence, e.g. '{example}'.")  # fmt: skip
CUT = N_("The input makes {n} tokens; this model reads at most {limit} ([CLS] and [SEP] included), so it ran on the "
         "first {limit} and the rest was left out.")  # fmt: skip


@dataclass(frozen=True)
class WordPieces:
    """One tokenised sentence: ids and pieces ([CLS] … [SEP]), the words read as [UNK], and how long it was before
    the cut."""

    ids: list[int]
    tokens: list[str]  # as the model split them: "[CLS]", "play", "##ing", …, "[SEP]"
    unknown: list[str]  # the stretches of the input read as [UNK], as typed, each once, in order
    n_before_cut: int  # tokens the whole input makes ([CLS] and [SEP] included); > len(ids) when it was cut

    @property
    def cut(self) -> bool:
        return self.n_before_cut > len(self.ids)

    def notice(self) -> LabError | None:
        """The message for a cut input (an InputError carried, not raised), or None."""
        return InputError(CUT, n=self.n_before_cut, limit=len(self.ids)) if self.cut else None


class WordPieceTokenizer:
    """The model's tokenizer.json, run by the `tokenizers` library, with the app's limit `max_len` (in tokens)."""

    def __init__(self, tokenizer: Tokenizer, max_len: int, example: str = ""):
        self._tokenizer = tokenizer
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        self.max_len, self.example = max_len, example
        ids = {token: tokenizer.token_to_id(token) for token in (CLS, SEP, UNK, PAD)}
        absent = [token for token, i in ids.items() if i is None]
        if absent:
            raise CheckpointError(N_("tokenizer.json has no {tokens} token."), tokens=", ".join(absent))
        self.cls_id, self.sep_id, self.unk_id, self.pad_id = (int(ids[t] or 0) for t in (CLS, SEP, UNK, PAD))

    @classmethod
    def from_file(cls, path: Path, max_len: int, example: str = "") -> WordPieceTokenizer:
        from tokenizers import Tokenizer

        try:
            tokenizer = Tokenizer.from_file(str(path))
        except Exception as exc:  # the library raises its own exception type for a file it cannot parse
            raise CheckpointError(N_("tokenizer.json cannot be read ({error})."), error=exc) from None
        return cls(tokenizer, max_len, example)

    @property
    def vocab_size(self) -> int:
        return self._tokenizer.get_vocab_size()

    def encode(self, text: str) -> WordPieces:
        """[CLS] + pieces + [SEP], cut to max_len tokens (the last kept piece is followed by [SEP], as the library's
        own truncation does). InputError when nothing is left to read."""
        if not isinstance(text, str) or not text.strip():
            raise InputError(EMPTY, example=self.example)
        encoding = self._tokenizer.encode(text)
        ids, tokens, offsets = list(encoding.ids), list(encoding.tokens), list(encoding.offsets)
        if len(ids) <= 2:  # [CLS] [SEP]: the normaliser removed everything
            raise InputError(NOTHING_READABLE, example=self.example)
        n = len(ids)
        if n > self.max_len:
            keep = self.max_len - 1
            ids, tokens, offsets = ids[:keep] + [self.sep_id], tokens[:keep] + [SEP], offsets[:keep] + [(0, 0)]
        unknown: list[str] = []
        for i, (start, end) in zip(ids, offsets, strict=True):
            word = text[start:end]
            if i == self.unk_id and word not in unknown:
                unknown.append(word)
        return WordPieces(ids, tokens, unknown, n)
