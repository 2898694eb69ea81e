"""damage19 (issue 12, session 13): cold18's damage on main, each in every carrier.

A placeholder replaces exactly the secret (a sentence's stop, a glued ``+name=v`` pair,
an inner label stay beside it); a PEM block under a secret's label is one placeholder;
an allowed value is read with its written-out characters decoded; validation messages
in other languages, strength verdicts and pointers to a vault under a secret's key stay.
Every result goes through ``Session.call`` with a real tool, as a model reads it.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples

_SLOT: list[Any] = [None]


@th.tool(name="fetch_record")
def fetch_record(i: int) -> object:
    """Return the stored record, or raise the stored exception."""
    value = _SLOT[i]
    if isinstance(value, Exception):
        raise value
    return value


def _shown(value: Any) -> str:
    _SLOT[0] = value
    with th.Session([fetch_record]) as session:
        result = session.call("fetch_record", {"i": 0})
    return result.content


def _carriers(text: str) -> Iterator[tuple[str, str]]:
    """``text`` as each carrier shows it to the model: (carrier, what the model reads)."""
    yield "text", th.redact(text)
    yield "dict repr", th.redact(repr({"m": text}))
    yield "json result", _shown({"m": text})
    yield "str result", _shown(json.dumps({"m": text}))
    yield "exception", _shown(ValueError(text))


def _plain(shown: str) -> str:
    """What a carrier shows, its JSON escapes read (the exception's line is text)."""
    return shown.replace('\\"', '"')


@pytest.fixture(autouse=True)
def _no_allowed_values() -> Iterator[None]:
    yield
    th.clear_redactions()


# -- 1. a placeholder replaces exactly the secret ------------------------------------


EXACT = [
    ("token=abc123def+user=bob", "token=[redacted:secret]+user=bob"),
    ("https://ex.com/a?token=abc123def+user=bob", "?token=[redacted:secret]+user=bob"),
    ("password: hunter2+user=bob", "password: [redacted:secret]+user=bob"),
    ("?x=1+user=bob&password=hunter2", "?x=1+user=bob&password=[redacted:secret]"),
    ("--opt +user=bob password=hunter2", "--opt +user=bob password=[redacted:secret]"),
    ("{password=hunter2}", "{password=[redacted:secret]}"),
    ("f({password=Tr0ub4dor3})", "f({password=[redacted:secret]})"),
    ("key=password=hunter2", "key=password=[redacted:secret]"),
    ("k=password=hunter2x", "k=password=[redacted:secret]"),
    ("opts k=token=abcdef123456 b", "opts k=token=[redacted:secret] b"),
    ("password=hunter2. Next sentence.", "password=[redacted:secret]. Next sentence."),
    ("password hunter2. Next", "password [redacted:secret]. Next"),
]


@pytest.mark.parametrize(("text", "kept"), EXACT)
def test_a_placeholder_replaces_exactly_the_secret_in_every_carrier(text: str, kept: str) -> None:
    for carrier, shown in _carriers(text):
        assert kept in _plain(shown), (carrier, shown)


STRIPE = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
STOPS = [
    f"Key is {STRIPE}. Rotate it.",
    f"api_key={STRIPE}. Rotate it.",
    f"the key {STRIPE}. Next",
    f"Payment failed: {STRIPE}. Try again.",
    f"https://x.com/?k={STRIPE}. Next",
    f"[key](https://x.com/?k={STRIPE}). Next",
    f"**key**: `{STRIPE}`. Next",
]


@pytest.mark.parametrize("text", STOPS)
def test_a_stripe_keys_full_stop_stays_in_every_carrier(text: str) -> None:
    """The key goes; the sentence's stop after it (``.`` or ``).`` or `` `. ``) stays."""
    expected = text.replace(STRIPE, "[redacted:stripe-key]")
    for carrier, shown in _carriers(text):
        assert STRIPE not in shown, (carrier, shown)
        assert expected in _plain(shown), (carrier, shown)


def test_a_glued_pair_is_judged_on_its_own() -> None:
    """Cut off a value, ``+password=v`` is a pair of its own and goes."""
    out = th.redact("token=abc123def+password=Tr0ub4dor3")
    assert out == "token=[redacted:secret]+password=[redacted:secret]"


@pytest.mark.parametrize(
    "text",
    [
        "SECRET_KEY=00000+_0000=0000000000000000123456789@^",  # a Django key: no name
        "token=iVBORw0KGgo+LuSEK0qoAAAAASUVORK5CYII=abc",  # base64: no lowercase name
        "password=hunter2/",  # a value may end with "/"
        "password=hunter2...",  # an ellipsis is no stop
    ],
)
def test_what_is_no_pair_or_stop_goes_with_the_value(text: str) -> None:
    out = th.redact(text)
    value = text.split("=", 1)[1]
    assert value not in out and value[:6] not in out, out


@settings(max_examples=examples(200), deadline=None)
@given(
    st.text("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789", min_size=8, max_size=20),
    st.sampled_from(["password={v}. Next", "token={v}+user=bob", "key=password={v}"]),
)
def test_the_secret_never_stays_beside_its_placeholder(secret: str, template: str) -> None:
    # (a digit: a word such as ``UNDEFiNED`` is a placeholder's, and stays by decision)
    assume(any(c.isdigit() for c in secret))
    out = th.redact(template.format(v=secret))
    assert secret not in out and secret[:-1] not in out, out
    assert out.count("[redacted:") == 1, out


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("https://ex.com/password/Xk29fLq8Zr7wQm4T/", "https://ex.com/password/[redacted:secret]/"),
        ("GET /api/Token/c9e04727a1b2c3d4e5f6 200", "GET /api/Token/[redacted:secret] 200"),
        ("/api/password/reset/", "/api/password/reset/"),
        ("GET /v1/token/refresh HTTP/1.1", "GET /v1/token/refresh HTTP/1.1"),
        ("url/password/hunter2/", "url/password/hunter2/"),
    ],
)
def test_a_credential_as_a_path_segment_after_its_name_goes(text: str, shown: str) -> None:
    for carrier, out in _carriers(text):
        assert shown in _plain(out), (carrier, out)


# -- 2. a PEM block under a secret's label is one placeholder ------------------------


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A real certificate, made by ``openssl`` (public material)."""
    where: Path = tmp_path_factory.mktemp("pem")
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:1024", "-nodes"),
            *("-keyout", str(where / "k.pem"), "-out", str(where / "c.pem")),
            *("-subj", "/CN=damage19", "-days", "1"),
        ],
        check=True,
        capture_output=True,
    )
    return (where / "c.pem").read_text()


def _indented(block: str, by: str) -> str:
    return "".join(f"{by}{line}\n" for line in block.splitlines())


@pytest.mark.parametrize("label", ["password", "secret", "api_token"])
def test_a_certificate_on_a_secret_labels_line_is_one_placeholder(
    certificate: str, label: str
) -> None:
    text = f"{label}: {certificate}user: bob\n"
    for carrier, shown in _carriers(text):
        assert shown.count("[redacted:") == 1, (carrier, shown)
        assert "CERTIFICATE" not in shown and "user: bob" in _plain(shown), (carrier, shown)


def test_a_certificate_under_a_secret_label_in_every_shape_is_one_placeholder(
    certificate: str,
) -> None:
    shapes = [
        f"password: |\n{_indented(certificate, '  ')}user: bob\n",
        f"db:\n  password: |\n{_indented(certificate, '    ')}  user: bob\n",
        f"password={certificate}",
        json.dumps({"password": certificate, "user": "bob"}),
        repr({"password": certificate, "user": "bob"}),
    ]
    for text in shapes:
        out = th.redact(text)
        assert out.count("[redacted:") == 1, out
        assert "CERTIFICATE" not in out, out


def test_a_certificate_under_no_secret_label_stays_whole(certificate: str) -> None:
    for text in (f"certificate: {certificate}", f"password:\n{certificate}"):
        assert th.redact(text) == text


# -- 3. the allow-list reads written-out characters -----------------------------------

ALLOWED = "ab=cdEFGH1234567890xyzQ"


@pytest.mark.parametrize(
    "written",
    [
        "ab\\u003dcdEFGH1234567890xyzQ",
        "ab\\x3dcdEFGH1234567890xyzQ",
        "ab&#61;cdEFGH1234567890xyzQ",
        "ab&#x3D;cdEFGH1234567890xyzQ",
        "ab&equals;cdEFGH1234567890xyzQ",
        "ab%3DcdEFGH1234567890xyzQ",
    ],
)
def test_an_allowed_value_is_read_with_its_characters_written_out(written: str) -> None:
    th.never_redact(ALLOWED)
    for text in (f"token={written}", f'{{"token": "{written}"}}', f'<a href="?token={written}">'):
        assert th.redact(text) == text


def test_a_value_written_out_that_is_not_allowed_still_goes() -> None:
    th.never_redact(ALLOWED)
    out = th.redact("token=ab\\u003dcdEFGH1234567890xyzR")
    assert out == "token=[redacted:secret]"


def test_a_broad_pattern_keeps_no_provider_key_written_out() -> None:
    th.never_redact(re.compile(r"\w+"))
    out = th.redact("key sk\\u005flive_4eC39HqLyjWDarjtT1zdp7dc")
    assert "4eC39HqLyjWDarjtT1zdp7dc" not in out, out


# -- 5. what a service writes under a secret's key ------------------------------------

KEPT = [
    "doit contenir au moins 8 caractères",
    "Ce champ est obligatoire.",
    "muss mindestens 8 Zeichen lang sein",
    "Das Passwort ist zu kurz",
    "debe tener al menos 8 caracteres",
    "La contraseña es demasiado corta",
    "deve ter pelo menos 8 caracteres",
    "strong",
    "medium",
    "very weak",
    "See the vault",
    "stored in 1Password",
    "Ask the admin",
    ["is too short", "must contain a digit"],
]


@pytest.mark.parametrize("value", KEPT)
def test_a_message_or_verdict_under_a_secret_key_stays_in_every_carrier(value: Any) -> None:
    record = {"password": value}
    as_json = json.dumps(record, ensure_ascii=False)
    assert th.redact(as_json) == as_json
    assert th.redact(repr(record)) == repr(record)
    assert json.loads(_shown(record)) == record
    assert json.loads(_shown(json.dumps({"errors": record}))) == {"errors": record}
    assert as_json in _shown(ValueError(f"bad input: {as_json}"))


GONE = [
    "hunter2",
    "correct horse battery staple",
    "very strong password",
    "strong horse",
    "Tr0ub4dor&3",
    "see hunter2",
    "See the Tr0ub4dor",
    "muss Tr0ub4dor3 sein",
    "doit contenir",  # two words: no message
    "mindestens 8 Zeichen 12345678",
]


@pytest.mark.parametrize("value", GONE)
def test_a_value_like_a_password_under_a_secret_key_still_goes(value: str) -> None:
    record = {"password": value}
    assert th.redact(json.dumps(record)) == '{"password": "[redacted:secret]"}'
    assert json.loads(_shown(record)) == {"password": "[redacted:secret]"}


# -- 6. one home for the status words -------------------------------------------------


def test_the_status_words_have_one_home() -> None:
    from toolhygiene import _labels, _survivors

    assert _labels.STATUS_WORDS <= _labels._PROSE
    assert _labels.STATUS_WORDS <= _survivors._STATUS
    assert not (_labels._PROSE - _labels.STATUS_WORDS) & _survivors._STATUS
