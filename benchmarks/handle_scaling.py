"""``handle()`` must cost O(pending), not O(history).

Times one ``handle()`` of a successful round that clears three pending errors, with 10
and with 10,000 earlier messages in the list, for each format. Prints the ratio (target:
at most 2x). Each timing is the median of many runs, each on a fresh list and session.
"""

from __future__ import annotations

import statistics
import time
from functools import partial
from typing import Any

import toolhygiene as th
from toolhygiene.testing import model_turn

FORMATS = ["anthropic", "openai_chat", "openai_responses"]


@th.tool
def lookup(key: str) -> str:
    """Look a key up."""
    if key != "ok":
        raise th.ToolError(f"no entry {key!r}", retryable=False, category="not_found")
    return "value"


def history(fmt: str, size: int) -> list[Any]:
    """``size`` earlier messages of plain conversation (user/assistant text turns)."""
    out: list[Any] = []
    for i in range(size // 2):
        out.append({"role": "user", "content": f"question {i}"})
        if fmt == "openai_responses":
            out.append({"type": "message", "role": "assistant",
                        "content": [{"type": "output_text", "text": f"answer {i}"}]})
        else:
            out.append({"role": "assistant", "content": f"answer {i}"})
    out.append({"role": "user", "content": "go"})
    return out


def one(fmt: str, prefix: list[Any]) -> float:
    turn = partial(model_turn, fmt)
    session = th.Session([lookup], max_failures=10)
    messages = list(prefix)
    for key in ("a", "b", "c"):  # three pending errors
        session.handle(turn([("lookup", {"key": key})]), messages, format=fmt)  # type: ignore[arg-type]
    success = turn([("lookup", {"key": "ok"})])
    start = time.perf_counter()
    session.handle(success, messages, format=fmt)  # type: ignore[arg-type]
    return time.perf_counter() - start


def median(fmt: str, size: int, runs: int = 300) -> float:
    prefix = history(fmt, size)
    return statistics.median(one(fmt, prefix) for _ in range(runs))


def main() -> None:
    import structlog

    structlog.configure(logger_factory=structlog.ReturnLoggerFactory())  # no log I/O timed
    print(f"{'format':<18} {'10 earlier':>12} {'10,000 earlier':>15} {'ratio':>7}  (target <= 2x)")
    for fmt in FORMATS:
        small, large = median(fmt, 10), median(fmt, 10_000)
        print(f"{fmt:<18} {small * 1e6:>10.1f}us {large * 1e6:>13.1f}us {large / small:>6.2f}x")


if __name__ == "__main__":
    main()
