"""API token secrets: generation, hashing and format checks. Plaintext never reaches the database."""

from __future__ import annotations

import hashlib
import re
import secrets

TOKEN_PREFIX = "bap_"  # noqa: S105 (a public marker, not a secret)
_SECRET_BYTES = 32
PREFIX_LENGTH = 12  # "bap_" + 8 characters: enough to recognise a token in a list, useless to an attacker
_TOKEN_RE = re.compile(r"^bap_[A-Za-z0-9_-]{43}$")


def generate_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(_SECRET_BYTES)


def hash_token(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def is_well_formed(raw: str) -> bool:
    return bool(_TOKEN_RE.match(raw))


def display_prefix(raw: str) -> str:
    return raw[:PREFIX_LENGTH]
