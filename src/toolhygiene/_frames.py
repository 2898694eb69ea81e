"""The last frame of the user's own code in a traceback: ``file.py:LINE in function``."""

from __future__ import annotations

import functools
import os

from toolhygiene._reading import traceback_of

__all__ = ["user_frame"]

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


@functools.cache
def _library_dirs() -> tuple[str, ...]:
    """The standard library's and installed packages' directories (read at the first
    traceback: ``sysconfig`` reads the build's configuration)."""
    import sysconfig

    dirs = {_PACKAGE_DIR}
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        path = sysconfig.get_paths().get(key)
        if path:
            dirs.add(os.path.abspath(path) + os.sep)
    return tuple(sorted(dirs))


_VERDICTS: dict[str, bool] = {}


def _is_users(filename: str) -> bool:
    verdict = _VERDICTS.get(filename)
    if verdict is None:
        path = os.path.abspath(filename)
        verdict = not (
            filename.startswith("<")
            or "site-packages" in path
            or "dist-packages" in path
            or path.startswith(_library_dirs())
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
    found = None
    tb = traceback_of(exc)
    while tb is not None:
        code = tb.tb_frame.f_code
        verdict = _VERDICTS.get(code.co_filename)
        if verdict is None:
            verdict = _is_users(code.co_filename)
        if verdict:
            found = tb
        tb = tb.tb_next
    if found is None:
        return None
    code = found.tb_frame.f_code
    return f"{_base_name(code.co_filename)}:{found.tb_lineno} in {code.co_name}"


@functools.lru_cache(maxsize=1024)
def _base_name(filename: str) -> str:
    """``os.path.basename``, once per file (a failing tool fails in the same few)."""
    return os.path.basename(filename)
