"""Checks of the settings a developer passes: each wrong value is a ``UsageError`` that
names the setting, raised where it is set, never later inside a call."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from toolhygiene._exceptions import UsageError

__all__ = ["flag", "rules", "seconds", "text", "whole"]


def whole(name: str, value: Any, least: int) -> int:
    """A whole number of at least ``least`` (``True`` is not a number here)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise UsageError(f"{name} must be a whole number of at least {least}, got {value!r}")
    return value


def seconds(name: str, value: Any, *, positive: bool = False) -> float:
    """A finite number of seconds, at least 0 (above 0 when ``positive``)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value < 0
        or (positive and value == 0)
    ):
        least = "> 0" if positive else ">= 0"
        raise UsageError(f"{name} must be a finite number of seconds {least}, got {value!r}")
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


def rules(name: str, value: Any) -> tuple[Any, ...]:
    """A sequence of ``Rule`` objects (a string is not one)."""
    from toolhygiene.rules import Rule

    items = tuple(value) if isinstance(value, Iterable) and not isinstance(value, str) else None
    if items is None or not all(isinstance(r, Rule) for r in items):
        raise UsageError(f"{name} must be a sequence of th.Rule, got {value!r}")
    return items
