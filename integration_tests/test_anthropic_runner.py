"""The Anthropic SDK's own tool runner, with toolhygiene's tools, against a scripted server."""

from __future__ import annotations

from typing import Any

import anthropic
import pytest

import toolhygiene as th
from integration_tests.tools import DSN, MULTI, ROUNDS, Received, World, check_multi, notice
from toolhygiene.integrations.anthropic import (
    RunnerUsageError,
    async_runner_tools,
    runner_tools,
)
from toolhygiene.testing import ScriptedServer, model_turn

QUESTION = [{"role": "user", "content": "Weather in Paris?"}]


def script(server: ScriptedServer) -> None:
    for calls in ROUNDS:
        server.push(body=model_turn("anthropic", calls))
    server.push(body=model_turn("anthropic", [], text="21C and clear."))


def results(server: ScriptedServer) -> list[dict[str, Any]]:
    """Every tool result the runner sent, in order."""
    return [
        block
        for seen in server.requests
        for message in seen.body["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block["type"] == "tool_result"
    ]


def check(server: ScriptedServer, world: World) -> None:
    sent = results(server)
    assert [r.get("is_error", False) for r in sent] == [True, True, True, False]
    assert sent[0]["content"] == (
        "[error] get_weather: not_found. no city named Pariss. Not transient: the same call "
        "will fail the same way. Call get_weather with the city's correct name."
    )
    assert sent[1]["content"].startswith("[error] read_db: ")
    assert "hunter2" not in sent[1]["content"] and "10.0.3.7" not in sent[1]["content"]
    assert DSN not in str(server.requests)
    assert sent[2]["content"] == (
        "[error] read_db: unavailable. read_db was closed after 1 failure in this "
        "conversation; this call did not run. Continue without it, or tell the user what "
        "you could not do."
    )
    # the blip was retried locally: the model never saw it
    assert sent[3]["content"] == "21C, clear"
    assert world.ran == ["get_weather:Pariss", "read_db:orders", "get_weather:Paris",
                         "get_weather:Paris"]
    assert all("\n" not in r["content"] for r in sent)


def test_sync_runner_sends_the_line_with_is_error(server: ScriptedServer) -> None:
    world = World()
    script(server)
    client = anthropic.Anthropic(base_url=server.url, api_key="k", max_retries=0)
    with th.Session(world.tools()) as session:
        runner = client.beta.messages.tool_runner(
            model="claude-test", max_tokens=100, messages=QUESTION,  # type: ignore[arg-type]
            tools=runner_tools(session),
        )
        final = runner.until_done()
    assert final.content[0].type == "text"
    check(server, world)


async def test_async_runner_sends_the_line_with_is_error(server: ScriptedServer) -> None:
    world = World()
    script(server)
    client = anthropic.AsyncAnthropic(base_url=server.url, api_key="k", max_retries=0)
    async with th.Session(world.tools()) as session:
        runner = client.beta.messages.tool_runner(
            model="claude-test", max_tokens=100, messages=QUESTION,  # type: ignore[arg-type]
            tools=async_runner_tools(session),
        )
        final = await runner.until_done()
    assert final.content[0].type == "text"
    check(server, world)


def test_definitions_are_the_sessions(server: ScriptedServer) -> None:
    """The runner sends the Session's own definitions."""
    world = World()
    server.push(body=model_turn("anthropic", [], text="hi"))
    client = anthropic.Anthropic(base_url=server.url, api_key="k", max_retries=0)
    with th.Session(world.tools()) as session:
        client.beta.messages.tool_runner(
            model="claude-test", max_tokens=100, messages=QUESTION,  # type: ignore[arg-type]
            tools=runner_tools(session),
        ).until_done()
        assert server.requests[0].body["tools"] == session.schemas("anthropic")


@pytest.mark.parametrize("ending", ["truncated"])
def test_a_cut_turn_runs_nothing(server: ScriptedServer, ending: Any) -> None:
    world = World()
    server.push(body=model_turn("anthropic", [("get_weather", {"city": "Paris"})],
                                ending=ending))
    client = anthropic.Anthropic(base_url=server.url, api_key="k", max_retries=0)
    with th.Session(world.tools()) as session:
        client.beta.messages.tool_runner(
            model="claude-test", max_tokens=100, messages=QUESTION,  # type: ignore[arg-type]
            tools=runner_tools(session),
        ).until_done()
        assert session.stats()["calls"] == 0
    assert world.ran == []


def closed_session() -> th.Session:
    session = th.Session(World().tools())
    session.close()
    return session


def test_sync_runner_raises_the_developers_usage_error(server: ScriptedServer) -> None:
    server.push(body=model_turn("anthropic", [("get_weather", {"city": "Paris"})]))
    server.push(body=model_turn("anthropic", [], text="done"))
    client = anthropic.Anthropic(base_url=server.url, api_key="k", max_retries=0)
    runner = client.beta.messages.tool_runner(
        model="m", max_tokens=64, messages=QUESTION,  # type: ignore[arg-type]
        tools=runner_tools(closed_session())
    )
    with pytest.raises(RunnerUsageError) as raised:
        runner.until_done()
    assert isinstance(raised.value.error, th.UsageError)
    assert raised.value.__cause__ is raised.value.error
    assert "closed" in str(raised.value)
    # the model never read it: the runner sent one request and no tool result
    assert len(server.requests) == 1 and results(server) == []


async def test_async_runner_raises_the_developers_usage_error(server: ScriptedServer) -> None:
    server.push(body=model_turn("anthropic", [("get_weather", {"city": "Paris"})]))
    server.push(body=model_turn("anthropic", [], text="done"))
    client = anthropic.AsyncAnthropic(base_url=server.url, api_key="k", max_retries=0)
    runner = client.beta.messages.tool_runner(
        model="m", max_tokens=64, messages=QUESTION,  # type: ignore[arg-type]
        tools=async_runner_tools(closed_session())
    )
    with pytest.raises(RunnerUsageError) as raised:
        await runner.until_done()
    assert isinstance(raised.value.error, th.UsageError)
    assert len(server.requests) == 1 and results(server) == []


def received(server: ScriptedServer) -> Received:
    """Each turn's tool results as the model received them, in the order of its calls:
    the runner sends one turn's results in the next request (its thread holds the rest)."""
    return [
        [(b.get("is_error", False), b["content"]) for b in blocks]
        for seen in server.requests[1:]
        for message in seen.body["messages"]
        if isinstance(message["content"], list)
        and (blocks := [b for b in message["content"] if b["type"] == "tool_result"])
    ]


@pytest.mark.parametrize("asynchronous", [False, True])
async def test_turns_of_several_calls(server: ScriptedServer, asynchronous: bool) -> None:
    """Two calls at once: one failing, one succeeding; two failing of a tool whose cap is
    one. The runner runs a turn's calls one after the other: the second read_db finds
    the tool closed and does not run."""
    world = World(blips=0)
    for calls in MULTI:
        server.push(body=model_turn("anthropic", calls))
    server.push(body=model_turn("anthropic", [], text="done"))
    session = th.Session(world.tools())
    if asynchronous:
        client = anthropic.AsyncAnthropic(base_url=server.url, api_key="k", max_retries=0)
        await client.beta.messages.tool_runner(
            model="m", max_tokens=64, messages=QUESTION,  # type: ignore[arg-type]
            tools=async_runner_tools(session),
        ).until_done()
    else:
        sync = anthropic.Anthropic(base_url=server.url, api_key="k", max_retries=0)
        sync.beta.messages.tool_runner(
            model="m", max_tokens=64, messages=QUESTION,  # type: ignore[arg-type]
            tools=runner_tools(session),
        ).until_done()
    got = received(server)
    check_multi(got, world, session)
    assert got[1][1] == (True, notice("read_db", 1))  # one after the other
