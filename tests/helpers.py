"""Small helpers shared by the tests."""

from __future__ import annotations

import json
import logging
import os
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

import toolhygiene as th

Call = Callable[..., Any]
"""``Session.call``, or ``acall`` run to its end (the ``call`` fixture gives either)."""

LIGHT = os.environ.get("TOOLHYGIENE_TESTS") == "light"
"""A lighter run (noxfile sets it for the Pythons other than the main one, and the floors)."""

README = Path(__file__).resolve().parents[1] / "README.md"
LOGS = Path(__file__).resolve().parents[1] / "docs" / "logs.md"
# The timeout of a tool a test leaves hanging on a gate: long enough for a worker thread to
# start on a loaded machine (at 0.05 s, CI under load once saw "could not start within
# 0.05 s and was not run" where the test meant "is still running"), short enough that a
# test making a few such calls stays under a second or two.
HUNG = 0.25


class Lying(Exception):
    """An exception whose class cannot be read: classifying it fails."""

    @property  # type: ignore[misc]
    def __class__(self) -> Any:
        raise RuntimeError("no class")


class Collect(logging.Handler):
    """A logging handler that keeps every record."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def app_logger(name: str) -> tuple[logging.Logger, Collect]:
    """An application's own logger (not propagated), with a handler that keeps records."""
    handler = Collect()
    logger = logging.getLogger(name)
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    return logger, handler


def documented_events() -> dict[str, list[str]]:
    """docs/logs.md's table of events: name -> fields (a field named only in an aside, in
    parentheses, is left out: it is there in some cases)."""
    events = {}
    for line in LOGS.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\| `([a-z_]+\.[a-z_]+)` \| ([^|]+) \| ([^|]+) \|", line)
        if match:
            fields = re.sub(r"\([^)]*\)", "", match.group(3))  # asides name no field
            events[match.group(1)] = re.findall(r"`([a-z_.]+)`", fields)
    return events


def examples(full: int) -> int:
    """``max_examples`` for a property that sets its own (``full``: what its author wants
    searched): half of it in the main run, a twentieth (at least 3) in a light one. CI
    runs the suite six times within its time; the light runs look for what differs
    between Pythons and dependency versions, not for new inputs."""
    return max(3, full // 20) if LIGHT else max(10, full // 2)


def pieces(*alphabet: str, max_size: int = 40) -> st.SearchStrategy[str]:
    """Texts made of up to ``max_size`` pieces drawn from ``alphabet`` (words, separators,
    escapes: the edges a pattern or a shortcut turns on)."""
    return st.lists(st.sampled_from(alphabet), max_size=max_size).map("".join)


def raised(fn: Callable[[], Any]) -> BaseException:
    """The exception ``fn`` raises (the test fails if it raises none)."""
    try:
        fn()
    except Exception as exc:
        return exc
    raise AssertionError("nothing was raised")


def flaky() -> th.Tool[[], str]:
    """A tool named ``flaky`` whose first call fails transiently (a reset connection)."""
    calls: list[int] = []

    @th.tool
    def flaky() -> str:
        calls.append(1)
        if len(calls) == 1:
            raise ConnectionResetError("connection reset by peer")
        return "ok"

    return flaky


def import_blocker(blocked: list[str]) -> str:
    """Python source that, run first, makes importing any of ``blocked`` fail."""
    return (
        "import sys\n"
        f"blocked = {blocked!r}\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in blocked:\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
    )


NO_KEYS: dict[str, int] = {}
"""An empty mapping: looking anything up in it raises a real ``KeyError``."""


class Ran:
    """A side-effect counter: what ran, how often, when (monotonic) and on which thread."""

    def __init__(self) -> None:
        import threading

        self._lock = threading.Lock()
        self.events: list[tuple[str, float, str]] = []

    def __call__(self, what: str) -> None:
        import threading
        import time

        with self._lock:
            self.events.append((what, time.monotonic(), threading.current_thread().name))

    def count(self, what: str) -> int:
        return sum(1 for event in self.events if event[0] == what)

    def when(self, what: str) -> list[float]:
        return [at for event, at, _ in self.events if event == what]


def encodes(value: Any) -> bool:
    """Whether ``value`` (text, or JSON-like data) is valid UTF-8 all through."""
    import json

    json.dumps(value, ensure_ascii=False, default=str).encode("utf-8")
    return True


def failing_inventory() -> Any:
    """A tool that fails the same way every call (not found, not retryable), closed after
    3 failures: the stores' tests count it across Sessions."""

    @th.tool(max_failures=3)
    def inventory(sku: str) -> str:
        """Check stock.

        Args:
            sku: the item.
        """
        raise th.ToolError(f"no item {sku} is listed", retryable=False, category="not_found")

    return inventory


class FakeClock:
    """A clock for the retry budget that moves only when told: no test waits on time."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def retry_state(attempt: int, exc: BaseException | None = None,
                upcoming_sleep: float = 0.0) -> Any:
    """tenacity's own ``RetryCallState`` after attempt ``attempt`` failed with ``exc``."""
    import tenacity

    state = tenacity.RetryCallState(tenacity.Retrying(), fn=None, args=(), kwargs={})
    state.attempt_number = attempt
    if exc is not None:
        state.set_exception((type(exc), exc, exc.__traceback__))
    state.upcoming_sleep = upcoming_sleep
    return state


def retry_policy(tool: th.Tool[..., Any] | None = None, *, max_wait: float = 30.0,
                 budget: float = 60.0, clock: FakeClock | None = None,
                 closed: Callable[[], bool] = lambda: False) -> Any:
    """The retry policy of one call of ``tool`` (default: 5 retries), on ``clock``."""
    # Private imports, by design (internal units under test): the retry policy and an attempt's plan, driven directly by the retry-policy helpers.
    from toolhygiene._call import Plan
    from toolhygiene._retrying import RetryPolicy

    if tool is None:
        @th.tool(retries=5)
        def fetch() -> str:
            """Fetch."""
            return "ok"

        tool = fetch
    clock = clock or FakeClock()
    plan = Plan(tool, {}, None, 1, began=clock())
    return RetryPolicy(plan, max_wait=max_wait, budget=budget,
                       judge=lambda exc: th.classify(exc, plan.tool.name), closed=closed,
                       clock=clock)


def store_tools() -> tuple[list[Any], dict[str, bool]]:
    """A tool failing until ``up["inventory"]`` is set, and one that always answers: the
    tools of the store-tail tests."""
    up = {"inventory": False}

    @th.tool(retries=0)
    def inventory(sku: str) -> str:
        """Check stock.

        Args:
            sku: the item.
        """
        if not up["inventory"]:
            raise th.ToolError(f"no item {sku} yet", retryable=False, category="not_found")
        return "3 left"

    @th.tool
    def ping() -> str:
        """Ping."""
        return "pong"

    return [inventory, ping], up


_TELEMETRY: list[Any] = []


def telemetry_providers() -> tuple[Any, Any]:
    """The global OpenTelemetry providers, set once for the process as an application
    does (whichever test asks first), with the SDK's in-memory exporters: the span
    exporter and the metric reader every test that reads spans shares."""
    if not _TELEMETRY:
        from opentelemetry import metrics, trace
        from opentelemetry.sdk.metrics import MeterProvider
        from opentelemetry.sdk.metrics.export import InMemoryMetricReader
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
            InMemorySpanExporter,
        )

        exporter, reader = InMemorySpanExporter(), InMemoryMetricReader()
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        trace.set_tracer_provider(provider)
        metrics.set_meter_provider(MeterProvider(metric_readers=[reader]))
        _TELEMETRY.extend([exporter, reader])
    return _TELEMETRY[0], _TELEMETRY[1]


def full_pass(thunk: Callable[[], Any]) -> Any:
    """``thunk()`` with the redaction engine's simple-text shortcut forced off: every
    text gets the full pass, which looks for its token spans again."""
    from toolhygiene import _engine

    shortcut = _engine._simple_tokens
    _engine._simple_tokens = lambda text, plan=None: None
    try:
        return thunk()
    finally:
        _engine._simple_tokens = shortcut


_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def passwords(min_tail: int = 2, max_tail: int = 5) -> st.SearchStrategy[str]:
    """A password a person writes: three to six letters, a digit, then ``min_tail`` to
    ``max_tail`` letters and digits (too short for the random-token layer: only its
    label or its context can find it)."""
    return st.builds(
        lambda head, digit, tail: head + digit + tail,
        st.text(_ALNUM[:52], min_size=3, max_size=6),
        st.sampled_from("0123456789"),
        st.text(_ALNUM, min_size=min_tail, max_size=max_tail),
    )


def issued_tokens() -> st.SearchStrategy[str]:
    """A credential a service issues: long (20-43 characters), random, letters and
    digits (seeded, so that hypothesis shrinks the seed, not the characters)."""
    return st.builds(
        lambda seed, size: "".join(random.Random(seed).choices(_ALNUM, k=size)) + "9aZ",
        st.integers(0, 2**32),
        st.integers(17, 40),
    )


def secrets() -> st.SearchStrategy[str]:
    """A password a person writes or a credential a service issues."""
    return st.one_of(passwords(), issued_tokens())


def untrusted_result(value: object, name: str = "read_page") -> str:
    """What the model reads of a successful ``untrusted=True`` tool's result ``value``."""

    def read(q: str = "") -> object:
        """Read a page."""
        return value

    tool = th.tool(name=name, retries=0, untrusted=True)(read)
    with th.Session([tool]) as session:
        outcome = session.call(name, {})
    assert outcome.ok, outcome.content
    return outcome.content


def failure_line(message: str, error: type[Exception] = ValueError) -> str:
    """The failure line of a tool ``fetch`` that raises ``error(message)``."""

    def fetch(q: str = "") -> str:
        """Fetch."""
        raise error(message)

    tool = th.tool(name="fetch", retries=0, max_failures=1000)(fetch)
    with th.Session([tool]) as session:
        return session.call("fetch", {}).content


def crc24(data: bytes) -> int:
    """OpenPGP's CRC-24 (RFC 4880 6.1) as the RFC writes it, a bit at a time: the
    oracle for the library's table and the armor of the tests' own key blocks."""
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def carried(text: str) -> dict[str, str]:
    """What the model reads of ``text`` in each carrier."""

    @th.tool(name="probe")
    def fails(order_id: str) -> str:
        raise RuntimeError(text)

    @th.tool(name="as_str")
    def as_str(order_id: str) -> str:
        return text

    @th.tool(name="as_dict")
    def as_dict(order_id: str) -> dict[str, Any]:
        return {"source": "probe", "output": text}

    @th.tool(name="as_list")
    def as_list(order_id: str) -> list[Any]:
        return ["probe", text]

    session = th.Session([fails, as_str, as_dict, as_list], line_cap=4000, max_failures=99)
    out = {"redact": th.redact(text)}
    for name in ("probe", "as_str", "as_dict", "as_list"):
        out[name] = session.call(name, {"order_id": "ORD-1"}).content
    return out


def gone_everywhere(text: str, *secrets: str) -> dict[str, str]:
    """``carried(text)``, asserting that no carrier shows any of ``secrets`` (in dict and
    list results, nor JSON-escaped)."""
    out = carried(text)
    for carrier, seen in out.items():
        for secret in secrets:
            assert secret not in seen, (carrier, text, seen)
            if carrier in ("as_dict", "as_list"):
                assert json.dumps(secret, ensure_ascii=False)[1:-1] not in seen, (carrier, seen)
    return out


def kept_everywhere(text: str, *survivors: str) -> None:
    """Assert that every carrier shows each of ``survivors`` as written (on one line in a
    failure line, JSON-escaped in dict and list results)."""
    for carrier, seen in carried(text).items():
        for survivor in survivors:
            shown = survivor
            if carrier == "probe":  # (a failure line is one line)
                shown = re.sub(r"[ \t]*\n[ \t]*", " ", survivor)
            if carrier in ("as_dict", "as_list"):
                shown = json.dumps(survivor, ensure_ascii=False)[1:-1]
            assert shown in seen, (carrier, text, seen)
