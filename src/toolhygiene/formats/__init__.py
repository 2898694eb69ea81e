"""The three message formats toolhygiene writes: Anthropic Messages, OpenAI Chat
Completions and OpenAI Responses; each from the SDK's own objects or plain dicts.

``check(messages, fmt)`` is the validator the tests run after every step: it raises
``UsageError`` at the first place the API would reject the list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolhygiene._exceptions import UsageError
from toolhygiene.formats._anthropic import AnthropicMessages
from toolhygiene.formats._base import STUB, Adapter, Call, Definition, Format, Round
from toolhygiene.formats._openai_chat import OpenAIChat
from toolhygiene.formats._openai_responses import OpenAIResponses

__all__ = ["Adapter", "Call", "Definition", "Format", "Round", "STUB", "adapter", "check", "detect"]

_ADAPTERS: dict[str, Adapter] = {
    "anthropic": AnthropicMessages(),
    "openai_chat": OpenAIChat(),
    "openai_responses": OpenAIResponses(),
}


def adapter(fmt: str) -> Adapter:
    """The adapter for a format name."""
    try:
        return _ADAPTERS[fmt]
    except KeyError:
        raise UsageError(
            f"unknown format {fmt!r}: use 'anthropic', 'openai_chat' or 'openai_responses'"
        ) from None


def adapters() -> tuple[Adapter, ...]:
    """Every format's adapter."""
    return tuple(_ADAPTERS.values())


_UNSET: Any = object()


def detect(response: Any, default: Any = _UNSET) -> Format:
    """The format of a model response: an SDK object or a dict of the API's JSON;
    ``default`` (if given) when it cannot be told, else ``UsageError``."""

    mapping = isinstance(response, Mapping)

    def has(name: str) -> bool:
        return name in response if mapping else hasattr(response, name)

    if has("choices"):
        return "openai_chat"
    if has("output") and not has("stop_reason"):
        return "openai_responses"
    if has("content") and has("stop_reason"):
        return "anthropic"
    if default is not _UNSET:
        return default  # type: ignore[no-any-return]
    raise UsageError(
        f"cannot tell the format of a {type(response).__name__}: pass format='anthropic', "
        "'openai_chat' or 'openai_responses'"
    )


def check(messages: Sequence[Any], fmt: str) -> None:
    """Raise ``UsageError`` where the API would reject ``messages``: a call without
    exactly one result, a result without its call, roles out of order, results not first
    in an Anthropic user turn."""
    adapter(fmt).check(messages)


def __dir__() -> list[str]:
    """``__all__`` and the dunders: the names imported to build this module stay usable
    here but are not its surface (``dir()``, completion)."""
    return sorted({*__all__, *(name for name in globals() if name.startswith("__"))})
