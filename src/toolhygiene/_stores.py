"""Where a conversation's counts live: in memory (one process), or in Redis (every worker
that serves the conversation).

A store keeps what a cap depends on, per conversation (``Session(session_id=...)``):
failures of each tool, the closed tools, and the same-failure counters (this exact call
failed the same way; how many different calls did), the conversation's call numbers and
the errors waiting for their tool's next success (so a tail is counted across workers).
Every change is one atomic step (a Lua script in Redis), so four processes failing one
tool at once close it at exactly its cap. A call starts with one round trip: its number,
whether its tool is closed or has errors waiting, and its upstream's breaker.

What stays in each process: pending errors' rounds in the message list (``Session.resume``).
"""

from __future__ import annotations

import contextvars
import functools
import json
import threading
import time
from collections import Counter
from typing import TYPE_CHECKING, Any, Literal

from toolhygiene import _checks, _observe
from toolhygiene._answers import Counted, Gate, Started, Store, Waiting
from toolhygiene._exceptions import StoreError, UsageError
from toolhygiene._reading import raw_message
from toolhygiene._redact import RAW_CAP, sanitize

if TYPE_CHECKING:
    import asyncio
    from collections.abc import Callable

__all__ = [
    "BREAKER_AFTER",
    "BREAKER_WINDOW",
    "PROCESS_BREAKERS",
    "Breakers",
    "Counted",
    "EVENT_LOOP",
    "Gate",
    "MemoryStore",
    "OnError",
    "RedisStore",
    "Started",
    "Store",
    "Waiting",
    "conversation_key",
    "failed_after_run",
]

OnError = Literal["open", "closed"]

VARIANTS = 64
"""Different arguments told apart for one failure (as ``ledger.VARIANTS``)."""
WAITING = 1024
"""Errors of one conversation waiting for a success at once (as ``ledger.PENDING``)."""

EVENT_LOOP: contextvars.ContextVar[asyncio.AbstractEventLoop | None] = contextvars.ContextVar(
    "toolhygiene_event_loop", default=None
)
"""The event loop of the ``acall`` whose decision runs on a worker thread: a store with an
asyncio client runs its round trips there (``Session._off_loop`` sets it)."""


# -- breakers across conversations -------------------------------------------------------

BREAKER_AFTER = 3
"""Transient failures of an upstream in a row, across every conversation, that open it."""
BREAKER_WINDOW = 30.0
"""Seconds an open upstream refuses calls before one caller probes it."""


class _Upstream:
    __slots__ = ("failures", "probe", "since", "until")

    def __init__(self, now: float) -> None:
        self.since, self.failures, self.until, self.probe = now, 0, 0.0, 0.0


class Breakers:
    """In-memory breakers, one per upstream (a ``MemoryStore`` holds them; Sessions
    without a store share ``PROCESS_BREAKERS``)."""

    _clock: Callable[[], float] = staticmethod(time.time)
    """Wall-clock seconds (a test replaces it with a clock it moves)."""

    def __init__(self, *, after: int = BREAKER_AFTER, window: float = BREAKER_WINDOW) -> None:
        self.after, self.window = after, window
        self._lock = threading.Lock()
        self._upstreams: dict[str, _Upstream] = {}

    def admit(self, upstream: str, probe_for: float | None, *, claim: bool = True) -> Gate:
        """The breaker's state; a due probe is claimed for ``probe_for`` seconds (``None``:
        the window) unless ``claim`` is false (``Store.start`` only looks)."""
        now = self._clock()
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
            if claim:
                found.probe = now + (self.window if probe_for is None else probe_for)
            return Gate("probe", failing, found.failures)

    def failed(self, upstream: str, retry_after: float | None) -> None:
        now = self._clock()
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


# KEYS: the upstream's hash. ARGV: probe ms, '1' to claim a due probe, window ms. Times in
# ms from the server's own clock, so every worker reads one clock.
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
if ARGV[2] == '1' then
  local hold = tonumber(ARGV[1])
  if hold < 0 then hold = tonumber(ARGV[3]) end
  redis.call('HSET', KEYS[1], 'probe', now + hold)
end
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


class _Conversation:
    __slots__ = ("calls", "closed", "expires", "failures", "repeats", "variants", "waiting")

    def __init__(self) -> None:
        self.calls = 0
        self.failures: Counter[str] = Counter()
        self.closed: dict[str, int] = {}
        self.repeats: Counter[tuple[str, str, str]] = Counter()
        self.variants: dict[tuple[str, str], set[str]] = {}
        self.waiting: list[Waiting] = []
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

    def start(self, session: str, tool: str, *, known: int, upstream: str | None) -> Started:
        with self._lock:
            conversation = self._get(session)
            conversation.calls = max(conversation.calls, known) + 1
            waiting = any(w.tool == tool for w in conversation.waiting)
            number, closed = conversation.calls, conversation.closed.get(tool)
        gate = None if upstream is None else self.breakers.admit(upstream, None, claim=False)
        return Started(number, closed, waiting, gate)

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

    def wait(self, session: str, error: Waiting) -> None:
        with self._lock:
            waiting = self._get(session).waiting
            if len(waiting) < WAITING:
                waiting.append(error)

    def recovered(self, session: str, tool: str) -> list[Waiting]:
        with self._lock:
            conversation = self._get(session)
            found = [w for w in conversation.waiting if w.tool == tool]
            if found:
                conversation.waiting = [w for w in conversation.waiting if w.tool != tool]
            return found

    def ended(self, session: str) -> tuple[int, list[Waiting]]:
        with self._lock:
            conversation = self._get(session)
            found, conversation.waiting = conversation.waiting, []
            return conversation.calls, found

    def counts(self, session: str) -> tuple[dict[str, int], set[str]]:
        with self._lock:
            found = self._get(session)
            return dict(found.failures), set(found.closed)

    def held(self, session: str) -> tuple[int, dict[str, int], dict[str, int], list[Waiting]]:
        """What this store holds of a conversation: its calls, failures per tool, closed
        tools (with their failures at the close) and waiting errors (nothing when it holds
        none); for a ``RedisStore`` writing back what was counted here while Redis was away."""
        with self._lock:
            found = self._conversations.get(session)
            if found is None:
                return 0, {}, {}, []
            return found.calls, dict(found.failures), dict(found.closed), list(found.waiting)

    def forget(self, session: str) -> None:
        """Drop what this store holds of a conversation (written back elsewhere)."""
        with self._lock:
            self._conversations.pop(session, None)

    def admit(self, upstream: str, probe_for: float | None) -> Gate:
        return self.breakers.admit(upstream, probe_for)

    def upstream_failed(self, upstream: str, retry_after: float | None) -> None:
        self.breakers.failed(upstream, retry_after)

    def upstream_ok(self, upstream: str) -> None:
        self.breakers.ok(upstream)


# KEYS: calls, closed, waiting tools (one conversation's). ARGV: tool, known calls, ttl s.
_START = """
local n = redis.call('INCR', KEYS[1])
if n <= tonumber(ARGV[2]) then
  n = tonumber(ARGV[2]) + 1
  redis.call('SET', KEYS[1], n)
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
local closed = redis.call('HGET', KEYS[2], ARGV[1]) or -1
local waiting = redis.call('HGET', KEYS[3], ARGV[1]) or 0
return {n, tonumber(closed), tonumber(waiting)}
"""

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

# KEYS: waiting (call number -> JSON), waiting tools (tool -> errors waiting).
# ARGV: number, tool, the error as JSON, the most at once, ttl s.
_WAIT = """
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[3]) == 1 then
  redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
end
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('EXPIRE', KEYS[2], ARGV[5])
return 1
"""

# KEYS: waiting, waiting tools. ARGV: tool. The tool's waiting errors, taken off.
_RECOVERED = """
local found = {}
if not redis.call('HGET', KEYS[2], ARGV[1]) then return found end
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if cjson.decode(all[i + 1])[2] == ARGV[1] then
    table.insert(found, all[i + 1])
    redis.call('HDEL', KEYS[1], all[i])
  end
end
redis.call('HDEL', KEYS[2], ARGV[1])
return found
"""

# KEYS: calls, waiting, waiting tools. The calls so far and every waiting error, taken off.
_ENDED = """
local calls = tonumber(redis.call('GET', KEYS[1]) or '0')
local found = redis.call('HVALS', KEYS[2])
redis.call('DEL', KEYS[2], KEYS[3])
return {calls, found}
"""

# KEYS: calls, failures, closed (one conversation's). ARGV: ttl s, calls, then triples of
# tool, failures, failures at its close ('' when open). What a worker counted in memory
# while Redis was away, written back: each count the larger of the two, a closed tool
# closed (never reopened), so nothing goes backwards.
_WRITE_BACK = """
local calls = tonumber(ARGV[2])
if calls > tonumber(redis.call('GET', KEYS[1]) or '0') then redis.call('SET', KEYS[1], calls) end
for i = 3, #ARGV, 3 do
  local n = tonumber(ARGV[i + 1])
  if n > tonumber(redis.call('HGET', KEYS[2], ARGV[i]) or '0') then
    redis.call('HSET', KEYS[2], ARGV[i], n)
  end
  if ARGV[i + 2] ~= '' then redis.call('HSETNX', KEYS[3], ARGV[i], ARGV[i + 2]) end
end
for i = 1, 3 do
  if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('EXPIRE', KEYS[i], ARGV[1]) end
end
return 1
"""


@functools.cache
def _scripts() -> dict[str, str]:
    """Each script's SHA-1, for ``EVALSHA`` (hashlib, OpenSSL's bindings, comes with the
    first Redis command, not with toolhygiene)."""
    import hashlib

    return {
        text: hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()
        for text in (
            _START,
            _ADMIT,
            _FAILED,
            _WAIT,
            _RECOVERED,
            _ENDED,
            _UPSTREAM_FAILED,
            _WRITE_BACK,
        )
    }


_Command = tuple[Any, ...]
"""One command of a pipeline: its words (``EVALSHA`` of a script, by ``_script``)."""


def _script(text: str, keys: list[str], arguments: list[Any]) -> _Command:
    return ("EVALSHA", _scripts()[text], len(keys), *keys, *arguments)


def _script_of(command: _Command) -> str | None:
    if command[0] != "EVALSHA":
        return None
    return next(text for text, sha in _scripts().items() if sha == command[1])


_ASYNC_ONLY = (
    "this RedisStore has a redis.asyncio client: use acall/ahandle and async with, or "
    "give sync call/handle a store with a redis.Redis client"
)


class RedisStore:
    """Counts in Redis, shared by every worker serving a conversation.

    Args:
        client: a ``redis.Redis`` client, or a ``redis.asyncio.Redis`` one for Sessions
            used with ``acall``/``ahandle`` only (sync ``call``/``handle`` on such a store
            is a ``UsageError``: its round trips run on the event loop of the ``acall``);
            either with ``socket_timeout`` and ``socket_connect_timeout`` set (a client
            without them could hang the agent loop when Redis stops answering:
            ``UsageError``); or ``url=``.
        url: ``redis://host:port/db``: a sync client is made with ``timeout`` as both.
        prefix: the start of every key (``{prefix}{conv-42}:failures``: the id in braces
            keeps one conversation's keys in one cluster slot).
        ttl: seconds every key lives after the conversation's last write.
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
        settings = client.connection_pool.connection_kwargs
        for name in ("socket_timeout", "socket_connect_timeout"):
            if settings.get(name) is None:
                raise UsageError(
                    f"the Redis client has no {name}: a Redis that stops answering would "
                    f"hang the agent loop. Make it with {name}=0.5 (seconds), or pass url="
                )
        self.client = client
        self.asynchronous = _is_asyncio(client)
        # The longest an asyncio round trip may take before it counts as Redis failing
        # (the client's own timeouts should end it first: connect, a NOSCRIPT reload).
        self._deadline = settings["socket_connect_timeout"] + 3 * settings["socket_timeout"]
        self.prefix = prefix
        self.ttl = ttl
        self.on_error: OnError = on_error
        self.retry_after = retry_after
        self.fallback = MemoryStore(
            ttl=float(ttl), breaker_after=breaker_after, breaker_window=breaker_window
        )
        self.breaker_after = breaker_after
        self.breaker_window = float(breaker_window)
        self._down_until = 0.0
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None  # where an asyncio client runs
        # Conversations counted in memory while Redis was away (with a mark per change):
        # written back before the next round trip that reaches Redis.
        self._behind: dict[str, int] = {}
        self._marks = 0

    def key(self, session: str, what: str) -> str:
        """The Redis key of one conversation's record ``what``."""
        return f"{self.prefix}{{{session}}}:{what}"

    def _upstream_key(self, upstream: str) -> str:
        return f"{self.prefix}upstream:{{{upstream}}}"

    # -- one round trip, sync or asyncio ------------------------------------------------

    def _send(self, commands: list[_Command]) -> list[Any]:
        """The replies of ``commands``, sent as one pipeline (one round trip; a script
        Redis does not hold yet is loaded and its command sent again). An asyncio client
        sends them on the event loop of the ``acall`` this decision serves."""
        if not self.asynchronous:
            return self._settle(commands, self._pipeline(commands))
        import asyncio
        import concurrent.futures

        loop = EVENT_LOOP.get()
        if loop is None:
            raise UsageError(_ASYNC_ONLY)
        with self._lock:
            if self._loop is not loop:  # a new loop (another asyncio.run): the old one's
                if self._loop is not None:  # connections cannot serve it
                    self.client.connection_pool.reset()
                self._loop = loop
        future = asyncio.run_coroutine_threadsafe(self._asend(commands), loop)
        try:
            return future.result(timeout=self._deadline)
        except concurrent.futures.TimeoutError:
            future.cancel()
            import redis

            raise redis.exceptions.TimeoutError(
                f"no answer from Redis within {self._deadline:g} s"
            ) from None

    def _pipeline(self, commands: list[_Command]) -> list[Any]:
        with self.client.pipeline(transaction=False) as pipe:
            for command in commands:
                pipe.execute_command(*command)
            replies: list[Any] = pipe.execute(raise_on_error=False)
        return replies

    async def _asend(self, commands: list[_Command]) -> list[Any]:
        """``_send`` on the event loop, with the asyncio client."""
        replies = await self._apipeline(commands)
        missing, again = _missing_scripts(commands, replies)
        for text in missing:
            await self.client.script_load(text)
        if again:
            sent = await self._apipeline([commands[i] for i in again])
            for i, reply in zip(again, sent, strict=True):
                replies[i] = reply
        return _raised(replies)

    async def _apipeline(self, commands: list[_Command]) -> list[Any]:
        async with self.client.pipeline(transaction=False) as pipe:
            for command in commands:
                pipe.execute_command(*command)
            replies: list[Any] = await pipe.execute(raise_on_error=False)
        return replies

    def _settle(self, commands: list[_Command], replies: list[Any]) -> list[Any]:
        missing, again = _missing_scripts(commands, replies)
        for text in missing:
            self.client.script_load(text)
        if again:
            sent = self._pipeline([commands[i] for i in again])
            for i, reply in zip(again, sent, strict=True):
                replies[i] = reply
        return _raised(replies)

    def _redis(
        self, session: str, do: Any, fallback: Any, *, ran: bool = False, conversation: bool = True
    ) -> Any:
        """``do()`` against Redis; when Redis fails (any redis-py error: unreachable, too
        slow, or an error reply such as READONLY, OOM or NOPERM): the fallback
        (``open``) or ``StoreError`` (``closed``). ``ran``: the tool call has run already
        (counting its failure, telling the breaker how it went): its outcome must not be
        lost, so this falls back to the in-memory store whatever ``on_error`` says, and
        the warning event says the call ran. ``conversation``: ``session`` is a
        conversation (not an upstream): what the fallback counts is written back to Redis
        once it answers again (``_write_back``)."""
        import redis

        if self.asynchronous and EVENT_LOOP.get() is None:
            raise UsageError(_ASYNC_ONLY)  # before anything runs, whatever on_error says
        if (self.on_error == "open" or ran) and time.monotonic() < self._down_until:
            return self._in_memory(session, fallback, conversation)
        try:
            self._write_back()
            result = do()
        except redis.exceptions.RedisError as exc:
            with self._lock:
                self._down_until = time.monotonic() + self.retry_after
            fields = {
                "error": type(exc).__name__,
                "message": _message(exc),
                "on_error": self.on_error,
                "call_ran": ran,
            }
            _observe.emit(_observe.Event("store.unavailable", session, None, None, fields, exc=exc))
            if self.on_error == "closed" and not ran:
                raise StoreError(self._refusal(exc)) from exc
            return self._in_memory(session, fallback, conversation)
        return result

    def _refusal(self, exc: Exception) -> str:
        """The one line of the ``StoreError`` raised when Redis failed before a call and
        the store fails closed: which store (its server and key prefix), what Redis
        raised (its type, and its message written as a failure's is: redacted, one line,
        at most 200 characters), and that the call did not run. The URL, a password or a
        key of the client never appear; what Redis raised is chained (``__cause__``),
        whole, for the traceback."""
        settings = self.client.connection_pool.connection_kwargs
        server = settings.get("path") or f"{settings.get('host')}:{settings.get('port')}"
        said = _message(exc)
        return (
            f"RedisStore (server {sanitize(str(server), 120)}, keys "
            f"{sanitize(repr(self.prefix), 66)}) failed before the call with "
            f"{type(exc).__name__}: {said}{'' if said.endswith(_STOPS) else '.'} The store "
            "is set to on_error='closed', "
            "so this call did not run"
        )

    def _in_memory(self, session: str, fallback: Any, conversation: bool) -> Any:
        """``fallback()`` (the in-memory store), remembering that ``session`` has counts
        Redis has not seen yet."""
        result = fallback()
        if conversation:
            with self._lock:
                self._marks += 1
                self._behind[session] = self._marks
        return result

    def _write_back(self) -> None:
        """What was counted in memory while Redis was away (calls, failures, closed tools,
        waiting errors), written to Redis in one round trip: each count the larger of the
        two, a closed tool stays closed. A conversation counted in memory again meanwhile
        stays behind for the next round trip (writing back twice changes nothing)."""
        with self._lock:
            if not self._behind:
                return
            behind = dict(self._behind)
        commands: list[_Command] = []
        for session in behind:
            calls, failures, closed, waiting = self.fallback.held(session)
            keys = [self.key(session, what) for what in ("calls", "failures", "closed")]
            tools: list[Any] = []
            for tool in sorted({*failures, *closed}):
                count = max(failures.get(tool, 0), closed.get(tool, 0))
                tools += [tool, count, closed.get(tool, "")]
            commands.append(_script(_WRITE_BACK, keys, [self.ttl, calls, *tools]))
            for error in waiting:
                arguments = [error.number, error.tool, json.dumps(list(error)), WAITING, self.ttl]
                commands.append(_script(_WAIT, self._waiting_keys(session), arguments))
        self._send(commands)
        with self._lock:
            for session, mark in behind.items():
                if self._behind.get(session) == mark:
                    del self._behind[session]
                    self.fallback.forget(session)

    # -- the Store protocol -------------------------------------------------------------

    def start(self, session: str, tool: str, *, known: int, upstream: str | None) -> Started:
        keys = [self.key(session, what) for what in ("calls", "closed", "waiting:tools")]
        commands = [_script(_START, keys, [tool, known, self.ttl])]
        if upstream is not None:
            commands.append(self._admit_command(upstream, None, claim=False))

        def ask() -> Started:
            replies = self._send(commands)
            number, closed, waiting = replies[0]
            gate = _gate(replies[1]) if upstream is not None else None
            return Started(int(number), None if int(closed) < 0 else int(closed), waiting > 0, gate)

        result: Started = self._redis(
            session,
            ask,
            lambda: self.fallback.start(session, tool, known=known, upstream=upstream),
        )
        return result

    def _admit_command(self, upstream: str, probe_for: float | None, *, claim: bool) -> _Command:
        hold = -1 if probe_for is None else int(probe_for * 1000)
        arguments = [hold, "1" if claim else "0", int(self.breaker_window * 1000)]
        return _script(_ADMIT, [self._upstream_key(upstream)], arguments)

    def admit(self, upstream: str, probe_for: float | None) -> Gate:
        command = self._admit_command(upstream, probe_for, claim=True)
        result: Gate = self._redis(
            upstream,
            lambda: _gate(self._send([command])[0]),
            lambda: self.fallback.admit(upstream, probe_for),
            conversation=False,
        )
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
            n, r, v, closes = self._send([_script(_FAILED, keys, arguments)])[0]
            return Counted(int(n), int(r), int(v), bool(closes))

        result: Counted = self._redis(
            session,
            count,
            lambda: self.fallback.failed(session, tool, fingerprint, call, cap=cap, known=known),
            ran=True,
        )
        return result

    def _waiting_keys(self, session: str) -> list[str]:
        return [self.key(session, "waiting"), self.key(session, "waiting:tools")]

    def wait(self, session: str, error: Waiting) -> None:
        arguments = [error.number, error.tool, json.dumps(list(error)), WAITING, self.ttl]
        command = _script(_WAIT, self._waiting_keys(session), arguments)
        self._redis(
            session,
            lambda: self._send([command]),
            lambda: self.fallback.wait(session, error),
            ran=True,
        )

    def recovered(self, session: str, tool: str) -> list[Waiting]:
        command = _script(_RECOVERED, self._waiting_keys(session), [tool])
        result: list[Waiting] = self._redis(
            session,
            lambda: _waiting(self._send([command])[0]),
            lambda: self.fallback.recovered(session, tool),
            ran=True,
        )
        return result

    def ended(self, session: str) -> tuple[int, list[Waiting]]:
        command = _script(_ENDED, [self.key(session, "calls"), *self._waiting_keys(session)], [])

        def end() -> tuple[int, list[Waiting]]:
            calls, found = self._send([command])[0]
            return int(calls), _waiting(found)

        result: tuple[int, list[Waiting]] = self._redis(
            session, end, lambda: self.fallback.ended(session), ran=True
        )
        return result

    def counts(self, session: str) -> tuple[dict[str, int], set[str]]:
        commands: list[_Command] = [
            ("HGETALL", self.key(session, "failures")),
            ("HKEYS", self.key(session, "closed")),
        ]

        def read() -> tuple[dict[str, int], set[str]]:
            failures, closed = self._send(commands)
            return (
                {_text(k): int(v) for k, v in _pairs(failures).items()},
                {_text(k) for k in closed},
            )

        result: tuple[dict[str, int], set[str]] = self._redis(
            session, read, lambda: self.fallback.counts(session), conversation=False
        )
        return result

    def upstream_failed(self, upstream: str, retry_after: float | None) -> None:
        wait = "" if retry_after is None else int(retry_after * 1000)
        arguments = [self.breaker_after, int(self.breaker_window * 1000), wait, self.ttl]
        command = _script(_UPSTREAM_FAILED, [self._upstream_key(upstream)], arguments)
        self._redis(
            upstream,
            lambda: self._send([command]),
            lambda: self.fallback.upstream_failed(upstream, retry_after),
            ran=True,
            conversation=False,
        )

    def upstream_ok(self, upstream: str) -> None:
        command: _Command = ("DEL", self._upstream_key(upstream))
        self._redis(
            upstream,
            lambda: self._send([command]),
            lambda: self.fallback.upstream_ok(upstream),
            ran=True,
            conversation=False,
        )


def _is_no_script(reply: Any) -> bool:
    import redis

    return isinstance(reply, redis.exceptions.NoScriptError)


def _missing_scripts(commands: list[_Command], replies: list[Any]) -> tuple[set[str], list[int]]:
    """The scripts Redis answered NOSCRIPT for (a new or restarted Redis), and the
    commands to send again once they are loaded."""
    found, again = set(), []
    for i, (command, reply) in enumerate(zip(commands, replies, strict=True)):
        text = _script_of(command)
        if text is not None and _is_no_script(reply):
            found.add(text)
            again.append(i)
    return found, again


def _raised(replies: list[Any]) -> list[Any]:
    """The replies, or the first error reply raised (every one goes through ``on_error``)."""
    for reply in replies:
        if isinstance(reply, Exception):
            raise reply
    return replies


def _gate(reply: list[Any]) -> Gate:
    state, failing, n, wait = reply
    return Gate(_text(state), int(failing) / 1000, int(n), int(wait) / 1000)


def _waiting(replies: list[Any]) -> list[Waiting]:
    """The waiting errors a script returned: each the JSON list ``wait`` wrote, with the
    failing call's id last; one written by an older version has five items, no id."""
    found = []
    for reply in replies:
        number, tool, category, fingerprint, line, *rest = json.loads(reply)
        call_id = rest[0] if rest and isinstance(rest[0], str) else None
        found.append(Waiting(int(number), tool, category, fingerprint, line, call_id))
    return found


def _pairs(reply: Any) -> dict[Any, Any]:
    """A hash as a dict: redis-py's reply to ``HGETALL`` through ``execute_command``."""
    if isinstance(reply, dict):
        return reply
    return dict(zip(reply[::2], reply[1::2], strict=True))


def conversation_key(session_id: str) -> str:
    """The key a store is given for a conversation: the exact id the user passed, so two
    ids that the outputs' clean-up writes alike stay two conversations. An id of
    printable characters without a backslash or a brace is its own key; any other is
    its escaped form (``unicode_escape``, braces escaped too: a Redis hash tag stays
    whole), which always holds a backslash, so no two ids share a key."""
    if session_id.isprintable() and not _KEYED_APART.intersection(session_id):
        return session_id
    escaped = session_id.encode("unicode_escape", "backslashreplace").decode("ascii")
    return escaped.replace("{", "\\x7b").replace("}", "\\x7d")


_KEYED_APART = frozenset("\\{}")

_STOPS = (".", "!", "?", "…")


def _message(exc: Exception) -> str:
    """What a store's exception said, as a failure's message is written: redacted
    (secrets, private addresses, internal hosts), one line, at most 200 characters."""
    return sanitize(raw_message(exc, RAW_CAP) or type(exc).__name__, 200)


def failed_after_run(session: str, tool: str | None, exc: Exception) -> None:
    """A store failed after the call ran (a ``Store`` raising ``StoreError`` while its
    failure was counted or its upstream's breaker told): the outcome stands, counted in
    this process only; a ``store.unavailable`` warning says so, with the traceback."""
    fields = {
        "error": type(exc).__name__,
        "message": _message(exc),
        "on_error": "closed",
        "call_ran": True,
    }
    _observe.emit(_observe.Event("store.unavailable", session, tool, None, fields, exc=exc))


def _is_asyncio(client: Any) -> bool:
    """A ``redis.asyncio`` client: its commands are coroutines."""
    import inspect

    return inspect.iscoroutinefunction(getattr(client, "execute_command", None))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


PROCESS_BREAKERS = MemoryStore()
"""Where the breakers of Sessions without a store live: shared within this process."""
