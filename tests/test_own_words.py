"""Words toolhygiene writes itself stay true: the schema advice names every argument,
whatever the arguments are called (cold-12, issue 12)."""

from __future__ import annotations

import inspect
import json
from typing import Any

from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th

_KINDS: dict[str, tuple[Any, str, Any]] = {
    "str": (str, "a string", 7),
    "int": (int, "a whole number", "many"),
    "float": (float, "a number", "lots"),
    "bool": (bool, "true or false", "perhaps"),
    "list": (list[str], "a list", "all"),
}
_SECRET_NAMES = ["password", "token", "session_id", "api_key", "secret", "auth", "cookie",
                 "passwd", "pwd", "signature", "sig", "credential", "private_key", "key"]
_NAMES = st.one_of(
    st.sampled_from(_SECRET_NAMES),
    st.from_regex(r"[a-z][a-z_]{0,11}", fullmatch=True).filter(lambda n: not n.endswith("_")),
)


def _tool(parameters: list[tuple[str, str]]) -> th.Tool[..., Any]:
    def target(**kwargs: Any) -> str:
        return "ok"

    target.__name__ = "target"
    target.__doc__ = "A tool.\n\nArgs:\n" + "".join(f"    {n}: {n}\n" for n, _ in parameters)
    target.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, annotation=_KINDS[k][0])
         for n, k in parameters]
    )
    target.__annotations__ = {n: _KINDS[k][0] for n, k in parameters} | {"return": str}
    return th.tool(target)


@settings(max_examples=examples(60), deadline=None)
@given(
    st.lists(st.tuples(_NAMES, st.sampled_from(sorted(_KINDS))), min_size=1, max_size=5,
             unique_by=lambda p: p[0]),
    st.data(),
)
def test_the_schema_advice_names_every_argument_truly(
    parameters: list[tuple[str, str]], data: st.DataObject
) -> None:
    """A tool with an argument named like a secret (``password``, ``token``): the advice
    still lists every argument with its type, the failing one included; no argument name
    is called a secret."""
    tool = _tool(parameters)
    bad = data.draw(st.sampled_from([n for n, _ in parameters]))
    arguments = {n: _KINDS[k][2] if n == bad else None for n, k in parameters}
    arguments = {n: v for n, v in arguments.items() if v is not None}
    good = {"str": "x", "int": 1, "float": 1.5, "bool": True, "list": ["a"]}
    arguments |= {n: good[k] for n, k in parameters if n != bad}
    with th.Session([tool]) as session:
        line = session.call("target", json.dumps(arguments)).content
    advice = line.split("matching its schema: ", 1)[1]
    expected = ", ".join(f"{n}: {_KINDS[k][1]}" for n, k in parameters)
    assert advice == expected + ".", line
