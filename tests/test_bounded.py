"""Everything a conversation keeps, and everything read from an exception, is bounded:
the log's traceback, unknown tool names, unique failures, pending errors and tails; the
counts caps depend on are never lost. The report command survives hostile logs."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import toolhygiene as th
from helpers import encodes

# Private imports: internal units by design: the ledger's, log's and report's own bounds (no public knob).
from toolhygiene import _ledger as ledger
from toolhygiene._log import FIELD_CAP, TRACEBACK_EXCEPTIONS, traceback_text
from toolhygiene._report import MAX_LINE, Skipped, read_tails
from toolhygiene.cli import main


def _chain(depth: int) -> BaseException:
    exc: BaseException = RuntimeError("root")
    for i in range(depth):
        outer = RuntimeError(f"level {i}")
        outer.__cause__ = exc
        exc = outer
    return exc


def test_log_traceback_of_a_10_mb_message_is_capped() -> None:
    @th.tool(retries=0)
    def huge() -> None:
        raise RuntimeError("x" * 10_000_000)

    with th.testing.capture() as seen:
        outcome = th.Session([huge]).call("huge")
    event = seen.named("tool.failed")[0]
    assert len(event["exception"]) <= FIELD_CAP
    assert "Traceback (most recent call last)" in event["exception"]
    assert len(outcome.content) <= 300


def test_log_traceback_of_a_100_000_deep_chain_shows_its_head() -> None:
    text = traceback_text(_chain(100_000))
    assert text.count("Traceback (most recent call last)") == TRACEBACK_EXCEPTIONS
    assert "the chain was cut: it is more than 1,000 exceptions deep" in text
    assert len(text) <= FIELD_CAP


def test_log_traceback_of_deep_recursion_keeps_both_ends() -> None:
    def recurse(n: int) -> None:
        if n == 0:
            raise ValueError("bottom")
        recurse(n - 1)

    try:
        recurse(500)
    except ValueError as exc:
        text = traceback_text(exc)
    assert "frames not shown" in text and "ValueError: bottom" in text


def test_unknown_tool_names_share_one_entry_beyond_the_ceiling() -> None:
    session = th.Session([])
    names = ledger.UNKNOWN_NAMES + 500
    for n in range(names):
        session.call(f"tool_{n}")
    failures = session.stats()["failures"]
    assert len(failures) == ledger.UNKNOWN_NAMES + 1
    assert failures[ledger.OTHER_UNKNOWN] == 500 and sum(failures.values()) == names


def test_unique_failures_beyond_the_ceilings_keep_the_counts_caps_use() -> None:
    @th.tool(retries=0)
    def vary(word: str) -> None:
        raise th.ToolError(f"rejected {word}", retryable=False)

    total = ledger.FINGERPRINTS + 200
    session = th.Session([vary], max_failures=10**9)
    words = ["".join(chr(97 + (n >> (5 * k)) % 26) for k in range(4)) for n in range(total)]
    for word in words:
        session.call("vary", {"word": word})
    stats = session.stats()
    assert stats["failures"] == {"vary": total}
    assert stats["pending"] == total
    assert len(session._ledger._repeats) <= ledger.FINGERPRINTS
    session.close()
    stats = session.stats()
    assert len(stats["tails"]) <= ledger.TAILS and stats["tails_total"] == ledger.PENDING


def test_a_cap_still_closes_after_the_fingerprints_ceiling() -> None:
    @th.tool(retries=0)
    def vary(word: str) -> None:
        raise th.ToolError(f"rejected {word}", retryable=False)

    cap = ledger.FINGERPRINTS + 3
    session = th.Session([vary], max_failures=cap)
    for n in range(cap):
        session.call("vary", {"word": "w" + "".join(chr(97 + (n >> (5 * k)) % 26)
                                                    for k in range(4))})
    assert session.stats()["closed"] == ["vary"]


def _log(tmp_path: Path, *lines: str) -> str:
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    return str(path)


TAIL = {"event": "error.recovered", "tool": "get_order", "fingerprint": "f", "tail": 3,
        "line": "[error] get_order: not_found."}


def test_report_survives_a_100_000_deep_json_line(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    deep = '{"a":' * 100_000 + "1" + "}" * 100_000
    assert main(["report", _log(tmp_path, deep, json.dumps(TAIL))]) == 0
    out, err = capsys.readouterr()
    assert "get_order" in out
    assert "skipped 1 line: 1 line not readable as JSON (broken, or nested too deep)" in err


def test_report_prints_no_terminal_escapes(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    hostile = dict(TAIL, tool="get\x1b[2J_order", line="a\x1b]0;pwned\x07 b\r\nc \ud800")
    assert main(["report", _log(tmp_path, json.dumps(hostile))]) == 0
    out, _ = capsys.readouterr()
    assert "\x1b" not in out and "\x07" not in out and "\r" not in out
    assert "[2J" not in out and "pwned" not in out and "get_order" in out
    assert encodes(out)


def test_report_skips_a_line_longer_than_its_limit() -> None:
    skipped = Skipped()
    stream = io.StringIO("{" + "x" * (MAX_LINE * 2) + "\n" + json.dumps(TAIL) + "\n")
    assert len(list(read_tails(stream, skipped))) == 1 and skipped.too_long == 1


@pytest.mark.parametrize("top", ["0", "-3", "many", "\x1b[2J"])
def test_report_rejects_a_bad_top_with_a_clear_message(
        top: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["report", _log(tmp_path, json.dumps(TAIL)), f"--top={top}"])
    assert stop.value.code == 2
    _, err = capsys.readouterr()
    assert "--top" in err and "\x1b" not in err


def test_report_of_a_missing_file_names_it_safely(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "/nonexistent/\x1b[2Jlog"]) == 2
    _, err = capsys.readouterr()
    assert "cannot read" in err and "\x1b" not in err


def test_report_ranks_odd_field_types(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    odd: dict[str, Any] = dict(TAIL, tool={"nested": [1, 2]}, line=None)
    assert main(["report", _log(tmp_path, json.dumps(odd))]) == 0
    assert "nested" in capsys.readouterr().out
