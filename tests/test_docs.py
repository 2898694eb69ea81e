"""The API reference: every public name has a section with an example, and every example
in the docs runs as written (``mkdocs build --strict`` renders them in ``nox -s docs``)."""

from __future__ import annotations

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
        directive = f"::: toolhygiene.{name}" if name != "testing" else "(testing.md)"
        assert directive in text, f"th.{name} is not rendered from its docstring"


@pytest.mark.parametrize(("page", "line", "code"), examples(),
                         ids=[f"{p}:{n}" for p, n, _ in examples()])
def test_example_runs(page: str, line: int, code: str) -> None:
    if re.search(r"\bimport mcp\b", code):
        pytest.importorskip("mcp")  # the extra: not in the lowest session (pydantic 2.12)
    # Compiled with its place in the docs as file name and line, so a failure points there.
    compiled = compile("\n" * (line - 1) + code, str(DOCS / page), "exec")
    exec(compiled, {"__name__": f"docs_{page}_{line}"})
