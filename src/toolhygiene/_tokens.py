"""Layers 1 and 4 of redaction: token-shaped strings, found without a regex scan.

A candidate is a run of at least 16 token characters (letters, digits, ``_-+/.~=$``).
Runs are found on a byte view of the text in which every token character is ``a`` and
everything else a space, so finding them is a substring search in C whatever the text
holds; only the runs themselves are looked at in Python.

In a run, layer 1 tries the provider families whose prefix starts at the run's start or
right after a separator (``/ . = + ~ $``). Layer 4 looks at what is left: a piece of at
least 20 characters whose character classes change as often as random text's and that
is not made of words is a secret, unless it has a survivor shape (a UUID, a plain hex
digest, which only a secret label makes secret).
"""

from __future__ import annotations

import base64
import bisect
import functools
import re
import string

from ahocorasick_rs import AhoCorasick

from toolhygiene._identifiers import may_hold_identifier, public_spans
from toolhygiene._labels import (
    DATA_KEY_QUALIFIERS,
    is_secret_label,
    paging_prose,
    speaks_of_paging,
)
from toolhygiene._media import picture, strict_base64
from toolhygiene._providers import FAMILIES, by_head
from toolhygiene._text import valid

__all__ = ["MIN_RUN", "PROVIDER_RANK", "Span", "find", "is_random"]

Span = tuple[int, int, str, int]
"""(start, end, placeholder name, priority)."""
PROVIDER_RANK = 3
"""The priority of a span in a provider's published credential format."""

GLUED_RANK = 2
"""The priority of a provider format found glued inside a longer string."""

MIN_RUN = 16
_LETTERS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
_SEPARATORS = b"/.=+~$"
# A byte view of the text: a token character (separators included) is "a", anything
# else a space.
_TABLE = bytes(ord("a") if b in _LETTERS + _SEPARATORS else ord(" ") for b in range(256))
# A run with fewer than three digits or capital letters is words and paths
# (``//api.example.com/v1/orders``): no random string of 16 characters or more looks like
# that, and ``is_random`` could not say yes (it needs a class change every third
# character, and each such character makes at most two).
_MIXED_TABLE = bytes(
    ord("D") if b in b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" else ord(" ") for b in range(256)
)
_MIXED_MIN = 3

_PIECES = re.compile(r"[^.=$~]{16,}")
_URL_PIECES = re.compile(r"[^.=$~/]{16,}")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
# Character classes as bytes (lower "l", upper "u", digit "d", anything else "o"): the
# class changes are then six substring counts, and word-like runs one bytes regex.
_CLASSES = bytes(
    ord("l")
    if chr(b).islower() and b < 128
    else ord("u")
    if chr(b).isupper() and b < 128
    else ord("d")
    if chr(b).isdigit() and b < 128
    else ord("o")
    for b in range(256)
)
_CHANGES = (b"lu", b"ld", b"ul", b"ud", b"dl", b"du")
# Word-like runs: a capitalised word of three letters or more (``Get``, ``Value``), a
# lowercase one, an acronym of three to six capitals (an upper-case run counts for six
# characters at most: random text has long ones, ``YRIWQUKMBY``), a number of three digits
# or more (a date, a version: random text has few).
_WORDS = re.compile(rb"ul{2,}|l{3,}|(?<!u)u{3,6}(?!l)|d{3,}")
# A base32 secret (an OTP seed: ``JBSWY3DPEHPK3PXP``): capitals and the digits 2-7 only,
# with digits in two places or more. No word or constant name of 16 capitals or more
# mixes the digits 2-7 in like that; digits in one place are a name's number
# (``SHA256WITHRSAENCRYPTION``).
_BASE32 = re.compile(r"[A-Z2-7]{16,}={0,6}")
_BASE32_DIGITS = re.compile(r"[2-7]+")
_BASE32_16 = re.compile(r"[A-Z2-7]{16}")
# The lengths of OTP seeds (80, 128, 160 and 256 bits): one group of digits inside is
# enough at these lengths.
_SEED_LENGTHS = frozenset((16, 26, 32, 52))


def _base32_secret(text: str) -> bool:
    groups = _BASE32_DIGITS.findall(text)
    if len(groups) >= 2:
        return True
    body = text.rstrip("=")
    return (
        len(groups) == 1 and len(body) in _SEED_LENGTHS and body[0].isalpha() and body[-1].isalpha()
    )


def _survivor(part: str) -> bool:
    if len(part) >= 8 and (not part.strip(_LOWER_HEX) or not part.strip(_UPPER_HEX)):
        return True
    if "-" not in part and "_" not in part:
        # Every other survivor shape has a dash or an underscore but a ULID (26
        # characters): most random pieces are judged by two substring tests.
        return len(part) == 26 and _PUBLIC_ID.fullmatch(part) is not None
    return (
        _UUID.fullmatch(part) is not None
        or (_HEX_GROUPS.fullmatch(part) is not None and _MAILGUN.fullmatch(part) is None)
        or _PUBLIC_ID.fullmatch(part) is not None
        or _AWS_ID.fullmatch(part) is not None
        or _generated_name(part)
        or _wheel_tags(part)
    )


# A Python wheel's tags (PEP 425: interpreter, ABI, platform) with the version's last
# number before them: ``0-cp311-cp311-manylinux_2_17_x86_64``, ``cp39-abi3-macosx_10_12_
# universal2``, ``pp310-pypy310_pp73-win_amd64``. Words of a fixed vocabulary and
# numbers only: no random string is made of them.
# Read a piece at a time between the separators: one pattern repeated over the whole part
# split a run of digits every way it could (``[0-9]{1,4}`` again and again), exponential
# in the run's length when the part then failed (24 digits and ``-x``: a second).
_WHEEL_PIECE = re.compile(
    r"(?:cp|py|pp|ip|jy|graalpy|pypy)[0-9]{1,4}[a-z]{0,2}|abi3|none|any|cu[0-9]{2,4}"
    r"|manylinux[0-9]{0,4}|musllinux|macosx|win|linux|x86|amd64|arm64|aarch64|i686|ppc64le"
    r"|ppc64|s390x|armv7l|armv6l|universal2|universal|intel|win32|[0-9]+|"
)
_WHEEL_SEPARATORS = re.compile(r"[-_+]")


def _wheel_tags(part: str) -> bool:
    """Whether ``part`` is a wheel's tags: each piece between ``-``, ``_``, ``+`` a word of
    the vocabulary or a number."""
    return all(_WHEEL_PIECE.fullmatch(piece) for piece in _WHEEL_SEPARATORS.split(part))


# Hex groups joined by dashes (a W3C ``traceparent``: version, trace id, span id, flags).
_HEX_GROUPS = re.compile(r"[0-9a-f]{2,64}(?:-[0-9a-f]{2,64}){2,5}")
# ... but Mailgun's API key: 32 hex, then two groups of 8.
_MAILGUN = re.compile(r"[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}")
# Ids that name an object rather than grant access, in their published formats: Stripe
# objects (``ch_``, ``pi_``, ``cus_``; a ``pi_…_secret_…`` client secret has more parts
# and is not matched), the ids of the AI APIs' messages, tool calls, requests and files
# (``toolu_``, ``msg_``, ``req_``, ``chatcmpl-``), and ULIDs (Crockford base32, with
# a timestamp before 2039 in front).
_PUBLIC_ID = re.compile(
    r"(?:ch|pi|py|po|pm|cus|in|ii|il|sub|si|re|txn|tr|prod|price|evt|cs|seti|acct|ba|card|"
    r"src|dp|du|ipi|plink|file|req|msg|msgbatch|toolu|srvtoolu|call|run|step|asst|thread|"
    r"batch|resp|vs|ft|ftjob|org|proj|user)_[A-Za-z0-9]{10,48}"
    r"|(?:chatcmpl|cmpl|file)-[A-Za-z0-9]{10,48}"
    r"|01[0-9A-HJKMNP-TV-Z]{24}"
)
# (fix20b) AWS resource ids, public names of an account's resources: a type's prefix,
# then 8 or 17 lowercase hex (``ami-0c55b159cbfafe1f0``, ``i-…``, ``subnet-…``).
_AWS_ID = re.compile(
    r"(?:i|ami|aki|ari|snap|vol|eni|sg|sgr|igw|eigw|rtb|rtbassoc|acl|aclassoc|eipalloc|"
    r"eipassoc|nat|lt|fs|fsap|fsmt|subnet|vpc|vpce|pcx|tgw|tgw-attach|tgw-rtb|vgw|cgw|"
    r"vpn|dopt|pl|r|sir|fleet|import-ami|export-ami|ebs)-(?:[0-9a-f]{17}|[0-9a-f]{8})"
)
# A value given under a key that names an id (``"id": "…"``, ``file_id=…``,
# ``request-id: …``): an object's name the model needs (KSUID, nanoid, Drive file ids),
# unless the key also says secret (``session_id``, ``api_key_id``).
_ID_KEY = re.compile(
    r"(?P<key>[A-Za-z0-9_\-]{0,40}(?:(?<![A-Za-z])[iI][dD]|(?<=[a-z])I[dD])s?)"
    r"(?:\\{0,7}[\"'])?[ \t]{0,3}[:=][ \t]{0,3}(?:\\{0,7}[\"'])?\Z"
)


# A secret word between separators inside the value itself (``pi_…_secret_…``).
_NAMES_SECRET = re.compile(
    r"[_\-](?:secret|token|password|passwd|key)(?![A-Za-z0-9])", re.IGNORECASE
)


# What every match of ``_ID_KEY`` ends with. It is found first, in the 26 characters
# before the value; then ``_ID_KEY`` is matched from the one start its leftmost match
# can have (the key's characters before the ``id``, at most 40), instead of searched from
# every start in its window.
# A JSON body inside a JSON string escapes its quotes (``{\\"id\\": \\"…\\"}``), once
# for each level of nesting: up to seven backslashes before a quote (three levels).
_ID_TAIL = re.compile(r"[iI][dD]s?(?:\\{0,7}[\"'])?[ \t]{0,3}[:=][ \t]{0,3}(?:\\{0,7}[\"'])?\Z")
_ID_TAIL_MAX = 26
"""The longest match of ``_ID_TAIL``."""
_KEY_CHARS = string.ascii_letters + string.digits + "_-"


# An id named in prose before its value, with blanks only (``order id V1St…``, ``ksuid
# 0ujt…``), and the word before the name (``session id`` names a secret).
_SPACED_ID = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:(?P<before>[A-Za-z][A-Za-z0-9_\-]{0,30})[ \t]{1,3})?"
    r"(?P<key>[A-Za-z0-9_\-]{0,40}(?<![A-Za-z])(?:id|ID|Id)|ksuid|KSUID|nanoid|ulid|ULID)s?"
    r"[ \t]{1,3}\Z"
)
_SPACED_ID_MAX = 90
"""The longest match of ``_SPACED_ID``."""


def _spaced_id_value(text: str, begin: int) -> bool:
    """Whether the value at ``begin`` follows an id's name and blanks (``order id …``),
    unless the name or the word before it names a secret (``session id``)."""
    m = _SPACED_ID.search(text, max(0, begin - _SPACED_ID_MAX), begin)
    if m is None:
        return False
    key, before = m.group("key"), m.group("before")
    if is_secret_label(key) is not False:
        return False
    return before is None or is_secret_label(f"{before}_{key}") is False


# (fix22c) HTTP headers whose value is a request's or a trace's id though their names
# hold no ``id`` before a separator (Cloudflare's ``cf-ray``, S3's ``x-amz-id-2``, GCP's
# ``x-cloud-trace-context``, W3C's ``traceparent``, Zipkin's ``x-b3-*``): a header's
# name (after a blank or an escaped line break: a JSON string), then its colon, right
# before the value.
_ID_HEADER = re.compile(
    r"(?:(?<![A-Za-z0-9_\-])|(?<=\\[nrt]))(?:cf-ray|x-amz-id-2|x-amz-cf-id|x-cloud-trace-context|traceparent"
    r"|tracestate|x-b3-[a-z]{0,12}|x-vercel-id|x-[a-z0-9\-]{0,24}trace(?:-?id)?)"
    r"[ \t]{0,3}:[ \t]{0,3}\Z",
    re.IGNORECASE,
)
_ID_HEADER_MAX = 48
"""The longest match of ``_ID_HEADER``."""


_ID_HEADER_WORDS = (b"ray", b"amz", b"trace", b"b3-", b"vercel")
"""A word each of ``_ID_HEADER``'s names holds: looked for first, in C."""


def _id_header(text: str, begin: int, lowered: bytes) -> bool:
    window = lowered[max(0, begin - _ID_HEADER_MAX) : begin]
    return any(word in window for word in _ID_HEADER_WORDS) and (
        _ID_HEADER.search(text, max(0, begin - _ID_HEADER_MAX), begin) is not None
    )


def _id_value(text: str, begin: int) -> bool:
    tail = _ID_TAIL.search(text, max(0, begin - _ID_TAIL_MAX), begin)
    if tail is None:
        return False
    at = tail.start()
    head = text[max(0, begin - 48, at - 40) : at]
    m = _ID_KEY.match(text, at - (len(head) - len(head.rstrip(_KEY_CHARS))), begin)
    return m is not None and is_secret_label(m.group("key")) is False


# Public formats of a whole run: an SSH public key's base64 blob (a length, then the key
# type: ``AAAAC3NzaC1lZDI1NTE5`` is ``ssh-ed25519``) and a subresource-integrity hash
# (``sha512-`` and the digest's base64).
_SSH_TYPES = (b"ssh-", b"ecdsa-", b"sk-ssh-", b"sk-ecdsa-")
_INTEGRITY = re.compile(r"sha(?:256|384|512)-[A-Za-z0-9+/]{40,90}={0,2}")


# (fix21b) A Go module's checksum in go.sum or go.mod's tooling output: a version, an
# optional ``/go.mod``, then ``h1:`` and a SHA-256 digest's base64 (43 characters and
# ``=``), as public as a ``sha512-`` integrity string.
_GOSUM_RUN = re.compile(r"[A-Za-z0-9+/]{43}=")
_GOSUM_HEAD = re.compile(
    r"[ \t]v[0-9]{1,9}\.[0-9]{1,9}\.[0-9]{1,9}(?:[+\-][\w.+\-]{0,60})?(?:/go\.mod)?[ \t]h1:\Z"
)
# A cluster of one-letter flags, as a man page's synopsis or a usage line writes it
# (``ssh [-46AaCfGgKkMNnqsTtVvXxYy]``): after ``[-`` or a blank and ``-``, letters and
# digits each written once, in order (ASCII's, or by letter with a capital first): a
# random run is almost never so.
_FLAGS = re.compile(r"-?[A-Za-z0-9]{2,62}")


_CHECKSUM_OR_FLAGS_BEFORE = frozenset(":-")
"""What stands right before such a run (``h1:``, ``[-``): any other run is not asked."""


def _checksum_or_flags(text: str, begin: int, run: str) -> bool:
    """Whether the run ``run`` at ``begin`` is a go.sum checksum after its ``h1:`` or a
    cluster of one-letter flags (``_GOSUM_RUN``, ``_FLAGS``): public, never a secret."""
    if text.endswith("h1:", 0, begin):
        return (
            _GOSUM_RUN.fullmatch(run) is not None
            and _GOSUM_HEAD.search(text, max(0, begin - 90), begin) is not None
        )
    flags = run[1:] if run[:1] == "-" else run
    before = text[max(0, begin - 2) : begin] + run[: len(run) - len(flags)]
    return (
        before.endswith(("[-", " -", "\t-"))
        and _FLAGS.fullmatch(run) is not None
        and len(set(flags)) == len(flags)
        and (list(flags) == sorted(flags) or list(flags) == sorted(flags, key=_flag_order))
    )


def _flag_order(char: str) -> tuple[str, bool]:
    """A synopsis's order of flags: by letter, a capital before its small letter."""
    return char.lower(), char.islower()


def _public_blob(run: str) -> bool:
    if _INTEGRITY.fullmatch(run):
        return True
    if not run.startswith("AAAA"):
        return False
    try:
        head = base64.b64decode(run[:24])
    except ValueError:
        return False
    size = int.from_bytes(head[:4], "big")
    return 7 <= size <= 40 and head[4:].startswith(_SSH_TYPES)


# A generated Kubernetes name: lowercase words, then the pod template hash (ReplicaSet)
# and/or the pod's own suffix, drawn from an alphabet without vowels
# (``api-7f9c8d6b5-x2kqz``, ``checkout-v2-5d8f7c9b6d``, ``worker-x2kqz``).
_GENERATED = re.compile(
    r"(?:[a-z][a-z0-9]{0,40}-){1,8}(?:[bcdfghjklmnpqrstvwxz0-9]{6,10}-)?"
    r"[bcdfghjklmnpqrstvwxz0-9]{5,10}"
)
_WORD_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+|[_\-]")
_VOWELS = frozenset("aeiouyAEIOUY")


def _generated_name(part: str) -> bool:
    if _GENERATED.fullmatch(part) is None:
        return False
    words = part.split("-")
    return any(len(word) >= 3 and word.isalpha() for word in words[:-1])


def _camel_words(part: str) -> bool:
    """Words run together (``MyVeryLongTestFileNameForCase42``, ``ReleaseNotesQ3FY2024``):
    at least three pronounceable words of three letters or more (one per seven
    characters) holding at least 60% of the characters, most of the rest in short words,
    acronyms and numbers, at most two parts of one letter. Random text of this length
    has one-letter parts and consonant clusters. Used only for a file's name (followed
    by an extension): about 1 in 2,500 random 32-character strings passes it."""
    single = worded = words = other = 0
    for word in _WORD_PART.findall(part):
        size = len(word)
        if size == 1 and not word.isdigit():
            single += 1
        elif word.isdigit() or size <= 2 or (word.isupper() and size <= 5):
            other += size
        elif _pronounceable(word):
            worded += size
            words += 1
    size = len(part)
    return (
        single <= 2
        and words >= max(3, size // 7)
        and worded >= 0.6 * size
        and worded + other >= 0.9 * size
    )


_CLUSTER = re.compile(r"[b-df-hj-np-tv-xzB-DF-HJ-NP-TV-XZ]{4}")


def _pronounceable(word: str) -> bool:
    """A word as people write them: one case after the first letter, at most 12
    letters, a fifth of them vowels, no four consonants in a row."""
    vowels = sum(map(word.count, "aeiouyAEIOUY"))
    return (
        len(word) <= 12
        and word[1:].islower()
        and 5 * vowels >= len(word)
        and _CLUSTER.search(word) is None
    )


_LOWER_HEX = "0123456789abcdef"
_UPPER_HEX = "0123456789ABCDEF"


def is_random(piece: str) -> bool:
    """Whether ``piece`` reads as random characters rather than words, paths, ids or a
    survivor shape: at least 20 characters (16 for base32), classes (lower, upper,
    digit) changing at least every third character over the whole piece (every fourth
    from 32 characters: a longer piece gives more evidence), separators
    ``-``/``_`` left out (random text has them anywhere, not between words), less than
    80% of it in word-like runs or, if more, those runs with fewer than a fifth vowels.
    A base32 run (capitals, digits 2-7) is judged by where its digits stand."""
    if "/" in piece:
        text = "/".join(p for p in piece.split("/") if not _survivor(p)).strip("/-_+")
    elif _survivor(piece):
        return False
    else:
        text = piece
    size = len(text)
    if size >= MIN_RUN and _BASE32.fullmatch(text) is not None:
        return _base32_secret(text)
    if size < 20 or (text.isalpha() and (text.islower() or text.isupper())):
        return False
    ascii_text = text.encode("ascii", "replace")
    joined = ascii_text.translate(_CLASSES, b"-_+")
    if sum(map(joined.count, _CHANGES)) < (0.3 if size < 32 else 0.25) * len(joined):
        return False
    classes = ascii_text.translate(_CLASSES)
    # Separators are neither words nor random (``/srv/app/…``, ``Sec-WebSocket-Key``).
    core = 0.8 * len(ascii_text.translate(None, b"-_+/"))
    if len(classes) >= _WORDY_FROM and _wordy(classes).count(1) < core:
        return True  # fewer characters can be in a word-like run: fewer are (a long run)
    if sum(map(len, _WORDS.findall(classes))) < core:
        return True  # random text, the common case: judged in C
    # A word-like run with five consonants in a row is no word (``Hjtdlu``).
    words = [
        text[a:b]
        for a, b in map(re.Match.span, _WORDS.finditer(classes))
        if b - a < 5 or _CLUSTER5.search(text, a, b) is None
    ]
    if sum(map(len, words)) < core:
        return True
    # Made of word-like runs, but are they words? A fifth of a word's letters are
    # vowels; random letters have fewer (``Qkr``, ``krmq``). Acronyms (four capitals at
    # most) have none.
    found = "".join(w for w in words if w.isalpha() and (len(w) > 4 or not w.isupper()))
    return 5 * (len(found) - len(found.translate(_NO_VOWELS))) < len(found)


_WORDY_FROM = 64
"""From how many characters a piece's word-like runs are bounded from above first
(``_wordy``: integer operations in C, a quarter of the pattern's time on a long run, a
line-wrapped token joined; more than it on a short one)."""
_NO_VOWELS = str.maketrans("", "", "aeiouyAEIOUY")
_CLUSTER5 = re.compile(r"[b-df-hj-np-tv-xzB-DF-HJ-NP-TV-XZ]{5}")


@functools.cache
def _index() -> tuple[dict[str, list[tuple[str, re.Pattern[str]]]], AhoCorasick]:
    """The families by head (``by_head``), and an automaton finding any family's whole
    literal prefix; built at the first redaction, not at import."""
    prefixes = sorted({prefix for _, family, _ in FAMILIES for prefix in family})
    return by_head(), AhoCorasick(prefixes)


def _heads(text: str) -> list[int]:
    """Where a family's prefix starts in ``text``, ascending, each position once: every
    occurrence, overlapping ("EAKIA…": "AKIA" inside), found in one pass. Every
    family's pattern starts with its literal prefix, so no family can match anywhere
    else: the prefix, not only its first two characters, picks the places to try."""
    # the matcher takes valid UTF-8 only: a lone surrogate (a non-UTF-8 file name as
    # os.listdir gives it, a decoded view) is replaced one for one (positions stay)
    found = _index()[1].find_matches_as_indexes(valid(text), overlapping=True)
    return sorted({start for _, start, _ in found})


_GLUE = frozenset(_LETTERS.decode())


def _providers(text: str, begin: int, end: int, spans: list[Span], heads: list[int]) -> None:
    """Provider credentials in the run ``text[begin:end]``.

    A family is tried wherever one of its prefixes starts, not only at a
    boundary: a credential glued to other token characters (a key concatenated to
    itself, pasted after a word) is still the credential. Then the span is the whole
    glued piece around it, up to the separators (``/ . = + ~ $``) or the run's ends:
    what is glued to a credential is part of the same string, and leaving it would
    leave the rest of a repeated key readable. ``heads``: ``_heads(text)``."""
    families = _index()[0]
    reach = begin
    # The prefixes that start inside the run.
    for at in range(bisect.bisect_left(heads, begin), len(heads)):
        position = heads[at]
        if position + 2 > end:
            break
        if position < reach:
            continue
        for name, family in families[text[position : position + 2]]:
            m = family.match(text, position, end)
            if m is None:
                continue
            left, right = position, m.end()
            rank = PROVIDER_RANK
            if (left > begin and text[left - 1] in _GLUE) or (right < end and text[right] in _GLUE):
                while left > begin and text[left - 1] in _GLUE:
                    left -= 1
                while right < end and text[right] in _GLUE:
                    right += 1
                glued = text[left:right]
                if _survivor(glued) and _PUBLIC_ID.fullmatch(glued) is None:
                    continue  # a hex digest that happens to hold a prefix
                # A public id's shape (``toolu_…``, ``call_…``, a ULID) is no shelter: a
                # key after its prefix is still the key.
                rank = GLUED_RANK  # found inside a longer string: a context name wins
            spans.append((left, right, name, rank))
            reach = right
            break


_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,5}(?![A-Za-z0-9_\-])")


def _file_name(text: str, stop: int, end: int) -> bool:
    """Whether the piece ending at ``stop`` is followed by a file extension."""
    return _EXTENSION.match(text, stop, end) is not None


def _runs(view: bytes) -> list[tuple[int, int]]:
    """The runs of ``view`` (``_TABLE``): each stretch of ``MIN_RUN`` token characters
    or more, whole. Each is found by three searches in C that skip what lies between;
    where runs are dense (the first ``_DENSE_RUNS`` within ``_DENSE_SPAN`` characters
    each), the rest by one regex scan (its leftmost match starts where its stretch
    does), which costs a few nanoseconds a character instead of ~0.3 us a run."""
    runs = []
    start = view.find(_RUN)
    while start != -1:
        begin = view.rfind(b" ", 0, start) + 1
        end = view.find(b" ", start)
        if end == -1:
            end = len(view)
        runs.append((begin, end))
        if len(runs) == _DENSE_RUNS and end - runs[0][0] < _DENSE_RUNS * _DENSE_SPAN:
            runs.extend(map(re.Match.span, _RUN_PATTERN.finditer(view, end)))
            break
        start = view.find(_RUN, end)
    return runs


_RUN = b"a" * MIN_RUN
_DENSE_RUNS = 32
_DENSE_SPAN = 50
_RUN_PATTERN = re.compile(b"a{%d,}" % MIN_RUN)


# A run with one of these holds more than one piece (``_PIECES``, ``_URL_PIECES``) or may
# be followed by a file's extension: ``_run`` reads it in full.
_SPLIT_TABLE = bytes(ord("s") if b in b".=$~/" else ord(" ") for b in range(256))
# A view in which a piece of 20 characters or more (``_PIECES``) is 20 spaces in a row
# (in the view above, a URL's piece, ``_URL_PIECES``): a run without them has no random
# piece to judge.
_PIECE_TABLE = bytes(ord("s") if b in b".=$~" else ord(" ") for b in range(256))
_PIECE = b" " * 20
# A run (of no ``. = $ ~ /``) that is one survivor once stripped of ``-_+`` as ``_run``
# strips it: a plain hex digest, a UUID (``_survivor``'s first two shapes).
_SURVIVOR_RUN = re.compile(
    r"[\-_+]*(?:[0-9a-f]{8,}|[0-9A-F]{8,}"
    r"|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})[\-_+]*"
)


# The payload of a data URI of media (an inline image, font, sound or video): bytes of
# a picture, not a credential; a provider's format found in its base64 is chance. Under
# a secret label the labelled-values layer takes the whole URI.
_MEDIA = re.compile(
    r"data:(?:image|audio|video|font)/[\w.+\-]{1,64}(?:;[\w.+\-]{1,32}=[\w.+\-]{1,32}){0,3}"
    r";base64,\Z",
    re.IGNORECASE,
)


# The base64 of a picture without a data URI: PNG, JPEG, GIF, WebP and PDF headers.
# A picture's header glued to what is before it (``AKIA…iVBORw0KGgo…``), in a run
# long enough to hold a secret and a picture.
# (Each head's first character, then the look-behind over it and the one before: ``re``
# skips to those characters, where a look-behind first was tried at every character.)
_HEAD_GLUED = re.compile(
    r"i(?<=[A-Za-z0-9_\-]i)VBORw0KGgo|/(?<=[A-Za-z0-9_\-]/)9j/|R(?<=[A-Za-z0-9_\-]R)0lGOD[dl]h"
    r"|U(?<=[A-Za-z0-9_\-]U)klGR|J(?<=[A-Za-z0-9_\-]J)VBERi0"
)
_GLUED_PICTURE = 64
_IMAGE_HEADS = ("iVBORw0KGgo", "/9j/", "R0lGODdh", "R0lGODlh", "UklGR", "JVBERi0")
# The key of a pagination cursor (``nextPageToken``, ``continuation_token``,
# ``cursor=``, AWS ``NextToken``): an opaque position the next call needs, not a
# credential (a provider's format inside it still goes with the run's other rules).
_CURSOR_KEY = re.compile(
    # The lookahead is each key's first letter (what IGNORECASE reads as ``s`` includes
    # ``ſ``): the scan of a text naming a token leaves most characters at one test, not
    # at eleven words (~12 -> ~2.4 ms for 64 KB of ``token=…``).
    r"(?=[npcsr\u017f])"
    r"(?:(?:next|prev|previous|page|continuation|pagination|sync|resume|resumption|scroll)"
    r"[ _\-]?(?:page[ _\-]?)?token|cursor|scroll_?id)s?(?:\\{0,7}[\"'])?"
    # its value after ``:`` or ``=``, or named in prose: "page_token v", "next_page_token
    # is v", "the cursor was v"
    r"(?:[ \t]{0,3}[:=][ \t]{0,3}|[ \t]{1,3}(?:(?:is|was)[ \t]{1,3})?)"
    r"(?:\\{0,7}[\"'])?",
    re.IGNORECASE,
)


def _cursor_values(text: str, lowered: bytes) -> frozenset[int]:
    """Where the values under pagination cursors' keys start: one scan in C, only in
    a text that names a token or a cursor."""
    if (
        lowered.find(b"token") == -1
        and lowered.find(b"cursor") == -1
        and (lowered.find(b"scroll") == -1)
    ):
        return _NONE
    found = _cursor_keys(text, lowered)
    if not speaks_of_paging(text):
        return frozenset(found)
    for m in _PROSE_CURSOR.finditer(text):  # "use token v for the next page"
        end = m.end()
        while end < len(text) and not text[end].isspace() and text[end] not in "\"'`":
            end += 1
        if paging_prose(text, m.end(), end):
            found.add(m.end())
    return frozenset(found)


def _cursor_keys(text: str, lowered: bytes) -> set[int]:
    """The ends of ``_CURSOR_KEY``'s matches. Every match holds ``token`` or ``cursor``
    with at most ``_CURSOR_BEFORE`` characters before it and ``_CURSOR_AFTER`` after:
    in ASCII text the key is matched around each of those words (found in C), keeping
    the match that holds the word, not tried at every character (10 ms on 64 KB of
    log); other text is scanned whole (``re.IGNORECASE`` also reads ``K`` and ``ſ`` as
    ASCII letters)."""
    if not text.isascii():
        return {m.end() for m in _CURSOR_KEY.finditer(text)}
    ends: set[int] = set()
    for word in (b"token", b"cursor", b"scroll"):
        at = lowered.find(word)
        while at != -1:
            if word == b"token" and not _keyed_token(lowered, at):
                # no key's ``token`` stands alone (``token=…``: a label, not a cursor)
                at = lowered.find(word, at + 1)
                continue
            stop = at + len(word)
            window = _CURSOR_KEY.finditer(text, max(0, at - _CURSOR_BEFORE), stop + _CURSOR_AFTER)
            # the match of this word (one of another can be cut short by the window)
            ends.update(m.end() for m in window if m.start() <= at and m.end() >= stop)
            at = lowered.find(word, at + 1)
    return ends


# The longest key before ``token`` (``continuation_page_token``: 18 characters) and the
# longest end after it (``s``, up to seven backslashes and a quote, three blanks, ``:``,
# three blanks, up to seven backslashes and a quote: 24), and a margin.
_CURSOR_BEFORE = 20
# What a key's ``token`` can follow: the last letter of a word before it (``next``,
# ``prev``, ``previous``, ``page``, ``continuation``, ``pagination``, ``sync``,
# ``resume``, ``resumption``, ``scroll``) or a ``_``/``-`` (lower case).
_BEFORE_TOKEN = b"tvsencl_-"


def _keyed_token(lowered: bytes, at: int) -> bool:
    """Whether the ``token`` at ``at`` can end a cursor's key: it follows a key word's
    last letter, a ``_``/``-``, or one blank after a key word's last letter ("sync
    token", "page token")."""
    before = lowered[at - 1] if at else 0
    if before == 0x20 and at > 1:
        return lowered[at - 2] in _BEFORE_TOKEN[:-2]
    return before in _BEFORE_TOKEN


_CURSOR_AFTER = 26


# A token or cursor named in a sentence, up to where its value starts.
_PROSE_CURSOR = re.compile(
    r"\b(?:token|cursor)(?:[ \t]{0,3}[:=]|[ \t]{1,3}(?:is[ \t]{1,3})?)[ \t]{0,3}[\"'`]?",
    re.IGNORECASE,
)


_NONE: frozenset[int] = frozenset()


def _media(text: str, begin: int) -> str:
    """The media type of the data URI whose payload starts at ``begin`` (lowercase), or
    an empty string."""
    start = text.rfind("data:", max(0, begin - 200), begin)
    m = _MEDIA.match(text, start, begin) if start != -1 else None
    return "" if m is None else text[start + 5 : text.find(";", start, begin)].lower()


def _media_kept(run: str, media: str) -> bool:
    """Whether a media data URI's payload stays whole: a genuine picture, or the payload
    of another kind of media (a sound, a video, a font) in strict base64 that does not
    start like a picture."""
    if media in _PICTURE_TYPES or run.startswith(_IMAGE_HEADS):
        return picture(run)
    return strict_base64(run) is not None


# The media types ``_media.picture`` verifies: their payload must be a whole picture.
_PICTURE_TYPES = frozenset(
    ["image/png", "image/jpeg", "image/jpg", "image/pjpeg", "image/gif", "image/webp"]
)


def find(
    text: str, spans: list[Span], *, memo: bool = True, crossing: list[int] | None = None
) -> None:
    """Add the spans of provider credentials and random-looking pieces in ``text``.

    What a run holds depends only on the run itself and the character before it: a
    run seen before in the same text (hostile or repetitive text repeats one thousands
    of times) is looked at once, and its spans are reused shifted (``memo=False`` looks
    at every run: the slow path the tests compare with). ``crossing`` (ascending
    positions): only the runs with one of them inside are looked at, so every span that
    has one of them inside is found (a span lies within its run), others may not be."""
    ascii_text = text.encode("ascii", "replace")
    mixed = ascii_text.translate(_MIXED_TABLE)
    runs = _past_escapes(
        text,
        ascii_text,
        [
            (begin, end)
            for begin, end in _runs(ascii_text.translate(_TABLE))
            if mixed.count(b"D", begin, end) >= _MIXED_MIN
        ],
    )
    runs = runs if crossing is None else _around(runs, crossing)
    if not runs:
        return
    # Where an id's key can end a run's value: an "id" in the 26 characters before
    # (``_ID_TAIL``'s longest match), found in C before ``_id_value`` is asked.
    lowered = ascii_text.lower()
    split = ascii_text.translate(_SPLIT_TABLE) if memo else None
    spaced = ascii_text.translate(_PIECE_TABLE)
    # The spans of a run by its text and the character before (never a token
    # character: a run at the start of the text cannot share a key with one after it),
    # ``"id:"`` before it for an id's value; ``_NOTHING`` for a run that gives nothing
    # whatever comes before it (``_shape``; a plain run not random), which is not read
    # again.
    seen: dict[str, list[Span]] = {}
    heads = _heads(text)
    cursors = _sheltered(text, lowered, runs)
    data_uri = ascii_text.find(b";base64,") != -1
    # A plain run (``_plain``, in ``_plain_view``, made when first needed) is judged by
    # ``_Plain``.
    plain = None
    judge = _Plain(text, ascii_text)
    for begin, end in runs:
        if data_uri and _data_uri(text, begin, end, spans):
            continue
        shape: tuple[bool, ...] | None = None
        if split is not None:
            key = text[max(0, begin - 1) : end]
            known = seen.get(key)
            if known is None:
                plain = plain or _plain_view(ascii_text, heads)
                if _plain(text, begin, end, plain):
                    # An id's or a cursor's value gives nothing (no provider's prefix in
                    # it), and is not remembered: the same run bare is judged.
                    if not _named(text, begin, end, lowered, cursors):
                        seen[key] = judge.spans(begin, end, spans)
                    continue
                shape = _shape(text, begin, end, heads, split=split, spaced=spaced)
                if not shape:
                    seen[key] = _NOTHING
                    continue
            elif known is _NOTHING:
                continue
        named = _named(text, begin, end, lowered, cursors)
        if split is None:
            _run(text, begin, end, spans, heads, named=named, cursors=cursors)
            continue
        if named:
            key = "id:" + key
            known = seen.get(key)
        if known is None:
            if shape is None:
                shape = _shape(text, begin, end, heads, split=split, spaced=spaced)
            whole, pieces = shape
            known = []
            _run(
                text,
                begin,
                end,
                known,
                heads,
                named=named,
                whole=whole,
                pieces=pieces,
                cursors=cursors,
            )
            seen[key] = [(a - begin, b - begin, name, rank) for a, b, name, rank in known]
            spans.extend(known)
        else:
            spans.extend([(a + begin, b + begin, name, rank) for a, b, name, rank in known])


_NOTHING: list[Span] = []

# An Amazon Resource Name: partition, service, region, account, then the resource (a
# type, a path of names, a name): ``arn:aws:iam::123456789012:role/service-role/Deploy``.
_ARN = re.compile(
    r"(?<![A-Za-z0-9])arn:aws(?:-[a-z]{2,10}){0,3}:[a-z0-9\-]{2,40}:[a-z0-9\-]{0,30}:"
    r"(?:[0-9]{12}|aws)?:[^\s\"'<>,;`]{1,2048}"
)


def _sheltered(text: str, lowered: bytes, runs: list[tuple[int, int]]) -> frozenset[int]:
    """Where values that are read as an id's start: under a pagination cursor's key
    (``_cursor_values``) and the runs of an ARN (``_arn_runs``)."""
    cursors = _cursor_values(text, lowered)
    if lowered.find(b"arn:") != -1:  # an ARN's resource names things: none is a secret
        cursors = cursors | _arn_runs(text, runs)
    return cursors


def _arn_runs(text: str, runs: list[tuple[int, int]]) -> frozenset[int]:
    """The starts of the runs inside an ARN (``runs``: ascending): names of resources,
    read as an id's value (a provider's format in one still goes)."""
    starts: set[int] = set()
    for m in _ARN.finditer(text):
        at = bisect.bisect_left(runs, (m.start(), -1))
        while at < len(runs) and runs[at][0] < m.end():
            starts.add(runs[at][0])
            at += 1
    return frozenset(starts)


def _named(text: str, begin: int, end: int, lowered: bytes, cursors: frozenset[int]) -> bool:
    """Whether the run ``text[begin:end]`` is an id's value or a data key's
    (``idempotency_key``, ``cache_key``: ``_data_key_value``), unless it names a secret
    itself (``pi_…_secret_…``), or a pagination cursor: the model needs it for the next
    page (a provider's format in either still goes). ``lowered``: the text's ASCII
    view, lower case; ``cursors``: ``_cursor_values``."""
    return begin in cursors or (
        (
            (
                lowered.find(b"id", max(0, begin - _ID_TAIL_MAX), begin) != -1
                and (_id_value(text, begin) or _spaced_id_value(text, begin))
            )
            or (
                lowered.find(b"key", max(0, begin - _ID_TAIL_MAX), begin) != -1
                and _data_key_value(text, begin)
            )
            or (
                lowered.find(b":", max(0, begin - 4), begin) != -1
                and _id_header(text, begin, lowered)
            )
        )
        and _NAMES_SECRET.search(text, begin, end) is None
    )


# A data key's name (``_labels.DATA_KEY_QUALIFIERS`` then ``key``) before its value.
_DATA_KEY_TAIL = re.compile(
    r"(?<![A-Za-z0-9])(?:"
    + "|".join(sorted(DATA_KEY_QUALIFIERS, key=len, reverse=True))
    + r")[_\- ]?keys?(?:\\{0,7}[\"'])?[ \t]{0,3}[:=][ \t]{0,3}(?:\\{0,7}[\"'])?\Z",
    re.IGNORECASE,
)
_DATA_KEY_MAX = 48
"""The longest match of ``_DATA_KEY_TAIL``."""


def _data_key_value(text: str, begin: int) -> bool:
    """Whether the value at ``begin`` is a data key's (``Idempotency-Key: …``): the
    name of a record, a cache entry or a retried request, which opens nothing."""
    return _DATA_KEY_TAIL.search(text, max(0, begin - _DATA_KEY_MAX), begin) is not None


def _plain_views(ascii_text: bytes) -> tuple[bytes, bytes, bytes]:
    """The views ``_plain_random`` reads of a text (its ASCII view): the character
    classes (``_CLASSES``), their changes (``_changes``) and the characters that can
    be in a word-like run (``_wordy``)."""
    classes = ascii_text.translate(_CLASSES)
    return classes, _changes(classes), _wordy(classes)


def _plain_view(ascii_text: bytes, heads: list[int]) -> bytes:
    """A view of the text (its ASCII view) with ``s`` at each character that keeps a run
    from being plain: one of ``-_+.=$~/`` (``_PLAIN_TABLE``) and where a provider's
    prefix starts (``heads``: ``_heads``). A prefix is made of token characters, so one
    that starts in a run ends in it."""
    view = bytearray(ascii_text.translate(_PLAIN_TABLE))
    for at in heads:
        view[at] = _MARK
    return bytes(view)


_MARK = ord("s")


def _plain(text: str, begin: int, end: int, plain: bytes) -> bool:
    """Whether the run ``text[begin:end]`` is plain: letters and digits only, no
    provider's prefix starting in it (``plain``: ``_plain_view``), no picture's header
    or public blob's start at its start, no picture's header glued inside. ``_run``
    gives such a run's spans as ``_plain_random`` does, whatever its shape."""
    return (
        plain.find(b"s", begin, end) == -1
        and not text.startswith(_NOT_PLAIN, begin)
        and (end - begin < _GLUED_PICTURE or _HEAD_GLUED.search(text, begin + 1, end) is None)
    )


class _Plain:
    """The judge of a text's plain runs: ``is_random`` on a copy of each of the first
    ones, then, once as many are judged as the text's length / ``_VIEWS_AFTER``,
    ``_plain_random`` on views of the whole text (``_plain_views``), made then: a text
    with a few plain runs does not pay for views of all of it (~10 ns a character), a
    text of many pays ~1.4 us a run less (the views cost what that saves on a run every
    ~150 characters)."""

    __slots__ = ("ascii_text", "left", "text", "views")

    def __init__(self, text: str, ascii_text: bytes) -> None:
        self.text = text
        self.ascii_text = ascii_text
        self.left = len(text) // _VIEWS_AFTER
        self.views: tuple[bytes, bytes, bytes] | None = None

    def spans(self, begin: int, end: int, spans: list[Span]) -> list[Span]:
        """Add the span of the plain run ``text[begin:end]`` if it is random; its
        spans relative to its start (``_NOTHING`` when it gives none: named or not, it
        gives none)."""
        if self.views is not None:
            random = _plain_random(self.text, begin, end, self.views)
        elif self.left:
            self.left -= 1
            random = is_random(self.text[begin:end])
        else:
            self.views = _plain_views(self.ascii_text)
            random = _plain_random(self.text, begin, end, self.views)
        if not random:
            return _NOTHING
        if (
            end - begin >= _ID_MIN
            and may_hold_identifier(self.text[begin:end])
            and _inside(begin, end, public_spans(self.text, begin, end))
        ):
            return _NOTHING  # a checked address, a CID (``_identifiers``)
        left = _past_escape(self.text, begin)
        spans.append((left, end, "high-entropy", 1))
        return [(left - begin, end - begin, "high-entropy", 1)]


_VIEWS_AFTER = 200


def _data_uri(text: str, begin: int, end: int, spans: list[Span]) -> bool:
    """Whether the run ``text[begin:end]`` is the payload of a media data URI (then its
    span is added if it is not kept: see ``_run``)."""
    if not text.endswith(";base64,", max(0, begin - 8), begin):
        return False
    media = _media(text, begin)
    if not media:
        return False
    if not _media_kept(text[begin:end], media):
        spans.append((begin, end, "high-entropy", 1))
    return True


# A run with one of these is not plain: ``_run`` reads it whole.
_PLAIN_TABLE = bytes(ord("s") if b in b"-_+.=$~/" else ord(" ") for b in range(256))
# What ``_run`` looks at before judging a run: a picture's header, a public blob's start.
_NOT_PLAIN = (*_IMAGE_HEADS, "AAAA", "sha")
# A plain hex digest (``_survivor``'s first shape, in a run of letters and digits: the
# group), or a base32 run (``_BASE32``, in such a run).
_HEX_OR_BASE32 = re.compile(r"([0-9a-f]+|[0-9A-F]+)|[A-Z2-7]{16,}")
# Two classes' bytes (``_CLASSES``) XORed: each pair of classes gives its own byte, and
# only the pairs of two of lower, upper and digit are a class change.
_CHANGE_TABLE = bytes(
    ord("x") if b in (ord("l") ^ ord("u"), ord("l") ^ ord("d"), ord("u") ^ ord("d")) else 32
    for b in range(256)
)


def _changes(classes: bytes) -> bytes:
    """A view of ``classes`` (``_CLASSES`` of a text) with ``x`` at each position whose
    character and the next are two of lower, upper and digit, a space elsewhere: the
    class changes of any stretch of the text are one count (``bytes.count``), made for
    the whole text at once with two integers' XOR (in C)."""
    size = len(classes)
    if not size:
        return b""
    # the last character is paired with an "o" (no class): no change
    pairs = int.from_bytes(classes, "big") ^ int.from_bytes(classes[1:] + b"o", "big")
    return pairs.to_bytes(size, "big").translate(_CHANGE_TABLE)


_SAME = bytes([1, *[0] * 255])
_UPPER_ONLY = bytes(int(b == ord("u")) for b in range(256))
_LOWER_ONLY = bytes(int(b == ord("l")) for b in range(256))


def _wordy(classes: bytes) -> bytes:
    """A view of ``classes`` (``_CLASSES`` of a text) with 1 at each character that can
    be in a match of ``_WORDS``, 0 elsewhere: one in three characters in a row of one
    class (``l{3,}``, ``u{3,6}``, ``d{3,}``), or one of an upper-case letter and two
    lower-case ones (``ul{2,}``). In a run, fewer of these than 80% of it is fewer
    characters in word-like runs than that: one count, not the runs found. Made for the
    whole text at once with integers' shifts and ANDs (in C), a byte a character."""
    size = len(classes)
    if not size:
        return b""
    every = (1 << 8 * size) - 1
    # 1 where a character's class is the next one's (the last one's next is no class)
    same = int.from_bytes(
        (int.from_bytes(classes, "big") ^ int.from_bytes(classes[1:] + b"\0", "big"))
        .to_bytes(size, "big")
        .translate(_SAME),
        "big",
    )
    upper = int.from_bytes(classes.translate(_UPPER_ONLY), "big")
    lower = int.from_bytes(classes.translate(_LOWER_ONLY), "big")
    # 1 where three characters of one class start, and where "ull" starts (in big-endian
    # bytes, ``<< 8`` reads the next character, ``>> 8`` marks the next one)
    starts = (same & (same << 8) | upper & (lower << 8) & (lower << 16)) & every
    return (starts | starts >> 8 | starts >> 16).to_bytes(size, "big")


def _plain_random(text: str, begin: int, end: int, views: tuple[bytes, bytes, bytes]) -> bool:
    """``is_random(text[begin:end])`` for a run of 16 letters and digits or more (no
    ``-_+/``, so the piece is the run and no separator is left out): the survivor and
    base32 tests on the text itself, the class changes and the word-like runs on views
    of the whole text (``views``: ``_plain_views``), without a copy of the run. The
    word-like runs are found only in a run whose characters that can be in one are 80%
    of it (1 in 25 random runs of 20 characters); the few runs that are mostly
    word-like are passed to ``is_random``."""
    hex_or_base32 = _HEX_OR_BASE32.fullmatch(text, begin, end)
    if hex_or_base32 is not None:
        # a plain hex digest is a survivor; a ULID (``01…``) is no base32
        return hex_or_base32.lastindex is None and _base32_secret(text[begin:end])
    size = end - begin
    if size == 26 and _PUBLIC_ID.fullmatch(text, begin, end) is not None:
        return False
    classes, changes, wordy = views
    if size < 20 or changes.count(b"x", begin, end - 1) < (0.3 if size < 32 else 0.25) * size:
        return False  # a single case of letters has no change
    core = 0.8 * size
    if (
        wordy.count(1, begin, end) < core
        or sum(map(len, _WORDS.findall(classes, begin, end))) < core
    ):
        return True
    return is_random(text[begin:end])


def _shape(
    text: str, begin: int, end: int, heads: list[int], *, split: bytes, spaced: bytes
) -> tuple[bool, ...]:
    """What ``_run`` needs to know of the run ``text[begin:end]``: whether it is one
    piece (none of ``. = $ ~ /`` in it) and whether it holds a piece of 20 characters
    (between those; in a URL, between its ``/`` too). ``()`` when ``_run`` would find
    nothing in it whatever comes before it: no provider's prefix starts in it, nothing
    in it starts like a picture, and it is one survivor (a hex digest, a UUID) or holds
    no piece ``_run`` judges (only a base32 seed is judged under 20 characters)."""
    whole = split.find(b"s", begin, end) == -1
    if whole:
        pieces = True
    else:
        # a URL's pieces are its path segments: no "/" inside either (the two views
        # differ only at a "/": a run without one need not be asked whether it is a URL)
        url = text.find("/", begin, end) != -1 and _url_run(text, begin)
        pieces = (split if url else spaced).find(_PIECE, begin, end) != -1
    at = bisect.bisect_left(heads, begin)
    if (
        (at < len(heads) and heads[at] + 2 <= end)  # a provider's prefix starts in it
        or text.startswith(_IMAGE_HEADS, begin)
        or (end - begin >= _GLUED_PICTURE and _HEAD_GLUED.search(text, begin + 1, end))
    ):
        return whole, pieces
    if whole and _SURVIVOR_RUN.fullmatch(text, begin, end) is not None:
        return ()
    if (end - begin < 20 or not pieces) and _BASE32_16.search(text, begin, end) is None:
        return ()
    return whole, pieces


# A URL or a path whose segments are pieces of their own (``_url_run``): after a
# scheme's colon (``https://…``), a host without a scheme (``api.acme.com/v1/…``, as a
# failure line shows a request), a port after a host's colon (``:8443/v1/…``: the colon
# ends the run) and a path from the root whose first segment is a word (``/v1/…``,
# ``/Users/…``). A lowercase host needs a dot and a top-level domain of letters: base64
# has no dot, and a JWT's parts are mixed case.
_HOST_PATH = re.compile(r"(?:[a-z0-9][a-z0-9\-]{0,62}\.)+[a-z]{2,24}/")
_PORT_PATH = re.compile(r"[0-9]{1,5}/")
_ROOT_PATH = re.compile(r"/(?:[a-z0-9][a-z0-9_\-]{0,31}|[A-Z][a-z]{1,31})/")


def _whole_edges(text: str, begin: int, end: int, left: int, right: int) -> tuple[int, int]:
    """The span of a random piece ``text[left:right]`` of the run ``text[begin:end]``
    with what of the run is glued to it and belongs to no other piece: ``-``, ``_`` or
    ``+`` at its edges (base64url's and base64's own characters, left out only to judge
    the piece) and base64's padding after it (``=``, ``==`` ending the run or its
    segment). A placeholder never keeps a one-character stub of the value it stands for
    (``-[redacted:high-entropy]``, ``[redacted:high-entropy]=``). The letter of a line
    break or a tab written out right before the run (``\\n`` in a repr) is the escape's,
    not the value's: it stays, so the escape does."""
    first = left
    while left > begin and left > first - _EDGE and text[left - 1] in "-_+":
        left -= 1
    if left == begin:
        left = _past_escape(text, begin)
    stop = right
    while stop < end and stop < right + _EDGE and text[stop] in "-_+":
        stop += 1
    pad = stop
    while pad < end and pad < stop + 2 and text[pad] == "=":
        pad += 1
    if pad > stop and (pad == end or text[pad] in "/.,;&"):
        stop = pad
    return left, stop


_EDGE = 2
"""How many ``-_+`` glued to a random piece's edge its span takes."""


def _past_escapes(
    text: str, ascii_text: bytes, runs: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """``runs`` with each that starts right after a line break or a tab written out
    (``\\n`` in escaped JSON) starting past the escape's letter (fix21b), as it would after
    a real break: ``\\nb11a…`` is a hex digest, not ``nb11a…``."""
    if b"\\" not in ascii_text:
        return runs
    return [(_past_escape(text, begin), end) for begin, end in runs]


def _past_escape(text: str, begin: int) -> int:
    """Where a run's value starts: past the letter of a line break or a tab written out
    right before it (``\\n``, ``\\r``, ``\\t`` in a repr or a log), which is the
    escape's; else ``begin``."""
    if begin and text[begin - 1] == "\\" and text[begin : begin + 1] in ("n", "r", "t"):
        return begin + 1
    return begin


# (fix22c) A page's slug in a URL's path: its title's words, then its 32-hex id
# (Notion's ``/acme/Roadmap-9f86d081884c7d659a2feaa0c55ad015``, ``notion.site``): the
# hex id alone stays as a digest does; words naming a secret before it do not.
_SLUG_ID = re.compile(r"(?:[A-Za-z0-9]{1,40}-){1,20}[0-9a-f]{32}")


def _page_slug(text: str, begin: int, start: int, piece: str) -> bool:
    return (
        len(piece) > 33
        and piece[-33] == "-"
        and _SLUG_ID.fullmatch(piece) is not None
        and not piece[:-33].replace("-", "").isdigit()
        and _NAMES_SECRET.search("-" + piece[:-33] + "-") is None
        and text.find("?", begin, start) == -1
        and text.find("#", begin, start) == -1
    )


def _url_run(text: str, begin: int) -> bool:
    """Whether the run starting at ``begin`` is a URL or a path: each of its ``/``
    segments is then a piece, so a random segment goes alone and the host and the
    other segments stay."""
    before = text[begin - 1 : begin]
    if text.startswith("//", begin):
        return before == ":"
    if before == ":" and _PORT_PATH.match(text, begin):
        return True
    return (_HOST_PATH.match(text, begin) or _ROOT_PATH.match(text, begin)) is not None


def _around(runs: list[tuple[int, int]], points: list[int]) -> list[tuple[int, int]]:
    """The runs (ascending, apart) with one of ``points`` (ascending) strictly inside."""
    kept, index, count = [], 0, len(points)
    for begin, end in runs:
        while index < count and points[index] <= begin:
            index += 1
        if index == count:
            break
        if points[index] < end:
            kept.append((begin, end))
    return kept


_ID_MIN = 26
"""The shortest public identifier ``_identifiers`` knows (a Base58Check address)."""


def _inside(start: int, stop: int, ranges: list[tuple[int, int]]) -> bool:
    """Whether ``[start, stop)`` lies in one of ``ranges``."""
    return any(a <= start and stop <= b for a, b in ranges)


def _run(
    text: str,
    begin: int,
    end: int,
    spans: list[Span],
    heads: list[int],
    *,
    named: bool = False,
    whole: bool = False,
    pieces: bool = True,
    cursors: frozenset[int] = frozenset(),
) -> None:
    """The spans of the run ``text[begin:end]`` (``heads``: ``_heads(text)``);
    ``named``: the value of an id's key, which no random-looking piece makes secret (a
    provider's format still does); ``whole``: the run holds none of ``. = $ ~ /``, so
    it is one piece, no id's key is inside it and no file's extension follows it;
    ``pieces=False``: it holds no piece of 20 characters between those; ``cursors``:
    where values under pagination cursors' keys start (``_cursor_values``)."""
    if text.startswith(_IMAGE_HEADS, begin):
        if not picture(text[begin:end]):
            # Dressed as a picture, but a secret was glued to it or put inside it (or it
            # was cut short): it goes whole.
            spans.append((begin, end, "high-entropy", 1))
        return  # a genuine picture: bytes, not a credential
    if end - begin >= _GLUED_PICTURE and _HEAD_GLUED.search(text, begin + 1, end):
        spans.append((begin, end, "high-entropy", 1))  # a secret glued before a picture
        return
    before = len(spans)
    at = bisect.bisect_left(heads, begin)
    if at < len(heads) and heads[at] + 2 <= end:  # a family's prefix starts in the run
        _providers(text, begin, end, spans, heads)
    # Below 20 characters only a base32 secret can be random (an OTP seed of 16).
    if named or ((end - begin < 20 or not pieces) and _BASE32_16.search(text, begin, end) is None):
        return
    run = text[begin:end]
    if run.startswith(("AAAA", "sha")) and _public_blob(run):
        return
    if (run[:1] == "-" or text[begin - 1 : begin] in _CHECKSUM_OR_FLAGS_BEFORE) and (
        _checksum_or_flags(text, begin, run)
    ):
        return
    # Public identifiers whose format is certain (``_identifiers``): a publishable key,
    # a Google document's id in its URL, a checked crypto address, an IPFS CID. Read
    # once a random piece is found, in a run that may hold one.
    public: list[tuple[int, int]] | None = (
        None if end - begin >= _ID_MIN and may_hold_identifier(run) else []
    )
    if whole and len(spans) == before:
        piece = run.strip("-_+")
        if is_random(piece):
            left = begin + run.index(piece)
            if public is None and _inside(left, left + len(piece), public_spans(text, begin, end)):
                return
            spans.append(
                (*_whole_edges(text, begin, end, left, left + len(piece)), "high-entropy", 1)
            )
        return
    covered = spans[before:]
    # In a URL (``scheme://host/path``), each path segment is a piece of its own: a
    # random one goes, the host and the words of the path stay.
    cut = _URL_PIECES if _url_run(text, begin) else _PIECES
    for m in cut.finditer(text, begin, end):
        start, stop = m.span()
        if stop - start < 20 and _BASE32_16.search(text, start, stop) is None:
            continue
        if any(a < stop and start < b for a, b, _, _ in covered):
            continue
        if (
            start > begin
            and text[start - 1] == "="
            and (_id_value(text, start) or _data_key_value(text, start))
            and _NAMES_SECRET.search(text, start, stop) is None
        ):
            continue  # ``request_id=…``, ``cache_key=…`` inside the run
        if cursors and start in cursors:
            continue  # ``next_page_token=…`` inside the run
        piece = m.group().strip("/-_+")
        if _file_name(text, stop, end) and _camel_words(piece.rsplit("/", 1)[-1]):
            continue
        if cut is _URL_PIECES and _page_slug(text, begin, start, piece):
            continue
        if is_random(piece):
            left = start + m.group().index(piece)
            if public is None:
                public = public_spans(text, begin, end)
            if public and _inside(left, left + len(piece), public):
                continue
            spans.append(
                (*_whole_edges(text, begin, end, left, left + len(piece)), "high-entropy", 1)
            )
