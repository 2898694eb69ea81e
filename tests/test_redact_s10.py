"""Over-redaction and leak families found by outside testers after session 9 (issue 12,
helper leak13): schemeless URLs and paths whose random segment swallowed the host and
the path's words; public keys, certificates and fingerprints; names that say no secret;
decomposed accents and joiners kept in the output; identifiers that are no secrets; a
backtick inside a labelled value; bytes results under ``redact_results=False``."""

from __future__ import annotations

import base64
import hashlib
import json
import random
import re
import string
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples, issued_tokens
from toolhygiene import _tokens
from toolhygiene._tokens import is_random

TOKENS = issued_tokens()
PLACE = "[redacted:high-entropy]"

# -- 1. a URL without a scheme, a path from the root -----------------------------------

LABEL = st.text(string.ascii_lowercase + string.digits, min_size=1, max_size=10).filter(
    lambda s: s[0].isalnum()
)
HOSTS = st.builds(
    lambda labels, tld: ".".join([*labels, tld]),
    st.lists(LABEL, min_size=1, max_size=3),
    st.sampled_from(["com", "io", "net", "org", "dev", "co"]),
)
SEGMENTS = st.sampled_from(
    ["v1", "v2", "api", "orders", "items", "customers", "ORD-88213", "2026-01-04", "x", "files"]
)


@settings(max_examples=examples(300), deadline=None)
@given(
    host=HOSTS,
    port=st.sampled_from(["", ":8443", ":80"]),
    scheme=st.sampled_from(["", "https://"]),
    before=st.lists(SEGMENTS, min_size=1, max_size=3),
    after=st.lists(SEGMENTS, max_size=2),
    token=TOKENS,
    method=st.sampled_from(["GET ", "POST ", "fetch failed: ", ""]),
)
def test_a_random_segment_goes_alone(
    host: str, port: str, scheme: str, before: list[str], after: list[str], token: str, method: str
) -> None:
    assume(is_random(token))
    head = f"{method}{scheme}{host}{port}/" + "/".join(before) + "/"
    tail = "".join("/" + s for s in after)
    text = f"{head}{token}{tail} timed out"
    assert th.redact(text) == f"{head}{PLACE}{tail} timed out"


@settings(max_examples=examples(200), deadline=None)
@given(
    root=st.sampled_from(["v1", "api", "Reports", "srv", "data"]),
    before=st.lists(SEGMENTS, max_size=2),
    token=TOKENS,
)
def test_a_random_segment_of_a_path_goes_alone(root: str, before: list[str], token: str) -> None:
    assume(is_random(token))
    head = "GET /" + "/".join([root, *before]) + "/"
    assert th.redact(f"{head}{token}/items") == f"{head}{PLACE}/items"


def test_words_of_a_schemeless_url_stay() -> None:
    for text in (
        "GET api.acme.com/v1/orders/ORD-88213",
        "GET api.acme.com/v1/x",
        "GET api.acme.com/v1/orders/Xk92Lm/Qp7Rt3Zz/aB9c",
        "storage.acme.com/bucket/2024/report_final_v2.pdf",
    ):
        assert th.redact(text) == text


class _Request:
    def __init__(self, url: str) -> None:
        self.url = url
        self.method = "GET"


class _Response:
    def __init__(self, request: _Request) -> None:
        self.status_code = 404
        self.request = request
        self.headers: dict[str, str] = {}
        self.text = ""


class HTTPStatusError(Exception):
    def __init__(self, url: str) -> None:
        super().__init__(f"Client error '404 Not Found' for url '{url}'")
        self.request = _Request(url)
        self.response = _Response(self.request)


@settings(max_examples=examples(100), deadline=None)
@given(segments=st.lists(st.sampled_from(["Xk92Lm", "Qp7Rt3Zz", "aB9c", "orders", "v1"]),
                         min_size=3, max_size=6),
       token=TOKENS)
def test_the_failure_line_keeps_the_request(segments: list[str], token: str) -> None:
    assume(is_random(token))
    path = "/" + "/".join(segments)
    url = f"https://api.acme.com{path}/{token}/items"

    @th.tool
    def get_order(order_id: str) -> str:
        raise HTTPStatusError(url)

    line = th.Session([get_order], line_cap=4000).call("get_order", {"order_id": "x"}).content
    assert f"GET api.acme.com{path}/{PLACE}/items" in line, line
    assert token not in line


# -- 2. public material stays readable; private keys still go whole ---------------------


def _der(content: bytes) -> bytes:
    size = len(content)
    if size < 0x80:
        return b"\x30" + bytes([size]) + content
    length = size.to_bytes((size.bit_length() + 7) // 8, "big")
    return b"\x30" + bytes([0x80 | len(length)]) + length + content


def _pem(kind: str, data: bytes, width: int = 64, newline: str = "\n") -> str:
    body = base64.b64encode(data).decode()
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    return newline.join([f"-----BEGIN {kind}-----", *lines, f"-----END {kind}-----"])


def _ssh_string(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def _ssh_key(kind: str, seed: int) -> str:
    rng = random.Random(seed)
    if kind == "ssh-ed25519":
        fields = [rng.randbytes(32)]
    elif kind == "ssh-rsa":
        fields = [b"\x01\x00\x01", b"\x00" + rng.randbytes(256)]
    else:
        fields = [b"nistp256", b"\x04" + rng.randbytes(64)]
    blob = b"".join(_ssh_string(f) for f in [kind.encode(), *fields])
    return f"{kind} {base64.b64encode(blob).decode()}"


PUBLIC_KINDS = st.sampled_from(
    ["CERTIFICATE", "PUBLIC KEY", "RSA PUBLIC KEY", "X509 CRL", "CERTIFICATE REQUEST"]
)
FRAMES = st.sampled_from(
    [
        "{}",
        "TLS handshake failed for cert:\n{}\nretrying",
        "public_key: {}",
        "cert={}",
        "ca_bundle:\n{}\n",
    ]
)


@settings(max_examples=examples(200), deadline=None)
@given(
    kind=PUBLIC_KINDS,
    seed=st.integers(0, 2**32),
    size=st.integers(60, 1200),
    frame=FRAMES,
    width=st.sampled_from([64, 76]),
    as_json=st.booleans(),
)
def test_public_pem_blocks_stay(
    kind: str, seed: int, size: int, frame: str, width: int, as_json: bool
) -> None:
    content = random.Random(seed).randbytes(size)
    if content[:1] == b"\x02":  # (a one-byte INTEGER first is a private key's version)
        content = b"\x30" + content[1:]
    block = _pem(kind, _der(content), width)
    text = frame.format(block)
    if as_json:
        text = json.dumps({"cert": text, "status": "rejected"})
    assert th.redact(text) == text


@settings(max_examples=examples(150), deadline=None)
@given(seed=st.integers(0, 2**32), size=st.integers(60, 600), token=TOKENS)
def test_a_private_key_beside_a_certificate_goes_whole(seed: int, size: int, token: str) -> None:
    rng = random.Random(seed)
    cert = _pem("CERTIFICATE", _der(rng.randbytes(size)))
    private = _pem("PRIVATE KEY", _der(rng.randbytes(size)))
    text = f"{cert}\n{private}\n"
    out = th.redact(text)
    assert out.startswith(cert + "\n"), out
    for line in private.splitlines()[1:-1]:
        assert line not in out
    # a secret put inside a certificate breaks its structure: it is read as text
    lines = cert.splitlines()
    forged = "\n".join([lines[0], lines[1][:20] + "sk_live_" + token + lines[1][20:], *lines[2:]])
    assert "sk_live_" + token not in th.redact(forged)


def _private_keys() -> list[bytes]:
    """Real private keys, DER: PKCS#1 RSA, SEC 1 EC, PKCS#8 (RSA, EC, Ed25519), DSA."""
    from cryptography.hazmat.primitives import serialization as ser
    from cryptography.hazmat.primitives.asymmetric import dsa, ec, ed25519, rsa

    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    ec_key = ec.generate_private_key(ec.SECP256R1())
    none = ser.NoEncryption()
    der = ser.Encoding.DER
    return [
        rsa_key.private_bytes(der, ser.PrivateFormat.TraditionalOpenSSL, none),
        ec_key.private_bytes(der, ser.PrivateFormat.TraditionalOpenSSL, none),
        rsa_key.private_bytes(der, ser.PrivateFormat.PKCS8, none),
        ec_key.private_bytes(der, ser.PrivateFormat.PKCS8, none),
        ed25519.Ed25519PrivateKey.generate().private_bytes(der, ser.PrivateFormat.PKCS8, none),
        dsa.generate_private_key(key_size=1024).private_bytes(
            der, ser.PrivateFormat.TraditionalOpenSSL, none
        ),
    ]


PRIVATE_KEYS = _private_keys()


@settings(max_examples=examples(100), deadline=None)
@given(kind=PUBLIC_KINDS, key=st.sampled_from(PRIVATE_KEYS), frame=FRAMES)
def test_a_private_key_framed_as_public_material_still_goes(
    kind: str, key: bytes, frame: str
) -> None:
    # A public frame around a private key's body (cold14): every private key opens with
    # its version, a one-byte INTEGER, which no certificate or public key does.
    block = _pem(kind, key)
    out = th.redact(frame.format(block))
    for line in block.splitlines()[1:-1]:
        assert line not in out, out


@settings(max_examples=examples(200), deadline=None)
@given(
    kind=st.sampled_from(["ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256"]),
    seed=st.integers(0, 2**32),
    frame=st.sampled_from(
        [
            "{} deploy@ci",
            "ssh_key: {} bob@laptop",
            "public key {} bob@host rejected",
            "authorized_keys:\n{} ops@bastion\n",
            "{{\"public_key\": \"{}\"}}",
        ]
    ),
)
def test_ssh_public_keys_stay(kind: str, seed: int, frame: str) -> None:
    text = frame.format(_ssh_key(kind, seed))
    assert th.redact(text) == text


@settings(max_examples=examples(200), deadline=None)
@given(
    seed=st.integers(0, 2**32),
    frame=st.sampled_from(
        [
            "host key fingerprint {} accepted",
            "ECDSA key fingerprint is {}.",
            "256 {} root@web (ED25519)",
            "fingerprint: {}",
        ]
    ),
    md5=st.booleans(),
)
def test_ssh_fingerprints_stay(seed: int, frame: str, md5: bool) -> None:
    digest = random.Random(seed).randbytes(16 if md5 else 32)
    shown = (
        "MD5:" + ":".join(f"{b:02x}" for b in digest)
        if md5
        else "SHA256:" + base64.b64encode(digest).decode().rstrip("=")
    )
    text = frame.format(shown)
    assert th.redact(text) == text


# -- 3. names that say no secret ----------------------------------------------------------

DATA_KEYS = st.sampled_from(
    ["cache", "idempotency", "partition", "sort", "primary", "foreign", "routing", "dedup", "shard"]
)


def _key_form(word: str, how: int) -> str:
    return (f"{word}_key", f"{word.capitalize()}-Key", f"{word}Key", f"{word.upper()}_KEY")[how % 4]


@settings(max_examples=examples(300), deadline=None)
@given(
    word=DATA_KEYS,
    how=st.integers(0, 3),
    sep=st.sampled_from([": ", "=", '": "']),
    value=st.one_of(
        TOKENS,
        st.sampled_from(
            ["user:42:profile:v3", "tenant#acme#2026", "ORDER#2026-01-04#A9x", "7f3a9c2e-charge-Xk92"]
        ),
    ),
)
def test_a_data_key_keeps_its_value(word: str, how: int, sep: str, value: str) -> None:
    key = _key_form(word, how)
    text = f'{{"{key}{sep}{value}"}}' if sep.startswith('"') else f"{key}{sep}{value} not found"
    assert th.redact(text) == text
    # a provider's format under it still goes
    token = "ghp_" + value.replace(":", "").replace("#", "").replace("-", "")[:36].ljust(36, "x")
    assert token not in th.redact(text.replace(value, token))


NAMES = st.lists(
    st.sampled_from(["John", "Smith", "Anna-Lena", "O'Brien", "J.", "CEO", "Best", "regards"]),
    min_size=1,
    max_size=4,
).map(" ".join)


@settings(max_examples=examples(200), deadline=None)
@given(
    key=st.sampled_from(["signature", "Signature", "sig", "email_signature"]),
    name=NAMES,
    quoted=st.booleans(),
    token=TOKENS,
)
def test_a_signature_that_is_a_name_stays(key: str, name: str, quoted: bool, token: str) -> None:
    assume(name[0].isupper())
    text = f'{{"{key}": "{name}"}}' if quoted else f"{key}: {name}"
    assert th.redact(text) == text
    # a computed signature goes
    for value in (token, hashlib.sha256(token.encode()).hexdigest()):
        assert value not in th.redact(text.replace(name, value))


@settings(max_examples=examples(200), deadline=None)
@given(
    word=st.sampled_from(["password", "token", "secret", "api_key"]),
    when=st.sampled_from(
        ["last_changed", "changed_at", "last_set", "rotated", "expires_at", "issued_at", "expiry"]
    ),
    day=st.dates(),
    secret=TOKENS,
)
def test_when_a_secret_changed_is_no_secret(word: str, when: str, day: Any, secret: str) -> None:
    text = f"{word}_{when}: {day.isoformat()}"
    assert th.redact(text) == text
    assert secret not in th.redact(f"last_{word}: {secret}")


@settings(max_examples=examples(100), deadline=None)
@given(
    label=st.sampled_from(["Invalid session", "session", "token", "Session expired"]),
    words=st.sampled_from(
        ["please sign in again", "please log in again", "expired, please sign in again",
         "signed out, please log back in"]
    ),
)
def test_what_a_service_says_of_a_session_stays(label: str, words: str) -> None:
    text = f"{label}: {words}"
    assert th.redact(text) == text


@settings(max_examples=examples(200), deadline=None)
@given(
    label=st.sampled_from(["api_key", "API_KEY", "token", "password", "secret_key", "apiKey"]),
    sep=st.sampled_from([": ", " = ", "=", ": ${", " := "]),
    root=st.sampled_from(
        ["process.env", "os.environ", "import.meta.env", "settings", "config", "secrets", "ENV"]
    ),
    name=st.sampled_from(["API_KEY", "DB_PASSWORD", "GITHUB_TOKEN", "stripeSecret"]),
    token=TOKENS,
)
def test_a_reference_to_a_secret_is_no_value(
    label: str, sep: str, root: str, name: str, token: str
) -> None:
    close = "}" if sep.endswith("{") else ""
    for ref in (f"{root}.{name}", f'{root}["{name}"]', f"{root}['{name}']"):
        text = f"{label}{sep}{ref}{close};"
        assert th.redact(text) == text
    assert token not in th.redact(f"{label}{sep.rstrip('${')}{token};")


# -- 4. and 5. accents written as marks, joiners: kept in the output, read past ---------------

ACCENTS = st.sampled_from(["\u0301", "\u0300", "\u0308", "\u0302", "\u0327", "\u030a", "\u0303"])
GITHUB = st.builds(
    lambda seed: "ghp_" + "".join(random.Random(seed).choices(string.ascii_letters, k=20))
    + "".join(random.Random(seed + 1).choices(string.ascii_letters + string.digits, k=16)),
    st.integers(0, 2**32),
)


@settings(max_examples=examples(300), deadline=None)
@given(
    word=st.sampled_from(["Cafe", "Resume", "Zurich", "Sao", "creme", "Malmo", "Ole"]),
    accent=ACCENTS,
    at=st.integers(1, 4),
    tail=st.sampled_from(["_2024_Q1.xlsx", "-v2_final.pdf", "_Report2025.docx", "42_notes.txt"]),
    token=GITHUB,
    spot=st.integers(5, 30),
)
def test_an_accent_written_as_a_mark_stays(
    word: str, accent: str, at: int, tail: str, token: str, spot: int
) -> None:
    at = min(at, len(word))
    name = word[:at] + accent + word[at:] + tail
    text = f"open failed: {name} not found"
    assert th.redact(text) == text
    # a mark on a letter of a token does not cut it in two
    while not token[spot].isalpha():
        spot += 1
    marked = token[: spot + 1] + accent + token[spot + 1 :]
    out = th.redact(f"token {marked} used")
    assert out == "token [redacted:github-token] used", out


WORDS_JOINED = st.sampled_from(
    [
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian, non-joiner
        "\u06a9\u062a\u0627\u0628\u200c\u0647\u0627",
        "\u0915\u094d\u200d\u0937",  # Devanagari conjunct with a joiner
        "\u0d28\u0d4d\u200d",
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family
        "\U0001f3f3\u200d\U0001f308",
        "\U0001f9d1\U0001f3fd\u200d\U0001f4bb",
    ]
)


@settings(max_examples=examples(200), deadline=None)
@given(words=st.lists(WORDS_JOINED, min_size=1, max_size=3), token=GITHUB, spot=st.integers(5, 30))
def test_joiners_of_words_and_emoji_stay(words: list[str], token: str, spot: int) -> None:
    name = " ".join(words)
    text = f"no folder named {name} in the archive"
    assert th.redact(text) == text

    @th.tool
    def open_file(path: str) -> str:
        raise FileNotFoundError(2, "No such file", path)

    @th.tool
    def fails(path: str) -> str:
        raise ValueError(f"bad folder {path}")

    session = th.Session([open_file, fails], max_failures=99)
    for tool in ("open_file", "fails"):
        line = session.call(tool, {"path": name}).content
        assert name in line, line
    # between Latin letters a joiner hides nothing
    for joiner in ("\u200c", "\u200d"):
        hidden = token[:spot] + joiner + token[spot:]
        assert th.redact(f"token {hidden} used") == "token [redacted:github-token] used"


# -- 6. identifiers that are no secrets ---------------------------------------------------

_NANOID = string.ascii_letters + string.digits + "_-"
_BASE62 = string.digits + string.ascii_uppercase + string.ascii_lowercase


def _ksuid(seed: int) -> str:
    rng = random.Random(seed)
    value = (rng.randrange(10**8, 6 * 10**8) << 128) | rng.getrandbits(128)
    out = ""
    for _ in range(27):
        value, digit = divmod(value, 62)
        out = _BASE62[digit] + out
    return out


@settings(max_examples=examples(200), deadline=None)
@given(
    seed=st.integers(0, 2**32),
    ksuid=st.booleans(),
    name=st.sampled_from(["order id", "id", "ID", "user id", "ksuid", "event id", "nanoid"]),
    token=TOKENS,
)
def test_an_id_named_in_prose_stays(seed: int, ksuid: bool, name: str, token: str) -> None:
    value = _ksuid(seed) if ksuid else "".join(random.Random(seed).choices(_NANOID, k=21))
    text = f"{name} {value} not found"
    assert th.redact(text) == text
    assume(is_random(token))
    for secret_name in ("session id", "token", "api key"):
        assert token not in th.redact(f"{secret_name} {token} not found")


@settings(max_examples=examples(200), deadline=None)
@given(
    package=st.sampled_from(["numpy", "pydantic_core", "torch", "cryptography"]),
    version=st.sampled_from(["2.1.0", "42.0.5", "2.3.0+cu121", "1.26.4"]),
    python=st.sampled_from(["cp311", "cp39", "pp310", "py3", "cp312"]),
    abi=st.sampled_from(["cp311", "abi3", "none", "pypy310_pp73", "cp312"]),
    platform=st.sampled_from(
        ["manylinux_2_17_x86_64", "manylinux2014_aarch64", "musllinux_1_1_x86_64",
         "macosx_10_12_universal2", "macosx_11_0_arm64", "win_amd64", "win32", "any"]
    ),
)
def test_wheel_tags_stay(package: str, version: str, python: str, abi: str, platform: str) -> None:
    name = f"{package}-{version}-{python}-{abi}-{platform}.whl"
    for text in (f"no wheel {name} found", f"satisfies {python}-{abi}-{platform} only"):
        assert th.redact(text) == text


@settings(max_examples=examples(200), deadline=None)
@given(
    service=st.sampled_from(["iam:", "sts:", "lambda:us-east-1", "states:eu-west-1",
                             "secretsmanager:us-east-1", "ecs:us-west-2"]),
    resource=st.sampled_from(
        ["role/deploy", "role/service-role/AWSCodePipelineServiceRole-us-east-1-MyPipeline",
         "assumed-role/AWSReservedSSO_AdministratorAccess_8f2a9b7c6d5e4f3a/bob",
         "function:MyFunctionNameV2Prod", "secret:prod/db/Password-AbCdEf",
         "task/my-cluster/{}", "execution:OrderFlow:{}"]
    ),
    seed=st.integers(0, 2**32),
)
def test_an_arn_stays_whole(service: str, resource: str, seed: int) -> None:
    name = "".join(random.Random(seed).choices(string.ascii_letters + string.digits, k=24))
    arn = f"arn:aws:{service}:123456789012:{resource.format(name)}"
    text = f"User: {arn} is not authorized to perform: sts:AssumeRole"
    assert th.redact(text) == text
    secret = "ghp_" + name + "0123456789AB"
    assert secret not in th.redact(text.replace("123456789012:", f"123456789012:{secret}/"))


# -- 7. a backtick inside a labelled value; bytes under redact_results=False ---------------


@settings(max_examples=examples(200), deadline=None)
@given(
    label=st.sampled_from(["password", "token", "secret", "api_key", "pwd"]),
    sep=st.sampled_from([": ", "=", " = ", ":\t"]),
    head=st.text("0123456789" + string.ascii_letters, min_size=4, max_size=10),
    tail=st.text("0123456789" + string.ascii_letters, min_size=1, max_size=6),
    after=st.sampled_from(["", " rejected", ", retrying", "; retrying"]),
)
def test_a_backtick_inside_a_value_goes_with_it(
    label: str, sep: str, head: str, tail: str, after: str
) -> None:
    assume(any(c.isdigit() for c in head))
    out = th.redact(f"{label}{sep}{head}`{tail}{after}")
    assert out == f"{label}{sep}[redacted:secret]{after}", out


def test_a_code_span_around_a_labelled_value_stays_a_code_span() -> None:
    assert th.redact("set `password: abc123`, then retry") == (
        "set `password: [redacted:secret]`, then retry"
    )


@settings(max_examples=examples(100), deadline=None)
@given(
    seed=st.integers(0, 2**32),
    token=TOKENS,
    shape=st.sampled_from(["bytes", "bytearray", "memoryview", "list", "dict"]),
)
def test_bytes_results_under_redact_results_false_are_kept(
    seed: int, token: str, shape: str
) -> None:
    rng = random.Random(seed)
    raw = rng.randbytes(8) + b"\xff api_key=sk_live_" + token.encode() + b" " + rng.randbytes(8)
    wrap: dict[str, Any] = {
        "bytes": raw,
        "bytearray": bytearray(raw),
        "memoryview": memoryview(raw),
        "list": [raw],
        "dict": {"blob": raw},
    }

    def blobs(content: str) -> list[bytes]:
        data = json.loads(content)
        items = data if isinstance(data, list) else [data] if isinstance(data, str) else list(
            data.values()
        )
        return [base64.b64decode(item) for item in items]

    @th.tool(redact_results=False)
    def hands_over() -> Any:
        return wrap[shape]

    @th.tool
    def reads() -> Any:
        return wrap[shape]

    session = th.Session([hands_over, reads])
    assert blobs(session.call("hands_over", {}).content) == [raw]
    shown = session.call("reads", {}).content
    assert token not in shown
    assert base64.b64encode(raw).decode() not in shown


# -- a secret inserted into a GIF that kept its block chain (found while testing) ----------


def test_a_gif_whose_block_chain_a_secret_kept_is_no_picture() -> None:
    # test_redact_leak12b's GIF of seed 8917 with ``AKIAIOSFODNN7EXAMPLE`` inserted where
    # its LZW data starts: the sub-block chain still ended at the trailer, but the LZW
    # minimum code size became 0 (no GIF has one under 2).
    from test_redact_leak12b import PICTURES

    rng = random.Random(8917)
    body = base64.b64encode(PICTURES["gif"](rng)).decode()
    at = rng.randrange(16, len(body) - 8)
    forged = body[:at] + "AKIAIOSFODNN7EXAMPLE" + body[at:]
    assert "AKIAIOSFODNN7EXAMPLE" not in th.redact(forged)


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("password: SHA256:Xk29fLq8Zp3mWn7RtYb2QXk29fLq8Zp3mWn7RtYb2Qa", "Xk29fLq8"),
        ("password: process.env.Tr0ub4dor3", "Tr0ub4dor3"),
        ("password: env.Hunter2", "Hunter2"),
        ("api_key: settings.Xk29fLq8Zp3mWn7Rt", "Xk29fLq8Zp3mWn7Rt"),
        ("api_key_last_used_with: Tr0ub4dor3xyz", "Tr0ub4dor3xyz"),
    ],
)
def test_an_exemption_does_not_win_over_a_secrets_label(line: str, secret: str) -> None:
    # (cold14: a fingerprint's shape, a reference's dot or a time word after the name
    # kept these values)
    assert secret not in th.redact(line)


@pytest.mark.parametrize(
    "line",
    [
        "fingerprint: SHA256:Xk29fLq8Zp3mWn7RtYb2QXk29fLq8Zp3mWn7RtYb2Qa",
        "api_key: process.env.API_KEY",
        "token: secrets.GITHUB_TOKEN",
        "key: config.apiKey",
        "password_last_changed: 2026-01-04",
        "token_last_used_at: 2026-01-04",
    ],
)
def test_what_the_exemptions_are_for_stays(line: str) -> None:
    assert th.redact(line) == line


# -- wheel tags read a piece at a time (speed13 found the whole-part pattern exponential) --

_OLD_WHEEL_TAGS = re.compile(
    r"(?:(?:cp|py|pp|ip|jy|graalpy|pypy)[0-9]{1,4}[a-z]{0,2}|abi3|none|any|cu[0-9]{2,4}"
    r"|manylinux[0-9]{0,4}|musllinux|macosx|win|linux|x86|amd64|arm64|aarch64|i686|ppc64le"
    r"|ppc64|s390x|armv7l|armv6l|universal2|universal|intel|win32|[0-9]{1,4}|[-_+])+"
)
_WHEEL_WORDS = st.sampled_from(
    ["cp311", "cp27mu", "abi3", "none", "any", "cu118", "manylinux", "manylinux2014", "macosx",
     "win", "win32", "linux", "x86", "amd64", "arm64", "universal2", "pp73", "pypy310", "0",
     "17", "2024", "x", "Qx7", "ab"]
)


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(st.tuples(_WHEEL_WORDS, st.sampled_from("-_+")), min_size=1, max_size=6))
def test_wheel_tags_read_a_piece_at_a_time_as_the_whole_pattern_did(
    pieces: list[tuple[str, str]],
) -> None:
    # joined by separators (the pattern's own pieces glued together, ``cp311abi3``, are
    # no wheel's and no longer read as one)
    part = "".join(word + sep for word, sep in pieces)[:-1]
    assert _tokens._wheel_tags(part) == (_OLD_WHEEL_TAGS.fullmatch(part) is not None)


def test_a_long_run_of_digits_before_a_dash_is_judged_at_once() -> None:
    # the whole-part pattern split the digits every way: 24 digits and ``-x`` took a
    # second, doubling with each digit (this one would not end)
    assert not _tokens._wheel_tags("1" * 60 + "-x")
    assert th.redact("1" * 60 + "-x") == "1" * 60 + "-x"
