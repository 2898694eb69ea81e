"""Secrets that reached the model through ``redact`` and ``Session.call`` (session 12,
leak17: the families cold15 found still open), each family in every carrier.

1. a labelled value in brackets (``[v]``, ``{v}``, ``{{v}}``, ``${v}``, ``$(v)``,
   ``<<v>>``), judged by what the brackets hold; a shell variable's default;
2. a public key's shape under a private or secret label (WireGuard), and a key and its
   value written as a secret's value;
3. a JSON Web Key's ``x``/``y`` that are no point of its curve; its private members in
   a dict repr;
4. an OpenPGP public block with a secret in a user id or a notation;
5. a token alone on the line after a placeholder or a mask;
6. a label inside the value of a key that names no secret;
7. PagerDuty keys in Events API URLs and as old-style routing keys; a token of letters
   alone after a secret's word;
8. an echo in another Unicode normal form or without its accents.
"""

from __future__ import annotations

import base64
import json
import os
import random
import string
import unicodedata
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from corpus import every_door
from helpers import crc24, examples
from toolhygiene._keyformats import jwk_public_value, openpgp_texts
from toolhygiene._labels import bracketed_verdict

# -- 1. bracketed values ------------------------------------------------------------------

BRACKETED_SECRETS = [
    ("password=[{v}]", "hunter2x"),
    ("password: {{{v}}}", "Tr0ub4dor3"),
    ("password: {{{{{v}}}}}", "Tr0ub4dor3"),
    ("password: {{{{ {v} }}}}", "Tr0ub4dor3"),
    ("password=${{{v}}}", "Tr0ub4dor&3"),
    ("password=$({v})", "Tr0ub4dor3"),
    ("password: <<{v}>>", "Tr0ub4dor3"),
    ("password=#{{{v}}}", "Tr0ub4dor3"),
    ("password=[{v}]tail9", "hunter2x"),
    ("token=[{v}] more", "Qx7pLm2Rzz9"),
    ("password is [{v}]", "hunter2x"),
    ("api_key=[{v}]", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"),
    ("key=[{v}]", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"),
]


@pytest.mark.parametrize(("frame", "value"), BRACKETED_SECRETS)
def test_a_bracketed_value_after_a_label_is_judged_by_what_it_holds(frame: str, value: str) -> None:
    line = frame.format(v=value)
    every_door(line, value)


_TOKEN_ALPHABET = string.ascii_letters + string.digits + "!@#%^&*+"
_OPENERS = [("[", "]"), ("{", "}"), ("{{", "}}"), ("${", "}"), ("$(", ")"), ("<<", ">>")]


@settings(max_examples=examples(200), deadline=None)
@given(
    st.text(_TOKEN_ALPHABET, min_size=8, max_size=40).filter(
        lambda v: any(c.isdigit() for c in v) and any(c.isalpha() for c in v)
    ),
    st.sampled_from(_OPENERS),
    st.sampled_from(["password", "db_password", "API_TOKEN", "secret", "client_secret"]),
    st.sampled_from(["{l}={b}", "{l}: {b}", "{l} = {b}", '{{"{l}": "{b}"}}', "{{'{l}': {b}}}"]),
)
def test_any_token_in_any_bracket_goes(
    value: str, brackets: tuple[str, str], label: str, frame: str
) -> None:
    opener, closer = brackets
    text = frame.format(l=label, b=opener + value + closer) + " end"
    assert value not in th.redact(text), text


REFERENCES = [
    "password=${DB_PASSWORD}",
    "password=${db_password}",
    "password=$(cat /run/secrets/pw)",
    "password=$(get_password)",
    "password: {{ .Values.password }}",
    "password: {{ vault_password }}",
    "password: ${{ secrets.GH_TOKEN }}",
    "password=%(password)s",
    "password=#{password}",
    "password=#{db.password}",
    "api_key: ${process.env.API_KEY}",
    "password=[redacted]",
    "password=[REDACTED]",
    "password=[PASSWORD]",
    "password=<password>",
    "password: <<your-password>>",
    "password={password}",
    "password={}",
    "password={0}",
    "password=[****]",
    "password=${PW:-$OTHER}",
    "password=${PW:?PW must be set}",
    "secrets: [db-password, api-key]",
    "host=${DB_HOST:-localhost}",
]


@pytest.mark.parametrize("text", REFERENCES)
def test_a_reference_or_a_placeholder_in_brackets_stays(text: str) -> None:
    assert th.redact(text) == text


@pytest.mark.parametrize(
    ("value", "verdict"),
    [
        ("[hunter2x]", True),
        ("{Tr0ub4dor3}", True),
        ("{{hunter2x}}", True),
        ("${hunter2x}", True),
        ("${DB_PASSWORD}", False),
        ("{hunter}", True),  # a word of prose is the value (leak19: ``reference_name``)
        ("{password}", False),  # a format field named by the secret's word
        ("[not set]", False),  # a note in brackets (words in brackets are read: fix18a)
        ("password", None),
    ],
)
def test_bracketed_verdict(value: str, verdict: bool | None) -> None:
    assert bracketed_verdict(value) is verdict


@pytest.mark.parametrize(
    ("text", "kept", "gone"),
    [
        ("password=${PW:-changeme}", "password=${PW:-", "changeme"),
        ("password=${MY_VAR:-Tr0ub4dor3}", "${MY_VAR:-", "Tr0ub4dor3"),
        ("DB_PASSWORD: ${DB_PASSWORD:=Tr0ub4dor3}", "${DB_PASSWORD:=", "Tr0ub4dor3"),
        ("echo ${API_TOKEN:-abc123def456}", "${API_TOKEN:-", "abc123def456"),
        ("password=${PW-Tr0ub4dor3}", "${PW-", "Tr0ub4dor3"),
        ("password=${PW:+Tr0ub4dor3}", "${PW:+", "Tr0ub4dor3"),
    ],
)
def test_a_variables_default_under_a_secret_loses_only_the_default(
    text: str, kept: str, gone: str
) -> None:
    out = th.redact(text)
    assert kept + "[redacted:secret]}" in out, out
    assert gone not in out


def test_a_placeholder_then_a_token_on_its_line_goes() -> None:
    for text in (
        "password: [redacted] Qx7pLm2Rzz",
        "password: [REDACTED] then Qx7pLm2Rzz",
        "password: {{unset}} Qx7pLm2Rzz",
    ):
        assert "Qx7pLm2Rzz" not in th.redact(text), text
    assert th.redact("password: [redacted] for security") == "password: [redacted] for security"


# -- 2. public shapes under a private label ------------------------------------------------


def _wg_key(rng: random.Random, *, clamped: bool) -> str:
    raw = bytearray(rng.randbytes(32))
    raw[31] &= 0x7F  # a Curve25519 u: the top bit clear
    if clamped:
        raw[0] &= 0xF8
        raw[31] |= 0x40
    else:
        raw[0] |= 0x01  # not shaped as ``wg genkey`` writes a private key
    return base64.b64encode(bytes(raw)).decode()


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_a_wireguard_key_under_a_private_label_goes_whole(seed: int, clamped: bool) -> None:
    key = _wg_key(random.Random(seed), clamped=clamped)
    for frame in (
        "WG_PRIVATE_KEY: PublicKey = {k}",
        "WG_PRIVATE_KEY=PublicKey = {k}",
        "WG_PRIVATE_KEY: publicKey: {k}",
        "wg private key PublicKey = {k}",
        "secret: PublicKey = {k}",
        "[Interface]\nPrivateKey = {k}\nListenPort = 51820",
        "privkey = {k}",
        "wg_privkey: {k}",
    ):
        text = frame.format(k=key)
        out = th.redact(text)
        assert key not in out and key[:-1] not in out, out
        assert "]=" not in out, out  # no padding left beside a mark


def test_the_labels_line_shows_one_mark() -> None:
    key = _wg_key(random.Random(3), clamped=False)
    assert th.redact(f"WG_PRIVATE_KEY: PublicKey = {key}") == "WG_PRIVATE_KEY: [redacted:secret]"


def test_a_wireguard_public_key_stays() -> None:
    key = _wg_key(random.Random(5), clamped=False)
    for text in (f"PublicKey = {key}", f"[Peer]\nPublicKey = {key}", f"peer: {key}"):
        assert th.redact(text) == text


def test_an_ssh_public_key_under_a_private_label_goes_but_under_ssh_key_stays() -> None:
    blob = "AAAAC3NzaC1lZDI1NTE5AAAAIM0HLNi+b59irEwJwoIG5+NVlKprNC9dCjpeSEL6tCj3"
    assert blob not in th.redact(f"private_key: ssh-ed25519 {blob}")
    kept = f"ssh_key: ssh-ed25519 {blob} bob@laptop"
    assert th.redact(kept) == kept


# -- 3. JSON Web Keys ----------------------------------------------------------------------


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _ec(curve_name: str) -> dict[str, str]:
    from cryptography.hazmat.primitives.asymmetric import ec

    curve, size = {
        "P-256": (ec.SECP256R1(), 32),
        "P-384": (ec.SECP384R1(), 48),
        "P-521": (ec.SECP521R1(), 66),
        "secp256k1": (ec.SECP256K1(), 32),
    }[curve_name]
    numbers = ec.generate_private_key(curve).private_numbers()
    return {
        "kty": "EC",
        "crv": curve_name,
        "x": _b64url(numbers.public_numbers.x.to_bytes(size, "big")),
        "y": _b64url(numbers.public_numbers.y.to_bytes(size, "big")),
        "d": _b64url(numbers.private_value.to_bytes(size, "big")),
    }


def _okp(curve_name: str) -> dict[str, str]:
    from cryptography.hazmat.primitives.asymmetric import ed448, ed25519

    key = (
        ed25519.Ed25519PrivateKey if curve_name == "Ed25519" else ed448.Ed448PrivateKey
    ).generate()
    return {
        "kty": "OKP",
        "crv": curve_name,
        "x": _b64url(key.public_key().public_bytes_raw()),
        "d": _b64url(key.private_bytes_raw()),
    }


CURVES = ["P-256", "P-384", "P-521", "secp256k1"]


@pytest.mark.parametrize("curve", CURVES)
def test_a_real_ec_point_is_public(curve: str) -> None:
    jwk = _ec(curve)
    public = {k: v for k, v in jwk.items() if k != "d"}
    assert jwk_public_value(public, "x") and jwk_public_value(public, "y")
    assert th.redact(json.dumps(public)) == json.dumps(public)


@pytest.mark.parametrize("curve", ["Ed25519", "Ed448"])
def test_a_real_edwards_point_is_public(curve: str) -> None:
    public = {k: v for k, v in _okp(curve).items() if k != "d"}
    assert jwk_public_value(public, "x")


@pytest.mark.parametrize("curve", CURVES)
def test_a_secret_written_as_an_ec_coordinate_is_no_point(curve: str) -> None:
    jwk = _ec(curve)
    size = len(base64.urlsafe_b64decode(jwk["x"] + "=="))
    secret = b"hunter2-is-my-password-for-db!!!".ljust(size, b"!")
    forged = {"kty": "EC", "crv": curve, "x": _b64url(secret), "y": jwk["y"]}
    assert not jwk_public_value(forged, "x")
    assert forged["x"] not in th.redact(json.dumps(forged))


def test_ed25519_encodings_of_text_mostly_fail() -> None:
    # half of all 32-byte strings decode to a point: the check is a filter, not proof
    rng = random.Random(7)
    passed = sum(
        jwk_public_value({"kty": "OKP", "crv": "Ed25519", "x": _b64url(rng.randbytes(32))}, "x")
        for _ in range(400)
    )
    assert 100 < passed < 300


@pytest.mark.parametrize("make", [lambda: _ec("P-256"), lambda: _okp("Ed25519")])
def test_a_jwks_private_member_goes_in_json_dict_repr_and_yaml(make: object) -> None:
    assert callable(make)
    jwk: dict[str, str] = make()
    forms = [
        json.dumps(jwk),
        json.dumps(jwk, indent=2),
        repr(jwk),
        "\n".join(f"{k}: {v}" for k, v in jwk.items()),
        json.dumps(json.dumps(jwk)),
    ]
    for form in forms:
        assert jwk["d"] not in th.redact(form), form
    out = th.redact(json.dumps(jwk))
    assert jwk["x"] in out  # its public part stays where it is a point


# -- 4. OpenPGP ----------------------------------------------------------------------------


def _packet(tag: int, body: bytes) -> bytes:
    assert len(body) < 192
    return bytes([0xC0 | tag, len(body)]) + body


def _armor(data: bytes) -> str:
    body = base64.b64encode(data).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    check = base64.b64encode(crc24(data).to_bytes(3, "big")).decode()
    return "\n".join(
        [
            "-----BEGIN PGP PUBLIC KEY BLOCK-----",
            "",
            *lines,
            "=" + check,
            "-----END PGP PUBLIC KEY BLOCK-----",
        ]
    )


def _pgp_key(uid: str, notation: tuple[str, str] | None = None, seed: int = 1) -> str:
    rng = random.Random(seed)
    oid = bytes.fromhex("2b06010401da470f01")
    point = b"\x40" + rng.randbytes(32)
    body = b"\x04" + rng.randbytes(4) + b"\x16" + bytes([len(oid)]) + oid + b"\x01\x07" + point
    data = _packet(6, body) + _packet(13, uid.encode())
    if notation is not None:
        name, value = (part.encode() for part in notation)
        sub = bytes([0x80 | 20]) + b"\x80\x00\x00\x00"
        sub += len(name).to_bytes(2, "big") + len(value).to_bytes(2, "big") + name + value
        hashed = bytes([len(sub)]) + sub
        sig = b"\x04\x13\x16\x08" + len(hashed).to_bytes(2, "big") + hashed
        data += _packet(2, sig + b"\x00\x00\xab\xcd\x00\x01\x01")
    return _armor(data)


@pytest.mark.parametrize(
    ("uid", "notation"),
    [
        ("Alice (password=hunter2xyz) <a@example.org>", None),
        ("Alice sk_live_4eC39HqLyjWDarjtT1zdp7dc <a@example.org>", None),
        ("Bob <b@example.org>", ("note@example.org", "api_key=Qx7pLm2Rzz9wT4")),
        ("Bob <b@example.org>", ("token@example.org", "ghp_" + "A1b2C3d4E5" * 3 + "A1b2C3")),
    ],
)
def test_a_pgp_public_block_with_a_secret_in_a_user_id_or_notation_goes(
    uid: str, notation: tuple[str, str] | None
) -> None:
    block = _pgp_key(uid, notation)
    for text in (block, f"imported:\n{block}\n", json.dumps({"key": block})):
        out = th.redact(text)
        for line in block.splitlines()[2:-2]:
            assert line not in out, out
    assert "private-key" not in th.redact(block)  # a public block: no private key


@pytest.mark.parametrize(
    ("uid", "notation"),
    [
        ("Alice <alice@example.org>", None),
        ("Bob <b@example.org>", ("proof@ariadne.id", "https://github.com/bob")),
    ],
)
def test_a_pgp_public_block_with_plain_user_ids_stays(
    uid: str, notation: tuple[str, str] | None
) -> None:
    block = _pgp_key(uid, notation)
    assert th.redact(block) == block
    texts = openpgp_texts("\n".join(block.splitlines()[2:-1]))
    assert uid in texts


# -- 5. a token on the line after a placeholder -------------------------------------------


@pytest.mark.parametrize(
    "frame",
    [
        "password: [redacted]\n{v}",
        "password: [redacted]\n  {v}",
        "password: ********\n{v}",
        "password=********\n{v}",
        "password: <unset>\n{v}",
        "password: (hidden)\n{v}",
        "password: n/a\n{v}",
        "password:\n  {v}",
        "password:\n    {v}",
        "db:\n  password:\n    {v}\n  host: x",
        "password: |\n  {v}",
    ],
)
@pytest.mark.parametrize("value", ["hunter2xyz", "Tr0ub4dor&3", "Qx7pLm2Rzz"])
def test_a_token_on_the_line_after_a_placeholder_goes(frame: str, value: str) -> None:
    every_door(frame.format(v=value), value, ends_line=True)


def test_pretty_printed_json_with_the_value_on_the_next_line() -> None:
    text = '{\n  "password":\n    "Tr0ub4dor3"\n}'
    assert "Tr0ub4dor3" not in th.redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "password: ****\nuser: bob",
        "password: ****\nConnection refused",
        "password: ****\n12345",
        "password: [REDACTED]\nhttps://example.com/x",
        "password: (hidden)\nok",
    ],
)
def test_the_line_after_a_placeholder_that_is_its_own_stays(text: str) -> None:
    assert th.redact(text) == text


# -- 6. a label inside the value of a key that names no secret ----------------------------


@pytest.mark.parametrize(
    "key",
    [
        "note",
        "message",
        "password_hint",
        "token_type",
        "secret_name",
        "token_count",
        "key_id",
        "error",
    ],
)
@pytest.mark.parametrize(
    ("inner", "value"),
    [
        ("password=", "hunter2xyz"),
        ("token: ", "abcd1234efgh"),
        ("api_key=", "Qx7pLm2Rzz9"),
        ("pw:", "hunter2xyz"),
        ("KeyError: password=", "hunter2xyz"),
    ],
)
def test_a_label_inside_another_keys_value_is_read(key: str, inner: str, value: str) -> None:
    for text in (
        json.dumps({key: inner + value}),
        repr({key: inner + value}),
        f"{key}: {inner}{value}",
        f"{key}='{inner}{value}'",
        json.dumps(json.dumps({key: inner + value})),
    ):
        out = th.redact(text)
        assert value not in out, (text, out)
        assert key in out  # the outer key stays readable


def test_a_rejected_keys_own_value_stays() -> None:
    text = '{"token_count": 12, "password_policy": "min 12", "secret_name": "prod/db"}'
    assert th.redact(text) == text


# -- 7. PagerDuty keys and tokens without a prefix ---------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "POST https://events.pagerduty.com/integration/{k}/enqueue failed",
        "https://events.eu.pagerduty.com/x-ere/{k}",
        "POST https://events.pagerduty.com/v2/enqueue/{k}",
        '{{"routing_key": "{k}", "event_action": "trigger"}}',
        "routing_key={k}",
        "integration key {k}",
        "PagerDuty integration key: {k}",
        "pagerduty service key {k}",
    ],
)
@pytest.mark.parametrize(
    "key", ["0123456789abcdef0123456789abcdef", "R0ABCDEFGHIJKLMNOPQRSTUVWXYZ0123"]
)
def test_a_pagerduty_key_goes(line: str, key: str) -> None:
    every_door(line.format(k=key), key)


@pytest.mark.parametrize(
    "text",
    [
        "commit 0123456789abcdef0123456789abcdef0123abcd",
        "md5 0123456789abcdef0123456789abcdef",
        "checksum: 0123456789abcdef0123456789abcdef",
        "sha256 of file: 0123456789abcdef0123456789abcdef",
        '{"dedup_key": "9f8e7d6c5b4a39281706f5e4d3c2b1a0"}',
        "routing_key: orders.created",
        "the internationalization token expired",
        "token: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    ],
)
def test_hex_digests_and_words_without_a_secret_context_stay(text: str) -> None:
    if "aaaa" in text:
        assert "token:" in th.redact(text)  # a run of one letter: no token (either way)
        return
    assert th.redact(text) == text


@settings(max_examples=examples(150), deadline=None)
@given(
    st.text(string.ascii_lowercase, min_size=24, max_size=48).filter(lambda v: len(set(v)) >= 10),
    st.sampled_from(
        [
            "used token {v} to log in",
            "the secret was {v} yesterday",
            "api key is {v}",
            "my password: {v} (do not share)",
            "token {v} rejected",
        ]
    ),
    st.booleans(),
)
def test_a_token_of_letters_alone_after_a_secret_word_goes(
    value: str, frame: str, upper: bool
) -> None:
    value = value.upper() if upper else value
    text = frame.format(v=value)
    out = th.redact(text)
    assert value not in out, out
    _, tail = frame.split("{v}")
    assert out.endswith(tail.rstrip()), out  # the words after it stay


# -- 8. echoes in another normal form -----------------------------------------------------

ACCENTED = ["Crème-Brûlée-42", "Ångström-Pass-9", "naïve-Café-77x", "Straße-Öl-2024"]


@pytest.mark.parametrize("value", ACCENTED)
@pytest.mark.parametrize("first", ["NFC", "NFD"])
@pytest.mark.parametrize("second", ["NFC", "NFD", "NFKC", "stripped"])
def test_an_echo_in_another_normal_form_goes(
    value: str, first: Literal["NFC", "NFD"], second: Literal["NFC", "NFD", "NFKC", "stripped"]
) -> None:
    shown = unicodedata.normalize(first, value)
    if second == "stripped":
        echo = "".join(
            c for c in unicodedata.normalize("NFD", value) if not unicodedata.combining(c)
        )
    else:
        echo = unicodedata.normalize(second, value)
    line = f"password={shown} and later the value {echo} again"
    every_door(line, shown, echo)


@settings(max_examples=examples(100), deadline=None)
@given(
    st.lists(
        st.sampled_from(list("abcdefghijkmnopqrstuvwxyz0123456789-")), min_size=6, max_size=16
    ),
    st.lists(
        st.sampled_from(["\u0300", "\u0301", "\u0302", "\u0308", "\u030a", "\u0327"]),
        min_size=1,
        max_size=4,
    ),
    st.randoms(use_true_random=False),
)
def test_an_echo_with_its_marks_composed_or_not_goes(
    letters: list[str], marks: list[str], rng: random.Random
) -> None:
    chars = list(letters)
    for mark in marks:
        at = rng.randrange(len(chars))
        chars.insert(at + 1, mark)
    value = "X9" + "".join(chars)
    nfc, nfd = unicodedata.normalize("NFC", value), unicodedata.normalize("NFD", value)
    out = th.redact(f"password={nfc}\nthen {nfd} here")
    assert nfd not in out and nfc not in out, out


def test_a_known_secret_argument_echoed_in_nfd_goes() -> None:
    secret = "Crème-Brûlée-42"

    @th.tool
    def login(password: str) -> str:
        """Log in."""
        raise RuntimeError(f"login failed for {unicodedata.normalize('NFD', password)}")

    session = th.Session([login], max_failures=9)
    out = session.call("login", {"password": secret}).content
    assert unicodedata.normalize("NFD", secret) not in out
    assert secret not in out
    assert os.environ.get("TOOLHYGIENE_NEVER_SET") is None  # (no environment needed)


# -- 1b. a flow sequence of tokens under a secret's key -----------------------------------


@settings(max_examples=examples(100), deadline=None)
@given(
    st.lists(
        st.text(string.ascii_letters + string.digits, min_size=8, max_size=24).filter(
            lambda v: any(c.isdigit() for c in v) and any(c.isalpha() for c in v)
        ),
        min_size=2,
        max_size=5,
    ),
    st.sampled_from(["tokens: [{i}]", "api_keys=[{i}]", "password: [{i}]", "secrets = [{i}]"]),
    st.sampled_from([", ", ","]),
)
def test_a_flow_sequence_of_tokens_under_a_secret_goes(
    items: list[str], frame: str, comma: str
) -> None:
    text = frame.format(i=comma.join(items))
    out = th.redact(text)
    for item in items:
        assert item not in out, out


@pytest.mark.parametrize(
    "text",
    [
        "secrets: [db-password, api-key]",
        "scopes: [read, write]",
        "keys: [id, name]",
        "tokens: [1, 2, 3]",
        "password_rules: [min12x, upper]",
    ],
)
def test_a_flow_sequence_of_names_stays(text: str) -> None:
    assert th.redact(text) == text
