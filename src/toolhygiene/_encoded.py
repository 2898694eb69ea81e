"""Provider credentials written in hex or base64: a run whose bytes hold one.

A known provider's token (``sk_live_…``, ``ghp_…``, ``AKIA…``) hex-encoded is a run of
hex digits, which redaction keeps as a digest or an id when no label names it; base64-
encoded, it reads as random and went as such, but unnamed and without its padding. A
run of hex digits or of base64 is decoded (one pass, in proportion to its length) and
the token layer's provider formats are looked for in its bytes: a run that holds one is
a secret whole. The detectors are gated by each provider prefix of four characters or
more written in hex, and in base64 at each of the three places a prefix can start in a
group of three bytes, so a text without any of them is not read at all.
"""

from __future__ import annotations

import base64
import binascii
import re

from toolhygiene import _tokens
from toolhygiene._labels import is_secret_label, plausible_value
from toolhygiene._positional import SPAN
from toolhygiene._providers import FAMILIES

__all__ = [
    "BASE64_NEEDLES",
    "HEX_LABEL_NEEDLES",
    "HEX_NEEDLES",
    "in_base64",
    "in_hex",
    "in_hex_labelled",
]

_PREFIXES = sorted({p.encode() for _, prefixes, _ in FAMILIES for p in prefixes if len(p) >= 4})
HEX_NEEDLES = tuple(p.hex() for p in _PREFIXES)


def _base64_needles(prefix: bytes) -> list[str]:
    """The base64 characters that ``prefix``'s bytes alone decide, at each place it can
    start in a group of three bytes (lowercase: the needles are matched so)."""
    needles = []
    for shift in range(3):
        written = base64.b64encode(b"\0" * shift + prefix + b"\0\0").decode()
        first = -(-8 * shift // 6)  # the first character made of the prefix's bits only
        last = 8 * (shift + len(prefix)) // 6  # the first one past them
        if last - first >= 4:
            needles.append(written[first:last].lower())
    return needles


BASE64_NEEDLES = tuple(sorted({n for p in _PREFIXES for n in _base64_needles(p)}))

_HEX_RUN = re.compile(r"(?<![0-9A-Za-z])[0-9a-fA-F]{16,8192}(?![0-9A-Za-z])")
_BASE64_RUN = re.compile(
    r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{16,8192}={0,2}(?![A-Za-z0-9+/=_\-])"
)


def _holds_token(data: bytes) -> bool:
    """Whether ``data``, read a byte a character, holds a provider's token."""
    spans: list[_tokens.Span] = []
    _tokens.find(data.decode("latin-1"), spans)
    return any(span[3] >= _tokens.GLUED_RANK and span[2] != "high-entropy" for span in spans)


def in_hex(text: str) -> list[re.Match[str]]:
    """A match of ``SPAN`` over each run of hex digits whose bytes hold a token."""
    found = []
    for m in _HEX_RUN.finditer(text):
        run = m.group()
        if len(run) % 2 == 0 and _holds_token(bytes.fromhex(run)):
            found.append(SPAN.match(text, *m.span()))
    return [m for m in found if m is not None]


# The first bytes of a secret's label, in hex (lowercase: the needles are matched so),
# as written in lower, title and upper case: ``pass``, ``secr``, ``toke``, ``apik``,
# ``api_``, ``api-``, ``auth``, ``cred``.
HEX_LABEL_NEEDLES = tuple(
    sorted(
        {
            variant.encode().hex()
            for word in ("pass", "secr", "toke", "apik", "api_", "api-", "auth", "cred")
            for variant in (word, word.title(), word.upper())
        }
    )
)
# A label and its value in decoded text: ``password=v``, ``"token": "v"``.
_DECODED_LABEL = re.compile(
    r"(?<![A-Za-z0-9])([A-Za-z][\w\-]{0,79})[\"']?[ \t]{0,3}[=:][ \t]{0,3}[\"']?"
    r"([^\s\"'<>`&;,]{1,1024})"
)


def in_hex_labelled(text: str) -> list[re.Match[str]]:
    """A match of ``SPAN`` over each run of hex digits whose bytes are printable ASCII
    holding a secret's label and a value it would take (``70617373776f72643d…`` is
    ``password=…``): one decode of each run, in proportion to its length."""
    found = []
    for m in _HEX_RUN.finditer(text):
        run = m.group()
        if len(run) % 2 or len(run) < 20:
            continue
        decoded = bytes.fromhex(run).decode("latin-1")
        if not decoded.isascii() or not decoded.isprintable():
            continue
        for inner in _DECODED_LABEL.finditer(decoded):
            if is_secret_label(inner[1]) is True and plausible_value(inner[2], prose_allowed=False):
                found.append(SPAN.match(text, *m.span()))
                break
    return [m for m in found if m is not None]


def in_base64(text: str) -> list[re.Match[str]]:
    """A match of ``SPAN`` over each run of base64 (standard or URL-safe, padded or
    not) whose bytes hold a token."""
    found = []
    for m in _BASE64_RUN.finditer(text):
        run = m.group().rstrip("=")
        if len(run) % 4 == 1:
            continue
        try:
            data = base64.b64decode(run + "=" * (-len(run) % 4), altchars=b"-_")
        except binascii.Error:
            continue
        if _holds_token(data):
            found.append(SPAN.match(text, *m.span()))
    return [m for m in found if m is not None]
