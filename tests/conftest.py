from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator

import pytest
from hypothesis import settings

import toolhygiene as th
from helpers import LIGHT, Call
from redis_server import RedisServer
from toolhygiene.testing import ScriptedServer

# No per-example deadline: a loaded CI machine must not turn slowness into failures
# (speed is measured in benchmarks/, never asserted in tests). The light profile, which
# noxfile sets (TOOLHYGIENE_TESTS=light) for every run but the main interpreter's, tries a
# tenth of the examples: those runs look for what differs between Pythons and dependency
# versions, the main run searches the inputs.
settings.register_profile("toolhygiene", deadline=None, max_examples=50)
settings.register_profile("toolhygiene-light", deadline=None, max_examples=5)
settings.load_profile("toolhygiene-light" if LIGHT else "toolhygiene")


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


@pytest.fixture(params=["sync", "async"])
def call(request: pytest.FixtureRequest) -> Callable[[th.Session], Call]:
    """Each behaviour runs through ``call`` and through ``acall``."""
    if request.param == "sync":
        return lambda session: session.call

    def via_acall(session: th.Session) -> Call:
        return lambda *args: asyncio.run(session.acall(*args))

    return via_acall


@pytest.fixture
def instant() -> Iterator[None]:
    with th.testing.instant_retries():
        yield


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A real redis-server on 127.0.0.1, on a free port, for the whole run."""
    server = RedisServer()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> Iterator[str]:
    """The server's URL, emptied after each test (and restarted if a test stopped it)."""
    yield redis_server.url
    if redis_server.process is None:
        redis_server.start()
    import redis

    redis.Redis.from_url(redis_server.url, socket_timeout=5).flushall()


@pytest.fixture
def gate() -> Iterator[threading.Event]:
    """An event blocked tools wait on; set at the end so no thread is left waiting."""
    event = threading.Event()
    yield event
    event.set()


@pytest.fixture(params=["memory", "redis"])
def make_store(request: pytest.FixtureRequest) -> Callable[[], th.Store]:
    """A store maker, once for the memory store and once for Redis (a real redis-server,
    started for the run)."""
    if request.param == "memory":
        return th.MemoryStore
    url = request.getfixturevalue("redis_url")
    return lambda: th.RedisStore(url=url)
