"""Checks of the settings a developer passes: each wrong value is a ``UsageError`` that
names the setting, raised where it is set, never later inside a call."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, NoReturn

from toolhygiene._exceptions import UsageError

__all__ = [
    "Check",
    "Checked",
    "cache_control",
    "examples",
    "flag",
    "rules",
    "seconds",
    "text",
    "texts",
    "whole",
]


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


Check = Callable[[str, Any], Any]
"""A setting's check: its name and the value given, to the value kept (or a
``UsageError`` naming the setting)."""


def _declared(cls: type, name: str) -> bool:
    """Whether ``cls`` or a base declares ``name`` (``Core``: ``tools``, ``server``...)."""
    return any(name in vars(k).get("__annotations__", ()) for k in cls.__mro__)


_SLIPS = {
    "retry": "retries",
    "max_retries": "retries",
    "num_retries": "retries",
    "tool_timeout": "timeout",
    "timeout_s": "timeout",
    "timeout_seconds": "timeout",
}
"""Common slips for a setting's name that are too far from it for ``difflib``
(``retry`` against ``retries`` scores 0.67)."""


def _refuse_a_misspelling(name: str, settings: Iterable[str], kind: str) -> None:
    """A new public attribute that is a near miss of a setting's name (``max_wiat``,
    ``retires``, ``Max_failures``, ``clearing_mode``) is a ``UsageError`` naming the
    setting: set, it would do nothing."""
    names = list(settings)
    typed = name.lower()
    if not typed:
        return  # ``setattr(obj, "", ...)``: no name to be near
    slip = _SLIPS.get(typed)
    close = [slip] if slip in names else [n for n in names if typed.startswith(f"{n}_")]
    if not close and any(n[0] == typed[0] and abs(len(n) - len(typed)) <= 2 for n in names):
        import difflib  # only for a name that could be a near miss, never for ``label``

        # 0.75: one letter changed in a four-letter name (``nmae``) is still a near miss
        close = difflib.get_close_matches(typed, names, n=1, cutoff=0.75)
    if close:
        raise UsageError(f"{name} is not a {kind} setting: did you mean {close[0]}?")


class Checked:
    """Settings checked by one table (``_CHECKS``) whenever they are set, at construction
    or after it, so a wrong value is a one-line ``UsageError`` where it is set and never a
    raw error, a silent no-op or a false line inside a later call.

    A setting in ``_FIXED`` is checked once and then refused: what is built on it would
    not follow. Deleting a setting, or another attribute the class declares, is refused
    (the next call would read a missing attribute). A new public attribute that is a near
    miss of a setting's name is refused as a misspelling; any other attribute is the
    program's own business.
    """

    _CHECKS: ClassVar[Mapping[str, Check]] = {}
    _FIXED: ClassVar[frozenset[str]] = frozenset()
    _KIND: ClassVar[str] = "object"
    """What the messages call the object (``Session``, ``tool``)."""
    _ELSEWHERE: ClassVar[frozenset[str]] = frozenset()
    """Names that are no setting here but mean one elsewhere (``session.retries``: a
    tool's), each refused by ``_refuse_elsewhere``."""

    def __setattr__(self, name: str, value: Any) -> None:
        check = self._CHECKS.get(name)
        if check is None:
            if (
                not name.startswith("_")
                and name not in self.__dict__
                and not _declared(type(self), name)
            ):
                meant = _SLIPS.get(name.lower(), name)
                if meant in self._ELSEWHERE:
                    self._refuse_elsewhere(meant)
                _refuse_a_misspelling(name, self._CHECKS, self._KIND)
            object.__setattr__(self, name, value)
            return
        if name in self._FIXED and name in self.__dict__:
            self._refuse_change(name, value)
        value = self._checked(name, check(name, value))
        object.__setattr__(self, name, value)
        self._setting_changed(name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._FIXED:
            raise UsageError(f"{name} is a {self._KIND} setting and cannot be deleted")
        if name in self._CHECKS:
            raise UsageError(
                f"{name} is a {self._KIND} setting and cannot be deleted: set it to another "
                "value instead"
            )
        if not name.startswith("_") and _declared(type(self), name):
            raise UsageError(f"{name} is part of the {self._KIND} and cannot be deleted")
        object.__delattr__(self, name)

    def _refuse_change(self, name: str, value: Any) -> NoReturn:
        """A fixed setting, set once, is set again: refused, saying what to do instead."""
        raise UsageError(f"{name} cannot change once the {self._KIND} is made")

    def _refuse_elsewhere(self, name: str) -> NoReturn:
        """A name of ``_ELSEWHERE`` is set: refused, saying where it is set."""
        raise UsageError(f"{name} is not a {self._KIND} setting")

    def _checked(self, name: str, value: Any) -> Any:
        """A checked value checked again against the object itself (a tool's signature),
        before it is kept."""
        return value

    def _setting_changed(self, name: str, value: Any) -> None:
        """A setting was set (hands it to the parts that keep a copy)."""
