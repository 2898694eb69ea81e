"""Values named by their position: a label in one item, its value in another.

The labelled-values layer reads a label and its value joined by a separator (``k=v``,
``"k": "v"``). Code, command lines and databases write the pair as two items of one
sequence instead, and the secret is the item the label's position points at:

- the next item of a list, a tuple or a call's arguments: ``['--password', 'v']``,
  ``setdefault('SECRET_KEY', 'v')``, ``map.put("password", "v")``;
- the last item of a credential pair, whose first item is the user: ``auth=('bob',
  'v')``, ``HTTPBasicAuth('bob', 'v')``, ``smtp.login('bob', 'v')``;
- the value at the column's index: SQL's ``INSERT INTO t (name, password) VALUES ('bob',
  'v')`` (its bound ``[parameters: ('bob', 'v')]`` too), PostgreSQL's ``Key (user_id,
  api_key)=(42, v)``.

The detectors built on these patterns are in ``_detectors``; the finders here return
matches of ``SPAN`` whose ``secret`` group is exactly the value.
"""

from __future__ import annotations

import re

from toolhygiene._labels import credential_shaped, is_secret_label, plain_run, plausible_value

__all__ = [
    "CREDENTIAL_PAIR",
    "ITEM_PAIR",
    "SPAN",
    "credential_pair",
    "item_pair",
    "key_values",
    "sql_values",
]

SPAN = re.compile(r"(?P<secret>[\s\S]{1,4096})")
"""Matched over exactly a value's span (``SPAN.match(text, start, end)``): what the
finders return."""

_QUOTED = r"(?P<{0}>\\{{0,3}}[\"'])(?P<{1}>(?:(?!(?P={0}))[^\r\n]){{1,1024}})(?P={0})"

ITEM_PAIR = re.compile(
    r"(?P<q>\\{0,3}[\"'])(?P<key>-{0,2}[A-Za-z][\w.\-]{0,79})(?P=q)"
    r"[ \t]{0,5},(?:\s|\\[nrt]){0,12}" + _QUOTED.format("v", "secret")
)
"""A quoted label, a comma, a quoted value: an argv list's ``'--password', 'v'``, a
call's ``('SECRET_KEY', 'v')``."""

_FED = ("-stdin", "_stdin", "-file", "_file", "-env", "_env", "-cmd", "_cmd", "-command")
"""A flag ending so names where its value is read from, not the value."""


_FLAG = re.compile(r"-[A-Za-z]{1,3}|--[a-z][a-z\-]{1,30}")
"""A short flag or a cluster of them (``-b``, ``-nbB``), a long flag (``--stdin``)."""


def _around(text: str, before: int, after: int) -> tuple[str, str]:
    """The first character that is not a blank before ``before`` and at or after
    ``after`` ("" at either end)."""
    head = text[max(0, before - 8) : before].rstrip(" \t")
    tail = text[after : after + 8].lstrip(" \t")
    return head[-1:], tail[:1]


def item_pair(m: re.Match[str]) -> bool:
    """Whether the value after a label item is its secret. After a flag (``--password``,
    ``--db-token``), any real value; after a bare label, a value that reads as one: a
    word or an identifier only as the second of exactly two arguments (``set('password',
    'changeme')``), so a list of column names (``('username', 'password', 'email')``)
    keeps its names."""
    key, value = m.group("key"), m.group("secret")
    bare = key.lstrip("-")
    if len(bare) < 2 or bare.lower().endswith(_FED):
        return False
    if _around(m.string, m.start(), m.end())[0] in (":", "="):
        # the first string is a member's value, not an item: a JSON Web Key's ``"x":
        # "…_28pw", "y": …`` (a random value ending in a label's word) is no pair
        return False
    verdict = is_secret_label(bare)
    if verdict is False or not plausible_value(value, prose_allowed=False):
        return False
    if value[:1] == "-" and (key[:1] == "-" or _FLAG.fullmatch(value)):
        # the next flag: ``['--password', '--verbose']`` prompts; a command named for a
        # password takes flags (``['htpasswd', '-b', …]``, ``['chpasswd', '-e']``)
        return False
    if verdict is None:
        return credential_shaped(value)
    if key[:1] == "-" or not plain_run(value):
        return True
    head, tail = _around(m.string, m.start(), m.end())
    return head == "(" and tail == ")"


CREDENTIAL_PAIR = re.compile(
    r"(?<![\w.\-])(?:(?P<key>[\w.\-]{0,40}(?:auth|credentials?|creds?))[ \t]{0,5}[=:][ \t]{0,5}"
    r"[(\[]|(?P<callee>(?:[A-Za-z_]\w{0,40}\.){0,4}\w{0,40}"
    r"(?:auth|login|credentials?|authenticate|authentication|signin|sign_in|authtoken)"
    r")[ \t]{0,3}\()[ \t]{0,5}"
    + _QUOTED.format("u", "user")
    + r"[ \t]{0,5},[ \t]{0,5}"
    + _QUOTED.format("v", "secret")
    + r"[ \t]{0,5}(?:[)\],]|\.toCharArray\(\))",
    re.IGNORECASE,
)
"""A user and a password as a pair: ``auth=('bob', 'v')``, ``HTTPBasicAuth('bob',
'v')``, ``smtp.login('bob', 'v')``, ``new NetworkCredential("bob", "v")``."""


def credential_pair(m: re.Match[str]) -> bool:
    """Whether a credential pair's second item is a password (not a placeholder)."""
    return plausible_value(m.group("user"), prose_allowed=False) and plausible_value(
        m.group("secret"), prose_allowed=False
    )


def _secret_column(name: str) -> bool:
    bare = name.strip().strip("\"'`[]").rsplit(".", 1)[-1].strip("\"'`[]")
    return is_secret_label(bare) is True


_INSERT = re.compile(
    r"\binsert[ \t]{1,5}(?:into[ \t]{1,5})?[^\s(]{1,256}[ \t]{0,5}"
    r"\((?P<cols>[^()\r\n]{1,2048})\)\s{0,20}values\s{0,20}(?=\()",
    re.IGNORECASE,
)
# An item may be quoted with its quotes escaped: the statement inside a repr or JSON
# string (``values (7, \\'v\\')``).
_SQL_ITEM = re.compile(
    r"\s{0,20}(?:(?P<e>\\{0,3})'(?P<s>(?:[^'\\\r\n]|''){0,1024})(?P=e)'"
    r"|(?P<bare>[^,()'\s\\][^,()'\r\n\\]{0,1023}?))\s{0,20}(?P<end>[,)])"
)
_REPR_ITEM = re.compile(
    r"\s{0,20}(?:(?P<e>\\{0,3})(?P<q>[\"'])(?P<s>(?:(?!(?P=e)(?P=q))[^\r\n]){0,1024})(?P=e)(?P=q)"
    r"|(?P<bare>[^,()\[\]'\"\s\\]{1,1024}))\s{0,20}(?P<end>[,)\]])"
)
_PARAMETERS = re.compile(r"\]?\s{0,20}\[parameters:\s{0,5}(?P<many>\[)?\s{0,5}(?=\()")
_BOUND = re.compile(r"\?|%s|%\([\w]{1,64}\)s|:[A-Za-z_]\w{0,63}|\$[0-9]{1,3}|@[A-Za-z_]\w{0,63}")
_ROWS = 100
_ITEMS = 256


def _items(text: str, at: int, item: re.Pattern[str]) -> tuple[list[tuple[int, int]], int]:
    """The spans of a parenthesised row's items starting at its ``(`` (``at``), and where
    the row ends; no spans when it is no row of such items."""
    spans: list[tuple[int, int]] = []
    position = at + 1
    for _ in range(_ITEMS):
        m = item.match(text, position)
        if m is None:
            return [], position
        spans.append(m.span("s") if m.group("s") is not None else m.span("bare"))
        position = m.end()
        if m.group("end") != ",":
            return spans, position
    return [], position


def _rows(text: str, at: int, item: re.Pattern[str]) -> tuple[list[list[tuple[int, int]]], int]:
    """The rows of items from ``at`` (``(a, b), (c, d)``) and where they end."""
    rows: list[list[tuple[int, int]]] = []
    position = at
    for _ in range(_ROWS):
        if text[position : position + 1] != "(":
            break
        spans, position = _items(text, position, item)
        if not spans:
            break
        rows.append(spans)
        gap = len(text[position : position + 24]) - len(text[position : position + 24].lstrip())
        if text[position + gap : position + gap + 1] != ",":
            break
        rest = text[position + gap + 1 : position + gap + 25]
        position = position + gap + 1 + len(rest) - len(rest.lstrip())
    return rows, position


def _real(value: str) -> bool:
    return value.upper() != "NULL" and plausible_value(value, prose_allowed=False)


def sql_values(text: str) -> list[re.Match[str]]:
    """The values of secret columns in SQL inserts: ``INSERT INTO users (name, password)
    VALUES ('bob', 'v')``, or bound (``VALUES (?, ?)``) with SQLAlchemy's ``[parameters:
    ('bob', 'v')]`` (or a list of such rows) after the statement."""
    found: list[re.Match[str]] = []
    for insert in _INSERT.finditer(text):
        columns = insert.group("cols").split(",")
        secret = [i for i, name in enumerate(columns) if _secret_column(name)]
        if not secret:
            continue
        rows, end = _rows(text, insert.end(), _SQL_ITEM)
        bound: list[int] = []
        for row in rows:
            if len(row) != len(columns):
                continue
            for i in secret:
                value = text[row[i][0] : row[i][1]]
                if _BOUND.fullmatch(value.strip()):
                    bound.append(i)
                elif _real(value):
                    found.append(_span(text, *row[i]))
        if bound:
            found.extend(_parameters(text, end, len(columns), sorted(set(bound))))
    return found


def _parameters(text: str, end: int, count: int, secret: list[int]) -> list[re.Match[str]]:
    after = text.find("parameters:", end, end + 400) - 1
    head = _PARAMETERS.match(text, after) if after >= 0 else None
    if head is None:
        return []
    rows, _ = _rows(text, head.end(), _REPR_ITEM)
    found: list[re.Match[str]] = []
    for row in rows:
        if len(row) == count:
            found.extend(_span(text, *row[i]) for i in secret if _real(text[row[i][0] : row[i][1]]))
    return found


def _span(text: str, start: int, end: int) -> re.Match[str]:
    m = SPAN.match(text, start, end)
    assert m is not None  # a value is never empty
    return m


_KEY_DETAIL = re.compile(
    r"\bkey[ \t]{1,3}\((?P<cols>[^()\r\n]{1,512})\)=\((?P<vals>[^\r\n]{1,2048}?)\)"
    r"(?=[ \t]{1,3}(?:already|is|conflicts)\b|[.,;\"']|\s*$)",
    re.IGNORECASE | re.MULTILINE,
)


def key_values(text: str) -> list[re.Match[str]]:
    """The values of secret columns in PostgreSQL's ``Key (col, …)=(value, …)`` (a unique
    or foreign key violation's detail): the value at a secret column's index, or every
    value when the values hold more commas than the columns do (a value with a comma)."""
    found = []
    for m in _KEY_DETAIL.finditer(text):
        columns = m.group("cols").split(",")
        secret = [i for i, name in enumerate(columns) if _secret_column(name)]
        if not secret:
            continue
        start, end = m.span("vals")
        values = m.group("vals").split(", ")
        if len(values) != len(columns):
            found.append(_span(text, start, end))
            continue
        at = start
        for i, value in enumerate(values):
            if i in secret and value and _real(value):
                found.append(_span(text, at, at + len(value)))
            at += len(value) + 2
    return found
