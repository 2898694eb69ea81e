"""Every event of docs/logs.md's table is triggered here, each by what makes it happen in
use, and carries every field the table gives it (and ``session.id``). A new row in the
table without a trigger here fails ``test_every_documented_event_has_a_trigger``."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

import openai
import pytest

import toolhygiene as th
from helpers import HUNG, Lying, documented_events, flaky
from holding import HoldingServer
from redis_server import free_port
from toolhygiene.testing import model_turn

Events = Sequence[Mapping[str, Any]]


def _conversation() -> tuple[Events, str]:
    """Two rounds of a loop: a local retry, a failure the model sees, a tool closed and
    refused, a recovery with its clearing, then the end with an error left."""

    @th.tool
    def get_weather(city: str) -> str:
        if city != "Paris":
            raise th.ToolError(f"no city {city}", retryable=False, category="not_found")
        return "21C"

    @th.tool(max_failures=1)
    def broken() -> None:
        raise RuntimeError("layout not recognised")

    turn = partial(model_turn, "anthropic")
    messages: list[Any] = [{"role": "user", "content": "go"}]
    with th.testing.instant_retries(), th.testing.capture() as seen:
        session = th.Session([flaky(), get_weather, broken], max_failures=3)
        session.handle(
            turn([("get_weather", {"city": "Lyon"}), ("broken", {}), ("flaky", {})]), messages
        )
        session.handle(turn([("get_weather", {"city": "Paris"}), ("broken", {})]), messages)
        session.close()
    return seen.events, session.id


def _unclassified() -> tuple[Events, str]:
    @th.tool(retries=0)
    def lies() -> None:
        raise Lying("x")

    with th.testing.capture() as seen:
        session = th.Session([lies])
        session.call("lies", call_id="c1")
    [event] = seen.named("tool.unclassified")
    assert "RuntimeError: no class" in event["exception"]
    assert event["exc_type"] and event["call_id"] == "c1"
    return seen.events, session.id


def _late() -> tuple[Events, str]:
    gate = threading.Event()

    @th.tool(timeout=HUNG, retries=0)
    def slow() -> str:
        gate.wait(30)
        return "late"

    with th.testing.capture() as seen:
        session = th.Session([slow])
        session.call("slow", call_id="c2")
        gate.set()
        pause = threading.Event()  # never set: its wait is a sleep that lint accepts
        for _ in range(2000):  # the late run ends on its worker: at most 10 s
            if seen.named("tool.finished_late"):
                break
            pause.wait(0.005)
    return seen.events, session.id


def _hook_failed() -> tuple[Events, str]:
    class Broken(th.Hooks):
        def on_failure(self, event: th.HookEvent) -> None:
            raise RuntimeError("hook broke")

    @th.tool(retries=0)
    def fails() -> None:
        raise ValueError("nope")

    with th.testing.capture() as seen:
        remove = th.add_hooks(Broken())
        try:
            session = th.Session([fails])
            session.call("fails")
        finally:
            remove()
    return seen.events, session.id


def _store_unavailable() -> tuple[Events, str]:
    """A Redis that is not there (a free port on 127.0.0.1): the counts go to memory."""
    store = th.RedisStore(url=f"redis://127.0.0.1:{free_port()}/0", timeout=0.2)
    with th.testing.capture() as seen:
        session = th.Session([flaky()], store=store, session_id="conv-store")
        session.call("flaky")
    return seen.events, session.id


@pytest.fixture
def holding() -> Iterator[HoldingServer]:
    server = HoldingServer()
    yield server
    server.stop()


def _items_deleted(server: HoldingServer) -> tuple[Events, str]:
    """An OpenAI conversation the server holds: the recovered error's items deleted on
    request (``session.server.delete_recovered``)."""

    @th.tool(retries=0)
    def lookup(order_id: str) -> str:
        """Find an order."""
        lookup_runs.append(order_id)
        if len(lookup_runs) == 1:
            raise th.ToolError("the order service is down", retryable=False, category="upstream")
        return f"{order_id}: shipped"

    lookup_runs: list[str] = []
    for reply in (
        [("lookup", {"order_id": "ORD-1"})],
        [("lookup", {"order_id": "ORD-1"})],
    ):
        server.push(200, model_turn("openai_responses", reply))
    server.push(200, model_turn("openai_responses", [], "ORD-1 has shipped."))
    client = openai.OpenAI(base_url=server.url + "/v1", api_key="t", max_retries=0)
    conversation = client.conversations.create()
    session = th.Session([lookup], history="server")
    items: list[Any] = [{"role": "user", "content": "Where is ORD-1?"}]
    while True:
        response = client.responses.create(model="m", input=items, conversation=conversation.id)
        items = []
        if not session.handle(response, items):
            break
    with th.testing.capture() as seen:
        assert session.server.delete_recovered(client) == 2
    [event] = seen.named("conversation.items_deleted")
    assert (event["conversation"], event["items"]) == (conversation.id, 2)
    return seen.events, session.id


SCENARIOS: dict[str, Callable[..., tuple[Events, str]]] = {
    "conversation": _conversation,
    "unclassified": _unclassified,
    "late": _late,
    "hook": _hook_failed,
    "store": _store_unavailable,
    "server": _items_deleted,
}

TRIGGERS = {
    "tool.failed": "conversation",
    "tool.retry": "conversation",
    "tool.closed": "conversation",
    "tool.refused": "conversation",
    "error.recovered": "conversation",
    "error.stopped": "conversation",
    "transcript.cleared": "conversation",
    "session.closed": "conversation",
    "tool.unclassified": "unclassified",
    "tool.still_running": "late",
    "tool.finished_late": "late",
    "hook.failed": "hook",
    "store.unavailable": "store",
    "conversation.items_deleted": "server",
}
"""Each documented event, and the scenario that makes it happen."""


def test_every_documented_event_has_a_trigger() -> None:
    assert set(TRIGGERS) == set(documented_events())


@pytest.mark.parametrize("name", sorted(TRIGGERS))
def test_each_event_carries_its_documented_fields(
    name: str, request: pytest.FixtureRequest
) -> None:
    scenario = SCENARIOS[TRIGGERS[name]]
    if scenario is _items_deleted:
        events, session_id = scenario(request.getfixturevalue("holding"))
    else:
        with th.configure(logs=False):
            events, session_id = scenario()
    named = [e for e in events if e["event"] == name]
    assert named, f"{name} was not triggered"
    fields = documented_events()[name]
    for event in named:
        missing = [f for f in fields if f not in event]
        assert not missing, (name, missing)
        assert event["session.id"] == session_id


def test_on_failure_reads_the_category_of_every_event_it_gets() -> None:
    """The ``Metrics`` hook of the README and docs/logs.md reads ``event.fields["category"]`` in
    ``on_failure``: the events about a tool's late runs carry it too (``None``), so a
    timed-out tool gives no ``hook.failed``."""
    got: list[tuple[str, Any]] = []

    class Metrics(th.Hooks):
        def on_failure(self, event: th.HookEvent) -> None:
            got.append((event.name, event.fields["category"]))

    remove = th.add_hooks(Metrics())
    try:
        with th.configure(logs=False):
            events, _ = _late()
    finally:
        remove()
    assert not [e for e in events if e["event"] == "hook.failed"]
    assert ("tool.still_running", None) in got and ("tool.finished_late", None) in got
    assert any(name == "tool.failed" for name, _ in got)


def test_every_call_event_of_a_conversation_names_its_call() -> None:
    """In ``handle()``, every ``tool.*`` event names the call of the model's turn it is
    about: the four calls of the two rounds, none without an id."""
    with th.configure(logs=False):
        events, _ = _conversation()
    ids = {e.get("call_id") for e in events if e["event"].startswith("tool.")}
    assert None not in ids and len(ids) == 4
