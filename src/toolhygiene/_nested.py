"""Objects under a secret's label: ``{"password": {"value": "v"}}``.

A key that names a secret with certainty (``is_secret_label(key) is True``) names what is
inside it, however deep: a nested object's scalar values are judged as labelled by that
outer label, unless their own key names a field known not to be secret (``user``,
``type``, ``expires_in``, ``id``, a schema's ``min_length`` …). An object whose keys are
all such fields (a schema describing a password field, ``{"password": {"min_length": 12,
"required": true}}``) thus stays whole; a ``default`` or an ``example`` in it is judged,
as it may be the real password. Prose (``quoted_prose``), booleans and null stay; a
number goes only when shaped as a code (``code_value``).

The rule is read in data (``redact_data``: a dict under such a key) and in text: JSON
text and dict reprs (the object bounded by its braces, read once from the outermost
labelled one: linear however deep the nesting), and YAML blocks (the indented lines
under ``password:``; each line keeps its key, only the value goes).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from toolhygiene._labels import (
    code_label,
    code_value,
    credential_shaped,
    is_secret_label,
    plain_run,
    plausible_value,
)
from toolhygiene._positional import SPAN
from toolhygiene._survivors import quoted_prose

__all__ = [
    "NEEDLES",
    "find",
    "holder",
    "judged",
    "names_a_value",
    "open_field",
    "password_like",
    "forget",
    "read",
]

_OPEN_FIELDS = frozenset(
    [
        # who and what
        "user",
        "username",
        "login",
        "email",
        "type",
        "kind",
        "id",
        "name",
        "kid",
        "alg",
        "algorithm",
        "scope",
        "scopes",
        "version",
        "format",
        "encoding",
        "length",
        "hint",
        "description",
        "note",
        "notes",
        "url",
        "uri",
        "host",
        "port",
        "region",
        "provider",
        "status",
        "title",
        "model",
        "source",
        "profile",
        "path",
        "domain",
        "issuer",
        "iss",
        "audience",
        "aud",
        "subject",
        "owner",
        "service",
        "account",
        "project",
        "tenant",
        "environment",
        "env",
        # a session's or a login's metadata
        "state",
        "role",
        "roles",
        "plan",
        "tier",
        "mode",
        "method",
        "ip",
        "agent",
        "useragent",
        "browser",
        "device",
        "platform",
        "os",
        "locale",
        "lang",
        "language",
        "timezone",
        "tz",
        "country",
        "city",
        "origin",
        "ttl",
        "timeout",
        # a schema describing the field
        "required",
        "pattern",
        "nullable",
        "readonly",
        "writeonly",
        "deprecated",
        "minimum",
        "maximum",
        "label",
        "placeholder",
        "help",
    ]
)
_OPEN_PREFIXES = ("expires", "expiry", "expiration", "created", "updated", "min", "max")
_PARTS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def open_field(key: str) -> bool:
    """Whether ``key`` names a field known not to be secret (``user``, ``token_type``,
    ``expiresIn``, ``min_length``): its whole name, or its last word, is such a field,
    or it starts with a time's or a bound's word."""
    parts = [p.lower() for p in _PARTS.findall(key)]
    if not parts or is_secret_label(key) is True:
        return False
    whole = "".join(parts)
    if whole in _OPEN_FIELDS or parts[-1] in _OPEN_FIELDS:
        return True
    return parts[0].startswith(_OPEN_PREFIXES) or whole.startswith(_OPEN_PREFIXES)


_HOLDERS = frozenset(
    [
        "",  # an item of a list right under the label
        "value",
        "values",
        "val",
        "v",
        "data",
        "current",
        "previous",
        "old",
        "new",
        "next",
        "primary",
        "secondary",
        "active",
        "plain",
        "plaintext",
        "cleartext",
        "clear",
        "decrypted",
        "raw",
        "content",
        "string",
        "str",
        "text",
        "literal",
        "b64",
        "base64",
        "hex",
        "encoded",
        "default",
        "example",
        "examples",
        "initial",
        "temp",
        "temporary",
        "backup",
        "fallback",
        "prod",
        "production",
        "staging",
        "stage",
        "dev",
        "development",
        "test",
        "local",
        "live",
        "sandbox",
    ]
)


def holder(key: str) -> bool:
    """Whether ``key`` names what holds the secret itself (``value``, ``current``,
    ``prod``, ``default``), or names a secret (``pass``, ``pin``)."""
    parts = [p.lower() for p in _PARTS.findall(key)]
    return (
        "".join(parts) in _HOLDERS
        or (bool(parts) and parts[-1] in _HOLDERS)
        or is_secret_label(key) is not False
        or code_label(key)
    )


_VALUE_WORDS = frozenset(
    [
        "password",
        "passwd",
        "pwd",
        "pw",
        "pass",
        "passphrase",
        "passcode",
        "secret",
        "key",
        "token",
        "apikey",
        "pin",
    ]
)


def names_a_value(label: str) -> bool:
    """Whether a secret's label names one value (``password``, ``client_secret``,
    ``api_key``, ``accessToken``), not a thing that holds or describes secrets (a
    ``session``, a ``cookie``, ``auth``, ``credentials``, ``secrets``)."""
    parts = _PARTS.findall(label)
    return bool(parts) and parts[-1].lower() in _VALUE_WORDS


def judged(label: str, key: str, value: Any) -> bool:
    """Whether ``value`` under ``key``, inside an object the secret's ``label`` names,
    is the secret. Under a key that holds the secret (``holder``), or any key under a
    label that names one value (``password``, ``api_key``): a string that may be one
    (not prose); a number shaped as a code under a holder. Under any other key of an
    object that holds or describes secrets (a ``session``'s ``started_at``, a
    ``cookie``'s ``domain``, ``credentials``' ``source``): only a string shaped as a
    credential (``abc123XYZ987``, not ``home``, ``example.com`` or a date)."""
    if value is None or isinstance(value, bool) or open_field(key):
        return False
    holds = holder(key)
    if not holds and not isinstance(value, (int, float)):
        holds = names_a_value(label)
    if isinstance(value, (int, float)):
        return holds and code_value(str(value))
    if not isinstance(value, str) or not value.strip():
        return False
    if not plausible_value(value, prose_allowed=False) or quoted_prose(value):
        return False
    return holds or (credential_shaped(value) and not plain_run(value)) or password_like(value)


# What is no password under an unknown key of a secret's container: a date or a time, a
# UUID, a number or a version, a URL, an e-mail address, a path, a dotted name.
_NOT_A_PASSWORD = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[T ][0-9:.+\-Z]{0,40})?"
    r"|[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?(?:\.[0-9]{1,9})?"
    r"|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
    r"|[vV]?[0-9]{1,64}(?:[.,_][0-9]{1,64}){0,6}[a-z]{0,3}"
    r"|[A-Za-z][A-Za-z0-9+.\-]{0,20}://[^ ]{0,2048}"
    r"|[^@\s]{1,64}@[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63}){1,8}"
    r"|[/~.][^ ]{0,2048}"
    r"|[A-Za-z][A-Za-z0-9\-]{0,62}(?:\.[A-Za-z][A-Za-z0-9\-]{0,62}){1,8}"
)
_PASSWORD_SYMBOLS = frozenset("0123456789!@#$%^&*+?~=;|<>()[]{}")


def password_like(value: str) -> bool:
    """Whether ``value``, under an unknown key of an object that holds or describes
    secrets (``{"session": {"foo": "hunter2"}}``), may be a password: one word of 5 to
    128 characters with a letter and a digit or a symbol in it (``hunter2``,
    ``s3cret!``), and no date, time, UUID, number, version, URL, e-mail address, path
    or dotted name. A word of letters alone (``active``, ``bob``) stays: a state or a
    name as often as a password."""
    if not 5 <= len(value) <= 128 or any(c.isspace() for c in value):
        return False
    if not any(c.isalpha() for c in value) or _PASSWORD_SYMBOLS.isdisjoint(value):
        return False
    return _NOT_A_PASSWORD.fullmatch(value) is None


NEEDLES = (": {", ":{", "={", "= {", ": [", ":[", ":\n", ":\r\n", ": \n")
"""What a text with such an object holds (a label, its separator, a brace or a line
break)."""

# A brace after a key and its separator: the key read back from it.
# Its first key quoted, as JSON and a repr write it (not a template's ``{{ pw }}`` or a
# format field's ``{password}``, ``{secret:>10}``); a list of objects too. Or a bare
# first key, a blank after its separator and a value (a YAML flow mapping, a JS or a
# log's object: ``password: {current: v, previous: v}``, ``{user: bob, pass: v}``).
_OPENING = re.compile(
    r"[:=][ \t\r\n]{0,8}(?P<open>\{|\[(?=[ \t\r\n]{0,8}\{))"
    r"(?=(?:[ \t\r\n]{0,8}\{)?[ \t\r\n]{0,8}\\{0,3}[\"']"
    r"|(?<=\{)[ \t]{0,8}[A-Za-z_][\w.\-]{0,79}[ \t]{0,3}[:=][ \t]{1,8}[^ \t\r\n{}])"
)
_KEY_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"


def _key_before(text: str, end: int) -> str:
    """The key written just before ``end`` (quoted or not, blanks after it): read back
    with ``rstrip``, a few C calls, no match tried at each character."""
    before = text[max(0, end - 96) : end].rstrip(" \t").rstrip("\"'").rstrip("\\")
    key = before[len(before.rstrip(_KEY_CHARS)) :]
    return key if 0 < len(key) <= 80 else ""


# One token of an object: a quoted string (its quotes escaped, inside a JSON string or a
# repr: ``{\"value\": \"v\"}``), a bracket, a comma, a separator, a bare word.
_TOKEN = re.compile(
    r"[ \t\r\n]*(?:(?P<e>\\{1,3}[\"'])(?P<eq>[^\"'\\\r\n]{0,4096})(?P=e)"
    r"|(?P<q>\"(?:[^\"\\\r\n]|\\.){0,4096}\"|'(?:[^'\\\r\n]|\\.){0,4096}')"
    r"|(?P<p>[{}\[\],:=])|(?P<w>[^\s{}\[\],:=\"']{1,4096}))"
)
_DEPTH = 32
_LITERALS = {"true": True, "false": False, "null": None, "True": True, "False": False}
_LITERALS["None"] = None


def _scalar(token: re.Match[str], kind: str | None) -> tuple[Any, int, int]:
    """The value of a string or bare token (``kind``: its group, ``eq``, ``q`` or ``w``),
    and the span of what a placeholder replaces."""
    if kind == "eq":
        return token.group("eq"), *token.span("eq")
    if kind == "q":
        start, end = token.span("q")
        return token.string[start + 1 : end - 1], start + 1, end - 1
    start, end = token.span("w")
    word = token.string[start:end]
    if word in _LITERALS:
        return _LITERALS[word], start, end
    first = word[0]
    if first not in "+-." and not first.isdigit():
        return word, start, end  # no number (``int`` and ``float`` would raise): a word
    try:
        return (float(word) if "." in word or "e" in word.lower() else int(word)), start, end
    except ValueError:
        return word, start, end


def _object(text: str, at: int, label: str, found: list[re.Match[str]]) -> int:
    """Read the object or list opening at ``at`` (under a secret's label), adding a
    ``SPAN`` match over each value judged secret; return where it ends (or where reading
    stopped). One pass, each character read once."""
    # per open bracket: an object?, the key above it, and its pair's name read so far
    stack: list[tuple[bool, str, list[str | None]]] = []
    key = ""
    expect_key = False
    position = at
    size = len(text)
    last: tuple[Any, int, int] | None = None  # the last string or word read
    bare = -1  # where the last bare word read ends
    match = _TOKEN.match
    while position < size:
        token = match(text, position)
        if token is None:
            return position
        position = token.end()
        kind = token.lastgroup  # (``eq``, ``q``, ``p`` or ``w``: each ends its token)
        if kind != "p":
            if not stack:
                return position
            if not expect_key and not stack[-1][0]:
                key = stack[-1][1]  # an item of a list: under the list's key
            if kind == "w" and last is not None and last[2] == bare:
                # words after a bare word: one value (``{hint: my dog}``), read whole
                last = (text[last[1] : position], last[1], position)
            else:
                last = _scalar(token, kind)
            bare = position if kind == "w" else -1
            expect_key = False  # (a key's separator follows it)
            continue
        mark = text[position - 1]
        if mark in "{[":
            if len(stack) >= _DEPTH:
                return position
            stack.append((mark == "{", key, [None]))
            expect_key, last = mark == "{", None
        elif mark in "}]":
            if last is not None:
                _judge(text, label, key, last, found, name=stack[-1][2][0] if stack else None)
            last = None
            if not stack:
                return position
            stack.pop()
            if not stack:
                return position
            key, expect_key = stack[-1][1], False
        elif mark == ",":
            if last is not None:
                _judge(text, label, key, last, found, name=_named_pair(stack, key, last[0]))
            last = None
            expect_key = bool(stack) and stack[-1][0]
            if stack and not stack[-1][0]:
                key = stack[-1][1]
        else:  # ``:`` or ``=``: what was read before it is a key
            if last is not None:
                key = str(last[0])
            last = None
    return position


def read(text: str, at: int, label: str, found: list[re.Match[str]]) -> int:
    """``SPAN`` matches, added to ``found``, over the values judged secret in the
    object or list opening at ``at`` under the secret's ``label``; where it ends. Call
    ``forget`` after the text's last one."""
    return _object(text, at, label, found)


def forget() -> None:
    """Drop the verdicts kept while reading one text (values are secrets: none is kept
    past it). ``find`` does it itself; a caller of ``read`` calls it when done."""
    _judged_once.cache_clear()


@functools.lru_cache(maxsize=4096)
def _judged_once(label: str, key: str, value: Any) -> bool:
    """``judged``, once per label, key and value in one text (its objects repeat their
    keys and values: a flood of ``password: {a: b, …}`` asks one question thousands of
    times); cleared after each text, so that no value is kept."""
    return judged(label, key, value)


def _judge(
    text: str,
    label: str,
    key: str,
    scalar: tuple[Any, int, int],
    found: list[re.Match[str]],
    *,
    name: str | None = None,
) -> None:
    value, start, end = scalar
    if key in _NAME_KEYS and isinstance(value, str) and _names_a_field(value):
        return  # (fix21b) a pair's name (Postman's ``{"key": "password", "value": …}``)
    if key == "value" and name is not None and _names_a_field(name):
        # (fix21b) the pair's value, judged under the pair's own name: a secret's goes
        # as a holder's, another field's (``username``) stays
        if is_secret_label(name) is not True:
            return
        label, key = name, name
    if start < end and _judged_once(label, key, value):
        m = SPAN.match(text, start, end)
        if m is not None and m.end() == end:
            found.append(m)


_NAME_KEYS = frozenset(["key", "name"])


def _named_pair(
    stack: list[tuple[bool, str, list[str | None]]], key: str, value: Any
) -> str | None:
    """The name of the pair the innermost open object holds (``{"key": "username",
    "value": …}``), ``value`` remembered as it when read under ``key`` or ``name``."""
    if not stack:
        return None
    if key in _NAME_KEYS and isinstance(value, str):
        stack[-1][2][0] = value
    return stack[-1][2][0]


_LABEL_WORDS = frozenset(
    ["password", "passwd", "passphrase", "pwd", "secret", "token", "apikey", "credential"]
)
_JOINED = re.compile(r"[_.\-]|[a-z][A-Z]")
_FIELD_NAME = re.compile(r"[A-Za-z][A-Za-z_.\-]{0,39}")


def _names_a_field(value: str) -> bool:
    """Whether ``value`` under a pair's ``key`` or ``name`` names a field: a word of
    letters that names a secret (``password``, ``X-Api-Key``) or a field known to be
    open (``username``); a random key written there is no such word."""
    if _FIELD_NAME.fullmatch(value) is None:
        return False
    if open_field(value):
        return True
    # a secret's name written as names are: one word of a label (``password``), or words
    # joined by ``_ - .`` or in camel case (``smtp_password``, ``X-Api-Key``, ``apiKey``);
    # not letters glued (``hunterpassword``: as likely the value itself)
    return is_secret_label(value) is True and (
        value.lower() in _LABEL_WORDS or _JOINED.search(value) is not None
    )


# A YAML key with nothing after it on its line: a mapping under it.
_YAML_LABEL = re.compile(
    r"^(?P<indent>[ \t]{0,40})[\"']?(?P<key>[A-Za-z_][\w.\-]{0,79})[\"']?[ \t]{0,5}:"
    r"[ \t]{0,5}(?:#[^\r\n]{0,200})?\r?$",
    re.MULTILINE,
)
_YAML_LINE = re.compile(
    r"(?P<indent>[ \t]{0,80})(?:-[ \t]{1,5})?(?:[\"']?(?P<key>[A-Za-z_][\w.\-]{0,79})[\"']?"
    r"[ \t]{0,5}:(?:[ \t]{1,5}|(?=\r?\n|\Z)))?(?P<value>[^\r\n]{0,4096})"
)
_YAML_LINES = 2_000


def _yaml_block(text: str, label: re.Match[str], found: list[re.Match[str]]) -> int:
    """Judge the lines indented under a YAML label; return where the block ends."""
    depth = len(label.group("indent"))
    position = label.end()
    keys: list[tuple[int, str]] = []  # the keys above a line, by their indent
    for _ in range(_YAML_LINES):
        if text.startswith("\r\n", position):
            position += 2
        elif text.startswith("\n", position):
            position += 1
        else:
            break
        line = _YAML_LINE.match(text, position)
        if line is None:  # (never: every part is optional)
            break
        value = line.group("value").rstrip(" \t\r")
        if not line.group("key") and not value:
            position = line.end()
            continue  # a blank line inside the block
        indent = len(line.group("indent"))
        if indent <= depth:
            return position
        position = line.end()
        while keys and keys[-1][0] >= indent:
            keys.pop()
        key = line.group("key") or (keys[-1][1] if keys else "")
        if not value or value.startswith("#"):
            keys.append((indent, key))
            continue
        if value[:1] in "|>" and len(value) <= 3:
            keys.append((indent, key))  # a block scalar's lines: under its key
            continue
        start = line.start("value")
        end = start + len(value)
        if value[:1] in "\"'" and len(value) >= 2 and value[-1] == value[0]:
            start, end, value = start + 1, end - 1, value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
            end = start + len(value)
        if start < end and judged(label.group("key"), key, value):
            m = SPAN.match(text, start, end)
            if m is not None and m.end() == end:
                found.append(m)
    return position


def find(text: str) -> list[re.Match[str]]:
    """``SPAN`` matches over the values of the objects under a secret's label in
    ``text`` (JSON, a dict repr, YAML), in order. Each object is read once, from the
    outermost labelled one."""
    found: list[re.Match[str]] = []
    reach = 0
    if "{" in text:
        for opening in _OPENING.finditer(text):
            if opening.start() < reach:
                continue
            key = _key_before(text, opening.start())
            if not key or is_secret_label(key) is not True:
                continue
            reach = _object(text, opening.start("open"), key, found)
    if "\n" in text:
        reach = 0
        for label in _YAML_LABEL.finditer(text):
            if label.start() < reach:
                continue
            if is_secret_label(label.group("key")) is not True:
                continue
            reach = _yaml_block(text, label, found)
    _judged_once.cache_clear()  # (values are secrets: none kept past one text)
    found.sort(key=re.Match.start)
    return found
