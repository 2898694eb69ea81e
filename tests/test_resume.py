"""A Session rebuilt from the message list (``Session.resume``) decides exactly as the one
that served the conversation: after every step of scripted conversations, in every format
and clearing mode, both take the rest of the script and leave the same lists."""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples
from toolhygiene import formats
from toolhygiene.testing import model_turn

FORMATS = ["anthropic", "openai_chat", "openai_responses"]


def _word(n: int) -> str:
    """A word with no digit for call ``n``: each failure its own fingerprint (the
    same-failure counters are what the list cannot prove, tested apart below)."""
    word = ""
    while True:
        word += "abcdefghijklmnopqrstuvwxyz"[n % 26]
        n //= 26
        if not n:
            return word


def _tools() -> list[Any]:
    @th.tool
    def lookup(how: str, n: int) -> str:
        """Look something up.

        Args:
            how: ok, bad or down.
            n: the call's number.
        """
        if how == "bad":
            raise th.ToolError(f"no record {_word(n)} exists", retryable=False,
                               category="not_found")
        if how == "down":
            raise th.ToolError(f"the {_word(n)} service is down", retryable=False,
                               category="upstream")
        return f"found {how}"

    @th.tool(max_failures=3)
    def search(how: str, n: int) -> str:
        """Search.

        Args:
            how: ok or bad.
            n: the call's number.
        """
        if how != "ok":
            raise th.ToolError(f"the query {_word(n)} is malformed", retryable=False,
                               category="bad_request")
        return "three hits"

    @th.tool(idempotent=False)
    def send(how: str, n: int) -> str:
        """Send a message.

        Args:
            how: ok or bad.
            n: the call's number.
        """
        if how != "ok":
            raise TimeoutError(f"the mail relay {_word(n)} timed out")
        return "sent"

    return [lookup, search, send]


CALL = st.tuples(st.sampled_from(["lookup", "search", "send", "nosuch"]),
                 st.sampled_from(["ok", "bad", "bad", "down"]))
# One call per tool in a round: parallel calls of one tool run concurrently, and which of
# them is counted first (and so which one closes the tool) is not fixed, resumed or not.
SCRIPT = st.lists(
    st.lists(CALL, min_size=1, max_size=3, unique_by=lambda c: c[0]), min_size=1, max_size=7
)


def _turns(fmt: str, script: list[list[tuple[str, str]]]) -> list[dict[str, Any]]:
    numbers = itertools.count()
    return [
        model_turn(fmt, [_named(name, how, next(numbers)) for name, how in calls])
        for calls in script
    ]


def _named(name: str, how: str, n: int) -> tuple[str, dict[str, Any]]:
    # Each call of a missing tool names another one: the same missing name twice is a
    # same-failure repeat, which the list cannot prove.
    return (f"no_{_word(n)}" if name == "nosuch" else name), {"how": how, "n": n}


def _decide(session: th.Session, turn: dict[str, Any], messages: list[Any], fmt: str) -> Any:
    """Handle one turn; what was decided: each call's verdict and the list after it."""
    with th.testing.capture() as seen:
        step = session.handle(copy.deepcopy(turn), messages, format=fmt)  # type: ignore[arg-type]
    formats.check(messages, fmt)
    verdicts = [
        (o.ok, o.content) if o.failure is None
        else (o.ok, o.content, o.failure.count, o.failure.closes, o.failure.status)
        for o in seen.outcomes
    ]
    return step, sorted(map(repr, verdicts)), copy.deepcopy(messages)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("clearing", ["remove", "stub", "append_only", "off"])
@settings(max_examples=examples(15), deadline=None)
@given(script=SCRIPT, threshold=st.sampled_from([0, 0, 400]))
def test_a_resumed_session_decides_as_the_original(
    fmt: str, clearing: Any, script: list[list[tuple[str, str]]], threshold: int
) -> None:
    """Rebuilt after any step, a Session takes the rest of the conversation exactly as the
    one that served it from the start: the same lines, counts, closings and clearing."""
    tools = _tools()
    turns = _turns(fmt, script)

    def new() -> th.Session:
        return th.Session(tools, clearing=clearing, clear_at_least=threshold)

    for at in range(len(turns)):
        original, messages = new(), [{"role": "user", "content": "go"}]
        for turn in turns[:at]:
            _decide(original, turn, messages, fmt)
        resumed = new().resume(copy.deepcopy(messages))
        assert resumed.stats()["failures"] == original.stats()["failures"]
        assert resumed.stats()["closed"] == original.stats()["closed"]
        theirs = copy.deepcopy(messages)
        for turn in turns[at:]:
            assert _decide(resumed, turn, theirs, fmt) == _decide(original, turn, messages, fmt)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_same_failure_counters_start_afresh_after_a_resume(fmt: str) -> None:
    """What the list cannot prove: the same call failing the same way again is told as
    such by the Session that saw both, and as a first failure after a resume (the cap
    still counts both)."""
    tools = _tools()
    same = model_turn(fmt, [("search", {"how": "bad", "n": 1})])
    original, messages = th.Session(tools), [{"role": "user", "content": "go"}]
    original.handle(copy.deepcopy(same), messages, format=fmt)  # type: ignore[arg-type]
    resumed = th.Session(tools).resume(copy.deepcopy(messages))
    first, second = original.call("search", {"how": "bad", "n": 1}), resumed.call(
        "search", {"how": "bad", "n": 1})
    assert first.failure is not None and second.failure is not None
    assert (first.failure.status, second.failure.status) == ("repeated", "failed")
    assert first.failure.count == second.failure.count == 2
