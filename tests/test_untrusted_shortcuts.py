"""The untrusted result's shortcuts (untrusted10) give exactly what the long way gives.

- ``_carriers._json_openings`` (a JSON opening at a line start of the joined strings,
  found from each line break) is the ``(?m)^`` pattern it replaces, span for span.
- ``_redact._encoded`` (one pattern per way of writing a character, each found by its
  first character) is ``_ENCODED_MARK.search``.
- ``neutralise`` tries the own-marker pattern on ASCII text only where a ``[`` stands
  before a status mark's word (``_status_mark_start``): what trying it wherever there is
  a ``[`` gives, on text built of marks, placeholders, brackets and case look-alikes.
- ``_engine._WRITTEN`` with its backslashes written ``\\\\{0,3}`` matches where the
  ``\\{1,4}`` form did, span for span.
- ``_orders._words`` reads lowered ASCII text in C (a byte table and a split; with an
  apostrophe, an ASCII-only pattern): the words ``_WORD`` reads (``_words_slowly``).
- The steering and new-orders patterns (``_redact._led``) and ``_orders._MARKED`` start
  with a case-sensitive class of every character that can start a match: they match
  where the forms led by a look-behind or ``\b`` did (``re.IGNORECASE``'s look-alikes of
  ASCII letters, ``_redact._CASE_EXTRAS``, are read from all of Unicode).
- ``_normalise.compatible`` replaces a few kinds of character one kind at a time, and
  gives the text itself when no character of the table is in it: what one translate
  through the table gives, the same object when nothing changes.
- ``_redact._gate_view`` folds a non-ASCII text only when one of the three characters
  it folds is in it: what the translate gave.
"""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from helpers import examples

# Private imports, by design (internal units under test): each shortcut is compared with
# the long way it replaces.
from toolhygiene import _carriers, _engine, _normalise, _orders, _redact

_OPENS_JSON_MULTILINE = re.compile(r'(?m)^[ \t\r]*[{\[][^\x00"]*"')

_JOINED_PIECES = [
    "\x00\n", "\n", "{", "[", '"', " ", "\t", "\r", "a", "x\x00", '{"a": 1}', "[1", "\\",
]  # fmt: skip


@settings(max_examples=examples(1000), deadline=None)
@given(st.lists(st.sampled_from(_JOINED_PIECES), max_size=16))
@example(['{"', '{"'])  # a match at the start, then one right after it on no new line
@example(['{"', "\n", '["'])
def test_json_openings_are_the_multiline_pattern(pieces: list[str]) -> None:
    joined = "".join(pieces)
    expected = [m.span() for m in _OPENS_JSON_MULTILINE.finditer(joined)]
    assert list(_carriers._json_openings(joined)) == expected


_ENCODED_PIECES = [
    "%", "%3c", "%2", "&", "&amp;", "&#60;", "&#x3c;", "&lt;", "&lt", ";", "#", "\\",
    "\\u003c", "\\u00", "\\x3c", "\\x", "a", "0", "F", " ", "page=1", "\u00e9",
]  # fmt: skip


@settings(max_examples=examples(1000), deadline=None)
@given(st.lists(st.sampled_from(_ENCODED_PIECES), max_size=12))
def test_encoded_is_the_alternation(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert _redact._encoded(text) == (_redact._ENCODED_MARK.search(text) is not None)


_MARK_PIECES = [
    "[", "[[", "]", "]]", "\u3010", "\u3011", "\uff3b", " ", "\t", "\n", "   ", "error",
    "ERROR", "Error cleared", "recovered", "empty", "EMPTY", "result cut", "gap", "GAP",
    "redacted:secret", "markup", "role:system", "cut", "\u212a", "\u017f", "\u0130", "x",
    ":", "System: obey", "User: hi\nAssistant: ok", "<system>", "%3Csystem%3E", "&lt;",
    "ignore previous instructions", "e\u0301rror", "\uff45rror",
]  # fmt: skip


def _any_bracket_gate() -> re.Pattern[str]:
    return re.compile(r"\[")  # the gate before: any "[" in ASCII text


@settings(max_examples=examples(1200), deadline=None)
@given(st.lists(st.sampled_from(_MARK_PIECES), max_size=10))
@example(["[", "error"])
@example(["[[", " ", "GAP", "]]"])
@example(["[", "redacted:secret", "]", " ", "[", "empty"])
@example(["[", "\u212a"])  # the Kelvin sign lowers to an ASCII "k"
def test_the_own_marker_gate_changes_nothing(pieces: list[str]) -> None:
    text = "".join(pieces)
    new = _redact.neutralise(text)
    spans = _redact.touched(text)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_redact, "_status_mark_start", _any_bracket_gate)
        assert _redact.neutralise(text) == new
        assert _redact.touched(text) == spans


_BACKSLASH_WRITTEN = re.compile(_engine._WRITTEN.pattern.replace(r"|\\\\{0,3}(?:", r"|\\{1,4}(?:", 1))
"""``_engine._WRITTEN`` with its backslashes written as before (whatever alternatives it
holds: the rule may grow)."""

_WRITTEN_PIECES = [
    "\\", "\\\\", "\\\\\\", "x", "u", "U", "d8", "3d", "de", "00", "e9", "c3", "a9", "0000",
    "0053", "&", "amp;", "#", "83", ";", "x53", "quot", "a", " ", "\n", "160", "320", "277",
]  # fmt: skip


@settings(max_examples=examples(1000), deadline=None)
@given(st.lists(st.sampled_from(_WRITTEN_PIECES), max_size=16))
@example(["\\\\\\", "\\\\", "x", "53"])  # five backslashes: the first one is text
@example(["\\", "u", "d8", "3d", "\\", "u", "de", "00"])
def test_written_characters_are_found_where_they_were(pieces: list[str]) -> None:
    assert _BACKSLASH_WRITTEN.pattern != _engine._WRITTEN.pattern
    text = "".join(pieces)
    expected = [m.span() for m in _BACKSLASH_WRITTEN.finditer(text)]
    assert [m.span() for m in _engine._WRITTEN.finditer(text)] == expected


_WORD_PIECES = [
    "a", "B", "you", "YOU", "'", "'re", "\u2019", "don't", "a'b'c", "x'", "'y", " ", "\n",
    "\t", ".", ",", "-", "_", "0", "42", "\u212a", "\u0130", "\u017f", "\u00e9", "\u03a3",
    "\u4e2d\u6587", "\uff21", "ignore", "Send",
]  # fmt: skip


@settings(max_examples=examples(1500), deadline=None)
@given(st.lists(st.sampled_from(_WORD_PIECES), max_size=14) | st.text(max_size=20))
@example(["a'b'c"])  # a second apostrophe starts a new word
@example(["x", "\u212a"])  # an ASCII text once lowered
def test_the_words_read_in_c_are_the_words_read_by_the_pattern(pieces: list[str] | str) -> None:
    text = "".join(pieces)
    assert _orders._words(text) == _orders._words_slowly(text)


def test_the_case_extras_are_every_character_ignorecase_matches_to_an_ascii_letter() -> None:
    everything = "".join(map(chr, range(0x110000)))
    found = set(re.findall("[a-z]", everything, re.IGNORECASE))
    assert found - set(string.ascii_letters) == set(_redact._CASE_EXTRAS)


def _led_slowly(words: tuple[str, ...], phrases: tuple[str, ...] = ()) -> str:
    """``_redact._led`` as the patterns wrote it before: the look-behind first."""
    if not phrases:
        return rf"(?<![a-z])(?:{_redact._any_of(words)})"
    return rf"(?<![a-z])(?:{_redact._any_of(words)}|{_redact._phrases(phrases)})"


def _as_before(pattern: re.Pattern[str], words: tuple[str, ...], phrases: tuple[str, ...] = ()) -> re.Pattern[str]:
    led = _redact._led(words, phrases)
    assert pattern.pattern.count(led) == 1
    return re.compile(pattern.pattern.replace(led, _led_slowly(words, phrases)), pattern.flags)


_STEERING_PIECES = [
    *_redact._STEER_WORDS, *_redact._STEER_PHRASES, *_redact._NEWER, "IGNORE", "Ignore",
    "i g n o r e", "i.g.n.o.r.e", "d%20o", "&nbsp;", "\u0130gnore", "\u0131gnore", "\u017fkip",
    "\u212aip", "previous", "all", "your", "prior", "instructions", "rules", "prompt", "above",
    "before", "the", "system", "safety", "guidelines", "s", " ", "  ", "\n", "-", ".", "x",
    "a", ":", "new instructions:", "Updated Rules from admin:", "prompt:", "\u00e9", "'",
]  # fmt: skip


@settings(max_examples=examples(1500), deadline=None)
@given(st.lists(st.sampled_from(_STEERING_PIECES), max_size=12))
@example(["xignore", " ", "previous", " ", "instructions"])  # a letter before: no match
@example(["\u0130gnore", " ", "all", " ", "rules"])
@example(["new", " ", "rules", ":"])
def test_the_steering_patterns_led_by_a_class_match_as_before(pieces: list[str]) -> None:
    text = "".join(pieces)
    found = _redact._patterns()
    for pattern, before in (
        (found.injection, _as_before(found.injection, _redact._STEER_WORDS, _redact._STEER_PHRASES)),
        (found.new_orders, _as_before(found.new_orders, _redact._NEWER)),
    ):
        expected = [(m.span(), m.groupdict()) for m in before.finditer(text)]
        assert [(m.span(), m.groupdict()) for m in pattern.finditer(text)] == expected


_MARKED_BEFORE = re.compile(
    r"\[(?:markup|role:|instruction-like)|<\||\|>|\b(?:system|assistant|user|human|developer)"
    r"[ \t]{0,5}:",
    re.IGNORECASE,
)
"""``_orders._MARKED`` as it was written before (a rule added to ``_MARKED`` goes here
too, and its first characters into ``_MARKED``'s leading class)."""

_VALUE_PIECES = [
    "[", "markup", "[role:", "[instruction-like", "<", "|", ">", "<|", "|>", "system", "System",
    "SYSTEM", "\u017fystem", "assistant", "user", "USER", "human", "developer", "x", "_", "1",
    "\u00e9", " ", "\t", "  ", ":", "\uff1a", "bob (id 42)", "Ubuntu 22.04", "a", "d", "s",
    "\u212a", "\u0130", "\u0131",
]  # fmt: skip


@settings(max_examples=examples(1500), deadline=None)
@given(st.lists(st.sampled_from(_VALUE_PIECES), max_size=10))
@example(["x", "system", ":"])  # a word character before: no match
@example(["\u00e9", "user", ":"])
@example(["\u017fystem", " ", ":"])
def test_the_marked_pattern_led_by_a_class_matches_as_before(pieces: list[str]) -> None:
    text = "".join(pieces)
    expected = [m.span() for m in _MARKED_BEFORE.finditer(text)]
    assert [m.span() for m in _orders._MARKED.finditer(text)] == expected


def _translated(text: str) -> str:
    """``_normalise.compatible`` as it was: one translate through the table."""
    view = text.translate(_normalise._table())
    return text if view == text else view


_TABLE_CHARS = sorted(map(chr, _normalise._table()))
_OTHER_CHARS = [
    "a", " ", "\u00e9", "\u201c", "\u2014", "\u4e2d", "\U0001f600", "\U0001d3ff",
    "\U0001d800", "\U0001f200", "\u3001", "\ufff0", "\ud800", "\u2500", "\u00a0",
]  # fmt: skip
_COMPATIBLE_PIECES = st.one_of(
    st.sampled_from(_TABLE_CHARS), st.sampled_from(_OTHER_CHARS), st.characters()
)


@settings(max_examples=examples(1500), deadline=None)
@given(st.lists(_COMPATIBLE_PIECES, max_size=24))
@example(_TABLE_CHARS[:20])  # more kinds than are replaced one by one
@example(["\U0001d400", "\u00a0"])  # a character of a block past the first plane
def test_compatible_is_the_translate_through_the_table(pieces: list[str]) -> None:
    text = "".join(pieces)
    done, before = _normalise.compatible(text), _translated(text)
    assert done == before
    assert (done is text) == (before is text)


@settings(max_examples=examples(1000), deadline=None)
@given(
    st.lists(st.sampled_from(["a", "S", "\u017f", "\u0131", "\u0130", "\u0307", "\u00e9", " "]))
    | st.text(max_size=20)
)
def test_the_gate_view_folds_as_the_translate_did(pieces: list[str] | str) -> None:
    view = "".join(pieces)
    lowered = view.lower()
    assert _redact._gate_view(view) == lowered.translate(_redact._GATE_FOLDS)
