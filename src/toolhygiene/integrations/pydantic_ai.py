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
  ``max_retries`` is set to its Session cap, so the Session's cap always comes first.

::

    from toolhygiene.integrations.pydantic_ai import toolset

    agent = Agent(model, toolsets=[toolset(th.Session([get_weather]))])
"""

from __future__ import annotations

from typing import Any

from pydantic_ai import FunctionToolset, ModelRetry, Tool
from pydantic_ai.exceptions import ToolFailed

from toolhygiene._errors import CoarseClass, Failure
from toolhygiene._session import Outcome, Session

__all__ = ["fixable", "toolset"]


def fixable(failure: Failure) -> bool:
    """Whether the model can make the call succeed by changing its arguments: a validation
    failure (bad request, not found) that neither closed the tool nor may have taken effect."""
    return (
        failure.category.coarse is CoarseClass.VALIDATION
        and failure.status != "closed"
        and not failure.closes
        and not failure.uncertain
    )


def _answer(outcome: Outcome) -> str:
    if outcome.failure is None:
        return outcome.content
    if fixable(outcome.failure):
        raise ModelRetry(outcome.content)
    raise ToolFailed(outcome.content)


def _runner(session: Session, name: str) -> Any:
    async def run(**arguments: Any) -> str:
        return _answer(await session.acall(name, arguments))

    return run


def toolset(session: Session) -> FunctionToolset[Any]:
    """The Session's tools as a pydantic-ai toolset, for ``Agent(toolsets=[...])``."""
    tools = []
    for name, tool in session.tools.items():
        parameters = tool.schema("openai_chat")["function"]["parameters"]
        made: Tool[Any] = Tool.from_schema(
            _runner(session, name), name, tool.description, parameters
        )
        made.max_retries = session._cap(name)
        tools.append(made)
    return FunctionToolset(tools)
