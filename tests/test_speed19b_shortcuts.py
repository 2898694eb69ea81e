"""speed19b's shortcuts give what the code they replace gave.

A lead's openings read in C (``_reader.may_lead``) say no only where the lead pattern
finds nothing; the polite pattern's "you" gate (``_redact._may_say_you``) stays open
wherever a "you" phrase of it matches; the places of sentence ends read once per text,
the possessive before a lead, and the verdicts cached by the text they read give what a
search of the text gave. Each is compared with the pattern or the call it replaces, by
a hypothesis property over text made of the pieces it turns on."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from helpers import pieces

# Private imports, by design: each shortcut is compared with the code it replaces.
from toolhygiene import _people, _reader, _redact
from toolhygiene._orders import _SENTENCE_END

_WORDS = (
    "could", "would", "can", "will", "you", "u", "it", "i", "we", "'d", "'ll", "'re", "be",
    "great", "if", "the", "this", "ai", "a.i.", "assistant", "model", "agent", "llm", "bot",
    "must", "now", "from", "as", "of", "today", "please", "note", "that", "send", "cc",
    "bcc", "don't", "dont", "do", "not", "tell", "user", "customer", "never", "ignore",
    "my", "previous", "email", "recommend", "suggest", "any", "all", "an", "a", "every",
    "each", "our", "your", "is", "to", "required", "effective", "starting", "with",
    "immediate", "effect", "quick", "favour", "remember", "feel", "free", "mind", "kindly",
    "paste", "share", "e-mail", "show", "need", "have", "should", "shall", "make", "sure",
    "are", "going", "forward", "said", "failed", "Bob's", "her", "x", "THE", "AI", "Could",
    "YOU", "1", "_",
)  # fmt: skip
_GAPS = (
    " ", "  ", "   ", "    ", "\t", " \t", "\n", ", ", ". ", "! ", "; ", "'", "_", "-", "/",
    "(", "", "\x0b", "\x1c", "%20", "&nbsp;", ".", "*", "\u2019", "\u00a0",
)  # fmt: skip

texts = pieces(*_WORDS, *_GAPS, max_size=30)


@given(texts, st.booleans())
def test_a_text_without_a_leads_opening_holds_no_lead(text: str, upper: bool) -> None:
    """``may_lead`` is a sure no: whenever it says no, ``_LEAD`` finds nothing."""
    text = text.upper() if upper else text
    if not _reader.may_lead(text):
        assert _reader.lead_pattern().search(text) is None


def test_every_lead_has_openings() -> None:
    """Every alternative of the lead pattern gives openings (else every text is read),
    none empty: the matcher is built."""
    assert _reader._lead_openings() is not None


@given(texts)
def test_the_polite_gate_stays_open_for_you(text: str) -> None:
    """Where the polite pattern matches a text whose polite words and "now" are absent
    (so only the addressed group opens its gate), ``_may_say_you`` is true."""
    viewed = _redact._viewed(text)
    lowered = _redact._gate_view(viewed.view)
    gates = _redact._gates(lowered)
    if _redact._POLITE_IN in gates or _redact._FROM_NOW_IN in gates:
        return
    if _redact._patterns().polite.search(viewed.view) is not None:
        assert _redact._may_say_you(lowered)


@given(pieces("a", " ", ".", "!", "?", ";", "\n", "\t", "x.", "\u2028", max_size=40), st.data())
def test_sentence_end_is_the_search(view: str, data: st.DataObject) -> None:
    pos = data.draw(st.integers(0, len(view) + 2))
    endpos = data.draw(st.integers(0, len(view) + 3))
    m = _SENTENCE_END.search(view, pos, endpos)
    assert _people._sentence_end(view, pos, endpos) == (-1 if m is None else m.end())


@given(pieces("my", "his", "her", "their", "Bob's", "Jo\u2019s", "x", " ", "\t", "  ", "_", "9",
              "-", "agent", max_size=25), st.data())  # fmt: skip
def test_the_possessive_is_the_search(view: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(view)))
    expected = _reader._POSSESSED.search(view, max(0, start - 30), start) is not None
    assert _reader._possessed(view, start) == expected


_OWNED_BEFORE = re.compile(_people._POSSESSIVE.pattern, _people._POSSESSIVE.flags)


@given(texts)
def test_persons_assistant_is_what_it_read(text: str) -> None:
    """The cached verdicts (owner, what is said, the sentence) give the uncached ones:
    each match of the orders pattern is judged as a fresh interpreter would."""
    view = _redact._viewed(text).view
    for m in _redact._patterns().orders.finditer(view):
        start = m.start()
        got = _people.persons_assistant(view, start)
        _people._owned.cache_clear()
        _people._said_by_a_person.cache_clear()
        _people._sentence_ends.cache_clear()
        assert _people.persons_assistant(view, start) == got
        the = _people._THE.match(view, start)
        at = the.end() if the is not None else start
        owned = _OWNED_BEFORE.search(view[max(0, at - 60) : at]) is not None
        assert _people._owned(view[max(0, at - 60) : at]) == owned


_LETTER_GAPS = ("", "", " ", ".", "-", "_", "*", "'", "(", "%20", "&nbsp;", "\x0b", "\x1c",
                "\u00b7", "\u2019", "\u00a0")  # fmt: skip


@st.composite
def spelled_you(draw: st.DrawFn) -> str:
    """A polite phrase of "you", its letters and words apart by gaps of any kind."""
    phrase = draw(st.sampled_from([p for p in _redact._POLITE_PHRASES if "you" in p]))
    words = [
        "".join(letter + draw(st.sampled_from(_LETTER_GAPS)) for letter in word)
        for word in phrase.split()
    ]
    body = draw(st.sampled_from((" ", "  ", "\t", "\n", ". "))).join(words)
    before = draw(st.sampled_from(("", "said ", "failed: ", "the AI ", "x")))
    return before + (body.upper() if draw(st.booleans()) else body)


@given(spelled_you())
def test_the_polite_gate_stays_open_for_a_spelled_you(text: str) -> None:
    test_the_polite_gate_stays_open_for_you.hypothesis.inner_test(text)  # type: ignore[attr-defined]
