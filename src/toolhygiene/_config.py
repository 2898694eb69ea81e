"""Process-wide settings: the line cap, Retry-After bounds, log redaction, test mode.

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

__all__ = ["Settings", "configure", "settings"]


@dataclass
class Settings:
    """What every session reads at call time.

    Attributes:
        line_cap: most characters in one line the model sees.
        retry_after_ceiling: a Retry-After above this many seconds is treated as absurd
            and ignored.
        redact_logs: apply ``redact()`` to the strings toolhygiene writes to its logs.
        instant_retries: local retries do not sleep (set by ``testing.instant_retries``).
    """

    line_cap: int = 300
    retry_after_ceiling: float = 3600.0
    redact_logs: bool = True
    instant_retries: bool = False


settings = Settings()


def configure(
    *,
    line_cap: int | None = None,
    retry_after_ceiling: float | None = None,
    redact_logs: bool | None = None,
) -> Settings:
    """Change process-wide settings; return the previous ones (to restore later).

    Raises:
        UsageError: a value out of range (a line cap under 160 characters, a ceiling
            that is not a positive finite number).
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
    return previous
