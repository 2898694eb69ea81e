"""Strict mode: an argument schema rewritten for ``strict: true`` tool definitions under
one API's rules, and the model's strict-shaped arguments read back.

The rules every strict schema follows: every object lists every property in ``required``
and has ``additionalProperties: false``; an optional property becomes nullable (``null``
means its default). What each API adds, the keywords it keeps and whether a model may
contain itself, is its format adapter's ``StrictRules``: the keywords it does not keep
move into the description as words, so the model still reads them and validation still
enforces them. What strict mode cannot express at all (free-form values, mappings with
free keys, ``**kwargs``, tuples, and models that contain themselves where the API refuses
them) is a ``StrictError``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from toolhygiene._words import CONSTRAINTS, constraint, default_note
from toolhygiene.formats._base import StrictRules

__all__ = ["StrictError", "drop_default_nulls", "strict_schema"]

_MISSING = object()

_STRUCTURE = frozenset(
    {"type", "properties", "required", "additionalProperties", "items", "enum", "const"}
    | {"anyOf", "$ref", "$defs", "description"}
)
_REFUSED = {
    "not": "uses 'not'",
    "if": "uses if/then/else",
    "patternProperties": "is a mapping with free keys",
    "propertyNames": "is a mapping with free keys",
    "prefixItems": "is a tuple (fixed positions)",
    "dependentRequired": "uses dependentRequired",
    "dependentSchemas": "uses dependentSchemas",
    "unevaluatedProperties": "uses unevaluatedProperties",
}


class StrictError(ValueError):
    """A schema strict mode cannot express; the message names where and why."""


def strict_schema(schema: Mapping[str, Any], rules: StrictRules) -> dict[str, Any]:
    """``schema`` rewritten for ``strict: true`` under ``rules``.

    Raises:
        StrictError: naming the first place strict mode cannot express.
    """
    root = copy.deepcopy(dict(schema))
    defs: dict[str, Any] = root.pop("$defs", {})
    if not rules.recursive:
        for name, sub in defs.items():
            if _reaches(name, sub, defs, {name}):
                raise StrictError(
                    f"{name} contains itself, which {rules.owner}'s strict mode cannot express"
                )
    out = _node(root, "", defs, rules)
    if defs:
        out["$defs"] = {name: _node(sub, name, defs, rules) for name, sub in defs.items()}
    return out


def _reaches(target: str, node: Any, defs: Mapping[str, Any], seen: set[str]) -> bool:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = ref.rsplit("/", 1)[-1]
            if name == target:
                return True
            if name not in seen and name in defs:
                seen.add(name)
                if _reaches(target, defs[name], defs, seen):
                    return True
        return any(_reaches(target, v, defs, seen) for v in node.values())
    if isinstance(node, list):
        return any(_reaches(target, v, defs, seen) for v in node)
    return False


def _where(path: str) -> str:
    return f"'{path}'" if path else "the arguments"


def _node(
    node: dict[str, Any], path: str, defs: Mapping[str, Any], rules: StrictRules
) -> dict[str, Any]:
    node = dict(node)
    for keyword, why in _REFUSED.items():
        if keyword in node:
            raise StrictError(f"{_where(path)} {why}, which strict mode cannot express")
    ref = node.get("$ref")
    if isinstance(ref, str) and len(node) > 1:
        resolved = defs.get(ref.rsplit("/", 1)[-1], {})
        node = {**resolved, **{k: v for k, v in node.items() if k != "$ref"}}
    if "$ref" in node:
        return node
    if "oneOf" in node:  # pydantic's discriminated unions: the branches exclude each other
        node["anyOf"] = node.pop("oneOf")
        node.pop("discriminator", None)
    if "allOf" in node:
        parts = node.pop("allOf")
        if len(parts) != 1:
            raise StrictError(f"{_where(path)} uses allOf, which strict mode cannot express")
        node = {**parts[0], **node}
        return _node(node, path, defs, rules)
    if not node.keys() & {"type", "anyOf", "enum", "const"}:
        raise StrictError(
            f"{_where(path)} accepts any value, which strict mode cannot express: give it a type"
        )
    if node.get("type") == "object" or "properties" in node:
        _object(node, path, defs, rules)
    if isinstance(node.get("items"), dict):
        node["items"] = _node(node["items"], path + "[]", defs, rules)
    if "anyOf" in node:
        node["anyOf"] = [_node(alt, path, defs, rules) for alt in node["anyOf"]]
    _move_to_description(node, rules)
    return node


def _object(node: dict[str, Any], path: str, defs: Mapping[str, Any], rules: StrictRules) -> None:
    extra = node.get("additionalProperties")
    properties: dict[str, Any] = node.get("properties", {})
    if not path and extra is True:
        raise StrictError("takes **kwargs (any keyword), which strict mode cannot express")
    if extra not in (None, False) or (extra is None and not properties):
        raise StrictError(
            f"{_where(path)} is a mapping with free keys, which strict mode cannot express: "
            "use a model with named fields"
        )
    required = set(node.get("required", ()))
    rewritten = {}
    for key, sub in properties.items():
        inner = _node(sub, f"{path}.{key}" if path else key, defs, rules)
        if key not in required:
            inner = _nullable(inner, sub.get("default", _MISSING))
        rewritten[key] = inner
    node["properties"] = rewritten
    node["required"] = list(rewritten)
    node["additionalProperties"] = False


def _accepts_null(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    if None in node.get("enum", ()) or ("const" in node and node["const"] is None):
        return True
    return any(_accepts_null(alt) for alt in node.get("anyOf", ()) if isinstance(alt, Mapping))


def _nullable(node: dict[str, Any], default: Any) -> dict[str, Any]:
    if not _accepts_null(node):
        description = node.pop("description", None)
        node = {"anyOf": [node, {"type": "null"}]}
        if description:
            node["description"] = description
    if default is not _MISSING and default is not None:
        note = default_note(default)
        node["description"] = f"{node['description']} ({note})" if "description" in node else note
    return node


def _move_to_description(node: dict[str, Any], rules: StrictRules) -> None:
    words = []
    order = list(CONSTRAINTS)
    rank = {k: order.index(k) if k in CONSTRAINTS else len(order) for k in node}
    for keyword in sorted((k for k in node if k not in _STRUCTURE), key=rank.__getitem__):
        value = node.pop(keyword)
        if rules.keeps(keyword, value):
            node[keyword] = value
        else:
            said = constraint(keyword, value)
            if said:
                words.append(said)
    if words:
        said = "; ".join(words)
        node["description"] = f"{node['description']} ({said})" if "description" in node else said


def drop_default_nulls(
    arguments: dict[str, Any], schema: Mapping[str, Any], defs: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """``arguments`` without the ``null`` a strict schema sends for an optional property
    whose own type refuses ``null``, at every level: the default applies instead.
    Returns ``arguments`` itself when nothing changes."""
    if defs is None:
        defs = schema.get("$defs", {})
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return arguments
    required = schema.get("required", ())
    out = arguments
    for key, value in arguments.items():
        sub = _resolve(properties.get(key), defs)
        if sub is None:
            continue
        if value is None and key not in required and not _accepts_null(sub):
            new: Any = _MISSING
        elif isinstance(value, dict):
            new = drop_default_nulls(value, _object_branch(sub, defs, value), defs)
        elif isinstance(value, list) and isinstance(sub.get("items"), Mapping):
            items = _resolve(sub["items"], defs) or {}
            new = [
                drop_default_nulls(v, _object_branch(items, defs, v), defs)
                if isinstance(v, dict)
                else v
                for v in value
            ]
            new = value if all(a is b for a, b in zip(new, value, strict=True)) else new
        else:
            continue
        if new is not value:
            if out is arguments:
                out = dict(arguments)
            if new is _MISSING:
                del out[key]
            else:
                out[key] = new
    return out


def _resolve(node: Any, defs: Mapping[str, Any]) -> Mapping[str, Any] | None:
    if not isinstance(node, Mapping):
        return None
    ref = node.get("$ref")
    if isinstance(ref, str):
        return defs.get(ref.rsplit("/", 1)[-1])
    return node


def _object_branch(
    node: Mapping[str, Any], defs: Mapping[str, Any], value: Mapping[str, Any]
) -> Mapping[str, Any]:
    """The object alternative of ``node`` that ``value`` fits (itself, or in a union the
    first whose properties hold every key and whose constants match)."""
    if "properties" in node:
        return node
    for alt in (*node.get("anyOf", ()), *node.get("oneOf", ())):
        branch = _resolve(alt, defs)
        if branch is not None and _fits(value, branch):
            return branch
    return {}


def _fits(value: Mapping[str, Any], branch: Mapping[str, Any]) -> bool:
    properties = branch.get("properties")
    if not isinstance(properties, Mapping) or not set(value) <= set(properties):
        return False
    for key, sub in properties.items():
        fixed: Sequence[Any] = sub.get("enum", ()) if isinstance(sub, Mapping) else ()
        if isinstance(sub, Mapping) and "const" in sub:
            fixed = (sub["const"],)
        if len(fixed) == 1 and key in value and value[key] != fixed[0]:
            return False
    return True
