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

import functools
import re

from toolhygiene._providers import by_head

__all__ = ["MIN_RUN", "PROVIDER_RANK", "Span", "find", "is_random"]

Span = tuple[int, int, str, int]
"""(start, end, placeholder name, priority)."""
PROVIDER_RANK = 3
"""The priority of a span in a provider's published credential format."""

MIN_RUN = 16
_LETTERS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
_SEPARATORS = b"/.=+~$"
# A byte view of the text: a token character (separators included) is "a", anything
# else a space.
_TABLE = bytes(ord("a") if b in _LETTERS + _SEPARATORS else ord(" ") for b in range(256))
# A run with fewer than three digits or capital letters is words and paths
# (``//api.example.com/v1/orders``): no random string of 16 characters or more looks like
# that, and ``is_random`` could not say yes (it needs a class change every third
# character, and each such character makes at most two).
_MIXED_TABLE = bytes(
    ord("D") if b in b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" else ord(" ") for b in range(256)
)
_RUN = b"a" * MIN_RUN
_MIXED_MIN = 3

_PIECES = re.compile(r"[^.=$~]{20,}")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
# Character classes as bytes (lower "l", upper "u", digit "d", anything else "o"): the
# class changes are then six substring counts, and word-like runs one bytes regex.
_CLASSES = bytes(
    ord("l")
    if chr(b).islower() and b < 128
    else ord("u")
    if chr(b).isupper() and b < 128
    else ord("d")
    if chr(b).isdigit() and b < 128
    else ord("o")
    for b in range(256)
)
_CHANGES = (b"lu", b"ld", b"ul", b"ud", b"dl", b"du")
_WORDS = re.compile(rb"u?l{3,}|u{3,}(?!l)")


def _survivor(part: str) -> bool:
    return (len(part) >= 8 and (not part.strip(_LOWER_HEX) or not part.strip(_UPPER_HEX))) or (
        _UUID.fullmatch(part) is not None
    )


_LOWER_HEX = "0123456789abcdef"
_UPPER_HEX = "0123456789ABCDEF"


def is_random(piece: str) -> bool:
    """Whether ``piece`` reads as random characters rather than words, paths, ids or a
    survivor shape: at least 20 characters, classes (lower, upper, digit) changing at
    least every third character, less than 80% of it in word-like runs."""
    if "/" in piece:
        text = "/".join(p for p in piece.split("/") if not _survivor(p)).strip("/-_+")
    elif _survivor(piece):
        return False
    else:
        text = piece
    size = len(text)
    if size < 20 or (text.isalpha() and (text.islower() or text.isupper())):
        return False
    classes = text.encode("ascii", "replace").translate(_CLASSES)
    if sum(map(classes.count, _CHANGES)) < 0.3 * size:
        return False
    return sum(map(len, _WORDS.findall(classes))) < 0.8 * size


@functools.cache
def _index() -> tuple[dict[str, list[tuple[str, re.Pattern[str]]]], re.Pattern[str]]:
    """The families by head (``by_head``) and any family's first two characters at a
    boundary, grouped by the first one; compiled at the first redaction, not at import."""
    heads = by_head()
    seconds: dict[str, set[str]] = {}
    for head in heads:
        seconds.setdefault(head[0], set()).add(head[1])
    branches = (
        re.escape(first) + "[" + "".join(re.escape(c) for c in sorted(rest)) + "]"
        for first, rest in sorted(seconds.items())
    )
    return heads, re.compile(r"(?<![A-Za-z0-9_\-])(?:" + "|".join(branches) + ")")


def _providers(text: str, begin: int, end: int, spans: list[Span]) -> None:
    """Provider credentials in the run ``text[begin:end]``, tried where a family can
    start: at the run's start or right after a separator."""
    heads, pattern = _index()
    reach = begin
    for head in pattern.finditer(text, begin, end):
        position = head.start()
        if position < reach:
            continue
        for name, family in heads[head.group()]:
            m = family.match(text, position, end)
            if m is not None:
                spans.append((position, m.end(), name, PROVIDER_RANK))
                reach = m.end()
                break


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
    mixed = ascii_text.translate(_MIXED_TABLE)
    for begin, end in runs:
        if mixed.count(b"D", begin, end) < _MIXED_MIN:
            continue
        before = len(spans)
        _providers(text, begin, end, spans)
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
