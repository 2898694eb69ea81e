"""What recognising a returned failure payload costs a successful call.

Every successful result is looked at once: is it a failure payload (a dict with
``isError``, its JSON text, a ``Failure``)? This prints that check's time as a share of
the whole ``Session.call`` that makes it, for the results tools usually return, both
measured in this run. Target: <= 5% for each.
"""

from __future__ import annotations

import json
import sys
import timeit
from typing import Any

import toolhygiene as th
from toolhygiene._payload import recognise

RESULTS: dict[str, Any] = {
    "short text": "21C, clear",
    "dict": {"id": "ORD-1", "status": "shipped", "items": [1, 2, 3]},
    "20 KB JSON text": json.dumps({"rows": [{"n": n, "text": "x" * 40} for n in range(400)]}),
    # json.dumps writes every accented letter as \u00XX: the escape search meets each one
    "20 KB JSON of escapes": json.dumps(
        {"rows": [{"n": n, "text": "écume, marée"} for n in range(450)]}
    ),
    "20 KB JSON naming isError": json.dumps(
        {"rows": [{"isError": False, "n": n, "text": "x" * 30} for n in range(400)]}
    ),
}


def per_call(fn: Any, number: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=5)) / number


def measure(value: Any) -> tuple[float, float]:
    """Seconds per ``Session.call`` of a tool returning ``value``, and per check of it."""

    @th.tool(name="result")
    def result() -> Any:
        """Return the value."""
        return value

    session = th.Session([result])
    number = 200 if len(str(value)) > 1_000 else 5_000
    call = per_call(lambda: session.call("result"), number)
    check = per_call(lambda: recognise(value), number)
    return call, check


def main() -> int:
    worst = 0.0
    for label, value in RESULTS.items():
        call, check = measure(value)
        share = check / call
        worst = max(worst, share)
        print(
            f"{label:>28}: call {call * 1e6:8.1f} us, check {check * 1e6:7.2f} us, "
            f"share {share:6.1%}"
        )
    print(f"worst share: {worst:.1%} (target <= 5%)")
    return 0 if worst <= 0.05 else 1


if __name__ == "__main__":
    sys.exit(main())
