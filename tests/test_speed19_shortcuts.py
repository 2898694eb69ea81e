"""speed19a's shortcuts give what the code they replace gave.

Each rewritten pattern is compared with the old one (kept here as the oracle): the same
matches, at the same places, with the same groups, by ``finditer`` and by ``match`` at
each of the first places, over text made of the pieces the pattern turns on (its
literals, the characters its look-behinds read, the characters beyond ASCII that
``re.IGNORECASE`` folds). The gates put before a pattern are compared with the pattern
asked alone, and the word-like bound of ``is_random`` with the runs it bounds."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from helpers import pieces

# Private imports, by design: each shortcut is compared with the code it replaces.
from toolhygiene import _detectors, _engine, _labels, _public, _tokens

_OLD_GPG = re.compile(
    r"(?:(?<![A-Za-z0-9_\-])gpg: key "
    r"|(?<![A-Za-z0-9_\-])gpg:[ \t]{1,20}using [A-Za-z0-9]{2,10} key "
    r"|(?<![A-Za-z0-9_\-])(?:pub|sub|sec|ssb)[ \t]{1,8}[a-z0-9]{2,16}/"
    r"|--recv-keys?[ \t]{1,4}|(?<![A-Za-z0-9_\-])fpr:{9})(?:0x)?"
    r"(?P<id>[0-9A-F]{64}|[0-9A-F]{40}|[0-9A-F]{16}|[0-9A-F]{8})(?![0-9A-Za-z])"
)
_OLD_FLAG = re.compile(
    r"(?<![\w-])--(?P<key>[a-z0-9\-]{1,60})(?P<sep>[ \t]{1,5})"
    r"(?P<secret>[^\s\"'\-][^\s\"']{0,1023})",
    re.IGNORECASE,
)
_OLD_SHORT_P = re.compile(
    r"(?<![\w\-])-p(?P<sep>[ \t]{0,5})(?P<secret>[^\s\-\"',\]][^\s\"',\]]{0,1023})"
)
_OLD_BARE_MEMBER = re.compile(
    r"(\\{0,3}[\"'])([ \t]{0,5}:[ \t\r\n]{0,40})(\[redacted:[a-z0-9\-]{1,64}\])"
    r"(?=[ \t\r\n]{0,40}(?:[,}\]]|\Z))"
)
_OLD_BARE_ITEM = re.compile(
    r"(?<=[\[(,])([ \t\r\n]{0,40})(\[redacted:[a-z0-9\-]{1,64}\])(?=[ \t\r\n]{0,40}[,\])])"
)
_OLD_HEAD_GLUED = re.compile(r"(?<=[A-Za-z0-9_\-])(?:iVBORw0KGgo|/9j/|R0lGOD[dl]h|UklGR|JVBERi0)")
_OLD_LAST_BREAK = re.compile(r"[ \t\r\n:=\uff1a\"'`(\[][^ \t\r\n:=\uff1a\"'`(\[]*\Z")

_FLAG = next(
    d.pattern for d in _detectors.BUILT_IN if d.pattern.pattern.startswith("-(?<![\\w-]-)-")
)
_SHORT_P = next(
    d.pattern for d in _detectors.BUILT_IN if d.pattern.pattern.startswith("-(?<![\\w\\-]-)p")
)

_WORD_CHARS = ("a", "Z", "9", "_", "-", ".", "é", "\u0130", "\u017f", "\u212a", " ", "\t", "\n")


def _same(old: re.Pattern[str], new: re.Pattern[str], text: str) -> None:
    def seen(m: re.Match[str] | None) -> object:
        return (
            None
            if m is None
            else (m.span(), m.groups(), [m.span(g) for g in range(1, (m.re.groups or 0) + 1)])
        )

    assert [seen(m) for m in new.finditer(text)] == [seen(m) for m in old.finditer(text)]
    for at in range(min(len(text), 16)):
        assert seen(new.match(text, at)) == seen(old.match(text, at))


@given(
    pieces(
        "gpg: key ",
        "gpg:",
        " using RSA key ",
        "pub   rsa4096/",
        "sub ",
        "sec\tcv25519/",
        "ssb  ab/",
        "--recv-keys ",
        "--recv-key\t",
        "fpr:::::::::",
        "0x",
        "4AEE18F83AFDEB23",
        "4AEE18F8",
        "A" * 40,
        "B" * 64,
        "g",
        "p",
        "s",
        "f",
        *_WORD_CHARS,
    )
)
def test_gpg_ids_led_by_their_first_letter(text: str) -> None:
    _same(_OLD_GPG, _public._GPG, text)


@given(
    pieces(
        "--password",
        "--PASSWORD",
        "--token",
        "--user",
        "--",
        "-p",
        "-P",
        "-",
        "Pa55",
        "'",
        '"',
        ",",
        "]",
        "\u017f",
        *_WORD_CHARS,
    )
)
def test_flags_led_by_their_dash(text: str) -> None:
    _same(_OLD_FLAG, _FLAG, text)
    _same(_OLD_SHORT_P, _SHORT_P, text)


@given(
    pieces(
        "[redacted:secret]",
        "[redacted:a-1]",
        '"',
        "'",
        "\\",
        "\\\\",
        ":",
        ",",
        "[",
        "(",
        "]",
        ")",
        "}",
        "{",
        " ",
        "\t",
        "\n",
        "\r",
        "a",
    )
)
def test_bare_placeholders_led_by_a_character(text: str) -> None:
    _same(_OLD_BARE_MEMBER, _engine._BARE_MEMBER, text)
    # the item's pattern now matches the bracket or comma its look-behind read
    new_items = [(m.start(1) + 1, m.end(1), m.span(2)) for m in _engine._BARE_ITEM.finditer(text)]
    old_items = [(*m.span(1), m.span(2)) for m in _OLD_BARE_ITEM.finditer(text)]
    assert new_items == old_items
    assert (_engine._BARE_ITEM.search(text) is None) == (_OLD_BARE_ITEM.search(text) is None)
    member = r"\1\2\1\3\1"
    assert _engine._BARE_MEMBER.sub(member, text) == _OLD_BARE_MEMBER.sub(member, text)
    assert _engine._BARE_ITEM.sub(r'\1"\2"', text) == _OLD_BARE_ITEM.sub(r'\1"\2"', text)
    if "[redacted:" in text and '"' not in text and "'" not in text:  # the quote's gate
        assert _OLD_BARE_MEMBER.search(text) is None


@given(
    pieces(
        "iVBORw0KGgo",
        "/9j/",
        "R0lGODdh",
        "R0lGODlh",
        "UklGR",
        "JVBERi0",
        "i",
        "R",
        "U",
        "J",
        "/",
        *_WORD_CHARS,
    ),
    st.integers(0, 6),
    st.integers(0, 6),
)
def test_glued_picture_heads_led_by_their_first_character(text: str, skip: int, cut: int) -> None:
    _same(_OLD_HEAD_GLUED, _tokens._HEAD_GLUED, text)
    begin, end = min(skip, len(text)), max(0, len(text) - cut)
    new = _tokens._HEAD_GLUED.search(text, begin + 1, end)
    old = _OLD_HEAD_GLUED.search(text, begin + 1, end)
    assert (new and new.span()) == (old and old.span())


@given(
    pieces(
        " ",
        "\t",
        "\r",
        "\n",
        ":",
        "=",
        "\uff1a",
        '"',
        "'",
        "`",
        "(",
        "[",
        ")",
        "]",
        "a",
        "Zq",
        "é",
        "x" * 30,
    ),
    st.integers(0, 200),
)
def test_last_break_stepped_back_to(text: str, end: int) -> None:
    end = min(end, len(text))
    begin = max(0, end - 64)
    old = _OLD_LAST_BREAK.search(text, begin, end)
    new = _detectors._TO_LAST_BREAK.match(text, begin, end)
    assert (None if old is None else old.start() + 1) == (None if new is None else new.end())


@given(
    pieces(
        "$",
        "%",
        "#",
        "{",
        "{{",
        "}}",
        "<",
        "<<",
        ">",
        "!",
        "(",
        ")",
        "[",
        "]",
        "*",
        ".",
        "\u2022",
        "\u25cf",
        "\u2026",
        "env:",
        "ENV",
        "Ref",
        "resolve:",
        "sk_",
        "live",
        "ab",
        "DB_PASSWORD",
        "1234",
        "x",
        "s",
        "-",
        "_",
        "/",
        " ",
        "redacted:",
    )
)
def test_value_gates_hold_every_match(value: str) -> None:
    """A partial mask holds ``*``, ``.`` or a character beyond ASCII; a reference starts
    with one of ``_REFERENCE_STARTS``; a version and a detector's reference hold a dot
    (or ``::``); a signature key holds ``sig`` (ASCII keys)."""
    if _labels._PARTIAL_MASK.fullmatch(value):
        assert not value.isascii() or "*" in value or "." in value
    if _labels._REFERENCE.fullmatch(value):
        assert value[0] in _labels._REFERENCE_STARTS
    if _detectors._VERSION.fullmatch(value.lstrip("=")):
        assert "." in value
    if _detectors._REFERENCE.fullmatch(value):
        assert "." in value or "::" in value
    if value.isascii() and _detectors._SIGNATURE_KEY.search(value):
        assert "sig" in value.lower()


@given(st.text(alphabet="aAbBzZ019-_+/", min_size=20, max_size=400))
def test_wordy_bounds_the_word_like_runs(piece: str) -> None:
    """``_wordy`` marks every character a ``_WORDS`` match holds: its count bounds
    theirs, so a count below 80% is a sum below it."""
    classes = piece.encode("ascii").translate(_tokens._CLASSES)
    assert _tokens._wordy(classes).count(1) >= sum(map(len, _tokens._WORDS.findall(classes)))
