"""Small helpers shared by the tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def raised(fn: Callable[[], Any]) -> BaseException:
    """The exception ``fn`` raises (the test fails if it raises none)."""
    try:
        fn()
    except Exception as exc:
        return exc
    raise AssertionError("nothing was raised")
