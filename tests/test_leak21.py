"""Leak families the last session left open (leak21, session 14), each tested as a
family through ``th.redact``, a real exception's failure line through a session, and a
successful call's result; beside each, what must stay:

1. a passphrase of spaced words after ``is`` ("the wifi password is correct horse
   battery staple"; the narrow rule in ``_detectors._spoken_passphrase``);
2. a verb of setting, the label, then ``to`` and a value ("changed the password to
   hunter2");
3. camel-cased letters no name is made of after a bare ``key``;
4. a literal glued before a reference inside quotes (``"Tr0ub4dor3${DB_PASSWORD}"``):
   the literal goes, the reference stays;
5. a flag's argument holding ``=`` (``--password Ab12=x``) for a command the commands
   table does not know;
6. ``echo v | sudo -S`` inside escaped JSON and inside a Python list's repr;
7. TOML's values over several lines (``'''…'''``, ``\"\"\"…\"\"\"`` with line-continuation
   backslashes, arrays) under a secret's key;
8. Terraform state JSON (``terraform.tfstate``, ``terraform show -json``);
9. ``_named`` reads every object of a text under the cap (no pair past a budget leaks);
10. a flow list under a password's label, each item judged (``password: [hunter2, x]``);
11. a cookie string with a display preference loses only its secret (a HAR's
    ``"value": "sid=v; theme=dark"`` keeps ``; theme=dark``).
"""

from __future__ import annotations

import json
import string
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples

# -- the doors: th.redact, a real exception's failure line, a success result -----------


def _tools(text: str) -> tuple[th.Tool[Any, Any], th.Tool[Any, Any]]:
    @th.tool(name="parse")
    def fails(order_id: str) -> int:
        return int(text)  # a real ValueError whose message holds the text's repr

    @th.tool(name="listing")
    def succeeds(order_id: str) -> str:
        return text

    return fails, succeeds


def doors(text: str, secrets: list[str], kept: tuple[str, ...] | list[str] = ()) -> str:
    """Assert no ``secrets`` reach the model from ``text`` through ``th.redact``, the
    failure line of ``int(text)`` raised in a session and the text returned as a
    success; ``kept`` stays in ``th.redact``'s output and the success result. Returns
    ``th.redact(text)``."""
    out = th.redact(text)
    session = th.Session(list(_tools(text)), line_cap=8000, max_failures=99)
    failed = session.call("parse", {"order_id": "ORD-1"})
    assert not failed.ok
    result = session.call("listing", {"order_id": "ORD-1"}).content
    for secret in secrets:
        assert secret not in out, (text, out)
        assert secret not in failed.content, failed.content
        assert secret not in result, result
    for word in kept:
        assert word in out, (word, out)
        assert word in result, (word, result)
    return out


def stays(text: str) -> None:
    """``text`` reaches the model whole, through ``th.redact`` and a success result."""
    assert th.redact(text) == text
    session = th.Session(list(_tools(text)), line_cap=8000, max_failures=99)
    assert text in session.call("listing", {"order_id": "ORD-1"}).content


_PASSWORDS = st.text(string.ascii_letters + string.digits + "#^*!", min_size=8, max_size=20).filter(
    lambda v: (
        any(c.isdigit() for c in v) and any(c.islower() for c in v) and any(c.isupper() for c in v)
    )
)

# -- 1. a spoken passphrase after "is" -------------------------------------------------

PHRASES = [
    "the wifi password is correct horse battery staple",
    "The wifi password is correct horse battery staple.",
    "the vault passphrase was tango mango delta rover",
    "password is now lunar copper violin meadow",
    "the password is 'correct horse battery staple'",
]


@pytest.mark.parametrize("text", PHRASES)
def test_a_spoken_passphrase_goes(text: str) -> None:
    out = doors(text, ["horse battery", "mango delta", "copper violin"])
    assert "password is" in out or "passphrase was" in out or "password is now" in out, out


PROSE_AFTER_IS = [
    "the password is too short",
    "the password is stored encrypted at rest",
    "your password is hidden behind asterisks",
    "the password is valid for ninety days",
    "the password is case sensitive",
    "the password is missing uppercase letters and digits",
    "the password is the same as before",
    "the password is required for every login attempt",
    "password is missing required special characters",
    "the password is expired please reset it now",
    "Password is incorrect username or email",
    "the password is reset every ninety days",
    "the password is checked against breached lists",
]


@pytest.mark.parametrize("text", PROSE_AFTER_IS)
def test_prose_after_is_stays(text: str) -> None:
    stays(text)


_NOUNS = [
    *("horse", "battery", "staple", "copper", "violin", "meadow", "tango", "mango"),
    *("delta", "rover", "lunar", "orbit", "pepper", "falcon", "marble", "canyon"),
    *("walnut", "harbor", "velvet", "cactus", "lantern", "pebble", "ember"),
]


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(st.sampled_from(_NOUNS), min_size=4, max_size=8),
    st.sampled_from(["password", "wifi password", "passphrase", "vault passphrase", "pwd"]),
    st.sampled_from(["is", "was", "is now"]),
    st.sampled_from(["", ".", "\nnext line"]),
)
def test_any_spoken_passphrase_goes(words: list[str], label: str, verb: str, end: str) -> None:
    phrase = " ".join(words)
    out = th.redact(f"the {label} {verb} {phrase}{end}")
    assert phrase not in out, out
    assert f"the {label} {verb} " in out, out


# -- 2. a verb of setting, the label, "to" and the value ------------------------------

SETTINGS = [
    ("changed the password to hunter2", "hunter2"),
    ("reset her token to Zx9kLm2pQr7vWt", "Zx9kLm2pQr7vWt"),
    ("I set my wifi password to Tr0ub4dor&3 yesterday", "Tr0ub4dor&3"),
    ("Updated the DB password to s3cr3t!x", "s3cr3t!x"),
    ("rotated the api token to tok9Qx7pLm2", "tok9Qx7pLm2"),
]


@pytest.mark.parametrize(("text", "value"), SETTINGS)
def test_a_set_value_goes(text: str, value: str) -> None:
    out = doors(text, [value])
    assert " to [redacted:" in out, out


SETTING_PROSE = [
    "changed the password to a stronger one",
    "changed the password to something stronger",
    "reset your password to continue",
    "set the password to expire in 90 days",
    "sent the token to user123",
    "moved the key to ORD-12345",
    "reset the password to git@github.com:acme/api.git",
    "changed the token to the new format",
]


@pytest.mark.parametrize("text", SETTING_PROSE)
def test_a_setting_s_prose_stays(text: str) -> None:
    stays(text)


@settings(max_examples=examples(200), deadline=None)
@given(
    st.sampled_from(["changed", "reset", "set", "updated", "rotated", "switched"]),
    st.sampled_from(["the", "her", "my", "our", "the admin", "the wifi"]),
    st.sampled_from(["password", "token", "passphrase", "secret", "API key"]),
    _PASSWORDS,
)
def test_any_set_value_goes(verb: str, whose: str, label: str, value: str) -> None:
    text = f"{verb} {whose} {label} to {value} (ticket OPS-12)"
    out = th.redact(text)
    assert value not in out, (text, out)
    assert f"{verb} {whose} {label} to " in out and "(ticket OPS-12)" in out, out


# -- 3. camel-cased letters after a bare key ------------------------------------------

CAMEL_TOKENS = ["QwertyUiopAsdfGhjk", "GhjkLmnpQrstVwxz", "ZxcvBnmAsdfQwer", "AbcDefGhiJklMnoP"]


@pytest.mark.parametrize("token", CAMEL_TOKENS)
def test_camel_cased_letters_after_a_bare_key_go(token: str) -> None:
    doors(f"signing with key {token} failed", [token], ["signing with key "])


NAMES = [
    "clientSecret",
    "UserAccountSettings",
    "MaxRetryCount",
    "XmlHttpRequest",
    "HttpClientCfg",
    "SqlConnStr",
    "AccessControlAllowOrigin",
    "JsonWebKeySet",
    "idempotencyKey",
    "WwwAuthenticate",
    "LongRunningTaskTimeoutMillis",
]


@pytest.mark.parametrize("name", NAMES)
def test_a_name_after_a_bare_key_stays(name: str) -> None:
    stays(f"missing key {name}")
    stays(f"KeyError: key {name} not found")


_CONSONANTS = "bcdfghjklmnpqrstvwxz"


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.text(_CONSONANTS, min_size=3, max_size=5), min_size=3, max_size=5))
def test_camel_pieces_without_vowels_go(pieces: list[str]) -> None:
    token = "".join(piece.capitalize() for piece in pieces)
    out = th.redact(f"used key {token} to sign")
    assert token not in out, out


# -- 4. a literal before a reference inside quotes -------------------------------------

REFERENCES = ["${DB_PASSWORD}", "%(password)s", "{{ .Values.db.password }}", "#{db.password}"]


@pytest.mark.parametrize("reference", REFERENCES)
@pytest.mark.parametrize(
    "shape",
    ['password="{v}"', "password = '{v}'", '{{"password": "{v}"}}', "{{'password': '{v}'}}"],
)
def test_a_literal_goes_and_its_reference_stays(reference: str, shape: str) -> None:
    text = shape.format(v="Tr0ub4dor3" + reference)
    doors(text, ["Tr0ub4dor3"], [reference])


def test_a_reference_alone_or_a_word_in_brackets() -> None:
    stays('password="${DB_PASSWORD}"')
    assert "swordfish" not in th.redact('password="Tr0ub4dor3${swordfish}"')


@settings(max_examples=examples(200), deadline=None)
@given(
    _PASSWORDS,
    st.sampled_from(REFERENCES),
    st.sampled_from(['"', "'"]),
    st.sampled_from(["DB_PASSWORD=", "password: ", "secret = ", "api_key="]),
)
def test_any_literal_before_a_reference(
    literal: str, reference: str, quote: str, label: str
) -> None:
    text = f"{label}{quote}{literal}{reference}{quote}\n"
    out = th.redact(text)
    assert literal not in out, (text, out)
    assert reference in out, (text, out)


# -- 5. a flag's argument holding "=" --------------------------------------------------

FLAGS = ["--password", "--token", "--secret", "--api-key", "--passwd", "--client-secret"]


@pytest.mark.parametrize("flag", FLAGS)
def test_a_flag_s_argument_with_an_equals_sign_goes(flag: str) -> None:
    doors(f"deployctl push {flag} Ab12=xQ9z --verbose", ["Ab12=xQ9z", "xQ9z"], [flag, "--verbose"])


def test_a_flag_s_argument_in_a_real_called_process_error() -> None:
    """``CalledProcessError``'s message holds the argv's repr."""

    @th.tool(name="deploy")
    def deploy(env: str) -> str:
        return subprocess.run(
            [sys.executable, "-c", "raise SystemExit(3)", "--password", "Ab12=xQ9z"],
            check=True,
            capture_output=True,
        ).stdout.decode()

    failed = th.Session([deploy]).call("deploy", {"env": "prod"})
    assert not failed.ok and "Ab12=xQ9z" not in failed.content and "xQ9z" not in failed.content
    assert "--password" in failed.content, failed.content


@pytest.mark.parametrize(
    "text",
    [
        "gpg --batch --passphrase-fd 0 -d secrets.gpg",
        "tool --token-file a=b",
        "docker run -p 8080:80 nginx",
        "tool -p a=b",
        "tool --define key=value",
    ],
)
def test_flags_that_hold_no_secret_stay(text: str) -> None:
    stays(text)


@settings(max_examples=examples(200), deadline=None)
@given(
    st.sampled_from(["mytool", "deployctl", "./run.sh", "acme-cli login"]),
    st.sampled_from(FLAGS),
    _PASSWORDS,
    _PASSWORDS,
)
def test_any_flag_argument_with_equals_goes(command: str, flag: str, left: str, right: str) -> None:
    value = f"{left}={right}"
    out = th.redact(f"{command} {flag} {value} --region eu-west-1")
    assert left not in out and right not in out, out
    assert flag in out and "--region eu-west-1" in out, out


# -- 6. an echo pipe into sudo -S inside escaped JSON and a list's repr ----------------

PIPES = [
    '"{\\"cmd\\": \\"echo hunter2x | sudo -S apt update\\"}"',
    '{"cmd": "echo \\"hunter2x\\" | sudo -S apt"}',
    "['sh', '-c', 'echo hunter2x | sudo -S apt update']",
    "['sh', '-c', \"echo 'hunter2x' | sudo -S apt update\"]",
    repr(["bash", "-c", "echo hunter2x | sudo -S systemctl restart app"]),
    json.dumps({"args": ["bash", "-c", "printf 'hunter2x\\n' | sudo -S apt"]}),
]


@pytest.mark.parametrize("text", PIPES)
def test_an_echo_pipe_into_sudo_goes(text: str) -> None:
    doors(text, ["hunter2x"], ["sudo -S"])


_SHELL_WORDS = st.text(
    string.ascii_letters + string.digits + "-_.", min_size=8, max_size=20
).filter(
    lambda v: (
        any(c.isdigit() for c in v) and any(c.islower() for c in v) and any(c.isupper() for c in v)
    )
)
"""Passwords a shell echoes as written (no glob, no comment, no expansion)."""


@settings(max_examples=examples(100), deadline=None)
@given(_SHELL_WORDS, st.sampled_from(["json", "repr", "escaped"]))
def test_any_echo_pipe_into_sudo(password: str, carrier: str) -> None:
    command = f"echo {password} | sudo -S apt-get update"
    text = {
        "json": json.dumps({"cmd": command}),
        "repr": repr(["sh", "-c", command]),
        "escaped": json.dumps(json.dumps({"cmd": command})),
    }[carrier]
    out = th.redact(text)
    assert password not in out, out
    assert "sudo -S apt-get update" in out, out


# -- 7. TOML values over several lines -------------------------------------------------

TOML = [
    ("[db]\npassword = '''\nhunter2abc\n'''\nuser = 'bob'\n", "hunter2abc"),
    ('[db]\npassword = """\\\n  hunter2abc \\\n  Qx7pLm2R"""\nuser = "bob"\n', "Qx7pLm2R"),
    ('[db]\npassword = """\nhunter2abc\n"""\nuser = "bob"\n', "hunter2abc"),
    ('api_keys = [\n  "Qx7pLm2Rab9",  # prod\n  "zx9kq2Lm",\n]\nuser = "bob"\n', "Qx7pLm2Rab9"),
    ('passwords = [\n  "hunter2",\n  "correct horse"\n]\nuser = "bob"\n', "correct horse"),
]


@pytest.mark.parametrize(("text", "secret"), TOML)
def test_a_toml_value_over_lines_goes(text: str, secret: str) -> None:
    out = doors(text, [secret], ['user = "bob"' if '"bob"' in text else "user = 'bob'"])
    assert out.count("\n") == text.count("\n") or "[redacted:" in out


@pytest.mark.parametrize(
    "text",
    [
        'description = """\nThe password is required.\n"""\n',
        'names = [\n  "alice",\n  "bob",\n]\n',
        'password = """\n${DB_PASSWORD}\n"""\n',
        "notes = '''\nrotate the token monthly\n'''\n",
    ],
)
def test_toml_values_over_lines_that_are_no_secret_stay(text: str) -> None:
    stays(text)


@settings(max_examples=examples(200), deadline=None)
@given(
    _PASSWORDS,
    st.sampled_from(["password", "token", "client_secret", "DB_PASSWORD"]),
    st.sampled_from(["'''", '"""', '"""\\']),
)
def test_any_toml_multi_line_secret(value: str, key: str, opener: str) -> None:
    closer = opener[:3]
    text = f"[app]\n{key} = {opener}\n  {value}\n{closer}\nport = 8080\n"
    out = th.redact(text)
    assert value not in out, out
    assert "port = 8080" in out, out


# -- 8. Terraform state ----------------------------------------------------------------

_BCRYPT = "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"
_PEM = (
    "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIPx3k0Wq9pLm2RzT7vB1nQ8sYcD4eF6gH0jK2lM3nO5p\n"
    "-----END PRIVATE KEY-----\n"
)


def _state(result: str) -> dict[str, Any]:
    return {
        "version": 4,
        "terraform_version": "1.7.5",
        "resources": [
            {
                "mode": "managed",
                "type": "random_password",
                "name": "db",
                "instances": [
                    {
                        "schema_version": 3,
                        "attributes": {
                            "bcrypt_hash": _BCRYPT,
                            "id": "none",
                            "length": 16,
                            "result": result,
                            "special": True,
                        },
                        "sensitive_attributes": [
                            [{"type": "get_attr", "value": "bcrypt_hash"}],
                            [{"type": "get_attr", "value": "result"}],
                        ],
                    }
                ],
            },
            {
                "mode": "managed",
                "type": "tls_private_key",
                "name": "k",
                "instances": [
                    {
                        "attributes": {
                            "algorithm": "ED25519",
                            "private_key_pem": _PEM,
                            "public_key_fingerprint_md5": "aa:bb:cc",
                        },
                        "sensitive_attributes": [],
                    }
                ],
            },
            {
                "mode": "managed",
                "type": "aws_iam_access_key",
                "name": "ci",
                "instances": [
                    {
                        "attributes": {
                            "id": "AKIAIOSFODNN7EXAMPLE",
                            "secret": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                            "ses_smtp_password_v4": "BDp9aA7sR2mK8vL3nQ6wE1tY5uI0oP4zX9cV2bN7mJ3h",
                            "status": "Active",
                            "user": "ci-deployer",
                        },
                        "sensitive_attributes": [
                            [{"type": "get_attr", "value": "secret"}],
                            [{"type": "get_attr", "value": "ses_smtp_password_v4"}],
                        ],
                    }
                ],
            },
        ],
    }


_TF_SECRETS = ["N9qo8uLOickgx2", "MC4CAQAwBQYDK2Vw", "wJalrXUtnFEMI", "BDp9aA7sR2mK8vL3"]


@pytest.mark.parametrize("indent", [None, 2])
def test_terraform_state_loses_its_secrets(indent: int | None) -> None:
    text = json.dumps(_state("k3Vq!9zR#m2Lp&8x"), indent=indent)
    doors(text, ["k3Vq!9zR#m2Lp&8x", *_TF_SECRETS], ["ci-deployer", "ED25519", '"length": 16'])


def test_terraform_show_json_loses_its_secrets() -> None:
    show = {
        "format_version": "1.0",
        "values": {
            "root_module": {
                "resources": [
                    {
                        "address": "random_password.db",
                        "type": "random_password",
                        "values": {"bcrypt_hash": _BCRYPT, "length": 12, "result": "hunterhunter"},
                        "sensitive_values": {"bcrypt_hash": True, "result": True},
                    },
                    {
                        "address": "aws_db_instance.main",
                        "type": "aws_db_instance",
                        "values": {
                            "identifier": "main-db",
                            "password": "plainword",
                            "engine": "pg",
                        },
                        "sensitive_values": {"password": True},
                    },
                    {
                        "address": "random_pet.name",
                        "type": "random_pet",
                        "values": {"id": "proud-lemur", "length": 2},
                        "sensitive_values": {},
                    },
                ]
            }
        },
    }
    for text in (json.dumps(show), json.dumps({"stdout": json.dumps(show)})):
        doors(text, ["hunterhunter", "N9qo8uLOickgx2", "plainword"], ["proud-lemur", "main-db"])


@settings(max_examples=examples(100), deadline=None)
@given(
    st.text(string.ascii_letters + string.digits + "!#$%&*()-_=+[]{}<>:?", min_size=8, max_size=32)
)
def test_any_random_password_result_goes(result: str) -> None:
    text = json.dumps(_state(result), indent=2)
    out = th.redact(text)
    assert json.dumps(result)[1:-1] not in out.replace('"result": "[redacted:secret]"', ""), out


# -- 9. _named reads every object of a text under the cap --------------------------------


@pytest.mark.parametrize("indent", [None, 1])
@pytest.mark.parametrize("empties", [0, 3, 6])
def test_every_name_value_pair_of_a_large_text_goes(indent: int | None, empties: int) -> None:
    objects = [
        {
            **{f"m{j}": {} if empties else {"x": {"y": 1}} for j in range(max(empties, 1))},
            "name": "DB_PASSWORD",
            "value": f"hunterQ{i:05d}",
        }
        for i in range(900)
    ]
    text = json.dumps(objects, indent=indent)
    while len(text) > 65_000:
        objects.pop()
        text = json.dumps(objects, indent=indent)
    out = th.redact(text)
    left = [str(o["value"]) for o in objects if str(o["value"]) in out]
    assert not left, (len(objects), len(left), left[:3])


# -- 10. a flow list under a password's label ------------------------------------------


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        ("password: [hunter2, x]", ["hunter2"], [", x]"]),
        ("passwords: [hunter2, admin, x]", ["hunter2"], ["admin", ", x]"]),
        ("api_keys: [Qx7pLm2Rab, id]", ["Qx7pLm2Rab"], [", id]"]),
        ("password=[hunter2, x]\nuser: bob", ["hunter2"], ["user: bob"]),
    ],
)
def test_each_flow_item_is_judged(text: str, gone: list[str], kept: list[str]) -> None:
    doors(text, gone, kept)


@pytest.mark.parametrize(
    "text",
    [
        "secrets: [db-password, api-key]",
        "password_rules: [min12x, upper]",
        "tokens: [abcdefghij, klmnopqrst]",
        "key_ids: [Qx7pLm2Rab, id]",
    ],
)
def test_flow_lists_of_names_and_rules_stay(text: str) -> None:
    stays(text)


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(_PASSWORDS, min_size=1, max_size=3),
    st.lists(st.sampled_from(["x", "y", "n/a", "-"]), min_size=1, max_size=2),
    st.sampled_from(["password", "passwords", "secret", "api_keys"]),
)
def test_any_flow_list_beside_short_items(secrets: list[str], others: list[str], key: str) -> None:
    text = f"{key}: [{', '.join(secrets + others)}]"
    out = th.redact(text)
    for secret in secrets:
        assert secret not in out, out
    assert out.startswith(f"{key}: [") and out.endswith("]"), out


# -- 11. a cookie string keeps its display preferences ---------------------------------

SID = "3170bfb2512abb6e79c7c329bd455ecd"


@pytest.mark.parametrize(
    "text",
    [
        json.dumps([{"name": "Cookie", "value": f"sid={SID}; theme=dark"}]),
        json.dumps({"Cookie": f"sid={SID}; theme=dark; lang=en"}),
        repr({"cookie": f"theme=dark; sid={SID}"}),
        f"Cookie: sid={SID}; theme=dark",
    ],
)
def test_a_cookie_s_preferences_stay_and_its_secret_goes(text: str) -> None:
    out = doors(text, [SID], ["theme=dark", "sid="])
    assert "[redacted:" in out


def test_a_cookie_of_secrets_only_still_goes_whole() -> None:
    assert th.redact("Cookie: sid=abc") == "Cookie: [redacted:cookie]"
    assert th.redact("Cookie: lang=ZxqLmRtPk") == "Cookie: [redacted:cookie]"


@settings(max_examples=examples(200), deadline=None)
@given(
    st.text(string.ascii_letters + string.digits, min_size=16, max_size=40).filter(
        lambda v: any(c.isdigit() for c in v) and any(c.isalpha() for c in v)
    ),
    st.lists(
        st.sampled_from(["theme=dark", "lang=en", "tz=UTC", "currency=EUR", "locale=en-US"]),
        min_size=1,
        max_size=3,
        unique=True,
    ),
    st.sampled_from(["sid", "session", "PHPSESSID", "auth_token"]),
    st.booleans(),
)
def test_any_har_cookie_keeps_its_preferences(
    secret: str, preferences: list[str], name: str, first: bool
) -> None:
    pairs = [f"{name}={secret}", *preferences] if first else [*preferences, f"{name}={secret}"]
    text = json.dumps([{"name": "Cookie", "value": "; ".join(pairs)}])
    out = th.redact(text)
    assert secret not in out, out
    for preference in preferences:
        assert preference in out, out
