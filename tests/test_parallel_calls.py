"""Parallel calls of one turn: a call no worker has started yet when the calling thread's
own call ends runs on the calling thread instead (``Session._handle_turn``). Whichever
thread runs it, every call runs exactly once and its result pairs with its own id."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import toolhygiene as th
from toolhygiene.testing import model_turn

RUNS: Counter[str] = Counter()
THREADS: dict[str, int] = {}
_LOCK = threading.Lock()


@th.tool
def echo(tag: str) -> str:
    """Say the tag back."""
    with _LOCK:
        RUNS[tag] += 1
        THREADS[tag] = threading.get_ident()
    if tag.endswith("-bad"):
        raise th.ToolError(f"bad tag {tag}", retryable=False, category="bad_request")
    return f"echo {tag}"


def test_each_call_runs_once_and_pairs_with_its_id_whichever_thread_runs_it() -> None:
    RUNS.clear()
    THREADS.clear()
    session = th.Session([echo], max_failures=1_000)
    messages: list[Any] = [{"role": "user", "content": "go"}]
    tags = []
    for round_ in range(40):
        calls = [f"r{round_}c{c}" + ("-bad" if c % 3 == 0 else "") for c in range(5)]
        tags += calls
        turn = model_turn("anthropic", [("echo", {"tag": tag}) for tag in calls])
        session.handle(turn, messages)
        ids = [b["id"] for b in turn["content"]]
        [results] = [m["content"] for m in messages[-1:]]
        assert [r["tool_use_id"] for r in results if r["type"] == "tool_result"] == ids
        for tag, result in zip(calls, results, strict=False):
            if tag.endswith("-bad"):
                assert result.get("is_error") is True and f"bad tag {tag}" in result["content"]
            else:
                assert result["content"] == f"echo {tag}"
    assert dict(RUNS) == dict.fromkeys(tags, 1)  # never twice, never lost
    assert session.stats()["calls"] == len(tags)
    # The first call of each turn runs here; the others where a worker or this thread
    # took them (which, depends on the machine: both are right).
    assert all(THREADS[f"r{r}c0-bad"] == threading.get_ident() for r in range(40))
