"""A provider's key glued after an id's prefix (``toolu_``, ``call_``, ``req_``,
``chatcmpl-``, any ``word_`` or ``word-``) is still the key: an id's public shape
shelters no credential (cold-14b, defect A)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
import toolhygiene.testing as tt
from helpers import examples
from toolhygiene._providers import FAMILIES

_AWS = "AKIAUS3CJJALA6MHI22K"
_GOOGLE = "AIzaSyA1234567890abcdefghijklmnopqrstuv"
_PREFIXES = ("toolu_", "toolu_01", "call_", "call_x", "req_", "chatcmpl-", "msg_", "fc_")


def _key(family: int) -> st.SearchStrategy[str]:
    _, prefixes, rest = FAMILIES[family]
    body = re.sub(r"\(\?![^)]*\)", "", rest)  # the lookahead: the key ends the string
    return st.tuples(st.sampled_from(prefixes), st.from_regex(body, fullmatch=True)).map("".join)


keys = st.integers(0, len(FAMILIES) - 1).flatmap(_key)
id_prefixes = st.sampled_from(_PREFIXES) | st.from_regex(
    r"[a-z][a-z0-9]{0,10}[_-][A-Za-z0-9]{0,3}", fullmatch=True
)


@settings(max_examples=examples(200), deadline=None)
@given(id_prefixes, keys)
def test_any_key_glued_after_an_id_prefix_is_redacted(prefix: str, key: str) -> None:
    out = th.redact(prefix + key)
    assert key not in out
    assert "[redacted:" in out


def test_the_quoted_cases_in_every_place_a_string_is_written() -> None:
    for prefix in _PREFIXES:
        for key in (_AWS, _GOOGLE):
            assert th.redact(prefix + key).startswith("[redacted:")
            said = th.redact(f"request {prefix}{key} denied")
            assert key not in said and said.startswith("request [redacted:")


def test_a_call_id_holding_a_glued_key_is_written_redacted() -> None:
    @th.tool(retries=0)
    def boom(x: str) -> str:
        """Boom.

        Args:
            x: x.
        """
        raise ValueError(f"request toolu_{_AWS} denied")

    with tt.capture() as cap, th.Session([boom]) as session:
        result = session.call("boom", {"x": "1"}, call_id="toolu_" + _AWS)
    assert _AWS not in str(result)
    failed = [e for e in cap.events if e["event"] == "tool.failed"]
    assert failed and all(_AWS not in str(e) for e in cap.events)


def test_a_public_id_without_a_key_stays() -> None:
    for text in ("toolu_01A09q90qw90lq917835lq9", "call_abc123DEF456ghi789", "req_011CNHw9m"):
        assert th.redact(text) == text
