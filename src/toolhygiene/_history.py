"""Who holds the conversation: the client (the list is the whole conversation, sent in
full each time) or the server (OpenAI Responses ``previous_response_id`` or
``conversation=``, Anthropic message threads), and the checks that keep the two apart.

In server mode the server already holds the model's turns, so ``handle`` appends only what
the next request must send: the tool results (and the note). Nothing the server holds can
be edited, so nothing there is ever said to be cleared; the honest ways to drop recovered
errors are a re-seed from a cleared local copy (``mirror``) and, for OpenAI conversations,
deleting the items (``ServerHistory.delete_recovered``).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from toolhygiene import _observe, formats
from toolhygiene._exceptions import UsageError
from toolhygiene.formats._adapters import adapters
from toolhygiene.formats._base import field

__all__ = [
    "HISTORIES",
    "Chain",
    "History",
    "ServerHistory",
    "answered",
    "chain_of",
    "threshold",
]

History = Literal["client", "server"]
HISTORIES: tuple[History, ...] = ("client", "server")

CHARS_PER_TOKEN = 4
"""The estimate behind ``clear_at_least="N tokens"``: about four characters a token."""


def threshold(value: int | str) -> int:
    """``clear_at_least`` in characters: a whole number of characters, or ``"N tokens"`` /
    ``"N chars"``."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str):
        number, _, unit = value.strip().partition(" ")
        if number.isdigit() and unit.strip() in ("tokens", "token", "chars", "characters"):
            scale = CHARS_PER_TOKEN if unit.strip().startswith("token") else 1
            return int(number) * scale
    raise UsageError(
        "clear_at_least must be a whole number of characters >= 0, or a string like "
        f"'500 tokens' or '2000 chars', got {value!r}"
    )


@dataclass(frozen=True, slots=True)
class Chain:
    """Where a response stands in a conversation the server holds."""

    response_id: str | None
    previous: str | None
    conversation: str | None
    format: str

    @property
    def held(self) -> bool:
        """Whether the response says the server holds the earlier turns."""
        return self.previous is not None or self.conversation is not None


def chain_of(fmt: str, response: Any) -> Chain:
    """The chain of a response (only some formats tell theirs)."""
    rid = field(response, "id")
    previous, conversation = formats.adapter(fmt).chain(response)
    return Chain(str(rid) if rid else None, previous, conversation, fmt)


class ServerHistory:
    """What the server holds of a Session's conversation (``history="server"``), and what a
    re-seed from the cleared ``mirror`` would save.

    ``saved`` is the characters of recovered errors the mirror no longer holds and the
    server still does: every later request pays for them again, and a re-seed (a new
    thread, or a request without ``previous_response_id``, sending the mirror) drops them
    at the cost of sending the mirror once uncached. ``due`` is true once ``saved`` reaches
    ``clear_at_least``.
    """

    def __init__(self, mode: History, clear_at_least: int, session_id: str = "") -> None:
        self.mode: History = mode
        self.session_id = session_id
        self.clear_at_least = clear_at_least
        self.saved = 0
        self.response_id: str | None = None
        self.conversation_id: str | None = None
        self.format: str | None = None
        self._deletable: set[str] = set()
        self._lock = threading.Lock()

    @property
    def due(self) -> bool:
        """Whether the saving has reached ``clear_at_least``: time to re-seed."""
        return self.mode == "server" and self.saved > 0 and self.saved >= self.clear_at_least

    @property
    def deletable(self) -> frozenset[str]:
        """Call ids of recovered rounds that ``delete_recovered`` would delete."""
        with self._lock:
            return frozenset(self._deletable)

    def reseeded(self) -> None:
        """Say that the cleared mirror was sent as a new conversation (a new thread, a
        request without ``previous_response_id``, a new OpenAI conversation): the server
        no longer holds the cleared errors, and the next response starts a new chain."""
        with self._lock:
            self.saved = 0
            self.response_id = None
            self.conversation_id = None
            self._deletable.clear()

    # -- checks -----------------------------------------------------------------------

    def check(self, fmt: str, chain: Chain) -> None:
        """Raise ``UsageError`` for a response this mode cannot serve."""
        if self.mode == "client":
            if chain.held:
                how = (
                    f"previous_response_id={chain.previous!r}"
                    if chain.previous
                    else f"conversation={chain.conversation!r}"
                )
                raise UsageError(
                    f"this response continues a conversation the server holds ({how}): "
                    "appending the model's items would send them twice (the API answers "
                    "400 'Duplicate item'). Use Session(..., history='server'), which appends "
                    "only the tool outputs the next request must send"
                )
            return
        if not formats.adapter(fmt).holds_history:
            raise UsageError(
                "OpenAI Chat Completions holds no conversation on the server: use "
                "history='client' (the default) and send the whole list each time"
            )
        with self._lock:
            last, conversation = self.response_id, self.conversation_id
        if chain.previous is not None and last is not None and chain.previous != last:
            raise UsageError(
                f"this response continues {chain.previous!r}, not this Session's latest "
                f"response {last!r}: one Session per conversation (continue from the "
                "latest response, or call session.reset() for a new conversation)"
            )
        if (
            chain.conversation is not None
            and conversation is not None
            and chain.conversation != conversation
        ):
            raise UsageError(
                f"this response belongs to conversation {chain.conversation!r}, not to this "
                f"Session's {conversation!r}: one Session per conversation"
            )

    def served(self, chain: Chain, saved: int, removable: Sequence[str]) -> None:
        """Remember the response just served and what the mirror's clearing saved."""
        with self._lock:
            self.format = chain.format
            self.response_id = chain.response_id or self.response_id
            self.conversation_id = chain.conversation or self.conversation_id
            self.saved += saved
            if self.conversation_id is not None:
                self._deletable.update(removable)

    # -- OpenAI conversations: deleting recovered items ----------------------------------

    def _targets(self, items: Sequence[Any], fmt: str) -> list[str]:
        return formats.adapter(fmt).stored_items(items, self.deletable)

    def _conversation(self) -> tuple[str, str]:
        """The conversation to delete items from, and its format."""
        with self._lock:
            conversation, fmt = self.conversation_id, self.format
        if conversation is None or fmt is None:
            raise UsageError(
                "delete_recovered needs an OpenAI conversation (responses.create(conversation="
                "...)); previous_response_id chains and Anthropic threads cannot delete items"
            )
        return conversation, fmt

    def _deleted(self, conversation: str, targets: Sequence[str]) -> int:
        with self._lock:
            self._deletable.clear()
        fields = {"conversation": conversation, "items": len(targets)}
        _observe.emit(
            _observe.Event("conversation.items_deleted", self.session_id, None, None, fields)
        )
        return len(targets)

    def delete_recovered(self, client: Any) -> int:
        """Delete, through the Conversations API, every item of the recovered rounds that
        could be removed whole (each call failed, the model said nothing else): their
        calls and outputs together, so pairing stays intact. Returns how many items were
        deleted. Opt-in: it changes the conversation's prefix from the first deleted item
        on (the cache is written again from there)."""
        conversation, fmt = self._conversation()
        items = list(client.conversations.items.list(conversation))
        targets = self._targets(items, fmt)
        for item_id in targets:
            client.conversations.items.delete(item_id, conversation_id=conversation)
        return self._deleted(conversation, targets)

    async def adelete_recovered(self, client: Any) -> int:
        """``delete_recovered`` with an ``AsyncOpenAI`` client."""
        conversation, fmt = self._conversation()
        items = [i async for i in client.conversations.items.list(conversation)]
        targets = self._targets(items, fmt)
        for item_id in targets:
            await client.conversations.items.delete(item_id, conversation_id=conversation)
        return self._deleted(conversation, targets)


def answered(messages: Sequence[Any]) -> set[str]:
    """The call ids that have a result in ``messages``, in any format."""
    every = adapters()
    return {call_id for m in messages for shape in every for call_id in shape.results_in(m)}
