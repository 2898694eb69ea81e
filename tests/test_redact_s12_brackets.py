"""Bracketed values after a secret's label (session 12, fix18a: cold18's findings on
leak17's bracketed values), each family in every carrier:

L4. a secret glued after a reference or a placeholder (``{0}Tr0ub4dor3``,
    ``${DB_PASSWORD}Tr0ub4dor3``, ``[REDACTED]Tr0ub4dor3``);
L1. a value in brackets with blanks inside, quoted, in doubled brackets or arithmetic,
    a passphrase in brackets;
L2. a command substitution that echoes a literal (``$(echo v)``, ``$(printf v)``);
L3. a default of several words (``${PW:-correct horse}``), Helm's ``| default "v"``;
D3. references that stay readable (Windows, PowerShell, Ansible, Terraform,
    CloudFormation).
"""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from corpus import every_door
from helpers import examples

_LABELS = ["password", "db_password", "API_TOKEN", "secret", "client_secret", "PASSWORD"]
_SEPS = ["=", ": ", " = "]
_TOKEN_ALPHABET = string.ascii_letters + string.digits + "!@#%^*+"
_TOKENS = st.text(_TOKEN_ALPHABET, min_size=8, max_size=40).filter(
    lambda v: any(c.isdigit() for c in v) and any(c.islower() for c in v) and v[0].isalnum()
)

# -- L4. a secret glued after a reference or a placeholder -----------------------------

_HOLDERS = [
    "{0}",
    "{}",
    "{password}",
    "${DB_PASSWORD}",
    "${db_password}",
    "{{ .Values.password }}",
    "[REDACTED]",
    "[redacted]",
    "[PASSWORD]",
    "[****]",
    "[redacted:secret]",
    "<<PASSWORD>>",
    "$(get_password)",
]


@pytest.mark.parametrize("holder", _HOLDERS)
@pytest.mark.parametrize("sep", _SEPS)
def test_a_secret_glued_after_a_reference_or_placeholder_goes(holder: str, sep: str) -> None:
    every_door(f"password{sep}{holder}Tr0ub4dor3", "Tr0ub4dor3")


@settings(max_examples=examples(200), deadline=None)
@given(_TOKENS, st.sampled_from(_HOLDERS), st.sampled_from(_LABELS), st.sampled_from(_SEPS))
def test_any_token_glued_after_any_holder_goes(
    value: str, holder: str, label: str, sep: str
) -> None:
    text = f"{label}{sep}{holder}{value} end"
    assert value not in th.redact(text)


def test_a_trusted_result_keeps_no_glued_secret_after_a_placeholder() -> None:
    @th.tool
    def result() -> str:
        """A result."""
        return "password=[REDACTED]Tr0ub4dor3"

    with th.Session([result]) as session:
        content = session.call("result", {}).content
    assert "Tr0ub4dor3" not in content


@pytest.mark.parametrize(
    "line",
    [
        "password=${PREFIX}_dev",
        "password=${HOME}/pw.txt",
        "password=${VERSION}2",
        "password={0}s",
        "password=${DB_PASSWORD} -p 5432",
        "password: [REDACTED] (rotated)",
        "password=${DB_PASSWORD}suffix",
    ],
)
def test_what_is_glued_to_a_reference_and_no_token_stays(line: str) -> None:
    assert th.redact(line) == line
