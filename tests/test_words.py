"""Every string the model reads, word for word, in every situation; and the cap keeps what
the model acts on, whatever the cap and the text."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolhygiene as th
from toolhygiene import Failure, _words

C = th.Category


def f(category: th.Category = C.NOT_FOUND, **extra: Any) -> Failure:
    fields: dict[str, Any] = {"tool": "get_order", "category": category,
                              "retryable": category.retryable,
                              "message": "no order with id ORD-7 exists"}
    fields.update(extra)
    return Failure(**fields)


@pytest.mark.parametrize(("failure", "line"), [
    (f(), "[error] get_order: not_found. no order with id ORD-7 exists. Not transient: the "
          "same call will fail the same way. Check the name or id, or search for it first, "
          "instead of repeating the call."),
    (f(C.UPSTREAM, message="the service answered HTTP 503 Service Unavailable to GET /orders/7"),
     "[error] get_order: upstream. the service answered HTTP 503 Service Unavailable to GET "
     "/orders/7. Transient: a retry may succeed. The service behind get_order is failing; try "
     "once more later, else continue without it and tell the user."),
    (f(C.RATE_LIMIT, message="slow down", retry_after=7.0),
     "[error] get_order: rate_limit. slow down. Transient: retry after 7 s. Wait, then call "
     "get_order again with the same arguments; do not call it in a tight loop."),
    (f(C.UNKNOWN, message="RuntimeError with no message"),
     "[error] get_order: unknown. RuntimeError with no message. Cause not known: repeating it "
     "is not advised. Do not repeat the same call; try a different approach or tell the user "
     "what failed."),
    (f(C.UPSTREAM, retryable=False, uncertain=True, message="read timed out"),
     "[error] get_order: upstream. read timed out. Outcome unknown: the call may have taken "
     "effect before it failed. Check whether it took effect before calling get_order again."),
    (f(status="repeated", repeats=2),
     "[error] get_order: not_found. no order with id ORD-7 exists. Not transient: the same "
     "call will fail the same way. This exact call has now failed 2 times the same way: do "
     "not repeat it. Check the name or id, or search for it first, instead of repeating the "
     "call."),
    (f(status="similar", repeats=3, instead="search_orders finds orders by customer"),
     "[error] get_order: not_found. no order with id ORD-7 exists. Not transient: the same "
     "call will fail the same way. 3 calls with different arguments failed the same way: the "
     "approach, not the argument, may be wrong. Search_orders finds orders by customer."),
    (f(closes=True, count=2),
     "[error] get_order: not_found. no order with id ORD-7 exists. get_order has failed 2 "
     "times in this conversation and is now closed: do not call it again. Continue without "
     "it, or tell the user what you could not do."),
    (f(C.CONNECTIVITY, closes=True, count=1, alternatives=("use cached_order",)),
     "[error] get_order: connectivity. no order with id ORD-7 exists. get_order has failed 1 "
     "time in this conversation and is now closed: do not call it again. Continue without it, "
     "or tell the user what you could not do. Alternatives: use cached_order."),
    (f(C.BUSINESS, retryable=True),
     "[error] get_order: business. no order with id ORD-7 exists. Retryable: a retry may "
     "succeed. Call get_order once more with the same arguments; if it fails again, continue "
     "without it."),
    (f(C.UPSTREAM, retryable=False),
     "[error] get_order: upstream. no order with id ORD-7 exists. Not retryable: repeating it "
     "is not advised. Do not repeat the call; continue without get_order, or tell the "
     "user what failed."),
    (f(status="closed", count=2),
     "[error] get_order: unavailable. get_order was closed after 2 failures in this "
     "conversation; this call did not run. Continue without it, or tell the user what you "
     "could not do."),
])
def test_the_failure_line_word_for_word(failure: Failure, line: str) -> None:
    assert failure.line() == line


def test_a_transient_repeat_keeps_its_verdict_and_makes_no_claim() -> None:
    line = f(C.UPSTREAM, status="repeated", repeats=2).line()
    assert "Transient: a retry may succeed." in line and "exact call" not in line


def test_advice_precedence() -> None:
    """ToolError's instead > a rule's hint > the tool's instead > the category's hint."""

    def advised(failure: Failure, tool_instead: str) -> Failure:
        if _words.takes_tool_advice(failure):
            return dataclasses.replace(failure, instead=tool_instead)
        return failure

    own = f(instead="ask for the order number", hint="rule hint")
    assert own.line().endswith("Ask for the order number.")
    assert advised(own, "tool default") is own
    ruled = f(hint="the rule says wait")
    assert advised(ruled, "tool default").line().endswith("The rule says wait.")
    plain = advised(f(), "use search_orders")
    assert plain.line().endswith("Use search_orders.")
    uncertain = advised(f(C.UPSTREAM, retryable=False, uncertain=True), "x")
    assert uncertain.line().endswith("Check whether it took effect before calling get_order "
                                     "again.")


def test_the_other_notices_word_for_word() -> None:
    assert th.Empty("orders of C-4").for_model("search_orders") == (
        "[empty] search_orders: nothing matched orders of C-4. The search ran fine; repeating "
        "it unchanged will return nothing again. Broaden or change the query, or tell the user "
        "nothing matched.")
    assert _words.unknown_tool("get_wether", ["get_weather", "get_time"]) == (
        "there is no tool named 'get_wether'",
        "Call one of the tools that exist: get_time, get_weather")
    assert _words.STUB == "[error cleared]"
    assert _words.recovered_note({"get_weather": 1}) == (
        "[recovered] get_weather succeeded after 1 failed call; that error was removed.")
    assert _words.recovered_note({"get_weather": 2}) == (
        "[recovered] get_weather succeeded after 2 failed calls; those errors were removed.")
    assert _words.recovered_note({"get_weather": 2, "get_time": 1}) == (
        "[recovered] get_time succeeded after 1 failed call, get_weather after 2; those errors "
        "were removed.")
    assert _words.result_cut("get_logs", 19_802, 1_130_000) == (
        "\n[result cut: the first 19,802 of 1,130,000 characters are shown above. To see the "
        "rest, call get_logs again asking for less at a time, if its arguments allow (a "
        "narrower query, a filter, fewer fields or the next page).]")
    assert _words.result_cut("get_logs", 14_322, 64_000, verbatim=False, redacted=True) == (
        "\n[result cut: only its start is shown above: 14,322 characters as cleaned (secrets "
        "redacted), of 64,000 in the result as returned. To see the rest, call get_logs again "
        "asking for less at a time, if its arguments allow (a narrower query, a filter, fewer "
        "fields or the next page; a redacted value cannot be sent back).]")
    assert _words.result_cut("get_logs", 14_322, 64_000, verbatim=False) == (
        "\n[result cut: only its start is shown above: 14,322 characters as cleaned, of 64,000 "
        "in the result as returned. To see the rest, call get_logs again asking for less at a "
        "time, if its arguments allow (a narrower query, a filter, fewer fields or the next "
        "page).]")
    assert _words.result_cut("dump_logs", 19_802, 90_000, arguments=False) == (
        "\n[result cut: the first 19,802 of 90,000 characters are shown above. dump_logs has "
        "no arguments, so no call to it can ask for less: the rest cannot be seen through it.]")


def test_argument_paths_and_unexpected_arguments_word_for_word() -> None:
    assert _words.argument_path(("order", "items", 0, "sku")) == "order.items[0].sku"
    assert _words.argument_path((0, "a", 2, 3)) == "[0].a[2][3]"
    assert _words.argument_path(()) == "arguments"
    assert _words.unexpected_argument("addr.extra", ["street", "zip"]) == (
        "unexpected argument 'addr.extra' (allowed: street, zip)")
    assert _words.unexpected_argument("a.b", []) == "unexpected argument 'a.b' (allowed: none)"
    assert _words.unexpected_argument("m.k.x", None) == "unexpected argument 'm.k.x'"


def test_an_empty_query_is_cut_before_the_notice() -> None:
    line = th.Empty("x" * 400, note="ask for a date").for_model("search")
    assert len(line) <= 300 and line.endswith("repeating it unchanged will return nothing "
                                              "again. Ask for a date.")


NAMES = st.from_regex(r"[A-Za-z0-9_-]{1,64}", fullmatch=True)
TEXT = st.text(min_size=0, max_size=600).map(lambda t: " ".join(t.split()))


@given(NAMES, st.sampled_from(list(C)), st.booleans(), TEXT, TEXT,
       st.sampled_from(["failed", "repeated", "similar"]), st.booleans(), st.booleans(),
       st.integers(min_value=_words.MIN_LINE_CAP, max_value=1000))
def test_the_cap_keeps_what_the_model_acts_on(
        tool: str, category: th.Category, retryable: bool, message: str, instead: str,
        status: str, closes: bool, uncertain: bool, cap: int) -> None:
    failure = Failure(tool=tool, category=category, retryable=retryable and not uncertain,
                      message=message, instead=instead, status=status,  # type: ignore[arg-type]
                      repeats=2, closes=closes, count=3, uncertain=uncertain)
    line = failure.line(cap)
    assert len(line) <= cap and "\n" not in line
    assert line.startswith(f"[error] {tool}: {category.value}. ")
    full = failure.line(10_000)
    verdicts = [_words._verdict(failure, short) for short in (False, True)]
    assert any(v in line for v in verdicts)
    if closes:
        assert "closed" in line
    advice, compact = _words._advice(failure), _words._advice(failure, compact=True)
    if advice in full:
        # The advice survives whole (perhaps saying "it" for the tool's name), or its
        # beginning does, cut at the very end.
        assert advice in line or compact in line or (
            line.endswith("…") and compact[:12] in line)
    if len(full) <= cap:
        assert line == full


@pytest.mark.parametrize("cap", [160, 200, 300])
def test_what_failed_is_cut_first(cap: int) -> None:
    long = f(message="x " * 400, instead="use search_orders with the customer's id")
    line = long.line(cap)
    assert line.endswith("Use search_orders with the customer's id.")
    assert "Not transient" in line


def test_a_closing_line_with_the_longest_name_still_says_closed() -> None:
    name = "t" * 64
    line = dataclasses.replace(f(closes=True, count=2), tool=name,
                               message="m " * 200, instead="x " * 200).line(160)
    assert len(line) <= 160 and re.search(r"closed", line)


def test_not_finite_argument() -> None:
    assert _words.not_finite_argument("item.weight") == (
        "argument 'item.weight' must be a finite number (JSON has no NaN or infinity)")


@pytest.mark.parametrize(("keyword", "value", "words"), [
    ("minimum", 1, "at least 1"), ("maximum", 9, "at most 9"),
    ("exclusiveMinimum", 0, "greater than 0"), ("exclusiveMaximum", 5, "less than 5"),
    ("multipleOf", 5, "a multiple of 5"), ("minLength", 1, "at least 1 character"),
    ("maxLength", 8, "at most 8 characters"), ("pattern", "^[a-z]+$",
                                               "matching the regular expression ^[a-z]+$"),
    ("format", "uri", "in uri format"), ("minItems", 2, "at least 2 items"),
    ("maxItems", 1, "at most 1 item"), ("minProperties", 1, "at least 1 key"),
    ("maxProperties", 3, "at most 3 keys"), ("uniqueItems", True, "no repeated items"),
    ("uniqueItems", False, None), ("examples", [1], None),
])
def test_constraints_in_words(keyword: str, value: Any, words: str | None) -> None:
    assert _words.constraint(keyword, value) == words


def test_default_note() -> None:
    assert _words.default_note(3) == "null for the default, 3"
    assert _words.default_note("C") == 'null for the default, "C"'


@pytest.mark.parametrize(("problem", "detail", "path", "words"), [
    ("non_finite", "NaN", "prices[2]", "the result holds NaN at prices[2], which JSON cannot carry"),
    ("non_finite", "infinity", "", "the result holds infinity, which JSON cannot carry"),
    ("refers_to_itself", "", "[0]", "the result refers to itself at [0]"),
    ("no_json_form", "Socket", "conn", "the result holds a value of type Socket at conn, which "
                                       "has no JSON form"),
    ("bad_key", "tuple", "", "the result has a tuple key, which JSON cannot carry"),
])
def test_results_json_cannot_carry(problem: Any, detail: str, path: str, words: str) -> None:
    # Private imports, by design (internal units under test): every model-facing word, tested function by function.
    from toolhygiene._results import UnserializableError

    assert _words.not_json(UnserializableError(problem, detail, path)) == words


def test_the_words_of_timeouts_refusals_and_unreadable_failures() -> None:
    """Issue 10's situations, word for word: an attempt past its deadline (never started,
    still running, stopped), a call refused while earlier runs are still going (idempotent
    or not), a result that cannot be text, an exception too hostile to read."""
    assert _words.timed_out("charge", 0.3, started=False, still_running=False) == (
        "charge could not start within 0.3 s and was not run")
    assert _words.timed_out("charge", 0.3, started=True, still_running=True) == (
        "charge did not finish within 0.3 s and is still running")
    assert _words.timed_out("charge", 0.3, started=True, still_running=False) == (
        "charge did not finish within 0.3 s")
    assert _words.still_running("lookup", 2, idempotent=True) == (
        "2 earlier calls of lookup timed out and are still running",
        "Do not call lookup again until they finish; continue without it meanwhile")
    assert _words.still_running("charge", 1, idempotent=False) == (
        "the last call of charge timed out and may still be running; it may have taken effect",
        "Check whether the last call took effect before calling charge again; do not call "
        "it again while it may still be running")
    assert _words.still_running("lookup", 16, idempotent=True, reason="tool") == (
        "16 calls of lookup are still running, the most allowed at once",
        "Wait for them to finish before calling lookup again")
    assert _words.still_running("lookup", 64, idempotent=True, reason="session") == (
        "64 tool calls of this conversation are still running, the most allowed at once",
        "Wait for earlier calls to finish before calling lookup again")
    assert _words.unrenderable("make", "ValueError") == (
        "make ran, but its result could not be turned into text (ValueError)",
        "Do not call make the same way again; tell the user what failed")
    assert _words.unreadable("Lying") == "it raised Lying, which could not be read"


TOOL_NAMES = st.from_regex(r"[A-Za-z_][A-Za-z0-9_\-]{0,20}", fullmatch=True)


@given(
    st.dictionaries(TOOL_NAMES, st.integers(min_value=1, max_value=10**6), min_size=1, max_size=4),
    st.sampled_from(["removed", "kept", "held back"]),
)
def test_a_recovered_note_reads_back_as_every_tool_it_names(
    counts: dict[str, int], how: str
) -> None:
    """Resuming reads the note's counts back: the second tool of a note ("search after
    1") counts as much as the first ("lookup succeeded after 1 failed call")."""
    removed: dict[str, int] | bool = how == "removed"
    if how == "held back":
        removed = {tool: count + 1 for tool, count in counts.items()}
    assert _words.read_note(_words.recovered_note(counts, removed=removed)) == counts
