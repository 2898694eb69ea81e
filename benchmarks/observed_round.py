"""``handle()`` of one round with one failure and one success, with the logs on.

Prints toolhygiene's own time per round (the round's time less the tools' own time,
measured in the same run) for: the default configuration (nothing configured: the
standard ``logging`` rules, so an INFO failure is not formatted); ``logging`` configured
at INFO to a handler (every event formatted); every output removed (what the hooks and
outputs cost is the difference); and OpenTelemetry on (SDK tracer and meter
providers with in-memory exporters). The baseline, in the same run: a blind round that
runs the same two tools and appends ``f"Error: {exc}"``. Target: <= 60 us by default.
Times are the process's CPU time (all its threads), so a busy machine does not inflate
them by waiting. A shared machine still spreads them widely, so the script also counts
the work itself, which no load changes: the Python bytecode instructions one round runs
in the calling thread (the failing call, reading the turn, appending the results; the
parallel success runs on a worker and is not counted), against the blind round's.
Run: ``make bench`` (or ``.venv/bin/python benchmarks/observed_round.py``).
"""

from __future__ import annotations

import contextlib
import io
import logging
import sys
import time
import timeit
from collections.abc import Callable
from types import FrameType
from typing import Any

import toolhygiene as th
from toolhygiene import _known, _observe
from toolhygiene._turns import TURNS

ROUNDS = 2000
CHUNK = 20  # rounds per conversation: pending errors stay few, as in a real one


@th.tool
def get_order(order_id: str) -> str:
    """Fetch one order."""
    raise th.ToolError(f"no order with id {order_id} exists", retryable=False,
                       category="not_found", instead="use search_orders")


@th.tool
def get_time(city: str) -> str:
    """Local time."""
    return "14:05"


TURN = TURNS["anthropic"]([("get_order", {"order_id": "ORD-88213"}),
                           ("get_time", {"city": "Paris"})])


def tools_alone() -> None:
    """The tools' own time: the two functions, called as the round calls them."""
    with contextlib.suppress(th.ToolError):
        get_order.fn(order_id="ORD-88213")
    get_time.fn(city="Paris")


def blind_round(messages: list[Any]) -> None:
    """What a hand-rolled loop does: run each call, paste ``Error: {exc}``."""
    results = []
    for block in TURN["content"]:
        if block["type"] != "tool_use":
            continue
        try:
            content = str(globals()[block["name"]].fn(**block["input"]))
            error = False
        except Exception as exc:
            content, error = f"Error: {exc}", True
        results.append({"type": "tool_result", "tool_use_id": block["id"], "content": content,
                        "is_error": error})
    messages.append({"role": "assistant", "content": TURN["content"]})
    messages.append({"role": "user", "content": results})


def per_round(run: Any, start_conversation: Any) -> float:
    """Seconds per round: best of 5 runs of ROUNDS rounds, in conversations of CHUNK
    rounds (starting one is not timed)."""
    best = float("inf")
    for _ in range(5):
        spent = 0.0
        for _ in range(ROUNDS // CHUNK):
            state = start_conversation()
            start = time.process_time()
            for _ in range(CHUNK):
                run(state)
            spent += time.process_time() - start
        best = min(best, spent / ROUNDS)
    return best


SESSION = th.Session([get_order, get_time], max_failures=CHUNK + 1)


def conversation() -> list[Any]:
    SESSION.reset()
    return [{"role": "user", "content": "go"}]


def measure_handle() -> float:
    return per_round(lambda messages: SESSION.handle(fresh_ids(), messages), conversation)


def fresh_ids() -> dict[str, Any]:
    """The turn with call ids of its own (one conversation never repeats an id)."""
    return TURNS["anthropic"]([("get_order", {"order_id": "ORD-88213"}),
                               ("get_time", {"city": "Paris"})])


def opcodes(run: Callable[[], object], rounds: int = 100) -> float:
    """Bytecode instructions per call of ``run`` in this thread (``sys.settrace`` with
    opcode events: deterministic, whatever the machine's load)."""
    count = [0]

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "call":
            frame.f_trace_opcodes = True
        elif event == "opcode":
            count[0] += 1
        return tracer

    sys.settrace(tracer)
    try:
        for _ in range(rounds):
            run()
    finally:
        sys.settrace(None)
    return count[0] / rounds


def work() -> tuple[float, float, float]:
    """Instructions of one handled round and of one blind round, less making the turn,
    and of one read of the environment's secrets. That read happens at most once a
    second (``_known``): a few times in the thousands of rounds timed, but in nearly
    every traced round, tracing being slow; so it is held off while counting and
    counted on its own."""
    turn = opcodes(fresh_ids)
    messages = conversation()

    def handled() -> None:
        if len(messages) > 2 * CHUNK:
            messages[:] = conversation()
        SESSION.handle(fresh_ids(), messages)

    for _ in range(CHUNK):
        handled()  # warm: workers started, caches filled
    refresh, _known._REFRESH = _known._REFRESH, float("inf")
    try:
        handled()
        rounds = opcodes(handled)
    finally:
        _known._REFRESH = refresh

    def environment() -> None:
        _known._environment[0] = -1  # as if a variable had been set
        _known.current()

    return rounds - turn, opcodes(lambda: blind_round([])), opcodes(environment)


def cpu(fn: Any) -> float:
    return min(timeit.repeat(fn, number=ROUNDS, repeat=5, timer=time.process_time)) / ROUNDS


def main() -> int:
    print(f"python {sys.version.split()[0]}, one round: one failure + one success, "
          f"{ROUNDS} rounds, best of 5")
    tools = cpu(tools_alone)
    turns = cpu(fresh_ids)
    blind = per_round(blind_round, list) - tools
    tools += turns  # making each turn's dict is not toolhygiene's time either
    default = measure_handle() - tools
    work_default = work()
    hooks, telemetry = _observe._hooks, _observe._telemetry
    _observe._hooks, _observe._telemetry = (), None
    bare = measure_handle() - tools
    _observe._hooks, _observe._telemetry = hooks, telemetry

    root = logging.getLogger("toolhygiene")
    handler = logging.StreamHandler(io.StringIO())
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    formatted = measure_handle() - tools
    root.removeHandler(handler)
    root.setLevel(logging.NOTSET)

    from opentelemetry import metrics, trace
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    metrics.set_meter_provider(MeterProvider(metric_readers=[InMemoryMetricReader()]))
    traced = measure_handle() - tools
    spans = len(exporter.get_finished_spans())

    def show(label: str, seconds: float) -> None:
        print(f"{label:<44} {seconds * 1e6:>7.1f} us/round   vs blind: {seconds / blind:>5.1f}x")

    print(f"{'tools own time + making the turn (subtracted)':<44} {tools * 1e6:>7.1f} us/round")
    show("blind loop (baseline)", blind)
    show("toolhygiene, every output removed", bare)
    show("toolhygiene, default configuration", default)
    show("toolhygiene, logging at INFO to a handler", formatted)
    show(f"toolhygiene, OpenTelemetry on ({spans} spans)", traced)
    print(f"the outputs' share by default: {(default - bare) * 1e6:.1f} us/round")
    handled, blind_work, environment = work_default
    print(f"work per round, default configuration: {handled:.0f} bytecode instructions "
          f"(blind loop: {blind_work:.0f}; {handled / blind_work:.0f}x); reading the "
          f"environment's secrets, at most once a second: {environment:.0f}")
    print(f"target: default <= 60 us: {'met' if default <= 60e-6 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
