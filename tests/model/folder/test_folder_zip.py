"""extract_folder_zip unpacks a zip of a model folder that model.load_folder then opens, and refuses hostile zips
before writing anything outside the destination: path traversal, absolute names, symbolic links, zip bombs (by
ratio, by total size, and an entry lying about its size), too many files, no config.json, not a zip."""

from __future__ import annotations

import io
import random
import stat
import struct
import zipfile
import zlib
from pathlib import Path

import pytest

import model
from model.errors import FolderError
from model.io.folder_zip import MAX_FILES, extract_folder_zip

from .folders import assert_translated, gpt2_folder


def zipped(entries: dict[str, bytes], *, top: str = "", method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in entries.items():
            archive.writestr(top + name, data)
    return buffer.getvalue()


def refused(data: bytes, dest: Path, *words: str, **kwargs) -> None:
    with pytest.raises(FolderError) as caught:
        extract_folder_zip(data, dest, **kwargs)
    for word in words:
        assert word in str(caught.value), (word, str(caught.value))
    assert_translated(caught.value)


def test_a_zipped_folder_unpacks_and_opens(tmp_path):
    source = tmp_path / "tiny"
    gpt2_folder(source, layers=1, width=8, positions=16)
    files = {path.name: path.read_bytes() for path in source.iterdir()}
    folder = extract_folder_zip(zipped(files, top="tiny/"), tmp_path / "out")
    assert folder == (tmp_path / "out" / "tiny").resolve()
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == files
    assert model.load_folder(folder).config.arch == "gpt"
    archive = tmp_path / "root.zip"  # a zip of the files themselves, from a path
    archive.write_bytes(zipped(files))
    assert extract_folder_zip(archive, tmp_path / "root") == (tmp_path / "root").resolve()


@pytest.mark.parametrize("name", ["../evil.txt", "a/../../evil.txt", "..\\evil.txt", "/etc/evil", "C:/evil.txt"])
def test_names_that_leave_the_folder_are_refused_and_nothing_is_written(tmp_path, name):
    dest = tmp_path / "deep" / "out"
    refused(zipped({"config.json": b"{}", name: b"x"}), dest, repr(name))
    assert not dest.exists() and not list(tmp_path.rglob("evil*"))


def test_a_symbolic_link_is_refused(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("config.json", b"{}")
        link = zipfile.ZipInfo("model.safetensors")
        link.create_system = 3  # Unix, so the mode bits in external_attr are read
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, "/etc/passwd")  # a link's data is its target
    refused(buffer.getvalue(), tmp_path / "out", "symbolic link", "model.safetensors")
    assert not (tmp_path / "out").exists()


def test_a_zip_bomb_by_ratio_is_refused(tmp_path):
    bomb = zipped({"config.json": b"{}", "model.safetensors": bytes(50 * 2**20)})  # 50 MB of zeros, ~50 kB packed
    assert len(bomb) < 2**20
    refused(bomb, tmp_path / "out", "zip bomb", "model.safetensors")


def test_a_zip_bigger_than_the_bound_when_unpacked_is_refused(tmp_path):
    two_letters = bytes(random.Random(0).choices(b"ab", k=3 * 2**20))  # packs about 6 times: no bomb, but 3 MB
    packed = zipped({"config.json": b"{}", "a.safetensors": two_letters})
    assert len(packed) < 2**20
    refused(packed, tmp_path / "out", "unpacks to more than 2.0 MB", max_bytes=2 * 2**20)
    stored = zipped({"config.json": b"{}", "a.safetensors": bytes(3 * 2**20)}, method=zipfile.ZIP_STORED)
    refused(stored, tmp_path / "out", "The zip is 3.0 MB", "at most 3.0 MB", max_bytes=len(stored) - 1)  # the zip
    assert not (tmp_path / "out").exists()


def test_an_entry_that_lies_about_its_size_stops_at_what_it_declared(tmp_path):
    data = zipped({"config.json": b"{}", "model.safetensors": b"A" * 4000}, method=zipfile.ZIP_STORED)
    # Declare 40 bytes in the local header and the central directory: a reader trusting the size would write 4000.
    central = data.rindex(b"PK\x01\x02" + data[data.rindex(b"PK\x01\x02") + 4 : data.rindex(b"PK\x01\x02") + 6])
    forged = bytearray(data)
    struct.pack_into("<I", forged, central + 24, 40)  # uncompressed size in the central directory entry
    local = data.index(b"PK\x03\x04", data.index(b"model.safetensors") - 40)
    struct.pack_into("<I", forged, local + 22, 40)
    with pytest.raises((FolderError, zipfile.BadZipFile)):
        extract_folder_zip(bytes(forged), tmp_path / "out")
    written = tmp_path / "out" / "model.safetensors"
    assert not written.exists() or written.stat().st_size <= 40


def test_too_many_files_no_config_or_not_a_zip(tmp_path):
    many = {f"f{i}.txt": b"" for i in range(MAX_FILES)} | {"config.json": b"{}"}
    refused(zipped(many), tmp_path / "a", str(MAX_FILES + 1), str(MAX_FILES))
    refused(zipped({"model.safetensors": b""}), tmp_path / "b", "config.json")
    refused(b"PK\x03\x04 not really", tmp_path / "c", "not a zip")
    refused(zlib.compress(b"hello"), tmp_path / "d", "not a zip")
