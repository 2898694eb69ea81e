"""What a conversation's message list proves, read back in any format, for a Session
rebuilt in another process (``Session.resume``).

The list holds every result the model has seen, in the words toolhygiene wrote: each
failure line names its tool and category, says when the failure closed the tool or may
have taken effect; a closed tool's notice says the call did not run; a cleared error is
the stub; the ``[recovered]`` note says how many failed calls of each tool recovered,
removed rounds included. That is enough to rebuild the failure counts, the closed tools
and the pending errors with their rounds, replayed in order through the same
``Transcript`` the original used.

What the list cannot prove (and a store keeps): the same-failure counters (the line is
redacted and capped, so the raw message's fingerprint cannot be recomputed), local
retries in flight in another process, and the tails' call numbers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolhygiene import _words
from toolhygiene._exceptions import UsageError
from toolhygiene._text import size_of
from toolhygiene.formats import Call, adapter
from toolhygiene.formats._adapters import adapters
from toolhygiene.formats._base import Exchange

if TYPE_CHECKING:
    from toolhygiene._transcript import Transcript

__all__ = ["Evidence", "SeenRound", "detect_format", "evidence", "rounds"]


@dataclass(frozen=True, slots=True)
class SeenRound:
    """One assistant turn with calls and what each call's result proves."""

    calls: tuple[Call, ...]
    reads: tuple[_words.Read, ...]
    texts: tuple[str, ...]  # each result's own text, without a riding note
    sizes: tuple[int, ...]  # characters each result and its call's arguments take
    said_more: bool
    recovered: dict[str, int]  # the round's [recovered] note, tool -> failed calls


@dataclass(slots=True)
class Evidence:
    """The facts a list proves, ready for a Ledger and a Transcript."""

    format: str | None = None
    failures: Counter[str] = field(default_factory=Counter)
    closed: set[str] = field(default_factory=set)
    calls: int = 0
    successes: int = 0
    pending: list[tuple[int, str, str, str, str]] = field(default_factory=list)
    """(call number, tool, category, line, call id) of each error not recovered since."""
    last_call: str | None = None


def detect_format(messages: Sequence[Any]) -> str | None:
    """The format of a message list, from its first call or result (``None``: no call)."""
    every = adapters()
    for message in messages:
        for shape in every:
            if shape.shows(message):
                return shape.name
    return None


_LEVELS = 6
"""Levels of a message read as plain data (message, content list, block, its fields, a
result's parts, their text); deeper values, a call's arguments among them, stay as they
are: opaque, however deep the model nested them."""


def _plain(value: Any, level: int = 0) -> Any:
    """``value`` with every SDK object (pydantic model) and mapping in its first
    ``_LEVELS`` levels as a plain dict, and tuples as lists: a list mixes them at any level
    (``{"role": "assistant", "content": response.content}`` holds SDK blocks in a dict, a
    dict's ``tool_calls`` SDK objects). Fields that are ``None`` are left out, as
    ``model_dump(exclude_none=True)`` does, without its walk through the arguments."""
    if level >= _LEVELS:
        return value
    if isinstance(value, Mapping):
        return {k: _plain(v, level + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, level + 1) for v in value]
    fields = getattr(type(value), "model_fields", None)
    if isinstance(fields, Mapping) and callable(getattr(value, "model_dump", None)):
        names = [*fields, *(getattr(value, "__pydantic_extra__", None) or {})]
        found = ((name, getattr(value, name, None)) for name in names)
        return {name: _plain(v, level + 1) for name, v in found if v is not None}
    return value


def _message(item: Any, at: int) -> dict[str, Any]:
    """Message ``at`` as a plain dict (``UsageError`` for anything else)."""
    found = _plain(item)
    if not isinstance(found, dict):
        raise UsageError(
            f"message {at}: cannot read a message of type {type(item).__name__} "
            "(a dict or an SDK object); pass the list as the API returned it"
        )
    return found


def rounds(messages: Sequence[Any], fmt: str) -> Iterator[SeenRound]:
    """Every round of calls in ``messages``, in order, with what its results prove."""
    items = [_message(m, at) for at, m in enumerate(messages)]
    for exchange in adapter(fmt).exchanges(items):
        yield _seen(fmt, exchange)


_MALFORMED = (KeyError, AttributeError, TypeError, ValueError, IndexError)
"""What reading a message of the wrong shape raises (``UsageError`` to the caller)."""


def _seen(fmt: str, exchange: Exchange) -> SeenRound:
    """The round of an exchange read back. Only what toolhygiene wrote is trusted: a
    failure is a result whose API flag says so (Anthropic ``is_error``) or, in formats
    with no flag, a result starting ``[error] `` (toolhygiene escapes any success that
    would, ``_words.escape_result``); the ``[recovered]`` note is read where toolhygiene
    puts it (Anthropic: the text block after the results; OpenAI formats: its own line at
    a result's end). A call with no result proves nothing (``"unknown"``)."""
    shape, at, turn, results = adapter(fmt), exchange.at, exchange.turn, exchange.results
    try:
        calls = tuple(shape.calls(turn))
        said_more = shape.said_more(turn)
    except _MALFORMED as exc:
        raise UsageError(
            f"message {at}: its tool calls cannot be read as {fmt} "
            f"({type(exc).__name__}: {exc}); pass the list as the API returned it"
        ) from exc
    for call in calls:
        if not isinstance(call.id, str) or not call.id or not isinstance(call.name, str):
            raise UsageError(f"message {at}: a tool call without an id or a name ({fmt})")
    reads, texts, sizes, recovered = [], [], [], _words.read_note(exchange.note)
    for call in calls:
        arguments = size_of(call.arguments)  # as the live loop measures it, however deep
        if call.id not in results:
            reads.append(_words.Read("unknown"))
            texts.append("")
            sizes.append(arguments)
            continue
        text, flag = results[call.id]
        own = text
        if flag is None:  # OpenAI formats: the note rides on a result's own last line
            own, riding = _words.split_note(text)
            recovered = recovered or _words.read_note(riding)
        reads.append(_words.read_result(own, flag))
        texts.append(own)
        sizes.append(len(text) + arguments)
    return SeenRound(calls, tuple(reads), tuple(texts), tuple(sizes), said_more, recovered)


def _tally(
    seen: SeenRound, facts: Evidence, caps: dict[str, int], cleared_since: Counter[str]
) -> tuple[set[str], list[tuple[str, str, int]], int, int]:
    """Count one round's results into ``facts``: the tools that succeeded, the failures
    to clear later (call id, tool, size), the results kept in place, those cleared."""
    succeeded = set()
    failed: list[tuple[str, str, int]] = []
    kept = cleared = 0
    for call, read, text, size in zip(seen.calls, seen.reads, seen.texts, seen.sizes, strict=True):
        facts.calls += 1
        name = call.name
        if read.kind == "unknown":  # no result: not a success, not a failure
            kept += 1
            continue
        if read.kind == "ok":
            facts.successes += 1
            succeeded.add(name)
            continue
        if read.kind == "refused":
            facts.closed.add(name)
            kept += 1
            continue
        if read.kind == "held":  # not counted; cleared once the tool succeeds
            failed.append((call.id, name, size))
            continue
        facts.failures[name] += 1
        if read.kind == "stub":
            cleared_since[name] += 1
            cleared += 1
            continue
        cap = caps.get(name)
        if read.closes or (cap is not None and facts.failures[name] >= cap):
            facts.closed.add(name)
            kept += 1
        elif read.uncertain:
            kept += 1
        else:
            failed.append((call.id, name, size))
        facts.pending.append((facts.calls, name, read.category, text, call.id))
    return succeeded, failed, kept, cleared


def evidence(
    messages: Sequence[Any], fmt: str | None, caps: dict[str, int], replay: Transcript
) -> Evidence:
    """Read ``messages`` and replay its rounds into ``replay`` (a ``Transcript``): the
    failure counts, closed tools and pending errors the list proves. ``caps``: each
    session tool's cap (a tool the session does not have is never closed)."""
    found = fmt or detect_format(messages)
    facts = Evidence(found)
    if found is None:
        return facts
    adapter(found)  # an unknown format is a UsageError here
    cleared_since: Counter[str] = Counter()
    # Linear in the list: the replay is asked to recover only tools it holds failures of,
    # to sweep only after something recovered, and the pending errors are filtered only
    # when a tool of theirs succeeded (a long list of errors never recovered, with a
    # success in every round, would otherwise cost the whole backlog per round).
    replaying: set[str] = set()
    waiting = False
    pending_tools: set[str] = set()
    for seen in rounds(messages, found):
        before = len(facts.pending)
        succeeded, failed, kept, cleared = _tally(seen, facts, caps, cleared_since)
        recovered = replay.recover(succeeded & replaying) if succeeded & replaying else {}
        replaying -= succeeded
        waiting = waiting or bool(recovered)
        for name in succeeded:
            # The note counts every failed call that recovered, removed rounds included:
            # those the list no longer holds are counted from it.
            removed = seen.recovered.get(name, 0) - recovered.get(name, 0) - cleared_since[name]
            if removed > 0:
                facts.failures[name] += removed
            cleared_since.pop(name, None)
            cap = caps.get(name)
            if cap is not None and facts.failures[name] >= cap:
                facts.closed.add(name)
        pending_tools.update(p[1] for p in facts.pending[before:])
        if succeeded & pending_tools:
            facts.pending = [p for p in facts.pending if p[1] not in succeeded]
            pending_tools -= succeeded
        if waiting and replay.sweep():
            waiting = False
        replaying.update(name for _, name, _ in failed)
        replay.add(
            [c.id for c in seen.calls],
            failed,
            said_more=seen.said_more,
            closed=kept,
            cleared=cleared,
        )
        if seen.calls:
            facts.last_call = seen.calls[-1].id
    return facts
