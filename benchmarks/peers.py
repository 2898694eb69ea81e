"""The same scripted scenarios through each framework's default, the same framework with
toolhygiene plugged in, hand-rolled blind appending and toolhygiene's own loop.

Scenarios (each tool raises a real exception): a transient blip (a reset connection,
once); a bad argument corrected (``days="many"``); a missing record with an alternative
tool (``get_order`` fails, ``search_orders`` works); a DSN with a password in an
exception; a non-idempotent ``charge`` that times out after taking effect.

The model is the same scripted policy for every system, reading only the text it
received: it calls the same tool again when the text invites it ("try again", "retry",
"transient", or a bare error it cannot tell from a blip), at most three times; it switches
to ``search_orders`` when the text names it; it corrects ``days`` when the text names the
argument; after a failure whose text says the outcome may have taken effect it checks
``charge_status`` instead of charging again; otherwise it answers.

Per system and scenario: requests to the model, characters of context per request (every
text, tool argument and tool result the model received), error characters still in the
context at the last request, requests carrying the secret, calls of ``charge``, and
whether the run survived (ended with the model's answer, not an exception). The
frameworks run for real: the Anthropic tool runner and the Agents SDK against a scripted
server on 127.0.0.1, LangGraph with a scripted model node, pydantic-ai with
``FunctionModel``. Writes ``benchmarks/peers.png`` (context per request) and prints the
README table.

Run: ``make peers`` (installs the ``bench`` group).
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"  # nothing leaves the machine

import toolhygiene as th
from toolhygiene.testing import Reply as _Reply
from toolhygiene.testing import ScriptedServer, Seen, model_turn

SECRET = "hunter2-s3cret"
DSN = f"postgresql://app:{SECRET}@10.0.3.7:5432/orders"
SUCCESSES = {"21C, clear", "21C, 22C, 19C", "ORD-88213: 2 books, shipped", "charged once: ok"}
Call = tuple[str, dict[str, Any]]


# -- the world: tools raising real exceptions ---------------------------------------------


@dataclass
class World:
    scenario: str
    blips: int = 1
    charges: int = 0

    def get_weather(self, city: str) -> str:
        """The weather now in a city.

        Args:
            city: the city's name.
        """
        if self.scenario == "dsn":
            raise sqlite3.OperationalError(f"unable to open database {DSN}")
        if self.blips:
            self.blips -= 1
            raise ConnectionResetError(104, "Connection reset by peer")
        return "21C, clear"

    def forecast(self, city: str, days: int) -> str:
        """The forecast for the next days.

        Args:
            city: the city's name.
            days: how many days, a whole number.
        """
        return "21C, 22C, 19C"

    def get_order(self, order_id: str) -> str:
        """One order by its id.

        Args:
            order_id: the order's id.
        """
        raise LookupError(f"no order with id {order_id}; look it up with search_orders")

    def search_orders(self, customer: str) -> str:
        """The orders of a customer.

        Args:
            customer: the customer's e-mail.
        """
        return "ORD-88213: 2 books, shipped"

    def charge(self, amount_cents: int) -> str:
        """Charge the customer's card.

        Args:
            amount_cents: the amount, in cents.
        """
        self.charges += 1
        raise TimeoutError("the payment service did not answer within 5 s")

    def charge_status(self, amount_cents: int) -> str:
        """Whether a charge went through.

        Args:
            amount_cents: the amount, in cents.
        """
        return "charged once: ok"

    def functions(self) -> list[Callable[..., str]]:
        return [self.get_weather, self.forecast, self.get_order, self.search_orders,
                self.charge, self.charge_status]

    def hygienic(self) -> list[th.Tool[..., str]]:
        out = []
        for fn in self.functions():
            idempotent = fn.__name__ != "charge"
            instead = "use search_orders with the customer's e-mail" if (
                fn.__name__ == "get_order") else ""
            out.append(th.tool(idempotent=idempotent, instead=instead)(fn))
        return out


FIRST: dict[str, Call] = {
    "blip": ("get_weather", {"city": "Paris"}),
    "bad_argument": ("forecast", {"city": "Paris", "days": "many"}),
    "missing": ("get_order", {"order_id": "ORD-88213"}),
    "dsn": ("get_weather", {"city": "Paris"}),
    "charge": ("charge", {"amount_cents": 1299}),
}
SCENARIOS = list(FIRST)


def succeeded(result: str) -> bool:
    """A tool's own success value (a note about recovered errors may follow it)."""
    return result.split("\n\n", 1)[0] in SUCCESSES


def decide(scenario: str, results: list[str]) -> Call | None:
    """The scripted model: the next call, from the tool results it has read, or None to
    answer."""
    if not results:
        return FIRST[scenario]
    last = results[-1]
    if succeeded(last):
        return None
    if len(results) > 3:
        return None
    low = last.lower()
    name, args = FIRST[scenario] if scenario != "missing" or "search_orders" not in low else (
        "search_orders", {"customer": "ana@example.com"})
    if name == "search_orders":
        return name, args
    if scenario == "charge" and ("took effect" in low or "check whether" in low):
        return "charge_status", {"amount_cents": 1299}
    if scenario == "bad_argument" and "days" in low:
        return "forecast", {"city": "Paris", "days": 3}
    invited = any(w in low for w in ("try again", "retry", "transient", "call it again"))
    unclear = not low.startswith("[error]") and "not transient" not in low
    if invited or unclear:
        return name, args
    return None


# -- measuring ------------------------------------------------------------------------------


@dataclass
class Run:
    contexts: list[int] = field(default_factory=list)
    last_results: list[str] = field(default_factory=list)
    leaked: int = 0
    survived: bool = True
    charges: int = 0

    @property
    def left(self) -> int:
        return sum(len(r) for r in self.last_results if not succeeded(r))


def texts(node: Any, keys: tuple[str, ...] = ("text", "content", "output", "arguments")) -> int:
    """Characters of text, tool arguments and tool results in a request body."""
    if isinstance(node, str):
        return len(node)
    if isinstance(node, list):
        return sum(texts(n) for n in node)
    if isinstance(node, dict):
        total = 0
        for key, value in node.items():
            if key == "input" and isinstance(value, dict):
                total += len(json.dumps(value))
            elif key in keys or isinstance(value, (list, dict)):
                total += texts(value)
        return total
    return 0


def results_in(body: Any) -> list[str]:
    """The tool results in a request body, in order (Anthropic or Responses)."""
    out: list[str] = []
    for item in body:
        if isinstance(item, dict) and item.get("type") == "function_call_output":
            out.append(str(item["output"]))
        content = item.get("content") if isinstance(item, dict) else None
        for block in content if isinstance(content, list) else ():
            if isinstance(block, dict) and block.get("type") == "tool_result":
                value = block.get("content")
                out.append(value if isinstance(value, str) else json.dumps(value))
    return out


class Reactive(ScriptedServer):
    """A scripted server whose model is ``decide``: each reply computed from the request."""

    def __init__(self, scenario: str, fmt: str, run: Run) -> None:
        super().__init__()
        self.scenario, self.fmt, self.run = scenario, fmt, run
        self.thread: list[Any] = []

    def _take(self, seen: Seen) -> _Reply:
        body = seen.body or {}
        if self.fmt == "anthropic":
            if (body.get("thread") or {}).get("type") != "continue":
                self.thread = []
            self.thread += body.get("messages", [])   # the server holds the thread
            history = list(self.thread)
        else:
            history = list(body.get("input", []))
        self.run.contexts.append(texts(history))
        self.run.leaked += int(SECRET in json.dumps(history))
        results = results_in(history)
        self.run.last_results = results
        nxt = decide(self.scenario, results)
        turn = model_turn(self.fmt, [nxt] if nxt else [], text="" if nxt else "Done.")
        if self.fmt == "anthropic":
            self.thread.append({"role": "assistant", "content": turn["content"]})
        return _Reply(200, turn)


# -- the systems ---------------------------------------------------------------------------


def blind(scenario: str) -> Run:
    """Hand-rolled: every traceback appended as the tool result, nothing removed."""
    world, run = World(scenario), Run()
    tools = {f.__name__: f for f in world.functions()}
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Help me."}]
    while True:
        run.contexts.append(texts(messages))
        run.leaked += int(SECRET in json.dumps(messages))
        results = results_in(messages)
        run.last_results = results
        nxt = decide(scenario, results)
        if nxt is None:
            break
        turn = model_turn("anthropic", [nxt])
        messages.append({"role": "assistant", "content": turn["content"]})
        block = turn["content"][0]
        try:
            content = str(tools[block["name"]](**block["input"]))
        except Exception:
            content = traceback.format_exc()
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": block["id"], "content": content}]})
    run.charges = world.charges
    return run


def own_loop(scenario: str) -> Run:
    """toolhygiene's own loop: Session.handle over the Anthropic format."""
    world, run = World(scenario), Run()
    messages: list[Any] = [{"role": "user", "content": "Help me."}]
    with th.Session(world.hygienic()) as session:
        while True:
            run.contexts.append(texts(messages))
            run.leaked += int(SECRET in json.dumps(messages))
            results = results_in(messages)
            run.last_results = results
            nxt = decide(scenario, results)
            turn = model_turn("anthropic", [nxt] if nxt else [], text="" if nxt else "Done.")
            if not session.handle(turn, messages):
                break
    run.charges = world.charges
    return run


def anthropic_runner(scenario: str, hygiene: bool) -> Run:
    import anthropic
    from anthropic import beta_tool

    from toolhygiene.integrations.anthropic import runner_tools

    world, run = World(scenario), Run()
    with Reactive(scenario, "anthropic", run) as server:
        client = anthropic.Anthropic(base_url=server.url, api_key="k", max_retries=0)
        session = th.Session(world.hygienic())
        tools: Any = runner_tools(session) if hygiene else [
            beta_tool(f) for f in world.functions()]
        try:
            client.beta.messages.tool_runner(
                model="m", max_tokens=100, tools=tools,
                messages=[{"role": "user", "content": "Help me."}]).until_done()
        except Exception:
            run.survived = False
    run.charges = world.charges
    return run


def openai_agents(scenario: str, hygiene: bool) -> Run:
    import openai
    from agents import Agent, OpenAIResponsesModel, Runner, function_tool

    from toolhygiene.integrations.openai_agents import function_tools

    world, run = World(scenario), Run()
    with Reactive(scenario, "openai_responses", run) as server:
        client = openai.AsyncOpenAI(base_url=server.url, api_key="k", max_retries=0)
        tools: Any = function_tools(th.Session(world.hygienic())) if hygiene else [
            function_tool(f) for f in world.functions()]
        agent = Agent(name="a", model=OpenAIResponsesModel(model="m", openai_client=client),
                      tools=tools)
        try:
            Runner.run_sync(agent, "Help me.")
        except Exception:
            run.survived = False
    run.charges = world.charges
    return run


def langgraph(scenario: str, hygiene: bool) -> Run:
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    from toolhygiene.integrations.langgraph import tool_node

    world, run = World(scenario), Run()

    def agent(state: MessagesState) -> dict[str, Any]:
        messages = state["messages"]
        run.contexts.append(sum(len(str(m.content)) + len(json.dumps(
            [c["args"] for c in m.tool_calls] if isinstance(m, AIMessage) else ""))
            for m in messages))
        run.leaked += int(SECRET in str([m.content for m in messages]))
        results = [str(m.content) for m in messages if isinstance(m, ToolMessage)]
        run.last_results = results
        nxt = decide(scenario, results)
        if nxt is None:
            return {"messages": [AIMessage("Done.")]}
        call = {"name": nxt[0], "args": nxt[1], "id": f"c{len(results)}", "type": "tool_call"}
        return {"messages": [AIMessage("", tool_calls=[call])]}

    node: Any = tool_node(th.Session(world.hygienic())) if hygiene else ToolNode(
        world.functions())
    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_node("tools", node)
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", tools_condition)
    builder.add_edge("tools", "agent")
    try:
        builder.compile().invoke({"messages": [HumanMessage("Help me.")]})
    except Exception:
        run.survived = False
    run.charges = world.charges
    return run


def pydantic_ai(scenario: str, hygiene: bool) -> Run:
    from pydantic_ai import Agent
    from pydantic_ai.messages import (
        ModelRequest,
        ModelResponse,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
        UserPromptPart,
    )
    from pydantic_ai.models.function import FunctionModel

    from toolhygiene.integrations.pydantic_ai import toolset

    world, run = World(scenario), Run()

    def respond(messages: list[Any], info: Any) -> ModelResponse:
        parts = [p for m in messages for p in m.parts]
        size, results = 0, []
        for part in parts:
            if isinstance(part, ToolReturnPart):
                results.append(part.model_response_str())
                size += len(results[-1])
            elif isinstance(part, (UserPromptPart, TextPart)):
                size += len(str(part.content))
            elif isinstance(part, ToolCallPart):
                size += len(part.args_as_json_str())
            elif isinstance(part, ModelRequest):  # pragma: no cover
                pass
            else:  # a retry prompt part
                text = part.model_response()
                results.append(text)
                size += len(text)
        run.contexts.append(size)
        run.leaked += int(SECRET in " ".join(results))
        run.last_results = results
        nxt = decide(scenario, results)
        if nxt is None:
            return ModelResponse(parts=[TextPart("Done.")])
        return ModelResponse(parts=[ToolCallPart(nxt[0], nxt[1])])

    if hygiene:
        agent = Agent(FunctionModel(respond), toolsets=[toolset(th.Session(world.hygienic()))])
    else:
        agent = Agent(FunctionModel(respond), tools=world.functions())
    try:
        agent.run_sync("Help me.")
    except Exception:
        run.survived = False
    run.charges = world.charges
    return run


SYSTEMS: dict[str, Callable[[str], Run]] = {
    "blind appending (hand-rolled)": blind,
    "toolhygiene's own loop": own_loop,
    "Anthropic tool runner": lambda s: anthropic_runner(s, False),
    "Anthropic tool runner + toolhygiene": lambda s: anthropic_runner(s, True),
    "OpenAI Agents SDK": lambda s: openai_agents(s, False),
    "OpenAI Agents SDK + toolhygiene": lambda s: openai_agents(s, True),
    "LangGraph ToolNode": lambda s: langgraph(s, False),
    "LangGraph ToolNode + toolhygiene": lambda s: langgraph(s, True),
    "pydantic-ai": lambda s: pydantic_ai(s, False),
    "pydantic-ai + toolhygiene": lambda s: pydantic_ai(s, True),
}


def main() -> None:
    import logging

    logging.disable(logging.CRITICAL)  # the frameworks' own error logs
    runs: dict[str, dict[str, Run]] = {}
    with th.testing.instant_retries():
        for name, system in SYSTEMS.items():
            runs[name] = {scenario: system(scenario) for scenario in SCENARIOS}
    print("| system | requests | context chars per request (mean) | error chars left at the "
          "end | requests with the secret | calls of `charge` | runs survived |")
    print("|---|---|---|---|---|---|---|")
    for name, by in runs.items():
        all_runs = list(by.values())
        requests = sum(len(r.contexts) for r in all_runs)
        mean = sum(sum(r.contexts) for r in all_runs) / max(requests, 1)
        print(f"| {name} | {requests} | {mean:,.0f} | {sum(r.left for r in all_runs):,} | "
              f"{sum(r.leaked for r in all_runs)} | {by['charge'].charges} | "
              f"{sum(r.survived for r in all_runs)}/{len(all_runs)} |")
    plot(runs, Path(__file__).with_name("peers.png"))


def plot(runs: dict[str, dict[str, Run]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(SCENARIOS), figsize=(4 * len(SCENARIOS), 4), sharey=True)
    for axis, scenario in zip(axes, SCENARIOS, strict=True):
        for name, by in runs.items():
            contexts = by[scenario].contexts
            axis.plot(range(1, len(contexts) + 1), contexts, marker="o",
                      linestyle="-" if "toolhygiene" in name else "--", label=name)
        axis.set_title(scenario)
        axis.set_xlabel("request")
    axes[0].set_ylabel("context characters")
    axes[-1].legend(fontsize=6, loc="upper left", bbox_to_anchor=(1, 1))
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    print(f"\nplot: {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
