from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import settings

import toolhygiene as th
from toolhygiene.testing import ScriptedServer

# No per-example deadline: a loaded CI machine must not turn slowness into failures
# (speed is measured in benchmarks/, never asserted in tests).
settings.register_profile("toolhygiene", deadline=None)
settings.load_profile("toolhygiene")


@pytest.fixture(scope="session")
def _server() -> Iterator[ScriptedServer]:
    server = ScriptedServer()
    yield server
    server.stop()


@pytest.fixture
def server(_server: ScriptedServer) -> Iterator[ScriptedServer]:
    _server.reset()
    yield _server
    _server.reset()


@pytest.fixture(autouse=True)
def _clean_rules() -> Iterator[None]:
    yield
    th.clear_rules()
    th.clear_redactions()


@pytest.fixture
def instant() -> Iterator[None]:
    with th.testing.instant_retries():
        yield
