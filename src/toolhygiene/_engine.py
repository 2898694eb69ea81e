"""The redaction engine: every layer over normalised text, then echoes.

``scrub`` finds spans with the context detectors (``_detectors``, user ones from
``_registry``) and the token layers (``_tokens``), merges overlapping spans into one
placeholder named by the most specific finder, and then (layer 5, echo) replaces every
other occurrence of a value it redacted. Before that, text that hides a secret from a
single pass is looked at again in the form that reveals it: a token wrapped over two
lines is joined when the join is a secret; URL-encoded runs and JSON string literals
with escapes are decoded, scrubbed, and put back decoded (URL) or re-encoded (JSON)
where they held something, each level of escaping in turn (a JSON body inside a JSON
string, URL-encoded inside JSON: ``_LEVELS`` deep). Characters written out as HTML
entities (``&#83;``, ``&quot;``) or escapes (``\\x53``, ``\\u043f``) anywhere in the text
are read as the characters they write: the detectors run over that view, and what they
find is cut out of the text as written.

``scrub`` returns the very object it was given when it found nothing, so callers can
tell "nothing here" without comparing strings.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import json
import operator
import re
import string
import unicodedata
from collections.abc import Callable
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import TYPE_CHECKING, Any

from ahocorasick_rs import AhoCorasick, BytesAhoCorasick, Implementation

from toolhygiene import _config, _known, _registry, _tables, _tokens
from toolhygiene import _echo as _echo_layer
from toolhygiene._edges import exact
from toolhygiene._labels import (
    cookie_values,
    literal_before_reference,
    own_line,
)
from toolhygiene._markup import demarked
from toolhygiene._normalise import MARKS, compatible, normalise, unconfused
from toolhygiene._public import PEM, PGP, clip, may_hold_public, public_ranges
from toolhygiene._put_back import encoded_back, simply_unquoted
from toolhygiene._text import lowered_once, valid
from toolhygiene._tokens import Span
from toolhygiene._words import placeholder

if TYPE_CHECKING:
    from toolhygiene._detectors import Detector

__all__ = ["scrub"]

_PRIORITY = {"secret": 2, "email": 0, "internal": 0}
_ECHO_MIN = 5
_ECHO_MAX = 64
_PASSPHRASE_MAX = 400
_PASSPHRASE_WORDS = 17
"""The longest passphrase whose shorter echoes (its first words) are looked for: the
labelled-values layer takes at most 17 words."""


_PLACEHOLDERS = {
    name: placeholder(name) for name in ("secret", "high-entropy", "credentials", "email")
}
_DENSE = 512
"""Needle occurrences past which one scan of the whole text beats a match at each."""


class _Plan:
    """Every detector, with all their needles in one Aho-Corasick automaton: one pass over
    the text says which detectors can match at all, and where anchored ones begin."""

    def __init__(self, detectors: tuple[Detector, ...], users: int = 0) -> None:
        self.detectors = detectors
        self.user_from = len(detectors) - users
        """The index of the first user detector (``add_redaction``): those read windows."""
        self.groups: list[str | int] = [
            "secret" if "secret" in d.pattern.groupindex else 0 for d in detectors
        ]
        needles: dict[str, list[int]] = {}
        for index, detector in enumerate(detectors):
            for needle in detector.gate:
                needles.setdefault(needle, []).append(index)
        self.owners = [tuple(owners) for owners in needles.values()]
        self.automaton = AhoCorasick(list(needles)) if needles else None
        # The same needles over an ASCII text's bytes (a character a byte: the same
        # matches at the same places), a DFA: a third cheaper on a short line.
        self.ascii_automaton = (
            BytesAhoCorasick(
                [needle.encode("utf-8", "surrogatepass") for needle in needles],
                implementation=Implementation.DFA,
            )
            if needles
            else None
        )
        self.always = tuple(i for i, d in enumerate(detectors) if not d.gate)

    def hits(self, lowered: str) -> dict[int, list[int]]:
        """Detector index -> where its needles occur (ungated detectors: no positions)."""
        found: dict[int, list[int]] = {i: [] for i in self.always}
        if self.automaton is None or self.ascii_automaton is None:
            return found
        if lowered.isascii():
            matches = self.ascii_automaton.find_matches_as_indexes(
                lowered.encode("ascii"), overlapping=True
            )
        else:
            # A decoded view can hold lone surrogates; the matcher takes only valid UTF-8
            # (one character replaced by one: positions stay).
            matches = self.automaton.find_matches_as_indexes(valid(lowered), overlapping=True)
        matches.sort(key=_FIRST)
        if len(matches) <= _FEW_HITS:  # a short line's few: one step each (same order)
            owners = self.owners
            for number, start, _ in matches:
                for index in owners[number]:
                    found.setdefault(index, []).append(start)
            return found
        # Hostile or repetitive text has tens of thousands: grouped by needle in C (a
        # stable sort by needle, then one slice of positions per needle found).
        numbers = list(map(_FIRST, matches))
        positions = list(map(_SECOND, matches))
        low, count = 0, len(numbers)
        while low < count:
            number = numbers[low]
            high = bisect.bisect_right(numbers, number, low)
            at = positions[low:high]
            for index in self.owners[number]:
                found.setdefault(index, []).extend(at)
            low = high
        return found


_FEW_HITS = 16
"""Needle occurrences up to which ``_Plan.hits`` groups them one by one in Python."""
_FIRST = operator.itemgetter(0)
_SECOND = operator.itemgetter(1)


_current: list[tuple[tuple[Detector, ...], _Plan]] = []


def _plan() -> _Plan:
    """The plan for the built-in detectors and the user's current ones (rebuilt only when
    the user's change: ``_registry`` replaces its tuple on every change)."""
    user = _registry.user_detectors()
    if _current and _current[0][0] is user:
        return _current[0][1]
    # Imported here: its patterns compile at the first redaction, not with toolhygiene.
    from toolhygiene._detectors import BUILT_IN

    plan = _Plan((*BUILT_IN, *user), len(user))
    _current[:] = [(user, plan)]
    return plan


@functools.cache
def _back_table(chars: str) -> bytes:
    """A byte view's table: a character of ``chars`` is "a", anything else a space."""
    allowed = chars.encode("ascii")
    return bytes(ord("a") if b in allowed else ord(" ") for b in range(256))


def _starts(detector: Detector, text: str, needles: list[int], ascii_text: bytes) -> list[int]:
    """Where an anchored detector's matches may begin: at each needle, or up to ``back``
    characters before it over ``back_chars``. Found on a byte view (``back_chars`` as
    "a", the rest spaces) with one ``rfind`` per needle. A start is never after its
    needle, and the starts of needles in order are in order."""
    return _starter(detector, text, ascii_text)(needles)


def _starter(detector: Detector, text: str, ascii_text: bytes) -> Callable[[list[int]], list[int]]:
    """``_starts`` for one detector in one text, as a function of some of its needles
    (the byte view made once)."""
    back, back_chars = detector.back, detector.back_chars
    if not back:
        return _themselves
    if not back_chars.isascii():
        return functools.partial(_starts_slowly, detector, text)
    rfind = ascii_text.translate(_back_table(back_chars)).rfind
    escaped = "\\" in text

    def starts(needles: list[int]) -> list[int]:
        found = [
            rfind(b" ", at - back if at > back else 0, at) + 1 or (at - back if at > back else 0)
            for at in needles
        ]
        if not escaped:
            return found
        # a line break written out in a repr just before: the key starts after it
        return [s + 1 if s and text[s - 1] == "\\" and text[s] in "nrt" else s for s in found]

    return starts


def _themselves(needles: list[int]) -> list[int]:
    return needles


def _starts_slowly(detector: Detector, text: str, needles: list[int]) -> list[int]:
    """``_starts`` one slice at a time: for ``back_chars`` beyond ASCII, and the
    reference the tests compare with."""
    back, back_chars = detector.back, detector.back_chars
    starts = []
    for at in needles:
        before = text[max(0, at - back) : at]
        start = at - (len(before) - len(before.rstrip(back_chars)))
        if start and text[start - 1] == "\\" and text[start] in "nrt":
            start += 1  # a line break written out in a repr: the key starts after it
        starts.append(start)
    return starts


_WINDOW = _registry.WINDOW
"""A user's pattern reads the text in windows of twice this many characters, each
starting this many after the last: a match of up to this length is found wherever it
stands, and a search costs at most a window's worth from each start (a pattern that
re-reads the rest of the text from every start, ``\\w*!``, costs 0.6 s on 64 KB,
not 19 s)."""


def _windowed(pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
    """``pattern``'s matches in ``text``, read a window at a time (``_WINDOW``). A match
    the window's end cut short is followed to its end; one the next window holds whole
    is left to it."""
    size = len(text)
    if size <= 2 * _WINDOW:
        return list(pattern.finditer(text))
    found: list[re.Match[str]] = []
    for start in range(0, size - _WINDOW, _WINDOW):
        end = min(start + 2 * _WINDOW, size)
        for m in pattern.finditer(text, start, end):
            if m.end() == end < size:
                if m.start() >= start + _WINDOW:
                    continue  # the next window reads it whole
                whole = pattern.match(text, m.start(), min(size, m.start() + _FOLLOWED))
                found.append(whole or m)
                continue
            found.append(m)
    return found


_FOLLOWED = 8 * _WINDOW
"""How far a user's match cut by its window's end is followed."""


def _matches(
    detector: Detector, text: str, needles: list[int], ascii_text: bytes, *, user: bool = False
) -> list[re.Match[str]]:
    """The matches of an anchored detector, tried at each distinct start in order. The
    needles inside the last match are skipped in one step, their starts unread: a
    start is never after its needle, so theirs are inside it too (found a few needles
    at a time, so that few are found in vain)."""
    pattern = detector.pattern
    if user:
        return _windowed(pattern, text)
    if not detector.anchored:
        if detector.finder is not None:
            return detector.finder(text)
        return list(pattern.finditer(text))
    if detector.scan and len(needles) > _DENSE:
        return list(pattern.finditer(text))
    needles = sorted(needles)
    starts = _starter(detector, text, ascii_text)
    match = pattern.match
    found = []
    reach = tried = -1
    index, count = 0, len(needles)
    while index < count:
        if needles[index] < reach:  # inside the last match: its needles are part of it
            index = bisect.bisect_left(needles, reach, index)
            continue
        some = needles[index : index + _SOME]
        index += _SOME
        for start in starts(some):  # in order: a start tried is never met again later
            if start < reach or start == tried:
                continue
            tried = start
            m = match(text, start)
            if m is not None:
                found.append(m)
                reach = m.end()
    return found


_SOME = 32
"""Needles whose starts are found at once."""


def _detect(
    written: str,
    internals: bool,
    tokens: list[Span] | None = None,
    hits: dict[int, list[int]] | None = None,
    seen: str | None = None,
) -> list[Span]:
    """Spans of ``written`` to redact, found in its compatibility view (full-width
    letters read as ASCII, words spelled in Latin look-alikes as Latin: same positions,
    so the spans cut the text as written); ``tokens``: its token spans, ``hits``: the
    plan's hits in it, ``seen``: its compatibility view, when they were found already."""
    spans: list[Span] = []
    # ``pаssword`` (Cyrillic ``а``) read as Latin, markup around a label as blanks
    text = demarked(unconfused(compatible(written) if seen is None else seen))
    ascii_text = text.encode("ascii", "replace")  # one byte per character
    emails = _config.settings.redact_emails
    plan = _plan()
    if hits is None:
        lowered = text.lower()
        if len(lowered) != len(text):  # only U+0130 lowercases to two characters
            lowered = text.replace("\u0130", "i").lower()
        hits = plan.hits(lowered)
    else:
        lowered = ""  # made when a detector's words (``Detector.also``) are looked for
    for index, needles in sorted(hits.items()):
        detector = plan.detectors[index]
        if detector.also:  # none of the words every match holds besides its needle: skip
            lowered = lowered or text.lower()
            if not any(word in lowered for word in detector.also):
                continue
        if not _searched(detector, text, internals, emails):
            continue
        check, group, rank = detector.check, plan.groups[index], _PRIORITY[detector.kind]
        judged_by, extend, name = detector.judged_by, detector.extend, detector.name
        verdicts: dict[tuple[str | Any, ...], bool] = {}
        covered = -1  # where this detector's last extended value ended
        found = _matches(detector, text, needles, ascii_text, user=index >= plan.user_from)
        inner = detector.inner
        rejected: list[re.Match[str]] = []  # (matches inside a rejected one, last first)
        at = 0
        while rejected or at < len(found):
            # (one level: a match inside a rejected one hides none itself)
            m, nested = (rejected.pop(), True) if rejected else (found[at], False)
            at += not nested
            if m.start() < covered:
                continue  # inside a value already extended over it (a block, a passphrase)
            if check is not None and not _verdict(check, judged_by, verdicts, m):
                if inner is not None and not nested:  # a label in its value: judged too
                    rejected.extend(reversed(inner(m)))
                continue
            (start, stop), end = m.span(group), m.end(group)
            if text[end - 1] in "\"']" and end - start >= 2:  # (the rarer test first)
                start, end = _unwrapped(text, start, end)
            if extend is not None and end == stop:
                end = covered = extend(text, end)
            if start < end:
                spans.append((_opened(text, start, stop, end), end, name, rank))
    if "\n" in text or "\\n" in text:  # a table's header names a secret column
        _tables.secret_cells(text, spans, _PRIORITY["secret"])
    if tokens is None:
        _tokens.find(text, spans)
    else:
        spans.extend(tokens)
    return _cookie_pairs(text, spans)


def _cookie_pairs(text: str, spans: list[Span]) -> list[Span]:
    """(leak21) A span over a cookie string holding a display preference (a HAR's
    ``{"name": "Cookie", "value": "sid=v; theme=dark"}``, a ``Cookie:`` header) becomes
    a span over each other pair's value (``_labels.cookie_values``), named as it was:
    the preferences and the names stay, and no other span inside the string is kept.
    Returns ``spans``, changed in place."""
    if ";" not in text:
        return spans
    regions: list[tuple[int, int]] = []
    values: list[Span] = []
    for start, end, name, rank in spans:
        if end - start < 8 or text.find(";", start, end) == -1 or text.find("=", start, end) == -1:
            continue
        found = cookie_values(text, start, end)
        if found is not None:
            regions.append((start, end))
            values.extend((begin, stop, name, rank) for begin, stop in found[0])
    if regions:
        regions.sort()
        begins = [begin for begin, _ in regions]
        spans[:] = [span for span in spans if not _overlaps(regions, begins, span)]
        spans.extend(values)
    return spans


def _overlaps(kept: list[tuple[int, int]], begins: list[int], span: Span) -> bool:
    """Whether ``span`` overlaps one of ``kept`` (sorted; ``begins``: theirs)."""
    at = bisect.bisect_left(begins, span[1]) - 1
    return at >= 0 and kept[at][1] > span[0]


def _verdict(
    check: Callable[[re.Match[str]], bool],
    judged_by: tuple[str, ...],
    verdicts: dict[tuple[str | Any, ...], bool],
    m: re.Match[str],
) -> bool:
    """``check(m)``; given ``judged_by``, once per text for the same values of those
    groups (kept in ``verdicts``)."""
    if not judged_by:
        return check(m)
    values = m.group(*judged_by)
    verdict = verdicts.get(values)
    if verdict is None:
        verdict = verdicts[values] = check(m)
    return verdict


def _opened(text: str, start: int, stop: int, end: int) -> int:
    """Where a value extended from ``stop`` to ``end`` starts: at the bracket before it
    when the extension closed that bracket ("password: (empty) Pa55": the ``(`` goes
    with the rest, no ``(`` left open before the placeholder)."""
    if end <= stop or not start:
        return start
    closer = _CLOSERS.get(text[start - 1])
    return start - 1 if closer is not None and closer in text[stop:end] else start


_CLOSERS = {"(": ")", "[": "]", "{": "}", "<": ">"}


def _searched(detector: Detector, text: str, internals: bool, emails: bool) -> bool:
    """Whether ``_detect`` looks for ``detector`` in ``text`` (a compatibility view): it
    finds a kind this scrub redacts, and ``text`` holds the character every match of it
    needs (a URL with no "@" holds no credentials) and its screen is found in it."""
    kind = detector.kind
    if kind != "secret" and not (internals and (emails or kind != "email")):
        return False
    if detector.requires and detector.requires not in text:
        return False
    return detector.screen is None or detector.screen.search(text) is not None


def _unwrapped(text: str, start: int, end: int) -> tuple[int, int]:
    """A quoted value's span without its quotes (``_inside_quotes``; a literal glued
    before a reference, without the reference: ``_labels.literal_before_reference``), a
    list of one quoted item's without its brackets and quotes (``_quoted_item``); else
    the same span."""
    if text[end - 1] != "]":
        start, end = _inside_quotes(text, start, end)
        if text[end - 1] in "}srd" and end - start > 4:  # (leak21) ``"v${REF}"``: to the
            end = literal_before_reference(text, start, end)  # reference
        return start, end
    if text[start] == "[" and text[end - 2] in " \t\"'":
        return _quoted_item(text, start, end)
    return start, end


def _quoted_item(text: str, start: int, end: int) -> tuple[int, int]:
    """A list of one quoted item's span (``["v"]``, ``[ 'v' ]``) without its brackets and
    quotes: a list in JSON or a dict repr stays a list of one string."""
    inner = text[start + 1 : end - 1].strip(" \t")
    if len(inner) < 2 or inner[0] not in "\"'" or inner[-1] != inner[0]:
        return start, end
    at = text.index(inner, start + 1)
    return _inside_quotes(text, at, at + len(inner))


def _inside_quotes(text: str, start: int, end: int) -> tuple[int, int]:
    """A quoted value's span without its quotes (and their escapes), so that the
    placeholder stays a string in JSON, a dict repr or escaped JSON; a TOML string in
    triple quotes without all three)."""
    if (
        end - start >= 7
        and text.startswith(('"""', "'''"), start)
        and text.startswith(text[start : start + 3], end - 3)
    ):
        start, end = start + 3, end - 3
        # (leak21) without the line breaks written out around its text (a repr's
        # ``\'\'\'\\nv\\n\'\'\'``) and the backslashes that continue its lines
        while end - start > 2 and (text.startswith("\\n", start) or text[start] in " \t\\"):
            start += 2 if text.startswith("\\n", start) else 1
        while end - start > 2 and (text.endswith("\\n", start, end) or text[end - 1] in " \t\\"):
            end -= 2 if text.endswith("\\n", start, end) else 1
        return start, end
    if end - start >= 2 and text[end - 1] in "\"'" and text[start] in "\"'\\":
        value = text[start:end]
        inner = value.lstrip("\\")
        if inner[:1] == value[-1]:
            left = start + len(value) - len(inner) + 1
            right = end - 1 - (len(value[:-1]) - len(value[:-1].rstrip("\\")))
            if left <= right:
                return left, right
    return start, end


_START = operator.itemgetter(0)
_END = operator.itemgetter(1)


def _merge(spans: list[Span]) -> list[Span]:
    # By start, the longest first: two stable sorts keyed in C, not a key tuple a span.
    spans.sort(key=_END, reverse=True)
    spans.sort(key=_START)
    merged: list[Span] = []
    for span in spans:
        if merged and span[0] < merged[-1][1]:
            start, end, name, rank = merged[-1]
            better = span[3] > rank or (span[3] == rank and span[1] - span[0] > end - start)
            merged[-1] = (start, max(end, span[1]), span[2] if better else name, max(rank, span[3]))
        else:
            merged.append(span)
    return merged


def _apply(
    text: str, spans: list[Span], seen: str | None = None
) -> tuple[str, dict[str, str], str | None]:
    """``text`` with the spans replaced by placeholders, the values to echo, and (given
    ``seen``, the compatibility view of ``text``) the same view of the result: the view
    is made character by character and placeholders are ASCII, so the view's own slices
    with the same placeholders are it, without a second pass over the text beyond
    ASCII (``compatible`` looks each such character up: 3 ms for 64 KB)."""
    parts: list[str] = []
    values: dict[str, str] = {}
    names: dict[str, str] = {}  # each name's placeholder
    done: set[str] = set()  # values whose echoes are in ``values`` already
    allowing = _registry.allows_any()
    last = 0
    merged = _merge(exact(text, spans))
    if "%" in text:
        merged = _whole_escapes(text, merged)
    for start, end, name, rank in merged:
        if allowing and _allowed(text, start, end, rank, name):
            continue
        parts.append(text[last:start])
        shown = names.get(name)
        if shown is None:
            shown = names[name] = _PLACEHOLDERS.get(name) or placeholder(name)
        parts.append(shown)
        last = end
        if rank <= 0 or len(values) >= _ECHO_MAX:
            continue  # (the value itself is read only past this)
        bare = text[start:end].strip("\\\"'` ")
        if len(bare) >= _ECHO_MIN and bare not in done:
            done.add(bare)  # the same value again adds nothing: each echo is set once
            values.setdefault(bare, name)
            if " " in bare and len(bare) <= _PASSPHRASE_MAX:
                # A passphrase run past its end: its echo may stop sooner.
                words = bare.split()
                for count in range(min(len(words) - 1, _PASSPHRASE_WORDS), 2, -1):
                    values.setdefault(" ".join(words[:count]), name)
            if "\\" in bare:  # a quoted value with escapes: its echoes are of what it means
                values.setdefault(_unescaped(bare), name)
    parts.append(text[last:])
    # A value that is part of a placeholder ("secret") would break it when echoed.
    shown = "".join(names.values())
    echoes = {v: n for v, n in values.items() if "[" not in v and "]" not in v and v not in shown}
    out = "".join(parts)
    if seen is None or seen is text:  # (a text that is its own view: so is the result)
        return out, echoes, None if seen is None else out
    if allowing:
        return out, echoes, None  # a span may have been kept: the view is made again
    # the view's slices between the same spans, with the same placeholders
    seen_parts, last = [], 0
    for start, end, name, _ in merged:
        seen_parts.append(seen[last:start])
        seen_parts.append(names[name])
        last = end
    seen_parts.append(seen[last:])
    return out, echoes, "".join(seen_parts)


def _allowed(text: str, start: int, end: int, rank: int, name: str) -> bool:
    """Whether ``text[start:end]`` is allow-listed (``never_redact``), as written or
    as it reads decoded (URL-encoded, or with characters written out: ``\\u003d``,
    ``&#61;``): an allowed value inside an encoded run is itself, whether the span holds
    escapes or the hex digits an escape left before it (``%253DAKIA…`` encoded twice:
    the value is read from after ``3D``)."""
    value = text[start:end]
    provider, labelled = rank >= _tokens.PROVIDER_RANK, name != "high-entropy"
    if _registry.allowed(value, provider=provider, labelled=labelled):
        return True
    if ("&" in value or "\\" in value) and _registry.allowed(
        _written_out(value), provider=provider, labelled=labelled
    ):
        return True
    if "%" not in text[max(0, start - 9) : end]:
        return False
    decoded = _url_decoded(value)
    if decoded != value and _registry.allowed(decoded, provider=provider, labelled=labelled):
        return True
    for cut in range(1, min(7, len(value))):
        if value[cut - 1] not in string.hexdigits:
            break
        if _registry.allowed(value[cut:], provider=provider, labelled=labelled):
            return True
    return False


_ESCAPE_AT = re.compile(r"%[0-9A-Fa-f]{2}")


def _whole_escapes(text: str, spans: list[Span]) -> list[Span]:
    """``spans`` with none splitting a URL escape: a span that starts on the hex digits
    of one (``%3DAKIA…``: a token is read from the character after ``%``) starts after
    it, the escape staying as written (``id%3D[redacted:…]``, never ``id%[redacted:…]``);
    one that ends inside one ends before it."""
    out: list[Span] = []
    for begin, stop, name, rank in spans:
        start, end = begin, stop
        if start >= 1 and _ESCAPE_AT.match(text, start - 1) and start + 2 < end:
            start += 2
        elif start >= 2 and _ESCAPE_AT.match(text, start - 2) and start + 1 < end:
            start += 1
        for back in (1, 2):
            at = end - back
            if at > start and _ESCAPE_AT.match(text, at) and at + 3 > end:
                end = at
                break
        out.append((start, end, name, rank))
    return out


def _unescaped(value: str) -> str:
    try:
        decoded = json.loads(f'"{value}"')
    except ValueError:
        return value
    return decoded if isinstance(decoded, str) else value


def _echo(
    text: str,
    echoes: dict[str, str],
    seeds: tuple[str, ...] | None = None,
    seen: str | None = None,
) -> str:
    """Layer 5: every echo of a value redacted in this text or known beforehand
    (``seeds``: the known values, ``seen``: the compatibility view of ``text``, when read
    already)."""
    if seeds is None:
        seeds = _known.current()
    if not echoes and not seeds:
        return text
    values = (*echoes, *(seed for seed in seeds if seed not in echoes))
    names = (
        *(placeholder(name) for name in echoes.values()),
        *(placeholder("secret") for _ in range(len(values) - len(echoes))),
    )
    return _echo_layer.replace(text, values, names, seen)


# The token before the break is read atomically (a lookahead, then its backreference):
# what follows it is a blank or a break, never a token character, so giving characters
# back could never help, and was tried at every token's start (4.8 -> 2.9 ms over 64 KB
# of log lines).
_WRAPPED = (
    r"(?=([A-Za-z0-9_\-+/=.]{8,4096}))\1"
    r"([ \t]{0,40}(?:\r?\n|(?:\\{1,2}r)?\\{1,2}n)[ \t]{0,40}"
    # or a line break URL-encoded that stays as written (``_bytes_of``)
    r"|%0[Dd](?!%0[Aa])|%0[BbCc]|%[Cc]2%85|%[Ee]2%80%[Aa][89])"
    r"(?=([A-Za-z0-9_\-+/=.]{4,4096}))"
)
_WRAP = re.compile(r"(?<![A-Za-z0-9_\-+/=.])" + _WRAPPED)
_WRAP_ON = re.compile(_WRAPPED)
"""A wrap that starts where the last one's break ended: a third line after a break
written out (``\\n``) or encoded (``%0B``), whose last character is a token's."""


def _wraps(text: str) -> list[re.Match[str]]:
    """The wraps in ``text``, in order, each line of a token wrapped over several."""
    found = list(_WRAP.finditer(text))
    if not any(m.group(2)[-1:] not in _BLANK_END for m in found):
        return found  # every break ends in a blank: ``_WRAP`` finds each next line itself
    chained: dict[int, re.Match[str]] = {m.start(2): m for m in found}
    for m in found:
        at = m.end(2)
        while text[at - 1 : at] not in _BLANK_END:
            more = _WRAP_ON.match(text, at)
            if more is None or more.start(2) in chained:
                break
            chained[more.start(2)] = more
            at = more.end(2)
    return [chained[at] for at in sorted(chained)]


_BLANK_END = frozenset(" \t\n\r")


def _continues(text: str, run: str, end: int, before: str = "") -> bool:
    """Whether ``run``, the start of the line after a break (``end`` is where it stops
    in ``text``), can be the rest of a token wrapped over the break: not a word or a
    number a reader would take as the next line's text, not a key (``run:``), and not a
    line of marks (``....``, ``----``)."""
    return text[end : end + 1] != ":" and not own_line(text, run, end, before)


def _without(text: str, cuts: list[tuple[int, int]]) -> str:
    parts, last = [], 0
    for start, end in cuts:
        parts.append(text[last:start])
        last = end
    parts.append(text[last:])
    return "".join(parts)


def _line_break_before(text: str, start: int) -> int:
    """Where the blanks and the line break before ``start`` begin (``start`` when none)."""
    at = start
    while at > 0 and text[at - 1] in " \t":
        at -= 1
    if at > 0 and text[at - 1] == "\n":
        at -= 1
        while at > 0 and text[at - 1] in " \t\r":
            at -= 1
    return at


def _unwrap(text: str, *, every_run: bool = False, internals: bool = True) -> str:
    """Join a token wrapped over lines where the joined token is a secret.

    Every wrap point is joined in one view, the token layers and the user's own rules
    (``add_redaction``: a rule's match is a token as a built-in one is) run once over
    it, and only the joins that a found secret crosses are kept: so only the runs of
    that view with a join inside are looked at (``every_run``: all of them, the slow
    path). ``internals``: whether a user's rule for internals counts (only when the
    scrub redacts them: a join no placeholder replaces would change the text).

    A line that starts with a word or a number is no token's rest for the token layers
    (a reader takes it as the next line's text); for a user's rule it is, when the
    rule matches across the break (``acme_…0123`` then ``4567``: the pattern says what
    its token is made of)."""
    found = _wraps(text)
    wraps = [(m.span(2), m[3], m.end(2) + len(m[3])) for m in found]
    users = bool(wraps) and _user_rules(internals)
    cuts = [
        cut
        for (cut, run, end), m in zip(wraps, found, strict=True)
        if _continues(text, run, end, m[1])
    ]
    # (not before a key, ``run:``, for a user's rule either)
    loose = [cut for cut, _, end in wraps if users and text[end : end + 1] != ":"]
    if not cuts and not loose:
        return text
    tables = _tables.table_ranges(text)
    if "-----BEGIN " in text:  # a block framed as a certificate: its lines are its own,
        # and the line break before it is no wrap (``Tr0ub4dor3x`` then a certificate,
        # in a block scalar under ``password: |``)
        tables = tables + [
            (_line_break_before(text, m.start()), m.end()) for m in PEM.finditer(text)
        ]
        if "-----BEGIN PGP " in text:
            tables = tables + [m.span() for m in PGP.finditer(text)]
    if may_hold_public(text):  # a public key ends its line (``# public key: age1…``), and
        # a line break right before one is no wrap either
        tables = tables + [(a - 4, b + 1) for a, b in public_ranges(text)]
    if tables:  # a table's rows are lines of their own
        inside = _covered(tables)
        cuts = [cut for cut in cuts if not inside(cut[0])]
        loose = [cut for cut in loose if not inside(cut[0])]
        if not cuts and not loose:
            return text
    # (fix21b) a next line that goes on after its run (``Ok7hZ2 rotated by ops``) is that
    # line's own text, unless a provider's token is what the join makes (a GitHub token
    # wrapped, then a word): a random-looking join alone is no proof
    tails = {cut for cut, _, end in wraps if _MORE_ON_LINE.match(text, end) is not None}
    kept = set(
        _crossing(text, cuts, every_run=every_run, tokens=True, internals=internals, tails=tails)
    )
    if loose != cuts:  # the user's rules over the lines a token never continues on too
        kept.update(_crossing(text, loose, every_run=every_run, tokens=False, internals=internals))
    return _without(text, sorted(kept)) if kept else text


def _covered(ranges: list[tuple[int, int]]) -> Callable[[int], bool]:
    """Whether a point is inside one of ``ranges`` (each ``[a, b)``): merged and
    bisected once, so many points cost no pass over every range each (a flood of
    certificates, each with a wrap)."""
    starts: list[int] = []
    ends: list[int] = []
    for a, b in sorted(r for r in ranges if r[0] < r[1]):
        if ends and a <= ends[-1]:
            ends[-1] = max(ends[-1], b)
        else:
            starts.append(a)
            ends.append(b)

    def inside(point: int) -> bool:
        i = bisect.bisect_right(starts, point) - 1
        return i >= 0 and point < ends[i]

    return inside


def _crossing(
    text: str,
    cuts: list[tuple[int, int]],
    *,
    every_run: bool,
    tokens: bool,
    internals: bool,
    tails: set[tuple[int, int]] | None = None,
) -> list[tuple[int, int]]:
    """The ``cuts`` that a secret found in ``text`` joined at all of them crosses: by the
    token layers and the user's rules (``tokens``), or by the user's rules alone."""
    if not cuts:
        return []
    joined = _without(text, cuts)
    points, removed = [], 0
    for start, end in cuts:
        points.append(start - removed)
        removed += end - start
    spans: list[Span] = []
    seen = compatible(joined)
    if tokens:
        _tokens.find(seen, spans, crossing=None if every_run else points)
    _user_spans(seen, spans, internals)
    if not spans:
        return []
    spans.sort()
    crossed = _crossed(spans, points)
    if tails and crossed:  # (the cuts before a line that goes on: a provider's span only)
        named = _crossed([span for span in spans if span[2] not in _RANDOM], points)
        return [
            cut
            for cut, at in zip(cuts, points, strict=True)
            if at in crossed and (cut not in tails or at in named)
        ]
    return [cut for cut, at in zip(cuts, points, strict=True) if at in crossed]


_RANDOM = frozenset(["high-entropy", "secret"])
"""The names of spans that say only that a run looks random (no provider's format)."""
_MORE_ON_LINE = re.compile(r"[ \t]{1,40}[^\s\\]")


def _user_rules(internals: bool) -> bool:
    """Whether a user's rule (``add_redaction``) is in effect for this scrub."""
    return any(d.kind == "secret" or internals for d in _registry.user_detectors())


def _user_spans(seen: str, spans: list[Span], internals: bool) -> None:
    """Add the matches of the user's own rules in ``seen`` (a joined view) to ``spans``:
    ``acme_0123456789`` then ``abcdef01234567`` on the next line is one key, as a
    built-in token wrapped so is."""
    users = _registry.user_detectors()
    if not users:
        return
    lowered = seen.lower()
    for detector in users:
        if detector.kind != "secret" and not internals:
            continue
        if detector.gate and not any(needle in lowered for needle in detector.gate):
            continue
        group: str | int = "secret" if "secret" in detector.pattern.groupindex else 0
        for m in _windowed(detector.pattern, seen):
            start, end = m.span(group)
            if start < end:
                spans.append((start, end, detector.name, 0))


def _crossed(spans: list[Span], points: list[int]) -> set[int]:
    """The points (ascending) that one of the three spans (sorted) starting last before
    each crosses: one pass over both, not a search a point."""
    crossed, seen, count = set(), 0, len(spans)
    for at in points:
        while seen < count and spans[seen][0] < at:
            seen += 1
        if (
            (seen > 0 and at < spans[seen - 1][1])
            or (seen > 1 and at < spans[seen - 2][1])
            or (seen > 2 and at < spans[seen - 3][1])
        ):
            crossed.add(at)
    return crossed


_PERCENT = re.compile(
    r"(?<![^\s\"'<>])[^\s\"'<>%]{0,4096}(?:%[0-9A-Fa-f]{2}[^\s\"'<>%]{0,4096}){1,4096}"
)
# What follows such a run up to its blank or quote: a ``%`` that escapes nothing (``%zz``,
# in Django's key alphabet) ends ``_PERCENT``'s match but not the run, whose tail would
# then be read apart from its label (``password=Ab%41cd%zzTAIL`` kept ``%zzTAIL``).
# (As far as a value reaches, 1,024 characters: a run of 64 K bare ``%`` is not decoded.)
_PERCENT_TAIL = re.compile(r"[^\s\"'<>]{0,1024}")
# Atomic (a lookahead read once, then its backreference) and unbounded, closing quote
# optional (Python 3.10 has no possessive quantifier): every match consumes what it read,
# so a run of escaped quotes (``\\"\\"\\"…``, no literal ever closes) is read once, not
# once from each quote (that was quadratic: 23 s for 64 KB). Unclosed ones are skipped.
_JSON_STRING = re.compile(r"\"(?=((?:[^\"\\\r\n]|\\[^\r\n])*))\1(\")?")
_JSON_MIN = 10
"""Characters of a JSON string literal, quotes included, worth decoding."""
_BETWEEN = "\n \x00 \n"
"""Between decoded segments scrubbed together: whitespace stops every value and token,
and a NUL cannot come out of a normalised segment."""


_ESCAPES = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


# The blanks and line breaks that normalising keeps, but the space, the tab and a line
# break (``\n``, ``\r\n``): a vertical tab, a form feed, a lone ``\r``, a no-break
# space, U+2028, ...; in a URL-encoded run they stay as written (``_bytes_of``).
# (Whitespace but U+001C-U+001F, which normalising drops: nothing is compiled at import.)
_BLANKS = tuple(
    c for c in map(chr, range(0x3001)) if c.isspace() and c not in " \t\n\x1c\x1d\x1e\x1f"
)
# What a URL-encoded run decoded to that the text did not hold as written: its tabs and
# line breaks, written back as escapes where the run is put back (``_reveal``).
_WRITTEN_BACK = str.maketrans({"\t": "%09", "\n": "%0A", "\r": "%0D"})


def _bytes_of(m: re.Match[str]) -> str:
    """A run of escapes read, but each blank or line break of ``_BLANKS`` (a ``\\r``
    before a ``\\n`` decodes) and each byte of no UTF-8 character left as written
    (decoded, it would show U+FFFD, which the text never held; ``%ab`` in a Django
    key): in a URL-encoded run such a character is part of the value the run writes
    (``password=Ab%0Bcd…`` is one value, as ``Ab%0Bcd…`` is one run of the text), where
    decoded it would end the value in the decoded view, its tail kept. A tab and a line
    break decode (a table's cells and rows, a body's lines are read in the decoded view)
    and are written back as escapes where the run is put back; a control or a format
    character decodes: normalising drops it, joining what it split."""
    written = m.group()
    data = bytes.fromhex(written.replace("%", ""))
    chars = data.decode("utf-8", errors="surrogateescape")
    if chars.isprintable():
        return chars
    parts, at = [], 0
    for index, char in enumerate(chars):
        if "\udc80" <= char <= "\udcff":  # a byte of no character: as written
            parts.append(written[3 * at : 3 * at + 3])
            at += 1
            continue
        size = len(char.encode())
        if char in _BLANKS and not (char == "\r" and chars[index + 1 : index + 2] == "\n"):
            parts.append(written[3 * at : 3 * (at + size)])
        else:
            parts.append(char)
        at += size
    return "".join(parts)


def _url_decoded(segment: str) -> str:
    """``urllib.parse.unquote`` up to three times, each run of escapes decoded as UTF-8
    (but what ``_bytes_of`` leaves as written): ``unquote`` splits at every ``%``, a
    Python step each, which a run of 64 K bare ``%`` made 80 ms; a run of escapes is
    found here in C."""
    for _ in range(3):
        decoded = simply_unquoted(segment)  # (runs between other characters: in C)
        if decoded is None:
            decoded = _ESCAPES.sub(_bytes_of, segment)
        if decoded == segment:
            break
        segment = decoded
    return segment


def _url_view(segment: str) -> str:
    """What ``_reveal`` scrubs of a URL-encoded run: decoded, normalised."""
    return normalise(_url_decoded(segment))


def _json_decoded(literal: str) -> str:
    """What a JSON string literal means (``json.loads``, without its per-call setup:
    the string scanner alone); ``literal`` itself when it is not one whole literal."""
    inner = literal.lstrip(_JSON_SPACE)
    if inner[:1] != '"':
        return literal  # a number, an object, nothing: not a string
    try:
        decoded, end = scanstring(inner, 1)
    except ValueError:
        return literal
    return literal if inner[end:].strip(_JSON_SPACE) else decoded


_JSON_SPACE = " \t\n\r"


_LEVELS = 3
"""Levels of URL-encoding and JSON escaping read, one inside another."""


def _decoded(text: str, internals: bool, level: int) -> str:
    """Scrub URL-encoded runs and escaped JSON strings in their decoded form, and put
    back those that held something: URL runs decoded, JSON strings re-encoded."""
    if "%" in text:
        text = _reveal(text, _PERCENT, _url_decoded, internals, level, as_json=False)
    if "\\" in text:
        text = _reveal(text, _JSON_STRING, _json_decoded, internals, level, as_json=True)
    return text


def _reveal(
    text: str,
    pattern: re.Pattern[str],
    decode: Callable[[str], str],
    internals: bool,
    level: int,
    *,
    as_json: bool,
) -> str:
    found: list[tuple[int, int, str]] = []
    seen: dict[str, str] = {}  # a segment repeated is decoded once
    for m in pattern.finditer(text):
        segment, span = m.group(), m.span()
        if as_json:
            if m.group(2) is None or len(segment) < _JSON_MIN or "\\" not in segment:
                continue
        elif text[span[1] : span[1] + 1] == "%":  # the run goes on past a bare ``%``
            span = (span[0], _PERCENT_TAIL.match(text, span[1]).end())  # type: ignore[union-attr]
            segment = text[span[0] : span[1]]
        decoded = seen.get(segment)
        if decoded is None:
            decoded = seen[segment] = normalise(decode(segment))
        if decoded != segment and len(decoded) >= _ECHO_MIN:
            found.append((*span, decoded))
    if not found:
        return text
    # One scrub for all distinct segments (a segment repeated reads as it did once: the
    # echoes between them are all still there); each is looked at alone only when that
    # found something.
    distinct = list(dict.fromkeys(decoded for _, _, decoded in found))
    together = _BETWEEN.join(distinct)
    scrubbed = scrub(together, internals=internals, level=level + 1)
    if scrubbed is together:
        return text
    pieces = scrubbed.split(_BETWEEN)
    if len(pieces) != len(distinct):
        pieces = [scrub(decoded, internals=internals, level=level + 1) for decoded in distinct]
    shown = dict(zip(distinct, pieces, strict=True))
    parts, last = [], 0
    for start, end, decoded in found:
        piece = shown[decoded]
        if piece != decoded:
            parts.append(text[last:start])
            parts.append(
                json.dumps(piece, ensure_ascii=False)
                if as_json
                else encoded_back(
                    text[start:end], piece, bytes_of=_bytes_of, decoded_view=_url_view
                )
            )
            last = end
    parts.append(text[last:])
    return "".join(parts)


def _simple_tokens(text: str, plan: _Plan | None = None) -> list[Span] | None:
    """The token spans of ``text`` when it is simple, else None. Simple: it is ASCII (its
    compatibility view is itself), holds nothing to join or decode (no line break, no
    ``\\``, no ``%``), no known value is in effect and no detector is ungated. A simple
    text with no token span and no detector's needle gives no span and no echo in a
    full pass: most tool results are such text. The spans found are the ones the full
    pass would find in it again."""
    if not text.isascii() or "\n" in text or "\\" in text or "%" in text:
        return None
    plan = plan or _plan()
    if plan.always or _known.current():
        return None
    spans: list[Span] = []
    _tokens.find(text, spans)
    return spans


def _any_searched(plan: _Plan, hits: dict[int, list[int]], text: str, internals: bool) -> bool:
    """Whether ``_detect`` would look for any detector of ``hits`` in ``text``."""
    emails = _config.settings.redact_emails
    return any(_searched(plan.detectors[index], text, internals, emails) for index in hits)


def _needles(text: str) -> bool:
    """Whether any detector's needle is in ``text`` (``scrub`` reads the hits themselves
    once; the tests' reference)."""
    automaton = _plan().automaton
    return automaton is not None and bool(automaton.find_matches_as_indexes(text.lower()))


def scrub(text: str, *, internals: bool = True, level: int = 0) -> str:
    """``text`` (already normalised) with every secret replaced by a placeholder, and
    with internals too when ``internals``; ``text`` itself when nothing was found.
    ``level``: how many levels of encoding ``text`` was decoded from."""
    if len(text) < 8:
        return text
    plan = _plan()
    tokens = _simple_tokens(text, plan)
    hits = seeds = None
    if tokens is not None:  # ASCII, no ungated detector, no known value in effect
        hits = plan.hits(lowered_once(text))  # read once, for the gate and the detectors
        if (
            not tokens
            and not (hits and _any_searched(plan, hits, text, internals))
            and ("&" not in text or _WRITTEN.search(text) is None)
        ):
            return text  # what the full pass gives: no span, and no value to echo
        seeds = ()
    original = text
    if "\n" in text or "\\n" in text or "%" in text:
        text = _unwrap(text, internals=internals)
    if level < _LEVELS and ("%" in text or "\\" in text):
        text = _decoded(text, internals, level)
    marked = not text.isascii() and _LATIN_MARK.search(text) is not None
    view = _written_view(text, marked) if marked or "&" in text or _escape_letters(text) else None
    seen: str | None = None  # the compatibility view of ``text``, made once
    if view is None:
        seen = compatible(text)
        # a simple text is never joined or decoded: its tokens and hits stay true
        spans = _detect(text, internals, tokens, hits, seen)
        read: dict[str, str] = {}
    else:
        spans, read = _detect_written(view, internals)
    if spans and may_hold_public(text):
        spans = clip(spans, public_ranges(text))  # a certificate, a public key's fingerprint
    if not spans:
        out = _echo(text, {}, seeds, seen)
        return original if out == original else out
    out, echoes, seen = _apply(text, spans, seen)
    allowing = _registry.allows_any()
    for value, name in read.items():
        # a value read decoded and kept by the allow-list is no echo (``ab&#61;cd``):
        # asked as strictly as a provider's key (an exact value, a narrow pattern)
        if not (allowing and _registry.allowed(value, provider=True, labelled=True)):
            echoes.setdefault(value, name)
    return _as_strings(_echo(out, echoes, seeds, seen))


# A placeholder standing bare where JSON (or a dict repr) had a value that was no string
# (``"pin": 4821``, an echo of it elsewhere): after a key's quote and ``:``, or as an
# array's item (only when that makes the text valid JSON).
# (The key's quote, or up to three backslashes and it, led by one class of the three
# characters: ``re`` skips to one in a scan; an alternation of a quote and a repeated
# backslash has no first character ``re`` can skip to, and was tried at every character,
# 1 ms on 100 KB.)
_BARE_MEMBER = re.compile(
    r"([\"'\\](?:(?<=[\"'])|(?<=\\)\\{0,2}[\"']))([ \t]{0,5}:[ \t\r\n]{0,40})"
    r"(\[redacted:[a-z0-9\-]{1,64}\])(?=[ \t\r\n]{0,40}(?:[,}\]]|\Z))"
)
_AFTER_COLON = re.compile(r":[ \t\r\n]{0,40}\[redacted:")
"""What every ``_BARE_MEMBER`` match holds: a colon, blanks and a placeholder."""
# (The bracket or comma before the item is matched, not looked behind for: ``re`` then
# skips to one in a scan, where a look-behind first was tried at every character.)
_BARE_ITEM = re.compile(
    r"([\[(,][ \t\r\n]{0,40})(\[redacted:[a-z0-9\-]{1,64}\])(?=[ \t\r\n]{0,40}[,\])])"
)
_JSON_START = re.compile(r"\s{0,64}[\[{]")


def _as_strings(text: str) -> str:
    """``text`` with each placeholder that stands for a value that was no string (a
    number under a secret's key) made a string, quoted as the key is (escapes and all:
    escaped JSON stays escaped JSON; an array's item takes ``"`` when the text is then
    JSON), so valid JSON stays
    valid JSON: ``{"pin": "[redacted:secret]"}``. ``pin: [redacted:secret]`` in prose
    or YAML, with no key's quote before it, stays as it is."""
    if "[redacted:" not in text:
        return text
    # (a member's key is quoted, and its placeholder follows a colon: else a scan in
    # vain, at each quote)
    if ('"' in text or "'" in text) and _AFTER_COLON.search(text) is not None:
        text = _BARE_MEMBER.sub(r"\1\2\1\3\1", text)
    if _JSON_START.match(text) and _BARE_ITEM.search(text):
        # An item's placeholder is quoted only when that makes the whole text JSON: a
        # placeholder between commas inside a string (a CSV line) must stay as it is.
        items = _BARE_ITEM.sub(r'\1"\2"', text)
        try:
            json.loads(items)
        except (ValueError, RecursionError):
            return text
        return items
    return text


# A character written out: an HTML entity (``&#83;``, ``&#x53;``, ``&quot;``; escaped
# again: ``&amp;#83;``) or an escape (``\\x53``, ``\\u0053``, ``\\U00000053``; with its
# backslash escaped again: ``\\\\x53``). A character's UTF-8 bytes written one by one
# (``\\xd0\\xbf``) and a surrogate pair (``\\ud83d\\ude00``) are one character. So is
# an octal escape of C, shells and ``printf`` (``\\160`` is ``p``; UTF-8 bytes one by
# one, ``\\320\\277``).
# (Both alternatives start with a literal character, the backslashes written ``\\\\{0,3}``
# for ``\\{1,4}``: ``re`` then skips to a ``&`` or a backslash in one scan, where it tried
# the pattern at every character, 0.8 ms on 100 KB.)
_WRITTEN = re.compile(
    r"&(?:amp;){0,3}(?:#(?:[0-9]{1,7}|[xX][0-9a-fA-F]{1,6});?|[A-Za-z][A-Za-z0-9]{1,31};)"
    r"|\\\\{0,3}(?:x[c-fC-F][0-9a-fA-F](?:\\{1,4}x[89abAB][0-9a-fA-F]){1,3}|x[0-9a-fA-F]{2}"
    r"|u[dD][89abAB][0-9a-fA-F]{2}\\{1,4}u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}"
    r"|U[0-9a-fA-F]{8}|3[0-6][0-7](?:\\{1,4}2[0-7]{2}){1,3}|[0-3][0-7]{2})"
)
_DIGITS = re.compile(r"[xuU]([0-9a-fA-F]+)")


def _written_out(value: str) -> str:
    """``value`` with each character written out (``_WRITTEN``) read as what it writes,
    and then URL-decoded: what an allowed value is compared with."""
    read = _WRITTEN.sub(lambda m: _character(m.group()) or m.group(), value)
    return _url_decoded(read) if "%" in read else read


_OCTAL = re.compile(r"\\([0-3][0-7]{2})")


def _escape_letters(text: str) -> bool:
    """Whether ``text`` can hold a written-out escape: three C scans, cheaper than the
    pattern over a text of backslashes (an escaped JSON body), and one search for an
    octal escape where a backslash is."""
    return (
        "\\x" in text
        or "\\u" in text
        or "\\U" in text
        or ("\\" in text and _OCTAL.search(text) is not None)
    )


@functools.lru_cache(maxsize=4096)  # a text writes the same few characters many times
def _character(written: str) -> str | None:
    """What one written-out character (a ``_WRITTEN`` match) reads as: the character;
    "" for one that shows nothing (a zero-width space, a soft hyphen); ``None`` where it
    stays as written: a control character or line break, a code that is none, and an
    escaped quote or backslash (the syntax of the text it is written in, not content)."""
    if written[0] == "&":
        import html  # at the first entity read, not with toolhygiene

        rest = written[1:]
        while rest.startswith("amp;") and len(rest) > 4:
            rest = rest[4:]
        chars = html.unescape("&" + rest)
        if chars == "&" + rest or not chars:
            return None  # no such entity, or a code HTML drops (``&#1``): as written
    elif written.lstrip("\\")[0].isdigit():  # octal: bytes, as ``\\x`` writes them
        try:
            chars = bytes(int(o, 8) for o in _OCTAL.findall(written)).decode()
        except UnicodeDecodeError:
            return None
        if chars in ('"', "'", "\\"):
            return None
    else:
        codes = [int(h, 16) for h in _DIGITS.findall(written)]
        if written.lstrip("\\")[0] == "x":
            try:
                chars = bytes(codes).decode()
            except UnicodeDecodeError:
                return None
        elif len(codes) == 2:  # a surrogate pair
            chars = chr(0x10000 + ((codes[0] - 0xD800) << 10) + codes[1] - 0xDC00)
        elif codes[0] > 0x10FFFF:
            return None
        else:
            chars = chr(codes[0])
        if chars in ('"', "'", "\\"):
            return None
    if chars.isprintable():
        return chars
    if all(unicodedata.category(c) == "Cf" for c in chars):
        return ""
    if chars.isspace() and "\n" not in chars and "\r" not in chars:
        return " "  # a no-break space, a tab
    return None


# Where a written-out character was read: its place and length in the view, and its
# place in the text.
_Unit = tuple[int, int, int, int]


# A written-out character, or the combining marks on an ASCII letter or digit: the view
# reads past them (an accent kept on a letter of a token, ``ghp_fDNx\u0301…``, does not
# cut it in two there). A joiner is kept only between letters of a joining script or
# emoji (``_normalise``), where no ASCII token can stand: the view needs not read past it.
_LATIN_MARK = re.compile(f"[A-Za-z0-9]{MARKS.pattern}")
_WRITTEN_OR_MARK = re.compile(f"{_WRITTEN.pattern}|(?<=[A-Za-z0-9]){MARKS.pattern}+")


# A run of combining marks on an ASCII letter or digit, found from its first mark (a
# class ``re`` skips to in one scan; the look-behind led ``_WRITTEN_OR_MARK``'s
# alternation, tried at every character).
_MARK_RUN = re.compile(f"({MARKS.pattern}(?<=[A-Za-z0-9].){MARKS.pattern}*)")


def _written_view(text: str, marks: bool = False) -> tuple[str, list[_Unit]] | None:
    """``text`` with every written-out character read (``_character``), and where each
    was (``marks``: and without its combining marks); ``None`` when there is none."""
    if marks and "&" not in text and "\\" not in text:
        return _marks_view(text)
    parts: list[str] = []
    units: list[_Unit] = []
    last = shift = 0
    read = _character
    for m in (_WRITTEN_OR_MARK if marks else _WRITTEN).finditer(text):
        chars = "" if MARKS.match(m.group()) else read(m.group())
        if chars is None:
            continue
        start, end = m.span()
        parts.append(text[last:start])
        parts.append(chars)
        units.append((start - shift, len(chars), start, end))
        shift += end - start - len(chars)
        last = end
    if not units:
        return None
    parts.append(text[last:])
    return "".join(parts), units


def _marks_view(text: str) -> tuple[str, list[_Unit]] | None:
    """``_written_view`` of a text with no written-out character (no ``&``, no
    backslash): only its marks on ASCII letters and digits go, split out in C and their
    places summed in C, not read a match at a time."""
    parts = _MARK_RUN.split(text)  # text, run, text, run, …, text
    if len(parts) == 1:
        return None
    bounds = list(itertools.accumulate(map(len, parts)))
    kept = parts[::2]
    places = itertools.accumulate(map(len, kept[:-1]))
    runs = zip(places, itertools.repeat(0), bounds[:-1:2], bounds[1::2])
    return "".join(kept), list(runs)


def _detect_written(
    view: tuple[str, list[_Unit]], internals: bool
) -> tuple[list[Span], dict[str, str]]:
    """The spans the detectors find in the read view, as spans of the text as written
    (a span that starts or ends inside a written character takes all of it), and the
    values found as read (their echoes written plainly are redacted too)."""
    read, units = view
    found = _detect(read, internals)
    places = [unit[0] for unit in units]

    def written(at: int, end: bool) -> int:
        char = at - 1 if end else at
        index = bisect.bisect_right(places, char) - 1
        if index < 0:
            return at
        place, length, start, stop = units[index]
        if char < place + length:
            return stop if end else start
        return stop + at - place - length

    spans: list[Span] = []
    values: dict[str, str] = {}
    for start, end, name, rank in found:
        spans.append((written(start, False), written(end, True), name, rank))
        bare = read[start:end].strip("\\\"'` ")
        if rank > 0 and len(bare) >= _ECHO_MIN and "[" not in bare and "]" not in bare:
            values.setdefault(bare, name)
    return spans, values
