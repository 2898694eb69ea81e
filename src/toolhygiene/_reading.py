"""Reading an exception without trusting it: attributes, chain, message, type name.

An exception is code written by someone else. Its ``response`` may be a property that
raises, its ``__getattr__`` may raise anything, its ``__module__`` may be ``None``, its
``__str__`` may return a ``str`` subclass whose methods raise or ten megabytes of text,
its chain may be 100,000 causes deep. Its class may be made by a metaclass whose
``__name__``, ``__qualname__``, ``__module__`` or ``__mro__`` are properties that raise, or
whose ``__getattribute__`` raises for every name. Everything here answers in bounded time
and never raises for any of that: a class is read through ``type``'s own slots, which a
metaclass cannot hook, and this module is the one place that reads an exception's class.
"""

from __future__ import annotations

from itertools import repeat
from types import TracebackType
from typing import Any

from toolhygiene._text import bounded_repr, plain

__all__ = [
    "attr",
    "chain",
    "class_attr",
    "class_name",
    "depth",
    "members",
    "mro",
    "module_of",
    "os_error",
    "raw_message",
    "said",
    "short_name",
    "traceback_of",
    "type_name",
]

_ARGS = BaseException.__dict__["args"]
_CAUSE = BaseException.__dict__["__cause__"]
_CONTEXT = BaseException.__dict__["__context__"]
_SUPPRESS = BaseException.__dict__["__suppress_context__"]
_TRACEBACK = BaseException.__dict__["__traceback__"]
_READ_SLOT = type(OSError.__dict__["errno"]).__get__  # a member descriptor's own read
_OS_ERROR = tuple(OSError.__dict__[name] for name in ("errno", "strerror", "filename", "filename2"))
_MODULE = type.__dict__["__module__"]
_NAME = type.__dict__["__name__"]
_QUALNAME = type.__dict__["__qualname__"]
_MRO = type.__dict__["__mro__"]
_DICT = type.__dict__["__dict__"]
_GROUP_WIDTH = 16
"""Members of one exception group looked at, at most."""


def attr(obj: Any, name: str) -> Any:
    """``getattr(obj, name, None)``, and ``None`` too when reading it raises anything."""
    try:
        return getattr(obj, name, None)
    except Exception:
        return None


def module_of(cls: type) -> str:
    """The module a class says it comes from; ``""`` when that is not a string."""
    try:
        module = _MODULE.__get__(cls)  # type's own slot: a metaclass cannot hook it
    except Exception:
        return ""
    return module if type(module) is str else ""


def _slot(descriptor: Any, cls: type) -> str:
    try:
        value = descriptor.__get__(cls)
    except Exception:
        return "?"
    return value if type(value) is str else "?"


def class_name(cls: type) -> str:
    """The class's own ``__name__`` (``"?"`` if even that cannot be read)."""
    return _slot(_NAME, cls)


def short_name(exc: BaseException) -> str:
    """The name of the exception's class, ``Timeout`` for ``httpx.Timeout``."""
    return class_name(type(exc))


def mro(cls: type) -> tuple[type, ...]:
    """The class's own method resolution order (just ``(cls,)`` if it cannot be read)."""
    try:
        found = _MRO.__get__(cls)
    except Exception:
        return (cls,)
    return found if type(found) is tuple else (cls,)


def class_attr(cls: type, name: str) -> Any:
    """What ``cls.name`` finds in the class dictionaries of its MRO, without calling
    any ``__getattribute__`` or descriptor; ``None`` when nothing defines it."""
    for base in mro(cls):
        namespace = _DICT.__get__(base)  # every class has one: a mappingproxy, never hooked
        if name in namespace:
            return namespace[name]
    return None


def type_name(exc: BaseException) -> str:
    """``ValueError`` for builtins, ``package.module.Class`` for the rest."""
    return qualified_name(type(exc))


def qualified_name(cls: type) -> str:
    """``type_name`` of an exception of class ``cls``."""
    module = module_of(cls)
    qualname = _slot(_QUALNAME, cls)
    if module == "builtins":
        return qualname
    return f"{module or '?'}.{qualname}"


def traceback_of(exc: BaseException) -> TracebackType | None:
    """The exception's own traceback slot (a ``__traceback__`` property is not asked)."""
    return _TRACEBACK.__get__(exc)  # type: ignore[no-any-return]


def os_error(exc: BaseException) -> tuple[Any, Any, Any, Any] | None:
    """``errno``, ``strerror``, ``filename``, ``filename2`` from ``OSError``'s own slots,
    or ``None`` when ``exc`` is no ``OSError``."""
    if not issubclass(type(exc), OSError):
        return None
    return tuple(map(_READ_SLOT, _OS_ERROR, repeat(exc, 4)))


def members(exc: BaseException) -> list[BaseException]:
    """The members of ``exc`` if it is an exception group (see ``_members``), else []."""
    return _members(exc)


def _members(exc: BaseException) -> list[BaseException]:
    """The members of an exception group, by duck typing: the builtin ``ExceptionGroup``
    (3.11+), the ``exceptiongroup`` backport's (3.10, raised by anyio and trio), or any
    exception carrying an ``exceptions`` tuple or list of exceptions."""
    members = attr(exc, "exceptions")
    if not isinstance(members, (tuple, list)) or not members:
        return []
    return [m for m in members[:_GROUP_WIDTH] if isinstance(m, BaseException)]


def _below(exc: BaseException) -> list[BaseException]:
    """What ``exc`` came from: group members, then the cause (or the unsuppressed
    context). The base class's own slots are read, never a subclass's properties."""
    below = _members(exc)
    cause = _CAUSE.__get__(exc)
    if cause is not None:
        below.append(cause)
    else:
        context = _CONTEXT.__get__(exc)
        if context is not None and not _SUPPRESS.__get__(exc):
            below.append(context)
    return below


def chain(exc: BaseException, limit: int) -> list[BaseException]:
    """``exc`` and what it came from, depth first, at most ``limit`` members; cycles
    are cut."""
    if _CAUSE.__get__(exc) is None and _CONTEXT.__get__(exc) is None and not _members(exc):
        return [exc]
    seen: set[int] = set()
    found: list[BaseException] = []
    stack = [exc]
    while stack and len(found) < limit:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        found.append(current)
        stack.extend(reversed(_below(current)))
    return found


def links(
    exc: BaseException, limit: int, members_cap: int | None = None
) -> list[tuple[BaseException, tuple[int, int] | None, int]]:
    """``chain``, each exception with how it joins the one before it: ``(I, N)`` when it
    is member I of N of the group above, else ``None`` (the first, or a cause or an
    unsuppressed context of the one above); and its level (how many groups deep).

    With ``members_cap``, a group's members past the first ``members_cap`` are left out,
    and the group appears once more after its last one shown, as ``(0, M)`` at its
    members' level: M members of it were left out."""
    seen: set[int] = set()
    found: list[tuple[BaseException, tuple[int, int] | None, int]] = []
    stack: list[tuple[BaseException, tuple[int, int] | None, int]] = [(exc, None, 0)]
    while stack and len(found) < limit:
        current, member, level = stack.pop()
        if member is not None and member[0] == 0:  # the mark of members left out
            found.append((current, member, level))
            continue
        if id(current) in seen:
            continue
        seen.add(id(current))
        found.append((current, member, level))
        below: list[tuple[BaseException, tuple[int, int] | None, int]] = []
        members = _members(current)
        if members:
            told = attr(current, "exceptions")
            total = len(told) if isinstance(told, (tuple, list)) else len(members)
            kept = members if members_cap is None else members[:members_cap]
            below.extend((m, (at, total), level + 1) for at, m in enumerate(kept, 1))
            if total > len(kept):
                below.append((current, (0, total - len(kept)), level + 1))
        cause = _CAUSE.__get__(current)
        if cause is None and not _SUPPRESS.__get__(current):
            cause = _CONTEXT.__get__(current)
        if cause is not None:
            below.append((cause, None, level))
        stack.extend(reversed(below))
    return found


def depth(exc: BaseException, limit: int) -> int:
    """How many exceptions long the main line of ``exc``'s chain is (each one's cause, or
    its unsuppressed context), counted up to ``limit`` (a cycle counts as ``limit``)."""
    count = 1
    current: BaseException | None = exc
    while current is not None and count < limit:
        cause = _CAUSE.__get__(current)
        if cause is None and not _SUPPRESS.__get__(current):
            cause = _CONTEXT.__get__(current)
        if cause is None:
            break
        current, count = cause, count + 1
    return count


def _base_str(args: tuple[Any, ...], cap: int) -> str:
    """What ``BaseException.__str__`` would say, bounded."""
    if not args:
        return ""
    if len(args) > 1:
        return bounded_repr(args, cap)
    only = args[0]
    if isinstance(only, str):
        return plain(only, cap)
    if isinstance(only, (bytes, bytearray, list, tuple, dict, set, frozenset, int)):
        return bounded_repr(only, cap)  # str() of these is their repr
    try:
        return plain(str(only), cap)
    except Exception:
        return f"<{class_name(type(only))}>"


def raw_message(exc: BaseException, cap: int) -> str | None:
    """The text of ``exc``, at most ``cap`` characters, an exact ``str``; ``None`` when
    its ``__str__`` raises or returns something else than text.

    The builtin ``__str__`` of ``BaseException`` and ``KeyError`` is re-done from
    ``args`` within the cap, so a huge or deeply nested argument costs nothing; any
    other ``__str__`` is the exception's own code and is called once.
    """
    method = class_attr(type(exc), "__str__")
    if method is BaseException.__str__ or method is KeyError.__str__:
        args = _ARGS.__get__(exc)
        if method is KeyError.__str__ and len(args) == 1:
            return bounded_repr(args[0], cap)
        return _base_str(args, cap)
    try:
        text = str(exc)
    except Exception:
        return None
    return plain(text, cap)


def said(exc: BaseException, cap: int = 200) -> str:
    """``Name: message`` of ``exc`` in at most about ``cap`` characters, for a note about
    an exception raised while reading another one."""
    message = raw_message(exc, cap)
    name = short_name(exc)
    return f"{name}: {message}" if message else name
