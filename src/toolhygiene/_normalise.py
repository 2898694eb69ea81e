"""Normalising: what can hide a secret or a marker is taken out before anything matches.

Terminal escapes (ANSI CSI and OSC sequences), control characters and invisible
characters (zero-width, joiners, bidi controls, soft hyphens, variation selectors,
Unicode tag characters) are removed, so that ``sk_live_`` in red, ``gh\u200bp_…`` or
``</tool\u00ad_result>`` read as what they are; so are the same characters written out
as escapes (``\\u200b``, ``\\x1b[31m``, ``\\x1b]8;;…``), as a repr or a log line shows
them. Line breaks stay: folding to one line is a later step, and a wrapped token is
joined only where the join is a secret (``redact`` decides, with its own detectors).

``compatible`` gives the view that detection reads: every character whose compatibility
form (NFKC) is one ASCII character becomes that character (full-width ``ｐａｓｓｗｏｒｄ：``,
``ＡＫＩＡ…``, mathematical letters, circled digits), one for one, so positions in the view
are positions in the text: what is found is cut out of the text as it was written, and
the rest keeps its own characters. Look-alikes from other scripts (a Cyrillic ``а``) are
not folded there: they are other letters, and no credential format is written with them.
``unconfused`` folds them for redaction's detectors only, in a word spelled with them as
a Latin word (``pаssword``), so a spoofed label is still read.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping
from typing import NamedTuple

__all__ = [
    "JOINERS",
    "MARKS",
    "MARKS_OR_HIDDEN",
    "compatible",
    "latin_looking",
    "normalise",
    "unconfused",
    "without_sequences",
]

# Sequences that cannot eat a character of what follows go whole: colours (SGR, ending
# in "m"), terminated strings (OSC titles and hyperlinks, DCS, APC), and any other CSI
# (``\x1b[2J``) whose final letter is not followed by a token character; before a token
# the final letter stays (a cursor move whose final letter were the first letter of a
# key would otherwise take it along).
_ESCAPES = (
    r"(?:\x1b\]|\x9d)[^\x07\x1b\x9c]{0,4096}(?:\x07|\x1b\\|\x9c)"  # OSC (titles, links), terminated
    r"|(?:\x1b\[|\x9b)[0-9;:]{0,32}m"  # SGR: colours and styles
    # Any other CSI (clear screen, cursor moves): whole, unless its final letter could
    # begin a token that follows (then that letter stays, a key keeps its first letter).
    r"|(?:\x1b\[|\x9b)[0-?]{0,32}[ -/]{0,8}(?:[@-~](?![A-Za-z0-9_\-+/=]))?"
    r"|\x1b[P^_X][^\x1b\x9c]{0,4096}(?:\x1b\\|\x9c)"  # DCS, PM, APC, SOS strings
    # Short escapes: a character set (``ESC ( 0``), save and restore (``ESC 7``,
    # ``ESC 8``), keypad modes (``ESC =``): whole, with the same care for a token after.
    r"|\x1b[ -/]{0,8}(?:[0-~](?![A-Za-z0-9_\-+/=]))?"
)
_HIDDEN = (
    "[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f"  # control characters (tabs and breaks stay)
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"  # soft hyphen, fillers
    "\u200b-\u200f\u202a-\u202e\u2060-\u206f"  # zero-width, joiners, bidi controls
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb"  # fillers, selectors, BOM, annotation
    # Egyptian, shorthand and musical format controls
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e007f\U000e0100-\U000e01ef]"  # tag characters, variation selectors
)
"""Every format character (Unicode category Cf) but the prepended concatenation marks
(U+0600-0605, U+06DD, U+070F, U+0890-0891, U+08E2, U+110BD, U+110CD: signs drawn over
the digits after them, seen), with the controls, fillers and variation selectors."""

# An element that renders as nothing between two characters of a word or a token: a
# word-break opportunity (``<wbr>``) or an empty inline element (``<span></span>``).
# GitHub and web mail put them inside long tokens (``ghp_R8x2<wbr>mZ4p…``).
_SPLITTERS = (
    r"(?<=[\w\-])(?:<wbr[ \t]{0,3}/?>|<(b|i|u|s|em|strong|span|mark|small|font|code|a)"
    r"(?:[ \t][^<>\r\n]{0,128})?></\1[ \t]{0,3}>)(?=[\w\-])"
)

MARKS = re.compile(
    "[\u0300-\u036f\u0483-\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]"
)
"""Combining marks (accents, underlines, strokes, enclosing marks): each draws on the
character before it."""
MARKS_OR_HIDDEN = re.compile(f"{MARKS.pattern}|{_HIDDEN}")
"""A combining mark or a character that shows nothing (zero-width, soft hyphen, ...):
what a reader of a word does not see as a letter of it."""
# A run of token characters with combining marks among them.
_MARKED_RUN = re.compile(
    "[A-Za-z0-9_\\-+/=.~$\u0300-\u036f\u0483-\u0489\u1ab0-\u1aff\u1dc0-\u1dff"
    "\u20d0-\u20ff\ufe20-\ufe2f]*"
)
_SEGMENTS = re.compile(r"[_\-+/=.~$]+")

# The same, written out as escapes (a repr, a log line): ``"\\u200b"`` inside a token.
_ESCAPED = (
    r"\\(?:u(?:200[b-f]|00ad|034f|206[0-9a-f]|feff|202[a-e])|x(?:ad|9b)|xad)"
    r"|\\(?:x1b|033|u001b|e)\[[0-9;]{0,32}[A-Za-z]"
    # an OSC string written out (a hyperlink's URL, a title), to its written terminator
    # (BEL, ST or ESC backslash); it never runs past the quote that ends the string, and
    # takes a backslash with what it escapes (``\"`` is a quote inside the string: cut in
    # half, it would end the string early)
    r"|\\(?:x1b|033|u001b|e)\](?:(?!\\(?:x07|u0007|x9c|u009c|x1b|033|u001b|e))"
    r"(?:[^\r\n\"'\x07\x9c\\]|\\[^\r\n])){0,4096}"
    r"(?:\\(?:x07|u0007|x9c|u009c)|\\(?:x1b|033|u001b|e)\\{1,2}|[\x07\x9c])?"
)


# Written-out sequences only (CSI, OSC), not the invisible characters written out.
_WRITTEN_SEQUENCES = _ESCAPED[_ESCAPED.index(r"|\\(?:x1b") + 1 :]


class _Patterns(NamedTuple):
    escapes: re.Pattern[str]
    hidden: re.Pattern[str]
    escaped: re.Pattern[str]
    written_sequences: re.Pattern[str]
    splitters: re.Pattern[str]
    hidden_but_joiners: re.Pattern[str]


@functools.cache
def _patterns() -> _Patterns:
    """Compiled at the first text that needs one, not with toolhygiene (plain text, most
    results, needs none)."""
    return _Patterns(
        re.compile(_ESCAPES),
        re.compile(_HIDDEN),
        re.compile(_ESCAPED, re.IGNORECASE),
        re.compile(_WRITTEN_SEQUENCES, re.IGNORECASE),
        re.compile(_SPLITTERS, re.IGNORECASE),
        re.compile(_HIDDEN.replace("\u200b-\u200f", "\u200b\u200e\u200f")),
    )


_PRINTABLE_ASCII = bytes(range(0x20, 0x7F))


def printable_ascii(text: str) -> bool:
    """``text.isprintable()`` of an ASCII ``text`` (which ``str.isprintable`` reads with a
    Unicode table lookup a character): no character is left once every one from a space
    to a tilde is removed, in one C pass over its bytes."""
    return not text.encode("ascii").translate(None, _PRINTABLE_ASCII)


def normalise(text: str) -> str:
    """``text`` without terminal escapes, control and invisible characters.

    Tabs and line breaks are kept (``fold`` turns them into spaces later); everything
    else that renders as nothing is removed, so it cannot split a token or a tag.
    """
    if "\\" in text:
        if "\\u200c" in text or "\\u200d" in text:  # a repr writes a word's joiner out
            text = _patterns().escaped.sub(_written_joiner, text)
        else:
            text = _patterns().escaped.sub("", text)
    # ("<" first: one character is found by memchr, two by a slower search)
    if "<" in text and ("<w" in text or "></" in text or "<W" in text):
        text = _patterns().splitters.sub("", text)
    if text.isascii():
        if printable_ascii(text):
            return text
        if "\x1b" in text:
            text = _patterns().escapes.sub("", text)
        return _patterns().hidden.sub("", text)
    if "\x1b" in text or "\x9b" in text or "\x9d" in text:
        text = _patterns().escapes.sub("", text)
    if "\u200c" in text or "\u200d" in text:
        # the other hidden characters in C, then each joiner judged where it stands
        text = _kept_joiners(_patterns().hidden_but_joiners.sub("", text))
    else:
        text = _patterns().hidden.sub("", text)
    return _unmarked_tokens(text) if MARKS.search(text) else text


JOINERS = "\u200c\u200d"
"""The zero-width non-joiner and joiner: part of emoji sequences and of words of the
scripts that join their letters (Persian ``می\u200cخواهم``, Indic conjuncts)."""
# Scripts whose words hold a joiner or a non-joiner between their letters (the first
# word of a character's Unicode name).
_JOINING_SCRIPTS = frozenset(
    [
        "ARABIC",
        "SYRIAC",
        "NKO",
        "MANDAIC",
        "MONGOLIAN",
        "DEVANAGARI",
        "BENGALI",
        "GURMUKHI",
        "GUJARATI",
        "ORIYA",
        "TAMIL",
        "TELUGU",
        "KANNADA",
        "MALAYALAM",
        "SINHALA",
        "MYANMAR",
        "KHMER",
        "TIBETAN",
        "HEBREW",
    ]
)


@functools.lru_cache(maxsize=1024)
def _joined(char: str) -> str:
    """What a character beside a joiner is: ``"emoji"``, its joining script's name, or
    ``""`` (a Latin letter, a digit, a symbol: nothing a joiner belongs to)."""
    if not char or char.isascii():
        return ""
    code = ord(char)
    if 0x1F000 <= code <= 0x1FAFF or 0x2600 <= code <= 0x27BF or code == 0xFE0F:
        return "emoji"
    if code in (0x2640, 0x2642) or unicodedata.category(char) == "So":
        return "emoji"
    word = unicodedata.name(char, "").split(" ", 1)[0]
    return word if word in _JOINING_SCRIPTS else ""


def _written_joiner(m: re.Match[str]) -> str:
    """A hidden character written out removed, but a joiner written out (``\\u200d``,
    as a repr writes it) between two letters of one joining script, or two emoji, read
    as the joiner it writes."""
    written = m.group()
    if written not in ("\\u200c", "\\u200d"):
        return ""
    joiner = "\u200c" if written.endswith("c") else "\u200d"
    return joiner if _between(m.string, m.start(), m.end()) else ""


# The letters of the scripts whose words hold a joiner or a non-joiner, each script's
# block(s) (Hebrew, Arabic, Syriac, NKo, Mandaic, the Indic scripts, Sinhala, Tibetan,
# Myanmar, Khmer, Mongolian, Arabic presentation forms), and emoji.
_JOINING_BLOCKS = (
    "\u2600-\u27bf\u2640\u2642\U0001f000-\U0001faff",
    "\u0590-\u05ff",
    "\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufefe",
    "\u0700-\u074f",
    "\u07c0-\u07ff",
    "\u0840-\u085f",
    "\u0900-\u097f",
    "\u0980-\u09ff",
    "\u0a00-\u0a7f",
    "\u0a80-\u0aff",
    "\u0b00-\u0b7f",
    "\u0b80-\u0bff",
    "\u0c00-\u0c7f",
    "\u0c80-\u0cff",
    "\u0d00-\u0d7f",
    "\u0d80-\u0dff",
    "\u0f00-\u0fff",
    "\u1000-\u109f",
    "\u1780-\u17ff",
    "\u1800-\u18af",
)
_VIRAMAS = "\u094d\u09cd\u0a4d\u0acd\u0b4d\u0bcd\u0c4d\u0ccd\u0d4d\u0dca\u0f84\u1039\u17d2"
# The joiner first, so that the search skips to one in C; then what stands around it.
_KEPT = {
    joiner: re.compile(
        joiner
        + "(?:"
        + "|".join(f"(?<=[{block}]{joiner})(?=[{block}])" for block in _JOINING_BLOCKS)
        + f"|(?<=[{_VIRAMAS}]{joiner}))"
    )
    for joiner in JOINERS
}
_HELD = {"\u200c": "\ue000", "\u200d": "\ue001"}
_JOINER = re.compile(f"[{JOINERS}]")
# A joiner at the start, after an ASCII character, or before one or at the end but not
# after a virama: never part of a word of a joining script or an emoji (removed in C).
_LATIN_JOINER = re.compile(
    f"[{JOINERS}](?:(?<=\\A[{JOINERS}])|(?<=[\x00-\x7f][{JOINERS}])"
    f"|(?<![{_VIRAMAS}][{JOINERS}])(?![^\x00-\x7f]))"
)


def _kept_joiners(text: str) -> str:
    """``text`` without its joiners and non-joiners but those between two letters of one
    joining script or two emoji, or after an Indic virama (a Malayalam chillu,
    ``\u0d28\u0d4d\u200d``, ends a word): part of the word or emoji. In C: the kept
    ones are held as private-use characters while the others are removed."""
    if "\ue000" in text or "\ue001" in text:  # (the text's own: judged one by one)
        return _JOINER.sub(_joiner_kept, text)
    bare = text.replace("\u200c", "").replace("\u200d", "")
    if bare.isascii():
        return bare  # no letter of a joining script, no emoji, no virama: none is kept
    text = _LATIN_JOINER.sub("", text)  # beside ASCII or at an end: never kept
    for joiner, held in _HELD.items():
        if joiner in text:
            text = _KEPT[joiner].sub(held, text)
    # Two replaces, each a C scan (a translate through a dict reads every character).
    text = text.replace("\u200c", "").replace("\u200d", "")
    return text.replace("\ue000", "\u200c").replace("\ue001", "\u200d")


def _joiner_kept(m: re.Match[str]) -> str:
    """A joiner or non-joiner kept between two letters of one joining script, or between
    two emoji (it is part of the word or emoji); removed elsewhere."""
    at = m.start()
    return m.group() if _between(m.string, at, at + 1) else ""


def _between(text: str, at: int, end: int) -> bool:
    """Whether a joiner at ``text[at:end]`` (written or written out) belongs there:
    between two letters of one joining script or two emoji, or after an Indic virama
    (a Malayalam chillu, ``\u0d28\u0d4d\u200d``, ends a word)."""
    if not at:
        return False
    left = _joined(text[at - 1])
    if not left:
        return False
    return left == _joined(text[end : end + 1]) or "VIRAMA" in unicodedata.name(text[at - 1], "")


_SHORTEST = 8


def _token_like(run: str) -> bool:
    """A run of token characters that is not words (``Resume.pdf``, ``Zurich``): one
    with digits, or with a segment in mixed case."""
    if len(run) < _SHORTEST:
        return False
    return not all(
        part.isalpha() and (part.islower() or part.istitle() or part.isupper())
        for part in _SEGMENTS.split(run)
        if part
    )


def _run_end(text: str, at: int) -> int:
    m = _MARKED_RUN.match(text, at)
    return m.end() if m else at


# A combining mark (or several) that no letter carries: after a digit or a token's
# symbol (``_LOOSE_MARKS``).
_LOOSE_MARKS = re.compile(f"(?<![A-Za-z{MARKS.pattern[1:-1]}]){MARKS.pattern}+")


def _unmarked_tokens(text: str) -> str:
    """``text`` with the combining marks inside token-like runs that no letter carries
    removed (after a digit or a symbol). Marks on letters stay, on words and in tokens
    alike (``Re\u0301sume\u0301.pdf``, ``Cafe\u0301_2024_Q1.xlsx``): the output keeps
    the accent, and redaction reads a view without marks (``_engine``), so a mark drawn
    on a letter of ``ghp_…`` does not cut the token in two there."""
    reverse = text[::-1]
    size = len(text)
    parts: list[str] = []
    last = reach = 0
    while (mark := MARKS.search(text, reach)) is not None:  # a run at a time
        at = mark.start()
        left = size - _run_end(reverse, size - at)
        reach = _run_end(text, at)
        if reach - left < _SHORTEST:
            continue  # a short word with an accent
        run = text[left:reach]
        bare = MARKS.sub("", run)
        if _token_like(bare):
            kept = _LOOSE_MARKS.sub("", run)
            if kept != run:
                parts.append(text[last:left])
                parts.append(kept)
                last = reach
    if not parts:
        return text
    parts.append(text[last:])
    return "".join(parts)


def without_sequences(text: str) -> str:
    """``text`` without terminal escape sequences (colours, OSC titles and hyperlinks,
    DCS strings), raw or written out, and without what hides or reorders text
    (``_HIDING``), and nothing else: for a result that is otherwise passed on byte for
    byte."""
    if "\\" in text:
        text = _patterns().written_sequences.sub("", text)
    if "\x1b" in text or "\x9b" in text or "\x9d" in text:
        text = _patterns().escapes.sub("", text)
    if not text.isascii():
        text = _HIDING.sub("", text)
    return text


_HIDING = re.compile("[\u202a-\u202e\u2066-\u2069\U000e0000-\U000e007f]")
"""What no text reaches the model with, not even a trusted result passed on byte for
byte: Unicode tag characters (U+E0000-E007F, ASCII written invisibly: a hidden order)
and the bidi embeddings, overrides and isolates (U+202A-202E, U+2066-2069, which show a
reader text in another order than the model reads it). Zero-width characters, joiners
and the bidi marks (U+200E, U+200F) stay there: they hide no text, and a record's or a
file's exact characters matter to a tool that writes them back."""


# Blocks holding characters with a one-character ASCII compatibility form: Latin-1
# (superscripts), the long s, modifier letters and the Greek question mark, phonetic
# extensions, a Greek accent, letterlike symbols, enclosed alphanumerics, Latin
# Extended-C and -D modifiers, the Hebrew plus, vertical and small form variants
# (``\ufe13``, ``\ufe55``, ``\ufe66``), full-width forms, Latin Extended-F,
# mathematical alphanumerics, enclosed alphanumeric supplement, segmented digits:
# every character of Unicode 15.1 whose NFKC form is one printable ASCII character
# (``tests/test_redact_fix12s.py`` reads them all).
_BLOCKS = (
    (0x00A0, 0x0100),
    (0x017F, 0x0380),
    (0x1D00, 0x1E00),
    (0x1FEF, 0x1FF0),
    (0x2000, 0x2500),
    (0x2C7C, 0x2C7E),
    (0x3000, 0x3001),
    (0xA7F2, 0xA7F5),
    (0xFB29, 0xFB2A),
    (0xFE10, 0xFE70),
    (0xFF00, 0xFFF0),
    (0x107A5, 0x107A6),
    (0x1D400, 0x1D800),
    (0x1F100, 0x1F200),
    (0x1FBF0, 0x1FBFA),
)


@functools.cache
def _table() -> dict[int, str]:
    table: dict[int, str] = {}
    for low, high in _BLOCKS:
        for code in range(low, high):
            form = unicodedata.normalize("NFKC", chr(code))
            if len(form) == 1 and form.isascii() and form.isprintable() and ord(form) != code:
                table[code] = form
    return table


@functools.cache
def _changed() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Where ``_table`` may change a text: one of its characters of the first plane (a
    class of ranges ``re`` reads from a bitmap), or any character of its blocks past it
    (two ranges: a class with a member past the first plane is a list ``re`` tries in
    turn)."""
    codes = sorted(code for code in _table() if code < 0x10000)
    ranges: list[list[int]] = []
    for code in codes:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    near = "".join(f"{re.escape(chr(low))}-{re.escape(chr(high))}" for low, high in ranges)
    far = "".join(
        f"{re.escape(chr(low))}-{re.escape(chr(high - 1))}"
        for low, high in _BLOCKS
        if low >= 0x10000
    )
    return re.compile(f"[{near}]"), re.compile(f"[{far}]")


def compatible(text: str) -> str:
    """``text`` with every character whose NFKC form is one printable ASCII character
    replaced by it: same length, same positions; ``text`` itself when there is none."""
    if text.isascii():
        return text
    # A translate through a dict reads each character in Python's dict (2 ms on 64 KB of
    # text with curly quotes): most such texts have no character it changes, or a few
    # kinds of one (a no-break space), each replaced everywhere in one C pass.
    near, far = _changed()
    table = _table()
    # (Past the first plane: a character takes two UTF-16 units.)
    if len(text.encode("utf-16-le", "surrogatepass")) > 2 * len(text) and far.search(text):
        view = text.translate(table)
        return text if view == text else view
    view = text
    found = near.search(text)
    for _ in range(_KINDS):
        if found is None:
            return view
        char = found.group()
        view = view.replace(char, table[ord(char)])  # one ASCII character for one
        found = near.search(view, found.start())
    if found is None:
        return view
    return _replaced(view, set(near.findall(view, found.start())), table)


def _replaced(view: str, kinds: set[str], table: Mapping[int, str | int]) -> str:
    """``view.translate(table)`` where ``kinds`` holds every character of ``view`` that
    ``table`` maps to one other character (and maybe characters it maps to themselves,
    or not at all): one ``str.replace`` a kind, each a pass in C, up to
    ``_MANY_KINDS`` of them (a translate through a dict reads every character in
    Python: 14 ms on 256 KB of the README, once for each view a neutralise makes). A
    replacement is never a character replaced later: the kinds map to ASCII, which the
    table leaves (speed19b)."""
    if len(kinds) > _MANY_KINDS:
        return view.translate(table)
    for char in kinds:
        replacement = table.get(ord(char))
        if replacement is not None:
            view = view.replace(
                char, chr(replacement) if isinstance(replacement, int) else replacement
            )
    return view


_KINDS = 8
"""Characters of ``_table`` replaced kind by kind, at most: past that, the rest of them
found in one pass and replaced kind by kind too (``_replaced``)."""
_MANY_KINDS = 64
"""Kinds of character replaced one ``str.replace`` each, at most: past that, a translate."""


# Cyrillic and Greek letters drawn like a Latin letter (Unicode's confusables, TR39, for
# the letters a label is spelled with): ``pаssword`` with a Cyrillic ``а``.
_CONFUSABLES = str.maketrans(
    "\u0430\u0441\u0501\u0435\u04bb\u0456\u0458\u04cf\u043e\u0440\u051b\u0455\u051d\u0445"
    "\u0443\u04af\u0410\u0412\u0421\u0415\u041d\u0406\u0408\u041a\u041c\u041e\u0420"
    "\u0405\u0422\u0425\u0423\u051a\u051c\u04ae"
    "\u03b1\u03bf\u03c1\u03b9\u03bd\u03c5\u03b3\u03f2\u03f3\u0391\u0392\u0395\u0396"
    "\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7\u03f9\u037f",
    "acdehijlopqswxyyABCEHIJKMOPSTXYQWYaopivuycjABEZHIKMNOPTYXCJ",
)
_SCRIPTS = re.compile("[\u0370-\u03ff\u0400-\u052f]")
# A word holding a letter of those scripts (and maybe Latin letters).
_MIXED_WORD = re.compile(
    "[A-Za-z\u0370-\u03ff\u0400-\u052f]*[\u0370-\u03ff\u0400-\u052f][A-Za-z\u0370-\u03ff\u0400-\u052f]*"
)


def latin_looking(view: str) -> str:
    """``view`` with every Cyrillic and Greek letter drawn like a Latin one made that
    letter, in whatever word it stands (one C pass; same length, same positions). For a
    pattern that reads a whole quoted word only (a JSON key, a chat role's value): a word
    it then matches is all look-alikes, as ``unconfused`` reads it; ``пароль`` is read
    as no Latin word either way."""
    if view.isascii() or (found := _SCRIPTS.search(view)) is None:
        return view
    return _replaced(view, set(_SCRIPTS.findall(view, found.start())), _CONFUSABLES)


def unconfused(view: str) -> str:
    """``view`` (a compatibility view) with every word spelled in Latin look-alikes read
    as Latin: a word whose Cyrillic or Greek letters are all drawn like Latin ones
    (``pаssword``, ``ΑΡΙ_ΚΕΥ``); same length, same positions. A word of those scripts
    with a letter of their own (``пароль``, ``токен``) stays as it is: it is read in its
    own language. For detection only: the text shown keeps its letters."""
    if view.isascii() or _SCRIPTS.search(view) is None:
        return view
    parts: list[str] = []
    last = 0
    for m in _MIXED_WORD.finditer(view):
        latin = m.group().translate(_CONFUSABLES)
        if latin.isascii():
            parts.append(view[last : m.start()])
            parts.append(latin)
            last = m.end()
    if not parts:
        return view
    parts.append(view[last:])
    return "".join(parts)
