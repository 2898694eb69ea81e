"""``@tool``: a function with a name, a JSON schema of its arguments and call settings.

The decorated function still works when called directly; through a ``Session`` its
arguments are validated (pydantic) and its failures get hygiene.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, Literal, ParamSpec, TypeVar, get_type_hints, overload

import docstring_parser
import pydantic

from toolhygiene import _checks
from toolhygiene._exceptions import UsageError
from toolhygiene._words import schema_advice
from toolhygiene.errors import Category, ToolError
from toolhygiene.rules import Rule

__all__ = ["Tool", "as_tool", "tool"]

P = ParamSpec("P")
R = TypeVar("R")

Format = Literal["anthropic", "openai_chat", "openai_responses"]

_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def _parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """The description (text before any section) and each argument's description, from
    Google, NumPy, Sphinx or Epydoc docstrings."""
    if not doc:
        return "", {}
    parsed = docstring_parser.parse(doc)
    text = " ".join(p for p in (parsed.short_description, parsed.long_description) if p)
    params = {p.arg_name: " ".join((p.description or "").split()) for p in parsed.params}
    return " ".join(text.split()), params


def _strip_titles(node: Any, in_properties: bool = False) -> Any:
    if isinstance(node, dict):
        if not in_properties and isinstance(node.get("title"), str):
            del node["title"]
        for key, value in node.items():
            _strip_titles(value, key in ("properties", "$defs", "definitions"))
    elif isinstance(node, list):
        for item in node:
            _strip_titles(item)
    return node


def _describe_type(schema: Mapping[str, Any]) -> str:
    if "type" in schema:
        kind = schema["type"]
        return {
            "integer": "a whole number",
            "number": "a number",
            "string": "a string",
            "boolean": "true or false",
            "array": "a list",
            "object": "an object",
        }.get(str(kind), str(kind))
    if "enum" in schema:
        return "one of " + ", ".join(json.dumps(v) for v in schema["enum"])
    if "anyOf" in schema:
        return " or ".join(_describe_type(s) for s in schema["anyOf"] if isinstance(s, Mapping))
    return "a value"


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:39] + "…"


class Tool(Generic[P, R]):
    """A function prepared for a model: name, description, argument schema, settings.

    Calling the ``Tool`` calls the function unchanged.
    """

    def __init__(
        self,
        fn: Callable[P, R],
        *,
        name: str | None = None,
        description: str | None = None,
        max_failures: int | None = None,
        retries: int = 2,
        timeout: float | None = None,
        idempotent: bool = True,
        instead: str = "",
        rules: Iterable[Rule] = (),
        localns: Mapping[str, Any] | None = None,
    ) -> None:
        if not callable(fn):
            raise UsageError(f"@tool needs a function, got {type(fn).__name__}")
        self.fn = fn
        self.name: str = str(name or getattr(fn, "__name__", type(fn).__name__))
        if not _NAME.match(self.name):
            raise UsageError(
                f"tool name {self.name!r} must be 1-64 letters, digits, '_' or '-' (API rule)"
            )
        summary, param_docs = _parse_docstring(inspect.getdoc(fn))
        self.description = description if description is not None else summary
        if max_failures is not None:
            _checks.whole("max_failures", max_failures, 1)
        self.max_failures = max_failures
        self.retries = _checks.whole("retries", retries, 0)
        self.timeout = (
            None if timeout is None else _checks.seconds("timeout", timeout, positive=True)
        )
        self.idempotent = _checks.flag("idempotent", idempotent)
        self.instead = _checks.text("instead", instead)
        self.rules = _checks.rules("rules", rules)
        self.is_async = inspect.iscoroutinefunction(fn)
        self._model, self._positional, self._var_keyword = self._build_model(param_docs, localns)
        self._validator = self._model.__pydantic_validator__
        self.parameters: dict[str, Any] = _strip_titles(self._model.model_json_schema())
        self.parameters.setdefault("properties", {})
        functools.update_wrapper(self, fn)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<Tool {self.name}>"

    def _build_model(
        self, docs: Mapping[str, str], localns: Mapping[str, Any] | None
    ) -> tuple[type[pydantic.BaseModel], tuple[str, ...], bool]:
        try:
            signature = inspect.signature(self.fn)
            hints = _type_hints(self.fn, localns)
        except (TypeError, ValueError, NameError) as exc:
            raise UsageError(f"cannot read the signature of {self.name}: {exc}") from exc
        fields: dict[str, Any] = {}
        positional: list[str] = []
        var_keyword = False
        for param in signature.parameters.values():
            if param.kind is param.VAR_POSITIONAL:
                continue
            if param.kind is param.VAR_KEYWORD:
                var_keyword = True
                continue
            if param.kind is param.POSITIONAL_ONLY:
                positional.append(param.name)
            annotation = hints.get(param.name, Any)
            default = ... if param.default is param.empty else param.default
            fields[param.name] = (
                annotation,
                pydantic.Field(default=default, description=docs.get(param.name) or None),
            )
        config = pydantic.ConfigDict(
            extra="allow" if var_keyword else "forbid", arbitrary_types_allowed=True
        )
        model = pydantic.create_model(f"{self.name}_arguments", __config__=config, **fields)
        return model, tuple(positional), var_keyword

    def signature_text(self) -> str:
        """``city: a string, days: a whole number (optional)``: the arguments in words."""
        required = set(self.parameters.get("required", ()))
        parts = []
        for name, schema in self.parameters["properties"].items():
            optional = "" if name in required else " (optional)"
            parts.append(f"{name}: {_describe_type(schema)}{optional}")
        return ", ".join(parts) or "no arguments"

    def _bad_arguments(self, what: str) -> ToolError:
        return ToolError(
            what,
            retryable=False,
            category=Category.BAD_REQUEST,
            instead=schema_advice(self.name, self.signature_text()),
        )

    def validate(self, arguments: Mapping[str, Any] | str | bytes | None) -> dict[str, Any]:
        """The model's arguments (a dict or a JSON string) checked against the schema.

        Raises:
            ToolError: a ``bad_request`` naming the argument and what was expected, or
                where malformed JSON broke.
        """
        if type(arguments) is not dict:
            arguments = self._as_mapping(arguments)
        try:
            model = self._validator.validate_python(arguments)
        except pydantic.ValidationError as exc:
            raise self._bad_arguments(self._explain(exc)) from exc
        values: dict[str, Any] = model.__dict__  # the validated fields, by name
        if self._var_keyword and model.model_extra:
            values = {**values, **model.model_extra}
        return values

    def _as_mapping(self, arguments: Mapping[str, Any] | str | bytes | None) -> dict[str, Any]:
        if arguments is None or arguments in ("", b""):
            return {}
        if isinstance(arguments, (str, bytes, bytearray)):
            try:
                arguments = json.loads(arguments)
            except json.JSONDecodeError as exc:
                raise self._bad_arguments(
                    f"the arguments are not valid JSON: {exc.msg} at line {exc.lineno} "
                    f"column {exc.colno}"
                ) from exc
            except UnicodeDecodeError as exc:
                raise self._bad_arguments("the arguments are not valid UTF-8 JSON") from exc
        if not isinstance(arguments, Mapping):
            raise self._bad_arguments(
                f"the arguments must be a JSON object, got {type(arguments).__name__}"
            )
        return dict(arguments)

    def _explain(self, exc: pydantic.ValidationError) -> str:
        properties = self.parameters["properties"]
        problems = []
        for error in exc.errors(include_url=False):
            loc = ".".join(str(p) for p in error["loc"]) or "arguments"
            top = str(error["loc"][0]) if error["loc"] else ""
            kind = error["type"]
            if kind == "missing":
                expected = _describe_type(properties.get(top, {}))
                problems.append(f"missing required argument '{loc}' ({expected})")
            elif kind == "extra_forbidden":
                allowed = ", ".join(properties) or "none"
                problems.append(f"unexpected argument '{loc}' (allowed: {allowed})")
            else:
                msg = str(error["msg"]).replace("Input should be", "must be")
                msg = msg[:1].lower() + msg[1:]
                problems.append(f"argument '{loc}' {msg}, got {_shown(error.get('input'))}")
        return "; ".join(problems[:5]) + ("; …" if len(problems) > 5 else "")

    def invoke(self, values: Mapping[str, Any]) -> Any:
        """Call the function with validated values (positional-only ones by position)."""
        if not self._positional:
            return self.fn(**values)  # type: ignore[call-arg]
        args = [values[name] for name in self._positional if name in values]
        kwargs = {k: v for k, v in values.items() if k not in self._positional}
        return self.fn(*args, **kwargs)

    def schema(self, fmt: Format) -> dict[str, Any]:
        """This tool's definition in one API's format."""
        if fmt == "anthropic":
            return {
                "name": self.name,
                "description": self.description,
                "input_schema": self.parameters,
            }
        if fmt == "openai_chat":
            return {
                "type": "function",
                "function": {
                    "name": self.name,
                    "description": self.description,
                    "parameters": self.parameters,
                },
            }
        if fmt == "openai_responses":
            return {
                "type": "function",
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            }
        raise UsageError(
            f"unknown format {fmt!r}: use 'anthropic', 'openai_chat' or 'openai_responses'"
        )


def _type_hints(fn: Callable[..., Any], localns: Mapping[str, Any] | None) -> dict[str, Any]:
    target = fn if inspect.isfunction(fn) or inspect.ismethod(fn) else type(fn).__call__
    return get_type_hints(target, localns=dict(localns or {}), include_extras=True)


@overload
def tool(fn: Callable[P, R], /) -> Tool[P, R]: ...


@overload
def tool(
    *,
    name: str | None = None,
    description: str | None = None,
    max_failures: int | None = None,
    retries: int = 2,
    timeout: float | None = None,
    idempotent: bool = True,
    instead: str = "",
    rules: Iterable[Rule] = (),
) -> Callable[[Callable[P, R]], Tool[P, R]]: ...


def tool(
    fn: Callable[P, R] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    max_failures: int | None = None,
    retries: int = 2,
    timeout: float | None = None,
    idempotent: bool = True,
    instead: str = "",
    rules: Iterable[Rule] = (),
) -> Tool[P, R] | Callable[[Callable[P, R]], Tool[P, R]]:
    """Make a function a tool; usable bare (``@tool``) or with options.

    Args:
        name: the name the model calls (default: the function's name).
        description: what the model reads (default: the docstring's summary).
        max_failures: failures the model may see before the tool closes for the
            conversation (default: the session's).
        retries: local retries of transient failures, never seen by the model.
        timeout: seconds one attempt may take.
        idempotent: ``False`` for calls that must not run twice (payments, e-mails): those
            are retried locally only when the failure proves the call never ran.
        instead: what the model should do instead when this tool fails.
        rules: classification rules for this tool's own exceptions.
    """

    # The decorating scope's names resolve string annotations of classes defined there
    # (``from __future__ import annotations`` with a local pydantic model).
    scope = sys._getframe(1).f_locals

    def wrap(f: Callable[P, R]) -> Tool[P, R]:
        return Tool(
            f,
            name=name,
            description=description,
            max_failures=max_failures,
            retries=retries,
            timeout=timeout,
            idempotent=idempotent,
            instead=instead,
            rules=rules,
            localns=scope,
        )

    return wrap(fn) if fn is not None else wrap


def as_tool(obj: Tool[Any, Any] | Callable[..., Any]) -> Tool[Any, Any]:
    """A ``Tool`` as it is; a plain callable as a tool with default settings."""
    return obj if isinstance(obj, Tool) else Tool(obj)
