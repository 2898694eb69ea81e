"""A LangGraph graph with toolhygiene's ToolNode, driven by LangChain's fake chat model."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import tools_condition

import toolhygiene as th
from integration_tests.tools import DSN, World
from toolhygiene.formats import check
from toolhygiene.integrations.langgraph import HygieneToolNode, tool_node

Calls = list[tuple[str, dict[str, Any]]]


def turns(*rounds: Calls, answer: str = "done") -> list[AIMessage]:
    out = [
        AIMessage(content="", tool_calls=[
            {"name": name, "args": args, "id": f"call_{r}_{i}", "type": "tool_call"}
            for i, (name, args) in enumerate(calls)
        ])
        for r, calls in enumerate(rounds)
    ]
    return [*out, AIMessage(content=answer)]


def graph(node: HygieneToolNode, replies: list[AIMessage],
          seen: list[list[AnyMessage]]) -> Any:
    model = GenericFakeChatModel(messages=iter(replies))

    def agent(state: MessagesState) -> dict[str, Any]:
        seen.append(list(state["messages"]))          # exactly what the model receives
        return {"messages": [model.invoke(state["messages"])]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_node("tools", node)
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", tools_condition)
    builder.add_edge("tools", "agent")
    return builder.compile(checkpointer=InMemorySaver())


def as_chat(messages: list[AnyMessage]) -> list[dict[str, Any]]:
    from toolhygiene.integrations.langgraph import _as_chat
    return [_as_chat(m) for m in messages]


RUN: dict[str, Any] = {"configurable": {"thread_id": "t1"}}


def tool_results(messages: list[AnyMessage]) -> list[ToolMessage]:
    return [m for m in messages if isinstance(m, ToolMessage)]


@pytest.mark.parametrize("asynchronous", [False, True])
async def test_the_line_with_status_error_and_the_closed_notice(asynchronous: bool) -> None:
    world = World()
    replies = turns([("get_weather", {"city": "Pariss"})], [("read_db", {"table": "x"})],
                    [("read_db", {"table": "x"})])
    seen: list[list[AnyMessage]] = []
    app = graph(tool_node(th.Session(world.tools())), replies, seen)
    question = {"messages": [HumanMessage("Weather in Paris?")]}
    if asynchronous:
        await app.ainvoke(question, RUN)
    else:
        app.invoke(question, RUN)
    results = tool_results(seen[-1])
    assert [m.status for m in results] == ["error", "error", "error"]
    assert results[0].content == (
        "[error] get_weather: not_found. no city named Pariss. Not transient: the same call "
        "will fail the same way. Call get_weather with the city's correct name."
    )
    assert str(results[1].content).startswith("[error] read_db: ")
    assert DSN not in str(seen)
    assert "hunter2" not in str(seen)
    assert results[2].content == (
        "[error] read_db: unavailable. read_db was closed after 1 failure in this "
        "conversation; this call did not run. Continue without it, or tell the user what "
        "you could not do."
    )
    assert world.ran == ["get_weather:Pariss", "read_db:x"]
    check(as_chat(seen[-1]), "openai_chat")


@pytest.mark.parametrize("asynchronous", [False, True])
async def test_recovered_errors_leave_the_graph_state(asynchronous: bool) -> None:
    """The same clearing as Session.handle: the round of failures goes whole, the note
    rides in the successful result."""
    world = World(blips=0)
    replies = turns([("get_weather", {"city": "Pariss"})], [("get_weather", {"city": "Paris"})])
    seen: list[list[AnyMessage]] = []
    with th.Session(world.tools()) as session:
        app = graph(tool_node(session), replies, seen)
        question = {"messages": [HumanMessage("Weather in Paris?")]}
        final = (await app.ainvoke(question, RUN)) if asynchronous else app.invoke(question, RUN)
    last = seen[-1]
    assert [type(m).__name__ for m in last] == ["HumanMessage", "AIMessage", "ToolMessage"]
    (result,) = tool_results(last)
    assert result.status == "success"
    assert result.content == (
        "21C, clear\n\n[recovered] get_weather succeeded after 1 failed call; that error "
        "was removed."
    )
    assert final["messages"][-1].content == "done"
    check(as_chat(last), "openai_chat")


MIXED: list[Calls] = [
    [("get_weather", {"city": "Pariss"}), ("read_db", {"table": "x"})],
    [("get_weather", {"city": "Paris"})],
]
"""A round of two failures, then get_weather succeeds: the round is shrunk, not removed."""


def mixed_in_graph() -> list[AnyMessage]:
    """What the model receives last after MIXED ran through the graph."""
    seen: list[list[AnyMessage]] = []
    app = graph(tool_node(th.Session(World(blips=0).tools(), max_failures=3)),
                turns(*MIXED), seen)
    app.invoke({"messages": [HumanMessage("q")]}, RUN)
    return seen[-1]


def test_the_same_as_session_handle() -> None:
    """The graph's state after clearing is, message for message, what Session.handle
    leaves in a Chat Completions list for the same conversation."""
    from toolhygiene.testing import model_turn

    rounds = MIXED
    last = mixed_in_graph()

    messages: list[Any] = [{"role": "user", "content": "q"}]
    with th.Session(World(blips=0).tools(), max_failures=3) as session:
        for calls in rounds:
            session.handle(model_turn("openai_chat", calls), messages)
    shape = [(m["role"], m.get("content") or "") for m in messages]
    assert [(c["role"], c["content"]) for c in as_chat(last)] == shape
    assert "[error cleared]" in str(shape)  # the mixed round was shrunk, not removed


def test_a_cleared_stub_is_not_an_error() -> None:
    """The stub follows Session.handle's rule (the Anthropic adapter drops ``is_error``):
    once cleared, the result's status is no longer ``error``."""
    from toolhygiene.formats import STUB
    from toolhygiene.testing import model_turn

    rounds = MIXED
    last = mixed_in_graph()
    stubs = [m for m in tool_results(last) if m.content == STUB]
    assert stubs and all(m.status == "success" for m in stubs)

    messages: list[Any] = [{"role": "user", "content": "q"}]
    with th.Session(World(blips=0).tools(), max_failures=3) as session:
        for calls in rounds:
            session.handle(model_turn("anthropic", calls), messages)
    blocks = [b for m in messages if isinstance(m["content"], list) for b in m["content"]
              if b.get("type") == "tool_result" and b["content"] == STUB]
    assert blocks and not any(b.get("is_error") for b in blocks)


def test_caps_are_per_thread() -> None:
    world = World()
    made: list[str | None] = []

    def per_thread(thread: str | None) -> th.Session:
        made.append(thread)
        return th.Session(world.tools())

    node = tool_node(per_thread)
    for thread in ("a", "b"):
        seen: list[list[AnyMessage]] = []
        app = graph(node, turns([("read_db", {"table": "x"})], [("read_db", {"table": "x"})]),
                    seen)
        app.invoke({"messages": [HumanMessage("q")]}, {"configurable": {"thread_id": thread}})
        contents = [m.content for m in tool_results(seen[-1])]
        assert "unavailable" in contents[1]
    assert made == [None, "a", "b"]
    assert world.ran == ["read_db:x", "read_db:x"]  # once per thread, then closed there


def test_one_session_refuses_a_second_thread() -> None:
    node = tool_node(th.Session(World().tools()))
    def reply() -> list[AIMessage]:
        return turns([("read_db", {"table": "x"})])
    graph(node, reply(), []).invoke({"messages": [HumanMessage("q")]},
                                    {"configurable": {"thread_id": "a"}})
    with pytest.raises(th.UsageError, match="one Session per thread"):
        graph(node, reply(), []).invoke({"messages": [HumanMessage("q")]},
                                        {"configurable": {"thread_id": "b"}})


def test_the_tools_carry_the_sessions_definitions() -> None:
    session = th.Session(World().tools())
    node = tool_node(session)
    from langchain_core.utils.function_calling import convert_to_openai_tool
    sent = [convert_to_openai_tool(t) for t in node.tools_by_name.values()]
    assert [s["function"]["parameters"] for s in sent] == [
        d["function"]["parameters"] for d in session.schemas("openai_chat")]


class _Bound(GenericFakeChatModel):
    """The fake model, accepting ``bind_tools`` as create_react_agent calls it."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_create_react_agent_both_versions(version: Literal["v1", "v2"]) -> None:
    """v2 sends each call with ``Send`` (``tool_call_with_context``); caps stay per thread."""
    from langgraph.prebuilt import create_react_agent

    world = World(blips=0)
    node = tool_node(lambda thread: th.Session(world.tools()))
    for thread in ("a", "b"):
        replies = turns([("read_db", {"table": "x"})], [("read_db", {"table": "x"})],
                        [("get_weather", {"city": "Paris"})])
        app = create_react_agent(_Bound(messages=iter(replies)), node,
                                 checkpointer=InMemorySaver(), version=version)
        out = app.invoke({"messages": [HumanMessage("q")]},
                         {"configurable": {"thread_id": f"{version}{thread}"}})
        results = tool_results(out["messages"])
        assert results[-1].content == "21C, clear" and results[-1].status == "success"
        errors = [m.content for m in results if m.status == "error"]
        assert len(errors) == 2 and "closed after 1 failure" in errors[1]
        assert out["messages"][-1].content == "done"
    # read_db ran once per thread, then was closed there
    assert world.ran.count("read_db:x") == 2


def test_a_bare_list_of_tool_calls() -> None:
    """A ``Send`` of a list of tool calls (ToolNode's third input form)."""
    from langgraph.types import Send

    node = tool_node(th.Session(World(blips=0).tools()))
    call = {"name": "get_weather", "args": {"city": "Paris"}, "id": "c1", "type": "tool_call"}
    builder = StateGraph(MessagesState)
    builder.add_node("tools", node)
    builder.add_conditional_edges(START, lambda state: [Send("tools", [call])])
    out = builder.compile().invoke({"messages": [HumanMessage("q")]})
    (message,) = tool_results(out["messages"])
    assert message.content == "21C, clear" and message.tool_call_id == "c1"


def test_threads_are_keyed_by_type_and_value() -> None:
    made: list[Any] = []

    def per_thread(thread: Any) -> th.Session:
        made.append(thread)
        return th.Session(World().tools())

    node = tool_node(per_thread)
    for thread in (1, "1"):
        graph(node, turns([("read_db", {"table": "x"})]), []).invoke(
            {"messages": [HumanMessage("q")]}, {"configurable": {"thread_id": thread}})
    assert made == [None, 1, "1"]
    assert node.session_of(1) is not node.session_of("1")


def test_sessions_are_bounded_and_released() -> None:
    made: list[th.Session] = []

    def per_thread(thread: Any) -> th.Session:
        made.append(th.Session(World().tools()))
        return made[-1]

    node = tool_node(per_thread, max_threads=2)
    for thread in ("a", "b", "c"):
        graph(node, turns([("get_weather", {"city": "Paris"})]), []).invoke(
            {"messages": [HumanMessage("q")]}, {"configurable": {"thread_id": thread}})
    # None (made at construction) and "a" were the least recently used: closed, forgotten
    assert [s.is_closed for s in made] == [True, True, False, False]
    assert node.session_of("a") is not made[1]
    assert node.release("c") and made[3].is_closed
    assert not node.release("c")
    with pytest.raises(th.UsageError, match="max_threads"):
        tool_node(per_thread, max_threads=0)

