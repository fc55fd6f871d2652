"""Room codes people type, teacher keys nobody guesses, and student ids.

A code is 6 characters from 32 that cannot be misread (no 0/O, no 1/I): about 10⁹ codes. A key is
32 random bytes; the store keeps only its SHA-256 (a key this long needs no slow hash) and compares
digests with hmac.compare_digest.
"""

import hashlib
import hmac
import re
import secrets

from services.rooms.errors import NotJoined, RoomNotFound

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MAX_KEY_CHARS = 128
_CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
_STUDENT_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
_TYPED_SEPARATORS = str.maketrans("", "", " -_\t")


def new_code() -> str:
    """A fresh random room code, e.g. 'K7QX3M'."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: object) -> str:
    """The code as stored: typed case and separators forgiven ('k7q-x3m' → 'K7QX3M'); RoomNotFound if malformed."""
    if isinstance(code, str) and len(code) <= 4 * CODE_LENGTH:
        cleaned = code.strip().upper().translate(_TYPED_SEPARATORS)
        if _CODE.fullmatch(cleaned):
            return cleaned
    raise RoomNotFound(RoomNotFound.MALFORMED, length=CODE_LENGTH)


def new_key() -> str:
    """A fresh teacher key (43 URL-safe characters)."""
    return secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    """The SHA-256 hex digest the store keeps instead of the key."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def key_matches(key: object, key_hash: str) -> bool:
    """Whether `key` is the room's key, compared in constant time; any non-text or oversized key is wrong."""
    if not isinstance(key, str) or not key or len(key) > MAX_KEY_CHARS:
        return False
    return hmac.compare_digest(hash_key(key), key_hash)


def new_student_id() -> str:
    """A fresh student id (22 URL-safe characters), private to that student's session."""
    return secrets.token_urlsafe(16)


def check_student_id(code: str, student_id: object) -> str:
    """The id if well formed, else NotJoined (a hostile or truncated id never reaches storage)."""
    if isinstance(student_id, str) and _STUDENT_ID.fullmatch(student_id):
        return student_id
    raise NotJoined(code=code)
