"""A tool's return value as the JSON text the model reads, the same for every format.

pydantic models (their own serialisers honoured), dataclasses, mappings (TypedDicts
among them), enums (their value), datetimes (ISO 8601), sets (sorted, so the text is
stable for prompt caching), bytes (their text when they are UTF-8 text, else standard
base64), and whatever else pydantic knows
(UUID, Decimal, paths, IP addresses). NaN and infinity are refused with the place they
were found: JSON has no such numbers, and ``null`` in their place would be a lie. So is
pending work (``pending``: a coroutine, Task or Future, a generator, a Thread, an
async function itself: a tool that forgot ``await``, ``.result()`` or the call): its text
would read as a success for work that never ran or was never collected. Nor does the
model ever read a ``repr``: a function, a class or an object whose text is its address
has no JSON form.
"""

from __future__ import annotations

import base64
import contextvars
import dataclasses
import decimal
import enum
import inspect
import json
import math
import re
import sys
from collections.abc import AsyncGenerator, Coroutine, Generator, Mapping
from typing import Any, Literal

__all__ = ["UnserializableError", "pending", "plain_data", "to_json"]

_LEAVES = (str, int, bool, type(None))

Problem = Literal["non_finite", "refers_to_itself", "no_json_form", "bad_key", "not_awaited"]


class UnserializableError(ValueError):
    """A return value that has no faithful JSON form: the ``problem``, its ``detail``
    (``NaN``, a type's name) and the ``path`` where it was found (``""`` at the top);
    ``_words.not_json`` says it in words."""

    def __init__(self, problem: Problem, detail: str, path: str) -> None:
        super().__init__(problem, detail, path)
        self.problem, self.detail, self.path = problem, detail, path


def to_json(value: Any, *, redact_bytes: bool = True) -> str:
    """``value`` as JSON text (``UnserializableError`` when it has no faithful JSON form).
    ``redact_bytes=False``: binary bytes are base64 of the bytes as returned (a tool's
    ``redact_results=False``), not of the bytes with their secrets replaced.

    What ``json`` carries as it is (strings, numbers, lists, dicts of them: most results)
    is written in one pass; only what it refuses (NaN, a set, a model, a date, a key it
    cannot write, a value that refers to itself) is walked, to convert it or to say where
    it has no JSON form."""
    try:
        text: str | None = _write(value)
    except (TypeError, ValueError, RecursionError):
        text = None
    if text is None or ("[" in text and _holds_named(value)):
        # walked: json refused it, or it holds a named tuple (written with its fields'
        # names, ``_named``)
        token = _REDACT_BYTES.set(redact_bytes)
        try:
            text = _write(_plain(value, "", set()))
        finally:
            _REDACT_BYTES.reset(token)
    # json escapes C0 controls but writes C1 ones (U+0080-U+009F) raw; raw, a C1 string
    # terminator or command introducer reads as a terminal sequence to the step that
    # removes them, which would cut across the JSON's structure. Escaped, they stay data.
    # They can only stand inside strings, so the whole text is searched.
    return text if text.isascii() else _C1.sub(_escaped, text)


_C1 = re.compile("[\x80-\x9f]")


def _escaped(found: re.Match[str]) -> str:
    return f"\\u{ord(found.group()):04x}"


def plain_data(value: Any) -> Any:
    """``value`` as the plain data (dicts, lists, strings, numbers) its JSON text is made
    of, as for a successful result (``UnserializableError`` when it has none)."""
    return _plain(value, "", set())


_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False)
"""``json.dumps(value, ensure_ascii=False, allow_nan=False)``: the text the model reads
(``", "`` and ``": "`` between items, as ``json.dumps`` writes them)."""


def _write(value: Any) -> str:
    """``_ENCODER.encode(value)``, by json's own C encoder made once: ``encode`` makes a
    new one, and walks the value in Python first, on every call (2.9 us of a 4-key dict's
    JSON text, against 1.6). Made without ``markers``, it has no state, so threads share
    it: a value that refers to itself is ``RecursionError`` (the walk then finds where),
    not json's ``ValueError``. A Python without the C module encodes as ``_ENCODER``."""
    if _C_ENCODER is None:
        return _ENCODER.encode(value)
    return "".join(_C_ENCODER(value, 0))


_MAKE_ENCODER: Any = getattr(json.encoder, "c_make_encoder", None)
"""json's C encoder class, as ``JSONEncoder.iterencode`` makes it (``None`` on a Python
without the C module)."""
_C_ENCODER = (
    None
    if _MAKE_ENCODER is None
    else _MAKE_ENCODER(
        None,  # markers: none, so nothing is kept between calls
        _ENCODER.default,  # raises TypeError: the value is walked
        json.encoder.encode_basestring,  # ensure_ascii=False
        None,  # indent
        _ENCODER.key_separator,
        _ENCODER.item_separator,
        False,  # sort_keys
        False,  # skipkeys
        False,  # allow_nan
    )
)


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""Control characters no text has (tab, newline and carriage return are text)."""


_REDACT_BYTES: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "toolhygiene_redact_bytes", default=True
)
"""Whether binary bytes in the value ``to_json`` walks have their secrets replaced
before base64 (``False`` under a tool's ``redact_results=False``)."""


def _bytes_text(data: bytes) -> str:
    """Bytes as the model reads them: their text when they are UTF-8 text (a tool that
    returns ``b"high water 14:05"`` meant those words: base64 of them is unreadable, and
    looks like a secret to the redactor), else standard base64 (binary) of the bytes
    with their secrets redacted first (``_binary``; not under ``redact_results=False``)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return base64.b64encode(_binary(data) if _REDACT_BYTES.get() else data).decode("ascii")
    if _CONTROL.search(text) is not None:
        return base64.b64encode(_binary(data) if _REDACT_BYTES.get() else data).decode("ascii")
    return text


def _binary(data: bytes) -> bytes:
    """``data`` with every secret the detectors find in it replaced by its placeholder:
    read as Latin-1 (one character a byte, so a secret in ASCII among binary bytes is
    read as written), redacted, and written back byte for byte. Base64 of a secret
    is as readable to the model as the secret (``b"\\xff pw=hunter2!"``)."""
    from toolhygiene._engine import scrub  # the redaction engine, at the first binary result

    view = data.decode("latin-1")
    scrubbed = scrub(view, internals=False)
    return data if scrubbed is view else scrubbed.encode("latin-1", "replace")


def _plain(value: Any, path: str, active: set[int]) -> Any:
    if isinstance(value, _LEAVES) and not isinstance(value, enum.Enum):
        return value
    if isinstance(value, (float, decimal.Decimal)):
        nan = value.is_nan() if isinstance(value, decimal.Decimal) else math.isnan(value)
        if (
            nan
            or (isinstance(value, float) and math.isinf(value))
            or (isinstance(value, decimal.Decimal) and value.is_infinite())
        ):
            raise UnserializableError("non_finite", "NaN" if nan else "infinity", path)
        if isinstance(value, float):
            return value
    if isinstance(value, enum.Enum):
        return _plain(value.value, path, active)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return _bytes_text(bytes(value))
    if id(value) in active:
        raise UnserializableError("refers_to_itself", "", path)
    active.add(id(value))
    try:
        return _container(value, path, active)
    finally:
        active.discard(id(value))


def _container(value: Any, path: str, active: set[int]) -> Any:
    # No value is a pydantic model before pydantic is imported: it is not imported here.
    pydantic = sys.modules.get("pydantic")
    if pydantic is not None and isinstance(value, pydantic.BaseModel):
        value = value.model_dump(mode="python")
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {
            _key(k, path): _plain(v, f"{path}.{k}" if path else str(k), active)
            for k, v in value.items()
        }
    if isinstance(value, tuple):
        fields = _named(value)
        if fields is not None:
            return {
                name: _plain(v, f"{path}.{name}" if path else name, active)
                for name, v in zip(fields, value, strict=True)
            }
    if isinstance(value, (list, tuple)):
        return [_plain(v, f"{path}[{i}]", active) for i, v in enumerate(value)]
    if isinstance(value, (set, frozenset)):
        items = [_plain(v, f"{path}{{}}", active) for v in value]
        return sorted(items, key=lambda item: json.dumps(item, sort_keys=True))
    found = pending(value)  # before pydantic, which would run a generator
    if found is not None:
        raise UnserializableError("not_awaited", found, path)
    import pydantic_core  # only for a value none of the above knows

    try:
        known = pydantic_core.to_jsonable_python(value)
    except pydantic_core.PydanticSerializationError:
        known = _MISSING
    if known is not _MISSING:
        return _plain(known, path, active)
    kind: Any = type(value)
    if kind.__str__ is not object.__str__ or kind.__repr__ is not object.__repr__:
        text = str(value)
        if not (isinstance(value, type) or inspect.isroutine(value) or _ADDRESS.search(text)):
            return text
    raise UnserializableError("no_json_form", kind.__name__, path)


_MISSING = object()


def _named(value: tuple[Any, ...]) -> tuple[str, ...] | None:
    """The field names of a named tuple (``collections.namedtuple``, ``typing.NamedTuple``:
    ``Credentials(user, password)``, ``urlsplit()``'s result), ``None`` for any other
    tuple. Its fields' names are the only labels its values have: written as a list, a
    ``password`` field would reach the model as a bare string no rule can tell apart."""
    fields = getattr(type(value), "_fields", None)
    if (
        type(fields) is tuple
        and len(fields) == len(value)
        and all(type(name) is str for name in fields)
        and len(set(fields)) == len(fields)
    ):
        return fields
    return None


def _holds_named(value: Any) -> bool:
    """Whether a value json wrote (dicts, lists, tuples and leaves) holds a named tuple
    anywhere: the containers' item types are read in C (``map(type, …)``), and only the
    containers among them are walked, without recursion (json's depth is Python's)."""
    if not isinstance(value, (dict, list, tuple)):
        return False
    stack = [value]
    while stack:
        current = stack.pop()
        if isinstance(current, tuple) and _named(current) is not None:
            return True
        items = current.values() if isinstance(current, dict) else current
        if not set(map(type, items)) <= _LEAF_KINDS:
            stack.extend(v for v in items if isinstance(v, (dict, list, tuple)))
    return False


_LEAF_KINDS = frozenset([str, int, float, bool, type(None)])

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")
"""The address in a default ``repr`` (``<function f at 0x7f...>``): never the model's."""


def pending(value: Any) -> str | None:
    """The kind of work ``value`` is when that work is still to be done, awaited or
    collected: ``coroutine``, ``generator``, ``async_generator``, ``async_function`` (an
    async function itself, never called), ``concurrent_future``, ``thread``,
    ``asyncio:<class>`` (a Future or Task) or ``awaitable:<class>`` (any other object with
    ``__await__``); ``None`` for anything else. The one list, for results and hooks
    (``_words.pending_words`` says it in words)."""
    if isinstance(value, Coroutine):
        return "coroutine"
    if isinstance(value, Generator):
        return "generator"
    if isinstance(value, AsyncGenerator):
        return "async_generator"
    if inspect.iscoroutinefunction(value) or inspect.isasyncgenfunction(value):
        return "async_function"
    cls = type(value)
    futures = sys.modules.get("concurrent.futures")  # none made before it is imported
    if futures is not None and isinstance(value, futures.Future):
        return "concurrent_future"
    threading = sys.modules.get("threading")
    if threading is not None and isinstance(value, threading.Thread):
        return "thread"
    if getattr(cls, "__await__", None) is None:
        return None
    if cls.__module__.startswith("asyncio") or cls.__module__ == "_asyncio":
        return f"asyncio:{cls.__name__}"
    return f"awaitable:{cls.__qualname__}"


def _key(key: Any, path: str) -> str:
    if isinstance(key, enum.Enum):
        key = key.value
    if isinstance(key, str):
        return key
    if isinstance(key, (int, float, bool)) or key is None:
        return json.dumps(key)
    raise UnserializableError("bad_key", type(key).__name__, path)
