"""The APIs' published rules for tool definitions, as a checker the tests run on every
definition toolhygiene builds.

Non-strict (both APIs): the name matches ``^[a-zA-Z0-9_-]{1,64}$``; the input schema is a
valid JSON Schema (draft 2020-12) whose root is ``type: object``.

Strict (OpenAI Structured Outputs for function calling; Anthropic strict tool use): the
root is an object and not an ``anyOf``; every object lists all its properties in
``required`` and has ``additionalProperties: false``; only the supported keywords appear
(OpenAI also keeps ``pattern``, ``format``, numeric bounds and ``minItems``/``maxItems``;
Anthropic keeps ``format`` and ``minItems`` of 0 or 1 only, and refuses recursive schemas);
``format`` values come from each API's list.
"""

from __future__ import annotations

import re
from typing import Any

import jsonschema

NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
STRUCTURE = {"type", "properties", "required", "additionalProperties", "items", "enum", "const",
             "anyOf", "$ref", "$defs", "description"}
KEPT = {
    "openai": {"pattern", "format", "minimum", "maximum", "exclusiveMinimum",
               "exclusiveMaximum", "multipleOf", "minItems", "maxItems"},
    "anthropic": {"format", "minItems"},
}
FORMATS = {
    "openai": {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6",
               "uuid"},
    "anthropic": {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4",
                  "ipv6", "uuid"},
}


def parts(definition: dict[str, Any], fmt: str) -> tuple[str, dict[str, Any], bool]:
    """(name, input schema, strict) of one definition in ``fmt``."""
    if fmt == "anthropic":
        return definition["name"], definition["input_schema"], bool(definition.get("strict"))
    if fmt == "openai_chat":
        fn = definition["function"]
        return fn["name"], fn["parameters"], bool(fn.get("strict"))
    return definition["name"], definition["parameters"], bool(definition["strict"])


def check_definition(definition: dict[str, Any], fmt: str) -> None:
    """Raise ``AssertionError`` where the API would reject ``definition``."""
    name, schema, strict = parts(definition, fmt)
    assert NAME.match(name), name
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema.get("type") == "object", schema
    if fmt == "openai_responses":
        assert isinstance(definition["strict"], bool)  # the API's default is strict
    if strict:
        api = "anthropic" if fmt == "anthropic" else "openai"
        assert "anyOf" not in schema
        check_strict(schema, api, schema.get("$defs", {}), "root")
        if api == "anthropic":
            assert not recursive(schema.get("$defs", {}))


def check_strict(node: Any, api: str, defs: dict[str, Any], where: str) -> None:
    assert isinstance(node, dict), where
    for key in node:
        assert key in STRUCTURE or key in KEPT[api], f"{where}: keyword {key!r} under {api}"
    if "format" in node:
        assert node["format"] in FORMATS[api], f"{where}: format {node['format']}"
    if api == "anthropic" and "minItems" in node:
        assert node["minItems"] in (0, 1), where
    if "$ref" in node:
        assert set(node) == {"$ref"}, f"{where}: $ref with siblings"
        return
    assert node.keys() & {"type", "anyOf", "enum", "const"}, f"{where}: accepts anything"
    if node.get("type") == "object" or "properties" in node:
        assert node.get("additionalProperties") is False, f"{where}: additionalProperties"
        assert sorted(node.get("required", [])) == sorted(node.get("properties", {})), \
            f"{where}: required"
        for key, sub in node.get("properties", {}).items():
            check_strict(sub, api, defs, f"{where}.{key}")
    if "items" in node:
        check_strict(node["items"], api, defs, f"{where}[]")
    for alt in node.get("anyOf", ()):
        check_strict(alt, api, defs, f"{where}|")
    for def_name, sub in node.get("$defs", {}).items():
        check_strict(sub, api, defs, def_name)


def _refs(node: Any) -> set[str]:
    """The names of the definitions ``node`` refers to directly."""
    if isinstance(node, list):
        return set().union(*(_refs(v) for v in node)) if node else set()
    if not isinstance(node, dict):
        return set()
    own = {node["$ref"].rsplit("/", 1)[-1]} if isinstance(node.get("$ref"), str) else set()
    return own.union(*(_refs(v) for v in node.values()))


def recursive(defs: dict[str, Any]) -> set[str]:
    """The definitions that can reach themselves through references."""
    edges = {name: _refs(sub) for name, sub in defs.items()}
    found = set()
    for start, targets in edges.items():
        frontier, seen = list(targets), set()
        while frontier:
            name = frontier.pop()
            if name == start:
                found.add(start)
                break
            if name not in seen:
                seen.add(name)
                frontier.extend(edges.get(name, ()))
    return found


def validates(schema: dict[str, Any], arguments: dict[str, Any]) -> bool:
    """Whether ``arguments`` satisfy ``schema`` (what a constrained model may send)."""
    return jsonschema.Draft202012Validator(schema).is_valid(arguments)
