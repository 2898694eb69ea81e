"""Failure payloads across agent boundaries: the four pillars of ``to_dict()``, the schema
that validates them and the minimal payloads other agents send, and a coordinator's
tool whose result is such a payload."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples

# Private imports, by design (internal units under test): the payload reader (recognise, valid) held to FAILURE_SCHEMA.
from toolhygiene import _payload
from toolhygiene.testing import model_turn

validator = jsonschema.Draft202012Validator(th.FAILURE_SCHEMA)
KEY = "sk-ant-api03-" + "Q" * 90
FINE = [c.value for c in th.Category]
COARSE = [c.value for c in th.CoarseClass]


@pytest.fixture(autouse=True)
def _instant() -> Iterator[None]:
    # A returned transient payload is retried locally, as a raised failure is.
    with th.testing.instant_retries():
        yield


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(th.FAILURE_SCHEMA)


def test_the_four_pillars_from_a_tool_error() -> None:
    @th.tool
    def search(topic: str, password: str) -> list[str]:
        """Search."""
        raise th.ToolError(f"the archive stopped answering after 2 pages (token {KEY})",
                           retryable=True, category="upstream",
                           alternatives=["search_web with the same topic"],
                           partial_results={"pages": ["p1", "p2"], "note": f"key {KEY}"})

    outcome = th.Session([search]).call("search", {"topic": "tides", "password": "hunter2hunter2"})
    assert outcome.failure is not None
    payload = outcome.failure.to_dict()
    validator.validate(payload)
    assert (payload["errorCategory"], payload["category"], payload["isRetryable"]) == (
        "transient", "upstream", True)
    assert payload["attempted_query"] == {
        "tool": "search", "arguments": {"topic": "tides", "password": "[redacted:secret]"}}
    assert payload["partial_results"]["pages"] == ["p1", "p2"]
    assert payload["alternatives"] == ["search_web with the same topic"]
    assert KEY not in json.dumps(payload) and "hunter2" not in json.dumps(payload)


def test_optional_pillars_are_absent_when_unknown() -> None:
    @th.tool
    def ping() -> str:
        """Ping."""
        raise PermissionError("access denied")

    payload = th.Session([ping]).call("ping").failure.to_dict()  # type: ignore[union-attr]
    validator.validate(payload)
    assert set(payload) == {"isError", "errorCategory", "isRetryable", "message", "tool",
                            "category", "reason"}
    assert payload["reason"] == "access denied"
    assert payload["errorCategory"] == "permission" and payload["isRetryable"] is False


def test_partial_results_without_a_json_form_still_leave_as_json() -> None:
    class Opaque:
        pass

    failure = th.Failure(tool="t", category=th.Category.UPSTREAM, retryable=True,
                         message="m", partial_results={"rows": [1, math.nan], "o": Opaque()})
    payload = failure.to_dict()
    json.dumps(payload, allow_nan=False)
    validator.validate(payload)
    assert isinstance(payload["partial_results"], str)  # its redacted repr


text = st.text(max_size=300)
jsonish = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=12,
)


@st.composite
def failures(draw: st.DrawFn) -> th.Failure:
    """Failures as toolhygiene makes them: every text already made safe (``sanitize``)."""
    category = draw(st.sampled_from(list(th.Category)))
    safe = text.map(lambda t: th.sanitize(t, 300))
    uncertain = draw(st.booleans())
    return th.Failure(
        tool=draw(st.from_regex(r"[a-z_]{1,20}", fullmatch=True)),
        category=category,
        retryable=draw(st.booleans()) and not uncertain,  # as classify() makes them
        message=draw(safe),
        instead=draw(safe),
        retry_after=draw(st.none() | st.floats(0, 3600)),
        attempted=draw(st.none() | st.dictionaries(st.text(max_size=10), jsonish, max_size=3)),
        partial_results=draw(jsonish),
        alternatives=tuple(draw(st.lists(safe.filter(bool), max_size=3))),
        status=draw(st.sampled_from(["failed", "repeated", "similar", "closed"])),
        count=draw(st.integers(0, 9)),
        repeats=draw(st.integers(0, 9)),
        closes=draw(st.booleans()),
        uncertain=uncertain,
        coarse=draw(st.none() | st.sampled_from(list(th.CoarseClass))),
    )


@settings(max_examples=examples(150))
@given(failures())
def test_every_payload_we_emit_validates_and_reads_back(failure: th.Failure) -> None:
    payload = failure.to_dict()
    validator.validate(payload)
    assert _payload.valid(payload)
    assert json.loads(json.dumps(payload, allow_nan=False)) == payload
    assert "\n" not in payload["message"] and len(payload["message"]) <= 300
    back = th.Failure.from_dict(json.dumps(payload))
    assert back.retryable is payload["isRetryable"]
    assert back.uncertain is failure.uncertain
    assert back.label in (failure.label, "unavailable") or failure.status == "closed"


@pytest.mark.parametrize("category", FINE + COARSE)
@pytest.mark.parametrize("attempted", [None, "tides near Brest", {"q": "tides"},
                                       {"tool": "search", "arguments": {"q": "tides"}}])
def test_minimal_payloads_of_other_agents_are_accepted(category: str, attempted: Any) -> None:
    payload: dict[str, Any] = {"isError": True, "errorCategory": category, "isRetryable": False,
                               "message": "the search index is down\nsince 09:00"}
    if attempted is not None:
        payload["attempted_query"] = attempted
    validator.validate(payload)
    assert _payload.valid(payload)
    failure = th.Failure.from_dict(payload, tool="research")
    assert failure.label == category
    assert failure.line().startswith(f"[error] research: {category}. the search index is down ")


WRONG = [
    {"isError": False},
    {"isError": 1},
    {"errorCategory": "timeout"},
    {"errorCategory": "Transient"},
    {"errorCategory": None},
    {"isRetryable": "true"},
    {"isRetryable": 1},
    {"message": 7},
    {"message": ""},
    {"tool": ""},
    {"category": "transient"},
    {"retryAfterSeconds": -1},
    {"retryAfterSeconds": "7"},
    {"retryAfterSeconds": True},
    {"attempted_query": 3},
    {"attempted_query": ["a"]},
    {"attempted_query": {"tool": 3}},
    {"attempted_query": {"arguments": "q=1"}},
    {"alternatives": "ask the user"},
    {"alternatives": [1]},
    {"attempts": -1},
    {"attempts": 1.5},
    {"attempts": True},
    {"attempts": "2"},
    {"attempts": float("inf")},
]


@pytest.mark.parametrize("change", WRONG, ids=[repr(w) for w in WRONG])
def test_wrong_types_and_unknown_categories_are_rejected(change: dict[str, Any]) -> None:
    payload = {"isError": True, "errorCategory": "transient", "isRetryable": True,
               "message": "timed out", **change}
    assert not validator.is_valid(payload)
    assert not _payload.valid(payload)
    with pytest.raises(ValueError, match="not a failure payload"):
        th.Failure.from_dict(payload)


@pytest.mark.parametrize("missing", ["isError", "errorCategory", "isRetryable", "message"])
def test_each_required_field_is_required(missing: str) -> None:
    payload = {"isError": True, "errorCategory": "transient", "isRetryable": True,
               "message": "timed out"}
    del payload[missing]
    assert not validator.is_valid(payload) and not _payload.valid(payload)


values = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.floats(-5, 5),
    st.sampled_from([2.0, -2.0, 0.5, float("inf"), float("nan")]), st.sampled_from(
        [*FINE, *COARSE, "", "x", "timeout"]), st.lists(st.sampled_from(["a", 1]), max_size=2),
    st.dictionaries(st.sampled_from(["tool", "arguments", "q"]),
                    st.sampled_from(["s", 1, {}, None]), max_size=2),
)
keys = st.sampled_from(["isError", "errorCategory", "isRetryable", "message", "tool",
                        "category", "retryAfterSeconds", "attempted_query", "alternatives",
                        "partial_results", "reason", "outcomeUnknown", "attempts", "extra"])


@settings(max_examples=examples(300))
@given(st.dictionaries(keys, values), st.booleans())
def test_the_code_and_the_schema_give_the_same_verdicts(candidate: dict[str, Any],
                                                        complete: bool) -> None:
    if complete:  # most random dicts miss a required field; these have them all
        candidate = {"isError": True, "errorCategory": "business", "isRetryable": False,
                     "message": "m", **candidate}
    assert _payload.valid(candidate) is validator.is_valid(candidate)


# -- the coordinator's side ------------------------------------------------------------


def subagent_failure(**extra: Any) -> dict[str, Any]:
    return {"isError": True, "errorCategory": "transient", "isRetryable": True,
            "message": f"search API timed out after 30 s (key {KEY})",
            "alternatives": ["research a narrower question"],
            "partial_results": ["two sources found before the timeout"], **extra}


@pytest.mark.parametrize("form", ["dict", "json", "bytes", "failure"])
def test_a_returned_payload_is_a_failure_of_the_tool(form: str) -> None:
    payload = subagent_failure()
    returned: Any = {"dict": payload, "json": json.dumps(payload),
                     "bytes": json.dumps(payload).encode(),
                     "failure": th.Failure.from_dict(payload, tool="inner")}[form]

    @th.tool
    def research(question: str) -> Any:
        """Ask the research subagent."""
        return returned

    outcome = th.Session([research]).call("research", {"question": "tides"})
    assert not outcome.ok and outcome.failure is not None
    line = outcome.content
    assert "\n" not in line and len(line) <= 300 and KEY not in line
    assert line.startswith("[error] research: transient. ")
    assert "Transient: a retry may succeed." in line
    assert line.endswith("Alternatives: research a narrower question.")
    assert outcome.failure.partial_results == ["two sources found before the timeout"]
    assert outcome.failure.to_dict()["attempted_query"]["arguments"] == {"question": "tides"}


def test_a_fine_category_and_wait_in_the_payload_are_what_the_line_says() -> None:
    @th.tool
    def research(question: str) -> dict[str, Any]:
        """Ask."""
        return subagent_failure(errorCategory="rate_limit", retryAfterSeconds=7,
                                alternatives=[])

    line = th.Session([research]).call("research", {"question": "q"}).content
    assert line.startswith("[error] research: rate_limit. ")
    assert "Transient: retry after 7 s." in line and "Alternatives" not in line


def test_a_non_retryable_payload_says_so() -> None:
    @th.tool
    def research(question: str) -> dict[str, Any]:
        """Ask."""
        return {"isError": True, "errorCategory": "permission", "isRetryable": False,
                "message": "the archive refused our account"}

    line = th.Session([research]).call("research", {"question": "q"}).content
    assert line.startswith("[error] research: permission. the archive refused our account.")
    assert "Not transient" in line and "Transient:" not in line


def test_returned_payloads_count_against_the_cap_and_close_the_tool() -> None:
    ran: list[str] = []

    @th.tool
    def research(question: str) -> dict[str, Any]:
        """Ask."""
        ran.append(question)
        return subagent_failure()

    session = th.Session([research], max_failures=2)
    outcomes = [session.call("research", {"question": q}) for q in ("a", "b", "c")]
    assert [o.ok for o in outcomes] == [False, False, False]
    # Each retried locally (2 retries), counted once; the third was refused: tool closed.
    assert ran == ["a"] * 3 + ["b"] * 3
    assert outcomes[1].failure.closes  # type: ignore[union-attr]
    assert outcomes[2].content.startswith("[error] research: unavailable.")
    assert session.stats()["failures"] == {"research": 2}


def test_returned_payloads_are_cleared_once_the_tool_succeeds() -> None:
    answers: list[Any] = [subagent_failure(), {"answer": "high tide at 14:05"}]

    @th.tool(retries=0)  # the failure reaches the model, not a local retry
    def research(question: str) -> Any:
        """Ask."""
        return answers.pop(0)

    session = th.Session([research], max_failures=3)
    messages: list[dict[str, Any]] = [{"role": "user", "content": "When is high tide?"}]
    session.handle(model_turn("anthropic", [("research", {"question": "tide"})]), messages)
    assert messages[-1]["content"][0]["is_error"] is True
    session.handle(model_turn("anthropic", [("research", {"question": "tide Brest"})]), messages)
    th.formats.check(messages, "anthropic")
    texts = json.dumps(messages)
    assert "timed out" not in texts  # the failed round was removed whole
    assert "research succeeded after 1 failed call" in texts
    assert session.stats()["pending"] == 0


@pytest.mark.parametrize("result", [
    [], {}, "", th.Empty("tides near Brest"),
    {"isError": False, "errorCategory": "transient", "isRetryable": True, "message": "m"},
    {"isError": True, "errorCategory": "timeout", "isRetryable": True, "message": "m"},
    '{"note": "isError is a field name we document"}',
])
def test_empty_results_and_non_payloads_are_successes(result: Any) -> None:
    ran: list[int] = []

    @th.tool
    def research(question: str) -> Any:
        """Ask."""
        ran.append(1)
        return result

    outcome = th.Session([research]).call("research", {"question": "q"})
    assert outcome.ok and ran == [1]


@settings(max_examples=examples(200))
@given(message=st.text(min_size=1, max_size=2000), category=st.sampled_from(FINE + COARSE),
       retryable=st.booleans(), alternatives=st.lists(st.text(max_size=200), max_size=3))
def test_the_line_from_any_payload_is_one_true_capped_line(
        message: str, category: str, retryable: bool, alternatives: list[str]) -> None:
    payload = {"isError": True, "errorCategory": category, "isRetryable": retryable,
               "message": message + f" {KEY}", "alternatives": alternatives}

    @th.tool
    def research(question: str) -> dict[str, Any]:
        """Ask."""
        return payload

    outcome = th.Session([research]).call("research", {"question": "q"})
    line = outcome.content
    assert not outcome.ok and "\n" not in line and len(line) <= 300 and KEY not in line
    assert line.startswith(f"[error] research: {category}.")
    if retryable:  # "Transient" only of a transient kind: else "Retryable"
        transient = th.Failure.from_dict(payload).category.coarse is th.CoarseClass.TRANSIENT
        assert ("Transient" if transient else "Retryable") in line
        assert "Not transient" not in line and (transient or "Transient" not in line)
    else:
        assert "Transient:" not in line


def test_an_uncertain_subagent_failure_stays_uncertain_for_the_coordinator() -> None:
    inner = th.Failure(tool="charge_card", category=th.Category.UPSTREAM, retryable=False,
                       uncertain=True, message="the payment service timed out reading")

    @th.tool
    def pay(order_id: str) -> dict[str, Any]:
        """Have the payments subagent charge an order."""
        return inner.to_dict()

    line = th.Session([pay]).call("pay", {"order_id": "ORD-1"}).content
    assert line.startswith("[error] pay: upstream. charge_card: the payment service timed out "
                           "reading. Outcome unknown")
    assert line.endswith("Check whether it took effect before calling pay again.")
    assert "Transient" not in line and "will fail the same way" not in line


def test_attempted_arguments_keep_their_json_shape_and_lose_their_secrets() -> None:
    @th.tool
    def survey(stations: list[str], options: dict[str, Any], depth: float = 1.0) -> str:
        """Survey stations."""
        raise th.ToolError("survey failed", retryable=False)

    outcome = th.Session([survey]).call("survey", {
        "stations": ["brest", "sein"], "options": {"min": 1, "token": KEY, "note": f"k {KEY}"}})
    arguments = outcome.failure.to_dict()["attempted_query"]["arguments"]  # type: ignore[union-attr]
    assert arguments == {"stations": ["brest", "sein"], "options": {
        "min": 1, "token": "[redacted:secret]", "note": "k [redacted:anthropic-key]"}}
    refused = th.Session([survey]).call("survey", {"stations": [], "options": {},
                                                   "depth": math.nan})
    payload = refused.failure.to_dict()  # type: ignore[union-attr]
    assert payload["attempted_query"]["arguments"]["depth"] == "nan"
    json.dumps(payload, allow_nan=False)
    validator.validate(payload)


def test_partial_results_and_details_are_redacted_whatever_their_type() -> None:
    """Models, dataclasses, sets and bytes in partial results and details are shown as a
    successful result would be (their fields, a list, base64) and redacted the same way."""
    import base64
    import dataclasses

    import pydantic

    class Row(pydantic.BaseModel):
        id: str
        password: str

    @dataclasses.dataclass
    class Hit:
        url: str
        api_key: str

    @th.tool
    def research(topic: str) -> list[Any]:
        """Research."""
        raise th.ToolError("archive stopped after page 1", retryable=False,
                           partial_results=[Row(id="r1", password="hunter2hunter2"),
                                            Hit("https://x.example", KEY),
                                            {"seen": frozenset({f"token {KEY}"})}],
                           details={"raw": b"password=hunter2hunter2", "hit": Hit("u", KEY)})

    @th.tool
    def succeed(topic: str) -> Any:
        """The same values, returned."""
        return [Row(id="r1", password="hunter2hunter2"), b"password=hunter2hunter2"]

    session = th.Session([research, succeed])
    failure = session.call("research", {"topic": "tides"}).failure
    assert failure is not None
    payload = failure.to_dict()
    text = json.dumps(payload)
    assert KEY not in text and "hunter2" not in text
    assert base64.b64encode(b"password=hunter2hunter2").decode() not in text
    assert payload["partial_results"][0] == {"id": "r1", "password": "[redacted:secret]"}
    assert payload["partial_results"][1]["url"] == "https://x.example"
    assert payload["partial_results"][2]["seen"] == ["token [redacted:anthropic-key]"]
    assert payload["details"]["hit"]["api_key"] == "[redacted:secret]"
    # what the success path hides, the failure path hides
    shown = session.call("succeed", {"topic": "tides"}).content
    assert "hunter2" not in shown and "[redacted:" in shown
    # a returned payload's partial results: the same rule
    back = th.Failure.from_dict({**payload, "partial_results": {"k": f"token {KEY}"}})
    assert back.partial_results == {"k": "token [redacted:anthropic-key]"}


@pytest.mark.parametrize("category", ["transient", "upstream", "connectivity"])
def test_a_returned_transient_payload_of_a_non_idempotent_tool_has_an_unknown_outcome(
    category: str,
) -> None:
    payload = {"isError": True, "errorCategory": category, "isRetryable": True,
               "message": "the shop timed out"}

    @th.tool(idempotent=False)
    def place_order(sku: str) -> dict[str, Any]:
        """Place an order through the ordering subagent."""
        return payload

    @th.tool(idempotent=False)
    def place_known(sku: str) -> dict[str, Any]:
        """The same, but the subagent knows the order was never sent."""
        return {**payload, "outcomeUnknown": False}

    @th.tool
    def read_order(sku: str) -> dict[str, Any]:
        """Idempotent: the same payload is retryable."""
        return payload

    session = th.Session([place_order, place_known, read_order])
    outcome = session.call("place_order", {"sku": "A1"})
    assert outcome.failure is not None
    assert outcome.failure.uncertain and not outcome.failure.retryable
    assert "Outcome unknown" in outcome.content and "same arguments" not in outcome.content
    out = outcome.failure.to_dict()
    assert out["outcomeUnknown"] is True and out["isRetryable"] is False
    validator.validate(out)
    known = session.call("place_known", {"sku": "A1"}).failure
    assert known is not None and known.retryable and not known.uncertain and known.never_ran
    assert known.to_dict()["outcomeUnknown"] is False
    read = session.call("read_order", {"sku": "A1"}).failure
    assert read is not None and read.retryable and not read.uncertain


def test_a_refused_connection_payload_says_the_call_never_ran() -> None:
    @th.tool(idempotent=False, retries=0)
    def pay(amount: int) -> None:
        """Pay."""
        raise ConnectionRefusedError(111, "Connection refused")

    failure = th.Session([pay]).call("pay", {"amount": 3}).failure
    assert failure is not None and failure.never_ran and failure.retryable
    payload = failure.to_dict()
    assert payload["outcomeUnknown"] is False
    validator.validate(payload)
    assert th.Failure.from_dict(payload).never_ran


@pytest.mark.parametrize("named", FINE + COARSE)
@pytest.mark.parametrize("retryable", [True, False])
def test_the_verdict_and_the_advice_come_from_one_decision(named: str, retryable: bool) -> None:
    """Whatever a payload's class and isRetryable say, the line never tells the model
    both that a retry cannot help and to call again, or the reverse."""
    payload = {"isError": True, "errorCategory": named, "isRetryable": retryable,
               "message": "it broke"}
    line = th.Failure.from_dict(payload, "delegate").line()
    again = ("again with the same arguments", "once more")
    stop = ("Do not retry", "Do not repeat", "A rule forbids", "Change the arguments",
            "Fix the arguments", "instead of repeating")
    transient = th.Failure.from_dict(payload).category.coarse is th.CoarseClass.TRANSIENT
    if retryable:  # "Transient" only of a transient kind: "Retryable" of any other
        word = "Transient" if transient else "Retryable"
        assert word in line and not any(s in line for s in stop), line
        assert transient or "Transient" not in line, line
    else:
        assert "Transient" not in line.replace("transient.", "")
        assert not any(a in line for a in again), line
    if transient:
        assert "Not transient" not in line, line


@pytest.mark.parametrize("wait", [1e300, 1e9, 3601.0, float("inf")])
def test_a_huge_wait_is_capped_and_the_line_keeps_its_message(wait: float) -> None:
    @th.tool
    def returned(q: str) -> dict[str, Any]:
        """Returns a payload."""
        return {"isError": True, "errorCategory": "rate_limit", "isRetryable": True,
                "message": "the archive asked us to slow down", "retryAfterSeconds": wait}

    @th.tool(retries=0)
    def raised(q: str) -> None:
        """Raises."""
        raise th.ToolError("the archive asked us to slow down", retryable=True,
                           category="rate_limit", retry_after=wait)

    session = th.Session([returned, raised])
    for name in ("returned", "raised"):
        outcome = session.call(name, {"q": "x"})
        assert outcome.failure is not None
        line = outcome.content
        assert len(line) <= 300 and "slow down" in line, line
        if math.isfinite(wait) or name == "raised":  # a ToolError's inf: the longest wait
            assert outcome.failure.retry_after == 3600.0
            assert "retry after at least 3600 s." in line
            payload = outcome.failure.to_dict()
            assert payload["retryAfterSeconds"] == 3600.0
            validator.validate(payload)


def test_a_wait_below_the_ceiling_is_kept_as_said() -> None:
    failure = th.Failure.from_dict({"isError": True, "errorCategory": "rate_limit",
                                    "isRetryable": True, "message": "slow down",
                                    "retryAfterSeconds": 90}, "t")
    assert failure.retry_after == 90.0 and "retry after 90 s." in failure.line()


_WS = st.text(alphabet=" \t\n\r", max_size=3)


@settings(max_examples=examples(150), deadline=None)
@given(
    named=st.sampled_from(FINE + COARSE),
    retryable=st.booleans(),
    is_error=st.sampled_from([True, False, "true", 1]),
    before=_WS, after=_WS, item=_WS, indent=st.one_of(st.none(), st.integers(0, 4)),
    as_bytes=st.booleans(),
)
def test_a_payloads_json_text_is_recognised_however_it_is_spaced(
    named: str, retryable: bool, is_error: Any, before: str, after: str, item: str,
    indent: int | None, as_bytes: bool,
) -> None:
    payload = {"isError": is_error, "errorCategory": named, "isRetryable": retryable,
               "message": "archive refused"}
    text = json.dumps(payload, indent=indent, separators=("," + item, before + ":" + after))
    value: Any = text.encode() if as_bytes else text
    from_text = _payload.recognise(value)
    from_dict = _payload.recognise(payload)
    assert (from_text is None) == (from_dict is None)
    if from_dict is not None:
        assert from_text == payload


def spelled(text: str, escapes: list[bool], upper: bool) -> str:
    """``text`` as a JSON string, its characters written as ``\\u`` escapes where
    ``escapes`` says (and where JSON requires one)."""
    out = []
    for at, char in enumerate(text):
        if escapes[at % len(escapes)] or char in '"\\' or ord(char) < 0x20:
            code = f"{ord(char):04x}"
            out.append("\\u" + (code.upper() if upper else code))
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32",
             "utf-32-le", "utf-32-be"]


@settings(max_examples=examples(150), deadline=None)
@given(
    named=st.sampled_from(FINE + COARSE),
    is_error=st.sampled_from([True, False, "true"]),
    escapes=st.lists(st.booleans(), min_size=1, max_size=9),
    upper=st.booleans(),
    sep=_WS,
    encoding=st.none() | st.sampled_from(ENCODINGS),
)
def test_a_payloads_text_is_read_as_json_reads_it_whatever_the_escapes_and_encoding(
    named: str, is_error: Any, escapes: list[bool], upper: bool, sep: str,
    encoding: str | None,
) -> None:
    payload = {"isError": is_error, "errorCategory": named, "isRetryable": True,
               "message": "the archive said \"no\"\tat 09:00", "tool": "archive"}

    def value(v: Any) -> str:
        return spelled(v, escapes, upper) if isinstance(v, str) else json.dumps(v)
    text = "{" + ",".join(f"{spelled(k, escapes, upper)}{sep}:{sep}{value(v)}"
                          for k, v in payload.items()) + "}"
    sent: Any = text if encoding is None else text.encode(encoding)
    assert json.loads(sent) == payload  # what any JSON parser reads
    from_text = _payload.recognise(sent)
    from_dict = _payload.recognise(payload)
    assert (from_text is None) == (from_dict is None)
    if from_dict is not None:
        assert from_text == payload


def test_a_key_spelled_with_escapes_is_the_key() -> None:
    texts = ['{"\\u0069sError": true, "errorCategory": "transient", "isRetryable": true, '
             '"message": "timed out"}',
             '{"\\u0069\\u0073\\u0045\\u0072\\u0072\\u006F\\u0072":true,'
             '"\\u0065rrorCategory":"transient","isRetryable":true,"message":"timed out"}']
    for text in texts:
        assert _payload.recognise(text) is not None, text
    # an escaped backslash is no escape: that key is "\\u0069sError", not isError
    assert _payload.recognise(texts[0].replace("\\u0069", "\\\\u0069")) is None


def test_a_payloads_bytes_with_a_bad_byte_are_still_a_failure() -> None:
    sent = json.dumps(subagent_failure(message="the archive said \u00e9")).encode()
    broken = sent.replace(b"\\u00e9", b"\xff")
    found = _payload.recognise(broken)
    assert found is not None and found["message"] == "the archive said \ufffd"


def test_a_large_payload_text_is_read_like_the_dict() -> None:
    big = {"isError": True, "errorCategory": "business", "isRetryable": False,
           "message": "archive refused", "partial_results": [f"row {i:06d}" for i in range(120_000)]}
    text = json.dumps(big)
    assert len(text) > 1_048_576
    assert _payload.recognise(text) is not None and _payload.recognise(big) is not None
    # a large result that merely says isError false is never parsed as one
    assert _payload.recognise(text.replace('"isError": true', '"isError": false')) is None


@pytest.mark.parametrize("wait", [float("nan"), float("inf"), -1.0, 0.0])
def test_the_schema_and_the_reader_agree_on_non_finite_waits(wait: float) -> None:
    payload = {"isError": True, "errorCategory": "rate_limit", "isRetryable": True,
               "message": "slow down", "retryAfterSeconds": wait}
    assert validator.is_valid(payload) == _payload.valid(payload)

    @th.tool
    def t(q: str) -> dict[str, Any]:
        """Returns the payload."""
        return payload

    outcome = th.Session([t]).call("t", {"q": "x"})
    assert outcome.ok is not validator.is_valid(payload)
    if outcome.failure is not None:
        assert "slow down" in outcome.content
        wait_kept = outcome.failure.retry_after
        assert wait_kept is None or math.isfinite(wait_kept)
        validator.validate(outcome.failure.to_dict())


def test_a_refused_calls_payload_says_it_never_ran_and_what_was_asked() -> None:
    @th.tool(max_failures=1)
    def lookup(q: str, token: str = "") -> str:
        """Look up."""
        raise th.ToolError("nope", retryable=False, category="not_found")

    session = th.Session([lookup])
    session.call("lookup", {"q": "a"})
    refused = session.call("lookup", {"q": "b", "token": KEY}).failure
    assert refused is not None and refused.status == "closed"
    payload = refused.to_dict()
    validator.validate(payload)
    assert payload["errorCategory"] == "business" and "category" not in payload
    assert payload["outcomeUnknown"] is False and payload["isRetryable"] is False
    assert payload["attempted_query"] == {
        "tool": "lookup", "arguments": {"q": "b", "token": "[redacted:secret]"}}
    assert KEY not in json.dumps(payload)
    back = th.Failure.from_dict(payload)
    assert back.never_ran and not back.retryable and back.label == "business"
