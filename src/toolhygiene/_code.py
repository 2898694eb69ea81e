"""Where a text quotes code (issue 12, neut21): a Markdown code span (`` `<system>` ``)
or a fenced code block (```` ``` ```` or ``~~~`` to the same fence), and a placeholder
written in angle brackets (``<system name>``, ``<system-id>``).

A role's tag quoted as code is shown as code, not as a role's markup: a manual's
"Wrap the prompt in `<system>` tags" names the tag, it does not open a turn. It stays
when the text it opens (to the span's end, or its block's next line) is no turn's
(``_orders.role_is_data``): `` `<system>` `` alone, ``<system>`` then ``{{ prompt }}``
in a block. A tag in code that opens an order (```` ``` ```` then ``<system>`` then "send
the key to …") is still markup. The frames a result sits in (``</tool_result>``) and
chat-template tokens are markup wherever they stand: only a role's tag is read here.

Each question reads a bounded stretch (a span's line, 300 characters either side) or a
list of fences made once per text (cached by the text itself): linear.
"""

from __future__ import annotations

import bisect
import functools
import re

__all__ = ["placeholder", "quoted_as_code", "role_tag"]

_REACH = 300
# A role's tag (its name alone or with what it holds: ``system_prompt``), the names
# ``_redact._TAGS`` gives a role.
_ROLE_TAG = re.compile(
    r"(?:system|assistant|user|human|developer|model)"
    r"(?:[_.-]?(?:prompt|messages?|instructions?|rules|role|turn|context|input|query"
    r"|request|response|reply|output))?|instructions?|prompt",
    re.IGNORECASE,
)
# A placeholder: a role's word then a field's word, joined by a space or a dash, before
# the closing bracket (``<system name>``, ``<user-id>``, ``<system hostname>``): a
# document's slot for a value, never a role's tag (an HTML attribute has ``=``).
_PLACEHOLDER = re.compile(
    r"(?:system|assistant|user|human|developer|model)[ \t-](?:id|ids|name|names|type"
    r"|version|number|no|host|hostname|path|dir|directory|file|url|uri|address|ip|port"
    r"|email|mail|handle|login|account|group|label|tag|code|key|date|time|locale"
    r"|language|region|zone|arch|os|kernel|uuid|guid|slug|title|count)[ \t]{0,3}"
    r"(?:>|&gt;?)",
    re.IGNORECASE,
)
_FENCE = re.compile(r"[ \t]{0,3}(?P<fence>`{3,}|~{3,})")


def placeholder(text: str, tag_start: int, end: int) -> bool:
    """Whether the tag whose name starts at ``text[tag_start]`` and ends at ``end`` is a
    placeholder (``_PLACEHOLDER``)."""
    m = _PLACEHOLDER.match(text, tag_start, end)
    return m is not None and m.end() == end


def role_tag(name: str) -> bool:
    """Whether a tag's name is a role's (``_ROLE_TAG``)."""
    return _ROLE_TAG.fullmatch(name) is not None


@functools.lru_cache(maxsize=8)
def _fences(text: str) -> tuple[list[int], list[int]]:
    """The fenced code blocks of ``text``, as the starts and ends of their inside (a
    block closed by a fence of the same character, at least as long; one left open
    runs to the text's end, as a page shows it)."""
    starts: list[int] = []
    ends: list[int] = []
    opened: tuple[str, int] | None = None
    at = 0
    # The next of each fence's mark, found again only once passed (a mark absent from
    # the text is looked for once, not once a fence).
    ticks, tildes = text.find("```"), text.find("~~~")
    while True:
        if ticks != -1 and ticks < at:
            ticks = text.find("```", at)
        if tildes != -1 and tildes < at:
            tildes = text.find("~~~", at)
        i = min((k for k in (ticks, tildes) if k != -1), default=-1)
        if i == -1:
            break
        line_start = text.rfind("\n", 0, i) + 1
        line_end = text.find("\n", i)
        line_end = len(text) if line_end == -1 else line_end
        m = _FENCE.match(text, line_start)
        if m is not None and m.start("fence") == i:
            fence = m.group("fence")
            if opened is None:
                opened = (fence, line_end + 1)
            elif (
                fence[0] == opened[0][0]
                and len(fence) >= len(opened[0])
                and text[m.end() : line_end].strip() == ""
            ):
                starts.append(opened[1])
                ends.append(line_start)
                opened = None
        at = line_end + 1
    if opened is not None:
        starts.append(opened[1])
        ends.append(len(text))
    return starts, ends


def _in_fence(text: str, start: int) -> tuple[int, int] | None:
    """The inside of the fenced block ``text[start]`` stands in, or ``None``."""
    starts, ends = _fences(text)
    k = bisect.bisect_right(starts, start) - 1
    if k >= 0 and start < ends[k]:
        return starts[k], ends[k]
    return None


def _in_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The inside of the code span on its line that ``text[start:end]`` stands in, or
    ``None``: an odd number of backticks before it on its line, one after it."""
    low = max(0, start - _REACH)
    line_start = text.rfind("\n", low, start) + 1 or low
    if text.count("`", line_start, start) % 2 == 0:
        return None
    stop = text.find("\n", end, end + _REACH)
    stop = min(len(text), end + _REACH) if stop == -1 else stop
    close = text.find("`", end, stop)
    return None if close == -1 else (text.rfind("`", line_start, start) + 1, close)


_CLOSING = re.compile(r"[ \t]{0,3}/")


def quoted_as_code(text: str, start: int, end: int, role: str) -> bool:
    """Whether the tag of ``role`` at ``text[start:end]`` is quoted as code (a span or a
    fenced block) and opens no turn of that role: the text it opens (a closing tag: the
    text it closes) judged as the role's label's value, a template's slot alone
    (``{{ prompt }}``, ``$PROMPT``) none."""
    if "`" not in text and "~~~" not in text:
        return False
    closing = _CLOSING.match(text, start + 1) is not None
    code = _in_span(text, start, end) if "`" in text[max(0, start - _REACH) : start] else None
    if code is not None:
        low, high = code
    else:
        fence = _in_fence(text, start)
        if fence is None:
            return False
        low, high = fence
    if closing:
        before = text[max(low, start - _REACH) : start]
        gt = before.rfind(">")
        value = before[gt + 1 :] if gt != -1 else before
        lines = [line.strip() for line in value.split("\n") if line.strip()]
        value = lines[-1] if lines else ""
    else:
        after = text[end : min(high, end + _REACH)]
        lt = after.find("<")
        after = after if lt == -1 else after[:lt]
        value = next((line.strip() for line in after.split("\n") if line.strip()), "")
    if not value or _SLOT.fullmatch(value) is not None:
        return True
    return not _opens_a_turn(value, role)


# A template's slot: ``{{ system_prompt }}``, ``{prompt}``, ``$PROMPT``, ``${PROMPT}``,
# ``...``.
_SLOT = re.compile(r"\{\{?[ \t]{0,3}[\w.-]{1,60}[ \t]{0,3}\}?\}|\$\{?\w{1,60}\}?|\.{3}|\u2026")


@functools.lru_cache(maxsize=256)
def _opens_a_turn(value: str, role: str) -> bool:
    """Whether ``value`` is a turn's under ``role``'s label (a user's question alone, as
    an example's, is the user's: ``_reader.asks_only``)."""
    from toolhygiene._orders import asks_only, role_is_data

    label = f"{role}: {value}"
    if role_is_data(label, len(role) + 1, role, record=False):
        return False
    return not (role in ("user", "human") and asks_only(value))
