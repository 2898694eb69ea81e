"""Public identifiers that read as random: the token layer (``_tokens``) leaves them.

Each is kept only where its format is certain, read from the whole value:

- a key published to browsers by design: Stripe's publishable key (``pk_test_…``,
  ``pk_live_…``), Square's application id (``sq0idp-…``, ``sandbox-sq0idb-…``) and a
  Mapbox public token (``pk.eyJ…``, whose payload is JSON naming its user ``u``);
- a Google Docs, Sheets, Slides, Forms, Drawings or Drive file's or folder's id, in its
  URL (``docs.google.com/document/d/<id>/edit``, ``drive.google.com/file/d/<id>/view``):
  it names a document, whose sharing settings decide who may open it;
- a cryptocurrency address or public key whose checksum holds: Bech32 and Bech32m
  (``bc1…``, ``tb1…``; a Nostr ``npub1…``), Base58Check (``1…``, ``3…``, an extended
  public key ``xpub…``/``tpub…``: a double SHA-256 of 4 bytes), an Ethereum address in
  EIP-55's mixed case (Keccak-256 of its hex, written here: the standard library has
  SHA-3, whose padding differs; the first ``ETH_BUDGET`` of a text). An all-lowercase
  Ethereum address is hex, which the token layer already keeps; a Solana address has
  no checksum and is not kept;
- an IPFS content id: CIDv0 (``Qm`` and 44 Base58 characters: a SHA-256 multihash) and
  CIDv1 in base32 (``bafy…``, ``bafk…``): version 1, a known codec, a SHA-256 multihash
  of its full length.

A checksum holds for a random or altered run one time in four billion (Base58Check)
or a billion (Bech32); a CIDv0 has no checksum, only its prefix and length.
"""

from __future__ import annotations

import base64
import binascii
import json
import re

from toolhygiene._keyformats import bech32_polymod

__all__ = ["public_spans", "may_hold_identifier"]

_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B58_AT = {c: i for i, c in enumerate(_B58)}
_EDGE = r"(?<![A-Za-z0-9_\-])"
_END = r"(?![A-Za-z0-9_\-])"
_IDENTIFIER = re.compile(
    _EDGE + r"(?:(?P<stripe>pk_(?:test|live)_[A-Za-z0-9]{24,247})"
    r"|(?P<square>(?:sandbox-)?sq0id[pb]-[A-Za-z0-9_\-]{22})"
    r"|(?P<mapbox>pk\.(?P<payload>eyJ[A-Za-z0-9_\-]{8,1024})\.[A-Za-z0-9_\-]{8,128})"
    r"|(?P<bech32>(?:bc|tb|npub)1[02-9ac-hj-np-z]{6,90})"
    r"|(?P<base58>(?:[13]|[xt]pub)[1-9A-HJ-NP-Za-km-z]{25,107})"
    r"|(?P<eth>0x[0-9a-fA-F]{40})"
    r"|(?P<cid0>Qm[1-9A-HJ-NP-Za-km-z]{44})"
    r"|(?P<cid1>baf[a-z2-7]{56,120})"
    r"|(?:docs|drive)\.google\.com/(?:(?:document|spreadsheets|presentation|forms|drawings"
    r"|file)/(?:u/[0-9]{1,2}/)?d/(?:e/)?|drive/(?:u/[0-9]{1,2}/)?folders/)"
    r"(?P<google>[A-Za-z0-9_\-]{20,100}))" + _END
)
_NEEDLES = (
    "pk_",
    "pk.eyJ",
    "sq0id",
    "bc1",
    "tb1",
    "npub1",
    "pub",
    "0x",
    "Qm",
    "baf",
    "google.com/",
)


def may_hold_identifier(run: str) -> bool:
    """Whether ``run`` may hold one of these identifiers (a few scans in C), or a
    Base58Check address (``1…``, ``3…``: read when the run starts with one)."""
    return run[:1] in "13" or any(needle in run for needle in _NEEDLES)


def public_spans(text: str, begin: int, end: int) -> list[tuple[int, int]]:
    """Where ``text[begin:end]`` (a run of token characters) holds a public identifier
    whose format is certain (ascending)."""
    spans = []
    for m in _IDENTIFIER.finditer(text, begin, end):
        kind = m.lastgroup if m.lastgroup != "payload" else "mapbox"
        if kind == "google":
            spans.append(m.span("google"))
        elif kind is not None and _CHECKS[kind](m.group(kind), m):
            spans.append(m.span())
    return spans


def _yes(value: str, m: re.Match[str]) -> bool:
    return True


def _mapbox(value: str, m: re.Match[str]) -> bool:
    payload = m.group("payload")
    try:
        data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (ValueError, binascii.Error):
        return False
    return isinstance(data, dict) and isinstance(data.get("u"), str)


def _bech32(value: str, m: re.Match[str]) -> bool:
    """Bech32 (BIP 173) or Bech32m (BIP 350) whose checksum holds: a segwit address of
    version 0 in Bech32 and of 1 to 16 in Bech32m, or a Nostr public key (32 bytes)."""
    hrp, _, data = value.rpartition("1")
    values = [_BECH32_AT[c] for c in data]
    expanded = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    check = bech32_polymod(expanded + values)
    if hrp == "npub":
        return check == 1 and len(data) == 58
    if not values or len(data) < 14 or values[0] > 16:
        return False
    return check == (1 if values[0] == 0 else 0x2BC830A3)


_BECH32_AT = {c: i for i, c in enumerate("qpzry9x8gf2tvdw0s3jn54khce6mua7l")}


def _base58(value: str, m: re.Match[str]) -> bool:
    """Base58Check whose checksum holds: a Bitcoin address (version 0 or 5, 20 bytes)
    or an extended public key (``xpub``/``tpub``: 78 bytes)."""
    number = 0
    for c in value:
        number = number * 58 + _B58_AT[c]
    zeros = len(value) - len(value.lstrip("1"))
    raw = b"\0" * zeros + number.to_bytes((number.bit_length() + 7) // 8, "big")
    body, check = raw[:-4], raw[-4:]
    import hashlib  # (only here: importing toolhygiene loads no hashlib)

    if hashlib.sha256(hashlib.sha256(body).digest()).digest()[:4] != check:
        return False
    if value[1:4] == "pub":
        return len(body) == 78 and body[:4] in (b"\x04\x88\xb2\x1e", b"\x04\x35\x87\xcf")
    return len(body) == 21 and body[0] in (0, 5)


def _eth(value: str, m: re.Match[str]) -> bool:
    """An Ethereum address in EIP-55's mixed case: each letter upper case where the
    Keccak-256 of the lowercase hex has a nibble of 8 or more. One of each case at
    least (all lowercase is hex the token layer keeps; all upper case says nothing)."""
    global _CHECKED
    hexa = value[2:]
    if hexa.lower() == hexa or hexa.upper() == hexa:
        return False
    checked = _CHECKED
    if checked[0] is not m.string:  # a new text: a new budget
        checked = _CHECKED = (m.string, [0])
    if checked[1][0] >= ETH_BUDGET:
        return False  # (goes, as before: Keccak in Python costs ~0.1-1 ms an address)
    checked[1][0] += 1
    digest = keccak256(hexa.lower().encode()).hex()
    return all(
        c.isdigit() or (c.isupper() == (int(d, 16) >= 8))
        for c, d in zip(hexa, digest[:40], strict=True)
    )


ETH_BUDGET = 32
"""The mixed-case Ethereum addresses checked in one text, at most: the others go as any
random run does (a text of thousands would cost seconds)."""
_CHECKED: tuple[str, list[int]] = ("", [0])
"""The text whose addresses are being checked and how many were (a tuple: read and
replaced whole)."""


def _cid0(value: str, m: re.Match[str]) -> bool:
    number = 0
    for c in value:
        number = number * 58 + _B58_AT[c]
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    return len(raw) == 34 and raw[:2] == b"\x12\x20"


# The codecs of a CIDv1 (multicodec): raw, dag-pb, dag-cbor, libp2p-key, dag-json.
_CODECS = frozenset([0x55, 0x70, 0x71, 0x72, 0x0129])


def _cid1(value: str, m: re.Match[str]) -> bool:
    body = value[1:].upper()
    try:
        raw = base64.b32decode(body + "=" * (-len(body) % 8))
    except (ValueError, binascii.Error):
        return False
    if raw[:1] != b"\x01":
        return False
    codec, at = raw[1], 2
    if codec & 0x80:  # a varint of two bytes (dag-json, 0x0129)
        codec, at = (codec & 0x7F) | raw[2] << 7, 3
    return codec in _CODECS and raw[at : at + 2] == b"\x12\x20" and len(raw) == at + 34


_CHECKS = {
    "stripe": _yes,
    "square": _yes,
    "mapbox": _mapbox,
    "bech32": _bech32,
    "base58": _base58,
    "eth": _eth,
    "cid0": _cid0,
    "cid1": _cid1,
}


# Keccak-256 (the original padding, as Ethereum uses it; ``hashlib.sha3_256`` pads as
# FIPS 202 does and gives another digest). Only ever run on 40 bytes, one block.
_ROUND_CONSTANTS = (
    0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
    0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
    0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
)  # fmt: skip
_MASK = (1 << 64) - 1
# The rho and pi steps, flattened (lane ``x + 5 * y``): where each lane moves and by how
# many bits it turns.
_RHO = (
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
)  # fmt: skip
_PI = tuple(y + 5 * ((2 * x + 3 * y) % 5) for y in range(5) for x in range(5))
_MOVES = tuple((i, _PI[i], _RHO[i]) for i in range(25))


def _keccak_f(a: list[int]) -> None:
    mask = _MASK
    moves = _MOVES
    for constant in _ROUND_CONSTANTS:
        c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20]
        c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21]
        c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22]
        c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23]
        c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24]
        d = (
            c4 ^ ((c1 << 1 | c1 >> 63) & mask),
            c0 ^ ((c2 << 1 | c2 >> 63) & mask),
            c1 ^ ((c3 << 1 | c3 >> 63) & mask),
            c2 ^ ((c4 << 1 | c4 >> 63) & mask),
            c3 ^ ((c0 << 1 | c0 >> 63) & mask),
        )
        b = [0] * 25
        for i, to, by in moves:
            v = a[i] ^ d[i % 5]
            b[to] = (v << by | v >> (64 - by)) & mask if by else v
        for y in range(0, 25, 5):
            b0, b1, b2, b3, b4 = b[y : y + 5]
            a[y] = b0 ^ (~b1 & b2)
            a[y + 1] = b1 ^ (~b2 & b3)
            a[y + 2] = b2 ^ (~b3 & b4)
            a[y + 3] = b3 ^ (~b4 & b0)
            a[y + 4] = b4 ^ (~b0 & b1)
        a[0] ^= constant


def keccak256(data: bytes) -> bytes:
    """Keccak-256 of ``data``."""
    rate = 136
    padded = bytearray(data) + b"\x01" + b"\0" * (-(len(data) + 1) % rate)
    padded[-1] |= 0x80
    lanes = [0] * 25
    for at in range(0, len(padded), rate):
        for i in range(rate // 8):
            lanes[i] ^= int.from_bytes(padded[at + 8 * i : at + 8 * i + 8], "little")
        _keccak_f(lanes)
    return b"".join(lanes[i].to_bytes(8, "little") for i in range(4))
