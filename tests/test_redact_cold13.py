"""The findings of an outside test (cold13) of ``th.redact``.

URL-encoded runs are read decoded, whole: a ``%`` that escapes nothing is the run's own
(``password=Ab%41cd%zzSECRETTAIL99`` kept
``%zzSECRETTAIL99``, and a Django ``SECRET_KEY`` (whose alphabet holds ``%``) kept 20 of
its 66 characters: the decoded run ended at the bare ``%``, its value was redacted there,
and the rest was then read apart from its label). Redis's and Wi-Fi's password settings
and curl's ``--oauth2-bearer`` leaked; an Authorization header quoted whole on a curl
command line took the rest of the line; a pytest node id lost its test's name; "token
revoked." lost its word.
"""

from __future__ import annotations

import re
import string
from urllib.parse import unquote

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples, issued_tokens, secrets
from toolhygiene import _engine

_KEY_ALPHABET = string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)"
"""Django's key alphabet (``get_random_secret_key``), with ``%``."""


@settings(max_examples=examples(300), deadline=None)
@given(
    st.sampled_from(["password=", "SECRET_KEY=", "api_key=", "token=", "x=1&password="]),
    secrets(),
    # (an escape of a letter or digit: an escaped blank or quote ends a value decoded)
    st.sampled_from(string.ascii_letters + string.digits).map(lambda c: f"{ord(c):02X}"),
    st.text("ghijkzGHZ%", min_size=1, max_size=3),
    st.text(string.ascii_letters + string.digits, min_size=4, max_size=16),
)
@example("password=", "Ab0cd", "41", "zz", "SECRETTAIL99")
def test_a_bare_percent_after_an_escape_does_not_end_the_value(
    label: str, head: str, escape: str, bare: str, tail: str
) -> None:
    value = f"{head}%{escape}{head[:2]}%{bare}{tail}"
    out = th.redact(f"{label}{value} (rejected)")
    assert tail not in out, out
    assert out.endswith(" (rejected)"), out


@settings(max_examples=examples(200), deadline=None)
@given(
    st.randoms(use_true_random=False)
    .map(lambda r: "".join(r.choice(_KEY_ALPHABET) for _ in range(50)))
    # (a query's ``&``/``=`` and a closing parenthesis end an unquoted value: apart,
    # left open for a key holding them)
    .map(lambda v: v.translate(str.maketrans("&=()", "^!*-")))
    .filter(lambda v: "%" in v and v[0] not in "$%(" and len(set(v)) >= 15)
    # (an escape of a blank or a line break decodes, and ends the value in the decoded view,
    # as a blank does: ``password=v%0Anext=1`` keeps ``next=1``; a key holding one, about
    # one in a thousand, is left open)
    .filter(lambda v: re.search(r"%(?:0[9aAdD]|20)", v) is None)
)
@example("django-insecure-w#q8oqxb%c848^luypx$jn2r!rg1g%ub5sbsgwl5a5w7@!w@*5")
def test_a_django_key_goes_whole(key: str) -> None:
    out = th.redact(f"SECRET_KEY={key}")
    assert out == "SECRET_KEY=[redacted:secret]", out


@settings(max_examples=examples(300), deadline=None)
@given(st.text(string.printable + "é\u200b", max_size=40).map(lambda s: s.replace("\\", "")))
@example("%E2%80%8B")
@example("%25%32%35")
@example("%e2%80x%8b")
@example("%zz%4")
def test_runs_of_escapes_decode_as_unquote_reads_them(segment: str) -> None:
    # the decoder finds each run of escapes in C; urllib's, up to three times, is the oracle
    expected = segment
    for _ in range(3):
        again = unquote(expected, errors="replace")
        if again == expected:
            break
        expected = again
    decoded = _engine._url_decoded(segment)
    kept = (*_engine._BLANKS, "\ufffd")
    if all(c not in kept or c in segment for c in expected):
        assert decoded == expected
    else:  # such a blank or a bad byte stays as written (leak15): none the text did not hold
        assert all(c not in kept or c in segment for c in decoded)


def test_text_with_percent_signs_and_nothing_secret_stays() -> None:
    for line in [
        "100% of %41 tests passed",
        "see https://x.io/a%20b?q=50%",
        "progress: 45%, eta 3 min (file%20name.txt)",
    ]:
        assert th.redact(line) == line


@settings(max_examples=examples(300), deadline=None)
@given(
    st.sampled_from(
        [
            "requirepass {v}",
            "masterauth {v}",
            "CONFIG SET requirepass {v}",
            "psk={v}",
            'psk="{v}"',
            "curl --oauth2-bearer {v} https://api.acme.io",
            "['curl', '--oauth2-bearer', '{v}']",
            "redis> AUTH default {v}",
            "127.0.0.1:6379> AUTH bob {v}\n(error) WRONGPASS invalid username-password pair",
            "redis-cli AUTH {v}",
            "sqlplus system/{v}@db.acme.io:1521/ORCL",
            "sqlplus -S scott/{v}@orcl @script.sql",
            "expdp scott/{v}@orcl directory=dp",
            "rman target sys/{v}@db",
            "exp userid=scott/{v}@orcl",
            "sqlplus 'scott/{v}'@orcl as sysdba",
            'sqlplus "sys/{v}@orcl as sysdba"',
            "sqlplus scott/'{v}'@orcl",
        ]
    ),
    secrets(),
)
def test_redis_wifi_oracle_and_curl_bearer_secrets_go(shape: str, value: str) -> None:
    assert value not in th.redact(shape.format(v=value))


@settings(max_examples=examples(300), deadline=None)
@given(
    st.sampled_from(["'", '"']),
    st.sampled_from(["Bearer", "Token", "Basic", "token", "Bot"]),
    issued_tokens(),
    st.sampled_from([" https://api.acme.io/v1/me", " -H 'Accept: application/json' -d x", ""]),
)
def test_an_authorization_header_quoted_whole_ends_at_its_quote(
    quote: str, scheme: str, token: str, rest: str
) -> None:
    line = f"curl -H {quote}Authorization: {scheme} {token}{quote}{rest}"
    out = th.redact(line)
    assert token not in out
    assert out == f"curl -H {quote}Authorization: {scheme} [redacted:authorization]{quote}{rest}"


def test_a_digest_header_quoted_whole_goes_past_its_escaped_quotes() -> None:
    line = (
        'curl -H "Authorization: Digest username=\\"bob\\", '
        'response=\\"6629fae49393a05397450978507c4ef1\\"" https://x.io'
    )
    out = th.redact(line)
    assert "6629fae4" not in out and out.endswith('" https://x.io'), out


_NAMES = st.from_regex(r"(test|Test)_?[a-z]{2,8}(_[a-z]{2,8}){0,3}", fullmatch=True)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.sampled_from(["auth", "token", "secret", "password", "session", "api_key"]),
    st.lists(_NAMES, min_size=1, max_size=3),
    st.sampled_from(["", "[param-1]", "[bob-2]"]),
    st.sampled_from(["FAILED ", "ERROR ", ""]),
)
def test_a_node_id_or_scope_after_a_label_word_stays(
    word: str, names: list[str], params: str, status: str
) -> None:
    line = f"{status}tests/test_{word}.py::{'::'.join(names)}{params} - AssertionError"
    assert th.redact(line) == line


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(["password", "secret", "token"]), issued_tokens())
def test_a_random_run_after_a_double_colon_still_goes(word: str, token: str) -> None:
    assert token not in th.redact(f"{word}::{token}")


@pytest.mark.parametrize(
    "line",
    [
        "token revoked.",
        "Bearer token EXPIRED",
        "token Expired.",
        "the token was revoked.",
        "AUTH failed",
        "SMTP AUTH PLAIN",
        "AUTH LOGIN",
        "AUTH user failed",
        "auth failed for user bob",
        "sqlplus / as sysdba",
        "see sqlplus docs/manual.html",
        "install sqlplus docs/readme",
        "imp path/to/file",
    ],
)
def test_a_word_after_token_or_a_scheme_stays(line: str) -> None:
    assert th.redact(line) == line


@settings(max_examples=examples(200), deadline=None)
@given(
    st.sampled_from(["auth", "token", "secret", "session", "pass", "key"]),
    st.sampled_from(["service", "lib", "api", "sauce", "proxy", "manager"]),
    st.from_regex(r"v?[0-9]{1,2}\.[0-9]{1,2}(\.[0-9]{1,2})?(-rc[0-9]|-slim)?", fullmatch=True),
    st.sampled_from(
        ["docker pull ghcr.io/acme/{n}:{v}", "pip install {n}=={v}", "image: ghcr.io/acme/{n}:{v}",
         "{n}:{v} deployed", "npm i {n}@{v}"]
    ),
)  # fmt: skip
def test_a_package_or_image_version_after_a_name_with_a_label_word_stays(
    word: str, rest: str, version: str, shape: str
) -> None:
    # (cold14: "auth-lib==1.4.2" became "auth-lib=[redacted:secret]")
    line = shape.format(n=f"{word}-{rest}", v=version)
    assert th.redact(line) == line


@pytest.mark.parametrize("line", ["db-password=1.4.2", "password: 1.4.2", "api-key:1.4.2"])
def test_a_version_shaped_value_under_a_secrets_own_name_still_goes(line: str) -> None:
    assert "1.4.2" not in th.redact(line)
