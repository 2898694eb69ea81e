"""Only true words, only finished turns: each case with the real SDK clients against the
scripted server, asserting on what the SDK sent next and on what ran (a counter in
every tool)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import anthropic
import httpx
import openai
import pytest

import toolhygiene as th
from helpers import HUNG
from toolhygiene.formats import check
from toolhygiene.testing import ScriptedServer, model_turn, stream_events

FORMATS = ["anthropic", "openai_chat", "openai_responses"]


class Shop:
    """Tools with side-effect counters: what ran, with which arguments."""

    def __init__(self) -> None:
        self.ran: list[tuple[str, dict[str, Any]]] = []

        @th.tool(idempotent=False)
        def refund(order_id: str, amount_cents: int) -> str:
            """Refund part of an order."""
            self.ran.append(("refund", {"order_id": order_id, "amount_cents": amount_cents}))
            return f"refunded {amount_cents} cents on {order_id}"

        @th.tool
        def update_address(customer: str, address: str) -> str:
            """Change a customer's address."""
            self.ran.append(("update_address", {"customer": customer}))
            raise th.ToolError("the address service rejected the postcode", retryable=False,
                               category="bad_request")

        @th.tool
        def find_orders(customer: str) -> list[str]:
            """Orders of a customer."""
            self.ran.append(("find_orders", {"customer": customer}))
            return ["ORD-1"]

        self.tools = [refund, update_address, find_orders]


def sdk(fmt: str, url: str) -> Any:
    if fmt == "anthropic":
        return anthropic.Anthropic(base_url=url, api_key="test", max_retries=0)
    return openai.OpenAI(base_url=url + "/v1", api_key="test", max_retries=0)


def send(client: Any, fmt: str, session: th.Session, messages: list[Any]) -> Any:
    tools = session.schemas(fmt)  # type: ignore[arg-type]
    if fmt == "anthropic":
        return client.messages.create(model="m", max_tokens=50, tools=tools, messages=messages)
    if fmt == "openai_chat":
        return client.chat.completions.create(model="m", tools=tools, messages=messages)
    return client.responses.create(model="m", tools=tools, input=messages)


def sent(server: ScriptedServer, fmt: str) -> list[Any]:
    body = server.requests[-1].body
    messages: list[Any] = body["input"] if fmt == "openai_responses" else body["messages"]
    return messages


def start() -> list[Any]:
    return [{"role": "user", "content": "Refund 12.99 on ORD-1 and fix my address."}]


# -- 1. an unrelated success resolves nothing ------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_unrelated_success_leaves_the_failure_and_says_nothing(
        server: ScriptedServer, fmt: str) -> None:
    shop = Shop()
    server.push(200, model_turn(fmt, [("update_address", {"customer": "C-1", "address": "x"})]))
    server.push(200, model_turn(fmt, [("find_orders", {"customer": "C-1"})]))
    server.push(200, model_turn(fmt, [], "Done."))
    client, messages = sdk(fmt, server.url), start()
    with th.Session(shop.tools) as session:
        while session.handle(send(client, fmt, session, messages), messages):
            check(messages, fmt)
    last = json.dumps(sent(server, fmt))
    assert "the address service rejected the postcode" in last
    assert "[recovered]" not in last and "[error cleared]" not in last
    assert [name for name, _ in shop.ran] == ["update_address", "find_orders"]


# -- 2. a turn cut by the token limit never runs ---------------------------------------

REFUND = ("refund", {"order_id": "ORD-1", "amount_cents": 1299})
CUT = len('{"order_id": "ORD-1", "amount_cents": 12')  # the arguments, cut mid-number


def _assert_nothing_happened(shop: Shop, session: th.Session, messages: list[Any],
                             step: th.Step) -> None:
    assert step is th.Step.TRUNCATED and not step
    assert shop.ran == []
    assert messages == start()
    stats = session.stats()
    assert stats["calls"] == 0 and stats["failures"] == {}


def test_anthropic_max_tokens_turn_does_not_run(server: ScriptedServer) -> None:
    shop = Shop()
    turn = model_turn("anthropic", [REFUND], ending="truncated")
    turn["content"][-1]["input"] = {"order_id": "ORD-1", "amount_cents": 12}  # what was parsed
    server.push(200, turn)
    session, messages = th.Session(shop.tools), start()
    step = session.handle(send(sdk("anthropic", server.url), "anthropic", session, messages),
                          messages)
    _assert_nothing_happened(shop, session, messages, step)


def test_anthropic_streamed_cut_call_does_not_run(server: ScriptedServer) -> None:
    """Streamed, the SDK's partial parse turns 1299 into 12: it must not reach the tool."""
    shop = Shop()
    turn = model_turn("anthropic", [REFUND], ending="truncated")
    server.push(200, events=stream_events("anthropic", turn, cut_to=CUT))
    session, messages = th.Session(shop.tools), start()
    client = sdk("anthropic", server.url)
    with client.messages.stream(model="m", max_tokens=50, messages=messages,
                                tools=session.schemas("anthropic")) as stream:
        final = stream.get_final_message()
    assert final.stop_reason == "max_tokens"
    assert final.content[-1].input == {"order_id": "ORD-1", "amount_cents": 12}  # the danger
    step = session.handle(final, messages)
    _assert_nothing_happened(shop, session, messages, step)


def test_openai_chat_length_turn_does_not_run(server: ScriptedServer) -> None:
    shop = Shop()
    turn = model_turn("openai_chat", [REFUND], ending="truncated")
    turn["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = (
        '{"order_id": "ORD-1", "amount_cents": 12')
    server.push(200, turn)
    session, messages = th.Session(shop.tools), start()
    step = session.handle(send(sdk("openai_chat", server.url), "openai_chat", session,
                               messages), messages)
    _assert_nothing_happened(shop, session, messages, step)


def test_openai_chat_streamed_length_turn_does_not_run(server: ScriptedServer) -> None:
    shop = Shop()
    turn = model_turn("openai_chat", [REFUND], ending="truncated")
    server.push(200, events=stream_events("openai_chat", turn, cut_to=CUT))
    session, messages = th.Session(shop.tools), start()
    client = sdk("openai_chat", server.url)
    with client.chat.completions.stream(model="m", messages=messages,
                                        tools=session.schemas("openai_chat")) as stream, \
            pytest.raises(openai.LengthFinishReasonError) as cut:
        stream.get_final_completion()
    final = cut.value.completion  # what a streaming user has in hand
    assert final.choices[0].finish_reason == "length"
    step = session.handle(final, messages)
    _assert_nothing_happened(shop, session, messages, step)


def test_openai_responses_incomplete_turn_does_not_run(server: ScriptedServer) -> None:
    shop = Shop()
    server.push(200, model_turn("openai_responses", [REFUND], ending="truncated"))
    session, messages = th.Session(shop.tools), start()
    step = session.handle(send(sdk("openai_responses", server.url), "openai_responses",
                               session, messages), messages)
    _assert_nothing_happened(shop, session, messages, step)


@pytest.mark.parametrize("fmt", FORMATS)
def test_async_truncated_turn_does_not_run(server: ScriptedServer, fmt: str) -> None:
    shop = Shop()
    server.push(200, model_turn(fmt, [REFUND], ending="truncated"))
    session, messages = th.Session(shop.tools), start()

    async def run() -> th.Step:
        if fmt == "anthropic":
            client: Any = anthropic.AsyncAnthropic(base_url=server.url, api_key="t",
                                                   max_retries=0)
            response = await client.messages.create(model="m", max_tokens=5, messages=messages,
                                                    tools=session.schemas("anthropic"))
        elif fmt == "openai_chat":
            client = openai.AsyncOpenAI(base_url=server.url + "/v1", api_key="t", max_retries=0)
            response = await client.chat.completions.create(
                model="m", messages=messages, tools=session.schemas("openai_chat"))
        else:
            client = openai.AsyncOpenAI(base_url=server.url + "/v1", api_key="t", max_retries=0)
            response = await client.responses.create(
                model="m", input=messages, tools=session.schemas("openai_responses"))
        return await session.ahandle(response, messages)

    _assert_nothing_happened(shop, session, messages, asyncio.run(run()))


def test_a_truncated_turn_can_be_asked_again_and_then_runs(server: ScriptedServer) -> None:
    """The README's recipe: on TRUNCATED, ask again with more tokens; the list is intact."""
    shop = Shop()
    server.push(200, model_turn("anthropic", [REFUND], ending="truncated"))
    server.push(200, model_turn("anthropic", [REFUND]))
    server.push(200, model_turn("anthropic", [], "Refunded."))
    session, messages = th.Session(shop.tools), start()
    client = sdk("anthropic", server.url)
    steps = []
    while True:
        steps.append(session.handle(send(client, "anthropic", session, messages), messages))
        check(messages, "anthropic")
        if steps[-1] is th.Step.DONE:
            break
    assert steps == [th.Step.TRUNCATED, th.Step.TOOLS, th.Step.DONE]
    assert shop.ran == [("refund", {"order_id": "ORD-1", "amount_cents": 1299})]


# -- 3. a paused turn keeps the loop going ----------------------------------------------


def test_pause_turn_keeps_the_loop_going_without_running_anything(
        server: ScriptedServer) -> None:
    shop = Shop()
    paused = model_turn("anthropic", [], ending="paused")
    paused["content"] = [
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
         "input": {"query": "refund policy"}},
    ]
    server.push(200, paused)
    server.push(200, model_turn("anthropic", [REFUND]))
    server.push(200, model_turn("anthropic", [], "Refunded."))
    session, messages = th.Session(shop.tools), start()
    client = sdk("anthropic", server.url)
    first = session.handle(send(client, "anthropic", session, messages), messages)
    assert first is th.Step.PAUSED and first
    assert shop.ran == [] and messages[-1]["content"][0]["type"] == "server_tool_use"
    check(messages, "anthropic")
    assert session.handle(send(client, "anthropic", session, messages), messages)
    assert "server_tool_use" in json.dumps(sent(server, "anthropic"))  # sent back to resume
    check(messages, "anthropic")
    assert not session.handle(send(client, "anthropic", session, messages), messages)
    assert [name for name, _ in shop.ran] == ["refund"]


# -- 4. no empty assistant turn -------------------------------------------------------


@pytest.mark.parametrize(("fmt", "ending", "step"), [
    ("anthropic", "finished", th.Step.DONE),
    ("anthropic", "refused", th.Step.REFUSED),
    ("openai_chat", "refused", th.Step.REFUSED),
])
def test_an_empty_turn_is_not_appended(server: ScriptedServer, fmt: str, ending: str,
                                       step: th.Step) -> None:
    turn = model_turn(fmt, [], ending=ending)  # type: ignore[arg-type]
    if fmt == "anthropic":
        turn["content"] = [{"type": "text", "text": "  "}] if ending == "finished" else []
    server.push(200, turn)
    server.push(200, model_turn(fmt, [], "Here you are."))
    session, messages = th.Session(Shop().tools), start()
    client = sdk(fmt, server.url)
    assert session.handle(send(client, fmt, session, messages), messages) is step
    assert messages == start()
    messages.append({"role": "user", "content": "Please try again."})
    check(messages, fmt)
    assert session.handle(send(client, fmt, session, messages), messages) is th.Step.DONE
    check(sent(server, fmt), fmt)
    check(messages, fmt)


def test_a_refusal_with_text_is_kept_and_nothing_runs() -> None:
    shop = Shop()
    session, messages = th.Session(shop.tools), start()
    turn = model_turn("anthropic", [REFUND], "I won't refund this.", ending="refused")
    assert session.handle(turn, messages) is th.Step.REFUSED
    assert shop.ran == [] and messages == start()  # calls in a refused turn: nothing at all
    turn = model_turn("openai_responses", [], "No.", ending="refused")
    session, messages = th.Session(shop.tools), start()
    assert session.handle(turn, messages) is th.Step.REFUSED
    assert messages[-1]["content"][0]["type"] == "refusal"
    check(messages, "openai_responses")


# -- 5. advice that matches what happened ---------------------------------------------


def charging_tool(url: str, *, idempotent: bool, timeout: float = 5.0) -> th.Tool[Any, Any]:
    def charge(order_id: str, amount_cents: int) -> Any:
        """Charge a card."""
        # Only reading the answer times out: connecting and sending take what they need,
        # so the charge is always sent, however loaded the machine is.
        response = httpx.post(f"{url}/charges", json={"order": order_id,
                                                      "amount": amount_cents},
                              timeout=httpx.Timeout(30.0, read=timeout))
        response.raise_for_status()
        return response.json()

    return th.tool(idempotent=idempotent, retries=3)(charge)


def _uncertain(content: str) -> None:
    assert content.startswith("[error] charge: ")
    assert "Outcome unknown: the call may have taken effect before it failed." in content
    assert "Check whether it took effect before calling charge again." in content
    lowered = content.lower()
    assert "retry" not in lowered and "same arguments" not in lowered
    assert "transient" not in lowered


def test_a_5xx_after_the_charge_was_sent_is_not_retried_nor_advised(
        server: ScriptedServer, instant: None) -> None:
    server.push(503, "<html>busy</html>")
    server.push(200, {"ok": True})
    session = th.Session([charging_tool(server.url, idempotent=False)])
    outcome = session.call("charge", {"order_id": "ORD-1", "amount_cents": 1299})
    assert [r.method for r in server.requests] == ["POST"]  # one POST, never two
    assert outcome.failure is not None and outcome.failure.uncertain
    assert outcome.failure.to_dict()["isRetryable"] is False
    _uncertain(outcome.content)


def test_a_read_timeout_of_a_charge_is_uncertain(server: ScriptedServer,
                                                 instant: None) -> None:
    server.push(200, {"ok": True}, delay=3.0)
    session = th.Session([charging_tool(server.url, idempotent=False, timeout=0.5)])
    outcome = session.call("charge", {"order_id": "ORD-1", "amount_cents": 1299})
    assert len(server.requests) == 1
    _uncertain(outcome.content)


def test_a_timed_out_run_of_a_charge_is_uncertain() -> None:
    runs: list[float] = []
    release = threading.Event()

    @th.tool(idempotent=False, timeout=HUNG, retries=3)
    def charge(order_id: str) -> str:
        """Charge a card."""
        runs.append(time.monotonic())
        release.wait(30)  # still running when the timeout ends the attempt
        return "charged"

    try:
        with th.Session([charge]) as session:
            outcome = session.call("charge", {"order_id": "ORD-1"})
    finally:
        release.set()
    assert len(runs) == 1
    _uncertain(outcome.content)


def test_a_refused_connection_proves_the_charge_never_ran(instant: None) -> None:
    url = f"http://127.0.0.1:{th.testing.closed_port()}"
    session = th.Session([charging_tool(url, idempotent=False)])
    outcome = session.call("charge", {"order_id": "ORD-1", "amount_cents": 1299})
    assert outcome.attempts == 4  # retried locally: it never reached the server
    assert outcome.failure is not None and not outcome.failure.uncertain
    assert "Transient" in outcome.content


def test_an_idempotent_tool_keeps_its_transient_advice(server: ScriptedServer,
                                                       instant: None) -> None:
    for _ in range(4):
        server.push(503, "<html>busy</html>")
    session = th.Session([charging_tool(server.url, idempotent=True)])
    outcome = session.call("charge", {"order_id": "ORD-1", "amount_cents": 1299})
    assert len(server.requests) == 4
    assert "Transient: a retry may succeed." in outcome.content


def test_a_tool_error_of_a_non_idempotent_tool_is_its_authors_word() -> None:
    @th.tool(idempotent=False)
    def charge(order_id: str) -> str:
        """Charge a card."""
        raise th.ToolError("the card issuer is down; nothing was charged", retryable=True,
                           category="upstream")

    outcome = th.Session([charge]).call("charge", {"order_id": "ORD-1"})
    assert outcome.failure is not None and not outcome.failure.uncertain
    assert "Transient: a retry may succeed." in outcome.content


# -- 8. one conversation per Session ---------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_second_conversation_is_refused_by_name(fmt: str) -> None:
    shop = Shop()
    session = th.Session(shop.tools, max_failures=1)
    first = start()
    session.handle(model_turn(fmt, [("update_address", {"customer": "C", "address": "x"})]),
                   first, format=fmt)  # type: ignore[arg-type]
    other = start()
    with pytest.raises(th.UsageError, match="another conversation"):
        session.handle(model_turn(fmt, [("find_orders", {"customer": "C"})]), other,
                       format=fmt)  # type: ignore[arg-type]
    assert other == start() and len(shop.ran) == 1
    session.reset()
    session.handle(model_turn(fmt, [("update_address", {"customer": "C", "address": "y"})]),
                   other, format=fmt)  # type: ignore[arg-type]
    text = json.dumps(other)
    assert "unavailable" not in text and "[recovered]" not in text
    assert "has failed 1 time in this conversation" in text  # counted afresh
    check(other, fmt)


def test_a_copied_list_of_the_same_conversation_is_accepted() -> None:
    session = th.Session(Shop().tools)
    messages = start()
    session.handle(model_turn("anthropic", [("find_orders", {"customer": "C"})]), messages)
    copied = [*messages, {"role": "user", "content": "And the other customer?"}]
    assert session.handle(model_turn("anthropic", [("find_orders", {"customer": "D"})]), copied)
    check(copied, "anthropic")


def test_another_format_is_refused() -> None:
    session = th.Session(Shop().tools)
    messages = start()
    session.handle(model_turn("anthropic", [("find_orders", {"customer": "C"})]), messages)
    with pytest.raises(th.UsageError, match="serves an anthropic conversation"):
        session.handle(model_turn("openai_chat", [("find_orders", {"customer": "C"})]),
                       messages)


def test_nothing_is_accepted_after_close() -> None:
    session = th.Session(Shop().tools)
    session.close()
    for attempt in (lambda: session.call("find_orders", {"customer": "C"}),
                    lambda: asyncio.run(session.acall("find_orders", {"customer": "C"})),
                    lambda: session.handle(model_turn("anthropic", []), start()),
                    session.reset):
        with pytest.raises(th.UsageError, match="closed"):
            attempt()


@pytest.mark.parametrize(("settings", "named"), [
    ({"max_failures": 0}, "max_failures"),
    ({"max_failures": True}, "max_failures"),
    ({"max_failures": 1.5}, "max_failures"),
    ({"max_wait": -1}, "max_wait"),
    ({"max_wait": float("nan")}, "max_wait"),
    ({"retry_budget": float("inf")}, "retry_budget"),
    ({"line_cap": 100}, "line_cap"),
    ({"clearing": "delete"}, "clearing"),
])
def test_settings_are_checked_at_construction(settings: dict[str, Any], named: str) -> None:
    with pytest.raises(th.UsageError, match=f"^{named} must"):
        th.Session([], **settings)


# -- found by trying it cold --------------------------------------------------------------


def test_an_uncertain_failure_is_never_cleared(server: ScriptedServer, instant: None) -> None:
    """charge(A) may have gone out; charge(B) working says nothing about A."""
    server.push(503, "<html>busy</html>")
    server.push(200, {"ok": True})
    tool = charging_tool(server.url, idempotent=False)
    session, messages = th.Session([tool], max_failures=5), start()
    session.handle(model_turn("anthropic", [("charge", {"order_id": "A", "amount_cents": 1})]),
                   messages)
    session.handle(model_turn("anthropic", [("charge", {"order_id": "B", "amount_cents": 1})]),
                   messages)
    text = json.dumps(messages)
    assert "Outcome unknown" in text and "[recovered]" not in text
    check(messages, "anthropic")


def test_a_closing_uncertain_failure_still_says_it_may_have_taken_effect(
        server: ScriptedServer, instant: None) -> None:
    server.push(503, "<html>busy</html>")
    session = th.Session([charging_tool(server.url, idempotent=False)], max_failures=1,
                         line_cap=400)
    outcome = session.call("charge", {"order_id": "A", "amount_cents": 1})
    assert outcome.content == (
        "[error] charge: upstream. the service answered HTTP 503 Service Unavailable to POST "
        "/charges. Outcome unknown: the call may have taken effect before it failed. charge has "
        "failed 1 time in this conversation and is now closed: do not call it again. Tell the "
        "user it may have taken effect, and check it if you can.")


@pytest.mark.parametrize("url", [
    "https://hooks.slack.com/services/T0AAAAAAA/B0BBBBBBB/abcdefghijklmnopqrstuvwx",
    "http://user:hunter2@db-prod-1:5432/orders",
    "https://payments.svc/charge",
    "http://0.0.0.0:8080/charge",
    "http://kubernetes.default.svc/api",
    "http://10.1.2.3/charge",
])
def test_the_request_in_a_line_shows_no_secret_and_no_internal_host(url: str) -> None:
    request = httpx.Request("POST", url)
    exc = httpx.HTTPStatusError("failed", request=request,
                                response=httpx.Response(500, request=request))
    line = th.summarize(exc, "charge")
    for secret in ("abcdefghijklmnopqrstuvwx", "hunter2", "db-prod-1", "payments.svc", "0.0.0.0",
                   "kubernetes", "10.1.2.3", "8080", "5432"):
        assert secret not in line
    assert "to POST " in line


def test_a_public_host_is_shown() -> None:
    request = httpx.Request("GET", "https://api.weather.example.com:8443/v1/now?city=Pariss")
    exc = httpx.HTTPStatusError("x", request=request,
                                response=httpx.Response(404, request=request))
    assert "to GET api.weather.example.com/v1/now?city=Pariss." in th.summarize(exc, "w")


def ping() -> str:
    """A valid tool, so that only the setting under test can be wrong."""
    return "pong"


@pytest.mark.parametrize(("build", "named"), [
    (lambda: th.tool(idempotent="false")(ping), "idempotent"),  # type: ignore[call-overload]
    (lambda: th.tool(max_failures="3")(ping), "max_failures"),  # type: ignore[call-overload]
    (lambda: th.tool(retries=1.5)(ping), "retries"),  # type: ignore[call-overload]
    (lambda: th.tool(instead=5)(ping), "instead"),  # type: ignore[call-overload]
    (lambda: th.tool(timeout=0)(ping), "timeout"),
    (lambda: th.Session([], rules="x"), "rules"),  # type: ignore[arg-type]
    (lambda: th.Session([], rules=[1]), "rules"),  # type: ignore[list-item]
    (lambda: th.configure(line_cap="200"), "line_cap"),  # type: ignore[arg-type]
    (lambda: th.configure(line_cap=160.5), "line_cap"),  # type: ignore[arg-type]
    (lambda: th.Session([]).handle(model_turn("anthropic", []), ()), "messages"),  # type: ignore[arg-type]
])
def test_every_wrong_setting_names_itself(build: Any, named: str) -> None:
    with pytest.raises(th.UsageError, match=f"^{named} must"):
        build()


def test_an_unknown_responses_status_runs_nothing() -> None:
    shop = Shop()
    turn = model_turn("openai_responses", [("find_orders", {"customer": "C"})])
    turn["status"] = "weird"
    with pytest.raises(th.UsageError, match="the response is weird"):
        th.Session(shop.tools).handle(turn, start())
    assert shop.ran == []


def test_a_blank_responses_message_is_not_appended_and_is_rejected() -> None:
    session, messages = th.Session(Shop().tools), start()
    assert session.handle(model_turn("openai_responses", [], "  "), messages) is th.Step.DONE
    assert messages == start()
    for blank in ({"role": "assistant", "content": ""},
                  {"type": "message", "role": "assistant",
                   "content": [{"type": "output_text", "text": " ", "annotations": []}]}):
        with pytest.raises(th.UsageError, match="no content"):
            check([*start(), blank], "openai_responses")


def test_a_streamed_chat_refusal_is_a_refusal(server: ScriptedServer) -> None:
    shop = Shop()
    turn = model_turn("openai_chat", [], "No.", ending="refused")
    server.push(200, events=stream_events("openai_chat", turn))
    session, messages = th.Session(shop.tools), start()
    client = sdk("openai_chat", server.url)
    with client.chat.completions.stream(model="m", messages=messages) as stream:
        final = stream.get_final_completion()
    assert session.handle(final, messages) is th.Step.REFUSED and messages == start()


def test_defaults_written_out_are_the_same_call() -> None:
    @th.tool
    def get_customer(customer_id: str, region: str = "eu", verbose: bool = False) -> str:
        """A customer."""
        raise th.ToolError(f"no customer {customer_id}", retryable=False, category="not_found")

    session = th.Session([get_customer], max_failures=5)
    session.call("get_customer", {"customer_id": "C-1"})
    again = session.call("get_customer", {"customer_id": "C-1", "region": "eu",
                                          "verbose": "false"})
    assert again.failure is not None and again.failure.status == "repeated"


def test_a_format_that_contradicts_the_response_is_named() -> None:
    with pytest.raises(th.UsageError, match="format='openai_chat' was given for a response "
                                            "that is anthropic"):
        th.Session([]).handle(model_turn("anthropic", []), start(), format="openai_chat")


def test_a_chat_turn_goes_back_as_the_api_takes_it(server: ScriptedServer) -> None:
    """The stream helper adds ``index`` and ``parsed_arguments`` to calls; the API's
    assistant message parameter has neither."""
    shop = Shop()
    turn = model_turn("openai_chat", [("find_orders", {"customer": "C"})])
    server.push(200, events=stream_events("openai_chat", turn))
    session, messages = th.Session(shop.tools), start()
    client = sdk("openai_chat", server.url)
    with client.chat.completions.stream(model="m", messages=messages,
                                        tools=session.schemas("openai_chat")) as stream:
        final = stream.get_final_completion()
    assert session.handle(final, messages) is th.Step.TOOLS
    assert messages[1] == {"role": "assistant", "tool_calls": [
        {"id": turn["choices"][0]["message"]["tool_calls"][0]["id"], "type": "function",
         "function": {"name": "find_orders", "arguments": '{"customer": "C"}'}}]}
