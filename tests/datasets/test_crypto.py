"""Credentials are encrypted at rest and keys can be rotated."""

from __future__ import annotations

import pytest
from cryptography.fernet import Fernet

from apps.datasets.sources import crypto


def test_round_trip_and_ciphertext_hides_the_secret():
    token = crypto.encrypt("s3cret-密码")
    assert "s3cret" not in token
    assert crypto.decrypt(token) == "s3cret-密码"
    assert crypto.encrypt("") == "" and crypto.decrypt("") == ""


def test_rotation_keeps_old_ciphertexts_readable(settings):
    old = crypto.encrypt("pw")
    settings.FIELD_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    new = crypto.encrypt("pw")
    assert crypto.decrypt(new) == "pw"
    assert crypto.decrypt(old) == "pw", "the SECRET_KEY-derived key still decrypts"


def test_wrong_key_is_a_clear_error(settings):
    settings.FIELD_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    token = crypto.encrypt("pw")
    settings.FIELD_ENCRYPTION_KEYS = []
    settings.SECRET_KEY = "another-secret-key-entirely-0123456789"
    with pytest.raises(ValueError, match="cannot be decrypted"):
        crypto.decrypt(token)
