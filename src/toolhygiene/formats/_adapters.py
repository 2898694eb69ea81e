"""Every format's adapter by its name, the format of a response told from its shape, and
the check of a message list against its API's rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolhygiene._exceptions import UsageError
from toolhygiene.formats._anthropic import AnthropicMessages
from toolhygiene.formats._base import Adapter, Format
from toolhygiene.formats._openai_chat import OpenAIChat
from toolhygiene.formats._openai_responses import OpenAIResponses

__all__ = ["adapter", "adapters", "check", "detect"]

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
