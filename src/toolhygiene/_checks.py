"""Checks of the settings a developer passes: each wrong value is a ``UsageError`` that
names the setting, raised where it is set, never later inside a call."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from toolhygiene._exceptions import UsageError

__all__ = ["cache_control", "examples", "flag", "rules", "seconds", "text", "texts", "whole"]


def whole(name: str, value: Any, least: int, most: int | None = None) -> int:
    """A whole number of at least ``least`` and, if given, at most ``most`` (``True`` is
    not a number here)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < least
        or (most is not None and value > most)
    ):
        raise UsageError(
            f"{name} must be a whole number of at least {least}"
            + ("" if most is None else f" and at most {most:,}")
            + f", got {value!r}"
        )
    return value


def seconds(name: str, value: Any, *, positive: bool = False, least: float = 0.0) -> float:
    """A finite number of seconds, at least ``least`` (above 0 when ``positive``)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value < least
        or (positive and value == 0)
    ):
        floor = "> 0" if positive else f">= {least:g}"
        raise UsageError(f"{name} must be a finite number of seconds {floor}, got {value!r}")
    return float(value)


def flag(name: str, value: Any) -> bool:
    """``True`` or ``False``, not a string or a number that looks like one."""
    if not isinstance(value, bool):
        raise UsageError(f"{name} must be True or False, got {value!r}")
    return value


def text(name: str, value: Any) -> str:
    """A string."""
    if not isinstance(value, str):
        raise UsageError(f"{name} must be a string, got {value!r}")
    return value


def _items(value: Any) -> tuple[Any, ...] | None:
    """The items of a sequence a developer passed; ``None`` for what is one thing, not a
    sequence of them (a string, bytes, a mapping) or not iterable at all."""
    if isinstance(value, Iterable) and not isinstance(value, (str, bytes, Mapping)):
        return tuple(value)
    return None


def texts(name: str, value: Any) -> tuple[str, ...]:
    """Strings, in any iterable but a string itself (whose letters would be taken one
    by one)."""
    items = _items(value)
    if items is None or not all(isinstance(item, str) for item in items):
        raise UsageError(f"{name} must be a list of strings, got {value!r}")
    return items


def rules(name: str, value: Any) -> tuple[Any, ...]:
    """A sequence of ``Rule`` objects (a string is not one)."""
    from toolhygiene._rules import Rule

    items = _items(value)
    if items is None or not all(isinstance(r, Rule) for r in items):
        raise UsageError(f"{name} must be a sequence of th.Rule, got {value!r}")
    return items


CACHE_TTLS = ("5m", "1h")


def cache_control(name: str, value: Any) -> dict[str, Any]:
    """An Anthropic cache breakpoint: ``{"type": "ephemeral"}``, with an optional ``"ttl"``
    of ``"5m"`` or ``"1h"`` and nothing else (the API's only shape)."""
    ttl = value.get("ttl", "5m") if isinstance(value, Mapping) else None
    if (
        not isinstance(value, Mapping)
        or value.get("type") != "ephemeral"
        or set(value) - {"type", "ttl"}
        or ttl not in CACHE_TTLS
    ):
        raise UsageError(
            f"{name} must be {{'type': 'ephemeral'}}, with an optional 'ttl' of '5m' or '1h', "
            f"got {value!r}"
        )
    return dict(value)


def examples(name: str, value: Any) -> tuple[dict[str, Any], ...]:
    """A sequence of argument mappings (a single mapping or a string is not one)."""
    items = _items(value)
    if items is None or not all(isinstance(e, Mapping) for e in items):
        raise UsageError(f"{name} must be a list of argument dicts, got {value!r}")
    return tuple(dict(e) for e in items)
