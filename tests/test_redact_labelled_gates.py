"""The labelled-values layer's per-text gates and one-match readings give what the long
way gives (session 9's speed work on the labelled shapes of ``redact_scaling``).

Each property compares the new path with a reference kept here, the code as it was
before the shortcut:

- a list of codes is read after a value only in a text that names ``codes`` at all
  (``_code_list``), against the value read back and the label looked for at each value;
- a next line that starts with a key ends a value at its line's end at once
  (``_wrapped_rest``), against the next line's run read and judged by ``never_rest``;
- a key after a space ends a value at once (before ``_cut_rest`` and the value's
  letters are read), against the piece after the space read and judged (followed by
  ``=``, or a key line by ``plain_run``);
- a name/value pair's detectors are searched only in a text holding ``value``, and
  ``token v`` only in one holding ``token`` and a blank (``Detector.also``), against
  the plan without those gates;
- the compatibility view of the redacted text is built from the view of the text the
  detectors read (``_engine._apply``) and handed to the echo layer, against the view
  made again from the redacted text.
"""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples, pieces
from toolhygiene import _detectors, _echo, _engine
from toolhygiene._detectors import (
    _CODES_LABEL,
    _CODES_MAX,
    _CUTS,
    _NEXT_CODE,
    _NEXT_LINE,
    _PIECE,
    _SHAPE,
    _SPACES,
    _WRAPPED_LINES,
    _digit_or_symbol,
    _glued_tail,
)
from toolhygiene._labels import code_value, line_rest, never_rest, plain_run
from toolhygiene._normalise import compatible

# -- the references: the code as it was ----------------------------------------------------


def _code_list_before(text: str, end: int) -> int:
    start = end
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "-"):
        start -= 1
    value = text[start:end]
    if not code_value(value) or not _CODES_LABEL.search(text, max(0, start - 24), start):
        return end
    shape = value.translate(_SHAPE)
    for _ in range(_CODES_MAX):
        m = _NEXT_CODE.match(text, end)
        if m is None or m[1].translate(_SHAPE) != shape:
            return end
        if text[m.end() : m.end() + 1].isalnum():
            return end
        end = m.end()
    return end


def _wrapped_rest_before(text: str, end: int) -> int:
    m = _NEXT_LINE.match(text, end)
    if m is None or never_rest(m["run"]):
        return end
    start = end
    while start > 0 and not text[start - 1].isspace() and text[start - 1] not in "\"'=:\uff1a":
        start -= 1
    value = text[start:end]
    for _ in range(_WRAPPED_LINES):
        if not line_rest(value, m["run"]):
            return end
        value, end = value + m["run"], m.end("run")
        m = _NEXT_LINE.match(text, end)
        if m is None or never_rest(m["run"]):
            return end
    return end


def _cut_rest_before(text: str, end: int, word: bool) -> int:
    if text[end : end + 1] not in _CUTS:
        return end
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
        if plain_run(m.group()) and (spaced or not _glued_tail(text, cut, m.start(), m.end())):
            return end  # (a word or a number glued on and ending the token goes: leak15)
        piece = m.group()
        if "://" in piece or (cut == "<" and piece[:1] == "/"):
            return end
        if spaced and not _digit_or_symbol(piece):
            return end
        end = m.end()
    return end


# -- a list of codes ----------------------------------------------------------------------

code_texts = pieces(
    "codes", "CODES", "Codes", "code\u017f", "CODE\u017f", "code", "recovery ", "backup_",
    ": ", "=", "\uff1a", '"', "'", "\\", " ", "\t", ",", ";", "\n", "\\n", "1234", "5678",
    "-", "ab12", "Xy9z", "8f3k-29dk", "x", "é", "\u212a",
    max_size=24,
)


@settings(max_examples=examples(600), deadline=None)
@given(code_texts)
def test_a_list_of_codes_ends_where_it_ended_before_at_every_position(text: str) -> None:
    for end in range(len(text) + 1):
        assert _detectors._code_list(text, end) == _code_list_before(text, end), end


def test_codes_are_read_under_a_plural_label_in_any_case_and_nowhere_else() -> None:
    assert th.redact("recovery codes: 1234-5678 8765-4321 2345-6789") == (
        "recovery codes: [redacted:secret]"
    )
    assert th.redact("RECOVERY CODES: 12345678, 87654321") == "RECOVERY CODES: [redacted:secret]"
    # the long s is an ``s`` to the label's pattern (read case-insensitively)
    text = "backup code\u017f: 1234-5678 8765-4321"
    assert _detectors._code_list(text, text.index(" 8765")) == len(text)
    # without a plural label the codes after the first are the text's own
    assert th.redact("recovery code: 1234-5678 8765-4321") == (
        "recovery code: [redacted:secret] 8765-4321"
    )


# -- a value's next line ------------------------------------------------------------------

line_texts = pieces(
    "\n", "\r\n", "\r", "\\n", "\\r\\n", "\\r", " ", "\t", "key", "KEY_2", "_", "x9", ".",
    "-", "=", "==", ":", "\uff1a", "'", '"', "<", ">", "`", "\\", "/", "://", "3f2a7d71",
    "deadbeef", "Xy7pQ2", "mN8rT4vB9kLw", "QUJDZA==", "never", "42ms", "é", "\u00b2",
    "x" * 40, "y" * 45,
    max_size=24,
)


@settings(max_examples=examples(800), deadline=None)
@given(line_texts)
def test_a_value_ends_its_line_where_it_did_before_at_every_position(text: str) -> None:
    for end in range(len(text) + 1):
        assert _detectors._wrapped_rest(text, end) == _wrapped_rest_before(text, end), end


@settings(max_examples=examples(800), deadline=None)
@given(line_texts)
def test_a_next_key_line_is_always_a_line_of_its_own(text: str) -> None:
    # the shortcut's claim itself: where it matches, the long way reads nothing on
    for end in range(len(text) + 1):
        if _detectors._NEXT_KEY_LINE.match(text, end):
            m = _NEXT_LINE.match(text, end)
            assert m is None or never_rest(m["run"]), end


def test_a_wrapped_value_still_runs_over_its_lines_and_stops_at_a_key_line() -> None:
    text = "DD_APP_KEY: 3f2a7d71c0e94b5a\n9b8c7d6e5f4a3b2c\nDD_SITE=datadoghq.com"
    assert th.redact(text) == "DD_APP_KEY: [redacted:secret]\nDD_SITE=datadoghq.com"
    assert th.redact("key_1=value_1a2b3c4d\nkey_2=value_5e6f7a8b\n") == (
        "key_1=[redacted:secret]\nkey_2=[redacted:secret]\n"
    )


# -- a value and a space ------------------------------------------------------------------

cut_texts = pieces(
    " ", "\t", "\\t", "&", "|", ";", ",", "(", ")", "<", "'", "key", "api_key", "_", "x9",
    "9", ".", "-", "=", ":", "\uff1a", "#", "!", "/", "://", "Ab3dEf", "hunter2", "never",
    "é", "\u00b2", "\u212a", "x" * 40, "y" * 45,
    max_size=24,
)


@settings(max_examples=examples(800), deadline=None)
@given(cut_texts, st.booleans())
def test_a_key_after_a_space_is_where_a_value_ended_before(text: str, word: bool) -> None:
    # the shortcut's claim itself: where it matches, the long way reads nothing on
    for end in range(len(text) + 1):
        if _detectors._SPACED_KEY.match(text, end):
            assert _cut_rest_before(text, end, word) == end, end
        assert _detectors._cut_rest(text, end, word) == _cut_rest_before(text, end, word), end


def test_a_key_after_a_space_ends_a_value_and_a_token_piece_does_not() -> None:
    assert th.redact("password=Ab3dEf6hIj api_key=Zq8Lm2Xw9Vb7 x") == (
        "password=[redacted:secret] api_key=[redacted:secret] x"
    )
    assert th.redact("password=Pa55 w0rd99! ok") == "password=[redacted:secret] ok"


# -- the compatibility view of the redacted text -------------------------------------------

wide_texts = pieces(
    "\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44", "\uff1a", "password", "token", "=",
    ": ", " ", "\n", "Zq8Lm2Xw9", "\uff3a\uff51\uff18\uff2c\uff4d\uff12", "\u0130", "\u212a",
    "\u017f", "\u00b2", "\u2460", "é", "\ufb01", "abc", "[", "]",
    max_size=20,
)
_NAMES = ("secret", "high-entropy", "email", "internal")


@st.composite
def _text_and_spans(draw: st.DrawFn) -> tuple[str, list[tuple[int, int, str, int]]]:
    text = draw(wide_texts)
    bound = st.integers(min_value=0, max_value=len(text))
    spans = []
    for _ in range(draw(st.integers(min_value=0, max_value=4))):
        a, b = draw(bound), draw(bound)
        spans.append((min(a, b), max(a, b), draw(st.sampled_from(_NAMES)), draw(st.integers(0, 2))))
    return text, spans


@settings(max_examples=examples(600), deadline=None)
@given(_text_and_spans())
def test_the_view_of_the_redacted_text_is_the_view_made_again(
    case: tuple[str, list[tuple[int, int, str, int]]],
) -> None:
    text, spans = case
    out, echoes, seen = _engine._apply(text, list(spans), compatible(text))
    assert (out, echoes) == _engine._apply(text, list(spans))[:2]
    assert seen == compatible(out)
    values = tuple(echoes) or ("Zq8Lm2Xw9",)
    names = tuple("[redacted:secret]" for _ in values)
    assert _echo.replace(out, values, names, seen) == _echo.replace(out, values, names)


def test_an_echo_written_full_width_is_found_after_a_full_width_label() -> None:
    text = (
        "\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44\uff1aZq8Lm2Xw9Vb7 and later "
        "\uff3a\uff31\uff18\uff2c\uff2d\uff12\uff38\uff37\uff19\uff36\uff22\uff17 again"
    )
    assert th.redact(text) == (
        "\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44\uff1a[redacted:secret] and later "
        "[redacted:secret] again"
    )


def test_a_value_allowed_after_a_full_width_label_stays_and_its_echo_too() -> None:
    # a span kept by ``never_redact``: the view of the result is made again from it
    label = "\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44\uff1a"
    text = f"{label}Zq8Lm2Xw9Vb7 {label}Hq4Tn7Rc2Wm5 again Zq8Lm2Xw9Vb7 and Hq4Tn7Rc2Wm5"
    th.never_redact("Zq8Lm2Xw9Vb7")
    try:
        assert th.redact(text) == (
            f"{label}Zq8Lm2Xw9Vb7 {label}[redacted:secret] again Zq8Lm2Xw9Vb7 and "
            "[redacted:secret]"
        )
    finally:
        th.clear_redactions()


# -- a name/value pair's second word ------------------------------------------------------

pair_texts = pieces(
    "key", "KEY", "name", "Name", "parameterkey", "ParameterKey", "value", "VALUE", "Value",
    "ParameterValue", "parameter_value", "=", " = ", ":", ": ", '"', "'", '\\"', ",", "\n",
    "\\n", " ", "- ", "{", "}", "<add ", "/>", "API_KEY", "DB_PASSWORD", "ApiKey",
    "Zq8Lm2Xw9Vb7", "hunter2", "x", "\u212a", "\u0130", "token", "TOKEN", "to\u212aen", "\t",
    "token=", "Qz9xLm2Rk7Wp4", "next page",
    max_size=30,
)


def _without_also() -> _engine._Plan:
    plan = _engine._plan()
    return _engine._Plan(
        tuple(dataclasses.replace(d, also=()) for d in plan.detectors),
        len(plan.detectors) - plan.user_from,
    )


@settings(max_examples=examples(800), deadline=None)
@given(pair_texts)
def test_a_pairs_second_word_gates_nothing_that_matches(text: str) -> None:
    plan = _engine._plan()
    for index, detector in enumerate(plan.detectors):
        assert all(word == word.lower() for word in detector.also)  # as the plan reads
        if detector.also:
            # the claim itself: every match holds one of the words, whatever its case
            for m in detector.pattern.finditer(compatible(text)):
                assert any(word in m.group().lower() for word in detector.also), index
    spans = sorted(_engine._detect(text, True))
    redacted = th.redact(text)
    saved = list(_engine._current)
    _engine._current[:] = [(saved[0][0], _without_also())]
    try:
        assert sorted(_engine._detect(text, True)) == spans
        assert th.redact(text) == redacted
    finally:
        _engine._current[:] = saved


def test_a_token_after_the_word_token_goes_in_any_case() -> None:
    assert th.redact("use TOKEN Qz9xLm2Rk7Wp4 for it") == "use TOKEN [redacted:credentials] for it"
    assert th.redact("to\u212aen\tQz9xLm2Rk7Wp4") == "to\u212aen\t[redacted:credentials]"
    assert th.redact("token=Qz9xLm2Rk7Wp4 x") == "token=[redacted:secret] x"


def test_a_name_value_pair_goes_in_any_case_and_a_key_without_one_reads_as_before() -> None:
    assert th.redact('{"name": "API_KEY", "VALUE": "Zq8Lm2Xw9Vb7"}') == (
        '{"name": "API_KEY", "VALUE": "[redacted:secret]"}'
    )
    assert th.redact('<add key="ApiKey" Value="Zq8Lm2Xw9Vb7"/>') == (
        '<add key="ApiKey" Value="[redacted:secret]"/>'
    )
    assert th.redact("- name: DB_PASSWORD\n  value: hunter2xyz") == (
        "- name: DB_PASSWORD\n  value: [redacted:secret]"
    )
    assert th.redact("name=build key=primary") == "name=build key=primary"
