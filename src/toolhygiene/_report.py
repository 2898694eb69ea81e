"""Which error messages to rewrite first: errors ranked by their tails.

An error's tail is how many tool calls followed it until the agent succeeded (or the
conversation stopped). A message that teaches has a tail of one or two; a long tail
means the model flailed after reading it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TextIO

from toolhygiene._text import bounded_repr

__all__ = ["MAX_LINE", "MAX_TAIL", "Ranked", "Skipped", "is_count", "rank", "read_tails"]

TAIL_EVENTS = frozenset({"error.recovered", "error.stopped"})


@dataclass(frozen=True, slots=True)
class Ranked:
    """One error (tool + fingerprint) over every time it was seen."""

    tool: str
    category: str
    fingerprint: str
    line: str
    seen: int
    mean_tail: float
    max_tail: int
    stopped: int


def _field(value: Any) -> str:
    # A log is untrusted: a field may be any JSON, as deep as the parser allows.
    return value if isinstance(value, str) else bounded_repr(value, 200)


MAX_TAIL = 2**53
"""The largest tail counted (every whole number up to it is exact as a float, so means
stay finite); a record claiming more is not a count."""


def is_count(value: Any) -> bool:
    """A tail: a whole number from 0 to ``MAX_TAIL``; ``True`` is not one, nor is ``3.0``."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_TAIL


def rank(tails: Iterable[Mapping[str, Any]]) -> list[Ranked]:
    """Group tail records by tool and fingerprint; longest mean tail first.

    A record is what ``Session.stats()["tails"]`` lists and what the ``error.recovered``
    and ``error.stopped`` log events carry: ``tool``, ``category``, ``fingerprint``,
    ``line``, ``tail`` and ``outcome``. A record whose tail is not a count (``is_count``)
    is left out.
    """
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for record in tails:
        if not is_count(record.get("tail")):
            continue
        key = (_field(record.get("tool", "?")), _field(record.get("fingerprint", "?")))
        groups.setdefault(key, []).append(record)
    ranked = []
    for (tool, fingerprint), records in groups.items():
        lengths = [int(r["tail"]) for r in records]
        ranked.append(
            Ranked(
                tool=tool,
                category=_field(records[-1].get("category", "")),
                fingerprint=fingerprint,
                line=_field(records[-1].get("line", "")),
                seen=len(records),
                mean_tail=sum(lengths) / len(lengths),
                max_tail=max(lengths),
                stopped=sum(1 for r in records if r.get("outcome") == "stopped"),
            )
        )
    return sorted(ranked, key=lambda r: (-r.mean_tail, -r.seen, r.tool, r.fingerprint))


MAX_LINE = 1_048_576
"""Characters of one log line read at most; a longer line is skipped (tail events are
a few hundred characters)."""


@dataclass
class Skipped:
    """Lines ``read_tails`` could not use, by reason: ``too_long`` (over ``MAX_LINE``),
    ``not_objects`` (text, or JSON that is not an object), ``unreadable`` (broken JSON, or
    nested too deep to read), ``bad_tails`` (a tail event whose ``tail`` is not a count).
    Blank lines are not counted."""

    too_long: int = 0
    not_objects: int = 0
    unreadable: int = 0
    bad_tails: int = 0

    @property
    def total(self) -> int:
        """Every line skipped, whatever the reason."""
        return self.too_long + self.not_objects + self.unreadable + self.bad_tails

    def __bool__(self) -> bool:
        return bool(self.total)


def _lines(stream: TextIO, skipped: Skipped) -> Iterator[str]:
    while True:
        line = stream.readline(MAX_LINE)
        if not line:
            return
        if len(line) == MAX_LINE and not line.endswith("\n"):
            skipped.too_long += 1
            while line and not line.endswith("\n"):  # the rest of it, piece by piece
                line = stream.readline(MAX_LINE)
            continue
        yield line


def read_tails(stream: TextIO, skipped: Skipped | None = None) -> Iterator[dict[str, Any]]:
    """Tail records (``error.recovered``, ``error.stopped``) from JSON-lines logs
    (structlog's ``JSONRenderer``). Every other line is passed over: JSON objects that
    are other events quietly; lines that are not JSON objects, cannot be read, are longer
    than ``MAX_LINE``, and tail events whose tail is not a count are counted in
    ``skipped`` (when given), by reason."""
    skipped = skipped if skipped is not None else Skipped()
    for line in _lines(stream, skipped):
        text = line.strip().lstrip("\ufeff")  # a byte-order mark before the first line
        if not text:
            continue
        if not text.startswith("{"):
            skipped.not_objects += 1
            continue
        try:
            record: dict[str, Any] = json.loads(text)  # "{" starts nothing but an object
        except (ValueError, RecursionError):
            skipped.unreadable += 1
            continue
        event = record.get("event")
        if not isinstance(event, str) or event not in TAIL_EVENTS:
            continue
        if not is_count(record.get("tail")):
            skipped.bad_tails += 1
            continue
        yield record
