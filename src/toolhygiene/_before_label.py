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
- the value is one word, quoted, in backticks or bare, that reads as a secret: six
  characters or more holding three of lowercase, uppercase, digits and symbols (``-``,
  ``_``, ``.`` not counted: a name's), or a token of 16 or more (``credential_shaped``).
  "hunter22 is the new password", "X-Auth-Token is the header for the token" and
  "MyService is the new API token" stay.
"""

from __future__ import annotations

import re

from toolhygiene._labels import credential_shaped, plausible_value
from toolhygiene._positional import SPAN

__all__ = ["NEEDLES", "find"]

NEEDLES = ("password", "passphrase", "passcode", "passwd", "token", "secret", "api key", "api-key")

# (the blank or the parenthesis before the label first: a text of labels glued to what
# precedes them, ``password=v``, is passed over in one scan)
_LABEL = re.compile(
    r"[ \t(](?P<label>password|passphrase|passcode|passwd|token|secret|api[ \-]key)"
    r"(?P<close>[ \t]{0,3}\))?"
    r"(?=[ \t]{0,3}(?:[.,;:!?)\]\r\n]|\Z|(?:for|to|of|on|in|at|and|was|is|has|will|that|"
    r"which|we|you|i)(?![\w\-])))",
    re.IGNORECASE,
)
# Read backwards from the label (on the reversed text before it, matched at its start:
# one anchored match per label, not a search over the window): what joins the value to
# the label, then the value, each written reversed.
_DETERMINER = r"(?:eht|ruoy|ym|ruo|sti|rieht)"  # the, your, my, our, its, their
_WORD = r"[ \t]{1,3}[\w\-]{0,29}[A-Za-z]"
_REVERSED = re.compile(
    r"(?:(?P<is>(?:"
    + _WORD
    + r"){0,3}[ \t]{1,3}"
    + _DETERMINER
    + r"[ \t]{1,3}(?:si|saw)[ \t]{1,3})"
    r"|(?P<paren>(?:" + _WORD + r"){0,2}(?:[ \t]{1,3}eht)?[ \t]{0,3}\([ \t]{0,3})"
    r"|(?P<comma>(?:" + _WORD + r"){0,3}[ \t]{1,3}" + _DETERMINER + r"[ \t]{1,3},[ \t]{0,3}))"
    r"(?:(?P<q>[`'\"])(?P<quoted>[^\s`'\"]{6,128})(?P=q)|(?P<bare>[^\s`'\"(),;]{6,128}))"
    r"(?=[\s(\[:>]|\Z)",
    re.IGNORECASE,
)
_WINDOW = 180
# Each way ``_REVERSED`` joins a value to the label holds a determiner or a parenthesis
# (read without case: one of these is in it): an ASCII text holding none has no value
# before a label (``re`` reads ``i`` and ``s`` as ``ı`` and ``ſ`` too: not beyond ASCII).
_JOIN = re.compile(r"the|our|my|its|\(")
_SYMBOL = re.compile(r"[^\w\s.\-]")


def _secret_shaped(value: str) -> bool:
    """Whether a value written before a label reads as a secret, not as a word or a
    name: three classes of lowercase, uppercase, digits and symbols (``-``, ``_``, ``.``
    are a name's: ``X-Auth-Token``, ``MyService`` stay), six characters or more; or a
    long token (``credential_shaped``, 16 or more)."""
    if not plausible_value(value, prose_allowed=False) or "@" in value or "/" in value:
        return False
    if len(value) >= 16 and credential_shaped(value):
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
    found: list[re.Match[str]] = []
    if text.isascii() and _JOIN.search(text.lower()) is None:
        return found  # no determiner, no parenthesis: nothing joins a value to a label
    shapes: dict[str, bool] = {}  # (once per value)
    for label in _LABEL.finditer(text):
        at = label.start("label")
        if at < 7:
            continue  # no room for a value before the label
        start = max(0, at - _WINDOW)
        line = text.rfind("\n", start, at)
        start = line + 1 if line != -1 else start
        m = _REVERSED.match(text[start:at][::-1])
        if m is None or (m.group("paren") is not None) != (label.group("close") is not None):
            continue
        group = "quoted" if m.group("quoted") is not None else "bare"
        end, begin = at - m.start(group), at - m.end(group)
        value = text[begin:end]
        shaped = shapes.get(value)
        if shaped is None:  # (``_secret_shaped`` reads the value alone)
            shaped = shapes[value] = _secret_shaped(value)
        if not shaped:
            continue
        span = SPAN.match(text, begin, end)
        if span is not None:
            found.append(span)
    return found
