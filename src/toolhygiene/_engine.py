"""The redaction engine: every layer over normalised text, then echoes.

``scrub`` finds spans with the context detectors (``_detectors``, user ones from
``_registry``) and the token layers (``_tokens``), merges overlapping spans into one
placeholder named by the most specific finder, and then (layer 5, echo) replaces every
other occurrence of a value it redacted. Before that, text that hides a secret from a
single pass is looked at again in the form that reveals it: a token wrapped over two
lines is joined when the join is a secret; URL-encoded runs and JSON string literals
with escapes are decoded, scrubbed, and put back decoded (URL) or re-encoded (JSON)
where they held something.

``scrub`` returns the very object it was given when it found nothing, so callers can
tell "nothing here" without comparing strings.
"""

from __future__ import annotations

import json
import re
from urllib.parse import unquote

from toolhygiene import _config, _registry, _tokens
from toolhygiene._detectors import BUILT_IN, Detector
from toolhygiene._normalise import normalise
from toolhygiene._tokens import Span

__all__ = ["placeholder", "scrub"]

_PRIORITY = {"secret": 2, "email": 0, "internal": 0}
_ECHO_MIN = 5
_ECHO_MAX = 64
_PLACEHOLDER = r"\[redacted:[a-z0-9\-]{1,40}\]"


def placeholder(name: str) -> str:
    """``[redacted:<name>]``."""
    return f"[redacted:{name}]"


_DENSE = 32
"""Needle occurrences above which a whole-text scan is cheaper than one match each."""


def _starts(detector: Detector, text: str, lowered: str) -> list[int] | None:
    """Where an anchored detector's matches can begin; ``None``: scan the whole text."""
    starts: set[int] = set()
    back, back_chars = detector.back, detector.back_chars
    for needle in detector.gate:
        at = lowered.find(needle)
        while at != -1:
            if len(starts) >= _DENSE:
                return None
            start = at
            if back:
                before = text[max(0, at - back) : at]
                start = at - (len(before) - len(before.rstrip(back_chars)))
            starts.add(start)
            at = lowered.find(needle, at + 1)
    return sorted(starts)


def _matches(detector: Detector, text: str, lowered: str) -> list[re.Match[str]]:
    pattern = detector.pattern
    if detector.anchored:
        starts = _starts(detector, text, lowered)
        if starts is not None:
            found = [pattern.match(text, start) for start in starts]
            return [m for m in found if m is not None]
    return list(pattern.finditer(text))


def _plan() -> list[tuple[tuple[str, ...], Detector, str | int, int]]:
    plan: list[tuple[tuple[str, ...], Detector, str | int, int]] = []
    for detector in (*BUILT_IN, *_registry.user_detectors()):
        group = "secret" if "secret" in detector.pattern.groupindex else 0
        plan.append((detector.gate, detector, group, _PRIORITY[detector.kind]))
    return plan


_BUILT_IN_PLAN = _plan()


def _detect(text: str, internals: bool) -> list[Span]:
    spans: list[Span] = []
    lowered = text.lower()
    if len(lowered) != len(text):  # only U+0130 lowercases to two characters
        lowered = text.replace("\u0130", "i").lower()
    emails = _config.settings.redact_emails
    plan = _BUILT_IN_PLAN if not _registry.user_detectors() else _plan()
    for gate, detector, group, rank in plan:
        for needle in gate:  # inline, not any(): this loop is most of the cost on short text
            if needle in lowered:
                break
        else:
            if gate:
                continue
        kind = detector.kind
        if kind != "secret" and not (internals and (emails or kind != "email")):
            continue
        check = detector.check
        for m in _matches(detector, text, lowered):
            if check is None or check(m):
                start, end = _inside_quotes(text, *m.span(group))
                if start < end:
                    spans.append((start, end, detector.name, rank))
    _tokens.find(text, spans)
    return spans


def _inside_quotes(text: str, start: int, end: int) -> tuple[int, int]:
    """A quoted value's span without its quotes (and their escapes), so that the
    placeholder stays a string in JSON, a dict repr or escaped JSON."""
    if end - start >= 2 and text[end - 1] in "\"'" and text[start] in "\"'\\":
        value = text[start:end]
        inner = value.lstrip("\\")
        if inner[:1] == value[-1]:
            left = start + len(value) - len(inner) + 1
            right = end - 1 - (len(value[:-1]) - len(value[:-1].rstrip("\\")))
            if left <= right:
                return left, right
    return start, end


def _merge(spans: list[Span]) -> list[Span]:
    spans.sort(key=lambda s: (s[0], -s[1]))
    merged: list[Span] = []
    for span in spans:
        if merged and span[0] < merged[-1][1]:
            start, end, name, rank = merged[-1]
            better = span[3] > rank or (span[3] == rank and span[1] - span[0] > end - start)
            merged[-1] = (start, max(end, span[1]), span[2] if better else name, max(rank, span[3]))
        else:
            merged.append(span)
    return merged


def _apply(text: str, spans: list[Span]) -> tuple[str, dict[str, str]]:
    parts: list[str] = []
    echoes: dict[str, str] = {}
    last = 0
    for start, end, name, rank in _merge(spans):
        value = text[start:end]
        if _registry.allowed(value):
            continue
        parts.append(text[last:start])
        parts.append(placeholder(name))
        last = end
        bare = value.strip("\\\"'` ")
        if rank > 0 and len(bare) >= _ECHO_MIN and len(echoes) < _ECHO_MAX:
            echoes.setdefault(bare, name)
    parts.append(text[last:])
    return "".join(parts), echoes


def _echo(text: str, echoes: dict[str, str]) -> str:
    present = sorted((v for v in echoes if v in text), key=len, reverse=True)
    if not present:
        return text
    pattern = re.compile("|".join([_PLACEHOLDER, *map(re.escape, present)]))

    def sub(m: re.Match[str]) -> str:
        found = m.group()
        return found if found.startswith("[redacted:") else placeholder(echoes[found])

    return pattern.sub(sub, text)


_WRAP = re.compile(
    r"(?<![A-Za-z0-9_\-+/=.])([A-Za-z0-9_\-+/=.]{8,4096})"
    r"([ \t]{0,40}(?:\r?\n|(?:\\{1,2}r)?\\{1,2}n)[ \t]{0,40})"
    r"(?=([A-Za-z0-9_\-+/=.]{4,4096}))"
)


def _unwrap(text: str) -> str:
    """Join a token wrapped over lines where the joined token is a secret."""
    cuts: list[tuple[int, int]] = []
    for m in _WRAP.finditer(text):
        left, right = m.group(1), m.group(3)
        spans: list[Span] = []
        _tokens.find(left + right, spans)
        if any(start < len(left) < end for start, end, _, _ in spans):
            cuts.append(m.span(2))
    if not cuts:
        return text
    parts, last = [], 0
    for start, end in cuts:
        parts.append(text[last:start])
        last = end
    parts.append(text[last:])
    return "".join(parts)


_PERCENT = re.compile(
    r"(?<![^\s\"'<>])[^\s\"'<>%]{0,4096}(?:%[0-9A-Fa-f]{2}[^\s\"'<>%]{0,4096}){1,4096}"
)
_JSON_STRING = re.compile(r"\"(?:[^\"\\\r\n]|\\.){1,16384}\"")


def _url_decoded(segment: str) -> str:
    for _ in range(3):
        decoded = unquote(segment, errors="replace")
        if decoded == segment:
            break
        segment = decoded
    return segment


def _json_decoded(literal: str) -> str:
    try:
        decoded = json.loads(literal)
    except ValueError:
        return literal
    return decoded if isinstance(decoded, str) else literal


def _decoded(text: str, internals: bool) -> str:
    """Scrub URL-encoded runs and escaped JSON strings in their decoded form."""
    if "%" in text:
        text = _PERCENT.sub(lambda m: _reveal(m.group(), _url_decoded, internals, False), text)
    if "\\" in text:
        text = _JSON_STRING.sub(lambda m: _reveal(m.group(), _json_decoded, internals, True), text)
    return text


def _reveal(segment: str, decode: object, internals: bool, as_json: bool) -> str:
    if as_json and "\\" not in segment:
        return segment
    decoded = decode(segment)  # type: ignore[operator]
    if decoded == segment:
        return segment
    clean = normalise(decoded)
    scrubbed = scrub(clean, internals=internals, nested=True)
    if scrubbed is clean:
        return segment
    return json.dumps(scrubbed, ensure_ascii=False) if as_json else scrubbed


def scrub(text: str, *, internals: bool = True, nested: bool = False) -> str:
    """``text`` (already normalised) with every secret replaced by a placeholder, and
    with internals too when ``internals``; ``text`` itself when nothing was found."""
    if len(text) < 8:
        return text
    original = text
    if "\n" in text or "\\n" in text:
        text = _unwrap(text)
    if not nested and ("%" in text or "\\" in text):
        text = _decoded(text, internals)
    spans = _detect(text, internals)
    if not spans:
        return original if text == original else text
    out, echoes = _apply(text, spans)
    return _echo(out, echoes) if echoes else out
