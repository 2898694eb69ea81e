"""Who is watching what the model sees (``testing.capture`` registers here)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["notify", "watch"]

_lock = threading.Lock()
_watchers: list[Callable[[Any], None]] = []


def watch(callback: Callable[[Any], None]) -> Callable[[], None]:
    """Call ``callback(outcome)`` for every outcome; returns the function that stops it."""
    with _lock:
        _watchers.append(callback)

    def stop() -> None:
        with _lock:
            if callback in _watchers:
                _watchers.remove(callback)

    return stop


def notify(outcome: Any) -> None:
    """Tell every watcher about ``outcome`` (cheap when nobody watches)."""
    if _watchers:
        for callback in tuple(_watchers):
            callback(outcome)
