"""Subagents: each run with local retries, its failure coming back as a payload; many
run at once by a coordinator that never lets one failure stop the others.

A subagent shares no history with its coordinator: what it hands back is the whole
bridge. ``run_subagent`` runs one through a one-call ``Session``, so its transient
failures, raised or returned as a payload, are retried locally by the same machinery as
any tool's (tenacity, backoff, ``Retry-After``), and a failure that remains comes back
as ``Failure.to_dict()``: the category, whether a retry can help, the query, what was
salvaged, what to try instead, and how many attempts were made.
A subagent that found nothing returns an empty result: that is an answer, not a
failure, and nothing retries it.

::

    results = await th.gather_subagents([(research, {"topic": "tides"}),
                                          (research, {"topic": "currents"})])
    for r in results:
        print(r.value if r.ok else r.gap)
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolhygiene import _config, _words
from toolhygiene._payload import sent
from toolhygiene._redact import safe_arguments, sanitize
from toolhygiene._session import Session
from toolhygiene._tool import Tool

__all__ = ["SubagentResult", "gather_subagents", "run_subagent"]

Call = tuple[Any, Mapping[str, Any] | None]
"""A subagent (an async function, or a ``Tool``) and its arguments."""


def _as_tool(agent: Any, retries: int, timeout: float | None) -> Tool[Any, Any]:
    return agent if isinstance(agent, Tool) else Tool(agent, retries=retries, timeout=timeout)


async def run_subagent(
    agent: Any,
    arguments: Mapping[str, Any] | None = None,
    *,
    retries: int = 2,
    timeout: float | None = None,
) -> Any:
    """Run one subagent: its result, or its failure payload.

    Args:
        agent: an async function (or a ``@th.tool``, whose own settings then apply); it is
            called with ``arguments`` as keyword arguments, checked against its signature.
        arguments: what the subagent is asked (the query).
        retries: local retries of a transient failure (connectivity, rate limit, 5xx).
        timeout: seconds one attempt may take.

    A failure the subagent raises or returns as a payload (its own loop ended on one) is
    one failed attempt: a transient one is retried locally, within ``retries``.

    Returns:
        What the subagent returned (an empty result included), or, when it failed in a
        way local retries did not cure, ``Failure.to_dict()``: a payload valid by
        ``th.FAILURE_SCHEMA`` with the query (redacted), ``attempts`` (how many times
        the subagent ran) and, when the subagent raised a ``ToolError`` carrying them
        (or returned a payload with them), its partial results and alternatives. A
        coordinator's ``Session`` recognises that payload as a failure of the tool that
        returned it, and does not retry it locally once more when ``attempts`` is above
        1. Never raises for the subagent's own failures.
    """
    _, value = await _run(_as_tool(agent, retries, timeout), dict(arguments or {}))
    return value


async def _run(tool: Tool[Any, Any], arguments: dict[str, Any]) -> tuple[bool, Any]:
    """Whether the subagent answered, and its answer or its failure payload."""
    async with Session([tool]) as session:
        outcome = await session.acall(tool.name, arguments)
    if outcome.failure is None:
        return True, outcome.value
    return False, sent(outcome.failure, outcome.attempts)


@dataclass(frozen=True, slots=True)
class SubagentResult:
    """One subagent's part of a coordinated run.

    ``value`` is what it returned when it succeeded; ``failure`` its failure payload
    (``Failure.to_dict()``) when it did not. ``gap`` says, in one line, which query is
    missing, what was salvaged and what to try.
    """

    name: str
    arguments: Mapping[str, Any]
    value: Any = None
    failure: Mapping[str, Any] | None = field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        """Whether the subagent answered (an empty answer is an answer)."""
        return self.failure is None

    @property
    def salvaged(self) -> Any:
        """The partial results of a failed subagent (redacted), else ``None``."""
        return None if self.failure is None else self.failure.get("partial_results")

    @property
    def alternatives(self) -> tuple[str, ...]:
        """What the failed subagent named to try instead."""
        return () if self.failure is None else tuple(self.failure.get("alternatives", ()))

    @property
    def gap(self) -> str:
        """One line for the coordinator: ``""`` when the subagent answered.

        It says which query is missing, what failed, what to try (the alternatives) and
        what was salvaged, in at most the line cap: a long account is cut before the
        alternatives and the salvage lose their room. Every part (the query, the
        account, the alternatives, what was salvaged) is redacted, neutralised and
        folded, whoever wrote the payload. The query is the payload's
        ``attempted_query``, else the arguments it was given.
        """
        if self.failure is None:
            return ""
        cap = _config.line_cap()
        attempted = self.failure.get("attempted_query")
        if isinstance(attempted, Mapping) and isinstance(attempted.get("arguments"), Mapping):
            query: Any = attempted["arguments"]
        elif isinstance(attempted, str) and attempted:
            query = attempted
        else:
            query = safe_arguments(self.arguments, cap)
        shown_query = query if isinstance(query, str) else _json(query)
        said = self.failure.get("message") or self.failure.get("reason") or _words.UNSAID
        return _words.gap_line(
            sanitize(self.name, 64) or "subagent",
            sanitize(shown_query, cap // 4, internals=False),
            sanitize(str(said).removeprefix(_words.ERROR_MARK), cap),
            [t for t in (sanitize(str(a), cap // 2) for a in self.alternatives) if t],
            None if self.salvaged is None else sanitize(_json(self.salvaged), cap),
            cap=cap,
        )


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=repr)


async def gather_subagents(
    calls: Iterable[Call],
    *,
    retries: int = 2,
    timeout: float | None = None,
) -> list[SubagentResult]:
    """Run several subagents at once; one failing never stops the others.

    A subagent raising a ``BaseException`` that is not an ``Exception`` (not a failure:
    KeyboardInterrupt, SystemExit, a signal of its own) is not caught: once every
    subagent has ended it is raised, with the others' results on it as
    ``subagent_results`` (one per call, in order; ``None`` where one raised such).

    Args:
        calls: ``(agent, arguments)`` pairs, as for ``run_subagent``.
        retries: local retries of a transient failure, for agents that are not tools.
        timeout: seconds one attempt may take, for agents that are not tools.

    Returns:
        One ``SubagentResult`` per call, in the order given: answers, and failures as
        gaps (which query, what was salvaged, what to try).
    """
    import asyncio  # with async code only: ``import toolhygiene`` does not load it

    planned = [(_as_tool(agent, retries, timeout), dict(args or {})) for agent, args in calls]
    # A subagent that raises CancelledError itself (it cancelled a task of its own and
    # awaited it) ends as a cancelled task: with ``return_exceptions`` that is its
    # result alone. A cancellation of the coordinator still raises here: ``gather``
    # cancels every subagent and raises CancelledError once they have stopped.
    done = await asyncio.gather(
        *(_run(tool, args) for tool, args in planned), return_exceptions=True
    )
    results: list[SubagentResult | None] = []
    escaped: BaseException | None = None
    for (tool, args), ran in zip(planned, done, strict=True):
        if isinstance(ran, asyncio.CancelledError):
            ok, value = False, _cancelled(tool, args, ran)
        elif isinstance(ran, BaseException):  # not an Exception: the Session keeps those
            escaped = escaped or ran
            results.append(None)
            continue
        else:
            ok, value = ran
        results.append(
            SubagentResult(tool.name, args, value, None)
            if ok
            else SubagentResult(tool.name, args, None, value)
        )
    if escaped is not None:
        # A BaseException that is not an Exception (KeyboardInterrupt, SystemExit, a
        # control-flow signal of the agent's own) is never caught: it is raised once every
        # subagent has ended, with the others' results kept on it, in order (None where a
        # subagent raised one), as ``subagent_results``.
        with contextlib.suppress(AttributeError, TypeError):  # a class with __slots__
            escaped.subagent_results = results  # type: ignore[attr-defined]
        raise escaped
    return [r for r in results if r is not None]


def _cancelled(tool: Tool[Any, Any], arguments: dict[str, Any], exc: BaseException) -> Any:
    """The payload of a subagent that was cancelled (by itself, not by its coordinator):
    it gave no answer, and whether what it was doing took effect is not known when it is
    not idempotent. Its traceback goes to the log."""
    from toolhygiene._errors import Category, Failure
    from toolhygiene._log import stdlib_logger, traceback_text

    stdlib_logger.warning("subagent.cancelled %s: %s", tool.name, traceback_text(exc))
    cap = _config.line_cap()
    return Failure(
        tool=tool.name,
        category=Category.UNKNOWN,
        retryable=False,
        uncertain=not tool.idempotent,
        message=_words.cancelled(tool.name),
        attempted=safe_arguments(arguments, cap),
        exc_type="asyncio.CancelledError",
    ).to_dict()
