"""Secrets the outside tester cold15 found still reaching the model (issue 12, helper
leak16, session 11): a secret in an OpenPGP block's armor headers; a secret quoted or
glued after a placeholder, a mask or a phrase naming a vault or an absence; a secret's
label inside a record name's value; a PagerDuty routing key."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples
from test_redact_s11_survivors import PGP_PUBLIC, PGP_SIGNATURE, _openpgp_armor, _openpgp_key

# -- 1. an OpenPGP block's armor headers are text --------------------------------------

HEADER_SECRETS = [
    ("Comment: sk_live_51HqLyjWDarjtT1zdp7dcXYZabc12", "sk_live_51HqLyjWDarjtT1zdp7dcXYZabc12"),
    ("Comment: DB_PASSWORD=Qx7pLm2R9kZw", "Qx7pLm2R9kZw"),
    ("Comment: password: Tr0ub4dor&3", "Tr0ub4dor&3"),
    ("Version: GnuPG v2\nComment: token=ghp_4kLm9Qx7pLm2R9kZw8vT3nYc5dF6gH1jK2sA", "ghp_4kLm9Qx7"),
]


def _with_headers(block: str, headers: str) -> str:
    head, rest = block.split("\n", 1)
    return f"{head}\n{headers}\n{rest}"


@pytest.mark.parametrize(("headers", "secret"), HEADER_SECRETS)
@pytest.mark.parametrize("block", [PGP_PUBLIC, PGP_SIGNATURE], ids=["key", "signature"])
def test_a_secret_in_a_pgp_armor_header_goes_and_the_body_stays(
    block: str, headers: str, secret: str
) -> None:
    text = _with_headers(block, headers)
    out = th.redact(text)
    assert secret not in out, out
    body = block.split("\n", 2)[2]  # the blank line, the base64, the checksum and END
    assert out.endswith(body), out
    assert out.startswith(block.split("\n", 1)[0] + "\n"), out


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**32), which=st.sampled_from(HEADER_SECRETS))
def test_a_secret_in_the_headers_of_any_public_key_block_goes(
    seed: int, which: tuple[str, str]
) -> None:
    block = _openpgp_armor("PUBLIC KEY BLOCK", _openpgp_key(seed))
    text = _with_headers(block, which[0])
    out = th.redact(text)
    assert which[1] not in out, out
    assert out.endswith(block.split("\n", 2)[2]), out


def test_plain_pgp_armor_headers_stay() -> None:
    text = _with_headers(PGP_PUBLIC, "Version: GnuPG v2\nComment: https://example.org/key")
    assert th.redact(text) == text


# -- 3. a secret's label inside a data key's value is still a label ----------------------

DATA_KEYS = ["Idempotency-Key", "cache_key", "object_key", "sortKey", "PARTITION_KEY"]
INNER = [
    "password={}",
    "password:{}",
    "secrets/prod/password={}",
    "db_password={}",
    "session:token={}",
    "v1|api_key={}",
]


@settings(max_examples=examples(200), deadline=None)
@given(
    key=st.sampled_from(DATA_KEYS),
    sep=st.sampled_from([": ", "=", '": "']),
    inner=st.sampled_from(INNER),
    secret=st.sampled_from(["Tr0ub4dor3", "Qx7pLm2R9kZw8vT3", "Summer2024!"]),
)
def test_a_labelled_secret_inside_a_data_key_goes(
    key: str, sep: str, inner: str, secret: str
) -> None:
    value = inner.format(secret)
    text = f'{{"{key}{sep}{value}"}}' if sep.startswith('"') else f"{key}{sep}{value}"
    assert secret not in th.redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "cache_key=user:42:profile:v3",
        "Idempotency-Key: 7f3a9c2e-charge-Xk92",
        "object_key: secrets/prod/db_password.txt",
        "cache_key: token:expired",
        "routing_key: orders.created",
        '{"routing_key": "user.signup.v2"}',
    ],
)
def test_a_data_key_without_a_labelled_secret_keeps_its_value(text: str) -> None:
    assert th.redact(text) == text


@pytest.mark.parametrize("key", ["routing_key", "routingKey", "integration_key", "ROUTING_KEY"])
@pytest.mark.parametrize("seed", range(5))
def test_a_pagerduty_routing_key_goes(key: str, seed: int) -> None:
    rng = random.Random(seed)
    value = "R0" + "".join(rng.choices("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", k=30))
    for text in (f'{{"{key}": "{value}"}}', f"{key}={value}", f"{key}: {value}"):
        assert value not in th.redact(text), text
    assert "R02ABCDEF1234567890ABCDEF1234567" not in th.redact(
        '{"routing_key": "R02ABCDEF1234567890ABCDEF1234567"}'
    )


# -- 2. a secret written after a placeholder, a mask or a phrase -------------------------

AFTER_WORDS = [
    'password: see 1Password vault item "{}"',
    "password: see Keeper record '{}'",
    "api_key: not found in environment; used '{}' from cache",
    "password: (empty){}",
    "password: <unset>{}",
    "password: none,{}",
    "password: ****|{}",
    "password: (empty) {}",
    "password: n/a; {}",
    "token: not set, using `{}`",
    'secret: (none) "{}"',
    "password: stored in the vault as {}",
]


@settings(max_examples=examples(200), deadline=None)
@given(
    shape=st.sampled_from(AFTER_WORDS),
    secret=st.sampled_from(["Tr0ub4dor&3", "Summer2024", "Qx7pLm2R9kZw8vT3", "Tr0ub4dor3"]),
)
def test_a_secret_after_a_placeholder_or_a_phrase_goes(shape: str, secret: str) -> None:
    text = shape.format(secret)
    out = th.redact(text)
    assert secret not in out, out
    assert secret[:6] not in out, out
    assert out.startswith(text.split(":", 1)[0] + ": "), out
    assert not out.startswith(text.split(":", 1)[0] + ": ("), out  # the bracket goes too


@pytest.mark.parametrize(
    "text",
    [
        "password: not found in the vault, ask ops",
        "password: see the 1Password vault, ask ops",
        "password: (empty)",
        "password: <unset>",
        "password: none, retrying",
        "password: must be at least 12 characters",
        "token: not set, see the docs",
    ],
)
def test_prose_after_a_secret_label_stays(text: str) -> None:
    assert th.redact(text) == text
