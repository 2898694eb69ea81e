"""What every message format provides: spelling a tool's definition, reading a model turn,
writing results, finding, removing and shrinking an earlier round, checking that a list
pairs every call, reading a list back, telling who holds the conversation, and putting a
stream's events together."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from toolhygiene._exceptions import UsageError
from toolhygiene._words import STUB

__all__ = [
    "STUB",
    "Adapter",
    "CachesItself",
    "Call",
    "Definition",
    "Exchange",
    "Format",
    "Messages",
    "Round",
    "StopState",
    "StrictRules",
    "TellsNoChain",
    "as_dict",
    "as_dicts",
    "content_text",
    "field",
    "unfinished",
    "with_note",
]


Messages = MutableSequence[Any]

Format = Literal["anthropic", "openai_chat", "openai_responses"]
"""The name of a message format (each names its adapter)."""


@dataclass(frozen=True, slots=True)
class Call:
    """One tool call the model asked for."""

    id: str
    name: str
    arguments: Any


@dataclass(frozen=True, slots=True)
class Round:
    """An earlier round (assistant turn + its results) with errors to clear.

    ``ids``: every call of the round; ``failed``: the ids whose results are cleared now
    (shrunk to ``STUB``); ``removable``: every call of the round failed, every failure is
    now cleared and the assistant said nothing else, so the whole round can go;
    ``tools``: the tool of each id in ``failed``.
    """

    ids: tuple[str, ...]
    failed: tuple[str, ...]
    removable: bool
    tools: tuple[str, ...] = ()


StopState = Literal["finished", "paused", "refused", "truncated"]
"""How a model turn ended: finished (its calls may run), paused by the API, refused, or
cut by the token limit (its calls may have cut arguments)."""


@dataclass(frozen=True, eq=False)
class StrictRules:
    """What one API's strict mode accepts in a tool's argument schema, beyond the rules
    every strict schema follows (each object lists every property in ``required`` and has
    ``additionalProperties: false``): the keywords it keeps (the others become words in
    the description), the values it takes of some of them, and whether a model may
    contain itself. ``name`` is what ``Tool.strict_parameters`` takes, ``owner`` whose
    strict mode it is, as a message names it."""

    name: str
    owner: str
    kept: frozenset[str]
    values: Mapping[str, frozenset[Any]]
    recursive: bool = True

    def keeps(self, keyword: str, value: Any) -> bool:
        """Whether a strict schema under these rules may carry ``keyword: value``."""
        if keyword not in self.kept:
            return False
        allowed = self.values.get(keyword)
        return allowed is None or value in allowed


@dataclass(frozen=True, slots=True)
class Definition:
    """What a tool definition says, before any API's spelling: ``parameters`` is already
    the strict schema when ``strict``; ``options`` the definition fields the tool was
    given (``input_examples``, ``defer_loading``, ``cache_control``), each API taking
    those it accepts."""

    name: str
    description: str
    parameters: dict[str, Any]
    strict: bool
    options: Mapping[str, Any]

    def spelled(self, schema_key: str) -> dict[str, Any]:
        """Name, description, the schema under ``schema_key`` and ``strict`` when set."""
        out: dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            schema_key: self.parameters,
        }
        if self.strict:
            out["strict"] = True
        return out

    def taken(self, *names: str) -> dict[str, Any]:
        """The options among ``names`` that were given."""
        return {k: self.options[k] for k in names if self.options.get(k) is not None}


@dataclass(frozen=True, slots=True)
class Exchange:
    """An assistant turn with calls as a message list holds it, read back: the message it
    starts at, its items as plain dicts, each result's text and error flag by call id (the
    flag ``None`` where the format has none), and the text the API allows after the
    results (where toolhygiene writes its note; ``""`` where the note rides in a result)."""

    at: int
    turn: list[dict[str, Any]]
    results: dict[str, tuple[str, bool | None]]
    note: str = ""


class Adapter(Protocol):
    """One API's message format."""

    name: Format
    strict_rules: StrictRules
    """The strict-mode rules this API's strict definitions follow."""

    def definition(self, tool: Definition) -> dict[str, Any]:
        """One tool's definition as this API's ``tools`` list takes it."""

    def cached(
        self, definitions: list[dict[str, Any]], cache_control: Mapping[str, Any] | Literal[True]
    ) -> list[dict[str, Any]]:
        """The definitions with a prompt-cache breakpoint (``True``: this API's default
        marker); ``UsageError`` where the API has no such field."""

    def assistant_items(self, response: Any) -> list[dict[str, Any]]:
        """The model's turn as the items to append to the message list, without empty
        parts; an empty list when the turn holds nothing."""

    def stop_state(self, response: Any) -> StopState:
        """How the model's turn ended."""

    def position(self, messages: Sequence[Any], call_id: str) -> int | None:
        """Where the call ``call_id`` stands in ``messages`` (searched from the end)."""

    def calls(self, items: Sequence[Mapping[str, Any]]) -> list[Call]:
        """The tool calls in the model's turn."""

    def said_more(self, items: Sequence[Mapping[str, Any]]) -> bool:
        """Whether the turn holds anything besides tool calls (text, reasoning)."""

    def result_items(
        self,
        results: Sequence[tuple[Call, str, bool]],
        note: str | None,
        recovered: Collection[str] = (),
    ) -> list[dict[str, Any]]:
        """The items carrying each call's result (content, is-error) and the note about
        the ``recovered`` tools."""

    def remove(self, messages: Messages, round_: Round) -> bool:
        """Remove the round whole; ``False`` (nothing changed) when that is not safe."""

    def stub(self, messages: Messages, round_: Round) -> None:
        """Shrink the round's failed results to ``STUB``, keeping every pairing."""

    def check(self, messages: Sequence[Any]) -> None:
        """Raise ``UsageError`` naming the first place the API would reject."""

    # -- a message list read back (``Session.resume``) -----------------------------------

    def shows(self, message: Any) -> bool:
        """Whether ``message`` holds a tool call or a result in this format."""

    def exchanges(self, items: list[dict[str, Any]]) -> Iterator[Exchange]:
        """Every assistant turn with calls in ``items`` (plain dicts), in order, with the
        results that answer it."""

    def results_in(self, message: Any) -> list[str]:
        """The call ids that ``message`` holds a result of."""

    # -- who holds the conversation --------------------------------------------------------

    holds_history: bool
    """Whether the API can hold the conversation on its server."""

    def chain(self, response: Any) -> tuple[str | None, str | None]:
        """The earlier response and the conversation that ``response`` says the server
        holds (``None`` where it says none, or the format never tells)."""

    def stored_items(self, items: Sequence[Any], call_ids: Collection[str]) -> list[str]:
        """The server's ids of the ``items`` that carry the calls ``call_ids`` (calls and
        their results together)."""

    # -- streams ---------------------------------------------------------------------------

    final_method: str
    """The name of the method by which the SDK's stream helper gives its final object."""
    events_first: bool
    """Whether the helper's events carry the final object even when the turn was cut
    (its final method then raises)."""

    def final_of_error(self, exc: Exception) -> Any:
        """The final object the helper's final method raised ``exc`` with (a cut or
        filtered turn), or ``None``."""

    def streams(self, first: Mapping[str, Any]) -> bool:
        """Whether ``first`` opens one of this API's streams (an event or a chunk)."""

    def assemble(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        """The response the events of one streamed answer make, in the API's JSON;
        ``unfinished`` when the stream ended before the turn did."""


class TellsNoChain:
    """An API whose responses never name an earlier response or a conversation (the
    server may still hold it, as Anthropic threads do: the request says so)."""

    def chain(self, response: Any) -> tuple[str | None, str | None]:
        return None, None

    def stored_items(self, items: Sequence[Any], call_ids: Collection[str]) -> list[str]:
        return []


class CachesItself:
    """An API that caches prompts itself: its definitions take no cache breakpoint."""

    name: Format

    def cached(
        self, definitions: list[dict[str, Any]], cache_control: Mapping[str, Any] | Literal[True]
    ) -> list[dict[str, Any]]:
        raise UsageError(f"cache_control is an Anthropic field; {self.name} caches prompts itself")


def as_dict(item: Any) -> dict[str, Any]:
    """An SDK object (pydantic model) or a mapping as a plain dict for the message list."""
    if isinstance(item, Mapping):
        return dict(item)
    dump = getattr(item, "model_dump", None)
    if callable(dump):
        result = dump(mode="json", exclude_none=True)
        if isinstance(result, dict):
            return result
    raise UsageError(f"cannot read a message item of type {type(item).__name__}")


def as_dicts(items: Any) -> list[dict[str, Any]]:
    """A sequence of SDK objects or mappings as plain dicts."""
    return [as_dict(item) for item in items or ()]


def content_text(content: Any) -> str:
    """The text of a result's content: a string or a list of text parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(field(p, "text") or "") for p in content)
    return "" if content is None else str(content)


def unfinished(what: str) -> UsageError:
    """The error for a stream that ended before its turn did."""
    return UsageError(
        f"the stream ended before the turn finished ({what}): its calls may be cut, so none "
        "runs. Read the stream to its end, or ask again"
    )


def field(item: Any, name: str, default: Any = None) -> Any:
    """``item[name]`` for a mapping, ``item.name`` for an SDK object."""
    if type(item) is dict:  # the common case: a message the list holds, no ABC check
        return item.get(name, default)
    if isinstance(item, Mapping):
        return item.get(name, default)
    return getattr(item, name, default)


def with_note(
    results: Sequence[tuple[Call, str, bool]], note: str | None, recovered: Collection[str]
) -> list[tuple[Call, str, bool]]:
    """The results with ``note`` on its own line after the content of the first success of
    a ``recovered`` tool: where the API allows no text item between a call and its result,
    the note rides in the successful result itself."""
    out = []
    for call, content, ok in results:
        if note and ok and call.name in recovered:
            content, note = f"{content}\n\n{note}", None  # noqa: PLW2901
        out.append((call, content, ok))
    return out


def register_ids(seen: set[str], ids: Sequence[str], at: int) -> None:
    """Add a turn's call ids to ``seen``; an id used twice is a ``UsageError``."""
    again = seen.intersection(ids)
    if again:
        raise UsageError(f"message {at}: call id {min(again)!r} is used twice")
    seen.update(ids)
