"""(fix21a) Keys written in shapes no label pattern reads whole:

- a Solana keypair (``~/.config/solana/id.json``, ``Keypair.fromSecretKey([…])``): a
  JSON array of 64 bytes, the secret key and its public half, with no key before it. An
  array of 64 numbers, each at most 255 and at least 32 of them different (random bytes:
  about 56), goes whole; its brackets stay.
- a TOTP setup key written spaced, in lowercase or uppercase groups of four (``jbsw y3dp
  ehpk 3pxp``, as authenticator set-up pages print it) after a key's, a secret's or a
  seed's word and a colon or "is", or a word or two and a colon (``Secret key: …``,
  ``TOTP setup key: …``, "Enter this setup key instead:" then the key's line): every
  group goes, not the first alone. A group of letters alone holds no base32 digit: a run
  without any (``have been with them``) is words."""

from __future__ import annotations

import re

from toolhygiene._positional import SPAN

__all__ = ["BYTE_NEEDLES", "SPACED_NEEDLES", "byte_keys", "spaced_keys"]

BYTE_NEEDLES = tuple(f"[{digit}" for digit in "0123456789")
_BYTES = re.compile(
    r"\[(?P<secret>[0-9]{1,3}(?:[ \t]{0,3},[ \t]{0,3}[0-9]{1,3}){63})[ \t]{0,3},?[ \t]{0,3}\]"
)
_DIFFERENT = 32


def byte_keys(text: str) -> list[re.Match[str]]:
    """``SPAN`` matches over the numbers of each array of 64 bytes shaped as a key."""
    found: list[re.Match[str]] = []
    for m in _BYTES.finditer(text):
        numbers = [int(n) for n in m.group("secret").replace(" ", "").split(",")]
        if max(numbers) <= 255 and len(set(numbers)) >= _DIFFERENT:
            span = SPAN.match(text, *m.span("secret"))
            if span is not None and span.end() == m.end("secret"):
                found.append(span)
    return found


SPACED_NEEDLES = ("key", "secret", "seed")
_WORD = re.compile(r"key|secret|seed", re.IGNORECASE)
_GROUPS = re.compile(
    r"s?(?:[ \t]{0,3}(?:[:=\uff1a]|is(?=[ \t]))"
    r"|(?:[ \t]{1,3}[A-Za-z]{2,12}){1,2}[ \t]{0,3}[:\uff1a])?"
    r"[ \t]{0,3}(?:\r?\n[ \t]{0,8})?"
    r"(?P<secret>[a-z2-7]{4}(?:[ \t][a-z2-7]{4}){3,15}|[A-Z2-7]{4}(?:[ \t][A-Z2-7]{4}){3,15})"
    r"(?![\w\-])"
)
_BASE32_DIGIT = re.compile(r"[2-7]")


def spaced_keys(text: str) -> list[re.Match[str]]:
    """``SPAN`` matches over each spaced base32 key after a key's, a secret's or a seed's
    word."""
    found: list[re.Match[str]] = []
    reach = 0
    for word in _WORD.finditer(text):
        if word.start() < reach:
            continue
        m = _GROUPS.match(text, word.end())
        if m is None or _BASE32_DIGIT.search(m.group("secret")) is None:
            continue
        span = SPAN.match(text, *m.span("secret"))
        if span is not None and span.end() == m.end("secret"):
            found.append(span)
            reach = m.end()
    return found
