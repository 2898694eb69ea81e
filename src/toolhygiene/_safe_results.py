"""What a successful call puts in the context: capped, secrets redacted, outside text defused.

The same order as for a failure line, without the folding (a result keeps its lines):
cap the raw text (a little past the cap, so a secret across the cut is still seen
whole), normalise (always: terminal escapes such as an OSC-8 hyperlink, whose URL can
carry a token, and invisible characters go even when nothing else is done), redact
secrets (not internals: a tool that lists servers or customers
exists to show them), neutralise instruction-like markup when the tool brings in
outside text, then cut to the cap with a marker saying how much was left out and how to
ask for less.
"""

from __future__ import annotations

from typing import Any

from toolhygiene import _config
from toolhygiene._engine import scrub
from toolhygiene._normalise import normalise, without_sequences
from toolhygiene._redact import neutralise
from toolhygiene._tool import Tool
from toolhygiene._words import content_of, result_cut

__all__ = ["cut", "for_model"]

_MARGIN = 4_096
"""Characters read past the cap, so that a secret across the cut is redacted whole."""


def cut(text: str, cap: int, total: int, tool: str) -> str:
    """``text`` within ``cap`` characters; when it is longer (``total`` counts the
    characters before any processing), cut at a line or word boundary and end with a
    marker the model can act on."""
    if len(text) <= cap:
        return text
    room = cap - len(result_cut(tool, cap, total))
    head = text[:room]
    boundary = max(head.rfind("\n"), head.rfind(" "))
    if boundary >= room // 2:
        head = head[:boundary]
    return head + result_cut(tool, len(head), total)


def for_model(value: Any, tool: Tool[Any, Any], session_cap: int | None) -> str:
    """The text the model sees for ``tool``'s successful return ``value``."""
    text = content_of(value, tool.name)
    cap = tool.result_cap or session_cap or _config.settings.result_cap
    total = len(text)
    if total > cap + _MARGIN:
        text = text[: cap + _MARGIN]
    # Terminal escapes (an OSC-8 hyperlink's URL, colours, titles) and invisible
    # characters never reach the model, whatever the tool's options: the visible text stays.
    clean = normalise(text)
    scrubbed = scrub(clean, internals=False) if tool.redact_results else clean
    if tool.untrusted:
        text = neutralise(scrubbed)
    elif scrubbed is not clean:
        text = scrubbed
    else:  # nothing redacted: the text as given, byte for byte, but for escape sequences
        text = without_sequences(text)
    return cut(text, cap, total, tool.name)
