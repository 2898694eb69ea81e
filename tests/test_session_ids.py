"""A conversation's id: the store keys it by the exact id the user gave (two ids the
output clean-up maps to one text stay two conversations, with MemoryStore, RedisStore
and a store of the user's own), and every output writes it cleaned the way call ids are
(escape sequences whole, invisible characters, secrets redacted and tagged apart)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples

# Private imports, by design: the key a store is given for a conversation, and the text
# every output writes for an id.
from toolhygiene._observe import shown_id
from toolhygiene._stores import conversation_key

PAIRS = [
    ("victim", "victim\u200b"),
    ("conv 1", "conv\n1"),
    ("conv-\ud800", "conv-\udfff"),
    ("acct-7", " acct-7 "),
    ("x", "x\x1b[31m"),
    ("y", "y\ufe0f"),
    ("a{b}", "a\\x7bb}"),
]


@th.tool(retries=0, max_failures=2)
def pay(x: str) -> str:
    """Pay.

    Args:
        x: x.
    """
    raise ValueError("declined")


@pytest.mark.parametrize(("victim", "other"), PAIRS)
def test_ids_that_clean_alike_keep_their_own_caps(
    make_store: Callable[[], th.Store], victim: str, other: str
) -> None:
    store = make_store()
    with th.testing.capture():
        spender = th.Session([pay], store=store, session_id=other)
        spender.call("pay", {"x": "1"})
        spender.call("pay", {"x": "2"})
        assert "closed" in spender.call("pay", {"x": "3"}).content
        mine = th.Session([pay], store=store, session_id=victim)
        outcome = mine.call("pay", {"x": "3"})
    assert "closed" not in outcome.content
    assert mine.stats()["failures"] == {"pay": 1}


@given(st.text(max_size=40), st.text(max_size=40))
@settings(max_examples=examples(300), suppress_health_check=list(HealthCheck))
def test_the_store_key_is_collision_free(one: str, two: str) -> None:
    assert (conversation_key(one) == conversation_key(two)) == (one == two)
    key = conversation_key(one)
    key.encode("utf-8")  # Redis takes it
    assert "{" not in key and "}" not in key  # never moves a Redis hash tag


def test_a_plain_id_is_its_own_key() -> None:
    assert conversation_key("conv-42") == "conv-42"
    assert conversation_key("café 7") == "café 7"


@pytest.mark.parametrize(
    ("given_id", "shown"),
    [
        ("conv\x1b[2J\nFAKE", "conv FAKE"),
        ("\x1b[2J\x1b[1;1H conv", "conv"),
        ("conv\ufe0f", "conv"),
        ("a\u3164b\u115fc", "abc"),
        ("x\x1b[31mred\x1b[0m", "xred"),
    ],
)
def test_session_ids_are_cleaned_like_call_ids(given_id: str, shown: str) -> None:
    session = th.Session([pay], session_id=given_id)
    assert session.id.split("~")[0] == shown
    with th.testing.capture() as captured:
        session.call("pay", {"x": "1"})
    assert {e["session.id"] for e in captured.events} == {session.id}


def test_a_secret_in_a_session_id_is_redacted_and_tagged_apart() -> None:
    key = "sk-ant-api03-" + "A1b2C3d4" * 12
    one = th.Session([pay], session_id=f"conv-{key}")
    two = th.Session([pay], session_id=f"conv-{key[:-1]}B")
    assert key[10:40] not in one.id and key[10:40] not in two.id
    assert one.id != two.id
    with th.testing.capture() as captured:
        one.call("pay", {"x": "1"})
    assert captured.events
    assert all(key[10:40] not in repr(e) for e in captured.events)


def test_an_id_with_nothing_to_show_is_refused() -> None:
    with pytest.raises(th.UsageError, match="session_id"):
        th.Session([pay], session_id="\x1b[2J\u200b")


def test_an_id_given_as_another_ids_shown_text_is_shown_apart() -> None:
    """Recheck of cold-14b, 9: ``victim\\u200b`` is shown as ``victim~<tag>``; an id given
    as that very text is tagged too, so the outputs never write the two alike."""
    changed = th.Session([pay], session_id="victim\u200b")
    literal = th.Session([pay], session_id=changed.id)
    assert changed.id.startswith("victim~") and literal.id != changed.id
    assert literal.id.startswith(changed.id + "~")
    with th.testing.capture() as captured:
        changed.call("pay", {"x": "1"}, call_id="call_1\u200b")
        literal.call("pay", {"x": "1"}, call_id=shown_id("call_1\u200b"))
    written = {(e["session.id"], e["call_id"]) for e in captured.named("tool.failed")}
    assert len(written) == 2 and len({s for s, _ in written} | {c for _, c in written}) == 4


def test_an_id_that_only_looks_tagged_is_tagged() -> None:
    assert shown_id("job~deadbeef") != "job~deadbeef"
    assert shown_id("job~deadbeef").startswith("job~deadbeef~")
    for kept in ("job~deadbee", "job~DEADBEEF", "job-deadbeef", "~deadbeefx", "toolu_01Ab"):
        assert shown_id(kept) == kept


@given(st.text(max_size=30), st.text(max_size=30))
@settings(max_examples=examples(300), suppress_health_check=list(HealthCheck))
def test_shown_ids_are_distinct_when_the_ids_are(one: str, two: str) -> None:
    """No id is shown as another is: neither any text, nor the shown text of another id
    given back as an id (whatever was removed, redacted or kept)."""
    for first, second in ((one, two), (one, shown_id(one)), (two, shown_id(one))):
        if first != second:
            assert shown_id(first) != shown_id(second), (first, second)
