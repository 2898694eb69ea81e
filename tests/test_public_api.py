"""The public names are a contract: present, sorted, and nothing else imported."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys

import pytest

import toolhygiene as th
from helpers import import_blocker

DESIGN_NAMES = [
    "ToolError", "Category", "Failure", "FAILURE_SCHEMA", "Empty", "classify",
    "summarize", "redact", "tool", "Session",
]


def test_design_names_are_exported() -> None:
    for name in DESIGN_NAMES:
        assert name in th.__all__
        assert hasattr(th, name)


def test_all_is_sorted_and_complete() -> None:
    assert th.__all__ == sorted(th.__all__)
    public = {n for n, v in vars(th).items()
              if not n.startswith("_") and not inspect.ismodule(v) and n != "annotations"}
    assert public <= set(th.__all__)


def test_core_imports_without_the_recognised_libraries() -> None:
    """toolhygiene recognises their exceptions by name; importing it imports none of them."""
    blocked = ["httpx", "httpx2", "requests", "aiohttp", "openai", "anthropic", "botocore",
               "psycopg", "psycopg2", "urllib3",
               # the frameworks of toolhygiene.integrations, each an optional extra
               "agents", "langchain_core", "langgraph", "pydantic_ai"]
    code = (
        import_blocker(blocked) +
        "import toolhygiene as th, toolhygiene.integrations\n"
        "try:\n"
        "    raise ConnectionRefusedError(111, 'Connection refused')\n"
        "except OSError as e:\n"
        "    print(th.summarize(e, 'probe'))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in blocked))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("[error] probe: connectivity.")
    assert lines[1] == "[]"


PUBLIC_SUBMODULES = frozenset({"cli", "formats", "integrations", "mcp", "testing"})
"""The public modules (the README's "How it is built"): every other one is underscored."""
EXTRAS = ("toolhygiene.integrations.", "toolhygiene.mcp")
"""Modules that need an optional extra, which the session running the suite may lack."""


def test_the_package_holds_only_public_names_once_everything_is_imported() -> None:
    """``th.<name>`` is a name of ``__all__``, a public submodule or a private one; no
    helper of ``__init__`` (``importlib``, ``typing``) leaks, however much was imported."""
    for module in pkgutil.walk_packages(th.__path__, "toolhygiene."):
        if module.name == "toolhygiene.__main__":  # runs the command
            continue
        try:
            importlib.import_module(module.name)
        except ImportError:
            if not module.name.startswith(EXTRAS):
                raise
    for name in th.__all__:
        getattr(th, name)
    allowed = {*th.__all__, *PUBLIC_SUBMODULES}
    assert sorted(n for n in dir(th) if not n.startswith("_") and n not in allowed) == []
    assert sorted(n for n in vars(th) if not n.startswith("_") and n not in allowed) == []
    assert not hasattr(th, "importlib")
    assert not hasattr(th, "typing")


@pytest.mark.parametrize("name", ["toolhygiene.formats", "toolhygiene.mcp"])
def test_a_submodule_shows_only_its_sorted_all(name: str) -> None:
    """``dir()`` of a public submodule is its ``__all__`` (sorted) and the dunders, not the
    names it imported to build itself (``Session``, ``UsageError``, the adapters)."""
    if name.endswith("mcp"):
        pytest.importorskip("mcp")
    module = importlib.import_module(name)
    assert module.__all__ == sorted(module.__all__)
    assert [n for n in dir(module) if not n.startswith("__")] == module.__all__
