"""A secret named by a sibling member: ``{"Name": "/prod/db/password", "Value": "v"}``.

An object with a member that names something (a name-ish key: ``name``, ``key``,
``field``, ``label``, ``setting``, ``attribute``, ``column``, ``param``, ``variable``,
``id``, ``path``, ``property``, ``option``, and ``ParameterKey``, ``SecretName``,
``key_name``-like compounds) whose string is a secret's label, also as the last segment
of a path or a dotted name (``DB_PASSWORD``, ``/prod/db/password``, ``app.db.token``),
holds that secret in its value-ish members (``value``, ``val``, ``data``, ``content``,
``rows``, ``ParameterValue``, ``setting_value``, ``paramValue``: a key that is one of
these words or ends in ``value``). Each of their scalar values, or each scalar item of
a list (``{"column": "password", "rows": ["v1", "v2"]}``), is judged as labelled by the
name: under a label that names a secret with certainty every real value goes (not a
placeholder, a mask or a sentence); under one that may (``stripe_key``, ``key``), a
value shaped as a credential. An AWS parameter typed ``SecureString`` is a secret
whatever its name. Other members stay, and so does the value of a name that is no
secret (``{"Name": "/prod/db/host", "Value": "db.internal"}``, ``{"key": "color",
"value": "blue"}``).

Read in data (``secret_members``: ``redact_data``'s dicts and ``_json_kept``'s
value-by-value fallback) and in text (``find``): JSON, a dict repr, keyword arguments
(``Param(name='DB_PASSWORD', value='v')``), a line of ``name: X, value: Y``, and a YAML
list item or mapping (``- name: DB_PASSWORD`` then ``value: v``; either order). In text,
the names after a name-ish word are read in one C scan of the lowercased text, and a
text none of whose names holds a piece of a secret's label (``pass``, ``secret``,
``token``, ``key``, … and the other languages' labels) is read no further (and neither
is one without a value-ish word: the detector's needles). Only an object around a name
that may be a label is read: a flat one (no bracket inside) in one C scan of its
members, another token by token from its opening brace (at most ``_WINDOW`` characters
back, ``_TRIES`` braces), each object inside it judged in the same pass.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Mapping
from typing import Any

from toolhygiene._labels import (
    AUTH_SCHEMES,
    FOREIGN_LABELS,
    GLUED_LABELS,
    PHRASE_LABELS,
    code_label,
    code_value,
    credential_shaped,
    is_secret_label,
    plausible_value,
    status_word,
)
from toolhygiene._positional import SPAN
from toolhygiene._survivors import quoted_prose

__all__ = ["NEEDLES", "find", "name_key", "secret_item", "secret_members", "value_key"]

_NAME_WORDS = (
    "name",
    "key",
    "id",
    "field",
    "label",
    "setting",
    "attribute",
    "column",
    "param",
    "parameter",
    "variable",
    "var",
    "path",
    "property",
    "option",
)
_NAME_QUALIFIERS = (
    "parameter",
    "param",
    "secret",
    "key",
    "field",
    "setting",
    "variable",
    "var",
    "env",
    "attribute",
    "property",
    "option",
    "config",
)
_NAME_KEYS = frozenset(_NAME_WORDS) | frozenset(
    q + w for q in _NAME_QUALIFIERS for w in ("name", "key", "id")
)
"""Name-ish keys, lowercased without ``_`` or ``-``."""

_VALUE_KEYS = frozenset(
    [
        "value",
        "values",
        "val",
        "data",
        "content",
        "contents",
        "rows",
        "secretstring",
        "plaintext",
    ]
)
_NOT_VALUES = ("min", "max", "type", "format", "unit")
"""Value-ish keys that hold a bound or a description of the value (``min_value``,
``value_type``)."""

NEEDLES = ("val", "data", "content", "rows", "plaintext", "secretstring")
"""What every text with such a pair holds (a value-ish key)."""

_SECURE = "securestring"
_TYPE_KEYS = frozenset(["Type", "type", "TYPE"])


def _plain(key: str) -> str:
    return key.lower().replace("_", "").replace("-", "")


@functools.lru_cache(maxsize=1024)
def name_key(key: str) -> bool:
    """Whether ``key`` names what its sibling value is (``Name``, ``ParameterKey``)."""
    return _plain(key) in _NAME_KEYS


@functools.lru_cache(maxsize=1024)
def value_key(key: str) -> bool:
    """Whether ``key`` holds the value of the thing its sibling names (``Value``,
    ``setting_value``, ``paramValue``, ``rows``)."""
    plain = _plain(key)
    if plain in _VALUE_KEYS:
        return True
    if not plain.endswith(("value", "values")) or plain.startswith(_NOT_VALUES):
        return False
    return not plain.endswith(_NOT_VALUES)


_HEADERS = frozenset(["authorization", "proxyauthorization"])
"""Names of an HTTP header whose value is a credential after its scheme word (a HAR's
``{"name": "Authorization", "value": "Bearer v"}``), lowercased without ``_`` or ``-``."""
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9_\-]{1,30}[ \t]{1,5}(?=[^\s])")


def _verdict(name: str) -> bool | None:
    """``is_secret_label`` of a name (a path's or a dotted name's last segment read as
    the label: ``/prod/db/password``); an Authorization header's name names one."""
    name = name.strip(" \t/")
    if not name or len(name) > 200:
        return False
    if _plain(name) in _HEADERS:
        return True
    return is_secret_label(name)


def _scheme_end(name: str, value: str) -> int:
    """Where the credential starts in ``value`` under ``name``: past the scheme word of
    an Authorization header's value (``Bearer``), else ``0``."""
    if _plain(name.strip(" \t/")) not in _HEADERS:
        return 0
    m = _SCHEME.match(value)
    return 0 if m is None else m.end()


def _judged(name: str, verdict: bool | None, value: Any) -> bool:
    """Whether ``value`` is the secret that ``name`` (its ``verdict``) names (under an
    Authorization header's name: what follows the scheme word, any real value, however
    short: ``Bearer abc``)."""
    if value is None or isinstance(value, bool):
        return False
    if isinstance(value, str) and _plain(name.strip(" \t/")) in _HEADERS:
        rest = value[_scheme_end(name, value) :].strip()
        return (
            bool(rest)
            and rest.lower() not in AUTH_SCHEMES
            and not status_word(rest)
            and plausible_value(rest, prose_allowed=False)
        )
    if isinstance(value, (int, float)):
        return code_label(name) and code_value(str(value))
    if not isinstance(value, str) or not value.strip():
        return False
    if not plausible_value(value, prose_allowed=False) or quoted_prose(value):
        return False
    if verdict is True or credential_shaped(value):
        return True
    return code_label(name) and code_value(value)


def _label_of(members: list[tuple[str, Any]]) -> tuple[str, bool | None] | None:
    """The name a pair's members give and its verdict (``True`` wins), or ``None``."""
    best: tuple[str, bool | None] | None = None
    for key, value in members:
        if key in _TYPE_KEYS and isinstance(value, str) and value.lower() == _SECURE:
            return value, True
        if not isinstance(value, str) or not name_key(key):
            continue
        verdict = _verdict(value)
        if verdict is True:
            best = (value, True)
        elif verdict is None and best is None:
            best = (value, None)
    return best


def secret_members(mapping: Mapping[Any, Any]) -> frozenset[Any]:
    """The keys of ``mapping`` whose values are a secret a sibling member names: the
    value-ish members when a name-ish one names a secret (a list: judged item by item
    by the caller with ``secret_item``)."""
    if len(mapping) < 2 or len(mapping) > 64:
        return frozenset()
    members = [(k, v) for k, v in mapping.items() if isinstance(k, str)]
    label = _label_of(members)
    if label is None:
        return frozenset()
    name, verdict = label
    return frozenset(
        k
        for k, v in members
        if value_key(k)
        and not name_key(k)
        and (isinstance(v, (list, tuple)) or _judged(name, verdict, v))
    )


def secret_item(mapping: Mapping[Any, Any], item: Any) -> bool:
    """Whether ``item`` of a list under a value-ish member of ``mapping`` is the secret."""
    label = _label_of([(k, v) for k, v in mapping.items() if isinstance(k, str)])
    return label is not None and _judged(label[0], label[1], item)


# -- text ---------------------------------------------------------------------------

# A name-ish word (the end of a key: ``ParameterKey``, ``secret_name`` too; the key read
# whole decides, ``name_key``), no boundary tried before it (a C scan with fewer steps).
_NAME_KEY = "(?:" + "|".join(sorted(_NAME_WORDS, key=len, reverse=True)) + ")"
# A name-ish key, its separator and its string (quoted, or a bare word), in the
# lowercased text (a C scan: no match is tried in Python at each key).
_CANDIDATE = re.compile(
    _NAME_KEY + r"(?P<kq>\\{0,3}[\"'])?[ \t]{0,5}[:=][ \t]{0,5}"
    r"(?:\\{0,3}(?P<q>[\"'])(?P<quoted>[^\"'\\\r\n]{1,200})\\{0,3}[\"']"
    r"|(?P<bare>[^\s\"'\\,;{}\[\]()=]{1,200}))"
)
# The same, its name alone captured: the names of a text, read at once (``findall``).
_NAMES = re.compile(
    _NAME_KEY + r"(?:\\{0,3}[\"'])?[ \t]{0,5}[:=][ \t]{0,5}(?:\\{0,3}[\"'])?"
    r"([^\"'\\\r\n,;{}\[\]()=]{1,200})"
)
# A piece of every secret's label (``is_secret_label`` is not ``False`` for a name
# without one of them), lowercase: a text whose names hold none is not read further.
_STEMS = re.compile(
    "|".join(
        [
            *("pass", "pw", "psw", "secret", "token", "cred", "sig", "auth", "key", "sk"),
            *("sid", "sess", "cookie", "code", "seed", "pin", "otp", "mfa", "jwt", "bearer"),
            *("cert", "priv", "psk", "appid", "app_id", "salt", "hmac", "nonce", "sec"),
            *("cvc", "cvv", "dsn", "hmac", "webhook", "community"),
            # frameworks' session cookies named with no secret word (``_labels``)
            *("cakephp", "symfony", "aspx", "aspnetcore", "logged", "remember"),
            *(re.escape(label.lower()) for label in FOREIGN_LABELS),
            *(re.escape(label.lower()) for label in GLUED_LABELS),
            *(re.escape(label.lower()) for label in PHRASE_LABELS),
        ]
    )
)
_WINDOW = 4_096
"""How far back an object's opening brace is looked for."""
_TRIES = 3
"""Opening braces tried, back from a name, for the object it is a member of."""
_BUDGET = 4_096
"""Tokens read one at a time in one text, at most, besides one for every eight of its
characters: objects nested deeper than one level, written with escaped quotes (JSON in
a string) or as keyword arguments (a shallow object is read a member at a time in C and
is not counted). Past it, such objects are not read: 64 KB of unclosed braces after
names of secrets costs milliseconds, not tens of them."""
_MEMBERS = 64
"""Members read in one object, at most."""

# One token of an object, as ``_nested`` reads them; also a parenthesis (keyword
# arguments) and a written line break inside a JSON string.
_TOKEN = re.compile(
    r"(?:[ \t\r\n]|\\[nrt])*(?:(?P<e>\\{1,3}[\"'])(?P<eq>[^\"'\\\r\n]{0,4096})(?P=e)"
    r"|(?P<q>\"(?:[^\"\\\r\n]|\\.){0,4096}\"|'(?:[^'\\\r\n]|\\.){0,4096}')"
    r"|(?P<p>[{}\[\](),:=])|(?P<w>[^\s{}\[\](),:=\"'\\]{1,4096})|(?P<o>[\s\S]))"
)
_LITERALS: dict[str, Any] = {"true": True, "false": False, "null": None}
_LITERALS.update({"True": True, "False": False, "None": None})


class _Frame:
    __slots__ = ("at", "items", "key", "last", "members", "object")

    def __init__(self, opener: str, at: int = -1) -> None:
        self.at = at  # where its bracket is (-1: a line's members)
        self.object = opener != "["
        self.members: list[tuple[str, Any, tuple[int, int] | list[Any]]] = []
        self.items: list[tuple[Any, int, int]] = []
        self.key: str | None = None
        self.last: tuple[Any, int, int] | None = None

    def take(self, scalar: tuple[Any, int, int]) -> None:
        """A scalar read in it: a list's item, or an object's key or value."""
        self.last = scalar
        if not self.object:
            self.settle()

    def settle(self) -> None:
        """The member read so far (its key, then its scalar) is one."""
        if self.object and self.key is not None and self.last is not None:
            if len(self.members) < _MEMBERS:
                self.members.append((self.key, self.last[0], (self.last[1], self.last[2])))
        elif not self.object and self.last is not None:
            self.items.append(self.last)
        self.key = self.last = None


def _scalar(token: re.Match[str]) -> tuple[Any, int, int] | None:
    if token.group("eq") is not None:
        return token.group("eq"), *token.span("eq")
    quoted = token.group("q")
    if quoted is not None:
        start, end = token.span("q")
        return quoted[1:-1], start + 1, end - 1
    word = token.group("w")
    if word is None:
        return None
    return _bare(word), *token.span("w")


def _bare(word: str) -> Any:
    """A bare word's value: a literal, a number, or the word."""
    if word in _LITERALS:
        return _LITERALS[word]
    try:
        return float(word) if "." in word or "e" in word.lower() else int(word)
    except ValueError:
        return word


def _judge_object(text: str, members: list[Any], found: list[re.Match[str]]) -> None:
    label = _label_of([(key, value) for key, value, _ in members])
    if label is None:
        return
    name, verdict = label
    for key, value, where in members:
        if not value_key(key) or name_key(key):
            continue
        spans = where if isinstance(where, list) else [(value, *where)]
        for item, start, end in spans:
            if start < end and _judged(name, verdict, item):
                begin = start
                if isinstance(item, str) and text[start:end] == item:
                    begin += _scheme_end(name, item)
                m = SPAN.match(text, begin, end)
                if m is not None and m.end() == end:
                    found.append(m)


class _Budget:
    """What one text's reading may still spend (``tokens``), and where each object read
    from its opening bracket stopped (``stops``: it closed there, or its tokens ran out
    there), so that no object is read twice."""

    __slots__ = ("closed", "stops", "tokens")

    def __init__(self, tokens: int) -> None:
        self.tokens = tokens
        self.stops: dict[int, int] = {}
        self.closed: dict[int, int] = {}
        """Where each object read whole closes (by its opening bracket): read inside
        another one later, it is passed over, judged already."""


def _read(
    text: str, at: int, end: int, found: list[re.Match[str]], *, implicit: bool, budget: _Budget
) -> int:
    """Read the object opening at ``at`` (or, ``implicit``, the members from ``at`` to
    ``end``, a line), judging it and each object inside it; return where it ends, or
    ``-1`` when it closed before ``end`` (``end``: the name that must be inside it);
    ``implicit``, where reading stopped. (leak21) An object read before is not read
    again: where it stopped says whether ``end`` is inside it (judged then)."""
    if implicit:
        return _tokens(text, at, end, found, implicit=True, budget=budget)[0]
    stop = budget.stops.get(at)
    if stop is None:
        stop, settled = _tokens(text, at, end, found, implicit=False, budget=budget)
        if settled:  # (closed, or its steps spent: a read again would stop there too)
            budget.stops[at] = stop
    return stop if stop > end else -1


def _tokens(
    text: str, at: int, end: int, found: list[re.Match[str]], *, implicit: bool, budget: _Budget
) -> tuple[int, bool]:
    """``_read``'s reading: where it stopped, and whether it would stop there whatever
    ``end`` (it closed, or read its most tokens; not cut at ``end``'s limit or by the
    budget)."""
    stack = [_Frame("{")] if implicit else []
    position = at
    limit = end if implicit else min(len(text), end + _WINDOW)
    steps = 0
    settled = False
    while position < limit and steps < _WINDOW // 2 and budget.tokens > 0:
        steps += 1
        budget.tokens -= 1
        token = _TOKEN.match(text, position)
        if token is None:
            settled = True  # the text's end
            break
        position = token.end()
        mark = token.group("p")
        if mark is None:
            if not stack:
                return position, True
            scalar = _scalar(token)
            if scalar is not None:
                stack[-1].take(scalar)
        elif mark in "{[(":
            closed = budget.closed.get(position - 1) if stack and mark != "[" else None
            if closed is not None:  # (leak21) read whole before: passed over, a value
                position = closed
                stack[-1].key = stack[-1].last = None
                continue
            if len(stack) >= 32:
                settled = True  # too deep: read no further, whatever the name
                break
            stack.append(_Frame(mark, position - 1))
        elif mark in "}])":
            if not stack or _close(text, stack, position, found, budget):
                return position, True
        elif mark == ",":
            if stack:
                stack[-1].settle()
        elif stack and stack[-1].object and stack[-1].last is not None:  # ``:`` or ``=``
            stack[-1].key = str(stack[-1].last[0])
            stack[-1].last = None
    for frame in reversed(stack):  # cut (or a line): what was read is judged
        frame.settle()
        if frame.object:
            _judge_object(text, frame.members, found)
    return position, settled or steps >= _WINDOW // 2


def _close(
    text: str, stack: list[_Frame], position: int, found: list[re.Match[str]], budget: _Budget
) -> bool:
    """Close the innermost frame at ``position`` (judged, and where it closes kept when an
    object: ``_Budget.closed``), a value of its parent's; whether none is left open."""
    frame = stack.pop()
    frame.settle()
    if frame.object:
        _judge_object(text, frame.members, found)
        if frame.at >= 0:
            budget.closed[frame.at] = position
    if not stack:
        return True
    parent = stack[-1]
    if not frame.object and parent.object and parent.key is not None:
        parent.members.append((parent.key, None, list(frame.items)))
    parent.key = parent.last = None
    return False


_YAML_MEMBER = re.compile(
    r"(?P<indent>[ \t]{0,80})(?P<dash>-[ \t]{1,5})?[\"']?(?P<key>[A-Za-z_][\w.\-]{0,79})[\"']?"
    r"[ \t]{0,5}(?:(?:=[ \t]{0,5}|:[ \t]{1,5})(?P<value>[^\r\n]{1,4096})|[:=][ \t]*(?=\r?\n|\Z))"
)
_YAML_LINES = 30
"""Lines of one YAML mapping read, at most, each way from a name."""


def _line_at(text: str, start: int) -> tuple[int, int]:
    """The span of the line ``start`` is on (without its line break)."""
    stop = text.find("\n", start)
    return text.rfind("\n", 0, start) + 1, len(text) if stop == -1 else stop


def _yaml_item(text: str, start: int, found: list[re.Match[str]], reach: int) -> int:
    """Judge the YAML mapping (a list item's or a block's members at one indent) whose
    member's key starts at ``start`` (not back past ``reach``, read already); return
    where the last line read ends."""
    line = _line_at(text, start)
    first = _YAML_MEMBER.match(text, *line)
    if first is None:
        return line[1]
    column = first.start("key") - line[0]
    picked = [first]
    at = line[0]
    for _ in range(_YAML_LINES):  # back to the item's dash, if not on this line
        if picked[-1].group("dash") or at <= reach:
            break
        back = _line_at(text, at - 1)
        m = _YAML_MEMBER.match(text, *back)
        if m is None or m.start("key") - back[0] != column:
            break
        picked.append(m)
        at = back[0]
    end = line[1]
    for _ in range(_YAML_LINES):
        if end >= len(text):
            break
        nxt = _line_at(text, end + 1)
        m = _YAML_MEMBER.match(text, *nxt)
        if m is None or m.group("dash") or m.start("key") - nxt[0] != column:
            break
        picked.append(m)
        end = nxt[1]
    members: list[Any] = []
    for m in picked:
        value = m.group("value")
        if value is None:
            continue
        value = value.rstrip(" \t\r")
        begin = m.start("value")
        if " #" in value:
            value = value.split(" #", 1)[0].rstrip(" \t")
        if len(value) >= 2 and value[0] in "\"'" and value[-1] == value[0]:
            begin, value = begin + 1, value[1:-1]
        if value:
            members.append((m.group("key"), value, (begin, begin + len(value))))
    _judge_object(text, members, found)
    return end


_WORD = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"


def _yaml_line(text: str, m: re.Match[str]) -> bool:
    """Whether the unquoted key ``m`` starts a YAML member line (only blanks or a list
    item's dash before it, nothing but a comment after its value)."""
    line_start = text.rfind("\n", 0, m.start()) + 1
    if text[line_start : m.start()].rstrip(_WORD).strip(" \t") not in ("", "-"):
        return False
    line_end = text.find("\n", m.end())
    rest = text[m.end() : len(text) if line_end == -1 else line_end].strip(" \t\r")
    return not rest or rest[:1] == "#"


def find(text: str) -> list[re.Match[str]]:
    """``SPAN`` matches over the values a sibling member names as a secret, in order."""
    lowered = text.lower()
    if len(lowered) != len(text):
        return []  # (only U+0130 lowercases to two characters: positions would shift)
    secure = _SECURE in lowered
    if not secure and not _STEMS.search("\n".join(set(_NAMES.findall(lowered)))):
        return []  # (C scans: no name in the text may name a secret)
    found: list[re.Match[str]] = []
    reach = 0
    budget = _Budget(_BUDGET + len(text))
    for m in _CANDIDATE.finditer(lowered):
        if m.start() < reach:
            continue
        group = "quoted" if m.group("quoted") is not None else "bare"
        name = text[m.start(group) : m.end(group)]
        if _verdict(name) is False and not secure:
            continue
        if m.group("kq") is None and _yaml_line(text, m):
            reach = max(reach, _yaml_item(text, m.start(), found, reach))
            continue
        reach = max(reach, _enclosing(text, m.start(), found, budget, reach))
    found.sort(key=re.Match.start)
    unique: list[re.Match[str]] = []
    for m in found:
        if not unique or m.start() >= unique[-1].end():
            unique.append(m)
    return unique


# A member of a flat object (no bracket inside it), JSON or a repr: its key, and its
# string or bare value.
_DQ = r"\"(?:[^\"\\\r\n]|\\.){0,4096}\""
_SQ = r"'(?:[^'\\\r\n]|\\.){0,4096}'"
_INNER = r"(?:[^{}\[\]\"'\\]|" + _DQ + "|" + _SQ + ")"
# A member of a shallow object (JSON or a repr: its values strings, bare words, or
# objects and lists with no bracket inside them), its key and its value.
_SHALLOW_MEMBER = re.compile(
    r"[ \t\r\n,]{0,64}(?:\"(?P<dk>[^\"\\\r\n]{1,80})\"|'(?P<sk>[^'\\\r\n]{1,80})')"
    r"[ \t\r\n]{0,8}:[ \t\r\n]{0,8}"
    r"(?:\"(?P<dq>(?:[^\"\\\r\n]|\\.){0,4096})\"|'(?P<sq>(?:[^'\\\r\n]|\\.){0,4096})'"
    r"|\[(?P<list>" + _INNER + r"{0,4096})\]|(?P<object>\{" + _INNER + r"{0,4096}\})"
    r"|(?P<bare>[^\s,{}\[\]\"'\\]{1,4096}))"
)
_CLOSE = re.compile(r"[ \t\r\n,]{0,64}\}")
_ITEM = re.compile(
    r"[ \t\r\n,]{0,64}(?:\"(?P<dq>(?:[^\"\\\r\n]|\\.){0,4096})\""
    r"|'(?P<sq>(?:[^'\\\r\n]|\\.){0,4096})'|(?P<bare>[^\s,{}\[\]\"'\\]{1,4096}))"
)


def _items(text: str, start: int, end: int) -> list[tuple[Any, int, int]] | None:
    """The scalar items of a list between ``start`` and ``end`` (``None``: not only
    scalars)."""
    items: list[tuple[Any, int, int]] = []
    at = start
    while at < end:
        m = _ITEM.match(text, at, end)
        if m is None:
            return None if text[at:end].strip(_BETWEEN) else items
        group = m.lastgroup or "bare"
        value: Any = m.group(group)
        items.append((_bare(value) if group == "bare" else value, *m.span(group)))
        at = m.end()
    return items


_BETWEEN = " \t\r\n,"


def _shallow(text: str, opener: int, found: list[re.Match[str]]) -> int:
    """Judge the object opening at ``opener`` when it is shallow (a C match a member;
    its nested values hold no bracket); return where it ends, or ``-1`` when it is not
    such an object (``_read`` reads it)."""
    members: list[Any] = []
    at = opener + 1
    for _ in range(_MEMBERS):
        close = _CLOSE.match(text, at)
        if close is not None:
            _judge_object(text, members, found)
            return close.end()
        m = _SHALLOW_MEMBER.match(text, at)
        if m is None:
            return -1
        at = m.end()
        group = m.lastgroup or "bare"
        key = m.group("dk") or m.group("sk")
        if group == "object":
            continue
        if group == "list":
            items = _items(text, *m.span("list"))
            if items is not None:
                members.append((key, None, items))
            continue
        value: Any = m.group(group)
        members.append((key, _bare(value) if group == "bare" else value, m.span(group)))
    return -1


def _flat(text: str, at: int, found: list[re.Match[str]]) -> int:
    """Judge the shallow object the member at ``at`` belongs to, read a member at a
    time in C (its opening brace the nearest of ``_TRIES`` back whose object holds
    ``at``); return where it ends, or ``-1`` (``_read`` reads it)."""
    opener = at
    low = max(0, at - _WINDOW)
    for _ in range(_TRIES):
        opener = text.rfind("{", low, opener)
        if opener == -1:
            return -1
        done = _shallow(text, opener, found)
        if done == -1:
            return -1
        if done > at:
            return done
    return -1


def _opener_of(text: str, at: int) -> int:
    """(leak21) The brace opening the object the member at ``at`` is in, each object
    closed before it passed over whole (``{"a": {}, "b": {}, "c": {}, "name": …}``: the
    first brace); ``-1``. The text's braces are paired once, in one pass
    (``_braces``)."""
    positions, enclosing = _braces(text)
    index = bisect.bisect_left(positions, at) - 1
    return enclosing[index] if index >= 0 else -1


_BRACE = re.compile(r"[{}]")
_BRACES_SEEN: list[Any] = [None, [], []]


def _braces(text: str) -> tuple[list[int], list[int]]:
    """Each brace of ``text`` and the brace opening the object open after it (``-1``:
    none); a closing brace that closes nothing is passed over. Kept for the last text."""
    seen = _BRACES_SEEN
    if seen[0] is not text:
        positions: list[int] = []
        enclosing: list[int] = []
        stack: list[int] = []
        for brace in _BRACE.finditer(text):
            at = brace.start()
            if text[at] == "{":
                stack.append(at)
            elif stack:
                stack.pop()
            positions.append(at)
            enclosing.append(stack[-1] if stack else -1)
        seen[:] = [text, positions, enclosing]
    return seen[1], seen[2]


def _enclosing(text: str, at: int, found: list[re.Match[str]], budget: _Budget, reach: int) -> int:
    """Read the object the member at ``at`` belongs to (a line's members from ``reach``
    at the earliest: read already before it); return where reading ended."""
    done = _flat(text, at, found)
    if done != -1:
        return done
    low = max(0, at - _WINDOW)
    opener = _opener_of(text, at)
    if opener >= low:
        done = _read(text, opener, at, found, implicit=False, budget=budget)
        if done != -1:
            return done
    for mark in "{(":  # (a brace first: a parenthesis may be a string's)
        opener = at
        for _ in range(_TRIES):
            opener = text.rfind(mark, low, opener)
            if opener == -1:
                break
            done = _read(text, opener, at, found, implicit=False, budget=budget)
            if done != -1:
                return done
    line_start = max(text.rfind("\n", 0, at) + 1, reach)
    line_end = text.find("\n", at)
    line_end = len(text) if line_end == -1 else line_end
    reached = _read(text, line_start, line_end, found, implicit=True, budget=budget)
    # (leak21) a line read short of its end (its tokens too many, or a closing bracket
    # of no object on it): the names after are read on their own, from there (before,
    # the rest of a long line went unread)
    return max(reached, at + 1)


# -- XML siblings (fix21a) ------------------------------------------------------------

# An XML value in an element of its own (a CDATA section or not), its name in the element
# before it: Hadoop's and Hive's ``<property><name>fs.s3a.secret.key</name><value>v</value>``,
# a KeePass export's ``<String><Key>Password</Key><Value>v</Value></String>``, a property
# list's ``<key>password</key><string>v</string>``; or in the element's ``key``
# attribute: Java's XML properties, ``<entry key="password">v</entry>``.
_XML_TEXT = (
    r"[ \t]{0,40}(?:<!\[CDATA\[)?(?P<secret>[^<>\s](?:[^<>\r\n]{0,1022}[^<>\s])?)"
    r"[ \t]{0,40}(?:\]\]>[ \t]{0,40})?"
)
XML_SIBLINGS = re.compile(
    r"<(?P<nt>name|key)(?:[ \t][^<>\r\n]{0,256})?>[ \t]{0,40}"
    r"(?P<key>[^<>\s](?:[^<>\r\n]{0,198}[^<>\s])?)[ \t]{0,40}</(?P=nt)[ \t]{0,5}>"
    r"\s{0,400}<(?P<vt>value|string|data)(?:[ \t][^<>\r\n/]{0,256})?>"
    + _XML_TEXT
    + r"</(?P=vt)[ \t]{0,5}>",
    re.IGNORECASE,
)
"""A name's element, then its value's (``XML_NEEDLES``)."""
XML_ENTRY = re.compile(
    r"<entry[ \t]{1,40}key[ \t]{0,5}=[ \t]{0,5}(?P<q>[\"'])"
    r"(?P<key>[^\"'<>\r\n]{1,200})(?P=q)(?:[ \t][^<>\r\n/]{0,256})?>"
    + _XML_TEXT
    + r"</entry[ \t]{0,5}>",
    re.IGNORECASE,
)
"""A Java XML property: ``<entry key="password">v</entry>``."""
XML_NEEDLES = ("</name>", "</key>", "</name ", "</key ")
ENTRY_NEEDLES = ("<entry",)


def xml_sibling(m: re.Match[str]) -> bool:
    """Whether the value of an XML name/value pair (``XML_SIBLINGS``, ``XML_ENTRY``) is
    the secret its name names, judged as a JSON pair's (``{"name": …, "value": …}``)."""
    name = m.group("key")
    verdict = _verdict(name)
    return verdict is not False and _judged(name, verdict, m.group("secret"))
