"""``typing.TypedDict`` made readable for pydantic before Python 3.12.

pydantic refuses a ``typing.TypedDict`` on Python < 3.12 (it needs the ``__orig_bases__``
and qualifiers only ``typing_extensions.TypedDict`` keeps there). The same dictionary type
is rebuilt with ``typing_extensions.TypedDict`` (same keys, same required and optional
keys, same docstring), wherever it sits in an annotation; the function still receives a
plain dict, as it would have.
"""

from __future__ import annotations

import sys
import typing
from collections.abc import Mapping
from typing import Annotated, Any, get_args, get_origin, get_type_hints

__all__ = ["readable"]

_OLD = sys.version_info < (3, 12)


def readable(annotation: Any, localns: Mapping[str, Any] | None = None) -> Any:
    """``annotation`` with every ``typing.TypedDict`` rebuilt for pydantic (unchanged on
    Python 3.12 and later, or when it holds none).

    Raises:
        TypeError: a generic holding one cannot be rebuilt; the message says what to do.
    """
    if not _OLD:
        return annotation
    return _rebuild(annotation, {}, dict(localns or {}))


def _rebuild(annotation: Any, done: dict[Any, Any], localns: dict[str, Any]) -> Any:
    if isinstance(annotation, type) and typing.is_typeddict(annotation):
        return _typeddict(annotation, done, localns)
    args = get_args(annotation)
    if not args:
        return annotation
    origin = get_origin(annotation)
    if origin is Annotated:
        base, *meta = args
        new_base = _rebuild(base, done, localns)
        if new_base is base:
            return annotation
        parts = (new_base, *meta)
        return Annotated[parts]
    if origin is typing.Literal:
        return annotation
    new_args = tuple(_rebuild(a, done, localns) for a in args)
    if all(a is b for a, b in zip(new_args, args, strict=True)):
        return annotation
    try:
        if origin is typing.Union or type(annotation).__name__ == "UnionType":
            return typing.Union.__getitem__(new_args)
        return origin[new_args]
    except TypeError as exc:
        raise TypeError(
            f"{annotation} holds a typing.TypedDict, which pydantic reads only on Python 3.12 "
            "and later: import TypedDict from typing_extensions"
        ) from exc


def _typeddict(kind: type, done: dict[Any, Any], localns: dict[str, Any]) -> Any:
    import typing_extensions  # a tool's schema is being built: pydantic imported it already

    if kind in done:
        return done[kind]
    hints = get_type_hints(kind, localns=localns, include_extras=True)
    required = kind.__required_keys__  # type: ignore[attr-defined]
    fields = {}
    for key, hint in hints.items():
        inner = _rebuild(_bare(hint), done, localns)
        mark = typing_extensions.Required if key in required else typing_extensions.NotRequired
        fields[key] = mark[inner]
    rebuilt: Any = typing_extensions.TypedDict(kind.__name__, fields)  # type: ignore[misc]
    rebuilt.__doc__ = kind.__doc__
    rebuilt.__module__ = kind.__module__
    rebuilt.__qualname__ = kind.__qualname__
    done[kind] = rebuilt
    return rebuilt


def _bare(hint: Any) -> Any:
    """``hint`` without a ``Required``/``NotRequired`` wrapper (the keys sets say which)."""
    import typing_extensions

    origin = get_origin(hint)
    if origin in (typing_extensions.Required, typing_extensions.NotRequired):
        return get_args(hint)[0]
    return hint
