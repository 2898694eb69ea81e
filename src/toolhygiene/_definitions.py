"""What the model reads of a tool's definition, with its secrets redacted.

The model reads a tool's definition before anything else: its description (the
docstring's summary) and its arguments' schema, with each parameter's description, its
default and its examples. A default read from the environment at import time
(``api_key: str = os.environ["STRIPE_KEY"]``), a DSN with its password, a docstring that
quotes a key: each would reach the model in every turn. Here they are redacted as a
successful result is (secrets only: internal hosts and e-mail addresses a developer
wrote in a description stay), and a parameter's name labels its own default and examples
(``password: str = "v"``, whatever ``v`` looks like). Everything else stays byte for
byte: a text with no secret is returned as given, a schema with none is the same object.
``enum`` and ``const`` stay: they are the values the model must send, and a tool that
takes a secret as a fixed value cannot be called without it.

Redaction follows the rules in force when the definition is rendered, so a rule added
with ``th.add_redaction`` after ``@th.tool`` applies.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from toolhygiene._labels import credential_shaped, is_secret_label
from toolhygiene._words import placeholder

__all__ = ["shown_data", "shown_key", "shown_schema", "shown_text"]

_TEXT_KEYS = frozenset(["description", "title"])
"""A schema's keywords holding text the model reads."""
_DATA_KEYS = frozenset(["default", "examples", "example"])
"""A schema's keywords holding values the model reads as examples of what to send."""
_SCHEMA_MAPS = frozenset(["properties", "$defs", "definitions", "patternProperties"])
"""Keywords whose value maps names (a parameter's, a model's) to schemas."""
_SCHEMA_LISTS = frozenset(["anyOf", "oneOf", "allOf", "prefixItems"])
_SCHEMA_ONE = frozenset(["items", "additionalProperties", "not", "if", "then", "else"])
_DEPTH = 64
"""Schema levels walked, at most (pydantic's schemas are shallow; ``$defs`` are flat)."""


def shown_key() -> tuple[object, ...]:
    """What redaction here depends on besides the text: the user's rules and allowed
    values, and the secrets known from the environment (a rendered schema is kept
    while it stays the same)."""
    from toolhygiene import _known, _registry

    return (_registry.state(), _known.current())


def shown_text(text: str) -> str:
    """``text`` with its secrets redacted; ``text`` itself when it holds none."""
    if not isinstance(text, str) or len(text) < 8:
        return text
    from toolhygiene._engine import scrub
    from toolhygiene._normalise import normalise

    normalised = normalise(text)
    scrubbed = scrub(normalised, internals=False)
    return text if scrubbed is normalised else scrubbed


def _labelled(name: str, value: Any) -> Any:
    """``value`` (a parameter's default or example) as the model may read it under the
    parameter's ``name``: redacted as ``{name: value}`` in JSON is."""
    if isinstance(value, (list, tuple)):
        # each item as the parameter's own value: ``auth=["bob", "pw"]``,
        # ``api_keys=["k1", "k2"]``, a list of pairs
        from toolhygiene._detectors import PAIR_KEY

        # under a name for a user-and-password pair (``auth``, ``credentials``) the first
        # string is the user and stays unless it reads as a credential (as in a result)
        user = bool(value) and isinstance(value[0], str) and PAIR_KEY.search(name) is not None
        if user and credential_shaped(value[0]):
            user = False
        items = [
            item if user and at == 0 else _labelled(name, item) for at, item in enumerate(value)
        ]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return items
    if isinstance(value, dict):
        # its keys label their values (``{"password": v}``); under a parameter named as
        # a secret (``creds``, ``secret``) every value is one, whatever its key
        shown = _data(value, 0)
        if is_secret_label(name) is not True:
            return shown
        out = {key: _labelled(name, item) for key, item in shown.items()}
        return shown if all(out[k] is v for k, v in shown.items()) else out
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return _data(value, 0)
    text = json.dumps({name: value}, ensure_ascii=False)
    shown = shown_text(text)
    if shown is text:
        return value
    try:
        back = json.loads(shown)
    except ValueError:
        return placeholder("secret")  # a number's placeholder, written unquoted
    if isinstance(back, dict) and len(back) == 1:
        return next(iter(back.values()))
    return placeholder("secret")


def shown_data(value: Any) -> Any:
    """Data the model reads as an example (a tool's ``input_examples``): its strings
    redacted, a key naming a secret labelling its value; ``value`` itself when nothing
    in it changed."""
    return _data(value, 0)


def _data(value: Any, depth: int) -> Any:
    """A default or an example: its strings redacted, a key naming a secret labelling
    its value; ``value`` itself when nothing in it changed."""
    if isinstance(value, str):
        return shown_text(value)
    if depth > _DEPTH:
        return value
    if isinstance(value, list):
        items = [_data(v, depth + 1) for v in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    if isinstance(value, dict):
        changed = False
        out: dict[Any, Any] = {}
        for key, item in value.items():
            new = _labelled(key, item) if isinstance(key, str) else _data(item, depth + 1)
            changed = changed or new is not item
            out[key] = new
        return out if changed else value
    return value


def shown_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The arguments' JSON schema with the secrets in its descriptions, defaults and
    examples redacted; ``schema`` itself when it holds none."""
    shown = _schema(schema, None, 0)
    return shown if isinstance(shown, dict) else schema


def _schema(node: Any, name: str | None, depth: int) -> Any:
    """One schema node (of the parameter ``name`` when a ``properties`` entry)."""
    if not isinstance(node, Mapping) or depth > _DEPTH:
        return node
    out: dict[str, Any] = {}
    changed = False
    for key, value in node.items():
        new = value
        if key in _TEXT_KEYS and isinstance(value, str):
            new = shown_text(value)
        elif key in _DATA_KEYS:
            if name is None:
                new = _data(value, depth)
            elif key == "examples" and isinstance(value, list):
                items = [_labelled(name, v) for v in value]
                same = all(a is b for a, b in zip(items, value, strict=True))
                new = value if same else items
            else:
                new = _labelled(name, value)
        elif key in _SCHEMA_MAPS and isinstance(value, Mapping):
            members = {
                k: _schema(v, k if key == "properties" else None, depth + 1)
                for k, v in value.items()
            }
            if any(members[k] is not v for k, v in value.items()):
                new = members
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            branches = [_schema(v, name, depth + 1) for v in value]
            if any(a is not b for a, b in zip(branches, value, strict=True)):
                new = branches
        elif key in _SCHEMA_ONE:
            new = _schema(value, None, depth + 1)
        changed = changed or new is not value
        out[key] = new
    return out if changed else node
