"""``Session``: one conversation's tools, caps, local retries and tails.

The decisions (which tool, closed or not, what counts, what the model sees) are plain
methods shared by ``call`` and ``acall``, and so is the retry policy (``_retrying``); the
two differ only in how they run an attempt (``_running``) and sleep, which tenacity's
``Retrying`` and ``AsyncRetrying`` do for them.
"""

from __future__ import annotations

import contextvars
import dataclasses
import functools
import json
import os
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, TypeVar

# _log and _telemetry are the outputs: importing them registers their hooks.
from toolhygiene import (  # noqa: F401
    _checks,
    _config,
    _known,
    _log,
    _loop,
    _observe,
    _resume,
    _safe_results,
    _telemetry,
    _words,
)
from toolhygiene._errors import Category, Failure, ToolError
from toolhygiene._exceptions import StoreError, UsageError
from toolhygiene._history import HISTORIES, History, ServerHistory, threshold
from toolhygiene._ledger import Ledger
from toolhygiene._loop import Conversation, Step
from toolhygiene._observe import Event
from toolhygiene._payload import PayloadError, returned
from toolhygiene._redact import safe_arguments, sanitize
from toolhygiene._retrying import LocalRetries, Plan, attempts_made
from toolhygiene._rules import Rule
from toolhygiene._running import (
    Runs,
    StillRunningError,
    loop_running,
    result_text,
    run_async,
    run_sync,
)
from toolhygiene._stores import (
    EVENT_LOOP,
    PROCESS_BREAKERS,
    Gate,
    MemoryStore,
    Store,
    failed_after_run,
)
from toolhygiene._text import bounded_repr
from toolhygiene._tool import Tool, as_tool, definitions
from toolhygiene._transcript import CLEARINGS, Clearing, Transcript
from toolhygiene._workers import workers
from toolhygiene.formats._base import Format, Messages

__all__ = ["Outcome", "Session"]

_T = TypeVar("_T")


class Outcome(NamedTuple):
    """The result of one tool call as the model will see it (immutable).

    ``content`` is exactly the text the model sees; ``value`` is the tool's return value
    on success; ``failure`` the record on failure; ``attempts`` how many times the tool
    ran (0 when it did not run at all); ``number`` the call's number in the session
    (with a store: in the conversation, counted across every worker).

    A named tuple rather than a frozen dataclass: it is made on every call, and building
    it costs a fifth as much (``benchmarks/success_path.py``).
    """

    tool: str
    ok: bool
    content: str
    value: Any = None
    failure: Failure | None = None
    attempts: int = 0
    number: int = 0


class Session:
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
        _check_settings(max_failures, max_wait, retry_budget, line_cap, clearing)
        for option, value in (("max_stuck", max_stuck), ("max_running", max_running)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise UsageError(f"{option} must be a whole number of at least 1, got {value!r}")
        if history not in HISTORIES:
            raise UsageError(f"history must be 'client' or 'server', got {history!r}")
        if store is not None and session_id is None:
            raise UsageError(
                "a store keeps counts per conversation: pass session_id= (your own id of "
                "the conversation, the same on every worker)"
            )
        self.id = _session_id(session_id)
        self.store = store
        self._own_id = session_id is not None
        self.history: History = history
        self.clear_at_least = threshold(clear_at_least)
        self.tools: dict[str, Tool[Any, Any]] = {}
        for item in tools:
            prepared = as_tool(item)
            if prepared.name in self.tools:
                raise UsageError(f"two tools are named {prepared.name!r}; names must be unique")
            self.tools[prepared.name] = prepared
        self.max_failures = max_failures
        self.max_wait = max_wait
        self.retry_budget = retry_budget
        self.rules = _checks.rules("rules", rules)
        self.line_cap = line_cap
        self.result_cap = _config.check_result_cap(result_cap)
        self._lock = threading.Lock()
        self._ledger = Ledger(store, self.id)
        self._breakers: Store = store if store is not None else PROCESS_BREAKERS
        self._gates: dict[int, Gate] = {}
        self._retries = LocalRetries(
            max_wait=max_wait,
            budget=retry_budget,
            rules=self.rules,
            line_cap=self._line_cap,
            ledger=self._ledger,
            session_id=self.id,
            cap=self._cap,
        )
        self._runs = Runs(max_stuck=max_stuck, max_running=max_running, log=_RunEvents(self))
        self.clearing: Clearing = clearing
        self.server = ServerHistory(history, self.clear_at_least, self.id)
        self._transcript = self._new_transcript()
        self._conversation = Conversation(self.server)
        self.is_closed = False

    # -- the shared decisions ---------------------------------------------------------

    def _cap(self, tool: str) -> int:
        found = self.tools.get(tool)
        return (found.max_failures if found else None) or self.max_failures

    def _begin(
        self, name: str, arguments: Mapping[str, Any] | str | bytes | None, call_id: str | None
    ) -> Plan | Outcome:
        if self.is_closed:
            raise UsageError("this Session is closed: make a new Session for a new conversation")
        found = self.tools.get(name)
        upstream = found.upstream if found is not None else None
        index, closed_after, gate = self._ledger.start(name, upstream)  # one store round trip
        if found is None:
            what, instead = _words.unknown_tool(str(name), list(self.tools))
            failure = Failure(
                tool=sanitize(str(name), 64) or "?",
                category=Category.BAD_REQUEST,
                retryable=False,
                message=sanitize(what, self._line_cap()),
                instead=instead,
                exc_type="UnknownTool",
            )
            return self._record_failure(failure, index, 0, None, call="", call_id=call_id)
        if closed_after is not None:
            failure = Failure(
                tool=name,
                category=Category.UNKNOWN,
                retryable=False,
                message="",
                status="closed",
                count=closed_after,
                exc_type="Closed",
                never_ran=True,
                line_cap=self._line_cap(),
                attempted=(
                    safe_arguments(arguments, self._line_cap())
                    if isinstance(arguments, Mapping)
                    else None
                ),
            )
            outcome = Outcome(name, False, failure.line(), failure=failure, number=index)
            fields = {"category": "unavailable", "failures": closed_after}
            _observe.emit(Event("tool.refused", self.id, name, call_id, fields, failure))
            return outcome
        try:
            values = found.validate(arguments)
        except Exception as exc:  # validate raises ToolError; anything else is reported too
            return self._failed(Plan(found, {}, arguments, index, call_id), exc, attempts=0)
        if upstream is not None and gate is not None:
            if gate.state == "probe":  # due: claimed by one caller, for one attempt
                hold = min(found.timeout or self.retry_budget, self.retry_budget)
                gate = self._breakers.admit(upstream, hold)
            refused = self._admit(upstream, gate, name, index, call_id)
            if refused is not None:
                return refused
        probe = gate is not None and gate.state == "probe"
        return Plan(found, values, arguments, index, call_id, probe=probe)

    def _admit(
        self, upstream: str, gate: Gate, name: str, index: int, call_id: str | None
    ) -> Outcome | None:
        """What the shared breaker of ``upstream`` said; the refusal the model sees when it
        is open (nothing runs, nothing counts against the cap), else ``None``. A probe is
        one attempt, held for as long as it may take (the tool's timeout within the retry
        budget): the wait told while another caller probes is the time left until its
        answer is due."""
        if not gate.refused:
            if gate.state != "free":
                with self._lock:
                    self._gates[index] = gate
            return None
        cap = self._line_cap()
        shown = sanitize(upstream, 64)
        what = sanitize(
            _words.upstream_down(shown, gate.failures, gate.failing_for, gate.state == "probing"),
            cap,
        )
        wait = max(gate.wait, 0.1)
        failure = Failure(
            tool=name,
            category=Category.UPSTREAM,
            retryable=True,
            message=f"{what}; {_words.DID_NOT_RUN}",
            retry_after=wait,
            instead=_words.UPSTREAM_INSTEAD,
            exc_type=_words.UPSTREAM_OPEN,
            never_ran=True,
            line_cap=cap,
        )
        verdict = _words.retry_after(wait)
        line = _words.held_line(
            name, shown, what, verdict=verdict, advice=_words.UPSTREAM_INSTEAD, cap=cap
        )
        fields = {"category": "upstream_open", "upstream": upstream, "state": gate.state}
        _observe.emit(Event("tool.refused", self.id, name, call_id, fields, failure))
        return Outcome(name, False, line, failure=failure, number=index)

    def _upstream_answered(self, plan: Plan, failure: Failure | None) -> None:
        """Tell the shared breaker how the call to the tool's upstream went: a transient
        failure (connectivity, 5xx, 429) adds to its streak; any answer ends it."""
        upstream = plan.tool.upstream
        if upstream is None:  # no gate was kept: _admit keeps one only for an upstream
            return
        with self._lock:
            gate = self._gates.pop(plan.index, None)
        try:
            if failure is not None and failure.category.value in _TRANSIENT:
                self._breakers.upstream_failed(upstream, failure.retry_after)
            elif gate is not None:
                self._breakers.upstream_ok(upstream)
        except StoreError as exc:  # the call ran: its outcome stands, the store is warned of
            failed_after_run(self.id, plan.tool.name, exc)

    def _line_cap(self) -> int:
        return _config.line_cap(self.line_cap)

    def _succeeded(self, plan: Plan, value: Any, attempts: int) -> Outcome:
        """``value`` is the call's result (``returned`` found no failure payload in it)."""
        name = plan.tool.name
        try:
            content = result_text(
                lambda: _safe_results.for_model(value, plan.tool, self.result_cap), plan.tool
            )
        except ToolError as exc:  # a result with no faithful JSON form, or none at all
            return self._failed(plan, exc, attempts)
        content = _words.escape_result(content)  # no success reads as toolhygiene's mark
        outcome = Outcome(name, True, content, value, None, attempts, plan.index)
        self._upstream_answered(plan, None)
        tails = self._ledger.succeeded(name, plan.index, plan.call_id)
        if tails and _observe.listening("error.recovered"):
            for failed_id, tail in tails:
                _observe.emit(Event("error.recovered", self.id, name, failed_id, tail))
        return outcome

    def _failed(
        self,
        plan: Plan,
        exc: BaseException | None,
        attempts: int,
        failure: Failure | None = None,
    ) -> Outcome:
        """``exc`` classified (or the ``failure`` a returned payload reported), with the
        attempted call and the tool's advice, counted and reported; the call's secret
        arguments are redacted wherever the failure repeats them. A call refused because
        earlier runs are still going is reported as not run (``_refused``)."""
        if failure is None and type(exc) is PayloadError:  # the payload the tool returned
            exc, failure = None, exc.failure  # type: ignore[attr-defined]
        if failure is None and issubclass(type(exc), StillRunningError):
            if attempts > 1 and plan.seen is not None:  # a retry refused: the last real failure
                return self._failed(plan, plan.seen[0], attempts - 1)
            return self._refused(plan, exc, attempts - 1)  # type: ignore[arg-type]
        with _known.known(_known_of(plan)):
            return self._failed_line(plan, exc, attempts, failure)

    def _failed_line(
        self, plan: Plan, exc: BaseException | None, attempts: int, failure: Failure | None
    ) -> Outcome:
        if failure is None:
            assert exc is not None
            failure = self._retries.classify(plan, exc)
        changes: dict[str, Any] = {}  # made in the ledger's one copy of the failure
        shown = plan.arguments if isinstance(plan.arguments, Mapping) else plan.values
        if shown:
            changes["attempted"] = safe_arguments(shown, self._line_cap())
        if plan.tool.instead and _words.takes_tool_advice(failure):
            changes["instead"] = sanitize(plan.tool.instead, self._line_cap())
        # The key of the call is what the function received (defaults filled in, "false"
        # read as False); arguments that never validated are keyed as they were sent.
        key = _call_key(plan.values if attempts else plan.arguments)
        if attempts:
            self._upstream_answered(plan, failure)
        return self._record_failure(
            failure, plan.index, attempts, exc, call=key, call_id=plan.call_id, changes=changes
        )

    def _refused(self, plan: Plan, refused: StillRunningError, attempts: int) -> Outcome:
        """A call not started because earlier runs are still going: the model is told
        so; not counted as a failure of the tool (it says nothing about whether the tool
        works), logged as ``tool.refused``."""
        failure = dataclasses.replace(
            self._retries.classify(plan, refused),
            refused=True,
            retryable=False,
            line_cap=self._line_cap(),
        )
        line = failure.line()
        fields = {
            "category": failure.category.value,
            "reason": refused.reason,
            "going": refused.going,
            "attempts": attempts,
        }
        _observe.emit(Event("tool.refused", self.id, plan.tool.name, plan.call_id, fields, failure))
        return Outcome(
            plan.tool.name, False, line, failure=failure, attempts=attempts, number=plan.index
        )

    def _record_failure(
        self,
        failure: Failure,
        index: int,
        attempts: int,
        exc: BaseException | None,
        *,
        call: str,
        call_id: str | None,
        changes: Mapping[str, Any] | None = None,
    ) -> Outcome:
        name = failure.tool
        fingerprint = failure.fingerprint  # a hash of what the changes leave alone
        failure, line = self._ledger.failed(
            failure,
            index,
            self._cap(name) if name in self.tools else None,
            self._line_cap(),
            call,
            changes=changes,
            fingerprint=fingerprint,
            call_id=call_id,
        )
        if _observe.listening("tool.failed", failure.category.value):  # else built for none
            fields = {
                "category": failure.category.value,
                "fingerprint": fingerprint,
                "retryable": failure.retryable,
                "status": failure.status,
                "attempts": attempts,
                "exc_type": failure.exc_type,
                "frame": failure.frame,
                "line": line,
            }
            _observe.emit(Event("tool.failed", self.id, name, call_id, fields, failure, exc))
        if failure.closes:
            closed = {
                "category": failure.category.value,
                "fingerprint": fingerprint,
                "failures": failure.count,
            }
            _observe.emit(Event("tool.closed", self.id, name, call_id, closed, failure))
        return Outcome(name, False, line, failure=failure, attempts=attempts, number=index)

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
        """
        hooks = _observe.watching()
        if hooks:
            call = _observe.Call(self.id, name, call_id, arguments, asynchronous=False)
            outcome: Outcome = _observe.around(hooks, self._call, call)
            return outcome
        return self._call(name, arguments, call_id)

    def _call(
        self, name: str, arguments: Mapping[str, Any] | str | bytes | None, call_id: str | None
    ) -> Outcome:
        found = self.tools.get(name)
        if found is not None and found.is_async and loop_running():
            raise UsageError(f"{name} is async and an event loop is running: use acall()")
        plan = self._begin(name, arguments, call_id)
        if isinstance(plan, Outcome):
            return plan
        tool = plan.tool
        # The call's secret arguments are redacted wherever its failure or result repeats them.
        with _known.known(_known_of(plan)):
            try:
                if tool.timeout is None and not tool.is_async and not self._runs.going:
                    value = tool.invoke(plan.values)  # the success path: a plain call
                else:
                    value = run_sync(tool, plan.values, self._retries.timeout(plan), self._runs)
            except Exception as first:
                failed = first
            else:
                payload = returned(value, tool, self._line_cap)
                if payload is None:
                    return self._succeeded(plan, value, 1)
                failed = payload  # a failure the tool returned: retried like a raised one
            # Classified and logged outside the handler: while an exception is being
            # handled, every exception raised (even one caught at once, as getattr's
            # default is) walks the handled one's whole __context__ chain: 100,000 links
            # cost ms each time.
            return self._retry(plan, failed)

    def _retry(self, plan: Plan, first: Exception) -> Outcome:
        if not self._retries.enter(plan, first):
            return self._failed(plan, first, 1)
        replay: list[Exception] = [first]
        import tenacity  # here, not with toolhygiene: most calls never retry

        retrying = tenacity.Retrying(**self._retries.options(plan))
        try:
            value = retrying(self._replay_or_attempt, replay, plan=plan)
        except Exception as last:
            failed = last
        else:
            return self._succeeded(plan, value, attempts_made(retrying))
        finally:
            self._retries.leave(plan)
        return self._failed(plan, failed, attempts_made(retrying))

    def _replay_or_attempt(self, replay: list[Exception], *, plan: Plan) -> Any:
        if replay:
            raise replay.pop()
        value = run_sync(plan.tool, plan.values, self._retries.timeout(plan), self._runs)
        payload = returned(value, plan.tool, self._line_cap)
        if payload is not None:  # a failed attempt, for tenacity as for the model
            raise payload
        return value

    # -- async shell ------------------------------------------------------------------

    async def acall(
        self,
        name: str,
        arguments: Mapping[str, Any] | str | bytes | None = None,
        *,
        call_id: str | None = None,
    ) -> Outcome:
        """``call`` for async code; sync tools run in a worker thread, off the loop."""
        hooks = _observe.watching()
        if hooks:
            call = _observe.Call(self.id, name, call_id, arguments, asynchronous=True)
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
        import contextvars

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
        plan = await self._off_loop(self._begin, name, arguments, call_id)
        if isinstance(plan, Outcome):
            return plan
        with _known.known(_known_of(plan)):
            try:
                value = await run_async(
                    plan.tool, plan.values, self._retries.timeout(plan), self._runs
                )
            except Exception as first:
                failed = first
            else:
                payload = returned(value, plan.tool, self._line_cap)
                if payload is None:
                    return await self._off_loop(self._succeeded, plan, value, 1)
                failed = payload  # a failure the tool returned: retried like a raised one
            return await self._aretry(plan, failed)

    async def _aretry(self, plan: Plan, first: Exception) -> Outcome:
        if not self._retries.enter(plan, first):
            return await self._off_loop(self._failed, plan, first, 1)
        replay: list[Exception] = [first]
        import tenacity

        retrying = tenacity.AsyncRetrying(**self._retries.options(plan))
        try:
            value: Any = await retrying(self._areplay_or_attempt, replay, plan=plan)
        except Exception as last:
            failed = last
        else:
            return await self._off_loop(self._succeeded, plan, value, attempts_made(retrying))
        finally:
            self._retries.leave(plan)
        return await self._off_loop(self._failed, plan, failed, attempts_made(retrying))

    async def _areplay_or_attempt(self, replay: list[Exception], *, plan: Plan) -> Any:
        if replay:
            raise replay.pop()
        value = await run_async(plan.tool, plan.values, self._retries.timeout(plan), self._runs)
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
        outcomes: list[Outcome] = []
        if turn.calls:
            # The first call runs on this thread, the others at once on the workers, each
            # in a copy of this thread's context (their spans' parent is the span here).
            first, *rest = turn.calls
            running = [
                workers.submit(
                    contextvars.copy_context().run,
                    functools.partial(self.call, call_id=c.id),
                    c.name,
                    c.arguments,
                )
                for c in rest
            ]
            outcomes.append(self.call(first.name, first.arguments, call_id=first.id))
            outcomes.extend(future.result() for future in running)
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
        self._end_conversation()

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
        new_id = _session_id(session_id) if fresh else self.id  # checked before anything ends
        self._end_conversation()
        with self._lock:
            self.id = self._retries.session_id = new_id
            self._own_id = self._own_id or session_id is not None
            self._ledger = Ledger(self.store, self.id)
            self._retries.ledger = self._ledger
            self.server = ServerHistory(self.history, self.clear_at_least, self.id)
            self._transcript = self._new_transcript()
            self._conversation = Conversation(self.server)

    def _new_transcript(self) -> Transcript:
        # Server-held: the mirror is a local list, cleared at once; the threshold is the
        # re-seed's.
        local = self.clear_at_least if self.history == "client" else 0
        return Transcript(self.clearing, local)

    def _end_conversation(self) -> None:
        for failed_id, tail in self._ledger.stop():
            _observe.emit(Event("error.stopped", self.id, tail["tool"], failed_id, tail))
        stats = self._ledger.stats()
        counts = {"calls": stats["calls"], "failures": sum(stats["failures"].values())}
        _observe.emit(Event("session.closed", self.id, None, None, counts))

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    async def __aenter__(self) -> Session:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self._off_loop(self.close)


_TRANSIENT = frozenset({"connectivity", "upstream", "rate_limit"})
"""Categories that say the upstream itself is in trouble (its breaker counts them)."""


def _known_of(plan: Plan) -> tuple[str, ...]:
    """The values of the call's arguments named like secrets, as sent and as validated."""
    sent = plan.arguments if isinstance(plan.arguments, Mapping) else None
    return _known.of_arguments(sent, plan.values)


def _check_settings(
    max_failures: int, max_wait: float, retry_budget: float, line_cap: int | None, clearing: str
) -> None:
    """Raise ``UsageError`` for a setting no conversation can use."""
    _checks.whole("max_failures", max_failures, 1)
    _checks.seconds("max_wait", max_wait)
    _checks.seconds("retry_budget", retry_budget)
    if line_cap is not None:
        _checks.whole("line_cap", line_cap, _words.MIN_LINE_CAP)
    if clearing not in CLEARINGS:
        raise UsageError(f"clearing must be one of {', '.join(CLEARINGS)}, got {clearing!r}")


def _session_id(given: str | None) -> str:
    """The user's id for the conversation, or a random one unique across processes."""
    if given is None:
        return os.urandom(8).hex()  # secrets.token_hex(8), without importing secrets
    if not isinstance(given, str) or not given.strip() or len(given) > 256:
        raise UsageError(
            f"session_id must be a non-empty string of at most 256 characters, got {given!r}"
        )
    return given


def _call_key(arguments: Mapping[str, Any] | str | bytes | None) -> str:
    """A short key of the arguments the model sent: equal for the exact same call."""
    import hashlib  # OpenSSL's bindings: at the first failure, not at import

    source: Any = arguments
    if isinstance(source, (str, bytes)):
        try:
            source = json.loads(source)
        except (ValueError, RecursionError):
            source = arguments
    try:
        text = json.dumps(source, sort_keys=True, default=repr)
    except Exception:  # nested past the stack, circular, or a repr() that raises
        text = bounded_repr(source, 65_536)
    return hashlib.blake2b(text.encode("utf-8", "replace"), digest_size=8).hexdigest()


class _RunEvents:
    """What ``Runs`` notices (a run still going, a run that finished late), as events
    with the Session's id at the time."""

    __slots__ = ("session",)

    def __init__(self, session: Session) -> None:
        self.session = session

    def warning(self, event: str, *, tool: str, **fields: Any) -> None:
        _observe.emit(_observe.Event(event, self.session.id, tool, None, fields))

    info = warning
