"""Layers 1 and 4 of redaction: token-shaped strings, found without a regex scan.

A candidate is a run of at least 16 token characters (letters, digits, ``_-+/.~=$``).
Runs are found on a byte view of the text in which every token character is ``a`` and
everything else a space, so finding them is a substring search in C whatever the text
holds; only the runs themselves are looked at in Python.

In a run, layer 1 tries the provider families whose prefix starts at the run's start or
right after a separator (``/ . = + ~ $``). Layer 4 looks at what is left: a piece of at
least 20 characters whose character classes change as often as random text's and that
is not made of words is a secret, unless it has a survivor shape (a UUID, a plain hex
digest, which only a secret label makes secret).
"""

from __future__ import annotations

import re

from toolhygiene._providers import by_head

__all__ = ["MIN_RUN", "Span", "find", "is_random"]

Span = tuple[int, int, str, int]
"""(start, end, placeholder name, priority)."""

MIN_RUN = 16
_LETTERS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
_SEPARATORS = b"/.=+~$"
# Byte views of the text: in the first a token character (separators included) is "a",
# anything else a space; in the second a separator is "/", anything else a space.
_TABLE = bytes(ord("a") if b in _LETTERS + _SEPARATORS else ord(" ") for b in range(256))
_SEPARATOR_TABLE = bytes(ord("/") if b in _SEPARATORS else ord(" ") for b in range(256))
# A run without a digit or a capital letter is words (``max_retries_exceeded``): no
# provider format and no random string of 16 characters or more looks like that.
_MIXED_TABLE = bytes(
    ord("D") if b in b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" else ord(" ") for b in range(256)
)
_RUN = b"a" * MIN_RUN
_HEADS = by_head()

_PIECES = re.compile(r"[^.=$~]{20,}")
_HEX = re.compile(r"[0-9a-f]{8,}|[0-9A-F]{8,}")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_TRANSITIONS = re.compile(r"[a-z](?=[A-Z0-9])|[A-Z](?=[a-z0-9])|[0-9](?=[A-Za-z])")
_WORDS = re.compile(r"[A-Z]?[a-z]{3,}|[A-Z]{3,}(?![a-z])")


def is_random(piece: str) -> bool:
    """Whether ``piece`` reads as random characters rather than words, paths, ids or a
    survivor shape: at least 20 characters, classes (lower, upper, digit) changing at
    least every third character, less than 80% of it in word-like runs."""
    kept = [p for p in piece.split("/") if not (_HEX.fullmatch(p) or _UUID.fullmatch(p))]
    text = "/".join(kept).strip("/-_+")
    size = len(text)
    if size < 20 or (text.isalpha() and (text.islower() or text.isupper())):
        return False
    if len(_TRANSITIONS.findall(text)) < 0.3 * size:
        return False
    return sum(map(len, _WORDS.findall(text))) < 0.8 * size


def _providers(text: str, view: bytes, begin: int, end: int, spans: list[Span]) -> int:
    """Provider credentials in the run ``text[begin:end]``; returns how many were found."""
    found = 0
    position = begin
    while position < end:
        entries = _HEADS.get(text[position : position + 2])
        if entries is not None:
            for name, pattern in entries:
                m = pattern.match(text, position, end)
                if m is not None:
                    spans.append((position, m.end(), name, 3))
                    found += 1
                    position = m.end()
                    break
        # a family can start only at the run's start or right after a separator
        position = view.find(b"/", position, end)
        if position == -1:
            break
        position += 1
    return found


def _runs(view: bytes) -> list[tuple[int, int]]:
    runs = []
    start = view.find(_RUN)
    while start != -1:
        begin = view.rfind(b" ", 0, start) + 1
        end = view.find(b" ", start)
        if end == -1:
            end = len(view)
        runs.append((begin, end))
        start = view.find(_RUN, end)
    return runs


def find(text: str, spans: list[Span]) -> None:
    """Add the spans of provider credentials and random-looking pieces in ``text``."""
    ascii_text = text.encode("ascii", "replace")
    runs = _runs(ascii_text.translate(_TABLE))
    if not runs:
        return
    separators = ascii_text.translate(_SEPARATOR_TABLE)
    mixed = ascii_text.translate(_MIXED_TABLE)
    for begin, end in runs:
        if mixed.find(b"D", begin, end) == -1:
            continue
        before = len(spans)
        _providers(text, separators, begin, end, spans)
        covered = spans[before:]
        if end - begin < 20:
            continue
        for m in _PIECES.finditer(text, begin, end):
            start, stop = m.span()
            if any(a < stop and start < b for a, b, _, _ in covered):
                continue
            piece = m.group().strip("/-_+")
            if is_random(piece):
                left = start + m.group().index(piece)
                spans.append((left, left + len(piece), "high-entropy", 1))
