"""The labelled-values layer's shortcuts give what the long way gives.

Each property compares the new path with a reference kept here (the code as it was
before the shortcut, or a plain reading of what the shortcut claims):

- where a labelled value really ends (``_labelled_value_end``): the value's last letters
  are read back once and shared, and each reading is tried only where the character at
  the value's end lets it read anything;
- the needles of the plan grouped by needle in C (``_Plan.hits``), against one Python
  step a needle found;
- the anchored matches (``_engine._matches``) found over needles in order, skipping every
  needle inside the last match, against a match tried at each start;
- the labelled patterns with their key read atomically and each value's run tried first
  as one character class, against the patterns without those shortcuts;
- the ``.netrc`` detector matched at its needles at any density, against a scan; the
  YAML block scalar's key read atomically, against it read greedily;
- the cursor keys' pattern behind a lookahead of their first letters, against it without;
- a digit or a symbol in a piece found by one search, against one character at a time;
- the ``--password v`` detector skipped in text without ``--``, which it never matches.
"""

from __future__ import annotations

import bisect
import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples, pieces
from toolhygiene import _detectors, _engine, _tokens
from toolhygiene._detectors import (
    _CUTS,
    _DATA_HEAD,
    _DATA_REST,
    _KEY_WORD,
    _MORE,
    _MORE_WORDS,
    _PIECE,
    _SPACES,
    _SYMBOLS,
    _WORDS_START,
    _WRAPPED_WORDS,
    _wrapped_rest,
)
from toolhygiene._labels import plain_run, plausible_value, prose_run

# -- the reference: where a labelled value ends, as it was read before -------------------


def _passphrase_before(text: str, end: int) -> int:
    start = end
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    if start == end or (start > 0 and text[start - 1] not in " \t:=\uff1a"):
        return end
    m = _MORE_WORDS.match(text, end)
    if m is None:
        return end
    wrapped = _WRAPPED_WORDS.match(text, m.end())
    if wrapped is not None and not _KEY_WORD.match(text, m.end()):
        return wrapped.end()
    return m.end()


def _cut_rest_before(text: str, end: int) -> int:
    if text[end : end + 1] not in _CUTS:
        return end
    start, limit = end, max(0, end - 1024)
    while start > limit and not text[start - 1].isspace() and text[start - 1] not in "\"'=:\uff1a":
        start -= 1
    word = text[start:end].isalpha()
    while text[end : end + 1] in _CUTS:
        cut = text[end]
        if cut == "&" and text[end + 1 : end + 2] in ("", " ", "\t", "\n", "\r"):
            return end + 1  # (fix21a) a symbol ending the token: ``glacier-kite-57&``
        width = 1
        if cut == "\\":
            if text[end + 1 : end + 2] != "t":
                return end
            width = 2
        spaced = cut in _SPACES or width == 2
        if spaced and word:
            return end
        m = _PIECE.match(text, end + width)
        if m is None or text[m.end() : m.end() + 1] in ("=", "("):
            return end
        # a word or a number glued on by the character is more of the value when the
        # token ends with it (``password: 0000`0``; leak13; ``Xy7|q``, leak15)
        glued = not spaced and _detectors._glued_tail(text, cut, m.start(), m.end())
        if plain_run(m.group()) and not glued:
            return end
        piece = m.group()
        if "://" in piece or (cut == "<" and piece[:1] == "/"):
            return end
        if spaced and not any(c.isdigit() or c in _SYMBOLS for c in piece):
            return end
        end = m.end()
    return end


def _value_end_before(text: str, end: int) -> int:
    # fp15's and leak16's reading on past a placeholder to a token written after it
    # ("token: n/a Qx7pLm2R", "<unset>Qx7p"): the library's own step, tried first
    after = text[end : end + 1]
    if after and text[end - 1] in "])}>" and (after.isalnum() or after in "!@#$%^*+=/~_"):
        tail = _detectors._GLUED_RUN.match(text, end)  # leak17: a tail glued to a bracket
        if tail is not None:
            return end + len(tail.group().rstrip(".,:;!?"))
    if after in (" ", "\t", ":", "\uff1a"):  # leak17: a key and its value as a secret's
        nested = _detectors._nested_value(text, end)
        if nested != end:
            return nested
    if after in _detectors._PLACEHOLDER_GAPS or (after and text[end - 1 : end] in ")]}>"):
        token = _detectors._placeholder_rest(text, end)
        if token != end:
            return token
    head = text.rfind("data:", max(0, end - 140), end)
    if head != -1 and text[end : end + 1] in (";", ",") and _DATA_HEAD.fullmatch(text, head, end):
        m = _DATA_REST.match(text, end)
        return m.end() if m else end
    rest = _cut_rest_before(text, end)
    if rest != end:
        return rest
    if text[end : end + 1] in ("\n", "\r") or text.startswith(("\\n", "\\r"), end):
        token = _detectors._placeholder_rest(text, end)  # leak17: a token on the next line
        if token != end:
            return token
        wrapped = _wrapped_rest(text, end)
        if wrapped != end:
            return wrapped
    if text[end : end + 1] not in _WORDS_START:
        return end
    start = end
    while start > 0 and text[start - 1] in ".!?":
        start -= 1
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    if start < end and text[end - 1].isalpha() and _detectors._letter_token(text[start:end]):
        return end  # leak17: a token of letters alone ends there
    # letters ending a token (``…0a``, ``0000**TRUE``): no word; only letters after a
    # blank, a separator or an opening quote or bracket begin the value
    glued = start > 0 and text[start - 1] not in " \t:=\"'`([{<>,;|\uff1a"
    if start < end and not glued and not plausible_value(text[start:end], prose_allowed=True):
        more = _MORE.match(text, end)
        if more is not None and not prose_run(text[start : more.end()]):
            return _detectors._token_after(text, more.end())  # leak16: a token after them
        if more is not None and text[end : end + 1] in _detectors._PLACEHOLDER_GAPS:
            token = _detectors._token_after(text, end)  # leak16: prose, then a token
            if token != end:
                return token
    return _passphrase_before(text, end)


value_texts = pieces(
    "password=",
    "token: ",
    "abc",
    "Xy7",
    "Hunter2x",
    "expired",
    "must",
    "be",
    "horse",
    "correct",
    " ",
    "\t",
    "\n",
    "\r",
    "\\n",
    "\\r",
    "\\t",
    "\\",
    ".",
    "!",
    "?",
    ",",
    ";",
    ":",
    "\uff1a",
    "=",
    "&",
    "|",
    "(",
    ")",
    "<",
    ">",
    "</td>",
    "'",
    '"',
    "`",
    "{",
    "[",
    "data:",
    "data:image/png",
    "base64",
    "://",
    "/",
    "12",
    "9",
    "é",
    "\u01c5",
    "\u00b2",
    "\u212a",
    "x" * 30,
    "Zq8Lm2Xw9Vb7",
    max_size=24,
)


@settings(max_examples=examples(600), deadline=None)
@given(value_texts)
@example("x" * 30 + ".|Xy7")  # CI's hypothesis runs, session 11
@example("<token: Xy7")
@example("x" * 30 + "://password=")
@example(">Xy7")
def test_a_labelled_value_ends_where_it_ended_before_at_every_position(text: str) -> None:
    for end in range(len(text) + 1):
        assert _detectors._labelled_value_end(text, end) == _value_end_before(text, end), end


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(min_value=1000, max_value=1100), st.sampled_from(["a", "1", " ", "=", "é"]))
def test_a_word_of_letters_longer_than_a_value_is_read_as_before(size: int, head: str) -> None:
    # the value's longest reach (1,024 characters) inside a long run of letters
    text = head + "b" * size + " 9x9"
    for end in (size - 2, size, size + 1):
        assert _detectors._labelled_value_end(text, end) == _value_end_before(text, end)


def test_a_passphrase_and_a_token_after_a_label_end_as_they_did() -> None:
    assert th.redact("password: correct horse battery staple") == ("password: [redacted:secret]")
    assert th.redact("password: hunter2 was rejected") == (
        "password: [redacted:secret] was rejected"
    )
    assert th.redact("password=Pa55|word99 ok") == "password=[redacted:secret] ok"


# -- the plan's needles and the anchored matches ------------------------------------------


def _hits_before(plan: _engine._Plan, lowered: str) -> dict[int, list[int]]:
    found: dict[int, list[int]] = {i: [] for i in plan.always}
    if plan.automaton is None:
        return found
    for number, start, _ in plan.automaton.find_matches_as_indexes(lowered, overlapping=True):
        for index in plan.owners[number]:
            found.setdefault(index, []).append(start)
    return found


def _matches_before(
    detector: _detectors.Detector, text: str, needles: list[int], ascii_text: bytes
) -> list[re.Match[str]]:
    if detector.finder is not None:
        return detector.finder(text)  # its own reader, never the pattern (``SPAN``)
    if not detector.anchored or (detector.scan and len(needles) > _engine._DENSE):
        return list(detector.pattern.finditer(text))
    found, reach = [], -1
    for start in sorted(set(_engine._starts(detector, text, needles, ascii_text))):
        if start < reach:
            continue
        m = detector.pattern.match(text, start)
        if m is not None:
            found.append(m)
            reach = m.end()
    return found


keyed_texts = pieces(
    "password",
    "token",
    "secret",
    "key",
    "pass",
    "--",
    "-p",
    "=",
    ": ",
    ":",
    "\uff1a",
    " ",
    "\t",
    "\n",
    "\\n",
    "\\",
    "n",
    "'",
    '"',
    "_",
    "-",
    ".",
    "a",
    "Xy7",
    "x" * 45,
    "@",
    "://",
    ": |\n  ",
    "machine a login b ",
    "Authorization: Bearer ",
    "10.",
    "fc",
    "é",
    "\u212a",
    max_size=40,
)


def _as_before(text: str) -> None:
    plan = _engine._plan()
    lowered = text.lower()
    hits = plan.hits(lowered)
    before = _hits_before(plan, lowered)
    assert {i: sorted(at) for i, at in hits.items()} == {i: sorted(at) for i, at in before.items()}
    ascii_text = text.encode("ascii", "replace")
    for index, needles in hits.items():
        detector = plan.detectors[index]
        spans = [m.span() for m in _engine._matches(detector, text, needles, ascii_text)]
        assert spans == [m.span() for m in _matches_before(detector, text, needles, ascii_text)]


@settings(max_examples=examples(600), deadline=None)
@given(keyed_texts)
@example(": \n")  # a detector with a finder of its own (``SPAN`` as its pattern)
def test_needles_grouped_in_c_and_matches_skipping_needles_are_as_before(text: str) -> None:
    _as_before(text)


@settings(max_examples=examples(100), deadline=None)
@given(
    st.integers(min_value=1, max_value=3000),
    st.sampled_from(["password=", "key\uff1a", "--password ", "token=a ", "password: |\n  Zq8\n"]),
)
def test_a_repeated_label_is_matched_as_before_at_any_length(count: int, unit: str) -> None:
    _as_before((unit * (count // len(unit) + 1))[:count])


_LABELLED = next(
    d for d in _detectors.BUILT_IN if d.extend is _detectors._labelled_value_end and d.back == 40
)
_GLUED = next(
    d for d in _detectors.BUILT_IN if d.extend is _detectors._labelled_value_end and d.back == 0
)
# The labelled patterns as they were: the key read greedily, then given back a character
# at a time when no separator followed; each value's run read a character at a time.
_SHORTCUTS = (
    (r"(?=(?P<key>[\w.\-]{1,80}))(?P=key)", r"(?P<key>[\w.\-]{1,80})"),
    (r"\"[^\"\\\r\n]{0,1024}\"|", ""),
    (r"'[^'\\\r\n]{0,1024}'|", ""),
    (r"(?=(?P<run>[^\s\"',;&{}()\[\]<>`|\\]{1,1024}))(?P=run)(?!\\)|", ""),
)


def _before(pattern: re.Pattern[str]) -> re.Pattern[str]:
    source = pattern.pattern
    for new, old in _SHORTCUTS:
        if new.startswith("(?=(?P<key>") and pattern is _GLUED.pattern:
            continue
        assert new in source
        source = source.replace(new, old)
    return re.compile(source, pattern.flags)


_BEFORE = {id(d.pattern): _before(d.pattern) for d in (_LABELLED, _GLUED)}


def _groups(m: re.Match[str]) -> dict[str, tuple[int, int]]:
    """The spans of a match's groups (not the unquoted run's own, which only the
    shortcut has)."""
    return {name: m.span(name) for name in m.re.groupindex if name != "run"}


labelled_texts = pieces(
    "password",
    "token",
    "api_key",
    "PGPASSWORD",
    "x" * 79,
    "é",
    "\u212a",
    "-",
    ".",
    "_",
    "=",
    ":=",
    "=>",
    ":",
    "\uff1a",
    " ",
    "\t",
    "\n",
    "\\n",
    "\\",
    "'",
    '"',
    "]",
    "|",
    "->",
    " is ",
    " was ",
    "set to ",
    "abc",
    "Xy7",
    "<v>",
    "must",
    '\\"v\\"',
    "\\t",
    "\\x",
    "'",
    "`",
    ",",
    ";",
    "&",
    "(",
    "{",
    "[",
    "<",
    ">",
    "密码",
    "は",
    max_size=20,
)


@settings(max_examples=examples(600), deadline=None)
@given(labelled_texts)
def test_the_labelled_patterns_match_as_they_did_before_their_shortcuts(text: str) -> None:
    for detector in (_LABELLED, _GLUED):
        before = _BEFORE[id(detector.pattern)]
        for start in range(len(text) + 1):
            new, old = detector.pattern.match(text, start), before.match(text, start)
            assert (new and (new.span(), _groups(new))) == (old and (old.span(), _groups(old)))


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(min_value=1000, max_value=1100), st.sampled_from(["\\", "\\n", " ", "x", ""]))
def test_a_value_as_long_as_a_value_may_be_matches_as_before(size: int, tail: str) -> None:
    for text in (
        f"token={'x' * size}{tail}y",
        f'token="{"x" * size}{tail}"',
        f"密码={'x' * size}{tail}",
    ):
        for detector in (_LABELLED, _GLUED):
            new = detector.pattern.match(text)
            old = _BEFORE[id(detector.pattern)].match(text)
            assert (new and new.span()) == (old and old.span())


_NETRC = next(d for d in _detectors.BUILT_IN if d.name == "netrc-password")
netrc_texts = pieces(
    "password",
    "PASSWORD",
    "Password",
    "passwd",
    "machine",
    "login",
    "default",
    "x",
    "Zq8",
    " ",
    "\t",
    "\n",
    "\\n",
    "\\r",
    "\\t",
    "\\",
    "_",
    ".",
    "-",
    "=",
    ":",
    '"',
    "'",
    "2",
    max_size=30,
)


@settings(max_examples=examples(400), deadline=None)
@given(netrc_texts)
def test_netrc_passwords_matched_at_their_needles_are_what_a_scan_finds(text: str) -> None:
    # The detector is matched at its needles at any density (no scan): in ASCII text a
    # scan finds the same matches, at any number of needles.
    plan = _engine._plan()
    needles = plan.hits(text.lower()).get(plan.detectors.index(_NETRC), [])
    found = _engine._matches(_NETRC, text, needles, text.encode("ascii"))
    assert [m.span() for m in found] == [m.span() for m in _NETRC.pattern.finditer(text)]


# The cursor keys' pattern as it was, without the lookahead of first letters.
_CURSOR_KEY_BEFORE = re.compile(
    _tokens._CURSOR_KEY.pattern.replace("(?=[npcsr\\u017f])", "", 1), _tokens._CURSOR_KEY.flags
)
cursor_texts = pieces(
    "next",
    "Next",
    "NEXT",
    "prev",
    "previous",
    "page",
    "Page",
    "continuation",
    "pagination",
    "sync",
    "SYNC",
    "resume",
    "resumption",
    "scroll",
    "\u017fcroll",
    "cursor",
    "CURSOR",
    "_",
    "-",
    "token",
    "Token",
    "s",
    "=",
    ":",
    " ",
    "\t",
    '"',
    "'",
    "x",
    "\u212a",
    "\u0130",
    max_size=14,
)


@settings(max_examples=examples(400), deadline=None)
@given(cursor_texts)
def test_cursor_keys_are_found_where_they_were_before_their_first_letters_gate(
    text: str,
) -> None:
    assert _CURSOR_KEY_BEFORE.pattern != _tokens._CURSOR_KEY.pattern
    assert [m.span() for m in _tokens._CURSOR_KEY.finditer(text)] == [
        m.span() for m in _CURSOR_KEY_BEFORE.finditer(text)
    ]


@settings(max_examples=examples(400))
@given(st.text(alphabet=st.characters(max_codepoint=0x2FF), max_size=12))
def test_a_digit_or_a_symbol_is_found_as_one_character_at_a_time_finds_it(piece: str) -> None:
    expected = any(c.isdigit() or c in _SYMBOLS for c in piece)
    assert _detectors._digit_or_symbol(piece) is expected


_BLOCK = next(d for d in _detectors.BUILT_IN if d.gate[:2] == (": |", ": >"))
_BLOCK_BEFORE = re.compile(
    _BLOCK.pattern.pattern.replace(
        r"(?=(?P<key>[\w.\-]{1,80}))(?P=key)", r"(?P<key>[\w.\-]{1,80})", 1
    ),
    _BLOCK.pattern.flags,
)
block_texts = pieces(
    "password",
    "token",
    "x" * 79,
    "-",
    ".",
    "_",
    '"',
    "'",
    " ",
    "\t",
    ":",
    ": |",
    ": >",
    "|",
    ">",
    "+",
    "2",
    "#c",
    "\n",
    "\r\n",
    "\\n",
    "\\r",
    "  ",
    "Zq8",
    "é",
    "\\",
    max_size=20,
)


@settings(max_examples=examples(400), deadline=None)
@given(block_texts)
def test_yaml_blocks_with_the_key_read_atomically_are_found_as_before(text: str) -> None:
    assert _BLOCK_BEFORE.pattern != _BLOCK.pattern.pattern
    found = [(m.span(), _groups(m)) for m in _BLOCK.pattern.finditer(text)]
    assert found == [(m.span(), _groups(m)) for m in _BLOCK_BEFORE.finditer(text)]
    for start in range(len(text) + 1):
        new, old = _BLOCK.pattern.match(text, start), _BLOCK_BEFORE.match(text, start)
        assert (new and new.span()) == (old and old.span())


def _crossed_before(spans: list[_tokens.Span], at: int) -> bool:
    index = bisect.bisect_left(spans, (at,)) - 1
    return (index >= 0 and spans[index][0] < at < spans[index][1]) or any(
        start < at < end for start, end, _, _ in spans[max(0, index - 2) : index]
    )


@settings(max_examples=examples(400))
@given(
    st.lists(st.tuples(st.integers(0, 60), st.integers(0, 20), st.sampled_from("ab"))),
    st.lists(st.integers(0, 80), unique=True).map(sorted),
)
def test_wrap_points_crossed_are_found_in_one_pass_as_one_search_a_point_found_them(
    raw: list[tuple[int, int, str]], points: list[int]
) -> None:
    spans = sorted((start, start + width, name, 1) for start, width, name in raw)
    crossed = _engine._crossed(spans, points)
    assert crossed == {at for at in points if _crossed_before(spans, at)}


_FLAG = next(d for d in _detectors.BUILT_IN if d.requires == "--")


@settings(max_examples=examples(400))
@given(
    pieces(
        "--",
        "-",
        "\u2013",
        "password",
        "token",
        "secret",
        " ",
        "\t",
        "=",
        "x",
        "Zq8",
        "'",
        max_size=16,
    )
)
def test_a_flag_s_value_is_never_found_in_text_without_two_dashes(text: str) -> None:
    # ``_detect`` skips the ``--password v`` detector in such text: nothing is lost.
    if "--" not in text:
        assert _FLAG.pattern.search(text) is None
