"""A callable's arguments as a pydantic model and its JSON schema: every description and
constraint kept (``Annotated[..., Field(...)]``, ``x: int = Field(...)``, the docstring's
argument docs, which an explicit ``Field`` description overrides)."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, get_args, get_origin, get_type_hints

from toolhygiene._callee import Callee
from toolhygiene._typeddict import readable

if TYPE_CHECKING:  # imported where a tool's schema is built, not with toolhygiene
    import pydantic

__all__ = ["Arguments", "build_arguments"]


@dataclass(frozen=True, slots=True)
class Arguments:
    """The validating model, the JSON schema the model reads, and how to call."""

    model: type[pydantic.BaseModel]
    schema: dict[str, Any]
    positional: tuple[str, ...]
    var_keyword: bool
    var_positional: str | None = None
    """The ``*args`` parameter, an array argument of that name passed by position."""


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


_GENERATOR: Any = None


def _generator() -> Any:
    """pydantic's JSON schema generator, but a ``TypedDict`` whose validation refuses
    extra keys says so (``additionalProperties: false``) at every pydantic toolhygiene
    supports: pydantic 2.10 and 2.11 leave it out while their validators refuse the keys,
    so the schema the model read allowed what the call then refused (later versions write
    it themselves: then nothing changes). Made once, at the first tool's schema."""
    global _GENERATOR
    if _GENERATOR is None:
        from pydantic.json_schema import GenerateJsonSchema

        class Generator(GenerateJsonSchema):
            def typed_dict_schema(self, schema: Any) -> Any:
                json_schema = super().typed_dict_schema(schema)
                extra = schema.get("extra_behavior") or (schema.get("config") or {}).get(
                    "extra_fields_behavior"
                )
                if extra == "forbid" and "additionalProperties" not in json_schema:
                    json_schema["additionalProperties"] = False
                return json_schema

        _GENERATOR = Generator
    return _GENERATOR


def _with_doc(annotation: Any, doc: str | None) -> Any:
    """``annotation`` with the docstring's description first, so that a description in
    ``Annotated`` metadata or a ``Field`` default overrides it."""
    if not doc:
        return annotation
    import pydantic

    described = pydantic.Field(description=doc)
    if get_origin(annotation) is Annotated:
        base, *meta = get_args(annotation)
        parts = (base, described, *meta)
        return Annotated[parts]
    return Annotated[annotation, described]


def _hints(callee: Callee, localns: Mapping[str, Any] | None) -> dict[str, Any]:
    return get_type_hints(callee.annotated, localns=dict(localns or {}), include_extras=True)


def build_arguments(
    callee: Callee, docs: Mapping[str, str], localns: Mapping[str, Any] | None, name: str
) -> Arguments:
    """The arguments model of ``callee``.

    Raises:
        NameError: an annotation names something not defined yet (retried at first use).
        TypeError: the signature cannot be read or has no JSON schema; the message says
            which argument and why.
    """
    import pydantic

    try:
        signature = inspect.signature(callee.fn)
    except ValueError as exc:  # a builtin (``int``) whose signature Python cannot read
        raise TypeError(f"{exc}: @tool needs a function written in Python") from exc
    hints = _hints(callee, localns)
    fields: dict[str, Any] = {}
    positional: list[str] = []
    var_keyword = False
    var_positional: str | None = None
    params = [p for p in signature.parameters.values() if p.name not in callee.hidden]
    # Before a ``*args``, every parameter must go by position, or ``*args`` cannot be passed.
    before_star = next((i for i, p in enumerate(params) if p.kind is p.VAR_POSITIONAL), 0)
    for at, param in enumerate(params):
        if param.kind is param.VAR_KEYWORD:
            var_keyword = True
            continue
        if param.kind is param.POSITIONAL_ONLY or at < before_star:
            positional.append(param.name)
        try:
            annotation = readable(hints.get(param.name, Any), localns)
        except TypeError as exc:
            raise TypeError(f"argument {param.name!r}: {exc}") from exc
        default = ... if param.default is param.empty else param.default
        if param.kind is param.VAR_POSITIONAL:
            var_positional = param.name
            annotation, default = list[annotation], pydantic.Field(default_factory=list)  # type: ignore[valid-type]
        fields[param.name] = (_with_doc(annotation, docs.get(param.name)), default)
    config = pydantic.ConfigDict(
        extra="allow" if var_keyword else "forbid",
        arbitrary_types_allowed=True,
        allow_inf_nan=False,
    )
    try:
        model = pydantic.create_model(f"{name}_arguments", __config__=config, **fields)
        schema = _strip_titles(model.model_json_schema(schema_generator=_generator()))
    except (pydantic.PydanticUserError, pydantic.PydanticSchemaGenerationError) as exc:
        raise TypeError(str(exc).splitlines()[0]) from exc
    schema.setdefault("properties", {})
    return Arguments(model, schema, tuple(positional), var_keyword, var_positional)
