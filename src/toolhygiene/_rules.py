"""User rules: map an exception class or a predicate to a category.

User rules win over the built-in ones; rules given to a tool win over the session's,
which win over the process-wide ones added with ``add_rule``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from toolhygiene._errors import Category
from toolhygiene._exceptions import UsageError

__all__ = ["Rule", "add_rule", "clear_rules", "global_rules"]

Matcher = type[BaseException] | tuple[type[BaseException], ...] | Callable[[BaseException], bool]


@dataclass(frozen=True, slots=True)
class Rule:
    """An exception class (or classes, or a predicate) and what it means.

    Args:
        match: an exception class, a tuple of them, or ``predicate(exc) -> bool``.
        category: the category it maps to.
        retryable: overrides the category's default retryability.
        hint: the sentence telling the model what to do instead.
    """

    match: Matcher
    category: Category
    retryable: bool | None = None
    hint: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "category", Category(self.category))
        if not (callable(self.match) or isinstance(self.match, tuple)):
            raise UsageError(
                "Rule.match must be an exception class, a tuple of them or a predicate"
            )

    def matches(self, exc: BaseException) -> bool:
        """Whether the rule applies; a predicate that raises does not apply."""
        match = self.match
        if isinstance(match, tuple) or (
            isinstance(match, type) and issubclass(match, BaseException)
        ):
            return isinstance(exc, match)
        try:
            return bool(cast(Callable[[BaseException], bool], match)(exc))
        except Exception:  # a broken user predicate must not break the agent loop
            return False


_lock = threading.Lock()
_global: list[Rule] = []


def add_rule(
    match: Matcher,
    category: Category | str,
    *,
    retryable: bool | None = None,
    hint: str = "",
) -> Rule:
    """Add a process-wide rule; later rules win over earlier ones. Returns the rule."""
    rule = Rule(match, Category(category), retryable, hint)
    with _lock:
        _global.insert(0, rule)
    return rule


def clear_rules() -> None:
    """Remove every process-wide rule added with ``add_rule``."""
    with _lock:
        _global.clear()


def global_rules() -> tuple[Rule, ...]:
    """The process-wide rules, the one that wins first."""
    return tuple(_global)
