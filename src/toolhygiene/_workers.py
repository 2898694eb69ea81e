"""toolhygiene's own worker threads: daemon threads, reused while idle, never queued.

Sync tools that need a thread (a timeout, or ``acall``) run here, never in asyncio's
default executor or any pool the application shares. A job never waits for another:
when no worker is idle a new one starts, so a hung tool cannot delay any other. The
workers are daemon threads: a function still running when the interpreter exits (or when
``asyncio.run`` shuts down) does not hold it up. A ``concurrent.futures.ThreadPoolExecutor``
would: it joins its threads at exit.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import concurrent.futures

__all__ = ["IDLE_SECONDS", "MAX_IDLE", "Workers", "workers"]

IDLE_SECONDS = 30.0
"""How long an idle worker waits for a job before it ends."""
MAX_IDLE = 16
"""Idle workers kept at most; more end as soon as their job is done."""

_Job = tuple["concurrent.futures.Future[Any]", Callable[..., Any], tuple[Any, ...]]


class Workers:
    """Daemon threads that run one job each at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._idle = 0
        self.started = 0

    def submit(self, fn: Callable[..., Any], *args: Any) -> concurrent.futures.Future[Any]:
        """Run ``fn(*args)`` on a worker at once; cancelling the future before a worker
        took it means it never runs."""
        import concurrent.futures  # here: most programs never need a worker

        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        job = (future, fn, args)
        with self._lock:
            if self._idle:
                self._idle -= 1
                self._jobs.put(job)
                return future
            self.started += 1
        threading.Thread(
            target=self._work, args=(job,), name="toolhygiene-worker", daemon=True
        ).start()
        return future

    def _work(self, job: _Job | None) -> None:
        while job is not None:
            future, fn, args = job
            del job
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(*args))
                except Exception as exc:
                    future.set_exception(exc)
                finally:
                    if not future.done():
                        # KeyboardInterrupt or SystemExit is leaving this thread: the
                        # waiter gets it too, and raises it where it is.
                        future.set_exception(sys.exc_info()[1])
            del future, fn, args
            job = self._next()

    def _next(self) -> _Job | None:
        with self._lock:
            if self._idle >= MAX_IDLE:
                return None
            self._idle += 1
        try:
            return self._jobs.get(timeout=IDLE_SECONDS)
        except queue.Empty:
            with self._lock:
                try:
                    return self._jobs.get_nowait()  # handed over as the wait ended
                except queue.Empty:
                    self._idle -= 1
                    return None


workers = Workers()
"""The process's workers, shared by every session."""
