"""toolhygiene inside the agent loops of other frameworks, one module each.

Each module imports its framework and is an optional extra; ``import toolhygiene`` imports
none of them:

- ``toolhygiene.integrations.anthropic``: tools for the Anthropic SDK's
  ``client.beta.messages.tool_runner`` (extra ``anthropic-runner``);
- ``toolhygiene.integrations.openai_agents``: ``FunctionTool``s for the OpenAI Agents SDK
  (extra ``openai-agents``);
- ``toolhygiene.integrations.langgraph``: a LangGraph ``ToolNode`` (extra ``langgraph``);
- ``toolhygiene.integrations.pydantic_ai``: a pydantic-ai toolset (extra ``pydantic-ai``).

Every tool they build runs through one ``Session``: its caps, local retries, idempotency,
classification, redaction, line, tails, logs and spans, none re-implemented here.
"""

__all__: list[str] = []
"""Nothing here: each framework's module is imported by its path."""
