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

__all__ = ["MAX_LINE", "Ranked", "Skipped", "rank", "read_tails"]

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


def rank(tails: Iterable[Mapping[str, Any]]) -> list[Ranked]:
    """Group tail records by tool and fingerprint; longest mean tail first.

    A record is what ``Session.stats()["tails"]`` lists and what the ``error.recovered``
    and ``error.stopped`` log events carry: ``tool``, ``category``, ``fingerprint``,
    ``line``, ``tail`` and ``outcome``.
    """
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for record in tails:
        if not isinstance(record.get("tail"), int):
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
    """Lines ``read_tails`` could not use: too long, not JSON, or nested too deep."""

    too_long: int = 0
    unreadable: int = 0

    def __bool__(self) -> bool:
        return bool(self.too_long or self.unreadable)


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
    """Tail records from JSON-lines logs (structlog's ``JSONRenderer``); other lines are
    skipped, and so are lines that are not JSON objects, are longer than ``MAX_LINE`` or
    nested too deep to read (counted in ``skipped`` when given)."""
    skipped = skipped if skipped is not None else Skipped()
    for line in _lines(stream, skipped):
        text = line.strip()
        if not text.startswith("{"):
            continue
        try:
            record = json.loads(text)
        except (ValueError, RecursionError):
            skipped.unreadable += 1
            continue
        if isinstance(record, dict) and record.get("event") in TAIL_EVENTS:
            yield record
