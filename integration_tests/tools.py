"""The tools every integration test runs: real exceptions, counted side effects."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

import toolhygiene as th

DSN = "postgresql://app:hunter2-s3cret@10.0.3.7:5432/orders"

ROUNDS = [
    [("get_weather", {"city": "Pariss"})],
    [("read_db", {"table": "orders"})],
    [("read_db", {"table": "orders"})],
    [("get_weather", {"city": "Paris"})],
]
"""The model's calls in the runner tests: a wrong city, a secret in an error, the closed
tool called again, a blip retried locally."""


@dataclass
class World:
    """What ran, so a test can tell a call that ran from one that did not."""

    ran: list[str] = field(default_factory=list)
    blips: int = 1

    def tools(self) -> list[th.Tool[..., str]]:
        world = self

        @th.tool(max_failures=2)
        def get_weather(city: str) -> str:
            """The weather in a city.

            Args:
                city: the city's name, like Paris.
            """
            world.ran.append(f"get_weather:{city}")
            if city != "Paris":
                raise th.ToolError(f"no city named {city}", retryable=False,
                                   category="not_found",
                                   instead="call get_weather with the city's correct name")
            if world.blips:
                world.blips -= 1
                raise ConnectionResetError("connection reset by peer")
            return "21C, clear"

        @th.tool(max_failures=1)
        def read_db(table: str) -> str:
            """Read one table.

            Args:
                table: the table's name.
            """
            world.ran.append(f"read_db:{table}")
            raise sqlite3.OperationalError(f"unable to open database {DSN}")

        return [get_weather, read_db]
