"""Who owns what inside src/toolhygiene, checked so that it cannot drift: every word the
model reads is written in ``_words``; the line cap is read in one place, and a Session's cap
holds in every text of its failures; ``Format`` is defined once; tool definitions are spelled
by the format adapters, so ``_tool`` names no API, and so is every other difference between
the message formats, so the modules that read lists, responses and streams name no API's
message keys; HTTP facts are read in ``_http``."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import toolhygiene as th
from toolhygiene import formats

SRC = Path(th.__file__).resolve().parent

DEVELOPER_ERRORS = frozenset(
    {"UsageError", "ValueError", "TypeError", "StrictError", "RuntimeError", "StoreError",
     "RunnerUsageError", "KeyError", "AttributeError", "NotImplementedError", "SystemExit",
     "ImportError", "ModuleNotFoundError",
     "unfinished"}  # builds a UsageError
)
"""Exceptions whose message a developer reads, never the model (and what builds them)."""

NOT_MODEL_TEXT = {
    "(other unknown tools)": "the ledger's key for unknown names past its limit",
    "[redacted:": "read, not written: a labelled value that is a placeholder already",
    " returned non-zero exit status": "read, not written: where a CalledProcessError's "
    "message ends the command it quotes (_commands)",
}
"""Texts outside ``_words`` that look like words but are not model text."""

LOG_CALLS = frozenset({"debug", "info", "warning", "error", "exception", "critical", "log"})

NO_MODEL_TEXT = {
    "cli.py": "the terminal report of the `toolhygiene` command",
    "_log.py": "tracebacks and log events, for people",
    "_frames.py": "the last frame of the user's own code: a log field",
    "_observe.py": "log events and hook errors, for people",
    "_telemetry.py": "OpenTelemetry metric descriptions",
    "_turns.py": "the model turns that toolhygiene.testing scripts",
    "_scripted.py": "the scripted test server",
    "testing.py": "helpers for users' tests",
    "_stores.py": "Redis scripts",
    "_registry.py": "why a user's pattern is refused (a UsageError built in parts)",
    "_strict.py": "why a schema cannot be strict (a UsageError built in parts)",
    "_errors.py": "FAILURE_SCHEMA's description, for the developers of other agents",
    "_redact.py": "the phrases looked for in untrusted text (patterns, not text written)",
    "_orders.py": "the words that tell data from orders (lexicons read, not text written)",
    "_tags.py": "the words of tag names that speak to the model (lexicons read, not written)",
    "_people.py": "the words that tell text for people from orders (lexicons read, not written)",
    "_reader.py": "the words of orders to the reader and of role shapes (patterns read, not written)",
    "_asides.py": "the words of markup set apart to address the model (patterns read, not written)",
    "_detectors.py": "secret-shaped patterns and their labels (the redaction layer)",
    "_labels.py": "the labels of redacted values (the redaction layer)",
    "_seeds.py": "BIP39's word list, looked for in seed phrases (data read, not written)",
}
"""Modules that write no text the model reads, each with what its texts are instead."""


def modules() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if "__pycache__" not in p.parts)


@functools.cache
def parsed(path: Path) -> ast.Module:
    """The module's syntax tree, parsed once for every check."""
    return ast.parse(path.read_text(encoding="utf-8"))


def name(path: Path) -> str:
    return path.relative_to(SRC).as_posix()


def _called(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _exempt_nodes(tree: ast.AST) -> set[int]:
    """Docstrings, developer errors' messages and log calls' texts: no model reads them."""
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for stmt in body:  # docstrings, and the strings documenting an attribute
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    out.add(id(stmt.value))
        if isinstance(node, ast.Call):
            called = _called(node)
            if called in DEVELOPER_ERRORS or (
                called in LOG_CALLS and isinstance(node.func, ast.Attribute)
            ):
                out.update(id(inner) for inner in ast.walk(node))
        if isinstance(node, ast.Compare) and any(isinstance(o, ast.In) for o in node.ops):
            out.add(id(node.left))  # a text looked for in an exception's, not written
    return out


def literals(path: Path) -> Iterator[ast.JoinedStr | ast.Constant]:
    """Every string literal of ``path`` that is not exempt: each f-string whole, then each
    plain string that is no part of an f-string."""
    tree = parsed(path)
    exempt = _exempt_nodes(tree)
    fstrings = [node for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)]
    parts = {id(v) for node in fstrings for v in node.values}
    yield from (node for node in fstrings if id(node) not in exempt)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in exempt
            and id(node) not in parts
            and node.value not in NOT_MODEL_TEXT
        ):
            yield node


def sentences(path: Path) -> Iterator[tuple[int, str]]:
    """Every string literal of three words or more that is not exempt: a literal whose text
    has two spaces, or an f-string whose literal parts have two between them."""
    for node in literals(path):
        if isinstance(node, ast.JoinedStr):
            text = "".join(
                v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(
                    v.value, str)
            )
            if text.count(" ") >= 2:
                yield node.lineno, ast.unparse(node)
        elif re.search(r"[a-z]+ [a-z]+ [a-z]+", str(node.value)):
            yield node.lineno, str(node.value)


def test_every_word_the_model_reads_is_written_in_words() -> None:
    found = [
        f"{name(path)}:{line}: {text[:80]}"
        for path in modules()
        if name(path) != "_words.py" and name(path) not in NO_MODEL_TEXT
        for line, text in sentences(path)
    ]
    assert found == [], "model text outside _words:\n" + "\n".join(found)


def test_the_rule_sees_a_sentence_and_passes_over_what_is_exempt(tmp_path: Path) -> None:
    """The check above is not blind: a sentence in a module is found, in a plain string and
    in an f-string; docstrings, developer errors and log texts are not."""
    module = tmp_path / "probe.py"
    module.write_text(
        '"""A docstring of many words."""\n'
        "def f(tool):\n"
        '    """Another docstring of words."""\n'
        '    log.warning("a log text of words")\n'
        '    if tool: raise UsageError(f"{tool} was given a bad setting")\n'
        '    message = "the call did not run"\n'
        '    return f"{tool} failed because of it"\n',
        encoding="utf-8",
    )
    assert [line for line, _ in sentences(module)] == [7, 6]


MARKER = re.compile(r"^\[[a-z]{3,}[a-z -]*[:\]]")
"""A marker the model reads in a result or a line: ``[redacted:…]``, ``[markup]``,
``[error] ``, ``[cut: …]`` (a regex's character class such as ``[a-z]`` is not one)."""


def markers(path: Path) -> Iterator[tuple[int, str]]:
    """Every literal that opens with a marker, in a plain string or an f-string's first
    part, docstrings and developer errors aside."""
    for node in literals(path):
        if isinstance(node, ast.JoinedStr):
            first = node.values[0] if node.values else None
            if isinstance(first, ast.Constant) and MARKER.match(str(first.value)):
                yield node.lineno, ast.unparse(node)
        elif MARKER.match(str(node.value)):
            yield node.lineno, str(node.value)


def test_every_marker_the_model_reads_is_written_in_words() -> None:
    """Markers have no spaces to be told by, so the sentence rule misses them: a marker
    outside ``_words`` is flagged in every module, the redaction layer's included."""
    found = [
        f"{name(path)}:{line}: {text[:80]}"
        for path in modules()
        if name(path) != "_words.py"
        for line, text in markers(path)
    ]
    assert found == [], "markers outside _words:\n" + "\n".join(found)


def test_the_marker_rule_sees_a_marker_and_passes_over_a_regex(tmp_path: Path) -> None:
    module = tmp_path / "probe.py"
    module.write_text(
        "import re\n"
        "HEX = re.compile('[a-f0-9]{40}')\n"
        "def f(name, tag):\n"
        "    if tag: return '[markup]'\n"
        "    return f'[redacted:{name}]'\n",
        encoding="utf-8",
    )
    assert sorted(line for line, _ in markers(module)) == [4, 5]


def test_every_exempt_module_exists() -> None:
    assert set(NO_MODEL_TEXT) <= {name(p) for p in modules()}


def test_the_line_cap_is_read_in_one_place() -> None:
    readers = [
        name(path)
        for path in modules()
        for node in ast.walk(parsed(path))
        if isinstance(node, ast.Attribute)
        and node.attr == "line_cap"
        and isinstance(node.value, ast.Name)
        and node.value.id == "settings"
    ]
    assert readers == ["_config.py"]


def test_format_is_defined_once() -> None:
    defined = [
        name(path)
        for path in modules()
        for node in ast.walk(parsed(path))
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        and any(isinstance(t, ast.Name) and t.id == "Format"
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target]))
    ]
    assert defined == ["formats/_base.py"]


def _code_strings(path: Path) -> set[str]:
    tree = parsed(path)
    exempt = _exempt_nodes(tree)
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in exempt
    }


def test_tool_names_no_api() -> None:
    """Tool definitions are the format adapters' to spell: ``_tool`` names no format, no
    API and none of the fields an API spells a definition with."""
    apis = {"anthropic", "openai", "openai_chat", "openai_responses"}
    spelled = {"input_schema", "parameters", "ephemeral"}
    assert _code_strings(SRC / "_tool.py") & (apis | spelled) == set()


def test_strict_mode_names_no_api() -> None:
    """Each API's strict-mode rules are its adapter's ``strict_rules``: ``_strict`` names
    no API, and no keyword or format only some API keeps."""
    apis = {"anthropic", "openai", "Anthropic", "OpenAI", "openai_chat", "openai_responses"}
    kept = {"pattern", "format", "minimum", "maxItems", "minItems", "uri", "uuid", "email"}
    assert _code_strings(SRC / "_strict.py") & (apis | kept) == set()


MESSAGE_KEYS = frozenset({
    # the format names and each API's keys, kinds and values in a message, an event or a
    # response ("id" is left out: every record has one; "conversation" too: it names a
    # field of toolhygiene's own event)
    "anthropic", "openai", "openai_chat", "openai_responses",
    "tool_use", "tool_result", "tool_use_id", "is_error", "input", "stop_reason",
    "message_start", "message_delta", "message_stop", "content_block_start",
    "content_block_delta", "text_delta", "input_json_delta", "thinking_delta", "ping",
    "tool_calls", "tool_call_id", "tool", "function", "arguments", "choices", "delta",
    "finish_reason", "chat.completion", "chat.completion.chunk", "object", "completion",
    "function_call", "function_call_output", "call_id", "output", "message",
    "previous_response_id", "response", "response.completed",
    "get_final_message", "get_final_completion", "get_final_response",
    "role", "content", "text", "type",
})
"""What only a format adapter may name: a format, or a key or value of an API's messages,
stream events and responses."""

READERS = ("_resume.py", "_history.py", "_streams.py", "_loop.py", "_transcript.py")
"""Modules that read message lists, responses and streams of any format."""


@pytest.mark.parametrize("module", READERS)
def test_readers_name_no_message_key(module: str) -> None:
    """Reading a list back, telling who holds the conversation and putting a stream
    together go through the adapters: these modules name no format and no API's keys."""
    assert _code_strings(SRC / module) & MESSAGE_KEYS == set()


def test_the_key_check_sees_a_key(tmp_path: Path) -> None:
    """The check is not blind: a reader that looks for a key is flagged, a message to the
    developer is not."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "def f(m):\n"
        "    if m.get('tool_calls'):\n"
        "        raise UsageError('the tool_calls are missing')\n"
        "    return m['role']\n",
        encoding="utf-8",
    )
    assert _code_strings(probe) & MESSAGE_KEYS == {"tool_calls", "role"}


def test_http_facts_are_read_in_http() -> None:
    """Status codes, headers and the API's error body are read in ``_http`` alone."""
    facts = {"status_code", "headers", "body", "retry-after", "Retry-After", "Error"}
    readers = sorted(
        name(path) for path in modules() if _code_strings(path) & facts
    )
    assert readers == ["_http.py"]


@pytest.mark.parametrize("fmt", ["anthropic", "openai_chat", "openai_responses"])
def test_each_adapter_spells_its_definitions(fmt: formats.Format) -> None:
    @th.tool(strict=True, defer_loading=True)
    def lookup(city: str, days: int = 1) -> str:
        """Look a city up."""
        return city

    to = formats.adapter(fmt)
    spelled = lookup.schema(fmt)
    assert spelled == to.definition(
        formats.Definition(
            "lookup", "Look a city up.", lookup.strict_parameters(to.strict_rules), True,
            {"input_examples": None, "defer_loading": True, "cache_control": None},
        )
    )
    assert spelled.get("defer_loading", spelled.get("function", {}).get("defer_loading")) is (
        True if fmt != "openai_chat" else None
    )


def test_only_anthropic_takes_a_cache_breakpoint() -> None:
    @th.tool
    def first(x: int) -> int:
        """One."""
        return x

    @th.tool
    def second(x: int) -> int:
        """Two."""
        return x

    session = th.Session([first, second])
    marked = session.schemas("anthropic", cache_control=True)
    assert "cache_control" not in marked[0]
    assert marked[1]["cache_control"] == {"type": "ephemeral"}
    for fmt in ("openai_chat", "openai_responses"):
        with pytest.raises(th.UsageError, match=f"Anthropic field; {fmt} caches prompts"):
            session.schemas(fmt, cache_control=True)


def _long_failure(tool: str) -> th.Session:
    @th.tool(name=tool, max_failures=1)
    def fails(order_id: str) -> str:
        """Fails with a long account."""
        raise th.ToolError("the warehouse said " + "no stock anywhere, " * 40, retryable=False)

    return th.Session([fails], line_cap=180)


def test_to_dict_keeps_the_session_line_cap() -> None:
    session = _long_failure("reserve")
    outcome = session.call("reserve", {"order_id": "ORD-1"})
    assert outcome.failure is not None
    payload = outcome.failure.to_dict()
    assert payload["message"] == outcome.content
    assert len(payload["message"]) <= 180
    # the configured cap (300) would have made it longer: the session's cap is what held
    assert len(outcome.failure.line(th.configure().line_cap)) > 180
    assert outcome.failure.line() == outcome.content

    closed = session.call("reserve", {"order_id": "ORD-2"})  # the tool is closed now
    assert closed.failure is not None and closed.failure.status == "closed"
    assert closed.failure.to_dict()["message"] == closed.content


def test_a_failure_outside_a_session_keeps_the_configured_cap() -> None:
    failure = th.classify(ValueError("bad " * 200), "probe")
    assert failure.line_cap is None
    assert len(failure.to_dict()["message"]) <= th.configure().line_cap
    assert len(failure.to_dict()["message"]) > 180


ARCHITECTURE = SRC.parent.parent / "docs" / "architecture.md"

LAZY_UPWARD = {
    ("_errors.py", "_redact.py"): "the redaction engine, loaded at the first failure",
    ("_checks.py", "_rules.py"): "the Rule type, checked when rules are set",
    ("_errors.py", "_payload.py"): "Failure.from_dict reads a payload with the reader of payloads",
    ("_results.py", "_engine.py"): "binary bytes redacted before base64, at the first binary result",
}
"""Imports inside a function that reach a higher layer (each for import time)."""


def layout() -> list[tuple[str, list[str]]]:
    """docs/architecture.md ("How it is built"): each layer (from the top) and the modules
    it lists."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("\n", 1)[1]  # below the page's title
    layers = re.split(r"^## (.+)$", section, flags=re.MULTILINE)
    return [
        (title, re.findall(r"^- `([\w/]+\.py)`: \S", body, flags=re.MULTILINE))
        for title, body in zip(layers[1::2], layers[2::2], strict=True)
    ]


def test_the_readme_names_every_module_once_and_nothing_else() -> None:
    listed = [module for _, modules_ in layout() for module in modules_]
    assert len(listed) == len(set(listed)), "a module is listed twice"
    assert sorted(listed) == sorted(name(path) for path in modules())


PUBLIC = ("__init__.py", "__main__.py", "cli.py", "mcp.py", "testing.py",
          "formats/__init__.py", "integrations/")
"""The public modules (``th.__all__``'s package, the ``toolhygiene`` command,
``toolhygiene.mcp``, ``.testing``, ``.formats`` and ``.integrations.*``): every other
module's name starts with an underscore."""


def test_every_module_outside_the_public_surface_is_underscored() -> None:
    unmarked = [n for n in map(name, modules()) if not any(
        part.startswith("_") and not part.startswith("__") for part in n.split("/"))]
    assert [n for n in unmarked if not n.startswith(PUBLIC)] == []


def _target(imported: str) -> str:
    """The module file an import of ``toolhygiene.<module>`` (or of a name in it) reads."""
    parts = imported.split(".")[1:]
    path = "/".join(parts)
    if (SRC / f"{path}.py").exists():
        return f"{path}.py"
    return f"{path}/__init__.py" if path else "__init__.py"


def _absolute(module: str, node: ast.ImportFrom) -> str:
    """The dotted module an ``import from`` in ``module`` (a path under src/toolhygiene)
    names, a relative one made absolute."""
    if not node.level:
        return node.module or ""
    package = ["toolhygiene", *Path(module).parent.parts]
    package = package[: len(package) - (node.level - 1)]
    return ".".join([*package, *([node.module] if node.module else [])])


TOP, FUNCTION, TYPING = "top", "function", "typing"
"""Where an import is made: at module level (it loads the module), inside a function (at
first use), or under ``if TYPE_CHECKING:`` (only the type checker reads it)."""


def imports(path: Path) -> Iterator[tuple[str, str]]:
    """The toolhygiene modules ``path`` imports, relative imports included, and where each
    import is made (``TOP``, ``FUNCTION`` or ``TYPING``)."""
    return _imports_of(path, name(path))


def _imports_of(path: Path, module_name: str) -> Iterator[tuple[str, str]]:
    tree = parsed(path)
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only.update(id(inner) for inner in ast.walk(node))
    top = {id(node) for node in tree.body}
    for node in ast.walk(tree):
        found: list[str] = []
        if isinstance(node, ast.ImportFrom):
            module = _absolute(module_name, node)
            if not module.startswith("toolhygiene"):
                continue
            for alias in node.names:  # a submodule imported by name, else the module itself
                sub = f"{module}.{alias.name}"
                sub_path = "/".join(sub.split(".")[1:])
                is_sub = (SRC / f"{sub_path}.py").exists() or (SRC / sub_path).is_dir()
                found.append(_target(sub if is_sub else module))
        elif isinstance(node, ast.Import):
            found = [_target(a.name) for a in node.names if a.name.startswith("toolhygiene")]
        where = TYPING if id(node) in typing_only else TOP if id(node) in top else FUNCTION
        for target in found:
            yield target, where


def upward(layers: list[tuple[str, list[str]]]) -> list[str]:
    """Every import of a module in a higher layer than the importer's (layers listed from
    the top), those made only for the type checker included, but for the function-level
    ones named in ``LAZY_UPWARD``."""
    level = {module: at for at, (_, listed) in enumerate(layers) for module in listed}
    said = {TOP: "", FUNCTION: " (inside a function)", TYPING: " (for the type checker)"}
    return [
        f"{name(path)} imports {target}{said[where]}"
        for path in modules()
        for target, where in imports(path)
        if target in level
        and level[target] < level[name(path)]
        and (where != FUNCTION or (name(path), target) not in LAZY_UPWARD)
    ]


def test_every_import_points_to_its_own_layer_or_below() -> None:
    assert upward(layout()) == []


def test_the_layering_check_sees_an_upward_import() -> None:
    """Not blind: with the layers upside down, the core's imports of the words are upward."""
    found = upward(layout()[::-1])
    assert "_core.py imports _words.py" in found
    assert ("_words.py", TOP) in set(imports(SRC / "_core.py"))


def test_the_layering_check_sees_imports_for_the_type_checker_and_relative_ones(
        tmp_path: Path) -> None:
    """Not blind: an import under ``if TYPE_CHECKING:`` and a relative import are seen,
    each with where it is made."""
    package = tmp_path / "formats"
    package.mkdir()
    probe = package / "probe.py"
    probe.write_text(
        "from typing import TYPE_CHECKING\n"
        "from ._base import Format\n"
        "if TYPE_CHECKING:\n"
        "    from toolhygiene._tool import Tool\n"
        "def f():\n"
        "    from .. import _words\n",
        encoding="utf-8",
    )
    seen = {(target, where) for target, where in _imports_of(probe, "formats/probe.py")}
    assert seen == {("formats/_base.py", TOP), ("_tool.py", TYPING), ("_words.py", FUNCTION)}


def graph() -> dict[str, set[str]]:
    """Each module and the modules it imports at module level (the imports that load it)."""
    return {
        name(path): {
            target for target, where in imports(path) if where == TOP and target != name(path)
        }
        for path in modules()
    }


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the modules on it (the first again at the end), or ``None``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_import_graph_has_no_cycle_within_a_layer_either() -> None:
    """The layering rule allows imports within a layer: none of them may close a cycle."""
    found = cycle(graph())
    assert found is None, "import cycle: " + " -> ".join(found or [])


def reached(edges: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` reaches through ``edges``."""
    seen: set[str] = set()
    todo = list(edges.get(start, ()))
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(edges.get(node, ()))
    return seen


SANS_IO = ("_call.py", "_core.py", "_retrying.py")
"""The core of decisions and what it decides over: on no import cycle, not even one the
type checker alone walks."""


@pytest.mark.parametrize("module", SANS_IO)
def test_the_core_is_on_no_cycle_with_the_imports_for_the_type_checker(module: str) -> None:
    """``_core`` and ``_loop`` both read ``Outcome`` from ``_call``, below them."""
    edges = {
        name(path): {
            target
            for target, where in imports(path)
            if where in (TOP, TYPING) and target != name(path)
        }
        for path in modules()
    }
    assert module not in reached(edges, module)


NO_IO = {
    "_observe.py": "events: the core notes them (``Note``), its shell emits them",
    "_log.py": "log records are written by the outputs, for the shell",
    "_telemetry.py": "spans and metrics are written by the outputs, for the shell",
    "_workers.py": "worker threads are the shell's",
    "threading": "threads and locks are the shell's (the ledger keeps its own counts)",
    "asyncio": "the event loop is the shell's",
    "concurrent": "futures are the shell's",
    "time": "the shell reads the clock and passes the time in",
    "_stores.py": "the store is asked by the shell; the core decides on its answers (``_answers``)",
}
"""What the core of decisions (``_core``) must not import, with whose it is instead."""


def io_imports(path: Path, module_name: str) -> list[str]:
    """Every import of ``path``, wherever it is made, of what ``NO_IO`` names."""
    found = [target for target, _ in _imports_of(path, module_name) if target in NO_IO]
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found += [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.append(node.module.split(".")[0])
    return sorted({f for f in found if f in NO_IO})


def test_the_core_of_decisions_imports_nothing_that_does_io() -> None:
    assert io_imports(SRC / "_core.py", "_core.py") == []


def test_the_io_check_sees_an_output_a_thread_and_a_clock(tmp_path: Path) -> None:
    """Not blind: an import of the events, of threading and of the clock, at module
    level or inside a function, is seen."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import threading\n"
        "from toolhygiene import _observe\n"
        "from toolhygiene._words import rounded\n"
        "def f():\n"
        "    import time\n"
        "    from toolhygiene._log import emit\n",
        encoding="utf-8",
    )
    assert io_imports(probe, "probe.py") == ["_log.py", "_observe.py", "threading", "time"]


def test_the_graph_sees_the_imports_that_load_a_module() -> None:
    """Not blind: real module-level imports are seen, those made only for the type
    checker or at first use are not."""
    edges = graph()
    assert "_core.py" in edges["_session.py"]
    assert "_session.py" not in edges["_loop.py"]  # TYPE_CHECKING only


@pytest.mark.parametrize(("edges", "expected"), [
    ({"a": {"b"}, "b": {"c"}, "c": set()}, None),
    ({"a": {"b"}, "b": {"a"}}, ["a", "b", "a"]),
    ({"a": {"b"}, "b": {"c"}, "c": {"b"}}, ["b", "c", "b"]),
])
def test_a_cycle_is_found_where_there_is_one(
        edges: dict[str, set[str]], expected: list[str] | None) -> None:
    assert cycle(edges) == expected
