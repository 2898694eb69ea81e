"""Running one attempt of a tool, sync or async, with its timeout.

Async tools are cancelled at the deadline. Sync tools with a timeout run in a worker
thread and the call returns at the deadline; Python cannot stop a thread, so the function
runs on until it returns by itself.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
from typing import Any

from toolhygiene.tool import Tool

__all__ = ["loop_running", "run_async", "run_sync", "timed_out", "with_timeout"]


def loop_running() -> bool:
    """Whether this thread is inside a running event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def timed_out(tool: Tool[Any, Any]) -> TimeoutError:
    """The error of an attempt that passed the tool's deadline."""
    return TimeoutError(f"{tool.name} did not finish within {tool.timeout:g} s")


async def with_timeout(awaitable: Any, tool: Tool[Any, Any]) -> Any:
    """Await ``awaitable``, cancelled at the tool's deadline."""
    if tool.timeout is None:
        return await awaitable
    task = asyncio.ensure_future(awaitable)
    done, _ = await asyncio.wait({task}, timeout=tool.timeout)
    if not done:
        task.cancel()
        raise timed_out(tool)
    return task.result()


def run_sync(
    tool: Tool[Any, Any], values: dict[str, Any], pool: concurrent.futures.Executor | None
) -> Any:
    """One attempt from sync code; ``pool`` runs sync tools that have a timeout."""
    if tool.is_async:
        return asyncio.run(with_timeout(tool.invoke(values), tool))
    if tool.timeout is None or pool is None:
        return tool.invoke(values)
    # In a copy of this context: the tool's own spans are children of the call's span.
    future = pool.submit(contextvars.copy_context().run, tool.invoke, values)
    try:
        return future.result(timeout=tool.timeout)
    except concurrent.futures.TimeoutError:
        if not future.done():
            raise timed_out(tool) from None
        raise


async def run_async(tool: Tool[Any, Any], values: dict[str, Any]) -> Any:
    """One attempt from async code; sync tools run in a worker thread, off the loop."""
    if tool.is_async:
        return await with_timeout(tool.invoke(values), tool)
    return await with_timeout(asyncio.to_thread(tool.invoke, values), tool)
