"""The examples of docs/integrations.md run as written, here where the frameworks are."""

from __future__ import annotations

import re
from pathlib import Path

PAGE = Path(__file__).resolve().parent.parent / "docs" / "integrations.md"


def test_the_examples_run_in_order() -> None:
    text = PAGE.read_text(encoding="utf-8")
    scope: dict[str, object] = {"__name__": "docs_integrations"}
    found = list(re.finditer(r"```python\n(.*?)```", text, re.DOTALL))
    assert len(found) == 14
    for match in found:
        line = text.count("\n", 0, match.start()) + 2
        exec(compile("\n" * (line - 1) + match.group(1), str(PAGE), "exec"), scope)
