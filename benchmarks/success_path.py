"""The success path must not pay for the machinery.

Overhead of ``Session.call`` with dict arguments over a plain call of the same function,
as a ratio to the overhead of tenacity's ``@retry`` on that function, both measured in
this run. Target: <= 0.2. Then memory: RSS after 1,000,000 successful calls against RSS
after 1,000 (target: within 1 MB).
"""

from __future__ import annotations

import resource
import sys
import timeit

import tenacity

import toolhygiene as th


def get_order(order_id: str) -> str:
    return order_id


retried = tenacity.retry(stop=tenacity.stop_after_attempt(3))(get_order)


def per_call(fn: object, number: int = 100_000) -> float:
    return min(timeit.repeat(fn, number=number, repeat=5)) / number  # type: ignore[arg-type]


def rss_kb() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main() -> int:
    session = th.Session([th.tool(get_order)])
    args = {"order_id": "ORD-1"}
    assert session.call("get_order", args).ok
    plain = per_call(lambda: get_order(**args))
    ours = per_call(lambda: session.call("get_order", args)) - plain
    theirs = per_call(lambda: retried(**args)) - plain
    print(f"python {sys.version.split()[0]}")
    print(f"plain call                  {plain * 1e6:8.2f} us")
    print(f"Session.call overhead       {ours * 1e6:8.2f} us")
    print(f"tenacity @retry overhead    {theirs * 1e6:8.2f} us")
    print(f"ratio                       {ours / theirs:8.2f}   (target <= 0.2)")

    memory = th.Session([th.tool(get_order)])
    for _ in range(1_000):
        memory.call("get_order", args)
    before = rss_kb()
    for _ in range(999_000):
        memory.call("get_order", args)
    after = rss_kb()
    print(f"RSS after 1,000 calls       {before / 1024:8.1f} MB")
    growth = (after - before) / 1024
    print(f"RSS after 1,000,000 calls   {after / 1024:8.1f} MB   growth {growth:.2f} MB"
          "   (target <= 1 MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
