"""A LangGraph graph with toolhygiene's ToolNode, driven by LangChain's fake chat model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    ToolMessage,
)
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import tools_condition
from pydantic import Field

import toolhygiene as th
from integration_tests.tools import DSN, MULTI, Received, World, check_multi, notice
from toolhygiene._words import cut_turn_line
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
          seen: list[list[AnyMessage]], *, saved: bool = True) -> Any:
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
    return builder.compile(checkpointer=InMemorySaver() if saved else None)


def as_chat(messages: Sequence[BaseMessage]) -> list[dict[str, Any]]:
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
    """The fake model, accepting ``bind_tools`` as create_react_agent calls it; ``seen``
    gets the messages of every request, exactly as the model receives them."""

    seen: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


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
    # "a" was the least recently used: closed, forgotten; the Session made at construction
    # (the tools' definitions) serves no thread
    assert [s.is_closed for s in made] == [False, True, False, False]
    assert node.session_of("a") is not made[1]
    assert node.release("c") and made[3].is_closed
    assert not node.release("c")
    with pytest.raises(th.UsageError, match="max_threads"):
        tool_node(per_thread, max_threads=0)



def received_by_turn(seen: list[list[AnyMessage]] | list[list[BaseMessage]]) -> Received:
    """Each turn's results as the model received them, when it was next asked."""
    out: Received = []
    for state in seen[1:]:
        last_ai = max(i for i, m in enumerate(state) if isinstance(m, AIMessage))
        out.append([(m.status == "error", str(m.content)) for m in state[last_ai + 1:]
                    if isinstance(m, ToolMessage)])
    return out


def by_rounds(messages: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    """The (role, content) of each message, a round's results as a sorted tuple. The calls
    of a turn run at once: which of two read_db failures reached the cap first, and
    whether the second ran at all, vary; check_multi checks read_db's lines."""
    out: list[tuple[str, Any]] = []
    for given in messages:
        m = given
        if str(m.get("content")).startswith("[error] read_db: "):
            m = {**m, "content": "[error] read_db"}  # check_multi checks these lines
        if m["role"] == "tool" and out and out[-1][0] == "tool":
            out[-1] = ("tool", tuple(sorted([*out[-1][1], m["content"]])))
        elif m["role"] == "tool":
            out.append(("tool", (m["content"],)))
        else:
            out.append((m["role"], m.get("content") or ""))
    return out


def handled(rounds: list[Calls]) -> list[dict[str, Any]]:
    """The conversation Session.handle leaves for ``rounds`` (the reference)."""
    from toolhygiene.testing import model_turn

    messages: list[Any] = [{"role": "user", "content": "q"}]
    with th.Session(World(blips=0).tools()) as session:
        for calls in rounds:
            session.handle(model_turn("openai_chat", calls), messages)
    return messages


@pytest.mark.parametrize("asynchronous", [False, True])
async def test_turns_of_several_calls(asynchronous: bool) -> None:
    """A turn's calls run at once through the thread's Session: caps count each failure
    once, and the state is, message for message, what Session.handle leaves."""
    world = World(blips=0)
    seen: list[list[AnyMessage]] = []
    node = tool_node(lambda thread: th.Session(world.tools()))
    app = graph(node, turns(*MULTI), seen)
    question = {"messages": [HumanMessage("q")]}
    if asynchronous:
        await app.ainvoke(question, RUN)
    else:
        app.invoke(question, RUN)
    check_multi(received_by_turn(seen), world, node.session_of("t1"))
    assert by_rounds(as_chat(seen[-1])) == by_rounds(handled(MULTI))


@pytest.mark.parametrize("version", ["v1", "v2"])
@pytest.mark.parametrize("asynchronous", [False, True])
async def test_create_react_agent_turns_of_several_calls(
    version: Literal["v1", "v2"], asynchronous: bool
) -> None:
    """v2 sends each call of a turn on its own (``Send``): the turn's calls still count as
    one turn's, and the state is what Session.handle leaves."""
    from langgraph.prebuilt import create_react_agent

    world = World(blips=0)
    node = tool_node(lambda thread: th.Session(world.tools()))
    model = _Bound(messages=iter(turns(*MULTI)), seen=[])
    app = create_react_agent(model, node, checkpointer=InMemorySaver(), version=version)
    question = {"messages": [HumanMessage("q")]}
    run: RunnableConfig = {"configurable": {"thread_id": "t1"}}
    out = (await app.ainvoke(question, run)) if asynchronous else app.invoke(question, run)
    assert out["messages"][-1].content == "done"
    check_multi(received_by_turn(model.seen), world, node.session_of("t1"))
    assert by_rounds(as_chat(model.seen[-1])) == by_rounds(handled(MULTI))


def test_runs_without_a_thread_share_nothing() -> None:
    """A run without thread_id gets, each round, a Session taken up from the graph's
    messages: two such runs never share caps, and a run given its whole history back
    goes on with them (the closed tool stays closed, it does not run)."""
    world = World(blips=0)
    node = tool_node(lambda thread: th.Session(world.tools()))
    first = graph(node, turns([("read_db", {"table": "x"})], [("read_db", {"table": "x"})]),
                  [], saved=False).invoke({"messages": [HumanMessage("q")]})
    again = graph(node, turns([("read_db", {"table": "x"})]), [], saved=False).invoke(
        {"messages": [HumanMessage("q2")]})
    # each conversation ran read_db once, its own cap closed it in the first
    assert world.ran == ["read_db:x", "read_db:x"]
    assert tool_results(first["messages"])[1].content == notice("read_db", 1)
    assert str(tool_results(again["messages"])[0].content).startswith("[error] read_db: not")
    seen: list[list[AnyMessage]] = []
    graph(node, turns([("read_db", {"table": "x"})]), seen, saved=False).invoke(
        {"messages": [*first["messages"], HumanMessage("and now?")]})
    assert world.ran == ["read_db:x", "read_db:x"]  # it found the tool closed
    assert tool_results(seen[-1])[-1].content == notice("read_db", 1)
    with pytest.raises(th.UsageError, match="thread_id"):
        node.session_of(None)
    assert not node.release(None)


CUT_METADATA = [
    {"finish_reason": "length"},                 # ChatOpenAI
    {"stop_reason": "max_tokens"},               # ChatAnthropic
    {"stop_reason": "model_context_window_exceeded"},
    {"status": "incomplete"},                    # ChatOpenAI over the Responses API
]


@pytest.mark.parametrize("asynchronous", [False, True])
@pytest.mark.parametrize("metadata", CUT_METADATA)
async def test_a_turn_cut_by_the_token_limit_runs_nothing(
    metadata: dict[str, Any], asynchronous: bool
) -> None:
    """LangChain repairs a cut ``'{"city": "Par'`` into arguments that look whole; the
    turn's reason says it was cut: nothing runs, nothing counts, every call (the unparsed
    one too) is told it did not run."""
    world = World(blips=0)
    session = th.Session(world.tools())
    cut = AIMessage(
        content="", response_metadata=metadata,
        tool_calls=[{"name": "read_db", "args": {"table": "x"}, "id": "c1", "type": "tool_call"},
                    {"name": "get_weather", "args": {"city": "Par"}, "id": "c2",
                     "type": "tool_call"}],
        invalid_tool_calls=[{"name": "get_weather", "args": '{"city": "Par', "id": "c3",
                             "error": None, "type": "invalid_tool_call"}],
    )
    builder = StateGraph(MessagesState)
    builder.add_node("tools", tool_node(session))
    builder.add_edge(START, "tools")
    app = builder.compile()
    state: MessagesState = {"messages": [HumanMessage("q"), cut]}
    out = await app.ainvoke(state) if asynchronous else app.invoke(state)
    results = tool_results(out["messages"])
    assert [m.tool_call_id for m in results] == ["c1", "c2", "c3"]
    assert all(m.status == "error" for m in results)
    assert results[0].content == cut_turn_line("read_db")
    assert "did not run" in results[1].content and "token limit" in results[1].content
    assert world.ran == []
    assert session.stats()["calls"] == 0 and session.stats()["failures"] == {}


def test_a_cut_turn_sent_call_by_call_runs_nothing() -> None:
    """``create_react_agent(version="v2")`` sends each call of the cut turn alone."""
    from langgraph.prebuilt import create_react_agent

    world = World(blips=0)
    cut = AIMessage(content="", response_metadata={"finish_reason": "length"}, tool_calls=[
        {"name": "read_db", "args": {"table": "x"}, "id": f"c{i}", "type": "tool_call"}
        for i in range(2)
    ], invalid_tool_calls=[{"name": "read_db", "args": '{"table": "x', "id": "c2",
                            "error": "cut", "type": "invalid_tool_call"}])
    app = create_react_agent(_Bound(messages=iter([cut, AIMessage(content="done")])),
                             tool_node(lambda thread: th.Session(world.tools())),
                             checkpointer=InMemorySaver(), version="v2")
    out = app.invoke({"messages": [HumanMessage("q")]}, {"configurable": {"thread_id": "t"}})
    results = tool_results(out["messages"])
    assert sorted(m.tool_call_id for m in results) == ["c0", "c1", "c2"]  # each once
    assert all("did not run" in m.content for m in results)
    assert world.ran == [] and out["messages"][-1].content == "done"


def _with_invalid(call_id: str, raw: str = '{"city": "Par') -> AIMessage:
    """A turn as ChatOpenAI/ChatAnthropic give it when one call's argument JSON does not
    parse: the valid call in ``tool_calls``, the other in ``invalid_tool_calls``."""
    return AIMessage(
        content="",
        tool_calls=[{"name": "get_weather", "args": {"city": "Paris"},
                     "id": f"{call_id}_ok", "type": "tool_call"}],
        invalid_tool_calls=[{"name": "get_weather", "args": raw, "id": call_id,
                             "error": "bad json", "type": "invalid_tool_call"}],
    )


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_invalid_tool_calls_are_answered_and_counted(version: Literal["v1", "v2"]) -> None:
    """A call LangChain could not parse (``invalid_tool_calls``), in a turn not cut by the
    token limit, gets the malformed-arguments line with ``status="error"`` (the provider
    wants a result for every call id) and counts against the cap, once, in v1 (the whole
    turn) and v2 (one ``Send`` per valid call; the invalid ones are never sent)."""
    from langgraph.prebuilt import create_react_agent

    world = World(blips=0)
    node = tool_node(lambda thread: th.Session(world.tools()))
    model = _Bound(messages=iter([_with_invalid("bad1"), _with_invalid("bad2"),
                                  AIMessage(content="done")]))
    app = create_react_agent(model, node, checkpointer=InMemorySaver(), version=version)
    out = app.invoke({"messages": [HumanMessage("q")]}, {"configurable": {"thread_id": "t"}})
    results = {m.tool_call_id: m for m in tool_results(out["messages"])}
    assert sorted(results) == ["bad1", "bad1_ok", "bad2", "bad2_ok"]  # each answered once
    assert len(tool_results(out["messages"])) == 4
    # what the model read after the first turn (the second turn's success clears it later)
    (first,) = [m for m in model.seen[1] if isinstance(m, ToolMessage) and m.tool_call_id == "bad1"]
    second = results["bad2"]
    assert first.status == "error" and "not valid JSON" in first.content
    assert second.status == "error" and "failed 2 times" in second.content
    # every request the model received answers every call id it asked for
    for request in model.seen:
        asked = {c["id"] for m in request if isinstance(m, AIMessage)
                 for c in [*m.tool_calls, *m.invalid_tool_calls]}
        assert asked <= {m.tool_call_id for m in request if isinstance(m, ToolMessage)}


def test_an_evicted_thread_comes_back_with_what_its_messages_prove() -> None:
    """With ``max_threads``, a thread whose Session was evicted gets, back, a Session taken
    up from the graph's messages: a tool it was told is closed does not run again, and the
    counts it reads are the thread's."""
    world = World(blips=0)
    node = tool_node(lambda thread: th.Session(world.tools()), max_threads=1)
    replies: list[AIMessage] = []
    for visit in range(3):
        replies += [AIMessage(content="", tool_calls=[
            {"name": "read_db", "args": {"table": "x"}, "id": f"v{visit}", "type": "tool_call"}]),
            AIMessage(content="done")]
    app = graph(node, replies, [])
    last: dict[str, str] = {}
    for thread in ("t1", "t2", "t1"):
        out = app.invoke({"messages": [HumanMessage("q")]},
                         {"configurable": {"thread_id": thread}})
        last[thread] = str(tool_results(out["messages"])[-1].content)
    assert world.ran.count("read_db:x") == 2  # once in t1, once in t2; not again in t1
    assert "closed after 1 failure" in last["t1"] and "did not run" in last["t1"]
