"""Open-ended inputs: whatever the model sends, and whatever order rounds come in, the
answer is one line and the message list stays valid."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from toolhygiene.formats import check
from toolhygiene.testing import model_turn


@th.tool
def book(city: str, nights: int = 1, guests: list[str] | None = None) -> str:
    """Book a hotel."""
    return f"booked {city} for {nights}"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=50),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                max_size=4),
    max_leaves=12,
)
ARGUMENTS = (st.dictionaries(st.sampled_from(["city", "nights", "guests", "x", ""]), JSON,
                             max_size=4)
             | JSON.map(json.dumps) | st.text(max_size=200) | st.binary(max_size=50))


@given(ARGUMENTS)
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_any_arguments_give_a_value_or_one_line(arguments: Any) -> None:
    outcome = th.Session([book]).call("book", arguments)
    if outcome.ok:
        assert outcome.content.startswith("booked ")
    else:
        assert outcome.attempts == 0  # rejected before the tool ran
        assert outcome.content.startswith("[error] book: bad_request.")
        assert len(outcome.content) <= 300 and "\n" not in outcome.content


@given(st.text(max_size=300), JSON)
def test_any_tool_name_gives_one_line(name: str, arguments: Any) -> None:
    outcome = th.Session([book]).call(name, arguments)
    assert len(outcome.content) <= 300 and "\n" not in outcome.content


@th.tool
def good() -> str:
    return "fine"


@th.tool
def bad(n: int) -> str:
    raise ValueError(f"value {n} is not accepted")


CALL = st.sampled_from(["good", "bad", "missing"])
ROUND = st.tuples(st.lists(CALL, min_size=0, max_size=3), st.booleans())


@given(st.sampled_from(["anthropic", "openai_chat", "openai_responses"]),
       st.lists(ROUND, min_size=1, max_size=8), st.integers(min_value=1, max_value=4),
       st.sampled_from(["remove", "stub", "off"]))
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_any_sequence_of_rounds_keeps_the_list_valid(
        fmt: str, rounds: list[tuple[list[str], bool]], cap: int, clearing: str) -> None:
    session = th.Session([good, bad], max_failures=cap, clearing=clearing)  # type: ignore[arg-type]
    messages: list[Any] = [{"role": "user", "content": "start"}]
    for n, (names, text) in enumerate(rounds):
        calls = [(name, {"n": n} if name == "bad" else {}) for name in names]
        going = session.handle(model_turn(fmt, calls, "thinking aloud" if text or not calls
                                          else ""), messages, format=fmt)  # type: ignore[arg-type]
        check(messages, fmt)
        assert going == bool(calls)
        if not calls:
            messages.append({"role": "user", "content": "go on"})
            check(messages, fmt)
            continue
        if clearing == "remove" and "good" in names:
            # after a success, no error of an earlier round is left in full
            earlier = json.dumps(messages[: _current_round_start(messages, fmt)])
            for marker in ("is not accepted", "there is no tool named"):
                leftover = [s for s in earlier.split("[error]")[1:] if marker in s]
                assert all("is now closed" in s for s in leftover)
    session.close()


def _current_round_start(messages: list[Any], fmt: str) -> int:
    """Index of the last assistant turn (the current round)."""
    for at in range(len(messages) - 1, -1, -1):
        item = messages[at]
        if fmt == "openai_responses":
            if item.get("type") == "function_call" and (
                    at == 0 or messages[at - 1].get("type") != "function_call"):
                return at
        elif item.get("role") == "assistant":
            return at
    return 0
