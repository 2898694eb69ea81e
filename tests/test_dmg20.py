"""Issue 12, survivors damaged on main (session 13, helper dmg20; an outside round,
cold19, families 3 and 4): public identifiers read as high-entropy (Google Docs and
Drive ids in their URLs, crypto addresses with their checksums, IPFS CIDs), Stripe's
publishable keys, a public certificate's body named a private key, an ARN under a
secret's label, a status word after an Authorization scheme, and status words, hashing
algorithms and small ids after a secret's label. Each through ``th.redact``, a dict
result and a failure line (``Session.call``), with the leaks next to each survivor that
must still go."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples, failure_line


def _dict_result(value: object) -> str:
    """What the model reads of a trusted tool's successful result ``value``."""

    def read(q: str = "") -> object:
        """Read."""
        return value

    tool = th.tool(name="read", retries=0)(read)
    with th.Session([tool]) as session:
        outcome = session.call("read", {})
    assert outcome.ok, outcome.content
    return outcome.content


def _kept_everywhere(text: str, kept: str) -> None:
    """``kept`` (a part of ``text``) reaches the model through each carrier."""
    assert kept in th.redact(text), th.redact(text)
    shown = _dict_result({"note": text})
    assert kept in json.loads(shown)["note"] if shown.startswith("{") else kept in shown
    assert kept in failure_line(text)


def _gone_everywhere(text: str, secret: str) -> None:
    assert secret not in th.redact(text), th.redact(text)
    assert secret not in _dict_result({"note": text})
    assert secret not in failure_line(text)


TOKEN = "Qx7pLm2R9kZw"

# -- 4: an ARN under any label -------------------------------------------------------------

ARNS = [
    "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf",
    "arn:aws:iam::123456789012:role/service-role/Deploy",
    "arn:aws-us-gov:kms:us-gov-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab",
    "arn:aws:ssm:eu-west-1:123456789012:parameter/prod/db/password",
]


@pytest.mark.parametrize("arn", ARNS)
@pytest.mark.parametrize("label", ["secret_arn", "SecretArn", "password", "api_key", "token"])
@pytest.mark.parametrize("sep", [": ", "=", '": "'])
def test_an_arn_stays_under_any_label(arn: str, label: str, sep: str) -> None:
    quote = '"' if sep.startswith('"') else ""
    _kept_everywhere(f"{quote}{label}{sep}{arn}{quote}", arn)


@pytest.mark.parametrize("sep", [": ", "="])
def test_a_token_after_an_arn_still_goes(sep: str) -> None:
    _gone_everywhere(f"api_key{sep}{ARNS[0]} {TOKEN}", TOKEN)


def test_an_arn_lookalike_with_a_secret_in_it_goes() -> None:
    # not an ARN: no account, no resource, blanks in it
    assert "hunter2x9" not in th.redact("password: arn:hunter2x9")


# -- 5: a status word after an Authorization scheme ----------------------------------------

STATUS_AFTER_SCHEME = [
    "(missing)",
    "<none>",
    "(redacted)",
    "null",
    "undefined",
    '""',
    "(empty)",
    "[unset]",
    "(invalid)",
]


@pytest.mark.parametrize("status", STATUS_AFTER_SCHEME)
@pytest.mark.parametrize("scheme", ["Bearer", "Basic", "Token"])
def test_a_status_after_a_scheme_stays(scheme: str, status: str) -> None:
    _kept_everywhere(f"Authorization: {scheme} {status}", f"{scheme} {status}")


@pytest.mark.parametrize("status", ["(missing)", "<none>", "null"])
def test_a_token_after_a_scheme_status_still_goes(status: str) -> None:
    _gone_everywhere(f"Authorization: Bearer {status} {TOKEN}", TOKEN)


def test_a_bracketed_word_that_is_no_status_goes() -> None:
    _gone_everywhere("Authorization: Bearer (hunter2x9)", "hunter2x9")
    _gone_everywhere("password: (hunter2x9)", "hunter2x9")


# -- 6: status words, hashing algorithms and small ids after a secret's label -------------

SENTENCES = [
    ("api key", "invalid format, expected 32 characters"),
    ("auth", "failed (bad credentials)"),
    ("cookie", "rejected by browser policy"),
    ("cookie", "none set"),
    ("otp", "wrong code"),
    ("password", "must be at least 12 characters"),
    ("token", "expired 3 minutes ago"),
]


@pytest.mark.parametrize(("label", "sentence"), SENTENCES)
def test_a_sentence_about_the_value_stays(label: str, sentence: str) -> None:
    _kept_everywhere(f"{label}: {sentence}", sentence)


@pytest.mark.parametrize(("label", "sentence"), SENTENCES)
def test_a_secret_in_such_a_sentence_goes(label: str, sentence: str) -> None:
    words = sentence.split()
    _gone_everywhere(f"{label}: {words[0]} {TOKEN} {' '.join(words[1:])}", TOKEN)


STATUS_VALUES = [
    "invalid",
    "too_short",
    "not_found",
    "invalid_grant",
    "expired",
    "missing",
    "INVALID_TOKEN",
    "Revoked",
    "too-short",
    "access_denied",
]
SECRET_LABELS = ["token", "password", "api_key", "secret", "client_secret", "PASSWORD"]


@settings(max_examples=examples(200), deadline=None)
@given(
    st.sampled_from(SECRET_LABELS),
    st.sampled_from(["=", ": ", " = ", '="']),
    st.sampled_from(STATUS_VALUES),
)
def test_a_status_word_alone_stays(label: str, sep: str, status: str) -> None:
    quote = '"' if sep.endswith('"') else ""
    text = f"{label}{sep}{status}{quote}"
    assert th.redact(text) == text


@pytest.mark.parametrize("status", ["invalid", "too_short", "(missing)", "invalid_grant"])
@pytest.mark.parametrize("sep", ["=", ": "])
def test_a_token_after_a_status_word_goes(status: str, sep: str) -> None:
    _gone_everywhere(f"password{sep}{status} {TOKEN}", TOKEN)


@pytest.mark.parametrize(
    "word", ["hunter2", "Invalid1", "invalidx", "too_shortish", "dragon", "iNVALID", "expired1"]
)
def test_a_word_off_the_closed_list_goes(word: str) -> None:
    assert word not in th.redact(f"password={word}")


@pytest.mark.parametrize(
    ("label", "name"),
    [
        ("password_hash", "bcrypt"),
        ("hash_algorithm", "argon2id"),
        ("passwordHasher", "pbkdf2_sha256"),
        ("PASSWORD_HASH_ALGORITHM", "scrypt"),
        ("token_hash_alg", "sha256"),
        ("hashing", "bcrypt"),
    ],
)
def test_a_hashing_algorithm_stays(label: str, name: str) -> None:
    _kept_everywhere(f"{label}: {name}", f"{label}: {name}")


@pytest.mark.parametrize(
    "text",
    [
        "password: bcrypt",
        "secret: sha256",
        "password_hash: hunter2x9",
        "password_hash: $2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW",
    ],
)
def test_an_algorithm_name_under_another_label_or_a_hash_goes(text: str) -> None:
    value = text.split(": ", 1)[1]
    assert value not in th.redact(text)


@pytest.mark.parametrize("label", ["session_id", "sessionId", "session-id", "token_id"])
@pytest.mark.parametrize("number", ["42", "7", "123456"])
def test_a_small_id_stays(label: str, number: str) -> None:
    _kept_everywhere(f"{label}: {number}", f"{label}: {number}")


@pytest.mark.parametrize(
    "text",
    ["session_id: 1234567", "pin: 1234", "otp: 123456", "session: 42", "session_id: 42 " + TOKEN],
)
def test_a_longer_id_or_a_code_goes(text: str) -> None:
    value = text.split(": ", 1)[1].rsplit(maxsplit=1)[-1]
    assert value not in th.redact(text)


# -- 1: public identifiers whose format is certain ------------------------------------------

DOC_ID = "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms"
GOOGLE_URLS = [
    f"https://docs.google.com/document/d/{DOC_ID}/edit",
    f"https://docs.google.com/spreadsheets/d/{DOC_ID}/edit#gid=0",
    f"https://docs.google.com/presentation/d/{DOC_ID}/edit?usp=sharing",
    f"https://docs.google.com/document/u/0/d/{DOC_ID}/edit",
    f"https://drive.google.com/file/d/{DOC_ID}/view?usp=drive_link",
    f"https://drive.google.com/drive/folders/{DOC_ID}",
    f"https://docs.google.com/forms/d/e/{DOC_ID}/viewform",
]
ADDRESSES = [
    "0x742d35Cc6634C0532925a3b844Bc454e4438f44e",  # EIP-55
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",  # EIP-55's own example
    "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",  # Bech32, segwit v0
    "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297",  # Bech32m, taproot
    "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",  # Base58Check, version 0
    "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",  # Base58Check, version 5
    "npub1sg6plzptd64u62a878hep2kev88swjh3tw00gjsfl8f237lmu63q0uf63m",
    "xpub6CUGRUonZSQ4TWtTMmzXdrXDtypWKiKrhko4egpiMZbpiaQL2jkwSB1icqYh2cfDfVxdx4df189oLKnC5fSwqPfgyP3hooxujYzAu3fDVmz",
    "QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG",  # CIDv0
    "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi",  # CIDv1, dag-pb
    "bafkreidgvpkjawlxz6sffxzwgooowe5yt7i6wsyg236mfoks77nywkptdq",  # CIDv1, raw
]


@pytest.mark.parametrize("url", GOOGLE_URLS)
def test_a_google_document_id_stays_in_its_url(url: str) -> None:
    _kept_everywhere(f"see {url} for the plan", url)


def test_a_random_segment_in_another_url_still_goes() -> None:
    assert DOC_ID not in th.redact(f"https://example.com/document/d/{DOC_ID}/edit")
    assert DOC_ID not in th.redact(f"https://docs.google.com/x/{DOC_ID}")


@pytest.mark.parametrize("address", ADDRESSES)
def test_a_checked_address_or_cid_stays(address: str) -> None:
    _kept_everywhere(f"send to {address} please", address)
    _kept_everywhere(f"address: {address}", address)
    assert th.redact(json.dumps({"wallet_address": address})) == json.dumps(
        {"wallet_address": address}
    )


def _altered(value: str) -> str:
    """``value`` with one character changed inside its checked part."""
    swap = {"a": "c", "c": "a", "A": "C", "C": "A", "q": "p", "p": "q", "w": "x", "f": "g"}
    for i in range(len(value) - 3, 4, -1):
        if value[i] in swap:
            return value[:i] + swap[value[i]] + value[i + 1 :]
    raise AssertionError(value)


@pytest.mark.parametrize("address", [a for a in ADDRESSES if not a.startswith(("Qm", "baf"))])
def test_an_address_whose_checksum_fails_goes(address: str) -> None:
    bad = _altered(address)
    assert bad not in th.redact(f"send to {bad} please")


@pytest.mark.parametrize(
    "address",
    ["0x742D35CC6634C0532925A3B844BC454E4438F44E"[:2] + "742d35cC6634C0532925a3b844Bc454e4438f44e"],
)
def test_an_ethereum_address_in_the_wrong_case_goes(address: str) -> None:
    assert address not in th.redact(f"send to {address}")


@pytest.mark.parametrize("address", ADDRESSES[:4])
@pytest.mark.parametrize("label", ["private_key", "password", "secret", "wallet_token"])
def test_an_address_shape_under_a_private_label_goes(address: str, label: str) -> None:
    assert address not in th.redact(f"{label}: {address}")


def test_a_solana_address_has_no_checksum_and_goes() -> None:
    # (decided: base58 of 32 bytes with nothing to check is any random run)
    assert "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV" not in th.redact(
        "sol 7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV"
    )


@settings(max_examples=examples(100), deadline=None)
@given(
    st.text("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", min_size=33, max_size=33)
)
def test_a_random_base58_run_shaped_as_an_address_goes(tail: str) -> None:
    # a Base58Check checksum holds for a random run one time in four billion
    value = "1" + tail
    shown = th.redact(f"send to {value}")
    assert value not in shown or value.lower() == value or value.upper() == value


def test_keccak256_matches_known_vectors() -> None:
    from toolhygiene._identifiers import keccak256

    assert (
        keccak256(b"").hex() == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
    )
    assert (
        keccak256(b"abc").hex()
        == "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"
    )
    assert keccak256(b"a" * 200).hex() == keccak256(b"a" * 200).hex()  # two blocks


# -- 2: keys published to browsers by design ------------------------------------------------

PUBLISHABLE = [
    "pk_test_TYooMQauvdEDq54NiTphI7jx",
    "pk_live_51H8abcDEFghiJKLmnoPQRstuVWXyz0123456789abcdEFGhijKLMnopQRSTuvwxYZ0123456789",
    "sq0idp-wGVapF8sNt9PLrdj5znuKA",
    "pk.eyJ1IjoibWFwYm94IiwiYSI6ImNpejY4M29iazA2Z2gycXA4N2pmbDZmangifQ.-g_vE53SD2WrJ6tFX7QHmA",
]


@pytest.mark.parametrize("key", PUBLISHABLE)
@pytest.mark.parametrize(
    "form",
    [
        "Stripe publishable key {} is public",
        "STRIPE_PUBLISHABLE_KEY={}",
        "{}",
        '"publishableKey": "{}"',
        "api_key: {}",
        "applicationId: {}",
        "access_token={}"[:0] + "key {}",
    ],
)
def test_a_publishable_key_stays(key: str, form: str) -> None:
    _kept_everywhere(form.format(key), key)


@pytest.mark.parametrize("key", PUBLISHABLE)
@pytest.mark.parametrize(
    "label", ["STRIPE_SECRET_KEY", "password", "secret", "private_key", "client_secret"]
)
def test_a_publishable_shape_under_a_secret_label_goes(key: str, label: str) -> None:
    assert key not in th.redact(f"{label}={key}")


@pytest.mark.parametrize(
    "secret",
    [
        "sk_live_TYooMQauvdEDq54NiTphI7jx",
        "rk_live_TYooMQauvdEDq54NiTphI7jx",
        "sq0atp-wGVapF8sNt9PLrdj5znuKA",
        "sq0csp-wGVapF8sNt9PLrdj5znuKAwGVapF8sNt9PLrdj5zn",
        "sk.eyJ1IjoibWFwYm94IiwiYSI6ImNpejY4M29iazA2Z2gycXA4N2pmbDZmangifQ.-g_vE53SD2WrJ6tFX7QHmA",
        "pk_test_TYooMQauvdEDq54NiTphI7jxsk_live_TYooMQauvdEDq54NiTphI7jx",
    ],
)
def test_the_secret_keys_beside_them_still_go(secret: str) -> None:
    _gone_everywhere(f"key {secret}", secret)


def test_a_mapbox_shape_whose_payload_is_no_token_goes() -> None:
    fake = "pk.eyJ4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4In0.Qx7pLm2R9kZwQx7pLm2R9kZw"
    assert "Qx7pLm2R9kZwQx7pLm2R9kZw" not in th.redact(f"token {fake}")


# -- 3: a public block's body that cannot be checked is no private key ----------------------

CUT_CERTIFICATE = (
    "-----BEGIN CERTIFICATE-----\n"
    "MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJRTESMBAGA1UE\n"
    "-----END CERTIFICATE-----"
)
PRIVATE_BODY = "MIIEowIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi1Bz3lHh2hbSX2rn9C0T1P5Xy0"


@pytest.mark.parametrize(
    "block",
    [
        CUT_CERTIFICATE,
        CUT_CERTIFICATE.replace("\n", "\\n"),
        CUT_CERTIFICATE.replace("CERTIFICATE", "PUBLIC KEY"),
        f"-----BEGIN CERTIFICATE-----\n{PRIVATE_BODY}\n-----END CERTIFICATE-----",
        f"-----BEGIN CERTIFICATE-----\n{TOKEN}{TOKEN}\n-----END CERTIFICATE-----",
    ],
)
def test_a_body_framed_as_public_that_fails_its_check_goes_named_for_what_it_is(block: str) -> None:
    body = block.split("-----")[2].strip("\\n")
    for shown in (th.redact(block), _dict_result({"pem": block}), failure_line(block)):
        assert "private-key" not in shown
        assert body not in shown
        assert "[redacted:pem-body]" in shown
        assert "-----BEGIN " in shown  # the frame says what the block claimed to be


def test_a_certificate_under_a_secret_label_still_goes_as_the_label_value() -> None:
    shown = th.redact(f"password: {CUT_CERTIFICATE}")
    assert "MIIDdzCC" not in shown and "[redacted:secret]" in shown


def test_a_private_key_block_is_still_named_so() -> None:
    block = f"-----BEGIN RSA PRIVATE KEY-----\n{PRIVATE_BODY}\n-----END RSA PRIVATE KEY-----"
    assert th.redact(block) == "[redacted:private-key]"


def _eip55(hexa: str) -> str:
    from toolhygiene._identifiers import keccak256

    digest = keccak256(hexa.encode()).hex()
    return "0x" + "".join(
        c.upper() if int(d, 16) >= 8 else c for c, d in zip(hexa, digest[:40], strict=True)
    )


def test_the_first_addresses_of_a_text_are_checked_the_rest_go() -> None:
    from toolhygiene._identifiers import ETH_BUDGET

    hexes = [hashlib.sha256(str(i).encode()).hexdigest()[:40] for i in range(ETH_BUDGET + 8)]
    addresses = [_eip55(h) for h in hexes]
    shown = th.redact(" ".join(addresses))
    kept = [a for a in addresses if a in shown]
    assert kept == addresses[:ETH_BUDGET]  # the rest go, as before: no word is untrue
