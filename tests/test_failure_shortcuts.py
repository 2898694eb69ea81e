"""The failure path's shortcuts (speed12a) give byte for byte what the long way gives.

- ``_redact._squeezed`` (an ASCII text's one-character gaps dropped in one pass over its
  bytes) is ``_squeezed_slowly`` (one replace per gap, in order), the very same object
  when nothing is squeezed out, on text built of the gaps, their pieces and look-alikes.
- The squeezed gates read both groups in one Aho-Corasick pass: the groups found for
  one gate are the groups a pass of that gate alone finds.
- ``scrub`` gives a simple text back at once when none of the detectors whose needles
  are in it would be looked for (a URL with no ``@``; an e-mail or an internal address
  when those are not redacted): what the full pass gives, for every setting.
- ``classify`` skips the mixed-group reading of a lone exception (no cause, context or
  member): no group whose members' verdicts differ can be in a chain of one.
- A record's ``exc_type`` is the class's name as ``type_name`` reads it, kept with the
  class's other facts; a lone builtin exception has no wait to read (a ``ToolError``
  whose class claims to be a builtin still gives its own).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples, full_pass

# Private imports, by design (internal units under test): each shortcut is compared with
# the long way it replaces.
from toolhygiene import _classify, _engine, _library, _reading, _redact
from toolhygiene._labels import is_secret_label

_GAP_PIECES = [
    *_redact._SQUEEZED_OUT, "%2", "0", "%", "&n", "bsp;", "&", "nbsp", "ignore", "new",
    "rules", "a", "\u00e9", "\u017f", "\ud800", "\uff0e", "\u3000", "\x0b", ",", "/",
]  # fmt: skip


@settings(max_examples=examples(1000), deadline=None)
@given(st.lists(st.sampled_from(_GAP_PIECES), max_size=16))
@example(["%2", "&nbsp;", "0"])  # the order of the long gaps matters: "%20" went first
@example(["&n", " ", "bsp;"])  # a long gap made by taking a short one out
@example(["%2", "\u00b7", "0"])
def test_squeezing_is_one_replace_per_gap_in_order(pieces: list[str]) -> None:
    lowered = "".join(pieces)
    fast, slow = _redact._squeezed(lowered), _redact._squeezed_slowly(lowered)
    assert fast == slow
    assert (fast is lowered) == (slow is lowered)  # "nothing squeezed out" is read by `is`


@settings(max_examples=examples(600), deadline=None)
@given(
    st.lists(
        st.sampled_from([w for _, words in _redact._GATE_WORDS for w in words])
        | st.text(alphabet="ab .%&\u00b7\ud800", max_size=4),
        max_size=12,
    )
)
def test_the_squeezed_gates_find_what_each_gate_alone_finds(parts: list[str]) -> None:
    squeezed = "".join(parts)
    both = _redact._squeezed_groups(squeezed)
    for kinds in (_redact._STEERING_GATES, _redact._ORDERS_GATES):
        assert both & set(kinds) == _redact._groups(kinds, squeezed)


_ADDRESS_PIECES = [
    "https://", "http://", "://", "api.example.com", "/v1/orders", "@", "user", ":", "pw",
    "jane@example.com", "10.0.0.7", "db.internal", "host.local", "192.168.1.1", " ", ";",
    "order ORD-100000", "C-10000", "token", "a" * 16, "Zq8" * 8, "'", "<", "(", ")",
]  # fmt: skip


@settings(max_examples=examples(800), deadline=None)
@given(st.lists(st.sampled_from(_ADDRESS_PIECES), max_size=12), st.booleans(), st.booleans())
def test_a_simple_text_with_only_unsearched_detectors_is_what_the_full_pass_gives(
    pieces: list[str], internals: bool, emails: bool
) -> None:
    text = "".join(pieces)
    before = th.configure(redact_emails=emails)
    try:
        fast = _engine.scrub(text, internals=internals)
        assert fast == full_pass(lambda: _engine.scrub(text, internals=internals))
        assert th.sanitize(text, 300) == full_pass(lambda: th.sanitize(text, 300))
    finally:
        th.configure(before)


def test_the_benchmark_line_takes_the_shortcut(monkeypatch: pytest.MonkeyPatch) -> None:
    """The failure path's own message: two detectors' needle (``://``), neither looked
    for (no ``@``): given back without a pass of the detectors. With no secret in the
    environment: a known value there (CI's machine has one) rules the shortcut out."""
    for name in [n for n in os.environ if is_secret_label(n) is True]:
        monkeypatch.delenv(name)
    text = (
        "connect to orders service failed for customer C-10000 while fetching order "
        "ORD-100000 from https://api.example.com/v1/orders; retried 0 times"
    )
    plan = _engine._plan()
    hits = plan.hits(text.lower())
    assert hits and _engine._simple_tokens(text, plan) == []
    assert not _engine._any_searched(plan, hits, text, True)
    assert _engine.scrub(text) is text


class _Listed(Exception):
    """An exception that lists members (itself, or none) without being a group."""

    def __init__(self, message: str, listed: Any) -> None:
        super().__init__(message)
        self.exceptions = listed


_LONE: list[Callable[[str], BaseException]] = [
    lambda m: ConnectionRefusedError(111, m),
    lambda m: PermissionError(13, m),
    lambda m: ValueError(m),
    lambda m: TimeoutError(m),
    lambda m: th.ToolError(m or "x", retryable=True),
    lambda m: _Listed(m, []),
    lambda m: _Listed(m, ()),
    lambda m: _Listed(m, "not a list"),
]


def _listing_itself(times: int) -> Callable[[str], BaseException]:
    def made(m: str) -> BaseException:
        exc = _Listed(m, [])
        exc.exceptions = [exc] * times
        return exc

    return made


@settings(max_examples=examples(400), deadline=None)
@given(
    st.sampled_from([*_LONE, *(_listing_itself(n) for n in (1, 2, 3))]),
    st.text(max_size=30),
    st.sampled_from([(), (th.Rule(ValueError, category=th.Category.UPSTREAM, retryable=True),)]),
)
def test_a_lone_exception_is_never_a_mixed_group(
    make: Callable[[str], BaseException], message: str, rules: tuple[th.Rule, ...]
) -> None:
    exc = make(message)
    chain = _reading.chain(exc, 64)
    assert len(chain) == 1
    assert _classify._mixed_group(exc, chain, rules, 300) is None
    failure = th.classify(exc, "t", rules=rules)
    assert failure.exc_type == _reading.type_name(exc)


class _Disguised(th.ToolError):
    """A ToolError whose class says it is a builtin."""


_Disguised.__module__ = "builtins"


def test_a_tool_error_disguised_as_a_builtin_keeps_its_wait() -> None:
    """The lone-builtin shortcut (no headers, so no wait) is not taken for a ToolError."""
    failure = th.classify(_Disguised("busy", retryable=True, retry_after=7))
    assert failure.retry_after == 7
    assert failure.exc_type == "_Disguised" == _reading.type_name(_Disguised("x", retryable=True))


@pytest.mark.parametrize(
    "cls", [ValueError, ConnectionRefusedError, th.ToolError, _Listed, type("Made", (OSError,), {})]
)
def test_the_kept_name_is_the_one_read_now(cls: type) -> None:
    assert _library.type_facts(cls).name == _reading.qualified_name(cls)
    assert _library.facts_of(cls) == _library.type_facts(cls)


@settings(max_examples=examples(300))
@given(st.text(alphabet="0123/:abcdefg9 xv", max_size=80),
       st.sampled_from(["0/", "1/", "2/"]),
       st.text(alphabet="0123456789", min_size=0, max_size=20),
       st.text(alphabet="0123456789abcdef", min_size=32, max_size=32))
def test_a_detectors_screen_is_found_wherever_the_detector_matches(
        before: str, head: str, digits: str, hexes: str) -> None:
    """A screen only skips texts the detector could not match: every match of every
    detector with a screen holds the screen (here the Asana token, needles ``0/``-``2/``)."""
    token = head + (f"{digits}:" if digits and head != "0/" else "") + hexes
    text = before + " " + token
    for detector in _engine._plan().detectors:
        if detector.screen is not None:
            for m in detector.pattern.finditer(text):
                assert detector.screen.search(m.group()) is not None
