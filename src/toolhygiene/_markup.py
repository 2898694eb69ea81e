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


def _pairs(mark: str, least: int) -> re.Pattern[str]:
    """Emphasis written with ``mark`` (2-3 of them; backticks 1-3): an opening run after
    no word character and before no blank, its text on one line, and a closing run of
    the same length after no blank and before no word character. A run inside a token
    or with no partner (``Tr0ub4dor**3x``, ``Hunter2**``) is no markup: it stays, and
    the value keeps it. (Not a name such as PyPI's ``__token__`` glued to what follows:
    ``__token__:pypi-…``.) The opening run's first mark is matched before what must not
    stand before it is looked behind for: ``re`` skips to a mark in one scan, where a
    look-behind first was tried at every character (9 ms on 100 KB of code)."""
    m = re.escape(mark)
    return re.compile(
        rf"(?P<mark>{m}(?<![\w{m}]{m}){m}{{{least - 1},2}})(?=[^\s{m}])"
        rf"(?P<inner>[^\r\n]{{1,256}}?)(?<=[^\s{m}])(?P=mark)(?![\w{m}])(?!:\S)"
    )


_STARS = _pairs("*", 2)
_UNDERSCORES = _pairs("_", 2)
_TICKS = _pairs("`", 1)
_SHIFT = re.compile(r"[ \t]{2,400}[:=\uff1a]")
"""Blanks then a separator: the blanks of a mark that closed a label (``key</b>:``)."""
_SHIFT_END = re.compile(r"[ \t][ \t][:=\uff1a]")
"""How every ``_SHIFT`` match ends: looked for first (``_shifted``), one step a blank,
where ``_SHIFT`` read each run of blanks again from each of its blanks (2.8 ms on
100 KB of indented code)."""


def _unpaired(m: re.Match[str]) -> str:
    """Both marks of a pair blanked, the text between them kept."""
    width = len(m.group("mark"))
    return " " * width + m.group("inner") + " " * width


def _cell(m: re.Match[str]) -> str:
    return ":" + " " * (m.end() - m.start() - 1)


def _tag(m: re.Match[str]) -> str:
    head, tail = m.span("head"), m.span("tail")
    if head[1] == tail[0]:  # no attribute: blanked whole
        return " " * (m.end() - m.start())
    return " " * (head[1] - head[0]) + m.string[head[1] : tail[0]] + " " * (tail[1] - tail[0])


def _shift(m: re.Match[str]) -> str:
    """``key   :`` -> ``key:   ``, after a label's last character."""
    found = m.group()
    at = m.start()
    if not at or not (m.string[at - 1].isalnum() or m.string[at - 1] == ")"):
        return found
    return found[-1] + found[:-1]


def demarked(text: str) -> str:
    """``text`` with its emphasis and inline tags blanked (same length); ``text`` itself
    when it holds none. (A single character is looked for first: it is found by memchr,
    two by a slower search.)"""
    view = text
    if "<" in view:
        if "</" in view:
            view = _CELL.sub(_cell, view)
        view = _TAG.sub(_tag, view)
    if "*" in view and "**" in view:
        view = _STARS.sub(_unpaired, view)
    if "_" in view and "__" in view:
        view = _UNDERSCORES.sub(_unpaired, view)
    if "`" in view:
        view = _TICKS.sub(_unpaired, view)
    if view is text or view == text:
        return text
    return _shifted(view)


def _shifted(view: str) -> str:
    """``_SHIFT.sub(_shift, view)``, each match found from its end: a separator after
    two blanks (``_SHIFT_END``), its run of blanks read back from there (at most 400
    blanks, and none before the last match's end)."""
    parts: list[str] = []
    last = 0
    for end in _SHIFT_END.finditer(view):
        separator = end.end() - 1
        start, floor = separator - 2, max(separator - 400, last)
        while start > floor and view[start - 1] in " \t":
            start -= 1
        m = _SHIFT.match(view, start)
        if m is None:  # (never: two blanks and a separator from ``start``)
            continue
        parts.append(view[last:start])
        parts.append(_shift(m))
        last = m.end()
    if not parts:
        return view
    parts.append(view[last:])
    return "".join(parts)
