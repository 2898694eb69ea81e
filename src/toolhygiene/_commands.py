"""Password flags of command-line tools whose flag is not named after a password.

``redis-cli -a v``, ``ldapsearch -w v``, ``sqlcmd -P v``, ``keytool -storepass v``,
``openssl … -passin pass:v``, ``smbclient -U alice%v``, ``net use \\\\fs\\share v``: each
tool's flags are data (``_TOOLS``), read on the tool's own command line, written as shell
text or as an argv list (``['redis-cli', '-a', 'v']``, the repr a ``CalledProcessError``
shows). Flags named after a password (``--password v``) are the labelled layer's, and
``mysql -pv``, ``docker login -p v``, ``sshpass -p v`` have detectors of their own.

``find`` returns matches of ``_positional.SPAN``, one per value.
"""

from __future__ import annotations

import re

from toolhygiene._labels import plausible_value
from toolhygiene._positional import SPAN

__all__ = ["NEEDLES", "find"]


class _Flags:
    """A tool's password flags: ``spaced`` take the next argument (or ``=v``), ``glued``
    take the rest of their own (``-pv``); ``after``: a word the command line must hold
    (``login``); ``form``: how a value holds its password (``pass``: openssl's
    ``pass:v``; ``user``: ``user%v`` or ``user:v``; ``positional``: ``net use``);
    ``whole``: spaced flags whose next argument is a credential whatever the ``form``
    (curl's ``--oauth2-bearer v`` beside its ``-U user:v``)."""

    __slots__ = ("after", "form", "glued", "spaced", "whole")

    def __init__(
        self,
        spaced: tuple[str, ...] = (),
        glued: tuple[str, ...] = (),
        *,
        after: str = "",
        form: str = "",
        whole: tuple[str, ...] = (),
    ) -> None:
        self.spaced, self.glued, self.after, self.form = spaced, glued, after, form
        self.whole = whole


_LDAP = _Flags(("-w",))
_MSSQL = _Flags(("-P",))
_ZIP = _Flags(("-P", "--password"))
_RAR = _Flags(glued=("-p",))
_REDIS = _Flags(("-a", "--pass"))
_OPENSSL = _Flags(("-passin", "-passout", "-pass", "-k", "-password"), form="pass")
_SMB = _Flags(("-U", "--user"), form="user")
_KEYTOOL = _Flags(
    (
        "-storepass",
        "-keypass",
        "-srcstorepass",
        "-deststorepass",
        "-srckeypass",
        "-destkeypass",
        "-new",
    )
)
_LOGIN = _Flags(("-p", "--password"), after="login")

_TOOLS: dict[str, _Flags] = {
    "redis-cli": _REDIS,
    "valkey-cli": _REDIS,
    "keydb-cli": _REDIS,
    **dict.fromkeys(
        (
            "ldapsearch",
            "ldapmodify",
            "ldapadd",
            "ldapdelete",
            "ldapwhoami",
            "ldappasswd",
            "ldapcompare",
            "ldapmodrdn",
            "ldapexop",
            "ldapurl",
        ),
        _LDAP,
    ),
    **dict.fromkeys(("sqlcmd", "bcp", "osql", "isql"), _MSSQL),
    **dict.fromkeys(("zip", "unzip", "zipcloak", "funzip"), _ZIP),
    **dict.fromkeys(("7z", "7za", "7zr", "rar", "unrar"), _RAR),
    "keytool": _KEYTOOL,
    "openssl": _OPENSSL,
    **dict.fromkeys(("smbclient", "rpcclient", "smbcacls", "smbget", "smbmap"), _SMB),
    "ipmitool": _Flags(("-P",)),
    **dict.fromkeys(("psexec", "psexec64", "paexec", "rdesktop", "evil-winrm"), _Flags(("-p",))),
    **dict.fromkeys(("plink", "pscp", "psftp"), _Flags(("-pw",))),
    **dict.fromkeys(("xfreerdp", "wlfreerdp", "sdl-freerdp"), _Flags(glued=("/p:",))),
    **dict.fromkeys(
        ("snmpwalk", "snmpget", "snmpset", "snmpbulkwalk", "snmpgetnext"), _Flags(("-A", "-X"))
    ),
    "curl": _Flags(("-U", "--proxy-user"), form="user", whole=("--oauth2-bearer",)),
    **dict.fromkeys(
        ("docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras", "az", "cf", "oc"),
        _LOGIN,
    ),
    "net": _Flags(after="use", form="positional"),
}
NEEDLES = (
    *(f"{tool}{end}" for tool in _TOOLS if tool != "net" for end in (" ", "'", '"', ".exe")),
    "net use",
)
"""The detector's needles: a tool's name and what ends it as a command."""

_BEFORE = frozenset(" \t\r\n\"'/\\=`(;|&")
_AFTER = re.compile(r"(?:\.exe)?(?:[ \t]|(?P<q>\\{0,3}[\"']))", re.IGNORECASE)
_WORD = re.compile(r"\"(?:[^\"\\\r\n]|\\.){0,1024}\"|'[^'\r\n]{0,1024}'|[^\s\"'|;&<>]{1,1024}")
_LINE = 400
_ARGS = 64


def _shell_words(text: str, at: int) -> list[tuple[int, int]]:
    """The spans of a shell command line's words from ``at`` (quotes excluded from a
    quoted word), to the end of its line or a ``|``, ``;``, ``&``."""
    end = text.find("\n", at, at + _LINE)
    end = min(len(text), at + _LINE) if end == -1 else end
    spans: list[tuple[int, int]] = []
    position = at
    while len(spans) < _ARGS:
        while position < end and text[position] in " \t":
            position += 1
        m = _WORD.match(text, position, end)
        if m is None:
            break
        start, stop = m.span()
        if text[start] in "\"'":
            start, stop = start + 1, stop - 1
        spans.append((start, stop))
        position = m.end()
    return spans


_ITEM = re.compile(
    r"[ \t]{0,5},[ \t]{0,5}(?P<e>\\{0,3})(?P<q>[\"'])"
    r"(?P<item>(?:(?!(?P=e)(?P=q))[^\r\n]){0,1024})(?P=e)(?P=q)"
)


def _argv_items(text: str, at: int, quote: str) -> list[tuple[int, int]]:
    """The spans of an argv list's items after the tool's own item, which its closing
    ``quote`` ends at ``at``."""
    spans: list[tuple[int, int]] = []
    position = at + len(quote)
    while len(spans) < _ARGS:
        m = _ITEM.match(text, position)
        if m is None:
            break
        spans.append(m.span("item"))
        position = m.end()
    return spans


def _value(text: str, start: int, end: int, form: str) -> tuple[int, int] | None:
    """The password's span in an argument (``pass:v`` -> ``v``; ``user%v`` -> ``v``)."""
    if form == "pass":
        if text.startswith("pass:", start, end):
            return start + 5, end
        return None  # env:VAR, file:path, fd:3, stdin: where it is read from
    if form == "user":
        for mark in "%:":
            cut = text.find(mark, start, end)
            if cut != -1:
                return cut + 1, end
        return None  # a user alone: the tool prompts
    return start, end


def _real(text: str, span: tuple[int, int] | None) -> bool:
    if span is None or span[0] >= span[1]:
        return False
    value = text[span[0] : span[1]]
    return value[:1] not in "-*" and plausible_value(value, prose_allowed=False)


def _secrets(text: str, flags: _Flags, args: list[tuple[int, int]]) -> list[tuple[int, int]]:
    words = [text[s:e] for s, e in args]
    if flags.after and flags.after not in (w.lower() for w in words[:4]):
        return []
    found: list[tuple[int, int] | None] = []
    if flags.form == "positional":  # ``net use [X:] \\host\share [password] [/user:u]``
        found = [
            a
            for a, w in zip(args, words, strict=True)
            if w[:1] not in "/\\*"
            and not w.endswith(":")
            and w.lower() not in ("use", "delete", "persistent")
        ]
    for i, word in enumerate(words):
        if word in flags.spaced and i + 1 < len(words):
            found.append(_value(text, *args[i + 1], flags.form))
        elif word in flags.whole and i + 1 < len(words):
            found.append(args[i + 1])
        for flag in (*flags.spaced, *flags.glued):
            glue = "" if flag in flags.glued else "="
            if len(word) > len(flag) + len(glue) and word.startswith(flag + glue):
                found.append(
                    _value(text, args[i][0] + len(flag) + len(glue), args[i][1], flags.form)
                )
    return [s for s in found if s is not None and _real(text, s)]


def _commands(text: str) -> list[tuple[str, re.Match[str]]]:
    """Each tool of ``_TOOLS`` written as a command in ``text``: its name and what ends it."""
    lowered = text.lower()
    found = []
    for tool in _TOOLS:
        at = lowered.find(tool)
        while at != -1:
            end = _AFTER.match(text, at + len(tool))
            if end is not None and (at == 0 or text[at - 1] in _BEFORE):
                found.append((tool, end))
            at = lowered.find(tool, at + len(tool))
    return found


def find(text: str) -> list[re.Match[str]]:
    """The passwords given to the tools of ``_TOOLS`` on their command lines."""
    found = []
    for tool, end in _commands(text):
        quote = end.group("q")
        if quote is not None:
            args = _argv_items(text, end.start("q"), quote)
        else:
            args = _shell_words(text, end.end())
        for start, stop in _secrets(text, _TOOLS[tool], args):
            span = SPAN.match(text, start, stop)
            if span is not None:
                found.append(span)
    return found
