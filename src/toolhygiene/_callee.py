"""What a tool calls: a function, an async function, a method (bound later through the
descriptor protocol), a static or class method, a ``functools.partial`` or an object with
``__call__``; where its documentation and annotations live; which parameters the model
never fills in (``self``, ``cls``, arguments a partial has bound)."""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["Callee", "Kind", "callee_of", "parse_docstring"]

Kind = Literal["function", "method", "classmethod"]
"""``method``/``classmethod``: the first parameter is bound by ``__get__``, never by the model."""


@dataclass(frozen=True, slots=True)
class Callee:
    """One callable, read once.

    ``fn`` is what is called (a ``staticmethod``/``classmethod`` unwrapped); ``annotated``
    is the function whose annotations type the arguments; ``docs`` the objects whose
    docstrings describe it, most general first; ``hidden`` the parameters the model never
    fills in.
    """

    fn: Callable[..., Any]
    kind: Kind
    name: str
    annotated: Callable[..., Any]
    docs: tuple[Any, ...]
    hidden: frozenset[str]
    is_async: bool


def _defined_in_class(fn: Any) -> bool:
    parts = str(getattr(fn, "__qualname__", "")).split(".")
    return len(parts) >= 2 and parts[-2] != "<locals>"


def callee_of(obj: Any) -> Callee:
    """Read ``obj``; raises ``TypeError`` for something that cannot be called."""
    known = getattr(obj, "_callee", None)  # a Tool: what it already read
    if isinstance(known, Callee):
        return known
    if isinstance(obj, staticmethod):
        inner = callee_of(obj.__func__)
        return dataclasses.replace(inner, kind="function", hidden=frozenset())
    if isinstance(obj, classmethod):
        inner = callee_of(obj.__func__)
        return dataclasses.replace(inner, kind="classmethod", hidden=_first(inner.fn))
    if isinstance(obj, functools.partial):
        base: Any = obj
        bound: set[str] = set()
        while isinstance(base, functools.partial):
            bound.update(base.keywords)
            base = base.func
        inner = callee_of(base)
        if inner.kind != "function":
            raise TypeError("a partial of a method taken from its class: bind the method first")
        return dataclasses.replace(inner, fn=obj, hidden=inner.hidden | bound)
    if inspect.isfunction(obj):
        first = _first(obj)
        kind: Kind = "method" if first and _defined_in_class(obj) else "function"
        hidden = first if kind == "method" else frozenset()
        return Callee(obj, kind, obj.__name__, obj, (obj,), hidden, _is_async(obj))
    if inspect.ismethod(obj):
        func = obj.__func__
        return Callee(obj, "function", func.__name__, func, (func,), _first(func), _is_async(func))
    if isinstance(obj, type):
        init = vars(obj).get("__init__", object.__init__)
        return Callee(obj, "function", obj.__name__, init, (obj, init), _first(init), False)
    if not callable(obj):
        raise TypeError(f"a {type(obj).__name__} cannot be called")
    call = type(obj).__call__
    name = str(getattr(obj, "__name__", type(obj).__name__))
    return Callee(obj, "function", name, call, (type(obj), call), _first(call), _is_async(call))


def _first(fn: Any) -> frozenset[str]:
    """The name of a plain function's first positional parameter (where ``self`` goes)."""
    if not inspect.isfunction(fn):
        return frozenset()
    params = list(inspect.signature(fn).parameters.values())
    if params and params[0].kind in (params[0].POSITIONAL_ONLY, params[0].POSITIONAL_OR_KEYWORD):
        return frozenset({params[0].name})
    return frozenset()


def _is_async(fn: Any) -> bool:
    return inspect.iscoroutinefunction(fn)


def parse_docstring(*sources: Any) -> tuple[str, dict[str, str]]:
    """The description (text before any section) and each argument's description, from
    Google, NumPy, reST (Sphinx) or Epydoc docstrings; later sources' argument docs win,
    the first source with text gives the description."""
    import docstring_parser  # here, not with toolhygiene: only a tool's definition reads it

    summary = ""
    params: dict[str, str] = {}
    for source in sources:
        doc = inspect.getdoc(source)
        if not doc:
            continue
        parsed = docstring_parser.parse(doc)
        text = " ".join(p for p in (parsed.short_description, parsed.long_description) if p)
        summary = summary or " ".join(text.split())
        params.update({p.arg_name: " ".join((p.description or "").split()) for p in parsed.params})
    return summary, params
