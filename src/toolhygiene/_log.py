"""Log events through structlog, with the full traceback, redacted unless turned off."""

from __future__ import annotations

import traceback

import structlog

from toolhygiene import _config
from toolhygiene.redact import redact

__all__ = ["logger", "traceback_text"]

logger = structlog.get_logger("toolhygiene")


def traceback_text(exc: BaseException) -> str:
    """The whole traceback with causes and context, for humans reading logs."""
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return redact(text) if _config.settings.redact_logs else text
