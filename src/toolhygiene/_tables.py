"""Tables with a secret column: part of the labelled-values layer of redaction.

A table's label is its header: in CSV or TSV (``user,password`` then ``bob,v1``), a
Markdown or ``psql`` table (``| user | password |``, its ``|---|`` line skipped) or fixed-width
columns (``USER      PASSWORD``: words two spaces or more apart, every row's cells starting
where the header's do). Every value under a header cell that names a secret
(``_labels.is_secret_label``: ``password``, ``api_key``, ``token``; a ``key`` or ``pin``
column only with values shaped like one) goes; the other columns stay. The rows are the
lines after the header with as many cells as it has (a line of another shape ends the
table). Line breaks may be written out (``\\n`` in a repr or a log), and a header may
follow a message's colon (``export failed: user,password``) or open a quoted string.

A header is a line of column names, not a sentence: at least two cells, each of at most
three words and 40 characters. A value is one word (a cell of several words is prose or a
note, unless its first word reads as a token, which goes alone).
"""

from __future__ import annotations

import functools
import itertools
import re

from ahocorasick_rs import AhoCorasick

from toolhygiene._labels import (
    code_label,
    code_value,
    credential_shaped,
    is_secret_label,
    plain_run,
    plausible_value,
)
from toolhygiene._text import valid

__all__ = ["secret_cells", "table_ranges"]

Span = tuple[int, int, str, int]

# A word a secret column's name holds: the candidate headers (found by one Aho-Corasick
# pass over the lowercased text, ~15 us for 16 KB; a regex alternation tries each word
# at every character).
_NAMES = (
    "pass",
    "pwd",
    "pw",
    "secret",
    "token",
    "key",
    "pin",
    "auth",
    "cred",
    "otp",
    "cvv",
    "cvc",
    "sig",
    "session",
    "cookie",
    "dsn",
)
_DELIMITERS = (",", ";", "\t", "\\t")
# A bar with a cell after it (not YAML's ``key: |``) and two spaces after a word (not an
# indent): each found from its literal, in C.
_BAR = re.compile(r"\|[ \t]*[^\s|]")
_WIDE = re.compile(r"  (?<=\S  )")
# A delimiter a table's header may have: ``,``, ``;``, a tab (also written out), a bar
# with a cell after it (not YAML's ``key: |``), or two spaces between words.
_DELIMITER = re.compile(r"[,;\t]|\\t|\|[ \t]*[^\s|]|\S {2,}\S")
# Where a header starts on its line when something precedes it: after a message's colon
# (``export failed: user,password``) or where a quoted string opens (``'detail':
# 'user,password\\n…``, ``("user\\tpassword\\n…``).
_OPENS = re.compile(r"[:=][ \t]{1,3}(\\{0,3}['\"])?|[:=(\[][ \t]{0,3}(\\{0,3}['\"])")
_RULE = re.compile(r"[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:[|+][ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*")
_WIDE_GAP = re.compile(r"[ \t]{2,}|\t")
_WORD = re.compile(r"\S+")
# What a header line is made of: its names, quotes and emphasis, and its delimiters.
_HEADER_CHARS = re.compile(r"[\w .\-/#()\"'`*,;\t|\\]*")
_NAME = re.compile(r"[\w][\w .\-/#()]{0,39}")
_ROWS = 10_000
_CELLS = 64


def secret_cells(text: str, spans: list[Span], rank: int) -> None:
    """Add to ``spans`` the values of ``text``'s tables that sit under a secret
    column."""
    _tables(text, spans, rank, None)


def table_ranges(text: str) -> list[tuple[int, int]]:
    """Where ``text``'s tables with a secret column are, header to last row: their line
    breaks are rows', never a token wrapped over lines."""
    ranges: list[tuple[int, int]] = []
    _tables(text, [], 0, ranges)
    return ranges


def _tables(text: str, spans: list[Span], rank: int, ranges: list[tuple[int, int]] | None) -> None:
    """Read every table of ``text``: a header is looked for at each secret's name (found
    in C in the lowercased text) whose line has a delimiter (``_DELIMITER``), and not at
    all in a text without one."""
    if "\n" not in text and "\\n" not in text:
        return
    if not any(delimiter in text for delimiter in _DELIMITERS) and (  # a C scan each
        _BAR.search(text) is None and _WIDE.search(text) is None
    ):
        return
    lowered = text.lower()
    if len(lowered) != len(text):  # only U+0130 lowercases to two characters
        lowered = text.replace("\u0130", "i").lower()
    reach = 0
    header = _HEADER_CHARS.match
    size = len(text)
    for _, at, _ in _automaton().find_matches_as_indexes(valid(lowered)):
        if at < reach:
            continue
        # What follows the name to its line's end must be a header's (one C match): a
        # name followed by ``:`` or ``=`` (``password: v``) is a label, not a column.
        stop = header(text, at).end()  # type: ignore[union-attr]
        if stop < size and text[stop] not in "\r\n" and text.find("\\n", at, stop) == -1:
            reach = stop + 1
            continue
        reach = _table(text, at, spans, rank, ranges)


@functools.cache
def _automaton() -> AhoCorasick:
    return AhoCorasick(list(_NAMES))


def _line_at(text: str, at: int) -> tuple[int, int, int]:
    """The line holding ``at``: its start, its end, and where the next line starts (-1
    for the last line). Found with ``str.find`` within the line (C, no regex tried at
    each character)."""
    real = text.rfind("\n", 0, at) + 1
    written = text.rfind("\\n", real, at)  # within the line: no rescan of the text
    start = max(real, written + 2 if written != -1 else 0)
    return (start, *_line_end(text, at))


def _line_end(text: str, at: int) -> tuple[int, int]:
    """Where the line holding ``at`` ends and where the next one starts (-1: none)."""
    real = text.find("\n", at)
    written = text.find("\\n", at, len(text) if real == -1 else real)
    if written != -1:
        before = written - 2 if text.startswith("\\r", written - 2) and written >= 2 else written
        return before, written + 2
    if real == -1:
        return len(text), -1
    return (real - 1 if real and text[real - 1] == "\r" else real), real + 1


def _table(
    text: str, at: int, spans: list[Span], rank: int, ranges: list[tuple[int, int]] | None
) -> int:
    """Read the table whose header holds the name at ``at``, if it is one; returns
    where reading may go on."""
    start, end, following = _line_at(text, at)
    if following == -1:
        return len(text)
    if _HEADER_CHARS.match(text, at, end).end() != end:  # type: ignore[union-attr]
        return following  # a character no header has after the name (``"token": …``)
    if _DELIMITER.search(text, start, end) is None:
        return following  # no header: a line of one cell
    quote = ""
    for opening in _OPENS.finditer(text, start, at):
        start = opening.end()
        quote = (opening.group(1) or opening.group(2) or "").lstrip("\\")
    header = text[start:end]
    kind, names = _header(header)
    if not names:
        return following
    columns = [i for i, (_, _, name) in enumerate(names) if _secret_name(name)]
    if not columns:
        return following
    if kind == "|" and _key_rows(text, following, names, columns):
        return following
    at = following
    rows = 0
    if ranges is not None:
        ranges.append((start, start))
    while at < len(text) and rows < _ROWS:
        row_end, row_next = _line_end(text, at)
        stop = row_end
        if quote:
            closing = text.find(quote, at, row_end)
            while closing > at and text[closing - 1] == "\\":
                closing = text.find(quote, closing + 1, row_end)
            if closing != -1:
                stop = closing
        row = text[at:stop]
        if kind == "|" and _RULE.fullmatch(row):
            at = row_next if row_next != -1 else len(text)
            continue
        cells = _cells(row, kind, names)
        if cells is None:
            return at
        for index in columns:
            cell_start, cell_end = cells[index]
            cell = text[at + cell_start : at + cell_end]
            _value(cell, at + cell_start, names[index][2], spans, rank)
        rows += 1
        if ranges is not None:
            ranges[-1] = (start, at + len(row))
        if row_next == -1 or stop != row_end:
            return stop
        at = row_next
    return at


_NAME_WITH_NUMBER = re.compile(r"[A-Za-z_ ]{1,40}[0-9]{0,3}")


def _value_cell(name: str) -> bool:
    """Whether a header's cell is a value rather than a column's name: shaped as a
    credential, with a digit or a symbol inside (``WXVEq7Zp2…``, ``Vel902Maple!``; not
    ``Password``, ``address2``, ``sha256``)."""
    return (
        _NAME_WITH_NUMBER.fullmatch(name) is None
        and not name.replace("_", "").replace(" ", "").isalpha()
        and credential_shaped(name)
    )


_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]{0,39}(?:[_.\-][A-Za-z0-9]{1,39}){1,8}")


def _key_rows(
    text: str, following: int, names: list[tuple[int, int, str]], columns: list[int]
) -> bool:
    """Whether a barred line whose secret name stands in its first cell is a row of a
    table of settings, not a header (fix21b): no rule line follows it, a cell after its
    first holds more than letters (a value: ``hunter2``), and both its first cell and the
    next line's are identifiers, the next one naming no secret (``| smtp_password | … |``
    then ``| smtp_port | 587 |``): the names are keys, each with its value beside it."""
    first = next((i for i, (_, _, name) in enumerate(names) if name), -1)
    if columns != [first] or not _IDENTIFIER.fullmatch(names[first][2]):
        return False
    if all(_WORDS_ONLY.fullmatch(name) for _, _, name in names[first + 1 :]):
        return False  # ``| db_password | user |``: every other cell a column's name
    row_end, _ = _line_end(text, following)
    row = text[following:row_end]
    if _RULE.fullmatch(row):
        return False
    cells = [cell.strip().strip("\"'` *") for cell in row.strip().strip("|").split("|")]
    return (
        bool(cells)
        and _IDENTIFIER.fullmatch(cells[0]) is not None
        and is_secret_label(cells[0]) is False  # another setting's key (not ``my_pass_1``)
    )


_WORDS_ONLY = re.compile(r"[A-Za-z_ ]*")


def _header(line: str) -> tuple[str, list[tuple[int, int, str]]]:
    """The header's kind (its delimiter, or ``" "`` for fixed-width columns) and its
    cells (start, end, name); no cells when the line is no header."""
    if _HEADER_CHARS.fullmatch(line) is None:
        return "", []  # a character no header has (``:``, ``=``, ``{``, ``@``): one C scan
    stripped = line.strip()
    if "\t" in stripped or "\\t" in stripped:
        kind = "\t"
    elif "|" in stripped:
        kind = "|"
    elif "," in stripped:
        kind = ","
    elif ";" in stripped:
        kind = ";"
    else:
        kind = " "
    if kind == " ":
        cells = [(m.start(), m.end()) for m in _WORD.finditer(line)]
        if len(cells) < 2 or any(
            not _WIDE_GAP.fullmatch(line, a[1], b[0]) for a, b in itertools.pairwise(cells)
        ):
            return kind, []
    else:
        found = _split(line, kind)
        if found is None:
            return kind, []
        cells = found
    named: list[tuple[int, int, str]] = []
    for cell_start, cell_end in cells:
        name = line[cell_start:cell_end].strip().strip("\"'` *")
        if not name and kind == "|":
            named.append((cell_start, cell_end, name))
            continue
        if not _NAME.fullmatch(name) or len(name.split()) > 3 or _value_cell(name):
            # (fix21b: a cell shaped as a credential is a value: the line is a row of
            # ``| smtp_password | WXVE… |``, no header)
            return kind, []
        named.append((cell_start, cell_end, name))
    if len([n for n in named if n[2]]) < 2:
        return kind, []
    return kind, named


def _split(line: str, kind: str) -> list[tuple[int, int]] | None:
    """The cells of a delimited line (a CSV cell may be quoted, holding the delimiter),
    at most ``_CELLS``."""
    cells: list[tuple[int, int]] = []
    size = len(line)
    at = 0
    if kind == "|":  # a Markdown row's outer bars
        left = len(line) - len(line.lstrip(" \t"))
        if line[left : left + 1] == "|":
            at = left + 1
        right = len(line.rstrip(" \t"))
        if right > at and line[right - 1] == "|":
            size = right - 1
    while len(cells) < _CELLS:
        begin = at
        while at < size and line[at] in " \t" and kind != "\t":
            at += 1
        if at < size and line[at] == '"' and kind != "|":
            close = at + 1
            while True:
                close = line.find('"', close)
                if close == -1 or close >= size:
                    return None
                if line[close + 1 : close + 2] == '"':
                    close += 2
                    continue
                break
            at = close + 1
        next_at = _delimiter(line, at, size, kind)
        cells.append((begin, size if next_at == -1 else next_at))
        if next_at == -1:
            return cells
        at = next_at + (2 if line.startswith("\\t", next_at) else 1)
    return None


def _delimiter(line: str, at: int, size: int, kind: str) -> int:
    found = line.find(kind, at, size)
    if kind == "\t":
        written = line.find("\\t", at, size)
        if written != -1 and (found == -1 or written < found):
            return written
    return found


def _cells(row: str, kind: str, names: list[tuple[int, int, str]]) -> list[tuple[int, int]] | None:
    """A row's cells when it has the header's shape: as many cells (delimited), or a
    cell starting at each column's start (fixed-width)."""
    if not row.strip():
        return None
    if kind != " ":
        cells = _split(row, kind)
        if cells is None or len(cells) < len(names):
            return None
        if len(cells) > len(names):
            # a Markdown row with text after its last bar: "| ann | v | (retry later)"
            if kind != "|" or row.lstrip(" \t")[:1] != "|":
                return None
            cells = cells[: len(names)]
        return cells
    starts = [s for s, _, _ in names]
    if len(row) <= starts[-1]:
        return None
    cells = []
    for index, begin in enumerate(starts):
        if row[begin].isspace() or (begin and not row[begin - 1].isspace()):
            return None
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(row)
        if index + 1 < len(starts) and not row[end].isspace():
            return None
        cells.append((begin, end))
    return cells


def _secret_name(name: str) -> bool:
    return bool(name) and is_secret_label(name.replace(" ", "_")) is not False


def _value(cell: str, start: int, name: str, spans: list[Span], rank: int) -> None:
    """The secret in one cell (``cell``, at ``start`` in the text): the cell's word (or
    its first, when it reads as a token) when the column's name and the value say it is
    one."""
    words = list(_WORD.finditer(cell))
    if not words:
        return
    first = words[0]
    value = first.group()
    if len(words) > 1 and (plain_run(value) or not credential_shaped(value)):
        return  # prose or a note, not a secret
    bare = value.strip("\"'`")
    if not bare or not plausible_value(bare, prose_allowed=True):
        return
    label = name.replace(" ", "_")
    if is_secret_label(label) is None and not (
        credential_shaped(bare) or (code_label(label) and code_value(bare))
    ):
        return
    begin = start + first.start()
    finish = start + first.end()
    if value[:1] in "\"'" and value[-1:] == value[:1] and len(value) > 2:
        begin, finish = begin + 1, finish - 1
    spans.append((begin, finish, "secret", rank))
