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

__all__ = ["Ranked", "rank", "read_tails"]

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
        key = (str(record.get("tool", "?")), str(record.get("fingerprint", "?")))
        groups.setdefault(key, []).append(record)
    ranked = []
    for (tool, fingerprint), records in groups.items():
        lengths = [int(r["tail"]) for r in records]
        ranked.append(
            Ranked(
                tool=tool,
                category=str(records[-1].get("category", "")),
                fingerprint=fingerprint,
                line=str(records[-1].get("line", "")),
                seen=len(records),
                mean_tail=sum(lengths) / len(lengths),
                max_tail=max(lengths),
                stopped=sum(1 for r in records if r.get("outcome") == "stopped"),
            )
        )
    return sorted(ranked, key=lambda r: (-r.mean_tail, -r.seen, r.tool, r.fingerprint))


def read_tails(stream: TextIO) -> Iterator[dict[str, Any]]:
    """Tail records from JSON-lines logs (structlog's ``JSONRenderer``); other lines,
    and lines that are not JSON objects, are skipped."""
    for line in stream:
        text = line.strip()
        if not text.startswith("{"):
            continue
        try:
            record = json.loads(text)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("event") in TAIL_EVENTS:
            yield record
