"""Offline demo: one scripted conversation, run three ways.

The model (a scripted server on 127.0.0.1, driven through the real anthropic SDK) asks
for the weather in Paris, misspells the city twice, then hits a 503 blip from the weather
service. Compared:

- ``Error: {exc}``: what most hand-rolled loops append as the tool result, kept forever;
- the same with the full traceback appended (what some loops and frameworks send);
- toolhygiene: one line per failure, the blip retried locally, the errors cleared once
  get_weather succeeds.

Printed: the characters of the messages list each request carried. The servers' address
(a random port) is replaced by one fixed name and file paths are made relative before
counting, so the figures are the same on every machine.
"""

from __future__ import annotations

import json
import re
import traceback
from collections.abc import Callable
from typing import Any

import anthropic
import httpx
import structlog

import toolhygiene as th
from toolhygiene.testing import ScriptedServer, model_turn

QUESTION = {"role": "user", "content": "What are the weather and the time in Paris?"}
WEATHER_OK = {"city": "Paris", "temperature_c": 21, "sky": "clear"}
NOT_FOUND_PAGE = "<html><body><h1>404</h1><p>No such station.</p></body></html>"
BUSY_PAGE = "<html><body><h1>503 Service Unavailable</h1></body></html>"


def make_tools(weather: ScriptedServer) -> tuple[Callable[..., Any], Callable[..., Any]]:
    def get_weather(city: str) -> Any:
        """Current weather in a city."""
        response = httpx.get(f"{weather.url}/weather", params={"city": city}, timeout=5)
        response.raise_for_status()
        return response.json()

    def get_time(city: str) -> str:
        """Local time in a city."""
        return "14:05"

    return get_weather, get_time


Blind = str  # "" for toolhygiene, else "message" or "traceback"


def blind_handle(
    response: Any, messages: list[Any], tools: dict[str, Callable[..., Any]], how: Blind
) -> bool:
    """A typical hand-rolled loop: append whatever the tool raised, and keep it forever."""
    messages.append(
        {
            "role": "assistant",
            "content": [b.model_dump(exclude_none=True) for b in response.content],
        }
    )
    calls = [b for b in response.content if b.type == "tool_use"]
    if not calls:
        return False
    results = []
    for call in calls:
        try:
            content, is_error = json.dumps(tools[call.name](**call.input)), False
        except Exception as exc:
            content, is_error = f"Error: {exc}", True
            if how == "traceback":
                content += "\n" + traceback.format_exc()
        results.append(
            {
                "type": "tool_result",
                "tool_use_id": call.id,
                "content": content,
                "is_error": is_error,
            }
        )
    messages.append({"role": "user", "content": results})
    return True


ROOT = re.escape(str(__import__("pathlib").Path(__file__).resolve().parent.parent))


def measured(body: Any, addresses: list[str]) -> int:
    """Characters of a request's messages, with machine-specific text made fixed."""
    text = json.dumps(body["messages"])
    for address in addresses:
        text = text.replace(address.removeprefix("http://"), "weather.internal")
    text = re.sub(r"(?:/[^\s\"']*)?/site-packages/", "site-packages/", text)
    return len(re.sub(ROOT, ".", text))


def run(how: Blind) -> tuple[list[int], str]:
    model, weather = ScriptedServer(), ScriptedServer()
    turns: list[list[tuple[str, dict[str, Any]]]] = [
        [("get_weather", {"city": "Pariss"}), ("get_time", {"city": "Paris"})],
        [("get_weather", {"city": "Pari"})],
        [("get_weather", {"city": "Paris"})],
    ]
    weather.push(404, NOT_FOUND_PAGE)
    weather.push(404, NOT_FOUND_PAGE)
    weather.push(503, BUSY_PAGE)  # a blip: toolhygiene retries it locally
    if how:  # the blind loop's model sees the 503 and calls again
        turns.append([("get_weather", {"city": "Paris"})])
    weather.push(200, WEATHER_OK)
    for calls in turns:
        model.push(200, model_turn("anthropic", calls))
    model.push(200, model_turn("anthropic", [], "Paris: 21C and clear, 14:05."))

    client = anthropic.Anthropic(base_url=model.url, api_key="offline", max_retries=0)
    get_weather, get_time = make_tools(weather)
    session = th.Session([th.tool(get_weather), th.tool(get_time)], max_failures=3)
    messages: list[Any] = [QUESTION]
    sizes = []
    with th.testing.instant_retries(), th.testing.capture() as seen:
        while True:
            response = client.messages.create(
                model="demo", max_tokens=512, messages=messages, tools=session.schemas("anthropic")
            )
            sizes.append(measured(model.requests[-1].body, [weather.url, model.url]))
            tools = {"get_weather": get_weather, "get_time": get_time}
            going = (
                blind_handle(response, messages, tools, how)
                if how
                else session.handle(response, messages)
            )
            if not going:
                break
    model.stop()
    weather.stop()
    first_error = (
        messages[2]["content"][0]["content"]
        if how
        else next(c for c in seen.contents if c.startswith("[error]"))
    )
    return sizes, first_error.replace(weather.url, "http://weather.internal")


def main() -> None:
    structlog.configure(logger_factory=structlog.ReturnLoggerFactory())  # quiet demo
    (plain, plain_error), (full, _), (clean, clean_error) = (
        run("message"),
        run("traceback"),
        run(""),
    )
    print("Context sent with each request (characters of the messages list):\n")
    print(f"{'request':>8} {'Error: {exc}':>14} {'+ traceback':>12} {'toolhygiene':>12}")
    for i in range(max(len(plain), len(clean))):
        cells = [f"{c[i]:,}" if i < len(c) else "-" for c in (plain, full, clean)]
        print(f"{i + 1:>8} {cells[0]:>14} {cells[1]:>12} {cells[2]:>12}")
    print(
        f"\n{'total':>8} {sum(plain):>14,} {sum(full):>12,} {sum(clean):>12,}\n"
        f"toolhygiene carried {sum(plain) / sum(clean):.1f}x less context than 'Error: {{exc}}' "
        f"and {sum(full) / sum(clean):.1f}x less than with tracebacks, in "
        f"{len(plain) - len(clean)} request fewer (the 503 blip was retried locally)."
    )
    print("\nThe first failure, 'Error: {exc}' (kept to the end):")
    print("  " + "\n  ".join(plain_error.splitlines()))
    print("The first failure, toolhygiene (one line, cleared once get_weather succeeded):")
    print("  " + clean_error)


if __name__ == "__main__":
    main()
