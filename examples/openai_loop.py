"""A hand-rolled OpenAI agent loop with toolhygiene, over Chat Completions or Responses.

With OPENAI_API_KEY set it talks to the real API (model: OPENAI_MODEL, default
gpt-4.1-mini); without one it runs offline against a scripted server on 127.0.0.1.

    .venv/bin/python examples/openai_loop.py            # chat completions
    .venv/bin/python examples/openai_loop.py responses  # the Responses API
"""

from __future__ import annotations

import os
import sys
from typing import Any

import openai

import toolhygiene as th
from toolhygiene.testing import ScriptedServer, model_turn

STOCK = {"A-1": 4, "B-2": 0}


@th.tool(max_failures=3)
def check_stock(sku: str) -> dict[str, int]:
    """How many units of a product are in stock.

    Args:
        sku: the product's SKU, like A-1.
    """
    if sku not in STOCK:
        raise th.ToolError(
            f"no product with SKU {sku!r}",
            retryable=False,
            category="not_found",
            instead="use search_products to find the SKU",
        )
    return {"sku_units": STOCK[sku]}


@th.tool
def search_products(query: str) -> list[str] | th.Empty:
    """Find products' SKUs by name."""
    return ["A-1"] if "lamp" in query.lower() else th.Empty(f"products matching {query!r}")


def offline(fmt: str) -> tuple[openai.OpenAI, ScriptedServer]:
    server = ScriptedServer()
    for calls, text in [
        ([("check_stock", {"sku": "LAMP"})], ""),
        ([("search_products", {"query": "desk lamp"})], ""),
        ([("check_stock", {"sku": "A-1"})], ""),
        ([], "4 desk lamps (A-1) are in stock."),
    ]:
        server.push(200, model_turn(fmt, calls, text))
    return openai.OpenAI(base_url=server.url + "/v1", api_key="offline", max_retries=0), server


def main() -> None:
    fmt = "openai_responses" if sys.argv[1:] == ["responses"] else "openai_chat"
    server = None
    if os.environ.get("OPENAI_API_KEY"):
        client = openai.OpenAI()
    else:
        client, server = offline(fmt)
    model = os.environ.get("OPENAI_MODEL", "gpt-4.1-mini")
    messages: list[Any] = [{"role": "user", "content": "Do we have desk lamps in stock?"}]
    with th.Session([check_stock, search_products]) as session:
        while True:
            if fmt == "openai_chat":
                response: Any = client.chat.completions.create(
                    model=model, tools=session.schemas(fmt), messages=messages
                )
            else:
                response = client.responses.create(
                    model=model, tools=session.schemas(fmt), input=messages
                )
            if not session.handle(response, messages):
                break
        text = response.choices[0].message.content if fmt == "openai_chat" else response.output_text
        print(text)
        print(f"{len(messages)} messages; stats: {session.stats()['failures']}")
    if server is not None:
        server.stop()


if __name__ == "__main__":
    main()
