"""Where a placeholder's span ends: exactly the secret, nothing of the text around it.

A labelled value is read up to a blank or a delimiter (``_detectors._VALUE``), which
takes a few characters that are the text's, not the value's; each span is cut back to
the value before the spans are merged (a pair cut off a span is found on its own):

- a sentence's stop: a ``.`` at a span's end before a blank or the end of the text
  (``key sk_live_…. Rotate it.``, ``password=hunter2. Next``). A password may end with a
  stop; what is left beside the placeholder is then one ``.``, which says nothing of it;
- another pair glued with ``+`` (a query's blank, a flag's ``+opt=``):
  ``token=abc+user=bob`` keeps ``+user=bob``; base64 holds ``=`` only at its end, so a
  run ``+name=v`` inside a value is no base64's. The pair's value goes too, as a span of
  its own, when its name may name a secret or the value looks like a credential
  (``token=abc+password=v``: ``token=[redacted:secret]+password=[redacted:secret]``);
- the label of a value written as another label's value (``key=password=hunter2``): the
  inner label stays beside its placeholder, ``key=password=[redacted:secret]``.

A ``/`` at a value's end stays with it (base64 and a query's value may end with one).
"""

from __future__ import annotations

import re

from toolhygiene._labels import after_secret_flag, credential_shaped, is_secret_label
from toolhygiene._tokens import Span

__all__ = ["exact"]

# (A name of lowercase words, a capital first at most: a run of base64 glued to more
# text, ``+LuSEK0qoAAAA=sk_…``, or a Django key's ``+_0000=0`` names nothing.)
_GLUED_PAIR = re.compile(r"\+([A-Za-z][a-z]{1,20}(?:[_.\-][A-Za-z]?[a-z]{1,20}){0,3})=(?=[^=\s])")
_INNER_LABEL = re.compile(r"([A-Za-z_][A-Za-z0-9_.\-]{1,40})=(?=[^=\s\"'])")


def exact(text: str, spans: list[Span]) -> list[Span]:
    """``spans`` of ``text``, each cut back to the secret it stands for."""
    out: list[Span] = []
    for start, end, name, rank in spans:
        if end - start <= 2:
            out.append((start, end, name, rank))
            continue
        for begin, stop in _exact(text, start, end, labelled=name == "secret"):
            if begin < stop:
                out.append((begin, stop, name, rank))
    return out


def _exact(text: str, start: int, end: int, *, labelled: bool) -> list[tuple[int, int]]:
    """The span ``start:end`` without the text's own characters at its edges (a pair or
    a label inside it only in a ``labelled`` value's: a token's span is its format's);
    a glued pair's value goes too where it may be a secret, as a span of its own."""
    if text[end - 1] == "." and text[end - 2] not in ".\\" and _blank_or_end(text, end):
        end -= 1
    if not labelled:
        return [(start, end)]
    if "=" in text[start:end] and not after_secret_flag(text, start):
        inner = _INNER_LABEL.match(text, start, end)
        if inner is not None and inner.end() < end and is_secret_label(inner.group(1)):
            start = inner.end()
    if "+" not in text[start:end]:
        return [(start, end)]
    out: list[tuple[int, int]] = []
    for glued in _GLUED_PAIR.finditer(text, start + 1, end):
        out.append((start, glued.start()))
        start = glued.end()
        stop = text.find("+", start, end)
        value = text[start : end if stop == -1 else stop]
        if is_secret_label(glued.group(1)) is False and not credential_shaped(value):
            start += len(value)  # (``+user=bob``: a pair of the text's own)
    out.append((start, end))
    return out


def _blank_or_end(text: str, at: int) -> bool:
    return at == len(text) or text[at].isspace()
