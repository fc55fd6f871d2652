"""ByteLevelBPE on a hand-built byte-level BPE: GPT-2's byte spelling (Ġ is a space, Ċ a newline) never reaches the
reader, a token holding part of a character shows that character (明… / …明) in a text and its bytes in hex alone,
and decoding joins bytes before reading them as UTF-8."""

from __future__ import annotations

import pytest

from model.errors import FolderError
from model.gpt import CharVocab
from model.gpt.bpe import ByteLevelBPE, byte_decoder, readable, spelled_bytes
from model.gpt.tokenizer import GPTTokenizer

tokenizers = pytest.importorskip("tokenizers")

SPELL = {b: ch for ch, b in byte_decoder().items()}  # byte → GPT-2's printable spelling
MING = "明".encode()  # e6 98 8e
GUANG = "光".encode()  # e5 85 89


def hand_built() -> ByteLevelBPE:
    """Ids 0-255 are the bytes themselves; 256 merges 明's first two bytes; 257 is " t"."""
    vocab = {SPELL[b]: b for b in range(256)}
    merges = [(SPELL[MING[0]], SPELL[MING[1]]), (SPELL[0x20], "t")]
    vocab[merges[0][0] + merges[0][1]] = 256
    vocab[merges[1][0] + merges[1][1]] = 257
    tokenizer = tokenizers.Tokenizer(tokenizers.models.BPE(vocab=vocab, merges=merges))
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    return ByteLevelBPE(tokenizer)


def test_gpt2s_byte_spelling():
    table = byte_decoder()
    assert sorted(table.values()) == list(range(256))  # one printable character per byte
    assert (table["Ġ"], table["Ċ"], table["!"], table["a"]) == (0x20, 0x0A, 0x21, 0x61)
    assert spelled_bytes("Ġthe") == b" the" and spelled_bytes("中") is None


def test_tokens_read_as_text_and_loose_bytes_in_hex():
    bpe = hand_built()
    assert bpe.itos[257] == " t" and bpe.itos[ord("\n")] == "\n"
    assert bpe.itos[256] == "⟨e6 98⟩" and bpe.itos[MING[2]] == "⟨8e⟩"
    assert not any("Ġ" in token or "Ċ" in token for token in bpe.itos)
    assert readable(MING) == "明" and readable(b"a" + MING[:2]) == "a⟨e6 98⟩"


def test_a_token_holding_part_of_a_character_shows_it_in_the_text():
    bpe = hand_built()
    ids, unknown = bpe.encode("a明光 to")
    assert ids == [ord("a"), 256, MING[2], *GUANG, 257, ord("o")] and unknown == []
    assert bpe.show(ids) == ["a", "明…", "…明", "光…", "…光…", "…光", " t", "o"]
    assert bpe.show(ids[2:6]) == ["⟨8e⟩", "光…", "…光…", "…光"]  # a run that starts inside a character: a loose byte
    assert bpe.show([0xFF]) == ["⟨ff⟩"]  # a byte that starts no character


def test_decoding_joins_the_bytes_first():
    bpe = hand_built()
    ids = bpe.encode("明月 to")[0]
    assert bpe.decode(ids) == "明月 to"
    assert bpe.decode([256]) == "\ufffd"  # a character cut at the end of the run
    with pytest.raises(ValueError):
        bpe.decode([258])


def test_both_vocabularies_are_gpt_tokenizers():
    assert isinstance(hand_built(), GPTTokenizer)
    assert isinstance(CharVocab(["a", "b"]), GPTTokenizer)
    assert CharVocab(["a", "b"]).show([1, 0]) == ["b", "a"]


def test_a_tokenizer_that_is_not_byte_level_is_refused(tmp_path):
    wordpiece = tokenizers.Tokenizer(tokenizers.models.WordPiece({"[UNK]": 0, "hello": 1, "##s": 2}, unk_token="[UNK]"))
    wordpiece.save(str(tmp_path / "tokenizer.json"))
    with pytest.raises(FolderError, match="byte-level"):
        ByteLevelBPE.from_file(tmp_path / "tokenizer.json")
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(FolderError, match="cannot be read"):
        ByteLevelBPE.from_file(tmp_path / "broken.json")
