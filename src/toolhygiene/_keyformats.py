"""Whether bytes or text are public key material in formats other than PEM and SSH: the
structural checks behind ``_public``.

Each check reads the whole value and accepts only what the format says a public key is,
so a secret glued to one, put in its place or framed as one is read as any other text:

- an age recipient (``age1…``): Bech32 whose checksum holds (a random or altered run
  fails it but for one time in a billion);
- a WireGuard public key: 32 bytes, the top bit clear (a Curve25519 point's u). One in
  sixteen is shaped as a clamped private key (the three low bits of its first byte and
  the top bit of its last clear, the next one set, as ``wg genkey`` writes every private
  key); under a public key's label it is one all the same (``wg`` computes what it
  prints under ``peer:``, and a peer's key is what the model needs to tell peers apart).
  A private key pasted under the public label is the one case this keeps: the same key
  under ``PrivateKey`` anywhere in the text still goes, there and here (echo);
- an OpenPGP public key or signature (armored): packets that fill the body exactly,
  none a secret key's (tags 5 and 7), the armor's CRC-24 right when it is written;
- a JSON Web Key's public members (``x``, ``y`` of the curve's size, an RSA modulus of
  1024 bits or more and a short exponent, a certificate thumbprint of a hash's size,
  a key id that is the key's own thumbprint).
"""

from __future__ import annotations

import base64
import binascii
import functools
import json

__all__ = [
    "age_recipient",
    "bech32_polymod",
    "jwk_public_value",
    "openpgp_public",
    "openpgp_texts",
    "wireguard_public",
]

_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_BECH32_AT = {c: i for i, c in enumerate(_BECH32)}
_GENERATOR = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)


def _polymod(values: list[int]) -> int:
    check = 1
    for value in values:
        top = check >> 25
        check = (check & 0x1FFFFFF) << 5 ^ value
        for i, generator in enumerate(_GENERATOR):
            if (top >> i) & 1:
                check ^= generator
    return check


bech32_polymod = _polymod
"""Bech32's checksum (BIP 173) over the expanded human-readable part and the data."""


def age_recipient(text: str) -> bool:
    """Whether ``text`` is an age recipient: Bech32 (checksum included) whose
    human-readable part is ``age`` or a plugin's ``age1<name>``, holding 32 bytes for
    ``age`` itself."""
    hrp, sep, data = text.rpartition("1")
    if not sep or not hrp.startswith("age") or len(data) < 7 or text.lower() != text:
        return False
    if hrp != "age" and not (hrp.startswith("age1") and hrp[4:].isalnum()):
        return False
    values = [_BECH32_AT.get(c, -1) for c in data]
    if -1 in values:
        return False
    expanded = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    if _polymod(expanded + values) != 1:
        return False
    return hrp != "age" or len(data) == 58  # 32 bytes in 52 characters, then 6 of checksum


def wireguard_public(value: str) -> bool:
    """Whether ``value`` (base64, under a public key's label) is a WireGuard public key:
    32 bytes, the top bit clear."""
    try:
        data = base64.b64decode(value, validate=True)
    except binascii.Error:
        return False
    return len(data) == 32 and not data[31] & 0x80


# The packets of a transferable public key (RFC 9580 10.1): a public key, subkeys, user
# ids and attributes, signatures, trust; a detached signature's are signatures.
_KEY_TAGS = frozenset([2, 6, 12, 13, 14, 17])
_SIGNATURE_TAGS = frozenset([2])


@functools.cache
def _crc24_table() -> tuple[int, ...]:
    """OpenPGP's CRC-24 (RFC 4880 6.1) of each byte value, for a byte at a time."""
    table = []
    for byte in range(256):
        crc = byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
        table.append(crc & 0xFFFFFF)
    return tuple(table)


def _crc24(data: bytes) -> int:
    """OpenPGP's CRC-24 of ``data``, a byte at a time through a table (bit by bit it
    took 64 ms for a 48 KB key block)."""
    table, crc = _crc24_table(), 0xB704CE
    for byte in data:
        crc = ((crc << 8) & 0xFFFFFF) ^ table[(crc >> 16) ^ byte]
    return crc


def _packets(data: bytes) -> list[tuple[int, int, int]] | None:
    """The packets ``data`` is made of, exactly (each its tag, and where its body starts
    and ends); ``None`` when it is not whole packets (a partial or indeterminate length
    is refused)."""
    tags: list[tuple[int, int, int]] = []
    at = 0
    while at < len(data):
        head = data[at]
        if not head & 0x80:
            return None
        if head & 0x40:  # the new format
            tag = head & 0x3F
            if at + 1 >= len(data):
                return None
            first = data[at + 1]
            if first < 192:
                size, at = first, at + 2
            elif first < 224:
                if at + 2 >= len(data):
                    return None
                size, at = ((first - 192) << 8) + data[at + 2] + 192, at + 3
            elif first == 255:
                size, at = int.from_bytes(data[at + 2 : at + 6], "big"), at + 6
            else:
                return None
        else:
            tag, kind = (head >> 2) & 0x0F, head & 0x03
            if kind == 3:
                return None
            width = 1 << kind
            size = int.from_bytes(data[at + 1 : at + 1 + width], "big")
            at += 1 + width
        if at + size > len(data):
            return None
        tags.append((tag, at, at + size))
        at += size
    return tags


# The subpackets of a signature that hold text a person wrote: a notation (20), a policy
# URI (26), a preferred key server (24), the signer's user id (28), a reason for
# revocation (29).
_TEXT_SUBPACKETS = frozenset([20, 24, 26, 28, 29])


def _subpacket_texts(area: bytes) -> list[str]:
    texts: list[str] = []
    at = 0
    while at < len(area):
        first = area[at]
        if first < 192:
            size, at = first, at + 1
        elif first < 255:
            if at + 1 >= len(area):
                break
            size, at = ((first - 192) << 8) + area[at + 1] + 192, at + 2
        else:
            size, at = int.from_bytes(area[at + 1 : at + 5], "big"), at + 5
        if size < 1 or at + size > len(area):
            break
        kind, body = area[at] & 0x7F, area[at + 1 : at + size]
        if kind == 20 and len(body) >= 8:  # flags, name's and value's lengths, name, value
            named = int.from_bytes(body[4:6], "big")
            texts.append(body[8 : 8 + named].decode("utf-8", "replace"))
            texts.append(body[8 + named :].decode("utf-8", "replace"))
        elif kind in _TEXT_SUBPACKETS:
            texts.append(
                body[1:].decode("utf-8", "replace")
                if kind == 29
                else body.decode("utf-8", "replace")
            )
        at += size
    return texts


def openpgp_texts(body: str) -> list[str]:
    """What a person wrote inside an armored block (``body``: its base64, as
    ``openpgp_public`` reads it): its user ids, and its signatures' notations, policy
    URIs, key servers, signers' user ids and reasons for revocation (RFC 9580 5.2.3.7).
    Base64 hides them from a reader of the armor, not from a model that decodes it:
    they are judged as any text is. ``[]`` for a body that is no whole packets."""
    lines = body.split()
    if lines and lines[-1].startswith("=") and len(lines[-1]) == 5:
        lines.pop()
    try:
        data = base64.b64decode("".join(lines), validate=True)
    except binascii.Error:
        return []
    texts: list[str] = []
    for tag, start, end in _packets(data) or ():
        if tag == 13:  # a user id
            texts.append(data[start:end].decode("utf-8", "replace"))
        elif tag == 2 and end - start > 6 and data[start] in (4, 5, 6):
            version, at = data[start], start + 4
            width = 2 if version == 4 else 4
            for _ in range(2):  # the hashed area, then the unhashed one
                size = int.from_bytes(data[at : at + width], "big")
                texts.extend(_subpacket_texts(data[at + width : min(end, at + width + size)]))
                at += width + size
    return texts


def openpgp_public(kind: str, body: str) -> bool:
    """Whether ``body`` (an armor's base64, its checksum line ``=XXXX`` last when
    written) is a public key block (``kind`` ``PUBLIC KEY BLOCK``) or a signature."""
    lines = body.split()
    crc = None
    if lines and lines[-1].startswith("=") and len(lines[-1]) == 5:
        crc = lines.pop()[1:]
    try:
        data = base64.b64decode("".join(lines), validate=True)
        written = int.from_bytes(base64.b64decode(crc, validate=True), "big") if crc else None
    except binascii.Error:
        return False
    if written is not None and written != _crc24(data):
        return False
    packets = _packets(data)
    if not packets:
        return False
    tags = [tag for tag, _, _ in packets]
    if kind == "SIGNATURE":
        return _SIGNATURE_TAGS.issuperset(tags)
    return tags[0] == 6 and _KEY_TAGS.issuperset(tags)


# The size in bytes of a curve's coordinate (EC) or public key (OKP).
_CURVES = {
    ("EC", "P-256"): 32,
    ("EC", "secp256k1"): 32,
    ("EC", "P-384"): 48,
    ("EC", "P-521"): 66,
    ("OKP", "Ed25519"): 32,
    ("OKP", "X25519"): 32,
    ("OKP", "Ed448"): 57,
    ("OKP", "X448"): 56,
}
_THUMBPRINTS = {"x5t": 20, "x5t#S256": 32}
# The members a key's RFC 7638 thumbprint is computed over, by key type.
_REQUIRED = {"EC": ("crv", "kty", "x", "y"), "OKP": ("crv", "kty", "x"), "RSA": ("e", "kty", "n")}


def _thumbprint(members: dict[str, str]) -> str | None:
    names = _REQUIRED.get(members.get("kty", ""))
    if names is None or any(name not in members for name in names):
        return None
    import hashlib  # (here: importing the package loads no module it does not need)

    canonical = json.dumps({name: members[name] for name in names}, separators=(",", ":"))
    digest = hashlib.sha256(canonical.encode()).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _base64url(value: str) -> bytes | None:
    if len(value) % 4 == 1 or not value.isascii():
        return None
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None


# The short Weierstrass curves of EC keys: y^2 = x^3 + a*x + b (mod p).
_WEIERSTRASS = {
    "P-256": (
        2**256 - 2**224 + 2**192 + 2**96 - 1,
        -3,
        0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B,
    ),
    "P-384": (
        2**384 - 2**128 - 2**96 + 2**32 - 1,
        -3,
        0xB3312FA7E23EE7E4988E056BE3F82D19181D9C6EFE8141120314088F5013875AC656398D8A2ED19D2A85C8EDD3EC2AEF,
    ),
    "P-521": (
        2**521 - 1,
        -3,
        0x0051953EB9618E1C9A1F929A21A0B68540EEA2DA725B99B315F3B8B489918EF109E156193951EC7E937B1652C0BD3BB1BF073573DF883D2C34F1EF451FD46B503F00,
    ),
    "secp256k1": (2**256 - 2**32 - 977, 0, 7),
}
# Edwards curves of OKP signing keys: -x^2 + y^2 = 1 + d*x^2*y^2 (Ed25519) and
# x^2 + y^2 = 1 + d*x^2*y^2 (Ed448); the encoding is y, the sign of x in its top bit.
_ED25519_P = 2**255 - 19
_ED25519_D = (-121665 * pow(121666, -1, _ED25519_P)) % _ED25519_P
_ED448_P = 2**448 - 2**224 - 1
_ED448_D = -39081 % _ED448_P


def _on_weierstrass(curve: str, x: bytes, y: bytes) -> bool:
    p, a, b = _WEIERSTRASS[curve]
    u, v = int.from_bytes(x, "big"), int.from_bytes(y, "big")
    return u < p and v < p and (v * v - (u * u * u + a * u + b)) % p == 0


def _square(value: int, p: int) -> bool:
    """Whether ``value`` is a square modulo the prime ``p`` (Euler's criterion)."""
    value %= p
    return value == 0 or pow(value, (p - 1) // 2, p) == 1


def _on_edwards(crv: str, data: bytes) -> bool:
    """Whether ``data`` encodes a point of the Edwards curve ``crv`` (RFC 8032 5.1.3,
    5.2.3): ``y`` below ``p`` and ``x^2`` a square (an encoding of a random or chosen
    run passes one time in two: the check tells a key from text written in its place)."""
    if crv == "Ed25519":
        p, d = _ED25519_P, _ED25519_D
        y = int.from_bytes(data, "little") & ((1 << 255) - 1)
        u, v = y * y - 1, d * y * y + 1
    else:
        if data[-1] & 0x7F:
            return False
        p, d = _ED448_P, _ED448_D
        y = int.from_bytes(data[:-1], "little")
        u, v = y * y - 1, d * y * y - 1
    if y >= p or v % p == 0:
        return False
    return _square(u * pow(v, p - 2, p), p)


def jwk_public_value(members: dict[str, str], name: str) -> bool:
    """Whether the member ``name`` of a JSON Web Key (``members``: its string members)
    is public and has the size its key type says: the key's public part, its
    certificate's thumbprint. A private member (``d``, ``p``, ``q``, ``dp``, ``dq``,
    ``qi``, ``k``) never is; a ``kid`` is when it is the key's thumbprint (RFC 7638).
    (A private key's public members are public: its private ones go, ``_detectors``.)
    An EC key's ``x`` and ``y`` are a point of its
    curve, an Ed25519 or Ed448 key's ``x`` a point's encoding, an RSA modulus odd:
    text written in their place (a secret encoded as base64url) is no key."""
    if name == "kid":
        return members[name] == _thumbprint(members)
    data = _base64url(members[name])
    if data is None:
        return False
    kty = members.get("kty", "")
    if name in _THUMBPRINTS:
        return len(data) == _THUMBPRINTS[name]
    if kty == "RSA" and name == "n":
        return len(data) >= 128 and data[0] != 0 and data[-1] & 1 == 1
    if kty == "RSA" and name == "e":
        return 1 <= len(data) <= 8
    crv = members.get("crv", "")
    size = _CURVES.get((kty, crv))
    if size is None:
        return False
    if not (name == "x" or (name == "y" and kty == "EC")) or len(data) != size:
        return False
    if kty == "EC":
        x, y = _base64url(members.get("x", "")), _base64url(members.get("y", ""))
        return (
            x is not None
            and y is not None
            and len(x) == len(y) == size
            and (crv not in _WEIERSTRASS or _on_weierstrass(crv, x, y))
        )
    return crv not in ("Ed25519", "Ed448") or _on_edwards(crv, data)
