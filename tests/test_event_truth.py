"""Events say what happened to whom: an error's tail names the call that failed (and the
one that recovered it), and nothing a hook holds can change what the Session records."""

from __future__ import annotations

import asyncio
import copy
import json
import operator
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
import structlog
import structlog.testing
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples
from toolhygiene.testing import model_turn


@th.tool
def get_order(order_id: str) -> str:
    """Fetch one order."""
    if order_id.startswith("bad"):
        raise th.ToolError(f"no order with id {order_id} exists", retryable=False,
                           category="not_found")
    return "found"


@th.tool
def lookup(sku: str, tags: list[str] | None = None) -> str:
    """Look a product up."""
    raise th.ToolError(f"no product {sku}", retryable=False, category="not_found")


def test_a_recovery_names_the_calls_that_failed_and_the_one_that_recovered() -> None:
    turn = partial(model_turn, "anthropic")
    messages: list[Any] = [{"role": "user", "content": "go"}]
    session = th.Session([get_order, lookup], max_failures=5)
    rounds = [
        turn([("get_order", {"order_id": "bad-1"}), ("lookup", {"sku": "X"})]),
        turn([("get_order", {"order_id": "bad-2"})]),
        turn([("get_order", {"order_id": "good"})]),
    ]
    ids = [[b["id"] for b in r["content"] if b["type"] == "tool_use"] for r in rounds]
    with th.testing.capture() as seen:
        for each in rounds:
            session.handle(each, messages)
        session.close()
    failed = {e["call_id"]: e["tool"] for e in seen.named("tool.failed")}
    assert failed == {ids[0][0]: "get_order", ids[0][1]: "lookup", ids[1][0]: "get_order"}
    recovered = seen.named("error.recovered")
    assert [(e["call_id"], e["recovered_by"]) for e in recovered] == [
        (ids[0][0], ids[2][0]), (ids[1][0], ids[2][0])]
    assert recovered[1]["tail"] == 1  # the first's depends on which call of round 1 started first
    stopped = seen.named("error.stopped")
    assert [(e["call_id"], e["tool"]) for e in stopped] == [(ids[0][1], "lookup")]
    assert "recovered_by" not in stopped[0]
    # The same in the record stats() keeps, and each tail joins its tool.failed by id.
    tails = session.stats()["tails"]
    assert [(t["call_id"], t.get("recovered_by")) for t in tails] == [
        (ids[0][0], ids[2][0]), (ids[1][0], ids[2][0]), (ids[0][1], None)]
    for event in (*recovered, *stopped):
        assert failed[event["call_id"]] == event["tool"]


def test_the_log_line_of_a_tail_carries_the_failing_calls_id() -> None:
    session = th.Session([get_order], max_failures=5)
    configured = structlog.is_configured()
    try:
        with structlog.testing.capture_logs() as logs:
            previous = th.configure(logs=structlog.get_logger("t"))
            try:
                session.call("get_order", {"order_id": "bad-1"}, call_id="call_A")
                session.call("get_order", {"order_id": "good"}, call_id="call_B")
            finally:
                th.configure(previous)
    finally:
        # capture_logs restores the processors by calling configure(), which leaves
        # structlog "configured": toolhygiene would then log through it (to stdout) in
        # every later test of this process, where caplog sees nothing.
        if not configured:
            structlog.reset_defaults()
    (line,) = [e for e in logs if e["event"] == "error.recovered"]
    assert (line["call_id"], line["recovered_by"]) == ("call_A", "call_B")
    json.dumps(line)  # a plain JSON record


def test_calls_without_ids_leave_them_out() -> None:
    session = th.Session([get_order], max_failures=5)
    with th.testing.capture() as seen:
        session.call("get_order", {"order_id": "bad-1"})
        session.call("get_order", {"order_id": "good"})
    (event,) = seen.named("error.recovered")
    assert "call_id" not in event and "recovered_by" not in event


def test_async_calls_name_their_own_failures() -> None:
    session = th.Session([get_order], max_failures=5)

    async def run() -> None:
        await session.acall("get_order", {"order_id": "bad-1"}, call_id="a1")
        await session.acall("get_order", {"order_id": "good"}, call_id="a2")

    with th.testing.capture() as seen:
        asyncio.run(run())
    (event,) = seen.named("error.recovered")
    assert (event["call_id"], event["recovered_by"]) == ("a1", "a2")


def test_a_resumed_error_keeps_the_id_the_message_list_gives_it() -> None:
    turn = partial(model_turn, "anthropic")
    messages: list[Any] = [{"role": "user", "content": "go"}]
    first = turn([("get_order", {"order_id": "bad-1"})])
    th.Session([get_order], max_failures=5).handle(first, messages)
    resumed = th.Session([get_order], max_failures=5).resume(copy.deepcopy(messages))
    with th.testing.capture() as seen:
        resumed.call("get_order", {"order_id": "good"}, call_id="later")
    (event,) = seen.named("error.recovered")
    assert (event["call_id"], event["recovered_by"]) == (first["content"][0]["id"], "later")


# Any order of failures and successes of two tools: every failed call's id gets exactly
# one tail, recovered by the next success of its own tool or stopped at the end.
steps = st.lists(st.tuples(st.sampled_from(["get_order", "other"]), st.booleans()),
                 max_size=12)


@settings(max_examples=examples(60), deadline=None)
@given(steps)
def test_every_failed_call_gets_one_tail_naming_it(plan: list[tuple[str, bool]]) -> None:
    @th.tool
    def other(ok: bool) -> str:
        if not ok:
            raise th.ToolError("nope", retryable=False, category="not_found")
        return "fine"

    session = th.Session([get_order, other], max_failures=100)
    expected: dict[str, tuple[str, str | None]] = {}
    pending: dict[str, list[str]] = {"get_order": [], "other": []}
    with th.testing.capture() as seen:
        for at, (name, ok) in enumerate(plan):
            call_id = f"c{at}"
            arguments = ({"order_id": "good" if ok else "bad"} if name == "get_order"
                         else {"ok": ok})
            session.call(name, arguments, call_id=call_id)
            if ok:
                expected.update(dict.fromkeys(pending[name], ("recovered", call_id)))
                pending[name] = []
            else:
                pending[name].append(call_id)
        session.close()
    expected.update({i: ("stopped", None) for ids in pending.values() for i in ids})
    tails = [*seen.named("error.recovered"), *seen.named("error.stopped")]
    got = {e["call_id"]: (e["outcome"], e.get("recovered_by")) for e in tails}
    assert len(tails) == len(got)  # one tail per failed call
    assert got == expected


# -- read-only records ----------------------------------------------------------------


def test_the_attempted_call_of_a_failure_cannot_be_changed() -> None:
    outcome = th.Session([lookup]).call("lookup", {"sku": "X", "tags": ["a", "b"]})
    failure = outcome.failure
    assert failure is not None and failure.attempted is not None
    assert failure.attempted == {"sku": "X", "tags": ("a", "b")}
    with pytest.raises(TypeError):
        failure.attempted["sku"] = "Y"  # type: ignore[index]
    with pytest.raises(TypeError):
        del failure.attempted["sku"]  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        failure.attempted["tags"].append("c")
    # What it sends another agent is unchanged, as plain JSON.
    payload = failure.to_dict()
    assert payload["attempted_query"]["arguments"] == {"sku": "X", "tags": ["a", "b"]}
    assert json.loads(json.dumps(payload)) == payload


def test_a_failure_made_by_hand_keeps_no_link_to_the_callers_dict() -> None:
    given_ = {"q": "tides", "near": {"city": "Brest"}, "ids": [1, 2]}
    failure = th.Failure(tool="t", category=th.Category.NOT_FOUND, retryable=False,
                         message="m", attempted=given_)
    given_["q"] = "changed"
    given_["near"]["city"] = "changed"  # type: ignore[index]
    given_["ids"].append(3)  # type: ignore[attr-defined]
    assert failure.attempted == {"q": "tides", "near": {"city": "Brest"}, "ids": (1, 2)}
    with pytest.raises(TypeError):
        failure.attempted["near"]["city"] = "x"


def test_hooks_cannot_change_what_runs_or_what_the_session_records() -> None:
    ran: list[dict[str, Any]] = []

    @th.tool
    def search(query: str, filters: dict[str, str]) -> str:
        ran.append({"query": query, "filters": filters})
        raise th.ToolError(f"nothing for {query}", retryable=False, category="not_found")

    refused: list[str] = []

    class Meddler(th.Hooks):
        def on_call(self, call: th.HookCall) -> None:
            attempts: list[Callable[[], object]] = [
                lambda: operator.setitem(call.arguments, "query", "other"),
                lambda: operator.setitem(call.arguments["filters"], "k", "x"),
                lambda: setattr(call, "arguments", {"query": "other"}),
                lambda: setattr(call, "tool", "else"),
                lambda: setattr(call, "call_id", "forged"),
                lambda: setattr(call, "seconds", 99.0)]
            for attempt in attempts:
                try:
                    attempt()
                except (TypeError, AttributeError) as exc:
                    refused.append(type(exc).__name__)

        def on_failure(self, event: th.HookEvent) -> None:
            attempted = event.failure.attempted
            attempts: list[Callable[[], object]] = [
                lambda: operator.setitem(attempted, "query", "other"),
                lambda: operator.setitem(attempted["filters"], "k", "x")]
            for attempt in attempts:
                try:
                    attempt()
                except TypeError:
                    refused.append("TypeError")

    arguments = {"query": "tides", "filters": {"k": "v"}}
    session = th.Session([search])
    remove = th.add_hooks(Meddler())
    try:
        with th.testing.capture() as seen:
            outcome = session.call("search", arguments, call_id="c1")
    finally:
        remove()
    assert len(refused) == 8  # every change refused
    assert ran == [{"query": "tides", "filters": {"k": "v"}}]
    assert arguments == {"query": "tides", "filters": {"k": "v"}}
    assert outcome.failure is not None
    assert outcome.failure.attempted == {"query": "tides", "filters": {"k": "v"}}
    (failed,) = seen.named("tool.failed")
    assert (failed["tool"], failed["call_id"]) == ("search", "c1")
    assert "nothing for tides" in outcome.content


def test_hooks_read_the_arguments_as_the_model_sent_them() -> None:
    shown: list[Any] = []

    class Reader(th.Hooks):
        def on_call(self, call: th.HookCall) -> None:
            shown.append(call.arguments)

    session = th.Session([get_order])
    remove = th.add_hooks(Reader())
    try:
        session.call("get_order", {"order_id": "good"})
        session.call("get_order", '{"order_id": "good"}')
    finally:
        remove()
    assert shown == [{"order_id": "good"}, '{"order_id": "good"}']
