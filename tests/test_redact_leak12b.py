"""Leak families left open after session 7 (leak12b): a password fed on stdin by a
here-string or here-document, an Authorization header written without its colon, a
short value wrapped onto a short next line, a secret glued to or hidden in a picture's
base64; and the over-redaction of a pagination cursor named in prose. Each family in
every carrier, through ``th.redact``, ``Session.call`` and ``Session.handle``."""

from __future__ import annotations

import base64
import random
import string
import struct
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from corpus import every_door as _every_door
from helpers import examples, issued_tokens, passwords

_ALNUM = string.ascii_letters + string.digits
HEADS = passwords()
TOKENS = issued_tokens()


# -- 1. a password fed on stdin: here-strings and here-documents ------------------------

LOGINS = [
    "docker login registry.example.com -u ci --password-stdin",
    "podman login quay.io --username bot --password-stdin",
    "helm registry login ghcr.io --username bob --password-stdin",
    "gh auth login --with-token",
    "oras login reg.example.com -u ci --password-stdin",
]
STDIN = [
    "{c} <<< {v}",
    "{c} <<<{v}",
    "{c} <<< '{v}'",
    '{c} <<<"{v}"',
    "{c}<<<{v} && echo ok",
    "{c} <<< {v} ; docker push app",
    "cat <<< {v} | {c}",
    "{c} <<EOF\n{v}\nEOF",
    "{c} <<'EOF'\n{v}\nEOF",
    "{c} <<-END\n\t{v}\n\tEND",
    "echo {v} | {c}",
]


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(STDIN), st.sampled_from(LOGINS), HEADS)
def test_a_password_fed_on_stdin_goes(shape: str, login: str, value: str) -> None:
    text = shape.format(c=login, v=value)
    assert value not in th.redact(text), text


def test_a_here_string_password_goes_through_every_door() -> None:
    _every_door("docker login -u ci --password-stdin <<< Qx7pLm2RvN", "Qx7pLm2RvN")


@pytest.mark.parametrize(
    "line",
    [
        'docker login -u ci --password-stdin <<< "$REGISTRY_PASSWORD"',
        "docker login --password-stdin <<< $(cat ~/.pw)",
        'gh auth login --with-token <<< "${{ secrets.GH_TOKEN }}"',
        "docker login --password-stdin <<EOF\n$PW\nEOF",
        "grep -c error <<< done",
        "wc -w <<< 'three little words'",
    ],
)
def test_stdin_without_a_password_stays(line: str) -> None:
    assert th.redact(line) == line


# -- 2. an Authorization header without its colon ----------------------------------------

NAMES = st.sampled_from(
    ["Authorization", "AUTHORIZATION", "authorization", "Proxy-Authorization", "AuthoriSation"]
)
SPACES = st.sampled_from([" ", "\t", "  ", " \t"])
SCHEMED = [
    "{s}",
    "Bearer {s}",
    "bearer {s}",
    "BASIC {s}",
    "Token {s}",
    "SSWS {s}",
    "Klaviyo-API-Key {s}",
    "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/s3/aws4_request, Signature={s}",
    'Digest username="bob", realm="api", response="{s}"',
    "DPoP {s}",
    "Negotiate {s}",
]


@settings(max_examples=examples(400), deadline=None)
@given(NAMES, SPACES, st.sampled_from(SCHEMED), TOKENS)
def test_an_authorization_header_without_a_colon_goes(
    name: str, space: str, shape: str, secret: str
) -> None:
    text = f"{name}{space}{shape.format(s=secret)}"
    out = th.redact(text)
    assert secret not in out, (text, out)
    assert out.startswith(name), out


@settings(max_examples=examples(100), deadline=None)
@given(NAMES, HEADS)
def test_a_short_authorization_value_goes(name: str, secret: str) -> None:
    """``AUTHORIZATION Qx7pLm2R``: a token after the header name, whatever its length."""
    assert secret not in th.redact(f"{name} {secret}")


def test_an_authorization_without_a_colon_goes_through_every_door() -> None:
    _every_door("AUTHORIZATION Digest username=bob, response=6629fae49393a05397", "6629fae49393a05397")
    _every_door("authorization Zq8Lm2Xw9Tk", "Zq8Lm2Xw9Tk")


@pytest.mark.parametrize(
    "sentence",
    [
        "Authorization failed for user bob",
        "authorization required",
        "AUTHORIZATION ERROR 401",
        "Authorization header missing",
        "authorization is required",
        "Authorization Bearer token missing",
        "Authorization Basic authentication failed",
        "authorization server unavailable, retry in 30s",
        "Authorization Code flow started",
        "the authorization was revoked",
        "authorization 401",
    ],
)
def test_prose_about_authorization_stays(sentence: str) -> None:
    assert th.redact(sentence) == sentence


# -- 3. a short value wrapped onto a short next line -------------------------------------

LABELS = st.sampled_from(["password", "PASSWORD", "db_password", "secret", "api_key", "token"])
# The rest of a token that a wrap left on the next line: not a word, an identifier, a
# number or a unit, but characters of two kinds or more (base64 and its padding, symbols).
# (``=`` only as base64's padding: ``AA=A`` reads as a key and its value.)
RESTS = st.builds(
    lambda letters, other, tail, pad: letters + other + tail + pad,
    st.text(string.ascii_letters, min_size=2, max_size=6),
    st.text("+/@#$%^&*~", max_size=3),
    st.text(string.ascii_letters, max_size=3),
    st.sampled_from(["", "=", "=="]),
).filter(lambda rest: not rest.isalpha())


@settings(max_examples=examples(300), deadline=None)
@given(
    LABELS,
    st.sampled_from([": ", "=", " = "]),
    st.text(_ALNUM, min_size=3, max_size=7).filter(lambda v: any(c.isdigit() for c in v)),
    st.sampled_from(["\n", "\r\n", "\n  ", "\\n"]),
    RESTS,
)
def test_a_short_value_wrapped_onto_a_short_line_goes(
    label: str, sep: str, first: str, wrap: str, rest: str
) -> None:
    text = f"{label}{sep}{first}{wrap}{rest}"
    out = th.redact(text)
    assert first not in out and rest not in out, (text, out)


def test_a_short_wrapped_value_goes_through_every_door() -> None:
    """A wrap leaves the rest of the value alone on its line (what follows on that line
    would make it the line's own text: docs/redaction.md's rule for every wrapped value)."""
    _every_door("password: abc123\nQUJDZA==", "QUJDZA", ends_line=True)


@pytest.mark.parametrize(
    "rest",
    ["----", "=====", "42ms", "3.5s", "100%", "[INFO]", "(none)", "#1234", "Done.", "v1.2.3", "OK!!", "**bold**"],
)
def test_a_short_value_keeps_the_next_line_of_its_own(rest: str) -> None:
    out = th.redact(f"password: abc123\n{rest}")
    assert out == f"password: [redacted:secret]\n{rest}", out


# -- 4. a secret glued to or hidden in a picture's base64 --------------------------------


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _png(rng: random.Random) -> bytes:
    width, height = rng.randint(1, 24), rng.randint(1, 24)
    rows = b"".join(b"\x00" + rng.randbytes(width * 3) for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows))
        + _chunk(b"IEND", b"")
    )


def _sub_blocks(data: bytes) -> bytes:
    out = b"".join(bytes([len(data[i : i + 255])]) + data[i : i + 255] for i in range(0, len(data), 255))
    return out + b"\x00"


def _gif(rng: random.Random) -> bytes:
    width, height = rng.randint(1, 64), rng.randint(1, 64)
    palette = rng.randbytes(3 * 4)
    return (
        b"GIF89a"
        + struct.pack("<HHBBB", width, height, 0x81, 0, 0)
        + palette
        + b"\x21\xf9\x04\x00\x00\x00\x00\x00"  # a graphic control extension
        + b"\x2c"
        + struct.pack("<HHHHB", 0, 0, width, height, 0)
        + b"\x02"
        + _sub_blocks(rng.randbytes(rng.randint(10, 600)))
        + b"\x3b"
    )


def _segment(marker: int, data: bytes) -> bytes:
    return bytes([0xFF, marker]) + struct.pack(">H", len(data) + 2) + data


def _jpeg(rng: random.Random) -> bytes:
    scan = rng.randbytes(rng.randint(50, 900)).replace(b"\xff", b"\xff\x00")
    return (
        b"\xff\xd8"
        + _segment(0xE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
        + _segment(0xDB, b"\x00" + rng.randbytes(64))
        + _segment(0xC0, b"\x08\x00\x10\x00\x10\x01\x01\x11\x00")
        + _segment(0xDA, b"\x01\x01\x00\x00\x3f\x00")
        + scan
        + b"\xff\xd9"
    )


def _webp(rng: random.Random) -> bytes:
    data = rng.randbytes(rng.randint(20, 400))
    chunk = b"VP8L" + struct.pack("<I", len(data)) + data + (b"\x00" if len(data) % 2 else b"")
    return b"RIFF" + struct.pack("<I", 4 + len(chunk)) + b"WEBP" + chunk


PICTURES = {"png": _png, "gif": _gif, "jpeg": _jpeg, "webp": _webp}
CARRIED = ["{}", '{{"image": "{}"}}', "image data: {}", "![shot](data:image/png;base64,{})"]


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(sorted(PICTURES)), st.integers(0, 2**32), st.sampled_from(CARRIED))
def test_a_genuine_picture_stays_whole(kind: str, seed: int, shape: str) -> None:
    text = shape.format(base64.b64encode(PICTURES[kind](random.Random(seed))).decode())
    assert th.redact(text) == text


_BASE64_CHARS = frozenset(string.ascii_letters + string.digits + "+/")
SECRETS = [
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "AKIAIOSFODNN7EXAMPLE",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY",
    "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "Q7vX2mK9pL4wR8tZ6nB3cY5hJ1dF0gSx",
]


@settings(max_examples=examples(300), deadline=None)
@given(
    st.sampled_from(sorted(PICTURES)),
    st.integers(0, 2**32),
    st.sampled_from(SECRETS),
    st.sampled_from(["inside", "after", "after padding", "before"]),
    st.sampled_from(CARRIED),
)
def test_a_secret_in_or_glued_to_a_picture_goes(
    kind: str, seed: int, secret: str, where: str, shape: str
) -> None:
    rng = random.Random(seed)
    body = base64.b64encode(PICTURES[kind](rng)).decode()
    if where == "inside":
        at = rng.randrange(16, len(body) - 8)
        if kind in ("jpeg", "gif") and len(secret) % 4 == 0 and set(secret) <= _BASE64_CHARS:
            # docs/redaction.md's known gaps: JPEG's compressed data and GIF's sub-blocks have
            # no checksum, so whole groups of base64 inserted there may keep the file
            # whole (a JPEG unless they hold an 0xFF byte; a GIF when the shifted
            # lengths lead to the trailer). One character more, and the run is no base64.
            secret += "Q"
        body = body[:at] + secret + body[at:]
    elif where == "after":
        body = body.rstrip("=") + secret
    elif where == "after padding":
        body = body + secret
    else:
        body = secret + body
    text = shape.format(body)
    out = th.redact(text)
    assert secret not in out and secret[:16] not in out, (text, out)


@settings(max_examples=examples(100), deadline=None)
@given(st.sampled_from(sorted(PICTURES)), st.integers(0, 2**32), HEADS)
def test_a_labelled_secret_glued_to_a_picture_goes(kind: str, seed: int, value: str) -> None:
    body = base64.b64encode(PICTURES[kind](random.Random(seed))).decode()
    text = f"{body}password={value}"
    out = th.redact(text)
    assert value not in out, (text, out)


def test_a_picture_cut_short_goes_whole() -> None:
    """A picture cut short (by a cap, or by hand) cannot be told from one with a secret
    in its last part: it is not sheltered."""
    body = base64.b64encode(_png(random.Random(3))).decode()
    assert th.redact(body[:-24]) == "[redacted:high-entropy]"


def test_a_secret_in_a_picture_goes_through_every_door() -> None:
    body = base64.b64encode(_png(random.Random(7))).decode()
    secret = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
    _every_door(body[:40] + secret + body[40:], secret[8:])


# -- 5. a pagination cursor named in prose ------------------------------------------------

HEX32 = st.text("0123456789abcdef", min_size=32, max_size=32).filter(lambda v: len(set(v)) > 6)
CURSOR = st.builds(
    lambda seed: base64.urlsafe_b64encode(random.Random(seed).randbytes(24)).decode().rstrip("="),
    st.integers(0, 2**32),
).filter(lambda v: "-" not in v[:1])
PAGING = [
    "Use token {v} for the next page",
    "use token {v} to fetch the next page.",
    "pass cursor {v} to continue",
    "More results: pass cursor {v}.",
    "next page: token={v}",
    "For more results, call again with page token {v}",
    "next page token: {v}",
    "to continue listing, use the continuation token {v}",
    "Showing 50 of 312 orders. Next page: cursor {v}",
]


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(PAGING), st.one_of(HEX32, CURSOR))
def test_a_cursor_in_prose_stays(sentence: str, value: str) -> None:
    text = sentence.format(v=value)
    assert th.redact(text) == text


def test_a_cursor_in_prose_reaches_the_model_from_a_result() -> None:
    text = "Showing 50 of 312 orders. Use token 3f2a7d719b8c4e5fa0123456789abcde for the next page"

    @th.tool
    def list_orders(page: str) -> str:
        return text

    assert th.Session([list_orders]).call("list_orders", {"page": "1"}).content == text


@pytest.mark.parametrize(
    "sentence",
    [
        "the token was {v}",
        "use token {v} to authenticate",
        "Bearer {v}",
        "token={v}",
        "session token {v}; next page",
    ],
)
@pytest.mark.parametrize("value", ["sk_live_4eC39HqLyjWDarjtT1zdp7dc", "3f2a7d719b8c4e5fa0123456789abcde"])
def test_a_token_outside_paging_still_goes(sentence: str, value: str) -> None:
    text = sentence.format(v=value)
    assert value not in th.redact(text), text


@pytest.mark.parametrize("sentence", PAGING)
def test_a_provider_key_named_as_a_cursor_still_goes(sentence: str) -> None:
    value = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
    assert value not in th.redact(sentence.format(v=value))


@pytest.mark.parametrize(
    "shape",
    ['{{"nextPageToken": "{v}"}}', '{{"cursor": "{v}"}}', "cursor: {v}", '{{"NextToken": "{v}"}}'],
)
@pytest.mark.parametrize(
    "value", ["sk_live_4eC39HqLyjWDarjtT1zdp7dc", "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"]
)
def test_a_provider_key_under_a_cursor_key_still_goes(shape: str, value: str) -> None:
    """docs/redaction.md's promise for cursor keys: a provider's format inside one still goes
    (on main a quoted value under ``nextPageToken`` or ``cursor`` was skipped whole)."""
    assert value not in th.redact(shape.format(v=value))


def _pdf(text: str) -> bytes:
    """A one-page PDF whose content stream draws ``text``, with a true cross-reference."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 5\n0000000000 65535 f \n"
    out += b"".join(b"%010d 00000 n \n" % at for at in offsets)
    return out + b"trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref


def test_a_genuine_pdf_stays_and_one_with_a_secret_glued_goes() -> None:
    body = base64.b64encode(_pdf("Quarterly report")).decode()
    assert th.redact(f"file: {body}") == f"file: {body}"
    secret = "AKIAIOSFODNN7EXAMPLE"
    for glued in (body + secret, body[:40] + secret + body[40:], secret + body):
        assert secret not in th.redact(f"file: {glued}"), glued
