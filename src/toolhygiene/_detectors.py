"""Layers 2 and 3 of redaction, and the internals: detectors that need context, as data.

A ``Detector`` is a placeholder name, a regex and its needles (lowercase substrings, one
of which must occur for the regex to run at all). An *anchored* detector's matches begin
at a needle (or up to ``back`` characters before it, over ``back_chars``), so the engine
tries the regex only there instead of scanning the whole text. Where the regex has a group named
``secret``, only that group is replaced (the label before it stays readable); otherwise
the whole match is. ``check`` decides, for a match, whether it really is a secret (a
placeholder such as ``${DB_PASSWORD}`` or prose such as "password: must be at least 12
characters" is not). Users add detectors of the same kind (``th.add_redaction``).

Every regex is linear: bounded quantifiers and no nested repetition.
"""

from __future__ import annotations

import bisect
import functools
import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from toolhygiene import (
    _before_label,
    _code_lists,
    _commands,
    _dumps,
    _encoded,
    _key_shapes,
    _named,
    _nested,
    _seeds,
    _sql_params,
)
from toolhygiene._identifiers import may_hold_identifier, public_spans
from toolhygiene._labels import (
    AUTH_SCHEMES,
    BRACKETED,
    FLAG_ENDS,
    FOREIGN_LABELS,
    GLUED_LABELS,
    PERCENT_FIELD,
    PHRASE_HEADS,
    PHRASE_LABELS,
    PREFERENCE_NAME,
    PREFERENCE_VALUE,
    SNMP_DEFAULTS,
    bracketed_verdict,
    code_label,
    code_value,
    credential_shaped,
    data_key,
    is_secret_label,
    line_rest,
    names_a_vault,
    never_rest,
    paging_prose,
    plain_run,
    plausible_value,
    prose_run,
    qualified_key,
    reference_name,
    routing_credential,
    status_word,
)
from toolhygiene._positional import (
    CREDENTIAL_PAIR,
    ITEM_PAIR,
    SPAN,
    credential_pair,
    item_pair,
    key_values,
    sql_values,
)
from toolhygiene._public import (
    PEM,
    PGP,
    jwk_objects,
    jwk_yaml_blocks,
    not_public,
    not_public_pgp,
    pgp_holds_secret,
)
from toolhygiene._sentences import FOREIGN_CONNECTORS
from toolhygiene._survivors import format_value, quoted_prose, template_filter

__all__ = [
    "BUILT_IN",
    "NETRC_BEFORE",
    "NETRC_WINDOW",
    "PAIR_KEY",
    "Detector",
    "Kind",
    "list_item_judge",
    "netrc_context",
]

Kind = Literal["secret", "email", "internal"]


@dataclass(frozen=True, slots=True)
class Detector:
    """One detector: ``name`` goes into ``[redacted:<name>]``."""

    name: str
    pattern: re.Pattern[str]
    gate: tuple[str, ...] = ()
    kind: Kind = "secret"
    check: Callable[[re.Match[str]], bool] | None = None
    anchored: bool = False
    back: int = 0
    back_chars: str = ""
    extend: Callable[[str, int], int] | None = None
    """Given the text and where a found value ends, where it really ends (a passphrase
    of several words after a label)."""
    scan: bool = True
    """Whether one scan of the whole text is cheap enough to replace thousands of
    anchored matches (not for a regex that tries an alternation at every word)."""
    judged_by: tuple[str, ...] = ()
    """The groups ``check`` reads, when it reads nothing else (not the text around the
    match): its verdict is then given once per text for the same values of them."""
    requires: str = ""
    """A character (or a few in a row) every match holds outside any optional part: a text
    without it is not searched (one C scan, before any match is tried at the needles)."""
    screen: re.Pattern[str] | None = None
    """A short pattern found in every text the detector can match (one search in C): a
    text it is not found in is not searched (for needles as common as ``1/``)."""
    also: tuple[str, ...] = ()
    """Lowercase words of which every match holds one besides its needle (``value`` in a
    name/value pair): a text whose lowercase form holds none of them is not searched
    (looked for only where the needles are: thousands of ``key=`` without a ``value``
    cost a failing match each)."""
    inner: Callable[[re.Match[str]], list[re.Match[str]]] | None = None
    """For a match ``check`` rejected, the matches of the same pattern inside it (a
    label in the value of a key that names no secret: ``"password_hint":
    "password=v"``, ``KeyError: token=v``), judged in turn: a rejected match hides no
    needle."""
    finder: Callable[[str], list[re.Match[str]]] | None = None
    """For a detector that is not anchored: its matches found another way, exactly
    ``list(pattern.finditer(text))`` (a pattern with no literal to start from is tried
    at every character; a finder starts from a rarer part of it); or, for the pattern
    ``SPAN``, the values found by position (``_positional``, ``_commands``): a match over
    each value."""


def _labelled(m: re.Match[str]) -> bool:
    global _LABELLED_SEEN
    values = m.group("key", "sep", "secret")
    key = qualified_key(m.string, m.start("key"), values[0])  # "recovery code", "secret key"
    if key is not values[0]:
        values = (key, values[1], values[2])
    if values[2][-1:] == "]" and values[2][:1] == "[":
        item = values[2][1:-1].strip(" \t")
        if len(item) >= 2 and item[0] in "\"'" and item[-1] == item[0]:
            values = (key, values[1], item)  # a list of one quoted string: judged as it
    if _known_no_secret(m, values):
        return False
    key_at = m.start("key")
    if key.lower() == "cookie" and values[2][:1].isalpha() and _preference_cookies(m):
        return False  # ``Cookie: theme=dark; lang=en``: display preferences (fix20b)
    if values[1][:2] in _PADDING_THEN_SPACE and key_at and m.string[key_at - 1] in "+/":
        return False  # the tail of a base64 run and its padding (``…+pwAAAA= end``)
    if m.string.endswith("${", 0, key_at) and values[1][:1] in ":=?+-":
        return False  # a variable's default (``${PW:-v}``): ``_reference_default`` reads it
    if _read_below(m, key, values):
        return False  # a list or a mapping under the label: read item by item elsewhere
    if (
        values[1] == ":"
        and key_at
        and m.string[key_at - 1] == ":"
        and _resolving(m.string, key_at)
        and not _token_shaped(values[2])
    ):
        return False  # a dynamic reference's part: ``{{resolve:…:SecretString:password}}``
    if values[1][:1] == ":" and m.string.endswith("://", 0, m.start("key")):
        return False  # a URL's user (``https://__token__:PW@host``): layer 1 takes ``PW``
    if (
        values[1] in (":", "==", "=")
        and "." in values[2]  # (a version has a dot: most values are not matched)
        and _VERSION.fullmatch(values[2].lstrip("="))
        and ("-" in values[0] or m.string[key_at - 1 : key_at] == "/")
        and is_secret_label(re.split(r"[-_./]", values[0])[-1]) is False
    ):
        return False  # a package's or an image's version: ``auth-lib==1.4.2``, ``…/auth:2.0``
    if values[2][:1] == "@" and _sql_params.bind_parameter(values[2]):
        return False  # a SQL statement's parameter (``SET [Password] = @p0``; fix21a)
    if values[1][-1:] == ":" and _dumps.PHP_MEMBER_END.match(m.string, m.end("secret")):
        return False  # a PHP property's visibility: ``["password":protected]=>`` (fix21a)
    if values[1] == ":" and values[2][:1] == ":" and _SCOPED.fullmatch(values[2]):
        return False  # a path's ``::`` (``tests/test_auth.py::test_login``, ``auth::Token``)
    if (
        values[1] == ":"
        and _HOST_PORT.fullmatch(values[0] + ":" + values[2])
        and is_secret_label(values[0].rpartition(".")[2]) is False
    ):
        return False  # a host and its port (``git@auth.acme.com:8443``, ``token.io:443``;
        # not ``db.pwd:1234``, ``cfg.key:1234``)
    after = m.string[m.end("secret") : m.end("secret") + 1]
    if after == "(" and values[2][:1] == "[" and " " in values[2].strip("[] \t"):
        return False  # a Markdown link's words: ``Forgot password: [reset link](url)``
    if after and after in "([" and _CALLEE.fullmatch(values[2]):
        return False  # code, not a value: ``token = get_token(user)``, ``cfg.secrets[k]``
    if key_at > _ARN_SHORTEST and _in_arn(m.string, key_at):
        return False  # a resource type in an ARN: ``arn:aws:…:123456789012:secret:prod/db``
    if (
        ("." in values[2] or "::" in values[2])  # (each reference has one)
        and _REFERENCE.fullmatch(values[2])
        and not m.string.startswith(".", m.end("secret"))
        and _VARIABLE.fullmatch(values[2].rpartition(".")[2])
    ):
        return False  # where the value is read from: ``api_key: process.env.API_KEY``
        # (not ``password: env.Hunter2``: what follows the dot is no variable's name)
    if (
        values[2][:1] in _FORMAT_STARTS
        and ("%" in values[2] or "{" in values[2] or values[2] in ("f", "F"))
        and format_value(m.string, m.start("secret"), m.end("secret"))
    ):
        return False  # a format string's field: ``password: %(password)s``, ``"{password}"``
    if "|" in values[1] and template_filter(m.string, key_at, values[2], m.end("secret")):
        return False  # a template's filter: ``{{ .Values.pw | b64enc }}``
    if (
        (not key.isascii() or "sig" in key.lower())  # (IGNORECASE reads more beyond ASCII)
        and _SIGNATURE_KEY.search(key)
        and _signed_name(m.string, m.start("secret"))
    ):
        return False  # a name that signs: ``"signature": "John Smith"``
    if after in (" ", "\t") and "-" in values[2] and _CMDLET.fullmatch(values[2]):
        return False  # a command: ``$pw = ConvertTo-SecureString 'v'`` (its own detector)
    if (
        m.string[m.start("secret") - 1] in "(["
        and key.lower().endswith(_PAIR_KEYS)
        and _PAIR_REST.match(m.string, m.end("secret"))
    ):
        return False  # a pair's first item: ``auth=('bob', 'v')`` (the user; v goes)
    if values[1] == ">" and (
        m.string.startswith("->", m.end("secret")) or m.string.endswith("->", 0, key_at)
    ):
        return False  # a member in C or PHP: ``ctx->token->len``, ``$user->password->hash``
    if (
        values[2][:1] in _NO_VALUE_STARTS
        and _no_value(m.string, m.start("secret"), m.end("secret"), values)
    ) or ("(" in m.string[m.end("key") : m.start("sep") + 1] and _defined(m.string, key_at)):
        return False  # (fix21b) a command's name, a note in brackets, a YAML tag; a
        # function's signature and its docstring (``def check_password(…):``)
    if _SPOKEN.isdisjoint(values[1]):  # a space, a tab, a table's ``|`` or words
        return _spaced(m, key)
    qualified, sep_at = m.end("key"), m.start("sep")  # ``_QUALIFIED`` stands between
    if (
        sep_at != qualified
        and m.group("fill") is None  # (fix22b) a filler word: judged as the label's
        and m.string[qualified:sep_at].lstrip(" \t")[:1].isalpha()
        and not code_label(key)
    ):
        return _spaced(m, key)  # "API key for prod: v": words before it, judged as such
    seen = _LABELLED_SEEN
    if seen[0] is not m.string:  # the verdicts of this text's values, judged once each
        seen = _LABELLED_SEEN = (m.string, {})
    verdict = seen[1].get(values, _UNSEEN)
    if verdict is _UNSEEN:
        verdict = seen[1][values] = _labelled_value(*values)
    if verdict is not None:
        if verdict is False and _placeholder_then_token(m.string, m.end("secret"), values):
            return True  # "token: none Qx7pLm2R": a placeholder steering past the secret
        if verdict is False and _kept_then_token(m.string, m.end("secret"), values):
            return True  # "password=invalid Qx7pLm2R", "session_id: 42 Qx7pLm2R"
        return verdict is True
    value = values[2]
    if value.lstrip("\\")[:1] in ("'", '"'):  # a quoted sentence about the field
        # (``quoted_prose``): kept, unless a token follows it on its line ("not found"
        # then 'Qx7pLm2R'), which its quotes keep the value from reaching
        return _token_after_words(m.string, m.end("secret"), values)
    # A word of prose survives only when the words after it are prose too ("must be at
    # least 12 characters"; not "must be ThisIsMyRealPass1"): read only for such a word,
    # and only after a word of letters (what the value pattern's lookahead saw).
    more = _WORDS_AFTER.match(m.string, m.end("secret")) if _LETTERS.fullmatch(value) else None
    if not prose_run(value + (more.group() if more is not None else "")):
        return True
    # prose that steers past a secret written after it on its line, quoted or not ("see
    # vault item 'Pa55'", "not found; used 'Qx7pLm2R' from cache"): the value runs to it
    return _token_after_words(m.string, m.end("secret"), values)


# (fix21b) What a label's word is followed by when no value is: a task's name after the
# namespace (``rails credentials:show``, ``artisan key:generate``), a note in brackets
# (``= (protected)``, ``= (sensitive value)``), a YAML tag naming where the value comes
# from (``db_password: !vault |``, ``password: !secret wifi_password``, ``!Ref DbPass``).
_TASKS = frozenset(
    [
        *("show", "edit", "list", "get", "set", "generate", "create", "delete", "rotate"),
        *("clear", "diff", "print", "encrypt", "decrypt", "reset", "revoke", "add", "remove"),
        *("status", "help", "init", "new", "export", "import", "sync", "check", "verify"),
        *("update", "refresh", "fetch", "dump", "load", "cache"),
    ]
)
_SUBCOMMAND = re.compile(
    r"(?:print|show|get|list|describe|login|logout|revoke|activate|configure|generate|"
    r"create|delete|rotate|refresh|set|update)(?:-[a-z]{1,20}){0,4}"
)
_PROMPT = re.compile(
    r"(?:^|[\r\n]|\\n)[ \t]{0,8}(?:[$#%>][ \t]{1,3}|PS[^>\n]{0,80}>[ \t]{0,3})"
    r"[^\r\n]{0,160}\Z"
)
_NOTES = frozenset(
    [
        *("protected", "sensitive", "hidden", "redacted", "masked", "encrypted", "unset"),
        *("none", "empty", "omitted", "known", "computed", "not", "removed", "unchanged"),
        *("default", "optional", "required"),
    ]
)
_NOTE_AFTER = re.compile(r"(?:[ \t]{1,3}[a-z]{1,20}){0,3}\)")
_REFERENCE_TAGS = frozenset(
    [
        *("vault", "secret", "env", "ref", "sub", "getatt", "importvalue", "findinmap"),
        *("include", "input", "var"),
    ]
)
_TAG_AFTER = re.compile(
    r"[ \t]{0,3}(?:[|>][+\-]?[ \t]{0,3}(?:$|\r?\n|\\n)|[^\s|>]|$)", re.MULTILINE
)


_DEFINED = re.compile(
    r"(?:^|[\r\n])[ \t]{0,40}(?:async[ \t]{1,3})?(?:def|function|func|fn|sub)[ \t]{1,3}"
    r"\w{0,60}\Z"
)


def _known_no_secret(m: re.Match[str], values: tuple[str, ...]) -> bool:
    """Whether the labelled value is known to be none: a cursor in prose ("next page:
    token=v"; layer 1 still reads it), or one of SNMP's well-known communities under any
    of its labels (``SNMP community string: public``)."""
    if values[2].strip("\"'").lower() in SNMP_DEFAULTS and "community" in values[0].lower():
        return True
    return (
        values[0] in _CURSOR_WORDS
        and values[1][:1] not in "\"'\\]"
        and paging_prose(m.string, m.start("secret"), m.end("secret"))
    )


def _read_below(m: re.Match[str], key: str, values: tuple[str, ...]) -> bool:
    """Whether the labelled value ``m`` is a list or a YAML mapping under its label, whose
    items another reader judges each apart: a list (fix21a) is read by ``_nested`` or
    ``_code_lists`` (its bullets and line breaks stay); a mapping by ``_nested`` (its line
    break written out too, in escaped JSON: fix21b)."""
    if "\n" in values[1] and (
        (values[2] == "-" and m.string[m.end("secret") : m.end("secret") + 1] == " ")
        or (key[-5:].lower() == "codes" and _code_lists.listed(m.string, m.start("secret")))
    ):
        return True
    return ("\n" in values[1] or "\\n" in values[1]) and _YAML_KEY_AFTER.match(
        m.string,
        m.end("secret")
        - (values[2][-1:] == ":" and _KEY_NAME.fullmatch(values[2][:-1]) is not None),
    ) is not None


def _defined(text: str, key_at: int) -> bool:
    """Whether the key at ``key_at`` is (the end of) a function's name being defined:
    its line opens with ``def``, ``function``, ``func``, ``fn`` or ``sub``."""
    return _DEFINED.search(text, max(0, key_at - 110), key_at) is not None


_NO_VALUE_STARTS = frozenset("!A" + "".join({w[0] for w in _TASKS | _NOTES}) + "pslgdracu")
"""The first characters of what ``_no_value`` may answer for (a tag, a key id, a task, a
note, a subcommand): any other value is not asked (one set lookup, no call)."""


def _no_value(text: str, start: int, end: int, values: tuple[str, ...]) -> bool:
    """Whether what follows a secret's label (``text[start:end]``, its value as matched)
    is no value but a task's name, a note in brackets or a YAML tag (``_TASKS``,
    ``_NOTE_AFTER``, ``_REFERENCE_TAGS``)."""
    value = values[2]
    if value[:1] == "A" and _KEY_ID_SCOPE.fullmatch(value):
        return True  # a SigV4 credential: the key id goes by its own detector, the scope stays
    if values[1] == ":" and value in _TASKS:
        # ``credentials:show``: glued to its namespace, then the line's end or a blank
        after = text[end : end + 1]
        return (
            start > 0
            and text[start - 1] == ":"
            and (not after or after in " \t\r\n" or text.startswith(("\\n", "\\r"), end))
        )
    if (
        values[1][:1] in " \t"
        and _SUBCOMMAND.fullmatch(value)
        and _PROMPT.search(text, max(0, start - 200), start)
    ):
        return True  # ``$ gcloud auth print-access-token``: a command's words, on a prompt's line
    if start and text[start - 1] == "(" and value in _NOTES:
        note = _NOTE_AFTER.match(text, end)  # ``(sensitive value)``
        return note is not None and _nothing_after(text, note.end())
    if value[:1] == "!" and value[1:].lower() in _REFERENCE_TAGS:
        return _TAG_AFTER.match(text, end) is not None and _nothing_after(text, end)
    return False


def _nothing_after(text: str, end: int) -> bool:
    """Whether no token follows a note or a tag that ends at ``end``, on its line or on
    the next (``(hidden)`` then ``Qx7pLm2R``: the note is a placeholder steering past the
    secret, read as one)."""
    if not text.startswith(("\\n", "\\r"), end) and _token_after(text, end) != end:
        return False  # (a line break written out ends the note's line too)
    return _next_line_token(text, end) == end


def _resolving(text: str, key_at: int) -> bool:
    """Whether ``key_at`` is inside a CloudFormation dynamic reference
    (``{{resolve:secretsmanager:MySecret:SecretString:password}}``): where the value is."""
    opened = text.rfind("{{resolve:", max(0, key_at - 200), key_at)
    return opened != -1 and "}}" not in text[opened:key_at]


_YAML_KEY_AFTER = re.compile(r"[\"']?[ \t]{0,5}:(?:[ \t]|\r?\n|\Z)")
_KEY_NAME = re.compile(r"[\"']?[A-Za-z_][\w.\-]{0,79}[\"']?")
"""After a value on the line below its label: a colon, so it is a key of a mapping."""

_IDENT = re.compile(r"(?<![\w.\-])[A-Za-z_][\w.\-]{0,79}")


def _inner_labels(m: re.Match[str]) -> list[re.Match[str]]:
    """The labelled values inside a rejected one's value (``Detector.inner``): tried at
    each identifier holding a label's word after the last one's key (``KeyError:
    password=v`` in a ``key_id``'s value: both, flat)."""
    start, end = m.span("secret")
    text, pattern = m.string, m.re
    found: list[re.Match[str]] = []
    if _SPOKEN.isdisjoint(m.group("sep")):
        # a word after a blank ("password machine"): prose, no key's value; but a pair
        # right after it is one (a cookie jar's ``<Cookie sessionid=v for host/>``)
        first = _IDENT.match(text, start, end)
        if first is None or text[first.end() : first.end() + 1] != "=":
            return found
        if is_secret_label(first.group()) is False:
            return found
        inner = pattern.match(text, start)
        return found if inner is None else [inner]
    if _INNER_SEPARATOR.search(text, start, end) is None:
        if _INNER_SPOKEN.match(text, end) is None:
            return found  # no separator in it or after it: no label and value (``[redacted]``)
        # (one word: ``token_count: token: v``; its identifiers are judged one by one)
    elif not any(needle in text[start:end].lower() for needle in _STRONG_NEEDLES):
        return found  # no word that may name a secret alone
    reach = start
    for ident in _IDENT.finditer(text, start, end):
        if ident.start() < reach:
            continue
        word = ident.group()
        if is_secret_label(word) is not True:
            continue  # (``key_count=…``, a bare ``key``: no label, no match to try)
        inner = pattern.match(text, ident.start())
        if inner is not None:  # (and the labels inside its own value, in turn: the
            found.append(inner)  # list is flat, each judged once)
            reach = inner.start("secret")
    return found


_FORMAT_STARTS = frozenset("%{fF\"'\\")
"""What a format string's field may start a value with (``%``, ``{``, an f-string's
``f``, a quote, an escape)."""


def _token_after_words(text: str, end: int, values: tuple[str, ...]) -> bool:
    """Whether a word of prose after a secret's label and a colon (``see``, ``not``) is
    followed on its line by a word shaped as a token, quoted or not (the secret written
    after the words: "see vault item 'Pa55w0rd'")."""
    if _COLONS.isdisjoint(values[1]) or "=" in values[1] or is_secret_label(values[0]) is False:
        return False
    if _member_ends(text, end, values[1]):
        return False
    return _token_after(text, end, first=True) != end


# The words after a labelled value on its line (after the bracket closing the value, and
# a stop, a colon or a bar), quoted or not; the first may be glued to that bracket, a
# comma or a bar (``(empty)Pa55``, ``none,Pa55``, ``****|Pa55``, ``<unset>Pa55``; not
# after a colon, a stop or a dash: ``xxxx://host``, ``n/a.txt``).
_WORDS_ON = re.compile(
    r"[)\]}>]{0,2}[.,;:|\-]?(?:[ \t]{1,3}|(?<=[)\]}>,|]))[^\s<>`]{1,256}"
    r"(?:[ \t]{1,3}[^\s<>`]{1,256}){0,15}"
)
_WORD_ON = re.compile(r"[^\s<>`]{1,256}")


def _token_after(text: str, end: int, *, first: bool = False) -> int:
    """The end of the last word shaped as a token among the (at most 16) words after
    ``end`` on its line (``first``: of the first one), else ``end``."""
    words = _WORDS_ON.match(text, end)
    if words is None:
        return end
    last = end
    for word in _WORD_ON.finditer(text, end, words.end()):
        if _secret_word(word.group()):
            last = word.end()
            if first:
                break
    return last


@functools.lru_cache(maxsize=4096)  # a text repeats its words
def _secret_word(word: str) -> bool:
    bare = word.lstrip("([{)]}>.,;:|-\"'").rstrip(".,;:!?)]}\"'")
    return (
        any(c.isalnum() for c in bare)  # ``//`` after ``:`` is no token
        and _token_shaped(bare)
        and not names_a_vault(bare)  # "see 1Password vault item 'v'"
        and plausible_value(bare, prose_allowed=False)
    )


def _placeholder_then_token(text: str, end: int, values: tuple[str, ...]) -> bool:
    """Whether a value after a colon that is a placeholder or a mask (``none``, ``n/a``,
    ``****``, ``<unset>``) is followed on its line by a word shaped as a token (a secret
    written after it, "token: n/a then Qx7pLm2R"): the label's value runs to it, as
    after a word of prose. (After ``=``, a command's next flag follows a placeholder:
    ``PASSWORD=${DB_PASSWORD} -p 5432``.)"""
    if _member_ends(text, end, values[1]):
        return False
    if values[2][:1] == "!" and not plausible_value(values[2], prose_allowed=False):
        return False  # a CloudFormation tag: a resource's name follows (``!Ref DbPassword``)
    if not _steers_past(values[0], values[2]):
        return False
    if _glued_secret(text, end):
        return True  # ``{0}Tr0ub4dor3``, ``${DB_PASSWORD}Tr0ub4dor3``, ``[REDACTED]Pa55``
    if _next_line_token(text, end) != end:
        return True  # "password: [redacted]" then "Pa55w0rd" alone on the next line
    if _COLONS.isdisjoint(values[1]) or "=" in values[1]:
        return False
    return _token_after(text, end, first=True) != end or _steered_on(text, end)


def _kept_then_token(text: str, end: int, values: tuple[str, ...]) -> bool:
    """Whether a value kept by its words alone (a status word, ``status_word``; an ARN, an
    algorithm's name, a small id: ``_named_value``) is followed on its line by a word
    shaped as a token, after any separator (``password=invalid Qx7pLm2R``): the label's
    value runs to it."""
    if not _kept_word(*values[:3]):
        return False
    if _member_ends(text, end, values[1]):
        return False  # (leak21) a member of JSON or a repr: the next member is its own
    return _token_after(text, end, first=True) != end or _steered_on(text, end)


def _steered_on(text: str, end: int) -> bool:
    """Whether a status word or a placeholder is followed on its line by a word that
    steers to a new value and one word after it, the line's last ("expired, use
    AAAAAA", "none, now Hunter"): the value no token's shape shows; a word of prose there
    ("use the reset link", "use SSO") stays."""
    steered = _STEERED.match(text, end, min(len(text), end + _REST_READ))
    if steered is None:
        return False
    word = steered.group("word")
    return len(word) >= 6 and not prose_run(word) and word.lower() not in _FUNCTION_WORDS


_REST_READ = 256
_STEERED = re.compile(
    r"[ \t]{0,3}[,;:.\-]?[ \t]{0,3}(?:use|try|now|new|instead|replaced[ \t]{1,3}by"
    r"|changed[ \t]{1,3}to|set[ \t]{1,3}to|is[ \t]{1,3}now)[ \t:]{1,4}"
    r"(?P<word>[^\s,;()\[\]{}\"'`<>]{1,128})"
    r"[ \t]{0,3}(?:now|please|instead)?[ \t.!]{0,3}(?:\r?\n|\Z)",
    re.IGNORECASE,
)
_FUNCTION_WORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "your",
        "my",
        "our",
        "their",
        "this",
        "that",
        "it",
        "another",
        "one",
        "them",
        "these",
        "those",
        "sso",
        "oauth",
        "saml",
        "ldap",
    ]
)


@functools.lru_cache(maxsize=4096)  # a text repeats its labels and values
def _kept_word(key: str, sep: str, value: str) -> bool:
    """Whether ``value`` under ``key`` after ``sep`` is kept by its words alone and may
    have a secret after it that ``_placeholder_then_token`` does not read on to."""
    if not (_COLONS.isdisjoint(sep) or "=" in sep) and _steers_past(key, value):
        return False  # a placeholder or a status word after a colon: read on there
    return (status_word(value) or _named_value(key, value)) and is_secret_label(key) is not False


@functools.lru_cache(maxsize=4096)  # a text repeats its labels and placeholders
def _steers_past(key: str, value: str) -> bool:
    """Whether ``value`` under ``key`` may be a placeholder with the secret after it
    (``_placeholder_then_token``): no real value itself, under a label that may name a
    secret (read from the two alone: once per text for a flood of them)."""
    bracketed = bracketed_verdict(value)  # ``[redacted]``, ``<<unset>>``
    real = plausible_value(value, prose_allowed=False) if bracketed is None else bracketed
    return not real and is_secret_label(key) is not False


def _glued_secret(text: str, end: int) -> bool:
    """Whether a word shaped as a token is glued to the bracket closing a reference or a
    placeholder at ``end`` (``{0}Tr0ub4dor3``, ``${DB_PASSWORD}Tr0ub4dor3``,
    ``[REDACTED]Tr0ub4dor3``): the secret written after it, which ``_labelled_value_end``
    takes with it (``${PREFIX}_dev``, ``${HOME}/pw.txt``, ``${V}2`` are no token)."""
    if text[end : end + 1] in ("]", "}", ")", ">"):  # ``(REDACTED)v``: the word inside
        end += 1
    if not text[end : end + 1].isalnum() or text[end - 1 : end] not in ("]", "}", ")", ">"):
        return False
    glued = _GLUED_RUN.match(text, end)
    return glued is not None and _secret_word(glued.group().rstrip(".,:;!?"))


_LINE_END = re.compile(r"[)\]}>]{0,2}[ \t]{0,40}(?=\r?\n|(?:\\r)?\\n)")


def _next_line_token(text: str, end: int) -> int:
    """Where the value under a placeholder ends (``_value_under``), read once for a text
    and a place: both the check and the value's end ask."""
    global _UNDER_SEEN
    seen = _UNDER_SEEN
    if seen[0] is not text or seen[1] != end:
        seen = _UNDER_SEEN = (text, end, _value_under(text, end))
    return seen[2]


_UNDER_SEEN: tuple[str | None, int, int] = (None, -1, -1)


def _value_under(text: str, end: int) -> int:
    """Where the value ends that is written on the line after a placeholder or a mask
    ending its line (``password: ****`` then ``Pa55w0rd``: the value written under the
    one that hid it), blank lines between or not; else ``end``. That line's value is a
    word shaped as a token, alone, quoted or followed by more words (``Pa55w0rd (old)``),
    or a passphrase alone on it (lowercase words that are no prose: ``correct horse
    battery staple``, quoted or joined by ``-``). A key line, a word, a number, a URL or
    a path on that line is its own text."""
    blank = _LINE_END.match(text, end)
    if blank is None:
        return end
    blanks = _BLANK_LINES.match(text, blank.end())  # (matches always: none or more)
    at = blank.end() if blanks is None else blanks.end()
    if _NEXT_KEY_LINE.match(text, at):
        return end
    head = _LINE_HEAD.match(text, at)
    if head is None:
        return end
    first = head.end()
    quote = text[first : first + 1]
    if quote in _QUOTES:
        close = text.find(quote, first + 1, first + 1026)
        line = _LINE_BREAK.search(text, first, first + 1026)
        if close == -1 or (line is not None and line.start() < close):
            return end
        inner = text[first + 1 : close]
        return close + 1 if _secret_word(inner) or _phrase_alone(inner) else end
    m = _NEXT_RUN.match(text, first)
    if m is None:
        return end
    run = m.group()
    if any(c.isalpha() for c in run) and not never_rest(run) and _secret_word(run):
        return m.end()
    phrase = _PHRASE_LINE.match(text, first)
    if phrase is not None and _phrase_alone(phrase.group()):
        return first + len(phrase.group().rstrip(" \t"))
    return end


_BLANK_LINES = re.compile(r"(?:(?:\r?\n|(?:\\r)?\\n)[ \t]{0,40}(?=\r?\n|(?:\\r)?\\n)){0,3}")
"""Up to three blank lines between a placeholder's line and the value under it."""
_LINE_HEAD = re.compile(r"(?:\r?\n|(?:\\r)?\\n)[ \t]{0,40}")
_LINE_BREAK = re.compile(r"[\r\n]|\\[nr]")
_QUOTES = frozenset("\"'`")
_NEXT_RUN = re.compile(r"[^\s\"'<>`\\]{3,1024}(?=[ \t\r\n\"',;)]|\\[nr]|\Z)")
"""The first run of the next line, which a blank, a line break or a stop ends."""
_PHRASE_LINE = re.compile(
    r"[a-z]{2,30}(?:(?:[ \t]{1,3}|-)[a-z]{2,30}){2,9}"
    r"[ \t]{0,40}(?=\r?\n|\\[nr]|\Z|[(\[{,;:.!?&\"'])"
)
"""Three to ten lowercase words opening a line, then its end, a stop or a bracket (a
passphrase; "correct horse battery staple (retry later)")."""


@functools.lru_cache(maxsize=4096)  # a text repeats its lines
def _phrase_alone(words: str) -> bool:
    """Whether ``words`` (a line's whole text, or what quotes hold) is a passphrase: three
    to ten lowercase words, apart or joined by ``-``, not all prose (``prose_run``)."""
    if _PHRASE_LINE.fullmatch(words.rstrip(" \t")) is None:
        return False
    spaced = words.replace("-", " ")
    return _FUNCTION_WORDS.isdisjoint(spaced.split()) and not prose_run(spaced)


_FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "to",
        "of",
        "in",
        "on",
        "at",
        "by",
        "for",
        "from",
        "with",
        "as",
        "and",
        "or",
        "but",
        "not",
        "no",
        "if",
        "then",
        "than",
        "see",
        "please",
        "your",
        "our",
        "my",
        "you",
        "we",
        "they",
        "can",
        "could",
        "will",
        "would",
        "should",
        "must",
        "may",
        "might",
        "do",
        "does",
        "did",
        "has",
        "have",
        "had",
    ]
)
"""Words that make a line of lowercase words a sentence, not a passphrase."""


def _member_ends(text: str, end: int, sep: str) -> bool:
    """Whether a quoted key's value ends its member of JSON or a dict repr at ``end``
    (``"token": null, "n": 12345678``, ``[{"Key": null}, 10000]``): what follows is the
    structure's, no secret written after the value."""
    return ('"' in sep or "'" in sep) and text[end : end + 8].lstrip(" \t")[:1] in (",", "}", "]")


# The last of what ends the word before a labelled value's end (a blank, a separator, a
# quote), up to that end: one match in C that runs to the end and steps back to it (a
# search tried it at each break of the window, and after each, to the next one).
_TO_LAST_BREAK = re.compile(r"(?s:.*)[ \t\r\n:=\uff1a\"'`(\[]")


def _placeholder_rest(text: str, end: int) -> int:
    """Where a placeholder's value ends when a token follows it (``_placeholder_then_token``
    said so): at that token; else ``end``."""
    begin = max(0, end - 64)
    last = _TO_LAST_BREAK.match(text, begin, end)  # the value's last word: after it
    if last is not None:
        begin = last.end()
    word = text[begin:end]
    if word[-1:] in ")]}>" and word[:1] != "<":  # ``[redacted]``, ``{{unset}}``
        if word[:1] in "{$#" and bracketed_verdict(word) is True:
            return end  # the value itself in brackets (``${swordfish}``): no placeholder
        word = word.strip("[]{}()")
    if not word:
        return end
    seen = _LAST_WORDS_SEEN
    if seen[0] is not text:  # a text repeats its values: each last word judged once
        seen = _set_last_words(text)
    plausible = seen[1].get(word)
    if plausible is None:
        plausible = seen[1][word] = plausible_value(word, prose_allowed=False)
    if plausible:
        return end
    token = _token_after(text, end)
    return _next_line_token(text, end) if token == end else token


# An Amazon Resource Name, whole (``arn:aws:secretsmanager:…:secret:prod/db-AbCdEf``):
# it names a resource, under any label; the six characters AWS appends to a secret's
# name are no part of the secret.
_ARN_VALUE = re.compile(
    r"arn:aws(?:-[a-z]{2,10}){0,3}:[a-z0-9\-]{2,40}:[a-z0-9\-]{0,30}:(?:[0-9]{12}|aws)?:"
    r"[A-Za-z0-9_\-./:+=,@*]{1,2048}"
)
# A key naming how a secret is hashed (``password_hash``, ``hash_algorithm``,
# ``passwordHasher``), and the names of those algorithms (a closed list: any other word
# under such a key may be the hash or the password).
_HASH_KEY = re.compile(
    r"(?:(?<![A-Za-z])|(?<=[a-z]))(?i:hash(?:er|ing)?|algorithm|algo|alg|scheme)"
    r"(?:[_\-]?(?i:name|type))?\Z"
)
_HASH_NAMES = frozenset(
    [
        *("bcrypt", "bcrypt_sha256", "scrypt", "yescrypt", "argon2", "argon2i"),
        *("argon2d", "argon2id", "pbkdf2", "pbkdf2_sha1", "pbkdf2_sha256"),
        *("pbkdf2_sha512", "sha1", "sha224", "sha256", "sha384", "sha512", "sha3_256"),
        *("sha3_512", "md5", "md5_crypt", "sha256_crypt", "sha512_crypt", "des_crypt"),
        *("blake2b", "blake2s", "ntlm", "ssha", "ssha256", "ssha512", "crypt"),
    ]
)
# A key naming an id (``session_id``, ``sessionId``), and a small number under it: a row's
# or a counter's id of at most six digits is no credential (a session's token is longer).
_ID_KEY_END = re.compile(r"(?:(?<![A-Za-z])(?i:id)|(?<=[a-z])I[dD])\Z")
_SMALL_ID = re.compile(r"[0-9]{1,6}")


# A key's words saying that what it holds is private (``STRIPE_SECRET_KEY``,
# ``wallet_seed``): a public identifier's shape under it is no public identifier.
_PRIVATE_KEY_WORDS = re.compile(
    r"(?i:secret|priv|pass(?:word|wd|phrase)?|pwd|token|credential|seed|mnemonic|restricted)"
    r"|(?<![A-Za-z])(?i:sk)(?![a-z])|(?<=[a-z])SK(?![a-z])"
)


def _named_value(key: str, value: str) -> bool:
    """Whether a labelled value names something rather than holding a secret, under
    any label: an ARN, a hashing algorithm's name under a key naming the algorithm,
    a number of at most six digits under a key naming an id, a public identifier
    whose format is certain (``_identifiers``: a publishable key, a checked address, a
    CID) under a key that does not say private."""
    bare = value.strip("\\\"'`")
    if bare.startswith("arn:"):
        return _ARN_VALUE.fullmatch(bare) is not None
    if (
        len(bare) >= 20
        and may_hold_identifier(bare)
        and public_spans(bare, 0, len(bare)) == [(0, len(bare))]
    ):
        return _PRIVATE_KEY_WORDS.search(key) is None
    if _SMALL_ID.fullmatch(bare):
        return _ID_KEY_END.search(key) is not None
    return bare.lower().replace("-", "_") in _HASH_NAMES and _HASH_KEY.search(key) is not None


def names_something(key: str, value: str) -> bool:
    """``_named_value`` for the data path (``_redact._labelled``): a labelled value that
    names something (an ARN, a publishable key, …) stays there as it does in text."""
    return _named_value(key, value)


_LAST_WORDS_SEEN: tuple[str, dict[str, bool]] = ("", {})
"""The last text ``_placeholder_rest`` read, and ``plausible_value`` of each value's last
word in it (read and replaced whole)."""


def _set_last_words(text: str) -> tuple[str, dict[str, bool]]:
    global _LAST_WORDS_SEEN
    _LAST_WORDS_SEEN = (text, {})
    return _LAST_WORDS_SEEN


def _labelled_value(key: str, sep: str, value: str) -> bool | None:
    """``_labelled``'s verdict from the key, the separator and the value: ``None`` for
    a word of prose after a colon, which the words after it decide."""
    if _named_value(key, value):
        return False  # an ARN, ``password_hash: bcrypt``, ``session_id: 42``
    verdict = is_secret_label(key)
    if verdict is False and _secret_in_data_key(key, value):
        return True  # ``cache_key=password:v``, ``"routing_key": "R0…"``
    if "=" in sep and not value.strip("="):
        return False  # base64's padding (``…ErkJggg==``), not a key and its value
    bracketed = bracketed_verdict(
        value, bare_key=verdict is None, phrase=key.lower().endswith(PHRASE_HEADS)
    )
    if bracketed is not None:  # ``[v]``, ``{v}``, ``${v}``: judged by what they hold
        return bracketed and verdict is not False
    if value[:1] == "<" and value[-1:] == ">" and len(value) > 2:
        value = value[1:-1]  # ``k=<v>``: a placeholder (``<your-token>``) or the secret
        if not _token_shaped(value):
            return False
    if value[:2] == "${" and _REFERENCE_PATH.fullmatch(value):
        return False  # (fix21b) a path under a variable: ``${user.home}/.ssh/id_rsa``
    if verdict is False or (_SOURCE_LINE.fullmatch(value) and _SOURCE_FILE.search(key)):
        return False  # or a file and its line number in a trace (``auth.py:42``)
    quoted = value.lstrip("\\")[:1] in "\"'"
    if quoted and quoted_prose(value):
        return None  # "not found", "must be at least 12 characters": ``_labelled`` reads on
    # ``token -> expired``, ``token->expired`` (the key took the dash), ``token <- expired``
    colon = not _COLONS.isdisjoint(sep) or "->" in sep or "<-" in sep or sep[:1] == ">"
    if not plausible_value(value, prose_allowed=colon and not quoted):
        if colon and not quoted and plausible_value(value, prose_allowed=False):
            return None
        return False
    if verdict is None:  # a bare "key", an "appid": only a credential-looking value counts
        if value[:1] == "\\":  # (fix21b) quoted in escaped JSON: judged as written unescaped
            value = _ESCAPED_QUOTE.sub(r"\1", value)
        if value.count("-") == 4 and _UUID.fullmatch(value.strip("\"'`")) and _APP_ID.search(key):
            return False  # (fix21b) an application's id written as a UUID: a name
        if named_by_words(value.strip("\"'`")):
            return False  # a key's name: "missing key 'clientSecret'", "key 'X-Api-Key'"
        bare = value.strip("\"'`")
        return (
            credential_shaped(value)
            # letters of one case, too many for a word: ``key: qwertyuiop…``
            or (_ONE_CASE_RUN.fullmatch(bare) is not None and _letter_token(bare))
            # (leak21) camel-cased letters no name is made of: ``key QwertyUiopAsdfGhjk``
            or _camel_token(bare)
            or (code_label(key) and code_value(bare))
        )
    return True


_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_APP_ID = re.compile(r"app[_\-.]?id\Z", re.IGNORECASE)
_REFERENCE_PATH = re.compile(r"\$\{[A-Za-z_][\w.\-]{0,80}\}(?:/[\w.\-]{1,80}){1,16}/?")
_ESCAPED_QUOTE = re.compile(r"\\{1,3}([\"'])")


# A label and its value inside a data key's value (``password=v``, ``…/prod/token:v``,
# ``db_password=v``): a secret's label there is still a label.
_INNER_LABEL = re.compile(r"(?<![A-Za-z0-9])([A-Za-z][\w\-]{0,79})([=:])([^\s\"'<>`=:&;,]{1,1024})")


def _secret_in_data_key(key: str, value: str) -> bool:
    """Whether the value of a data key (``data_key``: ``cache_key``, ``Idempotency-Key``)
    is a secret after all: it holds a secret's label and a value it would take
    (``Idempotency-Key: password=v``, ``object_key: secrets/prod/password=v``), or it is
    a PagerDuty integration key under a routing key (``routing_credential``)."""
    if not data_key(key):
        return False
    if routing_credential(key, value):
        return True
    if "=" not in value and ":" not in value:
        return False
    return any(
        is_secret_label(m[1]) is True and _labelled_value(m[1], m[2], m[3]) is True
        for m in _INNER_LABEL.finditer(value)
    )


def _lexicon(words: str) -> frozenset[str]:
    """A word list written as text, one space or line between words."""
    return frozenset(words.split())


_NAME_PIECE = re.compile(r"[A-Z]?[a-z]{2,12}|[A-Z]{2,6}(?![a-z])")
_ONE_CASE_RUN = re.compile(r"[a-z]{24,}|[A-Z]{24,}")


@functools.lru_cache(maxsize=4096)  # a text repeats its values
def named_by_words(value: str) -> bool:
    """Whether ``value`` is a name made of words, camel-cased or joined by ``-``/``_``
    (``clientSecret``, ``X-Api-Key``, ``apiToken``): no digit, at most six pieces, each a
    word of 2-12 letters (a leading ``X-`` too), not a random run of letters: a run of
    one case too long for a word (``_letter_token``: ``qwertyuiop…``) is no name."""
    if not value or len(value) > 64 or not value.isascii() or any(c.isdigit() for c in value):
        return False
    if len(value) >= _LETTER_TOKEN and any(
        _letter_token(run) for run in _ONE_CASE_RUN.findall(value)
    ):
        return False
    parts = re.split(r"[-_]", value)
    if parts[0] == "X" and len(parts) > 1:
        parts = parts[1:]
    pieces: list[str] = []
    for part in parts:
        found = _NAME_PIECE.findall(part)
        if not part or "".join(found) != part:
            return False
        pieces.extend(found)
    return len(pieces) <= 6 and not _unspoken(pieces)


def _camel_token(value: str) -> bool:
    """(leak21) A run of 12 letters or more, both cases, whose camel-cased pieces are no
    name's (``_unspoken``)."""
    if len(value) < 12 or len(value) > 64 or not value.isascii() or not value.isalpha():
        return False
    if value.islower() or value.isupper():
        return False
    pieces = _NAME_PIECE.findall(value)
    return "".join(pieces) != value or len(pieces) > 6 or _unspoken(pieces)


def _unspoken(pieces: list[str]) -> bool:
    """(leak21) Whether the pieces of a camel-cased run of letters are too many no word
    has (``QwertyUiopAsdfGhjk``: ``qw``, ``ghjk``) for a name: two pieces or more, or one
    of four pieces or more and 16 letters, that hold no vowel (but the abbreviations
    code writes, ``Cfg``, ``Http``, ``Xml``, ``Msg``) or a pair of letters no English word
    holds (``_NO_WORD_PAIRS``). Acronyms in capitals are no such piece."""
    bad = 0
    for piece in pieces:
        if piece.isupper():
            continue
        word = piece.lower()
        if word in _ABBREVIATIONS:
            continue
        pairs = (word[i : i + 2] for i in range(len(word) - 1))
        if _VOWELS.isdisjoint(word) or any(pair in _NO_WORD_PAIRS for pair in pairs):
            bad += 1
    return bad >= 2 or (bad == 1 and len(pieces) >= 4 and sum(map(len, pieces)) >= 16)


_VOWELS = frozenset("aeiouy")
_ABBREVIATIONS = _lexicon(
    """cfg msg msgs ctx src dst pwd tmp cmd btn lbl txt mgr svc pkg std str fn db dns rgb
    http https html xml css js json sql ssh tcp udp smtp ftp sftp nfs xss csrf rpc grpc
    mfa sms vpn ldap dll px pt rx tx ws wss jwt kms gcp crm cdn nfc ttl cb cnt len hdr
    req res resp ts png jpg svg pdf csv tsv md mb kb gb hz qps rps"""
)
_NO_WORD_PAIRS = _lexicon(
    """bq bx cj cv cx dx fq fv fx fz gq gv gx hx jb jc jd jf jg jh jk jl jm jn jp jq jr js
    jt jv jw jx jy jz kq kx kz mx pq px qb qc qd qe qf qg qh qj qk ql qm qn qo qp qq qr qs
    qt qv qw qx qy qz sx vb vf vh vj vk vm vp vq vw vx wq wv wx xd xg xj xk xr xz yq zf zj
    zx gj hj fj sj dj lj wj tj nj rj gk pz vz bz cz dz fk hk ww hg"""
)


# A called or indexed name in code (``get_token``, ``requests.Session``,
# ``os.environ.get``): words and underscores, or dotted; not a password such as ``Pa55``.
_CALLEE = re.compile(
    r"[A-Za-z_]{1,64}(?:\.[A-Za-z_]\w{0,63}){0,8}|[A-Za-z_]\w{0,63}(?:\.[A-Za-z_]\w{0,63}){1,8}"
    r"|[A-Za-z_]\w{0,63}(?:::[A-Za-z_]\w{0,63}){1,4}"
)
# Where a value is read from rather than the value: a member of the environment or of a
# settings object (``process.env.API_KEY``, ``os.environ.DB_PASSWORD``,
# ``import.meta.env.VITE_TOKEN``, ``settings.API_KEY``, ``self.password``,
# ``secrets.GITHUB_TOKEN``; not ``this``, which starts sentences and dotted passphrases),
# or a path in Rust or C++ (``env::var``: called).
_REFERENCE = re.compile(
    r"(?:process\.env|import\.meta\.env|os\.environ|Deno\.env|Bun\.env|ENV|env|environ|"
    r"settings|config|conf|cfg|secrets|vars|self|ctx|context|options|opts|args|params|"
    r"props)(?:\.[A-Za-z_$][\w$]{0,63}){1,8}"
    r"|[A-Za-z_]\w{0,63}(?:::[A-Za-z_]\w{0,63}){1,4}(?=\()"
)
# A release's version: ``1.4.2``, ``v2.0.1-rc1``, ``0.3``, ``3.11-slim``.
_VERSION = re.compile(
    r"v?[0-9]{1,4}(?:\.[0-9]{1,6}){1,3}(?:[-+.](?:[0-9]{1,6}|[a-z]{1,12}[0-9]{0,4}))*"
)
# A variable's name as code writes it: ``API_KEY``, ``db_password2``, ``apiKey``.
_VARIABLE = re.compile(r"[A-Z][A-Z0-9_]*|[a-z][a-z0-9_]*|[a-z]+(?:[A-Z][a-z]+)+[0-9]?")
# An ARN up to a resource type in it (``arn:aws:secretsmanager:us-east-1:123456789012:``
# before ``secret:``): names of resources, no label and value.
_ARN_HEAD = re.compile(
    r"(?<![A-Za-z0-9])arn:aws(?:-[a-z]{2,10}){0,3}:[a-z0-9\-]{2,40}:[a-z0-9\-]{0,30}:"
    r"(?:[0-9]{12}|aws)?:(?:[^\s\"'<>,;`:]{1,200}:){0,4}\Z"
)
_ARN_SHORTEST = 10
_ARN_BEFORE = 400


_ARN_SEEN: tuple[str, bool] = ("", False)


def _in_arn(text: str, at: int) -> bool:
    """Whether ``at`` starts a resource's part of an ARN (a text with no ``arn:aws`` is
    asked once: every labelled value asks)."""
    global _ARN_SEEN
    if _ARN_SEEN[0] is not text:
        _ARN_SEEN = (text, "arn:aws" in text)
    if not _ARN_SEEN[1]:
        return False
    head = text.rfind("arn:aws", max(0, at - _ARN_BEFORE), at)
    return head != -1 and _ARN_HEAD.match(text, head, at) is not None


# A key that names a signature: its value may be a person's name (``"signature": "John
# Smith"``, an e-mail's sign-off) rather than a computed one (hex or base64: digits).
_SIGNATURE_KEY = re.compile(r"sig(?:nature)?s?(?![a-z])", re.IGNORECASE)
# A name or a sign-off: words of letters (``J. Smith, CEO``, ``Anna-Lena O'Brien``,
# ``Best regards, Anna``), to the end of its string or line.
_SIGNED_NAME = re.compile(
    r"(?P<q>\\{0,7}[\"'])?[A-Z][A-Za-z'\u2019\-]{0,30}\.?"
    r"(?:,?[ \t]{1,3}[A-Za-z][A-Za-z'\u2019\-]{0,30}\.?){0,7}"
    r"(?(q)\\{0,7}[\"']|[ \t]*(?:$|[\r\n,;}\])]|\\[nr]))",
    re.MULTILINE,
)


def _signed_name(text: str, start: int) -> bool:
    """Whether the value at ``start`` (under a signature's key) is a person's name or a
    sign-off: capitalised words of letters only, quoted whole or to the end of the line."""
    return _SIGNED_NAME.match(text, start) is not None


# A source file and a line (and column) number after it: ``auth.py:214``,
# ``TokenValidator.java:88``, ``AuthProvider.tsx:42:7``.
# A PowerShell command (``Verb-Noun``) where a value would be: code, not the value.
_CMDLET = re.compile(r"[A-Z][a-z]{1,15}(?:[A-Z][a-z]{1,15})?-[A-Z][A-Za-z]{1,40}")
# The rest of a pair after its first quoted item: a comma and a quoted second one.
_PAIR_KEYS = ("auth", "credential", "credentials", "cred", "creds")
_PAIR_REST = re.compile(r"[ \t]{0,5},[ \t]{0,5}\\{0,3}[\"']")
_SOURCE_LINE = re.compile(r"[0-9]{1,7}(?::[0-9]{1,5})?")
_SOURCE_FILE = re.compile(
    r"\.(?:py|pyi|pyx|js|jsx|mjs|cjs|ts|tsx|mts|cts|vue|svelte|java|kt|kts|scala|groovy|go|"
    r"rb|erb|php|cs|fs|vb|c|h|cc|cpp|cxx|hpp|hh|m|mm|rs|swift|dart|lua|pl|pm|ex|exs|erl|hs|"
    r"clj|cljs|elm|jl|r|sh|bash|zsh|ps1|sql|html|jinja|j2|tf|yaml|yml|json|toml|ini|cfg|xml)\Z",
    re.IGNORECASE,
)


_SPOKEN = frozenset(":=<>\uff1a\u2192\u21d2\u27f6")
"""A separator with none of these is spaces or words (``_spaced`` judges the value)."""
_COLONS = frozenset(":\uff1a\u2192\u21d2\u27f6")
"""Separators after which a word of prose may follow (``token: expired``, ``token →
expired``), as after ``->``."""
_UNSEEN = object()
_LABELLED_SEEN: tuple[str, dict[tuple[str | Any, ...], object]] = ("", {})
"""The last text ``_labelled`` read and its verdicts (a tuple: read and replaced whole,
so threads never see half of one)."""
# The words after a word of letters that the value pattern's lookahead found (at least
# one), and that word: ``[a-z]`` as the value pattern reads it (case-insensitive).
_WORDS_AFTER = re.compile(r"[.,;:!?]?(?:[ \t]{1,3}[^\s\"'<>`]{1,256}){1,16}")
_LETTERS = re.compile(r"[a-z]{1,20}", re.IGNORECASE)


_MORE_WORDS = re.compile(
    r"(?:[ \t]{1,3}[A-Za-z][A-Za-z'\-]{0,30}){0,15}"
    # the last word may be a token: "tango mango Qz9xLm2Rk7" is one passphrase
    r"(?:[ \t]{1,3}(?:[A-Za-z][A-Za-z'\-]{0,30}|"
    r"(?=[\w!#$%*+=~@^\-/.]{0,63}[0-9])[A-Za-z0-9][\w!#$%*+=~@^\-/.]{0,63}(?<!\.)))"
    r"(?=\.?[ \t]*(?:$|[\r\n,;&\"']|\\[nr\"']))"
)
# A passphrase's next line, when it is only more lowercase words (wrapped), to its end.
_WRAPPED_WORDS = re.compile(
    r"(?:\r?\n|(?:\\r)?\\n)[ \t]{0,40}[a-z]{1,30}(?:[ \t]{1,3}[a-z]{1,30}){0,15}"
    r"[ \t]{0,40}(?=[\r\n]|\\[nr]|\Z)"
)


def _passphrase(text: str, end: int, start: int) -> int:
    """A value of letters followed by more words of letters up to the end of the line
    (``password: correct horse battery staple``) runs to the end of the line (or of
    the string or URL parameter holding it), and over a next line of only lowercase
    words (the passphrase wrapped): a passphrase, not a word and then prose. A value
    with digits or symbols is a token and ends where it ends (``password: hunter2 was
    rejected`` keeps "was rejected"). ``start``: where the letters before ``end``
    start."""
    if start == end or (start > 0 and text[start - 1] not in " \t:=\uff1a"):
        return end
    if start > 1 and text[start - 1] in ":=" and text[start - 2] not in " \t":
        # (leak21) letters after a separator inside a token (``--secret Zq9=kk host``):
        # the token's tail, no passphrase's first word, unless a label stands before
        word = _WORD_BEFORE.search(text, max(0, start - 81), start - 1)
        if word is None or is_secret_label(word.group()) is not True:
            return end
    m = _MORE_WORDS.match(text, end)
    if m is None:
        return end
    wrapped = _WRAPPED_WORDS.match(text, m.end())
    if wrapped is not None and not _KEY_WORD.match(text, m.end()):
        return wrapped.end()
    # (leak21) a closing quote after the last word is the string's, not the word's
    # (``'the password is correct horse battery staple'`` keeps its quote)
    return m.end() - 1 if m.end() > end and text[m.end() - 1] == "'" else m.end()


_WORD_BEFORE = re.compile(r"(?<![\w.\-])[A-Za-z_][\w.\-]{0,79}\Z")
"""A label's word ending where a separator starts (a whole word: ``?passphrase=``)."""
_KEY_WORD = re.compile(r"\s{0,40}[a-z]{1,30}[ \t]{0,5}[:=]")


# A data URI as a labelled value (``token=data:application/octet-stream;base64,…``): the
# value pattern stops at its ``;``, the secret runs through its payload.
_DATA_HEAD = re.compile(r"data:[\w.+\-]{0,64}(?:/[\w.+\-]{0,64})?", re.IGNORECASE)
_DATA_REST = re.compile(r"[;,][^\s\"'<>`()\[\]{}|\\]{0,65536}")


_NEXT_LINE = re.compile(
    r"(?:\r?\n|(?:\\r)?\\n)[ \t]{0,40}(?P<run>[^\s\"'<>`\\]{3,1024})"
    r"[ \t]{0,40}(?=[\r\n\"']|\\[nr]|\Z)"
)


def _wrapped_rest(text: str, end: int) -> int:
    """Where a labelled value that ends its line really ends when its next line is the
    rest of it, wrapped (``DD_APP_KEY: 3f2a…`` then ``7d71…`` alone on a line): that
    line is a single run that is neither a key line, nor a word, a number, a URL or a
    path (``_labels.line_rest``); and so on over each next line of the same kind (a PEM
    or base64 body wrapped at 64 or 76 columns)."""
    if _NEXT_KEY_LINE.match(text, end):
        return end  # the next line is a key line (``never_rest``), told in one match
    m = _NEXT_LINE.match(text, end)
    if m is None or never_rest(m["run"]):
        return end
    start = end
    while start > 0 and not text[start - 1].isspace() and text[start - 1] not in "\"'=:\uff1a":
        start -= 1
    value = text[start:end]
    for _ in range(_WRAPPED_LINES):  # base64 wrapped at 64 or 76 columns: line after line
        if not line_rest(value, m["run"]):
            return end
        value, end = value + m["run"], m.end("run")
        m = _NEXT_LINE.match(text, end)
        if m is None or never_rest(m["run"]):
            return end
    return end


_WRAPPED_LINES = 256
# A next line whose run (``_NEXT_LINE``) starts with a key (``_labels.plain_run``'s: a
# name, then ``:`` or ``=`` that neither another ``=`` nor the run's end follows): that
# run is its line's own text, never the rest of a value. Most labelled values that end
# a line are followed by one (``key_1=v`` then ``key_2=v``).
_NEXT_KEY_LINE = re.compile(
    r"(?:\r?\n|(?:\\r)?\\n)[ \t]{0,40}[A-Za-z_][\w.\-]{0,79}"
    r"(?:[:\uff1a]|=(?![=\s\"'<>`\\]|\Z))"
)


# A piece of a value after a character the value pattern stops at (``&``, ``|``, ``)``,
# ``'``, a space, a tab, ...), and what may follow it (not ``=``: the next parameter of a
# query string).
_PIECE = re.compile(r"[^\s\"'<>`,;&{}()\[\]|\\=]{1,1024}")
_SYMBOLS = frozenset("!#$%&*+/:;<>?@^~|")
_CUTS = frozenset("&;, \t|()<>{}[]'\"`\\")
"""What the unquoted value pattern stops at that a secret may hold (``Pa55|word99``)."""
_SPACES = frozenset(" \t")
_BLANK = ("", " ", "\t", "\n", "\r")


def _letters_before(text: str, end: int) -> int:
    """Where the letters just before ``end`` start (``end`` when none are): ASCII ones
    stripped in C from a short window, a letter beyond ASCII or more letters than the
    window holds read one at a time."""
    window = text[end - _LETTERS_WINDOW if end > _LETTERS_WINDOW else 0 : end]
    kept = window.rstrip(_ASCII_LETTERS)
    start = end - len(window) + len(kept)
    if kept and not kept[-1].isalpha():
        return start  # stopped at a character that is no letter: the letters' start
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    return start


_LETTERS_WINDOW = 24
_ASCII_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _a_word(text: str, letters: int, end: int) -> bool:
    """Whether the value ending at ``end`` is letters only (``letters``: where the
    letters before ``end`` start). The value reaches back to whitespace, a quote, ``=``,
    a colon or 1,024 characters (a value's longest), none of them a letter: so it is
    letters only exactly when its last letters reach its start (read back over those
    letters alone, not the whole value: a token ending in a digit is no word at once)."""
    if letters == end:
        return False
    return (
        letters <= max(0, end - 1024)
        or text[letters - 1].isspace()
        or text[letters - 1] in _VALUE_STARTS
    )


_VALUE_STARTS = "\"'=:\uff1a"


def _cut_rest(text: str, end: int, word: bool) -> int:
    """Where an unquoted value really ends when the value pattern stopped at a character
    a secret may hold (``Pa55&word99``, ``Pa55|word99``, ``Pa55)word99``, ``Pa55'word99``,
    ``Pa55<word99>``, ``Pa55 word99xyz``, a tab): the value is a token up to whitespace
    or the syntax's own terminator, and runs on over each piece that reads as more of a
    token (not a word, an identifier, a number, a date or a version; after a space or a
    tab, also with a digit or a symbol). It stops at a key (``&page=2``, ``; user=bob``),
    a call (``(``), a closing tag (``</td>``), a word (``, retrying``, ``|grep``), a piece
    of prose (``hunter2 was rejected``), or where nothing follows the character (``)``
    closing a parenthesis, ``'`` closing a string). ``word``: whether the value is
    letters only (after a word, a space is ``_passphrase``'s to read)."""
    if text[end : end + 1] not in _CUTS:
        return end
    while text[end : end + 1] in _CUTS:
        # the pieces the steps below would take as glued on, taken in one match in C (a
        # flood of ``a`a`a`…``: a step each otherwise); what stops it is read below
        if text[end] in _GLUED_CUTS:
            glued = _GLUED_PIECES.match(text, end)
            end = end if glued is None else glued.end()
        cut = text[end]
        if cut == "&" and text[end + 1 : end + 2] in _BLANK:
            return end + 1  # (fix21a) a symbol ending the token: ``glacier-kite-57&``
        width = 1
        if cut == "\\":  # an escaped tab in a repr or JSON; ``\\n`` is a line break
            if text[end + 1 : end + 2] != "t":
                return end
            width = 2
        spaced = cut in _SPACES or width == 2
        if spaced and word:
            return end
        m = _PIECE.match(text, end + width)
        if m is None or text[m.end() : m.end() + 1] in ("=", "("):
            return end  # the next key, a call
        if plain_run(m.group()) and not (not spaced and _glued_tail(text, cut, m.start(), m.end())):
            return end  # a word, a number, a date
        piece = m.group()
        if "://" in piece or (cut == "<" and piece[:1] == "/"):
            return end  # a URL, or a closing tag (``</td>``)
        if spaced and not _digit_or_symbol(piece):
            return end
        end = m.end()
    return end


def _glued_tail(text: str, cut: str, start: int, end: int) -> bool:
    """Whether a piece that reads as a word or a number (``start``-``end``), glued to a
    value by ``cut``, a character the value pattern stops at (``0000`0``, ``Xy7|q``,
    ``Xy7'q``, ``abcd&q``, ``abcd)1``), is the value's tail: such a character closes or
    separates only where what follows it is read on its own (a key, ``&page=2``; a call;
    a tag; a blank), so a piece that ends the token (whitespace, the end, or a line's
    punctuation ending it follows; or another such character and more of the token) is
    more of the value, unless it is a word going on into more text after a character of
    syntax (``…|grep foo``, ``…&& make``; not after a quote, ``0000'AA rejected``). A comma
    or a semicolon separates a record's fields and a list's items (``abc123,200,OK``,
    ``; HttpOnly``) wherever it stands."""
    if cut in ",;":
        return False
    after = text[end : end + 1]
    if after in _SPACES:  # (after a quote no other one closes: any piece, ``0000`AA``)
        return cut in "`'\"" or end - start == 1 or not text[start:end].isalpha()
    if after in ("", "\n", "\r"):
        return True
    following = text[end + 1 : end + 2]
    if after in ".,;":
        return following in _BLANK
    # another such character with more of the token after it (``ab`cd|ef``)
    return after in _CUTS and following not in _BLANK


# A space or a tab, then a key: a name and ``=`` (the piece stops before it and the key
# follows) or a colon (the piece is a key line, ``plain_run``): ``_cut_rest`` stops there
# (told in one match, before the value's letters are read for it).
_SPACED_KEY = re.compile(r"[ \t][A-Za-z_][\w.\-]{0,79}[:=\uff1a]")
# Pieces ``_cut_rest`` takes as the value's whatever they read as: each after a character
# of syntax that is not a blank, a backslash, a comma or a semicolon (nor ``<`` before
# ``/``, a closing tag), a whole ``_PIECE`` without ``://`` in it, followed by another
# such character (not ``(``, a call's; nor a blank, a comma or a semicolon, which
# ``_glued_tail`` reads on) and more of the token (not a blank): ``_glued_tail``'s
# "another such character with more of the token after it".
# What a first such step starts with (a blank, the commonest, goes straight to the loop).
_GLUED_CUTS = frozenset("&|)<>{}[]'\"`")
_GLUED_PIECES = re.compile(
    r"(?:(?:[&|)>{}\[\]'\"`]|<(?!/))(?:[^\s\"'<>`,;&{}()\[\]|\\=:]|:(?!//)){1,1024}"
    r"(?=[&|)<>{}\[\]'\"`\\][^ \t\n\r]))*"
)


def _digit_or_symbol(piece: str) -> bool:
    """Whether ``piece`` holds a digit or one of ``_SYMBOLS`` (ASCII: one search in C)."""
    if piece.isascii():
        return _ASCII_DIGIT_OR_SYMBOL.search(piece) is not None
    return any(c.isdigit() or c in _SYMBOLS for c in piece)


_ASCII_DIGIT_OR_SYMBOL = re.compile(r"[0-9!#$%&*+/:;<>?@^~|]")


# A list of codes under a plural label (``backup codes: 1234 5678, 9012``): each next
# code has the shape of the first (digits where it has digits, ``-`` where it has one).
_CODES_LABEL = re.compile(
    r"codes[\"'\\]{0,4}[ \t]{0,5}[:=\uff1a]?[ \t]{0,5}[\"'\\]{0,4}\Z", re.IGNORECASE
)
_NEXT_CODE = re.compile(
    r"(?:[ \t]{0,3}[,;][ \t]{0,3}|[ \t]{1,3}|\r?\n[ \t]{0,8}|\\n[ \t]{0,8})([A-Za-z0-9\-]{4,32})"
)
_SHAPE = str.maketrans("0123456789" + string.ascii_letters, "9" * 10 + "a" * 52)
_CODES_MAX = 64
# What may follow a code before the next one (``_NEXT_CODE``'s first characters).
_CODE_GAPS = frozenset(" \t,;\r\n\\")


def _code_list(text: str, end: int) -> int:
    """Where a labelled value that is a code ends when more codes of its shape follow
    it under a plural label (``recovery codes: 1234-5678 8765-4321``)."""
    if not _names_codes(text):
        return end  # no plural label anywhere in the text: nothing to read back for
    start = end
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "-"):
        start -= 1
    value = text[start:end]
    if not code_value(value) or not _CODES_LABEL.search(text, max(0, start - 24), start):
        return end
    shape = value.translate(_SHAPE)
    for _ in range(_CODES_MAX):
        m = _NEXT_CODE.match(text, end)
        if m is None or m[1].translate(_SHAPE) != shape:
            return end
        if text[m.end() : m.end() + 1].isalnum():
            return end
        end = m.end()
    return end


def _names_codes(text: str) -> bool:
    """Whether ``text`` holds the word ``_CODES_LABEL`` needs (as it reads it, whatever
    the case: the long s too), read once per text: thousands of values under other
    labels are not each read back for a label that is not there."""
    global _CODES_SEEN
    seen = _CODES_SEEN
    if seen[0] is not text:
        lowered = text.lower()
        seen = _CODES_SEEN = (text, "codes" in lowered or "code\u017f" in lowered)
    return seen[1]


_CODES_SEEN: tuple[str, bool] = ("", False)
"""The last text ``_names_codes`` read, and its answer (read and replaced whole)."""


_WORDS_START = " \t.,;:!?"
"""What the words after a value (``_MORE``, ``_MORE_WORDS``) can start with."""


# A PEM or OpenPGP block's last line, looked for at most this far after its first.
_ARMOR_LOOK = 16_384
_ARMOR_END = re.compile(r"-----END [A-Z0-9 ]{1,40}-----")


def _armored_block(text: str, at: int) -> int:
    """Where the PEM or OpenPGP block starting at ``at`` (``-----BEGIN …``) ends, or
    ``-1``: a block written as a secret's value (``password: -----BEGIN CERTIFICATE-----``
    then its lines) is that value whole, one placeholder, public material or not."""
    global _ARMOR_SEEN
    seen, since, close = _ARMOR_SEEN
    if not (seen is text and since <= at + 10 and (close == -1 or close >= at + 10)):
        # (the next end once for every block before it: a flood of ``-----BEGIN`` with
        # no end is one search, not one a value)
        close = text.find("-----END ", at + 10)
        _ARMOR_SEEN = (text, at + 10, close)
    if close == -1 or close - at > _ARMOR_LOOK:
        return -1  # (no block: the PEM and OpenPGP patterns are not tried)
    for pattern in (PEM, PGP):
        m = pattern.match(text, at)
        if m is not None:
            return m.end()
    m = _ARMOR_END.match(text, close)
    return -1 if m is None else m.end()


_ARMOR_SEEN: tuple[str | None, int, int] = (None, 0, -1)


def _labelled_value_end(text: str, end: int) -> int:
    """Where a labelled value really ends: through a data URI's payload, through the
    words after a word of prose that steered past the secret (the check said so), or
    over the words of a passphrase. Each reading is tried only where the character at
    ``end`` (or the value's last) lets it read anything; the value's last letters are
    read back only for a reading that needs them."""
    after = text[end : end + 1]
    if after == " " and text.endswith("-----BEGIN", 0, end):
        block = _armored_block(text, end - 10)
        if block != -1:
            return block
    if after in ("{", "(") and text[end - 1] in _REFERENCE_SIGILS:
        reference = _reference_at(text, end)  # ``Tr0ub4dor3${DB_PASSWORD}``: up to it
        if reference != end:
            return reference
    if after and text[end - 1] in "])}>" and (after.isalnum() or after in _GLUED_TAIL):
        glued = _GLUED_RUN.match(text, end)  # ``[abc]def``: the tail glued to the bracket
        if glued is not None:
            return end + len(glued.group().rstrip(".,:;!?"))  # (not a sentence's stop)
    if after in _NESTED_STARTS:
        nested = _nested_value(text, end)
        if nested != end:
            return nested
    if after in _PLACEHOLDER_GAPS or (after and text[end - 1 : end] in ")]}>"):
        # "n/a then Qx7pLm2R", "<unset>Qx7pLm2R": to the token after a placeholder
        token = _placeholder_rest(text, end)
        if token != end:
            return token
    if after in (";", ","):
        head = text.rfind("data:", max(0, end - 140), end)
        if head != -1 and _DATA_HEAD.fullmatch(text, head, end):
            m = _DATA_REST.match(text, end)
            return m.end() if m else end
    if after in _CODE_GAPS:
        codes = _code_list(text, end)
        if codes != end:
            return codes
    if after in _CUTS and not _SPACED_KEY.match(text, end):  # a key next: ``_cut_rest``
        word = _a_word(text, _letters_before(text, end), end)  # reads no piece
        rest = _cut_rest(text, end, word)
        if rest != end:
            return rest
    if after in ("\n", "\r") or text.startswith(("\\n", "\\r"), end):
        token = _placeholder_rest(text, end)  # "password: ****" then "Pa55w0rd"
        if token != end:
            return token
        wrapped = _wrapped_rest(text, end)
        if wrapped != end:
            return wrapped
    if after not in _WORDS_START:
        return end  # no word follows: neither ``_MORE`` nor ``_passphrase`` reads on
    last = text[end - 1 : end]
    if last.isalpha():
        start = letters = _letters_before(text, end)
        if _letter_token(text[letters:end]) or _camel_token(text[letters:end]):
            return end  # a token of letters alone: no word of prose or a passphrase's
    else:  # no letters end the value (``_letters_before`` would give ``end``)
        if last not in _SENTENCE_ENDS or not end:
            return end  # a value ending in neither a letter nor ``.!?``: no word of prose
        start = letters = end
        while start > 0 and text[start - 1] in _SENTENCE_ENDS:  # "expired." ends a sentence
            start -= 1
        start = _letters_before(text, start)
    # Letters glued to the value's other characters end a token (``…0a``, ``0000**TRUE``,
    # ``x9_abc``): no word of prose; only letters that begin the value may steer past it.
    if (
        start < end
        and (not start or text[start - 1] in _VALUE_OPENS)
        and not _plausible_word(text[start:end])
    ):
        more = _MORE.match(text, end)
        if more is not None and not prose_run(text[start : more.end()]):
            return _token_after(text, more.end())  # and to a token quoted after them
        if more is not None and after in _PLACEHOLDER_GAPS:
            # prose the check read on to a token after it (``_token_after_words``)
            token = _token_after(text, end)
            if token != end:
                return token
    return _passphrase(text, end, letters)


def _reference_at(text: str, end: int) -> int:
    """Where a literal glued before a reference ends (``Tr0ub4dor3${DB_PASSWORD}``,
    ``Tr0ub4dor3{{ .Values.pw }}``, ``Tr0ub4dor3%(pw)s``): at the reference's sigil (the
    value pattern took a ``$``, ``#`` or ``%`` before the bracket it stops at), when a
    whole reference (``bracketed_verdict`` says so) starts there and nothing is glued
    after it. A value in brackets instead (``Tr0ub4dor3${swordfish}``), or a reference
    with more of the literal glued after it (``ab${X}cd``), goes with the literal whole.
    Else ``end``."""
    at = end - 1 if text[end - 1] in "$#%" else end
    if at == 0 or text[at - 1].isspace() or (at == end and not text.startswith("{{", end)):
        return end
    if text[at] == "%":
        field = PERCENT_FIELD.match(text, at)
        reference = field is not None and reference_name(field[1])
    else:
        field = _BRACKETED_AT.match(text, at)
        reference = field is not None and bracketed_verdict(field.group()) is False
    if field is None:
        return end
    after = text[field.end() : field.end() + 1]
    if after and (after.isalnum() or after in _GLUED_TAIL):
        glued = _GLUED_RUN.match(text, field.end())
        return field.end() if glued is None else glued.end()
    return at if reference else field.end()


_REFERENCE_SIGILS = frozenset("$#%" + string.ascii_letters + string.digits + "!@^*+=/~_.-")
_BRACKETED_AT = re.compile(BRACKETED)
_GLUED_TAIL = frozenset("!@#$%^*+=/~_")
_GLUED_RUN = re.compile(r"[^\s\"'<>`,;&|()\[\]{}]{1,1024}")
# A key and its value written as a secret's value (``WG_PRIVATE_KEY: PublicKey = v``,
# ``secret: publicKey: v``): the key's name is what the check read, the value after it
# belongs to the secret too, whatever the inner key calls it.
_NESTED = re.compile(
    r"(?:(?<=[:=\uff1a])[ \t]{1,3}|[ \t]{1,3}(?:[=:\uff1a]|:=)[ \t]{0,3}|[:\uff1a][ \t]{1,3})"
    r"(?P<q>[\"']?)(?P<value>[^\s\"'<>`]{8,4096})(?P=q)"
)
_NESTED_STARTS = frozenset(" \t:\uff1a")
_KEY_NAME_END = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]{0,79}\Z")


def _nested_value(text: str, end: int) -> int:
    """Where a labelled value that is a key's name ends when that key's own value
    follows (``_NESTED``) and reads as a token: at that value's end; else ``end``."""
    if text[end - 1] not in ":=\uff1a" and text[end : end + 5].lstrip(" \t")[:1] not in (
        "=",
        ":",
        "\uff1a",
    ):
        return end  # no separator after the name (one look, no match)
    m = _NESTED.match(text, end)
    if m is None or not _secret_word(m["value"]):
        return end
    stop = end - 1 if text[end - 1 : end] in ":=\uff1a" else end  # ``publicKey: v``
    name = _KEY_NAME_END.search(text, max(0, stop - 80), stop)
    if name is None or name.start() == 0 or text[name.start() - 1] not in " \t\"'=:\uff1a":
        return end
    return m.end()


_SENTENCE_ENDS = ".!?"
_PLACEHOLDER_GAPS = frozenset(" \t)]}>.,;:-")

# The names after a path's ``::`` (a pytest node id, a Rust or C++ scope): words of an
# identifier, each part (``test_login_with_expired_session``, ``TestRefresh``,
# ``Token``), a test's parameters in brackets last; no random run (``::Qx7pLm2R9z``:
# a word has two letters, a lone one stands between underscores).
_WORD_PIECE = r"(?:[A-Z]?[a-z]{2,}[0-9]{0,3}|[A-Z]{2,}(?![a-z])[0-9]{0,3}|[A-Z](?![a-z])|[0-9]+)"
_IDENTIFIER = _WORD_PIECE + r"(?:_?" + _WORD_PIECE + r"|_[a-z](?![a-z]))*"
_SCOPED = re.compile(  # (the separator took the first colon)
    r":_?" + _IDENTIFIER + r"(?:::_?" + _IDENTIFIER + r")*(?:\[[^\]\s]{0,200}\])?[.,;:]?"
)
# A dotted host name whose last part names no secret (a top-level domain), then a port
# (``auth.acme.com:8443/v1``) or an scp-style path (``git@auth.acme.com:acme/api.git``).
_HOST_PORT = re.compile(
    r"[\w\-]+(?:\.[\w\-]+)*\.[A-Za-z]{2,24}:(?:[0-9]{1,5}(?:/\S{0,2048})?|~?[\w.\-]+/[^\s:@]*)"
    r"(?<![.,;!?])[.,;!?)]?"  # a sentence's stop after it ("… at sso.auth.com:8443.")
)

_VALUE_OPENS = frozenset(" \t:=\"'`([{<>,;|\uff1a")
"""What may stand before letters that begin a labelled value (a blank, a separator, an
opening quote or bracket): letters after anything else are the end of a longer token."""


@functools.lru_cache(maxsize=2048)
def _plausible_word(letters: str) -> bool:
    """``plausible_value`` of the letters that end a value, where prose is allowed:
    judged once for the few such endings thousands of values share (``…hIj``)."""
    return plausible_value(letters, prose_allowed=True)


# What makes ``user@host`` a login, not an e-mail address: a URL's user part
# (``https://oauth2:…@gitlab.com``: the host stays, the credential goes by its own layer)
# or the target of a remote-shell command (``ssh -p 2222 deploy@example.com``).
_URL_USER = re.compile(r"://[^\s/@]{0,200}\Z")
_LOGIN_COMMAND = re.compile(
    r"(?:^|[\s;|&(`])(?:ssh|scp|sftp|mosh|rsync|ssh-copy-id|autossh)[ \t][^\r\n@]{0,160}\Z"
)


def _an_address(m: re.Match[str]) -> bool:
    """Whether an ``x@host.tld`` match is an e-mail address, not a login."""
    global _LOGINS_SEEN
    text, start = m.string, m.start()
    seen = _LOGINS_SEEN
    if seen[0] is not text:  # once per text (its matches share it): any login at all?
        seen = _LOGINS_SEEN = (text, "://" in text or _REMOTE_SHELL_IN(text) is not None)
    if not seen[1]:
        return True
    before = text[max(0, start - 200) : start]
    if "://" in before and _URL_USER.search(before) is not None:
        return False
    return _REMOTE_SHELL_IN(before) is None or _LOGIN_COMMAND.search(before) is None


_REMOTE_SHELL_IN = re.compile("ssh|scp|sftp|mosh|rsync").search
_LOGINS_SEEN: tuple[str, bool] = ("", False)
"""The last text the e-mail check read, and whether it holds a URL or a remote shell
(a tuple: read and replaced whole, so threads never see half of one)."""


def _block_label(m: re.Match[str]) -> bool:
    return is_secret_label(m.group("key")) is True and plausible_value(
        m.group("first"), prose_allowed=False
    )


_BLOCK_LINES = 2_000


def _indent(text: str, start: int) -> int:
    at = start
    while at < len(text) and text[at] in " \t":
        at += 1
    return at - start


def _block(text: str, end: int) -> int:
    """A YAML block scalar (``password: |`` then indented lines) runs over every line
    indented at least as far as its first one (blank lines inside included), written
    with real line breaks or, in a repr or escaped JSON, with ``\\n``. ``end`` is just
    after the first character of its first line."""
    first = end - 1
    line_start = first
    while line_start > 0 and text[line_start - 1] in " \t":
        line_start -= 1
    escaped = text[line_start - 1 : line_start] != "\n"
    newline = "\\n" if escaped else "\n"
    depth = first - line_start
    reach, position = end, end
    for _ in range(_BLOCK_LINES):
        line_end = text.find(newline, position)
        if line_end == -1:
            line_end = len(text)
        if escaped:  # a repr's string ends at its quote
            quote = min(
                (
                    q
                    for q in (
                        text.find("'", position, line_end),
                        text.find('"', position, line_end),
                    )
                    if q != -1
                ),
                default=-1,
            )
            if quote != -1 and (quote == 0 or text[quote - 1] != "\\"):
                line_end = quote
        content = text[position:line_end].rstrip(" \t\r\\")
        if content.strip(" \t"):
            reach = position + len(content)
        if line_end >= len(text) or text.startswith(newline, line_end) is False:
            break
        following = line_end + len(newline)
        indent = _indent(text, following)
        after = text[following + indent : following + indent + len(newline)]
        if indent < depth and after != newline and following + indent < len(text):
            break  # a line indented less than the block: the block is over
        position = following
    return reach


_PADDING_THEN_SPACE = frozenset(["= ", "=\t", "=\n", "=\r"])
_CURSOR_WORDS = frozenset(["token", "Token", "TOKEN", "tokens", "Tokens", "TOKENS"])
"""A bare ``token`` key as prose writes it: a cursor when its sentence is about paging."""


# (fix22c) OAuth's response types, named after ``token`` in a list of them (an OpenID
# discovery document's ``"token id_token"``, ``code id_token token``): public words.
_RESPONSE_TYPES = frozenset(["id_token", "code", "none", "token"])


def _token_credential(m: re.Match[str]) -> bool:
    if m.group("secret").lower() in _RESPONSE_TYPES:
        return False
    if paging_prose(m.string, m.start("secret"), m.end("secret")):
        return False  # "use token v for the next page": a cursor (layer 1 still reads it)
    return _credential(m)


def _credential(m: re.Match[str]) -> bool:
    value = m.group("secret").rstrip(".")  # (a sentence may end at it: "token revoked.")
    if (
        value.isalpha()
        and not _letter_token(value)
        and (value.islower() or value.istitle() or (value.isupper() and len(value) <= 14))
    ):
        return False  # "basic authentication failed", "bearer token missing", "token Expired"
    return not value.isdigit()


# A parameter list (``username="bob", response="…"``, ``Credential=…, Signature=…``).
_AUTH_PARAMS = re.compile(r"[A-Za-z][\w\-]{0,40}=")


def _spaced_authorization(m: re.Match[str]) -> bool:
    """After ``Authorization`` and only a space: with a scheme word (a registered scheme,
    or a vendor's written like one: ``Klaviyo-API-Key``, ``AWS4-HMAC-SHA256``), the rest
    of the line is the credential unless it is prose ("Bearer token missing"); without
    one, the value is a credential when it reads as a token ("authorization required",
    "Authorization failed for user bob" stay)."""
    value = m.group("secret")
    first = value.split(None, 1)[0].rstrip(",;")
    if "scheme" in m.re.groupindex:
        scheme = m.group("scheme")
        known = scheme.lower() in AUTH_SCHEMES or ("-" in scheme and not plain_run(scheme))
        if not known:
            return False  # "Authorization failed for user bob": a word, then prose
        if _AUTH_PARAMS.match(first) is not None:
            return True
        return _token_shaped(first) or (
            not (first.isalpha() and first.islower()) and not first.isdigit() and len(first) >= 8
        )
    if first.lower() in AUTH_SCHEMES or (
        "-" in first and _SCHEME_WORD.fullmatch(first) and _MORE_ON_LINE.match(m.string, m.end())
    ):
        return False  # a scheme word: the detector with a scheme takes what follows it
    return _token_shaped(first) and plausible_value(first, prose_allowed=False)


_SCHEME_WORD = re.compile(r"[A-Za-z]{2,20}[0-9]?(?:-[A-Za-z0-9]{2,20}){0,4}")
_MORE_ON_LINE = re.compile(r"[ \t]{1,5}[^\s]")


def _anything(m: re.Match[str]) -> bool:
    return plausible_value(m.group("secret"), prose_allowed=False)


def _authorization(m: re.Match[str]) -> bool:
    """An Authorization header's value, unless it is a scheme and a status word or an
    empty string (``Bearer ""``, ``Basic (missing)``; ``Bearer (missing)`` alone the
    pattern already reads past the scheme), or a key after the header's name (a HAR's
    ``{"name": "Authorization", "value": …}``: the pair is ``_named``'s)."""
    if m.group("key"):
        return False
    value = m.group("secret")
    if len(value) <= _SCHEME_STATUS_MAX:
        scheme, _, rest = value.partition(" ")
        if scheme.isalpha() and rest and status_word(rest):
            return False
    return _anything(m)


_SCHEME_STATUS_MAX = 48
"""The longest scheme and status word ``_authorization`` reads (``Negotiate (missing)``)."""


def _cookie(m: re.Match[str]) -> bool:
    """A cookie's value, unless what follows ``cookie:`` is a sentence about it whose
    every word is prose (``none set``, ``rejected by browser policy``): a cookie's
    ``name=value`` pairs are never all such words."""
    value = m.group("secret")
    return (
        _anything(m)
        and not (
            _LETTERS.fullmatch(value.split(" ", 1)[0].lstrip("(")) is not None
            and prose_run(value.rstrip())
        )
        and _PREFERENCE_COOKIES.fullmatch(value) is None
    )


def _masked(m: re.Match[str]) -> bool:
    """A value given to ``::add-mask::``: any real value (not a placeholder or a
    template's reference, ``{{ secrets.X }}``)."""
    value = m.group("secret")
    return value[:2] not in ("{{", "${") and plausible_value(value, prose_allowed=True)


_SECRET_VERSION = re.compile(r"/secrets/[^/\s\"']{1,255}/versions/|secretmanager", re.IGNORECASE)
_PAYLOAD_WINDOW = 1_024


def _secret_payload(m: re.Match[str]) -> bool:
    """A ``payload``'s ``data`` in an answer of Google Secret Manager: a secret's version
    is named within ``_PAYLOAD_WINDOW`` characters of it (a Pub/Sub message or another
    API's ``payload`` is none)."""
    names = _secret_versions(m.string)
    at = bisect.bisect_left(names, m.start() - _PAYLOAD_WINDOW)
    near = at < len(names) and names[at] <= m.end() + _PAYLOAD_WINDOW
    return near and plausible_value(m.group("secret"), prose_allowed=True)


_VERSIONS_SEEN: list[Any] = [None, []]


def _secret_versions(text: str) -> list[int]:
    """Where ``text`` names a secret's version (one scan per text: its payloads share
    the answer)."""
    if _VERSIONS_SEEN[0] is not text:
        _VERSIONS_SEEN[:] = [text, [m.start() for m in _SECRET_VERSION.finditer(text)]]
    found: list[int] = _VERSIONS_SEEN[1]
    return found


# (fix20b) A Cookie header whose every pair is a display preference with a word or a
# language's code for its value (``Cookie: theme=dark; lang=en``) names no session.
# One pair of any other name, or any other value, and the whole header goes
# (``_labels.PREFERENCE_NAME``, ``PREFERENCE_VALUE``).
def _preference_cookies(m: re.Match[str]) -> bool:
    """Whether the rest of the line from a labelled value is display-preference cookies."""
    text, at = m.string, m.start("secret")
    end = text.find("\n", at, at + 600)
    end = min(len(text), at + 600) if end < 0 else end
    return _PREFERENCE_COOKIES.fullmatch(text, at, end - (text[end - 1 : end] == "\r")) is not None


_PREFERENCE_COOKIES = re.compile(
    rf"(?i:{PREFERENCE_NAME})={PREFERENCE_VALUE}"
    rf"(?:[ \t]{{0,3}};[ \t]{{0,3}}(?i:{PREFERENCE_NAME})={PREFERENCE_VALUE}){{0,15}}"
    r"[ \t;]{0,5}"
)


def _oracle_login(m: re.Match[str]) -> bool:
    """``user/v@db`` is a login whatever ``v``; ``user/v`` alone only when ``v`` reads
    as a credential, not a path's part (``sqlplus docs/manual.html``, ``docs/readme``)."""
    value = m.group("secret")
    if m.string.startswith(("@", "'@", '"@'), m.end("secret")):
        return plausible_value(value, prose_allowed=False)
    return credential_shaped(value)


def _redis_auth(m: re.Match[str]) -> bool:
    """``AUTH user v``: any real value; ``AUTH v`` alone only credential-shaped (SMTP's
    ``AUTH PLAIN``, "AUTH failed" name a mechanism or an outcome)."""
    value = m.group("secret")
    if m.group("user") is not None:
        return plausible_value(value, prose_allowed=True)
    return credential_shaped(value)


# A value that is a port mapping, a uid:gid or a number (``-p 8080:80``, ``-u 1000:1000``),
# or a path (``rsync -u host:/srv``): what these flags take in other commands.
_NOT_A_PASSWORD = re.compile(r"[0-9.:]+(?:/(?:tcp|udp|sctp))?|/.*")
# What says that ``-p`` is a password on this command line: a user flag before it
# (``mysql -uroot -pPW``, ``docker login -u ci -p PW``) or a login command.
_USER_BEFORE = re.compile(r"(?<![\w-])(?:-u|--user(?:name)?\b|login\b)")
_COMMAND_WINDOW = 200
# The clients whose ``-p`` is a password (glued or spaced), on the same command line.
_PASSWORD_CLIENT = re.compile(
    r"(?<![\w-])(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb|mariadb-dump|"
    r"mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport|sshpass)(?![\w-])"
)


def _short_password(m: re.Match[str]) -> bool:
    value = m.group("secret")
    if _NOT_A_PASSWORD.fullmatch(value) or not plausible_value(value, prose_allowed=False):
        return False
    start = m.start()
    line = m.string.rfind("\n", max(0, start - _COMMAND_WINDOW), start) + 1
    before = m.string[max(line, start - _COMMAND_WINDOW) : start]
    end = m.string.find("\n", m.end(), m.end() + _COMMAND_WINDOW)
    client = _PASSWORD_CLIENT.search(
        m.string,
        max(line, start - _COMMAND_WINDOW),
        m.end() + _COMMAND_WINDOW if end == -1 else end,
    )
    if not m.group("sep"):  # glued (``-pPW``) is mysql's form
        return client is not None or _USER_BEFORE.search(before) is not None
    # Spaced (``-p PW``): after ``login``, or a token on a database client's line
    # (``mysql -h db -p Qx7pLm2R``); ``mysql -u root -p app`` prompts, and ``app`` is the
    # database; ``ssh -p 2222``, ``cp -p a b`` are no password.
    return "login" in before or (client is not None and _token_shaped(value))


# A flag that makes a login read its password or token from standard input.
_STDIN_FLAG = re.compile(r"--(?:password-stdin|with-token)(?![\w-])")
_STDIN_FLAGS = ("password-stdin", "with-token")
_STDIN_FLAG_ANYWHERE = re.compile(r"--(?:password-stdin|with-token)")
"""``_STDIN_FLAG`` without what it reads after the flag (a window's end cuts that off)."""


def _fed_on_stdin(m: re.Match[str]) -> bool:
    """A here-string (``<<< v``) on the line of a login reading its password from
    standard input (``docker login --password-stdin``, ``gh auth login --with-token``):
    ``v`` is the password, unless a placeholder (``"$PW"``, ``$(cat file)``)."""
    text, start = m.string, m.start()
    line = text.rfind("\n", max(0, start - _COMMAND_WINDOW), start) + 1
    end = text.find("\n", m.end(), m.end() + _COMMAND_WINDOW)
    limit = m.end() + _COMMAND_WINDOW if end == -1 else end
    return _STDIN_FLAG.search(text, max(line, start - _COMMAND_WINDOW), limit) is not None and (
        _anything(m)
    )


# The user's key beside a one-letter password key in the same form or query.
_FORM_USER = re.compile(
    r"(?:^|[?&;\s\"'])(?:u|user|username|user_name|usr|login|uid|email|j_username)=[^&;#\s]",
    re.IGNORECASE,
)
_FORM_WINDOW = 512
_SPACE = re.compile(r"\s")


def _form_password(m: re.Match[str]) -> bool:
    """``p=`` of a form or query that also names a user (``u=bob&p=v``, ``p=v&u=bob``)."""
    text, start, end = m.string, m.start(), m.end()
    begin = max(0, start - _FORM_WINDOW)
    begin = max(begin, *(text.rfind(c, begin, start) for c in " \t\r\n"))
    found = _SPACE.search(text, end, min(len(text), end + _FORM_WINDOW))
    stop = found.start() if found is not None else min(len(text), end + _FORM_WINDOW)
    return _FORM_USER.search(text, begin, stop) is not None and _anything(m)


_LAST_WORD = re.compile(r"\A(?:[A-Za-z0-9]{1,40}[_.\-]){0,4}(?=[A-Za-z])")


_KEY_ID_SCOPE = re.compile(
    r"A[KS]IA[A-Z0-9]{16}(?:/|%2[Ff])[0-9]{8}(?:/|%2[Ff])[a-z0-9\-]{1,30}(?:/|%2[Ff])"
    r"[a-z0-9\-]{1,40}(?:/|%2[Ff])aws4_request"
)
_SIGV4_SCOPE = re.compile(r"[0-9]{8}/[a-z0-9\-]{1,30}/[a-z0-9\-]{1,40}/aws4_request(?![\w/])")


# (fix22c) A time's hour before a pair's colon (``21``, ``2026-11-29T21``, ``2026-11-29 21``
# has a space: not one user) and its minutes, seconds, fraction and zone after it.
_CLOCK_USER = re.compile(r"(?<![0-9])(?:[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt])?[0-9]{1,2}\Z")
_CLOCK = re.compile(
    r"[0-9]{2}(?::[0-9]{2})?(?:[.,][0-9]{1,9})?(?:[Zz]|[+\-][0-9]{2}(?::?[0-9]{2})?)?\.?"
)


def _pair(m: re.Match[str]) -> bool:
    """A user and a password after a credentials label (``credentials: bob / v``, ``creds
    bob:v``, ``login: bob/v``): the password, when it is a value (not a placeholder); a
    token only (a digit, a symbol or both cases, or quoted) after ``login`` or a comma,
    so "login: read/write" and "credentials: bob, retrying" stay."""
    value = m.group("secret")
    if _SIGV4_SCOPE.match(value):
        return False  # (fix21b) a SigV4 credential's scope after its key id (its own
        # detector's): ``X-Amz-Credential=AKIA…/20261202/us-east-1/s3/aws4_request``
    if not plausible_value(value, prose_allowed=False) or not plausible_value(
        m.group("user"), prose_allowed=True
    ):
        return False
    if m.group("pair") == ":" and _CLOCK_USER.search(m.group("user")):
        clock, escape, rest = value.partition("\\")  # (a JSON string's ``\n`` ends it)
        if _CLOCK.fullmatch(clock) and (not escape or rest[:1] in ("n", "r", "t")):
            return False  # (fix22c) a date and time, or a time, split at its colon:
            # ``Last login: 2026-11-29T21:14:00Z`` is a record
    if value[:1] in "\"'":
        return True
    if value[:2] == "//" and m.group("pair") == ":":
        return False  # a URL (``SSO_LOGIN=https://sso.acme.com:8443/``)
    if _LAST_WORD.sub("", m.group("label"))[:1] in "lL" or "," in m.group("pair"):
        return _token_shaped(value)
    return True


def _wifi(m: re.Match[str]) -> bool:
    """The ``P`` field of a Wi-Fi QR code's text: ``WIFI:`` begins it, no ``;;`` between."""
    head = m.string.rfind("WIFI:", max(0, m.start() - 512), m.start() + 5)
    return head != -1 and ";;" not in m.string[head : m.start()] and _anything(m)


def _user_password(m: re.Match[str]) -> bool:
    value = m.group("secret")
    return not _NOT_A_PASSWORD.fullmatch(value) and plausible_value(value, prose_allowed=False)


_URI_SCHEMES = frozenset(["mailto", "sip", "sips", "xmpp", "tel", "acct", "im", "pres", "news"])


def _user_at_host(m: re.Match[str]) -> bool:
    """``user:password@host`` outside a URL: a user that is no URI scheme or number and
    a password that reads as a token."""
    user, value = m.group("user"), m.group("secret")
    if user.lower() in _URI_SCHEMES or user.isdigit():
        return False
    return _token_shaped(value) and plausible_value(value, prose_allowed=False)


_USER_PASSWORD_HOST = re.compile(
    r"(?<![\w.\-/:@])(?P<user>[A-Za-z0-9_][\w.\-]{0,63}):"
    r"(?P<secret>[^\s:@/'\"<>`]{1,256})@[A-Za-z0-9\[]"
)
# Its colon with what follows it: a literal first, which the regex engine finds with a
# fast scan (the whole pattern, with a lookbehind first, is tried at every character).
_PASSWORD_HOST = re.compile(r":[^\s:@/'\"<>`]{1,256}@[A-Za-z0-9\[]")
_USER_RUN = re.compile(r"[\w.\-]{1,64}\Z")


def _users_at_hosts(text: str) -> list[re.Match[str]]:
    """``_USER_PASSWORD_HOST.finditer(text)``, found from its colons. A match holds one
    colon (neither the user nor the password has one), with the password and ``@host``
    after it: ``_PASSWORD_HOST`` there, each found once (no colon inside another). The
    lookbehind puts the match's start where the run of the user's characters before
    that colon starts, so it is matched there only; matches do not overlap."""
    found: list[re.Match[str]] = []
    reach = 0
    for tail in _PASSWORD_HOST.finditer(text):
        colon = tail.start()
        user = _USER_RUN.search(text, max(reach, colon - 64), colon)
        if user is None:
            continue
        m = _USER_PASSWORD_HOST.match(text, user.start())
        if m is not None:
            found.append(m)
            reach = m.end()
    return found


def _element(m: re.Match[str]) -> bool:
    """An XML element or a .NET ``<add key=… value=…/>`` named like a secret."""
    return _labelled_value(m.group("key"), "=", m.group("secret")) is True


def _escaped_key(m: re.Match[str]) -> bool:
    """(fix21a) A ``.properties`` value whose escaped key holds a secret's label in one of
    its pieces (``mail.smtp.password\\:primary``)."""
    value = m.group("secret")
    return any(
        _labelled_value(piece, "=", value) is True for piece in _dumps.key_pieces(m.group("key"))
    )


_LOCATION = re.compile(
    r"(?:[A-Za-z_][\w\-]{0,80}|[0-9]{1,9})(?:\.(?:[A-Za-z_][\w\-]{0,80}|[0-9]{1,9})){0,12}"
)
"""The names of a pydantic error's location, before a union's or a validator's tag."""


def _validation_input(m: re.Match[str]) -> bool:
    """A pydantic error's ``input_value`` under a location named like a secret."""
    line = m.group("key").rstrip(" \t\r")
    names = _LOCATION.match(line)
    if names is None or (names.end() < len(line) and line[names.end()] != "."):
        return False  # no location: a line of prose
    return _labelled_value(_item_location(names.group()), "=", m.group("secret")) is True


_ITEM_INDEX = re.compile(r"(?:\.[0-9]{1,9}){1,4}\Z")


def _item_location(location: str) -> str:
    """An item of a list field named as the plural of a secret's label is judged under
    the singular: ``passwords.0`` as ``password`` (``api_keys.0`` needs none); any other
    location as it is (``tokens`` alone may count tokens: only an item is one)."""
    index = _ITEM_INDEX.search(location)
    if index is None:
        return location
    field = location[: index.start()]
    head, dot, last = field.rpartition(".")
    if is_secret_label(field) is True:
        return location
    for cut in (1, 2):
        if len(last) > cut + 2 and last.endswith("es"[2 - cut :]):
            singular = head + dot + last[:-cut]
            if is_secret_label(singular) is True:
                return singular
    return location


_LOC_ITEM = re.compile(r"[\"']([^\"'\\]{1,80})[\"']|(?<![\w.\-])([0-9]{1,9})(?![\w.\-])")


def _error_input(m: re.Match[str]) -> bool:
    """A validation error's ``input`` under a ``loc`` whose last name is a secret's (an
    index after a plural one: ``["passwords", 0]``, ``_item_location``)."""
    names = [name or index for name, index in _LOC_ITEM.findall(m.group("key"))]
    if not names or (names[0].isdigit() and len(names) == 1):
        return False
    location = _item_location(".".join(names))
    return _labelled_value(location, "=", m.group("secret")) is True


_VALIDATION_OPEN = re.compile(
    r"[ \t|]{0,40}(?P<key>[\w\-][^\r\n]{0,300})"
    r"\r?\n[ \t|]{1,40}[^\r\n]{0,600}?"
    r"\[type=(?!missing,)[\w\-]{1,80}, input_value=(?P<open>[\[{(])"
)
_LOC_OPEN = re.compile(
    r"[\"']loc[\"'][ \t]{0,3}:[ \t]{0,3}[\[(](?P<key>[^\[\](){}\r\n]{1,400})[\])]"
    r"(?:[ \t]{0,3},[ \t]{0,3}[\"'](?!input[\"'])\w{1,20}[\"'][ \t]{0,3}:[ \t]{0,3}"
    r"(?:\"(?:[^\"\\\r\n]|\\.){0,1024}\"|'(?:[^'\\\r\n]|\\.){0,1024}'"
    r"|[\w.\-]{1,40})){0,3}"
    r"[ \t]{0,3},[ \t]{0,3}[\"']input[\"'][ \t]{0,3}:[ \t]{0,3}(?P<open>[\[{(])"
)
_LOC_NEEDLE = re.compile(r"[\"']loc[\"']")
_TUPLE = re.compile(r"\((?P<items>[^()\r\n]{0,8192})\)")
_INPUT_VALUE = "input_value="


def _error_containers(text: str) -> list[re.Match[str]]:
    """The values of a list, a tuple or a dict a pydantic error shows as the input of a
    field named as a secret: in its text (the location on one line, ``input_value=``
    on the next) and as data (``exc.errors()``, ``exc.json()``: ``"loc"`` then
    ``"input"``). Each value is judged as one under the field's name (``_nested``): the
    container keeps its brackets, its keys and its length (``['[redacted:secret]',
    '[redacted:secret]']``)."""
    found: list[re.Match[str]] = []
    reach = 0
    at = text.find(_INPUT_VALUE)
    while at != -1:
        opening = at + len(_INPUT_VALUE)
        if opening < len(text) and text[opening] in "[{(" and at >= reach:
            line = text.rfind("\n", 0, at) + 1
            above = text.rfind("\n", 0, max(0, line - 1)) + 1 if line else -1
            m = _VALIDATION_OPEN.match(text, above) if above >= 0 else None
            if m is not None and m.start("open") == opening:
                key = m.group("key").rstrip(" \t\r")
                names = _LOCATION.match(key)
                if names is not None and (names.end() == len(key) or key[names.end()] == "."):
                    label = _item_location(names.group())
                    # (pydantic cuts an input's repr near 100 characters: 4 KB at most
                    # is read, so a line of thousands of them is read in linear time)
                    stop = text.find(", input_type=", opening, opening + 4096)
                    if "\n" in text[opening:stop]:
                        stop = -1
                    if stop != -1 and "..." in text[opening:stop]:
                        # pydantic cut a long input's repr (``['v1', ...v9', 'v10']``):
                        # the items whole on either side of the cut, and the piece of
                        # one after it, judged one by one
                        _cut_items(text, opening + 1, stop - 1, label, found)
                        reach = stop
                    else:
                        reach = _error_container(text, opening, label, found)
        at = text.find(_INPUT_VALUE, at + 1)
    labels: dict[str, str] = {}  # a location's label, read once per text (they repeat)
    for needle in _LOC_NEEDLE.finditer(text):
        if needle.start() < reach:
            continue
        m = _LOC_OPEN.match(text, needle.start())
        if m is None:
            continue
        written = m.group("key")
        named = labels.get(written)
        if named is None:
            loc = [name or index for name, index in _LOC_ITEM.findall(written)]
            if not loc or (loc[0].isdigit() and len(loc) == 1):
                named = labels[written] = ""
            else:
                named = labels[written] = _item_location(".".join(loc))
        if not named:
            continue
        reach = _error_container(text, m.start("open"), named, found)
    _nested.forget()
    found.sort(key=re.Match.start)
    return found


def _cut_items(text: str, start: int, end: int, label: str, found: list[re.Match[str]]) -> None:
    """The items of a list or a tuple pydantic cut in the middle (``'v1', ...v9', 'v10'``)
    between ``start`` and ``end``, judged under ``label``; the pieces of one on either
    side of the cut too. The quotes pair from the start before the cut and from the end
    after it (a repr's head and tail): one left over opens, or closes, a piece."""
    judge = list_item_judge(label)
    if is_secret_label(label) is not True or judge is None:
        return
    cut = text.find("...", start, end)
    head = [at for at in range(start, cut) if text[at] in "'\""]
    tail = [at for at in range(cut + 3, end) if text[at] in "'\""]
    spans = [(head[k] + 1, head[k + 1]) for k in range(0, len(head) - 1, 2)]
    if len(head) % 2:
        spans.append((head[-1] + 1, cut))
    if len(tail) % 2:
        spans.append((cut + 3, tail[0]))
    spans += [(tail[k] + 1, tail[k + 1]) for k in range(len(tail) % 2, len(tail) - 1, 2)]
    for begin, stop in spans:
        value = text[begin:stop]
        if begin < stop and judge(value) and not quoted_prose(value):
            span = SPAN.match(text, begin, stop)
            if span is not None and span.end() == stop:
                found.append(span)


def _error_container(text: str, opening: int, label: str, found: list[re.Match[str]]) -> int:
    """Judge the container opening at ``opening`` under ``label`` (when it names a
    secret); return where it ends."""
    if is_secret_label(label) is not True:
        return opening
    if text[opening] != "(":
        return _nested.read(text, opening, label, found)
    m = _TUPLE.match(text, opening)
    if m is None:
        return opening
    judge = list_item_judge(label)
    for item in _ITEM.finditer(text, m.start("items"), m.end("items")):
        part = "v" if item.group("v") is not None else "n"
        value = item.group(part)
        if value and judge is not None and judge(value) and not quoted_prose(value):
            span = SPAN.match(text, item.start(part), item.end(part))
            if span is not None:
                found.append(span)
    return m.end()


def _spaced(m: re.Match[str], key: str) -> bool:
    """A value after its label and only a space, a tab, ``is`` or a table's ``|``
    (``ENV API_KEY v``, ``setx TOKEN v``, ``password is v``, ``| password | v |``): a
    quoted value is one as after ``=``; an unquoted one only when it reads as a token (a
    digit or a symbol in it, or both cases, and not a word, a number, a date or a
    version), so prose
    stays ("password is required", "token expired at 12:00", "session 42 closed")."""
    if key in ("secret", "secrets") and _kube_name(m):
        return False
    value, end = m.group("secret"), m.end("secret")
    if value[:1] not in "\"'\\<" and m.string[end : end + 1] in _CUTS:
        # judged with its tail glued on by a character the pattern stopped at, as it
        # will be cut (``password is 0000`0`` is no number)
        value = m.string[m.start("secret") : _cut_rest(m.string, end, True)]
    global _SPACED_SEEN
    seen = _SPACED_SEEN
    if seen[0] is not m.string:  # the verdicts of this text's values, judged once each
        seen = _SPACED_SEEN = (m.string, {})
    sep = m.group("sep")
    if _TOWARDS.search(sep) and not _SET_TO.search(sep) and _set_before(m.string, m.start()):
        sep = " set to "  # (leak21) "changed the password to v": a setting's value
    verdict = seen[1].get((key, sep, value))
    if verdict is None:
        verdict = seen[1][key, sep, value] = _spaced_value(key, sep, value)
    if verdict is False and value[:1].islower() and _SAID_IS.search(sep):
        # (leak21) "the wifi password is correct horse battery staple"
        return _spoken_passphrase(m.string, key, m.start("secret"), m.end("secret"))
    if verdict is not _NETRC:
        return verdict is True
    return not netrc_context(m.string[max(0, m.start() - NETRC_WINDOW) : m.start()])


# (leak21) A verb of setting before a secret's label, a few words between ("changed the
# password to v", "reset her token to v", "set my wifi password to v"): what follows
# ``to`` is the value given, judged as after ``set to``; a place still is none.
_SETTING_VERB = re.compile(
    r"(?<![\w\-])(?:set|sets|setting|change|changed|changes|changing|reset|resets|"
    r"resetting|update|updated|updates|updating|rotate|rotated|rotates|rotating|switch|"
    r"switched|switches|switching)(?:[ \t]{1,3}[A-Za-z'\u2019]{1,20}){0,3}[ \t]{0,3}\Z",
    re.IGNORECASE,
)
_SET_WINDOW = 90


def _set_before(text: str, key_at: int) -> bool:
    """Whether a verb of setting stands before the label at ``key_at`` on its line, at
    most three words between (``_SETTING_VERB``)."""
    begin = max(0, key_at - _SET_WINDOW, text.rfind("\n", 0, key_at) + 1)
    return _SETTING_VERB.search(text, begin, key_at) is not None


# (leak21) A passphrase spoken after ``is`` or ``was`` (``_spoken_passphrase``).
_SAID_IS = re.compile(r"(?<![\w])(?:is|was)(?:[ \t]{1,3}now)?[ \t:]*\Z", re.IGNORECASE)
_SPOKEN_WORD = re.compile(r"[a-z]{2,30}")
_PROSE_TAIL = re.compile(r"(?:ed|en|ing|ly)\Z")
_NOT_IN_PASSPHRASE = _lexicon(
    """every each all any some only once twice never always still already again now here
    there yesterday today tomorrow daily weekly monthly until since after before behind
    when where while which who what how why very too also just more most less least
    days hours minutes seconds weeks months years characters letters digits symbols"""
)
"""Words of prose about a password (time, degree, measure) that a spoken passphrase
holds none of, besides ``_FUNCTION_WORDS``."""


def _spoken_passphrase(text: str, key: str, start: int, end: int) -> bool:
    """Whether the lowercase word at ``start`` after a password's label and ``is`` or
    ``was`` opens a passphrase (the narrow rule, README): four to ten lowercase words of
    2-30 letters running to the end of the line, a stop or a quote (``_passphrase``'s
    reach), none a function word or a word of time, degree or measure, the first no
    participle or adverb (``-ed``, ``-en``, ``-ing``, ``-ly``), and not all prose
    (``prose_run``). "the password is correct horse battery staple" goes; "the password
    is too short", "is stored encrypted at rest", "is hidden behind asterisks" stay."""
    if not key.lower().endswith(PHRASE_HEADS):
        return False
    reach = _passphrase(text, end, start)
    words = text[start:reach].rstrip(" \t.'\"").split()
    if not 4 <= len(words) <= 10 or _PROSE_TAIL.search(words[0]):
        return False
    if not all(_SPOKEN_WORD.fullmatch(word) for word in words):
        return False
    if not _FUNCTION_WORDS.isdisjoint(words) or not _NOT_IN_PASSPHRASE.isdisjoint(words):
        return False
    return not prose_run(" ".join(words))


# (fix20b) Kubernetes names a Secret object by its kind: ``kubectl describe secret NAME``,
# ``oc -n ns get secrets NAME``, ``secret "NAME" not found``. The name is a DNS-1123 name,
# lowercase; what the Secret holds is never written there.
_KUBE_NAME = re.compile(r"[\"']?([a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?)[\"']?")
_KUBE_COMMAND = re.compile(
    r"(?:kubectl|oc)(?:[ \t]{1,5}[\w.=/:@-]{1,100}){0,8}?[ \t]{1,5}"
    r"(?:get|describe|delete|edit|patch|label|annotate|replace|apply|explain)"
    r"(?:[ \t]{1,5}-[\w.=/:@-]{1,100}){0,8}[ \t]{1,5}\Z"
)
_KUBE_OUTCOME = re.compile(
    r"[ \t]{1,3}(?:not found|is forbidden|already exists|created|deleted|configured|patched|"
    r"unchanged|labeled|annotated|edited|replaced)\b"
)


def _kube_name(m: re.Match[str]) -> bool:
    """Whether the value after ``secret``/``secrets`` is a Kubernetes object's name: a
    DNS-1123 name after a ``kubectl``/``oc`` verb on its line, or quoted before what the
    API server says of it ("not found", "created")."""
    text, at = m.string, m.start("secret")
    name = _KUBE_NAME.match(text, at)
    if name is None or (name.group()[:1] != name.group()[-1:] and name.group()[:1] in "\"'"):
        return False
    end = name.end()
    if end < len(text) and not text[end].isspace() and text[end] not in ",;.)":
        return False  # more glued on: not the name alone
    if name.group()[:1] in "\"'" and _KUBE_OUTCOME.match(text, end):
        return True
    key_at = m.start("key")
    start = max(text.rfind("\n", 0, key_at) + 1, key_at - 300)
    command = max(text.rfind("kubectl", start, key_at), text.rfind("oc ", start, key_at))
    return (
        command >= 0
        and (command == 0 or not (text[command - 1].isalnum() or text[command - 1] in "_-"))
        and _KUBE_COMMAND.match(text, command, key_at) is not None
    )


_NETRC: Any = "netrc"
"""``_spaced_value``'s verdict for a value after ``password`` and a blank: a secret
unless a ``.netrc`` entry stands before it (read per match, in its text)."""
_SPACED_SEEN: tuple[str, dict[tuple[str, str, str], Any]] = ("", {})


def _spaced_value(key: str, sep: str, value: str) -> Any:
    """``_spaced``'s verdict from the key, the separator and the value (its tail glued
    on): ``True``, ``False`` or ``_NETRC``."""
    if (
        key[:1] == "-"
        and not sep.strip(" \t")
        and not value.isalpha()
        and is_secret_label(key.lstrip("-")) is True
        and key.lower().endswith(FLAG_ENDS)
    ):
        # (leak21) a flag's argument (``--password Ab12=x``, ``--api-key a:b``): judged
        # as after ``=`` (a key line's shape inside it is the value's own)
        return _labelled_value(key, "=", value) is True
    if code_label(key) and code_value(value):
        return True  # a PIN or a passcode is a number: ``PIN 4821``, ``passcode 482913``
    if key.lower() in _CARD_CODES and _CARD_CODE.fullmatch(value):
        return True  # a card's verification value: ``cvv 123``, ``CVC 4821``
    if (
        value[:1] not in "\"'\\<"
        and not _token_shaped(value)
        # a passphrase of words joined (``correct-horse-battery-staple``), after a
        # password's label: judged as after ``=`` ("password is out-of-date" stays)
        and not (key.lower().endswith(PHRASE_HEADS) and _JOINED_WORDS.fullmatch(value))
    ):
        return False
    if _named_value(key, value):
        return False  # ``key pk_test_…``, ``address bc1q…``: a public identifier
    if (
        _TOWARDS.search(sep)
        and not _SET_TO.search(sep)  # "token set to v": a setting's value, not a place
        and not _towards_value(value.strip("\\\"'`"))
    ):
        return False  # where or what kind, not what: "reset your password to git@host:…"
    if _SET_TO.search(sep) and _PLACE.match(value.strip("\\\"'`")):
        return False  # (leak21) a place after "set to" still is none
    if _labelled_value(key, "=", value) is not True and not (
        # a bare ``key`` in a sentence: "use key Qx7pL2 to sign" (not "press key F5",
        # nor a validation message's ``missing key 'user_id'``)
        len(value) >= 6
        and is_secret_label(key) is None
        and not named_by_words(value.strip("\"'`"))
        and plausible_value(value, prose_allowed=False)
        and _token_shaped(value.strip("\"'`"))
    ):
        return False
    # a ``.netrc`` entry (``machine h login u password p``): its own detector names it
    if key.lower() != "password" or sep.strip(" \t"):
        return True  # words or a mark between: no ``.netrc`` entry ("password is v")
    return _NETRC


def _towards_value(value: str) -> bool:
    """Whether what follows "to" or "as" after a secret's word is the value ("changed
    the password to Tr0ub4dor&3"), not a place, a person, a record or a format ("sent the
    token to user123", "moved the key to ORD-12345", "the key as base64"): a credential's
    shape, letters of one case too many for a word, or a symbol inside; not a place
    opening it (an address, a URL, a path, a host) nor an issue's key."""
    if _PLACE.match(value) or _ISSUE_KEY.fullmatch(value):
        return False
    if credential_shaped(value) or (_ONE_CASE_RUN.fullmatch(value) and _letter_token(value)):
        return True
    return not _INNER_SYMBOLS.isdisjoint(value.rstrip(".,;:!?"))


_INNER_SYMBOLS = frozenset("!#$%&*+<>?@^~|=")
"""Symbols a password holds and a name, a path or a record's key does not."""
_TOWARDS = re.compile(r"(?<![\w])(?:to|as|on)[ \t:]*\Z", re.IGNORECASE)
"""A connector after which a value may be a place (``_CONNECTORS``: "password to v";
Finnish "on", English's "is", is English's "on" too: "reset your password on host")."""
_SET_TO = re.compile(r"(?<![\w])(?:set|changed)[ \t]{1,3}to[ \t:]*\Z", re.IGNORECASE)
"""The connectors that say a value was given ("token set to v", ``_CONNECTORS``)."""
_PLACE = re.compile(
    r"[\w.+\-]{0,64}@[\w.\-]{1,253}(?::\S{0,256})?|[A-Za-z][\w+.\-]{0,20}://\S{0,2048}"
    r"|[/~]\S{0,2048}|[\w\-]{1,63}(?:\.[\w\-]{1,63}){0,8}\.[A-Za-z]{2,24}(?::\S{0,256})?"
    r"(?:/\S{0,2048})?(?![\w@])"
)
"""A place a value may open with after "to": an address, a URL, a path, a host."""
# Words joined by ``-``, ``_`` or ``.``: four or more, or three and a number (a
# passphrase: ``correct-horse-battery-staple``, ``tidy_lamp_orbit_42``).
_JOINED_WORDS = re.compile(
    r"[A-Za-z]{2,16}(?:[\-_.][A-Za-z]{2,16}){3,11}(?:[\-_.]?[0-9]{1,6})?"
    r"|[A-Za-z]{2,16}(?:[\-_.][A-Za-z]{2,16}){2}[\-_.]?[0-9]{1,6}"
)


# A value that calls for the key rather than holding it: ``get_random_secret_key()``,
# ``env(`` or ``config(`` before the quoted name the quote cut off, ``env(NAME)``.
_KEY_CALL = re.compile(r"[A-Za-z_][\w.]{0,80}\((?:[\w.]{0,80}\))?")


def _framework_key(value: str) -> bool:
    """Whether an unquoted value under a secret key's name holds one of the characters
    only that name's detector reads over (``&``, ``(``, ``)``: other values end there),
    and is no call for the key and no placeholder."""
    return (
        ("&" in value or "(" in value or ")" in value)
        and _KEY_CALL.fullmatch(value) is None
        and plausible_value(value, prose_allowed=False)
    )


_CAPABILITY_KEYS = (
    "invite",
    "invite_code",
    "invitation",
    "invitation_token",
    "reset",
    "reset_code",
    "reset_key",
    "magic",
    "magic_link",
    "magiclink",
    "verification",
    "verification_code",
    "verify",
    "confirm",
    "confirmation",
    "ticket",
    "license",
    "licence",
    "license_key",
    "ak",
    "h",
    "hash",
    "unsubscribe",
)
_ISSUE_KEY = re.compile(r"[A-Z][A-Z0-9]{1,9}-[0-9]{1,7}")
"""An issue tracker's key (``OPS-42``): a ticket's name, not a service ticket."""
_TOKEN_ONLY = frozenset(["ak", "h", "hash", "license", "licence", "license_key"])
"""Capability keys whose number is no code (``?h=1080`` is an image's height)."""
_AK_BEFORE = re.compile(r"(?<![\w\-])ak(?:\\{0,3}[\"'])?[ \t]{0,3}[=:\uff1a]", re.IGNORECASE)


def _ak_before(m: re.Match[str]) -> bool:
    """``SK=v`` is a secret key when ``AK=`` is written within the 200 characters before."""
    start = m.start()
    return _AK_BEFORE.search(m.string, max(0, start - 200), start) is not None and (
        plausible_value(m.group("secret"), prose_allowed=False)
    )


_CARD_CODES = frozenset(["cvv", "cvv2", "cvc", "cvc2", "csc"])
_CARD_CODE = re.compile(r"[0-9]{3,4}[.,;]?")


def _capability(m: re.Match[str]) -> bool:
    """A URL parameter under a capability key (``invite``, ``reset``, ``ticket``, ``h``):
    a code (``482913``) or a token (a digit or a symbol with letters, or both cases; 6
    characters or more), not a word, a flag or a page number."""
    value = m.group("secret")
    if not plausible_value(value, prose_allowed=False):
        return False
    if _ISSUE_KEY.fullmatch(value):
        return False
    if code_value(value) and m.group("key").lower() not in _TOKEN_ONLY:
        return True
    return len(value) >= 6 and _token_shaped(value)


_LETTER_TOKEN = 24
"""Letters in a row that no word of prose has (``internationalization``: 20): a token
spelled in letters alone (``abcdefghijklmnopqrstuvwx``) after a secret's word."""


def _letter_token(value: str) -> bool:
    """Whether ``value`` is a token spelled in ASCII letters alone: too long for a word,
    and of ten letters or more (``aaaa…`` is a run, no token)."""
    return (
        len(value) >= _LETTER_TOKEN
        and value.isascii()
        and value.isalpha()
        and len(set(value[:64])) >= 10
    )


def _token_shaped(value: str) -> bool:
    """Whether an unquoted value reads as a token, not as prose: a digit or a symbol in
    it, or both cases, and not a word, an identifier, a number, a date or a version; or
    letters alone, more than a word has (``_letter_token``)."""
    if _letter_token(value):
        return True
    return not plain_run(value) and (credential_shaped(value) or _digit_or_symbol(value))


_LISTED = re.compile(
    r"(?:\\{0,3}[\"'])?(?P<key>[\w.\-]{1,80})\\{0,3}[\"'][ \t]{0,5}:[ \t]{0,5}"
    r"(?:\[[ \t]{0,5}(?P<secret>(?:\\{0,3}[\"']|-?[0-9])[^\]\[\r\n]{0,8192}[\"'0-9])[ \t]{0,5}\]"
    r"|\([ \t]{0,5}(?P<items>(?:\\{0,3}[\"']|-?[0-9])[^()\r\n]{0,8192}[\"'0-9])[ \t]{0,5},?"
    r"[ \t]{0,5}\))"
)
"""A list of strings under a key: ``"tokens": ["v1", "v2"]`` (JSON, escaped JSON, a
Python repr; a tuple in a repr: ``'auth': ('bob', 'v')``)."""
_LISTED_OPEN = re.compile(r"[\"'][ \t]{0,5}:[ \t]{0,5}[\[(]")
_ITEM = re.compile(
    r"(?P<e>\\{0,3})(?P<q>[\"'])(?P<v>[^\"'\\\r\n]{0,1024})(?P=e)(?P=q)"
    r"|(?<![\w.\-])(?P<n>-?[0-9]{1,64}(?:\.[0-9]{1,64})?(?:[eE][+-]?[0-9]{1,4})?)(?![\w.])"
)
_PASSWORDS = re.compile(r"pass|pwd|secret", re.IGNORECASE)
PAIR_KEY = re.compile(r"(?:auth|credentials?|creds?|login)\Z", re.IGNORECASE)
"""A key naming a user-and-password pair: a list under it starts with the user."""


def list_item_judge(key: str) -> Callable[[str], bool] | None:
    """How each item of a list under ``key`` is judged a secret (``None``: the key
    names none): under a singular key (and a plural of a password or a secret) every
    real value; under another plural key, and a pair's key that names no secret alone
    (``login``), an item that looks like a credential."""
    if is_secret_label(key) is True or (key[-1:] in "sS" and _PASSWORDS.search(key)):
        return functools.partial(plausible_value, prose_allowed=False)
    if PAIR_KEY.search(key) or (key[-1:] in "sS" and is_secret_label(key[:-1]) is not False):
        return credential_shaped  # (``login`` alone names no secret: dates, ids stay)
    return None


def _listed_values(text: str) -> list[re.Match[str]]:
    """Each secret item of a list of strings under a secret's key (``SPAN`` matches,
    one per item, so the list keeps its length and its other items): under a singular
    key every real value goes (``"password": ["v1", "v2"]``); under a plural one, each
    item that looks like a credential (a tokeniser's ``"tokens": ["Hello", " world"]``
    stays), but every real value under a plural of a password or a secret
    (``"passwords": ["hunter2"]``); under a key naming a user-and-password pair
    (``auth``, ``credentials``, ``creds``, ``login``), the first item is the user and
    stays, unless it reads as a credential itself: ``"auth": ["bob", "v"]`` keeps
    ``bob``. A number is an item too (``"pin": [4821]``; its placeholder is made a
    string: ``_engine._as_strings``)."""
    found: list[re.Match[str]] = []
    reach = 0
    for opened in _LISTED_OPEN.finditer(text):
        if opened.start() < reach:
            continue
        closed = at = opened.start()  # the key's closing quote, then its start
        while at > 0 and closed - at < 3 and text[at - 1] == "\\":
            at -= 1
        ends = at
        while at > 0 and ends - at < 80 and (text[at - 1].isalnum() or text[at - 1] in "_.-"):
            at -= 1
        if at == ends:
            continue
        m = _LISTED.match(text, at)
        group = "secret" if m is not None and m.group("secret") is not None else "items"
        if m is None or m.start(group) < opened.end():
            continue
        reach = m.end()
        key = m.group("key")
        judge = list_item_judge(key)
        if judge is None:
            continue
        pair = PAIR_KEY.search(key) is not None
        start, end = m.span(group)
        for item in _ITEM.finditer(text, start, end):
            part = "v" if item.group("v") is not None else "n"
            value = item.group(part)
            if not value or not judge(value):
                continue
            if part == "v" and quoted_prose(value):
                continue  # a validation error's message: ``"password": ["is required"]``
            if part == "v" and pair and item.start() == start and not credential_shaped(value):
                continue  # the user of a pair
            span = SPAN.match(text, item.start(part), item.end(part))
            assert span is not None  # a value is never empty
            found.append(span)
    return found


FLOW_SCREEN = re.compile(r"\[[^\[\]\r\n{}<>`]{0,4095},")
"""Two items or more: a comma inside the brackets."""
_FLOW_OPEN = re.compile(r"[:=][ \t]{0,5}\[")
_FLOW = re.compile(
    r"(?P<key>[\w.\-]{1,80})[ \t]{0,5}[:=][ \t]{0,5}\["
    r"(?P<secret>[^\[\]\r\n{}<>`]{1,4096})\]"
)
_FLOW_ITEM = re.compile(
    # (leak21) line breaks written out before and after an item (a repr's ``[\\n  "v",``)
    r"(?:[ \t]|\\n)*(?:\"(?P<d>[^\"\r\n]{0,1024})\"|'(?P<s>[^'\r\n]{0,1024})'|(?P<w>[^,]*))"
    r"(?:[ \t]|\\n)*(?:,|\Z)"
)


# (leak21) TOML's values over several lines under a key: a multi-line string, literal
# (``\'\'\'``) or basic (``"""``, its lines maybe ended by a line-continuation
# backslash), and an array whose items stand on the lines after ``[``.
_TOML_OPEN = re.compile(
    r"(?:\'\'\'|\"\"\"|=[ \t]{0,5}\[)(?=[ \t]{0,40}\\{0,2}[ \t]{0,40}(?:\r?\n|\\n))"
)
"""An opening that ends its line (the C scan rejects a flood of quotes at once)."""
_TOML_KEY = re.compile(
    r"[ \t]{0,40}(?P<q>[\"']?)(?P<key>[A-Za-z0-9_\-.]{1,80})(?P=q)[ \t]{0,5}=[ \t]{0,5}\Z"
)


def _toml_key(text: str, at: int, end: int) -> re.Match[str] | None:
    """The key line before ``at`` (``end``: past its ``=``): from the line's start (a
    line break, also written out, or the text's start), or after a string's opening
    quote on that line (a repr's ``'password = \'\'\'…``)."""
    begin = max(0, at - 130)
    start = max(text.rfind("\n", begin, at), text.rfind("\r", begin, at)) + 1
    written = text.rfind("\\n", begin, at)
    if written != -1 and written + 2 > start:
        start = written + 2
    if not start and begin:
        return None  # no line's start within reach
    head = _TOML_KEY.match(text, start, end)
    if head is None:
        quote = max(text.rfind("'", start, at), text.rfind('"', start, at))
        if quote != -1:
            head = _TOML_KEY.match(text, quote + 1, end)
    return head


_TOML_LINE_END = re.compile(r"[ \t]{0,40}\\{0,2}[ \t]{0,40}(?:\r?\n|\\n)")
_TOML_GAP = r"(?:\s|\\n){0,200}"
_TOML_ITEM = re.compile(
    _TOML_GAP
    + r"(?:#(?:[^\r\n\\]|\\(?!n)){0,512}"
    + _TOML_GAP
    + r")*(?:\\?\"((?:[^\"\\\r\n]|\\(?!\")){0,1024})\\?\"|'([^'\r\n\\]{0,1024})')"
    + _TOML_GAP
    + ",?"
)
_TOML_MAX = 8192
_TOML_CLOSE = re.compile(r"(?:\s|\\n){0,200}\]")


def _toml_values(text: str) -> list[re.Match[str]]:
    """SPAN matches over what a TOML key naming a secret holds over several lines: a
    multi-line string's text, from its first to its last non-blank character
    (``password = \'\'\'`` then ``v`` then ``\'\'\'``; ``password = \"\"\"\\`` then
    ``v \\``), and each item of an array whose items start on the line after ``[``,
    judged as in a JSON list (``list_item_judge``). A key naming no secret keeps its
    value; a string or array on one line is the labelled layer's."""
    found: list[re.Match[str]] = []
    reach = 0
    for opened in _TOML_OPEN.finditer(text):
        at = opened.start()
        if at < reach:
            continue
        line = _TOML_LINE_END.match(text, opened.end())
        if line is None:
            continue  # one line: the labelled layer's
        head = _toml_key(text, at, at + (opened.group()[0] == "="))
        if head is None:
            continue
        key = head.group("key")
        if opened.group()[0] != "=":
            if is_secret_label(key) is not True:
                continue
            close = text.find(opened.group(), line.end(), line.end() + _TOML_MAX)
            if close == -1:
                continue
            reach = close + 3
            start, end = line.end(), close
            start, end = _toml_trimmed(text, start, end)
            span = SPAN.match(text, start, end) if start < end else None
            if span is not None and span.end() == end and not _toml_reference(text[start:end]):
                found.append(span)
            continue
        judge = list_item_judge(key)
        if judge is None:
            continue
        position = opened.end()
        items: list[tuple[str, int, int]] = []
        while True:
            item = _TOML_ITEM.match(text, position, position + _TOML_MAX)
            if item is None:
                break
            group = 1 if item.group(1) is not None else 2
            items.append((item.group(group), *item.span(group)))
            position = item.end()
        closing = _TOML_CLOSE.match(text, position)
        if closing is None:
            continue  # (the items judged only in an array that closes)
        reach = closing.end()
        for value, start, end in items:
            if not judge(value) or quoted_prose(value):
                continue
            span = SPAN.match(text, start, end)
            if span is not None and span.end() == end:
                found.append(span)
    return found


def _toml_trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """A multi-line string's text without the blanks, line breaks (also written out,
    ``\\n`` in a repr) and line-continuation backslashes around it."""
    while start < end:
        if text.startswith("\\n", start):
            start += 2
        elif text[start] in " \t\r\n\\":
            start += 1
        else:
            break
    while end > start:
        if text.endswith("\\n", start, end):
            end -= 2
        elif text[end - 1] in " \t\r\n\\":
            end -= 1
        else:
            break
    return start, end


def _toml_reference(value: str) -> bool:
    """Whether a multi-line string holds a reference alone (``${DB_PASSWORD}``)."""
    return value[:1] in "${%" and bracketed_verdict(value) is False


# (leak21) Terraform's state (``terraform.tfstate``) and ``terraform show -json``: an
# instance's ``attributes`` (a resource's ``values``) then its ``sensitive_attributes``
# (paths: ``[{"type": "get_attr", "value": "result"}]``) or ``sensitive_values``
# (``{"result": true}``) naming which of them are secret; and a few resource types
# whose secret attributes are known whether marked or not.
_TF_MARK = re.compile(
    r'\\{0,3}"(sensitive_attributes|sensitive_values|type)\\{0,3}"[ \t]{0,5}:[ \t]{0,5}'
)
_TF_TYPES = {
    "random_password": ("result", "bcrypt_hash"),
    "tls_private_key": ("private_key_pem", "private_key_openssh", "private_key_pem_pkcs8"),
    "aws_iam_access_key": ("secret", "ses_smtp_password_v4"),
    "aws_iam_user_login_profile": ("password",),
    "azuread_application_password": ("value",),
    "azuread_service_principal_password": ("value",),
    "google_service_account_key": ("private_key",),
}
_TF_TYPE = re.compile(r'\\{0,3}"([a-z0-9_]{1,64})\\{0,3}"')
_TF_REGION = re.compile(r'\\{0,3}"(?:attributes|values)\\{0,3}"[ \t]{0,5}:[ \t]{0,5}\{')
_TF_PATH_NAME = re.compile(
    r'get_attr\\{0,3}"[ \t]{0,5},[ \t\r\n]{0,40}\\{0,3}"value\\{0,3}"[ \t]{0,5}:[ \t]{0,5}'
    r'\\{0,3}"([\w\-]{1,80})\\{0,3}"'
)
_TF_TRUE = re.compile(r'\\{0,3}"([\w\-]{1,80})\\{0,3}"[ \t]{0,5}:[ \t]{0,5}true')
_TF_MEMBER = re.compile(
    r'(\\{0,3})"([\w\-]{1,80})\\{0,3}"[ \t]{0,5}:[ \t]{0,5}\\{0,3}"'
    r'((?:[^"\\\r\n]|\\(?!\\{0,2}")[^\r\n]){1,65536})\\{0,3}"'
)
_TF_BACK = 65536
_TF_BLOCK = 4096


def _terraform_values(text: str) -> list[re.Match[str]]:
    """SPAN matches over the string values of a Terraform instance's attributes that
    its ``sensitive_attributes`` or ``sensitive_values`` name, or that its resource's
    type holds secret (``_TF_TYPES``: ``random_password``'s ``result`` and
    ``bcrypt_hash``, ``tls_private_key``'s private keys, ``aws_iam_access_key``'s
    ``secret`` and ``ses_smtp_password_v4``, …). An attribute is read inside its
    instance only: from the ``attributes`` (``values``) object before the mark, up to
    the mark; the type's names from the type to the next resource's type."""
    found: list[re.Match[str]] = []
    if '"type' not in text and '\\"type' not in text:
        return found
    marks = list(_TF_MARK.finditer(text))
    types = [_TF_TYPE.match(text, m.end()) if m.group(1) == "type" else None for m in marks]
    # where the next resource's type is, after each mark (one pass back)
    stops = [len(text)] * len(marks)
    following = len(text)
    for at in range(len(marks) - 1, -1, -1):
        stops[at] = following
        typed = types[at]
        if typed is not None and "_" in typed.group(1) and typed.group(1) != "get_attr":
            following = marks[at].start()
    regions = 0  # the ``attributes``/``values`` objects read so far (in order)
    region_list = list(_TF_REGION.finditer(text)) if any(t is None for t in types) else []
    region_starts = [region.start() for region in region_list]
    for at, mark in enumerate(marks):
        names: set[str] = set()
        typed = types[at]
        if typed is not None:
            if typed.group(1) not in _TF_TYPES:
                continue
            names.update(_TF_TYPES[typed.group(1)])
            begin, stop = typed.end(), stops[at]
        else:
            block = text[mark.end() : mark.end() + _TF_BLOCK]
            if mark.group(1) == "sensitive_attributes":
                names.update(n.group(1) for n in _TF_PATH_NAME.finditer(block))
            else:
                names.update(n.group(1) for n in _TF_TRUE.finditer(block))
            if not names:
                continue
            regions = bisect.bisect_left(region_starts, mark.start(), regions)
            if not regions or region_starts[regions - 1] < mark.start() - _TF_BACK:
                continue
            begin, stop = region_list[regions - 1].end(), mark.start()
        for member in _TF_MEMBER.finditer(text, begin, stop):
            if member.group(2) in names:
                span = SPAN.match(text, member.start(3), member.end(3))
                if span is not None and span.end() == member.end(3):
                    found.append(span)
    return found


def _flow_values(text: str) -> list[re.Match[str]]:
    """Each secret item of a flow sequence of two items or more under a bare secret's
    key, singular or plural (``tokens: [v1, v2]``, ``passwords: ["v", "x"]``): a quoted
    item as in a JSON list (``list_item_judge``); a bare one when it reads as a token or
    a password (``Qx7pLm2R``, ``hunter2``), or is a run of ten letters or more under a
    key naming a secret for certain (``api_keys``, not ``tokens``, a model's count as
    often), or is a word of eight characters or more beside such a token. Bare items go
    all or none: a bare item that is none of these makes the list one of names or rules
    (``secrets: [db-password, api-key]``, ``password_rules: [min12x, upper]``), which
    stays, unless the key names a secret for certain, ends in what it holds
    (``_HELD``) and an item reads as a token: then
    each item is judged on its own (``password: [hunter2, x]``: ``hunter2`` goes, ``x``
    stays). A one-item list stays (a bracketed value, read as one). A SPAN match over
    each secret item: the list keeps its brackets, its commas and its length."""
    found: list[re.Match[str]] = []
    if "[" not in text or FLOW_SCREEN.search(text) is None:
        return found  # a flood of ``k=[v]`` with no comma: one search in C (speed18)
    reach = 0
    for opened in _FLOW_OPEN.finditer(text):
        if opened.start() < reach:
            continue
        at = opened.start()
        while at > 0 and opened.start() - at < 5 and text[at - 1] in " \t":
            at -= 1  # (read back a few characters: no slice of the text before)
        ends = at
        while at > 0 and ends - at < 80 and (text[at - 1].isalnum() or text[at - 1] in "_.-"):
            at -= 1
        if at == ends or (
            at > 0 and text[at - 1] in "\"'\\" and text[ends : ends + 1] in ('"', "'", "\\")
        ):
            continue  # no key, or a quoted one (``_listed_values``); (leak21) a string's
            # opening quote before a key is no key's (``'password: [hunter2, x]'``)
        m = _FLOW.match(text, at)
        if m is None or m.end("key") != ends:
            continue
        reach = m.end()
        found.extend(_flow_items(m))
    for verdicts in (_flow_token, _flow_quoted, _flow_bare):
        verdicts.cache_clear()  # once per value in one text; no value kept past it
    return found


@functools.lru_cache(maxsize=4096)
def _flow_token(value: str) -> bool:
    return _token_shaped(value) and plausible_value(value, prose_allowed=False)


@functools.lru_cache(maxsize=4096)
def _flow_quoted(key: str, value: str) -> bool:
    judge = list_item_judge(key)
    return judge is not None and judge(value) and not quoted_prose(value)


@functools.lru_cache(maxsize=4096)
def _flow_bare(value: str, sure: bool, beside: bool) -> bool:
    """A bare item that is no token: a password (``hunter2``), ten letters or more under
    a key naming a secret for certain (``sure``), eight characters or more beside a
    token (``beside``)."""
    if " " in value or not plausible_value(value, prose_allowed=False):
        return False
    return (
        _nested.password_like(value)
        or (sure and value.isascii() and value.isalpha() and len(value) >= 10)
        or (beside and len(value) >= 8 and not plain_run(value))
    )


_HELD: tuple[str, ...] = ("password", "passwords", "passwd", "pwd", "passphrase", "secret")
_HELD += ("passphrases",)
_HELD += ("secrets", "token", "tokens", "key", "keys")
"""(leak21) The last words of a key that names what its list holds: secrets (not
``password_rules``)."""


def _flow_items(m: re.Match[str]) -> list[re.Match[str]]:
    key = m.group("key")
    verdict = is_secret_label(key)
    plural = key[-1:] in "sS" and is_secret_label(key[:-1]) is not False
    if verdict is not True and not plural:
        return []
    start, end = m.span("secret")
    items: list[tuple[str, int, int, bool]] = []  # value, span, quoted
    position = start
    while position < end:
        item = _FLOW_ITEM.match(m.string, position, end)
        if item is None or item.end() == position:
            return []  # (a quote left open: no list of items)
        position = item.end()
        for group in ("d", "s", "w"):
            if item.group(group) is not None:
                value = item.group(group).rstrip(" \t")
                items.append(
                    (value, item.start(group), item.start(group) + len(value), group != "w")
                )
                break
    if len(items) < 2 or not all(value for value, _, _, _ in items):
        return []
    tokens = [not quoted and _flow_token(value) for value, _, _, quoted in items]
    found: list[re.Match[str]] = []
    pair = PAIR_KEY.search(key) is not None
    sure, beside = verdict is True, any(tokens)
    for at, ((value, begin, stop, quoted), token) in enumerate(zip(items, tokens, strict=True)):
        if pair and at == 0 and not credential_shaped(value):
            continue  # the user of a pair (``credentials: [deploy, v]``)
        secret = _flow_quoted(key, value) if quoted else token or _flow_bare(value, sure, beside)
        if not secret and not quoted and not (sure and beside and key.lower().endswith(_HELD)):
            return []  # a list of names or rules (``password_rules: [min12x, upper]``)
        # (leak21) under a key naming a secret for certain, beside a token, each bare
        # item is judged on its own: ``password: [hunter2, x]`` loses ``hunter2`` only
        if secret:
            span = SPAN.match(m.string, begin, stop)
            if span is not None and span.end() == stop:
                found.append(span)
    return found


_LABEL_WORDS = (
    "secret",
    "appid",
    "app_id",
    "app-id",
    "key",
    "token",
    "pass",
    "pwd",
    "pw",
    "psw",
    "auth",
    "cred",
    "sig",
    "cookie",
    "sess",
    "sid",
    "otp",
    "dsn",
    "seed",
    "hmac",
    "webhook",
    "code",
    "answer",
    "phrase",
    "pin",
    "cvv",
    "cvc",
    "psk",
    "community",  # (fix21a) SNMP's
    "_salt",  # (fix21a) WordPress's ``NONCE_SALT`` (``_labels._wordpress``)
    # session cookies named by a hash (``wordpress_logged_in_<md5>``, ``wp-postpass_…``,
    # ``wordpress_sec_…``, ``remember_web_<sha1>``: ``_labels._HASHED_COOKIE``)
    "logged_in",
    "logged-in",
    "postpass",
    "_sec_",
    "remember_",
    # frameworks' session cookies (``.ASPXAUTH``, ``.AspNetCore.Identity.Application``,
    # ``CAKEPHP``, ``symfony``: ``_labels._SESSION_COOKIES``; Drupal's ``SESS…`` has
    # ``sess``)
    "aspxauth",
    ".aspnetcore.",
    "cakephp",
    "symfony",
    *FOREIGN_LABELS,  # labels in other languages: ``_labels`` judges them
)
# Parts of the words that may name a secret alone (``is_secret_label`` true), looked for
# in a rejected value before its identifiers are read (``_inner_labels``).
_STRONG_NEEDLES: tuple[str, ...] = (
    *("secret", "token", "pass", "pw", "auth", "cred", "cookie", "sess", "sig", "otp"),
    *("dsn", "psk", "priv", "api", "signing", "master", "encrypt", "access", "app"),
    *("pin", "code", "seed", "phrase", "sid", "hmac", "webhook"),
)
_INNER_SPOKEN = re.compile("[=:\uff1a>\u2192\u21d2\u27f6]")
_INNER_SEPARATOR = re.compile("[=:\uff1a \t|>\u2192\u21d2\u27f6\u662f\u4e3a\u70ba\u306f]")
_KEY_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"
# The words after a labelled value, read (not taken) by the check: prose after the label
# must be prose to its end.
_MORE = re.compile(r"[.,;:!?]?(?:[ \t]{1,3}[^\s\"'<>`]{1,256}){0,16}")
_VALUE = (
    # Each run that may hold escapes is tried first as one character class (one step of
    # the matcher for the whole run): where it holds none, its match is the same.
    # quoted: a TOML string in triple quotes on one line (``password = """v"""``),
    # escaped quotes (escaped JSON), then a literal whose own escapes are skipped
    r"(?P<secret>\"\"\"[^\"\r\n]{1,1024}\"\"\"|'''[^'\r\n]{1,1024}'''|"
    r"\\{1,3}\"[^\"\r\n]{0,1024}\"|"
    r"\"[^\"\\\r\n]{0,1024}\"|\"(?:[^\"\\\r\n]|\\[^\r\n]){0,1024}\"|"
    r"\\{1,3}'[^'\r\n]{0,1024}'|'[^'\\\r\n]{0,1024}'|'(?:[^'\\\r\n]|\\[^\r\n]){0,1024}'|"
    # in brackets (``[v]``, ``{v}``, ``{{v}}``, ``${v}``, ``$(v)``, ``<<v>>``): a reference
    # or a placeholder, or the secret itself (``bracketed_verdict`` judges what they hold)
    r"(?=[\[{$#<(])(?:"  # (one test of the first character for every other value)
    + BRACKETED
    + r")|"
    # a word of letters with more words after it (``_WORDS_AFTER``; the check reads
    # them only for a word of prose: prose must be prose to its end)
    r"[a-z]{1,20}(?=[.,;:!?]?[ \t]{1,3}[^\s\"'<>`])|"
    # in angle brackets (``k=<v>``): a secret unless placeholder-shaped (``<password>``)
    r"<[^\s<>\"'`/!?][^\s<>\"'`]{0,1022}>|"
    # unquoted: a run that no backslash ends (which may go on) is the value whole, read
    # atomically (a lookahead, then its backreference: never given back)
    r"(?=(?P<run>[^\s\"',;&{}()\[\]<>`|\\]{1,1024}))(?P=run)(?!\\)|"
    r"(?:[^\s\"',;&{}()\[\]<>`|\\]|\\(?![nrt])){1,1024})"
)
# The words of a sentence between a label and its value: "the token was v", "password
# for admin is v", "token is now v", "token set to v", "changed the password to v",
# "used the key as v" (``_spaced`` judges the value). A connector may be glued to a
# colon ("password is: v").
_CONNECTORS = (
    r"(?:(?:is|was|were|are|now|to|as|set[ \t]{1,3}to|changed[ \t]{1,3}to|"
    r"for[ \t]{1,3}[\w.@\-]{1,64}[ \t]{1,3}(?:is|was)|" + FOREIGN_CONNECTORS + r")"
    r"(?:[ \t]{1,5}|(?=[:\uff1a]))){0,2}"
)
# What may stand between a label and its value besides ``=`` or ``:``: an arrow (read as
# a colon); after spaces, a colon glued to a connector ("is:"), a dash ("password -
# v", "password — v"); and a value's opening wrapper, a Markdown code span or a
# parenthesis ("password `v`", "password (v)"). Never a label's head word ("secret key:
# v", "token password: v"): that label is read on its own.
_ARROWS = "\u2192\u21d2\u27f6"
_OPEN = r"(?:`{1,3}|\((?=[^\s)]))?"
_SPACED_END = (
    r"(?:[:\uff1a"
    + _ARROWS
    + r"][ \t]{0,5}|(?:-{1,2}|[\u2013\u2014])[ \t]{1,5})?"
    + _OPEN
    + r"(?=[^\s:=\-|])(?!(?:key|keys|code|codes|answer|answers|phrase|pin|password|token|"
    r"secret)(?![\w.\-]))"
)
# What may stand between a label and its separator: words naming what the secret is
# for ("API key for prod: v", "the password to the db is v", "token for staging = v"),
# only before ``:``, ``=``, ``is`` or ``was`` (so "the password for this account must be
# ..." is no label: its value is judged as after words, ``_spaced``); a parenthesis
# before ``:`` or ``=`` ("password (prod): v"); what a PIN is numbered by ("PIN
# number: v", "PIN #: v", "pin no. v").
_FILLERS = (
    r"provided|value|header[ \t]{1,3}value|given|supplied|used|sent|received|string|"
    r"passed|entered|specified|submitted"
)
_QUALIFIED = (
    # (entered only where a ``(``, a ``#`` or a first letter of its words follows the
    # blanks: every labelled match tries it, and a group entered costs ~0.1-0.2 us; its
    # blanks read once, then a branch per first letter)
    # (and the first letters of ``_FILLERS``)
    r"(?:(?=[ \t]{0,3}[(#fotinaFOTINAvpghsurVPGHSUR])"
    r"(?P<qual>[ \t]{0,3}(?:(?<=[ \t])(?:for|to|of|on|in|at)"
    # (a colon before a word's character is the word's own: ``https://``, ``host:5432``,
    # ``git@host:org``; only one before a blank ends the words as a separator)
    r"(?:[ \t]{1,3}(?:[\w.\-@/]|:(?=[\w/@])){1,60}){1,3}"
    r"(?=[ \t]{0,5}(?::(?=[ \t\r\n]|\\[nrt]|\Z)|[=\uff1a]|(?:is|was)[ \t]))"
    r"|\((?=[^\s)])[^()\r\n]{1,40}\)(?=[ \t]{0,5}[:=\uff1a])"
    r"|(?<=[ \t])(?:number|num|no\.?|nr\.?)(?![\w])|#"
    # (fix22b) a filler word saying the value was handed over, then the separator or
    # the value as after the label itself ("Invalid API key provided: v", "secret value:
    # v", "token value v unknown", "x-api-key header value \"v\"", "the access token
    # provided (v) has expired"): a closed list, its value judged as the label's
    r"|(?<=[ \t])(?P<fill>" + _FILLERS + r")(?![\w.\-]))))?"
)
# Outside an Authorization header (which takes any scheme), the scheme words whose
# credential is commonly quoted bare in logs and messages (and ``token``, apart).
_SCHEMES = ("bearer", "basic", "bot", "ssws")
_CREDENTIAL = r"[ \t]{1,5}(?P<secret>[A-Za-z0-9\-._~+/]{8,4096}=*)(?![A-Za-z0-9\-._~+/=])"
# Connection strings of databases and queues name internals (hosts, databases, users)
# even without a password: the whole string goes.
_DATABASES = (
    "postgres",
    "postgresql",
    "mysql",
    "mariadb",
    "mongodb",
    "redis",
    "rediss",
    "amqp",
    "amqps",
    "mssql",
    "sqlserver",
    "oracle",
    "clickhouse",
    "cockroachdb",
    "snowflake",
    "db2",
    "neo4j",
    "cassandra",
    "couchbase",
    "couchbases",
    "redshift",
    "trino",
    "presto",
    "teradata",
    "vertica",
    "ibm_db_sa",
    "kafka",
    "nats",
)


_STRING_CUTS = frozenset(" \t\r\n\f\v'\"<>`")


def _closed_end(text: str, end: int) -> int:
    """(fix20b) Where a connection string found up to ``end`` ends: before the closing
    parentheses at its end that it opened none for, the brackets of the text around it
    (``(jdbc:sqlserver://h;password=v)``: the ``)`` stays; Oracle's
    ``@(DESCRIPTION=(…))`` closes its own)."""
    if text[end - 1] != ")":
        return end
    start = end
    while start > 0 and end - start < 4200 and text[start - 1] not in _STRING_CUTS:
        start -= 1
    while text[start] == "(":  # (a string starts with its scheme: the text's own brackets)
        start += 1
    extra = text.count(")", start, end) - text.count("(", start, end)
    while extra > 0 and text[end - 1] == ")":
        end, extra = end - 1, extra - 1
    return end


_NETRC_GAP = r"(?:\s|\\[nrt]){1,20}"
NETRC_BEFORE = re.compile(
    r"(?:\b|(?<=\\[nrt]))(?:machine" + _NETRC_GAP + r"[^\s\\]{1,256}|default)"
    r"(?:"
    + _NETRC_GAP
    + r"(?:login|account)"
    + _NETRC_GAP
    + r"[^\s\\]{1,256}){0,2}"
    + _NETRC_GAP
    + r"\Z",
    re.IGNORECASE,
)
"""What must end the text before a ``.netrc`` password: the entry's real shape, ``machine
<host>`` or ``default``, then its ``login <user>`` and ``account <name>`` pairs. A
"login" in prose ("login failed: password for admin is v") is no entry. Searched for, it
tries every position of the window (300 characters per ``password``);
``_NETRC_REVERSED`` says the same of the reversed window in one anchored match."""
_NETRC_GAP_REVERSED = r"(?:\s|[nrt]\\){1,20}"
_NETRC_REVERSED = re.compile(
    _NETRC_GAP_REVERSED
    + r"(?:[^\s\\]{1,256}"
    + _NETRC_GAP_REVERSED
    + r"(?:nigol|tnuocca)"
    + _NETRC_GAP_REVERSED
    + r"){0,2}(?:[^\s\\]{1,256}"
    + _NETRC_GAP_REVERSED
    + r"enihcam|tluafed)(?:\b|(?=[nrt]\\))",
    re.IGNORECASE,
)
NETRC_WINDOW = 300


def netrc_context(before: str) -> bool:
    """Whether ``before`` ends as ``NETRC_BEFORE`` says, read backwards."""
    return _NETRC_REVERSED.match(before[::-1]) is not None


_NETRC_NOT = frozenset(["is", "was", "were", "are", "now", "set", "changed", "for"])
"""Words after ``password`` that begin a sentence, not a ``.netrc`` value: the labelled
layer reads what follows them."""


# A JSON Web Key's private member (RFC 7518: an EC, OKP or RSA key's ``d``, an RSA
# key's primes and their exponents, a symmetric key's ``k``): secret whatever its length.
_JWK_PRIVATE = re.compile(
    r"(?P<q>[\"'])(?:d|p|q|dp|dq|qi|k)\\{0,3}(?P=q)[ \t\r\n]{0,8}:[ \t\r\n]{0,8}\\{0,3}(?P=q)"
    r"(?P<secret>[A-Za-z0-9_\-+/=]{1,16384})\\{0,3}(?P=q)"
)
_JWK_PRIVATE_NAMES = frozenset(["d", "p", "q", "dp", "dq", "qi", "k"])


def _jwk_private_values(text: str) -> list[re.Match[str]]:
    """The private members' values of the JSON Web Keys in ``text`` (``SPAN`` matches):
    looked for only inside an object that names a key type."""
    found: list[re.Match[str]] = []
    for start, end in jwk_objects(text):
        for m in _JWK_PRIVATE.finditer(text, start, end):
            value = SPAN.match(text, m.start("secret"), m.end("secret"))
            assert value is not None  # a value is never empty
            found.append(value)
    if "kty:" in text:  # a key written as YAML (``d: …`` in a block with ``kty: EC``)
        for block in jwk_yaml_blocks(text):
            for m in block:
                if m.group("name") in _JWK_PRIVATE_NAMES:
                    value = SPAN.match(text, m.start("value"), m.end("value"))
                    assert value is not None
                    found.append(value)
    found.sort(key=re.Match.start)
    return found


# A shell variable with a default, alternative or error written in it (``${PW:-v}``,
# ``${PW:=v}``, ``${PW-v}``, ``${PW:+v}``, ``${PW:?message}``): what follows the operator
# is a literal, used when the variable is unset (or set, for ``+``): a word or several
# (``${PW:-correct horse battery staple}``).
_REFERENCE_DEFAULT = re.compile(
    r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]{0,63})(?P<op>:?[-=+?])"
    r"(?P<secret>[^{}\s]{1,256}(?:[ \t]{1,3}[^{}\s]{1,64}){0,7})\}"
)
# A label and its separator before such a variable (``password=${X:-v}``,
# ``"db_password": "${X:-v}``, ``DB_PASSWORD: ${X:-v}``).
_LABEL_BEFORE = re.compile(r"([A-Za-z_][\w.\-]{0,79})[\"']?[ \t]{0,5}[:=\uff1a][ \t]{0,5}[\"']?\Z")
_REFERENCE_QUOTES = "\"'`"


def _reference_default(m: re.Match[str]) -> bool:
    """Whether a variable's default (``_REFERENCE_DEFAULT``) is a secret: the variable
    names one, or a secret's label stands before it on its line; and the default is a
    literal, not another reference (``${PW:-$OTHER}``, ``${PW:-${OTHER}}``), an empty
    string or a mask. A placeholder's word is a literal too: ``${PW:-changeme}`` is the
    password wherever PW is unset. After ``?`` it is an error message, a secret only when
    shaped as one."""
    default = m.group("secret").strip(_REFERENCE_QUOTES)
    if not default or default[:1] == "$" or not default.strip(_MASK_CHARS):
        return False
    if m.group("op")[-1] == "?" and not credential_shaped(default):
        return False
    if is_secret_label(m.group("name")) is True:
        return True
    start = m.start()
    line = max(m.string.rfind("\n", max(0, start - 100), start) + 1, start - 100)
    before = _LABEL_BEFORE.search(m.string, line, start)
    return before is not None and is_secret_label(before.group(1)) is True


_MASK_CHARS = "*xX\u2022.-_#="


def _netrc(m: re.Match[str]) -> bool:
    if m.group("secret").lower() in _NETRC_NOT:
        return False
    before = m.string[max(0, m.start() - NETRC_WINDOW) : m.start()]
    return netrc_context(before) and _anything(m)


_PATH_LABELS = (
    *("/password/", "/passwd/", "/token/", "/secret/", "/apikey/", "/api_key/"),
    *("/api-key/", "/accesstoken/", "/access_token/", "/access-token/"),
)


def _path_credential(m: re.Match[str]) -> bool:
    return credential_shaped(m.group("secret").rstrip("."))


# (fix22b) A signature a check expected, computed or was sent, after a signature's or an
# HMAC's word on its line ("signature mismatch: expected <hex>", "HMAC mismatch: computed
# sha256=<hex> header sha256=<hex>", "expected signature <hex>, got <hex>", Stripe's
# "expected v1=<hex>"): whoever holds it can sign as the sender. A digest with no such
# word (pip's "Expected sha256 <hex>", a registry's digest mismatch) is public and stays.
_SIGNATURE_WORDS = ("expected", "computed", "calculated", "got", "want", "received", "header")
_SIGNATURE_VALUE = re.compile(
    r"(?<![\w\-])(?:" + "|".join(_SIGNATURE_WORDS) + r")"
    r"(?:[ \t]{1,3}(?:signature|sig|hmac|digest))?[ \t]{0,3}[:=]?[ \t]{0,3}[\"'(]?"
    r"(?:(?:v[01]|sha(?:1|224|256|384|512)|s)[=:])?"
    r"(?P<secret>[0-9a-f]{32,128}|[A-Za-z0-9+/_\-]{24,92}={0,2})(?![A-Za-z0-9+/=_\-])",
    re.IGNORECASE,
)
_SIGNATURE_CONTEXT = re.compile(r"sig|hmac", re.IGNORECASE)
_SIGNATURE_BACK = 160


def _signature_value(m: re.Match[str]) -> bool:
    """Whether a value after ``expected``/``got``/… is a signature: a signature's or an
    HMAC's word before it on its line, within ``_SIGNATURE_BACK`` characters, and a
    value of hex or of letters and digits both (no word)."""
    value, start = m.group("secret"), m.start()
    line = max(m.string.rfind("\n", 0, start) + 1, start - _SIGNATURE_BACK)
    if _SIGNATURE_CONTEXT.search(m.string, line, m.end()) is None:
        return False
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


BUILT_IN: tuple[Detector, ...] = (
    Detector(
        "private-key",
        re.compile(
            r"-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----[\s\S]*?"
            r"(?:-----END[A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----|\Z)"
        ),
        ("-----begin",),
        anchored=True,
    ),
    Detector(
        # A block framed as public material whose body is none (``_public``): a body
        # cut short, a secret pasted in, a private key. Which one cannot be told, so
        # it is named for what it is, a PEM block's body, never a private key (a
        # certificate cut short is none: found by cold19).
        "pem-body",
        PEM,
        ("-----begin",),
        check=not_public,
        anchored=True,
    ),
    Detector(
        # An OpenPGP block framed as a public key or signature whose packets are none
        # (cut short, a secret key's, anything else): it goes whole, frame and all.
        "pgp-block",
        PGP,
        ("-----begin pgp",),
        check=not_public_pgp,
        anchored=True,
    ),
    Detector(
        # An OpenPGP public key or signature with a secret in a user id or a notation.
        "secret",
        PGP,
        ("-----begin pgp",),
        check=pgp_holds_secret,
        anchored=True,
    ),
    Detector(
        # A credential as the path segment after one naming it (``/password/<v>/``,
        # ``/token/<v>``): only a value shaped as a credential, as a path's words are
        # the route's (``/password/reset/``, ``/token/refresh``).
        "secret",
        re.compile(
            r"/(?i:password|passwd|token|secret|api[_-]?key|access[_-]?token)/"
            r"(?P<secret>[A-Za-z0-9_\-.~+=%]{8,512})(?![A-Za-z0-9_\-.~+=%])"
        ),
        _PATH_LABELS,
        check=_path_credential,
        anchored=True,
    ),
    Detector(
        # An object under a secret's label: its values, each judged by that label unless
        # its own key names a field known not to be secret (``_nested``).
        "secret",
        SPAN,
        _nested.NEEDLES,
        finder=_nested.find,
    ),
    Detector(
        "jwk-private",
        SPAN,
        ("kty",),
        finder=_jwk_private_values,
    ),
    Detector(
        "connection-string",
        re.compile(
            r"(?<![\w.+\-])(?:" + "|".join(sorted(_DATABASES, key=len, reverse=True)) + r")"
            # (a placeholder in angle brackets is one of its parts: ``app:<password>@db``;
            # not a tag after it, ``…/db<br>``)
            r"(?:\+[a-z0-9_]{1,30}){0,2}://(?:[^\s'\"<>`]|(?<=[:/@])<[A-Za-z_][\w\-]{0,40}>"
            r"(?=[:/@?#\s'\"`]|\Z)){1,2048}",
            re.IGNORECASE,
        ),
        _DATABASES,
        anchored=True,
        extend=_closed_end,
    ),
    Detector(
        "connection-string",
        re.compile(r"(?<![\w.\-])jdbc:[a-z0-9]{1,20}:[^\s'\"<>`]{1,2048}", re.IGNORECASE),
        ("jdbc:",),
        anchored=True,
        extend=_closed_end,
    ),
    Detector(
        "slack-webhook",
        re.compile(
            r"(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{8,200}"
        ),
        ("hooks.slack.com/",),
        anchored=True,
        back=8,  # the whole URL is the secret: start at its scheme
        back_chars="htps:/",
    ),
    # A no-code platform's catch hook, a capability URL (whoever has it can post to the
    # workflow): the whole URL goes, as a Slack webhook's does.
    Detector(
        # Zapier: ``hooks.zapier.com/hooks/catch/<account>/<hook>/`` (and ``standard``).
        "zapier-webhook",
        re.compile(
            r"(?:https?://)?hooks\.zapier\.com/hooks/(?:catch|standard)/[0-9]{1,12}/"
            r"[A-Za-z0-9]{4,64}(?:/[A-Za-z0-9\-]{1,64}){0,2}/?(?![A-Za-z0-9_\-])"
        ),
        ("hooks.zapier.com/hooks/",),
        anchored=True,
        back=8,
        back_chars="htps:/",
    ),
    Detector(
        # IFTTT's Webhooks: ``maker.ifttt.com/trigger/<event>/with/key/<key>``, ``/use/<key>``.
        "ifttt-webhook",
        re.compile(
            r"(?:https?://)?maker\.ifttt\.com/(?:trigger/[\w\-]{1,100}/(?:json/)?with/key|use)/"
            r"[A-Za-z0-9_\-]{16,64}(?![A-Za-z0-9_\-])"
        ),
        ("maker.ifttt.com/",),
        anchored=True,
        back=8,
        back_chars="htps:/",
    ),
    Detector(
        # Make (Integromat): ``hook.<zone>.make.com/<32>``, ``hook.integromat.com/<32>``.
        "make-webhook",
        re.compile(
            r"(?:https?://)?hook\.(?:(?:eu|us)[0-9]\.make\.com|integromat\.com)/"
            r"[a-z0-9]{24,40}(?![A-Za-z0-9_\-])"
        ),
        (
            "hook.eu1.make.com/",
            "hook.eu2.make.com/",
            "hook.us1.make.com/",
            "hook.us2.make.com/",
            "hook.integromat.com/",
        ),
        anchored=True,
        back=8,
        back_chars="htps:/",
    ),
    Detector(
        # A PagerDuty integration key in an Events API URL (the v1 generic and
        # integration endpoints put it in the path: ``events.pagerduty.com/integration/
        # <key>/enqueue``, ``/x-ere/<key>``): 32 hex digits or ``R0`` and 30 more.
        "pagerduty-key",
        re.compile(
            r"events\.(?:eu\.)?pagerduty\.com(?:/[\w.\-]{1,40}){0,4}?/"
            r"(?P<secret>[0-9a-fA-F]{32}|R0[0-9A-Z]{30})(?![0-9A-Za-z])",
            re.IGNORECASE,
        ),
        ("events.pagerduty.com/", "events.eu.pagerduty.com/"),
        anchored=True,
    ),
    Detector(
        "teams-webhook",
        re.compile(r"[a-z0-9.\-]{1,100}\.webhook\.office\.com/[^\s'\"<>`]{10,1024}"),
        ("webhook.office.com/",),
    ),
    Detector(
        "telegram-bot-token",
        re.compile(r"(?<![0-9])[0-9]{6,12}:AA[A-Za-z0-9_\-]{30,40}"),
        (":aa",),
    ),
    Detector(
        "credentials",
        re.compile(r"://(?P<secret>[^\s/@'\"<>:]{0,256}:[^\s/'\"<>]{1,256})@"),
        ("://",),
        anchored=True,
        requires="@",
    ),
    Detector(
        # A token as the whole userinfo (``https://<token>@git.acme.io/…``): a user
        # name of 16 characters or more is a credential; ``git@``, ``bob@`` stay.
        "credentials",
        re.compile(r"://(?P<secret>[^\s/@'\"<>:]{16,256})@"),
        ("://",),
        anchored=True,
        requires="@",
    ),
    Detector(
        "secret",
        # (the look-behind after the ``-``: a scan skips to each ``-``)
        re.compile(
            r"-(?<![\w\-]-)p(?P<sep>[ \t]{0,5})(?P<secret>[^\s\-\"',\]][^\s\"',\]]{0,1023})"
        ),
        ("-p",),
        check=_short_password,
        anchored=True,
    ),
    Detector(
        "secret",
        re.compile(
            r"(?<![\w\-])(?:-u|--user)[ \t=]{0,5}[\"']?[^\s:\"'@/]{1,128}:"
            r"(?P<secret>[^\s\"',\]]{1,1024})"
        ),
        ("-u", "--user"),
        check=_user_password,
        judged_by=("secret",),
        anchored=True,
    ),
    Detector(
        "secret",
        re.compile(r"(?<![\w\-])sshpass[ \t]{1,5}-p[ \t]{0,5}(?P<secret>[^\s\-]\S{0,1023})"),
        ("sshpass",),
        check=_anything,
        judged_by=("secret",),
        anchored=True,
    ),
    Detector(
        # Oracle's tools take ``user/password@db`` (``sqlplus system/v@host:1521/ORCL``,
        # ``expdp scott/v@orcl``, ``rman target sys/v@db``; ``sqlplus / as sysdba`` has none).
        "secret",
        re.compile(
            r"(?<![\w\-])(?:sqlplus|sqlldr|expdp|impdp|exp|imp|rman|dgmgrl|tkprof)"
            r"(?:[ \t]{1,5}(?:-[A-Za-z]{1,10}|target=?|auxiliary=?))*"
            r"(?:[ \t]{1,5}|[ \t]{1,5}userid=)"
            r"[\"']?[\w$#.]{1,128}/[\"']?(?P<secret>[^\s/@\"']{1,512})[\"']?(?=@|[ \t]|$)",
            re.IGNORECASE | re.MULTILINE,
        ),
        ("sqlplus", "sqlldr", "expdp", "impdp", "exp ", "imp ", "rman", "dgmgrl", "tkprof"),
        check=_oracle_login,
        judged_by=("secret",),
        anchored=True,
    ),
    Detector(
        # Redis's ``AUTH [user] v``, as typed at its prompt or given to ``redis-cli``:
        # the command in capitals, its one or two arguments ending the line (a log's
        # "AUTH failed for user bob" has more words).
        "secret",
        re.compile(
            r"(?:(?<=^)|(?<=[>\n])|(?<=\s)|(?<=[\"']))AUTH[ \t]{1,5}"
            r"(?:(?P<user>[^\s\"']{1,128})[ \t]{1,5})?"
            r"(?P<secret>[^\s\"']{1,512})[ \t]*(?=[\r\n\"']|\Z)",
            re.MULTILINE,
        ),
        ("auth ", "auth\t"),
        check=_redis_auth,
        judged_by=("secret",),
        anchored=True,
    ),
    Detector(
        "authorization",
        re.compile(
            # Header line, JSON, dict repr, header tuple ('Authorization', '…') and list
            # value ['…']: a quoted value runs to its own closing quote (a Digest
            # credential holds other quotes), a header quoted whole (curl's ``-H
            # 'Authorization: Bearer v' https://…``) to the quote that opened it (past
            # escaped ones), any other to the end of the line.
            r"(?:(?<=(?P<lq>[\"']))|(?<![\w]))"
            r"authori[sz]ation(?:\\{0,3}[\"']\s{0,5}[:=,\uff1a]|\s{0,5}[:=\uff1a])"
            r"\s{0,5}\[?\s{0,5}(?P<q>\\{0,3}[\"'])?"
            r"(?:[A-Za-z][A-Za-z0-9_\-]{1,30}[ \t]{1,5})?"
            r"(?P<secret>[^\s\"'\\](?(q)(?:(?!(?P=q))[^\r\n]){0,4095}"
            r"|(?(lq)(?:[^\r\n\\\"']|\\[^\r\n]|(?!(?P=lq))[\"']){0,4095}|[^\r\n]{0,4095})))"
            # (a quoted "value" that is a key: ``{"name": "Authorization", "value": …}``)
            r"(?=(?P<key>(?P=q)[ \t]{0,5}:)?)",
            re.IGNORECASE,
        ),
        ("authori",),
        check=_authorization,
        judged_by=("secret", "key"),
        anchored=True,
    ),
    Detector(
        # The header written without its colon (``AUTHORIZATION Bearer v``,
        # ``Authorization Digest username="bob", response="v"``, ``authorization v``):
        # ``_spaced_authorization`` tells a credential from prose ("Authorization failed").
        "authorization",
        re.compile(
            r"(?<![\w])authori[sz]ation[ \t]{1,5}"
            r"(?P<scheme>" + _SCHEME_WORD.pattern + r")[ \t]{1,5}"
            r"(?P<secret>[^\s\"'\\](?:[^\r\n\"'\\]|\"[^\"\r\n\\]{0,256}\"){0,4095})",
            re.IGNORECASE,
        ),
        ("authori",),
        check=_spaced_authorization,
        judged_by=("scheme", "secret"),
        anchored=True,
    ),
    Detector(
        # ... and without a scheme: ``AUTHORIZATION Qx7pLm2R`` (a token, not a word).
        "authorization",
        re.compile(
            r"(?<![\w])authori[sz]ation[ \t]{1,5}(?P<secret>[^\s\"'\\,;]{1,1024})",
            re.IGNORECASE,
        ),
        ("authori",),
        check=_spaced_authorization,
        judged_by=("secret",),
        anchored=True,
    ),
    Detector(
        "cookie",
        re.compile(
            r"(?<![\w])cookie[ \t]{0,5}[:\uff1a][ \t]{0,5}(?P<secret>[^\s\"'][^\r\n\"']{0,8191})",
            re.IGNORECASE,
        ),
        ("cookie",),
        check=_cookie,
        judged_by=("secret",),
        anchored=True,
    ),
    Detector(
        "credentials",
        re.compile(r"(?<![\w\-])(?:" + "|".join(_SCHEMES) + r")" + _CREDENTIAL, re.IGNORECASE),
        _SCHEMES,
        check=_credential,
        judged_by=("secret",),
        anchored=True,
    ),
    Detector(
        # ``token v`` as well, unless its sentence is about paging (not judged once per
        # value: a cursor is told by its sentence).
        "credentials",
        re.compile(r"(?<![\w\-])token" + _CREDENTIAL, re.IGNORECASE),
        ("token",),
        check=_token_credential,
        anchored=True,
        also=("token ", "token\t"),  # (``token=v`` everywhere: no match at any)
    ),
    Detector(
        "secret",
        re.compile(
            # The key is the whole identifier: the needles put the match at its start,
            # and is_secret_label reads it (no alternation tried at every character).
            # Read atomically (a lookahead, then its backreference): no separator starts
            # with a key's character, so a shorter key could never be followed by one,
            # and a failing match is not tried again at each shorter key.
            r"(?:(?<![\w.\-])|(?<=\\[nrt]))(?=(?P<key>[\w.\-]{1,80}))(?P=key)"
            # then a qualifier between the label and its separator (``_QUALIFIED``)
            + _QUALIFIED
            + r"(?P<sep>(?:\\{0,3}[\"'])?\]?(?:\s{0,5}(?::=|={1,2}>|<-{1,2}|[:=\uff1a"
            + _ARROWS
            # an arrow glued to the key (``password->v``, ``password-->v``): the key took
            # its dashes (a key's character), the ``>`` is the separator
            + r"])|[ \t]{1,5}-{1,3}>|(?<=-)>)"
            # (blanks after it may be written out: a repr's ``password:\\n  v``)
            r"(?:\s|\\[nrt]){0,12}" + _OPEN + "|"
            # or only a space, a tab (also written out: a repr's ``password\\tv``), a
            # comma, ``is`` or a Markdown table's ``|`` (``_spaced``)
            r",?(?:[ \t]|\\t){1,5}"
            + _CONNECTORS
            + _SPACED_END
            + r"|[ \t]{0,5}\|[ \t]{0,5}(?=[^\s|]))"
            + _VALUE,
            re.IGNORECASE,
        ),
        _LABEL_WORDS,
        check=_labelled,
        inner=_inner_labels,
        # ``_labelled`` judges each value once per text itself: the words after a
        # word of prose, which it reads then, are no group
        extend=_labelled_value_end,
        anchored=True,
        back=40,
        back_chars=_KEY_CHARS,
        scan=False,
    ),
    Detector(
        "secret",
        _SIGNATURE_VALUE,
        _SIGNATURE_WORDS,
        check=_signature_value,
        anchored=True,
        screen=_SIGNATURE_CONTEXT,  # (a text with no signature's word is not read)
    ),
    Detector(
        # A variable's default value under a secret's name or label (``${PW:-v}``,
        # ``password=${X:-v}``): the default goes, the reference stays.
        "secret",
        _REFERENCE_DEFAULT,
        ("${",),
        check=_reference_default,
        anchored=True,
    ),
    Detector(
        # A label in a script written without spaces (``用户密码：v``, ``パスワードはv``):
        # no word boundary before it.
        "secret",
        re.compile(
            r"(?P<key>" + "|".join(GLUED_LABELS) + r")"
            # (a JSON or dict key's closing quote before the colon: ``{"密码": "v"}``)
            r"(?P<sep>(?:\\{0,3}[\"'])?\s{0,5}[:=\uff1a]\s{0,5}|"
            r"[ \t]{0,5}(?:是|为|為|は|:)[ \t]{0,5})" + _VALUE,
            re.IGNORECASE,
        ),
        GLUED_LABELS,
        check=_labelled,
        extend=_labelled_value_end,
        anchored=True,
        scan=False,
    ),
    Detector(
        # A label of two words in another language (``mật khẩu: v``, ``كلمة المرور: v``,
        # ``kata sandi adalah v``), with its language's "is" between label and value.
        "secret",
        re.compile(
            r"(?<![\w])(?P<key>" + "|".join(PHRASE_LABELS) + r")(?![\w])"
            r"(?P<sep>(?:\\{0,3}[\"'])?\s{0,5}[:=\uff1a]\s{0,5}|"
            r"[ \t]{1,5}(?:(?:là|adalah|ialah|هي|هو|است|είναι)[ \t]{1,5})?)" + _VALUE,
            re.IGNORECASE,
        ),
        tuple(label.lower() for label in PHRASE_LABELS),
        check=_labelled,
        extend=_labelled_value_end,
        anchored=True,
        scan=False,
    ),
    Detector(
        # An XML element named like a secret: ``<password>v</password>``, ``<ns:Token>``,
        # its text in a CDATA section or not.
        "secret",
        re.compile(
            r"<(?P<key>[\w.\-:]{1,80})(?:[ \t][^<>\r\n]{0,256})?>[ \t]{0,40}(?:<!\[CDATA\[)?"
            r"(?P<secret>[^<>\s](?:[^<>\r\n]{0,1022}[^<>\s])?)[ \t]{0,40}(?:\]\]>[ \t]{0,40})?"
            r"</(?P=key)[ \t]{0,5}>"
        ),
        ("</",),
        check=_element,
        judged_by=("key", "secret"),
    ),
    Detector(
        # .NET configuration and XML parameters: ``<add key="ApiKey" value="v"/>``,
        # ``<param name="password" value="v"/>``.
        "secret",
        re.compile(
            r"\b(?:key|name)[ \t]{0,5}=[ \t]{0,5}[\"'](?P<key>[\w.\-:]{1,80})[\"'][ \t]{1,40}"
            r"value[ \t]{0,5}=[ \t]{0,5}[\"'](?P<secret>[^\"'\r\n]{1,1024})[\"']",
            re.IGNORECASE,
        ),
        ("key=", "key =", "name=", "name ="),
        check=_element,
        judged_by=("key", "secret"),
        anchored=True,
        also=("value",),
    ),
    Detector(
        # An XML element named like a secret with its value in an attribute:
        # ``<password value="v"/>``, ``<token type="x" value='v'>``.
        "secret",
        re.compile(
            r"<(?P<key>[\w.\-:]{1,80})[ \t]{1,40}(?:[\w.\-:]{1,40}[ \t]{0,5}=[ \t]{0,5}"
            r"(?:\"[^\"<>\r\n]{0,256}\"|'[^'<>\r\n]{0,256}')[ \t]{1,40}){0,8}"
            r"value[ \t]{0,5}=[ \t]{0,5}[\"'](?P<secret>[^\"'\r\n]{1,1024})[\"']",
            re.IGNORECASE,
        ),
        ("value",),
        check=_element,
        judged_by=("key", "secret"),
    ),
    Detector(
        # An XML element whose ``name`` or ``key`` attribute names a secret and whose text
        # is it: ``<property name="password">v</property>``, Java's properties file as
        # XML ``<entry key="password">v</entry>``; the text may sit in a ``<value>`` or
        # ``<string>`` element of its own (.NET ``<setting name="Password" …>`` then
        # ``<value>v</value>``, Spring's ``<property name="password"><value>v</value>``),
        # on the next line, or in a CDATA section.
        "secret",
        re.compile(
            r"\b(?:name|key)[ \t]{0,5}=[ \t]{0,5}[\"'](?P<key>[\w.\-:]{1,80})[\"'][^<>\r\n]{0,256}>"
            r"(?:\s|\\[nrt]){0,40}(?:<(?:value|string)(?:[ \t][^<>\r\n]{0,64})?>|<!\[CDATA\[)?"
            r"[ \t]{0,40}(?P<secret>[^<>\s](?:[^<>\r\n]{0,1022}[^<>\s])?)[ \t]{0,40}"
            r"(?:\]\]>)?</",
            re.IGNORECASE,
        ),
        ("name=", "name =", "key=", "key ="),
        check=_element,
        judged_by=("key", "secret"),
        anchored=True,
        also=("</",),  # a closing tag (thousands of ``key=`` in a query or a log: none)
    ),
    Detector(
        # ... and its value in an attribute before the name: ``<add value="v"
        # key="ApiKey"/>``, ``<param value="v" name="secret"/>``.
        "secret",
        re.compile(
            r"\bvalue[ \t]{0,5}=[ \t]{0,5}[\"'](?P<secret>[^\"'\r\n]{1,1024})[\"'][ \t]{1,40}"
            r"(?:[\w.\-:]{1,40}[ \t]{0,5}=[ \t]{0,5}(?:\"[^\"<>\r\n]{0,256}\"|'[^'<>\r\n]{0,256}')"
            r"[ \t]{1,40}){0,4}(?:key|name)[ \t]{0,5}=[ \t]{0,5}[\"'](?P<key>[\w.\-:]{1,80})[\"']",
            re.IGNORECASE,
        ),
        ("value=", "value ="),
        check=_element,
        judged_by=("key", "secret"),
        anchored=True,
        also=("key", "name"),
    ),
    Detector(
        # A password piped to a login: ``echo v | docker login --password-stdin``.
        "secret",
        re.compile(
            r"(?<![\w-])(?:echo|printf)[ \t]{1,5}"
            r"(?:-[neE]{1,3}[ \t]{1,5}|[\"']?%s[\"']?[ \t]{1,5})?"
            r"(?P<secret>\"[^\"\r\n]{1,1024}\"|'[^'\r\n]{1,1024}'|[^\s|;&\"']{1,1024})"
            r"[ \t]{0,5}\|[^|\r\n]{0,300}?--(?:password-stdin|with-token)"
        ),
        _STDIN_FLAGS,
        check=_anything,
        judged_by=("secret",),
    ),
    Detector(
        # A here-string on the line of such a login: ``docker login --password-stdin <<< v``,
        # ``cat <<< v | gh auth login --with-token``.
        "secret",
        re.compile(
            r"<<<[ \t]{0,5}"
            r"(?P<secret>\"[^\"\r\n]{1,1024}\"|'[^'\r\n]{1,1024}'|[^\s|;&\"'<>()]{1,1024})"
        ),
        ("<<<",),
        check=_fed_on_stdin,
        anchored=True,
        screen=_STDIN_FLAG_ANYWHERE,  # (``_fed_on_stdin`` needs one near: a flood of ``<<<``)
    ),
    Detector(
        # A here-document fed to such a login: its first line is the password
        # (``docker login --password-stdin <<EOF`` then ``v`` then ``EOF``).
        "secret",
        re.compile(
            r"--(?:password-stdin|with-token)(?![\w-])[^\r\n<]{0,300}<<-?[ \t]{0,3}"
            r"([\"']?)[A-Za-z_]\w{0,30}\1[^\r\n]{0,300}?(?:\r?\n|(?:\\r)?\\n)[ \t]{0,40}"
            r"(?P<secret>[^\s\\\"'](?:[^\s\\\"']|[ \t](?=[^\s\\])){0,1023})"
        ),
        _STDIN_FLAGS,
        check=_anything,
        judged_by=("secret",),
    ),
    Detector(
        # ``user:password@host`` without a scheme (``scp bob:PW@host:/srv``): a password
        # that reads as a token (``mailto:bob@…``, ``10:30@home`` stay).
        "credentials",
        # One scan in C where an ``@`` is written (an anchored match per ``@`` costs more).
        _USER_PASSWORD_HOST,
        ("@",),
        check=_user_at_host,
        judged_by=("user", "secret"),
        finder=_users_at_hosts,
    ),
    Detector(
        # SQL: ``CREATE USER app IDENTIFIED BY v`` (quoted or not).
        "secret",
        re.compile(
            r"\bidentified[ \t]{1,5}by[ \t]{1,5}"
            r"(?P<secret>\"[^\"\r\n]{1,1024}\"|'[^'\r\n]{1,1024}'|[^\s\"'<>`;,]{1,1024})",
            re.IGNORECASE,
        ),
        ("identified",),
        check=_anything,
        judged_by=("secret",),
        anchored=True,
    ),
    Detector(
        # MySQL's ``SET PASSWORD [FOR 'app'@'%'] = 'v'`` (or ``= PASSWORD('v')``): the
        # string literal after the ``=``.
        "secret",
        re.compile(
            r"\bset[ \t]{1,5}password(?:[ \t]{1,5}for[ \t]{1,5}[^\s=;]{1,256})?[ \t]{0,5}="
            r"[ \t]{0,5}(?:(?:old_)?password[ \t]{0,5}\([ \t]{0,5})?"
            r"(?P<secret>\"[^\"\r\n]{1,1024}\"|'[^'\r\n]{1,1024}')",
            re.IGNORECASE,
        ),
        ("set password",),
        check=_anything,
        judged_by=("secret",),
        anchored=True,
    ),
    Detector(
        # Redis's ``MONITOR`` output, each argument quoted: ``"AUTH" "v"``, ``"AUTH"
        # "user" "v"`` (also inside ``"HELLO" "3" "AUTH" "user" "v" "SETNAME" "x"``):
        # the last of at most two arguments.
        "secret",
        re.compile(
            r"\"auth\"(?:[ \t]{1,5}\"(?:[^\"\\\r\n]|\\[^\r\n]){1,128}\")?"
            r"[ \t]{1,5}\"(?P<secret>(?:[^\"\\\r\n]|\\[^\r\n]){1,512})\"",
            re.IGNORECASE,
        ),
        ('"auth"',),
        check=_anything,
        judged_by=("secret",),
        anchored=True,
    ),
    Detector(
        # Terraform's plan or configuration of a generated password: ``resource
        # "random_password" "db" {`` then ``+ result = "v"`` (or ``bcrypt_hash``) in its
        # block (read to its first unmatched brace, one level of braces inside it).
        "secret",
        re.compile(
            r"\"random_password\"[ \t]{1,5}\"[^\"\r\n]{1,128}\"[ \t]{0,5}\{"
            r"(?:[^{}]|\{[^{}]{0,1024}\}){0,4096}?"
            r"\b(?:result|bcrypt_hash)[ \t]{0,5}=[ \t]{0,5}\"(?P<secret>[^\"\r\n]{1,1024})\""
        ),
        ('"random_password"',),
        check=_anything,
        judged_by=("secret",),
        anchored=True,
    ),
    Detector(
        # Google Secret Manager's answer to an access: ``{"name": "projects/1/secrets/db/
        # versions/4", "payload": {"data": "<base64>"}}`` (JSON, a dict repr, or protobuf
        # text ``payload {`` then ``data: "v"``): the data is the secret.
        "secret",
        re.compile(
            r"payload(?:[\"']?[ \t]{0,5}:[ \t]{0,5}|[ \t]{0,5})\{"
            r"(?:[^{}\[\]]{0,1024}?[,\s])?[\"']?data[\"']?[ \t]{0,5}:[ \t]{0,5}b?"
            r"(?P<q>[\"'])(?P<secret>(?:(?!(?P=q))[^\r\n\\]|\\[^\r\n]){1,65536})(?P=q)"
        ),
        ("payload",),
        check=_secret_payload,
        anchored=True,
    ),
    Detector(
        # A GitHub Actions workflow command that masks a value in the log: what follows
        # ``::add-mask::`` on its line is a secret by its writer's word (a reference to
        # one, ``$TOKEN`` or ``${{ … }}``, stays).
        "secret",
        re.compile(
            r"::add-mask::[ \t]{0,5}(?P<secret>[^\s$\"'`](?:[^\r\n\"'`]{0,4094}[^\s\"'`])?)"
        ),
        ("::add-mask::",),
        check=_masked,
        judged_by=("secret",),
        anchored=True,
    ),
    Detector(
        # A flow sequence under a secret's key, its key bare (YAML, a log's list):
        # ``tokens: [Qx7pLm2R, Ab3dEf6G]``, ``api_keys=[v1, v2]``, ``passwords: ["v",
        # "x"]``: each item judged and replaced on its own (``_flow_values``), the
        # brackets and the commas kept.
        "secret",
        SPAN,
        _LABEL_WORDS,
        finder=_flow_values,
    ),
    Detector(
        # (leak21) Terraform state: the attributes an instance marks sensitive, and
        # those its type holds secret (``_terraform_values``).
        "secret",
        SPAN,
        ("sensitive_attributes", "sensitive_values", *_TF_TYPES),
        finder=_terraform_values,
    ),
    Detector(
        # (leak21) TOML's multi-line strings and arrays under a secret's key
        # (``_toml_values``).
        "secret",
        SPAN,
        # (an opening then its line's end: a flood of quotes holds no needle)
        (
            *("'''\n", "'''\r", "'''\\n", '"""\n', '"""\r', '"""\\n', '"""\\\n'),
            *('"""\\\r', "= [\n", "=[\n", "= [\r", "=[\r", "= [\\n", "=[\\n"),
        ),
        finder=_toml_values,
    ),
    Detector(
        # A list of strings under a secret's key: ``"tokens": ["v1", "v2"]``, each item
        # judged and replaced on its own (``_listed_values``).
        "secret",
        SPAN,
        ('": [', '":[', "': [", "':[", "': (", "':(", '": (', '":('),
        finder=_listed_values,
    ),
    Detector(
        # A New Relic license key: 36 hex characters and ``NRAL``.
        "newrelic-key",
        re.compile(r"(?<![A-Za-z0-9])[a-fA-F0-9]{36}NRAL(?![A-Za-z0-9])"),
        ("nral",),
    ),
    Detector(
        # A YAML block scalar: the secret is on the indented lines after the label. The
        # key is read atomically (no character after it can be a key's): a scan tries it
        # at every character of a dense text, and gives nothing back where it fails.
        "secret",
        re.compile(
            r"[\"']?(?=(?P<key>[\w.\-]{1,80}))(?P=key)[\"']?[ \t]{0,5}:[ \t]{1,5}[|>][1-9+\-]{0,2}"
            r"[ \t]{0,40}(?:#[^\r\n]{0,200})?(?:\r?\n|(?:\\r)?\\n)[ \t]{1,80}"
            r"(?=(?P<first>[^\r\n]{1,200}))(?P<secret>[^\s\\])",
        ),
        # a blank before the colon too: the key is read back from the needle's start
        (": |", ": >", " : |", " : >", "\t: |", "\t: >"),
        check=_block_label,
        judged_by=("key", "first"),
        extend=_block,
        anchored=True,
        back=82,
        back_chars=_KEY_CHARS + "\"'",
    ),
    Detector(
        "secret",
        re.compile(
            # the look-behind after the first ``-`` (none of a word before it): ``re``
            # skips to a ``-`` in a dense text's scan, not tries every character
            r"-(?<![\w-]-)-(?P<key>[a-z0-9\-]{1,60})(?P<sep>[ \t]{1,5})"
            r"(?P<secret>[^\s\"'\-][^\s\"']{0,1023})",
            re.IGNORECASE,
        ),
        ("password", "passwd", "token", "secret", "api-key", "apikey", "access-key", "private-key"),
        check=_labelled,
        judged_by=("key", "sep", "secret"),
        anchored=True,
        back=40,
        back_chars=_KEY_CHARS.replace("_", "").replace(".", ""),
        requires="--",  # a text of labels with no flag (``token=…``) skips it whole
    ),
    Detector(
        "netrc-password",
        # In a repr or escaped JSON the file's line breaks are written ``\\n``: the value
        # stops there, and at the quote that ends the string.
        re.compile(
            r"(?:(?<![\w])|(?<=\\[nrt]))password(?:\s|\\[nrt]){1,20}"
            r"(?P<secret>[^\s:=\\\"'](?:[^\s\\\"']|\\(?![nrt\"'])){0,255})",
            re.IGNORECASE,
        ),
        ("password",),
        check=_netrc,
        anchored=True,
        # Matched at its needles however many: a scan tries the lookbehinds at every
        # character (~3 ms for 64 KB), a match a needle ~0.5 us; the matches are the
        # same (every match starts at a "password" the needles find).
        scan=False,
    ),
    Detector(
        # A framework's secret key unquoted (``SECRET_KEY=…`` in a .env file, a shell,
        # YAML): Django's alphabet holds ``&``, ``=``, ``(`` and ``)``, which end any other
        # value, so under this name the value runs over all of them, to a blank or a quote
        # (``_framework_key``). Not after ``?`` or ``&``: a URL's parameter ends at ``&``,
        # which a key there must escape.
        "secret",
        re.compile(
            r"(?<![\w.\-?&])(?:[\w.\-]{0,60}[_.\-])?secret[_\-]?key(?:\\{0,3}[\"'])?"
            r"[ \t]{0,5}[=:][ \t]{0,5}(?P<secret>[A-Za-z0-9!@#$%^&*()\-_=+]{8,256})",
            re.IGNORECASE,
        ),
        ("secret_key", "secret-key", "secretkey"),
        check=lambda m: _framework_key(m.group("secret")),
        judged_by=("secret",),
        anchored=True,
        back=60,
        back_chars=_KEY_CHARS,
    ),
    Detector("mailchimp-key", re.compile(r"\b[0-9a-f]{32}-us[0-9]{1,2}\b"), ("-us",)),
    Detector(
        # A ``.pgpass`` line: ``host:port:database:user:password`` (the port of
        # PostgreSQL or PgBouncer, or ``*``).
        "secret",
        re.compile(
            r"(?<![\w.\-:])[\w.\-*]{1,253}:(?:5432|5433|6432|\*):[^\s:]{1,63}:[^\s:]{1,63}:"
            r"(?P<secret>[^\s:\"'][^\s\"']{0,1023})"
        ),
        (":5432:", ":5433:", ":6432:", ":*:"),
        check=_anything,
        judged_by=("secret",),
    ),
    # Django's generated SECRET_KEY, bare: ``django-insecure-`` and 50 characters of
    # its alphabet (lowercase letters, digits and ``!@#$%^&*(-_=+)``).
    Detector(
        "django-secret-key",
        re.compile(r"django-insecure-[A-Za-z0-9!@#$%^&*()\-_=+]{20,100}"),
        ("django-insecure-",),
    ),
    # An OTP seed in a provisioning URI (``otpauth://totp/ACME:bob?secret=JBSW…``, the
    # QR code's text): its base32 ``secret`` parameter, the rest of the URI stays.
    Detector(
        "otp-seed",
        re.compile(
            r"otpauth://[A-Za-z]{3,8}/[^\s?#]{0,200}\?(?:[^\s#&]{0,200}&){0,20}"
            r"secret=(?P<secret>[A-Za-z2-7]{8,128}=*)",
            re.IGNORECASE,
        ),
        ("otpauth://",),
    ),
    Detector(
        "azure-client-secret",
        re.compile(r"(?<![\w~.])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34}(?![\w~.\-])"),
        ("q~",),
    ),
    Detector(
        "terraform-token",
        # The id before ``.atlasv1.`` is part of the token (mixed case: ``bBPeuMRP3lzpCD``).
        re.compile(r"(?<![A-Za-z0-9])[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-=]{60,80}"),
        ("atlasv1",),
    ),
    Detector(
        # An Asana personal access token: ``0/<32 hex>``, ``1/<user>:<32 hex>``,
        # ``2/<user>/<app>:<32 hex>``.
        "asana-token",
        re.compile(r"(?<![\w/.])[0-2]/(?:[0-9]{4,20}(?:/[0-9]{4,20})?:)?[0-9a-f]{32}(?![0-9a-f])"),
        ("0/", "1/", "2/"),
        anchored=True,
        # "v1/orders" is in every other URL: a hex digit or a number must follow the "/"
        # (looked for from the "/": a search for a literal first is several times faster
        # than one trying a class at every character)
        screen=re.compile(r"/(?<=[012]/)[0-9a-f]"),
    ),
    Detector(
        # (fix22) a secret printed on the line after a command that prints one
        # (``$ gcloud auth print-access-token`` then ``ya29.…``): ``_commands.PRINTED``
        "secret",
        _commands.PRINTED,
        _commands.PRINTED_NEEDLES,
        check=_commands.prints_a_secret,
        finder=_commands.printed_find,
    ),
    Detector(
        # (fix22) Redis MONITOR's echo of a password command: ``"CONFIG" "SET"
        # "requirepass" "v"``, ``"AUTH" "v"``, ``"AUTH" "bob" "v"`` (the last argument goes)
        "secret",
        re.compile(
            r"\"(?:requirepass|masterauth|auth)\"(?:[ \t]\"(?:[^\"\\\r\n]|\\.){0,256}\")?"
            r"[ \t]\"(?P<secret>(?:[^\"\\\r\n]|\\.){1,512})\"(?![ \t]\")",
            re.IGNORECASE,
        ),
        ('"requirepass"', '"masterauth"', '"auth"'),
        check=_anything,
        anchored=True,
    ),
    Detector(
        # (fix22) "SNMP community string: v", "the community string is v" (SNMP's
        # default ``public`` stays, as after ``community``)
        "secret",
        re.compile(
            r"community[ \t]{1,3}string[ \t]{0,3}(?:[:=\uff1a]|is|was)[ \t]{0,3}"
            r"(?P<q>[\"'`]?)(?P<secret>[^\s\"'`]{1,256})(?P=q)",
            re.IGNORECASE,
        ),
        ("community string",),
        check=lambda m: (
            m.group("secret").lower() not in SNMP_DEFAULTS
            and plausible_value(m.group("secret"), prose_allowed=True)
        ),
        anchored=True,
    ),
    Detector(
        # An Ansible Vault payload: the header stays, the hex lines after it go.
        "ansible-vault",
        re.compile(
            r"\$ANSIBLE_VAULT;[0-9.]{1,8};[A-Za-z0-9]{1,16}(?:;[^\s;\\]{1,64})?"
            r"(?:\s|\\[nr]){1,20}(?P<secret>[0-9a-fA-F](?:[0-9a-fA-F]|\s|\\[nr]){0,1048576})"
            r"(?<=[0-9a-fA-F])"
        ),
        ("$ansible_vault;",),
        anchored=True,
    ),
    Detector(
        # A user and a password after a credentials label: ``credentials: bob / v``,
        # ``creds bob:v``, ``login: bob/v``, ``username/password: bob / v``, ``creds =
        # ("bob", "v")``, the label a name's last word too (``BROKER_LOGIN=guest:v``);
        # the user stays.
        "secret",
        re.compile(
            r"(?<![\w\-])(?P<label>(?:[A-Za-z0-9]{1,40}[_.\-]){0,4}"
            r"(?:credentials?|creds?|logins?|user(?:name)?[/:]pass(?:word)?))"
            r"(?:[ \t]{0,5}[:=\uff1a][ \t]{0,5}|[ \t]{1,5}(?:(?:is|are|was|were)[ \t]{1,5})?)"
            r"[(\[]?[ \t]{0,3}(?P<q>[\"']?)(?P<user>[\w.@+\-]{1,64})(?P=q)"
            r"(?P<pair>[ \t]{0,3}/[ \t]{0,3}|:|[ \t]{0,3},[ \t]{0,3})"
            r"(?P<secret>\"[^\"\r\n]{1,256}\"|'[^'\r\n]{1,256}'|[^\s\"'<>`,;()\[\]]{1,256})",
            re.IGNORECASE,
        ),
        ("cred", "login", "user/pass", "username/pass", "user:pass", "username:pass"),
        check=_pair,
        judged_by=("label", "user", "pair", "secret"),
        anchored=True,
        back=205,
        back_chars=_KEY_CHARS,
        screen=re.compile(r"[/:,]"),  # a pair has one: a text without any is not read
    ),
    Detector(
        # A Wi-Fi QR code's text (``WIFI:S:home;T:WPA;P:<password>;;``): its ``P`` field.
        "wifi-password",
        re.compile(r"(?:;|WIFI:)P:(?P<secret>(?:\\[^\r\n]|[^;\\\r\n]){1,256})"),
        (";p:", "wifi:p:"),
        check=_wifi,
        anchored=True,
    ),
    Detector(
        # A form post or query with a user and a one-letter password key (``u=bob&p=v``,
        # ``p=v&user=bob``): ``p`` alone is a page or a query (``?p=2``, ``?p=shoes``).
        "secret",
        re.compile(r"(?<![^?&;\s\"'])p=(?P<secret>[^&;#\s\"']{1,1024})", re.IGNORECASE),
        ("p=",),
        check=_form_password,
        anchored=True,
    ),
    Detector(
        # A secret named in one field and given in the next: HCL ``variable
        # "db_password" { default = "v" }`` (or ``output … { value = … }``).
        "secret",
        re.compile(
            r"\b(?:variable|output)[ \t]{1,5}\"(?P<key>[\w.\-]{1,80})\"[ \t]{0,5}\{"
            r"[^{}]{0,1024}?\b(?:default|value)[ \t]{0,5}=[ \t]{0,5}"
            r"(?P<secret>\"(?:[^\"\\\r\n]|\\.){0,1024}\"|[^\s{}\"]{1,1024})"
        ),
        ('variable "', 'output "'),
        check=_element,
        judged_by=("key", "secret"),
        anchored=True,
    ),
    Detector(
        # … and a pydantic ``ValidationError``'s text: an error's field location on one
        # line labels the ``input_value`` quoted on the next (``api_key`` then ``String
        # should have at most 8 characters [type=string_too_long, input_value='v', …]``);
        # the location may be dotted (``config.db.password``, ``items.0.token``), end in a
        # union's or a validator's tag (``api_key.literal['a','b']``, ``token.function-
        # after[check(), str]``: the names before it are judged) and the lines be indented
        # or barred as a logged traceback draws them. A list, a tuple or a dict given
        # for the field: its items judged one by one (the next detector); a missing
        # field's input is its parent's, and stays.
        "secret",
        re.compile(
            r"^[ \t|]{0,40}(?P<key>[\w\-][^\r\n]{0,300})"
            r"\r?\n[ \t|]{1,40}[^\r\n]{0,600}?"
            r"\[type=(?!missing,)[\w\-]{1,80}, input_value="
            r"(?P<secret>'(?:[^'\\\r\n]|\\.){0,1024}'|\"(?:[^\"\\\r\n]|\\.){0,1024}\""
            r"|[bB](?:'[^'\r\n]{0,1024}'|\"[^\"\r\n]{0,1024}\")|[^\s,\]{}\[()'\"]{1,1024})",
            re.MULTILINE,
        ),
        ("input_value=",),
        check=_validation_input,
        judged_by=("key", "secret"),
        requires="[type=",
    ),
    Detector(
        # … and the same error as data (``exc.errors()``, ``exc.json()``, FastAPI's 422
        # body): ``{"loc": ["body", "password"], "msg": "…", "input": "v"}``, in JSON or
        # as a Python repr (``'loc': ('password',)``).
        "secret",
        re.compile(
            r"[\"']loc[\"'][ \t]{0,3}:[ \t]{0,3}[\[(](?P<key>[^\[\](){}\r\n]{1,400})[\])]"
            r"(?:[ \t]{0,3},[ \t]{0,3}[\"'](?!input[\"'])\w{1,20}[\"'][ \t]{0,3}:[ \t]{0,3}"
            r"(?:\"(?:[^\"\\\r\n]|\\.){0,1024}\"|'(?:[^'\\\r\n]|\\.){0,1024}'"
            r"|[\w.\-]{1,40})){0,3}"
            r"[ \t]{0,3},[ \t]{0,3}[\"']input[\"'][ \t]{0,3}:[ \t]{0,3}"
            r"(?P<secret>\"(?:[^\"\\\r\n]|\\.){0,1024}\"|'(?:[^'\\\r\n]|\\.){0,1024}'"
            r"|[bB](?:'[^'\r\n]{0,1024}'|\"[^\"\r\n]{0,1024}\")|[\w.+\-]{1,1024})"
        ),
        ('"loc"', "'loc'"),
        check=_error_input,
        judged_by=("key", "secret"),
        anchored=True,
        also=("input",),
    ),
    Detector(
        # … and a list, a tuple or a dict given for a secret's field, in both: each
        # value in it judged as under the field's name (``input_value=['v', 'x']``,
        # ``"input": ["v", "x"]``, ``'input': {'v': 'x'}``; ``_error_containers``).
        "secret",
        SPAN,
        ("input_value=", '"loc"', "'loc'"),
        finder=_error_containers,
    ),
    Detector(
        # … and a name/value pair (``_named``): a Kubernetes or ECS ``env`` entry
        # (``- name: DB_PASSWORD`` then ``value: v``), ``{"name": "API_KEY", "value":
        # "v"}``, AWS SSM's ``{"Name": "/prod/db/password", "Type": "SecureString",
        # "Value": "v"}``, ``{"Key": …, "Value": …}``, CloudFormation's
        # ``ParameterKey``/``ParameterValue``, ``{"column": "password", "rows": [v]}``.
        "secret",
        SPAN,
        _named.NEEDLES,
        finder=_named.find,
    ),
    Detector(
        # (fix21a) codes listed under a plural label of codes (``_code_lists``): a YAML,
        # numbered or bulleted list, or a grid; each code goes, the list's shape stays.
        "secret",
        SPAN,
        _code_lists.NEEDLES,
        finder=_code_lists.find,
    ),
    Detector(
        # (fix21a) Entity Framework's logged parameters that a secret's column takes
        # (``_sql_params``).
        "secret",
        SPAN,
        _sql_params.NEEDLES,
        finder=_sql_params.find,
    ),
    Detector(
        # (fix21a) a Solana keypair's 64 bytes, and a spaced TOTP setup key
        # (``_key_shapes``).
        "secret",
        SPAN,
        _key_shapes.BYTE_NEEDLES,
        finder=_key_shapes.byte_keys,
    ),
    Detector(
        "secret",
        SPAN,
        _key_shapes.SPACED_NEEDLES,
        finder=_key_shapes.spaced_keys,
    ),
    Detector(
        # (fix21a) a runtime's dump of a value under a secret's name (``_dumps``): PHP's
        # ``var_dump``, Rust's ``Some("v")``, an Erlang or Elixir ``{password,<<"v">>}``,
        # a ``.properties`` key with escapes (``mail.smtp.password\\:primary=v``).
        "secret",
        _dumps.PHP_DUMP,
        _dumps.PHP_NEEDLES,
        check=_element,
        judged_by=("key", "secret"),
    ),
    Detector(
        "secret",
        _dumps.SOME,
        _dumps.SOME_NEEDLES,
        check=_element,
        judged_by=("key", "secret"),
    ),
    Detector(
        "secret",
        _dumps.TUPLE,
        _LABEL_WORDS,  # (a brace alone is in every JSON text)
        check=_element,
        judged_by=("key", "secret"),
        requires=",",
    ),
    Detector(
        "secret",
        _dumps.ESCAPED_KEY,
        _dumps.ESCAPED_NEEDLES,
        check=_escaped_key,
        judged_by=("key", "secret"),
    ),
    Detector(
        # (fix21a) … and in XML, in neighbouring elements: Hadoop's ``<name>…</name>``
        # then ``<value>v</value>``, KeePass's ``<Key>Password</Key><Value>v</Value>``, a
        # property list's ``<key>password</key><string>v</string>`` (``_named``).
        "secret",
        _named.XML_SIBLINGS,
        _named.XML_NEEDLES,
        check=_named.xml_sibling,
        judged_by=("key", "secret"),
    ),
    Detector(
        # (fix21a) … and Java's XML properties: ``<entry key="password">v</entry>``.
        "secret",
        _named.XML_ENTRY,
        _named.ENTRY_NEEDLES,
        check=_named.xml_sibling,
        judged_by=("key", "secret"),
    ),
    Detector(
        # A label in one item, its value in the next (``_positional``): an argv list's
        # ``'--password', 'v'``, a call's ``setdefault('SECRET_KEY', 'v')``.
        "secret",
        ITEM_PAIR,
        _LABEL_WORDS,
        check=item_pair,
        judged_by=("key", "secret"),
        anchored=True,
        back=84,
        back_chars=_KEY_CHARS + "\"'\\",
        scan=False,
        requires=",",
        screen=re.compile(r"[\"'][ \t]{0,5},"),  # a text of labels with no item list skips it
    ),
    Detector(
        # A user and a password as a pair: ``auth=('bob', 'v')``, ``HTTPBasicAuth('bob',
        # 'v')``, ``smtp.login('bob', 'v')``: the second item goes, the user stays.
        "secret",
        CREDENTIAL_PAIR,
        ("auth", "login", "cred", "sign"),
        check=credential_pair,
        judged_by=("user", "secret"),
        anchored=True,
        back=206,
        back_chars=_KEY_CHARS,
        scan=False,
        requires=",",
        screen=re.compile(r"[(\[][ \t]{0,5}\\{0,3}[\"']"),  # an opened pair of quoted items
    ),
    Detector(
        # PowerShell: ``ConvertTo-SecureString 'v' -AsPlainText -Force``.
        "secret",
        re.compile(
            r"convertto-securestring[ \t]{1,5}(?:-string[ \t]{1,5})?"
            r"(?P<secret>\"[^\"\r\n]{1,1024}\"|'[^'\r\n]{1,1024}'|[^\s\"'$(\-][^\s]{0,1023})",
            re.IGNORECASE,
        ),
        ("convertto-securestring",),
        check=_anything,
        judged_by=("secret",),
        anchored=True,
    ),
    Detector(
        # A capability in a URL's query under a name that is no secret word: an invite,
        # a password reset, a magic link, a verification code, a CAS ticket, a licence, a
        # map key (``ak``), a confirmation hash (``h``).
        "secret",
        re.compile(
            r"[?&;](?P<key>" + "|".join(_CAPABILITY_KEYS) + r")=(?P<secret>[^&#\s\"'<>]{1,1024})",
            re.IGNORECASE,
        ),
        tuple(f"{c}{k}=" for k in _CAPABILITY_KEYS for c in "?&;"),
        check=_capability,
        judged_by=("secret",),
        anchored=True,
    ),
    Detector(
        # A cloud key pair written as ``AK``/``SK`` (Alibaba, Baidu, Huawei): ``AK=id
        # SK=v``, ``ak: id, sk: v``; the secret key goes.
        "secret",
        re.compile(
            r"(?<![\w\-])sk(?:\\{0,3}[\"'])?[ \t]{0,3}[=:\uff1a][ \t]{0,3}(?:\\{0,3}[\"'])?"
            r"(?P<secret>[A-Za-z0-9/+=_\-]{8,256})",
            re.IGNORECASE,
        ),
        ("sk=", "sk:", "sk =", "sk :", "sk\uff1a", 'sk"', "sk'", "sk\\"),
        check=_ak_before,
        anchored=True,
    ),
    Detector(
        # An HTML ``<meta>`` named like a secret: ``<meta name="csrf-token" content="v">``.
        "secret",
        re.compile(
            r"\b(?:name|property|itemprop)[ \t]{0,5}=[ \t]{0,5}[\"'](?P<key>[\w.\-:]{1,80})[\"']"
            r"[ \t]{1,40}content[ \t]{0,5}=[ \t]{0,5}[\"'](?P<secret>[^\"'\r\n]{1,1024})[\"']",
            re.IGNORECASE,
        ),
        ("name=", "name =", "property=", "itemprop="),
        check=_element,
        judged_by=("key", "secret"),
        anchored=True,
    ),
    Detector(
        # ... its content first: ``<meta content="v" name="csrf-token">``.
        "secret",
        re.compile(
            r"\bcontent[ \t]{0,5}=[ \t]{0,5}[\"'](?P<secret>[^\"'\r\n]{1,1024})[\"'][ \t]{1,40}"
            r"(?:name|property|itemprop)[ \t]{0,5}=[ \t]{0,5}[\"'](?P<key>[\w.\-:]{1,80})[\"']",
            re.IGNORECASE,
        ),
        ("content=", "content ="),
        check=_element,
        judged_by=("key", "secret"),
        anchored=True,
    ),
    Detector(
        # A provider's token hex-encoded (``736b5f6c6976655f…`` is ``sk_live_…``) or in
        # base64 (``Z2hwX…`` is ``ghp_…``): a run whose bytes hold one (``_encoded``).
        "hex-encoded-token",
        SPAN,
        _encoded.HEX_NEEDLES,
        finder=_encoded.in_hex,
    ),
    Detector(
        # A secret's label and its value hex-encoded (``70617373776f72643d…`` is
        # ``password=…``): a run of printable ASCII bytes holding one (``_encoded``).
        "hex-encoded-secret",
        SPAN,
        _encoded.HEX_LABEL_NEEDLES,
        finder=_encoded.in_hex_labelled,
    ),
    Detector("base64-encoded-token", SPAN, _encoded.BASE64_NEEDLES, finder=_encoded.in_base64),
    Detector(
        # A wallet's seed phrase: twelve BIP39 words or more after a label that names one
        # (``mnemonic: abandon ability …``, ``"seed phrase": "…"``, ``wallet words are …``).
        "seed-phrase",
        SPAN,
        _seeds.NEEDLES,
        finder=_seeds.find,
    ),
    Detector(
        # A password flag of a command-line tool, as shell text or an argv list
        # (``redis-cli -a v``, ``['sqlcmd', '-P', 'v']``, ``openssl … -passin pass:v``).
        "secret",
        SPAN,
        _commands.NEEDLES,
        finder=_commands.find,
    ),
    Detector(
        # A password fed on standard input to a command that reads one there (``echo v
        # | sudo -S …``, ``echo 'bob:v' | chpasswd``, ``heroku login -i <<< $'m\\nv'``).
        "secret",
        SPAN,
        _commands.STDIN_NEEDLES,
        finder=_commands.stdin_find,
    ),
    Detector(
        # A password an ``expect`` script sends (``expect "*assword:"`` then ``send "v\\r"``).
        "secret",
        SPAN,
        _commands.SEND_NEEDLES,
        finder=_commands.send_find,
    ),
    Detector(
        # A secret written before its label in a sentence: "``v`` is the new root
        # password", "'v' (password) was rejected", "``v``, the password for …".
        "secret",
        SPAN,
        _before_label.NEEDLES,
        finder=_before_label.find,
    ),
    Detector(
        # SQL: the value at a secret column's index (``INSERT INTO users (name, password)
        # VALUES ('bob', 'v')``, and SQLAlchemy's bound ``[parameters: ('bob', 'v')]``).
        "secret",
        SPAN,
        ("values",),
        finder=sql_values,
    ),
    Detector(
        # PostgreSQL's key violation detail: ``Key (user_id, api_key)=(42, v)``.
        "secret",
        SPAN,
        (")=(",),
        finder=key_values,
    ),
    # -- internals: not secrets, but not the model's business in a failure line -------
    Detector(
        "email",
        re.compile(
            r"(?<![\w.%+\-/])[A-Za-z0-9._%+\-]{1,64}@[A-Za-z0-9\-]{1,63}"
            r"(?:\.[A-Za-z0-9\-]{1,63}){0,8}\.[A-Za-z]{2,24}\b(?![:@]|\.[A-Za-z0-9])"
        ),
        ("@",),
        check=_an_address,
        kind="email",
        anchored=True,
        back=64,
        back_chars=_KEY_CHARS + "%+",
    ),
    Detector(
        "private-ip",
        re.compile(
            r"(?<![\d.])(?:10(?:\.\d{1,3}){3}|127(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|"
            r"172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|169\.254(?:\.\d{1,3}){2}|"
            r"100\.(?:6[4-9]|[7-9]\d|1[01]\d|12[0-7])(?:\.\d{1,3}){2})(?![\d.]*\d)"
        ),
        ("10.", "127.", "192.168.", "172.", "169.254.", "100."),
        kind="internal",
        anchored=True,
    ),
    Detector(
        "private-ip",
        re.compile(
            r"(?<![\w:])(?:::1|(?:f[cd][0-9a-f]{2}|fe80):[0-9a-f:]{2,39})(?![\w:])", re.IGNORECASE
        ),
        ("::1", "fc", "fd", "fe80:"),
        kind="internal",
        anchored=True,
    ),
    Detector(
        "internal-host",
        re.compile(
            r"(?<![\w.\-])(?:(?:[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?\.){1,10}"
            r"(?:internal|local|corp|lan|intranet|localdomain|home\.arpa)|localhost)"
            r"\b(?![.\-][a-z0-9])",
            re.IGNORECASE,
        ),
        (".int", "local", ".corp", ".lan", "home.arpa"),
        kind="internal",
        anchored=True,
        back=253,
        back_chars=_KEY_CHARS,
    ),
    Detector(
        "user",
        re.compile(r"(?:/home/|/Users/)(?P<secret>[^/\\\s'\"<>:]{1,64})"),
        ("/home/", "/users/"),
        kind="internal",
        anchored=True,
    ),
    Detector(
        "user",
        re.compile(r"[A-Za-z]:\\{1,2}Users\\{1,2}(?P<secret>[^/\\\s'\"<>:]{1,64})"),
        ("users\\",),
        kind="internal",
    ),
)
