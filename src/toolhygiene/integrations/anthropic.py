"""Tools for the Anthropic SDK's tool runner (``client.beta.messages.tool_runner``).

The runner sends ``repr(exc)`` for an exception a tool raises, and a ``ToolError``'s
content as it is, with ``is_error``. Each tool built here runs through the Session and
raises the SDK's ``ToolError`` with the line when the call failed, so the model reads the
line with ``is_error: true``; a closed tool answers its notice without running. The
runner keeps the conversation (on the server, in a message thread, by default): it holds
the history, so nothing there is cleared.

Errors meant for you, not the model (``UsageError``: a closed Session, a misused one;
``StoreError``: the store failing closed) never reach the model. A closed Session is
refused before any request: the runner reads each tool's definition (``to_dict()``) to
build a request, outside its handling of tool errors, and that raises the ``UsageError``
itself. Inside a call there is no such way out: the runner's ``_run_tool`` catches every
``Exception`` a tool raises and sends its ``repr`` to the model, and has no exception it
lets through. So an error meant for you that arises during a call (the Session closed
while the run went on, the store failing closed) leaves the runner as
``RunnerUsageError``, a ``BaseException`` (as ``asyncio.CancelledError`` and pytest's
outcomes are, to pass handlers of ``Exception``) carrying it as ``error`` and
``__cause__``. Catch it by name: ``except (Exception, RunnerUsageError)``.

::

    from toolhygiene.integrations.anthropic import runner_tools

    with th.Session([get_weather]) as session:
        runner = client.beta.messages.tool_runner(
            model=MODEL, max_tokens=1024, messages=messages, tools=runner_tools(session)
        )
        final = runner.until_done()
"""

from __future__ import annotations

from typing import Any, cast

from anthropic.lib.tools import (
    BetaAsyncBuiltinFunctionTool,
    BetaBuiltinFunctionTool,
    ToolError,
)
from anthropic.types.beta import BetaToolUnionParam

from toolhygiene import _surface
from toolhygiene._exceptions import StoreError, UsageError
from toolhygiene._session import Outcome, Session

__all__ = [
    "AsyncRunnerTool",
    "RunnerTool",
    "RunnerUsageError",
    "async_runner_tools",
    "runner_tools",
]


class RunnerUsageError(BaseException):
    """An error meant for you (``UsageError``, or ``StoreError``), carried out of the runner
    past its ``except Exception``, which would send it to the model.

    A ``BaseException``: the runner catches every ``Exception`` a tool raises and has no
    other way out for one. ``error`` is the carried error (also ``__cause__``); its
    message says what to fix. Catch it by name: ``except (Exception, RunnerUsageError)``.
    """

    def __init__(self, error: UsageError | StoreError) -> None:
        super().__init__(str(error))
        self.error = error


def _answer(outcome: Outcome) -> str:
    if not outcome.ok:
        raise ToolError(outcome.content)
    return outcome.content


class _SessionTool:
    """What both runners' tools share: the Session, the tool's name, its definition."""

    def __init__(self, session: Session, name: str) -> None:
        self.session = session
        self.tool_name = name

    def to_dict(self) -> BetaToolUnionParam:
        """The tool's definition; ``UsageError`` when the Session is closed: the runner
        reads it to build each request, where an ``Exception`` reaches you (and no
        request goes out)."""
        if self.session.is_closed:
            raise UsageError(
                "this Session is closed: make a new Session (and its runner_tools) for a "
                "new conversation"
            )
        definition: Any = self.session.tools[self.tool_name].schema("anthropic")
        return definition  # type: ignore[no-any-return]


class RunnerTool(_SessionTool, BetaBuiltinFunctionTool):
    """One Session tool as a tool of the sync runner."""

    def call(self, input: object) -> str:  # noqa: A002 - the SDK's name
        """Run the call through the Session: the result, or ``ToolError`` with the line."""
        try:
            outcome = self.session.call(self.tool_name, cast(Any, input))
        except (UsageError, StoreError) as error:
            raise RunnerUsageError(error) from error
        return _answer(outcome)


class AsyncRunnerTool(_SessionTool, BetaAsyncBuiltinFunctionTool):
    """One Session tool as a tool of the async runner (``AsyncAnthropic``)."""

    async def call(self, input: object) -> str:  # noqa: A002 - the SDK's name
        """Run the call through the Session: the result, or ``ToolError`` with the line."""
        try:
            outcome = await self.session.acall(self.tool_name, cast(Any, input))
        except (UsageError, StoreError) as error:
            raise RunnerUsageError(error) from error
        return _answer(outcome)


def runner_tools(session: Session) -> list[RunnerTool]:
    """The Session's tools for ``Anthropic().beta.messages.tool_runner(tools=...)``."""
    return [RunnerTool(session, name) for name in session.tools]


def async_runner_tools(session: Session) -> list[AsyncRunnerTool]:
    """The Session's tools for ``AsyncAnthropic().beta.messages.tool_runner(tools=...)``."""
    return [AsyncRunnerTool(session, name) for name in session.tools]


__dir__ = _surface.public_dir(__name__)
"""``__all__`` and the dunders: the names imported to build this module stay usable
here but are not its surface (``dir()``, completion)."""
