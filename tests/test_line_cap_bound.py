"""``line_cap`` is bounded above as well as below: a line the logs can write whole
(cold-14b J)."""

from __future__ import annotations

import pytest

import toolhygiene as th


@pytest.mark.parametrize("cap", [65_537, 10**12])
def test_a_line_cap_past_the_field_cap_is_refused_and_changes_nothing(cap: int) -> None:
    before = th.configure().line_cap
    with pytest.raises(th.UsageError, match="at least 160 and at most 65,536"):
        th.configure(line_cap=cap)
    assert th.configure().line_cap == before
    with pytest.raises(th.UsageError, match="at least 160 and at most 65,536"):
        th.Session([], line_cap=cap)


def test_the_bounds_themselves_are_taken() -> None:
    for cap in (160, 65_536):
        with th.configure(line_cap=cap):
            assert th.configure().line_cap == cap
        assert th.Session([], line_cap=cap) is not None
