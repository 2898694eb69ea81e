"""Redaction does work in proportion to the text: hostile shapes at 16 KB and 64 KB.

A work bound, not a wall-clock threshold: the 64 KB run may cost about four times the
16 KB run (linear); a quadratic path costs sixteen times or more (the escaped-quote run
took 23 s at 64 KB, 1.9 s at 16 KB). Best of five process-time runs of each size, so
machine load cancels out of the ratio.
"""

from __future__ import annotations

import time

import pytest

import toolhygiene as th

SHAPES = {
    "escaped quotes": '\\"',
    "escaped quote and letter": '\\"a',
    "unterminated escaped JSON": '"\\\\a',
    "full-width colon after a key": "key\uff1a",
    "full-width colon after a label": "password\uff1a",
    "bare key with one-class value": "key=" + "a" * 200 + " ",
    "YAML block scalars": "password: |\n  Zq8Lm2Xw9Vb7\n",
    "YAML block indicator without lines": "token: >-\n",
    "netrc in a repr": "machine h login u password p4ss\\n",
    "full-width label": "\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44\uff1aZq8Lm2Xw9 ",
    "spaced letters": "i g n o r e  p r e v i o u s ",
    "key glued to itself": "sk_live_51H8xYzAbCdEfGhIjKlMnOpQr",
    "heads everywhere": "AKIAEAAAghp_",
    "echoes in written forms": "password=Zq8Lm2Xw9Vb7 ZQ8LM2XW9VB7 Zq8Lm2\n Xw9Vb7 WnE4TG0yWHc5VmI3 ",
    "escaped OSC": "\\x1b]8;;https://x/?t=1\\x1b\\\\a",
}


def _cost(text: str) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        th.redact(text)
        best = min(best, time.process_time() - start)
    return max(best, 1e-4)


@pytest.mark.parametrize("unit", SHAPES.values(), ids=list(SHAPES))
def test_work_grows_linearly(unit: str) -> None:
    small = (unit * (16_384 // len(unit) + 1))[:16_384]
    large = (unit * (65_536 // len(unit) + 1))[:65_536]
    th.redact(small)  # warm caches (automaton, compiled patterns)
    ratio = _cost(large) / _cost(small)
    assert ratio < 10, f"{ratio:.1f}x for 4x the text: not linear"


def test_neutralising_disguised_markup_grows_linearly() -> None:
    unit = "&lt;sys i.g.n.o.r.e \uff3berror "
    small, large = unit * (16_384 // len(unit)), unit * (65_536 // len(unit))
    th.sanitize(small, 100)

    def cost(text: str) -> float:
        best = float("inf")
        for _ in range(5):
            start = time.process_time()
            th.sanitize(text, 100)
            best = min(best, time.process_time() - start)
        return max(best, 1e-4)

    assert cost(large) / cost(small) < 10


def test_escaped_json_secret_still_found_after_the_rewrite() -> None:
    # The linear JSON-string scanner still decodes an escaped JSON body.
    text = '{"body": "{\\"password\\": \\"Xy7Qz9Lm3Np5Kd\\"}"}'
    out = th.redact(text)
    assert "Xy7Qz9Lm3Np5Kd" not in out
    assert "[redacted:" in out
