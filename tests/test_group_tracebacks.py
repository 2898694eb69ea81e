"""The logged traceback of an exception group drops no member it claims to show: a group
of up to ``TRACEBACK_MEMBERS`` shows them all, a wider one its first ones and a true
``and N more members not shown``; a cut note counts what it cut, causes and members apart,
and says "N exceptions deep" only of a plain chain."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import examples

# Private import, by design: the bounded renderer and its documented bounds.
from toolhygiene._log import TRACEBACK_EXCEPTIONS, TRACEBACK_MEMBERS, traceback_text


class Group(Exception):
    """A group by duck typing (``exceptions``), as on Python 3.10 and 3.11+ alike."""

    def __init__(self, members: list[BaseException]) -> None:
        super().__init__(f"group of {len(members)}")
        self.exceptions = tuple(members)


def _group(width: int) -> Group:
    return Group([ValueError(f"m{i}") for i in range(width)])


@given(st.integers(1, 3 * TRACEBACK_MEMBERS))
@settings(max_examples=examples(40), suppress_health_check=list(HealthCheck))
def test_a_group_shows_every_member_or_says_how_many_are_not(width: int) -> None:
    text = traceback_text(_group(width), redacting=False)
    shown = min(width, TRACEBACK_MEMBERS)
    assert text.count(" of the group above:") == shown
    assert [int(n) for n in re.findall(r"member (\d+) of", text)] == list(range(1, shown + 1))
    assert all(f"ValueError: m{i}" in text for i in range(shown))
    left = re.findall(r"and ([\d,]+) more members not shown", text)
    assert left == ([f"{width - shown:,}"] if width > shown else [])
    assert "exceptions deep" not in text


def test_a_group_of_eight_shows_eight() -> None:
    text = traceback_text(_group(8), redacting=False)
    assert "member 8 of 8 of the group above:" in text
    assert "cut" not in text


def test_nested_groups_cut_say_how_many_members_and_causes_were_cut() -> None:
    exc: BaseException = ValueError("leaf")
    for _ in range(3000):
        exc = Group([exc])
    text = traceback_text(exc, redacting=False)
    assert "exceptions deep" not in text
    note = re.search(
        r"the traceback was cut: at least ([\d,]+) more exceptions not shown, "
        r"([\d,]+) causes or contexts and ([\d,]+) group members",
        text,
    )
    assert note is not None
    total, causes, members = (int(n.replace(",", "")) for n in note.groups())
    assert total == causes + members and causes == 0 and members > 0


@pytest.mark.parametrize("deep", [TRACEBACK_EXCEPTIONS + 1, 41])
def test_a_plain_chain_cut_tells_its_true_depth(deep: int) -> None:
    exc: BaseException = ValueError("0")
    for i in range(1, deep):
        try:
            raise KeyError(str(i)) from exc
        except KeyError as error:
            exc = error
    text = traceback_text(exc, redacting=False)
    assert f"it is {deep} exceptions deep; only its first {TRACEBACK_EXCEPTIONS}" in text
