"""An MCP server over stdio whose tools fail, in a process whose application sent its
structlog output to stdout (structlog's own default): run by tests/test_mcp.py."""

from __future__ import annotations

import sys

import structlog

import toolhygiene as th
from toolhygiene import mcp as thmcp

structlog.configure(logger_factory=structlog.PrintLoggerFactory(sys.stdout))


@th.tool(retries=1)
def lookup(city: str) -> str:
    """Look a city up."""
    print(f"looking up {city}")  # a stray print of the tool's own
    if city == "Atlantis":
        raise ConnectionResetError("connection reset by peer at 10.0.0.7")
    raise ValueError(f"no such city: {city} (db password=hunter2hunter2)")


if __name__ == "__main__":
    th.testing.instant_retries().__enter__()
    thmcp.server([lookup]).run("stdio")
