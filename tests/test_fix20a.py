"""Secrets that still reached the model after cold20's round (fix20a, session 13), each
fixed as a family and tested in every carrier (``th.redact``, a failing call's line and
log, a successful call's result, ``handle``):

1. an echo after a line of marks (``...``): the marks are no rest of the labelled value,
   so the value is read whole and its echo found, and the marks' line stays;
2. a name/value pair naming an Authorization header (a HAR's ``{"name":
   "Authorization", "value": "Bearer v"}``): the value goes after its scheme word,
   however short, and no key is ever rewritten (``"value"`` was taken as the header's
   value, as in a tuple ``("Authorization", "v")``, and its echo renamed every key);
3. values a syntax labels as secret: TOML's triple-quoted strings, XML CDATA, MySQL's
   ``SET PASSWORD``, Redis ``MONITOR``'s ``"AUTH" "v"``, GitHub Actions' ``::add-mask::``,
   a user:password pair after a name ending in ``LOGIN``, Terraform's
   ``random_password`` ``result``, Google Secret Manager's ``payload.data``;
4. a name that says what its value is for (``JWT_SIGNING``, ``WEBHOOK_HMAC``,
   ``GITHUB_WEBHOOK``, ``ENCRYPTION_SEED``): its value goes when it reads as a
   credential (a URL, a number, an algorithm's name stay; a bare word in prose too).
"""

from __future__ import annotations

import json
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from corpus import every_door
from helpers import examples
from toolhygiene._labels import plausible_value, status_word

PASSWORD = "Irbkkv373#WOy9ChWEnU"

_PASSWORDS = st.text(
    string.ascii_letters + string.digits + "#^*-_", min_size=10, max_size=24
).filter(
    lambda v: (
        any(c.isdigit() for c in v) and any(c.islower() for c in v) and any(c.isupper() for c in v)
    )
)


# -- 1. an echo after a line of marks ------------------------------------------------

MARKS = ["...", "....", "…", "---", "***", "___", "===", "-- -- --", ". . ."]


@pytest.mark.parametrize("marks", MARKS)
def test_an_echo_after_a_line_of_marks_goes_and_the_marks_stay(marks: str) -> None:
    text = f"set DB password={PASSWORD}\n{marks}\nretrying connect with {PASSWORD} (attempt 2)"
    out = th.redact(text)
    assert PASSWORD not in out, out
    assert f"\n{marks}\nretrying connect with " in out, out


def test_an_echo_after_a_line_of_marks_goes_in_every_carrier() -> None:
    every_door(
        f"set DB password={PASSWORD}\n...\nretrying connect with {PASSWORD} (attempt 2)", PASSWORD
    )


@settings(max_examples=examples(200), deadline=None)
@given(
    _PASSWORDS,
    st.text(".-*_=~… ", min_size=3, max_size=12).filter(lambda m: m.strip(" ") != ""),
    st.sampled_from(["password=", "token: ", "DB_PASSWORD=", "secret = "]),
)
def test_a_line_of_marks_is_no_value_s_rest(password: str, marks: str, label: str) -> None:
    text = f"{label}{password}\n{marks.strip()}\nretry with {password} now"
    out = th.redact(text)
    assert password not in out, (text, out)
    assert f"\n{marks.strip()}\nretry with " in out, (text, out)


def test_a_token_wrapped_over_lines_is_still_joined() -> None:
    """The wrapped value's rest, letters and digits, still joins (the marks rule is
    only for lines without any)."""
    out = th.redact(
        "DD_APP_KEY: 3f2a9c1e7b5d4a6f8e0c2b1a9d7f5e3c\n7d71c2e4a6b8d0f2e4c6a8b0d2f4e6a8\nnext"
    )
    assert "7d71c2e4" not in out, out


# -- 2. an Authorization header as a name/value pair -----------------------------------

LONG = "0mUHqdECfCWI4pznnFdhtLlfMma9mVozO4dn10dV"


def test_a_har_header_list_keeps_its_keys() -> None:
    text = (
        f'{{"headers": [{{"name": "Authorization", "value": "Bearer {LONG}"}}, '
        '{"name": "Accept", "value": "application/json"}]}'
    )
    out = th.redact(text)
    assert LONG not in out, out
    assert json.loads(out)["headers"][1] == {"name": "Accept", "value": "application/json"}
    assert json.loads(out)["headers"][0]["value"].startswith("Bearer [redacted:"), out


@pytest.mark.parametrize("credential", ["abc", "Xy7pQ2", "hunter2", LONG])
@pytest.mark.parametrize("name", ["Authorization", "authorization", "Proxy-Authorization"])
def test_a_short_credential_in_a_har_header_goes(name: str, credential: str) -> None:
    text = json.dumps({"headers": [{"name": name, "value": f"Bearer {credential}"}]})
    out = th.redact(text)
    assert credential not in out, out
    pair = json.loads(out)["headers"][0]
    assert set(pair) == {"name", "value"}, out
    assert pair["name"] == name, out


@pytest.mark.parametrize(
    "text",
    [
        '{"key": "Authorization", "value": "Bearer abcdef"}',
        "name: Authorization\nvalue: Bearer abcdef",
        "[{'name': 'Authorization', 'value': 'Basic abcdef'}]",
    ],
)
def test_an_authorization_pair_goes_in_other_syntaxes(text: str) -> None:
    assert "abcdef" not in th.redact(text)


def test_a_har_header_goes_in_every_carrier() -> None:
    every_door('{"headers": [{"name": "Authorization", "value": "Bearer abc9"}]}', "abc9")


@pytest.mark.parametrize("value", ["Bearer (missing)", "", "Bearer"])
def test_an_empty_authorization_pair_stays(value: str) -> None:
    text = json.dumps({"headers": [{"name": "Authorization", "value": value}]})
    assert th.redact(text) == text


def test_a_tuple_header_still_goes() -> None:
    """The header written as a tuple (``('Authorization', 'v')``): its second item is the
    value, not a key."""
    assert "abc" not in th.redact("('Authorization', 'Bearer abc')")


@settings(max_examples=examples(200), deadline=None)
@given(
    st.text(string.ascii_letters + string.digits + "-._~+/", min_size=1, max_size=40).filter(
        # (a placeholder or a status word after the scheme, ``Bearer TRUE``, ``Bearer
        # none``, is no credential: the decided lists, as the library reads them)
        lambda v: (
            v.strip(".") != ""
            and any(c.isalnum() for c in v)
            and plausible_value(v, prose_allowed=False)
            and not status_word(v)
        )
    ),
    st.lists(
        st.sampled_from(["Accept", "Host", "User-Agent", "Content-Type"]), min_size=1, max_size=4
    ),
)
def test_har_headers_keep_their_shape(credential: str, others: list[str]) -> None:
    headers = [{"name": "Authorization", "value": f"Bearer {credential}"}]
    headers += [{"name": n, "value": "application/json"} for n in others]
    out = th.redact(json.dumps({"headers": headers}))
    read = json.loads(out)["headers"]
    assert [set(h) for h in read] == [{"name", "value"}] * len(headers), out
    assert read[1:] == headers[1:], out
    assert f"Bearer {credential}" not in out, out


# -- 3. values a syntax labels as secret ---------------------------------------------

SECRET = "hool94KRybo&94"

LABELLED = [
    f'password = """{SECRET}"""',
    f"password = '''{SECRET}'''",
    f'[database]\nhost = "db"\npassword = """{SECRET}"""\n',
    f"<password><![CDATA[{SECRET}]]></password>",
    f"<config><db_password> <![CDATA[{SECRET}]]> </db_password></config>",
    f"SET PASSWORD FOR 'app'@'%' = '{SECRET}';",
    f"SET PASSWORD = PASSWORD('{SECRET}')",
    f'set password for bob = "{SECRET}"',
    f'1733140000.123456 [0 10.0.0.4:51234] "AUTH" "{SECRET}"',
    f'1733140000.123456 [0 10.0.0.4:51234] "AUTH" "default" "{SECRET}"',
    f'1.5 [0 127.0.0.1:6379] "HELLO" "3" "AUTH" "app" "{SECRET}"',
    f"::add-mask::{SECRET}\nRun ./deploy.sh",
    f"BROKER_LOGIN=guest:{SECRET}",
    f"rabbit.login = guest:{SECRET}",
    f'  + resource "random_password" "db" {{\n      + length = 24\n      + result = "{SECRET}"\n    }}',
    f'{{"name": "projects/123/secrets/db-pass/versions/4", "payload": {{"data": "{SECRET}"}}}}',
    f"{{'name': 'projects/1/secrets/db/versions/latest', 'payload': {{'data': b'{SECRET}'}}}}",
]


@pytest.mark.parametrize("text", LABELLED)
def test_a_value_its_syntax_labels_goes(text: str) -> None:
    assert SECRET not in th.redact(text)


@pytest.mark.parametrize("text", LABELLED)
def test_a_value_its_syntax_labels_goes_in_every_carrier(text: str) -> None:
    every_door(text, SECRET)


KEPT = [
    'password = ""',
    "-- SET PASSWORD needs the privilege",
    '"AUTH" "failed"',
    "::add-mask::${{ secrets.DEPLOY_TOKEN }}",
    'echo "::add-mask::$TOKEN"',
    "SSO_LOGIN=https://sso.acme.com:8443/start",
    "last_login: 2024/01/02",
    '  + resource "random_password" "db" {\n      + result = (sensitive value)\n    }',
    '{"message": {"payload": {"data": "aGVsbG8="}}}',
    "<name><![CDATA[bob]]></name>",
]


@pytest.mark.parametrize("text", KEPT)
def test_what_names_no_secret_stays(text: str) -> None:
    assert th.redact(text) == text


def test_the_redacted_toml_string_keeps_its_quotes() -> None:
    assert th.redact(f'password = """{SECRET}"""') == 'password = """[redacted:secret]"""'


def test_the_redacted_cdata_keeps_its_section() -> None:
    out = th.redact(f"<password><![CDATA[{SECRET}]]></password>")
    assert out == "<password><![CDATA[[redacted:secret]]]></password>"


@settings(max_examples=examples(200), deadline=None)
@given(
    _PASSWORDS,
    st.sampled_from(
        [
            'password = """{}"""',
            "<password><![CDATA[{}]]></password>",
            "SET PASSWORD FOR 'app'@'%' = '{}';",
            '"AUTH" "{}"',
            "::add-mask::{}",
            "DB_LOGIN=app:{}",
            'resource "random_password" "x" {{\n  result = "{}"\n}}',
        ]
    ),
)
def test_any_password_in_these_syntaxes_goes(password: str, shape: str) -> None:
    assert password not in th.redact(shape.format(password))


# -- 4. a name that says what its value is for --------------------------------------

PURPOSES = [
    ("JWT_SIGNING=Jtnwmz579-cR5A", "Jtnwmz579-cR5A"),
    ('{"SLACK_SIGNING": "7e88r5g92Q9", "TABLE": "orders"}', "7e88r5g92Q9"),
    ("ENCRYPTION_SEED=Fzuwya806_Gat1", "Fzuwya806_Gat1"),
    ("WEBHOOK_HMAC=Oejvbn385_dpvg", "Oejvbn385_dpvg"),
    ("GITHUB_WEBHOOK=cdxy68HLvcp@56", "cdxy68HLvcp@56"),
    ("stripe.webhook: cdxy68HLvcp@56", "cdxy68HLvcp@56"),
    ('[{"name": "GITHUB_WEBHOOK", "value": "cdxy68HLvcp@56"}]', "cdxy68HLvcp@56"),
]


@pytest.mark.parametrize(("text", "secret"), PURPOSES)
def test_a_value_named_by_its_purpose_goes(text: str, secret: str) -> None:
    assert secret not in th.redact(text)


@pytest.mark.parametrize(("text", "secret"), PURPOSES)
def test_a_value_named_by_its_purpose_goes_in_every_carrier(text: str, secret: str) -> None:
    every_door(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "SMB_SIGNING=required",
        "SLACK_WEBHOOK=https://example.com/hooks/abc",
        "RANDOM_SEED=42",
        "numpy_seed: 1234",
        "WEBHOOK_HMAC=sha256",
        "JWT_SIGNING=HS256",
        "signing_algorithm: RS256",
        "seed: 8675309",
        "Received webhook evt_1Nq2Xy3ZabcDEF from Stripe",
        "HMAC mismatch for request req_7Hk2mQ9xLp",
        "commit signing: enabled",
    ],
)
def test_what_a_purpose_names_that_is_no_credential_stays(text: str) -> None:
    assert th.redact(text) == text


@settings(max_examples=examples(200), deadline=None)
@given(
    _PASSWORDS,
    st.sampled_from(["JWT", "SLACK", "GITHUB", "APP", "ENCRYPTION", "STRIPE"]),
    st.sampled_from(["SIGNING", "HMAC", "WEBHOOK", "SEED"]),
)
def test_a_credential_under_a_purpose_goes(password: str, service: str, purpose: str) -> None:
    assert password not in th.redact(f"{service}_{purpose}={password}\nNEXT=1")
