"""(fix21a) Values that language runtimes print under a secret's name, in syntaxes the
labelled pattern does not read (its separator, or a wrapper around the value, differs):

- PHP's ``var_dump``: ``["password"]=>`` then ``string(12) "v"`` on the next line (also a
  property's ``["password":protected]=>``);
- Rust's ``Debug`` of an ``Option``: ``pass: Some("v")``;
- an Erlang or Elixir tuple: ``{password,<<"v">>}``, ``{password, "v"}``,
  ``{'password', <<"v"/utf8>>}``;
- a Java ``.properties`` key with escaped characters: ``mail.smtp.password\\:primary=v``.

Each value is judged as after ``=`` under its key (``_detectors._element``); the key and
the wrapper stay."""

from __future__ import annotations

import re

_QUOTED = r"(?P<secret>(?:[^\"\\\r\n]|\\[^\r\n]){1,1024})"

PHP_DUMP = re.compile(
    r"\[\"(?P<key>[\w.\-]{1,80})\"(?::[^\]\r\n]{1,120})?\][ \t]{0,5}=>\s{0,40}"
    r"string\([0-9]{1,7}\)[ \t]{0,5}\"" + _QUOTED + r"\"",
)
"""``var_dump``'s member and string (``PHP_NEEDLES``)."""
PHP_NEEDLES = ('"]=>', '"] =>', "protected]=>", "private]=>")
PHP_MEMBER_END = re.compile(r"(?::(?:private|protected))?\][ \t]{0,5}=>")
"""What ends a ``var_dump`` member's name after its class or visibility: not a value."""

SOME = re.compile(
    r"(?<![\w.\-])(?P<key>[A-Za-z_][\w]{0,79})[ \t]{0,5}:[ \t]{0,5}Some\([ \t]{0,5}\""
    + _QUOTED
    + r"\"[ \t]{0,5}\)",
)
"""Rust's ``Debug`` of a member holding ``Some`` string (``SOME_NEEDLES``)."""
SOME_NEEDLES = ("some(",)

TUPLE = re.compile(
    r"\{[ \t]{0,5}'?(?P<key>[A-Za-z_][\w]{0,79})'?[ \t]{0,5},[ \t]{0,5}(?:<<)?\""
    + _QUOTED
    + r"\"(?:/utf8)?(?:>>)?[ \t]{0,5}\}",
)
"""An Erlang or Elixir pair: the atom, then a binary or a string (searched where a
label's word is)."""

ESCAPED_KEY = re.compile(
    r"(?:(?<=\n)|(?<=\A))[ \t]{0,40}(?P<key>[\w.\-]{0,80}(?:\\[:= #!][\w.\-]{0,80}){1,8})"
    r"[ \t]{0,5}[=:][ \t]{0,5}(?P<secret>[^\s](?:[^\r\n]{0,1022}[^\s])?)",
)
"""A ``.properties`` line whose key holds an escaped ``:``, ``=``, a blank, ``#`` or
``!`` (``ESCAPED_NEEDLES``)."""
ESCAPED_NEEDLES = ("\\:", "\\=", "\\ ", "\\#", "\\!")
_ESCAPES = re.compile(r"\\[:= #!]")


def key_pieces(key: str) -> list[str]:
    """The pieces of an escaped ``.properties`` key, each read as a label
    (``mail.smtp.password\\:primary``: ``mail.smtp.password``, ``primary``)."""
    return [piece for piece in _ESCAPES.split(key) if piece]
