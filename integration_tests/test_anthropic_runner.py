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


async def run(server: ScriptedServer, session: th.Session, asynchronous: bool) -> Any:
    """The SDK's runner (``Anthropic`` or ``AsyncAnthropic``) with the Session's tools,
    until done; its last message."""
    if asynchronous:
        client = anthropic.AsyncAnthropic(base_url=server.url, api_key="k", max_retries=0)
        return await client.beta.messages.tool_runner(
            model="m", max_tokens=64, messages=QUESTION,  # type: ignore[arg-type]
            tools=async_runner_tools(session),
        ).until_done()
    sync = anthropic.Anthropic(base_url=server.url, api_key="k", max_retries=0)
    return sync.beta.messages.tool_runner(
        model="m", max_tokens=64, messages=QUESTION,  # type: ignore[arg-type]
        tools=runner_tools(session),
    ).until_done()


def closed_session() -> th.Session:
    session = th.Session(World().tools())
    session.close()
    return session


@pytest.mark.parametrize("asynchronous", [False, True])
async def test_a_closed_session_is_refused_before_any_request(
    server: ScriptedServer, asynchronous: bool
) -> None:
    """The runner reads the tools' definitions to build a request, outside its handling of
    tool errors: the UsageError reaches the caller as it is, and nothing is sent."""
    server.push(body=model_turn("anthropic", [("get_weather", {"city": "Paris"})]))
    with pytest.raises(th.UsageError, match="closed") as raised:
        await run(server, closed_session(), asynchronous)
    assert isinstance(raised.value, Exception)  # an `except Exception` sees it
    assert server.requests == []


class _Down(th.MemoryStore):
    """A store of the user's own that is set to fail closed and is down: every call
    raises StoreError before it runs."""

    def start(self, session: str, tool: str, *, known: int, upstream: str | None) -> Any:
        raise th.StoreError("the store is down: this call did not run")


def _closing(session: list[th.Session]) -> th.Tool[..., str]:
    @th.tool
    def end_conversation() -> str:
        """End the conversation."""
        session[0].close()
        return "ended"

    return end_conversation


@pytest.mark.parametrize("asynchronous", [False, True])
@pytest.mark.parametrize("cause", ["closed_during_the_turn", "store_down"])
async def test_an_error_for_you_during_a_call_leaves_the_runner(
    server: ScriptedServer, asynchronous: bool, cause: str
) -> None:
    """The runner sends every Exception a tool raises to the model: an error meant for
    the developer that arises in a call leaves it as RunnerUsageError instead, and the
    model never reads it (no tool result is sent)."""
    held: list[th.Session] = []
    world = World(blips=0)
    if cause == "store_down":
        session = th.Session(world.tools(), store=_Down(), session_id="conv-1")
        calls = [("get_weather", {"city": "Paris"})]
        expected: type[Exception] = th.StoreError
    else:
        session = th.Session([*world.tools(), _closing(held)])
        calls = [("end_conversation", {}), ("get_weather", {"city": "Paris"})]
        expected = th.UsageError
    held.append(session)
    server.push(body=model_turn("anthropic", calls))
    server.push(body=model_turn("anthropic", [], text="done"))
    with pytest.raises(RunnerUsageError) as raised:
        await run(server, session, asynchronous)
    assert isinstance(raised.value.error, expected)
    assert raised.value.__cause__ is raised.value.error
    assert len(server.requests) == 1 and results(server) == []
    assert world.ran == []


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
    await run(server, session, asynchronous)
    got = received(server)
    check_multi(got, world, session)
    assert got[1][1] == (True, notice("read_db", 1))  # one after the other
