"""Exceptions whose class is hostile: a metaclass whose ``__name__``, ``__module__``,
``__mro__``, ``__dict__`` or ``__getattribute__`` raise (``__qualname__`` through
``__getattribute__``: a class body cannot make it a property), unhashable or
uncomparable classes, instances whose ``__class__``, ``__getattribute__``, ``args`` or
``__str__`` raise. Through call, acall, handle and ahandle every one ends in one line
naming the tool, and the log carries the tool's traceback."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import encodes, examples

# Private imports, by design (internal units under test): the reader of untrusted exceptions, tested function by function.
from toolhygiene._reading import class_attr, class_name, mro, said, short_name, type_name
from toolhygiene.testing import model_turn

if sys.version_info < (3, 11):
    from exceptiongroup import ExceptionGroup

META = ["__name__", "__module__", "__mro__", "__bases__", "__dict__", "__doc__",
        "__getattribute__", "__repr__", "__str__", "__eq__", "__hash__",
        "__instancecheck__", "__subclasscheck__"]
INSTANCE = ["__class__", "__getattribute__", "__getattr__", "__str__", "__repr__", "args",
            "__traceback__", "filename", "filename2", "category", "retryable", "what",
            "response", "headers", "status_code", "errno", "strerror", "exceptions",
            "__notes__", "__cause__", "__context__"]
MODULES = [__name__, "builtins", "httpx", "requests.exceptions", "anthropic", "openai",
           "botocore.exceptions", "urllib3.exceptions", "aiohttp.client_exceptions", ""]
class Refusal(th.ToolError):
    def __init__(self, what: str) -> None:
        super().__init__(what, retryable=False)


BASES = [Refusal, Exception, OSError, ValueError, KeyError, TimeoutError, ConnectionError,
         PermissionError, RecursionError]
NAMES = ["Hostile", "HTTPError", "OSError", "KeyError", "ReadTimeout", "APIStatusError",
         "ClientError"]


class Unreadable(Exception):
    """What the hostile attributes raise when told to raise something hostile too."""

    def __str__(self) -> str:
        raise RuntimeError("the raised exception cannot be read either")


RAISED: list[type[BaseException]] = [RuntimeError, AttributeError, TypeError, KeyError,
                                     RecursionError, Unreadable]


def _raiser(kind: type[BaseException]) -> Any:
    def boom(*args: Any) -> Any:
        raise kind("hostile")

    return boom


def _meta(names: frozenset[str], kind: type[BaseException]) -> type:
    boom = _raiser(kind)
    namespace: dict[str, Any] = {}
    for name in names:
        if name in ("__getattribute__", "__repr__", "__str__", "__eq__", "__hash__",
                    "__instancecheck__", "__subclasscheck__"):
            namespace[name] = boom
        else:
            namespace[name] = property(boom)
    return type("Meta", (type,), namespace)


def _hostile_class(meta_names: frozenset[str], instance_names: frozenset[str],
                   kind: type[BaseException], base: type[Exception], module: str,
                   name: str) -> type[Exception]:
    boom = _raiser(kind)
    namespace: dict[str, Any] = {"__module__": module}
    for attr in instance_names:
        if attr in ("__getattribute__", "__getattr__", "__str__", "__repr__"):
            namespace[attr] = boom
        else:
            namespace[attr] = property(boom)
    cls: type[Exception] = _meta(meta_names, kind)(name, (base,), namespace)
    return cls


class Recipe:
    """A hostile class and how it was made: hypothesis prints the recipe, never the class
    (printing the class is one of the things that raise)."""

    def __init__(self, *parts: Any) -> None:
        self.parts = parts
        self.cls = _hostile_class(*parts)

    def __repr__(self) -> str:
        return f"Recipe{self.parts!r}"


CLASSES = st.builds(
    Recipe,
    st.frozensets(st.sampled_from(META)),
    st.frozensets(st.sampled_from(INSTANCE)),
    st.sampled_from(RAISED),
    st.sampled_from(BASES),
    st.sampled_from(MODULES),
    st.sampled_from(NAMES),
)
SHAPES = st.sampled_from(["alone", "as cause", "as context", "with a hostile cause", "in a group"])


def _tool(cls: type[Exception], shape: str) -> th.Tool[[], None]:
    @th.tool(name="hostile", retries=2)
    def hostile_tool() -> None:
        if shape == "alone":
            raise cls("the tool failed")
        if shape == "as cause":
            raise ValueError("wrapper") from cls("inner")
        if shape == "as context":
            try:
                raise cls("inner")
            except Exception:
                raise ValueError("while handling it")  # noqa: B904 - the context is the point
        if shape == "with a hostile cause":
            raise cls("outer") from cls("inner")
        raise ExceptionGroup("several", [cls("member"), ValueError("plain")])

    return hostile_tool


def _one_line(content: str) -> bool:
    return content.startswith("[error] hostile: ") and "\n" not in content and encodes(content)


def _text(content: Any) -> str:
    return content if isinstance(content, str) else "".join(p["text"] for p in content)


def _logged(seen: th.testing.Captured, frames: tuple[str, ...]) -> bool:
    failed = seen.named("tool.failed")
    return bool(failed) and all(
        f["exception"].startswith("Traceback (most recent call last):")
        and any(frame in f["exception"] for frame in frames)
        and encodes(dict(f))
        for f in failed
    )


@settings(max_examples=examples(150), deadline=None, suppress_health_check=list(HealthCheck))
@given(recipe=CLASSES, shape=SHAPES)
def test_a_hostile_class_ends_in_one_line_and_a_logged_traceback(
    recipe: Recipe, shape: str
) -> None:
    tool = _tool(recipe.cls, shape)
    with th.testing.instant_retries(), th.testing.capture() as seen:
        session = th.Session([tool])
        outcomes = [session.call("hostile")]
        outcomes.append(asyncio.run(th.Session([tool]).acall("hostile")))
        for run in ("handle", "ahandle"):
            messages: list[Any] = []
            turn = model_turn("anthropic", [("hostile", {})])
            if run == "handle":
                th.Session([tool]).handle(turn, messages)
            else:
                asyncio.run(th.Session([tool]).ahandle(turn, messages))
            assert len(messages) == 2 and encodes(messages)
            (result,) = messages[1]["content"]
            assert result["is_error"] and _one_line(_text(result["content"]))
    for outcome in outcomes:
        assert not outcome.ok and _one_line(outcome.content), outcome.content
    # A metaclass __subclasscheck__ that raises is called by CPython itself when it
    # normalizes the raised exception: what reaches the session may be what it raised.
    subclasscheck = "__subclasscheck__" in recipe.parts[0]
    assert _logged(seen, ("in hostile_tool", "in boom") if subclasscheck else ("in hostile_tool",))


@settings(max_examples=examples(100), deadline=None)
@given(recipe=CLASSES)
def test_every_reader_answers_for_a_hostile_class(recipe: Recipe) -> None:
    """The readers of ``_reading`` never raise, and name the class where its name
    can be read at all (a class's own ``__name__`` slot always can)."""
    cls = recipe.cls
    try:
        exc = cls("x")
    except Exception:
        return  # the class's own __init__ may refuse: nothing to read
    assert class_name(cls) != "?" and short_name(exc) == class_name(cls)
    assert type_name(exc).endswith(type.__dict__["__qualname__"].__get__(cls))
    assert mro(cls)[0] is cls and any(base is BaseException for base in mro(cls))
    assert class_attr(cls, "__str__") is not None
    assert isinstance(said(exc), str)
