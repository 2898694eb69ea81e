"""Read-only copies of the data a record shows: what one reader sees, the next sees too.

``frozen(value)`` copies ``value`` deeply into types that refuse every change: a mapping
becomes a ``types.MappingProxyType`` over a dict nobody else holds, a list or tuple a
tuple, a set a frozenset, a bytearray bytes; strings, numbers and other values are kept
as they are. The copy still reads as the data it came from (``frozen({"a": 1}) == {"a": 1}``), and
toolhygiene's JSON writers take it as they take the original (a proxy as an object, a
tuple as an array).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["frozen"]


def frozen(value: Any) -> Any:
    """A deep read-only copy of ``value`` (see the module)."""
    if isinstance(value, (str, int, float, bytes)) or value is None:
        return value
    if isinstance(value, Mapping):
        return MappingProxyType({k: frozen(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(frozen(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(frozen(v) for v in value)
    if isinstance(value, bytearray):
        return bytes(value)
    return value
