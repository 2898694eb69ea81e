"""What classification reads of an exception's class alone is kept per class
(``_library.type_facts``): a class's route to its verdict and whether it is a builtin,
never anything of the exception or its message. Classifying with the kept facts gives
exactly what reading them afresh gives, on hypothesis-made classes, chains and messages."""

from __future__ import annotations

import errno
import itertools
import json
import sqlite3
from collections.abc import Callable
from typing import Any

import httpx
import requests
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples

# Private imports, by design (internal units under test): the library verdict tables and their cache.
from toolhygiene import _library, classify

_REQUEST = httpx.Request("GET", "https://api.example.com/v1/orders")


def _status(message: str, code: int) -> BaseException:
    response = httpx.Response(code, request=_REQUEST, headers={"Retry-After": "3"})
    return httpx.HTTPStatusError(message, request=_REQUEST, response=response)


_MAKERS: list[Callable[[str, int], BaseException]] = [
    lambda m, n: ValueError(m),
    lambda m, n: KeyError(m),
    lambda m, n: TimeoutError(m),
    lambda m, n: OSError(n, m),
    lambda m, n: ConnectionRefusedError(n, m),
    lambda m, n: FileNotFoundError(n, m, "orders.json"),
    lambda m, n: RuntimeError(m),
    lambda m, n: httpx.ConnectError(m, request=_REQUEST),
    lambda m, n: httpx.ReadTimeout(m, request=_REQUEST),
    _status,
    lambda m, n: requests.ConnectionError(m),
    lambda m, n: json.JSONDecodeError(m, "{", 0),
    lambda m, n: sqlite3.OperationalError(m),
    lambda m, n: th.ToolError(m, retryable=n % 2 == 0),
]
_ERRNOS = [errno.ECONNREFUSED, errno.ETIMEDOUT, errno.ENOENT, errno.EACCES, 0, 429, 503]
_MODULES = ["myapp.errors", "requests.custom", "httpx._local", "builtins", "__main__"]


@st.composite
def exceptions(draw: st.DrawFn) -> BaseException:
    """An exception of a real class, or of a subclass made on the fly (its own name and
    module), maybe raised from another such exception."""
    made: list[BaseException] = []
    for _ in range(draw(st.integers(1, 3))):
        maker = draw(st.sampled_from(_MAKERS))
        exc = maker(draw(st.text(max_size=120)), draw(st.sampled_from(_ERRNOS)))
        if draw(st.booleans()):
            name = draw(st.sampled_from(["Failed", "ConnectionError", "HTTPError", "Timeout"]))
            namespace = {"__module__": draw(st.sampled_from(_MODULES))}
            kind: Any = type(name, (type(exc),), namespace)
            fresh = kind.__new__(kind, *exc.args)
            fresh.__dict__.update(getattr(exc, "__dict__", {}))
            if isinstance(exc, OSError):
                fresh.errno, fresh.strerror = exc.errno, exc.strerror
            exc = fresh
        made.append(exc)
    for outer, inner in itertools.pairwise(made):
        outer.__cause__ = inner
    return made[0]


@settings(max_examples=examples(300), deadline=None)
@given(exc=exceptions())
def test_kept_facts_classify_as_facts_read_afresh(exc: BaseException) -> None:
    _library._FACTS.clear()
    fresh = classify(exc, "get_order")  # every class read now, then kept
    kept = classify(exc, "get_order")  # every class's facts from the cache
    assert kept == fresh
    assert kept.line() == fresh.line()
    assert kept.fingerprint == fresh.fingerprint
    for member in (exc, exc.__cause__):
        if member is not None:
            uncached = _library.verdict_by(_library.route(type(member)), member)
            assert _library.library_verdict(member) == uncached
            assert _library.type_facts(type(member)) == _library.facts_of(type(member))


def test_classes_made_on_the_fly_keep_the_cache_bounded() -> None:
    for n in range(_library.TYPE_FACTS + 50):
        kind: Any = type(f"E{n}", (ConnectionError,), {"__module__": "myapp"})
        assert classify(kind("refused"), "t").category.value == "connectivity"
    assert len(_library._FACTS) <= _library.TYPE_FACTS


def test_a_class_whose_metaclass_hashes_badly_is_classified() -> None:
    class Meta(type):
        def __hash__(cls) -> int:
            raise RuntimeError("no hash for you")

        def __eq__(cls, other: object) -> bool:
            raise RuntimeError("no eq for you")

    class Hostile(TimeoutError, metaclass=Meta):
        pass

    first = classify(Hostile("read timed out"), "t")
    assert first == classify(Hostile("read timed out"), "t")
    assert (first.category.value, first.retryable) == ("connectivity", True)


def test_a_freed_class_is_not_mistaken_for_a_new_one_at_its_address() -> None:
    # A class freed and another made may share an id: the weak reference tells them apart.
    for n in range(200):
        kind: Any = type("Gone", (ValueError if n % 2 else TimeoutError,), {})
        expected = "bad_request" if n % 2 else "connectivity"
        assert classify(kind("x"), "t").category.value == expected
        del kind
