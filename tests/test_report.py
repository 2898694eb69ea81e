"""Tails are reported: from stats() and from JSON-lines logs written by real structlog."""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import structlog
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import encodes, examples

# Private imports, by design (internal units under test): the report's reading limits and the folding it shares with redaction.
from toolhygiene._redact import fold
from toolhygiene._report import MAX_TAIL, TAIL_EVENTS, Skipped, read_tails
from toolhygiene.cli import _shown, main


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


def test_cli_prints_its_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"toolhygiene {th.__version__}\n"


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
        "[1, 2]", "garbage", "", "  ", '{"event": ["error.stopped"]}', "{broken",
        json.dumps({"event": "error.recovered", "tool": "x", "fingerprint": "f", "tail": True}),
        json.dumps({"event": "error.recovered", "tool": "x", "fingerprint": "f", "tail": -1}),
        json.dumps({"event": "error.recovered", "tool": "x", "fingerprint": "f", "tail": 2.0}),
        json.dumps({"event": "error.recovered", "tool": "x", "tail": MAX_TAIL + 1}),
    ]))
    skipped = Skipped()
    assert [r["tail"] for r in read_tails(stream, skipped)] == [3]
    assert skipped == Skipped(too_long=0, not_objects=2, unreadable=1, bad_tails=4)


def test_a_bool_is_not_a_tail() -> None:
    records = [{"tool": "x", "fingerprint": "f", "tail": value} for value in (True, False, 4)]
    assert [(r.seen, r.mean_tail) for r in th.rank(records)] == [(1, 4.0)]


def test_cli_says_what_it_skipped_and_why(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mixed.log"
    tail = {"event": "error.recovered", "tool": "x", "fingerprint": "f", "line": "l"}
    path.write_text("\n".join([
        "INFO starting", "[1]", json.dumps(dict(tail, tail=True)), json.dumps(dict(tail, tail=2)),
    ]) + "\n")
    assert main(["report", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == ("toolhygiene: skipped 3 lines: 2 lines not JSON objects, 1 line tail "
                   "events whose tail is not a whole number\n")
    assert out.splitlines()[1].split()[:4] == ["2.0", "2", "1", "0"]


# -- hostile logs ---------------------------------------------------------------------

_CSI = st.builds(
    lambda start, params, middle, final: start + params + middle + final,
    st.sampled_from(["\x1b[", "\x9b"]), st.text("0123456789;:<=>?", max_size=8),
    st.text(" !\"#$%&'()*+,-./", max_size=2), st.characters(min_codepoint=0x40, max_codepoint=0x7E),
)
_STRING = st.builds(
    lambda start, body, end: start + body + end,
    st.sampled_from(["\x1b]", "\x9d", "\x1bP", "\x90", "\x1bX", "\x1b^", "\x1b_"]),
    st.text(st.characters(exclude_characters="\x07\x1b\x9c", exclude_categories=["Cs"]),
            max_size=20),
    st.sampled_from(["\x07", "\x1b\\", "\x9c"]),
)
_ESCAPE = st.builds(
    lambda middle, final: "\x1b" + middle + final,
    st.text(" !\"#$%&'()*+,-./", max_size=2),
    st.characters(min_codepoint=0x30, max_codepoint=0x7E).filter(lambda c: c not in "[]PX^_"),
)
SEQUENCES = st.one_of(_CSI, _STRING, _ESCAPE)
WORDS = st.text("abcXYZ019 _-:.", max_size=12)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(WORDS, SEQUENCES), max_size=8), WORDS)
def test_whole_sequences_are_removed_and_nothing_else(pieces: list[tuple[str, str]],
                                                       last: str) -> None:
    """Words with any well-formed terminal sequence between them (CSI, OSC/DCS/APC strings
    with any terminator, other escapes; 7-bit and 8-bit) print as the words alone: no
    "[2J" left behind, no letter of the words eaten."""
    text = "".join(word + sequence for word, sequence in pieces) + last
    words = "".join(word for word, _ in pieces) + last
    assert _shown(text, 10_000) == fold(words)


HOSTILE = st.lists(st.one_of(
    st.text(st.characters(exclude_categories=[]), max_size=20),
    SEQUENCES,
    st.sampled_from(["\x1b", "\x1b]0;unterminated", "\x9b", "\ud800", "\r", "\x00", "\u202e",
                     "\u2028", "\ufeff", "{", "}", "\\x1b[2J", "\t"]),
), max_size=5).map("".join)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | HOSTILE,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(HOSTILE, inner, max_size=3),
    max_leaves=8,
)
FIELDS = st.dictionaries(st.sampled_from(["tool", "fingerprint", "line", "category", "outcome"]),
                         JSON | HOSTILE)
NOT_A_COUNT = st.one_of(
    st.booleans(), st.none(), st.integers(max_value=-1), st.integers(min_value=MAX_TAIL + 1),
    st.floats(), HOSTILE, st.lists(st.integers(), max_size=2),
)


def _dumped(record: dict[str, Any], ascii_only: bool) -> str:
    return json.dumps(record, ensure_ascii=ascii_only)


def _line(kind: str, draw: Any) -> str:
    ascii_only = draw(st.booleans())
    if kind == "tail":
        record = dict(draw(FIELDS), event=draw(st.sampled_from(sorted(TAIL_EVENTS))),
                      tail=draw(st.integers(0, MAX_TAIL)))
        return _dumped(record, ascii_only)
    if kind == "bad_tail":
        record = dict(draw(FIELDS), event=draw(st.sampled_from(sorted(TAIL_EVENTS))),
                      tail=draw(NOT_A_COUNT))
        return _dumped(record, ascii_only)
    if kind == "other":
        event = draw((JSON | HOSTILE).filter(lambda e: not (isinstance(e, str) and e in TAIL_EVENTS)))
        return _dumped(dict(draw(FIELDS), event=event, tail=draw(JSON)), ascii_only)
    if kind == "text":
        text: str = draw(HOSTILE.filter(lambda t: "\n" not in t and "\r" not in t).filter(
            lambda t: (b := t.strip().lstrip("\ufeff")) != "" and not b.startswith("{")))
        return text
    depth = draw(st.sampled_from([1, 2, 3_000]))  # broken, or nested past the parser
    rest: str = draw(HOSTILE.filter(lambda t: "\n" not in t and "\r" not in t and "}" not in t))
    broken: str = '{"a":' * depth + rest
    return broken


KINDS = ["tail", "bad_tail", "other", "text", "broken"]
CONTROLS = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


@settings(max_examples=examples(150), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(KINDS), max_size=12), st.integers(1, 5), st.data())
def test_hostile_logs_never_crash_the_report(kinds: list[str], top: int,
                                             data: st.DataObject) -> None:
    """Any mix of tail events (hostile strings, any JSON in any field), tail events whose
    tail is not a count, other events, text lines with raw escapes and lone surrogates,
    broken and too-deep JSON: every line is used or counted as skipped for its reason,
    and the report exits 0 printing only valid, control-free rows."""
    lines = [_line(kind, data.draw) for kind in kinds]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hostile.log"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
        skipped = Skipped()
        with path.open(encoding="utf-8", errors="replace") as stream:
            found = list(read_tails(stream, skipped))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            assert main(["report", str(path), f"--top={top}"]) == 0
    assert len(found) == kinds.count("tail")
    assert skipped == Skipped(too_long=0, not_objects=kinds.count("text"),
                              unreadable=kinds.count("broken"),
                              bad_tails=kinds.count("bad_tail"))
    printed = out.getvalue()
    assert encodes(printed) and not CONTROLS.search(printed)
    rows = printed.splitlines()
    groups = len(th.rank(found))
    assert len(rows) == (1 + min(top, groups) if groups else 1)
    said = err.getvalue()
    assert not CONTROLS.search(said)
    total = skipped.total
    assert said == ("" if not total else said.splitlines()[0] + "\n")
    assert not total or said.startswith(f"toolhygiene: skipped {total} line")
