"""Every word the model reads, in one place, so that all of it can be checked for truth at
once: the failure line, the closed and unknown-tool notices, the ``Empty`` line, the stub
of a cleared error, the ``[recovered]`` note, the marker of a cut result, and the
precedence of advice.

Each text says only what is known. A failure line is built from parts, and when it is
longer than the cap the least useful part goes first: what failed is shortened, then the
same-failure remark is dropped, then the verdict and the closing notice take their short
forms, and only then is the advice shortened. The tool, the category, the verdict, the
closing notice and the advice are in every line, whatever the cap (``MIN_LINE_CAP`` up).
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolhygiene import _config
from toolhygiene._config import MIN_LINE_CAP
from toolhygiene._results import UnserializableError, pending, to_json
from toolhygiene._text import truncate

if TYPE_CHECKING:
    from toolhygiene._errors import Failure

__all__ = [
    "ARGUMENTS_NOT_UTF8",
    "COARSE_HINTS",
    "CONSTRAINTS",
    "CUT_NESTED",
    "CUT_OFF",
    "DID_NOT_RUN",
    "ERROR_MARK",
    "HINTS",
    "INSTRUCTION_REMOVED",
    "IN_CONVERSATION",
    "MIN_LINE_CAP",
    "NESTED_TOO_DEEP",
    "ON_SERVER",
    "Read",
    "STATUS_MARKS",
    "STUB",
    "TEXT_MARKS",
    "UNSAID",
    "UPSTREAM_INSTEAD",
    "UPSTREAM_OPEN",
    "argument_path",
    "argument_problem",
    "arguments_not_json",
    "arguments_not_object",
    "cancelled",
    "closed_line",
    "constraint",
    "content_of",
    "cut_turn_line",
    "default_note",
    "duplicate_key",
    "each_part",
    "empty_line",
    "escape_result",
    "failure_line",
    "gap_line",
    "group_failures",
    "held_line",
    "http_answer",
    "image_marker",
    "markup_marker",
    "message_unreadable",
    "missing_argument",
    "no_message",
    "no_such_key",
    "not_awaited",
    "not_finite_argument",
    "not_json",
    "on_server",
    "os_error_text",
    "pending_kind",
    "pending_words",
    "placeholder",
    "read_note",
    "read_result",
    "recovered_note",
    "reported_without_text",
    "result_cut",
    "retry_after",
    "role_marker",
    "rounded",
    "schema_advice",
    "seconds",
    "signature",
    "split_note",
    "still_running",
    "takes_tool_advice",
    "timed_out",
    "type_words",
    "unexpected_argument",
    "unknown_tool",
    "unreadable",
    "unrenderable",
    "upstream_down",
    "what_failed",
    "wrong_argument",
]

ERROR_MARK = "[error] "
"""How every failure line the model reads opens."""

CUT_NESTED = "[cut: nested too deep]"
"""What a value nested past what the redaction walk follows becomes."""

STATUS_MARKS = ("error cleared", "error", "recovered", "empty", "result cut", "gap")
"""The words of the marks toolhygiene writes about a call or a result (``[error]``,
``[result cut: …]``): text from a tool may not pose as one, in any bracket pair
(``_redact.neutralise`` for failure text and untrusted results, ``_redact.escape_marks``
for every result)."""

TEXT_MARKS = ("redacted", "markup", "role", "instruction-like text removed", "cut")
"""The words of the marks toolhygiene puts where it took text out (``[redacted:<name>]``,
``[markup:<tag>]``, ``[role:<role>]``, ``INSTRUCTION_REMOVED``, ``CUT_NESTED``): a
tool's result may not pose as one either (``_redact.escape_marks``, which runs before
toolhygiene writes its own)."""

INSTRUCTION_REMOVED = "[instruction-like text removed]"
"""What text in a result that tells the model what to do instead becomes."""


def placeholder(name: str) -> str:
    """``[redacted:<name>]``: what a secret found in any text the model reads becomes;
    ``name`` says what kind of secret it was (``secret``, ``email``, a label)."""
    return f"[redacted:{name}]"


def markup_marker(tag: str | None) -> str:
    """``[markup:<tag>]`` (``[markup]`` when no tag is named): what markup in a result
    that could pass for the conversation's own structure becomes."""
    return f"[markup:{tag.lower()}]" if tag else "[markup]"


def role_marker(role: str) -> str:
    """``[role:<role>]``: what a line in a result that claims a speaker's role becomes."""
    return f"[role:{role.lower()}]"


def image_marker(alt: str, address: str) -> str:
    """``[image: <alt>] (<address>)``: what an image a client would fetch on display
    becomes in an untrusted result, when its address leaves a value for the model to
    fill in (its name and where it points, no image's markup); ``[image]`` without a
    name, no address for a reference's image."""
    name = f"[image: {alt}]" if alt else "[image]"
    return f"{name} ({address})" if address else name


def duplicate_key(key: str, number: int) -> str:
    """What the ``number``-th key of an object that reads as ``key`` (once invisible
    characters are removed) is renamed: the model sees the object named it twice."""
    return f"{key} (duplicate key {number})"


NESTED_TOO_DEEP = "the arguments are nested too deeply to read"
"""What failed when the model's arguments nest deeper than the stack can follow."""

STUB = "[error cleared]"
"""What a cleared error's result shrinks to when its round cannot be removed whole."""

HINTS: Mapping[str, str] = {
    "connectivity": (
        "Wait a few seconds, then call {tool} again with the same arguments; if it fails "
        "again, continue without it."
    ),
    "rate_limit": (
        "Wait, then call {tool} again with the same arguments; do not call it in a tight loop."
    ),
    "upstream": (
        "The service behind {tool} is failing; try once more later, else continue without "
        "it and tell the user."
    ),
    # Not "fix the arguments": this kind is raised by tools' own code too (a ValueError in
    # a tool with no arguments, a service's 400); only argument validation, which knows
    # the arguments were wrong, says so (``schema_advice``).
    "bad_request": (
        "Change the request if the message says what was wrong, else tell the user what failed."
    ),
    "auth": "Do not retry; tell the user that {tool} needs credentials or permissions it lacks.",
    "not_found": "Check the name or id, or search for it first, instead of repeating the call.",
    "business": "A rule forbids this; tell the user, or choose a different action.",
    "unknown": (
        "Do not repeat the same call; try a different approach or tell the user what failed."
    ),
}
"""Each category's advice, with ``{tool}`` where the tool's name goes."""

COARSE_HINTS: Mapping[str, str] = {
    "transient": (
        "Wait, then call {tool} again with the same arguments; if it fails again, continue "
        "without it."
    ),
    "validation": (
        "Change the arguments, or look up the right name or id, before calling {tool} again."
    ),
    "business": HINTS["business"],
    "permission": HINTS["auth"],
    "other": HINTS["unknown"],
}
"""The advice for a failure of which only the coarse class is known (another agent's
payload): nothing finer is claimed."""

_UNKNOWN = "Outcome unknown: the call may have taken effect before it failed."
_CHECK_FIRST = "Check whether it took effect before calling {tool} again."
_CHECK_CLOSED = "Tell the user it may have taken effect, and check it if you can."
_BROADEN = "Broaden or change the query, or tell the user nothing matched"
_GO_ON = "Continue without it, or tell the user what you could not do."


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    return text if text[-1] in ".!?…" else text + "."


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _times(n: int) -> str:
    return "1 time" if n == 1 else f"{n} times"


def _failures(n: int) -> str:
    return "1 failure" if n == 1 else f"{n} failures"


def rounded(value: float) -> float:
    """A duration in seconds as a log field carries it: to the millisecond."""
    return round(float(value), 3)


def seconds(value: float) -> str:
    """A duration in seconds as every line reads it (followed by `` s``): whole seconds
    from 10 s (``90``), tenths from 1 s (``7``, ``2.5``), milliseconds below (``0.5``,
    ``0.074``); never a raw float, never ``0`` for a duration that is not zero."""
    if value >= 10:
        return f"{value:.0f}"
    if value >= 1:
        return f"{value:.1f}".removesuffix(".0")
    if value <= 0:
        return "0"
    return f"{max(value, 0.001):.3f}".rstrip("0").rstrip(".")


# -- the failure line -------------------------------------------------------------------


def retry_after(wait: float, *, at_least: bool = False, word: str = "Transient") -> str:
    """The verdict of a retryable failure with a known wait (``at_least``: the wait was
    capped, so the true one is longer; ``word``: "Retryable" for a kind not transient)."""
    return f"{word}: retry after {'at least ' if at_least else ''}{seconds(wait)} s."


def takes_tool_advice(failure: Failure) -> bool:
    """Whether the tool's default advice (``@tool(instead=...)``) goes into ``failure``:
    only where nothing knows better.

    Precedence of advice, highest first: the tool's own ``ToolError(instead=...)``, a
    classification rule's hint, the tool's ``@tool(instead=...)``, the category's hint.
    """
    return not (failure.instead or failure.hint)


def _advice(failure: Failure, compact: bool = False, alternatives: bool = True) -> str:
    """What to do next; ``compact`` says "it" where the tool's name would go;
    ``alternatives``: the failure's alternatives follow."""
    tool = failure.tool
    if failure.uncertain:
        advice = _CHECK_CLOSED if failure.closes else _CHECK_FIRST
    elif failure.closes:  # closed now: no advice that calls it again may remain; the
        # tool's own advice stays only when it points elsewhere (it does not name the tool)
        advice = _GO_ON
        if _elsewhere(failure.instead, tool):
            advice = _sentence(_capital(failure.instead))
    elif failure.instead or failure.hint:
        advice = _sentence(_capital(failure.instead or failure.hint))
    elif failure.retryable == failure.category.retryable:  # the kind's own advice
        # (only the coarse class known: its category is the nearest fine one, whose
        # retryability is the class's; the advice claims nothing finer)
        advice = HINTS[failure.category._value_]  # an Enum's .value is Python code
        if failure.coarse is not None:
            advice = COARSE_HINTS[failure.coarse._value_]
    elif failure.retryable:  # the tool or sender overrode its kind: advice follows it
        advice = (
            "Call {tool} once more with the same arguments; if it fails again, continue without it."
        )
    else:
        advice = "Do not repeat the call; continue without {tool}, or tell the user what failed."
    if failure.alternatives and alternatives:
        advice += " Alternatives: " + _sentence("; ".join(failure.alternatives))
    if compact:
        return advice.replace("{tool}'s", "its").replace("{tool}", "it")
    return advice.replace("{tool}", tool)


def _elsewhere(advice: str, tool: str) -> bool:
    """Whether ``advice`` (a tool's own ``instead``) points away from ``tool``: it does not
    name it, so it cannot tell the model to call it again once it is closed."""
    return bool(advice) and "{tool}" not in advice and tool not in advice


def _verdict(failure: Failure, short: bool) -> str:
    """Whether calling again can help, as far as it is known."""
    if failure.closes:
        closed = (
            "It is now closed: do not call it again."
            if short
            else f"{failure.tool} has failed {_times(failure.count)} in this conversation and "
            "is now closed: do not call it again."
        )
        if failure.uncertain:
            return _join(
                "Outcome unknown: it may have taken effect." if short else _UNKNOWN, closed
            )
        return closed
    if failure.refused:
        return "Not run." if short else "This call did not run."
    if failure.uncertain:
        return "Outcome unknown: it may have taken effect." if short else _UNKNOWN
    # "Transient" is said only of a transient kind (connectivity, rate_limit, upstream):
    # a business or permission failure its tool or sender marked retryable is
    # "Retryable", and a transient one marked not retryable is "Not retryable".
    transient = failure.category.coarse._value_ == "transient"
    word = "Transient" if transient else "Retryable"
    if failure.retryable:
        if failure.retry_after is not None:
            # a wait capped to the ceiling was longer: "at least" keeps it true
            least = failure.retry_after >= _config.settings.retry_after_ceiling
            return retry_after(failure.retry_after, at_least=least, word=word)
        return f"{word}." if short else f"{word}: a retry may succeed."
    if failure.category._value_ == "unknown":
        return "Cause not known." if short else "Cause not known: repeating it is not advised."
    if transient:  # declared not retryable by its tool or sender: the kind's word and
        # the verdict must not clash ("Not transient" of an upstream failure is false)
        return "Not retryable." if short else "Not retryable: repeating it is not advised."
    return "Not transient." if short else "Not transient: the same call will fail the same way."


def _breaker(failure: Failure) -> str:
    """What the same-failure counter knows; nothing about the future."""
    if failure.retryable or failure.closes:
        return ""
    if failure.status == "repeated":
        return (
            f"This exact call has now failed {_times(failure.repeats)} the same way: "
            "do not repeat it."
        )
    if failure.status == "similar":
        return (
            f"{failure.repeats} calls with different arguments failed the same way: the "
            "approach, not the argument, may be wrong."
        )
    return ""


def _join(*parts: str) -> str:
    return " ".join(filter(None, parts))  # the empty parts left out, in C


_LEAST_OF_WHAT = 16
"""Fewer characters of what failed than this say nothing: then it goes whole."""


def failure_line(failure: Failure, cap: int) -> str:
    """The one line the model sees for ``failure``, at most ``cap`` characters.

    Parts are given up in this order until the line fits: what failed is shortened (to
    ``_LEAST_OF_WHAT`` characters), the same-failure remark goes, the verdict takes its
    short form, the advice says "it" for the tool's name; then what failed goes, and last
    the advice is shortened at its end.
    """
    head = f"[error] {failure.tool}: {failure.label}."
    # "did not run" is said only by toolhygiene (a closed tool, an open upstream), so a
    # resumed Session can trust it: a failure's own words say "didn't run" instead.
    what = failure.message or "it failed"
    if failure.exc_type != UPSTREAM_OPEN and (
        not what.isascii() or "did not run" in what.lower()  # ASCII: the same test, in C
    ):
        what = _DID_NOT_RUN_ANY.sub("didn't run", what)
    what = _sentence(what)
    # Each stage is worded only when the one before did not fit (most lines fit the first).
    verdict, advice = _verdict(failure, False), _advice(failure)
    if failure.instead and failure.instead.startswith(_schema_call(failure.tool)):
        # arguments were refused
        fitted = _arguments_line(failure, head, what, verdict=verdict, advice=advice, cap=cap)
        if fitted is not None:
            return fitted
    for stage in range(4):
        if stage == 2:
            verdict = _verdict(failure, True)
        elif stage == 3:
            advice = _advice(failure, compact=True)
        remark = _breaker(failure) if stage == 0 else ""
        room = cap - len(_join(head, verdict, remark, advice)) - 1
        if room >= min(len(what), _LEAST_OF_WHAT):
            return _join(head, truncate(what, room), verdict, remark, advice)
    if failure.alternatives:  # what failed outweighs alternatives: they are cut first
        shown = truncate(what, max(_LEAST_OF_WHAT, cap // 4))
        bare = _advice(failure, compact=True, alternatives=False)
        room = cap - len(_join(head, shown, verdict, bare)) - len(" Alternatives: ") - 1
        if room >= _LEAST_OF_WHAT:
            listed = truncate("; ".join(failure.alternatives), room)
            return _join(head, shown, verdict, f"{bare} Alternatives: {_sentence(listed)}")
        if room + len(" Alternatives: ") >= 0:
            return _join(head, shown, verdict, bare)
    room = cap - len(_join(head, verdict)) - 1
    if room >= len(advice):
        return _join(head, verdict, advice)
    return _join(head, verdict, truncate(advice, room)) if room >= 8 else _join(head, verdict)


def _arguments_line(
    failure: Failure, head: str, what: str, *, verdict: str, advice: str, cap: int
) -> str | None:
    """The line of refused arguments, when the whole one is too long: every bad argument
    with its reason outweighs the schema summary (the model has the schema), so the
    summary is cut first, down to "Call it again with arguments matching its schema.";
    then each argument's reason is shortened, never one dropped. ``None`` when even that
    does not fit (``failure_line``'s own stages then apply)."""
    summary = advice.startswith(_schema_call(failure.tool))  # else: closed, or uncertain
    least = _schema_call(failure.tool) + "." if summary else advice
    remark = _breaker(failure)
    if len(_join(head, what, verdict, remark, advice)) <= cap:
        return _join(head, what, verdict, remark, advice)
    short = _verdict(failure, True)
    wordings = ((verdict, remark), (verdict, ""), (short, ""))
    for said, note in wordings:  # the summary cut first, every reason whole
        room = cap - len(_join(head, what, said, note)) - 1
        if room >= len(least):
            return _join(head, what, said, note, truncate(advice, room) if summary else advice)
    for said, note in wordings:  # then each reason cut, but readable
        fitted = each_part(what, cap - len(_join(head, said, note, least)) - 1, _LEAST_REASON)
        if fitted is not None:
            return _join(head, fitted, said, note, least)
    room = cap - len(_join(head, short, least)) - 1
    fitted = each_part(what, room)
    if fitted is None:  # no room for reasons: every argument still named
        names = _ARGUMENT_NAME.findall(what)
        listed = truncate("arguments refused: " + ", ".join(names), room - 1)
        fitted = _sentence(listed) if names else None
    return None if fitted is None else _join(head, fitted, short, least)


_ARGUMENT_NAME = re.compile(r"argument ('[^']*')")


_LEAST_REASON = 40
"""Characters of one bad argument's account that still give a reason: ``argument
'quantity' must be a valid integer…``. With less, the schema summary is cut first."""


def each_part(what: str, room: int, least: int = _LEAST_OF_WHAT) -> str | None:
    """``what``'s ``"; "``-separated parts (one per bad argument), each shortened to a
    fair share of ``room``: a short part keeps its whole length, the rest share what is
    left. ``None`` when a share would be shorter than ``least`` (or its part)."""
    parts = what.split("; ")
    lengths = [len(part) for part in parts]
    remaining = room - 2 * (len(parts) - 1)
    shares = [0] * len(parts)
    for done, i in enumerate(sorted(range(len(parts)), key=lengths.__getitem__)):
        shares[i] = min(lengths[i], remaining // (len(parts) - done))
        remaining -= shares[i]
    if any(share < min(length, least) for share, length in zip(shares, lengths, strict=True)):
        return None
    return "; ".join(truncate(part, share) for part, share in zip(parts, shares, strict=True))


IN_CONVERSATION = " in this conversation"
ON_SERVER = " on this server"
"""What an MCP server's lines say instead of ``IN_CONVERSATION``: its Session counts the
calls of every client together (the MCP protocol of mcp 2.3 keeps no session to tell one
client's conversation from another's), so "in this conversation" would be false."""


_VERDICT_OPENS = re.compile(
    r" (?:Transient[.:]|Retryable[.:]|Not transient[.:]|Not retryable[.:]|Cause not known[.:]"
    r"|Outcome unknown:|This call did not run\.|Not run\.|It is now closed:"
    r"|\S+ has failed \d+ times? )"
)


def what_failed(line: str) -> str | None:
    """What failed, as ``tool: what``, in a toolhygiene line (a sender's whole line in a
    payload with no ``reason``): its verdict and advice are the sender's, and the
    receiver's line has its own. ``None`` when ``line`` is no toolhygiene line."""
    head = _HEAD.match(line)
    if head is None:
        return None
    rest = line[head.end() :].lstrip()
    found = _VERDICT_OPENS.search(" " + rest)
    what = (rest[: found.start()] if found else rest).strip()
    return f"{head.group(1)}: {what.removesuffix('.')}" if what else head.group(1)


def on_server(text: str) -> str:
    """``text`` (a line, or a payload's message) as an MCP server's Session may say it."""
    return text.replace(IN_CONVERSATION, ON_SERVER)


def closed_line(tool: str, count: int, cap: int) -> str:
    """The notice for a call of a tool that was closed: it did not run."""
    long = (
        f"[error] {tool}: unavailable. {tool} was closed after {_failures(count)} in this "
        f"conversation; {DID_NOT_RUN}. {_GO_ON}"
    )
    if len(long) <= cap:
        return long
    return truncate(
        f"[error] {tool}: unavailable. Closed after {_failures(count)}; this call did not run. "
        "Continue without it.",
        cap,
    )


def unknown_tool(name: str, known: list[str]) -> tuple[str, str]:
    """What failed and what to do instead, for a call of a tool that does not exist."""
    listed = ", ".join(sorted(known)) or "none"
    return f"there is no tool named {name!r}", f"Call one of the tools that exist: {listed}"


def upstream_down(upstream: str, failures: int, failing_for: float, probing: bool) -> str:
    """What failed when a call is refused because its upstream's breaker is open: only
    what the shared counts know (failed calls in a row, since when), and that this call
    did not run. Not which conversations made them: the breaker keeps no such count, and
    one conversation can make them all."""
    calls = "1 call" if failures == 1 else f"{failures} calls in a row"
    known = f"{upstream} has failed {calls} over the last {seconds(failing_for)} s"
    if probing:
        return f"{known}; another call is testing whether it is back"
    return known


DID_NOT_RUN = "this call did not run"
"""Said of every call refused before it ran (a closed tool, an open upstream); only
toolhygiene says it (``_DID_NOT_RUN_ANY``)."""

_DID_NOT_RUN_ANY = re.compile(r"did not run", re.IGNORECASE)


CUT_OFF = "cut_off"
"""The head of the answer to a call of a cut turn (read back as not counted)."""


def cut_turn_line(tool: str) -> str:
    """The answer to a call of a turn the token limit cut off: it did not run (its
    arguments may be cut) and was not counted against the cap."""
    return (
        f"[error] {tool}: {CUT_OFF}. Your turn was cut off by the output token limit before "
        f"it finished, so its arguments may be incomplete; {DID_NOT_RUN} and does not count "
        f"as a failure. Call {tool} again, in full, if you still need it."
    )


UPSTREAM_OPEN = "UpstreamOpen"
"""The ``exc_type`` of a call refused by an open upstream's breaker."""


def held_line(tool: str, upstream: str, what: str, *, verdict: str, advice: str, cap: int) -> str:
    """The line for a call refused by an open upstream, at most ``cap`` characters: the
    upstream's name and that this call did not run are the last parts to go (what the
    shared counts know, the advice, the verdict go first)."""
    head = f"[error] {tool}: upstream."
    stages = (
        _join(head, f"{what};", f"{DID_NOT_RUN}.", verdict, advice),
        _join(head, f"{what};", f"{DID_NOT_RUN}.", verdict),
        _join(head, f"{_capital(upstream)} is failing;", f"{DID_NOT_RUN}.", verdict),
        _join(head, f"{_capital(upstream)} is failing;", f"{DID_NOT_RUN}."),
        _join(head, f"{_capital(DID_NOT_RUN)}."),
    )
    for line in stages[:-1]:
        if len(line) <= cap:
            return line
    room = cap - len(_join(head, f"{upstream} is failing;", f"{DID_NOT_RUN}.")) + len(upstream)
    if room >= _LEAST_OF_WHAT:
        return _join(head, f"{truncate(_capital(upstream), room)} is failing;", f"{DID_NOT_RUN}.")
    return truncate(stages[-1], cap)


def escape_result(text: str) -> str:
    """A successful result's text as toolhygiene writes it into the list: a result that
    would read as one of toolhygiene's own marks (a leading ``[error``, and
    ``[error]``, ``[error cleared]`` or ``[recovered]`` anywhere: on any line, after
    one newline or two) has its brackets made parentheses, so every mark in a list
    toolhygiene wrote is one toolhygiene put there (``Session.resume`` trusts them)."""
    if "[" not in text:  # most results: no mark can start
        return text
    if text.startswith("[error"):
        text = _OWN_START.sub(_parenthesised, text, count=1)
    if "[error" in text or "[recovered]" in text:
        text = _OWN_ANYWHERE.sub(_parenthesised, text)
    return text


_OWN_START = re.compile(r"^\[(error cleared|error|recovered)\]?")
_OWN_ANYWHERE = re.compile(r"\[(error cleared|error|recovered)\]")


def _parenthesised(found: re.Match[str]) -> str:
    return f"({found.group(1)})"


UPSTREAM_INSTEAD = "Continue without it meanwhile, or tell the user it is unavailable."
"""The advice when an upstream's breaker refuses a call."""


# -- other notices ------------------------------------------------------------------------


def empty_line(tool: str, query: str, note: str, cap: int) -> str:
    """The line for a search that ran fine and found nothing; the query is cut first."""
    note = _sentence(_capital(note or _BROADEN))
    rest = f"The search ran fine; repeating it unchanged will return nothing again. {note}"
    head = f"[empty] {tool}: nothing matched"
    room = cap - len(head) - len(rest) - 3
    if room >= 12:
        return f"{head} {truncate(query, room)}. {rest}"
    return truncate(f"{head}. {rest}", cap)


def recovered_note(counts: Mapping[str, int], *, removed: Mapping[str, int] | bool = True) -> str:
    """The note that goes beside a success: exactly which tools recovered, from how many
    failed calls, and, when errors were removed from the conversation, how many of each
    tool (``removed``: ``True`` for exactly those of this success, or the counts that
    include those held back by ``clear_at_least`` from earlier successes). Where the
    errors stay (held by the server, ``append_only``, or waiting for ``clear_at_least``)
    the note says nothing about them."""
    parts = []
    for n, (tool, count) in enumerate(sorted(counts.items())):
        calls = "call" if count == 1 else "calls"
        parts.append(
            f"{tool} succeeded after {count} failed {calls}" if n == 0 else f"{tool} after {count}"
        )
    if not removed:
        return f"[recovered] {', '.join(parts)}."
    cleared = dict(counts) if removed is True else dict(removed)
    if cleared == dict(counts):
        those = "that error was" if sum(counts.values()) == 1 else "those errors were"
        return f"[recovered] {', '.join(parts)}; {those} removed."
    total, earlier = sum(cleared.values()), sum(cleared.values()) - sum(counts.values())
    each = ", ".join(f"{tool} {n}" for tool, n in sorted(cleared.items()))
    success = "an earlier success" if earlier == 1 else "earlier successes"
    return (
        f"[recovered] {', '.join(parts)}; {total} recovered errors were removed ({each}), "
        f"{earlier} of them held back from {success}."
    )


def schema_advice(tool: str, signature: str) -> str:
    """What to do when the model's arguments do not match the tool's schema."""
    return f"{_schema_call(tool)}: {signature}"


def _schema_call(tool: str) -> str:
    return f"Call {tool} again with arguments matching its schema"


def argument_path(loc: Sequence[str | int]) -> str:
    """Where in the arguments, one style throughout: ``order.items[0].sku``."""
    path = ""
    for step in loc:
        path += f"[{step}]" if isinstance(step, int) else (f".{step}" if path else str(step))
    return path or "arguments"


def unexpected_argument(where: str, allowed: Sequence[str] | None) -> str:
    """An argument the schema does not have, with the keys allowed at its level (``None``
    when that level cannot be told). A name with a line break or another character that
    does not print is written escaped (``'\\n'``): the message stays one line."""
    if not where.isprintable():
        where = where.encode("unicode_escape").decode("ascii")
    if allowed is None:
        return f"unexpected argument '{where}'"
    return f"unexpected argument '{where}' (allowed: {', '.join(allowed) or 'none'})"


def not_finite_argument(where: str) -> str:
    """What failed when an argument holds NaN or infinity."""
    return f"argument '{where}' must be a finite number (JSON has no NaN or infinity)"


_TYPE_WORDS = {
    "integer": "a whole number",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "array": "a list",
    "object": "an object",
}


def type_words(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> str:
    """What a JSON schema accepts, in words: ``a whole number``, ``one of "a", "b"``."""
    ref = schema.get("$ref")
    if isinstance(ref, str):
        schema = defs.get(ref.rsplit("/", 1)[-1], {})
    if "enum" in schema:
        return (
            "one of "
            + ", ".join(json.dumps(v) for v in schema["enum"][:8])
            + (", …" if len(schema["enum"]) > 8 else "")
        )
    if "type" in schema:
        kind = schema["type"]
        return _TYPE_WORDS.get(str(kind), str(kind)) + _bounds(schema)
    alternatives = schema.get("anyOf") or schema.get("oneOf")
    if alternatives:
        return " or ".join(type_words(s, defs) for s in alternatives if isinstance(s, Mapping))
    if "properties" in schema:
        return "an object"
    return "a value"


def _number(value: Any) -> str:
    # A whole float reads as the int it is: pydantic versions write ``gt=0`` on a float
    # argument as ``0`` or ``0.0``, and the model reads one bound either way.
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return json.dumps(value) if isinstance(value, (int, float)) else str(value)


def _bounds(schema: Mapping[str, Any]) -> str:
    """The bounds a schema sets, in words: `` from 1 to 5``, `` above 0``, `` of at most 8
    characters``; ``""`` when it sets none (pydantic's ``Field(ge=..., le=...)``,
    ``max_length``, ``min_items``...)."""
    low, high = schema.get("minimum"), schema.get("maximum")
    above, below = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    said = []
    if low is not None and high is not None:
        said.append(f"from {_number(low)} to {_number(high)}")
    elif low is not None:
        said.append(f"of at least {_number(low)}")
    elif high is not None:
        said.append(f"of at most {_number(high)}")
    if above is not None:
        said.append(f"above {_number(above)}")
    if below is not None:
        said.append(f"below {_number(below)}")
    for least, most, unit in (
        ("minLength", "maxLength", "character"),
        ("minItems", "maxItems", "item"),
    ):
        few, many = schema.get(least), schema.get(most)
        if few is not None and many is not None:
            said.append(f"of {few} to {many} {unit}s")
        elif many is not None:
            said.append(f"of at most {many} {unit}{'' if many == 1 else 's'}")
        elif few:
            said.append(f"of at least {few} {unit}{'' if few == 1 else 's'}")
    return " " + " and ".join(said) if said else ""


def signature(parameters: Mapping[str, Any]) -> str:
    """``city: a string, days: a whole number (optional)``: a tool's arguments in words."""
    required = set(parameters.get("required", ()))
    defs = parameters.get("$defs", {})
    parts = []
    for name, schema in parameters["properties"].items():
        optional = "" if name in required else " (optional)"
        parts.append(f"{name}: {type_words(schema, defs)}{optional}")
    return ", ".join(parts) or "no arguments"


def missing_argument(where: str, expected: str) -> str:
    """A required argument the model left out, with what it takes."""
    return f"missing required argument '{where}' ({expected})"


def wrong_argument(where: str, said: str, shown: str) -> str:
    """An argument of the wrong kind: pydantic's own account of it (``Input should be a
    valid integer``) read as ``must be a valid integer``, and the value given."""
    said = said.replace("Input should be", "must be")
    return f"argument '{where}' {said[:1].lower() + said[1:]}, got {shown}"


def argument_problem(where: str, said: str) -> str:
    """An argument a schema checker refused, in the checker's words."""
    return f"argument '{where}': {said}"


def arguments_not_json(msg: str, line: int, column: int) -> str:
    """Arguments whose JSON text is broken, and where. ``msg`` is ``json``'s own message;
    some end in "at" ("Unterminated string starting at"), which the place then follows."""
    where = msg.removesuffix(" at").rstrip(": ")
    return f"the arguments are not valid JSON: {where} at line {line} column {column}"


ARGUMENTS_NOT_UTF8 = "the arguments are not valid UTF-8 JSON"


def arguments_not_object(kind: str) -> str:
    """Arguments that are JSON, but not an object."""
    return f"the arguments must be a JSON object, got {kind}"


# -- definitions ----------------------------------------------------------------------------

CONSTRAINTS = {
    "minimum": "at least {}",
    "maximum": "at most {}",
    "exclusiveMinimum": "greater than {}",
    "exclusiveMaximum": "less than {}",
    "multipleOf": "a multiple of {}",
    "minLength": "at least {} characters",
    "maxLength": "at most {} characters",
    "pattern": "matching the regular expression {}",
    "format": "in {} format",
    "minItems": "at least {} items",
    "maxItems": "at most {} items",
    "minProperties": "at least {} keys",
    "maxProperties": "at most {} keys",
    "uniqueItems": "no repeated items",
}
"""A schema keyword a strict API does not take, in the words its description carries
instead (in this order)."""


def constraint(keyword: str, value: Any) -> str | None:
    """``keyword: value`` in words, ``None`` for one that says nothing (``uniqueItems:
    false``) or is not a constraint."""
    if keyword not in CONSTRAINTS or value is False:
        return None
    said = CONSTRAINTS[keyword].format(value)
    return said[:-1] if type(value) is int and value == 1 and said.endswith("s") else said


def default_note(default: Any) -> str:
    """What ``null`` means for an optional argument of a strict schema."""
    return f"null for the default, {json.dumps(default, ensure_ascii=False, default=str)}"


# -- success --------------------------------------------------------------------------------


def not_json(error: UnserializableError) -> str:
    """Why a result cannot reach the model: what it holds, and where."""
    at = f" at {error.path}" if error.path else ""
    return {
        "non_finite": f"the result holds {error.detail}{at}, which JSON cannot carry",
        "refers_to_itself": f"the result refers to itself{at}",
        "no_json_form": f"the result holds a value of type {error.detail}{at}, which has no "
        "JSON form",
        "bad_key": f"the result has a {error.detail} key{at}, which JSON cannot carry",
        "not_awaited": f"the result holds {pending_words(error.detail)}{at}: work never awaited or "
        "collected, so its result is not here",
    }[error.problem]


def pending_kind(value: Any) -> str | None:
    """What ``value`` is, in words, when it is work still to be done, awaited or collected
    (``_results.pending``: the one list, for results and hooks); ``None`` for anything
    else."""
    found = pending(value)
    return None if found is None else pending_words(found)


def pending_words(found: str) -> str:
    """``_results.pending``'s name for a kind of pending work, in words."""
    kind, _, name = found.partition(":")
    return {
        "coroutine": "a coroutine",
        "generator": "a generator",
        "async_generator": "an async generator",
        "async_function": "an async function (never called)",
        "concurrent_future": "a concurrent.futures Future",
        "thread": "a Thread",
        "asyncio": f"an asyncio {name}",
    }.get(kind, f"an awaitable ({name})")


def not_awaited(tool: str, kind: str) -> str:
    """The developer's message (a ``UsageError``, to the log) for a tool that returned an
    awaitable, a Future, a generator or a Thread instead of its result."""
    return (
        f"{tool} returned {kind} instead of its result: await it (make {tool} async), "
        "collect it (.result(), .join(), iterate it) or call it inside the tool, and return "
        "what it gives"
    )


def content_of(value: Any, tool: str, *, redact_bytes: bool = True) -> str:
    """The text the model sees for a tool's successful return value: a str as it is, an
    ``Empty`` as its line, anything else as JSON (``_results.to_json``, the same for every
    format; ``redact_bytes=False``: binary bytes as returned, for ``redact_results=False``).

    Raises:
        ToolError: the value has no faithful JSON form (NaN, infinity, an object JSON
            cannot carry); the message says where, so the failure line is true.
    """
    if isinstance(value, str):
        return value
    if type(value) is not dict and type(value) is not list:  # most results: no import
        from toolhygiene._errors import Empty  # errors imports this module

        if isinstance(value, Empty):
            return value.for_model(tool)
    try:
        return to_json(value, redact_bytes=redact_bytes)
    except UnserializableError as exc:
        from toolhygiene._errors import Category, ToolError

        cause: Exception = exc
        instead = f"Tell the user that {tool} returned a result that cannot be shown"
        if exc.problem == "not_awaited":
            from toolhygiene._exceptions import UsageError

            if isinstance(value, (types.CoroutineType, types.GeneratorType)):
                value.close()  # never run: no "never awaited" warning at collection
            cause = UsageError(not_awaited(tool, pending_words(exc.detail)))
            cause.__cause__ = exc
            instead = f"Tell the user that {tool} did not do its work"
        raise ToolError(
            f"{tool} ran, but {not_json(exc)}",
            retryable=False,
            category=Category.UNKNOWN,
            instead=instead,
        ) from cause


def result_cut(
    tool: str,
    shown: int,
    total: int,
    *,
    verbatim: bool = True,
    redacted: bool = False,
    arguments: bool = True,
) -> str:
    """The last line of a successful result cut to the result cap: how much is shown, and
    how to ask for less. ``shown`` counts the characters above the marker, ``total`` those
    of the whole result as the tool returned it; ``verbatim`` when what is shown is the
    result's own first ``shown`` characters (else secrets in it were replaced, markup
    defused or escape codes removed, so the two counts measure different texts and the
    marker says so); ``redacted`` only when secrets were in fact replaced; ``arguments``
    whether the tool has any argument at all (without one, no call asks for less: the
    marker says the rest cannot be had through the tool, never advice it cannot follow)."""
    if verbatim:
        said = f"the first {shown:,} of {total:,} characters are shown above"
    else:
        why = " (secrets redacted)" if redacted else ""
        said = (
            f"only its start is shown above: {shown:,} characters as cleaned{why}, of "
            f"{total:,} in the result as returned"
        )
    if not arguments:
        return (
            f"\n[result cut: {said}. {tool} has no arguments, so no call to it can ask "
            "for less: the rest cannot be seen through it.]"
        )
    # A page cursor may be among the redacted values: the model cannot send it back.
    unseen = "; a redacted value cannot be sent back" if redacted else ""
    return (
        f"\n[result cut: {said}. "
        f"To see the rest, call {tool} again asking for less at a time, if its arguments "
        f"allow (a narrower query, a filter, fewer fields or the next page{unseen}).]"
    )


def timed_out(tool: str, limit: float, *, started: bool, still_running: bool) -> str:
    """What failed when an attempt passed its deadline: never started, still running (it
    may yet take effect), or stopped."""
    if not started:
        return f"{tool} could not start within {seconds(limit)} s and was not run"
    if still_running:
        return f"{tool} did not finish within {seconds(limit)} s and is still running"
    return f"{tool} did not finish within {seconds(limit)} s"


def still_running(
    tool: str, going: int, *, idempotent: bool, reason: str = "stuck"
) -> tuple[str, str]:
    """What failed and what to do instead, when a call was refused, not started, because
    earlier runs are still going: runs given up on (``stuck``), or the most runs in
    flight at once of the tool (``tool``) or of the conversation (``session``)."""
    if reason == "session":
        return (
            f"{going} tool calls of this conversation are still running, the most allowed at once",
            f"Wait for earlier calls to finish before calling {tool} again",
        )
    if reason == "tool":
        return (
            f"{going} calls of {tool} are still running, the most allowed at once",
            f"Wait for them to finish before calling {tool} again",
        )
    if idempotent:
        calls = "1 earlier call" if going == 1 else f"{going} earlier calls"
        verb = "is" if going == 1 else "are"
        return (
            f"{calls} of {tool} timed out and {verb} still running",
            f"Do not call {tool} again until they finish; continue without it meanwhile",
        )
    return (
        (f"the last call of {tool} timed out and may still be running; it may have taken effect"),
        (
            f"Check whether the last call took effect before calling {tool} again; do not "
            "call it again while it may still be running"
        ),
    )


def unrenderable(tool: str, exc_type: str) -> tuple[str, str]:
    """What failed and what to do instead, when a tool ran but its result could not be
    made text."""
    return (
        f"{tool} ran, but its result could not be turned into text ({exc_type})",
        f"Do not call {tool} the same way again; tell the user what failed",
    )


def unreadable(exc_type: str) -> str:
    """What failed, when the exception was too hostile to classify."""
    return f"it raised {exc_type}, which could not be read"


# -- what failed, in words of its own ------------------------------------------------------


def os_error_text(strerror: str, filename: str | None) -> str:
    """An ``OSError`` without its number: ``No such file or directory: 'x'``."""
    return strerror if filename is None else f"{strerror}: {filename}"


def message_unreadable(exc_type: str) -> str:
    """What failed, when the exception's message could not be read."""
    return f"{exc_type} (its message could not be read)"


def group_failures(count: int, first: str, other: str) -> str:
    """What failed, for an exception group whose members are not all transient: the count,
    the first member that is not, then a transient one (neither text is dropped)."""
    return f"{count} failures: first {first.rstrip('.')}; also {other}"


def no_message(exc_type: str) -> str:
    """What failed, when the exception said nothing."""
    return f"{exc_type} with no message"


def no_such_key(key: str) -> str:
    """What failed, for a ``KeyError`` (its text is the key, quoted)."""
    return f"no such key: {key}"


def http_answer(reason: str, request: str | None, detail: str | None) -> str:
    """What failed when a service answered with an HTTP error: the status and its reason,
    the request (method and public host) when known, and the API's own message."""
    text = f"the service answered HTTP {reason}"
    if request:
        text += f" to {request}"
    return f"{text}: {detail}" if detail else text


def cancelled(tool: str) -> str:
    """What failed when a subagent was cancelled (by itself) before it answered."""
    return f"{tool} was cancelled before it answered"


def reported_without_text(tool: str) -> str:
    """What failed when an MCP tool reported an error and said nothing."""
    return f"the MCP tool {tool} reported an error without any text"


# -- a subagent's gap ---------------------------------------------------------------------

_TAIL_ROOM = 90
"""Characters of a gap line kept for what to try, and for what was salvaged, when the
account is long."""
_LEAST_TAIL = 12
"""Fewer characters than this of what to try or was salvaged are not shown."""
_SALVAGE_KEPT = "Something was salvaged (see .salvaged)."
UNSAID = "it failed"
"""What a subagent's failure said, when its payload said nothing."""


def gap_line(
    name: str, query: str, said: str, tried: list[str], salvaged: str | None, *, cap: int
) -> str:
    """One line for the coordinator about a subagent that failed: its ``name``, the
    ``query`` it was given, what it ``said`` (its line, without the ``[error]`` mark),
    the alternatives it named (``tried``) and what it ``salvaged``; every part already
    redacted; at most ``cap`` characters. A long account is cut before the alternatives
    and the salvage lose their room."""
    head = f"[gap] {name} {query}:"
    account = said
    if tried:  # said apart below, where a long account cannot cut them off
        cut = account.rfind(" Alternatives: ")
        account = account[:cut] if cut > 0 else account
    account += "" if account.endswith((".", "!", "?", "…")) else "."
    salvage = "Nothing was salvaged." if salvaged is None else f"Salvaged: {salvaged}."
    tails = [f"Alternatives: {'; '.join(tried)}." if tried else "", salvage]
    room = cap - len(head)  # each part after the head: a space and its text
    kept = sum(min(len(t), _TAIL_ROOM) + 1 for t in tails if t)
    parts = [head, truncate(account, max(room - 1 - kept, room // 3))]
    left = room - 1 - len(parts[1])
    alternatives = tails[0]
    if alternatives:
        share = left - 1 - min(len(salvage), len(_SALVAGE_KEPT))
        if share >= _LEAST_TAIL:
            parts.append(truncate(alternatives, share - 1))
            left -= len(parts[-1]) + 1
    if len(salvage) + 1 <= left:
        parts.append(salvage)
    elif salvage.startswith("Salvaged: ") and left - 1 >= _LEAST_TAIL + len("Salvaged: "):
        parts.append(truncate(salvage, left - 1))
    else:
        parts.append(_SALVAGE_KEPT if salvaged is not None else "")
    return " ".join(p for p in parts if p)[:cap]


# -- reading the words back (resume from a message list) ----------------------------------

_HEAD = re.compile(r"\[error\] (.+?): ([a-z_]+)\.")
_NOTE = re.compile(r"\[recovered\] ([^;]*?)(?:;|\.?$)")
# The first tool of a note: "lookup succeeded after 2 failed calls"; the others: "search after 1".
_NOTE_PART = re.compile(r"^(\S+) (?:succeeded after (\d+) failed calls?|after (\d+))$")
_CLOSES = (" and is now closed: do not call it again.", "It is now closed: do not call it again.")


@dataclasses.dataclass(frozen=True, slots=True)
class Read:
    """What a result the model saw proves, read back from its words.

    ``kind``: ``"ok"`` (a success, an ``Empty`` line included), ``"stub"`` (a cleared
    error), ``"unknown"`` (a call with no result: proves nothing), ``"refused"`` (a
    closed tool's notice: the call did not run), ``"held"`` (an open upstream's refusal,
    or a call of a turn cut by the token limit: the call did not run, nothing was
    counted), ``"failed"``; ``category`` the failure's
    category as written; ``closes``: the line says the tool is now closed;
    ``uncertain``: the line says the call may have taken effect.
    """

    kind: str
    category: str = ""
    closes: bool = False
    uncertain: bool = False


def read_result(text: str, is_error: bool | None) -> Read:
    """What a tool result in a message list proves. ``is_error`` is the API's own flag
    where it has one (Anthropic), else ``None`` and the line's prefix decides."""
    if text == STUB:
        return Read("stub")
    head = _HEAD.match(text)
    if is_error is False or head is None:
        return Read("ok")
    category = head.group(2)
    if category == "unavailable":
        return Read("refused", category)
    rest = text[head.end() :]
    if category in ("upstream", CUT_OFF) and _DID_NOT_RUN_ANY.search(rest):
        return Read("held", category)
    return Read(
        "failed",
        category,
        closes=any(c in rest for c in _CLOSES),
        uncertain=_UNKNOWN[:17] in rest,
    )


def read_note(text: str) -> dict[str, int]:
    """How many failed calls of each tool a ``[recovered]`` note says recovered (empty
    when ``text`` is no note)."""
    found = _NOTE.match(text.strip())
    if found is None:
        return {}
    counts: dict[str, int] = {}
    for part in found.group(1).split(", "):
        match = _NOTE_PART.match(part.strip())
        if match is not None:
            counts[match.group(1)] = int(match.group(2) or match.group(3))
    return counts


def split_note(text: str) -> tuple[str, str]:
    """A result's own text and the ``[recovered]`` note riding on its own line after it
    (OpenAI formats), or ``(text, "")``."""
    at = text.rfind("\n\n[recovered] ")
    return (text[:at], text[at + 2 :]) if at >= 0 else (text, "")
