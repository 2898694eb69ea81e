"""``FunctionTool``s for the OpenAI Agents SDK.

The SDK answers every failure with "An error occurred while running the tool. Please try
again." (its ``failure_error_function``), even a city that does not exist. Each tool built
here runs through the Session, which never raises for a tool's failure: the model reads
the line instead, and a closed tool answers its notice without running. Definitions are
strict where the tool can be (the SDK asks for strict schemas); a tool whose arguments
strict mode cannot express is sent non-strict rather than refused.

::

    from toolhygiene.integrations.openai_agents import function_tools

    session = th.Session([get_weather])
    agent = Agent(name="weather", tools=function_tools(session))
"""

from __future__ import annotations

from typing import Any

from agents import FunctionTool
from agents import Tool as AgentTool
from agents.tool_context import ToolContext

from toolhygiene import _surface
from toolhygiene._definitions import shown_text
from toolhygiene._exceptions import UsageError
from toolhygiene._session import Session
from toolhygiene._tool import Tool

__all__ = ["function_tool", "function_tools"]


def function_tool(session: Session, name: str) -> FunctionTool:
    """The Session's tool ``name`` as an Agents SDK ``FunctionTool``."""
    tool = session.tools[name]
    parameters, strict = _parameters(tool)

    async def invoke(context: ToolContext[Any], arguments: str) -> str:
        call_id = getattr(context, "tool_call_id", None)
        outcome = await session.acall(name, arguments, call_id=call_id)
        return outcome.content

    return FunctionTool(
        name=tool.name,
        description=shown_text(tool.description),
        params_json_schema=parameters,
        on_invoke_tool=invoke,
        strict_json_schema=strict,
    )


def function_tools(session: Session) -> list[AgentTool]:
    """Every tool of the Session as an Agents SDK ``FunctionTool``, for ``Agent(tools=...)``
    (typed as the SDK's ``Tool`` union, which that list takes)."""
    return [function_tool(session, name) for name in session.tools]


def _parameters(tool: Tool[Any, Any]) -> tuple[dict[str, Any], bool]:
    """The tool's parameters for the Responses API, strict unless the tool says otherwise
    or strict mode cannot express them."""
    try:
        definition = tool.schema("openai_responses", strict=True)
    except UsageError:  # **kwargs, free-key mappings, Any, tuples
        definition = tool.schema("openai_responses", strict=False)
    return dict(definition["parameters"]), bool(definition.get("strict"))


__dir__ = _surface.public_dir(__name__)
"""``__all__`` and the dunders: the names imported to build this module stay usable
here but are not its surface (``dir()``, completion)."""
