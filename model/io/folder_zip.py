"""A zip of a model folder (a browser upload), unpacked safely into a folder of our own, for model.load_folder.

Everything is checked from the zip's directory before a byte is written, and again while writing:
- the zip itself and its total uncompressed size are at most max_bytes (600 MB);
- at most MAX_FILES entries, each a plain file or folder: no symbolic link, no absolute name ("/etc/…", "C:…"), no
  ".." part, no control character, no encrypted entry, no name twice;
- no zip bomb: an entry may expand at most MAX_RATIO times its compressed size (safetensors barely compress; a bomb
  expands thousands of times), and bytes are counted as they are written, so an entry that lies about its size stops
  at the size it declared.
The folder returned is the one holding config.json (the zip's top folder, or the zip's root).
"""

from __future__ import annotations

import io
import stat
import zipfile
from pathlib import Path, PurePosixPath

from ..errors import N_, FolderError

MAX_ZIP_BYTES = 600 * 2**20  # the upload's bound (issue 44)
MAX_FILES = 256  # a Hugging Face folder holds about ten; a sharded big model a few dozen
MAX_RATIO = 200  # uncompressed / compressed of one entry: weights ~1.1, JSON ~5-10, a zip bomb thousands
CHUNK = 2**20
CONFIG = "config.json"
ZIP_TOO_BIG = N_("The zip is {size} MB; an upload may take at most {mb} MB.")
LEAVES = N_("The zip holds a file whose name leaves its folder, {name}: refusing it.")
UNPACKED_TOO_BIG = N_("The zip unpacks to more than {mb} MB; a model folder here may take at most {mb} MB.")


def _mb(n: int) -> str:
    """Megabytes with one decimal: '600.0'."""
    return f"{n / 2**20:.1f}"


def _safe_parts(name: str) -> tuple[str, ...]:
    """The parts of an entry's name, or FolderError for a name that could write outside the folder."""
    if not name or any(ord(ch) < 32 or ch == "\x7f" for ch in name):
        raise FolderError(N_("The zip holds a file whose name has control characters: {name}."), name=repr(name))
    unified = name.replace("\\", "/")
    drive = len(unified) > 1 and unified[1] == ":"
    if unified.startswith("/") or drive:
        raise FolderError(N_("The zip holds a file with an absolute name, {name}: refusing it."), name=repr(name))
    parts = tuple(part for part in PurePosixPath(unified).parts if part not in ("", "."))
    if ".." in parts:
        raise FolderError(LEAVES, name=repr(name))
    return parts


def _is_link(info: zipfile.ZipInfo) -> bool:
    """A symbolic link, or any entry whose Unix mode names a kind other than a file or a folder (a device, a pipe)."""
    kind = stat.S_IFMT(info.external_attr >> 16)
    return kind not in (0, stat.S_IFREG, stat.S_IFDIR)


def _checked(archive: zipfile.ZipFile, max_bytes: int) -> list[tuple[zipfile.ZipInfo, tuple[str, ...]]]:
    """Every entry with its safe name parts, after every check that needs only the zip's directory."""
    infos = archive.infolist()
    if len(infos) > MAX_FILES:
        raise FolderError(N_("The zip holds {n} files; a model folder here has at most {limit}."), n=len(infos),
                          limit=MAX_FILES)  # fmt: skip
    total, seen, out = 0, set(), []
    for info in infos:
        parts = _safe_parts(info.filename)
        if _is_link(info):
            raise FolderError(N_("The zip holds a symbolic link, {name}: refusing it."), name=repr(info.filename))
        if info.flag_bits & 0x1:
            raise FolderError(N_("The zip holds an encrypted file, {name}: refusing it."), name=repr(info.filename))
        key = "/".join(parts).casefold()
        if key in seen:
            raise FolderError(N_("The zip holds {name} twice: refusing it."), name=repr(info.filename))
        seen.add(key)
        total += info.file_size
        if total > max_bytes:
            raise FolderError(UNPACKED_TOO_BIG, mb=_mb(max_bytes))
        if info.file_size > MAX_RATIO * max(info.compress_size, 1) and info.file_size > CHUNK:
            raise FolderError(
                N_("The zip's {name} expands {ratio} times its packed size: a zip bomb, refusing it."),
                name=repr(info.filename), ratio=info.file_size // max(info.compress_size, 1),
            )  # fmt: skip
        if parts:
            out.append((info, parts))
    return out


def _write(archive: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path) -> int:
    """Copy one entry, counting bytes: more than it declared is a zip bomb (FolderError). Returns the bytes."""
    written = 0
    with archive.open(info) as source, open(target, "xb") as out:
        while chunk := source.read(CHUNK):
            written += len(chunk)
            if written > info.file_size:
                raise FolderError(N_("The zip's {name} unpacks to more than it declares: refusing it."),
                                  name=repr(info.filename))  # fmt: skip
            out.write(chunk)
    return written


def _open(source: bytes | Path, max_bytes: int) -> zipfile.ZipFile:
    size = len(source) if isinstance(source, bytes | bytearray) else Path(source).stat().st_size
    if size > max_bytes:
        raise FolderError(ZIP_TOO_BIG, mb=_mb(max_bytes), size=_mb(size))
    try:
        return zipfile.ZipFile(io.BytesIO(source) if isinstance(source, bytes | bytearray) else Path(source))
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise FolderError(N_("The upload is not a zip file ({error})."), error=exc) from None


def extract_folder_zip(source: bytes | Path, dest: Path, max_bytes: int = MAX_ZIP_BYTES) -> Path:
    """Unpack a zip of a model folder into `dest` (created; must be empty) and return the folder holding config.json.
    FolderError for anything unsafe or not a model folder (module docstring); nothing is written before every entry
    has passed the checks of the zip's directory."""
    dest = Path(dest)
    if dest.exists() and any(dest.iterdir()):
        raise ValueError(f"{dest} is not empty")
    with _open(source, max_bytes) as archive:
        entries = _checked(archive, max_bytes)
        configs = sorted((parts[:-1] for _, parts in entries if parts[-1] == CONFIG), key=len)
        if not configs:
            raise FolderError(N_("The zip holds no {file}: zip the model's folder itself (config.json, "
                                 "model.safetensors and the tokenizer's files)."), file=CONFIG)  # fmt: skip
        dest.mkdir(parents=True, exist_ok=True)
        root = dest.resolve()
        total = 0
        for info, parts in entries:
            target = root.joinpath(*parts)
            if root not in target.resolve().parents and target.resolve() != root:  # checked above; kept as a guard
                raise FolderError(LEAVES, name=repr(info.filename))
            if info.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            total += _write(archive, info, target)
            if total > max_bytes:
                raise FolderError(UNPACKED_TOO_BIG, mb=_mb(max_bytes))
    return root.joinpath(*configs[0])
