"""Secrets that reached the model through ``redact`` (session 11, leak15), by family.

Seed phrases after a label; a value's tail glued on by a character the value pattern
stopped at; a value split by a URL-encoded blank or line break (and the byte it decoded
to put in the text); a framework's secret key holding ``& = ( )``; provider tokens hex-
or base64-encoded; keys with a known prefix named by their family; an SSH public key
shown cut short kept whole.
"""

from __future__ import annotations

import base64
import hashlib
import re
import string

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples
from toolhygiene import _engine, _seeds
from toolhygiene._labels import line_rest
from toolhygiene._normalise import normalise

PHRASE_12 = "abandon ability able about above absent absorb abstract absurd abuse access accident"
PHRASE_24 = (
    PHRASE_12 + " account accuse achieve acid acoustic acquire across act action actor actress"
    " actual"
)
_WORDS = sorted(_seeds.WORDS)


def _gone(out: str, words: list[str]) -> None:
    """No run of three of ``words`` in a row is left in ``out``."""
    for i in range(len(words) - 2):
        assert " ".join(words[i : i + 3]) not in out, out


# -- 1. seed phrases --------------------------------------------------------------------


def test_the_word_list_is_bip39s() -> None:
    data = "\n".join(sorted(_seeds.WORDS)) + "\n"
    digest = hashlib.sha256(data.encode()).hexdigest()
    assert digest == "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda"


@pytest.mark.parametrize(
    "carrier",
    [
        "mnemonic: {p}",
        "seed words: {p}",
        "seed phrase: {p}",
        "Seed Phrase - {p}",
        "my recovery phrase is {p}",
        "secret recovery phrase: {p}",
        "BIP39: {p}",
        "bip-39 mnemonic = {p}",
        "wallet words are {p}",
        "backup phrase {p}",
        "MNEMONIC={p}",
        "WALLET_MNEMONIC={p}",
        "export SEED_WORDS='{p}'",
        '{{"mnemonic": "{p}"}}',
        '{{"wallet": {{"seed": "{p}"}}}}',
        "mnemonic: |\n  {p}\n",
        "wallet:\n  mnemonic: {p}\n  path: m/44'/60'/0'/0",
        "here are my seed words, keep them safe: {p}. thanks",
    ],
)
@pytest.mark.parametrize("phrase", [PHRASE_12, PHRASE_24, PHRASE_12.upper()])
def test_a_seed_phrase_after_its_label_goes_whole(carrier: str, phrase: str) -> None:
    out = th.redact(carrier.format(p=phrase))
    _gone(out.lower(), phrase.lower().split())
    assert "[redacted:" in out


@pytest.mark.parametrize(
    "written",
    [
        "\n".join(f"{i}. {w}" for i, w in enumerate(PHRASE_12.split(), 1)),
        "\n".join(f"- {w}" for w in PHRASE_12.split()),
        ", ".join(f'"{w}"' for w in PHRASE_12.split()),
        "\\n".join(PHRASE_12.split()),
        "-".join(PHRASE_12.split()),
    ],
)
def test_a_seed_phrase_written_as_a_list_goes(written: str) -> None:
    out = th.redact(f"seed phrase:\n{written}")
    for word in PHRASE_12.split()[1:-1]:
        assert re.search(rf"\b{word}\b", out) is None, out


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(st.sampled_from(_WORDS), min_size=12, max_size=24),
    st.sampled_from(["mnemonic: ", "seed phrase = ", '"recovery_phrase": "', "wallet words are "]),
    st.sampled_from(["", "\n", " ok", '"}', ". Done"]),
)
def test_any_seed_phrase_after_a_label_goes(words: list[str], label: str, after: str) -> None:
    out = th.redact(label + " ".join(words) + after)
    assert "[redacted:" in out
    _gone(out, words)


def test_a_bare_run_of_list_words_and_prose_stay() -> None:
    # Decided: no label, no secret (the list is 2,048 common words; see ``_seeds``).
    for text in [
        PHRASE_12,
        "please review the above about access: abandon ability is common",
        "seed: abandon ability able about above absent",  # six words: no mnemonic
        "the random seed is 42 and the test passed",
        "backup finished at 12:00, wallet service healthy",
    ]:
        assert th.redact(text) == text


# -- 2. a tail glued on by a character the value pattern stops at ------------------------


@pytest.mark.parametrize("glue", list("`'\"|~&()[]{}<>"))
@pytest.mark.parametrize(
    "template", ["password is {v}", "password: {v}", "pwd={v}", "the password was {v} ok"]
)
@pytest.mark.parametrize(("head", "tail"), [("0000", "0"), ("Xy7", "q"), ("hunter2", "x9")])
def test_a_value_with_a_glued_tail_goes_whole(
    template: str, head: str, glue: str, tail: str
) -> None:
    value = head + glue + tail
    out = th.redact(template.format(v=value))
    rest = out.split("]")[-1]
    assert head not in out and not rest.startswith((glue + tail, tail)), out


def test_a_value_with_several_glued_pieces_goes_whole() -> None:
    for text in ["password is ab`cd|ef~gh", "pwd=ab`cd|ef~gh", "PASSWORD=0000'0\"0|0 later"]:
        out = th.redact(text)
        assert "cd" not in out.replace("[redacted", "") and "|0" not in out, out


def test_what_a_glued_character_opens_stays() -> None:
    # a key, a call, a record's next field, a pipe into a command, prose after a word
    assert th.redact("token=abc123XY&page=2").endswith("&page=2")
    assert th.redact("token=abc123XY,200,OK").endswith(",200,OK")
    assert th.redact("echo password=hunter2x|grep foo").endswith("|grep foo")
    assert th.redact("password=Xy7kq2Lm; user=bob").endswith("; user=bob")


@settings(max_examples=examples(300), deadline=None)
@given(
    st.text(string.ascii_letters + string.digits, min_size=4, max_size=12).filter(
        lambda v: any(c.isdigit() for c in v) and any(c.isalpha() for c in v)
    ),
    st.sampled_from(list("`'\"|~&()[]{}<>")),
    st.text(string.ascii_letters + string.digits, min_size=1, max_size=6),
    st.sampled_from(["password: {v}", "password is {v}", "pwd={v}", "SECRET={v}"]),
    st.sampled_from(["", " rejected", ".", "\n"]),
)
@example("0000", "`", "0", "password is {v}", "")
@example("Xy7q", "'", "q", "pwd={v}", "")
def test_a_glued_tail_never_survives(
    head: str, glue: str, tail: str, template: str, after: str
) -> None:
    text = template.format(v=head + glue + tail) + after
    out = th.redact(text)
    assert head not in out, out
    if glue not in "`'\"~" and tail.isalpha() and len(tail) > 1 and after[:1] == " ":
        return  # decided: a word after a character of syntax, then more text (``|grep x``)
    assert not out.split("[redacted:secret]")[-1].startswith(glue + tail), out


# -- 3. a value split by a URL-encoded blank or line break -------------------------------

_SPLITTERS = [
    "%0B",
    "%0b",
    "%09",
    "%0A",
    "%0D",
    "%0D%0A",
    "%00",
    "%7F",
    "%0C",
    "%1F",
    "%C2%A0",
    "%C2%85",
    "%E2%80%A8",
    "%E2%80%A9",
    "%E2%80%8B",
    "%C2%AD",
    "%FF",
]


@pytest.mark.parametrize("split", _SPLITTERS)
@pytest.mark.parametrize(
    "template",
    [
        "password=Ab{s}cdefgh1234",
        "a=%41&password=Ab{s}cdefgh1234&user=bob",
        "POST /login user=bob&pwd=Ab{s}cdefgh1234 done",
        "q=my%20password%20is%20Ab{s}cdefgh1234",
    ],
)
def test_a_value_split_by_an_encoded_blank_goes_whole(template: str, split: str) -> None:
    text = template.format(s=split)
    out = th.redact(text)
    assert out.isprintable(), out
    if "%20is%20" in template and split in ("%09", "%0A", "%0D%0A"):
        # a tab and a line break decode (a table's cells, a body's lines): after "is" in
        # prose they end a word as they do written plainly ("password is Ab<tab>cd")
        return
    assert "cdefgh1234" not in out, out
    # no byte the text never held: the run is put back as written, escapes and all
    assert out.startswith(text[: text.index("Ab") - 9])


@pytest.mark.parametrize("split", ["%0A", "%0B", "%0C", "%0D", "%E2%80%A8", "%C2%85"])
def test_a_token_split_by_an_encoded_line_break_goes_whole(split: str) -> None:
    text = f"https://api.example.com/v1?q=sk_live_4eC39HqLyjWDarjtT1zdp7dc{split}IjKlMnOpQrStUv&p=2"
    out = th.redact(text)
    assert "IjKlMnOpQrStUv" not in out and "4eC39Hq" not in out, out
    assert out.endswith("&p=2")


def test_the_rest_of_an_encoded_run_keeps_its_blanks_as_escapes() -> None:
    out = th.redact("note=hi%0Bthere%0Aand%09more%20pwd%3Dhunter2xyz")
    assert out == "note=hi%0Bthere%0Aand%09more%20pwd%3D[redacted:secret]", out


@settings(max_examples=examples(300), deadline=None)
@given(
    # (a value starting with ``$`` is a variable's: ``_labels.plausible_value``)
    st.text(string.ascii_letters + string.digits + "!#$*-_", min_size=2, max_size=10).filter(
        lambda v: v[0].isalnum()
    ),
    st.sampled_from([*_SPLITTERS, "%26", "%27", "%22", "%7C", "%29", "%3D"]),
    st.text(string.ascii_letters + string.digits, min_size=6, max_size=16),
    st.sampled_from(["password={v}", "x=1&pwd={v}&y=2", "u=bob&passwd={v}", "token={v}"]),
)
def test_an_encoded_splitter_never_leaves_the_tail(
    head: str, split: str, tail: str, template: str
) -> None:
    # A tab or a line break decodes and splits as a real one does (docs/redaction.md): a tab
    # ends a value as a blank does (``password=00%09AAAAAa`` keeps ``AAAAAa``, as
    # ``password=00<tab>AAAAAa`` and ``password=00 AAAAAa`` do); after a line break a
    # short value's tail goes only when it reads as the rest of a token.
    assume(split != "%09")
    assume(split not in ("%0A", "%0D", "%0D%0A") or line_rest(head, tail))
    assume(tail not in "[redacted:secret]")  # (a placeholder's own word: ``secret``)
    out = th.redact(template.format(v=head + split + tail))
    assert tail not in out, out
    assert out.isprintable(), out


def test_an_escape_of_a_blank_stays_as_written_in_the_decoded_view() -> None:
    # those blanks are the ones normalising keeps (it drops U+001C-U+001F)
    assert all(normalise(c) == c for c in _engine._BLANKS)
    assert _engine._url_decoded("Ab%0Bcd%41") == "Ab%0BcdA"
    assert _engine._url_decoded("a%0D%0Ab%0Dc") == "a\r\nb%0Dc"
    assert _engine._url_decoded("x%abz%C3%A9") == "x%abzé"  # a byte of no character


# -- 4. a framework's secret key ---------------------------------------------------------

_KEY_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*(-_=+)"


@pytest.mark.parametrize(
    "template",
    [
        "SECRET_KEY={k}",
        "export DJANGO_SECRET_KEY={k}",
        "secret_key: {k}",
        "settings.SECRET_KEY={k}",
        "SECRET_KEY = '{k}'",
        '"SECRET_KEY": "{k}"',
        "{{'SECRET_KEY': '{k}', 'DEBUG': False}}",
    ],
)
@pytest.mark.parametrize(
    "key",
    [
        "x9&k=)(#!$^*%ab-_=+cd)ef",
        "abcdefghijklmnop&q",
        "abcdefghijklmnop)q",
        "&z!k9m(2@x=&u*w+l^3-y_c%8#q)v",
        "(abc)defghijklmnop",
        "django-insecure-a&b=c)d(e#f!g$h^i*j%k",
    ],
)
def test_a_framework_key_goes_whole(template: str, key: str) -> None:
    out = th.redact(template.format(k=key))
    for piece in re.split(r"[&=()]", key):
        if len(piece) >= 2:
            assert piece not in out, out
    assert "[redacted:" in out


@settings(max_examples=examples(300), deadline=None)
@given(
    st.text(_KEY_ALPHABET, min_size=50, max_size=50).filter(
        # (an escape of a blank, a line break or a delimiter (``%3b``, ``%3c``, ``%2c``)
        # ends the value in the decoded view, as the character itself does: a key holding
        # one is left open, as in cold13's test; its tail is judged alone)
        lambda k: len(set(k)) >= 15 and re.search(r"%[0-7][0-9A-Fa-f]", k) is None
    ),
    st.sampled_from(["SECRET_KEY={k}", "SECRET_KEY={k}\nDEBUG=0", "DJANGO_SECRET_KEY={k} x"]),
)
def test_any_django_key_goes_whole(key: str, template: str) -> None:
    out = th.redact(template.format(k=key))
    assert key not in out
    for piece in re.split(r"[^a-z0-9]", key):
        if len(piece) >= 4:
            assert piece not in out, (key, out)


def test_a_call_for_the_key_and_a_url_parameter_stay() -> None:
    for text in [
        "SECRET_KEY=get_random_secret_key()",
        'SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY")',
        "SECRET_KEY=env(DJANGO_SECRET_KEY)",
    ]:
        assert th.redact(text) == text
    assert th.redact("https://h/x?secret_key=Xy7kq2Lm9&page=2").endswith("&page=2")


# -- 5. provider tokens hex- or base64-encoded -----------------------------------------

TOKENS = [
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "AKIAIOSFODNN7EXAMPLE",
    "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
]


@pytest.mark.parametrize("token", TOKENS)
@pytest.mark.parametrize("before", ["", "k=", "ab", "token: "])
@pytest.mark.parametrize(
    ("encode", "name"),
    [
        (lambda b: b.hex(), "hex-encoded-token"),
        (lambda b: b.hex().upper(), "hex-encoded-token"),
        (lambda b: base64.b64encode(b).decode(), "base64-encoded-token"),
        (lambda b: base64.urlsafe_b64encode(b).decode().rstrip("="), "base64-encoded-token"),
    ],
)
def test_an_encoded_provider_token_goes_by_its_family(
    token: str, before: str, encode: object, name: str
) -> None:
    written = encode((before + token).encode())  # type: ignore[operator]
    out = th.redact(f"got {written} end")
    assert out == f"got [redacted:{name}] end", out


def test_hex_digests_and_plain_base64_stay() -> None:
    for text in [
        "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 ok",
        "commit 6768705f0a1b2c3d4e5f60718293a4b5c6d7e8f9 merged",
        "id=" + b"ghp_ and sk_live_ alone".hex(),
    ]:
        assert th.redact(text) == text


# -- 6. keys with a known prefix, named ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("AGE-SECRET-KEY-1" + ("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L" * 2)[:58], "age-secret-key"),
        ("nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5", "nostr-secret-key"),
        (
            "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5k"
            "ejMRNNU3TGtRBeJgk33yuGBxrMPHi",
            "extended-private-key",
        ),
    ],
)
def test_a_prefixed_key_is_named_by_its_family(text: str, name: str) -> None:
    assert th.redact(f"key: {text} ok") == f"key: [redacted:{name}] ok"
    assert th.redact(text) == f"[redacted:{name}]"


def test_an_ssh_public_key_cut_short_stays() -> None:
    for text in [
        "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7... user@host",
        "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7vbqajDhA7Gc9r5oRpVwqLtR3xUqO2Zzf\u2026 user@host",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl... me",
    ]:
        assert th.redact(text) == text


def test_a_secret_after_an_ssh_header_that_is_not_cut_short_goes() -> None:
    out = th.redact("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABsk_live_4eC39HqLyjWDarjtT1zdp7dc")
    assert "4eC39HqLyjWDarjtT1zdp7dc" not in out


# -- through Session.call ----------------------------------------------------------------


def test_session_call_failure_and_success_hold_none_of_these() -> None:
    texts = [
        "mnemonic: " + PHRASE_12,
        "password is 0000`0",
        "password=Ab%0Bcdefgh1234",
        "SECRET_KEY=x9&k=)(#!$^*%ab-_=+cd)ef",
        "token " + b"sk_live_4eC39HqLyjWDarjtT1zdp7dc".hex(),
        "nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5",
    ]
    leaks = ["absent absorb", "`0", "cdefgh1234", "cd)ef", "736b5f6c69", "vl029mgp"]

    @th.tool
    def fail(i: int) -> str:
        """Fails with the text in its message."""
        raise RuntimeError(texts[i])

    @th.tool
    def succeed(i: int) -> str:
        """Returns the text."""
        return texts[i]

    session = th.Session([fail, succeed], line_cap=4000, max_failures=99)
    for i, leak in enumerate(leaks):
        failed = session.call("fail", {"i": i})
        done = session.call("succeed", {"i": i})
        assert not failed.ok and done.ok
        assert leak not in failed.content, failed.content
        assert leak not in done.content, done.content
