"""Open-ended inputs for streams and cost-aware clearing: any turn streamed and put back
together gives the same calls; any order of failures and successes, in any clearing mode,
threshold and history, keeps every list valid and never claims a removal that did not
happen."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples
from toolhygiene import formats

# Private imports, by design (internal units under test): the stream assembler, property-tested on its own.
from toolhygiene._streams import assemble
from toolhygiene.formats import check
from toolhygiene.testing import model_turn, stream_events

FORMATS = ["anthropic", "openai_chat", "openai_responses"]
ARGS = st.dictionaries(st.text(min_size=1, max_size=8),
                       st.text(max_size=30) | st.integers() | st.booleans(), max_size=3)
CALLS = st.lists(st.tuples(st.sampled_from(["a", "b"]), ARGS), max_size=3)


@given(st.sampled_from(FORMATS), CALLS, st.text(max_size=40))
@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.too_slow])
def test_a_streamed_turn_assembles_to_the_same_calls(fmt: str, calls: list[Any],
                                                     text: str) -> None:
    turn = model_turn(fmt, calls, text)
    adapter = formats.adapter(fmt)
    events = [data for _, data in stream_events(fmt, turn) if data != "[DONE]"]
    whole = adapter.calls(adapter.assistant_items(turn))
    streamed = assemble(events)
    # JSON arguments (chat, Responses) are compared parsed
    got = [(c.id, c.name, json.loads(c.arguments) if isinstance(c.arguments, str)
            else c.arguments) for c in adapter.calls(adapter.assistant_items(streamed))]
    want = [(c.id, c.name, json.loads(c.arguments) if isinstance(c.arguments, str)
             else c.arguments) for c in whole]
    assert got == want
    assert adapter.stop_state(streamed) == adapter.stop_state(turn)


@given(st.sampled_from(FORMATS), st.integers(min_value=1, max_value=40))
@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.too_slow])
def test_a_stream_cut_anywhere_never_gives_a_finished_turn(fmt: str, cut: int) -> None:
    turn = model_turn(fmt, [("a", {"k": "v"})])
    events = [data for _, data in stream_events(fmt, turn) if data != "[DONE]"]
    head = events[: min(cut, len(events) - 1)]
    try:
        response = assemble(head)
    except th.UsageError:
        return
    raise AssertionError(f"a stream cut after {len(head)} events assembled: {response}")


OK = {"a": [0], "b": [0]}


def tools(plan: dict[str, list[bool]]) -> list[th.Tool[Any, Any]]:
    def make(name: str) -> th.Tool[Any, Any]:
        def fn(n: int) -> str:
            if not plan[name][n]:
                raise th.ToolError(f"{name} broke on call {n} " + "z" * 40, retryable=False)
            return f"{name} fine on call {n}"

        fn.__name__ = name
        fn.__doc__ = f"Tool {name}."
        return th.tool(retries=0)(fn)

    return [make("a"), make("b")]


ROUNDS = st.lists(st.tuples(st.sampled_from(["a", "b"]), st.booleans()), min_size=1,
                  max_size=8)


@given(st.sampled_from(FORMATS), ROUNDS,
       st.sampled_from(["remove", "stub", "append_only", "off"]),
       st.sampled_from([0, 50, 200, 10_000]))
@settings(max_examples=examples(200), suppress_health_check=[HealthCheck.too_slow])
def test_client_lists_stay_valid_and_removal_claims_are_true(
        fmt: str, rounds: list[tuple[str, bool]], clearing: str, threshold: int) -> None:
    plan: dict[str, list[bool]] = {"a": [], "b": []}
    for name, ok in rounds:
        plan[name].append(ok)
    count = {"a": 0, "b": 0}
    session = th.Session(tools(plan), clearing=clearing,  # type: ignore[arg-type]
                         clear_at_least=threshold, max_failures=100)
    messages: list[Any] = [{"role": "user", "content": "go"}]
    errors = 0
    for name, _ in rounds:
        session.handle(model_turn(fmt, [(name, {"n": count[name]})]), messages)
        count[name] += 1
        check(messages, fmt)
        text = json.dumps(messages)
        new = json.dumps(messages[-1])  # one call a round: its result, with any note
        gone, errors = errors + new.count(" broke") - text.count(" broke"), text.count(" broke")
        said = re.search(r"; (\d+) recovered errors were removed|; th(at error|ose errors)", new)
        if said and said.group(1):  # the count names every error that went
            assert int(said.group(1)) == gone
        elif said:
            assert re.search(r"after (\d+)", new) and gone == sum(
                int(n) for n in re.findall(r"after (\d+)", new))
        else:
            assert gone == 0
        claim = re.search(r"\[recovered\] ([a-z0-9 ,]*?); th[a-z ]+ removed\.", new)
        if claim:  # the tools it names have no error left anywhere
            for tool in re.findall(r"\b([ab]) (?:succeeded|after)", claim.group(1)):
                assert f"{tool} broke" not in text
        if clearing in ("append_only", "off"):
            assert "removed" not in text and formats.STUB not in text


@given(st.sampled_from(["anthropic", "openai_responses"]), ROUNDS)
@settings(max_examples=examples(100), suppress_health_check=[HealthCheck.too_slow])
def test_server_mode_sends_only_outputs_and_claims_nothing(
        fmt: str, rounds: list[tuple[str, bool]]) -> None:
    plan: dict[str, list[bool]] = {"a": [], "b": []}
    for name, ok in rounds:
        plan[name].append(ok)
    count = {"a": 0, "b": 0}
    session = th.Session(tools(plan), history="server", max_failures=100)
    mirror: list[Any] = [{"role": "user", "content": "go"}]
    for name, _ in rounds:
        items: list[Any] = []
        session.handle(model_turn(fmt, [(name, {"n": count[name]})]), items, mirror=mirror)
        count[name] += 1
        text = json.dumps(items)
        assert "removed" not in text and formats.STUB not in text
        if fmt == "openai_responses":
            assert {i["type"] for i in items} == {"function_call_output"}
        else:
            assert [m["role"] for m in items] == ["user"]
        check(mirror, fmt)
