"""The exceptions toolhygiene itself raises.

::

    Exception
     ├── ToolError    a tool's own account of a failure; shown to the model (errors.py)
     ├── UsageError   a mistake of the developer using toolhygiene; never shown to the model
     └── StoreError  the shared store (Redis) cannot be reached and is set to fail
                           closed; raised at the developer, never shown to the model

A tool raises ``ToolError``; toolhygiene raises ``UsageError`` at the developer (bad
configuration, duplicate tool names, an unknown format). Everything else a tool raises is
classified by ``classify()``. ``BaseException``s that are not ``Exception``s
(``KeyboardInterrupt``, ``SystemExit``, ``asyncio.CancelledError``) are never caught.
"""

from __future__ import annotations

__all__ = ["StoreError", "UsageError"]


class UsageError(Exception):
    """The developer used toolhygiene wrongly; the message says how to fix it."""


class StoreError(Exception):
    """The shared store failed before a call ran and was set to fail closed
    (``RedisStore(on_error="closed")``): that call did not run, nor will any until the
    store is back. A store failing after a call ran never raises this: the call's outcome
    is returned, with a ``store.unavailable`` warning event (``call_ran=True``)."""
