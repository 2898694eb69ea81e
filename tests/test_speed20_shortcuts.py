"""Issue 12, speed20: each shortcut gives what the path it replaces gave.

1. A PEM block's header fields are read once (a lookahead): the same matches as the
   pattern that gave them back one at a time.
2. The wraps inside tables and certificates are found by bisection (``_covered``): the
   same as a pass over every range.
3. A value after a spaced label (``used key v``, ``password is v``) is judged once per
   text (``_spaced_value``): each match's verdict is the one judged afresh.
4. ``_nested`` reads a token's kind from ``lastgroup`` and takes a word whose first
   character starts no number as a word: the same values as before.
5. A code's qualifier word is read back with ``rstrip`` (``qualifier_before``): what the
   search found.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples
from toolhygiene import _detectors
from toolhygiene._engine import _covered
from toolhygiene._labels import _QUALIFIER, qualifier_before
from toolhygiene._nested import _LITERALS, _TOKEN, _scalar
from toolhygiene._public import PEM

GONE = "[redacted:secret]"

# -- 1. a PEM block's header fields, read once -------------------------------------------

# The pattern as it was: its fields a plain repetition, given back one at a time.
_BEFORE = re.compile(
    PEM.pattern.replace("(?=(?P<head>", "", 1).replace("{1,8}))(?P=head)", "{1,8}", 1)
)


def test_the_pattern_before_is_the_one_without_the_lookahead() -> None:
    assert "(?P<head>" not in _BEFORE.pattern and _BEFORE.pattern.count("{1,8}") == 1
    assert set(PEM.groupindex) - set(_BEFORE.groupindex) == {"head"}


_PEM_LINES = st.sampled_from(
    [
        "-----BEGIN CERTIFICATE-----",
        "-----BEGIN PUBLIC KEY-----",
        "-----END CERTIFICATE-----",
        "-----END PUBLIC KEY-----",
        "password: -----BEGIN CERTIFICATE-----",
        "Proc-Type: 4,ENCRYPTED",
        "Comment: a: b",
        "Comment: -----END CERTIFICATE-----",
        "DEK-Info: AES-128-CBC,0A1B",
        "MIIBszCCAVmgAwIBAgIU",
        "Ab3dEf6GhIjKlMnOpQr==",
        "abc:",
        "  MIIB  ",
        "",
        " ",
        "x\\y",
    ]
)


@settings(max_examples=examples(600), deadline=None)
@given(
    st.lists(_PEM_LINES, min_size=1, max_size=14),
    st.sampled_from(["\n", "\r\n", "\\n", "\\\\n", "\\r\\n"]),
)
def test_a_pem_block_matches_as_before(lines: list[str], brk: str) -> None:
    text = brk.join(lines)
    new, old = list(PEM.finditer(text)), list(_BEFORE.finditer(text))
    assert [m.span() for m in new] == [m.span() for m in old]
    for a, b in zip(new, old, strict=True):
        for group in ("type", "fields", "secret", "first", "lines"):
            assert a.span(group) == b.span(group)


# -- 2. points inside ranges, by bisection ------------------------------------------------


@settings(max_examples=examples(400), deadline=None)
@given(
    st.lists(st.tuples(st.integers(-5, 60), st.integers(-5, 60)), max_size=12),
    st.lists(st.integers(-10, 70), max_size=30),
)
def test_covered_is_a_pass_over_every_range(
    ranges: list[tuple[int, int]], points: list[int]
) -> None:
    inside = _covered(ranges)
    for point in points:
        assert inside(point) is any(a <= point < b for a, b in ranges)


# -- 3. a spaced label's value, judged once per text -------------------------------------

_LABELLED = [d.pattern for d in _detectors.BUILT_IN if d.check is _detectors._labelled]


def _fresh() -> None:
    _detectors._SPACED_SEEN = ("", {})
    _detectors._LABELLED_SEEN = ("", {})


_PIECES = st.sampled_from(
    [
        "used key ",
        "password ",
        "password is ",
        "token ",
        "PIN ",
        "machine h login u ",
        "qwertyuiopasdfghjklzxcvbnm",
        "Qx7pLm2R",
        "hunter2",
        "4821",
        "required",
        "`0",
        "|x9",
        " ",
        "\n",
        "recovery code ",
        "to git@host:x",
    ]
)


@settings(max_examples=examples(600), deadline=None)
@given(st.lists(_PIECES, min_size=2, max_size=16))
def test_a_spaced_value_judged_once_is_judged_as_afresh(pieces: list[str]) -> None:
    text = "".join(pieces)
    for pattern in _LABELLED:
        matches = list(pattern.finditer(text))
        _fresh()
        once = [_detectors._labelled(m) for m in matches]  # (the memo shared)
        afresh = []
        for m in matches:
            _fresh()
            afresh.append(_detectors._labelled(m))
        assert once == afresh
    _fresh()


def test_the_netrc_context_is_read_per_match() -> None:
    # one value, judged once, after ``password`` and a blank: the label's own in one
    # place, the .netrc entry's (its own detector) in the other
    text = "password Qx7pLm2Rt9\nmachine h login u password Qx7pLm2Rt9\n"
    assert th.redact(text) == (
        f"password {GONE}\nmachine h login u password [redacted:netrc-password]\n"
    )


# -- 4. a nested token's kind and value ----------------------------------------------------


def _scalar_before(token: re.Match[str]) -> tuple[Any, int, int]:
    escaped = token.group("eq")
    if escaped is not None:
        return escaped, *token.span("eq")
    quoted = token.group("q")
    if quoted is not None:
        start, end = token.span("q")
        return quoted[1:-1], start + 1, end - 1
    word = token.group("w")
    start, end = token.span("w")
    if word in _LITERALS:
        return _LITERALS[word], start, end
    try:
        return (float(word) if "." in word or "e" in word.lower() else int(word)), start, end
    except ValueError:
        return word, start, end


_TOKEN_TEXT = st.lists(
    st.sampled_from([*"ab0159e.E+-_:,{}[]\"'\\ \n\t", "\u0661", "\u00b2", "inf", "nan"]),
    max_size=24,
).map("".join)


@settings(max_examples=examples(1000), deadline=None)
@given(_TOKEN_TEXT)
def test_a_token_read_by_its_kind_is_read_as_before(text: str) -> None:
    position = 0
    while (token := _TOKEN.match(text, position)) is not None:
        kinds = [g for g in ("eq", "q", "p", "w") if token.group(g) is not None]
        assert kinds == [token.lastgroup]
        if token.lastgroup == "p":
            assert text[token.end() - 1] == token.group("p")
        else:
            kind = token.lastgroup
            assert kind is not None
            assert token.end(kind) == token.end() or kind == "eq"
            new, old = _scalar(token, kind), _scalar_before(token)
            assert new == old and type(new[0]) is type(old[0])
        position = token.end()


# -- 5. a code's qualifier, read back ------------------------------------------------------


@settings(max_examples=examples(1000), deadline=None)
@given(st.text(st.sampled_from(list("ab1Z -\t\n_\u00e9.")), max_size=70), st.data())
def test_a_qualifier_read_back_is_the_one_searched(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text)))
    m = _QUALIFIER.search(text, max(0, start - 28), start)
    assert qualifier_before(text, start) == (None if m is None else (m.group(1), m.start()))


def test_a_flood_of_certificates_under_a_label_is_read() -> None:
    unit = "password: -----BEGIN CERTIFICATE-----\n"
    assert th.redact(unit * 3) == f"password: {GONE} CERTIFICATE-----\n" * 3
