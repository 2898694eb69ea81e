"""A failure payload a tool returns is a failed attempt, as a raised failure is: retried
locally when it is transient and the tool has retries, budget and a safe outcome left
(its stated wait honoured), and the call's failure, counted once, when retries run out."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import toolhygiene as th
from helpers import Call


def transient(message: str = "the search index timed out", **extra: Any) -> dict[str, Any]:
    return {"isError": True, "errorCategory": "transient", "isRetryable": True,
            "message": message, **extra}


def script(*answers: Any) -> tuple[th.Tool[..., Any], list[str]]:
    """A tool giving ``answers`` in turn (an exception is raised), and its runs."""
    ran: list[str] = []
    queue = list(answers)

    @th.tool
    def research(question: str) -> Any:
        """Ask the research subagent."""
        ran.append(question)
        answer = queue.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    return research, ran


@pytest.mark.parametrize("form", ["dict", "json", "bytes", "failure"])
def test_a_returned_transient_payload_is_retried_and_never_seen(
        call: Callable[[th.Session], Call], instant: None, form: str) -> None:
    payload = transient()
    shown: Any = {"dict": payload, "json": json.dumps(payload, indent=2),
                  "bytes": json.dumps(payload).encode(),
                  "failure": th.Failure.from_dict(payload, "inner")}[form]
    research, ran = script(shown, {"answer": "high tide at 14:05"})
    session = th.Session([research])
    with th.testing.capture() as seen:
        outcome = call(session)("research", {"question": "tide"})
    assert outcome.ok and outcome.value == {"answer": "high tide at 14:05"}
    assert outcome.attempts == 2 and ran == ["tide", "tide"]
    assert seen.contents == ['{"answer": "high tide at 14:05"}']
    [retry] = seen.named("tool.retry")
    assert retry["category"] == "upstream" and retry["attempt"] == 1
    assert session.stats()["local_retries"] == 1 and session.stats()["failures"] == {}


def test_when_retries_run_out_the_last_payload_is_the_one_failure(
        call: Callable[[th.Session], Call], instant: None) -> None:
    research, ran = script(*(transient(f"the index timed out on try {n}") for n in (1, 2, 3)))
    session = th.Session([research])
    with th.testing.capture() as seen:
        outcome = call(session)("research", {"question": "tide"})
    assert not outcome.ok and outcome.attempts == 3 and len(ran) == 3
    assert outcome.content.startswith(
        "[error] research: transient. the index timed out on try 3. Transient: a retry may "
        "succeed.")
    assert len(seen.named("tool.retry")) == 2 and len(seen.named("tool.failed")) == 1
    assert session.stats()["failures"] == {"research": 1}
    assert session.stats()["local_retries"] == 2


def test_raised_and_returned_failures_share_one_run_of_retries(
        call: Callable[[th.Session], Call], instant: None) -> None:
    research, ran = script(transient(), ConnectionResetError("connection reset by peer"),
                           "found it")
    outcome = call(th.Session([research]))("research", {"question": "tide"})
    assert outcome.ok and outcome.value == "found it" and outcome.attempts == 3
    assert ran == ["tide"] * 3


def test_a_retry_that_returns_a_lasting_failure_stops_there(
        call: Callable[[th.Session], Call], instant: None) -> None:
    lasting = {"isError": True, "errorCategory": "permission", "isRetryable": False,
               "message": "the archive refused our account"}
    research, ran = script(transient(), lasting, "never reached")
    outcome = call(th.Session([research]))("research", {"question": "tide"})
    assert not outcome.ok and outcome.attempts == 2 and len(ran) == 2
    assert outcome.content.startswith(
        "[error] research: permission. the archive refused our account.")


@pytest.mark.parametrize("payload", [
    {"isError": True, "errorCategory": "business", "isRetryable": False, "message": "closed"},
    {"isError": True, "errorCategory": "validation", "isRetryable": False, "message": "bad"},
    {"isError": True, "errorCategory": "transient", "isRetryable": False, "message": "gone"},
    {"isError": True, "errorCategory": "not_found", "isRetryable": False, "message": "none"},
    # retryable, but not transient: the model changes something before calling again
    {"isError": True, "errorCategory": "business", "isRetryable": True, "message": "later"},
])
def test_payloads_a_local_retry_cannot_cure_go_to_the_model_at_once(
        call: Callable[[th.Session], Call], instant: None, payload: dict[str, Any]) -> None:
    research, ran = script(payload, "never reached")
    outcome = call(th.Session([research]))("research", {"question": "tide"})
    assert not outcome.ok and outcome.attempts == 1 and ran == ["tide"]


def test_a_tool_without_retries_is_not_retried(
        call: Callable[[th.Session], Call], instant: None) -> None:
    research, ran = script(transient(), "never reached")
    research.retries = 0
    outcome = call(th.Session([research]))("research", {"question": "tide"})
    assert not outcome.ok and outcome.attempts == 1 and ran == ["tide"]
    assert outcome.failure is not None
    assert outcome.failure.retryable  # the model may still retry: the payload said so


def test_a_stated_wait_is_the_wait(call: Callable[[th.Session], Call]) -> None:
    # No instant retries: the wait is the payload's (0 s), not the backoff (0.25 s or more).
    research, _ = script(transient(errorCategory="rate_limit", retryAfterSeconds=0), "ok")
    with th.testing.capture() as seen:
        outcome = call(th.Session([research]))("research", {"question": "tide"})
    assert outcome.ok and outcome.attempts == 2
    assert [e["wait"] for e in seen.named("tool.retry")] == [0]


@pytest.mark.parametrize(("wait", "shown"), [(45, "45 s"), (1e12, "at least 3600 s")])
def test_a_stated_wait_past_max_wait_goes_to_the_model(
        call: Callable[[th.Session], Call], wait: float, shown: str) -> None:
    research, ran = script(transient(errorCategory="rate_limit", retryAfterSeconds=wait), "ok")
    outcome = call(th.Session([research], max_wait=30))("research", {"question": "tide"})
    assert not outcome.ok and outcome.attempts == 1 and ran == ["tide"]
    assert f"retry after {shown}." in outcome.content


def test_a_stated_wait_past_the_budget_is_not_shortened(
        call: Callable[[th.Session], Call]) -> None:
    research, ran = script(transient(errorCategory="rate_limit", retryAfterSeconds=20), "ok")
    session = th.Session([research], max_wait=30, retry_budget=5)
    outcome = call(session)("research", {"question": "tide"})
    assert not outcome.ok and outcome.attempts == 1 and ran == ["tide"]
    assert "retry after 20 s." in outcome.content


@pytest.mark.parametrize("category", ["transient", "upstream", "connectivity"])
def test_a_tool_that_is_not_idempotent_is_retried_only_when_it_never_ran(
        call: Callable[[th.Session], Call], instant: None, category: str) -> None:
    ran: list[str] = []
    answers: dict[str, list[Any]] = {
        "unknown": [transient(errorCategory=category), "placed"],
        "took effect maybe": [transient(errorCategory=category, outcomeUnknown=True), "placed"],
        "never ran": [transient(errorCategory=category, outcomeUnknown=False), "placed"],
    }

    @th.tool(idempotent=False)
    def place_order(case: str) -> Any:
        """Place an order through the ordering subagent."""
        ran.append(case)
        return answers[case].pop(0)

    session = th.Session([place_order], max_failures=5)
    for case in ("unknown", "took effect maybe"):
        outcome = call(session)("place_order", {"case": case})
        assert not outcome.ok and outcome.attempts == 1 and outcome.failure is not None
        assert outcome.failure.uncertain and not outcome.failure.retryable
        assert "Outcome unknown" in outcome.content
    placed = call(session)("place_order", {"case": "never ran"})
    assert placed.ok and placed.attempts == 2
    assert ran == ["unknown", "took effect maybe", "never ran", "never ran"]
