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
    with pytest.raises(th.UsageError, match="repeats a repetition"):
        th.add_redaction("bad", pattern, gate="a")


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
