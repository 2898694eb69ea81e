"""(fix21a) Codes listed one or a few a line under a plural label of codes: a YAML list
(``recovery_codes:`` then ``  - 7eaih-q4xsq``), a numbered one (``Backup codes for
jdoe``, then ``1. 56401357``), a bulleted one, or a grid (``56401357  91855660``). Every
code goes, and the list's shape (its dashes, numbers and line breaks) stays.

The label is a ``codes`` after a word that makes it a credential's (``recovery``,
``backup``, ``scratch``, ``2fa``, …: ``_labels.code_qualifier``), with anything after it
on its line ("for jdoe@acme.io", a colon). The lines after it are read while each holds
only codes (``code_value``: digits, or groups of letters and digits with a digit among
them), each behind an optional bullet or number, all of the first code's length and
with its dashes where it has them; the first line that does not ends the list."""

from __future__ import annotations

import re

from toolhygiene._labels import code_qualifier, code_value
from toolhygiene._positional import SPAN

__all__ = ["NEEDLES", "find", "listed"]

NEEDLES = ("codes",)
_CODES = re.compile(r"codes(?![A-Za-z])", re.IGNORECASE)
_QUALIFIER = re.compile(r"(?:(?<=[^A-Za-z0-9])|^)([A-Za-z0-9]{2,16})[ \t_\-]{1,3}\Z")
_LINE_END = re.compile(r"[^\r\n]{0,160}(?:\r?\n)(?:[ \t]{0,12}\r?\n)?")
_BULLET = r"(?:(?:[-*\u2022]|[0-9]{1,3}[.)])[ \t]{1,5})?"
_ITEM_LINE = re.compile(
    r"[ \t]{0,12}(?P<items>" + _BULLET + r"[A-Za-z0-9\-]{4,32}"
    r"(?:[ \t]{1,8}" + _BULLET + r"[A-Za-z0-9\-]{4,32}){0,11})[ \t]{0,8}(?:\r?\n|\Z)"
)
_ITEM = re.compile(_BULLET + r"(?P<code>[A-Za-z0-9\-]{4,32})")
_LINES = 64
_SHAPE = str.maketrans("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", "x" * 62)


def find(text: str) -> list[re.Match[str]]:
    """``SPAN`` matches over each code of the lists under a plural label of codes."""
    found: list[re.Match[str]] = []
    reach = 0
    for label in _CODES.finditer(text):
        at = label.start()
        if at < reach:
            continue
        before = _QUALIFIER.search(text, max(0, at - 20), at)
        if before is None or not code_qualifier(before.group(1)):
            continue
        line = _LINE_END.match(text, label.end())
        if line is None:
            continue
        reach = _read_list(text, line.end(), found)
    return found


def listed(text: str, position: int) -> bool:
    """Whether a list of codes starts at the line of ``position`` (a labelled value on
    the line below a plural label of codes: each code is found apart, by ``find``)."""
    start = text.rfind("\n", 0, position) + 1
    return _read_list(text, start, []) > start


def _read_list(text: str, position: int, found: list[re.Match[str]]) -> int:
    """Judge the lines of codes from ``position``; return where the list ends."""
    shape = None
    for _ in range(_LINES):
        line = _ITEM_LINE.match(text, position)
        if line is None:
            break
        codes = [item.span("code") for item in _ITEM.finditer(text, *line.span("items"))]
        for start, end in codes:
            code = text[start:end]
            if shape is None:
                shape = code.translate(_SHAPE)
            if not code_value(code) or code.translate(_SHAPE) != shape:
                return position
        for start, end in codes:
            m = SPAN.match(text, start, end)
            if m is not None and m.end() == end:
                found.append(m)
        position = line.end()
    return position
