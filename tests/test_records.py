"""The records and the one line the model sees."""

from __future__ import annotations

import dataclasses

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolhygiene as th
from helpers import NO_KEYS

validator = jsonschema.Draft202012Validator(th.FAILURE_SCHEMA)


def failure(category: th.Category, *, retryable: bool | None = None, instead: str = "",
            **extra: object) -> th.Failure:
    return th.Failure(
        tool="get_order",
        category=category,
        retryable=category.retryable if retryable is None else retryable,
        message="no order with id ORD-88213 exists",
        instead=instead,
        **extra,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("category", list(th.Category))
@pytest.mark.parametrize("retryable", [True, False])
@pytest.mark.parametrize("instead", ["", "use search_orders with the customer's id"])
def test_line_shape_for_every_category(category: th.Category, retryable: bool,
                                       instead: str) -> None:
    f = failure(category, retryable=retryable, instead=instead)
    line = f.line()
    assert "\n" not in line and len(line) <= 300
    assert line.startswith(f"[error] get_order: {category.value}. no order with id ORD-88213")
    transient = category.coarse is th.CoarseClass.TRANSIENT
    if retryable:  # "Transient" only of a transient kind: else "Retryable"
        word = "Transient" if transient else "Retryable"
        assert f"{word}: a retry may succeed." in line
    elif category is th.Category.UNKNOWN:
        assert "Cause not known: repeating it is not advised." in line
    elif transient:  # declared not retryable: "Not transient" would be false
        assert "Not retryable: repeating it is not advised." in line
    else:
        assert "Not transient: the same call will fail the same way." in line
    if instead:
        assert line.endswith("Use search_orders with the customer's id.")
    elif retryable == category.retryable:
        assert line.endswith(category.hint_for("get_order"))
    validator.validate(f.to_dict())


def test_line_order_is_what_then_retry_then_instead() -> None:
    line = failure(th.Category.NOT_FOUND, instead="use search_orders").line()
    assert line == (
        "[error] get_order: not_found. no order with id ORD-88213 exists. Not transient: the "
        "same call will fail the same way. Use search_orders."
    )


def test_retry_after_is_in_words() -> None:
    line = failure(th.Category.RATE_LIMIT, retry_after=7.0).line()
    assert "Transient: retry after 7 s." in line
    assert "Transient: retry after 0.5 s." in failure(th.Category.RATE_LIMIT,
                                                     retry_after=0.5).line()


def test_every_category_knows_its_traits() -> None:
    coarse = {c: c.coarse.value for c in th.Category}
    assert coarse == {
        th.Category.CONNECTIVITY: "transient", th.Category.RATE_LIMIT: "transient",
        th.Category.UPSTREAM: "transient", th.Category.BAD_REQUEST: "validation",
        th.Category.AUTH: "permission", th.Category.NOT_FOUND: "validation",
        th.Category.BUSINESS: "business", th.Category.UNKNOWN: "other",
    }
    assert {c for c in th.Category if c.retryable} == {
        th.Category.CONNECTIVITY, th.Category.RATE_LIMIT, th.Category.UPSTREAM}
    for c in th.Category:
        hint = c.hint_for("x")
        assert hint.endswith(".") and "{tool}" not in hint and "\n" not in hint


def test_cap_cuts_at_a_word_boundary_with_an_ellipsis() -> None:
    long = th.Failure(tool="t", category=th.Category.UNKNOWN, retryable=False,
                   message="word " * 200)
    line = long.line()
    assert len(line) <= 300
    assert "word… Cause not known" in line  # the what is cut, the advice survives
    assert line.endswith("tell the user what failed.")
    short = long.line(cap=160)  # what failed is cut, then the verdict takes its short form
    assert short == (
        "[error] t: unknown. word word word word word word word… Cause not known. Do not "
        "repeat the same call; try a different approach or tell the user what failed.")


def test_configured_cap_applies() -> None:
    previous = th.configure(line_cap=160)
    try:
        assert len(failure(th.Category.UPSTREAM).line()) <= 160
    finally:
        th.configure(line_cap=previous.line_cap)
    with pytest.raises(th.UsageError, match="line_cap must be a whole number of at least 160"):
        th.configure(line_cap=159)


def test_optional_fields_are_absent_not_null() -> None:
    bare = failure(th.Category.AUTH).to_dict()
    assert set(bare) == {"isError", "errorCategory", "isRetryable", "message", "tool",
                         "category", "reason"}
    full = failure(th.Category.RATE_LIMIT, retry_after=3.0, attempted={"order_id": "ORD-1"},
                   partial_results=[1, 2], alternatives=("ask the user",)).to_dict()
    assert full["retryAfterSeconds"] == 3.0
    assert full["attempted_query"] == {"tool": "get_order", "arguments": {"order_id": "ORD-1"}}
    assert full["partial_results"] == [1, 2]
    assert full["alternatives"] == ["ask the user"]
    validator.validate(full)


def test_schema_requires_only_what_every_agent_sends() -> None:
    # Other agents' payloads need only these four; ours always carry tool and category too
    # (tests/test_payloads.py), and their message is one line.
    assert set(th.FAILURE_SCHEMA["required"]) == {
        "isError", "errorCategory", "isRetryable", "message"}
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({"isError": True, "errorCategory": "transient", "isRetryable": "yes",
                            "message": "timed out"})


def test_failure_is_frozen() -> None:
    f = failure(th.Category.UNKNOWN)
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.message = "changed"  # type: ignore[misc]


def test_tool_error_requires_retryable() -> None:
    with pytest.raises(TypeError):
        th.ToolError("no such order")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        th.ToolError("no such order", False)  # type: ignore[call-arg]


def test_tool_error_for_model_is_the_line() -> None:
    err = th.ToolError("no order with id ORD-88213 exists", retryable=False,
                       instead="use search_orders with the customer's id to find it",
                       category="not_found")
    assert err.for_model("get_order") == (
        "[error] get_order: not_found. no order with id ORD-88213 exists. Not transient: the "
        "same call will fail the same way. Use search_orders with the customer's id to find it."
    )
    assert err.category is th.Category.NOT_FOUND


def test_tool_error_default_categories() -> None:
    assert th.ToolError("x", retryable=True).category is th.Category.UPSTREAM
    assert th.ToolError("x", retryable=False).category is th.Category.BUSINESS
    # cold-11 #3: a NaN wait was dropped silently; it is the developer's mistake
    with pytest.raises(th.UsageError, match=r"^retry_after must be a number of seconds >= 0"):
        th.ToolError("x", retryable=True, retry_after=float("nan"))


def test_empty_says_a_retry_will_not_change_it() -> None:
    text = th.Empty("orders of customer C-4821 in May").for_model("search_orders")
    assert text.startswith("[empty] search_orders: nothing matched orders of customer C-4821")
    assert "repeating it unchanged will return nothing again" in text
    assert "\n" not in text and "[error]" not in text


def test_summarize_is_classify_line() -> None:
    try:
        NO_KEYS["ORD-1"]
    except KeyError as exc:
        assert th.summarize(exc, "get_order") == th.classify(exc, "get_order").line()
        assert th.summarize(exc, "get_order").startswith("[error] get_order: not_found.")


def helper_that_fails() -> None:
    raise ValueError("bad value")


def test_user_frame_is_the_last_frame_of_own_code() -> None:
    try:
        helper_that_fails()
    except ValueError as exc:
        frame = th.user_frame(exc)
    assert frame is not None
    assert frame.startswith("test_records.py:") and frame.endswith("in helper_that_fails")
    assert "/" not in frame


def test_user_frame_skips_stdlib_and_site_packages() -> None:
    import json

    try:
        json.loads("{")
    except ValueError as exc:
        frame = th.user_frame(exc)
    assert frame is not None and frame.startswith("test_records.py:")
    assert frame.endswith("test_user_frame_skips_stdlib_and_site_packages")


@given(st.text(max_size=2000), st.sampled_from(list(th.Category)), st.booleans(),
       st.text(max_size=500), st.integers(min_value=80, max_value=1000))
def test_line_is_always_one_line_within_the_cap(message: str, category: th.Category,
                                                retryable: bool, instead: str,
                                                cap: int) -> None:
    f = th.Failure(tool="t", category=category, retryable=retryable,
                message=th.sanitize(message, cap), instead=th.sanitize(instead, cap))
    line = f.line(cap)
    assert len(line) <= cap
    assert "\n" not in line and "\r" not in line
    assert line.startswith("[error] t: ")
    validator.validate(f.to_dict())
