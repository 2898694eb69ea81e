"""The linear JSON-string scanner still decodes an escaped JSON body.

The timing-ratio tests that were here (16 KB against 64 KB of hostile shapes) are
shapes of ``benchmarks/redact_scaling.py`` and ``benchmarks/neutralise_scaling.py``
now: a test asserts behaviour, never time.
"""

from __future__ import annotations

import toolhygiene as th


def test_escaped_json_secret_still_found_after_the_rewrite() -> None:
    text = '{"body": "{\\"password\\": \\"Xy7Qz9Lm3Np5Kd\\"}"}'
    out = th.redact(text)
    assert "Xy7Qz9Lm3Np5Kd" not in out
    assert "[redacted:" in out
