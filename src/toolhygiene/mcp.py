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
stream; but a line logged to stdout before it serves (asyncio's DEBUG "Using selector",
with ``logging.basicConfig(stream=sys.stdout, level=logging.DEBUG)``) does: a stdio
server should log to stderr.
"""

from __future__ import annotations

import re
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

from toolhygiene import _surface, _words
from toolhygiene._definitions import shown_text
from toolhygiene._errors import Category, ToolError
from toolhygiene._exceptions import UsageError
from toolhygiene._payload import Reported, recognise, sent
from toolhygiene._session import Session
from toolhygiene._tool import Tool, as_tool

__all__ = ["McpTool", "McpToolError", "model_names", "server", "server_tools", "tools"]


class McpToolError(ToolError):
    """An MCP tool answered with ``isError``: its text (redacted in the line) and its
    structured content (kept, redacted, as ``Failure.details``). Nothing says what kind
    of failure it was, so it is ``unknown`` and not called retryable."""

    def __init__(self, tool: str, text: str, structured: Any = None) -> None:
        super().__init__(
            text or _words.reported_without_text(tool),
            retryable=False,
            category=Category.UNKNOWN,
            details=structured,
        )


# -- client side -----------------------------------------------------------------------


class McpTool(Tool[..., Any]):
    """One tool of an MCP server, called through ``client`` (an ``mcp.Client`` or
    ``mcp.ClientSession``). Its schema is the server's; the model's arguments are checked
    against it before anything is sent. The result's ``isError`` alone says whether the
    call failed: a successful result whose structured content looks like a failure
    payload (a stored incident record, say) is a result."""

    reads_payloads: ClassVar[bool] = False
    client: Any
    mcp_name: str
    """The name the server knows the tool by (``name`` is the model's: see ``tools``)."""
    input_schema: dict[str, Any]

    def __init__(
        self, client: Any, definition: Any, *, model_name: str | None = None, **options: Any
    ) -> None:
        async def call(**arguments: Any) -> Any:
            return await self._call(arguments)

        schema = dict(definition.input_schema or {"type": "object", "properties": {}})
        schema.setdefault("properties", {})
        self.client = client
        self.mcp_name = definition.name
        self.input_schema = schema
        self._checker = jsonschema.Draft202012Validator(schema)
        super().__init__(
            call,
            name=model_name or model_names([definition.name])[definition.name],
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
            raise self._bad_arguments(_words.argument_problem(where, error.message))
        return values

    async def _call(self, arguments: dict[str, Any]) -> Any:
        result = await self.client.call_tool(self.mcp_name, arguments)
        structured = result.structured_content
        if result.is_error:
            if recognise(structured) is not None:
                return Reported(structured)  # the Session reads it as a failure
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
    ``idempotent``, ...), for each of them. MCP allows names model APIs refuse (dots, up
    to 128 characters): each tool gets a name models accept (``model_names``) and is
    called on the server by its own (``McpTool.mcp_name``); no tool is left out.
    """
    definitions: list[Any] = []
    cursor: str | None = None
    while True:
        listed = await client.list_tools(cursor=cursor) if cursor else await client.list_tools()
        definitions.extend(listed.tools)
        cursor = getattr(listed, "next_cursor", None)
        if not cursor:
            break
    names = model_names([d.name for d in definitions])
    return [McpTool(client, d, model_name=names[d.name], **options) for d in definitions]


_MODEL_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
_UNFIT = re.compile(r"[^A-Za-z0-9_-]")


def model_names(names: Iterable[str]) -> dict[str, str]:
    """A name models accept (1-64 letters, digits, ``_``, ``-``) for each MCP tool name.

    A name that already fits is kept. Any other has each character models refuse made
    ``_`` (``admin.list_users`` becomes ``admin_list_users``) and is cut to 64
    characters; when that is taken (by a name kept, or by another name mapped the same
    way) or had to be cut, it ends in ``_`` and 6 hex digits of the original name's
    SHA-256, so that two tools never share a name and the same server always gives the
    same names.
    """
    import hashlib

    given = list(dict.fromkeys(names))
    taken = {n for n in given if _MODEL_NAME.fullmatch(n)}
    made = {n: n for n in taken}
    for name in given:
        if name in made:
            continue
        fitted = _UNFIT.sub("_", name)[:64]
        if not fitted or fitted in taken or len(name) > 64:
            digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()
            fitted = f"{fitted[:57] or 'tool'}_{digest[:6]}"
            while fitted in taken:  # a clash of 6 hex digits: take more of them
                digest = hashlib.sha256(digest.encode()).hexdigest()
                fitted = f"{fitted[:57]}_{digest[:6]}"
        taken.add(fitted)
        made[name] = fitted
    return made


# -- server side -----------------------------------------------------------------------


class _Raw(ArgModelBase):
    """The arguments as the client sent them: toolhygiene checks them, in its own words."""

    model_config: ClassVar[ConfigDict] = ConfigDict(extra="allow")

    def model_dump_one_level(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


def server_tools(items: Iterable[Any], session: Session | None = None) -> list[ServerTool]:
    """``items`` (``@th.tool`` functions or plain callables) as MCP server tools that run
    through ``session`` (default: a new Session of those tools).

    A server is one conversation for every client: its caps count every client's calls
    together, so one client's failures can close a tool for the others (the MCP protocol
    of mcp 2.3 is stateless: a request carries no session to count by). Its lines say
    "on this server", never "in this conversation". To count per conversation, make one
    server (and Session) per conversation, or pass a ``session`` with a ``store`` and
    ``session_id`` of your own."""
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
                description=shown_text(tool.description),
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
        # One Session for every client: its counts are the server's, not a conversation's.
        payload = sent(outcome.failure, outcome.attempts)
        payload["message"] = _words.on_server(payload["message"])
        return mcp.types.CallToolResult(
            content=[mcp.types.TextContent(type="text", text=_words.on_server(outcome.content))],
            structured_content=payload,
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


__dir__ = _surface.public_dir(__name__)
"""``__all__`` and the dunders: the names imported to build this module stay usable
here but are not its surface (``dir()``, completion)."""
