"""The failure path's byte matchers (fail30) find what the text matchers find.

An ASCII text is one byte a character: the detectors' needles and neutralise's gate
words are looked for in its bytes by a DFA (a third cheaper on a short line than the
matcher of text), and a text with a few needle hits has them grouped one by one. Both
give what the long way gives, hit for hit and in the same order, on text built of the
needles themselves, their pieces and what lies around them (and past the few hits the
one-by-one grouping takes).
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from helpers import examples

# Private imports, by design (internal units under test): each matcher is compared with
# the matcher of text it stands in for.
from toolhygiene import _engine, _redact
from toolhygiene._text import valid

_PLAN = _engine._plan()
_NEEDLES = sorted({needle for detector in _PLAN.detectors for needle in detector.gate})
_GATE_WORDS = sorted({word for _, words in _redact._GATE_WORDS for word in words})
_KINDS = [
    _redact._ALL_GATES,
    _redact._SQUEEZED_GATES,
    _redact._STEERING_GATES,
    _redact._ORDERS_GATES,
]  # every gate neutralise reads
_AROUND = ["", " ", "/", ":", "=", "@", ".", "-", "_", "a", "1", "x", "\n", "%20", "&"]


def _pieces(words: list[str]) -> st.SearchStrategy[list[str]]:
    word = st.sampled_from(words)
    piece = word | word.map(lambda w: w[: len(w) // 2]) | word.map(lambda w: w[len(w) // 2 :])
    return st.lists(piece | st.sampled_from(_AROUND), max_size=60)


def _hits_of_text(lowered: str) -> dict[int, list[int]]:
    """``_Plan.hits`` as the matcher of text and the grouping by needle give them."""
    lowered = valid(lowered)
    found: dict[int, list[int]] = {i: [] for i in _PLAN.always}
    assert _PLAN.automaton is not None
    matches = _PLAN.automaton.find_matches_as_indexes(lowered, overlapping=True)
    by_needle: dict[int, list[int]] = {}
    for number, start, _ in matches:  # stable: each needle's places in text order
        by_needle.setdefault(number, []).append(start)
    for number in sorted(by_needle):
        for index in _PLAN.owners[number]:
            found.setdefault(index, []).extend(by_needle[number])
    return found


@settings(max_examples=examples(1000), deadline=None)
@given(_pieces(_NEEDLES))
@example(["://", "1/"])  # the benchmark's line: two hits, three detectors
@example(["ghp_", "ghp_"] * 20)  # past the few hits grouped one by one
def test_the_plans_hits_in_bytes_are_the_hits_in_text(parts: list[str]) -> None:
    lowered = "".join(parts).lower()  # ASCII unless a needle is not ("hasło")
    hits = _PLAN.hits(lowered)
    expected = _hits_of_text(lowered)
    assert hits == expected
    assert list(hits) == list(expected)  # the detectors in the same order too


@settings(max_examples=examples(1000), deadline=None)
@given(_pieces(_GATE_WORDS), st.sampled_from(_KINDS))
@example(["ignore", " ", "previous", " ", "instructions"], _redact._ALL_GATES)
def test_the_gate_words_in_bytes_are_the_words_in_text(
    parts: list[str], kinds: tuple[int, ...]
) -> None:
    lowered = "".join(parts).lower()
    gate = _redact._gate(kinds)
    expected = {gate.groups[number] for number, _, _ in gate.find(lowered, overlapping=True)}
    assert _redact._groups(kinds, lowered) == expected


# neutralise's screen: the squeezed text's groups stand for the text's own when they open
# no gate of their own (``_redact._gates``).
_SCREEN_PIECES = [
    *_GATE_WORDS, *_redact._SQUEEZED_OUT, "%2", "0", "&n", "bsp;", ":", "#", "<", "[", "'",
    "ig", "nore", "pre", "vious", "sys", "tem", "no", "w", "yo", "u", "a", "i", "x",
    *(w[: len(w) // 2] for w in _GATE_WORDS), *(w[len(w) // 2 :] for w in _GATE_WORDS),
]  # fmt: skip


def _opened(text: str, lowered: str, gates: set[int]) -> tuple[object, ...]:
    """Every gate ``_steps`` opens with the groups ``gates``."""
    return (
        _redact._ESCAPED in gates,
        ":" in lowered and _redact._ROLE in gates,
        _redact._steers(lowered, gates),
        ":" in lowered and _redact._new_orders(lowered, gates),
        _redact._orders_in(gates),
    )


@settings(max_examples=examples(2000), deadline=None)
@given(st.lists(st.sampled_from(_SCREEN_PIECES), max_size=24))
@example(["connection", " ", "refused", " ", "said", ":", "no", " ", "w"])  # "now" squeezed
@example(["sys", " ", "tem", ":", " ", "x"])  # a role's name squeezed: the screen opens
@example(["ig", " ", "nore", " ", "pre", ".", "vious", " ", "instruction"])
@example(["%3", " ", "c", "x"])  # an escaped bracket squeezed: the screen opens
def test_the_squeezed_screen_opens_the_gates_the_texts_own_words_open(
    pieces: list[str],
) -> None:
    text = "".join(pieces)
    lowered = _redact._gate_view(_redact._viewed(text).view)
    own = _redact._groups(_redact._ALL_GATES, lowered)
    squeezed = _redact._squeezed(lowered)
    assert own <= _redact._groups(_redact._ALL_GATES, squeezed)  # what the screen rests on
    gates = _redact._gates(lowered)
    assert own <= gates
    assert _opened(text, lowered, gates) == _opened(text, lowered, own)


def test_the_screen_is_in_effect_and_its_guard_refuses_words_a_squeeze_breaks() -> None:
    assert _redact._SQUEEZE_KEEPS_WORDS  # the gate words as they are: the screen is used
    gaps = _redact._SQUEEZED_OUT
    for word in ("new rules", "sys.tem", "a_b", "x%2", "0ab", "20ab", "x&n", "p;x", "&nbsp;x"):
        assert not _redact._keeps_words((word,), gaps), word
    assert _redact._keeps_words(("ignore", "%25", "&amp;", "u003c"), gaps)


_ASANA_SCREEN_BEFORE = re.compile(r"[012]/[0-9a-f]")
"""The Asana token's screen as it was written, a class tried at every character."""


@settings(max_examples=examples(1000), deadline=None)
@given(st.text(alphabet="0123/:abcdefg9 xv/", max_size=40))
@example("https://api.example.com/v1/orders")
@example("/0")  # nothing before the "/"
def test_the_asana_screen_from_its_slash_finds_what_the_screen_before_found(text: str) -> None:
    (asana,) = (d for d in _PLAN.detectors if d.name == "asana-token")
    assert asana.screen is not None
    found = asana.screen.search(text) is not None
    assert found == (_ASANA_SCREEN_BEFORE.search(text) is not None)
