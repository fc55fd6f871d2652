"""ByteLevelBPE: GPT-2's byte-level BPE, run by the `tokenizers` library, with every token shown as readable text.

GPT-2 splits text into UTF-8 bytes and merges them into tokens; its files spell each byte as a printable character
(a space is "Ġ", a newline "Ċ": GPT-2's bytes_to_unicode table). The lab never shows those spellings: each token is
turned back into its bytes and the bytes into text, so " the" reads " the" (a real space) and "\\n" a newline.

A token may hold part of a character: a Chinese character is 3 bytes, and a GPT-2 token may stop inside it.
- Alone (`itos`, the next-token bars): the whole characters as text and the loose bytes in hex, "⟨e6 98⟩".
- In a text (`show`, a trace's tokens): the character the token helps to write, with "…" on the side where the
  character goes on in the next or previous token: 明 cut into two tokens reads "明…", "…明"; a middle piece "…明…".
Decoding a run of ids joins their bytes first, so a character cut across tokens is written whole; bytes that end
the run before their character is complete are written as "�" (U+FFFD), as Python's errors="replace" does.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import N_, FolderError

if TYPE_CHECKING:  # imported where a file is read, so `import model` works without the tokenizers pin
    from tokenizers import Tokenizer

CONTINUED = "…"  # marks the side of a token where its character goes on in a neighbouring token
UNUSED = "⟨unused {i}⟩"  # ids of the model's embedding that the tokenizer never gives (a padded vocabulary)


@functools.cache
def byte_decoder() -> dict[str, int]:
    """GPT-2's bytes_to_unicode table inverted: the printable character that spells each byte → the byte."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
    printable += list(range(ord("®"), ord("ÿ") + 1))
    chars, extra = {}, 0
    for b in range(256):
        if b in printable:
            chars[chr(b)] = b
        else:
            chars[chr(256 + extra)] = b
            extra += 1
    return chars


def spelled_bytes(token: str) -> bytes | None:
    """The bytes a byte-level token spells ("Ġthe" → b" the"), or None when it is not spelled in GPT-2's table."""
    table = byte_decoder()
    if not token or any(ch not in table for ch in token):
        return None
    return bytes(table[ch] for ch in token)


def _hex(data: bytes) -> str:
    return "⟨" + " ".join(f"{b:02x}" for b in data) + "⟩"


def readable(data: bytes) -> str:
    """Bytes as text: valid UTF-8 decoded, every stretch of other bytes in hex (b"\\xe6\\x98" → "⟨e6 98⟩")."""
    out, loose = [], bytearray()
    for start, end, ok in _characters(data):
        if ok:
            if loose:
                out.append(_hex(bytes(loose)))
                loose.clear()
            out.append(data[start:end].decode("utf-8"))
        else:
            loose.extend(data[start:end])
    if loose:
        out.append(_hex(bytes(loose)))
    return "".join(out)


def _utf8_length(lead: int) -> int:
    """Bytes of the UTF-8 character a lead byte starts (0: not a lead byte)."""
    if lead < 0x80:
        return 1
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


def _characters(data: bytes) -> list[tuple[int, int, bool]]:
    """(start, end, valid) of each character of the bytes; a byte that starts no valid character is its own span."""
    spans, i = [], 0
    while i < len(data):
        n = _utf8_length(data[i])
        piece = data[i : i + n] if n else b""
        try:
            valid = bool(n) and len(piece) == n and bool(piece.decode("utf-8"))
        except UnicodeDecodeError:
            valid = False
        spans.append((i, i + n, True) if valid else (i, i + 1, False))
        i += n if valid else 1
    return spans


def is_byte_level(tokenizer: Tokenizer) -> bool:
    """Whether a tokenizer is GPT-2's kind: a BPE model over bytes (a ByteLevel step in its pre-tokenizer)."""
    data = json.loads(tokenizer.to_str())
    model = data.get("model") or {}
    return model.get("type") == "BPE" and '"ByteLevel"' in json.dumps(data.get("pre_tokenizer"))


class ByteLevelBPE:
    """A byte-level BPE tokenizer (tokenizer.json, or vocab.json + merges.txt) padded to the model's vocab_size.
    Never changed after it is built, so models and threads share it."""

    def __init__(self, tokenizer: Tokenizer, vocab_size: int | None = None, source: str = "tokenizer.json"):
        tokenizer.no_truncation()
        tokenizer.no_padding()
        if not is_byte_level(tokenizer):
            raise FolderError(N_("{file} is not GPT-2's byte-level BPE: its model or its splitting is another kind."),
                              file=source)  # fmt: skip
        self._tokenizer = tokenizer
        size = tokenizer.get_vocab_size(with_added_tokens=True)
        if vocab_size is not None and size > vocab_size:
            raise FolderError(
                N_("{file} has {n} tokens but config.json says {size}."), file=source, n=size, size=vocab_size
            )
        added = set(tokenizer.get_added_tokens_decoder())
        raw: list[bytes] = []
        shown: list[str] = []
        for i in range(vocab_size if vocab_size is not None else size):
            token = tokenizer.id_to_token(i)
            spelled = spelled_bytes(token) if token is not None and i not in added else None
            if token is None:
                raw.append(b"")
                shown.append(UNUSED.format(i=i))
            elif spelled is None:
                if i not in added:
                    raise FolderError(
                        N_("{file} is not GPT-2's byte-level BPE: token {token} is not spelled in bytes."),
                        file=source, token=repr(token),
                    )  # fmt: skip
                raw.append(token.encode("utf-8"))  # a special token such as <|endoftext|> writes its own name
                shown.append(token)
            else:
                raw.append(spelled)
                shown.append(readable(spelled))
        self.raw: tuple[bytes, ...] = tuple(raw)
        self.itos: tuple[str, ...] = tuple(shown)

    @classmethod
    def from_file(cls, path: Path, vocab_size: int | None = None) -> ByteLevelBPE:
        """GPT-2's tokenizer.json (FolderError when the library cannot read it or it is not byte-level)."""
        from tokenizers import Tokenizer

        try:
            tokenizer = Tokenizer.from_file(str(path))
        except Exception as exc:  # the library raises its own exception type for a file it cannot parse
            raise FolderError(N_("{file} cannot be read ({error})."), file=path.name, error=exc) from None
        return cls(tokenizer, vocab_size, path.name)

    @classmethod
    def from_vocab_merges(cls, vocab: Path, merges: Path, vocab_size: int | None = None) -> ByteLevelBPE:
        """GPT-2's own pair of files, vocab.json and merges.txt, with GPT-2's byte-level splitting around them."""
        from tokenizers import Tokenizer, decoders, models, pre_tokenizers

        try:
            bpe = models.BPE.from_file(str(vocab), str(merges))
        except Exception as exc:  # the library raises its own exception type for a file it cannot parse
            raise FolderError(N_("{file} cannot be read ({error})."), file="vocab.json, merges.txt",
                              error=exc) from None  # fmt: skip
        tokenizer = Tokenizer(bpe)
        tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tokenizer.decoder = decoders.ByteLevel()
        return cls(tokenizer, vocab_size, vocab.name)

    def __len__(self) -> int:
        return len(self.itos)

    def __repr__(self) -> str:
        return f"ByteLevelBPE({len(self.itos)} tokens)"

    def encode(self, text: str) -> tuple[list[int], list[str]]:
        """(ids, []): every text is bytes, and every byte is a token, so nothing is unknown."""
        return list(self._tokenizer.encode(text, add_special_tokens=False).ids), []

    def _checked(self, ids: Iterable[int]) -> list[int]:
        out = [int(i) for i in ids]
        for i in out:
            if not 0 <= i < len(self.raw):
                raise ValueError(f"token id {i} is outside the vocabulary (0..{len(self.raw) - 1}).")
        return out

    def decode(self, ids: Iterable[int]) -> str:
        """The text of token ids: their bytes joined, then read as UTF-8 (an incomplete last character as �)."""
        return b"".join(self.raw[i] for i in self._checked(ids)).decode("utf-8", errors="replace")

    def show(self, ids: Sequence[int]) -> list[str]:
        """Each token as it reads in this run: the characters its bytes touch, with … where a character goes on in
        the token before or after (module docstring); loose bytes that make no character in hex."""
        checked = self._checked(ids)
        data = b"".join(self.raw[i] for i in checked)
        spans = _characters(data)
        out, start, c = [], 0, 0
        for i in checked:
            end = start + len(self.raw[i])
            if end == start:
                out.append(self.itos[i])
                continue
            while spans[c][1] <= start:
                c += 1
            first, text = spans[c][0], []
            k = c
            while k < len(spans) and spans[k][0] < end:
                s, e, ok = spans[k]
                text.append(data[s:e].decode("utf-8") if ok else _hex(data[max(s, start) : min(e, end)]))
                k += 1
            last = spans[k - 1][1]
            out.append((CONTINUED if first < start else "") + "".join(text) + (CONTINUED if last > end else ""))
            start = end
        return out

    def to_list(self) -> list[str]:
        return list(self.itos)
