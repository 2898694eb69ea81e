"""What cold22 found (fix22b, session 14), each tested as a family in every carrier the
model reads: ``th.redact``, a real exception's failure line through a session, a
successful result as a str, a dict and a list, and an ``untrusted=True`` result. Next to
each survivor, the secret still goes.

1. a lone surrogate (what ``os.listdir`` gives for a name that is not UTF-8) never fails
   a call, with or without a secret's label beside it;
2. a filler word between a secret's label and its value (``Invalid API key provided:``,
   ``secret value:``, ``x-api-key header value "…"``) hides nothing;
3. an expected or computed signature after a mismatch (``signature mismatch: expected
   <hex>``) goes, the expected and the received alike.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples, pieces
from toolhygiene._redact import neutralise

SECRET = "Qx7pLm2R9kZwTb4N"
HEX64 = "6f1c0a9e4b7d2c58e3a1f09b6d4c2e7a5b8f3d1c0e9a7b6c5d4e3f2a1b0c9d8e"


def _session(fn: object, **kw: object) -> th.Session:
    return th.Session([th.tool(**kw)(fn) if kw else th.tool(fn)])  # type: ignore[call-overload]


def _fail(text: str) -> str:
    def probe(q: str) -> str:
        """Probe."""
        raise RuntimeError(text)

    out = _session(probe).call("probe", {"q": "x"})
    assert not out.ok
    assert "\n" not in out.content and out.content.startswith("[error] probe: ")
    return out.content


def _ok(text: str, **kw: object) -> th.Outcome:
    def probe(q: str) -> str:
        """Probe."""
        return text

    return _session(probe, **kw).call("probe", {"q": "x"})


def _ok_str(text: str) -> str:
    out = _ok(text)
    assert out.ok, out.content
    return out.content


def _ok_dict(text: str) -> str:
    def probe(q: str) -> dict[str, str]:
        """Probe."""
        return {"source": "fix22b", "output": text}

    out = _session(probe).call("probe", {"q": "x"})
    assert out.ok, out.content
    return str(json.loads(out.content)["output"])


def _ok_list(text: str) -> str:
    def probe(q: str) -> list[str]:
        """Probe."""
        return ["fix22b", text]

    out = _session(probe).call("probe", {"q": "x"})
    assert out.ok, out.content
    return str(json.loads(out.content)[1])


def _untrusted(text: str) -> str:
    out = _ok(text, untrusted=True)
    assert out.ok, out.content
    return out.content


SUCCESS = {"ok_str": _ok_str, "ok_dict": _ok_dict, "ok_list": _ok_list, "untrusted": _untrusted}


def carriers(text: str, *, fail: bool = True) -> dict[str, str]:
    """What the model reads of ``text`` in each carrier (the JSON carriers' string
    decoded back)."""
    out = {"redact": th.redact(text)}
    if fail:
        out["fail"] = _fail(text)
    for name, make in SUCCESS.items():
        out[name] = make(text)
    return out


def survives(text: str, survivors: list[str], secrets: list[str], *, fail: bool = True) -> None:
    for carrier, out in carriers(text, fail=fail).items():
        read = " ".join(out.split()) if carrier == "fail" else out
        for survivor in survivors:
            wanted = " ".join(survivor.split()) if carrier == "fail" else survivor
            assert wanted in read, (carrier, text, out)
        for secret in secrets:
            assert secret not in out, (carrier, text, out)


# 1. A lone surrogate ----------------------------------------------------------------


def test_a_lone_surrogate_beside_a_label_never_fails_a_call() -> None:
    for text in [
        f"name \udcff token={SECRET}abcdEFG",
        f"\udcffapi_key: {SECRET}",
        f"ghp_Kd8s7Fq2Lx9Vb3Nm1Rt6Yw4Zp0Hc5Jg8Ua2S \ud800 password={SECRET}",
        f"caf\udce9.txt\nsecret = {SECRET}\n\udcc3",
        f"%ED%B3%BF token={SECRET}",
        f"\\udcff token={SECRET}",
    ]:
        for carrier, out in carriers(text).items():
            assert SECRET not in out, (carrier, text, out)
            assert "\udcff" not in out and "\ud800" not in out, (carrier, out)
            out.encode("utf-8")


def test_a_lone_surrogate_with_no_label_stays_in_its_place() -> None:
    for carrier, out in carriers("caf\udce9.txt  notes.md", fail=False).items():
        assert "caf\ufffd.txt  notes.md" in out, (carrier, out)


_SURROGATE_TEXTS = pieces(
    "\udcff",
    "\ud800",
    "\udc80",
    "\ufffd",
    " ",
    "\n",
    "token=",
    "api_key: ",
    "password ",
    "ghp_",
    "AKIA",
    "sk-",
    SECRET,
    HEX64[:32],
    "%ED%B3%BF",
    "\\udcff",
    "&#xdcff;",
    "é",
    "=",
    '"',
    "{",
    "}",
)


@settings(max_examples=examples(300))
@given(text=st.one_of(_SURROGATE_TEXTS, st.text(max_size=60)))
def test_texts_with_surrogates_never_fail(text: str) -> None:
    th.redact(text).encode("utf-8")
    neutralise(text)  # the text as it came, its surrogates too (the carriers make it valid)
    neutralise(text, turns=True)
    for kw in ({}, {"untrusted": True}):
        outcome = _ok(text, **kw)
        assert outcome.ok, (text, outcome.content)
        outcome.content.encode("utf-8")
    for shape in ({"output": text}, ["fix22b", text]):

        def probe(q: str, shape: object = shape) -> object:
            """Probe."""
            return shape

        outcome = _session(probe).call("probe", {"q": "x"})
        assert outcome.ok, (text, outcome.content)
        outcome.content.encode("utf-8")  # (JSON: an escape in it is the text's own)
    _fail(text).encode("utf-8")


# 2. A filler word between a label and its value -------------------------------------


def test_a_filler_word_between_a_label_and_its_value_hides_nothing() -> None:
    uuid = "6f1c0a52-3b7e-4d2a-9c11-5e8f7a0b2d44"
    hex32 = HEX64[:32]
    for text, secret in [
        (f"Invalid API key provided: {SECRET}", SECRET),
        (f"openai.AuthenticationError: Incorrect API key provided: sk-{SECRET}x9", SECRET),
        (f"secret value: {SECRET}", SECRET),
        (f"token value {uuid} unknown", uuid),
        (f'invalid x-api-key header value "{hex32}"', hex32),
        (f"The access token provided ({SECRET}) has expired", SECRET),
        (f"client_secret provided: {SECRET}", SECRET),
        (f"password value '{SECRET}' is too old", SECRET),
        (f"auth token value={uuid}", uuid),
        (f"header X-Auth-Token value '{hex32}' rejected", hex32),
        (f"x-api-key header value: {hex32}", hex32),
        (f'api_key value "{SECRET}" not recognised', SECRET),
        (f"Invalid token supplied: {SECRET}", SECRET),
        (f"password given: {SECRET}", SECRET),
    ]:
        survives(text, [], [secret])


def test_a_filler_word_then_prose_stays() -> None:
    for text in [
        "api key provided: none",
        "token value is required",
        "no token provided",
        "password used for login",
        "the token string is empty",
        "api key provided by the user",
        "secret value must be set",
        "password provided: yes",
        "token value: ${TOKEN}",
    ]:
        survives(text, [text], [])


# 3. An expected or computed signature -----------------------------------------------

OTHER64 = "9f86d081884c7d659a2feaa0c55ad0159f86d081884c7d659a2feaa0c55ad015"
B64SIG = "Qx7pLm2R9kZwTb4NabcdEFGhij12"


def test_an_expected_or_computed_signature_goes() -> None:
    for text, secrets in [
        (f"signature mismatch: expected {HEX64}", [HEX64]),
        (f"HMAC mismatch: computed sha256={HEX64} header sha256={OTHER64}", [HEX64, OTHER64]),
        (f"expected signature {HEX64[:32]}, got {OTHER64[:32]}", [HEX64[:32], OTHER64[:32]]),
        (
            "Stripe::SignatureVerificationError: No signatures found matching the expected"
            f" signature for payload; expected v1={HEX64}",
            [HEX64],
        ),
        (f"X-Hub-Signature-256 mismatch; expected sha256={HEX64}", [HEX64]),
        (f"invalid sig, want {HEX64}", [HEX64]),
        (f"JWT signature invalid: expected {B64SIG}, got {B64SIG[::-1]}", [B64SIG, B64SIG[::-1]]),
    ]:
        survives(text, [], secrets)


def test_a_digest_with_no_signature_word_stays() -> None:
    survives(f"HASHES. Expected sha256 {HEX64} Got {OTHER64}", [HEX64, OTHER64], [], fail=False)
    for text in [
        f"digest mismatch: expected sha256:{HEX64}",
        "signature verification: expected header X-Signature, got none",
    ]:
        survives(text, [text], [])
    survives(
        f"webhook signature mismatch: expected {HEX64}\npip: Expected sha256 {OTHER64}",
        [f"Expected sha256 {OTHER64}"],
        [HEX64],
    )
