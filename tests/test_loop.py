"""The hand-rolled loop with real SDK clients: what they send is always valid, errors
are cleared once the agent recovers, the cached prefix is untouched."""

from __future__ import annotations

import asyncio
import copy
import threading
from functools import partial
from typing import Any

import anthropic
import openai
import pytest

import toolhygiene as th
from toolhygiene.formats import STUB, check
from toolhygiene.testing import ScriptedServer, model_turn

FORMATS = ["anthropic", "openai_chat", "openai_responses"]


@th.tool
def get_weather(city: str) -> str:
    """Current weather in a city."""
    if city != "Paris":
        raise th.ToolError(f"no city named {city!r}", retryable=False, category="not_found",
                           instead="check the spelling of the city")
    return "21C, clear"


@th.tool
def get_time(city: str) -> str:
    """Local time in a city."""
    return "14:05"


class Client:
    """One SDK client of one format; ``send`` makes the real request and returns the
    SDK's own response object."""

    strict: bool | None = None  # what ``send`` asks ``session.schemas`` for

    def __init__(self, fmt: str, url: str, session: th.Session) -> None:
        self.fmt, self.session = fmt, session
        if fmt == "anthropic":
            self.sdk: Any = anthropic.Anthropic(base_url=url, api_key="test", max_retries=0)
        else:
            self.sdk = openai.OpenAI(base_url=url + "/v1", api_key="test", max_retries=0)

    def send(self, messages: list[Any]) -> Any:
        tools = self.session.schemas(self.fmt, strict=self.strict)  # type: ignore[arg-type]
        if self.fmt == "anthropic":
            return self.sdk.messages.create(model="m", max_tokens=100, tools=tools,
                                            messages=messages)
        if self.fmt == "openai_chat":
            return self.sdk.chat.completions.create(model="m", tools=tools, messages=messages)
        return self.sdk.responses.create(model="m", tools=tools, input=messages)


class AsyncClient(Client):
    def __init__(self, fmt: str, url: str, session: th.Session) -> None:
        self.fmt, self.session = fmt, session
        if fmt == "anthropic":
            self.sdk = anthropic.AsyncAnthropic(base_url=url, api_key="test", max_retries=0)
        else:
            self.sdk = openai.AsyncOpenAI(base_url=url + "/v1", api_key="test", max_retries=0)


def sent_messages(server: ScriptedServer, fmt: str) -> list[Any]:
    body = server.requests[-1].body
    sent: list[Any] = body["input"] if fmt == "openai_responses" else body["messages"]
    return sent


def first_user(fmt: str) -> list[dict[str, Any]]:
    return [{"role": "user", "content": "Weather and time in Paris?"}]


def texts(messages: list[Any]) -> str:
    return repr(messages)


def script_design_example(server: ScriptedServer, fmt: str) -> None:
    turn = partial(model_turn, fmt)
    server.push(200, turn([("get_weather", {"city": "Pariss"}), ("get_time", {"city": "Paris"})],
                          text="Let me look both up."))
    server.push(200, turn([("get_weather", {"city": "Pari"})]))
    server.push(200, turn([("get_weather", {"city": "Paris"})]))
    server.push(200, turn([], text="It is 21C and clear, 14:05."))


@pytest.mark.parametrize("fmt", FORMATS)
def test_design_example_with_the_real_sdk(server: ScriptedServer, fmt: str) -> None:
    """DESIGN.md's example: round 1 mixed (stubbed), round 2 all failures (removed),
    round 3 succeeds and carries the [recovered] note; every request the SDK sent is valid."""
    script_design_example(server, fmt)
    session = th.Session([get_weather, get_time], max_failures=3)
    client = Client(fmt, server.url, session)
    messages = first_user(fmt)
    rounds = 0
    while True:
        response = client.send(messages)
        check(sent_messages(server, fmt), fmt)
        going = session.handle(response, messages)
        check(messages, fmt)
        if not going:
            break
        rounds += 1
    assert rounds == 3
    sent = texts(sent_messages(server, fmt))
    assert "Pariss" in sent and "Pari'" not in sent and '"Pari"' not in sent  # round 2 gone
    note = "[recovered] get_weather succeeded after 2 failed calls; those errors were removed."
    assert STUB in sent and note in sent
    assert "no city named" not in sent
    assert "14:05" in sent and "21C, clear" in sent
    assert len(server.requests) == 4


@pytest.mark.parametrize("fmt", FORMATS)
def test_async_clients_and_ahandle(server: ScriptedServer, fmt: str) -> None:
    script_design_example(server, fmt)
    session = th.Session([get_weather, get_time], max_failures=3)

    async def run() -> list[Any]:
        client = AsyncClient(fmt, server.url, session)
        messages = first_user(fmt)
        while True:
            response = await _asend(client, messages)
            check(sent_messages(server, fmt), fmt)
            if not await session.ahandle(response, messages):
                return messages
            check(messages, fmt)

    messages = asyncio.run(run())
    assert "[recovered]" in texts(messages)
    assert "Pari'" not in texts(messages) and '"Pari"' not in texts(messages)


async def _asend(client: AsyncClient, messages: list[Any]) -> Any:
    tools = client.session.schemas(client.fmt)  # type: ignore[arg-type]
    if client.fmt == "anthropic":
        return await client.sdk.messages.create(model="m", max_tokens=100, tools=tools,
                                                messages=messages)
    if client.fmt == "openai_chat":
        return await client.sdk.chat.completions.create(model="m", tools=tools,
                                                         messages=messages)
    return await client.sdk.responses.create(model="m", tools=tools, input=messages)


@pytest.mark.parametrize("fmt", FORMATS)
def test_plain_dicts_with_a_format(fmt: str) -> None:
    turn = partial(model_turn, fmt)
    session = th.Session([get_weather])
    messages = first_user(fmt)
    assert session.handle(turn([("get_weather", {"city": "Lyon"})]), messages, format=fmt)  # type: ignore[arg-type]
    check(messages, fmt)
    assert "no city named 'Lyon'" in texts(messages)
    assert not session.handle(turn([], text="done"), messages, format=fmt)  # type: ignore[arg-type]
    check(messages, fmt)


def test_anthropic_failure_shape() -> None:
    session = th.Session([get_weather])
    messages = first_user("anthropic")
    session.handle(partial(model_turn, "anthropic")([("get_weather", {"city": "Lyon"})]), messages)
    result = messages[-1]["content"][0]
    assert result["type"] == "tool_result" and result["is_error"] is True
    assert result["content"].startswith("[error] get_weather: not_found.")


@pytest.mark.parametrize("fmt", FORMATS)
def test_current_round_errors_stay_visible(fmt: str) -> None:
    """A round where the tool both succeeds and fails clears earlier errors, not its own."""
    turn = partial(model_turn, fmt)
    session = th.Session([get_weather, get_time], max_failures=5)
    messages = first_user(fmt)
    session.handle(turn([("get_weather", {"city": "Lyon"})]), messages)
    session.handle(turn([("get_weather", {"city": "Nice"}), ("get_weather", {"city": "Paris"})]),
                   messages)
    check(messages, fmt)
    assert "Lyon" not in texts(messages)  # the all-failure round is gone
    assert "no city named 'Nice'" in texts(messages)  # the current error stays
    assert "get_weather succeeded after 1 failed call; that error was removed." in texts(messages)
    session.handle(turn([("get_weather", {"city": "Paris"})]), messages)
    check(messages, fmt)
    assert "no city named 'Nice'" not in texts(messages)


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_unrelated_success_clears_nothing(fmt: str) -> None:
    """get_time working says nothing about get_weather: its error stays, no note."""
    turn = partial(model_turn, fmt)
    session = th.Session([get_weather, get_time], max_failures=5)
    messages = first_user(fmt)
    session.handle(turn([("get_weather", {"city": "Lyon"})]), messages)
    session.handle(turn([("get_time", {"city": "Paris"})]), messages)
    session.handle(turn([("get_time", {"city": "Paris"}), ("get_time", {"city": "Nice"})]),
                   messages)
    check(messages, fmt)
    assert "no city named 'Lyon'" in texts(messages)
    assert "[recovered]" not in texts(messages) and STUB not in texts(messages)
    assert session.stats()["pending"] == 1


@pytest.mark.parametrize("fmt", FORMATS)
def test_closed_tool_notice_is_never_cleared(fmt: str) -> None:
    turn = partial(model_turn, fmt)
    session = th.Session([get_weather, get_time], max_failures=1)
    messages = first_user(fmt)
    session.handle(turn([("get_weather", {"city": "Lyon"})]), messages)
    session.handle(turn([("get_weather", {"city": "Paris"})]), messages)  # refused: closed
    session.handle(turn([("get_time", {"city": "Paris"})]), messages)
    check(messages, fmt)
    assert "get_weather: unavailable. get_weather was closed after 1 failure" in texts(messages)
    assert "get_weather has failed 1 time in this conversation and is now closed" in texts(messages)


@pytest.mark.parametrize("fmt", FORMATS)
def test_text_beside_failed_calls_keeps_the_round(fmt: str) -> None:
    turn = partial(model_turn, fmt)
    session = th.Session([get_weather, get_time])
    messages = first_user(fmt)
    session.handle(turn([("get_weather", {"city": "Lyon"})], text="Checking Lyon."), messages)
    session.handle(turn([("get_weather", {"city": "Paris"})]), messages)
    check(messages, fmt)
    assert "Checking Lyon." in texts(messages) and STUB in texts(messages)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("clearing", ["stub", "off"])
def test_clearing_modes(fmt: str, clearing: str) -> None:
    turn = partial(model_turn, fmt)
    session = th.Session([get_weather, get_time], clearing=clearing)  # type: ignore[arg-type]
    messages = first_user(fmt)
    session.handle(turn([("get_weather", {"city": "Lyon"})]), messages)
    session.handle(turn([("get_weather", {"city": "Paris"})]), messages)
    check(messages, fmt)
    if clearing == "stub":
        assert "Lyon" in texts(messages) and STUB in texts(messages)
        assert "no city named" not in texts(messages)
    else:
        assert "no city named 'Lyon'" in texts(messages) and STUB not in texts(messages)


@pytest.mark.parametrize("fmt", FORMATS)
def test_prefix_before_the_first_pending_error_is_untouched(fmt: str) -> None:
    """Prompt caching: nothing before the first pending error changes, not even identity."""
    turn = partial(model_turn, fmt)
    session = th.Session([get_weather, get_time])
    messages = first_user(fmt)
    for _ in range(5):
        session.handle(turn([("get_time", {"city": "Paris"})]), messages)
    prefix, snapshot = list(messages), copy.deepcopy(messages)
    session.handle(turn([("get_weather", {"city": "Lyon"})]), messages)
    session.handle(turn([("get_weather", {"city": "Nice"})], text="Trying Nice."), messages)
    session.handle(turn([("get_weather", {"city": "Paris"})]), messages)
    check(messages, fmt)
    assert all(a is b for a, b in zip(prefix, messages[: len(prefix)], strict=True))
    assert messages[: len(prefix)] == snapshot


@pytest.mark.parametrize("fmt", FORMATS)
def test_parallel_calls_run_concurrently(fmt: str) -> None:
    """Both calls must be inside their tool at once to pass the barrier."""
    barrier = threading.Barrier(2, timeout=5)

    @th.tool(retries=0)
    def left() -> str:
        barrier.wait()
        return "L"

    @th.tool(retries=0)
    def right() -> str:
        barrier.wait()
        return "R"

    session = th.Session([left, right])
    messages = first_user(fmt)
    with th.testing.capture() as seen:
        session.handle(model_turn(fmt, [("left", {}), ("right", {})]), messages)
    check(messages, fmt)
    assert sorted(o.value for o in seen.outcomes) == ["L", "R"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_parallel_async_calls_run_concurrently(fmt: str) -> None:
    """Each call waits inside its tool until the other has started: run one after another,
    the first would wait alone and fail (no local retry: ``retries=0``)."""

    async def run() -> list[Any]:
        started = {"L": asyncio.Event(), "R": asyncio.Event()}

        async def meet(me: str, other: str) -> str:
            started[me].set()
            await asyncio.wait_for(started[other].wait(), 5)  # a guard, not a measurement
            return me

        @th.tool(retries=0)
        async def left() -> str:
            return await meet("L", "R")

        @th.tool(retries=0)
        async def right() -> str:
            return await meet("R", "L")

        session = th.Session([left, right])
        messages = first_user(fmt)
        with th.testing.capture() as seen:
            await session.ahandle(model_turn(fmt, [("left", {}), ("right", {})]), messages)
        failed = [o.content for o in seen.outcomes if not o.ok]
        assert failed == [], f"the calls ran one after another: {failed}"
        assert sorted(o.value for o in seen.outcomes) == ["L", "R"]
        return messages

    messages = asyncio.run(run())
    check(messages, fmt)


@pytest.mark.parametrize("fmt", FORMATS)
def test_unknown_tool_error_stays(fmt: str) -> None:
    """No tool of that name can ever succeed, so nothing can say its error recovered."""
    turn = partial(model_turn, fmt)
    session = th.Session([get_time])
    messages = first_user(fmt)
    session.handle(turn([("get_wether", {"city": "Paris"})]), messages)
    assert "Call one of the tools that exist: get_time." in texts(messages)
    session.handle(turn([("get_time", {"city": "Paris"})]), messages)
    check(messages, fmt)
    assert "there is no tool named 'get_wether'" in texts(messages)
    assert "[recovered]" not in texts(messages)


def test_unknown_response_needs_a_format() -> None:
    with pytest.raises(th.UsageError, match="pass format="):
        th.Session([get_time]).handle({"weird": True}, [])


@pytest.mark.parametrize("fmt", FORMATS)
def test_validator_catches_broken_lists(fmt: str) -> None:
    turn = partial(model_turn, fmt)
    session = th.Session([get_time])
    messages = first_user(fmt)
    session.handle(turn([("get_time", {"city": "Paris"})]), messages)
    check(messages, fmt)
    broken = messages[:-1]  # the result goes missing
    with pytest.raises(th.UsageError):
        check(broken, fmt)



@pytest.mark.parametrize("fmt", ["openai_chat", "openai_responses"])
def test_the_note_rides_in_the_result_of_the_tool_that_recovered(fmt: str) -> None:
    turn = partial(model_turn, fmt)
    session = th.Session([get_weather, get_time])
    messages = first_user(fmt)
    session.handle(turn([("get_weather", {"city": "Lyon"})]), messages)
    session.handle(turn([("get_time", {"city": "Paris"}), ("get_weather", {"city": "Paris"})]),
                   messages)
    check(messages, fmt)
    key = "content" if fmt == "openai_chat" else "output"
    time_result, weather_result = (m[key] for m in messages[-2:])
    assert time_result == "14:05"
    assert weather_result == ("21C, clear\n\n[recovered] get_weather succeeded after 1 failed "
                              "call; that error was removed.")
