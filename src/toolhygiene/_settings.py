"""A Session's settings: each checked whenever it is set, at construction or after.

A setting the calls read as they go (``max_failures``, ``max_wait``, ``retry_budget``,
``rules``, ``line_cap``, ``result_cap``, ``clearing``, ``max_stuck``, ``max_running``)
takes effect from the next call when it is changed; one the conversation is built on
(``history``, ``clear_at_least``, ``store``, ``id``) is refused once set. A wrong value
is a one-line ``UsageError`` that names the setting, never a silent no-op.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, NoReturn

from toolhygiene import _checks, _config
from toolhygiene._exceptions import UsageError
from toolhygiene._history import HISTORIES, History, threshold
from toolhygiene._observe import shown_id
from toolhygiene._redact import sanitize
from toolhygiene._rules import Rule
from toolhygiene._stores import Store
from toolhygiene._transcript import CLEARINGS, Clearing

__all__ = ["Settings", "session_id"]


def session_id(given: str | None) -> str:
    """The conversation's id as every output writes it (``Session.id``), or a random one
    unique across processes.

    A given id is written the way a call id is (``_observe.shown_id``): escape sequences
    and control or invisible characters removed, one line, a secret in it redacted, and
    ending in ``~`` and a short tag when it had to change, so two ids stay two in the
    outputs. The store keys the conversation by the exact id given
    (``_stores.conversation_key``), never by this text. An id of at most 256 characters
    with something left to show is taken; any other is refused.
    """
    if given is None:
        return os.urandom(8).hex()  # secrets.token_hex(8), without importing secrets
    if not isinstance(given, str) or len(given) > 256 or not sanitize(given, 256):
        raise UsageError(
            "session_id must be a string of at most 256 characters with a printable one, "
            f"got {given!r}"
        )
    return str(shown_id(given))


def _line_cap(name: str, value: Any) -> int | None:
    if value is None:
        return None
    return _checks.whole(name, value, _config.MIN_LINE_CAP, _config.MAX_LINE_CAP)


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


_LIVE: dict[str, _checks.Check] = {
    "max_failures": lambda name, value: _checks.whole(name, value, 1),
    "max_wait": _checks.seconds,
    # below one least attempt a budget allows no retry and cuts the first attempt to a
    # sliver that could not do what a full one does: meaningless, so refused
    "retry_budget": lambda name, value: _checks.seconds(name, value, least=_config.LEAST_ATTEMPT),
    "rules": _checks.rules,
    "line_cap": _line_cap,
    "result_cap": lambda _name, value: _config.check_result_cap(value),
    "clearing": _one_of(CLEARINGS),
    "max_stuck": lambda name, value: _checks.whole(name, value, 1),
    "max_running": lambda name, value: _checks.whole(name, value, 1),
}
"""Settings read by every call: checked, and in force from the next call."""

_FIXED_CHECKS: dict[str, _checks.Check] = {
    "history": _one_of(HISTORIES),
    "clear_at_least": lambda _name, value: threshold(value),
    "store": _store,
    "id": lambda _name, value: value,  # set as ``session_id`` made it
    "tools": lambda _name, value: value,  # the Session's own dict of its tools, by name
}
"""Settings the conversation is built on: checked once, then refused."""


_TOOL_ONLY = (
    "cache_control",
    "defer_loading",
    "description",
    "idempotent",
    "input_examples",
    "instead",
    "redact_results",
    "retries",
    "strict",
    "timeout",
    "untrusted",
    "upstream",
)
"""A tool's settings that a Session does not have (``max_failures``, ``rules`` and
``result_cap`` are both's): set on a Session, each says where it belongs."""


class Settings(_checks.Checked):
    """The settings of a Session, checked as they are set (``_checks.Checked``): live ones
    take effect from the next call, fixed ones are refused once set, none can be deleted,
    and a new public attribute close to a setting's name is refused as a misspelling."""

    _CHECKS: ClassVar[Mapping[str, _checks.Check]] = {**_LIVE, **_FIXED_CHECKS}
    _FIXED: ClassVar[frozenset[str]] = frozenset(_FIXED_CHECKS)
    _KIND: ClassVar[str] = "Session"
    _ELSEWHERE: ClassVar[frozenset[str]] = frozenset({"session_id", *_TOOL_ONLY})

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

    def _refuse_elsewhere(self, name: str) -> NoReturn:
        if name == "session_id":
            raise UsageError(
                "session_id is not a Session setting: "
                "session.reset(session_id=...) starts a conversation with a new id"
            )
        raise UsageError(
            f"{name} is not a Session setting: set it on the tool (@th.tool({name}=...))"
        )

    def _refuse_change(self, name: str, value: Any) -> NoReturn:
        if name == "id":
            raise UsageError(
                "id cannot change once the Session is made: "
                "session.reset(session_id=...) starts a conversation with a new id"
            )
        raise UsageError(
            f"{name} cannot change once the Session is made: "
            f"make a new Session with {name}={value!r}"
        )
