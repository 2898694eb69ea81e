"""A Session's settings: a wrong value is a one-line UsageError naming the setting, at
construction and after it; a setting changed after construction takes effect from the
next call or is refused, never silently ignored. And ``handle`` inside a running event
loop treats one call and several alike."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

import toolhygiene as th
from helpers import Ran
from toolhygiene.testing import model_turn

WRONG = [
    ("max_failures", 0), ("max_failures", True), ("max_failures", 1.5),
    ("max_wait", -1), ("max_wait", float("nan")), ("max_wait", "30"),
    ("retry_budget", float("inf")), ("retry_budget", None), ("retry_budget", 0),
    ("retry_budget", 0.01), ("retry_budget", -1), ("retry_budget", float("nan")),
    ("retry_budget", True), ("max_wait", float("inf")), ("max_wait", True),
    ("max_failures", -1), ("max_stuck", True), ("max_stuck", 2.0), ("max_running", 0),
    ("line_cap", True), ("line_cap", -300), ("result_cap", -1), ("result_cap", True),
    ("line_cap", 100), ("line_cap", "300"),
    ("result_cap", 10), ("result_cap", 2.5e4),
    ("rules", "not rules"), ("rules", [ValueError]),
    ("clearing", "delete"),
    ("max_stuck", 0), ("max_running", -1), ("max_running", False),
    ("history", "local"),
    ("session_id", ""), ("session_id", 42),
    ("store", "redis://127.0.0.1"),
]


@pytest.mark.parametrize(("name", "value"), WRONG)
def test_a_wrong_setting_is_refused_at_construction_naming_it(name: str, value: Any) -> None:
    extra: dict[str, Any] = {"session_id": "conv-1"} if name == "store" else {}
    with pytest.raises(th.UsageError, match=f"^{name} must") as refused:
        th.Session([], **{name: value}, **extra)
    assert "\n" not in str(refused.value)


LIVE = [(n, v) for n, v in WRONG if n not in ("history", "session_id", "store")]


@pytest.mark.parametrize(("name", "value"), LIVE)
def test_a_wrong_setting_is_refused_after_construction_too(name: str, value: Any) -> None:
    session = th.Session([])
    before = getattr(session, name)
    with pytest.raises(th.UsageError, match=f"^{name} must"):
        setattr(session, name, value)
    assert getattr(session, name) == before


@pytest.mark.parametrize(("name", "value"), [
    ("history", "server"), ("clear_at_least", 500), ("store", None), ("id", "other"),
])
def test_a_setting_the_conversation_is_built_on_cannot_change(name: str, value: Any) -> None:
    session = th.Session([])
    with pytest.raises(th.UsageError, match=f"^{name} cannot change once the Session is made"):
        setattr(session, name, value)


def _rate_limited(ran: Ran) -> th.Tool[[], Any]:
    @th.tool(retries=1)
    def quote() -> Any:
        """A quote from a rate-limited service."""
        ran("request")
        request = httpx.Request("GET", "https://api.example.com/quote")
        return httpx.Response(429, headers={"retry-after": "5"},
                              request=request).raise_for_status()

    return quote


def test_max_wait_changed_after_construction_takes_effect(instant: None) -> None:
    """A Retry-After of 5 s is waited locally under max_wait=30, and goes to the model
    once max_wait is set to 1 on the same Session."""
    ran = Ran()
    session = th.Session([_rate_limited(ran)], max_failures=5)
    assert session.call("quote").attempts == 2
    session.max_wait = 1
    after = session.call("quote")
    assert after.attempts == 1 and ran.count("request") == 3
    assert "retry after 5 s" in after.content


def test_retry_budget_changed_after_construction_takes_effect(instant: None) -> None:
    ran = Ran()
    session = th.Session([_rate_limited(ran)], max_failures=5)
    session.retry_budget = 0.25  # the least allowed: no retry starts with less left
    assert session.call("quote").attempts == 1


def test_rules_changed_after_construction_take_effect() -> None:
    class QuotaError(Exception):
        pass

    @th.tool
    def spend() -> str:
        """Spend."""
        raise QuotaError("monthly quota used up")

    session = th.Session([spend], max_failures=5)
    assert session.call("spend").failure.category is th.Category.UNKNOWN  # type: ignore[union-attr]
    session.rules = [th.Rule(QuotaError, th.Category.RATE_LIMIT, retryable=False)]
    assert session.call("spend").failure.category is th.Category.RATE_LIMIT  # type: ignore[union-attr]


def test_max_failures_and_line_cap_changed_after_construction_take_effect() -> None:
    @th.tool
    def broken() -> str:
        """Broken."""
        raise ValueError("x" * 2000)

    session = th.Session([broken], max_failures=5)
    assert len(session.call("broken").content) <= 300
    session.line_cap = 200
    session.max_failures = 2
    second = session.call("broken")
    assert len(second.content) <= 200 and second.failure is not None and second.failure.closes


def test_run_bounds_and_clearing_changed_after_construction_take_effect() -> None:
    session = th.Session([])
    session.max_stuck, session.max_running, session.clearing = 5, 3, "off"
    assert (session._runs.max_stuck, session._runs.max_running) == (5, 3)
    assert session._transcript.clearing == "off"


@pytest.mark.parametrize("calls", [1, 3])
def test_handle_in_a_running_loop_refuses_async_tools_alike_for_one_call_or_several(
        calls: int) -> None:
    """Before: one call raised UsageError, several ran all but the first on workers and
    then raised, leaving runs the turn never recorded. Now nothing runs either way."""
    ran = Ran()

    @th.tool
    async def lookup() -> str:
        """Look up."""
        ran("lookup")
        return "found"

    session = th.Session([lookup])
    messages: list[Any] = []

    async def main() -> None:
        session.handle(model_turn("anthropic", [("lookup", {})] * calls), messages)

    with pytest.raises(th.UsageError, match="lookup is async and an event loop is running"):
        asyncio.run(main())
    assert ran.count("lookup") == 0 and messages == []


@pytest.mark.parametrize("calls", [1, 3])
def test_handle_in_a_running_loop_runs_sync_tools_alike_for_one_call_or_several(
        calls: int) -> None:
    @th.tool
    def lookup() -> str:
        """Look up."""
        return "found"

    session = th.Session([lookup])
    messages: list[Any] = []

    async def main() -> bool:
        return bool(session.handle(model_turn("anthropic", [("lookup", {})] * calls), messages))

    assert asyncio.run(main())
    results = [b for b in messages[-1]["content"] if b["type"] == "tool_result"]
    assert [r["content"] for r in results] == ["found"] * calls


@pytest.mark.parametrize("calls", [1, 2, 3])
def test_handle_in_a_running_loop_runs_every_call_off_the_loop_thread(calls: int) -> None:
    """A sync tool that wraps an async client with ``asyncio.run()`` works at every
    position of the round, one call or several (before: the first call ran on the loop's
    thread and was told ``asyncio.run() cannot be called from a running event loop``)."""

    async def fetch(city: str) -> str:
        await asyncio.sleep(0)
        return f"sunny in {city}"

    @th.tool(retries=0)
    def weather(city: str) -> str:
        """Weather via an async client wrapped for sync use."""
        return asyncio.run(fetch(city))

    session = th.Session([weather])
    messages: list[Any] = []
    cities = [f"city{i}" for i in range(calls)]

    async def main() -> None:
        session.handle(model_turn("anthropic", [("weather", {"city": c}) for c in cities]),
                       messages)

    asyncio.run(main())
    results = [b["content"] for b in messages[-1]["content"] if b["type"] == "tool_result"]
    assert results == [f"sunny in {c}" for c in cities]


@pytest.mark.parametrize(("name", "meant"), [
    ("max_wiat", "max_wait"), ("retry_budgte", "retry_budget"), ("max_failure", "max_failures"),
    ("linecap", "line_cap"), ("clearng", "clearing"), ("histroy", "history"),
])
def test_a_misspelt_setting_is_refused_naming_the_setting(name: str, meant: str) -> None:
    session = th.Session([])
    with pytest.raises(th.UsageError, match=f"^{name} is not a Session setting: did you mean "
                                            f"{meant}\\?$"):
        setattr(session, name, 5)
    assert name not in vars(session)
    session._scratch = 5  # a private attribute is the program's own business
    session.label = "mine"  # and so is a public one that is no near miss of a setting
    assert (session._scratch, session.label) == (5, "mine")  # type: ignore[attr-defined]


TOOL_WRONG = [
    ("timeout", -3), ("timeout", 0), ("timeout", float("nan")), ("timeout", True),
    ("retries", "lots"), ("retries", -1), ("retries", 1.5), ("retries", True),
    ("max_failures", 0), ("idempotent", "yes"), ("instead", 3), ("rules", "x"),
    ("untrusted", 1), ("redact_results", None), ("result_cap", 10), ("upstream", ""),
    ("strict", "on"), ("input_examples", "x"), ("defer_loading", 0), ("cache_control", {}),
]


@pytest.mark.parametrize(("name", "value"), TOOL_WRONG)
def test_a_wrong_tool_setting_is_refused_when_set_after_construction(
        name: str, value: Any) -> None:
    """The constructor's checks, whenever a setting is set (before: ``tool.retries =
    "lots"`` was accepted and the next call raised a raw TypeError after the tool ran)."""
    @th.tool
    def flaky() -> str:
        """Flaky."""
        return "ok"

    before = getattr(flaky, name)
    with pytest.raises(th.UsageError, match=f"^{name} must") as refused:
        setattr(flaky, name, value)
    assert "\n" not in str(refused.value) and getattr(flaky, name) == before
    with pytest.raises(th.UsageError, match=f"^{name} must"):
        th.tool(flaky.fn, **{name: value})
    flaky.retries, flaky.timeout = 4, 2.5  # a right value takes
    assert (flaky.retries, flaky.timeout) == (4, 2.5)
