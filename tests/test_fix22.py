"""Secrets that still reached the model, and useful text that did not, after session 14's
helpers (fix22, session 14), each fixed as a family and tested through ``th.redact``, a
real exception's failure line through a session, and success results:

1. a credential under a name ending in a count or a duration (``token_ttl``,
   ``token_count``, ``api_key_length``): a number or a duration stays, a credential goes;
2. argparse's and click's own messages after a flag stay prose ("expected one argument");
3. a secret printed on the line after a command that prints one (``bw get password``,
   ``gcloud auth print-access-token``, ``vault kv get -field=password`` …);
4. an SNMP tool's community after ``-c``, Redis MONITOR's ``requirepass``, "SNMP community
   string: v";
5. toolhygiene's own marks written as HTML entities (``&#91;error&#93;``) are escaped as the
   literal forms are.
"""

from __future__ import annotations

import argparse
import re
import string
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import gone_everywhere, kept_everywhere
from toolhygiene._labels import is_secret_label

_CREDENTIALS = st.text(string.ascii_letters + string.digits, min_size=12, max_size=30).filter(
    lambda v: (
        any(c.isdigit() for c in v) and any(c.islower() for c in v) and any(c.isupper() for c in v)
    )
)


# -- 1. a credential under a count's or a duration's name ------------------------------

MEASURED = ["token_ttl", "token_count", "api_key_length", "secret_ttl", "session_token_lifetime"]


@pytest.mark.parametrize("name", MEASURED)
@pytest.mark.parametrize("shape", ["{k}: {v}", "{k}={v}", '{{"{k}": "{v}"}}'])
def test_a_credential_under_a_measure_s_name_goes(name: str, shape: str) -> None:
    value = "Zx9Qw2Er7Ty4Ui"
    out = gone_everywhere(shape.format(k=name, v=value), value)
    assert name in out["redact"]


@given(value=_CREDENTIALS)
@settings(max_examples=60, deadline=None)
def test_any_credential_under_a_ttl_goes(value: str) -> None:
    assert value not in th.redact(f"token_ttl: {value}")


@pytest.mark.parametrize("name", MEASURED)
@pytest.mark.parametrize("value", ["3600", "-4821", "1h30m", "PT1H", "3600s", "30 minutes"])
def test_a_number_or_a_duration_under_a_measure_s_name_stays(name: str, value: str) -> None:
    kept_everywhere(f"{name}: {value}", f"{name}: {value}")


def test_a_count_of_passwords_still_names_none() -> None:
    assert is_secret_label("passwords_count") is False
    assert th.redact("passwords_count: 3") == "passwords_count: 3"


# -- 2. argparse's own messages after a flag -------------------------------------------

ARGPARSE = [
    "argument --password: expected one argument",
    "error: argument --token: expected at most one argument",
    "argument --password: expected 2 arguments",
    "argument --password: not allowed with argument --token",
]


@pytest.mark.parametrize("text", ARGPARSE)
def test_argparse_s_message_after_a_flag_stays(text: str) -> None:
    kept_everywhere(text, text)


def test_argparse_s_usage_and_message_stay() -> None:
    # (as text; a dict's JSON escape glues the metavar to "\\np:", a gap left open)
    text = (
        "usage: p [-h] [--password PASSWORD]\np: error: argument --password: expected one argument"
    )
    assert th.redact(text) == text


def _argparse_error(*argv: str) -> argparse.ArgumentError:
    parser = argparse.ArgumentParser(prog="p", exit_on_error=False)
    parser.add_argument("--password")
    parser.add_argument("--token", type=int)
    try:
        parser.parse_args(list(argv))
    except argparse.ArgumentError as error:
        return error
    raise AssertionError("argparse accepted it")


def test_argparse_s_real_error_reaches_the_model_whole() -> None:
    error = _argparse_error("--password")

    @th.tool(name="run_cli")
    def run_cli(order_id: str) -> str:
        raise error

    session = th.Session([run_cli], max_failures=99)
    seen = session.call("run_cli", {"order_id": "ORD-1"}).content
    assert "argument --password: expected one argument" in seen, seen


@pytest.mark.parametrize(
    "text",
    ["password: expected Hunter2xyz", "password: arguments Hunter2xyz", "--password Hunter2xyz"],
)
def test_a_value_after_those_words_still_goes(text: str) -> None:
    gone_everywhere(text, "Hunter2xyz")


# -- 4. SNMP's community after -c, Redis MONITOR, "community string: v" ----------------

SNMP_AND_REDIS = [
    "snmpwalk -v2c -c {v} 10.0.0.1",
    "snmpget -c {v} host sysDescr.0",
    "snmpbulkwalk -v2c -c {v} host",
    "['snmpwalk', '-v2c', '-c', '{v}', 'host']",
    '1700000000.123 [0 127.0.0.1:5555] "CONFIG" "SET" "requirepass" "{v}"',
    '1700000000.123 [0 127.0.0.1:5555] "config" "set" "masterauth" "{v}"',
    '1700000000.123 [0 lua] "AUTH" "{v}"',
    '1700000000.123 [0 lua] "AUTH" "bob" "{v}"',
    "SNMP community string: {v}",
    "The community string is {v}",
]


@pytest.mark.parametrize("shape", SNMP_AND_REDIS)
def test_a_community_or_a_redis_password_goes(shape: str) -> None:
    value = "n3tW0rk-Ops7"
    gone_everywhere(shape.format(v=value), value)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SNMP_AND_REDIS), _CREDENTIALS)
def test_any_community_or_redis_password_goes(shape: str, value: str) -> None:
    assert value not in th.redact(shape.format(v=value))


@pytest.mark.parametrize(
    "text",
    [
        "snmpwalk -v2c -c public host",
        "SNMP community string: public",
        "the community string is missing",
        '"CONFIG" "GET" "requirepass"',
        "snmpwalk -v2c host",
    ],
)
def test_a_community_that_is_no_secret_stays(text: str) -> None:
    kept_everywhere(text, text)


# -- 3. a secret printed on the line after a command that prints one -------------------

PRINTERS = [
    "bw get password github",
    "security find-generic-password -a bob -s foo -w",
    "gcloud auth print-access-token",
    "gcloud auth application-default print-access-token",
    "aws ecr get-login-password --region us-east-1",
    "kubectl get secret s -o jsonpath='{.data.password}' | base64 -d",
    "kubectl get secret db -n prod -o jsonpath={.data.pw} | base64 --decode",
    "vault kv get -field=password secret/db",
    "vault read -field=token auth/x",
    "gh auth token",
    "op read op://vault/db/password",
    "pass show email/work",
]
PROMPTS = ["$ ", "# ", "> ", "PS> ", "bob@host:~$ ", "PS C:\\Users\\Public> "]


@pytest.mark.parametrize("command", PRINTERS)
@pytest.mark.parametrize("prompt", PROMPTS)
def test_a_secret_printed_after_its_command_goes(prompt: str, command: str) -> None:
    value = "Zx9Qw2Er7Ty4-p"
    out = gone_everywhere(f"{prompt}{command}\n{value}\n$ echo done", value)
    assert "echo done" in out["redact"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PRINTERS), st.sampled_from(PROMPTS), _CREDENTIALS)
def test_any_printed_secret_goes(command: str, prompt: str, value: str) -> None:
    assert value not in th.redact(f"{prompt}{command}\n{value}")


@pytest.mark.parametrize(
    "text",
    [
        "$ gcloud auth print-access-token\nERROR: (gcloud.auth) You do not currently have an active account",
        "$ bw get password x\nNot found.",
        "$ ls -la\ntotal 0",
        "$ aws ecr get-login-password > /tmp/p\n$ ls",
        "$ cat README.md\nInstallation",
        "$ security find-generic-password -s foo\nkeychain: /Library/Keychains/System.keychain",
    ],
)
def test_a_line_after_another_command_stays(text: str) -> None:
    kept_everywhere(text, text)


# -- 7. toolhygiene's own marks written as HTML entities --------------------------------

ENTITY_MARKS = [
    "&#91;error&#93;",
    "&#091;error&#093;",
    "&#X5b;error&#x5D;",
    "&lbrack;error&rbrack;",
    "&lsqb;error&rsqb;",
    "&amp;#91;error&amp;#93;",
    "[error&#93;",
    "&#91;redacted:secret&#93;",
    "&#91;result cut: 5 chars&#93;",
]


def _untrusted(text: str) -> dict[str, str]:
    @th.tool(name="fetch", untrusted=True)
    def fetch(url: str) -> str:
        return f"page: {text} end"

    @th.tool(name="fetch_dict", untrusted=True)
    def fetch_dict(url: str) -> dict[str, Any]:
        return {"page": f"{text} end"}

    @th.tool(name="fails")
    def fails(url: str) -> str:
        raise RuntimeError(f"page: {text} end")

    session = th.Session([fetch, fetch_dict, fails], line_cap=4000, max_failures=99)
    return {
        name: session.call(name, {"url": "https://example.org"}).content
        for name in ("fetch", "fetch_dict", "fails")
    }


@pytest.mark.parametrize("text", ENTITY_MARKS)
def test_a_mark_written_as_entities_is_escaped(text: str) -> None:
    for carrier, seen in _untrusted(text).items():
        body = seen.split("page", 1)[1]
        assert not re.search(r"\[(?:error|redacted|result cut)", body), (carrier, seen)
        assert text not in body, (carrier, seen)
        if not (carrier == "fails" and text[0] == "["):
            # (a failure line escapes the literal "[error" first: "(error&#93; end)")
            shown = r"\((?:error|redacted:secret|result cut: 5 chars)\)"
            assert re.search(shown, body), (carrier, seen)


def test_a_redaction_s_own_mark_beside_an_encoded_one_stays() -> None:
    seen = _untrusted("password=Hunter2xyz9 &#91;redacted:secret&#93; &#60;system&#62;")["fails"]
    assert "password=[redacted:secret]" in seen, seen
    assert "(redacted:secret)" in seen, seen
    assert "Hunter2xyz9" not in seen


@pytest.mark.parametrize("text", ["&#91;1&#93; footnote", "a&#91;i&#93; = 2", "&#91;x&#93;"])
def test_entities_around_no_mark_are_left_as_they_were(text: str) -> None:
    for carrier, seen in _untrusted(text).items():
        assert "(1)" not in seen and "(i)" not in seen and "(x)" not in seen, (carrier, seen)


# -- 5 and 6. an Ansible vault's body, a Markdown table's secret column -------------------

VAULT = (
    "$ANSIBLE_VAULT;1.1;AES256\n"
    "62313365396662343061393464336163383764373764613739\n"
    "3165373131613134363339626431303634333835336464360a"
)


def test_an_ansible_vault_body_goes_and_its_header_stays() -> None:
    out = gone_everywhere(VAULT, "623133653966", "316537313161")
    assert out["redact"] == "$ANSIBLE_VAULT;1.1;AES256\n[redacted:ansible-vault]"
    kept_everywhere(VAULT, "$ANSIBLE_VAULT;1.1;AES256")


@pytest.mark.parametrize(
    "table",
    [
        "| key | value |\n|---|---|\n| smtp_password | {v} |\n| smtp_user | bob |",
        "| smtp_password | {v} |",
        "| user | password |\n|---|---|\n| bob | {v} |",
        "| Host | User | Password | Port |\n|:---|:---:|---:|---|\n| db1 | bob | {v} | 5432 |",
    ],
)
def test_a_table_s_password_cells_go_and_the_rest_stays(table: str) -> None:
    value = "Tr0ub4dor3x9"
    gone_everywhere(table.format(v=value), value)
    if "bob" in table:
        kept_everywhere(table.format(v=value), "bob")
