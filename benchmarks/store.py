"""What sharing state costs, and what it saves.

1. A successful ``Session.call`` with no store, with ``MemoryStore`` and with
   ``RedisStore`` on a redis-server on 127.0.0.1 (started here, on a free port): time per
   call, and Redis commands per call (``INFO stats``; target: at most one round trip).
2. 1,000 conversations in each of 4 worker processes, each conversation calling a tool
   whose upstream is down (a real refused connection on 127.0.0.1) twice, with the
   default local retries: total connection attempts to the upstream, each Session alone
   against a breaker shared through Redis.

Needs ``redis-server`` on PATH and redis-py (``pip install toolhygiene[redis]``).
"""

from __future__ import annotations

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


def per_call(session: th.Session, number: int = 5_000) -> float:
    args = {"order_id": "ORD-1"}
    return min(timeit.repeat(lambda: session.call("get_order", args), number=number,
                             repeat=5)) / number


def commands(client: Any) -> int:
    return int(client.info("stats")["total_commands_processed"])


def success_path(url: str) -> None:
    tool = th.tool(get_order)
    alone = per_call(th.Session([tool]))
    memory = per_call(th.Session([tool], store=th.MemoryStore(), session_id="c"))
    store = th.RedisStore(url=url)
    shared = th.Session([tool], store=store, session_id="c")
    through_redis = per_call(shared)
    client = redis.Redis.from_url(url, socket_timeout=1)
    before = commands(client)
    for _ in range(1_000):
        shared.call("get_order", {"order_id": "ORD-1"})
    sent = (commands(client) - before - 1) / 1_000  # minus the INFO itself
    print("successful call                 per call   vs no store")
    print(f"  no store                     {alone * 1e6:7.1f} us       1.00")
    print(f"  MemoryStore                  {memory * 1e6:7.1f} us   {memory / alone:8.2f}")
    print(f"  RedisStore (127.0.0.1)       {through_redis * 1e6:7.1f} us   "
          f"{through_redis / alone:8.2f}")
    print(f"  Redis commands per call      {sent:7.2f}      (target <= 1)")


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
