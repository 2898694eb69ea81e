"""Guard rails on the user's redaction rules (issue 12, outside review)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

import toolhygiene as th

TOKEN = "ghp_GoQA9GotOWXgvGMkTFw9RNFHH3fqwOsbDnF3"


@pytest.fixture(autouse=True)
def _clean() -> Iterator[None]:
    th.clear_redactions()
    yield
    th.clear_redactions()


@pytest.mark.parametrize("pattern", ["", "x?", "a*", "(?:)", r"(\w+\s?)*"])
def test_a_pattern_matching_nothing_is_refused(pattern: str) -> None:
    with pytest.raises(th.UsageError, match="empty string"):
        th.add_redaction("bad", pattern, gate="x")


@pytest.mark.parametrize(
    "pattern", [r"(a+)+$", r"(a*)*b", r"(\w+\s?)+x", r"((ab)*c)+", r"(?:x(?=a+))+", r"(a|b+)+c"]
)
def test_a_repeated_repetition_is_refused(pattern: str) -> None:
    with pytest.raises(th.UsageError, match="a quantifier inside a quantified group"):
        th.add_redaction("bad", pattern, gate="a")


@pytest.mark.parametrize(
    ("pattern", "shape"),
    [
        (r"(a|aa)+c", "an alternation whose branches can match the same text"),
        (r"(a|a)*b", "an alternation whose branches can match the same text"),
        (r"(ab|abab)+c", "an alternation whose branches can match the same text"),
        (r"(?:\d|\d\d)+x", "an alternation whose branches can match the same text"),
        (r"(.*a){12}", "a long quantifier inside a group repeated a fixed number of times"),
        (r"(?:\w+-){3}x", "a long quantifier inside a group repeated a fixed number of times"),
        (r"(?:.{0,40}a){2}", "a long quantifier inside a group repeated a fixed number of times"),
    ],
)
def test_the_shapes_of_catastrophic_backtracking_are_refused(pattern: str, shape: str) -> None:
    """cold-12: ``(a|aa)+c`` took 4.1 s on 34 characters, ``(a|a)*b`` 4.2 s on 24, and
    ``(.*a){12}`` repeats a repetition twelve times; each is refused, saying why."""
    with pytest.raises(th.UsageError, match=re.escape(shape)):
        th.add_redaction("bad", pattern, gate="a")


@pytest.mark.parametrize(
    "pattern",
    [
        r"(?:foo|bar|baz)+q",
        r"(?:a|ab)+c",
        r"(?:ab|ac|a)+q",
        r"(?:https?|ftp)://[a-z]{3}",
        r"(?:\d{1,3}\.){3}\d{1,3}",
        r"\"(?:\\.|[^\"\\])*\"",
        r"(?:cat|dog)+s",
        r"(?:xa|x[bc])+q",
    ],
)
def test_alternations_told_apart_by_a_character_are_accepted(pattern: str) -> None:
    """Branches that differ at some character (``bar``/``baz``), or where one is the
    other's start but its rest cannot start the group again (``a``/``ab`` before ``c``),
    backtrack linearly: accepted."""
    th.add_redaction("fine", pattern)


@pytest.mark.parametrize(
    "pattern", [r"acme_[0-9a-f]{24}", r"acme_id=(?P<secret>\w+)", r"(\d{3}-)+x", r"(a|b)+c"]
)
def test_linear_patterns_are_accepted_and_work(pattern: str) -> None:
    th.add_redaction("acme", pattern)
    sample = {"acme_[0-9a-f]{24}": "acme_" + "0a" * 12, "acme_id=(?P<secret>\\w+)": "acme_id=abc"}
    text = sample.get(pattern, "123-456-x abac")
    assert "[redacted:acme]" in th.redact(f"see {text} here")


def test_a_broad_allow_pattern_cannot_unredact_provider_formats() -> None:
    th.never_redact(re.compile(r"\w+"), re.compile(r".+"), re.compile(r"sk_\w+"))
    assert TOKEN not in th.redact(f"token {TOKEN} leaked")
    assert "sk_live_4eC39HqLyjWDarjtT1zdp7dc" not in th.redact("k sk_live_4eC39HqLyjWDarjtT1zdp7dc")


def test_a_specific_allow_pattern_keeps_its_own_test_keys_only() -> None:
    th.never_redact(re.compile(r"sk_test_\w+"))
    out = th.redact("sk_test_4eC39HqLyjWDarjtT1zdp7dc and sk_live_4eC39HqLyjWDarjtT1zdp7dc")
    assert "sk_test_4eC39HqLyjWDarjtT1zdp7dc" in out
    assert "sk_live_4eC39HqLyjWDarjtT1zdp7dc" not in out


def test_an_exact_string_still_allows_a_documentation_key() -> None:
    th.never_redact(TOKEN)
    assert TOKEN in th.redact(f"example {TOKEN} from the docs")


def test_an_allow_pattern_still_keeps_a_labelled_test_value() -> None:
    th.never_redact(re.compile(r"ACME-TEST-\d{6}"))
    assert "ACME-TEST-123456" in th.redact("password=ACME-TEST-123456")
