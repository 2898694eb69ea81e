"""The last frame of the user's own code in a traceback: ``file.py:LINE in function``."""

from __future__ import annotations

import os
import sysconfig
import traceback

__all__ = ["user_frame"]

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _library_dirs() -> tuple[str, ...]:
    dirs = {_PACKAGE_DIR}
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        path = sysconfig.get_paths().get(key)
        if path:
            dirs.add(os.path.abspath(path) + os.sep)
    return tuple(sorted(dirs))


_LIBRARY_DIRS = _library_dirs()
_VERDICTS: dict[str, bool] = {}


def _is_users(filename: str) -> bool:
    verdict = _VERDICTS.get(filename)
    if verdict is None:
        path = os.path.abspath(filename)
        verdict = not (
            filename.startswith("<")
            or "site-packages" in path
            or "dist-packages" in path
            or path.startswith(_LIBRARY_DIRS)
        )
        if len(_VERDICTS) < 4096:
            _VERDICTS[filename] = verdict
    return verdict


def user_frame(exc: BaseException) -> str | None:
    """Where the user's own code was when ``exc`` was raised, without directories.

    Frames of the standard library, of installed packages and of toolhygiene are skipped;
    ``None`` when no frame of the user's own code is in the traceback. Source files are
    not read.
    """
    found: tuple[str, int, str] | None = None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        code = frame.f_code
        if _is_users(code.co_filename):
            found = (code.co_filename, lineno, code.co_name)
    if found is None:
        return None
    return f"{os.path.basename(found[0])}:{found[1]} in {found[2]}"
