"""Process-wide settings: the line and result caps, Retry-After bounds, redaction, test mode.

One mutable object, read at call time, so ``configure()`` and the helpers in
``toolhygiene.testing`` take effect for sessions that already exist.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from toolhygiene import _checks
from toolhygiene._exceptions import UsageError
from toolhygiene._words import MIN_LINE_CAP

__all__ = ["MIN_RESULT_CAP", "RESULT_CAP", "Settings", "check_result_cap", "configure", "settings"]

RESULT_CAP = 20_000
"""Default characters of one successful result in the context (about 5,000 tokens)."""

MIN_RESULT_CAP = 1_000


@dataclass
class Settings:
    """What every session reads at call time.

    Attributes:
        line_cap: most characters in one line the model sees.
        retry_after_ceiling: a Retry-After above this many seconds is treated as absurd
            and ignored.
        redact_logs: apply ``redact()`` to the strings toolhygiene writes to its logs.
        redact_emails: e-mail addresses in failures and logs are redacted (what the model
            itself sent and successful results keep them either way).
        result_cap: most characters of a successful result the model sees, marker
            included (a tool's or a session's own cap wins).
        instant_retries: local retries do not sleep (set by ``testing.instant_retries``).
    """

    line_cap: int = 300
    retry_after_ceiling: float = 3600.0
    redact_logs: bool = True
    redact_emails: bool = True
    result_cap: int = RESULT_CAP
    instant_retries: bool = False


settings = Settings()


def check_result_cap(cap: int | None) -> int | None:
    """``cap`` if it is a usable result cap (``None`` stays ``None``).

    Raises:
        UsageError: not a whole number of at least 1,000 characters (the marker alone
            needs room).
    """
    return None if cap is None else _checks.whole("result_cap", cap, MIN_RESULT_CAP)


def configure(
    *,
    line_cap: int | None = None,
    retry_after_ceiling: float | None = None,
    redact_logs: bool | None = None,
    redact_emails: bool | None = None,
    result_cap: int | None = None,
) -> Settings:
    """Change process-wide settings; return the previous ones (to restore later).

    Raises:
        UsageError: a value out of range (a line cap under 160 characters, a ceiling
            that is not a positive finite number, a result cap under 1,000 characters).
    """
    previous = dataclasses.replace(settings)
    if line_cap is not None:
        settings.line_cap = _checks.whole("line_cap", line_cap, MIN_LINE_CAP)
    if retry_after_ceiling is not None:
        if not (math.isfinite(retry_after_ceiling) and retry_after_ceiling > 0):
            raise UsageError(
                f"retry_after_ceiling must be a positive number, got {retry_after_ceiling}"
            )
        settings.retry_after_ceiling = retry_after_ceiling
    if redact_logs is not None:
        settings.redact_logs = _checks.flag("redact_logs", redact_logs)
    if redact_emails is not None:
        settings.redact_emails = _checks.flag("redact_emails", redact_emails)
    if result_cap is not None:
        settings.result_cap = check_result_cap(result_cap) or RESULT_CAP
    return previous
