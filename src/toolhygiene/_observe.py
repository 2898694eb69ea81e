"""Hooks: what toolhygiene tells the code that watches it.

Every output is built on this one interface: the logs (``_log``), the OpenTelemetry spans
(``_telemetry``), ``testing.capture()``, and the hooks users add with ``th.add_hooks()``
to send metrics anywhere without parsing logs. A hook that raises never breaks a tool
call: its error is the event ``hook.failed``, given to the other hooks (``on_hook_failure``)
and so to the log output, which follows ``configure(logs=...)`` like every other event.

The calls that start and end a tool call (``on_call``/``on_outcome``) are made only when
some hook asks for them, so the success path pays nothing when nobody watches.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Generator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any

from toolhygiene._frozen import frozen
from toolhygiene._redact import sanitize
from toolhygiene._text import plain, valid
from toolhygiene._words import pending_kind

__all__ = [
    "CALL_EVENTS",
    "CODE_FIELDS",
    "FIELD_CAP",
    "ID_FIELDS",
    "RUNNING_EVENTS",
    "Call",
    "Event",
    "Hooks",
    "add_hooks",
    "around",
    "around_async",
    "bounded",
    "code_name",
    "emit",
    "level_of",
    "listening",
    "set_log",
    "set_telemetry",
    "shown_id",
    "watching",
    "written",
]

_UNREAD = object()

FIELD_CAP = 65_536
"""Characters of one string of an event, at most, in every output (the log line, the
span, ``testing.capture()``, the hooks): the traceback, a call id, a tool name alike."""

CALL_EVENTS = frozenset(
    {
        "tool.failed",
        "tool.retry",
        "tool.closed",
        "tool.refused",
        "tool.unclassified",
        "error.recovered",
        "error.stopped",
    }
)
"""The events about one call: each carries ``category`` and ``fingerprint`` (``None``
where there is none: a retry decided without a failure record)."""

RUNNING_EVENTS = frozenset({"tool.still_running", "tool.finished_late"})
"""The events about a tool's runs after their timeout. ``on_failure`` gets them as it gets
the events about one call, so they carry ``category`` and ``fingerprint`` too, both
``None`` (no failure record): a hook reading ``event.fields["category"]`` never breaks."""


def bounded(value: Any) -> Any:
    """``value`` as every output writes it: a string (a ``str`` subclass, an enum's value
    too) as an exact ``str``, valid UTF-8, at most ``FIELD_CAP`` characters; an ``Enum``
    as its value; anything else as it is."""
    if type(value) is str:  # the common case: short, ASCII, kept as it is
        return value if len(value) <= FIELD_CAP and value.isascii() else valid(value[:FIELD_CAP])
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, str):
        return valid(plain(value, FIELD_CAP))
    return value


_ID_KEY = os.urandom(16)
"""The key of the tags that tell redacted call ids apart: this process's own, so a tag
confirms no guess of the secret an id held."""


def shown_id(call_id: Any) -> Any:
    """A call id as every output writes it (the log, the spans, the hooks' events and
    ``Call``, ``testing.capture()``): redacted as a failure's message is, one plain line
    of at most ``FIELD_CAP`` characters. An id the model or the caller made up can hold a
    credential (``call_ghp_...``); an ordinary id (``toolu_01...``, ``call_...``) is
    written as it is. An id that had to change, or that ends as a changed one is written
    (``~`` and 8 hex digits), ends in ``~`` and a short tag, keyed for this process, so
    two ids stay two in the logs and the spans: a ``recovered_by``
    still names the span of the call that recovered the error. The id sent back to the
    model's API is never this one: the results pair with the exact ids."""
    if type(call_id) is not str:  # a str subclass as an exact str; not a str: as it is
        call_id = bounded(call_id)
        if type(call_id) is not str:
            return call_id
    return _short_id(call_id) if len(call_id) <= _ID_CACHED else _redacted_id(call_id)


_ID_CACHED = 256
"""Ids up to this long are remembered once redacted (each id is written by several
outputs: its span, its events, a tail's ``recovered_by``); longer ones are not kept."""


def _redacted_id(call_id: str) -> str:
    shown = sanitize(call_id, FIELD_CAP - 9)  # room for the tag
    if shown == call_id and not _looks_tagged(call_id):
        return call_id
    import hashlib  # OpenSSL's bindings: at the first id that had to change, not at import

    tag = hashlib.blake2b(
        call_id.encode("utf-8", "surrogatepass"), digest_size=4, key=_ID_KEY
    ).hexdigest()
    return f"{shown}~{tag}"


def _looks_tagged(call_id: str) -> bool:
    """Whether ``call_id`` ends as a changed id is written (``~`` and 8 hex digits): such
    an id is tagged too, so that an id given as the text another one is shown as (a
    literal ``victim~b189c5e1`` beside ``victim\u200b``) is never shown alike. An id kept
    as it is never ends so; two tagged ids differ by their tags."""
    return len(call_id) > 8 and call_id[-9] == "~" and all(c in _HEX for c in call_id[-8:])


_HEX = frozenset("0123456789abcdef")

_short_id = functools.lru_cache(maxsize=1024)(_redacted_id)


ID_FIELDS = frozenset({"recovered_by"})
"""Fields of an event that hold a call id (written as ``shown_id`` writes it)."""

CODE_FIELDS = frozenset({"error", "exc_type", "frame", "hook"})
"""Fields of an event that hold a name taken from code (written as ``code_name`` writes
it): an exception's class (``store.unavailable``'s ``error`` too), a frame's file and
function, a hooks class."""


@functools.lru_cache(maxsize=512)
def code_name(name: str) -> str:
    """A name taken from code (``exc_type``, ``frame``, ``hook``, a span's
    ``exception.type``) as every output writes it: one plain line, redacted as a failure's
    message is, at most 512 characters. Code is made at run time too
    (``type(f"{service}Error", ...)``), so its names are outside text like any other; the
    common ones (``httpx.ConnectError``) are kept as they are."""
    return sanitize(name, 512) or "?"


def written(key: str, value: Any) -> Any:
    """The field ``key`` of an event as every output writes it: a call id as ``shown_id``
    writes it, a name from code as ``code_name`` does, anything else ``bounded``."""
    if key in ID_FIELDS and value is not None:
        return shown_id(value)
    if key in CODE_FIELDS and isinstance(value, str):
        return code_name(value)
    return bounded(value)


# The traceback text of an exception, as the logs write it (``_log.traceback_text``).
_render: Callable[[BaseException], str] | None = None
# The log output: where a hook's failure to take ``hook.failed`` is reported.
_log: Hooks | None = None


@dataclass(frozen=True, slots=True)
class Event:
    """One thing toolhygiene noticed; ``name`` and ``fields`` are those of its log event.

    Attributes:
        name: ``tool.failed``, ``tool.refused``, ``tool.retry``, ``tool.closed``,
            ``error.recovered``, ``error.stopped``, ``transcript.cleared``,
            ``conversation.items_deleted``, ``session.closed`` or ``hook.failed``.
        session_id: the Session's id (``Session.id``).
        tool: the tool concerned, when there is one.
        call_id: the call's id in the model's turn, when known; once settled (before
            any hook sees it) as every output writes it, redacted (``shown_id``), as is
            the ``recovered_by`` field.
        fields: the event's other documented fields (category, fingerprint, ...,
            ``exception``: the bounded traceback text, redacted whatever
            ``configure(redact_logs=...)`` says: a switch of the logs alone), read
            only: every hook sees the same event.
        failure: the ``Failure`` record, for ``tool.failed``, ``tool.refused`` and
            ``tool.retry``.
        exc: the exception, for ``tool.failed`` and ``tool.retry`` (the full
            traceback hangs on it). Every output writes ``fields["exception"]``, made
            before any hook runs: a hook that changes the exception changes no output.
    """

    name: str
    session_id: str
    tool: str | None = None
    call_id: str | None = None
    fields: Mapping[str, Any] = field(default_factory=dict)
    failure: Any = None
    exc: BaseException | None = None
    _own: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    _settled: bool = field(default=False, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # A copy behind a read-only view: what one hook sees, the next sees too, and the
        # caller's dict (a ledger's tail) is not the event's.
        own = dict(self.fields)
        object.__setattr__(self, "_own", own)
        object.__setattr__(self, "fields", MappingProxyType(own))

    def settle(self) -> None:
        """Make the event as every output writes it, once, before any hook sees it
        (``emit`` does when a hook other than the log output is registered; the log
        output settles what it writes, so the quiet default pays nothing): every
        string bounded and plain, an enum its value, ``category`` and ``fingerprint`` on
        an event about a call, ``fields["exception"]`` the traceback text."""
        own = self._own
        exc = self.exc
        if exc is not None and _render is not None and "exception" not in own:
            own["exception"] = _render(exc)
        if self._settled:
            return
        object.__setattr__(self, "_settled", True)
        for key, value in own.items():
            own[key] = written(key, value)
        if self.name in CALL_EVENTS or self.name in RUNNING_EVENTS:
            failure = self.failure
            own.setdefault("category", bounded(failure.category) if failure else None)
            own.setdefault("fingerprint", failure.fingerprint if failure else None)
        if self.tool is not None:
            object.__setattr__(self, "tool", bounded(self.tool))
        if self.call_id is not None:
            object.__setattr__(self, "call_id", shown_id(self.call_id))

    @property
    def level(self) -> int:
        """The ``logging`` level the event is logged at."""
        return level_of(self.name, self.fields.get("category"))

    def record(self) -> dict[str, Any]:
        """The event as the flat dict its log line carries (the traceback as
        ``exception`` once settled)."""
        flat: dict[str, Any] = {"event": self.name, "session.id": self.session_id}
        if self.tool is not None:
            flat["tool"] = self.tool
        if self.call_id is not None:
            flat["call_id"] = self.call_id
        flat.update(self.fields)
        return flat


# A failure the model sees is part of an agent's normal work: INFO, unless nobody could
# say what it was (category unknown: probably a bug in the tool) or a tool closed.
_LEVELS = {
    "hook.failed": logging.WARNING,
    "tool.closed": logging.WARNING,
    "store.unavailable": logging.WARNING,
    "tool.unclassified": logging.WARNING,
    "tool.still_running": logging.WARNING,
}


def level_of(name: str, category: str | None = None) -> int:
    """The ``logging`` level of the event ``name`` (of a failure in ``category``)."""
    if name == "tool.failed" and category == "unknown":
        return logging.WARNING
    return _LEVELS.get(name, logging.INFO)


class Call:
    """One tool call in flight, as the ``on_call``/``on_outcome`` hooks see it. Every
    attribute is read-only: a hook watches the call and cannot change what runs or what
    the Session records.

    Attributes:
        session_id: the Session's id.
        tool: the tool's name: the Session's tool's, or a name the model made up as the
            logs write it (redacted, at most 64 characters).
        call_id: the call's id in the model's turn, when known, as every output writes
            it: redacted (``shown_id``); the call itself runs under the exact id.
        arguments: what the model sent: the JSON text, or a read-only copy of the dict
            (a ``MappingProxyType``, lists as tuples), made when first read.
        started: ``time.perf_counter()`` when the call started.
        seconds: how long the call took (set before ``on_outcome``).
        asynchronous: whether it runs through ``acall``/``ahandle``.
        known: whether the Session has a tool of that name (else the model made it up).
        description: that tool's description (what the model reads), when it is known.
    """

    __slots__ = (
        "_arguments",
        "_asynchronous",
        "_call_id",
        "_description",
        "_known",
        "_seconds",
        "_session_id",
        "_shown",
        "_slots",
        "_started",
        "_tool",
    )

    def __init__(
        self,
        session_id: str,
        tool: str,
        call_id: str | None,
        arguments: Any,
        *,
        asynchronous: bool,
        known: bool = True,
        description: str | None = None,
    ) -> None:
        self._session_id = session_id
        self._tool = tool
        self._call_id = call_id
        self._arguments = arguments  # what runs: never handed to a hook
        self._shown: Any = _UNREAD
        self._asynchronous = asynchronous
        self._known = known
        self._description = description
        self._started = time.perf_counter()
        self._seconds = 0.0
        self._slots: dict[int, Any] = {}

    @property
    def session_id(self) -> str:
        return self._session_id

    @property
    def tool(self) -> str:
        """The tool's name as every output writes it: a tool of the Session's as it is
        named; a name the model made up (``known`` is false) redacted, one plain line, at
        most 64 characters, as the logs write it (it can be anything: a secret, escapes,
        200,000 characters)."""
        if self._known:
            return self._tool
        return sanitize(str(self._tool), 64) or "?"

    @property
    def call_id(self) -> str | None:
        """The call's id as every output writes it (``shown_id``: redacted)."""
        return None if self._call_id is None else shown_id(self._call_id)

    @property
    def arguments(self) -> Any:
        if self._shown is _UNREAD:
            self._shown = frozen(self._arguments)
        return self._shown

    @property
    def asynchronous(self) -> bool:
        return self._asynchronous

    @property
    def known(self) -> bool:
        return self._known

    @property
    def description(self) -> str | None:
        return self._description

    @property
    def started(self) -> float:
        return self._started

    @property
    def seconds(self) -> float:
        return self._seconds

    def keep(self, owner: object, value: Any) -> None:
        """Keep ``value`` for ``owner`` (a hook) until the call ends."""
        self._slots[id(owner)] = value

    def kept(self, owner: object) -> Any:
        """What ``owner`` kept on this call, or ``None``."""
        return self._slots.get(id(owner))


class Hooks:
    """Subclass, override what you need, register with ``th.add_hooks(hooks)``.

    Every method is called in the thread (or task) of the tool call, so keep them quick,
    and plain (not ``async def``: ``add_hooks`` refuses those, since a sync call could not
    await them). ``on_call`` and ``on_outcome`` are called only when some registered hook
    overrides them.
    """

    def on_call(self, call: Call) -> None:
        """A tool call starts (before its arguments are checked)."""

    def on_outcome(self, call: Call, outcome: Any) -> None:
        """A tool call ended: ``outcome`` is its ``Outcome``, or ``None`` when a
        ``BaseException`` (cancellation, ``KeyboardInterrupt``) is going through it."""

    def on_failure(self, event: Event) -> None:
        """``tool.failed`` (the model sees a failure), ``tool.refused`` (a call not run),
        ``tool.unclassified`` (classifying what a tool raised failed; its ``tool.failed``
        follows), ``tool.still_running`` or ``tool.finished_late`` (a tool's runs after
        their timeout; ``category`` ``None``). Count failures by ``event.name ==
        "tool.failed"``."""

    def on_retry(self, event: Event) -> None:
        """``tool.retry``: a transient failure is retried locally, after ``wait`` s."""

    def on_close(self, event: Event) -> None:
        """``tool.closed``: a tool reached its cap and is closed for the conversation."""

    def on_clear(self, event: Event) -> None:
        """``transcript.cleared``: errors left the message list after a recovery;
        ``conversation.items_deleted``: recovered items deleted from a server-held
        conversation."""

    def on_tail(self, event: Event) -> None:
        """``error.recovered`` or ``error.stopped``: an error's tail is known."""

    def on_end(self, event: Event) -> None:
        """``session.closed``: the conversation ended (``close()`` or ``reset()``)."""

    def on_store(self, event: Event) -> None:
        """``store.unavailable``: the shared store (Redis) could not be reached; the
        counts went to memory (``on_error="open"``) or the call raised."""

    def on_hook_failure(self, event: Event) -> None:
        """``hook.failed``: another hook raised (``fields``: ``hook``, ``method``;
        ``exc``: what it raised). The hook that failed is not told of its own failure."""


_METHODS = {
    "tool.failed": "on_failure",
    "tool.refused": "on_failure",
    "tool.unclassified": "on_failure",
    "tool.still_running": "on_failure",
    "tool.finished_late": "on_failure",
    "tool.retry": "on_retry",
    "tool.closed": "on_close",
    "transcript.cleared": "on_clear",
    "conversation.items_deleted": "on_clear",
    "error.recovered": "on_tail",
    "error.stopped": "on_tail",
    "session.closed": "on_end",
    "store.unavailable": "on_store",
    "hook.failed": "on_hook_failure",
}

_lock = threading.Lock()
_hooks: tuple[Hooks, ...] = ()
_call_hooks: tuple[Hooks, ...] = ()
_others = False  # a hook other than the log output (which settles what it writes itself)
# The OpenTelemetry output joins the call hooks only while a provider is set and it is on.
_telemetry: Any = None


def _overrides(hooks: Hooks, name: str) -> bool:
    """Whether ``hooks`` has a hook method ``name`` of its own: in its class, or set on
    the instance (a lambda, a partial, a callable object)."""
    return getattr(getattr(hooks, name), "__func__", None) is not getattr(Hooks, name)


def _rebuild(hooks: tuple[Hooks, ...]) -> None:
    global _hooks, _call_hooks, _others
    _hooks = hooks
    _others = any(h is not _log for h in hooks)
    _call_hooks = tuple(h for h in hooks if _overrides(h, "on_call") or _overrides(h, "on_outcome"))


_HOOK_METHODS = tuple(name for name in vars(Hooks) if name.startswith("on_"))


def _deferring(method: Any) -> bool:
    """Whether calling ``method`` only makes work to run later: an ``async def`` or a
    generator function, bound or not, behind ``functools.partial``, or an object whose
    ``__call__`` is one. Nothing in a call would await or iterate what it returns."""
    import inspect

    while isinstance(method, functools.partial):
        method = method.func
    if not (inspect.isfunction(method) or inspect.ismethod(method)) and callable(method):
        method = type(method).__call__  # an object set as a method: its own call
    return (
        inspect.iscoroutinefunction(method)
        or inspect.isasyncgenfunction(method)
        or inspect.isgeneratorfunction(method)
    )


def _asynchronous(hooks: Hooks) -> list[str]:
    """The hook methods of ``hooks`` that are ``async def`` or generators, however they
    were made (a def, a partial, a callable object set on the instance)."""
    return [name for name in _HOOK_METHODS if _deferring(getattr(hooks, name))]


def add_hooks(hooks: Hooks) -> Callable[[], None]:
    """Send every event to ``hooks`` (a ``Hooks`` subclass); returns the function that
    removes them again. Hooks are process-wide, like logging handlers, and, like them,
    added once: adding the same instance again changes nothing (its remover, either
    one, removes it).

    Raises:
        UsageError: ``hooks`` is not a ``Hooks`` instance, or one of its methods is
            ``async def`` or a generator (its body would never run: hooks run inside
            the call, sync calls too, where nothing could await or iterate it).
    """
    from toolhygiene._exceptions import UsageError

    if not isinstance(hooks, Hooks):
        raise UsageError(f"add_hooks takes a th.Hooks subclass instance, got {hooks!r}")
    coroutines = _asynchronous(hooks)
    if coroutines:
        raise UsageError(
            f"{type(hooks).__qualname__}.{coroutines[0]} is async def or a generator: hook "
            "methods must be plain functions (they run inside every call, sync calls too); "
            "hand the work to your own task or queue from a plain method"
        )
    with _lock:
        if not any(h is hooks for h in _hooks):
            _rebuild((*_hooks, hooks))

    def remove() -> None:
        with _lock:
            _rebuild(tuple(h for h in _hooks if h is not hooks))

    return remove


def set_log(output: Hooks, render: Callable[[BaseException], str]) -> None:
    """Install the log output (where a hook's failure to take ``hook.failed`` is
    reported) and the traceback text every output writes; the output is added too."""
    global _log, _render
    _log, _render = output, render
    add_hooks(output)


def set_telemetry(output: Any) -> None:
    """Install the OpenTelemetry output (one object with ``live()`` and the hook methods)."""
    global _telemetry
    _telemetry = output


def watching() -> tuple[Hooks, ...]:
    """The hooks that see calls start and end; empty when the call can run bare."""
    telemetry = _telemetry
    if telemetry is not None and telemetry.live():
        return (*_call_hooks, telemetry)
    return _call_hooks


def _guarded(owner: Any, name: str, *args: Any) -> None:
    """Run the hook method ``name`` of ``owner``; what it raises (an ``Exception``), or
    work it hands back that nothing would run or await (``_unawaited``), or what
    examining that work raises, is a ``hook.failed``: nothing a hook does or returns
    changes the call's outcome."""
    try:
        returned = getattr(owner, name)(*args)
        if returned is not None:
            _unawaited(owner, name, returned)
    except Exception as exc:
        _hook_failed(owner, name, getattr(args[0], "session_id", ""), exc)


def _unawaited(owner: Any, name: str, returned: Any) -> None:
    """Raise the error of a hook method that returned ``returned``, when that is work
    toolhygiene would never run or await: a coroutine or a generator (closed, so Python
    prints no "never awaited" warning), an async generator, an ``asyncio`` Future or Task,
    a ``concurrent.futures.Future``, a Thread, an async function itself or any other
    awaitable (``_results.pending``). Hook methods run inside every
    call, sync and async alike, and nothing in a call awaits them; nothing for anything
    else a hook returns (a lambda's incidental value). What closing or examining it raises
    (a started generator's ``finally``, a class whose lookups raise) is raised as it is:
    the caller's ``try`` makes it a ``hook.failed`` like the rest."""
    if isinstance(returned, (Coroutine, Generator)):
        returned.close()  # never started: closing it runs nothing
    kind = pending_kind(returned)
    if kind is None:
        return
    raise TypeError(
        f"{type(owner).__qualname__}.{name} returned {kind}, which toolhygiene never "
        "runs or awaits: hook methods run inside every call, sync and async alike; do the work "
        "before returning, or hand it to your own task or queue and return None"
    )


def _hook_failed(owner: Any, name: str, session_id: str, exc: Exception) -> None:
    """Tell every other hook (the log output among them) that ``owner``'s hook method
    ``name`` raised ``exc`` (``fields``: the hook's class and the method's name, however
    the method was made: a def, a lambda or a partial set on the instance, a callable)."""
    fields = {"hook": type(owner).__qualname__, "method": name}
    event = Event("hook.failed", session_id, None, None, fields, None, exc)
    event.settle()
    telemetry = _telemetry
    for hooks in (*_hooks, telemetry) if telemetry is not None else _hooks:
        if hooks is owner:
            continue
        try:
            returned = hooks.on_hook_failure(event)
            if returned is not None:
                _unawaited(hooks, "on_hook_failure", returned)
        except Exception as again:  # a second failure is not passed around again
            _hook_failed_again(hooks, session_id, again)


def _hook_failed_again(hooks: Any, session_id: str, exc: Exception) -> None:
    """A hook raised in ``on_hook_failure``: reported once, as ``hook.failed``, to the log
    output only (bounded and redacted like every event, where ``configure(logs=...)``
    says); never to stderr past it. If the log output itself is what raised, nothing
    more can report it: the first ``hook.failed`` went to every other hook."""
    output = _log
    if output is None or output is hooks:
        return
    fields = {"hook": type(hooks).__qualname__, "method": "on_hook_failure"}
    event = Event("hook.failed", session_id, None, None, fields, None, exc)
    try:
        event.settle()
        output.on_hook_failure(event)
    except Exception:  # the log output cannot take it: the event is dropped, not raised
        return


def listening(name: str, category: str | None = None) -> bool:
    """Whether the event ``name`` would reach anyone: a hook, the OpenTelemetry output,
    or a log that writes its level. False in the quiet default (nothing configured, an
    INFO event), where the event need not even be built. An output that can drop events
    says so with a ``_wants(level)`` method (the log output); every other hook wants all.
    """
    level = level_of(name, category)
    for hooks in _hooks:
        wants = getattr(hooks, "_wants", None)
        if wants is None or wants(level):
            return True
    telemetry = _telemetry
    return telemetry is not None and bool(telemetry.live())


def emit(event: Event) -> None:
    """Hand ``event`` to every hook that wants it (and to the OpenTelemetry output)."""
    name = _METHODS[event.name]
    telemetry = _telemetry
    live = telemetry is not None and telemetry.live()
    if _others:
        # What every output writes, whatever a hook does (the log output and the
        # OpenTelemetry output bound what they write themselves when no other hook reads).
        event.settle()
    for hooks in _hooks:
        _guarded(hooks, name, event)
    if live:
        _guarded(telemetry, name, event)


def around(hooks: tuple[Hooks, ...], run: Callable[..., Any], call: Call) -> Any:
    """``run(tool, arguments, call_id)`` between ``on_call`` and ``on_outcome``."""
    for each in hooks:
        _guarded(each, "on_call", call)
    outcome = None
    try:
        outcome = run(call._tool, call._arguments, call._call_id)
    finally:
        _ended(hooks, call, outcome)
    return outcome


async def around_async(
    hooks: tuple[Hooks, ...], run: Callable[..., Awaitable[Any]], call: Call
) -> Any:
    """``around`` for ``acall``."""
    for each in hooks:
        _guarded(each, "on_call", call)
    outcome = None
    try:
        outcome = await run(call._tool, call._arguments, call._call_id)
    finally:
        _ended(hooks, call, outcome)
    return outcome


def _ended(hooks: tuple[Hooks, ...], call: Call, outcome: Any) -> None:
    call._seconds = time.perf_counter() - call.started
    for each in reversed(hooks):
        _guarded(each, "on_outcome", call, outcome)
