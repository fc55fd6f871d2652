"""Model archives: a zip of model.safetensors + config.json, packed for download and checked on upload.

Nothing in an uploaded archive is ever unpickled: only the two named files are read, each with a
size cap enforced while decompressing (not trusting the zip headers), and the weights go through
`load_checkpoint_bytes`, which accepts safetensors only and checks them against the config.
"""

from __future__ import annotations

import io
import posixpath
import zipfile

from ..errors import N_, CheckpointError
from ..runner import LoadedModel
from .checkpoint import CONFIG_FILE, WEIGHTS_FILE, AnyCheckpoint, checkpoint_bytes, load_checkpoint_bytes, task_model

MAX_ARCHIVE_BYTES = 16 * 2**20  # the zip itself; our models are well under 2 MB
MAX_MEMBER_BYTES = 32 * 2**20  # one file once decompressed
MAX_MEMBERS = 8  # two files, plus a folder entry or two a zip tool may add
MAX_RATIO = 200  # decompressed / compressed; far above what real weights reach (~1.1)
PICKLE_SUFFIXES = (".pt", ".pth", ".pkl", ".pickle", ".bin", ".ckpt", ".joblib", ".npy", ".npz")
_IGNORED_PREFIXES = ("__MACOSX/",)
PICKLED = N_(
    "{weights} is a pickle (torch.save) file, not safetensors. Pickles can run code, so they are never loaded here; "
    "save the weights with safetensors."
)  # resource forks macOS Finder adds when zipping


def pack_archive(loaded: AnyCheckpoint) -> bytes:
    """The zip the Download button offers: config.json + model.safetensors at its root."""
    config_bytes, weights_bytes = checkpoint_bytes(loaded)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(CONFIG_FILE, config_bytes)
        archive.writestr(WEIGHTS_FILE, weights_bytes)
    return buffer.getvalue()


def unpack_archive(data: bytes) -> tuple[bytes, bytes]:
    """(config.json bytes, model.safetensors bytes) from a zip, or a CheckpointError saying what is wrong."""
    if len(data) > MAX_ARCHIVE_BYTES:
        raise CheckpointError(
            N_(
                "The file is {size:.1f} MB; archives larger than {limit} MB are refused "
                "(the models here are under 2 MB)."
            ),
            size=len(data) / 2**20, limit=MAX_ARCHIVE_BYTES // 2**20,
        )  # fmt: skip
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError):
        raise CheckpointError(
            N_(
                "This is not a zip file. Upload the .zip the Download button gave you "
                "(it holds {config} and {weights})."
            ),
            config=CONFIG_FILE, weights=WEIGHTS_FILE,
        ) from None  # fmt: skip
    with archive:
        members = _check_members(archive)
        return _read(archive, members[CONFIG_FILE]), _read(archive, members[WEIGHTS_FILE])


def load_any_archive(data: bytes, name: str | None = None) -> AnyCheckpoint:
    """Unpack, refuse pickles, validate against the config, and load (eval mode): a toy task's model or a GPT."""
    config_bytes, weights_bytes = unpack_archive(data)
    if _looks_pickled(weights_bytes):
        raise CheckpointError(PICKLED, weights=WEIGHTS_FILE)
    return load_checkpoint_bytes(config_bytes, weights_bytes, name=name)


def load_archive(data: bytes, name: str | None = None) -> LoadedModel:
    """A toy task's model, as the Train page makes them (a GPT's archive is refused with a message)."""
    return task_model(load_any_archive(data, name))


def _check_members(archive: zipfile.ZipFile) -> dict[str, zipfile.ZipInfo]:
    """The two expected files (at the root or in one folder); refuse anything odd before reading."""
    infos = [i for i in archive.infolist() if not i.filename.startswith(_IGNORED_PREFIXES)]
    if len(archive.infolist()) > MAX_MEMBERS * 4 or len(infos) > MAX_MEMBERS:
        raise CheckpointError(
            N_("The zip holds {n} entries; a model archive holds just {config} and {weights}."),
            n=len(archive.infolist()), config=CONFIG_FILE, weights=WEIGHTS_FILE,
        )  # fmt: skip
    found: dict[str, zipfile.ZipInfo] = {}
    folders: set[str] = set()
    for info in infos:
        raw = info.filename
        if "\\" in raw or raw.startswith("/") or ".." in raw.split("/") or ":" in raw or "\x00" in raw:
            raise CheckpointError(
                N_("The zip entry {entry} has an unsafe path; refusing the archive."), entry=repr(raw)
            )
        if info.is_dir():
            continue
        if info.flag_bits & 0x1:
            raise CheckpointError(
                N_("The zip entry {entry} is encrypted; upload an unencrypted archive."), entry=repr(raw)
            )
        base = posixpath.basename(raw)
        if base.lower().endswith(PICKLE_SUFFIXES):
            raise CheckpointError(
                N_(
                    "The zip holds {entry}, a pickle-style file. Pickles can run code, so they are never loaded "
                    "here; the archive must hold only {config} and {weights}."
                ),
                entry=repr(raw), config=CONFIG_FILE, weights=WEIGHTS_FILE,
            )  # fmt: skip
        if base not in (CONFIG_FILE, WEIGHTS_FILE):
            raise CheckpointError(
                N_("The zip holds an unexpected file {entry}; it must hold only {config} and {weights}."),
                entry=repr(raw), config=CONFIG_FILE, weights=WEIGHTS_FILE,
            )  # fmt: skip
        if base in found:
            raise CheckpointError(N_("The zip holds more than one {name}."), name=base)
        folder = posixpath.dirname(raw)
        if folder.count("/") > 0:
            raise CheckpointError(
                N_("{entry} is nested too deep; put the files at the top of the zip."), entry=repr(raw)
            )
        folders.add(folder)
        if info.file_size > MAX_MEMBER_BYTES:
            raise CheckpointError(
                N_("{name} would be {size:.0f} MB once unpacked; refusing it."), name=base, size=info.file_size / 2**20
            )
        if info.compress_size and info.file_size / info.compress_size > MAX_RATIO:
            raise CheckpointError(N_("{name} is compressed suspiciously well (a zip bomb?); refusing it."), name=base)
        found[base] = info
    missing = [f for f in (CONFIG_FILE, WEIGHTS_FILE) if f not in found]
    if missing:
        template = (
            N_("The zip has no {missing}; it needs {config} and {weights}.")
            if len(missing) == 1
            else N_("The zip has no {config} and no {weights}; it needs {config} and {weights}.")
        )
        raise CheckpointError(template, missing=missing[0], config=CONFIG_FILE, weights=WEIGHTS_FILE)
    if len(folders) > 1:
        raise CheckpointError(
            N_("{config} and {weights} must sit in the same folder of the zip."),
            config=CONFIG_FILE,
            weights=WEIGHTS_FILE,
        )
    return found


def _read(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """Decompress at most MAX_MEMBER_BYTES, whatever the header claims."""
    try:
        with archive.open(info) as f:
            data = f.read(MAX_MEMBER_BYTES + 1)
    except (zipfile.BadZipFile, EOFError, OSError, RuntimeError, NotImplementedError) as exc:
        raise CheckpointError(N_("{name} could not be unpacked ({error})."), name=info.filename, error=exc) from None
    if len(data) > MAX_MEMBER_BYTES:
        raise CheckpointError(
            N_("{name} unpacks to more than {limit} MB; refusing it."),
            name=info.filename,
            limit=MAX_MEMBER_BYTES // 2**20,
        )
    return data


def _looks_pickled(data: bytes) -> bool:
    """Not a safetensors header (8-byte length, then JSON) but a pickle stream (0x80 + protocol)
    or a torch.save zip (PK)."""
    if len(data) >= 9:
        header_len = int.from_bytes(data[:8], "little")
        if 8 + header_len <= len(data) and data[8:9] == b"{":
            return False
    return (data[:1] == b"\x80" and data[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05")) or data[:2] == b"PK"
