"""Text that can be written anywhere: an exact ``str``, valid UTF-8, of bounded size.

Whatever a tool, an upstream or the model hands over (a lone surrogate from a JSON
escape, a ``str`` subclass whose methods raise, a ten-megabyte object) becomes text here
before it reaches the model or the log.
"""

from __future__ import annotations

import marshal
import re
import reprlib
import sys
from typing import Any

__all__ = [
    "DATA_DEPTH",
    "bounded_repr",
    "plain",
    "size_of",
    "truncate",
    "valid",
    "valid_data",
]

DATA_DEPTH = 256
"""Levels of nested data ``valid_data`` walks; deeper values are left as they are."""

_SURROGATE = re.compile("[\ud800-\udfff]")

_LAST_LOWERED: tuple[str, str] = ("", "")


def lowered_once(text: str) -> str:
    """``text.lower()``, kept for the last text asked (by identity, one tuple swapped
    whole: threads see a text with its own lowering): the redaction engine, the
    neutraliser's gates, its lead screen and its asides all lower the same line.
    """
    global _LAST_LOWERED
    last = _LAST_LOWERED
    if last[0] is text:
        return last[1]
    low = text.lower()
    _LAST_LOWERED = (text, low)
    return low


_REPLACEMENT = "\ufffd"
_ELLIPSIS = "…"


def valid(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, so it encodes as UTF-8."""
    if str.isascii(text):
        return text
    return _SURROGATE.sub(_REPLACEMENT, text)


def plain(value: Any, cap: int) -> str:
    """An exact ``str`` of at most ``cap`` characters: a ``str`` (or a subclass, whose own
    methods are never called) is cut, anything else is a bounded ``repr``."""
    if type(value) is str:
        return value[:cap]
    if isinstance(value, str):
        return str.__getitem__(value, slice(0, cap))  # an exact str, never the subclass
    return bounded_repr(value, cap)


class _Repr(reprlib.Repr):
    def __init__(self, cap: int) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = self.maxother = self.maxlong = max(cap, 12)
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = 8
        self.maxfrozenset = self.maxdeque = self.maxarray = 8


_REPRS: dict[int, _Repr] = {}


def bounded_repr(value: Any, cap: int) -> str:
    """``repr(value)`` with containers cut at a few items and three levels, at most
    ``cap`` characters; an object whose ``repr`` raises is named by its type."""
    shown = _REPRS.get(cap)
    if shown is None:
        shown = _Repr(cap)
        if len(_REPRS) < 32:
            _REPRS[cap] = shown
    try:
        text = shown.repr(value)
    except Exception:  # reprlib guards instances, not every container subclass
        from toolhygiene._reading import class_name

        text = f"<{class_name(type(value))}>"
    return plain(text, cap) if type(text) is not str else text[:cap]


def size_of(arguments: Any) -> int:
    """About how many characters a call's arguments take in the conversation (nested
    past the stack, as the model's JSON can be: an estimate, never a ``RecursionError``)."""
    if isinstance(arguments, str):
        return len(arguments)
    try:
        return len(str(arguments))
    except Exception:  # RecursionError, or a repr that raises: estimate
        return len(bounded_repr(arguments, 65_536))


def valid_data(value: Any) -> Any:
    """``value`` with lone surrogates replaced in every string of its dicts and lists
    (keys too; a ``str`` subclass made an exact ``str``), copied only where something
    changed. Deeper than ``DATA_DEPTH`` levels is left as it is: walking it must not
    exhaust the stack.

    The common case, plain data with no surrogate, is proved in two C calls instead of a
    walk of every string: ``marshal`` writes only exact built-in types (a subclass of
    ``str``, ``dict`` or ``list``, or any other object, makes it refuse) and writes a
    lone surrogate as the bytes ``ED A0``-``ED BF``; data it writes without those bytes
    holds nothing the walk would change. Anything else (refused, too deep, those bytes
    found, even by chance inside a number or a ``bytes``) is walked as before."""
    try:
        written = marshal.dumps(value)
    except (ValueError, TypeError, RecursionError):
        return _valid_walk(value, 0)
    if _SURROGATE_UTF8.search(written) is None:
        return value
    return _valid_walk(value, 0)


_SURROGATE_UTF8 = re.compile(b"\xed[\xa0-\xbf]")
"""A surrogate code point as ``marshal`` writes it (UTF-8 with ``surrogatepass``)."""


def _valid_walk(value: Any, depth: int) -> Any:
    if isinstance(value, str):
        return valid(value if type(value) is str else plain(value, sys.maxsize))
    if depth > DATA_DEPTH:
        return value
    if isinstance(value, dict):
        changed = False
        out: dict[Any, Any] = {}
        for key, item in value.items():
            new_key, new_item = _valid_walk(key, depth + 1), _valid_walk(item, depth + 1)
            changed = changed or new_key is not key or new_item is not item
            out[new_key] = new_item
        return out if changed else value
    if isinstance(value, list):
        items = [_valid_walk(item, depth + 1) for item in value]
        if any(new is not old for new, old in zip(items, value, strict=True)):
            return items
        return value
    return value


def truncate(text: str, cap: int) -> str:
    """Cut ``text`` to at most ``cap`` characters at a word boundary, ending in ``…``."""
    if len(text) <= cap:
        return text
    cut = text[: cap - 1]
    space = cut.rfind(" ")
    if space >= cap // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.") + _ELLIPSIS
