"""The verdict word and the closing advice are true for every kind of failure: "Transient"
only of a transient kind, "Not transient" never of one, and a line that closes its tool
gives no advice to call it again (raised, returned, or read from an MCP server)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolhygiene as th
from toolhygiene.testing import instant_retries

AGAIN = ("again with", "once more", "retry", "repeat", "Call get_order", "Fix the arguments",
         "Change the arguments", "Check the name")
CLOSED = "is now closed: do not call it again."


@given(
    category=st.sampled_from(list(th.Category)),
    retryable=st.booleans(),
    uncertain=st.booleans(),
    closes=st.booleans(),
    wait=st.none() | st.sampled_from([0.5, 7.0]),
    instead=st.sampled_from(["", "call get_order again with the full id",
                             "use search_orders with the customer's id"]),
)
def test_the_verdict_and_the_closing_advice_are_true(
    category: th.Category, retryable: bool, uncertain: bool, closes: bool,
    wait: float | None, instead: str,
) -> None:
    failure = th.Failure(tool="get_order", category=category, retryable=retryable,
                         uncertain=uncertain, closes=closes, count=2 if closes else 1,
                         retry_after=wait, instead=instead, message="no order ORD-7")
    line = failure.line()
    transient = category.coarse is th.CoarseClass.TRANSIENT
    if transient:
        assert "Not transient" not in line, line
    else:
        assert "Transient" not in line, line
    if retryable and not (closes or uncertain):
        assert ("Transient" if transient else "Retryable") in line, line
    if closes:
        after = line.split(CLOSED, 1)[1]
        assert not any(a in after for a in AGAIN), line
        if instead.startswith("use") and not uncertain:  # advice pointing elsewhere stays
            assert after.endswith("Use search_orders with the customer's id."), line


def test_a_closing_validation_failure_does_not_say_call_it_again() -> None:
    @th.tool
    def find(q: str) -> str:
        """Find."""
        raise th.ToolError("nothing", retryable=False)

    session = th.Session([find], max_failures=2)
    session.call("find", {"q": "x"})
    line = session.call("find", {"q": 5}).content
    assert line.endswith(f"{CLOSED} Continue without it, or tell the user what you could not do.")
    assert "find again" not in line


@pytest.mark.parametrize("category", ["business", "permission", "auth", "not_found"])
def test_a_retryable_failure_of_a_kind_not_transient_is_called_retryable(category: str) -> None:
    payload = {"isError": True, "errorCategory": category, "isRetryable": True,
               "message": "the quota resets at midnight", "retryAfterSeconds": 2}

    @th.tool
    def delegate(q: str) -> dict[str, Any]:
        """Delegate."""
        return payload

    @th.tool
    def direct(q: str) -> str:
        """Direct."""
        # a raised failure names a fine category: "permission" is the class of "auth"
        fine = {"permission": "auth"}.get(category, category)
        raise th.ToolError("the quota resets at midnight", retryable=True, category=fine)

    session = th.Session([delegate, direct])
    returned = session.call("delegate", {"q": "a"}).content
    raised = session.call("direct", {"q": "a"}).content
    assert "Retryable: retry after 2 s." in returned and "ransient" not in returned
    assert "Retryable: a retry may succeed." in raised and "ransient" not in raised


async def test_an_mcp_client_keeps_the_servers_transient_verdict_and_wait() -> None:
    mcp = pytest.importorskip("mcp")
    from toolhygiene import mcp as thmcp

    @th.tool(retries=2)
    def flaky(q: str) -> str:
        """Flaky."""
        raise th.ToolError("index warming up", retryable=True, retry_after=1)

    with instant_retries():
        async with mcp.Client(thmcp.server([flaky], session=th.Session([flaky], max_failures=2))) as client:
            session = th.Session(await thmcp.tools(client), max_failures=5)
            # retried by the server already (attempts 3): not again here, and its wait kept
            first = await session.acall("flaky", {"q": "a"})
            assert first.attempts == 1
            assert "upstream. index warming up. Transient: retry after 1 s." in first.content
            # the server closed it (isRetryable false): still an upstream failure, never
            # the words "Not transient", "the same call will fail the same way"
            second = await session.acall("flaky", {"q": "a"})
            assert "Not retryable: repeating it is not advised." in second.content
            assert "Not transient" not in second.content


async def test_an_mcp_servers_lines_say_on_this_server_not_in_this_conversation() -> None:
    # mcp 2.3's protocol is stateless: a server's one Session counts every client's calls,
    # so its lines never claim a count "in this conversation" (another client's may be in it).
    mcp = pytest.importorskip("mcp")
    from toolhygiene import mcp as thmcp

    @th.tool
    def find(q: str) -> str:
        """Find."""
        if q.startswith("bad"):
            raise th.ToolError(f"no record {q}", retryable=False, category="not_found")
        return f"record {q}"

    server = thmcp.server([find], session=th.Session([find], max_failures=2))
    async with mcp.Client(server) as a:
        await a.call_tool("find", {"q": "bad1"})
        closing = await a.call_tool("find", {"q": "bad2"})
    async with mcp.Client(server) as b:
        refused = await b.call_tool("find", {"q": "good"})
    for result in (closing, refused):
        text = result.content[0].text
        assert result.is_error and "on this server" in text, text
        assert "conversation" not in text + result.structured_content["message"], text
    assert "find has failed 2 times on this server and is now closed" in closing.content[0].text
