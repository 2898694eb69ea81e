"""Public material that redaction leaves readable: certificates, public keys, SSH
public keys and fingerprints, and the public keys of other formats (``_keyformats``):
WireGuard public keys, age recipients, OpenPGP public key blocks and signatures, a JSON
Web Key's public members, and the key ids and fingerprints ``gpg`` prints.

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
types: they still go whole, and so does a PGP block framed as public whose packets are
a secret key's.
"""

from __future__ import annotations

import bisect
import functools
import re

from ahocorasick_rs import BytesAhoCorasick, Implementation

from toolhygiene._keyformats import (
    age_recipient,
    jwk_public_value,
    openpgp_public,
    openpgp_texts,
    wireguard_public,
)
from toolhygiene._labels import is_secret_label
from toolhygiene._media import strict_base64

Span = tuple[int, int, str, int]

__all__ = [
    "PEM",
    "PGP",
    "clip",
    "jwk_objects",
    "jwk_yaml_blocks",
    "may_hold_public",
    "not_public",
    "not_public_pgp",
    "pgp_holds_secret",
    "public_ranges",
]

# A line break as written in the text or inside a string (``\n``, ``\\n``, ``\r\n``).
_BREAK = r"(?:\r?\n|(?:\\{1,2}r)?\\{1,2}n)"
# A block's lines of base64, read once: a lookahead is atomic, so the lines it took are
# never given back one at a time when no END follows (Python 3.10 has no possessive
# quantifier; backtracking there made a block without its END quadratic).
_LINES = r"(?=(?P<lines>(?:[ \t]*" + _BREAK + r"[ \t]*[A-Za-z0-9+/=]{1,128}){1,4096}))(?P=lines)"
# A PEM block: its frame, the headers RFC 1421 allowed (``Proc-Type: 4,ENCRYPTED``,
# ``DEK-Info: …``, ``Comment: …``; its ``fields``, free text, read as any text is) and
# the blank line after them, then its body (``secret``: what goes when the body is no
# public material, the frame and the headers staying). The body's first line and the
# lines after it are each read once (a lookahead is atomic: never given back when no END follows).
PEM = re.compile(
    r"-----BEGIN (?P<type>CERTIFICATE|TRUSTED CERTIFICATE|X509 CERTIFICATE|X509 CRL"
    r"|CERTIFICATE REQUEST|NEW CERTIFICATE REQUEST|PUBLIC KEY|RSA PUBLIC KEY"
    r"|DH PARAMETERS|EC PARAMETERS|PKCS7|CMS)-----"
    r"(?P<fields>(?=(?P<head>(?:[ \t]*"
    + _BREAK
    + r"[ \t]*[A-Za-z][A-Za-z0-9\-]{0,30}:[^\r\n\\]{0,200}){1,8}))(?P=head)(?:[ \t]*"
    + _BREAK
    + r"(?=[ \t]*"
    + _BREAK
    + r"))?)?[ \t]*"
    + _BREAK
    + r"[ \t]*(?P<secret>(?=(?P<first>[A-Za-z0-9+/=]{1,128}))(?P=first)"
    + r"(?=(?P<lines>(?:[ \t]*"
    + _BREAK
    + r"[ \t]*[A-Za-z0-9+/=]{1,128}){0,4095}))(?P=lines))"
    + r"[ \t]*"
    + _BREAK
    + r"[ \t]*-----END (?P=type)-----"
)
# An OpenPGP public key block or signature, armored: the frame, headers (``Version: …``,
# ``Comment: …``: free text, no part of the key), a blank line, the base64 and its
# checksum (``=ojH6``).
PGP = re.compile(
    r"-----BEGIN PGP (?P<type>PUBLIC KEY BLOCK|SIGNATURE)-----"
    r"(?P<armor>(?:[ \t]*"
    + _BREAK
    + r"[A-Za-z][A-Za-z\-]{0,30}:[^\r\n\\]{0,200}){0,8})[ \t]*"
    + _BREAK
    + _LINES
    + r"[ \t]*"
    + _BREAK
    + r"[ \t]*-----END PGP (?P=type)-----"
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


def _tlv(data: bytes, at: int) -> tuple[int, int] | None:
    """The tag and the end of the DER element at ``at`` (``None``: no whole one)."""
    if at + 2 > len(data):
        return None
    first = data[at + 1]
    if first < 0x80:
        head, size = at + 2, first
    else:
        count = first & 0x7F
        if not 1 <= count <= 4 or at + 2 + count > len(data):
            return None
        head, size = at + 2 + count, int.from_bytes(data[at + 2 : at + 2 + count], "big")
    end = head + size
    return (data[at], end) if end <= len(data) else None


def certificate_der(data: bytes) -> bool:
    """(fix22c) Whether ``data`` is a signed public structure written without a PEM
    frame: a certificate, a certificate request (``SEQUENCE { SEQUENCE, SEQUENCE, BIT
    STRING }``) or a public key (``SEQUENCE { SEQUENCE, BIT STRING }``), filling
    ``data`` exactly. A private key opens with its version (an ``INTEGER``), an
    encrypted one ends with an ``OCTET STRING``: neither is one."""
    if not _der(data):
        return False
    outer = _tlv(data, 0)
    if outer is None:
        return False
    at = 2 + (data[1] & 0x7F if data[1] >= 0x80 else 0)
    tags: list[int] = []
    while at < len(data) and len(tags) < 4:
        element = _tlv(data, at)
        if element is None:
            return False
        tags.append(element[0])
        at = element[1]
    return at == len(data) and tags in ([0x30, 0x30, 0x03], [0x30, 0x03])


# (fix22c) A certificate's base64 body without a PEM frame: a SAML document's
# ``<ds:X509Certificate>``, a JWK's ``x5c`` item, ``-----BEGIN``-less settings. Its DER
# opens with a ``SEQUENCE`` of 256 bytes or more (``MII``, ``MIJ``); runs of base64 split
# by line breaks (written or escaped, in a JSON string) and indentation: every part may
# stop anywhere, so nothing is tried twice (a run that goes on with other characters is
# cut there, and its bytes decide).
_BARE_DER = re.compile(
    r"(?:(?<![A-Za-z0-9+/])|(?<=\\n))MI[I-J][A-Za-z0-9+/]{60,8192}"
    r"(?:[ \t]{0,16}" + _BREAK + r"[ \t]{0,64}[A-Za-z0-9+/]{1,8192}){0,256}={0,2}"
)


def _inside_block(blocks: list[tuple[int, int]], at: int) -> bool:
    """Whether ``at`` lies in one of ``blocks`` (ascending, apart)."""
    index = bisect.bisect_right(blocks, (at, 1 << 62)) - 1
    return index >= 0 and blocks[index][0] <= at < blocks[index][1]


def not_public(m: re.Match[str]) -> bool:
    """Whether a block framed as public material (a ``PEM`` match) holds something else:
    a private key's body, a secret pasted in, a body cut short. Its body goes, named
    ``pem-body`` (a certificate cut short is no private key: cold19): a frame's word is
    no proof (found by cold14), and a body cut short cannot be checked."""
    global _BODIES_SEEN
    seen = _BODIES_SEEN
    if seen[0] is not m.string:  # once per text for each body (a flood of one block)
        seen = _BODIES_SEEN = (m.string, {})
    body = m.group("secret")
    verdict = seen[1].get(body)
    if verdict is None:
        data = strict_base64(_LAYOUT.sub("", body))
        verdict = seen[1][body] = data is None or not _der(data)
    return verdict


_BODIES_SEEN: tuple[str | None, dict[str, bool]] = (None, {})


def not_public_pgp(m: re.Match[str]) -> bool:
    """Whether a block framed as an OpenPGP public key or signature (a ``PGP`` match) is
    none: it goes whole, as a private key does."""
    return not openpgp_public(m.group("type"), _LAYOUT.sub("\n", m.group("lines")))


def pgp_holds_secret(m: re.Match[str]) -> bool:
    """Whether an OpenPGP public key or signature (a ``PGP`` match whose packets are
    one) holds a secret in what a person wrote in it: a user id, a notation
    (``openpgp_texts``). Base64 hides it from the eye, not from a model: the block goes
    whole (what is left of it would be no key)."""
    if not_public_pgp(m):
        return False
    from toolhygiene._engine import scrub  # (the engine reads this module's ranges)

    texts = openpgp_texts(_LAYOUT.sub("\n", m.group("lines")))
    return any(scrub(text, internals=False) != text for text in texts)


# A WireGuard public key where ``wg`` and its configuration write one (``PublicKey =``,
# ``public key:`` and ``peer:`` in ``wg show``, ``"publicKey": "…"``): 32 bytes of base64.
_WIREGUARD = re.compile(
    r"(?<![A-Za-z0-9_])(?:[Pp]ublic[_ ]?[Kk]ey[\"']?[ \t]{0,8}[=:]|peer:)[ \t]{0,8}[\"']?"
    r"(?P<key>[A-Za-z0-9+/]{43}=)(?![A-Za-z0-9+/=])"
)
# An age recipient (``age1…``, a plugin's ``age1yubikey1…``): Bech32, checked.
_AGE = re.compile(r"(?<![A-Za-z0-9_\-])age1[a-z0-9]{50,400}(?![A-Za-z0-9_\-])")
# A JSON object with no object inside (a JSON Web Key), and its string members.
_OBJECT = re.compile(r"\{[^{}]{0,16384}\}")
# (Quotes escaped as in a JSON string that holds the key: ``{\\"kty\\": …}``.)
# (Or single quotes, as a Python dict's repr writes them: ``{'kty': 'EC', 'x': '…'}``.)
_MEMBER = re.compile(
    r'\\{0,3}(?P<q>["\'])(?P<name>[A-Za-z0-9#]{1,12})\\{0,3}(?P=q)[ \t\r\n]{0,8}:[ \t\r\n]{0,8}'
    r'\\{0,3}(?P=q)(?P<value>[^"\'\\]{0,16384})\\{0,3}(?P=q)'
)
_KTY = re.compile(r'\\{0,3}["\']kty\\{0,3}["\']')
# A JSON Web Key written as YAML: a block of ``name: value`` lines at one indentation
# (the first may open a list item, ``- kty: EC``), one of them ``kty``.
_YAML_MEMBER = re.compile(
    r"^(?P<indent>[ \t]{0,32}(?:- )?)(?P<name>[A-Za-z0-9#]{1,12}):[ \t]{1,8}(?P<q>[\"']?)"
    r"(?P<value>[A-Za-z0-9_\-+/=#.:]{1,16384})(?P=q)[ \t]*\r?$",
    re.MULTILINE,
)
_JWK_PUBLIC = frozenset(["x", "y", "n", "e", "x5t", "x5t#S256", "kid"])
# The key ids and fingerprints ``gpg`` prints (``gpg: key 4AEE18F83AFDEB23: public key
# imported``, ``pub   rsa4096/4AEE18F83AFDEB23``, ``using RSA key <fingerprint>``,
# ``--recv-keys <id>``, ``fpr:::::::::<fingerprint>:``): they name a public key.
# Each alternative starts with its first letter, the look-behind after it (``g(?<!…g)``:
# nothing of a word before the ``g``): ``re`` skips to those letters in one scan, where a
# look-behind first was tried at every character (3.3 ms for 64 KB, now 0.35).
_GPG = re.compile(
    r"(?:g(?<![A-Za-z0-9_\-]g)pg: key "
    r"|g(?<![A-Za-z0-9_\-]g)pg:[ \t]{1,20}using [A-Za-z0-9]{2,10} key "
    r"|p(?<![A-Za-z0-9_\-]p)ub[ \t]{1,8}[a-z0-9]{2,16}/"
    r"|s(?<![A-Za-z0-9_\-]s)(?:ub|ec|sb)[ \t]{1,8}[a-z0-9]{2,16}/"
    r"|--recv-keys?[ \t]{1,4}|f(?<![A-Za-z0-9_\-]f)pr:{9})(?:0x)?"
    r"(?P<id>[0-9A-F]{64}|[0-9A-F]{40}|[0-9A-F]{16}|[0-9A-F]{8})(?![0-9A-Za-z])"
)
_NEEDLES = ("-----BEGIN ", "MII", "AAAA", "SHA256:", "MD5:", "age1", "kty", "gpg", "fpr:", "ublic")


def may_hold_public(text: str) -> bool:
    """Whether ``text`` may hold public material (a few scans in C; an ASCII text longer
    than ``_LONG``: one pass of an automaton over its bytes, a third of their cost)."""
    if len(text) > _LONG and text.isascii():
        return bool(_automaton().find_matches_as_indexes(text.encode("ascii")))
    return any(needle in text for needle in _NEEDLES) or "peer:" in text


_LONG = 4_096


@functools.cache
def _automaton() -> BytesAhoCorasick:
    needles = [needle.encode("ascii") for needle in (*_NEEDLES, "peer:")]
    return BytesAhoCorasick(needles, implementation=Implementation.DFA)


# The label and separator right before a value on its line (``AGE_SECRET_KEY=``,
# ``"secretKey": "``, ``secret key for prod: ``, or words and a blank: ``wg private key
# PublicKey = …``): judged as any label is.
_LABEL_BEFORE = re.compile(
    r"([A-Za-z_][\w\-. ]{0,60})[\"']?[ \t]{0,3}(?:[:=][ \t]{0,3}[\"']?)?(?<=[ \t:=\"'])\Z"
)


def _after_secret(text: str, start: int) -> bool:
    """Whether a secret's label stands right before ``start`` (its words name a secret,
    as ``is_secret_label`` reads them)."""
    if _AFTER_SECRET.search(text, max(0, start - 24), start) is not None:
        return True
    m = _LABEL_BEFORE.search(text, max(0, start - 80), start)
    return m is not None and is_secret_label(m.group(1).strip()) is True


_PRIVATE_WORDS = re.compile(
    r"(?i:priv|secret|pass(?:word|wd|phrase)?(?![a-z])|pwd|token|credential)"
)


def _after_private(text: str, start: int) -> bool:
    """Whether a label saying the value is private or secret stands right before
    ``start`` (``private_key: ssh-ed25519 …``, ``SECRET=-----BEGIN PUBLIC KEY-----``):
    a public key's shape under it is no public key. (``ssh_key:``, ``deploy_key:``
    name a key, public or not: what it is decides.)"""
    if _AFTER_SECRET.search(text, max(0, start - 24), start) is not None:
        return True
    m = _LABEL_BEFORE.search(text, max(0, start - 80), start)
    if m is None or m.group(1).strip() == "":
        return _in_private_block(text, start)
    return (
        _PRIVATE_WORDS.search(m.group(1)) is not None
        and is_secret_label(m.group(1).strip()) is True
    )


# A YAML block scalar's header: ``password: |``, ``  "secret": >-``, ``- token: |2``.
_BLOCK_HEADER = re.compile(
    r"[ \t]{0,40}(?:-[ \t]{1,4})?[\"']?([A-Za-z_][\w.\-]{0,60})[\"']?[ \t]{0,4}:[ \t]{0,4}"
    r"[|>][+\-]?[0-9]?[+\-]?[ \t]{0,4}(?:#[^\r\n]{0,200})?\r?"
)
_BLOCK_LOOK = 16_384
"""Characters read back for a block scalar's header, at most."""


def _in_private_block(text: str, start: int) -> bool:
    """Whether ``start`` is inside a YAML block scalar under a secret's label that says
    it is private (``password: |``, ``private_key: >``): every line of it is the value,
    whatever it holds (a certificate under ``password: |`` is no public material)."""
    line = text.rfind("\n", 0, start) + 1
    lead = text[line:start]
    indent = len(lead)
    if indent == 0 or lead.strip(" \t"):
        return False  # not the first thing on an indented line
    limit = max(0, start - _BLOCK_LOOK)
    end = line - 1
    while end > limit:
        begin = text.rfind("\n", limit, end) + 1
        if begin == 0 and limit > 0:
            return False  # read back as far as it looks
        row = text[begin:end]
        body = row.lstrip(" \t")
        if body.strip() and len(row) - len(body) < indent:
            m = _BLOCK_HEADER.fullmatch(row)
            return (
                m is not None
                and _PRIVATE_WORDS.search(m.group(1)) is not None
                and is_secret_label(m.group(1)) is True
            )
        end = begin - 1
    return False


def jwk_objects(text: str) -> list[tuple[int, int]]:
    """Where ``text`` holds a JSON object with no object inside that names a key type
    (``"kty"``): a JSON Web Key (ascending)."""
    global _JWK_SEEN
    seen = _JWK_SEEN
    if seen[0] is not text:  # once per text: its members share the answer
        spans = [
            m.span()
            for m in _OBJECT.finditer(text)
            if "kty" in m.group() and _KTY.search(m.group())
        ]
        seen = _JWK_SEEN = (text, spans)
    return seen[1]


_JWK_SEEN: tuple[str, list[tuple[int, int]]] = ("", [])
"""The last text ``jwk_objects`` read, and its answer (a tuple: read and replaced whole,
so threads never see half of one)."""


def _jwk_ranges(text: str) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    for start, end in jwk_objects(text):
        _public_members(list(_MEMBER.finditer(text, start, end)), ranges)
    if "kty:" in text:
        for block in jwk_yaml_blocks(text):
            _public_members(block, ranges)
    return ranges


def _public_members(found: list[re.Match[str]], ranges: list[tuple[int, int]]) -> None:
    """Add the spans of the public members among a JSON Web Key's ``found`` members."""
    members = {m.group("name"): m.group("value") for m in found}
    if len(members) != len(found) or "kty" not in members:
        return  # a member written twice: which one a reader takes is unknown
    ranges.extend(
        m.span("value")
        for m in found
        if m.group("name") in _JWK_PUBLIC and jwk_public_value(members, m.group("name"))
    )


def jwk_yaml_blocks(text: str) -> list[list[re.Match[str]]]:
    """The blocks of ``name: value`` lines of ``text`` that hold a ``kty``: lines next to
    each other at one indentation (a list item's ``- `` counts as two blanks)."""
    blocks: list[list[re.Match[str]]] = []
    block: list[re.Match[str]] = []
    for m in _YAML_MEMBER.finditer(text):
        indent = len(m.group("indent"))
        if (
            block
            and m.group("indent")[-2:] != "- "
            and len(block[-1].group("indent")) == indent
            and text.count("\n", block[-1].end(), m.start()) == 1
        ):
            block.append(m)
            continue
        if any(b.group("name") == "kty" for b in block):
            blocks.append(block)
        block = [m]
    if any(b.group("name") == "kty" for b in block):
        blocks.append(block)
    return blocks


def _key_ranges(text: str) -> list[tuple[int, int]]:
    """Where ``text`` holds the public keys of ``_keyformats`` and ``gpg``'s key ids."""
    ranges: list[tuple[int, int]] = []
    if "-----BEGIN PGP " in text:
        for m in PGP.finditer(text):
            if not not_public_pgp(m) and not pgp_holds_secret(
                m
            ):  # its armor headers (``Comment: …``) are read as
                # any text is: only the frame, the base64 and its checksum are public
                ranges.extend(((m.start(), m.start("armor")), (m.end("armor"), m.end())))
    if "ublic" in text or "peer:" in text:
        ranges.extend(
            m.span("key")
            for m in _WIREGUARD.finditer(text)
            if wireguard_public(m.group("key")) and not _after_secret(text, m.start())
        )
    if "age1" in text:
        ranges.extend(
            m.span()
            for m in _AGE.finditer(text)
            if age_recipient(m.group()) and not _after_secret(text, m.start())
        )
    if "kty" in text:
        ranges.extend(_jwk_ranges(text))
    if "gpg" in text or "fpr:" in text:
        ranges.extend(m.span("id") for m in _GPG.finditer(text))
    return ranges


def public_ranges(text: str) -> list[tuple[int, int]]:
    """Where ``text`` holds public material (ascending, apart); ``[]`` mostly, cheaply.
    Found once for a text (the engine asks before and after its detectors)."""
    global _RANGES_SEEN
    if _RANGES_SEEN[0] is not text:
        _RANGES_SEEN = (text, _public_ranges(text))
    return list(_RANGES_SEEN[1])


_RANGES_SEEN: tuple[str | None, list[tuple[int, int]]] = (None, [])


def _public_ranges(text: str) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = _key_ranges(text)
    blocks: list[tuple[int, int]] = []  # PEM blocks: their bodies are judged with them
    if "-----BEGIN " in text:
        for m in PEM.finditer(text):
            blocks.append(m.span())
            if not_public(m) or _after_private(text, m.start()):
                continue
            if m.group("fields") is None:
                ranges.append(m.span())
            else:  # its headers (``Comment: …``) are read as any text is
                ranges.extend(((m.start(), m.start("fields")), (m.end("fields"), m.end())))
    if "MII" in text:
        for m in _BARE_DER.finditer(text):
            data = strict_base64(_LAYOUT.sub("", m.group()))
            if (
                data is not None
                and certificate_der(data)
                and not _inside_block(blocks, m.start())
                and not _after_private(text, m.start())
            ):
                ranges.append(m.span())
    if "AAAA" in text:
        for m in _SSH_KEY.finditer(text):
            if _after_private(text, m.start()):
                continue  # under a secret's label: never public (``private_key: ssh-…``)
            data = strict_base64(m.group("blob"))
            if data is not None and _ssh_blob(m.group("type"), data):
                ranges.append(m.span())
            elif (mark := _CUT.match(text, m.end())) is not None and _ssh_head(m):
                ranges.append((m.start(), mark.end()))
    if "SHA256:" in text or "MD5:" in text:
        ranges.extend(
            m.span() for m in _FINGERPRINT.finditer(text) if not _after_secret(text, m.start())
        )
    ranges.sort()
    merged: list[tuple[int, int]] = []
    for a, b in ranges:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


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
