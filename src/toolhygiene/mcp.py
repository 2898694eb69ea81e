"""MCP (Model Context Protocol), both ways: an MCP server's tools used through a Session,
and toolhygiene tools offered on an MCP server. Needs the ``mcp`` extra
(``pip install 'toolhygiene[mcp]'``, mcp 2.3 or later).

Client side, ``await tools(client)`` makes one ``McpTool`` per tool the server lists; in a
``Session`` they are tools like any other. A result with ``isError`` is a failure of
that tool: counted against its cap, cleared when it later succeeds, its text redacted
into the one line. When the error's structured content is a failure payload (what a
toolhygiene server sends), the line is built from it (category, retryability,
alternatives); other structured content is kept, redacted, as ``Failure.details``.

Server side, ``server(tools)`` builds an ``MCPServer`` whose tools run through a
Session. Since mcp 2.3 the SDK hides the text of any exception a tool lets escape (the
client reads only ``Error executing tool <name>``) and prefixes the text of its own
``ToolError``; so no failure escapes here: each leaves as a ``CallToolResult`` with
``isError``, the one line as its text and ``Failure.to_dict()`` as its structured
content, which the SDK passes on unchanged. Successful results are the text the model
would see through a Session (capped, secrets redacted).

Over stdio the SDK points file descriptor 1 at stderr while it serves, so a log line
(toolhygiene's, or any handler's that writes to stdout) never reaches the protocol
stream.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

try:
    import jsonschema
    import mcp.types
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.tools import Tool as ServerTool
    from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
except ImportError as exc:  # pragma: no cover - the extra is installed for the tests
    raise ImportError(
        f"toolhygiene.mcp needs the mcp package (2.3 or later): pip install "
        f"'toolhygiene[mcp]' ({exc})"
    ) from exc
from pydantic import ConfigDict

from toolhygiene._exceptions import UsageError
from toolhygiene._payload import recognise
from toolhygiene.errors import Category, ToolError
from toolhygiene.session import Session
from toolhygiene.tool import Tool, as_tool

__all__ = ["McpToolError", "McpTool", "server", "server_tools", "tools"]


class McpToolError(ToolError):
    """An MCP tool answered with ``isError``: its text (redacted in the line) and its
    structured content (kept, redacted, as ``Failure.details``). Nothing says what kind
    of failure it was, so it is ``unknown`` and not called retryable."""

    def __init__(self, tool: str, text: str, structured: Any = None) -> None:
        super().__init__(
            text or f"the MCP tool {tool} reported an error without any text",
            retryable=False,
            category=Category.UNKNOWN,
            details=structured,
        )


# -- client side -----------------------------------------------------------------------


class McpTool(Tool[..., Any]):
    """One tool of an MCP server, called through ``client`` (an ``mcp.Client`` or
    ``mcp.ClientSession``). Its schema is the server's; the model's arguments are checked
    against it before anything is sent."""

    def __init__(self, client: Any, definition: Any, **options: Any) -> None:
        async def call(**arguments: Any) -> Any:
            return await self._call(arguments)

        schema = dict(definition.input_schema or {"type": "object", "properties": {}})
        schema.setdefault("properties", {})
        self.client = client
        self.input_schema = schema
        self._checker = jsonschema.Draft202012Validator(schema)
        super().__init__(
            call,
            name=definition.name,
            description=definition.description or "",
            **options,
        )

    @property
    def parameters(self) -> dict[str, Any]:
        """The server's input schema for this tool."""
        return self.input_schema

    def validate(self, arguments: Mapping[str, Any] | str | bytes | None) -> dict[str, Any]:
        """The model's arguments checked against the server's input schema.

        Raises:
            ToolError: a ``bad_request`` naming the first argument that does not match.
        """
        values = super().validate(arguments)
        error = jsonschema.exceptions.best_match(self._checker.iter_errors(values))
        if error is not None:
            where = ".".join(str(p) for p in error.absolute_path) or "arguments"
            raise self._bad_arguments(f"argument '{where}': {error.message}")
        return values

    async def _call(self, arguments: dict[str, Any]) -> Any:
        result = await self.client.call_tool(self.name, arguments)
        structured = result.structured_content
        if result.is_error:
            if recognise(structured) is not None:
                return structured  # a failure payload: the Session reads it as a failure
            raise McpToolError(self.name, _text(result.content), structured)
        if structured is not None:
            return structured
        return _text(result.content) if _all_text(result.content) else _blocks(result.content)


def _all_text(content: Iterable[Any]) -> bool:
    return all(isinstance(block, mcp.types.TextContent) for block in content)


def _text(content: Iterable[Any]) -> str:
    return "\n".join(b.text for b in content if isinstance(b, mcp.types.TextContent))


def _blocks(content: Iterable[Any]) -> list[Any]:
    return [block.model_dump(mode="json", by_alias=True) for block in content]


async def tools(client: Any, **options: Any) -> list[McpTool]:
    """Every tool the MCP server behind ``client`` lists, as tools for a ``Session``.

    ``options`` are ``@th.tool``'s (``max_failures``, ``retries``, ``timeout``,
    ``idempotent``, ...), for each of them.
    """
    found: list[McpTool] = []
    cursor: str | None = None
    while True:
        listed = await client.list_tools(cursor=cursor) if cursor else await client.list_tools()
        found.extend(McpTool(client, definition, **options) for definition in listed.tools)
        cursor = getattr(listed, "next_cursor", None)
        if not cursor:
            return found


# -- server side -----------------------------------------------------------------------


class _Raw(ArgModelBase):
    """The arguments as the client sent them: toolhygiene checks them, in its own words."""

    model_config: ClassVar[ConfigDict] = ConfigDict(extra="allow")

    def model_dump_one_level(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


def server_tools(items: Iterable[Any], session: Session | None = None) -> list[ServerTool]:
    """``items`` (``@th.tool`` functions or plain callables) as MCP server tools that run
    through ``session`` (default: a new Session of those tools, whose caps then count
    every client's calls)."""
    prepared = [as_tool(item) for item in items]
    session = session or Session(prepared)
    made = []
    for tool in prepared:
        if tool.name not in session.tools:
            raise UsageError(f"{tool.name} is not one of the session's tools")
        made.append(
            ServerTool(
                fn=_handler(session, tool.name),
                name=tool.name,
                description=tool.description,
                title=None,
                parameters=tool.parameters,
                fn_metadata=FuncMetadata(arg_model=_Raw),
                is_async=True,
                context_kwarg=None,
                annotations=None,
            )
        )
    return made


def _handler(session: Session, name: str) -> Any:
    async def handle(**arguments: Any) -> Any:
        outcome = await session.acall(name, arguments)
        if outcome.failure is None:
            return outcome.content
        return mcp.types.CallToolResult(
            content=[mcp.types.TextContent(type="text", text=outcome.content)],
            structured_content=outcome.failure.to_dict(),
            is_error=True,
        )

    return handle


def server(
    items: Iterable[Any],
    *,
    name: str = "toolhygiene",
    session: Session | None = None,
    **options: Any,
) -> MCPServer:
    """An ``MCPServer`` offering ``items`` (see ``server_tools``); ``options`` go to
    ``MCPServer``. Run it as usual: ``server([...]).run("stdio")``."""
    return MCPServer(name, tools=server_tools(items, session), **options)
