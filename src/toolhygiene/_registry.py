"""Redaction rules a user adds: more detectors, and values that are never redacted.

Process-wide, like classification rules (``add_rule``): a detector added here runs after
the built-in ones in every ``redact``, ``sanitize`` and success result; an allowed value
(a string, or a compiled pattern that must match all of it) survives every detector.
"""

from __future__ import annotations

import functools
import importlib
import re
import string
import sys
import threading
from typing import TYPE_CHECKING, Any

from toolhygiene._exceptions import UsageError

if TYPE_CHECKING:  # the detectors compile at the first redaction, not with toolhygiene
    from toolhygiene._detectors import Detector

__all__ = [
    "WINDOW",
    "add_redaction",
    "allowed",
    "clear_redactions",
    "never_redact",
    "user_detectors",
]

_lock = threading.Lock()
_detectors: tuple[Detector, ...] = ()
_values: frozenset[str] = frozenset()
_patterns: tuple[re.Pattern[str], ...] = ()
_broad: tuple[re.Pattern[str], ...] = ()
_broad_labelled: tuple[re.Pattern[str], ...] = ()
# Real-looking credentials of different providers (made up): an allow pattern that
# matches any of them is broad (``\w+``, ``.+``, ``sk_\w+``) and keeps no provider-format
# credential; a specific one (``sk_test_\w+``, ``AKIA[A-Z0-9]{12}TEST``) may.
_CANARIES = (
    "ghp_" + "Q7vX2mK9pL4wR8tZ6nB3aB3dEf6hIj9kLm2n",
    "AKIA" + "Q7VX2MK9PL4WR8TZ",
    "xoxb-" + "123456789012-1234567890123-Q7vX2mK9pL4wR8tZ6nB3aB3d",
    "sk_live_" + "Q7vX2mK9pL4wR8tZ6nB3aB3d",
    "sk-ant-api03-" + "Q7vX2mK9pL4wR8tZ6nB3aB3dEf6hIj9kLm2n",
    "glpat-" + "Q7vX2mK9pL4wR8tZ6nB3",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.Q7vX2mK9pL4wR8tZ6nB3",
)
# Random-looking passwords and keys of common lengths and alphabets: a pattern matching
# one of these would keep any labelled secret of its shape (``password=…``), so it keeps
# only values found without a label (a file name, an id in a URL).
_LABEL_CANARIES = (
    *("Q7vX2mK9pL4wR8tZ6nB3aB3dEf6hIj9kLm2nQ7vX"[:n] for n in (8, 10, 12, 16, 20, 22, 24, 32, 40)),
    "3f9a0c1be27d4f6a8b5c9d0e1f2a3b4c",
    "Q7vX2mK9-pL4w_R8tZ6nB3",
    "Qz9xLm2Rk7+Tb4Wn/8Vc3Hj6=",
)
# The regex parser (private, stable since Python 2): ``re._parser`` from 3.11 on.
_NEW_PARSER = sys.version_info >= (3, 11)
_parser: Any = importlib.import_module("re._parser" if _NEW_PARSER else "sre_parse")
_constants: Any = importlib.import_module("re._constants" if _NEW_PARSER else "sre_constants")
_POSSESSIVE = getattr(_constants, "POSSESSIVE_REPEAT", None)
_ATOMIC = getattr(_constants, "ATOMIC_GROUP", None)
_NAME = re.compile(r"[a-z0-9][a-z0-9\-]{0,39}")
WINDOW = 512
"""The longest match a user's pattern is sure to be found with: the engine reads user
patterns in windows (``_engine._windowed``), so one that needs more is refused."""


def add_redaction(
    name: str,
    pattern: str | re.Pattern[str],
    *,
    gate: str | tuple[str, ...] | list[str] | set[str] | frozenset[str] = (),
    internal: bool = False,
) -> None:
    """Redact what ``pattern`` matches as ``[redacted:<name>]``, everywhere.

    Args:
        name: lowercase letters, digits and ``-`` (``"acme-key"``).
        pattern: a regex; with a group named ``secret`` only that group is replaced, so
            a label before it can stay (``r"acme_id=(?P<secret>\\w+)"``).
        gate: substrings of a match of which one must occur in the text for the regex
            to run, read in either case (a cheap filter, worth giving for a pattern
            that starts with a literal): a string, or a tuple, list or set of them.
        internal: an internal detail rather than a secret: like e-mail addresses and
            private addresses, it is redacted in failures and logs but left in what the
            model itself sent and in successful results.

    Raises:
        UsageError: a bad name, or a name already used for another rule; a pattern that
            is not a ``str`` or compiled ``str`` pattern, does not compile, matches the
            empty string or has a shape of catastrophic backtracking; a gate that is not
            a string (or a tuple, list or set of them), is empty, or holds a character
            no match of the pattern can hold.
    """
    global _detectors
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise UsageError(
            f"add_redaction: name {name!r} must be a string of lowercase letters, digits "
            "and '-' (it becomes [redacted:<name>])"
        )
    compiled = _compiled(name, pattern)
    gates = _gates(name, compiled, gate)
    if not isinstance(internal, bool):
        raise UsageError(f"redaction {name!r}: internal must be True or False, not {internal!r}")
    from toolhygiene._detectors import Detector

    detector = Detector(name, compiled, gates, "internal" if internal else "secret")
    with _lock:
        same = [d for d in _detectors if d.name == name]
        if same and same[0] == detector:
            return  # the same rule again (setup code run twice): nothing to add
        if same:
            raise UsageError(
                f"redaction {name!r} exists already with another pattern or options; give "
                "this one another name, or clear_redactions() first"
            )
    with _lock:
        _detectors = (*_detectors, detector)


def _compiled(name: str, pattern: object) -> re.Pattern[str]:
    """``pattern`` compiled and checked (see ``add_redaction``)."""
    if isinstance(pattern, re.Pattern) and isinstance(pattern.pattern, str):
        compiled: re.Pattern[str] = pattern
    elif isinstance(pattern, str):
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            raise UsageError(f"redaction {name!r}: the pattern does not compile: {exc}") from exc
    else:
        raise UsageError(
            f"redaction {name!r}: pattern must be a str or a compiled str pattern, "
            f"not {type(pattern).__name__}"
        )
    if compiled.search("") is not None:
        raise UsageError(
            f"redaction {name!r}: the pattern matches the empty string, so it would "
            "redact nothing or everything; make it require at least one character"
        )
    parsed = _parser.parse(compiled.pattern, compiled.flags)
    if parsed.getwidth()[0] > WINDOW:
        raise UsageError(
            f"redaction {name!r}: every match of the pattern is longer than {WINDOW} "
            f"characters, and user patterns read the text {WINDOW} characters at a time "
            "(a longer match is followed to its end once found); make the pattern match "
            "the value's start and run on (for example 'acme_[0-9a-f]{24}[0-9a-f]*')"
        )
    _refuse_backtracking(f"redaction {name!r}", parsed)
    return compiled


def _refuse_backtracking(who: str, parsed: Any) -> None:
    """Refuse a user pattern of catastrophic backtracking (``add_redaction``'s and
    ``never_redact``'s: one check for every pattern a user gives, which is tried on text
    an upstream controls)."""
    slow = _nested_repeat(parsed) or _adjacent_repeats(parsed)
    if slow:
        raise UsageError(
            f"{who}: the pattern can backtrack for minutes on a short "
            f"hostile text ({slow}); write it without nesting, with branches that "
            "differ at a character (for example '(a+)+' and '(a|aa)+' as 'a+'), and "
            "with a character between two long quantifiers that only one of them takes "
            "(for example '\\w*\\w*!' as '\\w*!', '.*x.*y' as '[^x]*x[^y]*y')"
        )


def _gates(name: str, compiled: re.Pattern[str], gate: object) -> tuple[str, ...]:
    """``gate`` as a tuple of lowercase needles, checked (see ``add_redaction``)."""
    if isinstance(gate, str):
        gates: tuple[object, ...] = (gate,)
    elif isinstance(gate, (tuple, list)):
        gates = tuple(gate)
    elif isinstance(gate, (set, frozenset)):
        gates = tuple(sorted(gate, key=repr))  # a fixed order, whatever the hash seed
    else:
        gates = (None,)
    if not all(isinstance(g, str) for g in gates):
        raise UsageError(
            f"redaction {name!r}: gate must be a string, or a tuple, list or set of "
            f"strings, not {gate!r}"
        )
    needles = [g for g in gates if isinstance(g, str)]
    if not all(needles):
        raise UsageError(f"redaction {name!r}: a gate must not be empty (it would run always)")
    lowered = tuple(g.lower() for g in needles)
    can_hold = _lowered(_chars(_parser.parse(compiled.pattern, compiled.flags)))
    for needle in lowered:
        cannot = [c for c in needle if _code(c) not in can_hold]
        if cannot:
            raise UsageError(
                f"redaction {name!r}: gate {needle!r} can never be inside a match of the "
                f"pattern (no part of it matches {cannot[0]!r}), so the rule would never "
                "run; give a substring every match holds, or no gate"
            )
    return lowered


def _code(char: str) -> int:
    return ord(char) if ord(char) < 128 else _OTHER


def _lowered(chars: frozenset[int]) -> frozenset[int]:
    """``chars`` with each ASCII letter's lowercase form (gates are read in lowered text)."""
    return chars | {ord(chr(c).lower()) for c in chars if 0 <= c < 128}


def _long(op: Any, arg: Any) -> bool:
    """Whether a piece is a quantifier that may repeat a variable number of times,
    without bound or up to more than ``_LONG`` (possessive ones never give back: they do
    not count)."""
    return (
        op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT)
        and arg[0] != arg[1]  # a fixed count takes what it takes: no choice to try again
        and (arg[1] is _constants.MAXREPEAT or arg[1] > _LONG)
    )


def _pieces(parsed: Any) -> list[tuple[Any, Any]]:
    """A sequence's pieces, with the groups that are not repeated read inline."""
    flat: list[tuple[Any, Any]] = []
    for op, arg in parsed:
        if op is _constants.SUBPATTERN:
            flat.extend(_pieces(arg[-1]))
        else:
            flat.append((op, arg))
    return flat


def _holds_long(parsed: Any) -> bool:
    """Whether a long quantifier is anywhere in ``parsed`` (an alternation's branch)."""
    for op, arg in parsed:
        if _long(op, arg):
            return True
        if op is _constants.SUBPATTERN and _holds_long(arg[-1]):
            return True
        if op is _constants.BRANCH and any(_holds_long(b) for b in arg[1]):
            return True
    return False


def _adjacent_repeats(parsed: Any) -> str:
    """Two long quantifiers in one sequence over characters in common, with nothing
    between them that only one can take (``\\w*\\w*!``, ``[\\s\\S]*x[\\s\\S]*y``,
    ``\\d+0*\\d+x``): the text between them can be split between the two in as many
    ways as it is long, and each split is tried: polynomial, 16 s for 200 characters
    with four. Read in every sequence of the pattern, groups inline."""
    pieces = _pieces(parsed)
    open_chars: frozenset[int] | None = None  # what the last long quantifier can take
    for op, arg in pieces:
        if op in (_constants.AT, _constants.ASSERT, _constants.ASSERT_NOT):
            found = _adjacent_repeats(arg[1]) if op is not _constants.AT else ""
            if found:
                return found
            continue  # zero-width: splits nothing
        chars = _chars([(op, arg)])
        if _long(op, arg) or (op is _constants.BRANCH and _holds_long([(op, arg)])):
            if open_chars is not None and open_chars & chars:
                return "two long quantifiers in a row over the same characters"
            # one that can match nothing leaves the one before it open too ("\w+-*\w+")
            keep = open_chars is not None and _may_be_empty(op, arg)
            open_chars = chars | open_chars if keep and open_chars is not None else chars
        elif open_chars is not None and not open_chars & chars and not _may_be_empty(op, arg):
            open_chars = None  # a character the quantifier cannot take: the split is fixed
        if op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT, _POSSESSIVE):
            found = _adjacent_repeats(arg[2])
        elif op is _constants.BRANCH:
            found = next((f for b in arg[1] if (f := _adjacent_repeats(b))), "")
        else:
            found = ""
        if found:
            return found
    return ""


def _may_be_empty(op: Any, arg: Any) -> bool:
    r"""Whether one piece can match nothing (``\.?``, ``-*``): it parts no two quantifiers,
    since a text without it is split between them all the same (``\d+\.?\d+!``)."""
    return op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT, _POSSESSIVE) and arg[0] == 0


def _chars(parsed: Any) -> frozenset[int]:
    """Every character a match of ``parsed`` can hold (``_one``'s codes; over-counts)."""
    found: set[int] = set()
    for op, arg in parsed:
        if op in (_constants.AT, _constants.ASSERT, _constants.ASSERT_NOT):
            continue
        if op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT, _POSSESSIVE):
            found |= _chars(arg[2])
        elif op is _constants.SUBPATTERN:
            found |= _chars(arg[-1])
        elif op is _ATOMIC:
            found |= _chars(arg)
        elif op is _constants.BRANCH:
            for branch in arg[1]:
                found |= _chars(branch)
        else:
            found |= _one(op, arg)
    return frozenset(found)


_LONG = 16
"""An inner quantifier allowing more than this many (or unbounded) is long: inside a
group repeated a fixed number of times it still backtracks as a power of the text's
length (``(.*a){12}``), where a short one (``(\\d{1,3}\\.){3}``) does not."""


def _nested_repeat(
    parsed: Any, inside: bool = False, counted: bool = False, first: frozenset[int] = frozenset()
) -> str:
    """The first shape of catastrophic backtracking in a parsed pattern, as text ("" if
    none). Refused: a quantifier (one allowing a variable count) inside a group repeated
    a variable number of times (``(a+)+``, ``(\\w*\\s?)*``); a long quantifier inside a
    group repeated a fixed number of times, two or more (``(.*a){12}``); and, inside a
    group repeated a variable number of times, an alternation whose branches are not
    told apart by their first character: two can start with the same character, both can
    match nothing, or one can match nothing while another starts as the repeated group
    does (``(a|a)*``, ``(a|aa)+``, ``(ab|abab)+``); ``inside`` and ``counted`` say which
    repetition holds ``parsed``, ``first`` the characters the repeated group starts
    with."""
    for op, arg in parsed:
        children: list[Any] = []
        repeats = False
        if op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT, _POSSESSIVE):
            low, high, sub = arg
            unbounded = high is _constants.MAXREPEAT
            repeats = unbounded or high > max(low, 1)
            if repeats and inside:
                return "a quantifier inside a quantified group"
            if counted and (unbounded or high > _LONG):
                return "a long quantifier inside a group repeated a fixed number of times"
            if op is not _POSSESSIVE:
                found = _nested_repeat(
                    sub,
                    inside or repeats,
                    counted or (not repeats and high > 1),
                    _starts(sub) if repeats else first,
                )
                if found:
                    return found
            continue
        if op is _constants.SUBPATTERN:
            children = [arg[-1]]
        elif op is _constants.BRANCH:
            if inside and _ambiguous(arg[1], first):
                return "an alternation whose branches can match the same text"
            children = list(arg[1])
        elif op in (_constants.ASSERT, _constants.ASSERT_NOT):
            children = [arg[1]]
        elif op is _ATOMIC:
            continue
        for child in children:
            found = _nested_repeat(child, inside, counted, first)
            if found:
                return found
    return ""


_OTHER = -1  # any character outside ASCII
_ANY = frozenset((*range(128), _OTHER))
_EMPTY = -2  # in a set of first characters: the piece can match nothing


def _ambiguous(branches: list[Any], first: frozenset[int]) -> bool:
    """Whether two branches of an alternation can start alike (see ``_nested_repeat``)."""
    starts = [_starts(branch) for branch in branches]
    for at, one in enumerate(starts):
        if _EMPTY in one and any(c in first for c in one if c != _EMPTY):
            return True
        for later, other in enumerate(starts[at + 1 :], at + 1):
            if _overlap(list(branches[at]), list(branches[later]), first):
                return True
            if (_EMPTY in one and other & first) or (_EMPTY in other and one & first):
                return True
    return False


_SIMPLE = (_constants.LITERAL, _constants.IN, _constants.ANY, _constants.NOT_LITERAL)


def _overlap(one: list[Any], other: list[Any], first: frozenset[int]) -> bool:
    """Whether two branches can match the same text: read side by side while both are
    single characters, they differ where their characters cannot be the same (``bar``,
    ``baz``); past the single characters, their first characters decide; one that is
    the other's start (``a``, ``aa``) overlaps it when the rest of the longer one can
    start as the repeated group does (``first``: ``(a|aa)+``, not ``(a|ab)+``)."""
    for at, (mine, theirs) in enumerate(zip(one, other, strict=False)):
        if mine[0] not in _SIMPLE or theirs[0] not in _SIMPLE:
            return bool(_starts(one[at:]) & _starts(other[at:]))
        if not _one(*mine) & _one(*theirs):
            return False
    rest = (one if len(one) > len(other) else other)[min(len(one), len(other)) :]
    return not rest or bool(_starts(rest) & (first | {_EMPTY}))


def _starts(parsed: Any) -> frozenset[int]:
    """The characters (ASCII code points, ``_OTHER`` for the rest) a match of ``parsed``
    can start with, and ``_EMPTY`` when it can match nothing. Over-counts where unsure
    (case, inline flags, back references): the guard then refuses more, never less."""
    found: set[int] = set()
    for op, arg in parsed:
        if op in (_constants.AT, _constants.ASSERT, _constants.ASSERT_NOT):
            continue  # zero-width: the next piece starts the match
        if op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT, _POSSESSIVE):
            found |= _starts(arg[2]) - {_EMPTY}
            if arg[0] > 0 and _EMPTY not in _starts(arg[2]):
                return frozenset(found)
            continue
        if op is _constants.SUBPATTERN:
            inner = _starts(arg[-1])
        elif op is _ATOMIC:
            inner = _starts(arg)
        elif op is _constants.BRANCH:
            inner = frozenset().union(*(_starts(branch) for branch in arg[1]))
        else:
            inner = _one(op, arg)
        found |= inner - {_EMPTY}
        if _EMPTY not in inner:
            return frozenset(found)
    return frozenset((*found, _EMPTY))


def _one(op: Any, arg: Any) -> frozenset[int]:
    """The characters one character-matching piece can be (``_ANY`` where unsure)."""
    if op is _constants.LITERAL:
        return _cased(arg)
    if op is _constants.IN:
        chars: set[int] = set()
        for kind, value in arg:
            if kind is _constants.NEGATE:
                return _ANY - _one(op, arg[1:]) | {_OTHER}
            if kind is _constants.LITERAL:
                chars |= _cased(value)
            elif kind is _constants.RANGE:
                low, high = value
                chars.update(c for c in range(low, min(high, 127) + 1))
                if high > 127:
                    chars.add(_OTHER)
            elif kind is _constants.CATEGORY and value in _categories():
                chars |= _categories()[value]
            else:
                return _ANY  # anything else
        return frozenset(chars)
    if op is _constants.NOT_LITERAL:
        return _ANY - _cased(arg) | {_OTHER}
    return _ANY


@functools.cache
def _categories() -> dict[Any, frozenset[int]]:
    """The characters of ``\\d``, ``\\w``, ``\\s`` and their negations (``_OTHER`` for
    all beyond ASCII: each can match some)."""
    digit = frozenset(range(ord("0"), ord("9") + 1))
    word = digit | {ord(c) for c in string.ascii_letters + "_"}
    space = frozenset(map(ord, " \t\n\r\f\v\x1c\x1d\x1e\x1f"))
    table = {}
    for name, chars in (("DIGIT", digit), ("WORD", word), ("SPACE", space)):
        table[getattr(_constants, f"CATEGORY_{name}")] = chars | {_OTHER}
        table[getattr(_constants, f"CATEGORY_NOT_{name}")] = _ANY - chars | {_OTHER}
    return table


def _cased(code: int) -> frozenset[int]:
    """A literal character in either case (a flag may ignore case), ``_OTHER`` beyond
    ASCII."""
    if code > 127:
        return frozenset((_OTHER,))
    char = chr(code)
    return frozenset((ord(char.lower()), ord(char.upper())))


def never_redact(*values: str | re.Pattern[str]) -> None:
    """Keep these values whatever a detector says: exact strings, or compiled patterns
    that must match the whole redacted value (``re.compile(r"ACME-TEST-[0-9]{6}")``).

    A credential in a provider's published format (``ghp_…``, ``AKIA…``, ``sk_live_…``)
    is kept by an exact string or by a specific pattern (``sk_test_\\w+``); a broad
    pattern, one that would match a real credential of another provider (``\\w+``,
    ``.+``, ``sk_\\w+``), keeps only values that are not in a provider format, so it
    cannot switch redaction off.

    Raises:
        UsageError: a value that is not a ``str`` or a compiled ``str`` pattern, a
            string shorter than two characters (without blanks around it), or a pattern
            that can backtrack catastrophically (the same check as ``add_redaction``'s:
            an allowed pattern is tried on every redacted value, which an upstream
            controls).
    """
    global _values, _patterns, _broad, _broad_labelled
    for value in values:
        _check_allowed(value)
    patterns = [v for v in values if isinstance(v, re.Pattern)]
    broad = [p for p in patterns if any(p.fullmatch(c) for c in _CANARIES)]
    labelled = [p for p in patterns if any(p.fullmatch(c) for c in _LABEL_CANARIES)]
    with _lock:
        _values = _values | {v for v in values if isinstance(v, str)}
        _patterns = (*_patterns, *patterns)
        _broad = (*_broad, *broad)
        _broad_labelled = (*_broad_labelled, *labelled)


def _check_allowed(value: object) -> None:
    """Refuse what cannot be an allowed value (see ``never_redact``)."""
    if isinstance(value, re.Pattern):
        if not isinstance(value.pattern, str):
            raise UsageError("never_redact: a pattern must be a compiled str pattern, not bytes")
        _refuse_backtracking(
            f"never_redact({value.pattern!r})", _parser.parse(value.pattern, value.flags)
        )
        return
    if not isinstance(value, str):
        hint = (
            " (pass the values themselves: never_redact(*values))"
            if isinstance(value, (list, tuple, set, frozenset))
            else ""
        )
        raise UsageError(
            f"never_redact: a value must be a str or a compiled pattern, not "
            f"{type(value).__name__}{hint}"
        )
    if len(value.strip()) < _SHORTEST_ALLOWED:
        raise UsageError(
            f"never_redact: {value!r} is too short to be a value that was redacted (at "
            f"least {_SHORTEST_ALLOWED} characters); give the whole value"
        )


_SHORTEST_ALLOWED = 2
"""An allowed value of one character (or blanks) is a mistake: ``never_redact(*"abc")``."""


def clear_redactions() -> None:
    """Remove every detector and allowed value added by the user."""
    global _detectors, _values, _patterns, _broad, _broad_labelled
    with _lock:
        _detectors, _values, _patterns, _broad, _broad_labelled = (), frozenset(), (), (), ()


def state() -> tuple[object, ...]:
    """What the user added, as a key that changes whenever it does (a rendered tool
    definition is redacted again then)."""
    return (_detectors, _values, _patterns)


def user_detectors() -> tuple[Detector, ...]:
    """The detectors added with ``add_redaction``, in order."""
    return _detectors


def allows_any() -> bool:
    """Whether any value or pattern was allowed with ``never_redact``."""
    return bool(_values or _patterns)


def allowed(value: str, *, provider: bool = False, labelled: bool = False) -> bool:
    """Whether ``value`` was allowed with ``never_redact`` (a ``provider`` format not by a
    broad pattern; a ``labelled`` one, found by anything but the random-string layer, not
    by a pattern any random password matches)."""
    if not _values and not _patterns:
        return False
    bare = value.strip("\"'")
    if bare in _values:
        return True
    return any(
        p.fullmatch(bare)
        for p in _patterns
        if not (provider and p in _broad) and not (labelled and p in _broad_labelled)
    )
