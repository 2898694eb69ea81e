"""One tool call as records: ``Plan``, the call in flight, ``Outcome``, the call as the
model sees it, and ``Note``, an event the core decided and its shell emits. Below the
core (``_core``) and the agent loop (``_loop``), which both read them, so that neither
imports the other."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from toolhygiene._answers import Gate
    from toolhygiene._errors import Failure
    from toolhygiene._tool import Tool

__all__ = ["Arguments", "Claim", "Note", "Outcome", "Owed", "Plan", "Refused"]

Arguments = Mapping[str, Any] | str | bytes | None
"""What the model sent as a call's arguments: a dict, or the JSON text of one."""


@dataclass(slots=True)
class Plan:
    """One call in flight: the tool, its validated values, what the model sent, its
    number in the session, when it began (the retry budget runs from there), the
    seconds of waits that instant retries skipped (counted in the budget as if
    waited), and whether it probes an open upstream (one attempt: no local retries).

    ``gate``: what the breaker of the tool's upstream said when it was not free (the
    answer the call owes it); ``notes``: the events decided about the call that its
    shell has not emitted yet (``None``: none, the usual case); ``owed``: the store
    round trips decided about the call that its shell has not made yet (``None``: none;
    whenever there are some, ``notes`` is a list too, so one check finds both)."""

    tool: Tool[Any, Any]
    values: dict[str, Any]
    arguments: Arguments
    index: int
    call_id: str | None = None
    began: float = 0.0
    skipped: float = 0.0
    probe: bool = False
    gate: Gate | None = None
    notes: list[Note] | None = None
    owed: list[Owed] | None = None


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


Note = tuple[
    str,
    str,
    "str | None",
    "str | None",
    Mapping[str, Any],
    "Failure | None",
    "BaseException | None",
]
"""An event the core decided (``tool.failed``, ``tool.refused``, ``error.recovered``...),
for its shell to emit: the arguments of its ``Event`` (name, session id, tool, call id,
fields, failure, exception). A plain tuple: one is made at every failure."""


Owed = tuple[
    Callable[[], Any],
    "Callable[[Any], Outcome | None] | None",
    "str | None",
]
"""A store round trip the core decided, made by its shell after the call ran: the
question (a store's method with its arguments bound: the core never calls it), the
core's decision on the answer (or ``None``: no answer awaited), and the tool it is about.
A store failing then (``StoreError``) is warned of by the shell, and the decision gets
``None``. A decision may return the call's ``Outcome``, which replaces the one the
shell holds (a failure's line waits for the store's count)."""


class Refused(NamedTuple):
    """A call refused before it ran (``Core._begin``): what the model sees, the events
    the shell emits, and the store round trips it makes first (``owed``; ``None``: none)."""

    outcome: Outcome
    notes: list[Note]
    owed: list[Owed] | None = None


class Claim(NamedTuple):
    """A call that probes an open upstream (``Core._begin``): before it runs, its shell
    claims the probe (``Store.admit(upstream, hold)``) and the core decides on the
    answer (``Core._claimed``)."""

    plan: Plan
    upstream: str
    hold: float
