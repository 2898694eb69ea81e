"""Every family of secret, in every carrier, through every door to the model:
``th.redact``, ``Session.call`` (failure line, log, success result) and ``Session.handle``.
And what the model needs survives the same doors."""

from __future__ import annotations

import json
from typing import Any

import pytest

import toolhygiene as th
from corpus import CARRIERS, CASES, SURVIVORS, Case
from toolhygiene.testing import model_turn

IDS = [case.family for case in CASES]


def _leaks(case: Case, text: str) -> list[str]:
    return [text] if case.must_not_survive in text else []


@pytest.mark.parametrize("carrier", CARRIERS)
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_redact_removes_every_family_in_every_carrier(case: Case, carrier: str) -> None:
    text = CARRIERS[carrier](case)
    out = th.redact(text)
    assert case.must_not_survive not in out, out
    assert "[redacted:" in out


def _failing_tool(text: str) -> th.Tool[Any, Any]:
    @th.tool(name="billing")
    def billing(order_id: str) -> str:
        raise RuntimeError(text)

    return billing


def _succeeding_tool(text: str) -> th.Tool[Any, Any]:
    @th.tool(name="billing")
    def billing(order_id: str) -> str:
        return text

    return billing


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_session_call_failure_line_and_log_hold_no_family(case: Case) -> None:
    for carrier, make in CARRIERS.items():
        session = th.Session([_failing_tool(make(case))], line_cap=4000, max_failures=99)
        with th.testing.capture() as seen:
            outcome = session.call("billing", {"order_id": "ORD-1"})
        assert not outcome.ok
        assert case.must_not_survive not in outcome.content, (carrier, outcome.content)
        logged = json.dumps([dict(e) for e in seen.events], default=str)
        assert case.must_not_survive not in logged, (carrier, logged)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_session_call_success_result_holds_no_family(case: Case) -> None:
    for carrier, make in CARRIERS.items():
        session = th.Session([_succeeding_tool(make(case))])
        outcome = session.call("billing", {"order_id": "ORD-1"})
        assert outcome.ok
        assert case.must_not_survive not in outcome.content, (carrier, outcome.content)
        assert "[redacted:" in outcome.content


@pytest.mark.parametrize("fmt", ["anthropic", "openai_chat", "openai_responses"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_handle_appends_no_family(case: Case, fmt: str) -> None:
    """A round with a failing and a succeeding call, each carrying the family."""
    message = CARRIERS["message"](case)

    @th.tool
    def fails(order_id: str) -> str:
        """Fails with the secret in its message."""
        raise ValueError(message)

    @th.tool
    def succeeds(order_id: str) -> str:
        """Succeeds with the secret in its result."""
        return CARRIERS["json body"](case)

    messages: list[Any] = []
    session = th.Session([fails, succeeds], line_cap=4000)
    turn = model_turn(fmt, [("fails", {"order_id": "A"}), ("succeeds", {"order_id": "B"})])
    assert session.handle(turn, messages, format=fmt)  # type: ignore[arg-type]
    assert case.must_not_survive not in json.dumps(messages, default=str)


@pytest.mark.parametrize("text", SURVIVORS)
def test_survivors_stay_readable(text: str) -> None:
    assert th.redact(text) == text


@pytest.mark.parametrize("text", SURVIVORS)
def test_survivors_reach_the_model_in_failures_and_results(text: str) -> None:
    session = th.Session([_failing_tool(text)], line_cap=4000, max_failures=99)
    assert " ".join(text.split()) in session.call("billing", {"order_id": "ORD-1"}).content
    assert th.Session([_succeeding_tool(text)]).call("billing", {"order_id": "1"}).content == text


def test_echo_redacts_a_value_everywhere_it_appears() -> None:
    out = th.redact("login with password=Zq8Lm2Xw9 failed; retried with Zq8Lm2Xw9 twice")
    assert "Zq8Lm2Xw9" not in out
    assert out.count("[redacted:secret]") == 2


def test_the_model_keeps_what_it_sent_unless_it_is_secret_shaped() -> None:
    """Its own arguments echoed in ``attempted``: an e-mail it searched for is not news
    to it; a password argument and a key-shaped value are redacted."""

    @th.tool
    def find_customer(email: str, password: str, note: str) -> str:
        raise PermissionError(13, "Permission denied")

    outcome = th.Session([find_customer]).call(
        "find_customer",
        {"email": "ann@example.com", "password": "hunter2", "note": "key sk_live_51H8xYzAbCdEfGhIjKl"},
    )
    assert outcome.failure is not None
    attempted = outcome.failure.to_dict()["attempted_query"]["arguments"]
    assert attempted["email"] == "ann@example.com"
    assert attempted["password"] == "[redacted:secret]"
    assert attempted["note"] == "key [redacted:stripe-key]"


def test_empty_keeps_the_query_the_model_searched_for() -> None:
    @th.tool
    def search(email: str) -> th.Empty:
        return th.Empty(f"customers with e-mail {email}")

    content = th.Session([search]).call("search", {"email": "ann@example.com"}).content
    assert "customers with e-mail ann@example.com" in content


def test_emails_are_one_switch() -> None:
    assert th.redact("bounced: ann@example.com") == "bounced: [redacted:email]"
    previous = th.configure(redact_emails=False)
    try:
        assert th.redact("bounced: ann@example.com") == "bounced: ann@example.com"
        assert th.redact("token=ghp_" + "a1B2" * 9) == "token=[redacted:github-token]"
    finally:
        th.configure(redact_emails=previous.redact_emails)
