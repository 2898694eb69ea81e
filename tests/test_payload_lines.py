"""Lines from another agent's payload: what failed survives many alternatives (they are
cut first), a sender's whole toolhygiene line gives its verdict once, and a reason of
this very tool is not named twice."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import toolhygiene as th


def line_of(payload: dict[str, Any], name: str = "delegate") -> str:
    @th.tool(name=name)
    def delegate(q: str) -> dict[str, Any]:
        """Delegate."""
        return payload

    outcome = th.Session([delegate]).call(name, {"q": "a"})
    assert not outcome.ok
    return outcome.content


@given(count=st.integers(0, 80), size=st.integers(1, 40),
       category=st.sampled_from(["business", "not_found", "transient", "upstream"]))
def test_what_failed_survives_any_number_of_alternatives(count: int, size: int,
                                                        category: str) -> None:
    alternatives = [f"alt {i} " + "x" * size for i in range(count)]
    line = line_of({"isError": True, "errorCategory": category, "isRetryable": False,
                    "message": "upstream said no", "alternatives": alternatives})
    assert "upstream said no" in line and len(line) <= 300, line
    if count:
        assert "Alternatives: alt 0" in line, line


def test_a_senders_whole_line_gives_its_verdict_once() -> None:
    line = line_of({"isError": True, "errorCategory": "not_found", "isRetryable": False,
                    "message": "[error] inner: not_found. no such doc. Not transient: the "
                               "same call will fail the same way. Check the name."})
    assert line.startswith("[error] delegate: not_found. inner: no such doc. Not transient")
    assert line.count("Not transient") == 1, line


def test_a_reason_of_this_very_tool_is_not_named_twice() -> None:
    line = line_of({"isError": True, "errorCategory": "transient", "category": "upstream",
                    "isRetryable": True, "message": "[error] flaky: upstream. index warming "
                    "up. Transient: retry after 1 s.", "tool": "flaky",
                    "reason": "index warming up", "attempts": 3}, name="flaky")
    assert line.startswith("[error] flaky: upstream. index warming up. Transient"), line
