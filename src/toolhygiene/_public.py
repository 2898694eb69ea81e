"""Public material that redaction leaves readable: certificates, public keys, SSH
public keys and fingerprints.

A PEM block of a public type (a certificate, a certificate request or revocation list, a
public key, parameters) is public by design, and so is an SSH key's fingerprint
(``SHA256:<43 base64>``, ``MD5:aa:bb:…``) and an SSH public key (``ssh-ed25519 AAAA…``,
whose blob is length-prefixed fields, the first its type): they name or check a key,
they open nothing. Their
base64 reads as random, so without this the token layer took them, and the joining of
wrapped lines glued a certificate's body to its frame. A block is public only when its
body is what its frame says: strict base64 of one whole DER structure (a ``SEQUENCE``
whose length is the body's), so a secret glued to it or put inside it breaks the
structure and the block is read as any other text. Private keys are none of these
types: they still go whole.
"""

from __future__ import annotations

import re

from toolhygiene._media import strict_base64

Span = tuple[int, int, str, int]

__all__ = ["PEM", "clip", "not_public", "public_ranges"]

# A line break as written in the text or inside a string (``\n``, ``\\n``, ``\r\n``).
_BREAK = r"(?:\r?\n|(?:\\{1,2}r)?\\{1,2}n)"
PEM = re.compile(
    r"-----BEGIN (?P<type>CERTIFICATE|TRUSTED CERTIFICATE|X509 CERTIFICATE|X509 CRL"
    r"|CERTIFICATE REQUEST|NEW CERTIFICATE REQUEST|PUBLIC KEY|RSA PUBLIC KEY"
    r"|DH PARAMETERS|EC PARAMETERS|PKCS7|CMS)-----"
    r"(?P<lines>(?:[ \t]*" + _BREAK + r"[ \t]*[A-Za-z0-9+/=]{1,128}){1,4096})"
    r"[ \t]*" + _BREAK + r"[ \t]*-----END (?P=type)-----"
)
_LAYOUT = re.compile(r"[ \t]*" + _BREAK + r"[ \t]*")
# An SSH key's fingerprint as ``ssh-keygen -l`` and ``ssh`` print it.
_FINGERPRINT = re.compile(
    r"(?<![A-Za-z0-9])(?:SHA256:[A-Za-z0-9+/]{43}(?![A-Za-z0-9+/])=?"
    r"|MD5:[0-9a-f]{2}(?::[0-9a-f]{2}){15}(?![0-9A-Za-z:]))"
)


# A label that names a secret right before a fingerprint's shape: the value is then the
# secret written in that shape (``password: SHA256:…``), no fingerprint.
_AFTER_SECRET = re.compile(
    r"(?i:pass(?:word|wd|phrase)?|pwd|secret|token|api[_\- ]?key|credentials?)[\"']?"
    r"[ \t]{0,3}[:=][ \t]{0,3}[\"']?\Z"
)


# An SSH public key (``authorized_keys``, ``known_hosts``, ``.pub``): its type, then
# the base64 of its blob, which starts with the same type.
_SSH_KEY = re.compile(
    r"(?<![A-Za-z0-9_\-])(?P<type>ssh-(?:rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp(?:256|384|521)"
    r"|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com"
    r"|(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp(?:256|384|521))-cert-v01@openssh\.com)"
    r"[ \t]+(?P<blob>AAAA[A-Za-z0-9+/]{16,16384}={0,2})(?![A-Za-z0-9+/=])"
)


def _ssh_blob(kind: str, data: bytes) -> bool:
    """Whether ``data`` is an SSH public key blob of type ``kind``: length-prefixed
    fields, the first the type, that fill it exactly."""
    at, fields = 0, []
    while at < len(data):
        if at + 4 > len(data):
            return False
        size = int.from_bytes(data[at : at + 4], "big")
        at += 4
        if at + size > len(data):
            return False
        fields.append(data[at : at + size])
        at += size
    return len(fields) >= 2 and fields[0] == kind.encode()


# Where a key is shown cut short (a log, a listing): an ellipsis right after its blob.
_CUT = re.compile(r"\.{2,3}|\u2026")


def _ssh_head(m: re.Match[str]) -> bool:
    """Whether an SSH key's blob cut short (``ssh-rsa AAAAB3NzaC1yc2EAAAADAQAB…``) opens
    as its type's blob does: its first field is the type. What follows is the start of
    the public key's own fields (``AAAADAQAB`` is the exponent 65537, whose base64 reads
    ``EAAAAD``, a Square token's prefix), no secret."""
    blob = m.group("blob").rstrip("=")
    data = strict_base64(blob[: len(blob) // 4 * 4])
    kind = m.group("type").encode()
    return (
        data is not None
        and data[:4] == len(kind).to_bytes(4, "big")
        and (data[4 : 4 + len(kind)] == kind)
    )


def _der(data: bytes) -> bool:
    """Whether ``data`` is one whole DER ``SEQUENCE`` (its length field is the rest) that
    is no private key: every private key's structure (PKCS#1, SEC 1's EC key, PKCS#8, a
    DSA key) opens with a one-byte ``INTEGER``, its version, where a public one opens
    with a ``SEQUENCE`` or a long ``INTEGER`` (a modulus, a prime). A private key framed
    as a certificate or a public key is read as any other text (found by cold14)."""
    if len(data) < 2 or data[0] != 0x30:
        return False
    first = data[1]
    if first < 0x80:
        head = 2
        whole = first == len(data) - 2
    else:
        count = first & 0x7F
        if not 1 <= count <= 4 or len(data) < 2 + count:
            return False
        head = 2 + count
        whole = int.from_bytes(data[2:head], "big") == len(data) - head
    return whole and data[head : head + 2] != b"\x02\x01"


def not_public(m: re.Match[str]) -> bool:
    """Whether a block framed as public material (a ``PEM`` match) holds something else:
    a private key's body, a secret pasted in, a body cut short. It goes whole, as a
    private key does: a frame's word is no proof (found by cold14)."""
    data = strict_base64(_LAYOUT.sub("", m.group("lines")))
    return data is None or not _der(data)


def public_ranges(text: str) -> list[tuple[int, int]]:
    """Where ``text`` holds public material (ascending, apart); ``[]`` mostly, cheaply."""
    ranges: list[tuple[int, int]] = []
    if "-----BEGIN " in text:
        ranges.extend(m.span() for m in PEM.finditer(text) if not not_public(m))
    if "AAAA" in text:
        for m in _SSH_KEY.finditer(text):
            data = strict_base64(m.group("blob"))
            if data is not None and _ssh_blob(m.group("type"), data):
                ranges.append(m.span())
            elif (mark := _CUT.match(text, m.end())) is not None and _ssh_head(m):
                ranges.append((m.start(), mark.end()))
    if "SHA256:" in text or "MD5:" in text:
        ranges.extend(
            m.span()
            for m in _FINGERPRINT.finditer(text)
            if _AFTER_SECRET.search(text, max(0, m.start() - 24), m.start()) is None
        )
    ranges.sort()
    return ranges


_LEAD = 1
"""Characters a labelled value may hold before the public material it starts with (a
quote)."""


def clip(spans: list[Span], ranges: list[tuple[int, int]]) -> list[Span]:
    """``spans`` without what lies in ``ranges``: a span inside one is dropped, one that
    runs into one keeps its part outside it; a labelled value (``secret``) that starts
    with public material is that material (a passphrase's run took the key's comment
    after it): dropped whole."""
    if not ranges:
        return spans
    out: list[Span] = []
    for span in spans:
        pieces = [(span[0], span[1])]
        for a, b in ranges:
            if b <= span[0] or a >= span[1]:
                continue
            if span[2] == "secret" and a <= span[0] + _LEAD:
                pieces = []
                break
            pieces = [
                piece
                for start, end in pieces
                for piece in ((start, min(end, a)), (max(start, b), end))
                if piece[0] < piece[1]
            ]
        out.extend((start, end, span[2], span[3]) for start, end in pieces)
    return out
