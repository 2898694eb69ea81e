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
    "tool",
    "user_frame",
]

__version__ = "0.1.0.dev0"
"""The one place the version is written; the build reads it from here."""

if typing.TYPE_CHECKING:
    from toolhygiene import formats as formats  # names of th, not of __all__
    from toolhygiene import testing as testing
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


def _public_names() -> tuple[typing.Callable[[str], object], typing.Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` of the package, with the table they read kept in
    their closure: no helper of ``__init__`` is an attribute of ``th``.

    Every public name is imported at its first use (PEP 562), as the field does for a
    package most programs use a part of: ``import toolhygiene`` loads no module of its
    own, and ``th.Session`` brings the modules a Session needs, not the subagents' or the
    stores'."""
    import importlib

    # The name, the private module that defines it, and its name there.
    where: dict[str, tuple[str, str]] = {
        "Category": ("_errors", "Category"),
        "CoarseClass": ("_errors", "CoarseClass"),
        "Empty": ("_errors", "Empty"),
        "FAILURE_SCHEMA": ("_errors", "FAILURE_SCHEMA"),
        "Failure": ("_errors", "Failure"),
        "formats": ("formats", ""),
        "HookCall": ("_observe", "Call"),
        "HookEvent": ("_observe", "Event"),
        "Hooks": ("_observe", "Hooks"),
        "MemoryStore": ("_stores", "MemoryStore"),
        "Outcome": ("_session", "Outcome"),
        "Ranked": ("_report", "Ranked"),
        "RedisStore": ("_stores", "RedisStore"),
        "Rule": ("_rules", "Rule"),
        "Session": ("_session", "Session"),
        "Settings": ("_config", "Settings"),
        "Step": ("_loop", "Step"),
        "Store": ("_stores", "Store"),
        "StoreError": ("_exceptions", "StoreError"),
        "SubagentResult": ("_subagents", "SubagentResult"),
        "Tool": ("_tool", "Tool"),
        "ToolError": ("_errors", "ToolError"),
        "UsageError": ("_exceptions", "UsageError"),
        "add_hooks": ("_observe", "add_hooks"),
        "add_redaction": ("_registry", "add_redaction"),
        "add_rule": ("_rules", "add_rule"),
        "classify": ("_classify", "classify"),
        "clear_redactions": ("_registry", "clear_redactions"),
        "clear_rules": ("_rules", "clear_rules"),
        "configure": ("_config", "configure"),
        "gather_subagents": ("_subagents", "gather_subagents"),
        "never_redact": ("_registry", "never_redact"),
        "rank": ("_report", "rank"),
        "redact": ("_redact", "redact"),
        "run_subagent": ("_subagents", "run_subagent"),
        "sanitize": ("_redact", "sanitize"),
        "summarize": ("_classify", "summarize"),
        "testing": ("testing", ""),
        "tool": ("_tool", "tool"),
        "user_frame": ("_frames", "user_frame"),
    }
    submodules = frozenset({"cli", "formats", "integrations", "mcp", "testing"})
    """The public submodules: names of ``th`` once imported (``testing`` and ``formats``,
    which need no extra, at first use too)."""
    module = globals()

    def attribute(name: str) -> object:
        """A public name, imported at its first use and kept, so that the next use is a
        plain attribute. ``th.testing`` brings an HTTP server that a program which is not
        a test never needs."""
        try:
            defined_in, attribute = where[name]
        except KeyError:
            raise AttributeError(f"module 'toolhygiene' has no attribute {name!r}") from None
        found = importlib.import_module(f"toolhygiene.{defined_in}")
        value = getattr(found, attribute) if attribute else found
        module[name] = value
        return value

    def names() -> list[str]:
        """``__all__``, ``testing`` and ``formats``, the public submodules imported and the
        dunders.
        ``testing`` is a name here but not in ``__all__``: ``from toolhygiene import *``
        must not load its HTTP server."""
        shown = (n for n in module if n.startswith("__") or n in submodules)
        return sorted({*__all__, "formats", "testing", *shown})

    return attribute, names


if not typing.TYPE_CHECKING:  # unseen by type checkers: ``th.Sesion`` stays an error
    __getattr__, __dir__ = _public_names()
del _public_names, typing
