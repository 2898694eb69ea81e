"""Offline demo: one scripted conversation, run with blind appending and with toolhygiene.

The model (a scripted server on 127.0.0.1, driven through the real anthropic SDK) asks
for the weather in Paris, misspells the city twice, then hits a 503 blip from the weather
service. The blind loop pastes ``repr(exc)`` and the traceback into the context and
keeps every error; toolhygiene sends one line per failure, retries the blip locally and
clears the errors once the agent recovers. Printed: the context each request carried.
"""

from __future__ import annotations

import json
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


def blind_handle(response: Any, messages: list[Any], tools: dict[str, Callable[..., Any]]) -> bool:
    """The anti-pattern: append whatever the tool raised, traceback and all, forever."""
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
            content, is_error = f"Error: {exc!r}\n{traceback.format_exc()}", True
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


def run(blind: bool) -> tuple[list[int], str]:
    model, weather = ScriptedServer(), ScriptedServer()
    turns: list[list[tuple[str, dict[str, Any]]]] = [
        [("get_weather", {"city": "Pariss"}), ("get_time", {"city": "Paris"})],
        [("get_weather", {"city": "Pari"})],
        [("get_weather", {"city": "Paris"})],
    ]
    weather.push(404, NOT_FOUND_PAGE)
    weather.push(404, NOT_FOUND_PAGE)
    weather.push(503, BUSY_PAGE)  # a blip: toolhygiene retries it locally
    if blind:  # the blind loop's model sees the 503 and calls again
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
            sizes.append(len(json.dumps(model.requests[-1].body["messages"])))
            tools = {"get_weather": get_weather, "get_time": get_time}
            going = (
                blind_handle(response, messages, tools)
                if blind
                else session.handle(response, messages)
            )
            if not going:
                break
    model.stop()
    weather.stop()
    first_error = (
        messages[2]["content"][0]["content"]
        if blind
        else next(c for c in seen.contents if c.startswith("[error]"))
    )
    return sizes, first_error


def main() -> None:
    structlog.configure(logger_factory=structlog.ReturnLoggerFactory())  # quiet demo
    (blind, blind_error), (clean, clean_error) = run(blind=True), run(blind=False)
    print("Context sent with each request (characters of the messages list):\n")
    print(f"{'request':>8} {'blind appending':>17} {'toolhygiene':>13}")
    for i in range(max(len(blind), len(clean))):
        left = f"{blind[i]:,}" if i < len(blind) else "-"
        right = f"{clean[i]:,}" if i < len(clean) else "-"
        print(f"{i + 1:>8} {left:>17} {right:>13}")
    print(
        f"\n{'total':>8} {sum(blind):>17,} {sum(clean):>13,}   "
        f"({sum(blind) / sum(clean):.1f}x the context, {len(blind) - len(clean)} more request)"
    )
    lines = blind_error.splitlines()
    print(
        f"\nThe first failure, blind ({len(lines)} lines, {len(blind_error):,} characters, "
        "kept to the end):"
    )
    print("  " + "\n  ".join(lines[:3]) + "\n  ...")
    print("The first failure, toolhygiene (one line, cleared once the agent recovered):")
    print("  " + clean_error)


if __name__ == "__main__":
    main()
