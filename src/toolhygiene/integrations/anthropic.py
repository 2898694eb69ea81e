"""Tools for the Anthropic SDK's tool runner (``client.beta.messages.tool_runner``).

The runner sends ``repr(exc)`` for an exception a tool raises, and a ``ToolError``'s
content as it is, with ``is_error``. Each tool built here runs through the Session and
raises the SDK's ``ToolError`` with the line when the call failed, so the model reads the
line with ``is_error: true``; a closed tool answers its notice without running. The
runner keeps the conversation (on the server, in a message thread, by default): it holds
the history, so nothing there is cleared.

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

from toolhygiene.session import Session

__all__ = ["AsyncRunnerTool", "RunnerTool", "async_runner_tools", "runner_tools"]


class _SessionTool:
    """What both runners' tools share: the Session, the tool's name, its definition."""

    def __init__(self, session: Session, name: str) -> None:
        self.session = session
        self.tool_name = name

    def to_dict(self) -> BetaToolUnionParam:
        definition: Any = self.session.tools[self.tool_name].schema("anthropic")
        return definition  # type: ignore[no-any-return]


class RunnerTool(_SessionTool, BetaBuiltinFunctionTool):
    """One Session tool as a tool of the sync runner."""

    def call(self, input: object) -> str:  # noqa: A002 - the SDK's name
        """Run the call through the Session: the result, or ``ToolError`` with the line."""
        outcome = self.session.call(self.tool_name, cast(Any, input))
        if not outcome.ok:
            raise ToolError(outcome.content)
        return outcome.content


class AsyncRunnerTool(_SessionTool, BetaAsyncBuiltinFunctionTool):
    """One Session tool as a tool of the async runner (``AsyncAnthropic``)."""

    async def call(self, input: object) -> str:  # noqa: A002 - the SDK's name
        """Run the call through the Session: the result, or ``ToolError`` with the line."""
        outcome = await self.session.acall(self.tool_name, cast(Any, input))
        if not outcome.ok:
            raise ToolError(outcome.content)
        return outcome.content


def runner_tools(session: Session) -> list[RunnerTool]:
    """The Session's tools for ``Anthropic().beta.messages.tool_runner(tools=...)``."""
    return [RunnerTool(session, name) for name in session.tools]


def async_runner_tools(session: Session) -> list[AsyncRunnerTool]:
    """The Session's tools for ``AsyncAnthropic().beta.messages.tool_runner(tools=...)``."""
    return [AsyncRunnerTool(session, name) for name in session.tools]
