"""The API reference: every public name has a section with an example, and every example
in the docs runs as written (``mkdocs build --strict`` renders them in ``nox -s docs``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import toolhygiene as th

DOCS = Path(__file__).resolve().parent.parent / "docs"
EXAMPLE = re.compile(r"```python\n(.*?)```", re.DOTALL)


def sections(page: str) -> dict[str, str]:
    """The text under each ``### `th.NAME` `` heading of a page."""
    parts = re.split(r"^### `th\.(\w+)`$", page, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


SUBMODULES = {
    "formats.md": ("formats",),
    "testing.md": ("testing",),
    "mcp.md": ("mcp",),
    "integrations.md": (
        "integrations.anthropic",
        "integrations.langgraph",
        "integrations.openai_agents",
        "integrations.pydantic_ai",
    ),
}
"""The public modules beside ``toolhygiene`` itself, by the page that documents them."""


def declared(module: str) -> list[str]:
    """A public module's ``__all__``, read from its source: the integrations' frameworks
    (and the mcp extra) need not be installed to check their pages."""
    path = Path(th.__file__).parent.joinpath(*module.split("."))
    source = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            names = ast.literal_eval(node.value)
            assert isinstance(names, list)
            return [str(n) for n in names]
    raise AssertionError(f"toolhygiene.{module} has no __all__")


def module_sections(page: str) -> dict[str, str]:
    """The text under each ``### `MODULE.NAME` `` heading of a submodule's page, by
    ``MODULE.NAME`` (``formats.check``, ``integrations.anthropic.runner_tools``)."""
    parts = re.split(r"^### `([\w.]+)`$", page, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def examples() -> list[tuple[str, int, str]]:
    found = []
    for page in sorted(DOCS.glob("*.md")):
        if page.name == "integrations.md":  # needs the frameworks: nox -s integrations
            continue
        text = page.read_text(encoding="utf-8")
        for match in EXAMPLE.finditer(text):
            line = text.count("\n", 0, match.start()) + 2
            found.append((page.name, line, match.group(1)))
    return found


def test_every_public_name_has_a_section_with_an_example() -> None:
    reference = sections((DOCS / "reference.md").read_text(encoding="utf-8"))
    assert sorted(reference) == th.__all__
    for name, text in reference.items():
        assert EXAMPLE.search(text), f"no example for th.{name}"
        assert f"::: toolhygiene.{name}" in text, f"th.{name} is not rendered from its docstring"


@pytest.mark.parametrize("page", sorted(SUBMODULES))
def test_every_public_name_of_the_submodules_has_a_section_with_an_example(page: str) -> None:
    found = module_sections((DOCS / page).read_text(encoding="utf-8"))
    wanted = [f"{m}.{name}" for m in SUBMODULES[page] for name in declared(m)]
    assert sorted(found) == sorted(wanted)
    for name, text in found.items():
        assert EXAMPLE.search(text), f"no example for toolhygiene.{name}"
        assert f"::: toolhygiene.{name}\n" in text, (
            f"toolhygiene.{name} is not rendered from its docstring"
        )


@pytest.mark.parametrize(("page", "line", "code"), examples(),
                         ids=[f"{p}:{n}" for p, n, _ in examples()])
def test_example_runs(page: str, line: int, code: str) -> None:
    if re.search(r"\bimport mcp\b|\bfrom mcp\b|\btoolhygiene\.mcp\b", code):
        pytest.importorskip("mcp")  # the extra: not in the lowest session (pydantic 2.12)
    # Compiled with its place in the docs as file name and line, so a failure points there.
    compiled = compile("\n" * (line - 1) + code, str(DOCS / page), "exec")
    exec(compiled, {"__name__": f"docs_{page}_{line}"})


def test_the_readme_install_section_names_every_runtime_dependency_and_extra() -> None:
    """Each runtime dependency and extra with its floor, as pyproject.toml declares it."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 and later: the suite's main run
    root = DOCS.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    install = readme.split("\n## Install\n", 1)[1].split("\n## ", 1)[0]
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    for requirement in [*project["dependencies"], *extras["mcp"], *extras["redis"],
                        *extras["structlog"], *extras["opentelemetry"]]:
        found = re.fullmatch(r"([\w.-]+)\s*>=\s*([\d.]+)", requirement)
        assert found, requirement
        package, floor = found.groups()
        words = {"opentelemetry-api": "OpenTelemetry API", "redis": "redis-py"}
        assert words.get(package, package) in install, f"{package} is not named"
        assert floor in install, f"{package}'s floor {floor} is not named"
    for extra in ("mcp", "redis", "structlog", "opentelemetry"):
        assert f"toolhygiene[{extra}]" in install


def test_the_readme_names_every_session_that_make_test_runs() -> None:
    """``make test`` runs ``nox``: each session of ``nox.options.sessions`` is named where
    the README says what it runs (a session on several Pythons by each of its names)."""
    root = DOCS.parent
    tree = ast.parse((root / "noxfile.py").read_text(encoding="utf-8"))
    (sessions,) = (
        ast.literal_eval(node.value) for node in tree.body
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "nox.options.sessions"
    )
    readme = (root / "README.md").read_text(encoding="utf-8")
    said = readme.split("\nmake test\n```\n", 1)[1].split("\n\n", 1)[0]
    for session in sessions:
        assert re.search(rf"`{session}(-3\.1\d)?`", said), f"make test runs {session}"
    # make test runs them in two streams (nox -s ...): together, every session, once.
    recipe = (root / "Makefile").read_text(encoding="utf-8").split("\ntest:", 1)[1]
    recipe = recipe.split("\n\n", 1)[0]
    streams = [found.split() for found in re.findall(r"\$\(NOX\) -s ([\w ]+?)\s*[;>]", recipe)]
    ran = [session for stream in streams for session in stream]
    assert sorted(ran) == sorted(sessions), streams
