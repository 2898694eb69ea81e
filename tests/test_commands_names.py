"""The command-line tools' names are found in one pass (speed13): the same places, in the
same order, as one ``str.find`` loop per tool found them.

``_commands._commands`` finds every tool's name in one Aho-Corasick pass over the lowered
text, then takes each tool's places as ``lowered.find(tool, end of the last)`` took them
and keeps the order of ``_TOOLS``. The property compares it with that loop (the code as
it was) on text built of the tools' names, names inside names (``funzip``, ``7za``,
``ldapurl``), names that overlap themselves (``rarar``, ``pscpscp``), what may stand
before and after a command, letters whose lowercase is longer (``İ``) and lone
surrogates.
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from helpers import examples

# Private imports, by design (internal unit under test): the reading is compared with the
# loop it replaced.
from toolhygiene import _commands

_AROUND = [" ", "\t", "'", '"', "\\'", '\\\\"', ".exe", ".EXE", "/", "=", "(", ";", "|", "&",
           "`", "\n", "a", "1", "-", "_", "İ", "\ud800", "K", "x ", " -a ", "pass:", "%"]
_NAMES = [*_commands._TOOLS, "rarar", "pscpscp", "smbcaclsmbcacls", "ldapurldapurl"]


def _old(text: str) -> list[tuple[str, re.Match[str]]]:
    """``_commands`` as it was before speed13: one ``str.find`` loop per tool."""
    lowered = text.lower()
    found = []
    for tool in _commands._TOOLS:
        at = lowered.find(tool)
        while at != -1:
            end = _commands._AFTER.match(text, at + len(tool))
            if end is not None and (at == 0 or text[at - 1] in _commands._BEFORE):
                found.append((tool, end))
            at = lowered.find(tool, at + len(tool))
    return found


def _spans(found: list[tuple[str, re.Match[str]]]) -> list[tuple[str, tuple[int, int]]]:
    return [(tool, end.span()) for tool, end in found]


_name = st.sampled_from(_NAMES)
_piece = (
    _name
    | _name.map(str.upper)
    | _name.map(lambda n: n[: len(n) // 2])
    | _name.map(lambda n: n[len(n) // 2 :])
    | st.sampled_from(_AROUND)
)


@settings(max_examples=examples(2000), deadline=None)
@given(st.lists(_piece, max_size=40).map("".join))
@example("rarar rar 'rar' unrar.exe x")
@example("İredis-cli -a v\ud800 funzip 7za 7z smbcaclsmbcacls ")
@example("net use \\\\fs\\share v /user:u")
def test_the_names_are_found_where_the_find_loop_found_them(text: str) -> None:
    assert _spans(_commands._commands(text)) == _spans(_old(text))


def test_a_command_is_still_read() -> None:
    found = _commands._commands("run: redis-cli -a S3cr3tPass ping; ['7za', 'x']")
    assert [tool for tool, _ in found] == ["redis-cli", "7za"]
