"""Issue 12, survivors damaged on main (session 13, helper dmg20; an outside round,
cold19, families 3 and 4): public identifiers read as high-entropy (Google Docs and
Drive ids in their URLs, crypto addresses with their checksums, IPFS CIDs), Stripe's
publishable keys, a public certificate's body named a private key, an ARN under a
secret's label, a status word after an Authorization scheme, and status words, hashing
algorithms and small ids after a secret's label. Each through ``th.redact``, a dict
result and a failure line (``Session.call``), with the leaks next to each survivor that
must still go."""

from __future__ import annotations

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

STATUS_AFTER_SCHEME = ["(missing)", "<none>", "(redacted)", "null", "undefined", '""', "(empty)",
                       "[unset]", "(invalid)"]


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


STATUS_VALUES = ["invalid", "too_short", "not_found", "invalid_grant", "expired", "missing",
                 "INVALID_TOKEN", "Revoked", "too-short", "access_denied"]
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
    [("password_hash", "bcrypt"), ("hash_algorithm", "argon2id"), ("passwordHasher", "pbkdf2_sha256"),
     ("PASSWORD_HASH_ALGORITHM", "scrypt"), ("token_hash_alg", "sha256"), ("hashing", "bcrypt")],
)
def test_a_hashing_algorithm_stays(label: str, name: str) -> None:
    _kept_everywhere(f"{label}: {name}", f"{label}: {name}")


@pytest.mark.parametrize(
    "text",
    ["password: bcrypt", "secret: sha256", "password_hash: hunter2x9",
     "password_hash: $2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW"],
)
def test_an_algorithm_name_under_another_label_or_a_hash_goes(text: str) -> None:
    value = text.split(": ", 1)[1]
    assert value not in th.redact(text)


@pytest.mark.parametrize("label", ["session_id", "sessionId", "session-id", "token_id"])
@pytest.mark.parametrize("number", ["42", "7", "123456"])
def test_a_small_id_stays(label: str, number: str) -> None:
    _kept_everywhere(f"{label}: {number}", f"{label}: {number}")


@pytest.mark.parametrize(
    "text", ["session_id: 1234567", "pin: 1234", "otp: 123456", "session: 42", "session_id: 42 " + TOKEN]
)
def test_a_longer_id_or_a_code_goes(text: str) -> None:
    value = text.split(": ", 1)[1].split()[-1]
    assert value not in th.redact(text)
