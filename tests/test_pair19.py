"""A secret named by a sibling member, capability URLs of catch hooks, hex-encoded labels.

Issue 12, pair19 (session 13; the outside round cold19's family 1 and 7): an object whose
name-ish member (``name``, ``Key``, ``field``, ``ParameterKey``, ``setting`` …) names a
secret, also as a path (``/prod/db/password``), holds it in its value-ish member
(``value``, ``val``, ``data``, ``setting_value``, ``rows`` …), in either order, as JSON,
a dict repr, YAML, keyword arguments and a dict result; a name that names no secret
keeps its value. Every result goes through ``Session.call`` with a real tool or through
``th.redact``; no part of the redactor is mocked.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolhygiene as th
from toolhygiene._redact import redact_data

_SLOT: list[Any] = [None]


@th.tool(name="get_parameter")
def get_parameter(i: int) -> object:
    """Return the stored parameter."""
    return _SLOT[i]


def _shown(value: Any) -> str:
    _SLOT[0] = value
    with th.Session([get_parameter]) as session:
        result = session.call("get_parameter", {"i": 0})
    assert result.ok
    return result.content


def _yaml(pair: dict[str, Any]) -> str:
    lines = [f"{key}: {value}" for key, value in pair.items()]
    return "items:\n  - " + "\n    ".join(lines) + "\n"


_CARRIERS: dict[str, Callable[[dict[str, Any]], str]] = {
    "json": lambda d: th.redact(json.dumps(d)),
    "json-indented": lambda d: th.redact(json.dumps({"Parameter": d}, indent=2)),
    "json-sorted": lambda d: th.redact(json.dumps([d], sort_keys=True)),
    "repr": lambda d: th.redact(repr(d)),
    "json-in-string": lambda d: th.redact(json.dumps({"body": json.dumps(d)})),
    "yaml": lambda d: th.redact(_yaml(d)),
    "data": lambda d: json.dumps(redact_data({"result": [d]})),
    "result": lambda d: _shown({"Parameter": d}),
}

_NAME_KEYS = (
    "name",
    "Name",
    "key",
    "Key",
    "field",
    "label",
    "setting",
    "attribute",
    "column",
    "param",
    "variable",
    "id",
    "path",
    "ParameterKey",
    "SecretName",
    "key_name",
)
_VALUE_KEYS = (
    "value",
    "Value",
    "val",
    "data",
    "content",
    "setting_value",
    "paramValue",
    "ParameterValue",
    "attribute_value",
)
_LABELS = (
    "password",
    "DB_PASSWORD",
    "api_token",
    "client_secret",
    "SMTP_PASSWORD",
    "API token",
    "db_password",
    "secretAccessKey",
)
_PLACES = (
    "{}",
    "/prod/db/{}",
    "prod/db/{}",
    "app.db.{}",
    "/app/{}",
)
_ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"


@st.composite
def _secrets(draw: st.DrawFn) -> str:
    """A password-shaped value: letters, digits and a symbol (not a word, no mask)."""
    head = "".join(draw(st.lists(st.sampled_from(_ALPHABET), min_size=6, max_size=14, unique=True)))
    digits = draw(st.integers(100, 999))
    tail = draw(st.text("abcdefghjkmnpqrstuvwxyz", min_size=3, max_size=4))
    return f"{head}{digits}{draw(st.sampled_from('#%*!'))}{tail}"


@given(
    name_key=st.sampled_from(_NAME_KEYS),
    value_key=st.sampled_from(_VALUE_KEYS),
    label=st.sampled_from(_LABELS),
    place=st.sampled_from(_PLACES),
    secret=_secrets(),
    value_first=st.booleans(),
    between=st.sampled_from([{}, {"Type": "String"}, {"Version": 3, "Tier": "Standard"}]),
    carrier=st.sampled_from(sorted(_CARRIERS)),
)
def test_a_value_named_by_a_sibling_member_goes(
    name_key: str,
    value_key: str,
    label: str,
    place: str,
    secret: str,
    value_first: bool,
    between: dict[str, Any],
    carrier: str,
) -> None:
    name = place.format(label)
    if carrier == "yaml" and " " in name:
        name = place.format("api_token")
    members = [(name_key, name), *between.items(), (value_key, secret)]
    if value_first:
        members.reverse()
    shown = _CARRIERS[carrier](dict(members))
    assert secret not in shown, shown
    assert secret[:10] not in shown, shown


_PLAIN_NAMES = ("color", "LOG_LEVEL", "/prod/db/host", "region", "app.timeout", "Name", "owner")
_PLAIN_VALUES = ("blue", "info", "us-east-1", "enabled", "30s", "web-1", "alice")


@given(
    name_key=st.sampled_from(_NAME_KEYS),
    value_key=st.sampled_from(_VALUE_KEYS),
    name=st.sampled_from(_PLAIN_NAMES),
    value=st.sampled_from(_PLAIN_VALUES),
    carrier=st.sampled_from(sorted(_CARRIERS)),
)
def test_a_value_named_by_no_secret_stays(
    name_key: str, value_key: str, name: str, value: str, carrier: str
) -> None:
    shown = _CARRIERS[carrier]({name_key: name, value_key: value})
    assert value in shown, shown
    assert "[redacted" not in shown, shown


def test_the_ssm_parameter_of_the_report() -> None:
    record = {
        "Parameter": {"Name": "/prod/db/password", "Type": "SecureString", "Value": "WBlHZT156#hzh"}
    }
    for shown in (_shown(record), th.redact(json.dumps(record)), th.redact(repr(record))):
        assert "WBlHZT156#hzh" not in shown
        assert "/prod/db/password" in shown and "SecureString" in shown


def test_a_secure_string_is_a_secret_whatever_its_name() -> None:
    record = {"Name": "/prod/db/connection", "Type": "SecureString", "Value": "Zq8Lm2Xw9Vb7"}
    assert "Zq8Lm2Xw9Vb7" not in _shown(record)
    assert "Zq8Lm2Xw9Vb7" not in th.redact(json.dumps(record))
    plain = {"Name": "/prod/db/connection", "Type": "String", "Value": "db.example.com:5432"}
    assert "db.example.com:5432" in _shown(plain)


@pytest.mark.parametrize(
    "value",
    [
        {"column": "password", "rows": ["Zq8Lm2Xw9Vb7", "Pw4kT7yQ2zR9"]},
        {"key": "db_password", "values": ["Zq8Lm2Xw9Vb7", "Pw4kT7yQ2zR9"]},
    ],
)
def test_each_item_of_a_named_list_goes(value: dict[str, Any]) -> None:
    for shown in (_shown(value), th.redact(json.dumps(value)), json.dumps(redact_data(value))):
        assert "Zq8Lm2Xw9Vb7" not in shown and "Pw4kT7yQ2zR9" not in shown
        assert shown.count("[redacted:secret]") == 2


@pytest.mark.parametrize(
    "text",
    [
        "env:\n  - name: DB_PASSWORD\n    value: Zq8Lm2Xw9Vb7\n  - name: LOG_LEVEL\n    value: info",
        "env:\n  - value: Zq8Lm2Xw9Vb7\n    name: DB_PASSWORD\n",
        "Parameters:\n  - ParameterKey: DbPassword\n    ParameterValue: Zq8Lm2Xw9Vb7\n",
        "Param(name='DB_PASSWORD', value='Zq8Lm2Xw9Vb7')",
        "setting: SMTP_PASSWORD, setting_value: Zq8Lm2Xw9Vb7",
        '{"Key": "app/db/password", "Flags": 0, "Value": "WnE4TG0yWHc5VmI3"}',
        '{"env": [{"name": "DB_PASSWORD", "value": "Zq8Lm2Xw9Vb7"}]}',
        '{"data": {"data": {"password": "Zq8Lm2Xw9Vb7"}, "metadata": {"version": 3}}}',
        '{"variable": "API_TOKEN", "value": "Zq8Lm2Xw9Vb7", "protected": true}',
    ],
)
def test_shapes_of_the_report(text: str) -> None:
    shown = th.redact(text)
    assert "Zq8Lm2Xw9Vb7" not in shown and "WnE4TG0yWHc5VmI3" not in shown, shown


def test_other_members_of_the_object_stay() -> None:
    env = [{"name": "DB_PASSWORD", "value": "Zq8Lm2Xw9Vb7"}, {"name": "LOG_LEVEL", "value": "info"}]
    shown = _shown({"env": env})
    assert json.loads(shown) == {
        "env": [
            {"name": "DB_PASSWORD", "value": "[redacted:secret]"},
            {"name": "LOG_LEVEL", "value": "info"},
        ]
    }


@pytest.mark.parametrize(
    "value",
    ["", "changeme", "<your-password>", "${DB_PASSWORD}", "********", "is required"],
)
def test_a_placeholder_or_a_sentence_under_a_secret_name_stays(value: str) -> None:
    shown = th.redact(json.dumps({"field": "password", "value": value}))
    assert json.loads(shown)["value"] == value


@pytest.mark.parametrize(
    "url",
    [
        "https://hooks.zapier.com/hooks/catch/123456/eiqwt0h/",
        "https://hooks.zapier.com/hooks/catch/9876543/b7x2kq/silent/",
        "https://maker.ifttt.com/trigger/door_open/with/key/bXk9dL2pQz7RsT4uVw1XyA",
        "https://maker.ifttt.com/use/bXk9dL2pQz7RsT4uVw1XyA",
        "https://hook.eu1.make.com/abcdefghijklmnopqrstuvwxyz123456",
        "https://hook.integromat.com/abcdefghijklmnopqrstuvwxyz123456",
    ],
)
def test_a_catch_hook_goes_whole(url: str) -> None:
    shown = th.redact(f"POST {url} failed: 410 Gone")
    assert url.split("/")[-2 if url.endswith("/") else -1] not in shown
    assert "POST [redacted:" in shown and "failed: 410 Gone" in shown


@pytest.mark.parametrize(
    "text",
    [
        "see https://zapier.com/apps/webhook/integrations and https://hooks.zapier.com/",
        "docs: https://www.make.com/en/help/tools/webhooks",
        "https://maker.ifttt.com/trigger/{event}/with/key/{your_key}",
    ],
)
def test_public_pages_of_those_platforms_stay(text: str) -> None:
    assert th.redact(text) == text


@given(
    label=st.sampled_from(["password", "PASSWORD", "api_token", "Secret", "client_secret"]),
    sep=st.sampled_from(["=", ": ", '": "']),
    secret=_secrets(),
)
def test_a_labelled_secret_in_hex_goes(label: str, sep: str, secret: str) -> None:
    written = (label + sep + secret).encode().hex()
    shown = th.redact(f"body: {written}")
    assert written not in shown and written[-16:] not in shown, shown


@pytest.mark.parametrize(
    "plain", ["password=changeme", "passenger count 42", "token_count=5", "secret santa list"]
)
def test_hex_of_no_secret_stays(plain: str) -> None:
    written = plain.encode().hex()
    assert th.redact(f"body: {written}") == f"body: {written}"


def test_the_value_by_value_fallback_reads_the_pair_too() -> None:
    """When the text redactor's output no longer parses, ``_json_kept`` redacts the
    original value by value: a value a sibling names still goes, its siblings stay."""
    from toolhygiene._json_kept import kept

    original = json.dumps(
        {
            "env": [
                {"name": "DB_PASSWORD", "value": "Zq8Lm2Xw9Vb7"},
                {"name": "LOG_LEVEL", "value": "info"},
            ],
            "table": {"column": "password", "rows": ["Pw4kT7yQ2zR9", None]},
        }
    )
    out = json.loads(kept(original, "{ no longer JSON"))
    assert out == {
        "env": [
            {"name": "DB_PASSWORD", "value": "[redacted:secret]"},
            {"name": "LOG_LEVEL", "value": "info"},
        ],
        "table": {"column": "password", "rows": ["[redacted:secret]", None]},
    }


def _label_words() -> list[str]:
    """Every word of ``_labels``' vocabularies (its sets and tuples of strings)."""
    from toolhygiene import _labels

    words: set[str] = set()
    for name in dir(_labels):
        value = getattr(_labels, name)
        if isinstance(value, (frozenset, tuple)) and all(isinstance(x, str) for x in value):
            words |= set(value)
    return sorted(words)


def test_the_names_gate_passes_every_label() -> None:
    """``_named.find`` reads a text further only when a name holds a piece of a label:
    every name ``is_secret_label`` does not reject, made of a word of its vocabulary in
    any of these forms, holds one (a new label word without such a piece fails here)."""
    from toolhygiene import _named
    from toolhygiene._labels import is_secret_label

    missed = []
    for word in _label_words():
        for name in (
            word,
            word.upper(),
            word.title(),
            f"db_{word}",
            f"my{word.title()}",
            f"prod/{word}",
            f"x.{word}.y",
            f"{word}_v",
        ):
            if is_secret_label(name) is not False and not _named._STEMS.search(name.lower()):
                missed.append(name)
    assert not missed
