"""Families of the public secret scanners' rule sets the first corpus did not hold
(``corpus.SCANNER_CASES``, leak12b): each in every carrier through ``th.redact``, and
through ``Session.call`` (failure line, log, success result) in a message."""

from __future__ import annotations

import json
from typing import Any

import pytest

import toolhygiene as th
from corpus import CARRIERS, SCANNER_CASES, Case

IDS = [case.family for case in SCANNER_CASES]


@pytest.mark.parametrize("case", SCANNER_CASES, ids=IDS)
def test_redact_removes_every_scanner_family_in_every_carrier(case: Case) -> None:
    for carrier, make in CARRIERS.items():
        out = th.redact(make(case))
        assert case.must_not_survive not in out, (carrier, out)
        assert "[redacted:" in out, (carrier, out)


def _tool(text: str, *, fails: bool) -> th.Tool[Any, Any]:
    @th.tool(name="billing")
    def billing(order_id: str) -> str:
        if fails:
            raise RuntimeError(text)
        return text

    return billing


@pytest.mark.parametrize("case", SCANNER_CASES, ids=IDS)
def test_session_call_holds_no_scanner_family(case: Case) -> None:
    text = CARRIERS["message"](case)
    session = th.Session([_tool(text, fails=True)], line_cap=4000, max_failures=99)
    with th.testing.capture() as seen:
        failed = session.call("billing", {"order_id": "ORD-1"})
    assert case.must_not_survive not in failed.content, failed.content
    assert case.must_not_survive not in json.dumps([dict(e) for e in seen.events], default=str)
    result = th.Session([_tool(text, fails=False)]).call("billing", {"order_id": "ORD-1"})
    assert case.must_not_survive not in result.content, result.content
