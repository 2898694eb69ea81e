"""speed18's shortcuts give what the code they replace gave.

Each rewritten step is compared with the old one (kept here as the oracle where it was
rewritten), by a hypothesis property over text made of the pieces the shortcut turns
on: escapes of printable ASCII and of anything else, bare and doubled ``%``, the marks
the selectors are written with; flow lists and bracketed values; placeholders and the
words after them."""

from __future__ import annotations

import re
from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from helpers import pieces

# Private imports, by design: each shortcut is compared with the code it replaces.
from toolhygiene import _detectors, _engine, _put_back
from toolhygiene._labels import bracketed_verdict, is_secret_label, plausible_value

_ESCAPES = re.compile(r"(?:%[0-9A-Fa-f]{2})+")

encoded = pieces(
    "%",
    "%2",
    "%25",
    "%2525",
    "%3D",
    "%3d",
    "%26",
    "%41",
    "%7F",
    "%7e",
    "%20",
    "%09",
    "%0A",
    "%0B",
    "%0D%0A",
    "%C3%A9",
    "%C3",
    "%E2%80%A8",
    "%ff",
    "%80",
    "%2541",
    "%253D",
    "%4",
    "%G",
    "%%31",
    "%4%31",
    "%34%31",
    "%a",
    "a",
    "4",
    "1",
    "=",
    "&",
    "token",
    "\x00",
    "\x01",
    "\x02",
    "\u00e9",
    "\u2028",
)


def _old_origins(
    segment: str, bytes_of: Callable[[re.Match[str]], str]
) -> tuple[str, list[int], list[int]] | None:
    """``segment`` decoded as ``_engine._url_decoded`` decodes it (up to three levels),
    with where in ``segment`` each decoded character was written (its first and past
    its last character)."""
    text = segment
    starts = list(range(len(segment)))
    ends = list(range(1, len(segment) + 1))
    for _ in range(3):
        out: list[str] = []
        new_starts: list[int] = []
        new_ends: list[int] = []
        last = 0
        for m in _ESCAPES.finditer(text):
            out.extend(text[last : m.start()])
            new_starts.extend(starts[last : m.start()])
            new_ends.extend(ends[last : m.start()])
            written = m.group()
            decoded = bytes_of(m)
            last = m.end()
            if len(decoded) * 3 == len(written) and decoded.isascii():
                # a character an escape (most runs): sliced, not walked
                out.extend(decoded)
                new_starts.extend(starts[m.start() : last : 3])
                new_ends.extend(ends[m.start() + 2 : last : 3])
                continue
            data = bytes.fromhex(written.replace("%", ""))
            chars = data.decode("utf-8", errors="surrogateescape")
            at = 0  # bytes of ``data`` read
            done = 0  # characters of ``decoded`` accounted for
            for char in chars:
                size = 1 if "\udc80" <= char <= "\udcff" else len(char.encode())
                base = m.start() + 3 * at
                # ``bytes_of`` gives the character, or its escapes as written
                piece = (
                    char if decoded.startswith(char, done) else written[3 * at : 3 * (at + size)]
                )
                if not decoded.startswith(piece, done):
                    return None
                done += len(piece)
                for _c in piece:
                    out.append(_c)
                    new_starts.append(starts[base])
                    new_ends.append(ends[base + 3 * size - 1])
                at += size
            if done != len(decoded):
                return None
        out.extend(text[last:])
        new_starts.extend(starts[last:])
        new_ends.extend(ends[last:])
        joined = "".join(out)
        if joined == text:
            break
        text, starts, ends = joined, new_starts, new_ends
    return text, starts, ends


@given(encoded)
def test_origins_are_the_loop(text: str) -> None:
    new = _put_back._decoded_with_origins(text, _engine._bytes_of)
    old = _old_origins(text, _engine._bytes_of)
    assert (None if new is None else (new[0], list(new[1]), list(new[2]))) == old


@given(encoded)
def test_a_level_unquoted_in_c_is_the_callback(text: str) -> None:
    for spread in (True, False):
        # (``spread`` only chooses the faster way: both ways must agree wherever it is met)
        decoded = _put_back.simply_unquoted(text) if spread else None
        if decoded is not None:
            assert decoded == _ESCAPES.sub(_engine._bytes_of, text)
    assert _put_back._simply_decoded(text + "a" * 3 * len(text), range(0), range(0)) is None or (
        _put_back.simply_unquoted(text + "a" * 3 * len(text))
        == _ESCAPES.sub(_engine._bytes_of, text + "a" * 3 * len(text))
    )


def test_a_run_of_pairs_is_put_back_as_written() -> None:
    # the shape the shortcut is for: a run of pairs, a secret in each (fix17b's D3)
    run = "q=" + "a%3D1%26token%3DXk9mQ2vLpZr4%26b%3D2%20" * 40
    out = _engine.scrub(run)
    assert "Xk9mQ2vLpZr4" not in out
    assert out.count("%26token%3D[redacted:secret]%26b%3D2%20") == 40


flows = pieces(
    "password",
    "tokens",
    "api_keys",
    "name",
    "=",
    ": ",
    "[",
    "]",
    ",",
    ", ",
    "Qx7pLm2RtY9w",
    "Ab3dEf6GhJ2k",
    "a",
    "db-password",
    "[redacted]",
    "\n",
    " ",
    "'",
    "{",
    max_size=30,
)


@given(flows)
def test_a_flow_list_without_a_comma_is_never_taken(text: str) -> None:
    # the screen skips the detector where no bracket holds a comma: then its finder
    # finds nothing there (nest19: a finder, each item judged)
    if _detectors.FLOW_SCREEN.search(text) is None:
        assert _detectors._flow_values(text) == []


@given(
    st.sampled_from(["password", "token", "api_key", "name", "key", "passwords", "note"]),
    st.sampled_from(
        ["[redacted]", "[a]", "****", "none", "n/a", "<unset>", "(hidden)", "[hunter2x]",
         "{{ pw }}", "${PW}", "Qx7pLm2R", "changeme", "[****]", "{0}"]
    ),
)
def test_a_placeholder_steers_past_as_before(key: str, value: str) -> None:
    bracketed = bracketed_verdict(value)
    real = plausible_value(value, prose_allowed=False) if bracketed is None else bracketed
    assert _detectors._steers_past(key, value) is (
        not real and is_secret_label(key) is not False
    )
