"""Whether a run of base64 is a whole, genuine picture: the one thing the token layers
leave unread.

A picture's base64 is random-looking and may hold a provider's prefix by chance, so
reading it as text would redact it (issue 12, #9); but a run that only starts like a
picture could carry a secret inserted into it, glued after its padding or pasted over
its bytes. So a run is a picture only when it is strict base64 (its alphabet, padding
only at the end) and its bytes are a whole file of the format its header names, read
to its last byte: PNG (every chunk's CRC, ``IEND`` last), GIF (blocks and sub-blocks to
the trailer), WebP (the RIFF size and its chunks), JPEG (segments, then compressed data
whose ``0xFF`` bytes are stuffed or markers, ``EOI`` last) and PDF (``%%EOF`` last, its
``startxref`` pointing at the cross-reference). A secret inserted or appended breaks
that structure, but for one case: a JPEG's compressed data carries no checksum, and a
secret of a multiple of four characters inserted at a four-character boundary inside it
keeps the file whole unless its bytes hold ``0xFF`` (about 9 times in 10 for a 20-40
character secret), and so does one inserted into a PDF after its cross-reference, in
the trailer: the README says so. Reading that data for provider formats was
tried and refused: random bytes hold prefixes such as ``AQE`` or ``EAAB`` with a
plausible rest often enough to redact genuine photographs.
"""

from __future__ import annotations

import binascii
import re
import zlib

__all__ = ["picture", "strict_base64"]


def strict_base64(run: str) -> bytes | None:
    """The bytes of ``run`` when it is strict base64 (standard alphabet, whole groups
    of four, padding only at its end), else ``None``."""
    body = run.rstrip("=")
    padding = len(run) - len(body)
    if len(run) % 4 or padding > 2 or "=" in body or not run.isascii():
        return None
    try:
        data = binascii.a2b_base64(run)
    except binascii.Error:
        return None
    # Decoding skips characters outside the alphabet (``_``, ``-``, ``.``): none was
    # skipped when every group of four gave its three bytes.
    return data if len(data) == len(run) // 4 * 3 - padding else None


def picture(run: str) -> bool:
    """Whether ``run`` is the base64 of a whole, genuine picture (PNG, GIF, WebP, JPEG
    or PDF), read to its last byte."""
    data = strict_base64(run)
    if data is None:
        return False
    for magic, whole in _FORMATS:
        if data.startswith(magic):
            return whole(data)
    return False


def _png(data: bytes) -> bool:
    at, size = 8, len(data)
    while at + 12 <= size:
        length = int.from_bytes(data[at : at + 4], "big")
        end = at + 12 + length
        if end > size:
            return False
        body = data[at + 4 : at + 8 + length]
        if zlib.crc32(body) != int.from_bytes(data[end - 4 : end], "big"):
            return False
        if body[:4] == b"IEND":
            return end == size
        at = end
    return False


# The extensions GIF89a defines: graphic control, comment, plain text, application.
_GIF_LABELS = (b"\xf9", b"\xfe", b"\x01", b"\xff")


def _gif(data: bytes) -> bool:
    size = len(data)
    if size < 13:
        return False
    flags = data[10]
    at = 13 + (3 * (2 << (flags & 7)) if flags & 0x80 else 0)
    while at < size:
        block = data[at]
        if block == 0x3B:  # the trailer
            return at + 1 == size
        if block == 0x21:  # an extension: its label (one GIF89a defines), then sub-blocks
            if data[at + 1 : at + 2] not in _GIF_LABELS:
                return False
            at += 2
        elif block == 0x2C:  # an image: its descriptor, local colours, LZW code size
            if at + 10 > size:
                return False
            local = data[at + 9]
            at += 10 + (3 * (2 << (local & 7)) if local & 0x80 else 0)
            if at >= size or not 2 <= data[at] <= 8:
                return False  # the LZW minimum code size is 2 to 8 bits
            at += 1
        else:
            return False
        while True:  # sub-blocks, each its length first, to an empty one
            if at >= size:
                return False
            length = data[at]
            at += 1 + length
            if not length:
                break
    return False


def _webp(data: bytes) -> bool:
    size = len(data)
    if size < 12 or data[8:12] != b"WEBP" or int.from_bytes(data[4:8], "little") + 8 != size:
        return False
    at = 12
    while at + 8 <= size:
        length = int.from_bytes(data[at + 4 : at + 8], "little")
        at += 8 + length + (length & 1)
    return at == size


_STARTXREF = re.compile(rb"startxref\s+([0-9]{1,12})\s+%%EOF\s*\Z")
_XREF_AT = re.compile(rb"xref|[0-9]{1,10}\s+[0-9]{1,5}\s+obj")


def _pdf(data: bytes) -> bool:
    m = _STARTXREF.search(data, max(0, len(data) - 1024))
    return m is not None and _XREF_AT.match(data, int(m.group(1))) is not None


_RESTART = range(0xD0, 0xD8)


def _jpeg(data: bytes) -> bool:
    at, size, scanned = 2, len(data), False
    while at + 2 <= size:
        if data[at] != 0xFF:
            return False
        marker = data[at + 1]
        if marker == 0xFF:  # a fill byte
            at += 1
            continue
        if marker == 0xD9:  # end of image
            return at + 2 == size and scanned
        if marker in _RESTART or marker == 0x01:
            at += 2
            continue
        if at + 4 > size:
            return False
        length = int.from_bytes(data[at + 2 : at + 4], "big")
        if length < 2:
            return False
        at += 2 + length
        if marker != 0xDA:
            continue
        scanned = True
        while True:  # compressed data: 0xFF only stuffed (FF 00) or a restart marker
            found = data.find(b"\xff", at)
            if found == -1 or found + 1 >= size:
                return False
            following = data[found + 1]
            if following and following not in _RESTART:
                at = found
                break
            at = found + 2
    return False


_FORMATS = (
    (b"\x89PNG\r\n\x1a\n", _png),
    (b"GIF87a", _gif),
    (b"GIF89a", _gif),
    (b"RIFF", _webp),
    (b"%PDF-", _pdf),
    (b"\xff\xd8", _jpeg),
)
