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

Runs on workers and in own tasks are also counted while in flight, from their start to
their real end (a run given up on counts until it returns by itself): a call is refused
when ``max_running`` runs of its tool, or ``SESSION_RUNS x max_running`` runs of the
session, are in flight. So a session never holds more than that many worker threads,
however many calls are gathered and however long they hang.
"""

from __future__ import annotations

import contextvars
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from toolhygiene import _config, _words
from toolhygiene._errors import Category, ToolError
from toolhygiene._reading import type_name
from toolhygiene._text import valid
from toolhygiene._tool import Tool
from toolhygiene._workers import workers

if TYPE_CHECKING:  # imported by async code and async tools, not with toolhygiene
    import asyncio
    import concurrent.futures

    from toolhygiene._call import Plan

__all__ = [
    "GRACE",
    "SESSION_RUNS",
    "AttemptTimeoutError",
    "Runs",
    "StillRunningError",
    "count_down",
    "loop_running",
    "pause",
    "pause_async",
    "result_text",
    "run_async",
    "run_sync",
]

GRACE = 0.1
"""Seconds a cancelled async tool has to finish before it counts as still running."""
SESSION_RUNS = 4
"""A session's runs in flight at once, at most: this many times ``max_running``."""


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
    """A call refused, never started, because earlier runs are still going: ``reason``
    ``"stuck"`` (runs its callers gave up on), ``"tool"`` or ``"session"`` (the runs in
    flight of the tool or of the session are at their bound); ``going`` how many."""

    def __init__(self, tool: Tool[Any, Any], going: int, reason: str = "stuck") -> None:
        what, instead = _words.still_running(
            tool.name, going, idempotent=tool.idempotent, reason=reason
        )
        super().__init__(what, retryable=True, category=Category.UPSTREAM, instead=instead)
        self.going, self.reason = going, reason


class Runs:
    """Runs of one session's tools: those in flight on workers or in own tasks, and
    those still going after their caller gave up."""

    def __init__(self, *, max_stuck: int, max_running: int, log: Any) -> None:
        self.max_stuck = max_stuck
        self.max_running = max_running
        self.log = log
        self.going: dict[str, int] = {}
        self.running: dict[str, int] = {}
        self.total = 0
        self._lock = threading.Lock()

    def refusal(self, tool: Tool[Any, Any]) -> StillRunningError | None:
        """Why ``tool`` may not start now, or ``None``."""
        going = self.going.get(tool.name, 0)
        if going and (not tool.idempotent or going >= self.max_stuck):
            return StillRunningError(tool, going)
        return None

    def admit(self, tool: Tool[Any, Any]) -> None:
        """Raise ``StillRunningError`` when ``tool`` may not start now."""
        refused = self.refusal(tool)
        if refused is not None:
            raise refused

    def hold(self, tool: Tool[Any, Any]) -> None:
        """``admit``, and count a run in flight until ``release``; refused when the
        tool's or the session's runs in flight are at their bound."""
        with self._lock:
            self.admit(tool)
            running = self.running.get(tool.name, 0)
            if running >= self.max_running:
                raise StillRunningError(tool, running, "tool")
            if self.total >= SESSION_RUNS * self.max_running:
                raise StillRunningError(tool, self.total, "session")
            self.running[tool.name] = running + 1
            self.total += 1

    def release(self, tool: str) -> None:
        """A run counted by ``hold`` has ended (or never started)."""
        with self._lock:
            count_down(self.running, tool)
            self.total -= 1

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


def result_text(tool: Tool[Any, Any], render: Callable[..., str], *args: Any) -> str:
    """``render(*args)``: the text the model sees for ``tool``'s return value, made valid
    UTF-8.

    Raises:
        ToolError: the value cannot be made text (circular, nested past the stack, a
            ``default`` or ``model_dump_json`` that raises); the tool did run.
    """
    try:
        return valid(render(*args))
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

    runs.hold(tool)
    task = asyncio.ensure_future(tool.invoke(values))
    task.add_done_callback(_retrieve)
    task.add_done_callback(lambda _task: runs.release(tool.name))
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


def _on_worker(
    tool: Tool[Any, Any], values: dict[str, Any], runs: Runs
) -> concurrent.futures.Future[Any]:
    """Start ``tool`` on a worker, counted in flight until it ends (or is cancelled)."""
    runs.hold(tool)
    # In a copy of this context: the tool's own spans are children of the call's span.
    future = workers.submit(contextvars.copy_context().run, tool.invoke, values)
    future.add_done_callback(lambda _future: runs.release(tool.name))
    return future


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
    import concurrent.futures  # imported by _workers for this future already

    future = _on_worker(tool, values, runs)
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

    future = _on_worker(tool, values, runs)
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


def pause(plan: Plan, seconds: float) -> None:
    """The wait before a local retry; under ``testing.instant_retries`` none, and the
    retry budget counts the wait as if it had passed (``Plan.skipped``)."""
    if _config.settings.instant_retries:
        plan.skipped += seconds
    else:
        time.sleep(seconds)


async def pause_async(plan: Plan, seconds: float) -> None:
    """``pause`` for async code."""
    if _config.settings.instant_retries:
        plan.skipped += seconds
    else:
        import asyncio

        await asyncio.sleep(seconds)
