"""Fixtures of the integration tests: the suite's scripted server on 127.0.0.1 (from
tests/conftest.py), no sleeping."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

import toolhygiene as th
from conftest import _server, server  # noqa: F401 - the suite's scripted-server fixtures

# The Agents SDK exports traces to its provider unless told not to: nothing here may leave
# the machine.
os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"


@pytest.fixture(autouse=True)
def _instant() -> Iterator[None]:
    with th.testing.instant_retries():
        yield


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A skipped integration test hides a broken integration: none may be skipped."""
    for item in items:
        if item.get_closest_marker("skip") or item.get_closest_marker("skipif"):
            raise pytest.UsageError(f"{item.nodeid}: integration tests are never skipped")
