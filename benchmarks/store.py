"""What sharing state costs, and what it saves.

1. A successful ``Session.call`` with no store, with ``MemoryStore`` and with
   ``RedisStore`` on a redis-server on 127.0.0.1 (started here, on a free port), for a
   tool without and with ``upstream=``, and ``acall`` with a sync and a ``redis.asyncio``
   client: time per call, its ratio to no store (same run), and round trips per call
   (writes to Redis's socket, counted in redis-py's connections; target: at most one).
2. 1,000 conversations in each of 4 worker processes, each conversation calling a tool
   whose upstream is down (a real refused connection on 127.0.0.1) twice, with the
   default local retries: total connection attempts to the upstream, each Session alone
   against a breaker shared through Redis.

Needs ``redis-server`` on PATH and redis-py (``pip install toolhygiene[redis]``).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import timeit
from typing import Any

import redis
import redis.asyncio
import redis.asyncio.connection
import redis.connection

import toolhygiene as th
from toolhygiene.testing import closed_port, instant_retries

CONVERSATIONS = 1_000
PROCESSES = 4


def get_order(order_id: str) -> str:
    return order_id


def start_redis() -> tuple[subprocess.Popen[bytes], str]:
    exe = shutil.which("redis-server")
    if exe is None:
        raise SystemExit("redis-server is not on PATH (Debian: apt-get install redis-server)")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    folder = tempfile.mkdtemp(prefix="toolhygiene-bench-")
    server = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", folder],
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
    deadline = time.monotonic() + 10
    while not _answers(client):
        if time.monotonic() > deadline:
            raise SystemExit("redis-server did not start")
        time.sleep(0.05)
    return server, url


def _answers(client: Any) -> bool:
    try:
        return bool(client.ping())
    except redis.exceptions.ConnectionError:
        return False


def per_call(session: th.Session, name: str = "get_order", number: int = 5_000) -> float:
    args = {"order_id": "ORD-1"}
    return min(timeit.repeat(lambda: session.call(name, args), number=number,
                             repeat=5)) / number


def per_acall(session: th.Session, number: int = 2_000) -> float:
    args = {"order_id": "ORD-1"}

    async def calls() -> float:
        best = float("inf")
        for _ in range(5):
            started = time.perf_counter()
            for _ in range(number):
                await session.acall("get_order", args)
            best = min(best, time.perf_counter() - started)
        return best / number

    return asyncio.run(calls())


TRIPS = [0]
"""Round trips: one per write of commands to a Redis socket (a pipeline is one)."""


def _counted(send: Any) -> Any:
    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        TRIPS[0] += 1
        return send(self, *args, **kwargs)

    return counting


def _acounted(send: Any) -> Any:
    async def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        TRIPS[0] += 1
        return await send(self, *args, **kwargs)

    return counting


redis.connection.AbstractConnection.send_packed_command = _counted(  # type: ignore[method-assign]
    redis.connection.AbstractConnection.send_packed_command)
redis.asyncio.connection.AbstractConnection.send_packed_command = _acounted(  # type: ignore[method-assign]
    redis.asyncio.connection.AbstractConnection.send_packed_command)


def trips(call: Any, number: int = 1_000) -> float:
    call()  # scripts loaded, connection made
    before = TRIPS[0]
    for _ in range(number):
        call()
    return (TRIPS[0] - before) / number


def success_path(url: str) -> None:
    tool = th.tool(get_order)
    upstream = th.tool(name="get_order_upstream", upstream="orders service")(get_order)
    tools = [tool, upstream]
    alone = per_call(th.Session(tools))
    memory = per_call(th.Session(tools, store=th.MemoryStore(), session_id="c"))
    shared = th.Session(tools, store=th.RedisStore(url=url), session_id="c")
    args = {"order_id": "ORD-1"}
    rows = [
        ("no store", alone, 0.0),
        ("MemoryStore", memory, 0.0),
        ("RedisStore (127.0.0.1)", per_call(shared),
         trips(lambda: shared.call("get_order", args))),
        ("  tool with upstream=", per_call(shared, "get_order_upstream"),
         trips(lambda: shared.call("get_order_upstream", args))),
    ]
    print("successful call                 per call   vs no store   round trips")
    for label, took, sent in rows:
        print(f"  {label:27} {took * 1e6:7.1f} us   {took / alone:8.2f}      {sent:5.2f}")
    async_alone = per_acall(th.Session(tools))
    async_sync = per_acall(th.Session(tools, store=th.RedisStore(url=url), session_id="d"))

    def asyncio_client() -> th.Session:
        client = redis.asyncio.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
        return th.Session(tools, store=th.RedisStore(client), session_id="e")

    async_async = per_acall(asyncio_client())

    async def acalls(number: int = 1_000) -> float:
        session = asyncio_client()
        await session.acall("get_order", args)
        before = TRIPS[0]
        for _ in range(number):
            await session.acall("get_order", args)
        return (TRIPS[0] - before) / number

    async_trips = asyncio.run(acalls())
    print("acall")
    print(f"  {'no store':27} {async_alone * 1e6:7.1f} us       1.00")
    print(f"  {'RedisStore, redis.Redis':27} {async_sync * 1e6:7.1f} us   "
          f"{async_sync / async_alone:8.2f}")
    print(f"  {'RedisStore, redis.asyncio':27} {async_async * 1e6:7.1f} us   "
          f"{async_async / async_alone:8.2f}      {async_trips:5.2f}")


def conversations(url: str | None, port: int, shared: bool, out: Any) -> None:
    hits = 0

    @th.tool(upstream="inventory service" if shared else None)
    def check_stock(sku: str) -> int:
        nonlocal hits
        hits += 1
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
        return 3

    th.configure(logs=False)  # 16,000 failure events would time the terminal
    store = th.RedisStore(url=url) if shared and url else None
    with instant_retries():
        for n in range(CONVERSATIONS):
            session = th.Session([check_stock], store=store,
                                 session_id=f"{multiprocessing.current_process().pid}-{n}")
            for _ in range(2):
                session.call("check_stock", {"sku": "A"})
    out.put(hits)


def outage(url: str) -> None:
    port = closed_port()
    context = multiprocessing.get_context("spawn")
    totals = {}
    for shared in (False, True):
        out = context.Queue()
        workers = [context.Process(target=conversations, args=(url, port, shared, out))
                   for _ in range(PROCESSES)]
        started = time.perf_counter()
        for worker in workers:
            worker.start()
        hits = sum(out.get(timeout=600) for _ in workers)
        for worker in workers:
            worker.join()
        totals[shared] = (hits, time.perf_counter() - started)
    calls = CONVERSATIONS * PROCESSES * 2
    print(f"\n{CONVERSATIONS:,} conversations x {PROCESSES} processes, 2 calls each "
          f"({calls:,} calls), upstream down")
    for shared, label in ((False, "each Session alone"), (True, "breaker shared in Redis")):
        hits, took = totals[shared]
        print(f"  {label:26} {hits:7,} upstream hits   {took:6.1f} s")
    print(f"  ratio                      {totals[True][0] / totals[False][0]:.4f}")


def main() -> int:
    server, url = start_redis()
    try:
        print(f"python {sys.version.split()[0]}, redis-py {redis.__version__}")
        success_path(url)
        outage(url)
    finally:
        server.terminate()
        server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
