"""The token layer judges runs of letters and digits on views of the whole text, and
gives what judging each run alone gives.

- ``_plain_random`` (a run of letters and digits, judged without a copy of it: its class
  changes counted in one view, its word-like runs found in another) says what
  ``is_random`` says of the run.
- The class changes of any stretch are one count in ``_changes``' view: the six
  substring counts ``is_random`` makes.
- ``_wordy`` marks every character of every word-like run (``_WORDS``): fewer marks
  than 80% of a run is fewer characters in word-like runs.
- ``_Plain`` judges the first plain runs of a text on copies, the rest on views: the
  spans are the same wherever it switches.
- ``find`` (plain runs on the fast lane, every other run as before) gives what looking
  at every run in full (``memo=False``) gives, on texts of distinct random tokens too.
- A pagination cursor's ``token`` always follows a letter or a separator of
  ``_BEFORE_TOKEN``: a ``token`` after anything else is no key's.
"""

from __future__ import annotations

import re
import string

from hypothesis import example, given, settings
from hypothesis import strategies as st

from helpers import examples
from toolhygiene import _tokens
from toolhygiene._providers import FAMILIES

_ALNUM = string.ascii_letters + string.digits
_PARTS = (
    "Release", "Notes", "Q3", "FY2024", "deadbeef", "DEADBEEF", "JBSWY3DP", "EHPK3PXP",
    "2026", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "Hjtdlu", "krmq", "YRIWQUKMBY", "abc", "XYZ",
    "Get", "Value", "AKIA", "ghp", "sk", "AAAA", "sha256", "iVBORw0KGgo", "R0lGODlh",
    "Q7vX2mK9pL4wR8tZ6nB3", "0123456789", "GEZDGNBVGY3TQOJQ", "id", "ID", "x",
)
_RUNS = st.lists(
    st.one_of(
        st.text(alphabet=_ALNUM, min_size=1, max_size=14),
        st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", min_size=1, max_size=14),
        st.text(alphabet="0123456789abcdef", min_size=1, max_size=14),
        st.sampled_from(_PARTS),
    ),
    min_size=1,
    max_size=8,
).map("".join)
# What can stand before and after a run (never a token character).
_EDGES = st.sampled_from(["", " ", "é", '"', "x: ", "id: ", '"id": "', "\n", "€", ",", "u "])


def _views(text: str) -> tuple[bytes, bytes]:
    classes = text.encode("ascii", "replace").translate(_tokens._CLASSES)
    return classes, _tokens._changes(classes)


@settings(max_examples=examples(1000))
@given(_EDGES, _RUNS.filter(lambda run: len(run) >= _tokens.MIN_RUN), _EDGES)
@example("", "Q7vX2mK9pL4wR8tZ6nB3", "")
@example("u ", "UUUlQ7vX2mK9pL4wR8tZ6nB3", " ")
@example("", "MyVeryLongTestFileNameForCase42", "")
@example("", "JBSWY3DPEHPK3PXP", "")
@example("", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "")
@example("", "0123456789abcdef0123456789abcdef", "")
@example("", "ReleaseNotesQ3FY2024Hjtdlukrmq", "")
def test_a_plain_run_is_judged_as_is_random_judges_it(before: str, run: str, after: str) -> None:
    text = before + run + after
    views = _tokens._plain_views(text.encode("ascii", "replace"))
    begin = len(before)
    end = begin + len(run)
    assert _tokens._plain_random(text, begin, end, views) == _tokens.is_random(run)


@settings(max_examples=examples(600))
@given(st.text(max_size=60), st.data())
def test_class_changes_are_one_count_of_the_changes_view(text: str, data: st.DataObject) -> None:
    classes, changes = _views(text)
    assert len(changes) == len(classes)
    begin = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(begin, len(text)))
    stretch = classes[begin:end]
    expected = sum(map(stretch.count, _tokens._CHANGES))
    assert changes.count(b"x", begin, max(begin, end - 1)) == expected


_TOKEN_TEXT = st.lists(
    st.one_of(
        _RUNS,
        st.sampled_from(
            [" ", "\n", "é", "id=", '"id": "', "next_page_token=", "data:image/png;base64,",
             "data:audio/ogg;base64,", "-", "_", "+", "/", ".", "=", ":", "https://h.io/",
             "sk_live_", "AKIAIOSFODNN7EXAMPLE", "AAAAC3NzaC1lZDI1NTE5", "sha512-", "$", "~"]
        ),
    ),
    max_size=24,
).map("".join)


@settings(max_examples=examples(800))
@given(_TOKEN_TEXT)
@example(" ".join(["Q7vX2mK9pL4wR8tZ6nB3", "id=Q7vX2mK9pL4wR8tZ6nB3", "Q7vX2mK9pL4wR8tZ6nB3"]))
@example('"id": "Q7vX2mK9pL4wR8tZ6nB3" Q7vX2mK9pL4wR8tZ6nB3')
@example("Q7vX2mK9pL4wR8tZ6nB3 \"id\": \"Q7vX2mK9pL4wR8tZ6nB3\"")
def test_find_on_distinct_runs_gives_what_looking_at_every_run_gives(text: str) -> None:
    fast: list[_tokens.Span] = []
    slow: list[_tokens.Span] = []
    _tokens.find(text, fast)
    _tokens.find(text, slow, memo=False)
    assert fast == slow


def test_a_random_run_after_an_id_key_and_the_same_run_bare() -> None:
    # The fast lane leaves an id's value unjudged and unremembered: the same run bare
    # (later in the text) is still judged, and goes.
    run = "Q7vX2mK9pL4wR8tZ6nB3"
    text = f'"id": "{run}" x {run}'  # ``id=…`` would be one run with the key
    spans: list[_tokens.Span] = []
    _tokens.find(text, spans)
    assert spans == [(text.rindex(run), len(text), "high-entropy", 1)]


def test_every_cursor_key_has_its_token_after_a_character_of_before_token() -> None:
    source = _tokens._CURSOR_KEY.pattern
    words = re.search(r"\(\?:\(\?:([a-z|]+)\)", source)
    assert words is not None
    for word in words.group(1).split("|"):
        for glue in ("", "_", "-"):
            for page in ("", "page", "page_", "page-"):
                key = f"{word}{glue}{page}token="
                assert _tokens._CURSOR_KEY.fullmatch(key), key
                assert key[-7].encode() in _tokens._BEFORE_TOKEN, key


@settings(max_examples=examples(600))
@given(_EDGES, _RUNS, _EDGES)
@example("", "ullxUllUUUUUUUUlddd", "")
def test_characters_in_word_like_runs_are_characters_wordy_marks(
    before: str, run: str, after: str
) -> None:
    text = before + run + after
    classes = text.encode("ascii", "replace").translate(_tokens._CLASSES)
    wordy = _tokens._wordy(classes)
    assert len(wordy) == len(classes)
    for m in _tokens._WORDS.finditer(classes):
        assert wordy[m.start() : m.end()] == b"\x01" * len(m.group())


def test_every_prefix_is_made_of_token_characters() -> None:
    # What lets ``_plain_view`` mark a prefix's start only: a prefix that starts in a
    # run ends in it (the run ends at a character no prefix holds).
    token = (_tokens._LETTERS + _tokens._SEPARATORS).decode()
    for _, prefixes, _ in FAMILIES:
        for prefix in prefixes:
            assert len(prefix) >= 2 and not prefix.strip(token), prefix


_VIEW_PIECES = ("a" * 16, "a" * 21, "a" * 15, "a" * 5, "a", " ", " " * 40, " " * 90)


@settings(max_examples=examples(600))
@given(st.lists(st.sampled_from(_VIEW_PIECES), max_size=120).map("".join))
@example(("a" * 20 + " ") * 40)
@example(("a" * 20 + " ") * 31 + "a" * 16)
@example(("a" * 20 + " " * 60) * 40)
def test_runs_found_by_searches_or_by_one_scan_are_the_stretches(view: str) -> None:
    # Dense runs switch ``_runs`` from three searches a run to one regex scan.
    data = view.encode()
    stretches = [m.span() for m in re.finditer(b"a+", data) if m.end() - m.start() >= 16]
    assert _tokens._runs(data) == stretches


@settings(max_examples=examples(400))
@given(st.lists(st.tuples(_EDGES, _RUNS), max_size=8), st.integers(0, 9))
def test_plain_runs_judged_on_copies_then_on_views_give_the_same_spans(
    parts: list[tuple[str, str]], left: int
) -> None:
    # ``_Plain`` judges the first runs by ``is_random`` on copies, the rest on views.
    text = "".join(edge + " " + run for edge, run in parts) + " "
    view = text.encode("ascii", "replace").translate(_tokens._TABLE)
    runs = _tokens._runs(view)
    switching = _tokens._Plain(text, text.encode("ascii", "replace"))
    switching.left = left
    copies = _tokens._Plain(text, text.encode("ascii", "replace"))
    copies.left = len(runs) + 1
    found: list[_tokens.Span] = []
    expected: list[_tokens.Span] = []
    for begin, end in runs:
        assert switching.spans(begin, end, found) == copies.spans(begin, end, expected)
    assert found == expected
    assert copies.views is None
