"""A secret written before its label, in prose (issue 12, shell19).

The labelled layer reads a label, then its value. A sentence may put the value first:
"``v`` is the new root password", "'v' (password) was rejected", "Use this to log in:
``v``, the password for the staging box." The rule is narrow, so prose keeps its words:

- the label is a password's, a passphrase's, a passcode's, a token's, a secret's or an
  API key's word, and what follows it ends the phrase (a stop, a comma, a closing
  parenthesis, the line's end, or a word such as "for", "to", "was", "and"): "the
  password policy" names no password;
- between the value and the label: ``is``/``was`` then a determiner (the, your, my, our,
  its, their) and at most three words ("is the new root password"); or an opening
  parenthesis and at most "the" and two words, closed after the label ("(password)");
  or a comma and a determiner ("``v``, the password for …");
- the value is one word, quoted, in backticks or bare, that reads as a secret: eight
  characters or more with letters and digits or both cases (``credential_shaped``), or
  six or more holding three of lowercase, uppercase, digits and symbols. "hunter2 is the
  new password" and "admin is the password" stay.
"""

from __future__ import annotations

import re

from toolhygiene._labels import credential_shaped, plausible_value
from toolhygiene._positional import SPAN

__all__ = ["NEEDLES", "find"]

NEEDLES = ("password", "passphrase", "passcode", "passwd", "token", "secret", "api key", "api-key")

_LABEL = re.compile(
    r"(?<![\w\-])(?:password|passphrase|passcode|passwd|token|secret|api[ \-]key)"
    r"(?P<close>[ \t]{0,3}\))?"
    r"(?=[ \t]{0,3}(?:[.,;:!?)\]\r\n]|\Z|(?:for|to|of|on|in|at|and|was|is|has|will|that|"
    r"which|we|you|i)(?![\w\-])))",
    re.IGNORECASE,
)
_DETERMINER = r"(?:the|your|my|our|its|their)"
_WORDS = r"(?:[A-Za-z][\w\-]{0,29}[ \t]{1,3}){0,3}"
# The value and what joins it to the label, matched at the window's end (``\Z``).
_BEFORE = re.compile(
    r"(?:(?<=[\s(\[:>])|^)"
    r"(?:(?P<q>[`'\"])(?P<quoted>[^\s`'\"]{6,128})(?P=q)|(?P<bare>[^\s`'\"(),;]{6,128}))"
    r"(?:(?P<is>[ \t]{1,3}(?:is|was)[ \t]{1,3}" + _DETERMINER + r"[ \t]{1,3}" + _WORDS + r")"
    r"|(?P<paren>[ \t]{0,3}\([ \t]{0,3}(?:the[ \t]{1,3})?(?:[A-Za-z][\w\-]{0,29}[ \t]{1,3}){0,2})"
    r"|(?P<comma>[ \t]{0,3},[ \t]{1,3}" + _DETERMINER + r"[ \t]{1,3}" + _WORDS + r"))\Z",
    re.IGNORECASE,
)
_WINDOW = 200
_SYMBOL = re.compile(r"[^\w\s]")


def _secret_shaped(value: str) -> bool:
    """Whether a value written before a label reads as a secret, not as a word."""
    if not plausible_value(value, prose_allowed=False) or "@" in value or "/" in value:
        return False
    if credential_shaped(value):
        return True
    classes = (
        any(c.islower() for c in value)
        + any(c.isupper() for c in value)
        + any(c.isdigit() for c in value)
        + (_SYMBOL.search(value) is not None)
    )
    return len(value) >= 6 and classes >= 3


def find(text: str) -> list[re.Match[str]]:
    """The values written before a password's (or a token's) label in a sentence."""
    found = []
    for label in _LABEL.finditer(text):
        at = label.start()
        head = text[max(0, at - 12) : at]
        if "(" not in head and "," not in text[max(0, at - 60) : at] and not (
            " is " in text[max(0, at - 120) : at].lower()
            or " was " in text[max(0, at - 120) : at].lower()
        ):
            continue  # no joining word near: the common case, decided without a regex
        start = max(0, at - _WINDOW)
        line = text.rfind("\n", start, at)
        start = line + 1 if line != -1 else start
        m = _BEFORE.search(text, start, at)
        if m is None or (m.group("paren") is not None) != (label.group("close") is not None):
            continue
        group = "quoted" if m.group("quoted") is not None else "bare"
        value = m.group(group)
        if group == "bare":
            value = value.rstrip(".:!?")
        if not _secret_shaped(value):
            continue
        s = m.start(group)
        span = SPAN.match(text, s, s + len(value))
        if span is not None:
            found.append(span)
    return found
