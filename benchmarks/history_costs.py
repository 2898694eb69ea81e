"""What clearing a recovered error saves, and what it costs in re-sent prefix.

One conversation, played through ``Session.handle`` with model turns as dicts: 20 rounds
of a tool whose answers are ~2,000 characters, one call failing at round 3 and recovering
at round 4, then 16 more rounds. For each way of holding it:

- client, cleared at once (the default): the characters removed from every later request,
  and the characters after the first cleared item, which the next request sends with a
  changed prefix (a cache write instead of a cache read);
- server-held with a mirror: the characters the server keeps sending (``server.saved``)
  and the characters a re-seed sends again (the whole mirror, uncached).

Then the break-even: how many later requests pay back the rewrite at prompt-cache prices
(a cached read at 0.1x the input price, a cache write at 1.25x: the figures both
providers publish for their 5-minute caches). Characters are counted as JSON of the list.
"""

from __future__ import annotations

import json
from typing import Any

import toolhygiene as th
from toolhygiene._turns import TURNS

READ, WRITE = 0.10, 1.25
ROUNDS, FAIL_AT = 20, 3


def tools() -> list[th.Tool[Any, Any]]:
    runs = [0]

    @th.tool(retries=0)
    def report(section: int) -> str:
        """A section of a report."""
        runs[0] += 1
        if runs[0] == FAIL_AT:
            raise th.ToolError("the report service timed out after 30 s", retryable=False,
                               category="upstream")
        return f"section {section}: " + "lorem ipsum dolor sit amet " * 72

    return [report]


def size(items: list[Any]) -> int:
    return len(json.dumps(items))


def play(fmt: str, clearing: str) -> tuple[list[Any], int]:
    """The final list, and the characters after the edit point in the request that
    followed the clearing (0 when nothing was cleared)."""
    session = th.Session(tools(), clearing=clearing)  # type: ignore[arg-type]
    messages: list[Any] = [{"role": "user", "content": "Summarise the report."}]
    rewritten = 0
    for n in range(1, ROUNDS + 1):
        length = len(messages)
        session.handle(TURNS[fmt]([("report", {"section": n})]), messages)
        if n == FAIL_AT:
            failed_at = length  # the failed round starts here
        if n == FAIL_AT + 1:
            rewritten = size(messages[failed_at:])
    return messages, rewritten


def client_mode(fmt: str) -> tuple[int, int]:
    """(characters saved per later request, characters re-written once)."""
    kept, _ = play(fmt, "append_only")
    cleared, rewritten = play(fmt, "remove")
    return size(kept) - size(cleared), rewritten


def held(fmt: str, clearing: str) -> list[Any]:
    """The mirror of a server-held conversation (``append_only``: what the server holds)."""
    session = th.Session(tools(), history="server", clearing=clearing)  # type: ignore[arg-type]
    mirror: list[Any] = [{"role": "user", "content": "Summarise the report."}]
    for n in range(1, ROUNDS + 1):
        session.handle(TURNS[fmt]([("report", {"section": n})]), [], mirror=mirror)
    return mirror


def server_mode(fmt: str) -> tuple[int, int]:
    """(characters the server keeps and the mirror dropped, characters a re-seed sends)."""
    mirror = held(fmt, "remove")
    return size(held(fmt, "append_only")) - size(mirror), size(mirror)


def main() -> None:
    import structlog

    structlog.configure(logger_factory=structlog.ReturnLoggerFactory())  # no log lines
    print(f"{ROUNDS} rounds of ~2,000-character results; one error at round {FAIL_AT}, "
          "recovered at the next round")
    print(f"{'format':<18}{'mode':<10}{'saved/request':>14}{'re-sent once':>14}"
          f"{'break-even requests':>21}")
    for fmt in ("anthropic", "openai_chat", "openai_responses"):
        rows = [("client", *client_mode(fmt))]
        if fmt != "openai_chat":
            rows.append(("server", *server_mode(fmt)))
        for mode, saved, resent in rows:
            # A rewrite turns `resent` characters from cached reads into a cache write once;
            # each later request reads `saved` fewer cached characters.
            extra = resent * (WRITE - READ)
            breakeven = extra / (saved * READ) if saved else float("inf")
            print(f"{fmt:<18}{mode:<10}{saved:>14,}{resent:>14,}{breakeven:>21.0f}")


if __name__ == "__main__":
    main()
