"""A URL-encoded run that held a secret, put back as it was written.

``_engine`` reads a URL-encoded run decoded (``next=https%3A%2F%2F…%26token%3Dv``) and
scrubs that view. What goes back into the text is the run as written, escapes and all,
with only each redacted value's characters replaced by its placeholder: decoding it
there would make nested parameters those of the outer URL and turn an inert
``%3Csystem%3E`` into a live tag the raw text never held. Where the view cannot be
mapped back (normalising changed it, the scrub changed more than values), the scrubbed
view is put back encoded instead: every character the run did not hold as written is
an escape again, so no character the text never held reaches the model but the
placeholders'.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import compress

__all__ = ["encoded_back", "simply_unquoted"]

_ESCAPES = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_PLACEHOLDER = re.compile(r"(\[redacted:[a-z0-9\-]{1,64}\])")
# A placeholder with the quotes that made it a JSON string (``_engine._as_strings``:
# ``%22pin%22%3A%204821`` decodes to ``"pin": 4821``, scrubbed ``"pin":
# "[redacted:secret]"``): the quotes are put back escaped, as the run writes them.
_QUOTED_PLACEHOLDER = re.compile(
    r"((?:\\{0,3}[\"'])?\[redacted:[a-z0-9\-]{1,64}\](?:\\{0,3}[\"'])?)"
)
_LEVELS = 3


def encoded_back(
    segment: str,
    piece: str,
    *,
    bytes_of: Callable[[re.Match[str]], str],
    decoded_view: Callable[[str], str],
) -> str:
    """``segment`` (a URL-encoded run as written) with the values its scrubbed decoded
    view ``piece`` replaced by placeholders replaced there too. ``bytes_of`` decodes one
    run of escapes as ``_engine`` does; ``decoded_view`` is the view ``piece`` was made
    from (decoded and normalised): the result read so must be ``piece`` itself."""
    mapped = _decoded_with_origins(segment, bytes_of)
    if mapped is not None:
        decoded, starts, ends = mapped
        ranges = _replaced(decoded, piece)
        if ranges is not None:
            parts, last = [], 0
            for first, stop, shown in ranges:
                begin, end = starts[first], ends[stop - 1]
                if begin < last:
                    break
                parts.append(segment[last:begin])
                parts.append(_escaped_around(shown))
                last = end
            else:
                parts.append(segment[last:])
                out = "".join(parts)
                if decoded_view(out) == piece:
                    return out
    return _encoded(segment, piece)


def _escaped_around(shown: str) -> str:
    """``shown`` (placeholders, with the quotes around them) with every character that
    is no placeholder's written as an escape, as the run writes it."""
    return "".join(
        part if at % 2 else "".join(f"%{b:02X}" for b in part.encode())
        for at, part in enumerate(_PLACEHOLDER.split(shown))
    )


def _encoded(segment: str, piece: str) -> str:
    """``piece`` percent-encoded but for the characters ``segment`` holds as written
    (never ``%``) and the placeholders' own."""
    from urllib.parse import quote  # (rare: loaded only when a run cannot be mapped back)

    literal = {c for c in _ESCAPES.sub("", segment) if c != "%"}
    parts = []
    for at, part in enumerate(_PLACEHOLDER.split(piece)):
        if at % 2:
            parts.append(part)
        else:
            parts.append(
                "".join(c if c in literal and c.isascii() else quote(c, safe="") for c in part)
            )
    return "".join(parts)


def _decoded_with_origins(
    segment: str, bytes_of: Callable[[re.Match[str]], str]
) -> tuple[str, Sequence[int], Sequence[int]] | None:
    """``segment`` decoded as ``_engine._url_decoded`` decodes it (up to three levels),
    with where in ``segment`` each decoded character was written (its first and past
    its last character)."""
    text = segment
    starts: Sequence[int] = range(len(segment))
    ends: Sequence[int] = range(1, len(segment) + 1)
    for _ in range(_LEVELS):
        simple = _simply_decoded(text, starts, ends)
        if simple is not None:
            if simple[0] == text:
                break
            text, starts, ends = simple
            continue
        out: list[str] = []
        new_starts: list[int] = []
        new_ends: list[int] = []
        last = 0
        for m in _ESCAPES.finditer(text):
            out.extend(text[last : m.start()])
            new_starts.extend(starts[last : m.start()])
            new_ends.extend(ends[last : m.start()])
            written = m.group()
            decoded = bytes_of(m)
            last = m.end()
            if len(decoded) * 3 == len(written) and decoded.isascii():
                # a character an escape (most runs): sliced, not walked
                out.extend(decoded)
                new_starts.extend(starts[m.start() : last : 3])
                new_ends.extend(ends[m.start() + 2 : last : 3])
                continue
            data = bytes.fromhex(written.replace("%", ""))
            chars = data.decode("utf-8", errors="surrogateescape")
            at = 0  # bytes of ``data`` read
            done = 0  # characters of ``decoded`` accounted for
            for char in chars:
                size = 1 if "\udc80" <= char <= "\udcff" else len(char.encode())
                base = m.start() + 3 * at
                # ``bytes_of`` gives the character, or its escapes as written
                piece = (
                    char if decoded.startswith(char, done) else written[3 * at : 3 * (at + size)]
                )
                if not decoded.startswith(piece, done):
                    return None
                done += len(piece)
                for _c in piece:
                    out.append(_c)
                    new_starts.append(starts[base])
                    new_ends.append(ends[base + 3 * size - 1])
                at += size
            if done != len(decoded):
                return None
        out.extend(text[last:])
        new_starts.extend(starts[last:])
        new_ends.extend(ends[last:])
        joined = "".join(out)
        if joined == text:
            break
        text, starts, ends = joined, new_starts, new_ends
    return text, starts, ends


# What keeps a level of a run from being decoded a printable ASCII character an escape
# (``_simply_decoded``): an escape of any other byte, ``%25`` (the ``%`` it makes could
# open another), ``%7F``, a bare ``%`` with a ``%`` in the two characters after it
# (``%4%31``: the ``1`` decoded after it would make ``%41``, which is no escape of the
# text), and the marks that level's selectors are written with.
_NOT_SIMPLE = re.compile(
    r"%(?:(?=[0189A-Fa-f][0-9A-Fa-f])|25|7[Ff]|(?![0-9A-Fa-f]{2})(?=[\s\S]?%))|[\x00-\x02]"
)
_ONE_ESCAPE = re.compile(r"%[2-7][0-9A-Fa-f]")
_MARKS = "\x00\x01\x02"
# A level's selectors, one byte a character: the first character of an escape (or any
# other character) starts a decoded one; the last (or any other) ends one.
_STARTS = bytes(0 if b in (1, 2) else 1 for b in range(256))
_ENDS = bytes(0 if b in (0, 1) else 1 for b in range(256))


def _simply_decoded(
    text: str, starts: Sequence[int], ends: Sequence[int]
) -> tuple[str, Sequence[int], Sequence[int]] | None:
    """One level of ``_decoded_with_origins`` when every escape of ``text`` is one of a
    printable ASCII character (which ``_engine._bytes_of`` decodes to that character),
    no bare ``%`` could open another once decoded (``_NOT_SIMPLE``) and the escapes are
    ``spread``: each distinct escape replaced in C, and the origins selected by marks
    written where the escapes were (a loop step for each escape took 16 ms on 64 KB of
    URL-encoded pairs); None for any other text (the general loop reads it)."""
    if not spread(text) or _NOT_SIMPLE.search(text) is not None:
        return None
    escapes = set(_ONE_ESCAPE.findall(text))
    if not escapes:
        return text, starts, ends
    decoded, marked = _replaced_escapes(text, escapes), text
    for escape in escapes:
        marked = marked.replace(escape, _MARKS)
    selector = marked.encode("latin-1", "replace")  # (one byte a character)
    return (
        decoded,
        list(compress(starts, selector.translate(_STARTS))),
        list(compress(ends, selector.translate(_ENDS))),
    )


def _replaced_escapes(text: str, escapes: set[str]) -> str:
    """``text`` with each of ``escapes`` (``_ONE_ESCAPE``'s) written as its character, in
    C: the same as ``_engine``'s decoding of a level when ``_NOT_SIMPLE`` finds nothing
    (no ``%`` is made, and no bare one meets a decoded character)."""
    for escape in escapes:
        text = text.replace(escape, chr(int(escape[1:], 16)))
    return text


def spread(text: str) -> bool:
    """Whether the escapes of ``text`` stand between other characters (``a%3D1%26b%3D2``:
    a run of escapes each, a Python step each), rather than in a few long runs (a text
    of escapes alone, a step a run): where decoding each distinct escape at once, in C,
    is the faster way."""
    return 30 * text.count("%") < 9 * len(text)


def simply_unquoted(text: str) -> str | None:
    """One level of ``_engine._url_decoded`` when every escape of ``text`` is one of a
    printable ASCII character and no bare ``%`` could open another (``_NOT_SIMPLE``),
    found in C; else None (and when its escapes are not ``spread``)."""
    if not spread(text) or _NOT_SIMPLE.search(text) is not None:
        return None
    return _replaced_escapes(text, set(_ONE_ESCAPE.findall(text)))


def _replaced(decoded: str, piece: str) -> list[tuple[int, int, str]] | None:
    """The ranges of ``decoded`` that placeholders replaced in ``piece`` (everything
    else the same), each with the placeholders that stand for it; None when ``piece``
    is not ``decoded`` with values replaced, or the ranges cannot be told."""
    parts = _QUOTED_PLACEHOLDER.split(piece)
    if len(parts) == 1:
        return None
    head, tail = parts[0], parts[-1]
    if not decoded.startswith(head) or not decoded.endswith(tail):
        return None
    ranges: list[tuple[int, int, str]] = []
    position = len(head)
    limit = len(decoded) - len(tail)
    shown: list[str] = []
    for at in range(1, len(parts), 2):
        shown.append(parts[at])
        between = parts[at + 1]
        if at + 2 < len(parts) and not between:
            continue  # placeholders side by side: one range for them all
        if at + 2 >= len(parts):
            found = limit
        else:
            # the first place after the value (a wrong guess fails the check after)
            found = decoded.find(between, position + 1, limit)
            if found < 0:
                return None
        if found <= position:
            return None
        ranges.append((position, found, "".join(shown)))
        shown = []
        position = found + len(between)
    return ranges
