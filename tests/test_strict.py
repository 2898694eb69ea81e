"""Strict schemas for the shapes pydantic emits beyond the plain ones: unions, lists of
models, formats one API lacks, models that refer to each other, and what a strict model's
``null`` means at every depth."""

from __future__ import annotations

import datetime
from typing import Annotated, Any, Literal

import pydantic
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import AnyUrl, BaseModel, Field

import toolhygiene as th
from api_rules import check_definition, validates

FORMATS = ["anthropic", "openai_chat", "openai_responses"]


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = 9


class Dog(BaseModel):
    kind: Literal["dog"]
    good: bool = True


class Line(BaseModel):
    sku: str
    qty: int = 1


@th.tool
def adopt(pet: Annotated[Cat | Dog, Field(discriminator="kind")], lines: list[Line],
          site: AnyUrl | None = None) -> dict[str, Any]:
    """Adopt a pet.

    Args:
        pet: which animal.
        lines: what else to buy.
        site: where it was found.
    """
    return {"pet": pet.model_dump(), "lines": [line.model_dump() for line in lines],
            "site": str(site) if site else None}


STRICT_ARGS = {"pet": {"kind": "dog", "good": None},
               "lines": [{"sku": "A", "qty": None}, {"sku": "B", "qty": 3}], "site": None}


@pytest.mark.parametrize("fmt", FORMATS)
def test_unions_and_lists_of_models_obey_the_rules(fmt: str) -> None:
    definition = adopt.schema(fmt, strict=True)  # type: ignore[arg-type]
    check_definition(definition, fmt)
    schema = definition.get("input_schema") or definition.get("parameters") \
        or definition["function"]["parameters"]
    assert validates(schema, STRICT_ARGS)
    assert "discriminator" not in repr(schema) and "oneOf" not in repr(schema)


def test_nulls_inside_lists_and_unions_mean_the_defaults() -> None:
    outcome = th.Session([adopt]).call("adopt", STRICT_ARGS)
    assert outcome.ok, outcome.content
    assert outcome.value == {"pet": {"kind": "dog", "good": True},
                             "lines": [{"sku": "A", "qty": 1}, {"sku": "B", "qty": 3}],
                             "site": None}


def test_a_format_one_api_lacks_moves_into_the_description() -> None:
    openai_site = adopt.strict_parameters("openai")["properties"]["site"]
    anthropic_site = adopt.strict_parameters("anthropic")["properties"]["site"]
    assert openai_site["anyOf"][0] == {"type": "string",
                                       "description": "at least 1 character; in uri format"}
    assert '"format": "uri"' in repr(anthropic_site).replace("'", '"')


def test_models_that_refer_to_each_other_are_refused_for_anthropic_only() -> None:
    class Folder(BaseModel):
        name: str
        files: list[File] = []

    class File(BaseModel):
        name: str
        parent: Folder | None = None

    Folder.model_rebuild()

    @th.tool
    def tree(root: Folder) -> int:
        """Count files."""
        return len(root.files)

    check_definition(tree.schema("openai_responses", strict=True), "openai_responses")
    with pytest.raises(th.UsageError, match="contains itself, which Anthropic's strict mode"):
        tree.schema("anthropic", strict=True)


def test_docstring_description_under_an_explicit_one() -> None:
    @th.tool
    def pick(n: Annotated[int, Field(description="explicit", ge=1)],
             m: Annotated[int, Field(ge=2)]) -> None:
        """Pick.

        Args:
            n: from the docstring.
            m: from the docstring too.
        """

    props = pick.parameters["properties"]
    assert props["n"] == {"type": "integer", "description": "explicit", "minimum": 1}
    assert props["m"] == {"type": "integer", "description": "from the docstring too.",
                          "minimum": 2}


def test_a_type_without_a_json_schema_is_a_usage_error() -> None:
    class Connection:
        pass

    with pytest.raises(th.UsageError, match="cannot build the argument schema of query"):
        @th.tool
        def query(conn: Connection) -> None:
            """Query."""


def test_plain_bound_methods_and_classes_are_tools() -> None:
    class Greeter:
        """Greets people."""

        def __init__(self, greeting: str = "hi") -> None:
            """Make a greeter.

            Args:
                greeting: the word to use.
            """
            self.greeting = greeting

        def greet(self, name: str) -> str:
            """Greet someone.

            Args:
                name: who.
            """
            return f"{self.greeting} {name}"

    session = th.Session([Greeter("hello").greet, th.tool(Greeter, name="make_greeter")])
    assert session.call("greet", {"name": "Ada"}).value == "hello Ada"
    assert set(session.tools["greet"].parameters["properties"]) == {"name"}
    maker = session.tools["make_greeter"]
    assert maker.invoke(maker.validate({"greeting": "yo"})).greeting == "yo"
    made = session.call("make_greeter", {"greeting": "yo"})
    assert "the result holds a value of type Greeter, which has no JSON form" in made.content
    assert session.tools["make_greeter"].parameters["properties"]["greeting"]["description"] \
        == "the word to use."


def test_strict_validation_needs_no_strict_schema_call_first() -> None:
    """The null-means-default reading works whichever schema the model was given."""
    assert th.Session([adopt]).call("adopt", {"pet": {"kind": "cat", "lives": None},
                                              "lines": []}).value["pet"] == {"kind": "cat",
                                                                              "lives": 9}


def test_pydantic_itself_agrees_with_the_strict_schema() -> None:
    schema = adopt.strict_parameters("openai")
    assert pydantic.TypeAdapter(dict).validate_python(STRICT_ARGS) == STRICT_ARGS
    assert validates(schema, STRICT_ARGS)
    assert not validates(schema, {k: v for k, v in STRICT_ARGS.items() if k != "site"})


class Point(BaseModel):
    x: float
    label: str = ""


SCALARS = st.sampled_from([str, int, float, bool, datetime.date, Literal["a", "b"], Point,
                           Annotated[int, Field(ge=0, le=9)],
                           Annotated[str, Field(min_length=1, pattern="^[a-z]+$")]])
TYPES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        inner.map(lambda t: list[t]),  # type: ignore[valid-type]
        inner.map(lambda t: t | None),
        inner.map(lambda t: dict[str, t]),  # type: ignore[valid-type]
        st.tuples(inner, inner).map(lambda ts: tuple[ts[0], ts[1]]),  # type: ignore[valid-type]
    ),
    max_leaves=4,
)


@given(st.lists(st.tuples(TYPES, st.booleans()), min_size=1, max_size=4))
def test_any_signature_is_strict_by_the_rules_or_refused_by_name(
        params: list[tuple[Any, bool]]) -> None:
    names = [f"p{i}" for i in range(len(params))]
    ordered = sorted(zip(names, params, strict=True), key=lambda item: item[1][1])
    source = ", ".join(f"{name}=None" if optional else name
                       for name, (_, optional) in ordered)
    scope: dict[str, Any] = {}
    exec(f"def generated({source}):\n    return 'ok'\n", scope)
    fn = scope["generated"]
    fn.__annotations__ = {name: kind for name, (kind, _) in ordered}
    tool = th.tool(fn)
    for fmt in FORMATS:
        check_definition(tool.schema(fmt), fmt)  # type: ignore[arg-type]
        try:
            definition = tool.schema(fmt, strict=True)  # type: ignore[arg-type]
        except th.UsageError as exc:
            assert str(exc).startswith("generated cannot be strict: '")
            assert "which strict mode cannot express" in str(exc)
            continue
        check_definition(definition, fmt)
