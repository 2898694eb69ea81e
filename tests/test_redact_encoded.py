"""Encoded forms (cold-12 of session 8, #1-#3): a secret written in any level and any
kind of encoding goes wherever its plain form goes, as docs/redaction.md promises for
URL-encoded and escaped JSON text (the properties compare with the plain form: what the
label layer reads plainly is not this file's subject).

Families: (1) levels of escaping one inside another (a JSON body inside a JSON result,
URL-encoded inside JSON, up to three levels), whatever the label's script; (2) text
written as HTML entities (decimal, hex, named; escaped again); (3) text written as
escapes (``\\xNN`` bytes, ``\\uNNNN``, ``\\UNNNNNNNN``) outside a JSON string. Each in
``th.redact``, a str and a dict success result, a failure line and ``handle``."""

from __future__ import annotations

import html
import json
import string
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples
from toolhygiene.testing import model_turn

_ALNUM = string.ascii_letters + string.digits
# A password a person would choose: letters and digits mixed (too short for the random-
# token layer: only its label finds it).
VALUES = st.builds(
    lambda head, digit, tail: head + digit + tail,
    st.text(string.ascii_letters, min_size=3, max_size=6),
    st.sampled_from(string.digits),
    st.text(_ALNUM, min_size=4, max_size=7),
)
# Labels of several scripts: each is a label docs/redaction.md lists.
LABELS = st.sampled_from(
    ["password", "api_key", "secret", "пароль", "contraseña", "密码", "パスワード",
     "Passwort", "токен", "hasło", "şifre", "lösenord"]
)
PROVIDER_KEYS = st.sampled_from(
    [
        "sk_live_" + "Xy7Q" * 6,
        "ghp_" + "Q7vX2mK9pL4wR8tZ6nB3aB3dEf6hIj9kLm2n",
        "AKIA" + "Q7VX2MK9PL4WR8TZ",
        "xoxb-" + "123456789012-1234567890123-Q7vX2mK9pL4wR8tZ6nB3aB3d",
        "sk-ant-api03-" + "Q7vX2mK9pL4wR8tZ6nB3aB3dEf6hIj9kLm2n",
    ]
)


# -- 1. levels of escaping -----------------------------------------------------------------


def _json_level(text: str, ascii_only: bool) -> str:
    return json.dumps({"status": 401, "body": text}, ensure_ascii=ascii_only)


def _url_level(text: str, ascii_only: bool) -> str:
    return "https://api.example.com/cb?error=" + quote(text, safe="")


LEVELS = st.lists(
    st.tuples(st.sampled_from([_json_level, _url_level]), st.booleans()), min_size=1, max_size=3
)
SAYINGS = st.sampled_from(['{{"message": "{l}: {v}"}}', "{l}={v}", "{l}: {v}", '{l} = "{v}"'])


@settings(max_examples=examples(150), deadline=None)
@given(LABELS, VALUES, SAYINGS, LEVELS)
@example("пароль", "Parol7788q", '{{"message": "{l}: {v}"}}', [(_json_level, True)] * 2)
@example("密码", "Parol7788q", "{l}: {v}", [(_json_level, True), (_url_level, True), (_json_level, True)])
def test_a_labelled_value_goes_at_every_level_of_escaping(
    label: str, value: str, saying: str, levels: list[tuple[Callable[[str, bool], str], bool]]
) -> None:
    text = saying.format(l=label, v=value)
    assume(value not in th.redact(text))  # plainly written, the label layer finds it
    for level, ascii_only in levels:
        text = level(text, ascii_only)
    assert value not in th.redact(text), text


def test_the_cold_testers_double_escaped_body_goes_and_reads() -> None:
    inner = json.dumps({"message": "пароль: Parol_7788q"})
    out = th.redact(json.dumps({"body": inner}))
    assert "Parol_7788q" not in out
    # put back escaped as the level it was read from: still one JSON document
    decoded = json.loads(json.loads(out)["body"])
    assert decoded == {"message": "пароль: [redacted:secret]"}


# -- 2 and 3. characters written out as entities or escapes --------------------------------


def _decimal(text: str) -> str:
    return "".join(f"&#{ord(c)};" for c in text)


def _hex_entity(text: str) -> str:
    return "".join(f"&#x{ord(c):x};" for c in text)


def _twice_escaped(text: str) -> str:
    return "".join(f"&amp;#{ord(c)};" for c in text)


def _named(text: str) -> str:
    return html.escape(text, quote=True)


def _byte_escapes(text: str) -> str:
    return "".join(f"\\x{b:02x}" for b in text.encode())


def _u_escapes(text: str) -> str:
    return "".join(f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}" for c in text)


def _escaped_backslash(text: str) -> str:
    return "".join(f"\\\\x{b:02x}" for b in text.encode())


WRITINGS = st.sampled_from(
    [_decimal, _hex_entity, _twice_escaped, _byte_escapes, _u_escapes, _escaped_backslash]
)
# Where the written-out part stands: the value only, the label and the value, all of it.
SPANS = st.sampled_from(["value", "label", "all"])
CARRIERS = st.sampled_from(
    [
        "{}",
        "Error: {}",
        "{{'detail': '{}'}}",
        "<p>{}</p>",
        "GET /login?{} HTTP/1.1",
        "line 1\n{}\nline 3",
    ]
)


def _written(label: str, value: str, sep: str, writing: Callable[[str], str], span: str) -> str:
    if span == "value":
        return label + sep + writing(value)
    if span == "label":
        return writing(label) + sep + writing(value)
    return writing(label + sep + value)


@settings(max_examples=examples(200), deadline=None)
@given(LABELS, VALUES, st.sampled_from(["=", ": ", " is "]), WRITINGS, SPANS, CARRIERS)
def test_a_labelled_value_written_out_goes(
    label: str,
    value: str,
    sep: str,
    writing: Callable[[str], str],
    span: str,
    carrier: str,
) -> None:
    assume(value not in th.redact(carrier.format(label + sep + value)))
    text = carrier.format(_written(label, value, sep, writing, span))
    out = th.redact(text)
    assert writing(value) not in out, out
    assert value not in out, out


@settings(max_examples=examples(100), deadline=None)
@given(PROVIDER_KEYS, WRITINGS, CARRIERS)
def test_a_provider_key_written_out_goes(key: str, writing: Callable[[str], str], carrier: str) -> None:
    out = th.redact(carrier.format(writing(key)))
    assert writing(key)[: len(writing(key)) // 2] not in out, out


@settings(max_examples=examples(60), deadline=None)
@given(LABELS, VALUES)
def test_html_escaped_json_goes(label: str, value: str) -> None:
    attribute = _named(json.dumps({label: value, "user": "bob"}, ensure_ascii=False))
    assume(value not in th.redact(json.dumps({label: value, "user": "bob"}, ensure_ascii=False)))
    out = th.redact(f'<div data-config="{attribute}"></div>')
    assert value not in out, out
    assert "bob" in out, out


@pytest.mark.parametrize(
    "text",
    [
        "Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt; 5 &gt; 3 &nbsp; caf&eacute;",
        "a=1&amp;b=2&amp;page=3",
        "Z\\u00fcrich, R\\u00e9sum\\u00e9.pdf, \\u00a9 2026",
        "bytes \\\\x41\\\\x42 and b'\\xff\\xfe' and \\x00\\x01 and \\xd0\\xbf",
        "&#169; 2026 ACME &#8212; all rights reserved",
        'msg=\\u0022quoted\\u0022 and \\x27single\\x27',
    ],
)
def test_text_written_out_without_a_secret_is_kept_as_written(text: str) -> None:
    assert th.redact(text) == text


def test_the_rest_of_the_text_keeps_its_written_form() -> None:
    text = "caf&eacute; &lt;ok&gt; password=" + _decimal("S3cr3tPw9") + " &amp; more"
    assert th.redact(text) == "caf&eacute; &lt;ok&gt; password=[redacted:secret] &amp; more"


def test_a_value_read_from_its_written_form_is_redacted_where_it_stands_plainly() -> None:
    out = th.redact("password=" + _decimal("S3cr3tPw9") + " (was S3cr3tPw9)")
    assert "S3cr3tPw9" not in out, out


def test_an_invisible_character_written_as_an_entity_does_not_split_a_token() -> None:
    key = "ghp_" + "Q7vX2mK9pL4wR8tZ6nB3aB3dEf6hIj9kLm2n"
    out = th.redact(f"token {key[:10]}&#8203;{key[10:]}")
    assert key[10:] not in out and key[:10] not in out, out


# -- every path ----------------------------------------------------------------------------

_SHAPES = [
    json.dumps({"body": json.dumps({"message": "пароль: Parol_7788q"})}),
    "password=" + _decimal("Parol_7788q"),
    "api_key=" + _hex_entity("Parol_7788q"),
    "password: " + _byte_escapes("Parol_7788q"),
    "{'msg': '" + _u_escapes("пароль") + ": Parol_7788q'}",
]


@pytest.mark.parametrize("text", _SHAPES)
@pytest.mark.parametrize("as_dict", [False, True])
def test_every_shape_goes_from_a_success_result(text: str, as_dict: bool) -> None:
    @th.tool
    def fetch() -> Any:
        """Fetch."""
        return {"status": 401, "body": text} if as_dict else text

    with th.Session([fetch]) as session:
        content = session.call("fetch", {}).content
    assert "Parol_7788q" not in content, content


@pytest.mark.parametrize("text", _SHAPES)
def test_every_shape_goes_from_a_failure_line_and_handle(text: str) -> None:
    @th.tool
    def fail() -> str:
        """Fail."""
        raise RuntimeError(text)

    @th.tool
    def fetch() -> str:
        """Fetch."""
        return text

    with th.Session([fail]) as session:
        line = session.call("fail", {}).content
    assert "Parol_7788q" not in line, line
    for fmt in ("anthropic", "openai_chat"):
        messages: list[Any] = [{"role": "user", "content": "go"}]
        with th.Session([fail, fetch]) as session:
            session.handle(model_turn(fmt, [("fetch", {}), ("fail", {})]), messages, format=fmt)
        assert "Parol_7788q" not in json.dumps(messages, ensure_ascii=False), messages
