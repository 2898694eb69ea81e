"""The redaction engine's shortcut (text in which no layer can find anything is given back
without a full pass) changes no output: ``redact``, ``sanitize`` and a successful result
are the same with the shortcut and with the full pass forced, for generated text built
near the shortcut's edge (needles, token-shaped runs, known values, user detectors) and
for the leak corpus in every carrier."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolhygiene as th
from corpus import CARRIERS, CASES, SURVIVORS
from helpers import full_pass

# Private imports, by design (internal units under test): the redaction shortcut is compared with the full engine.
from toolhygiene import _engine, _known
from toolhygiene._labels import is_secret_label
from toolhygiene._safe_results import for_model

# Fragments that put the text on either side of the shortcut's edge: each detector
# family's needle, token-shaped runs (random, a provider's prefix, a survivor), what a
# full pass decodes or joins, and plain words and JSON punctuation.
FRAGMENTS = [
    "password",
    "passwd",
    "api_key",
    "key",
    "token",
    "Bearer",
    "basic",
    "auth",
    "cookie",
    "secret",
    "sig",
    "sid",
    "otp",
    "dsn",
    "sess",
    "pw",
    "pwd",
    "cred",
    "bot",
    "ssws",
    "postgres://u:p@db/x",
    "jdbc:mysql:",
    "://",
    "@",
    "a@b.io",
    "10.0.0.7",
    "127.0.0.1",
    "192.168.1.1",
    "172.16.0.3",
    "169.254.1.1",
    "100.64.0.1",
    "::1",
    "fe80::1",
    "fd12:",
    "localhost",
    "db.internal",
    "srv.local",
    ".corp",
    "home.arpa",
    "/home/bob",
    "/Users/al",
    "C:\\Users\\al",
    "-----BEGIN RSA PRIVATE KEY-----",
    "hooks.slack.com/services/T0/B0/xyz",
    "x.webhook.office.com/abc",
    "123456789:AA",
    "q~",
    "atlasv1",
    "-us1",
    ": |",
    ": >",
    "sshpass -p",
    "--password",
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_0123456789abcdefABCDEFghijklmnop",
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "xoxb-123-456-abcDEF",
    "Q7vX2mK9pL4wR8tZ6nB3cY5hJ1dF0gS",
    "3f9a1c2b7d4e5f60718293a4b5c6d7e8f9012345",
    "123e4567-e89b-12d3-a456-426614174000",
    "api-7f9c8d6b5-x2kqz",
    "ORD-1",
    "order_id",
    "total",
    "status",
    "open",
    "false",
    "28.5",
    "%41%42",
    "\\n",
    "\\u0041",
    "\\",
    "\n",
    "\r\n",
    "\t",
    " ",
    "  ",
    '"',
    "'",
    ":",
    "=",
    "{",
    "}",
    "[",
    "]",
    ",",
    "é",
    "ｐａｓｓｗｏｒｄ",
    "\u200b",
    "\x1b[31m",
    "the",
    "order",
    "shipped",
]
fragment_text = st.lists(st.sampled_from(FRAGMENTS), max_size=12).map("".join)
ascii_text = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=80)
texts = st.one_of(
    fragment_text,
    ascii_text,
    st.tuples(ascii_text, fragment_text, ascii_text).map("".join),
    st.text(max_size=60),
)


def _same(thunk: Callable[[], Any]) -> None:
    assert thunk() == full_pass(thunk)


@given(texts)
def test_redact_and_sanitize_are_the_same_without_the_shortcut(text: str) -> None:
    _same(lambda: th.redact(text))
    _same(lambda: th.sanitize(text, 400))
    _same(lambda: _engine.scrub(text, internals=False))


@given(texts, st.sampled_from(["Hunter-2024", "s3cr3t-value", "order"]))
def test_a_known_value_is_echoed_the_same_without_the_shortcut(text: str, value: str) -> None:
    with _known.known((value,)):
        _same(lambda: th.redact(text + value))
        _same(lambda: th.redact(text))


@given(texts, st.booleans())
def test_user_detectors_are_the_same_without_the_shortcut(text: str, gated: bool) -> None:
    th.add_redaction("acme-id", r"ACME-\d{4}", gate=("acme-",) if gated else ())
    try:
        _same(lambda: th.redact(text + " ACME-1234"))
        _same(lambda: th.redact(text))
    finally:
        th.clear_redactions()


@given(
    st.dictionaries(
        st.sampled_from(["order_id", "total", "status", "note", "token", "owner"]),
        st.one_of(
            st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.booleans(), texts
        ),
        max_size=5,
    )
)
def test_a_successful_result_is_the_same_without_the_shortcut(value: dict[str, Any]) -> None:
    @th.tool(name="fetch")
    def fetch() -> dict[str, Any]:
        return value

    _same(lambda: for_model(value, fetch, None))


@pytest.mark.parametrize("carrier", sorted(CARRIERS))
def test_the_leak_corpus_is_redacted_the_same_without_the_shortcut(carrier: str) -> None:
    for case in CASES:
        text = CARRIERS[carrier](case)
        _same(lambda text=text: th.redact(text))  # type: ignore[misc]
        assert case.must_not_survive not in th.redact(text)


def test_survivors_and_plain_results_take_the_shortcut_and_stay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The shortcut is taken where it should be (else it saves nothing): plain results,
    when no secret of the environment is in effect (one is looked for in every text)."""
    for name in list(os.environ):
        if is_secret_label(name) is True:
            monkeypatch.delenv(name)
    plain = json.dumps({"order_id": "ORD-1", "total": 28.5, "status": "open", "gift": False})
    assert _engine._simple_tokens(plain) == [] and not _engine._needles(plain)
    assert _engine.scrub(plain) is plain
    for survivor in SURVIVORS:
        assert th.redact(survivor) == survivor or _engine._simple_tokens(survivor) != []
