"""Public text that cold22 found damaged (fix22c, session 14), each tested as a family
through ``th.redact``, a successful result as a str and a dict, and a real exception's
failure line where the text fits on one. Next to each survivor, a real secret still goes.

1. a date or a time after a label stays whole (``Last login: 2026-11-29T21:14:00Z``);
2. an OpenID discovery document stays (``*_supported`` lists, JOSE algorithm names,
   OAuth client authentication methods, response types);
3. a JWKS's public members stay (``n``, ``e``, ``x``, ``y``, ``x5t``, ``x5c``), its
   private ones go;
4. a request's or a trace's id under its header stays (``cf-ray``, ``x-amz-id-2``);
5. a page's slug in a URL's path stays (Notion's ``Roadmap-<32 hex>``);
6. a certificate's base64 body without a PEM frame stays (SAML's
   ``<ds:X509Certificate>``), checked by its DER structure.
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
    if line:  # (a failure line is one line: its line breaks become spaces)
        assert " ".join(text.split()) in _fail(text)


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
    "User: bob\nLast login: 2026-11-13T07:30:00Z\nStatus: active",
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


# 3, 6. Generated once with cryptography (RSA 2048, a self-signed certificate, P-256);
# the private key's members below are a test key's, never used anywhere.
N = (
    "p8mcD11uFzoOsYKymWicCsO4qPnRuQjxVn4OVcM97ejUO_Vid-w7ojLyPG2pRgHHI3mwdoHCd3bA"
    "lefT94FR80EniD108LyosQEQlDjUFpa0jxy6IiHgBkI7Ucx2eQ_BQghT5JjrFDZLdQmNMHxYpOwH"
    "kvxqBY6zQFx_2FJldEZBqk-OLEOLoo6m6S1taAj7RTuvK2G8QiyYOu_vMQ-tqCVZonbWqAUwobBi"
    "z1b2TEUz5-ADk4Cr_BxsF4U-7XpH7sypY6NdfrxETdOjnOxAzHuct8swrZZeKR_Fr3kGtBaLmA_Q"
    "yhQbsnMo4DgNHrM_E8SCQLTaedXTCwQMh4_zrQ"
)
E = "AQAB"
D = (
    "A17Y7DQXxI6tgeJavRstW0gAOyC9lkZ4NqEUn6Nq6I8PSF8PCdKshf8Y_57CUj4x5mQI5_CGXAj-"
    "KGS-TNADueu6pBF7-mQHzXp0f02-8O85FFDi6lGc4vNMpsGBNcBbxPxO1x49RqwqiuDUvb8ZtsJp"
    "CopYhOEPd8ED7nAFSrcgPy4urLbs4vYBF7EXPWY9lPpImodK8252fwkkNSEqcn-ifaukce9jp6JV"
    "9fAaXquYaL9BB8A9vty8bJ0Cxwv7k-YNJhLhJUcmacbDk798S2IAwLx-Tqbe5yNpsfeRPuBMWyAy"
    "cKbGdgWJKV36Zpnv5NhaxCA9-q_1J8KS9Smnvw"
)
P = (
    "2hEK9gIXt8UeTb8oMBaA2Kqz6GJOR5p80pOHLnYGjtHqABiCyj_7THFrTRBTp6ndxFu-IY1mpvF8"
    "auWnIln_x5JWoqfx9LrZmqqvn4SRJTidpQgs5ZN-VEXkqoPExiYkLeBJtvyRmgaQO_7X2dVgDPws"
    "qfNmx-eAX5kRapDjTKM"
)
Q = (
    "xPmJdatFFksh-PfQv_6A2MP5thlPD2XIe19WO3nq9wnw4CO9xebCHrcHbJ1DORgOXCHtnih3poQp"
    "uGaT2d3neB6yTFLgU9Sl9J0s5GWK1pJZzxh6mjeE7DtB8cZwcXiMVE0zwrdltI-YBkaP-_LS9Bp2"
    "Lr2yx594xm9gEYjh828"
)
DP = (
    "Vhe4bhuxZXpLVoKLyUB5KhFq6eo14YsakMBx9GPgfu5dJiCHMnZELo_wvwIdJOqphWZ7ECAVUP-y"
    "EToN3EAP_ajGz3zix64lTyzoHWBnNXy-sHMj1pd-nqLhfnh7bYeNbRdJwxbAHUFOHIGmknftbfL5"
    "ZzeTcoTxZ8y01Y_STWU"
)
DQ = (
    "iQzSvqOXI0bNcWwDu8J5pdjdgv0jDCSWlHimCCXw_UfWaC2WGf9P640Pxlu5bR02yJX2vceMULi-"
    "SoZcswb5yZMaHY7AdLONcKB3nsakDl2vzS9MBsdAXhlw7adTjy__-5vnusBeLH6ImT05a2TtsFhF"
    "CIqGvOxRXUgbALhL9lM"
)
QI = (
    "X-H1Vi3PNPeZedMuMZNqEK9etzqbrq9DF42sdiSJ4b4bEu89TFcwb6wgkscKKiUSHmM4mwbQdl0O"
    "196XqjElT7Z8SkG6W23zNQt4RLqnMCqUZmdxzglAquacw4nsJHORK-YUNz2xKzH-Kmg4AaK6AaJ1"
    "wAZi0kBf6bovJDqSnDU"
)
X5C = (
    "MIICrzCCAZegAwIBAgIDEtaHMA0GCSqGSIb3DQEBCwUAMBoxGDAWBgNVBAMMD2lkcC5leGFtcGxl"
    "LmNvbTAeFw0yNjAxMDEwMDAwMDBaFw0zNTEyMzAwMDAwMDBaMBoxGDAWBgNVBAMMD2lkcC5leGFt"
    "cGxlLmNvbTCCASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEBAKfJnA9dbhc6DrGCsplonArD"
    "uKj50bkI8VZ+DlXDPe3o1Dv1YnfsO6Iy8jxtqUYBxyN5sHaBwnd2wJXn0/eBUfNBJ4g9dPC8qLEB"
    "EJQ41BaWtI8cuiIh4AZCO1HMdnkPwUIIU+SY6xQ2S3UJjTB8WKTsB5L8agWOs0Bcf9hSZXRGQapP"
    "jixDi6KOpuktbWgI+0U7rythvEIsmDrv7zEPraglWaJ21qgFMKGwYs9W9kxFM+fgA5OAq/wcbBeF"
    "Pu16R+7MqWOjXX68RE3To5zsQMx7nLfLMK2WXikfxa95BrQWi5gP0MoUG7JzKOA4DR6zPxPEgkC0"
    "2nnV0wsEDIeP860CAwEAATANBgkqhkiG9w0BAQsFAAOCAQEAkYR1UPogRoJl9b/HG5i022aS1HC/"
    "ttZwqf5tcmFxxsML0P/e8cLMALFDh75AWrSXlVmXTvCvK1jTih7u9zl7h4x9K9sdOabowY2Hl78i"
    "h8uwnLWKaZ3aCBenOwJLL+weLI81/kZnQxO+FEiwq30mOxuNBNUoYbcCuhLLZebKWY4No3BLY9yq"
    "JxIhRVR4w2gHEAmnSwZPyach8LKZ/ibmM6sFmZSQlrkKJwcRxbL+IY+63LeQ9UbjiY4DdBS9Q1Va"
    "GABdlK6ezZE2tvo2bTH93FWW17vxcl7VCE777Zoh/hxSkVdMfn5nxGplLKMfuPwcx9iBUL94LP1p"
    "pJVk2iUU5g=="
)
X5T = "Ed6DFldL9h6-4JGIhNyX0kgHk_o"
X5T256 = "bXuTI3qiQnq4mJMmwVFg4IeNRWCCFJfYIUKthiUJtPU"
ECX = "Oq09F2Y-Op4Bkqr15Oy6vLtOjcQ89cpxrI4YOL5ro8I"
ECY = "xtZhzdmiAzLaSI7RWo01ch1vQJLpQ7d3w8bAOGspUb8"
ECD = "x76yNCvTuTUfu2hzHTAxCrxEpFQQIp46qsjTsms-0VM"


def _jwks() -> str:
    rsa: dict[str, object] = {"kty": "RSA", "use": "sig", "kid": "k1", "alg": "RS256"}
    rsa |= {"n": N, "e": E, "x5t": X5T, "x5t#S256": X5T256, "x5c": [X5C]}
    ec = {"kty": "EC", "crv": "P-256", "kid": "e1", "alg": "ES256", "x": ECX, "y": ECY}
    return json.dumps({"keys": [rsa, ec]})


def test_a_jwks_public_members_stay() -> None:
    _kept(_jwks(), line=False)
    one = json.dumps({"kty": "RSA", "n": N, "e": E})
    assert th.redact(one) == one


def test_a_private_jwk_loses_its_private_members_only() -> None:
    rsa = {"kty": "RSA", "n": N, "e": E, "d": D, "p": P, "q": Q, "dp": DP, "dq": DQ, "qi": QI}
    ec = {"kty": "EC", "crv": "P-256", "x": ECX, "y": ECY, "d": ECD}
    for key, private in ((rsa, (D, P, Q, DP, DQ, QI)), (ec, (ECD,))):
        text = json.dumps(key)
        for out in (th.redact(text), _ok_str(text), _ok_dict(text)):
            assert all(value not in out for value in private)
            assert key["e" if "e" in key else "x"] in out
        assert N in th.redact(json.dumps(rsa))


def _saml(body: str) -> str:
    return (
        '<samlp:Response ID="_8f2c"><saml:Issuer>https://idp.example.com</saml:Issuer>'
        "<ds:Signature><ds:KeyInfo><ds:X509Data><ds:X509Certificate>"
        f"{body}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></ds:Signature>"
        "</samlp:Response>"
    )


def _lines(body: str, indent: str) -> str:
    return "\n".join(indent + body[i : i + 64] for i in range(0, len(body), 64))


@pytest.mark.parametrize(
    "text",
    [
        _saml(X5C),
        _saml("\n" + _lines(X5C, "        ") + "\n      "),
        f"idp_certificate: {X5C}",
        f'{{"x5c": ["{X5C}"]}}',
    ],
)
def test_a_certificate_without_its_frame_stays(text: str) -> None:
    _kept(text, line=False)


@pytest.mark.parametrize(
    "text",
    [
        # beside the certificate, a signature value and a password still go
        _saml(X5C).replace(
            "<ds:KeyInfo>", f"<ds:SignatureValue>{SECRET}</ds:SignatureValue><ds:KeyInfo>"
        ),
        _saml(X5C) + f" password={SECRET}",
        # a certificate's first bytes, then a secret: no certificate
        _saml(X5C[:200] + SECRET * 20),
    ],
)
def test_a_secret_beside_a_certificate_goes(text: str) -> None:
    for out in (th.redact(text), _ok_str(text), _ok_dict(text)):
        assert SECRET not in out


def test_a_secret_under_a_private_label_is_no_certificate() -> None:
    assert X5C not in th.redact(f"private_key: {X5C}")


def test_a_certificate_after_an_escaped_line_break_stays() -> None:
    text = json.dumps({"saml": _saml("\n" + _lines(X5C, ""))})
    assert th.redact(text) == text


# 4. Headers that carry a request's or a trace's id
ID_HEADERS = [
    "cf-ray: 8e1c2a3b4c5d6e7f-SJC",
    "CF-RAY: 8e1c2a3b4c5d6e7f-SJC",
    "x-amz-id-2: 5vX0c7mQ2kR9pL1sT8wY3nB6hJ4fG0dA+zE7uI2oP9qW5eR1tY8uI3oP6aS4dF2gH0jK=",
    "x-amz-request-id: 4B7C9D2E1F3A5B6C",
    "x-request-id: 7f3a9c2e-1b4d-4e8f-9a6c-2d5e7f1a3b9c",
    "x-correlation-id: a8f3k2m9q4w7e1r6t5y0",
    "traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    "x-cloud-trace-context: 105445aa7843bc8bf206b12000100000/1;o=1",
    "X-B3-TraceId: 80f198ee56343ba864fe8b2a57d3eff7",
    "x-b3-spanid: e457b5a2e4d86bd1",
]


@pytest.mark.parametrize("text", ID_HEADERS)
def test_an_id_header_stays(text: str) -> None:
    _kept(text)
    block = "HTTP/1.1 200 OK\ncontent-type: application/json\n" + text + "\n"
    _kept(block, line=False)


@pytest.mark.parametrize("header", ID_HEADERS)
def test_a_secret_beside_an_id_header_goes(header: str) -> None:
    _gone(f"{header}\nauthorization: Bearer {SECRET}")
    _gone(f"{header}\nx-api-key: {SECRET}")


@pytest.mark.parametrize(
    "text",
    [
        "x-amz-id-2: ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
        f"cf-ray: {SECRET}_secret_{SECRET}",
    ],
)
def test_a_provider_token_or_a_named_secret_under_an_id_header_goes(text: str) -> None:
    out = th.redact(text)
    assert "[redacted:" in out and SECRET not in out and "a1B2c3D4e5F6" not in out


# 5. A page's slug in a public URL
SLUGS = [
    "https://www.notion.so/acme/Roadmap-9f86d081884c7d659a2feaa0c55ad015",
    "https://acme.notion.site/Q4-Planning-Notes-9f86d081884c7d659a2feaa0c55ad015",
    "https://www.notion.so/acme/Roadmap-9f86d081884c7d659a2feaa0c55ad015?pvs=4",
    "See https://www.notion.so/Onboarding-Guide-2b7e151628aed2a6abf7158809cf4f3c for the steps.",
]


@pytest.mark.parametrize("text", SLUGS)
def test_a_page_slug_stays(text: str) -> None:
    _kept(text)


@pytest.mark.parametrize(
    "text",
    [
        f"https://www.notion.so/acme/Roadmap-9f86d081884c7d659a2feaa0c55ad015?token={SECRET}",
        f"https://www.notion.so/acme/Roadmap-{SECRET}{SECRET}",
        f"https://hooks.example.com/a/secret-{SECRET}",
    ],
)
def test_a_secret_in_or_beside_a_page_url_goes(text: str) -> None:
    _gone(text)


def test_words_naming_a_secret_before_the_hex_are_no_slug() -> None:
    text = "https://x.example.com/a/token-9f86d081884c7d659a2feaa0c55ad015"
    assert "9f86d081884c7d659a2feaa0c55ad015" not in th.redact(text)


@pytest.mark.parametrize("label", ["password", "client_secret", "private_key"])
def test_a_bare_certificate_under_a_secret_label_goes(label: str) -> None:
    assert X5C[:40] not in th.redact(f"{label}: {X5C}")
    assert X5C[:40] not in th.redact(json.dumps({label: X5C}))
