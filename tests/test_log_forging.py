"""A message or note that holds line breaks (``\\n``, a bare ``\\r``, ``\\u2028``) cannot
plant a line in a plain-text log that reads like an event of its own: in the logged
traceback every line after a message's first is indented (cold-14 of session 7, 7)."""

from __future__ import annotations

import io
import logging

import pytest

import toolhygiene as th

FORGED = "tool.failed tool='transfer_money' status='ok'"


@pytest.mark.parametrize("brk", ["\n", "\r", "\r\n", "\u2028", "\x0b", "\x85"])
def test_a_message_cannot_start_a_log_line(brk: str) -> None:
    @th.tool(retries=0)
    def transfer(x: int) -> int:
        """Transfer."""
        error = RuntimeError(f"upstream said{brk}{FORGED}")
        setattr(error, "__notes__", [f"a note{brk}{FORGED}"])  # add_note, on 3.10 too  # noqa: B010
        raise error

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger = logging.getLogger("toolhygiene-test-forging")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        with th.configure(logs=logger):
            th.Session([transfer]).call("transfer", {"x": 1})
    finally:
        logger.removeHandler(handler)
    written = stream.getvalue()
    assert written.count("\n    " + FORGED) == 2  # message and note kept, indented
    starts = [line for line in written.splitlines() if line.startswith("tool.failed")]
    assert len(starts) == 1 and starts[0].startswith("tool.failed session.id=")  # the real one
