"""Bytes a tool returns: UTF-8 text is read as its text (never base64 that the redactor
takes for a secret), binary as base64; a memoryview of a failure payload is a failure."""

from __future__ import annotations

import base64
import json

from hypothesis import given
from hypothesis import strategies as st

import toolhygiene as th

# Private imports, by design (internal units under test): the result encoder itself, property-tested against json.
from toolhygiene._results import to_json

TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs")) | st.sampled_from("\t\n\r"))


@given(text=TEXT, kind=st.sampled_from([bytes, bytearray, memoryview]))
def test_utf8_text_bytes_are_read_as_their_text(text: str, kind: type) -> None:
    assert json.loads(to_json(kind(text.encode()))) == text


@given(data=st.binary(min_size=1))
def test_bytes_that_are_not_text_are_base64(data: bytes) -> None:
    try:
        text = data.decode("utf-8")
        binary = any((ord(c) < 32 and c not in "\t\n\r") or ord(c) == 127 for c in text)
    except UnicodeDecodeError:
        binary = True
    read = json.loads(to_json(data))
    assert read == (base64.b64encode(data).decode() if binary else text)


def test_a_tool_returning_text_bytes_gives_the_model_the_text() -> None:
    @th.tool
    def tides(port: str) -> bytes:
        """Tides."""
        return b"tide table for brest, high water 14:05"

    outcome = th.Session([tides]).call("tides", {"port": "brest"})
    assert outcome.ok and outcome.content == '"tide table for brest, high water 14:05"'


def test_a_memoryview_of_a_failure_payload_is_a_failure() -> None:
    payload = (b'{"isError": true, "errorCategory": "business", "isRetryable": false, '
               b'"message": "no"}')

    @th.tool
    def delegate(q: str) -> memoryview:
        """Delegate."""
        return memoryview(payload)

    outcome = th.Session([delegate]).call("delegate", {"q": "a"})
    assert not outcome.ok and outcome.failure is not None
    assert outcome.content.startswith("[error] delegate: business. no. Not transient")
