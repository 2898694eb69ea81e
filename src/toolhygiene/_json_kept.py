"""A JSON result stays JSON: after redaction it parses, with the same keys and lengths.

The text redactor reads a result as the model does, as text; a value it misreads (prose
with an apostrophe in a list under ``password``) could lose the quotes or the comma
around it. ``kept`` checks the redacted text against the original: when it no longer
parses, or a container lost or gained an item, the original is redacted value by value
instead (each string and number read under its own key, as ``{"key": value}``), and
written again.

It also reads what the text redactor cannot see as one value: a scalar in a list under
a secret's label (``{"pin": [1234, 5678]}``, ``{"auth": [["bob", "pw"]]}``) and a
number with a sign or a fraction (``{"pin": -4821}``, ``{"pin": 4821.0}``): each is
judged as the value ``{"pin": 1234}`` would be, and replaced when that would be.

A value this walk replaced whole is then replaced wherever else it appears in the same
result (layer 5, echo, as the text redactor does): under an innocent key, inside a
longer string, as a number.
"""

from __future__ import annotations

import json
import re
from typing import Any

from toolhygiene import _echo
from toolhygiene._engine import _ECHO_MIN, scrub
from toolhygiene._labels import credential_shaped, is_secret_label
from toolhygiene._named import secret_item, secret_members
from toolhygiene._words import placeholder

__all__ = ["kept"]

_PLACEHOLDER = placeholder("secret")
_DEPTH = 200
"""Levels walked, at most: a deeper value keeps the text redactor's output."""


_RUN = 512
"""Questions read by one redaction."""


class _TooDeepError(Exception):
    pass


_MARK = "[redacted"


def _parse(text: str) -> tuple[bool, Any]:
    try:
        return True, json.loads(text)
    except ValueError:
        return False, None
    except RecursionError:
        return False, None


def _same_shape(before: Any, after: Any) -> bool:
    """Same containers, keys (but where one was redacted) and lengths; leaves may differ."""
    if isinstance(before, dict):
        if not isinstance(after, dict) or len(before) != len(after):
            return False
        for (key, value), (new_key, new_value) in zip(before.items(), after.items(), strict=True):
            if key != new_key and _MARK not in new_key:
                return False
            if not _same_shape(value, new_value):
                return False
        return True
    if isinstance(before, list):
        return (
            isinstance(after, list)
            and len(before) == len(after)
            and all(_same_shape(old, new) for old, new in zip(before, after, strict=True))
        )
    return not isinstance(after, (dict, list))


class _Reader:
    """Judges leaves as ``{"key": value}``, once per key and value: a first walk asks
    (``asking``), one redaction reads every question, the second walk answers."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], Any] = {}
        self.asked: dict[tuple[str, str], tuple[str, Any]] = {}
        self.asking = True
        self.changed = False
        self.echoes: dict[str, str] = {}  # a value replaced whole: its placeholder

    def probe(self, key: str | None, leaf: Any) -> Any:
        """``leaf`` as the text redactor leaves it when it stands alone under ``key``."""
        if isinstance(leaf, bool) or leaf is None:
            return leaf
        if isinstance(leaf, (int, float)):
            if key is None or is_secret_label(key) is False:
                return leaf
            number = abs(leaf)
            if isinstance(number, float):
                if not number.is_integer():
                    return leaf
                number = int(number)
            written = str(number)
        elif isinstance(leaf, str):
            if _MARK in leaf:
                return leaf
            written = json.dumps(leaf, ensure_ascii=False)
        else:
            return leaf
        memo = (key or "", written)
        if self.asking:
            if memo not in self.asked:
                line = (
                    written
                    if key is None
                    else json.dumps({key: None}, ensure_ascii=False)[:-5] + written + "}"
                )
                self.asked[memo] = (line, number if isinstance(leaf, (int, float)) else leaf)
            return leaf
        found = self.seen.get(memo, leaf)
        if isinstance(leaf, (int, float)) and found == number:
            found = leaf
        if found is not leaf and found != leaf:
            self.changed = True
            if _whole_placeholder(found) and len(written.strip('"')) >= _ECHO_MIN:
                value = leaf if isinstance(leaf, str) else written
                if "[" not in value and "]" not in value:
                    self.echoes.setdefault(value, found)
        return found

    def echoed(self, value: Any) -> Any:
        """``value`` with every echo of a value replaced whole (``echoes``) replaced in
        its strings and keys, and a number that is one replaced."""
        if not self.echoes:
            return value
        values = tuple(self.echoes)
        names = tuple(self.echoes.values())
        return self._echoed(value, values, names)

    def _echoed(self, value: Any, values: tuple[str, ...], names: tuple[str, ...]) -> Any:
        if isinstance(value, dict):
            out: dict[str, Any] = {}
            for name, item in value.items():
                new = _echo.replace(name, values, names)
                while new in out:  # two keys redacted alike: both kept
                    new += " "
                out[new] = self._echoed(item, values, names)
            return out
        if isinstance(value, list):
            return [self._echoed(item, values, names) for item in value]
        if isinstance(value, str):
            return _echo.replace(value, values, names)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = abs(value)  # (a number is judged by its digits: ``probe``)
            if isinstance(number, float) and number.is_integer():
                number = int(number)
            return self.echoes.get(str(number), value)
        return value

    def answer(self) -> None:
        """Every question read at once (in runs of lines, so each redaction stays short)."""
        self.asking = False
        questions = list(self.asked.items())
        for at in range(0, len(questions), _RUN):
            run = questions[at : at + _RUN]
            text = "\n".join(line for _, (line, _) in run)
            out = scrub(text, internals=False)
            if out is text or out == text:
                continue
            lines = out.split("\n")
            if len(lines) != len(run):  # (never: no placeholder holds a line break)
                lines = [scrub(line, internals=False) for _, (line, _) in run]
            for (memo, (line, _)), shown in zip(run, lines, strict=True):
                if shown == line:
                    continue
                ok, value = _parse(shown)
                if not memo[0]:
                    found = value if ok and isinstance(value, str) else _PLACEHOLDER
                elif ok and isinstance(value, dict) and len(value) == 1:
                    found = next(iter(value.values()))
                else:
                    found = _PLACEHOLDER
                self.seen[memo] = found

    def key(self, key: str) -> str:
        out = self.probe(None, key)
        return out if isinstance(out, str) else key

    def named(self, holder: dict[str, Any], key: str, item: Any, depth: int) -> Any:
        """A value-ish member's ``item`` (``_named``): its scalars replaced."""
        self.changed = True
        if not isinstance(item, list):
            return _PLACEHOLDER
        return [
            _PLACEHOLDER
            if not isinstance(part, (dict, list)) and secret_item(holder, part)
            else self.walk(part, key, whole=True, depth=depth + 2)
            for part in item
        ]

    def walk(self, value: Any, key: str | None, *, whole: bool, depth: int = 0) -> Any:
        """``value`` with its leaves judged: all of them when ``whole`` (the text
        redactor's output was unusable), else those in lists and signed or fractional
        numbers (what the text redactor reads as something else than one value)."""
        if depth > _DEPTH and isinstance(value, (dict, list)):
            raise _TooDeepError
        if isinstance(value, dict):
            out: dict[str, Any] = {}
            # a value a sibling member names (``{"Name": "/prod/db/password", "Value":
            # v}``, ``_named``): the text redactor read the pair; read alone, it is not
            named = secret_members(value) if whole else frozenset()
            for name, item in value.items():
                new = self.key(name) if whole else name
                while new in out:  # two keys redacted alike: both kept
                    new += " "
                if name in named:
                    out[new] = self.named(value, name, item, depth)
                    continue
                out[new] = self.walk(item, name, whole=whole, depth=depth + 1)
            return out
        if isinstance(value, list):
            judged = whole or (key is not None and is_secret_label(key) is not False)
            # under a key naming a user-and-password pair (``auth``, ``credentials``),
            # a list's first string is the user and stays, unless it reads as a
            # credential itself (``_detectors.list_item_judge``, the text's rule)
            from toolhygiene._detectors import PAIR_KEY  # (loaded with the detectors)

            user = (
                key is not None
                and bool(value)
                and isinstance(value[0], str)
                and PAIR_KEY.search(key) is not None
                and not credential_shaped(value[0])
            )
            return [
                self.walk(item, key, whole=whole, depth=depth + 1)
                if isinstance(item, (dict, list))
                else item
                if not judged or (user and at == 0)
                else self.probe(key, item)
                for at, item in enumerate(value)
            ]
        if whole or (isinstance(value, float) or (isinstance(value, int) and value < 0)):
            return self.probe(key, value)
        return value


_FIRST = re.compile(r"[ \t\r\n]*[\[{]")
# A key's closing quote before a list or a signed or fractional number: where the walk
# may judge something (the key is read back from it).
_ASKED = re.compile(r"\"[ \t\r\n]{0,8}:[ \t\r\n]{0,8}(?:\[|-?[0-9]{1,64}[.eE]|-[0-9])")


def _whole_placeholder(found: Any) -> bool:
    return (
        isinstance(found, str)
        and found.startswith(_MARK)
        and found.endswith("]")
        and found.count("]") == 1
    )


def _asks(text: str) -> bool:
    """Whether a key that may name a secret holds a list or a signed or fractional number."""
    seen: set[str] = set()
    for m in _ASKED.finditer(text):
        end = m.start()
        start = text.rfind('"', max(0, end - 201), end)
        key = text[start + 1 : end]
        if start == -1 or key in seen:
            continue
        seen.add(key)
        if is_secret_label(key) is not False:
            return True
    return False


def kept(original: str, redacted: str) -> str:
    """``redacted``, or a redaction of ``original`` value by value when ``original`` is
    JSON that ``redacted`` no longer is (or is with other keys or lengths), with the
    leaves the text redactor cannot read as values judged too; ``redacted`` itself when
    ``original`` is no JSON (cut, or a text)."""
    first = _FIRST.match(original)
    if first is None:
        return redacted
    if redacted is original and not _asks(original):
        return redacted  # nothing redacted, and no value for the walk to judge
    ok, before = _parse(original)
    if not ok:
        return redacted
    reader = _Reader()
    try:
        if redacted is not original:
            fine, after = _parse(redacted)
            if not fine or not _same_shape(before, after):
                reader.walk(before, None, whole=True)
                reader.answer()
                out = reader.echoed(reader.walk(before, None, whole=True))
                return json.dumps(out, ensure_ascii=False)
        else:
            after = before
        reader.walk(after, None, whole=False)
        if not reader.asked:
            return redacted
        reader.answer()
        out = reader.echoed(reader.walk(after, None, whole=False))
    except (_TooDeepError, RecursionError):
        return redacted
    if not reader.changed:
        return redacted
    return json.dumps(out, ensure_ascii=False, indent=2 if "\n" in original.strip() else None)
