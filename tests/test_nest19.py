"""Issue 12, nest19: what cold18 found under secrets' labels, each as a family.

1. A password-like word under an unknown inner key of an object that holds or describes
   secrets (``{"session": {"foo": "hunter2"}}``) goes; its metadata (ids, dates, users,
   states, numbers) stays.
2. An object under a secret's label with bare keys (a YAML flow mapping, a JS object):
   ``password: {current: v, previous: v}``.
3. A flow list under a bare secret's key: each item judged, brackets and count kept.
4. A list, a tuple or a dict given for a secret's field in a pydantic error: each value
   judged, in ``str(exc)``, ``exc.errors()`` and ``exc.json()``.
5. The JSON fallback (``_json_kept``) echoes a value it replaced whole.
"""

from __future__ import annotations

import json
from typing import Any

import pydantic
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples, passwords
from toolhygiene._engine import scrub
from toolhygiene._json_kept import kept
from toolhygiene._nested import password_like

GONE = "[redacted:secret]"
UUID = "123e4567-e89b-12d3-a456-426614174000"

# -- 1. an unknown inner key of a secret's container -----------------------------------


@pytest.mark.parametrize("label", ["session", "credentials", "auth", "cookie", "secrets"])
def test_a_password_under_an_unknown_key_of_a_container_goes(label: str) -> None:
    for text in (
        json.dumps({label: {"foo": "hunter2"}}),
        repr({label: {"foo": "hunter2"}}),
    ):
        out = th.redact(text)
        assert "hunter2" not in out
        assert "foo" in out


def test_a_sessions_metadata_stays() -> None:
    data = {
        "session": {
            "id": UUID,
            "expires": "2026-03-01T12:00:00Z",
            "user": "bob",
            "state": "active",
            "started": "12:30:01",
            "count": 42,
            "host": "api.example.com",
            "url": "https://example.com/login",
            "email": "bob@example.com",
            "version": "v1.2.3",
            "foo": "hunter2",
        }
    }
    out = json.loads(th.redact(json.dumps(data)))["session"]
    assert out.pop("foo") == GONE
    kept_fields = dict(data["session"])
    kept_fields.pop("foo")
    kept_fields.pop("email")  # (e-mail addresses have their own switch)
    for key, value in kept_fields.items():
        assert out[key] == value


@given(passwords())
@settings(max_examples=examples(200), deadline=None)
def test_any_password_under_an_unknown_key_of_a_session_goes(password: str) -> None:
    text = json.dumps({"session": {"id": UUID, "blob": password, "user": "bob"}})
    out = th.redact(text)
    assert password not in out
    assert UUID in out and '"user": "bob"' in out


@pytest.mark.parametrize(
    "value",
    [
        "2026-03-01",
        "2026-03-01T12:00:00Z",
        UUID,
        "12:30",
        "1.2.3",
        "v2.0",
        "https://x.example/y",
        "bob@example.com",
        "/var/lib/app",
        "com.acme.app",
        "active",
        "bob",
        "12345",
        "a1",
    ],
)
def test_what_is_no_password(value: str) -> None:
    assert not password_like(value)


@pytest.mark.parametrize("value", ["hunter2", "s3cret!", "letmein1", "p@ssw0rd", "Tr0ub4dor&3"])
def test_what_may_be_a_password(value: str) -> None:
    assert password_like(value)


# -- 2. objects with bare keys ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("password: {value: hunter2}", f"password: {{value: {GONE}}}"),
        ("credentials = {user: bob, pass: hunter2}", f"credentials = {{user: bob, pass: {GONE}}}"),
        (
            "password: {current: hunter2, previous: letmein1}",
            f"password: {{current: {GONE}, previous: {GONE}}}",
        ),
        ("auth: {user: bob, password: s3cret!}", f"auth: {{user: bob, password: {GONE}}}"),
        (
            "session: {id: 42, state: active, foo: hunter2}",
            f"session: {{id: 42, state: active, foo: {GONE}}}",
        ),
        ("secret: {value: correct horse battery}", f"secret: {{value: {GONE}}}"),
        (
            'const creds = {user: "bob", pass: "hunter2"}',
            f'const creds = {{user: "bob", pass: "{GONE}"}}',
        ),
    ],
)
def test_an_object_with_bare_keys_under_a_secrets_label(text: str, expected: str) -> None:
    assert th.redact(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        'print(f"password: {password}")',
        'fmt = "{secret:>10}"',
        "x = {a: 1, b: 2}",
        "password: {min_length: 12, required: true}",
        "password: {hint: my dog name}",
    ],
)
def test_templates_schemas_and_other_objects_stay(text: str) -> None:
    assert th.redact(text) == text


@given(
    st.sampled_from(["password", "secret", "api_key", "auth", "credentials"]),
    st.sampled_from(["value", "current", "pass", "password", "data"]),
    passwords(),
    st.sampled_from([": ", "="]),
)
@settings(max_examples=examples(200), deadline=None)
def test_any_bare_object_keeps_its_shape(label: str, inner: str, value: str, sep: str) -> None:
    text = f"{label}{sep}{{user: bob, {inner}: {value}}}"
    assert th.redact(text) == f"{label}{sep}{{user: bob, {inner}: {GONE}}}"


# -- 3. flow lists ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tokens: [Qx7pLm2Rab, Ab3dEf6Gkl]", f"tokens: [{GONE}, {GONE}]"),
        ("api_keys: [abcdefghij, klmnopqrst]", f"api_keys: [{GONE}, {GONE}]"),
        ("api_keys=[Qx7pLm2R, Ab3dEf6G]", f"api_keys=[{GONE}, {GONE}]"),
        ("passwords: [hunter2, letmein1]", f"passwords: [{GONE}, {GONE}]"),
        ('passwords: ["a1b2c3d4", "x"]', f'passwords: ["{GONE}", "{GONE}"]'),
        ("passwords: ['a1b2c3d4', 'x']", f"passwords: ['{GONE}', '{GONE}']"),
    ],
)
def test_a_flow_list_keeps_its_brackets_and_count(text: str, expected: str) -> None:
    assert th.redact(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "tokens: [Hello, world]",
        "secrets: [db-password, api-key]",
        "password_rules: [min12x, upper]",
        # letters alone under ``tokens`` (a model's count, a tokeniser's pieces as
        # often): decided to stay
        "tokens: [abcdefghij, klmnopqrst]",
        'passwords: ["can\'t be blank", "too short"]',
    ],
)
def test_a_flow_list_of_names_or_messages_stays(text: str) -> None:
    assert th.redact(text) == text


@given(
    st.sampled_from(["passwords", "api_keys", "secrets", "tokens"]),
    st.lists(passwords(min_tail=4), min_size=2, max_size=6, unique=True),
    st.booleans(),
)
@settings(max_examples=examples(200), deadline=None)
def test_each_item_of_a_flow_list_goes(key: str, items: list[str], quoted: bool) -> None:
    shown = [f'"{item}"' if quoted else item for item in items]
    out = th.redact(f"{key}: [{', '.join(shown)}]")
    placeholder = f'"{GONE}"' if quoted else GONE
    assert out == f"{key}: [{', '.join([placeholder] * len(items))}]"


# -- 4. pydantic errors -----------------------------------------------------------------


class _Login(pydantic.BaseModel):
    password: str
    user: str = "bob"


def _error(given_value: Any) -> pydantic.ValidationError:
    with pytest.raises(pydantic.ValidationError) as caught:
        _Login(password=given_value)
    return caught.value


@pytest.mark.parametrize(
    ("given_value", "shown"),
    [
        (["hunter2", "x"], f"['{GONE}', '{GONE}']"),
        (("hunter2", "letmein1"), f"('{GONE}', '{GONE}')"),
        ({"v": "hunter2"}, f"{{'v': '{GONE}'}}"),
    ],
)
def test_a_container_for_a_secret_field_in_the_error_text(given_value: Any, shown: str) -> None:
    out = th.redact(str(_error(given_value)))
    assert "hunter2" not in out and "letmein1" not in out
    assert f"input_value={shown}," in out


@pytest.mark.parametrize(
    "given_value", [["hunter2", "x"], ("hunter2", "letmein1"), {"v": "hunter2"}]
)
def test_a_container_for_a_secret_field_in_errors_and_json(given_value: Any) -> None:
    exc = _error(given_value)
    for text in (
        exc.json(),
        repr(exc.errors()),
        json.dumps(exc.errors(include_url=False)),
    ):
        out = th.redact(text)
        assert "hunter2" not in out and "letmein1" not in out
        assert "loc" in out and "string_type" in out
    data = json.loads(th.redact(exc.json()))
    redacted_input = data[0]["input"]
    if isinstance(given_value, dict):
        assert redacted_input == {"v": GONE}
    else:
        assert redacted_input == [GONE] * len(given_value)


def test_a_container_for_another_field_stays() -> None:
    class Search(pydantic.BaseModel):
        query: str

    with pytest.raises(pydantic.ValidationError) as caught:
        Search(query=["hello", "world"])  # type: ignore[arg-type]
    exc = caught.value
    assert th.redact(str(exc)) == str(exc)
    assert th.redact(exc.json()) == exc.json()


def test_a_pydantic_error_through_session_call(call: Any) -> None:
    @th.tool(name="login")
    def login(user: str) -> str:
        _Login(password=["hunter2", "letmein1"])  # type: ignore[arg-type]
        return "ok"

    @th.tool(name="login_json")
    def login_json(user: str) -> str:
        try:
            _Login(password=["hunter2", "letmein1"])  # type: ignore[arg-type]
        except pydantic.ValidationError as exc:
            return exc.json()
        return "ok"

    session = call(th.Session([login, login_json]))
    for name in ("login", "login_json"):
        content = session(name, {"user": "bob"}).content
        assert "hunter2" not in content and "letmein1" not in content


@given(st.lists(passwords(), min_size=1, max_size=5))
@settings(max_examples=examples(100), deadline=None)
def test_any_list_for_a_secret_field(items: list[str]) -> None:
    exc = _error(items)
    for text in (str(exc), exc.json(), repr(exc.errors())):
        out = th.redact(text)
        for item in items:
            assert item not in out


# -- 5. the JSON fallback echoes --------------------------------------------------------


def _kept(data: Any) -> Any:
    text = json.dumps(data)
    return json.loads(kept(text, scrub(text, internals=False)))


def test_the_fallback_echoes_a_value_under_an_innocent_key_and_inside_a_string() -> None:
    data = {
        "errors": {"password": ["can't be blank", "hunter2x"]},
        "note": "hunter2x",
        "msg": "login with hunter2x failed",
    }
    assert _kept(data) == {
        "errors": {"password": ["can't be blank", GONE]},
        "note": GONE,
        "msg": f"login with {GONE} failed",
    }


def test_the_list_walk_echoes_too() -> None:
    data = {"auth": [["bob", "hunter2x"]], "echo": "hunter2x", "hunter2x": 1}
    assert _kept(data) == {"auth": [["bob", GONE]], "echo": GONE, GONE: 1}


def test_a_number_echo() -> None:
    data = {"pin": [-48213, 5678], "other": 48213, "o2": -48213, "note": "pin was 48213"}
    out = _kept(data)
    assert out["other"] == GONE and out["o2"] == GONE
    assert "48213" not in json.dumps(out)


@given(passwords(min_tail=3), st.sampled_from(["note", "comment", "detail"]))
@settings(max_examples=examples(200), deadline=None)
def test_an_echo_through_session_call(password: str, key: str) -> None:
    @th.tool(name="read")
    def read(name: str) -> dict[str, Any]:
        return {
            "errors": {"password": ["can't be blank", password]},
            key: password,
            "log": f"tried {password} at login",
        }

    content = th.Session([read]).call("read", {"name": "x"}).content
    assert password not in content
    assert json.loads(content)[key] == GONE
