"""Open-ended inputs: whatever the model sends, and whatever order rounds come in, the
answer is one line and the message list stays valid."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples
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
@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
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


RAN: list[int] = []


@th.tool
def flaky(n: int, ok: bool) -> str:
    """Works when asked to; the failure names its call."""
    RAN.append(n)
    if not ok:
        raise ValueError(f"value {n} was not accepted")
    return f"fine {n}"


@th.tool
def steady(n: int) -> str:
    RAN.append(n)
    return f"steady {n}"


CALL = st.tuples(st.sampled_from(["flaky", "steady", "missing"]), st.booleans())
ENDING = st.sampled_from(["finished", "finished", "finished", "truncated"])
ROUND = st.tuples(st.lists(CALL, min_size=0, max_size=3), st.booleans(), ENDING)
NOTE = re.compile(r"\[recovered\] (.*?); (?:that error was|those errors were) removed\.")
NOTED = re.compile(r"(\w+) (?:succeeded )?after (\d+)")


def _notes(items: list[Any]) -> dict[str, int]:
    found: dict[str, int] = {}
    for note in NOTE.findall(json.dumps(items)):
        for tool, count in NOTED.findall(note):
            found[tool] = found.get(tool, 0) + int(count)
    return found


@given(st.sampled_from(["anthropic", "openai_chat", "openai_responses"]),
       st.lists(ROUND, min_size=1, max_size=8), st.integers(min_value=1, max_value=4),
       st.sampled_from(["remove", "stub", "off"]))
@settings(max_examples=examples(200), suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_only_true_notes_and_only_finished_turns(
        fmt: str, rounds: list[tuple[list[tuple[str, bool]], bool, str]], cap: int,
        clearing: str) -> None:
    """For any sequence of rounds: the list stays valid; no call of a turn cut by the token
    limit runs or counts; a [recovered] note names exactly the tools that succeeded now
    after failures still pending, with their counts; a failure stays in full until its own
    tool succeeds (or forever, if it closed the tool), and goes once it does."""
    session = th.Session([flaky, steady], max_failures=cap, clearing=clearing)  # type: ignore[arg-type]
    messages: list[Any] = [{"role": "user", "content": "start"}]
    pending: dict[str, list[int]] = {}  # tool -> numbers of its failures not cleared
    kept: list[int] = []  # failures that must stay visible
    gone: list[int] = []  # failures that must be cleared
    serial = 0
    for names, text, ending in rounds:
        calls = []
        for name, ok in names:
            serial += 1
            calls.append((name, {"n": serial, "ok": ok} if name == "flaky" else {"n": serial}))
        RAN.clear()
        before = json.dumps(messages)
        counted = session.stats()["calls"]
        with th.testing.capture() as seen:
            step = session.handle(model_turn(fmt, calls, "thinking aloud" if text or not calls
                                             else "", ending),  # type: ignore[arg-type]
                                  messages, format=fmt)  # type: ignore[arg-type]
        check(messages, fmt)
        if ending == "truncated":
            assert step is th.Step.TRUNCATED and not step
            assert RAN == [] and json.dumps(messages) == before
            assert session.stats()["calls"] == counted
            continue
        assert bool(step) == bool(calls)
        succeeded = {o.tool for o in seen.outcomes if o.ok}
        expected = {t: len(pending[t]) for t in succeeded if pending.get(t)}
        if clearing == "off":
            expected = {}
        results = (messages[-1:] if fmt == "anthropic" else messages[-len(calls):]) if calls else []
        assert _notes(results) == expected
        for tool in expected:
            gone.extend(pending.pop(tool))
        for o in seen.outcomes:
            if o.failure is None or o.failure.status == "closed" or o.tool != "flaky":
                continue
            n = int(re.search(r"value (\d+) was", o.content).group(1))  # type: ignore[union-attr]
            if o.failure.closes or clearing == "off":
                kept.append(n)
            else:
                pending.setdefault("flaky", []).append(n)
        text_now = json.dumps(messages)
        for n in gone:
            assert f"value {n} was not accepted" not in text_now
        for n in kept + [m for ms in pending.values() for m in ms]:
            assert f"value {n} was not accepted" in text_now
        if not calls:
            messages.append({"role": "user", "content": "go on"})
    session.close()
