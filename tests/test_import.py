"""``import toolhygiene`` loads none of its own modules and none of its heavy dependencies:
each public name is imported at its first use (PEP 562), and each dependency comes when
first needed (pydantic with a tool's schema, tenacity with a retry, asyncio with async
code, the redaction patterns with a redaction; structlog only when the application
imported it). A ``@tool`` loads what a tool needs, not the Session's machinery.
Each check runs in a fresh interpreter, since this one has imported everything already."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import toolhygiene as th

HEAVY = [
    "anthropic", "asyncio", "concurrent.futures", "docstring_parser", "email.utils",
    "hashlib", "html", "http.server", "httpx", "openai", "opentelemetry", "pydantic",
    "pydantic_core", "secrets", "structlog", "sysconfig", "tenacity",
    "toolhygiene._detectors", "toolhygiene.testing", "typing_extensions", "urllib.parse",
]
# What a program that only defines its tools never needs: the Session's machinery, the
# stores, the loop and stream readers, resumption, subagents, the redaction engine.
MACHINERY = [
    "toolhygiene._core", "toolhygiene._engine", "toolhygiene._loop", "toolhygiene._redact",
    "toolhygiene._resume", "toolhygiene._session", "toolhygiene._stores",
    "toolhygiene._streams", "toolhygiene._subagents", "toolhygiene._tokens",
]
# The regexes of neutralising and normalising compile at their first use too: each
# module's cached builder has built nothing until then.
PATTERNS = (
    "from toolhygiene import _normalise, _redact\n"
    "built = _redact._patterns.cache_info().currsize + _normalise._patterns.cache_info().currsize"
)


def loaded_after(code: str, watched: list[str] = HEAVY) -> list[str]:
    """The modules of ``watched`` that a fresh interpreter holds after running ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps([m for m in {watched!r} if m in sys.modules]))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    loaded: list[str] = json.loads(done.stdout.splitlines()[-1])
    return loaded


def test_import_toolhygiene_loads_no_heavy_module_and_none_of_its_own() -> None:
    code = (
        "import sys, toolhygiene\n"
        "own = [m for m in sys.modules if m.startswith('toolhygiene.')]\n"
        "assert own == [], own"
    )
    assert loaded_after(code) == []


def test_a_tool_defined_loads_what_it_needs_not_the_machinery() -> None:
    """The tool's schema (built when decorating, so that a signature pydantic cannot
    read fails where it is written) brings pydantic, its docstring docstring_parser."""
    code = ("import toolhygiene as th\n@th.tool\ndef f(x: int) -> int:\n    '''Doc.'''\n"
            "    return x\nf.parameters")
    unneeded = [*MACHINERY, "asyncio", "structlog", "tenacity", "toolhygiene.testing"]
    loaded = loaded_after(code, ["docstring_parser", "pydantic", *unneeded])
    # What pydantic itself loads for a schema is not toolhygiene's doing: at the lowest
    # floors, typing_extensions' ``deprecated`` (run by pydantic_core) imports asyncio.
    schema = "import docstring_parser, pydantic\npydantic.TypeAdapter(int).json_schema()"
    theirs = [name for name in loaded_after(schema, unneeded) if "toolhygiene" not in name]
    assert loaded == ["docstring_parser", "pydantic", *theirs]


def test_each_public_name_is_the_one_its_module_defines() -> None:
    """The names imported at first use are the objects themselves, listed by ``dir`` before
    any use, and typed (``th.Session`` is the class, not ``object``, for mypy)."""
    # Private imports, by design: what importing each one loads is what is measured.
    import toolhygiene._session
    import toolhygiene._tool

    assert set(th.__all__) <= set(dir(th))
    session: type[toolhygiene._session.Session] = th.Session
    assert session is toolhygiene._session.Session
    assert th.tool is toolhygiene._tool.tool
    assert th.HookEvent.__name__ == "Event"
    assert th.testing.__name__ == "toolhygiene.testing"
    with pytest.raises(AttributeError, match="no attribute 'Sesion'"):
        th.Sesion  # type: ignore[attr-defined]  # noqa: B018


def test_every_public_name_is_there_without_loading_them() -> None:
    code = "import toolhygiene as th\nnames = [getattr(th, n) for n in th.__all__]"
    assert loaded_after(code) == []


def test_a_star_import_does_not_load_testing() -> None:
    """``testing`` (an HTTP server) is not in ``__all__``: ``from toolhygiene import *``
    leaves it unloaded (it loaded 213 modules), and ``th.testing`` still finds it."""
    assert "testing" not in th.__all__ and "testing" in dir(th)
    assert loaded_after("from toolhygiene import *", ["toolhygiene.testing", "http.server"]) == []


@pytest.mark.parametrize(
    ("code", "needed"),
    [
        # A call that fails and is retried locally brings tenacity.
        ("import toolhygiene as th\nn = []\n@th.tool(retries=1)\ndef f() -> str:\n"
         "    n.append(1)\n    if len(n) == 1:\n        raise ConnectionResetError('reset')\n"
         "    return 'ok'\nwith th.testing.instant_retries():\n"
         "    assert th.Session([f]).call('f', {}).content == 'ok'",
         ["tenacity"]),
        # The first redaction compiles the detectors.
        ("import toolhygiene as th\nassert 'hunter2x' not in th.redact('password=hunter2x')",
         ["toolhygiene._detectors"]),
        # The first failure brings hashlib (its fingerprint) and sysconfig (which frames
        # are the user's); the first known secret html (its escaped form).
        ("import toolhygiene as th\n@th.tool(retries=0)\ndef f() -> str:\n"
         "    raise ValueError('bad input')\nth.Session([f]).call('f', {})",
         ["hashlib", "sysconfig"]),
        ("import toolhygiene as th\n@th.tool\ndef f(password: str) -> str:\n    return password\n"
         "assert 'Hunter-2024x' not in th.Session([f]).call('f', {'password': 'Hunter-2024x'}).content",
         ["html"]),
    ],
)
def test_a_heavy_module_comes_with_its_first_use(code: str, needed: list[str]) -> None:
    loaded = loaded_after(code)
    assert set(needed) <= set(loaded)
    assert "structlog" not in loaded


def test_structlog_configured_by_the_application_is_used() -> None:
    code = (
        "import io, json, structlog\nout = io.StringIO()\n"
        "structlog.configure(processors=[structlog.processors.JSONRenderer()],"
        " logger_factory=structlog.WriteLoggerFactory(file=out))\n"
        "import toolhygiene as th\n@th.tool(retries=0)\ndef f() -> str:\n"
        "    raise ValueError('bad input')\nth.Session([f]).call('f', {})\n"
        "assert json.loads(out.getvalue().splitlines()[0])['tool'] == 'f', out.getvalue()"
    )
    assert "structlog" in loaded_after(code)


def test_the_markup_and_escape_patterns_compile_at_their_first_use() -> None:
    probe = f"import json, toolhygiene as th\n{PATTERNS}\nprint(json.dumps(built))"
    run = [sys.executable, "-c", probe]
    assert json.loads(subprocess.run(run, capture_output=True, text=True, check=True).stdout) == 0
    used = probe.replace("built =", "th.sanitize('<system>x</system> \\x1b[31m', 100)\nbuilt =")
    run = [sys.executable, "-c", used]
    assert json.loads(subprocess.run(run, capture_output=True, text=True, check=True).stdout) == 2
