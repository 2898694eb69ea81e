"""Issue 12: an object under a secret's label keeps no secret in it, in any carrier.

Under a key that names a secret with certainty (``password``, ``secret``, ``token``), a
nested object's values are judged as labelled by that key, however deep, unless their
own key names a field known not to be secret (``user``, ``type``, ``expires_in``, a
schema's ``min_length``). Each line keeps its key; only the value goes.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples, passwords
from toolhygiene._redact import redact_data, safe_arguments

SECRET = "Tr0ub4dor3"
GONE = "[redacted:secret]"

_NESTED: list[dict[str, Any]] = [
    {"password": {"value": SECRET}},
    {"secret": {"data": {"v": SECRET + "x"}}},
    {"api_key": {"current": SECRET, "previous": SECRET + "9"}},
    {"db": {"password": {"prod": SECRET}}},
    {"token": [{"value": SECRET}]},
]


def _yaml(data: Any, indent: int = 0) -> str:
    lines = []
    for key, value in data.items():
        if isinstance(value, dict):
            lines.append(" " * indent + f"{key}:")
            lines.append(_yaml(value, indent + 2))
        else:
            lines.append(" " * indent + f"{key}: {value}")
    return "\n".join(lines)


def _scalars(data: Any) -> list[str]:
    if isinstance(data, dict):
        return [s for v in data.values() for s in _scalars(v)]
    if isinstance(data, list):
        return [s for v in data for s in _scalars(v)]
    return [data] if isinstance(data, str) else []


@pytest.mark.parametrize("data", _NESTED)
def test_a_nested_value_goes_from_json_text_and_a_dict_repr(data: dict[str, Any]) -> None:
    for text in (json.dumps(data), json.dumps(data, indent=2), repr(data)):
        shown = th.redact(text)
        for value in _scalars(data):
            assert value not in shown, text
        assert GONE in shown
        for key in ("value", "data", "current", "prod"):  # the keys stay
            assert (key in text) == (key in shown)


@pytest.mark.parametrize("data", _NESTED)
def test_a_nested_value_goes_from_a_dict(data: dict[str, Any]) -> None:
    shown = redact_data(data)
    assert not set(_scalars(data)) & set(_scalars(shown))
    assert json.dumps(shown).count(GONE) == len(_scalars(data))
    assert not set(_scalars(data)) & set(_scalars(safe_arguments(data, 2000)))


@pytest.mark.parametrize("data", [d for d in _NESTED if "token" not in d])
def test_a_nested_value_goes_from_yaml_and_its_key_stays(data: dict[str, Any]) -> None:
    text = _yaml(data)
    shown = th.redact(text)
    for value in _scalars(data):
        assert value not in shown
    assert shown.count("\n") == text.count("\n")
    assert [line.split(":")[0] for line in shown.splitlines()] == [
        line.split(":")[0] for line in text.splitlines()
    ]


def test_the_yaml_of_the_issue() -> None:
    assert th.redact("password:\n  value: Tr0ub4dor3") == f"password:\n  value: {GONE}"
    text = "password:\n  value: 'Tr0ub4dor3'\n  user: bob\nhost: db.example.com"
    assert th.redact(text) == f"password:\n  value: '{GONE}'\n  user: bob\nhost: db.example.com"
    # a value on the line below its label is still the value
    assert th.redact("password:\n  Tr0ub4dor3") == f"password:\n  {GONE}"


def test_a_tools_dict_result_through_session_call(call: Any) -> None:
    @th.tool(name="vault_read")
    def vault_read(name: str) -> dict[str, Any]:
        return {
            "name": name,
            "password": {"value": SECRET, "user": "bob"},
            "secret": {"data": {"v": SECRET + "x"}},
        }

    content = call(th.Session([vault_read]))("vault_read", {"name": "db"}).content
    assert SECRET not in content
    assert '"user": "bob"' in content and '"name": "db"' in content
    assert content.count(GONE) == 2


def test_an_exception_message_with_a_nested_object(call: Any) -> None:
    @th.tool(name="configure")
    def configure(name: str) -> str:
        raise ValueError(f"bad config: {{'password': {{'value': '{SECRET}'}}}}")

    result = call(th.Session([configure]))("configure", {"name": "db"})
    assert SECRET not in result.content
    assert "value" in result.content


def test_a_failures_details_go_through_redact_data() -> None:
    details = {"request": {"auth": {"password": {"value": SECRET, "user": "bob"}}}}
    shown = redact_data(details)
    assert shown == {"request": {"auth": {"password": {"value": GONE, "user": "bob"}}}}


# -- what stays -------------------------------------------------------------------------


def test_fields_known_not_to_be_secret_stay() -> None:
    data = {"token": {"type": "bearer", "expires_in": 3600, "value": "Qx7pLm2R9zKd"}}
    assert redact_data(data) == {"token": {"type": "bearer", "expires_in": 3600, "value": GONE}}
    shown = th.redact(json.dumps(data))
    assert '"type": "bearer"' in shown and '"expires_in": 3600' in shown
    assert "Qx7pLm2R9zKd" not in shown
    other = {
        "password": {
            "user": "bob",
            "username": "bob",
            "createdAt": "2024-01-02",
            "updated_at": "2024-01-03",
            "key_id": "k-17",
            "algorithm": "bcrypt",
            "host": "db.example.com",
            "region": "eu-west-1",
            "status": "active",
            "hint": "your cat",
            "enabled": True,
            "rotated": None,
        }
    }
    assert redact_data(other) == other
    assert th.redact(json.dumps(other)) == json.dumps(other)


@pytest.mark.parametrize(
    "schema",
    [
        {"password": {"min_length": 12, "required": True}},
        {"password": {"type": "string", "minLength": 12, "maxLength": 64, "format": "password"}},
        {"password": {"type": "string", "description": "The user's password", "title": "Password"}},
        {"api_key": {"type": "string", "pattern": "^[A-Za-z0-9]{32}$", "writeOnly": True}},
    ],
)
def test_a_schema_describing_a_secret_field_stays_whole(schema: dict[str, Any]) -> None:
    assert redact_data(schema) == schema
    assert th.redact(json.dumps(schema)) == json.dumps(schema)
    assert th.redact(repr(schema)) == repr(schema)


def test_a_schemas_default_may_be_the_real_password() -> None:
    schema = {"password": {"type": "string", "default": "Hunter2Pass"}}
    assert redact_data(schema) == {"password": {"type": "string", "default": GONE}}
    assert "Hunter2Pass" not in th.redact(json.dumps(schema))


def test_prose_booleans_null_and_plain_numbers_stay() -> None:
    data = {"password": {"error": "is required", "ok": False, "value": None, "tries": 3}}
    assert redact_data(data) == data
    assert th.redact(json.dumps(data)) == json.dumps(data)


def test_a_code_shaped_number_goes() -> None:
    shown = th.redact(json.dumps({"password": {"value": 48219377}}))
    assert json.loads(shown) == {"password": {"value": GONE}}
    assert redact_data({"password": {"value": 48219377}}) == {"password": {"value": GONE}}


@pytest.mark.parametrize(
    "text",
    [
        "password: {password}",
        "secret: {secret:>10}",
        "token={{ token }}",
        "password: {{ .Values.password }}",
        '{"password": {}}',
        '{"password": {"value": ""}}',
    ],
)
def test_templates_format_fields_and_empty_objects_stay(text: str) -> None:
    assert th.redact(text) == text


def test_an_object_inside_a_json_string_goes_even_when_cut() -> None:
    data = {"password": {"value": SECRET, "user": "bob"}}
    body = json.dumps({"body": json.dumps(data)})
    for text in (body, body[:-3], repr(json.dumps(data))[:-3]):
        shown = th.redact(text)
        assert SECRET not in shown
        assert "value" in shown and "bob" in shown


@pytest.mark.parametrize(
    "data",
    [
        {"session": {"started_at": "2024-01-02T10:00:00Z", "page": "home", "browser": "Firefox"}},
        {"secrets": {"count": 3, "names": ["db-password", "api-key"]}},
        {"credentials": {"source": "environment", "profile": "default"}},
        {"signature": {"signer": "John Smith", "date": "2024-01-01"}},
        {"token": {"prompt_tokens": 12, "completion_tokens": 40, "model": "gpt-4o"}},
        {"auth": {"type": "oauth2", "flows": {"code": {"scopes": {"read": "Read access"}}}}},
    ],
)
def test_an_object_that_holds_or_describes_secrets_keeps_its_plain_fields(
    data: dict[str, Any],
) -> None:
    """Under a label that names no one value (a session, a cookie, credentials), a field
    goes only when it holds the secret (``value``, ``current``) or reads as a credential."""
    assert redact_data(data) == data
    assert th.redact(json.dumps(data)) == json.dumps(data)


def test_a_cookies_value_goes_and_its_plain_fields_stay() -> None:
    data = {"cookie": {"domain": "example.com", "path": "/", "value": "abc123XYZ987"}}
    assert redact_data(data) == {"cookie": {"domain": "example.com", "path": "/", "value": GONE}}
    data = {"session": {"page": "home", "sid_hash": "Qx7pLm2R9zKdW4"}}
    assert redact_data(data) == {"session": {"page": "home", "sid_hash": GONE}}


def test_under_a_label_naming_one_value_any_inner_key_holds_it() -> None:
    for label in ("password", "client_secret", "api_key", "accessToken"):
        data = {label: {"a": "hunter2", "user": "bob"}}
        assert redact_data(data) == {label: {"a": GONE, "user": "bob"}}
        assert "hunter2" not in th.redact(json.dumps(data))


def test_an_object_under_a_key_that_names_no_secret_is_as_before() -> None:
    data = {"settings": {"value": "Tr0ub4dor3", "name": "db"}}
    assert th.redact(json.dumps(data)) == json.dumps(data)
    assert redact_data(data) == data


# -- the family ----------------------------------------------------------------------------

_LABELS = st.sampled_from(
    ["password", "secret", "api_key", "token", "client_secret", "db_password", "privateKey"]
)
_INNER = st.sampled_from(["value", "data", "v", "current", "a", "prod", "raw", "content", "b64"])


@settings(max_examples=examples(200), deadline=None)
@given(_LABELS, st.lists(_INNER, min_size=1, max_size=4), passwords(min_tail=3))
def test_any_depth_and_inner_key_the_value_goes(label: str, inner: list[str], value: str) -> None:
    nested: Any = value
    for key in reversed(inner):
        nested = {key: nested}
    data = {label: nested, "user": "bob"}
    for text in (json.dumps(data), repr(data), json.dumps(data, indent=2), _yaml(data)):
        shown = th.redact(text)
        assert value not in shown, text
        for key in inner:
            assert key in shown
        assert "bob" in shown
    shown_data = redact_data(data)
    assert value not in json.dumps(shown_data)
    assert shown_data["user"] == "bob"


@settings(max_examples=examples(200), deadline=None)
@given(
    _LABELS,
    st.sampled_from(["type", "user", "expires_in", "kid", "scope", "version", "region", "id"]),
    st.from_regex(r"[a-z]{3,8}", fullmatch=True),
    passwords(min_tail=3),
)
def test_a_known_field_beside_the_secret_stays(
    label: str, field: str, kept: str, value: str
) -> None:
    data = {label: {field: kept, "value": value}}
    shown = th.redact(json.dumps(data))
    assert value not in shown
    assert f'"{field}": "{kept}"' in shown
    assert redact_data(data) == {label: {field: kept, "value": GONE}}


@settings(max_examples=examples(200), deadline=None)
@given(
    st.sampled_from(["session", "cookie", "credentials", "auth", "secrets", "signature"]),
    st.lists(st.sampled_from(["prod", "db", "a", "config", "primary"]), max_size=3),
    st.sampled_from(["value", "current", "data", "v", "password", "secret", "raw", "default"]),
    passwords(min_tail=3),
)
def test_under_a_label_of_a_holder_a_holders_value_goes(
    label: str, inner: list[str], last: str, value: str
) -> None:
    nested: Any = {last: value, "name": "db"}
    for key in reversed(inner):
        nested = {key: nested}
    data = {label: nested}
    for text in (json.dumps(data), repr(data), _yaml(data)):
        shown = th.redact(text)
        assert value not in shown, text
        assert last in shown and "db" in shown
    assert value not in json.dumps(redact_data(data))
