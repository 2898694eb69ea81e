"""The records: what a tool raises, what a failure is, what an empty result is.

``ToolError`` is a tool's own account of a failure; ``Failure`` is the frozen record of
one failed call, whatever raised it, and renders the one line the model sees;
``Empty`` is a successful call that found nothing.
"""

from __future__ import annotations

import enum
import json
import math
import operator
import re
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from itertools import repeat
from typing import Any, Literal

from toolhygiene import _checks, _config, _words
from toolhygiene._exceptions import UsageError
from toolhygiene._frozen import frozen
from toolhygiene._results import UnserializableError, to_json
from toolhygiene._text import bounded_repr, plain, truncate
from toolhygiene._words import HINTS

__all__ = ["FAILURE_SCHEMA", "Category", "CoarseClass", "Empty", "Failure", "ToolError"]


def _sanitize(text: str, cap: int, *, internals: bool = True) -> str:
    """``_redact.sanitize``, imported at its first use: the redaction engine loads with the
    first failure, not with ``import toolhygiene`` or a ``@tool`` (which need the names
    of this module)."""
    from toolhygiene import _redact

    return _redact.sanitize(text, cap, internals=internals)


def advice(error: ToolError, cap: int) -> str:
    """``error.instead`` as the model reads it, at most ``cap`` characters. The advice
    toolhygiene writes from a tool's schema names the arguments and their types: the
    model has that schema already and a parameter name is no secret (``password: a
    string``), so it is folded and cut, never redacted or neutralised. Any other advice
    is a tool's own text, sanitised."""
    from toolhygiene import _redact

    if error._own_advice:
        return truncate(_redact.fold(error.instead), cap)
    return _redact.sanitize(plain(error.instead, _redact.RAW_CAP), cap)


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
    "connectivity": (True, CoarseClass.TRANSIENT, HINTS["connectivity"]),
    "rate_limit": (True, CoarseClass.TRANSIENT, HINTS["rate_limit"]),
    "upstream": (True, CoarseClass.TRANSIENT, HINTS["upstream"]),
    "bad_request": (False, CoarseClass.VALIDATION, HINTS["bad_request"]),
    "auth": (False, CoarseClass.PERMISSION, HINTS["auth"]),
    "not_found": (False, CoarseClass.VALIDATION, HINTS["not_found"]),
    "business": (False, CoarseClass.BUSINESS, HINTS["business"]),
    "unknown": (False, CoarseClass.OTHER, HINTS["unknown"]),
}


# A token with a digit is matched from its start only: ``\S*\d\S*`` tried at every
# position is quadratic on a long token without digits.
_VOLATILE = re.compile(r"'[^']*'|\"[^\"]*\"|(?<!\S)(?=\S*\d)\S+")


def fingerprint(tool: str, category: Category, message: str) -> str:
    """A short stable hash of tool, category and the message with its values masked.

    Quoted strings and tokens with digits are masked, so that a model varying one
    argument of a broken call still produces the same fingerprint.
    """
    import hashlib  # OpenSSL's bindings: at the first failure, not at import

    shape = _VOLATILE.sub("#", message.lower())
    # (fix22b) a message read decoded may hold a lone surrogate: hashed as written
    key = f"{tool}\0{category.value}\0{shape}".encode("utf-8", "surrogatepass")
    digest = hashlib.blake2b(key, digest_size=6)
    return digest.hexdigest()


FailureStatus = Literal["failed", "repeated", "similar", "closed"]


@dataclass(frozen=True, slots=True)
class Failure:
    """The record of one failed tool call.

    ``message`` is already safe for the model (redacted, one line). ``status`` is
    ``"failed"`` for an ordinary failure, ``"repeated"`` when this exact call (same tool,
    same arguments) failed the same way before, ``"similar"`` when calls with other
    arguments failed the same way before, ``"closed"`` when the tool had reached its cap
    and was not run; ``count`` is how many failures of this tool the session has seen,
    ``repeats`` how many times this exact call (``repeated``) or how many different
    calls (``similar``) failed this way, and ``closes`` says this failure reached the
    cap. ``uncertain``: the tool is not idempotent and the failure came after the call
    may have taken effect (a read timeout, a 5xx answer), so nobody knows whether it did.
    ``coarse``: set when only the coarse class is known (another agent's payload named no
    fine category); ``category`` is then that class's nearest fine category, used for the
    retry policy and never shown as a fact. ``details``: structured data the failing tool
    sent with its error (an MCP ``structuredContent``), redacted; never in the line.
    ``refused``: the call was not started, because earlier runs of the tool (or of the
    session) are still going. ``attempted`` is a read-only copy of what it is given (a
    ``MappingProxyType``, lists as tuples): what every reader of the record sees is what
    the session recorded. ``line_cap``: the line cap of the Session that recorded
    the failure (``None``: the configured one), which ``line()`` and ``to_dict()`` keep.
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
    uncertain: bool = False
    status: FailureStatus = "failed"
    count: int = 0
    repeats: int = 0
    closes: bool = False
    instead: str = field(default="", repr=False)
    coarse: CoarseClass | None = None
    details: Any = None
    refused: bool = False
    line_cap: int | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.attempted is not None:
            object.__setattr__(self, "attempted", frozen(self.attempted))

    @property
    def label(self) -> str:
        """The category word the model reads: the fine category, or the coarse class
        alone when that is all that is known (a payload from another agent)."""
        # ``_value_``: an Enum's ``value`` is a Python property, read on every line
        label: str = self.coarse._value_ if self.coarse is not None else self.category._value_
        return label

    def _evolved(self, changes: Mapping[str, Any]) -> Failure:
        """A copy with ``changes``: what ``dataclasses.replace`` does, without running
        ``__init__`` (one Python step per field, 22 fields): every slot is set in one C
        loop, and only a changed ``attempted`` is frozen again (the rest are this
        record's, frozen already). An unknown name in ``changes`` raises ``KeyError``."""
        values = dict(zip(_FAILURE_FIELDS, _ALL_FIELDS(self), strict=True))  # in C calls
        values.update(changes)
        return _made(values, changes)

    @staticmethod
    def _built(values: Mapping[str, Any]) -> Failure:
        """A new record of ``values`` (``tool``, ``category``, ``retryable`` and
        ``message`` at least), the other fields their defaults: what ``Failure(**values)``
        makes, in ``_evolved``'s few C calls instead of ``__init__``'s 22 Python steps."""
        return _made({**_DEFAULTS, **values}, values)

    @property
    def fingerprint(self) -> str:
        """Tool + category + masked message: the same failure, whatever the arguments."""
        return fingerprint(self.tool, self.category, self.message)

    def line(self, cap: int | None = None) -> str:
        """The one line the model sees, at most ``cap`` characters (default: the cap of
        the Session that recorded the failure, else the configured one, 300).

        Raises:
            UsageError: ``cap`` is not a whole number from 160 to 65,536, as for
                ``Session(line_cap=...)``: no line fits in less.
        """
        if cap is not None:
            _checks.whole("cap", cap, _config.MIN_LINE_CAP, _config.MAX_LINE_CAP)
        cap = _config.line_cap(cap or self.line_cap)
        if self.status == "closed":
            return _words.closed_line(self.tool, self.count, cap)
        return _words.failure_line(self, cap)

    @classmethod
    def from_dict(cls, payload: Any, tool: str | None = None) -> Failure:
        """The failure a payload reports (``to_dict()``'s, or another agent's minimal one,
        as a dict or its JSON text), as a failure of ``tool`` (default: the payload's own
        ``tool``). Its message and alternatives are redacted to one line, its partial
        results redacted; a category it names only coarsely stays coarse.

        Raises:
            ValueError: ``payload`` is not valid by ``FAILURE_SCHEMA``.
        """
        from toolhygiene._payload import failure_of, recognise

        found = recognise(payload)
        if found is None:
            raise ValueError("not a failure payload: see th.FAILURE_SCHEMA")
        name = tool or _sanitize(str(found.get("tool") or ""), 64) or "tool"
        return failure_of(found, name, _config.line_cap())

    def to_dict(self) -> dict[str, Any]:
        """The structured payload another agent reads: the category (fine and coarse)
        with ``isRetryable``, the attempted call with its redacted arguments, partial
        results and alternatives. ``message`` is the whole line; ``reason`` only what
        failed; ``outcomeUnknown`` says the call may have taken effect (``true``) or
        that it never ran (``false``). Optional fields are absent when unknown, never
        invented; every value is plain JSON."""
        closed = self.status == "closed"
        payload: dict[str, Any] = {
            "isError": True,
            # a refused call (the tool reached its cap): a rule of the conversation
            # forbids it; nothing about it is unknown
            "errorCategory": "business" if closed else (self.coarse or self.category.coarse).value,
            "isRetryable": self.retryable and not self.closes and self.status != "closed",
            "message": self.line(),
            "tool": self.tool,
        }
        if self.message and self.status != "closed":
            payload["reason"] = self.message
        if self.uncertain:
            payload["outcomeUnknown"] = True
        elif self.never_ran or closed:  # proven: the call never reached its target
            payload["outcomeUnknown"] = False
        if self.coarse is None and not closed:
            payload["category"] = self.category.value
        if self.retry_after is not None:
            payload["retryAfterSeconds"] = _words.rounded(self.retry_after)
        if self.attempted is not None:
            arguments = _json_data(dict(self.attempted))
            payload["attempted_query"] = (
                {"tool": self.tool, "arguments": arguments}
                if isinstance(arguments, dict)
                else f"{self.tool}({arguments})"  # no JSON form: the call as text
            )
        if self.partial_results is not None:
            payload["partial_results"] = _json_data(self.partial_results)
        if self.alternatives:
            payload["alternatives"] = list(self.alternatives)
        if self.details is not None:
            payload["details"] = _json_data(self.details)
        return payload


def _json_data(value: Any) -> Any:
    """``value`` as plain JSON data; what has no faithful JSON form is given as its
    redacted ``repr``, capped (the payload crosses a process boundary as JSON)."""
    try:
        return json.loads(to_json(value))
    except (UnserializableError, RecursionError):
        from toolhygiene._redact import RAW_CAP

        return _sanitize(bounded_repr(value, RAW_CAP), _DATA_CAP)


_DATA_CAP = 4_096
"""Characters of the text that stands for a value with no JSON form."""

_FINE = [c.value for c in Category]
_COARSE = [c.value for c in CoarseClass]

_FAILURE_FIELDS = tuple(f.name for f in fields(Failure))
_ALL_FIELDS = operator.attrgetter(*_FAILURE_FIELDS)
_NEW = object.__new__
# Each field's slot, in field order, set through its descriptor: what a frozen
# dataclass's ``object.__setattr__`` does after finding the descriptor by its name.
_SLOTS = tuple(Failure.__dict__[name] for name in _FAILURE_FIELDS)
_SET_SLOT = type(_SLOTS[0]).__set__
_BLANK = Failure(tool="", category=Category.UNKNOWN, retryable=False, message="")
_DEFAULTS = dict(zip(_FAILURE_FIELDS, _ALL_FIELDS(_BLANK), strict=True))
"""Every field's default (the four without one: a blank), where ``_built`` starts."""


def _made(values: dict[str, Any], changes: Mapping[str, Any]) -> Failure:
    """A record of ``values`` (every field, in order), without ``__init__``: every slot
    set in one C loop, and ``attempted`` frozen when it is one of ``changes`` (the
    rest are values of a record, frozen already). An unknown name raises ``KeyError``."""
    if len(values) != len(_FAILURE_FIELDS):
        raise KeyError(next(name for name in changes if name not in _DEFAULTS))
    if "attempted" in changes and values["attempted"] is not None:
        values["attempted"] = frozen(values["attempted"])
    made: Failure = _NEW(Failure)
    # ``values`` starts from every field in order (``_DEFAULTS``, ``_evolved``'s zip) and
    # holds no other name (its length): its values are in field order.
    deque(map(_SET_SLOT, _SLOTS, repeat(made), values.values()), maxlen=0)
    return made


FAILURE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "toolhygiene failure",
    "description": (
        "A failed tool call as one agent tells another. Only isError, errorCategory, "
        "isRetryable and message are required; other fields may follow."
    ),
    "type": "object",
    "properties": {
        "isError": {"const": True},
        "errorCategory": {"enum": _FINE + _COARSE},
        "isRetryable": {"type": "boolean"},
        "message": {"type": "string", "minLength": 1},
        "tool": {"type": "string", "minLength": 1},
        "reason": {"type": "string"},
        "outcomeUnknown": {"type": "boolean"},
        "category": {"enum": _FINE},
        "retryAfterSeconds": {"type": "number", "minimum": 0},
        "attempts": {"type": "integer", "minimum": 0},
        "attempted_query": {
            "anyOf": [
                {"type": "string"},
                {
                    "type": "object",
                    "properties": {
                        "tool": {"type": "string"},
                        "arguments": {"type": "object"},
                    },
                },
            ]
        },
        "partial_results": {},
        "alternatives": {"type": "array", "items": {"type": "string"}},
        "details": {},
    },
    "required": ["isError", "errorCategory", "isRetryable", "message"],
}
"""JSON Schema of a failure payload: every ``Failure.to_dict()``, and the minimal payloads
other agents send (``errorCategory`` a fine category or a coarse class,
``attempted_query`` a string or an object, other fields allowed). ``attempts``, when
present, is how many times the sender ran the call (``run_subagent`` writes it); above
1, the sender retried locally already and the receiver's Session does not again."""


class ToolError(Exception):
    """Raised by a tool that knows what went wrong; its text is what the model sees.

    Args:
        what: what failed, specifically (which argument, which id, which rule).
        retryable: whether the same call can succeed later. Required: the tool's author
            decides, at the moment they know.
        instead: what the model should do instead (a legal next move).
        category: a ``Category`` or its value; by default ``upstream`` when retryable,
            else ``business``.
        retry_after: seconds to wait before a retry, when known (at most
            ``configure(retry_after_ceiling=)``, 3600 s by default).
        alternatives: other concrete next moves.
        partial_results: whatever was collected before the failure.
        details: structured data about the failure (an MCP error's structured content):
            kept, redacted, in ``Failure.details`` and the payload; never in the line.
    """

    what: str
    retryable: bool
    instead: str
    category: Category
    retry_after: float | None
    alternatives: tuple[str, ...]

    _own_advice = False
    """Whether toolhygiene wrote ``instead`` itself from the tool's schema (the
    arguments in words, ``_words.schema_advice``): see ``advice``."""

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
        details: Any = None,
    ) -> None:
        super().__init__(what)
        # Each is checked by __setattr__, here and whenever it is set again later.
        self.what = what
        self.retryable = retryable
        self.instead = instead
        self.category = self._category(category)
        self.retry_after = self._wait(retry_after)
        self.alternatives = alternatives  # type: ignore[assignment]  # made a tuple there
        self.partial_results = partial_results
        self.details = details

    def __setattr__(self, name: str, value: Any) -> None:
        """Every argument is checked when it is set, at construction or after it: a wrong
        value is a one-line ``UsageError`` where it is set, never a false line later."""
        if name in ("what", "instead"):
            value = _checks.text(f"ToolError's {name}", value)
        elif name == "retryable":
            value = _checks.flag("ToolError's retryable", value)
            if not value and getattr(self, "retry_after", None) is not None:
                raise UsageError(
                    "ToolError's retry_after is a wait before a retry: a ToolError with one "
                    "cannot become retryable=False (set retry_after = None first)"
                )
        elif name == "category":
            value = self._category(value)
        elif name == "retry_after":
            value = self._wait(value)
        elif name == "alternatives":
            value = _checks.texts("ToolError's alternatives", value)
            if not all(item.strip() for item in value):
                raise UsageError(f"ToolError's alternatives must not be blank, got {value!r}")
        super().__setattr__(name, value)

    def _category(self, category: Any) -> Category:
        if category is None:
            return Category.UPSTREAM if self.retryable else Category.BUSINESS
        if not isinstance(category, Category) and not (
            type(category) is str and category in _TRAITS
        ):
            named = ", ".join(_TRAITS)
            raise UsageError(f"ToolError's category must be one of {named}, got {category!r}")
        return Category(category)

    def _wait(self, retry_after: Any) -> float | None:
        if retry_after is None:
            return None
        given = retry_after
        if retry_after == math.inf:  # "not soon": the longest wait kept, as 1e308 is
            retry_after = _config.settings.retry_after_ceiling
        _checks.seconds("ToolError's retry_after", retry_after)
        if not self.retryable:
            raise UsageError(
                "ToolError's retry_after is a wait before a retry: give it only with "
                f"retryable=True, got retry_after={given!r} with retryable=False"
            )
        return _config.wait_within(retry_after)

    def for_model(self, tool: str = "tool") -> str:
        """The one line the model sees for this error raised by ``tool``."""
        cap = _config.line_cap()
        return Failure(
            tool=tool,
            category=self.category,
            retryable=self.retryable,
            message=_sanitize(self.what, cap),
            instead=advice(self, cap),
            retry_after=self.retry_after,
            alternatives=tuple(_sanitize(a, cap // 2) for a in self.alternatives),
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
        cap = _config.line_cap()
        # The query is the model's own words: only what is secret-shaped goes.
        query = _sanitize(self.query, cap // 2, internals=False)
        note = _sanitize(self.note, cap)
        return _words.empty_line(tool, query, note, cap)
