"""The records: what a tool raises, what a failure is, what an empty result is.

``ToolError`` is a tool's own account of a failure; ``Failure`` is the frozen record of
one failed call, whatever raised it, and renders the one line the model sees;
``Empty`` is a successful call that found nothing.
"""

from __future__ import annotations

import enum
import hashlib
import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from toolhygiene import _config
from toolhygiene.redact import sanitize, truncate

__all__ = ["FAILURE_SCHEMA", "Category", "CoarseClass", "Empty", "Failure", "ToolError"]


class CoarseClass(str, enum.Enum):
    """The coarse class a structured error payload carries as ``errorCategory``."""

    TRANSIENT = "transient"
    VALIDATION = "validation"
    BUSINESS = "business"
    PERMISSION = "permission"
    OTHER = "other"


class Category(str, enum.Enum):
    """What kind of failure this was; each knows its default retryability and hint."""

    CONNECTIVITY = "connectivity"
    RATE_LIMIT = "rate_limit"
    UPSTREAM = "upstream"
    BAD_REQUEST = "bad_request"
    AUTH = "auth"
    NOT_FOUND = "not_found"
    BUSINESS = "business"
    UNKNOWN = "unknown"

    @property
    def retryable(self) -> bool:
        """Whether a failure of this kind can pass if the same call is made again."""
        return _TRAITS[self._value_][0]

    @property
    def coarse(self) -> CoarseClass:
        """The coarse class (``transient``, ``validation``, ...)."""
        return _TRAITS[self._value_][1]

    @property
    def hint(self) -> str:
        """One actionable sentence, with ``{tool}`` where the tool's name goes."""
        return _TRAITS[self._value_][2]

    def hint_for(self, tool: str) -> str:
        """The hint with the tool's name filled in."""
        return self.hint.replace("{tool}", tool)


# Keyed by value: a str hashes in C, an Enum member in Python.
_TRAITS: dict[str, tuple[bool, CoarseClass, str]] = {
    "connectivity": (
        True,
        CoarseClass.TRANSIENT,
        (
            "Wait a few seconds, then call {tool} again with the same arguments; if it fails "
            "again, continue without it."
        ),
    ),
    "rate_limit": (
        True,
        CoarseClass.TRANSIENT,
        "Wait, then call {tool} again with the same arguments; do not call it in a tight loop.",
    ),
    "upstream": (
        True,
        CoarseClass.TRANSIENT,
        (
            "The service behind {tool} is failing; try once more later, else continue without "
            "it and tell the user."
        ),
    ),
    "bad_request": (
        False,
        CoarseClass.VALIDATION,
        "Fix the arguments to match {tool}'s schema, then call it again.",
    ),
    "auth": (
        False,
        CoarseClass.PERMISSION,
        "Do not retry; tell the user that {tool} needs credentials or permissions it lacks.",
    ),
    "not_found": (
        False,
        CoarseClass.VALIDATION,
        "Check the name or id, or search for it first, instead of repeating the call.",
    ),
    "business": (
        False,
        CoarseClass.BUSINESS,
        "A rule forbids this; tell the user, or choose a different action.",
    ),
    "unknown": (
        False,
        CoarseClass.OTHER,
        "Do not repeat the same call; try a different approach or tell the user what failed.",
    ),
}


def _seconds(value: float) -> str:
    return f"{value:.0f}" if value >= 10 or value == int(value) else f"{value:.1f}"


_VOLATILE = re.compile(r"'[^']*'|\"[^\"]*\"|\S*\d\S*")


def fingerprint(tool: str, category: Category, message: str) -> str:
    """A short stable hash of tool, category and the message with its values masked.

    Quoted strings and tokens with digits are masked, so that a model varying one
    argument of a broken call still produces the same fingerprint.
    """
    shape = _VOLATILE.sub("#", message.lower())
    digest = hashlib.blake2b(f"{tool}\0{category.value}\0{shape}".encode(), digest_size=6)
    return digest.hexdigest()


FailureStatus = Literal["failed", "repeated", "closed"]


@dataclass(frozen=True, slots=True)
class Failure:
    """The record of one failed tool call.

    ``message`` is already safe for the model (redacted, one line). ``status`` is
    ``"failed"`` for an ordinary failure, ``"repeated"`` when the same failure has been
    seen before in the session, ``"closed"`` when the tool had reached its cap and was not
    run; ``count`` is how many failures of this tool the session has seen, ``repeats``
    how many times this same failure was seen, and ``closes`` says this failure reached
    the cap.
    """

    tool: str
    category: Category
    retryable: bool
    message: str
    hint: str = ""
    retry_after: float | None = None
    attempted: Mapping[str, Any] | None = None
    partial_results: Any = None
    alternatives: tuple[str, ...] = ()
    exc_type: str = ""
    frame: str | None = None
    never_ran: bool = False
    status: FailureStatus = "failed"
    count: int = 0
    repeats: int = 0
    closes: bool = False
    instead: str = field(default="", repr=False)

    @property
    def fingerprint(self) -> str:
        """Tool + category + masked message: the same failure, whatever the arguments."""
        return fingerprint(self.tool, self.category, self.message)

    def _advice(self) -> str:
        advice = self.instead or self.hint
        if not advice:
            if self.retryable == self.category.retryable:
                advice = self.category.hint_for(self.tool)
            elif self.retryable:
                advice = (
                    f"Call {self.tool} once more with the same arguments; if it fails again, "
                    "continue without it"
                )
            else:
                advice = (
                    f"Do not repeat the call; continue without {self.tool}, "
                    "or tell the user what failed"
                )
        advice = advice[:1].upper() + advice[1:]
        if self.alternatives:
            advice = _sentence(advice) + " Alternatives: " + "; ".join(self.alternatives)
        return _sentence(advice)

    def _retry_sentence(self) -> str:
        if self.status == "repeated":
            return (
                f"This exact failure has now happened {self.repeats} times; repeating the call, "
                "even with other arguments, will fail again. Try a different approach."
            )
        if not self.retryable:
            return "Not transient: the same call will fail the same way."
        if self.retry_after is not None:
            return f"Transient: retry after {_seconds(self.retry_after)} s."
        return "Transient: a retry may succeed."

    def line(self, cap: int | None = None) -> str:
        """The one line the model sees, at most ``cap`` characters (default: the
        configured line cap, 300)."""
        cap = cap or _config.settings.line_cap
        if self.status == "closed":
            text = (
                f"[error] {self.tool}: unavailable. {self.tool} has failed {self.count} times "
                "in this conversation and is now closed. Continue without it, or tell the "
                "user what you could not do."
            )
            return truncate(text, cap)
        head = f"[error] {self.tool}: {self.category.value}. "
        tail = " " + self._retry_sentence() + " " + self._advice()
        if self.closes:
            tail += f" {self.tool} is now closed for this conversation."
        room = cap - len(head) - len(tail)
        what = _sentence(self.message or "it failed")
        if room >= 40:
            return head + truncate(what, room) + tail
        return truncate(head + what + tail, cap)

    def to_dict(self) -> dict[str, Any]:
        """The structured payload; optional fields are absent when unknown."""
        payload: dict[str, Any] = {
            "isError": True,
            "errorCategory": self.category.coarse.value,
            "isRetryable": self.retryable and self.status == "failed",
            "message": self.line(),
            "tool": self.tool,
            "category": self.category.value,
        }
        if self.retry_after is not None:
            payload["retryAfterSeconds"] = self.retry_after
        if self.attempted is not None:
            payload["attempted_query"] = {"tool": self.tool, "arguments": dict(self.attempted)}
        if self.partial_results is not None:
            payload["partial_results"] = self.partial_results
        if self.alternatives:
            payload["alternatives"] = list(self.alternatives)
        return payload


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    return text if text[-1] in ".!?…" else text + "."


FAILURE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "toolhygiene failure",
    "type": "object",
    "properties": {
        "isError": {"const": True},
        "errorCategory": {"enum": [c.value for c in CoarseClass]},
        "isRetryable": {"type": "boolean"},
        "message": {"type": "string", "minLength": 1, "pattern": "^[^\\n\\r]*$"},
        "tool": {"type": "string", "minLength": 1},
        "category": {"enum": [c.value for c in Category]},
        "retryAfterSeconds": {"type": "number", "minimum": 0},
        "attempted_query": {
            "type": "object",
            "properties": {"tool": {"type": "string"}, "arguments": {"type": "object"}},
            "required": ["tool", "arguments"],
        },
        "partial_results": {},
        "alternatives": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["isError", "errorCategory", "isRetryable", "message", "tool", "category"],
    "additionalProperties": False,
}
"""JSON Schema of ``Failure.to_dict()``; only always-present fields are required."""


class ToolError(Exception):
    """Raised by a tool that knows what went wrong; its text is what the model sees.

    Args:
        what: what failed, specifically (which argument, which id, which rule).
        retryable: whether the same call can succeed later. Required: the tool's author
            decides, at the moment they know.
        instead: what the model should do instead (a legal next move).
        category: a ``Category`` or its value; by default ``upstream`` when retryable,
            else ``business``.
        retry_after: seconds to wait before a retry, when known.
        alternatives: other concrete next moves.
        partial_results: whatever was collected before the failure.
    """

    def __init__(
        self,
        what: str,
        *,
        retryable: bool,
        instead: str = "",
        category: Category | str | None = None,
        retry_after: float | None = None,
        alternatives: Iterable[str] = (),
        partial_results: Any = None,
    ) -> None:
        super().__init__(what)
        self.what = what
        self.retryable = retryable
        self.instead = instead
        if category is None:
            category = Category.UPSTREAM if retryable else Category.BUSINESS
        self.category = Category(category)
        if retry_after is not None and not (math.isfinite(retry_after) and retry_after >= 0):
            retry_after = None
        self.retry_after = retry_after
        self.alternatives = tuple(alternatives)
        self.partial_results = partial_results

    def for_model(self, tool: str = "tool") -> str:
        """The one line the model sees for this error raised by ``tool``."""
        cap = _config.settings.line_cap
        return Failure(
            tool=tool,
            category=self.category,
            retryable=self.retryable,
            message=sanitize(self.what, cap),
            instead=sanitize(self.instead, cap),
            retry_after=self.retry_after,
            alternatives=tuple(sanitize(a, cap // 2) for a in self.alternatives),
            exc_type="ToolError",
        ).line()


@dataclass(frozen=True, slots=True)
class Empty:
    """What a tool returns when it ran fine and found nothing. Not an error.

    Args:
        query: what was searched for, in words the model will recognise.
        note: what to do next; by default, broaden the query or tell the user.
    """

    query: str
    note: str = ""

    def for_model(self, tool: str = "tool") -> str:
        """The one line the model sees: nothing matched, and a retry will not change it."""
        cap = _config.settings.line_cap
        note = self.note or "Broaden or change the query, or tell the user nothing matched"
        query = sanitize(self.query, cap // 2)
        text = (
            f"[empty] {tool}: nothing matched {query}. The search ran fine; repeating it "
            f"unchanged will return nothing again. {_sentence(sanitize(note, cap))}"
        )
        return truncate(text, cap)


def content_of(value: Any, tool: str) -> str:
    """The text the model sees for a tool's successful return value."""
    if isinstance(value, str):
        return value
    if isinstance(value, Empty):
        return value.for_model(tool)
    dump = getattr(value, "model_dump_json", None)
    if callable(dump):
        return str(dump())
    return json.dumps(value, ensure_ascii=False, default=str)
