"""MCP both ways, with the real ``mcp`` package: an MCP server's tools through a Session,
and toolhygiene tools on an MCP server; in process, and over stdio in a real subprocess."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

pytest.importorskip("mcp")  # not in the lowest session: mcp needs pydantic 2.12

import mcp
import mcp.types
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError as SdkToolError

import toolhygiene as th
from toolhygiene import mcp as thmcp

validator = jsonschema.Draft202012Validator(th.FAILURE_SCHEMA)
KEY = "sk-ant-api03-" + "M" * 90
TESTS = Path(__file__).resolve().parent


def text_of(result: mcp.types.CallToolResult) -> str:
    [block] = result.content
    assert isinstance(block, mcp.types.TextContent)
    return block.text


@th.tool
def get_order(order_id: str) -> dict[str, str]:
    """Fetch one order by its id."""
    if order_id == "ORD-1":
        return {"id": order_id, "note": f"paid with key {KEY}"}
    if order_id == "ORD-500":
        raise ValueError(f"database at postgres://admin:hunter2@10.0.0.7/orders said no ({KEY})")
    raise th.ToolError(f"no order with id {order_id} exists", retryable=False,
                       category="not_found", alternatives=["search_orders with the customer id"])


# -- toolhygiene tools on an MCP server --------------------------------------------------


async def test_the_sdk_hides_what_a_crashing_tool_says() -> None:
    # Why the server side exists: mcp 2.3 keeps a crash's text from the client.
    plain = MCPServer("plain")

    @plain.tool()
    def crash() -> str:
        raise ValueError("the index is being rebuilt, try again in 5 minutes")

    async with mcp.Client(plain) as client:
        result = await client.call_tool("crash", {})
    assert result.is_error and text_of(result) == "Error executing tool crash"


async def test_a_failure_leaves_as_an_is_error_result_with_the_line_and_the_payload() -> None:
    async with mcp.Client(thmcp.server([get_order])) as client:
        for order_id in ("ORD-9", "ORD-500"):
            result = await client.call_tool("get_order", {"order_id": order_id})
            assert result.is_error
            line = text_of(result)
            assert line.startswith("[error] get_order: ") and "\n" not in line
            assert "Error executing tool" not in line
            assert KEY not in line and "hunter2" not in line and "10.0.0.7" not in line
            payload = result.structured_content
            validator.validate(payload)
            assert payload["message"] == line
            assert payload["attempted_query"] == {"tool": "get_order",
                                                  "arguments": {"order_id": order_id}}
    assert line.startswith("[error] get_order: bad_request. database at [redacted:")


async def test_the_not_found_line_keeps_its_category_and_alternatives() -> None:
    async with mcp.Client(thmcp.server([get_order])) as client:
        result = await client.call_tool("get_order", {"order_id": "ORD-9"})
    assert text_of(result) == (
        "[error] get_order: not_found. no order with id ORD-9 exists. Not transient: the same "
        "call will fail the same way. Check the name or id, or search for it first, instead of "
        "repeating the call. Alternatives: search_orders with the customer id.")
    assert result.structured_content["alternatives"] == ["search_orders with the customer id"]


async def test_bad_arguments_get_toolhygienes_words_and_count() -> None:
    session = th.Session([get_order], max_failures=2)
    async with mcp.Client(thmcp.server([get_order], session=session)) as client:
        listed = await client.list_tools()
        assert listed.tools[0].input_schema == get_order.parameters
        first = await client.call_tool("get_order", {"order_id": 5})
        second = await client.call_tool("get_order", {"orderid": "ORD-1"})
        third = await client.call_tool("get_order", {"order_id": "ORD-1"})
    assert text_of(first).startswith(
        "[error] get_order: bad_request. argument 'order_id' must be a valid string, got 5.")
    assert "unexpected argument 'orderid'" in text_of(second)
    assert "is now closed" in text_of(second)
    assert third.is_error and text_of(third).startswith("[error] get_order: unavailable.")
    assert session.stats()["failures"] == {"get_order": 2}


async def test_a_success_is_what_the_model_would_see_through_a_session() -> None:
    async with mcp.Client(thmcp.server([get_order])) as client:
        result = await client.call_tool("get_order", {"order_id": "ORD-1"})
    assert not result.is_error
    assert json.loads(text_of(result)) == {"id": "ORD-1",
                                           "note": "paid with key [redacted:anthropic-key]"}


def test_a_tool_outside_the_given_session_is_refused() -> None:
    with pytest.raises(th.UsageError, match="get_order is not one of the session's tools"):
        thmcp.server_tools([get_order], th.Session([]))


# -- an MCP server's tools through a Session ------------------------------------------


def foreign_server() -> MCPServer:
    """A server written without toolhygiene."""
    server = MCPServer("foreign")

    @server.tool()
    def weather(city: str, days: int = 1) -> str:
        """Forecast for a city."""
        if city == "Pariss":
            raise SdkToolError(f"unknown city {city!r}; upstream key {KEY}")
        return f"{city}: 21C for {days} day(s)"

    @server.tool()
    def audit(entry: str) -> mcp.types.CallToolResult:
        """Write an audit entry."""
        return mcp.types.CallToolResult(
            content=[mcp.types.TextContent(type="text", text="audit log is read-only")],
            structured_content={"code": 423, "token": KEY, "entry": entry},
            is_error=True,
        )

    return server


async def test_an_is_error_result_is_a_failure_counted_and_cleared() -> None:
    async with mcp.Client(foreign_server()) as client:
        tools = await thmcp.tools(client, max_failures=3)
        session = th.Session(tools)
        assert {t.name for t in tools} == {"weather", "audit"}
        failed = await session.acall("weather", {"city": "Pariss"})
        assert not failed.ok and failed.failure is not None
        assert failed.content.startswith("[error] weather: unknown. Error executing tool "
                                         "weather: unknown city 'Pariss'; upstream key "
                                         "[redacted:anthropic-key].")
        assert "Cause not known" in failed.content and KEY not in failed.content
        assert session.stats()["failures"] == {"weather": 1}
        assert session.stats()["pending"] == 1
        ok = await session.acall("weather", {"city": "Paris", "days": 2})
        assert ok.ok and json.loads(ok.content) == {"result": "Paris: 21C for 2 day(s)"}
        assert session.stats()["pending"] == 0


async def test_structured_content_of_an_error_is_kept_redacted() -> None:
    async with mcp.Client(foreign_server()) as client:
        session = th.Session(await thmcp.tools(client))
        outcome = await session.acall("audit", {"entry": "login"})
    assert outcome.failure is not None
    assert outcome.content.startswith("[error] audit: unknown. audit log is read-only.")
    assert outcome.failure.details == {"code": 423, "token": "[redacted:secret]",
                                       "entry": "login"}
    payload = outcome.failure.to_dict()
    validator.validate(payload)
    assert payload["details"]["code"] == 423 and KEY not in json.dumps(payload)


async def test_arguments_are_checked_against_the_servers_schema_before_sending() -> None:
    async with mcp.Client(foreign_server()) as client:
        session = th.Session(await thmcp.tools(client))
        outcome = await session.acall("weather", {"city": "Paris", "days": "two"})
        assert session.schemas("anthropic")[0]["input_schema"]["required"] == ["city"]
    assert outcome.content.startswith(
        "[error] weather: bad_request. argument 'days': 'two' is not of type 'integer'.")
    assert outcome.attempts == 0  # nothing was sent


async def test_a_toolhygiene_servers_payload_keeps_its_category_on_the_client() -> None:
    async with mcp.Client(thmcp.server([get_order])) as client:
        session = th.Session(await thmcp.tools(client))
        outcome = await session.acall("get_order", {"order_id": "ORD-9"})
    assert outcome.failure is not None
    assert outcome.failure.category is th.Category.NOT_FOUND
    # the server's reason is of this very tool: named once
    assert outcome.content.startswith("[error] get_order: not_found. no order with "
                                      "id ORD-9 exists. Not transient")
    assert outcome.failure.alternatives == ("search_orders with the customer id",)


@pytest.mark.parametrize(("server_retries", "runs"), [(0, 3), (2, 3)])
async def test_a_transient_failure_is_retried_at_one_end_only(
        server_retries: int, runs: int) -> None:
    """The server's payload says how many attempts it made: the client retries a
    transient isError result locally only when the server did not (3 runs, never 9)."""
    ran: list[int] = []

    @th.tool(retries=server_retries, max_failures=5)  # the server's cap never interferes
    def lookup(q: str) -> str:
        """Look it up."""
        ran.append(1)
        raise ConnectionResetError("connection reset by peer")

    with th.testing.instant_retries():
        async with mcp.Client(thmcp.server([lookup])) as client:
            session = th.Session(await thmcp.tools(client, retries=2))
            outcome = await session.acall("lookup", {"q": "tides"})
    assert not outcome.ok and outcome.failure is not None and outcome.failure.retryable
    assert outcome.content.startswith("[error] lookup: connectivity.")
    assert len(ran) == runs
    assert outcome.attempts == (3 if server_retries == 0 else 1)


async def test_a_transient_is_error_result_retried_by_the_client_can_succeed() -> None:
    ran: list[int] = []

    @th.tool(retries=0)
    def lookup(q: str) -> str:
        """Look it up."""
        ran.append(1)
        if len(ran) == 1:
            raise ConnectionResetError("connection reset by peer")
        return f"{q}: high at 14:05"

    with th.testing.instant_retries():
        async with mcp.Client(thmcp.server([lookup])) as client:
            session = th.Session(await thmcp.tools(client))
            outcome = await session.acall("lookup", {"q": "tides"})
    assert outcome.ok and outcome.value == "tides: high at 14:05" and outcome.attempts == 2
    assert session.stats()["failures"] == {}


# -- stdio: the protocol stream carries nothing else ----------------------------------


async def test_a_stdio_server_never_writes_a_byte_of_log_to_stdout() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get(
        "PYTHONPATH", "")])}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(TESTS / "mcp_stdio_server.py"), env=env,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    requests: list[dict[str, Any]] = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "lookup", "arguments": {"city": "Pariss"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
         "params": {"name": "lookup", "arguments": {"city": "Atlantis"}}},
    ]
    answers: dict[int, Any] = {}
    try:
        for request in requests:
            proc.stdin.write((json.dumps(request) + "\n").encode())
            await proc.stdin.drain()
            if "id" in request:  # every byte up to its answer must be protocol
                line = await asyncio.wait_for(proc.stdout.readline(), 60)
                answer = json.loads(line)
                assert answer["jsonrpc"] == "2.0" and answer["id"] == request["id"]
                answers[answer["id"]] = answer
        proc.stdin.close()
        rest, errors = await asyncio.wait_for(
            asyncio.gather(proc.stdout.read(), proc.stderr.read()), 60)
        await proc.wait()
    finally:
        if proc.returncode is None:
            proc.kill()
    assert rest == b""  # nothing after the answers either
    for number, city in ((2, "Pariss"), (3, "Atlantis")):
        result = answers[number]["result"]
        assert result["isError"] is True
        assert result["content"][0]["text"].startswith("[error] lookup: ")
        validator.validate(result["structuredContent"])
        assert city in json.dumps(result["structuredContent"]["attempted_query"])
    assert "hunter2" not in json.dumps(answers) and "10.0.0.7" not in json.dumps(answers)
    log = errors.decode()
    assert "tool.failed" in log and "tool.retry" in log  # the log went to stderr, whole
    assert "Traceback (most recent call last)" in log
    assert "looking up Pariss" in log  # the tool's own print too


# -- the protocol's isError decides; names models refuse -----------------------------


async def test_a_successful_result_that_looks_like_a_payload_is_a_result() -> None:
    record = {"isError": True, "errorCategory": "business", "isRetryable": False,
              "message": "refund over limit"}
    server = MCPServer("logs")

    @server.tool()
    def last_incident(service: str) -> mcp.types.CallToolResult:
        """Return the last stored incident record (a successful lookup)."""
        return mcp.types.CallToolResult(
            content=[mcp.types.TextContent(type="text", text="incident #1")],
            structured_content=record, is_error=False)

    @server.tool()
    def failing(service: str) -> mcp.types.CallToolResult:
        """The same record, reported as an error."""
        return mcp.types.CallToolResult(
            content=[mcp.types.TextContent(type="text", text="refund over limit")],
            structured_content=record, is_error=True)

    async with mcp.Client(server) as client:
        session = th.Session(await thmcp.tools(client))
        ok = await session.acall("last_incident", {"service": "billing"})
        failed = await session.acall("failing", {"service": "billing"})
    assert ok.ok and ok.failure is None and json.loads(ok.content) == record
    assert failed.failure is not None and failed.failure.category is th.Category.BUSINESS
    assert session.stats()["failures"] == {"failing": 1}


async def test_every_tool_gets_a_name_models_accept_and_is_called_by_its_own() -> None:
    long = "x" * 100 + ".y"
    server = MCPServer("names")
    names = ["get_order", "admin.list_users", "admin_list_users", "a.b", "a-b.c", long,
             "z" * 128]
    for name in names:
        def make(name: str) -> Any:
            def handler(q: str = "") -> str:
                return f"called {name}"
            return handler
        server.add_tool(make(name), name=name, description=f"tool {name}")

    async with mcp.Client(server) as client:
        tools = await thmcp.tools(client)
        session = th.Session(tools)
        by_server = {t.mcp_name: t.name for t in tools}
        assert sorted(by_server) == sorted(names)  # none left out
        assert len(set(by_server.values())) == len(names)  # no two share a name
        for model_name in by_server.values():
            assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", model_name), model_name
        assert by_server["get_order"] == "get_order"
        assert by_server["admin_list_users"] == "admin_list_users"  # a fitting name is kept
        assert by_server["admin.list_users"].startswith("admin_list_users_")
        assert by_server["a.b"] == "a_b"
        for mcp_name, model_name in by_server.items():
            outcome = await session.acall(model_name, {})
            assert json.loads(outcome.content) == {"result": f"called {mcp_name}"}
        assert session.schemas("anthropic")  # the names pass the API rule
    assert thmcp.model_names(names) == thmcp.model_names(list(reversed(names)))
