"""Values known to be secret before any text is read: the seeds of the echo layer.

Two sources. The arguments of the call being handled whose key names a secret
(``password``, ``api_key``, nested ones too): the function received them, and an error
message or a result that repeats one must not show it to the model, wherever and however
it is written. And the process environment: the value of every variable named like a
secret (``DB_PASSWORD``, ``GITHUB_TOKEN``), which a tool printing its environment, a
command line or a config file would otherwise pass on.

``Session`` sets the call's values for the time it builds what the model reads
(``known``); the environment is read again when it changes size and at most once a
second otherwise, so that a variable set while the process runs is seen.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Mapping
from contextvars import ContextVar, Token
from typing import Any

from toolhygiene._labels import code_label, is_secret_label, plausible_value

__all__ = ["MIN_KNOWN", "current", "known", "of_arguments"]

MIN_KNOWN = 6
"""Characters a known value needs to be looked for: shorter ones are words, not secrets."""

_MAX_KNOWN = 4_096
_DEPTH = 6

_call: ContextVar[tuple[str, ...]] = ContextVar("toolhygiene_known", default=())
_environment: list[Any] = [-1, 0.0, ()]
"""[size of os.environ when read, when read (monotonic), the values]."""
_REFRESH = 1.0
_NOT_SECRETS = frozenset(["PWD", "OLDPWD"])
_URL_NAMES = ("_URL", "_URI", "_DSN", "_ADDR")
_URL_PASSWORD = re.compile(r"://[^:/@\s]{0,256}:([^@/\s]{1,256})@")
"""Variables named like a secret that are not one (``pwd``: the working directory)."""


def _usable(value: str) -> bool:
    bare = value.strip()
    return (
        MIN_KNOWN <= len(bare) <= _MAX_KNOWN
        and "[" not in bare
        and "]" not in bare
        and not bare.startswith("/")  # a path (SSH_AUTH_SOCK): shown in every traceback
        and plausible_value(bare, prose_allowed=False)
    )


def _names_secret(key: str) -> bool:
    """Whether a name says its value is secret, as the labelled layer reads it: a secret
    label (``db_password``, ``STRIPE_SK``) or a code that is a credential (``pin``,
    ``passcode``)."""
    return is_secret_label(key) is True or code_label(key)


def _collect(value: Any, secret: bool, found: list[str], depth: int) -> None:
    if depth > _DEPTH:
        return
    kind = type(value)
    if kind is str:  # the common cases first, without the ABC checks below
        if secret and _usable(value):
            found.append(value.strip())
        return
    if kind is dict:
        for key, item in value.items():
            _collect(
                item, secret or (isinstance(key, str) and _names_secret(key)), found, depth + 1
            )
        return
    if isinstance(value, str):
        if secret and _usable(value):
            found.append(value.strip())
    elif isinstance(value, (bytes, bytearray)):
        if secret:
            _collect(bytes(value[:_MAX_KNOWN]).decode("utf-8", "replace"), True, found, depth)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        if secret:
            _collect(str(value), True, found, depth)
    elif isinstance(value, _MAPPINGS):
        _collect_items(value, secret, found, depth)
    elif isinstance(value, (list, tuple)):
        for item in value[:256]:
            if secret or not isinstance(item, _LEAVES):
                _collect(item, secret, found, depth + 1)
    elif secret:
        inner = getattr(value, "get_secret_value", None)  # pydantic SecretStr
        if callable(inner):
            _collect(inner(), True, found, depth + 1)


def _collect_items(mapping: Mapping[Any, Any], secret: bool, found: list[str], depth: int) -> None:
    for key, item in mapping.items():
        named = secret or (isinstance(key, str) and _names_secret(key))
        if named or not isinstance(item, _LEAVES):
            _collect(item, named, found, depth + 1)
        elif type(key) is str and len(_PLAIN_NAMES) < _MAX_PLAIN_NAMES:
            _PLAIN_NAMES.add(key)


_LEAVES = (str, bytes, bytearray, int, float, type(None))
"""Values that hold a secret only under a name that says so: not walked otherwise."""
_LEAF_TYPES = frozenset({str, bytes, bytearray, int, float, bool, type(None)})
"""The exact types of ``_LEAVES`` (``bool`` is an ``int``)."""
_MAPPINGS = (dict, Mapping)
"""``dict`` first: ``isinstance`` checks it in C before asking the ABC."""
_PLAIN_NAMES: set[str] = set()
"""Argument names (exact ``str``) seen naming no secret; a call's names are mostly the
same few, so they are learnt as they are walked."""
_MAX_PLAIN_NAMES = 4_096
_STR = frozenset({str})


def _plain(arguments: dict[Any, Any]) -> bool:
    """Whether ``arguments`` holds only leaves under names already seen naming no secret:
    then it holds no known value, shown without a walk (most calls' arguments)."""
    return (
        _STR.issuperset(map(type, arguments))
        and _PLAIN_NAMES.issuperset(arguments)
        and _LEAF_TYPES.issuperset(map(type, arguments.values()))
    )


def of_arguments(*arguments: Any) -> tuple[str, ...]:
    """The values in ``arguments`` (mappings, as the model sent them or as validated;
    anything else is passed over) held under a key that names a secret, at any depth."""
    found: list[str] = []
    for value in arguments:
        if type(value) is dict and _plain(value):
            continue
        if isinstance(value, _MAPPINGS):
            _collect_items(value, False, found, 0)
    return tuple(dict.fromkeys(found)) if found else ()


class known:  # noqa: N801 (used as a function: ``with known(values):``)
    """Within the block, ``values`` are redacted wherever they are echoed (a class, not
    a generator: it runs on every call, and most calls have no such values)."""

    __slots__ = ("_token", "_values")

    def __init__(self, values: tuple[str, ...]) -> None:
        self._values = values
        self._token: Token[tuple[str, ...]] | None = None

    def __enter__(self) -> None:
        if self._values:
            self._token = _call.set(self._values)

    def __exit__(self, *exc_info: object) -> None:
        if self._token is not None:
            _call.reset(self._token)


def _from_environment() -> tuple[str, ...]:
    size, now = len(os.environ), time.monotonic()
    if size == _environment[0] and now - _environment[1] < _REFRESH:
        values: tuple[str, ...] = _environment[2]
        return values
    # The names alone first: reading a value decodes it (os.environ is Python code), and
    # most variables are not named like a secret.
    named = [
        name for name in os.environ if name.upper() not in _NOT_SECRETS and _names_secret(name)
    ]
    found = [
        value.strip()
        for value in map(os.environ.get, named)
        if value is not None and _usable(value)  # None: unset since the names were read
    ]
    # the password of a URL in a variable named for one (``DATABASE_URL``, ``REDIS_URI``)
    from urllib.parse import unquote  # not with toolhygiene: it brings ipaddress

    for name in os.environ:
        if name.upper().endswith(_URL_NAMES):
            m = _URL_PASSWORD.search(os.environ.get(name) or "")
            if m is not None and _usable(unquote(m.group(1))):
                found.append(unquote(m.group(1)))
    values = tuple(dict.fromkeys(found))
    _environment[:] = [size, now, values]
    return values


def current() -> tuple[str, ...]:
    """The known values in effect: the current call's and the environment's."""
    call = _call.get()
    environment = _from_environment()
    return call + environment if call else environment
