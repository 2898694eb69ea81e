"""toolhygiene: what a failing tool puts into a model's context, made short, true, safe
and actionable; retry caps as counters in code; stale errors cleared once the agent
recovers.

::

    import toolhygiene as th

    @th.tool(max_failures=2)
    def get_order(order_id: str) -> dict:
        \"\"\"Fetch one order by its id.\"\"\"
        ...

    session = th.Session([get_order])
    outcome = session.call("get_order", {"order_id": "ORD-1"})
    outcome.content   # exactly what the model sees
"""

import typing

from toolhygiene._classify import classify, summarize
from toolhygiene._config import Settings, configure
from toolhygiene._errors import FAILURE_SCHEMA, Category, CoarseClass, Empty, Failure, ToolError
from toolhygiene._exceptions import StoreError, UsageError
from toolhygiene._frames import user_frame
from toolhygiene._loop import Step
from toolhygiene._observe import Call as HookCall
from toolhygiene._observe import Event as HookEvent
from toolhygiene._observe import Hooks, add_hooks
from toolhygiene._redact import redact, sanitize
from toolhygiene._registry import add_redaction, clear_redactions, never_redact
from toolhygiene._report import Ranked, rank
from toolhygiene._rules import Rule, add_rule, clear_rules
from toolhygiene._session import Outcome, Session
from toolhygiene._stores import MemoryStore, RedisStore, Store
from toolhygiene._subagents import SubagentResult, gather_subagents, run_subagent
from toolhygiene._tool import Tool, tool

__all__ = [
    "Category",
    "CoarseClass",
    "Empty",
    "FAILURE_SCHEMA",
    "Failure",
    "HookCall",
    "HookEvent",
    "Hooks",
    "MemoryStore",
    "Outcome",
    "Ranked",
    "RedisStore",
    "Rule",
    "Session",
    "Settings",
    "Step",
    "Store",
    "StoreError",
    "SubagentResult",
    "Tool",
    "ToolError",
    "UsageError",
    "add_hooks",
    "add_redaction",
    "add_rule",
    "classify",
    "clear_redactions",
    "clear_rules",
    "configure",
    "gather_subagents",
    "never_redact",
    "rank",
    "redact",
    "run_subagent",
    "sanitize",
    "summarize",
    "testing",
    "tool",
    "user_frame",
]

__version__ = "0.1.0.dev0"
"""The one place the version is written; the build reads it from here."""

if typing.TYPE_CHECKING:
    from toolhygiene import testing


def __getattr__(name: str) -> object:
    """``th.testing`` is imported at first use: it brings an HTTP server that a program
    which is not a test never needs."""
    if name == "testing":
        import toolhygiene.testing

        return toolhygiene.testing
    raise AttributeError(f"module 'toolhygiene' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), "testing"})
