"""(fix21a) Entity Framework's parameter logs (``EnableSensitiveDataLogging``): the values
are listed first, by parameter name, and the SQL after them says which column each is
for::

    Executed DbCommand (3ms) [Parameters=[@p0='v' (Size = 4000), @p1='bob'], …]
    INSERT INTO [Users] ([Password], [UserName])
    VALUES (@p0, @p1);

A parameter's value goes when the column it is written to or compared with is named as
a secret (``is_secret_label``: ``Password``, ``ApiKey``; not ``UserName``): by position
in an ``INSERT``'s columns and ``VALUES`` rows, or beside ``=`` (``SET [Password] = @p0``,
``WHERE [u].[PasswordHash] = @__hash_0``). A parameter named as a secret itself
(``@__password_0``) is read by the labelled pattern. The other values stay."""

from __future__ import annotations

import re
import string

from toolhygiene._labels import is_secret_label
from toolhygiene._positional import SPAN

__all__ = ["NEEDLES", "bind_parameter", "find"]

NEEDLES = ("parameters=[",)
_LIST = re.compile(r"Parameters=\[", re.IGNORECASE)
_PARAM = re.compile(
    r"[ \t]{0,3}@(?P<name>\w{1,80})[ \t]{0,3}=[ \t]{0,3}'(?P<value>(?:[^'\r\n]|''){0,4096})'"
    r"(?:[ \t]{0,3}\([^()\r\n]{0,80}\)){0,4}[ \t]{0,3}(?P<more>,)?"
)
_WINDOW = 8_192
_INSERT = re.compile(
    r"INSERT[ \t]{1,5}INTO[ \t]{1,5}[^\s(]{1,200}[ \t]{0,5}\((?P<columns>[^()]{1,4000})\)"
    r"(?:\s{1,20}OUTPUT[^\r\n]{0,400})?\s{0,20}VALUES\s{0,20}",
    re.IGNORECASE,
)
_ROW = re.compile(r"\((?P<values>[^()]{1,4000})\)[ \t]{0,5},?\s{0,20}")
_COMPARED = re.compile(r"=[ \t]{0,5}@(?P<name>\w{1,80})")
_COLUMN_CHARS = frozenset(string.ascii_letters + string.digits + '_[]"`.')
_IDENT = re.compile(r"[\[\]\"`\s]")


def _column(written: str) -> str:
    """A column's name without its brackets, quotes and table (``[u].[Password]``)."""
    return _IDENT.sub("", written).rpartition(".")[2]


def _before(window: str, at: int) -> str:
    """The column written before ``=`` at ``at`` (at most 200 characters back)."""
    end = len(window[:at].rstrip(" \t"))
    start = end
    while start > 0 and end - start < 200 and window[start - 1] in _COLUMN_CHARS:
        start -= 1
    return window[start:end]


def find(text: str) -> list[re.Match[str]]:
    """``SPAN`` matches over the logged values of parameters that a secret's column
    takes."""
    found: list[re.Match[str]] = []
    for listed in _LIST.finditer(text):
        spans: dict[str, tuple[int, int]] = {}
        at = listed.end()
        while True:
            param = _PARAM.match(text, at)
            if param is None:
                break
            spans[param.group("name").lower()] = param.span("value")
            at = param.end()
            if param.group("more") is None:
                break
        if not spans:
            continue
        following = text.find("Parameters=[", at, at + _WINDOW)  # (the next command's)
        window = text[at : at + _WINDOW if following == -1 else following]
        secret: set[str] = set()
        for insert in _INSERT.finditer(window):
            columns = [_column(c) for c in insert.group("columns").split(",")]
            position = insert.end()
            for _ in range(1000):
                row = _ROW.match(window, position)
                if row is None:
                    break
                for column, written in zip(columns, row.group("values").split(","), strict=False):
                    value = written.strip()
                    if value.startswith("@") and is_secret_label(column) is True:
                        secret.add(value[1:].lower())
                position = row.end()
        for compared in _COMPARED.finditer(window):
            if is_secret_label(_column(_before(window, compared.start()))) is True:
                secret.add(compared.group("name").lower())
        for name in sorted(secret):
            if name in spans and spans[name][0] < spans[name][1]:
                m = SPAN.match(text, *spans[name])
                if m is not None and m.end() == spans[name][1]:
                    found.append(m)
    found.sort(key=re.Match.start)
    return found


_BIND = re.compile(r"@(?:p[0-9]{1,5}|__\w{1,80}_[0-9]{1,4})")


def bind_parameter(value: str) -> bool:
    """Whether a value after a secret's column and ``=`` is Entity Framework's parameter
    (``SET [Password] = @p0``, ``[u].[ApiKey] = @__key_0``): a name, not the value."""
    return _BIND.fullmatch(value) is not None
