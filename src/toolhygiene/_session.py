"""``Session``: one conversation, as thin sync and async shells over its decisions.

The decisions (admit, retry or not, what the model sees, what counts) are ``Core``'s
(``_core``), and the local retry policy is ``_retrying``'s; both make no I/O. ``Session``
adds what runs: ``call``/``acall`` run the attempts (``_running``) and, after a transient
failure, tenacity's ``Retrying``/``AsyncRetrying`` over the same policy, sleeping between
attempts; ``handle``/``ahandle`` read a turn, run its calls together and append the
results; the async shell makes the decisions that may ask a store off the event loop.
"""

from __future__ import annotations

import contextvars
import functools
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

# _log and _telemetry are the outputs: importing them registers their hooks.
from toolhygiene import (  # noqa: F401
    _checks,
    _known,
    _log,
    _loop,
    _observe,
    _resume,
    _telemetry,
)
from toolhygiene._answers import Gate, Started
from toolhygiene._call import Claim, Note, Outcome, Owed, Plan, Refused
from toolhygiene._core import Core, known_of
from toolhygiene._exceptions import StoreError, UsageError
from toolhygiene._history import History, threshold
from toolhygiene._loop import Step
from toolhygiene._payload import returned
from toolhygiene._retrying import RetryPolicy, verdict_of
from toolhygiene._rules import Rule
from toolhygiene._running import (
    Runs,
    loop_running,
    pause,
    pause_async,
    run_async,
    run_sync,
)
from toolhygiene._settings import session_id as session_id_of
from toolhygiene._stores import (
    EVENT_LOOP,
    PROCESS_BREAKERS,
    MemoryStore,
    Store,
    conversation_key,
    failed_after_run,
)
from toolhygiene._tool import Tool, as_tool, definitions
from toolhygiene._transcript import Clearing
from toolhygiene._workers import workers
from toolhygiene.formats._base import Format, Messages

if TYPE_CHECKING:
    import concurrent.futures

__all__ = ["Outcome", "Session"]

_T = TypeVar("_T")

_BUILT_FOR_LISTENERS = frozenset({"tool.failed", "error.recovered", "error.stopped"})
"""Events handed on only when someone listens (``_observe.listening``): the frequent ones."""


class Session(Core):
    """One conversation: per-tool failure caps, the same-failure breaker, local retries,
    pending errors and their tails.

    Args:
        tools: ``@tool``-decorated functions or plain callables (default settings).
        max_failures: failures of one tool the model may see before the tool closes.
        max_wait: the longest single local wait (a longer Retry-After goes to the model).
        retry_budget: seconds one call may take with all its local retries, counted from
            its start (attempt timeouts are clipped to what is left).
        rules: classification rules for every tool of this session.
        line_cap: most characters in a line the model sees (default: configured, 300).
        clearing: what ``handle`` does with errors once the agent recovers: ``"remove"``
            (whole rounds of failures go, others shrink to a stub), ``"stub"`` (only
            shrink), ``"append_only"`` (errors stay; the note says only what recovered)
            or ``"off"``.
        history: ``"client"`` (the list is the whole conversation) or ``"server"`` (the
            server holds it: Responses ``previous_response_id`` / ``conversation=``,
            Anthropic threads; ``handle`` appends only what the next request sends).
        clear_at_least: characters (or ``"N tokens"``) of recovered errors below which
            clearing waits; in server mode, the saving at which a re-seed is due.
        result_cap: most characters of one successful result the model sees (a tool's
            own ``result_cap`` wins; default: ``configure(result_cap=...)``, 20,000).
        session_id: the id every log event and span of this conversation carries (your
            own conversation id); default: a random 16-character hex id.
        max_stuck: timed-out runs of one tool that may still be going before its next
            call is refused (a tool that is not idempotent is refused while any is).
        store: where the conversation's counts live (failures per tool, closed tools,
            same-failure counters): ``MemoryStore`` (shared by Sessions of one process)
            or ``RedisStore`` (shared by every worker); needs ``session_id``. Default:
            this Session alone.
        max_running: runs of one tool in flight at once on toolhygiene's worker threads
            and tasks (a timed-out run counts until it really ends); the session as a
            whole holds at most 4 x this many. A call beyond either is refused, not run.
    """

    def __init__(
        self,
        tools: Iterable[Tool[Any, Any] | Any],
        *,
        max_failures: int = 2,
        max_wait: float = 30.0,
        retry_budget: float = 60.0,
        rules: Iterable[Rule] = (),
        line_cap: int | None = None,
        clearing: Clearing = "remove",
        history: History = "client",
        clear_at_least: int | str = 0,
        result_cap: int | None = None,
        session_id: str | None = None,
        max_stuck: int = 2,
        store: Store | None = None,
        max_running: int = 16,
    ) -> None:
        self.max_failures = max_failures
        self.max_wait = max_wait
        self.retry_budget = retry_budget
        self.line_cap = line_cap
        self.clearing = clearing
        self.max_stuck = max_stuck
        self.max_running = max_running
        self.history = history
        if store is not None and session_id is None:
            raise UsageError(
                "a store keeps counts per conversation: pass session_id= (your own id of "
                "the conversation, the same on every worker)"
            )
        self.id = session_id_of(session_id)
        self._key = self.id if session_id is None else conversation_key(session_id)
        self.store = store
        self._own_id = session_id is not None
        self.clear_at_least = threshold(clear_at_least)
        if callable(tools) or not isinstance(tools, Iterable) or isinstance(tools, (str, Mapping)):
            raise UsageError(f"Session takes a list of tools, as in Session([f]), got {tools!r}")
        self.tools = {}
        for item in tools:
            prepared = as_tool(item)
            if prepared.name in self.tools:
                raise UsageError(f"two tools are named {prepared.name!r}; names must be unique")
            self.tools[prepared.name] = prepared
        self.rules = _checks.rules("rules", rules)
        self.result_cap = result_cap
        self._lock = threading.Lock()
        self._breakers = store if store is not None else PROCESS_BREAKERS
        self._runs = Runs(max_stuck=max_stuck, max_running=max_running, log=_RunEvents(self))
        self._open_conversation()
        self.is_closed = False

    def _setting_changed(self, name: str, value: Any) -> None:
        # max_stuck and max_running bound the runs; clearing is the transcript's.
        if name in ("max_stuck", "max_running") and "_runs" in self.__dict__:
            setattr(self._runs, name, value)
        elif name == "clearing" and "_transcript" in self.__dict__:
            self._transcript.clearing = value

    _clock: Callable[[], float] = staticmethod(time.monotonic)
    """The retry budget's clock (seconds): read here, passed to the core's decisions."""

    def _tell(self, notes: Iterable[Note]) -> None:
        """Emit the events the core decided (the frequent kinds only when someone
        listens)."""
        for note in notes:
            name = note[0]
            if name in _BUILT_FOR_LISTENERS and not _observe.listening(
                name, note[4].get("category")
            ):
                continue
            _observe.emit(_observe.Event(*note))

    def _conversation_ended(self) -> None:
        """The conversation ended: the tails of its unrecovered errors, and its counts,
        told (``error.stopped``, ``session.closed``) under its id."""
        ended = None
        if self.store is not None:  # the shell asks the store; the core takes the answer
            ended = self._after_run(functools.partial(self.store.ended, self._key), tool="")
        tails, counts = self._end_conversation(ended)
        if tails and _observe.listening("error.stopped"):  # else no event is built
            for failed_id, tail in tails:
                stopped = _observe.Event("error.stopped", self.id, tail["tool"], failed_id, tail)
                _observe.emit(stopped)
        _observe.emit(_observe.Event("session.closed", self.id, None, None, counts))

    def _after_run(self, ask: Callable[[], _T], *, tool: str | None) -> _T | None:
        """``ask()`` of the store, after the call ran: a store failing then
        (``StoreError``) is warned of and loses no outcome (``None``)."""
        try:
            return ask()
        except StoreError as exc:
            failed_after_run(self.id, tool, exc)
            return None

    # -- the store, asked: sync here, off the event loop in the async shell -------------

    def _ask_start(self, name: str, found: Tool[Any, Any] | None) -> Started | Gate | None:
        """The one round trip that starts a call (``Core._begin`` takes the answer): the
        store's ``start``; without a store, only for a tool with an ``upstream``, what
        the process's breaker of it says (only looking)."""
        upstream = found.upstream if found is not None else None
        store = self.store
        if store is None:
            if upstream is None or self.is_closed:
                return None
            return PROCESS_BREAKERS.breakers.admit(upstream, None, claim=False)
        if self.is_closed:  # _begin refuses it: the store counts no call
            return None
        return store.start(self._key, name, known=self._ledger.known(), upstream=upstream)

    def _started(
        self,
        name: str,
        arguments: Mapping[str, Any] | str | bytes | None,
        call_id: str | None,
        now: float,
        found: Tool[Any, Any] | None,
    ) -> Plan | Refused:
        """The call begun: the store asked to start it, the core's decision, and, when
        the core says so, the probe of an open upstream claimed (``Claim``) or a refusal's
        failure counted by the store (``Refused.owed``)."""
        begun = self._begin(name, arguments, call_id, now, self._ask_start(name, found))
        if type(begun) is Plan:
            return begun
        if type(begun) is Claim:  # asked before the call runs: a failing store raises
            gate = self._breakers.admit(begun.upstream, begun.hold)
            return self._claimed(begun.plan, begun.upstream, gate)
        assert type(begun) is Refused
        if begun.owed:
            return Refused(self._settled(begun.owed, begun.outcome), begun.notes)
        return begun

    def _settled(self, owed: list[Owed], outcome: _T) -> _T:
        """The store round trips the core decided after a call ran, made in order (those
        its decisions add too), each answer given to the core's decision: ``outcome``, or
        the one a decision returned in its place."""
        while owed:
            ask, then, tool = owed.pop(0)
            answer = self._after_run(ask, tool=tool)
            if then is not None:
                decided = then(answer)
                if decided is not None:
                    outcome = decided  # type: ignore[assignment]
        return outcome

    def _decided(self, decide: Callable[..., _T], plan: Plan, *args: Any) -> _T:
        """``decide(plan, *args)``, with the store round trips it decided made."""
        outcome = decide(plan, *args)
        owed = plan.owed
        if owed:
            plan.owed = None
            outcome = self._settled(owed, outcome)
        return outcome

    def _told(self, plan: Plan, outcome: _T) -> _T:
        """``outcome`` (or the one the store's answers decide), once the store round
        trips and the events decided about ``plan`` so far are made and emitted."""
        notes = plan.notes
        if notes is not None:
            owed = plan.owed
            if owed:
                plan.owed = None
                outcome = self._settled(owed, outcome)
            plan.notes = None
            if notes:
                self._tell(notes)
        return outcome

    # -- sync shell -------------------------------------------------------------------

    def call(
        self,
        name: str,
        arguments: Mapping[str, Any] | str | bytes | None = None,
        *,
        call_id: str | None = None,
    ) -> Outcome:
        """Run one tool call the model asked for; never raises for the tool's failures.

        ``arguments`` is a dict or the JSON string the model sent; ``call_id`` the call's
        id in the model's turn, for the logs and spans (``handle`` passes it).

        Raises:
            UsageError: ``name`` is not a string (a model's name always is), the Session is
                closed, or toolhygiene is used wrongly (see ``UsageError``).
        """
        _tool_name(name)
        if loop_running():  # as handle() does: a sync tool never runs on the loop's thread
            found = self.tools.get(name)
            if found is None or not found.is_async:  # an async one: _call refuses it
                return self._on_worker(name, arguments, call_id).result()
        hooks = _observe.watching()
        if hooks:
            call = self._watched(name, call_id, arguments, asynchronous=False)
            outcome: Outcome = _observe.around(hooks, self._call, call)
            return outcome
        return self._call(name, arguments, call_id)

    def _watched(
        self, name: str, call_id: str | None, arguments: Any, *, asynchronous: bool
    ) -> _observe.Call:
        """The call as the hooks see it (with its tool's description, when known)."""
        found = self.tools.get(name)
        return _observe.Call(
            self.id,
            name,
            call_id,
            arguments,
            asynchronous=asynchronous,
            known=found is not None,
            description=found.description if found is not None else None,
        )

    def _on_worker(
        self, name: str, arguments: Mapping[str, Any] | str | bytes | None, call_id: str | None
    ) -> concurrent.futures.Future[Outcome]:
        """``call`` on one of toolhygiene's workers, in a copy of this thread's context
        (its span's parent is the span here): how a sync tool runs when an event loop is
        running on this thread, for ``call`` and ``handle`` alike (``asyncio.run`` inside
        the tool works, and the loop's thread never runs the tool)."""
        run = functools.partial(self.call, call_id=call_id)
        return workers.submit(contextvars.copy_context().run, run, name, arguments)

    def _call(
        self, name: str, arguments: Mapping[str, Any] | str | bytes | None, call_id: str | None
    ) -> Outcome:
        found = self.tools.get(name)
        if found is not None and found.is_async and loop_running():
            raise UsageError(f"{name} is async and an event loop is running: use acall()")
        plan: Plan | Refused
        if self.store is None and (found is None or found.upstream is None):
            # Nothing to ask a store (no Claim without an upstream, no Refused.owed
            # without a store): the core decides at once.
            plan = self._begin(name, arguments, call_id, self._clock())  # type: ignore[assignment]
        else:
            plan = self._started(name, arguments, call_id, self._clock(), found)
        if isinstance(plan, Refused):
            self._tell(plan.notes)
            return plan.outcome
        tool = plan.tool
        # The call's secret arguments are redacted wherever its failure or result repeats them.
        with _known.known(known_of(plan)):
            try:
                if tool.timeout is None and not tool.is_async and not self._runs.going:
                    value = tool.invoke(plan.values)  # the success path: a plain call
                else:
                    timeout = self._timeout(plan, self._clock())
                    value = run_sync(tool, plan.values, timeout, self._runs)
            except Exception as first:
                failed = first
            else:
                payload = returned(value, tool, self._line_cap)
                if payload is None:
                    outcome = self._succeeded(plan, value, 1)
                    if plan.notes is not None:  # events, or store round trips
                        return self._told(plan, outcome)
                    return outcome
                failed = payload  # a failure the tool returned: retried like a raised one
            # Classified and logged outside the handler: while an exception is being
            # handled, every exception raised (even one caught at once, as getattr's
            # default is) walks the handled one's whole __context__ chain: 100,000 links
            # cost ms each time.
            return self._retry(plan, failed)

    def _retry(self, plan: Plan, first: Exception) -> Outcome:
        policy = self._told(plan, self._retrying(plan, first, self._clock))
        if isinstance(policy, Outcome):
            return policy
        import tenacity  # here, not with toolhygiene: most calls never retry

        replay: list[Exception] = [first]  # the first attempt, already made, replayed
        state: Any = None
        try:
            for attempt in tenacity.Retrying(
                sleep=functools.partial(pause, plan),
                before_sleep=functools.partial(self._before_sleep, plan),
                **policy.options(),
            ):
                state = attempt.retry_state
                with attempt:
                    value = self._replay_or_attempt(replay, plan, policy)
        except Exception as last:
            failed = last
        else:
            return self._told(plan, self._succeeded(plan, value, state.attempt_number))
        finally:
            self._leave(plan)
        return self._told(plan, self._ended(plan, failed, state.attempt_number, verdict_of(state)))

    def _replay_or_attempt(self, replay: list[Exception], plan: Plan, policy: RetryPolicy) -> Any:
        if replay:
            raise replay.pop()
        value = run_sync(plan.tool, plan.values, policy.timeout(), self._runs)
        payload = returned(value, plan.tool, self._line_cap)
        if payload is not None:  # a failed attempt, for tenacity as for the model
            raise payload
        return value

    def _before_sleep(self, plan: Plan, state: Any) -> None:
        self._retried(plan, state.attempt_number, state.upcoming_sleep, verdict_of(state))
        self._told(plan, None)

    # -- async shell ------------------------------------------------------------------

    async def acall(
        self,
        name: str,
        arguments: Mapping[str, Any] | str | bytes | None = None,
        *,
        call_id: str | None = None,
    ) -> Outcome:
        """``call`` for async code; sync tools run in a worker thread, off the loop."""
        _tool_name(name)
        hooks = _observe.watching()
        if hooks:
            call = self._watched(name, call_id, arguments, asynchronous=True)
            outcome: Outcome = await _observe.around_async(hooks, self._acall, call)
            return outcome
        return await self._acall(name, arguments, call_id)

    async def _off_loop(self, decide: Callable[..., _T], *args: Any) -> _T:
        """A decision that may ask the store (a network round trip) runs on one of
        toolhygiene's worker threads, so the event loop never waits on Redis; a store with
        a ``redis.asyncio`` client sends its round trips on this loop (``EVENT_LOOP``)."""
        if self.store is None or isinstance(self.store, MemoryStore):
            return decide(*args)
        import asyncio  # imported by the caller already: it is awaiting this

        # toolhygiene's own workers, never asyncio's default executor: a slow Redis must
        # not queue the application's own to_thread jobs behind the store's round trips.
        context = contextvars.copy_context()
        context.run(EVENT_LOOP.set, asyncio.get_running_loop())
        future = workers.submit(context.run, decide, *args)
        result: _T = await asyncio.wrap_future(future)
        return result

    async def _acall(
        self, name: str, arguments: Mapping[str, Any] | str | bytes | None, call_id: str | None
    ) -> Outcome:
        found = self.tools.get(name)
        plan = await self._off_loop(self._started, name, arguments, call_id, self._clock(), found)
        if isinstance(plan, Refused):
            self._tell(plan.notes)
            return plan.outcome
        with _known.known(known_of(plan)):
            try:
                timeout = self._timeout(plan, self._clock())
                value = await run_async(plan.tool, plan.values, timeout, self._runs)
            except Exception as first:
                failed = first
            else:
                payload = returned(value, plan.tool, self._line_cap)
                if payload is None:
                    outcome: Outcome = await self._off_loop(
                        self._decided, self._succeeded, plan, value, 1
                    )
                    return self._told(plan, outcome)
                failed = payload  # a failure the tool returned: retried like a raised one
            return await self._aretry(plan, failed)

    async def _aretry(self, plan: Plan, first: Exception) -> Outcome:
        policy: RetryPolicy | Outcome = await self._off_loop(
            self._decided, self._retrying, plan, first, self._clock
        )
        self._told(plan, None)
        if isinstance(policy, Outcome):
            return policy
        import tenacity

        replay: list[Exception] = [first]
        state: Any = None
        try:
            async for attempt in tenacity.AsyncRetrying(
                sleep=functools.partial(pause_async, plan),
                before_sleep=functools.partial(self._before_sleep, plan),
                **policy.options(),
            ):
                state = attempt.retry_state
                with attempt:
                    value = await self._areplay_or_attempt(replay, plan, policy)
        except Exception as last:
            failed = last
        else:
            outcome: Outcome = await self._off_loop(
                self._decided, self._succeeded, plan, value, state.attempt_number
            )
            return self._told(plan, outcome)
        finally:
            self._leave(plan)
        ended: Outcome = await self._off_loop(
            self._decided, self._ended, plan, failed, state.attempt_number, verdict_of(state)
        )
        return self._told(plan, ended)

    async def _areplay_or_attempt(
        self, replay: list[Exception], plan: Plan, policy: RetryPolicy
    ) -> Any:
        if replay:
            raise replay.pop()
        value = await run_async(plan.tool, plan.values, policy.timeout(), self._runs)
        payload = returned(value, plan.tool, self._line_cap)
        if payload is not None:  # a failed attempt, for tenacity as for the model
            raise payload
        return value

    # -- the agent loop -----------------------------------------------------------------

    def handle(
        self,
        response: Any,
        messages: Messages,
        *,
        format: Format | None = None,  # noqa: A002
        mirror: Messages | None = None,
    ) -> Step:
        """Append the model's turn and the results of its tool calls to ``messages``.

        ``response`` is the SDK's own object (anthropic ``Message``, openai
        ``ChatCompletion`` or ``Response``) or a dict of the API's JSON (``format`` tells
        which when it cannot be seen), or a stream of it (a stream helper, a
        ``stream=True`` stream, or the events read from one). Only a finished turn's calls
        run; parallel calls run concurrently; the turn and all its results are appended
        together. Errors of a
        tool that has now succeeded are cleared. Returns a ``Step``, true when the loop
        should call the model again. With ``history="server"`` only the tool results (and
        the note) are appended, and ``mirror``, a full local copy, gets the turn too and
        is the list cleared (for a re-seed).

        Raises:
            UsageError: ``messages`` is another conversation's list, or the Session is
                closed.
        """
        turn = _loop.read(response, format)
        self._handle_turn(turn, messages, mirror)
        return turn.step

    def _handle_turn(
        self, turn: _loop.Turn, messages: Messages, mirror: Messages | None = None
    ) -> list[Outcome]:
        """``handle`` once the turn is read; the outcomes of its calls. The integrations
        (``toolhygiene.integrations``) read their turns themselves and come in here."""
        self._conversation.check(turn, messages, mirror)
        in_loop = loop_running()
        if in_loop:  # one call or several: refused alike, before any runs
            for c in turn.calls:
                found = self.tools.get(c.name)
                if found is not None and found.is_async:
                    raise UsageError(
                        f"{c.name} is async and an event loop is running: use ahandle()"
                    )
        outcomes: list[Outcome] = []
        if turn.calls and in_loop:
            # Inside a running event loop every call runs on a worker, one call or several,
            # never on the loop's thread: a sync tool that calls asyncio.run() works at
            # any position of the round.
            running = [self._on_worker(c.name, c.arguments, c.id) for c in turn.calls]
            outcomes.extend(future.result() for future in running)
        elif turn.calls:
            # The first call runs on this thread, the others at once on the workers, each
            # in a copy of this thread's context (their spans' parent is the span here).
            first, *rest = turn.calls
            jobs = [
                (contextvars.copy_context().run, functools.partial(self.call, call_id=c.id), c)
                for c in rest
            ]
            running = [workers.submit(run, call, c.name, c.arguments) for run, call, c in jobs]
            outcomes.append(self.call(first.name, first.arguments, call_id=first.id))
            # A call no worker has taken yet runs here, now that this thread is free: as
            # soon as it could have started there, and without the hand-over.
            outcomes.extend(
                run(call, c.name, c.arguments) if future.cancel() else future.result()
                for future, (run, call, c) in zip(running, jobs, strict=True)
            )
        self._finish(turn, outcomes, messages, mirror)
        return outcomes

    async def ahandle(
        self,
        response: Any,
        messages: Messages,
        *,
        format: Format | None = None,  # noqa: A002
        mirror: Messages | None = None,
    ) -> Step:
        """``handle`` for async code (async streams too); parallel calls run with
        ``asyncio.gather``."""
        turn = await _loop.aread(response, format)
        await self._ahandle_turn(turn, messages, mirror)
        return turn.step

    async def _ahandle_turn(
        self, turn: _loop.Turn, messages: Messages, mirror: Messages | None = None
    ) -> list[Outcome]:
        """``_handle_turn`` for async code."""
        import asyncio  # imported by the caller already: it is awaiting this

        self._conversation.check(turn, messages, mirror)
        outcomes = await asyncio.gather(
            *(self.acall(c.name, c.arguments, call_id=c.id) for c in turn.calls)
        )
        self._finish(turn, outcomes, messages, mirror)
        return outcomes

    def _finish(
        self, turn: _loop.Turn, outcomes: list[Outcome], messages: Messages, mirror: Messages | None
    ) -> None:
        _loop.finish(
            turn,
            outcomes,
            messages,
            self._transcript,
            self.server,
            session_id=self.id,
            mirror=mirror,
        )
        self._conversation.served(turn)

    # -- the conversation -------------------------------------------------------------

    def schemas(
        self,
        fmt: Format,
        *,
        strict: bool | None = None,
        cache_control: Mapping[str, Any] | bool | None = None,
    ) -> list[dict[str, Any]]:
        """The tool definitions for one API: ``"anthropic"``, ``"openai_chat"`` or
        ``"openai_responses"``. ``strict=True``: strict-mode schemas (each tool's own
        ``strict`` wins); ``cache_control`` (Anthropic): a cache breakpoint on the last."""
        return definitions(self.tools.values(), fmt, strict=strict, cache_control=cache_control)

    def stats(self) -> dict[str, Any]:
        """Counts and tails so far: calls, successes, failures per tool, closed tools,
        local retries, pending errors and each finished error's tail."""
        return self._ledger.stats()

    def resume(self, messages: Messages, *, format: Format | None = None) -> Session:  # noqa: A002
        """Take up a conversation from its message list, in a new process or on another
        worker: the failures of each tool the model has seen, the closed tools and the
        pending errors with their rounds are read back from the list (from the words
        toolhygiene wrote into it), so caps, closed notices and clearing go on exactly as
        if this Session had served it all along. Returns the Session.

        The list cannot prove everything: the same-failure counters start afresh (the
        lines are redacted and capped, so the raw failure cannot be recomputed), local
        retries running in another process are not seen, and the tails of resumed errors
        count calls from the resume. ``format`` is read from the list when not given.

        Raises:
            UsageError: the Session has served calls already, holds a server-side
                conversation (``history="server"``: the list is not the whole
                conversation), or ``messages`` is not a list.
        """
        if self.is_closed:
            raise UsageError("this Session is closed: make a new Session for a new conversation")
        if self.history == "server":
            raise UsageError(
                "resume reads the whole conversation, and with history='server' the server "
                "holds it: resume a client-held list"
            )
        if not isinstance(messages, Sequence) or isinstance(messages, (str, bytes)):
            raise UsageError(
                f"messages must be the conversation's list, got a {type(messages).__name__}"
            )
        if self._ledger.calls:
            raise UsageError(
                "resume a new Session: this one has served calls already (session.reset() "
                "first to take up another conversation)"
            )
        caps = {name: self._cap(name) for name in self.tools}
        facts = _resume.evidence(messages, format, caps, self._transcript)
        self._ledger.restore(
            facts.failures, facts.closed, facts.calls, facts.successes, facts.pending
        )
        self._conversation.resumed(facts.format, facts.last_call)
        return self

    def close(self) -> None:
        """End the conversation: errors never recovered get their tail (``stopped``).
        A closed Session refuses further calls with ``UsageError``."""
        with self._lock:
            if self.is_closed:
                return
            self.is_closed = True
            self._conversation.closed = True
        self._conversation_ended()

    def reset(self, *, session_id: str | None = None) -> None:
        """Start a new conversation with the same tools and settings: the old one's
        counters, closed tools and pending errors are forgotten (its unrecovered errors
        get their tail, ``stopped``), and the next ``handle`` may take a new list.

        The new conversation has a new id: ``session_id``, or a fresh random one, unless
        the Session was made with your own id and none is given here (yours is kept).
        """
        if self.is_closed:
            raise UsageError("this Session is closed: make a new Session for a new conversation")
        if self.store is not None:
            raise UsageError(
                f"this Session keeps conversation {self.id!r} in its store: for a new "
                "conversation make a new Session with that conversation's session_id"
            )
        fresh = session_id is not None or not self._own_id
        new_id = session_id_of(session_id) if fresh else self.id  # checked before anything ends
        new_key = new_id if session_id is None else conversation_key(session_id)
        self._conversation_ended()
        with self._lock:
            object.__setattr__(self, "id", new_id)  # the one place the id may change
            self._key = new_key if fresh else self._key
            self._own_id = self._own_id or session_id is not None
            self._open_conversation()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    async def __aenter__(self) -> Session:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self._off_loop(self.close)


class _RunEvents:
    """What ``Runs`` notices (a run still going, a run that finished late), as events
    with the Session's id at the time."""

    __slots__ = ("session",)

    def __init__(self, session: Session) -> None:
        self.session = session

    def warning(self, event: str, *, tool: str, **fields: Any) -> None:
        _observe.emit(_observe.Event(event, self.session.id, tool, None, fields))

    info = warning


def _tool_name(name: Any) -> None:
    """A tool's name given to ``call``/``acall`` is a string: the formats make every name
    a model sends one, so anything else is the developer's."""
    if not isinstance(name, str):
        raise UsageError(f"the tool name given to call() must be a string, got {name!r}")
