"""A hand-rolled Anthropic agent loop with toolhygiene.

With ANTHROPIC_API_KEY set it talks to the real API (model: ANTHROPIC_MODEL, default
claude-sonnet-4-5); without one it runs offline against a scripted server on 127.0.0.1
that plays the model's turns.

    .venv/bin/python examples/anthropic_loop.py
"""

from __future__ import annotations

import os

import anthropic

import toolhygiene as th
from toolhygiene.testing import ScriptedServer, model_turn

CITIES = {"Paris": "21C, clear", "Lyon": "18C, rain"}


@th.tool(max_failures=3)
def get_weather(city: str) -> str:
    """Current weather in a city.

    Args:
        city: the city's name, spelled as in an atlas.
    """
    if city not in CITIES:
        raise th.ToolError(
            f"no weather station for {city!r}",
            retryable=False,
            category="not_found",
            instead="check the spelling of the city",
        )
    return CITIES[city]


@th.tool
def get_time(city: str) -> str:
    """Local time in a city."""
    return "14:05"


def offline() -> tuple[anthropic.Anthropic, ScriptedServer]:
    server = ScriptedServer()
    for calls, text in [
        ([("get_weather", {"city": "Pariss"}), ("get_time", {"city": "Paris"})], "Checking."),
        ([("get_weather", {"city": "Pari"})], ""),
        ([("get_weather", {"city": "Paris"})], ""),
        ([], "In Paris it is 14:05, 21C and clear."),
    ]:
        server.push(200, model_turn("anthropic", calls, text))
    return anthropic.Anthropic(base_url=server.url, api_key="offline", max_retries=0), server


def main() -> None:
    server = None
    if os.environ.get("ANTHROPIC_API_KEY"):
        client = anthropic.Anthropic()
    else:
        client, server = offline()
    model = os.environ.get("ANTHROPIC_MODEL", "claude-sonnet-4-5")
    messages: list[dict[str, object]] = [
        {"role": "user", "content": "What are the weather and the time in Paris?"}
    ]
    with th.Session([get_weather, get_time]) as session:
        while True:
            response = client.messages.create(
                model=model,
                max_tokens=1024,
                tools=session.schemas("anthropic"),
                messages=messages,  # type: ignore[arg-type]
            )
            if not session.handle(response, messages):
                break
        print(response.content[-1].text if response.content else "")  # type: ignore[union-attr]
        print(f"{len(messages)} messages; stats: {session.stats()['failures']}")
    if server is not None:
        server.stop()


if __name__ == "__main__":
    main()
