"""The success path must not pay for the machinery.

Overhead of ``Session.call`` over a plain call of the same function, as a ratio to the
overhead of tenacity's ``@retry`` on that function, both measured in this run, for the
shapes users send:

- ``str -> str``: one string argument, a string result;
- ``dict -> dict`` (Anthropic): ``tool_use.input`` is a dict (a string, an int, a float, a
  bool), the result a dict, which the model reads as JSON;
- ``JSON -> dict`` (OpenAI): ``function.arguments`` is a JSON string, which the plain and
  tenacity calls parse with ``json.loads`` (they need the values too).

Target: <= 0.2 for each. Then memory: RSS after 1,000,000 successful calls against RSS
after 1,000 (target: within 1 MB).
"""

from __future__ import annotations

import json
import resource
import sys
import time
import timeit
from collections.abc import Callable
from typing import Any

import tenacity

import toolhygiene as th


def get_order(order_id: str) -> str:
    return order_id


def find_order(order_id: str, quantity: int, price: float, gift: bool) -> dict[str, Any]:
    return {"order_id": order_id, "total": quantity * price, "status": "open", "gift": gift}


ARGS = {"order_id": "ORD-1"}
DICT_ARGS: dict[str, Any] = {"order_id": "ORD-1", "quantity": 3, "price": 9.5, "gift": False}
JSON_ARGS = json.dumps(DICT_ARGS)


def per_call(fn: Callable[[], object], number: int = 50_000) -> float:
    """Seconds of this process's CPU per call, best of 7 (CPU time, not wall time: the
    machines this runs on are shared, and other processes' work is not ours)."""
    return min(timeit.repeat(fn, number=number, repeat=7, timer=time.process_time)) / number


def rss_kb() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def shapes() -> dict[str, tuple[Callable[[], object], Callable[[], object], Callable[[], object]]]:
    """Each shape: (plain call, Session.call, tenacity @retry call)."""
    session = th.Session([th.tool(get_order), th.tool(find_order)])
    # The same tool with its results not redacted: what the rest of the path costs.
    bare = th.Session([th.tool(redact_results=False)(find_order)])
    retry = tenacity.retry(stop=tenacity.stop_after_attempt(3))
    get_retried, find_retried = retry(get_order), retry(find_order)
    calls = (("get_order", ARGS), ("find_order", DICT_ARGS), ("find_order", JSON_ARGS))
    for name, arguments in calls:
        assert session.call(name, arguments).ok, (name, arguments)
    assert bare.call("find_order", DICT_ARGS).ok
    return {
        "str -> str": (
            lambda: get_order(**ARGS),
            lambda: session.call("get_order", ARGS),
            lambda: get_retried(**ARGS),
        ),
        "dict -> dict (Anthropic)": (
            lambda: find_order(**DICT_ARGS),
            lambda: session.call("find_order", DICT_ARGS),
            lambda: find_retried(**DICT_ARGS),
        ),
        "dict -> dict, not redacted": (
            lambda: find_order(**DICT_ARGS),
            lambda: bare.call("find_order", DICT_ARGS),
            lambda: find_retried(**DICT_ARGS),
        ),
        "JSON -> dict (OpenAI)": (
            lambda: find_order(**json.loads(JSON_ARGS)),
            lambda: session.call("find_order", JSON_ARGS),
            lambda: find_retried(**json.loads(JSON_ARGS)),
        ),
    }


def main() -> int:
    print(f"python {sys.version.split()[0]}; overheads over the plain call, in microseconds")
    print(f"{'shape':<26}{'plain':>8}{'Session':>9}{'tenacity':>10}{'ratio':>8}")
    for shape, (plain, ours, theirs) in shapes().items():
        base = per_call(plain)
        mine = per_call(ours) - base
        other = per_call(theirs) - base
        print(f"{shape:<26}{base * 1e6:>8.2f}{mine * 1e6:>9.2f}{other * 1e6:>10.2f}"
              f"{mine / other:>8.2f}")
    print("target: ratio <= 0.2 for every shape")

    args = ARGS
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
