"""The long-text shortcuts of the token layer and the detectors give what the long way
gives.

- Provider families are tried only where a whole prefix of theirs starts (one
  Aho-Corasick pass), not at every occurrence of a prefix's first two characters: the
  spans of every run are the spans found trying each such occurrence.
- A run with no provider's prefix that is one survivor (a plain hex digest, a UUID), or
  holds no piece the random-string layer judges, is skipped before it is looked at:
  ``find`` gives what looking at every run in full (``memo=False``) gives.
- Pagination cursors' keys are matched around each ``token``/``cursor`` written, not
  tried at every character: the values' starts are the ones the scan finds.
- A token wrapped over a line break is read atomically before the break: the joins
  found are the ones the pattern that gives characters back finds.
- ``user:password@host`` is found from its colons (``Detector.finder``): the matches
  are the ones its pattern's scan of the whole text finds.
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from helpers import examples
from toolhygiene import _engine, _tokens
from toolhygiene._detectors import BUILT_IN
from toolhygiene._positional import SPAN
from toolhygiene._providers import FAMILIES, by_head


def _pieces(*alphabet: str, max_size: int = 40) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(alphabet), max_size=max_size).map("".join)


_PREFIXES = sorted({prefix for _, prefixes, _ in FAMILIES for prefix in prefixes})


@settings(max_examples=examples(400))
@given(
    st.one_of(
        _pieces("EAKIA", "AK", "sk_", "sk-", "sk-ant-", "ghp_", "xox", "AIza", "pat", "ke",
                "pa", "1/", "1//0", "é", " ", "-", "Z", "s", "k"),
        st.text(max_size=40),
    )
)
def test_heads_are_every_position_where_a_prefix_starts(text: str) -> None:
    every = [at for at in range(len(text)) if text.startswith(tuple(_PREFIXES), at)]
    assert _tokens._heads(text) == every


def test_every_family_can_match_only_where_its_prefix_starts() -> None:
    # What makes trying a family at its prefixes only exact: its pattern opens with the
    # prefix written literally.
    for head, families in by_head().items():
        for _, pattern in families:
            prefix = next(
                p for _, prefixes, rest in FAMILIES for p in prefixes
                if pattern.pattern == re.escape(p) + rest
            )
            assert prefix.startswith(head) and len(prefix) >= 2


def _two_letter_heads(text: str) -> list[int]:
    """Where any family's first two characters occur: the places the layer tried."""
    heads = by_head()
    return [at for at in range(len(text) - 1) if text[at : at + 2] in heads]


_GLUED = (
    "AKIAIOSFODNN7EXAMPLE", "EAKIA", "AKIA", "sk_live_51H8xYzAbCdEfGhIjKlMnOpQr",
    "sk_live_", "sk-ant-api03-", "sk-", "ghp_", "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
    "xoxb-", "AIza", "pat", "0123456789abcdef", "deadbeef", "Q7vX2mK9pL4wR8tZ6nB3", "_",
    "-", "/", ".", "=", " ", "ABCDEF", "z", "9",
)


@settings(max_examples=examples(400))
@given(_pieces(*_GLUED, max_size=12))
def test_families_tried_at_their_prefixes_find_what_trying_every_head_finds(text: str) -> None:
    view = text.encode("ascii", "replace").translate(_tokens._TABLE)
    for begin, end in _tokens._runs(view):
        at_prefixes: list[_tokens.Span] = []
        at_heads: list[_tokens.Span] = []
        _tokens._run(text, begin, end, at_prefixes, _tokens._heads(text))
        _tokens._run(text, begin, end, at_heads, _two_letter_heads(text))
        assert at_prefixes == at_heads


_UUID = "123e4567-e89b-12d3-a456-426614174000"
_RUN_PIECES = (
    "0123456789abcdef0123456789abcdef", "0123456789ABCDEF", "deadbeef", "DEADBEEF", "aB",
    _UUID, _UUID.upper(), "-", "_", "+", "https://", "//", "/", ".", "=", "$", "~", ":",
    "sk_live_51H8xYzAbCdEfGhIjKlMnOpQr", "AKIAIOSFODNN7EXAMPLE", "JBSWY3DPEHPK3PXP",
    "GEZDGNBVGY3TQOJQ", "Q7vX2mK9pL4wR8tZ6nB3", "q7vx2mk9pl4wr8tz6nb3", "Q7VX2MK9PL4WR8", "orders", "ORD-88213", "example.com",
    '"uuid": "', '"sha": "', "id=", "next_page_token=", "data:image/png;base64,", " ",
    '"', "é", "Zq8Lm2Xw9Vb7", "v1", "2026-11-01T06", "AAAAC3NzaC1lZDI1NTE5",
    "iVBORw0KGgo", "/9j/", "R0lGODlh", "UklGR", "JVBERi0", "AAAAAAAAAAAAAAAA", ",",
    "data:audio/ogg;base64,", ".".join("abcdefghijklmnopqrstuvwxyz0123456"),
)


@settings(max_examples=examples(600))
@given(_pieces(*_RUN_PIECES, max_size=16))
@example("x " + ".".join("abcdefghijklmnopqrstuvwxyz0123456") + "iVBORw0KGgoAAAA y")
@example("iVBORw0KGgodeadbeef")
def test_runs_skipped_unread_are_runs_that_give_nothing(text: str) -> None:
    fast: list[_tokens.Span] = []
    slow: list[_tokens.Span] = []
    _tokens.find(text, fast)
    _tokens.find(text, slow, memo=False)
    assert fast == slow


def test_the_skipped_shapes_are_looked_at_when_a_prefix_is_in_them() -> None:
    key = "sk_live_51H8xYzAbCdEfGhIjKlMnOpQr"
    for text in (f"x {key} y", f"https://h.io/{key}/a", f"deadbeef{key}", f"{_UUID}-{key}"):
        spans: list[_tokens.Span] = []
        _tokens.find(text, spans)
        assert any(key in text[a:b] for a, b, _, _ in spans), text


_CURSOR_PIECES = (
    "next", "prev", "previous", "page", "continuation", "pagination", "sync", "scroll",
    "resumption", "_", "-", "token", "TOKEN", "Token", "cursor", "CURSOR", "s", '"', "'",
    " ", "\t", ":", "=", "x", "\u212a", "\u017f", "é", "\n",
)


_KEY_PREFIXES = ("next", "prev", "previous", "page", "continuation", "pagination", "sync",
                 "resume", "resumption", "scroll", "NEXT", "Continuation", "")
_cursor_keys = st.tuples(
    st.sampled_from(_KEY_PREFIXES), st.sampled_from(("", "_", "-")),
    st.sampled_from(("", "page", "page_", "Page-")), st.sampled_from(("token", "TOKEN", "cursor")),
    st.sampled_from(("", "s")), st.sampled_from(("", '"', "'")), st.sampled_from(("", " ", "\t" * 3)),
    st.sampled_from((":", "=", " ")), st.sampled_from(("", " ", "   ", "    ")),
    st.sampled_from(("", '"', "'")),
).map("".join)


@settings(max_examples=examples(600))
@given(st.lists(st.one_of(_cursor_keys, st.sampled_from(_CURSOR_PIECES)), max_size=12).map("".join))
def test_cursor_keys_matched_around_their_words_are_the_keys_the_scan_finds(text: str) -> None:
    lowered = text.encode("ascii", "replace").lower()
    scanned = {m.end() for m in _tokens._CURSOR_KEY.finditer(text)}
    assert _tokens._cursor_keys(text, lowered) == scanned


# (a finder of values by position returns ``SPAN`` matches over each value, no scan's)
_FOUND_BY = [d for d in BUILT_IN if d.finder is not None and d.pattern is not SPAN]
_AT_PIECES = (
    "bob", "b", ":", "pw", "Q7vX2mK9", "@", "host", "[::1]", "ü", "ß", "_", ".", "-", "/",
    "'", '"', "`", "<", " ", "\t", "\n", "mailto", "10", "x" * 70, "p" * 300, "a:b@c",
)


@settings(max_examples=examples(600))
@given(_pieces(*_AT_PIECES, max_size=20))
def test_detectors_found_by_their_finder_are_found_by_their_scan(text: str) -> None:
    assert _FOUND_BY
    for detector in _FOUND_BY:
        assert detector.finder is not None
        found = [(m.span(), m.groupdict()) for m in detector.finder(text)]
        assert found == [(m.span(), m.groupdict()) for m in detector.pattern.finditer(text)]


def test_a_base32_seed_after_a_separator_and_a_dash_is_a_secret() -> None:
    # Found by the property above: a piece's base32 seed was looked for only at the
    # piece's first character, so ``-`` or ``_`` before it hid it. (The span takes the
    # ``-`` or ``_`` glued to it, fp17: a placeholder leaves no stub of the value.)
    for text, seed in (
        ("otp a.-JBSWY3DPEHPK3PXP", "-JBSWY3DPEHPK3PXP"),
        ("otp a=__JBSWY3DPEHPK3PXP", "__JBSWY3DPEHPK3PXP"),
        ("-JBSWY3DPEHPK3PXP", "-JBSWY3DPEHPK3PXP"),
    ):
        spans: list[_tokens.Span] = []
        _tokens.find(text, spans)
        assert [text[a:b] for a, b, _, _ in spans] == [seed], text


_GIVING_BACK = re.compile(
    r"(?<![A-Za-z0-9_\-+/=.])([A-Za-z0-9_\-+/=.]{8,4096})"
    r"([ \t]{0,40}(?:\r?\n|(?:\\{1,2}r)?\\{1,2}n)[ \t]{0,40})"
    r"(?=([A-Za-z0-9_\-+/=.]{4,4096}))"
)
_WRAP_PIECES = (
    "Ab3dEf6hIj9kLm2n", "Zq8L", "abc", "=", "/", "-", " ", "\t", "\n", "\r\n", "\\n",
    "\\\\n", "\\r\\n", "\\", "r", "n", "é", ":", '"', "x" * 4100, "x" * 4088, "Zq8Lm2Xw",
)


@settings(max_examples=examples(600))
@given(_pieces(*_WRAP_PIECES, max_size=16))
def test_wraps_read_atomically_are_the_wraps_found_giving_characters_back(text: str) -> None:
    assert [(*m.groups(), m.span()) for m in _engine._WRAP.finditer(text)] == [
        (*m.groups(), m.span()) for m in _GIVING_BACK.finditer(text)
    ]
