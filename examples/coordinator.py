"""A coordinator with two research subagents, one of which fails.

Each subagent reads a (scripted, local) marine data service over HTTP with httpx. The
tides subagent gets its data; the currents service answers one station and then 503s
for the other. Its subagent retries locally (a 503 is transient), then gives up and
hands back a failure payload carrying the station it did read. The coordinator runs
both at once, keeps the answer, and sees the gap: which query, what was salvaged, what
to try. Last, what a coordinating *model* reads when its `delegate` tool returns that
payload: one true line, counted against the tool's cap like any failure. The subagent
retried locally already (the payload says how many `attempts`), so the coordinator's
Session does not retry it once more: retries happen at one layer, never multiplied.

    .venv/bin/python examples/coordinator.py
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

import toolhygiene as th
from toolhygiene.testing import ScriptedServer


async def read_stations(base: str, stations: list[str]) -> dict[str, Any]:
    """Read each station; a failure after some succeeded keeps what was read."""
    found: dict[str, Any] = {}
    async with httpx.AsyncClient(base_url=base) as http:
        for station in stations:
            try:
                response = await http.get(f"/stations/{station}")
                response.raise_for_status()
            except httpx.HTTPStatusError as exc:
                raise th.ToolError(
                    f"station {station} answered {exc.response.status_code}",
                    retryable=exc.response.status_code >= 500,
                    category="upstream" if exc.response.status_code >= 500 else "not_found",
                    partial_results=found,
                    alternatives=[f"ask for the stations other than {station}"],
                ) from exc
            found[station] = response.json()
    return found


def services() -> tuple[ScriptedServer, ScriptedServer]:
    tides, currents = ScriptedServer(), ScriptedServer()
    tides.push(200, {"high": "14:05", "low": "20:17"})
    tides.push(200, {"high": "14:31", "low": "20:40"})
    for _ in range(2):  # one attempt, then one local retry: the same answers each time
        currents.push(200, {"knots": 2.1, "heading": "NE"})
        currents.push(503, {"error": "maintenance"})
    return tides, currents


async def main() -> None:
    tides, currents = services()
    with th.testing.instant_retries(), tides, currents:

        async def research_tides(stations: list[str]) -> dict[str, Any]:
            return await read_stations(tides.url, stations)

        async def research_currents(stations: list[str]) -> dict[str, Any]:
            return await read_stations(currents.url, stations)

        results = await th.gather_subagents(
            [
                (research_tides, {"stations": ["brest", "roscoff"]}),
                (research_currents, {"stations": ["ouessant", "sein"]}),
            ],
            retries=1,
        )
        for result in results:
            if result.ok:
                print(f"{result.name}: {json.dumps(result.value, sort_keys=True)}")
            else:
                print(result.gap)
                print(f"  salvaged: {result.salvaged}; alternatives: {list(result.alternatives)}")

        # The same failure seen by a coordinating model, through its own Session.
        currents.reset()
        for _ in range(2):  # the subagent's attempt and its one local retry
            currents.push(200, {"knots": 2.1, "heading": "NE"})
            currents.push(503, {"error": "maintenance"})

        @th.tool
        async def delegate(stations: list[str]) -> Any:
            """Hand the currents research to a subagent."""
            return await th.run_subagent(research_currents, {"stations": stations}, retries=1)

        async with th.Session([delegate]) as session:
            outcome = await session.acall("delegate", {"stations": ["ouessant", "sein"]})
        print("the coordinator's model reads:", outcome.content)
        print(f"requests to the currents service: {len(currents.requests)}")


if __name__ == "__main__":
    asyncio.run(main())
