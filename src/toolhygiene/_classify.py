"""Any exception to a ``Failure``: walk the chain, pick the most specific verdict.

User rules win, then a ``ToolError`` anywhere in the chain, then an HTTP status, then
the built-in table of library classes, then builtins; ``unknown`` when nothing matches.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import Any

from toolhygiene import _config, _words
from toolhygiene._errors import Category, Failure, ToolError, advice
from toolhygiene._frames import user_frame
from toolhygiene._http import headers_of, retry_after
from toolhygiene._library import (
    SCORE_RULE,
    SCORE_TOOL_ERROR,
    SCORE_UNKNOWN,
    Verdict,
    library_verdict,
    type_facts,
)
from toolhygiene._normalise import normalise
from toolhygiene._reading import chain as walk_chain
from toolhygiene._reading import members, os_error, raw_message, short_name
from toolhygiene._redact import RAW_CAP, neutralise, redact_data, sanitize
from toolhygiene._rules import Rule, global_rules
from toolhygiene._text import bounded_repr, plain

__all__ = ["classify", "exception_text", "outcome_rule", "summarize"]

_MAX_CHAIN = 64
"""Members of an exception's chain read, at most (a cause chain can be any length)."""


_ERRNO_PREFIX = re.compile(r"^\[Errno -?\d+\]\s*|^<urlopen error (.*)>$", re.DOTALL)


def exception_text(exc: BaseException, cap: int = RAW_CAP) -> str:
    """The message of ``exc`` as plain text of at most ``cap`` characters, whatever
    ``__str__`` does.

    A ``__str__`` that raises or returns a non-str, a ``str`` subclass, an empty message,
    bytes, a huge argument and ``KeyError``'s quoting all give a readable text.
    """
    parts = os_error(exc) if type_facts(type(exc)).builtin else None
    if parts is not None and parts[0] is not None and type(parts[1]) is str and parts[3] is None:
        # str() would say "[Errno 2] No such file or directory: 'x'"; the number goes.
        strerror, filename = parts[1][:cap].strip(), parts[2]
        return _words.os_error_text(
            strerror, None if filename is None else bounded_repr(filename, cap)
        )
    text = raw_message(exc, cap)
    if text is None:  # a hostile __str__ must not break the agent loop
        return _words.message_unreadable(short_name(exc))
    if isinstance(exc, KeyError) and len(_ARGS.__get__(exc)) == 1:
        return _words.no_such_key(text)
    text = text.strip()
    while text[:1] in ("[", "<"):
        m = _ERRNO_PREFIX.match(text)
        if m is None:
            break
        text = (m.group(1) or text[m.end() :]).strip()
    return text


def _rule_verdict(exc: BaseException, rules: Iterable[Rule]) -> tuple[Verdict, str] | None:
    for rule in rules:
        if rule.matches(exc):
            retryable = rule.category.retryable if rule.retryable is None else rule.retryable
            return Verdict(rule.category, retryable, SCORE_RULE), rule.hint
    return None


def _tool_error_verdict(exc: ToolError) -> Verdict:
    return Verdict(exc.category, exc.retryable, SCORE_TOOL_ERROR, None, plain(exc.what, RAW_CAP))


def classify(
    exc: BaseException,
    tool: str | None = None,
    *,
    rules: Iterable[Rule] = (),
    cap: int | None = None,
    idempotent: bool = True,
) -> Failure:
    """Turn any exception into a ``Failure`` with category, retryability and wait.

    Args:
        exc: the exception (its ``__cause__``/``__context__`` chain and exception-group
            members are read too).
        tool: the tool's name, for the line; ``"tool"`` when not given.
        rules: rules that win over the process-wide and built-in ones, first match first.
        cap: the line cap (default: the configured one).
        idempotent: ``False`` for a tool whose call must not run twice: a transient
            failure that came after the call may have taken effect (a read timeout, a 5xx
            answer; not a refused connection) is then ``uncertain`` and not retryable,
            unless the tool's own ``ToolError`` said otherwise.

    The most specific verdict in the chain wins; among equals, the outermost. The message
    is the outermost exception's text followed by the winning cause's, redacted and
    folded to one line.
    """
    cap = _config.line_cap(cap)
    facts = type_facts(type(exc))  # kept per class: read once here
    chain = walk_chain(exc, _MAX_CHAIN)
    all_rules = (*rules, *global_rules())
    known: list[Any] = [_UNSEEN] * len(chain)
    found_best, best_at, hint = _decide(chain, all_rules, known)
    if found_best is None:
        best = Verdict(Category.UNKNOWN, Category.UNKNOWN.retryable, SCORE_UNKNOWN)
    else:
        best = found_best
        # A group's members are in its chain: a lone exception is no group with members
        # (one that lists only itself has one verdict, never a lasting and a retryable).
        if best.retryable and len(chain) > 1:
            mixed = _mixed_group(exc, chain, all_rules, cap)
            if mixed is not None:
                best, message = mixed
                return Failure._built(
                    {
                        "tool": tool or "tool",
                        "category": best.category,
                        "retryable": False,
                        "message": message,
                        "hint": "",
                        "retry_after": None,
                        "exc_type": facts.name,
                        "frame": user_frame(exc),
                        "never_ran": False,
                        "uncertain": False,
                    }
                )
    chosen = chain[best_at]
    never_ran = _never_ran(chain, best_at, best, known)
    # A lone builtin exception carries no HTTP headers: no wait to read (a ToolError
    # whose class says it is a builtin still gives its own).
    lone_builtin = facts.builtin and len(chain) == 1 and not isinstance(exc, ToolError)
    wait = None if lone_builtin else _wait(chain, best_at)
    retryable, uncertain = best.retryable, False
    text = _message(chain, best_at, best, known)
    if isinstance(chosen, ToolError):
        if chosen._own_advice:  # refused arguments: each one named, shortened to fit
            text = _words.each_part(sanitize(text, RAW_CAP), cap) or text
        extra: dict[str, Any] = {
            "alternatives": tuple(
                sanitize(plain(a, RAW_CAP), cap // 2) for a in chosen.alternatives
            ),
            "partial_results": redact_data(chosen.partial_results),
            "details": redact_data(getattr(chosen, "details", None)),
            "instead": advice(chosen, cap),
        }
    else:
        extra = _NO_EXTRA
        if _outcome_unknown(best.category, retryable, never_ran, idempotent):
            retryable, uncertain, wait = False, True, None
    # Built once, without __init__: a Failure has 22 fields.
    return Failure._built(
        {
            "tool": tool or "tool",
            "category": best.category,
            "retryable": retryable,
            "message": sanitize(text, cap),
            "hint": sanitize(hint, cap) if hint else "",
            "retry_after": wait,
            "exc_type": facts.name,
            "frame": user_frame(exc),
            "never_ran": never_ran,
            "uncertain": uncertain,
            **extra,
        }
    )


_NO_EXTRA: dict[str, Any] = {}


def _decide(
    chain: list[BaseException], rules: tuple[Rule, ...], known: list[Any]
) -> tuple[Verdict | None, int, str]:
    """The most specific verdict in ``chain`` (the outermost among equals), where it is,
    and its rule's hint."""
    best: Verdict | None = None
    best_at = 0
    hint = ""
    for at, current in enumerate(chain):
        verdict: Verdict | None
        found = _rule_verdict(current, rules) if rules else None
        if found is not None:
            verdict, rule_hint = found
        else:
            rule_hint = ""
            if isinstance(current, ToolError):
                verdict = _tool_error_verdict(current)
            else:
                verdict = known[at] = library_verdict(current)
        if verdict is not None and (best is None or verdict.score > best.score):
            best, best_at, hint = verdict, at, rule_hint
    return best, best_at, hint


def _mixed_group(
    exc: BaseException, chain: list[BaseException], rules: tuple[Rule, ...], cap: int
) -> tuple[Verdict, str] | None:
    """For an exception group whose members are not all retryable: the verdict of the
    first member known not to be (a retry would meet it again) and the line's message,
    naming it and a retryable one. ``None`` when no group in the chain has a member with a
    known lasting verdict next to a retryable one (a member of unknown cause says nothing
    and does not decide)."""
    for group in chain:
        parts = []
        for member in members(group):
            below = walk_chain(member, _MAX_CHAIN)
            known: list[Any] = [_UNSEEN] * len(below)
            verdict, at, _hint = _decide(below, rules, known)
            if verdict is not None:
                parts.append((verdict, _message(below, at, verdict, known)))
        lasting = next((p for p in parts if not p[0].retryable), None)
        other = next((p for p in parts if p[0].retryable), None)
        if lasting is not None and other is not None:
            count = len(members(group))
            return lasting[0], sanitize(_words.group_failures(count, lasting[1], other[1]), cap)
    return None


def outcome_rule(failure: Failure, idempotent: bool) -> Failure:
    """``failure`` of a tool that is not idempotent made ``uncertain`` (and not
    retryable) when it is a transient failure that may have come after the call took
    effect (a timeout, a 5xx; not a refused connection or anything else that proves the
    call ``never_ran``). One rule for raised failures and returned payloads."""
    if _outcome_unknown(failure.category, failure.retryable, failure.never_ran, idempotent):
        return dataclasses.replace(failure, retryable=False, uncertain=True, retry_after=None)
    return failure


def _outcome_unknown(
    category: Category, retryable: bool, never_ran: bool, idempotent: bool
) -> bool:
    return (
        not idempotent
        and not never_ran
        and retryable
        and category in (Category.CONNECTIVITY, Category.UPSTREAM)
    )


_ARGS = BaseException.__dict__["args"]
_UNSEEN: Any = object()


def _known(chain: list[BaseException], known: list[Any], at: int) -> Verdict | None:
    """Member ``at``'s built-in verdict, looked up once per ``classify``."""
    if known[at] is _UNSEEN:
        known[at] = library_verdict(chain[at])
    return known[at]  # type: ignore[no-any-return]


def _message(chain: list[BaseException], at: int, verdict: Verdict, known: list[Any]) -> str:
    chosen = (
        verdict.message or exception_text(chain[at]) or _words.no_message(short_name(chain[at]))
    )
    parts = []
    if at > 0:
        outer = exception_text(chain[0]).rstrip(".")
        if outer and outer != chosen:
            parts.append(outer)
    parts.append(chosen)
    if verdict.message is None and at + 1 < len(chain):
        # A wrapper's own text ("Connection error.") says less than its cause's.
        inner = _known(chain, known, at + 1)
        if inner is not None and inner.category is verdict.category:
            detail = exception_text(chain[at + 1])
            if detail and detail not in chosen:
                parts[-1] = chosen.rstrip(".")
                parts.append(detail)
    if len(parts) == 1:
        return parts[0]
    # Each exception's text is its own: a role label opening an inner one ("System: wire
    # funds") would sit mid-line once joined, where no rule reads it as a label.
    return ": ".join(neutralise(normalise(part)) for part in parts)


def _wait(chain: list[BaseException], at: int) -> float | None:
    chosen = chain[at]
    if isinstance(chosen, ToolError):
        return chosen.retry_after
    for current in (chosen, *chain[:at], *chain[at + 1 :]) if len(chain) > 1 else (chosen,):
        if type_facts(type(current)).builtin:
            continue  # builtin exceptions carry no HTTP headers
        seconds = retry_after(headers_of(current), _config.settings.retry_after_ceiling)
        if seconds is not None:
            return seconds
    return None


def _never_ran(chain: list[BaseException], at: int, verdict: Verdict, known: list[Any]) -> bool:
    if verdict.never_ran is not None or verdict.category is not Category.CONNECTIVITY:
        return bool(verdict.never_ran)
    for deeper in range(at + 1, len(chain)):
        inner = _known(chain, known, deeper)
        if inner is not None and inner.never_ran is not None:
            return inner.never_ran
    return False


def summarize(exc: BaseException, tool: str) -> str:
    """The one line the model sees for ``exc`` raised by ``tool``."""
    return classify(exc, tool).line()
