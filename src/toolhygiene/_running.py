"""Running one attempt of a tool, sync or async, with its timeout; runs still going.

- An async tool without a timeout is awaited in the caller's task: cancelling the
  caller cancels it.
- An async tool with a timeout runs in its own task. At the deadline, or as soon as the
  caller is cancelled, that task is cancelled; a task that has not finished ``GRACE``
  seconds after that is *still running*.
- A sync tool that needs a thread (a timeout in ``call``, always in ``acall``) runs on
  toolhygiene's own daemon workers (``_workers``), never in asyncio's default executor.
  At the deadline the call returns; Python cannot stop a thread, so the function runs on
  until it returns by itself, and is *still running* until then. It never delays
  interpreter exit. An attempt whose worker had not started it by the deadline is
  cancelled and never runs.

A run still going is counted per tool (``Runs``), and nothing starts it again: no local
retry follows it, a tool that is not idempotent is refused while its last run is still
going, and any tool is refused once ``max_stuck`` of its runs are.
"""

from __future__ import annotations

import contextvars
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolhygiene import _words
from toolhygiene._reading import type_name
from toolhygiene._text import valid
from toolhygiene._workers import workers
from toolhygiene.errors import Category, Failure, ToolError
from toolhygiene.tool import Tool

if TYPE_CHECKING:  # imported by async code and async tools, not with toolhygiene
    import asyncio
    import concurrent.futures

__all__ = [
    "GRACE",
    "AttemptTimeoutError",
    "Plan",
    "Runs",
    "StillRunningError",
    "count_down",
    "loop_running",
    "result_text",
    "run_async",
    "run_sync",
]

GRACE = 0.1
"""Seconds a cancelled async tool has to finish before it counts as still running."""


@dataclass(slots=True)
class Plan:
    """One call in flight: the tool, its validated values, what the model sent, its
    number in the session, when it began (the retry budget runs from there), and the
    last exception classified (with its verdict)."""

    tool: Tool[Any, Any]
    values: dict[str, Any]
    arguments: Mapping[str, Any] | str | bytes | None
    index: int
    call_id: str | None = None
    seen: tuple[BaseException, Failure] | None = None
    began: float = field(default_factory=time.monotonic)


class AttemptTimeoutError(TimeoutError):
    """An attempt passed its deadline. ``started``: a worker had begun running it;
    ``still_running``: it has not stopped, and may yet take effect."""

    def __init__(self, tool: str, seconds: float, *, started: bool, still_running: bool) -> None:
        self.tool, self.seconds = tool, seconds
        self.started, self.still_running = started, still_running
        super().__init__(
            _words.timed_out(tool, seconds, started=started, still_running=still_running)
        )


class StillRunningError(ToolError):
    """A call refused because earlier runs of the tool are still going."""

    def __init__(self, tool: Tool[Any, Any], going: int) -> None:
        what, instead = _words.still_running(tool.name, going, idempotent=tool.idempotent)
        super().__init__(what, retryable=True, category=Category.UPSTREAM, instead=instead)
        self.going = going


class Runs:
    """Runs of one session's tools that are still going after their caller gave up."""

    def __init__(self, *, max_stuck: int, log: Any) -> None:
        self.max_stuck = max_stuck
        self.log = log
        self.going: dict[str, int] = {}
        self._lock = threading.Lock()

    def admit(self, tool: Tool[Any, Any]) -> None:
        """Raise ``StillRunningError`` when ``tool`` may not start now."""
        going = self.going.get(tool.name, 0)
        if going and (not tool.idempotent or going >= self.max_stuck):
            raise StillRunningError(tool, going)

    def abandon(self, tool: str, run: concurrent.futures.Future[Any] | asyncio.Future[Any]) -> None:
        """Count ``run`` as still going until it finishes."""
        with self._lock:
            self.going[tool] = going = self.going.get(tool, 0) + 1
        self.log.warning("tool.still_running", tool=tool, going=going)
        run.add_done_callback(lambda _run: self._finished(tool))

    def _finished(self, tool: str) -> None:
        with self._lock:
            going = count_down(self.going, tool)
        self.log.info("tool.finished_late", tool=tool, going=going)


def count_down(counts: dict[str, int], key: str) -> int:
    """One less of ``key``; a key that reaches zero goes, so the dict holds only what is
    going on. Returns what is left."""
    left = counts[key] - 1
    if left:
        counts[key] = left
    else:
        del counts[key]
    return left


def result_text(render: Callable[[], str], tool: Tool[Any, Any]) -> str:
    """``render()``: the text the model sees for a tool's return value, made valid UTF-8.

    Raises:
        ToolError: the value cannot be made text (circular, nested past the stack, a
            ``default`` or ``model_dump_json`` that raises); the tool did run.
    """
    try:
        return valid(render())
    except ToolError:
        raise  # the renderer's own account of a value with no faithful JSON form
    except Exception as exc:
        what, instead = _words.unrenderable(tool.name, type_name(exc))
        raise ToolError(what, retryable=False, category=Category.UNKNOWN, instead=instead) from exc


def loop_running() -> bool:
    """Whether this thread is inside a running event loop (none can run before asyncio is
    imported: a sync program never imports it)."""
    asyncio = sys.modules.get("asyncio")
    if asyncio is None:
        return False
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _retrieve(task: asyncio.Future[Any]) -> None:
    # Nobody may await a task given up on: its exception is read here, so asyncio never
    # reports it as never retrieved (KeyboardInterrupt in a tool with a timeout).
    if not task.cancelled():
        task.exception()


async def _in_task(tool: Tool[Any, Any], values: dict[str, Any], timeout: float, runs: Runs) -> Any:
    import asyncio

    task = asyncio.ensure_future(tool.invoke(values))
    task.add_done_callback(_retrieve)
    try:
        done, _ = await asyncio.wait({task}, timeout=timeout)
        if not done:
            task.cancel()
            await asyncio.wait({task}, timeout=GRACE)
    finally:
        if not task.done():  # the caller was cancelled, or the tool ignores cancelling
            task.cancel()
            runs.abandon(tool.name, task)
    if done:
        return task.result()
    still = not task.done()
    if not still and not task.cancelled() and task.exception() is None:
        return task.result()  # it finished after all, in the grace period
    cause = None if still or task.cancelled() else task.exception()
    raise AttemptTimeoutError(tool.name, timeout, started=True, still_running=still) from cause


def _given_up(
    tool: Tool[Any, Any], future: concurrent.futures.Future[Any], runs: Runs
) -> tuple[bool, bool]:
    """The waiter stops waiting for ``future``: (started, still running)."""
    if future.done():
        return True, False
    if future.cancel():
        return False, False  # no worker had taken it: it never runs
    runs.abandon(tool.name, future)
    return True, True


def run_sync(
    tool: Tool[Any, Any], values: dict[str, Any], timeout: float | None, runs: Runs
) -> Any:
    """One attempt from sync code, within ``timeout`` seconds when given."""
    runs.admit(tool)
    if tool.is_async:
        import asyncio

        if timeout is None:
            return asyncio.run(tool.invoke(values))
        return asyncio.run(_in_task(tool, values, timeout, runs))
    if timeout is None:
        return tool.invoke(values)
    # In a copy of this context: the tool's own spans are children of the call's span.
    import concurrent.futures  # imported by _workers for this future already

    future = workers.submit(contextvars.copy_context().run, tool.invoke, values)
    finished, started, still = False, True, False
    try:
        finished = bool(concurrent.futures.wait((future,), timeout=timeout).done)
    finally:
        if not finished:
            started, still = _given_up(tool, future, runs)
    if finished:
        return future.result()
    if not still and started:
        return future.result()  # it finished just as the wait ended
    raise AttemptTimeoutError(tool.name, timeout, started=started, still_running=still)


async def run_async(
    tool: Tool[Any, Any], values: dict[str, Any], timeout: float | None, runs: Runs
) -> Any:
    """One attempt from async code; sync tools run on a worker thread, off the loop."""
    runs.admit(tool)
    if tool.is_async:
        if timeout is None:
            return await tool.invoke(values)
        return await _in_task(tool, values, timeout, runs)
    import asyncio

    future = workers.submit(contextvars.copy_context().run, tool.invoke, values)
    waiting = asyncio.wrap_future(future)
    done: set[Any] = set()
    started, still = True, False
    try:
        done, _ = await asyncio.wait({waiting}, timeout=timeout)
    finally:
        if not done:
            waiting.cancel()  # its result, when it comes, goes nowhere
            started, still = _given_up(tool, future, runs)
    if done:
        return waiting.result()
    if not still and started:
        return future.result()
    raise AttemptTimeoutError(tool.name, timeout or 0.0, started=started, still_running=still)
