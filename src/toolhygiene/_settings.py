"""A Session's settings: each checked whenever it is set, at construction or after.

A setting the calls read as they go (``max_failures``, ``max_wait``, ``retry_budget``,
``rules``, ``line_cap``, ``result_cap``, ``clearing``, ``max_stuck``, ``max_running``)
takes effect from the next call when it is changed; one the conversation is built on
(``history``, ``clear_at_least``, ``store``, ``id``) is refused once set. A wrong value
is a one-line ``UsageError`` that names the setting, never a silent no-op.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from toolhygiene import _checks, _config
from toolhygiene._exceptions import UsageError
from toolhygiene._history import HISTORIES, History, threshold
from toolhygiene._redact import fold
from toolhygiene._rules import Rule
from toolhygiene._stores import Store
from toolhygiene._text import valid
from toolhygiene._transcript import CLEARINGS, Clearing

__all__ = ["Settings", "session_id"]


def session_id(given: str | None) -> str:
    """The user's id for the conversation, or a random one unique across processes.

    A given id is made fit for every output once, here, so that the log line,
    ``testing.capture()``, the hooks, the spans and the store all carry the same valid
    UTF-8 text (``Session.id`` is that text): a lone surrogate becomes U+FFFD; terminal
    escapes, control and invisible characters are removed; line breaks and runs of
    spaces become one space; the ends are stripped. An id that is empty after that, or
    longer than 256 characters, is refused. An id of printable characters without
    spaces at its ends is kept as it is.
    """
    if given is None:
        return os.urandom(8).hex()  # secrets.token_hex(8), without importing secrets
    kept = ""
    if isinstance(given, str) and len(given) <= 256:
        kept = given if given.isprintable() and given == given.strip() else fold(valid(given))
    if not kept:
        raise UsageError(
            "session_id must be a string of at most 256 characters with a printable one, "
            f"got {given!r}"
        )
    return str(kept)


def _line_cap(name: str, value: Any) -> int | None:
    return None if value is None else _checks.whole(name, value, _config.MIN_LINE_CAP)


def _one_of(choices: tuple[str, ...]) -> Callable[[str, Any], str]:
    def check(name: str, value: Any) -> str:
        if value not in choices:
            raise UsageError(f"{name} must be one of {', '.join(choices)}, got {value!r}")
        return str(value)

    return check


def _store(name: str, value: Any) -> Store | None:
    if value is not None and not all(
        callable(getattr(value, method, None)) for method in ("start", "failed", "admit")
    ):
        raise UsageError(f"{name} must be a th.MemoryStore, a th.RedisStore or None, got {value!r}")
    return value  # type: ignore[no-any-return]


_LIVE: dict[str, Callable[[str, Any], Any]] = {
    "max_failures": lambda name, value: _checks.whole(name, value, 1),
    "max_wait": _checks.seconds,
    "retry_budget": _checks.seconds,
    "rules": _checks.rules,
    "line_cap": _line_cap,
    "result_cap": lambda _name, value: _config.check_result_cap(value),
    "clearing": _one_of(CLEARINGS),
    "max_stuck": lambda name, value: _checks.whole(name, value, 1),
    "max_running": lambda name, value: _checks.whole(name, value, 1),
}
"""Settings read by every call: checked, and in force from the next call."""

_FIXED: dict[str, Callable[[str, Any], Any]] = {
    "history": _one_of(HISTORIES),
    "clear_at_least": lambda _name, value: threshold(value),
    "store": _store,
    "id": lambda _name, value: session_id(value),
}
"""Settings the conversation is built on: checked once, then refused."""


class Settings:
    """The settings of a Session, checked as they are set (``__setattr__``)."""

    max_failures: int
    max_wait: float
    retry_budget: float
    rules: Sequence[Rule]
    line_cap: int | None
    result_cap: int | None
    clearing: Clearing
    max_stuck: int
    max_running: int
    history: History
    clear_at_least: int
    store: Store | None

    def __setattr__(self, name: str, value: Any) -> None:
        live = _LIVE.get(name)
        if live is not None:
            value = live(name, value)
            object.__setattr__(self, name, value)
            self._setting_changed(name, value)
            return
        fixed = _FIXED.get(name)
        if fixed is not None:
            if name in self.__dict__:
                if name == "id":
                    raise UsageError(
                        "id cannot change once the Session is made: "
                        "session.reset(session_id=...) starts a conversation with a new id"
                    )
                raise UsageError(
                    f"{name} cannot change once the Session is made: "
                    f"make a new Session with {name}={value!r}"
                )
            value = fixed(name, value)
        object.__setattr__(self, name, value)

    def _setting_changed(self, name: str, value: Any) -> None:
        """A live setting was set (hands it to the parts that keep a copy)."""
