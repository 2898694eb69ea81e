"""``toolhygiene report LOG...``: rank the errors in JSON-lines logs by their tails
(``toolhygiene --version``: the version installed).

Logs are untrusted text: what is printed is folded to one line per row, stripped of
whole terminal escape sequences and control characters, and valid UTF-8; a line the
command cannot use is skipped and counted by reason, never a crash.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import Any

from toolhygiene import __version__, _surface
from toolhygiene._redact import fold
from toolhygiene._report import Skipped, rank, read_tails
from toolhygiene._text import truncate, valid

__all__ = ["main"]


# Whole ECMA-48 sequences, 7-bit and 8-bit, so that no part of one is left to print
# ("[2J" after its ESC): control strings (OSC titles and hyperlinks, DCS, SOS, PM, APC)
# to their terminator or, unterminated, to the next ESC or the end; CSI with its
# parameters, intermediates and final byte; any other escape with its intermediates and
# final byte. Nothing here is a secret's detector, so eating a letter after a broken
# sequence loses nothing a reader needs.
_SEQUENCES = re.compile(
    r"(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?"
)


def _shown(value: Any, cap: int = 400) -> str:
    """Text from a log, safe to print on a terminal: valid UTF-8, no escape sequence or
    control character, one line of at most ``cap`` characters."""
    return truncate(fold(_SEQUENCES.sub("", valid(str(value)))), cap)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{_shown(text, 40)!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _lines(count: int) -> str:
    return "1 line" if count == 1 else f"{count:,} lines"


def _skipped(skipped: Skipped) -> str:
    """``skipped 3 lines: 2 lines not JSON objects, 1 line longer than 1 MiB``."""
    reasons = (
        (skipped.not_objects, "not JSON objects"),
        (skipped.unreadable, "not readable as JSON (broken, or nested too deep)"),
        (skipped.too_long, "longer than 1 MiB"),
        (skipped.bad_tails, "tail events whose tail is not a whole number"),
    )
    parts = ", ".join(f"{_lines(count)} {reason}" for count, reason in reasons if count)
    return f"skipped {_lines(skipped.total)}: {parts}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="toolhygiene",
        description="Rank tool errors by their tails: the messages to rewrite first.",
    )
    parser.add_argument("--version", action="version", version=f"toolhygiene {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    report = commands.add_parser("report", help="rank errors found in JSON-lines logs")
    report.add_argument("logs", nargs="+", help="log files ('-' for standard input)")
    report.add_argument("--top", type=_positive, default=20, help="how many rows (default 20)")
    args = parser.parse_args(argv)

    records: list[dict[str, Any]] = []
    skipped = Skipped()
    for name in args.logs:
        try:
            if name == "-":
                records.extend(read_tails(sys.stdin, skipped))
            else:
                with open(name, encoding="utf-8", errors="replace") as stream:
                    records.extend(read_tails(stream, skipped))
        except (OSError, UnicodeError) as exc:
            reason = getattr(exc, "strerror", None) or exc
            print(f"toolhygiene: cannot read {_shown(name)}: {_shown(reason)}", file=sys.stderr)
            return 2
    if skipped:
        print(f"toolhygiene: {_skipped(skipped)}", file=sys.stderr)
    ranked = rank(records)
    if not ranked:
        print("no error.recovered or error.stopped events found")
        return 0
    print(f"{'mean tail':>9} {'max':>4} {'seen':>5} {'stopped':>7}  tool: line")
    for row in ranked[: args.top]:
        print(
            f"{row.mean_tail:>9.1f} {row.max_tail:>4} {row.seen:>5} {row.stopped:>7}  "
            f"{_shown(row.tool, 64)}: {_shown(row.line)}"
        )
    return 0


__dir__ = _surface.public_dir(__name__)
"""``__all__`` and the dunders: the names imported to build this module stay usable
here but are not its surface (``dir()``, completion)."""
