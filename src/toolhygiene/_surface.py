"""A public module's face: ``dir()`` shows its ``__all__``, the public submodules
imported and the dunders, not the names it imported to build itself."""

from __future__ import annotations

import sys
import types
from collections.abc import Callable

__all__ = ["public_dir"]


def public_dir(name: str) -> Callable[[], list[str]]:
    """The ``__dir__`` of the module named ``name`` (``__dir__ = public_dir(__name__)``)."""

    def names() -> list[str]:
        module = vars(sys.modules[name])
        submodules = (
            key
            for key, value in module.items()
            if not key.startswith("_")
            and isinstance(value, types.ModuleType)
            and value.__name__ == f"{name}.{key}"
        )
        dunders = (key for key in module if key.startswith("__"))
        return sorted({*module.get("__all__", ()), *submodules, *dunders})

    return names
