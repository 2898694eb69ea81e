"""The decisions of one conversation: ``Core``, the base of ``Session``.

As httpx's ``BaseClient`` is to ``Client`` and ``AsyncClient``, ``Core`` holds every
decision about a call and ``Session`` (``_session``) only runs things: it runs the
attempts, sleeps between them, reads the clock, emits the events and moves work off the
event loop, in a sync and an async shell over the same decisions. Nothing here runs a
tool, starts a thread, takes a lock, awaits, sleeps, reads a clock (the shell passes
``now``, and its clock to a retry policy) or emits an event: the events a decision makes
are ``Note`` records, returned (``Refused``, ``_end_conversation``) or left on the call's
``Plan``, and the shell emits them. The decisions of one call, in order:

- ``_begin``: the call admitted (a ``Plan``) or ``Refused``: an unknown tool, a closed
  tool, arguments that do not validate, an upstream whose breaker is open;
- ``_retrying``: after a failed first attempt, the call's ``RetryPolicy`` (``_retrying``)
  or, when no local retry follows, the failure's ``Outcome``;
- ``_succeeded`` / ``_failed`` / ``_ended``: the ``Outcome`` the model sees: the result, or
  the failure's line, counted against the tool's cap (closing it at the cap), noted.

Nor does it ask the store. The shell makes every round trip and gives the answer to a
decision here: the one that starts a call (``Store.start``) to ``_begin``, the claim of
a due probe (a ``Claim``) to ``_claimed``, the conversation's end to
``_end_conversation``; after a call ran, a decision puts the round trips it decided on
the call's ``Plan`` (``owed``: the breaker's answer, the store's count of a failure,
whose line waits for it, the error then left waiting, a success's recovered errors),
each with the decision on its answer, and the shell makes them in order (the async
shell off the event loop).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable, Mapping
from typing import Any

from toolhygiene import _config, _known, _safe_results, _settings, _words
from toolhygiene._answers import Counted, Gate, Started, Store, Waiting
from toolhygiene._call import Arguments, Claim, Note, Outcome, Owed, Plan, Refused
from toolhygiene._classify import classify
from toolhygiene._errors import Category, Failure, ToolError
from toolhygiene._exceptions import UsageError
from toolhygiene._history import ServerHistory
from toolhygiene._ledger import Ledger
from toolhygiene._loop import Conversation
from toolhygiene._payload import PayloadError
from toolhygiene._reading import short_name
from toolhygiene._redact import safe_arguments, sanitize
from toolhygiene._retrying import (
    RetryPolicy,
    Verdict,
    attempt_timeout,
    may_retry,
    never_retried,
)
from toolhygiene._running import (
    AttemptTimeoutError,
    StillRunningError,
    result_text,
)
from toolhygiene._text import bounded_repr
from toolhygiene._tool import Tool
from toolhygiene._transcript import Transcript

__all__ = ["Core", "Outcome"]


class Core(_settings.Settings):
    """Every decision about one conversation's calls; ``Session`` runs them."""

    tools: dict[str, Tool[Any, Any]]
    id: str
    is_closed: bool
    server: ServerHistory
    _ledger: Ledger
    _breakers: Store
    """Where the breakers of upstreams live (the store, else the process's)."""
    _key: str
    """The store's key of the conversation (``_stores.conversation_key``)."""
    _transcript: Transcript
    _conversation: Conversation

    # -- the conversation ---------------------------------------------------------------

    def _open_conversation(self) -> None:
        """A new conversation's records, under the current id."""
        self._ledger = Ledger(self.store is not None)
        self.server = ServerHistory(self.history, self.clear_at_least, self.id)
        # Server-held: the mirror is a local list, cleared at once; the threshold is the
        # re-seed's.
        local = self.clear_at_least if self.history == "client" else 0
        self._transcript = Transcript(self.clearing, local)
        self._conversation = Conversation(self.server)

    def _end_conversation(
        self, ended: tuple[int, list[Waiting]] | None
    ) -> tuple[list[tuple[str | None, dict[str, Any]]], dict[str, int]]:
        """The conversation ended: its unrecovered errors get their tail (``stopped``);
        ``ended``: the store's answer (``Store.ended``, asked by the shell), when there is
        a store. Returns the tails, each with the id of the call that failed (for
        ``error.stopped``), and the conversation's counts (for ``session.closed``)."""
        tails = self._ledger.stop(ended)  # counted whether or not anyone listens
        stats = self._ledger.stats()
        return tails, {"calls": stats["calls"], "failures": sum(stats["failures"].values())}

    def _cap(self, tool: str) -> int:
        found = self.tools.get(tool)
        return (found.max_failures if found else None) or self.max_failures

    def _line_cap(self) -> int:
        return _config.line_cap(self.line_cap)

    def _timeout(self, plan: Plan, now: float) -> float | None:
        """The first attempt's timeout at ``now``: the tool's, within the retry budget."""
        return attempt_timeout(plan, self.retry_budget, now)

    # -- admitting a call -------------------------------------------------------------

    def _begin(
        self,
        name: str,
        arguments: Arguments,
        call_id: str | None,
        now: float,
        started: Started | Gate | None = None,
    ) -> Plan | Refused | Claim:
        """The call admitted at ``now`` (its ``Plan``), or refused (what the model sees,
        and the events to emit), or a probe of an open upstream to claim first
        (``Claim``, then ``_claimed``). ``started``: what the shell's one round trip
        answered (``Store.start``; without a store, the upstream's breaker as
        ``Breakers.admit`` sees it, for a tool with an ``upstream``; else ``None``)."""
        if self.is_closed:
            raise UsageError("this Session is closed: make a new Session for a new conversation")
        found = self.tools.get(name)
        upstream = found.upstream if found is not None else None
        gate: Gate | None = None
        if started is None:
            index, closed_after = self._ledger.start(name)
        elif isinstance(started, Started):
            index, closed_after = self._ledger.start(name, started)
            gate = started.gate
        else:  # no store: the upstream's breaker, as it looked
            index, closed_after = self._ledger.start(name)
            gate = started
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
            notes: list[Note] = []
            owed: list[Owed] = []
            told = self._record_failure(
                failure, index, 0, None, notes, owed=owed, call="", call_id=call_id
            )
            return Refused(told, notes, owed or None)
        if closed_after is not None:
            return self._closed(found, arguments, index, closed_after, call_id)
        try:
            values = found.validate(arguments)
        except Exception as exc:  # validate raises ToolError; anything else is reported too
            plan = Plan(found, {}, arguments, index, call_id, now)
            told = self._failed(plan, exc, 0)  # notes a list, which a store's answer adds to
            return Refused(told, plan.notes if plan.notes is not None else [], plan.owed)
        plan = Plan(found, values, arguments, index, call_id, now)
        if upstream is not None and gate is not None:
            if gate.state == "probe":  # due: claimed by one caller, for one attempt
                hold = min(found.timeout or self.retry_budget, self.retry_budget)
                return Claim(plan, upstream, hold)
            return self._claimed(plan, upstream, gate)
        return plan

    def _claimed(self, plan: Plan, upstream: str, gate: Gate) -> Plan | Refused:
        """The call of a tool with an ``upstream``, given what its breaker said (after a
        ``Claim``, what the claim answered): refused while the upstream is open, else
        admitted, owing the breaker its answer unless it was free."""
        if gate.refused:
            return self._upstream_open(upstream, gate, plan.tool.name, plan.index, plan.call_id)
        if gate.state != "free":  # the answer is owed to the breaker
            plan.gate = gate
        plan.probe = gate.state == "probe"
        return plan

    def _closed(
        self,
        tool: Tool[Any, Any],
        arguments: Arguments,
        index: int,
        failures: int,
        call_id: str | None,
    ) -> Refused:
        """A call of a closed tool: not run, not counted; the closed notice again."""
        failure = Failure(
            tool=tool.name,
            category=Category.UNKNOWN,
            retryable=False,
            message="",
            status="closed",
            count=failures,
            exc_type="Closed",
            never_ran=True,
            line_cap=self._line_cap(),
            attempted=(
                safe_arguments(arguments, self._line_cap())
                if isinstance(arguments, Mapping)
                else None
            ),
        )
        outcome = Outcome(tool.name, False, failure.line(), failure=failure, number=index)
        fields = {"category": "unavailable", "failures": failures}
        return Refused(
            outcome, [("tool.refused", self.id, tool.name, call_id, fields, failure, None)]
        )

    def _upstream_open(
        self, upstream: str, gate: Gate, name: str, index: int, call_id: str | None
    ) -> Refused:
        """The refusal the model sees when the shared breaker of ``upstream`` is open
        (nothing runs, nothing counts against the cap). A probe is one attempt, held for
        as long as it may take (the tool's timeout within the retry budget): the wait told
        while another caller probes is the time left until its answer is due."""
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
        outcome = Outcome(name, False, line, failure=failure, number=index)
        return Refused(outcome, [("tool.refused", self.id, name, call_id, fields, failure, None)])

    def _upstream_answered(self, plan: Plan, failure: Failure | None) -> None:
        """Tell the shared breaker how the call to the tool's upstream went: a transient
        failure (connectivity, 5xx, 429) adds to its streak; any answer ends it."""
        upstream = plan.tool.upstream
        if upstream is None:  # no gate was kept: _begin keeps one only for an upstream
            return
        gate, plan.gate = plan.gate, None  # answered once
        breakers = self._breakers
        if failure is not None and failure.category.value in _TRANSIENT:
            ask = functools.partial(breakers.upstream_failed, upstream, failure.retry_after)
        elif gate is not None:
            ask = functools.partial(breakers.upstream_ok, upstream)
        else:
            return
        _owe(plan, (ask, None, plan.tool.name))  # the call ran: a store failing is warned of

    # -- local retries ----------------------------------------------------------------

    def _classify(self, plan: Plan, exc: BaseException) -> Failure:
        """``exc`` classified with the tool's and the session's rules.

        Never raises: an exception so hostile that classifying it fails still gives a
        line that names its type, and the log says why (a ``tool.unclassified`` note)."""
        if type(exc) is PayloadError:  # a failure payload the tool returned: read already
            return exc.failure
        try:
            failure = classify(
                exc,
                plan.tool.name,
                rules=(*plan.tool.rules, *self.rules),
                cap=self._line_cap(),
                idempotent=plan.tool.idempotent,
            )
        except Exception as broken:
            failure = _unreadable(plan.tool.name, exc)
            fields = {"exc_type": failure.exc_type}
            # The log's exception field: what classifying raised.
            note = (
                "tool.unclassified",
                self.id,
                plan.tool.name,
                plan.call_id,
                fields,
                failure,
                broken,
            )
            _noted(plan).append(note)
        # type() and issubclass(): isinstance() would ask a hostile __class__ property.
        if issubclass(type(exc), AttemptTimeoutError) and not exc.started:  # type: ignore[attr-defined]
            failure = dataclasses.replace(failure, never_ran=True)
        return failure

    def _retrying(
        self, plan: Plan, first: Exception, clock: Callable[[], float]
    ) -> RetryPolicy | Outcome:
        """After the first attempt failed with ``first``: the call's retry policy on the
        shell's ``clock`` when it retries (``_leave`` after), else the failure's
        ``Outcome``.

        No more calls of one tool retry at once than the failures the tool has left
        before it closes: a burst of calls to a failing tool then closes it after about
        one attempt each, instead of every call retrying before any failure counts."""
        if never_retried(first):
            return self._failed(plan, first, 1)
        verdict = Verdict(first, self._classify(plan, first))
        if not may_retry(plan, verdict.failure):  # retries=0, not retryable: no policy
            return self._failed(plan, first, 1, verdict.failure)
        name = plan.tool.name
        policy = RetryPolicy(
            plan,
            max_wait=self.max_wait,
            budget=self.retry_budget,
            judge=functools.partial(self._classify, plan),
            closed=lambda: name in self._ledger.closed,
            first=verdict,
            clock=clock,
        )
        # No retry loop when no retry could start (the budget spent, the tool closed, a
        # failure not worth one): the failure is told as tenacity would end it.
        if not (policy.wanted(verdict.failure) and policy.possible()) or not self._ledger.enter(
            name, self._cap(name)
        ):
            return self._failed(plan, first, 1, verdict.failure)
        return policy

    def _leave(self, plan: Plan) -> None:
        """The call that ``_retrying`` let retry is done."""
        self._ledger.leave(plan.tool.name)

    def _retried(self, plan: Plan, attempt: int, wait: float, verdict: Verdict | None) -> None:
        """A local retry is about to wait ``wait`` seconds after attempt ``attempt``:
        counted, and noted (``tool.retry``)."""
        self._ledger.retried()
        failure = verdict.failure if verdict is not None else None
        fields = {
            "attempt": attempt,
            "wait": _words.rounded(wait),
            "category": failure.category.value if failure else None,
            "fingerprint": failure.fingerprint if failure else None,
        }
        exc = verdict.exc if verdict is not None else None
        _noted(plan).append(
            ("tool.retry", self.id, plan.tool.name, plan.call_id, fields, failure, exc)
        )

    # -- the outcome --------------------------------------------------------------------

    def _succeeded(self, plan: Plan, value: Any, attempts: int) -> Outcome:
        """``value`` is the call's result (``returned`` found no failure payload in it).
        The errors it recovers are noted on ``plan`` (``error.recovered``)."""
        name = plan.tool.name
        try:
            content = result_text(
                plan.tool, _safe_results.for_model, value, plan.tool, self.result_cap
            )
        except ToolError as exc:  # a result with no faithful JSON form, or none at all
            return self._failed(plan, exc, attempts)
        content = _words.escape_result(content)  # no success reads as toolhygiene's mark
        outcome = Outcome(name, True, content, value, None, attempts, plan.index)
        if plan.tool.upstream is not None:
            self._upstream_answered(plan, None)
        tails = self._ledger.succeeded(name, plan.index, plan.call_id)
        if tails:
            self._recovered(plan, tails)
        elif tails is None:  # the store is asked for every worker's errors of the tool
            assert self.store is not None
            ask = functools.partial(self.store.recovered, self._key, name)
            found = functools.partial(self._recovered_from, plan)
            _owe(plan, (ask, found, name))
        return outcome

    def _recovered_from(self, plan: Plan, found: list[Waiting] | None) -> None:
        """The store's answer to a success (``Store.recovered``): the errors it recovers."""
        self._recovered(plan, self._ledger.recovered(found, plan.index, plan.call_id))

    def _recovered(self, plan: Plan, tails: list[tuple[str | None, dict[str, Any]]]) -> None:
        if tails:
            notes = _noted(plan)
            name = plan.tool.name
            for failed_id, tail in tails:
                notes.append(("error.recovered", self.id, name, failed_id, tail, None, None))

    def _ended(
        self, plan: Plan, exc: BaseException, attempts: int, last: Verdict | None
    ) -> Outcome:
        """Local retries ended with ``exc`` after ``attempts`` attempts; ``last`` is the
        policy's last verdict. A retry refused because the last run is still going
        reports the last real failure."""
        if issubclass(type(exc), StillRunningError) and attempts > 1 and last is not None:
            return self._failed(plan, last.exc, attempts - 1, last.failure)
        return self._failed(plan, exc, attempts, last.failure if last and last.exc is exc else None)

    def _failed(
        self,
        plan: Plan,
        exc: BaseException | None,
        attempts: int,
        failure: Failure | None = None,
    ) -> Outcome:
        """``exc`` classified (unless ``failure`` is its classification already, or the
        failure a returned payload reported), with the attempted call and the tool's
        advice, counted and reported; the call's secret arguments are redacted wherever
        the failure repeats them. A call refused because earlier runs are still going is
        reported as not run (``_refused``).

        A call that ran (``attempts``) is inside its shell's ``_known.known`` block
        already (``Session._call``/``_acall``, copied to the worker that decides); a call
        refused before it ran (``attempts`` 0: ``_begin``) enters it here.

        Raises:
            UsageError: ``exc`` is one: toolhygiene used wrongly (an annotation that
                cannot be resolved, a ``ToolError`` with a wrong argument) is the
                developer's to fix, never the model's line.
        """
        if issubclass(type(exc), UsageError):  # type(): never the exception's __class__
            raise exc  # type: ignore[misc]
        if failure is None and type(exc) is PayloadError:  # the payload the tool returned
            exc, failure = None, exc.failure  # type: ignore[attr-defined]
        if failure is None and issubclass(type(exc), StillRunningError):
            return self._refused(plan, exc, attempts - 1)  # type: ignore[arg-type]
        if attempts:
            return self._failed_line(plan, exc, attempts, failure)
        known = known_of(plan)
        with _known.known(known):
            outcome = self._failed_line(plan, exc, attempts, failure)
        if plan.owed:  # the store's count is decided on later, as knowing as this
            plan.owed[:] = [
                (ask, then if then is None else functools.partial(_knowing, known, then), tool)
                for ask, then, tool in plan.owed
            ]
        return outcome

    def _failed_line(
        self, plan: Plan, exc: BaseException | None, attempts: int, failure: Failure | None
    ) -> Outcome:
        if failure is None:
            assert exc is not None
            failure = self._classify(plan, exc)
        changes: dict[str, Any] = {}  # made in the ledger's one copy of the failure
        cap = self._line_cap()
        shown = plan.arguments if isinstance(plan.arguments, Mapping) else plan.values
        if shown:
            changes["attempted"] = safe_arguments(shown, cap)
        if plan.tool.instead and _words.takes_tool_advice(failure):
            changes["instead"] = sanitize(plan.tool.instead, cap)
        # The key of the call is what the function received (defaults filled in, "false"
        # read as False); arguments that never validated are keyed as they were sent.
        key = _call_key(plan.values if attempts else plan.arguments)
        if attempts and plan.tool.upstream is not None:
            self._upstream_answered(plan, failure)
        notes = plan.notes
        if notes is None:
            notes = plan.notes = []
        owed = plan.owed
        if owed is None:
            owed = plan.owed = []
        return self._record_failure(
            failure,
            plan.index,
            attempts,
            exc,
            notes,
            owed=owed,
            call=key,
            call_id=plan.call_id,
            changes=changes,
            line_cap=cap,
            cap=plan.tool.max_failures or self.max_failures,
        )

    def _refused(self, plan: Plan, refused: StillRunningError, attempts: int) -> Outcome:
        """A call not started because earlier runs are still going: the model is told
        so; not counted as a failure of the tool (it says nothing about whether the tool
        works), noted as ``tool.refused``."""
        failure = dataclasses.replace(
            self._classify(plan, refused),
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
        _noted(plan).append(
            ("tool.refused", self.id, plan.tool.name, plan.call_id, fields, failure, None)
        )
        return Outcome(
            plan.tool.name, False, line, failure=failure, attempts=attempts, number=plan.index
        )

    def _record_failure(
        self,
        failure: Failure,
        index: int,
        attempts: int,
        exc: BaseException | None,
        notes: list[Note],
        *,
        owed: list[Owed],
        call: str,
        call_id: str | None,
        changes: Mapping[str, Any] | None = None,
        line_cap: int | None = None,
        cap: int | None = None,
    ) -> Outcome:
        """The failure counted and noted (``tool.failed``, and ``tool.closed`` when it
        closes the tool); ``line_cap`` and ``cap`` (the tool's failure cap) when the caller
        has them already. With a store, the count is the store's: the store's question
        is put on ``owed`` and the ``Outcome`` returned is a stand-in (no line yet) that
        the shell replaces with the decision on the store's answer (``_counted``)."""
        name = failure.tool
        fingerprint = failure.fingerprint  # a hash of what the changes leave alone
        if cap is None and name in self.tools:
            cap = self._cap(name)
        count = functools.partial(
            self._counted,
            failure=failure,
            index=index,
            attempts=attempts,
            exc=exc,
            notes=notes,
            owed=owed,
            call=call,
            call_id=call_id,
            changes=changes,
            line_cap=line_cap or self._line_cap(),
            cap=cap,
            fingerprint=fingerprint,
        )
        if self.store is None:
            return count(None)
        counted_as, known = self._ledger.failing(name, cap)
        ask = functools.partial(
            self.store.failed, self._key, counted_as, fingerprint, call, cap=cap, known=known
        )
        owed.append((ask, functools.partial(count, name=counted_as), counted_as))
        return Outcome(name, False, "", failure=failure, attempts=attempts, number=index)

    def _counted(
        self,
        counted: Counted | None,
        *,
        failure: Failure,
        index: int,
        attempts: int,
        exc: BaseException | None,
        notes: list[Note],
        owed: list[Owed],
        call: str,
        call_id: str | None,
        changes: Mapping[str, Any] | None,
        line_cap: int,
        cap: int | None,
        fingerprint: str,
        name: str | None = None,
    ) -> Outcome:
        """The failure counted: by the store (``counted``, its answer to ``Store.failed``
        for the failure counted under ``name``), or here."""
        failure, line = self._ledger.failed(
            failure,
            index,
            cap,
            line_cap,
            call,
            changes=changes,
            fingerprint=fingerprint,
            call_id=call_id,
            counted=counted,
            name=name,
        )
        tool = failure.tool
        if name is not None:  # with a store: the error waits there for any worker's success
            error = Waiting(index, name, failure.category.value, fingerprint, line, call_id)
            assert self.store is not None
            owed.append((functools.partial(self.store.wait, self._key, error), None, name))
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
        notes.append(("tool.failed", self.id, tool, call_id, fields, failure, exc))
        if failure.closes:
            closed = {
                "category": failure.category.value,
                "fingerprint": fingerprint,
                "failures": failure.count,
            }
            notes.append(("tool.closed", self.id, tool, call_id, closed, failure, None))
        return Outcome(tool, False, line, failure=failure, attempts=attempts, number=index)


_TRANSIENT = frozenset({"connectivity", "upstream", "rate_limit"})
"""Categories that say the upstream itself is in trouble (its breaker counts them)."""


def _knowing(known: tuple[str, ...], decide: Callable[[Any], Any], answer: Any) -> Any:
    """``decide(answer)`` with the call's secret arguments ``known`` (redacted)."""
    with _known.known(known):
        return decide(answer)


def _owe(plan: Plan, owed: Owed) -> None:
    """A store round trip for ``plan``'s shell to make (and ``notes`` a list, so that the
    shell's one check of ``notes`` finds it)."""
    found = plan.owed
    if found is None:
        found = plan.owed = []
    found.append(owed)
    if plan.notes is None:
        plan.notes = []


def _noted(plan: Plan) -> list[Note]:
    """The list of the events decided about ``plan`` that its shell will emit."""
    notes = plan.notes
    if notes is None:
        notes = plan.notes = []
    return notes


def known_of(plan: Plan) -> tuple[str, ...]:
    """The values of the call's arguments named like secrets, as sent (when a mapping)
    and as validated."""
    return _known.of_arguments(plan.arguments, plan.values)


_KEY_JSON = json.JSONEncoder(sort_keys=True, default=repr).encode
"""``json.dumps(value, sort_keys=True, default=repr)``, with its encoder made once (``dumps``
makes one per call when given options)."""


def _call_key(arguments: Arguments) -> str:
    """A short key of the arguments the model sent: equal for the exact same call."""
    import hashlib  # OpenSSL's bindings: at the first failure, not at import

    source: Any = arguments
    if isinstance(source, (str, bytes)):
        try:
            source = json.loads(source)
        except (ValueError, RecursionError):
            source = arguments
    try:
        text = _KEY_JSON(source)
    except Exception:  # nested past the stack, circular, or a repr() that raises
        text = bounded_repr(source, 65_536)
    return hashlib.blake2b(text.encode("utf-8", "replace"), digest_size=8).hexdigest()


def _unreadable(tool: str, exc: BaseException) -> Failure:
    name = sanitize(short_name(exc), 80)
    return Failure(
        tool=tool,
        category=Category.UNKNOWN,
        retryable=False,
        message=_words.unreadable(name),
        exc_type=name,
    )
