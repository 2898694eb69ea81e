"""What a successful call puts in the context: capped, secrets redacted, outside text defused.

The same order as for a failure line, without the folding (a result keeps its lines):
cap the raw text (a little past the cap, so a secret across the cut is still seen
whole), normalise (always: terminal escapes such as an OSC-8 hyperlink, whose URL can
carry a token, and what hides or reorders text, Unicode tag characters and bidi
overrides, go even when nothing else is done; a trusted result with nothing to redact
keeps its zero-width characters and joiners, byte for byte), redact
secrets (not internals: a tool that lists servers or customers
exists to show them), neutralise instruction-like markup when the tool brings in
outside text, then cut to the cap with a marker saying how much was left out and how to
ask for less.
"""

from __future__ import annotations

from typing import Any

from toolhygiene import _config
from toolhygiene._carriers import (
    distinct_keys,
    escape_json_marks,
    escape_text_marks,
    may_repeat_keys,
    neutralise_json,
    neutralise_text,
)
from toolhygiene._engine import scrub
from toolhygiene._errors import Empty
from toolhygiene._exceptions import UsageError
from toolhygiene._json_kept import kept
from toolhygiene._normalise import normalise, without_sequences
from toolhygiene._redact import neutralise
from toolhygiene._tool import Tool
from toolhygiene._words import content_of, result_cut

__all__ = ["cut", "for_model"]

_MARGIN = 4_096
"""Characters read past the cap, so that a secret across the cut is redacted whole."""


def cut(
    text: str,
    cap: int,
    total: int,
    tool: str,
    *,
    whole: bool = True,
    verbatim: bool = True,
    redacted: bool = False,
    arguments: bool = True,
) -> str:
    """``text`` within ``cap`` characters; when it is longer, or when it is not the
    ``whole`` result (the raw text was cut before processing), cut at a line or word
    boundary and end with a marker the model can act on. ``total`` counts the characters
    before any processing; ``verbatim`` says whether ``text`` is the result's own
    characters (nothing redacted or defused), so the marker's counts say what they count;
    ``redacted`` whether secrets in it were replaced (the marker says so only then);
    ``arguments`` whether the tool has any argument to ask for less with."""
    if whole and len(text) <= cap:
        return text

    def marker(shown: int) -> str:
        return result_cut(
            tool, shown, total, verbatim=verbatim, redacted=redacted, arguments=arguments
        )

    room = cap - len(marker(cap))
    head = text[:room]
    boundary = max(head.rfind("\n"), head.rfind(" "))
    # Where the raw text was cut, the last word may be half of one: it goes.
    if boundary >= room // 2 or (len(text) <= room and boundary > 0):
        head = head[:boundary]
    return head + marker(len(head))


def _as_is(text: str) -> str:
    return text


def _has_arguments(tool: Tool[Any, Any]) -> bool:
    """Whether ``tool`` takes any argument the model could send to ask for less: a
    declared property, or open extra ones (an MCP schema's ``additionalProperties``)."""
    try:
        schema = tool.parameters
    except UsageError:  # annotations that do not resolve: say nothing untrue either way
        return True
    extra = schema.get("additionalProperties", False)
    return bool(schema.get("properties")) or extra is True or isinstance(extra, dict)


def for_model(value: Any, tool: Tool[Any, Any], session_cap: int | None) -> str:
    """The text the model sees for ``tool``'s successful return ``value``."""
    raw = content_of(value, tool.name, redact_bytes=tool.redact_results)
    cap = tool.result_cap or session_cap or _config.settings.result_cap
    total = len(raw)
    text = raw[: cap + _MARGIN] if total > cap + _MARGIN else raw
    # Terminal escapes (an OSC-8 hyperlink's URL, colours, titles), tag characters and
    # bidi overrides never reach the model, whatever the tool's options: the visible text
    # stays (``without_sequences``; the other invisible characters go where the text is
    # normalised: redacted, untrusted).
    # A mark of toolhygiene's own in the tool's text is escaped first, before
    # toolhygiene writes any of its own (placeholders, the cut marker).
    # (An ``Empty``'s line is toolhygiene's own, its query and note neutralised.)
    # JSON (a dict or list result, a str result that is JSON text) string by string.
    escape = (
        _as_is
        if isinstance(value, Empty)
        else escape_text_marks
        if isinstance(value, str)
        else escape_json_marks
    )
    normalised = normalise(text)
    if escape is not _as_is and may_repeat_keys(text, normalised):
        # Keys that differed only by what normalising removed, an escape, full-width
        # letters or a combining mark read the same: the later is renamed (JSON text
        # only; any other text has no keys).
        normalised = distinct_keys(normalised)
    clean = escape(normalised)
    scrubbed = scrub(clean, internals=False) if tool.redact_results else clean
    if tool.redact_results and not isinstance(value, Empty):
        # JSON stays JSON, with the same keys and lengths; a value the text redactor
        # cannot read as one (in a list, signed) is judged as one (_json_kept).
        scrubbed = kept(clean, scrubbed)
    redacted = scrubbed is not clean
    if tool.untrusted:
        # JSON string by string, as the model reads it (a dict or list result always is
        # JSON text; a str result when it is: see _carriers); an Empty's line is text.
        if isinstance(value, str):
            shown = neutralise_text(scrubbed)
        elif isinstance(value, Empty):
            shown = neutralise(scrubbed)
        else:
            shown = neutralise_json(scrubbed)
    elif redacted:
        shown = scrubbed
    else:  # nothing redacted: the text as given, byte for byte, but for escape sequences
        plain = without_sequences(text)
        # Most results hold neither escapes nor invisible characters: escaped once.
        shown = clean if plain is normalised else escape(plain)
    verbatim = shown is text or raw.startswith(shown)
    return cut(
        shown,
        cap,
        total,
        tool.name,
        whole=len(text) == total,
        verbatim=verbatim,
        redacted=redacted,
        arguments=_has_arguments(tool),
    )
