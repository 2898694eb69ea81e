"""Secrets that still reached the model after session 12 (leak19, on cold18's round),
each fixed as a family and tested in every carrier (``th.redact``, a failing call's line
and log, a successful call's result, ``handle``):

1. the value written on the line under a placeholder or a mask: quoted, after blank
   lines, a passphrase, or a token with more words after it on its line;
2. a token of letters alone (one case) after a bare ``key`` or any secret's word, with
   the words of a sentence before or between ("used key v", "changed password to v");
3. an echo written otherwise: HTML character references, ligatures, ``ß`` for ``ss``,
   digits of another script, another dash, Cyrillic or Greek look-alike letters;
4. a literal glued before a reference (``Tr0ub4dor3${DB_PASSWORD}``): the literal goes,
   the reference stays whole;
5. one word in brackets that is the value, not a name (``${swordfish}``,
   ``%(Tr0ub4dor3)s``, ``{{hunter2}}``).
"""

from __future__ import annotations

import html
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from corpus import every_door
from helpers import examples
from toolhygiene._labels import bracketed_verdict, reference_name

TOKEN = "Qx7pLm2vRt9sKw4z"
PHRASE = "correct horse battery staple"

_TOKENS = st.text(string.ascii_letters + string.digits, min_size=10, max_size=32).filter(
    lambda v: (
        any(c.isdigit() for c in v) and any(c.islower() for c in v) and any(c.isupper() for c in v)
    )
)


# -- 1. the value under a placeholder or a mask ----------------------------------------

PLACEHOLDERS = [
    "password: [redacted]",
    "password: ****",
    "token: <unset>",
    "api_key: (hidden)",
    "secret: n/a",
    "PASSWORD: [REDACTED]",
]
UNDER = [
    (f'"{TOKEN}"', TOKEN),
    (f"'{TOKEN}'", TOKEN),
    (f"`{TOKEN}`", TOKEN),
    (f"\n{TOKEN}", TOKEN),  # a blank line between
    (f"\n\n  {TOKEN}", TOKEN),
    (f"{TOKEN} was the old one", TOKEN),
    (f"{TOKEN} (rotated)", TOKEN),
    (f"{TOKEN}, then retried", TOKEN),
    (PHRASE, "battery"),
    (f'"{PHRASE}"', "battery"),
    ("correct-horse-battery-staple", "battery"),
]


@pytest.mark.parametrize("placeholder", PLACEHOLDERS)
@pytest.mark.parametrize(("under", "secret"), UNDER)
def test_the_value_under_a_placeholder_goes(placeholder: str, under: str, secret: str) -> None:
    text = f"{placeholder}\n{under}\nnext step: retry"
    assert secret not in th.redact(text), text


@pytest.mark.parametrize(("under", "secret"), UNDER)
def test_the_value_under_a_placeholder_goes_in_every_carrier(under: str, secret: str) -> None:
    every_door(f"password: [redacted]\n{under}", secret)


@settings(max_examples=examples(200), deadline=None)
@given(
    _TOKENS,
    st.sampled_from(PLACEHOLDERS),
    st.sampled_from(["", "\n", "\n\n", "\n  \n"]),
    st.sampled_from(
        ["{}", '"{}"', "'{}'", "`{}`", "  {}", "{} was rejected", "{} (old)", "{}; retrying", "{}."]
    ),
    st.sampled_from(["\n", "\r\n", "\\n"]),
)
def test_any_token_under_a_placeholder_goes(
    token: str, placeholder: str, blank: str, form: str, newline: str
) -> None:
    text = placeholder + newline + blank.replace("\n", newline) + form.format(token) + newline
    assert token not in th.redact(text), text


PROSE_UNDER = [
    "Please contact your administrator.",
    "Connection refused",
    "see the vault for details",
    "user: bob",
    "\nThe request failed with status 401",
    "retry in 30 seconds please",
    "- name: db",
    "expired",
    "https://sso.example.com/reset",
]


@pytest.mark.parametrize("under", PROSE_UNDER)
def test_the_lines_own_text_under_a_placeholder_stays(under: str) -> None:
    text = f"password: ****\n{under}"
    assert th.redact(text) == text


# -- 2. letters alone after a secret's word ---------------------------------------------

LETTERS = [
    "qwertyuiopasdfghjklzxcvbnmqwe",
    "QWERTYUIOPASDFGHJKLZXCVBNMQWE",
    "QWERTYUIOPASDFGHJKLZXCVBNMqwe",
]
SENTENCES = [
    "used key {v}",
    "used key {v} yesterday",
    "the key: {v}",
    "key={v}",
    "I used the key {v} to sign",
    "the key is {v}",
    "sent the key was {v}",
    'used key "{v}"',
    "changed the password to {v}",
    "rotated the secret to {v}",
    "used token to {v}",
    "api key to {v}",
    "set the access key as {v}",
    "changed the password to Tr0ub4dor&3{v}",
    "old passphrase {v}",
]


@pytest.mark.parametrize("value", LETTERS)
@pytest.mark.parametrize("sentence", SENTENCES)
def test_letters_alone_after_a_secrets_word_go(value: str, sentence: str) -> None:
    text = sentence.format(v=value)
    assert value not in th.redact(text), text


@pytest.mark.parametrize(
    "sentence", ["used key {v}", "the key is {v}", "changed the password to {v}"]
)
def test_letters_alone_after_a_secrets_word_go_in_every_carrier(sentence: str) -> None:
    every_door(sentence.format(v=LETTERS[0]), LETTERS[0])


_ONE_CASE = st.builds(
    lambda letters, upper: letters.upper() if upper else letters,
    st.text(string.ascii_lowercase, min_size=24, max_size=48).filter(lambda v: len(set(v)) >= 10),
    st.booleans(),
)


@settings(max_examples=examples(200), deadline=None)
@given(
    _ONE_CASE,
    st.sampled_from(["used", "with the", "sent", "the old", "wrong", "our", "", "I used the"]),
    st.sampled_from(["key", "api key", "token", "secret", "password", "signing key"]),
    st.sampled_from([" ", ": ", "=", " is ", " was ", " to ", " as "]),
)
def test_a_token_of_letters_after_any_words_and_a_secrets_word_goes(
    value: str, before: str, word: str, sep: str
) -> None:
    text = f"{before} {word}{sep}{value} then it failed".lstrip()
    assert value not in th.redact(text), text


@pytest.mark.parametrize(
    "text",
    [
        "the key to success is practice",
        "key to the city",
        "press key F5",
        "missing key clientSecret",
        "missing key internationalization",
        "reset password to default",
        "token as expected",
        "I sent the key to Bob",
        "reset your password to https://sso.example.com/reset",
        "reset your password at git@sso.example.com:acme/api.git",
        "changed the password to git@sso.example.com:acme/api.git",
        "sent the token to user123",
        "moved the key to ORD-12345",
        "exported the key as base64",
        "moved the key to vault/prod",
        "upgrade token to v2.1.0",
    ],
)
def test_words_after_a_secrets_word_that_name_no_secret_stay(text: str) -> None:
    assert th.redact(text) == text


# -- 3. echoes written otherwise -------------------------------------------------------


def _entities(value: str, every: int) -> str:
    return "".join(f"&#{ord(c)};" if i % every == 0 else c for i, c in enumerate(value))


ECHOES = [
    ("hunter2xyz", "&#104;unter2xyz"),
    ("hunter2xyz", "&#x68;unter2xyz"),
    ("hunter2xyz", "&#X68;UNTER2XYZ"),
    ("Ab<cd>9xyz", "Ab&lt;cd&gt;9xyz"),
    ("Pa&ss9word", "Pa&amp;ss9word"),
    ("profile99x", "pro\ufb01le99x"),
    ("waffle77xx", "wa\ufb04e77xx"),
    ("strasse12x", "stra\u00dfe12x"),
    ("stra\u00dfe12x", "STRASSE12X"),
    ("hunter2024x", "hunter\u0662\u0660\u0662\u0664x"),
    ("hunter2024x", "hunter\u06f2\u06f0\u06f2\u06f4x"),
    ("hunter2024x", "hunter\u0968\u0966\u0968\u096ax"),  # Devanagari digits
    ("abc-def-1234", "abc\u2011def\u20111234"),
    ("abc-def-1234", "abc\u2013def\u22121234"),
    ("passw0rdxyz", "p\u0430ssw0rdxyz"),  # Cyrillic a
    ("hunter2xyz", "hunt\u0435r2xyz"),  # Cyrillic e
    ("Kopernik99", "\u039a\u03bfpernik99"),  # Greek capital kappa, small omicron
]


@pytest.mark.parametrize(("value", "echo"), ECHOES)
def test_an_echo_written_otherwise_goes(value: str, echo: str) -> None:
    text = f"password={value} and later {echo} again"
    out = th.redact(text)
    assert echo not in out and value not in out, out
    assert out.endswith(" again")


@pytest.mark.parametrize(("value", "echo"), ECHOES[:6] + ECHOES[9:10] + ECHOES[14:15])
def test_an_echo_written_otherwise_goes_in_every_carrier(value: str, echo: str) -> None:
    every_door(f"password={value} and later {echo}", value, echo)


_LOOKALIKES = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441"}
_SCRIPT_DIGITS = ["\u0660", "\u06f0", "\u0966", "\uff10"]


def _written(value: str, kinds: list[int]) -> str:
    out = []
    for char, kind in zip(value, kinds, strict=False):
        if kind == 1:
            out.append(f"&#{ord(char)};")
        elif kind == 2:
            out.append(f"&#x{ord(char):x};")
        elif kind == 3 and char.isdigit():
            out.append(chr(ord(_SCRIPT_DIGITS[int(char) % 4]) + int(char)))
        elif kind == 4 and char in _LOOKALIKES:
            out.append(_LOOKALIKES[char])
        elif kind == 5 and char == "-":
            out.append("\u2011")
        else:
            out.append(char)
    return "".join(out)


@settings(max_examples=examples(200), deadline=None)
@given(
    st.text(string.ascii_lowercase + string.digits + "-", min_size=10, max_size=24).filter(
        lambda v: any(c.isdigit() for c in v) and any(c.isalpha() for c in v)
    ),
    st.lists(st.integers(0, 5), min_size=24, max_size=24),
)
def test_any_echo_written_with_references_digits_dashes_and_lookalikes_goes(
    value: str, kinds: list[int]
) -> None:
    echo = _written(value, kinds)
    out = th.redact(f"password={value} logged; echo: {echo} end")
    assert echo not in out and value not in out, (echo, out)


@pytest.mark.parametrize(
    "text",
    [
        "Tom &amp; Jerry &lt;3 caf\u00e9 \u0662\u0660 the \ufb01rst stra\u00dfe",
        "price: &#36;20 &mdash; see https://example.com/?a=1&amp;b=2",
        "password=hunter2xyz; the word hunter stays",
    ],
)
def test_text_with_references_and_other_scripts_is_kept_where_nothing_echoes(text: str) -> None:
    out = th.redact(text)
    assert out.endswith(text[-10:]), out
    assert "hunter2xyz" not in out


# -- 4. a literal glued before a reference --------------------------------------------

REFERENCES = [
    "${DB_PASSWORD}",
    "{{ .Values.password }}",
    "%(password)s",
    "#{db.password}",
    "$(cat /run/secrets/pw)",
    "${PW}",
]


@pytest.mark.parametrize("reference", REFERENCES)
def test_a_literal_before_a_reference_goes_and_the_reference_stays(reference: str) -> None:
    out = th.redact(f"password=Tr0ub4dor3{reference}")
    assert out == f"password=[redacted:secret]{reference}"


@pytest.mark.parametrize("reference", REFERENCES[:3])
def test_a_literal_before_a_reference_goes_in_every_carrier(reference: str) -> None:
    every_door(f"password=Tr0ub4dor3{reference}", "Tr0ub4dor3")


@settings(max_examples=examples(200), deadline=None)
@given(_TOKENS, st.sampled_from(REFERENCES), st.sampled_from(["password", "DB_PASSWORD", "token"]))
def test_any_literal_glued_before_a_reference_goes(token: str, reference: str, label: str) -> None:
    out = th.redact(f"{label}={token}{reference} next")
    assert token not in out
    assert reference in out


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("password=Tr0ub4dor3${swordfish}", "swordfish"),  # a value in brackets: all of it
        ("password=ab${X}cd9", "cd9"),  # the literal goes on after the reference
    ],
)
def test_what_is_no_reference_glued_to_a_literal_goes_with_it(text: str, secret: str) -> None:
    assert secret not in th.redact(text)


# -- 5. one word in brackets: a name or the value --------------------------------------

VALUES_IN_BRACKETS = [
    ("password=${swordfish}", "swordfish"),
    ("password=${Swordfish}", "Swordfish"),
    ("password=%(Tr0ub4dor3)s", "Tr0ub4dor3"),
    ("password=%(swordfish)s", "swordfish"),
    ("password={{hunter2}}", "hunter2"),
    ("password={{ swordfish }}", "swordfish"),
    ("password=#{swordfish}", "swordfish"),
    ("password={swordfish}", "swordfish"),
    ('{"password": "${swordfish}"}', "swordfish"),
    ("{'password': '{{hunter}}'}", "hunter"),
    ('password="%(swordfish)s"', "swordfish"),
]


@pytest.mark.parametrize(("text", "secret"), VALUES_IN_BRACKETS)
def test_a_word_in_brackets_that_is_no_name_is_the_value(text: str, secret: str) -> None:
    assert secret not in th.redact(text)


@pytest.mark.parametrize(("text", "secret"), VALUES_IN_BRACKETS[:5])
def test_a_word_in_brackets_that_is_no_name_goes_in_every_carrier(text: str, secret: str) -> None:
    every_door(text, secret)


NAMES_IN_BRACKETS = [
    "password=${DB_PASSWORD}",
    "password=%(password)s",
    "password=%(db_pw)s",
    "password={password}",
    "password={0}",
    "password={}",
    "password={{ .Values.password }}",
    "password={{ vault_password }}",
    "password=${PW}",
    "password=${A}",
    "password=${dbPassword}",
    "password={{ value }}",
    "password=%(name)s",
    "password=${HOME}",
    "key=${swordfish}",  # after a bare key only a credential's shape counts
    "host=${server}",
]


@pytest.mark.parametrize("text", NAMES_IN_BRACKETS)
def test_a_name_in_brackets_stays(text: str) -> None:
    assert th.redact(text) == text


_WORDS = st.sampled_from(
    [
        "swordfish",
        "dragon",
        "sunshine",
        "monkey",
        "letmein",
        "trustno",
        "princess",
        "shadow",
        "master",
        "football",
        "baseball",
        "qwerty",
    ]
)


@settings(max_examples=examples(200), deadline=None)
@given(
    _WORDS,
    st.sampled_from(["${{{}}}", "{{{{{}}}}}", "{{{{ {} }}}}", "#{{{}}}", "%({})s", "{{{}}}"]),
    st.booleans(),
    st.sampled_from(["password", "db_password", "secret", "PGPASSWORD"]),
)
def test_a_word_of_prose_in_brackets_is_the_value(
    word: str, frame: str, title: bool, label: str
) -> None:
    word = word.title() if title else word
    assert word not in th.redact(f"{label}={frame.format(word)} ok"), (label, frame, word)


# The words a name in code is made of (a name of letters that are no words,
# ``bbbbbAaaAaaAaaaaaaaa``, is judged as any run is: the token layer may take it).
_CODE_WORDS = st.sampled_from(
    [
        "db",
        "api",
        "app",
        "user",
        "admin",
        "password",
        "secret",
        "token",
        "key",
        "value",
        "prod",
        "staging",
        "main",
        "service",
        "client",
        "server",
        "auth",
        "session",
        "cache",
        "redis",
        "postgres",
        "mysql",
        "mail",
        "smtp",
        "github",
        "stripe",
        "aws",
        "access",
        "private",
        "public",
        "signing",
        "master",
        "root",
        "deploy",
        "ci",
    ]
)


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(_CODE_WORDS, min_size=1, max_size=4).map(lambda w: "_".join(w).upper())
    | st.lists(_CODE_WORDS, min_size=2, max_size=4).map("_".join)
    | st.lists(_CODE_WORDS, min_size=2, max_size=4).map(
        lambda w: w[0] + "".join(x.title() for x in w[1:])
    ),
    st.sampled_from(["${{{}}}", "{{{{ .Values.{} }}}}", "#{{{}}}", "%({})s"]),
)
def test_a_name_written_as_code_in_brackets_stays(name: str, frame: str) -> None:
    text = f"password={frame.format(name)}"
    assert th.redact(text) == text


@pytest.mark.parametrize(
    ("name", "verdict"),
    [
        ("DB_PASSWORD", True),
        ("PW", True),
        ("db_password", True),
        ("dbPassword", True),
        ("password", True),
        ("value", True),
        ("var_1", True),
        ("swordfish", False),
        ("Swordfish", False),
        ("Tr0ub4dor3", False),
        ("hunter2", False),
    ],
)
def test_reference_name(name: str, verdict: bool) -> None:
    assert reference_name(name) is verdict


def test_a_bracketed_word_of_prose_is_a_value_and_a_secrets_word_a_name() -> None:
    assert bracketed_verdict("${swordfish}") is True
    assert bracketed_verdict("${password}") is False


def test_an_html_reference_echo_of_a_known_argument_goes() -> None:
    """A secret the model sent (a call's argument) echoed as HTML references."""

    @th.tool
    def lookup(api_key: str) -> str:
        shown = html.escape(api_key)
        raise ValueError(f"rejected &#{ord(shown[0])};{shown[1:]} (as &#x{ord(shown[0]):x};…)")

    session = th.Session([lookup], max_failures=9)
    out = session.call("lookup", {"api_key": "Zq8<Lm2>Xw9Vb7"}).content
    assert "Lm2" not in out and "Xw9Vb7" not in out
