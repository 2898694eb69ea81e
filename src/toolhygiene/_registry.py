"""Redaction rules a user adds: more detectors, and values that are never redacted.

Process-wide, like classification rules (``add_rule``): a detector added here runs after
the built-in ones in every ``redact``, ``sanitize`` and success result; an allowed value
(a string, or a compiled pattern that must match all of it) survives every detector.
"""

from __future__ import annotations

import importlib
import re
import sys
import threading
from typing import TYPE_CHECKING, Any

from toolhygiene._exceptions import UsageError

if TYPE_CHECKING:  # the detectors compile at the first redaction, not with toolhygiene
    from toolhygiene._detectors import Detector

__all__ = ["add_redaction", "allowed", "clear_redactions", "never_redact", "user_detectors"]

_lock = threading.Lock()
_detectors: tuple[Detector, ...] = ()
_values: frozenset[str] = frozenset()
_patterns: tuple[re.Pattern[str], ...] = ()
_broad: tuple[re.Pattern[str], ...] = ()
# Real-looking credentials of different providers (made up): an allow pattern that
# matches any of them is broad (``\w+``, ``.+``, ``sk_\w+``) and keeps no provider-format
# credential; a specific one (``sk_test_\w+``, ``AKIA[A-Z0-9]{12}TEST``) may.
_CANARIES = (
    "ghp_" + "Q7vX2mK9pL4wR8tZ6nB3aB3dEf6hIj9kLm2n",
    "AKIA" + "Q7VX2MK9PL4WR8TZ",
    "xoxb-" + "123456789012-1234567890123-Q7vX2mK9pL4wR8tZ6nB3aB3d",
    "sk_live_" + "Q7vX2mK9pL4wR8tZ6nB3aB3d",
    "sk-ant-api03-" + "Q7vX2mK9pL4wR8tZ6nB3aB3dEf6hIj9kLm2n",
    "glpat-" + "Q7vX2mK9pL4wR8tZ6nB3",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.Q7vX2mK9pL4wR8tZ6nB3",
)
# The regex parser (private, stable since Python 2): ``re._parser`` from 3.11 on.
_NEW_PARSER = sys.version_info >= (3, 11)
_parser: Any = importlib.import_module("re._parser" if _NEW_PARSER else "sre_parse")
_constants: Any = importlib.import_module("re._constants" if _NEW_PARSER else "sre_constants")
_POSSESSIVE = getattr(_constants, "POSSESSIVE_REPEAT", None)
_ATOMIC = getattr(_constants, "ATOMIC_GROUP", None)
_NAME = re.compile(r"[a-z0-9][a-z0-9\-]{0,39}")


def add_redaction(
    name: str,
    pattern: str | re.Pattern[str],
    *,
    gate: tuple[str, ...] | str = (),
    internal: bool = False,
) -> None:
    """Redact what ``pattern`` matches as ``[redacted:<name>]``, everywhere.

    Args:
        name: lowercase letters, digits and ``-`` (``"acme-key"``).
        pattern: a regex; with a group named ``secret`` only that group is replaced, so
            a label before it can stay (``r"acme_id=(?P<secret>\\w+)"``).
        gate: lowercase substrings of which one must occur for the regex to run (a
            cheap filter, worth giving for a pattern that starts with a literal).
        internal: an internal detail rather than a secret: like e-mail addresses and
            private addresses, it is redacted in failures and logs but left in what the
            model itself sent and in successful results.

    Raises:
        UsageError: a bad name or a pattern that does not compile.
    """
    global _detectors
    if not _NAME.fullmatch(name):
        raise UsageError(f"redaction name {name!r} must be lowercase letters, digits and '-'")
    try:
        compiled = re.compile(pattern) if isinstance(pattern, str) else pattern
    except re.error as exc:
        raise UsageError(f"redaction {name!r}: the pattern does not compile: {exc}") from exc
    if compiled.search("") is not None:
        raise UsageError(
            f"redaction {name!r}: the pattern matches the empty string, so it would "
            "redact nothing or everything; make it require at least one character"
        )
    nested = _nested_repeat(_parser.parse(compiled.pattern, compiled.flags))
    if nested:
        raise UsageError(
            f"redaction {name!r}: the pattern repeats a repetition ({nested}), which "
            "can take minutes on a short hostile text; write it without nesting "
            "(for example '(a+)+' as 'a+')"
        )
    from toolhygiene._detectors import Detector

    gates = (gate,) if isinstance(gate, str) else tuple(gate)
    detector = Detector(
        name, compiled, tuple(g.lower() for g in gates), "internal" if internal else "secret"
    )
    with _lock:
        _detectors = (*_detectors, detector)


def _nested_repeat(parsed: Any, inside: bool = False) -> str:
    """The first repetition inside another unbounded-or-long repetition, as text ("" if
    none): the shape of catastrophic backtracking (``(a+)+``, ``(\\w*\\s?)*``)."""
    for op, arg in parsed:
        children: list[Any] = []
        repeats = False
        if op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT, _POSSESSIVE):
            low, high, sub = arg
            repeats = high is _constants.MAXREPEAT or high > max(low, 1)
            if repeats and inside:
                return "a quantifier inside a quantified group"
            if op is not _POSSESSIVE:
                found = _nested_repeat(sub, inside or repeats)
                if found:
                    return found
            continue
        if op is _constants.SUBPATTERN:
            children = [arg[-1]]
        elif op is _constants.BRANCH:
            children = list(arg[1])
        elif op in (_constants.ASSERT, _constants.ASSERT_NOT):
            children = [arg[1]]
        elif op is _ATOMIC:
            continue
        for child in children:
            found = _nested_repeat(child, inside)
            if found:
                return found
    return ""


def never_redact(*values: str | re.Pattern[str]) -> None:
    """Keep these values whatever a detector says: exact strings, or compiled patterns
    that must match the whole redacted value (``re.compile(r"ACME-TEST-[0-9]{6}")``).

    A credential in a provider's published format (``ghp_…``, ``AKIA…``, ``sk_live_…``)
    is kept by an exact string or by a specific pattern (``sk_test_\\w+``); a broad
    pattern, one that would match a real credential of another provider (``\\w+``,
    ``.+``, ``sk_\\w+``), keeps only values that are not in a provider format, so it
    cannot switch redaction off."""
    global _values, _patterns, _broad
    patterns = [v for v in values if isinstance(v, re.Pattern)]
    broad = [p for p in patterns if any(p.fullmatch(c) for c in _CANARIES)]
    with _lock:
        _values = _values | {v for v in values if isinstance(v, str)}
        _patterns = (*_patterns, *patterns)
        _broad = (*_broad, *broad)


def clear_redactions() -> None:
    """Remove every detector and allowed value added by the user."""
    global _detectors, _values, _patterns, _broad
    with _lock:
        _detectors, _values, _patterns, _broad = (), frozenset(), (), ()


def user_detectors() -> tuple[Detector, ...]:
    """The detectors added with ``add_redaction``, in order."""
    return _detectors


def allowed(value: str, *, provider: bool = False) -> bool:
    """Whether ``value`` was allowed with ``never_redact`` (a ``provider`` format only
    as an exact string)."""
    if not _values and not _patterns:
        return False
    bare = value.strip("\"'")
    if bare in _values:
        return True
    return any(p.fullmatch(bare) for p in _patterns if not (provider and p in _broad))
