"""Every shortcut taken for speed on the redaction engine and the failure line gives what
its slow path gives.

Each shortcut keeps its slow path next to it (the same function with the shortcut off, or
the pattern it replaces), and a hypothesis property compares the two over generated text
made of the pieces the shortcut is about: keywords, separators, written line breaks,
repeated runs, non-ASCII characters."""

from __future__ import annotations

import dataclasses
import json
import re

from hypothesis import given
from hypothesis import strategies as st

import toolhygiene as th
from helpers import pieces

# Private imports, by design (internal units under test): each shortcut is compared with the slow path it replaces.
from toolhygiene import _echo, _engine, _tokens, _words
from toolhygiene._detectors import NETRC_BEFORE, NETRC_WINDOW, netrc_context
from toolhygiene._errors import FailureStatus
from toolhygiene._labels import is_secret_label
from toolhygiene._redact import truncate

netrc_windows = pieces(
    "login",
    "LOGIN",
    "machine",
    "account",
    "default",
    "nigol",
    "password",
    "host.example",
    " ",
    "\t",
    "\n",
    "\\n",
    "\\t",
    "\\r",
    "\\",
    "x",
    "é",
    "_",
    "-",
    "a" * 120,
)


@given(netrc_windows)
def test_netrc_context_read_backwards_is_the_search(before: str) -> None:
    # The window is cut where the detector cuts it: a keyword cut in half is the same
    # for both.
    window = before[-NETRC_WINDOW:]
    assert netrc_context(window) == (NETRC_BEFORE.search(window) is not None)


def test_netrc_context_examples() -> None:
    assert netrc_context("machine api.example.com login bob ")
    assert netrc_context("'machine h\\nlogin u\\n")
    assert netrc_context("default ")
    assert not netrc_context("the relogin ")
    assert not netrc_context("login a b ")
    assert not netrc_context("")


views = pieces(
    " ",
    "\t",
    "\n",
    "\r",
    "\x0b",
    "\x0c",
    "\x1c",
    "\u2028",
    "\u00a0",
    "a",
    "Zq8",
    "\\",
    "\\n",
    "\\\\r",
    "\\t",
    "é",
    "x y",
    max_size=30,
)


def _reference(view: str) -> tuple[str, list[int], list[int]]:
    """The slow path: one match object per gap."""
    at: list[int] = []
    removed: list[int] = []
    total = 0
    for m in _echo._GAP.finditer(view):
        start, end = m.span()
        at.append(start - total)
        total += end - start
        removed.append(total)
    return _echo._GAP.sub("", view), at, removed


@given(views)
def test_gaps_measured_in_c_are_the_gaps_found_one_by_one(view: str) -> None:
    squeezed, at, removed = _reference(view)
    assert _echo.squeezed(view) == squeezed
    assert _echo.gaps(view) == (at, removed)


_RUNS = (
    "Q7vX2mK9pL4wR8tZ6nB3",
    "sk_live_51H8xYzAbCdEfGhIjKlMnOpQr",
    "AKIAIOSFODNN7EXAMPLE",
    "wJa1rXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKE",
    "Zq8Lm2Xw9Vb7password",
    "ghp_",
    "words",
    "MyVeryLongTestFileNameForCase42.py",
    "0123456789abcdef0123456789abcdef",
)
texts = pieces(*_RUNS, " ", "\n", "=", ":", "é", "\x00", "'", "/", max_size=30)


@given(texts)
def test_runs_seen_before_give_what_looking_again_gives(text: str) -> None:
    fast: list[_tokens.Span] = []
    slow: list[_tokens.Span] = []
    _tokens.find(text, fast)
    _tokens.find(text, slow, memo=False)
    assert fast == slow


def test_a_repeated_secret_is_redacted_at_every_repetition() -> None:
    # "paid" holds "id" (an id's key is looked for) but names none: "id <v>" is an id's
    # value since session 10 (tests/test_redact_s10.py), and stays
    unit = "paid Q7vX2mK9pL4wR8tZ6nB3 é"
    out = th.redact(unit * 500)
    assert "Q7vX2mK9pL4wR8tZ6nB3" not in out
    assert out.count("[redacted:") == 500
    assert re.fullmatch(r"(paid \[redacted:[a-z-]+\] é)+", out)


keyed_texts = pieces(
    "password",
    "api_key",
    "token",
    "pass",
    "key",
    "：",
    "=",
    ": ",
    " ",
    "\\n",
    "\\",
    "n",
    "é",
    "'",
    '"',
    "_",
    "-",
    ".",
    "%",
    "+",
    "x",
    "@",
    "--",
    max_size=30,
)


@given(keyed_texts)
def test_where_anchored_matches_begin_is_found_as_one_slice_at_a_time(text: str) -> None:
    plan = _engine._plan()
    ascii_text = text.encode("ascii", "replace")
    for index, needles in plan.hits(text.lower()).items():
        detector = plan.detectors[index]
        if detector.back:
            assert _engine._starts(detector, text, needles, ascii_text) == (
                _engine._starts_slowly(detector, text, needles)
            )


json_literals = pieces(
    '"', "\\", '\\"', "\\n", "\\u00e9", "\\ud800", "\\q", "a", " ", "\x01", "é", "1", max_size=12
)


@given(json_literals)
def test_json_literals_decode_as_json_loads_decodes_them(literal: str) -> None:
    try:
        loaded = json.loads(literal)
        expected = loaded if isinstance(loaded, str) else literal
    except ValueError:
        expected = literal
    assert _engine._json_decoded(literal) == expected


labelled_texts = pieces(
    "password",
    "token",
    "Bearer ",
    "machine h login u ",
    "api_key",
    "=",
    ": ",
    " ",
    "Zq8Lm2Xw9",
    "hunter2",
    "expired",
    "${X}",
    "\n",
    "  ",
    "|",
    "'",
    max_size=30,
)


@given(labelled_texts)
def test_verdicts_given_once_per_text_are_the_verdicts_given_each_time(text: str) -> None:
    judged = _engine._detect(text, True)
    plan = _engine._plan()
    unjudged = [dataclasses.replace(d, judged_by=()) for d in plan.detectors]
    try:
        _engine._current[:] = [(_engine._current[0][0], _engine._Plan(tuple(unjudged)))]
        each_time = _engine._detect(text, True)
    finally:
        _engine._current[:] = []
    assert judged == each_time


def _line_worded_eagerly(failure: th.Failure, cap: int) -> str:
    """The slow path of ``failure_line``: every stage worded before the first is tried,
    and the 'did not run' rewrite run on every message."""
    head = f"[error] {failure.tool}: {failure.label}."
    what = failure.message or "it failed"
    if failure.exc_type != _words.UPSTREAM_OPEN:
        what = _words._DID_NOT_RUN_ANY.sub("didn't run", what)
    what = _words._sentence(what)
    stages = (
        (_words._verdict(failure, False), _words._breaker(failure), _words._advice(failure)),
        (_words._verdict(failure, False), "", _words._advice(failure)),
        (_words._verdict(failure, True), "", _words._advice(failure)),
        (_words._verdict(failure, True), "", _words._advice(failure, compact=True)),
    )
    join = _words._join
    for verdict, remark, advice in stages:
        room = cap - len(join(head, verdict, remark, advice)) - 1
        if room >= min(len(what), _words._LEAST_OF_WHAT):
            return join(head, truncate(what, room), verdict, remark, advice)
    verdict, _, advice = stages[-1]
    room = cap - len(join(head, verdict)) - 1
    if room >= len(advice):
        return join(head, verdict, advice)
    return join(head, verdict, truncate(advice, room)) if room >= 8 else join(head, verdict)


messages = pieces(
    "did not run",
    "DID NOT RUN",
    "d\u0131d not run",
    "upstream ",
    "refused ",
    "x" * 60,
    "é",
    ". ",
    max_size=8,
)


@given(
    messages,
    st.sampled_from(list(th.Category)),
    st.booleans(),
    st.sampled_from(["failed", "repeated", "similar"]),
    st.booleans(),
    st.integers(min_value=40, max_value=400),
    st.sampled_from(["", "Search for it first"]),
)
def test_the_line_worded_stage_by_stage_is_the_line_worded_eagerly(
    message: str,
    category: th.Category,
    retryable: bool,
    status: FailureStatus,
    closes: bool,
    cap: int,
    instead: str,
) -> None:
    failure = th.Failure(
        tool="get_order",
        category=category,
        retryable=retryable,
        message=message,
        exc_type="ValueError",
        status=status,
        repeats=2,
        count=2,
        closes=closes,
        instead=instead,
    )
    assert _words.failure_line(failure, cap) == _line_worded_eagerly(failure, cap)


id_windows = pieces(
    "id",
    "ID",
    "Id",
    "ids",
    "IDs",
    "user",
    "request",
    "session",
    "api_key",
    "a" * 25,
    "b1" * 9,
    ":",
    "=",
    ": ",
    " ",
    "\t",
    '"',
    "'",
    "_",
    "-",
    "x",
    "é",
)


# A key, an id ending, a separator, then the value (where ``begin`` is): the shape the
# search is for, with noise before it.
keyed_ids = st.tuples(
    pieces("a", "_", "-", " ", ":", "é", max_size=4),
    st.sampled_from(["", "session_", "api_key_", "user", "x" * 45, "client-", "userI", "aB"]),
    st.sampled_from(["id", "ID", "Id", "ids", "IDs", "iD"]),
    st.sampled_from([":", "=", ": ", '": "', "' = '", ":\t\t\t", ":    "]),
).map("".join)


@given(
    st.one_of(
        keyed_ids.map(lambda text: (text, len(text))),
        id_windows.flatmap(lambda text: st.tuples(st.just(text), st.integers(0, len(text)))),
    )
)
def test_an_id_key_matched_from_its_one_start_is_the_search_from_every_start(
    case: tuple[str, int],
) -> None:
    text, begin = case
    found = _tokens._ID_KEY.search(text, max(0, begin - 48), begin)
    slow = found is not None and is_secret_label(found.group("key")) is False
    assert _tokens._id_value(text, begin) == slow


wrapped = pieces(
    "Q7vX2mK9pL4wR8tZ6nB3",
    "Zq8Lm2Xw9Vb7",
    "sk_live_51H8xYzAbCdEf",
    "GhIjKlMnOpQr",
    "password: |",
    "token=",
    "request_id=",
    "words here",
    "\n",
    "\\n",
    "  ",
    "\t",
    "/",
    ".",
    "é",
    "abcd",
    "x9",
    "Q",
    max_size=30,
)


@given(wrapped)
def test_joins_looked_at_run_by_run_are_the_joins_of_the_whole_view(text: str) -> None:
    assert _engine._unwrap(text) == _engine._unwrap(text, every_run=True)

