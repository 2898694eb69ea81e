"""Session 12, an outside test (cold17), part a: pydantic's validation errors, labelled
tuples, tool definitions, session cookies' names, and ``never_redact``'s guard."""

from __future__ import annotations

import collections
import json
import re
import sys
import time
import typing
import urllib.parse
from typing import Any

import pydantic
import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolhygiene as th
from helpers import app_logger, passwords, telemetry_providers
from toolhygiene._labels import is_secret_label
from toolhygiene._registry import allows_any
from toolhygiene.formats import Format

if sys.version_info < (3, 11):  # a builtin since 3.11
    from exceptiongroup import ExceptionGroup

PW = "Xk9mQ2vLpZr4"
SK = "sk_live_" + "51HqLyjWDarjtT1zdp7dc" + "XyZ0aB1cD2eF3gH4"
GHP = "ghp_" + "16C7e42F292c6912E7710c838347Ae178B4a"


# --- L1: a pydantic error's location labels its input ---------------------------------


class _Short(pydantic.BaseModel):
    api_key: pydantic.constr(max_length=8)  # type: ignore[valid-type]


class _Literal(pydantic.BaseModel):
    api_key: typing.Literal["a", "b"]


class _Number(pydantic.BaseModel):
    password: pydantic.conint(gt=0)  # type: ignore[valid-type]


class _Forbid(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    user: str


class _Db(pydantic.BaseModel):
    host: str
    password: pydantic.constr(min_length=30)  # type: ignore[valid-type]


class _Config(pydantic.BaseModel):
    db: _Db


class _Aliased(pydantic.BaseModel):
    api_key: pydantic.constr(max_length=4) = pydantic.Field(alias="X-Api-Key")  # type: ignore[valid-type]


class _Secrets(pydantic.BaseModel):
    secrets: dict[str, pydantic.constr(max_length=3)]  # type: ignore[valid-type]


class _Listed(pydantic.BaseModel):
    client_secret: list[pydantic.constr(max_length=3)]  # type: ignore[valid-type]


class _Token(pydantic.BaseModel):
    token: pydantic.constr(pattern=r"^[a-z]+$")  # type: ignore[valid-type]


class _Union(pydantic.BaseModel):
    api_key: int | typing.Literal["a", "b"]


def _refuse(value: str) -> str:
    raise ValueError("not accepted")


class _Validated(pydantic.BaseModel):
    password: typing.Annotated[str, pydantic.AfterValidator(_refuse)]


class _Typed(pydantic.BaseModel):
    password: str


def _raise(model: type[pydantic.BaseModel], data: dict[str, Any]) -> pydantic.ValidationError:
    with pytest.raises(pydantic.ValidationError) as caught:
        model.model_validate(data)
    return caught.value


_MODELS: list[tuple[type[pydantic.BaseModel], dict[str, Any]]] = [
    (_Short, {"api_key": PW}),
    (_Literal, {"api_key": PW}),
    (_Number, {"password": PW}),
    (_Forbid, {"user": "bob", "password": PW}),
    (_Forbid, {"user": "bob", "db_password": PW}),
    (_Config, {"db": {"host": "db1", "password": PW}}),
    (_Aliased, {"X-Api-Key": PW}),
    (_Secrets, {"secrets": {"db": PW}}),
    (_Listed, {"client_secret": [PW]}),
    (_Token, {"token": PW}),
    (_Short, {"api_key": PW * 9}),  # pydantic cuts a long value's repr in the middle
    (_Union, {"api_key": PW}),  # locations ``api_key.int``, ``api_key.literal['a','b']``
    (_Validated, {"password": PW}),
]


def test_a_list_given_for_a_secret_field_goes_and_a_missing_fields_parent_stays() -> None:
    shown = th.redact(str(_raise(_Typed, {"password": [PW]})))
    assert PW not in shown
    shown = th.redact(str(_raise(_Typed, {"user": "bob-visible"})))
    assert "input_value={'user': 'bob-visible'}" in shown


def _model_id(case: tuple[type[pydantic.BaseModel], dict[str, Any]]) -> str:
    return f"{case[0].__name__}-{'-'.join(case[1])}"


@pytest.mark.parametrize("case", _MODELS, ids=_model_id)
def test_a_validation_errors_input_under_a_secret_location_goes(
    case: tuple[type[pydantic.BaseModel], dict[str, Any]],
) -> None:
    """Its text, as a tool returns it (JSON), and its data (``errors()``, ``json()``,
    FastAPI's 422 body, a repr): the value goes, the location and the message stay."""
    exc = _raise(*case)
    text = str(exc)
    assert PW[:8] in text  # the leak the rule is for: pydantic quotes the input
    for carrier in (
        text,
        json.dumps({"error": text}),
        exc.json(),
        json.dumps({"detail": exc.errors(include_url=False)}, default=str),
        repr(exc.errors()),
    ):
        shown = th.redact(carrier)
        assert PW[:8] not in shown, shown
        assert "input" in shown


def test_a_validation_errors_input_under_another_location_stays() -> None:
    class Person(pydantic.BaseModel):
        name: pydantic.constr(max_length=2)  # type: ignore[valid-type]
        age: int

    exc = _raise(Person, {"name": "alice-visible", "age": "forty-two"})
    for carrier in (str(exc), exc.json(), repr(exc.errors())):
        shown = th.redact(carrier)
        assert "alice-visible" in shown
        assert "forty-two" in shown


def test_a_secret_shaped_input_under_any_location_goes() -> None:
    """The token rules already take a provider's key wherever it is quoted."""

    class Note(pydantic.BaseModel):
        note: pydantic.constr(max_length=5)  # type: ignore[valid-type]

    exc = _raise(Note, {"note": GHP})
    assert GHP not in th.redact(str(exc))
    assert GHP not in th.redact(exc.json())


@given(
    key=st.sampled_from(
        ["password", "api_key", "db_password", "token", "client_secret", "apiKey", "pin"]
    ),
    value=passwords(),
)
def test_any_secret_fields_input_goes_from_the_errors_text(key: str, value: str) -> None:
    model = pydantic.create_model("Cfg", __config__=pydantic.ConfigDict(extra="forbid"))
    exc = _raise(model, {key: value})
    assert value not in th.redact(str(exc))
    assert value not in th.redact(exc.json())


def _config_tool() -> th.Tool[..., Any]:
    def cfg() -> str:
        """Load the config."""
        _Short(api_key=PW)
        return "ok"

    return th.tool(name="cfg", retries=0)(cfg)


@pytest.mark.parametrize("line_cap", [300, 4000])
def test_a_validation_error_raised_in_a_tool_leaves_no_input_in_line_or_log(
    line_cap: int,
) -> None:
    logger, handler = app_logger("toolhygiene.test.cold17a.pydantic")
    with th.configure(logs=logger, line_cap=line_cap), th.Session([_config_tool()]) as s:
        outcome = s.call("cfg", {})
    assert not outcome.ok
    assert PW not in outcome.content
    assert "api_key" in outcome.content
    logged = "\n".join(r.getMessage() + str(r.__dict__) for r in handler.records)
    assert handler.records
    assert PW not in logged


def test_a_validation_error_leaves_no_input_in_the_spans() -> None:
    exporter, _ = telemetry_providers()
    exporter.clear()
    with th.configure(trace_content=True, logs=False), th.Session([_config_tool()]) as s:
        s.call("cfg", {})
    spans = exporter.get_finished_spans()
    assert spans
    dump = json.dumps(
        [
            [dict(sp.attributes or {}), [dict(e.attributes or {}) for e in sp.events]]
            for sp in spans
        ],
        default=str,
    )
    assert "string_too_long" in dump
    assert PW not in dump


def test_a_validation_error_in_a_group_leaves_no_input_in_the_log() -> None:
    def many() -> str:
        """Validate many."""
        errors = []
        for _ in range(2):
            try:
                _Short(api_key=PW)
            except pydantic.ValidationError as exc:
                errors.append(exc)
        raise ExceptionGroup("many", errors)

    logger, handler = app_logger("toolhygiene.test.cold17a.group")
    with th.configure(logs=logger), th.Session([th.tool(name="many", retries=0)(many)]) as s:
        outcome = s.call("many", {})
    assert PW not in outcome.content
    assert PW not in "\n".join(r.getMessage() + str(r.__dict__) for r in handler.records)


def test_a_tool_returning_a_validation_errors_data_shows_no_input() -> None:
    def check() -> dict[str, Any]:
        """Check the config."""
        try:
            _Config.model_validate({"db": {"host": "db1", "password": PW}})
        except pydantic.ValidationError as exc:
            return {"detail": exc.errors(include_url=False)}
        return {}

    with th.Session([th.tool(name="check")(check)]) as s:
        outcome = s.call("check", {})
    assert outcome.ok
    assert PW not in outcome.content
    assert '"loc": ["db", "password"]' in outcome.content


# --- L2: a named tuple keeps its field names -------------------------------------------

_Credentials = collections.namedtuple("_Credentials", "user password")


class _Login(typing.NamedTuple):
    user: str
    token: str
    port: int


def _result(value: Any) -> str:
    def get() -> Any:
        """Get."""
        return value

    with th.Session([th.tool(name="get")(get)]) as s:
        outcome = s.call("get", {})
    assert outcome.ok, outcome.content
    return outcome.content


@pytest.mark.parametrize(
    ("value", "where"),
    [
        (_Credentials("bob", "Winter2025x"), lambda d: d["password"]),
        (_Login("bob", "Winter2025x", 5432), lambda d: d["token"]),
        ({"db": _Credentials("bob", "Winter2025x")}, lambda d: d["db"]["password"]),
        ([_Credentials("bob", "Winter2025x")], lambda d: d[0]["password"]),
        (
            {"a": [{"b": (1, _Credentials("bob", "Winter2025x"))}]},
            lambda d: d["a"][0]["b"][1]["password"],
        ),
    ],
)
def test_a_named_tuple_result_reads_as_its_fields(value: Any, where: Any) -> None:
    shown = _result(value)
    assert "Winter2025x" not in shown
    data = json.loads(shown)
    assert where(data) == "[redacted:secret]"
    assert "bob" in shown


def test_a_named_tuple_with_nothing_secret_is_an_object() -> None:
    where = collections.namedtuple("where", "host port region")
    assert json.loads(_result(where("db1", 5432, "eu-west-1"))) == {
        "host": "db1",
        "port": 5432,
        "region": "eu-west-1",
    }
    split = urllib.parse.urlsplit("https://bob:Winter2025x@db.example.com/x?q=1")
    shown = json.loads(_result(split))
    assert shown["scheme"] == "https"
    assert shown["query"] == "q=1"
    assert "Winter2025x" not in json.dumps(shown)


def test_a_plain_tuple_and_a_struct_sequence_stay_lists() -> None:
    assert json.loads(_result(("bob", 1, None))) == ["bob", 1, None]
    assert json.loads(_result({"t": ("a", "b")})) == {"t": ["a", "b"]}
    local = time.gmtime(0)  # a struct sequence: a tuple with no ``_fields``
    assert json.loads(_result(local)) == list(local)


@given(
    fields=st.lists(
        st.sampled_from(["user", "host", "password", "api_key", "port", "note", "secret"]),
        min_size=1,
        max_size=5,
        unique=True,
    ),
    value=passwords(),
)
def test_a_named_tuples_secret_fields_go_and_the_others_stay(fields: list[str], value: str) -> None:
    kind = collections.namedtuple("Row", fields)  # type: ignore[misc]
    shown = json.loads(_result({"rows": [kind(*[value] * len(fields))]}))
    row = shown["rows"][0]
    assert list(row) == fields
    for name in fields:
        if is_secret_label(name) is True:
            assert row[name] == "[redacted:secret]"


# --- L5: the model reads a tool's definition -------------------------------------------

DSN = "postgresql://app:Xk9mQ2vLpZr4@10.0.0.5/db"
_SEEN: list[str] = []


@th.tool(input_examples=[{"amount": 5, "api_key": SK}])
def charge(
    amount: int,
    api_key: str = SK,
    dsn: str = DSN,
    password: str = "Hunter2Winter",
    note: str | None = "see STRIPE_SECRET_KEY=" + SK,
    region: str = "eu-west-1",
) -> str:
    """Charge a card. Uses STRIPE_SECRET_KEY=sk_live_51HqLyjWDarjtT1zdp7dcXyZ0aB1cD2eF3gH4.

    Args:
        amount: cents to charge; the key is sk_live_51HqLyjWDarjtT1zdp7dcXyZ0aB1cD2eF3gH4.
        api_key: the Stripe key.
        dsn: where the ledger is.
        password: the ledger's password.
        note: a note on the charge.
        region: the AWS region, as in eu-west-1.
    """
    _SEEN.append(api_key)
    return "ok"


@pytest.mark.parametrize("fmt", ["anthropic", "openai_chat", "openai_responses"])
@pytest.mark.parametrize("strict", [False, True])
def test_a_definition_carries_no_secret(fmt: Format, strict: bool) -> None:
    with th.Session([charge]) as s:
        text = json.dumps(s.schemas(fmt, strict=strict))
    for secret in (SK, "Xk9mQ2vLpZr4", "Hunter2Winter"):
        assert secret not in text
    assert "Charge a card." in text
    assert "eu-west-1" in text
    assert "the Stripe key." in text
    assert "[redacted:" in text


def test_a_definitions_parameters_are_redacted_everywhere_the_model_reads_them() -> None:
    for schema in (charge.parameters, charge.parameters_for("openai_chat", strict=True)):
        assert SK not in json.dumps(schema)
    properties = charge.parameters["properties"]
    assert properties["password"]["default"] == "[redacted:secret]"
    assert properties["region"]["default"] == "eu-west-1"
    assert properties["region"] == charge._ready().schema["properties"]["region"]
    assert properties["amount"]["description"].startswith("cents to charge; the key is [redacted:")


def test_the_real_default_still_applies_when_the_model_leaves_it_out() -> None:
    _SEEN.clear()
    with th.Session([charge]) as s:
        assert s.call("charge", {"amount": 5}).ok
    assert _SEEN == [SK]


def test_a_definition_without_a_secret_is_unchanged() -> None:
    @th.tool
    def search(query: str, limit: int = 10, region: str = "eu-west-1") -> str:
        """Search the orders; mail ops@example.com when it fails.

        Args:
            query: words to look for, as in "order 42".
            limit: at most this many.
            region: the region.
        """
        return ""

    raw = search._ready().schema
    assert search.parameters is raw
    formats: tuple[Format, ...] = ("anthropic", "openai_chat", "openai_responses")
    for fmt in formats:
        definition = search.schema(fmt)
        assert "Search the orders; mail ops@example.com when it fails." in json.dumps(definition)


def test_a_rule_added_after_the_tool_applies_to_its_definition() -> None:
    @th.tool
    def deploy(target: str = "acme_0123456789abcdef01234567") -> str:
        """Deploy."""
        return ""

    assert "acme_0123456789abcdef01234567" in json.dumps(deploy.parameters)
    th.add_redaction("acme-key", r"acme_[0-9a-f]{24}", gate="acme_")
    assert "acme_0123456789abcdef01234567" not in json.dumps(deploy.schema("anthropic"))


# --- L6: a cookie's name that names a session ------------------------------------------

COOKIE = "admin|1735689600|Qm7Lp2Xz9Rt4Wv8K|3f1e2d3c4b5a6978"
SESSION_COOKIES = [
    "next-auth.session-token",
    "__Secure-next-auth.session-token",
    "__Host-next-auth.csrf-token",
    "authjs.session-token",
    "wordpress_logged_in_0123456789abcdef0123456789abcdef",
    "wordpress_sec_0123456789abcdef0123456789abcdef",
    "wp-postpass_0123456789abcdef0123456789abcdef",
    "connect.sid",
    "PHPSESSID",
    "JSESSIONID",
    "laravel_session",
    "_session_id",
    "sessionid",
    "csrftoken",
    "XSRF-TOKEN",
    "_gh_sess",
    "koa.sess",
    "express:sess",
    "__Secure-3PSID",
    "SAPISID",
]


@pytest.mark.parametrize("name", SESSION_COOKIES)
def test_a_session_cookies_value_goes_in_every_carrier(name: str) -> None:
    for carrier in (
        json.dumps({name: COOKIE}),
        repr({name: COOKIE}),
        f"Cookie: theme=dark; {name}={COOKIE}",
        f"Set-Cookie: {name}={COOKIE}; Path=/; HttpOnly",
    ):
        assert "Qm7Lp2Xz9Rt4Wv8K" not in th.redact(carrier), carrier
    assert "Qm7Lp2Xz9Rt4Wv8K" not in _result({name: COOKIE})


@given(
    prefix=st.sampled_from(["", "__Secure-", "__Host-"]),
    app=st.sampled_from(["next-auth", "authjs", "myapp", "shop"]),
    sep=st.sampled_from([".", "-", "_"]),
    word=st.sampled_from(["session-token", "session", "sess", "sid", "csrf-token", "session_id"]),
)
def test_a_prefixed_dotted_session_cookie_name_is_a_label(
    prefix: str, app: str, sep: str, word: str
) -> None:
    name = f"{prefix}{app}{sep}{word}"
    assert is_secret_label(name) is True
    assert "Qm7Lp2Xz9Rt4Wv8K" not in th.redact(json.dumps({name: COOKIE}))


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("next_page_token", "page-2"),
        ("nextPageToken", "CAUQAA"),
        ("continuation_token", "offset-50"),
        ("logged_in", "true"),
        ("is_logged_in", "yes"),
        ("remember_me", "true"),
        ("SSID", "HomeNetwork5G"),
        ("session_count", "12"),
    ],
)
def test_names_that_are_no_session_keep_their_values(name: str, value: str) -> None:
    assert th.redact(json.dumps({name: value})) == json.dumps({name: value})


# --- C1: never_redact refuses what add_redaction refuses -------------------------------

CATASTROPHIC = [r"(a+)+$", r"(a|aa)+$", r"(\w*\s?)*!", r"(.*a){12}", r"\w*\w*!", r"(x+x+)+y"]


@pytest.mark.parametrize("pattern", CATASTROPHIC)
def test_never_redact_refuses_a_catastrophic_pattern_as_add_redaction_does(pattern: str) -> None:
    with pytest.raises(th.UsageError, match="backtrack") as added:
        th.add_redaction("slow", pattern)
    with pytest.raises(th.UsageError, match="backtrack") as allowed:
        th.never_redact(re.compile(pattern))
    assert str(added.value).split(": ", 1)[1] == str(allowed.value).split(": ", 1)[1]
    assert not allows_any()  # nothing was kept of the refused pattern


@pytest.mark.parametrize(
    "pattern", [r"sk_test_\w+", r"ACME-TEST-[0-9]{6}", r"(?:dev|test)-[a-z]+-\d{1,4}", r".+"]
)
def test_never_redact_accepts_a_linear_pattern(pattern: str) -> None:
    th.never_redact(re.compile(pattern))


def test_a_session_cookie_in_a_real_cookie_jar_goes() -> None:
    """``requests``' jar as a tool returns it: its repr, ``get_dict()``, its cookies."""
    import requests

    jar = requests.cookies.RequestsCookieJar()
    for name in SESSION_COOKIES:
        jar.set(name, COOKIE, domain="example.com", path="/")
    for carrier in (repr(jar), str(jar.get_dict()), str(list(jar))):
        assert "Qm7Lp2Xz9Rt4Wv8K" not in th.redact(carrier)
    assert "Qm7Lp2Xz9Rt4Wv8K" not in _result(jar.get_dict())
