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
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from corpus import every_door
from helpers import examples
from toolhygiene._labels import _NOTE_WORDS, is_secret_label, prose_run

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


# -- L1. what a bracket holds, however it is written -----------------------------------

_WRITTEN = [
    "[ {v} ]",
    "[\t{v}\t]",
    "${{ {v} }}",
    '["{v}"]',
    "['{v}']",
    '[ "{v}" ]',
    "{{'{v}'}}",
    "[[{v}]]",
    "[[ {v} ]]",
    "(({v}))",
    "$(({v}))",
    "$[{v}]",
]


@pytest.mark.parametrize("written", _WRITTEN)
@pytest.mark.parametrize("value", ["Tr0ub4dor3", "hunter2x", "Qx7pLm2R"])
def test_a_value_in_brackets_however_written_goes(written: str, value: str) -> None:
    every_door("password: " + written.format(v=value), value)


@settings(max_examples=examples(200), deadline=None)
@given(
    _TOKENS,
    st.sampled_from(_WRITTEN),
    st.sampled_from(_LABELS),
    st.sampled_from(_SEPS),
    st.sampled_from(["", " end", "\nnext: line"]),
)
def test_any_token_in_any_written_bracket_goes(
    value: str, written: str, label: str, sep: str, after: str
) -> None:
    text = label + sep + written.format(v=value) + after
    assert value not in th.redact(text)


_PASSPHRASES = [
    "hunter two words",
    "correct horse battery staple",
    "purple monkey dishwasher",
    "hunter 2x",
]


@pytest.mark.parametrize("phrase", _PASSPHRASES)
@pytest.mark.parametrize("written", ["[{v}]", "[ {v} ]"])
@pytest.mark.parametrize("label", ["PASSWORD=", "password = ", "passphrase: "])
def test_a_passphrase_in_brackets_goes(phrase: str, written: str, label: str) -> None:
    every_door(label + written.format(v=phrase), phrase)


@settings(max_examples=examples(150), deadline=None)
@given(
    st.lists(st.text("abcdefghijklmnopqrstuvwxyz", min_size=4, max_size=9), min_size=2, max_size=6),
    st.sampled_from(["password", "PASSWORD", "db_pass", "passphrase", "user_pwd"]),
    st.sampled_from(["=[{p}]", ": [ {p} ]", " = [{p}] end"]),
)
@example(["aaaa", "sessionid"], "password", "=[{p}]").xfail(
    raises=AssertionError, reason="a word naming a secret: a placeholder's description"
)
def test_any_passphrase_in_brackets_under_a_password_goes(
    words: list[str], label: str, frame: str
) -> None:
    assume(_NOTE_WORDS.isdisjoint(words) and not prose_run(" ".join(words)))
    # a word naming a secret makes it a placeholder's description (``[your api token]``)
    assume(all(is_secret_label(w) is False for w in words))
    phrase = " ".join(words)
    assert phrase not in th.redact(label + frame.format(p=phrase))


def test_a_list_of_one_quoted_string_stays_a_list() -> None:
    out = th.redact('{"password": ["Tr0ub4dor3"]}')
    assert out == '{"password": ["[redacted:secret]"]}'
    assert th.redact("{'password': ['hunter2x']}") == "{'password': ['[redacted:secret]']}"


@pytest.mark.parametrize(
    "line",
    [
        "password: [ REDACTED ]",
        "password: [ PASSWORD ]",
        "password: [not set]",
        "password: [see vault]",
        "password: [value here]",
        "password: [ your password here ]",
        "password: [hidden for security]",
        "password: [must be at least 12 characters]",
        '{"errors": {"password": ["can\'t be blank"]}}',
        '{"errors": {"password": ["missing"]}}',
        "password=${ DB_PASSWORD }",
        "password=$((RETRIES))",
        "password=$((RETRIES + 1))",
        "password: ((a+b))",
        "password=$[n*2]",
        "password: [[PASSWORD]]",
        "tags: [alpha beta]",
        "password: [see page 2]",
        "Forgot password: [reset link](https://x.example/reset)",
        "token: [docs page] for details",
        "api_key: [see the docs]",
        "password [min 8 chars]",
        "password: [1 2 3]",
    ],
)
def test_a_note_or_a_name_in_brackets_stays(line: str) -> None:
    assert th.redact(line) == line


# -- L2. a command that echoes a literal -----------------------------------------------

_ECHOED = [
    "$(echo {v})",
    "$(echo -n {v})",
    "$(echo -n '{v}')",
    '$(echo "{v}")',
    "$(printf {v})",
    "$(printf '{v}')",
    "$(echo -e {v})",
]


@pytest.mark.parametrize("command", _ECHOED)
@pytest.mark.parametrize("value", ["Tr0ub4dor3", "S3cr3tPass!"])
def test_a_command_that_echoes_a_literal_gives_the_literal_away(command: str, value: str) -> None:
    every_door("password=" + command.format(v=value), value)


@settings(max_examples=examples(150), deadline=None)
@given(_TOKENS, st.sampled_from(_ECHOED), st.sampled_from(_LABELS))
def test_any_echoed_token_goes(value: str, command: str, label: str) -> None:
    assert value not in th.redact(f"{label}={command.format(v=value)} end")


@pytest.mark.parametrize(
    "line",
    [
        "password=$(echo $PW)",
        'password=$(echo "$DB_PASSWORD")',
        "password=$(printf '%s' \"$PW\")",
        "password=$(echo ${PW})",
        "password=$(cat /run/secrets/pw)",
        "password=$(get_password)",
    ],
)
def test_a_command_echoing_a_reference_stays(line: str) -> None:
    assert th.redact(line) == line


# -- L3. defaults: several words, Helm's ``| default "v"`` ------------------------------

_DEFAULTS = [
    "${{PW:-{v}}}",
    "${{PW:={v}}}",
    "${{DB_PASSWORD-{v}}}",
    '{{{{ .Values.pw | default "{v}" }}}}',
    "{{{{ .Values.pw | default '{v}' }}}}",
    '{{{{ pw | default("{v}") }}}}',
    '{{{{ default "{v}" .Values.pw }}}}',
]


@pytest.mark.parametrize("written", _DEFAULTS)
@pytest.mark.parametrize("value", ["Tr0ub4dor3", "correct horse battery staple"])
def test_a_default_literal_goes(written: str, value: str) -> None:
    line = "password: " + written.format(v=value)
    every_door(line, value)


@settings(max_examples=examples(150), deadline=None)
@given(
    st.lists(st.text("abcdefghijklmnopqrstuvwxyz", min_size=4, max_size=9), min_size=2, max_size=6),
    st.sampled_from(_LABELS),
)
def test_any_passphrase_as_a_default_goes(words: list[str], label: str) -> None:
    phrase = " ".join(words)
    out = th.redact(f"{label}=${{PW:-{phrase}}}")
    assert phrase not in out
    assert out.startswith(f"{label}=${{PW:-")  # the reference stays readable


@pytest.mark.parametrize(
    "line",
    [
        "password=${PW:-$OTHER}",
        "password=${PW:-}",
        "password=${PW:?must be set}",
        "password=${PW:?password must be set before starting}",
        "password: {{ .Values.pw | default .Values.other }}",
        'password: {{ .Values.pw | default "" }}',
        "password: {{ .Values.pw | b64enc }}",
    ],
)
def test_a_default_that_is_no_literal_stays(line: str) -> None:
    assert th.redact(line) == line


# -- D3. references that stay readable ---------------------------------------------------

_REFERENCES = [
    "%DB_PASSWORD%",
    "%dbPassword%",
    "$env:DB_PASSWORD",
    "$Env:DbPassword",
    "${env:DB_PASSWORD}",
    "{{ lookup('env', 'DB_PASSWORD') }}",
    "\"{{ lookup('env','DB_PASSWORD') }}\"",
    "\"{{ lookup('file', '/run/secrets/pw') }}\"",
    "{{ lookup('aws_ssm', 'db/password') }}",
    '${file("pw.txt")}',
    '${file("${path.module}/pw.txt")}',
    '"${var.db_password}"',
    "!Ref DbPassword",
    "!GetAtt Db.Password",
    "!ImportValue SharedDbPassword",
    '"{{resolve:ssm-secure:DbPassword:1}}"',
    "{{resolve:secretsmanager:MySecret:SecretString:password}}",
    "!Sub '{{resolve:secretsmanager:MySecret:SecretString:password}}'",
]


@pytest.mark.parametrize("reference", _REFERENCES)
@pytest.mark.parametrize("label", ["password", "db_password", "DB_PASSWORD", "api_key"])
@pytest.mark.parametrize("sep", [": ", "="])
def test_a_reference_stays_readable(reference: str, label: str, sep: str) -> None:
    line = f"{label}{sep}{reference}"
    assert th.redact(line) == line


@pytest.mark.parametrize(
    "line",
    [
        "password=%Tr0ub4dor3%",
        "password=$env:Tr0ub4dor3",
        '${file("Tr0ub4dor3")}',
        "password: \"{{ lookup('env', 'Tr0ub4dor3') }}\"",
        "password=!Tr0ub4dor3",
    ],
)
def test_a_value_written_as_a_reference_still_goes(line: str) -> None:
    if not line.startswith("password"):
        line = "password: " + line
    assert "Tr0ub4dor3" not in th.redact(line)


# -- every bracket opener after a label: a flood reads each once ------------------------


@pytest.mark.parametrize(
    "unit",
    ["password=${PW:-", "password=${A:-${B:-", "password=$(echo ", "password=[ a ", "password=(("],
)
def test_a_flood_of_openers_redacts_nothing_it_should_not(unit: str) -> None:
    text = unit * 200
    assert th.redact(text).count("password=") == 200


def test_a_token_inside_a_dynamic_reference_still_goes() -> None:
    assert "Qx7pLm2Rk9" not in th.redact("x {{resolve:a:token:Qx7pLm2Rk9}} y")


@pytest.mark.parametrize("line", ["password=$((Tr0ub4dor3+1))", "password=((Tr0ub4dor3 * 2))"])
def test_a_token_in_a_sum_goes(line: str) -> None:
    every_door(line, "Tr0ub4dor3")
