"""Leak families left open after session 6's recheck of issue 12 (leak12): a labelled
value cut at a character a secret may hold, a value wrapped over lines, values in angle
brackets, XML attributes, command-line flags, ``user:pw@host`` without a scheme, prose
and non-English labels; and the over-redactions and forged marks of #9 and #11."""

from __future__ import annotations

import base64
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples

_ALNUM = string.ascii_letters + string.digits
# A secret a person writes: letters and digits mixed, too short for the random-token
# layer (only its label finds it).
HEADS = st.builds(
    lambda head, digit, tail: head + digit + tail,
    st.text(string.ascii_letters, min_size=3, max_size=6),
    st.sampled_from(string.digits),
    st.text(_ALNUM, min_size=2, max_size=5),
)
TAILS = st.builds(
    lambda head, digit: head + digit,
    st.text(string.ascii_lowercase, min_size=3, max_size=6),
    st.text(string.digits, min_size=2, max_size=3),
)
LABELS = st.sampled_from(
    ["password", "PASSWORD", "db_password", "api_key", "secret", "Secret", "token",
     "auth_token", "client_secret", "SECRET_KEY", "passwd"]
)
SEPARATORS = st.sampled_from(["=", ": ", " = ", "="])

# -- 1. a value is not cut at a character a secret may hold -------------------------------

# Every character the unquoted value pattern stops at, inside a value
INSIDE = "|)('<>}{[]\t&;,\\`\""


@settings(max_examples=examples(400), deadline=None)
@given(LABELS, SEPARATORS, HEADS, st.sampled_from(INSIDE), TAILS)
def test_a_value_is_redacted_whole_whatever_it_holds(
    label: str, sep: str, head: str, inside: str, tail: str
) -> None:
    text = f"{label}{sep}{head}{inside}{tail}"
    out = th.redact(text)
    assert head not in out and tail not in out, (text, out)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("(password=Hunter2x) retrying", ") retrying"),
        ("password=Hunter2x|grep ok", "|grep ok"),
        ("<td>password=Hunter2x</td>", "</td>"),
        ("{token: Qx7pLm2R}", "}"),
        ("'password=Hunter2x', 'user=bob'", "', 'user=bob'"),
        ("password=Hunter2x<br>next", "<br>next"),
        ("token=Qx7pLm2R\t42\tbob", "\t42\tbob"),
        ("f(token=Qx7pLm2R)", ")"),
        ("[secret=Qx7pLm2R] ok", "] ok"),
        ("password: Hunter2x was rejected", " was rejected"),
    ],
)
def test_the_text_after_a_value_still_reads(text: str, kept: str) -> None:
    out = th.redact(text)
    assert out.endswith(kept) and "Hunter2x" not in out and "Qx7pLm2R" not in out, out


# -- 2. a value wrapped over lines ------------------------------------------------------

@settings(max_examples=examples(300), deadline=None)
@given(
    LABELS,
    SEPARATORS,
    st.text(_ALNUM, min_size=8, max_size=12).filter(lambda v: any(c.isdigit() for c in v)),
    st.sampled_from(["\n", "\r\n", "\n  ", "\r\n  ", "\n\t", "\\n", "\\r\\n"]),
    st.builds(lambda a, b: a + b, st.text(_ALNUM, min_size=4, max_size=10), st.sampled_from(string.digits)),
)
def test_a_wrapped_value_goes_with_its_second_line(
    label: str, sep: str, first: str, wrap: str, rest: str
) -> None:
    text = f"{label}{sep}{first}{wrap}{rest}"
    out = th.redact(text)
    assert first not in out and rest not in out, (text, out)


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**32), st.integers(120, 400), st.sampled_from([64, 76]), LABELS)
def test_base64_wrapped_at_64_or_76_columns_goes_whole(
    seed: int, size: int, width: int, label: str
) -> None:
    blob = random.Random(seed).randbytes(size)  # a key's bytes: random, not shrunk to zeros
    encoded = base64.b64encode(blob).decode()
    lines = [encoded[i : i + width] for i in range(0, len(encoded), width)]
    text = f"{label}: " + "\n".join(lines) + "\nnext: line"
    out = th.redact(text)
    for line in lines:
        if len(line) >= 8:
            assert line not in out, (text, out)
    assert out.endswith("next: line"), out
