"""Layer 5 of redaction: a secret redacted once is redacted wherever it is echoed.

The values are those redacted elsewhere in the same text and those known beforehand
(``_known``: the call's secret arguments, the environment's secrets). An echo is found
however it is written: in any case; URL-encoded (``%xx``, ``+`` for a space); base64
(standard or URL-safe, alone or inside a longer encoded blob such as a Basic credential
``user:secret``); hex; JSON-, Python- or HTML-escaped; wrapped over lines or with spaces
inserted. Every written form of every value goes into one Aho-Corasick automaton, which
reads once a view of the text in which case is folded, compatibility forms are ASCII
(``_normalise.compatible``) and whitespace and written line breaks (``\\n``) are left
out; a match is mapped back to the text as it was written. In that view (and in every
form of a value) a character is also read as what it is drawn or spelled as
(``_plain``, ``_expanded``): an accented letter as its base letter, a digit of any
script as its ASCII digit (``٢`` as ``2``), a dash of any kind as ``-`` (U+2011), a
Cyrillic or Greek letter drawn like a Latin one as that letter, a ligature as its
letters (``ﬁ`` as ``fi``), ``ß`` as ``ss``, and an HTML character reference as its
character (``&#104;``, ``&#x68;``, ``&lt;``).
"""

from __future__ import annotations

import base64
import bisect
import functools
import itertools
import json
import operator
import re
import unicodedata

from ahocorasick_rs import AhoCorasick, Implementation

from toolhygiene._normalise import compatible, latin_looking
from toolhygiene._text import valid

__all__ = ["forms", "gaps", "replace", "squeezed"]

# Combining marks (the accents of a decomposed letter, ``e`` + U+0300) are gaps too: an
# echo written in another Unicode normal form (NFC ``è``, NFD ``e\u0300``) or with its
# accents dropped or added is the same value (letters with an accent are read as their
# base letter: ``_plain``).
_MARKS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_GAP = re.compile(rf"(?:[ \t\r\n\f\v{_MARKS}]|\\{{1,2}}[nrt])+")
_GAP_SPLIT = re.compile(f"({_GAP.pattern})")
_MARK = re.compile(f"[{_MARKS}]")
_SPACES = " \t\r\n\f\v"
_DROP_SPACES = str.maketrans("", "", _SPACES)
# Byte views of an ASCII-encoded view: gap characters as spaces (the rest "x"), and the
# other way round; ``bytes.split()`` then gives the runs of each in C.
_SOLID = bytes(ord(" ") if chr(b) in _SPACES else ord("x") for b in range(256))
_HOLLOW = bytes(ord("x") if chr(b) in _SPACES else ord(" ") for b in range(256))
_SHORT = 8
"""A value shorter than this is found only written without a gap inside: a short
word with a space inserted is too likely to be prose."""
_BASE64_MIN = 8
_LONGEST = 256
"""Characters of a value whose forms are looked for: a longer value (a key file) is
found by its first 256, and the match then runs on as long as the text goes on equal."""


def _base64_forms(raw: bytes) -> list[str]:
    # Inside a longer blob the value starts at any of three byte offsets; the characters
    # that depend on the value's bytes alone are the ones between the first and the last
    # whole 6-bit group it covers.
    found = []
    for offset in range(3):
        encoded = base64.b64encode(bytes(offset) + raw).decode("ascii")
        first, last = -(-8 * offset // 6), 8 * (offset + len(raw)) // 6
        middle = encoded[first:last]
        if len(middle) >= _BASE64_MIN:
            found.append(middle)
            found.append(middle.replace("+", "-").replace("/", "_"))
    return found


@functools.lru_cache(maxsize=512)
def forms(value: str) -> tuple[str, ...]:
    """Every written form of ``value`` looked for, lowercased, without gaps."""
    # At the first known secret, not at import: urllib.parse brings ipaddress, html its
    # table of entities.
    import html
    from urllib.parse import quote, quote_plus

    # A value holding a lone surrogate (a decoded view's) is looked for as a valid
    # text shows it: every form below encodes it as UTF-8 (quote, base64, hex).
    value = valid(value)
    raw = value.encode("utf-8", "replace")
    written = {
        value,
        quote(value, safe=""),
        quote(value),
        quote_plus(value, safe=""),
        quote_plus(value),
        # URL-encoded twice and three times (a URL carried inside another's query), the
        # levels the engine decodes
        quote(quote(value, safe=""), safe=""),
        quote(quote(quote(value, safe=""), safe=""), safe=""),
        json.dumps(value)[1:-1],
        json.dumps(value, ensure_ascii=False)[1:-1],
        repr(value)[1:-1],
        html.escape(value),
        raw.hex(),
        *_base64_forms(raw),
    }
    # A backslash of the value next to a line break written out (``\\n``) is read as
    # part of the gap: the value without its backslashes is a form too.
    written.add(value.replace("\\", ""))
    if not value.isascii():  # its encodings in the other normal forms (``%CC%80``)
        for normal in ("NFC", "NFD"):
            other = unicodedata.normalize(normal, value)
            if other != value:
                written.update((quote(other, safe=""), quote_plus(other, safe="")))
    squeezed = {
        _GAP.sub("", _read(_plain(latin_looking(compatible(form)).lower()))) for form in written
    }
    return tuple(form for form in squeezed if len(form) >= 5)


def _read(view: str) -> str:
    """``view`` with what ``_expanded`` reads in it: a ligature as its letters, ``ß``
    as ``ss``, a character reference as its character."""
    expanded = _expanded(view)
    return view if expanded is None else expanded[0]


@functools.lru_cache(maxsize=4096)
def _base(char: str) -> str:
    """A character as an echo reads it, one for one: a letter with accents as its base
    letter (``è`` as ``e``), a decimal digit of any script as its ASCII digit (``٢``),
    a dash as ``-`` (``\u2011``, ``\u2212``); else itself. (A Cyrillic or Greek letter
    drawn like a Latin one is read as that letter before the view is lowercased:
    ``latin_looking``.)"""
    if unicodedata.category(char) == "Nd":
        return str(unicodedata.decimal(char))
    if unicodedata.category(char) == "Pd" or char == "\u2212":
        return "-"
    decomposed = unicodedata.normalize("NFD", char)
    if len(decomposed) > 1 and not _MARK.sub("", decomposed[1:]):
        return decomposed[0]
    return char


def _plain(view: str) -> str:
    """``view`` with each character read as ``_base`` reads it, one character for one
    (the combining marks of a letter written apart are gaps: ``_GAP``)."""
    if view.isascii():
        return view
    table = {ord(c): _base(c) for c in set(view) if not c.isascii()}
    return view.translate(table)


# What an echo reads as more than one character or one for several (``_expanded``): a
# ligature, ``ß`` (and capital ``ẞ``, ``Ĳ``, ``Ǆ``-``ǌ``, ``Ǳ``-``ǳ``), and an HTML
# character reference, decimal, hexadecimal or named (in a lowercased view).
# (Led by one class of its first characters, the reference's after its "&": ``re`` skips
# to one in a scan, where the alternation of "&" and a class was tried at every
# character, 1 ms on 100 KB.)
_EXPANDING = re.compile(
    "[&\u00df\u1e9e\u0132\u0133\u01c4-\u01cc\u01f1-\u01f3\ufb00-\ufb06]"
    "(?:(?<=&)(?:#(?:[0-9]{1,7}|x[0-9a-f]{1,6})|[a-z][a-z0-9]{1,31});?|(?<!&))"
)


@functools.lru_cache(maxsize=1024)
def _spelled(written: str) -> str:
    """What ``_EXPANDING``'s match ``written`` reads as, as the view spells it (lowercase,
    ``_plain``); ``written`` itself when it is no reference or none of one character."""
    if written[0] == "&":
        import html  # (at the first reference read, not at import: its table of entities)

        char = html.unescape(written)
        if len(char) != 1 or char == written:
            return written
        return _plain(compatible(char).lower())
    return _plain(unicodedata.normalize("NFKC", written).casefold())


class _Spelled:
    """Where the characters of ``_expanded``'s reading stand in the view it read: per
    change, where it starts in the reading (``at``), what it replaced in the view
    (``begin``, ``end``) and how many characters it spells (``width``)."""

    __slots__ = ("at", "begin", "end", "width")

    def __init__(self, found: list[tuple[int, int, str]]) -> None:
        self.at: list[int] = []
        self.begin = [begin for begin, _, _ in found]
        self.end = [end for _, end, _ in found]
        self.width = [len(spelled) for _, _, spelled in found]
        shift = 0
        for begin, end, spelled in found:
            self.at.append(begin + shift)
            shift += len(spelled) - (end - begin)

    def start(self, index: int) -> int:
        """Where the character at ``index`` of the reading starts in the view."""
        i = bisect.bisect_right(self.at, index) - 1
        if i < 0:
            return index
        if index < self.at[i] + self.width[i]:
            return self.begin[i]
        return self.end[i] + index - self.at[i] - self.width[i]

    def stop(self, index: int) -> int:
        """Where the character at ``index`` of the reading ends in the view."""
        i = bisect.bisect_right(self.at, index) - 1
        if i < 0:
            return index + 1
        if index < self.at[i] + self.width[i]:
            return self.end[i]
        return self.end[i] + index - self.at[i] - self.width[i] + 1


def _expanded(view: str) -> tuple[str, _Spelled] | None:
    """``view`` with every ``_EXPANDING`` match read as what it spells, and where each
    character of that reading stands in ``view``; ``None`` when nothing changes."""
    if view.isascii() and "&" not in view:
        return None
    found = [
        (m.start(), m.end(), spelled)
        for m in _EXPANDING.finditer(view)
        if (spelled := _spelled(m.group())) != m.group()
    ]
    if not found:
        return None
    parts: list[str] = []
    last = 0
    for begin, end, spelled in found:
        parts.append(view[last:begin])
        parts.append(spelled)
        last = end
    parts.append(view[last:])
    return "".join(parts), _Spelled(found)


def _view(text: str, seen: str | None = None) -> str:
    """``text`` as the automaton reads it (``seen``: ``compatible(text)``, when known)."""
    if seen is None:
        seen = compatible(text)
    seen = latin_looking(seen)  # (drawn like a Latin capital: read before lowercasing)
    lowered = seen.lower()
    if len(lowered) != len(text):  # only U+0130 lowercases to two characters
        lowered = seen.replace("\u0130", "i").lower()
    return _plain(lowered)


@functools.lru_cache(maxsize=64)
def _automaton(values: tuple[str, ...]) -> tuple[AhoCorasick, list[tuple[int, int]]]:
    """The automaton of every form of ``values`` and, per form, (value index, length of
    the value's shortest form: below ``_SHORT`` no gap may sit inside a match)."""
    patterns: dict[str, tuple[int, int]] = {}
    for index, value in enumerate(values):
        short = len(value) < _SHORT
        for form in forms(value[:_LONGEST]):
            patterns.setdefault(form, (index, int(short)))
    automaton = AhoCorasick(list(patterns), implementation=Implementation.ContiguousNFA)
    return automaton, list(patterns.values())


def squeezed(view: str) -> str:
    """``view`` without its gaps (``_GAP``): whitespace, combining marks, and line breaks
    written out."""
    if "\\" in view:
        return _GAP.sub("", view)
    if view.isascii():
        return view.translate(_DROP_SPACES)  # a table of ASCII deletions runs in C
    return _GAP.sub("", view)  # whitespace and combining marks


def gaps(view: str) -> tuple[list[int], list[int]]:
    """Per gap of ``view`` in order: where it sits in ``squeezed(view)``, and the
    characters left out up to and including it. Without a written line break the gaps
    are runs of whitespace, measured on a byte view in C: no match object per gap (a
    hostile text has one every few characters)."""
    if "\\" in view or (not view.isascii() and _MARK.search(view)):
        parts = _GAP_SPLIT.split(view)
        solid, hollow = list(map(len, parts[0::2])), list(map(len, parts[1::2]))
    else:
        raw = view.encode("ascii", "replace")  # one byte per character: same positions
        solid = list(map(len, raw.translate(_SOLID).split()))
        hollow = list(map(len, raw.translate(_HOLLOW).split()))
        if raw[:1].isspace() or not raw:
            solid.insert(0, 0)  # a gap first: the text before it is empty
    return list(itertools.accumulate(solid[: len(hollow)])), list(itertools.accumulate(hollow))


_START = operator.itemgetter(1)
_END = operator.itemgetter(2)


def replace(
    text: str, values: tuple[str, ...], names: tuple[str, ...], seen: str | None = None
) -> str:
    """``text`` with every echo of ``values[i]`` replaced by the placeholder
    ``names[i]``; ``text`` itself when there is none. ``seen``: ``compatible(text)``,
    when the caller has it."""
    if not values:
        return text
    automaton, owners = _automaton(values)
    view = _view(text, seen)
    expanded = _expanded(view)
    if expanded is not None:  # ``ﬁ``, ``ß``, ``&#104;``: read as what they spell
        view, spelled = expanded
    matches = automaton.find_matches_as_indexes(valid(squeezed(view)), overlapping=True)
    if not matches:
        return text
    at, removed = gaps(view)

    def original(index: int) -> int:
        before = bisect.bisect_right(at, index) - 1
        return index + (removed[before] if before >= 0 else 0)

    # By start, the longest first (two stable sorts keyed in C, not a key tuple a match)
    matches.sort(key=_END, reverse=True)
    matches.sort(key=_START)
    starts = list(map(_START, matches))
    parts: list[str] = []
    last = 0
    # Where the last match taken ends in the squeezed view, while ``last`` is at least
    # that end's place in ``text``: ``original`` is increasing, so a match starting
    # before it starts before ``last`` (an echo repeated back to back overlaps itself
    # at every character: those are passed over in one step, unread).
    taken = 0
    at_match, count = 0, len(matches)
    while at_match < count:
        number, start, end = matches[at_match]
        at_match += 1
        if start < taken:
            at_match = bisect.bisect_left(starts, taken, at_match)
            continue
        begin, stop = original(start), original(end - 1) + 1
        index, short = owners[number]
        if short and stop - begin != end - start:
            continue
        if expanded is not None:  # back to the text as it was written
            begin, stop = spelled.start(begin), spelled.stop(stop - 1)
        if begin < last:
            continue
        value = values[index]
        if len(value) > _LONGEST and text.startswith(value, begin):
            whole = begin + len(value)
            taken = end if whole >= stop else taken
            stop = whole
        else:
            taken = end
        parts.append(text[last:begin])
        parts.append(names[index])
        last = stop
    if not parts:
        return text
    parts.append(text[last:])
    return "".join(parts)
