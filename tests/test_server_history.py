"""Conversations the server holds (``history="server"``), with the real SDK clients against
``HoldingServer``, which keeps threads, previous responses and conversations the way the
APIs do (and rejects what they reject). For each mode: a failure, a recovery, the honest
clearing, every request sent, and what the server holds at the end."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import anthropic
import openai
import pytest

import toolhygiene as th
from holding import THREADS_BETA, HoldingServer
from toolhygiene.formats import Format, check
from toolhygiene.testing import model_turn

USER: Any = {"role": "user", "content": "Where is order ORD-1?"}
ERROR = "[error] lookup: upstream. the order service is down."
KEPT = "[recovered] lookup succeeded after 1 failed call."


@pytest.fixture
def holding() -> Iterator[HoldingServer]:
    server = HoldingServer()
    yield server
    server.stop()


def flaky() -> th.Tool[Any, Any]:
    """A lookup that fails once, then answers."""
    runs: list[str] = []

    @th.tool(retries=0)
    def lookup(order_id: str) -> str:
        """Find an order."""
        runs.append(order_id)
        if len(runs) == 1:
            raise th.ToolError("the order service is down", retryable=False,
                               category="upstream")
        return f"{order_id}: shipped"

    return lookup


def script(server: HoldingServer, fmt: str) -> None:
    """Two calls of lookup (the first fails), then the answer."""
    server.push(200, model_turn(fmt, [("lookup", {"order_id": "ORD-1"})]))
    server.push(200, model_turn(fmt, [("lookup", {"order_id": "ORD-1"})]))
    server.push(200, model_turn(fmt, [], "ORD-1 has shipped."))


def openai_client(server: HoldingServer) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.url + "/v1", api_key="t", max_retries=0)


def bodies(server: HoldingServer, path: str) -> list[dict[str, Any]]:
    return [r.body for r in server.requests if r.path.split("?")[0] == path]


def outputs(items: list[dict[str, Any]]) -> list[str]:
    return [i["output"] for i in items if i.get("type") == "function_call_output"]


# -- OpenAI Responses with previous_response_id ------------------------------------------


def test_previous_response_id_sends_only_outputs_and_never_claims_a_removal(
        holding: HoldingServer) -> None:
    script(holding, "openai_responses")
    client = openai_client(holding)
    session = th.Session([flaky()], history="server")
    tools: Any = session.schemas("openai_responses")
    response = client.responses.create(model="m", tools=tools, input=[USER])
    while True:
        items: list[Any] = []
        if not session.handle(response, items):
            break
        response = client.responses.create(model="m", tools=tools, input=items,
                                            previous_response_id=response.id)
    assert holding.rejected == []
    sent = bodies(holding, "/v1/responses")
    assert [b.get("previous_response_id") for b in sent][1:] == list(holding.responses)[:2]
    assert sent[0]["input"] == [USER]
    for body in sent[1:]:  # only outputs: never the model's own items
        assert {i["type"] for i in body["input"]} == {"function_call_output"}
    assert outputs(sent[1]["input"])[0].startswith(ERROR)
    assert outputs(sent[2]["input"]) == ["ORD-1: shipped\n\n" + KEPT]
    text = json.dumps(sent)
    assert "removed" not in text and "[error cleared]" not in text
    held = holding.responses[response.id]  # the server keeps the error: nothing claims not
    assert [i.get("type") for i in held] == [
        "message", "function_call", "function_call_output", "function_call",
        "function_call_output", "message"]
    assert outputs(held)[0].startswith(ERROR)
    check(held, "openai_responses")


def test_the_readme_loop_in_client_mode_is_a_usage_error_not_a_400(
        holding: HoldingServer) -> None:
    holding.push(200, model_turn("openai_responses", [("lookup", {"order_id": "ORD-1"})]))
    holding.push(200, model_turn("openai_responses", [("lookup", {"order_id": "ORD-1"})]))
    client, lookup = openai_client(holding), flaky()
    session = th.Session([lookup])
    messages: list[Any] = [USER]
    first = client.responses.create(model="m", input=messages)
    assert session.handle(first, messages)
    only_outputs = [m for m in messages if m.get("type") == "function_call_output"]
    second = client.responses.create(model="m", input=only_outputs,
                                     previous_response_id=first.id)
    before = list(messages)
    with pytest.raises(th.UsageError, match="history='server'"):
        session.handle(second, messages)
    assert messages == before and session.stats()["calls"] == 1  # nothing ran
    assert holding.rejected == []


def test_a_list_reused_in_server_mode_is_refused_before_the_api_sees_it(
        holding: HoldingServer) -> None:
    script(holding, "openai_responses")
    client = openai_client(holding)
    session = th.Session([flaky()], history="server")
    items: list[Any] = [USER]
    response = client.responses.create(model="m", input=items)
    session.handle(response, items)
    response = client.responses.create(model="m", input=items[1:],
                                       previous_response_id=response.id)
    assert [i["type"] for i in items[1:]] == ["function_call_output"]
    with pytest.raises(th.UsageError, match="still holds the output"):
        session.handle(response, items)  # the same list: its output would go twice
    other = model_turn("openai_responses", [("lookup", {"order_id": "X"})])
    other["previous_response_id"] = "resp_elsewhere"
    with pytest.raises(th.UsageError, match="latest response"):
        session.handle(other, [])


def test_a_client_style_list_holding_the_first_call_is_refused_in_server_mode(
        holding: HoldingServer) -> None:
    script(holding, "openai_responses")
    client = openai_client(holding)
    session = th.Session([flaky()], history="server")
    response = client.responses.create(model="m", input=[USER])
    call_id = response.output[0].model_dump()["call_id"]
    items: list[Any] = [USER, *(o.model_dump() for o in response.output)]
    before = list(items)
    with pytest.raises(th.UsageError, match=f"holds the model's call '{call_id}'"):
        session.handle(response, items)  # the first call: no earlier call to compare with
    assert items == before and session.stats()["calls"] == 0  # nothing ran
    fresh: list[Any] = []
    assert session.handle(response, fresh)  # a new list is served as usual
    client.responses.create(model="m", input=fresh, previous_response_id=response.id)
    assert holding.rejected == []


@pytest.mark.parametrize("fmt", ["anthropic", "openai_responses"])
def test_a_list_holding_the_turn_being_handled_is_refused(fmt: Format) -> None:
    session = th.Session([flaky()], history="server")
    turn = model_turn(fmt, [("lookup", {"order_id": "1"}), ("lookup", {"order_id": "2"})])
    held = turn["output"] if fmt == "openai_responses" else [
        {"role": "assistant", "content": turn["content"]}]
    with pytest.raises(th.UsageError, match="which the server already holds"):
        session.handle(turn, [USER, *held], format=fmt)
    assert session.stats()["calls"] == 0


def test_reseed_from_the_mirror_drops_the_recovered_error(holding: HoldingServer) -> None:
    script(holding, "openai_responses")
    client = openai_client(holding)
    session = th.Session([flaky()], history="server", clear_at_least="5 tokens")
    mirror: list[Any] = [USER]
    response = client.responses.create(model="m", input=mirror)
    reseeds = 0
    while True:
        items: list[Any] = []
        if not session.handle(response, items, mirror=mirror):
            break
        if session.server.due:
            response = client.responses.create(model="m", input=mirror)  # a new chain
            session.server.reseeded()
            reseeds += 1
        else:
            response = client.responses.create(model="m", input=items,
                                               previous_response_id=response.id)
    assert reseeds == 1 and holding.rejected == []
    reseed = bodies(holding, "/v1/responses")[2]
    assert "previous_response_id" not in reseed
    assert [i.get("type", "message") for i in reseed["input"]] == [
        "message", "function_call", "function_call_output"]  # the failed round is gone
    assert outputs(reseed["input"]) == ["ORD-1: shipped\n\n" + KEPT]
    held = holding.responses[response.id]
    assert not any(ERROR in json.dumps(i) for i in held)
    assert session.server.saved == 0 and not session.server.due


def test_below_the_threshold_no_reseed_is_due(holding: HoldingServer) -> None:
    script(holding, "openai_responses")
    client = openai_client(holding)
    session = th.Session([flaky()], history="server", clear_at_least=10_000)
    mirror: list[Any] = [USER]
    response = client.responses.create(model="m", input=mirror)
    while True:
        items: list[Any] = []
        if not session.handle(response, items, mirror=mirror):
            break
        assert not session.server.due
        response = client.responses.create(model="m", input=items,
                                           previous_response_id=response.id)
    assert 0 < session.server.saved < 10_000
    assert ERROR not in json.dumps(mirror)  # the mirror is local: cleared at once
    check(mirror, "openai_responses")


# -- OpenAI conversations ---------------------------------------------------------------


def test_conversation_items_are_appended_and_recovered_ones_deleted_on_request(
        holding: HoldingServer) -> None:
    script(holding, "openai_responses")
    client = openai_client(holding)
    conversation = client.conversations.create()
    session = th.Session([flaky()], history="server")
    response = client.responses.create(model="m", input=[USER], conversation=conversation.id)
    while True:
        items: list[Any] = []
        if not session.handle(response, items):
            break
        response = client.responses.create(model="m", input=items,
                                           conversation=conversation.id)
    assert holding.rejected == []
    held = holding.conversations[conversation.id]
    assert outputs(held)[0].startswith(ERROR)  # held until deleted
    assert session.server.deletable
    with th.testing.capture() as seen:
        deleted = session.server.delete_recovered(client)
    assert deleted == 2
    assert seen.named("conversation.items_deleted") == [
        {"event": "conversation.items_deleted", "session.id": session.id, "log_level": "info",
         "conversation": conversation.id, "items": 2}]
    deletes = [r for r in holding.requests if r.method == "DELETE"]
    assert len(deletes) == 2
    held = holding.conversations[conversation.id]
    assert [i["type"] for i in held] == [
        "message", "function_call", "function_call_output", "message"]
    assert outputs(held) == ["ORD-1: shipped\n\n" + KEPT]
    check(held, "openai_responses")
    assert session.server.delete_recovered(client) == 0  # nothing left to delete


def test_delete_recovered_needs_a_conversation() -> None:
    session = th.Session([flaky()], history="server")
    with pytest.raises(th.UsageError, match="needs an OpenAI conversation"):
        session.server.delete_recovered(None)


def test_async_conversation_deletion(holding: HoldingServer) -> None:
    script(holding, "openai_responses")

    async def run() -> int:
        client = openai.AsyncOpenAI(base_url=holding.url + "/v1", api_key="t", max_retries=0)
        conversation = await client.conversations.create()
        session = th.Session([flaky()], history="server")
        response = await client.responses.create(model="m", input=[USER],
                                                 conversation=conversation.id)
        while True:
            items: list[Any] = []
            if not await session.ahandle(response, items):
                break
            response = await client.responses.create(model="m", input=items,
                                                     conversation=conversation.id)
        return await session.server.adelete_recovered(client)

    assert asyncio.run(run()) == 2
    assert holding.rejected == []


# -- Anthropic message threads ----------------------------------------------------------


def anthropic_client(server: HoldingServer) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=server.url, api_key="t", max_retries=0)


def test_an_sdk_thread_sends_only_the_results(holding: HoldingServer) -> None:
    script(holding, "anthropic")
    client = anthropic_client(holding)
    session = th.Session([flaky()], history="server")
    thread = client.beta.messages.thread(model="m", max_tokens=100,
                                         tools=list[Any](session.schemas("anthropic")))
    reply = thread.send(USER)
    while True:
        items: list[Any] = []
        if not session.handle(reply, items):
            break
        reply = thread.send(*items)
    assert holding.rejected == []
    sent = bodies(holding, "/v1/messages")
    assert sent[0]["thread"] == {"type": "create"} and "tools" in sent[0]
    assert all(THREADS_BETA in r.headers.get("anthropic-beta", "")
               for r in holding.requests)
    for body in sent[1:]:
        assert body["thread"]["type"] == "continue" and "tools" not in body
        assert [m["role"] for m in body["messages"]] == ["user"]  # results only
    first, second = (b["messages"][0]["content"] for b in sent[1:])
    assert first[0]["is_error"] is True and first[0]["content"].startswith(ERROR)
    assert second[0]["content"] == "ORD-1: shipped" and second[1] == {"type": "text",
                                                                        "text": KEPT}
    held = holding.held_thread(reply.id)
    assert [m["role"] for m in held] == ["user", "assistant", "user", "assistant", "user",
                                         "assistant"]
    assert ERROR in json.dumps(held[2])  # the server holds it; nothing claimed otherwise
    assert "removed" not in json.dumps(held)


def test_a_plain_thread_request_and_a_continue_after_an_edit(holding: HoldingServer) -> None:
    script(holding, "anthropic")
    client = anthropic_client(holding)
    session = th.Session([flaky()], history="server", clear_at_least=1)
    mirror: list[Any] = [USER]
    tools: Any = session.schemas("anthropic")
    reply = client.beta.messages.create(model="m", max_tokens=100, tools=tools,
                                        messages=mirror, thread={"type": "create"},
                                        betas=[THREADS_BETA])
    first_id = reply.id
    items: list[Any] = []
    session.handle(reply, items, mirror=mirror)
    reply = client.beta.messages.create(
        model="m", max_tokens=100, messages=items, betas=[THREADS_BETA],
        thread={"type": "continue", "previous_message_id": reply.id})
    items = []
    session.handle(reply, items, mirror=mirror)
    assert session.server.due
    # Continuing from the first reply again (as if the history were edited) is refused.
    with pytest.raises(anthropic.BadRequestError, match="already been continued"):
        client.beta.messages.create(
            model="m", max_tokens=100, messages=mirror[1:], betas=[THREADS_BETA],
            thread={"type": "continue", "previous_message_id": first_id})
    # The honest way: a new thread from the cleared mirror.
    reply = client.beta.messages.create(model="m", max_tokens=100, tools=tools,
                                        messages=mirror, thread={"type": "create"},
                                        betas=[THREADS_BETA])
    session.server.reseeded()
    assert not session.handle(reply, [], mirror=mirror)
    held = holding.held_thread(reply.id)
    assert ERROR not in json.dumps(held)
    assert [m["role"] for m in held] == ["user", "assistant", "user", "assistant"]
    check(mirror, "anthropic")


def test_a_mirror_in_client_mode_is_refused_before_anything_runs() -> None:
    session = th.Session([flaky()])
    with pytest.raises(th.UsageError, match="mirror= is for history='server'"):
        session.handle(model_turn("anthropic", [("lookup", {"order_id": "1"})]), [USER],
                       mirror=[])
    assert session.stats()["calls"] == 0


def test_chat_completions_cannot_be_server_held() -> None:
    session = th.Session([flaky()], history="server")
    with pytest.raises(th.UsageError, match="Chat Completions holds no conversation"):
        session.handle(model_turn("openai_chat", [("lookup", {"order_id": "1"})]), [])


@pytest.mark.parametrize(("settings", "named"), [
    ({"history": "both"}, "history"),
    ({"clear_at_least": -1}, "clear_at_least"),
    ({"clear_at_least": "many tokens"}, "clear_at_least"),
    ({"clear_at_least": True}, "clear_at_least"),
])
def test_history_settings_are_checked(settings: dict[str, Any], named: str) -> None:
    with pytest.raises(th.UsageError, match=f"^{named} must"):
        th.Session([], **settings)


def test_clear_at_least_in_tokens_is_four_characters_each() -> None:
    assert th.Session([], clear_at_least="500 tokens").clear_at_least == 2000
    assert th.Session([], clear_at_least="300 chars").clear_at_least == 300


def test_a_paused_thread_turn_sends_nothing_and_continues(holding: HoldingServer) -> None:
    paused = model_turn("anthropic", [], ending="paused")
    paused["content"] = [{"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
                          "input": {"query": "ORD-1"}}]
    holding.push(200, paused)
    holding.push(200, model_turn("anthropic", [], "ORD-1 has shipped."))
    client = anthropic_client(holding)
    session = th.Session([flaky()], history="server")
    thread = client.beta.messages.thread(model="m", max_tokens=100)
    items: list[Any] = []
    assert session.handle(thread.send(USER), items) is th.Step.PAUSED
    assert items == []  # the server holds the paused turn
    reply = thread.send(*items)
    assert session.handle(reply, []) is th.Step.DONE
    assert holding.rejected == []
    last = bodies(holding, "/v1/messages")[-1]
    assert last["thread"]["type"] == "continue" and last["messages"] == []
    assert [m["role"] for m in holding.held_thread(reply.id)] == ["user", "assistant",
                                                                  "assistant"]
