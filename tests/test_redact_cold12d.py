"""Families an outside tester found in the fourth cold try of issue 12 (cold-12 of session
6): labelled values in syntaxes the labelled layer did not read, values cut at ``&``,
``;``, ``,`` or a space, the second line of a wrapped value, bare New Relic license keys,
one-character values, and over-redaction of line numbers and code in traces."""

from __future__ import annotations

import base64
import string

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples, passwords

# A credential a person or a generator would write: letters and digits mixed, 8 to 14
# characters (too short for the random-token layer: only the label can find it).
_ALNUM = string.ascii_letters + string.digits
VALUES = passwords(4, 7)
LABELS = st.sampled_from(
    ["password", "PASSWORD", "db_password", "api_key", "API_KEY", "ApiKey", "secret",
     "Secret", "token", "TOKEN", "auth_token", "client_secret", "SECRET_KEY", "passwd"]
)

# -- 1. labelled values in any syntax ------------------------------------------------------

SYNTAXES = [
    "<{l}>{v}</{l}>",
    "<config><{l}>{v}</{l}></config>",
    '<ns:{l} type="string">{v}</ns:{l}>',
    '<add key="{l}" value="{v}"/>',
    '{l} := "{v}"',
    "{l} := {v}",
    "$config['{l}'] = '{v}';",
    '$cfg["{l}"] = "{v}";',
    'config[:{l}] = "{v}"',
    'ENV["{l}"]=\'{v}\'',
    'os.environ["{l}"] = "{v}"',
    "ENV {l} {v}",
    'setx {l} "{v}"',
    "setx {l} {v}",
    "{l}\t{v}",
    "{l} => {v}",
    "{l} -> {v}",
    "{l} is {v}",
    "{l} {v}",
    "| {l} | {v} |",
    "|{l}|{v}|",
    "ALTER USER app WITH PASSWORD '{v}'",
    "CREATE USER app IDENTIFIED BY {v};",
    "CREATE USER app IDENTIFIED BY '{v}';",
]


@pytest.mark.parametrize("syntax", SYNTAXES)
@settings(max_examples=examples(20), deadline=None)
@given(label=LABELS, value=VALUES)
def test_a_labelled_value_goes_in_every_syntax(syntax: str, label: str, value: str) -> None:
    text = syntax.format(l=label, v=value)
    out = th.redact(text)
    assert value not in out, (text, out)
    assert "[redacted:" in out


@settings(max_examples=examples(40), deadline=None)
@given(
    st.lists(VALUES, min_size=1, max_size=4),
    st.sampled_from(["tokens", "api_keys", "secrets", "passwords", "refresh_tokens"]),
)
def test_a_list_under_a_secret_key_goes(values: list[str], key: str) -> None:
    items = ", ".join(f'"{v}"' for v in values)
    text = f'{{"{key}": [{items}]}}'
    out = th.redact(text)
    assert not any(v in out for v in values), out


@pytest.mark.parametrize(
    "text",
    [
        "password is required",
        "password is too short",
        "token expired at 12:00",
        "session 42 closed",
        "Session abc closed",
        "token | required |",
        "| password | string | no |",
        "<password>required</password>",
        "<token></token>",
        '{"tokens": ["Hello", " world", "!"]}',
        '{"tokens": [1, 2, 3]}',
        "password: must be at least 12 characters",
        "Invalid token: expired",
        "token -> expired",
        "IDENTIFIED BY ${DB_PASSWORD}",
        "the secret sauce is love",
        "https://api.example.com/v1/items?token=abc123XY&page=2&limit=10",
    ],
)
def test_prose_and_shapes_of_no_secret_stay_readable(text: str) -> None:
    out = th.redact(text)
    if "abc123XY" in text:
        assert out.endswith("&page=2&limit=10") and "abc123XY" not in out
    else:
        assert out == text


# -- 2. a value is not cut at ``&``, ``;``, ``,`` or a space inside it -------------------

PIECES = st.builds(
    lambda a, b: a + b,
    st.text(string.ascii_letters + "^!#%*~", min_size=1, max_size=4),
    st.text(string.digits, min_size=1, max_size=3),
).filter(lambda piece: piece[0] not in "vV" or not piece[1:].isdigit())
# (``v2`` after ``&`` reads as a version, where a value stops as at a number: documented)


@settings(max_examples=examples(80), deadline=None)
@given(
    LABELS,
    st.sampled_from(["=", ": ", "="]),
    VALUES,
    st.sampled_from(["&", ";", ",", " "]),
    PIECES,
)
@example("password", "=", "AAA00000", "&", "#1")  # (a code HTML drops: read as written)
def test_an_unquoted_value_runs_over_a_separator_inside_it(
    label: str, sep: str, head: str, cut: str, piece: str
) -> None:
    value = head + cut + piece
    text = f"{label}{sep}{value}"
    out = th.redact(text)
    assert piece not in out.removeprefix(label), (text, out)
    assert out.startswith(label)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("password=Xy7kq2Lm&user=bob", "&user=bob"),
        ("password=Xy7kq2Lm; user=bob", "; user=bob"),
        ("token=abc123XY, retrying", ", retrying"),
        ("token=abc123XY,200,OK", ",200,OK"),
        ("password: hunter2 was rejected", " was rejected"),
        ("token: abc123XY at 12:00", " at 12:00"),
        ("token=abc123XY&page=2", "&page=2"),
    ],
)
def test_a_value_stops_at_the_next_key_or_at_prose(text: str, kept: str) -> None:
    assert th.redact(text).endswith("[redacted:secret]" + kept)


def test_the_echo_of_a_value_with_an_ampersand_goes_whole_in_every_form() -> None:
    value = "Tr0ub4dor&3xQ"
    forms = [value, base64.b64encode(value.encode()).decode(), value.encode().hex(),
             value.replace("&", "%26"), value.replace("&", "&amp;")]
    text = f"password={value} rejected; later: " + " / ".join(forms)
    out = th.redact(text)
    for tail in ("&3xQ", "%263xQ", "&amp;3xQ", "JjN4UQ", "26337851"):
        assert tail not in out, out


# -- 3. the second line of a wrapped value -----------------------------------------------


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        ("token: HRKU-d01f6b88-dd41-d\nafc-5ad2-545cad3a4a68", "afc-5ad2-545cad3a4a68"),
        ("api_key=Xy7pQ2\n  mN8rT4vB9kLw", "mN8rT4vB9kLw"),
        ("password: Qz8-a1b2c3d4\n9f8e-7d6c-5b4a", "9f8e-7d6c-5b4a"),
    ],
)
def test_the_wrapped_rest_of_a_value_goes(text: str, rest: str) -> None:
    assert rest not in th.redact(text)


@pytest.mark.parametrize(
    "text",
    ["token: Xy7pQ2\nnext-step", "api_key=Xy7pQ2\n  status-ok", "token: Xy7pQ2\nretry-2"],
)
def test_a_next_line_of_words_after_a_short_value_stays(text: str) -> None:
    assert th.redact(text).endswith(text.split("\n")[1])


# -- 4. fixed shapes: a bare New Relic license key ---------------------------------------


@settings(max_examples=examples(40), deadline=None)
@given(st.text("0123456789abcdef", min_size=36, max_size=36), st.sampled_from(["", "key ", "("]))
def test_a_bare_new_relic_license_key_goes(hex36: str, before: str) -> None:
    key = hex36 + "NRAL"
    out = th.redact(f"{before}{key} in newrelic.yml")
    assert key not in out and hex36 not in out
    assert ("[redacted:newrelic-key]" if before != "key " else "[redacted:") in out


# -- 5. what a trace needs stays ----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "error in auth.py:214",
        "at components/AuthProvider.tsx:42:7",
        "src/session.ts:120",
        "  at com.acme.auth.TokenValidator.validate(TokenValidator.java:88)",
        "password_reset.py:31 in send",
        "secrets.go:15 panic",
        "cookie_jar.rb:9",
        "    token = get_token(user)",
        "    password = form.cleaned_data['password']",
        "    api_key = os.environ.get('API_KEY')",
        "    secret = load_secret(name)",
        "  session = requests.Session()",
        "    token := issueToken(ctx)",
    ],
)
def test_line_numbers_and_called_names_stay(text: str) -> None:
    assert th.redact(text) == text


@pytest.mark.parametrize(
    "text",
    ["db.pwd:1234", "token=Pa55(word)9", "password: b64(Zq8Lm2Xw9)"],
)
def test_a_value_that_only_looks_like_code_still_goes(text: str) -> None:
    assert "[redacted:secret]" in th.redact(text)


# -- 6. a one-character value -------------------------------------------------------------


@pytest.mark.parametrize("value", ["x", "7", "*", "X", "%"])
@pytest.mark.parametrize("label", ["SECRET_KEY=", "password=", "token: "])
def test_a_one_character_value_goes(label: str, value: str) -> None:
    assert th.redact(label + value) == label + "[redacted:secret]"


@pytest.mark.parametrize("value", ["***", "xxxx", "••••", "--"])
def test_a_mask_of_two_characters_or_more_stays(value: str) -> None:
    assert th.redact("password=" + value) == "password=" + value
