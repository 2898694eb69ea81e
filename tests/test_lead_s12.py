"""The lead's fixes of session 12 (issue 12): a shell default only in braces, names in
brackets, the plural of a password's word, a key's own digits."""

from __future__ import annotations

import json

import pytest

import toolhygiene as th
from toolhygiene._labels import is_secret_label


@pytest.mark.parametrize(
    "key", ["$a_000=000abc123def456", "$ab_cd=0123456789xyz", "$PW=Tr0ub4dor3x"]
)
def test_a_dollar_name_then_equals_is_a_value_not_a_default(key: str) -> None:
    out = th.redact(f"SECRET_KEY={key}")
    assert out == "SECRET_KEY=[redacted:secret]", out


@pytest.mark.parametrize(
    "text", ["password=$DB_PASSWORD", "password=${DB_PASSWORD}", "password=${HOME}"]
)
def test_a_reference_stays(text: str) -> None:
    assert th.redact(text) == text


def test_a_shell_default_in_braces_loses_the_default_only() -> None:
    assert th.redact("password=${PW:-changeme}") == "password=${PW:-[redacted:secret]}"


@pytest.mark.parametrize(
    "value", ["{A0000000}", "${aA000000}", "{hunter123}", "{AAAAA000}", "${ AaaAa000 }",
              "{var1}"]
)
def test_a_one_word_name_with_digits_in_brackets_is_a_value(value: str) -> None:
    inner = value.strip("${} ")
    assert inner not in th.redact(f"password={value} end")


@pytest.mark.parametrize("value", ["{DB1_PASSWORD}", "${var_1}", "{db_password}", "${A}"])
def test_a_name_joined_by_underscores_stays(value: str) -> None:
    assert th.redact(f"password={value}") == f"password={value}"


@pytest.mark.parametrize("key", ["passwords", "db_passwords", "passphrases", "PWDS"])
def test_the_plural_of_a_passwords_word_names_secrets(key: str) -> None:
    for text in (json.dumps({key: "hunter2"}), f"{key}=hunter2"):
        assert "hunter2" not in th.redact(text)


@pytest.mark.parametrize("key", ["passwords_count", "passwords_last_changed"])
def test_a_count_or_a_time_of_passwords_names_none(key: str) -> None:
    assert is_secret_label(key) is False


def test_a_words_own_digits_are_not_a_number_of_the_key() -> None:
    key = "keykeykeytokentokentokentokentokentokentoken0x509"
    from toolhygiene._labels import _label_verdict

    assert is_secret_label(key) is _label_verdict(key)


@pytest.mark.parametrize(
    "text",
    [
        '{"keys": [{"kty": "EC", "crv": "P-256", "x": "-dSFWZJ07bC_mDipJKirFKslG6URxKlBPFH9'
        '_H_28pw", "y": "_sZgueGwux-yzqkHdOT8G7M90KnnL2haMnVgQBpsk-g", "kid": "2026-key-1"}]}',
        '{"name": "db_pw", "kind": "y"}',
        "{'note': 'reset_token', 'by': 'me'}",
    ],
)
def test_a_members_value_ending_in_a_labels_word_is_no_pair_label(text: str) -> None:
    # (a random EC key's x ending in ``_28pw`` took the next member's name for its value)
    assert th.redact(text) == text


def test_a_flag_and_its_value_in_a_list_still_go() -> None:
    assert th.redact('{"args": ["--token", "Qx7pLm2R9z"]}') == (
        '{"args": ["--token", "[redacted:secret]"]}'
    )
