"""Tails are reported: from stats() and from JSON-lines logs written by real structlog."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
import structlog

import toolhygiene as th
from toolhygiene.cli import main


@th.tool
def get_order(order_id: str) -> str:
    if order_id != "ORD-9":
        raise th.ToolError(f"no order {order_id}", retryable=False, category="not_found")
    return "found"


@th.tool
def ping() -> str:
    return "pong"


def conversation() -> th.Session:
    """Two errors of the same kind before a success (tails 2 and 1), one that is stopped."""
    session = th.Session([get_order, ping], max_failures=10)
    session.call("get_order", {"order_id": "ORD-1"})
    session.call("get_order", {"order_id": "ORD-2"})
    session.call("get_order", {"order_id": "ORD-9"})
    session.call("nope")
    session.close()
    return session


def test_rank_from_stats() -> None:
    ranked = th.rank(conversation().stats()["tails"])
    assert [(r.tool, r.seen, r.mean_tail, r.max_tail, r.stopped) for r in ranked] == [
        ("get_order", 2, 1.5, 2, 0), ("nope", 1, 0.0, 0, 1)]
    assert ranked[0].line.startswith("[error] get_order: not_found.")


@pytest.fixture
def json_log(tmp_path: Path) -> Path:
    path = tmp_path / "agent.log"
    with path.open("w") as handle:
        structlog.configure(processors=[structlog.processors.JSONRenderer()],
                            logger_factory=structlog.WriteLoggerFactory(file=handle))
        try:
            conversation()
            handle.write("plain text line\n{not json\n")
        finally:
            structlog.reset_defaults()
    return path


def test_cli_ranks_errors_from_json_logs(json_log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(json_log)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["mean", "tail", "max", "seen", "stopped", "tool:", "line"]
    assert out[1].split()[:4] == ["1.5", "2", "2", "0"]
    assert "get_order: [error] get_order: not_found." in out[1]


def test_cli_runs_as_a_module_from_stdin(json_log: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "toolhygiene", "report", "-"],
                          input=json_log.read_text(), capture_output=True, text=True, check=True)
    assert "get_order" in done.stdout


def test_cli_missing_file_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "/nonexistent/agent.log"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read /nonexistent/agent.log" in err


def test_read_tails_skips_everything_else() -> None:
    stream = io.StringIO("\n".join([
        json.dumps({"event": "tool.failed", "tool": "x"}),
        json.dumps({"event": "error.stopped", "tool": "x", "fingerprint": "f", "tail": 3}),
        "[1, 2]", "garbage",
    ]))
    assert [r["tail"] for r in th.report.read_tails(stream)] == [3]
