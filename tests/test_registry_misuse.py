"""The user's redaction rules (cold-12 of session 8, #12 and #13): polynomial patterns
are refused or bounded, and every misuse of ``add_redaction`` / ``never_redact`` is one
``UsageError`` naming what is wrong."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples
from toolhygiene import _engine, _registry


@pytest.fixture(autouse=True)
def _clean() -> Iterator[None]:
    th.clear_redactions()
    yield
    th.clear_redactions()


# -- #12: two long quantifiers in a row over the same characters ---------------------------

CLASSES = [r"\w", r"[a-z]", r".", r"[\s\S]", r"\d", r"[a-z0-9_]", r"[^!]", r"\S", r"[A-Za-z]"]
LONG = ["*", "+", "{0,}", "{2,}", "{1,100}", "*?", "+?"]
_PRINTABLE = string.ascii_letters + string.digits + "_-@.:/ "


def _chars(cls: str) -> set[str]:
    return {c for c in _PRINTABLE if re.fullmatch(cls, c)}


@settings(max_examples=examples(200), deadline=None)
@given(
    st.sampled_from(CLASSES),
    st.sampled_from(CLASSES),
    st.sampled_from(LONG),
    st.sampled_from(LONG),
    st.integers(0, 2),
    st.randoms(use_true_random=False),
    st.booleans(),
)
def test_two_long_quantifiers_that_can_share_the_text_between_are_refused(
    one: str, other: str, q1: str, q2: str, between: int, rng: Any, grouped: bool
) -> None:
    """``\\w*\\w*\\w*\\w*!`` took 16 s on 200 characters: the text the two quantifiers
    can both take is split between them every way it can be, and each split is tried."""
    shared = sorted(_chars(one) & _chars(other))
    assume(shared)
    middle = "".join(re.escape(rng.choice(shared)) for _ in range(between))
    first, second = f"{one}{q1}", f"{other}{q2}"
    if grouped:
        first, second = f"({first})", f"(?:{second})"
    with pytest.raises(th.UsageError, match="two long quantifiers in a row"):
        th.add_redaction("poly", f"{first}{middle}{second}!")


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(CLASSES), st.sampled_from(CLASSES), st.sampled_from(LONG),
       st.sampled_from(LONG), st.data())
def test_long_quantifiers_parted_by_a_character_the_first_cannot_take_are_accepted(
    one: str, other: str, q1: str, q2: str, data: st.DataObject
) -> None:
    """``\\w+@\\w+\\.com``: where the first quantifier must stop is fixed by the ``@``
    (a letter is read in either case: a flag may ignore case). The separator is drawn
    from what the first cannot take (filtering drew too few: a health check failed)."""
    outside = sorted(c for c in _PRINTABLE if not {c.lower(), c.upper()} & _chars(one))
    assume(outside)
    separator = data.draw(st.sampled_from(outside))
    th.clear_redactions()  # one example after another: the fixture runs once
    th.add_redaction("fine", f"{one}{q1}{re.escape(separator)}{other}{q2}!")


@pytest.mark.parametrize(
    "pattern",
    [
        r"\w*\w*\w*\w*!",
        r"[\s\S]*x[\s\S]*y[\s\S]*z",
        r".*foo.*bar",
        r"\d+0*\d+x",
        r"(?:\w+|-)\w+!",
        r"acme=(?P<secret>\w+)\w*;",
        r"(?=\w*\w*!)x",
    ],
)
def test_the_cold_testers_polynomial_patterns_are_refused(pattern: str) -> None:
    with pytest.raises(th.UsageError, match="two long quantifiers in a row"):
        th.add_redaction("poly", pattern)


@pytest.mark.parametrize(
    "pattern",
    [
        r"acme_[0-9a-f]{24}",
        r"[\w.]+@[\w.]+\.com",
        r"\w+@corp\.example",
        r"(?<![\w])acme_id=\w+",
        r"BEGIN ACME[\s\S]{0,2000}?END ACME",
        r"\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}",
        r"PIN: (?P<secret>\d{4,8})",
        r"[A-Z]{3}-\d+-[a-z]+",
    ],
)
def test_ordinary_patterns_are_accepted(pattern: str) -> None:
    th.add_redaction("fine", pattern)


def test_a_pattern_every_match_of_which_is_longer_than_a_window_is_refused() -> None:
    with pytest.raises(th.UsageError, match="longer than 512 characters"):
        th.add_redaction("long", r"acme_[0-9a-f]{600}")
    th.add_redaction("long", r"acme_[0-9a-f]{500}[0-9a-f]*")


# -- the run-time bound: user patterns read windows, and lose no match ----------------------

PATTERNS = [r"acme_[A-Za-z0-9]+", r"\w+@corp\.example", r"x\d{2,40}y", r"(?<!\w)k=\w{3}\b", r"\w*!"]


@settings(max_examples=examples(100), deadline=None)
@given(
    st.sampled_from(PATTERNS),
    st.lists(
        st.sampled_from(["acme_", "a", "Z9", " ", "!", "@corp.example", "x", "12", "y", "k=", "\n"]),
        min_size=200,
        max_size=900,
    ),
)
def test_windows_find_every_match_the_whole_text_holds(pattern: str, pieces: list[str]) -> None:
    """Every character a match over the whole text covers is covered by a match found
    window by window (``_engine._windowed``), and nothing else is."""
    compiled = re.compile(pattern)
    text = "".join(pieces)
    whole = {i for m in compiled.finditer(text) for i in range(*m.span())}
    windowed = {i for m in _engine._windowed(compiled, text) for i in range(*m.span())}
    assert windowed >= whole
    # what a window adds is a match too: a match of the pattern where it stands
    for m in _engine._windowed(compiled, text):
        assert compiled.fullmatch(text, *m.span()) or compiled.match(text, m.start())


def test_a_match_longer_than_a_window_is_followed_to_its_end() -> None:
    th.add_redaction("acme", r"acme_[A-Za-z0-9]+", gate="acme_")
    token = "acme_" + "Xy7Q" * 300
    out = th.redact("x " * 400 + token + " tail")
    assert out == "x " * 400 + "[redacted:acme] tail"


def test_a_quadratic_pattern_reads_bounded_windows() -> None:
    """``\\w*!`` re-reads the rest of the text from every start (19 s on 64 KB over the
    whole text): each window is at most ``2 * WINDOW`` characters, and a window's match
    is followed at most ``_FOLLOWED`` characters."""
    th.add_redaction("bang", r"\w*!")
    text = "a" * 3000 + "!" + "b" * 3000
    out = th.redact(text)
    # a match longer than a window is found from the window its end is in (documented)
    assert out.endswith("[redacted:bang]" + "b" * 3000)
    assert out.count("a") <= 3000 - _registry.WINDOW
    assert _engine._WINDOW == _registry.WINDOW == 512


# -- #13: misuse is one UsageError naming the argument --------------------------------------


@pytest.mark.parametrize(
    ("args", "kwargs", "says"),
    [
        ((None, "abc"), {}, "name None"),
        ((5, "abc"), {}, "name 5"),
        (("Acme", "abc"), {}, "name 'Acme'"),
        (("p", 123), {}, "pattern must be a str or a compiled str pattern, not int"),
        (("p", None), {}, "pattern must be a str or a compiled str pattern, not NoneType"),
        (("p", re.compile(b"abc")), {}, "pattern must be a str or a compiled str pattern"),
        (("p", "(abc"), {}, "does not compile"),
        (("g", r"zzz\d+"), {"gate": "qqq"}, "gate 'qqq' can never be inside a match"),
        (("g", r"acme_[0-9a-f]{24}"), {"gate": "acme-"}, "gate 'acme-' can never"),
        (("g", r"zzz\d+"), {"gate": ""}, "a gate must not be empty"),
        (("g", r"zzz\d+"), {"gate": ("zzz", "")}, "a gate must not be empty"),
        (("g", r"zzz\d+"), {"gate": 5}, "gate must be a string, or a tuple, list or set of strings"),
        (("g", r"zzz\d+"), {"gate": ("zzz", None)}, "gate must be a string, or a tuple"),
        (("i", r"zzz\d+"), {"internal": "yes"}, "internal must be True or False"),
    ],
)
def test_add_redaction_misuse_is_one_usage_error(
    args: tuple[Any, ...], kwargs: dict[str, Any], says: str
) -> None:
    with pytest.raises(th.UsageError, match=re.escape(says)) as caught:
        th.add_redaction(*args, **kwargs)
    assert "\n" not in str(caught.value)
    assert _registry.user_detectors() == ()


def test_a_gate_in_either_case_or_inside_a_class_is_accepted_and_runs() -> None:
    th.add_redaction("acme", r"ACME_[0-9a-f]{8}", gate="acme_")
    th.add_redaction("zz", r"zzz\d+", gate="z1")
    assert th.redact("id ACME_0a1b2c3d and zzz12345") == "id [redacted:acme] and [redacted:zz]"


def test_the_same_rule_again_is_kept_once_and_another_under_its_name_is_refused() -> None:
    th.add_redaction("acme", r"acme_[0-9a-f]{8}", gate="acme_")
    th.add_redaction("acme", r"acme_[0-9a-f]{8}", gate="acme_")  # setup code run twice
    assert len(_registry.user_detectors()) == 1
    for other in ({"gate": "acme"}, {"internal": True}):
        with pytest.raises(th.UsageError, match="'acme' exists already"):
            th.add_redaction("acme", r"acme_[0-9a-f]{8}", **other)
    with pytest.raises(th.UsageError, match="'acme' exists already"):
        th.add_redaction("acme", r"acme_[0-9a-f]{9}")
    assert len(_registry.user_detectors()) == 1


@pytest.mark.parametrize(
    ("value", "says"),
    [
        (None, "not NoneType"),
        (123, "not int"),
        (["ab", "cd"], "never_redact(*values)"),
        (re.compile(b"ab"), "not bytes"),
        ("", "'' is too short"),
        ("a", "'a' is too short"),
        ("  x ", "'  x ' is too short"),
    ],
)
def test_never_redact_misuse_is_one_usage_error(value: Any, says: str) -> None:
    with pytest.raises(th.UsageError, match=re.escape(says)):
        th.never_redact("ACME-TEST-1", value)
    # nothing of the call was kept
    assert "ACME-TEST-1" not in _registry._values


def test_never_redact_of_no_values_changes_nothing() -> None:
    th.never_redact(*[])
    assert not _registry.allowed("anything")


@pytest.mark.parametrize("pattern", [r"\d+\.?\d+\.?\d+\.?\d+!", r"\d+\.?\d+!", r"[a-z]+-?[a-z]+-?[a-z]+!",
                                     r"\w+(?:-)*\w+!", r"x\d+_{0,3}\d+y"])
def test_an_optional_piece_parts_no_two_quantifiers(pattern: str) -> None:
    """Found by recheckr: ``\\.?`` can match nothing, so ``\\d+\\.?\\d+`` splits a run of
    digits as ``\\d+\\d+`` does (over 20 s on 200 digits with four)."""
    try:
        with pytest.raises(th.UsageError, match="two long quantifiers"):
            th.add_redaction("optional-gap", pattern)
    finally:
        th.clear_redactions()


@pytest.mark.parametrize("shape", [r"[A-Za-z0-9]{22}", r"\w{8,40}", r"[\w+/=-]+"])
@pytest.mark.parametrize("carrier", ["password={v}", "Authorization: Bearer {v}", '{{"api_key": "{v}"}}'])
def test_a_pattern_any_random_password_matches_keeps_no_labelled_secret(shape: str, carrier: str) -> None:
    """Found by recheckr: docs/redaction.md's advice for keeping random file names in links
    (a pattern of 22 letters and digits) also kept `password=<22 characters>`. Such a
    pattern keeps only values found without a label; an exact string still keeps any."""
    value = "Qz9xLm2Rk7Tb4Wn8Vc3Hj6"
    try:
        th.never_redact(re.compile(shape))
        assert value not in th.redact(carrier.format(v=value))
        th.never_redact(value)
        assert value in th.redact(carrier.format(v=value))
    finally:
        th.clear_redactions()


def test_a_narrow_pattern_still_keeps_a_labelled_documentation_value() -> None:
    try:
        th.never_redact(re.compile(r"ACME-TEST-\d{6}"))
        assert th.redact("password=ACME-TEST-123456") == "password=ACME-TEST-123456"
    finally:
        th.clear_redactions()
