"""The public names are a contract: present, sorted, and nothing else imported."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
import types

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
"""The public modules (docs/architecture.md, "How it is built"): every other one is underscored."""
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
    assert not hasattr(th, "_WHERE")


PUBLIC_MODULES = {
    "toolhygiene.cli": None, "toolhygiene.formats": None, "toolhygiene.integrations": None,
    "toolhygiene.integrations.anthropic": "anthropic",
    "toolhygiene.integrations.langgraph": "langgraph",
    "toolhygiene.integrations.openai_agents": "agents",
    "toolhygiene.integrations.pydantic_ai": "pydantic_ai",
    "toolhygiene.mcp": "mcp", "toolhygiene.testing": None,
}
"""Every public module but the package, and the library it needs (an optional extra)."""


def _public_submodules(module: types.ModuleType) -> set[str]:
    return {n for n, v in vars(module).items() if not n.startswith("_")
            and inspect.ismodule(v) and v.__name__ == f"{module.__name__}.{n}"}


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_a_public_module_shows_only_its_sorted_all(name: str) -> None:
    """``dir()`` of a public module is its ``__all__`` (sorted), the public submodules a
    user imports by path, and the dunders: not the names it imported to build itself
    (``Session``, ``UsageError``, ``dataclass``, the adapters) nor its private parts."""
    needs = PUBLIC_MODULES[name]
    if needs is not None:
        pytest.importorskip(needs)
    module = importlib.import_module(name)
    if name == "toolhygiene.integrations":
        importlib.import_module("toolhygiene.integrations.anthropic")  # now a submodule
    assert module.__all__ == sorted(module.__all__)
    shown = [n for n in dir(module) if not n.startswith("__")]
    assert shown == sorted({*module.__all__, *_public_submodules(module)})
    for public in module.__all__:
        getattr(module, public)


def test_the_package_shows_all_testing_and_the_public_submodules_imported() -> None:
    importlib.import_module("toolhygiene.formats")
    shown = [n for n in dir(th) if not n.startswith("__")]
    assert shown == sorted({*th.__all__, "testing", *_public_submodules(th)})
    assert "formats" in shown and not any(n.startswith("_") for n in shown)


@pytest.mark.parametrize("package", ["toolhygiene", "toolhygiene.formats",
                                     "toolhygiene.integrations"])
def test_no_helper_of_a_packages_init_is_an_attribute(package: str) -> None:
    """Before: ``th._WHERE`` (the table of lazy names), ``th._importlib`` and
    ``formats._ADAPTERS`` were reachable. A private name of a package is now only one
    of its private submodules, which Python's import system sets there."""
    module = importlib.import_module(package)
    for name in module.__all__:
        getattr(module, name)
    private = {n: v for n, v in vars(module).items()
               if n.startswith("_") and not n.startswith("__")}
    assert {n: v for n, v in private.items()
            if not (inspect.ismodule(v) and v.__name__ == f"{package}.{n}")} == {}
    for helper in ("_WHERE", "_importlib", "_typing", "_public_names",
                   "_ADAPTERS", "_UNSET", "typing", "importlib", "adapters"):
        assert not hasattr(module, helper), helper


def test_strict_rules_is_public_where_strict_parameters_takes_it() -> None:
    """``Tool.strict_parameters`` takes an adapter's ``strict_rules``: its type is named
    where the adapters are."""
    from toolhygiene.formats import StrictRules, adapter

    rules = adapter("openai_chat").strict_rules
    assert isinstance(rules, StrictRules)

    @th.tool
    def lookup(city: str) -> str:
        """Look up a city."""
        return city

    assert lookup.strict_parameters(rules) == lookup.strict_parameters("openai_chat")


def test_formats_is_a_name_of_the_package_like_testing() -> None:
    """cold-11 #13: ``th.testing`` was found at first use but ``th.formats`` was an
    AttributeError until ``import toolhygiene.formats``."""
    assert th.formats.check is importlib.import_module("toolhygiene.formats").check
    assert "formats" in dir(th) and "formats" not in th.__all__


def test_the_command_says_its_version(capsys: pytest.CaptureFixture[str]) -> None:
    from toolhygiene.cli import main

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"toolhygiene {th.__version__}\n"
