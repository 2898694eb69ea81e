"""Pending errors and their clearing, whatever the message format.

An error is pending once the model has seen it. When a later round has a success, every
pending round is cleared: removed whole when every call in it failed and the assistant
said nothing else, else each failed result shrinks to a stub, keeping its pairing. Closed
tools' notices are never cleared. Only the rounds since the first pending error are
touched, so the cached prefix of the conversation stays as it was.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Literal

from toolhygiene.formats import Adapter, Round
from toolhygiene.formats._base import Messages

__all__ = ["Clearing", "Transcript"]

Clearing = Literal["remove", "stub", "off"]


class Transcript:
    """The pending rounds of one conversation's message list."""

    def __init__(self, clearing: Clearing = "remove") -> None:
        self.clearing = clearing
        self.pending: list[Round] = []
        self._lock = threading.Lock()

    def clear(self, adapter: Adapter, messages: Messages) -> tuple[list[Round], str | None]:
        """Clear every pending round; returns them and the ``[recovered]`` note."""
        with self._lock:
            rounds, self.pending = self.pending, []
        if not rounds:
            return [], None
        for round_ in reversed(rounds):
            removable = self.clearing == "remove" and round_.removable
            if not (removable and adapter.remove(messages, round_)):
                adapter.stub(messages, round_)
        tools = sorted({t for r in rounds for t in r.tools})
        shown = ", ".join(tools[:3]) + (f" and {len(tools) - 3} more" if len(tools) > 3 else "")
        return rounds, f"[recovered] earlier {shown} errors are resolved."

    def add(
        self,
        ids: Sequence[str],
        failed: Sequence[tuple[str, str]],
        *,
        said_more: bool,
        closed: int,
    ) -> None:
        """Record a round the model is about to see, if it holds errors to clear later.

        ``failed``: (call id, tool) of ordinary failures; ``closed``: how many results
        are closed-tool notices (or the failure that closed the tool), which are never
        cleared and keep the round in place.
        """
        if not failed or self.clearing == "off":
            return
        round_ = Round(
            ids=tuple(ids),
            failed=tuple(i for i, _ in failed),
            tools=tuple(sorted({t for _, t in failed})),
            removable=len(failed) == len(ids) and not said_more and not closed,
        )
        with self._lock:
            self.pending.append(round_)
