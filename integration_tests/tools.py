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


MULTI = [
    [("get_weather", {"city": "Pariss"}), ("get_weather", {"city": "Paris"})],
    [("read_db", {"table": "x"}), ("read_db", {"table": "y"})],
    [("read_db", {"table": "x"}), ("get_weather", {"city": "Paris"})],
]
"""Turns of two calls at once: one failing and one succeeding (the same tool), two
failing calls of the same tool (its cap is 1), then the closed tool with a success."""

PARISS = (
    "[error] get_weather: not_found. no city named Pariss. Not transient: the same call "
    "will fail the same way. Call get_weather with the city's correct name."
)


def notice(tool: str, failures: int) -> str:
    """The closed tool's notice, after ``failures`` failures."""
    counted = f"{failures} failure{'s' if failures != 1 else ''}"
    return (
        f"[error] {tool}: unavailable. {tool} was closed after {counted} in this "
        "conversation; this call did not run. Continue without it, or tell the user what "
        "you could not do."
    )


Received = list[list[tuple[bool, str]]]
"""For each turn of MULTI, each call's result as the model received it: whether it was an
error, and its text."""


def check_multi(received: Received, world: World, session: th.Session) -> None:
    """What MULTI must give in any framework, whether it runs a turn's calls one after the
    other (the second read_db then finds the tool closed) or at once (both run)."""
    assert len(received) == len(MULTI)
    assert received[0] == [(True, PARISS), (False, "21C, clear")]
    ran_db = [c for c in world.ran if c.startswith("read_db:")]
    failures = session.stats()["failures"]
    assert failures == {"get_weather": 1, "read_db": len(ran_db)}  # every failure, once
    assert "read_db" in session.stats()["closed"]
    for (error, text), (_, arguments) in zip(received[1], MULTI[1], strict=True):
        assert error
        if f"read_db:{arguments['table']}" in ran_db:
            assert text.startswith("[error] read_db: not_found. ")
            assert "is now closed: do not call it again." in text
        else:  # it found the tool closed: it did not run, and the model is told so
            assert text == notice("read_db", 1)
    assert received[2][0] == (True, notice("read_db", len(ran_db)))
    assert received[2][1][0] is False and received[2][1][1].startswith("21C, clear")
    assert sorted(world.ran) == sorted(
        ["get_weather:Pariss", "get_weather:Paris", *ran_db, "get_weather:Paris"]
    )
    assert DSN not in str(received) and "hunter2" not in str(received)
