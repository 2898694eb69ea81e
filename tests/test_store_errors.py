"""The ``StoreError`` a caller gets when Redis fails before a call (``on_error="closed"``)
is one clean line naming the store and what failed, written as a failure's message is
(no password, home path, private address or line break of what Redis said), with what
redis-py raised chained whole, so the traceback loses nothing."""

from __future__ import annotations

import asyncio

import pytest
import redis
import redis.asyncio

import toolhygiene as th
from helpers import failing_inventory
from redis_server import free_port

PASSWORD = "hunter2-S3cr3t-pw"


URLS = {
    "unix socket": f"unix:///home/alice/run/redis.sock?password={PASSWORD}",
    "tcp": f"redis://app:{PASSWORD}@127.0.0.1:{{port}}/0",
}
"""Where no Redis answers: a socket under a home directory, a free port on 127.0.0.1
(chosen when the test runs, so every test worker collects the same tests)."""


def _url(kind: str) -> str:
    return URLS[kind].format(port=free_port())


def _check(error: th.StoreError) -> None:
    text = str(error)
    assert "\n" not in text and "\r" not in text
    assert text.startswith("RedisStore (server ") and "keys 'toolhygiene:'" in text
    assert "ConnectionError: Error " in text
    assert text.endswith("The store is set to on_error='closed', so this call did not run")
    for raw in (PASSWORD, "alice", "127.0.0.1"):
        assert raw not in text, raw
    cause = error.__cause__
    assert isinstance(cause, redis.exceptions.ConnectionError)  # chained, whole
    assert "alice" in str(cause) or "127.0.0.1" in str(cause)


@pytest.mark.parametrize("kind", list(URLS))
def test_a_store_error_is_one_clean_line_with_the_cause_chained(kind: str) -> None:
    url = _url(kind)
    store = th.RedisStore(url=url, on_error="closed")
    session = th.Session([failing_inventory()], store=store, session_id="conv-1")
    with th.configure(logs=False), pytest.raises(th.StoreError) as raised:
        session.call("inventory", {"sku": "A"})
    _check(raised.value)


@pytest.mark.parametrize("kind", list(URLS))
def test_the_async_store_error_is_the_same_line(kind: str) -> None:
    url = _url(kind)

    async def main() -> None:
        client = redis.asyncio.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        store = th.RedisStore(client, on_error="closed")
        session = th.Session([failing_inventory()], store=store, session_id="conv-1")
        try:
            with pytest.raises(th.StoreError) as raised:
                await session.acall("inventory", {"sku": "A"})
        finally:
            # redis-py 5.0.0 (the floor) names it close(); aclose() came in 5.0.1.
            await (client.aclose() if hasattr(client, "aclose") else client.close())
        _check(raised.value)

    with th.configure(logs=False):
        asyncio.run(main())
