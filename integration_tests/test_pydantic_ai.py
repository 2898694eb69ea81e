"""A pydantic-ai agent with toolhygiene's toolset, driven by pydantic-ai's FunctionModel."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

import toolhygiene as th
from integration_tests.tools import DSN, MULTI, World, check_multi, notice
from toolhygiene._words import cut_turn_line
from toolhygiene.integrations.pydantic_ai import toolset

Calls = list[tuple[str, dict[str, Any] | str]]
"""A turn's calls: the tool's name and its arguments (an object, or the JSON text)."""


def scripted(rounds: list[Calls], seen: list[list[tuple[str, str]]]) -> FunctionModel:
    """A model that asks for ``rounds`` in turn, then answers; ``seen`` gets, for each
    request, the outcome and text of every tool result the model received in it."""
    left = list(rounds)

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        last = messages[-1]
        assert isinstance(last, ModelRequest)
        seen.append([(part.outcome, part.model_response_str(wrap_if_error=False))
                     for part in last.parts if isinstance(part, ToolReturnPart)])
        if not left:
            return ModelResponse(parts=[TextPart("done")])
        return ModelResponse(parts=[ToolCallPart(name, args, tool_call_id=f"c{len(seen)}_{i}")
                                    for i, (name, args) in enumerate(left.pop(0))])

    return FunctionModel(respond)


async def test_fixable_retries_other_failures_as_they_are_closed_notice() -> None:
    world = World(blips=1)
    seen: list[list[tuple[str, str]]] = []
    rounds: list[Calls] = [
        [("get_weather", {"city": "Pariss"})],
        [("read_db", {"table": "orders"})],
        [("read_db", {"table": "orders"})],
        [("read_db", {"table": "orders"})],
        [("get_weather", {"city": "Paris"})],
    ]
    agent = Agent(scripted(rounds, seen), toolsets=[toolset(th.Session(world.tools()))])
    result = await agent.run("Weather in Paris?")
    assert result.output == "done"  # the closed tool did not end the run
    outcomes = [parts[0][0] for parts in seen[1:]]
    got = [parts[0][1] for parts in seen[1:]]
    # fixable: a retry; the others, as they are; success at last
    assert outcomes == ["retried", "failed", "failed", "failed", "success"]
    assert got[0] == (
        "[error] get_weather: not_found. no city named Pariss. Not transient: the same call "
        "will fail the same way. Call get_weather with the city's correct name."
    )
    assert got[1].startswith("[error] read_db: ")
    assert got[1].endswith("is now closed: do not call it again. Continue without it, or "
                           "tell the user what you could not do.")
    assert DSN not in str(seen)
    assert "hunter2" not in str(seen)
    notice = (
        "[error] read_db: unavailable. read_db was closed after 1 failure in this "
        "conversation; this call did not run. Continue without it, or tell the user what "
        "you could not do."
    )
    assert got[2] == notice
    assert got[3] == notice
    assert got[4] == "21C, clear"
    assert world.ran == ["get_weather:Pariss", "read_db:orders", "get_weather:Paris",
                         "get_weather:Paris"]


def test_sync_run_and_the_sessions_definitions() -> None:
    world = World(blips=0)
    seen: list[list[tuple[str, str]]] = []
    defined: list[Any] = []
    session = th.Session(world.tools())
    model = scripted([[("get_weather", {"city": "Paris"})]], seen)
    inner = model.function

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        defined.extend(info.function_tools)
        assert inner is not None
        return inner(messages, info)  # type: ignore[return-value]

    agent = Agent(FunctionModel(respond), toolsets=[toolset(session)])
    assert agent.run_sync("q").output == "done"
    assert seen[1] == [("success", "21C, clear")]
    first = {t.name: t.parameters_json_schema for t in defined[:2]}
    assert first == {d["function"]["name"]: d["function"]["parameters"]
                     for d in session.schemas("openai_chat")}


async def test_turns_of_several_calls() -> None:
    """Two calls at once: one failing, one succeeding; two failing of a tool whose cap is
    one. pydantic-ai runs a turn's calls at once; each counts once, the cap holds, and the
    closed tool does not end the run."""
    world = World(blips=0)
    seen: list[list[tuple[str, str]]] = []
    session = th.Session(world.tools())
    rounds: list[Calls] = [list(calls) for calls in MULTI]
    agent = Agent(scripted(rounds, seen), toolsets=[toolset(session)])
    assert (await agent.run("q")).output == "done"
    received = [[(outcome != "success", text) for outcome, text in turn] for turn in seen[1:]]
    check_multi(received, world, session)
    assert [outcome for outcome, _ in seen[1]] == ["retried", "success"]


@pytest.mark.parametrize("arguments", ['{"city": ', "[1, 2]", '"Paris"', "{'city': 'Paris'}"])
async def test_arguments_that_are_not_an_object_reach_the_session(arguments: str) -> None:
    """Arguments the model did not finish, or that are not a JSON object: the Session
    counts and answers them (the line, as a retry), closes the tool at its cap, and the run
    goes on; nothing ran."""
    world = World(blips=0)
    seen: list[list[tuple[str, str]]] = []
    session = th.Session(world.tools())
    rounds: list[Calls] = [[("get_weather", arguments)]] * 3
    agent = Agent(scripted(rounds, seen), toolsets=[toolset(session)])
    assert (await agent.run("q")).output == "done"
    got = [parts[0] for parts in seen[1:]]
    assert [outcome for outcome, _ in got] == ["retried", "failed", "failed"]
    assert got[0][1].startswith("[error] get_weather: bad_request. ")
    assert "is now closed" in got[1][1]
    assert got[2][1] == notice("get_weather", 2)
    assert session.stats()["failures"] == {"get_weather": 2}
    assert world.ran == []


async def test_the_session_validates_the_arguments() -> None:
    """A wrong type is the Session's line (pydantic-ai's own validation no longer answers
    first); JSON text that is an object runs."""
    world = World(blips=0)
    seen: list[list[tuple[str, str]]] = []
    session = th.Session(world.tools())
    rounds: list[Calls] = [[("get_weather", {"city": 3})],
                           [("get_weather", '{"city": "Paris"}')]]
    agent = Agent(scripted(rounds, seen), toolsets=[toolset(session)])
    assert (await agent.run("q")).output == "done"
    assert seen[1][0][0] == "retried"
    assert seen[1][0][1].startswith("[error] get_weather: bad_request. ")
    assert seen[2] == [("success", "21C, clear")]
    assert world.ran == ["get_weather:Paris"]


async def test_an_error_for_you_is_raised_as_it_is() -> None:
    """pydantic-ai lets a tool's other exceptions through: the developer's UsageError ends
    the run as it is, never sent to the model."""
    seen: list[list[tuple[str, str]]] = []
    session = th.Session(World().tools())
    session.close()
    agent = Agent(scripted([[("get_weather", {"city": "Paris"})]], seen),
                  toolsets=[toolset(session)])
    with pytest.raises(th.UsageError, match="closed"):
        await agent.run("q")
    assert len(seen) == 1


async def test_a_turn_cut_by_the_token_limit_runs_nothing() -> None:
    """A reply whose ``finish_reason`` is ``"length"`` runs none of its calls, counts none,
    and the run goes on with each call told it did not run."""
    world = World(blips=0)
    session = th.Session(world.tools())
    seen: list[list[tuple[str, str]]] = []

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        last = messages[-1]
        assert isinstance(last, ModelRequest)
        seen.append([(part.outcome, part.model_response_str(wrap_if_error=False))
                     for part in last.parts if isinstance(part, ToolReturnPart)])
        if len(seen) > 1:
            return ModelResponse(parts=[TextPart("done")])
        return ModelResponse(parts=[ToolCallPart("read_db", {"table": "x"}, tool_call_id="c1"),
                                    ToolCallPart("get_weather", '{"city": "Par"}',
                                                 tool_call_id="c2")],
                             finish_reason="length")

    agent = Agent(FunctionModel(respond), toolsets=[toolset(session)])
    result = await agent.run("q")
    assert result.output == "done"
    assert world.ran == [] and session.stats()["calls"] == 0
    assert session.stats()["failures"] == {}
    assert [text for _, text in seen[1]] == [
        cut_turn_line("read_db"), cut_turn_line("get_weather")
    ]
    assert {outcome for outcome, _ in seen[1]} == {"failed"}
