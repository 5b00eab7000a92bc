"""Encryption at rest for SQL source credentials (Fernet; keys from FIELD_ENCRYPTION_KEYS or SECRET_KEY).

The first key encrypts; every key decrypts, so keys can be rotated by putting a new one first.
"""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings


def _derived(secret: str) -> bytes:
    return base64.urlsafe_b64encode(hashlib.sha256(b"ba-platform-credentials:" + secret.encode()).digest())


@lru_cache(maxsize=4)
def _fernet(keys: tuple[str, ...], secret_key: str) -> MultiFernet:
    materials = [k.encode() for k in keys] + [_derived(secret_key)]
    return MultiFernet([Fernet(m) for m in materials])


def _current() -> MultiFernet:
    return _fernet(tuple(getattr(settings, "FIELD_ENCRYPTION_KEYS", ())), settings.SECRET_KEY)


def encrypt(plaintext: str) -> str:
    return _current().encrypt(plaintext.encode()).decode() if plaintext else ""


def decrypt(token: str) -> str:
    if not token:
        return ""
    try:
        return _current().decrypt(token.encode()).decode()
    except InvalidToken as exc:
        raise ValueError("stored credentials cannot be decrypted with the configured keys") from exc
