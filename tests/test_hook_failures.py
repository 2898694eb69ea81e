"""A hook method that fails is named right in ``hook.failed`` (its hooks' class and the
method's slot, however the method was made), and a generator hook method is refused when
added, like an ``async def`` one: its body would never run."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import toolhygiene as th


@th.tool(retries=0)
def fails(x: str) -> str:
    """Fails.

    Args:
        x: x.
    """
    raise ValueError("nope")


class Plain(th.Hooks):
    def on_failure(self, event: th.HookEvent) -> None:
        raise RuntimeError("hook broke")


def _elsewhere(event: th.HookEvent) -> None:
    raise RuntimeError("hook broke")


class Raising:
    def __call__(self, event: th.HookEvent) -> None:
        raise RuntimeError("hook broke")


def _lambda_hooks() -> th.Hooks:
    hooks = th.Hooks()
    hooks.on_failure = lambda event: _elsewhere(event)  # type: ignore[method-assign]
    return hooks


def _assigned(method: Callable[[th.HookEvent], None]) -> Callable[[], th.Hooks]:
    def make() -> th.Hooks:
        hooks = Counted()
        hooks.on_failure = method  # type: ignore[method-assign,assignment]
        return hooks

    return make


class Counted(th.Hooks):
    """Hooks of their own class, their method set on the instance."""


class Wrapped(th.Hooks):
    @functools.wraps(_elsewhere)
    def on_failure(self, event: th.HookEvent) -> None:  # type: ignore[override]
        _elsewhere(event)


MAKERS: dict[str, tuple[Callable[[], th.Hooks], str]] = {
    "bound method": (Plain, "Plain"),
    "lambda on the instance": (_lambda_hooks, "Hooks"),
    "function on the instance": (_assigned(_elsewhere), "Counted"),
    "partial on the instance": (_assigned(functools.partial(_elsewhere)), "Counted"),
    "callable object": (_assigned(Raising()), "Counted"),
    "wraps another name": (Wrapped, "Wrapped"),
}


@pytest.mark.parametrize("how", list(MAKERS))
def test_hook_failed_names_the_hooks_class_and_method(how: str) -> None:
    make, owner = MAKERS[how]
    with th.testing.capture() as captured:
        remove = th.add_hooks(make())
        try:
            with th.Session([fails]) as session:
                outcome = session.call("fails", {"x": "1"})
        finally:
            remove()
    assert not outcome.ok  # the call answered, unbroken
    [failed] = captured.named("hook.failed")
    assert (failed["hook"], failed["method"]) == (owner, "on_failure")
    assert "hook broke" in failed["exception"]


class GeneratorOnFailure(th.Hooks):
    def on_failure(self, event: th.HookEvent) -> Any:
        yield event


class GeneratorOnCall(th.Hooks):
    def on_call(self, call: th.HookCall) -> Iterator[th.HookCall]:  # type: ignore[override]
        yield call


@pytest.mark.parametrize("kind", [GeneratorOnFailure, GeneratorOnCall])
def test_generator_hook_methods_are_refused_when_added(kind: type[th.Hooks]) -> None:
    with pytest.raises(th.UsageError, match="generator"):
        th.add_hooks(kind())


class ReturnsGenerator(th.Hooks):
    """A plain method that hands back a generator (a wrapper around one)."""

    def _work(self, event: th.HookEvent) -> Iterator[None]:
        yield None

    def on_failure(self, event: th.HookEvent) -> Any:
        return self._work(event)


def test_a_hook_that_returns_a_generator_is_a_hook_failure() -> None:
    with th.testing.capture() as captured:
        remove = th.add_hooks(ReturnsGenerator())
        try:
            with th.Session([fails]) as session:
                session.call("fails", {"x": "1"})
        finally:
            remove()
    [failed] = captured.named("hook.failed")
    assert (failed["hook"], failed["method"]) == ("ReturnsGenerator", "on_failure")
    assert "returned a generator" in failed["exception"]


class Exits(th.Hooks):
    def on_failure(self, event: th.HookEvent) -> None:
        raise KeyboardInterrupt


def test_a_hooks_base_exception_propagates_as_python_intends() -> None:
    remove = th.add_hooks(Exits())
    try:
        with pytest.raises(KeyboardInterrupt), th.Session([fails]) as session:
            session.call("fails", {"x": "1"})
    finally:
        remove()
