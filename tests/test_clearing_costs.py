"""Cost-aware clearing of client-held lists: ``clear_at_least`` batches the rewrites,
``append_only`` never rewrites; Anthropic ``context_management`` edits ride along. With the
real clients against the scripted server, asserting on every request sent."""

from __future__ import annotations

import itertools
import json
from typing import Any

import anthropic
import openai
import pytest

import toolhygiene as th

# Private imports, by design (internal units under test): the exact words of the clearing notes, whose length is what is measured.
from toolhygiene import _words
from toolhygiene.formats import check
from toolhygiene.testing import ScriptedServer, model_turn

FORMATS = ["anthropic", "openai_chat", "openai_responses"]
START = [{"role": "user", "content": "Check stock and price of SKU-1."}]


def twice_flaky() -> list[th.Tool[Any, Any]]:
    """stock and price each fail once (a long error), then answer."""
    runs: dict[str, int] = {"stock": 0, "price": 0}

    def make(name: str) -> th.Tool[Any, Any]:
        def fn(sku: str) -> str:
            runs[name] += 1
            if runs[name] == 1:
                raise th.ToolError(f"the {name} service timed out for {sku} " + "x" * 60,
                                   retryable=False, category="upstream")
            return f"{name} of {sku}: ok"

        fn.__name__ = name
        fn.__doc__ = f"The {name} of a SKU."
        return th.tool(retries=0)(fn)

    return [make("stock"), make("price")]


def client_for(fmt: str, url: str) -> Any:
    if fmt == "anthropic":
        return anthropic.Anthropic(base_url=url, api_key="t", max_retries=0)
    return openai.OpenAI(base_url=url + "/v1", api_key="t", max_retries=0)


def send(client: Any, fmt: str, messages: list[Any], **extra: Any) -> Any:
    if fmt == "anthropic":
        return client.beta.messages.create(model="m", max_tokens=50, messages=messages,
                                           **extra)
    if fmt == "openai_chat":
        return client.chat.completions.create(model="m", messages=messages)
    return client.responses.create(model="m", input=messages)


def history(server: ScriptedServer, fmt: str) -> list[list[Any]]:
    key = "input" if fmt == "openai_responses" else "messages"
    return [r.body[key] for r in server.requests]


def play(server: ScriptedServer, fmt: str, session: th.Session, **extra: Any) -> None:
    for call in ("stock", "price", "stock", "price"):
        server.push(200, model_turn(fmt, [(call, {"sku": "SKU-1"})]))
    server.push(200, model_turn(fmt, [], "In stock, 9.99."))
    client, messages = client_for(fmt, server.url), list(START)
    while session.handle(send(client, fmt, messages, **extra), messages):
        check(messages, fmt)


@pytest.mark.parametrize("fmt", FORMATS)
def test_clear_at_least_waits_then_clears_in_one_batch(server: ScriptedServer,
                                                       fmt: str) -> None:
    one_error = len(th.Session(twice_flaky()).call("stock", {"sku": "SKU-1"}).content)
    session = th.Session(twice_flaky(), clear_at_least=one_error + 40)
    play(server, fmt, session)
    sent = [json.dumps(h) for h in history(server, fmt)]
    # request 4 follows stock's recovery: below the threshold, both errors wait.
    assert "stock service timed out" in sent[3] and "price service timed out" in sent[3]
    assert "[recovered] stock succeeded after 1 failed call." in sent[3]
    assert "removed" not in sent[3]
    # request 5 follows price's recovery: together past the threshold, both go at once.
    assert "timed out" not in sent[4]
    assert ("[recovered] price succeeded after 1 failed call; 2 recovered errors were removed "
            "(price 1, stock 1), 1 of them held back from an earlier success.") in sent[4]
    assert "[recovered] stock succeeded after 1 failed call." in sent[4]  # still true


@pytest.mark.parametrize("fmt", FORMATS)
def test_append_only_never_rewrites_the_prefix(server: ScriptedServer, fmt: str) -> None:
    session = th.Session(twice_flaky(), clearing="append_only")
    play(server, fmt, session)
    sent = history(server, fmt)
    for earlier, later in itertools.pairwise(sent):
        assert later[: len(earlier)] == earlier  # every request extends the last one
    last = json.dumps(sent[-1])
    assert last.count("timed out") == 2 and "removed" not in last
    assert "[recovered] stock succeeded after 1 failed call." in last
    assert "[recovered] price succeeded after 1 failed call." in last


@pytest.mark.parametrize("fmt", FORMATS)
def test_default_client_clearing_is_immediate(server: ScriptedServer, fmt: str) -> None:
    session = th.Session(twice_flaky())
    play(server, fmt, session)
    sent = [json.dumps(h) for h in history(server, fmt)]
    assert "stock service timed out" not in sent[3]
    assert "[recovered] stock succeeded after 1 failed call; that error was removed." in sent[3]


def test_context_management_edits_ride_along_untouched(server: ScriptedServer) -> None:
    """The server's clear_tool_uses works on what it holds for the model; toolhygiene
    works on the list: the request carries both, and the list stays valid."""
    edits = {"edits": [{"type": "clear_tool_uses_20250919",
                        "trigger": {"type": "input_tokens", "value": 30000},
                        "keep": {"type": "tool_uses", "value": 3},
                        "clear_at_least": {"type": "input_tokens", "value": 5000}}]}
    session = th.Session(twice_flaky())
    play(server, "anthropic", session, context_management=edits,
         betas=["context-management-2025-06-27"])
    for request in server.requests:
        assert request.body["context_management"] == edits
        assert "context-management-2025-06-27" in request.headers.get("anthropic-beta", "")
        check(request.body["messages"], "anthropic")
    assert "timed out" not in json.dumps(server.requests[-1].body["messages"])


def test_the_kept_note_says_only_what_recovered() -> None:
    assert _words.recovered_note({"lookup": 1}, removed=False) == (
        "[recovered] lookup succeeded after 1 failed call.")
    assert _words.recovered_note({"lookup": 2, "fetch": 3}, removed=False) == (
        "[recovered] fetch succeeded after 3 failed calls, lookup after 2.")


def test_the_note_counts_every_error_a_batch_removed() -> None:
    assert _words.recovered_note({"lookup": 1}, removed={"lookup": 2}) == (
        "[recovered] lookup succeeded after 1 failed call; 2 recovered errors were removed "
        "(lookup 2), 1 of them held back from an earlier success.")
    assert _words.recovered_note({"lookup": 1}, removed={"lookup": 3, "fetch": 1}) == (
        "[recovered] lookup succeeded after 1 failed call; 4 recovered errors were removed "
        "(fetch 1, lookup 3), 3 of them held back from earlier successes.")
    assert _words.recovered_note({"lookup": 2}, removed={"lookup": 2}) == (
        "[recovered] lookup succeeded after 2 failed calls; those errors were removed.")
