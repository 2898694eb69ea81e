"""A pydantic-ai toolset whose tools run through toolhygiene.

pydantic-ai sends a ``ModelRetry``'s text followed by "Fix the errors and try again.", and a
tool that exhausts its ``max_retries`` ends the whole run. In the toolset built here:

- a transient failure is retried locally (the Session's retries): the model never sees it;
- a failure the model can fix by changing its arguments (a bad or unknown argument, a
  record not found) becomes ``ModelRetry`` with the line;
- every other failure (the outcome unknown, a business rule, no permission, a transient
  failure that outlived the local retries, the failure that closes the tool) is
  ``ToolFailed`` with the line: the model sees it as it is, with no "try again" after it;
- a closed tool answers its notice (``ToolFailed``) instead of ending the run; each tool's
  ``max_retries`` is set to its Session cap, so the Session's cap always comes first;
- the arguments reach the Session as the model sent them, even when they are not JSON:
  the toolset's ``args_validator`` (pydantic-ai's public ``SchemaValidatorProt``) lets
  them through and the Session validates them, so a malformed call is counted against
  the cap and answered with the line (``ModelRetry``), and closes the tool at the cap,
  instead of pydantic-ai's own retry prompt ending the run;
- the calls of a turn cut by the token limit (its ``ModelResponse.finish_reason`` is
  ``"length"``) do not run and do not count: each is ``ToolFailed`` saying so.

::

    from toolhygiene.integrations.pydantic_ai import toolset

    agent = Agent(model, toolsets=[toolset(th.Session([get_weather]))])
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from pydantic_ai import FunctionToolset, ModelRetry, RunContext, Tool
from pydantic_ai.exceptions import ToolFailed
from pydantic_ai.messages import ModelResponse
from pydantic_ai.toolsets import ToolsetTool

from toolhygiene import _surface
from toolhygiene._definitions import shown_text
from toolhygiene._errors import CoarseClass, Failure
from toolhygiene._session import Outcome, Session
from toolhygiene._words import cut_turn_line

__all__ = ["HygieneToolset", "fixable", "toolset"]


def fixable(failure: Failure) -> bool:
    """Whether the model can make the call succeed by changing its arguments: a validation
    failure (bad request, not found) that neither closed the tool nor may have taken effect."""
    return (
        failure.category.coarse is CoarseClass.VALIDATION
        and failure.status != "closed"
        and not failure.closes
        and not failure.uncertain
    )


def _cut(ctx: RunContext[Any]) -> bool:
    """Whether the token limit cut off the turn that asked for the call: the last
    ``ModelResponse``'s ``finish_reason`` is ``"length"``."""
    for message in reversed(ctx.messages):
        if isinstance(message, ModelResponse):
            return getattr(message, "finish_reason", None) == "length"
    return False


def _answer(outcome: Outcome) -> str:
    if outcome.failure is None:
        return outcome.content
    if fixable(outcome.failure):
        raise ModelRetry(outcome.content)
    raise ToolFailed(outcome.content)


class _Sent(dict[str, Any]):
    """Arguments as the model sent them (``sent``: its JSON text, or the object): the dict
    itself is what they parse to (empty when they are not a JSON object), for the hooks
    that read arguments; the Session gets ``sent``."""

    sent: str | bytes | dict[str, Any]


def _sent(given: Any) -> _Sent:
    if isinstance(given, bytearray):
        given = bytes(given)
    parsed: Any = given
    if isinstance(given, (str, bytes)):
        try:
            parsed = json.loads(given)
        except (ValueError, RecursionError):  # not JSON, or nested past the stack
            parsed = None
    out = _Sent(parsed if isinstance(parsed, dict) else {})
    out.sent = given
    return out


class _AsSent:
    """An ``args_validator`` that lets every argument through as it was sent: the
    Session validates it (and counts, redacts and answers a malformed call). It has no
    side effects: pydantic-ai also calls it on partial arguments while a reply streams."""

    def validate_json(self, input: str | bytes | bytearray, **_: Any) -> _Sent:  # noqa: A002
        return _sent(input)

    def validate_python(self, input: Any, **_: Any) -> _Sent:  # noqa: A002
        return _sent(input)


_AS_SENT = _AsSent()


def _runner(session: Session, name: str) -> Any:
    async def run(**arguments: Any) -> str:
        return _answer(await session.acall(name, arguments))

    return run


class HygieneToolset(FunctionToolset[Any]):
    """The Session's tools as a pydantic-ai toolset: every call, its arguments as the
    model sent them, runs through the Session."""

    def __init__(self, session: Session) -> None:
        tools = []
        for name, tool in session.tools.items():
            parameters = tool.parameters_for("openai_chat")
            made: Tool[Any] = Tool.from_schema(
                _runner(session, name), name, shown_text(tool.description), parameters
            )
            made.max_retries = session._cap(name)
            tools.append(made)
        super().__init__(tools)
        self.session = session

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        """The tools, each with the validator that hands the Session what the model sent."""
        found = await super().get_tools(ctx)
        return {name: replace(tool, args_validator=_AS_SENT) for name, tool in found.items()}

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> Any:
        """Run the call through the Session: the result, ``ModelRetry`` or ``ToolFailed``
        with the line. Arguments a capability hook replaced are passed as it left them."""
        if _cut(ctx):  # its arguments may be cut: nothing runs or counts, as Session.handle
            raise ToolFailed(cut_turn_line(name))
        arguments = tool_args.sent if isinstance(tool_args, _Sent) else tool_args
        outcome = await self.session.acall(name, arguments, call_id=ctx.tool_call_id)
        return _answer(outcome)


def toolset(session: Session) -> HygieneToolset:
    """The Session's tools as a pydantic-ai toolset, for ``Agent(toolsets=[...])``."""
    return HygieneToolset(session)


__dir__ = _surface.public_dir(__name__)
"""``__all__`` and the dunders: the names imported to build this module stay usable
here but are not its surface (``dir()``, completion)."""
