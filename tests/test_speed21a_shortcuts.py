"""speed21a's shortcuts on a short failure line give what the code they replace gave.

Each is compared with the call it replaces, by a hypothesis property over text made of
the pieces it turns on: a failure record's slots set through their descriptors, the
lead screen's blanks made one space, ASCII printability read in one bytes pass."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from helpers import pieces

# Private imports, by design: each shortcut is compared with the code it replaces.
from toolhygiene import _reader, _redact
from toolhygiene._errors import Category, Failure
from toolhygiene._normalise import printable_ascii

_BLANKS = (" ", "  ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x85")
_WORDS = ("could", "you", "the", "ai", "said", "failed", "send", "X", "1", "'", "_", "\x00")


@given(pieces(*_BLANKS, *_WORDS, max_size=20))
def test_the_lead_screen_reads_blanks_as_one_space(text: str) -> None:
    """``may_lead`` answers as it did when it joined the text's split words: the same
    bytes are screened (its blanks each made a space, runs of them one)."""
    if not text.isascii():
        return
    squeezed = text.lower().encode("ascii").translate(_reader._BLANKS_AS_SPACES)
    if b"  " in squeezed or squeezed[:1] == b" " or squeezed[-1:] == b" ":
        squeezed = b" ".join(squeezed.split())
    assert squeezed == " ".join(text.lower().split()).encode("ascii")


@given(st.text(st.characters(max_codepoint=127)))
def test_printable_ascii_is_isprintable(text: str) -> None:
    assert printable_ascii(text) == text.isprintable()


def test_every_ascii_character_is_read_as_isprintable_reads_it() -> None:
    for code in range(128):
        assert printable_ascii(chr(code)) == chr(code).isprintable()


@given(st.text(max_size=40), st.booleans(), st.integers(0, 5))
def test_a_record_built_by_its_slots_is_the_one_init_builds(
    message: str, retryable: bool, count: int
) -> None:
    """``Failure._built`` and ``_evolved`` (every slot set by its descriptor, in field
    order) make the record ``Failure(...)`` makes."""
    values = {
        "tool": "get_order",
        "category": Category.CONNECTIVITY,
        "retryable": retryable,
        "message": message,
        "count": count,
        "attempted": {"id": [1, 2]},
    }
    built = Failure._built(values)
    assert built == Failure(**values)  # type: ignore[arg-type]
    assert built._evolved({"message": "x"}) == Failure(**{**values, "message": "x"})  # type: ignore[arg-type]


@given(pieces(*_reader._GATE_NEEDLES, *_BLANKS, *_WORDS, "\u00e9", "\ud800", "k", "e", max_size=20))
def test_the_reader_gate_opens_where_a_needle_is(text: str) -> None:
    """``reader_order_gate`` (one Aho-Corasick pass over UTF-8 bytes) opens exactly where
    one of its needles is in the text, as the search of each did."""
    assert _reader.reader_order_gate(text) == any(
        needle in text for needle in _reader._GATE_NEEDLES
    )


_HEADING_PIECES = (
    "#", "##", "###", " ", "\t", "\n", ":", "instruction", "instructions", "response",
    "system", "developer", "prompt", "message", "_", "-", "SYSTEM", "Instruction", "x",
    "inſtruction", "ſyſtem", "C", "issue ", "12",
)  # fmt: skip


@given(pieces(*_HEADING_PIECES, max_size=16))
def test_the_heading_gate_opens_wherever_the_heading_pattern_matches(text: str) -> None:
    """``_heading_word`` is a sure no: where the template heading pattern matches the
    text, its gate view holds one of the words."""
    if _redact._patterns().template_heading.search(text) is not None:
        assert _redact._heading_word(_redact._gate_view(text))
