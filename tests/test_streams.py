"""What a streaming user has in hand goes straight into ``handle``/``ahandle``: the stream
helpers, a ``stream=True`` stream, the events read from one, or the final object; for
every API, sync and async, against the scripted server with the real SDK clients. A stream
that ended before its turn did never runs anything."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import anthropic
import openai
import pytest

import toolhygiene as th
from toolhygiene.formats import check
from toolhygiene.testing import ScriptedServer, model_turn, stream_events

FIND = ("find_orders", {"customer": "C-1"})
START: list[Any] = [{"role": "user", "content": "What did C-1 order?"}]


def shop() -> tuple[list[dict[str, Any]], th.Tool[Any, Any]]:
    ran: list[dict[str, Any]] = []

    @th.tool
    def find_orders(customer: str) -> list[str]:
        """Orders of a customer."""
        ran.append({"customer": customer})
        return ["ORD-1"]

    return ran, find_orders


def _anthropic(url: str) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=url, api_key="t", max_retries=0)


def _openai(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=url + "/v1", api_key="t", max_retries=0)


# Each: (format, how the user got the turn) -> what is passed to handle().
def anthropic_helper(url: str, tools: Any) -> Any:
    manager = _anthropic(url).messages.stream(model="m", max_tokens=50, messages=START,
                                              tools=tools)
    return manager.__enter__()  # the MessageStream itself, not yet read


def anthropic_final(url: str, tools: Any) -> Any:
    with _anthropic(url).messages.stream(model="m", max_tokens=50, messages=START,
                                         tools=tools) as stream:
        return stream.get_final_message()


def anthropic_raw(url: str, tools: Any) -> Any:
    return _anthropic(url).messages.create(model="m", max_tokens=50, messages=START,
                                           tools=tools, stream=True)


def anthropic_events(url: str, tools: Any) -> Any:
    return list(anthropic_raw(url, tools))  # read (and printed) by the user first


def chat_raw(url: str, tools: Any) -> Any:
    return _openai(url).chat.completions.create(model="m", messages=START, tools=tools,
                                                stream=True)


def chat_chunks(url: str, tools: Any) -> Any:
    return list(chat_raw(url, tools))


def chat_helper(url: str, tools: Any) -> Any:
    return _openai(url).chat.completions.stream(model="m", messages=START,
                                                tools=tools).__enter__()


def chat_final(url: str, tools: Any) -> Any:
    with _openai(url).chat.completions.stream(model="m", messages=START,
                                              tools=tools) as stream:
        return stream.get_final_completion()


def responses_raw(url: str, tools: Any) -> Any:
    return _openai(url).responses.create(model="m", input=START, tools=tools, stream=True)


def responses_events(url: str, tools: Any) -> Any:
    return list(responses_raw(url, tools))


def responses_helper(url: str, tools: Any) -> Any:
    return _openai(url).responses.stream(model="m", input=START, tools=tools).__enter__()


def responses_final(url: str, tools: Any) -> Any:
    with _openai(url).responses.stream(model="m", input=START, tools=tools) as stream:
        return stream.get_final_response()


SYNC: list[tuple[str, Callable[[str, Any], Any]]] = [
    ("anthropic", anthropic_helper), ("anthropic", anthropic_final),
    ("anthropic", anthropic_raw), ("anthropic", anthropic_events),
    ("openai_chat", chat_raw), ("openai_chat", chat_chunks),
    ("openai_chat", chat_helper), ("openai_chat", chat_final),
    ("openai_responses", responses_raw), ("openai_responses", responses_events),
    ("openai_responses", responses_helper), ("openai_responses", responses_final),
]


@pytest.mark.parametrize(("fmt", "how"), SYNC, ids=[h.__name__ for _, h in SYNC])
def test_every_streamed_form_is_handled(server: ScriptedServer, fmt: str,
                                        how: Callable[[str, Any], Any]) -> None:
    ran, tool = shop()
    server.push(200, events=stream_events(fmt, model_turn(fmt, [FIND])))
    session, messages = th.Session([tool]), list(START)
    step = session.handle(how(server.url, session.schemas(fmt)), messages)  # type: ignore[arg-type]
    assert step is th.Step.TOOLS
    assert ran == [{"customer": "C-1"}]
    check(messages, fmt)
    assert "ORD-1" in json.dumps(messages)


CUTTABLE = [(f, h) for f, h in SYNC if h is not responses_final]


@pytest.mark.parametrize(("fmt", "how"), CUTTABLE, ids=[h.__name__ for _, h in CUTTABLE])
def test_a_streamed_cut_turn_never_runs(server: ScriptedServer, fmt: str,
                                        how: Callable[[str, Any], Any]) -> None:
    ran, tool = shop()
    turn = model_turn(fmt, [FIND], ending="truncated")
    server.push(200, events=stream_events(fmt, turn, cut_to=len('{"customer": "C')))
    session, messages = th.Session([tool]), list(START)
    try:
        what = how(server.url, session.schemas(fmt))  # type: ignore[arg-type]
    except openai.LengthFinishReasonError as cut:  # the chat helper's own refusal
        what = cut.completion
    assert session.handle(what, messages) is th.Step.TRUNCATED
    assert ran == [] and messages == START


def test_a_cut_responses_stream_read_out_by_the_helper_is_refused(
        server: ScriptedServer) -> None:
    """The SDK's get_final_response() raises on a cut turn (no response.completed): the
    recipe passes the helper itself; a helper already read out is a UsageError."""
    ran, tool = shop()
    turn = model_turn("openai_responses", [FIND], ending="truncated")
    server.push(200, events=stream_events("openai_responses", turn, cut_to=5))
    with _openai(server.url).responses.stream(model="m", input=START) as stream:
        with pytest.raises(RuntimeError, match=r"response\.completed"):
            stream.get_final_response()
        with pytest.raises(th.UsageError, match="holds no finished turn"):
            th.Session([tool]).handle(stream, list(START))
    assert ran == []


def test_async_streams_and_helpers(server: ScriptedServer) -> None:
    ran, tool = shop()

    async def run() -> list[th.Step]:
        steps = []
        aclient = anthropic.AsyncAnthropic(base_url=server.url, api_key="t", max_retries=0)
        oclient = openai.AsyncOpenAI(base_url=server.url + "/v1", api_key="t",
                                     max_retries=0)
        for fmt in ("anthropic", "openai_chat", "openai_responses"):
            for helper in (False, True):
                server.push(200, events=stream_events(fmt, model_turn(fmt, [FIND])))
                session = th.Session([tool])
                tools: Any = session.schemas(fmt)
                messages: list[Any] = list(START)
                if fmt == "anthropic" and helper:
                    async with aclient.messages.stream(model="m", max_tokens=9,
                                                       messages=START, tools=tools) as s:
                        steps.append(await session.ahandle(s, messages))
                elif fmt == "anthropic":
                    raw: Any = await aclient.messages.create(model="m", max_tokens=9,
                                                        messages=START, tools=tools,
                                                        stream=True)
                    steps.append(await session.ahandle(raw, messages))
                elif fmt == "openai_chat" and helper:
                    async with oclient.chat.completions.stream(model="m", messages=START,
                                                               tools=tools) as s:
                        steps.append(await session.ahandle(s, messages))
                elif fmt == "openai_chat":
                    raw = await oclient.chat.completions.create(
                        model="m", messages=START, tools=tools, stream=True)
                    steps.append(await session.ahandle(raw, messages))
                elif helper:
                    async with oclient.responses.stream(model="m", input=START,
                                                        tools=tools) as s:
                        steps.append(await session.ahandle(s, messages))
                else:
                    raw = await oclient.responses.create(model="m", input=START,
                                                         tools=tools, stream=True)
                    steps.append(await session.ahandle(raw, messages))
                check(messages, fmt)
        return steps

    assert asyncio.run(run()) == [th.Step.TOOLS] * 6
    assert len(ran) == 6


def test_an_async_stream_in_sync_handle_is_a_usage_error(server: ScriptedServer) -> None:
    server.push(200, events=stream_events("openai_chat", model_turn("openai_chat", [FIND])))
    ran, tool = shop()

    async def run() -> None:
        client = openai.AsyncOpenAI(base_url=server.url + "/v1", api_key="t", max_retries=0)
        raw: Any = await client.chat.completions.create(model="m", messages=START, stream=True)
        with pytest.raises(th.UsageError, match="ahandle"):
            th.Session([tool]).handle(raw, list(START))
        await raw.close()

    asyncio.run(run())
    assert ran == []


@pytest.mark.parametrize("fmt", ["anthropic", "openai_chat", "openai_responses"])
def test_events_of_a_stream_that_stopped_early_are_refused(fmt: str) -> None:
    ran, tool = shop()
    events = [data for _, data in stream_events(fmt, model_turn(fmt, [FIND]))]
    stopped = events[: len(events) // 2]
    with pytest.raises(th.UsageError, match="stream ended before the turn finished"):
        th.Session([tool]).handle(stopped, list(START))
    assert ran == []


def test_a_read_out_stream_and_foreign_lists_are_refused() -> None:
    session = th.Session([shop()[1]])
    with pytest.raises(th.UsageError, match="holds no events"):
        session.handle([], list(START))
    with pytest.raises(th.UsageError, match="cannot tell what stream"):
        session.handle([{"type": "something"}], list(START))


def test_unfinished_objects_are_refused() -> None:
    session = th.Session([shop()[1]])
    snapshot = model_turn("anthropic", [FIND])
    snapshot["stop_reason"] = None  # a stream's snapshot, mid-way
    with pytest.raises(th.UsageError, match="no stop_reason"):
        session.handle(snapshot, list(START))
    chunkless = model_turn("openai_chat", [FIND])
    chunkless["choices"][0]["finish_reason"] = None
    with pytest.raises(th.UsageError, match="no finish_reason"):
        session.handle(chunkless, list(START))


# -- thinking blocks and reasoning items ------------------------------------------------

THINKING = {"type": "thinking", "thinking": "The user wants C-1's orders; look them up.",
            "signature": "EqQBCkYIBxgCKkD+sig/With==Padding"}
REASONING = {"type": "reasoning", "id": "rs_1", "summary": [],
             "encrypted_content": "gAAAAABoEncrypted=="}


@pytest.mark.parametrize("streamed", [False, True])
def test_thinking_blocks_go_back_byte_for_byte(server: ScriptedServer, streamed: bool) -> None:
    turn = model_turn("anthropic", [FIND])
    turn["content"].insert(0, dict(THINKING))
    if streamed:
        server.push(200, events=stream_events("anthropic", turn))
    else:
        server.push(200, turn)
    server.push(200, model_turn("anthropic", [], "C-1 ordered ORD-1."))
    client = _anthropic(server.url)
    session, messages = th.Session([shop()[1]]), list(START)
    if streamed:
        with client.messages.stream(model="m", max_tokens=50, messages=messages) as stream:
            session.handle(stream, messages)
    else:
        session.handle(client.messages.create(model="m", max_tokens=50, messages=messages),
                       messages)
    client.messages.create(model="m", max_tokens=50, messages=messages)
    sent = server.requests[-1].body["messages"]
    assert sent[1]["content"][0] == THINKING
    check(sent, "anthropic")


@pytest.mark.parametrize("clearing", ["remove", "stub", "append_only"])
def test_reasoning_items_with_encrypted_content_are_passed_back(
        server: ScriptedServer, clearing: str) -> None:
    calls = [0]

    @th.tool
    def find_orders(customer: str) -> list[str]:
        """Orders of a customer."""
        calls[0] += 1
        if calls[0] == 1:
            raise th.ToolError("the order service is down", retryable=False)
        return ["ORD-1"]

    for _ in range(2):
        turn = model_turn("openai_responses", [FIND])
        turn["output"].insert(0, dict(REASONING, id=f"rs_{len(server.replies)}"))
        server.push(200, turn)
    server.push(200, model_turn("openai_responses", [], "Done."))
    client = _openai(server.url)
    session = th.Session([find_orders], clearing=clearing)  # type: ignore[arg-type]
    messages: list[Any] = list(START)
    while session.handle(client.responses.create(model="m", input=messages), messages):
        check(messages, "openai_responses")
    sent = server.requests[-1].body["input"]
    reasoning = [i for i in sent if i.get("type") == "reasoning"]
    assert [r["encrypted_content"] for r in reasoning] == [REASONING["encrypted_content"]] * 2
    first_output = next(i for i in sent if i.get("type") == "function_call_output")
    if clearing == "append_only":  # nothing before the reasoning is edited
        assert first_output["output"].startswith("[error] find_orders")
    else:  # a round with reasoning is never removed whole: the result shrinks
        assert first_output["output"] == th.formats.STUB
