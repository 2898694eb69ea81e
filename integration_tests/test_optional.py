"""The frameworks are optional: the core never imports them, each integration does."""

from __future__ import annotations

import json
import subprocess
import sys

FRAMEWORKS = ["agents", "anthropic", "langchain_core", "langgraph", "openai", "pydantic_ai"]


def imported_after(code: str) -> list[str]:
    probe = (
        f"{code}\n"
        "import sys\n"
        "import json\n"
        f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & {set(FRAMEWORKS)!r})))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    return list(json.loads(done.stdout))


def test_the_core_imports_no_framework_though_all_are_installed() -> None:
    code = "import toolhygiene as th, toolhygiene.integrations; th.testing; th.Session([])"
    assert imported_after(code) == []


def test_each_integration_imports_only_its_framework() -> None:
    assert imported_after("import toolhygiene.integrations.anthropic") == ["anthropic"]
    assert imported_after("import toolhygiene.integrations.langgraph") == [
        "langchain_core", "langgraph"]
    assert "agents" in imported_after("import toolhygiene.integrations.openai_agents")
    assert "pydantic_ai" in imported_after("import toolhygiene.integrations.pydantic_ai")
