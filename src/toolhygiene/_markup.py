"""A view of text with the markup around labels taken away, for the detectors.

Tickets, wikis, e-mails and rendered pages write a credential with its label marked up:
``**Password:** v``, ``__Password:__ v``, ``<b>Password:</b> v``, ``<strong>API
key</strong>: v``, ``<td>Password</td><td>v</td>``, ``<dt>API key</dt><dd>v</dd>``. The
model reads them as rendered text, ``Password: v``; so do the detectors, in this view.

The view has the text's length, so what the detectors find in it cuts the text as
written: emphasis marks (``**``, ``__``, backticks) and inline or cell tags become blanks,
a separator after a closing mark moves before it (``API key</strong>:`` reads ``API
key:`` and blanks), and the boundary between a table's two cells (``</td><td>``,
``</dt><dd>``) reads as a colon.
"""

from __future__ import annotations

import re

__all__ = ["demarked"]

_TAGS = (
    "b|strong|em|i|u|s|mark|small|big|font|span|label|kbd|tt|var|cite|abbr|ins|"
    "td|th|dt|dd|li|p|div|h[1-6]|br|wbr"
)
# A tag's name and its closing ``>`` are blanked, its attributes stay: a value in one
# is read as written (``<div data-config="{&quot;password&quot;: …}">``).
_TAG = re.compile(
    r"(?P<head></?(?:" + _TAGS + r"))(?:[ \t][^<>\r\n]{0,256})?(?P<tail>/?>)", re.IGNORECASE
)
_CELL = re.compile(
    r"</(?:td|th|dt)>[ \t]{0,8}<(?:td|th|dd)(?:[ \t][^<>\r\n]{0,256})?>", re.IGNORECASE
)
_STARS = re.compile(r"\*{2,3}")
# (not a name such as PyPI's ``__token__`` glued to what follows: ``__token__:pypi-…``)
_UNDERSCORES = re.compile(r"(?<![\w/])_{2,3}(?=[A-Za-z])|(?<=[A-Za-z:])_{2,3}(?![\w])(?!:\S)")
_TICKS = re.compile(r"`{1,3}")
_SEPARATORS = ":=\uff1a"


def _marks(text: str) -> list[tuple[int, int, str]]:
    """The marks to take away: where each starts and ends, and what it reads as."""
    found: list[tuple[int, int, str]] = []
    if "</" in text:
        found.extend((m.start(), m.end(), ":") for m in _CELL.finditer(text))
    if "<" in text:
        for m in _TAG.finditer(text):
            if m.end("head") == m.start("tail"):  # no attribute: one mark
                found.append((m.start(), m.end(), ""))
            else:
                found.append((*m.span("head"), ""))
                found.append((*m.span("tail"), ""))
    if "**" in text:
        found.extend((m.start(), m.end(), "") for m in _STARS.finditer(text))
    if "__" in text:
        found.extend((m.start(), m.end(), "") for m in _UNDERSCORES.finditer(text))
    if "`" in text:
        found.extend((m.start(), m.end(), "") for m in _TICKS.finditer(text))
    return found


def demarked(text: str) -> str:
    """``text`` with its emphasis and inline tags blanked (same length); ``text`` itself
    when it holds none."""
    if "<" not in text and "**" not in text and "__" not in text and "`" not in text:
        return text
    marks = _marks(text)
    if not marks:
        return text
    chars = list(text)
    size = len(text)
    taken = -1
    for start, end, reads in sorted(marks, key=lambda mark: (mark[0], -mark[1])):
        if start < taken:
            continue  # inside a cell boundary already taken
        taken = end
        chars[start:end] = reads.ljust(end - start)
        if reads or not start or not (chars[start - 1].isalnum() or chars[start - 1] == ")"):
            continue
        # a separator after the mark closing a label moves before it: ``key</b>:`` -> ``key:``
        after = end
        while after < size and chars[after] in " \t":
            after += 1
        if after < size and chars[after] in _SEPARATORS:
            chars[start], chars[after] = chars[after], " "
    return "".join(chars)
