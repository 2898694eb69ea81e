"""Whatever a tool, an upstream or the model hands over, call/acall/handle/ahandle answer
with one line, every text is valid UTF-8, and a round is appended whole or not at all."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import anthropic
import pytest

import toolhygiene as th
from helpers import Ran, encodes
from toolhygiene.formats import check
from toolhygiene.testing import ScriptedServer, model_turn

FORMATS = ["anthropic", "openai_chat", "openai_responses"]


class EvilStr(str):
    """A str whose own methods all raise."""

    def strip(self, *args: Any) -> str:
        raise RuntimeError("strip")

    def __getitem__(self, key: Any) -> str:
        raise RuntimeError("getitem")

    def __len__(self) -> int:
        raise RuntimeError("len")

    def lower(self) -> str:
        raise RuntimeError("lower")


class RaisingProperty(Exception):
    @property
    def response(self) -> Any:
        raise RuntimeError("response is gone")

    @property
    def headers(self) -> Any:
        raise ValueError("headers too")


class RaisingGetattr(Exception):
    def __getattr__(self, name: str) -> Any:
        raise ValueError(f"no {name} here")


class NoModule(Exception):
    pass


NoModule.__module__ = None  # type: ignore[assignment]


class StrSubclass(Exception):
    def __str__(self) -> str:
        return EvilStr("text whose methods raise")


class RaisingCause(Exception):
    @property
    def __cause__(self) -> Any:  # type: ignore[override]
        raise RuntimeError("cause")


class RaisingArgs(KeyError):
    @property
    def args(self) -> Any:  # type: ignore[override]
        raise RuntimeError("args")


class ToolErrorHostile(th.ToolError):
    @property
    def what(self) -> Any:
        return EvilStr("what")

    @what.setter
    def what(self, value: Any) -> None:
        pass


def _surrogate_type() -> Exception:
    made: Exception = type("Bad\udc80Name", (Exception,), {})("boom \ud800")
    return made


HOSTILE: dict[str, Callable[[], BaseException]] = {
    "response and headers properties raise": lambda: RaisingProperty("upstream failed"),
    "__getattr__ raises ValueError": lambda: RaisingGetattr("odd"),
    "__module__ is None": lambda: NoModule("no module"),
    "__str__ returns a hostile str subclass": lambda: StrSubclass(),
    "__cause__ property raises": lambda: RaisingCause("cause"),
    "args property raises": lambda: RaisingArgs("k"),
    "ToolError with a hostile what": lambda: ToolErrorHostile("x", retryable=False),
    "surrogates in class name and message": _surrogate_type,
    "message is a huge nested list": lambda: ValueError([[[[[list(range(10))]]]]] * 100_000),
    "KeyError of a deep dict": lambda: KeyError(_deep(50_000)),
}


def _deep(depth: int) -> dict[str, Any]:
    root: dict[str, Any] = {}
    node = root
    for _ in range(depth):
        node["a"] = {}
        node = node["a"]
    return root


def _raiser(name: str, ran: Ran) -> th.Tool[Any, Any]:
    @th.tool(name="broken", retries=0)
    def broken() -> None:
        ran("broken")
        raise HOSTILE[name]()

    return broken


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_exception_gives_one_valid_line_from_call(name: str) -> None:
    ran = Ran()
    with th.testing.capture() as seen:
        outcome = th.Session([_raiser(name, ran)]).call("broken")
    assert ran.count("broken") == 1
    assert not outcome.ok and outcome.content.startswith("[error] broken: ")
    assert "\n" not in outcome.content and encodes(outcome.content)
    failed = seen.named("tool.failed")
    assert len(failed) == 1 and encodes(dict(failed[0]))


@pytest.mark.parametrize("name", sorted(HOSTILE))
async def test_hostile_exception_gives_one_valid_line_from_acall(name: str) -> None:
    ran = Ran()
    outcome = await th.Session([_raiser(name, ran)]).acall("broken")
    assert ran.count("broken") == 1
    assert not outcome.ok and encodes(outcome.content)


def test_classification_that_breaks_still_names_the_type() -> None:
    """An exception whose class itself lies about being an exception group."""

    class Lying(Exception):
        @property  # type: ignore[misc]
        def __class__(self) -> Any:
            raise RuntimeError("no class")

    @th.tool(retries=0)
    def lies() -> None:
        raise Lying("x")

    with th.testing.capture() as seen:
        outcome = th.Session([lies]).call("lies")
    assert not outcome.ok and "[error] lies:" in outcome.content
    assert seen.named("tool.unclassified") and seen.named("tool.failed")


SURROGATE_ARGS = '{"order_id": "\\ud800 and \\udfff"}'


@th.tool(retries=0)
def get_order(order_id: str) -> str:
    """Fetch one order."""
    order_id.encode("utf-8")  # what any HTTP client does with it
    return f"order {order_id}"


def test_lone_surrogate_in_arguments_gives_a_valid_line() -> None:
    with th.testing.capture() as seen:
        outcome = th.Session([get_order]).call("get_order", SURROGATE_ARGS)
    assert outcome.content.startswith("[error] get_order: bad_request.")
    assert encodes(outcome.content) and encodes([dict(e) for e in seen.events])


async def test_lone_surrogate_in_a_tool_name_gives_a_valid_line() -> None:
    session = th.Session([get_order])
    for outcome in (session.call("get_\ud800order", {}), await session.acall("\udfff", "{}")):
        assert "bad_request" in outcome.content and encodes(outcome.content)
        assert "\ufffd" in outcome.content


def test_successful_content_with_surrogates_is_made_valid() -> None:
    @th.tool
    def echo() -> dict[str, str]:
        return {"text": "half a pair: \ud83d"}

    outcome = th.Session([echo]).call("echo")
    assert outcome.ok and encodes(outcome.content) and "\ufffd" in outcome.content


@pytest.mark.parametrize("fmt", FORMATS)
def test_handle_with_surrogates_appends_a_valid_round(fmt: str) -> None:
    ran = Ran()

    @th.tool
    def note(text: str) -> str:
        ran("note")
        return text

    session = th.Session([note])
    messages: list[Any] = [{"role": "user", "content": "go"}]
    turn = model_turn(fmt, [("note", {"text": "a \ud800 b"}), ("n\udc00te", {})])
    assert session.handle(turn, messages, format=fmt)  # type: ignore[arg-type]
    check(messages, fmt)
    assert encodes(messages)
    assert ran.count("note") == 1


def test_real_anthropic_client_can_send_the_round_back(server: ScriptedServer) -> None:
    """The model's turn carries lone surrogates (JSON escapes); the next request, made by
    the real SDK from the appended list, must still encode."""
    server.push(200, model_turn("anthropic", [("get_order", {"order_id": "ORD-\ud800"})]))
    server.push(200, model_turn("anthropic", [], "done"))
    client = anthropic.Anthropic(api_key="test", base_url=server.url, max_retries=0)
    session = th.Session([get_order])
    messages: list[Any] = [{"role": "user", "content": "find it"}]
    response = client.messages.create(model="m", max_tokens=10, messages=messages,
                                       tools=session.schemas("anthropic"))  # type: ignore[arg-type]
    assert session.handle(response, messages)
    final = client.messages.create(model="m", max_tokens=10, messages=messages,
                                   tools=session.schemas("anthropic"))  # type: ignore[arg-type]
    assert not session.handle(final, messages)
    sent = server.requests[-1].body["messages"]
    assert "\ufffd" in json.dumps(sent, ensure_ascii=False)
    check(messages, "anthropic")


def test_deeply_nested_json_arguments_are_a_bad_request() -> None:
    ran = Ran()

    @th.tool
    def take(x: Any = None) -> str:
        ran("take")
        return "ok"

    session = th.Session([take])
    for raw in ("[" * 100_000 + "]" * 100_000, '{"x":' * 100_000 + "1" + "}" * 100_000):
        outcome = session.call("take", raw)
        assert outcome.content.startswith("[error] take: bad_request.")
        assert "nested too deeply" in outcome.content and outcome.attempts == 0
    assert ran.count("take") == 0


def test_deeply_nested_dict_arguments_never_escape() -> None:
    @th.tool
    def count(x: int) -> str:
        return "ok"

    outcome = th.Session([count]).call("count", {"x": _deep(100_000)})
    assert outcome.content.startswith("[error] count: bad_request.")


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("circular", id="circular"),
        pytest.param("deep", id="nested past the stack"),
        pytest.param("default raises", id="str() raises"),
    ],
)
def test_result_that_cannot_become_text_is_a_failure_that_says_it_ran(value: str) -> None:
    ran = Ran()

    class NoStr:
        def __str__(self) -> str:
            raise RuntimeError("no")

    @th.tool
    def make() -> Any:
        ran("make")
        if value == "circular":
            loop: dict[str, Any] = {}
            loop["self"] = loop
            return loop
        if value == "deep":
            return _deep(100_000)
        return {"x": NoStr()}

    outcome = th.Session([make]).call("make")
    assert ran.count("make") == 1
    assert not outcome.ok and "make ran, but" in outcome.content


@pytest.mark.parametrize("fmt", FORMATS)
def test_handle_is_atomic_when_a_call_is_interrupted(fmt: str) -> None:
    """KeyboardInterrupt from one of two parallel calls: nothing is appended."""

    @th.tool
    def fine() -> str:
        return "ok"

    @th.tool
    def interrupted() -> str:
        raise KeyboardInterrupt

    session = th.Session([fine, interrupted])
    messages: list[Any] = [{"role": "user", "content": "go"}]
    with pytest.raises(KeyboardInterrupt):
        session.handle(model_turn(fmt, [("interrupted", {}), ("fine", {})]), messages,
                       format=fmt)  # type: ignore[arg-type]
    assert messages == [{"role": "user", "content": "go"}]


@pytest.mark.parametrize("fmt", FORMATS)
async def test_ahandle_is_atomic_when_cancelled(fmt: str) -> None:
    started = asyncio.Event()

    @th.tool
    async def wait() -> str:
        started.set()
        await asyncio.Event().wait()
        return "never"

    session = th.Session([wait])
    messages: list[Any] = [{"role": "user", "content": "go"}]
    task = asyncio.ensure_future(session.ahandle(model_turn(fmt, [("wait", {})] * 2), messages,
                                                 format=fmt))  # type: ignore[arg-type]
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert messages == [{"role": "user", "content": "go"}]
