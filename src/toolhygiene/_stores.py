"""Where a conversation's counts live: in memory (one process), or in Redis (every worker
that serves the conversation).

A store keeps what a cap depends on, per conversation (``Session(session_id=...)``):
failures of each tool, the closed tools, and the same-failure counters (this exact call
failed the same way; how many different calls did). Every change is one atomic step (a
Lua script in Redis), so four processes failing one tool at once close it at exactly its
cap. The success path costs one read: is the tool closed.

What stays in each process: pending errors and their rounds (the message list holds them:
``Session.resume``) and tails (each worker logs the tails it sees end).
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any, Literal, NamedTuple, Protocol

from toolhygiene import _checks, _observe
from toolhygiene._exceptions import StoreError, UsageError

__all__ = [
    "BREAKER_AFTER",
    "BREAKER_WINDOW",
    "PROCESS_BREAKERS",
    "Breakers",
    "Counted",
    "Gate",
    "MemoryStore",
    "OnError",
    "RedisStore",
    "Store",
    "failed_after_run",
]

OnError = Literal["open", "closed"]

VARIANTS = 64
"""Different arguments told apart for one failure (as ``ledger.VARIANTS``)."""


class Counted(NamedTuple):
    """One failure as the store counted it: the tool's failures so far, how many times
    this exact call failed this way, how many different calls did, and whether the tool
    is closed now (by this failure or before)."""

    failures: int
    repeats: int
    variants: int
    closes: bool


# -- breakers across conversations -------------------------------------------------------

BREAKER_AFTER = 3
"""Transient failures of an upstream in a row, across every conversation, that open it."""
BREAKER_WINDOW = 30.0
"""Seconds an open upstream refuses calls before one caller probes it."""


class Gate(NamedTuple):
    """What the shared breaker says of an upstream before a call.

    ``state``: ``"free"`` (no trouble known), ``"streak"`` (failing, not open yet: the call
    runs), ``"probe"`` (open and its window passed: this caller alone tests it), ``"open"``
    (refused; ``wait`` s until a probe), ``"probing"`` (refused: another caller is testing
    it); ``failing_for``: seconds since the first failure of the streak; ``failures``:
    failed calls in the streak.
    """

    state: str
    failing_for: float = 0.0
    failures: int = 0
    wait: float = 0.0

    @property
    def refused(self) -> bool:
        """The call must not run."""
        return self.state in ("open", "probing")


class _Upstream:
    __slots__ = ("failures", "probe", "since", "until")

    def __init__(self, now: float) -> None:
        self.since, self.failures, self.until, self.probe = now, 0, 0.0, 0.0


class Breakers:
    """In-memory breakers, one per upstream (a ``MemoryStore`` holds them; Sessions
    without a store share ``PROCESS_BREAKERS``)."""

    def __init__(self, *, after: int = BREAKER_AFTER, window: float = BREAKER_WINDOW) -> None:
        self.after, self.window = after, window
        self._lock = threading.Lock()
        self._upstreams: dict[str, _Upstream] = {}

    def admit(self, upstream: str, probe_for: float) -> Gate:
        now = time.time()
        with self._lock:
            found = self._upstreams.get(upstream)
            if found is None:
                return Gate("free")
            failing = now - found.since
            if not found.until:
                return Gate("streak", failing, found.failures)
            if now < found.until:
                return Gate("open", failing, found.failures, found.until - now)
            if found.probe > now:
                return Gate("probing", failing, found.failures, found.probe - now)
            found.probe = now + probe_for
            return Gate("probe", failing, found.failures)

    def failed(self, upstream: str, retry_after: float | None) -> None:
        now = time.time()
        with self._lock:
            found = self._upstreams.setdefault(upstream, _Upstream(now))
            found.failures += 1
            open_for = retry_after
            if found.failures >= self.after or found.until:
                open_for = max(open_for or 0.0, self.window)
            if open_for is not None:
                found.until, found.probe = now + open_for, 0.0

    def ok(self, upstream: str) -> None:
        with self._lock:
            self._upstreams.pop(upstream, None)


# KEYS: the upstream's hash. ARGV: probe ms. Times in ms from the server's own clock, so
# every worker reads one clock.
_ADMIT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local b = redis.call('HMGET', KEYS[1], 'since', 'failures', 'until', 'probe')
if not b[1] then return {'free', 0, 0, 0} end
local since, n = tonumber(b[1]), tonumber(b[2] or '0')
local untl, probe = tonumber(b[3] or '0'), tonumber(b[4] or '0')
if untl == 0 then return {'streak', now - since, n, 0} end
if now < untl then return {'open', now - since, n, untl - now} end
if probe > now then return {'probing', now - since, n, probe - now} end
redis.call('HSET', KEYS[1], 'probe', now + tonumber(ARGV[1]))
return {'probe', now - since, n, 0}
"""

# ARGV: failures that open it, window ms, Retry-After ms ('' if none), ttl s.
_UPSTREAM_FAILED = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = redis.call('HINCRBY', KEYS[1], 'failures', 1)
if n == 1 then redis.call('HSET', KEYS[1], 'since', now) end
local untl = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
local open_for = -1
if ARGV[3] ~= '' then open_for = tonumber(ARGV[3]) end
if n >= tonumber(ARGV[1]) or untl > 0 then open_for = math.max(open_for, tonumber(ARGV[2])) end
if open_for >= 0 then
  redis.call('HSET', KEYS[1], 'until', now + open_for, 'probe', 0)
end
redis.call('EXPIRE', KEYS[1], ARGV[4])
return n
"""


class Store(Protocol):
    """What a Session asks of a store; ``session`` is the conversation's id."""

    def closed(self, session: str, tool: str) -> int | None:
        """The tool's failures if it is closed in this conversation, else ``None``."""

    def failed(
        self, session: str, tool: str, fingerprint: str, call: str, *, cap: int | None, known: int
    ) -> Counted:
        """Count one failure the model will see, atomically; ``cap`` ``None``: never
        closes (a tool that does not exist). ``known``: the failures the caller has seen
        already; the count never goes below it (a Redis restarted without its data, or
        failures counted in memory while it was away)."""

    def counts(self, session: str) -> tuple[dict[str, int], set[str]]:
        """Failures per tool and the closed tools of a conversation."""

    def admit(self, upstream: str, probe_for: float) -> Gate:
        """Whether a call to ``upstream`` may run, for every conversation sharing the
        store; a caller let through to probe an open upstream holds the probe for
        ``probe_for`` seconds."""

    def upstream_failed(self, upstream: str, retry_after: float | None) -> None:
        """A call to ``upstream`` failed transiently (connectivity, 5xx, 429)."""

    def upstream_ok(self, upstream: str) -> None:
        """A call to ``upstream`` got an answer: the streak and the breaker end."""


class _Conversation:
    __slots__ = ("closed", "expires", "failures", "repeats", "variants")

    def __init__(self) -> None:
        self.failures: Counter[str] = Counter()
        self.closed: dict[str, int] = {}
        self.repeats: Counter[tuple[str, str, str]] = Counter()
        self.variants: dict[tuple[str, str], set[str]] = {}
        self.expires = 0.0


class MemoryStore:
    """Counts in this process, shared by every Session given the same store and
    ``session_id``; a conversation untouched for ``ttl`` seconds is forgotten. Breakers:
    ``breaker_after`` transient failures of one upstream in a row, across conversations,
    refuse its calls for ``breaker_window`` seconds (or the Retry-After), then one caller
    probes it."""

    def __init__(
        self,
        *,
        ttl: float = 86_400.0,
        breaker_after: int = BREAKER_AFTER,
        breaker_window: float = BREAKER_WINDOW,
    ) -> None:
        if isinstance(ttl, bool) or not isinstance(ttl, (int, float)) or not ttl > 0:
            raise UsageError(f"ttl must be a number of seconds > 0, got {ttl!r}")
        self.ttl = float(ttl)
        self.breakers = Breakers(
            after=_checks.whole("breaker_after", breaker_after, 1),
            window=_checks.seconds("breaker_window", breaker_window, positive=True),
        )
        self._lock = threading.Lock()
        self._conversations: dict[str, _Conversation] = {}

    def _get(self, session: str) -> _Conversation:
        now = time.monotonic()
        found = self._conversations.get(session)
        if found is None or found.expires < now:
            if len(self._conversations) > 1024:
                self._conversations = {
                    k: v for k, v in self._conversations.items() if v.expires >= now
                }
            found = self._conversations[session] = _Conversation()
        found.expires = now + self.ttl
        return found

    def closed(self, session: str, tool: str) -> int | None:
        with self._lock:
            return self._get(session).closed.get(tool)

    def failed(
        self, session: str, tool: str, fingerprint: str, call: str, *, cap: int | None, known: int
    ) -> Counted:
        with self._lock:
            conversation = self._get(session)
            conversation.failures[tool] = max(conversation.failures[tool], known) + 1
            count = conversation.failures[tool]
            conversation.repeats[(tool, fingerprint, call)] += 1
            variants = conversation.variants.setdefault((tool, fingerprint), set())
            if len(variants) < VARIANTS:
                variants.add(call)
            closes = tool in conversation.closed or (cap is not None and count >= cap)
            if closes:
                conversation.closed.setdefault(tool, count)
            repeats = conversation.repeats[(tool, fingerprint, call)]
            return Counted(count, repeats, len(variants), closes)

    def counts(self, session: str) -> tuple[dict[str, int], set[str]]:
        with self._lock:
            found = self._get(session)
            return dict(found.failures), set(found.closed)

    def admit(self, upstream: str, probe_for: float) -> Gate:
        return self.breakers.admit(upstream, probe_for)

    def upstream_failed(self, upstream: str, retry_after: float | None) -> None:
        self.breakers.failed(upstream, retry_after)

    def upstream_ok(self, upstream: str) -> None:
        self.breakers.ok(upstream)


# KEYS: failures, closed, repeats, variants (one conversation's, one hash slot).
# ARGV: tool, repeat key, call, cap ('' for none), variants limit, ttl seconds, known.
_FAILED = """
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
if n <= tonumber(ARGV[7]) then
  n = tonumber(ARGV[7]) + 1
  redis.call('HSET', KEYS[1], ARGV[1], n)
end
local r = redis.call('HINCRBY', KEYS[3], ARGV[2], 1)
if redis.call('SCARD', KEYS[4]) < tonumber(ARGV[5]) then redis.call('SADD', KEYS[4], ARGV[3]) end
local v = redis.call('SCARD', KEYS[4])
local closes = 0
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then
  closes = 1
elseif ARGV[4] ~= '' and n >= tonumber(ARGV[4]) then
  redis.call('HSET', KEYS[2], ARGV[1], n)
  closes = 1
end
for i = 1, 4 do redis.call('EXPIRE', KEYS[i], ARGV[6]) end
return {n, r, v, closes}
"""

_UNSET: Any = object()


class RedisStore:
    """Counts in Redis, shared by every worker serving a conversation.

    Args:
        client: a sync ``redis.Redis`` client whose ``socket_timeout`` and
            ``socket_connect_timeout`` are set (a client without them could hang the
            agent loop when Redis stops answering: ``UsageError``; so is a
            ``redis.asyncio`` client: ``acall`` runs the sync client off the event
            loop); or ``url=``.
        url: ``redis://host:port/db``: a client is made with ``timeout`` as both.
        prefix: the start of every key (``{prefix}{conv-42}:failures``: the id in braces
            keeps one conversation's keys in one cluster slot).
        ttl: seconds every key lives after the conversation's last failure.
        on_error: when Redis fails (unreachable, too slow, or any error reply: READONLY,
            OOM, NOPERM) before a call runs: ``"open"`` (counts go to an in-memory store
            in this process, with a ``store.unavailable`` warning event; Redis is tried
            again after ``retry_after`` seconds) or ``"closed"`` (the call raises
            ``StoreError`` and does not run). After a call ran, its outcome is never lost
            whatever this says: it is counted in memory, with the warning
            (``call_ran=True``).
        timeout: the socket timeouts of a client made from ``url``.
        retry_after: seconds, after a Redis failure, before Redis is tried again.
        breaker_after: transient failures of one upstream in a row, across every worker
            and conversation, that open its breaker.
        breaker_window: seconds an open upstream is refused (a longer Retry-After wins)
            before one caller probes it.
    """

    def __init__(
        self,
        client: Any = None,
        *,
        url: str | None = None,
        prefix: str = "toolhygiene:",
        ttl: int = 86_400,
        on_error: OnError = "open",
        timeout: float = 0.5,
        retry_after: float = 1.0,
        breaker_after: int = BREAKER_AFTER,
        breaker_window: float = BREAKER_WINDOW,
    ) -> None:
        if (client is None) == (url is None):
            raise UsageError("RedisStore needs a redis.Redis client or url=, exactly one")
        if isinstance(ttl, bool) or not isinstance(ttl, int) or ttl < 1:
            raise UsageError(f"ttl must be a whole number of seconds >= 1, got {ttl!r}")
        if on_error not in ("open", "closed"):
            raise UsageError(f"on_error must be 'open' or 'closed', got {on_error!r}")
        if not isinstance(prefix, str):
            raise UsageError(f"prefix must be a string (the start of every key), got {prefix!r}")
        timeout = _checks.seconds("timeout", timeout, positive=True)
        retry_after = _checks.seconds("retry_after", retry_after, positive=False)
        if url is not None:
            import redis

            client = redis.Redis.from_url(
                url, socket_timeout=timeout, socket_connect_timeout=timeout
            )
        _refuse_asyncio(client)
        settings = client.connection_pool.connection_kwargs
        for name in ("socket_timeout", "socket_connect_timeout"):
            if settings.get(name) is None:
                raise UsageError(
                    f"the Redis client has no {name}: a Redis that stops answering would "
                    f"hang the agent loop. Make it with {name}=0.5 (seconds), or pass url="
                )
        self.client = client
        self.prefix = prefix
        self.ttl = ttl
        self.on_error: OnError = on_error
        self.retry_after = retry_after
        self.fallback = MemoryStore(
            ttl=float(ttl), breaker_after=breaker_after, breaker_window=breaker_window
        )
        self.breaker_after = breaker_after
        self.breaker_window = float(breaker_window)
        self._script = client.register_script(_FAILED)
        self._admit = client.register_script(_ADMIT)
        self._upstream_failed = client.register_script(_UPSTREAM_FAILED)
        self._down_until = 0.0
        self._lock = threading.Lock()

    def key(self, session: str, what: str) -> str:
        """The Redis key of one conversation's record ``what``."""
        return f"{self.prefix}{{{session}}}:{what}"

    def _redis(self, session: str, do: Any, fallback: Any, *, ran: bool = False) -> Any:
        """``do()`` against Redis; when Redis fails (any redis-py error: unreachable, too
        slow, or an error reply such as READONLY, OOM or NOPERM): the fallback
        (``open``) or ``StoreError`` (``closed``). ``ran``: the tool call has run already
        (counting its failure, telling the breaker how it went): its outcome must not be
        lost, so this falls back to the in-memory store whatever ``on_error`` says, and
        the warning event says the call ran."""
        import redis

        if (self.on_error == "open" or ran) and time.monotonic() < self._down_until:
            return fallback()
        try:
            result = do()
        except redis.exceptions.RedisError as exc:
            with self._lock:
                self._down_until = time.monotonic() + self.retry_after
            fields = {
                "error": type(exc).__name__,
                "message": str(exc)[:200],
                "on_error": self.on_error,
                "call_ran": ran,
            }
            _observe.emit(_observe.Event("store.unavailable", session, None, None, fields, exc=exc))
            if self.on_error == "closed" and not ran:
                raise StoreError(
                    f"Redis failed ({type(exc).__name__}: {str(exc)[:120]}) before the call: "
                    "the store is set to on_error='closed', so this call did not run"
                ) from exc
            return fallback()
        return result

    def closed(self, session: str, tool: str) -> int | None:
        def read() -> int | None:
            found = self.client.hget(self.key(session, "closed"), tool)
            return None if found is None else int(found)

        result: int | None = self._redis(session, read, lambda: self.fallback.closed(session, tool))
        return result

    def failed(
        self, session: str, tool: str, fingerprint: str, call: str, *, cap: int | None, known: int
    ) -> Counted:
        keys = [
            self.key(session, "failures"),
            self.key(session, "closed"),
            self.key(session, "repeats"),
            self.key(session, f"variants:{tool}:{fingerprint}"),
        ]
        arguments = [
            tool, f"{tool}\0{fingerprint}\0{call}", call, "" if cap is None else cap,
            VARIANTS, self.ttl, known,
        ]  # fmt: skip

        def count() -> Counted:
            n, r, v, closes = self._script(keys=keys, args=arguments)
            return Counted(int(n), int(r), int(v), bool(closes))

        result: Counted = self._redis(
            session,
            count,
            lambda: self.fallback.failed(session, tool, fingerprint, call, cap=cap, known=known),
            ran=True,
        )
        return result

    def counts(self, session: str) -> tuple[dict[str, int], set[str]]:
        def read() -> tuple[dict[str, int], set[str]]:
            with self.client.pipeline(transaction=False) as pipe:
                pipe.hgetall(self.key(session, "failures"))
                pipe.hkeys(self.key(session, "closed"))
                failures, closed = pipe.execute()
            return (
                {_text(k): int(v) for k, v in failures.items()},
                {_text(k) for k in closed},
            )

        result: tuple[dict[str, int], set[str]] = self._redis(
            session, read, lambda: self.fallback.counts(session)
        )
        return result

    def admit(self, upstream: str, probe_for: float) -> Gate:
        key = f"{self.prefix}upstream:{{{upstream}}}"

        def ask() -> Gate:
            state, failing, n, wait = self._admit(keys=[key], args=[int(probe_for * 1000)])
            return Gate(_text(state), int(failing) / 1000, int(n), int(wait) / 1000)

        result: Gate = self._redis(upstream, ask, lambda: self.fallback.admit(upstream, probe_for))
        return result

    def upstream_failed(self, upstream: str, retry_after: float | None) -> None:
        key = f"{self.prefix}upstream:{{{upstream}}}"
        wait = "" if retry_after is None else int(retry_after * 1000)
        arguments = [self.breaker_after, int(self.breaker_window * 1000), wait, self.ttl]
        self._redis(
            upstream,
            lambda: self._upstream_failed(keys=[key], args=arguments),
            lambda: self.fallback.upstream_failed(upstream, retry_after),
            ran=True,
        )

    def upstream_ok(self, upstream: str) -> None:
        key = f"{self.prefix}upstream:{{{upstream}}}"
        self._redis(
            upstream,
            lambda: self.client.delete(key),
            lambda: self.fallback.upstream_ok(upstream),
            ran=True,
        )


def failed_after_run(session: str, tool: str | None, exc: Exception) -> None:
    """A store failed after the call ran (a ``Store`` raising ``StoreError`` while its
    failure was counted or its upstream's breaker told): the outcome stands, counted in
    this process only; a ``store.unavailable`` warning says so, with the traceback."""
    fields = {
        "error": type(exc).__name__,
        "message": str(exc)[:200],
        "on_error": "closed",
        "call_ran": True,
    }
    _observe.emit(_observe.Event("store.unavailable", session, tool, None, fields, exc=exc))


def _refuse_asyncio(client: Any) -> None:
    """A ``redis.asyncio`` client cannot serve the store's sync calls (its commands are
    coroutines): refused with the fix."""
    import inspect

    if inspect.iscoroutinefunction(getattr(client, "execute_command", None)):
        raise UsageError(
            "RedisStore needs a sync redis.Redis client, got a redis.asyncio one: "
            "Session.acall already runs the store's calls off the event loop. Pass "
            "redis.Redis(host=..., socket_timeout=0.5, socket_connect_timeout=0.5) or url="
        )


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


PROCESS_BREAKERS = MemoryStore()
"""Where the breakers of Sessions without a store live: shared within this process."""
