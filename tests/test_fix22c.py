"""Public text that cold22 found damaged (fix22c, session 14), each tested as a family
through ``th.redact``, a successful result as a str and a dict, and a real exception's
failure line where the text fits on one. Next to each survivor, a real secret still goes.

1. a date or a time after a label stays whole (``Last login: 2026-11-29T21:14:00Z``).
"""

from __future__ import annotations

import json

import pytest

import toolhygiene as th

SECRET = "Zq8Lm3Nv7Rb2Xc9Kw4Tp"


def _session(fn: object) -> th.Session:
    return th.Session([th.tool(fn)])  # type: ignore[call-overload]


def _fail(text: str) -> str:
    def probe(q: str) -> str:
        """Probe."""
        raise RuntimeError(text)

    out = _session(probe).call("probe", {"q": "x"})
    assert not out.ok
    return out.content


def _ok_str(text: str) -> str:
    def probe(q: str) -> str:
        """Probe."""
        return text

    out = _session(probe).call("probe", {"q": "x"})
    assert out.ok
    return out.content


def _ok_dict(text: str) -> str:
    def probe(q: str) -> dict[str, str]:
        """Probe."""
        return {"source": "fix22c", "output": text}

    out = _session(probe).call("probe", {"q": "x"})
    assert out.ok
    return str(json.loads(out.content)["output"])


def _kept(text: str, *, line: bool = True) -> None:
    """``text`` comes back whole from every carrier (and in the failure line)."""
    assert th.redact(text) == text
    assert _ok_str(text) == text
    assert _ok_dict(text) == text
    if line:
        assert text in _fail(text)


def _gone(text: str, secret: str = SECRET) -> None:
    assert secret not in th.redact(text)
    assert secret not in _ok_str(text)
    assert secret not in _ok_dict(text)
    assert secret not in _fail(text)


# 1. A date or a time after a label
LOGINS = [
    "Last login: 2026-11-29T21:14:00Z",
    "Last login: 2026-11-29T21:14:00.123+01:00 from 192.0.2.7",
    "login: 2026-11-29T21:14:00Z",
    "login=2026-11-29T21:14:00Z",
    "User: bob / Role: admin / Last login: 2026-11-29T21:14:00Z",
    "last_login 21:14:00",
]


@pytest.mark.parametrize("text", LOGINS)
def test_a_time_after_login_stays_whole(text: str) -> None:
    _kept(text)


@pytest.mark.parametrize(
    "text",
    [
        f"Last login: 2026-11-29T21:14:00Z password={SECRET}",
        f"login: bob:{SECRET}",
        f"login: 21:{SECRET}",
        f"login: 21:14:00.{SECRET}",
        f"login: 2026-11-29T21:{SECRET}",
    ],
)
def test_a_password_beside_or_in_place_of_a_time_goes(text: str) -> None:
    _gone(text)


# 2. An OpenID discovery document
DISCOVERY = json.dumps(
    {
        "issuer": "https://login.example.com/v2.0",
        "token_endpoint": "https://login.example.com/v2.0/oauth/token",
        "jwks_uri": "https://login.example.com/v2.0/.well-known/jwks.json",
        "response_types_supported": ["code", "id_token", "token id_token", "code id_token token"],
        "id_token_signing_alg_values_supported": ["RS256", "ES256", "EdDSA"],
        "token_endpoint_auth_methods_supported": [
            "client_secret_basic",
            "client_secret_post",
            "private_key_jwt",
        ],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "claims_supported": ["sub", "at_hash", "c_hash"],
        "request_object_signing_alg_values_supported": ["none", "PS256"],
    },
    indent=2,
)


def test_a_discovery_document_stays_whole() -> None:
    _kept(DISCOVERY, line=False)
    short = (
        '{"response_types_supported": ["code", "token id_token"], '
        '"id_token_signing_alg_values_supported": ["RS256"]}'
    )
    assert short in _fail(short)


@pytest.mark.parametrize(
    "text",
    [
        '{"token_endpoint_auth_method": "client_secret_basic"}',
        '{"id_token_signed_response_alg": "RS256"}',
        "response_type=code id_token token",
        '{"alg": "RS256", "kty": "RSA"}',
    ],
)
def test_public_names_stay(text: str) -> None:
    _kept(text)


@pytest.mark.parametrize(
    "text",
    [
        DISCOVERY[:-2] + f',\n  "client_secret": "{SECRET}"\n}}',
        f'{{"token_endpoint_auth_method": "client_secret_post", "client_secret": "{SECRET}"}}',
        f"token {SECRET}",
        f'{{"client_secret": "RS256{SECRET}"}}',
    ],
)
def test_a_secret_beside_public_names_goes(text: str) -> None:
    _gone(text)
