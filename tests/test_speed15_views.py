"""speed15's shortcuts give what the code they replace gave.

Each rewritten function is compared with the old one, kept here as the oracle, by a
hypothesis property over text made of the pieces the shortcut is about."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from helpers import pieces

# Private imports, by design: each shortcut is compared with the code it replaces.
from toolhygiene import _engine, _normalise, _orders
from toolhygiene._normalise import MARKS


def _written_view_slowly(text: str) -> tuple[str, list[_engine._Unit]] | None:
    """``_written_view(text, marks=True)`` as it read every match in Python (the oracle)."""
    parts: list[str] = []
    units: list[_engine._Unit] = []
    last = shift = 0
    for m in _engine._WRITTEN_OR_MARK.finditer(text):
        chars = "" if MARKS.match(m.group()) else _engine._character(m.group())
        if chars is None:
            continue
        start, end = m.span()
        parts.append(text[last:start])
        parts.append(chars)
        units.append((start - shift, len(chars), start, end))
        shift += end - start - len(chars)
        last = end
    if not units:
        return None
    parts.append(text[last:])
    return "".join(parts), units


marked = pieces(
    "Cafe",
    "e\u0301",
    "\u0301",
    "\u0308\u0301",
    "\u20dd",
    "\ufe20",
    "\u1ab0",
    "_2024_Q1.xlsx",
    "9",
    "Z",
    "\u00e9",
    "\u0645",
    "\u200d",
    "\U0001f468",
    " ",
    "\n",
    "&#83;",
    "&amp;",
    "\\u0053",
    "\\x41",
    "\\",
    "&",
)


@given(marked)
def test_marks_view_is_the_loop(text: str) -> None:
    assert _engine._written_view(text, True) == _written_view_slowly(text)


def test_marks_view_places() -> None:
    text = "Cafe\u0301_Q1 x\u0301\u0308y \u00e9\u0301 9\u20dd"
    view = _engine._written_view(text, True)
    assert view == _written_view_slowly(text)
    assert view is not None and view[0] == "Cafe_Q1 xy \u00e9\u0301 9"


_BACK = str.maketrans({"\ue000": "\u200c", "\ue001": "\u200d"})


def _kept_joiners_slowly(text: str) -> str:
    """``_normalise._kept_joiners`` as it was: a sub for the joiners left and a
    translate through a dict for the held ones (the oracle)."""
    if "\ue000" in text or "\ue001" in text:
        return _normalise._JOINER.sub(_normalise._joiner_kept, text)
    text = _normalise._LATIN_JOINER.sub("", text)
    for joiner, held in _normalise._HELD.items():
        if joiner in text:
            text = _normalise._KEPT[joiner].sub(held, text)
    return _normalise._JOINER.sub("", text).translate(_BACK)


joined = pieces(
    "a",
    "Z",
    "9",
    " ",
    "\n",
    "\u200c",
    "\u200d",
    "\u0645\u06cc",
    "\u06a9",
    "\u0928\u094d",
    "\u0d28\u0d4d",
    "\u05d0",
    "\U0001f468",
    "\U0001f469",
    "\u2640",
    "\ufe0f",
    "\u00e9",
    "\u4e2d",
    "\ue000",
    "\ue001",
)


@given(joined)
def test_kept_joiners_is_the_translate(text: str) -> None:
    assert _normalise._kept_joiners(text) == _kept_joiners_slowly(text)


def test_kept_joiners_cases() -> None:
    for text in (
        "a\u200d" * 50,
        "\u200da\u200d\u200db\u200d",
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 a\u200cb",
        "\U0001f468\u200d\U0001f469\u200d\U0001f467 x\u200d",
        "\u0d28\u0d4d\u200d a",
    ):
        assert _normalise._kept_joiners(text) == _kept_joiners_slowly(text)


field_values = pieces(
    "Ubuntu",
    " 22.04",
    " LTS",
    "bob",
    " (id 42)",
    " paste the ssh key",
    " send it",
    " you are now",
    "?",
    ".",
    " New",
    " obey me",
    " s e n d",
    "\u0441",
    "\u4e2d\u6587\u5b57\u7b26\u4e32\u9577",
    " ",
    max_size=12,
)


@given(st.lists(st.tuples(field_values, st.integers(0, 8)), max_size=6))
def test_reads_as_field_memo_is_the_judgement(values: list[tuple[str, int]]) -> None:
    """The memo of ``_orders._reads_as_field`` answers what the judgement answers, for a
    value seen before as for a new one."""
    for value, words in [*values, *values]:
        assert _orders._reads_as_field(value, words) == _orders._reads_as_field.__wrapped__(
            value, words
        )
