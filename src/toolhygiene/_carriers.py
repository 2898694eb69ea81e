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

from toolhygiene._redact import neutralise, touched
from toolhygiene._results import to_json

__all__ = ["neutralise_json", "neutralise_text"]

# A JSON string, from its opening quote to its closing one; a text cut at a cap may end
# inside one (no closing quote): it is read up to the cut. Scanning from the start, the
# first quote opens a string and each match ends where the next may start.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?')

# Where a string may start with JSON text: at a line start of the joined strings (a
# line start inside a string only makes its string be tried).
_OPENS_JSON = re.compile(r"(?m)^[ \t\r]*[{\[]")

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
    found = list(_STRING.finditer(text))
    if not found:
        return text
    insides = [_inside(m.group()) for m in found]
    # Each string on a line of its own: a pattern that matches inside one string matches
    # there in the joined text too (see _redact.touched), so no string it reaches is left
    # unread; one that runs over two strings only makes both be read.
    starts = list(itertools.accumulate((len(s) + 1 for s in insides), initial=0))
    joined = "\n".join(insides)
    near = {
        i
        for start, end in touched(joined)
        for i in range(bisect.bisect_right(starts, start) - 1, bisect.bisect_left(starts, end))
    }
    # A string holding JSON text is read as JSON whatever the joined text showed: its
    # own strings are each a text of their own (its escapes are read there, not here).
    near.update(bisect.bisect_right(starts, m.end() - 1) - 1 for m in _OPENS_JSON.finditer(joined))
    if not near:
        return text
    parts: list[str] = []
    last = 0
    for i in sorted(near):
        m = found[i]
        inside = insides[i]
        done = neutralise_text(inside, depth + 1)
        if done != inside:
            parts.append(text[last : m.start()])
            parts.append(to_json(done))
            last = m.end()
    if not parts:
        return text
    parts.append(text[last:])
    return "".join(parts)


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
