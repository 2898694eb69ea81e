"""Outside text inside JSON: each string of a structured result neutralised as its own text.

The model reads a dict or list result as JSON, and a JSON string's ``\\n`` as a line
break, its ``\\t`` as a tab and its start as the start of a text. So the JSON text of an
``untrusted=True`` tool's dict or list result, a str result that is JSON text, and a JSON
body kept as text inside one of their strings (``{"status": 400, "body": "{…}"}``, at any
depth) are neutralised string by string: each string, keys too, exactly as the same text
returned as a str would be, written back as a JSON string. Valid JSON stays valid JSON,
and what is not a string (numbers, ``true``, the structure) is never changed.

Most strings need nothing: all of them are read at once first (joined, each on a line of
its own, ``_redact.touched``), and only those a pattern of ``neutralise`` reaches are
decoded and neutralised one by one.
"""

from __future__ import annotations

import bisect
import itertools
import json
import re
from collections.abc import Callable, Iterator

from toolhygiene._redact import escape_marks, neutralise, touched
from toolhygiene._results import to_json

__all__ = ["escape_json_marks", "escape_text_marks", "neutralise_json", "neutralise_text"]

# A JSON string, from its opening quote to its closing one; a text cut at a cap may end
# inside one (no closing quote): it is read up to the cut. Scanning from the start, the
# first quote opens a string and each match ends where the next may start.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?')
_STRING_INSIDE = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"?')
"""The same, with what the string holds as its group (as written: escapes and all)."""

# Where a string may start with JSON text that holds a string: at a line start of the
# joined strings, a bracket, then a quote before the string's end (a line start inside
# a string only makes its string be tried; JSON text without a string has nothing to
# neutralise, and a page of "[1" strings is not parsed string by string).
# The first is matched at the text's start, the second (its group) found from each line
# break: a pattern starting with ``(?m)^`` is tried at every character, one starting with
# a line break only where there is one (0.35 ms on 100 KB of joined strings, now 0.08).
_OPENS_JSON = re.compile(r'[ \t\r]*[{\[][^\x00"]*"')
_OPENS_JSON_LINE = re.compile(r'\n([ \t\r]*[{\[][^\x00"]*")')

_DEPTH = 8
"""JSON bodies inside JSON bodies read at most this deep; deeper ones are text."""


def neutralise_text(text: str, depth: int = 0) -> str:
    """``text`` neutralised as the model reads it: JSON text string by string
    (``neutralise_json``), any other text whole (``neutralise``)."""
    if depth < _DEPTH and _json_text(text):
        return neutralise_json(text, depth)
    return neutralise(text)


def _json_text(text: str) -> bool:
    """Whether ``text`` is a JSON object or array (a text that only starts like one is
    text: what follows its first bracket must be neutralised too)."""
    start = text.lstrip()[:1]
    if start not in {"{", "["}:
        return False
    try:
        json.loads(text)
    except ValueError:  # JSONDecodeError, and a number too large to read
        return False
    except RecursionError:  # nested past what the parser reads
        return False
    return True


def neutralise_json(text: str, depth: int = 0) -> str:
    """The JSON text ``text`` (possibly cut short) with each string neutralised as its
    own text, and each string that holds JSON text read the same way in turn."""
    near = _reached(text)
    if not near:
        return text
    return _each_string(text, lambda inside: neutralise_text(inside, depth + 1), near)


def escape_json_marks(text: str) -> str:
    """``_redact.escape_marks`` for the JSON text of a result, string by string: a mark
    with no closing bracket of its own (``{"x": "[error a"}``) is closed inside its
    string, never by the JSON's own ``]`` or after its ``"}``. The same object when
    there is no mark."""
    if escape_marks(text) is text:  # most results: no mark anywhere
        return text
    return _each_string(text, escape_marks)


def escape_text_marks(text: str) -> str:
    """``_redact.escape_marks`` for a str result: string by string when it is JSON text
    (``escape_json_marks``), whole when it is any other text."""
    done = escape_marks(text)
    if done is text or not _json_text(text):
        return done
    return _each_string(text, escape_marks)


def _each_string(text: str, change: Callable[[str], str], only: set[int] | None = None) -> str:
    """``text`` (JSON, possibly cut short) with each string (those numbered ``only``, or
    all) made ``change`` of what it holds, written back as a JSON string."""
    parts: list[str] = []
    last = 0
    for i, m in enumerate(_STRING.finditer(text)):
        if only is not None and i not in only:
            continue
        inside = _inside(m.group())
        done = change(inside)
        if done != inside:
            parts.append(text[last : m.start()])
            parts.append(to_json(done))
            last = m.end()
    if not parts:
        return text
    parts.append(text[last:])
    return "".join(parts)


def _reached(text: str) -> set[int]:
    """The strings of ``text`` (by their order) that ``neutralise`` may change, or that
    hold JSON text: a superset, read from all strings at once.

    Each string on a line of its own: a pattern that matches inside one string matches
    there in the joined text too (see ``_redact.touched``), so no string it reaches is
    left out; one that runs over two strings only makes both be read. A string holding
    JSON text is read as JSON whatever the joined text showed: its own strings are each
    a text of their own."""
    # Without a quote inside a string, one string between every two quotes (a cut
    # text's last one cut short); else the strings are found one by one.
    insides = _STRING_INSIDE.findall(text) if '\\"' in text else text.split('"')[1::2]
    if not insides:
        return set()
    joined = None if "\\u0000" in text else _joined(insides)
    starts: list[int] | None = None
    if joined is None:  # a string holds a NUL, or the text was cut inside an escape
        decoded = [_inside(m.group()) for m in _STRING.finditer(text)]
        joined = "".join(s + _END for s in decoded)
        starts = list(itertools.accumulate((len(s) + len(_END) for s in decoded), initial=0))
    spans = touched(joined)
    spans.extend(_json_openings(joined))
    if not spans:
        return set()
    if starts is None:  # no decoded string holds a NUL: each one ends a string
        starts = [0, *(m.end() for m in _ENDS.finditer(joined))]
    return {
        i
        for start, end in spans
        for i in range(bisect.bisect_right(starts, start) - 1, bisect.bisect_left(starts, end))
    }


def _json_openings(joined: str) -> Iterator[tuple[int, int]]:
    """Where ``_OPENS_JSON`` matches at a line start of ``joined``, in order."""
    first = _OPENS_JSON.match(joined)
    if first is not None:
        yield first.span()
    for m in _OPENS_JSON_LINE.finditer(joined, 0 if first is None else first.end()):
        yield m.span(1)


_END = "\x00\n"
"""What ends each string in the joined text: a NUL (no decoded string holds one when
no JSON body holds ``\\u0000``), then a line break (the next string starts a line)."""
_ENDS = re.compile(_END)


def _joined(insides: list[str]) -> str | None:
    """The strings whose JSON bodies are ``insides`` (none holding ``\\u0000``), decoded
    in one pass, each followed by ``_END``; ``None`` when a body is cut inside an escape
    (the text was cut at a cap)."""
    try:
        joined: str = json.loads('"' + "\\u0000\\n".join(insides) + '\\u0000\\n"')
    except ValueError:
        return None
    return joined


def _inside(token: str) -> str:
    """The text a JSON string token holds (one cut at a cap: up to the cut)."""
    closed = len(token) > 1 and token.endswith('"')  # an escaped quote is in the body
    if "\\" not in token:
        return token[1:-1] if closed else token[1:]
    try:
        inside: str = json.loads(token if closed else token + '"')
    except ValueError:  # cut inside an escape ("\\u00"): read up to it
        try:
            inside = json.loads(token[: token.rfind("\\")] + '"')
        except ValueError:  # not what json writes: read as written
            return token[1:-1] if closed else token[1:]
    return inside
