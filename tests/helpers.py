"""Small helpers shared by the tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import toolhygiene as th


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
