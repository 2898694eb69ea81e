"""Failure payloads from other agents: recognising one, and the ``Failure`` it stands for.

A subagent shares no history with its coordinator: the payload is the whole bridge. A
tool whose result is a failure payload (a dict, its JSON text, or a ``Failure``) failed,
whatever it returned it through. ``valid`` is ``FAILURE_SCHEMA`` in code (toolhygiene
does not depend on a JSON Schema library); a test holds the two to the same verdicts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from toolhygiene import _config, _words
from toolhygiene._classify import outcome_rule
from toolhygiene._errors import Category, CoarseClass, Failure
from toolhygiene._redact import RAW_CAP, redact_data, sanitize

__all__ = [
    "NEAREST",
    "PayloadError",
    "Reported",
    "Returning",
    "failure_of",
    "recognise",
    "returned",
    "sent",
    "valid",
]

_FINE = frozenset(c.value for c in Category)
_COARSE = frozenset(c.value for c in CoarseClass)

NEAREST: Mapping[CoarseClass, Category] = {
    CoarseClass.TRANSIENT: Category.UPSTREAM,
    CoarseClass.VALIDATION: Category.BAD_REQUEST,
    CoarseClass.BUSINESS: Category.BUSINESS,
    CoarseClass.PERMISSION: Category.AUTH,
    CoarseClass.OTHER: Category.UNKNOWN,
}
"""The fine category a coarse class is handled as (retry policy only; the line says the
coarse class)."""

_MARK = re.compile(r'"isError"[ \t\n\r]*:[ \t\n\r]*true')
"""In the JSON text of every payload, however it is spaced (``json.dumps``, compact,
pretty-printed, ``"isError" : true`` as Jackson writes it): JSON allows exactly these
four whitespace characters around the colon. A text without it (or ``_SPELLED``) is not
parsed, so a large result that is no payload costs a search, never a parse."""


def _letter(char: str) -> str:
    code = "".join(f"[{h}{h.upper()}]" if h.isalpha() else h for h in f"{ord(char):04x}")
    return f"(?:{char}|\\\\u{code})"


_SPELLED = re.compile('"' + "".join(map(_letter, "isError")) + '"[ \t\n\r]*:[ \t\n\r]*true')
"""The key however its letters are written: JSON lets a string spell any character as
``\\u`` and four hex digits, either case (``"\\u0069sError"`` is ``isError`` to every
parser); nothing else (``\\u`` is the only escape a letter has, ``true`` has no other
spelling)."""
_ESCAPED = re.compile(r"\\u00(?:69|73|45|72|6[fF])")
"""A letter of ``isError`` written as an escape: a key spelled with escapes has one. Most
texts have no backslash at all; only those that have a letter of the key escaped are
searched with ``_SPELLED``."""
_OPENS = re.compile(r"[ \t\n\r]*\{")


def _marked(text: str) -> bool:
    # Plain counts first (C speed): most results never name the key, and most that do
    # say false as json.dumps writes it; only the rest is searched with the pattern.
    named = text.count('"isError"')
    falses = text.count('"isError": false') + text.count('"isError":false') if named else 0
    if named != falses and _MARK.search(text) is not None:
        return True
    if "\\" not in text:  # one character: searched for as memchr does, the fastest search
        return False
    return _ESCAPED.search(text) is not None and _SPELLED.search(text) is not None


_MAX_TEXT = 64 * 1_048_576
"""JSON texts longer than this (64 MiB) are not read as payloads: the tool returned a
text that large, so it is in memory already, and it is parsed only when it has the mark;
past this, a result."""


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _whole(value: Any) -> bool:
    # JSON Schema's "integer": a number with no fraction (2.0 is one; True is not)
    if isinstance(value, float):
        return value.is_integer()
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def valid(payload: Any) -> bool:
    """Whether ``payload`` is a failure payload by ``FAILURE_SCHEMA``."""
    if not isinstance(payload, Mapping) or payload.get("isError") is not True:
        return False
    category = payload.get("errorCategory")
    message = payload.get("message")
    if not (
        isinstance(payload.get("isRetryable"), bool)
        and _string(category)
        and category in _FINE | _COARSE
        and _string(message)
        and message
    ):
        return False
    return all(_optional(payload, key) for key in _OPTIONAL if key in payload)


def _attempted(value: Any) -> bool:
    if _string(value):
        return True
    if not isinstance(value, Mapping):
        return False
    return ("tool" not in value or _string(value["tool"])) and (
        "arguments" not in value or isinstance(value["arguments"], Mapping)
    )


_OPTIONAL: dict[str, Callable[[Any], bool]] = {
    "tool": lambda v: _string(v) and bool(v),
    "reason": _string,
    "outcomeUnknown": lambda v: isinstance(v, bool),
    "category": lambda v: _string(v) and v in _FINE,
    # NaN passes as it does JSON Schema's "minimum" (every comparison with NaN is false):
    # the reader then keeps no wait (``wait_within``), and the payload is still a failure.
    "retryAfterSeconds": lambda v: _number(v) and not v < 0,
    "attempts": lambda v: _whole(v) and v >= 0,
    "attempted_query": _attempted,
    "alternatives": lambda v: isinstance(v, list) and all(map(_string, v)),
}


def _optional(payload: Mapping[str, Any], key: str) -> bool:
    return bool(_OPTIONAL[key](payload[key]))


class Reported:
    """A failure payload that a protocol itself reported as a failure (an MCP result
    with ``isError``): a failure even from a tool that does not read payloads."""

    __slots__ = ("payload",)

    def __init__(self, payload: Mapping[str, Any]) -> None:
        self.payload = payload


class PayloadError(Exception):
    """A failure payload a tool returned, raised inside the Session's attempt so that it
    is retried, or not, by the rules of a raised failure (transient, retries and budget
    left, the outcome rule of a tool that is not idempotent); when it is not retried, or
    retries run out, ``failure`` is the call's failure. It never leaves the Session."""

    def __init__(self, failure: Failure, *, retried: bool = False) -> None:
        super().__init__(failure.message)
        self.failure = failure
        self.retried = retried
        """The sender retried locally already (its ``attempts`` > 1): not again here,
        where each attempt would run all of its retries once more."""


class Returning(Protocol):
    """What ``returned`` reads of the tool that returned a value (a ``Tool``)."""

    @property
    def name(self) -> str: ...
    @property
    def idempotent(self) -> bool: ...
    @property
    def reads_payloads(self) -> bool: ...


def returned(value: Any, tool: Returning, cap: Callable[[], int]) -> PayloadError | None:
    """The failure ``tool`` reports by returning ``value`` (as ``PayloadError``), else ``None``:
    ``value`` is its result. A tool whose protocol says whether it failed (MCP's
    ``isError``) reports one only as ``Reported``; any other value of it is a result."""
    if not (tool.reads_payloads or isinstance(value, Reported)):
        return None
    payload = recognise(value)
    if payload is None:
        return None
    # The same rule as a raised failure: a transient failure of a tool that is not
    # idempotent may have taken effect, unless the payload says it never ran.
    failure = outcome_rule(failure_of(payload, tool.name, cap()), tool.idempotent)
    return PayloadError(failure, retried=payload.get("attempts", 1) > 1)


def recognise(value: Any) -> Mapping[str, Any] | None:
    """The failure payload ``value`` is (a ``Failure``, a dict, or its JSON text as str,
    bytes, bytearray or memoryview), else
    ``None``. The check is cheap for what is plainly no payload."""
    if type(value) is dict:  # most results: no payload without an "isError" key
        return value if "isError" in value and valid(value) else None
    if isinstance(value, Reported):
        value = value.payload
    if isinstance(value, Failure):
        return value.to_dict()
    if isinstance(value, (str, bytes, bytearray, memoryview)):
        if len(value) > _MAX_TEXT:  # of a memoryview, its items: bytes once made bytes
            return None
        text = value if isinstance(value, str) else _decoded(bytes(value))
        if not _OPENS.match(text) or not _marked(text):
            return None
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            return None
    elif not isinstance(value, Mapping) or "isError" not in value:
        return None
    return value if valid(value) else None


def sent(failure: Failure, attempts: int) -> dict[str, Any]:
    """The payload a call's failure leaves with for another agent: ``to_dict()`` and how
    many ``attempts`` were made, so that the receiver does not retry locally once more
    what was retried here (each of its attempts would run all of these again)."""
    return {**failure.to_dict(), "attempts": attempts}


def _decoded(data: bytes) -> str:
    """Bytes as ``json.loads`` reads them (UTF-8, -16 or -32, a BOM skipped), except that
    a byte invalid in that encoding is U+FFFD: a payload with one bad byte in its
    message is still a failure, not a result."""
    return data.decode(json.detect_encoding(data), "replace")


def failure_of(payload: Mapping[str, Any], tool: str, cap: int) -> Failure:
    """The ``Failure`` of ``tool`` that a valid payload reports: its category (fine, or
    the coarse class alone), its retryability and wait, its message (redacted, one line),
    its partial results (redacted) and alternatives. Nothing it does not say is added."""
    named = payload["errorCategory"]
    fine = payload.get("category")
    coarse: CoarseClass | None = None
    if named in _FINE:
        category = Category(named)
    elif fine in _FINE and Category(fine).coarse.value == named:
        category = Category(fine)
    else:
        coarse = CoarseClass(named)
        category = NEAREST[coarse]
    # What failed, in the sender's words; the verdict and advice are this tool's own.
    reason, inner = payload.get("reason"), payload.get("tool")
    if reason and inner and inner != tool:
        message = f"{inner}: {reason}"
    elif reason:  # the reason of this very tool (an MCP server's): not named twice
        message = str(reason)
    else:  # a whole line: a toolhygiene one gives what failed (its verdict is its own,
        # and this line has one), another agent's text is kept
        line = str(payload["message"])
        message = (_words.what_failed(line) or line).removeprefix(f"{tool}: ")
    uncertain = payload.get("outcomeUnknown") is True
    retry_after = _config.wait_within(payload.get("retryAfterSeconds"))
    alternatives = (sanitize(a[:RAW_CAP], cap // 2) for a in payload.get("alternatives", ()))
    return Failure(
        tool=tool,
        category=category,
        coarse=coarse,
        retryable=bool(payload["isRetryable"]) and not uncertain,
        uncertain=uncertain,
        never_ran=payload.get("outcomeUnknown") is False,
        message=sanitize(message, cap),
        retry_after=retry_after,
        partial_results=redact_data(payload.get("partial_results")),
        alternatives=tuple(a for a in alternatives if a),
        exc_type="FailurePayload",
    )
