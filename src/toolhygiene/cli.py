"""``toolhygiene report LOG...``: rank the errors in JSON-lines logs by their tails."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from toolhygiene.report import rank, read_tails

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="toolhygiene",
        description="Rank tool errors by their tails: the messages to rewrite first.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    report = commands.add_parser("report", help="rank errors found in JSON-lines logs")
    report.add_argument("logs", nargs="+", help="log files ('-' for standard input)")
    report.add_argument("--top", type=int, default=20, help="how many rows (default 20)")
    args = parser.parse_args(argv)

    records: list[dict[str, Any]] = []
    for name in args.logs:
        try:
            if name == "-":
                records.extend(read_tails(sys.stdin))
            else:
                with open(name, encoding="utf-8", errors="replace") as stream:
                    records.extend(read_tails(stream))
        except OSError as exc:
            print(f"toolhygiene: cannot read {name}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    ranked = rank(records)
    if not ranked:
        print("no error.recovered or error.stopped events found")
        return 0
    print(f"{'mean tail':>9} {'max':>4} {'seen':>5} {'stopped':>7}  tool: line")
    for row in ranked[: args.top]:
        print(
            f"{row.mean_tail:>9.1f} {row.max_tail:>4} {row.seen:>5} {row.stopped:>7}  "
            f"{row.tool}: {row.line}"
        )
    return 0
