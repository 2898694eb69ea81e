"""What a streaming user has in hand, as the one finished response ``handle`` reads.

Accepted: the SDKs' stream helpers (Anthropic ``MessageStream``, OpenAI
``ChatCompletionStream`` and ``ResponseStream``, sync or async: their final object), a raw
``stream=True`` stream not yet read, or the events/chunks already read from one (a list).
Each format's adapter knows its helper's final method and puts its events together in the
API's JSON; a stream that ended before its turn did (no stop reason, no finish reason, no
terminal Responses event) is refused, so a cut turn never runs.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from typing import Any

from toolhygiene._exceptions import UsageError
from toolhygiene.formats import Adapter
from toolhygiene.formats._adapters import adapters
from toolhygiene.formats._base import as_dict

__all__ = ["asettle", "settle"]


def _helper(response: Any) -> tuple[Adapter, Any] | None:
    """The adapter of an SDK stream helper and its final method (``None``: not a helper)."""
    if isinstance(response, Mapping) or hasattr(response, "model_dump"):
        return None
    for shape in adapters():
        method = getattr(response, shape.final_method, None)
        if callable(method):
            return shape, method
    return None


def _final_of(shape: Adapter, exc: Exception) -> Any:
    """The final object a stream helper raised with on a cut or filtered turn."""
    final = shape.final_of_error(exc)
    if final is None:
        raise UsageError(
            f"the stream helper holds no finished turn ({exc}): its calls may be cut, so "
            "none runs. Pass the helper before reading it, or the events you read from it"
        ) from exc
    return final


def _is_events(response: Any) -> bool:
    return (
        not isinstance(response, (Mapping, str, bytes))
        and not hasattr(response, "model_dump")
        and isinstance(response, Iterable)
    )


def settle(response: Any) -> Any:
    """The finished response in ``response``: itself, a stream helper's final object, or
    the events of a stream put together."""
    helper = _helper(response)
    if helper is not None:
        shape, method = helper
        if inspect.iscoroutinefunction(method):
            raise UsageError(
                f"a {type(response).__name__} is async: use `await session.ahandle(...)`"
            )
        if shape.events_first:
            events = list(response)
            if events:
                return assemble(events)
        try:
            return method()
        except Exception as exc:
            return _final_of(shape, exc)
    if hasattr(response, "__aiter__") and not hasattr(response, "__iter__"):
        raise UsageError(f"a {type(response).__name__} is async: use `await session.ahandle(...)`")
    if _is_events(response):
        return assemble(list(response))
    return response


async def asettle(response: Any) -> Any:
    """``settle`` for async streams and stream helpers."""
    helper = _helper(response)
    if helper is not None:
        shape, method = helper
        if shape.events_first and hasattr(response, "__aiter__"):
            events = [event async for event in response]
            if events:
                return assemble(events)
        try:
            final = method()
            return await final if inspect.isawaitable(final) else final
        except Exception as exc:
            return _final_of(shape, exc)
    if hasattr(response, "__aiter__"):
        return assemble([event async for event in response])
    return settle(response)


def assemble(events: list[Any]) -> dict[str, Any]:
    """The response that the events of one streamed answer make, in the API's JSON."""
    if not events:
        raise UsageError(
            "the stream holds no events: it was read to the end already. Pass the events or "
            "chunks you collected while reading it, or the helper's final object"
        )
    dicts = [as_dict(e) for e in events]
    for shape in adapters():
        if shape.streams(dicts[0]):
            return shape.assemble(dicts)
    raise UsageError(
        f"cannot tell what stream a list of {type(events[0]).__name__} is: pass the "
        "events of one streamed answer"
    )
