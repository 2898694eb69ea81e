"""cold18: a JSON result stays JSON after redaction (D1), and values under a secret's
label that the text redactor read as something else (L9) go.

Every result goes through ``Session.call`` with a real tool, as a model reads it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th

_SLOT: list[Any] = [None]


@th.tool(name="fetch_record")
def fetch_record(i: int) -> object:
    """Return the stored record."""
    return _SLOT[i]


def _shown(value: Any) -> str:
    _SLOT[0] = value
    with th.Session([fetch_record]) as session:
        result = session.call("fetch_record", {"i": 0})
    assert result.ok
    return result.content


def _shape(value: Any) -> Any:
    """Containers, key counts and lengths; a leaf is ``None``."""
    if isinstance(value, dict):
        return ("dict", [_shape(item) for item in value.values()])
    if isinstance(value, list):
        return ("list", [_shape(item) for item in value])
    return None


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


RAILS_ERRORS = {
    "errors": {"password": ["can't be blank", "is too short (minimum is 8 characters)"]}
}


@pytest.mark.parametrize("as_text", [False, True])
def test_a_validation_error_list_under_password_stays_json(as_text: bool) -> None:
    value = json.dumps(RAILS_ERRORS) if as_text else RAILS_ERRORS
    shown = _shown(value)
    parsed = json.loads(shown)
    assert _shape(parsed) == _shape(RAILS_ERRORS)
    assert list(parsed["errors"]) == ["password"]


@pytest.mark.parametrize(
    "value",
    [
        {"pin": -4821},
        {"pin": 4821.0},
        {"pin": [1234, 5678]},
        {"secrets": {"db": "hunter2x"}},
        {"auth": [["bob", "Tr0ub4dor3x"]]},
        {"api_keys": ["Qx7pLm2Rk9zzWq", "Tr0ub4dor3x"]},
        [{"pin": [-1234, 5678.0]}],
    ],
)
def test_a_value_under_a_secrets_label_goes_in_any_shape(value: Any) -> None:
    shown = _shown(value)
    parsed = json.loads(shown)
    assert _shape(parsed) == _shape(value)
    for secret in ("4821", "1234", "5678", "hunter2x", "Tr0ub4dor3x", "Qx7pLm2Rk9zzWq"):
        assert secret not in shown


@pytest.mark.parametrize("key", ["auth", "credentials", "creds"])
def test_a_pair_in_a_list_under_a_pair_key_keeps_its_user(key: str) -> None:
    value = {key: [["bob", "Tr0ub4dor3x"], ["alice", "Qx7pLm2Rk9zzWq"]]}
    parsed = json.loads(_shown(value))
    assert [pair[0] for pair in parsed[key]] == ["bob", "alice"]
    assert all(pair[1] == "[redacted:secret]" for pair in parsed[key])


@pytest.mark.parametrize(
    "value",
    [
        {"token_count": -4821},
        {"balance": -12.5, "items": [1, 2, 3]},
        {"password": "********"},
        {"session": {"id": "abc", "expires": "2026-01-01"}},
        {"pin": True, "password": None},
    ],
)
def test_plain_values_stay_byte_for_byte(value: Any) -> None:
    assert _shown(value) == json.dumps(value, ensure_ascii=False)


_SECRET_KEYS = st.sampled_from(
    ["password", "passwords", "pin", "api_key", "secret", "token", "auth", "creds"]
)
_PLAIN_KEYS = st.sampled_from(["errors", "name", "message", "items", "note", "data"])
_PROSE = st.sampled_from(
    [
        "can't be blank",
        "is too short (minimum is 8 characters)",
        'say "hi", then go',
        "it's 'quoted', isn't it",
        'a "b" c\'d',
        "Tr0ub4dor3x",
        "hunter2x, can't",
        "",
        "x: y, z=w",
    ]
)
_LEAVES = st.one_of(_PROSE, st.integers(-100_000, 100_000), st.booleans(), st.none())
_VALUES = st.recursive(
    _LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(_SECRET_KEYS, _PLAIN_KEYS), inner, max_size=4),
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(
    value=st.dictionaries(st.one_of(_SECRET_KEYS, _PLAIN_KEYS), _VALUES, min_size=1, max_size=4),
    as_text=st.booleans(),
)
def test_any_json_result_still_parses_with_the_same_shape(
    value: dict[str, Any], as_text: bool
) -> None:
    shown = _shown(json.dumps(value) if as_text else value)
    parsed = json.loads(shown)
    assert _shape(parsed) == _shape(value)
    for key, before, after in _keyed_leaves(value, parsed, None):
        if key in ("password", "secret", "api_key", "token") and before == "Tr0ub4dor3x":
            assert after != before, (key, value, shown)


def _keyed_leaves(before: Any, after: Any, key: str | None) -> list[tuple[str | None, Any, Any]]:
    """Each leaf before and after, with the key nearest above it (lists inherit it)."""
    if isinstance(before, dict):
        return [
            leaf
            for (name, item), new in zip(before.items(), after.values(), strict=True)
            for leaf in _keyed_leaves(item, new, name)
        ]
    if isinstance(before, list):
        return [
            leaf
            for item, new in zip(before, after, strict=True)
            for leaf in _keyed_leaves(item, new, key)
        ]
    return [(key, before, after)]


# L10: a pydantic error at an item of a list field named as the plural of a secret's
# label (``passwords.0``), in every form it takes.


def _list_error(field: str, secret: str) -> Any:
    from typing import Annotated

    from pydantic import BaseModel, StringConstraints, ValidationError, create_model

    short = Annotated[str, StringConstraints(max_length=3)]
    fields: dict[str, Any] = {field: (list[short], ...)}
    model: type[BaseModel] = create_model("Form", **fields)
    try:
        model.model_validate({field: ["ok", secret]})
    except ValidationError as exc:
        return exc
    raise AssertionError("no error")


def _fastapi_body(exc: Any) -> str:
    """FastAPI's 422 body: the errors, each located under ``body`` (fastapi itself is
    not installed here; this is what its handler writes)."""
    errors = exc.errors(include_url=False)
    detail = [{**error, "loc": ["body", *error["loc"]]} for error in errors]
    return json.dumps({"detail": detail})


@pytest.mark.parametrize("field", ["passwords", "api_keys", "secrets", "passphrases", "tokens"])
@pytest.mark.parametrize("secret", ["hunter2", "Tr0ub4dor3x", "Qx7pLm2Rk9zzWq"])
def test_an_items_input_under_a_plural_secret_field_goes_in_every_form(
    field: str, secret: str
) -> None:
    exc = _list_error(field, secret)
    forms = [
        str(exc),
        exc.json(include_url=False),
        repr(exc.errors(include_url=False)),
        _fastapi_body(exc),
    ]
    for form in forms:
        assert secret in form
        out = th.redact(form)
        assert secret not in out, form
        assert f"{field}" in out


def test_a_tools_pydantic_failure_line_keeps_no_item() -> None:
    @th.tool(name="set_passwords")
    def set_passwords(user: str) -> str:
        """Set the user's passwords."""
        raise _list_error("passwords", "hunter2")

    with th.Session([set_passwords]) as session:
        result = session.call("set_passwords", {"user": "bob"})
    assert not result.ok
    assert "hunter2" not in result.content
    assert "passwords" in result.content


def test_an_items_input_under_a_plain_list_field_stays() -> None:
    exc = _list_error("names", "bobbyjones")
    assert "bobbyjones" in th.redact(str(exc))
    assert "bobbyjones" in th.redact(exc.json(include_url=False))


# L12: a list, tuple or dict default under a parameter named as a secret, in every format,
# strict or not (strict mode copies the default into the description).

_DEFAULT_SECRETS = ("Tr0ub4dor3x", "Qx7pLm2Rk9zzWq", "S3cr3tPass99", "Hunter2xyz")


@th.tool(name="connect")
def connect(
    host: str,
    auth: list[str] = ["bob", "Tr0ub4dor3x"],  # noqa: B006 - the case tested
    api_keys: list[str] = ["Qx7pLm2Rk9zzWq"],  # noqa: B006
    secret: tuple[str, ...] = ("alice", "S3cr3tPass99"),
    credentials: list[list[str]] = [["bob", "Hunter2xyz"]],  # noqa: B006
    names: list[str] = ["alice", "bobbyjones"],  # noqa: B006
) -> str:
    """Connect to the host."""
    return host


@th.tool(name="login")
def login(
    host: str,
    creds: dict[str, str] = {"user": "bob", "value": "Hunter2xyz"},  # noqa: B006
    tags: dict[str, str] = {"env": "production"},  # noqa: B006
) -> str:
    """Log in to the host."""
    return host


@pytest.mark.parametrize("fmt", ["anthropic", "openai_chat", "openai_responses"])
@pytest.mark.parametrize("strict", [False, True])
def test_a_container_default_under_a_secrets_name_goes_in_every_format(
    fmt: Any, strict: bool
) -> None:
    with th.Session([connect]) as session:
        shown = json.dumps(session.schemas(fmt, strict=strict))
    for secret in _DEFAULT_SECRETS:
        assert secret not in shown
    assert "bobbyjones" in shown  # a plain list's default stays
    assert '"bob"' in shown or '\\"bob\\"' in shown  # a pair's user stays


@pytest.mark.parametrize("fmt", ["anthropic", "openai_chat", "openai_responses"])
def test_a_dict_default_under_a_secrets_name_goes(fmt: Any) -> None:
    with th.Session([login]) as session:
        shown = json.dumps(session.schemas(fmt))
    assert "Hunter2xyz" not in shown
    assert '"env": "production"' in shown


# L11: cookie jars as requests and httpx write them, and frameworks' session cookies
# whose names hold no secret word.

_COOKIES = [
    ("sessionid", "ab12cd34ef56"),
    ("csrftoken", "Xy7pQ2mN8rT4"),
    (".ASPXAUTH", "4B663ACB8FE0787A6176690AEBDFDEE8B38575857BE11EF071D656AC92FB6235"),
    ("SSESS0123456789abcdef0123456789abcdef", "614b5cc717b20287be8e09d05142226162322393"),
    ("SESS0123456789abcdef0123456789abcdef", "Zq8wX2vB7nM4kL9pR3tY"),
    ("CAKEPHP", "ka8s9d7f6g5h4j3k2l1"),
    ("symfony", "9c1b0e6f3a7d4c2b8e5f1a0d"),
    (".AspNetCore.Identity.Application", "CfDJ8Kq2Lx9mN4pR7tV1wY3zA6bC0dE5fG8hJ2kL"),
    (".AspNetCore.Antiforgery.Xy7Qp2", "CfDJ8Mn3Bv6Cx9Zl2Kj5Hg8Fd1Sa4Qw7Er0Ty"),
]


def _jars(name: str, value: str) -> list[str]:
    import httpx
    import requests

    jar = requests.cookies.RequestsCookieJar()
    jar.set(name, value, domain="example.com")
    jar.set("theme", "dark", domain="example.com")
    cookies = httpx.Cookies()
    cookies.set(name, value, domain="example.com")
    cookie = next(iter(jar))
    return [str(jar), repr(jar), repr(cookies), str(cookie), repr(cookie), f"{name}={value}"]


@pytest.mark.parametrize(("name", "value"), _COOKIES)
def test_a_cookie_jars_value_goes_and_its_name_stays(name: str, value: str) -> None:
    for form in _jars(name, value):
        assert value in form
        out = th.redact(form)
        assert value not in out, form
        assert name in out or "[redacted" in out


def test_a_cookie_jar_through_session_call_keeps_names_and_plain_values() -> None:
    import requests

    jar = requests.cookies.RequestsCookieJar()
    jar.set("sessionid", "ab12cd34ef56", domain="example.com")
    jar.set("theme", "dark", domain="example.com")
    shown = _shown(str(jar))
    assert "ab12cd34ef56" not in shown
    assert "sessionid" in shown and "theme=dark" in shown


@pytest.mark.parametrize(
    "text",
    [
        "the symfony framework",
        "symfony: 6.4",
        "cakephp=4.5.1",
        "uses CakePHP 4",
        "Cookie name=sessionid",
        "Cookie domain=example.com",
    ],
)
def test_framework_names_and_a_cookies_plain_fields_stay(text: str) -> None:
    assert th.redact(text) == text


# L5: a YAML block scalar under a secret's label loses every indented line, whatever it
# holds: a certificate under ``password: |`` is no public material.


def _certificate() -> str:
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "test")])
    now = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    return cert.public_bytes(serialization.Encoding.PEM).decode().strip()


def _block(label: str, lines: list[str], indent: str = "  ") -> str:
    return f"{label}: |\n" + "".join(f"{indent}{line}\n" for line in lines) + "user: bob\n"


@pytest.mark.parametrize(
    "label", ["password", "db_password", "secret", "private_key", "auth_token"]
)
@pytest.mark.parametrize("where", ["after", "before", "alone"])
def test_a_block_scalar_under_a_secrets_label_goes_whole(label: str, where: str) -> None:
    cert = _certificate().splitlines()
    lines = {"after": [*cert, "Tr0ub4dor3x"], "before": ["Tr0ub4dor3x", *cert], "alone": cert}[
        where
    ]
    text = _block(label, lines)
    out = th.redact(text)
    assert "Tr0ub4dor3x" not in out
    assert "BEGIN CERTIFICATE" not in out
    assert not any(line in out for line in cert[1:-1])
    assert out.startswith(f"{label}: |\n") and out.endswith("user: bob\n")


@pytest.mark.parametrize("label", ["certificate", "tls_cert", "ca_bundle", "api_key"])
def test_a_certificate_under_a_plain_or_key_label_stays(label: str) -> None:
    text = _block(label, _certificate().splitlines())
    assert th.redact(text) == text
