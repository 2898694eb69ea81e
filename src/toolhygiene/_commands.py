"""Password flags of command-line tools whose flag is not named after a password.

``redis-cli -a v``, ``ldapsearch -w v``, ``sqlcmd -P v``, ``keytool -storepass v``,
``openssl … -passin pass:v``, ``smbclient -U alice%v``, ``net use \\\\fs\\share v``: each
tool's flags are data (``_TOOLS``), read on the tool's own command line, written as shell
text or as an argv list (``['redis-cli', '-a', 'v']``, the repr a ``CalledProcessError``
shows; ``shlex.join``'s too). Flags named after a password (``--password v``) are the
labelled layer's; ``mysql -pv``, ``docker login -p v``, ``sshpass -p v`` in shell text
also have detectors of their own. Positional passwords are the table's too
(``htpasswd -b file user v``, ``vault login v``; issue 12, shell19).

``stdin_find`` reads what ``echo``/``printf`` pipes, or a here-string feeds, into a
command that reads a password on standard input (``sudo -S``, ``chpasswd``, ``passwd``,
``… --password-stdin``); ``send_find`` what an ``expect`` script sends after asking for a
password. Each finder returns matches of ``_positional.SPAN``, one per value.
"""

from __future__ import annotations

import bisect
import functools
import re

from ahocorasick_rs import AhoCorasick

from toolhygiene._labels import SNMP_DEFAULTS, credential_shaped, plausible_value
from toolhygiene._positional import SPAN
from toolhygiene._text import valid

__all__ = ["NEEDLES", "SEND_NEEDLES", "STDIN_NEEDLES", "find", "send_find", "stdin_find"]


class _Flags:
    """A tool's password flags: ``spaced`` take the next argument (or ``=v``), ``glued``
    take the rest of their own (``-pv``); ``after``: a word the command line must hold
    (``login``); ``form``: how a value holds its password (``pass``: openssl's
    ``pass:v``; ``user``: ``user%v`` or ``user:v``; ``positional``: ``net use``);
    ``whole``: spaced flags whose next argument is a credential whatever the ``form``
    (curl's ``--oauth2-bearer v`` beside its ``-U user:v``); ``marks``: what ends the
    user in the ``user`` form (lftp's ``user,v``); ``last``: a letter whose short flag
    (alone or in a cluster: ``-b``, ``-cb``, ``-nbB``) makes the last positional
    argument the password (``htpasswd -b file user v``); ``form="next"``: the
    positional argument after ``after`` (``vault login v``), no ``key=value``."""

    __slots__ = ("after", "form", "glued", "last", "marks", "spaced", "whole")

    def __init__(
        self,
        spaced: tuple[str, ...] = (),
        glued: tuple[str, ...] = (),
        *,
        after: str = "",
        form: str = "",
        whole: tuple[str, ...] = (),
        marks: str = "%:",
        last: str = "",
    ) -> None:
        self.spaced, self.glued, self.after, self.form = spaced, glued, after, form
        self.whole, self.marks, self.last = whole, marks, last


_LDAP = _Flags(("-w",))
_MSSQL = _Flags(("-P",))
_ZIP = _Flags(("-P", "--password"))
_RAR = _Flags(glued=("-p",))
_REDIS = _Flags(("-a", "--pass"))
_OPENSSL = _Flags(("-passin", "-passout", "-pass", "-password"), form="pass", whole=("-k", "-K"))
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
        ("snmpwalk", "snmpget", "snmpset", "snmpbulkwalk", "snmpgetnext", "snmpbulkget"),
        # (fix22) ``-c``: SNMPv1/v2c's community, a password in all but name
        _Flags(("-A", "-X", "-c"), form="community"),
    ),
    "curl": _Flags(
        ("-U", "--proxy-user", "-u", "--user"), form="user", whole=("--oauth2-bearer",), marks=":"
    ),
    **dict.fromkeys(
        ("docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras", "az", "cf", "oc"),
        _LOGIN,
    ),
    "net": _Flags(after="use", form="positional"),
    # (issue 12, shell19) commands whose password is positional or under a flag named
    # for no password
    "htpasswd": _Flags(last="b"),
    "sshpass": _Flags(("-p",), glued=("-p",)),
    **dict.fromkeys(("useradd", "usermod"), _Flags(("-p", "--password"))),
    "ssh-keygen": _Flags(("-N", "-P")),
    **dict.fromkeys(("vault", "bao"), _Flags(after="login", form="next")),
    **dict.fromkeys(
        ("mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport"),
        _Flags(("-p", "--password")),
    ),
    **dict.fromkeys(
        ("mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlsh", "mariadb"),
        _Flags(glued=("-p",)),
    ),
    "lftp": _Flags(("-u", "--user"), form="user", marks=","),
    # (a value holding ``=``, ``--password Ab12=x``, is no ``key=value`` on wget's line)
    "wget": _Flags(("--password", "--http-password", "--ftp-password", "--proxy-password")),
}
NEEDLES = (
    *(f"{tool}{end}" for tool in _TOOLS if tool != "net" for end in (" ", "'", '"', ".exe")),
    "net use",
)
"""The detector's needles: a tool's name and what ends it as a command."""

_BEFORE = frozenset(" \t\r\n\"'/\\=`(;|&")
_AFTER = re.compile(r"(?:\.exe)?(?:[ \t]|(?P<q>\\{0,3}[\"']))", re.IGNORECASE)
# A word: quoted and bare pieces glued (``shlex.join`` writes ``it's`` as
# ``'it'"'"'s'``); each piece starts with its own character, so no piece is read twice.
_WORD = re.compile(
    r"(?:\"(?:[^\"\\\r\n]|\\.){0,1024}\"|'[^'\r\n]{0,1024}'|[^\s\"'|;&<>]{1,1024}){1,16}"
)
_PIECE = re.compile(r"\"(?:[^\"\\\r\n]|\\.){0,1024}\"|'[^'\r\n]{0,1024}'")
# Where ``CalledProcessError`` ends a shell command it quotes (``Command 'v' returned
# non-zero exit status 1.``): the command line ends at the quote before these, not at the
# line's end.
_QUOTED_ENDS = (" returned non-zero exit status", " died with <Signals")
_LINE = 400
_ARGS = 64


_BLANK_WORD = re.compile(r"[ \t]{0,400}(" + _WORD.pattern + ")")


def _shell_words(text: str, at: int, limit: int = _ARGS) -> list[tuple[int, int]]:
    """The spans of a shell command line's words from ``at`` (quotes excluded from a
    quoted word), to the end of its line or a ``|``, ``;``, ``&``; ``limit`` at most."""
    return _words_to(text, at, limit)[0]


def _words_to(
    text: str, at: int, limit: int = _ARGS, stop: int = -1
) -> tuple[list[tuple[int, int]], int]:
    """``_shell_words``, and where the words end (a ``|``, ``;``, ``&``, a redirection,
    the line's end, ``stop`` if given)."""
    end = text.find("\n", at, at + _LINE)
    end = min(len(text), at + _LINE) if end == -1 else end
    if stop != -1:
        end = min(end, stop)
    for words in _QUOTED_ENDS:
        quoted = text.find(words, at, end)
        if quoted > at and text[quoted - 1] in "'\"":
            end = quoted - 1
    spans: list[tuple[int, int]] = []
    position = at
    match = _BLANK_WORD.match
    while len(spans) < limit:
        m = match(text, position, end)
        if m is None:
            break
        start, stop = m.span(1)
        if text[start] in "\"'" and _PIECE.fullmatch(text, start, stop):
            start, stop = start + 1, stop - 1  # one quoted piece: its inside
        position = m.end()
        if text[position : position + 1] in ("<", ">") and text[start:stop].isdigit():
            break  # a redirection's descriptor (``2>/dev/null``): no argument
        spans.append((start, stop))
    else:
        return spans, position
    while position < end and text[position] in " \t":
        position += 1  # (to what stopped the words: a ``|``, a ``;``, …)
    return spans, position


_ITEM = re.compile(
    r"[ \t]{0,5},[ \t]{0,5}(?P<e>\\{0,3})(?P<q>[\"'])"
    r"(?P<item>(?:(?!(?P=e)(?P=q))[^\r\n]){0,1024})(?P=e)(?P=q)"
)


def _argv_items(text: str, at: int, quote: str, limit: int = _ARGS) -> list[tuple[int, int]]:
    """The spans of an argv list's items after the tool's own item, which its closing
    ``quote`` ends at ``at``; ``limit`` at most."""
    spans: list[tuple[int, int]] = []
    position = at + len(quote)
    while len(spans) < limit:
        m = _ITEM.match(text, position)
        if m is None:
            break
        spans.append(m.span("item"))
        position = m.end()
    return spans


def _value(text: str, start: int, end: int, form: str, marks: str) -> tuple[int, int] | None:
    """The password's span in an argument (``pass:v`` -> ``v``; ``user%v`` -> ``v``)."""
    if form == "pass":
        if text.startswith("pass:", start, end):
            return start + 5, end
        return None  # env:VAR, file:path, fd:3, stdin: where it is read from
    if form == "user":
        for mark in marks:
            cut = text.find(mark, start, end)
            if cut != -1:
                return cut + 1, end
        return None  # a user alone: the tool prompts
    if form == "community" and text[start:end].strip("\"'") in SNMP_DEFAULTS:
        return None  # SNMP's default communities, no secret (as after ``community``)
    return start, end


def _real(text: str, span: tuple[int, int] | None, *, dashed: bool = False) -> bool:
    """Whether the argument at ``span`` holds a real value: not a mask, and not a flag
    unless ``dashed`` (a value fed on standard input, its writer's flags left out
    already: ``echo -00000Aa | sudo -S``)."""
    if span is None or span[0] >= span[1]:
        return False
    value = text[span[0] : span[1]]
    return value[:1] not in ("*" if dashed else "-*") and plausible_value(
        value, prose_allowed=False
    )


_KEY_VALUE = re.compile(r"[a-z_][a-z0-9_\-]{0,40}=")
"""A ``key=value`` argument (``username=bob``, ``role=ci``; a key is lowercase)."""


def _cluster(word: str, letter: str) -> bool:
    """Whether ``word`` is a cluster of short flags holding ``letter`` (``-b``, ``-cbB``;
    any cluster for "")."""
    return len(word) >= 2 and word[0] == "-" and word[1:].isalpha() and letter in word[1:]


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
    if flags.last and any(_cluster(w, flags.last) for w in words):
        # ``htpasswd -b[cmBs] file user v``, ``htpasswd -nb user v``: the last positional
        # (after the file, if not ``-n``, and the user; ``-C 12``'s value is no positional)
        positional, needed = [], 3
        for i, word in enumerate(words):
            if _cluster(word, "n"):
                needed = 2
            valued = i and _cluster(words[i - 1], "") and words[i - 1][-1] in "Cr"
            if word[:1] != "-" and not valued:
                positional.append(args[i])
        if len(positional) >= needed:
            found.append(positional[-1])
    if flags.form == "next":  # ``vault login v`` (not ``-method=userpass``, ``user=bob``)
        at = [w.lower() for w in words].index(flags.after)
        for i in range(at + 1, len(words)):
            word, before = words[i], words[i - 1]
            if word[:1] == "-" or _KEY_VALUE.match(word):
                continue
            if before[:1] == "-" and "=" not in before and not credential_shaped(word):
                continue  # a flag's value (``-method github``), unless a token's shape
            found.append(args[i])
            break  # one token: the words after it are no login's
    for i, word in enumerate(words):
        if word in flags.spaced and i + 1 < len(words):
            found.append(_value(text, *args[i + 1], flags.form, flags.marks))
        elif word in flags.whole and i + 1 < len(words):
            found.append(args[i + 1])
        for flag in (*flags.spaced, *flags.glued):
            glue = "" if flag in flags.glued else "="
            if len(word) > len(flag) + len(glue) and word.startswith(flag + glue):
                found.append(
                    _value(
                        text,
                        args[i][0] + len(flag) + len(glue),
                        args[i][1],
                        flags.form,
                        flags.marks,
                    )
                )
    return [s for s in found if s is not None and _real(text, s)]


@functools.cache
def _names() -> AhoCorasick:
    return AhoCorasick(list(_TOOLS))


def _commands(text: str) -> list[tuple[str, re.Match[str]]]:
    """Each tool of ``_TOOLS`` written as a command in ``text``: its name and what ends it.

    Every tool's name is found in one Aho-Corasick pass over the lowered text (one
    ``str.find`` per tool scanned the whole text ~75 times: a JSON result whose
    timestamps end in ``7Z"`` holds the needle ``7z"``); each tool's places are then
    taken as ``str.find`` from the end of the last one takes them, in the order of
    ``_TOOLS`` (``tests/test_commands_names.py`` compares the two)."""
    lowered = text.lower()
    places: dict[int, list[int]] = {}
    # The lowered text's lone surrogates replaced one for one (no tool's name holds one).
    for number, at, _ in _names().find_matches_as_indexes(valid(lowered), overlapping=True):
        places.setdefault(number, []).append(at)
    found = []
    for number, tool in enumerate(_TOOLS):
        resume = 0
        for at in sorted(places.get(number, ())):
            if at < resume:
                continue  # inside the tool's last place, which ``find`` resumes after
            resume = at + len(tool)
            end = _AFTER.match(text, resume)
            if end is not None and (at == 0 or text[at - 1] in _BEFORE):
                found.append((tool, end))
    return found


def find(text: str) -> list[re.Match[str]]:
    """The passwords given to the tools of ``_TOOLS`` on their command lines."""
    found = []
    reach: dict[str, int] = {}
    # per tool and words of a command line, what ``_secrets`` took: (word, span in it)
    taken: dict[tuple[str, tuple[str, ...]], list[tuple[int, int, int]]] = {}
    for tool, end in _commands(text):
        if end.start() < reach.get(tool, -1):
            continue  # one of the last command line's own words (``vault login a vault …``)
        quote, flags = end.group("q"), _TOOLS[tool]
        limit = 12 if flags.form == "next" else _ARGS
        if quote is not None:
            if flags.after:  # (its word first: ``docker run …`` is read no further)
                head = _argv_items(text, end.start("q"), quote, 4)
                if flags.after not in (text[s:e].lower() for s, e in head):
                    continue
            args = _argv_items(text, end.start("q"), quote, limit)
        elif flags.after:
            args, position = _words_to(text, end.end(), 4)
            if flags.after not in (text[s:e].lower() for s, e in args):
                continue
            if len(args) == 4:  # the rest of the line, read on from the head
                args += _words_to(text, position, limit - 4)[0]
        else:
            args = _shell_words(text, end.end(), limit)
        reach[tool] = args[-1][1] if args else end.end()
        key = (tool, tuple([text[s:e] for s, e in args]))
        inside = taken.get(key)
        if inside is None:  # (``_secrets`` reads the words alone: once per text of them)
            inside = taken[key] = _inside(args, _secrets(text, flags, args))
        for word, start, stop in inside:
            at = args[word][0]
            span = SPAN.match(text, at + start, at + stop)
            if span is not None:
                found.append(span)
    return found


def _inside(
    args: list[tuple[int, int]], spans: list[tuple[int, int]]
) -> list[tuple[int, int, int]]:
    """Each span (inside one of the words ``args``) as its word's index and its place
    in that word."""
    starts = [start for start, _ in args]
    inside = []
    for start, stop in spans:
        word = bisect.bisect_right(starts, start) - 1
        inside.append((word, start - starts[word], stop - starts[word]))
    return inside


# -- passwords fed on standard input ---------------------------------------------------

STDIN_NEEDLES = ("echo", "printf", "<<<")
"""The needles of passwords fed on standard input: the command echoing one, a
here-string."""

_ECHO = re.compile(r"(?<![\w.\-])(?:echo|printf)(?=[ \t])")
_ECHO_FLAG = re.compile(r"-[neE]{1,3}")
# A command that reads a password from its standard input on its own (without a flag
# naming it), and how: ``user`` (``chpasswd``: ``user:v`` lines), ``after-first`` (the
# first line is no password: ``heroku login -i`` reads an e-mail, then the password).
_READERS = {
    "chpasswd": "user",
    "passwd": "whole",
    "kinit": "whole",
    "cryptsetup": "whole",
}
# Flags that make a command read its password or token from standard input.
_STDIN_FLAGS = frozenset(
    ("--password-stdin", "--with-token", "--token-stdin", "--passphrase-stdin", "--stdin")
)
# A word one of the readers' command lines holds (``_reader``): a text, or a command
# line, without one is not parsed.
_HINT = re.compile(r"sudo|doas|passwd|stdin|with-token|kinit|cryptsetup|login|passphrase-fd")
# Where a reader's command may start inside a here-string's command line (quoted in an
# argv item or an error's message: ``['bash', '-c', "sudo -S x <<< 'v'"]``).
_READER_WORD = re.compile(
    r"(?<![\w.\-])(?:sudo|doas|chpasswd|passwd|smbpasswd|htpasswd|kinit|cryptsetup|vault|bao|"
    r"heroku)(?=[ \t])"
)
_SEGMENT_ENDS = "|;&(`\n"
"""What ends a command line on the left (a here-string's command starts after it)."""
_SEGMENT_ENDS_NEAREST = "\n|;&(`"
_LINE_BREAK = re.compile(r"\\{1,2}r\\{1,2}n|\\{1,2}n|\r?\n")
_RETURN_END = re.compile(r"(?:\\{1,2}[rn]){1,2}\Z")


def _reader(text: str, args: list[tuple[int, int]]) -> str:
    """How the command of ``args`` reads a password from standard input ("" if it reads
    none): ``whole``, ``user`` or ``after-first``."""
    words = [text[s:e] for s, e in args]
    while words:
        command = words[0].rsplit("/", 1)[-1].lower().removesuffix(".exe")
        rest = words[1:]
        if command in _READERS:
            return _READERS[command]
        if any(w in _STDIN_FLAGS for w in rest):
            return "whole"  # ``docker login --password-stdin``, ``passwd --stdin bob``
        for i, word in enumerate(rest[:-1]):
            if (word == "--passphrase-fd" and rest[i + 1] == "0") or (
                word in ("-pass", "-passin", "-passout") and rest[i + 1] == "stdin"
            ):
                return "whole"  # gpg's ``--passphrase-fd 0``, openssl's ``-pass stdin``
        lowered = [w.lower() for w in rest]
        if command in ("sudo", "doas") and any(_cluster(w, "S") or w == "--stdin" for w in rest):
            return "whole"  # ``sudo -S cmd``
        if command == "htpasswd" and any(_cluster(w, "i") for w in rest):
            return "whole"
        if command == "smbpasswd" and any(_cluster(w, "s") for w in rest):
            return "whole"
        if command in ("vault", "bao") and "login" in lowered and "-" in rest:
            return "whole"
        if command == "heroku" and "login" in lowered:
            return "after-first"
        if command not in ("sudo", "doas", "env", "command", "exec"):
            return ""
        # ``sudo chpasswd``, ``env LANG=C passwd --stdin bob``: the command it runs
        words = [w for w in rest if w[:1] != "-" and "=" not in w]
    return ""


def _fed(text: str, span: tuple[int, int], how: str) -> list[tuple[int, int]]:
    """The passwords in a value fed to a reader: its lines (``\\n`` written out or not),
    each whole, after its user (``user:v``), or all but the first."""
    start, end = span
    if text.startswith("$'", start) and text[end - 1 : end] == "'":
        start, end = start + 2, end - 1  # ANSI-C quoting: ``$'mail\npw'``
    pieces: list[tuple[int, int]] = []
    at = start
    for brk in _LINE_BREAK.finditer(text, start, end):
        pieces.append((at, brk.start()))
        at = brk.end()
    pieces.append((at, end))
    if how == "after-first":
        pieces = pieces[1:]
    found = []
    for s, e in pieces:
        if how != "user":
            found.append((s, e))
            continue
        cut = text.find(":", s, e)
        if cut != -1:
            found.append((cut + 1, e))
    return found


def _echoed(text: str, args: list[tuple[int, int]], printf: bool) -> list[tuple[int, int]]:
    """The spans an ``echo`` or a ``printf`` writes (its flags and format left out)."""
    words = [text[s:e] for s, e in args]
    if printf:
        return args[1:] if len(args) > 1 and "%" in words[0] else args[:1]
    i = 0
    while i < len(words) and _ECHO_FLAG.fullmatch(words[i]):
        i += 1
    return args[i:]


def stdin_find(text: str) -> list[re.Match[str]]:
    """Passwords fed on standard input to a command that reads one there: echoed into it
    (``echo 'v' | sudo -S apt update``, ``echo 'bob:v' | chpasswd``, ``printf '%s' v |
    docker login --password-stdin``) or as a here-string (``sudo -S true <<< v``,
    ``heroku login -i <<< $'mail\\nv'``), in shell text or quoted in an argv item."""
    spans: list[tuple[int, int]] = []
    if _HINT.search(text) is None:
        return []
    verdicts: dict[str, str] = {}  # a reader's command line (its text): how it reads
    if "|" in text:
        for m in _ECHO.finditer(text):
            line = text.find("\n", m.end(), m.end() + _LINE)
            line = min(len(text), m.end() + _LINE) if line == -1 else line
            bar = text.find("|", m.end(), line)
            if bar == -1 or text[bar + 1 : bar + 2] == "|":
                continue
            after = text.find("|", bar + 1, line)
            if _HINT.search(text, bar + 1, line if after == -1 else after) is None:
                continue  # (no reader's word after the pipe: its words are not read)
            args, end = _words_to(text, m.end())
            if not args or end != bar:
                continue
            command = text[bar + 1 : line]
            how = verdicts.get(command, "?")
            if how == "?":
                how = verdicts[command] = _reader(text, _shell_words(text, end + 1))
            if how:
                for arg in _echoed(text, args, m.group() == "printf"):
                    spans.extend(_fed(text, arg, how))
    at = text.find("<<<")
    last, how = -1, ""
    while at != -1:
        between = text[last:at] if last != -1 and at - last <= _LINE else ""
        if not between or any(c in between for c in _SEGMENT_ENDS):
            # (a new command line; else the last here-string's, judged once)
            lowest = max(0, at - _LINE)
            last = 0  # after the nearest end, each looked for only after the last found
            for c in _SEGMENT_ENDS_NEAREST:
                last = text.rfind(c, max(lowest, last), at) + 1 or last
            last = last or lowest
            command = text[last:at]
            how = verdicts.get(command, "?")
            if how == "?":
                how = ""
                if _HINT.search(command) is not None:
                    how = _reader(text, _words_to(text, last, stop=at)[0])
                    word = None if how else _READER_WORD.search(text, last, at)
                    if word is not None:
                        how = _reader(text, _words_to(text, word.start(), stop=at)[0])
                verdicts[command] = how
        if how:
            words = _shell_words(text, at + 3, 1)  # (its first word alone is fed)
            spans.extend(_fed(text, words[0], how) if words else [])
        at = text.find("<<<", at + 3)
    return _fed_values(text, spans)


def _fed_values(text: str, spans: list[tuple[int, int]]) -> list[re.Match[str]]:
    """A match over each span fed to a reader that holds a real value (judged once per
    text of it: ``_real`` reads the value alone)."""
    found = []
    real: dict[str, bool] = {}
    for start, stop in spans:
        value = text[start:stop]
        verdict = real.get(value)
        if verdict is None:
            verdict = real[value] = _real(text, (start, stop), dashed=True)
        if verdict:
            span = SPAN.match(text, start, stop)
            if span is not None:
                found.append(span)
    return found


# -- expect scripts ----------------------------------------------------------------------

SEND_NEEDLES = ("send ",)
_SEND = re.compile(
    r"(?:(?<![\w\-])|(?<=\\[nrt]))send[ \t]{1,5}(?:--[ \t]{1,5})?"
    r"(?:(?P<e>\\{0,3})\"(?P<v>(?:(?!(?P=e)\")[^\r\n]){1,1024})(?P=e)\"|\{(?P<b>[^{}\r\n]{1,1024})\})"
)
# matched where ``rfind`` found one
_EXPECT = re.compile(r"(?:(?<![\w\-])|(?<=\\[nrt]))expect(?![\w\-])")
_ASKS = re.compile(r"assword|passphrase|passcode|\bpin\b|token|secret", re.IGNORECASE)
_SEND_WINDOW = 400


def send_find(text: str) -> list[re.Match[str]]:
    """Passwords an ``expect`` script sends: ``send "v\\r"`` after an ``expect`` whose
    pattern asks for one (``expect "*assword:"``) any real value; after another
    ``expect`` (or the word alone: ``expect: send "v\\r"``), a credential-shaped one
    (``send "yes\\r"``, ``send "ls -la\\r"`` stay)."""
    found: list[re.Match[str]] = []
    if "expect" not in text:
        return found
    for m in _SEND.finditer(text):
        before = text.rfind("expect", max(0, m.start() - _SEND_WINDOW), m.start())
        if before == -1 or _EXPECT.match(text, before) is None:
            continue  # (``_EXPECT`` also after a line break written out: a repr's ``\nexpect``)
        start, end = m.span("v") if m.group("v") is not None else m.span("b")
        tail = _RETURN_END.search(text, start, end)
        if tail is not None:
            end = tail.start()
        if end <= start:
            continue
        value = text[start:end]
        asked = _ASKS.search(text, before, m.start()) is not None
        if (asked and _real(text, (start, end))) or (
            credential_shaped(value) and plausible_value(value, prose_allowed=False)
        ):
            span = SPAN.match(text, start, end)
            if span is not None:
                found.append(span)
    return found


# (fix22) Commands that print a secret alone on the next line, a closed table: a password
# manager's ``get password``, a cloud CLI's access token, a Kubernetes secret decoded, a
# vault's field.
_PRINTS = re.compile(
    r"(?:^|[ \t;&|(])(?:"
    r"bw[ \t]+get[ \t]+(?:password|totp)"
    r"|security[ \t]+find-(?:generic|internet)-password\b(?=.{0,400}?[ \t]-[a-z]{0,6}w\b)"
    r"|gcloud[ \t]+auth[ \t]+(?:application-default[ \t]+)?print-(?:access|identity)-token"
    r"|aws[ \t]+ecr(?:-public)?[ \t]+get-login-password"
    r"|kubectl[ \t]+get[ \t]+secrets?\b.{0,400}?\|[ \t]*base64[ \t]+(?:-d|-D|--decode)\b"
    r"|(?:vault|bao)[ \t]+(?:kv[ \t]+get|read)[ \t](?=.{0,400}?-field[= ])"
    r"|(?:vault|bao)[ \t]+print[ \t]+token"
    r"|gh[ \t]+auth[ \t]+token"
    r"|op[ \t]+read[ \t]"
    r"|(?:pass|gopass)[ \t]+(?:show[ \t]+)?[\w.@/\-]{1,200}[ \t]*\Z"
    r"|heroku[ \t]+auth:token"
    r"|az[ \t]+account[ \t]+get-access-token\b(?=.{0,400}?tsv)"
    r")"
)
PRINTED_NEEDLES = (
    "bw get",
    "-password",
    "print-access-token",
    "print-identity-token",
    "base64",
    "-field",
    "print token",
    "auth token",
    "op read",
    "pass ",
    "auth:token",
    "get-access-token",
)
"""Where a command of ``_PRINTS`` may be (lowercase)."""

# A prompt at a line's start (``$ ``, ``# ``, ``> ``, ``PS> ``, ``PS C:\\x> ``,
# ``bob@host:~$ ``), the command line, and the one word printed on the next line. A line
# ends at a newline or, in escaped JSON, at ``\\n``. (The line break before the prompt is
# part of the match, so that a search skips in C to the next line; ``PRINTED_FIRST`` is
# the text's first line.)
_PRINTED_BODY = (
    r"[ \t]{0,8}"
    r"(?:PS(?:[ \t][^>\r\n]{1,120})?>|(?:[\w.@\-]{1,64}(?::[^\s$#]{0,80})?)?[$#]|>)[ \t]{1,4}"
    r"(?P<cmd>[^\r\n]{1,400}?)(?:\r?\n|\\r\\n|\\n)"
    r"(?P<secret>[^\s\\\"'`]{4,4096})(?=[ \t]*(?:\r|\n|\\[rn]|\Z|[\"'`]))"
)
PRINTED = re.compile(r"(?:\n|\\n)" + _PRINTED_BODY)
PRINTED_FIRST = re.compile(_PRINTED_BODY)


def printed_find(text: str) -> list[re.Match[str]]:
    """``PRINTED``'s matches in ``text``, its first line's too."""
    first = PRINTED_FIRST.match(text)
    found = list(PRINTED.finditer(text))
    return [first, *found] if first is not None else found


def prints_a_secret(match: re.Match[str]) -> bool:
    """Whether ``PRINTED``'s command prints a secret (``_PRINTS``) and its output is one."""
    command = match.group("cmd").rstrip(" \t")
    if "\\n" in command:
        return False  # (escaped JSON: the line after the next one)
    found = _PRINTS.search(command)
    if found is None or "|" in command[found.end() :] or ">" in command[found.end() :]:
        return False  # (or piped on, ``| docker login --password-stdin``, or to a file)
    return plausible_value(match.group("secret"), prose_allowed=False)
