"""``@tool``: a function with a name, a JSON schema of its arguments and call settings.

The decorated function still works when called directly; through a ``Session`` its
arguments are validated (pydantic) and its failures get hygiene.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import json
import math
import re
import sys
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    NoReturn,
    ParamSpec,
    TypeVar,
    get_args,
    overload,
)

from toolhygiene import _checks
from toolhygiene._arguments import Arguments, build_arguments
from toolhygiene._callee import callee_of, parse_docstring
from toolhygiene._config import check_result_cap
from toolhygiene._definitions import shown_data, shown_key, shown_schema, shown_text
from toolhygiene._errors import Category, ToolError
from toolhygiene._exceptions import UsageError
from toolhygiene._rules import Rule
from toolhygiene._strict import StrictError, drop_default_nulls, strict_schema
from toolhygiene._text import bounded_repr
from toolhygiene._words import (
    ARGUMENTS_NOT_UTF8,
    NESTED_TOO_DEEP,
    argument_path,
    arguments_not_json,
    arguments_not_object,
    missing_argument,
    not_finite_argument,
    schema_advice,
    signature,
    type_words,
    unexpected_argument,
    wrong_argument,
)
from toolhygiene.formats import Format, adapter
from toolhygiene.formats._base import Definition, StrictRules

if TYPE_CHECKING:  # imported when a tool's schema is built, not with toolhygiene
    import pydantic

__all__ = ["Tool", "as_tool", "definitions", "tool"]

P = ParamSpec("P")
R = TypeVar("R")

_STRICT_RULES: dict[str, StrictRules] = {
    rules.name: rules for rules in (adapter(fmt).strict_rules for fmt in get_args(Format))
}
"""Every set of strict-mode rules some format's definitions follow, by name."""


def _strict_rules(api: str) -> StrictRules:
    """The strict-mode rules named ``api``, or those of the format named ``api``."""
    if api in _STRICT_RULES:
        return _STRICT_RULES[api]
    if api in get_args(Format):
        return adapter(api).strict_rules
    raise UsageError(
        f"unknown strict-mode rules {api!r}: use {', '.join(map(repr, _STRICT_RULES))} "
        "or a format's name"
    )


_SCALARS = frozenset({str, int, bool})
"""Argument types that hold neither a NaN nor a ``null`` standing for a default."""
_NOT_PLAIN = ("null", "NaN", "Infinity")
"""JSON text holding none of these has no ``null`` for a default nor a non-finite number."""

_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # fullmatch: "$" would let a final "\n" by


def _shown(value: Any) -> str:
    if isinstance(value, str):
        value = value[:40]
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (ValueError, TypeError, RecursionError):  # circular, or nested past the stack
        text = bounded_repr(value, 40)
    return text if len(text) <= 40 else text[:39] + "…"


def _optional(check: _checks.Check) -> _checks.Check:
    return lambda name, value: None if value is None else check(name, value)


def _upstream(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 64:
        raise UsageError(f"{name} must be a name of 1-64 characters, got {value!r}")
    return value


def _name(_name: str, value: Any) -> str:
    if not isinstance(value, str) or not _NAME.fullmatch(value):
        raise UsageError(f"tool name {value!r} must be 1-64 letters, digits, '_' or '-' (API rule)")
    return value


def _function(name: str, value: Any) -> Callable[..., Any]:
    if not callable(value):
        raise UsageError(f"{name} must be a callable, got {value!r}")
    return value  # type: ignore[no-any-return]


_SETTINGS: dict[str, _checks.Check] = {
    "name": _name,
    "description": _checks.text,
    "max_failures": _optional(lambda name, value: _checks.whole(name, value, 1)),
    "retries": lambda name, value: _checks.whole(name, value, 0),
    "timeout": _optional(lambda name, value: _checks.seconds(name, value, positive=True)),
    "idempotent": _checks.flag,
    "instead": _checks.text,
    "rules": _checks.rules,
    "untrusted": _checks.flag,
    "redact_results": _checks.flag,
    "result_cap": lambda _name, value: check_result_cap(value),
    "upstream": _optional(_upstream),
    "strict": _optional(_checks.flag),
    "input_examples": _optional(_checks.examples),
    "defer_loading": _optional(_checks.flag),
    "cache_control": _optional(_checks.cache_control),
    "fn": _function,
    "is_async": _checks.flag,
}
"""A tool's settings and their checks: one home for the constructor and later changes."""

_BUILT_ON = frozenset({"name", "fn", "is_async"})
"""What a tool is built on, refused once set: a Session finds its tools by the name it was
given them under, and the schema, the binding and the shells follow the function."""


class Tool(_checks.Checked, Generic[P, R]):
    """A function prepared for a model: name, description, argument schema, settings.

    Calling the ``Tool`` calls the function unchanged. On a method it binds like one
    (``instance.method`` is a ``Tool`` of the bound method; ``self``/``cls`` are never
    in the schema). Annotations are read at decoration time, or at first use when they
    name a class defined later in the module.

    ``reads_payloads``: whether a failure payload the function returns (another agent's
    failure, passed on) makes the call a failure; ``False`` for a tool whose protocol
    says itself whether a call failed (an MCP tool: its ``isError`` decides).
    """

    reads_payloads: ClassVar[bool] = True
    _CHECKS: ClassVar[Mapping[str, _checks.Check]] = _SETTINGS
    _FIXED: ClassVar[frozenset[str]] = _BUILT_ON
    _KIND: ClassVar[str] = "tool"

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
        strict: bool | None = None,
        input_examples: Iterable[Mapping[str, Any]] | None = None,
        defer_loading: bool | None = None,
        cache_control: Mapping[str, Any] | None = None,
        untrusted: bool = False,
        redact_results: bool = True,
        result_cap: int | None = None,
        upstream: str | None = None,
    ) -> None:
        try:
            self._callee = callee_of(fn)
        except TypeError as exc:
            raise UsageError(f"@tool needs a function: {exc}") from exc
        if localns is not None and not isinstance(localns, Mapping):
            raise UsageError(f"localns must be a mapping of names, got {localns!r}")
        self.fn: Callable[P, R] = self._callee.fn
        if name is None and not _NAME.fullmatch(self._callee.name):
            raise UsageError(
                f"tool name {self._callee.name!r} (the function's) must be 1-64 letters, "
                "digits, '_' or '-' (API rule): give one with @th.tool(name=...)"
            )
        self.name: str = name if name is not None else self._callee.name
        summary, self._param_docs = parse_docstring(*self._callee.docs)
        self.description = description if description is not None else summary
        self.max_failures = max_failures
        self.retries = retries
        self.timeout = timeout
        self.idempotent = idempotent
        self.instead = instead
        self.rules = rules
        self.untrusted = untrusted
        self.redact_results = redact_results
        self.result_cap = result_cap
        self.upstream = upstream
        self.strict = strict
        self.input_examples = input_examples
        self.defer_loading = defer_loading
        self.cache_control = cache_control
        self.is_async = self._callee.is_async
        self._localns = localns
        self._arguments: Arguments | None = None
        self._strict: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
        self._shown: tuple[object, dict[str, Any], dict[str, Any]] | None = None
        self._shown_text: tuple[object, str, str] | None = None
        functools.update_wrapper(self, self._callee.docs[0], updated=())
        self.__wrapped__ = fn
        with contextlib.suppress(NameError):  # a class defined later: resolved at first use
            self._build()

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self.fn(*args, **kwargs)

    def _refuse_change(self, name: str, value: Any) -> NoReturn:
        if name == "name":
            raise UsageError(
                "name cannot change once the tool is made (a Session finds its tools by "
                "name): give it as @th.tool(name=...)"
            )
        if name == "fn":
            raise UsageError("fn cannot change once the tool is made: decorate the other function")
        raise UsageError(f"{name} cannot change: it is read from the function")

    def _checked(self, name: str, value: Any) -> Any:
        """``strict`` and ``input_examples`` set after the schema is built are checked
        against the signature, as the constructor checks them."""
        arguments = self.__dict__.get("_arguments")
        if arguments is not None:
            if name == "strict" and value:
                for rules in _STRICT_RULES.values():
                    self.strict_parameters(rules)
            elif name == "input_examples":
                for number, example in enumerate(value or (), 1):
                    self._check_example(arguments, number, example)
        return value

    def __get__(self, instance: Any, owner: type | None = None) -> Tool[..., R]:
        kind = self._callee.kind
        if kind == "function" or (kind == "method" and instance is None):
            return self
        target = instance if kind == "method" else (owner or type(instance))
        bound: Tool[..., R] = copy.copy(self)
        method = types.MethodType(self._callee.fn, target)
        object.__setattr__(bound, "fn", method)  # the one place ``fn`` may change: a copy
        bound._callee = dataclasses.replace(self._callee, fn=method, kind="function")
        return bound

    def __repr__(self) -> str:
        return f"<Tool {self.name}>"

    @property
    def needs_binding(self) -> bool:
        """A method taken from its class: it has no instance to run on yet."""
        return self._callee.kind != "function"

    def _build(self) -> Arguments:
        if self._arguments is None:
            try:
                arguments = build_arguments(
                    self._callee, self._param_docs, self._localns, self.name
                )
            except (TypeError, ValueError) as exc:  # ValueError: no signature (``int``)
                raise UsageError(f"cannot build the argument schema of {self.name}: {exc}") from exc
            self._arguments = arguments
            if self.strict:
                for rules in _STRICT_RULES.values():
                    self.strict_parameters(rules)
            for number, example in enumerate(self.input_examples or (), 1):
                self._check_example(arguments, number, example)
        return self._arguments

    def _check_example(self, arguments: Arguments, number: int, example: Mapping[str, Any]) -> None:
        import pydantic

        try:
            arguments.model.model_validate(example)
        except pydantic.ValidationError as exc:
            raise UsageError(
                f"input example {number} of {self.name} does not match its arguments: "
                f"{self._explain(exc)}"
            ) from exc

    def _ready(self) -> Arguments:
        try:
            return self._build()
        except NameError as exc:
            raise UsageError(f"cannot resolve the annotations of {self.name}: {exc}") from exc

    @property
    def parameters(self) -> dict[str, Any]:
        """The JSON schema of the arguments (what a non-strict definition carries), the
        secrets in its descriptions, defaults and examples redacted (``_definitions``:
        the model reads them)."""
        raw = self._ready().schema
        key = shown_key()
        shown = self._shown
        if shown is None or shown[1] is not raw or shown[0] != key:
            shown = self._shown = (key, raw, shown_schema(raw))
        return shown[2]

    def _shown_description(self) -> str:
        """The description as the model reads it (``_definitions.shown_text``), kept while
        neither it nor what redaction depends on changes."""
        key, description = shown_key(), self.description
        shown = self._shown_text
        if shown is None or shown[1] is not description or shown[0] != key:
            shown = self._shown_text = (key, description, shown_text(description))
        return shown[2]

    def strict_parameters(self, api: str | StrictRules) -> dict[str, Any]:
        """The arguments' schema under ``api``'s strict-mode rules (``"anthropic"`` or
        ``"openai"``, a format's name, or an adapter's ``strict_rules``).

        Raises:
            UsageError: the signature has something strict mode cannot express, or
                ``api`` names no rules.
        """
        rules = api if isinstance(api, StrictRules) else _strict_rules(api)
        parameters = self.parameters
        if rules.name not in self._strict or self._strict[rules.name][0] is not parameters:
            try:
                self._strict[rules.name] = (parameters, strict_schema(parameters, rules))
            except StrictError as exc:
                raise UsageError(
                    f"{self.name} cannot be strict: {exc} (or give it @tool(strict=False))"
                ) from exc
        return self._strict[rules.name][1]

    def signature_text(self) -> str:
        """``city: a string, days: a whole number (optional)``: the arguments in words."""
        return signature(self.parameters)

    def _bad_arguments(self, what: str) -> ToolError:
        error = ToolError(
            what,
            retryable=False,
            category=Category.BAD_REQUEST,
            instead=schema_advice(self.name, self.signature_text()),
        )
        error._own_advice = True  # names and types, never redacted: see _errors.advice
        return error

    def validate(self, arguments: Mapping[str, Any] | str | bytes | None) -> dict[str, Any]:
        """The model's arguments (a dict or a JSON string) checked against the schema.

        Raises:
            ToolError: a ``bad_request`` naming the argument and what was expected, or
                where malformed JSON broke.
        """
        ready = self._arguments or self._ready()
        validator = ready.model.__pydantic_validator__
        if type(arguments) is str and not any(word in arguments for word in _NOT_PLAIN):
            # The JSON validated in one pass (OpenAI's arguments); when pydantic refuses
            # it, the two-step path below says why in the words the model reads.
            try:
                return self._values(validator.validate_json(arguments), ready)
            except ValueError:
                pass
        if type(arguments) is not dict:
            arguments = self._as_mapping(arguments)
        for value in arguments.values():
            kind = type(value)
            if kind in _SCALARS or (kind is float and math.isfinite(value)):
                continue  # most arguments: nothing to walk
            try:
                arguments = self._nulls_and_numbers(arguments, ready)
            except RecursionError as exc:
                raise self._bad_arguments(NESTED_TOO_DEEP) from exc
            break
        try:
            model = validator.validate_python(arguments)
        except ValueError as exc:  # pydantic's ValidationError is a ValueError
            import pydantic  # already imported with the model: on the failure path only

            if not isinstance(exc, pydantic.ValidationError):
                raise
            raise self._bad_arguments(self._explain(exc)) from exc
        return self._values(model, ready)

    @staticmethod
    def _values(model: pydantic.BaseModel, ready: Arguments) -> dict[str, Any]:
        values: dict[str, Any] = model.__dict__  # the validated fields, by name
        if ready.var_keyword and model.model_extra:
            values = {**values, **model.model_extra}
        return values

    def _nulls_and_numbers(self, arguments: dict[str, Any], ready: Arguments) -> dict[str, Any]:
        """``null`` as the default where it stands for one; NaN and infinity refused."""
        arguments = drop_default_nulls(arguments, ready.schema)
        where = _non_finite(arguments, "")
        if where is not None:
            raise self._bad_arguments(not_finite_argument(where))
        return arguments

    def _as_mapping(self, arguments: Mapping[str, Any] | str | bytes | None) -> dict[str, Any]:
        if arguments is None or arguments in ("", b""):
            return {}
        if isinstance(arguments, (str, bytes, bytearray)):
            try:
                arguments = json.loads(arguments)
            except json.JSONDecodeError as exc:
                raise self._bad_arguments(
                    arguments_not_json(exc.msg, exc.lineno, exc.colno)
                ) from exc
            except UnicodeDecodeError as exc:
                raise self._bad_arguments(ARGUMENTS_NOT_UTF8) from exc
            except RecursionError as exc:
                raise self._bad_arguments(NESTED_TOO_DEEP) from exc
        if not isinstance(arguments, Mapping):
            raise self._bad_arguments(arguments_not_object(type(arguments).__name__))
        return dict(arguments)

    def _explain(self, exc: pydantic.ValidationError) -> str:
        defs = self.parameters.get("$defs", {})
        problems = []
        for error in exc.errors(include_url=False):
            loc = argument_path(error["loc"])
            kind = error["type"]
            if kind == "missing":
                expected = type_words(_node_at(self.parameters, defs, error["loc"]) or {}, defs)
                problems.append(missing_argument(loc, expected))
            elif kind == "extra_forbidden":
                allowed = _keys_at(self.parameters, defs, error["loc"][:-1])
                problems.append(unexpected_argument(loc, allowed))
            else:
                problems.append(wrong_argument(loc, str(error["msg"]), _shown(error.get("input"))))
        return "; ".join(problems[:5]) + ("; …" if len(problems) > 5 else "")

    def invoke(self, values: Mapping[str, Any]) -> Any:
        """Call the function with validated values (positional-only ones, those before a
        ``*args``, and the ``*args`` array itself by position)."""
        ready = self._arguments or self._ready()
        positional, star = ready.positional, ready.var_positional
        if not positional and star is None:
            return self.fn(**values)  # type: ignore[call-arg]
        args = [values[name] for name in positional if name in values]
        if star is not None:
            args.extend(values.get(star, ()))
        kwargs = {k: v for k, v in values.items() if k not in positional and k != star}
        return self.fn(*args, **kwargs)

    def parameters_for(self, fmt: Format, *, strict: bool | None = None) -> dict[str, Any]:
        """The JSON Schema of the arguments exactly as ``schema(fmt, strict=strict)`` sends
        it, without the API's envelope: rewritten under ``fmt``'s strict-mode rules when
        the definition is strict (the tool says so, else ``strict`` asks), else
        ``parameters``. For frameworks that wrap the schema in a tool type of their own.

        Raises:
            UsageError: the definition is strict and the signature has something strict
                mode cannot express.
        """
        to = adapter(fmt)
        use_strict = self.strict if self.strict is not None else bool(strict)
        return self.strict_parameters(to.strict_rules) if use_strict else self.parameters

    def schema(self, fmt: Format, *, strict: bool | None = None) -> dict[str, Any]:
        """This tool's definition in one API's format; strict when the tool says so, else
        when ``strict`` asks."""
        to = adapter(fmt)
        use_strict = self.strict if self.strict is not None else bool(strict)
        parameters = self.parameters_for(fmt, strict=use_strict)
        options = {
            "input_examples": (
                None if self.input_examples is None else shown_data(list(self.input_examples))
            ),
            "defer_loading": self.defer_loading,
            "cache_control": self.cache_control,
        }
        return to.definition(
            Definition(self.name, self._shown_description(), parameters, use_strict, options)
        )


def definitions(
    tools: Iterable[Tool[Any, Any]],
    fmt: Format,
    *,
    strict: bool | None = None,
    cache_control: Mapping[str, Any] | bool | None = None,
) -> list[dict[str, Any]]:
    """The definitions of ``tools`` for one API, with a prompt-cache breakpoint where
    ``cache_control`` asks and the API has one (its adapter places it)."""
    out = [t.schema(fmt, strict=strict) for t in tools]
    return adapter(fmt).cached(out, cache_control) if cache_control else out


def _node_at(schema: Mapping[str, Any], defs: Mapping[str, Any], loc: Sequence[Any]) -> Any:
    """The schema of the value at ``loc`` (through ``$ref``, ``Optional`` and list items);
    ``None`` when the schema does not tell it (a union whose branch is unknown, free keys)."""
    node: Any = schema
    for step in (*loc, None):
        while isinstance(node, Mapping) and "$ref" in node:
            node = defs.get(str(node["$ref"]).rsplit("/", 1)[-1], {})
        if not isinstance(node, Mapping):
            return None
        options = [o for o in node.get("anyOf", ()) if o != {"type": "null"}]
        if len(options) == 1 and step is not None:  # Optional[X]: X
            node = options[0]
            while isinstance(node, Mapping) and "$ref" in node:
                node = defs.get(str(node["$ref"]).rsplit("/", 1)[-1], {})
        if step is None or not isinstance(node, Mapping):
            return node
        node = (
            node.get("items") if isinstance(step, int) else (node.get("properties") or {}).get(step)
        )
    return None


def _keys_at(
    schema: Mapping[str, Any], defs: Mapping[str, Any], loc: Sequence[Any]
) -> list[str] | None:
    """The property names of the object at ``loc`` (``None`` when the schema does not tell
    them)."""
    node = _node_at(schema, defs, loc)
    options = (
        [o for o in node.get("anyOf", ()) if o != {"type": "null"}]
        if isinstance(node, Mapping)
        else []
    )
    if len(options) == 1:
        node = _node_at(options[0], defs, ())
    properties = node.get("properties") if isinstance(node, Mapping) else None
    return list(properties) if isinstance(properties, Mapping) else None


def _non_finite(value: Any, path: str) -> str | None:
    """Where ``value`` holds NaN or infinity (``None`` when it holds neither)."""
    if type(value) is float:
        return None if math.isfinite(value) else path or "arguments"
    if isinstance(value, dict):
        for key, item in value.items():
            found = _non_finite(item, f"{path}.{key}" if path else str(key))
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _non_finite(item, f"{path}[{index}]")
            if found is not None:
                return found
    return None


@overload
def tool(
    fn: Callable[P, R],
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
    strict: bool | None = None,
    input_examples: Iterable[Mapping[str, Any]] | None = None,
    defer_loading: bool | None = None,
    cache_control: Mapping[str, Any] | None = None,
    untrusted: bool = False,
    redact_results: bool = True,
    result_cap: int | None = None,
    upstream: str | None = None,
) -> Tool[P, R]: ...


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
    strict: bool | None = None,
    input_examples: Iterable[Mapping[str, Any]] | None = None,
    defer_loading: bool | None = None,
    cache_control: Mapping[str, Any] | None = None,
    untrusted: bool = False,
    redact_results: bool = True,
    result_cap: int | None = None,
    upstream: str | None = None,
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
    strict: bool | None = None,
    input_examples: Iterable[Mapping[str, Any]] | None = None,
    defer_loading: bool | None = None,
    cache_control: Mapping[str, Any] | None = None,
    untrusted: bool = False,
    redact_results: bool = True,
    result_cap: int | None = None,
    upstream: str | None = None,
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
        strict: ``True``: always a strict definition (its signature is checked now);
            ``False``: never; ``None``: as ``Session.schemas(fmt, strict=...)`` asks.
        input_examples: example arguments (Anthropic ``input_examples``), each checked
            against the signature.
        defer_loading: Anthropic and OpenAI Responses ``defer_loading`` (tool search).
        cache_control: Anthropic ``cache_control`` on this definition.
        untrusted: the tool brings in outside text (web pages, e-mails, documents,
            search results): instruction-like markup in its results is neutralised.
        redact_results: secrets in successful results are redacted (the default);
            ``False`` for a tool whose results are credentials the model must relay.
        result_cap: most characters of one successful result the model sees (default:
            the session's, else ``configure(result_cap=...)``, 20,000).
        upstream: the service behind the tool (``"inventory service"``), named in what
            the model reads: its breaker is shared by every conversation (and, with a
            ``RedisStore``, every worker). Transient failures in a row (connectivity,
            5xx, 429) open it; calls are then refused without running until one caller
            probes it and it answers. Tools naming one upstream share its breaker.
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
            strict=strict,
            input_examples=input_examples,
            defer_loading=defer_loading,
            cache_control=cache_control,
            untrusted=untrusted,
            redact_results=redact_results,
            result_cap=result_cap,
            upstream=upstream,
        )

    return wrap(fn) if fn is not None else wrap


def as_tool(obj: Tool[Any, Any] | Callable[..., Any]) -> Tool[Any, Any]:
    """A ``Tool`` as it is; a plain callable as a tool with default settings."""
    found = obj if isinstance(obj, Tool) else Tool(obj)
    if found.needs_binding:
        raise UsageError(
            f"{found.name} is a method taken from its class: give the Session the method of "
            f"an instance (instance.{found.name})"
        )
    found._ready()  # annotations that never resolve: a UsageError now, never a model line
    return found
