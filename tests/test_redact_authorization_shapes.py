"""Authorization credentials in every carrier an outside review found leaking."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

import toolhygiene as th

W = "correcthorsebatterystaple"
HEX = "34a7c2e4185ee217d8ffeded0b0d5706"
DIGEST = (
    f'Digest username="bob", realm="x", nonce="49fdfdc47a71b33c72b19f0850a8ac49", '
    f'uri="/a", response="{HEX}"'
)


def test_a_digest_credential_goes_whole_in_a_header_line() -> None:
    out = th.redact(f"Authorization: {DIGEST}")
    assert HEX not in out and "bob" not in out and "nonce" not in out


def test_a_digest_credential_goes_whole_inside_quotes() -> None:
    out = th.redact(repr({"Authorization": DIGEST, "Accept": "json"}))
    assert HEX not in out and "bob" not in out
    assert "'Accept': 'json'" in out  # stops at its own closing quote


def test_a_header_tuple_and_a_list_value() -> None:
    assert W not in th.redact(repr([("Authorization", f"Bearer {W}"), ("Accept", "json")]))
    assert W not in th.redact(repr({"Authorization": [f"Token {W}"]}))
    assert W not in th.redact(f'[["authorization", "Basic {W}"]]')


@given(
    scheme=st.sampled_from(["Bearer", "Token", "Basic", "Digest", "Negotiate", "AWS4-HMAC-SHA256"]),
    secret=st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=12, max_size=40),
    carrier=st.sampled_from(
        [
            "Authorization: {v}",
            "{{'Authorization': '{v}'}}",
            '{{"authorization": "{v}"}}',
            "[('Authorization', '{v}')]",
            "{{'Authorization': ['{v}']}}",
        ]
    ),
)
def test_any_scheme_in_any_carrier(scheme: str, secret: str, carrier: str) -> None:
    assume(secret not in "[redacted:authorization]")  # the placeholder's own name
    value = f'{scheme} realm="r", sig="{secret}"'
    assert secret not in th.redact(carrier.format(v=value))


def test_a_labelled_passphrase_of_words_goes_whole() -> None:
    for text in (
        "password: correct horse battery staple",
        "passphrase = correct horse battery staple\nnext",
        "PASSWORD：correct horse battery staple",
    ):
        out = th.redact(text)
        assert not any(w in out for w in ("correct", "horse", "battery", "staple")), out


def test_a_token_value_then_prose_keeps_the_prose() -> None:
    assert th.redact("password=hunter2 was rejected").endswith(" was rejected")
    assert th.redact("password: must be at least 12 characters") == (
        "password: must be at least 12 characters"
    )


def test_a_token_as_the_whole_userinfo_pw_and_sshpass() -> None:
    assert W not in th.redact(f"https://{W}@git.acme.io/acme/api.git")
    assert th.redact("https://bob@git.acme.io/x") == "https://bob@git.acme.io/x"
    assert th.redact("ssh://git@github.com/a/b") == "ssh://git@github.com/a/b"
    assert W not in th.redact(f"pw={W}")
    assert W not in th.redact(f"sshpass -p {W} ssh bob@host")
    assert W not in th.redact(f"sshpass -p{W} ssh bob@host")
