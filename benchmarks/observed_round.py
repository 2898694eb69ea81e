"""``handle()`` of one round with one failure and one success, with the logs on.

Prints toolhygiene's own time per round (the round's time less the tools' own time,
measured in the same run) for: the default configuration (nothing configured: the
standard ``logging`` rules, so an INFO failure is not formatted); ``logging`` configured
at INFO to a handler (every event formatted); every output removed (what the hooks and
outputs cost is the difference); and OpenTelemetry on (SDK tracer and meter
providers with in-memory exporters). The baseline, in the same run: a blind round that
runs the same two tools and appends ``f"Error: {exc}"``. Target: <= 60 us by default.
Times are the process's CPU time (all its threads), so a busy machine does not inflate
them by waiting; each configuration's is the best of five passes, the configurations taking
turns within each pass (OpenTelemetry's providers are set once, its output switched by
``th.configure(opentelemetry=...)``), so a load that comes and goes weighs on all alike.
A time smaller than the resolution of what is taken off it is printed as below resolution,
never as a negative number. A shared machine still spreads them widely, so the script also counts
the work itself, which no load changes: the Python bytecode instructions one round runs
in the calling thread (the failing call, reading the turn, appending the results; the
parallel success runs on a worker and is not counted, unless no worker had taken it when
the failing call ended: then the calling thread runs it, and it is), against the blind
round's. Reading the environment's secrets happens at most once a second: rounds timed back
to back share it, but a real loop's rounds are a model's round trip apart and each pays it,
so it is printed on its own (work and CPU time, with the number of variables it reads) and
added to the default round as a real loop runs it.
Run: ``make bench`` (or ``.venv/bin/python benchmarks/observed_round.py``).
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import sys
import time
import timeit
from collections.abc import Callable, Iterator
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


def one_pass(run: Any, start_conversation: Any) -> float:
    """CPU seconds per round over ROUNDS rounds, in conversations of CHUNK rounds
    (starting one is not timed)."""
    spent = 0.0
    for _ in range(ROUNDS // CHUNK):
        state = start_conversation()
        start = time.process_time()
        for _ in range(CHUNK):
            run(state)
        spent += time.process_time() - start
    return spent / ROUNDS


SESSION = th.Session([get_order, get_time], max_failures=CHUNK + 1)


def conversation() -> list[Any]:
    SESSION.reset()
    return [{"role": "user", "content": "go"}]


def handled_round(messages: list[Any]) -> None:
    SESSION.handle(fresh_ids(), messages)


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


def work() -> float:
    """Instructions of one handled round in the configuration in force, less making the
    turn. Reading the environment's secrets happens at most once a second (``_known``):
    a few times in the thousands of rounds timed, but in nearly every traced round,
    tracing being slow; so it is held off while counting and counted on its own."""
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
    return rounds - turn


def _environment() -> None:
    _known._environment[0] = -1  # as if a variable had been set
    _known.current()


def environment_work() -> float:
    return opcodes(_environment)


def environment_cpu() -> float:
    """CPU time of one re-read of the environment's secrets (best of five)."""
    number = max(ROUNDS // 10, 1)
    passes = timeit.repeat(_environment, number=number, repeat=5, timer=time.process_time)
    return min(passes) / number


def cpu(fn: Any) -> float:
    return min(timeit.repeat(fn, number=ROUNDS, repeat=5, timer=time.process_time)) / ROUNDS


@contextlib.contextmanager
def outputs_removed() -> Iterator[None]:
    hooks, telemetry = _observe._hooks, _observe._telemetry
    _observe._hooks, _observe._telemetry = (), None
    try:
        yield
    finally:
        _observe._hooks, _observe._telemetry = hooks, telemetry


@contextlib.contextmanager
def logging_at_info() -> Iterator[None]:
    logger = logging.getLogger("toolhygiene")
    handler = logging.StreamHandler(io.StringIO())
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(logging.NOTSET)


def telemetry_providers() -> Any:
    """SDK tracer and meter providers with in-memory exporters, set for the process;
    returns the span exporter. ``configure(opentelemetry=...)`` then turns the output on
    and off, so every configuration can be measured in the same interleaved passes."""
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
    return exporter


def telemetry_on() -> Any:
    return th.configure(opentelemetry=True)


CONFIGURATIONS: dict[str, Callable[[], Any]] = {
    "toolhygiene, every output removed": outputs_removed,
    "toolhygiene, default configuration": contextlib.nullcontext,
    "toolhygiene, logging at INFO to a handler": logging_at_info,
    "toolhygiene, OpenTelemetry on": telemetry_on,
}
PASSES = 5


def main() -> int:
    print(f"python {sys.version.split()[0]}, one round: one failure + one success, "
          f"{ROUNDS} rounds a pass, best of {PASSES} passes, the configurations interleaved")
    exporter = telemetry_providers()
    th.configure(opentelemetry=False)  # on only inside its own configuration
    # CPU time, best of the passes, every configuration measured in each pass in turn, so
    # a load that comes and goes weighs on them alike.
    best = dict.fromkeys(["tools", "turns", "blind", *CONFIGURATIONS], float("inf"))
    for _ in range(PASSES):
        best["tools"] = min(best["tools"], cpu(tools_alone))
        best["turns"] = min(best["turns"], cpu(fresh_ids))
        best["blind"] = min(best["blind"], one_pass(blind_round, list))
        for label, setup in CONFIGURATIONS.items():
            with setup():
                best[label] = min(best[label], one_pass(handled_round, conversation))
    spans = len(exporter.get_finished_spans())
    # The work, counted: the same in any load, so the figure to compare runs by.
    counted: dict[str, float] = {}
    for label, setup in CONFIGURATIONS.items():
        with setup():
            counted[label] = work()
    blind_work = opcodes(lambda: blind_round([]))
    th.configure(opentelemetry=True)

    tools = best["tools"] + best["turns"]
    # The rounds' own time is what is left of a round once the tools' own time (and
    # making the turn, which the blind loop does not do) is taken off. Under load the
    # minima can come from different moments: a difference below the resolution of what
    # is taken off is not shown as a measurement.
    resolution = max(tools * 0.25, 1e-6)

    def own(seconds: float, taken: float = tools) -> float | None:
        left = seconds - taken
        return left if left > resolution else None

    def shown(seconds: float | None) -> str:
        return f"{seconds * 1e6:>7.1f} us/round" if seconds is not None else "  (below resolution)"

    blind = own(best["blind"], best["tools"])
    print(f"{'tools own time + making the turn (taken off)':<44} {tools * 1e6:>7.1f} us/round")
    print(f"{'blind loop (baseline)':<44} {shown(blind)}   CPU with the tools: "
          f"{best['blind'] * 1e6:.1f} us; work: {blind_work:.0f} instructions")
    for label in CONFIGURATIONS:
        mine = own(best[label])
        # Whole rounds (the tools' own time in both, not the turn's making) never need a
        # difference: the ratio is always a measurement.
        whole = (best[label] - best["turns"]) / best["blind"]
        ratio = f"whole round vs blind: {whole:>5.1f}x"
        print(f"{label:<44} {shown(mine)}   {ratio}; work: {counted[label]:.0f} instructions "
              f"({counted[label] / blind_work:.0f}x the blind loop's)")
    print(f"OpenTelemetry on: {spans} spans made while timed")
    default, bare = best["toolhygiene, default configuration"], best[
        "toolhygiene, every output removed"]
    share = counted["toolhygiene, default configuration"] - counted[
        "toolhygiene, every output removed"]
    timed = default - bare
    print(f"the outputs' share by default: {share:.0f} instructions; CPU "
          + (f"{timed * 1e6:.1f} us/round" if timed > resolution else "within this run's noise"))
    reread, reread_cpu = environment_work(), environment_cpu()
    print(f"reading the environment's secrets ({len(os.environ)} variables), at most once a "
          f"second: {reread:.0f} instructions, {reread_cpu * 1e6:.1f} us")
    # Rounds timed back to back share one re-read a second; a real loop's rounds are a
    # model's round trip (seconds) apart, so each of them pays it.
    ordinary = counted["toolhygiene, default configuration"] + reread
    alone = own(default)
    print(f"a round a second or more after the last (a real loop), default: "
          f"{shown(alone + reread_cpu if alone is not None else None)}; "
          f"work: {ordinary:.0f} instructions")
    print(f"target: default <= 60 us: {'met' if default - tools <= 60e-6 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
