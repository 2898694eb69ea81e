"""A message or note that holds line breaks (``\\n``, a bare ``\\r``, ``\\u2028``) cannot
plant a line in a plain-text log that reads like an event of its own: in the logged
traceback every line after a message's first is indented (cold-14 of session 7, 7)."""

from __future__ import annotations

import io
import logging
import sys
import traceback
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples
from toolhygiene._log import traceback_text

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


_BREAKS = ["\n", "\r", "\r\n", "\u2028", "\u2029", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85"]
_HOSTILE = st.lists(
    st.sampled_from([*_BREAKS, FORGED, "a", " ", "\t", "\u200b", "\x1b[2J"]), max_size=8
).map("".join)


def _raise(exc: BaseException) -> None:
    raise exc


@given(module=_HOSTILE, name=_HOSTILE, file=_HOSTILE, function=_HOSTILE, message=_HOSTILE)
@settings(max_examples=examples(300), deadline=None)
def test_names_from_code_cannot_start_a_traceback_line(
    module: str, name: str, file: str, function: str, message: str
) -> None:
    """A class's name and module, a frame's file and function name: in the logged
    traceback, every line they start is indented under the line the traceback started
    (recheck of issue 14, new 2). Only the traceback's own lines begin at column 0."""
    error_class = type(name, (Exception,), {"__module__": module})
    names = {"co_filename": file, "co_name": function}
    if sys.version_info >= (3, 11):
        names["co_qualname"] = function
    raising = types.FunctionType(_raise.__code__.replace(**names), globals())  # type: ignore[arg-type]
    try:
        raising(error_class(message))
    except Exception as error:
        text = traceback_text(error)
    starts = [line for line in text.splitlines() if line and not line.startswith(" ")]
    assert starts[0] == "Traceback (most recent call last):"
    assert len(starts) <= 2, text  # the head and the "module.Name: message" line
    assert sum(line.startswith("  File ") for line in text.splitlines()) == 2  # both frames


def test_an_ordinary_traceback_reads_as_python_writes_it() -> None:
    try:
        _raise(ValueError("bad value"))
    except ValueError as error:
        text = traceback_text(error)
        expected = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    python = [line for line in expected.splitlines() if line.strip(" ~^")]  # no carets
    assert text.splitlines() == python
