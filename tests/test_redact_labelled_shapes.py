"""Families an outside tester found in the labelled-values layer (cold-12 of session 8):
a word "login" before a password made the ``.netrc`` reading take the wrong word; labelled
prose shapes the grammar did not read ("is:", a code span, parentheses, commas, dashes,
arrows, a form's ``p=``); credentials named outside the label list (PIN, passcode,
recovery and backup codes, security answers); a validation message's ``key 'name'``
redacted; cursors and ids one JSON escaping down losing their key; secrets named in one
field and given in another (HCL, name/value pairs); Asana, Ansible Vault, Wi-Fi QR and
Terraform Cloud tokens."""

from __future__ import annotations

import json
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples

# A password a person would choose: letters of both cases and a digit, 8 to 14 characters
# (too short for the random-token layer: only its label can find it).
_ALNUM = string.ascii_letters + string.digits
SECRETS = st.builds(
    lambda upper, lower, digit, tail: upper + lower + digit + tail,
    st.sampled_from(string.ascii_uppercase),
    st.text(string.ascii_lowercase, min_size=3, max_size=5),
    st.sampled_from(string.digits),
    st.text(_ALNUM + "!#%", min_size=3, max_size=7),
)
WORDS = st.sampled_from(
    [
        "login",
        "Login",
        "failed",
        "refused",
        "for",
        "user",
        "admin",
        "account",
        "default",
        "machine",
        "web1",
        "the",
        "on",
        "retry",
        "denied:",
        "error:",
        "LOGIN",
        "bob",
    ]
)


# -- 1. a ".netrc" reading needs the entry's real shape ----------------------------------

NETRC_PROSE = [
    "password for {u} is {v}",
    "password is {v}",
    "password was {v}",
    "password: {v}",
    "password {v}",
    "password is: {v}",
]


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(WORDS, min_size=1, max_size=6),
    st.sampled_from(NETRC_PROSE),
    st.sampled_from(["admin", "bob", "root", "svc-ci"]),
    SECRETS,
)
def test_login_and_netrc_words_before_a_password_never_free_it(
    before: list[str], form: str, user: str, value: str
) -> None:
    text = " ".join(before) + " " + form.format(u=user, v=value)
    out = th.redact(text)
    assert value not in out, (text, out)


@pytest.mark.parametrize(
    "entry",
    [
        "machine api.example.com login bob password {v}",
        "machine api.example.com\n  login bob\n  password {v}\n",
        "default login anonymous password {v}",
        "machine h account acme login u password {v}",
        "'machine h\\nlogin u\\npassword {v}\\n'",
    ],
)
def test_a_real_netrc_entry_is_still_read_as_one(entry: str) -> None:
    out = th.redact(entry.format(v="hunter2xyz"))
    assert "hunter2xyz" not in out
    assert "[redacted:netrc-password]" in out


# -- 2. labelled prose in the shapes people write ----------------------------------------

SHAPES = [
    "Your new {l} is: {v}",
    "{l} is now: {v}",
    "{l} `{v}` rejected",
    "{l}: `{v}`",
    "{l} ``{v}``",
    "{l} ({v}) rejected",
    "{l}: ({v})",
    "Your {l}, {v}, is wrong",
    "{l} - {v}",
    "{l} -- {v}",
    "{l} \u2014 {v}",
    "{l} \u2013 {v}",
    "{l} \u2192 {v}",
    "{l}\u2192{v}",
    "{l} \u21d2 {v}",
    "{l} is - {v}",
]
LABELS = st.sampled_from(
    [
        "password",
        "Password",
        "PASSWORD",
        "secret",
        "token",
        "api_key",
        "passcode",
        "access code",
        "recovery code",
        "security answer",
        "secret key",
        "API key",
        "one-time code",
        "verification code",
        "backup code",
        "seed phrase",
        "PIN",
    ]
)


@pytest.mark.parametrize("shape", SHAPES)
@settings(max_examples=examples(30), deadline=None)
@given(label=LABELS, value=SECRETS)
def test_a_labelled_value_goes_in_every_prose_shape(shape: str, label: str, value: str) -> None:
    text = shape.format(l=label, v=value)
    out = th.redact(text)
    assert value not in out, (text, out)


CODE_LABELS = st.sampled_from(
    [
        "PIN",
        "pin",
        "Pin code",
        "passcode",
        "Passcode",
        "recovery code",
        "backup code",
        "access code",
        "verification code",
        "one-time code",
        "MFA code",
        "2FA code",
        "security code",
        "unlock code",
        "reset code",
        "user_pin",
        "pinCode",
        "cvv",
        "CVC",
    ]
)


@settings(max_examples=examples(200), deadline=None)
@given(
    CODE_LABELS,
    st.sampled_from(
        [
            "{l} {v}",
            "{l}: {v}",
            "{l}={v}",
            "{l} is {v}",
            "{l} is: {v}",
            '{{"{l}": "{v}"}}',
            "Your {l} is {v}.",
            "{l} `{v}`",
        ]
    ),
    st.text(string.digits, min_size=4, max_size=10),
)
def test_a_code_that_opens_an_account_goes_even_as_a_number(
    label: str, form: str, value: str
) -> None:
    text = form.format(l=label, v=value)
    out = th.redact(text)
    assert value not in out, (text, out)


@settings(max_examples=examples(60), deadline=None)
@given(
    st.sampled_from(["backup codes", "recovery codes", "backup_codes"]),
    st.lists(st.text(string.digits, min_size=8, max_size=8), min_size=2, max_size=6),
    st.sampled_from([" ", ", ", "\n"]),
)
def test_every_code_of_a_list_goes(label: str, codes: list[str], between: str) -> None:
    text = f"{label}: " + between.join(codes)
    out = th.redact(text)
    assert not any(code in out for code in codes), (text, out)


@pytest.mark.parametrize(
    "text",
    [
        "passcode 482913",
        "PIN 4821",
        "pin: 4821",
        "recovery code: 8f3k-29dk-4mdk",
        "backup codes: 12345678 87654321",
        "access code: 7Hq2Lm",
        "security answer: Fluffy",
        '{"security_answer": "Fluffy"}',
        "seed phrase: abandon ability able about above absent",
    ],
)
def test_credentials_named_outside_the_old_label_list_go(text: str) -> None:
    value = text.split(": ", 1)[-1].split(" ", 1)[-1].strip('"}')
    out = th.redact(text)
    assert value not in out and "[redacted:" in out, (text, out)


@pytest.mark.parametrize(
    "text",
    [
        "status code: 500",
        "error code: E11000",
        "exit code 137",
        "HTTP status code 404",
        "zip code 94110",
        "country code: DE",
        "promo code: SAVE20",
        "code: InvalidParameterValue",
        '{"code": "AccessDenied", "message": "denied"}',
        "gpio_pin=13",
        "set pin 7 high",
        "LED on pin 13",
        "the password is required",
        "Password is: required",
        "password (min 12 characters)",
        "password, username and email are required",
        "token, session and cookie",
        "password - must be at least 12 characters",
        "secret key: required",
        "security answer: incorrect",
        "Your recovery codes were regenerated",
        "pin the version in requirements.txt",
        "?q=shoes&p=2",
        "https://example.com/blog?p=123",
        "p=shoes&sort=price",
    ],
)
def test_prose_and_codes_of_no_secret_stay(text: str) -> None:
    assert th.redact(text) == text


USER_KEYS = st.sampled_from(["u", "user", "username", "login", "email", "j_username"])


@settings(max_examples=examples(60), deadline=None)
@given(USER_KEYS, st.sampled_from(["bob", "alice%40example.com"]), SECRETS, st.booleans())
def test_a_forms_one_letter_password_beside_a_user_goes(
    user_key: str, user: str, value: str, password_first: bool
) -> None:
    pairs = [f"{user_key}={user}", f"p={value}"]
    if password_first:
        pairs.reverse()
    text = "POST /login body: " + "&".join(pairs)
    out = th.redact(text)
    assert value not in out, (text, out)


# -- 3. survivors: validation messages and values one JSON escaping down ------------------

IDENTIFIERS = st.from_regex(r"[a-z]{2,9}(?:[_-][a-z]{2,8}){0,2}", fullmatch=True)


@settings(max_examples=examples(100), deadline=None)
@given(
    IDENTIFIERS,
    st.sampled_from(
        [
            "missing key '{k}'",
            'unknown key "{k}"',
            "key '{k}' must be a list",
            "required key `{k}` not found",
            'rate limit for key "{k}" exceeded',
            "KeyError: key '{k}'",
        ]
    ),
)
def test_a_keys_name_in_a_validation_message_stays(name: str, form: str) -> None:
    text = form.format(k=name)
    assert th.redact(text) == text


def test_a_bare_key_with_a_credential_still_goes() -> None:
    for text in ["use key 'Qx7pL2vB' to sign", "use key Qx7pL2 to sign", "key: Qx7pL2vB9k"]:
        out = th.redact(text)
        assert "Qx7pL2" not in out, out


_B64 = string.ascii_letters + string.digits


@settings(max_examples=examples(80), deadline=None)
@given(
    st.sampled_from(
        ["next_page_token", "nextPageToken", "cursor", "NextToken", "id", "file_id", "requestId"]
    ),
    st.text(_B64, min_size=22, max_size=40),
    st.integers(1, 3),
)
def test_a_cursor_or_id_keeps_its_key_however_deep_its_json(
    key: str, value: str, depth: int
) -> None:
    body: object = {key: value}
    for _ in range(depth):
        body = {"value": json.dumps(body)}
    text = json.dumps(body)
    out = th.redact(text)
    assert value in out, (text, out)


def test_a_cursor_in_a_json_body_of_a_dict_result_reaches_the_model() -> None:
    cursor = "CiAKGjBpNDd2Nmp1b2VmZ2xmaG9rdGZ0dDNhdHQSABgB"

    @th.tool(retries=0)
    def page() -> dict[str, object]:
        """A page."""
        return {"status": 200, "body": json.dumps({"items": [], "next_page_token": cursor})}

    outcome = th.Session([page]).call("page", {})
    assert outcome.ok and cursor in outcome.content


def test_a_secret_one_json_escaping_down_still_goes() -> None:
    text = json.dumps({"value": json.dumps({"session_id": "aB3dE6gH9jK2mN5pQ8sT1v"})})
    assert "aB3dE6gH9jK2mN5pQ8sT1v" not in th.redact(text)


# -- 4. a secret named in one field and given in another, and more formats ----------------

NAMES = st.sampled_from(["DB_PASSWORD", "db_password", "API_KEY", "stripe_secret", "AUTH_TOKEN"])
PAIRS = [
    'variable "{n}" {{\n  type    = string\n  default = "{v}"\n}}',
    'variable "{n}" {{ default = "{v}" }}',
    'output "{n}" {{\n  value = "{v}"\n  sensitive = false\n}}',
    "env:\n- name: {n}\n  value: {v}\n",
    'env:\n  - name: {n}\n    value: "{v}"\n',
    '{{"name": "{n}", "value": "{v}"}}',
    '{{"Name": "{n}", "Value": "{v}", "Type": "String"}}',
    '{{"key": "{n}", "value": "{v}"}}',
    '{{"ParameterKey": "{n}", "ParameterValue": "{v}"}}',
]


@pytest.mark.parametrize("pair", PAIRS)
@settings(max_examples=examples(20), deadline=None)
@given(name=NAMES, value=SECRETS)
def test_a_secret_named_in_one_field_goes_from_the_next(pair: str, name: str, value: str) -> None:
    text = pair.format(n=name, v=value)
    for carrier in (text, json.dumps({"body": text})):
        out = th.redact(carrier)
        assert value not in out, (carrier, out)
        assert name in out


@pytest.mark.parametrize(
    "text",
    [
        'variable "region" {\n  default = "eu-west-1"\n}',
        "env:\n- name: LOG_LEVEL\n  value: debug\n",
        '{"name": "color", "value": "blue"}',
        '{"key": "page_size", "value": "50"}',
    ],
)
def test_a_named_value_of_no_secret_stays(text: str) -> None:
    assert th.redact(text) == text


def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


@settings(max_examples=examples(40), deadline=None)
@given(st.randoms(use_true_random=False))
def test_asana_ansible_wifi_and_terraform_tokens_go(rng: random.Random) -> None:
    digits = "".join(rng.choice(string.digits) for _ in range(16))
    other = "".join(rng.choice(string.digits) for _ in range(16))
    tail = _hex(rng, 32)
    tfc_id = "".join(rng.choice(_ALNUM) for _ in range(14))
    tfc = tfc_id + ".atlasv1." + "".join(rng.choice(_ALNUM + "_-") for _ in range(67))
    vault = "\n".join(_hex(rng, 80) for _ in range(3))
    wifi = "".join(rng.choice(_ALNUM) for _ in range(12))
    cases = [
        (f"asana: 2/{digits}/{other}:{tail}", tail),
        (f"ASANA_PAT=1/{digits}:{tail}", tail),
        (f"token 0/{tail}", tail),
        (f"creds: {tfc}", tfc_id),
        (f"db_pass: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n{vault}\nnext: 1", vault[:80]),
        (json.dumps({"v": f"$ANSIBLE_VAULT;1.2;AES256;prod\n{vault}"}), vault[:80]),
        (f"WIFI:S:HomeNet;T:WPA;P:{wifi};H:false;;", wifi),
        (f"WIFI:T:WPA;P:{wifi};S:Cafe;;", wifi),
    ]
    for text, secret in cases:
        out = th.redact(text)
        assert secret not in out, (text, out)
    assert th.redact(cases[4][0]).endswith("\nnext: 1")


@pytest.mark.parametrize(
    "text",
    [
        "see 12/2/2024 and v1/items",
        "ratio 1/2 of 0/0",
        "WIFI:S:HomeNet;T:nopass;;",
        "$ANSIBLE_VAULT is the header word",
        "sha1/0123456789abcdef0123456789abcdef",
    ],
)
def test_shapes_near_those_formats_stay(text: str) -> None:
    assert th.redact(text) == text
