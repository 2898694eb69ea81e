"""The OpenAI Agents SDK's own runner, with toolhygiene's FunctionTools, against a scripted
Responses server."""

from __future__ import annotations

import json
from typing import Any

import openai
import pytest
from agents import Agent, OpenAIResponsesModel, Runner, set_tracing_disabled

import toolhygiene as th
from integration_tests.tools import DSN, MULTI, ROUNDS, Received, World, check_multi
from toolhygiene.integrations.openai_agents import function_tools
from toolhygiene.testing import ScriptedServer, model_turn

set_tracing_disabled(True)


def script(server: ScriptedServer) -> None:
    for calls in ROUNDS:
        server.push(body=model_turn("openai_responses", calls))
    server.push(body=model_turn("openai_responses", [], text="21C and clear."))


def outputs(server: ScriptedServer) -> list[str]:
    """The output of every call, as the model received it (each request's new items)."""
    seen: dict[str, str] = {}
    for request in server.requests:
        for item in request.body["input"]:
            if isinstance(item, dict) and item.get("type") == "function_call_output":
                seen.setdefault(item["call_id"], item["output"])
    return list(seen.values())


def agent(session: th.Session, server: ScriptedServer) -> Agent[Any]:
    client = openai.AsyncOpenAI(base_url=server.url, api_key="k", max_retries=0)
    model = OpenAIResponsesModel(model="gpt-test", openai_client=client)
    return Agent(name="weather", model=model, tools=function_tools(session))


async def test_the_model_reads_the_line_not_please_try_again(server: ScriptedServer) -> None:
    world = World()
    script(server)
    async with th.Session(world.tools()) as session:
        result = await Runner.run(agent(session, server), "Weather in Paris?")
    assert result.final_output == "21C and clear."
    sent = outputs(server)
    assert sent[0] == (
        "[error] get_weather: not_found. no city named Pariss. Not transient: the same call "
        "will fail the same way. Call get_weather with the city's correct name."
    )
    assert sent[1].startswith("[error] read_db: ")
    assert "hunter2" not in json.dumps([r.body for r in server.requests])
    assert DSN not in sent[1]
    assert sent[2] == (
        "[error] read_db: unavailable. read_db was closed after 1 failure in this "
        "conversation; this call did not run. Continue without it, or tell the user what "
        "you could not do."
    )
    assert sent[3] == "21C, clear"
    assert not any("Please try again" in s for s in sent)
    assert world.ran == ["get_weather:Pariss", "read_db:orders", "get_weather:Paris",
                         "get_weather:Paris"]


async def test_definitions_are_strict_where_they_can_be(server: ScriptedServer) -> None:
    @th.tool
    def free(**options: Any) -> str:
        """Anything goes."""
        return "ok"

    world = World()
    server.push(body=model_turn("openai_responses", [], text="hi"))
    async with th.Session([*world.tools(), free]) as session:
        await Runner.run(agent(session, server), "hi")
        sent = {t["name"]: t for t in server.requests[0].body["tools"]}
        expected = session.tools["get_weather"].schema("openai_responses", strict=True)
    assert sent["get_weather"]["strict"] is True
    assert sent["get_weather"]["parameters"] == expected["parameters"]
    assert sent["free"]["strict"] is False


@pytest.mark.parametrize("arguments", ["{\"city\": ", "[1, 2]"])
async def test_broken_arguments_get_a_line(server: ScriptedServer, arguments: str) -> None:
    """Arguments the model did not finish or that are not an object: a line, nothing ran."""
    world = World()
    turn = model_turn("openai_responses", [("get_weather", {})])
    turn["output"][0]["arguments"] = arguments
    server.push(body=turn)
    server.push(body=model_turn("openai_responses", [], text="sorry"))
    async with th.Session(world.tools()) as session:
        await Runner.run(agent(session, server), "hi")
    (sent,) = outputs(server)
    assert sent.startswith("[error] get_weather: bad_request. ")
    assert world.ran == []


def received(server: ScriptedServer) -> Received:
    """Each turn's outputs as the model received them, in the order of its calls (each
    request carries the whole history: a turn's outputs are the ones new in it)."""
    out: Received = []
    known: set[str] = set()
    for request in server.requests[1:]:
        new = [i for i in request.body["input"] if isinstance(i, dict)
               and i.get("type") == "function_call_output" and i["call_id"] not in known]
        known.update(i["call_id"] for i in new)
        out.append([(i["output"].startswith("[error] "), i["output"]) for i in new])
    return out


async def test_turns_of_several_calls(server: ScriptedServer) -> None:
    """Two calls at once: one failing, one succeeding; two failing of a tool whose cap is
    one. The SDK runs a turn's calls at once; each counts once, the cap holds."""
    world = World(blips=0)
    for calls in MULTI:
        server.push(body=model_turn("openai_responses", calls))
    server.push(body=model_turn("openai_responses", [], text="done"))
    session = th.Session(world.tools())
    result = await Runner.run(agent(session, server), "q")
    assert result.final_output == "done"
    check_multi(received(server), world, session)


async def test_an_error_for_you_is_raised_not_sent(server: ScriptedServer) -> None:
    """The SDK raises what a tool raises as its UserError (an Exception), with the
    developer's UsageError as the cause: the model never reads it."""
    from agents.exceptions import UserError

    server.push(body=model_turn("openai_responses", [("get_weather", {"city": "Paris"})]))
    server.push(body=model_turn("openai_responses", [], text="done"))
    session = th.Session(World().tools())
    session.close()
    with pytest.raises(UserError, match="Session is closed") as raised:
        await Runner.run(agent(session, server), "q")
    assert isinstance(raised.value.__cause__, th.UsageError)
    assert len(server.requests) == 1
